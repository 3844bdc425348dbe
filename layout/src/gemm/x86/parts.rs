//! The x86_64 side of [`crate::gemm::parts`]: the micro-kernels and packers of the levels
//! this CPU has, as safe [`MicroKernel`]s and [`Packer`]s.

use super::*;
use crate::gemm::parts::{MicroKernel, Packer};
use crate::kernels::{Level, level};

// Tile shapes the engine does not use, for comparison with its AVX2 16×6 and 8×6 and its
// AVX-512 32×12 and 16×12 (4 vectors of A by 6 broadcasts: 10 loads per 24 FMAs, against 14;
// the B panels' column stride `KC`, as the engine's).
instances!("avx2,fma";
    t_f32_3x4(t: &MicroArgs<f32>) = micro::<f32, Avx2, 3, 4, 1, 4, false>;
    t_f64_3x4(t: &MicroArgs<f64>) = micro::<f64, Avx2, 3, 4, 1, 4, false>;
);
instances!("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma";
    t_f32_4x6(t: &MicroArgs<f32>) = micro::<f32, Avx512, 4, 6, KC_F32, 1, false>;
    t_f64_4x6(t: &MicroArgs<f64>) = micro::<f64, Avx512, 4, 6, KC_F64, 1, false>;
);

/// See [`crate::gemm::parts::micro_kernels_f32`].
pub(in crate::gemm) fn micro_kernels_f32() -> Vec<MicroKernel<f32>> {
    let l = level();
    let mut out = Vec::new();
    // Each kernel is listed only at a level whose features the CPU has (`level()` never
    // exceeds what it detected); its tile and B strides are those of its
    // instance (AVX-512 `384, 1`, AVX2 `1, 6`, the comparison shape `1, 4`),
    // within `MicroKernel::lens`.
    if l == Level::Avx512 {
        out.push(MicroKernel { name: "avx512 f32 32x12", mr: 32, nr: 12, f: micro_avx512_f32 });
        out.push(MicroKernel { name: "avx512 f32 64x6", mr: 64, nr: 6, f: t_f32_4x6 });
    }
    if l >= Level::Avx2 {
        out.push(MicroKernel { name: "avx2 f32 16x6", mr: 16, nr: 6, f: micro_avx2_f32 });
        out.push(MicroKernel { name: "avx2 f32 24x4", mr: 24, nr: 4, f: t_f32_3x4 });
    }
    out
}

/// See [`crate::gemm::parts::micro_kernels_f64`].
pub(in crate::gemm) fn micro_kernels_f64() -> Vec<MicroKernel<f64>> {
    let l = level();
    let mut out = Vec::new();
    // As in `micro_kernels_f32` (AVX-512 B strides `256, 1`).
    if l == Level::Avx512 {
        out.push(MicroKernel { name: "avx512 f64 16x12", mr: 16, nr: 12, f: micro_avx512_f64 });
        out.push(MicroKernel { name: "avx512 f64 32x6", mr: 32, nr: 6, f: t_f64_4x6 });
    }
    if l >= Level::Avx2 {
        out.push(MicroKernel { name: "avx2 f64 8x6", mr: 8, nr: 6, f: micro_avx2_f64 });
        out.push(MicroKernel { name: "avx2 f64 12x4", mr: 12, nr: 4, f: t_f64_3x4 });
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

/// See [`crate::gemm::parts::packers`].
pub(in crate::gemm) fn packers() -> Vec<Packer> {
    // Listed only when the CPU has AVX2 and FMA (the level never exceeds what it detected).
    if level() < Level::Avx2 {
        return Vec::new();
    }
    vec![Packer { name: "avx2", f: simd }, Packer { name: "generic", f: generic }]
}
