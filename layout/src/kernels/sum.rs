//! `Σ s` over a contiguous run of elements at a given SIMD level: explicit vector kernels for
//! `f32` and `f64` (eight independent vector accumulators, a masked or scalar tail), partial
//! sums the compiler vectorizes for the other element types. Floats are added in an
//! unspecified association order.

use core::iter::Sum;
use core::ops::Add;

use super::Level;

/// Lanes of the partial sums of [`lanes`]: independent accumulators the compiler keeps in
/// vector registers.
const LANES: usize = 16;

/// `Σ s` with `LANES` partial sums.
#[inline(always)]
fn lanes<T: Copy + Add<Output = T> + Sum<T>>(s: &[T]) -> T {
    let zero: T = core::iter::empty().sum();
    let mut acc = [zero; LANES];
    let mut chunks = s.chunks_exact(LANES);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = *a + x;
        }
    }
    let mut width = LANES / 2;
    while width > 0 {
        for i in 0..width {
            acc[i] = acc[i] + acc[i + width];
        }
        width /= 2;
    }
    chunks.remainder().iter().fold(acc[0], |a, &x| a + x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lanes_avx512<T: Copy + Add<Output = T> + Sum<T>>(s: &[T]) -> T {
    lanes(s)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lanes_avx2<T: Copy + Add<Output = T> + Sum<T>>(s: &[T]) -> T {
    lanes(s)
}

/// `Σ s` for any element type, with partial sums compiled for `level`.
///
/// # Safety
/// The CPU supports `level` (it does not exceed [`level()`](super::level)).
#[inline]
pub(crate) unsafe fn generic<T: Copy + Add<Output = T> + Sum<T>>(level: Level, s: &[T]) -> T {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX-512F.
        Level::Avx512 => unsafe { lanes_avx512(s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX2.
        Level::Avx2 => unsafe { lanes_avx2(s) },
        _ => lanes(s),
    }
}

/// `Σ s` of `f32` with the vector kernel of `level`.
///
/// # Safety
/// The CPU supports `level` (it does not exceed [`level()`](super::level)).
#[inline]
pub(crate) unsafe fn f32s(level: Level, s: &[f32]) -> f32 {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX-512F.
        Level::Avx512 => unsafe { x86::f32_avx512(s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX2.
        Level::Avx2 => unsafe { x86::f32_avx2(s) },
        _ => lanes(s),
    }
}

/// `Σ s` of `f64` with the vector kernel of `level`.
///
/// # Safety
/// The CPU supports `level` (it does not exceed [`level()`](super::level)).
#[inline]
pub(crate) unsafe fn f64s(level: Level, s: &[f64]) -> f64 {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX-512F.
        Level::Avx512 => unsafe { x86::f64_avx512(s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the caller guarantees the CPU has AVX2.
        Level::Avx2 => unsafe { x86::f64_avx2(s) },
        _ => lanes(s),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// Vector accumulators of the main loops: enough independent add chains to cover the
    /// latency of a vector add at two adds per cycle.
    const ACC: usize = 8;

    /// The AVX-512 kernels read runs of more bytes than this (more than L2 holds on the
    /// machines measured) with 256-bit loads: from beyond L2 the width does not bound the
    /// rate, and Zen 4 (AVX-512 in 256-bit halves) streams line-aligned 512-bit loads slower
    /// than 256-bit ones.
    const STREAM_BYTES: usize = 1 << 20;

    /// Adds the whole groups of `ACC` vectors of `$w` lanes from element `$i` of `$p` on
    /// (`$n` elements) into the accumulators `$acc` (`$add`, `$load`), advancing `$i`.
    macro_rules! groups {
        ($acc:ident, $p:ident, $i:ident, $n:ident, $w:expr, $add:ident, $load:ident) => {
            while $i + ACC * $w <= $n {
                for (k, a) in $acc.iter_mut().enumerate() {
                    // SAFETY: `i + k·W + W <= i + ACC·W <= n`: the lanes lie in `s`.
                    *a = $add(*a, unsafe { $load($p.add($i + k * $w)) });
                }
                $i += ACC * $w;
            }
        };
    }

    /// The AVX-512 `Σ s` of one element type: a masked head up to a line boundary, `ACC` zmm
    /// accumulators (ymm ones first for a run of more than [`STREAM_BYTES`]), one more over
    /// whole vectors, a masked tail.
    macro_rules! sum_avx512 {
        ($name:ident, $t:ty, $w:literal, $mask:ty, $zero:ident, $add:ident, $load:ident, $mload:ident,
         $reduce:ident, $zero2:ident, $add2:ident, $load2:ident, $zext:ident) => {
            #[doc = concat!("`Σ s` of `", stringify!($t), "` (see `sum_avx512!`).")]
            #[target_feature(enable = "avx512f")]
            pub(super) fn $name(s: &[$t]) -> $t {
                const W: usize = $w;
                let (n, p) = (s.len(), s.as_ptr());
                let mut acc = [$zero(); ACC];
                // The elements before the first 64-byte line boundary, masked: the loop's loads
                // are then whole lines (a load across two lines costs both).
                let mut i = ((p as usize).wrapping_neg() % 64 / core::mem::size_of::<$t>()).min(n);
                if i > 0 {
                    let mask = ((1u32 << i) - 1) as $mask;
                    // SAFETY: lanes `0..i` with `i < W` (the bytes to the next line, fewer than
                    // 64, over the element size: a line holds `W` elements), `i <= n`: in `s`;
                    // masked-off lanes are not accessed.
                    acc[2] = $add(acc[2], unsafe { $mload(mask, p) });
                }
                if (n - i) * core::mem::size_of::<$t>() > STREAM_BYTES {
                    // A run from beyond L2: 256-bit loads (`ACC` ymm accumulators).
                    let mut half = [$zero2(); ACC];
                    groups!(half, p, i, n, W / 2, $add2, $load2);
                    for (a, h) in acc.iter_mut().zip(half) {
                        *a = $add(*a, $zext(h));
                    }
                }
                groups!(acc, p, i, n, W, $add, $load);
                while i + W <= n {
                    // SAFETY: `i + W <= n`: the lanes lie in `s`.
                    acc[0] = $add(acc[0], unsafe { $load(p.add(i)) });
                    i += W;
                }
                if i < n {
                    let mask = ((1u32 << (n - i)) - 1) as $mask;
                    // SAFETY: `n - i < W` lanes are loaded, `i..n` in `s`; masked-off lanes are
                    // not accessed (they cannot fault).
                    acc[1] = $add(acc[1], unsafe { $mload(mask, p.add(i)) });
                }
                let v = $add(
                    $add($add(acc[0], acc[1]), $add(acc[2], acc[3])),
                    $add($add(acc[4], acc[5]), $add(acc[6], acc[7])),
                );
                $reduce(v)
            }
        };
    }

    sum_avx512!(
        f32_avx512,
        f32,
        16,
        __mmask16,
        _mm512_setzero_ps,
        _mm512_add_ps,
        _mm512_loadu_ps,
        _mm512_maskz_loadu_ps,
        _mm512_reduce_add_ps,
        _mm256_setzero_ps,
        _mm256_add_ps,
        _mm256_loadu_ps,
        _mm512_zextps256_ps512
    );
    sum_avx512!(
        f64_avx512,
        f64,
        8,
        __mmask8,
        _mm512_setzero_pd,
        _mm512_add_pd,
        _mm512_loadu_pd,
        _mm512_maskz_loadu_pd,
        _mm512_reduce_add_pd,
        _mm256_setzero_pd,
        _mm256_add_pd,
        _mm256_loadu_pd,
        _mm512_zextpd256_pd512
    );

    /// `Σ s`: `ACC` ymm accumulators of 8 lanes, one more over whole vectors, a scalar tail.
    #[target_feature(enable = "avx2")]
    pub(super) fn f32_avx2(s: &[f32]) -> f32 {
        const W: usize = 8;
        let (n, p) = (s.len(), s.as_ptr());
        let mut acc = [_mm256_setzero_ps(); ACC];
        let mut i = 0;
        groups!(acc, p, i, n, W, _mm256_add_ps, _mm256_loadu_ps);
        while i + W <= n {
            // SAFETY: `i + W <= n`: the lanes lie in `s`.
            acc[0] = _mm256_add_ps(acc[0], unsafe { _mm256_loadu_ps(p.add(i)) });
            i += W;
        }
        let v = _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3])),
            _mm256_add_ps(_mm256_add_ps(acc[4], acc[5]), _mm256_add_ps(acc[6], acc[7])),
        );
        let x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        let x = _mm_add_ps(x, _mm_movehl_ps(x, x));
        let x = _mm_add_ss(x, _mm_movehdup_ps(x));
        s[i..].iter().fold(_mm_cvtss_f32(x), |a, &y| a + y)
    }

    /// `Σ s`: `ACC` ymm accumulators of 4 lanes, one more over whole vectors, a scalar tail.
    #[target_feature(enable = "avx2")]
    pub(super) fn f64_avx2(s: &[f64]) -> f64 {
        const W: usize = 4;
        let (n, p) = (s.len(), s.as_ptr());
        let mut acc = [_mm256_setzero_pd(); ACC];
        let mut i = 0;
        groups!(acc, p, i, n, W, _mm256_add_pd, _mm256_loadu_pd);
        while i + W <= n {
            // SAFETY: `i + W <= n`: the lanes lie in `s`.
            acc[0] = _mm256_add_pd(acc[0], unsafe { _mm256_loadu_pd(p.add(i)) });
            i += W;
        }
        let v = _mm256_add_pd(
            _mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3])),
            _mm256_add_pd(_mm256_add_pd(acc[4], acc[5]), _mm256_add_pd(acc[6], acc[7])),
        );
        let x = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
        let x = _mm_add_sd(x, _mm_unpackhi_pd(x, x));
        s[i..].iter().fold(_mm_cvtsd_f64(x), |a, &y| a + y)
    }
}
