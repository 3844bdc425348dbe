//! docs/algebra.md §4.D: inadmissible compositions (paper §3.3.3, Eq. 20 and 21) and a
//! tiler that does not divide (D10, paper §3.5.2).
//!
//! Each rejected row asserts the error variant with its numbers, the message, and by brute
//! force that the true values `A(B(i))` are not those of any layout of B's size (so no
//! composition exists), or that CuTe C++'s answer is wrong. D6 is the project's deliberate
//! deviation from NVlabs PyCuTe: the walk `0, 3` ends inside mode 0, so it is accepted.

mod common;

use common::*;
use layout_core::{LayoutError, composition, logical_divide};

/// `[A(B(0)), …, A(B(|B|-1))]`, evaluated by the library (`Layout::eval`, A's last mode
/// unbounded), so the pinned values below test layout-core, not a helper.
fn true_values(a: &str, b: &str) -> Vec<i64> {
    let (a, b) = (lay(a), lay(b));
    (0..b.size()).map(|i| a.eval(b.eval(i).unwrap()).unwrap()).collect()
}

#[test]
fn d1_stride_divisibility_walk_of_stride_3_crosses_boundary_4() {
    let err = eval_err("composition((4,6,8):(2,3,5), 6:3)");
    match &err {
        LayoutError::StrideDivisibility { lhs, rhs, mode, stride, walk_end, boundary } => {
            assert_eq!((lhs.as_str(), rhs.as_str()), ("(4,6,8):(2,3,5)", "6:3"));
            assert_eq!((*mode, *stride, *walk_end, *boundary), (0, 3, 15, 4));
        }
        e => panic!("expected StrideDivisibility, got {e:?}"),
    }
    assert_mentions(&err, &["stride divisibility", "Eq. 20", "0, 3, …, 15", "mode 0", "at 4", "`6:3`"]);
    let want = true_values("(4,6,8):(2,3,5)", "6:3");
    assert_eq!(want, [0, 6, 7, 8, 9, 15]);
    assert!(flat_forms(&want).is_empty(), "A(B(i)) is not the function of any layout of size 6");
    // CuTe C++ (static and dynamic) returns (2,3):(6,3) = 0,6,3,9,6,12: silently wrong.
    assert_eq!(values(&lay("(2,3):(6,3)")), [0, 6, 3, 9, 6, 12]);
    assert_ne!(values(&lay("(2,3):(6,3)")), want);
}

#[test]
fn d2_stride_divisibility_rank2_form_of_d1() {
    let err = composition(&lay("(4,6):(2,3)"), &lay("6:3")).unwrap_err();
    assert!(
        matches!(err, LayoutError::StrideDivisibility { mode: 0, stride: 3, walk_end: 15, boundary: 4, .. }),
        "{err:?}"
    );
    assert_mentions(&err, &["0, 3, …, 15", "`(4,6):(2,3)`", "at 4"]);
    let want = true_values("(4,6):(2,3)", "6:3");
    assert_eq!(want, [0, 6, 7, 8, 9, 15]);
    assert!(flat_forms(&want).is_empty());
    assert_ne!(values(&lay("(2,3):(6,3)")), want, "C++'s (2,3):(6,3) is wrong here too");
}

/// C++ dynamic returns `(4,1):(2,3)` and pycute `4:2`, both of size 4.
#[test]
fn d3_shape_divisibility_4_does_not_divide_6() {
    let err = eval_err("composition((4,6,8):(2,3,5), 6:1)");
    assert!(
        matches!(err, LayoutError::ShapeDivisibility { mode: 0, remaining: 6, fit: 4, boundary: 4, .. }),
        "{err:?}"
    );
    assert_mentions(&err, &["shape divisibility", "Eq. 21", "6 elements", "4 of them", "4 does not divide 6"]);
    let want = true_values("(4,6,8):(2,3,5)", "6:1");
    assert_eq!(want, [0, 2, 4, 6, 3, 5]);
    assert!(flat_forms(&want).is_empty());
    assert_eq!(lay("4:2").size(), 4, "pycute's answer has the wrong size");
}

#[test]
fn d4_walk_crosses_8_even_after_coalescing() {
    let err = eval_err("composition((4,2,8):(3,12,97), 4:3)");
    match &err {
        LayoutError::StrideDivisibility { lhs, mode, stride, walk_end, boundary, .. } => {
            assert_eq!(lhs, "(8,8):(3,97)", "the check runs on coalesced A");
            assert_eq!((*mode, *stride, *walk_end, *boundary), (0, 3, 9, 8));
        }
        e => panic!("expected StrideDivisibility, got {e:?}"),
    }
    assert_mentions(&err, &["0, 3, …, 9", "`(8,8):(3,97)`", "at 8"]);
    let want = true_values("(4,2,8):(3,12,97)", "4:3");
    assert_eq!(want, [0, 9, 18, 100]);
    assert!(flat_forms(&want).is_empty());
}

#[test]
fn d5_not_coalescible_walk_crosses_4() {
    let err = eval_err("composition((4,2,8):(3,15,97), 3:3)");
    assert!(
        matches!(err, LayoutError::StrideDivisibility { mode: 0, stride: 3, walk_end: 6, boundary: 4, .. }),
        "{err:?}"
    );
    assert_mentions(&err, &["0, 3, …, 6", "`(4,2,8):(3,15,97)`", "at 4"]);
    let want = true_values("(4,2,8):(3,15,97)", "3:3");
    assert_eq!(want, [0, 9, 21]);
    assert!(flat_forms(&want).is_empty());
}

/// Deliberate deviation: NVlabs PyCuTe (literal Eq. 20) rejects, but the walk 0, 3 never leaves
/// mode 0 (size 5), so the paper's own truncation argument (C4) gives `2:21` (§3.2). CuTe
/// C++ dynamic returns `(2,1):(21,1)`, the same function in another form.
#[test]
fn d6_walk_ending_inside_mode_0_is_accepted_as_2_21() {
    assert_eq!(show("composition((5,3):(7,1), 2:3)"), "2:21");
    let r = eval_layout("composition((5,3):(7,1), 2:3)");
    assert_composition(&r, &lay("(5,3):(7,1)"), &lay("2:3"));
    assert_same_function(&r, &lay("(2,1):(21,1)"));
}

#[test]
fn d7_shape_divisibility_5_does_not_divide_7() {
    let err = eval_err("composition((5,3):(7,1), 7:1)");
    assert!(
        matches!(err, LayoutError::ShapeDivisibility { mode: 0, remaining: 7, fit: 5, boundary: 5, .. }),
        "{err:?}"
    );
    assert_mentions(&err, &["7 elements", "5 of them", "5 does not divide 7"]);
    let want = true_values("(5,3):(7,1)", "7:1");
    assert_eq!(want, [0, 7, 14, 21, 28, 1, 8]);
    assert!(flat_forms(&want).is_empty());
    assert_eq!(lay("(5,1):(7,1)").size(), 5, "C++ dynamic's answer has the wrong size");
}

#[test]
fn d8_mode_3_3_of_b_crosses_boundary_2() {
    let err = eval_err("composition((2,3):(4,1), (3,4):(3,1))");
    match &err {
        LayoutError::StrideDivisibility { rhs, mode, stride, walk_end, boundary, .. } => {
            assert_eq!(rhs, "3:3", "the offending mode of B");
            assert_eq!((*mode, *stride, *walk_end, *boundary), (0, 3, 6, 2));
        }
        e => panic!("expected StrideDivisibility, got {e:?}"),
    }
    assert_mentions(&err, &["`3:3`", "0, 3, …, 6", "at 2"]);
    // R must have a mode 0 of size 3 (B ⪯ R), whose values along it are A(0), A(3), A(6).
    let col = true_values("(2,3):(4,1)", "3:3");
    assert_eq!(col, [0, 5, 3]);
    assert!(flat_forms(&col).is_empty());
}

#[test]
fn d9_stride_5_crosses_boundary_4() {
    let err = eval_err("composition((4,8):(2,1), 33:5)");
    assert!(
        matches!(err, LayoutError::StrideDivisibility { mode: 0, stride: 5, walk_end: 160, boundary: 4, .. }),
        "{err:?}"
    );
    assert_mentions(&err, &["0, 5, …, 160", "`33:5`", "at 4"]);
    assert!(flat_forms(&true_values("(4,8):(2,1)", "33:5")).is_empty());
}

/// pycute silently returns `(5,5):(1,5)`, which reaches past A's 24 elements.
#[test]
fn d10_tiler_5_1_does_not_divide_24_elements() {
    let err = eval_err("logical_divide((6,4):(1,6), 5:1)");
    match &err {
        LayoutError::TilerOverrun { tiler, layout, size, star_size, overrun, .. } => {
            assert_eq!((tiler.as_str(), layout.as_str()), ("5:1", "(6,4):(1,6)"));
            assert_eq!((*size, *star_size, *overrun), (24, 25, 1));
        }
        e => panic!("expected TilerOverrun, got {e:?}"),
    }
    assert_mentions(&err, &["`5:1`", "25 elements", "overrun the 24 elements by 1"]);
    assert_eq!(err, logical_divide(&lay("(6,4):(1,6)"), &lay("5:1")).unwrap_err());
    // Brute force: the translates of {0..4} needed to cover Z_24 start at 0,5,10,15,20 and
    // cover 25 offsets.
    let bases = complement_bases(&lay("5:1"), 24).unwrap();
    assert_eq!(bases, [0, 5, 10, 15, 20]);
    // The library's B★ = (B, complement(B, 24)) has those 25 elements.
    let star = layout_core::Layout::concat([lay("5:1"), layout_core::complement(&lay("5:1"), 24).unwrap()]).unwrap();
    assert_eq!(star.size(), 25);
    assert_eq!(values(&star)[20..], [20, 21, 22, 23, 24]);
    assert_eq!(lay("(5,5):(1,5)").size(), 25, "pycute's (5,5):(1,5) has 25 elements");
}
