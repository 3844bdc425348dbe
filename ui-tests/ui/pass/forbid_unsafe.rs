// `layout!` in a crate that forbids unsafe code: static, dynamic, sub-layout, edge, copy and
// GEMM items all expand and run.
#![forbid(unsafe_code)]

use cute_layout::{Tensor, TensorMut, layout};

layout! {
    pub A = (8,8):(1,8);
    pub Tile = local_tile(A, [4:1, 2:1]);
    pub Mat = (M,N):(1,LD);
    pub Edges = local_tile_edge(Mat, [4:1, 4:1]);
    pub fn transpose = copy((8,3):(1,8), (8,3):(3,1));
    pub fn small = gemm(f32, (4,4):(1,4), (4,4):(1,4), (4,4):(1,4));
    pub fn large = gemm(f64, (64,64):(1,64), (64,64):(1,64), (64,64):(1,64));
}

fn main() {
    let data: Vec<f32> = (0..64).map(|x| x as f32).collect();
    let a = Tensor::new(&data, A).unwrap();
    assert_eq!(a.tile::<Tile>(1)[0], 4.0);
    let m = Tensor::new(&data, Mat::new(5, 6, 8).unwrap()).unwrap();
    assert_eq!(*m.at((4, 5)), 44.0);
    let tiles = Edges::new(5, 6, 8).unwrap();
    assert_eq!(m.edge_tile(&tiles, 3).unwrap().len(), 2);
    let mut out = vec![0f32; 24];
    transpose(&data[..24], &mut out);
    assert_eq!(out[1], 8.0);
    let mut c = vec![0f32; 16];
    small(1.0, &data[..16], &data[..16], 0.0, &mut c);
    let (x, y) = (vec![1f64; 4096], vec![1f64; 4096]);
    let mut z = vec![0f64; 4096];
    large(1.0, &x, &y, 0.0, &mut z);
    assert_eq!(z[0], 64.0);
    let mut w = vec![0u32; 64];
    let mut t = TensorMut::new(&mut w, A).unwrap();
    t.iter_mut().enumerate().for_each(|(i, x)| *x = i as u32);
    assert_eq!(w[9], 9);
}
