//! Property tests of the defining laws of every operation, on random small layouts, checked
//! against the brute-force semantics of `layout_tests::brute`; and robustness: printing then
//! parsing gives back an equal value, and no operation panics or hangs on arbitrary inputs.
//!
//! Random layouts have leaves 1..=8, depth ≤ 2, size ≤ 256 and strides 0..32 (or −32..32
//! where an operation allows negative strides). Case counts keep the whole file well under a
//! minute in debug mode:
//!
//! ```sh
//! CARGO_TARGET_DIR=/tmp/target-laws cargo test -p layout-tests --test laws
//! ```
//!
//! The reproducers at the end of the file pin the core bugs these laws found (all fixed).
//! right_inverse and max_common_vector are checked for maximality against a brute-force
//! search: nothing larger exists among the layouts whose modes each read one mode of L (of
//! B); a larger one that combines modes of a non-injective L exists in rare cases, which
//! exhaustive.rs counts.

use std::sync::mpsc;
use std::time::Duration;

use layout_core::{
    IntTuple, Layout, LayoutError, SliceCoord, Tiler, Value, blocked_product, coalesce, coalesce_by_mode,
    coalesce_extended, complement, complement_default, complement_exact, complement_modes, composition,
    composition_tiler, downcast, evaluate, filter, filter_by_mode, flat_divide, flat_product, left_inverse,
    logical_divide, logical_divide_tiler, logical_product, logical_product_tiler, make_layout_like,
    make_ordered_layout, max_common_layout, max_common_vector, nullspace, parse_layout, parse_tiler, raked_product,
    right_inverse, slice, tile_to_shape, tiled_divide, tiled_product, upcast, with_shape, zipped_divide,
    zipped_product,
};
use layout_tests::brute;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const MAX_SIZE: i64 = 256;

// ----------------------------------------------------------------------------- generators

/// A layout from raw leaves: extents are clamped so that the size stays ≤ `max_size`, then
/// the leaves are grouped into top-level modes of 1 to 3 leaves (`groups`), so depth ≤ 2.
/// A single top-level leaf is a scalar layout when `scalar` is set.
fn build(raw: &[(i64, i64)], groups: &[usize], scalar: bool, max_size: i64) -> Layout {
    let mut prod = 1i64;
    let leaves: Vec<(i64, i64)> = raw
        .iter()
        .map(|&(s, d)| {
            let s = s.min(max_size / prod).max(1);
            prod *= s;
            (s, d)
        })
        .collect();
    let mut modes: Vec<(IntTuple, IntTuple)> = Vec::new();
    let mut k = 0;
    let mut g = groups.iter().cycle();
    while k < leaves.len() {
        let len = (g.next().copied().unwrap_or(0) + 1).min(leaves.len() - k);
        let part = &leaves[k..k + len];
        modes.push(if len == 1 {
            (IntTuple::Int(part[0].0), IntTuple::Int(part[0].1))
        } else {
            (
                IntTuple::Tuple(part.iter().map(|m| IntTuple::Int(m.0)).collect()),
                IntTuple::Tuple(part.iter().map(|m| IntTuple::Int(m.1)).collect()),
            )
        });
        k += len;
    }
    if modes.len() == 1 && scalar && modes[0].0.is_int() {
        let (s, d) = modes.pop().unwrap_or((IntTuple::Int(1), IntTuple::Int(0)));
        return Layout::new(s, d).unwrap();
    }
    let (s, d): (Vec<_>, Vec<_>) = modes.into_iter().unzip();
    Layout::new(IntTuple::Tuple(s), IntTuple::Tuple(d)).unwrap()
}

fn layout_in(strides: std::ops::Range<i64>, max_leaves: usize, max_size: i64) -> impl Strategy<Value = Layout> {
    (prop::collection::vec((1i64..=8, strides), 1..=max_leaves), prop::collection::vec(0usize..3, 1..=3), any::<bool>())
        .prop_map(move |(raw, groups, scalar)| build(&raw, &groups, scalar, max_size))
}

/// Leaves 1..=8, depth ≤ 2, size ≤ 256, strides 0..32.
fn small() -> impl Strategy<Value = Layout> {
    layout_in(0..33, 5, MAX_SIZE)
}

/// As [`small`] with strides −32..32.
fn signed() -> impl Strategy<Value = Layout> {
    layout_in(-32..33, 5, MAX_SIZE)
}

/// Strides made of small smooth numbers, so that compositions and divides are often
/// admissible.
fn smooth(max_leaves: usize, max_size: i64) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(
            (1i64..=8, prop::sample::select(vec![0i64, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32])),
            1..=max_leaves,
        ),
        prop::collection::vec(0usize..3, 1..=3),
        any::<bool>(),
    )
        .prop_map(move |(raw, groups, scalar)| build(&raw, &groups, scalar, max_size))
}

/// A tiler that divides `n` exactly: some modes of a compact layout of size n whose
/// factors are laid out in a random order (the other modes are its complement).
fn dividing_tiler(n: i64) -> impl Strategy<Value = Layout> {
    let facs = brute::factorizations(n);
    (0..facs.len(), any::<u64>(), any::<u64>(), any::<bool>()).prop_map(move |(f, order_seed, pick_seed, scalar)| {
        let fac = &facs[f];
        let mut order: Vec<usize> = (0..fac.len()).collect();
        shuffle(&mut order, order_seed);
        let mut stride = vec![0i64; fac.len()];
        let mut acc = 1i64;
        for &k in &order {
            stride[k] = acc;
            acc *= fac[k];
        }
        let mut modes: Vec<(i64, i64)> =
            (0..fac.len()).filter(|k| pick_seed >> k & 1 == 1).map(|k| (fac[k], stride[k])).collect();
        shuffle(&mut modes, pick_seed >> 32);
        if modes.len() == 1 && !scalar {
            return Layout::new(IntTuple::from([modes[0].0]), IntTuple::from([modes[0].1])).unwrap();
        }
        brute::layout_of(&modes)
    })
}

fn shuffle<T>(v: &mut [T], mut seed: u64) {
    for i in (1..v.len()).rev() {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        v.swap(i, (seed >> 33) as usize % (i + 1));
    }
}

/// A by-mode tiler for a layout of rank `rank`: 1..=rank entries, each `_` or a layout.
fn mode_tiler(rank: usize, entry: impl Strategy<Value = Layout>) -> impl Strategy<Value = Vec<Option<Layout>>> {
    prop::collection::vec(prop::option::weighted(0.8, entry), 1..=rank.max(1))
}

fn as_tiler(entries: &[Option<Layout>]) -> Tiler {
    Tiler::Modes(entries.iter().map(|e| e.clone().map(Tiler::Layout)).collect())
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

fn concat2(x: &Layout, y: &Layout) -> Layout {
    Layout::concat([x.clone(), y.clone()]).unwrap()
}

/// `1:0` padding up to rank r (CuTe's `append<r>`), built by hand.
fn pad(l: &Layout, r: usize) -> Layout {
    if l.rank() >= r {
        return l.clone();
    }
    let mut modes = l.modes();
    while modes.len() < r {
        modes.push(Layout::scalar(1, 0).unwrap());
    }
    Layout::concat(modes).unwrap()
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

// ----------------------------------------------------------------------------- evaluation

proptest! {
    #![proptest_config(config(2048))]

    /// `Layout::eval` and `table` agree with the brute-force evaluation, also past the size
    /// (the last mode unbounded).
    #[test]
    fn eval_is_the_brute_force_function(l in signed()) {
        prop_assert_eq!(l.table().unwrap(), brute::table(&l));
        for i in 0..brute::size(&l) + 5 {
            prop_assert_eq!(l.eval(i).unwrap(), brute::eval(&l, i));
        }
    }
}

// ----------------------------------------------------------------------------- coalesce, filter

proptest! {
    #![proptest_config(config(2048))]

    /// coalesce keeps the function on the domain, has depth ≤ 1, no size-1 modes and no
    /// mergeable neighbours, and is the definition's result.
    #[test]
    fn coalesce_law(l in signed()) {
        let r = coalesce(&l);
        prop_assert_eq!(brute::size(&r), brute::size(&l));
        prop_assert_eq!(brute::table(&r), brute::table(&l));
        prop_assert!(r.depth() <= 1);
        prop_assert!(brute::is_coalesced(&brute::leaves(&r)), "{} is not coalesced", r);
        prop_assert_eq!(brute::leaves(&r), brute::coalesce_def(&l));
    }

    /// coalesce_extended also keeps the extended function (the last mode unbounded).
    #[test]
    fn coalesce_extended_keeps_the_extension(l in signed()) {
        let r = coalesce_extended(&l);
        prop_assert!(r.depth() <= 1);
        for i in 0..2 * brute::size(&l) + 3 {
            prop_assert_eq!(brute::eval(&r, i), brute::eval(&l, i), "at {}", i);
        }
    }

    /// By-mode coalesce: mode i is the coalesce of mode i, the other modes are unchanged.
    #[test]
    fn coalesce_by_mode_law(l in signed(), n in 1usize..4) {
        let profile = IntTuple::Tuple(vec![IntTuple::Int(1); n]);
        match coalesce_by_mode(&l, &profile) {
            Ok(r) => {
                prop_assert!(n <= l.rank());
                prop_assert_eq!(r.rank(), l.rank());
                for (i, (rm, lm)) in r.modes().iter().zip(l.modes()).enumerate() {
                    prop_assert_eq!(brute::table(rm), brute::table(&lm));
                    if i < n {
                        prop_assert_eq!(brute::leaves(rm), brute::coalesce_def(&lm));
                    } else {
                        prop_assert_eq!(rm, &lm);
                    }
                }
            }
            Err(_) => prop_assert!(n > l.rank()),
        }
    }

    /// filter drops the stride-0 and size-1 leaves and coalesces the rest.
    #[test]
    fn filter_law(l in signed()) {
        let r = filter(&l);
        let kept = brute::layout_of(&brute::filter_leaves(&l));
        prop_assert_eq!(brute::table(&r), brute::table(&kept));
        prop_assert!(r.depth() <= 1);
        prop_assert!(brute::is_coalesced(&brute::leaves(&r)));
        let rl = brute::leaves(&r);
        prop_assert!(rl == [(1, 0)] || rl.iter().all(|&(_, d)| d != 0), "{} keeps a broadcast mode", r);
        let f = filter_by_mode(&l, &IntTuple::Tuple(vec![IntTuple::Int(0); l.rank()])).unwrap();
        for (fm, lm) in f.modes().iter().zip(l.modes()) {
            prop_assert_eq!(brute::table(fm), brute::table(&brute::layout_of(&brute::filter_leaves(&lm))));
        }
    }
}

// ----------------------------------------------------------------------------- composition

fn check_composition(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let admissible = brute::composition_admissible(a, b);
    match composition(a, b) {
        Ok(r) => {
            prop_assert!(admissible, "{} ∘ {} = {} accepted, but §3.2 rejects it", a, b, r);
            prop_assert_eq!(brute::table(&r), brute::composition_values(a, b), "{} ∘ {} = {}", a, b, r);
            prop_assert!(brute::refines(b.shape(), r.shape()), "{} does not refine {}", r, b);
        }
        Err(e) => prop_assert!(!admissible, "{} ∘ {} rejected ({}), but §3.2 admits it", a, b, e),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(4096))]

    /// `R(i) = A(B(i))` whenever accepted, B's shape refines R's, and the decision is
    /// §3.2's.
    #[test]
    fn composition_law_random(a in signed(), b in layout_in(0..33, 3, 64)) {
        check_composition(&a, &b)?;
    }

    /// The same on operands with smooth strides, where most compositions are admissible.
    #[test]
    fn composition_law_smooth(a in smooth(4, 256), b in smooth(3, 64)) {
        check_composition(&a, &b)?;
    }

    /// B built from A's own coalesced modes (a sub-walk of A): always admissible.
    #[test]
    fn composition_with_a_sub_walk(a in smooth(4, 256), s in 1i64..=8, k in 0usize..4) {
        let cm = brute::coalesce_keep_extension(&a);
        let d: i64 = cm.iter().take(k.min(cm.len() - 1)).map(|m| m.0).product();
        let s = if k < cm.len() - 1 { s.min(cm[k].0) } else { s };
        let b = Layout::scalar(s, d).unwrap();
        prop_assert!(brute::walk_is_on_step(&a, s, d));
        check_composition(&a, &b)?;
    }

    /// By-mode composition: mode i is `A_i ∘ T_i`, `_` and modes past the tiler are kept.
    #[test]
    fn composition_tiler_law(a in smooth(5, 256), t in mode_tiler(3, smooth(2, 16))) {
        let tiler = as_tiler(&t);
        let modes = a.modes();
        match composition_tiler(&a, &tiler) {
            Ok(r) => {
                prop_assert!(t.len() <= modes.len());
                prop_assert_eq!(r.rank(), modes.len());
                for (i, am) in modes.iter().enumerate() {
                    let rm = r.mode(i).unwrap();
                    match t.get(i).cloned().flatten() {
                        Some(b) => {
                            prop_assert!(brute::composition_admissible(am, &b));
                            prop_assert_eq!(brute::table(&rm), brute::composition_values(am, &b));
                        }
                        None => prop_assert_eq!(&rm, am),
                    }
                }
            }
            Err(_) => prop_assert!(
                t.len() > modes.len()
                    || t.iter().zip(&modes).any(|(b, am)| b.as_ref().is_some_and(|b| !brute::composition_admissible(am, b)))
            ),
        }
    }
}

// ----------------------------------------------------------------------------- complement

proptest! {
    #![proptest_config(config(4096))]

    /// complement_exact, when accepted: the complement is ordered, disjoint from L,
    /// `(filter(L), L*)` is a bijection onto `[0, T)` with `cotarget ≤ T < cotarget + period`,
    /// its cosize is within T, and its values are the exact ordered complement; it is accepted
    /// iff that exists, and then `complement` gives the same. Where none exists, `complement`
    /// (weak, §3.9) is accepted iff the modes of filter(L) do not overlap, and is then
    /// ordered from 0 with `(filter(L), L*)` injective.
    #[test]
    fn complement_law(l in small(), cotarget in 1i64..=300) {
        let want = brute::complement_values(&l, cotarget);
        if want.is_err() {
            let weak = brute::weak_complement(&l, cotarget);
            match complement(&l, cotarget) {
                Ok(c) => {
                    prop_assert!(!brute::modes_overlap(&l), "complement({}, {}) = {} though the modes overlap", l, cotarget, c);
                    let (w, reaches) = weak.unwrap();
                    prop_assert!(reaches, "complement({}, {}) = {} falls short of the cotarget", l, cotarget, c);
                    prop_assert_eq!(brute::table(&c), brute::table(&w));
                    let got = brute::table(&c);
                    prop_assert_eq!(got.first(), Some(&0));
                    prop_assert!(got.windows(2).all(|w| w[0] < w[1]), "{} is not ordered", c);
                    let f = brute::layout_of(&brute::filter_leaves(&l));
                    prop_assert!(brute::is_injective(&brute::table(&concat2(&f, &c))), "(filter(L), {}) not injective", c);
                }
                Err(e) => prop_assert!(
                    weak.is_none_or(|(_, reaches)| !reaches),
                    "complement({}, {}) rejected ({}) though the modes do not overlap and it reaches the cotarget",
                    l,
                    cotarget,
                    e
                ),
            }
        } else {
            prop_assert_eq!(complement(&l, cotarget), complement_exact(&l, cotarget));
        }
        match complement_exact(&l, cotarget) {
            Ok(c) => {
                let got = brute::table(&c);
                prop_assert!(want.is_ok(), "complement({}, {}) = {} accepted, but no exact complement exists: {:?}", l, cotarget, c, want);
                prop_assert!(got.windows(2).all(|w| w[0] < w[1]), "{} is not ordered", c);
                let f = brute::layout_of(&brute::filter_leaves(&l));
                let star = brute::table(&concat2(&f, &c));
                let t = star.len() as i64;
                prop_assert!(brute::is_bijection_onto(&star, t), "(filter(L), L*) is not a bijection onto [0,{})", t);
                let img: std::collections::BTreeSet<i64> = brute::table(&l).into_iter().collect();
                prop_assert!(got[1..].iter().all(|v| !img.contains(v)), "not disjoint");
                let period = brute::filter_leaves(&l).iter().map(|&(s, d)| s * d).max().unwrap_or(1);
                prop_assert!(t >= cotarget && t < cotarget + period);
                prop_assert!(got.last().copied().unwrap_or(0) < t, "cosize beyond {}", t);
                prop_assert_eq!(Ok(got), want);
                prop_assert!(brute::is_coalesced(&brute::leaves(&c)));
                let uncoalesced = complement_modes(&l, cotarget).unwrap();
                prop_assert_eq!(brute::table(&uncoalesced), brute::table(&c));
            }
            Err(e) => prop_assert!(want.is_err(), "complement({}, {}) rejected ({}), but {:?} is exact", l, cotarget, e, want),
        }
    }

    /// The default cotarget is the cosize.
    #[test]
    fn complement_default_is_cosize(l in small()) {
        let cosize = brute::table(&l).into_iter().max().unwrap_or(0) + 1;
        prop_assert_eq!(complement_default(&l), complement(&l, cosize));
    }
}

// ----------------------------------------------------------------------------- inverses

proptest! {
    #![proptest_config(config(4096))]

    /// `L(L‡(i)) = i` on L‡'s domain with `L‡(i)` in L's domain; no layout of that kind is
    /// larger (brute-force search, for |L| ≤ 64); for an injective L, L‡ covers the whole
    /// prefix `0, 1, …` of L's image.
    #[test]
    fn right_inverse_law(l in small()) {
        let r = right_inverse(&l).unwrap();
        let t = brute::table(&l);
        for (i, x) in brute::table(&r).into_iter().enumerate() {
            prop_assert!((0..t.len() as i64).contains(&x), "{}({}) = {} outside L's domain", r, i, x);
            prop_assert_eq!(t[x as usize], i as i64, "L(L‡({})) != {}", i, i);
        }
        if brute::is_injective(&t) {
            prop_assert_eq!(brute::size(&r), brute::prefix_in_image(&l), "{}‡ = {}", l, r);
        }
        if t.len() <= 64 {
            // Maximal: nothing larger exists, and nothing larger among the layouts whose modes
            // each read one mode of L (the class the search covers; see exhaustive.rs).
            prop_assert!(brute::size(&r) <= brute::right_inverse_max(&l));
            prop_assert!(brute::size(&r) >= brute::right_inverse_max_by_modes(&l), "{}‡ = {} is not the largest", l, r);
        }
    }

    /// `L(L†(L(k))) = L(k)`, and `L†(L(k)) = k` for injective L; a compact bijection always
    /// has its full inverse as left inverse.
    #[test]
    fn left_inverse_law(l in small()) {
        let t = brute::table(&l);
        let n = t.len() as i64;
        match left_inverse(&l) {
            Ok(li) => {
                let injective = brute::is_injective(&t);
                for (k, &v) in t.iter().enumerate() {
                    let back = brute::eval(&li, v);
                    if injective {
                        prop_assert_eq!(back, k as i64, "{}† = {}: {}†({}) != {}", l, li, l, v, k);
                    } else {
                        prop_assert!((0..n).contains(&back));
                        prop_assert_eq!(t[back as usize], v, "{}† = {}", l, li);
                    }
                }
            }
            Err(e) => prop_assert!(!brute::is_bijection_onto(&t, n), "{} is a bijection but left_inverse fails: {}", l, e),
        }
    }

    /// The right inverse of a permutation of `[0, n)` is its inverse.
    #[test]
    fn inverses_of_a_bijection(n in 1i64..=64, seed in any::<u64>(), pick in any::<u64>()) {
        let b = bijection(n, seed, pick);
        let t = brute::table(&b);
        let r = right_inverse(&b).unwrap();
        let l = left_inverse(&b).unwrap();
        for (k, &v) in t.iter().enumerate() {
            prop_assert_eq!(brute::eval(&r, v), k as i64);
            prop_assert_eq!(brute::eval(&l, v), k as i64);
        }
    }
}

/// A compact layout of size n: an ordered factorization laid out in a random order, its
/// modes grouped at random.
fn bijection(n: i64, seed: u64, pick: u64) -> Layout {
    let facs = brute::factorizations(n);
    let fac = &facs[(pick % facs.len() as u64) as usize];
    let mut order: Vec<usize> = (0..fac.len()).collect();
    shuffle(&mut order, seed);
    let mut stride = vec![0i64; fac.len()];
    let mut acc = 1;
    for &k in &order {
        stride[k] = acc;
        acc *= fac[k];
    }
    brute::layout_of(&fac.iter().copied().zip(stride).collect::<Vec<_>>())
}

// ----------------------------------------------------------------------------- divides

fn check_divide(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let want = brute::divide_admissible(a, b);
    match logical_divide(a, b) {
        Ok(r) => {
            prop_assert!(want.is_some(), "logical_divide({}, {}) = {} accepted against §3.3", a, b, r);
            prop_assert_eq!(r.rank(), 2);
            let (tile, rest) = (r.mode(0).unwrap(), r.mode(1).unwrap());
            prop_assert_eq!(brute::size(&tile), brute::size(b));
            prop_assert_eq!(brute::size(&r), brute::size(a));
            for i in 0..brute::size(b) {
                let v = r.eval_coord(&IntTuple::from([i, 0])).unwrap();
                prop_assert_eq!(v, brute::eval(a, brute::eval(b, i)), "R({},0) != A(B({}))", i, i);
            }
            prop_assert_eq!(sorted(brute::table(&r)), sorted(brute::table(a)), "not the offsets of A");
            let star = want.unwrap_or_else(|| b.clone());
            prop_assert_eq!(brute::table(&r), brute::composition_values(a, &star));
            prop_assert!(brute::size(&rest) * brute::size(&tile) == brute::size(a));
        }
        Err(e) => prop_assert!(want.is_none(), "logical_divide({}, {}) rejected ({}), §3.3 admits it", a, b, e),
    }
    Ok(())
}

/// flat_divide with a layout tiler: the tile part is `A ∘ B`, the rest part is A at the
/// ordered tile origins of B (the last tile may reach past A), and the tiles cover A.
fn check_flat_divide(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let r = match flat_divide(a, &Tiler::Layout(b.clone())) {
        Ok(r) => r,
        // Where B divides A (§3.3 and §3.2 admit the logical divide), flat_divide must not
        // reject: a rejection of an admissible input fails.
        Err(e) => {
            prop_assert!(
                brute::divide_admissible(a, b).is_none(),
                "flat_divide({}, {}) rejected ({}) though B divides A",
                a,
                b,
                e
            );
            return Ok(());
        }
    };
    let tb = brute::table(b);
    prop_assert!(brute::is_injective(&tb), "flat_divide({}, {}) = {} with a non-injective tiler", a, b, r);
    let nb = tb.len() as i64;
    let k = brute::size(&r) / nb;
    prop_assert_eq!(k * nb, brute::size(&r));
    let (origins, covered) = brute::tile_origins(&tb, k).map_err(TestCaseError::fail)?;
    prop_assert!((0..brute::size(a)).all(|x| covered.contains(&x)), "the tiles do not cover A");
    let tr = brute::table(&r);
    for (j, o) in origins.iter().enumerate() {
        for (t, x) in tb.iter().enumerate() {
            prop_assert_eq!(tr[t + j * nb as usize], brute::eval(a, x + o));
        }
    }
    if let Ok(ld) = logical_divide(a, b) {
        prop_assert_eq!(tr, brute::table(&ld));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(3072))]

    /// `R(i,0) = A(B(i))`, R has the offsets of A, and the decision is §3.3's (with
    /// §3.2 for the composition with B★), for arbitrary tilers.
    #[test]
    fn logical_divide_law_random(a in signed(), b in layout_in(0..17, 3, 64)) {
        check_divide(&a, &b)?;
    }

    /// flat_divide with a layout tiler (which need not divide A), for injective tilers.
    #[test]
    fn flat_divide_law(a in signed(), b in layout_in(0..17, 3, 64)) {
        if brute::is_injective(&brute::table(&b)) {
            check_flat_divide(&a, &b)?;
        }
    }

    /// The same with tilers that divide |A|.
    #[test]
    fn logical_divide_law_dividing(
        (a, b) in smooth(4, 256).prop_flat_map(|a| { let n = brute::size(&a); (Just(a), dividing_tiler(n)) })
    ) {
        check_divide(&a, &b)?;
        check_flat_divide(&a, &b)?;
    }

    /// By-mode divides: mode i is the divide of A_i by T_i, `_` keeps the mode (in the zipped
    /// forms, as its own tile with a rest of 1); zipped, tiled and flat are the documented
    /// re-arrangements of the same modes.
    #[test]
    fn divide_forms_are_rearrangements(
        (a, t) in smooth(5, 256).prop_flat_map(|a| {
            let entries: Vec<_> = a.modes().iter().map(|m| prop::option::weighted(0.8, dividing_tiler(brute::size(m)))).collect();
            (Just(a), entries, 1usize..=3)
        }).prop_map(|(a, mut e, len)| { e.truncate(len.min(e.len())); (a, e) })
    ) {
        let tiler = as_tiler(&t);
        let modes = a.modes();
        let ld = logical_divide_tiler(&a, &tiler);
        let zipped = zipped_divide(&a, &tiler);
        let want_ok = t.iter().zip(&modes).all(|(b, am)| b.as_ref().is_none_or(|b| brute::divide_admissible(am, b).is_some()));
        prop_assert_eq!(ld.is_ok(), want_ok);
        prop_assert_eq!(zipped.is_ok(), want_ok);
        let (Ok(ld), Ok(z)) = (ld, zipped) else { return Ok(()) };
        for (i, am) in modes.iter().enumerate() {
            let m = ld.mode(i).unwrap();
            match t.get(i).cloned().flatten() {
                Some(b) => {
                    check_divide(am, &b)?;
                    prop_assert_eq!(&m, &logical_divide(am, &b).unwrap());
                    prop_assert_eq!(z.mode(0).unwrap().mode(i).unwrap(), m.mode(0).unwrap());
                    prop_assert_eq!(z.mode(1).unwrap().mode(i).unwrap(), m.mode(1).unwrap());
                }
                // `_`: the whole mode as its tile, a rest of 1.
                None if i < t.len() => {
                    prop_assert_eq!(&m, am);
                    prop_assert_eq!(&z.mode(0).unwrap().mode(i).unwrap(), am);
                    prop_assert_eq!(z.mode(1).unwrap().mode(i).unwrap(), Layout::scalar(1, 0).unwrap());
                }
                None => {
                    prop_assert_eq!(&m, am);
                    prop_assert_eq!(&z.mode(1).unwrap().mode(i).unwrap(), am);
                }
            }
        }
        check_unpacked(&z, &tiled_divide(&a, &tiler).unwrap(), &flat_divide(&a, &tiler).unwrap())?;
        // A layout tiler: zipped and tiled are the logical divide itself (re-grouped).
        if let Some(Some(b)) = t.first().filter(|_| modes.len() == 1) {
            let whole = Tiler::Layout(b.clone());
            if let Ok(l) = logical_divide(&a, b) {
                prop_assert_eq!(&zipped_divide(&a, &whole).unwrap(), &l);
                check_unpacked(&l, &tiled_divide(&a, &whole).unwrap(), &flat_divide(&a, &whole).unwrap())?;
            }
        }
    }
}

/// tiled = `(Z0, Z1_0, Z1_1, …)`; flat = Z0 and Z1 each unpacked unless of rank 1; all three
/// have the same leaves in the same order, hence the same function.
fn check_unpacked(z: &Layout, tiled: &Layout, flat: &Layout) -> Result<(), TestCaseError> {
    let (z0, z1) = (z.mode(0).unwrap(), z.mode(1).unwrap());
    let mut want_tiled = vec![z0.clone()];
    want_tiled.extend(z1.modes());
    prop_assert_eq!(tiled, &Layout::concat(want_tiled).unwrap());
    let mut want_flat = Vec::new();
    for part in [z0, z1] {
        if part.rank() == 1 {
            want_flat.push(part);
        } else {
            want_flat.extend(part.modes());
        }
    }
    prop_assert_eq!(flat, &Layout::concat(want_flat).unwrap());
    prop_assert_eq!(brute::leaves(tiled), brute::leaves(z));
    prop_assert_eq!(brute::leaves(flat), brute::leaves(z));
    prop_assert_eq!(brute::table(flat), brute::table(z));
    Ok(())
}

// ----------------------------------------------------------------------------- products

fn check_product(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let cosize_b = brute::table(b).into_iter().max().unwrap_or(0) + 1;
    let cot = brute::size(a) * cosize_b;
    let c = brute::complement_values(a, cot);
    // Without an exact complement: the weak one (§3.9; complement_law checks it).
    let weak = if c.is_err() { brute::weak_complement(a, cot).map(|(w, _)| w) } else { None };
    let want = match (&c, &weak) {
        (Ok(cv), _) => brute::composition_admissible(&brute::canonical_layout(cv).unwrap(), b),
        (Err(_), Some(w)) => {
            brute::composition_admissible(w, b)
                && (cosize_b <= brute::size(w)
                    || brute::copies_disjoint(a, &brute::table(b), &brute::composition_values(w, b)))
        }
        _ => false,
    };
    match logical_product(a, b) {
        Ok(r) => {
            prop_assert!(want, "logical_product({}, {}) = {} accepted, but {:?}", a, b, r, c);
            prop_assert_eq!(r.rank(), 2);
            prop_assert_eq!(&r.mode(0).unwrap(), a);
            prop_assert_eq!(brute::size(&r), brute::size(a) * brute::size(b));
            let want1: Vec<i64> = match (&c, &weak) {
                (Ok(cv), _) => brute::table(b).iter().map(|&x| cv[x as usize]).collect(),
                (_, w) => brute::composition_values(w.as_ref().unwrap(), b),
            };
            prop_assert_eq!(brute::table(&r.mode(1).unwrap()), want1.clone());
            prop_assert!(brute::refines(b.shape(), r.mode(1).unwrap().shape()));
            // One copy of A per value of B, pairwise disjoint (exact or weak complement).
            prop_assert!(brute::copies_disjoint(a, &brute::table(b), &want1), "the copies of {} in {} meet", a, r);
            if brute::is_injective(&brute::table(a)) && brute::is_injective(&brute::table(b)) {
                prop_assert!(brute::is_injective(&brute::table(&r)));
            }
        }
        Err(e) => prop_assert!(!want, "logical_product({}, {}) rejected ({})", a, b, e),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(2048))]

    /// Mode 0 is A, mode 1 is A's complement composed with B, the size is |A|·|B|, the copies
    /// of A are disjoint; accepted iff A has an exact complement and that composition is
    /// admissible, or a weak one (§3.9) whose composition is admissible and whose copies
    /// of A are disjoint.
    #[test]
    fn logical_product_law(a in layout_in(0..9, 3, 16), b in layout_in(0..9, 3, 16)) {
        check_product(&a, &b)?;
    }

    /// The same with injective blocks that always have a complement.
    #[test]
    fn logical_product_law_compact(
        (a, b) in (1i64..=16, any::<u64>(), any::<u64>()).prop_map(|(n, s, p)| bijection(n, s, p))
            .prop_flat_map(|a| (Just(a), smooth(3, 16)))
    ) {
        check_product(&a, &b)?;
    }

    /// By-mode products and the zipped / tiled / flat / blocked / raked arrangements.
    #[test]
    fn product_forms_are_rearrangements(a in layout_in(0..9, 3, 32), t in mode_tiler(3, layout_in(0..5, 2, 8))) {
        let tiler = as_tiler(&t);
        let modes = a.modes();
        let lp = logical_product_tiler(&a, &tiler);
        let zipped = zipped_product(&a, &tiler);
        prop_assert_eq!(lp.is_ok(), zipped.is_ok());
        if let (Ok(lp), Ok(z)) = (lp, zipped) {
            for (i, am) in modes.iter().enumerate() {
                let m = lp.mode(i).unwrap();
                match t.get(i).cloned().flatten() {
                    Some(b) => {
                        check_product(am, &b)?;
                        prop_assert_eq!(z.mode(0).unwrap().mode(i).unwrap(), m.mode(0).unwrap());
                        prop_assert_eq!(z.mode(1).unwrap().mode(i).unwrap(), m.mode(1).unwrap());
                    }
                    // `_`: the whole mode as its block, repeated once.
                    None if i < t.len() => {
                        prop_assert_eq!(&m, am);
                        prop_assert_eq!(&z.mode(0).unwrap().mode(i).unwrap(), am);
                        prop_assert_eq!(z.mode(1).unwrap().mode(i).unwrap(), Layout::scalar(1, 0).unwrap());
                    }
                    None => prop_assert_eq!(&m, am),
                }
            }
            check_unpacked(&z, &tiled_product(&a, &tiler).unwrap(), &flat_product(&a, &tiler).unwrap())?;
        }
    }
}

proptest! {
    #![proptest_config(config(2048))]

    /// blocked and raked products are the logical product of the padded operands, zipped.
    #[test]
    fn blocked_raked_law(a in layout_in(0..9, 3, 32), b in smooth(3, 8)) {
        check_blocked_raked(&a, &b)?;
    }
}

/// blocked: mode i is `(A_i, G_i)`; raked: `(G_i, A_i)`; with `(A', G)` the logical product
/// of A and B padded with `1:0` to the same rank. CuTe's zip pairs by the operands' structure:
/// for a scalar operand (rank 1) its whole part of the product is the one mode.
fn check_blocked_raked(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let r = a.rank().max(b.rank());
    let (ap, bp) = (pad(a, r), pad(b, r));
    let lp = logical_product(&ap, &bp);
    let (blocked, raked) = (blocked_product(a, b), raked_product(a, b));
    prop_assert_eq!(lp.is_ok(), blocked.is_ok());
    prop_assert_eq!(lp.is_ok(), raked.is_ok());
    let (Ok(lp), Ok(blocked), Ok(raked)) = (lp, blocked, raked) else { return Ok(()) };
    check_product(&ap, &bp)?;
    let g = lp.mode(1).unwrap();
    prop_assert_eq!(blocked.rank(), r);
    prop_assert_eq!(brute::size(&blocked), brute::size(a) * brute::size(b));
    let part = |whole: &Layout, operand: &Layout, i: usize| {
        if operand.shape().is_int() { whole.clone() } else { whole.mode(i).unwrap() }
    };
    for i in 0..r {
        let (ai, gi) = (part(&ap, &ap, i), part(&g, &bp, i));
        prop_assert_eq!(blocked.mode(i).unwrap(), concat2(&ai, &gi));
        prop_assert_eq!(raked.mode(i).unwrap(), concat2(&gi, &ai));
    }
    Ok(())
}

// ----------------------------------------------------------------------------- common vectors, nullspace

proptest! {
    #![proptest_config(config(4096))]

    /// `1 ≤ max_common_vector(A, B) ≤` the brute-force count of leading offsets on which A and
    /// B agree, and at least the largest common layout found by brute force among those whose
    /// modes each read one mode of B (maximality); max_common_layout R has
    /// `A(R(i)) = B(R(i)) = i` and the size of max_common_vector.
    #[test]
    fn max_common_vector_law(a in small(), b in small()) {
        check_common(&a, &b)?;
    }

    /// The same for two compact layouts of the same size.
    #[test]
    fn max_common_vector_of_bijections(n in 1i64..=64, s1 in any::<u64>(), p1 in any::<u64>(), s2 in any::<u64>(), p2 in any::<u64>()) {
        let (a, b) = (bijection(n, s1, p1), bijection(n, s2, p2));
        check_common(&a, &b)?;
    }

    /// nullspace is injective, increasing, and its image is the kernel of L.
    #[test]
    fn nullspace_law(l in small()) {
        let z = nullspace(&l).unwrap();
        let t = brute::table(&z);
        prop_assert!(t.windows(2).all(|w| w[0] < w[1]), "{} is not increasing", z);
        prop_assert_eq!(t, brute::kernel(&l));
    }
}

proptest! {
    #![proptest_config(config(2048))]

    /// With negative strides, `L(i) = 0` also happens off the broadcast modes: nullspace then
    /// rejects the layout (§3.6) unless every stride is non-negative.
    #[test]
    fn nullspace_law_negative_strides(l in signed()) {
        match nullspace(&l) {
            Ok(z) => prop_assert_eq!(brute::table(&z), brute::kernel(&l)),
            Err(e) => prop_assert!(l.stride().leaves().iter().any(|&d| d < 0), "{} rejected: {}", l, e),
        }
    }
}

fn check_common(a: &Layout, b: &Layout) -> Result<(), TestCaseError> {
    let best = brute::common_prefix(a, b);
    let k = max_common_vector(a, b).unwrap();
    prop_assert!(k >= 1 && k <= best.max(1), "max_common_vector({}, {}) = {}, brute force {}", a, b, k, best);
    if brute::size(a).min(brute::size(b)) <= 64 {
        let by_modes = brute::common_layout_max_by_modes(a, b);
        prop_assert!(
            k >= by_modes,
            "max_common_vector({}, {}) = {}, a common layout of size {} exists",
            a,
            b,
            k,
            by_modes
        );
    }
    let r = max_common_layout(a, b).unwrap();
    prop_assert_eq!(brute::size(&r), k);
    let (ta, tb) = (brute::table(a), brute::table(b));
    for i in 0..brute::size(&r) {
        let j = brute::eval(&r, i) as usize;
        prop_assert!(j < ta.len() && j < tb.len());
        prop_assert_eq!((ta[j], tb[j]), (i, i));
    }
    Ok(())
}

// ----------------------------------------------------------------------------- upcast, downcast

proptest! {
    #![proptest_config(config(4096))]

    /// Accepted iff every non-zero stride divides or is a multiple of N; then `N·R(c) = L(c·r)`.
    #[test]
    fn upcast_law(l in signed(), n in 1i64..=8) {
        match upcast(&l, n) {
            Ok(r) => {
                prop_assert!(brute::upcast_admissible(&l, n), "upcast<{}>({}) = {} accepted", n, l, r);
                brute::upcast_law(&l, n, &r).map_err(TestCaseError::fail)?;
            }
            Err(e) => prop_assert!(!brute::upcast_admissible(&l, n), "upcast<{}>({}) rejected: {}", n, l, e),
        }
    }

    /// Accepted iff N = 1 or L has a leaf of stride ±1; then `R(c) = N·L(c/N) + c mod N`.
    #[test]
    fn downcast_law(l in layout_in(-32..33, 4, 64), n in 1i64..=8) {
        let unit = brute::leaves(&l).iter().any(|&(_, d)| d.abs() == 1);
        match downcast(&l, n) {
            Ok(r) => {
                prop_assert!(n == 1 || unit);
                brute::downcast_law(&l, n, &r).map_err(TestCaseError::fail)?;
            }
            Err(_) => prop_assert!(n > 1 && !unit),
        }
    }

    /// `upcast<N>(downcast<N>(L)) = L` for non-negative strides, whenever downcast is
    /// admissible (N = 1 or a stride-1 leaf); a rejection of an admissible downcast fails.
    #[test]
    fn downcast_then_upcast(l in layout_in(0..33, 4, 64), n in 1i64..=8) {
        let unit = brute::leaves(&l).iter().any(|&(_, d)| d == 1);
        match downcast(&l, n) {
            Ok(r) => prop_assert_eq!(brute::table(&upcast(&r, n).unwrap()), brute::table(&l)),
            Err(e) => prop_assert!(n > 1 && !unit, "downcast<{}>({}) rejected ({}) though admissible", n, l, e),
        }
    }
}

// ----------------------------------------------------------------------------- notation

fn extreme() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -40i64..40,
        1 => prop::sample::select(vec![i64::MAX, i64::MAX - 1, i64::MIN + 1, 1 << 31, -(1 << 31), 1 << 62, -(1 << 62)]),
        1 => (i64::MIN + 1)..=i64::MAX,
    ]
}

fn extent() -> impl Strategy<Value = i64> {
    prop_oneof![6 => 1i64..=9, 1 => prop::sample::select(vec![1 << 20, 1 << 31, 1 << 40, i64::MAX]), 1 => 1i64..=i64::MAX]
}

/// Any valid layout: extents up to `i64::MAX` (size fits in 64 bits), strides of any size
/// except `i64::MIN` (see `i64_min_stride_round_trips`), depth ≤ 2.
fn any_layout() -> impl Strategy<Value = Layout> {
    (prop::collection::vec((extent(), extreme()), 1..=5), prop::collection::vec(0usize..3, 1..=3), any::<bool>())
        .prop_map(|(raw, groups, scalar)| {
            let mut prod = 1i64;
            let raw: Vec<(i64, i64)> = raw
                .into_iter()
                .map(|(s, d)| {
                    let s = s.min(i64::MAX / prod).max(1);
                    prod *= s;
                    (s, d)
                })
                .collect();
            build(&raw, &groups, scalar, i64::MAX)
        })
}

fn any_tiler() -> impl Strategy<Value = Tiler> {
    let leaf = prop_oneof![any_layout().prop_map(|l| Some(Tiler::Layout(l))), Just(None)];
    let level1 = prop::collection::vec(leaf, 1..=3).prop_map(Tiler::Modes);
    let entry =
        prop_oneof![any_layout().prop_map(|l| Some(Tiler::Layout(l))), Just(None), level1.clone().prop_map(Some)];
    prop_oneof![
        any_layout().prop_map(Tiler::Layout),
        level1,
        prop::collection::vec(entry, 1..=3).prop_map(Tiler::Modes)
    ]
}

proptest! {
    #![proptest_config(config(4096))]

    /// Printing then parsing a layout gives back an equal layout (and `evaluate` the same value).
    #[test]
    fn layout_round_trips(l in any_layout()) {
        let text = l.to_string();
        prop_assert_eq!(parse_layout(&text).unwrap(), l.clone(), "{}", text);
        prop_assert_eq!(evaluate(&text).unwrap(), Value::layout(l));
    }

    /// Printing then parsing a tiler gives back an equal tiler.
    #[test]
    fn tiler_round_trips(t in any_tiler()) {
        let text = t.to_string();
        prop_assert_eq!(parse_tiler(&text).unwrap(), t.clone(), "{}", text);
        let v = evaluate(&text).unwrap();
        match t {
            Tiler::Layout(l) => prop_assert_eq!(v, Value::layout(l)),
            t => prop_assert_eq!(v, Value::Tiler(t)),
        }
    }
}

// ----------------------------------------------------------------------------- robustness

/// Runs `f` on another thread and fails if it panics or takes longer than `secs` seconds
/// (the thread is then left behind; the test fails anyway).
fn within<T: Send + 'static>(
    secs: u64,
    what: String,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TestCaseError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err(TestCaseError::fail(format!("panicked: {what}"))),
        Err(_) => Err(TestCaseError::fail(format!("did not finish in {secs} s: {what}"))),
    }
}

/// What an operation returned: a layout, another value (shown), or an error.
type Outcome = (&'static str, Result<Option<Layout>, String>);

/// Every operation on the operands.
fn run_everything(a: &Layout, b: &Layout, t: &Tiler, n: i64) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = Vec::new();
    let mut put = |name: &'static str, r: Result<Layout, layout_core::LayoutError>| {
        out.push((name, r.map(Some).map_err(|e| e.to_string())));
    };
    put("coalesce", Ok(coalesce(a)));
    put("coalesce_extended", Ok(coalesce_extended(a)));
    put("coalesce_by_mode", coalesce_by_mode(a, b.shape()));
    put("filter", Ok(filter(a)));
    put("filter_by_mode", filter_by_mode(a, b.shape()));
    put("composition", composition(a, b));
    put("composition_tiler", composition_tiler(a, t));
    put("complement", complement(a, n));
    put("complement_default", complement_default(a));
    put("complement_modes", complement_modes(a, n));
    put("right_inverse", right_inverse(a));
    put("left_inverse", left_inverse(a));
    put("logical_divide", logical_divide(a, b));
    put("logical_divide_tiler", logical_divide_tiler(a, t));
    put("zipped_divide", zipped_divide(a, t));
    put("tiled_divide", tiled_divide(a, t));
    put("flat_divide", flat_divide(a, t));
    put("logical_product", logical_product(a, b));
    put("logical_product_tiler", logical_product_tiler(a, t));
    put("zipped_product", zipped_product(a, t));
    put("tiled_product", tiled_product(a, t));
    put("flat_product", flat_product(a, t));
    put("blocked_product", blocked_product(a, b));
    put("raked_product", raked_product(a, b));
    put("max_common_layout", max_common_layout(a, b));
    put("nullspace", nullspace(a));
    put("upcast", upcast(a, n));
    put("downcast", downcast(a, n));
    put("tile_to_shape", tile_to_shape(a, b.shape()));
    put("make_ordered_layout", make_ordered_layout(a.shape(), b.shape()));
    put("make_ordered_layout(stride)", make_ordered_layout(a.shape(), a.stride()));
    put("make_layout_like", make_layout_like(a));
    put("with_shape", with_shape(a, b.shape()));
    put("slice", slice(a, &SliceCoord::from(b.shape())).map(|(l, _)| l));
    put("slice_free", slice(a, &SliceCoord::Free).map(|(l, _)| l));
    let mut other = |name: &'static str, r: Result<String, layout_core::LayoutError>| {
        out.push((name, r.map(|_| None).map_err(|e| e.to_string())));
    };
    other("max_common_vector", max_common_vector(a, b).map(|k| k.to_string()));
    other("eval", a.eval(n.max(0)).map(|v| v.to_string()));
    other("eval_coord", a.eval_coord(b.shape()).map(|v| v.to_string()));
    other("cosize", a.cosize().map(|v| v.to_string()));
    other("coord", a.coord(n.max(0)).map(|c| c.to_string()));
    other("crd2idx", layout_core::crd2idx(b.shape(), a.shape()).map(|v| v.to_string()));
    other("idx2crd", layout_core::idx2crd(n, a.shape()).map(|c| c.to_string()));
    if a.size() <= 1 << 12 {
        other("table", a.table().map(|t| t.len().to_string()));
    }
    out
}

fn any_n() -> impl Strategy<Value = i64> {
    prop_oneof![3 => -2i64..40, 1 => any::<i64>(), 1 => prop::sample::select(vec![i64::MAX, i64::MIN, 1 << 32, 1 << 62])]
}

proptest! {
    #![proptest_config(config(2048))]

    /// No operation panics or hangs, whatever the operands: negative and zero strides, huge
    /// extents and strides (every overflow must be an `Err`).
    #[test]
    fn no_operation_panics(a in any_layout(), b in any_layout(), t in any_tiler(), n in any_n()) {
        let what = format!("a = {a}, b = {b}, t = {t}, n = {n}");
        within(20, what, move || run_everything(&a, &b, &t, n))?;
    }

    /// The same on small operands, where more operations get past their checks.
    #[test]
    fn no_operation_panics_small(a in signed(), b in small(), t in mode_tiler(3, small()), n in -3i64..300) {
        let what = format!("a = {a}, b = {b}, n = {n}");
        let t = as_tiler(&t);
        within(20, what, move || run_everything(&a, &b, &t, n))?;
    }

    /// Arbitrary text never makes the parser or evaluator panic.
    #[test]
    fn evaluate_never_panics(text in "[-0-9a-z_(),:\\[\\] ]{0,40}") {
        let what = format!("{text:?}");
        within(20, what, move || { let _ = evaluate(&text); })?;
    }

    /// Expressions calling every function on arbitrary layouts never panic.
    #[test]
    fn evaluate_functions_never_panic(f in 0usize..layout_core::notation::FUNCTIONS.len(), a in any_layout(), b in any_layout(), n in any_n()) {
        let name = layout_core::notation::FUNCTIONS[f].name();
        for text in [
            format!("{name}({a})"),
            format!("{name}({a},{b})"),
            format!("{name}({a},{n})"),
            format!("{name}({},{})", a.shape(), b.shape()),
            format!("{name}({a},[{b},_])"),
            format!("{name}({a},{n},{n})"),
        ] {
            let what = text.clone();
            within(20, what, move || { let _ = evaluate(&text); })?;
        }
    }
}

proptest! {
    #![proptest_config(config(2048))]

    /// Every layout an operation returns is a valid layout: its size fits in 64 bits.
    #[test]
    fn results_are_valid_layouts(a in any_layout(), b in any_layout(), t in any_tiler(), n in any_n()) {
        let results = within(20, format!("{a} {b} {t} {n}"), {
            let (a, b, t) = (a.clone(), b.clone(), t.clone());
            move || run_everything(&a, &b, &t, n)
        })?;
        for (name, r) in results {
            if let Ok(Some(l)) = r {
                prop_assert!(
                    Layout::new(l.shape().clone(), l.stride().clone()).is_ok(),
                    "{}({}, {}, {}, {}) = {} is not a valid layout (its size does not fit in 64 bits)", name, a, b, t, n, l
                );
            }
        }
    }
}

// ----------------------------------------------------------------------------- known core bugs (reproducers)

#[test]
fn blocked_product_keeps_every_grid_mode() {
    let (a, b) = (Layout::scalar(2, 4).unwrap(), Layout::scalar(6, 2).unwrap());
    for r in [blocked_product(&a, &b).unwrap(), raked_product(&a, &b).unwrap()] {
        assert_eq!(r.size(), 12, "{r}");
    }
}

/// As in CuTe C++, flat_divide takes a broadcasting tiler (only `filter(B)` must be injective):
/// the tile part is `A ∘ B` point by point.
#[test]
fn flat_divide_takes_a_broadcast_tiler_as_cpp_does() {
    let a = parse_layout("(1):(0)").unwrap();
    let b = parse_layout("(2):(0)").unwrap();
    let r = flat_divide(&a, &Tiler::Layout(b.clone())).unwrap();
    let tile = r.mode(0).unwrap();
    for i in 0..b.size() {
        assert_eq!(brute::eval(&tile, i), brute::eval(&a, brute::eval(&b, i)), "{r}");
    }
    assert!(flat_divide(&a, &Tiler::Layout(parse_layout("(2,2):(1,1)").unwrap())).is_err());
}

/// `(4,2):(-6,18)` vanishes at 0 and 7: nullspace must not answer `[0]`; it rejects the
/// negative stride.
#[test]
fn nullspace_with_negative_strides() {
    let l = parse_layout("(4,2):(-6,18)").unwrap();
    assert_eq!(brute::kernel(&l), vec![0, 7]);
    assert!(matches!(nullspace(&l), Err(LayoutError::NegativeStride { .. })));
}

#[test]
fn result_size_overflow_is_an_error() {
    let a = Layout::scalar(1 << 40, 1).unwrap();
    let b = Layout::scalar(1 << 40, 0).unwrap();
    let big = parse_layout("(1,1152921504606846976):(0,0)").unwrap();
    let t = parse_tiler("[3:25]").unwrap();
    let bad: Vec<String> = [("logical_product", logical_product(&a, &b)), ("flat_divide", flat_divide(&big, &t))]
        .into_iter()
        .filter_map(|(what, r)| r.ok().filter(|r| r.shape().product().is_err()).map(|r| format!("{what} = {r}")))
        .collect();
    assert!(bad.is_empty(), "sizes past 64 bits: {bad:?}");
}

#[test]
fn i64_min_stride_round_trips() {
    let l = Layout::scalar(4, i64::MIN).unwrap();
    assert_eq!(parse_layout(&l.to_string()).unwrap(), l);
}

#[test]
fn casts_of_an_i64_min_stride_do_not_panic() {
    let l = Layout::scalar(2, i64::MIN).unwrap();
    let _ = std::panic::catch_unwind(|| upcast(&l, 2)).expect("upcast panicked");
    let _ = std::panic::catch_unwind(|| downcast(&l, 2)).expect("downcast panicked");
}
