//! Generated code agrees with layout-core. `agreement/generated.rs` holds `layout!` items for
//! oracle layouts: results of the composition, divide, product, complement and inverse
//! records of `tests/data/pycute-vectors.jsonl` (the first ones of each operation that
//! layout-core accepts) and the worked examples of docs/algebra.md with integer strides. For each,
//! `offset(i)` must equal layout-core's evaluation for every index of the domain, and
//! `coord`, `offset_of`, the traversal, the constants (`MIN_OFFSET` and `MAX_OFFSET` the
//! exact extremes of the table) and `to_layout` must agree too.
//!
//! Beyond integer strides: the swizzled, coordinate and F2 cases of docs/algebra.md (A14-A17, P5,
//! P6, E9, E10, F9, F10, G6, G7), the CUTLASS shared-memory swizzles and the first swizzled
//! layouts of `layout-core/tests/data/pycute-swizzle-vectors.txt` go through
//! [`Check::check_value`] (the `GeneratedLayout` trait): offsets (integers, or tuples for
//! coordinate layouts) at every index, `coord`, `offset_of`, the traversal and `to_value`.
//!
//! Regenerate with `REGENERATE=1 cargo test -p layout-ui-tests --test agreement`;
//! `generated_file_is_fresh` fails when the committed file differs from what the generator
//! writes.

use std::fmt::Debug;

use cute_layout::{GeneratedLayout, Offset, StaticLayout};
use layout_core::{AnyLayout, IntTuple, Layout, Value, evaluate, idx2crd};

#[path = "agreement/generated.rs"]
mod generated;

/// Checks one generated layout against layout-core's evaluation of its expression.
pub trait Check {
    /// An integer layout.
    fn check<L: StaticLayout>(&mut self, expr: &str)
    where
        L::Coord: Debug;

    /// A swizzled, coordinate or F2 layout.
    fn check_value<L: GeneratedLayout>(&mut self, expr: &str)
    where
        L::Coord: Debug;
}

/// A coordinate of nested tuples in canonical notation: `((1, 2), 0)` -> `((1,2),0)`,
/// `(3,)` -> `(3)`.
fn notation(c: &impl Debug) -> String {
    format!("{c:?}").replace(' ', "").replace(",)", ")")
}

struct Agreement {
    layouts: usize,
    /// Of them, swizzled, coordinate and F2 layouts.
    kinds: usize,
    indices: usize,
}

impl Check for Agreement {
    fn check<L: StaticLayout>(&mut self, expr: &str)
    where
        L::Coord: Debug,
    {
        let core = match evaluate(expr) {
            Ok(Value::Layout(AnyLayout::Int(l))) => l,
            Ok(Value::Tuple(t)) => Layout::column_major(t).unwrap(),
            other => panic!("{expr}: layout-core gives {other:?}"),
        };
        assert_eq!(L::NOTATION, core.to_string(), "{expr}");
        assert_eq!(L::to_layout(), core, "{expr}");
        assert_eq!(L::SIZE as i64, core.size(), "{expr}");
        assert_eq!(L::COSIZE as i64, core.cosize().unwrap(), "{expr}");
        assert_eq!((L::RANK, L::DEPTH), (core.rank(), core.depth()), "{expr}");
        let table = core.table().unwrap();
        let (min, max) = (table.iter().min().copied().unwrap(), table.iter().max().copied().unwrap());
        // The contract of `StaticLayout` that tensors rely on: the exact smallest and largest
        // offsets of the domain.
        assert_eq!((L::MIN_OFFSET as i64, L::MAX_OFFSET as i64), (min, max), "{expr}: MIN_OFFSET, MAX_OFFSET");
        assert_eq!(L::COSIZE as isize, L::MAX_OFFSET + 1, "{expr}");
        let mut visited = Vec::with_capacity(L::SIZE);
        L::for_each_offset(|o| visited.push(o.to_i64()));
        assert_eq!(visited.len(), L::SIZE, "{expr}: traversal length");
        // The runs of `for_each_run`, expanded, are the traversal; UNIT_RUN is the leading
        // unit-stride extent of the coalesced layout.
        let mut runs = Vec::with_capacity(L::SIZE);
        L::for_each_run(|start, len| runs.extend((0..len as i64).map(|j| start.to_i64() + j)));
        assert_eq!(runs, visited, "{expr}: for_each_run");
        let (n0, d0) = layout_core::coalesce(&core).flat_modes()[0];
        assert_eq!(L::UNIT_RUN as i64, if d0 == 1 { n0 } else { 1 }, "{expr}: UNIT_RUN");
        for (i, &seen) in visited.iter().enumerate() {
            let want = core.eval(i as i64).unwrap();
            assert_eq!(L::offset(i).to_i64(), want, "{expr}: offset({i})");
            assert_eq!(seen, want, "{expr}: traversal at {i}");
            let c = L::coord(i);
            assert_eq!(notation(&c), core.coord(i as i64).unwrap().to_string(), "{expr}: coord({i})");
            assert_eq!(L::offset_of(c).to_i64(), want, "{expr}: offset_of(coord({i}))");
        }
        self.layouts += 1;
        self.indices += L::SIZE;
    }

    fn check_value<L: GeneratedLayout>(&mut self, expr: &str)
    where
        L::Coord: Debug,
    {
        let core = match evaluate(expr).unwrap_or_else(|e| panic!("{expr}: {e}")) {
            Value::Layout(l) if l.as_int().is_none() => l,
            other => panic!("{expr}: layout-core gives {other:?}"),
        };
        let (size, shape, rank, depth): (i64, IntTuple, usize, usize) =
            (core.size(), core.shape().clone(), core.rank(), core.depth());
        let eval = |i: i64| -> String { core.eval(i).unwrap().to_string() };
        assert_eq!(L::NOTATION, core.to_string(), "{expr}");
        assert_eq!(L::to_value().to_string(), core.to_string(), "{expr}");
        assert_eq!(L::SIZE as i64, size, "{expr}");
        assert_eq!((L::RANK, L::DEPTH), (rank, depth), "{expr}");
        let mut visited = Vec::with_capacity(L::SIZE);
        L::for_each_offset(|o| visited.push(o));
        assert_eq!(visited.len(), L::SIZE, "{expr}: traversal length");
        for (i, &seen) in visited.iter().enumerate() {
            let got = L::offset(i);
            assert_eq!(notation(&got), eval(i as i64), "{expr}: offset({i})");
            assert_eq!(seen, got, "{expr}: traversal at {i}");
            let c = L::coord(i);
            assert_eq!(notation(&c), idx2crd(i as i64, &shape).unwrap().to_string(), "{expr}: coord({i})");
            assert_eq!(L::offset_of(c), got, "{expr}: offset_of(coord({i}))");
        }
        self.kinds += 1;
        self.layouts += 1;
        self.indices += L::SIZE;
    }
}

#[test]
fn generated_code_agrees_with_layout_core() {
    let mut a = Agreement { layouts: 0, kinds: 0, indices: 0 };
    generated::run(&mut a);
    assert_eq!(a.layouts, generated::CASES);
    assert!(a.layouts >= 300, "only {} layouts", a.layouts);
    assert!(a.kinds >= 110, "only {} swizzled, coordinate and F2 layouts", a.kinds);
    eprintln!("{} layouts ({} swizzled, coordinate or F2), {} indices agree", a.layouts, a.kinds, a.indices);
}

mod generator {
    use std::collections::HashSet;
    use std::path::PathBuf;

    use layout_core::{AnyLayout, Layout, Value, evaluate};

    /// The operations whose results are replayed, and how many records of each.
    const OPS: &[(&str, usize)] = &[
        ("composition", 60),
        ("logical_divide", 50),
        ("zipped_divide", 25),
        ("tiled_divide", 25),
        ("logical_product", 45),
        ("zipped_product", 20),
        ("tiled_product", 20),
        ("complement", 40),
        ("right_inverse", 30),
        ("left_inverse", 30),
    ];

    /// docs/algebra.md's worked examples with integer strides (tables A–L).
    const ALGEBRA: &[(&str, &str)] = &[
        ("A4", "((2,2),(4,2)):((1,8),(2,16))"),
        ("A5", "(2,2,2):(2,1,4)"),
        ("A6", "((2,2),2):((2,4),1)"),
        ("A6Coalesced", "coalesce(((2,2),2):((2,4),1))"),
        ("A7", "(2,(2,2)):(2,(1,4))"),
        ("A8Col", "(4,8):(1,4)"),
        ("A8Row", "(4,8):(8,1)"),
        ("A9", "(4,8):(1,5)"),
        ("A10", "(4,(4,2)):(4,(1,16))"),
        ("A11", "((2,2),(2,4)):((0,2),(0,4))"),
        ("A18", "((3,2),((2,3),2)):((4,1),((2,15),100))"),
        ("A25a", "24:1"),
        ("A25b", "(4,6):(1,4)"),
        ("A25c", "(3,(4,2)):(1,(3,12))"),
        ("A26", "(3,4):(2,6)"),
        ("B1", "coalesce((2,(1,6)):(1,(6,2)))"),
        ("B2", "coalesce((2,(1,6)):(1,(6,2)), (1,1))"),
        ("B3", "coalesce(((4,3),5):((15,1),3))"),
        ("B4", "coalesce(((4,3),5):((15,1),3), (1,1))"),
        ("B5", "coalesce((2,4,6):(24,6,1))"),
        ("B6", "coalesce(((2,2),(2,2)):((1,4),(8,32)))"),
        ("B7", "coalesce((2,1,6,1):(1,7,8,0))"),
        ("B7z", "coalesce_z((2,1,6,1):(1,7,8,0))"),
        ("C1", "composition(7:11, 3:4)"),
        ("C2", "composition(7:11, (3,5):(6,3))"),
        ("C3", "composition((4,6,8,10):(2,3,5,7), 6:12)"),
        ("C4", "composition((4,2,8):(3,12,97), 3:3)"),
        ("C5", "composition(24:3, 8:3)"),
        ("C6a", "composition((8,8):(8,1), 2:3)"),
        ("C6b", "composition((8,8):(8,1), 3:3)"),
        ("C7", "composition((6,2):(8,2), (4,3):(3,1))"),
        ("C8", "composition(20:2, (5,4):(4,1))"),
        ("C9", "composition((10,2):(16,4), (3,4):(1,5))"),
        ("C10", "composition((32,128):(128,1), (30,128):(1,32))"),
        ("C11", "composition((6,2):(8,3), (4,3):(3,1))"),
        ("C12", "composition((2,3):(1,2), (2,3):(3,1))"),
        ("C13", "composition((5,3):(1,7), composition(4:1, 2:5))"),
        ("C14", "composition(composition((5,3):(1,7), 4:1), 2:5)"),
        ("C15", "composition((8,16):(1,8), (4,8))"),
        ("C16", "composition((8,16):(1,8), [(2,2):(1,4), 8:1])"),
        ("C17", "composition((8,16):(1,8), [(2,2):(1,4), 8:2])"),
        ("C18", "composition((8,16):(1,8), [4:2, 8:2])"),
        ("C19a", "composition((12,(4,8)):(59,(13,1)), [3:4, 8:2])"),
        ("C19b", "composition((12,(4,8)):(59,(13,1)), (3,8))"),
        ("D6", "composition((5,3):(7,1), 2:3)"),
        ("P1", "composition((8,8):(1,8), ((4,8),2):((16,1),8))"),
        ("P2", "composition((8,8):(8,1), ((4,8),2):((16,1),8))"),
        ("P3", "composition((8,8):(1,9), ((4,8),2):((16,1),8))"),
        ("P4", "composition(((4,2),(2,4)):((2,16),(1,8)), ((4,8),2):((16,1),8))"),
        ("E1", "right_inverse((4,8):(1,4))"),
        ("E2", "right_inverse((4,8):(8,1))"),
        ("E3", "right_inverse((3,7,5):(5,15,1))"),
        ("E4", "right_inverse((4,8):(1,5))"),
        ("E5", "right_inverse(((2,2),(2,4)):((0,1),(0,2)))"),
        ("E6", "right_inverse(((2,2),(2,4)):((0,2),(0,4)))"),
        ("E7", "right_inverse((4,(4,2)):(4,(1,16)))"),
        ("E8", "right_inverse(((2,2),(4,2)):((1,8),(2,16)))"),
        ("E11", "right_inverse((2,4,6):(4,1,8))"),
        ("F1", "left_inverse((4,8):(1,4))"),
        ("F2", "left_inverse((4,8):(8,1))"),
        ("F3", "left_inverse((4,8):(1,5))"),
        ("F4", "left_inverse(((2,2),(2,4)):((0,2),(0,4)))"),
        ("F5", "left_inverse(((2,2),(2,4)):((0,1),(0,2)))"),
        ("F6", "left_inverse((3,7,5):(5,15,1))"),
        ("F7", "left_inverse((4,(4,2)):(4,(1,16)))"),
        ("F8", "left_inverse(((2,2),(4,2)):((1,8),(2,16)))"),
        ("F11", "left_inverse((4,4):(4,1))"),
        ("G1", "complement((4,8):(1,4))"),
        ("G2", "complement((4,8):(8,1))"),
        ("G4", "complement((4,8):(1,8))"),
        ("G5", "complement(((2,2),(2,4)):((0,2),(0,4)))"),
        ("G8", "complement(8:3, 24)"),
        ("G9", "complement(4:1, 24)"),
        ("G10", "complement(6:4, 24)"),
        ("G11", "complement((4,6):(1,4), 24)"),
        ("G12", "complement(4:2, 24)"),
        ("G13", "complement((2,4):(1,6), 24)"),
        ("G14", "complement((2,2):(1,6), 24)"),
        ("G15", "complement((3,4):(4,1), 120)"),
        ("G17", "complement(((2,2),(2,4)):((0,1),(0,2)))"),
        ("G18", "complement((4,(4,2)):(4,(1,16)))"),
        ("H1", "logical_product((3,4):(4,1), (2,5):(1,2))"),
        ("H3", "blocked_product((3,4):(4,1), (2,5):(1,2))"),
        ("H4", "raked_product((3,4):(4,1), (2,5):(1,2))"),
        ("H5a", "zipped_product((3,4):(4,1), (2,5):(1,2))"),
        ("H5b", "flat_product((3,4):(4,1), (2,5):(1,2))"),
        ("H6", "logical_product((2,2):(4,1), 6:1)"),
        ("H7", "logical_product((2,5):(5,1), 4)"),
        ("I1", "logical_divide(24:3, 8:3)"),
        ("I2", "logical_divide((6,2,2):(2,1,20), 8:3)"),
        ("I3", "logical_divide((8,16):(20,1), [4:1, 8:2])"),
        ("I4", "zipped_divide((8,16):(20,1), [4:1, 8:2])"),
        ("I5a", "tiled_divide((8,16):(20,1), [4:1, 8:2])"),
        ("I5b", "flat_divide((8,16):(20,1), [4:1, 8:2])"),
        ("I6", "logical_divide((4,2,3):(2,1,8), 4:2)"),
        ("I7", "logical_divide((9,(4,8)):(59,(13,1)), [3:3, (2,4):(1,8)])"),
        ("I8", "logical_divide(24:1, 4:2)"),
        ("I9", "logical_divide((6,6):(1,12), (6,3):(3,1))"),
        ("J1", "max_common_layout((4,4):(1,4), ((2,2),4):((1,8),2))"),
        ("J2", "max_common_layout(((2,2),(2,2)):((8,2),(4,1)), ((2,2),(2,2)):((4,2),(8,1)))"),
        ("J3", "nullspace((2,4,6):(1,2,0))"),
        ("J4a", "upcast((4,8):(1,4), 2)"),
        ("J4b", "downcast((4,8):(1,4), 2)"),
        ("J5", "tile_to_shape((2,2):(1,2), (8,6))"),
        ("J6", "make_ordered_layout((2,3,4), (2,0,1))"),
        ("J7", "with_shape(16:1, (4,4))"),
        ("J8", "make_layout_like((2,3,4):(12,1,3))"),
        ("K1", "(1,128):(1,16384)"),
        ("K2", "(2,128):(1,16384)"),
        ("K3", "(8,(16,4)):(1,(16384,524288))"),
        ("K4", "((4,8),2):((16,1),8)"),
        ("L1", "(8,2,3):(1,16,32)"),
        ("L2", "(2,3,2):(42,1,128)"),
        ("L3", "7:0"),
        ("L4", "(8,3):(3,1)"),
        ("L5", "(8,(3,5)):(1,(57,8))"),
    ];

    /// docs/algebra.md's cases beyond integer strides (§1; tables A, P, E, F, G) and the swizzled
    /// layouts CUTLASS uses for shared memory. Some results are integer layouts (E9, F9).
    const KINDS: &[(&str, &str)] = &[
        ("A14", "(4,(4,2)):(1@1,(1@0,6@1))"),
        ("A15", "(4,8):(1@0,1@1)"),
        ("A16", "(4,(4,3)):(f1,(f5,f16))"),
        ("A16Sw", "Sw<2,0,2> o (4,(4,3)):(1,(4,16))"),
        ("A17", "(4,4):(f1,f5)"),
        ("P5", "composition((8,8):(f1,f9), ((4,8),2):((16,1),8))"),
        ("P5Sw", "composition(Sw<3,0,3> o (8,8):(1,8), ((4,8),2):((16,1),8))"),
        ("P6", "composition((8,8):(1@0,1@1), ((4,8),2):((16,1),8))"),
        ("E9a", "right_inverse((4,8):(1@0,1@1))"),
        ("E9b", "right_inverse((4,(4,2)):(1@1,(1@0,6@1)))"),
        ("E10", "right_inverse((4,(4,3)):(f1,(f5,f16)))"),
        ("E10Sw", "right_inverse(Sw<2,0,2> o (4,(4,3)):(1,(4,16)))"),
        ("F9a", "left_inverse((4,(4,2)):(1@1,(1@0,6@1)))"),
        ("F9b", "left_inverse((4,8):(1@0,1@1))"),
        ("F10", "left_inverse((4,(4,3)):(f1,(f5,f16)))"),
        ("F10Sw", "left_inverse(Sw<2,0,2> o (4,(4,3)):(1,(4,16)))"),
        ("G6", "complement((4,8):(1@0,1@1))"),
        ("G7", "complement((4,(4,2)):(1@1,(1@0,12@1)))"),
        ("Cutlass343", "Sw<3,4,3> o (8,64):(64,1)"),
        ("Cutlass233", "Sw<2,3,3> o (8,32):(32,1)"),
        ("Cutlass333", "Sw<3,3,3> o (8,64):(64,1)"),
        ("Cutlass343Offset", "Sw<3,4,3> o 8 o (8,64):(64,1)"),
    ];

    /// How many records of `pycute-swizzle-vectors.txt` are replayed.
    const SWIZZLE_VECTORS: usize = 100;

    /// Which check a value gets: `check` (integer layouts, `StaticLayout`) or `check_value`.
    fn check_of(expr: &str) -> &'static str {
        match evaluate(expr) {
            Ok(Value::Layout(l)) if l.as_int().is_none() => "check_value",
            _ => "check",
        }
    }

    /// The macro accepts it (a layout of some kind whose offsets fit machine integers).
    fn is_emittable(expr: &str) -> bool {
        layout_codegen::expand_expr(expr, "T").is_ok()
    }

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }

    fn is_layout(expr: &str) -> bool {
        match evaluate(expr) {
            Ok(Value::Layout(AnyLayout::Int(l))) => layout_codegen_free_check(&l),
            Ok(Value::Tuple(t)) => Layout::column_major(t).is_ok(),
            _ => false,
        }
    }

    /// The macro also needs the offsets to fit 64-bit integers.
    fn layout_codegen_free_check(l: &Layout) -> bool {
        l.cosize().is_ok()
    }

    fn arg(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// The text of `generated.rs`.
    pub fn generate() -> String {
        let data = std::fs::read_to_string(root().join("../tests/data/pycute-vectors.jsonl")).unwrap();
        let mut cases: Vec<(String, String, String)> = Vec::new();
        let mut seen = HashSet::new();
        let mut taken: Vec<usize> = vec![0; OPS.len()];
        for line in data.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let op = r["op"].as_str().unwrap();
            let Some(k) = OPS.iter().position(|(o, _)| *o == op) else { continue };
            if taken[k] == OPS[k].1 {
                continue;
            }
            let args: Vec<String> = r["args"].as_array().unwrap().iter().map(arg).collect();
            let expr = format!("{op}({})", args.join(", "));
            if !seen.insert(expr.clone()) || !is_layout(&expr) {
                continue;
            }
            taken[k] += 1;
            let id = r["id"].as_str().unwrap();
            let name = format!("Pycute{}", id.trim_start_matches("public-"));
            cases.push((name, id.to_string(), expr));
        }
        for (name, expr) in ALGEBRA {
            assert!(is_layout(expr), "docs/algebra.md example {name} `{expr}` is not accepted");
            cases.push((format!("Algebra{name}"), format!("docs/algebra.md {name}"), expr.to_string()));
        }
        for (name, expr) in KINDS {
            assert!(is_emittable(expr), "docs/algebra.md case {name} `{expr}` is not accepted");
            cases.push((format!("Kinds{name}"), format!("docs/algebra.md {name}"), expr.to_string()));
        }
        let swizzles =
            std::fs::read_to_string(root().join("../layout-core/tests/data/pycute-swizzle-vectors.txt")).unwrap();
        let mut taken = 0;
        for (k, line) in swizzles.lines().enumerate() {
            let expr = line.split('\t').next().unwrap().trim().to_string();
            // `Sw<0,M,S>` is the identity: those records are integer layouts, skipped here.
            let swizzled = check_of(&expr) == "check_value";
            if taken == SWIZZLE_VECTORS || !swizzled || !seen.insert(expr.clone()) || !is_emittable(&expr) {
                continue;
            }
            taken += 1;
            cases.push((format!("Swizzle{:03}", k + 1), format!("pycute-swizzle-vectors.txt:{}", k + 1), expr));
        }
        let mut out = String::new();
        out.push_str("// @generated by `REGENERATE=1 cargo test -p layout-ui-tests --test agreement`\n");
        out.push_str("// from tests/data/pycute-vectors.jsonl, docs/algebra.md's worked examples and\n");
        out.push_str("// layout-core/tests/data/pycute-swizzle-vectors.txt. Do not edit.\n\n");
        out.push_str("use cute_layout::layout;\n\nlayout! {\n");
        for (name, source, expr) in &cases {
            out.push_str(&format!("    /// {source}: `{expr}`\n    pub {name} = {expr};\n"));
        }
        out.push_str("}\n\n");
        out.push_str(&format!("pub const CASES: usize = {};\n\n", cases.len()));
        out.push_str("pub fn run(c: &mut impl super::Check) {\n");
        for (name, _, expr) in &cases {
            out.push_str(&format!("    c.{}::<{name}>(\"{expr}\");\n", check_of(expr)));
        }
        out.push_str("}\n");
        out
    }

    pub fn path() -> PathBuf {
        root().join("tests/agreement/generated.rs")
    }
}

#[test]
fn generated_file_is_fresh() {
    let want = generator::generate();
    let path = generator::path();
    if std::env::var_os("REGENERATE").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: run `REGENERATE=1 cargo test -p layout-ui-tests --test agreement`",
        path.display()
    );
}
