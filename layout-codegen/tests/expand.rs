//! Snapshots of the expansion of a representative set of layouts, pretty-printed with
//! prettyplease: what `layout!` emits, reviewable without a compiler.
//! Update with `INSTA_UPDATE=always cargo test -p cute-layout-codegen --test expand`.

use proc_macro2::TokenStream;

fn pretty(tokens: TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => panic!("the expansion does not parse as items ({e}):\n{tokens}"),
    }
}

fn expand(input: &str) -> String {
    pretty(layout_codegen::expand(input.parse().unwrap()))
}

macro_rules! snapshot {
    ($name:ident, $input:expr) => {
        #[test]
        fn $name() {
            insta::with_settings!({ omit_expression => true, description => $input }, {
                insta::assert_snapshot!(expand($input));
            });
        }
    };
}

snapshot!(tiled, "/// The paper's running example.\npub Tiled = ((2,4),3):((1,6),2);");
snapshot!(ampere_tv, "pub AmpereTv = ((4,8),2):((16,1),8);");
snapshot!(rank6_non_powers_of_two, "pub Rank6 = (3,5,7,2,3,5):(1,210,3,105,15,630);");
snapshot!(coalesces_to_one_mode, "pub(crate) Compact = (3,(2,5)):(1,(3,6));");
snapshot!(row_major, "pub RowMajor = (4,8):(8,1);");
snapshot!(negative_strides, "pub Reversed = (4,(2,3)):(-1,(12,-4));");
snapshot!(broadcast, "pub Broadcast = ((2,2),(2,4)):((0,2),(0,4));");
snapshot!(scalar, "pub Scalar = 7:11;");
snapshot!(single_element, "Single = 1:0;");
snapshot!(rank1_tuple, "pub Rank1 = (8):(3);");
snapshot!(expression_over_earlier_items, "pub A = (8,8):(1,8);\npub Tiles = zipped_divide(A, [4:1, 2:1]);");
snapshot!(attributes, "#[cfg(feature = \"x\")]\n#[allow(non_camel_case_types)]\n/// Docs.\npub lower = 4:1;");
snapshot!(copy_vector, "pub fn copy_columns = copy((16,8):(1,16), (16,8):(1,32));");
snapshot!(copy_transpose, "/// Table 2's transpose.\npub fn transpose = copy((8,3):(1,8), (8,3):(3,1));");
snapshot!(copy_named_and_indexed, "pub S = (2,3):(3,1);\npub fn reshape = copy(S, (3,2):(2,1));");
snapshot!(copy_fallback_after_error, "pub fn bad = copy(8:1, 6:1);");
snapshot!(
    sub_layouts,
    "pub A = (8,8):(1,8);\npub Tile = local_tile(A, [4:1, 2:1]);\npub Part = local_partition(A, [4:1, 2:1]);\npub Col = slice(A, (_, 3));"
);
snapshot!(sub_layout_negative_strides, "pub R = (4,6):(-1,-4);\npub Tile = local_tile(R, (2,3));");
snapshot!(sub_layout_fallback, "pub A = (8,8):(1,8);\npub Bad = local_tile(A, [3:1, 2:1]);");
snapshot!(gemm_small_static, "pub fn gemm_8 = gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));");
snapshot!(
    gemm_convolution,
    "/// 2-D convolution as a GEMM over an im2col layout of the input.\npub fn conv = gemm(f32, ((4,4),(3,3)):((1,6),(1,6)), (2,(3,3)):(9,(1,3)), ((4,4),2):((1,4),16));"
);
snapshot!(
    copy_over_symbols,
    "pub ColMajor = (M,N):(1,LDS) where LDS >= M;\npub RowMajor = (M,N):(LDD,1) where LDD >= N;\npub fn to_row_major = copy(ColMajor, RowMajor);"
);
snapshot!(
    copy_runs_over_symbols,
    "pub Src = (M,N):(1,LDS) where LDS >= M;\npub Dst = (M,N):(1,LDD) where LDD >= M;\npub fn pack = copy(Src, Dst);"
);
snapshot!(
    copy_static_tile_run_time_strides,
    "/// A 4x8 tile of a run-time matrix, transposed straight-line.\npub TS = (4,8):(1,LDS) where LDS >= 4;\npub TD = (4,8):(LDD,1) where LDD >= 8;\npub fn tile_t = copy(TS, TD);"
);
snapshot!(copy_undecided_over_symbols, "pub S = (M,N):(LDS,LDT);\npub D = (M,N):(LDD,1);\npub fn gather = copy(S, D);");
snapshot!(
    copy_overlapping_over_symbols,
    "pub S = (M,N):(1,LDS);\npub Lane = (M,N):(1,0);\npub fn last_column = copy(S, Lane, overlapping);"
);
snapshot!(
    gemm_over_symbols,
    "pub A = (M,K):(1,LDA);\npub B = (N,K):(LDB,1);\npub C = (M,N):(1,LDC);\npub fn sgemm = gemm(f32, A, B, C);"
);
snapshot!(
    gemm_static_tile_run_time_strides,
    "/// CuTe's local_tile(mA, (8,8)) with a run-time ldA.\npub TA = (8,8):(1,LDA) where LDA >= 8;\npub TB = (8,8):(LDB,1) where LDB >= 8;\npub TC = (8,8):(1,LDC) where LDC >= 8;\npub fn tile_gemm = gemm(f32, TA, TB, TC);"
);
snapshot!(
    gemm_static_tile_row_major_c,
    "pub RA = (5,7):(LDA,1);\npub RB = (3,7):(1,3);\npub RC = (5,3):(LDC,1) where LDC >= 3;\npub fn rows = gemm(f64, RA, RB, RC);"
);
snapshot!(
    gemm_batched,
    "pub fn batched = gemm(f64, (64,64,4):(1,64,4096), (64,64,4):(64,1,4096), (64,64,4):(1,64,4096));"
);
snapshot!(gemm_fallback_after_error, "pub fn bad = gemm(f32, (8,4):(1,8), (5,3):(3,1), (8,5):(1,8));");
snapshot!(fallback_after_error, "pub Good = 4:1;\npub Bad = composition((4,6):(2,3), 6:3);");

#[test]
fn expression_form() {
    let block = layout_codegen::expand("logical_divide(24:3, 8:3)".parse().unwrap());
    // An expression: a block that defines the type and evaluates to its value. Shown as the
    // body of a function so that it pretty-prints.
    let tokens = quote::quote!(fn expression() -> impl ::cute_layout::StaticLayout #block);
    insta::assert_snapshot!(pretty(tokens));
}

#[test]
fn expand_expr_for_the_cli() {
    let tokens = layout_codegen::expand_expr("composition((6,2):(8,2), (4,3):(3,1))", "Composed").unwrap();
    assert!(pretty(tokens).contains("pub const NOTATION: &'static str = \"((2,2),3):((24,2),8)\";"));
    let err = layout_codegen::expand_expr("composition((4,6):(2,3), 6:3)", "Bad").unwrap_err();
    assert!(err.starts_with("composition is not admissible: stride divisibility"), "{err}");
    assert!(err.contains("\n\nhelp: "), "{err}");
    assert!(layout_codegen::expand_expr("[4:1]", "T").unwrap_err().contains("is a tiler"));
    assert!(layout_codegen::expand_expr("4:1", "not a name").is_err());
    // Swizzled, coordinate and F2 layouts expand too.
    for (text, what) in [
        ("Sw<3,4,3> o (8,64):(64,1)", "SwizzledLayout"),
        ("(4,8):(1@0,1@1)", "CoordinateLayout"),
        ("(4,4):(f1,f5)", "F2Layout"),
    ] {
        let out = pretty(layout_codegen::expand_expr(text, "K").unwrap());
        assert!(out.contains(&format!("::cute_layout::__private::{what}")), "{text}:\n{out}");
    }
    let err = layout_codegen::expand_expr("Sw<3,4,2> o 4:1", "Bad").unwrap_err();
    assert!(err.contains("is not a swizzle") && err.contains("help: "), "{err}");
    assert!(layout_codegen::expand_expr("Sw<3,4,3>", "T").unwrap_err().contains("is a swizzle function"));
}

/// The amount of emitted code grows with the number of modes, not with the size.
#[test]
fn code_size_does_not_grow_with_the_size() {
    let small = layout_codegen::expand("pub A = (3,5):(5,1);".parse().unwrap()).to_string().len();
    let large = layout_codegen::expand("pub A = (30001,50001):(50001,1);".parse().unwrap()).to_string().len();
    assert!(large < small + small / 10, "{small} vs {large}");
}

/// Garbage never panics: every input gives tokens (errors or items).
#[test]
fn never_panics() {
    for input in [
        "",
        ";",
        "pub",
        "pub A",
        "pub A =",
        "= 4",
        "#[doc] pub A = 4:1;",
        "4:1; 4:1",
        "pub A = 4:1 pub B = 2:1",
        "(",
        "pub A = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((4)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));",
        "pub A = get((4,8):(1,4), 18446744073709551615);",
        "pub A = 0:0;",
        "pub A = -4:1;",
        "pub A = r#pub;",
        "pub A = 'x';",
    ] {
        if let Ok(tokens) = input.parse::<TokenStream>() {
            let out = layout_codegen::expand(tokens);
            assert!(!out.is_empty(), "{input}");
        }
    }
}

snapshot!(swizzled_cutlass, "/// CUTLASS's 128-byte swizzle.\npub Smem = Sw<3,4,3> o (8,64):(64,1);");
snapshot!(swizzled_offset_negative_shift, "pub Shifted = Sw<2,0,-2> o 3 o (4,4):(4,1);");
snapshot!(coordinate_blocked, "/// A14.\npub Blocked = (4,(4,2)):(1@1,(1@0,6@1));");
snapshot!(f2_fig4c, "/// A16.\npub Xor = (4,(4,3)):(f1,(f5,f16));");
snapshot!(f2_single_bit_strides, "pub P5 = composition((8,8):(f1,f9), ((4,8),2):((16,1),8));");
snapshot!(composed_past_the_size, "pub Past = (4,1):(1,7) o Sw<1,0,2> o 1 o 4:1;");
snapshot!(
    composed_chain,
    "/// A layout after a swizzled layout.\npub Chain = composition((8,8):(1,9), Sw<3,0,3> o 1 o (8,8):(8,1));"
);

#[test]
fn sub_layout_impls_only_over_earlier_integer_items() {
    let out = |s: &str| layout_codegen::expand(s.parse().unwrap()).to_string();
    // A failed parent: the child is skipped silently and both stand-ins exist, still related.
    let failed = out("pub A = composition((4,6):(2,3), 6:3);\npub T = local_tile(A, [2:1]);");
    assert!(failed.contains("SubLayout < A > for T"), "{failed}");
    assert_eq!(failed.matches("compile_error").count(), 1, "{failed}");
    // Not a whole-expression call over an item: no impl.
    assert!(!out("pub T = local_tile((8,8):(1,8), [4:1,2:1]);").contains("SubLayout"));
    assert!(!out("pub A = (8,8):(1,8);\npub T = coalesce(local_tile(A, [4:1,2:1]));").contains("SubLayout"));
    // A swizzled parent is not a `StaticLayout`: `local_tile` of it is an error, and no impl.
    let sw = out("pub S = Sw<1,1,1> o (4,4):(4,1);\npub T = local_tile(S, [2:1,2:1]);");
    assert!(sw.contains("compile_error") && !sw.contains("SubLayout"), "{sw}");
}

snapshot!(dynamic_matrix, "/// A matrix with a leading dimension.\npub Mat = (M,N):(1,LD);");
snapshot!(
    dynamic_tiles,
    "pub Mat = (M,N):(1,LD);\npub Tiled = logical_divide(Mat, [8:1, 8:1]) where M % 64 == 0, LD >= M;"
);
snapshot!(dynamic_negative_stride, "pub Rev = (8,M):(-1,8);");
snapshot!(dynamic_edge_tiles, "pub Mat = (M,N):(1,LD);\npub Tiles = local_tile_edge(Mat, [8:1, 8:1]);");
snapshot!(
    dynamic_sums,
    "pub Im2col = ((W-2,H-2),(3,3)):((1,W),(1,W));\npub Windows = ((Q,P),(3,3)):((1,W),(1,W)) where Q+2 <= W;"
);
snapshot!(dynamic_edge_rows, "pub Mat = (M,N):(1,LD);\npub Rows = local_tile_edge(Mat, [8:1, _]);");
