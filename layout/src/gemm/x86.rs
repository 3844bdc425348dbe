//! x86_64 levels: AVX-512 and AVX2+FMA micro-kernels (straight-line, all accumulators in
//! registers) and one `#[target_feature]` entry per level and type into which the blocked
//! driver, the packing and the small-problem loop inline.

use super::driver::{Fused, Kernel, Problem, blocked, small, write_back};
use core::arch::x86_64::*;

/// Expands `$body` once per listed value, with `$v` bound to it (a `usize` constant), so that
/// indices into the accumulator arrays are constants and the arrays live in registers.
macro_rules! unroll {
    ($v:ident in [$($n:literal)*] $body:block) => {
        $( { let $v: usize = $n; $body } )*
    };
}

/// A micro-kernel `fn $name(kc, a, b, c, rs, cs, mr, nr, alpha, beta)` (see
/// `Kernel::micro`) of `$mv` vectors of `$lanes` rows by `$nr` columns: per step of k, `$mv`
/// loads of A, `$nr` broadcasts of B and `$mv·$nr` FMAs. A full tile with `rs == 1` is
/// written back with vector loads and stores, others through a buffer.
macro_rules! micro {
    (
        $name:ident, $feat:literal, $t:ty, $lanes:literal, $mv:literal x $nr:literal, $is:tt, $js:tt,
        $loadu:ident, $storeu:ident, $set1:ident, $fmadd:ident, $mul:ident, $zero:ident
    ) => {
        /// # Safety
        /// As `Kernel::micro`; the CPU has the features.
        #[target_feature(enable = $feat)]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $name(
            kc: usize,
            a: *const $t,
            b: *const $t,
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
            let (mut a, mut b) = (a, b);
            // SAFETY: step `p < kc` reads `a[p·MR..(p+1)·MR]` and `b[p·NR..(p+1)·NR]`, inside
            // the packed panels (the caller's bound).
            unsafe {
                for _ in 0..kc {
                    let mut av = [$zero(); $mv];
                    unroll!(i in $is { av[i] = $loadu(a.add(i * $lanes)); });
                    unroll!(j in $js {
                        let bj = $set1(*b.add(j));
                        unroll!(i in $is { acc[i][j] = $fmadd(av[i], bj, acc[i][j]); });
                    });
                    a = a.add(MR);
                    b = b.add($nr);
                }
            }
            let va = $set1(alpha);
            if mr == MR && nr == $nr && rs == 1 {
                // SAFETY: the full tile: column `j` is `MR` contiguous elements at `c + j·cs`.
                unsafe {
                    if beta == 0.0 {
                        unroll!(j in $js {
                            let cj = c.offset(j as isize * cs);
                            unroll!(i in $is { $storeu(cj.add(i * $lanes), $mul(va, acc[i][j])); });
                        });
                    } else {
                        let vb = $set1(beta);
                        unroll!(j in $js {
                            let cj = c.offset(j as isize * cs);
                            unroll!(i in $is {
                                let old = $loadu(cj.add(i * $lanes));
                                $storeu(cj.add(i * $lanes), $fmadd(vb, old, $mul(va, acc[i][j])));
                            });
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

micro!(micro_avx512_f32, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, 16, 2 x 12, [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_mul_ps, _mm512_setzero_ps);
micro!(micro_avx512_f64, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, 8, 2 x 12, [0 1], [0 1 2 3 4 5 6 7 8 9 10 11],
    _mm512_loadu_pd, _mm512_storeu_pd, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_mul_pd, _mm512_setzero_pd);
micro!(micro_avx2_f32, "avx2,fma", f32, 8, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_setzero_ps);
micro!(micro_avx2_f64, "avx2,fma", f64, 4, 2 x 6, [0 1], [0 1 2 3 4 5],
    _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_mul_pd, _mm256_setzero_pd);

/// A kernel type per level and element type: the micro-kernel and its blocking.
macro_rules! kernel {
    ($k:ident, $t:ty, $micro:ident, $mr:literal x $nr:literal, kc $kc:literal, mc $mc:literal, nc $nc:literal) => {
        struct $k;

        impl Kernel<$t> for $k {
            const MR: usize = $mr;
            const NR: usize = $nr;
            const KC: usize = $kc;
            const MC: usize = $mc;
            const NC: usize = $nc;

            #[inline(always)]
            unsafe fn micro(
                kc: usize,
                a: *const $t,
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
                unsafe { $micro(kc, a, b, c, rs, cs, mr, nr, alpha, beta) }
            }
        }
    };
}

kernel!(Avx512F32, f32, micro_avx512_f32, 32 x 12, kc 384, mc 384, nc 4080);
kernel!(Avx512F64, f64, micro_avx512_f64, 16 x 12, kc 256, mc 192, nc 4080);
kernel!(Avx2F32, f32, micro_avx2_f32, 16 x 6, kc 384, mc 192, nc 4080);
kernel!(Avx2F64, f64, micro_avx2_f64, 8 x 6, kc 256, mc 96, nc 4080);

macro_rules! entry {
    ($name:ident, $feat:expr, $t:ty, $k:ty) => {
        /// # Safety
        /// [`gemm`](super::gemm)'s bounds for a normalized problem with `k ≥ 1`; the CPU has
        /// the level's features.
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $name(p: &Problem<$t>, direct: bool) {
            // SAFETY: forwarded from the caller.
            unsafe { if direct { small::<$t, Fused>(p) } else { blocked::<$t, $k>(p) } }
        }
    };
}

entry!(f32_avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, Avx512F32);
entry!(f64_avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, Avx512F64);
entry!(f32_avx2, "avx2,fma", f32, Avx2F32);
entry!(f64_avx2, "avx2,fma", f64, Avx2F64);
