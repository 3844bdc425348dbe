//! Random access: the generated `offset` against a hand-written index expression, a generic
//! run-time walk over flat (shape, stride) pairs and layout-core's run-time evaluation.
//! Traversal: the generated loop nest against a contiguous loop over as many elements.
//! Times are per index / per element (criterion's throughput).

// The contiguous loops deliberately run the same closure body as the generated traversal.
#![allow(clippy::needless_range_loop, clippy::explicit_counter_loop)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cute_layout::{Offset, StaticLayout};
use layout_bench::*;

const ACCESSES: usize = 4096;

fn random_access_one<L: StaticLayout>(c: &mut Criterion, name: &str, hand: impl Fn(usize) -> i64) {
    let idx = random_indices(L::SIZE, ACCESSES);
    let core = L::to_layout();
    let modes: Vec<(usize, isize)> = core.flat_modes().iter().map(|&(s, d)| (s as usize, d as isize)).collect();
    let mut g = c.benchmark_group(format!("random_access/{name}"));
    g.throughput(Throughput::Elements(ACCESSES as u64));
    g.bench_function("generated", |b| {
        b.iter(|| {
            let mut s = 0i64;
            for &i in black_box(&idx[..]) {
                s = s.wrapping_add(L::offset(i).to_i64());
            }
            s
        })
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| {
            let mut s = 0i64;
            for &i in black_box(&idx[..]) {
                s = s.wrapping_add(hand(i));
            }
            s
        })
    });
    g.bench_function("runtime_walk", |b| {
        b.iter(|| {
            let mut s = 0i64;
            let modes = black_box(&modes[..]);
            for &i in black_box(&idx[..]) {
                s = s.wrapping_add(walk(modes, i) as i64);
            }
            s
        })
    });
    g.bench_function("layout_core_eval", |b| {
        b.iter(|| {
            let mut s = 0i64;
            let core = black_box(&core);
            for &i in black_box(&idx[..]) {
                s = s.wrapping_add(core.eval(i as i64).unwrap_or(0));
            }
            s
        })
    });
    g.finish();
}

fn random_access(c: &mut Criterion) {
    random_access_one::<Tiled>(c, "tiled ((2,4),3):((1,6),2)", |i| hand::tiled(i) as i64);
    random_access_one::<AmpereTv>(c, "ampere_tv ((4,8),2):((16,1),8)", |i| hand::ampere_tv(i) as i64);
    random_access_one::<Rank6>(c, "rank6 (3,5,7,2,3,5):(1,90,450,45,15,3)", |i| hand::rank6(i) as i64);
    random_access_one::<Blocks>(c, "blocks ((8,16),(8,4)):((1,64),(8,1024))", |i| hand::blocks(i) as i64);
    random_access_one::<RowMajor>(c, "row_major (96,40):(40,1)", |i| hand::row_major(i) as i64);
    random_access_one::<Reversed>(c, "reversed ((4,2),(8,3)):((-1,32),(4,64))", |i| hand::reversed(i) as i64);
}

/// Visits every offset in index order with two consumers: summing `data[o]` (data in cache)
/// and writing the offsets to a buffer (a gather table). Each consumer is also run by a
/// contiguous loop `for o in 0..SIZE` over as many elements, and by `offset(i)` per index.
fn traversal_one<L: StaticLayout<Offset = usize>>(c: &mut Criterion, name: &str) {
    let data: Vec<u32> = (0..L::COSIZE as u32).collect();
    let mut buf = vec![0usize; L::SIZE];
    let mut g = c.benchmark_group(format!("traversal/{name}"));
    g.throughput(Throughput::Elements(L::SIZE as u64));
    g.bench_function("sum/generated_for_each_offset", |b| {
        b.iter(|| {
            let data = black_box(&data[..]);
            let mut s = 0u32;
            L::for_each_offset(|o| s = s.wrapping_add(data[o]));
            s
        })
    });
    g.bench_function("sum/contiguous_loop", |b| {
        b.iter(|| {
            let data = black_box(&data[..]);
            let mut s = 0u32;
            for o in 0..L::SIZE {
                s = s.wrapping_add(data[o]);
            }
            s
        })
    });
    g.bench_function("sum/offset_per_index", |b| {
        b.iter(|| {
            let data = black_box(&data[..]);
            let mut s = 0u32;
            for i in 0..L::SIZE {
                s = s.wrapping_add(data[L::offset(i)]);
            }
            s
        })
    });
    g.bench_function("write/generated_for_each_offset", |b| {
        b.iter(|| {
            let buf = black_box(&mut buf[..]);
            let mut k = 0;
            L::for_each_offset(|o| {
                buf[k] = o;
                k += 1;
            });
        })
    });
    g.bench_function("write/contiguous_loop", |b| {
        b.iter(|| {
            let buf = black_box(&mut buf[..]);
            let mut k = 0;
            for o in 0..L::SIZE {
                buf[k] = o;
                k += 1;
            }
        })
    });
    // `store`: the same as `write` without the consumer's own bounds check (a raw pointer
    // into the buffer, which holds SIZE elements), so the figure is the cost of visiting.
    g.bench_function("store/generated_for_each_offset", |b| {
        b.iter(|| {
            let buf = black_box(&mut buf[..]);
            assert!(buf.len() >= L::SIZE);
            let p = buf.as_mut_ptr();
            let mut k = 0;
            L::for_each_offset(|o| {
                // SAFETY: `for_each_offset` calls the closure exactly SIZE times, so k < SIZE.
                unsafe { *p.add(k) = o };
                k += 1;
            });
        })
    });
    g.bench_function("store/contiguous_loop", |b| {
        b.iter(|| {
            let buf = black_box(&mut buf[..]);
            assert!(buf.len() >= L::SIZE);
            let p = buf.as_mut_ptr();
            let mut k = 0;
            for o in 0..L::SIZE {
                // SAFETY: k < SIZE.
                unsafe { *p.add(k) = o };
                k += 1;
            }
        })
    });
    g.finish();
}

fn traversal(c: &mut Criterion) {
    traversal_one::<Tiled>(c, "tiled ((2,4),3):((1,6),2)");
    traversal_one::<AmpereTv>(c, "ampere_tv ((4,8),2):((16,1),8)");
    traversal_one::<Rank6>(c, "rank6 (3,5,7,2,3,5):(1,90,450,45,15,3)");
    traversal_one::<Blocks>(c, "blocks ((8,16),(8,4)):((1,64),(8,1024))");
    traversal_one::<RowMajor>(c, "row_major (96,40):(40,1)");
}

criterion_group!(benches, random_access, traversal);
criterion_main!(benches);
