//! The safe copy entries: each takes views and a program, compares the program's extremes
//! (the smallest and largest source and destination offset, closed-form over the loop nest
//! and the body) with the views' ranges, and only then runs the unchecked kernel.

use super::nest::for_each;
use super::view::{DstView, SrcView};
use super::{Element, Extremes, Loop, Program, run};

/// A [`Program`] with its [`Extremes`], computed by [`CopyProgram::new`] (the fields are
/// private, so they are always the program's). In emitted code it is a `const`, so the
/// extremes are constants and [`copy`]'s check is one comparison per bound.
///
/// ```
/// use cute_layout::kernels::{Body, CopyProgram, Extremes, Loop, Program};
///
/// let loops = [Loop { extent: 8, src: 8, dst: 1 }];
/// let p = CopyProgram::new(Program { body: Body::Run { len: 8, src: 1, dst: 8 }, loops: &loops, src_base: 0, dst_base: 0 });
/// assert_eq!(p.extremes(), Some(Extremes { src: (0, 63), dst: (0, 63) }));
/// let empty = CopyProgram::new(Program { body: Body::Run { len: 0, src: 1, dst: 1 }, loops: &[], src_base: 0, dst_base: 0 });
/// assert_eq!(empty.extremes(), None);                    // copies nothing
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyProgram<'a> {
    program: Program<'a>,
    extremes: Option<Extremes>,
}

impl<'a> CopyProgram<'a> {
    /// The program with its extremes.
    ///
    /// # Panics
    /// When an offset of the program overflows `isize` (a compile error in a `const`).
    pub const fn new(program: Program<'a>) -> Self {
        CopyProgram { program, extremes: program.extremes() }
    }

    /// The program.
    pub const fn program(&self) -> &Program<'a> {
        &self.program
    }

    /// Its extremes (`None`: it copies nothing).
    pub const fn extremes(&self) -> Option<Extremes> {
        self.extremes
    }
}

/// Panics unless the views hold the extremes.
#[inline(always)]
#[track_caller]
fn check<T>(src: &SrcView<'_, T>, dst: &DstView<'_, T>, e: &Extremes) {
    if !(src.covers(e.src.0, e.src.1) && dst.covers(e.dst.0, e.dst.1)) {
        outside((src.lo(), src.hi()), (dst.lo(), dst.hi()), e);
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn outside(src: (isize, isize), dst: (isize, isize), e: &Extremes) -> ! {
    panic!(
        "copy: the program reads offsets {}..={} and writes {}..={}, but the source view holds {}..={} and the \
         destination view {}..={}",
        e.src.0, e.src.1, e.dst.0, e.dst.1, src.0, src.1, dst.0, dst.1
    );
}

/// Runs `program` from `src` to `dst` ([`run`], checked): `dst[D] = src[S]` for every offset
/// pair of the program, at the SIMD level in effect.
///
/// # Panics
/// When the program's [`Extremes`] do not lie in the views.
///
/// ```
/// use cute_layout::kernels::{Body, CopyProgram, DstView, Loop, Program, SrcView, copy};
///
/// // A 4x3 column-major matrix (leading dimension 4) into a row-major one: at each of the
/// // 3 columns, a run of 4 elements with source stride 1 and destination stride 3.
/// const LOOPS: [Loop; 1] = [Loop { extent: 3, src: 4, dst: 1 }];
/// const P: CopyProgram = CopyProgram::new(Program {
///     body: Body::Run { len: 4, src: 1, dst: 3 },
///     loops: &LOOPS,
///     src_base: 0,
///     dst_base: 0,
/// });
/// let src: Vec<u32> = (0..12).collect();
/// let mut dst = [0u32; 12];
/// copy(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &P);
/// assert_eq!(dst, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
/// // The extremes are checked against the views: a short destination panics.
/// let short = std::panic::catch_unwind(|| copy(SrcView::new(&src, 0), DstView::new(&mut [0u32; 11], 0), &P));
/// assert!(short.is_err());
/// ```
#[inline]
#[track_caller]
pub fn copy<T: Element>(src: SrcView<'_, T>, mut dst: DstView<'_, T>, program: &CopyProgram<'_>) {
    let Some(e) = &program.extremes else { return };
    check(&src, &dst, e);
    // SAFETY: every offset the program reads lies in `e.src` and every offset it writes in
    // `e.dst` (`CopyProgram::new` computed them from this program), which lie in the views
    // (checked above); a view holds every offset of its range inside its borrowed slice, so
    // the whole range between the extremes is readable (what `run` asks of the source) and
    // writable; a shared and an exclusive borrow do not overlap; slices are aligned.
    unsafe { run(src.as_ptr(), dst.as_mut_ptr(), &program.program) }
}

/// The most points of a body [`copy_unrolled`] emits straight-line (layout-plan's
/// `UNROLL_POINTS`).
pub const UNROLL_MAX: usize = 64;

/// A small body copied straight-line at every point of a loop nest: at each point `(s, d)`
/// of `loops` from `(src_base, dst_base)`, `dst[d + pd] = src[s + ps]` for each pair
/// `(ps, pd)` in order; with its [`Extremes`] computed by [`UnrolledCopy::new`] (private
/// fields, as [`CopyProgram`]).
///
/// ```
/// use cute_layout::kernels::{DstView, Loop, SrcView, UnrolledCopy, copy_unrolled};
///
/// // A 2x3 transpose body (source pairs (s, d)) at each of 2 points 6 elements apart.
/// const LOOPS: [Loop; 1] = [Loop { extent: 2, src: 6, dst: 6 }];
/// const U: UnrolledCopy<6> = UnrolledCopy::new(&LOOPS, 0, 0, [(0, 0), (2, 1), (4, 2), (1, 3), (3, 4), (5, 5)]);
/// let src: Vec<u8> = (0..12).collect();
/// let mut dst = [0u8; 12];
/// copy_unrolled(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &U);
/// assert_eq!(dst, [0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnrolledCopy<'a, const N: usize> {
    loops: &'a [Loop],
    src_base: isize,
    dst_base: isize,
    pairs: [(isize, isize); N],
    extremes: Option<Extremes>,
}

impl<'a, const N: usize> UnrolledCopy<'a, N> {
    /// The body `pairs` inside the nest `loops` (innermost first) from the bases.
    ///
    /// # Panics
    /// When `N > UNROLL_MAX` or an offset overflows `isize` (a compile error in a `const`).
    pub const fn new(loops: &'a [Loop], src_base: isize, dst_base: isize, pairs: [(isize, isize); N]) -> Self {
        assert!(N <= UNROLL_MAX, "a straight-line copy body of more than UNROLL_MAX points");
        let extremes = if N == 0 {
            None
        } else {
            let mut body = Extremes { src: (pairs[0].0, pairs[0].0), dst: (pairs[0].1, pairs[0].1) };
            let mut k = 1;
            while k < N {
                let (s, d) = pairs[k];
                body.src = (if s < body.src.0 { s } else { body.src.0 }, if s > body.src.1 { s } else { body.src.1 });
                body.dst = (if d < body.dst.0 { d } else { body.dst.0 }, if d > body.dst.1 { d } else { body.dst.1 });
                k += 1;
            }
            Extremes::over_nest(loops, src_base, dst_base, body)
        };
        UnrolledCopy { loops, src_base, dst_base, pairs, extremes }
    }

    /// Its extremes (`None`: it copies nothing).
    pub const fn extremes(&self) -> Option<Extremes> {
        self.extremes
    }
}

/// Expands `$body` once per listed value, `$v` bound to it as a `usize` constant.
macro_rules! unroll {
    ($v:ident in [$($n:literal)*] $body:block) => {
        $( { const $v: usize = $n; $body } )*
    };
}

/// Runs `plan` from `src` to `dst`: one statement per pair with constant offsets (the
/// program is a `const` in emitted code), inside the loop nest.
///
/// # Panics
/// When the plan's [`Extremes`] do not lie in the views.
#[inline(always)]
#[track_caller]
pub fn copy_unrolled<T: Element, const N: usize>(
    src: SrcView<'_, T>,
    mut dst: DstView<'_, T>,
    plan: &UnrolledCopy<'_, N>,
) {
    let Some(e) = &plan.extremes else { return };
    check(&src, &dst, e);
    let (s0, d0) = (src.as_ptr(), dst.as_mut_ptr());
    let pairs = &plan.pairs;
    for_each(plan.loops, plan.src_base, plan.dst_base, |s, d| {
        let (s, d) = (s0.wrapping_offset(s), d0.wrapping_offset(d));
        unroll!(K in [
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        ] {
            if K < N {
                let (ps, pd) = pairs[K];
                // SAFETY: `(s, d)` is a point of the nest from the bases and `(ps, pd)` a pair
                // of the body, so the sums lie in the extremes `UnrolledCopy::new` computed
                // from these loops, bases and pairs, which lie in the views (checked above);
                // a shared and an exclusive borrow do not overlap.
                unsafe { *d.offset(pd) = *s.offset(ps) };
            }
        });
    });
}

/// `(0..extent)·stride`: the range `(min, max)` of `c·stride` over `c < extent` (`extent ≥ 1`),
/// `None` when an end overflows `isize`.
const fn reach(extent: usize, stride: isize) -> Option<(isize, isize)> {
    if extent - 1 > isize::MAX as usize {
        return None;
    }
    match stride.checked_mul((extent - 1) as isize) {
        Some(end) if end < 0 => Some((end, 0)),
        Some(end) => Some((0, end)),
        None => None,
    }
}

/// `(a.0 + b.0, a.1 + b.1)`, `None` on overflow.
const fn add(a: (isize, isize), b: (isize, isize)) -> Option<(isize, isize)> {
    match (a.0.checked_add(b.0), a.1.checked_add(b.1)) {
        (Some(lo), Some(hi)) => Some((lo, hi)),
        _ => None,
    }
}

/// The range of `r·s.0 + c·s.1` over the `R × C` tile, `None` on overflow.
const fn tile_range<const R: usize, const C: usize>(s: (isize, isize)) -> Option<(isize, isize)> {
    match (reach(R, s.0), reach(C, s.1)) {
        (Some(a), Some(b)) => add(a, b),
        _ => None,
    }
}

/// A static `R × C` tile with run-time strides: `dst[r·dst.0 + c·dst.1] = src[r·src.0 +
/// c·src.1]` for `r < R`, `c < C`, with its [`Extremes`] in closed form (over each mode,
/// `(extent - 1)·stride` is the mode's largest term for a positive stride and its smallest
/// for a negative one), computed by [`StridedTile::new`] (private fields, as [`CopyProgram`]).
///
/// ```
/// use cute_layout::kernels::{DstView, SrcView, StridedTile, copy_strided_tile};
///
/// // A 2x3 column-major tile (leading dimension 4) into a row-major one (leading dimension 3).
/// let t = StridedTile::<2, 3>::new((1, 4), (3, 1)).unwrap();
/// let src: Vec<u8> = (0..12).collect();
/// let mut dst = [0u8; 6];
/// copy_strided_tile(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &t);
/// assert_eq!(dst, [0, 4, 8, 1, 5, 9]);
/// assert!(StridedTile::<2, 3>::new((isize::MAX, 1), (3, 1)).is_none()); // overflows
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StridedTile<const R: usize, const C: usize> {
    src: (isize, isize),
    dst: (isize, isize),
    extremes: Option<Extremes>,
}

impl<const R: usize, const C: usize> StridedTile<R, C> {
    /// The tile with the mode strides `src` and `dst`; `None` when an offset overflows `isize`.
    ///
    /// # Panics
    /// At compile time when `R·C` exceeds [`UNROLL_MAX`].
    #[inline(always)]
    pub const fn new(src: (isize, isize), dst: (isize, isize)) -> Option<Self> {
        const { assert!(R.saturating_mul(C) <= UNROLL_MAX, "a straight-line tile of more than UNROLL_MAX points") };
        if R == 0 || C == 0 {
            return Some(StridedTile { src, dst, extremes: None });
        }
        match (tile_range::<R, C>(src), tile_range::<R, C>(dst)) {
            (Some(s), Some(d)) => Some(StridedTile { src, dst, extremes: Some(Extremes { src: s, dst: d }) }),
            _ => None,
        }
    }

    /// Its extremes (`None`: it copies nothing).
    pub const fn extremes(&self) -> Option<Extremes> {
        self.extremes
    }
}

/// Runs `tile` from `src` to `dst`: one statement per point, row by row, the offsets
/// `r·stride.0 + c·stride.1` with constant `r` and `c` (the body a static item's small tile
/// runs, with the strides as run-time values).
///
/// # Panics
/// When the tile's [`Extremes`] do not lie in the views.
#[inline(always)]
#[track_caller]
pub fn copy_strided_tile<T: Element, const R: usize, const C: usize>(
    src: SrcView<'_, T>,
    mut dst: DstView<'_, T>,
    tile: &StridedTile<R, C>,
) {
    let Some(e) = &tile.extremes else { return };
    check(&src, &dst, e);
    let (s0, d0) = (src.as_ptr(), dst.as_mut_ptr());
    let ((sr, sc), (dr, dc)) = (tile.src, tile.dst);
    unroll!(K in [
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
    ] {
        if K < R * C {
            let (r, c) = ((K / C) as isize, (K % C) as isize);
            // No overflow: `r·sr` and `c·sc` lie between 0 and the modes' ends, and their sum
            // in the range, which `StridedTile::new` computed with checked arithmetic.
            let (ps, pd) = (r * sr + c * sc, r * dr + c * dc);
            // SAFETY: `(r, c)` is a point of the `R × C` tile, so `ps` lies in `e.src` and
            // `pd` in `e.dst` (the closed-form range over the tile of these strides, computed
            // by `StridedTile::new`), which lie in the views (checked above); a view's offsets
            // are inside its borrowed slice; a shared and an exclusive borrow do not overlap.
            unsafe { *d0.offset(pd) = *s0.offset(ps) };
        }
    });
}

/// `dst[d] = src[s]` for `(s, d) = offsets(i)`, `i < size`, in order: the copy of layouts
/// without a common plan (swizzled, F2, or without a common refinement), each offset checked.
///
/// # Panics
/// When an offset lies outside its view (the elements before index `i` are copied).
///
/// ```
/// use cute_layout::kernels::{DstView, SrcView, copy_indexed};
///
/// // Reverse 5 elements: index i reads offset i and writes offset 4 - i.
/// let src = [1i32, 2, 3, 4, 5];
/// let mut dst = [0i32; 5];
/// copy_indexed(SrcView::new(&src, 0), DstView::new(&mut dst, 0), 5, |i| (i as isize, 4 - i as isize));
/// assert_eq!(dst, [5, 4, 3, 2, 1]);
/// ```
#[inline]
#[track_caller]
pub fn copy_indexed<T: Element>(
    src: SrcView<'_, T>,
    mut dst: DstView<'_, T>,
    size: usize,
    mut offsets: impl FnMut(usize) -> (isize, isize),
) {
    let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr());
    for i in 0..size {
        let (s, d) = offsets(i);
        if !(src.covers(s, s) && dst.covers(d, d)) {
            outside_at(i, s, d, (src.lo(), src.hi()), (dst.lo(), dst.hi()));
        }
        // SAFETY: `s` and `d` lie in the views (checked above), whose offsets are inside
        // their borrowed slices; a shared and an exclusive borrow do not overlap.
        unsafe { *dp.offset(d) = *sp.offset(s) };
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn outside_at(i: usize, s: isize, d: isize, src: (isize, isize), dst: (isize, isize)) -> ! {
    panic!(
        "copy: index {i} reads offset {s} and writes {d}, but the source view holds {}..={} and the destination \
         view {}..={}",
        src.0, src.1, dst.0, dst.1
    );
}
