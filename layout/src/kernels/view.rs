//! Views of a borrowed slice by offset from an origin: what the checked kernel entries take.
//! A view can only be made from a real slice (or, inside this crate, a tensor, which was
//! checked to cover its layout's offsets), so every offset in its range is inside the borrow.

use core::marker::PhantomData;

/// A shared borrow of a slice seen from an origin: offset `o` is element `origin + o` of the
/// slice, for `o` in [`SrcView::lo`]`..=`[`SrcView::hi`] (`-origin..=len - 1 - origin`).
///
/// ```
/// use cute_layout::kernels::SrcView;
///
/// let data = [0u8; 10];
/// let v = SrcView::new(&data, 3);                 // offset 0 is data[3]
/// assert_eq!((v.lo(), v.hi()), (-3, 6));
/// assert!(v.covers(-3, 6) && !v.covers(0, 7));
/// ```
#[derive(Debug)]
pub struct SrcView<'a, T> {
    ptr: *const T,
    lo: isize,
    hi: isize,
    _borrow: PhantomData<&'a [T]>,
}

impl<T> Clone for SrcView<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SrcView<'_, T> {}

/// An exclusive borrow of a slice seen from an origin: offset `o` is element `origin + o` of
/// the slice, for `o` in [`DstView::lo`]`..=`[`DstView::hi`].
///
/// ```
/// use cute_layout::kernels::DstView;
///
/// let mut data = [0u16; 8];
/// let v = DstView::new(&mut data, 0);
/// assert_eq!((v.lo(), v.hi()), (0, 7));
/// ```
#[derive(Debug)]
pub struct DstView<'a, T> {
    ptr: *mut T,
    lo: isize,
    hi: isize,
    _borrow: PhantomData<&'a mut [T]>,
}

/// `(-origin, len - 1 - origin)`: the offsets of a slice of `len` elements seen from `origin`.
#[inline(always)]
#[track_caller]
fn range<T>(len: usize, origin: usize) -> (isize, isize) {
    const { assert!(size_of::<T>() > 0, "a view of zero-sized elements") };
    assert!(origin <= len, "a view's origin {origin} lies beyond the end of its slice of {len} elements");
    // Exact: a slice of non-zero-sized elements has at most `isize::MAX` of them.
    (-(origin as isize), len as isize - 1 - origin as isize)
}

impl<'a, T> SrcView<'a, T> {
    /// The view of `data` whose offset 0 is `data[origin]`.
    ///
    /// # Panics
    /// When `origin > data.len()`.
    #[inline]
    #[track_caller]
    pub fn new(data: &'a [T], origin: usize) -> Self {
        let (lo, hi) = range::<T>(data.len(), origin);
        SrcView { ptr: data.as_ptr().wrapping_add(origin), lo, hi, _borrow: PhantomData }
    }

    /// The smallest offset of the view (`-origin`).
    #[inline]
    pub fn lo(&self) -> isize {
        self.lo
    }

    /// The largest offset of the view (`len - 1 - origin`; below `lo` for an empty slice).
    #[inline]
    pub fn hi(&self) -> isize {
        self.hi
    }

    /// The address of offset 0.
    #[inline]
    pub fn as_ptr(&self) -> *const T {
        self.ptr
    }

    /// Whether offsets `min..=max` (a non-empty range) all lie in the view.
    #[inline(always)]
    pub fn covers(&self, min: isize, max: isize) -> bool {
        self.lo <= min && max <= self.hi
    }
}

impl<'a, T> DstView<'a, T> {
    /// The view of `data` whose offset 0 is `data[origin]`.
    ///
    /// # Panics
    /// When `origin > data.len()`.
    #[inline]
    #[track_caller]
    pub fn new(data: &'a mut [T], origin: usize) -> Self {
        let (lo, hi) = range::<T>(data.len(), origin);
        DstView { ptr: data.as_mut_ptr().wrapping_add(origin), lo, hi, _borrow: PhantomData }
    }

    /// The view of the elements at `ptr + o` for `o` in `lo..=hi`.
    ///
    /// # Safety
    /// Those elements lie in one allocation, aligned, initialized, and nothing else accesses
    /// them for `'a`.
    #[inline]
    pub(crate) unsafe fn from_raw_parts(ptr: *mut T, lo: isize, hi: isize) -> Self {
        DstView { ptr, lo, hi, _borrow: PhantomData }
    }

    /// The smallest offset of the view (`-origin`).
    #[inline]
    pub fn lo(&self) -> isize {
        self.lo
    }

    /// The largest offset of the view (`len - 1 - origin`; below `lo` for an empty slice).
    #[inline]
    pub fn hi(&self) -> isize {
        self.hi
    }

    /// The address of offset 0.
    #[inline]
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr
    }

    /// Whether offsets `min..=max` (a non-empty range) all lie in the view.
    #[inline(always)]
    pub fn covers(&self, min: isize, max: isize) -> bool {
        self.lo <= min && max <= self.hi
    }

    /// A shorter borrow of the same view.
    #[inline]
    pub fn reborrow(&mut self) -> DstView<'_, T> {
        DstView { ptr: self.ptr, lo: self.lo, hi: self.hi, _borrow: PhantomData }
    }
}
