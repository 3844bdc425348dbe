//! Exhaustive comparison of layout-core with the brute-force semantics of
//! `layout_tests::brute` on bounded sets of small flat layouts: every accepted result must
//! be the brute-force function, and every accept/reject decision must be the one the
//! independent statement of policies §3.2 and §3.3 of `docs/algebra.md` makes.
//!
//! The sets (flat layouts; `ext` = the extents of the leaves, `d` = the strides):
//!
//! | check | full set (release) | reduced set (debug) |
//! |---|---|---|
//! | complement, cotargets 1..=32 | rank ≤ 3, ext ≥ 2, size ≤ 16, d 0..=16 | same |
//! | right / left inverse, coalesce | same layouts | same |
//! | composition, rank-1 B | A: rank ≤ 2, ext ≥ 1, size ≤ 16, d 0..=8; B = s:d, s 1..=16, d 0..=16 | A: d 0..=4 |
//! | composition, two-mode B | A: rank ≤ 2, ext ≥ 2, size ≤ 16, d 0..=8; B = (s0,s1):(d0,d1), s ≥ 2, s0·s1 ≤ 16, d 0..=8 | d 0..=4 for A and B |
//! | logical_divide (and flat_divide) | A: rank ≤ 2, ext ≥ 2, size ≤ 16, d 0..=8; B: every rank-1 B of the composition set and every two-mode B of it | A and two-mode B: d 0..=4 |
//! | max_common_vector | all pairs of compact layouts of the same size n ≤ 16 (every ordered factorization in every order) | n ≤ 12 |
//!
//! Debug builds (`cargo test`) run the reduced sets so that the file stays well under a
//! minute; the full sets run with
//!
//! ```sh
//! CARGO_TARGET_DIR=/tmp/target-laws cargo test --release -p layout-tests --test exhaustive -- --nocapture
//! ```
//!
//! Each test prints what it enumerated (run with `--nocapture` to see it).

use std::collections::BTreeMap;
use std::sync::Mutex;

use layout_core::{
    IntTuple, Layout, Tiler, coalesce, complement, complement_exact, composition, flat_divide, left_inverse,
    logical_divide, max_common_layout, max_common_vector, parse_layout, right_inverse,
};
use layout_tests::brute;

/// The full sets in release builds, the reduced sets in debug builds.
const FULL: bool = !cfg!(debug_assertions);

fn set_name(always_full: bool) -> &'static str {
    if FULL || always_full { "full set" } else { "reduced set (debug build; `cargo test --release` runs the full set)" }
}

// ----------------------------------------------------------------------------- enumeration

/// Every flat layout of rank `ranks` whose extents lie in `ext`, of size ≤ `max_size`, with
/// strides in `strides` (a rank-1 layout is the scalar `s:d`).
fn flat_layouts(
    ranks: std::ops::RangeInclusive<usize>,
    ext: std::ops::RangeInclusive<i64>,
    strides: impl Fn(usize) -> std::ops::RangeInclusive<i64>,
    max_size: i64,
) -> Vec<Layout> {
    let mut out = Vec::new();
    for rank in ranks {
        for shape in shapes(rank, &ext, max_size) {
            let d = strides(rank);
            for stride in tuples(rank, &d) {
                out.push(brute::layout_of(&shape.iter().copied().zip(stride).collect::<Vec<_>>()));
            }
        }
    }
    out
}

fn shapes(rank: usize, ext: &std::ops::RangeInclusive<i64>, max_size: i64) -> Vec<Vec<i64>> {
    if rank == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for head in shapes(rank - 1, ext, max_size) {
        let p: i64 = head.iter().product();
        for s in ext.clone().filter(|&s| p * s <= max_size) {
            let mut v = head.clone();
            v.push(s);
            out.push(v);
        }
    }
    out
}

fn tuples(rank: usize, range: &std::ops::RangeInclusive<i64>) -> Vec<Vec<i64>> {
    (0..rank).fold(vec![vec![]], |acc, _| {
        acc.into_iter()
            .flat_map(|v| {
                range.clone().map(move |x| {
                    let mut w = v.clone();
                    w.push(x);
                    w
                })
            })
            .collect()
    })
}

/// Every compact layout of size n: each ordered factorization, its factors laid out in every
/// order.
fn bijections(n: i64) -> Vec<Layout> {
    let mut out = Vec::new();
    for fac in brute::factorizations(n) {
        for order in permutations(fac.len()) {
            let mut stride = vec![0i64; fac.len()];
            let mut acc = 1;
            for &k in &order {
                stride[k] = acc;
                acc *= fac[k];
            }
            out.push(brute::layout_of(&fac.iter().copied().zip(stride).collect::<Vec<_>>()));
        }
    }
    out
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for k in 0..=p.len() {
            let mut q = p.clone();
            q.insert(k, n - 1);
            out.push(q);
        }
    }
    out
}

// ----------------------------------------------------------------------------- bookkeeping

/// Counters, the first failures and one example per kind of notable case.
#[derive(Default)]
struct Stats {
    counts: BTreeMap<&'static str, u64>,
    failures: Vec<String>,
    examples: BTreeMap<&'static str, String>,
}

impl Stats {
    fn count(&mut self, key: &'static str) {
        *self.counts.entry(key).or_default() += 1;
    }

    fn fail(&mut self, msg: String) {
        self.count("FAILURES");
        if self.failures.len() < 20 {
            self.failures.push(msg);
        }
    }

    fn example(&mut self, key: &'static str, msg: impl FnOnce() -> String) {
        self.count(key);
        self.examples.entry(key).or_insert_with(msg);
    }

    fn merge(&mut self, other: Stats) {
        for (k, v) in other.counts {
            *self.counts.entry(k).or_default() += v;
        }
        for f in other.failures {
            if self.failures.len() < 20 {
                self.failures.push(f);
            }
        }
        for (k, v) in other.examples {
            self.examples.entry(k).or_insert(v);
        }
    }

    /// Prints the report and fails the test if anything disagreed.
    fn finish(self, title: &str, always_full: bool, started: std::time::Instant) {
        let mut report =
            format!("\n== {title} ({}, {:.1} s)\n", set_name(always_full), started.elapsed().as_secs_f64());
        for (k, v) in &self.counts {
            report += &format!("   {k:<58} {v:>10}\n");
        }
        for (k, v) in &self.examples {
            report += &format!("   e.g. {k}: {v}\n");
        }
        println!("{report}");
        assert!(self.failures.is_empty(), "{title}: disagreements with brute force:\n{}", self.failures.join("\n"));
    }
}

/// Runs `f` on every item, spread over the available cores.
fn parallel<T: Sync>(items: &[T], f: impl Fn(&T, &mut Stats) + Sync) -> Stats {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let total = Mutex::new(Stats::default());
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (f, total) = (&f, &total);
            scope.spawn(move || {
                let mut stats = Stats::default();
                for item in items.iter().skip(t).step_by(threads) {
                    f(item, &mut stats);
                }
                total.lock().unwrap_or_else(|e| e.into_inner()).merge(stats);
            });
        }
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}

// ----------------------------------------------------------------------------- the sets

/// rank ≤ 3, extents ≥ 2, size ≤ 16, strides 0..=16.
fn single_layouts() -> Vec<Layout> {
    flat_layouts(1..=3, 2..=16, |_| 0..=16, 16)
}

/// A for rank-1 B: rank ≤ 2, extents ≥ 1 (size-1 modes exercise the extension), size ≤ 16.
fn composition_lhs() -> Vec<Layout> {
    flat_layouts(1..=2, 1..=16, |_| if FULL { 0..=8 } else { 0..=4 }, 16)
}

/// A for two-mode B and for divides: rank ≤ 2, extents ≥ 2, size ≤ 16.
fn lhs_no_ones() -> Vec<Layout> {
    flat_layouts(1..=2, 2..=16, |_| if FULL { 0..=8 } else { 0..=4 }, 16)
}

/// B = s:d, s 1..=16, d 0..=16.
fn rank1_rhs() -> Vec<Layout> {
    flat_layouts(1..=1, 1..=16, |_| 0..=16, 16)
}

/// B = (s0,s1):(d0,d1), s ≥ 2, s0·s1 ≤ 16.
fn two_mode_rhs() -> Vec<Layout> {
    flat_layouts(2..=2, 2..=16, |_| if FULL { 0..=8 } else { 0..=4 }, 16)
}

// ----------------------------------------------------------------------------- composition

fn check_composition(a: &Layout, b: &Layout, stats: &mut Stats) {
    stats.count("pairs checked");
    let admissible = brute::composition_admissible(a, b);
    match composition(a, b) {
        Ok(r) => {
            stats.count("accepted");
            let want = brute::composition_values(a, b);
            if !admissible {
                stats.fail(format!("{a} ∘ {b} = {r} accepted, but §3.2 rejects it"));
            } else if brute::table(&r) != want {
                stats.fail(format!("{a} ∘ {b} = {r}: values {:?}, want {want:?}", brute::table(&r)));
            } else if !brute::refines(b.shape(), r.shape()) {
                stats.fail(format!("{a} ∘ {b} = {r}: the shape does not refine B's"));
            }
            if brute::table(b).iter().any(|&x| x >= brute::size(a)) {
                stats.count("accepted, B's image leaving A's domain (A's extension)");
            }
        }
        Err(e) => {
            stats.count("rejected");
            if admissible {
                stats.fail(format!("{a} ∘ {b} rejected ({e}), but §3.2 admits it"));
            }
            let values = brute::composition_values(a, b);
            if let Some(m) = brute::representable(&values, b.shape()) {
                stats.example("rejected, but the values coincide with some layout", || {
                    format!("{a} ∘ {b}: values {values:?} = {}", brute::layout_of(&m))
                });
            }
        }
    }
}

#[test]
fn composition_with_rank1_rhs_is_policy_2() {
    let started = std::time::Instant::now();
    let (lhs, rhs) = (composition_lhs(), rank1_rhs());
    let mut stats = parallel(&lhs, |a, stats| {
        for b in &rhs {
            check_composition(a, b, stats);
        }
    });
    stats.counts.insert("layouts A enumerated", lhs.len() as u64);
    stats.counts.insert("layouts B = s:d enumerated", rhs.len() as u64);
    stats.finish("composition A ∘ s:d", false, started);
}

#[test]
fn composition_with_two_mode_rhs_is_policy_2() {
    let started = std::time::Instant::now();
    let (lhs, rhs) = (lhs_no_ones(), two_mode_rhs());
    let mut stats = parallel(&lhs, |a, stats| {
        for b in &rhs {
            check_composition(a, b, stats);
        }
    });
    stats.counts.insert("layouts A enumerated", lhs.len() as u64);
    stats.counts.insert("layouts B = (s0,s1):(d0,d1) enumerated", rhs.len() as u64);
    stats.finish("composition A ∘ (s0,s1):(d0,d1)", false, started);
}

// ----------------------------------------------------------------------------- divide

/// §3.3 and the values of `logical_divide`; flat_divide's law where it accepts.
fn check_divide(a: &Layout, b: &Layout, star: &Option<Layout>, stats: &mut Stats) {
    stats.count("pairs checked");
    match (logical_divide(a, b), star) {
        (Ok(r), Some(star)) => {
            stats.count("accepted");
            let want = brute::composition_values(a, star);
            let tile_ok = (0..brute::size(b))
                .all(|i| r.eval_coord(&IntTuple::from([i, 0])).ok() == Some(brute::eval(a, brute::eval(b, i))));
            if brute::table(&r) != want || !tile_ok || r.rank() != 2 {
                stats.fail(format!("logical_divide({a}, {b}) = {r}: values {:?}, want {want:?}", brute::table(&r)));
            }
        }
        (Ok(r), None) => stats.fail(format!("logical_divide({a}, {b}) = {r} accepted against §3.3 and §3.2")),
        (Err(e), Some(_)) => {
            stats.count("rejected");
            stats.fail(format!("logical_divide({a}, {b}) rejected ({e}), but §3.3 and §3.2 admit it"));
        }
        (Err(_), None) => stats.count("rejected"),
    }
    let flat = flat_divide(a, &Tiler::Layout(b.clone()));
    if let (Err(e), Some(_)) = (&flat, &star) {
        stats.fail(format!("flat_divide({a}, {b}) rejected ({e}), but B divides A (§3.3 and §3.2)"));
    }
    if let Ok(r) = flat {
        stats.count("flat_divide accepted");
        let tb = brute::table(b);
        if !brute::is_injective(&tb) {
            stats.example("flat_divide accepted with a non-injective tiler (documented as excluded)", || {
                format!("flat_divide({a}, {b}) = {r}")
            });
            return;
        }
        let k = brute::size(&r) / tb.len() as i64;
        let ok = brute::tile_origins(&tb, k).is_ok_and(|(origins, covered)| {
            let tr = brute::table(&r);
            (0..brute::size(a)).all(|x| covered.contains(&x))
                && origins
                    .iter()
                    .enumerate()
                    .all(|(j, o)| tb.iter().enumerate().all(|(t, x)| tr[t + j * tb.len()] == brute::eval(a, x + o)))
        });
        if !ok {
            stats.fail(format!("flat_divide({a}, {b}) = {r} is not A at the ordered tiles of B covering A"));
        }
        if star.is_none() {
            stats.count("flat_divide accepted where logical_divide rejects");
        }
    }
}

#[test]
fn logical_divide_is_policy_3() {
    let started = std::time::Instant::now();
    let lhs = lhs_no_ones();
    let mut rhs = rank1_rhs();
    rhs.extend(two_mode_rhs());
    // §3.3 depends on B and |A| only: the tilings are computed once per (B, |A|).
    let tilings: BTreeMap<(usize, i64), Option<Vec<i64>>> = (0..rhs.len())
        .flat_map(|k| (1..=16).map(move |n| (k, n)))
        .map(|(k, n)| ((k, n), brute::divide_tiling(&rhs[k], n).ok()))
        .collect();
    let mut stats = parallel(&lhs, |a, stats| {
        let n = brute::size(a);
        for (k, b) in rhs.iter().enumerate() {
            let star = tilings[&(k, n)].as_ref().and_then(|origins| {
                let star = brute::b_star(b, origins);
                brute::composition_admissible(a, &star).then_some(star)
            });
            if tilings[&(k, n)].is_some() {
                stats.count("B★ tiles [0,|A|) exactly (§3.3)");
                if star.is_none() {
                    stats.count("B★ tiles, but A ∘ B★ is not admissible (§3.2)");
                }
            }
            check_divide(a, b, &star, stats);
        }
    });
    stats.counts.insert("layouts A enumerated", lhs.len() as u64);
    stats.counts.insert("tilers B enumerated", rhs.len() as u64);
    stats.finish("logical_divide(A, B)", false, started);
}

// ----------------------------------------------------------------------------- single layouts

#[test]
fn complement_is_the_exact_ordered_tiling() {
    let started = std::time::Instant::now();
    let layouts = single_layouts();
    let mut stats = parallel(&layouts, |l, stats| {
        let fm = brute::filter_leaves(l);
        let period = fm.iter().map(|&(s, d)| s * d).max().unwrap_or(1);
        // The brute-force complement depends on the cotarget only through T = ⌈cot/P⌉·P.
        let mut by_t: BTreeMap<i64, Result<Vec<i64>, String>> = BTreeMap::new();
        for cotarget in 1..=32 {
            stats.count("(layout, cotarget) pairs checked");
            let t = brute::ceil_div(cotarget, period) * period;
            let want = by_t.entry(t).or_insert_with(|| brute::complement_values(l, t));
            match (complement_exact(l, cotarget), &*want) {
                (Ok(c), Ok(w)) => {
                    stats.count("accepted");
                    if brute::table(&c) != *w || !brute::is_coalesced(&brute::leaves(&c)) {
                        stats.fail(format!("complement({l}, {cotarget}) = {c}, want the values {w:?}"));
                    }
                    if complement(l, cotarget).ok().as_ref() != Some(&c) {
                        stats.fail(format!("complement({l}, {cotarget}) differs from complement_exact"));
                    }
                }
                (Ok(c), Err(why)) => stats.fail(format!("complement({l}, {cotarget}) = {c} accepted, but {why}")),
                (Err(e), Ok(w)) => {
                    stats.fail(format!("complement({l}, {cotarget}) rejected ({e}), but {w:?} is an exact complement"))
                }
                (Err(_), Err(_)) => {
                    stats.count("no exact complement");
                    check_weak_complement(l, cotarget, stats);
                }
            }
        }
    });
    stats.counts.insert("layouts enumerated", layouts.len() as u64);
    stats.finish("complement(L, 1..=32)", true, started);
}

/// Where no exact complement exists: `complement` is accepted exactly when the modes of
/// filter(L), sorted by stride and merged, do not overlap and CuTe's construction reaches the
/// cotarget (§3.9); then it is that construction, its values increase from 0 and
/// `(filter(L), L*)` is injective. An overlap is rejected with an error that says so.
fn check_weak_complement(l: &Layout, cotarget: i64, stats: &mut Stats) {
    let weak = brute::weak_complement(l, cotarget);
    match (complement(l, cotarget), &weak) {
        (Ok(c), Some((w, true))) => {
            stats.count("weak complement accepted");
            let t = brute::table(&c);
            let filtered =
                brute::layout_of(&brute::filter_leaves(l).into_iter().chain(brute::leaves(&c)).collect::<Vec<_>>());
            if t != brute::table(w)
                || t.first() != Some(&0)
                || !t.windows(2).all(|x| x[0] < x[1])
                || !brute::is_injective(&brute::table(&filtered))
            {
                stats.fail(format!("weak complement({l}, {cotarget}) = {c} is not CuTe's, ordered and injective"));
            }
        }
        (Ok(c), _) => stats.fail(format!("complement({l}, {cotarget}) = {c} accepted, but {weak:?}")),
        (Err(e), None) => {
            stats.count("rejected: overlapping modes");
            if !e.to_string().contains("overlap") {
                stats.fail(format!("complement({l}, {cotarget}): the error does not say the modes overlap: {e}"));
            }
        }
        (Err(_), Some((_, false))) => stats.count("rejected: the weak complement falls short"),
        (Err(e), Some((w, true))) => {
            stats.fail(format!("complement({l}, {cotarget}) rejected ({e}), but the weak complement {w} is admissible"))
        }
    }
}

#[test]
fn inverses_and_coalesce_agree_with_brute_force() {
    let started = std::time::Instant::now();
    let layouts = single_layouts();
    let mut stats = parallel(&layouts, |l, stats| {
        let t = brute::table(l);
        let injective = brute::is_injective(&t);
        // coalesce
        let c = coalesce(l);
        if brute::leaves(&c) != brute::coalesce_def(l) || brute::table(&c) != t {
            stats.fail(format!("coalesce({l}) = {c}"));
        }
        // right inverse: the law, and the brute-force maximum
        let r = right_inverse(l).expect("non-negative strides");
        let tr = brute::table(&r);
        if !tr.iter().enumerate().all(|(i, &x)| (0..t.len() as i64).contains(&x) && t[x as usize] == i as i64) {
            stats.fail(format!("right_inverse({l}) = {r} breaks L(L‡(i)) = i"));
        }
        let best = brute::right_inverse_max(l);
        stats.count("right_inverse checked");
        if tr.len() as i64 > best {
            stats.fail(format!("right_inverse({l}) = {r} larger than the brute-force maximum {best}?"));
        } else if (tr.len() as i64) < best {
            // Only a right inverse whose modes combine several modes of L can be larger.
            let by_modes = brute::right_inverse_max_by_modes(l);
            if injective || tr.len() as i64 != by_modes {
                stats.fail(format!("right_inverse({l}) = {r}, but a right inverse of size {best} exists"));
            } else {
                stats.example("a larger right inverse combines modes of L (non-injective L)", || {
                    format!("right_inverse({l}) = {r}, a layout of size {best} exists")
                });
                stats.count("right_inverse maximal among mode-by-mode chains, not overall");
            }
        } else {
            stats.count("right_inverse as large as the brute-force maximum");
        }
        if injective && tr.len() as i64 != brute::prefix_in_image(l) {
            stats.fail(format!("right_inverse({l}) = {r} does not cover the prefix of the image"));
        }
        // left inverse
        stats.count("left_inverse checked");
        match left_inverse(l) {
            Ok(li) => {
                stats.count("left_inverse accepted");
                let ok = t.iter().enumerate().all(|(k, &v)| {
                    let back = brute::eval(&li, v);
                    if injective {
                        back == k as i64
                    } else {
                        (0..t.len() as i64).contains(&back) && t[back as usize] == v
                    }
                });
                if !ok {
                    stats.fail(format!("left_inverse({l}) = {li} breaks its law"));
                }
            }
            Err(e) => {
                stats.count("left_inverse rejected");
                if brute::is_bijection_onto(&t, t.len() as i64) {
                    stats.fail(format!("left_inverse({l}) rejected ({e}) though L is a bijection"));
                } else if injective {
                    stats.count("left_inverse rejected, L injective");
                }
            }
        }
    });
    stats.counts.insert("layouts enumerated", layouts.len() as u64);
    stats.finish("coalesce, right_inverse, left_inverse", true, started);
}

#[test]
fn max_common_vector_of_compact_layouts() {
    let started = std::time::Instant::now();
    let max_n = if FULL { 16 } else { 12 };
    let pairs: Vec<(Layout, Layout)> = (1..=max_n)
        .flat_map(|n| {
            let all = bijections(n);
            all.iter().flat_map(|a| all.iter().map(move |b| (a.clone(), b.clone()))).collect::<Vec<_>>()
        })
        .collect();
    let stats = parallel(&pairs, |(a, b), stats| {
        stats.count("pairs checked");
        let best = brute::common_layout_max(a, b);
        match max_common_vector(a, b) {
            Ok(k) if k == best => stats.count("equal to the brute-force maximum"),
            r => stats.fail(format!("max_common_vector({a}, {b}) = {r:?}, brute-force maximum {best}")),
        }
        check_common_layout(a, b, best, stats);
    });
    stats.finish("max_common_vector of compact layouts", false, started);
}

/// `max_common_layout(A, B)` is a layout R of size `best` with `A(R(i)) = B(R(i)) = i`.
fn check_common_layout(a: &Layout, b: &Layout, best: i64, stats: &mut Stats) {
    match max_common_layout(a, b) {
        Ok(r) => {
            let (ta, tb) = (brute::table(a), brute::table(b));
            let ok = brute::table(&r).into_iter().enumerate().all(|(i, j)| {
                (0..ta.len().min(tb.len()) as i64).contains(&j)
                    && ta[j as usize] == i as i64
                    && tb[j as usize] == i as i64
            });
            if !ok || brute::size(&r) != best {
                stats.fail(format!("max_common_layout({a}, {b}) = {r}, brute-force maximum size {best}"));
            }
        }
        Err(e) => stats.fail(format!("max_common_layout({a}, {b}) rejected: {e}")),
    }
}

/// max_common_vector and max_common_layout of any two small layouts (non-negative strides,
/// rank ≤ 2, size ≤ 8, strides ≤ 8; ≤ 5 in a debug build) reach the brute-force maximum
/// among layouts whose modes each read one mode of B (counted where a larger one exists).
#[test]
fn max_common_vector_of_small_layouts() {
    let started = std::time::Instant::now();
    let set = flat_layouts(1..=2, 2..=8, |_| if FULL { 0..=8 } else { 0..=5 }, 8);
    let pairs: Vec<(Layout, Layout)> =
        set.iter().flat_map(|a| set.iter().map(move |b| (a.clone(), b.clone()))).collect();
    let stats = parallel(&pairs, |(a, b), stats| {
        stats.count("pairs checked");
        let (best, by_modes) = (brute::common_layout_max(a, b), brute::common_layout_max_by_modes(a, b));
        match max_common_vector(a, b) {
            Ok(k) if k == best => stats.count("equal to the brute-force maximum"),
            Ok(k) if k == by_modes => {
                stats.count("maximal among layouts reading one mode of B per mode, not overall");
                stats.example("a larger common layout combines modes of B", || {
                    format!("max_common_vector({a}, {b}) = {k}, a layout of size {best} exists")
                });
            }
            r => stats.fail(format!("max_common_vector({a}, {b}) = {r:?}, brute-force maximum {by_modes}")),
        }
        check_common_layout(a, b, max_common_vector(a, b).unwrap_or(0), stats);
    });
    stats.finish("max_common_vector of small layouts", false, started);
}

// ----------------------------------------------------------------------------- the brute force itself

/// The brute-force statements reproduce the documented cases of the policies (docs/algebra.md's
/// tables C, D, E, G), so that agreeing with them means agreeing with the policies.
#[test]
fn brute_force_reproduces_the_documented_cases() {
    let p = |s: &str| parse_layout(s).unwrap();
    let admissible = [
        ("7:11", "3:4", "3:44"),
        ("7:11", "(3,5):(6,3)", "(3,5):(66,33)"),
        ("(4,6,8,10):(2,3,5,7)", "6:12", "(2,3):(9,5)"),
        ("(4,2,8):(3,12,97)", "3:3", "3:9"),
        ("24:3", "8:3", "8:9"),
        ("(8,8):(8,1)", "2:3", "2:24"),
        ("(8,8):(8,1)", "3:3", "3:24"),
        ("(6,2):(8,2)", "(4,3):(3,1)", "((2,2),3):((24,2),8)"),
        ("20:2", "(5,4):(4,1)", "(5,4):(8,2)"),
        ("(10,2):(16,4)", "(3,4):(1,5)", "(3,(2,2)):(16,(80,4))"),
        ("(32,128):(128,1)", "(30,128):(1,32)", "(30,128):(128,1)"),
        ("(6,2):(8,3)", "(4,3):(3,1)", "((2,2),3):((24,3),8)"),
        ("(2,3):(1,2)", "(2,3):(3,1)", "(2,3):(3,1)"),
        ("(5,3):(7,1)", "2:3", "2:21"),
    ];
    for (a, b, r) in admissible {
        let (a, b, r) = (p(a), p(b), p(r));
        assert!(brute::composition_admissible(&a, &b), "{a} ∘ {b} should be admissible");
        assert_eq!(brute::composition_values(&a, &b), brute::table(&r), "{a} ∘ {b}");
    }
    let inadmissible = [
        ("(4,6,8):(2,3,5)", "6:3"),
        ("(4,6):(2,3)", "6:3"),
        ("(4,6,8):(2,3,5)", "6:1"),
        ("(4,2,8):(3,12,97)", "4:3"),
        ("(4,2,8):(3,15,97)", "3:3"),
        ("(5,3):(7,1)", "7:1"),
        ("(2,3):(4,1)", "(3,4):(3,1)"),
        ("(4,8):(2,1)", "33:5"),
        ("(2,2):(1,10)", "(2,2):(1,1)"),
        ("(6,1):(1,1)", "(5,4):(4,0)"),
    ];
    for (a, b) in inadmissible {
        let (a, b) = (p(a), p(b));
        assert!(!brute::composition_admissible(&a, &b), "{a} ∘ {b} should be inadmissible");
    }
    // D10: a tiler that does not divide A.
    assert!(brute::divide_tiling(&p("5:1"), 24).is_err());
    assert!(brute::divide_admissible(&p("(6,4):(1,6)"), &p("4:1")).is_some());
    // Complements (table G, C++ forms).
    let complements = [
        ("(4,8):(1,4)", 32, "1:0"),
        ("(4,8):(8,1)", 32, "1:0"),
        ("(4,8):(1,8)", 60, "2:4"),
        ("((2,2),(2,4)):((0,2),(0,4))", 15, "2:1"),
        ("8:3", 24, "3:1"),
        ("4:1", 24, "6:4"),
        ("6:4", 24, "4:1"),
        ("(4,6):(1,4)", 24, "1:0"),
        ("4:2", 24, "(2,3):(1,8)"),
        ("(2,4):(1,6)", 24, "3:2"),
        ("(2,2):(1,6)", 24, "(3,2):(2,12)"),
        ("(3,4):(4,1)", 120, "10:12"),
    ];
    for (l, cotarget, c) in complements {
        assert_eq!(brute::complement_values(&p(l), cotarget), Ok(brute::table(&p(c))), "complement({l}, {cotarget})");
    }
    // The weak cases G3 and G16 (CuTe C++ answers `1:0` and `(2,3):(1,80)`): no exact tiling.
    assert!(brute::complement_values(&p("(4,8):(1,5)"), 40).is_err());
    assert!(brute::complement_values(&p("(4,8):(20,2)"), 192).is_err());
    // Right inverses (table E): the brute-force maximum has the documented size.
    let inverses = [
        ("(4,8):(1,4)", 32),
        ("(4,8):(8,1)", 32),
        ("(3,7,5):(5,15,1)", 105),
        ("(4,8):(1,5)", 4),
        ("((2,2),(2,4)):((0,1),(0,2))", 8),
        ("((2,2),(2,4)):((0,2),(0,4))", 1),
        ("(4,(4,2)):(4,(1,16))", 32),
        ("((2,2),(4,2)):((1,8),(2,16))", 32),
    ];
    for (l, n) in inverses {
        assert_eq!(brute::right_inverse_max(&p(l)), n, "right inverse of {l}");
    }
    // Representability: a two-point function is always a layout; D1's values are not.
    assert!(brute::representable(&[0, 7], &IntTuple::Int(2)).is_some());
    assert!(brute::representable(&[0, 6, 7, 8, 9, 15], &IntTuple::Int(6)).is_none());
    assert_eq!(brute::canonical_layout(&[0, 1, 8, 9, 16, 17]), Some(p("(2,3):(1,8)")));
}
