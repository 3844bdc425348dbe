//! `alpha = 0` never reads A or B, on every path: with A and B full of NaN, C must come out
//! as exactly `beta·C` (zeros when `beta = 0`, C not read: it starts as NaN then). Each path
//! at each dispatch level the CPU has (forced in turn), for f32 and f64: the straight-line
//! kernel of static `gemm` items (every extent at most 32; column-major A and C take the
//! register-tiled kernels, other strides the plain one), static items larger than that
//! (through the engine's checked entry), one with a K of two modes (the kernel called once per
//! point of the loop around it, beta on the first only), and the run-time entries:
//! `gemm::matmul` over views (small, direct, blocked and parallel sizes, column- and row-major
//! C) and `cute_layout::gemm` over run-time layouts.

use cute_layout::gemm::{GemmScalar, MatMut, MatRef, matmul};
use cute_layout::kernels::{self, Level};
use cute_layout::{RuntimeLayout, Tensor, TensorMut, layout};
use std::sync::Mutex;

/// Tests force the process-wide level; they take turns so each runs at the level it forced.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());

/// Runs `f` at every level the CPU has; returns the levels it ran at.
fn at_each_level(mut f: impl FnMut(Level)) -> Vec<Level> {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut ran = Vec::new();
    for l in [Level::Portable, Level::Avx2, Level::Avx512] {
        let got = kernels::force_level(l);
        if got != l {
            println!("skipping level {l:?}: this CPU (or LAYOUT_SIMD_LEVEL) allows only {got:?}");
            continue;
        }
        f(l);
        ran.push(l);
    }
    kernels::force_level(Level::Avx512);
    ran
}

trait Elem: GemmScalar + cute_layout::kernels::Element {
    const NAN: Self;
    fn from_f64(x: f64) -> Self;
    fn bits(self) -> u64;
}

impl Elem for f32 {
    const NAN: Self = f32::NAN;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Elem for f64 {
    const NAN: Self = f64::NAN;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// The betas every path runs with: 0 (C not read), 1 (C unchanged) and another.
const BETAS: [f64; 3] = [0.0, 1.0, -0.75];

/// Runs `run(alpha = 0, a, b, beta, c)` with A (`a_len` elements) and B (`b_len`) all NaN and
/// a C of `c_len` elements every one of which the call writes, for each of [`BETAS`], and
/// asserts that C comes out as exactly `beta·C` (bit for bit; `+0` when `beta = 0`, with C
/// starting as NaN).
fn check<T: Elem>(what: &str, level: Level, lens: (usize, usize, usize), run: impl Fn(T, &[T], &[T], T, &mut [T])) {
    let (a_len, b_len, c_len) = lens;
    let (a, b) = (vec![T::NAN; a_len], vec![T::NAN; b_len]);
    for beta in BETAS {
        let beta_t = T::from_f64(beta);
        let c0: Vec<T> = if beta == 0.0 {
            vec![T::NAN; c_len]
        } else {
            (0..c_len).map(|i| T::from_f64((i % 13) as f64 * 0.375 - 2.0)).collect()
        };
        let mut c = c0.clone();
        run(T::ZERO, &a, &b, beta_t, &mut c);
        for (i, (&got, &old)) in c.iter().zip(&c0).enumerate() {
            let want = if beta == 0.0 { T::ZERO } else { beta_t * old };
            assert_eq!(
                got.bits(),
                want.bits(),
                "{what} at {level:?}, {}, beta = {beta}: C[{i}] is {got:?}, not {want:?} (beta·C)",
                core::any::type_name::<T>()
            );
        }
    }
}

layout! {
    // The register-tiled kernels (column-major A and C) at several sizes, up to the largest.
    pub fn s1 = gemm(f32, (1,1):(1,1), (1,1):(1,1), (1,1):(1,1));
    pub fn s3 = gemm(f32, (3,3):(1,3), (3,3):(3,1), (3,3):(1,3));
    pub fn s8 = gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));
    pub fn s5x7x3 = gemm(f32, (5,3):(1,5), (7,3):(1,7), (5,7):(1,5));
    pub fn s17x13x9 = gemm(f32, (17,9):(1,17), (13,9):(9,1), (17,13):(1,17));
    pub fn s32 = gemm(f32, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
    pub fn d4 = gemm(f64, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn d9x5x7 = gemm(f64, (9,7):(1,9), (5,7):(1,5), (9,5):(1,9));
    pub fn d32 = gemm(f64, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
    // The plain kernel: a row-major A, a row-major C.
    pub fn s8_row_a = gemm(f32, (8,8):(8,1), (8,8):(8,1), (8,8):(1,8));
    pub fn s6x10x4_row_c = gemm(f32, (6,4):(1,6), (10,4):(4,1), (6,10):(10,1));
    pub fn d16_row_c = gemm(f64, (16,16):(16,1), (16,16):(1,16), (16,16):(16,1));
    // Past the straight-line kernel: the engine's direct loop and its blocked one.
    pub fn s40 = gemm(f32, (40,40):(1,40), (40,40):(40,1), (40,40):(1,40));
    pub fn d96x80x72 = gemm(f64, (96,72):(1,96), (80,72):(72,1), (96,80):(1,96));
    // A K of two modes that do not coalesce: a loop over one around the kernel.
    pub fn s8_k2 = gemm(f32, (8,(4,2)):(1,(8,40)), (8,(4,2)):(4,(1,32)), (8,8):(1,8));
}

/// Checks a static item: `$t` its element type, the lengths of its A, B and C slices.
macro_rules! item {
    ($l:expr, $f:ident, $t:ty, $a:expr, $b:expr, $c:expr) => {
        check::<$t>(stringify!($f), $l, ($a, $b, $c), |al, a, b, be, c| $f(al, a, b, be, c))
    };
}

#[test]
fn static_items_scale_c_without_reading_a_or_b() {
    let ran = at_each_level(|l| {
        item!(l, s1, f32, 1, 1, 1);
        item!(l, s3, f32, 9, 9, 9);
        item!(l, s8, f32, 64, 64, 64);
        item!(l, s5x7x3, f32, 15, 21, 35);
        item!(l, s17x13x9, f32, 153, 117, 221);
        item!(l, s32, f32, 1024, 1024, 1024);
        item!(l, d4, f64, 16, 16, 16);
        item!(l, d9x5x7, f64, 63, 35, 45);
        item!(l, d32, f64, 1024, 1024, 1024);
        item!(l, s8_row_a, f32, 64, 64, 64);
        item!(l, s6x10x4_row_c, f32, 24, 40, 60);
        item!(l, d16_row_c, f64, 256, 256, 256);
        item!(l, s40, f32, 1600, 1600, 1600);
        item!(l, d96x80x72, f64, 96 * 72, 80 * 72, 96 * 80);
        item!(l, s8_k2, f32, 72, 64, 64);
    });
    assert!(ran.contains(&Level::Portable));
}

/// `matmul` of an `m×k` A, a `k×n` B and an `m×n` C, C column-major or row-major.
fn matmul_case<T: Elem>(level: Level, m: usize, n: usize, k: usize, c_row_major: bool) {
    let what = format!("matmul {m}x{n}x{k}, C {}", if c_row_major { "row-major" } else { "column-major" });
    check::<T>(&what, level, (m * k, k * n, m * n), |al, a, b, be, c| {
        let (c_rs, c_cs) = if c_row_major { (n as isize, 1) } else { (1, m as isize) };
        matmul(
            al,
            MatRef::from_slice(a, m, k, 1, m as isize),
            MatRef::from_slice(b, k, n, n as isize, 1),
            be,
            MatMut::from_slice(c, m, n, c_rs, c_cs),
        )
    });
}

#[test]
fn matmul_scales_c_without_reading_a_or_b() {
    at_each_level(|l| {
        // Small, the direct loop (at most 64), blocked, and large enough for rayon's pool.
        for (m, n, k) in [(3, 4, 5), (33, 17, 64), (100, 90, 80), (200, 160, 96)] {
            for row_major in [false, true] {
                matmul_case::<f32>(l, m, n, k, row_major);
                matmul_case::<f64>(l, m, n, k, row_major);
            }
        }
    });
}

/// `cute_layout::gemm` over run-time layouts: A `(M,K)`, B `(N,K)`, C `(M,N)` column-major.
fn tensor_case<T: Elem>(level: Level, m: usize, n: usize, k: usize) {
    let what = format!("cute_layout::gemm {m}x{n}x{k}");
    check::<T>(&what, level, (m * k, n * k, m * n), |al, a, b, be, c| {
        let la = RuntimeLayout::<2>::new(&[(m, 1), (k, m as isize)]).unwrap();
        let lb = RuntimeLayout::<2>::new(&[(n, 1), (k, n as isize)]).unwrap();
        let lc = RuntimeLayout::<2>::new(&[(m, 1), (n, m as isize)]).unwrap();
        let (a, b) = (Tensor::new(a, la).unwrap(), Tensor::new(b, lb).unwrap());
        cute_layout::gemm(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap());
    });
}

#[test]
fn run_time_gemm_scales_c_without_reading_a_or_b() {
    at_each_level(|l| {
        for (m, n, k) in [(4, 4, 4), (8, 8, 8), (32, 32, 32), (50, 40, 30), (130, 70, 90)] {
            tensor_case::<f32>(l, m, n, k);
            tensor_case::<f64>(l, m, n, k);
        }
    });
}
