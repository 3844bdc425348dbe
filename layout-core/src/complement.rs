//! Complement (paper §3.5): the layout that generates the offsets L misses, in order.

use crate::checked;
use crate::coalesce::{coalesce, merge_modes};
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::trace::{self, Role};

/// `complement(L, cotarget)`: for the modes of `filter(L)` sorted by stride, a "hole" mode
/// `⌊d_i/c⌋ : c` before each (c = the extent covered so far), then a "rest" mode
/// `⌈cotarget/c⌉ : c`; coalesced (so a bijection's complement prints `1:0`).
///
/// Requires non-negative strides, `cotarget ≥ 1` and modes that do not overlap (no mode may
/// start inside the extent covered by the smaller strides; the construction needs that, though
/// L may still be injective, as `(2,2):(6,7)` is). A stride that is not a multiple of that
/// extent gives a *weak* complement (docs/algebra.md §3.9, CuTe C++'s answer): still ordered,
/// and `(L, L*)` still injective, but not a tiling of a contiguous range
/// (`complement((4,8):(1,5)) = 1:0`, `complement((4,8):(20,2), 192) = (2,3):(1,80)`), as
/// long as it keeps CuTe's post-condition `cosize((L, L*)) ≥ cotarget`: where C++'s answer
/// falls short (`complement((3,2):(1,4), 24) = 3:8` ends at offset 22) it is an error
/// ([`LayoutError::ComplementShort`]). Divides need the exact case: [`complement_exact`].
///
/// ```
/// use layout_core::{complement, parse_layout};
/// // 4:2 takes 0, 2, 4, 6; its complement in 24 takes the holes and the rest.
/// assert_eq!(complement(&parse_layout("4:2")?, 24)?.to_string(), "(2,3):(1,8)");
/// assert_eq!(complement(&parse_layout("(2,2):(1,6)")?, 24)?.to_string(), "(3,2):(2,12)");
/// // A weak complement: 5 is not a multiple of 4, CuTe's answer.
/// assert_eq!(complement(&parse_layout("(4,8):(1,5)")?, 32)?.to_string(), "1:0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn complement(layout: &Layout, cotarget: i64) -> Result<Layout> {
    coalesced(layout, cotarget, || complement_checked(layout, cotarget, false))
}

/// [`complement`], rejecting the weak case with [`LayoutError::ComplementNotExact`]: every
/// stride a multiple of the extent the smaller modes cover, so that `(L, L*)` tiles a
/// contiguous range (what a divide needs).
///
/// ```
/// use layout_core::{complement_exact, parse_layout};
/// assert_eq!(complement_exact(&parse_layout("4:2")?, 24)?.to_string(), "(2,3):(1,8)");
/// assert!(complement_exact(&parse_layout("(4,8):(1,5)")?, 32).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn complement_exact(layout: &Layout, cotarget: i64) -> Result<Layout> {
    coalesced(layout, cotarget, || complement_checked(layout, cotarget, true))
}

/// [`complement`] without the cotarget post-condition: what a product builds its copies of A
/// from (it checks that the copies are disjoint instead, which is what it promises).
pub(crate) fn complement_for_product(layout: &Layout, cotarget: i64) -> Result<Layout> {
    coalesced(layout, cotarget, || complement_construct(layout, cotarget, false).map(|c| (c.holes, c.weak)))
}

/// The complement coalesced from its un-coalesced form `build` gives (with the first weak
/// stride and the extent below it, if any); traced.
fn coalesced(
    layout: &Layout,
    cotarget: i64,
    build: impl FnOnce() -> Result<(Layout, Option<(i64, i64)>)>,
) -> Result<Layout> {
    trace::operation(Operation::Complement, &[("L", layout), ("cotarget", &cotarget)], || {
        trace::note(|| {
            format!(
                "sort the modes of filter(L) by stride; before each, a hole of stride/extent, then a rest mode \
                 ⌈{cotarget}/extent⌉"
            )
        });
        let (holes, weak) = build()?;
        trace::built(|| Role::Holes, &holes);
        if let Some((stride, extent)) = weak {
            trace::note(|| {
                format!(
                    "weak: the stride {stride} is not a multiple of the extent {extent} below it, so the hole before \
                     it is ⌊{stride}/{extent}⌋ and (L, complement) is injective but skips offsets"
                )
            });
        }
        Ok(coalesce(&holes))
    })
}

/// `complement(L)` with the cotarget `cosize(L)` (CuTe C++'s default).
pub fn complement_default(layout: &Layout) -> Result<Layout> {
    complement(layout, layout.cosize()?)
}

/// The un-coalesced complement `(holes…, rest)`; its trailing rest mode is what keeps the
/// complement disjoint from L on the extended domain (the paper's Table 7 form).
pub fn complement_modes(layout: &Layout, cotarget: i64) -> Result<Layout> {
    Ok(complement_checked(layout, cotarget, false)?.0)
}

/// Whether `complement(L, ·)` is exact: the first stride that is not a multiple of the extent
/// below it, as `(stride, extent)`; `None` when exact (or when the complement is rejected).
pub fn complement_weak_at(layout: &Layout) -> Option<(i64, i64)> {
    match complement_construct(layout, 1, true) {
        Err(LayoutError::ComplementNotExact { stride, extent, .. }) => Some((stride, extent)),
        _ => None,
    }
}

/// The un-coalesced complement with its post-condition checked, and where it is weak.
fn complement_checked(layout: &Layout, cotarget: i64, exact: bool) -> Result<(Layout, Option<(i64, i64)>)> {
    let Construction { holes, sorted, weak } = complement_construct(layout, cotarget, exact)?;
    if weak_reach_short(&sorted, &holes, cotarget)? {
        let last = checked::add(max_offset(&sorted)?, holes.cosize()? - 1)?;
        return Err(LayoutError::ComplementShort { layout: layout.to_string(), cotarget, last });
    }
    Ok((holes, weak))
}

/// What the construction gives.
struct Construction {
    /// The un-coalesced complement `(holes…, rest)`.
    holes: Layout,
    /// The sorted, merged modes of filter(L).
    sorted: Vec<(i64, i64)>,
    /// The first stride that is not a multiple of the extent below it, with that extent.
    weak: Option<(i64, i64)>,
}

/// The construction of the complement.
fn complement_construct(layout: &Layout, cotarget: i64, exact: bool) -> Result<Construction> {
    layout.require_non_negative(Operation::Complement, false)?;
    if cotarget < 1 {
        return Err(LayoutError::CotargetNotPositive { cotarget });
    }
    let kept: Vec<(i64, i64)> = layout.flat_modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    let mut modes = merge_modes(&kept, false);
    modes.sort_by_key(|&(s, d)| (d, s));
    let modes_sorted = modes.clone();
    let mut extent = 1i64;
    let mut below: Option<(i64, i64)> = None;
    let mut weak = None;
    let mut out = Vec::with_capacity(modes.len() + 1);
    for (s, d) in modes {
        if d < extent {
            let (bs, bd) = below.unwrap_or((1, 0));
            return Err(LayoutError::ComplementOverlap {
                layout: layout.to_string(),
                shape: s,
                stride: d,
                extent,
                below: format!("{bs}:{bd}"),
            });
        }
        if d % extent != 0 {
            if exact {
                return Err(LayoutError::ComplementNotExact { layout: layout.to_string(), stride: d, extent });
            }
            weak = weak.or(Some((d, extent)));
        }
        out.push((d / extent, extent));
        extent = checked::mul(s, d)?;
        below = Some((s, d));
    }
    out.push((checked::ceil_div(cotarget, extent), extent));
    Ok(Construction { holes: Layout::from_flat(&out)?, sorted: modes_sorted, weak })
}

/// CuTe's post-condition `cosize((L, L*)) ≥ cotarget`: it holds for an exact complement; a
/// weak one can fall short (`complement((3,2):(1,4), 24) = 3:8` ends at offset 22). Compared
/// as `cosize(L*) < cotarget - max(L)`, which cannot overflow (both sides are non-negative
/// below `cotarget`), where the sum can though the complement fits
/// (`complement(4:1, 2^63 - 1) = 2305843009213693952:4`).
fn weak_reach_short(modes: &[(i64, i64)], c: &Layout, cotarget: i64) -> Result<bool> {
    Ok(c.cosize()? < cotarget - max_offset(modes)?)
}

fn max_offset(modes: &[(i64, i64)]) -> Result<i64> {
    modes.iter().try_fold(0i64, |acc, &(s, d)| checked::add(acc, checked::mul(s - 1, d)?))
}
