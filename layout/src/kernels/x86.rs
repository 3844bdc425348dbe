//! x86_64 levels: the register tiles, and one `#[target_feature]` entry per level and width
//! into which the generic drivers inline.

use super::Program;
use super::driver::{ScalarTile, Tile, drive};
use super::nest::Plan;
use core::arch::x86_64::*;

/// AVX-512 16×16 tiles of 4-byte words.
pub(super) struct Avx512W4;
/// AVX-512 8×8 tiles of 8-byte words.
pub(super) struct Avx512W8;
/// AVX2 8×8 tiles of 4-byte words.
pub(super) struct Avx2W4;
/// AVX2 4×4 tiles of 8-byte words.
pub(super) struct Avx2W8;

macro_rules! tile_impl {
    ($k:ty, $w:ty, $f:ty, $t:literal, $align:literal, $tile:ident, $tile_nt:ident) => {
        impl Tile<$w> for $k {
            const T: usize = $t;
            const NT_ALIGN: usize = $align;

            #[inline(always)]
            unsafe fn tile(s: *const $w, d: *mut $w, sld: isize, dld: isize) {
                // SAFETY: the caller's tile bound; the entries calling this enable the feature
                // (they run only at a level the CPU has).
                unsafe { $tile(s.cast::<$f>(), d.cast::<$f>(), sld, dld) }
            }

            #[inline(always)]
            unsafe fn tile_nt(s: *const $w, d: *mut $w, sld: isize, dld: isize) {
                // SAFETY: the caller's tile and alignment bounds; feature as above.
                unsafe { $tile_nt(s.cast::<$f>(), d.cast::<$f>(), sld, dld) }
            }

            #[inline(always)]
            fn fence() {
                // SAFETY: `sfence` is SSE, part of x86_64's baseline.
                unsafe { _mm_sfence() }
            }
        }
    };
}

tile_impl!(Avx512W4, u32, f32, 16, 64, tile16_f32, tile16_f32_nt);
tile_impl!(Avx512W8, u64, f64, 8, 64, tile8_f64, tile8_f64_nt);
tile_impl!(Avx2W4, u32, f32, 8, 32, tile8_f32_avx2, tile8_f32_avx2_nt);
tile_impl!(Avx2W8, u64, f64, 4, 32, tile4_f64_avx2, tile4_f64_avx2_nt);

macro_rules! entry {
    ($(#[$doc:meta])* $name:ident, $feat:literal, $w:ty, $k:ty) => {
        $(#[$doc])*
        /// # Safety
        /// The CPU has the features; the program's contract ([`super::run`]) holds.
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $name(src: *const $w, dst: *mut $w, p: &Program<'_>) {
            if let Some(plan) = Plan::new(p) {
                // SAFETY: forwarded from the caller.
                unsafe { drive::<$w, $k>(src, dst, &plan) }
            }
        }
    };
}

entry!(avx2_w1, "avx2,fma", u8, ScalarTile);
entry!(avx2_w2, "avx2,fma", u16, ScalarTile);
entry!(avx2_w4, "avx2,fma", u32, Avx2W4);
entry!(avx2_w8, "avx2,fma", u64, Avx2W8);
entry!(avx512_w1, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u8, ScalarTile);
entry!(avx512_w2, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u16, ScalarTile);
entry!(avx512_w4, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u32, Avx512W4);
entry!(avx512_w8, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u64, Avx512W8);

// The straight-line tiles below are generated (one statement per register operation) and
// must stay straight: written with arrays and index arithmetic they spilled.

/// Transposes one 16×16 tile of 4-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 16`) is readable and `d + j·dld + i` writable.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn tile16_f32(s: *const f32, d: *mut f32, sld: isize, dld: isize) {
    // SAFETY: the sixteen loads of sixteen and stores of sixteen lie in the tile the caller
    // vouches for.
    unsafe {
        let a0 = _mm512_loadu_ps(s);
        let a1 = _mm512_loadu_ps(s.offset(sld));
        let a2 = _mm512_loadu_ps(s.offset(2 * sld));
        let a3 = _mm512_loadu_ps(s.offset(3 * sld));
        let a4 = _mm512_loadu_ps(s.offset(4 * sld));
        let a5 = _mm512_loadu_ps(s.offset(5 * sld));
        let a6 = _mm512_loadu_ps(s.offset(6 * sld));
        let a7 = _mm512_loadu_ps(s.offset(7 * sld));
        let a8 = _mm512_loadu_ps(s.offset(8 * sld));
        let a9 = _mm512_loadu_ps(s.offset(9 * sld));
        let a10 = _mm512_loadu_ps(s.offset(10 * sld));
        let a11 = _mm512_loadu_ps(s.offset(11 * sld));
        let a12 = _mm512_loadu_ps(s.offset(12 * sld));
        let a13 = _mm512_loadu_ps(s.offset(13 * sld));
        let a14 = _mm512_loadu_ps(s.offset(14 * sld));
        let a15 = _mm512_loadu_ps(s.offset(15 * sld));
        let t0 = _mm512_unpacklo_ps(a0, a1);
        let t1 = _mm512_unpackhi_ps(a0, a1);
        let t2 = _mm512_unpacklo_ps(a2, a3);
        let t3 = _mm512_unpackhi_ps(a2, a3);
        let t4 = _mm512_unpacklo_ps(a4, a5);
        let t5 = _mm512_unpackhi_ps(a4, a5);
        let t6 = _mm512_unpacklo_ps(a6, a7);
        let t7 = _mm512_unpackhi_ps(a6, a7);
        let t8 = _mm512_unpacklo_ps(a8, a9);
        let t9 = _mm512_unpackhi_ps(a8, a9);
        let t10 = _mm512_unpacklo_ps(a10, a11);
        let t11 = _mm512_unpackhi_ps(a10, a11);
        let t12 = _mm512_unpacklo_ps(a12, a13);
        let t13 = _mm512_unpackhi_ps(a12, a13);
        let t14 = _mm512_unpacklo_ps(a14, a15);
        let t15 = _mm512_unpackhi_ps(a14, a15);
        let u0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
        let u1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
        let u2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
        let u3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
        let u4 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t4), _mm512_castps_pd(t6)));
        let u5 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t4), _mm512_castps_pd(t6)));
        let u6 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t5), _mm512_castps_pd(t7)));
        let u7 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t5), _mm512_castps_pd(t7)));
        let u8 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t8), _mm512_castps_pd(t10)));
        let u9 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t8), _mm512_castps_pd(t10)));
        let u10 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t9), _mm512_castps_pd(t11)));
        let u11 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t9), _mm512_castps_pd(t11)));
        let u12 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t12), _mm512_castps_pd(t14)));
        let u13 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t12), _mm512_castps_pd(t14)));
        let u14 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t13), _mm512_castps_pd(t15)));
        let u15 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t13), _mm512_castps_pd(t15)));
        let v0 = _mm512_shuffle_f32x4::<0x88>(u0, u4);
        let w0 = _mm512_shuffle_f32x4::<0xDD>(u0, u4);
        let x0 = _mm512_shuffle_f32x4::<0x88>(u8, u12);
        let y0 = _mm512_shuffle_f32x4::<0xDD>(u8, u12);
        let v1 = _mm512_shuffle_f32x4::<0x88>(u1, u5);
        let w1 = _mm512_shuffle_f32x4::<0xDD>(u1, u5);
        let x1 = _mm512_shuffle_f32x4::<0x88>(u9, u13);
        let y1 = _mm512_shuffle_f32x4::<0xDD>(u9, u13);
        let v2 = _mm512_shuffle_f32x4::<0x88>(u2, u6);
        let w2 = _mm512_shuffle_f32x4::<0xDD>(u2, u6);
        let x2 = _mm512_shuffle_f32x4::<0x88>(u10, u14);
        let y2 = _mm512_shuffle_f32x4::<0xDD>(u10, u14);
        let v3 = _mm512_shuffle_f32x4::<0x88>(u3, u7);
        let w3 = _mm512_shuffle_f32x4::<0xDD>(u3, u7);
        let x3 = _mm512_shuffle_f32x4::<0x88>(u11, u15);
        let y3 = _mm512_shuffle_f32x4::<0xDD>(u11, u15);
        _mm512_storeu_ps(d, _mm512_shuffle_f32x4::<0x88>(v0, x0));
        _mm512_storeu_ps(d.offset(4 * dld), _mm512_shuffle_f32x4::<0x88>(w0, y0));
        _mm512_storeu_ps(d.offset(8 * dld), _mm512_shuffle_f32x4::<0xDD>(v0, x0));
        _mm512_storeu_ps(d.offset(12 * dld), _mm512_shuffle_f32x4::<0xDD>(w0, y0));
        _mm512_storeu_ps(d.offset(dld), _mm512_shuffle_f32x4::<0x88>(v1, x1));
        _mm512_storeu_ps(d.offset(5 * dld), _mm512_shuffle_f32x4::<0x88>(w1, y1));
        _mm512_storeu_ps(d.offset(9 * dld), _mm512_shuffle_f32x4::<0xDD>(v1, x1));
        _mm512_storeu_ps(d.offset(13 * dld), _mm512_shuffle_f32x4::<0xDD>(w1, y1));
        _mm512_storeu_ps(d.offset(2 * dld), _mm512_shuffle_f32x4::<0x88>(v2, x2));
        _mm512_storeu_ps(d.offset(6 * dld), _mm512_shuffle_f32x4::<0x88>(w2, y2));
        _mm512_storeu_ps(d.offset(10 * dld), _mm512_shuffle_f32x4::<0xDD>(v2, x2));
        _mm512_storeu_ps(d.offset(14 * dld), _mm512_shuffle_f32x4::<0xDD>(w2, y2));
        _mm512_storeu_ps(d.offset(3 * dld), _mm512_shuffle_f32x4::<0x88>(v3, x3));
        _mm512_storeu_ps(d.offset(7 * dld), _mm512_shuffle_f32x4::<0x88>(w3, y3));
        _mm512_storeu_ps(d.offset(11 * dld), _mm512_shuffle_f32x4::<0xDD>(v3, x3));
        _mm512_storeu_ps(d.offset(15 * dld), _mm512_shuffle_f32x4::<0xDD>(w3, y3));
    }
}

/// Transposes one 16×16 tile of 4-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 16`) is readable and `d + j·dld + i` writable, with every `d + j·dld` 64-byte aligned.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn tile16_f32_nt(s: *const f32, d: *mut f32, sld: isize, dld: isize) {
    // SAFETY: the sixteen loads of sixteen and stores of sixteen lie in the tile the caller
    // vouches for; the streaming stores' alignment is the caller's.
    unsafe {
        let a0 = _mm512_loadu_ps(s);
        let a1 = _mm512_loadu_ps(s.offset(sld));
        let a2 = _mm512_loadu_ps(s.offset(2 * sld));
        let a3 = _mm512_loadu_ps(s.offset(3 * sld));
        let a4 = _mm512_loadu_ps(s.offset(4 * sld));
        let a5 = _mm512_loadu_ps(s.offset(5 * sld));
        let a6 = _mm512_loadu_ps(s.offset(6 * sld));
        let a7 = _mm512_loadu_ps(s.offset(7 * sld));
        let a8 = _mm512_loadu_ps(s.offset(8 * sld));
        let a9 = _mm512_loadu_ps(s.offset(9 * sld));
        let a10 = _mm512_loadu_ps(s.offset(10 * sld));
        let a11 = _mm512_loadu_ps(s.offset(11 * sld));
        let a12 = _mm512_loadu_ps(s.offset(12 * sld));
        let a13 = _mm512_loadu_ps(s.offset(13 * sld));
        let a14 = _mm512_loadu_ps(s.offset(14 * sld));
        let a15 = _mm512_loadu_ps(s.offset(15 * sld));
        let t0 = _mm512_unpacklo_ps(a0, a1);
        let t1 = _mm512_unpackhi_ps(a0, a1);
        let t2 = _mm512_unpacklo_ps(a2, a3);
        let t3 = _mm512_unpackhi_ps(a2, a3);
        let t4 = _mm512_unpacklo_ps(a4, a5);
        let t5 = _mm512_unpackhi_ps(a4, a5);
        let t6 = _mm512_unpacklo_ps(a6, a7);
        let t7 = _mm512_unpackhi_ps(a6, a7);
        let t8 = _mm512_unpacklo_ps(a8, a9);
        let t9 = _mm512_unpackhi_ps(a8, a9);
        let t10 = _mm512_unpacklo_ps(a10, a11);
        let t11 = _mm512_unpackhi_ps(a10, a11);
        let t12 = _mm512_unpacklo_ps(a12, a13);
        let t13 = _mm512_unpackhi_ps(a12, a13);
        let t14 = _mm512_unpacklo_ps(a14, a15);
        let t15 = _mm512_unpackhi_ps(a14, a15);
        let u0 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
        let u1 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
        let u2 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
        let u3 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
        let u4 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t4), _mm512_castps_pd(t6)));
        let u5 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t4), _mm512_castps_pd(t6)));
        let u6 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t5), _mm512_castps_pd(t7)));
        let u7 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t5), _mm512_castps_pd(t7)));
        let u8 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t8), _mm512_castps_pd(t10)));
        let u9 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t8), _mm512_castps_pd(t10)));
        let u10 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t9), _mm512_castps_pd(t11)));
        let u11 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t9), _mm512_castps_pd(t11)));
        let u12 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t12), _mm512_castps_pd(t14)));
        let u13 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t12), _mm512_castps_pd(t14)));
        let u14 = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t13), _mm512_castps_pd(t15)));
        let u15 = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t13), _mm512_castps_pd(t15)));
        let v0 = _mm512_shuffle_f32x4::<0x88>(u0, u4);
        let w0 = _mm512_shuffle_f32x4::<0xDD>(u0, u4);
        let x0 = _mm512_shuffle_f32x4::<0x88>(u8, u12);
        let y0 = _mm512_shuffle_f32x4::<0xDD>(u8, u12);
        let v1 = _mm512_shuffle_f32x4::<0x88>(u1, u5);
        let w1 = _mm512_shuffle_f32x4::<0xDD>(u1, u5);
        let x1 = _mm512_shuffle_f32x4::<0x88>(u9, u13);
        let y1 = _mm512_shuffle_f32x4::<0xDD>(u9, u13);
        let v2 = _mm512_shuffle_f32x4::<0x88>(u2, u6);
        let w2 = _mm512_shuffle_f32x4::<0xDD>(u2, u6);
        let x2 = _mm512_shuffle_f32x4::<0x88>(u10, u14);
        let y2 = _mm512_shuffle_f32x4::<0xDD>(u10, u14);
        let v3 = _mm512_shuffle_f32x4::<0x88>(u3, u7);
        let w3 = _mm512_shuffle_f32x4::<0xDD>(u3, u7);
        let x3 = _mm512_shuffle_f32x4::<0x88>(u11, u15);
        let y3 = _mm512_shuffle_f32x4::<0xDD>(u11, u15);
        _mm512_stream_ps(d, _mm512_shuffle_f32x4::<0x88>(v0, x0));
        _mm512_stream_ps(d.offset(4 * dld), _mm512_shuffle_f32x4::<0x88>(w0, y0));
        _mm512_stream_ps(d.offset(8 * dld), _mm512_shuffle_f32x4::<0xDD>(v0, x0));
        _mm512_stream_ps(d.offset(12 * dld), _mm512_shuffle_f32x4::<0xDD>(w0, y0));
        _mm512_stream_ps(d.offset(dld), _mm512_shuffle_f32x4::<0x88>(v1, x1));
        _mm512_stream_ps(d.offset(5 * dld), _mm512_shuffle_f32x4::<0x88>(w1, y1));
        _mm512_stream_ps(d.offset(9 * dld), _mm512_shuffle_f32x4::<0xDD>(v1, x1));
        _mm512_stream_ps(d.offset(13 * dld), _mm512_shuffle_f32x4::<0xDD>(w1, y1));
        _mm512_stream_ps(d.offset(2 * dld), _mm512_shuffle_f32x4::<0x88>(v2, x2));
        _mm512_stream_ps(d.offset(6 * dld), _mm512_shuffle_f32x4::<0x88>(w2, y2));
        _mm512_stream_ps(d.offset(10 * dld), _mm512_shuffle_f32x4::<0xDD>(v2, x2));
        _mm512_stream_ps(d.offset(14 * dld), _mm512_shuffle_f32x4::<0xDD>(w2, y2));
        _mm512_stream_ps(d.offset(3 * dld), _mm512_shuffle_f32x4::<0x88>(v3, x3));
        _mm512_stream_ps(d.offset(7 * dld), _mm512_shuffle_f32x4::<0x88>(w3, y3));
        _mm512_stream_ps(d.offset(11 * dld), _mm512_shuffle_f32x4::<0xDD>(v3, x3));
        _mm512_stream_ps(d.offset(15 * dld), _mm512_shuffle_f32x4::<0xDD>(w3, y3));
    }
}

/// Transposes one 8×8 tile of 8-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 8`) is readable and `d + j·dld + i` writable.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn tile8_f64(s: *const f64, d: *mut f64, sld: isize, dld: isize) {
    // SAFETY: the eight loads of eight and stores of eight lie in the tile the caller
    // vouches for.
    unsafe {
        let a0 = _mm512_loadu_pd(s);
        let a1 = _mm512_loadu_pd(s.offset(sld));
        let a2 = _mm512_loadu_pd(s.offset(2 * sld));
        let a3 = _mm512_loadu_pd(s.offset(3 * sld));
        let a4 = _mm512_loadu_pd(s.offset(4 * sld));
        let a5 = _mm512_loadu_pd(s.offset(5 * sld));
        let a6 = _mm512_loadu_pd(s.offset(6 * sld));
        let a7 = _mm512_loadu_pd(s.offset(7 * sld));
        let t0 = _mm512_unpacklo_pd(a0, a1);
        let t1 = _mm512_unpackhi_pd(a0, a1);
        let t2 = _mm512_unpacklo_pd(a2, a3);
        let t3 = _mm512_unpackhi_pd(a2, a3);
        let t4 = _mm512_unpacklo_pd(a4, a5);
        let t5 = _mm512_unpackhi_pd(a4, a5);
        let t6 = _mm512_unpacklo_pd(a6, a7);
        let t7 = _mm512_unpackhi_pd(a6, a7);
        let v0 = _mm512_shuffle_f64x2::<0x88>(t0, t2);
        let w0 = _mm512_shuffle_f64x2::<0xDD>(t0, t2);
        let x0 = _mm512_shuffle_f64x2::<0x88>(t4, t6);
        let y0 = _mm512_shuffle_f64x2::<0xDD>(t4, t6);
        let v1 = _mm512_shuffle_f64x2::<0x88>(t1, t3);
        let w1 = _mm512_shuffle_f64x2::<0xDD>(t1, t3);
        let x1 = _mm512_shuffle_f64x2::<0x88>(t5, t7);
        let y1 = _mm512_shuffle_f64x2::<0xDD>(t5, t7);
        _mm512_storeu_pd(d, _mm512_shuffle_f64x2::<0x88>(v0, x0));
        _mm512_storeu_pd(d.offset(2 * dld), _mm512_shuffle_f64x2::<0x88>(w0, y0));
        _mm512_storeu_pd(d.offset(4 * dld), _mm512_shuffle_f64x2::<0xDD>(v0, x0));
        _mm512_storeu_pd(d.offset(6 * dld), _mm512_shuffle_f64x2::<0xDD>(w0, y0));
        _mm512_storeu_pd(d.offset(dld), _mm512_shuffle_f64x2::<0x88>(v1, x1));
        _mm512_storeu_pd(d.offset(3 * dld), _mm512_shuffle_f64x2::<0x88>(w1, y1));
        _mm512_storeu_pd(d.offset(5 * dld), _mm512_shuffle_f64x2::<0xDD>(v1, x1));
        _mm512_storeu_pd(d.offset(7 * dld), _mm512_shuffle_f64x2::<0xDD>(w1, y1));
    }
}

/// Transposes one 8×8 tile of 8-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 8`) is readable and `d + j·dld + i` writable, with every `d + j·dld` 64-byte aligned.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn tile8_f64_nt(s: *const f64, d: *mut f64, sld: isize, dld: isize) {
    // SAFETY: the eight loads of eight and stores of eight lie in the tile the caller
    // vouches for; the streaming stores' alignment is the caller's.
    unsafe {
        let a0 = _mm512_loadu_pd(s);
        let a1 = _mm512_loadu_pd(s.offset(sld));
        let a2 = _mm512_loadu_pd(s.offset(2 * sld));
        let a3 = _mm512_loadu_pd(s.offset(3 * sld));
        let a4 = _mm512_loadu_pd(s.offset(4 * sld));
        let a5 = _mm512_loadu_pd(s.offset(5 * sld));
        let a6 = _mm512_loadu_pd(s.offset(6 * sld));
        let a7 = _mm512_loadu_pd(s.offset(7 * sld));
        let t0 = _mm512_unpacklo_pd(a0, a1);
        let t1 = _mm512_unpackhi_pd(a0, a1);
        let t2 = _mm512_unpacklo_pd(a2, a3);
        let t3 = _mm512_unpackhi_pd(a2, a3);
        let t4 = _mm512_unpacklo_pd(a4, a5);
        let t5 = _mm512_unpackhi_pd(a4, a5);
        let t6 = _mm512_unpacklo_pd(a6, a7);
        let t7 = _mm512_unpackhi_pd(a6, a7);
        let v0 = _mm512_shuffle_f64x2::<0x88>(t0, t2);
        let w0 = _mm512_shuffle_f64x2::<0xDD>(t0, t2);
        let x0 = _mm512_shuffle_f64x2::<0x88>(t4, t6);
        let y0 = _mm512_shuffle_f64x2::<0xDD>(t4, t6);
        let v1 = _mm512_shuffle_f64x2::<0x88>(t1, t3);
        let w1 = _mm512_shuffle_f64x2::<0xDD>(t1, t3);
        let x1 = _mm512_shuffle_f64x2::<0x88>(t5, t7);
        let y1 = _mm512_shuffle_f64x2::<0xDD>(t5, t7);
        _mm512_stream_pd(d, _mm512_shuffle_f64x2::<0x88>(v0, x0));
        _mm512_stream_pd(d.offset(2 * dld), _mm512_shuffle_f64x2::<0x88>(w0, y0));
        _mm512_stream_pd(d.offset(4 * dld), _mm512_shuffle_f64x2::<0xDD>(v0, x0));
        _mm512_stream_pd(d.offset(6 * dld), _mm512_shuffle_f64x2::<0xDD>(w0, y0));
        _mm512_stream_pd(d.offset(dld), _mm512_shuffle_f64x2::<0x88>(v1, x1));
        _mm512_stream_pd(d.offset(3 * dld), _mm512_shuffle_f64x2::<0x88>(w1, y1));
        _mm512_stream_pd(d.offset(5 * dld), _mm512_shuffle_f64x2::<0xDD>(v1, x1));
        _mm512_stream_pd(d.offset(7 * dld), _mm512_shuffle_f64x2::<0xDD>(w1, y1));
    }
}

/// Transposes one 8×8 tile of 4-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 8`) is readable and `d + j·dld + i` writable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile8_f32_avx2(s: *const f32, d: *mut f32, sld: isize, dld: isize) {
    // SAFETY: the eight loads of eight and stores of eight lie in the tile the caller
    // vouches for.
    unsafe {
        let a0 = _mm256_loadu_ps(s);
        let a1 = _mm256_loadu_ps(s.offset(sld));
        let a2 = _mm256_loadu_ps(s.offset(2 * sld));
        let a3 = _mm256_loadu_ps(s.offset(3 * sld));
        let a4 = _mm256_loadu_ps(s.offset(4 * sld));
        let a5 = _mm256_loadu_ps(s.offset(5 * sld));
        let a6 = _mm256_loadu_ps(s.offset(6 * sld));
        let a7 = _mm256_loadu_ps(s.offset(7 * sld));
        let t0 = _mm256_unpacklo_ps(a0, a1);
        let t1 = _mm256_unpackhi_ps(a0, a1);
        let t2 = _mm256_unpacklo_ps(a2, a3);
        let t3 = _mm256_unpackhi_ps(a2, a3);
        let t4 = _mm256_unpacklo_ps(a4, a5);
        let t5 = _mm256_unpackhi_ps(a4, a5);
        let t6 = _mm256_unpacklo_ps(a6, a7);
        let t7 = _mm256_unpackhi_ps(a6, a7);
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        _mm256_storeu_ps(d, _mm256_permute2f128_ps::<0x20>(u0, u4));
        _mm256_storeu_ps(d.offset(4 * dld), _mm256_permute2f128_ps::<0x31>(u0, u4));
        _mm256_storeu_ps(d.offset(dld), _mm256_permute2f128_ps::<0x20>(u1, u5));
        _mm256_storeu_ps(d.offset(5 * dld), _mm256_permute2f128_ps::<0x31>(u1, u5));
        _mm256_storeu_ps(d.offset(2 * dld), _mm256_permute2f128_ps::<0x20>(u2, u6));
        _mm256_storeu_ps(d.offset(6 * dld), _mm256_permute2f128_ps::<0x31>(u2, u6));
        _mm256_storeu_ps(d.offset(3 * dld), _mm256_permute2f128_ps::<0x20>(u3, u7));
        _mm256_storeu_ps(d.offset(7 * dld), _mm256_permute2f128_ps::<0x31>(u3, u7));
    }
}

/// Transposes one 8×8 tile of 4-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 8`) is readable and `d + j·dld + i` writable, with every `d + j·dld` 64-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile8_f32_avx2_nt(s: *const f32, d: *mut f32, sld: isize, dld: isize) {
    // SAFETY: the eight loads of eight and stores of eight lie in the tile the caller
    // vouches for; the streaming stores' alignment is the caller's.
    unsafe {
        let a0 = _mm256_loadu_ps(s);
        let a1 = _mm256_loadu_ps(s.offset(sld));
        let a2 = _mm256_loadu_ps(s.offset(2 * sld));
        let a3 = _mm256_loadu_ps(s.offset(3 * sld));
        let a4 = _mm256_loadu_ps(s.offset(4 * sld));
        let a5 = _mm256_loadu_ps(s.offset(5 * sld));
        let a6 = _mm256_loadu_ps(s.offset(6 * sld));
        let a7 = _mm256_loadu_ps(s.offset(7 * sld));
        let t0 = _mm256_unpacklo_ps(a0, a1);
        let t1 = _mm256_unpackhi_ps(a0, a1);
        let t2 = _mm256_unpacklo_ps(a2, a3);
        let t3 = _mm256_unpackhi_ps(a2, a3);
        let t4 = _mm256_unpacklo_ps(a4, a5);
        let t5 = _mm256_unpackhi_ps(a4, a5);
        let t6 = _mm256_unpacklo_ps(a6, a7);
        let t7 = _mm256_unpackhi_ps(a6, a7);
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        _mm256_stream_ps(d, _mm256_permute2f128_ps::<0x20>(u0, u4));
        _mm256_stream_ps(d.offset(4 * dld), _mm256_permute2f128_ps::<0x31>(u0, u4));
        _mm256_stream_ps(d.offset(dld), _mm256_permute2f128_ps::<0x20>(u1, u5));
        _mm256_stream_ps(d.offset(5 * dld), _mm256_permute2f128_ps::<0x31>(u1, u5));
        _mm256_stream_ps(d.offset(2 * dld), _mm256_permute2f128_ps::<0x20>(u2, u6));
        _mm256_stream_ps(d.offset(6 * dld), _mm256_permute2f128_ps::<0x31>(u2, u6));
        _mm256_stream_ps(d.offset(3 * dld), _mm256_permute2f128_ps::<0x20>(u3, u7));
        _mm256_stream_ps(d.offset(7 * dld), _mm256_permute2f128_ps::<0x31>(u3, u7));
    }
}

/// Transposes one 4×4 tile of 8-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 4`) is readable and `d + j·dld + i` writable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile4_f64_avx2(s: *const f64, d: *mut f64, sld: isize, dld: isize) {
    // SAFETY: the four loads of four and stores of four lie in the tile the caller
    // vouches for.
    unsafe {
        let a0 = _mm256_loadu_pd(s);
        let a1 = _mm256_loadu_pd(s.offset(sld));
        let a2 = _mm256_loadu_pd(s.offset(2 * sld));
        let a3 = _mm256_loadu_pd(s.offset(3 * sld));
        let t0 = _mm256_unpacklo_pd(a0, a1);
        let t1 = _mm256_unpackhi_pd(a0, a1);
        let t2 = _mm256_unpacklo_pd(a2, a3);
        let t3 = _mm256_unpackhi_pd(a2, a3);
        _mm256_storeu_pd(d, _mm256_permute2f128_pd::<0x20>(t0, t2));
        _mm256_storeu_pd(d.offset(dld), _mm256_permute2f128_pd::<0x20>(t1, t3));
        _mm256_storeu_pd(d.offset(2 * dld), _mm256_permute2f128_pd::<0x31>(t0, t2));
        _mm256_storeu_pd(d.offset(3 * dld), _mm256_permute2f128_pd::<0x31>(t1, t3));
    }
}

/// Transposes one 4×4 tile of 8-byte elements: `d[j·dld + i] = s[j + i·sld]`.
///
/// # Safety
/// `s + j + i·sld` (`i, j < 4`) is readable and `d + j·dld + i` writable, with every `d + j·dld` 64-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tile4_f64_avx2_nt(s: *const f64, d: *mut f64, sld: isize, dld: isize) {
    // SAFETY: the four loads of four and stores of four lie in the tile the caller
    // vouches for; the streaming stores' alignment is the caller's.
    unsafe {
        let a0 = _mm256_loadu_pd(s);
        let a1 = _mm256_loadu_pd(s.offset(sld));
        let a2 = _mm256_loadu_pd(s.offset(2 * sld));
        let a3 = _mm256_loadu_pd(s.offset(3 * sld));
        let t0 = _mm256_unpacklo_pd(a0, a1);
        let t1 = _mm256_unpackhi_pd(a0, a1);
        let t2 = _mm256_unpacklo_pd(a2, a3);
        let t3 = _mm256_unpackhi_pd(a2, a3);
        _mm256_stream_pd(d, _mm256_permute2f128_pd::<0x20>(t0, t2));
        _mm256_stream_pd(d.offset(dld), _mm256_permute2f128_pd::<0x20>(t1, t3));
        _mm256_stream_pd(d.offset(2 * dld), _mm256_permute2f128_pd::<0x31>(t0, t2));
        _mm256_stream_pd(d.offset(3 * dld), _mm256_permute2f128_pd::<0x31>(t1, t3));
    }
}
