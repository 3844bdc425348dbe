//! docs/algebra.md §4.F: left (pseudo-)inverses `L†` (paper §3.4, Table 6).
//!
//! Each row checks the printed form and, by brute force, the defining law
//! `L(L†(L(k))) = L(k)` for `k < |L|` (and `L†(L(k)) = k` when L is injective), with L's
//! whole image inside `L†`'s domain. F12 is rejected with the left inverse divisibility
//! condition (as PyCuTe and CuTe C++ do).
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (cases with coordinate, F2 or swizzled strides): F9 `(4,(4,2)):(e1,(e0,6e1))` (E-basis strides) and
//! F10 `(4,(4,3)):(f1,(f5,f16))` (F2 strides).

mod common;

use common::*;
use layout_core::{LayoutError, left_inverse};

fn check(l: &str, want: &str) {
    let r = eval_layout(&format!("left_inverse({l})"));
    assert_eq!(r.to_string(), want, "left_inverse({l})");
    assert_left_inverse(&r, &lay(l));
}

#[test]
fn f1_left_inverse_of_column_major_is_identity() {
    check("(4,8):(1,4)", "32:1");
}

#[test]
fn f2_left_inverse_of_row_major_equals_its_right_inverse() {
    check("(4,8):(8,1)", "(8,4):(4,1)");
    assert_eq!(show("right_inverse((4,8):(8,1))"), "(8,4):(4,1)");
}

/// Old pycute gives `4:1` here, which only inverts the first 4 offsets.
#[test]
fn f3_left_inverse_of_padded_layout_is_larger_than_l() {
    check("(4,8):(1,5)", "(5,8):(1,4)");
    let l = lay("(4,8):(1,5)");
    assert!(eval_layout("left_inverse((4,8):(1,5))").size() > l.size(), "gap offsets get coordinates too");
    let old_pycute = lay("4:1");
    assert_ne!(at(&old_pycute, at(&l, 4)), 4, "pycute's 4:1 fails the law at k = 4");
}

/// Not unique: the broadcast modes can be read at any of their coordinates; old pycute
/// returns `1:0`.
#[test]
fn f4_left_inverse_of_broadcast_layout() {
    check("((2,2),(2,4)):((0,2),(0,4))", "(2,2,4):(0,2,8)");
    let l = lay("((2,2),(2,4)):((0,2),(0,4))");
    assert!(!is_injective(&l));
    let old_pycute = lay("1:0");
    assert_ne!(at(&l, at(&old_pycute, at(&l, 2))), at(&l, 2), "pycute's 1:0 fails the law");
}

#[test]
fn f5_left_inverse_of_broadcast_layout_with_contiguous_image() {
    check("((2,2),(2,4)):((0,1),(0,2))", "(2,4):(2,8)");
}

#[test]
fn f6_left_inverse_with_non_power_of_two_modes() {
    check("(3,7,5):(5,15,1)", "(5,21):(21,1)");
}

#[test]
fn f7_left_inverse_of_hierarchical_column_layout() {
    check("(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)");
}

#[test]
fn f8_left_inverse_of_interleaved_layout() {
    check("((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)");
}

#[test]
fn f11_left_inverse_of_row_major_4x4_is_itself() {
    check("(4,4):(4,1)", "(4,4):(4,1)");
}

/// `(2,2):(2,3)` is injective (offsets 0,2,3,5) but its sorted strides 2, 3 do not chain:
/// rejected like PyCuTe and C++'s static "Left inverse divisibility condition". (A function
/// left inverse does exist, e.g. `(2,3):(1,1)`; the rejection is the sources' policy.)
#[test]
fn f12_left_inverse_rejects_strides_that_do_not_chain() {
    let l = lay("(2,2):(2,3)");
    assert!(is_injective(&l));
    assert_eq!(values(&l), [0, 2, 3, 5]);
    let err = eval_err("left_inverse((2,2):(2,3))");
    match &err {
        LayoutError::LeftInverseDivisibility { layout, lower, upper } => {
            assert_eq!((layout.as_str(), *lower, *upper), ("(2,2):(2,3)", 2, 3));
        }
        e => panic!("expected LeftInverseDivisibility, got {e:?}"),
    }
    assert_mentions(&err, &["left inverse divisibility condition", "2 and 3", "3 is not a multiple of 2"]);
    assert_eq!(err, left_inverse(&l).unwrap_err());
    assert_left_inverse(&lay("(2,3):(1,1)"), &l);
}
