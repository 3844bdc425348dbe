//! A user who renames the dependency (`renamed_facade = { package = "cute-layout", ... }`)
//! still gets working items, kernels and expressions: the facade's `layout!` passes its own
//! path (`$crate`) to the procedural macro, and nothing in the expansion names `cute_layout`.

use renamed_facade::{StaticLayout, Tensor, TensorMut};

renamed_facade::layout! {
    pub Tiled = ((2,4),3):((1,6),2);
    pub Col = (8,8):(1,8);
    pub Row = (8,8):(8,1);
    pub fn transpose = copy(Col, Row);
    pub fn small = gemm(f64, (4,4):(1,4), (4,4):(1,4), (4,4):(1,4));
}

#[test]
fn items_kernels_and_expressions_resolve_through_a_renamed_dependency() {
    assert_eq!(Tiled::offset(5), 13);
    assert_eq!(<Tiled as StaticLayout>::COSIZE, 24);
    let l = renamed_facade::layout!((4,8):(1,4));
    assert_eq!(l.at(9), 9);

    let src: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut dst = vec![0.0f32; 64];
    let s = Tensor::new(&src, Col).unwrap();
    let mut d = TensorMut::new(&mut dst, Row).unwrap();
    transpose(&s, &mut d);
    for i in 0..64 {
        assert_eq!(dst[Row::offset(i)], src[Col::offset(i)]);
    }

    let a: Vec<f64> = (0..16).map(f64::from).collect();
    let b = vec![1.0f64; 16];
    let mut c = vec![0.0f64; 16];
    small(1.0, &a, &b, 0.0, &mut c);
    // C(m,n) = Σ_k A(m,k)·B(n,k) with B all ones: the row sums of A.
    for m in 0..4 {
        let want: f64 = (0..4).map(|k| a[m + 4 * k]).sum();
        assert_eq!(c[m], want);
    }
}
