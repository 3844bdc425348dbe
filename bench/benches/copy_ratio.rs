//! Interleaved copy ratios: each kernel `layout!` generates against its peers (a same-size
//! memcpy and the `transpose` crate for the transposes, `copy_from_slice` for the contiguous
//! copies, the careful plain loop for gathers, scatters and broadcasts), run alternately in
//! rounds so that all see the same load of this shared machine.
//!
//! Each case runs for `COPY_RATIO_SECS` seconds (default 2): rounds of calls moving about
//! 32 MiB (at least one call), the contenders in an order that rotates from round to round,
//! on the same page-aligned buffers (`common/buffers.rs` says why page-aligned). Printed per
//! case: the best round of each contender (µs per call and GiB/s, bytes read + written), and
//! for each peer the ratio of the best rounds, generated ÷ peer in throughput, with the
//! median of the per-round ratios in brackets.
//!
//! Run: `cd bench && cargo bench --bench copy_ratio [-- FILTER]` (FILTER: a substring of the
//! case names, e.g. `transpose`, `contiguous`, `4096`).

use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/buffers.rs"]
mod buffers;
#[path = "common/copy_items.rs"]
mod items;

use buffers::Aligned;
use items::*;

fn secs() -> Duration {
    let s = std::env::var("COPY_RATIO_SECS").ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(s)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

type Contender<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Rounds of `calls` calls of each contender, the order rotating each round, for `secs()`
/// (at least 5 rounds). Returns per contender the seconds per call of each round.
fn interleave(calls: usize, fs: &mut [Contender<'_>]) -> Vec<Vec<f64>> {
    for (_, f) in fs.iter_mut() {
        f();
    }
    let k = fs.len();
    let mut times = vec![Vec::new(); k];
    let end = Instant::now() + secs();
    let mut round = 0;
    while Instant::now() < end || round < 5 {
        for i in 0..k {
            let j = (i + round) % k;
            let f = &mut fs[j].1;
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            times[j].push(t.elapsed().as_secs_f64() / calls as f64);
        }
        round += 1;
    }
    times
}

/// Runs one case moving `bytes` per call and prints its rows: the first contender is the
/// generated kernel, the others its peers.
fn case(name: &str, bytes: usize, mut fs: Vec<Contender<'_>>) {
    let calls = ((32usize << 20) / bytes).max(1);
    let times = interleave(calls, &mut fs);
    let best = |t: &[f64]| t.iter().copied().fold(f64::MAX, f64::min);
    let gib = |s: f64| bytes as f64 / s / f64::from(1u32 << 30);
    let g = best(&times[0]);
    let mut row = format!("| {name} | {:.2} µs {:.1} GiB/s |", g * 1e6, gib(g));
    for (j, t) in times.iter().enumerate().skip(1) {
        let p = best(t);
        let mut ratios: Vec<f64> = t.iter().zip(&times[0]).map(|(p, g)| p / g).collect();
        ratios.sort_by(f64::total_cmp);
        row += &format!(
            " {}: {:.2} µs {:.1} GiB/s, **{:.3}** ({:.3}) |",
            fs[j].0,
            p * 1e6,
            gib(p),
            p / g,
            ratios[ratios.len() / 2]
        );
    }
    println!("{row} {} rounds", times[0].len());
}

type Kernel = fn(&[f32], &mut [f32]);

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-')).unwrap_or_default();
    let want = |name: &str| name.contains(&filter);
    println!("load average at the start: {}", loadavg());
    println!("| case | generated | peers: best, ratio generated/peer best (median) | |");
    println!("|---|---|---|---|");

    let transposes: [(usize, Kernel); 3] =
        [(256, |s, d| transpose_256(s, d)), (1024, |s, d| transpose_1024(s, d)), (4096, |s, d| transpose_4096(s, d))];
    // Page-aligned, and 16 bytes past a page as glibc's large vectors are (the same distance
    // apart modulo 4096, so the memcpy anchor stays right; the destination lines are not).
    for (n, kernel, offset) in transposes.iter().flat_map(|&(n, k)| [(n, k, 0), (n, k, 16)]) {
        let name = if offset == 0 { format!("transpose_f32/{n}") } else { format!("transpose_f32/{n}+{offset}B") };
        if !want(&name) {
            continue;
        }
        let src = Aligned::at(n * n, offset, |k| k as f32);
        let dst = RefCell::new(Aligned::at(n * n, offset, |_| 0.0));
        let (s, d) = (src.get(), &dst);
        case(
            &name,
            2 * n * n * 4,
            vec![
                ("generated", Box::new(|| kernel(black_box(s), black_box(d.borrow_mut().get_mut())))),
                ("memcpy", Box::new(|| black_box(d.borrow_mut().get_mut()).copy_from_slice(black_box(s)))),
                (
                    "transpose crate",
                    Box::new(|| transpose::transpose(black_box(s), black_box(d.borrow_mut().get_mut()), n, n)),
                ),
            ],
        );
    }

    let contiguous: [(&str, usize, Kernel, Kernel); 3] = [
        ("l1_16KiB", 4096, |s, d| contiguous_l1(s, d), |s, d| vec64_l1(s, d)),
        ("l2_1MiB", 262144, |s, d| contiguous_l2(s, d), |s, d| vec64_l2(s, d)),
        ("dram_64MiB", 16777216, |s, d| contiguous_dram(s, d), |s, d| vec64_dram(s, d)),
    ];
    for (size, n, kernel, vec64) in contiguous {
        let src = Aligned::ramp(2 * n);
        let dst = RefCell::new(Aligned::zeros(n));
        let (s, d) = (src.get(), &dst);
        let name = format!("copy_contiguous/{size}");
        if want(&name) {
            case(
                &name,
                2 * n * 4,
                vec![
                    ("generated", Box::new(|| kernel(black_box(&s[..n]), black_box(d.borrow_mut().get_mut())))),
                    (
                        "copy_from_slice",
                        Box::new(|| black_box(d.borrow_mut().get_mut()).copy_from_slice(black_box(&s[..n]))),
                    ),
                ],
            );
        }
        let name = format!("copy_vec64/{size}");
        if want(&name) {
            case(
                &name,
                2 * n * 4,
                vec![
                    ("generated", Box::new(|| vec64(black_box(s), black_box(d.borrow_mut().get_mut())))),
                    (
                        "copy_from_slice per vector",
                        Box::new(|| plain::vec64(black_box(s), black_box(d.borrow_mut().get_mut()))),
                    ),
                ],
            );
        }
    }

    let n = 65536;
    let src = Aligned::ramp(256 * 4096);
    let dst = RefCell::new(Aligned::zeros(512 * 512));
    let (s, d) = (src.get(), &dst);
    let strided: [(&str, usize, Kernel, Kernel, usize, usize); 4] = [
        ("gather3", n, |s, d| gather3(s, d), plain::gather3, 3 * n, n),
        ("scatter3", n, |s, d| scatter3(s, d), plain::scatter3, n, 3 * n),
        ("broadcast_rows", 512 * 512, |s, d| broadcast_rows(s, d), plain::broadcast_rows, 512, 512 * 512),
        ("gather_table2", 12 * 4096, |s, d| gather_table2(s, d), plain::gather_table2, 256 * 4096, 12 * 4096),
    ];
    for (name, elements, kernel, peer, slen, dlen) in strided {
        if want(name) {
            case(
                name,
                2 * elements * 4,
                vec![
                    (
                        "generated",
                        Box::new(|| kernel(black_box(&s[..slen]), black_box(&mut d.borrow_mut().get_mut()[..dlen]))),
                    ),
                    (
                        "plain loop",
                        Box::new(|| peer(black_box(&s[..slen]), black_box(&mut d.borrow_mut().get_mut()[..dlen]))),
                    ),
                ],
            );
        }
    }
    println!("load average at the end: {}", loadavg());
}
