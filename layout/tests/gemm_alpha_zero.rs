//! `alpha = 0` never reads A or B, on every path: with A full of NaN and B of NaN and
//! infinities, C must come out as exactly `beta·C` (zeros when `beta = 0`, C not read: it
//! starts as NaN then), and with an epilogue `f` as exactly `f(beta·C, m, n, l)`; elements
//! of the C slice outside C (padding) are untouched. Each path at each dispatch level the CPU
//! has (forced in turn), for f32 and f64, betas 0, 1 and another:
//! - static items: the straight-line kernel (every extent at most 32; column-major A and C
//!   take the register-tiled kernels, other strides the plain one), larger ones through the
//!   engine (direct loop, blocked, parallel sizes), a K of two modes (a loop around the
//!   kernel, beta on its first point only), a batch mode, and each one's `NAME_with`;
//! - items over symbols: run-time extents at most 32 (the small kernel over run-time
//!   extents, the cubes through constant extents), larger (the kept plan), a static tile
//!   with run-time strides, and their `NAME_with`;
//! - the run-time entries: `cute_layout::gemm`, `gemm_with`, `gemm_batched_with`,
//!   `GemmPlan::run`, `run_with`, `run_batched_with` over run-time layouts (the plan's small
//!   kernel and the engine; padded, row-major and batched C), `gemm::matmul`, `gemm_views`
//!   and the raw `gemm::gemm`, from 1³ to 200³, on the default pool and on a pool of 4
//!   threads.

use cute_layout::gemm::{GemmScalar, MatMut, MatRef, gemm_views, matmul};
use cute_layout::kernels::{self, DstView, Level, SrcView};
use cute_layout::{GemmPlan, RuntimeLayout, Tensor, TensorMut, TrustedLayout, gemm_batched_with, gemm_with, layout};
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

trait Elem: GemmScalar + cute_layout::kernels::Element + core::ops::Neg<Output = Self> {
    const NAN: Self;
    const INF: Self;
    fn from_f64(x: f64) -> Self;
    fn bits(self) -> u64;
}

impl Elem for f32 {
    const NAN: Self = f32::NAN;
    const INF: Self = f32::INFINITY;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Elem for f64 {
    const NAN: Self = f64::NAN;
    const INF: Self = f64::INFINITY;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// The betas every path runs with: 0 (C not read), 1 (C unchanged) and another.
const BETAS: [f64; 3] = [0.0, 1.0, -0.75];

/// The epilogue of every `_with` call: `2x + (m + 3n + 11l)/4`, exact in both precisions at
/// these sizes, so the expected value is bit for bit.
fn epi<T: Elem>(x: T, m: usize, n: usize, l: usize) -> T {
    x * T::from_f64(2.0) + T::from_f64((m + 3 * n + 11 * l) as f64 * 0.25)
}

/// Where element `i` of the C slice is in C: `Some((m, n, l))`, or `None` for padding.
type Place<'p> = &'p dyn Fn(usize) -> Option<(usize, usize, usize)>;

/// An owned [`Place`].
type BoxPlace = Box<dyn Fn(usize) -> Option<(usize, usize, usize)>>;

/// C `m × n` column-major with leading dimension `ld` (batches `l` at stride `ld·n`).
fn col_major(m: usize, n: usize, ld: usize) -> impl Fn(usize) -> Option<(usize, usize, usize)> {
    move |i| {
        let (r, rest) = (i % ld, i / ld);
        (r < m).then_some((r, rest % n, rest / n))
    }
}

/// C `m × n` row-major with leading dimension `ld`.
fn row_major(n: usize, ld: usize) -> impl Fn(usize) -> Option<(usize, usize, usize)> {
    move |i| (i % ld < n).then_some((i / ld, i % ld, 0))
}

/// Runs `run(alpha = 0, a, b, beta, c)` with A (`a_len` elements) all NaN, B (`b_len`) NaN
/// and ±∞, and a C slice of `c_len` elements whose element `i` is C's `place(i)`, for each
/// of [`BETAS`]; asserts that each element of C comes out as exactly `beta·C` (`+0` when
/// `beta = 0`, with C starting as NaN), passed through [`epi`] when `with`, and padding
/// unchanged.
fn check<T: Elem>(
    what: &str,
    level: Level,
    (a_len, b_len, c_len): (usize, usize, usize),
    place: Place<'_>,
    with: bool,
    run: impl Fn(T, &[T], &[T], T, &mut [T]),
) {
    let a = vec![T::NAN; a_len];
    let b: Vec<T> = (0..b_len).map(|i| [T::NAN, T::INF, -T::INF][i % 3]).collect();
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
            let want = match place(i) {
                None => old,
                Some((m, n, l)) => {
                    let x = if beta == 0.0 { T::ZERO } else { beta_t * old };
                    if with { epi(x, m, n, l) } else { x }
                }
            };
            assert_eq!(
                got.bits(),
                want.bits(),
                "{what}{} at {level:?}, {}, beta = {beta}: C[{i}] ({:?}) is {got:?}, not {want:?}",
                if with { " with an epilogue" } else { "" },
                core::any::type_name::<T>(),
                place(i),
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
    // The plain kernel: a row-major A, a row-major C, a padded C.
    pub fn s8_row_a = gemm(f32, (8,8):(8,1), (8,8):(8,1), (8,8):(1,8));
    pub fn s6x10x4_row_c = gemm(f32, (6,4):(1,6), (10,4):(4,1), (6,10):(10,1));
    pub fn d16_row_c = gemm(f64, (16,16):(16,1), (16,16):(1,16), (16,16):(16,1));
    pub fn d7x5x3_pad_c = gemm(f64, (7,3):(1,7), (5,3):(3,1), (7,5):(1,9));
    // Past the straight-line kernel: the engine's direct loop, its blocked one, and sizes
    // large enough for the parallel shares.
    pub fn s40 = gemm(f32, (40,40):(1,40), (40,40):(40,1), (40,40):(1,40));
    pub fn d33x47x61 = gemm(f64, (33,61):(1,33), (47,61):(61,1), (33,47):(1,33));
    pub fn d96x80x72 = gemm(f64, (96,72):(1,96), (80,72):(72,1), (96,80):(1,96));
    pub fn s130x150x200 = gemm(f32, (130,200):(1,130), (150,200):(200,1), (130,150):(1,130));
    pub fn d200 = gemm(f64, (200,200):(1,200), (200,200):(200,1), (200,200):(1,200));
    // A K of two modes that do not coalesce: a loop over one around the kernel.
    pub fn s8_k2 = gemm(f32, (8,(4,2)):(1,(8,40)), (8,(4,2)):(4,(1,32)), (8,8):(1,8));
    pub fn d50_k2 = gemm(f64, (50,(20,3)):(1,(50,1100)), (40,(20,3)):(20,(1,900)), (50,40):(1,50));
    // A batch mode: small (the straight-line kernel per batch) and large.
    pub fn d_batch = gemm(f64, (5,7,3):(1,5,35), (6,7,3):(7,1,42), (5,6,3):(1,5,30));
    pub fn s_batch = gemm(f32, (70,40,2):(1,70,2800), (60,40,2):(40,1,2400), (70,60,2):(1,70,4200));
}

/// Checks a static item and its `NAME_with`.
macro_rules! item_and_with {
    ($l:expr, $f:ident, $fw:ident, $t:ty, ($a:expr, $b:expr, $c:expr), $place:expr) => {{
        let lens = ($a, $b, $c);
        check::<$t>(stringify!($f), $l, lens, &$place, false, |al, a, b, be, c| $f(al, a, b, be, c));
        check::<$t>(stringify!($fw), $l, lens, &$place, true, |al, a, b, be, c| {
            $fw(al, a, b, be, c, |x, m, n| epi(x, m, n, 0))
        });
    }};
    (batched $l:expr, $f:ident, $fw:ident, $t:ty, ($a:expr, $b:expr, $c:expr), $place:expr) => {{
        let lens = ($a, $b, $c);
        check::<$t>(stringify!($f), $l, lens, &$place, false, |al, a, b, be, c| $f(al, a, b, be, c));
        check::<$t>(stringify!($fw), $l, lens, &$place, true, |al, a, b, be, c| $fw(al, a, b, be, c, epi));
    }};
}

#[test]
fn static_items_scale_c_without_reading_a_or_b() {
    let ran = at_each_level(|l| {
        item_and_with!(l, s1, s1_with, f32, (1, 1, 1), col_major(1, 1, 1));
        item_and_with!(l, s3, s3_with, f32, (9, 9, 9), col_major(3, 3, 3));
        item_and_with!(l, s8, s8_with, f32, (64, 64, 64), col_major(8, 8, 8));
        item_and_with!(l, s5x7x3, s5x7x3_with, f32, (15, 21, 35), col_major(5, 7, 5));
        item_and_with!(l, s17x13x9, s17x13x9_with, f32, (153, 117, 221), col_major(17, 13, 17));
        item_and_with!(l, s32, s32_with, f32, (1024, 1024, 1024), col_major(32, 32, 32));
        item_and_with!(l, d4, d4_with, f64, (16, 16, 16), col_major(4, 4, 4));
        item_and_with!(l, d9x5x7, d9x5x7_with, f64, (63, 35, 45), col_major(9, 5, 9));
        item_and_with!(l, d32, d32_with, f64, (1024, 1024, 1024), col_major(32, 32, 32));
        item_and_with!(l, s8_row_a, s8_row_a_with, f32, (64, 64, 64), col_major(8, 8, 8));
        item_and_with!(l, s6x10x4_row_c, s6x10x4_row_c_with, f32, (24, 40, 60), row_major(10, 10));
        item_and_with!(l, d16_row_c, d16_row_c_with, f64, (256, 256, 256), row_major(16, 16));
        item_and_with!(l, d7x5x3_pad_c, d7x5x3_pad_c_with, f64, (21, 15, 45), col_major(7, 5, 9));
        item_and_with!(l, s40, s40_with, f32, (1600, 1600, 1600), col_major(40, 40, 40));
        item_and_with!(l, d33x47x61, d33x47x61_with, f64, (33 * 61, 47 * 61, 33 * 47), col_major(33, 47, 33));
        item_and_with!(l, d96x80x72, d96x80x72_with, f64, (96 * 72, 80 * 72, 96 * 80), col_major(96, 80, 96));
        item_and_with!(
            l,
            s130x150x200,
            s130x150x200_with,
            f32,
            (130 * 200, 150 * 200, 130 * 150),
            col_major(130, 150, 130)
        );
        item_and_with!(l, d200, d200_with, f64, (40000, 40000, 40000), col_major(200, 200, 200));
        item_and_with!(l, s8_k2, s8_k2_with, f32, (72, 64, 64), col_major(8, 8, 8));
        item_and_with!(l, d50_k2, d50_k2_with, f64, (3 * 1100, 3 * 900, 2000), col_major(50, 40, 50));
        item_and_with!(batched l, d_batch, d_batch_with, f64, (105, 126, 90), col_major(5, 6, 5));
        item_and_with!(batched l, s_batch, s_batch_with, f32, (5600, 4800, 8400), col_major(70, 60, 70));
    });
    assert!(ran.contains(&Level::Portable));
}

layout! {
    /// Run-time extents and leading dimensions.
    pub AM = (M,K):(1,LDA) where LDA >= M;
    pub BN = (N,K):(LDB,1) where LDB >= K;
    pub CM = (M,N):(1,LDC) where LDC >= M;
    pub fn dyn_s = gemm(f32, AM, BN, CM);
    pub fn dyn_d = gemm(f64, AM, BN, CM);
    /// A static tile with run-time strides.
    pub TileA = (8,6):(1,LDA) where LDA >= 8;
    pub TileB = (5,6):(LDB,1) where LDB >= 6;
    pub TileC = (8,5):(1,LDC) where LDC >= 8;
    pub fn tile_s = gemm(f32, TileA, TileB, TileC);
    pub fn tile_d = gemm(f64, TileA, TileB, TileC);
}

/// The sizes of the run-time paths: tiny (the cubes run constant-extent kernels), the small
/// kernel's largest, the engine's direct loop, blocked and parallel sizes.
const SIZES: [(usize, usize, usize); 11] = [
    (1, 1, 1),
    (3, 5, 2),
    (4, 4, 4),
    (8, 8, 8),
    (16, 16, 16),
    (32, 31, 32),
    (33, 17, 64),
    (50, 40, 30),
    (100, 90, 80),
    (130, 150, 120),
    (200, 200, 200),
];

/// Tensors of A and B over their slices.
fn pair<'a, T, LA: TrustedLayout, LB: TrustedLayout>(
    a: &'a [T],
    b: &'a [T],
    (la, lb): (LA, LB),
) -> (Tensor<'a, T, LA>, Tensor<'a, T, LB>) {
    (Tensor::new(a, la).unwrap(), Tensor::new(b, lb).unwrap())
}

/// An item over symbols with its `NAME_with`, at `m × n × k` with padded leading dimensions.
macro_rules! dyn_item {
    ($l:expr, $t:ty, $f:ident, $fw:ident, ($m:expr, $n:expr, $k:expr)) => {{
        let (m, n, k) = ($m, $n, $k);
        let (lda, ldb, ldc) = (m + 1, k + 2, m + 3);
        let lens = (lda * k, ldb * n, ldc * n);
        let layouts = || (AM::new(m, k, lda).unwrap(), BN::new(n, k, ldb).unwrap());
        let what = format!("{} {m}x{n}x{k}", stringify!($f));
        check::<$t>(&what, $l, lens, &col_major(m, n, ldc), false, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            $f(al, &a, &b, be, &mut TensorMut::new(c, CM::new(m, n, ldc).unwrap()).unwrap())
        });
        check::<$t>(&what, $l, lens, &col_major(m, n, ldc), true, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            $fw(al, &a, &b, be, &mut TensorMut::new(c, CM::new(m, n, ldc).unwrap()).unwrap(), |x, m, n| epi(x, m, n, 0))
        });
    }};
}

/// The static tile item with run-time strides and its `NAME_with`.
macro_rules! tile_item {
    ($l:expr, $t:ty, $f:ident, $fw:ident) => {{
        let (lda, ldb, ldc) = (11, 7, 10);
        let lens = (lda * 6, ldb * 5, ldc * 5);
        let layouts = || (TileA::new(lda).unwrap(), TileB::new(ldb).unwrap());
        check::<$t>(stringify!($f), $l, lens, &col_major(8, 5, ldc), false, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            $f(al, &a, &b, be, &mut TensorMut::new(c, TileC::new(ldc).unwrap()).unwrap())
        });
        check::<$t>(stringify!($fw), $l, lens, &col_major(8, 5, ldc), true, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            $fw(al, &a, &b, be, &mut TensorMut::new(c, TileC::new(ldc).unwrap()).unwrap(), |x, m, n| epi(x, m, n, 0))
        });
    }};
}

#[test]
fn items_over_symbols_scale_c_without_reading_a_or_b() {
    at_each_level(|l| {
        for (m, n, k) in SIZES {
            dyn_item!(l, f32, dyn_s, dyn_s_with, (m, n, k));
            dyn_item!(l, f64, dyn_d, dyn_d_with, (m, n, k));
        }
        tile_item!(l, f32, tile_s, tile_s_with);
        tile_item!(l, f64, tile_d, tile_d_with);
    });
}

/// A run-time layout of `rows × cols` (and `batch` batches when not 1) with strides
/// `(rs, cs, batch stride)`.
fn rt(rows: usize, cols: usize, rs: usize, cs: usize, batch: (usize, usize)) -> RuntimeLayout<3> {
    let mut modes = vec![(rows, rs as isize), (cols, cs as isize)];
    if batch.0 > 1 {
        modes.push((batch.0, batch.1 as isize));
    }
    RuntimeLayout::<3>::new(&modes).unwrap()
}

/// The run-time entries over tensors at `m × n × k` (`batch` batches): `gemm`, `gemm_with`,
/// `gemm_batched_with`, `GemmPlan::run`, `run_with`, `run_batched_with`; C column-major with
/// a padded leading dimension, or row-major.
fn tensor_entries<T: Elem>(level: Level, (m, n, k): (usize, usize, usize), batch: usize, c_row_major: bool) {
    let (lda, ldb) = (m + 2, k + 1);
    let la = rt(m, k, 1, lda, (batch, lda * k));
    let lb = rt(n, k, ldb, 1, (batch, ldb * n));
    let (lc, c_len, place): (_, _, BoxPlace) = if c_row_major {
        let ldc = n + 1;
        (
            rt(m, n, ldc, 1, (batch, ldc * m)),
            ldc * m * batch,
            Box::new(move |i| {
                let (r, l) = (i % (ldc * m), i / (ldc * m));
                row_major(n, ldc)(r).map(|(mm, nn, _)| (mm, nn, l))
            }),
        )
    } else {
        let ldc = m + 3;
        (rt(m, n, 1, ldc, (batch, ldc * n)), ldc * n * batch, Box::new(col_major(m, n, ldc)))
    };
    let lens = (lda * k * batch, ldb * n * batch, c_len);
    let layouts = || (la, lb);
    let what = |f: &str| {
        format!("{f} {m}x{n}x{k}, {batch} batch(es), C {}", if c_row_major { "row-major" } else { "column-major" })
    };
    let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
    check::<T>(&what("gemm"), level, lens, &place, false, |al, a, b, be, c| {
        let (a, b) = pair(a, b, layouts());
        cute_layout::gemm(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap())
    });
    check::<T>(&what("GemmPlan::run"), level, lens, &place, false, |al, a, b, be, c| {
        let (a, b) = pair(a, b, layouts());
        plan.run(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap())
    });
    check::<T>(&what("gemm_batched_with"), level, lens, &place, true, |al, a, b, be, c| {
        let (a, b) = pair(a, b, layouts());
        gemm_batched_with(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap(), epi)
    });
    check::<T>(&what("GemmPlan::run_batched_with"), level, lens, &place, true, |al, a, b, be, c| {
        let (a, b) = pair(a, b, layouts());
        plan.run_batched_with(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap(), epi)
    });
    if batch == 1 {
        check::<T>(&what("gemm_with"), level, lens, &place, true, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            gemm_with(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap(), |x, m, n| epi(x, m, n, 0))
        });
        check::<T>(&what("GemmPlan::run_with"), level, lens, &place, true, |al, a, b, be, c| {
            let (a, b) = pair(a, b, layouts());
            plan.run_with(al, &a, &b, be, &mut TensorMut::new(c, lc).unwrap(), |x, m, n| epi(x, m, n, 0))
        });
    }
}

/// `matmul`, `gemm_views` and the raw `gemm::gemm` of an `m×k` A, a `k×n` B and an `m×n` C,
/// C column-major (padded) or row-major.
fn matrix_entries<T: Elem>(level: Level, (m, n, k): (usize, usize, usize), c_row_major: bool) {
    let what = |f: &str| format!("{f} {m}x{n}x{k}, C {}", if c_row_major { "row-major" } else { "column-major" });
    let (ld, c_len) = if c_row_major { (n + 1, m * (n + 1)) } else { (m + 2, (m + 2) * n) };
    let (c_rs, c_cs) = if c_row_major { (ld as isize, 1) } else { (1, ld as isize) };
    let place: BoxPlace = if c_row_major { Box::new(row_major(n, ld)) } else { Box::new(col_major(m, n, ld)) };
    let lens = (m * k, k * n, c_len);
    check::<T>(&what("matmul"), level, lens, &place, false, |al, a, b, be, c| {
        matmul(
            al,
            MatRef::from_slice(a, m, k, 1, m as isize),
            MatRef::from_slice(b, k, n, n as isize, 1),
            be,
            MatMut::from_slice(c, m, n, c_rs, c_cs),
        )
    });
    check::<T>(&what("gemm_views"), level, lens, &place, false, |al, a, b, be, c| {
        let (a, b) = (SrcView::new(a, 0), SrcView::new(b, 0));
        gemm_views(m, n, k, al, &a, 0, 1, m as isize, &b, 0, n as isize, 1, be, &mut DstView::new(c, 0), 0, c_rs, c_cs)
    });
    check::<T>(&what("gemm::gemm"), level, lens, &place, false, |al, a, b, be, c| {
        // SAFETY: A is `m×k` column-major in `a` (`m·k` elements), B `k×n` row-major in `b`,
        // C `m×n` with strides `(c_rs, c_cs)` in `c` (`c_len` elements, distinct offsets);
        // C is a separate allocation.
        unsafe {
            cute_layout::gemm::gemm(
                m,
                n,
                k,
                al,
                a.as_ptr(),
                1,
                m as isize,
                b.as_ptr(),
                n as isize,
                1,
                be,
                c.as_mut_ptr(),
                c_rs,
                c_cs,
            )
        }
    });
}

/// Every run-time entry at every size of [`SIZES`], both precisions.
fn run_time_entries(l: Level) {
    for mnk in SIZES {
        for row_major in [false, true] {
            tensor_entries::<f32>(l, mnk, 1, row_major);
            tensor_entries::<f64>(l, mnk, 1, row_major);
            matrix_entries::<f32>(l, mnk, row_major);
            matrix_entries::<f64>(l, mnk, row_major);
        }
    }
    for mnk in [(4, 4, 4), (7, 9, 5), (40, 33, 50), (130, 100, 90)] {
        tensor_entries::<f32>(l, mnk, 3, false);
        tensor_entries::<f64>(l, mnk, 2, true);
    }
}

#[test]
fn run_time_entries_scale_c_without_reading_a_or_b() {
    at_each_level(run_time_entries);
}

#[test]
fn run_time_entries_on_four_threads_scale_c_without_reading_a_or_b() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    pool.install(|| at_each_level(run_time_entries));
}
