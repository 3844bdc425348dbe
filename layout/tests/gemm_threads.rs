//! The parallel GEMM on rayon pools of 2, 3, 5 and 16 threads (more threads than this
//! machine's cores is fine: the tasks then take turns), against a scalar reference: random
//! shapes large enough to run on several threads (odd sizes, tall, wide, deep, 1000³),
//! column-major, row-major, reversed and generally strided operands, padded C, alpha and
//! beta (beta = 0 over a NaN C), f32 and f64, at each dispatch level the CPU has; and the
//! fused epilogue of `gemm_with`, called exactly once per element of C with its indices.
#![cfg(feature = "rayon")]

use cute_layout::gemm::{GemmScalar, gemm};
use cute_layout::kernels::{self, Level};
use cute_layout::{RuntimeLayout, Tensor, TensorMut, gemm_with};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tests force the process-wide level; they take turns so each runs at the level it forced.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());

/// The pool sizes every case runs on.
const THREADS: [usize; 4] = [2, 3, 5, 16];

/// Runs `f` at every level the CPU has.
fn at_each_level(mut f: impl FnMut(Level)) {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for l in [Level::Portable, Level::Avx2, Level::Avx512] {
        if kernels::force_level(l) != l {
            continue;
        }
        f(l);
    }
    kernels::force_level(Level::Avx512);
}

/// Runs `f` on a rayon pool of `threads` threads.
fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
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

trait Elem: GemmScalar + Send + Sync {
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    const EPS: f64;
    const NAN: Self;
}

impl Elem for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
    fn get(self) -> f64 {
        self as f64
    }
    const EPS: f64 = f32::EPSILON as f64;
    const NAN: Self = f32::NAN;
}

impl Elem for f64 {
    fn of(x: f64) -> Self {
        x
    }
    fn get(self) -> f64 {
        self
    }
    const EPS: f64 = f64::EPSILON;
    const NAN: Self = f64::NAN;
}

/// How a matrix lies in its buffer.
#[derive(Clone, Copy, Debug)]
enum Storage {
    /// Column-major, leading dimension `rows + pad`.
    Col(usize),
    /// Row-major, leading dimension `cols + pad`.
    Row(usize),
    /// Column-major with both strides negated (the base is the last element).
    Reversed,
    /// Element `(i, j)` at `2·i + (2·rows + 1)·j`.
    General,
    /// Column-major with leading dimension `rows` rounded up to 16 (a multiple of a 64-byte
    /// line), the first element `shift` elements past a line of the buffer.
    Lined(usize),
}

impl Storage {
    fn random(r: &mut Rng) -> Self {
        match r.below(10) {
            0..=3 => Storage::Col(r.below(4)),
            4..=7 => Storage::Row(r.below(4)),
            8 => Storage::Reversed,
            _ => Storage::General,
        }
    }

    /// `(buffer length, base offset, row stride, column stride)` of a `rows × cols` matrix.
    fn place(self, rows: usize, cols: usize) -> (usize, usize, isize, isize) {
        match self {
            Storage::Col(pad) => ((rows + pad) * cols, 0, 1, (rows + pad) as isize),
            Storage::Row(pad) => ((cols + pad) * rows, 0, (cols + pad) as isize, 1),
            Storage::Reversed => (rows * cols, rows * cols - 1, -1, -(rows as isize)),
            Storage::General => {
                let cs = 2 * rows + 1;
                (2 * (rows - 1) + cs * (cols - 1) + 1, 0, 2, cs as isize)
            }
            // (The base is set once the buffer is allocated: `Strided::new`.)
            Storage::Lined(_) => (rows.next_multiple_of(16) * cols + 64, 0, 1, rows.next_multiple_of(16) as isize),
        }
    }
}

/// A strided matrix in its own buffer.
struct Strided<T> {
    buf: Vec<T>,
    base: usize,
    rs: isize,
    cs: isize,
}

impl<T: Elem> Strided<T> {
    fn new(rows: usize, cols: usize, s: Storage, mut fill: impl FnMut() -> T) -> Self {
        let (len, base, rs, cs) = s.place(rows, cols);
        let buf: Vec<T> = (0..len).map(|_| fill()).collect();
        let base = if let Storage::Lined(shift) = s { buf.as_ptr().align_offset(64) + shift } else { base };
        Strided { buf, base, rs, cs }
    }
    fn index(&self, i: usize, j: usize) -> usize {
        (self.base as isize + i as isize * self.rs + j as isize * self.cs) as usize
    }
    fn at(&self, i: usize, j: usize) -> f64 {
        self.buf[self.index(i, j)].get()
    }
}

/// `(α·Σ_p A(i,p)·B(p,j) + β·C0(i,j), its magnitude bound)` for every `(i, j)`, column-major,
/// in f64 (`β = 0`: C0 not read).
fn reference<T: Elem>(
    a: &Strided<T>,
    b: &Strided<T>,
    c0: &Strided<T>,
    (m, n, k): (usize, usize, usize),
    alpha: f64,
    beta: f64,
) -> Vec<(f64, f64)> {
    let at: Vec<f64> = (0..m).flat_map(|i| (0..k).map(move |p| (i, p))).map(|(i, p)| a.at(i, p)).collect();
    let mut out = Vec::with_capacity(m * n);
    for j in 0..n {
        let bj: Vec<f64> = (0..k).map(|p| b.at(p, j)).collect();
        for i in 0..m {
            let row = &at[i * k..(i + 1) * k];
            let (mut s, mut mag) = (0.0, 0.0);
            for (x, y) in row.iter().zip(&bj) {
                s += x * y;
                mag += (x * y).abs();
            }
            let (mut want, mut scale) = (alpha * s, alpha.abs() * mag);
            if beta != 0.0 {
                want += beta * c0.at(i, j);
                scale += beta.abs() * c0.at(i, j).abs();
            }
            out.push((want, scale));
        }
    }
    out
}

/// Checks C (`got(i, j)`) against the reference, within `2·(k+4)·ε` of the magnitude.
fn assert_close<T: Elem>(
    what: &str,
    want: &[(f64, f64)],
    (m, n, k): (usize, usize, usize),
    got: impl Fn(usize, usize) -> f64,
) {
    for j in 0..n {
        for i in 0..m {
            let (w, scale) = want[i + m * j];
            let g = got(i, j);
            let bound = 2.0 * (k as f64 + 4.0) * T::EPS * scale + f64::MIN_POSITIVE;
            assert!((g - w).abs() <= bound, "{what} at ({i}, {j}): got {g}, want {w} (bound {bound})");
        }
    }
}

/// One `m×n×k` product through `gemm` on a pool of `threads`: C checked against the
/// reference, C's buffer outside the matrix untouched.
#[allow(clippy::too_many_arguments)]
fn run_case<T: Elem>(
    r: &mut Rng,
    threads: usize,
    (m, n, k): (usize, usize, usize),
    s: [Storage; 3],
    alpha: f64,
    beta: f64,
) {
    let what = format!("{:?} {threads} threads {m}x{n}x{k} {s:?} alpha {alpha} beta {beta}", kernels::level());
    let a = Strided::<T>::new(m, k, s[0], || T::of(r.unit()));
    let b = Strided::<T>::new(k, n, s[1], || T::of(r.unit()));
    let c0 = Strided::<T>::new(m, n, s[2], || T::of(r.unit()));
    // C in a buffer of its own (`Lined`: at its own offset), C0's elements (NaN for β = 0:
    // they must not leak), the buffer's other elements kept to check that they stay.
    let mut c = Strided::<T>::new(m, n, s[2], || T::of(r.unit()));
    for i in 0..m {
        for j in 0..n {
            let x = c.index(i, j);
            c.buf[x] = if beta == 0.0 { T::NAN } else { c0.buf[c0.index(i, j)] };
        }
    }
    let before = c.buf.clone();
    let (al, be) = (T::of(alpha), T::of(beta));
    let (ap, bp) = (a.buf[a.base..].as_ptr() as usize, b.buf[b.base..].as_ptr() as usize);
    let cp = c.buf[c.base..].as_mut_ptr() as usize;
    let (ars, acs, brs, bcs, crs, ccs) = (a.rs, a.cs, b.rs, b.cs, c.rs, c.cs);
    on_pool(threads, || {
        // SAFETY: each operand's elements are inside its buffer (`Storage::place`); C is its
        // own buffer, its offsets distinct.
        unsafe { gemm(m, n, k, al, ap as *const T, ars, acs, bp as *const T, brs, bcs, be, cp as *mut T, crs, ccs) }
    });
    let want = reference(&a, &b, &c0, (m, n, k), al.get(), be.get());
    assert_close::<T>(&what, &want, (m, n, k), |i, j| c.at(i, j));
    let mut inside = vec![false; c.buf.len()];
    for i in 0..m {
        for j in 0..n {
            inside[c.index(i, j)] = true;
        }
    }
    for (x, (&got, &was)) in c.buf.iter().zip(&before).enumerate() {
        assert!(inside[x] || got.get().to_bits() == was.get().to_bits(), "{what}: wrote outside C at {x}");
    }
}

/// A random shape with at least 2²¹ multiply-adds (the parallel threshold), extents from
/// 1 up: odd, tall, wide and deep ones.
fn shape(r: &mut Rng) -> (usize, usize, usize) {
    loop {
        let e = |r: &mut Rng| match r.below(4) {
            0 => 1 + r.below(40),
            1 => 40 + r.below(200),
            _ => 100 + r.below(500),
        };
        let (m, n, k) = (e(r), e(r), e(r));
        let mnk = m * n * k;
        if (1 << 21..1 << 25).contains(&mnk) {
            return (m, n, k);
        }
    }
}

const SCALARS: [(f64, f64); 4] = [(1.0, 0.0), (-0.75, 1.0), (2.0, -0.5), (0.5, 0.0)];

fn random_shapes<T: Elem>(seed: u64, cases: usize) {
    let mut r = Rng(seed);
    at_each_level(|_| {
        for case in 0..cases {
            let threads = THREADS[case % THREADS.len()];
            let (alpha, beta) = SCALARS[r.below(SCALARS.len())];
            let s = [Storage::random(&mut r), Storage::random(&mut r), Storage::random(&mut r)];
            let dims = shape(&mut r);
            run_case::<T>(&mut r, threads, dims, s, alpha, beta);
        }
    });
}

#[test]
fn random_shapes_f32() {
    random_shapes::<f32>(1, 24);
}

#[test]
fn random_shapes_f64() {
    random_shapes::<f64>(2, 24);
}

/// Shapes at the grid's edges: a few rows or columns over many threads, every pool size.
#[test]
fn thin_and_odd_shapes() {
    let mut r = Rng(3);
    // (2048, 24, 260): a column-major A of an 8 KiB column stride over few columns; the last
    // two: a large A over few columns in several steps of k (the last one shallower) and
    // several blocks of rows with an edge panel, each block packed whole while the one
    // before prefetches it.
    let shapes = [
        (5, 3000, 200),
        (3000, 7, 150),
        (33, 1025, 97),
        (1025, 33, 97),
        (257, 513, 129),
        (96, 700, 40),
        (2048, 24, 260),
        (1000, 20, 900),
        (3000, 13, 1000),
    ];
    at_each_level(|_| {
        for (c, &dims) in shapes.iter().enumerate() {
            for threads in THREADS {
                let (alpha, beta) = SCALARS[(c + threads) % SCALARS.len()];
                let s = [Storage::Col(c % 3), Storage::Row(1), Storage::Col(2)];
                if c % 2 == 0 {
                    run_case::<f32>(&mut r, threads, dims, s, alpha, beta);
                } else {
                    run_case::<f64>(&mut r, threads, dims, s, alpha, beta);
                }
            }
        }
    });
}

/// Shallow products whose C is larger than L3 (written past the caches where the plan's
/// `streams_c` says so: 40 MiB when L3 is unknown or over 256 MiB), on a line or a few elements
/// past one (the rows before the line run apart, `c_line_peel`), on one thread and several.
#[test]
fn c_larger_than_l3() {
    let l3 = cute_layout::kernel_plan::gemm_blocking::detected_caches().map_or(0, |c| c.l3);
    let bytes = if l3 == 0 || l3 > 256 << 20 { 40 << 20 } else { l3 + (1 << 20) };
    let mut r = Rng(6);
    at_each_level(|_| {
        for (threads, shift, beta) in [(1, 0, 0.0), (3, 5, 0.0), (2, 0, 1.0)] {
            let m = 2048 - shift;
            let n = bytes / (4 * 2048) + 1;
            let s = [Storage::Col(0), Storage::Row(0), Storage::Lined(shift)];
            run_case::<f32>(&mut r, threads, (m, n, 3), s, 1.5, beta);
        }
        let (m, n) = (1024 - 3, bytes / (8 * 1024) + 1);
        run_case::<f64>(&mut r, 2, (m, n, 5), [Storage::Row(1), Storage::Col(0), Storage::Lined(3)], -1.0, 0.0);
    });
}

/// A column-major B read in place in steps of all of k (`GemmBlocking::blocks_b_in_place`) on
/// several threads: `n` a multiple of NR = 12 (every task's panels full) and not (the edge
/// panel apart), k past 4096 (equal steps).
#[test]
fn b_in_place_in_steps_of_all_of_k() {
    let mut r = Rng(7);
    at_each_level(|_| {
        for (c, &dims) in [(16, 1200, 700), (96, 301, 600), (40, 240, 5000)].iter().enumerate() {
            for threads in [2, 3, 5] {
                let (alpha, beta) = SCALARS[(c + threads) % SCALARS.len()];
                let s = [Storage::Col(1), Storage::Col(c), Storage::Col(2)];
                run_case::<f32>(&mut r, threads, dims, s, alpha, beta);
                run_case::<f64>(&mut r, threads, dims, s, alpha, beta);
            }
        }
    });
}

/// 1000³ (several steps of k: rounds and shared panels over all of them), padded C.
#[test]
fn thousand_cubed() {
    let mut r = Rng(4);
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let d = (1000, 1000, 1000);
    run_case::<f32>(&mut r, 16, d, [Storage::Col(0), Storage::Col(0), Storage::Col(3)], 1.0, 0.0);
    run_case::<f64>(&mut r, 3, d, [Storage::Row(1), Storage::Col(0), Storage::Col(1)], -0.5, 2.0);
}

/// More tasks than threads (`gemm_tasks`: four per thread on eight threads when each keeps
/// 256×256 elements of C), the threads taking them one at a time: every task runs once, and
/// a fused epilogue once per element.
#[test]
fn more_tasks_than_threads() {
    let mut r = Rng(8);
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let (m, n) = (1544, 1450);
    assert_eq!(cute_layout::kernel_plan::gemm_tasks(m, n, 8), 32);
    run_case::<f32>(&mut r, 8, (m, n, 40), [Storage::Col(0), Storage::Row(0), Storage::Col(5)], 1.0, 0.0);
    run_case::<f64>(&mut r, 8, (m, n, 33), [Storage::Row(1), Storage::Col(0), Storage::Lined(3)], -0.5, 2.0);
    // A fused epilogue over the 32 tasks.
    epilogue_case::<f32>(&mut r, 8, (m, n, 24), 1.0, 0.5);
}

/// `gemm_with` on several threads: `f(x, m, n)` gets each final element with its indices
/// exactly once, and what it returns is stored.
fn epilogue_case<T: Elem>(r: &mut Rng, threads: usize, (m, n, k): (usize, usize, usize), alpha: f64, beta: f64) {
    let what = format!("{:?} gemm_with {threads} threads {m}x{n}x{k}", kernels::level());
    let (pa, pc) = (r.below(3), 1 + r.below(3));
    // A (M,K) column-major padded, B (N,K) row-major (k contiguous), C (M,N) column-major padded.
    let a = Strided::<T>::new(m, k, Storage::Col(pa), || T::of(r.unit()));
    let b = Strided::<T>::new(k, n, Storage::Col(0), || T::of(r.unit()));
    let c0 = Strided::<T>::new(m, n, Storage::Col(pc), || T::of(r.unit()));
    let la = RuntimeLayout::<2>::new(&[(m, 1), (k, (m + pa) as isize)]).unwrap();
    let lb = RuntimeLayout::<2>::new(&[(n, k as isize), (k, 1)]).unwrap();
    let lc = RuntimeLayout::<2>::new(&[(m, 1), (n, (m + pc) as isize)]).unwrap();
    let mut cbuf = c0.buf.clone();
    let counts: Vec<AtomicUsize> = (0..m * n).map(|_| AtomicUsize::new(0)).collect();
    let f = |x: T, i: usize, j: usize| -> T {
        assert!(i < m && j < n, "{what}: f at ({i}, {j})");
        counts[i + m * j].fetch_add(1, Ordering::Relaxed);
        T::of(x.get() * 0.5 + i as f64 * 0.37 + j as f64 * 0.011)
    };
    on_pool(threads, || {
        let (ta, tb) = (Tensor::new(&a.buf, la).unwrap(), Tensor::new(&b.buf, lb).unwrap());
        let mut tc = TensorMut::new(&mut cbuf, lc).unwrap();
        gemm_with(T::of(alpha), &ta, &tb, T::of(beta), &mut tc, f);
    });
    for (x, cnt) in counts.iter().enumerate() {
        assert_eq!(cnt.load(Ordering::Relaxed), 1, "{what}: f called {cnt:?} times at ({}, {})", x % m, x / m);
    }
    let want = reference(&a, &b, &c0, (m, n, k), T::of(alpha).get(), T::of(beta).get());
    let want: Vec<(f64, f64)> = (0..m * n)
        .map(|x| {
            // (`f`'s sum is rounded to T once more: its terms join the scale.)
            let (w, s) = want[x];
            let add = (x % m) as f64 * 0.37 + (x / m) as f64 * 0.011;
            (w * 0.5 + add, s + add)
        })
        .collect();
    let c = Strided { buf: cbuf, ..c0 };
    assert_close::<T>(&what, &want, (m, n, k), |i, j| c.at(i, j));
}

#[test]
fn epilogue_once_per_element() {
    let mut r = Rng(5);
    at_each_level(|_| {
        for case in 0..8 {
            let threads = THREADS[case % THREADS.len()];
            let (alpha, beta) = SCALARS[case % SCALARS.len()];
            let dims = shape(&mut r);
            if case % 2 == 0 {
                epilogue_case::<f32>(&mut r, threads, dims, alpha, beta);
            } else {
                epilogue_case::<f64>(&mut r, threads, dims, alpha, beta);
            }
        }
    });
}
