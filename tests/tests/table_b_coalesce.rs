//! docs/algebra.md §4.B: coalesce (paper §3.2), by-mode coalesce and `coalesce_z`.
//!
//! Each row checks the printed form and, by brute force, that the result is the same function
//! on `[0, |A|)` (by mode: on each top mode), has depth ≤ 1 and the minimal rank a flat layout
//! with those values can have.

mod common;

use common::*;
use layout_core::Layout;

/// `R = coalesce(A)`: same function, depth ≤ 1, minimal rank.
fn assert_coalesced(r: &Layout, a: &Layout) {
    assert_same_function(r, a);
    assert!(r.depth() <= 1, "`{r}` is not flat");
    assert_eq!(r.rank(), min_flat_rank(&values(a)), "`{r}` does not have minimal rank");
}

/// `R = coalesce(A, ⟨*,…⟩)`: the top-level modes are kept, each coalesced on its own.
fn assert_coalesced_by_mode(r: &Layout, a: &Layout) {
    assert_eq!(r.rank(), a.rank(), "by-mode coalesce keeps the top-level rank");
    for (rm, am) in r.modes().iter().zip(a.modes()) {
        assert_coalesced(rm, &am);
    }
    assert_same_function(r, a);
}

#[test]
fn b1_coalesce_merges_across_size_one_mode_to_12_1() {
    let a = lay("(2,(1,6)):(1,(6,2))");
    assert_eq!(show("coalesce((2,(1,6)):(1,(6,2)))"), "12:1");
    assert_coalesced(&eval_layout("coalesce((2,(1,6)):(1,(6,2)))"), &a);
}

#[test]
fn b2_coalesce_by_mode_keeps_two_modes() {
    let a = lay("(2,(1,6)):(1,(6,2))");
    assert_eq!(show("coalesce((2,(1,6)):(1,(6,2)), (1,1))"), "(2,6):(1,2)");
    assert_coalesced_by_mode(&eval_layout("coalesce((2,(1,6)):(1,(6,2)), (1,1))"), &a);
}

#[test]
fn b3_coalesce_merges_inner_mode_with_next_mode() {
    let a = lay("((4,3),5):((15,1),3)");
    assert_eq!(show("coalesce(((4,3),5):((15,1),3))"), "(4,15):(15,1)");
    assert_coalesced(&eval_layout("coalesce(((4,3),5):((15,1),3))"), &a);
}

#[test]
fn b4_coalesce_by_mode_leaves_it_unchanged() {
    let a = lay("((4,3),5):((15,1),3)");
    assert_eq!(show("coalesce(((4,3),5):((15,1),3), (1,1))"), "((4,3),5):((15,1),3)");
    let r = eval_layout("coalesce(((4,3),5):((15,1),3), (1,1))");
    assert_same_function(&r, &a);
    // Mode 0 `(4,3):(15,1)` cannot merge (1 != 4·15); mode 1 is a single leaf.
    assert_eq!(min_flat_rank(&values(&r.mode(0).unwrap())), 2);
    assert_eq!(r, a);
}

#[test]
fn b5_coalesce_of_row_major_2x4x6_is_unchanged() {
    let a = lay("(2,4,6):(24,6,1)");
    assert_eq!(show("coalesce((2,4,6):(24,6,1))"), "(2,4,6):(24,6,1)");
    assert_coalesced(&eval_layout("coalesce((2,4,6):(24,6,1))"), &a);
}

#[test]
fn b6_coalesce_merges_inner_pairs_to_rank_3() {
    let a = lay("((2,2),(2,2)):((1,4),(8,32))");
    assert_eq!(show("coalesce(((2,2),(2,2)):((1,4),(8,32)))"), "(2,4,2):(1,4,32)");
    assert_coalesced(&eval_layout("coalesce(((2,2),(2,2)):((1,4),(8,32)))"), &a);
}

/// `coalesce_z` keeps a trailing size-1 mode so that the extended function (all indices, the
/// last mode unbounded) is preserved; plain coalesce preserves only `[0, |A|)`.
#[test]
fn b7_coalesce_drops_size_one_modes_coalesce_z_keeps_the_trailing_one() {
    let a = lay("(2,1,6,1):(1,7,8,0)");
    assert_eq!(show("coalesce((2,1,6,1):(1,7,8,0))"), "(2,6):(1,8)");
    assert_eq!(show("coalesce_z((2,1,6,1):(1,7,8,0))"), "(2,6,1):(1,8,0)");
    let c = eval_layout("coalesce((2,1,6,1):(1,7,8,0))");
    let z = eval_layout("coalesce_z((2,1,6,1):(1,7,8,0))");
    assert_coalesced(&c, &a);
    assert_same_function(&z, &a);
    assert_same_extended(&z, &a, 4 * a.size());
    // Past the domain A reads its trailing `1:0` mode: A(12) = 0, which `(2,6):(1,8)` misses.
    assert_eq!(at(&a, 12), 0);
    assert_eq!(at(&c, 12), 48);
}
