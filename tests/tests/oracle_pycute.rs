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
        id: "public-00047",
        expr: "zipped_divide((8,8):(1,8), [2:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-00048",
        expr: "tiled_divide((8,8):(1,8), [2:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02623",
        expr: "tiled_divide((3,2,6):(12,6,1), [3:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02626",
        expr: "zipped_divide(((5,2),6):((11,61),42), [[1:1,_],(3,2):(1,3)])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02627",
        expr: "tiled_divide(((5,2),6):((11,61),42), [[1:1,_],(3,2):(1,3)])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02769",
        expr: "zipped_divide((8,2,8):(4,45,0), [((1,2),2,2):((1,1),2,4),_,4:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02774",
        expr: "tiled_divide((2,7,4):(1,2,14), [_,1:7,2:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02811",
        expr: "zipped_divide((4,8,8):(64,0,1), [4:1,8:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02881",
        expr: "zipped_divide((3,2):(2,1), [1:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02882",
        expr: "tiled_divide((3,2):(2,1), [1:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02891",
        expr: "tiled_divide((4,3):(1,4), [_,3:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02894",
        expr: "tiled_divide((2,3):(1,2), [(1,1):(1,1),_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02942",
        expr: "zipped_divide((8,1,8):(27,1,8), [4:1,_,4:2])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02943",
        expr: "tiled_divide((8,1,8):(27,1,8), [4:1,_,4:2])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02968",
        expr: "zipped_divide(((2,4),(4,8),8):((8,16),(29,8),16), [_,2:1,2:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02969",
        expr: "tiled_divide(((2,4),(4,8),8):((8,16),(29,8),16), [_,2:1,2:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-02977",
        expr: "tiled_divide(((5,1),4,(4,7,4)):((4,8),2,(0,2,16)), [5:1,1:1,_])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-03253",
        expr: "tiled_product((1,(1,4),(1,2,4)):(1,(32,8),(1,4,1)), [_,1:1])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-03260",
        expr: "tiled_product(((3,3),4):((3,1),9), [[_],1:2])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
    Deviation {
        id: "public-03271",
        expr: "zipped_product((1,2,2):(1,1,6), [1:1,_,3:2])",
        verdict: Verdict::FormDiffers,
        kind: DeviationKind::Policy,
        reason: UNDERSCORE,
        proof: Some(underscore_is_the_whole_mode),
    },
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

/// Why the zipped and tiled forms with `_` differ from pycute's.
const UNDERSCORE: &str = "`_` is the whole mode as its tile in every operation (README, notation): in a zipped or \
     tiled form its mode is in the first part with a rest of 1, as the whole-mode tiler `n:1` puts it (and as \
     logical_divide keeps it, in CuTe C++ and pycute alike); pycute 4.2 puts it in the rest with a tile of 1";

/// Our answer is pycute's with each `_` mode moved from the second part to the first: mode
/// by mode, the tile parts and rest parts have pycute's functions, except that at a `_` the
/// tile is pycute's rest (the whole mode) and both of size 1 are swapped.
fn underscore_is_the_whole_mode(o: &Outcome) -> Check {
    use layout_tests::oracle::notation::{Lay, TElem, parse_layout};
    let TElem::Tiler(tiler) = o.record.tiler_arg(1)? else { return Err("the tiler is not by mode".into()) };
    let Expect::Layout(pycute) = &o.record.expect else { return Err("pycute gave no layout".into()) };
    let (ours, theirs) = (o.answer.layout()?, parse_layout(pycute)?);
    // A tiled form is the zipped one with the second part unpacked.
    let zipped = |l: &Lay| -> (Lay, Lay) {
        let modes = l.modes();
        if o.record.op.starts_with("tiled") {
            (modes[0].clone(), Lay::from_modes(&modes[1..]))
        } else {
            (modes[0].clone(), modes.get(1).cloned().unwrap_or_else(|| Lay::scalar(1, 0)))
        }
    };
    let ((r0, r1), (p0, p1)) = (zipped(&ours), zipped(&theirs));
    fn same(a: &Lay, b: &Lay, what: &str) -> Check {
        if a.size() == b.size() && a.table()? == b.table()? { Ok(()) } else { Err(format!("{what}: {a:?} vs {b:?}")) }
    }
    fn agree(t: &[TElem], r0: &Lay, r1: &Lay, p0: &Lay, p1: &Lay) -> Check {
        let (r0m, r1m, p0m, p1m) = (r0.modes(), r1.modes(), p0.modes(), p1.modes());
        if r0m.len() != p0m.len() || r1m.len() != p1m.len() || r0m.len() < t.len() || r1m.len() < t.len() {
            return Err(format!("ranks differ: {r0:?} {r1:?} vs {p0:?} {p1:?}"));
        }
        for (i, e) in t.iter().enumerate() {
            match e {
                TElem::Skip => {
                    same(&r0m[i], &p1m[i], "the tile of a `_` mode is the whole mode")?;
                    if p0m[i].size() != 1 || r1m[i].size() != 1 {
                        return Err(format!("mode {i}: a `_` part of size other than 1"));
                    }
                }
                TElem::Layout(_) => {
                    same(&r0m[i], &p0m[i], "tile")?;
                    same(&r1m[i], &p1m[i], "rest")?;
                }
                TElem::Tiler(sub) => agree(sub, &r0m[i], &r1m[i], &p0m[i], &p1m[i])?,
            }
        }
        for j in t.len()..r1m.len() {
            same(&r1m[j], &p1m[j], "an untiled mode")?;
        }
        Ok(())
    }
    agree(&tiler, &r0, &r1, &p0, &p1)
}

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
