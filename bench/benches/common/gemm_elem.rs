//! Shared by the GEMM benches (`gemm.rs`, criterion; `gemm_ratio.rs`, interleaved): the static
//! small items and the element trait over f32 and f64.

use cute_layout::gemm::GemmScalar;
use cute_layout::layout;

// The static small problems: NN, column-major A and C, B given as (N,K) with k contiguous
// (B as a column-major K×N matrix), as the run-time cases.
layout! {
    pub fn s32_4 = gemm(f32, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn s32_8 = gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));
    pub fn s32_16 = gemm(f32, (16,16):(1,16), (16,16):(16,1), (16,16):(1,16));
    pub fn s32_32 = gemm(f32, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
    pub fn s64_4 = gemm(f64, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn s64_8 = gemm(f64, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));
    pub fn s64_16 = gemm(f64, (16,16):(1,16), (16,16):(16,1), (16,16):(1,16));
    pub fn s64_32 = gemm(f64, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
}

pub trait Elem: GemmScalar + faer::traits::ComplexField + Default {
    const NAME: &'static str;
    /// `c = a·b` by the static item of size n (4, 8, 16 or 32), called directly.
    fn run_static(n: usize, a: &[Self], b: &[Self], c: &mut [Self]);
    fn from_f64(x: f64) -> Self;
}

impl Elem for f32 {
    const NAME: &'static str = "f32";
    #[inline(always)]
    fn run_static(n: usize, a: &[Self], b: &[Self], c: &mut [Self]) {
        match n {
            4 => s32_4(1.0, a, b, 0.0, c),
            8 => s32_8(1.0, a, b, 0.0, c),
            16 => s32_16(1.0, a, b, 0.0, c),
            _ => s32_32(1.0, a, b, 0.0, c),
        }
    }
    fn from_f64(x: f64) -> Self {
        x as f32
    }
}

impl Elem for f64 {
    const NAME: &'static str = "f64";
    #[inline(always)]
    fn run_static(n: usize, a: &[Self], b: &[Self], c: &mut [Self]) {
        match n {
            4 => s64_4(1.0, a, b, 0.0, c),
            8 => s64_8(1.0, a, b, 0.0, c),
            16 => s64_16(1.0, a, b, 0.0, c),
            _ => s64_32(1.0, a, b, 0.0, c),
        }
    }
    fn from_f64(x: f64) -> Self {
        x
    }
}
