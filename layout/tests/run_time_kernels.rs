//! The run-time kernel entries (`cute_layout::copy`, `gemm`, `CopyPlan`, `GemmPlan`) over
//! tensors of every kind of layout, against scalar references: random run-time flat layouts
//! (permuted, padded, negative strides), dynamic items with nested modes (contractions, a
//! batch mode, K split in two), static items and sub-tensors, at each dispatch level the CPU
//! has; destinations poisoned first, so a write outside the layout shows. And the errors:
//! sizes, a destination that writes one place twice, a plan run over another layout, and
//! panics at the caller's line.

use cute_layout::kernels::{self, Element};
use cute_layout::{
    CopyPlan, GemmPlan, LayoutFn, PlanError, RuntimeLayout, Tensor, TensorMut, TrustedLayout, copy, gemm, layout,
    parse_tiler, try_copy, try_gemm,
};

mod common;
use common::{Rng, at_each_level};
use std::sync::Mutex;

fn small_mode() -> bool {
    std::env::var_os("LAYOUT_TEST_SMALL").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Flat modes of `extents`, in a random order of strides with random padding and signs:
/// an injective layout.
fn random_modes(r: &mut Rng, extents: &[usize]) -> Vec<(usize, isize)> {
    let mut order: Vec<usize> = (0..extents.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, r.below(i + 1));
    }
    let mut strides = vec![0isize; extents.len()];
    let mut next = 1usize;
    for &k in &order {
        let sign = if r.below(5) == 0 { -1 } else { 1 };
        strides[k] = sign * next as isize;
        next = next * extents[k] + if r.below(3) == 0 { r.below(3) } else { 0 };
    }
    extents.iter().copied().zip(strides).collect()
}

/// The shape `extents` of `size` split into another factorization (or the same).
fn refactor(r: &mut Rng, extents: &[usize]) -> Vec<usize> {
    let size: usize = extents.iter().product();
    if r.below(2) == 0 || size < 4 {
        return extents.to_vec();
    }
    let divs: Vec<usize> = (2..size).filter(|d| size.is_multiple_of(*d)).collect();
    match divs.get(r.below(divs.len().max(1))) {
        Some(&d) => vec![d, size / d],
        None => vec![size],
    }
}

/// `dst[D(i)] = src[S(i)]` by hand, on a poisoned destination.
fn reference<T: Copy, S: TrustedLayout, D: TrustedLayout>(src: &Tensor<'_, T, S>, dst: &mut [T], d: &D, base: usize) {
    for i in 0..d.size() {
        dst[(base as isize + cute_layout::Offset::to_isize(d.offset(i))) as usize] = src[i];
    }
}

trait Value: Element + PartialEq + std::fmt::Debug {
    fn of(i: usize) -> Self;
    const POISON: Self;
}
impl Value for u8 {
    fn of(i: usize) -> Self {
        (i % 251 + 1) as u8
    }
    const POISON: Self = 0;
}
impl Value for u16 {
    fn of(i: usize) -> Self {
        (i % 65521 + 1) as u16
    }
    const POISON: Self = 0;
}
impl Value for f32 {
    fn of(i: usize) -> Self {
        i as f32 + 1.0
    }
    const POISON: Self = -0.5;
}
impl Value for f64 {
    fn of(i: usize) -> Self {
        i as f64 + 1.0
    }
    const POISON: Self = -0.5;
}

fn copy_case<T: Value>(r: &mut Rng, extents: &[usize]) {
    let s = RuntimeLayout::<8>::new(&random_modes(r, extents)).unwrap();
    let shape = refactor(r, extents);
    let d = RuntimeLayout::<8>::new(&random_modes(r, &shape)).unwrap();
    let src: Vec<T> = (0..s.min_offset().unsigned_abs() + s.max_offset() as usize + 1).map(T::of).collect();
    let len = d.min_offset().unsigned_abs() + d.max_offset() as usize + 1;
    let base = d.min_offset().unsigned_abs();
    let t = Tensor::new(&src, s).unwrap();
    let mut want = vec![T::POISON; len];
    reference(&t, &mut want, &d, base);
    let mut got = vec![T::POISON; len];
    copy(&t, &mut TensorMut::new(&mut got, d).unwrap());
    assert_eq!(got, want, "copy {s} -> {d}");
    let mut again = vec![T::POISON; len];
    let plan = CopyPlan::new(&s, &d).unwrap();
    plan.run(&t, &mut TensorMut::new(&mut again, d).unwrap());
    assert_eq!(again, want, "CopyPlan {s} -> {d}");
}

#[test]
fn copies_of_random_run_time_layouts_match_the_reference() {
    let cases = if small_mode() { 40 } else { 300 };
    at_each_level(|_| {
        let mut r = Rng(7);
        for c in 0..cases {
            let rank = 1 + r.below(4);
            let extents: Vec<usize> = (0..rank).map(|_| 1 + r.below(if c % 10 == 0 { 40 } else { 9 })).collect();
            match c % 4 {
                0 => copy_case::<u8>(&mut r, &extents),
                1 => copy_case::<u16>(&mut r, &extents),
                2 => copy_case::<f32>(&mut r, &extents),
                _ => copy_case::<f64>(&mut r, &extents),
            }
        }
    });
}

#[test]
fn a_run_time_transpose_reaches_the_transpose_body() {
    let (m, n) = if small_mode() { (37, 29) } else { (130, 257) };
    let s = RuntimeLayout::<2>::new(&[(m, 1), (n, m as isize + 3)]).unwrap();
    let d = RuntimeLayout::<2>::new(&[(m, n as isize), (n, 1)]).unwrap();
    let plan = CopyPlan::new(&s, &d).unwrap();
    assert!(matches!(plan.program().unwrap().body, kernels::Body::Transpose { .. }), "{:?}", plan.program());
    let src: Vec<f32> = (0..(m + 3) * n).map(|i| i as f32).collect();
    at_each_level(|_| {
        let mut dst = vec![-1.0f32; m * n];
        plan.run(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
        for i in 0..m {
            for j in 0..n {
                assert_eq!(dst[i * n + j], src[i + j * (m + 3)]);
            }
        }
    });
}

layout! {
    pub ColMajor = (M,N):(1,LDS) where LDS >= M;
    pub RowMajor = (M,N):(LDD,1) where LDD >= N;
    pub Tile = (8,8):(1,8);
    pub TileT = (8,8):(8,1);
}

#[test]
fn copies_over_dynamic_static_and_sub_tensors() {
    let (m, n, lds, ldd) = (12, 6, 16, 9);
    let src: Vec<f64> = (0..lds * n).map(|i| i as f64).collect();
    let mut dst = vec![-1.0; m * ldd];
    let (s, d) = (ColMajor::new(m, n, lds).unwrap(), RowMajor::new(m, n, ldd).unwrap());
    copy(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
    for i in 0..m {
        for j in 0..n {
            assert_eq!(dst[i * ldd + j], src[i + j * lds]);
        }
    }
    // A static item into a run-time layout and back.
    let t: Vec<u32> = (0..64).collect();
    let mut u = vec![0u32; 64];
    let rt = RuntimeLayout::<2>::new(&[(8, 8), (8, 1)]).unwrap();
    copy(&Tensor::new(&t, Tile).unwrap(), &mut TensorMut::new(&mut u, rt).unwrap());
    let mut w = vec![0u32; 64];
    copy(&Tensor::new(&u, TileT).unwrap(), &mut TensorMut::new(&mut w, Tile).unwrap());
    assert_eq!(w, t);
    // A 4x3 tile of a dynamic tensor (a static shape, run-time strides) into a row-major tile.
    let a = Tensor::new(&src, s).unwrap();
    let tiler = parse_tiler("[4:1,3:1]").unwrap();
    let tile = a.local_tile(&tiler, 1).unwrap(); // rows 4..8, columns 0..3
    let mut out = vec![0.0; 12];
    let rm = <RuntimeLayout>::new(&[(4, 3), (3, 1)]).unwrap();
    copy(&tile, &mut TensorMut::new(&mut out, rm).unwrap());
    for i in 0..4 {
        for j in 0..3 {
            assert_eq!(out[i * 3 + j], src[(4 + i) + j * lds]);
        }
    }
}

#[test]
fn copy_errors_name_the_layouts() {
    let src = [0u8; 16];
    let mut dst = [0u8; 16];
    let a = RuntimeLayout::<2>::new(&[(4, 1), (4, 4)]).unwrap();
    let b = RuntimeLayout::<2>::new(&[(3, 1), (5, 3)]).unwrap();
    let e = try_copy(&Tensor::new(&src, a).unwrap(), &mut TensorMut::new(&mut dst, b).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Layout { kernel: "copy", .. }), "{e}");
    assert!(e.to_string().contains("(4,4):(1,4)") && e.to_string().contains("(3,5):(1,3)"), "{e}");
    // Two indices onto one place of the destination.
    let bcast = RuntimeLayout::<2>::new(&[(4, 1), (4, 0)]).unwrap();
    let e = try_copy(&Tensor::new(&src, a).unwrap(), &mut TensorMut::new(&mut dst, bcast).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Layout { .. }), "{e}");
    // A plan over other layouts of the same type.
    let plan = CopyPlan::new(&a, &a).unwrap();
    let other = RuntimeLayout::<2>::new(&[(4, 4), (4, 1)]).unwrap();
    let e = plan.try_run(&Tensor::new(&src, a).unwrap(), &mut TensorMut::new(&mut dst, other).unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "copy: the plan was made for the destination layout `(4,4):(1,4)`, but the tensor's layout is `(4,4):(4,1)`"
    );
}

/// The file and line of the panic `f` raises.
fn panic_location(f: impl FnOnce() + std::panic::UnwindSafe) -> (String, String) {
    static WHERE: Mutex<Option<String>> = Mutex::new(None);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        *WHERE.lock().unwrap_or_else(|e| e.into_inner()) = info.location().map(|l| l.file().to_string());
    }));
    let err = std::panic::catch_unwind(f).unwrap_err();
    std::panic::set_hook(hook);
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    (WHERE.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default(), msg)
}

#[test]
fn run_time_kernels_panic_at_the_callers_line() {
    let (file, msg) = panic_location(|| {
        let src = [0u8; 16];
        let mut dst = [0u8; 16];
        let a = RuntimeLayout::<2>::new(&[(4, 1), (4, 4)]).unwrap();
        let b = RuntimeLayout::<2>::new(&[(3, 1), (5, 3)]).unwrap();
        copy(&Tensor::new(&src, a).unwrap(), &mut TensorMut::new(&mut dst, b).unwrap());
    });
    assert!(file.ends_with("run_time_kernels.rs"), "{file}: {msg}");
    assert!(msg.starts_with("copy: "), "{msg}");
    let (file, msg) = panic_location(|| {
        let x = [0f32; 16];
        let mut y = [0f32; 16];
        let a = RuntimeLayout::<2>::new(&[(4, 1), (4, 4)]).unwrap();
        let b = RuntimeLayout::<2>::new(&[(3, 1), (4, 3)]).unwrap();
        let (ta, tb) = (Tensor::new(&x, a).unwrap(), Tensor::new(&x, b).unwrap());
        gemm(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut y, a).unwrap());
    });
    assert!(file.ends_with("run_time_kernels.rs"), "{file}: {msg}");
    assert!(msg.starts_with("gemm: ") && msg.contains('N'), "{msg}");
}

/// `C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` by hand over the layouts' indices
/// (colexicographic: A's index of (m,k,l) is m + M·k + M·K·l), and the error bound.
#[allow(clippy::too_many_arguments)]
fn gemm_reference<A: LayoutFn, B: LayoutFn, C: LayoutFn>(
    (m, n, k, batch): (usize, usize, usize, usize),
    alpha: f64,
    a: (&[f64], &A, usize),
    b: (&[f64], &B, usize),
    beta: f64,
    c: (&[f64], &C, usize),
) -> Vec<(usize, f64, f64)> {
    let at = |l: &dyn Fn(usize) -> isize, base: usize, i: usize| (base as isize + l(i)) as usize;
    let (ao, bo, co) = (
        |i| cute_layout::Offset::to_isize(a.1.offset(i)),
        |i| cute_layout::Offset::to_isize(b.1.offset(i)),
        |i| cute_layout::Offset::to_isize(c.1.offset(i)),
    );
    let mut out = Vec::new();
    for l in 0..batch {
        for j in 0..n {
            for i in 0..m {
                let (mut s, mut mag) = (0.0, 0.0);
                for p in 0..k {
                    let x = a.0[at(&ao, a.2, i + m * p + m * k * l)];
                    let y = b.0[at(&bo, b.2, j + n * p + n * k * l)];
                    s += x * y;
                    mag += (x * y).abs();
                }
                let ci = at(&co, c.2, i + m * j + m * n * l);
                let old = c.0[ci];
                let old = if beta == 0.0 { 0.0 } else { beta * old };
                out.push((ci, alpha * s + old, alpha.abs() * mag + old.abs()));
            }
        }
    }
    out
}

trait Real: cute_layout::gemm::GemmScalar + Element + Copy {
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

/// Runs `gemm` and `GemmPlan` over layouts `la`, `lb`, `lc` (with their extents) and checks
/// every element of C against the reference, and that C's other elements are untouched.
fn gemm_case<T: Real, A, B, C>(r: &mut Rng, la: A, lb: B, lc: C, alpha: f64, beta: f64)
where
    A: TrustedLayout + PartialEq + std::fmt::Debug,
    B: TrustedLayout + PartialEq + std::fmt::Debug,
    C: TrustedLayout + PartialEq + std::fmt::Debug,
{
    let span = |l: &dyn Fn() -> (isize, isize)| {
        let (lo, hi) = l();
        lo.unsigned_abs() + hi as usize + 1
    };
    let (na, nb, nc) = (
        span(&|| (la.min_offset(), la.max_offset())),
        span(&|| (lb.min_offset(), lb.max_offset())),
        span(&|| (lc.min_offset(), lc.max_offset())),
    );
    let a: Vec<f64> = (0..na).map(|_| r.unit()).collect();
    let b: Vec<f64> = (0..nb).map(|_| r.unit()).collect();
    let c0: Vec<f64> = (0..nc).map(|_| r.unit()).collect();
    let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
    let ext = plan.extents();
    let (bases, cb) =
        ((la.min_offset().unsigned_abs(), lb.min_offset().unsigned_abs()), lc.min_offset().unsigned_abs());
    let want = gemm_reference(ext, alpha, (&a, &la, bases.0), (&b, &lb, bases.1), beta, (&c0, &lc, cb));
    let (at, bt): (Vec<T>, Vec<T>) = (a.iter().map(|&x| T::of(x)).collect(), b.iter().map(|&x| T::of(x)).collect());
    for through_plan in [false, true] {
        // With beta = 0, C starts as NaN: it must not be read.
        let mut ct: Vec<T> = c0.iter().map(|&x| T::of(if beta == 0.0 { f64::NAN } else { x })).collect();
        let (ta, tb) = (Tensor::new(&at, la).unwrap(), Tensor::new(&bt, lb).unwrap());
        let mut tc = TensorMut::new(&mut ct, lc).unwrap();
        if through_plan {
            plan.run(T::of(alpha), &ta, &tb, T::of(beta), &mut tc);
        } else {
            gemm(T::of(alpha), &ta, &tb, T::of(beta), &mut tc);
        }
        let mut written = vec![false; nc];
        for &(ci, v, mag) in &want {
            let tol = 4.0 * (ext.2 as f64 + 2.0) * T::EPS * (mag + 1e-30);
            let got = ct[ci].get();
            assert!((got - v).abs() <= tol, "C offset {ci}: {got} vs {v} (A {la:?}, B {lb:?}, C {lc:?})");
            written[ci] = true;
        }
        for (i, w) in written.iter().enumerate() {
            if !w {
                let got = ct[i].get();
                assert!(got.to_bits() == T::of(c0[i]).get().to_bits() || (beta == 0.0 && got.is_nan()), "offset {i}");
            }
        }
    }
}

layout! {
    /// M in two leaves (a contraction over a 2-D M), C the same.
    pub AM2 = ((M1,M2),K):((1,SA1),SA2) where SA1 >= M1;
    pub BN = (N,K):(SB,1) where SB >= K;
    pub CM2 = ((M1,M2),N):((1,SC1),SC2) where SC1 >= M1;
    /// K in two leaves.
    pub AK2 = (M,(K1,K2)):(1,(LDA,SK)) where LDA >= M;
    pub BK2 = (N,(K1,K2)):(LDB,(1,SBK)) where LDB >= 1;
    pub CMN = (M,N):(1,LDC) where LDC >= M;
    /// A batch mode.
    pub AL = (M,K,L):(1,LDA,SLA) where LDA >= M;
    pub BL = (N,K,L):(1,LDB,SLB) where LDB >= N;
    pub CL = (M,N,L):(1,LDC,SLC) where LDC >= M;
    pub SmallA = (8,8):(1,8);
    pub SmallB = (8,8):(8,1);
    pub SmallC = (8,8):(1,8);
}

fn flat(r: &mut Rng, m: usize, k: usize) -> RuntimeLayout<2> {
    let pad = r.below(3);
    if r.below(2) == 0 {
        RuntimeLayout::new(&[(m, 1), (k, (m + pad) as isize)]).unwrap()
    } else {
        RuntimeLayout::new(&[(m, (k + pad) as isize), (k, 1)]).unwrap()
    }
}

fn gemm_cases<T: Real>() {
    let mut r = Rng(11);
    let scalars = [(1.0, 0.0), (0.5, 1.0), (-1.25, 0.75), (0.0, 2.0), (1.0, 1.0)];
    let cases = if small_mode() { 6 } else { 25 };
    for c in 0..cases {
        let big = if small_mode() { 40 } else { 150 };
        let dim = |r: &mut Rng| 1 + r.below(if c % 3 == 0 { big } else { 24 });
        let (m, n, k) = (dim(&mut r), dim(&mut r), dim(&mut r));
        let (alpha, beta) = scalars[c % scalars.len()];
        let (la, lb, lc) = (flat(&mut r, m, k), flat(&mut r, n, k), flat(&mut r, m, n));
        gemm_case::<T, _, _, _>(&mut r, la, lb, lc, alpha, beta);
        // Nested M.
        let (m1, m2) = (1 + r.below(9), 1 + r.below(7));
        let (sa1, sc1) = (m1 + r.below(3), m1 + r.below(2));
        let la = AM2::new(m1, m2, k, sa1, sa1 * m2 + r.below(3)).unwrap();
        let lb = BN::new(n, k, k + r.below(3)).unwrap();
        let lc = CM2::new(m1, m2, n, sc1, sc1 * m2).unwrap();
        gemm_case::<T, _, _, _>(&mut r, la, lb, lc, alpha, beta);
        // K in two leaves: A's K = (K1,K2):(LDA, LDA·K1), B's K = (K1,K2):(1, SBK).
        let (k1, k2) = (1 + r.below(9), 1 + r.below(5));
        let lda = m + r.below(3);
        let la = AK2::new(m, k1, k2, lda, lda * k1).unwrap();
        let lb = BK2::new(n, k1, k2, k1 * k2 + 1, k1).unwrap();
        let lc = CMN::new(m, n, m + 1).unwrap();
        gemm_case::<T, _, _, _>(&mut r, la, lb, lc, alpha, beta);
        // A batch of 3.
        let (mm, nn, kk) = (m.min(30), n.min(30), k.min(30));
        let la = AL::new(mm, kk, 3, mm, mm * kk).unwrap();
        let lb = BL::new(nn, kk, 3, nn + 1, (nn + 1) * kk).unwrap();
        let lc = CL::new(mm, nn, 3, mm, mm * nn + 5).unwrap();
        gemm_case::<T, _, _, _>(&mut r, la, lb, lc, alpha, beta);
    }
    gemm_case::<T, _, _, _>(&mut r, SmallA, SmallB, SmallC, 1.0, 0.5);
    // A 16x8 tile of a 48x8 column-major A (static shape, run-time stride) times a tile of B.
    let (m, n, k) = (48, 24, 8);
    let a: Vec<T> = (0..m * k).map(|i| T::of(i as f64 / 7.0)).collect();
    let b: Vec<T> = (0..n * k).map(|i| T::of(1.0 - i as f64 / 11.0)).collect();
    let ta = Tensor::new(&a, RuntimeLayout::<2>::new(&[(m, 1), (k, m as isize)]).unwrap()).unwrap();
    let tb = Tensor::new(&b, RuntimeLayout::<2>::new(&[(n, k as isize), (k, 1)]).unwrap()).unwrap();
    let (sa, sb) = (
        ta.local_tile(&parse_tiler("[16:1,8:1]").unwrap(), 2).unwrap(),
        tb.local_tile(&parse_tiler("[8:1,8:1]").unwrap(), 1).unwrap(),
    );
    let mut c = vec![T::of(0.0); 16 * 8];
    gemm(
        T::of(1.0),
        &sa,
        &sb,
        T::of(0.0),
        &mut TensorMut::new(&mut c, <RuntimeLayout>::new(&[(16, 1), (8, 16)]).unwrap()).unwrap(),
    );
    for i in 0..16 {
        for j in 0..8 {
            let want: f64 = (0..k).map(|p| a[32 + i + p * m].get() * b[(8 + j) * k + p].get()).sum();
            assert!((c[i + 16 * j].get() - want).abs() <= 1e-4 * (1.0 + want.abs()), "({i},{j})");
        }
    }
}

#[test]
fn gemms_over_every_kind_of_layout_match_the_reference() {
    at_each_level(|_| {
        gemm_cases::<f32>();
        gemm_cases::<f64>();
    });
}

/// `try_gemm(alpha, A, B, beta, C)` over the slices `a`, `b`, `c` through the layouts paired
/// with them.
fn try_gemm_over<const R: usize>(
    alpha: f64,
    (a, la): (&[f64], RuntimeLayout<R>),
    (b, lb): (&[f64], RuntimeLayout<R>),
    beta: f64,
    (c, lc): (&mut [f64], RuntimeLayout<R>),
) -> Result<(), PlanError> {
    try_gemm(
        alpha,
        &Tensor::new(a, la).unwrap(),
        &Tensor::new(b, lb).unwrap(),
        beta,
        &mut TensorMut::new(c, lc).unwrap(),
    )
}

#[test]
fn gemm_errors_name_the_dimension() {
    let x = [0f64; 64];
    let mut y = [0f64; 64];
    let a = RuntimeLayout::<2>::new(&[(4, 1), (5, 4)]).unwrap();
    let b = RuntimeLayout::<2>::new(&[(3, 1), (4, 3)]).unwrap(); // K = 4, A's K = 5
    let c = RuntimeLayout::<2>::new(&[(4, 1), (3, 4)]).unwrap();
    let e = try_gemm_over(1.0, (&x, a), (&x, b), 0.0, (&mut y, c)).unwrap_err();
    assert!(e.to_string().starts_with("gemm: ") && e.to_string().contains('K'), "{e}");
    // C writing one place twice.
    let b = RuntimeLayout::<2>::new(&[(3, 1), (5, 3)]).unwrap();
    let c = RuntimeLayout::<2>::new(&[(4, 1), (3, 0)]).unwrap();
    let e = try_gemm_over(1.0, (&x, a), (&x, b), 0.0, (&mut y, c)).unwrap_err();
    assert!(matches!(e, PlanError::Layout { kernel: "gemm", .. }), "{e}");
    // A plan run over another C.
    let c = RuntimeLayout::<2>::new(&[(4, 1), (3, 4)]).unwrap();
    let plan = GemmPlan::new(&a, &b, &c).unwrap();
    let c2 = RuntimeLayout::<2>::new(&[(4, 3), (3, 1)]).unwrap();
    let e = plan
        .try_run(
            1.0,
            &Tensor::new(&x, a).unwrap(),
            &Tensor::new(&x, b).unwrap(),
            0.0,
            &mut TensorMut::new(&mut y, c2).unwrap(),
        )
        .unwrap_err();
    assert!(matches!(e, PlanError::Mismatch { operand: "C", .. }), "{e}");
}

/// An empty run-time layout (an extent 0) is its own size, 0: a copy between it and a layout
/// of another size is an error that shows its extents, and between two empty layouts it
/// copies nothing.
#[test]
fn copies_of_empty_layouts() {
    let empty = RuntimeLayout::<2>::new(&[(4, 1), (0, 4)]).unwrap();
    let one = RuntimeLayout::<1>::new(&[(1, 1)]).unwrap();
    assert_eq!(empty.to_string(), "(4,0):(1,0)");
    let src = [42.0f32];
    let mut dst = [0.0f32];
    let e = try_copy(&Tensor::new(&src, empty).unwrap(), &mut TensorMut::new(&mut dst, one).unwrap()).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("copy: the source `(4,0) (empty)` has 0 elements"), "{text}");
    assert!(!text.starts_with("copy: copy:"), "{text}");
    let e = try_copy(&Tensor::new(&src, one).unwrap(), &mut TensorMut::new(&mut dst, empty).unwrap()).unwrap_err();
    assert!(e.to_string().contains("has 1 elements but the destination `(4,0) (empty)` has 0"), "{e}");
    assert_eq!(dst, [0.0]);
    let other = RuntimeLayout::<2>::new(&[(0, 1), (3, 1)]).unwrap();
    try_copy(&Tensor::new(&src, empty).unwrap(), &mut TensorMut::new(&mut dst, other).unwrap()).unwrap();
    assert_eq!(dst, [0.0]);
}

/// A GEMM with M, N or L of 0 does nothing; with K of 0 it leaves `β·C` (C not read when
/// β = 0), the epilogue applied once per element; extents of 0 must agree between operands.
#[test]
fn gemms_with_empty_dimensions() {
    let rt = |modes: &[(usize, isize)]| RuntimeLayout::<3>::new(modes).unwrap();
    let (m, n) = (5, 3);
    let (a, b) = ([f64::NAN; 1], [f64::NAN; 1]);
    let (la, lb, lc) = (rt(&[(m, 1), (0, 5)]), rt(&[(n, 1), (0, 3)]), rt(&[(m, 1), (n, 7)]));
    for beta in [0.0, 0.5] {
        let mut c: Vec<f64> = (0..21).map(|i| if beta == 0.0 { f64::NAN } else { i as f64 }).collect();
        let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
        assert_eq!(plan.extents(), (m, n, 0, 1));
        gemm(
            2.0,
            &Tensor::new(&a, la).unwrap(),
            &Tensor::new(&b, lb).unwrap(),
            beta,
            &mut TensorMut::new(&mut c, lc).unwrap(),
        );
        for j in 0..n {
            for i in 0..m {
                let want = if beta == 0.0 { 0.0 } else { beta * (i + 7 * j) as f64 };
                assert_eq!(c[i + 7 * j], want, "beta {beta} at ({i},{j})");
            }
        }
        // The padding rows 5 and 6 of each column are not written.
        assert!(c[5].is_nan() == (beta == 0.0) && c[6].is_nan() == (beta == 0.0));
    }
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let mut c = vec![1.0f64; 21];
    cute_layout::gemm_with(
        1.0,
        &Tensor::new(&a, la).unwrap(),
        &Tensor::new(&b, lb).unwrap(),
        1.0,
        &mut TensorMut::new(&mut c, lc).unwrap(),
        |x, i, j| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            x + (i * 10 + j) as f64
        },
    );
    assert_eq!(calls.into_inner(), m * n);
    assert_eq!((c[0], c[1], c[7]), (1.0, 11.0, 2.0));
    // M = 0 (A and C empty), and N = 0 with a batch: nothing happens.
    let mut c = [3.0f64; 2];
    for (la, lb, lc) in [
        (rt(&[(0, 1), (4, 1)]), rt(&[(2, 1), (4, 2)]), rt(&[(0, 1), (2, 1)])),
        (rt(&[(2, 1), (4, 2), (3, 8)]), rt(&[(0, 1), (4, 1), (3, 4)]), rt(&[(2, 1), (0, 2), (3, 0)])),
    ] {
        let (a, b) = (vec![f64::NAN; 64], vec![f64::NAN; 64]);
        try_gemm_over(1.0, (&a, la), (&b, lb), 0.0, (&mut c, lc)).unwrap();
        assert_eq!(c, [3.0, 3.0]);
    }
    // A says M = 0, C says M = 5: an error naming M.
    let e = GemmPlan::new(&rt(&[(0, 1), (2, 1)]), &rt(&[(n, 1), (2, 3)]), &lc).unwrap_err();
    assert!(e.to_string().contains("the extents of M differ: A has 0 and C has 5"), "{e}");
}
