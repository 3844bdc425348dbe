//! The GEMM engine's parts alone, through the facade's hidden timing entries
//! (`cute_layout::gemm::timing`, which allocate the buffers and run the timing loops
//! themselves): the full-tile micro-kernels of every level this CPU has (AVX-512 f32 32×12
//! and f64 16×12; AVX2 f32 16×6 and f64 8×6, with the unused shapes 24×4 and 12×4 for
//! comparison) on packed panels that stay in L1/L2, in GFLOP/s of the best of 200 rounds of
//! 10 passes; and the AVX2 packer against the generic one on a 264×256 f32 block contiguous
//! along k, best of 200 rounds of 20 calls. A level the CPU lacks prints nothing;
//! `LAYOUT_SIMD_LEVEL` caps the level.
//!
//! Run: `cd bench && cargo bench --bench micro [-- FILTER]` (FILTER: a substring of the
//! printed names, e.g. `micro`, `pack`, `avx512`, `f64`).

use cute_layout::gemm::timing;

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    println!("level in effect: {:?}", cute_layout::kernels::level());
    for (kc, tiles) in [(256, 1), (256, 8), (256, 16)] {
        for t in timing::micro_kernels(kc, tiles, 200) {
            let name = format!("micro {} kc {} tiles {}", t.kernel, t.kc, t.tiles);
            if name.contains(&filter) {
                println!("{name}: {:.1} GFLOP/s", t.gflops());
            }
        }
    }
    for p in timing::packers(200) {
        let name = format!("pack {} ({}x{} f32)", p.panels, p.len, p.kc);
        if name.contains(&filter) {
            println!(
                "{name}: AVX2 transposes {:.1} us, generic {:.1} us",
                p.simd_seconds * 1e6,
                p.generic_seconds * 1e6
            );
        }
    }
}
