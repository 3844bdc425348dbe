//! Replays all of `tests/data/pycute-vectors.jsonl` (pycute 4.2.0.0's answers) through
//! layout-core and judges every answer as the reference judge `oracle_check.py` does: by
//! brute force on the function, by the policies of docs/algebra.md (§3). Fails on a wrong answer or an
//! over-rejection that is not a listed deviation, and when form-differs answers exceed 3 %.

use layout_tests::oracle::bf::{Check, complement_ref};
use layout_tests::oracle::pycute::representable;
use layout_tests::oracle::{Deviation, DeviationKind, Expect, Outcome, Replay, Source, Verdict};

/// The records the reference judge flags where the project deliberately differs.
const DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "public-02051",
        expr: "composition((6,1):(1,1), (5,4):(4,0))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "§3.2: B leaves A's domain, and A as written (last mode `1:1` unbounded) gives \
                 0,4,3,2,6 on B's mode `5:4`, which no layout of shape 5 produces; pycute extends \
                 the coalesced `6:1` instead",
        proof: Some(first_mode_unrepresentable),
    },
    Deviation {
        id: "public-03075",
        expr: "logical_product((2,6):(43,4), (2,2,2):(0,0,4))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "§3.9: A's complement is weak (stride 43 is not a multiple of the extent 24 of the \
                 smaller modes) and B's image leaves its domain: pycute's copy of A at offset 4 meets \
                 the copy at 0 (offset 4), so the product is rejected naming the collision",
        proof: Some(copies_of_the_block_collide),
    },
    Deviation {
        id: "public-03076",
        expr: "tiled_product((2,6):(43,4), (2,2,2):(0,0,4))",
        verdict: Verdict::OverRejected,
        kind: DeviationKind::Policy,
        reason: "as public-03075: the copies of A in pycute's answer collide (§3.9)",
        proof: Some(copies_of_the_block_collide),
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

/// The product's block has no exact complement for cotarget `size(A)·cosize(B)`, and in
/// pycute's answer two copies of the block (mode 0 of the result at two values of mode 1) meet.
fn copies_of_the_block_collide(o: &Outcome) -> Check {
    let (a, b) = (o.record.layout_arg(0)?, o.record.layout_arg(1)?);
    if let Ok(c) = complement_ref(a, a.size() * b.cosize()) {
        return Err(format!("A has the exact complement {c:?}"));
    }
    let Expect::Layout(pycute) = &o.record.expect else { return Err("pycute gave no layout".into()) };
    let t = layout_tests::oracle::notation::parse_layout(pycute)?.table()?;
    let n = a.size() as usize;
    let copies: Vec<&[i64]> = t.chunks(n).collect();
    let mut seen: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
    for (j, copy) in copies.iter().enumerate() {
        let origin = copy[0] - a.at(0);
        for &v in *copy {
            if let Some(&k) = seen.get(&v)
                && copies[k][0] - a.at(0) != origin
            {
                return Ok(()); // copies k and j (distinct origins) share the offset v
            }
            seen.insert(v, j);
        }
    }
    Err("pycute's copies are pairwise disjoint".into())
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
