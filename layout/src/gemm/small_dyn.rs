//! The GEMM of a small problem over run-time strides: `C = α·A·B + β·C` with
//! `A(i,p) = a[i·ars + p·acs]`, `B(p,j) = b[p·brs + j·bcs]`, `C(i,j) = c[i·crs + j·ccs]`,
//! every extent at most [`SMALL_MAX`]. Register tiles of C held over the whole K loop, as the
//! static items' straight-line kernel, with the extents either run-time numbers ([`Dyn`]) or
//! constants ([`Fixed`]: a static tile of a dynamic tensor, whose instantiation folds the
//! tiling, the edge masks and the K loop as the static kernel's do) and the strides arguments.
//! One tile kernel per SIMD level (AVX-512, AVX2, portable), chosen by [`level`]. No packing
//! and no allocation: an operand whose rows are not contiguous is copied to a block on the
//! stack.

use core::any::TypeId;
use core::mem::MaybeUninit;

use super::{GemmScalar, check_operand};
use crate::kernels::{DstView, Level, SrcView, level};
use crate::small_gemm::SmallScalar;

/// The largest M, N and K of a small problem.
pub const SMALL_MAX: usize = 32;

/// The extents of a problem: run-time numbers or constants.
pub trait Extents: Copy {
    /// Whether the extents are constants (the tiles then inline into the driver, which
    /// unrolls them; over run-time extents each tile is a call of its own, whose prologue is
    /// short).
    const FIXED: bool;
    /// The extents with M and N exchanged (the problem `Cᵀ = Bᵀ·Aᵀ`).
    type Swapped: Extents;
    /// M.
    fn m(self) -> usize;
    /// N.
    fn n(self) -> usize;
    /// K.
    fn k(self) -> usize;
    /// M and N exchanged.
    fn swap(self) -> Self::Swapped;
}

/// Run-time extents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dyn {
    /// M.
    pub m: usize,
    /// N.
    pub n: usize,
    /// K.
    pub k: usize,
}

impl Extents for Dyn {
    const FIXED: bool = false;
    type Swapped = Dyn;
    #[inline(always)]
    fn m(self) -> usize {
        self.m
    }
    #[inline(always)]
    fn n(self) -> usize {
        self.n
    }
    #[inline(always)]
    fn k(self) -> usize {
        self.k
    }
    #[inline(always)]
    fn swap(self) -> Dyn {
        Dyn { m: self.n, n: self.m, k: self.k }
    }
}

/// Constant extents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed<const M: usize, const N: usize, const K: usize>;

impl<const M: usize, const N: usize, const K: usize> Extents for Fixed<M, N, K> {
    const FIXED: bool = true;
    type Swapped = Fixed<N, M, K>;
    #[inline(always)]
    fn m(self) -> usize {
        M
    }
    #[inline(always)]
    fn n(self) -> usize {
        N
    }
    #[inline(always)]
    fn k(self) -> usize {
        K
    }
    #[inline(always)]
    fn swap(self) -> Fixed<N, M, K> {
        Fixed
    }
}

/// Runs `$call!(E)` with `E` a constant for the cube `E × E × E` when the run-time extents
/// `$mnk` are one of the cubes most small products have (4, 8, 16), else `$other`: their
/// instantiations over [`Fixed`] fold the tiling, the edge masks and the K loop.
macro_rules! on_cube {
    ($mnk:expr, $call:ident, $other:expr) => {
        match $mnk {
            (4, 4, 4) => $call!(4),
            (8, 8, 8) => $call!(8),
            (16, 16, 16) => $call!(16),
            _ => $other,
        }
    };
}
pub(crate) use on_cube;

/// The strides of the three operands, in elements: A's along M and K, B's along K and N,
/// C's along M and N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strides {
    /// A along M.
    pub ars: isize,
    /// A along K.
    pub acs: isize,
    /// B along K.
    pub brs: isize,
    /// B along N.
    pub bcs: isize,
    /// C along M.
    pub crs: isize,
    /// C along N.
    pub ccs: isize,
}

impl Strides {
    /// The strides of extent-1 modes (never used to step) made 1, so that a single row or
    /// column counts as contiguous.
    #[inline(always)]
    fn degenerate(mut self, m: usize, n: usize) -> Self {
        if m == 1 {
            (self.ars, self.crs) = (1, 1);
        }
        if n == 1 {
            (self.bcs, self.ccs) = (1, 1);
        }
        self
    }

    /// The strides of `Cᵀ = Bᵀ·Aᵀ`.
    #[inline(always)]
    fn swap(self) -> Self {
        Strides { ars: self.bcs, acs: self.brs, brs: self.acs, bcs: self.ars, crs: self.ccs, ccs: self.crs }
    }
}

/// The checked entry of `layout!`'s gemm items over a static tile of a dynamic tensor (static
/// extents `M, N, K ≤ SMALL_MAX`, run-time strides): `C = α·A·B + β·C` over the views at
/// `a_at`, `b_at`, `c_at`; `β = 0` does not read C, `α = 0` reads neither A nor B.
///
/// # Panics
/// When some operand's offsets do not lie in its view.
#[inline(always)]
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn small_gemm_strided<T: GemmScalar, const M: usize, const N: usize, const K: usize>(
    alpha: T,
    a: &SrcView<'_, T>,
    a_at: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
    s: Strides,
) {
    const { assert!(M <= SMALL_MAX && N <= SMALL_MAX && K <= SMALL_MAX) };
    check(a.lo(), a.hi(), b.lo(), b.hi(), c.lo(), c.hi(), (a_at, b_at, c_at), (M, N, K), s);
    let (a, b) = (a.as_ptr().wrapping_offset(a_at), b.as_ptr().wrapping_offset(b_at));
    let c = c.as_mut_ptr().wrapping_offset(c_at);
    // SAFETY: every offset of A, B and C over the tile lies in its view (checked above), and a
    // view's offsets are inside its borrowed slice; C's view is an exclusive borrow, so it
    // overlaps neither A nor B; the extents are at most `SMALL_MAX` (asserted above).
    unsafe { run_scalar(Fixed::<M, N, K>, alpha, a, b, beta, c, s) }
}

/// Panics unless every offset of each operand over the problem lies in its view (`lo..=hi`
/// of A, B and C, offset 0 of each at `at`).
#[inline(always)]
#[track_caller]
#[allow(clippy::too_many_arguments)]
fn check(
    a_lo: isize,
    a_hi: isize,
    b_lo: isize,
    b_hi: isize,
    c_lo: isize,
    c_hi: isize,
    at: (isize, isize, isize),
    (m, n, k): (usize, usize, usize),
    s: Strides,
) {
    if m == 0 || n == 0 {
        return;
    }
    // With every extent at most `SMALL_MAX = 32` and every stride below 2⁵⁷ in magnitude, no
    // sum of two offsets `(e - 1)·stride` overflows; larger strides take the checked path.
    const LIM: usize = 1 << 57;
    debug_assert!(m <= SMALL_MAX && n <= SMALL_MAX && k <= SMALL_MAX);
    let big = [s.ars, s.acs, s.brs, s.bcs, s.crs, s.ccs].iter().fold(0, |acc, x| acc | x.unsigned_abs()) >= LIM;
    let span = |r: usize, c: usize, rs: isize, cs: isize| {
        let (x, y) = ((r as isize - 1) * rs, (c as isize - 1) * cs);
        (x.min(0) + y.min(0), x.max(0) + y.max(0))
    };
    let inside = |lo: isize, hi: isize, at: isize, (min, max): (isize, isize)| {
        at.checked_add(min).is_some_and(|x| lo <= x) && at.checked_add(max).is_some_and(|x| x <= hi)
    };
    let ok = !big
        && (k == 0
            || inside(a_lo, a_hi, at.0, span(m, k, s.ars, s.acs))
                && inside(b_lo, b_hi, at.1, span(k, n, s.brs, s.bcs)))
        && inside(c_lo, c_hi, at.2, span(m, n, s.crs, s.ccs));
    if !ok {
        // The strides as pairs of scalars: a `Strides` argument would keep the hot path's
        // strides in memory.
        exact(
            [(a_lo, a_hi), (b_lo, b_hi), (c_lo, c_hi)],
            at,
            (m, n, k),
            [(s.ars, s.acs), (s.brs, s.bcs), (s.crs, s.ccs)],
        );
    }
}

/// The exact check of every operand with checked arithmetic (the engine's), which panics
/// naming the operand outside its view.
#[cold]
#[inline(never)]
#[track_caller]
fn exact(
    [a, b, c]: [(isize, isize); 3],
    at: (isize, isize, isize),
    (m, n, k): (usize, usize, usize),
    [(ars, acs), (brs, bcs), (crs, ccs)]: [(isize, isize); 3],
) {
    check_operand("A", a, at.0, super::reach(m, k, ars, acs));
    check_operand("B", b, at.1, super::reach(k, n, brs, bcs));
    check_operand("C", c, at.2, super::reach(m, n, crs, ccs));
}

/// [`small_gemm_strided`] with run-time extents (each at most `SMALL_MAX`, 32).
///
/// # Panics
/// When an extent is above `SMALL_MAX`, or some operand's offsets do not lie in its view.
#[inline]
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn small_gemm_dyn<T: GemmScalar>(
    (m, n, k): (usize, usize, usize),
    alpha: T,
    a: &SrcView<'_, T>,
    a_at: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
    s: Strides,
) {
    assert!(m <= SMALL_MAX && n <= SMALL_MAX && k <= SMALL_MAX, "small_gemm_dyn: {m}x{n}x{k} is above {SMALL_MAX}");
    check(a.lo(), a.hi(), b.lo(), b.hi(), c.lo(), c.hi(), (a_at, b_at, c_at), (m, n, k), s);
    let (a, b) = (a.as_ptr().wrapping_offset(a_at), b.as_ptr().wrapping_offset(b_at));
    let c = c.as_mut_ptr().wrapping_offset(c_at);
    // SAFETY: as in `small_gemm_strided`, the extents checked above.
    unsafe { run_scalar(Dyn { m, n, k }, alpha, a, b, beta, c, s) }
}

/// [`run`] for a [`GemmScalar`] (`f32` or `f64`, the types of [`SmallScalar`]).
///
/// # Safety
/// As [`run`].
#[inline(always)]
pub(crate) unsafe fn run_scalar<T: GemmScalar, E: Extents>(
    e: E,
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    if TypeId::of::<T>() == TypeId::of::<f32>() {
        // SAFETY: `T` is `f32` (the type ids agree), so the values and pointers are
        // reinterpreted as themselves; the bounds are the caller's.
        unsafe {
            let (alpha, beta) =
                (core::mem::transmute_copy::<T, f32>(&alpha), core::mem::transmute_copy::<T, f32>(&beta));
            run::<f32, E>(e, alpha, a.cast(), b.cast(), beta, c.cast(), s)
        }
    } else if TypeId::of::<T>() == TypeId::of::<f64>() {
        // SAFETY: `T` is `f64`, as above.
        unsafe {
            let (alpha, beta) =
                (core::mem::transmute_copy::<T, f64>(&alpha), core::mem::transmute_copy::<T, f64>(&beta));
            run::<f64, E>(e, alpha, a.cast(), b.cast(), beta, c.cast(), s)
        }
    } else {
        // `GemmScalar` is sealed to `f32` and `f64`.
        unreachable!("a GemmScalar other than f32 or f64")
    }
}

/// `C = α·A·B + β·C` over the pointers and strides; `β = 0` does not read C, and `α = 0` or
/// `k = 0` scales C by `β` without reading A or B.
///
/// # Safety
/// `m, n, k ≤ SMALL_MAX`; every offset of A, B and C over `i < m`, `j < n`, `p < k` lies
/// inside the allocation its pointer points into (C readable unless `β = 0`, and writable),
/// and C overlaps neither A nor B.
#[inline(always)]
pub(crate) unsafe fn run<T: SmallScalar, E: Extents>(
    e: E,
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    let (m, n, k) = (e.m(), e.n(), e.k());
    debug_assert!(m <= SMALL_MAX && n <= SMALL_MAX && k <= SMALL_MAX);
    if !E::FIXED {
        macro_rules! cube {
            ($e:literal) => {
                // SAFETY: the caller's bounds, for the same extents as constants.
                return unsafe { run(Fixed::<$e, $e, $e>, alpha, a, b, beta, c, s) }
            };
        }
        on_cube!((m, n, k), cube, {});
    }
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 || alpha == T::ZERO {
        // SAFETY: C's offsets are the caller's; A and B are not touched.
        return unsafe { scale_c(m, n, beta, c, s.crs, s.ccs) };
    }
    let s = s.degenerate(m, n);
    // SAFETY (each arm): the caller's bounds, for the problem or its transpose (the same
    // elements), and the extents at most `SMALL_MAX`.
    unsafe {
        if s.crs == 1 {
            columns(e, alpha, a, b, beta, c, s)
        } else if s.ccs == 1 {
            columns(e.swap(), alpha, b, a, beta, c, s.swap())
        } else {
            strided(e, alpha, a, b, beta, c, s)
        }
    }
}

/// [`body`] out of line: C contiguous in neither direction, or the portable level.
///
/// # Safety
/// As [`body`].
#[inline(never)]
unsafe fn strided<T: SmallScalar, E: Extents>(
    e: E,
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    // SAFETY: the caller's.
    unsafe { body::<T, E, false>(e, alpha, a, b, beta, c, s) }
}

/// A problem with C contiguous along M (`crs = 1`), A copied to a column-major block on the
/// stack first when its rows are not contiguous.
///
/// # Safety
/// As [`run`], with `m, n, k ≥ 1` and `crs = 1`.
#[inline(always)]
unsafe fn columns<T: SmallScalar, E: Extents>(
    e: E,
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    if s.ars == 1 {
        // SAFETY: the caller's, with A's rows contiguous.
        unsafe { kernel(e, alpha, a, s.acs, b, beta, c, s) }
    } else {
        // SAFETY: the caller's.
        unsafe { packed(e, alpha, a, b, beta, c, s) }
    }
}

/// [`columns`] with A copied to a column-major block on the stack.
///
/// # Safety
/// As [`columns`].
#[inline(never)]
unsafe fn packed<T: SmallScalar, E: Extents>(e: E, alpha: T, a: *const T, b: *const T, beta: T, c: *mut T, s: Strides) {
    let (m, k) = (e.m(), e.k());
    let mut block = MaybeUninit::<[T; SMALL_MAX * SMALL_MAX]>::uninit();
    let block = block.as_mut_ptr().cast::<T>();
    // SAFETY: `A(i, p)` for `i < m`, `p < k` is the caller's; the block holds
    // `SMALL_MAX² ≥ m·k` elements, written at `i + p·m` and read there by the kernel.
    unsafe {
        for p in 0..k {
            for i in 0..m {
                *block.add(i + p * m) = *a.offset(i as isize * s.ars + p as isize * s.acs);
            }
        }
        kernel(e, alpha, block.cast_const(), m as isize, b, beta, c, s)
    }
}

/// The level's kernel for a problem with A and C contiguous along M (A's column stride
/// `acs`; `s`'s other strides as given).
///
/// # Safety
/// As [`run`], with `m, n, k ≥ 1`, `crs = 1`, and `A(i, p)` at `a + i + p·acs`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn kernel<T: SmallScalar, E: Extents>(
    e: E,
    alpha: T,
    a: *const T,
    acs: isize,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    match level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is Avx512 only when the CPU has the features; the caller's bounds.
        Level::Avx512 => unsafe { x86::avx512(e, alpha, a, acs, b, s.brs, s.bcs, beta, c, s.ccs) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, AVX2 and FMA.
        Level::Avx2 => unsafe { x86::avx2(e, alpha, a, acs, b, s.brs, s.bcs, beta, c, s.ccs) },
        // SAFETY: the caller's.
        _ => unsafe { strided(e, alpha, a, b, beta, c, Strides { ars: 1, acs, ..s }) },
    }
}

/// `C = β·C` over `i < m`, `j < n` (zeros without reading C when `β = 0`).
///
/// # Safety
/// Every offset `i·crs + j·ccs` of C is inside the allocation `c` points into, readable
/// unless `β = 0`, and writable.
#[inline(never)]
unsafe fn scale_c<T: SmallScalar>(m: usize, n: usize, beta: T, c: *mut T, crs: isize, ccs: isize) {
    for j in 0..n {
        for i in 0..m {
            // SAFETY: `i < m`, `j < n`: an offset of C the caller vouches for.
            unsafe {
                let out = c.offset(i as isize * crs + j as isize * ccs);
                *out = if beta == T::ZERO { T::ZERO } else { beta * *out };
            }
        }
    }
}

/// The plain kernel over any strides: a column of C at a time, in chunks of 16 rows held in
/// accumulators over the K loop.
///
/// # Safety
/// As [`run`], with `m, n, k ≥ 1`.
#[inline(always)]
unsafe fn body<T: SmallScalar, E: Extents, const FUSED: bool>(
    e: E,
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
    s: Strides,
) {
    const R: usize = 16;
    let (m, n, k) = (e.m(), e.n(), e.k());
    for j in 0..n {
        let mut i0 = 0;
        while i0 < m {
            let r = (m - i0).min(R);
            let mut acc = [T::ZERO; R];
            for p in 0..k {
                // SAFETY: `p < k`, `j < n`: an offset of B the caller vouches for.
                let bv = unsafe { *b.offset(p as isize * s.brs + j as isize * s.bcs) };
                for (i, x) in acc.iter_mut().enumerate().take(r) {
                    // SAFETY: `i0 + i < m`, `p < k`: an offset of A the caller vouches for.
                    let av = unsafe { *a.offset((i0 + i) as isize * s.ars + p as isize * s.acs) };
                    *x = T::madd::<FUSED>(av, bv, *x);
                }
            }
            for (i, &x) in acc.iter().enumerate().take(r) {
                // SAFETY: `i0 + i < m`, `j < n`: an offset of C the caller vouches for, not
                // overlapping A or B.
                unsafe {
                    let out = c.offset((i0 + i) as isize * s.crs + j as isize * s.ccs);
                    *out = if beta == T::ZERO { alpha * x } else { T::madd::<FUSED>(beta, *out, alpha * x) };
                }
            }
            i0 += R;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Extents, SmallScalar};
    use crate::isa::Isa;

    /// Expands `$body` once per listed value, `$v` bound to it as a `usize` constant (indices
    /// into the accumulator arrays are then constants and the arrays live in registers).
    macro_rules! unroll {
        ($v:ident in [$($n:literal)*] $body:block) => {
            $( { let $v: usize = $n; $body } )*
        };
    }

    /// Calls `$f::<T, NV, NJ[, EXTRA]> $args` for the run-time `$pair = (nv, nj)` among the
    /// listed pairs.
    macro_rules! dispatch {
        ($f:ident, $pair:expr, $args:tt, $($v:literal => [$($j:literal)*]),*) => {
            match $pair {
                $($( ($v, $j) => $f::<T, $v, $j> $args, )*)*
                // The drivers make `nv` and `nj` only among the listed pairs.
                _ => unreachable!("a small GEMM tile outside the instantiated shapes"),
            }
        };
        ($f:ident + $extra:tt, $pair:expr, $args:tt, $($v:literal => [$($j:literal)*]),*) => {
            match $pair {
                $($( ($v, $j) => $f::<T, $v, $j, $extra> $args, )*)*
                // As above.
                _ => unreachable!("a small GEMM tile outside the instantiated shapes"),
            }
        };
    }

    /// `x / d` for a divisor of at most 12 without a division instruction (each arm divides
    /// by a constant, a multiply and a shift; a `div` costs tens of cycles, the whole of a
    /// small product's budget).
    #[inline(always)]
    fn qdiv(x: usize, d: usize) -> usize {
        match d {
            1 => x,
            2 => x / 2,
            3 => x / 3,
            4 => x / 4,
            5 => x / 5,
            6 => x / 6,
            7 => x / 7,
            8 => x / 8,
            9 => x / 9,
            10 => x / 10,
            11 => x / 11,
            12 => x / 12,
            _ => x / d,
        }
    }

    /// `x.div_ceil(d)` as [`qdiv`].
    #[inline(always)]
    fn qdiv_ceil(x: usize, d: usize) -> usize {
        qdiv(x + d - 1, d)
    }

    /// An AVX-512 tile: `NV` vectors of rows (the last one `last` rows, masked) by `NJ`
    /// columns of C, in `NV·NJ ≤ 24` accumulators over the K loop; per step `NV` loads of A's
    /// column, `NJ` broadcasts of B.
    ///
    /// # Safety
    /// AVX-512F and FMA; `1 ≤ last ≤ LANES`; rows `< (NV - 1)·LANES + last` of A (column
    /// stride `acs`) and C (column stride `ccs`), `B(p, j)` at `b + p·brs + j·bcs` for
    /// `p < k`, `j < NJ`, inside the operands (C readable unless `β = 0`, writable, not
    /// overlapping A or B).
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile512<T: SmallScalar, const NV: usize, const NJ: usize>(
        k: usize,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        c: *mut T,
        ccs: isize,
        last: usize,
        alpha: T,
        beta: T,
    ) {
        let l = <T::Avx512 as Isa<T>>::LANES;
        let rows = |v: usize| if v + 1 == NV { last } else { l };
        // SAFETY: AVX-512F (this function's features).
        let z = unsafe { <T::Avx512 as Isa<T>>::zero() };
        let mut acc = [[z; NJ]; NV];
        let mut bp = [b; NJ];
        unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] { if j < NJ { bp[j] = b.wrapping_offset(j as isize * bcs); } });
        // SAFETY: step `p` reads the rows of column `p` of A (the last vector masked) and
        // `B(p, j)` for `j < NJ`: offsets the caller vouches for.
        unsafe {
            let (mut ap, mut po) = (a, 0isize);
            for _ in 0..k {
                let mut av = [z; NV];
                unroll!(v in [0 1 2 3] { if v < NV { av[v] = <T::Avx512 as Isa<T>>::load_n(ap.add(v * l), rows(v)); } });
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NJ {
                        let bj = <T::Avx512 as Isa<T>>::splat(*bp[j].offset(po));
                        unroll!(v in [0 1 2 3] { if v < NV { acc[v][j] = <T::Avx512 as Isa<T>>::fma(av[v], bj, acc[v][j]); } });
                    }
                });
                ap = ap.wrapping_offset(acs);
                po += brs;
            }
        }
        // SAFETY: the rows (masked) of columns `j < NJ` of C.
        unsafe {
            let (va, vb) = (<T::Avx512 as Isa<T>>::splat(alpha), <T::Avx512 as Isa<T>>::splat(beta));
            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                if j < NJ {
                    let cj = c.wrapping_offset(j as isize * ccs);
                    unroll!(v in [0 1 2 3] {
                        if v < NV {
                            let x = <T::Avx512 as Isa<T>>::mul(va, acc[v][j]);
                            let y = if beta == T::ZERO { x } else { <T::Avx512 as Isa<T>>::fma(vb, <T::Avx512 as Isa<T>>::load_n(cj.add(v * l), rows(v)), x) };
                            <T::Avx512 as Isa<T>>::store_n(cj.add(v * l), rows(v), y);
                        }
                    });
                }
            });
        }
    }

    /// [`tile512`] as a call of its own.
    ///
    /// # Safety
    /// As [`tile512`].
    #[inline(never)]
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile512_call<T: SmallScalar, const NV: usize, const NJ: usize>(
        k: usize,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        c: *mut T,
        ccs: isize,
        last: usize,
        alpha: T,
        beta: T,
    ) {
        // SAFETY: the caller's.
        unsafe { tile512::<T, NV, NJ>(k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta) }
    }

    /// The AVX-512 small GEMM with A and C contiguous along M: all rows in one tile (at most 4
    /// vectors), cut into the fewest column tiles of at most `min(24 / vectors, 12)` columns
    /// (balanced with two vectors or more, full tiles first with one), as the static kernel.
    ///
    /// # Safety
    /// AVX-512F and FMA; [`super::run`]'s bounds with `m, n, k ≥ 1` and `ars = crs = 1`.
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn avx512<T: SmallScalar, E: Extents>(
        e: E,
        alpha: T,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        beta: T,
        c: *mut T,
        ccs: isize,
    ) {
        let l = <T::Avx512 as Isa<T>>::LANES;
        let (m, n, k) = (e.m(), e.n(), e.k());
        // One row tile: `m ≤ SMALL_MAX` is at most 4 vectors (f64: 8 lanes).
        let nv = m.div_ceil(l);
        debug_assert!((1..=4).contains(&nv));
        let last = m - (nv - 1) * l;
        let nb = n.min(qdiv(24, nv)).min(12);
        let tiles = qdiv_ceil(n, nb);
        let balanced = nv >= 2;
        for jt in 0..tiles {
            let j0 = if balanced { qdiv(jt * n, tiles) } else { jt * nb };
            let nj = if balanced { qdiv((jt + 1) * n, tiles) - j0 } else { nb.min(n - j0) };
            let b = b.wrapping_offset(j0 as isize * bcs);
            let c = c.wrapping_offset(j0 as isize * ccs);
            // SAFETY: all `m` rows and columns `j0..j0 + nj ≤ n` of the problem (the
            // caller's bounds); `nv ≤ 4`, `nj ≤ 24 / nv`, `nj ≤ 12`: one of the listed
            // shapes; this function's features.
            unsafe {
                if E::FIXED {
                    dispatch!(tile512, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta),
                        1 => [1 2 3 4 5 6 7 8 9 10 11 12],
                        2 => [1 2 3 4 5 6 7 8 9 10 11 12],
                        3 => [1 2 3 4 5 6 7 8],
                        4 => [1 2 3 4 5 6])
                } else {
                    dispatch!(tile512_call, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta),
                        1 => [1 2 3 4 5 6 7 8 9 10 11 12],
                        2 => [1 2 3 4 5 6 7 8 9 10 11 12],
                        3 => [1 2 3 4 5 6 7 8],
                        4 => [1 2 3 4 5 6])
                }
            }
        }
    }

    /// An AVX2 tile: `NV ≤ 2` vectors of rows (the last one `last` rows, masked unless
    /// `FULL`) by `NJ` columns of C, in `NV·NJ ≤ 12` accumulators over the K loop.
    ///
    /// # Safety
    /// AVX2 and FMA; `last = LANES` when `FULL`, else `1 ≤ last < LANES`; the operands as
    /// for [`tile512`].
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile2<T: SmallScalar, const NV: usize, const NJ: usize, const FULL: bool>(
        k: usize,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        c: *mut T,
        ccs: isize,
        last: usize,
        alpha: T,
        beta: T,
    ) {
        let l = <T::Avx2 as Isa<T>>::LANES;
        let rows = |v: usize| if v + 1 == NV && !FULL { last } else { l };
        // SAFETY: AVX2 (this function's features).
        let z = unsafe { <T::Avx2 as Isa<T>>::zero() };
        let mut acc = [[z; NJ]; NV];
        let mut bp = [b; NJ];
        unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] { if j < NJ { bp[j] = b.wrapping_offset(j as isize * bcs); } });
        // SAFETY: step `p` reads the rows of column `p` of A (the last vector masked unless
        // full) and `B(p, j)` for `j < NJ`: offsets the caller vouches for.
        unsafe {
            let (mut ap, mut po) = (a, 0isize);
            for _ in 0..k {
                let mut av = [z; NV];
                unroll!(v in [0 1] { if v < NV { av[v] = <T::Avx2 as Isa<T>>::load_n(ap.add(v * l), rows(v)); } });
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NJ {
                        let bj = <T::Avx2 as Isa<T>>::splat(*bp[j].offset(po));
                        unroll!(v in [0 1] { if v < NV { acc[v][j] = <T::Avx2 as Isa<T>>::fma(av[v], bj, acc[v][j]); } });
                    }
                });
                ap = ap.wrapping_offset(acs);
                po += brs;
            }
        }
        // SAFETY: the rows (the last vector masked unless full) of columns `j < NJ` of C.
        unsafe {
            let (va, vb) = (<T::Avx2 as Isa<T>>::splat(alpha), <T::Avx2 as Isa<T>>::splat(beta));
            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                if j < NJ {
                    let cj = c.wrapping_offset(j as isize * ccs);
                    unroll!(v in [0 1] {
                        if v < NV {
                            let x = <T::Avx2 as Isa<T>>::mul(va, acc[v][j]);
                            let y = if beta == T::ZERO { x } else { <T::Avx2 as Isa<T>>::fma(vb, <T::Avx2 as Isa<T>>::load_n(cj.add(v * l), rows(v)), x) };
                            <T::Avx2 as Isa<T>>::store_n(cj.add(v * l), rows(v), y);
                        }
                    });
                }
            });
        }
    }

    /// [`tile2`] as a call of its own.
    ///
    /// # Safety
    /// As [`tile2`].
    #[inline(never)]
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile2_call<T: SmallScalar, const NV: usize, const NJ: usize, const FULL: bool>(
        k: usize,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        c: *mut T,
        ccs: isize,
        last: usize,
        alpha: T,
        beta: T,
    ) {
        // SAFETY: the caller's.
        unsafe { tile2::<T, NV, NJ, FULL>(k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta) }
    }

    /// The AVX2 small GEMM with A and C contiguous along M: row tiles of at most 2 vectors
    /// (balanced), each cut into the fewest column tiles of at most `12 / vectors` columns
    /// (balanced), as the static kernel.
    ///
    /// # Safety
    /// AVX2 and FMA; [`super::run`]'s bounds with `m, n, k ≥ 1` and `ars = crs = 1`.
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn avx2<T: SmallScalar, E: Extents>(
        e: E,
        alpha: T,
        a: *const T,
        acs: isize,
        b: *const T,
        brs: isize,
        bcs: isize,
        beta: T,
        c: *mut T,
        ccs: isize,
    ) {
        let l = <T::Avx2 as Isa<T>>::LANES;
        let (m, n, k) = (e.m(), e.n(), e.k());
        let nvec = m.div_ceil(l);
        // Row tiles of 2 vectors, balanced: the first `2·rtiles - nvec` of one vector.
        let rtiles = nvec.div_ceil(2);
        let singles = 2 * rtiles - nvec;
        let nb = n.min(if nvec == 1 { 12 } else { 6 });
        let ctiles = qdiv_ceil(n, nb);
        let mut v0 = 0;
        for it in 0..rtiles {
            let nv = if it < singles { 1 } else { 2 };
            let i0 = v0 * l;
            v0 += nv;
            let last = (m - i0).min(nv * l) - (nv - 1) * l;
            let full = last == l;
            for jt in 0..ctiles {
                let j0 = qdiv(jt * n, ctiles);
                let nj = qdiv((jt + 1) * n, ctiles) - j0;
                let (a, b) = (a.wrapping_add(i0), b.wrapping_offset(j0 as isize * bcs));
                let c = c.wrapping_add(i0).wrapping_offset(j0 as isize * ccs);
                // SAFETY: rows `i0..i0 + (nv - 1)·l + last ≤ m` and columns `j0..j0 + nj ≤ n`
                // of the problem (the caller's bounds); `nv ≤ 2`, `nj ≤ 12 / nv`: one of the
                // listed shapes, `full` as `last` says; this function's features.
                unsafe {
                    match (E::FIXED, full) {
                        (true, true) => {
                            dispatch!(tile2 + true, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta), 1 => [1 2 3 4 5 6 7 8 9 10 11 12], 2 => [1 2 3 4 5 6])
                        }
                        (true, false) => {
                            dispatch!(tile2 + false, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta), 1 => [1 2 3 4 5 6 7 8 9 10 11 12], 2 => [1 2 3 4 5 6])
                        }
                        (false, true) => {
                            dispatch!(tile2_call + true, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta), 1 => [1 2 3 4 5 6 7 8 9 10 11 12], 2 => [1 2 3 4 5 6])
                        }
                        (false, false) => {
                            dispatch!(tile2_call + false, (nv, nj), (k, a, acs, b, brs, bcs, c, ccs, last, alpha, beta), 1 => [1 2 3 4 5 6 7 8 9 10 11 12], 2 => [1 2 3 4 5 6])
                        }
                    }
                }
            }
        }
    }
}
