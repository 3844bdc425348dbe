//! Tensors over layouts known at run time: [`DynTensor`] and [`DynTensorMut`] view a slice
//! through any [`TrustedLayout`] value (a dynamic item of `layout!` such as `Mat::new(m, n,
//! ld)`, a [`Strided`] tile of an edge tiling, or a static layout), with the guarantees of
//! [`Tensor`](crate::Tensor): creation checks once that the slice covers every offset, then
//! access by index costs one compare against the size and no bounds check against the slice.
//!
//! The invariant every `DynTensor` and `DynTensorMut` keeps (in exact integer arithmetic),
//! for its slice `data`, its base and its layout value `l`:
//!
//! ```text
//! 0 <= base + l.min_offset()   and   base + l.max_offset() < data.len()
//! ```
//!
//! so, by the contract of [`TrustedLayout`] (every offset of the domain lies in
//! `min_offset()..=max_offset()`), `base + l.offset(i)` is inside the slice for every
//! `i < l.size()`. The layout is kept by value and never handed out mutably, so the numbers
//! checked at creation are the numbers used afterwards.
//!
//! ```
//! use cute_layout::{DynTensor, DynTensorMut, layout};
//!
//! layout! {
//!     pub Mat = (M,N):(1,LD);
//! }
//!
//! let mut data: Vec<u32> = (0..40).collect();
//! let m = Mat::new(3, 4, 10).unwrap();
//! let t = DynTensor::new(&data, m).unwrap();
//! assert_eq!(t[4], 11);                               // data[offset(4)] = data[1 + 10]
//! assert_eq!(*t.at((2, 3)), 32);
//! assert_eq!(t.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32]);
//!
//! // Too short: the error names the numbers.
//! let e = DynTensor::new(&data[..30], m).unwrap_err();
//! assert_eq!(e.to_string(), "the slice has 30 elements but the layout `(3,4):(1,10)` addresses offsets 0..=32 (needs 33)");
//!
//! let mut w = DynTensorMut::new(&mut data, m).unwrap();
//! w.for_each_mut(|x| *x = 0);
//! assert_eq!(data[..4], [0, 0, 0, 3]);
//! ```

// Rank-generic loops over parallel arrays read best indexed.
#![allow(clippy::needless_range_loop)]

use std::fmt;
use std::ops::{Index, IndexMut};

use crate::{Layout, LayoutFn, Offset, StaticLayout};

mod sub;
pub use sub::{RUNTIME_MAX_MODES, RuntimeLayout, SubTensorError};

/// A [`LayoutFn`] whose offsets are where it says they are: tensors rely on it instead of
/// checking every access.
///
/// # Safety
///
/// For every value `l` and every `i < l.size()`:
/// `l.min_offset() <= l.offset(i).to_isize() <= l.max_offset()` (exactly: the offset
/// fits in `isize`), `l.for_each_offset` calls its argument with `l.offset(0)`, …,
/// `l.offset(l.size() - 1)` in that order, and these methods return the same results every
/// time they are called on the same value (no interior mutability). `offset_of` may return
/// anything: tensors check its result against `min_offset()..=max_offset()`. `layout!`
/// implements this trait for its dynamic items (whose constructors compute the extremes from
/// the checked numbers); [`StaticLayout`]s have it by their own contract.
pub unsafe trait TrustedLayout: LayoutFn {}

// SAFETY: the contract of `StaticLayout`: every offset of the domain lies in
// MIN_OFFSET..=MAX_OFFSET, which `LayoutFn::min_offset`/`max_offset` return for it, and its
// functions are constant functions of the type.
unsafe impl<L: StaticLayout> TrustedLayout for L {}

/// A rank-`R` strided layout `(e_0, …):(d_0, …)` with non-negative strides, built at run time
/// (the tiles of an [`EdgeTiles`] tiling). Coordinates are arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Strided<const R: usize> {
    extents: [usize; R],
    strides: [usize; R],
    size: usize,
    max_offset: isize,
}

impl<const R: usize> Strided<R> {
    /// `(extents):(strides)`, if the size fits in `usize` and every offset in `isize`.
    /// An extent may be 0 (an empty layout: size 0, `max_offset` 0).
    pub fn new(extents: [usize; R], strides: [usize; R]) -> Option<Self> {
        let mut size = 1usize;
        let mut max = 0isize;
        for (&e, &d) in extents.iter().zip(&strides) {
            size = size.checked_mul(e)?;
            let span = isize::try_from(e.saturating_sub(1)).ok()?.checked_mul(isize::try_from(d).ok()?)?;
            max = max.checked_add(span)?;
        }
        if size == 0 {
            max = 0;
        }
        Some(Strided { extents, strides, size, max_offset: max })
    }

    /// The extents.
    pub const fn extents(&self) -> [usize; R] {
        self.extents
    }

    /// The strides.
    pub const fn strides(&self) -> [usize; R] {
        self.strides
    }
}

impl<const R: usize> LayoutFn for Strided<R> {
    type Offset = usize;
    type Coord = [usize; R];
    #[inline]
    fn size(&self) -> usize {
        self.size
    }
    #[inline]
    fn offset(&self, index: usize) -> usize {
        let mut i = index;
        let mut o = 0;
        for k in 0..R {
            if k + 1 == R {
                o += i * self.strides[k];
            } else {
                o += (i % self.extents[k]) * self.strides[k];
                i /= self.extents[k];
            }
        }
        o
    }
    #[inline]
    fn offset_of(&self, coord: [usize; R]) -> usize {
        coord.iter().zip(&self.strides).fold(0usize, |a, (&c, &d)| a.wrapping_add(c.wrapping_mul(d)))
    }
    #[inline]
    fn coord(&self, index: usize) -> [usize; R] {
        let mut i = index;
        let mut c = [0; R];
        for k in 0..R {
            if k + 1 == R {
                c[k] = i;
            } else {
                c[k] = i % self.extents[k];
                i /= self.extents[k];
            }
        }
        c
    }
    #[inline]
    fn for_each_offset<F: FnMut(usize)>(&self, mut f: F) {
        if self.size == 0 {
            return;
        }
        if R == 0 {
            return f(0);
        }
        // An odometer over the outer modes, a plain loop over mode 0.
        let mut c = [0usize; R];
        let mut base = 0usize;
        loop {
            for k in 0..self.extents[0] {
                f(base + k * self.strides[0]);
            }
            let mut m = 1;
            loop {
                if m == R {
                    return;
                }
                c[m] += 1;
                base += self.strides[m];
                if c[m] < self.extents[m] {
                    break;
                }
                base -= c[m] * self.strides[m];
                c[m] = 0;
                m += 1;
            }
        }
    }
    #[inline]
    fn min_offset(&self) -> isize {
        0
    }
    #[inline]
    fn max_offset(&self) -> isize {
        self.max_offset
    }
    fn to_layout(&self) -> Layout {
        let modes: Vec<(i64, i64)> =
            self.extents.iter().zip(&self.strides).map(|(&e, &d)| (e as i64, d as i64)).collect();
        Layout::from_flat(&modes).unwrap_or_else(|_| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
}

// SAFETY: `new` checked that Σ (e_k - 1)·d_k fits in isize; with non-negative strides every
// offset of an index below the size is a sum of (c_k·d_k) with c_k < e_k, so it lies in
// 0..=max_offset; the fields are private and never change, and the traversal visits the
// offsets of the indices in colexicographic order, which is index order.
unsafe impl<const R: usize> TrustedLayout for Strided<R> {}

/// `local_tile_edge(A, [t0:1, t1:1, …])` with the numbers in: the tiles of A's modes `n_i:d_i`
/// by static tile extents `t_i` that need not divide them. Along mode i there are
/// `⌈n_i/t_i⌉` tiles; tile k (colexicographic over the grid) starts at offset
/// `Σ t_i·k_i·d_i` and holds `min(t_i, n_i - t_i·k_i)` elements along mode i, which is all a
/// kernel needs to handle the edge: [`EdgeTiles::tile`] is the layout of the elements that
/// exist, and [`DynTensor::edge_tile`] the tensor over them.
///
/// ```
/// use cute_layout::layout;
///
/// layout! {
///     pub Mat = (M,N):(1,LD);
///     pub Tiles = local_tile_edge(Mat, [8:1, 8:1]);
/// }
///
/// let tiles = Tiles::new(20, 8, 32).unwrap();   // no divisibility needed
/// assert_eq!(tiles.grid(), [3, 1]);             // ceil(20/8) x ceil(8/8)
/// assert_eq!(tiles.tile_extent(0), [8, 8]);
/// assert_eq!(tiles.tile_extent(2), [4, 8]);     // rows 16..20
/// assert_eq!(tiles.tile_base(2), 16);
/// assert!(!tiles.is_full(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeTiles<const R: usize> {
    extents: [usize; R],
    strides: [usize; R],
    tile: [usize; R],
    grid: [usize; R],
    count: usize,
}

impl<const R: usize> EdgeTiles<R> {
    /// The tiling of modes `extents:strides` by `tile` (every tile extent positive); `None`
    /// if a tile extent is 0 or a number of tiles overflows.
    pub fn new(extents: [usize; R], strides: [usize; R], tile: [usize; R]) -> Option<Self> {
        let mut grid = [0; R];
        let mut count = 1usize;
        for k in 0..R {
            if tile[k] == 0 {
                return None;
            }
            grid[k] = extents[k].div_ceil(tile[k]);
            count = count.checked_mul(grid[k])?;
        }
        Some(EdgeTiles { extents, strides, tile, grid, count })
    }

    /// The number of tiles, `Π ⌈n_i/t_i⌉`.
    #[inline]
    pub const fn count(&self) -> usize {
        self.count
    }

    /// The number of tiles along each mode.
    #[inline]
    pub const fn grid(&self) -> [usize; R] {
        self.grid
    }

    /// The extent of A along each mode.
    #[inline]
    pub const fn extents(&self) -> [usize; R] {
        self.extents
    }

    /// The full tile's extents `t_i`.
    #[inline]
    pub const fn tile_shape(&self) -> [usize; R] {
        self.tile
    }

    /// The grid coordinate of tile `k` (colexicographic; `k < count()`).
    #[inline]
    pub fn tile_coord(&self, k: usize) -> [usize; R] {
        let mut k = k;
        let mut c = [0; R];
        for i in 0..R {
            c[i] = k % self.grid[i];
            k /= self.grid[i];
        }
        c
    }

    /// How many elements of tile `k` exist along each mode: `t_i`, or the residue at the
    /// edge. Panics if `k >= count()`.
    #[inline]
    #[track_caller]
    pub fn tile_extent(&self, k: usize) -> [usize; R] {
        assert!(k < self.count, "tile {k} out of range: there are {} tiles", self.count);
        let c = self.tile_coord(k);
        let mut e = [0; R];
        for i in 0..R {
            e[i] = self.tile[i].min(self.extents[i] - self.tile[i] * c[i]);
        }
        e
    }

    /// Whether tile `k` is whole (no residue along any mode).
    #[inline]
    pub fn is_full(&self, k: usize) -> bool {
        self.tile_extent(k) == self.tile
    }

    /// The offset in A of tile `k`'s first element. Panics if `k >= count()`.
    #[inline]
    #[track_caller]
    pub fn tile_base(&self, k: usize) -> usize {
        assert!(k < self.count, "tile {k} out of range: there are {} tiles", self.count);
        let c = self.tile_coord(k);
        (0..R).map(|i| c[i] * self.tile[i] * self.strides[i]).sum()
    }

    /// The layout of the elements of tile `k` that exist (offsets from [`Self::tile_base`]).
    #[inline]
    #[track_caller]
    pub fn tile(&self, k: usize) -> Strided<R> {
        // Its offsets are offsets of A less the base, which fit (A's constructor checked them).
        Strided::new(self.tile_extent(k), self.strides).expect("an edge tile's offsets are offsets of A")
    }

    /// The full tile `(t_0, …):(d_0, …)`.
    pub fn full_tile(&self) -> Option<Strided<R>> {
        Strided::new(self.tile, self.strides)
    }

    /// Calls `f(k, base, tile)` for every tile in order.
    pub fn for_each_tile<F: FnMut(usize, usize, Strided<R>)>(&self, mut f: F) {
        for k in 0..self.count {
            f(k, self.tile_base(k), self.tile(k));
        }
    }
}

/// Why a slice cannot be viewed through a run-time layout: the numbers of the failed check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DynTensorError {
    /// The slice ends before the largest offset (at the base).
    #[error(
        "the slice has {len} elements but the layout `{layout}` addresses offsets {min}..={max}{} (needs {needed})",
        at_base(*.min, *.max, *.base)
    )]
    TooShort {
        /// The length of the slice.
        len: usize,
        /// The layout with its numbers, in canonical notation.
        layout: String,
        /// The smallest offset of the layout.
        min: isize,
        /// The largest offset of the layout.
        max: isize,
        /// The base offset: position `base + o` of the slice holds offset `o`.
        base: usize,
        /// `base + max + 1`, the length the slice needs (saturated at `usize::MAX`).
        needed: usize,
    },
    /// The base is smaller than `-min_offset()`.
    #[error(
        "the layout `{layout}` addresses offsets {min}..={max}, so the base must be at least {}, but it is {base}",
        .min.unsigned_abs()
    )]
    BaseTooSmall {
        /// The layout with its numbers, in canonical notation.
        layout: String,
        /// The smallest offset of the layout.
        min: isize,
        /// The largest offset of the layout.
        max: isize,
        /// The base offset given.
        base: usize,
    },
}

fn at_base(min: isize, max: isize, base: usize) -> String {
    if base == 0 {
        String::new()
    } else {
        let (lo, hi) = (base as i128 + min as i128, base as i128 + max as i128);
        format!(", at base {base} the positions {lo}..={hi}")
    }
}

/// Checks the invariant (module docs) for a layout value, a slice length and a base.
fn check<L: TrustedLayout>(l: &L, len: usize, base: usize) -> Result<(), DynTensorError> {
    let (min, max) = (l.min_offset(), l.max_offset());
    if (base as i128) + (min as i128) < 0 {
        return Err(DynTensorError::BaseTooSmall { layout: l.to_layout().to_string(), min, max, base });
    }
    let needed = base as i128 + max as i128 + 1;
    if l.size() > 0 && needed > len as i128 {
        let needed = usize::try_from(needed).unwrap_or(usize::MAX);
        return Err(DynTensorError::TooShort { len, layout: l.to_layout().to_string(), min, max, base, needed });
    }
    Ok(())
}

#[inline(always)]
fn position<O: Offset>(base: usize, offset: O) -> usize {
    base.wrapping_add_signed(offset.to_isize())
}

#[cold]
#[inline(never)]
#[track_caller]
fn index_out_of_bounds(index: usize, size: usize) -> ! {
    panic!("index out of bounds: the len is {size} but the index is {index}")
}

#[cold]
#[inline(never)]
#[track_caller]
fn coordinate_out_of_range(offset: isize, min: isize, max: isize) -> ! {
    panic!("coordinate out of range: its offset {offset} is outside the offsets {min}..={max} of the layout")
}

/// The offset of a coordinate if it lies in `min_offset()..=max_offset()`.
#[inline]
fn checked_offset_of<L: TrustedLayout>(l: &L, coord: L::Coord) -> Result<isize, isize> {
    let o = l.offset_of(coord).to_isize();
    if (l.min_offset()..=l.max_offset()).contains(&o) { Ok(o) } else { Err(o) }
}

/// A shared view of a slice through a run-time layout value: element `i` is
/// `data[base + layout.offset(i)]` (module docs).
pub struct DynTensor<'a, T, L: TrustedLayout> {
    data: &'a [T],
    base: usize,
    layout: L,
}

impl<'a, T, L: TrustedLayout> DynTensor<'a, T, L> {
    /// Views `data` through `layout` at the base `-layout.min_offset()`. Fails when the slice
    /// is shorter than `base + max_offset() + 1`.
    pub fn new(data: &'a [T], layout: L) -> Result<Self, DynTensorError> {
        let base = layout.min_offset().unsigned_abs();
        Self::with_base(data, layout, base)
    }

    /// Views `data` through `layout` with offset 0 at position `base`.
    pub fn with_base(data: &'a [T], layout: L, base: usize) -> Result<Self, DynTensorError> {
        check(&layout, data.len(), base)?;
        Ok(DynTensor { data, base, layout })
    }

    /// The element at index `index`, or `None` when `index >= size()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&'a T> {
        if index >= self.layout.size() {
            return None;
        }
        let p = position(self.base, self.layout.offset(index));
        // SAFETY: `index < size()`, so the offset lies in min_offset()..=max_offset() (the
        // contract of `TrustedLayout`) and `p` is in the slice by the invariant creation
        // checked (module docs).
        Some(unsafe { self.data.get_unchecked(p) })
    }

    /// The element at a natural coordinate; panics unless its offset lies in
    /// `min_offset()..=max_offset()`.
    #[inline]
    #[track_caller]
    pub fn at(&self, coord: L::Coord) -> &'a T {
        match checked_offset_of(&self.layout, coord) {
            // SAFETY: `o` lies in min_offset()..=max_offset() (checked), so the position is
            // in the slice by the invariant creation checked.
            Ok(o) => unsafe { self.data.get_unchecked(position(self.base, o)) },
            Err(o) => coordinate_out_of_range(o, self.layout.min_offset(), self.layout.max_offset()),
        }
    }

    /// [`DynTensor::at`] without the panic.
    #[inline]
    pub fn get_at(&self, coord: L::Coord) -> Option<&'a T> {
        let o = checked_offset_of(&self.layout, coord).ok()?;
        // SAFETY: `o` lies in min_offset()..=max_offset() (checked just above), so the
        // position is in the slice by the invariant creation checked.
        Some(unsafe { self.data.get_unchecked(position(self.base, o)) })
    }

    /// The elements in index order (one `offset` per element; [`DynTensor::for_each`] walks
    /// the layout's loop nest instead).
    #[inline]
    pub fn iter(&self) -> DynIter<'_, 'a, T, L> {
        DynIter { tensor: self, front: 0, back: self.layout.size() }
    }

    /// Calls `f` with every element in index order, by the layout's traversal.
    #[inline]
    pub fn for_each<F: FnMut(&'a T)>(&self, mut f: F) {
        let (data, base) = (self.data, self.base);
        self.layout.for_each_offset(|o| {
            // SAFETY: the traversal visits the offsets of the indices below size() (the
            // contract of `TrustedLayout`), which lie in min_offset()..=max_offset(); the
            // position is in the slice by the invariant creation checked.
            f(unsafe { data.get_unchecked(position(base, o)) })
        });
    }

    /// The tensor over the elements of tile `k` of an edge tiling of this tensor's layout
    /// (`None` if `k >= tiles.count()` or the tile does not fit this tensor's slice, which
    /// happens only when `tiles` tiles some other layout). One check, as at creation.
    pub fn edge_tile<const R: usize>(&self, tiles: &EdgeTiles<R>, k: usize) -> Option<DynTensor<'a, T, Strided<R>>> {
        if k >= tiles.count() {
            return None;
        }
        let base = self.base.checked_add(tiles.tile_base(k))?;
        DynTensor::with_base(self.data, tiles.tile(k), base).ok()
    }

    /// The slice.
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// The position of offset 0 in the slice.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The layout value.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The number of elements, `size()` of the layout.
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// Whether the layout has no elements.
    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }
}

impl<T, L: TrustedLayout + Clone> Clone for DynTensor<'_, T, L> {
    fn clone(&self) -> Self {
        DynTensor { data: self.data, base: self.base, layout: self.layout.clone() }
    }
}

impl<T, L: TrustedLayout> Index<usize> for DynTensor<'_, T, L> {
    type Output = T;
    #[inline]
    #[track_caller]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => index_out_of_bounds(index, self.layout.size()),
        }
    }
}

impl<T: fmt::Debug, L: TrustedLayout> fmt::Debug for DynTensor<'_, T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynTensor")
            .field("layout", &self.layout.to_layout().to_string())
            .field("base", &self.base)
            .field("elements", &self.iter().collect::<Vec<_>>())
            .finish()
    }
}

/// The elements of a [`DynTensor`] in index order.
pub struct DynIter<'t, 'a, T, L: TrustedLayout> {
    tensor: &'t DynTensor<'a, T, L>,
    front: usize,
    back: usize,
}

impl<'a, T, L: TrustedLayout> Iterator for DynIter<'_, 'a, T, L> {
    type Item = &'a T;
    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        if self.front >= self.back {
            return None;
        }
        self.front += 1;
        self.tensor.get(self.front - 1)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<T, L: TrustedLayout> DoubleEndedIterator for DynIter<'_, '_, T, L> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.tensor.get(self.back)
    }
}

impl<T, L: TrustedLayout> ExactSizeIterator for DynIter<'_, '_, T, L> {}

/// A mutable view of a slice through a run-time layout value: element `i` is
/// `data[base + layout.offset(i)]`. Distinct indices of a non-injective layout alias the
/// same element; access goes through `&mut self`, so at most one reference exists at a time.
pub struct DynTensorMut<'a, T, L: TrustedLayout> {
    data: &'a mut [T],
    base: usize,
    layout: L,
}

impl<'a, T, L: TrustedLayout> DynTensorMut<'a, T, L> {
    /// As [`DynTensor::new`].
    pub fn new(data: &'a mut [T], layout: L) -> Result<Self, DynTensorError> {
        let base = layout.min_offset().unsigned_abs();
        Self::with_base(data, layout, base)
    }

    /// As [`DynTensor::with_base`].
    pub fn with_base(data: &'a mut [T], layout: L, base: usize) -> Result<Self, DynTensorError> {
        check(&layout, data.len(), base)?;
        Ok(DynTensorMut { data, base, layout })
    }

    /// A shared view.
    pub fn as_tensor(&self) -> DynTensor<'_, T, L>
    where
        L: Clone,
    {
        DynTensor { data: self.data, base: self.base, layout: self.layout.clone() }
    }

    /// The element at index `index`, or `None` when `index >= size()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        if index >= self.layout.size() {
            return None;
        }
        let p = position(self.base, self.layout.offset(index));
        // SAFETY: `index < size()`: the offset lies in min_offset()..=max_offset()
        // (`TrustedLayout`), so `p` is in the slice by the invariant creation checked.
        Some(unsafe { self.data.get_unchecked(p) })
    }

    /// The element at index `index`, mutably, or `None` when `index >= size()`.
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index >= self.layout.size() {
            return None;
        }
        let p = position(self.base, self.layout.offset(index));
        // SAFETY: as in `get`: `index < size()` bounds the offset by the contract of
        // `TrustedLayout`, and the invariant puts the position in the slice.
        Some(unsafe { self.data.get_unchecked_mut(p) })
    }

    /// The element at a natural coordinate, mutably; panics unless its offset lies in
    /// `min_offset()..=max_offset()`.
    #[inline]
    #[track_caller]
    pub fn at_mut(&mut self, coord: L::Coord) -> &mut T {
        match checked_offset_of(&self.layout, coord) {
            // SAFETY: `o` lies in min_offset()..=max_offset() (checked), so the position is
            // in the slice by the invariant creation checked.
            Ok(o) => unsafe { self.data.get_unchecked_mut(position(self.base, o)) },
            Err(o) => coordinate_out_of_range(o, self.layout.min_offset(), self.layout.max_offset()),
        }
    }

    /// Calls `f` with every element in index order, mutably, by the layout's traversal.
    #[inline]
    pub fn for_each_mut<F: FnMut(&mut T)>(&mut self, mut f: F) {
        let base = self.base;
        let data = &mut *self.data;
        self.layout.for_each_offset(|o| {
            // SAFETY: the traversal visits the offsets of the indices below size()
            // (`TrustedLayout`), inside min_offset()..=max_offset(), so the position is in the
            // slice by the invariant; each reference ends before the next call.
            f(unsafe { data.get_unchecked_mut(position(base, o)) })
        });
    }

    /// The mutable tensor over the elements of tile `k` of an edge tiling of this tensor's
    /// layout (`None` as in [`DynTensor::edge_tile`]).
    pub fn edge_tile_mut<const R: usize>(
        &mut self,
        tiles: &EdgeTiles<R>,
        k: usize,
    ) -> Option<DynTensorMut<'_, T, Strided<R>>> {
        if k >= tiles.count() {
            return None;
        }
        let base = self.base.checked_add(tiles.tile_base(k))?;
        DynTensorMut::with_base(&mut *self.data, tiles.tile(k), base).ok()
    }

    /// The position of offset 0 in the slice.
    pub fn base(&self) -> usize {
        self.base
    }

    /// The layout value.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// Whether the layout has no elements.
    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }
}

impl<T, L: TrustedLayout> Index<usize> for DynTensorMut<'_, T, L> {
    type Output = T;
    #[inline]
    #[track_caller]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => index_out_of_bounds(index, self.layout.size()),
        }
    }
}

impl<T, L: TrustedLayout> IndexMut<usize> for DynTensorMut<'_, T, L> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, index: usize) -> &mut T {
        let size = self.layout.size();
        match self.get_mut(index) {
            Some(x) => x,
            None => index_out_of_bounds(index, size),
        }
    }
}
