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
#[path = "common/buffers.rs"]
mod buffers;
#[path = "common/copy_items.rs"]
mod items;

use buffers::Aligned;
use items::*;

fn bytes(g: &mut BenchmarkGroup<'_, WallTime>, elements: usize) {
    g.throughput(Throughput::Bytes((2 * elements * size_of::<f32>()) as u64));
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
        let src = Aligned::ramp(2 * n);
        let mut dst = Aligned::zeros(n);
        let (src, dst) = (src.get(), dst.get_mut());
        g.bench_function("generated", |b| b.iter(|| kernel(black_box(&src[..n]), black_box(&mut *dst))));
        g.bench_function("copy_from_slice", |b| b.iter(|| black_box(&mut *dst).copy_from_slice(black_box(&src[..n]))));
        g.bench_function("vec64_generated", |b| b.iter(|| vec64(black_box(src), black_box(&mut *dst))));
        g.bench_function("vec64_copy_from_slice_per_vector", |b| {
            b.iter(|| plain::vec64(black_box(src), black_box(&mut *dst)))
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
        // Page-aligned: with the 16-byte offset two heap vectors have, glibc's memcpy of
        // 256 KiB ran 20x slow on Zen 3 (`common/buffers.rs`).
        let src = Aligned::ramp(n * n);
        let mut dst = Aligned::zeros(n * n);
        let (src, dst) = (src.get(), dst.get_mut());
        g.bench_function("generated", |b| b.iter(|| kernel(black_box(src), black_box(&mut *dst))));
        g.bench_function("transpose_crate", |b| {
            b.iter(|| transpose::transpose(black_box(src), black_box(&mut *dst), n, n))
        });
        g.bench_function("memcpy", |b| b.iter(|| black_box(&mut *dst).copy_from_slice(black_box(src))));
        g.finish();
    }
}

fn strided(c: &mut Criterion) {
    let n = 65536;
    let src = Aligned::ramp(256 * 4096);
    let mut dst = Aligned::zeros(512 * 512);
    let (src, dst) = (src.get(), dst.get_mut());
    type Kernel = fn(&[f32], &mut [f32]);
    let cases: [(&str, usize, Kernel, Kernel, usize, usize); 4] = [
        ("gather3", n, |s, d| gather3(s, d), plain::gather3, 3 * n, n),
        ("scatter3", n, |s, d| scatter3(s, d), plain::scatter3, n, 3 * n),
        ("broadcast_rows", 512 * 512, |s, d| broadcast_rows(s, d), plain::broadcast_rows, 512, 512 * 512),
        ("gather_table2", 12 * 4096, |s, d| gather_table2(s, d), plain::gather_table2, 256 * 4096, 12 * 4096),
    ];
    for (name, elements, kernel, peer, slen, dlen) in cases {
        let mut g = c.benchmark_group(name);
        bytes(&mut g, elements);
        let (s, d) = (&src[..slen], &mut dst[..dlen]);
        g.bench_function("generated", |b| b.iter(|| kernel(black_box(s), black_box(&mut *d))));
        g.bench_function("plain_loop", |b| b.iter(|| peer(black_box(s), black_box(&mut *d))));
        g.finish();
    }
}

criterion_group!(benches, contiguous, transposes, strided);
criterion_main!(benches);
