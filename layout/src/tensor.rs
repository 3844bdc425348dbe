//! Tensors: a slice seen through a layout, CuTe's `make_tensor(ptr, layout)`. One type for
//! every layout: a static item of `layout!` (its offsets are straight-line code, the layout a
//! unit struct), a dynamic item (`Mat::new(m, n, ld)`), or a [`RuntimeLayout`] (sub-tensors
//! and edge tiles of run-time tensors). The slice and a base offset are run-time values.
//! Creation checks once that the slice covers every offset of the layout; after that, access
//! by index costs one compare against the layout's size and no bounds check against the
//! slice.
//!
//! The invariant every `Tensor` and `TensorMut` keeps (in exact integer arithmetic), for its
//! slice `data`, its base and its layout value `l`:
//!
//! ```text
//! l.size() > 0:    0 <= base + l.min_offset()   and   base + l.max_offset() < data.len()
//! l.size() == 0:   base <= data.len()
//! ```
//!
//! so, by the contract of [`TrustedLayout`] (every offset of the domain lies in
//! `min_offset()..=max_offset()`), `base + l.offset(i)` is inside the slice for every
//! `i < l.size()`. An empty layout (an extent 0) has no index, so its tensor reads and writes
//! nothing and may view any slice, `&[]` included; its base is still a position of the slice
//! or its end, so that `as_ptr` and the kernels' views of the slice at the base exist. Every
//! access below is to an index below the size, an offset the traversal visits or a coordinate
//! the layout contains, none of which an empty layout has, so it only happens when
//! `l.size() > 0`. Creation establishes the invariant ([`Tensor::new`],
//! [`Tensor::with_base`]); static sub-tensors keep it by the contract of [`SubLayout`] (a
//! static layout is never empty), run-time ones are created with the same check. The layout
//! is kept by value and never handed out mutably, so the numbers checked at creation are the
//! numbers used afterwards. Positions are computed as `base.wrapping_add_signed(offset)`,
//! which is the exact sum whenever that sum is in `0..data.len()`.
//!
//! Examples: [`Tensor`], [`TensorMut`] and the guide's [tensors](crate::guide::tensors) chapter.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{Index, IndexMut};

use crate::{EdgeTiles, LayoutFn, Offset, RuntimeLayout, StaticLayout, TrustedLayout};

mod elementwise;
mod folded;
mod sub;
pub use folded::FoldedTensor;
pub use sub::{SubTensorError, Tiling};

/// Why a slice cannot be viewed through a layout: the numbers of the failed check.
///
/// ```
/// use cute_layout::{Tensor, TensorError, layout};
///
/// layout! { pub Reversed = 4:-1; }
/// let data = [0u8; 4];
/// assert!(Tensor::new(&data, Reversed).is_ok());                       // base 3: offsets -3..=0
/// let e = Tensor::with_base(&data, Reversed, 2).unwrap_err();
/// assert_eq!(e, TensorError::BaseTooSmall { layout: "4:-1".into(), min: -3, max: 0, base: 2 });
/// let e = Tensor::new(&data[..3], Reversed).unwrap_err();
/// assert!(matches!(e, TensorError::TooShort { len: 3, needed: 4, .. }), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TensorError {
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
    /// The base of an empty layout (an extent 0, no offset) lies past the end of the slice.
    #[error(
        "the layout `{layout}` is empty (it addresses no offset), but the base {base} lies past the end of the slice of {len} elements"
    )]
    BaseBeyondEnd {
        /// The layout's extents.
        layout: String,
        /// The length of the slice.
        len: usize,
        /// The base offset given.
        base: usize,
    },
    /// The base is smaller than `-min_offset()`: a negative offset would fall before the slice.
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

/// The error of a run-time tensor before the single tensor type.
#[deprecated(note = "use `TensorError`: one tensor type for every layout")]
pub type DynTensorError = TensorError;
/// A tensor over a run-time layout: now [`Tensor`], which takes every layout.
#[deprecated(note = "use `Tensor`: one tensor type for every layout")]
pub type DynTensor<'a, T, L> = Tensor<'a, T, L>;
/// A mutable tensor over a run-time layout: now [`TensorMut`], which takes every layout.
#[deprecated(note = "use `TensorMut`: one tensor type for every layout")]
pub type DynTensorMut<'a, T, L> = TensorMut<'a, T, L>;

/// `, at base B the positions P..=Q` when the base moves the offsets.
fn at_base(min: isize, max: isize, base: usize) -> String {
    if base == 0 {
        String::new()
    } else {
        let (lo, hi) = (base as i128 + min as i128, base as i128 + max as i128);
        format!(", at base {base} the positions {lo}..={hi}")
    }
}

use crate::layout_fn::notation;

/// Checks the invariant of a tensor of layout `l` over a slice of `len` elements at `base`:
/// for an empty layout, `base <= len`; else `base + min_offset() >= 0` and
/// `base + max_offset() < len`.
#[inline]
fn check<L: TrustedLayout>(l: &L, len: usize, base: usize) -> Result<(), TensorError> {
    if l.size() == 0 {
        if base > len {
            return Err(TensorError::BaseBeyondEnd { layout: notation(l), len, base });
        }
        return Ok(());
    }
    let (min, max) = (l.min_offset(), l.max_offset());
    if (base as i128) + (min as i128) < 0 {
        return Err(TensorError::BaseTooSmall { layout: notation(l), min, max, base });
    }
    let needed = base as i128 + max as i128 + 1;
    if needed > len as i128 {
        let needed = usize::try_from(needed).unwrap_or(usize::MAX);
        return Err(TensorError::TooShort { len, layout: notation(l), min, max, base, needed });
    }
    Ok(())
}

/// The base [`Tensor::new`] views a slice at: `-min_offset()`, so that the smallest offset is
/// position 0; 0 for an empty layout, which addresses no offset.
#[inline]
fn new_base<L: TrustedLayout>(l: &L) -> usize {
    if l.size() == 0 { 0 } else { l.min_offset().unsigned_abs() }
}

/// The position of offset `offset` at `base`: exact whenever the sum is in the slice.
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
fn coordinate_out_of_range(layout: String) -> ! {
    panic!("coordinate out of range: a component is not below the extent of its mode in the layout `{layout}`")
}

#[cold]
#[inline(never)]
#[track_caller]
fn sub_tensor_out_of_range(k: usize, count: usize, sub: &str, parent: &str) -> ! {
    panic!("sub-tensor {k} out of range: `{parent}` has {count} sub-tensors of layout `{sub}`")
}

#[cold]
#[inline(never)]
#[track_caller]
fn not_injective(layout: String) -> ! {
    panic!(
        "iter_mut: the layout `{layout}` maps two indices to one element (or its injectivity is not known), so \
         their `&mut` would alias; use `for_each_mut`"
    )
}

/// The offset of a coordinate of the domain (each component below its extent), which lies
/// in `min_offset()..=max_offset()` by the contract of [`TrustedLayout`].
#[inline]
fn checked_offset_of<L: TrustedLayout>(l: &L, coord: L::Coord) -> Option<isize> {
    l.contains(coord).then(|| l.offset_of(coord).to_isize())
}

/// A layout whose tensors are the sub-tensors of tensors of layout `P`: `layout!` implements
/// it for an item whose whole expression is `local_tile(P, tiler)`, `local_partition(P,
/// tiler)` or `slice(P, coordinate with _)`, with `P` an earlier item of the same invocation.
/// Sub-tensor `k` of a tensor of layout `P` is the tensor of layout `Self` at the parent's
/// base plus [`SubLayout::base`]`(k)` ([`Tensor::tile`]).
///
/// - `local_tile(P, tiler)` is mode 0 of `zipped_divide(P, tiler)`, the layout of one tile;
///   there are `COUNT` = the number of tiles, and tile `k` starts at mode 1 of the zipped
///   divide at `k`.
/// - `local_partition(P, tiler)` is mode 1 of the zipped divide, the elements that one
///   position of the tile owns across all tiles (CuTe's `outer_partition`); `COUNT` is the
///   tile size and the partition of position `k` starts at mode 0 of the zipped divide at `k`.
/// - `slice(P, c)` is the layout of the modes `c` leaves free (`_`); `COUNT` is the size of
///   the fixed modes and sub-tensor `k` starts at P's offset of the k-th coordinate of the
///   fixed modes (colexicographic over those modes: for `slice(A, (_, 0))` with `A = (M,N)`,
///   `k` is the column). The values of the fixed entries in the item are ignored: they only
///   mark which modes are fixed.
///
/// ```
/// use cute_layout::{StaticLayout, SubLayout, Tensor, layout};
///
/// layout! {
///     pub A = (8,8):(1,8);
///     pub Tile = local_tile(A, [4:1, 2:1]);     // (4,2):(1,8), one 4x2 tile
///     pub Part = local_partition(A, [4:1, 2:1]); // (2,4):(4,16), one thread's elements
///     pub Col = slice(A, (_, 0));                // 8:1, a column
/// }
///
/// assert_eq!(<Tile as SubLayout<A>>::COUNT, 8);  // 2x4 tiles
/// assert_eq!(<Tile as SubLayout<A>>::base(1), 4); // the second tile starts at row 4
/// assert_eq!(<Part as SubLayout<A>>::COUNT, 8);  // 4x2 positions per tile
/// assert_eq!(<Col as SubLayout<A>>::base(3), 24); // column 3
///
/// let data: Vec<u32> = (0..64).collect();
/// let a = Tensor::new(&data, A).unwrap();
/// let tile = a.tile::<Tile>(1);
/// assert_eq!(tile[0], 4);
/// assert_eq!(tile.iter().copied().collect::<Vec<_>>(), [4, 5, 6, 7, 12, 13, 14, 15]);
/// assert_eq!(a.tile::<Col>(3).iter().copied().collect::<Vec<_>>(), (24..32).collect::<Vec<_>>());
/// assert!(a.try_tile::<Tile>(8).is_none());
/// ```
///
/// # Safety
///
/// [`Tensor::tile`] does not check the sub-tensor's offsets against the slice; it relies on
/// this contract: for every `k < COUNT`,
/// `P::MIN_OFFSET <= base(k) + Self::MIN_OFFSET` and
/// `base(k) + Self::MAX_OFFSET <= P::MAX_OFFSET`. `layout!` implements this trait only where
/// the algebra proves it (and checks the numbers before emitting the impl, and that `P` is the
/// layout it planned on); do not implement it by hand.
pub unsafe trait SubLayout<P: StaticLayout>: StaticLayout {
    /// How many sub-tensors a tensor of layout `P` has.
    const COUNT: usize;

    /// The offset, among the parent's offsets, at which sub-tensor `k < COUNT` starts
    /// (straight-line code; not meaningful for `k >= COUNT`).
    fn base(k: usize) -> isize;
}

/// A shared view of a slice through the layout `L`: element `i` is `data[base + l.offset(i)]`.
///
/// ```
/// use cute_layout::{Tensor, TensorError, layout};
///
/// layout! {
///     pub ColMajor = (4,8):(1,4);
///     pub Reversed = (4,2):(-1,4);
/// }
///
/// let data: Vec<f32> = (0..32).map(|x| x as f32).collect();
/// let t = Tensor::new(&data, ColMajor).unwrap();
/// assert_eq!(t[5], 5.0);                  // by index: one compare with SIZE
/// assert_eq!(*t.at((1, 1)), 5.0);         // by natural coordinate, each mode checked
/// assert!(t.get_at((5, 0)).is_none());    // row 5 of 4
/// assert_eq!(t.len(), 32);
/// assert_eq!(t.iter().step_by(4).copied().collect::<Vec<_>>()[..3], [0.0, 4.0, 8.0]);
///
/// // Too short: the error names the numbers.
/// let e = Tensor::new(&data[..20], ColMajor).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "the slice has 20 elements but the layout `(4,8):(1,4)` addresses offsets 0..=31 (needs 32)"
/// );
/// assert!(matches!(e, TensorError::TooShort { needed: 32, .. }));
///
/// // Negative strides: the base is `-MIN_OFFSET`, so offset -3 is `data[0]`.
/// let r = Tensor::new(&data[..8], Reversed).unwrap();
/// assert_eq!((r.base(), r[0], r[3], r[4]), (3, 3.0, 0.0, 7.0));
/// ```
pub struct Tensor<'a, T, L: TrustedLayout> {
    data: &'a [T],
    base: usize,
    layout: L,
}

/// A mutable view of a slice through the layout `L`: element `i` is
/// `data[base + l.offset(i)]`. Several indices may share an offset (a broadcast mode,
/// stride 0); writes through `t[i]` then land on the same element, and `iter_mut` refuses
/// such a layout.
///
/// ```
/// use cute_layout::{TensorMut, layout};
///
/// layout! {
///     pub RowMajor = (4,8):(8,1);
///     pub Row = slice(RowMajor, (0, _));
/// }
///
/// let mut data = vec![0u32; 32];
/// let mut t = TensorMut::new(&mut data, RowMajor).unwrap();
/// t[1] = 7;                        // index 1 is coordinate (1,0): offset 8
/// *t.at_mut((2, 3)) = 9;           // offset 2*8 + 3
/// let mut row = t.tile::<Row>(3);  // row 3, borrowing `t` mutably
/// row.for_each_mut(|x| *x += 1);
/// assert_eq!(t.as_tensor()[1], 7);
/// assert_eq!((data[8], data[19], data[24..].iter().sum::<u32>()), (7, 9, 8));
/// ```
pub struct TensorMut<'a, T, L: TrustedLayout> {
    data: &'a mut [T],
    base: usize,
    layout: L,
}

impl<'a, T, L: TrustedLayout> Tensor<'a, T, L> {
    /// Views `data` through `layout` at the base `-layout.min_offset()` (0 unless some stride
    /// is negative), so that the smallest offset is `data[0]`. Fails when the slice is shorter
    /// than `base + max_offset() + 1` (the cosize for a layout without negative strides). An
    /// empty layout (an extent 0) addresses no element: any slice, `&[]` included, at base 0.
    ///
    /// ```
    /// use cute_layout::{RuntimeLayout, Tensor};
    ///
    /// let empty = RuntimeLayout::<2>::new(&[(4, 1), (0, 4)]).unwrap();
    /// let t = Tensor::<f32, _>::new(&[], empty).unwrap();
    /// assert_eq!((t.size(), t.iter().count()), (0, 0));
    /// ```
    #[inline]
    pub fn new(data: &'a [T], layout: L) -> Result<Self, TensorError> {
        let base = new_base(&layout);
        Self::with_base(data, layout, base)
    }

    /// Views `data` through `layout` with offset 0 at position `base`: fails unless
    /// `base >= -min_offset()` and `data.len() >= base + max_offset() + 1`, or, for an empty
    /// layout, unless `base <= data.len()`.
    #[inline]
    pub fn with_base(data: &'a [T], layout: L, base: usize) -> Result<Self, TensorError> {
        check(&layout, data.len(), base)?;
        Ok(Tensor { data, base, layout })
    }

    /// The element at index `index`, or `None` when `index >= size()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&'a T> {
        if index >= self.layout.size() {
            return None;
        }
        let p = position(self.base, self.layout.offset(index));
        // SAFETY: `index < size()`, so the layout is not empty and the offset lies in
        // min_offset()..=max_offset() (the contract of `TrustedLayout`); the position is in
        // the slice by the invariant of a non-empty tensor, which creation checked (module
        // docs).
        Some(unsafe { self.data.get_unchecked(p) })
    }

    /// The element at a natural coordinate. Panics unless every component is below the
    /// extent of its mode (as slice indexing panics).
    #[inline]
    #[track_caller]
    pub fn at(&self, coord: L::Coord) -> &'a T {
        match self.get_at(coord) {
            Some(x) => x,
            None => coordinate_out_of_range(notation(&self.layout)),
        }
    }

    /// [`Tensor::at`] without the panic: `None` when a component is past its extent.
    #[inline]
    pub fn get_at(&self, coord: L::Coord) -> Option<&'a T> {
        let o = checked_offset_of(&self.layout, coord)?;
        // SAFETY: the coordinate is in the domain (checked), so its offset is that of an index
        // below the size (the contract of `TrustedLayout`): the layout is not empty and the
        // offset lies in min_offset()..=max_offset(), so the position is in the slice by the
        // invariant of a non-empty tensor, which creation checked.
        Some(unsafe { self.data.get_unchecked(position(self.base, o)) })
    }

    /// The elements in index order (the layout's loop nest when consumed whole by
    /// `for_each`, `fold`, `sum`, …; one `offset` per element otherwise).
    #[inline]
    pub fn iter(&self) -> Iter<'a, T, L> {
        Iter { data: self.data, base: self.base, front: 0, back: self.layout.size(), layout: self.layout }
    }

    /// Calls `f` with every element in index order, by the layout's loop nest.
    #[inline]
    pub fn for_each<F: FnMut(&'a T)>(&self, mut f: F) {
        let (data, base) = (self.data, self.base);
        self.layout.for_each_offset(|o| {
            // SAFETY: the traversal visits the offsets of the indices below size() (the
            // contract of `TrustedLayout`), so it runs only for a non-empty layout, and they
            // lie in min_offset()..=max_offset(); the position is in the slice by the
            // invariant of a non-empty tensor, which creation checked.
            f(unsafe { data.get_unchecked(position(base, o)) })
        });
    }

    /// Calls `f` with each run of elements at consecutive offsets, in index order (the runs
    /// of [`LayoutFn::for_each_run`](crate::LayoutFn::for_each_run), as slices): a strided traversal of a contiguous inner
    /// mode costs what a contiguous loop costs.
    ///
    /// ```
    /// use cute_layout::{Tensor, layout};
    /// layout! { pub Padded = (4,3):(1,6); }
    /// let data: Vec<u32> = (0..16).collect();
    /// let mut sums = Vec::new();
    /// Tensor::new(&data, Padded).unwrap().for_each_slice(|run| sums.push(run.iter().sum::<u32>()));
    /// assert_eq!(sums, [6, 30, 54]);
    /// ```
    #[inline]
    pub fn for_each_slice<F: FnMut(&'a [T])>(&self, mut f: F) {
        let (data, base) = (self.data, self.base);
        self.layout.for_each_run(|start, len| {
            let at = position(base, start);
            // SAFETY: a run's offsets `start..start + len` are offsets of indices below the
            // size (the contract of `TrustedLayout`), so there are runs only for a non-empty
            // layout, and they lie in min_offset()..=max_offset(), which creation checked
            // the slice covers around `base` for a non-empty tensor.
            f(unsafe { data.get_unchecked(at..at + len) })
        });
    }

    /// The tensor over the elements of tile `k` of an edge tiling of this tensor's layout
    /// (`None` if `k >= tiles.count()` or the tile does not fit this tensor's slice, which
    /// happens only when `tiles` tiles some other layout; an empty tensor has no tile with
    /// elements). One check, as at creation.
    pub fn edge_tile<const R: usize>(&self, tiles: &EdgeTiles<R>, k: usize) -> Option<Tensor<'a, T, RuntimeLayout<R>>> {
        if k >= tiles.count() || (self.is_empty() && tiles.tile(k).size() > 0) {
            return None;
        }
        let base = self.base.checked_add(tiles.tile_base(k))?;
        Tensor::with_base(self.data, tiles.tile(k), base).ok()
    }

    /// The whole slice the tensor views.
    #[inline]
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// Position `base()` of the slice: the element at offset 0. (With negative strides,
    /// smaller offsets lie before it.)
    #[inline]
    pub fn as_ptr(&self) -> *const T {
        self.data.as_ptr().wrapping_add(self.base)
    }

    /// The position of offset 0 in the slice.
    #[inline]
    pub fn base(&self) -> usize {
        self.base
    }

    /// The layout.
    #[inline]
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The number of elements, `size(L)`.
    #[inline]
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// `size(L)` by CuTe's name.
    #[inline]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// Whether the layout has no indices (an empty run-time layout; never a `layout!` item).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }
}

impl<'a, T, L: StaticLayout> Tensor<'a, T, L> {
    /// Sub-tensor `k` (see [`SubLayout`]): the same slice through `S` at the base
    /// `base() + S::base(k)`. Panics when `k >= S::COUNT`.
    #[inline]
    #[track_caller]
    pub fn tile<S: SubLayout<L>>(&self, k: usize) -> Tensor<'a, T, S> {
        match self.try_tile(k) {
            Some(t) => t,
            None => sub_tensor_out_of_range(k, S::COUNT, S::NOTATION, L::NOTATION),
        }
    }

    /// Sub-tensor `k`, or `None` when `k >= S::COUNT`.
    #[inline]
    pub fn try_tile<S: SubLayout<L>>(&self, k: usize) -> Option<Tensor<'a, T, S>> {
        // The invariant of the sub-tensor: static layouts are never empty (`SIZE >= 1`, the
        // contract of `StaticLayout`), so with b = base() and s = S::base(k), the parent's
        // invariant 0 <= b + L::MIN and b + L::MAX < len, and the contract of `SubLayout` for
        // k < COUNT, L::MIN <= s + S::MIN and s + S::MAX <= L::MAX, give
        // 0 <= (b + s) + S::MIN and (b + s) + S::MAX < len. Since S::MIN <= 0, b + s >= 0 is
        // the new base.
        (k < S::COUNT).then(|| Tensor { data: self.data, base: sub_base::<L, S>(self.base, k), layout: S::default() })
    }
}

/// `b + S::base(k)`, the base of sub-tensor `k`.
#[inline(always)]
fn sub_base<L: StaticLayout, S: SubLayout<L>>(b: usize, k: usize) -> usize {
    b.wrapping_add_signed(S::base(k))
}

impl<T, L: TrustedLayout> Clone for Tensor<'_, T, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, L: TrustedLayout> Copy for Tensor<'_, T, L> {}

impl<T, L: TrustedLayout> Index<usize> for Tensor<'_, T, L> {
    type Output = T;

    /// Element `index`; panics (like slice indexing) when `index >= size()`.
    #[inline]
    #[track_caller]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => index_out_of_bounds(index, self.layout.size()),
        }
    }
}

impl<T: fmt::Debug, L: TrustedLayout> fmt::Debug for Tensor<'_, T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("layout", &format_args!("{}", notation(&self.layout)))
            .field("base", &self.base)
            .field("elements", &self.iter().collect::<Vec<_>>())
            .finish()
    }
}

impl<'a, T, L: TrustedLayout> IntoIterator for &Tensor<'a, T, L> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T, L>;

    fn into_iter(self) -> Iter<'a, T, L> {
        self.iter()
    }
}

impl<'a, T, L: TrustedLayout> TensorMut<'a, T, L> {
    /// Views `data` mutably through `layout` at the base `-layout.min_offset()` (0 for an
    /// empty layout, which takes any slice); fails as [`Tensor::new`] does.
    #[inline]
    pub fn new(data: &'a mut [T], layout: L) -> Result<Self, TensorError> {
        let base = new_base(&layout);
        Self::with_base(data, layout, base)
    }

    /// Views `data` mutably through `layout` with offset 0 at position `base`; fails as
    /// [`Tensor::with_base`] does.
    #[inline]
    pub fn with_base(data: &'a mut [T], layout: L, base: usize) -> Result<Self, TensorError> {
        check(&layout, data.len(), base)?;
        Ok(TensorMut { data, base, layout })
    }

    /// A shared view of the same elements.
    #[inline]
    pub fn as_tensor(&self) -> Tensor<'_, T, L> {
        Tensor { data: self.data, base: self.base, layout: self.layout }
    }

    /// The element at index `index`, or `None` when `index >= size()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        self.as_tensor().get(index)
    }

    /// The element at index `index` mutably, or `None` when `index >= size()`.
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index >= self.layout.size() {
            return None;
        }
        let p = position(self.base, self.layout.offset(index));
        // SAFETY: `index < size()`, so the layout is not empty and the offset lies in
        // min_offset()..=max_offset() (the contract of `TrustedLayout`); `p` is in the slice
        // by the invariant of a non-empty tensor, which creation checked (module docs).
        Some(unsafe { self.data.get_unchecked_mut(p) })
    }

    /// The element at a natural coordinate; checked as [`Tensor::at`] (each mode).
    #[inline]
    #[track_caller]
    pub fn at(&self, coord: L::Coord) -> &T {
        match self.get_at(coord) {
            Some(x) => x,
            None => coordinate_out_of_range(notation(&self.layout)),
        }
    }

    /// [`TensorMut::at`] without the panic.
    #[inline]
    pub fn get_at(&self, coord: L::Coord) -> Option<&T> {
        self.as_tensor().get_at(coord)
    }

    /// The element at a natural coordinate mutably; checked as [`Tensor::at`].
    #[inline]
    #[track_caller]
    pub fn at_mut(&mut self, coord: L::Coord) -> &mut T {
        let layout = self.layout;
        match self.get_at_mut(coord) {
            Some(x) => x,
            None => coordinate_out_of_range(notation(&layout)),
        }
    }

    /// [`TensorMut::at_mut`] without the panic.
    #[inline]
    pub fn get_at_mut(&mut self, coord: L::Coord) -> Option<&mut T> {
        let o = checked_offset_of(&self.layout, coord)?;
        // SAFETY: as in `Tensor::get_at`: a coordinate of the domain is one of a non-empty
        // layout, with an offset in min_offset()..=max_offset(), inside the slice by the
        // invariant of a non-empty tensor.
        Some(unsafe { self.data.get_unchecked_mut(position(self.base, o)) })
    }

    /// The elements in index order.
    #[inline]
    pub fn iter(&self) -> Iter<'_, T, L> {
        self.as_tensor().iter()
    }

    /// The elements mutably, in index order. Panics when the layout maps two indices to one
    /// element (their `&mut` would alias) or its injectivity is not known: use
    /// [`TensorMut::for_each_mut`] there.
    #[inline]
    #[track_caller]
    pub fn iter_mut(&mut self) -> IterMut<'_, T, L> {
        let layout = self.layout;
        match self.try_iter_mut() {
            Some(it) => it,
            None => not_injective(notation(&layout)),
        }
    }

    /// [`TensorMut::iter_mut`] without the panic: `None` unless the layout is injective.
    #[inline]
    pub fn try_iter_mut(&mut self) -> Option<IterMut<'_, T, L>> {
        if !self.layout.is_injective() {
            return None;
        }
        let (front, back) = (0, self.layout.size());
        Some(IterMut {
            data: self.data.as_mut_ptr(),
            base: self.base,
            front,
            back,
            layout: self.layout,
            borrow: Default::default(),
        })
    }

    /// Calls `f` with every element in index order (see [`Tensor::for_each`]).
    #[inline]
    pub fn for_each<F: FnMut(&T)>(&self, f: F) {
        self.as_tensor().for_each(f)
    }

    /// Calls `f` with each element mutably, in index order, by the layout's loop nest (an
    /// element several indices share is visited once per index).
    #[inline]
    pub fn for_each_mut<F: FnMut(&mut T)>(&mut self, mut f: F) {
        let (data, base) = (&mut *self.data, self.base);
        self.layout.for_each_offset(|o| {
            // SAFETY: the traversal visits the offsets of the indices below the size (the
            // contract of `TrustedLayout`), so it runs only for a non-empty layout, and they
            // lie in min_offset()..=max_offset(), so the position is in the slice by the
            // invariant of a non-empty tensor, which creation checked; each `&mut` ends
            // before the next.
            f(unsafe { data.get_unchecked_mut(position(base, o)) })
        });
    }

    /// Calls `f` with each run of elements at consecutive offsets (see
    /// [`Tensor::for_each_slice`]).
    #[inline]
    pub fn for_each_slice<F: FnMut(&[T])>(&self, f: F) {
        self.as_tensor().for_each_slice(f)
    }

    /// Calls `f` with each run of elements at consecutive offsets, mutably, in index order
    /// (see [`Tensor::for_each_slice`]; each borrow ends before the next run).
    #[inline]
    pub fn for_each_slice_mut<F: FnMut(&mut [T])>(&mut self, mut f: F) {
        let (data, base) = (&mut *self.data, self.base);
        self.layout.for_each_run(|start, len| {
            let at = position(base, start);
            // SAFETY: as in `Tensor::for_each_slice`: runs exist only for a non-empty layout
            // and lie in the range creation checked; each `&mut` ends before the next.
            f(unsafe { data.get_unchecked_mut(at..at + len) })
        });
    }

    /// The mutable [`Tensor::edge_tile`], borrowing this tensor mutably.
    pub fn edge_tile_mut<const R: usize>(
        &mut self,
        tiles: &EdgeTiles<R>,
        k: usize,
    ) -> Option<TensorMut<'_, T, RuntimeLayout<R>>> {
        if k >= tiles.count() || (self.is_empty() && tiles.tile(k).size() > 0) {
            return None;
        }
        let base = self.base.checked_add(tiles.tile_base(k))?;
        TensorMut::with_base(&mut *self.data, tiles.tile(k), base).ok()
    }

    /// The whole slice the tensor views.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.data
    }

    /// The whole slice the tensor views, mutably (the layout's numbers stay as checked).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self.data
    }

    /// Position `base()` of the slice: the element at offset 0.
    #[inline]
    pub fn as_ptr(&self) -> *const T {
        self.data.as_ptr().wrapping_add(self.base)
    }

    /// Position `base()` of the slice, mutably: the element at offset 0.
    #[inline]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.data.as_mut_ptr().wrapping_add(self.base)
    }

    /// The position of offset 0 in the slice.
    #[inline]
    pub fn base(&self) -> usize {
        self.base
    }

    /// The layout.
    #[inline]
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// The number of elements, `size(L)`.
    #[inline]
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// `size(L)` by CuTe's name.
    #[inline]
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// Whether the layout has no indices.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }
}

impl<T, L: StaticLayout> TensorMut<'_, T, L> {
    /// Sub-tensor `k` (see [`SubLayout`]), borrowing this tensor mutably. Panics when
    /// `k >= S::COUNT`.
    #[inline]
    #[track_caller]
    pub fn tile<S: SubLayout<L>>(&mut self, k: usize) -> TensorMut<'_, T, S> {
        match self.try_tile(k) {
            Some(t) => t,
            None => sub_tensor_out_of_range(k, S::COUNT, S::NOTATION, L::NOTATION),
        }
    }

    /// Sub-tensor `k` mutably, or `None` when `k >= S::COUNT`.
    #[inline]
    pub fn try_tile<S: SubLayout<L>>(&mut self, k: usize) -> Option<TensorMut<'_, T, S>> {
        // The sub-tensor's invariant follows from this tensor's and the contract of
        // `SubLayout`, as in `Tensor::try_tile`.
        let base = sub_base::<L, S>(self.base, k);
        (k < S::COUNT).then(|| TensorMut { data: &mut *self.data, base, layout: S::default() })
    }
}

impl<T, L: TrustedLayout> Index<usize> for TensorMut<'_, T, L> {
    type Output = T;

    /// Element `index`; panics (like slice indexing) when `index >= size()`.
    #[inline]
    #[track_caller]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(x) => x,
            None => index_out_of_bounds(index, self.layout.size()),
        }
    }
}

impl<T, L: TrustedLayout> IndexMut<usize> for TensorMut<'_, T, L> {
    /// Element `index` mutably; panics (like slice indexing) when `index >= size()`.
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

impl<T: fmt::Debug, L: TrustedLayout> fmt::Debug for TensorMut<'_, T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.as_tensor();
        f.debug_struct("TensorMut")
            .field("layout", &format_args!("{}", notation(&self.layout)))
            .field("base", &t.base)
            .field("elements", &t.iter().collect::<Vec<_>>())
            .finish()
    }
}

/// The elements of a [`Tensor`] in index order. Consumed whole (`for_each`, `fold`, `sum`,
/// …), it runs the layout's loop nest; `next` computes one `offset` per element.
///
/// ```
/// use cute_layout::{Tensor, layout};
///
/// layout! { pub Padded = (2,3):(1,4); }
/// let data: Vec<i32> = (0..10).collect();
/// let t = Tensor::new(&data, Padded).unwrap();
/// let mut it = t.iter();
/// assert_eq!(it.len(), 6);
/// assert_eq!((it.next(), it.next_back()), (Some(&0), Some(&9)));
/// assert_eq!(it.copied().collect::<Vec<_>>(), [1, 4, 5, 8]);
/// assert_eq!(t.iter().sum::<i32>(), 27);                  // consumed whole: the loop nest
/// ```
pub struct Iter<'a, T, L: TrustedLayout> {
    data: &'a [T],
    base: usize,
    /// The indices not yet visited: `front..back`, a sub-range of `0..size()`.
    front: usize,
    back: usize,
    layout: L,
}

impl<'a, T, L: TrustedLayout> Iter<'a, T, L> {
    /// # Safety
    ///
    /// `index < size()`.
    #[inline(always)]
    unsafe fn element(&self, index: usize) -> &'a T {
        // SAFETY: the caller guarantees `index < size()`, so the layout is not empty and the
        // offset lies in min_offset()..=max_offset(); the position is in the slice by the
        // invariant of the non-empty tensor this iterator came from.
        unsafe { self.data.get_unchecked(position(self.base, self.layout.offset(index))) }
    }
}

impl<T, L: TrustedLayout> Clone for Iter<'_, T, L> {
    fn clone(&self) -> Self {
        Iter { data: self.data, base: self.base, front: self.front, back: self.back, layout: self.layout }
    }
}

impl<'a, T, L: TrustedLayout> Iterator for Iter<'a, T, L> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        if self.front < self.back {
            let i = self.front;
            self.front += 1;
            // SAFETY: `i < back <= size()`.
            Some(unsafe { self.element(i) })
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    #[inline]
    fn fold<B, F: FnMut(B, &'a T) -> B>(mut self, init: B, mut f: F) -> B {
        if self.front != 0 || self.back != self.layout.size() {
            let mut acc = init;
            // `for` calls `next` (not `fold`): one `offset` per element.
            for x in self.by_ref() {
                acc = f(acc, x);
            }
            return acc;
        }
        let (data, base) = (self.data, self.base);
        let mut acc = Some(init);
        self.layout.for_each_offset(|o| {
            // SAFETY: the traversal visits the offsets of the indices below the size (the
            // contract of `TrustedLayout`), so it runs only for a non-empty layout, and they
            // lie in min_offset()..=max_offset(), so the position is in the slice by the
            // invariant of a non-empty tensor.
            let x = unsafe { data.get_unchecked(position(base, o)) };
            acc = acc.take().map(|a| f(a, x));
        });
        match acc {
            Some(a) => a,
            None => unreachable!("the accumulator is put back after every call"),
        }
    }
}

impl<T, L: TrustedLayout> DoubleEndedIterator for Iter<'_, T, L> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front < self.back {
            self.back -= 1;
            // SAFETY: `back < size()` (it started at `size()` and was just decremented).
            Some(unsafe { self.element(self.back) })
        } else {
            None
        }
    }
}

impl<T, L: TrustedLayout> ExactSizeIterator for Iter<'_, T, L> {}

impl<T, L: TrustedLayout> FusedIterator for Iter<'_, T, L> {}

impl<T, L: TrustedLayout> fmt::Debug for Iter<'_, T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter")
            .field("layout", &format_args!("{}", notation(&self.layout)))
            .field("front", &self.front)
            .field("back", &self.back)
            .finish()
    }
}

/// The elements of a [`TensorMut`] mutably, in index order ([`TensorMut::iter_mut`], for an
/// injective layout only: each index is a distinct element, so the `&mut` never alias).
///
/// ```
/// use cute_layout::{TensorMut, layout};
///
/// layout! { pub Col = (3,2):(1,5); }
/// let mut data = [0u8; 8];
/// let mut t = TensorMut::new(&mut data, Col).unwrap();
/// for (i, x) in t.iter_mut().enumerate() {
///     *x = i as u8 + 1;
/// }
/// assert_eq!(data, [1, 2, 3, 0, 0, 4, 5, 6]);
/// ```
pub struct IterMut<'a, T, L: TrustedLayout> {
    data: *mut T,
    base: usize,
    front: usize,
    back: usize,
    layout: L,
    borrow: std::marker::PhantomData<&'a mut [T]>,
}

// SAFETY: an `IterMut` is a `&mut [T]` split into distinct elements; it is `Send`/`Sync`
// exactly when `&mut [T]` is.
unsafe impl<T: Send, L: TrustedLayout + Send> Send for IterMut<'_, T, L> {}
// SAFETY: as above (`&mut [T]` is `Sync` when `T` is).
unsafe impl<T: Sync, L: TrustedLayout + Sync> Sync for IterMut<'_, T, L> {}

impl<'a, T, L: TrustedLayout> IterMut<'a, T, L> {
    /// # Safety
    ///
    /// `index < size()`, and no other element of this index is handed out.
    #[inline(always)]
    unsafe fn element(&mut self, index: usize) -> &'a mut T {
        // SAFETY: `index < size()`, so the layout is not empty, and puts the position in the
        // slice (the invariant of a non-empty tensor, which the borrow `'a` keeps); the layout
        // is injective (checked by `try_iter_mut`) and each index is visited once
        // (`front..back` only shrinks), so no two `&mut` alias.
        unsafe { &mut *self.data.add(position(self.base, self.layout.offset(index))) }
    }
}

impl<'a, T, L: TrustedLayout> Iterator for IterMut<'a, T, L> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        if self.front < self.back {
            let i = self.front;
            self.front += 1;
            // SAFETY: `i < back <= size()`, and `i` leaves `front..back`.
            Some(unsafe { self.element(i) })
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<T, L: TrustedLayout> DoubleEndedIterator for IterMut<'_, T, L> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front < self.back {
            self.back -= 1;
            // SAFETY: `back < size()`, and it leaves `front..back`.
            Some(unsafe { self.element(self.back) })
        } else {
            None
        }
    }
}

impl<T, L: TrustedLayout> ExactSizeIterator for IterMut<'_, T, L> {}

impl<T, L: TrustedLayout> FusedIterator for IterMut<'_, T, L> {}

impl<T, L: TrustedLayout> fmt::Debug for IterMut<'_, T, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IterMut")
            .field("layout", &format_args!("{}", notation(&self.layout)))
            .field("front", &self.front)
            .field("back", &self.back)
            .finish()
    }
}
