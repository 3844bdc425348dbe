//! GEMM against every Rust peer in one binary (issue "GEMM ahead of every Rust peer"):
//! `cute_layout::gemm::matmul` against faer 0.24, the gemm crate 0.19 (feature `x86-v4`: its
//! AVX-512 kernels) and matrixmultiply 0.3 (features `threading`, `avx512`), in interleaved
//! rounds so that all four see the same load. C = A·B (β = 0), every operand column-major.
//!
//! The thread count is one per process (matrixmultiply reads it once):
//! `GEMM_PEERS_THREADS=T` (default 1) sizes rayon's global pool (layout's engine, faer's and
//! the gemm crate's `Rayon(T)`) and `MATMUL_NUM_THREADS`. Each case runs for
//! `GEMM_PEERS_SECS` seconds (default 1), at least 3 rounds. Printed per case: the best round
//! of each in GFLOP/s and layout's best over the best peer's best; one thread also prints the
//! FMA peak of one core measured in the same run. `GEMM_PEERS_SKIP=NAME[,NAME]` leaves those
//! contenders out (their columns print 0.0).
//!
//! Run: `cd bench && GEMM_PEERS_THREADS=16 cargo bench --bench gemm_peers [-- FILTER]`
//! (FILTER: a substring of the case names, e.g. `f32/`, `square`, `shapes`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use cute_layout::gemm::{GemmScalar, MatMut, MatRef, matmul};
use faer::{Accum, Par};

/// The element types with every peer's entry.
trait Elem: GemmScalar + faer::traits::ComplexField + Default {
    const NAME: &'static str;
    fn from_f64(x: f64) -> Self;
    /// matrixmultiply's `sgemm` / `dgemm`: C = A·B over column-major operands.
    fn mm(m: usize, n: usize, k: usize, a: &[Self], b: &[Self], c: &mut [Self]);
}

impl Elem for f32 {
    const NAME: &'static str = "f32";
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn mm(m: usize, n: usize, k: usize, a: &[Self], b: &[Self], c: &mut [Self]) {
        // SAFETY: A is m×k, B k×n, C m×n, column-major in buffers of exactly that size.
        unsafe {
            matrixmultiply::sgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                1,
                m as isize,
                b.as_ptr(),
                1,
                k as isize,
                0.0,
                c.as_mut_ptr(),
                1,
                m as isize,
            )
        }
    }
}

impl Elem for f64 {
    const NAME: &'static str = "f64";
    fn from_f64(x: f64) -> Self {
        x
    }
    fn mm(m: usize, n: usize, k: usize, a: &[Self], b: &[Self], c: &mut [Self]) {
        // SAFETY: as for f32.
        unsafe {
            matrixmultiply::dgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                1,
                m as isize,
                b.as_ptr(),
                1,
                k as isize,
                0.0,
                c.as_mut_ptr(),
                1,
                m as isize,
            )
        }
    }
}

struct Operands<T> {
    m: usize,
    n: usize,
    k: usize,
    a: Vec<T>,
    b: Vec<T>,
    c: Vec<T>,
}

impl<T: Elem> Operands<T> {
    fn new(m: usize, n: usize, k: usize) -> Self {
        let fill = |len: usize, seed: usize| {
            (0..len).map(|i| T::from_f64(((i * 7 + seed) % 13) as f64 / 13.0 - 0.5)).collect()
        };
        Operands { m, n, k, a: fill(m * k, 1), b: fill(k * n, 2), c: vec![T::default(); m * n] }
    }

    fn run(&mut self, who: usize, threads: usize) {
        let (m, n, k) = (self.m, self.n, self.k);
        match who {
            0 => matmul(
                T::ONE,
                MatRef::from_slice(black_box(&self.a), m, k, 1, m as isize),
                MatRef::from_slice(&self.b, k, n, 1, k as isize),
                T::ZERO,
                MatMut::from_slice(&mut self.c, m, n, 1, m as isize),
            ),
            1 => {
                let par = if threads > 1 { Par::rayon(threads) } else { Par::Seq };
                let a = faer::MatRef::from_column_major_slice(black_box(&self.a), m, k);
                let b = faer::MatRef::from_column_major_slice(&self.b, k, n);
                let c = faer::MatMut::from_column_major_slice_mut(&mut self.c, m, n);
                faer::linalg::matmul::matmul(c, Accum::Replace, a, b, T::ONE, par);
            }
            2 => {
                let par =
                    if threads > 1 { gemm_peer::Parallelism::Rayon(threads) } else { gemm_peer::Parallelism::None };
                // SAFETY: A is m×k, B k×n, C m×n, column-major in buffers of exactly that size;
                // `read_dst = false`, so C is only written.
                unsafe {
                    gemm_peer::gemm(
                        m,
                        n,
                        k,
                        self.c.as_mut_ptr(),
                        m as isize,
                        1,
                        false,
                        black_box(self.a.as_ptr()),
                        m as isize,
                        1,
                        self.b.as_ptr(),
                        k as isize,
                        1,
                        T::ZERO,
                        T::ONE,
                        false,
                        false,
                        false,
                        par,
                    )
                }
            }
            _ => T::mm(m, n, k, black_box(&self.a), &self.b, &mut self.c),
        }
    }
}

const WHO: [&str; 4] = ["layout", "faer", "gemm", "matrixmultiply"];

fn secs() -> Duration {
    let s = std::env::var("GEMM_PEERS_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(1.0);
    Duration::from_secs_f64(s)
}

/// Interleaved rounds of the four; the best seconds per call of each.
fn interleave<T: Elem>(o: &mut Operands<T>, threads: usize, calls: usize) -> [f64; 4] {
    let mut best = [f64::MAX; 4];
    let skipped = std::env::var("GEMM_PEERS_SKIP").unwrap_or_default();
    let skip = WHO.map(|w| skipped.split(',').any(|s| s == w));
    for who in (0..4).filter(|&w| !skip[w]) {
        o.run(who, threads);
    }
    let end = Instant::now() + secs();
    let mut rounds = 0;
    while Instant::now() < end || rounds < 3 {
        for i in 0..4 {
            let who = (i + rounds) % 4;
            if skip[who] {
                continue;
            }
            let t = Instant::now();
            for _ in 0..calls {
                o.run(who, threads);
            }
            best[who] = best[who].min(t.elapsed().as_secs_f64() / calls as f64);
        }
        rounds += 1;
    }
    best
}

fn case<T: Elem>(name: &str, m: usize, n: usize, k: usize, threads: usize) {
    let flop = 2.0 * (m * n * k) as f64;
    let calls = ((2e8 * threads as f64 / flop).ceil() as usize).max(1);
    let mut o = Operands::<T>::new(m, n, k);
    let best = interleave(&mut o, threads, calls);
    let g = best.map(|t| flop / t / 1e9);
    let peer = g[1].max(g[2]).max(g[3]);
    let who = WHO[(1..4).max_by(|&x, &y| g[x].total_cmp(&g[y])).unwrap_or(1)];
    println!(
        "| {threads}t/{}/{name} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} ({who}) |",
        T::NAME,
        g[0],
        g[1],
        g[2],
        g[3],
        g[0] / peer
    );
}

/// The best GFLOP/s of 24 independent zmm (12 ymm on AVX2) FMA chains, f32 and f64.
#[cfg(target_arch = "x86_64")]
fn peak() -> Option<(f64, f64)> {
    use core::arch::x86_64::*;
    #[target_feature(enable = "avx512f")]
    fn chains512(iters: usize, f64_: bool) -> f64 {
        let mut acc = [_mm512_set1_ps(0.0); 24];
        let (x, y) = (_mm512_set1_ps(black_box(0.999_999)), _mm512_set1_ps(black_box(1e-7)));
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
    #[target_feature(enable = "avx2,fma")]
    fn chains256(iters: usize, f64_: bool) -> f64 {
        let mut acc = [_mm256_set1_ps(0.0); 12];
        let (x, y) = (_mm256_set1_ps(black_box(0.999_999)), _mm256_set1_ps(black_box(1e-7)));
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
    let avx512 = is_x86_feature_detected!("avx512f");
    if !avx512 && !(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")) {
        return None;
    }
    let mut best = (0.0f64, 0.0f64);
    let end = Instant::now() + Duration::from_millis(300);
    while Instant::now() < end {
        for f64_ in [false, true] {
            let t = Instant::now();
            // SAFETY: the features were detected above.
            let flop = unsafe { if avx512 { chains512(1 << 16, f64_) } else { chains256(1 << 16, f64_) } };
            let g = flop / t.elapsed().as_secs_f64() / 1e9;
            if f64_ { best.1 = best.1.max(g) } else { best.0 = best.0.max(g) }
        }
    }
    Some(best)
}

#[cfg(not(target_arch = "x86_64"))]
fn peak() -> Option<(f64, f64)> {
    None
}

fn main() {
    let threads: usize = std::env::var("GEMM_PEERS_THREADS").ok().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    // SAFETY: no other thread exists yet; matrixmultiply reads the variable on its first call.
    unsafe { std::env::set_var("MATMUL_NUM_THREADS", threads.to_string()) };
    rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().expect("the global pool is built once");
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("threads {threads}, load average at the start: {}", load.trim());
    if let Some((p32, p64)) = peak() {
        println!("FMA peak of one core: f32 {p32:.1} GFLOP/s, f64 {p64:.1} GFLOP/s");
    }
    if threads > 1 {
        // Every pool thread at once: how many cores' worth of FMA units the threads really
        // have (hyperthreads share them).
        let t = Instant::now();
        let all: Vec<Option<(f64, f64)>> = rayon::broadcast(|_| peak());
        let secs = t.elapsed().as_secs_f64();
        let sum32: f64 = all.iter().flatten().map(|p| p.0).sum();
        let sum64: f64 = all.iter().flatten().map(|p| p.1).sum();
        println!(
            "FMA peak of {threads} threads at once (sum, {secs:.1} s): f32 {sum32:.1} GFLOP/s, f64 {sum64:.1} GFLOP/s"
        );
    }
    println!("| case | layout | faer | gemm | matrixmultiply | layout / best peer |");
    println!("|---|---|---|---|---|---|");
    let mut squares = vec![64, 128, 256, 512, 1024, 2048];
    if threads >= 8 {
        squares.push(4096);
    }
    let shapes = [
        ("shapes/4096x16x4096", 4096, 16, 4096),
        ("shapes/16x4096x4096", 16, 4096, 4096),
        ("shapes/4096x4096x16", 4096, 4096, 16),
        ("shapes/1000x1000x1000", 1000, 1000, 1000),
        ("shapes/257x513x129", 257, 513, 129),
        ("shapes/2048x256x2048", 2048, 256, 2048),
        ("shapes/96x3072x768", 96, 3072, 768),
    ];
    for t in ["f32", "f64"] {
        let mut all: Vec<(String, usize, usize, usize)> =
            squares.iter().map(|&n| (format!("square/{n}"), n, n, n)).collect();
        all.extend(shapes.iter().map(|&(s, m, n, k)| (s.to_string(), m, n, k)));
        for (name, m, n, k) in all {
            if !format!("{threads}t/{t}/{name}").contains(&filter) {
                continue;
            }
            if t == "f32" {
                case::<f32>(&name, m, n, k, threads);
            } else {
                case::<f64>(&name, m, n, k, threads);
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at the end: {}", load.trim());
}
