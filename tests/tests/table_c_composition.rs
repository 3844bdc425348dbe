//! docs/algebra.md §4.C (admissible compositions, paper §3.3) and the partitioning rows P
//! (Table 4, paper §3.3.4).
//!
//! Every row checks the printed form and, by brute force, `R(i) = A(B(i))` on B's domain with
//! B's shape compatible with R's (by mode for tilers).
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (cases with coordinate, F2 or swizzled strides): P5 (swizzled `(8,8):(f1,f9)`, F2 strides) and P6
//! (coordinate `(8,8):(e0,e1)`, E-basis strides).

mod common;

use common::*;
use layout_core::{Layout, composition};

/// `expr` = `composition(A, B)` prints `want` and composes correctly.
fn check(a: &str, b: &str, want: &str) -> Layout {
    let r = eval_layout(&format!("composition({a}, {b})"));
    assert_eq!(r.to_string(), want, "{a} ∘ {b}");
    assert_composition(&r, &lay(a), &lay(b));
    r
}

#[test]
fn c1_rank1_a_needs_no_checks_and_reads_past_its_domain() {
    check("7:11", "3:4", "3:44");
    // image(B) = {0,4,8} leaves Z_7: A is read on its extended domain.
    assert_eq!(at(&lay("7:11"), 8), 88);
}

#[test]
fn c2_rank1_a_distributes_over_overlapping_modes_of_b() {
    check("7:11", "(3,5):(6,3)", "(3,5):(66,33)");
    assert!(!is_injective(&lay("(3,5):(6,3)")), "B's modes overlap");
}

#[test]
fn c3_divide_out_12_keep_6() {
    check("(4,6,8,10):(2,3,5,7)", "6:12", "(2,3):(9,5)");
}

#[test]
fn c4_apparent_violation_resolved_by_coalescing_a() {
    check("(4,2,8):(3,12,97)", "3:3", "3:9");
    assert_eq!(show("coalesce((4,2,8):(3,12,97))"), "(8,8):(3,97)");
}

#[test]
fn c5_rank1_composition_multiplies_strides() {
    check("24:3", "8:3", "8:9");
}

/// The walk `0, 3` (and `0, 3, 6`) ends inside mode 0 of size 8: accepted (§3.2).
#[test]
fn c6_walk_ending_inside_a_mode_is_accepted() {
    check("(8,8):(8,1)", "2:3", "2:24");
    check("(8,8):(8,1)", "3:3", "3:24");
}

#[test]
fn c7_composition_cpp_docs_worked_example() {
    check("(6,2):(8,2)", "(4,3):(3,1)", "((2,2),3):((24,2),8)");
}

#[test]
fn c8_rank1_a_with_rank2_b_cpp_docs() {
    check("20:2", "(5,4):(4,1)", "(5,4):(8,2)");
}

#[test]
fn c9_issue_2113_splits_mode_of_b() {
    check("(10,2):(16,4)", "(3,4):(1,5)", "(3,(2,2)):(16,(80,4))");
}

#[test]
fn c10_issue_2432_transposed_subtile() {
    check("(32,128):(128,1)", "(30,128):(1,32)", "(30,128):(128,1)");
}

#[test]
fn c11_issue_2657_dsl_doc_example() {
    check("(6,2):(8,3)", "(4,3):(3,1)", "((2,2),3):((24,3),8)");
}

/// Dynamic CuTe C++ returns `((1,2),(2,1)):((3,4),(1,2))` here: wrong size and values.
#[test]
fn c12_issue_1353_composition_with_transposing_b() {
    check("(2,3):(1,2)", "(2,3):(3,1)", "(2,3):(3,1)");
    let cpp_dynamic = lay("((1,2),(2,1)):((3,4),(1,2))");
    let ours = eval_layout("composition((2,3):(1,2), (2,3):(3,1))");
    assert_eq!(ours.size(), 6);
    assert_ne!(cpp_dynamic.size(), ours.size(), "the dynamic C++ answer has the wrong size");
}

#[test]
fn c13_left_grouping_a_after_4_1_after_2_5() {
    let bc = check("4:1", "2:5", "2:5");
    let r = check("(5,3):(1,7)", &bc.to_string(), "2:7");
    // A(B(C(i))) for every i: A(0) = 0, A(5) = 7.
    let (a, b, c) = (lay("(5,3):(1,7)"), lay("4:1"), lay("2:5"));
    for i in 0..2 {
        assert_eq!(at(&r, i), at(&a, at(&b, at(&c, i))));
    }
}

/// Associativity fails because image(2:5) = {0,5} ⊄ Z_4: `A ∘ 4:1` is `4:1`, which reads 5
/// on its extended domain as 5, not as A(5) = 7.
#[test]
fn c14_right_grouping_differs_associativity_fails() {
    let ab = check("(5,3):(1,7)", "4:1", "4:1");
    let r = check(&ab.to_string(), "2:5", "2:5");
    let left = composition(&lay("(5,3):(1,7)"), &composition(&lay("4:1"), &lay("2:5")).unwrap()).unwrap();
    assert_ne!(values(&r), values(&left), "the two groupings must differ");
}

#[test]
fn c15_shape_tiler_is_the_tiler_of_unit_strides() {
    let a = lay("(8,16):(1,8)");
    assert_eq!(show("composition((8,16):(1,8), (4,8))"), "(4,8):(1,8)");
    assert_eq!(show("composition((8,16):(1,8), [4:1,8:1])"), "(4,8):(1,8)");
    let r = eval_layout("composition((8,16):(1,8), (4,8))");
    assert_eq!(r, eval_layout("composition((8,16):(1,8), [4:1,8:1])"));
    assert_by_mode_composition(&r, &a, &[Some(lay("4:1")), Some(lay("8:1"))]);
}

/// `R = A ∘ ⟨T0, T1⟩` on the 8×16 column-major A selects rows `rows` × columns `cols`.
fn check_selection(tiler: &str, t0: &str, t1: &str, want: &str, rows: &[i64], cols: &[i64]) {
    let a = lay("(8,16):(1,8)");
    let r = eval_layout(&format!("composition((8,16):(1,8), {tiler})"));
    // Form pinned from the hand computation `(8:1 ∘ T0, 16:8 ∘ T1)`.
    assert_eq!(r.to_string(), want);
    assert_by_mode_composition(&r, &a, &[Some(lay(t0)), Some(lay(t1))]);
    let sizes = mode_sizes(&r);
    assert_eq!(sizes, [rows.len() as i64, cols.len() as i64]);
    for (i, &row) in rows.iter().enumerate() {
        for (j, &col) in cols.iter().enumerate() {
            assert_eq!(at(&r, index_of(&sizes, &[i as i64, j as i64])), row + 8 * col, "({i},{j})");
        }
    }
}

#[test]
fn c16_tiler_selects_rows_0_1_4_5_and_first_8_columns() {
    let cols: Vec<i64> = (0..8).collect();
    check_selection("[(2,2):(1,4), 8:1]", "(2,2):(1,4)", "8:1", "((2,2),8):((1,4),8)", &[0, 1, 4, 5], &cols);
}

#[test]
fn c17_tiler_selects_rows_0_1_4_5_and_even_columns() {
    let cols: Vec<i64> = (0..8).map(|c| 2 * c).collect();
    check_selection("[(2,2):(1,4), 8:2]", "(2,2):(1,4)", "8:2", "((2,2),8):((1,4),16)", &[0, 1, 4, 5], &cols);
}

#[test]
fn c18_tiler_selects_even_rows_and_even_columns() {
    let cols: Vec<i64> = (0..8).map(|c| 2 * c).collect();
    check_selection("[4:2, 8:2]", "4:2", "8:2", "(4,8):(2,16)", &[0, 2, 4, 6], &cols);
}

#[test]
fn c19_pycute_doc_tiler_and_shape_tiler_on_hierarchical_a() {
    let a = lay("(12,(4,8)):(59,(13,1))");
    assert_eq!(show("composition((12,(4,8)):(59,(13,1)), [3:4, 8:2])"), "(3,(2,4)):(236,(26,1))");
    let r = eval_layout("composition((12,(4,8)):(59,(13,1)), [3:4, 8:2])");
    assert_by_mode_composition(&r, &a, &[Some(lay("3:4")), Some(lay("8:2"))]);
    assert_eq!(show("composition((12,(4,8)):(59,(13,1)), (3,8))"), "(3,(4,2)):(59,(13,1))");
    let r = eval_layout("composition((12,(4,8)):(59,(13,1)), (3,8))");
    assert_by_mode_composition(&r, &a, &[Some(lay("3:1")), Some(lay("8:1"))]);
}

/// The Ampere TV layout: thread `(t0,t1)`, value `v` ↦ row `t1`, column `2·t0 + v`.
const TV: &str = "((4,8),2):((16,1),8)";

/// `A ∘ TV` prints `want`, composes correctly, and gives each (thread, value) the element of
/// the 8×8 data layout at row t1, column 2·t0 + v.
fn check_partition(data: &str, want: &str) {
    let (a, tv) = (lay(data), lay(TV));
    let r = check(data, TV, want);
    for t0 in 0..4 {
        for t1 in 0..8 {
            for v in 0..2 {
                let got = at(&r, t0 + 4 * t1 + 32 * v);
                assert_eq!(got, at(&a, t1 + 8 * (2 * t0 + v)), "thread ({t0},{t1}) value {v}");
            }
        }
    }
    assert_eq!(mode_sizes(&r), mode_sizes(&tv));
}

#[test]
fn p1_partition_column_major_8x8_gives_tv_itself() {
    check_partition("(8,8):(1,8)", "((4,8),2):((16,1),8)");
}

#[test]
fn p2_partition_row_major_8x8() {
    check_partition("(8,8):(8,1)", "((4,8),2):((2,8),1)");
}

#[test]
fn p3_partition_padded_8x8() {
    check_partition("(8,8):(1,9)", "((4,8),2):((18,1),9)");
}

#[test]
fn p4_partition_column_interleaved_8x8() {
    check_partition("((4,2),(2,4)):((2,16),(1,8))", "((4,(4,2)),2):((8,(2,16)),1)");
}
