//! Common vectors (paper §3.4.2) and the null space of a layout.

use crate::checked;
use crate::coalesce::coalesce;
use crate::composition::composition;
use crate::error::Result;
use crate::inverse::right_inverse;
use crate::layout::Layout;

/// `max_common_layout(A, B)`: the largest `R` with `A(R(i)) = B(R(i)) = i`, found from
/// `A ∘ B‡`: its leading stride-1 mode of size K gives `B‡ ∘ K:1`; `1:0` when there is none.
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let inv_b = right_inverse(b)?;
    let k = common_prefix(a, &inv_b)?;
    if k <= 1 {
        return Layout::scalar(1, 0);
    }
    composition(&inv_b, &Layout::scalar(k, 1)?)
}

/// `max_common_vector(A, B)`: the number of leading elements whose offsets A and B agree on,
/// `K` with `A(B‡(k)) = k` for `k < K` (the size of `max_common_layout`).
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    let inv_b = right_inverse(b)?;
    common_prefix(a, &inv_b).map(|k| k.max(1))
}

/// Size of the leading stride-1 mode of `coalesce(A ∘ inv)`, restricted to the domain both
/// share. When the whole composition is not admissible, the longest admissible prefix of
/// `inv`'s modes is used (still exact, possibly conservative).
fn common_prefix(a: &Layout, inv: &Layout) -> Result<i64> {
    let modes = inv.flat_modes();
    for len in (1..=modes.len()).rev() {
        let prefix = Layout::from_flat(&modes[..len])?;
        if prefix.size() > a.size() {
            continue;
        }
        if let Ok(r) = composition(a, &prefix) {
            let (s, d) = coalesce(&r).flat_modes()[0];
            return Ok(if d == 1 { s } else { 1 });
        }
    }
    Ok(1)
}

/// `nullspace(L)`: the injective layout whose image is `{i : L(i) = 0}`, in increasing order:
/// the stride-0 leaves of L, each with the stride of its index position (CuTe C++ keeps the
/// leaves as they are, size-1 leaves with stride 0). Requires non-negative strides (with
/// negative ones, other coordinates can cancel to 0).
pub fn nullspace(layout: &Layout) -> Result<Layout> {
    layout.require_non_negative("nullspace")?;
    let mut pos = 1i64;
    let mut out = Vec::new();
    for (s, d) in layout.flat_modes() {
        if d == 0 {
            out.push((s, if s == 1 { 0 } else { pos }));
        }
        pos = checked::mul(pos, s)?;
    }
    Layout::from_flat(&out)
}
