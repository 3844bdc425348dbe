//! The GEMM engine against a naive f64-accumulating reference, with an error bound of
//! `c·k·ε·(|α|·Σ|A||B| + |β||C|)` per element: random sizes (non-multiples of every tile,
//! past every cache block), the four transposition variants and other strides (negative,
//! general, strided C, row-major C), α and β including 0 (β = 0 with a NaN-filled C), the
//! direct small path, the blocked path and the parallel one, at each dispatch level the CPU
//! has (forced in turn), for f32 and f64.
//!
//! `LAYOUT_TEST_SMALL=1` (set by scripts/kernel-checks.sh for valgrind and qemu) uses fewer,
//! smaller problems.

use cute_layout::gemm::{GemmScalar, MatMut, MatRef, gemm, matmul};
use cute_layout::kernels::{self, Level};
use std::sync::Mutex;

/// Tests force the process-wide level; they take turns so each runs at the level it forced.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());

const LEVELS: [Level; 3] = [Level::Portable, Level::Avx2, Level::Avx512];

fn at_each_level(mut f: impl FnMut(Level)) {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for l in LEVELS {
        let got = kernels::force_level(l);
        if got != l {
            println!("skipping level {l:?}: this CPU (or LAYOUT_SIMD_LEVEL) allows only {got:?}");
            continue;
        }
        f(l);
    }
    kernels::force_level(Level::Avx512);
}

fn small_mode() -> bool {
    std::env::var_os("LAYOUT_TEST_SMALL").is_some_and(|v| v != "0" && !v.is_empty())
}

/// A deterministic generator (SplitMix64).
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

trait Elem: GemmScalar {
    const EPS: f64;
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    const NAN: Self;
}

impl Elem for f32 {
    const EPS: f64 = f32::EPSILON as f64;
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    const NAN: Self = f32::NAN;
}

impl Elem for f64 {
    const EPS: f64 = f64::EPSILON;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
    const NAN: Self = f64::NAN;
}

/// How a matrix is laid out in its buffer.
#[derive(Clone, Copy, Debug)]
enum Storage {
    /// Column-major with leading dimension `rows + pad`.
    Col(usize),
    /// Row-major with leading dimension `cols + pad`.
    Row(usize),
    /// Column-major with both strides negated (the base is the last element).
    Reversed,
    /// Element `(i, j)` at `i·2 + j·(2·rows + 1)`.
    General,
    /// Column-major with leading dimension `rows` rounded up to 16 (a multiple of a 64-byte
    /// line), the first element `shift` elements past a line.
    Lined(usize),
}

/// A strided matrix in its own buffer: `(buffer, base offset, row stride, col stride)`.
struct Strided<T> {
    buf: Vec<T>,
    base: usize,
    rs: isize,
    cs: isize,
}

impl<T: Elem> Strided<T> {
    fn new(rows: usize, cols: usize, s: Storage, fill: impl FnMut() -> T) -> Self {
        let (len, base, rs, cs) = match s {
            Storage::Col(pad) => ((rows + pad) * cols, 0, 1, (rows + pad) as isize),
            Storage::Row(pad) => ((cols + pad) * rows, 0, (cols + pad) as isize, 1),
            Storage::Reversed => (rows * cols, rows * cols - 1, -1, -(rows as isize)),
            Storage::General => {
                let cs = 2 * rows + 1;
                (2 * (rows - 1) + cs * (cols - 1) + 1, 0, 2, cs as isize)
            }
            Storage::Lined(_) => ((rows.next_multiple_of(16)) * cols + 64, 0, 1, rows.next_multiple_of(16) as isize),
        };
        let mut fill = fill;
        let buf: Vec<T> = (0..len).map(|_| fill()).collect();
        let base = match s {
            Storage::Lined(shift) => buf.as_ptr().align_offset(64) + shift,
            _ => base,
        };
        Strided { buf, base, rs, cs }
    }
    fn at(&self, i: usize, j: usize) -> T {
        self.buf[(self.base as isize + i as isize * self.rs + j as isize * self.cs) as usize]
    }
    fn ptr(&self) -> *const T {
        self.buf[self.base..].as_ptr()
    }
    fn ptr_mut(&mut self) -> *mut T {
        self.buf[self.base..].as_mut_ptr()
    }
}

#[derive(Clone, Copy, Debug)]
struct Case {
    m: usize,
    n: usize,
    k: usize,
    sa: Storage,
    sb: Storage,
    sc: Storage,
    alpha: f64,
    beta: f64,
}

fn run_case<T: Elem>(case: Case, rng: &mut Rng) {
    let Case { m, n, k, sa, sb, sc, alpha, beta } = case;
    let a = Strided::<T>::new(m, k, sa, || T::from_f64(rng.unit()));
    let b = Strided::<T>::new(k, n, sb, || T::from_f64(rng.unit()));
    // β = 0: C starts as NaN everywhere (padding too), which must not leak.
    let mut c = Strided::<T>::new(m, n, sc, || if beta == 0.0 { T::NAN } else { T::from_f64(rng.unit()) });
    let c0: Vec<Vec<f64>> = (0..m).map(|i| (0..n).map(|j| c.at(i, j).to_f64()).collect()).collect();
    let pad_before: Vec<(usize, u64)> = if beta == 0.0 {
        Vec::new()
    } else {
        c.buf.iter().enumerate().map(|(i, x)| (i, x.to_f64().to_bits())).collect()
    };
    let (alpha_t, beta_t) = (T::from_f64(alpha), T::from_f64(beta));
    let (alpha, beta) = (alpha_t.to_f64(), beta_t.to_f64());
    // SAFETY: each view's elements are inside its buffer (built by `Strided::new`); C is its
    // own buffer, its offsets distinct.
    unsafe {
        let (crs, ccs) = (c.rs, c.cs);
        gemm(m, n, k, alpha_t, a.ptr(), a.rs, a.cs, b.ptr(), b.rs, b.cs, beta_t, c.ptr_mut(), crs, ccs);
    }
    let eps = T::EPS;
    let mut touched = vec![false; c.buf.len()];
    for i in 0..m {
        for j in 0..n {
            touched[(c.base as isize + i as isize * c.rs + j as isize * c.cs) as usize] = true;
            let (mut s, mut abs) = (0.0f64, 0.0f64);
            for p in 0..k {
                let x = a.at(i, p).to_f64() * b.at(p, j).to_f64();
                s += x;
                abs += x.abs();
            }
            let (want, scale) = if beta == 0.0 {
                (alpha * s, alpha.abs() * abs)
            } else {
                (alpha * s + beta * c0[i][j], alpha.abs() * abs + beta.abs() * c0[i][j].abs())
            };
            let got = c.at(i, j).to_f64();
            let bound = 2.0 * (k as f64 + 4.0) * eps * scale + f64::MIN_POSITIVE;
            assert!(
                (got - want).abs() <= bound,
                "{case:?} at ({i}, {j}): got {got}, want {want} (bound {bound}, level {:?})",
                kernels::level()
            );
        }
    }
    // Elements of C's buffer outside the matrix are untouched.
    for (idx, bits) in pad_before {
        if !touched[idx] {
            assert_eq!(c.buf[idx].to_f64().to_bits(), bits, "{case:?}: wrote outside C at buffer index {idx}");
        }
    }
}

fn storage(rng: &mut Rng) -> Storage {
    match rng.below(8) {
        0..=2 => Storage::Col(rng.below(3)),
        3..=5 => Storage::Row(rng.below(3)),
        6 => Storage::Reversed,
        _ => Storage::General,
    }
}

fn scalar(rng: &mut Rng) -> f64 {
    match rng.below(5) {
        0 => 0.0,
        1 => 1.0,
        2 => -1.0,
        _ => rng.unit() * 2.0,
    }
}

/// A size: mostly small and around the tiles, sometimes up to `max`.
fn size(rng: &mut Rng, max: usize) -> usize {
    match rng.below(4) {
        0 => 1 + rng.below(8),
        1 => 1 + rng.below(40),
        _ => 1 + rng.below(max),
    }
}

/// Random cases plus fixed ones: every transposition variant, past KC (k > 512), past MC
/// (m > 512), past NC (n > 4080), the parallel threshold, and the small path.
fn cases(rng: &mut Rng) -> Vec<Case> {
    let small = small_mode();
    let (count, max) = match (small, cfg!(debug_assertions)) {
        (true, _) => (12, 70),
        (false, true) => (40, 300),
        (false, false) => (150, 300),
    };
    let mut out = Vec::new();
    for &(sa, sb) in &[
        (Storage::Col(0), Storage::Col(0)),
        (Storage::Col(1), Storage::Row(0)),
        (Storage::Row(2), Storage::Col(1)),
        (Storage::Row(0), Storage::Row(0)),
    ] {
        for &(m, n, k) in &[(17, 13, 9), (33, 25, 70), (5, 3, 2)] {
            out.push(Case { m, n, k, sa, sb, sc: Storage::Col(2), alpha: 1.5, beta: -0.5 });
        }
        if !small {
            out.push(Case { m: 131, n: 77, k: 45, sa, sb, sc: Storage::Row(3), alpha: 1.0, beta: 0.0 });
        }
    }
    let big: &[(usize, usize, usize)] = if small {
        &[(70, 40, 530), (100, 30, 30)]
    } else {
        &[(41, 29, 700), (400, 20, 19), (3, 4100, 5), (200, 170, 70), (70, 300, 110)]
    };
    for &(m, n, k) in big {
        out.push(Case {
            m,
            n,
            k,
            sa: Storage::Col(1),
            sb: Storage::Row(1),
            sc: Storage::Col(0),
            alpha: 0.75,
            beta: 1.25,
        });
        out.push(Case {
            m,
            n,
            k,
            sa: Storage::Row(0),
            sb: Storage::Col(0),
            sc: Storage::Row(1),
            alpha: -1.0,
            beta: 0.0,
        });
    }
    if !small {
        // A column-major B read in place (AVX-512 `reads_b_in_place`: one A block, m ≤ MC, f32
        // MC = 512, f64 256) or packed (m > MC: two or three A blocks), two KC steps, full
        // panels and an edge panel, partial last tiles of A.
        for &(m, n, k) in &[(500, 30, 600), (300, 40, 300), (150, 50, 300), (383, 13, 400), (600, 40, 450)] {
            out.push(Case {
                m,
                n,
                k,
                sa: Storage::Col(1),
                sb: Storage::Col(2),
                sc: Storage::Col(0),
                alpha: 0.5,
                beta: 2.0,
            });
        }
    }
    if !small {
        // A column-major A read in place (AVX-512 `reads_a_in_place`: a span of at most 512 KiB,
        // so f32 here and f64 for the first two; the last one's f64 A is packed): full row panels only,
        // an edge panel of 1 and of 7 rows (packed), padded columns, several KC steps, and a
        // B read in place too (`Col`) or packed (`Row`).
        for &(m, n, k, pad, sb) in &[
            (256, 100, 250, 0, Storage::Col(0)),
            (97, 70, 130, 3, Storage::Row(2)),
            (71, 200, 1000, 0, Storage::Col(1)),
        ] {
            out.push(Case { m, n, k, sa: Storage::Col(pad), sb, sc: Storage::Col(1), alpha: 1.5, beta: -0.5 });
        }
    }
    if !small {
        // A column-major B read in place whose columns are 4 KiB apart (f32 ld 1024, f64 ld 512)
        // or 8 KiB: on an L1d of 8 ways each panel runs as two tiles of NR/2 columns
        // (`GemmBlocking::b_in_place_halves`), full and short last row tiles.
        for &(m, n, k, pad) in &[(100, 40, 1000, 24), (40, 25, 500, 12), (33, 12, 1000, 1048)] {
            out.push(Case {
                m,
                n,
                k,
                sa: Storage::Col(1),
                sb: Storage::Col(pad),
                sc: Storage::Col(0),
                alpha: 2.0,
                beta: 0.5,
            });
        }
    }
    if !small {
        // Shallow products (k far below KC), whose A blocks take more rows
        // (`GemmBlocking::mc_for_depth`): several row blocks of up to 8·MC rows, an edge block,
        // A packed from either orientation, C padded.
        for &(m, n, k, sa) in
            &[(9001, 14, 3, Storage::Col(0)), (5000, 26, 40, Storage::Row(1)), (4500, 13, 17, Storage::Col(2))]
        {
            out.push(Case { m, n, k, sa, sb: Storage::Col(1), sc: Storage::Col(3), alpha: 1.25, beta: 0.5 });
        }
    }
    if !small {
        // A column-major A over 512 KiB (the next A block prefetched by the first calls of
        // each block, several tiles per call after them), several A blocks and steps of k.
        out.push(Case {
            m: 700,
            n: 50,
            k: 400,
            sa: Storage::Col(1),
            sb: Storage::Row(0),
            sc: Storage::Col(2),
            alpha: -0.5,
            beta: 1.5,
        });
    }
    if !small {
        // B read in place in steps of all of k (`GemmBlocking::blocks_b_in_place`): one tile of
        // rows and several, `n` a multiple of NR = 12 and not (the edge panel then runs apart),
        // and k past `GEMM_DEEP_KC` = 4096 (equal steps).
        for &(m, n, k) in &[(16, 36, 1000), (70, 40, 900), (20, 13, 4500), (33, 24, 9000)] {
            let (sa, sb, sc) = (Storage::Col(1), Storage::Col(2), Storage::Col(1));
            out.push(Case { m, n, k, sa, sb, sc, alpha: 1.25, beta: 0.75 });
        }
    }
    if !small {
        // Shallow products whose C's columns start past a line (all of them at the same
        // offset): the rows before the line run apart (`GemmBlocking::c_line_peel`), the rest
        // store whole lines; at least 8 tiles of rows (f32 MR = 32, f64 16), β zero and not.
        for (shift, beta) in [(1, 0.0), (3, 1.5), (7, 0.0), (12, -1.0), (15, 0.0)] {
            let (m, n, k) = (300 - shift, 30, 20);
            let (sa, sb, sc) = (Storage::Col(0), Storage::Row(1), Storage::Lined(shift));
            out.push(Case { m, n, k, sa, sb, sc, alpha: 1.5, beta });
        }
    }
    for _ in 0..count {
        out.push(Case {
            m: size(rng, max),
            n: size(rng, max),
            k: size(rng, max),
            sa: storage(rng),
            sb: storage(rng),
            sc: storage(rng),
            alpha: scalar(rng),
            beta: scalar(rng),
        });
    }
    out
}

#[test]
fn against_reference_at_each_level() {
    at_each_level(|l| {
        let mut rng = Rng(0x5EED ^ l as u64);
        for case in cases(&mut rng) {
            run_case::<f32>(case, &mut rng);
            run_case::<f64>(case, &mut rng);
        }
    });
}

#[test]
fn every_small_shape() {
    // The direct path and its edges: all m, n in 1..=max, a few k.
    let max = if small_mode() { 9 } else { 20 };
    at_each_level(|_| {
        let mut rng = Rng(7);
        for m in 1..=max {
            for n in 1..=max {
                for k in [1, 3, 16] {
                    let case = Case {
                        m,
                        n,
                        k,
                        sa: Storage::Col(0),
                        sb: Storage::Row(1),
                        sc: Storage::Col(1),
                        alpha: 1.0,
                        beta: if (m + n) % 2 == 0 { 0.0 } else { 0.5 },
                    };
                    run_case::<f32>(case, &mut rng);
                    run_case::<f64>(case, &mut rng);
                }
            }
        }
    });
}

#[test]
fn zero_alpha_and_empty_k() {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut c = vec![f64::NAN; 12];
    let a = [f64::NAN; 12];
    // SAFETY: A is never read (α = 0); C is 3×4 column-major in a buffer of 12.
    unsafe { gemm(3, 4, 3, 0.0, a.as_ptr(), 1, 3, a.as_ptr(), 1, 3, 0.0, c.as_mut_ptr(), 1, 3) };
    assert!(c.iter().all(|&x| x == 0.0));
    let mut c = vec![2.0f32; 12];
    // SAFETY: k = 0: A and B are never read; C as above.
    unsafe { gemm(3, 4, 0, 1.0, core::ptr::null(), 1, 3, core::ptr::null(), 1, 3, 3.0, c.as_mut_ptr(), 1, 3) };
    assert!(c.iter().all(|&x| x == 6.0));
    // m = 0: nothing happens, nothing is read.
    // SAFETY: an empty C.
    unsafe {
        gemm::<f32>(0, 4, 3, 1.0, core::ptr::null(), 1, 3, core::ptr::null(), 1, 3, 3.0, core::ptr::null_mut(), 1, 3)
    };
}

#[test]
fn views() {
    let a: Vec<f32> = (0..6).map(|x| x as f32).collect(); // 2×3 row-major
    let b: Vec<f32> = (0..6).map(|x| x as f32 - 2.0).collect(); // 3×2 row-major
    let mut c = vec![f32::NAN; 4];
    let av = MatRef::from_slice(&a, 2, 3, 3, 1);
    let bv = MatRef::from_slice(&b, 3, 2, 2, 1);
    assert_eq!((av.rows(), av.cols(), av.strides()), (2, 3, (3, 1)));
    assert_eq!(av.get(1, 2), 5.0);
    assert_eq!(av.transpose().get(2, 1), 5.0);
    matmul(1.0, av, bv, 0.0, MatMut::from_slice(&mut c, 2, 2, 2, 1));
    // [[0,1,2],[3,4,5]] · [[-2,-1],[0,1],[2,3]]
    assert_eq!(c, [4.0, 7.0, 4.0, 16.0]);
    let cv = MatMut::from_slice(&mut c, 2, 2, 1, 2);
    assert_eq!(cv.as_ref().get(1, 0), 7.0);
}

#[test]
#[should_panic(expected = "does not fit")]
fn view_out_of_bounds() {
    let a = [0.0f64; 5];
    let _ = MatRef::from_slice(&a, 2, 3, 1, 2);
}

#[test]
#[should_panic(expected = "map two elements")]
fn view_not_injective() {
    let mut c = [0.0f64; 8];
    let _ = MatMut::from_slice(&mut c, 3, 3, 1, 2);
}

#[test]
#[should_panic(expected = "shapes do not agree")]
fn matmul_shape_mismatch() {
    let a = [0.0f64; 6];
    let mut c = [0.0f64; 4];
    matmul(
        1.0,
        MatRef::from_slice(&a, 2, 3, 1, 2),
        MatRef::from_slice(&a, 2, 3, 1, 2),
        0.0,
        MatMut::from_slice(&mut c, 2, 2, 1, 2),
    );
}

#[test]
fn an_empty_matrix_view_is_accepted() {
    let mut empty: [f32; 0] = [];
    let m = cute_layout::gemm::MatMut::from_slice(&mut empty, 0, 62, 1, 0);
    let _ = m;
    let r = cute_layout::gemm::MatRef::from_slice(&[] as &[f64], 62, 0, 0, 1);
    let _ = r;
}
