//! The result of [`Tensor::fold_mode`]: an owned tensor of the modes that remain when one
//! top-level mode is folded away (the sum of each row, the maximum of each column).
//!
//! Its elements are a `Vec` in colexicographic order of the remaining modes, the first of them
//! fastest: the compact column-major layout of their shapes, nested shapes kept. It reads as
//! a slice (`Deref<Target = [T]>`), views as a [`Tensor`] of a [`RuntimeLayout`]
//! ([`FoldedTensor::as_tensor`]) and, stride 0 along the folded mode, as a tensor of the
//! folded tensor's size ([`FoldedTensor::broadcast`]) to combine the results with the
//! elements they came from.

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::{Tensor, TensorMut};
use crate::{IntTuple, LayoutFn, RUNTIME_MAX_MODES, RuntimeLayout};

/// The tensor of the remaining modes that [`Tensor::fold_mode`] returns: folding mode `k` of
/// a tensor of shape `(S_0, …, S_r-1)` gives the shape `(S_0, …, S_k-1, S_k+1, …, S_r-1)` (each
/// `S_i` as it is, nested or not), its elements in colexicographic order, the first remaining
/// mode fastest, i.e. the compact column-major layout of that shape.
///
/// - As a slice: `Deref<Target = [T]>` (and `DerefMut`), [`as_slice`](Self::as_slice),
///   [`into_vec`](Self::into_vec); it compares equal to slices, arrays and `Vec`s of its
///   elements.
/// - As a tensor: [`as_tensor`](Self::as_tensor) views it through [`layout`](Self::layout),
///   the [`RuntimeLayout`] of the flat modes of the remaining shape with compact column-major
///   strides, so coordinates are those of the flat modes, as for every run-time tensor;
///   [`at`](Self::at) takes them as a slice. (With more than [`RUNTIME_MAX_MODES`] flat modes
///   the layout is coalesced to the one mode `n:1`, whose coordinate is the index.)
/// - Back over the folded tensor: [`broadcast`](Self::broadcast) is a tensor of the folded
///   tensor's size whose element `i` is the result for index `i`, to pair each result with the
///   elements it came from through [`TensorMut::zip_mut_with`].
///
/// Folding the only mode of a rank-1 tensor gives a rank-0 result: shape `()`, one element
/// (the fold of every element, as [`Tensor::fold`]), the layout of rank 0. Folding a mode of
/// extent 0 gives `init` for every coordinate of the other modes; when another mode has
/// extent 0 the result is empty.
///
/// ```
/// use cute_layout::{FoldedTensor, Tensor, layout};
///
/// layout! {
///     /// 3 rows, columns tiled by 2: ((2,2)) columns of the column-major (3,4).
///     pub Mat = (3,(2,2)):(1,(3,6));
/// }
/// let data: Vec<i32> = (0..12).collect();
/// let t = Tensor::new(&data, Mat).unwrap();
/// let rows: FoldedTensor<i32> = t.fold_mode(1, 0, |a, &x| a + x);    // the sum of each row
/// assert_eq!(rows, [18, 22, 26]);
/// assert_eq!((rows.rank(), rows.shape().to_string(), rows.len()), (1, "(3)".to_string(), 3));
/// let cols = t.fold_mode(0, i32::MIN, |a, &x| a.max(x));             // the max of each column
/// assert_eq!(cols.shape().to_string(), "((2,2))");                    // the nested mode kept
/// assert_eq!(cols.layout().to_string(), "(2,2):(1,2)");
/// assert_eq!((*cols.at(&[1, 1]), cols[3], cols.as_tensor()[2]), (11, 11, 8));
/// // Each element minus the maximum of its column.
/// let mut out = data.clone();
/// let mut u = cute_layout::TensorMut::new(&mut out, Mat).unwrap();
/// u.zip_mut_with(&cols.broadcast(), |x, &mx| *x -= mx);
/// assert_eq!(out, [-2, -1, 0, -2, -1, 0, -2, -1, 0, -2, -1, 0]);
/// // The whole tensor folded: rank 0, one element.
/// let all = Tensor::new(&data, cute_layout::layout!(12:1)).unwrap().fold_mode(0, 0, |a, &x| a + x);
/// assert_eq!((all.rank(), all.shape().to_string(), all.into_vec()), (0, "()".to_string(), vec![66]));
/// ```
#[derive(Clone)]
pub struct FoldedTensor<T> {
    /// The `len` results, then (only when there are none) one spare element, so that the data
    /// always covers offset 0 of the (then empty) layouts it is viewed through.
    data: Vec<T>,
    len: usize,
    shape: IntTuple,
    layout: RuntimeLayout,
    /// The product of the extents of the modes before the folded one, the folded extent, and
    /// the product of those after it.
    pre: usize,
    folded: usize,
    post: usize,
}

impl<T> FoldedTensor<T> {
    /// The result of folding mode `mode` of a tensor of shape `shape` whose modes before
    /// `mode`, `mode` itself and those after it have `pre`, `folded` and `post` coordinates:
    /// `data` holds one element per coordinate of the other modes (`pre · post` of them, in
    /// colexicographic order), `spare` is kept when there are none.
    pub(crate) fn new(
        shape: &IntTuple,
        mode: usize,
        [pre, folded, post]: [usize; 3],
        mut data: Vec<T>,
        spare: T,
    ) -> Self {
        let len = data.len();
        debug_assert_eq!(Some(len), pre.checked_mul(post));
        let rest = IntTuple::tuple(shape.modes().into_iter().enumerate().filter(|&(k, _)| k != mode).map(|(_, m)| m));
        let leaves: Vec<usize> = rest.leaves().iter().map(|&e| usize::try_from(e).unwrap_or(0)).collect();
        let layout = compact(&leaves, len);
        if len == 0 {
            data.push(spare);
        }
        FoldedTensor { data, len, shape: rest, layout, pre, folded, post }
    }

    /// The shape of the remaining modes, nested shapes as they were (`()` at rank 0).
    #[inline]
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The number of remaining top-level modes: the folded tensor's rank minus 1.
    #[inline]
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// The number of elements (the product of the remaining extents; 1 at rank 0).
    #[inline]
    pub fn size(&self) -> usize {
        self.len
    }

    /// The layout [`as_tensor`](Self::as_tensor) views the elements through: the flat modes of
    /// [`shape`](Self::shape) with compact column-major strides (`n:1` when there are more
    /// than [`RUNTIME_MAX_MODES`] of them).
    #[inline]
    pub fn layout(&self) -> &RuntimeLayout {
        &self.layout
    }

    /// The elements in colexicographic order of the remaining modes.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.data[..self.len]
    }

    /// The elements, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data[..self.len]
    }

    /// The elements as a `Vec`, in colexicographic order of the remaining modes.
    pub fn into_vec(mut self) -> Vec<T> {
        self.data.truncate(self.len);
        self.data
    }

    /// The elements as a tensor of [`layout`](Self::layout). (An empty result views a slice
    /// of one element outside its empty domain, since a tensor's slice covers offset 0.)
    pub fn as_tensor(&self) -> Tensor<'_, T, RuntimeLayout> {
        Tensor::new(&self.data, self.layout).expect("the data covers the compact layout")
    }

    /// The elements as a mutable tensor of [`layout`](Self::layout).
    pub fn as_tensor_mut(&mut self) -> TensorMut<'_, T, RuntimeLayout> {
        TensorMut::new(&mut self.data, self.layout).expect("the data covers the compact layout")
    }

    /// The element at a coordinate of [`layout`](Self::layout)'s flat modes (one entry per
    /// mode; `&[]` at rank 0), or `None` when the number of entries differs from the
    /// layout's rank or an entry is past its extent.
    pub fn get_at(&self, coord: &[usize]) -> Option<&T> {
        let i = self.index_of(coord)?;
        self.as_slice().get(i)
    }

    /// [`get_at`](Self::get_at), mutably.
    pub fn get_at_mut(&mut self, coord: &[usize]) -> Option<&mut T> {
        let i = self.index_of(coord)?;
        self.as_mut_slice().get_mut(i)
    }

    /// The element at a coordinate of [`layout`](Self::layout)'s flat modes.
    ///
    /// # Panics
    /// When [`get_at`](Self::get_at) is `None`.
    #[track_caller]
    pub fn at(&self, coord: &[usize]) -> &T {
        match self.get_at(coord) {
            Some(x) => x,
            None => bad_coordinate(coord, &self.layout),
        }
    }

    /// The element at a coordinate of [`layout`](Self::layout)'s flat modes, mutably.
    ///
    /// # Panics
    /// When [`get_at`](Self::get_at) is `None`.
    #[track_caller]
    pub fn at_mut(&mut self, coord: &[usize]) -> &mut T {
        let layout = self.layout;
        match self.get_at_mut(coord) {
            Some(x) => x,
            None => bad_coordinate(coord, &layout),
        }
    }

    /// The index of a coordinate of the layout's flat modes.
    fn index_of(&self, coord: &[usize]) -> Option<usize> {
        let l = &self.layout;
        if coord.len() != l.rank() {
            return None;
        }
        let mut c = [0usize; RUNTIME_MAX_MODES];
        c[..coord.len()].copy_from_slice(coord);
        // Compact strides: the offset is the index.
        l.contains(c).then(|| l.offset_of(c).unsigned_abs())
    }

    /// The results over the domain of the folded tensor: a tensor of its size whose element
    /// `i` is the result for the coordinates of index `i` in the other modes (stride 0 along
    /// the folded mode), in the layout `(pre,folded,post):(1,0,pre)` of the products of the
    /// extents before and after the folded mode. Indexed alike with the folded tensor, it
    /// pairs each element with its result in [`TensorMut::zip_mut_with`].
    pub fn broadcast(&self) -> Tensor<'_, T, RuntimeLayout<3>> {
        let l = RuntimeLayout::<3>::new(&[(self.pre, 1), (self.folded, 0), (self.post, self.pre as isize)])
            .expect("the folded tensor's extents: its size and the results' offsets fit");
        Tensor::new(&self.data, l).expect("the data covers offsets 0..pre·post")
    }
}

/// The compact column-major [`RuntimeLayout`] of flat extents holding `len` elements (strides
/// 0 when they overflow, which only an empty shape allows).
fn compact(leaves: &[usize], len: usize) -> RuntimeLayout {
    if leaves.len() > RUNTIME_MAX_MODES {
        return RuntimeLayout::new(&[(len, 1)]).expect("the results fit in memory");
    }
    let mut stride = Some(1usize);
    let mut modes: Vec<(usize, isize)> = Vec::with_capacity(leaves.len());
    for &e in leaves {
        let d = stride.and_then(|d| isize::try_from(d).ok());
        modes.push((e, d.unwrap_or(0)));
        stride = stride.and_then(|d| d.checked_mul(e));
    }
    RuntimeLayout::new(&modes)
        .or_else(|| RuntimeLayout::new(&leaves.iter().map(|&e| (e, 0)).collect::<Vec<_>>()))
        .expect("compact strides fit when the results do")
}

#[cold]
#[inline(never)]
#[track_caller]
fn bad_coordinate(coord: &[usize], l: &RuntimeLayout) -> ! {
    panic!("coordinate {coord:?} out of range for the layout `{l}` (one entry per flat mode, each below its extent)")
}

impl<T> Deref for FoldedTensor<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> DerefMut for FoldedTensor<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T> AsRef<[T]> for FoldedTensor<T> {
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> From<FoldedTensor<T>> for Vec<T> {
    fn from(t: FoldedTensor<T>) -> Vec<T> {
        t.into_vec()
    }
}

impl<T> IntoIterator for FoldedTensor<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a, T> IntoIterator for &'a FoldedTensor<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T> IntoIterator for &'a mut FoldedTensor<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: fmt::Debug> fmt::Debug for FoldedTensor<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoldedTensor")
            .field("shape", &format_args!("{}", self.shape))
            .field("elements", &self.as_slice())
            .finish()
    }
}

/// Equal shapes and equal elements.
impl<T: PartialEq<U>, U> PartialEq<FoldedTensor<U>> for FoldedTensor<T> {
    fn eq(&self, other: &FoldedTensor<U>) -> bool {
        self.shape == other.shape && self.as_slice() == other.as_slice()
    }
}

impl<T: Eq> Eq for FoldedTensor<T> {}

/// Equal elements in order (the shape is not compared).
impl<T: PartialEq<U>, U> PartialEq<[U]> for FoldedTensor<T> {
    fn eq(&self, other: &[U]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq<U>, U> PartialEq<&[U]> for FoldedTensor<T> {
    fn eq(&self, other: &&[U]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U; N]> for FoldedTensor<T> {
    fn eq(&self, other: &[U; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq<U>, U> PartialEq<Vec<U>> for FoldedTensor<T> {
    fn eq(&self, other: &Vec<U>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq<U>, U> PartialEq<FoldedTensor<U>> for [T] {
    fn eq(&self, other: &FoldedTensor<U>) -> bool {
        self == other.as_slice()
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<FoldedTensor<U>> for [T; N] {
    fn eq(&self, other: &FoldedTensor<U>) -> bool {
        self == other.as_slice()
    }
}

impl<T: PartialEq<U>, U> PartialEq<FoldedTensor<U>> for Vec<T> {
    fn eq(&self, other: &FoldedTensor<U>) -> bool {
        self.as_slice() == other.as_slice()
    }
}
