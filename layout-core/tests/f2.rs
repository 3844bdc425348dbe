//! F2 strides `fk` (paper §1, §2.4.4): XOR as addition, the carry-less product as the scalar
//! action. Tables A16, A17, E10, F10, P5 as named tests, checked by brute force and against
//! the equivalent swizzled layouts, and the rejections where the carry-less action does not
//! agree with integer multiplication (paper §1 caveat).

use layout_core::notation::{Value, evaluate};
use layout_core::{AnyLayout, F2Layout, IntTuple, Layout, LayoutError, parse_layout};
use proptest::prelude::*;

fn show(text: &str) -> String {
    match evaluate(text) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn f2(text: &str) -> F2Layout {
    match evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Value::Layout(AnyLayout::F2(f)) => f,
        v => panic!("{text} is {}, not an F2 layout", v.kind()),
    }
}

fn swizzled_table(text: &str) -> Vec<i64> {
    match evaluate(text).unwrap() {
        Value::Layout(AnyLayout::Swizzled(s)) => s.table().unwrap(),
        v => panic!("{v}"),
    }
}

fn layout_error(text: &str) -> LayoutError {
    match evaluate(text) {
        Err(layout_core::notation::ExprError::Layout { error, .. }) => error,
        r => panic!("{text}: {r:?}"),
    }
}

/// A16 (Fig 4c): `(4,(4,3)):(f1,(f5,f16))` as a 4x12 table, equal to CuTe's
/// `Sw<2,0,2> o (4,(4,3)):(1,(4,16))`.
#[test]
fn a16_f2_layout_table() {
    let text = "(4,(4,3)):(f1,(f5,f16))";
    let l = f2(text);
    assert_eq!(l.to_string(), text);
    let rows = [
        [0, 5, 10, 15, 16, 21, 26, 31, 32, 37, 42, 47],
        [1, 4, 11, 14, 17, 20, 27, 30, 33, 36, 43, 46],
        [2, 7, 8, 13, 18, 23, 24, 29, 34, 39, 40, 45],
        [3, 6, 9, 12, 19, 22, 25, 28, 35, 38, 41, 44],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, &want) in row.iter().enumerate() {
            assert_eq!(l.eval_coord(&[r as i64, c as i64].into()).unwrap(), want, "L({r},{c})");
        }
    }
    assert_eq!(l.table().unwrap(), swizzled_table("Sw<2,0,2> o (4,(4,3)):(1,(4,16))"));
    assert_eq!(show(&format!("cosize({text})")), "48");
    assert_eq!(show(&format!("size({text})")), "48");
}

/// A17 (Table 1): `(4,4):(f1,f5)` is the F2 matrix with rows 1010, 0101, 0010, 0001.
#[test]
fn a17_f2_matrix() {
    assert_eq!(show("f2_matrix((4,4):(f1,f5))"), "((1,0,1,0),(0,1,0,1),(0,0,1,0),(0,0,0,1))");
    let m = f2("(4,4):(f1,f5)").matrix().unwrap();
    assert_eq!(m, vec![vec![1, 0, 1, 0], vec![0, 1, 0, 1], vec![0, 0, 1, 0], vec![0, 0, 0, 1]]);
    // L(i) is the matrix times the bits of i.
    let l = f2("(4,4):(f1,f5)");
    for i in 0..16 {
        let v: i64 = (0..4).map(|o| ((0..4).map(|j| i64::from(m[o][j]) * ((i >> j) & 1)).sum::<i64>() % 2) << o).sum();
        assert_eq!(l.eval(i).unwrap(), v);
    }
    assert_eq!(show("f2_matrix((8,8):(f1,f9))").matches('(').count(), 7);
    assert!(show("f2_matrix((4,3):(f1,f4))").contains("extent 3, not a power of two"));
    assert!(show("f2_matrix((4,4):(1,4))").contains("needs an F2 layout"));
}

/// E10 (Table 5): `right_inverse((4,(4,3)):(f1,(f5,f16))) = (4,4,3):(f1,f5,f16)` (the same
/// involution, flattened); CuTe C++'s form is `Sw<2,0,2> o 48:1` (tests/swizzle.rs).
#[test]
fn e10_right_inverse_of_the_f2_layout() {
    let text = "(4,(4,3)):(f1,(f5,f16))";
    assert_eq!(show(&format!("right_inverse({text})")), "(4,4,3):(f1,f5,f16)");
    let l = f2(text);
    let r = l.right_inverse().unwrap();
    assert_eq!(r.size(), 48);
    for k in 0..r.size() {
        assert_eq!(l.eval(r.eval(k).unwrap()).unwrap(), k, "at {k}");
    }
    assert_eq!(r.table().unwrap(), swizzled_table("Sw<2,0,2> o 48:1"));
}

/// F10 (Table 6): `left_inverse((4,(4,3)):(f1,(f5,f16))) = (4,4,3):(f1,f5,f16)`.
#[test]
fn f10_left_inverse_of_the_f2_layout() {
    let text = "(4,(4,3)):(f1,(f5,f16))";
    assert_eq!(show(&format!("left_inverse({text})")), "(4,4,3):(f1,f5,f16)");
    let l = f2(text);
    let inv = l.left_inverse().unwrap();
    for k in 0..l.size() {
        assert_eq!(inv.eval(l.eval(k).unwrap()).unwrap(), k, "at {k}");
    }
}

/// P5 (Table 4): the swizzled 8x8 data layout `(8,8):(f1,f9)` composed with the Ampere TV
/// layout is `((4,8),2):((f18,f1),f9)` (`2·f9 = f18`), CuTe's `Sw<3,0,3> o ((4,8),2):((16,1),8)`.
#[test]
fn p5_f2_data_layout_composed_with_the_tv_layout() {
    let text = "composition((8,8):(f1,f9), ((4,8),2):((16,1),8))";
    assert_eq!(show(text), "((4,8),2):((f18,f1),f9)");
    let (a, tv, r) = (f2("(8,8):(f1,f9)"), parse_layout("((4,8),2):((16,1),8)").unwrap(), f2(&show(text)));
    for i in 0..tv.size() {
        assert_eq!(r.eval(i).unwrap(), a.eval(tv.eval(i).unwrap()).unwrap(), "at {i}");
    }
    assert_eq!(r.table().unwrap(), swizzled_table("Sw<3,0,3> o ((4,8),2):((16,1),8)"));
    assert_eq!(a.table().unwrap(), swizzled_table("Sw<3,0,3> o (8,8):(1,8)"));
}

/// The scalar action is the carry-less product: `2·f9 = f18`, `3·f5 = f15`, `3·f3 = f5`.
#[test]
fn the_scalar_action_is_the_carry_less_product() {
    assert_eq!(show("eval(8:f9, 2)"), "18");
    assert_eq!(show("eval(4:f5, 3)"), "15");
    assert_eq!(show("eval(4:f3, 3)"), "5");
    // Addition is XOR: (1,1) of (4,4):(f1,f5) is 1 XOR 5.
    assert_eq!(show("eval((4,4):(f1,f5), (1,1))"), "4");
    // Past the size the last mode is unbounded: 17 is (1,4), and 4·f5 = f20.
    assert_eq!(show("eval((4,4):(f1,f5), 17)"), (1 ^ 20).to_string());
    assert!(show("eval(2:f4611686018427387904, 2)").contains("overflow"));
    assert!(show("(4,4):(f1,-1)").contains("mixes codomains"));
}

/// Where the carry-less action does not agree with integer multiplication, the result is an
/// error, never a guess.
#[test]
fn non_power_of_two_modes_are_rejected_not_guessed() {
    // 3·(4·f1) is f12 but the walk needs (3·4)·f1 = f12 only by luck; a stride-3 walk is not:
    // 12:f1 ∘ 4:3 would give clmul(i, 3), but A(3i) = 3i.
    let e = layout_error("composition(12:f1, 4:3)");
    assert!(matches!(e, LayoutError::F2Inexact { index: 3, point: 9, got: 5, want: 9, .. }), "{e}");
    assert!(e.to_string().contains("carry-less"), "{e}");
    // A two-element walk is exact whatever its stride.
    assert_eq!(show("composition(12:f1, 2:3)"), "2:f3");
    // The inverses and the matrix need power-of-two modes (a last mode may be a tail).
    let e = layout_error("right_inverse((3,4):(f1,f4))");
    assert!(matches!(e, LayoutError::F2NotAligned { mode: 0, extent: 3, .. }), "{e}");
    let e = layout_error("left_inverse((4,3):(f1,f2))");
    assert!(matches!(e, LayoutError::F2Tail { extent: 3, stride: 2, reach: 2, .. }), "{e}");
    // Coalescing merges only across power-of-two extents: (3,2):(f1,f3) is not 6:f1.
    assert_eq!(show("coalesce((3,2):(f1,f3))"), "(3,2):(f1,f3)");
    assert_eq!(show("coalesce((2,2,3,2):(f1,f2,f4,f12))"), "(12,2):(f1,f12)");
    let (a, b) = (f2("(3,2):(f1,f3)"), f2("6:f1"));
    assert_ne!(a.table().unwrap(), b.table().unwrap());
    // Operations the tables do not define for F2 strides are type errors at the operand.
    for op in ["complement((4,4):(f1,f5))", "logical_product((4,4):(f1,f5), 2)", "nullspace((4,4):(f1,f5))"] {
        assert!(show(op).contains("not defined for an F2 layout"), "{op}: {}", show(op));
    }
    assert!(show("composition(4:1, 4:f1)").contains("on the right"));
}

#[test]
fn slicing_combines_offsets_by_xor() {
    let text = "(4,4):(f1,f5)";
    assert_eq!(show(&format!("slice({text}, (_,3))")), "4:f1");
    assert_eq!(show(&format!("slice_offset({text}, (_,3))")), "15");
    let l = f2(text);
    for r in 0..4 {
        assert_eq!(15 ^ r, l.eval_coord(&[r, 3].into()).unwrap());
    }
}

#[test]
fn divides_act_on_the_domain() {
    let a = "(8,8):(f1,f9)";
    let l = f2(a);
    for (op, t) in [("logical_divide", "[4:1,2:1]"), ("zipped_divide", "[2:4,8:1]"), ("flat_divide", "(2,4)")] {
        let r = f2(&show(&format!("{op}({a}, {t})")));
        let d = match evaluate(&format!("{op}((8,8), {t})")).unwrap() {
            Value::Layout(AnyLayout::Int(d)) => d,
            v => panic!("{v}"),
        };
        for i in 0..d.size() {
            assert_eq!(r.eval(i).unwrap(), l.eval(d.eval(i).unwrap()).unwrap(), "{op} at {i}");
        }
    }
}

#[test]
fn printing_round_trips() {
    for text in ["(4,(4,3)):(f1,(f5,f16))", "(8,8):(f1,f9)", "4:f0", "(4,8):(f1,f0)", "((2,2),3):((f1,f2),f4)"] {
        let v = evaluate(text).unwrap();
        assert_eq!(v.to_string(), text);
        assert_eq!(evaluate(&v.to_string()).unwrap(), v);
    }
    assert_eq!(show("(4,8):(f1,0)"), "(4,8):(f1,f0)");
    assert_eq!(show("stride((4,4):(f1,f5))"), "(f1,f5)");
    assert_eq!(show("f9"), "f9");
    assert_eq!(show("f2_stride(9)"), "f9");
    assert!(show("f99999999999999999999").contains("does not fit"));
    assert_eq!(show("get((4,(4,3)):(f1,(f5,f16)), 1)"), "(4,3):(f5,f16)");
    assert_eq!(show("flatten((4,(4,3)):(f1,(f5,f16)))"), "(4,4,3):(f1,f5,f16)");
    assert_eq!(show("make_layout(4:f1, 4:f5)"), "(4,4):(f1,f5)");
}

/// A random F2 layout of power-of-two modes, with an optional tail mode of extent 3 whose
/// stride is a single bit above the others.
fn pow2_f2_layout() -> impl Strategy<Value = F2Layout> {
    (prop::collection::vec((0u32..4, 0i64..64), 1..4), any::<bool>()).prop_map(|(modes, tail)| {
        let mut shape: Vec<i64> = modes.iter().map(|&(e, _)| 1i64 << e).collect();
        let mut stride: Vec<i64> = modes.iter().map(|&(_, k)| k).collect();
        if tail {
            shape.push(3);
            stride.push(1 << 12);
        }
        let t = |v: Vec<i64>| IntTuple::Tuple(v.into_iter().map(IntTuple::Int).collect());
        F2Layout::new(t(shape), t(stride)).unwrap()
    })
}

/// A compact integer layout of power-of-two modes (an index permutation).
fn pow2_index_layout(max_log: u32) -> impl Strategy<Value = Layout> {
    prop::collection::vec(0u32..3, 1..4)
        .prop_filter("fits", move |logs| logs.iter().sum::<u32>() <= max_log)
        .prop_flat_map(|logs| {
            let order: Vec<usize> = (0..logs.len()).collect();
            (Just(logs), Just(order).prop_shuffle())
        })
        .prop_map(|(logs, order)| {
            let shapes: Vec<i64> = logs.iter().map(|&e| 1i64 << e).collect();
            let mut strides = vec![0i64; shapes.len()];
            let mut acc = 1;
            for &i in &order {
                strides[i] = acc;
                acc *= shapes[i];
            }
            Layout::from_flat(&shapes.into_iter().zip(strides).collect::<Vec<_>>()).unwrap()
        })
}

proptest! {
    /// `L(R(k)) = k` for the right inverse; `L†(L(k)) = k` when L is injective.
    #[test]
    fn f2_inverses_invert(l in pow2_f2_layout()) {
        let r = l.right_inverse().unwrap();
        for k in 0..r.size() {
            prop_assert_eq!(l.eval(r.eval(k).unwrap()).unwrap(), k);
        }
        let values = l.table().unwrap();
        let mut distinct = values.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let inv = l.left_inverse().unwrap();
        for (k, &v) in values.iter().enumerate() {
            let back = inv.eval(v).unwrap();
            prop_assert_eq!(l.eval(back).unwrap(), v);
            if distinct.len() == values.len() {
                prop_assert_eq!(back, k as i64);
            }
        }
    }

    /// With power-of-two steps the carry-less walk is exact: composing with an index
    /// permutation of power-of-two modes never fails and agrees with `A(B(i))`.
    #[test]
    fn f2_composition_with_power_of_two_steps_is_exact(l in pow2_f2_layout(), b in pow2_index_layout(6)) {
        prop_assume!(b.size() <= l.size());
        let r = l.compose(&layout_core::Tiler::Layout(b.clone())).unwrap();
        for i in 0..b.size() {
            prop_assert_eq!(r.eval(i).unwrap(), l.eval(b.eval(i).unwrap()).unwrap());
        }
    }
}
