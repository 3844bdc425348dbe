//! `layout!` in a crate that forbids `unsafe`: a copy run by the precompiled kernels, a
//! straight-line copy, an indexed copy, a small static GEMM and a large GEMM compile and run,
//! over slices and tensors (issue 21: the emitted code calls only safe, checked entries).
#![forbid(unsafe_code)]

use cute_layout::{Tensor, TensorMut, layout};

layout! {
    pub ColMajor = (64,64):(1,64);
    pub RowMajor = (64,64):(64,1);
    /// A 64x64 transpose: the precompiled kernels.
    pub fn transpose = copy(ColMajor, RowMajor);
    /// Table 2's gather: a 3x2 body straight-line at each of 16 points.
    pub fn gather = copy(((2,3,2),16):((42,1,128),256), (12,16):(1,12));
    /// A swizzled destination: one element at a time.
    pub fn swizzled = copy((8,8):(8,1), Sw<2,0,3> o (8,8):(8,1));
    pub fn small = gemm(f32, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn large = gemm(f64, (40,40):(1,40), (40,40):(40,1), (40,40):(1,40));
    /// Over layouts with symbols (issue 22): tensors of dynamic items.
    pub Src = (M,N):(1,LDS) where LDS >= M;
    pub Dst = (M,N):(LDD,1) where LDD >= N;
    pub fn to_row_major = copy(Src, Dst);
    pub A = (M,K):(1,LDA) where LDA >= M;
    pub B = (N,K):(LDB,1) where LDB >= K;
    pub C = (M,N):(1,LDC) where LDC >= M;
    pub fn sgemm = gemm(f32, A, B, C);
    /// Operands written inline over symbols: hidden items inside the functions.
    pub fn from_inline = copy((M,N):(1,M), Dst);
    pub fn gemm_inline = gemm(f64, (M,K):(1,M), (N,K):(K,1), (M,N):(1,M));
}

fn main() {
    let src: Vec<f32> = (0..4096).map(|i| i as f32).collect();
    let mut dst = vec![0f32; 4096];
    transpose(&src, &mut dst);
    assert_eq!(dst[1], 64.0);
    let s = Tensor::new(&src, ColMajor).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor).unwrap();
    transpose(&s, &mut d);

    let table: Vec<u32> = (0..4096).collect();
    let mut out = vec![0u32; 12 * 16];
    gather(&table, &mut out);
    assert_eq!(out[1], 42);

    let mut sw = [0u16; 64];
    swizzled(&[7u16; 64], &mut sw);
    assert!(sw.iter().all(|&x| x == 7));

    let mut c = [0f32; 16];
    small(1.0, &[1.0; 16], &[1.0; 16], 0.0, &mut c);
    assert_eq!(c, [4.0; 16]);

    let mut c = vec![0f64; 1600];
    large(1.0, &vec![1.0; 1600], &vec![1.0; 1600], 0.0, &mut c);
    assert!(c.iter().all(|&x| x == 40.0));

    let s = Tensor::new(&src, Src::new(64, 64, 64).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, Dst::new(64, 64, 64).unwrap()).unwrap();
    to_row_major(&s, &mut d);
    assert!(try_to_row_major(&s, &mut d).is_ok());
    let (a, b) = (vec![1f32; 64 * 8], vec![1f32; 64 * 8]);
    let mut c = vec![0f32; 64 * 64];
    let (ta, tb) = (Tensor::new(&a, A::new(64, 8, 64).unwrap()).unwrap(), Tensor::new(&b, B::new(64, 8, 8).unwrap()).unwrap());
    sgemm(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, C::new(64, 64, 64).unwrap()).unwrap());
    assert!(c.iter().all(|&x| x == 8.0));

    let s = Tensor::new(&src, Src::new(64, 64, 64).unwrap()).unwrap();
    from_inline(&s, &mut TensorMut::new(&mut dst, Dst::new(64, 64, 64).unwrap()).unwrap());
    assert_eq!(dst[1], 64.0);
    let (a, b) = (vec![1f64; 6], vec![1f64; 6]);
    let mut c = vec![0f64; 4];
    let ta = Tensor::new(&a, A::new(2, 3, 2).unwrap()).unwrap();
    let tb = Tensor::new(&b, B::new(2, 3, 3).unwrap()).unwrap();
    gemm_inline(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, C::new(2, 2, 2).unwrap()).unwrap());
    assert_eq!(c, [3.0; 4]);
}
