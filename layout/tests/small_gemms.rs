//! Small GEMMs over run-time strides, against a scalar reference at each dispatch level the
//! CPU has: the run-time small kernel (`GemmPlan` over every M, N, K up to 32 with random
//! orientations, padding, negative strides, strides in neither direction contiguous), and
//! `layout!` gemm items over static tiles of dynamic tensors (static shapes, run-time
//! strides), whose extents are constants of the kernel. C is poisoned outside the layout, so
//! a stray write shows; `beta = 0` starts from NaN, so a read of C shows.

use cute_layout::kernels::Level;
use cute_layout::{GemmPlan, LayoutFn, Offset, PlanError, RuntimeLayout, Tensor, TensorMut, TrustedLayout, layout};

mod common;
use common::{Rng, at_each_level};

/// Fewer cases (`LAYOUT_TEST_SMALL=1`: under valgrind in scripts/kernel-checks.sh).
fn small_mode() -> bool {
    std::env::var_os("LAYOUT_TEST_SMALL").is_some_and(|v| v != "0" && !v.is_empty())
}

trait Real: cute_layout::gemm::GemmScalar + cute_layout::kernels::Element {
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

/// Buffers for A, B and C spanning each layout's offsets, the offset-0 position of each, and
/// C's starting values.
struct Case<T> {
    a: Vec<T>,
    b: Vec<T>,
    c: Vec<T>,
    bases: [usize; 3],
}

fn span<L: TrustedLayout>(l: &L) -> (usize, usize) {
    (l.min_offset().unsigned_abs(), l.min_offset().unsigned_abs() + l.max_offset() as usize + 1)
}

impl<T: Real> Case<T> {
    fn new<A: TrustedLayout, B: TrustedLayout, C: TrustedLayout>(r: &mut Rng, la: &A, lb: &B, lc: &C) -> Self {
        let ((ba, na), (bb, nb), (bc, nc)) = (span(la), span(lb), span(lc));
        let mut v = |n: usize| (0..n).map(|_| T::of(r.unit())).collect::<Vec<T>>();
        Case { a: v(na), b: v(nb), c: v(nc), bases: [ba, bb, bc] }
    }

    /// The case for `alpha`: A and B all NaN when `alpha = 0` (never read).
    fn for_alpha(mut self, alpha: f64) -> Self {
        if alpha == 0.0 {
            self.a.fill(T::of(f64::NAN));
            self.b.fill(T::of(f64::NAN));
        }
        self
    }

    /// Checks `got` (C after the product) against the scalar reference over the layouts:
    /// each element of C's layout, and every other element of the buffer untouched.
    #[allow(clippy::too_many_arguments)]
    fn check<A: LayoutFn, B: LayoutFn, C: LayoutFn>(
        &self,
        (m, n, k): (usize, usize, usize),
        alpha: f64,
        beta: f64,
        la: &A,
        lb: &B,
        lc: &C,
        got: &[T],
        what: &str,
    ) {
        let at = |base: usize, o: isize| (base as isize + o) as usize;
        let mut written = vec![false; got.len()];
        for j in 0..n {
            for i in 0..m {
                let (mut s, mut mag) = (0.0, 0.0);
                // `alpha = 0`: A and B are not read (NaN here), the product is 0.
                for p in 0..if alpha == 0.0 { 0 } else { k } {
                    let x = self.a[at(self.bases[0], la.offset(i + m * p).to_isize())].get();
                    let y = self.b[at(self.bases[1], lb.offset(j + n * p).to_isize())].get();
                    s += x * y;
                    mag += (x * y).abs();
                }
                let ci = at(self.bases[2], lc.offset(i + m * j).to_isize());
                let old = if beta == 0.0 { 0.0 } else { beta * self.c[ci].get() };
                let want = alpha * s + old;
                let tol = 4.0 * (k as f64 + 2.0) * T::EPS * (alpha.abs() * mag + old.abs() + 1e-30);
                let g = got[ci].get();
                assert!((g - want).abs() <= tol, "{what}: C({i},{j}) = {g}, want {want}");
                written[ci] = true;
            }
        }
        for (x, w) in written.iter().enumerate() {
            if !w {
                assert_eq!(got[x].get().to_bits(), self.c[x].get().to_bits(), "{what}: offset {x} outside C written");
            }
        }
    }

    /// C's starting buffer: NaN on C's elements when `beta = 0` (never read), else its values.
    fn start<L: LayoutFn>(&self, lc: &L, beta: f64) -> Vec<T> {
        let mut c = self.c.clone();
        if beta == 0.0 {
            lc.for_each_offset(|o| c[(self.bases[2] as isize + o.to_isize()) as usize] = T::of(f64::NAN));
        }
        c
    }
}

/// A random rank-2 layout of `r × c`: column-major, row-major, strided both ways, or one of
/// these with a negative stride; padded.
fn strided(rng: &mut Rng, r: usize, c: usize) -> RuntimeLayout<2> {
    let pad = rng.below(3);
    let (sr, sc) = match rng.below(4) {
        0 => (1, (r + pad) as isize),
        1 => ((c + pad) as isize, 1),
        2 => (2, (2 * r + pad) as isize),
        _ => (-1, (r + pad) as isize),
    };
    let (sr, sc) = if rng.below(5) == 0 { (sr, -sc) } else { (sr, sc) };
    RuntimeLayout::new(&[(r, sr), (c, sc)]).unwrap()
}

const SCALARS: [(f64, f64); 5] = [(1.0, 0.0), (0.5, 1.0), (-1.25, 0.75), (0.0, 2.0), (1.0, 1.0)];

fn plans<T: Real>(level: Level) {
    let mut r = Rng(29 + level as u64);
    for case in 0..if small_mode() { 24 } else { 120 } {
        let dim = |r: &mut Rng| 1 + r.below(32);
        let (m, n, k) = match case {
            0 => (32, 32, 32),
            1 => (1, 1, 1),
            2 => (8, 8, 8),
            // The cubes run through constant-extent instantiations.
            3 => (4, 4, 4),
            4 => (16, 16, 16),
            5 => (8, 8, 8),
            _ => (dim(&mut r), dim(&mut r), dim(&mut r)),
        };
        let (la, lb, lc) = (strided(&mut r, m, k), strided(&mut r, n, k), strided(&mut r, m, n));
        let (alpha, beta) = SCALARS[case % SCALARS.len()];
        let data = Case::<T>::new(&mut r, &la, &lb, &lc).for_alpha(alpha);
        let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
        let mut c = data.start(&lc, beta);
        let (ta, tb) = (Tensor::new(&data.a, la).unwrap(), Tensor::new(&data.b, lb).unwrap());
        plan.run(T::of(alpha), &ta, &tb, T::of(beta), &mut TensorMut::new(&mut c, lc).unwrap());
        let what = format!("{level:?} {m}x{n}x{k} A {la} B {lb} C {lc} alpha {alpha} beta {beta}");
        data.check((m, n, k), alpha, beta, &la, &lb, &lc, &c, &what);
    }
}

#[test]
fn small_plans_over_random_strides_match_the_reference() {
    at_each_level(|l| {
        plans::<f32>(l);
        plans::<f64>(l);
    });
}

layout! {
    /// 8×8 tiles with run-time leading dimensions (CuTe's `local_tile` with a run-time ldA).
    pub TA = (8,8):(1,LDA) where LDA >= 8;
    pub TB = (8,8):(LDB,1) where LDB >= 8;
    pub TC = (8,8):(1,LDC) where LDC >= 8;
    pub fn tile8 = gemm(f32, TA, TB, TC);
    pub fn tile8d = gemm(f64, TA, TB, TC);
    /// Row-major A and C, B (N,K) column-major: the kernel computes Cᵀ.
    pub RA = (5,7):(LDA,1) where LDA >= 7;
    pub RB = (3,7):(1,LDB) where LDB >= 3;
    pub RC = (5,3):(LDC,1) where LDC >= 3;
    pub fn rows = gemm(f64, RA, RB, RC);
    pub fn rows_f32 = gemm(f32, RA, RB, RC);
    /// Strided both ways, a negative stride, the largest tile.
    pub XA = (32,17):(PA,LDA) where LDA >= 32*PA;
    pub XB = (29,17):(-1,LDB) where LDB >= 29;
    pub XC = (32,29):(PC,LDC) where LDC >= 32*PC;
    pub fn strided_tile = gemm(f32, XA, XB, XC);
    /// Odd extents with a static item among the operands, and extent-1 modes.
    pub OA = (13,1):(1,LDA);
    pub OB = (9,1):(1,9);
    pub OC = (13,9):(1,LDC) where LDC >= 13;
    pub fn odd = gemm(f64, OA, OB, OC);
    /// Run-time extents and strides, one leaf per mode: M, N and K read at each call.
    pub DynA = (M,K):(1,LDA) where LDA >= M;
    pub DynB = (N,K):(LDB,1) where LDB >= K;
    pub DynC = (M,N):(1,LDC) where LDC >= M;
    pub fn dyn_cols = gemm(f32, DynA, DynB, DynC);
    pub fn dyn_cols_f64 = gemm(f64, DynA, DynB, DynC);
    /// Row-major A and C, a reversed B.
    pub RowA = (M,K):(LDA,1) where LDA >= K;
    pub RevB = (N,K):(-1,LDB) where LDB >= N;
    pub RowC = (M,N):(LDC,1) where LDC >= N;
    pub fn dyn_rows = gemm(f64, RowA, RevB, RowC);
    /// B contiguous along N (CuTe's NT product).
    pub NtB = (N,K):(1,LDB) where LDB >= N;
    pub fn dyn_nt = gemm(f32, DynA, NtB, DynC);
    /// C without a fact: the planner decides whether it writes one place twice.
    pub UC = (8,8):(1,LDC);
    pub fn unchecked_c = gemm(f32, TA, TB, UC);
}

/// Runs the item `f` over tensors of `la`, `lb`, `lc` and checks C.
#[allow(clippy::too_many_arguments)]
fn tile_case<T: Real, A, B, C>(
    r: &mut Rng,
    level: Level,
    mnk: (usize, usize, usize),
    la: A,
    lb: B,
    lc: C,
    f: impl Fn(T, &Tensor<'_, T, A>, &Tensor<'_, T, B>, T, &mut TensorMut<'_, T, C>),
) where
    A: TrustedLayout + std::fmt::Display,
    B: TrustedLayout + std::fmt::Display,
    C: TrustedLayout + std::fmt::Display,
{
    for (alpha, beta) in SCALARS {
        let data = Case::<T>::new(r, &la, &lb, &lc).for_alpha(alpha);
        let mut c = data.start(&lc, beta);
        f(
            T::of(alpha),
            &Tensor::new(&data.a, la).unwrap(),
            &Tensor::new(&data.b, lb).unwrap(),
            T::of(beta),
            &mut TensorMut::new(&mut c, lc).unwrap(),
        );
        let what = format!("{level:?} A {la} B {lb} C {lc} alpha {alpha} beta {beta}");
        data.check(mnk, alpha, beta, &la, &lb, &lc, &c, &what);
    }
}

#[test]
fn static_tiles_with_run_time_strides_match_the_reference() {
    at_each_level(|l| {
        let mut r = Rng(7 + l as u64);
        for _ in 0..if small_mode() { 2 } else { 6 } {
            let ld = |r: &mut Rng, min: usize| min + r.below(5);
            let (a, b, c) =
                (TA::new(ld(&mut r, 8)).unwrap(), TB::new(ld(&mut r, 8)).unwrap(), TC::new(ld(&mut r, 8)).unwrap());
            tile_case::<f32, _, _, _>(&mut r, l, (8, 8, 8), a, b, c, tile8);
            tile_case::<f64, _, _, _>(&mut r, l, (8, 8, 8), a, b, c, tile8d);
            let (a, b, c) =
                (RA::new(ld(&mut r, 7)).unwrap(), RB::new(ld(&mut r, 3)).unwrap(), RC::new(ld(&mut r, 3)).unwrap());
            tile_case::<f64, _, _, _>(&mut r, l, (5, 3, 7), a, b, c, rows);
            tile_case::<f32, _, _, _>(&mut r, l, (5, 3, 7), a, b, c, rows_f32);
            let (sa, sc) = (1 + r.below(3), 1 + r.below(3));
            let a = XA::new(sa, 32 * sa + r.below(4)).unwrap();
            let b = XB::new(ld(&mut r, 29)).unwrap();
            let c = XC::new(sc, 32 * sc + r.below(4)).unwrap();
            tile_case::<f32, _, _, _>(&mut r, l, (32, 29, 17), a, b, c, strided_tile);
            let (a, c) = (OA::new(1 + r.below(20)).unwrap(), OC::new(ld(&mut r, 13)).unwrap());
            tile_case::<f64, _, _, _>(&mut r, l, (13, 9, 1), a, OB, c, odd);
        }
    });
}

#[test]
fn a_tile_c_that_writes_one_place_twice_is_the_planners_error() {
    let (a, b) = (TA::new(8).unwrap(), TB::new(8).unwrap());
    let (x, y) = ([1f32; 64], [1f32; 64]);
    let (ta, tb) = (Tensor::new(&x, a).unwrap(), Tensor::new(&y, b).unwrap());
    let mut c = [0f32; 64];
    let e = try_unchecked_c(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, UC::new(2).unwrap()).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Layout { kernel: "gemm", .. }), "{e}");
    // With a leading dimension of 8 it runs: every C(i,j) = 8.
    unchecked_c(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, UC::new(8).unwrap()).unwrap());
    assert!(c.iter().all(|&v| v == 8.0), "{c:?}");
}

#[test]
fn run_time_extents_read_at_each_call_match_the_reference() {
    at_each_level(|l| {
        let mut r = Rng(101 + l as u64);
        for case in 0..if small_mode() { 8 } else { 40 } {
            // Mostly small (the small kernel), some above 32 (the kept plan).
            let top = if case % 5 == 0 { 48 } else { 32 };
            let (m, n, k) = match case {
                // The cubes run through constant-extent instantiations.
                1 => (4, 4, 4),
                2 => (8, 8, 8),
                3 => (16, 16, 16),
                _ => (1 + r.below(top), 1 + r.below(top), 1 + r.below(top)),
            };
            let pad = |r: &mut Rng| r.below(3);
            let (a, b, c) = (
                DynA::new(m, k, m + pad(&mut r)).unwrap(),
                DynB::new(n, k, k + pad(&mut r)).unwrap(),
                DynC::new(m, n, m + pad(&mut r)).unwrap(),
            );
            tile_case::<f32, _, _, _>(&mut r, l, (m, n, k), a, b, c, dyn_cols);
            tile_case::<f64, _, _, _>(&mut r, l, (m, n, k), a, b, c, dyn_cols_f64);
            let (a, b, c) = (
                RowA::new(m, k, k + pad(&mut r)).unwrap(),
                RevB::new(n, k, n + pad(&mut r)).unwrap(),
                RowC::new(m, n, n + pad(&mut r)).unwrap(),
            );
            tile_case::<f64, _, _, _>(&mut r, l, (m, n, k), a, b, c, dyn_rows);
            let (a, b, c) = (
                DynA::new(m, k, m + pad(&mut r)).unwrap(),
                NtB::new(n, k, n + pad(&mut r)).unwrap(),
                DynC::new(m, n, m + pad(&mut r)).unwrap(),
            );
            tile_case::<f32, _, _, _>(&mut r, l, (m, n, k), a, b, c, dyn_nt);
        }
    });
}

/// The checked small-kernel entries the items call: an operand outside its view is a panic
/// naming it; a huge stride on an extent-1 mode is never stepped and runs.
#[test]
fn the_small_kernel_entries_check_every_operand() {
    use cute_layout::__private::{Strides, small_gemm_dyn, small_gemm_strided};
    use cute_layout::kernels::{DstView, SrcView};
    let (a, b) = ([1f32; 64], [2f32; 64]);
    let mut c = [0f32; 64];
    let s = Strides { ars: 1, acs: 8, brs: 1, bcs: 8, crs: 1, ccs: 8 };
    let short = std::panic::catch_unwind(|| {
        let mut c = [0f32; 64];
        small_gemm_strided::<f32, 8, 8, 8>(
            1.0,
            &SrcView::new(&a[..63], 0),
            0,
            &SrcView::new(&b, 0),
            0,
            0.0,
            &mut DstView::new(&mut c, 0),
            0,
            s,
        );
    })
    .unwrap_err();
    let msg = short.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.starts_with("gemm: A addresses offsets"), "{msg}");
    let short = std::panic::catch_unwind(|| {
        let mut c = [0f32; 63];
        small_gemm_dyn(
            (8, 8, 8),
            1.0,
            &SrcView::new(&a, 0),
            0,
            &SrcView::new(&b, 0),
            0,
            0.0,
            &mut DstView::new(&mut c, 0),
            0,
            s,
        );
    })
    .unwrap_err();
    let msg = short.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.starts_with("gemm: C addresses offsets"), "{msg}");
    // 1×8×1 with a huge row stride on the extent-1 M mode and K mode: C(0,j) = 1·2.
    let huge = Strides { ars: isize::MAX, acs: isize::MIN + 1, brs: 1 << 60, bcs: 1, crs: -(1 << 61), ccs: 1 };
    small_gemm_dyn(
        (1, 8, 1),
        1.0,
        &SrcView::new(&a, 0),
        0,
        &SrcView::new(&b, 0),
        0,
        0.0,
        &mut DstView::new(&mut c, 0),
        0,
        huge,
    );
    assert_eq!(&c[..8], &[2.0; 8]);
    assert!(c[8..].iter().all(|&x| x == 0.0));
}
