//! Right and left (pseudo-)inverses (paper §3.4).

use crate::checked;
use crate::coalesce::coalesce;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;

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

/// `right_inverse(L)` = `L‡`: a layout with `L(L‡(k)) = k` for `k < |L‡|`, the largest one when
/// L is injective (for a non-injective L the stride chain may stop earlier, as in CuTe C++).
/// Chain from stride 1: a mode joins while its stride equals the extent reached so far; its
/// result stride is its index position in L. Stride-0 and size-1 modes never join (CuTe C++;
/// pycute stops at the first of them instead). Requires non-negative strides.
pub fn right_inverse(layout: &Layout) -> Result<Layout> {
    layout.require_non_negative("right_inverse")?;
    let mut modes = positioned(layout)?;
    modes.retain(|&(s, _, _)| s != 1);
    modes.sort_by_key(|&(s, d, p)| (d, s, p));
    let mut out = Vec::new();
    let mut next = 1i64;
    while let Some(&(s, d, p)) = modes.iter().find(|&&(_, d, _)| d == next) {
        out.push((s, p));
        next = checked::mul(s, d)?;
    }
    Ok(coalesce(&Layout::from_flat(&out)?))
}

/// `left_inverse(L)` = `L†`: `L(L†(L(k))) = L(k)`, and `L†(L(k)) = k` when L is injective.
/// Broadcast (stride-0) modes are ignored; the others, sorted by stride `d_0 < d_1 < …`, give
/// `(d_0:0, d_1/d_0 : p_0, …, s_last : p_last)` with `p_i` the index positions.
/// Requires non-negative strides, `d_i | d_{i+1}` (the left inverse divisibility condition)
/// and `s_i·d_i ≤ d_{i+1}` (no overlap).
pub fn left_inverse(layout: &Layout) -> Result<Layout> {
    layout.require_non_negative("left_inverse")?;
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
