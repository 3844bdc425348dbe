//! Fused epilogues and reductions, one thread, as ratios (issue 23): a linear layer
//! `relu(X·Wᵀ + bias)` at M = N = 2048, K = 64 f32 through a static item's `NAME_with`
//! against the plain item and against faer's matmul followed by a separate bias + ReLU pass;
//! `sum()` of a contiguous tensor against a hand-vectorized loop; `fold_mode` row sums of a
//! column-major 4096² f32 matrix against one read of the matrix. Each pair alternates in
//! rounds; the best time of each side and the median ratio are printed.
//! Run: `cd bench && cargo bench --bench epilogue` (`EPILOGUE_SECS` per case, default 3).

use std::hint::black_box;
use std::time::{Duration, Instant};

use cute_layout::{Tensor, layout};
use faer::linalg::matmul::matmul as faer_matmul;
use faer::{Accum, Par};

layout! {
    /// X (M,K) column-major, W (N,K) row-major (K contiguous), Y (M,N) column-major.
    pub X = (2048,64):(1,2048);
    pub W = (2048,64):(64,1);
    pub Y = (2048,2048):(1,2048);
    pub fn lin = gemm(f32, X, W, Y);
    pub Vec1 = 1048576:1;
    pub Big = (4096,4096):(1,4096);
}

fn secs() -> Duration {
    let s = std::env::var("EPILOGUE_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(3.0);
    Duration::from_secs_f64(s)
}

/// Alternating rounds of `calls` calls of `x` and `y`: (best seconds per call of x, of y,
/// median of the per-round ratios time(y)/time(x)).
fn interleave(calls: usize, mut x: impl FnMut(), mut y: impl FnMut()) -> (f64, f64, f64) {
    let round = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        t.elapsed().as_secs_f64() / calls as f64
    };
    x();
    y();
    let (mut bx, mut by, mut ratios) = (f64::MAX, f64::MAX, Vec::new());
    let end = Instant::now() + secs();
    while Instant::now() < end || ratios.len() < 5 {
        let tx = round(&mut x);
        let ty = round(&mut y);
        bx = bx.min(tx);
        by = by.min(ty);
        ratios.push(ty / tx);
    }
    ratios.sort_by(f64::total_cmp);
    (bx, by, ratios[ratios.len() / 2])
}

fn report(what: &str, xs: &str, ys: &str, (tx, ty, r): (f64, f64, f64), target: &str) {
    println!(
        "{what}: {xs} {:.3} ms, {ys} {:.3} ms, {ys}/{xs} = {r:.3} (best {:.3}) [{target}]",
        tx * 1e3,
        ty * 1e3,
        ty / tx
    );
}

/// A sum with 4 AVX2 accumulators of 8 lanes (AVX2 available), else 32 scalar partial sums.
fn hand_sum(x: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 was detected.
        return unsafe { hand_sum_avx2(x) };
    }
    let mut acc = [0f32; 32];
    let chunks = x.chunks_exact(32);
    let tail: f32 = chunks.remainder().iter().sum();
    for c in chunks {
        for (a, v) in acc.iter_mut().zip(c) {
            *a += v;
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn hand_sum_avx2(x: &[f32]) -> f32 {
    use std::arch::x86_64::*;
    let mut acc = [_mm256_setzero_ps(); 4];
    let chunks = x.chunks_exact(32);
    let tail: f32 = chunks.remainder().iter().sum();
    for c in chunks {
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: `c` holds 32 elements; lanes `8i..8i+8`.
            *a = _mm256_add_ps(*a, unsafe { _mm256_loadu_ps(c.as_ptr().add(8 * i)) });
        }
    }
    let s = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
    let mut out = [0f32; 8];
    // SAFETY: `out` holds 8 elements.
    unsafe { _mm256_storeu_ps(out.as_mut_ptr(), s) };
    out.iter().sum::<f32>() + tail
}

fn linear_layer() {
    let (m, n, k) = (2048, 2048, 64);
    let x: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 * 0.1 - 0.6).collect();
    let w: Vec<f32> = (0..n * k).map(|i| ((i * 5) % 11) as f32 * 0.1 - 0.5).collect();
    let bias: Vec<f32> = (0..n).map(|i| (i % 9) as f32 * 0.05 - 0.2).collect();
    let mut y = vec![0f32; m * n];
    let mut y2 = vec![0f32; m * n];
    // The fused result is the unfused one.
    lin_with(1.0, &x, &w, 0.0, &mut y, |v, _m, j| (v + bias[j]).max(0.0));
    lin(1.0, &x, &w, 0.0, &mut y2);
    for (j, col) in y2.chunks_mut(m).enumerate() {
        col.iter_mut().for_each(|v| *v = (*v + bias[j]).max(0.0));
    }
    assert_eq!(y, y2);
    let fused = |y: &mut Vec<f32>| lin_with(1.0, black_box(&x), &w, 0.0, y, |v, _m, j| (v + bias[j]).max(0.0));
    let plain = |y: &mut Vec<f32>| lin(1.0, black_box(&x), &w, 0.0, y);
    let faer_alone = |y: &mut Vec<f32>| {
        let a = faer::MatRef::from_column_major_slice(&x, m, k);
        let b = faer::MatRef::from_row_major_slice(&w, n, k).transpose();
        let c = faer::MatMut::from_column_major_slice_mut(y, m, n);
        faer_matmul(c, Accum::Replace, black_box(a), b, 1.0f32, Par::Seq);
    };
    let faer_then_pass = |y: &mut Vec<f32>| {
        faer_alone(y);
        for (j, col) in y.chunks_mut(m).enumerate() {
            let bj = bias[j];
            col.iter_mut().for_each(|v| *v = (*v + bj).max(0.0));
        }
    };
    let r = interleave(3, || plain(&mut y), || faer_alone(&mut y2));
    report("matmul 2048x2048x64 f32", "plain item", "faer", r, "no target: what faer + pass is made of");
    let r = interleave(3, || plain(&mut y), || fused(&mut y2));
    report("bias+ReLU 2048x2048x64 f32", "plain item", "lin_with", r, "target <= 1.05");
    let r = interleave(3, || fused(&mut y), || faer_then_pass(&mut y2));
    report("bias+ReLU 2048x2048x64 f32", "lin_with", "faer+pass", r, "target >= 1.2");
}

fn reductions() {
    for len in [1 << 14, 1 << 20, 1 << 24] {
        let data: Vec<f32> = (0..len).map(|i| (i % 17) as f32 * 0.25).collect();
        let t = Tensor::new(&data, cute_layout::RuntimeLayout::<1>::new(&[(len, 1)]).unwrap()).unwrap();
        assert!((t.sum() - hand_sum(&data)).abs() <= 1e-3 * hand_sum(&data));
        let calls = (1 << 24) / len;
        let r = interleave(
            calls,
            || {
                black_box(t.sum());
            },
            || {
                black_box(hand_sum(black_box(&data)));
            },
        );
        report(&format!("sum of {len} f32"), "sum()", "hand-vectorized", r, "target >= 0.9");
    }
    let s = Tensor::new(&[0f32; 1 << 20], Vec1).unwrap();
    black_box(s.sum());
    let n = 4096;
    let data: Vec<f32> = (0..n * n).map(|i| (i % 23) as f32 * 0.125).collect();
    let t = Tensor::new(&data, Big).unwrap();
    let rows = t.fold_mode(1, 0f32, |a, &x| a + x);
    assert_eq!(rows.len(), n);
    let r = interleave(
        3,
        || {
            black_box(hand_sum(black_box(&data)));
        },
        || {
            black_box(t.fold_mode(1, 0f32, |a, &x| a + x));
        },
    );
    report("row sums of a column-major 4096^2 f32", "one read", "fold_mode(1)", r, "target <= 1.5");
}

fn main() {
    rayon::ThreadPoolBuilder::new().num_threads(1).build_global().ok();
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let run = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if run("linear") {
        linear_layer();
    }
    if run("reduce") {
        reductions();
    }
}
