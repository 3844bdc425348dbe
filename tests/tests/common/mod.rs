//! Brute-force helpers shared by the acceptance-table tests (docs/algebra.md §4, tables A–L).
//!
//! Everything here is stated from the definitions, independently of layout-core's
//! algorithms: a layout is evaluated by splitting an index colexicographically over its
//! leaves (the last leaf unbounded: the extended domain), and complements, inverses,
//! divides and products are checked against their defining laws on small domains.
#![allow(dead_code)] // each test file uses a subset

use std::collections::BTreeSet;

use layout_core::notation::ExprError;
use layout_core::{IntTuple, Layout, LayoutError, evaluate, parse_int_tuple, parse_layout};

// ---------------------------------------------------------------------------------------
// Parsing and evaluating expressions
// ---------------------------------------------------------------------------------------

/// A layout in canonical notation.
pub fn lay(text: &str) -> Layout {
    parse_layout(text).unwrap_or_else(|e| panic!("`{text}` is not a layout: {e}"))
}

/// An int tuple (shape or coordinate) in canonical notation.
pub fn tup(text: &str) -> IntTuple {
    parse_int_tuple(text).unwrap_or_else(|e| panic!("`{text}` is not an int tuple: {e}"))
}

/// The canonical printed value of an expression of the expression language.
pub fn show(expr: &str) -> String {
    match evaluate(expr) {
        Ok(v) => v.to_string(),
        Err(e) => panic!("`{expr}` was rejected: {e}"),
    }
}

/// The layout an expression evaluates to.
pub fn eval_layout(expr: &str) -> Layout {
    match evaluate(expr) {
        Ok(v) => v.as_layout().cloned().unwrap_or_else(|| panic!("`{expr}` is not a layout but `{v}`")),
        Err(e) => panic!("`{expr}` was rejected: {e}"),
    }
}

/// The error of the algebra an expression is rejected with.
pub fn eval_err(expr: &str) -> LayoutError {
    match evaluate(expr) {
        Err(ExprError::Layout { error, .. }) => error,
        Err(other) => panic!("`{expr}` failed, but not with an error of the algebra: {other:?}"),
        Ok(v) => panic!("`{expr}` was accepted as `{v}` but must be rejected"),
    }
}

/// Asserts that the message of `err` contains every fragment.
pub fn assert_mentions(err: &LayoutError, fragments: &[&str]) {
    let msg = err.to_string();
    for f in fragments {
        assert!(msg.contains(f), "message does not mention `{f}`: {msg}");
    }
}

// ---------------------------------------------------------------------------------------
// Brute-force evaluation
// ---------------------------------------------------------------------------------------

/// `L(i)` from the definition: split `i` colexicographically over the leaves, the last leaf
/// unbounded (extended domain), and take the inner product with the strides.
pub fn at(l: &Layout, i: i64) -> i64 {
    assert!(i >= 0, "negative index {i}");
    let modes = l.flat_modes();
    let mut rest = i;
    let mut acc = 0;
    for (k, &(s, d)) in modes.iter().enumerate() {
        let c = if k + 1 == modes.len() { rest } else { rest % s };
        rest /= s;
        acc += c * d;
    }
    acc
}

/// `[L(0), …, L(|L|-1)]`.
pub fn values(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| at(l, i)).collect()
}

/// The set of offsets `L` reaches on its domain.
pub fn image(l: &Layout) -> BTreeSet<i64> {
    values(l).into_iter().collect()
}

pub fn is_injective(l: &Layout) -> bool {
    image(l).len() as i64 == l.size()
}

/// Whether the values of `L` are a permutation of `0..n`.
pub fn is_bijection_onto(l: &Layout, n: i64) -> bool {
    l.size() == n && image(l) == (0..n).collect()
}

/// `max offset + 1` on the domain.
pub fn cosize(l: &Layout) -> i64 {
    values(l).into_iter().max().unwrap_or(0) + 1
}

/// The smallest natural number not in `L`'s image.
pub fn mex(l: &Layout) -> i64 {
    let img = image(l);
    (0..).find(|k| !img.contains(k)).unwrap_or(0)
}

/// The colexicographic index of a coordinate (integer components stand for whole modes).
pub fn crd_idx(crd: &IntTuple, shape: &IntTuple) -> i64 {
    match (crd, shape) {
        (IntTuple::Int(c), _) => *c,
        (IntTuple::Tuple(cs), IntTuple::Tuple(ss)) => {
            assert_eq!(cs.len(), ss.len(), "coordinate `{crd}` does not fit shape `{shape}`");
            let mut acc = 0;
            let mut radix = 1;
            for (c, s) in cs.iter().zip(ss) {
                acc += crd_idx(c, s) * radix;
                radix *= size_of(s);
            }
            acc
        }
        _ => panic!("coordinate `{crd}` does not fit shape `{shape}`"),
    }
}

/// `L(c)` at a coordinate given in notation, e.g. `at_crd(&l, "((0,1),(1,1))")`.
pub fn at_crd(l: &Layout, crd: &str) -> i64 {
    at(l, crd_idx(&tup(crd), l.shape()))
}

/// The product of the leaves of a shape.
pub fn size_of(shape: &IntTuple) -> i64 {
    shape.leaves().iter().product()
}

/// The sizes of the top-level modes.
pub fn mode_sizes(l: &Layout) -> Vec<i64> {
    l.shape().modes().iter().map(size_of).collect()
}

/// Index of the rank-r coordinate `(c_0, …, c_{r-1})` over top-level mode sizes.
pub fn index_of(sizes: &[i64], crd: &[i64]) -> i64 {
    let mut acc = 0;
    let mut radix = 1;
    for (c, s) in crd.iter().zip(sizes) {
        acc += c * radix;
        radix *= s;
    }
    acc
}

/// The rank-r coordinate of index `i` over top-level mode sizes (last one unbounded).
pub fn coord_of(sizes: &[i64], i: i64) -> Vec<i64> {
    let mut rest = i;
    let mut out = Vec::with_capacity(sizes.len());
    for (k, &s) in sizes.iter().enumerate() {
        if k + 1 == sizes.len() {
            out.push(rest);
        } else {
            out.push(rest % s);
            rest /= s;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Functions and representability
// ---------------------------------------------------------------------------------------

/// Same size and the same value at every index of the domain.
pub fn assert_same_function(got: &Layout, want: &Layout) {
    assert_eq!(got.size(), want.size(), "`{got}` and `{want}` differ in size");
    assert_eq!(values(got), values(want), "`{got}` and `{want}` differ as functions");
}

/// The same values at the indices `0..n` (extended domain past the size).
pub fn assert_same_extended(got: &Layout, want: &Layout, n: i64) {
    for i in 0..n {
        assert_eq!(at(got, i), at(want, i), "`{got}` and `{want}` differ at extended index {i}");
    }
}

/// All ordered factorizations of `n` into factors ≥ 2.
fn factorizations(n: i64) -> Vec<Vec<i64>> {
    if n == 1 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for f in 2..=n {
        if n % f == 0 {
            for mut rest in factorizations(n / f) {
                rest.insert(0, f);
                out.push(rest);
            }
        }
    }
    out
}

/// Every flat layout (shape factors ≥ 2) whose values on its domain are `vals`. A nested
/// layout has the same in-domain function as its flattening, so an empty answer means no
/// layout of that size has these values.
pub fn flat_forms(vals: &[i64]) -> Vec<Layout> {
    let n = vals.len() as i64;
    let mut out = Vec::new();
    for shape in factorizations(n) {
        let mut modes = Vec::new();
        let mut radix = 1;
        for &s in &shape {
            modes.push((s, vals[radix as usize]));
            radix *= s;
        }
        let cand = Layout::from_flat(&modes).expect("a valid flat layout");
        if values(&cand) == vals {
            out.push(cand);
        }
    }
    out
}

/// The smallest rank of a flat layout with these values (1 for a single element).
pub fn min_flat_rank(vals: &[i64]) -> usize {
    flat_forms(vals).iter().map(|l| l.flat_modes().len().max(1)).min().expect("some flat form")
}

// ---------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------

/// `R = A ∘ B`: `|R| = |B|`, B's shape is compatible with R's (B ⪯ R), and
/// `R(i) = A(B(i))` for every i in B's domain (A read on its extended domain).
pub fn assert_composition(r: &Layout, a: &Layout, b: &Layout) {
    assert_eq!(r.size(), b.size(), "`{a}` ∘ `{b}` = `{r}` has the wrong size");
    assert!(b.shape().compatible(r.shape()), "`{b}` is not compatible with the result `{r}`");
    for i in 0..b.size() {
        assert_eq!(at(r, i), at(a, at(b, i)), "`{a}` ∘ `{b}` = `{r}` is wrong at {i}");
    }
}

/// By-mode composition `A ∘ ⟨T0, T1, …⟩ = (A0 ∘ T0, A1 ∘ T1, …)`: `None` (and modes past the
/// tiler) leave A's mode as it is. Checked mode by mode and as one function: at coordinate
/// `(c0, c1, …)`, `R = Σ_k A_k(T_k(c_k))`.
pub fn assert_by_mode_composition(r: &Layout, a: &Layout, tiles: &[Option<Layout>]) {
    assert_eq!(r.rank(), a.rank(), "by-mode composition keeps the rank: `{r}` vs `{a}`");
    let (rm, am) = (r.modes(), a.modes());
    for k in 0..am.len() {
        match tiles.get(k).cloned().flatten() {
            Some(t) => assert_composition(&rm[k], &am[k], &t),
            None => assert_eq!(rm[k], am[k], "untiled mode {k} must stay as it is"),
        }
    }
    let sizes = mode_sizes(r);
    for i in 0..r.size() {
        let c = coord_of(&sizes, i);
        let want: i64 = (0..am.len())
            .map(|k| match tiles.get(k).cloned().flatten() {
                Some(t) => at(&am[k], at(&t, c[k])),
                None => at(&am[k], c[k]),
            })
            .sum();
        assert_eq!(at(r, i), want, "by-mode composition `{r}` wrong at coordinate {c:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Complement
// ---------------------------------------------------------------------------------------

/// The offsets of the exact complement of `L` (as a set, its stride-0 repeats ignored) with
/// respect to `cotarget`, by brute force: walking `0..cotarget` upwards, the first offset not
/// yet covered must start a new translate `x + image(L)`, which must not hit covered offsets.
/// With `L*` ordered and `(L, L*)` a bijection onto a contiguous range, these are exactly
/// `L*`'s values. `Err` names the first offset where no exact complement can continue.
pub fn complement_bases(l: &Layout, cotarget: i64) -> Result<Vec<i64>, String> {
    let img: Vec<i64> = image(l).into_iter().collect();
    let top = *img.last().unwrap_or(&0);
    let mut covered = vec![false; (cotarget + top + 1) as usize];
    let mut bases = Vec::new();
    for x in 0..cotarget {
        if covered[x as usize] {
            continue;
        }
        if let Some(s) = img.iter().find(|&&s| covered[(x + s) as usize]) {
            return Err(format!("offset {x} is not covered, but the translate {x} + image would hit {} twice", x + s));
        }
        img.iter().for_each(|&s| covered[(x + s) as usize] = true);
        bases.push(x);
    }
    Ok(bases)
}

/// `c` is the exact complement of `l` w.r.t. `cotarget`: its values are the brute-force
/// translate offsets (so it is ordered and disjoint from `l`), and `(image(l), c)` is a
/// bijection onto a contiguous range of at least `cotarget` offsets.
pub fn assert_complement(c: &Layout, l: &Layout, cotarget: i64) {
    let bases = complement_bases(l, cotarget).unwrap_or_else(|e| panic!("`{l}` has no exact complement: {e}"));
    assert_eq!(values(c), bases, "complement(`{l}`, {cotarget}) = `{c}` has the wrong offsets");
    assert!(values(c).windows(2).all(|w| w[0] < w[1]), "complement `{c}` is not ordered");
    let img = image(l);
    let mut all = BTreeSet::new();
    for &b in &bases {
        for &s in &img {
            assert!(all.insert(b + s), "(`{l}`, `{c}`) is not injective at {}", b + s);
        }
    }
    let n = all.len() as i64;
    assert_eq!(all, (0..n).collect(), "(`{l}`, `{c}`) does not cover a contiguous range");
    assert!(n >= cotarget, "(`{l}`, `{c}`) covers {n} < {cotarget} offsets");
}

/// Extended-domain disjointness (paper §3.5, condition 2): `L*(a) ∉ image(L)` for every
/// extended index `1 ≤ a < n`.
pub fn assert_extended_disjoint(cstar: &Layout, l: &Layout, n: i64) {
    let img = image(l);
    for a in 1..n {
        assert!(!img.contains(&at(cstar, a)), "`{cstar}`({a}) = {} is an offset of `{l}`", at(cstar, a));
    }
}

// ---------------------------------------------------------------------------------------
// Inverses
// ---------------------------------------------------------------------------------------

/// Right inverse `L‡`: `L(L‡(k)) = k` for `k < |L‡|` with `L‡(k)` in L's domain, and it is the
/// largest: `|L‡|` is the first offset L misses.
pub fn assert_right_inverse(ri: &Layout, l: &Layout) {
    for k in 0..ri.size() {
        let x = at(ri, k);
        assert!((0..l.size()).contains(&x), "`{ri}`({k}) = {x} is outside the domain of `{l}`");
        assert_eq!(at(l, x), k, "`{l}`(`{ri}`({k})) != {k}");
    }
    assert_eq!(ri.size(), mex(l), "right inverse `{ri}` of `{l}` is not the largest");
}

/// Left inverse `L†`: `L(L†(L(k))) = L(k)` for `k < |L|`, `L†(L(k)) = k` when L is injective,
/// and L's whole image lies in `L†`'s domain.
pub fn assert_left_inverse(li: &Layout, l: &Layout) {
    let inj = is_injective(l);
    for k in 0..l.size() {
        let y = at(l, k);
        let x = at(li, y);
        assert_eq!(at(l, x), y, "`{l}`(`{li}`(`{l}`({k}))) != `{l}`({k})");
        if inj {
            assert_eq!(x, k, "`{li}`(`{l}`({k})) != {k}");
        }
    }
    assert!(cosize(l) <= li.size(), "left inverse `{li}` does not cover the image of `{l}`");
}

// ---------------------------------------------------------------------------------------
// Divide and product
// ---------------------------------------------------------------------------------------

/// `R = A ⊘ B = A ∘ B★` with `B★ = (B, B*)` a bijection onto `[0, |A|)` (B* found by brute
/// force): `R(i) = A(B★(i))` for all i, so `R(i, 0) = A(B(i))` and R has A's offsets.
pub fn assert_logical_divide(r: &Layout, a: &Layout, b: &Layout) {
    let n = a.size();
    assert!(is_injective(b), "tiler `{b}` is not injective");
    let bases = complement_bases(b, n).unwrap_or_else(|e| panic!("`{b}` has no exact complement in {n}: {e}"));
    assert_eq!(bases.len() as i64 * b.size(), n, "`{b}` does not tile {n} elements");
    let star = |i: i64| at(b, i % b.size()) + bases[(i / b.size()) as usize];
    let star_vals: BTreeSet<i64> = (0..n).map(star).collect();
    assert_eq!(star_vals, (0..n).collect(), "(`{b}`, B*) is not a bijection onto [0, {n})");
    assert_eq!(r.size(), n, "`{a}` ⊘ `{b}` = `{r}` has the wrong size");
    assert_eq!(r.rank(), 2, "`{a}` ⊘ `{b}` = `{r}` must have a tile and a rest mode");
    let tile = r.mode(0).expect("mode 0");
    assert_eq!(tile.size(), b.size(), "tile mode of `{r}` is not the size of `{b}`");
    assert!(b.shape().compatible(tile.shape()), "`{b}` is not compatible with the tile mode of `{r}`");
    for i in 0..n {
        assert_eq!(at(r, i), at(a, star(i)), "`{a}` ⊘ `{b}` = `{r}` is wrong at {i}");
    }
    let (mut x, mut y) = (values(r), values(a));
    x.sort_unstable();
    y.sort_unstable();
    assert_eq!(x, y, "`{r}` does not have the same offsets as `{a}`");
}

/// `R = A ⊗ B = (A, A* ∘ B)` with A* the exact complement of A w.r.t. `|A|·cosize(B)`
/// (found by brute force): mode 0 is exactly A, and `R(i, j) = A(i) + A*(B(j))`.
pub fn assert_logical_product(r: &Layout, a: &Layout, b: &Layout) {
    assert_eq!(r.rank(), 2, "`{a}` ⊗ `{b}` = `{r}` must have rank 2");
    assert_eq!(&r.mode(0).expect("mode 0"), a, "mode 0 of `{r}` must be `{a}` itself");
    let grid = r.mode(1).expect("mode 1");
    assert_eq!(grid.size(), b.size(), "grid mode of `{r}` is not the size of `{b}`");
    assert!(b.shape().compatible(grid.shape()), "`{b}` is not compatible with the grid of `{r}`");
    let cot = a.size() * cosize(b);
    let bases = complement_bases(a, cot).unwrap_or_else(|e| panic!("`{a}` has no exact complement: {e}"));
    for j in 0..b.size() {
        let bj = at(b, j) as usize;
        assert!(bj < bases.len(), "`{b}`({j}) = {bj} is past the complement of `{a}`");
        for i in 0..a.size() {
            assert_eq!(at(r, i + a.size() * j), at(a, i) + bases[bj], "`{r}` wrong at ({i},{j})");
        }
    }
}

/// Checks `check(R_k, A_k, T_k)` for every tiled mode; the others stay as they are.
pub fn assert_by_mode(r: &Layout, a: &Layout, tiles: &[Option<Layout>], check: impl Fn(&Layout, &Layout, &Layout)) {
    assert_eq!(r.rank(), a.rank(), "by-mode result `{r}` must keep the rank of `{a}`");
    for (k, (rk, ak)) in r.modes().iter().zip(a.modes()).enumerate() {
        match tiles.get(k).cloned().flatten() {
            Some(t) => check(rk, &ak, &t),
            None => assert_eq!(rk, &ak, "untiled mode {k} must stay as it is"),
        }
    }
}

/// Every natural coordinate of a rank-r list of mode sizes, colexicographically.
pub fn all_coords(sizes: &[i64]) -> Vec<Vec<i64>> {
    let n: i64 = sizes.iter().product();
    (0..n).map(|i| coord_of(sizes, i)).collect()
}
