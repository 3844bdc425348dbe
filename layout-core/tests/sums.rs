//! `+` and `-` in the notation: static arithmetic, sums in symbolic extents, strides and
//! facts, what the solver proves with them, and the checks with numbers in.

use layout_core::dynamic::{Cond, CondKind, DynOutput, SymInt, evaluate_dynamic, evaluate_dynamic_value, parse_facts};
use layout_core::notation::{ExprError, parse};
use layout_core::{Layout, evaluate};

fn eval(text: &str) -> String {
    match evaluate(text) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

/// The layout, and its conditions as printed.
fn dynamic(text: &str) -> (String, Vec<String>) {
    let l = evaluate_dynamic(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    (l.to_string(), l.conds.iter().map(|c| c.cond.to_string()).collect())
}

fn dyn_err(text: &str) -> String {
    evaluate_dynamic(text).map(|l| l.to_string()).expect_err(text).to_string()
}

fn values<'a>(pairs: &'a [(&'a str, i64)]) -> impl Fn(&str) -> Option<i64> + 'a {
    move |s| pairs.iter().find(|(n, _)| *n == s).map(|&(_, v)| v)
}

#[test]
fn static_arithmetic_and_negative_literals() {
    assert_eq!(eval("(6-2,3):(1,2+2)"), "(4,3):(1,4)");
    // `*` and `/` bind tighter than `+` and `-`; all are left-associative.
    assert_eq!(eval("(10-2*3,2):(1,20/2-3-2)"), "(4,2):(1,5)");
    assert_eq!(eval("(2*(1+2),1):(1,1)"), "(6,1):(1,1)");
    // A `-` before digits is a negative literal unless it follows an operand.
    assert_eq!(eval("4:-1"), "4:-1");
    assert_eq!(eval("(4,8):(-1,-4)"), "(4,8):(-1,-4)");
    assert_eq!(eval("(8,4):(4 - -1,1)"), "(8,4):(5,1)");
    assert_eq!(eval("4:1-2"), "4:-1");
    // `+` in a coordinate stride and `-` in a swizzle keep their meaning.
    assert_eq!(eval("(4,4):(1@0+1@1,1@1)"), "(4,4):(1@0+1@1,1@1)");
    assert_eq!(eval("eval((4,4):(1@0+1@1,1@1), 6)"), "(2,3)");
    assert_eq!(eval("Sw<3,4,3> o (8,64):(64,1)"), "Sw<3,4,3> o (8,64):(64,1)");
    assert!(eval("Sw<3,-4,3>").starts_with("error"), "{}", eval("Sw<3,-4,3>"));
    // Overflow is an error that names the operation.
    assert!(eval("9223372036854775807+1:1").contains("integer overflow: 9223372036854775807 + 1"));
    assert!(eval("-9223372036854775807-2:1").contains("integer overflow: -9223372036854775807 - 2"));
    assert!(eval("2-3:1").contains("extent -1"), "{}", eval("2-3:1"));
    // A dangling operator is a parse error at the token.
    for text in ["(4-):1", "(4+,2):(1,4)", "4:1+"] {
        assert!(matches!(parse(text), Err(ExprError::Parse { .. })), "{text}");
    }
}

#[test]
fn sums_print_and_parse_back() {
    let cases = [
        ("((W-2,H-2),(3,3)):((1,W),(1,W))", "((W-2,H-2),(3,3)):((1,W),(1,W))"),
        ("(Q+2,P):(1,W)", "(Q+2,P):(1,W)"),
        ("(2+Q,P):(1,W)", "(Q+2,P):(1,W)"),
        ("(W - 2 + 2, H):(1, W)", "(W,H):(1,W)"),
        ("(2*W-4,H):(1,W)", "(2*(W-2),H):(1,W)"),
        ("(W*H-H,3):(1,W)", "(H*(W-1),3):(1,W)"),
        ("((W-2)*(H-2),3):(1,W)", "((H-2)*(W-2),3):(1,W)"),
        ("(W*H-2*W-2*H+4,3):(1,W)", "(H*W-2*H-2*W+4,3):(1,W)"),
        ("(M,N):(-(W-2),1)", "(M,N):(-(W-2),1)"),
        ("(M+M,N):(1,LD-LD+1)", "(2*M,N):(1,1)"),
        ("(W/8-1,N):(1,W)", "((W-8)/8,N):(1,W)"),
    ];
    for (text, printed) in cases {
        let (l, _) = dynamic(text);
        assert_eq!(l, printed, "{text}");
        assert_eq!(dynamic(&l).0, l, "{text}: the printed form parses back");
    }
    // Products of sums stay factored; the size of the im2col view.
    let size = evaluate_dynamic_value("size(((W-2,H-2),(3,3)):((1,W),(1,W)))").unwrap();
    let DynOutput::Int(size) = size else { panic!("size is an integer") };
    assert_eq!(size.to_string(), "9*(H-2)*(W-2)");
    assert_eq!(size.substitute(&values(&[("W", 6), ("H", 5)])).unwrap(), 9 * 4 * 3);
    // Arithmetic on symbolic integers.
    let w = SymInt::sym("W");
    let s = w.sub(&SymInt::int(2)).unwrap();
    assert_eq!(s.to_string(), "W-2");
    assert_eq!(s.add(&SymInt::int(2)).unwrap(), w);
    assert_eq!(s.div(&SymInt::int(8)).to_string(), "(W-2)/8");
    assert_eq!(s.mul(&s).to_string(), "(W-2)*(W-2)");
    assert_eq!(s.scale(-1).to_string(), "-(W-2)");
    assert_eq!(SymInt::int(2).sub(&w).unwrap().to_string(), "-W+2");
    // No expansion of a quotient by a sum: an error, not a wrong value.
    assert!(SymInt::sym("M").div(&s).add(&SymInt::int(1)).is_none());
    assert!(dyn_err("(M/(W-2)+1,3):(1,M)").contains("has no form over symbols"));
}

#[test]
fn sums_must_be_positive() {
    let (_, conds) = dynamic("((W-2,H-2),(3,3)):((1,W),(1,W))");
    assert_eq!(conds, ["W-2 > 0", "H-2 > 0"]);
    // Facts that prove the positivity replace the checks.
    let (_, conds) = dynamic("((W-2,H-2),(3,3)):((1,W),(1,W)) where W >= 3, H > 2");
    assert_eq!(conds, ["W >= 3", "H > 2"]);
    // Not enough: W >= 2 allows W-2 = 0.
    let (_, conds) = dynamic("(W-2,3):(1,W) where W >= 2");
    assert_eq!(conds, ["W >= 2", "W-2 > 0"]);
    // Always positive: no check.
    assert_eq!(dynamic("(Q+2,P):(1,W)").1, Vec::<String>::new());
    // Never positive (given the facts): an error at expansion time.
    let e = dyn_err("(W-5,3):(1,W) where W <= 4");
    assert!(
        e.contains("`W-5 > 0` is false for every value") && e.contains("`4 >= W`") && e.contains("extent W-5"),
        "{e}"
    );
    assert!(dyn_err("(1-W,3):(1,W)").contains("`-W+1 > 0` is false for every value"));
    // A sum in a stride is positive too; a negative one is written with `-(…)`.
    assert_eq!(dynamic("(M,N):(1,LD-M)").1, ["LD-M > 0"]);
    assert_eq!(dynamic("(M,N):(-(LD-M),1)").1, ["LD-M > 0"]);
    // With numbers in: the extent named, with the values.
    let l = evaluate_dynamic("((W-2,H-2),(3,3)):((1,W),(1,W))").unwrap();
    let e = l.substitute(&values(&[("W", 2), ("H", 5)])).unwrap_err().to_string();
    assert!(e.contains("needs `W-2 > 0` (the extent W-2 must be positive), but W = 2"), "{e}");
    let e = l.substitute(&values(&[("W", 1), ("H", 5)])).unwrap_err().to_string();
    assert!(e.contains("W = 1"), "{e}");
    let l = l.substitute(&values(&[("W", 6), ("H", 5)])).unwrap();
    assert_eq!(l, Layout::new(evaluate_shape("((4,3),(3,3))"), evaluate_shape("((1,6),(1,6))")).unwrap());
    // Offsets past i64 are an overflow, not a wrap.
    let l = evaluate_dynamic("((W-2,H-2),(3,3)):((1,W),(1,W))").unwrap();
    let e = l.substitute(&values(&[("W", 1 << 40), ("H", 1 << 40)])).unwrap_err().to_string();
    assert!(e.contains("does not fit"), "{e}");
}

fn evaluate_shape(text: &str) -> layout_core::IntTuple {
    layout_core::parse_int_tuple(text).unwrap()
}

#[test]
fn facts_with_sums_parse_and_print() {
    let facts = parse_facts("Q+2 <= W, W - 1 > H, (W-2) % 8 == 0, 2*Q+1 >= P", 0).unwrap();
    let shown: Vec<String> = facts.iter().map(Cond::to_string).collect();
    assert_eq!(shown, ["W >= Q+2", "W-1 > H", "(W-2) % 8 == 0", "2*Q+1 >= P"]);
    // Each parses back.
    for f in &shown {
        assert_eq!(parse_facts(f, 0).unwrap()[0].to_string(), *f);
    }
    let e = parse_facts("Q+ <= W", 0).unwrap_err().to_string();
    assert!(e.contains("is not a fact") && e.contains("Q+2 <= W"), "{e}");
    // Contradictory facts with sums are an error.
    let e = dyn_err("(Q,P):(1,W) where Q+2 <= W, W < Q");
    assert!(e.contains("contradict"), "{e}");
}

#[test]
fn the_solver_uses_facts_with_sums() {
    // The left inverse needs the rows not to overlap, `W >= Q+2`: the fact proves it.
    let (l, conds) = dynamic("left_inverse((Q+2,P):(1,W)) where Q+2 <= W, P > 1");
    assert_eq!((l.as_str(), conds), ("(W,P):(1,Q+2)", vec!["W >= Q+2".to_string(), "P > 1".to_string()]));
    // So does the equivalent `W > Q+1` (integers), but not the weaker `W > Q`.
    assert_eq!(dynamic("left_inverse((Q+2,P):(1,W)) where W > Q+1, P > 1").1.len(), 2);
    let (_, conds) = dynamic("left_inverse((Q+2,P):(1,W)) where W > Q, P > 1");
    assert_eq!(conds.last().map(String::as_str), Some("W >= Q+2"));
    let l = evaluate_dynamic("left_inverse((Q+2,P):(1,W)) where W > Q, P > 1").unwrap();
    assert_eq!(l.conds.last().map(|c| c.kind), Some(CondKind::Required));
    // The complement's non-overlap condition of a padded view, proved by the fact.
    let (l, conds) = dynamic("complement((Q+2,P):(1,W), 4*W*P) where W % (Q+2) == 0, Q+2 <= W");
    assert_eq!(l, "(W/(Q+2),4):(Q+2,P*W)");
    assert_eq!(conds, ["W % (Q+2) == 0", "W >= Q+2"]);
    // A divide of an extent with a sum: the divisibility fact discharges the condition.
    let (l, conds) = dynamic("logical_divide((W-2,N):(1,W), [8:1]) where (W-2) % 16 == 0");
    assert_eq!(l, "((8,(W-2)/8),N):((1,8),W)");
    assert_eq!(conds, ["(W-2) % 16 == 0", "W-2 > 0"]);
    // A fact refutes a condition: the divide asks for `(W-2) % 8 == 0`, but W-2 < 8.
    let e = dyn_err("logical_divide((W-2,N):(1,W), [8:1]) where W <= 9, W > 2");
    assert!(e.contains("(W-2) % 8 == 0") && e.contains("false for every value"), "{e}");
    // Linear facts chain: LD >= N and N >= M+1 give LD > M.
    let solver = layout_core::dynamic::Solver {
        conds: parse_facts("LD >= N, N >= M+1", 0)
            .unwrap()
            .into_iter()
            .map(|cond| layout_core::dynamic::Condition { cond, kind: CondKind::Fact, why: String::new() })
            .collect(),
    };
    let cond = |t: &str| parse_facts(t, 0).unwrap().remove(0);
    assert_eq!(solver.prove(&cond("LD > M")), Some(true));
    assert_eq!(solver.prove(&cond("M >= LD")), Some(false));
    assert_eq!(solver.prove(&cond("LD >= 2*M")), None);
    assert_eq!(solver.prove(&cond("N+LD >= 4")), Some(true));
}

#[test]
fn sums_with_numbers_agree_with_the_static_algebra() {
    // The layout over symbols with numbers in is the static layout written with the numbers.
    let texts = [
        "((W-2,H-2),(3,3)):((1,W),(1,W))",
        "logical_divide((W-2,H):(1,W), [2:1,_]) where (W-2) % 2 == 0",
        "zipped_divide(((W-2,H-2),(3,3)):((1,W),(1,W)), [[2:1,_],3:1]) where (W-2) % 2 == 0",
        "composition((W-2,H-2):(1,W), 3:1) where W >= 5",
        "composition(((W-2,H-2),(3,3)):((1,W),(1,W)), [[2:1,_],3:1])",
        "coalesce((W-1,H+1):(1,W-1))",
    ];
    for text in texts {
        let l = evaluate_dynamic(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut checked = 0;
        for w in 3..9 {
            for h in 1..5 {
                let pairs = [("W", w), ("H", h)];
                let Ok(got) = l.substitute(&values(&pairs)) else { continue };
                let stat = text.split(" where").next().unwrap_or(text);
                let stat = stat.replace("W", &w.to_string()).replace("H", &h.to_string());
                let want = evaluate(&stat).unwrap_or_else(|e| panic!("{stat}: {e}")).into_layout().unwrap();
                assert_eq!(got.size(), want.size(), "{text} at W = {w}, H = {h}");
                assert_eq!(got.table().unwrap(), want.table().unwrap(), "{text} at W = {w}, H = {h}");
                checked += 1;
            }
        }
        assert!(checked >= 4, "{text}: only {checked} values satisfy the conditions");
    }
}
