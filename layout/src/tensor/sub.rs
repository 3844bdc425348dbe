//! Sub-tensors of tensors over any layout, computed at run time: slicing modes with `_`
//! ([`Tensor::slice`]) and tiling by a tiler ([`Tensor::local_tile`],
//! [`Tensor::local_partition`]), as static items have through
//! [`SubLayout`](crate::SubLayout).
//!
//! The algebra runs once per [`Tiling`]: the sub-layout is the same for every k, and
//! sub-tensor k starts at the offset of the grid layout at k, so a loop over the sub-tensors
//! builds the tiling once and pays `O(rank)` per sub-tensor. The sub-tensor is created with
//! the one check of [`Tensor::with_base`] at the parent's base plus that offset, so the
//! guarantee needs nothing from the algebra: a sub-tensor outside the slice is an error,
//! never an access.
//!
//! A sub-tensor of an empty tensor (an extent 0, which layout-core cannot hold) is computed
//! from the parent's extents: it is empty, or an error when there is none (a slice coordinate
//! in a mode of extent 0, a tile of a tiling with 0 tiles). It addresses no element, so it
//! views the parent's slice at the parent's base.
//!
//! The examples are on [`Tiling`] and in the guide's [tensors](crate::guide::tensors) chapter.

use super::{Tensor, TensorError, TensorMut};
use crate::layout_fn::notation;
use crate::{
    IntTuple, Layout, LayoutError, LayoutFn, RUNTIME_MAX_MODES, RuntimeLayout, SliceCoord, Tiler, TrustedLayout,
};

/// Why a sub-tensor of a run-time tensor cannot be made.
///
/// ```
/// use cute_layout::{SliceCoord, SubTensorError, Tensor, Tiling, layout, parse_tiler};
///
/// layout! { pub Mat = (M,N):(1,LD); }
/// let data = [0u8; 12];
/// let a = Tensor::new(&data, Mat::new(4, 3, 4).unwrap()).unwrap();
/// let e = a.local_tile(&parse_tiler("[3:1,3:1]").unwrap(), 0).unwrap_err();
/// assert!(matches!(e, SubTensorError::Algebra(_)), "{e}");          // 3 does not divide 4
/// let e = a.slice(&SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(3)])).unwrap_err();
/// assert!(matches!(e, SubTensorError::CoordOutOfRange { .. }), "{e}"); // column 3 of 3
/// let tiles = Tiling::local_tile(&a.layout_value(), &parse_tiler("[2:1,3:1]").unwrap()).unwrap();
/// assert!(matches!(a.sub(&tiles, 2), Err(SubTensorError::OutOfRange { k: 2, count: 2, .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SubTensorError {
    /// The algebra rejects the slice or the tiling of the parent's layout.
    #[error("{0}")]
    Algebra(LayoutError),
    /// The sub-tensor index is past the number of sub-tensors.
    #[error("sub-tensor {k} of `{sub}` in `{parent}`: there are {count}")]
    OutOfRange {
        /// The index asked for.
        k: usize,
        /// The number of sub-tensors.
        count: usize,
        /// The sub-layout.
        sub: String,
        /// The parent's layout.
        parent: String,
    },
    /// A fixed entry of the slice coordinate lies outside its mode (layout-core would evaluate
    /// it on the extended domain, outside the parent tensor).
    #[error("the coordinate `{coord}` lies outside the shape of `{parent}`")]
    CoordOutOfRange {
        /// The slice coordinate.
        coord: String,
        /// The parent's layout.
        parent: String,
    },
    /// The sub-layout has more flat modes than a [`RuntimeLayout`] holds, or numbers too large.
    #[error("the sub-layout `{0}` has more than {RUNTIME_MAX_MODES} flat modes or offsets that do not fit in isize")]
    TooLarge(String),
    /// The sub-tensor does not fit the slice (a tiling of another layout).
    #[error("{0}")]
    DoesNotFit(TensorError),
    /// The parent is empty (an extent 0) but the sub-layout has elements: a [`Tiling`] of
    /// another layout (every `Tiling` is made from a layout-core layout, which has no
    /// extent 0), or a parent whose shape does not show its extent 0.
    #[error("the tensor `{parent}` is empty, but the sub-layout `{sub}` has {size} elements")]
    EmptyParent {
        /// The sub-layout.
        sub: String,
        /// Its number of elements.
        size: usize,
        /// The parent's layout (its extents).
        parent: String,
    },
}

/// The sub-tensors of a layout by one operation, computed once: the sub-layout (the same for
/// every sub-tensor) and the grid, whose offset at k is where sub-tensor k starts.
///
/// - [`Tiling::local_tile`]: mode 0 of `zipped_divide(A, T)` over the grid mode 1 (tile k);
/// - [`Tiling::local_partition`]: mode 1 over the grid mode 0 (the elements position k of the
///   tile owns across all tiles);
/// - [`Tiling::slice`]: the free modes of a slice coordinate over the fixed ones, k
///   colexicographic over the fixed modes (the values of the fixed entries are ignored, as
///   in a `slice` item of `layout!`).
///
/// ```
/// use cute_layout::{SliceCoord, Tensor, Tiling, layout, parse_tiler};
///
/// layout! {
///     pub Mat = (M,N):(1,LD);
/// }
/// let data: Vec<u32> = (0..40).collect();
/// let a = Tensor::new(&data, Mat::new(4, 3, 10).unwrap()).unwrap();
/// // Column 2: `(_, 2)`.
/// let col = a.slice(&SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(2)])).unwrap();
/// assert_eq!(col.iter().copied().collect::<Vec<_>>(), [20, 21, 22, 23]);
/// // Every row, the algebra run once: sub-tensor k of `(k, _)` is row k.
/// let rows = Tiling::slice(&a.layout_value(), &SliceCoord::Tuple(vec![SliceCoord::Int(0), SliceCoord::Free])).unwrap();
/// let sums: Vec<u32> = (0..rows.count()).map(|k| a.sub(&rows, k).unwrap().iter().sum()).collect();
/// assert_eq!(sums, [30, 33, 36, 39]);
/// // The 2x3 tiles of the 4x3 matrix; tile 1 holds rows 2..4.
/// let t = parse_tiler("[2:1,3:1]").unwrap();
/// let tile = a.local_tile(&t, 1).unwrap();
/// assert_eq!(tile.iter().copied().collect::<Vec<_>>(), [2, 3, 12, 13, 22, 23]);
/// // A tiler that does not divide the matrix is the algebra's error.
/// assert!(a.local_tile(&parse_tiler("[3:1,3:1]").unwrap(), 0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiling {
    sub: RuntimeLayout,
    grid: RuntimeLayout,
}

impl Tiling {
    /// The tiles of `a` by `t`: tile k is `local_tile(a, t)` at grid index k (a `_` in the
    /// tiler keeps the whole mode in every tile, one tile along it).
    pub fn local_tile(a: &Layout, t: &Tiler) -> Result<Tiling, SubTensorError> {
        let (sub, grid) = divided(a, t)?;
        Tiling::new(&sub, &grid)
    }

    /// The partitions of `a` by `t`: partition k is what tile position k owns.
    pub fn local_partition(a: &Layout, t: &Tiler) -> Result<Tiling, SubTensorError> {
        let (grid, sub) = divided(a, t)?;
        Tiling::new(&sub, &grid)
    }

    /// The sub-tensors of the modes `c` leaves free (`_`), one per coordinate of the fixed
    /// modes (`(0, _)` over a matrix: one per row).
    pub fn slice(a: &Layout, c: &SliceCoord) -> Result<Tiling, SubTensorError> {
        let (sub, _) = crate::slice(a, &zeroed(c)).map_err(SubTensorError::Algebra)?;
        let grid = crate::slice_fixed(a, c).map_err(SubTensorError::Algebra)?;
        Tiling::new(&sub, &grid)
    }

    fn new(sub: &Layout, grid: &Layout) -> Result<Tiling, SubTensorError> {
        let flat = |l: &Layout| RuntimeLayout::from_layout(l).ok_or_else(|| SubTensorError::TooLarge(l.to_string()));
        Ok(Tiling { sub: flat(sub)?, grid: flat(grid)? })
    }

    /// The number of sub-tensors.
    #[inline]
    pub fn count(&self) -> usize {
        self.grid.size()
    }

    /// The layout of every sub-tensor.
    #[inline]
    pub fn layout(&self) -> &RuntimeLayout {
        &self.sub
    }

    /// The offset (relative to the parent's offset 0) at which sub-tensor `k < count()`
    /// starts.
    #[inline]
    pub fn base(&self, k: usize) -> Option<isize> {
        (k < self.count()).then(|| self.grid.offset(k))
    }

    fn position(&self, parent_base: usize, k: usize, parent: impl FnOnce() -> String) -> Result<usize, SubTensorError> {
        let Some(offset) = self.base(k) else {
            let (sub, parent) = (self.sub.to_string(), parent());
            return Err(SubTensorError::OutOfRange { k, count: self.count(), sub, parent });
        };
        let pos = parent_base as i128 + offset as i128;
        usize::try_from(pos).map_err(|_| {
            SubTensorError::DoesNotFit(TensorError::BaseTooSmall {
                layout: self.sub.to_string(),
                min: self.sub.min_offset(),
                max: self.sub.max_offset(),
                base: 0,
            })
        })
    }
}

/// `(mode 0, mode 1)` of `zipped_divide(a, t)`.
fn divided(a: &Layout, t: &Tiler) -> Result<(Layout, Layout), SubTensorError> {
    let z = crate::zipped_divide(a, t).map_err(SubTensorError::Algebra)?;
    Ok((z.mode(0).map_err(SubTensorError::Algebra)?, z.mode(1).map_err(SubTensorError::Algebra)?))
}

/// `c` with every fixed entry 0 (the sub-layout of a slice does not depend on the values).
fn zeroed(c: &SliceCoord) -> SliceCoord {
    match c {
        SliceCoord::Free => SliceCoord::Free,
        SliceCoord::Int(_) => SliceCoord::Int(0),
        SliceCoord::Tuple(cs) => SliceCoord::Tuple(cs.iter().map(zeroed).collect()),
    }
}

/// Whether every fixed entry of `c` is a valid (1-D) coordinate of its mode of `shape`
/// (a profile that does not match is left to the algebra's error).
fn inside(c: &SliceCoord, shape: &crate::IntTuple) -> bool {
    match (c, shape) {
        (SliceCoord::Free, _) => true,
        (SliceCoord::Int(v), s) => s.product().is_ok_and(|n| (0..n).contains(v)),
        (SliceCoord::Tuple(cs), crate::IntTuple::Tuple(ss)) => cs.iter().zip(ss).all(|(c, s)| inside(c, s)),
        (SliceCoord::Tuple(_), crate::IntTuple::Int(_)) => true,
    }
}

/// The slice of `parent` at `c`: its layout and the offset at which it starts.
fn sliced(parent: &Layout, c: &SliceCoord) -> Result<(RuntimeLayout, i64), SubTensorError> {
    if !inside(c, parent.shape()) {
        return Err(SubTensorError::CoordOutOfRange { coord: c.to_string(), parent: parent.to_string() });
    }
    let (sub, base) = crate::slice(parent, c).map_err(SubTensorError::Algebra)?;
    let sub = RuntimeLayout::from_layout(&sub).ok_or_else(|| SubTensorError::TooLarge(sub.to_string()))?;
    Ok((sub, base))
}

/// The position of offset `offset` at `base`, if it is one.
fn shifted(base: usize, offset: i64, sub: &RuntimeLayout) -> Result<usize, SubTensorError> {
    usize::try_from(base as i128 + offset as i128).map_err(|_| {
        SubTensorError::DoesNotFit(TensorError::BaseTooSmall {
            layout: sub.to_string(),
            min: sub.min_offset(),
            max: sub.max_offset(),
            base: 0,
        })
    })
}

/// Flat modes `(extent, stride)`, extents 0 included.
type Leaves = Vec<(i64, i64)>;

/// The run-time layout of the leaves `(extent, stride)`, or [`SubTensorError::TooLarge`].
fn flat(leaves: &[(i64, i64)]) -> Result<RuntimeLayout, SubTensorError> {
    let modes: Option<Vec<(usize, isize)>> =
        leaves.iter().map(|&(e, d)| Some((usize::try_from(e).ok()?, isize::try_from(d).ok()?))).collect();
    modes.and_then(|m| RuntimeLayout::new(&m)).ok_or_else(|| {
        let list = |f: fn(&(i64, i64)) -> i64| leaves.iter().map(|m| f(m).to_string()).collect::<Vec<_>>().join(",");
        SubTensorError::TooLarge(format!("({}):({})", list(|m| m.0), list(|m| m.1)))
    })
}

/// The leaves `(extent, stride)` of modes 0 and 1 of `zipped_divide(A, t)` for a layout `A` of
/// shape `shape` (extents 0 included) whose layout with every extent 0 read as 1 is `planned`,
/// arranged as layout-core's divide arranges them. A mode of extent 0 holds 0 tiles of a
/// tiler's layout: mode 1 gets one mode of extent 0 for it, mode 0 the tiler's shape at
/// stride 0 (a tile that is never addressed); `_` keeps it whole in the tile, one tile along
/// it.
fn empty_divided(shape: &IntTuple, planned: &Layout, t: &Tiler) -> Result<(Leaves, Leaves), SubTensorError> {
    if !shape.leaves().contains(&0) {
        let (tile, rest) = divided(planned, t)?;
        return Ok((tile.flat_modes(), rest.flat_modes()));
    }
    let whole = |s: &IntTuple, p: &Layout| -> Leaves { s.leaves().into_iter().zip(p.stride().leaves()).collect() };
    let m = match t {
        Tiler::Layout(b) => return Ok((b.flat_modes().into_iter().map(|(e, _)| (e, 0)).collect(), vec![(0, 0)])),
        Tiler::Modes(m) => m,
    };
    let (shapes, modes) = (shape.modes(), planned.modes());
    if m.len() > modes.len() {
        let layout = format!("{shape} (empty)");
        let e = LayoutError::TooManyModes {
            what: "tiler",
            arg: t.to_string(),
            arg_rank: m.len(),
            layout,
            rank: modes.len(),
        };
        return Err(SubTensorError::Algebra(e));
    }
    let (mut tile, mut rest) = (Vec::new(), Vec::new());
    for (i, (s, p)) in shapes.iter().zip(&modes).enumerate() {
        match m.get(i) {
            Some(Some(ti)) => {
                let (a, b) = empty_divided(s, p, ti)?;
                tile.extend(a);
                rest.extend(b);
            }
            Some(None) => {
                tile.extend(whole(s, p));
                rest.push((1, 0));
            }
            None => rest.extend(whole(s, p)),
        }
    }
    Ok((tile, rest))
}

/// The [`Tiling`] of `local_tile(l, t)`, or of `local_partition(l, t)` when `partition`; for an
/// empty `l`, from its extents ([`empty_divided`]).
fn tiling_of<L: LayoutFn>(l: &L, t: &Tiler, partition: bool) -> Result<Tiling, SubTensorError> {
    if l.size() > 0 {
        let a = l.to_layout();
        return if partition { Tiling::local_partition(&a, t) } else { Tiling::local_tile(&a, t) };
    }
    let (tile, rest) = empty_divided(&l.shape(), &l.planned_layout(), t)?;
    let (sub, grid) = if partition { (rest, tile) } else { (tile, rest) };
    Ok(Tiling { sub: flat(&sub)?, grid: flat(&grid)? })
}

/// Sub-tensor `k` of `tiling` of a tensor of layout `l` at `base`: its layout and base. A
/// sub-tensor of an empty tensor must be empty; it keeps the parent's base.
fn tiled<L: LayoutFn>(l: &L, base: usize, tiling: &Tiling, k: usize) -> Result<(RuntimeLayout, usize), SubTensorError> {
    if l.size() > 0 {
        let pos = tiling.position(base, k, || l.to_layout().to_string())?;
        return Ok((tiling.sub, pos));
    }
    let (sub, count) = (tiling.sub, tiling.count());
    if k >= count {
        return Err(SubTensorError::OutOfRange { k, count, sub: sub.to_string(), parent: notation(l) });
    }
    if sub.size() > 0 {
        return Err(SubTensorError::EmptyParent { sub: sub.to_string(), size: sub.size(), parent: notation(l) });
    }
    Ok((sub, base))
}

/// Appends the leaves `(extent, stride)` of the modes `c` leaves free (`_`), in order, as
/// layout-core's slice keeps them; `false` when `c`'s profile does not match the shape's.
fn free_leaves(c: &SliceCoord, shape: &IntTuple, stride: &IntTuple, out: &mut Leaves) -> bool {
    match (c, shape, stride) {
        (SliceCoord::Free, s, d) => {
            out.extend(s.leaves().into_iter().zip(d.leaves()));
            true
        }
        (SliceCoord::Int(_), _, _) => true,
        (SliceCoord::Tuple(cs), IntTuple::Tuple(ss), IntTuple::Tuple(ds))
            if cs.len() == ss.len() && ss.len() == ds.len() =>
        {
            cs.iter().zip(ss).zip(ds).all(|((c, s), d)| free_leaves(c, s, d, out))
        }
        _ => false,
    }
}

/// The slice at `c` of a tensor of layout `l` at `base`: its layout and base. The slice of an
/// empty tensor is the empty layout of its free modes at the parent's base; a fixed entry in
/// a mode of extent 0 is out of range.
fn sliced_at<L: LayoutFn>(l: &L, base: usize, c: &SliceCoord) -> Result<(RuntimeLayout, usize), SubTensorError> {
    if l.size() > 0 {
        let (sub, offset) = sliced(&l.to_layout(), c)?;
        return Ok((sub, shifted(base, offset, &sub)?));
    }
    let shape = l.shape();
    let out_of_range = || SubTensorError::CoordOutOfRange { coord: c.to_string(), parent: notation(l) };
    if !inside(c, &shape) {
        return Err(out_of_range());
    }
    let mut free = Vec::new();
    if !free_leaves(c, &shape, l.planned_layout().stride(), &mut free) {
        let e = LayoutError::CoordinateRank { coord: c.to_string(), shape: shape.to_string() };
        return Err(SubTensorError::Algebra(e));
    }
    let sub = flat(&free)?;
    // Every mode of extent 0 is free (`inside` refuses a fixed entry in one), so the slice is
    // empty unless the parent's shape does not show its extent 0.
    if sub.size() > 0 {
        return Err(SubTensorError::EmptyParent { sub: sub.to_string(), size: sub.size(), parent: notation(l) });
    }
    Ok((sub, base))
}

impl<'a, T, L: TrustedLayout> Tensor<'a, T, L> {
    /// The layout-core layout of this tensor's layout, with its numbers in. An empty layout
    /// (an extent 0, which layout-core cannot hold) gives `1:0`: take the sub-tensors of an
    /// empty tensor with the methods below, which read its extents.
    pub fn layout_value(&self) -> Layout {
        self.layout.to_layout()
    }

    /// Sub-tensor `k` of a [`Tiling`] of this tensor's layout (one check, as at creation). An
    /// empty tensor has no sub-tensor with elements, so a `Tiling` (made from a layout-core
    /// layout) gives [`SubTensorError::EmptyParent`] or [`SubTensorError::OutOfRange`].
    pub fn sub(&self, tiling: &Tiling, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        let (sub, pos) = tiled(&self.layout, self.base, tiling, k)?;
        Tensor::with_base(self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// `slice(A, c)`: the sub-tensor of the modes `c` leaves free (`_`), at the offset of
    /// the fixed ones (`(_, 2)` is column 2). Of an empty tensor: the empty tensor of the
    /// free modes (`(2, _)` of a 4×0 tensor has the layout `0:0`), or
    /// [`SubTensorError::CoordOutOfRange`] for a fixed entry in a mode of extent 0.
    ///
    /// ```
    /// use cute_layout::{RuntimeLayout, SliceCoord, SubTensorError, Tensor};
    ///
    /// let t = Tensor::<u8, _>::new(&[], RuntimeLayout::<2>::new(&[(4, 1), (0, 4)]).unwrap()).unwrap();
    /// let row = t.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(2), SliceCoord::Free])).unwrap();
    /// assert_eq!((row.size(), row.layout().to_string()), (0, "0:0".to_string()));
    /// let e = t.slice(&SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(0)])).unwrap_err();
    /// assert!(matches!(e, SubTensorError::CoordOutOfRange { .. }), "{e}");
    /// ```
    pub fn slice(&self, c: &SliceCoord) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        let (sub, pos) = sliced_at(&self.layout, self.base, c)?;
        Tensor::with_base(self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// Tile `k` of `local_tile(A, T)`: mode 0 of `zipped_divide(A, T)` at the offset mode 1
    /// gives k (the tiler must divide A, as layout-core's divide requires). A `_` in the tiler
    /// keeps the whole mode in the tile: `[8:1, _]` over a 16×48 matrix is a block of 8 full
    /// rows, tile 1 the rows 8..16. For many k, build the [`Tiling`] once and take
    /// [`Tensor::sub`]. A mode of extent 0 holds 0 tiles (every k is
    /// [`SubTensorError::OutOfRange`]), unless the tiler keeps it whole with `_`: then the
    /// tiles are empty.
    ///
    /// ```
    /// use cute_layout::{RuntimeLayout, SubTensorError, Tensor, parse_tiler};
    ///
    /// let t = Tensor::<u8, _>::new(&[], RuntimeLayout::<2>::new(&[(4, 1), (0, 4)]).unwrap()).unwrap();
    /// let e = t.local_tile(&parse_tiler("[2:1,2:1]").unwrap(), 0).unwrap_err();
    /// assert!(matches!(e, SubTensorError::OutOfRange { k: 0, count: 0, .. }), "{e}");
    /// let rows = t.local_tile(&parse_tiler("[2:1,_]").unwrap(), 1).unwrap();   // rows 2..4
    /// assert_eq!((rows.size(), rows.layout().to_string()), (0, "(2,0):(1,0)".to_string()));
    /// ```
    pub fn local_tile(&self, t: &Tiler, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(&tiling_of(&self.layout, t, false)?, k)
    }

    /// Partition `k` of `local_partition(A, T)`: mode 1 of `zipped_divide(A, T)` at the
    /// offset mode 0 gives k (the elements tile position k owns across all tiles). Over a mode
    /// of extent 0 the partitions are empty (0 tiles along it); a tiler that keeps it whole
    /// with `_` has 0 positions.
    pub fn local_partition(&self, t: &Tiler, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(&tiling_of(&self.layout, t, true)?, k)
    }
}

impl<T, L: TrustedLayout> TensorMut<'_, T, L> {
    /// The layout-core layout of this tensor's layout, with its numbers in (`1:0` for an empty
    /// layout, as [`Tensor::layout_value`]).
    pub fn layout_value(&self) -> Layout {
        self.layout.to_layout()
    }

    /// The mutable [`Tensor::sub`], borrowing this tensor mutably.
    pub fn sub_mut(&mut self, tiling: &Tiling, k: usize) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let (sub, pos) = tiled(&self.layout, self.base, tiling, k)?;
        TensorMut::with_base(&mut *self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// The mutable [`Tensor::slice`].
    pub fn slice_mut(&mut self, c: &SliceCoord) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let (sub, pos) = sliced_at(&self.layout, self.base, c)?;
        TensorMut::with_base(&mut *self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// The mutable [`Tensor::local_tile`].
    pub fn local_tile_mut(&mut self, t: &Tiler, k: usize) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let tiling = tiling_of(&self.layout, t, false)?;
        self.sub_mut(&tiling, k)
    }

    /// The mutable [`Tensor::local_partition`].
    pub fn local_partition_mut(
        &mut self,
        t: &Tiler,
        k: usize,
    ) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let tiling = tiling_of(&self.layout, t, true)?;
        self.sub_mut(&tiling, k)
    }
}
