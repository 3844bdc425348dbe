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
//! The examples are on [`Tiling`] and in the guide's [tensors](crate::guide::tensors) chapter.

use super::{Tensor, TensorError, TensorMut};
use crate::{Layout, LayoutError, LayoutFn, RUNTIME_MAX_MODES, RuntimeLayout, SliceCoord, Tiler, TrustedLayout};

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

impl<'a, T, L: TrustedLayout> Tensor<'a, T, L> {
    /// The layout-core layout of this tensor's layout, with its numbers in.
    pub fn layout_value(&self) -> Layout {
        self.layout.to_layout()
    }

    /// Sub-tensor `k` of a [`Tiling`] of this tensor's layout (one check, as at creation).
    pub fn sub(&self, tiling: &Tiling, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        let pos = tiling.position(self.base, k, || self.layout.to_layout().to_string())?;
        Tensor::with_base(self.data, tiling.sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// `slice(A, c)`: the sub-tensor of the modes `c` leaves free (`_`), at the offset of
    /// the fixed ones (`(_, 2)` is column 2).
    pub fn slice(&self, c: &SliceCoord) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        let (sub, offset) = sliced(&self.layout.to_layout(), c)?;
        let pos = shifted(self.base, offset, &sub)?;
        Tensor::with_base(self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// Tile `k` of `local_tile(A, T)`: mode 0 of `zipped_divide(A, T)` at the offset mode 1
    /// gives k (the tiler must divide A, as layout-core's divide requires). A `_` in the tiler
    /// keeps the whole mode in the tile: `[8:1, _]` over a 16×48 matrix is a block of 8 full
    /// rows, tile 1 the rows 8..16. For many k, build the [`Tiling`] once and take
    /// [`Tensor::sub`].
    pub fn local_tile(&self, t: &Tiler, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(&Tiling::local_tile(&self.layout.to_layout(), t)?, k)
    }

    /// Partition `k` of `local_partition(A, T)`: mode 1 of `zipped_divide(A, T)` at the
    /// offset mode 0 gives k (the elements tile position k owns across all tiles).
    pub fn local_partition(&self, t: &Tiler, k: usize) -> Result<Tensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(&Tiling::local_partition(&self.layout.to_layout(), t)?, k)
    }
}

impl<T, L: TrustedLayout> TensorMut<'_, T, L> {
    /// The layout-core layout of this tensor's layout, with its numbers in.
    pub fn layout_value(&self) -> Layout {
        self.layout.to_layout()
    }

    /// The mutable [`Tensor::sub`], borrowing this tensor mutably.
    pub fn sub_mut(&mut self, tiling: &Tiling, k: usize) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let layout = self.layout;
        let pos = tiling.position(self.base, k, || layout.to_layout().to_string())?;
        TensorMut::with_base(&mut *self.data, tiling.sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// The mutable [`Tensor::slice`].
    pub fn slice_mut(&mut self, c: &SliceCoord) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let (sub, offset) = sliced(&self.layout.to_layout(), c)?;
        let pos = shifted(self.base, offset, &sub)?;
        TensorMut::with_base(&mut *self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// The mutable [`Tensor::local_tile`].
    pub fn local_tile_mut(&mut self, t: &Tiler, k: usize) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let tiling = Tiling::local_tile(&self.layout.to_layout(), t)?;
        self.sub_mut(&tiling, k)
    }

    /// The mutable [`Tensor::local_partition`].
    pub fn local_partition_mut(
        &mut self,
        t: &Tiler,
        k: usize,
    ) -> Result<TensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let tiling = Tiling::local_partition(&self.layout.to_layout(), t)?;
        self.sub_mut(&tiling, k)
    }
}
