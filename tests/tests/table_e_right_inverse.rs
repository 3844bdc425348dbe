//! docs/algebra.md §4.E: right (pseudo-)inverses `L‡` (paper §3.4, Table 5).
//!
//! Each row checks the printed form and, by brute force, the defining law `L(L‡(k)) = k` for
//! `k < |L‡|` (with `L‡(k)` in L's domain) and that `L‡` is the largest: `|L‡|` is the first
//! offset L misses.
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (cases with coordinate, F2 or swizzled strides): E9 `(4,8):(e0,e1)` (E-basis strides) and
//! E10 `(4,(4,3)):(f1,(f5,f16))` (F2 strides).

mod common;

use common::*;

fn check(l: &str, want: &str) {
    let r = eval_layout(&format!("right_inverse({l})"));
    assert_eq!(r.to_string(), want, "right_inverse({l})");
    assert_right_inverse(&r, &lay(l));
}

#[test]
fn e1_right_inverse_of_column_major_is_identity() {
    check("(4,8):(1,4)", "32:1");
}

#[test]
fn e2_right_inverse_of_row_major_is_its_transpose() {
    check("(4,8):(8,1)", "(8,4):(4,1)");
    assert!(is_bijection_onto(&lay("(4,8):(8,1)"), 32), "compact: L‡ is the full inverse");
}

#[test]
fn e3_right_inverse_with_non_power_of_two_modes() {
    check("(3,7,5):(5,15,1)", "(5,21):(21,1)");
}

#[test]
fn e4_right_inverse_stops_at_the_gap_after_4_offsets() {
    check("(4,8):(1,5)", "4:1");
    assert_eq!(mex(&lay("(4,8):(1,5)")), 4);
}

/// The paper's Table 5 prints `(2,2):(4,8)` (a typo: it maps index 1 to offset 0);
/// C++ and tensor-layouts give `(2,4):(2,8)`.
#[test]
fn e5_right_inverse_skips_broadcast_modes_paper_typo_corrected() {
    check("((2,2),(2,4)):((0,1),(0,2))", "(2,4):(2,8)");
    let l = lay("((2,2),(2,4)):((0,1),(0,2))");
    let typo = lay("(2,2):(4,8)");
    assert_ne!(at(&l, at(&typo, 1)), 1, "the paper's form fails the law at k = 1");
}

#[test]
fn e6_right_inverse_is_trivial_when_image_misses_1() {
    check("((2,2),(2,4)):((0,2),(0,4))", "1:0");
    assert!(!image(&lay("((2,2),(2,4)):((0,2),(0,4))")).contains(&1));
}

#[test]
fn e7_right_inverse_of_hierarchical_column_layout() {
    check("(4,(4,2)):(4,(1,16))", "(4,4,2):(4,1,16)");
}

#[test]
fn e8_right_inverse_of_interleaved_layout() {
    check("((2,2),(4,2)):((1,8),(2,16))", "(2,4,2,2):(1,4,2,16)");
}

#[test]
fn e11_issue_1355_right_inverse_of_permuted_modes() {
    check("(2,4,6):(4,1,8)", "(4,2,6):(2,1,8)");
}

// ----------------------------------------------------------------------------- issue 12 regressions

/// Two modes continue the chain at stride 1 (`8:1` and `5:1`; L is not injective): the
/// chain that reaches furthest is taken. Before the fix this returned `5:192` (size 5); the
/// issue pointed at `8:24` (size 8); the largest reaches all of 0..=11 by reading `5:1` at
/// coordinates 0, 2, 4 and `8:1` at 0, 1, 6, 7: `(2,3,2):(24,384,144)`, size 12, which is
/// the first offset L misses (and the brute-force maximum).
#[test]
fn largest_right_inverse_when_several_modes_continue_the_chain() {
    check("((6,1),(4,1,8),5):((55,60),(64,2,1),1)", "(2,3,2):(24,384,144)");
    assert_eq!(layout_tests::brute::right_inverse_max(&lay("((6,1),(4,1,8),5):((55,60),(64,2,1),1)")), 12);
}

/// A mode can continue the chain at a multiple of its stride: `(2,3):(1,1)` reaches 0,1,2,3
/// through `(2,2):(1,4)` (index 4 is coordinate 2 of the second mode).
#[test]
fn right_inverse_reads_a_mode_at_a_multiple_of_its_stride() {
    check("(2,3):(1,1)", "(2,2):(1,4)");
    // Offsets 0..=6 are all reached, but no layout of size 7 is a right inverse: 6 is the
    // largest (brute force over every layout).
    let r = eval_layout("right_inverse((2,2,2):(1,2,3))");
    assert_eq!(r.to_string(), "(3,2):(1,4)");
    assert_eq!(layout_tests::brute::right_inverse_max(&lay("(2,2,2):(1,2,3)")), 6);
    for k in 0..6 {
        assert_eq!(at(&lay("(2,2,2):(1,2,3)"), at(&r, k)), k);
    }
}

/// A right inverse always exists: with only negative strides, only offset 0 is reached.
/// Before the fix `right_inverse(4:-1)` was an error (negative strides).
#[test]
fn right_inverse_of_negative_strides_is_the_largest_one() {
    check("4:-1", "1:0");
    check("(4,2):(-1,1)", "2:4");
    check("(2,4):(1,-2)", "2:1");
}
