//! Common vectors (paper §3.4.2) and the null space of a layout.

use crate::checked;
use crate::coalesce::coalesce;
use crate::composition::composition;
use crate::error::Result;
#[cfg(doc)]
use crate::inverse::right_inverse;
use crate::inverse::right_inverse_where;
use crate::layout::Layout;
use crate::operation::Operation;

/// `max_common_layout(A, B)`: the largest `R` with `A(R(i)) = B(R(i)) = i` (R's values in
/// both domains): the largest right inverse of B (see
/// [`right_inverse`](crate::right_inverse), same search and bounds) on which A agrees, `1:0`
/// when there is none. CuTe C++ reads it off `A ∘ B‡`, which
/// misses common layouts when B‡'s first choice is not A's or when `A ∘ B‡` is not
/// admissible past the common part.
///
/// ```
/// use layout_core::{max_common_layout, parse_layout};
/// // Both contiguous along their first 16 elements: a 16-element vector copy.
/// let r = max_common_layout(&parse_layout("(16,8):(1,16)")?, &parse_layout("(16,8):(1,32)")?)?;
/// assert_eq!(r.to_string(), "16:1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let size_a = a.size();
    right_inverse_where(b, &|chain| agrees(a, size_a, chain))
}

/// `max_common_vector(A, B)`: the size of [`max_common_layout`], the number of leading
/// offsets A and B reach at the same index by a layout.
///
/// ```
/// use layout_core::{max_common_vector, parse_layout};
/// assert_eq!(max_common_vector(&parse_layout("(8,4):(1,8)")?, &parse_layout("32:1")?)?, 32);
/// assert_eq!(max_common_vector(&parse_layout("(8,4):(1,8)")?, &parse_layout("(8,4):(4,1)")?)?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    max_common_layout(a, b).map(|r| r.size())
}

/// `A(R(i)) = i` on R's domain with `R(i) < |A|`, R the flat `chain`.
fn agrees(a: &Layout, size_a: i64, chain: &[(i64, i64)]) -> bool {
    let Ok(r) = Layout::from_flat(chain) else { return false };
    let last = chain.iter().try_fold(0i64, |acc, &(s, d)| acc.checked_add((s - 1).checked_mul(d)?));
    if last.is_none_or(|l| l >= size_a) {
        return false;
    }
    match composition(a, &r) {
        Ok(c) => {
            let c = coalesce(&c);
            c.size() == 1 || c.flat_modes().first().is_some_and(|&(s, d)| s == c.size() && d == 1)
        }
        // The composition can be inadmissible as a layout while agreeing on R's points
        // (`(2,2):(0,1)` at `2:3`): small R are checked point by point.
        Err(_) if r.size() <= POINTWISE_LIMIT => {
            (0..r.size()).all(|i| r.eval(i).and_then(|j| a.eval(j)).is_ok_and(|v| v == i))
        }
        Err(_) => false,
    }
}

/// Up to this size, a candidate common layout the composition rejects is checked point by point.
const POINTWISE_LIMIT: i64 = 1 << 12;

/// `nullspace(L)`: the injective layout whose image is `{i : L(i) = 0}`, in increasing order:
/// the stride-0 leaves of L, each with the stride of its index position (CuTe C++ keeps the
/// leaves as they are, size-1 leaves with stride 0). Requires non-negative strides (with
/// negative ones, other coordinates can cancel to 0).
pub fn nullspace(layout: &Layout) -> Result<Layout> {
    layout.require_non_negative(Operation::Nullspace, false)?;
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
