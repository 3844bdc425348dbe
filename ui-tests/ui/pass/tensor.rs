//! Tensors over generated layouts in a crate that forbids unsafe code: the `unsafe impl`s
//! the macro emits come from the macro, not from this crate.
#![forbid(unsafe_code)]

use cute_layout::{SubLayout, Tensor, TensorMut, layout};

layout! {
    pub A = (8,8):(1,8);
    pub Tile = local_tile(A, [4:1, 2:1]);
    pub Part = local_partition(A, [4:1, 2:1]);
    pub Col = slice(A, (_, 0));
    pub Reversed = (4,2):(-1,4);
}

fn main() {
    let mut data: Vec<u32> = (0..64).collect();
    let t = Tensor::new(&data, A).unwrap();
    assert_eq!(t.tile::<Tile>(1)[0], 4);
    assert_eq!(t.tile::<Part>(1).iter().copied().sum::<u32>(), (0..8).map(|j| 1 + 4 * (j % 2) + 16 * (j / 2)).sum());
    assert_eq!(<Col as SubLayout<A>>::COUNT, 8);
    let mut m = TensorMut::new(&mut data, A).unwrap();
    m.tile::<Col>(2).for_each_mut(|x| *x = 0);
    assert_eq!(data[16..24], [0; 8]);
    let r = Tensor::new(&data[..8], Reversed).unwrap();
    assert_eq!(r.base(), 3);
    copies();
}

layout! {
    pub Src = (8,8):(1,8);
    pub B = (8,8):(8,1);
    /// A copy between tensors, in a crate that forbids unsafe code.
    pub fn transpose = copy(Src, B);
    /// An indexed copy (no common refinement of the shapes).
    pub fn reshape = copy((2,3):(3,1), (3,2):(2,1));
}

fn copies() {
    let src: Vec<u32> = (0..64).collect();
    let mut dst = vec![0u32; 64];
    let s = Tensor::new(&src, Src).unwrap();
    let mut d = TensorMut::new(&mut dst, B).unwrap();
    transpose(&s, &mut d);
    assert_eq!(dst[1], 8);
    let mut out = [0u32; 6];
    reshape(&src[..6], &mut out);
    assert_eq!(out, [0, 4, 3, 2, 1, 5]);
}
