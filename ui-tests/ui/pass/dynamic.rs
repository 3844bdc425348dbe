// Dynamic layouts: symbols, facts, items over earlier dynamic items, kernel items with
// operands written inline over symbols.
use cute_layout::{LayoutFn, RuntimeLayout, Tensor, TensorMut, layout};

layout! {
    pub Mat = (M,N):(1,LD);
    pub Tiled = logical_divide(Mat, [8:1, 8:1]) where M % 64 == 0, LD >= M;
    pub Tile = local_tile(Mat, [8:1, 8:1]);
    pub Rows = composition((M,N):(1,LD), 8:1) where M >= 8;
    pub Packed = ((8,M),N):((1,8),LDA);
    pub Scaled = (M/4, 4*N):(4, LD);
    pub fn to_mat = copy((M,N):(N,1), Mat);
    pub fn mm = gemm(f64, ((2,M),K):((1,2),LDA), (N,K):(1,N), (2*M,N):(1,2*M));
}

fn main() {
    let t = Tiled::new(64, 8, 64).unwrap();
    assert_eq!(t.size(), 512);
    assert!(Tiled::new(32, 8, 64).is_err());
    assert_eq!(Tile::new(16, 16, 16).unwrap().offset(9), 17);
    assert_eq!(Rows::new(8, 2, 10).unwrap().size(), 8);
    assert_eq!(Packed::new(2, 3, 100).unwrap().offset(16), 100);
    let s = Scaled::new(8, 2, 20).unwrap();
    assert_eq!(LayoutFn::size(&s), 16);
    assert!(Scaled::new(6, 2, 20).is_err());
    let src: Vec<f32> = (0..6).map(|x| x as f32).collect();
    let mut dst = vec![0f32; 8];
    let rows = RuntimeLayout::<2>::new(&[(2, 3), (3, 1)]).unwrap();
    to_mat(&Tensor::new(&src, rows).unwrap(), &mut TensorMut::new(&mut dst, Mat::new(2, 3, 2).unwrap()).unwrap());
    assert_eq!(dst[..6], [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    let (a, b) = ([1f64; 8], [1f64; 6]);
    let mut c = [0f64; 12];
    let ta = Tensor::new(&a, RuntimeLayout::<3>::new(&[(2, 1), (2, 2), (2, 4)]).unwrap()).unwrap();
    let tb = Tensor::new(&b, RuntimeLayout::<2>::new(&[(3, 1), (2, 3)]).unwrap()).unwrap();
    let tc = RuntimeLayout::<2>::new(&[(4, 1), (3, 4)]).unwrap();
    mm(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, tc).unwrap());
    assert_eq!(c, [2.0; 12]);
}
