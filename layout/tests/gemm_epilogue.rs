//! Fused epilogues: `f(x, m, n)` (`f(x, m, n, l)` with a batch index) gets each final element
//! `x = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` of C with its indices, and what it returns is
//! stored. Checked against a scalar reference over the layouts' indices, with every call of
//! `f` counted (each element of C exactly once, with its own indices), on every path: static
//! items (the straight-line kernel, 1³..32³, and the engine beyond), the run-time entries
//! (`gemm_with`, `gemm_batched_with`, `GemmPlan::run_with`) at direct, blocked and parallel
//! sizes, padded, row-major and negative-stride C, M, N and K of two leaves, a batch mode,
//! items over symbols; f32 and f64; alpha and beta including beta = 0 over a NaN C and
//! alpha = 0 over NaN A and B; at each dispatch level the CPU has.

use cute_layout::gemm::GemmScalar;
use cute_layout::kernels::{self, Element, Level};
use cute_layout::{
    GemmPlan, Offset, RuntimeLayout, Tensor, TensorMut, TrustedLayout, gemm_batched_with, gemm_with, layout,
    try_gemm_batched_with, try_gemm_with,
};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tests force the process-wide level; they take turns so each runs at the level it forced.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());

/// Runs `f` at every level the CPU has.
fn at_each_level(mut f: impl FnMut(Level)) {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for l in [Level::Portable, Level::Avx2, Level::Avx512] {
        if kernels::force_level(l) != l {
            println!("skipping level {l:?}: not available here");
            continue;
        }
        f(l);
    }
    kernels::force_level(Level::Avx512);
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

trait Real: GemmScalar + Element + Copy {
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    const EPS: f64;
}
impl Real for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
    fn get(self) -> f64 {
        self as f64
    }
    const EPS: f64 = f32::EPSILON as f64;
}
impl Real for f64 {
    fn of(x: f64) -> Self {
        x
    }
    fn get(self) -> f64 {
        self
    }
    const EPS: f64 = f64::EPSILON;
}

/// The epilogue the tests pass, as a trait object (the entries under test get a closure that
/// calls it): `f(x, m, n, l)`.
type Ep<'a, T> = &'a (dyn Fn(T, usize, usize, usize) -> T + Sync);

/// What `f` adds for element `(m, n)` of batch `l`: distinct for distinct indices, so a wrong
/// index shows in the value as well as in the counts.
fn mark(m: usize, n: usize, l: usize) -> f64 {
    m as f64 * 0.37 + n as f64 * 0.011 + l as f64 * 5.0 + 1.0
}

/// Runs `run` (one entry with the epilogue) over layouts `la`, `lb`, `lc` and checks C against
/// `f(reference)` with `f(x, m, n, l) = x/2 + mark(m, n, l)`, every element's `f` called
/// exactly once (or `per` times: a three-argument `f` over a batch mode sees each `(m, n)` once
/// per batch, as `l = 0`), and C's other elements untouched. `nan` puts NaN in A and B when
/// `alpha = 0` and in C when `beta = 0`.
#[allow(clippy::too_many_arguments)]
fn check<T: Real, A, B, C>(
    what: &str,
    r: &mut Rng,
    (la, lb, lc): (A, B, C),
    alpha: f64,
    beta: f64,
    three_args: bool,
    run: impl Fn(T, &Tensor<'_, T, A>, &Tensor<'_, T, B>, T, &mut TensorMut<'_, T, C>, Ep<'_, T>),
) where
    A: TrustedLayout + PartialEq + std::fmt::Debug,
    B: TrustedLayout + PartialEq + std::fmt::Debug,
    C: TrustedLayout + PartialEq + std::fmt::Debug,
{
    let span = |lo: isize, hi: isize| lo.unsigned_abs() + hi as usize + 1;
    let (na, nb, nc) = (
        span(la.min_offset(), la.max_offset()),
        span(lb.min_offset(), lb.max_offset()),
        span(lc.min_offset(), lc.max_offset()),
    );
    let nan_ab = alpha == 0.0;
    let a: Vec<f64> = (0..na).map(|_| if nan_ab { f64::NAN } else { r.unit() }).collect();
    let b: Vec<f64> = (0..nb).map(|_| if nan_ab { f64::NAN } else { r.unit() }).collect();
    let c0: Vec<f64> = (0..nc).map(|_| r.unit()).collect();
    let (m, n, k, batch) = GemmPlan::new(&la, &lb, &lc).unwrap().extents();
    let (ab, bb, cb) = (la.min_offset().unsigned_abs(), lb.min_offset().unsigned_abs(), lc.min_offset().unsigned_abs());
    let off = |l: &dyn Fn(usize) -> isize, base: usize, i: usize| (base as isize + l(i)) as usize;
    let (ao, bo, co) =
        (|i| Offset::to_isize(la.offset(i)), |i| Offset::to_isize(lb.offset(i)), |i| Offset::to_isize(lc.offset(i)));
    let (at, bt): (Vec<T>, Vec<T>) = (a.iter().map(|&x| T::of(x)).collect(), b.iter().map(|&x| T::of(x)).collect());
    let mut ct: Vec<T> = c0.iter().map(|&x| T::of(if beta == 0.0 { f64::NAN } else { x })).collect();
    let counts: Vec<AtomicUsize> = (0..m * n * batch).map(|_| AtomicUsize::new(0)).collect();
    let f = |x: T, i: usize, j: usize, l: usize| -> T {
        assert!(i < m && j < n && l < batch, "{what}: f called at ({i}, {j}, {l}) outside {m}x{n}x{batch}");
        counts[i + m * j + m * n * l].fetch_add(1, Ordering::Relaxed);
        T::of(x.get() * 0.5 + mark(i, j, l))
    };
    {
        let (ta, tb) = (Tensor::new(&at, la).unwrap(), Tensor::new(&bt, lb).unwrap());
        let mut tc = TensorMut::new(&mut ct, lc).unwrap();
        run(T::of(alpha), &ta, &tb, T::of(beta), &mut tc, &f);
    }
    let mut written = vec![false; nc];
    for l in 0..batch {
        for j in 0..n {
            for i in 0..m {
                let (mut s, mut mag) = (0.0, 0.0);
                if alpha != 0.0 {
                    for p in 0..k {
                        let x = a[off(&ao, ab, i + m * p + m * k * l)];
                        let y = b[off(&bo, bb, j + n * p + n * k * l)];
                        s += x * y;
                        mag += (x * y).abs();
                    }
                }
                let ci = off(&co, cb, i + m * j + m * n * l);
                let old = if beta == 0.0 { 0.0 } else { beta * T::of(c0[ci]).get() };
                let x = alpha * s + old;
                let tol = 4.0 * (k as f64 + 2.0) * T::EPS * (alpha.abs() * mag + old.abs()) + 4.0 * T::EPS * 8.0;
                let want = x * 0.5 + mark(i, j, if three_args { 0 } else { l });
                let got = ct[ci].get();
                assert!(
                    (got - want).abs() <= tol,
                    "{what}: C({i},{j},{l}) = {got}, want {want} (alpha {alpha}, beta {beta}, A {la:?}, B {lb:?}, C {lc:?})"
                );
                written[ci] = true;
            }
        }
    }
    let per = if three_args { batch } else { 1 };
    if three_args {
        for (e, c) in counts.iter().enumerate().take(m * n) {
            let c = c.load(Ordering::Relaxed);
            assert_eq!(c, per, "{what}: f called {c} times for ({}, {}), want {per}", e % m, e / m);
        }
    } else {
        for (e, c) in counts.iter().enumerate() {
            let c = c.load(Ordering::Relaxed);
            assert_eq!(c, 1, "{what}: f called {c} times for element {e} (m {m}, n {n})");
        }
    }
    for (i, w) in written.iter().enumerate() {
        if !w {
            let got = ct[i];
            let was = T::of(if beta == 0.0 { f64::NAN } else { c0[i] });
            assert!(got == was || (beta == 0.0 && got.get().is_nan()), "{what}: offset {i} outside C written");
        }
    }
}

/// The alphas and betas: plain, scaled, beta = 0 (C NaN, not read), alpha = 0 (A and B NaN,
/// not read), both.
const SCALARS: [(f64, f64); 5] = [(1.0, 0.0), (-1.25, 0.75), (0.5, 1.0), (0.0, 2.0), (0.0, 0.0)];

/// Runs a case through every run-time entry: `gemm_with`, `try_gemm_with` and
/// `GemmPlan::run_with` (three arguments), `gemm_batched_with` and `GemmPlan::run_batched_with`.
fn run_time_case<T: Real, A, B, C>(what: &str, r: &mut Rng, ls: (A, B, C), alpha: f64, beta: f64)
where
    A: TrustedLayout + PartialEq + std::fmt::Debug,
    B: TrustedLayout + PartialEq + std::fmt::Debug,
    C: TrustedLayout + PartialEq + std::fmt::Debug,
{
    let plan = GemmPlan::new(&ls.0, &ls.1, &ls.2).unwrap();
    let batched = plan.extents().3 > 1;
    check::<T, A, B, C>(&format!("{what} gemm_with"), r, ls, alpha, beta, true, |al, a, b, be, c, f| {
        gemm_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0))
    });
    check::<T, A, B, C>(&format!("{what} try_gemm_with"), r, ls, alpha, beta, true, |al, a, b, be, c, f| {
        try_gemm_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0)).unwrap()
    });
    check::<T, A, B, C>(&format!("{what} run_with"), r, ls, alpha, beta, true, |al, a, b, be, c, f| {
        plan.run_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0))
    });
    check::<T, A, B, C>(&format!("{what} gemm_batched_with"), r, ls, alpha, beta, false, |al, a, b, be, c, f| {
        gemm_batched_with(al, a, b, be, c, f)
    });
    if batched {
        check::<T, A, B, C>(&format!("{what} run_batched_with"), r, ls, alpha, beta, false, |al, a, b, be, c, f| {
            plan.run_batched_with(al, a, b, be, c, f)
        });
        check::<T, A, B, C>(
            &format!("{what} try_gemm_batched_with"),
            r,
            ls,
            alpha,
            beta,
            false,
            |al, a, b, be, c, f| try_gemm_batched_with(al, a, b, be, c, f).unwrap(),
        );
    }
}

/// A `rows × cols` layout: column-major, row-major or with negative strides, padded.
fn flat(r: &mut Rng, rows: usize, cols: usize, kind: usize) -> RuntimeLayout<2> {
    let pad = r.below(4);
    let (rs, cs) = match kind % 4 {
        0 => (1, (rows + pad) as isize),
        1 => ((cols + pad) as isize, 1),
        2 => (-1, -((rows + pad) as isize)),
        _ => (-((cols + pad) as isize), 1),
    };
    RuntimeLayout::new(&[(rows, rs), (cols, cs)]).unwrap()
}

fn run_time_flat<T: Real>(sizes: &[(usize, usize, usize)]) {
    let mut r = Rng(23);
    at_each_level(|level| {
        for (c, &(m, n, k)) in sizes.iter().enumerate() {
            let (alpha, beta) = SCALARS[c % SCALARS.len()];
            let kinds = (r.below(4), r.below(4), c % 4);
            let ls = (flat(&mut r, m, k, kinds.0), flat(&mut r, n, k, kinds.1), flat(&mut r, m, n, kinds.2));
            run_time_case::<T, _, _, _>(&format!("{level:?} {m}x{n}x{k} kinds {kinds:?}"), &mut r, ls, alpha, beta);
        }
    });
}

/// Direct (every extent ≤ 64) and blocked sizes, edge tiles included.
const SIZES: [(usize, usize, usize); 12] = [
    (1, 1, 1),
    (3, 5, 2),
    (17, 9, 33),
    (64, 64, 64),
    (8, 70, 5),
    (65, 7, 9),
    (100, 37, 70),
    (37, 100, 130),
    (131, 29, 300),
    (29, 131, 17),
    (200, 13, 1),
    (13, 200, 400),
];

#[test]
fn run_time_f32() {
    run_time_flat::<f32>(&SIZES);
}

#[test]
fn run_time_f64() {
    run_time_flat::<f64>(&SIZES);
}

/// At least 2²¹ multiply-adds: the shares of several threads (split along m and along n).
#[test]
fn run_time_parallel() {
    run_time_flat::<f32>(&[(180, 130, 100), (130, 180, 100), (300, 300, 25)]);
    run_time_flat::<f64>(&[(150, 140, 110), (140, 150, 110)]);
}

layout! {
    /// M in two leaves, C the same.
    pub AM2 = ((M1,M2),K):((1,SA1),SA2) where SA1 >= M1;
    pub BN = (N,K):(SB,1) where SB >= K;
    pub CM2 = ((M1,M2),N):((1,SC1),SC2) where SC1 >= M1;
    /// N in two leaves, C row-major over them.
    pub AM = (M,K):(1,LDA) where LDA >= M;
    pub BN2 = ((N1,N2),K):((1,SB1),SB2) where SB1 >= N1;
    pub CN2 = (M,(N1,N2)):(LDC,(1,SC1)) where SC1 >= N1;
    /// K in two leaves.
    pub AK2 = (M,(K1,K2)):(1,(LDA,SK)) where LDA >= M;
    pub BK2 = (N,(K1,K2)):(LDB,(1,SBK)) where LDB >= 1;
    pub CMN = (M,N):(1,LDC) where LDC >= M;
    /// A batch mode.
    pub AL = (M,K,L):(1,LDA,SLA) where LDA >= M;
    pub BL = (N,K,L):(1,LDB,SLB) where LDB >= N;
    pub CL = (M,N,L):(1,LDC,SLC) where LDC >= M;
    /// Items over symbols.
    pub fn dyn_gemm = gemm(f32, AM2, BN, CM2);
    pub fn dyn_batched = gemm(f64, AL, BL, CL);
}

fn multi_leaf<T: Real>() {
    let mut r = Rng(5);
    at_each_level(|level| {
        for (c, &(m, n, k)) in [(5, 7, 3), (40, 33, 90), (90, 120, 30), (130, 140, 120)].iter().enumerate() {
            let (alpha, beta) = SCALARS[c % SCALARS.len()];
            let what = format!("{level:?} {m}x{n}x{k}");
            // M = (M1, M2).
            let (m1, m2) = (1 + m / 4, 4);
            let la = AM2::new(m1, m2, k, m1 + 1, (m1 + 1) * m2 + 2).unwrap();
            let lc = CM2::new(m1, m2, n, m1 + 2, (m1 + 2) * m2).unwrap();
            let ls = (la, BN::new(n, k, k + 1).unwrap(), lc);
            run_time_case::<T, _, _, _>(&format!("{what} M in two leaves"), &mut r, ls, alpha, beta);
            // N = (N1, N2), C row-major.
            let (n1, n2) = (1 + n / 3, 3);
            let lb = BN2::new(n1, n2, k, n1, n1 * n2 + 1).unwrap();
            let lc = CN2::new(m, n1, n2, n1 * n2 + 3, n1 + 1).unwrap();
            let ls = (AM::new(m, k, m).unwrap(), lb, lc);
            run_time_case::<T, _, _, _>(&format!("{what} N in two leaves"), &mut r, ls, alpha, beta);
            // K = (K1, K2): the kernel runs once per K2 step, f after the last only.
            let (k1, k2) = (1 + k / 3, 3);
            let la = AK2::new(m, k1, k2, m + 1, (m + 1) * k1).unwrap();
            let lb = BK2::new(n, k1, k2, k1 * k2 + 1, k1).unwrap();
            let ls = (la, lb, CMN::new(m, n, m + 2).unwrap());
            run_time_case::<T, _, _, _>(&format!("{what} K in two leaves"), &mut r, ls, alpha, beta);
            // A batch of 3.
            let (mm, nn, kk) = (m.min(70), n.min(70), k.min(70));
            let la = AL::new(mm, kk, 3, mm, mm * kk).unwrap();
            let lb = BL::new(nn, kk, 3, nn + 1, (nn + 1) * kk).unwrap();
            let lc = CL::new(mm, nn, 3, mm, mm * nn + 5).unwrap();
            run_time_case::<T, _, _, _>(&format!("{what} batch"), &mut r, (la, lb, lc), alpha, beta);
        }
    });
}

#[test]
fn run_time_multi_leaf_f32() {
    multi_leaf::<f32>();
}

#[test]
fn run_time_multi_leaf_f64() {
    multi_leaf::<f64>();
}

#[test]
fn items_over_symbols() {
    let mut r = Rng(9);
    at_each_level(|level| {
        for (c, &(m1, n, k)) in [(3usize, 5usize, 4usize), (30, 70, 90)].iter().enumerate() {
            let (alpha, beta) = SCALARS[c * 2 % SCALARS.len()];
            let la = AM2::new(m1, 4, k, m1, m1 * 4).unwrap();
            let lc = CM2::new(m1, 4, n, m1 + 1, (m1 + 1) * 4).unwrap();
            let ls = (la, BN::new(n, k, k).unwrap(), lc);
            check::<f32, _, _, _>(
                &format!("{level:?} dyn_gemm_with"),
                &mut r,
                ls,
                alpha,
                beta,
                true,
                |al, a, b, be, c, f| dyn_gemm_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0)),
            );
            check::<f32, _, _, _>(
                &format!("{level:?} try_dyn_gemm_with"),
                &mut r,
                ls,
                alpha,
                beta,
                true,
                |al, a, b, be, c, f| try_dyn_gemm_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0)).unwrap(),
            );
            let (m, n, k) = (m1 + 2, n, k);
            let la = AL::new(m, k, 2, m, m * k).unwrap();
            let lb = BL::new(n, k, 2, n, n * k).unwrap();
            let lc = CL::new(m, n, 2, m + 1, (m + 1) * n).unwrap();
            check::<f64, _, _, _>(
                &format!("{level:?} dyn_batched_with"),
                &mut r,
                (la, lb, lc),
                alpha,
                beta,
                false,
                |al, a, b, be, c, f| dyn_batched_with(al, a, b, be, c, f),
            );
        }
    });
}

/// Static items of one shape: col-major A, B `(N,K)` with K contiguous, C with the given
/// strides; f32 and f64.
macro_rules! static_items {
    ($name:ident, $m:literal, $n:literal, $k:literal, ($crs:literal, $ccs:literal), ($ars:literal, $acs:literal)) => {
        mod $name {
            cute_layout::layout! {
                pub A = ($m,$k):($ars,$acs);
                pub B = ($n,$k):($k,1);
                pub C = ($m,$n):($crs,$ccs);
                pub fn mul32 = gemm(f32, A, B, C);
                pub fn mul64 = gemm(f64, A, B, C);
            }
        }
    };
}

static_items!(s1, 1, 1, 1, (1, 1), (1, 1));
static_items!(s2, 2, 3, 2, (1, 2), (1, 2));
static_items!(s4, 4, 4, 4, (1, 4), (4, 1));
static_items!(s5, 5, 7, 3, (7, 1), (1, 5));
static_items!(s8, 8, 8, 8, (1, 11), (1, 8));
static_items!(s13, 13, 9, 13, (-1, 13), (1, 13));
static_items!(s16, 16, 16, 16, (1, 16), (1, 16));
static_items!(s17, 17, 19, 17, (1, 20), (1, 17));
static_items!(s24, 24, 24, 24, (24, 1), (24, 1));
static_items!(s31, 31, 30, 29, (1, 31), (1, 31));
static_items!(s32, 32, 32, 32, (1, 32), (1, 32));
static_items!(s33, 33, 40, 48, (1, 35), (1, 33));
static_items!(s70, 70, 70, 70, (70, 1), (1, 70));

mod static_multi {
    cute_layout::layout! {
        /// M and K of two leaves each, a batch of 2: loops around the straight-line kernel.
        pub A = ((4,3),(8,2),2):((1,4),(12,96),192);
        pub B = (6,(8,2),2):(16,(1,8),96);
        pub C = ((4,3),6,2):((1,4),12,72);
        pub fn mul = gemm(f32, A, B, C);
        /// The same over the engine (the kernel's leaves larger than 32).
        pub AB = ((40,3),(50,2),2):((1,40),(120,6000),12000);
        pub BB = (36,(50,2),2):(100,(1,50),3600);
        pub CB = ((40,3),36,2):((1,40),120,4320);
        pub fn big = gemm(f64, AB, BB, CB);
    }
}

macro_rules! static_case {
    ($r:expr, $level:expr, $alpha:expr, $beta:expr, $($m:ident),*) => {
        $(
            let ls = ($m::A, $m::B, $m::C);
            check::<f32, _, _, _>(&format!("{:?} {}::mul32_with", $level, stringify!($m)), $r, ls, $alpha, $beta, true, |al, a, b, be, c, f| {
                $m::mul32_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0))
            });
            check::<f64, _, _, _>(&format!("{:?} {}::mul64_with", $level, stringify!($m)), $r, ls, $alpha, $beta, true, |al, a, b, be, c, f| {
                $m::mul64_with(al, a, b, be, c, |x, m, n| f(x, m, n, 0))
            });
        )*
    };
}

#[test]
fn static_items() {
    let mut r = Rng(3);
    at_each_level(|level| {
        for (alpha, beta) in SCALARS {
            static_case!(&mut r, level, alpha, beta, s1, s2, s4, s5, s8, s13, s16, s17, s24, s31, s32, s33, s70);
            use static_multi::*;
            check::<f32, _, _, _>(
                &format!("{level:?} static mul_with"),
                &mut r,
                (A, B, C),
                alpha,
                beta,
                false,
                |al, a, b, be, c, f| mul_with(al, a, b, be, c, f),
            );
            check::<f64, _, _, _>(
                &format!("{level:?} static big_with"),
                &mut r,
                (AB, BB, CB),
                alpha,
                beta,
                false,
                |al, a, b, be, c, f| big_with(al, a, b, be, c, f),
            );
        }
    });
}

/// Slices work as for the plain item, and the example of the issue: `lin_with` from an item
/// `lin = gemm(f32, A, B, C)`, a bias and ReLU fused.
#[test]
fn item_over_slices_bias_relu() {
    mod lin {
        cute_layout::layout! {
            pub A = (6,5):(1,6);
            pub B = (4,5):(5,1);
            pub C = (6,4):(1,6);
            pub fn lin = gemm(f32, A, B, C);
        }
    }
    let a: Vec<f32> = (0..30).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..20).map(|i| (i % 5) as f32 * 0.5 - 1.0).collect();
    let bias = [0.5f32, -2.0, 1.0, 0.0];
    let (mut plain, mut fused) = (vec![0f32; 24], vec![f32::NAN; 24]);
    lin::lin(1.0, &a, &b, 0.0, &mut plain);
    lin::lin_with(1.0, &a, &b, 0.0, &mut fused, |x, _m, n| (x + bias[n]).max(0.0));
    for m in 0..6 {
        for n in 0..4 {
            assert_eq!(fused[m + 6 * n], (plain[m + 6 * n] + bias[n]).max(0.0), "({m}, {n})");
        }
    }
}

/// The epilogue of an item over symbols may call the item again: the outer call's plan is
/// out of the thread's cache while `f` runs, so the inner call plans afresh (no borrow
/// conflict), and both results are right.
#[test]
fn an_epilogue_may_call_its_item_again() {
    let (m1, m2, n, k) = (2, 2, 2, 3);
    let la = AM2::new(m1, m2, k, m1, m1 * m2).unwrap();
    let lb = BN::new(n, k, k).unwrap();
    let lc = CM2::new(m1, m2, n, m1, m1 * m2).unwrap();
    let a: Vec<f32> = (0..12).map(|x| x as f32).collect();
    let b = vec![1.0f32; 6];
    let (ta, tb) = (Tensor::new(&a, la).unwrap(), Tensor::new(&b, lb).unwrap());
    let mut c = vec![0.0f32; 8];
    let inner_ok = std::sync::atomic::AtomicUsize::new(0);
    dyn_gemm_with(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, lc).unwrap(), |x, _, _| {
        let mut inner = vec![0.0f32; 8];
        try_dyn_gemm_with(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut inner, lc).unwrap(), |y, _, _| y).unwrap();
        if inner[0] == 12.0 {
            inner_ok.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        x
    });
    assert_eq!(inner_ok.into_inner(), 8);
    // C(i, j) = Σ_p A(i, p) = i + (i + 4) + (i + 8) = 3i + 12 (B is all ones).
    assert_eq!(c, (0..8).map(|x| 3.0 * (x % 4) as f32 + 12.0).collect::<Vec<_>>());
}
