//! docs/algebra.md §4.J: common vectors (paper §3.4.2, Fig 8) and CuTe C++ helpers
//! (nullspace, upcast / downcast, tile_to_shape, make_ordered_layout, with_shape,
//! make_layout_like). Each row checks the printed form and the defining property by brute
//! force.

mod common;

use std::collections::HashMap;

use common::*;
use layout_core::Layout;

/// The largest K such that every offset `k < K` is reached by A and by B at exactly one
/// index, the same one: `A‡(k) = B‡(k)` for `k < K`.
fn brute_common_vector(a: &Layout, b: &Layout) -> i64 {
    let inverse = |l: &Layout| {
        let mut m: HashMap<i64, Vec<i64>> = HashMap::new();
        (0..l.size()).for_each(|i| m.entry(at(l, i)).or_default().push(i));
        m
    };
    let (ia, ib) = (inverse(a), inverse(b));
    (0..)
        .find(|k| match (ia.get(k), ib.get(k)) {
            (Some(x), Some(y)) => x.len() != 1 || x != y,
            _ => true,
        })
        .unwrap()
}

/// `max_common_vector` and `max_common_layout` print `vector` / `layout`, and by brute force:
/// K is the common-vector length, and `A(R(k)) = B(R(k)) = k` for `k < |R| = K`.
fn check_common(a: &str, b: &str, vector: &str, layout: &str) {
    assert_eq!(show(&format!("max_common_vector({a}, {b})")), vector);
    assert_eq!(show(&format!("max_common_layout({a}, {b})")), layout);
    let (al, bl) = (lay(a), lay(b));
    let k = brute_common_vector(&al, &bl);
    assert_eq!(k.to_string(), vector, "brute-force common vector");
    let r = eval_layout(&format!("max_common_layout({a}, {b})"));
    assert_eq!(r.size(), k);
    for i in 0..k {
        assert_eq!((at(&al, at(&r, i)), at(&bl, at(&r, i))), (i, i), "R({i})");
    }
}

#[test]
fn j1_common_vector_of_2_elements() {
    check_common("(4,4):(1,4)", "((2,2),4):((1,8),2)", "2", "2:1");
}

#[test]
fn j2_common_vector_of_4_non_contiguous_coordinates() {
    check_common("((2,2),(2,2)):((8,2),(4,1))", "((2,2),(2,2)):((4,2),(8,1))", "4", "(2,2):(8,2)");
}

/// The null space is the injective layout enumerating `{i : L(i) = 0}` in increasing order.
#[test]
fn j3_nullspace_of_broadcast_mode() {
    assert_eq!(show("nullspace((2,4,6):(1,2,0))"), "6:8");
    let l = lay("(2,4,6):(1,2,0)");
    let zeros: Vec<i64> = (0..l.size()).filter(|&i| at(&l, i) == 0).collect();
    assert_eq!(values(&eval_layout("nullspace((2,4,6):(1,2,0))")), zeros);
}

/// `upcast<2>`: two elements become one, `2·R(i, j) = L(2i, j)`; `downcast<2>`: one element
/// becomes two, `R(i, j) = 2·L(i/2, j) + i mod 2`.
#[test]
fn j4_upcast_and_downcast_by_2() {
    assert_eq!(show("upcast((4,8):(1,4), 2)"), "(2,8):(1,2)");
    assert_eq!(show("downcast((4,8):(1,4), 2)"), "(8,8):(1,8)");
    let l = lay("(4,8):(1,4)");
    let up = eval_layout("upcast((4,8):(1,4), 2)");
    for i in 0..2 {
        for j in 0..8 {
            assert_eq!(2 * at(&up, index_of(&[2, 8], &[i, j])), at(&l, index_of(&[4, 8], &[2 * i, j])));
        }
    }
    let down = eval_layout("downcast((4,8):(1,4), 2)");
    for i in 0..8 {
        for j in 0..8 {
            let want = 2 * at(&l, index_of(&[4, 8], &[i / 2, j])) + i % 2;
            assert_eq!(at(&down, index_of(&[8, 8], &[i, j])), want);
        }
    }
}

/// The 2×2 block repeated column-major (4×3 copies, each `cosize = 4` apart) to fill 8×6:
/// `R((a0,b0),(a1,b1)) = block(a0,a1) + 4·(b0 + 4·b1)`.
#[test]
fn j5_tile_to_shape_repeats_block_to_8x6() {
    assert_eq!(show("tile_to_shape((2,2):(1,2), (8,6))"), "((2,4),(2,3)):((1,4),(2,16))");
    let r = eval_layout("tile_to_shape((2,2):(1,2), (8,6))");
    let block = lay("(2,2):(1,2)");
    assert_eq!(mode_sizes(&r), [8, 6]);
    for (a0, a1) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        for b0 in 0..4 {
            for b1 in 0..3 {
                let idx = a0 + 2 * b0 + 8 * (a1 + 2 * b1);
                assert_eq!(at(&r, idx), at(&block, a0 + 2 * a1) + 4 * (b0 + 4 * b1));
            }
        }
    }
    assert!(is_bijection_onto(&r, 48));
}

/// Compact (a bijection onto `[0, 24)`), and the modes taken in `order` have strides that
/// are the running products of their sizes.
#[test]
fn j6_make_ordered_layout_orders_modes_by_rank() {
    assert_eq!(show("make_ordered_layout((2,3,4), (2,0,1))"), "(2,3,4):(12,1,3)");
    let r = eval_layout("make_ordered_layout((2,3,4), (2,0,1))");
    assert!(is_bijection_onto(&r, 24));
    let modes = r.flat_modes();
    let mut acc = 1;
    for m in [1, 2, 0] {
        assert_eq!(modes[m].1, acc, "mode {m}");
        acc *= modes[m].0;
    }
}

#[test]
fn j7_with_shape_reads_16_1_as_4x4() {
    assert_eq!(show("with_shape(16:1, (4,4))"), "(4,4):(1,4)");
    let r = eval_layout("with_shape(16:1, (4,4))");
    assert_eq!(r.shape(), &tup("(4,4)"));
    assert_same_function(&r, &lay("16:1"));
}

/// Compact, same shape, and its strides in the same order as the input's.
#[test]
fn j8_make_layout_like_keeps_stride_order() {
    assert_eq!(show("make_layout_like((2,3,4):(12,1,3))"), "(2,3,4):(12,1,3)");
    let l = lay("(2,3,4):(12,1,3)");
    let r = eval_layout("make_layout_like((2,3,4):(12,1,3))");
    assert_eq!(r.shape(), l.shape());
    assert!(is_bijection_onto(&r, 24));
    let order = |l: &Layout| {
        let mut idx: Vec<usize> = (0..l.flat_modes().len()).collect();
        idx.sort_by_key(|&k| l.flat_modes()[k].1);
        idx
    };
    assert_eq!(order(&r), order(&l));
}
