//! Complement (paper §3.5): the layout that generates the offsets L misses, in order.

use crate::checked;
use crate::coalesce::{coalesce, merge_modes};
use crate::error::{LayoutError, Result};
use crate::layout::Layout;

/// `complement(L, cotarget)`: for the modes of `filter(L)` sorted by stride, a "hole" mode
/// `d_i/c : c` before each (c = the extent covered so far), then a "rest" mode
/// `⌈cotarget/c⌉ : c`; coalesced (so a bijection's complement prints `1:0`).
///
/// Requires non-negative strides, `cotarget ≥ 1`, an injective `filter(L)` (no mode may start
/// inside the extent covered by the smaller strides) and an exact chain: every stride a
/// multiple of that extent, so that `(L, L*)` tiles a contiguous range. CuTe C++ accepts the
/// inexact ("weak") case and returns a complement after which products and divides skip
/// offsets; we reject it.
pub fn complement(layout: &Layout, cotarget: i64) -> Result<Layout> {
    Ok(coalesce(&complement_modes(layout, cotarget)?))
}

/// `complement(L)` with the cotarget `cosize(L)` (CuTe C++'s default).
pub fn complement_default(layout: &Layout) -> Result<Layout> {
    complement(layout, layout.cosize()?)
}

/// The un-coalesced complement `(holes…, rest)`; its trailing rest mode is what keeps the
/// complement disjoint from L on the extended domain (the paper's Table 7 form).
pub fn complement_modes(layout: &Layout, cotarget: i64) -> Result<Layout> {
    layout.require_non_negative("complement")?;
    if cotarget < 1 {
        return Err(LayoutError::CotargetNotPositive { cotarget });
    }
    let kept: Vec<(i64, i64)> = layout.flat_modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    let mut modes = merge_modes(&kept, false);
    modes.sort_by_key(|&(s, d)| (d, s));
    let mut extent = 1i64;
    let mut out = Vec::with_capacity(modes.len() + 1);
    for (s, d) in modes {
        if d < extent {
            return Err(LayoutError::ComplementNotInjective {
                layout: layout.to_string(),
                shape: s,
                stride: d,
                extent,
            });
        }
        if d % extent != 0 {
            return Err(LayoutError::ComplementNotExact { layout: layout.to_string(), stride: d, extent });
        }
        out.push((d / extent, extent));
        extent = checked::mul(s, d)?;
    }
    out.push((checked::ceil_div(cotarget, extent), extent));
    Layout::from_flat(&out)
}
