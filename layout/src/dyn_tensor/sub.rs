//! Sub-tensors of run-time tensors other than edge tiles: slicing modes with `_`
//! ([`DynTensor::slice`]) and tiling by a static tiler ([`DynTensor::local_tile`],
//! [`DynTensor::local_partition`]), as the static [`Tensor`](crate::Tensor) has through
//! [`SubLayout`](crate::SubLayout).
//!
//! The sub-layout is computed by layout-core from the parent's layout with its numbers in
//! (`LayoutFn::to_layout`), once per sub-tensor; its flat modes become a
//! [`RuntimeLayout`], and the sub-tensor is created with the one check of
//! [`DynTensor::with_base`] at the parent's base plus the sub-tensor's base offset. So the
//! guarantee needs nothing from the algebra: a sub-tensor outside the slice is an error,
//! never an access.
//!
//! ```
//! use cute_layout::{DynTensor, SliceCoord, layout, parse_tiler};
//!
//! layout! {
//!     pub Mat = (M,N):(1,LD);
//! }
//! let data: Vec<u32> = (0..40).collect();
//! let a = DynTensor::new(&data, Mat::new(4, 3, 10).unwrap()).unwrap();
//! // Column 2: `(_, 2)`.
//! let col = a.slice(&SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(2)])).unwrap();
//! assert_eq!(col.iter().copied().collect::<Vec<_>>(), [20, 21, 22, 23]);
//! // The 2x3 tiles of the 4x3 matrix; tile 1 holds rows 2..4.
//! let t = parse_tiler("[2:1,3:1]").unwrap();
//! let tile = a.local_tile(&t, 1).unwrap();
//! assert_eq!(tile.iter().copied().collect::<Vec<_>>(), [2, 3, 12, 13, 22, 23]);
//! // A tiler that does not divide the matrix is the algebra's error.
//! assert!(a.local_tile(&parse_tiler("[3:1,_]").unwrap(), 0).is_err());
//! ```

use std::fmt;

use super::{DynTensor, DynTensorError, DynTensorMut, TrustedLayout};
use crate::{Layout, LayoutError, LayoutFn, SliceCoord, Tiler};

/// The largest number of flat modes a [`RuntimeLayout`] holds.
pub const RUNTIME_MAX_MODES: usize = 8;

/// A layout known at run time as its flat modes `(e_0, …):(d_0, …)` (at most
/// [`RUNTIME_MAX_MODES`], strides of any sign): the layout of a sub-tensor of a run-time
/// tensor. Its coordinate is flat: one entry per mode, unused entries 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeLayout {
    rank: usize,
    extents: [usize; RUNTIME_MAX_MODES],
    strides: [isize; RUNTIME_MAX_MODES],
    size: usize,
    min_offset: isize,
    max_offset: isize,
}

impl RuntimeLayout {
    /// The flat modes of `l`, if there are at most [`RUNTIME_MAX_MODES`] of them and every
    /// offset and the size fit (`isize`, `usize`).
    pub fn from_layout(l: &Layout) -> Option<Self> {
        let modes = l.flat_modes();
        if modes.len() > RUNTIME_MAX_MODES {
            return None;
        }
        let mut r = RuntimeLayout {
            rank: modes.len(),
            extents: [1; RUNTIME_MAX_MODES],
            strides: [0; RUNTIME_MAX_MODES],
            size: 1,
            min_offset: 0,
            max_offset: 0,
        };
        for (k, &(e, d)) in modes.iter().enumerate() {
            let e = usize::try_from(e).ok()?;
            let d = isize::try_from(d).ok()?;
            r.extents[k] = e;
            r.strides[k] = d;
            r.size = r.size.checked_mul(e)?;
            let span = isize::try_from(e.checked_sub(1)?).ok()?.checked_mul(d)?;
            if span < 0 {
                r.min_offset = r.min_offset.checked_add(span)?;
            } else {
                r.max_offset = r.max_offset.checked_add(span)?;
            }
        }
        Some(r)
    }

    /// The flat modes `(extent, stride)`.
    pub fn modes(&self) -> impl Iterator<Item = (usize, isize)> + '_ {
        self.extents[..self.rank].iter().copied().zip(self.strides[..self.rank].iter().copied())
    }
}

impl LayoutFn for RuntimeLayout {
    type Offset = isize;
    type Coord = [usize; RUNTIME_MAX_MODES];
    #[inline]
    fn size(&self) -> usize {
        self.size
    }
    #[inline]
    fn offset(&self, index: usize) -> isize {
        let mut i = index;
        let mut o = 0isize;
        for k in 0..self.rank {
            let c = if k + 1 == self.rank { i } else { i % self.extents[k] };
            i /= self.extents[k].max(1);
            o = o.wrapping_add((c as isize).wrapping_mul(self.strides[k]));
        }
        o
    }
    #[inline]
    fn offset_of(&self, coord: Self::Coord) -> isize {
        (0..self.rank).fold(0isize, |a, k| a.wrapping_add((coord[k] as isize).wrapping_mul(self.strides[k])))
    }
    #[inline]
    fn coord(&self, index: usize) -> Self::Coord {
        let mut i = index;
        let mut c = [0; RUNTIME_MAX_MODES];
        for k in 0..self.rank {
            c[k] = if k + 1 == self.rank { i } else { i % self.extents[k] };
            i /= self.extents[k].max(1);
        }
        c
    }
    #[inline]
    fn for_each_offset<F: FnMut(isize)>(&self, mut f: F) {
        for i in 0..self.size {
            f(self.offset(i));
        }
    }
    #[inline]
    fn min_offset(&self) -> isize {
        self.min_offset
    }
    #[inline]
    fn max_offset(&self) -> isize {
        self.max_offset
    }
    fn to_layout(&self) -> Layout {
        let modes: Vec<(i64, i64)> = self.modes().map(|(e, d)| (e as i64, d as i64)).collect();
        Layout::from_flat(&modes).unwrap_or_else(|_| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
}

impl fmt::Display for RuntimeLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_layout())
    }
}

// SAFETY: `from_layout` checked that the size fits in usize and that the sums of the
// negative and of the positive spans (e_k - 1)·d_k fit in isize; an index below the size has
// coordinates c_k < e_k (the last one too, as size = Π e_k), so its offset Σ c_k·d_k lies
// between those sums, min_offset..=max_offset, without overflow (the wrapping operations
// never wrap). The fields are private and never change; `for_each_offset` visits the
// offsets of the indices in order.
unsafe impl TrustedLayout for RuntimeLayout {}

/// Why a sub-tensor of a run-time tensor cannot be made.
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
    /// The sub-tensor does not fit the slice (only possible when the parent's layout value and its
    /// `to_layout` disagree).
    #[error("{0}")]
    DoesNotFit(DynTensorError),
}

/// The sub-layout and the offset (relative to the parent's offset 0) at which it starts.
fn sub_layout(parent: &Layout, what: &Sub<'_>, k: usize) -> Result<(RuntimeLayout, i64), SubTensorError> {
    let (sub, base) = match what {
        Sub::Slice(c) => {
            if !inside(c, parent.shape()) {
                return Err(SubTensorError::CoordOutOfRange { coord: c.to_string(), parent: parent.to_string() });
            }
            crate::slice(parent, c).map_err(SubTensorError::Algebra)?
        }
        Sub::Tile(t) | Sub::Partition(t) => {
            let z = crate::zipped_divide(parent, t).map_err(SubTensorError::Algebra)?;
            let (sub, grid) = match what {
                Sub::Tile(_) => (z.mode(0), z.mode(1)),
                _ => (z.mode(1), z.mode(0)),
            };
            let (sub, grid) = (sub.map_err(SubTensorError::Algebra)?, grid.map_err(SubTensorError::Algebra)?);
            let count = usize::try_from(grid.size()).unwrap_or(usize::MAX);
            if k >= count {
                return Err(SubTensorError::OutOfRange { k, count, sub: sub.to_string(), parent: parent.to_string() });
            }
            let base = grid.eval(k as i64).map_err(SubTensorError::Algebra)?;
            (sub, base)
        }
    };
    let rt = RuntimeLayout::from_layout(&sub).ok_or_else(|| SubTensorError::TooLarge(sub.to_string()))?;
    Ok((rt, base))
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

enum Sub<'t> {
    Slice(&'t SliceCoord),
    Tile(&'t Tiler),
    Partition(&'t Tiler),
}

/// The position in the slice of the sub-tensor's offset 0.
fn sub_position(base: usize, offset: i64, sub: &RuntimeLayout) -> Result<usize, SubTensorError> {
    let pos = base as i128 + offset as i128;
    usize::try_from(pos).map_err(|_| {
        SubTensorError::DoesNotFit(DynTensorError::BaseTooSmall {
            layout: sub.to_string(),
            min: sub.min_offset,
            max: sub.max_offset,
            base: 0,
        })
    })
}

impl<'a, T, L: TrustedLayout> DynTensor<'a, T, L> {
    fn sub(&self, what: Sub<'_>, k: usize) -> Result<DynTensor<'a, T, RuntimeLayout>, SubTensorError> {
        let (sub, offset) = sub_layout(&self.layout.to_layout(), &what, k)?;
        let pos = sub_position(self.base, offset, &sub)?;
        DynTensor::with_base(self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// `slice(A, c)`: the sub-tensor of the modes `c` leaves free (`_`), at the offset of
    /// the fixed ones (`(_, 2)` is column 2).
    pub fn slice(&self, c: &SliceCoord) -> Result<DynTensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(Sub::Slice(c), 0)
    }

    /// Tile `k` of `local_tile(A, T)`: mode 0 of `zipped_divide(A, T)` at the offset mode 1
    /// gives k (the tiler must divide A, as layout-core's divide requires).
    pub fn local_tile(&self, t: &Tiler, k: usize) -> Result<DynTensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(Sub::Tile(t), k)
    }

    /// Partition `k` of `local_partition(A, T)`: mode 1 of `zipped_divide(A, T)` at the
    /// offset mode 0 gives k (the elements tile position k owns across all tiles).
    pub fn local_partition(&self, t: &Tiler, k: usize) -> Result<DynTensor<'a, T, RuntimeLayout>, SubTensorError> {
        self.sub(Sub::Partition(t), k)
    }
}

impl<T, L: TrustedLayout> DynTensorMut<'_, T, L> {
    fn sub_mut(&mut self, what: Sub<'_>, k: usize) -> Result<DynTensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        let (sub, offset) = sub_layout(&self.layout.to_layout(), &what, k)?;
        let pos = sub_position(self.base, offset, &sub)?;
        DynTensorMut::with_base(&mut *self.data, sub, pos).map_err(SubTensorError::DoesNotFit)
    }

    /// The mutable [`DynTensor::slice`].
    pub fn slice_mut(&mut self, c: &SliceCoord) -> Result<DynTensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        self.sub_mut(Sub::Slice(c), 0)
    }

    /// The mutable [`DynTensor::local_tile`].
    pub fn local_tile_mut(
        &mut self,
        t: &Tiler,
        k: usize,
    ) -> Result<DynTensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        self.sub_mut(Sub::Tile(t), k)
    }

    /// The mutable [`DynTensor::local_partition`].
    pub fn local_partition_mut(
        &mut self,
        t: &Tiler,
        k: usize,
    ) -> Result<DynTensorMut<'_, T, RuntimeLayout>, SubTensorError> {
        self.sub_mut(Sub::Partition(t), k)
    }
}
