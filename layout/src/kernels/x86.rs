//! x86_64 levels: the register tiles, and one `#[target_feature]` entry per level and width
//! into which the generic drivers inline.

use super::Program;
use super::driver::{Blocks, ScalarTile, Stream, Strided, Tile, blocked, drive};
use super::nest::{Plan, loop_buf};
use core::arch::x86_64::*;
use layout_plan::Level;

/// AVX-512 16×16 tiles of 4-byte words.
pub(super) struct Avx512W4;
/// AVX-512 8×8 tiles of 8-byte words.
pub(super) struct Avx512W8;
/// AVX2 8×16 tiles of 4-byte words (two 8×8 register transposes: whole destination lines).
pub(super) struct Avx2W4;
/// AVX2 4×8 tiles of 8-byte words (two 4×4 register transposes).
pub(super) struct Avx2W8;

// The straight-line tiles are generated (one statement per register operation) and must
// stay straight: written with arrays and index arithmetic they spilled. They are macros so
// they expand inside the `#[target_feature]` functions: as `#[inline(always)]` functions
// (target features and `inline(always)` cannot be combined on stable) their intrinsics
// were left as calls, and as `#[inline]` target-feature functions the tile was not inlined.

/// Transposes one 16×16 tile (rows × columns) of 4-byte elements at `s: *const f32`,
/// `d: *mut f32`: `d[j·dld + i] = s[j + i·sld]`, `j < 16`, `i < 16`, storing with `$st`.
/// Expands to straight-line intrinsics inside an `unsafe` block of the caller, which enables
/// the features and vouches for the tile's bounds.
macro_rules! tile16_f32 {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $st:ident) => {{
        let (s, d, sld, dld): (*const f32, *mut f32, isize, isize) = ($s, $d, $sld, $dld);
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
        $st(d, _mm512_shuffle_f32x4::<0x88>(v0, x0));
        $st(d.offset(dld), _mm512_shuffle_f32x4::<0x88>(v1, x1));
        $st(d.offset(2 * dld), _mm512_shuffle_f32x4::<0x88>(v2, x2));
        $st(d.offset(3 * dld), _mm512_shuffle_f32x4::<0x88>(v3, x3));
        $st(d.offset(4 * dld), _mm512_shuffle_f32x4::<0x88>(w0, y0));
        $st(d.offset(5 * dld), _mm512_shuffle_f32x4::<0x88>(w1, y1));
        $st(d.offset(6 * dld), _mm512_shuffle_f32x4::<0x88>(w2, y2));
        $st(d.offset(7 * dld), _mm512_shuffle_f32x4::<0x88>(w3, y3));
        $st(d.offset(8 * dld), _mm512_shuffle_f32x4::<0xDD>(v0, x0));
        $st(d.offset(9 * dld), _mm512_shuffle_f32x4::<0xDD>(v1, x1));
        $st(d.offset(10 * dld), _mm512_shuffle_f32x4::<0xDD>(v2, x2));
        $st(d.offset(11 * dld), _mm512_shuffle_f32x4::<0xDD>(v3, x3));
        $st(d.offset(12 * dld), _mm512_shuffle_f32x4::<0xDD>(w0, y0));
        $st(d.offset(13 * dld), _mm512_shuffle_f32x4::<0xDD>(w1, y1));
        $st(d.offset(14 * dld), _mm512_shuffle_f32x4::<0xDD>(w2, y2));
        $st(d.offset(15 * dld), _mm512_shuffle_f32x4::<0xDD>(w3, y3));
    }};
}

/// Transposes one 8×8 tile (rows × columns) of 8-byte elements at `s: *const f64`,
/// `d: *mut f64`: `d[j·dld + i] = s[j + i·sld]`, `j < 8`, `i < 8`, storing with `$st`.
/// Expands to straight-line intrinsics inside an `unsafe` block of the caller, which enables
/// the features and vouches for the tile's bounds.
macro_rules! tile8_f64 {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $st:ident) => {{
        let (s, d, sld, dld): (*const f64, *mut f64, isize, isize) = ($s, $d, $sld, $dld);
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
        $st(d, _mm512_shuffle_f64x2::<0x88>(v0, x0));
        $st(d.offset(dld), _mm512_shuffle_f64x2::<0x88>(v1, x1));
        $st(d.offset(2 * dld), _mm512_shuffle_f64x2::<0x88>(w0, y0));
        $st(d.offset(3 * dld), _mm512_shuffle_f64x2::<0x88>(w1, y1));
        $st(d.offset(4 * dld), _mm512_shuffle_f64x2::<0xDD>(v0, x0));
        $st(d.offset(5 * dld), _mm512_shuffle_f64x2::<0xDD>(v1, x1));
        $st(d.offset(6 * dld), _mm512_shuffle_f64x2::<0xDD>(w0, y0));
        $st(d.offset(7 * dld), _mm512_shuffle_f64x2::<0xDD>(w1, y1));
    }};
}

/// The masked form of the tile above for edges: source column `i` loads with `lm[i]` (lanes
/// are rows; 0 for a column outside the region), destination row `j` stores with `sm[j]`
/// (lanes are columns; 0 for a row outside). Addresses of masked-off rows are formed with
/// `wrapping_offset` and never accessed.
macro_rules! tile16_f32_masked {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $lm:expr, $sm:expr) => {{
        let (s, d, sld, dld): (*const f32, *mut f32, isize, isize) = ($s, $d, $sld, $dld);
        let (lm, sm): (&[__mmask16], &[__mmask16]) = (&$lm, &$sm);
        let a0 = _mm512_maskz_loadu_ps(lm[0], s);
        let a1 = _mm512_maskz_loadu_ps(lm[1], s.wrapping_offset(sld));
        let a2 = _mm512_maskz_loadu_ps(lm[2], s.wrapping_offset(2 * sld));
        let a3 = _mm512_maskz_loadu_ps(lm[3], s.wrapping_offset(3 * sld));
        let a4 = _mm512_maskz_loadu_ps(lm[4], s.wrapping_offset(4 * sld));
        let a5 = _mm512_maskz_loadu_ps(lm[5], s.wrapping_offset(5 * sld));
        let a6 = _mm512_maskz_loadu_ps(lm[6], s.wrapping_offset(6 * sld));
        let a7 = _mm512_maskz_loadu_ps(lm[7], s.wrapping_offset(7 * sld));
        let a8 = _mm512_maskz_loadu_ps(lm[8], s.wrapping_offset(8 * sld));
        let a9 = _mm512_maskz_loadu_ps(lm[9], s.wrapping_offset(9 * sld));
        let a10 = _mm512_maskz_loadu_ps(lm[10], s.wrapping_offset(10 * sld));
        let a11 = _mm512_maskz_loadu_ps(lm[11], s.wrapping_offset(11 * sld));
        let a12 = _mm512_maskz_loadu_ps(lm[12], s.wrapping_offset(12 * sld));
        let a13 = _mm512_maskz_loadu_ps(lm[13], s.wrapping_offset(13 * sld));
        let a14 = _mm512_maskz_loadu_ps(lm[14], s.wrapping_offset(14 * sld));
        let a15 = _mm512_maskz_loadu_ps(lm[15], s.wrapping_offset(15 * sld));
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
        _mm512_mask_storeu_ps(d, sm[0], _mm512_shuffle_f32x4::<0x88>(v0, x0));
        _mm512_mask_storeu_ps(d.wrapping_offset(dld), sm[1], _mm512_shuffle_f32x4::<0x88>(v1, x1));
        _mm512_mask_storeu_ps(d.wrapping_offset(2 * dld), sm[2], _mm512_shuffle_f32x4::<0x88>(v2, x2));
        _mm512_mask_storeu_ps(d.wrapping_offset(3 * dld), sm[3], _mm512_shuffle_f32x4::<0x88>(v3, x3));
        _mm512_mask_storeu_ps(d.wrapping_offset(4 * dld), sm[4], _mm512_shuffle_f32x4::<0x88>(w0, y0));
        _mm512_mask_storeu_ps(d.wrapping_offset(5 * dld), sm[5], _mm512_shuffle_f32x4::<0x88>(w1, y1));
        _mm512_mask_storeu_ps(d.wrapping_offset(6 * dld), sm[6], _mm512_shuffle_f32x4::<0x88>(w2, y2));
        _mm512_mask_storeu_ps(d.wrapping_offset(7 * dld), sm[7], _mm512_shuffle_f32x4::<0x88>(w3, y3));
        _mm512_mask_storeu_ps(d.wrapping_offset(8 * dld), sm[8], _mm512_shuffle_f32x4::<0xDD>(v0, x0));
        _mm512_mask_storeu_ps(d.wrapping_offset(9 * dld), sm[9], _mm512_shuffle_f32x4::<0xDD>(v1, x1));
        _mm512_mask_storeu_ps(d.wrapping_offset(10 * dld), sm[10], _mm512_shuffle_f32x4::<0xDD>(v2, x2));
        _mm512_mask_storeu_ps(d.wrapping_offset(11 * dld), sm[11], _mm512_shuffle_f32x4::<0xDD>(v3, x3));
        _mm512_mask_storeu_ps(d.wrapping_offset(12 * dld), sm[12], _mm512_shuffle_f32x4::<0xDD>(w0, y0));
        _mm512_mask_storeu_ps(d.wrapping_offset(13 * dld), sm[13], _mm512_shuffle_f32x4::<0xDD>(w1, y1));
        _mm512_mask_storeu_ps(d.wrapping_offset(14 * dld), sm[14], _mm512_shuffle_f32x4::<0xDD>(w2, y2));
        _mm512_mask_storeu_ps(d.wrapping_offset(15 * dld), sm[15], _mm512_shuffle_f32x4::<0xDD>(w3, y3));
    }};
}

/// The masked form of the tile above for edges: source column `i` loads with `lm[i]` (lanes
/// are rows; 0 for a column outside the region), destination row `j` stores with `sm[j]`
/// (lanes are columns; 0 for a row outside). Addresses of masked-off rows are formed with
/// `wrapping_offset` and never accessed.
macro_rules! tile8_f64_masked {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $lm:expr, $sm:expr) => {{
        let (s, d, sld, dld): (*const f64, *mut f64, isize, isize) = ($s, $d, $sld, $dld);
        let (lm, sm): (&[__mmask8], &[__mmask8]) = (&$lm, &$sm);
        let a0 = _mm512_maskz_loadu_pd(lm[0], s);
        let a1 = _mm512_maskz_loadu_pd(lm[1], s.wrapping_offset(sld));
        let a2 = _mm512_maskz_loadu_pd(lm[2], s.wrapping_offset(2 * sld));
        let a3 = _mm512_maskz_loadu_pd(lm[3], s.wrapping_offset(3 * sld));
        let a4 = _mm512_maskz_loadu_pd(lm[4], s.wrapping_offset(4 * sld));
        let a5 = _mm512_maskz_loadu_pd(lm[5], s.wrapping_offset(5 * sld));
        let a6 = _mm512_maskz_loadu_pd(lm[6], s.wrapping_offset(6 * sld));
        let a7 = _mm512_maskz_loadu_pd(lm[7], s.wrapping_offset(7 * sld));
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
        _mm512_mask_storeu_pd(d, sm[0], _mm512_shuffle_f64x2::<0x88>(v0, x0));
        _mm512_mask_storeu_pd(d.wrapping_offset(dld), sm[1], _mm512_shuffle_f64x2::<0x88>(v1, x1));
        _mm512_mask_storeu_pd(d.wrapping_offset(2 * dld), sm[2], _mm512_shuffle_f64x2::<0x88>(w0, y0));
        _mm512_mask_storeu_pd(d.wrapping_offset(3 * dld), sm[3], _mm512_shuffle_f64x2::<0x88>(w1, y1));
        _mm512_mask_storeu_pd(d.wrapping_offset(4 * dld), sm[4], _mm512_shuffle_f64x2::<0xDD>(v0, x0));
        _mm512_mask_storeu_pd(d.wrapping_offset(5 * dld), sm[5], _mm512_shuffle_f64x2::<0xDD>(v1, x1));
        _mm512_mask_storeu_pd(d.wrapping_offset(6 * dld), sm[6], _mm512_shuffle_f64x2::<0xDD>(w0, y0));
        _mm512_mask_storeu_pd(d.wrapping_offset(7 * dld), sm[7], _mm512_shuffle_f64x2::<0xDD>(w1, y1));
    }};
}

/// Transposes one 8×16 tile (rows × columns) of 4-byte elements at `s: *const f32`,
/// `d: *mut f32`: `d[j·dld + i] = s[j + i·sld]`, `j < 8`, `i < 16`, storing with `$st`.
/// Expands to straight-line intrinsics inside an `unsafe` block of the caller, which enables
/// the features and vouches for the tile's bounds.
macro_rules! tile8x16_f32_avx2 {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $st:ident) => {{
        let (s, d, sld, dld): (*const f32, *mut f32, isize, isize) = ($s, $d, $sld, $dld);
        let s2 = s.offset(8 * sld);
        let pa0 = _mm256_loadu_ps(s);
        let pa1 = _mm256_loadu_ps(s.offset(sld));
        let pa2 = _mm256_loadu_ps(s.offset(2 * sld));
        let pa3 = _mm256_loadu_ps(s.offset(3 * sld));
        let pa4 = _mm256_loadu_ps(s.offset(4 * sld));
        let pa5 = _mm256_loadu_ps(s.offset(5 * sld));
        let pa6 = _mm256_loadu_ps(s.offset(6 * sld));
        let pa7 = _mm256_loadu_ps(s.offset(7 * sld));
        let pt0 = _mm256_unpacklo_ps(pa0, pa1);
        let pt1 = _mm256_unpackhi_ps(pa0, pa1);
        let pt2 = _mm256_unpacklo_ps(pa2, pa3);
        let pt3 = _mm256_unpackhi_ps(pa2, pa3);
        let pt4 = _mm256_unpacklo_ps(pa4, pa5);
        let pt5 = _mm256_unpackhi_ps(pa4, pa5);
        let pt6 = _mm256_unpacklo_ps(pa6, pa7);
        let pt7 = _mm256_unpackhi_ps(pa6, pa7);
        let pu0 = _mm256_shuffle_ps::<0x44>(pt0, pt2);
        let pu1 = _mm256_shuffle_ps::<0xEE>(pt0, pt2);
        let pu2 = _mm256_shuffle_ps::<0x44>(pt1, pt3);
        let pu3 = _mm256_shuffle_ps::<0xEE>(pt1, pt3);
        let pu4 = _mm256_shuffle_ps::<0x44>(pt4, pt6);
        let pu5 = _mm256_shuffle_ps::<0xEE>(pt4, pt6);
        let pu6 = _mm256_shuffle_ps::<0x44>(pt5, pt7);
        let pu7 = _mm256_shuffle_ps::<0xEE>(pt5, pt7);
        let qa0 = _mm256_loadu_ps(s2);
        let qa1 = _mm256_loadu_ps(s2.offset(sld));
        let qa2 = _mm256_loadu_ps(s2.offset(2 * sld));
        let qa3 = _mm256_loadu_ps(s2.offset(3 * sld));
        let qa4 = _mm256_loadu_ps(s2.offset(4 * sld));
        let qa5 = _mm256_loadu_ps(s2.offset(5 * sld));
        let qa6 = _mm256_loadu_ps(s2.offset(6 * sld));
        let qa7 = _mm256_loadu_ps(s2.offset(7 * sld));
        let qt0 = _mm256_unpacklo_ps(qa0, qa1);
        let qt1 = _mm256_unpackhi_ps(qa0, qa1);
        let qt2 = _mm256_unpacklo_ps(qa2, qa3);
        let qt3 = _mm256_unpackhi_ps(qa2, qa3);
        let qt4 = _mm256_unpacklo_ps(qa4, qa5);
        let qt5 = _mm256_unpackhi_ps(qa4, qa5);
        let qt6 = _mm256_unpacklo_ps(qa6, qa7);
        let qt7 = _mm256_unpackhi_ps(qa6, qa7);
        let qu0 = _mm256_shuffle_ps::<0x44>(qt0, qt2);
        let qu1 = _mm256_shuffle_ps::<0xEE>(qt0, qt2);
        let qu2 = _mm256_shuffle_ps::<0x44>(qt1, qt3);
        let qu3 = _mm256_shuffle_ps::<0xEE>(qt1, qt3);
        let qu4 = _mm256_shuffle_ps::<0x44>(qt4, qt6);
        let qu5 = _mm256_shuffle_ps::<0xEE>(qt4, qt6);
        let qu6 = _mm256_shuffle_ps::<0x44>(qt5, qt7);
        let qu7 = _mm256_shuffle_ps::<0xEE>(qt5, qt7);
        let o0 = _mm256_permute2f128_ps::<0x20>(pu0, pu4);
        let r0 = _mm256_permute2f128_ps::<0x20>(qu0, qu4);
        let o1 = _mm256_permute2f128_ps::<0x20>(pu1, pu5);
        let r1 = _mm256_permute2f128_ps::<0x20>(qu1, qu5);
        let o2 = _mm256_permute2f128_ps::<0x20>(pu2, pu6);
        let r2 = _mm256_permute2f128_ps::<0x20>(qu2, qu6);
        let o3 = _mm256_permute2f128_ps::<0x20>(pu3, pu7);
        let r3 = _mm256_permute2f128_ps::<0x20>(qu3, qu7);
        let o4 = _mm256_permute2f128_ps::<0x31>(pu0, pu4);
        let r4 = _mm256_permute2f128_ps::<0x31>(qu0, qu4);
        let o5 = _mm256_permute2f128_ps::<0x31>(pu1, pu5);
        let r5 = _mm256_permute2f128_ps::<0x31>(qu1, qu5);
        let o6 = _mm256_permute2f128_ps::<0x31>(pu2, pu6);
        let r6 = _mm256_permute2f128_ps::<0x31>(qu2, qu6);
        let o7 = _mm256_permute2f128_ps::<0x31>(pu3, pu7);
        let r7 = _mm256_permute2f128_ps::<0x31>(qu3, qu7);
        $st(d, o0);
        $st(d.add(8), r0);
        $st(d.offset(dld), o1);
        $st(d.offset(dld).add(8), r1);
        $st(d.offset(2 * dld), o2);
        $st(d.offset(2 * dld).add(8), r2);
        $st(d.offset(3 * dld), o3);
        $st(d.offset(3 * dld).add(8), r3);
        $st(d.offset(4 * dld), o4);
        $st(d.offset(4 * dld).add(8), r4);
        $st(d.offset(5 * dld), o5);
        $st(d.offset(5 * dld).add(8), r5);
        $st(d.offset(6 * dld), o6);
        $st(d.offset(6 * dld).add(8), r6);
        $st(d.offset(7 * dld), o7);
        $st(d.offset(7 * dld).add(8), r7);
    }};
}

/// Transposes one 4×8 tile (rows × columns) of 8-byte elements at `s: *const f64`,
/// `d: *mut f64`: `d[j·dld + i] = s[j + i·sld]`, `j < 4`, `i < 8`, storing with `$st`.
/// Expands to straight-line intrinsics inside an `unsafe` block of the caller, which enables
/// the features and vouches for the tile's bounds.
macro_rules! tile4x8_f64_avx2 {
    ($s:expr, $d:expr, $sld:expr, $dld:expr, $st:ident) => {{
        let (s, d, sld, dld): (*const f64, *mut f64, isize, isize) = ($s, $d, $sld, $dld);
        let s2 = s.offset(4 * sld);
        let pa0 = _mm256_loadu_pd(s);
        let pa1 = _mm256_loadu_pd(s.offset(sld));
        let pa2 = _mm256_loadu_pd(s.offset(2 * sld));
        let pa3 = _mm256_loadu_pd(s.offset(3 * sld));
        let pt0 = _mm256_unpacklo_pd(pa0, pa1);
        let pt1 = _mm256_unpackhi_pd(pa0, pa1);
        let pt2 = _mm256_unpacklo_pd(pa2, pa3);
        let pt3 = _mm256_unpackhi_pd(pa2, pa3);
        let qa0 = _mm256_loadu_pd(s2);
        let qa1 = _mm256_loadu_pd(s2.offset(sld));
        let qa2 = _mm256_loadu_pd(s2.offset(2 * sld));
        let qa3 = _mm256_loadu_pd(s2.offset(3 * sld));
        let qt0 = _mm256_unpacklo_pd(qa0, qa1);
        let qt1 = _mm256_unpackhi_pd(qa0, qa1);
        let qt2 = _mm256_unpacklo_pd(qa2, qa3);
        let qt3 = _mm256_unpackhi_pd(qa2, qa3);
        let o0 = _mm256_permute2f128_pd::<0x20>(pt0, pt2);
        let r0 = _mm256_permute2f128_pd::<0x20>(qt0, qt2);
        let o1 = _mm256_permute2f128_pd::<0x20>(pt1, pt3);
        let r1 = _mm256_permute2f128_pd::<0x20>(qt1, qt3);
        let o2 = _mm256_permute2f128_pd::<0x31>(pt0, pt2);
        let r2 = _mm256_permute2f128_pd::<0x31>(qt0, qt2);
        let o3 = _mm256_permute2f128_pd::<0x31>(pt1, pt3);
        let r3 = _mm256_permute2f128_pd::<0x31>(qt1, qt3);
        $st(d, o0);
        $st(d.add(4), r0);
        $st(d.offset(dld), o1);
        $st(d.offset(dld).add(4), r1);
        $st(d.offset(2 * dld), o2);
        $st(d.offset(2 * dld).add(4), r2);
        $st(d.offset(3 * dld), o3);
        $st(d.offset(3 * dld).add(4), r3);
    }};
}

macro_rules! tile_impl {
    ($k:ty, $w:ty, $f:ty, $r:literal x $c:literal, $level:ident, $feat:literal, $entry:ident, $tile:ident, $st:ident, $stream:ident
        $(; masked: $edge:ident, $mtile:ident, $mty:ty)?) => {
        impl Tile<$w> for $k {
            const R: usize = $r;
            const C: usize = $c;
            const NT_ALIGN: usize = 64;
            const LEVEL: Level = Level::$level;
            $(
            const MASKED: bool = true;

            // SAFETY contract: `Tile::edge`'s (the h x w edge is inside both allocations).
            #[inline(always)]
            unsafe fn edge(src: *const $w, dst: *mut $w, sld: isize, dld: isize, h: usize, w: usize) {
                // SAFETY: the caller's bounds; only the entries of this level use this tile.
                unsafe { $edge(src.cast::<$f>(), dst.cast::<$f>(), sld, dld, h, w) }
            }
            )?

            // SAFETY contract: `Tile::tiles`' (every tile point is inside both allocations).
            #[inline(always)]
            unsafe fn tiles(
                src: *const $w,
                dst: *mut $w,
                sld: isize,
                dld: isize,
                rows: (usize, usize),
                cols: (usize, usize),
                blocks: Blocks,
            ) {
                // SAFETY: the caller's region and alignment bounds; only the entries of this
                // level, which run when the CPU has its features, use this tile.
                unsafe { $entry(src.cast::<$f>(), dst.cast::<$f>(), sld, dld, rows, cols, blocks) }
            }

            #[inline(always)]
            fn fence() {
                // SAFETY: `sfence` is SSE, part of x86_64's baseline.
                unsafe { _mm_sfence() }
            }
        }

        /// The tiles of a region (see `Tile::tiles`), with this level's features.
        ///
        /// # Safety
        /// As `Tile::tiles`; the CPU has the features.
        #[target_feature(enable = $feat)]
        unsafe fn $entry(
            src: *const $f,
            dst: *mut $f,
            sld: isize,
            dld: isize,
            rows: (usize, usize),
            cols: (usize, usize),
            blocks: Blocks,
        ) {
            let w = core::mem::size_of::<$f>();
            if blocks.stream {
                blocked(blocks, ($r, $c), rows, cols, |r, c| {
                    // SAFETY: the tile at `(r, c)` is inside the region; streaming rows are
                    // 64-byte aligned (the caller's bound, `c - c0` a multiple of `C`, and
                    // `C·w` of 64).
                    unsafe { $tile!(src.offset(r + c * sld), dst.offset(r * dld + c), sld, dld, $stream) }
                });
            } else {
                // The destination lines 64 bytes to the right of each tile's (those of the tile
                // to its right, which comes two tiles later in a 32x32 block walked down first)
                // are prefetched, so that their read for ownership is under way before that
                // tile stores to them. A prefetch is a hint: a line outside the region is
                // harmless, and no fault is raised. (AVX-512 only: the AVX2 blocks are stripes
                // walked down, whose next lines to the right come a whole band later.)
                let ahead = (64 / w) as isize;
                let pitch = dld * w as isize;
                blocked(blocks, ($r, $c), rows, cols, |r, c| {
                    if Level::$level == Level::Avx512 {
                        let p = dst.wrapping_offset(r * dld + c + ahead).cast::<i8>();
                        for j in 0..$r {
                            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_offset(j * pitch));
                        }
                    }
                    // SAFETY: the tile at `(r, c)` is inside the region.
                    unsafe { $tile!(src.offset(r + c * sld), dst.offset(r * dld + c), sld, dld, $st) }
                });
            }
        }

        $(
        /// One partial tile, `h ≤ R` rows × `w ≤ C` columns, with masked loads and stores.
        ///
        /// # Safety
        /// As `Tile::edge`; the CPU has the features.
        #[target_feature(enable = $feat)]
        unsafe fn $edge(src: *const $f, dst: *mut $f, sld: isize, dld: isize, h: usize, w: usize) {
            let rows: $mty = if h >= $r { !0 } else { (1 << h) - 1 };
            let cols: $mty = if w >= $c { !0 } else { (1 << w) - 1 };
            let lm: [$mty; $c] = core::array::from_fn(|i| if i < w { rows } else { 0 });
            let sm: [$mty; $r] = core::array::from_fn(|j| if j < h { cols } else { 0 });
            // SAFETY: the loads and stores not masked off are the points `(j < h, i < w)` of
            // the tile, inside the region (the caller's bound); masked-off lanes are neither
            // read nor written, and their addresses are only formed with `wrapping_offset`.
            unsafe { $mtile!(src, dst, sld, dld, lm, sm) }
        }
        )?
    };
}

tile_impl!(Avx512W4, u32, f32, 16 x 16, Avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", tiles_avx512_w4, tile16_f32, _mm512_storeu_ps, _mm512_stream_ps; masked: edge_avx512_w4, tile16_f32_masked, __mmask16);
tile_impl!(Avx512W8, u64, f64, 8 x 8, Avx512, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", tiles_avx512_w8, tile8_f64, _mm512_storeu_pd, _mm512_stream_pd; masked: edge_avx512_w8, tile8_f64_masked, __mmask8);
tile_impl!(Avx2W4, u32, f32, 8 x 16, Avx2, "avx2,fma", tiles_avx2_w4, tile8x16_f32_avx2, _mm256_storeu_ps, _mm256_stream_ps);
tile_impl!(Avx2W8, u64, f64, 4 x 8, Avx2, "avx2,fma", tiles_avx2_w8, tile4x8_f64_avx2, _mm256_storeu_pd, _mm256_stream_pd);

impl Strided<u32> for Avx2W4 {}
impl Strided<u64> for Avx2W8 {}

/// Gathers and scatters of strides 2..=4 with whole-vector loads and lane permutes: a gather
/// loads the `S` vectors covering `L` outputs and merges them with one masked `vpermd/q`
/// each; a scatter permutes `L` inputs into `S` vectors written with masked stores (only the
/// run's points are written).
macro_rules! strided_avx512 {
    ($k:ty, $w:ty, $l:literal, $mask:ty, $gather:ident, $scatter:ident, $perm:ident, $mperm:ident, $mstore:ident) => {
        impl Strided<$w> for $k {
            // SAFETY contract: `Strided::gather`'s (the source between the run's first and last point
            // and the destination's `len` points are inside the allocations).
            #[inline(always)]
            unsafe fn gather(s: *const $w, d: *mut $w, len: usize, ss: isize) -> usize {
                // SAFETY: the caller's bounds; only the AVX-512 entries use this tile.
                unsafe {
                    match ss {
                        2 if len > $l => $gather::<2>(s, d, len),
                        3 if len > $l => $gather::<3>(s, d, len),
                        4 if len > $l => $gather::<4>(s, d, len),
                        _ => 0,
                    }
                }
            }

            // SAFETY contract: `Strided::scatter`'s (the run's `len` points are inside both allocations).
            #[inline(always)]
            unsafe fn scatter(s: *const $w, d: *mut $w, len: usize, ds: isize) -> usize {
                // SAFETY: as above.
                unsafe {
                    match ds {
                        2 if len >= $l => $scatter::<2>(s, d, len),
                        3 if len >= $l => $scatter::<3>(s, d, len),
                        4 if len >= $l => $scatter::<4>(s, d, len),
                        _ => 0,
                    }
                }
            }
        }

        /// `d[k] = s[k·S]` for whole vectors of `k` while the last loaded source vector ends
        /// at or before the run's last point; returns how many were copied.
        ///
        /// # Safety
        /// Every element from `s` to `s + (len - 1)·S` readable and `d + k` writable for
        /// `k < len`; the CPU has AVX-512.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        unsafe fn $gather<const S: usize>(s: *const $w, d: *mut $w, len: usize) -> usize {
            // Lane `i` of the output is element `i·S` of the `S·L` loaded: vector `i·S / L`,
            // lane `i·S % L`.
            let mut idx = [0 as $w; $l];
            let mut masks = [0 as $mask; S];
            for i in 0..$l {
                idx[i] = ((i * S) % $l) as $w;
                masks[(i * S) / $l] |= 1 << i;
            }
            // SAFETY: `idx` holds `L` words (one vector).
            let idx = unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) };
            let (mut sp, mut dp) = (s, d);
            let mut k = 0;
            // The vectors loaded for outputs `k..k + L` end at source element `(k + L)·S - 1`,
            // which is at most `(len - 1)·S` (a point of the run) when `k + L < len`.
            while k + $l < len {
                // SAFETY: the loads end at or before the run's last point (above) and start at
                // its point `k`; the store covers outputs `k..k + L < len`.
                unsafe {
                    let mut r = $perm(idx, _mm512_loadu_si512(sp.cast()));
                    for j in 1..S {
                        r = $mperm(r, masks[j], idx, _mm512_loadu_si512(sp.add(j * $l).cast()));
                    }
                    _mm512_storeu_si512(dp.cast(), r);
                    sp = sp.add(S * $l);
                    dp = dp.add($l);
                }
                k += $l;
            }
            k
        }

        /// `d[k·S] = s[k]` for whole vectors of `k ≤ len - L`; returns how many were copied.
        ///
        /// # Safety
        /// `s + k` readable and `d + k·S` writable for `k < len`; the CPU has AVX-512.
        #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
        unsafe fn $scatter<const S: usize>(s: *const $w, d: *mut $w, len: usize) -> usize {
            // Lane `i` of output vector `j` is destination element `p = j·L + i`: a point of
            // the run when `S` divides `p`, then input `p / S`.
            let mut idx = [[0 as $w; $l]; S];
            let mut masks = [0 as $mask; S];
            for j in 0..S {
                for i in 0..$l {
                    let p = j * $l + i;
                    if p % S == 0 {
                        idx[j][i] = (p / S) as $w;
                        masks[j] |= 1 << i;
                    }
                }
            }
            let mut iv = [_mm512_setzero_si512(); S];
            for j in 0..S {
                // SAFETY: `idx[j]` holds `L` words (one vector).
                iv[j] = unsafe { _mm512_loadu_si512(idx[j].as_ptr().cast()) };
            }
            let (mut sp, mut dp) = (s, d);
            let mut k = 0;
            while k + $l <= len {
                // SAFETY: the load covers inputs `k..k + L ≤ len`; the masked stores write only
                // destination points `(k + i)·S`, `i < L`, of the run.
                unsafe {
                    let v = _mm512_loadu_si512(sp.cast());
                    for j in 0..S {
                        $mstore(dp.add(j * $l).cast(), masks[j], $perm(iv[j], v));
                    }
                    sp = sp.add($l);
                    dp = dp.add(S * $l);
                }
                k += $l;
            }
            k
        }
    };
}

strided_avx512!(
    Avx512W4,
    u32,
    16,
    u16,
    gather_avx512_w4,
    scatter_avx512_w4,
    _mm512_permutexvar_epi32,
    _mm512_mask_permutexvar_epi32,
    _mm512_mask_storeu_epi32
);
strided_avx512!(
    Avx512W8,
    u64,
    8,
    u8,
    gather_avx512_w8,
    scatter_avx512_w8,
    _mm512_permutexvar_epi64,
    _mm512_mask_permutexvar_epi64,
    _mm512_mask_storeu_epi64
);

/// AVX-512 streaming stores: one 64-byte store per line.
pub(super) struct Avx512Stream;
/// AVX2 streaming stores: two 32-byte stores per line.
pub(super) struct Avx2Stream;

impl Stream for Avx512Stream {
    const ENABLED: bool = true;

    // SAFETY contract: `Stream::lines`' (`n` bytes at `s` and `d` are inside the allocations).
    #[inline(always)]
    unsafe fn lines(s: *const u8, d: *mut u8, n: usize) {
        // SAFETY: the caller's bounds; used only by the AVX-512 entries.
        unsafe { lines_avx512(s, d, n) }
    }

    #[inline(always)]
    fn fence() {
        // SAFETY: `sfence` is SSE, part of x86_64's baseline.
        unsafe { _mm_sfence() }
    }
}

impl Stream for Avx2Stream {
    const ENABLED: bool = true;

    // SAFETY contract: `Stream::lines`' (`n` bytes at `s` and `d` are inside the allocations).
    #[inline(always)]
    unsafe fn lines(s: *const u8, d: *mut u8, n: usize) {
        // SAFETY: the caller's bounds; used only by the AVX2 and AVX-512 entries.
        unsafe { lines_avx2(s, d, n) }
    }

    #[inline(always)]
    fn fence() {
        // SAFETY: `sfence` is SSE, part of x86_64's baseline.
        unsafe { _mm_sfence() }
    }
}

/// # Safety
/// As `Stream::lines`; the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn lines_avx512(s: *const u8, d: *mut u8, n: usize) {
    let mut i = 0;
    // SAFETY: `i + 256 ≤ n` (then `i + 64 ≤ n`): inside the caller's bytes; `d + i` stays
    // 64-byte aligned (`d` is, `i` steps by 64).
    unsafe {
        while i + 256 <= n {
            let a = _mm512_loadu_si512(s.add(i).cast());
            let b = _mm512_loadu_si512(s.add(i + 64).cast());
            let c = _mm512_loadu_si512(s.add(i + 128).cast());
            let e = _mm512_loadu_si512(s.add(i + 192).cast());
            _mm512_stream_si512(d.add(i).cast(), a);
            _mm512_stream_si512(d.add(i + 64).cast(), b);
            _mm512_stream_si512(d.add(i + 128).cast(), c);
            _mm512_stream_si512(d.add(i + 192).cast(), e);
            i += 256;
        }
        while i + 64 <= n {
            _mm512_stream_si512(d.add(i).cast(), _mm512_loadu_si512(s.add(i).cast()));
            i += 64;
        }
    }
}

/// # Safety
/// As `Stream::lines`; the CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn lines_avx2(s: *const u8, d: *mut u8, n: usize) {
    let mut i = 0;
    // SAFETY: `i + 64 ≤ n`: inside the caller's bytes; `d + i` and `d + i + 32` are 32-byte
    // aligned (`d` is 64-byte aligned, `i` steps by 64).
    unsafe {
        while i + 64 <= n {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + 32).cast());
            _mm256_stream_si256(d.add(i).cast(), a);
            _mm256_stream_si256(d.add(i + 32).cast(), b);
            i += 64;
        }
    }
}

macro_rules! entry {
    ($(#[$doc:meta])* $name:ident, $feat:literal, $w:ty, $k:ty, $s:ty) => {
        $(#[$doc])*
        /// # Safety
        /// The CPU has the features; the program's contract ([`super::run`]) holds.
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $name(src: *const $w, dst: *mut $w, p: &Program<'_>) {
            let mut buf = loop_buf();
            if let Some(plan) = Plan::new(p, &mut buf) {
                // SAFETY: forwarded from the caller.
                unsafe { drive::<$w, $k, $s>(src, dst, &plan) }
            }
        }
    };
}

entry!(avx2_w1, "avx2,fma", u8, ScalarTile, Avx2Stream);
entry!(avx2_w2, "avx2,fma", u16, ScalarTile, Avx2Stream);
entry!(avx2_w4, "avx2,fma", u32, Avx2W4, Avx2Stream);
entry!(avx2_w8, "avx2,fma", u64, Avx2W8, Avx2Stream);
entry!(avx512_w1, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u8, ScalarTile, Avx512Stream);
entry!(avx512_w2, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u16, ScalarTile, Avx512Stream);
entry!(avx512_w4, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u32, Avx512W4, Avx512Stream);
entry!(avx512_w8, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", u64, Avx512W8, Avx512Stream);
