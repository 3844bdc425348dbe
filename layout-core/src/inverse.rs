//! Right and left (pseudo-)inverses (paper §3.4).

use crate::checked;
use crate::coalesce::coalesce;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;

/// Flat modes with their column-major index position: `(shape, stride, position)`.
fn positioned(layout: &Layout) -> Result<Vec<(i64, i64, i64)>> {
    let mut pos = 1i64;
    let mut out = Vec::new();
    for (s, d) in layout.flat_modes() {
        out.push((s, d, pos));
        pos = checked::mul(pos, s)?;
    }
    Ok(out)
}

/// `right_inverse(L)` = `L‡`: the largest layout with `L(L‡(k)) = k` for `k < |L‡|`.
///
/// Chain from stride 1: with the extent `P` reached so far, a mode `s:d` of L whose stride
/// divides `P` continues the chain with `m` of its coordinates `0, k, 2k, …` (`k = P/d`),
/// giving the result mode `m : k·p` (p the mode's index position). For an injective L only
/// `k = 1` ever applies and this is CuTe's chain (a mode joins while its stride equals the
/// extent reached). When several modes could continue (L not injective), the chain that
/// reaches furthest is taken: `((6,1),(4,1,8),5):((55,60),(64,2,1),1)` continues with `8:1`
/// (giving `8:24`), not with `5:1` (`5:192`); `(2,3):(1,1)` gives `(2,2):(1,4)` by reading its
/// second mode at coordinates 0 and 2. L is coalesced first. Among equally large results the first found in
/// (stride, size, position) order is kept, as CuTe C++ picks. Stride-0 and size-1 modes never
/// join (CuTe C++; pycute stops at the first of them instead). Negative strides never join
/// either, so a right inverse always exists: `right_inverse(4:-1) = 1:0` (only offset 0 is
/// reached). With non-negative strides the result is checked against a brute-force search
/// over all layouts (`tests/exhaustive.rs`); with mixed signs a larger one can exist that adds
/// modes of opposite signs (`(2,2):(-1,2)` reaches 1 at index 3), which the chain does not
/// search for. The search is bounded (`RIGHT_INVERSE_BUDGET` steps); past the bound the
/// chain found so far is returned.
///
/// ```
/// use layout_core::{parse_layout, right_inverse};
/// let l = parse_layout("(4,2):(2,1)")?;
/// let r = right_inverse(&l)?;
/// assert_eq!(r.to_string(), "(2,4):(4,1)");
/// for k in 0..r.size() {
///     assert_eq!(l.eval(r.eval(k)?)?, k);                 // L(R(k)) = k
/// }
/// // Not onto: the longest run of offsets from 0 that L reaches, 0..4.
/// assert_eq!(right_inverse(&parse_layout("(4,8):(1,5)")?)?.to_string(), "4:1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn right_inverse(layout: &Layout) -> Result<Layout> {
    right_inverse_where(layout, &|_| true)
}

/// The largest right inverse of L (as [`right_inverse`]) among those whose every prefix
/// chain (flat modes) `accept`s: `max_common_layout` asks that A agrees too.
pub(crate) fn right_inverse_where(layout: &Layout, accept: &Accept<'_>) -> Result<Layout> {
    // Coalescing keeps the function of the index, and merges modes a chain would otherwise
    // have to read across (`(2,2,2):(1,2,3)` is `(4,2):(1,3)`, whose right inverse is `(3,2):(1,4)`).
    let mut modes = positioned(&coalesce(layout))?;
    modes.retain(|&(s, d, _)| s != 1 && d > 0);
    modes.sort_by_key(|&(s, d, p)| (d, s, p));
    let mut search =
        ChainSearch { used: vec![0; modes.len()], modes, budget: RIGHT_INVERSE_BUDGET, chain: Vec::new(), accept };
    let (_, chain) = search.best_from(1);
    Ok(coalesce(&Layout::from_flat(&chain)?))
}

/// A test on a candidate chain of flat `(size, stride)` modes.
pub(crate) type Accept<'a> = dyn Fn(&[(i64, i64)]) -> bool + 'a;

/// How many chain extensions [`right_inverse`] tries at most.
pub const RIGHT_INVERSE_BUDGET: usize = 20_000;

/// Up to this many coordinates left in a mode, every split of them is tried.
const SMALL_ROOM: i64 = 64;

struct ChainSearch<'a> {
    modes: Vec<(i64, i64, i64)>,
    /// Per mode of L: the largest coordinate the chain's modes already reach in it.
    used: Vec<i64>,
    budget: usize,
    /// The chain so far, `(size, stride)` per mode.
    chain: Vec<(i64, i64)>,
    accept: &'a Accept<'a>,
}

impl ChainSearch<'_> {
    /// The largest chain continuing from extent `next`: (its size, its modes).
    fn best_from(&mut self, next: i64) -> (i64, Vec<(i64, i64)>) {
        let mut best = (1i64, Vec::new());
        for i in 0..self.modes.len() {
            let (s, d, p) = self.modes[i];
            if next % d != 0 {
                continue;
            }
            let k = next / d;
            let cap = (s - 1 - self.used[i]) / k + 1;
            if cap < 2 {
                continue;
            }
            let Some(stride) = k.checked_mul(p) else { continue };
            // Continuations worth trying: every m while the room is small; otherwise all of
            // the room, and for each mode the largest m that makes the next extent a multiple
            // of its stride (the budget bounds the search either way).
            let mut ms = vec![cap];
            if !self.accepts(cap, stride) {
                // The largest m accepted (acceptance only shrinks as m grows).
                let (mut lo, mut hi) = (1, cap);
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2;
                    if self.accepts(mid, stride) { lo = mid } else { hi = mid }
                }
                ms = if lo >= 2 { vec![lo] } else { Vec::new() };
            }
            if cap <= SMALL_ROOM {
                let rest: Vec<i64> = (2..cap).rev().filter(|m| !ms.contains(m)).collect();
                ms.extend(rest);
            } else {
                for &(_, dj, _) in &self.modes {
                    let g = dj / gcd(next, dj);
                    let m = cap / g * g;
                    if m >= 2 && !ms.contains(&m) {
                        ms.push(m);
                    }
                }
            }
            for m in ms {
                if self.budget == 0 {
                    return best;
                }
                self.budget -= 1;
                if !self.accepts(m, stride) {
                    continue;
                }
                self.used[i] += (m - 1) * k;
                self.chain.push((m, stride));
                let (rest, tail) = match next.checked_mul(m) {
                    Some(n) => self.best_from(n),
                    None => (1, Vec::new()),
                };
                self.chain.pop();
                self.used[i] -= (m - 1) * k;
                let total = m.saturating_mul(rest);
                if total > best.0 {
                    let mut chain = vec![(m, stride)];
                    chain.extend(tail);
                    best = (total, chain);
                }
            }
        }
        best
    }
}

impl ChainSearch<'_> {
    /// The chain so far extended by `m : stride` is accepted.
    fn accepts(&mut self, m: i64, stride: i64) -> bool {
        self.chain.push((m, stride));
        let ok = (self.accept)(&self.chain);
        self.chain.pop();
        ok
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `left_inverse(L)` = `L†`: `L(L†(L(k))) = L(k)`, and `L†(L(k)) = k` when L is injective.
/// Broadcast (stride-0) modes are ignored; the others, sorted by stride `d_0 < d_1 < …`, give
/// `(d_0:0, d_1/d_0 : p_0, …, s_last : p_last)` with `p_i` the index positions.
/// Requires non-negative strides, `d_i | d_{i+1}` (the left inverse divisibility condition)
/// and `s_i·d_i ≤ d_{i+1}` (no overlap).
///
/// ```
/// use layout_core::{left_inverse, parse_layout};
/// let l = parse_layout("(4,2):(1,8)")?;
/// let inv = left_inverse(&l)?;
/// assert_eq!(inv.to_string(), "(8,2):(1,4)");
/// for i in 0..l.size() {
///     assert_eq!(inv.eval(l.eval(i)?)?, i);               // L†(L(i)) = i
/// }
/// // 3 is not a multiple of 2: no left inverse.
/// assert!(left_inverse(&parse_layout("(2,2):(2,3)")?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn left_inverse(layout: &Layout) -> Result<Layout> {
    layout.require_non_negative(Operation::LeftInverse, false)?;
    let mut modes = positioned(&coalesce(layout))?;
    modes.retain(|&(s, d, _)| s != 1 && d != 0);
    modes.sort_by_key(|&(s, d, p)| (d, s, p));
    let Some(&(_, first, _)) = modes.first() else {
        return Layout::scalar(1, 0);
    };
    let mut out = vec![(first, 0)];
    for w in modes.windows(2) {
        let ((s, d, p), (_, next, _)) = (w[0], w[1]);
        if next % d != 0 {
            return Err(LayoutError::LeftInverseDivisibility { layout: layout.to_string(), lower: d, upper: next });
        }
        let reach = checked::mul(s, d)?;
        if reach > next {
            return Err(LayoutError::LeftInverseOverlap {
                layout: layout.to_string(),
                shape: s,
                stride: d,
                reach,
                next,
            });
        }
        out.push((next / d, p));
    }
    let &(s, _, p) = modes.last().unwrap_or(&(1, 0, 0));
    out.push((s, p));
    Ok(coalesce(&Layout::from_flat(&out)?))
}
