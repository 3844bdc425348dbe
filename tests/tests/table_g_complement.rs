//! docs/algebra.md §4.G: complements (paper §3.5, Table 7, CuTe C++ docs).
//!
//! `complement(L, cotarget)` is checked against the C++ (coalesced) column and, by brute
//! force, as the exact complement: its values are the translate offsets that, with L's image,
//! tile a contiguous range of at least `cotarget` offsets, in increasing order.
//! `complement_modes(L, cotarget)` is the un-coalesced form; where the table gives the paper's
//! form, it is compared after dropping the size-1 hole modes (`coalesce_z`, which keeps the
//! trailing rest mode) and as a function on the extended domain, where its trailing mode keeps
//! it disjoint from L (paper §3.5 condition 2; docs/algebra.md §5, point 2). Without a cotarget the
//! default is `cosize(L)`, as in CuTe C++.
//!
//! Weak complements (G3, G16; docs/algebra.md §3.9) are CuTe C++'s answers: ordered, with
//! `(L, L*)` injective, but not tiling a contiguous range (shown by brute force), so
//! `complement_exact` (what divides use) rejects them with `ComplementNotExact`.
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (cases with coordinate, F2 or swizzled strides): G6 `(4,8):(e0,e1)` and G7 `(4,(4,2)):(e1,(e0,12e1))`
//! (E-basis strides).

mod common;

use common::*;
use layout_core::{Layout, LayoutError, coalesce_extended, complement, complement_exact, complement_modes};

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

/// A weak complement (§3.9): C++ returns `1:0` (the paper `1:40`). 5 is not a multiple
/// of the extent 4 the stride-1 mode covers, so `(L, 1:0)` misses offset 4: injective, not a
/// tiling; `complement_exact` (divides) rejects it.
#[test]
fn g3_weak_complement_is_cpps() {
    assert_eq!(eval_layout("complement((4,8):(1,5))").to_string(), "1:0");
    let l = lay("(4,8):(1,5)");
    // With cotarget 40, C++'s `1:0` falls short ((L, 1:0) ends at offset 38): an error.
    assert!(matches!(complement(&l, 40), Err(LayoutError::ComplementShort { cotarget: 40, last: 38, .. })));
    for n in [39, 40] {
        if n == 39 {
            let c = complement(&l, n).unwrap();
            assert_eq!(c.to_string(), "1:0");
            assert_weak_complement(&l, &c);
        }
        assert!(complement_bases(&l, n).unwrap_err().starts_with("offset 4 "));
        match complement_exact(&l, n) {
            Err(LayoutError::ComplementNotExact { layout, stride: 5, extent: 4 }) => assert_eq!(layout, "(4,8):(1,5)"),
            r => panic!("expected ComplementNotExact, got {r:?}"),
        }
    }
    let cpp = Layout::concat([l.clone(), lay("1:0")]).unwrap();
    assert!(!image(&cpp).contains(&4), "(L, C++'s 1:0) skips offset 4");
    assert!(!is_bijection_onto(&cpp, cpp.size()));
}

/// What a weak complement still promises: increasing values starting at 0, and `(L, L*)`
/// injective (no translate of L's image by a value of L* meets another).
fn assert_weak_complement(l: &Layout, c: &Layout) {
    let t: Vec<i64> = (0..c.size()).map(|i| at(c, i)).collect();
    assert_eq!(t.first(), Some(&0));
    assert!(t.windows(2).all(|w| w[0] < w[1]), "{c} is not increasing");
    let both = Layout::concat([l.clone(), c.clone()]).unwrap();
    assert!(is_injective(&both), "({l}, {c}) is not injective");
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

/// A weak complement (used by H2): C++'s `(2,3):(1,80)`; 20 is not a multiple of the extent
/// 16 the stride-2 mode covers. `(L, (2,3):(1,80))` has 192 distinct offsets yet skips
/// 16..19: injective, not a bijection onto `[0, 192)`; `complement_exact` rejects it.
#[test]
fn g16_weak_complement_in_192_is_cpps() {
    assert_eq!(eval_layout("complement((4,8):(20,2), 192)").to_string(), "(2,3):(1,80)");
    let l = lay("(4,8):(20,2)");
    let c = complement(&l, 192).unwrap();
    assert_weak_complement(&l, &c);
    assert_eq!(complement_modes(&l, 192).unwrap().to_string(), "(2,1,3):(1,16,80)");
    match complement_exact(&l, 192) {
        Err(LayoutError::ComplementNotExact { stride: 20, extent: 16, .. }) => {}
        r => panic!("expected ComplementNotExact, got {r:?}"),
    }
    assert!(complement_bases(&l, 192).unwrap_err().starts_with("offset 16 "));
    let cpp = Layout::concat([l, c]).unwrap();
    assert_eq!(cpp.size(), 192);
    assert!(is_injective(&cpp));
    assert!(!is_bijection_onto(&cpp, 192), "(L, C++'s complement) does not tile [0, 192)");
    assert!(!image(&cpp).contains(&16));
}

/// `(2,2):(6,7)` is injective (offsets 0, 6, 7, 13) but its modes overlap: the error says
/// that, not "not injective" (it did before issue 12).
#[test]
fn complement_of_overlapping_modes_says_they_overlap() {
    assert!(is_injective(&lay("(2,2):(6,7)")));
    let err = eval_err("complement((2,2):(6,7))");
    match &err {
        LayoutError::ComplementOverlap { layout, shape: 2, stride: 7, extent: 12, below } => {
            assert_eq!((layout.as_str(), below.as_str()), ("(2,2):(6,7)", "2:6"));
        }
        e => panic!("expected ComplementOverlap, got {e:?}"),
    }
    assert_mentions(&err, &["overlap", "2:7", "offset 7", "extent 12", "2:6"]);
    assert!(!err.to_string().contains("not injective"), "{err}");
}

/// Decision: a shape cotarget is read as its size (README, Policies). CuTe C++ divides the
/// shape mode by mode and answers `8:2`, whose image `[0,16)` is larger than the 12 elements;
/// `6:2` makes `(L, L*)` a bijection onto exactly `[0, 12)`.
#[test]
fn complement_with_a_shape_cotarget_reads_its_size() {
    assert_eq!(eval_layout("complement(2:1, (3,4))").to_string(), "6:2");
    assert_eq!(eval_layout("complement(2:1, (3,4))"), eval_layout("complement(2:1, 12)"));
    let both = Layout::concat([lay("2:1"), eval_layout("complement(2:1, (3,4))")]).unwrap();
    assert!(is_bijection_onto(&both, 12));
}

#[test]
fn g17_complement_of_broadcast_layout_with_contiguous_image_is_trivial() {
    check("((2,2),(2,4)):((0,1),(0,2))", None, "1:0");
}

#[test]
fn g18_complement_of_hierarchical_bijection_is_trivial() {
    check("(4,(4,2)):(4,(1,16))", None, "1:0");
}
