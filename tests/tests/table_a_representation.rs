//! docs/algebra.md §4.A: representation, coordinates, evaluation (paper §2, §3.1, §3.3.1).
//!
//! Tested in `layout-core/tests/{basis,f2,swizzle}.rs` (they need coordinate or F2 strides):
//! A14 `(4,(4,2)):(e1,(e0,6e1))`, A15 `(4,8):(e0,e1)`, A16 `(4,(4,3)):(f1,(f5,f16))`,
//! A17 `(4,4):(f1,f5)`, A27 `4:2 ++ 3:e0` (concatenation across semimodules).

mod common;

use common::*;
use layout_core::{IntTuple, Layout, SliceCoord, crd2idx, evaluate, idx2crd, slice};

#[test]
fn a1_idx2crd_shape_2x3_is_colexicographic_and_crd2idx_inverts() {
    let shape = tup("(2,3)");
    let want = ["(0,0)", "(1,0)", "(0,1)", "(1,1)", "(0,2)", "(1,2)"];
    for (i, w) in want.iter().enumerate() {
        let c = idx2crd(i as i64, &shape).unwrap();
        assert_eq!(c.to_string(), *w);
        assert_eq!(crd2idx(&c, &shape).unwrap(), i as i64);
        assert_eq!(crd_idx(&c, &shape), i as i64);
        assert_eq!(show(&format!("idx2crd({i},(2,3))")), *w);
        assert_eq!(show(&format!("crd2idx({w},(2,3))")), i.to_string());
    }
}

#[test]
fn a2_idx2crd_nested_shape_splits_inner_mode_first() {
    let shape = tup("((2,3),2)");
    for i in 0..12 {
        let want = format!("(({},{}),{})", i % 2, (i / 2) % 3, i / 6);
        let c = idx2crd(i, &shape).unwrap();
        assert_eq!(c.to_string(), want, "idx2crd({i})");
        assert_eq!(crd2idx(&c, &shape).unwrap(), i);
    }
    assert_eq!(idx2crd(11, &shape).unwrap().to_string(), "((1,2),1)");
}

#[test]
fn a3_natural_coordinates_of_shape_with_size_one_mode() {
    let shape = tup("((2,1),3)");
    let got: Vec<String> = (0..6).map(|i| idx2crd(i, &shape).unwrap().to_string()).collect();
    assert_eq!(got, ["((0,0),0)", "((1,0),0)", "((0,0),1)", "((1,0),1)", "((0,0),2)", "((1,0),2)"]);
}

#[test]
fn a4_evaluation_at_22_goes_through_2d_and_natural_coordinates_to_26() {
    let l = lay("((2,2),(4,2)):((1,8),(2,16))");
    assert_eq!(show("eval(((2,2),(4,2)):((1,8),(2,16)), 22)"), "26");
    assert_eq!(l.eval(22).unwrap(), 26);
    assert_eq!(at(&l, 22), 26);
    // 22 as a rank-2 coordinate of (4,8) is (2,5); as a natural coordinate ((0,1),(1,1)).
    assert_eq!(idx2crd(22, &tup("(4,8)")).unwrap().to_string(), "(2,5)");
    assert_eq!(idx2crd(22, l.shape()).unwrap().to_string(), "((0,1),(1,1))");
    assert_eq!(l.eval_coord(&tup("(2,5)")).unwrap(), 26);
    assert_eq!(l.eval_coord(&tup("((0,1),(1,1))")).unwrap(), 26);
    assert_eq!(at_crd(&l, "((0,1),(1,1))"), 26);
}

#[test]
fn a5_three_mode_layout_values_at_natural_coordinates() {
    let l = lay("(2,2,2):(2,1,4)");
    let coords = ["(0,0,0)", "(1,0,0)", "(0,1,0)", "(1,1,0)", "(0,0,1)", "(1,1,1)"];
    let want = [0, 2, 1, 3, 4, 7];
    for (c, w) in coords.iter().zip(want) {
        assert_eq!(l.eval_coord(&tup(c)).unwrap(), w, "L{c}");
        assert_eq!(at_crd(&l, c), w, "L{c}");
    }
}

#[test]
fn a6_coalesce_of_4x2_fold_has_a_flat_form() {
    assert_eq!(show("coalesce(((2,2),2):((2,4),1))"), "(4,2):(2,1)");
    let l = lay("((2,2),2):((2,4),1)");
    assert_same_function(&eval_layout("coalesce(((2,2),2):((2,4),1))"), &l);
    assert_eq!(min_flat_rank(&values(&l)), 2);
}

#[test]
fn a7_nested_layout_equals_rank3_layout_and_has_no_flat_rank2_form() {
    let l = lay("(2,(2,2)):(2,(1,4))");
    assert_same_function(&l, &lay("(2,2,2):(2,1,4)"));
    assert_eq!(values(&l), [0, 2, 1, 3, 4, 6, 5, 7]);
    // Brute force over every flat shape of size 8: only rank 3 reproduces the values.
    let forms = flat_forms(&values(&l));
    assert!(!forms.is_empty());
    assert!(forms.iter().all(|f| f.rank() == 3), "unexpected flat forms {forms:?}");
    assert_eq!(show("coalesce((2,(2,2)):(2,(1,4)))"), "(2,2,2):(2,1,4)");
}

#[test]
fn a8_column_major_and_row_major_4x8_values() {
    for (text, want) in [("(4,8):(1,4)", [31, 1, 4]), ("(4,8):(8,1)", [31, 8, 1])] {
        let l = lay(text);
        for (c, w) in ["(3,7)", "(1,0)", "(0,1)"].iter().zip(want) {
            assert_eq!(l.eval_coord(&tup(c)).unwrap(), w, "{text} at {c}");
            assert_eq!(at_crd(&l, c), w);
            assert_eq!(show(&format!("eval({text}, {c})")), w.to_string());
        }
    }
}

#[test]
fn a9_padded_4x8_value_cosize_and_not_bijective() {
    let l = lay("(4,8):(1,5)");
    assert_eq!(l.eval_coord(&tup("(3,7)")).unwrap(), 38);
    assert_eq!(show("cosize((4,8):(1,5))"), "39");
    assert_eq!(l.cosize().unwrap(), 39);
    assert_eq!(cosize(&l), 39);
    assert!(is_injective(&l));
    assert!(!is_bijection_onto(&l, l.size()), "the padding leaves holes");
    assert!(!image(&l).contains(&4));
}

#[test]
fn a10_hierarchical_column_values() {
    let l = lay("(4,(4,2)):(4,(1,16))");
    assert_eq!(l.eval_coord(&tup("(0,(1,0))")).unwrap(), 1);
    assert_eq!(l.eval_coord(&tup("(0,(0,1))")).unwrap(), 16);
    assert_eq!(at_crd(&l, "(0,(1,0))"), 1);
    assert_eq!(at_crd(&l, "(0,(0,1))"), 16);
}

#[test]
fn a11_broadcast_layout_is_not_injective() {
    let l = lay("((2,2),(2,4)):((0,2),(0,4))");
    assert!(!is_injective(&l));
    assert_eq!(l.eval_coord(&tup("(1,0)")).unwrap(), 0);
    assert_eq!(at_crd(&l, "(1,0)"), 0);
    assert_eq!(image(&l).len(), 8, "32 coordinates share 8 offsets");
}

#[test]
fn a12_congruence_weak_congruence_and_compatibility_examples() {
    let yes = |f: &str, p: &str, s: &str| {
        assert_eq!(show(&format!("{f}({p},{s})")), "true", "{f}({p},{s})");
    };
    let no = |f: &str, p: &str, s: &str| {
        assert_eq!(show(&format!("{f}({p},{s})")), "false", "{f}({p},{s})");
    };
    // Congruence: same profile.
    yes("congruent", "(4,8)", "(5,7)");
    yes("congruent", "(4,(2,4))", "(7,(3,2))");
    no("congruent", "(4,8)", "(4,(2,4))");
    // Weak congruence: 30 ≲ (a,b) ≲ (v,(0,α)); 30 ≲ (a,b,c) ≲ ((0,0),0,0); (a,b) vs (a,b,c).
    yes("weakly_congruent", "30", "(1,2)");
    yes("weakly_congruent", "(1,2)", "(3,(0,5))");
    yes("weakly_congruent", "30", "(3,(0,5))");
    no("weakly_congruent", "(3,(0,5))", "(1,2)");
    yes("weakly_congruent", "30", "(1,2,3)");
    yes("weakly_congruent", "(1,2,3)", "((0,0),0,0)");
    no("weakly_congruent", "(1,2)", "(1,2,3)");
    no("weakly_congruent", "(1,2,3)", "(1,2)");
    // Compatibility: 30 ⪯ (2,15) ⪯ (2,(3,5)); 30 ⪯ (6,5) ⪯ ((3,2),5); the two finest are unrelated.
    for (p, s) in [("30", "(2,15)"), ("(2,15)", "(2,(3,5))"), ("30", "(2,(3,5))")] {
        yes("compatible", p, s);
    }
    for (p, s) in [("30", "(6,5)"), ("(6,5)", "((3,2),5)"), ("30", "((3,2),5)")] {
        yes("compatible", p, s);
    }
    no("compatible", "(2,(3,5))", "((3,2),5)");
    no("compatible", "((3,2),5)", "(2,(3,5))");
    no("compatible", "(2,15)", "30");
    // Z(P) ⊆ Z(S) for P ⪯ S: coordinates of the coarser shapes read the same layout.
    let l = lay("(4,(4,2)):(4,(1,16))");
    for coarse in ["32", "(4,8)", "(4,(4,2))"] {
        let p = tup(coarse);
        assert!(p.compatible(l.shape()));
        for i in 0..32 {
            let c = idx2crd(i, &p).unwrap();
            assert_eq!(l.eval_coord(&c).unwrap(), at(&l, i), "coordinate {c} of {coarse}");
        }
    }
}

#[test]
fn a13_rank_and_depth_of_int_tuples() {
    for (text, rank, depth) in [("31", 1, 0), ("(16,32)", 2, 1), ("(2,(4,1),-1)", 3, 2), ("((4,6),(3,(2,2),8))", 2, 3)]
    {
        let t = tup(text);
        assert_eq!((t.rank(), t.depth()), (rank, depth), "{text}");
        assert_eq!(t.to_string(), text, "canonical print of {text}");
    }
    assert_eq!(show("rank((16,32))"), "2");
    assert_eq!(show("depth(((4,6),(3,(2,2),8)))"), "3");
    assert_eq!(show("rank(31)"), "1");
    assert_eq!(show("depth(31)"), "0");
}

/// Fig 5: `A = ((3,2),((2,3),2)):((4,1),((2,15),100))` sliced; checks the printed sub-layout
/// and offset, and by brute force that `offset + sub(i)` enumerates `A` at the coordinates
/// matching the slice, in colexicographic order of the free leaves.
fn check_slice(crd: &str, want_offset: i64, want_sub: &str) {
    let text = "((3,2),((2,3),2)):((4,1),((2,15),100))";
    let a = lay(text);
    assert_eq!(show(&format!("slice({text}, {crd})")), want_sub);
    assert_eq!(show(&format!("slice_offset({text}, {crd})")), want_offset.to_string());
    let c = match evaluate(crd).unwrap() {
        layout_core::Value::Coord(c) => c,
        v => panic!("`{crd}` is not a slice coordinate: {v}"),
    };
    let (sub, offset) = slice(&a, &c).unwrap();
    assert_eq!((sub.to_string(), offset), (want_sub.to_string(), want_offset));
    let matching: Vec<i64> = (0..a.size())
        .filter(|&i| matches_slice(&c, &idx2crd(i, a.shape()).unwrap(), a.shape()))
        .map(|i| at(&a, i))
        .collect();
    let got: Vec<i64> = values(&sub).iter().map(|v| v + offset).collect();
    assert_eq!(got, matching, "A{crd} does not enumerate the sliced coordinates");
}

/// Whether natural coordinate `n` of `shape` matches the slice coordinate `c` (`_` matches
/// anything; an integer stands for its natural coordinate in that mode).
fn matches_slice(c: &SliceCoord, n: &IntTuple, shape: &IntTuple) -> bool {
    match (c, n, shape) {
        (SliceCoord::Free, _, _) => true,
        (SliceCoord::Int(v), n, s) => idx2crd(*v, s).unwrap() == *n,
        (SliceCoord::Tuple(cs), IntTuple::Tuple(ns), IntTuple::Tuple(ss)) => {
            cs.iter().zip(ns).zip(ss).all(|((c, n), s)| matches_slice(c, n, s))
        }
        _ => panic!("slice coordinate {c} does not fit {shape}"),
    }
}

#[test]
fn a18_slice_row_2_keeps_the_column_modes() {
    check_slice("(2,_)", 8, "((2,3),2):((2,15),100)");
}

#[test]
fn a19_slice_column_5_keeps_the_row_modes() {
    check_slice("(_,5)", 32, "(3,2):(4,1)");
}

#[test]
fn a20_slice_row_2_inner_column_0_keeps_two_free_leaves() {
    check_slice("(2,((0,_),_))", 8, "(3,2):(15,100)");
}

#[test]
fn a21_slice_fixing_inner_leaves_keeps_grouping() {
    check_slice("((_,1),(_,0))", 1, "(3,(2,3)):(4,(2,15))");
}

#[test]
fn a22_slice_with_fixed_outer_column_offset_100() {
    check_slice("((_,0),((0,_),1))", 100, "(3,3):(4,15)");
}

#[test]
fn a23_slice_row_leaf_and_inner_column_leaf_fixed() {
    check_slice("((1,_),((_,0),_))", 4, "(2,(2,2)):(1,(2,100))");
}

/// paper §2.4.3: `f = (2,…,2):(f(1),…,f(N-1)) ∘ (3,1):(1,4) ∘ … ∘ (N-1,1):(1,2(N-2))` on `Z_N`.
/// The chain is a composition of functions read on the extended domain (index ≥ size
/// overflows into the trailing size-1 mode); the intermediate compositions are not layouts
/// themselves (e.g. `(3,1):(1,4)` on `0..4` gives 0,1,2,4), so the check evaluates the chain.
#[test]
fn a24_completeness_chain_reproduces_any_function_with_f0_zero() {
    let funcs: [fn(i64) -> i64; 4] =
        [|i| (7 * i * i + 3 * i) % 11, |i| i * i, |i| if i % 2 == 0 { -i } else { 5 * i }, |i| 13 - 13 * (i % 3)];
    for n in 3..=8i64 {
        for (fi, f) in funcs.iter().enumerate() {
            let f = |i: i64| if i == 0 { 0 } else { f(i) };
            let left = Layout::from_flat(&(1..n).map(|i| (2, f(i))).collect::<Vec<_>>()).unwrap();
            let chain: Vec<Layout> = (3..n).map(|k| lay(&format!("({k},1):(1,{})", 2 * (k - 1)))).collect();
            for i in 0..n {
                // Right to left: the last factor is applied first.
                let mut x = i;
                for c in chain.iter().rev() {
                    let next = c.eval(x).unwrap();
                    assert_eq!(next, at(c, x), "library and brute-force extended evaluation differ");
                    x = next;
                }
                assert_eq!(x, if i == 0 { 0 } else { 1 << (i - 1) }, "chain must send {i} to 2^({i}-1)");
                assert_eq!(left.eval(x).unwrap(), f(i), "N={n}, function {fi}, i={i}");
                assert_eq!(at(&left, x), f(i));
            }
        }
    }
}

#[test]
fn a25_three_forms_of_the_identity_on_24() {
    // Each identity with an A of the same domain (I_S is a right identity for A with domain
    // Z_S; with another shape the composition need not exist: `(4,6):(3,17) ∘ I_(3,(4,2))`
    // has no layout of a shape compatible with `(3,(4,2))`).
    for (text, a) in
        [("24:1", "(4,6):(3,17)"), ("(4,6):(1,4)", "(4,6):(3,17)"), ("(3,(4,2)):(1,(3,12))", "(3,(4,2)):(5,(1,40))")]
    {
        let id = lay(text);
        assert_eq!(id.size(), 24);
        for i in 0..24 {
            assert_eq!(at(&id, i), i, "{text}");
            assert_eq!(id.eval(i).unwrap(), i, "{text}");
        }
        // I_24 is a right identity for any A with domain Z_24 and a left identity for any B
        // with codomain Z_24.
        let a = lay(a);
        assert_composition(&layout_core::composition(&a, &id).unwrap(), &a, &id);
        let b = lay("(2,3):(12,1)");
        assert_same_function(&layout_core::composition(&id, &b).unwrap(), &b);
    }
}

#[test]
fn a26_concatenation_adds_the_sublayouts() {
    assert_eq!(show("make_layout(3:2, 4:6)"), "(3,4):(2,6)");
    let l = lay("(3,4):(2,6)");
    let (l0, l1) = (lay("3:2"), lay("4:6"));
    assert_eq!(Layout::concat([l0.clone(), l1.clone()]).unwrap(), l);
    for c0 in 0..3 {
        for c1 in 0..4 {
            assert_eq!(at(&l, index_of(&[3, 4], &[c0, c1])), at(&l0, c0) + at(&l1, c1));
        }
    }
}
