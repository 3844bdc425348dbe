//! The rearrangements shared by divides and products: `hier_unzip` gathers the by-mode
//! results `((A,a),(B,b))` into `((A,B),(a,b))`; the tiled and flat forms unpack them.

use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::trace::{self, Role};

/// Applies a rank-2 `splitter` (logical divide or product) mode by mode and zips the
/// results: `((first parts…), (second parts…, untiled modes…))`. A `_` entry keeps its mode
/// whole in the first part, as the whole mode for its tile: it contributes `(A_i, 1:0)`, so
/// `[8:1, _]` gives what `[8:1, n:1]` gives for a mode of size n (`logical_divide` keeps
/// such a mode as it is, as CuTe C++ does; pycute 4.2 instead puts it in the second part).
/// Modes past the tiler join the second part, as in CuTe C++ and pycute.
pub(crate) fn hier_unzip(
    a: &Layout,
    t: &Tiler,
    splitter: &dyn Fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<Layout> {
    let m = match t {
        Tiler::Layout(b) => return splitter(a, b),
        Tiler::Modes(m) => m,
    };
    let modes = a.modes();
    if m.len() > modes.len() {
        return Err(LayoutError::too_many_modes("tiler", t, m.len(), a, modes.len()));
    }
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for (i, (ai, ti)) in modes.iter().zip(m).enumerate() {
        let split = match ti {
            Some(ti) => hier_unzip(ai, ti, splitter)?,
            None => {
                trace::note(|| format!("mode {i} ({ai}): `_` keeps it whole, as its own tile"));
                Layout::concat([ai.clone(), Layout::scalar(1, 0)?])?
            }
        };
        trace::built(|| Role::Split(i), &split);
        first.push(split.mode(0)?);
        second.push(split.mode(1)?);
    }
    if m.len() < modes.len() {
        trace::note(|| format!("modes {}.. are not tiled: they join the second mode as they are", m.len()));
    }
    second.extend(modes[m.len()..].iter().cloned());
    Layout::concat([Layout::concat(first)?, Layout::concat(second)?])
}

/// `((tiles…), rest_0, rest_1, …)` from a zipped result (pycute's `tiled_divide`).
pub(crate) fn tiled_unpack(zipped: &Layout) -> Result<Layout> {
    let modes = zipped.modes();
    let mut out = vec![modes[0].clone()];
    out.extend(modes.get(1).map(Layout::modes).unwrap_or_default());
    Layout::concat(out)
}

/// `(tile_0, …, rest_0, …)` from a zipped result, as CuTe C++ slices it with
/// `(repeat<R0>(_), repeat<R1>(_))`: a part of rank 1 is kept whole.
pub(crate) fn flat_unpack(zipped: &Layout) -> Result<Layout> {
    let mut out = Vec::new();
    for part in zipped.modes() {
        if part.rank() == 1 {
            out.push(part);
        } else {
            out.extend(part.modes());
        }
    }
    Layout::concat(out)
}
