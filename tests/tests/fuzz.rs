//! Fuzzing on the stable toolchain: coverage-guided fuzzers (cargo-fuzz/libFuzzer, cargo-afl)
//! need nightly sanitizers or an AFL++ build the machines do not have (BENCHMARKS.md, "Fuzzing"),
//! so this is a seeded mutational and generative fuzzer over three targets:
//!
//! - `notation`: the parser and evaluator (`layout_core::evaluate`) on arbitrary text;
//! - `algebra`: every operation of the expression language (`FUNCTIONS`) called on bounded
//!   random operands (layouts with negative, zero and huge strides, tilers, swizzles, basis
//!   and F2 strides, integers);
//! - `codegen`: the macro's expansion function `layout_codegen::expand` on `pub X = EXPR;`.
//!
//! Inputs are the committed corpus `tests/fuzz/corpus.txt` (every crash found is added there
//! and stays a regression), byte-level mutations of it, and generated expressions. Every call
//! runs on a worker thread under a time budget ([`BUDGET`]); a panic, a call over budget (a
//! hang) or an overflow panic (debug builds check arithmetic) fails the test and prints the
//! input. The run is bounded by `FUZZ_SECONDS` (default 4 s per target, as CI runs it) and
//! seeded by `FUZZ_SEED` (default: a fixed seed, so CI is reproducible); e.g.
//!
//! ```sh
//! FUZZ_SECONDS=600 FUZZ_SEED=$RANDOM cargo test --release -p layout-tests --test fuzz -- --nocapture
//! ```

use std::sync::mpsc;
use std::time::{Duration, Instant};

use layout_core::notation::FUNCTIONS;

/// The most one call may take (debug build, shared machine) before it counts as a hang.
const BUDGET: Duration = Duration::from_secs(5);

const CORPUS: &str = include_str!("../fuzz/corpus.txt");

fn seconds() -> f64 {
    std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4.0)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED_1234_ABCD_0012)
}

/// xorshift64*: small, fast, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ----------------------------------------------------------------------------- generators

fn int(r: &mut Rng) -> String {
    match r.below(10) {
        0 => r
            .pick(&["0", "-1", "9223372036854775807", "-9223372036854775807", "4611686018427387904", "2147483648"])
            .to_string(),
        1 | 2 => format!("-{}", r.below(40)),
        _ => r.below(40).to_string(),
    }
}

fn extent(r: &mut Rng) -> String {
    if r.chance(25) { int(r) } else { (1 + r.below(9)).to_string() }
}

fn stride(r: &mut Rng) -> String {
    match r.below(14) {
        0 => format!("{}@{}", 1 + r.below(4), r.below(3)),
        1 => format!("f{}", r.below(20)),
        2 => int(r),
        3 | 4 => format!("-{}", r.below(17)),
        _ => r.below(33).to_string(),
    }
}

/// A shape and a congruent stride, depth ≤ 2, at most `leaves` leaves.
fn shape_stride(r: &mut Rng, depth: usize) -> (String, String) {
    if depth == 0 || r.chance(3) {
        return (extent(r), stride(r));
    }
    let n = 1 + r.below(3);
    let parts: Vec<(String, String)> = (0..n).map(|_| shape_stride(r, depth - 1)).collect();
    let s: Vec<&str> = parts.iter().map(|p| p.0.as_str()).collect();
    let d: Vec<&str> = parts.iter().map(|p| p.1.as_str()).collect();
    (format!("({})", s.join(",")), format!("({})", d.join(",")))
}

fn layout(r: &mut Rng) -> String {
    let (s, d) = shape_stride(r, 2);
    match r.below(12) {
        0 => s,
        1 => format!("Sw<{},{},{}> o {s}:{d}", r.below(4), r.below(5), r.below(8) as i64 - 3),
        2 => format!("Sw<{},{},{}> o {} o {s}:{d}", r.below(4), r.below(5), r.below(6), r.below(9)),
        _ => format!("{s}:{d}"),
    }
}

fn tiler(r: &mut Rng) -> String {
    let n = 1 + r.below(3);
    let items: Vec<String> = (0..n).map(|_| if r.chance(4) { "_".to_string() } else { layout(r) }).collect();
    format!("[{}]", items.join(","))
}

/// A call of a random operation (or a near-miss name) on 0..=3 random operands, nested.
fn expr(r: &mut Rng, depth: usize) -> String {
    if depth == 0 || r.chance(3) {
        return match r.below(6) {
            0 => int(r),
            1 => tiler(r),
            2 => shape_stride(r, 2).0,
            _ => layout(r),
        };
    }
    let f = r.pick(FUNCTIONS);
    let name = if r.chance(30) { format!("{}x", f.name()) } else { f.name().to_string() };
    let n = f.min_args + r.below((f.max_args.min(f.min_args + 2) - f.min_args) + 1);
    let args: Vec<String> = (0..n).map(|_| expr(r, depth - 1)).collect();
    format!("{name}({})", args.join(", "))
}

const ALPHABET: &[u8] = b"0123456789-_(),:[]@f<>o Swx9";

fn mutate(r: &mut Rng, seed: &str) -> String {
    let mut b = seed.as_bytes().to_vec();
    for _ in 0..1 + r.below(4) {
        let at = r.below(b.len() + 1);
        match r.below(4) {
            0 if at < b.len() => {
                b.remove(at);
            }
            1 if at < b.len() => b[at] = *r.pick(ALPHABET),
            2 => {
                // splice a piece of another corpus line
                let lines = corpus();
                let other = r.pick(&lines).as_bytes().to_vec();
                let (x, y) = (r.below(other.len() + 1), r.below(other.len() + 1));
                let piece = &other[x.min(y)..x.max(y)];
                b.splice(at..at, piece.iter().copied());
            }
            _ => b.insert(at, *r.pick(ALPHABET)),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn corpus() -> Vec<&'static str> {
    CORPUS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

// ----------------------------------------------------------------------------- the harness

/// Feeds inputs to `target` on a worker thread for `secs` seconds (after the whole corpus);
/// fails on a panic or a call over [`BUDGET`]. Returns (inputs tried, slowest call).
fn fuzz(name: &str, secs: f64, mut next: impl FnMut(&mut Rng, usize) -> String, target: fn(&str)) {
    let corpus = corpus();
    let (to_worker, inputs) = mpsc::channel::<String>();
    let (done_tx, done) = mpsc::channel::<Result<(), String>>();
    let worker = std::thread::spawn(move || {
        for text in inputs {
            let t = text.clone();
            let r = std::panic::catch_unwind(move || target(&t)).map_err(|e| {
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            });
            if done_tx.send(r).is_err() {
                return;
            }
        }
    });
    std::panic::set_hook(Box::new(|_| {})); // panics are reported below, with their input
    let mut rng = Rng(seed() ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))));
    let start = Instant::now();
    let (mut tried, mut slowest) = (0usize, (Duration::ZERO, String::new()));
    loop {
        let text = if tried < corpus.len() { corpus[tried].to_string() } else { next(&mut rng, tried) };
        if tried >= corpus.len() && start.elapsed().as_secs_f64() > secs {
            break;
        }
        let t0 = Instant::now();
        to_worker.send(text.clone()).expect("worker alive");
        match done.recv_timeout(BUDGET) {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => {
                let _ = std::panic::take_hook();
                panic!("fuzz {name}: panic on input {text:?}: {msg}");
            }
            Err(_) => {
                let _ = std::panic::take_hook();
                panic!("fuzz {name}: no answer within {BUDGET:?} on input {text:?} (hang)");
            }
        }
        let took = t0.elapsed();
        if took > slowest.0 {
            slowest = (took, text);
        }
        tried += 1;
    }
    let _ = std::panic::take_hook();
    drop(to_worker);
    worker.join().expect("worker");
    println!(
        "fuzz {name}: {tried} inputs in {:.1} s (seed {:#x}), slowest call {:.1} ms on {:?}",
        start.elapsed().as_secs_f64(),
        seed(),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1
    );
}

fn evaluate_target(text: &str) {
    let _ = layout_core::evaluate(text).map(|v| v.to_string());
}

fn expand_target(text: &str) {
    if let Ok(tokens) = format!("pub X = {text};").parse::<proc_macro2::TokenStream>() {
        let _ = layout_codegen::expand(tokens).to_string();
    }
}

/// The fuzz targets share the process-wide panic hook: run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn fuzz_notation() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let corpus = corpus();
    fuzz(
        "notation",
        seconds(),
        |r, i| {
            if i % 2 == 0 {
                let s = *r.pick(&corpus);
                mutate(r, s)
            } else {
                expr(r, 3)
            }
        },
        evaluate_target,
    );
}

#[test]
fn fuzz_algebra() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    fuzz("algebra", seconds(), |r, _| expr(r, 2), evaluate_target);
}

#[test]
fn fuzz_codegen() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let corpus = corpus();
    fuzz(
        "codegen",
        seconds(),
        |r, i| {
            if i % 2 == 0 {
                let s = *r.pick(&corpus);
                mutate(r, s)
            } else {
                expr(r, 2)
            }
        },
        expand_target,
    );
}
