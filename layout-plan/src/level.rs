//! The SIMD levels the kernels have code for: what the copy drivers' register tiles and
//! streaming stores, the transpose blocking, the GEMM engine's blockings and `layout explain`
//! are chosen for. Which level runs is decided at run time by the facade
//! (`cute_layout::kernels::level`).

use std::fmt;

/// An instruction-set level the kernels have code for, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Plain Rust the compiler vectorizes for the target's baseline (SSE2 on x86_64, no FMA);
    /// the only level on other architectures. Scalar transpose tiles, no streaming stores.
    Portable,
    /// AVX2 and FMA (x86_64): 16 ymm registers; 8×16 (4-byte) and 4×8 (8-byte) transpose
    /// tiles, 32-byte streaming stores.
    Avx2,
    /// AVX-512 F, BW, VL and DQ, on top of AVX2 and FMA (x86_64): 32 zmm registers; 16×16
    /// and 8×8 transpose tiles, 64-byte streaming stores.
    Avx512,
}

impl Level {
    /// The level named `portable` (or `scalar`, `none`), `avx2` or `avx512`, in any case and
    /// with surrounding blanks (the values of `LAYOUT_SIMD_LEVEL`).
    pub fn parse(name: &str) -> Option<Level> {
        match name.trim().to_ascii_lowercase().as_str() {
            "portable" | "scalar" | "none" => Some(Level::Portable),
            "avx2" => Some(Level::Avx2),
            "avx512" => Some(Level::Avx512),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    /// `portable`, `AVX2+FMA` or `AVX-512`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Portable => "portable",
            Level::Avx2 => "AVX2+FMA",
            Level::Avx512 => "AVX-512",
        })
    }
}
