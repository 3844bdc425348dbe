//! The straight-line GEMM of a small, fully static problem (`layout!`'s `gemm` item when M, N
//! and K are at most 32 and each is one mode): every extent and stride is a const generic, so
//! the instantiation in the user's crate is fully unrolled and vectorized by the compiler,
//! once per SIMD level (`#[target_feature]` copies), chosen by the cached level of
//! [`crate::kernels::level`]. No packing, no blocking, no allocation.

use crate::kernels::{Level, level};

/// The element types of a GEMM: `f32` and `f64`.
pub trait SmallScalar: Copy + PartialEq + core::ops::Mul<Output = Self> + core::ops::Add<Output = Self> {
    const ZERO: Self;
    /// `a·b + c`, fused when `FUSED` (the FMA levels), else a multiply and an add (a fused
    /// multiply-add without the instruction is a slow library call).
    fn madd<const FUSED: bool>(a: Self, b: Self, c: Self) -> Self;
}

impl SmallScalar for f32 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn madd<const FUSED: bool>(a: Self, b: Self, c: Self) -> Self {
        if FUSED { a.mul_add(b, c) } else { a * b + c }
    }
}

impl SmallScalar for f64 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn madd<const FUSED: bool>(a: Self, b: Self, c: Self) -> Self {
        if FUSED { a.mul_add(b, c) } else { a * b + c }
    }
}

/// `C = alpha·A·B + beta·C` with `A(i,p) = a[i·ARS + p·ACS]`, `B(p,j) = b[p·BRS + j·BCS]`,
/// `C(i,j) = c[i·CRS + j·CCS]`; `beta == 0` does not read C.
///
/// # Safety
/// Every offset of A, B and C over `i < M`, `j < N`, `p < K` lies inside the allocation its
/// pointer points into, and C does not overlap A or B.
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn small_gemm<
    T: SmallScalar,
    const M: usize,
    const N: usize,
    const K: usize,
    const ARS: isize,
    const ACS: isize,
    const BRS: isize,
    const BCS: isize,
    const CRS: isize,
    const CCS: isize,
>(
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
) {
    match level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the level is only Avx512 or Avx2 when the CPU has those features (detected by
        // `kernels::level`); the pointer bounds are the caller's.
        Level::Avx512 => unsafe { x86::avx512::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS>(alpha, a, b, beta, c) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2 => unsafe { x86::avx2::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS>(alpha, a, b, beta, c) },
        // SAFETY: the caller's bounds.
        _ => unsafe { body::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS, false>(alpha, a, b, beta, c) },
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{SmallScalar, body};

    #[target_feature(enable = "avx512f,avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn avx512<
        T: SmallScalar,
        const M: usize,
        const N: usize,
        const K: usize,
        const ARS: isize,
        const ACS: isize,
        const BRS: isize,
        const BCS: isize,
        const CRS: isize,
        const CCS: isize,
    >(
        alpha: T,
        a: *const T,
        b: *const T,
        beta: T,
        c: *mut T,
    ) {
        // SAFETY: the caller's bounds (`small_gemm`).
        unsafe { body::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS, true>(alpha, a, b, beta, c) }
    }

    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn avx2<
        T: SmallScalar,
        const M: usize,
        const N: usize,
        const K: usize,
        const ARS: isize,
        const ACS: isize,
        const BRS: isize,
        const BCS: isize,
        const CRS: isize,
        const CCS: isize,
    >(
        alpha: T,
        a: *const T,
        b: *const T,
        beta: T,
        c: *mut T,
    ) {
        // SAFETY: the caller's bounds (`small_gemm`).
        unsafe { body::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS, true>(alpha, a, b, beta, c) }
    }
}

/// The kernel: accumulators for the whole `M × N` tile, the K loop outside the M loop so the
/// inner loop runs along A's column and C's column.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn body<
    T: SmallScalar,
    const M: usize,
    const N: usize,
    const K: usize,
    const ARS: isize,
    const ACS: isize,
    const BRS: isize,
    const BCS: isize,
    const CRS: isize,
    const CCS: isize,
    const FUSED: bool,
>(
    alpha: T,
    a: *const T,
    b: *const T,
    beta: T,
    c: *mut T,
) {
    let mut acc = [[T::ZERO; M]; N];
    for (j, col) in acc.iter_mut().enumerate() {
        for p in 0..K {
            // SAFETY: `p < K`, `j < N`: an offset of B the caller vouches for.
            let bv = unsafe { *b.offset(p as isize * BRS + j as isize * BCS) };
            for (i, x) in col.iter_mut().enumerate() {
                // SAFETY: `i < M`, `p < K`: an offset of A the caller vouches for.
                let av = unsafe { *a.offset(i as isize * ARS + p as isize * ACS) };
                *x = T::madd::<FUSED>(av, bv, *x);
            }
        }
    }
    for (j, col) in acc.iter().enumerate() {
        for (i, &x) in col.iter().enumerate() {
            // SAFETY: `i < M`, `j < N`: an offset of C the caller vouches for, not overlapping
            // A or B.
            unsafe {
                let out = c.offset(i as isize * CRS + j as isize * CCS);
                *out = if beta == T::ZERO { alpha * x } else { T::madd::<FUSED>(beta, *out, alpha * x) };
            }
        }
    }
}

/// The call of a small static GEMM a `gemm` item makes. A macro of this crate, so that the
/// `unsafe` block is not the user's code. Not a public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __run_small_gemm {
    ($t:ty, $m:expr, $n:expr, $k:expr, $ars:expr, $acs:expr, $brs:expr, $bcs:expr, $crs:expr, $ccs:expr,
     $alpha:expr, $a:expr, $b:expr, $beta:expr, $c:expr) => {
        // SAFETY: `CopySource::source`/`CopyDest::dest` checked that the arguments cover every
        // offset of A, B and C, which are exactly the offsets of the extents and strides given
        // here (the macro's plan of the layouts); C is a `&mut` borrow, so it overlaps nothing.
        unsafe {
            $crate::__private::small_gemm::<$t, $m, $n, $k, $ars, $acs, $brs, $bcs, $crs, $ccs>(
                $alpha, $a, $b, $beta, $c,
            )
        }
    };
}
