//! Complement (paper §3.5): the layout that generates the offsets L misses, in order.

use crate::checked;
use crate::coalesce::{coalesce, merge_modes};
use crate::error::{LayoutError, Result};
use crate::layout::Layout;

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
pub fn complement(layout: &Layout, cotarget: i64) -> Result<Layout> {
    Ok(coalesce(&complement_modes(layout, cotarget)?))
}

/// [`complement`], rejecting the weak case with [`LayoutError::ComplementNotExact`]: every
/// stride a multiple of the extent the smaller modes cover, so that `(L, L*)` tiles a
/// contiguous range (what a divide needs).
pub fn complement_exact(layout: &Layout, cotarget: i64) -> Result<Layout> {
    Ok(coalesce(&complement_checked(layout, cotarget, true)?))
}

/// [`complement`] without the cotarget post-condition: what a product builds its copies of A
/// from (it checks that the copies are disjoint instead, which is what it promises).
pub(crate) fn complement_for_product(layout: &Layout, cotarget: i64) -> Result<Layout> {
    Ok(coalesce(&complement_construct(layout, cotarget, false)?.0))
}

/// `complement(L)` with the cotarget `cosize(L)` (CuTe C++'s default).
pub fn complement_default(layout: &Layout) -> Result<Layout> {
    complement(layout, layout.cosize()?)
}

/// The un-coalesced complement `(holes…, rest)`; its trailing rest mode is what keeps the
/// complement disjoint from L on the extended domain (the paper's Table 7 form).
pub fn complement_modes(layout: &Layout, cotarget: i64) -> Result<Layout> {
    complement_checked(layout, cotarget, false)
}

/// Whether `complement(L, ·)` is exact: the first stride that is not a multiple of the extent
/// below it, as `(stride, extent)`; `None` when exact (or when the complement is rejected).
pub fn complement_weak_at(layout: &Layout) -> Option<(i64, i64)> {
    match complement_checked(layout, 1, true) {
        Err(LayoutError::ComplementNotExact { stride, extent, .. }) => Some((stride, extent)),
        _ => None,
    }
}

fn complement_checked(layout: &Layout, cotarget: i64, exact: bool) -> Result<Layout> {
    let (c, modes_sorted) = complement_construct(layout, cotarget, exact)?;
    if weak_reach_short(&modes_sorted, &c, cotarget)? {
        let last = checked::add(max_offset(&modes_sorted)?, c.cosize()? - 1)?;
        return Err(LayoutError::ComplementShort { layout: layout.to_string(), cotarget, last });
    }
    Ok(c)
}

/// The construction: the un-coalesced complement and the sorted, merged modes of filter(L).
fn complement_construct(layout: &Layout, cotarget: i64, exact: bool) -> Result<(Layout, Vec<(i64, i64)>)> {
    layout.require_non_negative("complement")?;
    if cotarget < 1 {
        return Err(LayoutError::CotargetNotPositive { cotarget });
    }
    let kept: Vec<(i64, i64)> = layout.flat_modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    let mut modes = merge_modes(&kept, false);
    modes.sort_by_key(|&(s, d)| (d, s));
    let modes_sorted = modes.clone();
    let mut extent = 1i64;
    let mut below: Option<(i64, i64)> = None;
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
        if exact && d % extent != 0 {
            return Err(LayoutError::ComplementNotExact { layout: layout.to_string(), stride: d, extent });
        }
        out.push((d / extent, extent));
        extent = checked::mul(s, d)?;
        below = Some((s, d));
    }
    out.push((checked::ceil_div(cotarget, extent), extent));
    Ok((Layout::from_flat(&out)?, modes_sorted))
}

/// CuTe's post-condition `cosize((L, L*)) ≥ cotarget`: it holds for an exact complement; a
/// weak one can fall short (`complement((3,2):(1,4), 24) = 3:8` ends at offset 22).
fn weak_reach_short(modes: &[(i64, i64)], c: &Layout, cotarget: i64) -> Result<bool> {
    Ok(checked::add(max_offset(modes)?, c.cosize()?)? < cotarget)
}

fn max_offset(modes: &[(i64, i64)]) -> Result<i64> {
    modes.iter().try_fold(0i64, |acc, &(s, d)| checked::add(acc, checked::mul(s - 1, d)?))
}
