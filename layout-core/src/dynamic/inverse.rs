//! Right and left inverses of dynamic layouts, where the structure of the result can be
//! decided at expansion time. Both follow layout-core's constructions (`inverse.rs`) on the
//! coalesced modes sorted by stride; each comparison the construction branches on is
//! decided by the [`Solver`](super::Solver) (or the error names the fact that decides it),
//! and the admissibility conditions of the left inverse become run-time checks.

use super::DynError;
use super::layout::{DynLayout, merge, sort_by_stride};
use super::solve::Cond;
use super::symint::SymInt;

/// The coalesced flat modes of L with their index positions: `(extent, stride, position)`.
fn positioned(l: &DynLayout) -> Vec<(SymInt, SymInt, SymInt)> {
    let mut pos = SymInt::int(1);
    let mut out = Vec::new();
    for (s, d) in merge(&l.flat_modes(), false) {
        let next = pos.mul(&s);
        out.push((s, d, pos));
        pos = next;
    }
    out
}

/// `right_inverse(L)` over symbols: with the modes of positive stride sorted, the chain
/// from stride 1 takes each mode whose stride equals the extent `P` reached so far
/// (symbolically), giving the result mode `s : position`; it stops at the first mode whose
/// stride is provably greater than `P` (no later mode can continue it). Admissible over
/// symbols when each such comparison is decided (`where LD > M`), and no stride lies
/// strictly inside the chain's extent (the static search would read such a mode in part,
/// which has no symbolic form). Stride-0, negative-stride and extent-1 modes never join, as
/// in layout-core.
pub fn right_inverse(l: &DynLayout) -> Result<DynLayout, DynError> {
    let out = l.clone();
    let mut modes: Vec<(SymInt, SymInt, SymInt)> =
        positioned(l).into_iter().filter(|(_, d, _)| d.coef().0 > 0).collect();
    sort_by_stride(&out, &mut modes, |m| &m.1, &|| format!("right_inverse: sorting the strides of `{l}`"))?;
    let mut reach = SymInt::int(1);
    let mut chain = Vec::new();
    for (s, d, p) in modes {
        if d == reach {
            chain.push((s.clone(), p));
            reach = reach.mul(&s);
            continue;
        }
        let beyond = Cond::gt(d.clone(), reach.clone());
        let (d2, r2) = (d.clone(), reach.clone());
        if out.decide(beyond, || {
            format!("right_inverse of `{l}`: the chain reaches {r2}; whether the mode of stride {d2} continues it")
        })? {
            break;
        }
        return Err(DynError::Other(format!(
            "right_inverse of `{l}`: the stride {d} lies inside the extent {reach} the chain reaches (the modes \
             overlap); the static algebra reads such a mode in part, which has no form over symbols"
        )));
    }
    Ok(out.with_flat(merge(&chain, false)))
}

/// `left_inverse(L)` over symbols: the modes of non-zero stride sorted `d_0 < d_1 < …` give
/// `(d_0:0, d_1/d_0 : p_0, …, s_last : p_last)` (p the index positions). Requires
/// non-negative strides (at expansion time), and at run time `d_i | d_{i+1}` and
/// `s_i·d_i ≤ d_{i+1}`, as layout-core's left inverse does. A symbolic extent must be
/// provably greater than 1 (`where M > 1`): at 1 the static construction drops the mode and
/// builds a different layout.
pub fn left_inverse(l: &DynLayout) -> Result<DynLayout, DynError> {
    if let Some(d) = l.stride.leaves().iter().find(|d| d.is_negative()) {
        return Err(DynError::Other(format!(
            "left_inverse needs non-negative strides, but `{l}` has the stride {d} (for every value of the symbols)"
        )));
    }
    let mut out = l.clone();
    let mut modes: Vec<(SymInt, SymInt, SymInt)> = positioned(l).into_iter().filter(|(_, d, _)| !d.is_zero()).collect();
    for (s, _, _) in &modes {
        if !s.is_const() {
            let s2 = s.clone();
            let more = out.decide(Cond::gt(s.clone(), SymInt::int(1)), || {
                format!("left_inverse of `{l}`: the extent {s2} drops out of the static construction when it is 1")
            })?;
            if !more {
                return Err(DynError::Other(format!("left_inverse of `{l}`: the extent {s} is 1")));
            }
        }
    }
    sort_by_stride(&out, &mut modes, |m| &m.1, &|| format!("left_inverse: sorting the strides of `{l}`"))?;
    let Some((_, first, _)) = modes.first().cloned() else {
        return Ok(out.with_flat(vec![(SymInt::int(1), SymInt::int(0))]));
    };
    let mut res = vec![(first, SymInt::int(0))];
    for w in modes.windows(2) {
        let ((s, d, p), (_, next, _)) = (&w[0], &w[1]);
        let (d2, n2) = (d.clone(), next.clone());
        out.require(Cond::divides(next.clone(), d.clone()), || {
            format!("left_inverse: the sorted strides {d2} and {n2} must divide one another")
        })?;
        let reach = s.mul(d);
        let (r2, n2) = (reach.clone(), next.clone());
        out.require(Cond::ge(next.clone(), reach.clone()), || {
            format!("left_inverse: the mode reaching {r2} must not overlap the mode of stride {n2}")
        })?;
        res.push((next.div(d), p.clone()));
    }
    if let Some((s, _, p)) = modes.last() {
        res.push((s.clone(), p.clone()));
    }
    Ok(out.with_flat(merge(&res, false)))
}
