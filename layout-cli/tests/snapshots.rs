//! Snapshots of `show` and `explain` for the paper's worked examples (docs/algebra.md tables).

use layout_cli::{expand, explain, show};

fn shown(expr: &str) -> String {
    show(expr, false, None).unwrap_or_else(|e| format!("error: {e}"))
}

fn explained(expr: &str) -> String {
    match explain(expr) {
        Ok(s) => s,
        Err(s) => format!("(exits non-zero)\n{s}"),
    }
}

#[test]
fn show_paper_layouts() {
    insta::assert_snapshot!("show_a8_col_major", shown("(4,8):(1,4)"));
    insta::assert_snapshot!("show_a8_row_major", shown("(4,8):(8,1)"));
    insta::assert_snapshot!("show_a9_padded", shown("(4,8):(1,5)"));
    insta::assert_snapshot!("show_a10_hierarchical", shown("(4,(4,2)):(4,(1,16))"));
    insta::assert_snapshot!("show_a4_nested_modes", shown("((2,2),(4,2)):((1,8),(2,16))"));
    insta::assert_snapshot!("show_a11_broadcast", shown("((2,2),(2,4)):((0,2),(0,4))"));
    insta::assert_snapshot!("show_rank1", shown("8:3"));
    insta::assert_snapshot!("show_rank3_groups_the_rest", shown("(2,2,2):(2,1,4)"));
    insta::assert_snapshot!("show_i3_divide", shown("logical_divide((8,16):(20,1), [4:1,8:2])"));
    insta::assert_snapshot!("show_h3_blocked_product", shown("blocked_product((3,4):(4,1), (2,5):(1,2))"));
    insta::assert_snapshot!("show_tv_ampere", show("((4,8),2):((16,1),8)", true, Some((8, 8))).unwrap());
}

#[test]
fn show_swizzled_coordinate_and_f2_layouts() {
    insta::assert_snapshot!("show_swizzled_sw_2_3_3", shown("Sw<2,3,3> o (8,32):(32,1)"));
    insta::assert_snapshot!("show_a14_coordinate_layout", shown("(4,(4,2)):(1@1,(1@0,6@1))"));
    insta::assert_snapshot!("show_a15_identity_tensor", shown("(4,8):(1@0,1@1)"));
    insta::assert_snapshot!("show_a16_f2_layout", shown("(4,(4,3)):(f1,(f5,f16))"));
    insta::assert_snapshot!("show_p5_swizzled_partition", shown("composition((8,8):(f1,f9), ((4,8),2):((16,1),8))"));
}

#[test]
fn explain_compositions() {
    insta::assert_snapshot!("explain_c3_divide_out_keep", explained("composition((4,6,8,10):(2,3,5,7), 6:12)"));
    insta::assert_snapshot!("explain_c4_apparent_violation", explained("composition((4,2,8):(3,12,97), 3:3)"));
    insta::assert_snapshot!("explain_c7_cpp_docs", explained("composition((6,2):(8,2), (4,3):(3,1))"));
    insta::assert_snapshot!("explain_d6_walk_ends_inside", explained("composition((5,3):(7,1), 2:3)"));
    insta::assert_snapshot!("explain_d1_stride_divisibility", explained("composition((4,6,8):(2,3,5), 6:3)"));
    insta::assert_snapshot!("explain_d3_shape_divisibility", explained("composition((4,6,8):(2,3,5), 6:1)"));
    insta::assert_snapshot!("explain_not_distributive", explained("composition((2,2):(1,10), (2,2):(1,1))"));
}

#[test]
fn explain_divides_and_products() {
    insta::assert_snapshot!("explain_i1_divide", explained("logical_divide(24:3, 8:3)"));
    insta::assert_snapshot!("explain_i3_by_mode_divide", explained("logical_divide((8,16):(20,1), [4:1,8:2])"));
    insta::assert_snapshot!("explain_d10_tiler_overrun", explained("logical_divide((6,4):(1,6), 5:1)"));
    insta::assert_snapshot!("explain_h1_product", explained("logical_product((3,4):(4,1), (2,5):(1,2))"));
    insta::assert_snapshot!("explain_h6_product", explained("logical_product((2,2):(4,1), 6:1)"));
    insta::assert_snapshot!("explain_g12_complement", explained("complement(4:2, 24)"));
    insta::assert_snapshot!("explain_g3_weak_complement", explained("complement((4,8):(1,5), 39)"));
}

#[test]
fn expand_paper_layouts() {
    let expanded = |expr: &str, name: &str| expand(expr, name).unwrap_or_else(|e| format!("error: {e}"));
    insta::assert_snapshot!("expand_tiled", expanded("((2,4),3):((1,6),2)", "Tiled"));
    insta::assert_snapshot!("expand_ampere_tv", expanded("((4,8),2):((16,1),8)", "AmpereTv"));
    insta::assert_snapshot!("expand_i3_divide", expanded("logical_divide((8,16):(20,1), [4:1,8:2])", "Blocks"));
    insta::assert_snapshot!("expand_negative_strides", expanded("(4,8):(-1,4)", "Reversed"));
    insta::assert_snapshot!("expand_rejected", expanded("composition((4,6):(2,3), 6:3)", "Bad"));
    insta::assert_snapshot!("expand_swizzled", expanded("Sw<3,4,3> o (8,64):(64,1)", "Smem"));
    insta::assert_snapshot!("expand_a14_coordinate", expanded("(4,(4,2)):(1@1,(1@0,6@1))", "Coords"));
    insta::assert_snapshot!("expand_a16_f2", expanded("(4,(4,3)):(f1,(f5,f16))", "Xor"));
}
