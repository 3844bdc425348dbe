//! docs/algebra.md §4.K: hardware layouts (paper §3.4.4). Spot values, plus the admissibility
//! check of paper §3.4.4: each layout has a left inverse with `L†(L(k)) = k`, so an instruction
//! pattern T is executable on it (`L(L†(T(i))) = T(i)`).

mod common;

use common::*;
use layout_core::Layout;

/// Address +1 per 32-bit column, +16384 per lane (Blackwell TMEM).
const LANE: i64 = 16384;

fn check_left_invertible(l: &Layout) {
    let li = layout_core::left_inverse(l).unwrap_or_else(|e| panic!("`{l}` has no left inverse: {e}"));
    for k in 0..l.size() {
        assert_eq!(at(&li, at(l, k)), k, "`{li}`(`{l}`({k}))");
    }
}

#[test]
fn k1_tcgen05_32x32b_x1_one_column_of_128_lanes() {
    let l = lay("(1,128):(1,16384)");
    assert_eq!(at_crd(&l, "(0,1)"), LANE);
    assert_eq!(at_crd(&l, "(0,127)"), 127 * LANE);
    assert_eq!(show("eval((1,128):(1,16384), (0,127))"), (127 * LANE).to_string());
    check_left_invertible(&l);
}

#[test]
fn k2_tcgen05_32x32b_x2_two_columns_of_128_lanes() {
    let l = lay("(2,128):(1,16384)");
    assert_eq!(at_crd(&l, "(1,0)"), 1);
    assert_eq!(at_crd(&l, "(1,127)"), 1 + 127 * LANE);
    assert_eq!(l.eval_coord(&tup("(1,127)")).unwrap(), 1 + 127 * LANE);
    check_left_invertible(&l);
    // paper §3.4.4: T is executable on data layout A iff A(A†(T(i))) = T(i) for all i. The x2 pattern
    // runs on a 32-column TMEM tile but not on a 1-column one (column 1 is not in its image).
    let executable = |a: &Layout, t: &Layout| {
        let ai = layout_core::left_inverse(a).unwrap();
        (0..t.size()).all(|i| at(a, at(&ai, at(t, i))) == at(t, i))
    };
    assert!(executable(&lay("(32,128):(1,16384)"), &l));
    assert!(!executable(&lay("(1,128):(1,16384)"), &l));
}

#[test]
fn k3_tcgen05_16x256b_x1() {
    let l = lay("(8,(16,4)):(1,(16384,524288))");
    // The stride of the 4 column groups is 32 lanes: read off the layout, not a constant.
    assert_eq!(l.eval_coord(&tup("(0,(0,1))")).unwrap(), 32 * LANE);
    let want = 7 + 15 * LANE + 3 * 32 * LANE;
    assert_eq!(at_crd(&l, "(7,(15,3))"), want);
    assert_eq!(show("eval((8,(16,4)):(1,(16384,524288)), (7,(15,3)))"), want.to_string());
    check_left_invertible(&l);
}

/// Thread `(t0,t1)`, value `v`: offset mod 8 is the row t1, offset / 8 the column 2·t0 + v.
#[test]
fn k4_ampere_tv_layout_rows_and_columns() {
    let l = lay("((4,8),2):((16,1),8)");
    for t0 in 0..4 {
        for t1 in 0..8 {
            for v in 0..2 {
                let o = at_crd(&l, &format!("(({t0},{t1}),{v})"));
                assert_eq!((o % 8, o / 8), (t1, 2 * t0 + v), "thread ({t0},{t1}) value {v}");
            }
        }
    }
    assert!(is_bijection_onto(&l, 64));
    check_left_invertible(&l);
}
