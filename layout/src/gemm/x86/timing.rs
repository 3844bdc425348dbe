//! The x86_64 side of [`crate::gemm::timing`]: the micro-kernels and packers of this level
//! timed on buffers allocated here.

use super::pack_avx2::pack_avx2_f32;
use super::*;
use crate::gemm::timing::{MicroTiming, PackTiming, micro_buffers};
use crate::kernels::{Level, level};

// Two tile shapes the engine does not use, for comparison with its AVX2 16×6 and 8×6.
micro!(t_f32_3x4, "avx2,fma", f32, 8, 3 x 4 / (1, 4), [0 1 2], [0 1 2 3],
    _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_mul_ps, _mm256_setzero_ps, mask8x32, mload8x32, mstore8x32);
micro!(t_f64_3x4, "avx2,fma", f64, 4, 3 x 4 / (1, 4), [0 1 2], [0 1 2 3],
    _mm256_loadu_pd, _mm256_storeu_pd, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_mul_pd, _mm256_setzero_pd, mask4x64, mload4x64, mstore4x64);

/// A `micro!` kernel (see `Kernel::micro`).
type Micro<T> = unsafe fn(usize, *const T, usize, *const T, *mut T, isize, isize, usize, usize, T, T);

/// Times `f`, a full-tile kernel of `mr × nr`, on `tiles` tiles of depth `kc`: the best of
/// `rounds` rounds of 10 passes.
///
/// # Safety
/// `f` is a `micro!` kernel of this module's parent whose full tile is `mr × nr` and whose
/// packed B panel has the strides `(BJ, BS)` of [`micro_buffers`]; the CPU has its features.
unsafe fn time<T: Copy + Default + From<f32>>(
    kernel: &'static str,
    f: Micro<T>,
    (mr, nr): (usize, usize),
    kc: usize,
    tiles: usize,
    rounds: usize,
) -> MicroTiming {
    let (a_len, b_len, c_len) = micro_buffers(mr, nr, kc, tiles);
    let a: Vec<T> = (0..a_len).map(|x| T::from((x % 7) as f32 * 0.1)).collect();
    let b: Vec<T> = (0..b_len).map(|x| T::from((x % 5) as f32 * 0.1)).collect();
    let mut c = vec![T::default(); c_len];
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        for _ in 0..10 {
            for i in 0..tiles {
                // SAFETY: the features are the caller's; panel `i` of A is the `mr·kc`
                // elements at `i·mr·kc` (step `mr`), inside `a`; B's reads lie in `b`
                // (`micro_buffers`); tile `i` of C is `mr` rows (contiguous) by `nr` columns
                // (stride `mr`) at `i·mr·nr`, inside `c`, a full tile; β = 0 does not read C.
                unsafe {
                    f(
                        kc,
                        a.as_ptr().add(i * mr * kc),
                        mr,
                        b.as_ptr(),
                        c.as_mut_ptr().add(i * mr * nr),
                        1,
                        mr as isize,
                        mr,
                        nr,
                        T::from(1.0),
                        T::from(0.0),
                    )
                };
            }
            std::hint::black_box(&mut c);
        }
        best = best.min(t.elapsed().as_secs_f64() / 10.0);
    }
    MicroTiming { kernel, mr, nr, kc, tiles, seconds: best }
}

/// See [`crate::gemm::timing::micro_kernels`].
pub(in crate::gemm) fn micro_kernels(kc: usize, tiles: usize, rounds: usize) -> Vec<MicroTiming> {
    let l = level();
    let mut out = Vec::new();
    // SAFETY (every call below): each kernel runs only at a level whose features the CPU
    // has (`level()` never exceeds what it detected); its tile and B strides are those
    // given (`micro!` invocations in the parent: AVX-512 `/ (384, 1)` and `/ (256, 1)`,
    // AVX2 `/ (1, 6)`, the comparison shapes `/ (1, 4)`).
    unsafe {
        if l == Level::Avx512 {
            out.push(time::<f32>("avx512 f32 32x12", micro_avx512_f32, (32, 12), kc, tiles, rounds));
            out.push(time::<f64>("avx512 f64 16x12", micro_avx512_f64, (16, 12), kc, tiles, rounds));
        }
        if l >= Level::Avx2 {
            out.push(time::<f32>("avx2 f32 16x6", micro_avx2_f32, (16, 6), kc, tiles, rounds));
            out.push(time::<f32>("avx2 f32 24x4", t_f32_3x4, (24, 4), kc, tiles, rounds));
            out.push(time::<f64>("avx2 f64 8x6", micro_avx2_f64, (8, 6), kc, tiles, rounds));
            out.push(time::<f64>("avx2 f64 12x4", t_f64_3x4, (12, 4), kc, tiles, rounds));
        }
    }
    out
}

/// The AVX2 packer, compiled with its features.
///
/// # Safety
/// As [`pack`] with `s_p = 1`; the CPU has AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
unsafe fn simd(w: usize, d: *mut f32, s: *const f32, s_i: isize, len: usize, kc: usize) {
    // SAFETY: the caller's.
    unsafe { pack_avx2_f32(w, d, s, s_i, 1, len, kc) }
}

/// The generic packer, compiled with the same features.
///
/// # Safety
/// As [`pack`] with `s_p = 1`; the CPU has AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
unsafe fn generic(w: usize, d: *mut f32, s: *const f32, s_i: isize, len: usize, kc: usize) {
    // SAFETY: the caller's.
    unsafe { pack(w, d, s, s_i, 1, len, kc) }
}

/// See [`crate::gemm::timing::packers`].
pub(in crate::gemm) fn packers(rounds: usize) -> Vec<PackTiming> {
    if level() < Level::Avx2 {
        return Vec::new();
    }
    let (len, kc) = (264usize, 256usize);
    let mut out = Vec::new();
    for (w, panels) in [(6usize, "B panels, w = 6"), (16, "A panels, w = 16")] {
        let src: Vec<f32> = (0..len * kc).map(|x| x as f32).collect();
        let mut dst = vec![0f32; len.next_multiple_of(w) * kc];
        let mut best = [f64::MAX; 2];
        for _ in 0..rounds {
            for (v, b) in best.iter_mut().enumerate() {
                let t = std::time::Instant::now();
                for _ in 0..20 {
                    // SAFETY: the CPU has AVX2 and FMA (the level); `src` holds `len` rows
                    // of `kc` (row stride `kc`, step 1 along k), `dst` `len` rounded up to
                    // `w` times `kc` elements.
                    unsafe {
                        if v == 0 {
                            simd(w, dst.as_mut_ptr(), src.as_ptr(), kc as isize, len, kc)
                        } else {
                            generic(w, dst.as_mut_ptr(), src.as_ptr(), kc as isize, len, kc)
                        }
                    }
                    std::hint::black_box(&mut dst);
                }
                *b = b.min(t.elapsed().as_secs_f64() / 20.0);
            }
        }
        out.push(PackTiming { panels, w, len, kc, simd_seconds: best[0], generic_seconds: best[1] });
    }
    out
}
