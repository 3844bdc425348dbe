//! The GEMM engine's parts alone, through the facade's hidden safe entries
//! (`cute_layout::__private::{micro_kernels_f32, micro_kernels_f64, packers}`, which run one
//! pass of a kernel or one packing over buffers this harness allocates and times): the
//! full-tile micro-kernels of every level this CPU has (AVX-512 f32 32×12 and f64 16×12;
//! AVX2 f32 16×6 and f64 8×6, with the unused shapes AVX-512 64×6 and 32×6, AVX2 24×4 and
//! 12×4 for comparison) on packed panels that stay in L1/L2, 256 deep and 64 deep (a shallow
//! product's tiles), in GFLOP/s of the best of 200 rounds of 10 passes; and the AVX2
//! packer against the generic one on a 264×256 f32 block contiguous along k, best of 200
//! rounds of 20 calls. A level the CPU lacks prints nothing; `LAYOUT_SIMD_LEVEL` caps the
//! level.
//!
//! Run: `cd bench && cargo bench --bench micro [-- FILTER]` (FILTER: a substring of the
//! printed names, e.g. `micro`, `pack`, `avx512`, `f64`).

use cute_layout::__private::{MicroKernel, micro_kernels_f32, micro_kernels_f64, packers};
use cute_layout::gemm::GemmScalar;
use std::hint::black_box;
use std::time::Instant;

/// The best time in seconds of one pass of `k` over `tiles` tiles `kc` deep: the best of
/// `rounds` rounds of 10 passes.
fn time_micro<T: GemmScalar + From<f32>>(k: &MicroKernel<T>, kc: usize, tiles: usize, rounds: usize) -> f64 {
    let (a_len, b_len, c_len) = k.lens(kc, tiles).expect("the panels' sizes overflow");
    let a: Vec<T> = (0..a_len).map(|x| T::from((x % 7) as f32 * 0.1)).collect();
    let b: Vec<T> = (0..b_len).map(|x| T::from((x % 5) as f32 * 0.1)).collect();
    let mut c = vec![T::ZERO; c_len];
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..10 {
            k.run(kc, tiles, &a, &b, &mut c);
            black_box(&mut c);
        }
        best = best.min(t.elapsed().as_secs_f64() / 10.0);
    }
    best
}

/// Prints the GFLOP/s (`2·MR·NR·kc·tiles` per pass) of each kernel whose name passes `filter`.
fn micro<T: GemmScalar + From<f32>>(kernels: &[MicroKernel<T>], filter: &str) {
    for (kc, tiles) in [(256, 1), (256, 8), (256, 16), (64, 16), (64, 32)] {
        for k in kernels {
            let name = format!("micro {} kc {kc} tiles {tiles}", k.name());
            if name.contains(filter) {
                let (mr, nr) = k.tile();
                let flop = 2.0 * (mr * nr * kc * tiles) as f64;
                println!("{name}: {:.1} GFLOP/s", flop / time_micro(k, kc, tiles, 200) / 1e9);
            }
        }
    }
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    println!("level in effect: {:?}", cute_layout::kernels::level());
    micro(&micro_kernels_f32(), &filter);
    micro(&micro_kernels_f64(), &filter);
    let packers = packers();
    if packers.is_empty() {
        return;
    }
    let (len, kc) = (264usize, 256usize);
    for (w, panels) in [(6usize, "B panels, w = 6"), (16, "A panels, w = 16")] {
        let name = format!("pack {panels} ({len}x{kc} f32)");
        if !name.contains(&filter) {
            continue;
        }
        let src: Vec<f32> = (0..len * kc).map(|x| x as f32).collect();
        let mut dst = vec![0f32; len.next_multiple_of(w) * kc];
        let mut best = vec![f64::MAX; packers.len()];
        for _ in 0..200 {
            for (p, b) in packers.iter().zip(&mut best) {
                let t = Instant::now();
                for _ in 0..20 {
                    p.run(w, &src, kc, len, kc, &mut dst);
                    black_box(&mut dst);
                }
                *b = b.min(t.elapsed().as_secs_f64() / 20.0);
            }
        }
        let times: Vec<String> =
            packers.iter().zip(&best).map(|(p, b)| format!("{} {:.1} us", p.name(), b * 1e6)).collect();
        println!("{name}: {}", times.join(", "));
    }
}
