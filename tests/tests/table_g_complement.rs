//! ALGEBRA.md §4 table G: complements (paper §3.5, Table 7, CuTe C++ docs).
//!
//! `complement(L, cotarget)` is checked against the C++ (coalesced) column and, by brute
//! force, as the exact complement: its values are the translate offsets that, with L's image,
//! tile a contiguous range of at least `cotarget` offsets, in increasing order.
//! `complement_modes(L, cotarget)` is the un-coalesced form; where the table gives the paper's
//! form, it is compared after dropping the size-1 hole modes (`coalesce_z`, which keeps the
//! trailing rest mode) and as a function on the extended domain, where its trailing mode keeps
//! it disjoint from L (§3.5 condition 2; ALGEBRA.md weak point 2). Without a cotarget the
//! default is `cosize(L)`, as in CuTe C++.
//!
//! Deliberate deviation: the project rejects inexact ("weak") complements (G3, G16) with
//! `ComplementNotExact`: CuTe C++'s answers tile nothing, `(L, L*)` would not be a bijection
//! onto a contiguous range, which the tests show by brute force.
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (cases with coordinate, F2 or swizzled strides): G6 `(4,8):(e0,e1)` and G7 `(4,(4,2)):(e1,(e0,12e1))`
//! (E-basis strides).

mod common;

use common::*;
use layout_core::{Layout, LayoutError, coalesce_extended, complement, complement_modes};

/// `complement(l[, cotarget])` prints `cpp` and is the exact complement.
fn check(l: &str, cotarget: Option<i64>, cpp: &str) -> Layout {
    let lo = lay(l);
    let expr = match cotarget {
        Some(n) => format!("complement({l}, {n})"),
        None => format!("complement({l})"),
    };
    let c = eval_layout(&expr);
    assert_eq!(c.to_string(), cpp, "{expr}");
    let n = cotarget.unwrap_or_else(|| lo.cosize().unwrap());
    assert_complement(&c, &lo, n);
    c
}

/// The paper's form: `complement_modes` without its size-1 hole modes prints `paper`, is the
/// same function as the C++ form on its domain, and is disjoint from L on the extended domain.
fn check_paper(l: &str, cotarget: i64, paper: &str) -> Layout {
    let lo = lay(l);
    let modes = complement_modes(&lo, cotarget).unwrap();
    let form = coalesce_extended(&modes);
    assert_eq!(form.to_string(), paper, "paper form of complement({l}, {cotarget}); modes `{modes}`");
    assert_same_extended(&modes, &form, 8 * form.size());
    assert_same_function(&modes, &complement(&lo, cotarget).unwrap());
    assert_extended_disjoint(&modes, &lo, 8 * form.size());
    modes
}

#[test]
fn g1_complement_of_bijection_is_trivial() {
    check("(4,8):(1,4)", None, "1:0");
    check("(4,8):(1,4)", Some(32), "1:0");
    check_paper("(4,8):(1,4)", 32, "1:32");
}

#[test]
fn g2_complement_ignores_the_order_of_modes() {
    check("(4,8):(8,1)", None, "1:0");
    check_paper("(4,8):(8,1)", 32, "1:32");
}

/// Deliberate deviation: C++ returns `1:0` and the paper `1:40`, but 5 is not a multiple of
/// the extent 4 the stride-1 mode covers, so no complement tiles: `(L, 1:0)` misses offset 4,
/// and no translate of L's image can start at 4 without hitting 5 again.
#[test]
fn g3_weak_complement_is_rejected_as_not_exact() {
    let err = eval_err("complement((4,8):(1,5))");
    match &err {
        LayoutError::ComplementNotExact { layout, stride, extent } => {
            assert_eq!((layout.as_str(), *stride, *extent), ("(4,8):(1,5)", 5, 4));
        }
        e => panic!("expected ComplementNotExact, got {e:?}"),
    }
    assert_mentions(&err, &["not exact", "stride 5", "extent 4", "`(4,8):(1,5)`"]);
    let l = lay("(4,8):(1,5)");
    for n in [39, 40] {
        assert!(matches!(complement(&l, n), Err(LayoutError::ComplementNotExact { stride: 5, extent: 4, .. })));
        assert!(complement_bases(&l, n).unwrap_err().starts_with("offset 4 "));
    }
    let cpp = Layout::concat([l.clone(), lay("1:0")]).unwrap();
    assert!(!image(&cpp).contains(&4), "(L, C++'s 1:0) skips offset 4");
    assert!(!is_bijection_onto(&cpp, cpp.size()));
}

#[test]
fn g4_complement_fills_the_holes() {
    check("(4,8):(1,8)", None, "2:4");
    check("(4,8):(1,8)", Some(64), "2:4");
    check_paper("(4,8):(1,8)", 60, "(2,1):(4,64)");
    // The form printed by `complement_modes` keeps the size-1 hole before the stride-1 mode.
    assert_eq!(complement_modes(&lay("(4,8):(1,8)"), 60).unwrap().to_string(), "(1,2,1):(1,4,64)");
}

#[test]
fn g5_complement_ignores_stride_0_modes() {
    check("((2,2),(2,4)):((0,2),(0,4))", None, "2:1");
    let modes = check_paper("((2,2),(2,4)):((0,2),(0,4))", 15, "(2,1):(1,16)");
    assert_eq!(modes.to_string(), "(2,1):(1,16)");
}

/// Used by C5/I1. The table's paper form `3:1` equals the C++ form on the domain; the
/// un-coalesced complement keeps the trailing rest mode, `(3,1):(1,24)`, which is what keeps
/// it disjoint from `8:3` on the extended domain (`3:1` reads 3 = `8:3`(1) at index 3).
#[test]
fn g8_complement_of_8_3_in_24() {
    check("8:3", Some(24), "3:1");
    let modes = check_paper("8:3", 24, "(3,1):(1,24)");
    assert_same_function(&modes, &lay("3:1"));
    assert_eq!(at(&lay("3:1"), 3), at(&lay("8:3"), 1), "the coalesced form is not disjoint on the extension");
}

#[test]
fn g9_complement_of_4_1_in_24() {
    check("4:1", Some(24), "6:4");
}

#[test]
fn g10_complement_of_6_4_in_24() {
    check("6:4", Some(24), "4:1");
}

#[test]
fn g11_complement_of_compact_4x6_in_24_is_trivial() {
    check("(4,6):(1,4)", Some(24), "1:0");
}

/// PyCuTe without a cotarget gives `(2,1):(1,8)`; with cotarget 24 the rest mode grows to 3.
#[test]
fn g12_complement_of_4_2_in_24() {
    check("4:2", Some(24), "(2,3):(1,8)");
    check_paper("4:2", 8, "(2,1):(1,8)");
}

#[test]
fn g13_complement_of_2x4_with_stride_6_in_24() {
    check("(2,4):(1,6)", Some(24), "3:2");
}

/// The C++ docs had a typo here (#1466); PyCuTe without cotarget gives `(3,1):(2,12)`.
#[test]
fn g14_complement_of_2x2_with_stride_6_in_24() {
    check("(2,2):(1,6)", Some(24), "(3,2):(2,12)");
    check_paper("(2,2):(1,6)", 12, "(3,1):(2,12)");
}

/// Used by H1. The paper's `1:12` is the complement with respect to `cosize(L) = 12`.
#[test]
fn g15_complement_of_row_major_3x4_in_120() {
    check("(3,4):(4,1)", Some(120), "10:12");
    check_paper("(3,4):(4,1)", 12, "1:12");
}

/// Deliberate deviation (used by H2): C++ returns `(2,3):(1,80)`, but 20 is not a multiple of
/// the extent 16 the stride-2 mode covers. `(L, (2,3):(1,80))` has 192 distinct offsets yet
/// skips 16..19: it is not a bijection onto `[0, 192)`, and no exact complement exists.
#[test]
fn g16_weak_complement_in_192_is_rejected_as_not_exact() {
    let err = eval_err("complement((4,8):(20,2), 192)");
    match &err {
        LayoutError::ComplementNotExact { layout, stride, extent } => {
            assert_eq!((layout.as_str(), *stride, *extent), ("(4,8):(20,2)", 20, 16));
        }
        e => panic!("expected ComplementNotExact, got {e:?}"),
    }
    assert_mentions(&err, &["stride 20", "extent 16", "`(4,8):(20,2)`"]);
    let l = lay("(4,8):(20,2)");
    assert!(complement_modes(&l, 192).is_err(), "no paper form either");
    assert!(complement_bases(&l, 192).unwrap_err().starts_with("offset 16 "));
    let cpp = Layout::concat([l, lay("(2,3):(1,80)")]).unwrap();
    assert_eq!(cpp.size(), 192);
    assert!(is_injective(&cpp));
    assert!(!is_bijection_onto(&cpp, 192), "(L, C++'s complement) does not tile [0, 192)");
    assert!(!image(&cpp).contains(&16));
}

#[test]
fn g17_complement_of_broadcast_layout_with_contiguous_image_is_trivial() {
    check("((2,2),(2,4)):((0,1),(0,2))", None, "1:0");
}

#[test]
fn g18_complement_of_hierarchical_bijection_is_trivial() {
    check("(4,(4,2)):(4,(1,16))", None, "1:0");
}
