//! AVX2 packing of the A and B panels (`((W,len/W),kc):((1,W·kc),W)` over `(row, p)`, with
//! `W` = MR for A and NR for B): when the source is contiguous along the panel (a
//! column-major A), vector copies with the step of k outermost (each column of the source,
//! pages apart, is read once for all the panels); when it is contiguous along k, register
//! transposes (8×8 for f32, 4×4 for f64) of groups of 8 (4) rows by 8 (4) steps of k, a group
//! of 6 (B's NR) stored by 128- and 64-bit stores (AMD's masked stores are microcoded), other
//! narrower groups by masked stores; otherwise the generic [`pack`].

use super::Transpose;
use crate::gemm::GemmScalar;
use crate::gemm::driver::pack;
use crate::isa::Avx2;
use core::arch::x86_64::*;

/// The 8×8 register transpose of AVX2 f32: `r[i]` lane `j` becomes lane `i` of the result's `j`.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose8x8_ps(r: [__m256; 8]) -> [__m256; 8] {
    let t0 = _mm256_unpacklo_ps(r[0], r[1]);
    let t1 = _mm256_unpackhi_ps(r[0], r[1]);
    let t2 = _mm256_unpacklo_ps(r[2], r[3]);
    let t3 = _mm256_unpackhi_ps(r[2], r[3]);
    let t4 = _mm256_unpacklo_ps(r[4], r[5]);
    let t5 = _mm256_unpackhi_ps(r[4], r[5]);
    let t6 = _mm256_unpacklo_ps(r[6], r[7]);
    let t7 = _mm256_unpackhi_ps(r[6], r[7]);
    let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
    let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
    let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
    let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
    let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
    let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
    let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
    let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
    [
        _mm256_permute2f128_ps::<0x20>(u0, u4),
        _mm256_permute2f128_ps::<0x20>(u1, u5),
        _mm256_permute2f128_ps::<0x20>(u2, u6),
        _mm256_permute2f128_ps::<0x20>(u3, u7),
        _mm256_permute2f128_ps::<0x31>(u0, u4),
        _mm256_permute2f128_ps::<0x31>(u1, u5),
        _mm256_permute2f128_ps::<0x31>(u2, u6),
        _mm256_permute2f128_ps::<0x31>(u3, u7),
    ]
}

/// The 4×4 register transpose of AVX2 f64.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose4x4_pd(r: [__m256d; 4]) -> [__m256d; 4] {
    let t0 = _mm256_unpacklo_pd(r[0], r[1]);
    let t1 = _mm256_unpackhi_pd(r[0], r[1]);
    let t2 = _mm256_unpacklo_pd(r[2], r[3]);
    let t3 = _mm256_unpackhi_pd(r[2], r[3]);
    [
        _mm256_permute2f128_pd::<0x20>(t0, t2),
        _mm256_permute2f128_pd::<0x20>(t1, t3),
        _mm256_permute2f128_pd::<0x31>(t0, t2),
        _mm256_permute2f128_pd::<0x31>(t1, t3),
    ]
}

/// Stores lanes 0..6 of `v` at `p` (a row of a B panel, `NR = 6`): a 128-bit and a 64-bit
/// store, not a masked store (microcoded on AMD cores).
///
/// # Safety
/// 6 elements are writable at `p`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store6_ps(p: *mut f32, v: __m256) {
    // SAFETY: the caller's; `_mm_storeu_ps` and `_mm_storel_epi64` take unaligned addresses.
    unsafe {
        _mm_storeu_ps(p, _mm256_castps256_ps128(v));
        _mm_storel_epi64(p.add(4).cast::<__m128i>(), _mm_castps_si128(_mm256_extractf128_ps::<1>(v)));
    }
}

/// Stores lanes 0..2 of `v` at `p` (the last 2 of a B panel's 6 f64 columns): one 128-bit store.
///
/// # Safety
/// 2 elements are writable at `p`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store2_pd(p: *mut f64, v: __m256d) {
    // SAFETY: the caller's; `_mm_storeu_pd` takes an unaligned address.
    unsafe { _mm_storeu_pd(p, _mm256_castpd256_pd128(v)) }
}

impl Transpose<f32> for Avx2 {
    type Block = [__m256; 8];
    // SAFETY contract: the level's features (the callers').
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zeros() -> Self::Block {
        [_mm256_setzero_ps(); 8]
    }
    // SAFETY contract: the level's features (the callers'); no memory access.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn transpose(r: &mut Self::Block) {
        *r = transpose8x8_ps(*r);
    }
}

impl Transpose<f64> for Avx2 {
    type Block = [__m256d; 4];
    // SAFETY contract: the level's features (the callers').
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn zeros() -> Self::Block {
        [_mm256_setzero_pd(); 4]
    }
    // SAFETY contract: the level's features (the callers'); no memory access.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn transpose(r: &mut Self::Block) {
        *r = transpose4x4_pd(*r);
    }
}

/// The partial row of a B panel (`NR = 6`) that AVX2 stores without a masked store: the
/// last `PART` lanes of the panel's width.
pub(super) trait Part<T>: Transpose<T> {
    /// Lanes of the partial group (6 f32, 2 f64).
    const PART: usize;
    /// Stores lanes `0..PART` of `v` at `p`.
    /// # Safety
    /// AVX2; `PART` elements writable at `p`.
    unsafe fn store_part(p: *mut T, v: Self::V);
}

impl Part<f32> for Avx2 {
    const PART: usize = 6;
    // SAFETY contract: AVX2; `PART` elements writable at `p`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_part(p: *mut f32, v: __m256) {
        // SAFETY: the caller's.
        unsafe { store6_ps(p, v) }
    }
}

impl Part<f64> for Avx2 {
    const PART: usize = 2;
    // SAFETY contract: AVX2; `PART` elements writable at `p`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store_part(p: *mut f64, v: __m256d) {
        // SAFETY: the caller's.
        unsafe { store2_pd(p, v) }
    }
}

/// Packs a `len × kc` block (element `(i, p)` at `src + i·s_i + p·s_p`) into panels of `w`
/// rows, as [`pack`].
///
/// # Safety
/// As [`pack`]; the CPU has AVX2 and FMA.
#[inline(always)]
pub(super) unsafe fn pack_avx2<T: GemmScalar, I: Part<T>>(
    w: usize,
    dst: *mut T,
    src: *const T,
    s_i: isize,
    s_p: isize,
    len: usize,
    kc: usize,
) {
    let l = I::LANES;
    debug_assert!(l <= 8);
    if s_i == 1 && w.is_multiple_of(l) {
        // Contiguous along the panel (a column-major A): step of k outermost, so that each
        // column of the source (one page when it is 4 KiB apart from the next) is read once
        // for all the panels, rather than once per panel.
        let full = len / w;
        let rest = len - full * w;
        for p in 0..kc {
            // SAFETY: column `p < kc`, rows `< len` of the block, and row `p` of each panel
            // `t ≤ len / w` of `dst` (`w·kc` elements at `t·w·kc`): the caller's bounds; the
            // CPU has the features.
            unsafe {
                let sp = src.offset(p as isize * s_p);
                for t in 0..full {
                    let (sv, dv) = (sp.add(t * w), dst.add(t * w * kc + p * w));
                    let mut v = 0;
                    while v < w {
                        I::store(dv.add(v), I::load(sv.add(v)));
                        v += l;
                    }
                }
                if rest > 0 {
                    let (sv, dv) = (sp.add(full * w), dst.add(full * w * kc + p * w));
                    for i in 0..w {
                        *dv.add(i) = if i < rest { *sv.add(i) } else { T::ZERO };
                    }
                }
            }
        }
        return;
    }
    if s_p != 1 || s_i == 1 {
        // SAFETY: the caller's bounds.
        return unsafe { pack(w, dst, src, s_i, s_p, len, kc) };
    }
    let mut i0 = 0;
    while i0 < len {
        let rows = w.min(len - i0);
        // SAFETY: panel `i0 / w` of `dst` (`w·kc` elements at `i0·kc`) and rows `i0..i0 + rows`
        // of the block, columns `< kc` (the caller's bounds): the loads read rows
        // `g + i < rows`, the (masked) stores write lanes `< lanes` of row `p` of the panel,
        // `g + lanes ≤ w`; the CPU has the features.
        unsafe {
            let d = dst.add(i0 * kc);
            let s = src.offset(i0 as isize * s_i);
            let mut g = 0;
            while g < w {
                let lanes = l.min(w - g);
                let have = rows.saturating_sub(g).min(lanes);
                let m = I::mask(lanes);
                let mut p0 = 0;
                while p0 + l <= kc {
                    let mut r = I::zeros();
                    let rv = r.as_mut();
                    unroll!(i in [0 1 2 3 4 5 6 7] {
                        if i < l && i < have {
                            rv[i] = I::load(s.offset((g + i) as isize * s_i).add(p0));
                        }
                    });
                    I::transpose(&mut r);
                    let o = r.as_ref();
                    if lanes == l {
                        unroll!(q in [0 1 2 3 4 5 6 7] { if q < l { I::store(d.add((p0 + q) * w + g), o[q]); } });
                    } else if lanes == I::PART {
                        unroll!(q in [0 1 2 3 4 5 6 7] { if q < l { I::store_part(d.add((p0 + q) * w + g), o[q]); } });
                    } else {
                        unroll!(q in [0 1 2 3 4 5 6 7] { if q < l { I::store_masked(d.add((p0 + q) * w + g), m, o[q]); } });
                    }
                    p0 += l;
                }
                for p in p0..kc {
                    for i in 0..lanes {
                        *d.add(p * w + g + i) =
                            if i < have { *s.offset((g + i) as isize * s_i + p as isize) } else { T::ZERO };
                    }
                }
                g += l;
            }
        }
        i0 += w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::x86::{pack_avx2_f32, pack_avx2_f64};

    /// The AVX2 packers write what the generic packer writes, for A (`w` = MR) and B
    /// (`w` = NR = 6) panels, every shape of edge, and both source orders.
    #[test]
    fn agrees_with_the_generic_packer() {
        if !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
            return;
        }
        for (w32, w64) in [(16usize, 8usize), (6, 6)] {
            for len in [1usize, 3, 6, 7, 8, 13, 16, 17, 33] {
                for kc in [1usize, 3, 4, 7, 8, 9, 17, 40] {
                    for row_major in [true, false] {
                        let (s_i, s_p) = if row_major { (kc as isize + 3, 1) } else { (1, len as isize + 2) };
                        let n = (len + 3) * (kc + 3);
                        let src32: Vec<f32> = (0..n).map(|x| x as f32 + 0.5).collect();
                        let src64: Vec<f64> = (0..n).map(|x| x as f64 - 0.25).collect();
                        let out = len.next_multiple_of(w32.max(w64)) * kc;
                        let (mut a, mut b) = (vec![f32::NAN; out], vec![f32::NAN; out]);
                        let (mut c, mut d) = (vec![f64::NAN; out], vec![f64::NAN; out]);
                        // SAFETY: AVX2 and FMA were detected; the sources hold every `i·s_i + p·s_p`
                        // for `i < len`, `p < kc`; the destinations hold `len` rounded up to `w`
                        // times `kc` elements.
                        unsafe {
                            pack_avx2_f32(w32, a.as_mut_ptr(), src32.as_ptr(), s_i, s_p, len, kc);
                            pack(w32, b.as_mut_ptr(), src32.as_ptr(), s_i, s_p, len, kc);
                            pack_avx2_f64(w64, c.as_mut_ptr(), src64.as_ptr(), s_i, s_p, len, kc);
                            pack(w64, d.as_mut_ptr(), src64.as_ptr(), s_i, s_p, len, kc);
                        }
                        let used32 = len.next_multiple_of(w32) * kc;
                        let used64 = len.next_multiple_of(w64) * kc;
                        assert_eq!(a[..used32], b[..used32], "f32 w {w32} len {len} kc {kc} row-major {row_major}");
                        assert_eq!(c[..used64], d[..used64], "f64 w {w64} len {len} kc {kc} row-major {row_major}");
                        assert!(a[used32..].iter().all(|x| x.is_nan()), "f32 wrote past the panels");
                        assert!(c[used64..].iter().all(|x| x.is_nan()), "f64 wrote past the panels");
                    }
                }
            }
        }
    }
}
