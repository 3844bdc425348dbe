//! `explain` narrates the real run: for many inputs, the explained result is the operation's
//! result, every traced operation's recorded end is its result, and the steps it recorded
//! agree with it (the walk's pieces have the result's modes, the by-mode pieces concatenate to
//! it, a divide is A ∘ B★, a product is (A, A* ∘ B), a complement is its holes coalesced).

use layout_core::trace::{Event, Role, Step};
use layout_core::{
    Layout, Operation, coalesce, coalesce_extended, composition, evaluate, explain, logical_product, parse_layout,
};
use proptest::prelude::*;

fn lay(s: &str) -> Layout {
    parse_layout(s).unwrap_or_else(|e| panic!("`{s}` does not parse: {e}"))
}

/// One traced operation: its start, the steps directly inside it, and its end.
struct Segment<'a> {
    op: Operation,
    operands: &'a [(&'static str, String)],
    inner: Vec<&'a Step>,
    result: &'a Result<String, String>,
}

impl Segment<'_> {
    fn operand(&self, name: &str) -> Layout {
        lay(&self.operands.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no operand {name}")).1)
    }

    fn built(&self, want: impl Fn(&Role) -> bool) -> Vec<Layout> {
        let layouts = self.inner.iter().filter_map(|s| match &s.event {
            Event::Built { role, layout } if want(role) => Some(lay(layout)),
            _ => None,
        });
        layouts.collect()
    }

    fn nested_results(&self, op: Operation) -> Vec<Layout> {
        let results = self.inner.iter().filter_map(|s| match &s.event {
            Event::End { op: o, result: Ok(r) } if *o == op => Some(lay(r)),
            _ => None,
        });
        results.collect()
    }
}

/// Splits the steps into operations, checking that starts and ends nest and that every step
/// sits one level inside the operation that records it.
fn segments(steps: &[Step]) -> Vec<Segment<'_>> {
    let mut open: Vec<(usize, Vec<&Step>)> = Vec::new();
    let mut done = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        if let Event::End { op, result } = &step.event {
            let (start, inner) = open.pop().expect("an end without a start");
            assert_eq!(step.depth, open.len(), "`{step}` ends at the wrong depth");
            let Event::Begin { op: began, operands } = &steps[start].event else { unreachable!() };
            assert_eq!(began, op, "`{}` ends as `{op}`", steps[start]);
            if let Some((_, outer)) = open.last_mut() {
                outer.push(step);
            }
            done.push(Segment { op: *op, operands, inner, result });
            continue;
        }
        assert_eq!(step.depth, open.len(), "step {k} `{step}` at the wrong depth");
        if let Some((_, inner)) = open.last_mut() {
            inner.push(step);
        }
        if let Event::Begin { .. } = step.event {
            open.push((k, Vec::new()));
        }
    }
    assert!(open.is_empty(), "operations that never end");
    done
}

/// Explains `text` and checks the narration against the evaluation.
fn check(text: &str) {
    let e = explain(text).unwrap_or_else(|err| panic!("`{text}` does not parse: {err}"));
    assert_eq!(e.result, evaluate(text), "{text}: explain's result is not evaluate's");
    let lines = e.lines();
    match &e.result {
        Ok(v) => assert_eq!(lines.last(), Some(&format!("result: {v}"))),
        Err(err) => assert!(lines.contains(&format!("rejected: {err}"))),
    }
    let Some(last) = e.steps.last() else { return };
    let Event::End { op, result } = &last.event else { panic!("{text}: the last step is not an end: {last}") };
    assert_eq!(last.depth, 0);
    let called = text.split('(').next().unwrap_or_default();
    assert_eq!(op.name(), called, "{text}: the outermost operation traced is {op}");
    match (&e.result, result) {
        (Ok(v), Ok(r)) => assert_eq!(&v.to_string(), r, "{text}"),
        (Err(err), Err(m)) => assert_eq!(&err.to_string(), m, "{text}"),
        (r, t) => panic!("{text}: evaluated {r:?}, traced {t:?}"),
    }
    for seg in segments(&e.steps) {
        check_segment(text, &seg);
    }
}

/// The steps of one operation agree with its result.
fn check_segment(text: &str, seg: &Segment<'_>) {
    let Ok(result) = seg.result else { return };
    let result = lay(result);
    let flat = |ls: &[Layout]| ls.iter().flat_map(Layout::flat_modes).collect::<Vec<_>>();
    let modes = seg.built(|r| matches!(r, Role::Mode(_)));
    if !modes.is_empty() {
        assert_eq!(
            Layout::concat(modes.clone()).unwrap(),
            result,
            "{text}: the modes of `{}` are not its result",
            seg.op
        );
    }
    let splits = seg.built(|r| matches!(r, Role::Split(_)));
    let zipped = matches!(seg.op, Operation::ZippedDivide | Operation::ZippedProduct);
    for (i, split) in splits.iter().enumerate().filter(|_| zipped) {
        let part = |k: usize| result.mode(k).and_then(|m| m.mode(i)).unwrap();
        assert_eq!((part(0), part(1)), (split.mode(0).unwrap(), split.mode(1).unwrap()), "{text}: split {i}");
    }
    match seg.op {
        Operation::Composition if modes.is_empty() => {
            let pieces = seg.built(|r| matches!(r, Role::Piece { .. }));
            assert_eq!(flat(&pieces), result.flat_modes(), "{text}: the walk's pieces are not A ∘ B");
            let coalesced = seg.built(|r| *r == Role::Coalesced);
            assert_eq!(coalesced, [coalesce_extended(&seg.operand("A"))]);
            assert_eq!(composition(&seg.operand("A"), &seg.operand("B")).unwrap(), result);
        }
        Operation::LogicalDivide | Operation::FlatDivide if modes.is_empty() && splits.is_empty() => {
            let star = seg.built(|r| *r == Role::Star);
            if !star.is_empty() {
                assert_eq!(composition(&seg.operand("A"), &star[0]).unwrap(), result, "{text}: not A ∘ B★");
                assert_eq!(seg.nested_results(Operation::Composition), std::slice::from_ref(&result));
            }
        }
        Operation::LogicalProduct if modes.is_empty() => {
            let (a, b) = (seg.operand("A"), seg.operand("B"));
            let star = seg.nested_results(Operation::Complement);
            let copies = seg.nested_results(Operation::Composition);
            assert_eq!(Layout::concat([a.clone(), copies[0].clone()]).unwrap(), result, "{text}: not (A, A* ∘ B)");
            assert_eq!(composition(&star[0], &b).unwrap(), copies[0]);
            assert_eq!(logical_product(&a, &b).unwrap(), result);
        }
        Operation::Complement => {
            let holes = seg.built(|r| *r == Role::Holes);
            assert_eq!(holes.iter().map(coalesce).collect::<Vec<_>>(), [result], "{text}: not its holes coalesced");
        }
        _ => {}
    }
}

fn layout_text(shape: &[i64], stride: &[i64]) -> String {
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    match shape.len() {
        1 => format!("{}:{}", shape[0], stride[0]),
        _ => format!("({}):({})", join(shape), join(stride)),
    }
}

fn small_layout(max_rank: usize) -> impl Strategy<Value = String> {
    (1..=max_rank).prop_flat_map(|r| {
        (proptest::collection::vec(1i64..=6, r), proptest::collection::vec(0i64..=12, r))
            .prop_map(|(s, d)| layout_text(&s, &d))
    })
}

const TILER_OPS: [&str; 7] = [
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn explained_compositions_are_the_walk(a in small_layout(3), b in small_layout(2)) {
        check(&format!("composition({a}, {b})"));
        check(&format!("composition({a}, [{b}])"));
    }

    #[test]
    fn explained_divides_and_products_are_their_steps(
        op in 0usize..TILER_OPS.len(), a in small_layout(2), b in small_layout(2), c in small_layout(1),
    ) {
        let op = TILER_OPS[op];
        check(&format!("{op}({a}, {b})"));
        check(&format!("{op}({a}, [{c}, _])"));
        check(&format!("{op}({a}, [{b}, {c}])"));
    }

    #[test]
    fn explained_zip_products_and_complements(a in small_layout(2), b in small_layout(2), n in 1i64..=40) {
        check(&format!("blocked_product({a}, {b})"));
        check(&format!("raked_product({a}, {b})"));
        check(&format!("flat_product({a}, {b})"));
        check(&format!("complement({a}, {n})"));
        check(&format!("complement({a})"));
    }
}

#[test]
fn the_paper_examples_narrate_their_runs() {
    for text in [
        "composition((6,2):(8,2), (4,3):(3,1))",
        "composition((2,2):(1,10), (2,2):(1,1))",
        "logical_divide((8,16):(20,1), [4:1,8:2])",
        "zipped_divide((8,16):(20,1), [4:1,8:2])",
        "tiled_divide((8,16):(20,1), [4:1,8:2])",
        "logical_divide((6,4):(1,6), 5:1)",
        "logical_product((3,4):(4,1), (2,5):(1,2))",
        "logical_product((4,8):(20,2), (3,2):(2,1))",
        "complement((4,8):(1,5), 39)",
        "flat_divide((5,6):(1,5), [2:1,4:1])",
    ] {
        check(text);
    }
}

#[test]
fn a_walk_is_narrated_once_per_run() {
    // The divide's composition is the one the divide ran: one walk, nested inside it.
    let e = explain("logical_divide(24:3, 8:3)").unwrap();
    let begins: Vec<(usize, Operation)> = e
        .steps
        .iter()
        .filter_map(|s| match &s.event {
            Event::Begin { op, .. } => Some((s.depth, *op)),
            _ => None,
        })
        .collect();
    assert_eq!(begins, [(0, Operation::LogicalDivide), (1, Operation::Complement), (1, Operation::Composition)]);
}

/// A composition with a swizzle or a swizzled layout on the right is narrated as itself
/// (operands as written, the swizzle moved out, the inner composition nested one level down)
/// and ends with the value `evaluate` gives.
#[test]
fn a_composition_with_a_swizzle_on_the_right_is_narrated_as_itself() {
    for (text, b) in [
        ("composition((8,8):(8,1), Sw<2,0,3> o (8,8):(8,1))", "Sw<2,0,3> o (8,8):(8,1)"),
        ("composition((8,8):(8,1), Sw<2,0,3>)", "Sw<2,0,3>"),
    ] {
        let e = explain(text).unwrap();
        let want = evaluate(text).unwrap().to_string();
        let first = &e.steps[0];
        assert_eq!(first.depth, 0);
        let Event::Begin { op, operands } = &first.event else { panic!("`{text}` starts with `{first}`") };
        assert_eq!(*op, Operation::Composition);
        assert_eq!(operands[0], ("A", "(8,8):(8,1)".to_string()));
        assert_eq!(operands[1], ("B", b.to_string()));
        let last = e.steps.last().unwrap();
        assert_eq!(last.depth, 0);
        assert_eq!(last.event, Event::End { op: Operation::Composition, result: Ok(want.clone()) }, "{text}");
        assert!(e.steps.iter().any(|s| matches!(&s.event, Event::Note(n) if n.contains("the swizzle moves out"))));
        assert!(
            e.steps.iter().any(|s| s.depth == 1 && matches!(s.event, Event::Begin { op: Operation::Composition, .. }))
        );
        assert_eq!(e.result.as_ref().unwrap().to_string(), want);
    }
}
