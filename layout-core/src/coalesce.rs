//! Coalesce and filter (paper §3.2).

use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::semimodule::Semimodule;
use crate::tiler::by_mode;

/// Merges flat `(shape, stride)` modes, strides in any semimodule: drops size-1 modes and
/// joins neighbours `s0:d0 ++ s1:d1` into `(s0·s1):d0` when `d1 = s0·d0`. With `keep_last`, a
/// trailing size-1 mode that cannot merge is kept so that the extended function (last mode
/// unbounded) is preserved too. The one implementation of coalescing, for every layout kind.
pub(crate) fn merge_modes<S: Semimodule>(modes: &[(i64, S)], keep_last: bool) -> Vec<(i64, S)> {
    let mut out: Vec<(i64, S)> = Vec::new();
    for (s, d) in modes {
        if *s == 1 {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1.continues(last.0, d) => last.0 *= s,
            _ => out.push((*s, d.clone())),
        }
    }
    if let (true, Some((1, d))) = (keep_last, modes.last()) {
        let extends = out.last().is_some_and(|(s0, d0)| d0.continues(*s0, d));
        if !extends && (!d.is_zero() || !out.is_empty()) {
            out.push((1, d.clone()));
        }
    }
    out
}

/// `coalesce(L)`: the same function on `[0, |L|)` with minimal rank and depth ≤ 1: flatten,
/// drop size-1 modes, merge `s0:d0 ++ s1:d1` into `(s0·s1):d0` when `d1 = s0·d0`.
/// An empty result is `1:0`; a single mode prints as a scalar layout. Always admissible.
///
/// ```
/// use layout_core::{coalesce, parse_layout};
/// let l = parse_layout("((2,4),3):((1,2),8)")?;
/// assert_eq!(coalesce(&l).to_string(), "24:1");           // one contiguous run
/// let l = parse_layout("(4,(1,3)):(2,(7,8))")?;
/// assert_eq!(coalesce(&l).to_string(), "12:2");           // the size-1 mode goes
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn coalesce(layout: &Layout) -> Layout {
    Layout::from_flat(&merge_modes(&layout.flat_modes(), false)).unwrap_or_else(|_| layout.clone())
}

/// Coalesce that also preserves the extended function (the last mode unbounded): a trailing
/// size-1 mode whose stride does not continue the last merged mode is kept (PyCuTe's
/// `coalesce_z`, CuTe C++'s `coalesce_x`).
pub fn coalesce_extended(layout: &Layout) -> Layout {
    Layout::from_flat(&merge_modes(&layout.flat_modes(), true)).unwrap_or_else(|_| layout.clone())
}

/// `coalesce(L, profile)`: coalesces mode by mode following `profile`'s tuple structure (its
/// leaf values are ignored); modes past the profile's rank are left alone.
/// Requires `rank(profile) ≤ rank(L)`.
pub fn coalesce_by_mode(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    let IntTuple::Tuple(children) = profile else {
        return Ok(coalesce(layout));
    };
    by_mode(Operation::Coalesce, layout, children.len(), profile, "profile", |mode, i| {
        coalesce_by_mode(mode, &children[i])
    })
}

/// `filter(L)`: drops stride-0 and size-1 modes, then coalesces (`1:0` when nothing is left).
///
/// ```
/// use layout_core::{filter, parse_layout};
/// assert_eq!(filter(&parse_layout("(4,2,3):(1,0,4)")?).to_string(), "12:1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn filter(layout: &Layout) -> Layout {
    let kept: Vec<(i64, i64)> = layout.flat_modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    Layout::from_flat(&merge_modes(&kept, false)).unwrap_or_else(|_| layout.clone())
}

/// `filter(L, profile)`: filter mode by mode following `profile`.
pub fn filter_by_mode(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    let IntTuple::Tuple(children) = profile else {
        return Ok(filter(layout));
    };
    by_mode(Operation::Filter, layout, children.len(), profile, "profile", |mode, i| filter_by_mode(mode, &children[i]))
}
