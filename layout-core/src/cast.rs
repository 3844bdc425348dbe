//! Re-typing offsets: `upcast<N>` (N elements become one) and `downcast<N>` (one element
//! becomes N), leaf by leaf as in CuTe C++.

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;

/// `upcast<N>(L)`: per leaf `s:d`, `⌈s/⌈N/|d|⌉⌉ : sign(d)·max(|d|/N, 1)` (a stride-0 leaf
/// stays), so that `N·R(c) = L(c·⌈N/d⌉)`: an extent that `N/|d|` does not divide is rounded up,
/// as CuTe C++ does. Requires every non-zero stride to divide or be a multiple of N.
///
/// ```
/// use layout_core::{parse_layout, upcast};
/// // An 8x4 tile of 4-byte elements seen as 16-byte elements.
/// assert_eq!(upcast(&parse_layout("(8,4):(1,8)")?, 4)?.to_string(), "(2,4):(1,2)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn upcast(layout: &Layout, n: i64) -> Result<Layout> {
    if n < 1 {
        return Err(LayoutError::FactorNotPositive { op: Operation::Upcast, n });
    }
    let mut leaves = Vec::new();
    for (s, d) in layout.flat_modes() {
        if d == 0 {
            leaves.push((s, 0));
            continue;
        }
        let ad = d.checked_abs().ok_or(LayoutError::Overflow { a: -1, op: '*', b: d })?;
        if ad % n != 0 && n % ad != 0 {
            return Err(LayoutError::CastStride { op: Operation::Upcast, layout: layout.to_string(), n, stride: d });
        }
        let ratio = if n % ad == 0 { n / ad } else { 1 };
        let shape = checked::ceil_div(s, ratio);
        let stride = if ad % n == 0 { ad / n } else { 1 };
        leaves.push((shape, d.signum() * stride));
    }
    rebuild(layout, &leaves)
}

/// `downcast<N>(L)`: leaves of stride ±1 become N times longer, every other stride is
/// multiplied by N, so that `R(c) = N·L(c/N) + c mod N` along the unit-stride leaves.
/// Requires a stride-1 leaf to carry the N sub-elements.
///
/// ```
/// use layout_core::{downcast, parse_layout};
/// assert_eq!(downcast(&parse_layout("(2,4):(1,2)")?, 2)?.to_string(), "(4,4):(1,4)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn downcast(layout: &Layout, n: i64) -> Result<Layout> {
    if n < 1 {
        return Err(LayoutError::FactorNotPositive { op: Operation::Downcast, n });
    }
    let modes = layout.flat_modes();
    if n > 1 && !modes.iter().any(|&(_, d)| d.unsigned_abs() == 1) {
        return Err(LayoutError::DowncastNoUnitStride { layout: layout.to_string(), n });
    }
    let leaves = modes
        .into_iter()
        .map(|(s, d)| if d.unsigned_abs() == 1 { Ok((checked::mul(s, n)?, d)) } else { Ok((s, checked::mul(d, n)?)) })
        .collect::<Result<Vec<_>>>()?;
    rebuild(layout, &leaves)
}

/// A layout congruent to `like` with the given leaves.
pub(crate) fn rebuild(like: &Layout, leaves: &[(i64, i64)]) -> Result<Layout> {
    let shape = like.shape().with_leaves(&mut leaves.iter().map(|l| l.0));
    let stride = like.stride().with_leaves(&mut leaves.iter().map(|l| l.1));
    Layout::new(shape, stride)
}
