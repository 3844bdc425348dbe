//! Composed layouts `A o Sw o off o B` (CuTe's `ComposedLayout`, docs/algebra.md §1.6): a
//! composition with a swizzle or a swizzled layout on the right, checked at every index
//! against the brute-force `A(Sw(off + B(i)))`, exhaustively over small cases and by
//! property; `(A o Sw o B) ∘ C = A o Sw o (B ∘ C)`; the normal form and its simplifications;
//! the printed form parses back; the operations a composed layout refuses.

use layout_core::notation::{Value, evaluate};
use layout_core::{AnyLayout, ComposedLayout, Layout, Stage, Swizzle, parse_layout};
use proptest::prelude::*;

fn lay(text: &str) -> Layout {
    parse_layout(text).unwrap()
}

fn value_of(text: &str) -> AnyLayout {
    match evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Value::Layout(l) => l,
        v => panic!("{text} is {}", v.kind()),
    }
}

/// `A(Sw(off + B(i)))` for every index of B, straight from the definitions (layout
/// evaluation and the swizzle's XOR), `None` where a value is undefined (a negative index).
fn brute(a: &Layout, sw: Swizzle, off: i64, b: &Layout) -> Vec<Option<i64>> {
    (0..b.size()).map(|i| a.eval(sw.apply(off + b.eval(i).unwrap())).ok()).collect()
}

/// The values of a layout of any kind at every index (`None` where evaluation fails).
fn values(l: &AnyLayout) -> Vec<Option<i64>> {
    (0..l.size())
        .map(|i| match l.eval(i) {
            Ok(layout_core::IntTuple::Int(v)) => Some(v),
            Ok(t) => panic!("`{l}` gives the coordinate {t}"),
            Err(_) => None,
        })
        .collect()
}

/// Checks `composition(A, Sw o off o B)` through the expression language against the brute
/// force at every index, its printed form parsing back to the same value, and its size
/// being B's (its shape is B's or a refinement of it, as a composition's is). Returns the
/// result's kind.
fn check(a: &Layout, sw: Swizzle, off: i64, b: &Layout) -> &'static str {
    let text = format!("composition({a}, {sw} o {off} o {b})");
    let got = value_of(&text);
    let want = brute(a, sw, off, b);
    assert_eq!(values(&got), want, "{text} = {got}");
    assert_eq!(got.size(), b.size(), "{text}");
    assert_eq!(value_of(&got.to_string()), got, "{text}: `{got}` parses back");
    got.kind()
}

#[test]
fn the_issue_example_is_a_swizzled_layout_checked_at_every_index() {
    // (8,8):(8,1) is the transpose of an 8x8 tile: it sends index bits 0-2 to 3-5 and back,
    // so the swizzle that reads bits 3-4 into 0-1 becomes one that reads 0-1 into 3-4.
    let text = "composition((8,8):(8,1), Sw<2,0,3> o (8,8):(8,1))";
    let got = value_of(text);
    assert_eq!(got.to_string(), "Sw<2,0,-3> o (8,8):(1,8)");
    let (a, b) = (lay("(8,8):(8,1)"), lay("(8,8):(8,1)"));
    let sw = Swizzle::new(2, 0, 3).unwrap();
    assert_eq!(values(&got), brute(&a, sw, 0, &b));
    // The chain written out is the same value.
    assert_eq!(value_of("(8,8):(8,1) o Sw<2,0,3> o (8,8):(8,1)"), got);
}

#[test]
fn a_swizzle_that_does_not_commute_stays_a_composed_layout() {
    // (8,8):(1,9) is not a bit permutation: no swizzle after it is the same function.
    let text = "composition((8,8):(1,9), Sw<3,0,3> o (8,8):(8,1))";
    let got = value_of(text);
    assert!(matches!(got, AnyLayout::Composed(_)), "{got}");
    assert_eq!(got.to_string(), "(8,8):(1,9) o Sw<3,0,3> o (8,8):(8,1)");
    assert_eq!(values(&got), brute(&lay("(8,8):(1,9)"), Swizzle::new(3, 0, 3).unwrap(), 0, &lay("(8,8):(8,1)")));
    let AnyLayout::Composed(c) = &got else { unreachable!() };
    assert_eq!(c.stages(), &[Stage::Layout(lay("(8,8):(1,9)")), Stage::Swizzle(Swizzle::new(3, 0, 3).unwrap())]);
    assert_eq!(c.inner(), &lay("(8,8):(8,1)"));
    // An offset between the layout and the swizzle keeps it a composed layout too.
    let off = value_of("composition((8,8):(8,1), Sw<2,0,3> o 1 o (8,8):(8,1))");
    assert_eq!(off.to_string(), "(8,8):(8,1) o Sw<2,0,3> o 1 o (8,8):(8,1)");
}

/// Every A = (a0,a1):(d0,d1) with extents 2 and 4 and strides 0..4, swizzles with B ≤ 2,
/// M ≤ 1, |S| ≤ 2, offsets 0..3, and B over a few layouts of size 8: the composition equals
/// the brute force at every index.
#[test]
fn exhaustive_small_compositions_equal_the_brute_force() {
    let bs = ["8:1", "(2,4):(4,1)", "(4,2):(2,1)", "(2,2,2):(4,1,2)", "8:2", "(2,4):(1,3)"].map(lay);
    let mut kinds = std::collections::BTreeMap::new();
    let mut cases = 0;
    for (a0, a1) in [(2, 4), (4, 2), (4, 4)] {
        for d0 in 0..5 {
            for d1 in 0..5 {
                let a = Layout::from_flat(&[(a0, d0), (a1, d1)]).unwrap();
                for (bits, base, shift) in [(1, 0, 1), (1, 0, 2), (2, 0, 2), (1, 1, 1), (1, 0, -1), (2, 0, -2)] {
                    let sw = Swizzle::new(bits, base, shift).unwrap();
                    for off in 0..4 {
                        for b in &bs {
                            *kinds.entry(check(&a, sw, off, b)).or_insert(0) += 1;
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases, 3 * 25 * 6 * 4 * 6);
    // Both outcomes occur: swizzles pulled through A, and composed layouts that stay chains.
    assert!(kinds.get("a swizzled layout").is_some_and(|&n| n > 0), "{kinds:?}");
    assert!(kinds.get("a composed layout").is_some_and(|&n| n > 0), "{kinds:?}");
}

#[test]
fn composing_on_the_right_composes_the_inner_layout() {
    // (A o Sw o B) ∘ C = A o Sw o (B ∘ C), where B ∘ C is admissible.
    let abc = "(8,8):(1,9) o Sw<3,0,3> o (8,8):(8,1)";
    let chain = value_of(abc);
    let sw = Swizzle::new(3, 0, 3).unwrap();
    for c in ["4:2", "(4,4):(1,8)", "(2,8):(32,1)", "64:1"] {
        let got = value_of(&format!("composition({abc}, {c})"));
        let (a, b, c) = (lay("(8,8):(1,9)"), lay("(8,8):(8,1)"), lay(c));
        let want: Vec<Option<i64>> =
            (0..c.size()).map(|i| a.eval(sw.apply(b.eval(c.eval(i).unwrap()).unwrap())).ok()).collect();
        assert_eq!(values(&got), want, "{abc} ∘ {c} = {got}");
        assert_eq!(got.inner(), Some(&layout_core::composition(&b, &c).unwrap()), "{got}");
        let _ = &chain;
    }
    // Not admissible for B: the composition's error.
    let err = evaluate(&format!("composition({abc}, 5:3)")).unwrap_err();
    assert!(err.to_string().contains("composition"), "{err}");
}

#[test]
fn a_swizzle_alone_on_the_right_composes_on_a_s_domain() {
    // CuTe C++'s composition(Layout, Swizzle): Sw' o A when the swizzle commutes with A.
    let got = value_of("composition((8,8):(8,1), Sw<3,0,3>)");
    assert_eq!(got.to_string(), "Sw<3,0,-3> o (8,8):(8,1)");
    let (a, sw) = (lay("(8,8):(8,1)"), Swizzle::new(3, 0, 3).unwrap());
    assert_eq!(values(&got), brute(&a, sw, 0, &lay("(8,8):(1,8)")));
    // When it does not, A o Sw over A's shape.
    let got = value_of("composition((8,8):(1,9), Sw<3,0,3>)");
    assert_eq!(got.to_string(), "(8,8):(1,9) o Sw<3,0,3> o (8,8):(1,8)");
}

#[test]
fn identity_swizzles_offsets_and_repeated_swizzles_simplify() {
    // The identity swizzle: the composition of the layouts.
    assert_eq!(value_of("composition((8,8):(8,1), Sw<0,0,0> o (8,8):(8,1))").to_string(), "(8,8):(1,8)");
    assert_eq!(value_of("(4,4):(4,1) o Sw<0,3,0> o 16:1").to_string(), "(4,4):(4,1)");
    // ... and its error when they do not compose.
    assert!(evaluate("(4,4):(4,1) o Sw<0,0,0> o 3:3").is_err());
    // A swizzle is an involution; offsets add.
    assert_eq!(value_of("Sw<2,0,3> o Sw<2,0,3> o 16:1").to_string(), "16:1");
    assert_eq!(value_of("Sw<1,0,1> o 1 o 2 o 4:1").to_string(), "Sw<1,0,1> o 3 o 4:1");
    assert_eq!(value_of("Sw<1,0,1> o 2 o -2 o 4:1").to_string(), "Sw<1,0,1> o 4:1");
    // An identity swizzle with an offset stays, as `Sw<0,…> o off o L` always has.
    assert_eq!(value_of("Sw<0,0,0> o 3 o 4:1").to_string(), "Sw<0,0,0> o 3 o 4:1");
    assert_eq!(value_of("4:2 o Sw<0,1,1> o 3 o 4:1").to_string(), "4:2 o Sw<0,1,1> o 3 o 4:1");
    // A swizzled layout on the left contributes its whole chain.
    let got = value_of("composition(Sw<1,0,2> o 5 o (4,4):(1,5), Sw<3,0,3> o (8,8):(8,1))");
    let want: Vec<Option<i64>> = (0..64)
        .map(|i| {
            let x = Swizzle::new(3, 0, 3).unwrap().apply(lay("(8,8):(8,1)").eval(i).unwrap());
            lay("(4,4):(1,5)").eval(x).ok().map(|y| Swizzle::new(1, 0, 2).unwrap().apply(5 + y))
        })
        .collect();
    assert_eq!(values(&got), want, "{got}");
}

#[test]
fn operations_on_a_composed_layout_act_on_its_inner_layout() {
    let text = "(8,8):(1,9) o Sw<3,0,3> o (8,8):(8,1)";
    let l = value_of(text);
    let show = |e: String| evaluate(&e).map(|v| v.to_string()).unwrap_or_else(|e| format!("error: {e}"));
    assert_eq!(show(format!("size({text})")), "64");
    assert_eq!(show(format!("shape({text})")), "(8,8)");
    assert_eq!(show(format!("rank({text})")), "2");
    let max = values(&l).into_iter().flatten().max().unwrap();
    assert_eq!(show(format!("cosize({text})")), (max + 1).to_string());
    assert_eq!(show(format!("get({text}, 1)")), "(8,8):(1,9) o Sw<3,0,3> o 8:1");
    assert_eq!(show(format!("coalesce({text})")), text);
    // A slice: the fixed part's offset becomes the innermost stage.
    let s = value_of(&format!("slice({text}, (2,_))"));
    let want: Vec<Option<i64>> = (0..8).map(|j| l.eval_coord(&[2, j].into()).ok().map(|v| v.leaves()[0])).collect();
    assert_eq!(values(&s), want, "{s}");
    assert_eq!(show(format!("slice_offset({text}, (2,_))")), "0");
    // A divide keeps the stages outside.
    let d = value_of(&format!("logical_divide({text}, [2:1, 4:2])"));
    assert_eq!(d.inner(), Some(&lay("((2,4),(4,2)):((8,16),(2,1))")), "{d}");
    // Not defined: strides, inverses, a mode of another layout.
    for (op, needle) in [
        (format!("stride({text})"), "has no strides"),
        (format!("right_inverse({text})"), "not defined for a composed layout"),
        (format!("left_inverse({text})"), "not defined for a composed layout"),
        (format!("make_layout(4:1, {text})"), "concatenation"),
        ("composition((4,4):(f1,f5), Sw<1,0,1> o 16:1)".into(), "A is an integer, swizzled or composed layout"),
        ("composition((4,4):(1@0,1@1), Sw<1,0,1>)".into(), "A is an integer, swizzled or composed layout"),
        ("composition(4:1, (4,4):(f1,f5))".into(), "on the right"),
        ("(2,2):(1,3) o Sw<1,0,1> o f1 o 4:1".into(), "chains layouts, swizzles and integer offsets"),
        ("(4,4):(1,4) o 2 o 16:1".into(), "compose two layouts with `composition(A, B)`"),
    ] {
        let msg = show(op.clone());
        assert!(msg.contains(needle), "{op}: {msg}");
    }
}

#[test]
fn the_chain_is_built_in_normal_form() {
    let sw = Swizzle::new(2, 0, 2).unwrap();
    let l = ComposedLayout::build(
        vec![Stage::Layout(lay("(4,4):(1,5)")), Stage::Swizzle(sw), Stage::Offset(0), Stage::Swizzle(sw)],
        lay("16:1"),
    )
    .unwrap();
    // The two swizzles cancel once the zero offset between them is dropped, and the layout
    // composes with B.
    assert_eq!(l, AnyLayout::Int(lay("(4,4):(1,5)")));
    // Offsets and no swizzle: behind the identity swizzle, printed so that it parses back.
    let l = ComposedLayout::build(vec![Stage::Layout(lay("(4,4):(1,5)")), Stage::Offset(2)], lay("8:1")).unwrap();
    assert_eq!(l.to_string(), "Sw<0,0,0> o (4,4):(1,5) o 2 o 8:1");
    assert_eq!(value_of(&l.to_string()), l);
    assert_eq!(values(&l), (0..8).map(|i| lay("(4,4):(1,5)").eval(2 + i).ok()).collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn compositions_with_swizzled_layouts_equal_the_brute_force(
        a0 in 1i64..9, a1 in 1i64..9, d0 in 0i64..12, d1 in 0i64..12,
        bits in 0i64..3, base in 0i64..3, shift in 1i64..4, negative in any::<bool>(),
        off in 0i64..16, b0 in 1i64..9, b1 in 1i64..9, e0 in 0i64..9, e1 in 0i64..9,
    ) {
        let shift = shift.max(bits);
        let sw = Swizzle::new(bits, base, if negative { -shift } else { shift }).unwrap();
        let a = Layout::from_flat(&[(a0, d0), (a1, d1)]).unwrap();
        let b = Layout::from_flat(&[(b0, e0), (b1, e1)]).unwrap();
        let text = format!("composition({a}, {sw} o {off} o {b})");
        if sw.is_identity() && off == 0 {
            // `Sw<0,…> o B` is B: the composition of the layouts, admissible or not.
            let show = |t: &str| evaluate(t).map(|v| v.to_string()).map_err(|e| e.to_string());
            prop_assert_eq!(show(&text), show(&format!("composition({a}, {b})")));
            return Ok(());
        }
        let got = value_of(&text);
        prop_assert_eq!(values(&got), brute(&a, sw, off, &b), "{} = {}", text, got);
        prop_assert_eq!(value_of(&got.to_string()), got);
    }
}
