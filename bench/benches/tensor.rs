//! Tensor access: `t[i]` at random indices, `at(coord)`, and a whole traversal (`iter().sum()`),
//! over a static item and over a dynamic item with the same numbers. Uses only names that
//! every version of the facade since the run-time tensors has (`DynTensor` is now an alias of
//! `Tensor`), so one command measures two checkouts against each other.
#![allow(deprecated)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use cute_layout::{DynTensor, Tensor, layout};
use layout_bench::random_indices;

layout! {
    pub Static = (64,48):(1,72);
    pub Mat = (M,N):(1,LD);
}

const ACCESSES: usize = 4096;

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2))
}

fn tensors(c: &mut Criterion) {
    let data: Vec<f32> = (0..72 * 48).map(|x| x as f32).collect();
    let idx = random_indices(64 * 48, ACCESSES);
    let coords: Vec<(usize, usize)> = idx.iter().map(|&i| (i % 64, i / 64)).collect();
    let s = Tensor::new(&data, Static).unwrap();
    let d = DynTensor::new(&data, Mat::new(64, 48, 72).unwrap()).unwrap();
    let mut g = c.benchmark_group("tensor");
    g.bench_function("static/index", |b| b.iter(|| idx.iter().map(|&i| black_box(&s)[i]).sum::<f32>()));
    g.bench_function("dynamic/index", |b| b.iter(|| idx.iter().map(|&i| black_box(&d)[i]).sum::<f32>()));
    g.bench_function("static/at", |b| b.iter(|| coords.iter().map(|&c| *black_box(&s).at(c)).sum::<f32>()));
    g.bench_function("dynamic/at", |b| b.iter(|| coords.iter().map(|&c| *black_box(&d).at(c)).sum::<f32>()));
    g.bench_function("static/iter_sum", |b| b.iter(|| black_box(&s).iter().sum::<f32>()));
    g.bench_function("dynamic/iter_sum", |b| b.iter(|| black_box(&d).iter().sum::<f32>()));
    g.finish();
}

criterion_group! { name = benches; config = config(); targets = tensors }
criterion_main!(benches);
