//! Swizzles `Sw<B,M,S>` and swizzled layouts `Sw o off o L` (CuTe's `Swizzle` and
//! `ComposedLayout`): the function, its parameters, printing, the CUTLASS shared-memory
//! swizzles checked exhaustively, the operations that keep the swizzle outside, the inverses
//! of tables E10/F10 in CuTe's swizzled form, pycute as a differential oracle, and properties.

use layout_core::notation::{ExprError, Span, Value, evaluate};
use layout_core::{AnyLayout, Layout, LayoutError, SliceCoord, Swizzle, SwizzledLayout, Tiler, parse_layout};
use proptest::prelude::*;

/// The canonical print of an expression's value, or `error: …`.
fn show(text: &str) -> String {
    match evaluate(text) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn swizzled(text: &str) -> SwizzledLayout {
    match evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Value::Layout(AnyLayout::Swizzled(s)) => s,
        v => panic!("{text} is {}, not a swizzled layout", v.kind()),
    }
}

fn sw(b: i64, m: i64, s: i64) -> Swizzle {
    Swizzle::new(b, m, s).unwrap()
}

fn lay(text: &str) -> Layout {
    parse_layout(text).unwrap()
}

/// The value of an expression (an integer or a swizzled layout) at every index.
fn values(text: &str) -> Vec<i64> {
    match evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Value::Layout(AnyLayout::Swizzled(s)) => s.table().unwrap(),
        Value::Layout(AnyLayout::Int(l)) => l.table().unwrap(),
        Value::Layout(AnyLayout::F2(f)) => f.table().unwrap(),
        v => panic!("{text} is {}", v.kind()),
    }
}

/// The source text an error points at, and the message.
fn error_at(text: &str) -> (String, String) {
    let e = evaluate(text).expect_err(text);
    let Span { start, end } = e.span();
    (text[start..end].to_string(), e.to_string())
}

#[test]
fn swizzle_parameters_follow_cutes_static_assertions() {
    assert!(Swizzle::new(3, 4, 3).is_ok());
    assert!(Swizzle::new(2, 0, -2).is_ok());
    assert!(Swizzle::new(0, 7, 0).is_ok());
    for (b, m, s, why) in [
        (-1, 0, 1, "B must be non-negative"),
        (1, -1, 1, "base M must be non-negative"),
        (3, 4, 2, "|S| must be at least"),
        (3, 4, -2, "|S| must be at least"),
        (20, 20, 30, "at most 62"),
    ] {
        let e = Swizzle::new(b, m, s).unwrap_err();
        assert!(matches!(e, LayoutError::SwizzleParams { .. }), "{e}");
        assert!(e.to_string().contains(why) || e.to_string().contains("number of bits"), "{e}");
    }
    let (at, msg) = error_at("size(Sw<3,4,2> o (8,64):(64,1))");
    assert_eq!(at, "Sw<3,4,2>");
    assert!(msg.contains("is not a swizzle"), "{msg}");
}

#[test]
fn swizzle_xors_the_yyy_bits_into_the_zzz_bits() {
    let s = sw(3, 4, 3);
    assert_eq!(s.yyy_mask(), 0b11_1000_0000);
    assert_eq!(s.zzz_mask(), 0b111_0000);
    // x = row·64 + col for the 8x64 tile: row r in bits 6..8 (yyy = bits 7..9 here).
    assert_eq!(s.apply(0b1_0000_0000), 0b1_0010_0000);
    assert_eq!(s.apply(0b11_1000_1111), 0b11_1111_1111);
    // A negative shift moves the yyy bits up: Sw<2,1,-3> reads bits 1..2, flips bits 4..5.
    let n = sw(2, 1, -3);
    assert_eq!((n.yyy_mask(), n.zzz_mask()), (0b110, 0b11_0000));
    assert_eq!(n.apply(0b110), 0b11_0110);
    assert_eq!(n.apply(0b11_0000), 0b11_0000);
    // Any integer, including negative ones (two's complement, as in C++ and Python).
    assert_eq!(s.apply(-1), -1 ^ 0b111_0000);
    assert_eq!(sw(0, 3, 0).apply(12345), 12345);
}

#[test]
fn a_swizzle_is_a_function_value() {
    assert_eq!(show("Sw<3,4,3>"), "Sw<3,4,3>");
    assert_eq!(show("eval(Sw<3,4,3>, 256)"), (256 ^ 32).to_string());
    assert_eq!(show("eval(Sw<2,0,2>, 13)"), (13 ^ 3).to_string());
    assert_eq!(show("size(Sw<3,4,3>)"), "1024");
    assert_eq!(show("cosize(Sw<2,0,-2>)"), "16");
    assert_eq!(show("right_inverse(Sw<3,4,3>)"), "Sw<3,4,3>");
    assert_eq!(show("left_inverse(Sw<3,4,3>)"), "Sw<3,4,3>");
    assert_eq!(show("make_swizzle(3,4,3)"), "Sw<3,4,3>");
}

#[test]
fn printing_is_canonical_and_parses_back() {
    for text in [
        "Sw<3,4,3> o (8,64):(64,1)",
        "Sw<3,4,3> o 32 o (8,64):(64,1)",
        "Sw<2,3,-3> o -5 o ((2,4),3):((1,6),-2)",
        "Sw<1,0,1> o 4:1",
        "Sw<0,0,0> o 7 o 4:1",
    ] {
        let v = evaluate(text).unwrap();
        assert_eq!(v.to_string(), text);
        assert_eq!(evaluate(&v.to_string()).unwrap(), v);
    }
    // Whitespace is insignificant; a zero offset is dropped; a bare shape is column-major.
    assert_eq!(show("Sw < 3 , 4 , 3 >o 0 o (8,64)"), "Sw<3,4,3> o (8,64):(1,8)");
    assert_eq!(show("make_composed_layout(Sw<3,4,3>, 0, (8,64):(64,1))"), "Sw<3,4,3> o (8,64):(64,1)");
}

#[test]
fn an_identity_swizzle_with_no_offset_is_the_layout_itself() {
    assert_eq!(show("Sw<0,4,3> o (8,64):(64,1)"), "(8,64):(64,1)");
    assert!(matches!(evaluate("Sw<0,0,0> o 0 o 4:1").unwrap(), Value::Layout(AnyLayout::Int(_))));
    assert_eq!(show("Sw<0,4,3> o 3 o 4:1"), "Sw<0,4,3> o 3 o 4:1");
}

#[test]
fn the_value_is_the_swizzle_of_offset_plus_layout() {
    for (text, s, off, l) in [
        ("Sw<3,4,3> o (8,64):(64,1)", sw(3, 4, 3), 0, "(8,64):(64,1)"),
        ("Sw<2,1,-3> o 17 o ((2,4),3):((1,6),20)", sw(2, 1, -3), 17, "((2,4),3):((1,6),20)"),
    ] {
        let c = swizzled(text);
        let l = lay(l);
        assert_eq!((c.swizzle(), c.offset(), c.layout()), (s, off, &l));
        for i in 0..l.size() + 5 {
            assert_eq!(c.eval(i).unwrap(), s.apply(off + l.eval(i).unwrap()), "{text} at {i}");
            let crd = l.coord(i).unwrap();
            assert_eq!(c.eval_coord(&crd).unwrap(), c.eval(i).unwrap());
        }
    }
    assert_eq!(show("eval(Sw<3,4,3> o (8,64):(64,1), (2,5))"), sw(3, 4, 3).apply(2 * 64 + 5).to_string());
    // Index 17 is the coordinate (1,2).
    assert_eq!(show("eval(Sw<3,4,3> o (8,64):(64,1), 17)"), sw(3, 4, 3).apply(64 + 2).to_string());
}

/// The swizzled layouts CUTLASS uses for shared memory permute `[0, cosize)`: every offset of
/// the tile is hit exactly once.
#[test]
fn cutlass_shared_memory_swizzles_are_bijective_onto_their_cosize() {
    for (text, cosize) in
        [("Sw<3,4,3> o (8,64):(64,1)", 512), ("Sw<2,3,3> o (8,32):(32,1)", 256), ("Sw<3,3,3> o (8,64):(64,1)", 512)]
    {
        let c = swizzled(text);
        assert_eq!(c.cosize().unwrap(), cosize, "{text}");
        assert_eq!(show(&format!("cosize({text})")), cosize.to_string());
        assert_eq!(show(&format!("size({text})")), cosize.to_string());
        let mut seen = vec![false; cosize as usize];
        for i in 0..c.size() {
            let v = c.eval(i).unwrap();
            assert!((0..cosize).contains(&v), "{text}({i}) = {v}");
            assert!(!std::mem::replace(&mut seen[v as usize], true), "{text} hits {v} twice");
        }
        assert!(seen.iter().all(|&s| s), "{text} misses an offset");
        // And it does swizzle: row 1 is not the unswizzled row 1.
        assert_ne!(c.table().unwrap(), c.layout().table().unwrap());
    }
}

#[test]
fn size_rank_depth_shape_come_from_the_inner_layout() {
    let t = "Sw<2,3,3> o 8 o ((2,4),32):((32,64),1)";
    assert_eq!(show(&format!("size({t})")), "256");
    assert_eq!(show(&format!("rank({t})")), "2");
    assert_eq!(show(&format!("depth({t})")), "2");
    assert_eq!(show(&format!("shape({t})")), "((2,4),32)");
    assert_eq!(show(&format!("get({t}, 0, 1)")), "Sw<2,3,3> o 8 o 4:64");
    assert_eq!(show(&format!("flatten({t})")), "Sw<2,3,3> o 8 o (2,4,32):(32,64,1)");
    assert_eq!(show(&format!("coalesce({t})")), "Sw<2,3,3> o 8 o (8,32):(32,1)");
    // cosize is the largest value plus one, offset and swizzle included.
    assert_eq!(show("cosize(Sw<1,0,2> o 5:1)"), "6");
    assert_eq!(show("cosize(Sw<1,0,2> o 3:1)"), "3");
    assert_eq!(show("cosize(Sw<3,4,3> o 512 o (8,64):(64,1))"), "1024");
}

/// `A(c' + c*) = Sw(off + L(c') + L|_(c*))`: the fixed part folds into the composed offset.
#[test]
fn slicing_folds_the_offset_into_the_composed_offset() {
    let t = "Sw<3,4,3> o (8,64):(64,1)";
    assert_eq!(show(&format!("slice({t}, (2,_))")), "Sw<3,4,3> o 128 o 64:1");
    assert_eq!(show(&format!("slice({t}, (_,5))")), "Sw<3,4,3> o 5 o 8:64");
    assert_eq!(show(&format!("slice_offset({t}, (2,_))")), "0");
    let c = swizzled(t);
    for row in 0..8 {
        let sub = c.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(row), SliceCoord::Free])).unwrap();
        for col in 0..64 {
            assert_eq!(sub.eval(col).unwrap(), c.eval_coord(&[row, col].into()).unwrap());
        }
    }
    let nested = swizzled("Sw<2,1,2> o 3 o ((3,2),((2,3),2)):((4,1),((2,15),100))");
    let sub = nested
        .slice(&SliceCoord::Tuple(vec![
            SliceCoord::Tuple(vec![SliceCoord::Int(1), SliceCoord::Free]),
            SliceCoord::Tuple(vec![SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(0)]), SliceCoord::Free]),
        ]))
        .unwrap();
    assert_eq!(sub.to_string(), "Sw<2,1,2> o 7 o (2,(2,2)):(1,(2,100))");
}

/// `(Sw o off o L) ∘ B = Sw o off o (L ∘ B)` (CuTe C++), checked at every point.
#[test]
fn composition_with_a_layout_on_the_right_keeps_the_swizzle_outside() {
    for (a, b) in [
        ("Sw<3,4,3> o (8,64):(64,1)", "(4,16):(1,8)"),
        ("Sw<3,4,3> o 64 o (8,64):(64,1)", "[2:4,(8,2):(1,32)]"),
        ("Sw<2,0,2> o (4,(4,3)):(1,(4,16))", "48:1"),
        ("Sw<3,0,3> o (8,8):(1,8)", "((4,8),2):((16,1),8)"),
    ] {
        let c = swizzled(a);
        let t = match evaluate(b).unwrap().into_tiler() {
            Ok(t) => t,
            Err(e) => panic!("{b}: {e}"),
        };
        let r = c.compose(&t).unwrap();
        assert_eq!((r.swizzle(), r.offset()), (c.swizzle(), c.offset()));
        assert_eq!(r.layout(), &layout_core::composition_tiler(c.layout(), &t).unwrap());
        assert_eq!(show(&format!("composition({a}, {b})")), r.to_string());
        if let Tiler::Layout(b) = &t {
            for i in 0..b.size() {
                assert_eq!(r.eval(i).unwrap(), c.eval(b.eval(i).unwrap()).unwrap(), "({a}) ∘ {b} at {i}");
            }
        }
    }
}

/// P5 in CuTe's form: the swizzled 8x8 data layout composed with the Ampere TV layout.
#[test]
fn p5_swizzled_data_layout_composed_with_the_tv_layout() {
    let text = "composition(Sw<3,0,3> o (8,8):(1,8), ((4,8),2):((16,1),8))";
    assert_eq!(show(text), "Sw<3,0,3> o ((4,8),2):((16,1),8)");
    // The same function as the F2 form `((4,8),2):((f18,f1),f9)`.
    assert_eq!(values(text), values("composition((8,8):(f1,f9), ((4,8),2):((16,1),8))").to_vec());
}

/// Divides and products act on L and keep the swizzle and the offset outside (CuTe C++).
#[test]
fn divides_and_products_keep_the_swizzle_outside() {
    let a = "Sw<3,4,3> o 8 o (8,64):(64,1)";
    let l = "(8,64):(64,1)";
    for (op, t) in [
        ("logical_divide", "[2:1,16:1]"),
        ("zipped_divide", "[2:1,16:1]"),
        ("tiled_divide", "[2:1,16:1]"),
        ("flat_divide", "[2:1,16:1]"),
        ("logical_product", "(2,3)"),
        ("zipped_product", "(2,3)"),
        ("tiled_product", "(2,3)"),
        ("flat_product", "(2,3)"),
        ("blocked_product", "(2,3):(1,2)"),
        ("raked_product", "(2,3):(1,2)"),
    ] {
        let inner = show(&format!("{op}({l}, {t})"));
        assert_eq!(show(&format!("{op}({a}, {t})")), format!("Sw<3,4,3> o 8 o {inner}"), "{op}");
        let s = sw(3, 4, 3);
        let want: Vec<i64> = values(&inner).into_iter().map(|v| s.apply(8 + v)).collect();
        assert_eq!(values(&format!("{op}({a}, {t})")), want, "{op}");
    }
    // An inadmissible divide of L is the same error.
    assert_eq!(show("logical_divide(Sw<1,0,1> o (6,4):(1,6), 5:1)"), show("logical_divide((6,4):(1,6), 5:1)"));
}

/// E10 in CuTe C++'s form: `right_inverse(Sw<2,0,2> o (4,(4,3)):(1,(4,16))) = Sw<2,0,2> o 48:1`.
#[test]
fn e10_right_inverse_of_the_swizzled_layout() {
    let text = "Sw<2,0,2> o (4,(4,3)):(1,(4,16))";
    assert_eq!(show(&format!("right_inverse({text})")), "Sw<2,0,2> o 48:1");
    check_right_inverse(text);
}

/// F10 in the swizzled form: the left inverse is the same involution.
#[test]
fn f10_left_inverse_of_the_swizzled_layout() {
    let text = "Sw<2,0,2> o (4,(4,3)):(1,(4,16))";
    assert_eq!(show(&format!("left_inverse({text})")), "Sw<2,0,2> o 48:1");
    let c = swizzled(text);
    let inv = c.left_inverse().unwrap();
    for k in 0..c.size() {
        assert_eq!(inv.eval(c.eval(k).unwrap()).unwrap(), k);
    }
}

/// `L(L‡(k)) = k` for every k < |L‡|, by brute force.
fn check_right_inverse(text: &str) {
    let c = swizzled(text);
    let r = c.right_inverse().unwrap_or_else(|e| panic!("{text}: {e}"));
    for k in 0..r.size() {
        assert_eq!(c.eval(r.eval(k).unwrap()).unwrap(), k, "{text}: R = {r} at {k}");
    }
}

#[test]
fn inverses_of_the_cutlass_swizzles_invert_them() {
    for text in [
        "Sw<3,4,3> o (8,64):(64,1)",
        "Sw<2,3,3> o (8,32):(32,1)",
        "Sw<3,3,3> o (8,64):(64,1)",
        "Sw<3,4,3> o (64,8):(1,64)",
        "Sw<1,0,1> o (2,2):(2,1)",
    ] {
        check_right_inverse(text);
        let c = swizzled(text);
        let l = c.left_inverse().unwrap();
        for k in 0..c.size() {
            assert_eq!(l.eval(c.eval(k).unwrap()).unwrap(), k, "{text}: left inverse {l} at {k}");
        }
    }
    // The swizzle moves to the bits the inverse maps its bits to; a pair whose yyy bit no
    // index below |L‡| = 512 sets (bit 9 here) does nothing and is dropped.
    assert_eq!(show("right_inverse(Sw<3,4,3> o (64,8):(8,1))"), "Sw<2,1,3> o (8,64):(64,1)");
    // Here the inverse puts the yyy bits (rows) below the zzz bits (columns): a negative shift.
    assert_eq!(show("right_inverse(Sw<3,4,3> o (8,64):(64,1))"), "Sw<2,1,-6> o (64,8):(8,1)");
    check_right_inverse("Sw<3,4,3> o (64,8):(8,1)");
    assert_eq!(show("right_inverse(Sw<3,4,3> o 1024:1)"), "Sw<3,4,3> o 1024:1");
    assert_eq!(show("right_inverse(Sw<1,0,1> o (2,2):(2,1))"), "Sw<1,0,-1> o (2,2):(2,1)");
}

#[test]
fn inverses_that_are_not_swizzled_layouts_are_errors() {
    let (at, msg) = error_at("right_inverse(Sw<2,0,2> o 4 o (4,4):(1,4))");
    assert_eq!(at, "Sw<2,0,2> o 4 o (4,4):(1,4)");
    assert!(msg.contains("needs the offset 0"), "{msg}");
    // L‡ = (2,3):(3,1) sends index bit 0 to 3, not a single bit.
    let msg = show("right_inverse(Sw<1,0,1> o (3,2):(2,1))");
    assert!(msg.contains("not a single bit"), "{msg}");
    // Sw<1,1,1> moves index 4 of L‡ = 6:1 to 6, outside [0,6).
    let msg = show("right_inverse(Sw<1,1,1> o 6:1)");
    assert!(msg.contains("outside [0, 6)"), "{msg}");
    assert!(matches!(swizzled("Sw<1,1,1> o 6:1").right_inverse(), Err(LayoutError::SwizzleNotCommuting { .. })));
}

#[test]
fn operations_not_defined_on_swizzled_layouts_are_errors_at_the_operand() {
    for (text, at, needle) in [
        (
            "nullspace(Sw<3,4,3> o (8,64):(64,1))",
            "Sw<3,4,3> o (8,64):(64,1)",
            "`nullspace` is not defined for a swizzled",
        ),
        ("stride(Sw<3,4,3> o (8,64):(64,1))", "Sw<3,4,3> o (8,64):(64,1)", "has no strides"),
        ("complement(Sw<1,0,1> o 4:1)", "Sw<1,0,1> o 4:1", "not defined for a swizzled"),
        ("composition(4:1, (4,4):(f1,f5))", "(4,4):(f1,f5)", "on the right"),
        ("make_layout(4:1, Sw<1,0,1> o 4:1)", "make_layout(4:1, Sw<1,0,1> o 4:1)", "concatenation is not admissible"),
        ("(8,8):(1,8) o (4,2)", "(8,8):(1,8)", "composition(A, B)"),
        ("Sw<1,0,1> o f1 o 4:1", "f1", "chains layouts, swizzles and integer offsets"),
        ("Sw<1,0,1> o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 1 o 4:1", "o", "at most 16 `o`"),
        ("Sw<1,0,1", "<", "unclosed"),
    ] {
        let (got_at, msg) = error_at(text);
        assert!(msg.contains(needle), "{text}: {msg}");
        if at == "Sw<1,0,1>" {
            assert!(got_at.starts_with("Sw<1,0,1>"), "{text}: at `{got_at}`");
        } else {
            assert_eq!(got_at, at, "{text}: {msg}");
        }
    }
    assert!(matches!(evaluate("Sw<1,0,1 o 4:1"), Err(ExprError::Parse { .. })));
}

/// pycute (nvidia-cutlass 4.2.0.0) as a differential oracle: `ComposedLayout(Swizzle(B,M,S),
/// offset, L)` at every index of random swizzled layouts, and the inner composition and
/// logical divide of swizzled layouts (`tests/data/pycute_swizzle.py` generates the file).
#[test]
fn pycute_composed_layouts_agree_at_every_index() {
    let data = include_str!("data/pycute-swizzle-vectors.txt");
    let mut cases = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let (text, want) = line.split_once('\t').expect("EXPR<TAB>values");
        let want: Vec<i64> = want.split(' ').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values(text), want, "{text}");
        cases += 1;
    }
    assert_eq!(cases, 500);
}

/// tensor-layouts 0.3.2 as a second oracle: 200 swizzled layouts, 100 compositions, 60 logical
/// divides and 40 right inverses of compact swizzled layouts, values at every index
/// (`tests/data/tl_swizzle.py` generates the file; its compositions and divides are kept only
/// where tensor-layouts is right by brute force).
#[test]
fn tensor_layouts_composed_layouts_agree_at_every_index() {
    let data = include_str!("data/tl-swizzle-vectors.txt");
    let (mut cases, mut unrepresented) = (0, Vec::new());
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let (text, want) = line.split_once('\t').expect("EXPR<TAB>values");
        let want: Vec<i64> = want.split(' ').map(|v| v.parse().unwrap()).collect();
        cases += 1;
        // tensor-layouts writes the inverse of `Sw o L` as `L‡ o Sw` (swizzle inside); we
        // return `Sw' o L‡` (swizzle outside) and reject where no such Sw' exists, with an
        // error that says so. Every inverse we do return must agree.
        if text.starts_with("right_inverse")
            && let Err(e) = evaluate(text)
        {
            assert!(e.to_string().contains("does not pass through"), "{text}: {e}");
            unrepresented.push(text);
            continue;
        }
        assert_eq!(values(text), want, "{text}");
    }
    assert_eq!(cases, 400);
    println!("right inverses tensor-layouts writes with the swizzle inside, which we reject: {unrepresented:?}");
    // Exactly these 4 of the 40 are rejected; any other rejection (of an inverse we can
    // represent) fails the test instead of being skipped.
    assert_eq!(unrepresented.len(), 4, "{unrepresented:#?}");
    for text in &unrepresented {
        // Each rejected one is a genuine non-swizzle-outside form: tensor-layouts' answer is a
        // right inverse that no `Sw' o L‡` with our L‡ reproduces (the error says so).
        assert!(text.starts_with("right_inverse(Sw<"), "{text}");
    }
}

/// A random valid swizzle.
fn any_swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..4, 0i64..5, 0i64..8, any::<bool>()).prop_filter_map("|S| >= B", |(b, m, s, neg)| {
        let s = if neg { -s } else { s };
        Swizzle::new(b, m, s).ok()
    })
}

/// A compact (bijective onto `[0, size)`) layout of power-of-two modes in a random order, of
/// at least `2^min_log` elements (a last mode makes up the difference).
fn compact_pow2_layout(min_log: u32) -> impl Strategy<Value = Layout> {
    prop::collection::vec(0u32..4, 1..5)
        .prop_map(move |mut logs| {
            let total: u32 = logs.iter().sum();
            if total < min_log {
                logs.push(min_log - total);
            }
            logs
        })
        .prop_flat_map(|logs| {
            let order: Vec<usize> = (0..logs.len()).collect();
            (Just(logs), Just(order).prop_shuffle())
        })
        .prop_map(|(logs, order)| {
            let shapes: Vec<i64> = logs.iter().map(|&e| 1i64 << e).collect();
            let mut strides = vec![0i64; shapes.len()];
            let mut acc = 1i64;
            for &i in &order {
                strides[i] = acc;
                acc *= shapes[i];
            }
            let modes: Vec<(i64, i64)> = shapes.into_iter().zip(strides).collect();
            Layout::from_flat(&modes).unwrap()
        })
}

/// A swizzle and a compact layout whose cosize is a multiple of the swizzle's block
/// `2^(B+M+|S|)`: the swizzle's bits stay inside the cosize.
fn swizzle_inside_cosize() -> impl Strategy<Value = (Swizzle, Layout)> {
    any_swizzle().prop_flat_map(|s| {
        let width = s.size().trailing_zeros();
        (Just(s), compact_pow2_layout(width))
    })
}

proptest! {
    /// `Sw(Sw(x)) = x` for every swizzle and every integer.
    #[test]
    fn a_swizzle_is_an_involution(s in any_swizzle(), x in any::<i64>()) {
        prop_assert_eq!(s.apply(s.apply(x)), x);
    }

    /// When the swizzle's bits stay inside the cosize of a compact L (its block `2^(B+M+|S|)`
    /// divides the cosize), `Sw o L` takes exactly L's values, permuted.
    #[test]
    fn swizzled_values_are_a_permutation_of_the_layouts((s, l) in swizzle_inside_cosize()) {
        prop_assert_eq!(l.cosize().unwrap() % s.size(), 0);
        let c = SwizzledLayout::new(s, 0, l.clone());
        let mut got = c.table().unwrap();
        let mut want = l.table().unwrap();
        got.sort_unstable();
        want.sort_unstable();
        prop_assert_eq!(got, want);
    }

    /// The right inverse of a swizzled compact layout, when it exists, inverts it.
    #[test]
    fn right_inverses_invert(s in any_swizzle(), l in compact_pow2_layout(0)) {
        let c = SwizzledLayout::new(s, 0, l);
        if let Ok(r) = c.right_inverse() {
            for k in 0..r.size() {
                prop_assert_eq!(c.eval(r.eval(k).unwrap()).unwrap(), k);
            }
        }
    }
}
