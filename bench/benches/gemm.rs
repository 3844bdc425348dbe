//! The run-time GEMM engine (`cute_layout::gemm`) against faer 0.24 and the gemm crate 0.19, in one
//! run, column-major `C = A·B` (β = 0) unless the group says otherwise:
//! - `gemm_1t/{f32,f64}/n`: one thread, square n = 256, 512, 1024, 2048;
//! - `gemm_small/{f32,f64}/n`: n = 4, 8, 16, 32 (one thread: below the parallel threshold):
//!   `layout` is the run-time engine (`cute_layout::gemm::gemm`, its direct path), `static` a
//!   `layout!` `gemm` item with every extent and stride known (the straight-line kernel);
//! - `gemm_2t/{f32,f64}/n`: two threads, n = 512, 1024, 2048;
//! - `gemm_shapes/f32/NAME`: tall-skinny, wide, K small and transposed operands, one thread.
//!
//! Throughput is `2·m·n·k` elements, so criterion's "elem/s" is FLOP/s.
//! Run: `cd bench && cargo bench --bench gemm > out.txt 2>&1` (table: `python3 gemm-table.py out.txt`).

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime};
use cute_layout::gemm::gemm;
use faer::linalg::matmul::matmul as faer_matmul;
use faer::{Accum, Par};
use gemm_peer::Parallelism;

#[path = "common/gemm_elem.rs"]
mod gemm_elem;
use gemm_elem::Elem;

/// Strides of one operand: column-major, or row-major ("transposed").
#[derive(Clone, Copy)]
enum Order {
    Col,
    Row,
}

impl Order {
    fn strides(self, rows: usize, cols: usize) -> (isize, isize) {
        match self {
            Order::Col => (1, rows as isize),
            Order::Row => (cols as isize, 1),
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
    sa: (isize, isize),
    sb: (isize, isize),
}

impl<T: Elem> Operands<T> {
    fn new(m: usize, n: usize, k: usize, oa: Order, ob: Order) -> Self {
        let fill = |len: usize, seed: usize| {
            (0..len).map(|i| T::from_f64(((i * 7 + seed) % 13) as f64 / 13.0 - 0.5)).collect()
        };
        Operands {
            m,
            n,
            k,
            a: fill(m * k, 1),
            b: fill(k * n, 2),
            c: vec![T::default(); m * n],
            sa: oa.strides(m, k),
            sb: ob.strides(k, n),
        }
    }

    fn layout(&mut self) {
        let (m, n, k) = (self.m, self.n, self.k);
        // SAFETY: A is m×k, B k×n, C m×n column-major, each in its own buffer of that size.
        unsafe {
            gemm(
                m,
                n,
                k,
                T::ONE,
                black_box(self.a.as_ptr()),
                self.sa.0,
                self.sa.1,
                self.b.as_ptr(),
                self.sb.0,
                self.sb.1,
                T::ZERO,
                self.c.as_mut_ptr(),
                1,
                m as isize,
            )
        }
    }

    fn faer(&mut self, par: Par) {
        let (m, n, k) = (self.m, self.n, self.k);
        let a = faer::MatRef::from_column_major_slice(&self.a, m, k);
        let a = if self.sa.1 == 1 { faer::MatRef::from_row_major_slice(&self.a, m, k) } else { a };
        let b = faer::MatRef::from_column_major_slice(&self.b, k, n);
        let b = if self.sb.1 == 1 { faer::MatRef::from_row_major_slice(&self.b, k, n) } else { b };
        let c = faer::MatMut::from_column_major_slice_mut(&mut self.c, m, n);
        faer_matmul(c, Accum::Replace, black_box(a), b, T::ONE, par);
    }

    fn peer(&mut self, par: Parallelism) {
        let (m, n, k) = (self.m, self.n, self.k);
        // SAFETY: as in `layout`; the gemm crate takes (column, row) strides and computes
        // `dst = α·dst + β·lhs·rhs`, here with dst not read.
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
                self.sa.1,
                self.sa.0,
                self.b.as_ptr(),
                self.sb.1,
                self.sb.0,
                T::ZERO,
                T::ONE,
                false,
                false,
                false,
                par,
            )
        }
    }
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap()
}

fn flops(g: &mut BenchmarkGroup<'_, WallTime>, m: usize, n: usize, k: usize) {
    g.throughput(Throughput::Elements((2 * m * n * k) as u64));
    if m * n * k >= 1 << 30 {
        g.sample_size(10);
    } else {
        g.sample_size(20);
    }
}

fn square_1t<T: Elem>(c: &mut Criterion) {
    let pool = one_thread();
    for n in [256, 512, 1024, 2048] {
        let mut g = c.benchmark_group(format!("gemm_1t/{}/{n}", T::NAME));
        flops(&mut g, n, n, n);
        let mut o = Operands::<T>::new(n, n, n, Order::Col, Order::Col);
        g.bench_function("layout", |bch| pool.install(|| bch.iter(|| o.layout())));
        g.bench_function("faer", |bch| bch.iter(|| o.faer(Par::Seq)));
        g.bench_function("gemm", |bch| bch.iter(|| o.peer(Parallelism::None)));
        g.finish();
    }
}

fn small<T: Elem>(c: &mut Criterion) {
    for n in [4, 8, 16, 32] {
        let mut g = c.benchmark_group(format!("gemm_small/{}/{n}", T::NAME));
        g.throughput(Throughput::Elements((2 * n * n * n) as u64));
        let mut o = Operands::<T>::new(n, n, n, Order::Col, Order::Col);
        g.bench_function("static", |bch| bch.iter(|| T::run_static(n, black_box(&o.a), &o.b, &mut o.c)));
        g.bench_function("layout", |bch| bch.iter(|| o.layout()));
        g.bench_function("faer", |bch| bch.iter(|| o.faer(Par::Seq)));
        g.bench_function("gemm", |bch| bch.iter(|| o.peer(Parallelism::None)));
        g.finish();
    }
}

fn square_2t<T: Elem>(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for n in [512, 1024, 2048] {
        let mut g = c.benchmark_group(format!("gemm_2t/{}/{n}", T::NAME));
        flops(&mut g, n, n, n);
        let mut o = Operands::<T>::new(n, n, n, Order::Col, Order::Col);
        g.bench_function("layout", |bch| pool.install(|| bch.iter(|| o.layout())));
        g.bench_function("faer", |bch| pool.install(|| bch.iter(|| o.faer(Par::rayon(2)))));
        g.bench_function("gemm", |bch| pool.install(|| bch.iter(|| o.peer(Parallelism::Rayon(2)))));
        g.finish();
    }
}

fn shapes(c: &mut Criterion) {
    let pool = one_thread();
    let cases = [
        ("tall_8192x64x256", 8192, 64, 256, Order::Col, Order::Col),
        ("wide_64x8192x256", 64, 8192, 256, Order::Col, Order::Col),
        ("ksmall_1024x1024x16", 1024, 1024, 16, Order::Col, Order::Col),
        ("tn_1024", 1024, 1024, 1024, Order::Row, Order::Col),
        ("nt_1024", 1024, 1024, 1024, Order::Col, Order::Row),
        ("tt_1024", 1024, 1024, 1024, Order::Row, Order::Row),
    ];
    for (name, m, n, k, oa, ob) in cases {
        let mut g = c.benchmark_group(format!("gemm_shapes/f32/{name}"));
        flops(&mut g, m, n, k);
        let mut o = Operands::<f32>::new(m, n, k, oa, ob);
        g.bench_function("layout", |bch| pool.install(|| bch.iter(|| o.layout())));
        g.bench_function("faer", |bch| bch.iter(|| o.faer(Par::Seq)));
        g.bench_function("gemm", |bch| bch.iter(|| o.peer(Parallelism::None)));
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    square_1t::<f32>(c);
    square_1t::<f64>(c);
    small::<f32>(c);
    small::<f64>(c);
    square_2t::<f32>(c);
    square_2t::<f64>(c);
    shapes(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1)).measurement_time(std::time::Duration::from_secs(3));
    targets = all
}
criterion_main!(benches);
