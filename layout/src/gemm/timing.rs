//! Timing harnesses of the engine's parts alone, for the benchmarks in `bench/`
//! (`cargo bench --bench micro`). Hidden: not part of the API, no stability promise.
//!
//! Each entry allocates its own buffers, runs only the kernels of the levels at or below the
//! one in effect ([`level`](crate::kernels::level), so `LAYOUT_SIMD_LEVEL` and
//! [`force_level`](crate::kernels::force_level) cap it), and reports the best time of its
//! rounds. Off x86_64, or below AVX2, there is nothing to time and the entries return empty
//! lists.

/// One micro-kernel timed alone: `tiles` register tiles of C, each over its own packed A
/// panel and one shared packed B panel, `kc` deep (panels that stay in L1/L2), `C = A·B`.
#[derive(Clone, Debug, PartialEq)]
pub struct MicroTiming {
    /// The kernel: level, element type and tile `MRxNR` (`"avx512 f32 32x12"`).
    pub kernel: &'static str,
    /// Rows of the tile.
    pub mr: usize,
    /// Columns of the tile.
    pub nr: usize,
    /// The depth of the panels.
    pub kc: usize,
    /// Tiles per pass.
    pub tiles: usize,
    /// The best time of one pass over the tiles, in seconds.
    pub seconds: f64,
}

impl MicroTiming {
    /// Floating-point operations per pass: `2·MR·NR·kc·tiles`.
    pub fn flop(&self) -> f64 {
        2.0 * self.mr as f64 * self.nr as f64 * self.kc as f64 * self.tiles as f64
    }

    /// GFLOP/s of the best pass.
    pub fn gflops(&self) -> f64 {
        self.flop() / self.seconds / 1e9
    }
}

/// The engine's full-tile micro-kernels at every level the CPU has at or below the level in
/// effect (AVX-512: f32 32×12, f64 16×12; AVX2: f32 16×6, f64 8×6), and two tile shapes the
/// engine does not use, for comparison (AVX2 f32 24×4, f64 12×4): each on `tiles` tiles of
/// depth `kc`, the best of `rounds` rounds (at least one) of 10 passes.
///
/// # Panics
/// When the buffers' sizes overflow `usize`.
pub fn micro_kernels(kc: usize, tiles: usize, rounds: usize) -> Vec<MicroTiming> {
    // The largest tile's buffers, so that sizes too large panic at every level.
    let _ = micro_buffers(32, 12, kc, tiles);
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::timing::micro_kernels(kc, tiles, rounds.max(1))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (kc, tiles, rounds);
        Vec::new()
    }
}

/// The lengths of the A panels, the B panel and the C tiles [`micro_kernels`] times an
/// `mr × nr` kernel on: `mr·kc·tiles`, `nr·max(kc, 384)` and `mr·nr·tiles` elements. The B
/// panel holds every element the kernel reads for `p < kc`, `j < nr` at strides `(BJ, BS)`
/// of `(KC, 1)` with `KC ≤ 384` (`(nr-1)·KC + kc - 1 < nr·max(kc, 384)`) or of `(1, nr)`
/// (`nr - 1 + (kc-1)·nr < nr·kc`).
///
/// # Panics
/// When a length overflows `usize`.
pub(crate) fn micro_buffers(mr: usize, nr: usize, kc: usize, tiles: usize) -> (usize, usize, usize) {
    let a = mr.checked_mul(kc).and_then(|x| x.checked_mul(tiles));
    let b = nr.checked_mul(kc.max(384));
    let c = mr.checked_mul(nr).and_then(|x| x.checked_mul(tiles));
    match (a, b, c) {
        (Some(a), Some(b), Some(c)) => (a, b, c),
        _ => panic!("micro_kernels: kc = {kc}, tiles = {tiles} are too large"),
    }
}

/// A SIMD packer timed against the generic scalar one on the same block.
#[derive(Clone, Debug, PartialEq)]
pub struct PackTiming {
    /// What is packed (`"B panels, w = 6"`).
    pub panels: &'static str,
    /// The panel width `w` (rows of A or columns of B per panel).
    pub w: usize,
    /// Rows of the block.
    pub len: usize,
    /// Depth of the block.
    pub kc: usize,
    /// The best time of one call of the SIMD packer, in seconds.
    pub simd_seconds: f64,
    /// The best time of one call of the generic packer, in seconds.
    pub generic_seconds: f64,
}

/// The AVX2 packer against the generic one (both compiled with AVX2 and FMA) on a 264×256
/// f32 block contiguous along k, into B panels (`w = 6`) and A panels (`w = 16`): the best of
/// `rounds` rounds (at least one) of 20 calls each. Empty below AVX2.
pub fn packers(rounds: usize) -> Vec<PackTiming> {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::timing::packers(rounds.max(1))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = rounds;
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{Level, level};

    #[test]
    fn the_harnesses_time_every_kernel_of_the_level() {
        let micro = micro_kernels(8, 2, 1);
        let want = match level() {
            Level::Avx512 => 6,
            Level::Avx2 => 4,
            Level::Portable => 0,
        };
        assert_eq!(micro.len(), want, "{micro:?}");
        for t in &micro {
            assert!(t.seconds > 0.0 && t.seconds.is_finite(), "{t:?}");
            assert_eq!((t.kc, t.tiles), (8, 2), "{t:?}");
            assert_eq!(t.flop(), (2 * t.mr * t.nr * 8 * 2) as f64, "{t:?}");
            assert!(t.kernel.ends_with(&format!("{}x{}", t.mr, t.nr)), "{t:?}");
        }
        let packs = packers(1);
        assert_eq!(packs.len(), if level() >= Level::Avx2 { 2 } else { 0 }, "{packs:?}");
        for p in &packs {
            assert!(p.simd_seconds > 0.0 && p.generic_seconds > 0.0, "{p:?}");
        }
    }

    #[test]
    #[should_panic(expected = "are too large")]
    fn sizes_that_overflow_panic() {
        let _ = micro_kernels(usize::MAX / 64, 3, 1);
    }
}
