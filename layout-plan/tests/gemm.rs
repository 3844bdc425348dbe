//! The GEMM plan: the joint leaves of every dimension reproduce each operand's offsets by brute
//! force, and every inadmissible triple is rejected with the numbers.

use layout_core::{Layout, LayoutError, parse_layout};
use layout_plan::{GemmLeaf, GemmPlan, gemm_plan};

fn plan(a: &str, b: &str, c: &str) -> Result<GemmPlan, LayoutError> {
    gemm_plan(&parse_layout(a).unwrap(), &parse_layout(b).unwrap(), &parse_layout(c).unwrap())
}

/// Which operand's stride of a leaf.
type Pick = fn(&GemmLeaf) -> i64;

/// The offsets a dimension's leaves give operand `pick` at every index of the dimension, in
/// index order (colexicographic over the leaves).
fn offsets(leaves: &[GemmLeaf], pick: Pick) -> Vec<i64> {
    let size: i64 = leaves.iter().map(|l| l.extent).product();
    (0..size)
        .map(|mut i| {
            let mut o = 0;
            for l in leaves {
                o += (i % l.extent) * pick(l);
                i /= l.extent;
            }
            o
        })
        .collect()
}

fn mode_offsets(l: &Layout, mode: usize) -> Vec<i64> {
    l.mode(mode).unwrap().table().unwrap()
}

/// Every dimension's leaves give each operand's mode offsets exactly.
fn check(p: &GemmPlan) {
    assert_eq!(offsets(&p.m_leaves, |l| l.a), mode_offsets(&p.a, 0), "{p}");
    assert_eq!(offsets(&p.m_leaves, |l| l.c), mode_offsets(&p.c, 0), "{p}");
    assert_eq!(offsets(&p.n_leaves, |l| l.b), mode_offsets(&p.b, 0), "{p}");
    assert_eq!(offsets(&p.n_leaves, |l| l.c), mode_offsets(&p.c, 1), "{p}");
    assert_eq!(offsets(&p.k_leaves, |l| l.a), mode_offsets(&p.a, 1), "{p}");
    assert_eq!(offsets(&p.k_leaves, |l| l.b), mode_offsets(&p.b, 1), "{p}");
    if p.c.rank() == 3 {
        let picks: [Pick; 3] = [|l| l.a, |l| l.b, |l| l.c];
        for (pick, l) in picks.into_iter().zip([&p.a, &p.b, &p.c]) {
            assert_eq!(offsets(&p.batch_leaves, pick), mode_offsets(l, 2), "{p}");
        }
    }
    assert!(p.m_leaves.iter().all(|l| l.b == 0) && p.n_leaves.iter().all(|l| l.a == 0));
    assert!(p.k_leaves.iter().all(|l| l.c == 0));
}

#[test]
fn transposition_variants_are_strides() {
    for (a, b) in [
        ("(64,32):(1,64)", "(48,32):(32,1)"), // NN
        ("(64,32):(32,1)", "(48,32):(32,1)"), // TN
        ("(64,32):(1,64)", "(48,32):(1,48)"), // NT
        ("(64,32):(32,1)", "(48,32):(1,48)"), // TT
    ] {
        let p = plan(a, b, "(64,48):(1,64)").unwrap();
        assert_eq!((p.m, p.n, p.k), (64, 48, 32));
        assert_eq!((p.m_leaves.len(), p.n_leaves.len(), p.k_leaves.len()), (1, 1, 1));
        check(&p);
    }
}

#[test]
fn batched_and_strided() {
    let p = plan("(8,4,3):(1,8,32)", "(5,4,3):(4,1,20)", "(8,5,3):(1,10,50)").unwrap();
    assert_eq!(p.batch, 3);
    check(&p);
}

#[test]
fn tensor_contraction_folds_modes() {
    // C(a,b,c) = Σ_k A(a,k,c)·B(k,b): M = (a,c), N = b, K = k.
    let (sa, sc, sb, sk) = (4, 3, 5, 6);
    let a = format!("(({sa},{sc}),{sk}):((1,{}),{sa})", sa * sk);
    let b = format!("({sb},{sk}):({sk},1)");
    let c = format!("(({sa},{sc}),{sb}):((1,{}),{sa})", sa * sb);
    let p = plan(&a, &b, &c).unwrap();
    assert_eq!(p.m_leaves.len(), 2, "{p}");
    check(&p);
}

#[test]
fn convolution_through_im2col() {
    // A 1-channel 6x6 input, a 3x3 filter, 4x4 output: A(m = (q,p), k = (s,r)) reads
    // input[(p + r)·6 + q + s]: no copy, just a layout.
    let a = "((4,4),(3,3)):((1,6),(1,6))";
    let p = plan(a, "(2,(3,3)):(9,(1,3))", "((4,4),2):((1,4),16)").unwrap();
    check(&p);
    let (kernel, loops) = GemmPlan::split(&p.k_leaves);
    assert_eq!(kernel.extent, 3);
    assert_eq!(loops.len(), 1);
}

#[test]
fn rejections_name_the_numbers() {
    let e = plan("(8,4):(1,8)", "(5,3):(3,1)", "(8,5):(1,8)").unwrap_err();
    assert_eq!(e, LayoutError::GemmExtent { dim: "K", lhs: "A", lhs_size: 4, rhs: "B", rhs_size: 3 });
    let e = plan("(8,4):(1,8)", "(5,4):(4,1)", "(7,5):(1,8)").unwrap_err();
    assert!(matches!(e, LayoutError::GemmExtent { dim: "M", lhs_size: 8, rhs_size: 7, .. }), "{e}");
    let e = plan("(8,4):(1,8)", "(5,4):(4,1)", "(8,5):(1,0)").unwrap_err();
    assert!(matches!(e, LayoutError::GemmNotInjective { i: 0, j: 8, .. }), "{e}");
    let e = plan("8:1", "(5,4):(4,1)", "(8,5):(1,8)").unwrap_err();
    assert!(matches!(e, LayoutError::GemmRank { .. }), "{e}");
    let e = plan("((2,3),4):((1,10),30)", "(5,4):(4,1)", "((3,2),5):((1,20),40)").unwrap_err();
    assert!(matches!(e, LayoutError::GemmRefinement { dim: "M", .. }), "{e}");
}

#[test]
fn random_triples_reproduce_the_operands() {
    // A small deterministic generator over shapes that refine each other.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for _ in 0..500 {
        let split = |n: i64, r: u64| if r == 0 || n % 2 != 0 { format!("{n}") } else { format!("(2,{})", n / 2) };
        let (m, n, k) = (1 + next(12) as i64, 1 + next(12) as i64, 1 + next(12) as i64);
        let (am, ak, cm) = (split(m, next(2)), split(k, next(2)), split(m, next(2)));
        let flat = |s: &str| s.contains('(');
        let stride =
            |s: &str, base: i64, step: i64| if flat(s) { format!("({base},{})", base * 2) } else { format!("{step}") };
        let a = format!("({am},{ak}):({},{})", stride(&am, 1, 1), stride(&ak, m, m));
        let b = format!("({n},{k}):({k},1)");
        let c = format!("({cm},{n}):({},{m})", stride(&cm, 1, 1));
        let p = plan(&a, &b, &c).unwrap_or_else(|e| panic!("{a} {b} {c}: {e}"));
        check(&p);
    }
}
