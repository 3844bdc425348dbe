//! The straight-line GEMM of a small, fully static problem (`layout!`'s `gemm` item when M, N
//! and K are at most 32 and each is one mode): every extent and stride is a const generic, so
//! the instantiation in the user's crate is fully unrolled and vectorized by the compiler,
//! once per SIMD level (`#[target_feature]` copies), chosen by the cached level of
//! [`crate::kernels::level`]. No packing, no blocking, no allocation.

use crate::gemm::{check_operand, reach};
use crate::kernels::{DstView, Level, SrcView, level};

/// The element types of a GEMM: `f32` and `f64`.
pub trait SmallScalar:
    Copy + PartialEq + core::ops::Mul<Output = Self> + core::ops::Add<Output = Self> + x86::Element
{
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

#[cfg(not(target_arch = "x86_64"))]
pub(crate) mod x86 {
    /// No vector kernel off x86_64.
    pub trait Element {}
    impl Element for f32 {}
    impl Element for f64 {}
}

/// `C = alpha·A·B + beta·C` with `A(i,p) = a[a_at + i·ARS + p·ACS]`,
/// `B(p,j) = b[b_at + p·BRS + j·BCS]`, `C(i,j) = c[c_at + i·CRS + j·CCS]` over `i < M`,
/// `j < N`, `p < K` (offsets of the views); `beta == 0` does not read C, and `alpha == 0`
/// scales C by `beta` without reading A or B.
///
/// # Panics
/// When some operand's offsets do not lie in its view (the extremes are constants of the
/// instantiation: one comparison per bound).
#[inline]
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn small_gemm<
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
    a: &SrcView<'_, T>,
    a_at: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
) {
    check_operand("A", (a.lo(), a.hi()), a_at, const { reach(M, K, ARS, ACS) });
    check_operand("B", (b.lo(), b.hi()), b_at, const { reach(K, N, BRS, BCS) });
    check_operand("C", (c.lo(), c.hi()), c_at, const { reach(M, N, CRS, CCS) });
    let (a, b, c) =
        (a.as_ptr().wrapping_offset(a_at), b.as_ptr().wrapping_offset(b_at), c.as_mut_ptr().wrapping_offset(c_at));
    // SAFETY: every offset of A, B and C over the tile lies in its view (checked above), and a
    // view's offsets are inside its borrowed slice; C's view is an exclusive borrow, so it
    // overlaps neither A nor B.
    unsafe { small_gemm_unchecked::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS>(alpha, a, b, beta, c) }
}

/// [`small_gemm`] over pointers to offset 0 of each operand.
///
/// # Safety
/// Every offset of A, B and C over `i < M`, `j < N`, `p < K` lies inside the allocation its
/// pointer points into, and C does not overlap A or B.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn small_gemm_unchecked<
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
    if K == 0 || alpha == T::ZERO {
        // SAFETY: C's offsets are the caller's; A and B are not touched.
        return unsafe { scale_c::<T, M, N, CRS, CCS>(beta, c) };
    }
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

/// `C = beta·C` over `i < M`, `j < N` (zeros without reading C when `beta == 0`): the whole
/// of a product with `alpha == 0` or `K == 0`, which reads neither A nor B (so a NaN or an
/// infinity there does not reach C, as in the run-time engine).
///
/// # Safety
/// Every offset `i·CRS + j·CCS` of C is inside the allocation `c` points into, readable
/// unless `beta == 0`, and writable.
#[inline]
unsafe fn scale_c<T: SmallScalar, const M: usize, const N: usize, const CRS: isize, const CCS: isize>(
    beta: T,
    c: *mut T,
) {
    for j in 0..N {
        for i in 0..M {
            // SAFETY: `i < M`, `j < N`: an offset of C the caller vouches for.
            unsafe {
                let out = c.offset(i as isize * CRS + j as isize * CCS);
                *out = if beta == T::ZERO { T::ZERO } else { beta * *out };
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use super::{SmallScalar, body};
    pub use crate::isa::Element;
    use crate::isa::Isa;

    /// Expands `$body` once per listed value, `$v` bound to it as a `usize` constant.
    macro_rules! unroll {
        ($v:ident in [$($n:literal)*] $body:block) => {
            $( { let $v: usize = $n; $body } )*
        };
    }

    /// The register-tiled AVX-512 kernel for a column-contiguous A and C (`ARS = CRS = 1`):
    /// tiles of all M rows (up to 4 vectors) by up to 12 columns (24 accumulators at most)
    /// of C held in registers over the whole K loop, rows past M masked (every bound a constant, so the guards fold away).
    ///
    /// # Safety
    /// AVX-512F and FMA; `small_gemm`'s bounds; `ARS = CRS = 1`.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tiled<
        T: SmallScalar,
        const M: usize,
        const N: usize,
        const K: usize,
        const ACS: isize,
        const BRS: isize,
        const BCS: isize,
        const CCS: isize,
    >(
        alpha: T,
        a: *const T,
        b: *const T,
        beta: T,
        c: *mut T,
    ) {
        let l = <T::Avx512 as Isa<T>>::LANES;
        // Rows per tile: all of M (at most 4 vectors: M ≤ 32).
        let mb = M;
        let nv = mb.div_ceil(l);
        // Columns per tile: 24 accumulators at most; the fewest tiles of that width. With
        // two vectors or more per column the widths are balanced (32 f64 columns as
        // 5,5,6,5,5,6 rather than 6,6,6,6,6,2); with one, full tiles first (16 f32 columns
        // as 12,4 rather than 8,8).
        let nb = N.min(24 / nv).min(12);
        let tiles = N.div_ceil(nb);
        let balanced = nv >= 2;
        // At most 6 column tiles (N ≤ 32, 6 columns or more per tile) and one row tile
        // (M ≤ 32): unrolled, so every tile's bounds below are constants and its guards fold
        // away.
        debug_assert!(M <= 4 * l && N <= 36);
        unroll!(jt in [0 1 2 3 4 5] {
            let j0 = if balanced { jt * N / tiles } else { jt * nb };
            unroll!(it in [0] {
            let i0 = it * mb;
            if jt < tiles && i0 < M {
                let nj = if balanced { (jt + 1) * N / tiles - j0 } else { nb.min(N - j0) };
                let mi = mb.min(M - i0);
                let mut rows = [0usize; 4];
                unroll!(v in [0 1 2 3] { rows[v] = mi.saturating_sub(v * l).min(l); });
                // SAFETY: AVX-512F (this function's features).
                let z = unsafe { <T::Avx512 as Isa<T>>::zero() };
                let mut acc = [[z; 12]; 4];
                // SAFETY: the loads read rows `i0..i0 + mi` of column `p` of A (masked) and
                // `B(p, j0 + j)` for `j < nj`: offsets the caller vouches for.
                unsafe {
                    for p in 0..K as isize {
                        let ap = a.offset(i0 as isize + p * ACS);
                        let mut av = [z; 4];
                        unroll!(v in [0 1 2 3] { if rows[v] > 0 { av[v] = <T::Avx512 as Isa<T>>::load_n(ap.add(v * l), rows[v]); } });
                        unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                            if j < nj {
                                let bj = <T::Avx512 as Isa<T>>::splat(*b.offset(p * BRS + (j0 + j) as isize * BCS));
                                unroll!(v in [0 1 2 3] { if rows[v] > 0 { acc[v][j] = <T::Avx512 as Isa<T>>::fma(av[v], bj, acc[v][j]); } });
                            }
                        });
                    }
                }
                // SAFETY: rows `i0..i0 + mi` (masked) of columns `j0 + j`, `j < nj`, of C.
                unsafe {
                    let va = <T::Avx512 as Isa<T>>::splat(alpha);
                    let vb = <T::Avx512 as Isa<T>>::splat(beta);
                    unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                        if j < nj {
                            let cj = c.offset(i0 as isize + (j0 + j) as isize * CCS);
                            unroll!(v in [0 1 2 3] {
                                if rows[v] > 0 {
                                    let x = <T::Avx512 as Isa<T>>::mul(va, acc[v][j]);
                                    let y = if beta == T::ZERO { x } else { <T::Avx512 as Isa<T>>::fma(vb, <T::Avx512 as Isa<T>>::load_n(cj.add(v * l), rows[v]), x) };
                                    <T::Avx512 as Isa<T>>::store_n(cj.add(v * l), rows[v], y);
                                }
                            });
                        }
                    });
                }
            }
            });
        });
    }

    /// # Safety
    /// The caller's bounds (`small_gemm`), and a CPU with AVX-512F, AVX2 and FMA.
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
        if ARS == 1 && CRS == 1 {
            // SAFETY: the caller's bounds; this function's features.
            return unsafe { tiled::<T, M, N, K, ACS, BRS, BCS, CCS>(alpha, a, b, beta, c) };
        }
        // SAFETY: the caller's bounds (`small_gemm`).
        unsafe { body::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS, true>(alpha, a, b, beta, c) }
    }

    /// The register-tiled AVX2 kernel for a column-contiguous A and C (`ARS = CRS = 1`): 16
    /// ymm registers hold at most 12 accumulators, so C is cut into tiles of at most 2
    /// vectors of rows (balanced: 8 f64 vectors as 2,2,2,2) by at most `12 / vectors`
    /// columns (balanced: 32 columns as 5,5,6,5,5,6), each held in registers over the whole K
    /// loop with its row vectors of A loaded once per step and one broadcast of B per column;
    /// rows past M masked. Every bound is a constant, so the guards fold away.
    ///
    /// # Safety
    /// AVX2 and FMA; `small_gemm`'s bounds; `ARS = CRS = 1`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn tiled2<
        T: SmallScalar,
        const M: usize,
        const N: usize,
        const K: usize,
        const ACS: isize,
        const BRS: isize,
        const BCS: isize,
        const CCS: isize,
    >(
        alpha: T,
        a: *const T,
        b: *const T,
        beta: T,
        c: *mut T,
    ) {
        let l = <T::Avx2 as Isa<T>>::LANES;
        // Vectors of rows in all, row tiles of at most 2 vectors, balanced.
        let nvec = M.div_ceil(l);
        let rtiles = nvec.div_ceil(2);
        // Columns per tile: 12 accumulators at most, the fewest tiles, balanced.
        let mv_max = nvec.div_ceil(rtiles);
        let nb = N.min(12 / mv_max);
        let ctiles = N.div_ceil(nb);
        // M ≤ 32: at most 8 vectors (f64), 4 row tiles; N ≤ 32 with 6 columns or more per
        // tile: at most 6 column tiles. Unrolled, so every tile's bounds are constants.
        debug_assert!(M <= 8 * l && ctiles <= 6);
        unroll!(it in [0 1 2 3] {
            if it < rtiles {
                // Vectors `v0..v1` of rows.
                let v0 = it * nvec / rtiles;
                let v1 = (it + 1) * nvec / rtiles;
                let i0 = v0 * l;
                let mut rows = [0usize; 2];
                unroll!(v in [0 1] { if v0 + v < v1 { rows[v] = (M - i0 - v * l).min(l); } });
                unroll!(jt in [0 1 2 3 4 5] {
                    if jt < ctiles {
                        let j0 = jt * N / ctiles;
                        let nj = (jt + 1) * N / ctiles - j0;
                        // SAFETY: AVX2 (this function's features).
                        let z = unsafe { <T::Avx2 as Isa<T>>::zero() };
                        let mut acc = [[z; 12]; 2];
                        // SAFETY: the loads read rows `i0..` (`rows[v]` of vector `v`,
                        // masked) of column `p` of A and `B(p, j0 + j)` for `j < nj`: offsets
                        // the caller vouches for.
                        unsafe {
                            for p in 0..K as isize {
                                let ap = a.offset(i0 as isize + p * ACS);
                                let mut av = [z; 2];
                                unroll!(v in [0 1] { if rows[v] > 0 { av[v] = <T::Avx2 as Isa<T>>::load_n(ap.add(v * l), rows[v]); } });
                                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                                    if j < nj {
                                        let bj = <T::Avx2 as Isa<T>>::splat(*b.offset(p * BRS + (j0 + j) as isize * BCS));
                                        unroll!(v in [0 1] { if rows[v] > 0 { acc[v][j] = <T::Avx2 as Isa<T>>::fma(av[v], bj, acc[v][j]); } });
                                    }
                                });
                            }
                        }
                        // SAFETY: rows `i0..` (masked) of columns `j0 + j`, `j < nj`, of C.
                        unsafe {
                            let va = <T::Avx2 as Isa<T>>::splat(alpha);
                            let vb = <T::Avx2 as Isa<T>>::splat(beta);
                            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                                if j < nj {
                                    let cj = c.offset(i0 as isize + (j0 + j) as isize * CCS);
                                    unroll!(v in [0 1] {
                                        if rows[v] > 0 {
                                            let x = <T::Avx2 as Isa<T>>::mul(va, acc[v][j]);
                                            let y = if beta == T::ZERO {
                                                x
                                            } else {
                                                <T::Avx2 as Isa<T>>::fma(vb, <T::Avx2 as Isa<T>>::load_n(cj.add(v * l), rows[v]), x)
                                            };
                                            <T::Avx2 as Isa<T>>::store_n(cj.add(v * l), rows[v], y);
                                        }
                                    });
                                }
                            });
                        }
                    }
                });
            }
        });
    }

    /// # Safety
    /// The caller's bounds (`small_gemm`), and a CPU with AVX2 and FMA.
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
        // Fewer rows than a vector (f32 M < 8, f64 M < 4) run the plain loops, which the
        // compiler vectorizes, rather than the tiles' masked `vmaskmov` loads and stores.
        if ARS == 1 && CRS == 1 && M >= <T::Avx2 as Isa<T>>::LANES {
            // SAFETY: the caller's bounds; this function's features.
            return unsafe { tiled2::<T, M, N, K, ACS, BRS, BCS, CCS>(alpha, a, b, beta, c) };
        }
        // SAFETY: the caller's bounds (`small_gemm`).
        unsafe { body::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS, true>(alpha, a, b, beta, c) }
    }
}

/// The kernel: accumulators for the whole `M × N` tile, the K loop outside the M loop so the
/// inner loop runs along A's column and C's column.
///
/// # Safety
/// Every offset of A, B and C over the tile is inside its allocation; C overlaps neither.
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
