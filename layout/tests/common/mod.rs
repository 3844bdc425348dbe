//! What the kernel tests share: each SIMD level the CPU allows, one test at a time, and a
//! small deterministic generator. (Each test binary uses a part of it.)
#![allow(dead_code)]

use cute_layout::kernels::{self, Level};
use std::sync::Mutex;

/// The forced level is process-wide: tests that force one take this lock.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());
const LEVELS: [Level; 3] = [Level::Portable, Level::Avx2, Level::Avx512];

/// Runs `f` at each level the CPU (and `LAYOUT_SIMD_LEVEL`) allows, then restores the best.
pub fn at_each_level(mut f: impl FnMut(Level)) {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for l in LEVELS {
        if kernels::force_level(l) != l {
            println!("skipping level {l:?}");
            continue;
        }
        f(l);
    }
    kernels::force_level(Level::Avx512);
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in `[-1, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}
