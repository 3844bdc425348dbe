//! `layout explain` of kernel items: the copy plan and the GEMM plan `layout!` would run, or
//! the reason the kernel is rejected.

use layout_cli::{explain, explain_for_caches};
use layout_plan::gemm_blocking::AVX2_REFERENCE_CACHES;

#[test]
fn copy_plan_of_a_transpose() {
    let text = explain("copy((1024,1024):(1,1024), (1024,1024):(1024,1))").unwrap();
    insta::assert_snapshot!(text);
}

#[test]
fn copy_plan_of_table_2_cases() {
    for (expr, body) in [
        ("copy((16,8):(1,16), (16,8):(1,32))", "body: vector copy of 16 contiguous elements"),
        ("copy(7:0, 7:1)", "body: broadcast one element to 7 contiguous elements"),
        ("copy((2,3,2):(42,1,128), 12:1)", "common vector: 1 element"),
        ("copy((8,(3,5)):(1,(57,8)), (8,15):(1,8))", "common vector: 8 elements"),
        ("copy((2,3):(3,1), (3,2):(2,1))", "body: indexed"),
        ("copy((4,2):(1,4), (4,2):(1,0), overlapping)", "reduced to their last write: 2:(4,0)"),
    ] {
        let text = explain(expr).unwrap();
        assert!(text.contains(body), "{expr}:\n{text}");
    }
}

#[test]
fn rejected_copies_say_why() {
    let err = explain("copy(8:1, (4,2):(1,0))").unwrap_err();
    assert!(err.contains("is not injective: indices 0 and 4 both write offset 0"), "{err}");
    assert!(err.contains("overlapping"), "{err}");
    let err = explain("copy(8:1, 6:1)").unwrap_err();
    assert!(err.contains("has 8 elements but the destination `6:1` has 6"), "{err}");
    assert!(explain("copy(8:1, 8:1, sometimes)").is_err());
}

#[test]
fn gemm_plan_of_a_convolution() {
    let text = explain("gemm(f32, ((4,4),(3,3)):((1,6),(1,6)), (2,(3,3)):(9,(1,3)), ((4,4),2):((1,4),16))").unwrap();
    insta::assert_snapshot!(text);
    let err = explain("gemm(f32, (8,4):(1,8), (5,3):(3,1), (8,5):(1,8))").unwrap_err();
    assert!(err.contains("the extents of K differ: A has 4 and B has 3"), "{err}");
    assert!(explain("gemm(i32, (8,4):(1,8), (5,4):(4,1), (8,5):(1,8))").is_err());
}

#[test]
fn gemm_plan_of_a_large_problem_shows_the_blocking() {
    // The AVX2 and AVX-512 blocks follow the caches CPUID reports: the snapshot fixes the
    // AVX2 reference caches (`AVX2_REFERENCE_CACHES`), so AVX-512's MC scales to their L2.
    let gemm = "gemm(f32, (1024,1024):(1,1024), (1024,1024):(1024,1), (1024,1024):(1,1024))";
    let text = explain_for_caches(gemm, Some(AVX2_REFERENCE_CACHES)).unwrap();
    insta::assert_snapshot!(text);
    // Without cache sizes, the constant blocks (the same numbers: they are derived from those
    // caches).
    let fixed = explain_for_caches(gemm, None).unwrap();
    assert!(fixed.contains("KC = 512 (max 512), MC = 128 (max 128)"), "{fixed}");
    // The constant blocks' caches are named by level and sizes.
    let avx2 = "caches: L1d 32 KiB, L2 512 KiB, L3 32 MiB (the AVX2+FMA reference caches the constant blocks are for)";
    assert!(fixed.contains(avx2), "{fixed}");
    for needle in [
        "the engine's blocked loop nest with packing",
        "loop order: jc += NC",
        "level AVX-512 f32: micro-kernel 32x12",
        "level AVX2+FMA f32: micro-kernel 16x6",
        "level portable f32: micro-kernel 8x4",
        "A panel (i,p) -> ((32,4),342):((1,10944),32)",
        "L2 512 KiB; MC computed from them",
        "kernels of 4, 8 columns",
    ] {
        assert!(text.contains(needle), "{needle}:\n{text}");
    }
    // f64 halves MR; a row-major C is computed transposed; small problems are not packed.
    let text = explain("gemm(f64, (500,300):(300,1), (400,300):(1,400), (500,400):(400,1))").unwrap();
    assert!(text.contains("level AVX-512 f64: micro-kernel 16x12"), "{text}");
    assert!(text.contains("C^T = B^T·A^T"), "{text}");
    let text = explain("gemm(f64, (40,16):(1,40), (40,16):(16,1), (40,40):(1,40))").unwrap();
    assert!(text.contains("direct loop") && !text.contains("A panel"), "{text}");
    let text = explain("gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8))").unwrap();
    assert!(text.contains("static, the straight-line kernel"), "{text}");
}

#[test]
fn kernels_over_symbols_written_inline_say_what_expansion_decides() {
    let text = explain("copy((M,N):(1,M), (M,N):(N,1))").unwrap();
    assert!(text.contains("the source written inline, `(M,N):(1,M)`"), "{text}");
    assert!(text.contains("The symbols `M`, `N` are shared"), "{text}");
    assert!(text.contains("runs the transpose body"), "{text}");
    let text = explain("gemm(f32, (M,K):(1,LDA), (N,K):(LDB,1), (M,N):(1,M))").unwrap();
    assert!(text.contains("small kernel over run-time extents"), "{text}");
    let code = layout_cli::expand("copy((M,N):(1,M), (M,N):(N,1))", "t").unwrap();
    assert!(code.contains("pub fn try_t<") && code.contains("TrustedLayout"), "{code}");
    // A symbol no tensor tells is an error asking for an item.
    let err = explain("copy((W/2,2):(2,1), (M,N):(N,1))").unwrap_err();
    assert!(err.contains("the symbol `W` of the inline source"), "{err}");
}
