//! Kernels over run-time layouts (issue 22) against the static items for the same numbers and
//! against faer: a transpose through a dynamic copy item, the run-time `copy` and a kept
//! `CopyPlan`; SGEMM 1024³ through a dynamic gemm item against the static item and faer (one
//! thread); an 8×8×8 GEMM through a dynamic item against the static item; and the cost of
//! building a plan. Contenders run alternately in rounds (the order rotating), for
//! `DYN_KERNELS_SECS` seconds per case (default 2); printed: the best round of each (µs or ns
//! per call) and its ratio to the first contender, the median of the per-round ratios in
//! brackets.
//!
//! Run: `cd bench && cargo bench --bench dyn_kernels [-- FILTER]`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use cute_layout::__private::{Strides, small_gemm_dyn, small_gemm_strided};
use cute_layout::gemm::gemm_views;
use cute_layout::kernels::{DstView, SrcView};
use cute_layout::{CopyPlan, GemmPlan, Tensor, TensorMut, copy, layout};
use faer::linalg::matmul::matmul as faer_matmul;
use faer::{Accum, Par};

layout! {
    pub ColMajor = (M,N):(1,LDS) where LDS >= M;
    pub RowMajor = (M,N):(LDD,1) where LDD >= N;
    pub fn transpose_dyn = copy(ColMajor, RowMajor);
    pub fn transpose_1000 = copy((1000,1000):(1,1000), (1000,1000):(1000,1));
    pub fn transpose_4096 = copy((4096,4096):(1,4096), (4096,4096):(4096,1));
    pub A = (M,K):(1,LDA) where LDA >= M;
    pub B = (N,K):(LDB,1) where LDB >= K;
    pub C = (M,N):(1,LDC) where LDC >= M;
    pub fn sgemm_dyn = gemm(f32, A, B, C);
    pub fn sgemm_1024 = gemm(f32, (1024,1024):(1,1024), (1024,1024):(1024,1), (1024,1024):(1,1024));
    pub fn sgemm_8 = gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));
    /// A static 8×8 tile of each operand with a run-time leading dimension.
    pub TA = (8,8):(1,LDA) where LDA >= 8;
    pub TB = (8,8):(LDB,1) where LDB >= 8;
    pub TC = (8,8):(1,LDC) where LDC >= 8;
    pub fn sgemm_tile8 = gemm(f32, TA, TB, TC);
    pub fn transpose_16 = copy((16,16):(1,16), (16,16):(16,1));
    pub fn transpose_64 = copy((64,64):(1,64), (64,64):(64,1));
    pub fn transpose_8 = copy((8,8):(1,8), (8,8):(8,1));
    pub fn transpose_4x8 = copy((4,8):(1,4), (4,8):(8,1));
    /// Static tiles with run-time leading dimensions.
    pub S8 = (8,8):(1,LDS) where LDS >= 8;
    pub D8 = (8,8):(LDD,1) where LDD >= 8;
    pub fn tile8_t = copy(S8, D8);
    pub S48 = (4,8):(1,LDS) where LDS >= 4;
    pub D48 = (4,8):(LDD,1) where LDD >= 8;
    pub fn tile48_t = copy(S48, D48);
}

std::thread_local! {
    /// The per-thread plan a dynamic copy item kept before its body was planned at expansion.
    static KEPT: cute_layout::__private::CopyCache<ColMajor, RowMajor> = const { std::cell::RefCell::new(None) };
}

fn secs() -> Duration {
    let s = std::env::var("DYN_KERNELS_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(s)
}

type Contender<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Rounds of `calls` calls of each contender, the order rotating; per contender the seconds
/// per call of each round.
fn interleave(calls: usize, fs: &mut [Contender<'_>]) -> Vec<Vec<f64>> {
    for (_, f) in fs.iter_mut() {
        f();
    }
    let k = fs.len();
    let mut times = vec![Vec::new(); k];
    let end = Instant::now() + secs();
    let mut round = 0;
    while Instant::now() < end || round < 5 {
        for i in 0..k {
            let j = (i + round) % k;
            let t = Instant::now();
            for _ in 0..calls {
                (fs[j].1)();
            }
            times[j].push(t.elapsed().as_secs_f64() / calls as f64);
        }
        round += 1;
    }
    times
}

fn case(name: &str, calls: usize, mut fs: Vec<Contender<'_>>) {
    let times = interleave(calls, &mut fs);
    let best = |t: &[f64]| t.iter().copied().fold(f64::MAX, f64::min);
    let show = |s: f64| if s < 1e-6 { format!("{:.1} ns", s * 1e9) } else { format!("{:.2} µs", s * 1e6) };
    let b0 = best(&times[0]);
    let mut row = format!("| {name} | {}: {} |", fs[0].0, show(b0));
    for (j, t) in times.iter().enumerate().skip(1) {
        let mut r: Vec<f64> = t.iter().zip(&times[0]).map(|(x, y)| x / y).collect();
        r.sort_by(f64::total_cmp);
        row += &format!(" {}: {} **{:.3}** ({:.3}) |", fs[j].0, show(best(t)), best(t) / b0, r[r.len() / 2]);
    }
    println!("{row}");
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn transposes(filter: &str) {
    for n in [1000usize, 4096] {
        let name = format!("transpose/f32/{n}");
        if !name.contains(filter) {
            continue;
        }
        let src: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
        let mut d1 = vec![0f32; n * n];
        let mut d2 = vec![0f32; n * n];
        let mut d3 = vec![0f32; n * n];
        let mut d4 = vec![0f32; n * n];
        let (sl, dl) = (ColMajor::new(n, n, n).unwrap(), RowMajor::new(n, n, n).unwrap());
        let plan = CopyPlan::new(&sl, &dl).unwrap();
        let s = Tensor::new(&src, sl).unwrap();
        let calls = if n == 1000 { 8 } else { 1 };
        case(
            &name,
            calls,
            vec![
                (
                    "static item",
                    Box::new(|| {
                        if n == 1000 {
                            transpose_1000(black_box(&src), &mut d1)
                        } else {
                            transpose_4096(black_box(&src), &mut d1)
                        }
                    }),
                ),
                ("dynamic item", Box::new(|| transpose_dyn(black_box(&s), &mut TensorMut::new(&mut d2, dl).unwrap()))),
                ("run-time copy", Box::new(|| copy(black_box(&s), &mut TensorMut::new(&mut d3, dl).unwrap()))),
                ("CopyPlan::run", Box::new(|| plan.run(black_box(&s), &mut TensorMut::new(&mut d4, dl).unwrap()))),
            ],
        );
    }
}

/// Small transposes, where the plan's cost shows (the tensors made once, outside the calls):
/// the static item, the dynamic item (planned
/// at expansion), the kept per-thread plan the dynamic item ran before, and a kept `CopyPlan`.
fn small_transposes(filter: &str) {
    for n in [16usize, 64] {
        let name = format!("transpose/f32/{n}");
        if !name.contains(filter) {
            continue;
        }
        let src: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
        let (mut d1, mut d2, mut d3, mut d4) = (aligned(n * n), aligned(n * n), aligned(n * n), aligned(n * n));
        let (sl, dl) = (ColMajor::new(n, n, n).unwrap(), RowMajor::new(n, n, n).unwrap());
        let plan = CopyPlan::new(&sl, &dl).unwrap();
        let s = Tensor::new(&src, sl).unwrap();
        case(
            &name,
            if n == 16 { 1000 } else { 100 },
            vec![
                (
                    "static item",
                    Box::new(|| {
                        if n == 16 {
                            transpose_16(black_box(&src), &mut d1.0[d1.1..])
                        } else {
                            transpose_64(black_box(&src), &mut d1.0[d1.1..])
                        }
                    }),
                ),
                (
                    "dynamic item",
                    Box::new({
                        let mut t = TensorMut::new(&mut d2.0[d2.1..], dl).unwrap();
                        let s = &s;
                        move || transpose_dyn(black_box(s), &mut t)
                    }),
                ),
                (
                    "kept plan (before)",
                    Box::new({
                        let mut t = TensorMut::new(&mut d3.0[d3.1..], dl).unwrap();
                        let s = &s;
                        move || cute_layout::__private::copy_cached(&KEPT, black_box(s), &mut t, false).unwrap()
                    }),
                ),
                (
                    "CopyPlan::run",
                    Box::new({
                        let mut t = TensorMut::new(&mut d4.0[d4.1..], dl).unwrap();
                        let (s, plan) = (&s, &plan);
                        move || plan.run(black_box(s), &mut t)
                    }),
                ),
            ],
        );
    }
    for (r, c) in [(8usize, 8usize), (4, 8)] {
        let name = format!("transpose/f32/tile {r}x{c}, ld 100");
        if !name.contains(filter) {
            continue;
        }
        let ld = 100;
        let src: Vec<f32> = (0..ld * ld).map(|i| i as f32).collect();
        let (mut d0, mut d1, mut d2) = (aligned(r * c), aligned(ld * ld), aligned(ld * ld));
        let packed: Vec<f32> = src[..r * c].to_vec();
        if r == 8 {
            let (sl, dl) = (S8::new(ld).unwrap(), D8::new(ld).unwrap());
            let s = Tensor::new(&src, sl).unwrap();
            let plan = CopyPlan::new(&sl, &dl).unwrap();
            case(
                &name,
                1000,
                vec![
                    ("static item (ld 8)", Box::new(|| transpose_8(black_box(&packed), &mut d0.0[d0.1..]))),
                    (
                        "static tile, run-time ld",
                        Box::new({
                            let mut t = TensorMut::new(&mut d1.0[d1.1..], dl).unwrap();
                            let s = &s;
                            move || tile8_t(black_box(s), &mut t)
                        }),
                    ),
                    (
                        "CopyPlan::run",
                        Box::new({
                            let mut t = TensorMut::new(&mut d2.0[d2.1..], dl).unwrap();
                            let (s, plan) = (&s, &plan);
                            move || plan.run(black_box(s), &mut t)
                        }),
                    ),
                ],
            );
        } else {
            let (sl, dl) = (S48::new(ld).unwrap(), D48::new(ld).unwrap());
            let s = Tensor::new(&src, sl).unwrap();
            let plan = CopyPlan::new(&sl, &dl).unwrap();
            case(
                &name,
                1000,
                vec![
                    ("static item (ld 4, 8)", Box::new(|| transpose_4x8(black_box(&packed), &mut d0.0[d0.1..]))),
                    (
                        "static tile, run-time ld",
                        Box::new({
                            let mut t = TensorMut::new(&mut d1.0[d1.1..], dl).unwrap();
                            let s = &s;
                            move || tile48_t(black_box(s), &mut t)
                        }),
                    ),
                    (
                        "CopyPlan::run",
                        Box::new({
                            let mut t = TensorMut::new(&mut d2.0[d2.1..], dl).unwrap();
                            let (s, plan) = (&s, &plan);
                            move || plan.run(black_box(s), &mut t)
                        }),
                    ),
                ],
            );
        }
    }
}

/// A zeroed buffer of `len` elements and the index where a 64-byte line starts, so that
/// the contenders' destinations are aligned alike.
fn aligned(len: usize) -> (Vec<f32>, usize) {
    let v = vec![0f32; len + 16];
    let off = (64 - (v.as_ptr() as usize) % 64) % 64 / 4;
    (v, off)
}

fn sgemms(filter: &str, one: &rayon::ThreadPool) {
    let name = "sgemm/1t/1024";
    if name.contains(filter) {
        let n = 1024;
        let a: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 13) as f32 / 13.0 - 0.5).collect();
        let b: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 11) as f32 / 11.0 - 0.5).collect();
        let (mut c1, mut c2, mut c3) = (vec![0f32; n * n], vec![0f32; n * n], vec![0f32; n * n]);
        let (la, lb, lc) = (A::new(n, n, n).unwrap(), B::new(n, n, n).unwrap(), C::new(n, n, n).unwrap());
        let (ta, tb) = (Tensor::new(&a, la).unwrap(), Tensor::new(&b, lb).unwrap());
        one.install(|| {
            case(
                name,
                1,
                vec![
                    ("static item", Box::new(|| sgemm_1024(1.0, black_box(&a), &b, 0.0, &mut c1))),
                    (
                        "dynamic item",
                        Box::new(|| {
                            sgemm_dyn(1.0, black_box(&ta), &tb, 0.0, &mut TensorMut::new(&mut c2, lc).unwrap())
                        }),
                    ),
                    (
                        "faer",
                        Box::new(|| {
                            // B as (N,K) row-major is k×n column-major.
                            let fa = faer::MatRef::from_column_major_slice(black_box(&a), n, n);
                            let fb = faer::MatRef::from_column_major_slice(&b, n, n);
                            let fc = faer::MatMut::from_column_major_slice_mut(&mut c3, n, n);
                            faer_matmul(fc, Accum::Replace, fa, fb, 1.0f32, Par::Seq);
                        }),
                    ),
                ],
            )
        });
    }
    let name = "sgemm/8";
    if name.contains(filter) {
        let a: Vec<f32> = (0..64).map(|i| i as f32 / 64.0).collect();
        let b: Vec<f32> = (0..64).map(|i| 1.0 - i as f32 / 64.0).collect();
        let (mut c1, mut c2, mut c3, mut c4, mut c5) = ([0f32; 64], [0f32; 64], [0f32; 64], [0f32; 64], [0f32; 64]);
        let (mut c6, mut c7) = ([0f32; 64], [0f32; 64]);
        let (ta8, tb8, tc8) = (TA::new(8).unwrap(), TB::new(8).unwrap(), TC::new(8).unwrap());
        let (sa8, sb8) = (Tensor::new(&a, ta8).unwrap(), Tensor::new(&b, tb8).unwrap());
        let (la, lb, lc) = (A::new(8, 8, 8).unwrap(), B::new(8, 8, 8).unwrap(), C::new(8, 8, 8).unwrap());
        let (ta, tb) = (Tensor::new(&a, la).unwrap(), Tensor::new(&b, lb).unwrap());
        let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
        case(
            name,
            2000,
            vec![
                ("static item", Box::new(|| sgemm_8(1.0, black_box(&a), &b, 0.0, &mut c1))),
                (
                    "dynamic item",
                    Box::new(|| sgemm_dyn(1.0, black_box(&ta), &tb, 0.0, &mut TensorMut::new(&mut c2, lc).unwrap())),
                ),
                (
                    "static tile, run-time strides",
                    Box::new(|| {
                        sgemm_tile8(1.0, black_box(&sa8), &sb8, 0.0, &mut TensorMut::new(&mut c5, tc8).unwrap())
                    }),
                ),
                (
                    "GemmPlan::run",
                    Box::new(|| plan.run(1.0, black_box(&ta), &tb, 0.0, &mut TensorMut::new(&mut c3, lc).unwrap())),
                ),
                (
                    "raw kernel, static extents",
                    Box::new(|| {
                        let (va, vb) = (SrcView::new(black_box(&a), 0), SrcView::new(&b, 0));
                        let mut vc = DstView::new(&mut c6, 0);
                        let s = Strides { ars: 1, acs: 8, brs: 1, bcs: 8, crs: 1, ccs: 8 };
                        small_gemm_strided::<f32, 8, 8, 8>(1.0, &va, 0, &vb, 0, 0.0, &mut vc, 0, black_box(s));
                    }),
                ),
                (
                    "raw kernel, run-time extents",
                    Box::new(|| {
                        let (va, vb) = (SrcView::new(black_box(&a), 0), SrcView::new(&b, 0));
                        let mut vc = DstView::new(&mut c7, 0);
                        let s = Strides { ars: 1, acs: 8, brs: 1, bcs: 8, crs: 1, ccs: 8 };
                        small_gemm_dyn(black_box((8, 8, 8)), 1.0, &va, 0, &vb, 0, 0.0, &mut vc, 0, black_box(s));
                    }),
                ),
                (
                    "gemm_views",
                    Box::new(|| {
                        let (va, vb) = (SrcView::new(black_box(&a), 0), SrcView::new(&b, 0));
                        let mut vc = DstView::new(&mut c4, 0);
                        gemm_views(8, 8, 8, 1.0, &va, 0, 1, 8, &vb, 0, 1, 8, 0.0, &mut vc, 0, 1, 8);
                    }),
                ),
            ],
        );
    }
}

fn plans(filter: &str) {
    let name = "plan/build";
    if !name.contains(filter) {
        return;
    }
    let (sl, dl) = (ColMajor::new(1000, 1000, 1000).unwrap(), RowMajor::new(1000, 1000, 1000).unwrap());
    let (la, lb, lc) =
        (A::new(1024, 1024, 1024).unwrap(), B::new(1024, 1024, 1024).unwrap(), C::new(1024, 1024, 1024).unwrap());
    case(
        name,
        1000,
        vec![
            ("CopyPlan::new 1000²", Box::new(|| drop(black_box(CopyPlan::new(black_box(&sl), &dl).unwrap())))),
            ("GemmPlan::new 1024³", Box::new(|| drop(black_box(GemmPlan::new(black_box(&la), &lb, &lc).unwrap())))),
        ],
    );
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    println!("load average at the start: {}", loadavg());
    println!("| case | first | others: best, ratio to the first (median) |");
    println!("|---|---|---|");
    transposes(&filter);
    small_transposes(&filter);
    sgemms(&filter, &one);
    plans(&filter);
    println!("load average at the end: {}", loadavg());
}
