//! Edges: tiling a dynamic extent by a static tile that need not divide it (CuTe's
//! `local_tile` with residues, issue 10 item 4). `local_tile_edge(A, [t0:1, t1:1, …])` makes
//! no divisibility condition: along mode i there are `⌈n_i/t_i⌉` tiles, and tile k holds the
//! `min(t_i, n_i - t_i·k_i)` elements that exist along each mode (a `_` entry is the whole
//! mode, `t_i = n_i`, as in `local_tile`). Every tile, the edge tiles
//! included, is the strided layout `(e_0, e_1, …):(d_0, d_1, …)` at the offset `Σ t_i·k_i·d_i`
//! of A, where `n_i:d_i` is mode i of A coalesced to one leaf; the full tile (`e_i = t_i`) is
//! `local_tile(A, T)` when every `t_i` divides `n_i`.
//!
//! ```
//! use layout_core::dynamic::{evaluate_dynamic, local_tile_edge};
//! use layout_core::parse_tiler;
//! let a = evaluate_dynamic("(M,N):(1,LD)").unwrap();
//! let e = local_tile_edge(&a, &parse_tiler("[8:1,8:1]").unwrap()).unwrap();
//! assert_eq!(e.to_string(), "local_tile_edge((M,N):(1,LD), [8:1,8:1]): tiles (8,8):(1,LD), ceil(M/8) x ceil(N/8) of them");
//! let v = |s: &str| match s { "M" => Some(20), "N" => Some(8), "LD" => Some(32), _ => None };
//! let g = e.substitute(&v).unwrap();
//! assert_eq!(g.grid(), [3, 1]);
//! assert_eq!(g.tile_extent(2), [4, 8]);   // rows 16..20 of the last tile
//! assert_eq!(g.tile_base(2), 16);
//! assert_eq!(g.tile(2).to_string(), "(4,8):(1,32)");
//! ```

use std::fmt;

use super::layout::DynLayout;
use super::solve::operand;
use super::symint::SymInt;
use super::{DynError, DynamicError};
use crate::layout::Layout;
use crate::tiler::Tiler;

/// One mode of an edge tiling: A's mode `extent:stride` (coalesced to one leaf) and the
/// static tile extent along it (`None` for a mode the tiler leaves `_`: as in `local_tile`,
/// the whole mode is the tile's, one tile along it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeMode {
    /// The extent of A's mode.
    pub extent: SymInt,
    /// The stride of A's mode.
    pub stride: SymInt,
    /// The static tile extent along the mode; `None` where the tiler leaves `_` (the tile
    /// extent is the mode's extent).
    pub tile: Option<i64>,
}

/// `local_tile_edge(A, T)`: the tiles of A by T, the last ones along each mode partial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeTiles {
    /// A, with its conditions and symbols (the constructor checks A).
    pub layout: DynLayout,
    /// The tiler as written, for messages.
    pub tiler: String,
    /// One entry per mode of A, in order.
    pub modes: Vec<EdgeMode>,
}

/// `local_tile_edge(A, T)` for a tiler `[t0:1, t1:1, …]` (an entry may be `_`: the whole
/// mode, as in `local_tile`; a mode past the tiler is tiled by `1:1`, as in `local_tile`; a
/// rank-1 A may take `t:1`), over a layout whose modes coalesce to one leaf each with a
/// non-negative stride.
pub fn local_tile_edge(a: &DynLayout, t: &Tiler) -> Result<EdgeTiles, DynError> {
    let entries: Vec<Option<Tiler>> = match t {
        Tiler::Layout(_) if a.rank() == 1 => vec![Some(t.clone())],
        Tiler::Layout(_) => {
            return Err(DynError::Other(format!(
                "local_tile_edge takes a tiler by mode, `[t0:1, t1:1, …]`, for the rank-{} layout `{a}`",
                a.rank()
            )));
        }
        Tiler::Modes(m) => m.clone(),
    };
    if entries.len() > a.rank() {
        return Err(DynError::Other(format!(
            "local_tile_edge: the tiler `{t}` has {} modes but `{a}` has rank {}",
            entries.len(),
            a.rank()
        )));
    }
    let mut modes = Vec::new();
    for (i, mode) in a.modes().iter().enumerate() {
        let c = mode.coalesce().flat_modes();
        let (extent, stride) = match c.as_slice() {
            [] => (SymInt::int(1), SymInt::int(0)),
            [(s, d)] => (s.clone(), d.clone()),
            _ => {
                return Err(DynError::Other(format!(
                    "local_tile_edge: mode {i} of `{a}`, `{mode}`, does not coalesce to one extent and stride; an edge \
                     tile needs each mode to be `n:d`"
                )));
            }
        };
        if stride.is_negative() {
            return Err(DynError::Other(format!(
                "local_tile_edge: mode {i} of `{a}` has the negative stride {stride}; edge tiles need non-negative strides"
            )));
        }
        let tile = match entries.get(i) {
            None => Some(1),
            Some(None) => None,
            Some(Some(Tiler::Layout(b))) => match b.flat_modes().as_slice() {
                [(t, 1)] => Some(*t),
                _ => {
                    return Err(DynError::Other(format!(
                        "local_tile_edge: the tile `{b}` of mode {i} is not `t:1`; an edge tile is a contiguous run of t \
                         elements along each mode"
                    )));
                }
            },
            Some(Some(other)) => {
                return Err(DynError::Other(format!(
                    "local_tile_edge: the tile `{other}` of mode {i} is not `t:1` (nested tilers are not supported)"
                )));
            }
        };
        modes.push(EdgeMode { extent, stride, tile });
    }
    Ok(EdgeTiles { layout: a.clone(), tiler: t.to_string(), modes })
}

impl EdgeTiles {
    /// The full tile `(t_0, t_1, …):(d_0, d_1, …)`.
    pub fn full_tile(&self) -> DynLayout {
        let parts = self
            .modes
            .iter()
            .map(|m| {
                let e = m.tile.map_or_else(|| m.extent.clone(), SymInt::int);
                let mut l = self.layout.clone();
                l.shape = super::SymTuple::Leaf(e);
                l.stride = super::SymTuple::Leaf(m.stride.clone());
                l
            })
            .collect::<Vec<_>>();
        match parts.len() {
            1 => parts.into_iter().next().unwrap_or_else(|| self.layout.clone()),
            _ => DynLayout::concat(parts),
        }
    }

    /// With numbers for the symbols: checks A (positivity, conditions, overflow) and gives
    /// the tiles.
    pub fn substitute(&self, value: &dyn Fn(&str) -> Option<i64>) -> Result<EdgeGrid, DynamicError> {
        let a = self.layout.substitute(value)?;
        let overflow = || DynamicError::Overflow { layout: self.layout.to_string().into(), values: String::new() };
        let modes = self
            .modes
            .iter()
            .map(|m| {
                let n = m.extent.eval_int(value).ok_or_else(overflow)?;
                let d = m.stride.eval_int(value).ok_or_else(overflow)?;
                Ok((n, d, m.tile.unwrap_or(n)))
            })
            .collect::<Result<Vec<_>, DynamicError>>()?;
        Ok(EdgeGrid { layout: a, modes })
    }
}

impl fmt::Display for EdgeTiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self
            .modes
            .iter()
            .map(|m| match (m.extent.as_int(), m.tile) {
                (_, None) => "1".to_string(),
                (Some(n), Some(t)) => tiles_along(n, t).to_string(),
                (None, Some(1)) => m.extent.to_string(),
                (None, Some(t)) => format!("ceil({}/{t})", operand(&m.extent)),
            })
            .collect();
        write!(
            f,
            "local_tile_edge({}, {}): tiles {}, {} of them",
            self.layout,
            self.tiler,
            self.full_tile(),
            counts.join(" x ")
        )
    }
}

/// `⌈n/t⌉` for `n, t >= 1`, without the overflow of `n + t - 1`.
fn tiles_along(n: i64, t: i64) -> i64 {
    (n - 1) / t + 1
}

/// An edge tiling with the numbers in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeGrid {
    /// A with the numbers in.
    pub layout: Layout,
    /// Per mode `(n, d, t)`: extent, stride, tile extent.
    pub modes: Vec<(i64, i64, i64)>,
}

impl EdgeGrid {
    /// The number of tiles along each mode, `⌈n_i/t_i⌉`.
    pub fn grid(&self) -> Vec<i64> {
        self.modes.iter().map(|&(n, _, t)| tiles_along(n, t)).collect()
    }

    /// The number of tiles.
    pub fn count(&self) -> i64 {
        self.grid().iter().product()
    }

    /// The grid coordinate of tile k (colexicographic).
    pub fn tile_coord(&self, k: i64) -> Vec<i64> {
        let mut k = k;
        self.grid()
            .iter()
            .map(|&g| {
                let c = k % g;
                k /= g;
                c
            })
            .collect()
    }

    /// How many elements of tile k exist along each mode.
    pub fn tile_extent(&self, k: i64) -> Vec<i64> {
        self.tile_coord(k).iter().zip(&self.modes).map(|(&c, &(n, _, t))| t.min(n - t * c)).collect()
    }

    /// The offset in A of tile k's first element.
    pub fn tile_base(&self, k: i64) -> i64 {
        self.tile_coord(k).iter().zip(&self.modes).map(|(&c, &(_, d, t))| c * t * d).sum()
    }

    /// The elements of tile k that exist, as a layout (offsets relative to the tile base).
    pub fn tile(&self, k: i64) -> Layout {
        let modes: Vec<(i64, i64)> =
            self.tile_extent(k).iter().zip(&self.modes).map(|(&e, &(_, d, _))| (e, d)).collect();
        Layout::from_flat(&modes).unwrap_or_else(|_| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
}
