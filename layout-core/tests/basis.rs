//! Coordinate (basis) strides `a@i` (paper §1 E-basis, §3.3 coordinate reduction): layouts
//! that produce coordinates. Tables A14, A15, A27, P6, E9, F9, G6, G7 as named tests, each
//! checked by brute force, plus composition through coordinate reduction, sums of basis
//! elements, divides of identity tensors, printing and errors.

use layout_core::notation::{Span, Value, evaluate};
use layout_core::{
    AnyLayout, CoordinateLayout, IntTuple, Layout, LayoutError, compose_coordinates, idx2crd, parse_layout,
};
use proptest::prelude::*;

fn show(text: &str) -> String {
    match evaluate(text) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn basis(text: &str) -> CoordinateLayout {
    match evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Value::Layout(AnyLayout::Coordinate(b)) => b,
        v => panic!("{text} is {}, not a coordinate layout", v.kind()),
    }
}

fn lay(text: &str) -> Layout {
    parse_layout(text).unwrap()
}

/// A coordinate `(c0, c1, …)` zero-extended to `rank` components.
fn pad(c: &IntTuple, rank: usize) -> IntTuple {
    let mut v: Vec<i64> = c.leaves();
    v.resize(rank.max(v.len()), 0);
    IntTuple::Tuple(v.into_iter().map(IntTuple::Int).collect())
}

fn coord(v: &[i64]) -> IntTuple {
    IntTuple::Tuple(v.iter().map(|&x| IntTuple::Int(x)).collect())
}

fn error_at(text: &str) -> (String, String) {
    let e = evaluate(text).expect_err(text);
    let Span { start, end } = e.span();
    (text[start..end].to_string(), e.to_string())
}

/// A14 (Fig 4b): `(4,(4,2)):(e1,(e0,6e1))` maps `(r,(c0,c1))` to `(c0, r+6·c1)`.
#[test]
fn a14_blocked_coordinate_layout_values() {
    let text = "(4,(4,2)):(1@1,(1@0,6@1))";
    let l = basis(text);
    assert_eq!(l.to_string(), text);
    assert_eq!(l.codomain_rank(), 2);
    for (c, want) in [("(0,(1,0))", "(1,0)"), ("(0,(0,1))", "(0,6)"), ("(1,(0,0))", "(0,1)"), ("(3,(3,1))", "(3,9)")] {
        assert_eq!(show(&format!("eval({text}, {c})")), want, "L{c}");
    }
    for i in 0..l.size() {
        let n = idx2crd(i, l.shape()).unwrap().leaves();
        let (r, c0, c1) = (n[0], n[1], n[2]);
        assert_eq!(l.eval(i).unwrap(), coord(&[c0, r + 6 * c1]), "at {i}");
    }
    // Table 1: the linear form (r0, r1) = (c1, c0 + 6·c2) is the 2x3 matrix of the strides.
    assert_eq!(l.stride_leaves(), vec![vec![0, 1], vec![1], vec![0, 6]]);
}

/// A15 (Fig 4a): `(4,8):(e0,e1)` is the identity (coordinate) tensor: `L(i)` is the natural
/// coordinate of i.
#[test]
fn a15_identity_coordinate_tensor() {
    let l = basis("(4,8):(1@0,1@1)");
    assert_eq!(show("eval((4,8):(1@0,1@1), (3,7))"), "(3,7)");
    for i in 0..32 {
        assert_eq!(l.eval(i).unwrap(), idx2crd(i, &IntTuple::from([4, 8])).unwrap());
    }
    assert_eq!(show("cosize((4,8):(1@0,1@1))"), "(4,8)");
    assert_eq!(show("size((4,8):(1@0,1@1))"), "32");
}

/// A27 (paper §3.1): `4:2` and `3:e0` live in different semimodules: no concatenation.
#[test]
fn a27_concatenation_across_codomains_is_inadmissible() {
    let (at, msg) = error_at("make_layout(4:2, 3:1@0)");
    assert_eq!(at, "make_layout(4:2, 3:1@0)");
    assert!(msg.contains("concatenation is not admissible: `4:2` maps to integer offsets and `3:1@0` to coordinates"));
    assert!(matches!(
        evaluate("make_layout(4:2, 3:1@0)"),
        Err(layout_core::notation::ExprError::Layout { error: LayoutError::CodomainMismatch { .. }, .. })
    ));
    let (at, msg) = error_at("(4,3):(2,1@0)");
    assert_eq!(at, "(2,1@0)");
    assert!(msg.contains("`2` is an integer stride and `1@0` is a coordinate stride"), "{msg}");
    assert!(show("make_layout(4:f1, 3:1@0)").contains("F2 bit vectors"));
    // Within one codomain concatenation is fine, and a zero stride joins any codomain.
    assert_eq!(show("make_layout(4:1@0, 8:1@1)"), "(4,8):(1@0,1@1)");
    assert_eq!(show("make_layout(4:1@0, 8:0)"), "(4,8):(1@0,0)");
    assert_eq!(show("make_layout((4,8), (1@0,1@1))"), "(4,8):(1@0,1@1)");
}

/// P6 (Table 4): the coordinate data layout composed with the Ampere TV layout gives, per
/// (thread, value), the coordinate of the element: `((4,8),2):((2e1,e0),e1)`.
#[test]
fn p6_coordinate_data_layout_composed_with_the_tv_layout() {
    let a = basis("(8,8):(1@0,1@1)");
    let tv = lay("((4,8),2):((16,1),8)");
    let text = "composition((8,8):(1@0,1@1), ((4,8),2):((16,1),8))";
    assert_eq!(show(text), "((4,8),2):((2@1,1@0),1@1)");
    let r = basis(text);
    for i in 0..tv.size() {
        assert_eq!(r.eval(i).unwrap(), a.eval(tv.eval(i).unwrap()).unwrap(), "at {i}");
        // Thread t = (t0, t1), value v: row t1, column 2·t0 + v.
        let (t, v) = (i % 32, i / 32);
        assert_eq!(r.eval(i).unwrap(), coord(&[t / 4, 2 * (t % 4) + v]));
    }
}

/// E9 (Table 5): the right inverse of the identity coordinate layout has a domain congruent
/// to the codomain: `(4,8):(1,4)`.
#[test]
fn e9_right_inverse_of_the_identity_coordinate_layout() {
    assert_eq!(show("right_inverse((4,8):(1@0,1@1))"), "(4,8):(1,4)");
    check_right_inverse("(4,8):(1@0,1@1)");
    // The blocked layout of A14 inverts on a compatible 4x4 domain (tensor-layouts' proxy).
    assert_eq!(show("right_inverse((4,(4,2)):(1@1,(1@0,6@1)))"), "(4,4):(4,1)");
    check_right_inverse("(4,(4,2)):(1@1,(1@0,6@1))");
}

/// `L(R(x)) = x` on R's domain (x a coordinate with one integer per component).
fn check_right_inverse(text: &str) {
    let l = basis(text);
    let r = l.right_inverse().unwrap();
    for i in 0..r.size() {
        let x = pad(&idx2crd(i, &top_sizes(&r)).unwrap(), l.codomain_rank());
        assert_eq!(l.eval(r.eval(i).unwrap()).unwrap(), x, "{text}: R = {r} at {i}");
    }
}

/// The shape of the top-level modes' sizes (the rank-r coordinate set of a layout).
fn top_sizes(l: &Layout) -> IntTuple {
    match l.shape() {
        IntTuple::Int(n) => IntTuple::Tuple(vec![IntTuple::Int(*n)]),
        IntTuple::Tuple(t) => IntTuple::Tuple(t.iter().map(|m| IntTuple::Int(m.product().unwrap())).collect()),
    }
}

/// F9 (Table 6): `left_inverse((4,(4,2)):(e1,(e0,6e1))) = (4,(6,2)):(4,(1,16))`, larger than
/// the image (coordinates with 4 ≤ r mod 6 are never hit) and compatible with it.
#[test]
fn f9_left_inverse_of_the_blocked_coordinate_layout() {
    let text = "(4,(4,2)):(1@1,(1@0,6@1))";
    assert_eq!(show(&format!("left_inverse({text})")), "(4,(6,2)):(4,(1,16))");
    let l = basis(text);
    let inv = l.left_inverse().unwrap();
    for k in 0..l.size() {
        assert_eq!(inv.eval_coord(&l.eval(k).unwrap()).unwrap(), k, "at {k}");
    }
    assert_eq!(show("left_inverse((4,8):(1@0,1@1))"), "(4,8):(1,4)");
}

/// G6 (Table 7): the complement of the identity coordinate layout has one size-1 mode per
/// component. The paper prints `(1,1):(4e0,4e1)`; the rest stride of component 1 is the extent
/// 8 it covers, `8e1`: with `4e1` the complement would meet L at `(0,4)` on the extended
/// domain (both strides give the same function on the domain, a single point).
#[test]
fn g6_complement_of_the_identity_coordinate_layout() {
    let text = "(4,8):(1@0,1@1)";
    assert_eq!(show(&format!("complement({text})")), "(1,1):(4@0,8@1)");
    let c = basis(&show(&format!("complement({text})")));
    let paper = basis("(1,1):(4@0,4@1)");
    assert_eq!(c.eval(0).unwrap(), paper.eval(0).unwrap());
    let l = basis(text);
    let image: Vec<IntTuple> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
    for (a, b) in [(1, 0), (0, 1), (1, 1), (2, 3)] {
        let v = c.eval_coord(&coord(&[a, b])).unwrap();
        assert!(!image.contains(&v), "complement({text}) at ({a},{b}) = {v} meets L");
    }
}

/// G7 (Table 7): `complement((4,(4,2)):(e1,(e0,12e1))) = (1,(3,1)):(4e0,(4e1,24e1))`, values
/// `(0,0),(0,4),(0,8)` that fill the gap of component 1; disjoint from L and ordered on an
/// extended sample (tensor-layouts' check).
#[test]
fn g7_complement_of_the_blocked_coordinate_layout() {
    let text = "(4,(4,2)):(1@1,(1@0,12@1))";
    assert_eq!(show(&format!("complement({text})")), "(1,(3,1)):(4@0,(4@1,24@1))");
    let c = basis("(1,(3,1)):(4@0,(4@1,24@1))");
    let vals: Vec<IntTuple> = (0..c.size()).map(|i| c.eval(i).unwrap()).collect();
    assert_eq!(vals, vec![coord(&[0, 0]), coord(&[0, 4]), coord(&[0, 8])]);
    let l = basis(text);
    let image: Vec<IntTuple> = (0..l.size()).map(|i| l.eval(i).unwrap()).collect();
    let sample = IntTuple::Tuple(vec![IntTuple::Int(2), IntTuple::from([3, 2])]);
    let mut order = Vec::new();
    for i in 0..12 {
        let n = idx2crd(i, &sample).unwrap().leaves();
        let v = c.eval_coord(&IntTuple::Tuple(vec![IntTuple::Int(n[0]), coord(&n[1..])])).unwrap();
        if i > 0 {
            assert!(!image.contains(&v), "{v} meets L");
        }
        let v = v.leaves();
        order.push(v[0] + 8 * v[1]);
    }
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(order, sorted, "ordered (colexicographic in (8,48))");
    // An explicit cotarget per component.
    assert_eq!(show(&format!("complement({text}, (8,32))")), "(2,(3,2)):(4@0,(4@1,24@1))");
    let (at, msg) = error_at(&format!("complement({text}, (8,32,2))"));
    assert_eq!(at, "(8,32,2)");
    assert!(msg.contains("one extent per codomain component"), "{msg}");
}

/// paper §3.3 coordinate reduction: `A ∘ (s:a@i) = A_i ∘ (s:a)`, A of any kind, checked at every
/// point against `A(B(c))`.
#[test]
fn coordinate_reduction_selects_the_mode_of_a() {
    for (a, b, want) in [
        ("(4,8):(1,4)", "(2,4):(2@0,2@1)", "(2,4):(2,8)"),
        ("(4,8):(1,4)", "(4,8):(1@0,1@1)", "(4,8):(1,4)"),
        ("(4,8):(8,1)", "(8,4):(1@1,1@0)", "(8,4):(1,8)"),
        ("(4,8):(1,4)", "((2,2),8):((1@0,2@0),1@1)", "((2,2),8):((1,2),4)"),
        ("(4,(2,4)):(1,(4,8))", "(2,8):(2@0,1@1)", "(2,8):(2,4)"),
        ("(8,8):(1@0,1@1)", "(8,8):(1@1,1@0)", "(8,8):(1@1,1@0)"),
        ("(8,8):(f1,f9)", "(8,8):(1@1,1@0)", "(8,8):(f9,f1)"),
        ("Sw<3,0,3> o (8,8):(1,8)", "(8,8):(1@1,1@0)", "Sw<3,0,3> o (8,8):(8,1)"),
        ("12:3", "4:1@0", "4:3"),
    ] {
        let text = format!("composition({a}, {b})");
        assert_eq!(show(&text), want, "{text}");
    }
    // Brute force for the integer cases: R(c) = A(B(c)).
    for (a, b) in [("(4,8):(1,4)", "(2,4):(2@0,2@1)"), ("(6,(2,5)):(1,(6,12))", "(3,(5,2)):(2@0,(1@1,5@1))")] {
        let (al, bl) = (lay(a), basis(b));
        let r = compose_coordinates(&al, &bl).unwrap();
        for i in 0..bl.size() {
            let c = pad(&bl.eval(i).unwrap(), al.rank());
            assert_eq!(r.eval(i).unwrap(), al.eval_coord(&c).unwrap(), "{a} ∘ {b} at {i}");
        }
    }
}

#[test]
fn coordinate_reduction_errors() {
    let (at, msg) = error_at("composition(8:1, 4:1@1)");
    assert_eq!(at, "4:1@1");
    assert!(msg.contains("produces coordinates with a component 1, but A = `8:1` has only 1 modes"), "{msg}");
    let (at, msg) = error_at("composition((4,8):(1,4), 2:1@0+1@1)");
    assert_eq!(at, "2:1@0+1@1");
    assert!(msg.contains("is a sum of basis elements"), "{msg}");
    // Each mode of A composes as an integer layout, with its admissibility conditions.
    let (at, msg) = error_at("composition((4,(2,3)):(1,(4,9)), (2,3):(1@0,1@1))");
    assert_eq!(at, "(2,3):(1@0,1@1)");
    assert!(msg.contains("shape divisibility (Eq. 21) fails"), "{msg}");
}

/// Sums `a@i+b@j` are strides: they evaluate, print and compose on the left; the operations
/// defined through single basis elements reject them.
#[test]
fn sums_of_basis_elements() {
    let text = "(2,3):(4@2+2@3,1@0)";
    assert_eq!(show(text), text);
    assert_eq!(show(&format!("eval({text}, 5)")), "(2,0,4,2)");
    assert_eq!(show("4@2+2@3"), "4@2+2@3");
    assert_eq!(show("2@1+-2@1"), "0");
    assert_eq!(show("1@0+1@0"), "2@0");
    assert_eq!(show("composition((4,3):(4@2+2@3,1@0), 2:2)"), "2:8@2+4@3");
    for op in ["complement", "right_inverse", "left_inverse"] {
        let msg = show(&format!("{op}({text})"));
        assert!(msg.contains("is a sum of basis elements"), "{op}: {msg}");
    }
}

/// `slice`: the sub-layout of the free modes and a coordinate offset.
#[test]
fn slicing_gives_a_coordinate_offset() {
    let text = "(4,8):(1@0,1@1)";
    assert_eq!(show(&format!("slice({text}, (_,3))")), "4:1@0");
    assert_eq!(show(&format!("slice_offset({text}, (_,3))")), "(0,3)");
    assert_eq!(show(&format!("slice({text}, (2,_))")), "8:1@1");
    assert_eq!(show(&format!("slice_offset({text}, (2,_))")), "(2,0)");
    // Coordinates are zero-extended: the sub-layout's `(c)` plus the offset `(0,3)`.
    assert_eq!(show("eval(4:1@0, 2)"), "(2)");
    let (sub, off) = basis("(4,(4,2)):(1@1,(1@0,6@1))")
        .slice(&layout_core::SliceCoord::Tuple(vec![
            layout_core::SliceCoord::Int(3),
            layout_core::SliceCoord::Tuple(vec![layout_core::SliceCoord::Free, layout_core::SliceCoord::Int(1)]),
        ]))
        .unwrap();
    assert_eq!((sub.to_string(), off), ("4:1@0".to_string(), coord(&[0, 9])));
}

/// Divides of a coordinate layout by an integer tiler: `A ⊘ T = A ∘ (I ⊘ T)` (I the compact
/// layout of A's shape), e.g. tiling an identity tensor, checked at every point.
#[test]
fn divides_tile_the_identity_tensor() {
    let a = "(8,8):(1@0,1@1)";
    assert_eq!(show(&format!("zipped_divide({a}, [4:1,2:1])")), "((4,2),(2,4)):((1@0,1@1),(4@0,2@1))");
    assert_eq!(show(&format!("logical_divide({a}, [4:1,2:1])")), "((4,2),(2,4)):((1@0,4@0),(1@1,2@1))");
    let al = basis(a);
    for (op, t) in [
        ("logical_divide", "[4:1,2:1]"),
        ("zipped_divide", "[2:4,8:1]"),
        ("tiled_divide", "(4,4)"),
        ("flat_divide", "[4:2]"),
    ] {
        let r = basis(&show(&format!("{op}({a}, {t})")));
        let d = match evaluate(&format!("{op}((8,8), {t})")).unwrap() {
            Value::Layout(AnyLayout::Int(d)) => d,
            v => panic!("{v}"),
        };
        assert_eq!(r.size(), d.size());
        for i in 0..d.size() {
            assert_eq!(r.eval(i).unwrap(), al.eval(d.eval(i).unwrap()).unwrap(), "{op} at {i}");
        }
    }
    // The coordinate composition with a tiler, mode by mode.
    assert_eq!(show(&format!("composition({a}, [2:2,(2,2):(1,4)])")), "(2,(2,2)):(2@0,(1@1,4@1))");
    // Products are not defined (the complement of a coordinate layout is not an integer one).
    assert!(show(&format!("logical_product({a}, (2,2))")).contains("not defined for a coordinate layout"));
}

#[test]
fn printing_round_trips_and_zero_strides() {
    for text in [
        "(4,8):(1@0,1@1)",
        "(4,(4,2)):(1@1,(1@0,6@1))",
        "(2,3):(4@2+2@3,1@0)",
        "(4,8):(1@0,0)",
        "(4,8):(-1@0,2@1)",
        "((2),3):((1@3),0)",
    ] {
        let v = evaluate(text).unwrap();
        assert_eq!(v.to_string(), text);
        assert_eq!(evaluate(&v.to_string()).unwrap(), v);
    }
    // `0@i` is zero, the zero of every semimodule: an integer layout.
    assert_eq!(show("4:0@1"), "4:0");
    assert!(matches!(evaluate("(4,8):(0@0,0)").unwrap(), Value::Layout(AnyLayout::Int(_))));
    assert_eq!(show("(4,8):(1@0,0@1)"), "(4,8):(1@0,0)");
    assert_eq!(show("stride((4,(4,2)):(1@1,(1@0,6@1)))"), "(1@1,(1@0,6@1))");
    assert_eq!(show("shape((4,(4,2)):(1@1,(1@0,6@1)))"), "(4,(4,2))");
    assert_eq!(show("get((4,(4,2)):(1@1,(1@0,6@1)), 1, 1)"), "2:6@1");
    assert_eq!(show("coalesce((2,4,8):(1@0,2@0,1@1))"), "(8,8):(1@0,1@1)");
    assert_eq!(show("flatten((4,(4,2)):(1@1,(1@0,6@1)))"), "(4,4,2):(1@1,1@0,6@1)");
    assert_eq!(show("scaled_basis(3, 1, 2, 0)"), "2@0+3@1");
    assert!(show("scaled_basis(3)").contains("takes at least 2 arguments"));
    assert!(show("1@64").contains("past the largest"));
    assert!(show("1@-1").contains("mode index"));
}

/// A random injective coordinate layout: leaves of extents 1..5, each along e0 or e1, with
/// compact strides per component in a random order.
fn injective_basis() -> impl Strategy<Value = CoordinateLayout> {
    prop::collection::vec((1i64..5, 0usize..2), 1..5)
        .prop_flat_map(|leaves| {
            let order: Vec<usize> = (0..leaves.len()).collect();
            (Just(leaves), Just(order).prop_shuffle())
        })
        .prop_map(|(leaves, order)| {
            let mut comps = vec![vec![0i64; leaves.len()]; 2];
            let mut acc = [1i64; 2];
            for &j in &order {
                let (s, c) = leaves[j];
                comps[c][j] = acc[c];
                acc[c] *= s;
            }
            let shape = IntTuple::Tuple(leaves.iter().map(|&(s, _)| IntTuple::Int(s)).collect());
            let comps =
                comps.into_iter().map(|c| IntTuple::Tuple(c.into_iter().map(IntTuple::Int).collect())).collect();
            CoordinateLayout::new(shape, comps).unwrap()
        })
}

proptest! {
    /// The right inverse of an injective coordinate layout inverts it on its domain, and the
    /// left inverse recovers every index.
    #[test]
    fn inverses_of_coordinate_layouts(l in injective_basis()) {
        let r = l.right_inverse().unwrap();
        for i in 0..r.size() {
            let x = pad(&idx2crd(i, &top_sizes(&r)).unwrap(), l.codomain_rank());
            prop_assert_eq!(pad(&l.eval(r.eval(i).unwrap()).unwrap(), l.codomain_rank()), x);
        }
        let inv = l.left_inverse().unwrap();
        for k in 0..l.size() {
            prop_assert_eq!(inv.eval_coord(&l.eval(k).unwrap()).unwrap(), k);
        }
    }

    /// The printed form parses back to the same layout.
    #[test]
    fn coordinate_layouts_print_canonically(l in injective_basis()) {
        let v = evaluate(&l.to_string()).unwrap();
        prop_assert_eq!(v.to_string(), Value::layout(l).to_string());
    }
}
