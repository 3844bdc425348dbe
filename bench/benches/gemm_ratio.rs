//! Interleaved GEMM ratios: `cute_layout`'s engine (or a static `layout!` item) against faer
//! 0.24, run alternately in rounds so that both see the same load of this shared machine, and
//! the FMA peak of one core measured between the cases in the same run.
//!
//! Each case runs for `GEMM_RATIO_SECS` seconds (default 3): rounds of at least 2·10⁸ FLOP
//! (2000 calls for the small problems), layout and faer alternating. Printed per case: the
//! best round of each in GFLOP/s (or ns per call for the small ones), the ratio of the best
//! rounds, and in brackets the median of the per-pair ratios. The peak is the best of
//! 24 independent zmm FMA chains (AVX-512; 12 ymm chains on AVX2), f32 and f64.
//!
//! Run: `cd bench && cargo bench --bench gemm_ratio [-- FILTER]` (FILTER: a substring of the
//! case names, e.g. `1t`, `small`, `2t`, `shapes`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use cute_layout::gemm::gemm;
use faer::linalg::matmul::matmul as faer_matmul;
use faer::{Accum, Par};

#[path = "common/gemm_elem.rs"]
mod gemm_elem;
use gemm_elem::Elem;

/// `C = A·B` (β = 0), C column-major; A and B column-major or row-major (`ta`, `tb`).
struct Operands<T> {
    m: usize,
    n: usize,
    k: usize,
    a: Vec<T>,
    b: Vec<T>,
    c: Vec<T>,
    ta: bool,
    tb: bool,
}

impl<T: Elem> Operands<T> {
    fn new(m: usize, n: usize, k: usize, ta: bool, tb: bool) -> Self {
        let fill = |len: usize, seed: usize| {
            (0..len).map(|i| T::from_f64(((i * 7 + seed) % 13) as f64 / 13.0 - 0.5)).collect()
        };
        Operands { m, n, k, a: fill(m * k, 1), b: fill(k * n, 2), c: vec![T::default(); m * n], ta, tb }
    }

    fn layout(&mut self) {
        let (m, n, k) = (self.m, self.n, self.k);
        let (ars, acs) = if self.ta { (k as isize, 1) } else { (1, m as isize) };
        let (brs, bcs) = if self.tb { (n as isize, 1) } else { (1, k as isize) };
        // SAFETY: A is m×k, B k×n, C m×n, each in its own buffer of that size, with these strides.
        unsafe {
            gemm(
                m,
                n,
                k,
                T::ONE,
                black_box(self.a.as_ptr()),
                ars,
                acs,
                self.b.as_ptr(),
                brs,
                bcs,
                T::ZERO,
                self.c.as_mut_ptr(),
                1,
                m as isize,
            )
        }
    }

    fn faer(&mut self, par: Par) {
        let (m, n, k) = (self.m, self.n, self.k);
        let a = if self.ta {
            faer::MatRef::from_row_major_slice(&self.a, m, k)
        } else {
            faer::MatRef::from_column_major_slice(&self.a, m, k)
        };
        let b = if self.tb {
            faer::MatRef::from_row_major_slice(&self.b, k, n)
        } else {
            faer::MatRef::from_column_major_slice(&self.b, k, n)
        };
        let c = faer::MatMut::from_column_major_slice_mut(&mut self.c, m, n);
        faer_matmul(c, Accum::Replace, black_box(a), b, T::ONE, par);
    }
}

fn secs() -> Duration {
    let s = std::env::var("GEMM_RATIO_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(3.0);
    Duration::from_secs_f64(s)
}

/// Alternating rounds of `calls` calls of `x` and `y`: (best seconds per call of x, of y,
/// median of the per-round ratios time(y)/time(x)).
fn interleave(calls: usize, mut x: impl FnMut(), mut y: impl FnMut()) -> (f64, f64, f64) {
    let round = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        t.elapsed().as_secs_f64() / calls as f64
    };
    x();
    y();
    let (mut bx, mut by, mut ratios) = (f64::MAX, f64::MAX, Vec::new());
    let end = Instant::now() + secs();
    while Instant::now() < end || ratios.len() < 3 {
        let tx = round(&mut x);
        let ty = round(&mut y);
        bx = bx.min(tx);
        by = by.min(ty);
        ratios.push(ty / tx);
    }
    ratios.sort_by(f64::total_cmp);
    (bx, by, ratios[ratios.len() / 2])
}

/// `GEMM_RATIO_LAYOUT_ONLY=CALLS`: run only layout's engine, CALLS calls per case, and no
/// FMA peak (for `perf stat -e cycles:u`, whose count other processes do not inflate).
fn layout_only() -> Option<usize> {
    std::env::var("GEMM_RATIO_LAYOUT_ONLY").ok().and_then(|s| s.parse().ok())
}

fn calls_for(flop: f64) -> usize {
    ((2e8 / flop).ceil() as usize).max(1)
}

#[allow(clippy::too_many_arguments)]
fn case<T: Elem>(name: &str, m: usize, n: usize, k: usize, ta: bool, tb: bool, pool: &rayon::ThreadPool, par: Par) {
    let flop = 2.0 * (m * n * k) as f64;
    if let Some(calls) = layout_only() {
        // For counting cycles with `perf stat -e cycles:u` (robust to other processes'
        // load): only layout's engine, `calls` calls, no timing.
        pool.install(|| {
            let mut o = Operands::<T>::new(m, n, k, ta, tb);
            for _ in 0..calls {
                o.layout();
            }
        });
        println!("| {name} | {:.4e} FLOP |", flop * calls as f64);
        return;
    }
    let (l, f, med) = pool.install(|| {
        let o = std::cell::RefCell::new(Operands::<T>::new(m, n, k, ta, tb));
        interleave(calls_for(flop), || o.borrow_mut().layout(), || o.borrow_mut().faer(par))
    });
    println!("| {name} | {:.1} | {:.1} | {:.2} ({:.2}) |", flop / l / 1e9, flop / f / 1e9, f / l, med);
}

fn small<T: Elem>(n: usize) {
    let mut o = Operands::<T>::new(n, n, n, false, false);
    let (a, b) = (o.a.clone(), o.b.clone());
    let mut c = o.c.clone();
    let (s, f, med) = interleave(2000, || T::run_static(n, black_box(&a), &b, black_box(&mut c)), || o.faer(Par::Seq));
    println!("| small/{}/{n} | {:.1} ns | {:.1} ns | {:.2} ({:.2}) |", T::NAME, s * 1e9, f * 1e9, f / s, med);
}

/// The run-time `gemm` on an n×n×n problem against faer, in ns per call.
fn small_rt<T: Elem>(name: &str, n: usize) {
    let o = std::cell::RefCell::new(Operands::<T>::new(n, n, n, false, false));
    let (l, f, med) = interleave(2000, || o.borrow_mut().layout(), || o.borrow_mut().faer(Par::Seq));
    println!("| {name} | {:.1} ns | {:.1} ns | {:.2} ({:.2}) |", l * 1e9, f * 1e9, f / l, med);
}

/// The best GFLOP/s of independent FMA chains over `secs()/4` (f32, f64); `None` without AVX2.
fn peak() -> Option<(f64, f64)> {
    #[cfg(target_arch = "x86_64")]
    {
        let avx512 = is_x86_feature_detected!("avx512f");
        if !(avx512 || is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
            return None;
        }
        let iters = 1usize << 16;
        let mut best = (0.0f64, 0.0f64);
        let end = Instant::now() + secs() / 4;
        while Instant::now() < end {
            for f64_ in [false, true] {
                let t = Instant::now();
                // SAFETY: the features were detected above.
                let flop = unsafe { if avx512 { fma::chains512(iters, f64_) } else { fma::chains256(iters, f64_) } };
                let g = flop / t.elapsed().as_secs_f64() / 1e9;
                if f64_ { best.1 = best.1.max(g) } else { best.0 = best.0.max(g) }
            }
        }
        Some(best)
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

#[cfg(target_arch = "x86_64")]
mod fma {
    use core::arch::x86_64::*;
    use std::hint::black_box;

    /// 24 independent zmm FMA chains for `iters` steps; the FLOP count.
    ///
    /// # Safety
    /// The CPU has AVX-512F (the caller checks `is_x86_feature_detected!`); no memory is touched.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn chains512(iters: usize, f64_: bool) -> f64 {
        let mut acc = [_mm512_set1_ps(0.0); 24];
        let x = _mm512_set1_ps(black_box(0.999_999));
        let y = _mm512_set1_ps(black_box(1e-7));
        for _ in 0..iters {
            for a in acc.iter_mut() {
                *a = if f64_ {
                    _mm512_castpd_ps(_mm512_fmadd_pd(_mm512_castps_pd(*a), _mm512_castps_pd(x), _mm512_castps_pd(y)))
                } else {
                    _mm512_fmadd_ps(*a, x, y)
                };
            }
        }
        black_box(acc);
        (iters * 24 * 2 * if f64_ { 8 } else { 16 }) as f64
    }

    /// 12 independent ymm FMA chains for `iters` steps; the FLOP count.
    ///
    /// # Safety
    /// The CPU has AVX2 and FMA (the caller checks `is_x86_feature_detected!`); no memory is
    /// touched.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn chains256(iters: usize, f64_: bool) -> f64 {
        let mut acc = [_mm256_set1_ps(0.0); 12];
        let x = _mm256_set1_ps(black_box(0.999_999));
        let y = _mm256_set1_ps(black_box(1e-7));
        for _ in 0..iters {
            for a in acc.iter_mut() {
                *a = if f64_ {
                    _mm256_castpd_ps(_mm256_fmadd_pd(_mm256_castps_pd(*a), _mm256_castps_pd(x), _mm256_castps_pd(y)))
                } else {
                    _mm256_fmadd_ps(*a, x, y)
                };
            }
        }
        black_box(acc);
        (iters * 12 * 2 * if f64_ { 4 } else { 8 }) as f64
    }
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    let want = |name: &str| name.contains(&filter);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    println!("load average at the start: {}", loadavg());
    let mut peaks = Vec::new();
    let sample_peak = |peaks: &mut Vec<(f64, f64)>| {
        if layout_only().is_some() {
            return;
        }
        if let Some(p) = peak() {
            peaks.push(p);
        }
    };
    sample_peak(&mut peaks);
    println!("| case | layout | faer | layout/faer best (median) |");
    println!("|---|---|---|---|");
    for n in [256, 512, 1024, 2048] {
        for t in ["f32", "f64"] {
            let name = format!("1t/{t}/{n}");
            if want(&name) {
                if t == "f32" {
                    case::<f32>(&name, n, n, n, false, false, &one, Par::Seq);
                } else {
                    case::<f64>(&name, n, n, n, false, false, &one, Par::Seq);
                }
                sample_peak(&mut peaks);
            }
        }
    }
    for n in [4, 8, 16, 32] {
        if want(&format!("small/f32/{n}")) {
            small::<f32>(n);
        }
        if want(&format!("small/f64/{n}")) {
            small::<f64>(n);
        }
    }
    // The run-time small sizes (`gemm` with the extents as values: the direct kernel).
    for n in [8, 16, 32, 64] {
        for t in ["f32", "f64"] {
            let name = format!("small/rt/{t}/{n}");
            if want(&name) {
                if t == "f32" {
                    small_rt::<f32>(&name, n);
                } else {
                    small_rt::<f64>(&name, n);
                }
            }
        }
    }
    for n in [512, 1024, 2048] {
        let name = format!("2t/f32/{n}");
        if want(&name) {
            case::<f32>(&name, n, n, n, false, false, &two, Par::rayon(2));
        }
        let name = format!("2t/f64/{n}");
        if want(&name) {
            case::<f64>(&name, n, n, n, false, false, &two, Par::rayon(2));
        }
    }
    for (name, m, n, k, ta, tb) in [
        ("shapes/f32/tall_8192x64x256", 8192, 64, 256, false, false),
        ("shapes/f32/wide_64x8192x256", 64, 8192, 256, false, false),
        ("shapes/f32/ksmall_1024x1024x16", 1024, 1024, 16, false, false),
        ("shapes/f32/tn_1024", 1024, 1024, 1024, true, false),
        ("shapes/f32/nt_1024", 1024, 1024, 1024, false, true),
        ("shapes/f32/tt_1024", 1024, 1024, 1024, true, true),
    ] {
        if want(name) {
            case::<f32>(name, m, n, k, ta, tb, &one, Par::Seq);
        }
    }
    sample_peak(&mut peaks);
    if let (Some(lo32), Some(hi32)) =
        (peaks.iter().map(|p| p.0).min_by(f64::total_cmp), peaks.iter().map(|p| p.0).max_by(f64::total_cmp))
    {
        let hi64 = peaks.iter().map(|p| p.1).fold(0.0, f64::max);
        let lo64 = peaks.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        println!("FMA peak of one core in this run: f32 {lo32:.1}-{hi32:.1} GFLOP/s, f64 {lo64:.1}-{hi64:.1} GFLOP/s");
    }
    println!("load average at the end: {}", loadavg());
}
