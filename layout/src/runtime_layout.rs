//! The run-time flat layout: the layout of a sub-tensor or an edge tile of a run-time tensor.

// Rank-generic loops over parallel arrays read best indexed.
#![allow(clippy::needless_range_loop)]

use std::fmt;

use crate::layout_fn::modes_injective;
use crate::{IntTuple, Layout, LayoutFn, TrustedLayout};

/// The largest number of flat modes a [`RuntimeLayout`] holds by default.
pub const RUNTIME_MAX_MODES: usize = 8;

/// A layout known at run time as at most `R` flat modes `(e_0, …):(d_0, …)`, strides of any
/// sign: the layout of a sub-tensor ([`Tensor::slice`](crate::Tensor::slice),
/// [`Tensor::local_tile`](crate::Tensor::local_tile), …) or of an edge tile
/// ([`EdgeTiles::tile`](crate::EdgeTiles::tile)). Its coordinate is flat: one entry per mode,
/// entries past the rank 0. Its numbers are private: [`RuntimeLayout::new`] checks them once.
///
/// ```
/// use cute_layout::{LayoutFn, RuntimeLayout};
///
/// let l = RuntimeLayout::<2>::new(&[(4, 1), (3, 10)]).unwrap();
/// assert_eq!((l.size(), l.offset(5), l.max_offset()), (12, 11, 23));
/// assert_eq!(l.to_string(), "(4,3):(1,10)");
/// assert!(l.contains([3, 2]) && !l.contains([4, 0]));
/// assert!(RuntimeLayout::<2>::new(&[(2, isize::MAX), (3, 1)]).is_none()); // offsets overflow
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeLayout<const R: usize = RUNTIME_MAX_MODES> {
    rank: usize,
    extents: [usize; R],
    strides: [isize; R],
    size: usize,
    min_offset: isize,
    max_offset: isize,
}

impl<const R: usize> RuntimeLayout<R> {
    /// The layout of the flat modes `(extent, stride)`, if there are at most `R` of them,
    /// the size fits in `isize` and every offset does too. A mode of extent 0 makes an empty
    /// layout (size 0, offsets `0..=0`); the stride of a mode of extent 1 is not used and is
    /// kept as 0.
    pub fn new(modes: &[(usize, isize)]) -> Option<Self> {
        if modes.len() > R {
            return None;
        }
        let mut r = RuntimeLayout {
            rank: modes.len(),
            extents: [1; R],
            strides: [0; R],
            size: 1,
            min_offset: 0,
            max_offset: 0,
        };
        let (mut lo, mut hi) = (0usize, 0usize);
        for (k, &(e, d)) in modes.iter().enumerate() {
            r.extents[k] = e;
            r.strides[k] = if e > 1 { d } else { 0 };
            r.size = r.size.checked_mul(e)?;
            let span = e.saturating_sub(1).checked_mul(d.unsigned_abs())?;
            if d < 0 {
                lo = lo.checked_add(span)?;
            } else {
                hi = hi.checked_add(span)?;
            }
        }
        if r.size == 0 {
            (lo, hi) = (0, 0);
        }
        isize::try_from(r.size).ok()?;
        r.max_offset = isize::try_from(hi).ok()?;
        r.min_offset = 0isize.checked_sub_unsigned(lo)?;
        Some(r)
    }

    /// The layout of `l`'s flat modes, if [`RuntimeLayout::new`] accepts them.
    pub fn from_layout(l: &Layout) -> Option<Self> {
        let modes: Option<Vec<(usize, isize)>> =
            l.flat_modes().iter().map(|&(e, d)| Some((usize::try_from(e).ok()?, isize::try_from(d).ok()?))).collect();
        Self::new(&modes?)
    }

    /// The number of flat modes.
    #[inline]
    pub const fn rank(&self) -> usize {
        self.rank
    }

    /// The flat modes `(extent, stride)`.
    pub fn modes(&self) -> impl Iterator<Item = (usize, isize)> + '_ {
        self.extents[..self.rank].iter().copied().zip(self.strides[..self.rank].iter().copied())
    }

    /// The extents (1 past the rank).
    #[inline]
    pub const fn extents(&self) -> [usize; R] {
        self.extents
    }

    /// The strides (0 past the rank and on modes of extent 1).
    #[inline]
    pub const fn strides(&self) -> [isize; R] {
        self.strides
    }
}

impl<const R: usize> LayoutFn for RuntimeLayout<R> {
    type Offset = isize;
    type Coord = [usize; R];
    #[inline]
    fn size(&self) -> usize {
        self.size
    }
    #[inline]
    fn offset(&self, index: usize) -> isize {
        let mut i = index;
        let mut o = 0isize;
        for k in 0..self.rank {
            let c = if k + 1 == self.rank { i } else { i % self.extents[k].max(1) };
            i /= self.extents[k].max(1);
            o = o.wrapping_add((c as isize).wrapping_mul(self.strides[k]));
        }
        o
    }
    #[inline]
    fn offset_of(&self, coord: [usize; R]) -> isize {
        (0..self.rank).fold(0isize, |a, k| a.wrapping_add((coord[k] as isize).wrapping_mul(self.strides[k])))
    }
    #[inline]
    fn coord(&self, index: usize) -> [usize; R] {
        let mut i = index;
        let mut c = [0; R];
        for k in 0..self.rank {
            c[k] = if k + 1 == self.rank { i } else { i % self.extents[k].max(1) };
            i /= self.extents[k].max(1);
        }
        c
    }
    #[inline]
    fn contains(&self, coord: [usize; R]) -> bool {
        (0..R).all(|k| if k < self.rank { coord[k] < self.extents[k] } else { coord[k] == 0 })
    }
    #[inline]
    fn for_each_offset<F: FnMut(isize)>(&self, mut f: F) {
        if self.size == 0 {
            return;
        }
        if self.rank == 0 {
            return f(0);
        }
        // An odometer over the outer modes, a plain loop over mode 0.
        let mut c = [0usize; R];
        let mut base = 0isize;
        let (e0, d0) = (self.extents[0], self.strides[0]);
        loop {
            let mut o = base;
            for _ in 0..e0 {
                f(o);
                o = o.wrapping_add(d0);
            }
            let mut m = 1;
            loop {
                if m >= self.rank {
                    return;
                }
                c[m] += 1;
                base = base.wrapping_add(self.strides[m]);
                if c[m] < self.extents[m] {
                    break;
                }
                base = base.wrapping_sub((c[m] as isize).wrapping_mul(self.strides[m]));
                c[m] = 0;
                m += 1;
            }
        }
    }
    #[inline]
    fn unit_run(&self) -> usize {
        if self.rank > 0 && self.strides[0] == 1 { self.extents[0] } else { 1 }
    }
    #[inline]
    fn min_offset(&self) -> isize {
        self.min_offset
    }
    #[inline]
    fn max_offset(&self) -> isize {
        self.max_offset
    }
    fn is_injective(&self) -> bool {
        self.size <= 1 || modes_injective(&self.modes().collect::<Vec<_>>())
    }
    fn to_layout(&self) -> Layout {
        if self.size == 0 { Layout::scalar(1, 0).expect("`1:0` is a layout") } else { self.planned_layout() }
    }
    fn planned_layout(&self) -> Layout {
        let modes: Vec<(i64, i64)> =
            self.modes().map(|(e, d)| (i64::try_from(e.max(1)).unwrap_or(i64::MAX), d as i64)).collect();
        Layout::from_flat(&modes).unwrap_or_else(|_| Layout::scalar(1, 0).expect("`1:0` is a layout"))
    }
    fn shape(&self) -> IntTuple {
        // An extent past i64 (only in an empty layout, on a mode of stride 0) saturates.
        let int = |e: usize| IntTuple::Int(i64::try_from(e).unwrap_or(i64::MAX));
        match self.rank {
            1 => int(self.extents[0]),
            r => IntTuple::tuple(self.extents[..r].iter().map(|&e| int(e))),
        }
    }
}

impl<const R: usize> fmt::Display for RuntimeLayout<R> {
    /// The layout in notation; an empty one (which layout-core cannot hold) with its extents
    /// as they are, e.g. `(4,0):(1,0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.size > 0 {
            return write!(f, "{}", self.to_layout());
        }
        let modes: Vec<(usize, isize)> = self.modes().collect();
        let list = |g: &dyn Fn(&(usize, isize)) -> String| modes.iter().map(g).collect::<Vec<_>>().join(",");
        match modes.as_slice() {
            [(e, d)] => write!(f, "{e}:{d}"),
            _ => write!(f, "({}):({})", list(&|m| m.0.to_string()), list(&|m| m.1.to_string())),
        }
    }
}

// SAFETY: `new` checked that the size fits in isize and that the sums of the negative and of
// the positive spans (e_k - 1)·|d_k| fit in isize; an index below the size has coordinates
// c_k < e_k (the last one too, as size = Π e_k), so its offset Σ c_k·d_k lies between those
// sums, min_offset..=max_offset (<= 0 and >= 0), and the wrapping operations never wrap. The
// unit run is e_0 when d_0 = 1 (the first mode is contiguous); the injectivity test is that
// of the modes themselves; `contains` holds exactly for c_k < e_k (and 0 past the rank),
// the coordinates of the indices, whose `offset_of` is that index's offset. The fields are private and never change; the traversal visits
// the offsets of the indices in colexicographic order, which is index order.
unsafe impl<const R: usize> TrustedLayout for RuntimeLayout<R> {
    const __TRUSTED: () = ();
}
