//! x86_64 levels: AVX-512 and AVX2+FMA micro-kernels (straight-line, all accumulators in
//! registers) and one `#[target_feature]` entry per level and type into which the blocked
//! driver, the packing and the small-problem loop inline.

use super::driver::{Direct, Kernel, Problem, blocked, direct, pack, write_back};
use core::arch::x86_64::*;
use layout_plan::GemmBlocking;
use layout_plan::gemm_blocking::{GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_AVX512_F32, GEMM_AVX512_F64};

/// Expands `$body` once per listed value, with `$v` bound to it (a `usize` constant), so that
/// indices into the accumulator arrays are constants and the arrays live in registers.
macro_rules! unroll {
    ($v:ident in [$($n:literal)*] $body:block) => {
        $( { let $v: usize = $n; $body } )*
    };
}

/// A micro-kernel `fn $name(kc, a, a_step, b, c, rs, cs, mr, nr, alpha, beta)` (see
/// `Kernel::micro`) of `$mv` vectors of `$lanes` rows by `$nr` columns: per step of k, `$mv`
/// loads of A, `$nr` broadcasts of B and `$mv·$nr` FMAs. A full tile with `rs == 1` is
/// written back with vector loads and stores, others through a buffer.
macro_rules! micro {
    (
        $name:ident, $feat:literal, $t:ty, $lanes:literal, $mv:literal x $nr:literal / ($bj:expr, $bs:expr) $(with $bjv:ident)?,
        $is:tt, $js:tt, $loadu:ident, $storeu:ident, $set1:ident, $fmadd:ident, $mul:ident, $zero:ident,
        $mask:ident, $mload:ident, $mstore:ident
    ) => {
        /// # Safety
        /// As `Kernel::micro` (with a run-time column stride of B: as `Kernel::micro_b`); the
        /// CPU has the features.
        #[target_feature(enable = $feat)]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $name(
            kc: usize,
            a: *const $t,
            a_step: usize,
            b: *const $t,
            $($bjv: usize,)?
            c: *mut $t,
            rs: isize,
            cs: isize,
            mr: usize,
            nr: usize,
            alpha: $t,
            beta: $t,
        ) {
            const MR: usize = $mv * $lanes;
            let mut acc = [[$zero(); $nr]; $mv];
            // Prefetch the tile of C (its first and last element per column): the stores at
            // the end then do not wait for the lines.
            unroll!(j in $js {
                if j < nr {
                    let cj = c.wrapping_offset(j as isize * cs);
                    _mm_prefetch::<_MM_HINT_T0>(cj.cast::<i8>());
                    _mm_prefetch::<_MM_HINT_T0>(cj.wrapping_offset((mr as isize - 1) * rs).cast::<i8>());
                }
            });
            let (mut a, mut b) = (a, b);
            // SAFETY: step `p < kc` reads `a[p·a_step..][..MR]` and `b[p·BS + j·BJ]` for `j < NR`
            // (`(BJ, BS)` the packed B panel's strides, `(1, KC)` or `(NR_full, 1)`), inside the
            // panels (the caller's bound).
            unsafe {
                for _ in 0..kc {
                    let mut av = [$zero(); $mv];
                    unroll!(i in $is { av[i] = $loadu(a.add(i * $lanes)); });
                    unroll!(j in $js {
                        let bj = $set1(*b.add(j * $bj));
                        unroll!(i in $is { acc[i][j] = $fmadd(av[i], bj, acc[i][j]); });
                    });
                    // (Wrapping: after the last step, A read in place may point past its
                    // allocation, one column on; the pointer is not read there.)
                    a = a.wrapping_add(a_step);
                    b = b.add($bs);
                }
            }
            let va = $set1(alpha);
            if mr == MR && rs == 1 {
                // Every row of the tile (the columns `j < nr`): plain vector stores (AMD's
                // masked stores are microcoded).
                // SAFETY: column `j < nr` of the tile is `MR` contiguous elements at `c + j·cs`.
                unsafe {
                    if beta == 0.0 {
                        unroll!(j in $js {
                            if j < nr {
                                let cj = c.wrapping_offset(j as isize * cs);
                                unroll!(i in $is { $storeu(cj.add(i * $lanes), $mul(va, acc[i][j])); });
                            }
                        });
                    } else {
                        let vb = $set1(beta);
                        unroll!(j in $js {
                            if j < nr {
                                let cj = c.wrapping_offset(j as isize * cs);
                                unroll!(i in $is {
                                    let old = $loadu(cj.add(i * $lanes));
                                    $storeu(cj.add(i * $lanes), $fmadd(vb, old, $mul(va, acc[i][j])));
                                });
                            }
                        });
                    }
                }
            } else if rs == 1 {
                // An edge tile: masked stores of rows `< mr`, columns `< nr`.
                let mut mk = [$mask(0); $mv];
                unroll!(i in $is { mk[i] = $mask(mr.saturating_sub(i * $lanes).min($lanes)); });
                // SAFETY: columns `j < nr`, rows `i < mr` (masked) of the tile: elements of C.
                unsafe {
                    if beta == 0.0 {
                        unroll!(j in $js {
                            if j < nr {
                                let cj = c.wrapping_offset(j as isize * cs);
                                unroll!(i in $is { $mstore(cj.wrapping_add(i * $lanes), mk[i], $mul(va, acc[i][j])); });
                            }
                        });
                    } else {
                        let vb = $set1(beta);
                        unroll!(j in $js {
                            if j < nr {
                                let cj = c.wrapping_offset(j as isize * cs);
                                unroll!(i in $is {
                                    let old = $mload(cj.wrapping_add(i * $lanes), mk[i]);
                                    $mstore(cj.wrapping_add(i * $lanes), mk[i], $fmadd(vb, old, $mul(va, acc[i][j])));
                                });
                            }
                        });
                    }
                }
            } else {
                let mut buf = [0.0; MR * $nr];
                // SAFETY: column `j`, vector `i` of the tile is `buf[j·MR + i·lanes..][..lanes]`.
                unsafe {
                    unroll!(j in $js {
                        unroll!(i in $is { $storeu(buf.as_mut_ptr().add(j * MR + i * $lanes), acc[i][j]); });
                    });
                }
                // SAFETY: the tile's bounds (the caller's).
                unsafe { write_back(&buf, MR, c, rs, cs, mr, nr, alpha, beta) }
            }
        }
    };
}

/// A direct micro-kernel for small problems (see `Direct::kernel`): like `micro!`, but A is
/// read in place (rows contiguous, `a_cs` between columns), B through per-column pointers
/// with any strides. The tile is cut to the problem: one vector of rows when `mr ≤ lanes`,
/// plain loads and stores for the full vectors and a masked one only for a partial last
/// vector (a mask register per vector would not fit in AVX2's 16 with 12 accumulators, and
/// `vmaskmov` stores are slow on AMD cores), and 2, 4 or 6 columns of FMAs for `nr` rounded up
/// to even (a column past `nr` reads column 0; its sums are never stored).
macro_rules! direct_kernel {
    (
        $name:ident, $feat:literal, $t:ty, $lanes:literal, $mv:literal x $nr:literal, $is:tt, $js:tt,
        $set1:ident, $fmadd:ident, $mul:ident, $zero:ident, $loadu:ident, $storeu:ident, $mask:ident, $mload:ident,
        $mstore:ident
    ) => {
        /// # Safety
        /// As `Direct::kernel`; the CPU has the features.
        #[target_feature(enable = $feat)]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $name(
            k: usize,
            a: *const $t,
            a_cs: isize,
            b: *const $t,
            b_rs: isize,
            b_cs: isize,
            c: *mut $t,
            rs: isize,
            cs: isize,
            mr: usize,
            nr: usize,
            alpha: $t,
            beta: $t,
        ) {
            const MR: usize = $mv * $lanes;
            // The variants below cover `mr ≤ 2 vectors`, `nr ≤ 6`.
            const { assert!($mv == 2 && $nr == 6) };

            /// `MV` vectors of rows (the last one masked unless `FULL`) by `W` columns.
            ///
            /// # Safety
            /// As the kernel's; `mr` is `MV` vectors of rows (`MV·lanes` when `FULL`, else
            /// more than `(MV - 1)·lanes`), `W - 1 ≤ nr ≤ W`.
            #[target_feature(enable = $feat)]
            #[inline]
            #[allow(clippy::too_many_arguments)]
            unsafe fn tile<const MV: usize, const FULL: bool, const W: usize>(
                k: usize,
                a: *const $t,
                a_cs: isize,
                b: *const $t,
                b_rs: isize,
                b_cs: isize,
                c: *mut $t,
                rs: isize,
                cs: isize,
                mr: usize,
                nr: usize,
                alpha: $t,
                beta: $t,
            ) {
                // α and β go through memory: held in registers over the k loop they would take
                // two of the 16 and push an accumulator to the stack (a store and a reload in
                // its FMA chain every step).
                let scal = [alpha, beta];
                // Whether vector `i` is the partial (masked) last one.
                let part = |i: usize| !FULL && i + 1 == MV;
                let mk = $mask(if FULL { $lanes } else { mr - (MV - 1) * $lanes });
                let mut bp = [b; $nr];
                unroll!(j in $js { if j < nr { bp[j] = b.wrapping_offset(j as isize * b_cs); } });
                let mut acc = [[$zero(); $nr]; $mv];
                // SAFETY: step `p` reads rows `i < mr` of column `p` of A (the full vectors
                // are inside `mr`, the masked load touches no other element) and `B(p, j)`
                // for `j < nr` (or column 0): inside the operands.
                unsafe {
                    let mut ap = a;
                    for p in 0..k as isize {
                        let mut av = [$zero(); $mv];
                        unroll!(i in $is {
                            if i < MV {
                                let q = ap.wrapping_add(i * $lanes);
                                av[i] = if part(i) { $mload(q, mk) } else { $loadu(q) };
                            }
                        });
                        unroll!(j in $js {
                            if j < W {
                                let bj = $set1(*bp[j].offset(p * b_rs));
                                unroll!(i in $is { if i < MV { acc[i][j] = $fmadd(av[i], bj, acc[i][j]); } });
                            }
                        });
                        ap = ap.wrapping_offset(a_cs);
                    }
                }
                // SAFETY: reads of a live local.
                let (alpha, beta) = unsafe { (core::ptr::read_volatile(&scal[0]), core::ptr::read_volatile(&scal[1])) };
                let va = $set1(alpha);
                if rs == 1 {
                    // SAFETY: columns `j < nr` of the tile, rows `i < mr` (the last vector
                    // masked unless full): elements of C.
                    unsafe {
                        let vb = $set1(beta);
                        unroll!(j in $js {
                            if j < W && j < nr {
                                let cj = c.wrapping_offset(j as isize * cs);
                                unroll!(i in $is {
                                    if i < MV {
                                        let q = cj.wrapping_add(i * $lanes);
                                        let mut x = $mul(va, acc[i][j]);
                                        if beta != 0.0 {
                                            let old = if part(i) { $mload(q, mk) } else { $loadu(q) };
                                            x = $fmadd(vb, old, x);
                                        }
                                        if part(i) { $mstore(q, mk, x) } else { $storeu(q, x) }
                                    }
                                });
                            }
                        });
                    }
                } else {
                    let mut buf = [0.0; MR * $nr];
                    // SAFETY: column `j`, vector `i` of the tile is `buf[j·MR + i·lanes..][..lanes]`.
                    unsafe {
                        unroll!(j in $js {
                            unroll!(i in $is { if i < MV && j < W { $storeu(buf.as_mut_ptr().add(j * MR + i * $lanes), acc[i][j]); } });
                        });
                    }
                    // SAFETY: the tile's bounds (the caller's).
                    unsafe { write_back(&buf, MR, c, rs, cs, mr, nr, alpha, beta) }
                }
            }

            let one = mr <= $lanes;
            let full = mr % $lanes == 0;
            // SAFETY: the caller's bounds (`mr ≤ MR`, `nr ≤ NR`); the variant matches `mr`
            // and `nr`.
            unsafe {
                macro_rules! go {
                    ($w:literal) => {
                        match (one, full) {
                            (true, true) => tile::<1, true, $w>(k, a, a_cs, b, b_rs, b_cs, c, rs, cs, mr, nr, alpha, beta),
                            (true, false) => tile::<1, false, $w>(k, a, a_cs, b, b_rs, b_cs, c, rs, cs, mr, nr, alpha, beta),
                            (false, true) => tile::<2, true, $w>(k, a, a_cs, b, b_rs, b_cs, c, rs, cs, mr, nr, alpha, beta),
                            (false, false) => tile::<2, false, $w>(k, a, a_cs, b, b_rs, b_cs, c, rs, cs, mr, nr, alpha, beta),
                        }
                    };
                }
                match nr {
                    0..=2 => go!(2),
                    3..=4 => go!(4),
                    _ => go!(6),
                }
            }
        }
    };
}

/// Masked loads and stores per level and type: a mask of the first `n` lanes; a load that
/// reads only those lanes (others zero) and a store that writes only those.
macro_rules! masked_avx512 {
    ($mask:ident, $mload:ident, $mstore:ident, $t:ty, $v:ty, $m:ty, $load:ident, $store:ident) => {
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        #[inline]
        fn $mask(n: usize) -> $m {
            ((1u32 << n) - 1) as $m
        }
        /// # Safety
        /// The lanes of the mask are readable at `p`.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        #[inline]
        unsafe fn $mload(p: *const $t, m: $m) -> $v {
            // SAFETY: the caller's; masked-off lanes are not accessed.
            unsafe { $load(m, p) }
        }
        /// # Safety
        /// The lanes of the mask are writable at `p`.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        #[inline]
        unsafe fn $mstore(p: *mut $t, m: $m, v: $v) {
            // SAFETY: the caller's; masked-off lanes are not accessed.
            unsafe { $store(p, m, v) }
        }
    };
}

masked_avx512!(mask16, mload16_ps, mstore16_ps, f32, __m512, __mmask16, _mm512_maskz_loadu_ps, _mm512_mask_storeu_ps);
masked_avx512!(mask8, mload8_pd, mstore8_pd, f64, __m512d, __mmask8, _mm512_maskz_loadu_pd, _mm512_mask_storeu_pd);

/// Sign-bit masks for AVX2's `maskload`/`maskstore`: lanes `< n` set.
static AVX2_MASK: [i64; 8] = [-1, -1, -1, -1, 0, 0, 0, 0];

/// The mask of 32-bit lanes `< n` (all 8 for `n ≥ 8`).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mask8x32(n: usize) -> __m256i {
    let i = 8 - n.min(8);
    // SAFETY: `i ≤ 8`: 8 i32 lanes starting at i32 index `i` of the 16 in the table.
    unsafe { _mm256_loadu_si256(AVX2_MASK.as_ptr().cast::<i32>().add(i).cast()) }
}

/// The mask of 64-bit lanes `< n` (all 4 for `n ≥ 4`).
#[target_feature(enable = "avx2,fma")]
#[inline]
fn mask4x64(n: usize) -> __m256i {
    let i = 4 - n.min(4);
    // SAFETY: `i ≤ 4`: 4 i64 lanes starting at index `i` of the 8 in the table.
    unsafe { _mm256_loadu_si256(AVX2_MASK.as_ptr().add(i).cast()) }
}

/// # Safety
/// The masked lanes are readable at `p`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn mload8x32(p: *const f32, m: __m256i) -> __m256 {
    // SAFETY: the caller's; masked-off lanes are not accessed.
    unsafe { _mm256_maskload_ps(p, m) }
}

/// # Safety
/// The masked lanes are writable at `p`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn mstore8x32(p: *mut f32, m: __m256i, v: __m256) {
    // SAFETY: the caller's; masked-off lanes are not accessed.
    unsafe { _mm256_maskstore_ps(p, m, v) }
}

/// # Safety
/// The masked lanes are readable at `p`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn mload4x64(p: *const f64, m: __m256i) -> __m256d {
    // SAFETY: the caller's; masked-off lanes are not accessed.
    unsafe { _mm256_maskload_pd(p, m) }
}

/// # Safety
/// The masked lanes are writable at `p`.
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn mstore4x64(p: *mut f64, m: __m256i, v: __m256d) {
    // SAFETY: the caller's; masked-off lanes are not accessed.
    unsafe { _mm256_maskstore_pd(p, m, v) }
}

mod pack_avx2;
use pack_avx2::{pack_avx2_f32, pack_avx2_f64};
/// The micro-kernels and packers alone, for the bench crate (after `micro!`, which it uses).
pub(super) mod parts;

// The full tiles, and narrower ones over the same packed B panel for the last columns, so
// that an edge of 4 columns does not run 12. `/ (BJ, BS)`: the strides of the packed B panel
// along j and k: AVX-512 panels are column-major with a fixed column stride `KC` (packing a
// column-major B is then a copy, and the broadcasts' offsets are immediates), AVX2 ones
// `NR` elements per step of k.
micro!(micro_avx512_f32, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 12 / (384, 1), [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps, mask16, mload16_ps, mstore16_ps);
micro!(micro_avx512_f32_n8, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 8 / (384, 1), [0 1], [0 1 2 3 4 5 6 7],
    _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps, mask16, mload16_ps, mstore16_ps);
micro!(micro_avx512_f32_n4, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 4 / (384, 1), [0 1], [0 1 2 3],
    _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps, mask16, mload16_ps, mstore16_ps);
micro!(micro_avx512_f64, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 12 / (256, 1), [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd, mask8, mload8_pd, mstore8_pd);
// The full tiles over B read in place (a column-major B, column stride `bcs`): see
// `Kernel::micro_b`.
micro!(micro_b_avx512_f32, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 12 / (bcs, 1) with bcs, [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps, mask16, mload16_ps, mstore16_ps);
micro!(micro_b_avx512_f64, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 12 / (bcs, 1) with bcs, [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd, mask8, mload8_pd, mstore8_pd);
micro!(micro_avx512_f64_n8, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 8 / (256, 1), [0 1], [0 1 2 3 4 5 6 7],
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd, mask8, mload8_pd, mstore8_pd);
micro!(micro_avx512_f64_n4, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 4 / (256, 1), [0 1], [0 1 2 3],
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd, mask8, mload8_pd, mstore8_pd);
micro!(micro_avx2_f32, "avx2,fma", f32, 8, 2 x 6 / (1, 6), [0 1], [0 1 2 3 4 5],
    _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_setzero_ps, mask8x32, mload8x32, mstore8x32);
micro!(micro_avx2_f32_n3, "avx2,fma", f32, 8, 2 x 3 / (1, 6), [0 1], [0 1 2],
    _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_setzero_ps, mask8x32, mload8x32, mstore8x32);
micro!(micro_avx2_f64, "avx2,fma", f64, 4, 2 x 6 / (1, 6), [0 1], [0 1 2 3 4 5],
    _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_mul_pd, _mm256_setzero_pd, mask4x64, mload4x64, mstore4x64);
micro!(micro_avx2_f64_n3, "avx2,fma", f64, 4, 2 x 3 / (1, 6), [0 1], [0 1 2],
    _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_mul_pd, _mm256_setzero_pd, mask4x64, mload4x64, mstore4x64);

direct_kernel!(direct_avx512_f32, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps, _mm512_loadu_ps, _mm512_storeu_ps, mask16, mload16_ps,
    mstore16_ps);
direct_kernel!(direct_avx512_f64, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd, _mm512_loadu_pd, _mm512_storeu_pd, mask8, mload8_pd,
    mstore8_pd);
direct_kernel!(direct_avx2_f32, "avx2,fma", f32, 8, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm256_set1_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_setzero_ps, _mm256_loadu_ps, _mm256_storeu_ps, mask8x32, mload8x32,
    mstore8x32);
direct_kernel!(direct_avx2_f64, "avx2,fma", f64, 4, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm256_set1_pd, _mm256_fmadd_pd, _mm256_mul_pd, _mm256_setzero_pd, _mm256_loadu_pd, _mm256_storeu_pd, mask4x64, mload4x64,
    mstore4x64);

/// The 16×16 register transpose of AVX-512 f32: `r[i]` lane `j` becomes `r[j]` lane `i`
/// (unpacks within 128-bit lanes, then two rounds of 128-bit lane shuffles).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
#[inline]
fn transpose16_ps(r: &mut [__m512; 16]) {
    let mut t = [_mm512_setzero_ps(); 16];
    unroll!(i in [0 1 2 3 4 5 6 7] {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    });
    // `u[4i + q]`, 128-bit lane `l`: column `4l + q` of rows `4i..4i + 4`.
    let mut u = [_mm512_setzero_ps(); 16];
    unroll!(i in [0 1 2 3] {
        let (t0, t1) = (_mm512_castps_pd(t[4 * i]), _mm512_castps_pd(t[4 * i + 1]));
        let (t2, t3) = (_mm512_castps_pd(t[4 * i + 2]), _mm512_castps_pd(t[4 * i + 3]));
        u[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
        u[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
        u[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
        u[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
    });
    unroll!(q in [0 1 2 3] {
        let v = _mm512_shuffle_f32x4::<0x88>(u[q], u[4 + q]);
        let w = _mm512_shuffle_f32x4::<0xDD>(u[q], u[4 + q]);
        let v2 = _mm512_shuffle_f32x4::<0x88>(u[8 + q], u[12 + q]);
        let w2 = _mm512_shuffle_f32x4::<0xDD>(u[8 + q], u[12 + q]);
        r[q] = _mm512_shuffle_f32x4::<0x88>(v, v2);
        r[8 + q] = _mm512_shuffle_f32x4::<0xDD>(v, v2);
        r[4 + q] = _mm512_shuffle_f32x4::<0x88>(w, w2);
        r[12 + q] = _mm512_shuffle_f32x4::<0xDD>(w, w2);
    });
}

/// The 8×8 register transpose of AVX-512 f64 (as [`transpose16_ps`], one unpack round).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
#[inline]
fn transpose8_pd(r: &mut [__m512d; 8]) {
    // `t[2i + q]`, 128-bit lane `l`: column `2l + q` of rows `2i, 2i + 1`.
    let mut t = [_mm512_setzero_pd(); 8];
    unroll!(i in [0 1 2 3] {
        t[2 * i] = _mm512_unpacklo_pd(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_pd(r[2 * i], r[2 * i + 1]);
    });
    unroll!(q in [0 1] {
        let v = _mm512_shuffle_f64x2::<0x88>(t[q], t[2 + q]);
        let w = _mm512_shuffle_f64x2::<0xDD>(t[q], t[2 + q]);
        let v2 = _mm512_shuffle_f64x2::<0x88>(t[4 + q], t[6 + q]);
        let w2 = _mm512_shuffle_f64x2::<0xDD>(t[4 + q], t[6 + q]);
        r[q] = _mm512_shuffle_f64x2::<0x88>(v, v2);
        r[4 + q] = _mm512_shuffle_f64x2::<0xDD>(v, v2);
        r[2 + q] = _mm512_shuffle_f64x2::<0x88>(w, w2);
        r[6 + q] = _mm512_shuffle_f64x2::<0xDD>(w, w2);
    });
}

/// An AVX-512 packer with the contract of `driver::pack` (at most 4 vectors per panel
/// width): masked vector copies when the block is contiguous along the panel (`s_i = 1`),
/// register transposes of `lanes × lanes` blocks when it is contiguous along k (`s_p = 1`,
/// a column-major B or a row-major A), the generic gather otherwise. Masked-off lanes of a
/// load are zeros, which pads the last panel; masked-off lanes of a store are not written.
macro_rules! pack_avx512 {
    ($name:ident, $t:ty, $v:ty, $lanes:literal, $ls:tt, $mask:ident, $mload:ident, $mstore:ident, $zero:ident, $transpose:ident) => {
        /// # Safety
        /// As `driver::pack`, with `w ≤ 4·lanes`; the CPU has the features.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        unsafe fn $name(w: usize, dst: *mut $t, src: *const $t, s_i: isize, s_p: isize, len: usize, kc: usize) {
            debug_assert!(w <= 4 * $lanes);
            if s_i != 1 && s_p != 1 {
                // SAFETY: the caller's.
                return unsafe { pack(w, dst, src, s_i, s_p, len, kc) };
            }
            let chunks = w.div_ceil($lanes);
            let mut i0 = 0;
            while i0 < len {
                let rows = w.min(len - i0);
                // SAFETY: panel `i0 / w` of `dst` (`w·kc` elements) and rows `i0..i0 + rows`
                // of the block; the masks keep every access to rows `< rows`, columns `< kc`
                // of the source and to the panel's `w` columns of `kc` rows in `dst`.
                unsafe {
                    let d = dst.add(i0 * kc);
                    let s = src.offset(i0 as isize * s_i);
                    if s_i == 1 {
                        let mut lm = [$mask(0); 4];
                        let mut sm = [$mask(0); 4];
                        for ch in 0..chunks {
                            lm[ch] = $mask(rows.saturating_sub(ch * $lanes).min($lanes));
                            sm[ch] = $mask((w - ch * $lanes).min($lanes));
                        }
                        for p in 0..kc {
                            let sp = s.offset(p as isize * s_p);
                            let dp = d.add(p * w);
                            for ch in 0..chunks {
                                $mstore(dp.add(ch * $lanes), sm[ch], $mload(sp.add(ch * $lanes), lm[ch]));
                            }
                        }
                    } else {
                        for ch in 0..chunks {
                            let ic = ch * $lanes;
                            let ni = rows.saturating_sub(ic).min($lanes);
                            let sm = $mask((w - ic).min($lanes));
                            let mut p0 = 0;
                            while p0 < kc {
                                let np = (kc - p0).min($lanes);
                                let lm = $mask(np);
                                let mut r: [$v; $lanes] = [$zero(); $lanes];
                                unroll!(i in $ls {
                                    if i < ni {
                                        r[i] = $mload(s.offset((ic + i) as isize * s_i).add(p0), lm);
                                    }
                                });
                                $transpose(&mut r);
                                unroll!(q in $ls {
                                    if q < np {
                                        $mstore(d.add((p0 + q) * w + ic), sm, r[q]);
                                    }
                                });
                                p0 += $lanes;
                            }
                        }
                    }
                }
                i0 += w;
            }
        }
    };
}

pack_avx512!(pack_avx512_f32, f32, __m512, 16, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15], mask16, mload16_ps, mstore16_ps,
    _mm512_setzero_ps, transpose16_ps);
pack_avx512!(pack_avx512_f64, f64, __m512d, 8, [0 1 2 3 4 5 6 7], mask8, mload8_pd, mstore8_pd, _mm512_setzero_pd, transpose8_pd);

/// The B packer of the AVX-512 kernels: panels of `NR` columns, column `j` of a panel at
/// `j·KC` (`((KC,NR),NC/NR):((1,KC),NR·KC)` over `(k, j)`), zero columns past the block's
/// edge. A column-major B (`s_p = 1`) is copied with vector loads and stores; a row-major one
/// (`s_j = 1`) transposed in `lanes × lanes` register blocks; others gathered.
macro_rules! pack_b_avx512 {
    ($name:ident, $t:ty, $v:ty, $lanes:literal, $ls:tt, $nr:literal, $kcs:literal, $mask:ident, $mload:ident,
     $mstore:ident, $zero:ident, $transpose:ident) => {
        /// # Safety
        /// As `Kernel::pack_b` with `kc ≤ KC`; the CPU has the features.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        unsafe fn $name(dst: *mut $t, src: *const $t, s_j: isize, s_p: isize, len: usize, kc: usize) {
            debug_assert!(kc <= $kcs);
            let mut j0 = 0;
            while j0 < len {
                let cols = ($nr).min(len - j0);
                // SAFETY: panel `j0 / NR` of `dst` (`NR·KC` elements, of which columns `< NR`,
                // rows `< kc ≤ KC` are written) and columns `j0..j0 + cols`, rows `< kc` of the
                // block (the masks keep the loads inside them).
                unsafe {
                    let d = dst.add(j0 / $nr * ($nr * $kcs));
                    let s = src.offset(j0 as isize * s_j);
                    if s_p == 1 {
                        for j in 0..$nr {
                            let (sj, dj) = (s.offset(j as isize * s_j), d.add(j * $kcs));
                            let mut p = 0;
                            while p < kc {
                                let m = $mask((kc - p).min($lanes));
                                let v = if j < cols { $mload(sj.add(p), m) } else { $zero() };
                                $mstore(dj.add(p), m, v);
                                p += $lanes;
                            }
                        }
                    } else if s_j == 1 {
                        let mut jc = 0;
                        while jc < $nr {
                            let nj = cols.saturating_sub(jc).min($lanes);
                            let lm = $mask(nj);
                            let mut p0 = 0;
                            while p0 < kc {
                                let np = (kc - p0).min($lanes);
                                let sm = $mask(np);
                                let mut r: [$v; $lanes] = [$zero(); $lanes];
                                unroll!(q in $ls {
                                    if q < np {
                                        r[q] = $mload(s.offset((p0 + q) as isize * s_p).add(jc), lm);
                                    }
                                });
                                $transpose(&mut r);
                                unroll!(j in $ls {
                                    if jc + j < $nr {
                                        $mstore(d.add((jc + j) * $kcs + p0), sm, r[j]);
                                    }
                                });
                                p0 += $lanes;
                            }
                            jc += $lanes;
                        }
                    } else {
                        for j in 0..$nr {
                            for p in 0..kc {
                                *d.add(j * $kcs + p) =
                                    if j < cols { *s.offset(j as isize * s_j + p as isize * s_p) } else { 0.0 };
                            }
                        }
                    }
                }
                j0 += $nr;
            }
        }
    };
}

pack_b_avx512!(pack_b_avx512_f32, f32, __m512, 16, [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15], 12, 384, mask16, mload16_ps,
    mstore16_ps, _mm512_setzero_ps, transpose16_ps);
pack_b_avx512!(pack_b_avx512_f64, f64, __m512d, 8, [0 1 2 3 4 5 6 7], 12, 256, mask8, mload8_pd, mstore8_pd,
    _mm512_setzero_pd, transpose8_pd);

/// A kernel type per level and element type: the micro-kernel and its blocking.
macro_rules! kernel {
    ($k:ident, $t:ty, $plan:path, $micro:ident $(| $narrow:ident $nw:literal)*;
     $direct:ident $(; pack $pack:ident)? $(; pack_b $pack_b:ident)? $(; micro_b $micro_b:ident)?) => {
        struct $k;

        impl Kernel<$t> for $k {
            const PLAN: GemmBlocking = $plan;
            #[cfg(test)]
            const NARROW: &'static [usize] = &[$($nw),*];

            // SAFETY contract: `Kernel::micro`'s (the packed panels hold `kc` steps; C covers the tile).
            #[inline(always)]
            unsafe fn micro(
                kc: usize,
                a: *const $t,
                a_step: usize,
                b: *const $t,
                c: *mut $t,
                rs: isize,
                cs: isize,
                mr: usize,
                nr: usize,
                alpha: $t,
                beta: $t,
            ) {
                // SAFETY: the caller's bounds; this kernel runs only from the entries of its
                // level, which run only when the CPU has the features.
                unsafe {
                    // The narrowest kernel that covers the tile's columns (listed narrowest
                    // first).
                    $( if nr <= $nw { return $narrow(kc, a, a_step, b, c, rs, cs, mr, nr, alpha, beta); } )*
                    $micro(kc, a, a_step, b, c, rs, cs, mr, nr, alpha, beta)
                }
            }

            $(
            const MICRO_B: bool = true;

            // SAFETY contract: `Kernel::micro_b`'s (B's `kc × NR` block and C's tile are in bounds).
            #[inline(always)]
            unsafe fn micro_b(
                kc: usize,
                a: *const $t,
                a_step: usize,
                b: *const $t,
                bcs: usize,
                c: *mut $t,
                rs: isize,
                cs: isize,
                mr: usize,
                alpha: $t,
                beta: $t,
            ) {
                // SAFETY: the caller's bounds; runs only from the entries of its level.
                unsafe { $micro_b(kc, a, a_step, b, bcs, c, rs, cs, mr, <Self as Kernel<$t>>::NR, alpha, beta) }
            }
            )?

            $(
            // SAFETY contract: `Kernel::pack`'s (the panel's source and destination are in bounds).
            #[inline(always)]
            unsafe fn pack(w: usize, dst: *mut $t, src: *const $t, s_i: isize, s_p: isize, len: usize, kc: usize) {
                // SAFETY: the caller's bounds; runs only from the entries of its level.
                unsafe { $pack(w, dst, src, s_i, s_p, len, kc) }
            }
            )?

            $(


            // SAFETY contract: `Kernel::pack_b`'s (the panel's source and destination are in bounds).
            #[inline(always)]
            unsafe fn pack_b(dst: *mut $t, src: *const $t, s_j: isize, s_p: isize, len: usize, kc: usize) {
                // SAFETY: the caller's bounds (`kc ≤ KC`, the driver's blocks); as above.
                unsafe { $pack_b(dst, src, s_j, s_p, len, kc) }
            }
            )?
        }

        impl Direct<$t> for $k {
            const MR: usize = $plan.direct_mr;
            const NR: usize = $plan.direct_nr;

            // SAFETY contract: `Kernel::kernel`'s (packed panels of `kc` steps; C covers the tile).
            #[inline(always)]
            unsafe fn kernel(
                k: usize,
                a: *const $t,
                a_cs: isize,
                b: *const $t,
                b_rs: isize,
                b_cs: isize,
                c: *mut $t,
                rs: isize,
                cs: isize,
                mr: usize,
                nr: usize,
                alpha: $t,
                beta: $t,
            ) {
                // SAFETY: as above.
                unsafe { $direct(k, a, a_cs, b, b_rs, b_cs, c, rs, cs, mr, nr, alpha, beta) }
            }
        }
    };
}

kernel!(Avx512F32, f32, GEMM_AVX512_F32, micro_avx512_f32 | micro_avx512_f32_n4 4 | micro_avx512_f32_n8 8;
    direct_avx512_f32; pack pack_avx512_f32; pack_b pack_b_avx512_f32; micro_b micro_b_avx512_f32);
kernel!(Avx512F64, f64, GEMM_AVX512_F64, micro_avx512_f64 | micro_avx512_f64_n4 4 | micro_avx512_f64_n8 8;
    direct_avx512_f64; pack pack_avx512_f64; pack_b pack_b_avx512_f64; micro_b micro_b_avx512_f64);
// The AVX-512 B panels' column stride is `KC` (the `/ (384, 1)`, `/ (256, 1)` of the
// micro-kernels and the packers' `384`, `256` above).
const _: () = assert!(<Avx512F32 as Kernel<f32>>::KC == 384 && <Avx512F64 as Kernel<f64>>::KC == 256);

// AVX2 packs A and B with the same packer (`pack_b` defaults to `pack` with `NR` rows).
kernel!(Avx2F32, f32, GEMM_AVX2_F32, micro_avx2_f32 | micro_avx2_f32_n3 3; direct_avx2_f32; pack pack_avx2_f32);
kernel!(Avx2F64, f64, GEMM_AVX2_F64, micro_avx2_f64 | micro_avx2_f64_n3 3; direct_avx2_f64; pack pack_avx2_f64);

macro_rules! entry {
    ($name:ident, $feat:expr, $t:ty, $k:ty) => {
        /// # Safety
        /// [`gemm`](super::gemm)'s bounds for a normalized problem with `k ≥ 1`; the CPU has
        /// the level's features.
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $name(p: &Problem<$t>, small: bool) {
            // SAFETY: forwarded from the caller.
            unsafe { if small { direct::<$t, $k>(p) } else { blocked::<$t, $k>(p) } }
        }
    };
    ($name:ident, $task:ident, $feat:expr, $t:ty, $k:ty) => {
        entry!($name, $feat, $t, $k);

        /// # Safety
        /// [`task`](super::grid::task)'s contract with this level's kernel.
        #[cfg(feature = "rayon")]
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $task(p: &Problem<$t>, g: &super::grid::Shared<$t>, t: usize) {
            // SAFETY: forwarded from the caller.
            unsafe { super::grid::task::<$t, $k>(p, g, t) }
        }
    };
}

entry!(f32_avx512, f32_avx512_task, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, Avx512F32);
entry!(f64_avx512, f64_avx512_task, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, Avx512F64);
entry!(f32_avx2, f32_avx2_task, "avx2,fma", f32, Avx2F32);
entry!(f64_avx2, f64_avx2_task, "avx2,fma", f64, Avx2F64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::driver::assert_agrees;
    use layout_plan::Level as GemmLevel;

    #[test]
    fn kernels_run_the_plans_blocking() {
        fn direct<T, D: Direct<T>>() -> (usize, usize) {
            (D::MR, D::NR)
        }
        assert_agrees::<f32, Avx512F32>(GemmLevel::Avx512, direct::<f32, Avx512F32>());
        assert_agrees::<f64, Avx512F64>(GemmLevel::Avx512, direct::<f64, Avx512F64>());
        assert_agrees::<f32, Avx2F32>(GemmLevel::Avx2, direct::<f32, Avx2F32>());
        assert_agrees::<f64, Avx2F64>(GemmLevel::Avx2, direct::<f64, Avx2F64>());
    }
}
