//! Layout constructors of CuTe C++: ordered compact layouts, tiling a block up to a shape,
//! re-shaping.

use crate::checked;
use crate::composition::composition;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::product::{blocked_product, pad};

/// `make_ordered_layout(shape, order)`: the compact layout whose modes are laid out in
/// increasing `order` (ties left to right); a leaf of `order` may stand for a sub-shape,
/// which is then column-major; size-1 modes get stride 0 (as CuTe C++ prints them). Requires `order` weakly congruent to `shape`.
///
/// ```
/// use layout_core::{make_ordered_layout, parse_int_tuple};
/// // Mode 1 innermost, then mode 0, then mode 2.
/// let l = make_ordered_layout(&parse_int_tuple("(4,8,2)")?, &parse_int_tuple("(1,0,2)")?)?;
/// assert_eq!(l.to_string(), "(4,8,2):(8,1,32)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
    if !order.weakly_congruent(shape) {
        return Err(LayoutError::OrderProfile { shape: shape.to_string(), order: order.to_string() });
    }
    let mut groups = Vec::new();
    collect_groups(shape, order, &mut groups);
    let mut by_order: Vec<usize> = (0..groups.len()).collect();
    by_order.sort_by_key(|&g| (groups[g].0, g));
    let mut start = vec![0i64; groups.len()];
    let mut acc = 1i64;
    for g in by_order {
        start[g] = acc;
        acc = checked::mul(acc, groups[g].1.product()?)?;
    }
    let mut starts = start.into_iter();
    let stride = build_strides(shape, order, &mut starts)?;
    Layout::new(shape.clone(), stride)
}

fn collect_groups(shape: &IntTuple, order: &IntTuple, out: &mut Vec<(i64, IntTuple)>) {
    match (shape, order) {
        (IntTuple::Tuple(s), IntTuple::Tuple(o)) => s.iter().zip(o).for_each(|(s, o)| collect_groups(s, o, out)),
        (s, o) => out.push((o.as_int().unwrap_or(0), s.clone())),
    }
}

fn build_strides(shape: &IntTuple, order: &IntTuple, starts: &mut impl Iterator<Item = i64>) -> Result<IntTuple> {
    match (shape, order) {
        (IntTuple::Tuple(s), IntTuple::Tuple(o)) => {
            Ok(IntTuple::Tuple(s.iter().zip(o).map(|(s, o)| build_strides(s, o, starts)).collect::<Result<_>>()?))
        }
        (s, _) => {
            let mut acc = starts.next().unwrap_or(1);
            let mut f = |x: i64| {
                let v = if x == 1 { 0 } else { acc };
                acc = acc.saturating_mul(x);
                v
            };
            Ok(s.map_leaves(&mut f))
        }
    }
}

/// `make_layout_like(L)`: the compact layout of L's shape whose modes are ordered like L's
/// strides (stride-0 modes stay broadcast).
pub fn make_layout_like(layout: &Layout) -> Result<Layout> {
    let compact = make_ordered_layout(layout.shape(), layout.stride())?;
    let mut zero = layout.stride().leaves().into_iter().map(|d| d == 0);
    let stride = compact.stride().map_leaves(&mut |d| if zero.next().unwrap_or(false) { 0 } else { d });
    Layout::new(layout.shape().clone(), stride)
}

/// `tile_to_shape(block, shape)`: repeats `block` (padded to the shape's rank) column-major
/// until each mode has the target's size: `blocked_product(block, column-major repeats)`.
/// Requires `rank(block) ≤ rank(shape)` and each block mode size to divide the target's.
///
/// ```
/// use layout_core::{parse_int_tuple, parse_layout, tile_to_shape};
/// let l = tile_to_shape(&parse_layout("(2,2):(1,2)")?, &parse_int_tuple("(8,4)")?)?;
/// assert_eq!(l.to_string(), "((2,4),(2,2)):((1,4),(2,16))");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn tile_to_shape(block: &Layout, shape: &IntTuple) -> Result<Layout> {
    let r = shape.rank();
    if block.rank() > r {
        return Err(LayoutError::TileRank {
            block: block.to_string(),
            block_rank: block.rank(),
            shape: shape.to_string(),
            rank: r,
        });
    }
    let padded = pad(block, r)?;
    let mut reps = Vec::with_capacity(r);
    for (i, (m, t)) in padded.modes().iter().zip(shape.modes()).enumerate() {
        let target = t.product()?;
        if target % m.size() != 0 {
            return Err(LayoutError::TileDoesNotDivide {
                block: block.to_string(),
                shape: shape.to_string(),
                mode: i,
                block_size: m.size(),
                target,
            });
        }
        reps.push(IntTuple::Int(target / m.size()));
    }
    let reps = if shape.is_int() { reps.remove(0) } else { IntTuple::Tuple(reps) };
    // CuTe's compact column-major layout gives size-1 modes the stride 0.
    let grid = make_ordered_layout(&reps, &reps.map_leaves(&mut |_| 0))?;
    blocked_product(&padded, &grid)
}

/// `with_shape(L, shape)` = `L ∘ make_layout(shape)`: L re-read through a column-major shape
/// of the same size.
pub fn with_shape(layout: &Layout, shape: &IntTuple) -> Result<Layout> {
    let target = Layout::column_major(shape.clone())?;
    if target.size() != layout.size() {
        return Err(LayoutError::WithShapeSize {
            layout: layout.to_string(),
            shape: shape.to_string(),
            shape_size: target.size(),
            size: layout.size(),
        });
    }
    composition(layout, &target)
}
