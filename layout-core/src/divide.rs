//! Divides (paper §3.5.2): `A ⊘ B = A ∘ (B, complement(B, |A|))`, mode 0 the tile, mode 1
//! the rest; and the zipped / tiled / flat rearrangements of CuTe C++.

use crate::complement::complement_exact;
use crate::composition::composition;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::tiler::{Tiler, apply_by_mode};
use crate::trace::{self, Role};
use crate::unzip::{flat_unpack, hier_unzip, tiled_unpack};

/// `logical_divide(A, B)` for a layout tiler: `A ∘ B★` with `B★ = (B, complement(B, |A|))`.
/// Requires `B★` to be a bijection onto `[0, |A|)` (docs/algebra.md §3.3): B injective, its complement
/// exact, and no element past `|A|` (a tiler that does not divide A would overrun it).
///
/// ```
/// use layout_core::{logical_divide, parse_layout};
/// // Tiles of 4 elements at stride 2 over 16: mode 0 a tile, mode 1 which tile.
/// let r = logical_divide(&parse_layout("16:1")?, &parse_layout("4:2")?)?;
/// assert_eq!(r.to_string(), "(4,(2,2)):(2,(1,8))");
/// // 5 does not divide 24: the last tile would overrun A.
/// assert!(logical_divide(&parse_layout("24:1")?, &parse_layout("5:1")?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn logical_divide(a: &Layout, b: &Layout) -> Result<Layout> {
    divide_by(a, b, Operation::LogicalDivide, true)
}

/// `A ∘ (B, complement(B, |A|))`. `exact` demands that `(B, complement)` be a bijection onto
/// `[0, |A|)`; otherwise (CuTe C++'s ceil-div tiles) the last tile may reach past A's domain,
/// where A's extension (last mode unbounded) gives the values. Traced as `op`.
fn divide_by(a: &Layout, b: &Layout, op: Operation, exact: bool) -> Result<Layout> {
    trace::operation(op, &[("A", a), ("B", b)], || {
        let n = a.size();
        let not_bijective =
            |reason: String| LayoutError::TilerNotBijective { op, tiler: b.to_string(), layout: a.to_string(), reason };
        // A weak complement never gives a bijection onto [0, |A|) (docs/algebra.md §3.9).
        let c = complement_exact(b, n).map_err(|e| not_bijective(e.to_string()))?;
        let star = Layout::concat([b.clone(), c])?;
        trace::built(|| Role::Star, &star);
        if exact {
            if let Some(&(s, _)) = b.flat_modes().iter().find(|&&(s, d)| d == 0 && s > 1) {
                return Err(not_bijective(format!("its broadcast mode of extent {s} (stride 0) repeats tiles")));
            }
            if star.size() != n {
                trace::note(|| format!("B★ has {} elements, not |A| = {n}", star.size()));
                return Err(LayoutError::TilerOverrun {
                    op,
                    tiler: b.to_string(),
                    layout: a.to_string(),
                    size: n,
                    star_size: star.size(),
                    overrun: star.size() - n,
                });
            }
        }
        trace::note(|| match star.size().cmp(&n) {
            std::cmp::Ordering::Equal => format!("B★ is a bijection onto [0, {n}); A ⊘ B = A ∘ B★"),
            _ => format!("B★ reaches past |A| = {n} (ceil-div tiles); A ⊘ B = A ∘ B★"),
        });
        composition(a, &star)
    })
}

/// `logical_divide(A, T)` for any tiler: by mode for `[T0, T1, …]`; `_` keeps a mode as it is
/// (CuTe C++'s `logical_divide(layout, _)`), which is the whole mode as its tile:
/// `logical_divide((16,48):(1,16), [8:1,_]) = ((8,2),48):((1,8),16)`.
///
/// ```
/// use layout_core::{logical_divide_tiler, parse_layout, parse_tiler};
/// let a = parse_layout("(8,8):(1,8)")?;
/// let r = logical_divide_tiler(&a, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "((4,2),(2,4)):((1,4),(8,16))");   // 4x2 tiles, 2x4 of them
/// let r = logical_divide_tiler(&parse_layout("(16,48):(1,16)")?, &parse_tiler("[8:1,_]")?)?;
/// assert_eq!(r.to_string(), "((8,2),48):((1,8),16)");           // `_` keeps mode 1 whole
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn logical_divide_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    apply_by_mode(Operation::LogicalDivide, a, t, &logical_divide)
}

/// `zipped_divide(A, T)`: `((tiles…), (rests…, untiled modes…))`. A `_` entry is the whole
/// mode as its tile, with a rest of 1, as the tiler `n:1` for a mode of size n would be:
/// `zipped_divide((16,48):(1,16), [8:1,_]) = ((8,48),(2,1)):((1,16),(8,0))` (pycute puts the
/// mode in the rest instead). Modes past a short tiler go to the rest.
///
/// ```
/// use layout_core::{parse_layout, parse_tiler, zipped_divide};
/// let r = zipped_divide(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "((4,2),(2,4)):((1,8),(4,16))");    // (tile, which tile)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn zipped_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::ZippedDivide, a, t, || hier_unzip(a, t, &logical_divide))
}

/// `local_tile(A, T)`: mode 0 of `zipped_divide(A, T)`, the layout of one tile (CuTe's
/// `local_tile` without the tile coordinate: the tile at coordinate k is this layout at the
/// offset `local_partition`'s complement gives, mode 1 of the zipped divide at k). A `_`
/// entry keeps the whole mode in the tile: `local_tile((16,48):(1,16), [8:1,_]) =
/// (8,48):(1,16)`, a block of 8 full rows (2 tiles), as with `[8:1,48:1]`. (CuTe C++ writes
/// the free mode in the coordinate instead, `local_tile(A, tiler, (k, _))`.)
///
/// ```
/// use layout_core::{local_tile, parse_layout, parse_tiler};
/// let r = local_tile(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "(4,2):(1,8)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn local_tile(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::LocalTile, a, t, || zipped_divide(a, t)?.mode(0))
}

/// `local_partition(A, T)`: mode 1 of `zipped_divide(A, T)`, the elements one position of the
/// tile owns across all tiles (CuTe's `outer_partition`); the partition of position k is
/// this layout at the offset mode 0 of the zipped divide gives at k. A `_` mode belongs to the
/// tile, so it contributes a mode of size 1 here.
///
/// ```
/// use layout_core::{local_partition, parse_layout, parse_tiler};
/// // What position 0 of a 4x2 tile owns across the 2x4 tiles.
/// let r = local_partition(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "(2,4):(4,16)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn local_partition(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::LocalPartition, a, t, || zipped_divide(a, t)?.mode(1))
}

/// `tiled_divide(A, T)`: `((tiles…), rest_0, rest_1, …)` (`_` as in [`zipped_divide`]: the
/// whole mode in the tile, its rest 1).
///
/// ```
/// use layout_core::{parse_layout, parse_tiler, tiled_divide};
/// let r = tiled_divide(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "((4,2),2,4):((1,8),4,16)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tiled_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    trace::with_tiler(Operation::TiledDivide, a, t, || tiled_unpack(&zipped_divide(a, t)?))
}

/// `flat_divide(A, T)`: `(tile_0, …, rest_0, …)`, both modes of the zipped divide unpacked
/// (`_` as in [`zipped_divide`]).
/// As in CuTe C++, a tiler need not divide A: the last tile may reach past A's domain
/// (ceil-div tiles, values from A's extension), and B may broadcast (stride-0 modes); `filter(B)`
/// must still be injective with an exact complement and every composition admissible.
///
/// ```
/// use layout_core::{flat_divide, parse_layout, parse_tiler};
/// let r = flat_divide(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
/// assert_eq!(r.to_string(), "(4,2,2,4):(1,8,4,16)");
/// // A tiler that does not divide: three tiles of 4 over 10, the last one past A.
/// assert_eq!(flat_divide(&parse_layout("10:1")?, &parse_tiler("4:1")?)?.to_string(), "(4,3):(1,4)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn flat_divide(a: &Layout, t: &Tiler) -> Result<Layout> {
    let ceil_div_tiles = |a: &Layout, b: &Layout| divide_by(a, b, Operation::FlatDivide, false);
    trace::with_tiler(Operation::FlatDivide, a, t, || flat_unpack(&hier_unzip(a, t, &ceil_div_tiles)?))
}
