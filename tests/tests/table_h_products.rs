//! docs/algebra.md §4.H: products (paper §3.5.1; CuTe C++'s blocked / raked / zipped / flat
//! arrangements).
//!
//! `A ⊗ B = (A, A* ∘ B)` is checked by brute force: mode 0 is A itself and
//! `R(i, j) = A(i) + A*(B(j))`, with A* the exact complement of A w.r.t. `|A|·cosize(B)` found
//! by brute force. The arrangements are checked as re-indexings of the logical product.
//!
//! H2 is built on the weak complement of G16 (docs/algebra.md §3.9): accepted, since its copies
//! of A are disjoint (checked by brute force); a product whose copies collide is rejected
//! naming the collision.

mod common;

use common::*;
use layout_core::{Layout, LayoutError, logical_product};

/// For every natural top-level coordinate `(a0, a1, b0, b1)` of `A` (rank 2) and `B` (rank 2),
/// `arranged` at the index `index(a, b)` equals the logical product at `((a0,a1),(b0,b1))`.
fn assert_rearranges(arranged: &Layout, product: &Layout, index: impl Fn(&[i64], &[i64]) -> i64) {
    let (ta, tb) = (product.mode(0).unwrap(), product.mode(1).unwrap());
    let (sa, sb) = (mode_sizes(&ta), mode_sizes(&tb));
    for a in all_coords(&sa) {
        for b in all_coords(&sb) {
            let want = at(product, index_of(&sa, &a) + ta.size() * index_of(&sb, &b));
            assert_eq!(at(arranged, index(&a, &b)), want, "`{arranged}` at a={a:?}, b={b:?}");
        }
    }
}

#[test]
fn h1_logical_product_of_row_major_3x4_by_2x5() {
    assert_eq!(show("logical_product((3,4):(4,1), (2,5):(1,2))"), "((3,4),(2,5)):((4,1),(12,24))");
    let r = eval_layout("logical_product((3,4):(4,1), (2,5):(1,2))");
    assert_logical_product(&r, &lay("(3,4):(4,1)"), &lay("(2,5):(1,2)"));
    assert!(is_bijection_onto(&r, 120));
}

/// H2, the paper's own worked product, on the weak complement `(2,3):(1,80)` of G16: the six
/// copies of A (one per value of B) are pairwise disjoint, so it is accepted (§3.9),
/// though the result skips offsets 16..19 (not a bijection onto `[0, 192)`).
#[test]
fn h2_product_on_a_weak_complement_is_accepted() {
    assert_eq!(show("logical_product((4,8):(20,2), (3,2):(2,1))"), "((4,8),(3,2)):((20,2),(80,1))");
    let (a, b) = (lay("(4,8):(20,2)"), lay("(3,2):(2,1)"));
    let r = logical_product(&a, &b).unwrap();
    assert_disjoint_copies(&r, &a, &b);
    assert_eq!(a.size() * b.cosize().unwrap(), 192, "the cotarget of G16");
    assert!(complement_bases(&a, 192).is_err(), "A has no exact complement in 192");
    assert!(is_injective(&r));
    assert!(!is_bijection_onto(&r, 192));
    assert!(!image(&r).contains(&16), "the product skips offset 16");
}

/// A weak complement whose rest mode coalesces away: `complement((2,6,2):(3,8,1), 48)` is
/// `1:0`, and B = `2:1` leaves its one element, so both copies of A start at offset 0: one
/// copy for two values of B. Rejected as a collision (B is injective; the copies must be
/// distinct). With `3:1` the complement in 72 is `2:48` and the copies are disjoint.
#[test]
fn weak_product_whose_copies_coincide_is_rejected() {
    match eval_err("logical_product((2,6,2):(3,8,1), 2:1)") {
        LayoutError::ProductCopiesOverlap { detail, .. } => {
            assert!(detail.contains("the copy for B's index 1 starts at offset 0"), "{detail}");
        }
        other => panic!("expected ProductCopiesOverlap, got {other:?}"),
    }
    assert_eq!(show("logical_product((2,6,2):(3,8,1), 3:1)"), "((2,6,2),3):((3,8,1),48)");
    let (a, b) = (lay("(2,6,2):(3,8,1)"), lay("3:1"));
    let r = logical_product(&a, &b).unwrap();
    assert_disjoint_copies(&r, &a, &b);
    assert!(is_injective(&r));
}

/// Mode 0 of R is A, and for each value of B the copy `R(_, j)` is A translated: pairwise
/// disjoint copies for distinct values of B (brute force).
fn assert_disjoint_copies(r: &Layout, a: &Layout, b: &Layout) {
    assert_eq!(r.mode(0).unwrap(), *a);
    let copies = r.mode(1).unwrap();
    assert_eq!(copies.size(), b.size());
    let mut seen = std::collections::BTreeMap::new();
    for j in 0..b.size() {
        let origin = at(&copies, j);
        for i in 0..a.size() {
            assert_eq!(at(r, i + a.size() * j), at(a, i) + origin);
            if let Some(k) = seen.insert(at(a, i) + origin, j) {
                assert_eq!(k, j, "copies {k} and {j} of `{a}` meet at {}", at(a, i) + origin);
            }
        }
    }
}

/// pycute returns `((3,2),2):((6,2),2)` for `(3,2):(6,2) ⊗ 2:2`: A's complement is weak
/// (stride 6, extent 4), B's image {0, 2} leaves its domain (size 2), and the second copy
/// starts at offset 2, which the first copy already holds. Rejected, naming the collision.
#[test]
fn product_whose_copies_collide_is_rejected() {
    let err = eval_err("logical_product((3,2):(6,2), 2:2)");
    match &err {
        LayoutError::ProductCopiesOverlap { lhs, rhs, detail } => {
            assert_eq!((lhs.as_str(), rhs.as_str()), ("(3,2):(6,2)", "2:2"));
            assert!(detail.contains("starts at offset 2"), "{detail}");
        }
        e => panic!("expected ProductCopiesOverlap, got {e:?}"),
    }
    let pycute = lay("((3,2),2):((6,2),2)");
    assert!(!is_injective(&pycute), "pycute's answer repeats offset 2");
    // Divides keep needing exact complements.
    assert!(matches!(eval_err("logical_divide(64:1, (4,8):(1,5))"), LayoutError::TilerNotBijective { .. }));
}

#[test]
fn h3_blocked_product_keeps_blocks_contiguous() {
    assert_eq!(show("blocked_product((3,4):(4,1), (2,5):(1,2))"), "((3,2),(4,5)):((4,12),(1,24))");
    let r = eval_layout("blocked_product((3,4):(4,1), (2,5):(1,2))");
    assert_eq!(r.size(), 120);
    let p = logical_product(&lay("(3,4):(4,1)"), &lay("(2,5):(1,2)")).unwrap();
    assert_logical_product(&p, &lay("(3,4):(4,1)"), &lay("(2,5):(1,2)"));
    // Mode i of the result is (A_i, grid_i): index ((a0,b0),(a1,b1)).
    assert_rearranges(&r, &p, |a, b| a[0] + 3 * b[0] + 6 * (a[1] + 4 * b[1]));
    let column0: Vec<i64> = (0..6).map(|i| at(&r, i)).collect();
    assert_eq!(column0, [0, 4, 8, 12, 16, 20]);
}

#[test]
fn h4_raked_product_interleaves_the_copies() {
    assert_eq!(show("raked_product((3,4):(4,1), (2,5):(1,2))"), "((2,3),(5,4)):((12,4),(24,1))");
    let r = eval_layout("raked_product((3,4):(4,1), (2,5):(1,2))");
    let p = logical_product(&lay("(3,4):(4,1)"), &lay("(2,5):(1,2)")).unwrap();
    // Mode i of the result is (grid_i, A_i): index ((b0,a0),(b1,a1)).
    assert_rearranges(&r, &p, |a, b| b[0] + 2 * a[0] + 6 * (b[1] + 5 * a[1]));
}

#[test]
fn h5_zipped_and_flat_products() {
    assert_eq!(show("zipped_product((3,4):(4,1), (2,5):(1,2))"), "((3,4),(2,5)):((4,1),(12,24))");
    assert_eq!(show("flat_product((3,4):(4,1), (2,5):(1,2))"), "(3,4,2,5):(4,1,12,24)");
    let p = logical_product(&lay("(3,4):(4,1)"), &lay("(2,5):(1,2)")).unwrap();
    let z = eval_layout("zipped_product((3,4):(4,1), (2,5):(1,2))");
    assert_rearranges(&z, &p, |a, b| a[0] + 3 * a[1] + 12 * (b[0] + 2 * b[1]));
    let f = eval_layout("flat_product((3,4):(4,1), (2,5):(1,2))");
    assert_eq!(f.rank(), 4);
    assert_rearranges(&f, &p, |a, b| index_of(&[3, 4, 2, 5], &[a[0], a[1], b[0], b[1]]));
}

#[test]
fn h6_product_with_rank1_b_cpp_docs() {
    assert_eq!(show("logical_product((2,2):(4,1), 6:1)"), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(show("complement((2,2):(4,1), 24)"), "(2,3):(2,8)");
    let (a, b) = (lay("(2,2):(4,1)"), lay("6:1"));
    assert_logical_product(&eval_layout("logical_product((2,2):(4,1), 6:1)"), &a, &b);
    assert_complement(&eval_layout("complement((2,2):(4,1), 24)"), &a, 24);
}

/// Old pycute returns the divide here (bug #3478): an integer tiler `4` is the layout `4:1`.
#[test]
fn h7_product_with_integer_tiler() {
    assert_eq!(show("logical_product((2,5):(5,1), 4)"), "((2,5),4):((5,1),10)");
    let r = eval_layout("logical_product((2,5):(5,1), 4)");
    assert_logical_product(&r, &lay("(2,5):(5,1)"), &lay("4:1"));
    assert_eq!(r.size(), 40, "a product multiplies the size (a divide would keep 10)");
}
