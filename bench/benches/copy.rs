//! Copy kernels emitted by `layout!` against their peers, in one run:
//! - contiguous and 64-byte-vector copies against `copy_from_slice` over the same bytes, at L1,
//!   L2 and DRAM sizes;
//! - f32 transposes n = 256, 1024, 4096 against a same-size `copy_from_slice` and the
//!   `transpose` crate;
//! - gather, scatter and broadcast against the plain loop a careful person writes.
//!
//! Throughput is bytes moved (read + write), so GB/s of two rows compare directly.
//! Run: `cd bench && cargo bench --bench copy` (ratios: `python3 tables.py`).

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime};
use cute_layout::layout;

layout! {
    /// 4096 f32 = 16 KiB (L1).
    pub fn contiguous_l1 = copy(4096:1, 4096:1);
    /// 262144 f32 = 1 MiB (L2).
    pub fn contiguous_l2 = copy(262144:1, 262144:1);
    /// 16M f32 = 64 MiB (DRAM).
    pub fn contiguous_dram = copy(16777216:1, 16777216:1);
    /// 64-byte vectors (16 f32) out of a source with a gap after each: L1, L2, DRAM.
    pub fn vec64_l1 = copy((16,256):(1,32), (16,256):(1,16));
    pub fn vec64_l2 = copy((16,16384):(1,32), (16,16384):(1,16));
    pub fn vec64_dram = copy((16,1048576):(1,32), (16,1048576):(1,16));
    /// Column-major n x n to row-major n x n.
    pub fn transpose_256 = copy((256,256):(1,256), (256,256):(256,1));
    pub fn transpose_1024 = copy((1024,1024):(1,1024), (1024,1024):(1024,1));
    pub fn transpose_4096 = copy((4096,4096):(1,4096), (4096,4096):(4096,1));
    /// Every third element of the source, packed.
    pub fn gather3 = copy(65536:3, 65536:1);
    /// Packed into every third element.
    pub fn scatter3 = copy(65536:1, 65536:3);
    /// One row of 512 broadcast to 512 columns (256K f32).
    pub fn broadcast_rows = copy((512,512):(1,0), (512,512):(1,512));
    /// Table 2's gather, 16K times over: `(2,3,2):(42,1,128)` per block of 256.
    pub fn gather_table2 = copy(((2,3,2),4096):((42,1,128),256), (12,4096):(1,12));
}

fn bytes(g: &mut BenchmarkGroup<'_, WallTime>, elements: usize) {
    g.throughput(Throughput::Bytes((2 * elements * size_of::<f32>()) as u64));
}

fn source(n: usize) -> Vec<f32> {
    (0..n).map(|k| k as f32).collect()
}

fn contiguous(c: &mut Criterion) {
    type Kernel = fn(&[f32], &mut [f32]);
    let cases: [(&str, usize, Kernel, Kernel); 3] = [
        ("l1_16KiB", 4096, |s, d| contiguous_l1(s, d), |s, d| vec64_l1(s, d)),
        ("l2_1MiB", 262144, |s, d| contiguous_l2(s, d), |s, d| vec64_l2(s, d)),
        ("dram_64MiB", 16777216, |s, d| contiguous_dram(s, d), |s, d| vec64_dram(s, d)),
    ];
    for (name, n, kernel, vec64) in cases {
        let mut g = c.benchmark_group(format!("copy_contiguous/{name}"));
        bytes(&mut g, n);
        if n > 1 << 20 {
            g.sample_size(10);
        }
        let src = source(2 * n);
        let mut dst = vec![0f32; n];
        g.bench_function("generated", |b| b.iter(|| kernel(black_box(&src[..n]), black_box(&mut dst))));
        g.bench_function("copy_from_slice", |b| b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..n]))));
        g.bench_function("vec64_generated", |b| b.iter(|| vec64(black_box(&src), black_box(&mut dst))));
        g.bench_function("vec64_copy_from_slice_per_vector", |b| {
            b.iter(|| {
                let (s, d) = (black_box(&src), black_box(&mut dst));
                for (k, chunk) in d.chunks_exact_mut(16).enumerate() {
                    chunk.copy_from_slice(&s[32 * k..32 * k + 16]);
                }
            })
        });
        g.finish();
    }
}

fn transposes(c: &mut Criterion) {
    type Kernel = fn(&[f32], &mut [f32]);
    let cases: [(usize, Kernel); 3] =
        [(256, |s, d| transpose_256(s, d)), (1024, |s, d| transpose_1024(s, d)), (4096, |s, d| transpose_4096(s, d))];
    for (n, kernel) in cases {
        let mut g = c.benchmark_group(format!("transpose_f32/{n}"));
        bytes(&mut g, n * n);
        if n >= 4096 {
            g.sample_size(10);
        }
        let src = source(n * n);
        let mut dst = vec![0f32; n * n];
        g.bench_function("generated", |b| b.iter(|| kernel(black_box(&src), black_box(&mut dst))));
        g.bench_function("transpose_crate", |b| {
            b.iter(|| transpose::transpose(black_box(&src), black_box(&mut dst), n, n))
        });
        g.bench_function("memcpy", |b| b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src))));
        g.finish();
    }
}

fn strided(c: &mut Criterion) {
    let n = 65536;
    let src = source(3 * n);
    let mut dst = vec![0f32; 3 * n];
    let mut g = c.benchmark_group("gather3");
    bytes(&mut g, n);
    g.bench_function("generated", |b| b.iter(|| gather3(black_box(&src), black_box(&mut dst))));
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst[..n]));
            for (x, y) in d.iter_mut().zip(s.iter().step_by(3)) {
                *x = *y;
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("scatter3");
    bytes(&mut g, n);
    g.bench_function("generated", |b| b.iter(|| scatter3(black_box(&src), black_box(&mut dst))));
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src[..n]), black_box(&mut dst));
            for (x, y) in d.iter_mut().step_by(3).zip(s) {
                *x = *y;
            }
        })
    });
    g.finish();

    let m = 512;
    let mut g = c.benchmark_group("broadcast_rows");
    bytes(&mut g, m * m);
    let mut dst = vec![0f32; m * m];
    g.bench_function("generated", |b| b.iter(|| broadcast_rows(black_box(&src), black_box(&mut dst))));
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src[..m]), black_box(&mut dst));
            for col in d.chunks_exact_mut(m) {
                col.copy_from_slice(s);
            }
        })
    });
    g.finish();

    let blocks = 4096;
    let mut g = c.benchmark_group("gather_table2");
    bytes(&mut g, 12 * blocks);
    let src = source(256 * blocks);
    let mut dst = vec![0f32; 12 * blocks];
    g.bench_function("generated", |b| b.iter(|| gather_table2(black_box(&src), black_box(&mut dst))));
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for (blk, out) in d.chunks_exact_mut(12).enumerate() {
                let base = &s[256 * blk..];
                for k in 0..2 {
                    for j in 0..3 {
                        for i in 0..2 {
                            out[i + 2 * j + 6 * k] = base[42 * i + j + 128 * k];
                        }
                    }
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, contiguous, transposes, strided);
criterion_main!(benches);
