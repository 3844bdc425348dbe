//! Replays all of `tests/data/pycute-vectors.jsonl` (pycute 4.2.0.0's answers) through
//! layout-core and judges every answer as the reference judge `oracle_check.py` does: by
//! brute force on the function, by ALGEBRA.md's policies. Fails on a wrong answer or an
//! over-rejection that is not a listed deviation, and when form-differs answers exceed 3 %.

use layout_tests::oracle::bf::{Check, complement_ref};
use layout_tests::oracle::pycute::representable;
use layout_tests::oracle::{Deviation, DeviationKind, Outcome, Replay, Source, Verdict};

/// The records the reference judge flags where the project deliberately differs.
const DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "public-02051",
        expr: "composition((6,1):(1,1), (5,4):(4,0))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "policy 2: B leaves A's domain, and A as written (last mode `1:1` unbounded) gives \
                 0,4,3,2,6 on B's mode `5:4`, which no layout of shape 5 produces; pycute extends \
                 the coalesced `6:1` instead",
        proof: Some(first_mode_unrepresentable),
    },
    Deviation {
        id: "public-03075",
        expr: "logical_product((2,6):(43,4), (2,2,2):(0,0,4))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "the complement of A is not exact (stride 43 is not a multiple of the extent 24 of the \
                 smaller modes); the project rejects weak complements",
        proof: Some(block_has_no_exact_complement),
    },
    Deviation {
        id: "public-03076",
        expr: "tiled_product((2,6):(43,4), (2,2,2):(0,0,4))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "as public-03075: the complement of A is not exact, the project rejects weak complements",
        proof: Some(block_has_no_exact_complement),
    },
];

/// `A ∘ B` with A read as written (last mode unbounded): on B's first mode the values form no
/// layout of that size, so the composition is not representable and must be rejected.
fn first_mode_unrepresentable(o: &Outcome) -> Check {
    let a = o.record.layout_arg(0)?;
    let b0 = o.record.layout_arg(1)?.modes().remove(0);
    let (fa, fb) = (a.eval(), b0.eval());
    let values: Vec<i64> = (0..b0.size()).map(|i| fa.at(fb.at(i))).collect();
    if representable(&values) {
        return Err(format!("A(B_0(i)) = {values:?} is representable"));
    }
    Ok(())
}

/// The product's block has no exact complement for cotarget `size(A)·cosize(B)`.
fn block_has_no_exact_complement(o: &Outcome) -> Check {
    let (a, b) = (o.record.layout_arg(0)?, o.record.layout_arg(1)?);
    match complement_ref(a, a.size() * b.cosize()) {
        Ok(c) => Err(format!("A has the exact complement {c:?}")),
        Err(_) => Ok(()),
    }
}

#[test]
fn pycute_vectors_replay() {
    let replay = Replay::run(Source::Pycute);
    assert_eq!(replay.outcomes.len(), 3288, "the file has 3288 records");
    replay.assert_passes(DEVIATIONS);
    assert!(
        replay.form_differs_fraction() <= Source::Pycute.form_differs_limit(),
        "form-differs answers must stay under 3 % of the records"
    );
}
