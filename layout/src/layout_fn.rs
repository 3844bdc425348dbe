//! A layout as a value: the trait every layout a [`Tensor`](crate::Tensor) views a slice
//! through implements (static items, dynamic items, [`RuntimeLayout`](crate::RuntimeLayout)),
//! and the `unsafe` promise tensors rely on instead of checking every access.

use crate::{IntTuple, Layout, Offset, StaticLayout};

/// A layout as a value: what static layouts (unit structs, every method a constant
/// function of the type), dynamic layouts (structs of run-time integers built by `new`) and
/// run-time flat layouts have in common. Generic code over all of them takes `L: LayoutFn`.
///
/// ```
/// use cute_layout::{LayoutFn, layout};
///
/// layout! {
///     pub Tile = (8,8):(1,8);
///     pub Mat = (M,N):(1,LD);
/// }
///
/// fn offsets<L: LayoutFn<Offset = usize>>(l: &L) -> Vec<usize> {
///     (0..l.size()).map(|i| l.offset(i)).collect()
/// }
/// assert_eq!(offsets(&Tile)[9], 9);
/// let m = Mat::new(4, 3, 10).unwrap();
/// assert_eq!(offsets(&m), [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);
/// assert!(m.contains((3, 2)) && !m.contains((4, 0)));
/// ```
pub trait LayoutFn: Copy {
    /// `usize`, or `isize` when some stride is negative.
    type Offset: Offset;
    /// The natural coordinate: nested tuples of `usize` shaped like the layout (an array of
    /// the flat modes for a [`RuntimeLayout`](crate::RuntimeLayout)).
    type Coord: Copy;
    /// `size(L)`.
    fn size(&self) -> usize;
    /// The offset of an index.
    fn offset(&self, index: usize) -> Self::Offset;
    /// The offset of a natural coordinate.
    fn offset_of(&self, coord: Self::Coord) -> Self::Offset;
    /// The natural coordinate of an index.
    fn coord(&self, index: usize) -> Self::Coord;
    /// Whether every component of `coord` is below the extent of its mode: the coordinate
    /// lies in the domain.
    fn contains(&self, coord: Self::Coord) -> bool;
    /// Visits the offset of every index in order.
    fn for_each_offset<F: FnMut(Self::Offset)>(&self, f: F);
    /// How many consecutive indices map to consecutive offsets at the start of every run:
    /// the extent of the first mode when its stride is 1, else 1 (it divides the size).
    #[inline]
    fn unit_run(&self) -> usize {
        1
    }
    /// Calls `f(start, len)` for each run of `len = unit_run()` consecutive offsets, in
    /// index order.
    #[inline]
    fn for_each_run<F: FnMut(Self::Offset, usize)>(&self, mut f: F) {
        let run = self.unit_run();
        if run <= 1 {
            return self.for_each_offset(|o| f(o, 1));
        }
        let mut i = 0;
        while i < self.size() {
            f(self.offset(i), run);
            i += run;
        }
    }
    /// The smallest offset of the domain.
    fn min_offset(&self) -> isize;
    /// The largest offset of the domain.
    fn max_offset(&self) -> isize;
    /// Whether distinct indices have distinct offsets (`false` when it is not known).
    fn is_injective(&self) -> bool;
    /// The layout-core layout. An empty layout (an extent 0, which a layout-core layout
    /// cannot have) gives `1:0`.
    fn to_layout(&self) -> Layout;
    /// [`to_layout`](LayoutFn::to_layout) with every extent 0 read as 1: what the run-time
    /// planners plan an empty operand with, its empty modes known from
    /// [`shape`](LayoutFn::shape). The same as `to_layout` for a layout that is not empty.
    #[doc(hidden)]
    fn planned_layout(&self) -> Layout {
        self.to_layout()
    }
    /// The shape, CuTe's `shape(L)`: that of [`to_layout`](LayoutFn::to_layout), except that
    /// a [`RuntimeLayout`](crate::RuntimeLayout) gives its extents as they are (an extent 0
    /// of an empty layout included, saturated at `i64::MAX`; `()` at rank 0, one extent as an
    /// integer).
    fn shape(&self) -> IntTuple {
        self.to_layout().shape().clone()
    }
}

/// A [`LayoutFn`] whose offsets are where it says they are: tensors rely on it instead of
/// checking every access.
///
/// # Safety
///
/// For every value `l` and every `i < l.size()`:
/// `l.min_offset() <= l.offset(i).to_isize() <= l.max_offset()` (exactly: the offset
/// fits in `isize`), and `l.min_offset() <= 0`; `l.for_each_offset` calls its argument with
/// `l.offset(0)`, …, `l.offset(l.size() - 1)` in that order; `l.unit_run()` divides
/// `l.size()` (when the size is not 0) and `offset(i + j) = offset(i) + j` for every multiple
/// `i` of it and `j < unit_run()`; `l.for_each_run` visits those runs in order; when
/// `l.is_injective()` is true, distinct indices below the size have distinct offsets; for
/// every coordinate `c` with `l.contains(c)`, `l.offset_of(c)` is the offset of an index below
/// the size (so it lies in `min_offset()..=max_offset()`); and these methods return the same
/// results every time they are called on the same value (no interior mutability). The numbers of a layout
/// value live in the facade's types with private fields, so safe code cannot change them;
/// `layout!` implements this trait for its dynamic items, [`StaticLayout`]s have it by their
/// own contract.
///
/// ```
/// use cute_layout::{LayoutFn, RuntimeLayout, Tensor, TrustedLayout, layout};
///
/// /// Any layout a tensor can view a slice through.
/// fn largest<L: TrustedLayout>(data: &[i32], l: L) -> Option<i32> {
///     Tensor::new(data, l).ok()?.iter().copied().max()
/// }
///
/// layout! {
///     pub Static = (2,2):(1,3);
///     pub Mat = (M,N):(1,LD);
/// }
/// let data = [5, -1, 7, 2, 0, 9];
/// assert_eq!(largest(&data, Static), Some(5));                       // offsets 0, 1, 3, 4
/// assert_eq!(largest(&data, Mat::new(2, 2, 4).unwrap()), Some(9));   // 0, 1, 4, 5
/// let r = RuntimeLayout::<1>::new(&[(3, 2)]).unwrap();              // 0, 2, 4
/// assert_eq!((largest(&data, r), r.max_offset()), (Some(7), 4));
/// assert_eq!(largest(&data[..4], Mat::new(2, 2, 4).unwrap()), None);  // too short
/// ```
pub unsafe trait TrustedLayout: LayoutFn {
    /// Not a public API: an item only this trait has, so that an `unsafe impl` emitted by
    /// `layout!` cannot name another trait.
    #[doc(hidden)]
    const __TRUSTED: ();
}

impl<L: StaticLayout> LayoutFn for L {
    type Offset = L::Offset;
    type Coord = L::Coord;
    #[inline]
    fn size(&self) -> usize {
        L::SIZE
    }
    #[inline]
    fn offset(&self, index: usize) -> L::Offset {
        <L as crate::GeneratedLayout>::offset(index)
    }
    #[inline]
    fn offset_of(&self, coord: L::Coord) -> L::Offset {
        <L as crate::GeneratedLayout>::offset_of(coord)
    }
    #[inline]
    fn coord(&self, index: usize) -> L::Coord {
        <L as crate::GeneratedLayout>::coord(index)
    }
    #[inline]
    fn contains(&self, coord: L::Coord) -> bool {
        <L as crate::GeneratedLayout>::contains(coord)
    }
    #[inline]
    fn for_each_offset<F: FnMut(L::Offset)>(&self, f: F) {
        <L as crate::GeneratedLayout>::for_each_offset(f)
    }
    #[inline]
    fn unit_run(&self) -> usize {
        L::UNIT_RUN
    }
    #[inline]
    fn for_each_run<F: FnMut(L::Offset, usize)>(&self, f: F) {
        <L as StaticLayout>::for_each_run(f)
    }
    #[inline]
    fn min_offset(&self) -> isize {
        L::MIN_OFFSET
    }
    #[inline]
    fn max_offset(&self) -> isize {
        L::MAX_OFFSET
    }
    #[inline]
    fn is_injective(&self) -> bool {
        L::INJECTIVE
    }
    fn to_layout(&self) -> Layout {
        <L as StaticLayout>::to_layout()
    }
}

// SAFETY: the contract of `StaticLayout` (which `GeneratedLayout`'s implementor, `layout!`,
// vouches for): every offset of the domain lies in MIN_OFFSET..=MAX_OFFSET with
// MIN_OFFSET <= 0, UNIT_RUN starts a unit-stride run at each of its multiples, INJECTIVE is
// true only for an injective layout, and the functions are constant functions of the type;
// `contains` (the generator's comparison of each component with its leaf's extent) holds
// exactly for the natural coordinates of the domain, whose `offset_of` is `offset` of their
// index.
unsafe impl<L: StaticLayout> TrustedLayout for L {
    const __TRUSTED: () = ();
}

/// Whether the flat modes `(extent, stride)` map distinct coordinates to distinct offsets:
/// sorted by `|stride|`, each mode of extent > 1 must start past the span of the smaller
/// ones (a sufficient condition, exact for the compact and padded layouts tensors view);
/// otherwise, for at most 2^16 elements, the offsets are counted.
pub(crate) fn modes_injective(modes: &[(usize, isize)]) -> bool {
    let mut m: Vec<(usize, usize)> =
        modes.iter().filter(|&&(e, _)| e > 1).map(|&(e, d)| (e, d.unsigned_abs())).collect();
    m.sort_by_key(|&(_, d)| d);
    let mut span: u128 = 0;
    let mut nested = true;
    for &(e, d) in &m {
        if d == 0 || (d as u128) <= span {
            nested = false;
            break;
        }
        span += (e as u128 - 1) * d as u128;
    }
    if nested {
        return true;
    }
    if m.iter().any(|&(_, d)| d == 0) {
        return false;
    }
    let size = m.iter().try_fold(1usize, |a, &(e, _)| a.checked_mul(e));
    match size {
        Some(n) if n <= 1 << 16 => {
            let mut seen = std::collections::HashSet::with_capacity(n);
            let mut all = vec![0u128];
            for &(e, d) in &m {
                all = all.iter().flat_map(|&o| (0..e as u128).map(move |c| o + c * d as u128)).collect();
            }
            all.into_iter().all(|o| seen.insert(o))
        }
        _ => false,
    }
}

/// The sizes of the top-level modes of a shape (0 for a mode with an extent 0; saturated).
pub(crate) fn mode_sizes(shape: &IntTuple) -> Vec<usize> {
    let size = |m: &IntTuple| {
        let leaves = m.leaves();
        if leaves.contains(&0) {
            return 0;
        }
        leaves.iter().try_fold(1usize, |a, &e| a.checked_mul(usize::try_from(e).ok()?)).unwrap_or(usize::MAX)
    };
    match shape {
        IntTuple::Tuple(t) => t.iter().map(size).collect(),
        IntTuple::Int(_) => vec![size(shape)],
    }
}

/// `l` in notation, for messages: an empty layout (an extent 0, which a layout-core layout
/// cannot hold) by its shape.
pub(crate) fn notation<L: LayoutFn>(l: &L) -> String {
    if l.size() == 0 { format!("{} (empty)", l.shape()) } else { l.to_layout().to_string() }
}
