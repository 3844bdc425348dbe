//! Brute-force semantics of the algebra, stated independently of layout-core's algorithms.
//!
//! Nothing here calls an operation of layout-core: a layout is read through its leaves
//! (`shape()`, `stride()`) and evaluated point by point, and every admissibility condition
//! of the policies of `docs/algebra.md` (§3) is restated as a property of finitely many points. Results
//! are built only with [`Layout::new`](layout_core::Layout::new). All of it is meant for small
//! layouts (a few hundred points); arithmetic is done in `i128` and a value outside `i64` panics, which no caller
//! with small inputs can reach.
//!
//! - Functions: [`eval`] (the extended domain: the last leaf unbounded), [`table`],
//!   [`is_injective`], [`is_bijection_onto`].
//! - Coalesce by the definition: [`coalesce_def`] and [`coalesce_keep_extension`].
//! - §3.2 (composition): [`walk_is_on_step`] for a rank-1 `B = s:d`,
//!   [`composition_admissible`] for any B, [`composition_values`], [`modewise_values`].
//! - §3.3 (divide): [`tile_origins`], [`complement_values`], [`divide_tiling`],
//!   [`divide_admissible`].
//! - Representability: [`factorizations`], [`representable`], [`canonical_layout`].
//! - Inverses and friends: [`prefix_in_image`], [`right_inverse_max`], [`common_prefix`],
//!   [`kernel`], [`upcast_law`], [`downcast_law`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use layout_core::{IntTuple, Layout};

/// Flat `(shape, stride)` leaves, left to right.
pub fn leaves(l: &Layout) -> Vec<(i64, i64)> {
    l.shape().leaves().into_iter().zip(l.stride().leaves()).collect()
}

/// The number of points of the domain: the product of the shape's leaves.
pub fn size(l: &Layout) -> i64 {
    l.shape().leaves().iter().product()
}

/// `⌈a/b⌉` for `a ≥ 0`, `b > 0`.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn narrow(v: i128) -> i64 {
    i64::try_from(v).expect("brute force is only used on small layouts")
}

/// The value of flat `modes` at integer index `i`: the colexicographic coordinate, every
/// mode reduced except the last, which is unbounded (the extended domain, §3.1).
pub fn eval_modes(modes: &[(i64, i64)], i: i64) -> i64 {
    let mut rest = i128::from(i);
    let mut acc = 0i128;
    for (k, &(s, d)) in modes.iter().enumerate() {
        let c = if k + 1 == modes.len() { rest } else { rest % i128::from(s) };
        acc += c * i128::from(d);
        rest /= i128::from(s);
    }
    narrow(acc)
}

/// `L(i)` on the extended domain (the last mode unbounded).
pub fn eval(l: &Layout, i: i64) -> i64 {
    eval_modes(&leaves(l), i)
}

/// `[L(0), …, L(|L|-1)]`.
pub fn table(l: &Layout) -> Vec<i64> {
    let m = leaves(l);
    (0..size(l)).map(|i| eval_modes(&m, i)).collect()
}

/// No value repeats.
pub fn is_injective(values: &[i64]) -> bool {
    values.iter().collect::<BTreeSet<_>>().len() == values.len()
}

/// The values are exactly `0, 1, …, n-1`, each once.
pub fn is_bijection_onto(values: &[i64], n: i64) -> bool {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.len() as i64 == n && v.iter().enumerate().all(|(k, &x)| x == k as i64)
}

/// A flat layout from `(shape, stride)` pairs: `1:0` when empty, `s:d` for one pair.
pub fn layout_of(modes: &[(i64, i64)]) -> Layout {
    let built = match modes {
        [] => Layout::new(IntTuple::Int(1), IntTuple::Int(0)),
        [(s, d)] => Layout::new(IntTuple::Int(*s), IntTuple::Int(*d)),
        _ => Layout::new(
            IntTuple::Tuple(modes.iter().map(|m| IntTuple::Int(m.0)).collect()),
            IntTuple::Tuple(modes.iter().map(|m| IntTuple::Int(m.1)).collect()),
        ),
    };
    built.expect("flat modes of positive extents make a layout")
}

// ----------------------------------------------------------------------------- coalesce

fn merge_neighbours(modes: impl IntoIterator<Item = (i64, i64)>) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (s, d) in modes {
        match out.last_mut() {
            Some(last) if i128::from(last.0) * i128::from(last.1) == i128::from(d) => last.0 *= s,
            _ => out.push((s, d)),
        }
    }
    out
}

/// Coalesce by the definition (paper §3.2), the function on `[0, |L|)` only: flatten, drop
/// size-1 modes, merge neighbours `s0:d0 ++ s1:d1` with `d1 = s0·d0`; nothing left is `1:0`.
pub fn coalesce_def(l: &Layout) -> Vec<(i64, i64)> {
    let out = merge_neighbours(leaves(l).into_iter().filter(|&(s, _)| s != 1));
    if out.is_empty() { vec![(1, 0)] } else { out }
}

/// Coalesce that keeps the extension (§3.2): size-1 modes are dropped except the last
/// leaf, which carries the extension past `|L|`; then neighbours with `d1 = s0·d0` merge
/// (a trailing `1:d` merges into a mode it continues). The last mode is the unbounded one.
pub fn coalesce_keep_extension(l: &Layout) -> Vec<(i64, i64)> {
    let all = leaves(l);
    let n = all.len();
    merge_neighbours(all.into_iter().enumerate().filter(|&(k, (s, _))| s != 1 || k + 1 == n).map(|(_, m)| m))
}

/// No size-1 mode (unless the whole layout is the single mode `1:0`) and no neighbours with
/// `d1 = s0·d0`: what coalesce must leave behind.
pub fn is_coalesced(modes: &[(i64, i64)]) -> bool {
    if modes == [(1, 0)] {
        return true;
    }
    modes.iter().all(|&(s, _)| s != 1)
        && modes.windows(2).all(|w| i128::from(w[0].0) * i128::from(w[0].1) != i128::from(w[1].1))
}

// ----------------------------------------------------------------------------- composition (§3.2)

/// §3.2 for a rank-1 `B = s:d` (`d ≥ 0`): coalesce A keeping its extension; every
/// non-last mode r of it ends at the boundary `P_{r+1} = S_0·…·S_r`. The walk
/// `0, d, …, (s−1)d` crosses a boundary `P` on-step exactly when every block
/// `[jP, (j+1)P)` it touches holds the walk in the same pattern (the same offsets) as the
/// block `[0, P)`; a walk that never reaches `P` touches one block and is fine (it may end
/// inside a mode). Admissible iff every boundary is crossed on-step.
pub fn walk_is_on_step(a: &Layout, s: i64, d: i64) -> bool {
    assert!(d >= 0 && s >= 1);
    let modes = coalesce_keep_extension(a);
    let points: Vec<i128> = (0..s).map(|k| i128::from(k) * i128::from(d)).collect();
    let mut boundary = 1i128;
    for &(sr, _) in &modes[..modes.len() - 1] {
        boundary *= i128::from(sr);
        let mut blocks: BTreeMap<i128, Vec<i128>> = BTreeMap::new();
        for &p in &points {
            blocks.entry(p / boundary).or_default().push(p % boundary);
        }
        let first = &blocks[&0];
        if blocks.values().any(|offsets| offsets != first) {
            return false;
        }
    }
    true
}

/// `c ↦ A(B(c))` on B's domain (A on its extended domain).
pub fn composition_values(a: &Layout, b: &Layout) -> Vec<i64> {
    let am = leaves(a);
    table(b).into_iter().map(|x| eval_modes(&am, x)).collect()
}

/// The per-mode compositions side by side, as a function on B's domain:
/// `c ↦ Σ_leaves A(c_leaf·d_leaf)` with `c_leaf` the natural coordinate of each leaf of B.
pub fn modewise_values(a: &Layout, b: &Layout) -> Vec<i64> {
    let am = leaves(a);
    let bm = leaves(b);
    (0..size(b))
        .map(|i| {
            let mut rest = i;
            let mut acc = 0i128;
            for &(s, d) in &bm {
                acc += i128::from(eval_modes(&am, (rest % s) * d));
                rest /= s;
            }
            narrow(acc)
        })
        .collect()
}

/// §3.2 for any B with non-negative strides: every leaf of B is admissible on its own
/// ([`walk_is_on_step`]) and the mode-wise result equals `A ∘ B` on all of B's domain.
pub fn composition_admissible(a: &Layout, b: &Layout) -> bool {
    leaves(b).iter().all(|&(s, d)| walk_is_on_step(a, s, d)) && modewise_values(a, b) == composition_values(a, b)
}

/// `B ⪯ R`: R's shape has B's tuple structure with each leaf of B replaced by a (sub)shape
/// of the same size.
pub fn refines(b_shape: &IntTuple, r_shape: &IntTuple) -> bool {
    match (b_shape, r_shape) {
        (IntTuple::Int(n), r) => r.leaves().iter().product::<i64>() == *n,
        (IntTuple::Tuple(b), IntTuple::Tuple(r)) => b.len() == r.len() && b.iter().zip(r).all(|(x, y)| refines(x, y)),
        _ => false,
    }
}

// ----------------------------------------------------------------------------- representability

/// Every ordered factorization of `n` into factors ≥ 2 (`[]` for 1).
pub fn factorizations(n: i64) -> Vec<Vec<i64>> {
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

/// Some flat layout whose shape refines `shape` (each leaf of `shape` replaced by an ordered
/// factorization of it) has exactly the values `f` on `[0, |shape|)`; returns its modes.
/// The strides are forced: the stride of a factor is `f` at the factor's prefix product.
pub fn representable(f: &[i64], shape: &IntTuple) -> Option<Vec<(i64, i64)>> {
    let parts: Vec<Vec<Vec<i64>>> = shape.leaves().into_iter().map(factorizations).collect();
    let mut choice = vec![0usize; parts.len()];
    loop {
        let fac: Vec<i64> = parts.iter().zip(&choice).flat_map(|(p, &c)| p[c].iter().copied()).collect();
        let mut modes = Vec::with_capacity(fac.len());
        let mut pos = 1i64;
        for &s in &fac {
            modes.push((s, f.get(pos as usize).copied().unwrap_or(0)));
            pos *= s;
        }
        if pos == f.len() as i64 && (0..pos).all(|i| eval_modes_or_zero(&modes, i) == f[i as usize]) {
            return Some(modes);
        }
        // next combination (odometer)
        let mut k = 0;
        loop {
            if k == choice.len() {
                return None;
            }
            choice[k] += 1;
            if choice[k] < parts[k].len() {
                break;
            }
            choice[k] = 0;
            k += 1;
        }
    }
}

fn eval_modes_or_zero(modes: &[(i64, i64)], i: i64) -> i64 {
    if modes.is_empty() { 0 } else { eval_modes(modes, i) }
}

/// The coalesced (by the definition) flat layout with the values `f`, if any layout has them.
pub fn canonical_layout(f: &[i64]) -> Option<Layout> {
    let modes = representable(f, &IntTuple::Int(f.len() as i64))?;
    Some(layout_of(&coalesce_def(&layout_of(&modes))))
}

// ----------------------------------------------------------------------------- complement, divide (§3.3)

/// The ordered exact tiling by translates of `image` (a set containing 0): origin 0, then
/// always the smallest point not yet covered; a new tile must not overlap the covered points.
/// Returns the `count` origins and the covered points, or why no such tiling exists.
pub fn tile_origins(image: &[i64], count: i64) -> Result<(Vec<i64>, BTreeSet<i64>), String> {
    let mut img: Vec<i64> = image.to_vec();
    img.sort_unstable();
    img.dedup();
    if img.first() != Some(&0) {
        return Err("the image does not start at 0".into());
    }
    let mut covered = BTreeSet::new();
    let mut origins = Vec::new();
    let mut p = 0i64;
    while (origins.len() as i64) < count {
        while covered.contains(&p) {
            p += 1;
        }
        if let Some(x) = img.iter().find(|&&x| covered.contains(&(p + x))) {
            return Err(format!("the tile at {p} overlaps earlier tiles at {}", p + x));
        }
        covered.extend(img.iter().map(|x| p + x));
        origins.push(p);
    }
    Ok((origins, covered))
}

/// The leaves of `filter(L)` by the definition: shape ≠ 1 and stride ≠ 0.
pub fn filter_leaves(l: &Layout) -> Vec<(i64, i64)> {
    leaves(l).into_iter().filter(|&(s, d)| s != 1 && d != 0).collect()
}

/// The modes of `filter(L)`, sorted by stride and merged where contiguous, overlap: some
/// mode starts before the extent `shape × stride` of the one below it ends. CuTe's complement
/// construction (exact or weak) needs them not to (docs/algebra.md §3.9).
pub fn modes_overlap(l: &Layout) -> bool {
    let mut modes = filter_leaves(l);
    modes.sort_by_key(|&(s, d)| (d, s));
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (s, d) in modes {
        match merged.last_mut() {
            Some((ps, pd)) if *ps * *pd == d => *ps *= s,
            _ => merged.push((s, d)),
        }
    }
    merged.windows(2).any(|w| w[1].1 < w[0].0 * w[0].1)
}

/// CuTe's complement construction where no exact complement exists (§3.9, "weak"): the
/// modes of filter(L) sorted by stride and merged, a hole `⌊d/c⌋ : c` before each (c the
/// extent so far), a rest `⌈cotarget/c⌉ : c`, coalesced by definition. `None` when the modes
/// overlap. The second value says whether `(L, C)` reaches the cotarget (CuTe's
/// post-condition `cosize((L, C)) ≥ cotarget`), which `complement` requires and a product does
/// not (it needs disjoint copies instead).
pub fn weak_complement(l: &Layout, cotarget: i64) -> Option<(Layout, bool)> {
    if modes_overlap(l) {
        return None;
    }
    let mut modes = filter_leaves(l);
    modes.sort_by_key(|&(s, d)| (d, s));
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (s, d) in modes {
        match merged.last_mut() {
            Some((ps, pd)) if *ps * *pd == d => *ps *= s,
            _ => merged.push((s, d)),
        }
    }
    let (mut extent, mut out) = (1i64, Vec::new());
    for &(s, d) in &merged {
        out.push((d / extent, extent));
        extent = s * d;
    }
    out.push((ceil_div(cotarget, extent), extent));
    let c = layout_of(&coalesce_def(&layout_of(&out)));
    let top = merged.iter().map(|&(s, d)| (s - 1) * d).sum::<i64>() + table(&c).last().copied().unwrap_or(0);
    Some((c, top + 1 >= cotarget))
}

/// The translates of A's image by `origins`, one per distinct value of B (`b_values`, in the
/// same order), are pairwise disjoint (the copies of A in a product, §3.9): two values of B
/// may share a copy only when they are equal.
pub fn copies_disjoint(a: &Layout, b_values: &[i64], origins: &[i64]) -> bool {
    let img: BTreeSet<i64> = table(a).into_iter().collect();
    let per_value: BTreeMap<i64, i64> = b_values.iter().copied().zip(origins.iter().copied()).collect();
    let mut seen = BTreeSet::new();
    per_value.values().all(|&o| {
        let copy: BTreeSet<i64> = img.iter().map(|&v| v + o).collect();
        let fresh = copy.is_disjoint(&seen);
        seen.extend(copy);
        fresh
    })
}

/// The exact ordered complement of L for `cotarget`, as its values: the origins of the
/// ordered exact tiling of `[0, T)` by translates of `filter(L)`'s image, with
/// `T = ⌈cotarget/P⌉·P` and `P = max(s·d)` over `filter(L)`'s leaves (1 when there are none),
/// the period after which the complement repeats. `Err` when there is none: `filter(L)` not
/// injective, `|filter(L)|` not dividing T, overlapping tiles, or tiles leaving holes in `[0, T)`.
pub fn complement_values(l: &Layout, cotarget: i64) -> Result<Vec<i64>, String> {
    let fm = filter_leaves(l);
    let image = if fm.is_empty() { vec![0] } else { table(&layout_of(&fm)) };
    if !is_injective(&image) {
        return Err("filter(L) is not injective".into());
    }
    let period = fm.iter().map(|&(s, d)| s * d).max().unwrap_or(1);
    let t = ceil_div(cotarget, period) * period;
    let n = image.len() as i64;
    if t % n != 0 {
        return Err(format!("the period {period} is not a multiple of |filter(L)| = {n}"));
    }
    let (origins, covered) = tile_origins(&image, t / n)?;
    if covered.last() != Some(&(t - 1)) {
        return Err(format!("the tiles do not cover [0, {t}) exactly"));
    }
    Ok(origins)
}

/// §3.3: `(B, complement(B, n))` is a bijection onto `[0, n)`, i.e. translates of B's
/// image tile `[0, n)` exactly. Returns the tile origins (the complement's values).
pub fn divide_tiling(b: &Layout, n: i64) -> Result<Vec<i64>, String> {
    let image = table(b);
    if !is_injective(&image) {
        return Err("B is not injective".into());
    }
    let nb = image.len() as i64;
    if n % nb != 0 {
        return Err(format!("|B| = {nb} does not divide {n}"));
    }
    let (origins, covered) = tile_origins(&image, n / nb)?;
    if covered.last() != Some(&(n - 1)) {
        return Err(format!("the tiles do not cover [0, {n}) exactly"));
    }
    Ok(origins)
}

/// `B★ = (B, C)` with C the canonical layout of the complement's values.
pub fn b_star(b: &Layout, complement: &[i64]) -> Layout {
    let c = canonical_layout(complement).expect("an exact tiling's origins form a layout");
    Layout::new(
        IntTuple::Tuple(vec![b.shape().clone(), c.shape().clone()]),
        IntTuple::Tuple(vec![b.stride().clone(), c.stride().clone()]),
    )
    .expect("B★ is a layout")
}

/// §3.3 and §3.2 for `logical_divide(A, B)`: B★ tiles `[0, |A|)` exactly and `A ∘ B★`
/// is admissible. Returns B★ when admissible.
pub fn divide_admissible(a: &Layout, b: &Layout) -> Option<Layout> {
    let origins = divide_tiling(b, size(a)).ok()?;
    let star = b_star(b, &origins);
    composition_admissible(a, &star).then_some(star)
}

// ----------------------------------------------------------------------------- inverses, common vectors, kernels

/// The largest N with `0, 1, …, N-1` all in L's image.
pub fn prefix_in_image(l: &Layout) -> i64 {
    let img: BTreeSet<i64> = table(l).into_iter().collect();
    (0..).find(|k| !img.contains(k)).unwrap_or(0)
}

/// The largest N for which some layout R of size N (of any flat shape) has
/// `0 ≤ R(i) < |L|` and `L(R(i)) = i` for every `i < N` (searched over all factorizations of
/// N and all choices of preimages at the prefix products).
pub fn right_inverse_max(l: &Layout) -> i64 {
    let t = table(l);
    let mut pre: HashMap<i64, Vec<i64>> = HashMap::new();
    for (i, &v) in t.iter().enumerate() {
        pre.entry(v).or_default().push(i as i64);
    }
    let fits = |n: i64| factorizations(n).iter().any(|fac| right_inverse_search(&t, &pre, fac, &mut Vec::new()));
    (1..=prefix_in_image(l)).rev().find(|&n| fits(n)).unwrap_or(1)
}

/// As [`right_inverse_max`], with every stride of R an index whose natural coordinate in L
/// is non-zero in at most one mode (each mode of R reads along one mode of L): the class
/// `right_inverse` searches (on the coalesced L, which has the same function of the index).
/// For an injective L with non-negative strides the two agree.
pub fn right_inverse_max_by_modes(l: &Layout) -> i64 {
    let t = table(l);
    let shape: Vec<i64> = coalesce_def(l).iter().map(|&(s, _)| s).collect();
    let one_mode = |mut i: i64| {
        let mut nonzero = 0;
        for &s in &shape {
            nonzero += usize::from(i % s != 0);
            i /= s;
        }
        nonzero <= 1
    };
    let mut pre: HashMap<i64, Vec<i64>> = HashMap::new();
    for (i, &v) in t.iter().enumerate() {
        if one_mode(i as i64) {
            pre.entry(v).or_default().push(i as i64);
        }
    }
    let fits = |n: i64| factorizations(n).iter().any(|fac| right_inverse_search(&t, &pre, fac, &mut Vec::new()));
    (1..=prefix_in_image(l)).rev().find(|&n| fits(n)).unwrap_or(1)
}

/// Depth-first: the strides chosen so far are `strides` (for the first factors of `fac`).
fn right_inverse_search(t: &[i64], pre: &HashMap<i64, Vec<i64>>, fac: &[i64], strides: &mut Vec<i64>) -> bool {
    let k = strides.len();
    if k == fac.len() {
        return true;
    }
    let pos: i64 = fac[..k].iter().product();
    for &cand in pre.get(&pos).map(Vec::as_slice).unwrap_or(&[]) {
        strides.push(cand);
        let modes: Vec<(i64, i64)> = fac[..=k].iter().copied().zip(strides.iter().copied()).collect();
        let ok = (pos..pos * fac[k]).all(|i| {
            let r = eval_modes(&modes, i);
            (0..t.len() as i64).contains(&r) && t[r as usize] == i
        });
        if ok && right_inverse_search(t, pre, fac, strides) {
            return true;
        }
        strides.pop();
    }
    false
}

/// The largest N for which some layout R of size N (of any flat shape) has `R(i)` in both
/// domains and `A(R(i)) = B(R(i)) = i` for every `i < N`: what `max_common_vector` promises
/// (searched like [`right_inverse_max`], over the indices where A and B agree).
pub fn common_layout_max(a: &Layout, b: &Layout) -> i64 {
    common_layout_search(a, b, false)
}

/// As [`common_layout_max`], with every stride of R an index whose natural coordinate in
/// coalesced B is non-zero in at most one mode: the class `max_common_layout` searches.
pub fn common_layout_max_by_modes(a: &Layout, b: &Layout) -> i64 {
    common_layout_search(a, b, true)
}

fn common_layout_search(a: &Layout, b: &Layout, by_modes: bool) -> i64 {
    let shape: Vec<i64> = coalesce_def(b).iter().map(|&(s, _)| s).collect();
    let one_mode = |mut i: i64| {
        let mut nonzero = 0;
        for &s in &shape {
            nonzero += usize::from(i % s != 0);
            i /= s;
        }
        !by_modes || nonzero <= 1
    };
    let (ta, tb) = (table(a), table(b));
    let n = ta.len().min(tb.len());
    // The common table: `A(i)` where A and B agree, a value no prefix reaches elsewhere.
    let t: Vec<i64> = (0..n).map(|i| if ta[i] == tb[i] { ta[i] } else { -1 }).collect();
    let mut pre: HashMap<i64, Vec<i64>> = HashMap::new();
    for (i, &v) in t.iter().enumerate() {
        if v >= 0 && one_mode(i as i64) {
            pre.entry(v).or_default().push(i as i64);
        }
    }
    let reach = (0..).find(|k| !pre.contains_key(k)).unwrap_or(0);
    let fits = |n: i64| factorizations(n).iter().any(|fac| right_inverse_search(&t, &pre, fac, &mut Vec::new()));
    (1..=reach).rev().find(|&n| fits(n)).unwrap_or(1)
}

/// The largest N such that every `n < N` has an index i in both domains with
/// `A(i) = B(i) = n` (the leading elements A and B agree on).
pub fn common_prefix(a: &Layout, b: &Layout) -> i64 {
    let (ta, tb) = (table(a), table(b));
    let mut at: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, &v) in tb.iter().enumerate().take(ta.len()) {
        at.entry(v).or_default().push(i);
    }
    (0..).find(|n| !at.get(n).is_some_and(|is| is.iter().any(|&i| ta[i] == *n))).unwrap_or(0)
}

/// `{i < |L| : L(i) = 0}`, increasing.
pub fn kernel(l: &Layout) -> Vec<i64> {
    table(l).into_iter().enumerate().filter(|&(_, v)| v == 0).map(|(i, _)| i as i64).collect()
}

// ----------------------------------------------------------------------------- upcast, downcast

/// `upcast<N>` is admissible iff every non-zero stride divides or is a multiple of N.
pub fn upcast_admissible(l: &Layout, n: i64) -> bool {
    n >= 1 && leaves(l).iter().all(|&(_, d)| d == 0 || (d % n == 0 || n % d == 0))
}

fn flat_coords(shape: &[i64], mut i: i64) -> Vec<i64> {
    shape
        .iter()
        .map(|&s| {
            let c = i % s;
            i /= s;
            c
        })
        .collect()
}

/// The law of `upcast<N>(L) = R`, leaf by leaf: R is congruent to L, each leaf `s:d` has the
/// extent `⌈s/r⌉` with `r = N/|d|` when `|d|` divides N (else 1; r = 1 for d = 0), and
/// `N·R(c) = L(c·r)` for every natural coordinate c of R (L on its extended domain).
pub fn upcast_law(l: &Layout, n: i64, r: &Layout) -> Result<(), String> {
    if !l.shape().congruent(r.shape()) {
        return Err(format!("{r} is not congruent to {l}"));
    }
    let lv = leaves(l);
    let ratio: Vec<i64> = lv.iter().map(|&(_, d)| if d != 0 && n % d.abs() == 0 { n / d.abs() } else { 1 }).collect();
    let want: Vec<i64> = lv.iter().zip(&ratio).map(|(&(s, _), &q)| ceil_div(s, q)).collect();
    let rs = r.shape().leaves();
    if rs != want {
        return Err(format!("extents {rs:?}, want {want:?}"));
    }
    let rv = leaves(r);
    for i in 0..size(r) {
        let c = flat_coords(&rs, i);
        let lval: i128 =
            c.iter().zip(&ratio).zip(&lv).map(|((&c, &q), &(_, d))| i128::from(c * q) * i128::from(d)).sum();
        let rval: i128 = c.iter().zip(&rv).map(|(&c, &(_, d))| i128::from(c) * i128::from(d)).sum();
        if i128::from(n) * rval != lval {
            return Err(format!("at {c:?}: N·R = {}, L(c·r) = {lval}", i128::from(n) * rval));
        }
    }
    Ok(())
}

/// The law of `downcast<N>(L) = R`: R is congruent to L, leaves of stride ±1 are N times
/// longer, the others keep their extent, and at every natural coordinate c of R,
/// `R(c) = N·L(c') + Σ_{unit leaves} sign(d)·(c mod N)` with `c' = c / N` on the unit leaves.
pub fn downcast_law(l: &Layout, n: i64, r: &Layout) -> Result<(), String> {
    if !l.shape().congruent(r.shape()) {
        return Err(format!("{r} is not congruent to {l}"));
    }
    let lv = leaves(l);
    let want: Vec<i64> = lv.iter().map(|&(s, d)| if d.abs() == 1 { s * n } else { s }).collect();
    let rs = r.shape().leaves();
    if rs != want {
        return Err(format!("extents {rs:?}, want {want:?}"));
    }
    let rv = leaves(r);
    for i in 0..size(r) {
        let c = flat_coords(&rs, i);
        let mut lval = 0i128;
        let mut sub = 0i128;
        for (&ck, &(_, d)) in c.iter().zip(&lv) {
            if d.abs() == 1 {
                lval += i128::from(ck / n) * i128::from(d);
                sub += i128::from(d) * i128::from(ck % n);
            } else {
                lval += i128::from(ck) * i128::from(d);
            }
        }
        let rval: i128 = c.iter().zip(&rv).map(|(&c, &(_, d))| i128::from(c) * i128::from(d)).sum();
        if rval != i128::from(n) * lval + sub {
            return Err(format!("at {c:?}: R = {rval}, N·L(c') + sub = {}", i128::from(n) * lval + sub));
        }
    }
    Ok(())
}
