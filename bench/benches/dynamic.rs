//! Dynamic layouts (extents and strides known at run time): the generated `offset(i)` and
//! traversal against the hand-written expression with the same run-time values, and the
//! cost of `new` (every check) for a rank-4 layout.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cute_layout::layout;
use layout_bench::random_indices;

layout! {
    pub Mat = (M,N):(1,LD);
    /// A dynamic grid of static 8x8 tiles: ((8,8),(M/8,N/8)):((1,LD),(8,8*LD)).
    pub Tiles = zipped_divide((M,N):(1,LD), [8:1, 8:1]);
    pub Rank4 = ((M,N),(K,L)):((1,LD),(LD*N,LD*N*K));
    /// The static 8x8 tile, and a dynamic number of them at a run-time stride.
    pub Tile8 = (8,8):(1,8);
    pub Outer = ((8,8),T):((1,8),S);
}

const ACCESSES: usize = 4096;
const M: usize = 256;
const N: usize = 192;
const LD: usize = 264;
/// The outer mode of `Outer`: 768 tiles, 72 elements apart (8 of padding after each tile).
const T: usize = 768;
const S: usize = 72;

/// The run-time values as a careful person keeps them.
#[derive(Clone, Copy)]
struct Dims {
    m: usize,
    ld: usize,
    mt: usize,
    ld8: usize,
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(30)
}

fn random_access(c: &mut Criterion) {
    let d = black_box(Dims { m: M, ld: LD, mt: M / 8, ld8: 8 * LD });
    let mat = Mat::new(black_box(M), black_box(N), black_box(LD)).unwrap();
    let tiles = Tiles::new(black_box(M), black_box(N), black_box(LD)).unwrap();
    let idx = random_indices(M * N, ACCESSES);
    let mut g = c.benchmark_group("dynamic_random_access");
    g.throughput(Throughput::Elements(ACCESSES as u64));
    g.bench_function("mat/generated", |b| {
        b.iter(|| black_box(&idx[..]).iter().fold(0usize, |s, &i| s.wrapping_add(mat.offset(i))))
    });
    g.bench_function("mat/hand_written", |b| {
        b.iter(|| black_box(&idx[..]).iter().fold(0usize, |s, &i| s.wrapping_add(i % d.m + (i / d.m) * d.ld)))
    });
    g.bench_function("tiles/generated", |b| {
        b.iter(|| black_box(&idx[..]).iter().fold(0usize, |s, &i| s.wrapping_add(tiles.offset(i))))
    });
    g.bench_function("tiles/hand_written", |b| {
        b.iter(|| {
            black_box(&idx[..]).iter().fold(0usize, |s, &i| {
                let (r0, r1, t) = (i & 7, (i >> 3) & 7, i >> 6);
                let (b0, b1) = (t % d.mt, t / d.mt);
                s.wrapping_add(r0 + r1 * d.ld + b0 * 8 + b1 * d.ld8)
            })
        })
    });
    g.finish();
}

fn traversal(c: &mut Criterion) {
    let d = black_box(Dims { m: M, ld: LD, mt: M / 8, ld8: 8 * LD });
    let n = black_box(N);
    let tiles = Tiles::new(black_box(M), black_box(N), black_box(LD)).unwrap();
    // Reads through the offsets (a sum of offsets alone folds to a closed form).
    let data: Vec<u32> = (0..LD * N).map(|x| x as u32).collect();
    let data = black_box(&data[..]);
    let mut g = c.benchmark_group("dynamic_traversal");
    g.throughput(Throughput::Elements((M * N) as u64));
    g.bench_function("tiles/generated", |b| {
        b.iter(|| {
            let mut s = 0usize;
            tiles.for_each_offset(|o| s = s.wrapping_add(data[o] as usize));
            s
        })
    });
    g.bench_function("tiles/hand_written", |b| {
        b.iter(|| {
            let mut s = 0usize;
            for b1 in 0..n / 8 {
                for b0 in 0..d.mt {
                    let base = b0 * 8 + b1 * d.ld8;
                    for r1 in 0..8 {
                        for r0 in 0..8 {
                            s = s.wrapping_add(data[base + r0 + r1 * d.ld] as usize);
                        }
                    }
                }
            }
            s
        })
    });
    g.finish();
}

/// A dynamic outer mode over the static `(8,8):(1,8)` tile: what the static tile costs plus
/// one multiply-add per outer step.
fn static_inner(c: &mut Criterion) {
    let (t, s) = (black_box(T), black_box(S));
    let outer = Outer::new(black_box(T), black_box(S)).unwrap();
    let data: Vec<u32> = (0..T * S).map(|x| x as u32).collect();
    let data = black_box(&data[..]);
    let mut g = c.benchmark_group("dynamic_static_inner_traversal");
    g.throughput(Throughput::Elements((T * 64) as u64));
    g.bench_function("outer/generated", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            outer.for_each_offset(|o| acc = acc.wrapping_add(data[o] as usize));
            acc
        })
    });
    g.bench_function("outer/static_tile_per_step", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in 0..t {
                let base = k * s;
                Tile8::for_each_offset(|o| acc = acc.wrapping_add(data[base + o] as usize));
            }
            acc
        })
    });
    g.bench_function("outer/hand_written", |b| {
        b.iter(|| {
            let mut acc = 0usize;
            for k in 0..t {
                let base = k * s;
                for c1 in 0..8 {
                    for c0 in 0..8 {
                        acc = acc.wrapping_add(data[base + c0 + 8 * c1] as usize);
                    }
                }
            }
            acc
        })
    });
    g.finish();
    let idx = random_indices(T * 64, ACCESSES);
    let mut g = c.benchmark_group("dynamic_static_inner_random_access");
    g.throughput(Throughput::Elements(ACCESSES as u64));
    g.bench_function("outer/generated", |b| {
        b.iter(|| black_box(&idx[..]).iter().fold(0usize, |a, &i| a.wrapping_add(outer.offset(i))))
    });
    g.bench_function("outer/hand_written", |b| {
        b.iter(|| black_box(&idx[..]).iter().fold(0usize, |a, &i| a.wrapping_add((i & 63) + (i >> 6) * s)))
    });
    g.finish();
}

fn construction(c: &mut Criterion) {
    let mut g = c.benchmark_group("dynamic_new");
    g.bench_function("rank4", |b| {
        b.iter(|| Rank4::new(black_box(64), black_box(48), black_box(7), black_box(5), black_box(72)).is_ok())
    });
    g.bench_function("tiles", |b| b.iter(|| Tiles::new(black_box(M), black_box(N), black_box(LD)).is_ok()));
    g.finish();
}

criterion_group!(name = benches; config = config(); targets = random_access, traversal, static_inner, construction);
criterion_main!(benches);
