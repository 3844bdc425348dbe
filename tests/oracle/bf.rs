//! Brute-force semantics used to judge answers: a port of the reference tools' `bf.py`.
//!
//! Nothing here calls layout-core: layouts are [`Lay`] pairs evaluated point by point with
//! CuTe's extension of the last flat mode (see [`super::notation::Eval`]). Every validator
//! returns `Ok(())` when the result is right and `Err(reason)` otherwise; enumerations are
//! refused past [`CHECK_LIMIT`] points.

use std::collections::{HashMap, HashSet};

use super::notation::{Lay, TElem, Tup};

/// Never enumerate more points than this (every generated case is below it).
pub const CHECK_LIMIT: i64 = 1 << 17;

/// `Ok` or the reason a check failed.
pub type Check<T = ()> = Result<T, String>;

pub fn guard(n: i64) -> Check {
    if n > CHECK_LIMIT { Err(format!("brute force over {n} points refused (limit {CHECK_LIMIT})")) } else { Ok(()) }
}

/// Python's `a // b`.
pub fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

/// Python's `-(-a // b)`.
pub fn ceil_div(a: i64, b: i64) -> i64 {
    -floor_div(-a, b)
}

fn ensure(ok: bool, why: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(why()) }
}

/// The layout of a tiler element, or the reason it is not one.
fn layout_of(e: &TElem) -> Check<&Lay> {
    match e {
        TElem::Layout(l) => Ok(l),
        _ => Err("tiler element is not a layout".to_string()),
    }
}

/// Shape `rs` has the structure of `bs`, each leaf of `bs` replaced by a (sub)shape of the
/// same size (what composition with right-distributivity produces).
pub fn refines(bs: &Tup, rs: &Tup) -> bool {
    match (bs, rs) {
        (Tup::Int(b), _) => rs.product() == *b,
        (Tup::Tuple(b), Tup::Tuple(r)) => b.len() == r.len() && b.iter().zip(r).all(|(x, y)| refines(x, y)),
        _ => false,
    }
}

/// Coalesce by definition: flatten, drop shape-1 modes, merge neighbours with
/// `s_i·d_i == d_{i+1}`; empty gives `1:0`, one mode a scalar layout (pycute's `coalesce`).
pub fn coalesce_ref(l: &Lay) -> Lay {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (s, d) in l.flat().into_iter().filter(|&(s, _)| s != 1) {
        match out.last_mut() {
            Some(last) if last.0 * last.1 == d => last.0 *= s,
            _ => out.push((s, d)),
        }
    }
    if out.is_empty() { Lay::scalar(1, 0) } else { Lay::from_flat(&out) }
}

/// Flat `(shape, stride)` modes with shape != 1 and stride != 0 (CuTe filter, uncoalesced).
pub fn filter_modes(l: &Lay) -> Vec<(i64, i64)> {
    l.flat().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect()
}

/// CuTe `append<r>(layout)`: pad with `1:0` modes up to rank r (a scalar becomes a tuple).
pub fn pad(l: &Lay, r: usize) -> Lay {
    if l.rank() >= r {
        return l.clone();
    }
    let mut modes = l.modes();
    modes.resize(r, Lay::scalar(1, 0));
    Lay::from_modes(&modes)
}

pub fn injective(l: &Lay) -> Check<bool> {
    let t = l.table()?;
    Ok(t.iter().collect::<HashSet<_>>().len() == t.len())
}

/// Ordered exact tiling by translates of `image` (sorted, containing 0): `o_0 = 0`,
/// `o_{k+1}` = the smallest point not yet covered; a new tile must not overlap. For an
/// admissible layout these are exactly the values of its complement, in order.
pub fn tile_origins(image: &[i64], count: i64) -> Check<(Vec<i64>, HashSet<i64>)> {
    if image.first() != Some(&0) {
        return Err("image does not contain 0".to_string());
    }
    guard(count.saturating_mul(image.len() as i64))?;
    let mut covered = HashSet::new();
    let mut origins = Vec::new();
    let mut p = 0;
    while (origins.len() as i64) < count {
        while covered.contains(&p) {
            p += 1;
        }
        let clash: Vec<i64> = image.iter().map(|x| p + x).filter(|v| covered.contains(v)).take(3).collect();
        if !clash.is_empty() {
            return Err(format!("tile at {p} overlaps earlier tiles at {clash:?} (no exact ordered complement)"));
        }
        covered.extend(image.iter().map(|x| p + x));
        origins.push(p);
    }
    Ok((origins, covered))
}

/// The image of `filter(L)` (sorted), its size, and the period `max(s·d)` after which the
/// ordered complement repeats; `None` when `filter(L)` is not injective.
pub struct Parts {
    pub image: Vec<i64>,
    pub count: i64,
    pub period: i64,
}

pub fn complement_parts(l: &Lay) -> Check<Option<Parts>> {
    let fm = filter_modes(l);
    if fm.is_empty() {
        return Ok(Some(Parts { image: vec![0], count: 1, period: 1 }));
    }
    let t = Lay::from_flat(&fm).table()?;
    let mut image = t.clone();
    image.sort_unstable();
    image.dedup();
    if image.len() != t.len() {
        return Ok(None);
    }
    let period = fm.iter().map(|&(s, d)| s * d).max().unwrap_or(1);
    Ok(Some(Parts { count: image.len() as i64, image, period }))
}

/// The exact complement of `L` for `cotarget` as its list of values (the ordered tile
/// origins), sized like CuTe: `size(filter(L))·size(C) = ceil(cotarget/period)·period`.
/// `Err` when there is no exact complement.
pub fn complement_ref(l: &Lay, cotarget: i64) -> Check<Vec<i64>> {
    let Some(parts) = complement_parts(l)? else { return Err("filter(L) is not injective".to_string()) };
    let total = ceil_div(cotarget, parts.period) * parts.period;
    if total % parts.count != 0 {
        return Err(format!("period {} not a multiple of |image| {}", parts.period, parts.count));
    }
    let (origins, covered) = tile_origins(&parts.image, total / parts.count)?;
    if covered.len() as i64 != total || covered.iter().any(|&v| !(0..total).contains(&v)) {
        return Err("tiles do not cover [0,T) exactly (holes)".to_string());
    }
    Ok(origins)
}

/// The weak complement (docs/algebra.md §3.9), where no exact one exists: CuTe's construction
/// (the modes of `filter(L)` sorted by stride and merged where contiguous; a hole `⌊d/c⌋ : c`
/// before each, c the extent so far; a rest `⌈cotarget/c⌉ : c`), coalesced as the tool prints
/// it. `Err` when the modes overlap (no complement at all).
pub fn weak_complement_lay(l: &Lay, cotarget: i64) -> Check<Lay> {
    let mut fm = filter_modes(l);
    fm.sort_by_key(|&(s, d)| (d, s));
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (s, d) in fm {
        match merged.last_mut() {
            Some((ps, pd)) if *ps * *pd == d => *ps *= s,
            _ => merged.push((s, d)),
        }
    }
    let mut extent = 1i64;
    let mut out = Vec::new();
    for (s, d) in merged {
        ensure(d >= extent, || format!("the mode {s}:{d} starts inside the extent {extent}: modes overlap"))?;
        out.push((d / extent, extent));
        extent = s * d;
    }
    out.push((ceil_div(cotarget, extent), extent));
    Ok(coalesce_ref(&Lay::from_flat(&out)))
}

/// What §3.9 keeps of a complement's promises when it is weak: ordered from 0, disjoint
/// from L's image after 0, `(filter(L), C)` injective, and `cosize((L, C)) ≥ cotarget`.
fn weak_complement_ok(l: &Lay, cotarget: i64, got: &[i64]) -> Check {
    ensure(got.first() == Some(&0), || "does not start at 0".to_string())?;
    ensure(got.windows(2).all(|w| w[0] < w[1]), || "not ordered".to_string())?;
    let img: HashSet<i64> = l.table()?.into_iter().collect();
    ensure(got[1..].iter().all(|v| !img.contains(v)), || "meets L's image".to_string())?;
    let f = filter_modes(l);
    let fimg = if f.is_empty() { vec![0] } else { Lay::from_flat(&f).table()? };
    let mut all = HashSet::new();
    for &c in got {
        for &v in &fimg {
            ensure(all.insert(c + v), || format!("(filter(L), C) is not injective at {}", c + v))?;
        }
    }
    let top = img.iter().max().copied().unwrap_or(0) + got.last().copied().unwrap_or(0);
    ensure(top + 1 >= cotarget, || format!("cosize((L, C)) = {} < cotarget {cotarget}", top + 1))
}

/// The copies of `block` at `origins`, one per distinct tiler value (the pairs are
/// `(value, origin)`), are pairwise disjoint (§3.9): two values share a copy only when equal.
fn copies_disjoint(block: &Lay, pairs: impl Iterator<Item = (i64, i64)>) -> Check {
    let img = block.table()?;
    let per_value: std::collections::BTreeMap<i64, i64> = pairs.collect();
    let mut seen = HashSet::new();
    for &o in per_value.values() {
        let copy: HashSet<i64> = img.iter().map(|&v| v + o).collect();
        ensure(copy.is_disjoint(&seen), || format!("the copy of the block at offset {o} meets an earlier copy"))?;
        seen.extend(copy);
    }
    Ok(())
}

// ------------------------------------------------------------------------------ validators

pub fn v_coalesce(l: &Lay, r: &Lay) -> Check {
    let n = l.size();
    guard(n)?;
    ensure(r.size() == n, || format!("size {} != {n}", r.size()))?;
    ensure(r.table()? == l.table()?, || "different function on the domain".to_string())
}

pub fn v_complement(l: &Lay, cotarget: i64, r: &Lay) -> Check {
    let reference = match complement_ref(l, cotarget) {
        Ok(reference) => reference,
        Err(why) => {
            // §3.9: a weak complement is CuTe's construction, with what it still promises.
            let weak = weak_complement_lay(l, cotarget)
                .map_err(|e| format!("input has no complement ({why}; {e}); one was returned anyway"))?;
            guard(r.size())?;
            let got = r.table()?;
            ensure(got == weak.table()?, || format!("values differ from the weak complement {weak:?}"))?;
            return weak_complement_ok(l, cotarget, &got)
                .map_err(|e| format!("weak complement (no exact one: {why}) breaks its promises: {e}"));
        }
    };
    guard(r.size())?;
    let got = r.table()?;
    if got.len() != reference.len() {
        return Err(format!("size {} != {} (ceil(cotarget/period)*period/|filter(L)|)", got.len(), reference.len()));
    }
    ensure(got == reference, || "values differ from the ordered exact complement".to_string())
}

pub fn v_right_inverse(l: &Lay, r: &Lay) -> Check {
    let (n, m) = (r.size(), l.size());
    guard(n)?;
    let (fl, fr) = (l.eval(), r.eval());
    for i in 0..n {
        let j = fr.at(i);
        ensure((0..m).contains(&j), || format!("R({i})={j} outside L's domain [0,{m})"))?;
        ensure(fl.at(j) == i, || format!("L(R({i}))={} != {i}", fl.at(j)))?;
    }
    Ok(())
}

pub fn v_left_inverse(l: &Lay, r: &Lay) -> Check {
    let n = l.size();
    guard(n)?;
    let (fl, fr) = (l.eval(), r.eval());
    let img = l.table()?;
    if injective(l)? {
        for (i, &v) in img.iter().enumerate() {
            ensure(fr.at(v) == i as i64, || format!("R(L({i}))={} != {i}", fr.at(v)))?;
        }
        return Ok(());
    }
    for (i, &v) in img.iter().enumerate() {
        ensure(fl.at(fr.at(v)) == v, || format!("L(R(L({i}))) != L({i}) (not even a quasi-inverse)"))?;
    }
    Ok(())
}

/// The largest N such that every n < N has some i with B(i) == n and A(i) == n.
fn common_prefix(a: &Lay, b: &Lay) -> i64 {
    let (fa, fb) = (a.eval(), b.eval());
    let mut pre: HashMap<i64, Vec<i64>> = HashMap::new();
    for i in 0..a.size().min(b.size()) {
        pre.entry(fb.at(i)).or_default().push(i);
    }
    let mut n = 0;
    while pre.get(&n).is_some_and(|is| is.iter().any(|&i| fa.at(i) == n)) {
        n += 1;
    }
    n
}

pub fn v_max_common_vector(a: &Lay, b: &Lay, n: i64) -> Check {
    guard(a.size().max(b.size()))?;
    let best = common_prefix(a, b);
    ensure(n >= 1, || format!("result {n} is not a positive integer"))?;
    ensure(n <= best, || format!("only {best} leading elements correspond (a(b^-1(n))==n), not {n}"))
}

pub fn v_max_common_layout(a: &Lay, b: &Lay, r: &Lay) -> Check {
    guard(a.size().max(b.size()).max(r.size()))?;
    let (fa, fb, fr) = (a.eval(), b.eval(), r.eval());
    let lim = a.size().min(b.size());
    for i in 0..r.size() {
        let j = fr.at(i);
        ensure((0..lim).contains(&j), || format!("R({i})={j} outside the common domain"))?;
        ensure(fa.at(j) == i && fb.at(j) == i, || {
            format!("A(R({i}))={}, B(R({i}))={}, expected {i}", fa.at(j), fb.at(j))
        })?;
    }
    Ok(())
}

pub fn v_nullspace(l: &Lay, r: &Lay) -> Check {
    let n = l.size();
    guard(n.max(r.size()))?;
    let fl = l.eval();
    let kernel: HashSet<i64> = (0..n).filter(|&i| fl.at(i) == 0).collect();
    let t = r.table()?;
    let image: HashSet<i64> = t.iter().copied().collect();
    ensure(image.len() == t.len(), || "result is not injective".to_string())?;
    ensure(image == kernel, || format!("image != kernel ({} vs {} points)", t.len(), kernel.len()))
}

/// The colexicographic coordinate of `i` over `shape` (last mode unbounded).
fn coords(shape: &[i64], mut i: i64) -> Vec<i64> {
    shape
        .iter()
        .map(|&s| {
            let c = i % s;
            i /= s;
            c
        })
        .collect()
}

pub fn v_upcast(l: &Lay, n: i64, r: &Lay) -> Check {
    ensure(l.shape.congruent(&r.shape), || "result not congruent with the input".to_string())?;
    let lv = l.flat();
    let mut ratio = Vec::new();
    let mut want = Vec::new();
    for &(s, d) in &lv {
        if d == 0 {
            ratio.push(1);
            want.push(s);
        } else if d % n == 0 || n % d == 0 {
            let k = ceil_div(n, d);
            ratio.push(k);
            want.push(ceil_div(s, k));
        } else {
            return Err(format!("stride {d} neither divides nor is divisible by {n}: should be rejected"));
        }
    }
    let rs = r.flat_shape();
    ensure(rs == want, || format!("shape {rs:?} != ceil(s/ceil(N/d)) = {want:?}"))?;
    let total = r.size();
    guard(total)?;
    let fr = r.eval();
    for i in 0..total {
        let c = coords(&rs, i);
        let lval: i64 = c.iter().zip(&ratio).zip(&lv).map(|((c, k), (_, d))| c * k * d).sum();
        ensure(n * fr.at(i) == lval, || format!("N*R(c)={} != L(c')={lval} at flat coord {c:?}", n * fr.at(i)))?;
    }
    Ok(())
}

pub fn v_downcast(l: &Lay, n: i64, r: &Lay) -> Check {
    ensure(l.shape.congruent(&r.shape), || "result not congruent with the input".to_string())?;
    let lv = l.flat();
    ensure(lv.iter().any(|&(_, d)| d == 1), || {
        "no stride-1 mode: the N sub-elements cannot be represented; should be rejected".to_string()
    })?;
    let want: Vec<i64> = lv.iter().map(|&(s, d)| if d == 1 { s * n } else { s }).collect();
    let rs = r.flat_shape();
    ensure(rs == want, || format!("shape {rs:?} != {want:?}"))?;
    let total = r.size();
    guard(total)?;
    let (fr, fl) = (r.eval(), l.eval());
    for i in 0..total {
        let c = coords(&rs, i);
        let (mut lin, mut mul, mut sub) = (0, 1, 0);
        for (&ck, &(s, d)) in c.iter().zip(&lv) {
            let cl = if d == 1 { ck / n } else { ck };
            if d == 1 {
                sub += ck % n;
            }
            lin += cl * mul;
            mul *= s;
        }
        let want_v = n * fl.at(lin) + sub;
        ensure(fr.at(i) == want_v, || format!("R(c)={} != N*L(c')+c%N={want_v} at flat coord {c:?}", fr.at(i)))?;
    }
    Ok(())
}

/// `R == A ∘ B` (C++ semantics): a tiler keeps only the tiled modes; points of B outside A's
/// domain see A's extension.
pub fn v_composition(a: &Lay, b: &TElem, r: &Lay) -> Check {
    match b {
        TElem::Skip => ensure(r == a, || "'_' mode changed".to_string()),
        TElem::Tiler(bs) => {
            let (am, rm) = (a.modes(), r.modes());
            ensure(bs.len() <= am.len(), || "tiler longer than the layout's rank: should be rejected".to_string())?;
            ensure(r.rank() == bs.len() && (bs.len() <= 1 || r.is_tuple()), || {
                format!("rank {} != tiler length {} (C++ keeps only tiled modes)", r.rank(), bs.len())
            })?;
            ensure(bs.len() != 1 || r.is_tuple(), || "by-mode result must be a tuple".to_string())?;
            for (i, bi) in bs.iter().enumerate() {
                v_composition(&am[i], bi, &rm[i]).map_err(|why| format!("mode {i}: {why}"))?;
            }
            Ok(())
        }
        TElem::Layout(b) => {
            let nb = b.size();
            guard(nb)?;
            ensure(r.size() == nb, || format!("size {} != size(B) {nb}", r.size()))?;
            ensure(refines(&b.shape, &r.shape), || "result shape does not refine B's shape".to_string())?;
            let (fa, fb, fr) = (a.eval(), b.eval(), r.eval());
            let na = a.size();
            for i in 0..nb {
                let bi = fb.at(i);
                ensure(fr.at(i) == fa.at(bi), || {
                    let place = if bi >= na { "outside" } else { "inside" };
                    format!("R({i})={} != A(B({i}))=A({bi})={} ({place} A's domain)", fr.at(i), fa.at(bi))
                })?;
            }
            Ok(())
        }
    }
}

// ---- products

/// `X == complement(block, m) ∘ tiler` pointwise.
fn product_mode(block: &Lay, tiler: &Lay, x: &Lay, m: i64) -> Check {
    ensure(x.size() == tiler.size(), || format!("size {} != size(B) {}", x.size(), tiler.size()))?;
    ensure(refines(&tiler.shape, &x.shape), || "shape does not refine the tiler's shape".to_string())?;
    let (fb, fx) = (tiler.eval(), x.eval());
    guard(tiler.size())?;
    let c = match complement_ref(block, m) {
        Ok(c) => c,
        Err(why) => return weak_product_mode(block, tiler, x, m, &why),
    };
    for j in 0..tiler.size() {
        let b = fb.at(j);
        let cb = usize::try_from(b).ok().and_then(|k| c.get(k)).copied();
        let Some(cb) = cb else { return Err(format!("tiler value {b} beyond the complement ({})", c.len())) };
        ensure(fx.at(j) == cb, || format!("X({j})={} != C(B({j}))=C({b})={cb}", fx.at(j)))?;
    }
    Ok(())
}

/// §3.9: without an exact complement, `X == W ∘ tiler` pointwise with W the weak
/// complement (its last mode extended), and the copies of the block are pairwise disjoint.
fn weak_product_mode(block: &Lay, tiler: &Lay, x: &Lay, m: i64, why: &str) -> Check {
    let w = weak_complement_lay(block, m)
        .map_err(|e| format!("block has no complement ({why}; {e}): should be rejected"))?;
    let (fb, fx, fw) = (tiler.eval(), x.eval(), w.eval());
    for j in 0..tiler.size() {
        let want = fw.at(fb.at(j));
        ensure(fx.at(j) == want, || format!("X({j})={} != W(B({j}))={want}, W the weak complement", fx.at(j)))?;
    }
    copies_disjoint(block, (0..tiler.size()).map(|j| (fb.at(j), fx.at(j))))
        .map_err(|e| format!("weak complement (no exact one: {why}): {e}: should be rejected"))
}

pub fn v_logical_product(a: &Lay, b: &Lay, r: &Lay) -> Check {
    ensure(r.rank() == 2 && r.is_tuple(), || "result is not rank 2".to_string())?;
    let rm = r.modes();
    ensure(rm[0] == *a, || "mode 0 is not the block A".to_string())?;
    product_mode(a, b, &rm[1], a.size() * b.cosize()).map_err(|why| format!("mode 1: {why}"))
}

pub fn v_blocked_raked(a: &Lay, b: &Lay, r: &Lay, raked: bool) -> Check {
    let rank = a.rank().max(b.rank());
    let (ap, bp) = (pad(a, rank), pad(b, rank));
    ensure(r.rank() == rank && (rank <= 1 || r.is_tuple()), || {
        format!("rank {} != max(rank A, rank B) = {rank}", r.rank())
    })?;
    ensure(r.size() == a.size() * b.size(), || format!("size {} != size(A)*size(B)", r.size()))?;
    let m = a.size() * b.cosize();
    for (i, ((ai, bi), ri)) in ap.modes().iter().zip(bp.modes()).zip(r.modes()).enumerate() {
        ensure(ri.is_tuple() && ri.rank() == 2, || format!("mode {i} is not a pair"))?;
        let pair = ri.modes();
        let (blk, x) = if raked { (&pair[1], &pair[0]) } else { (&pair[0], &pair[1]) };
        ensure(blk == ai || blk.unwrap1() == ai.unwrap1(), || format!("mode {i}: block part {blk} != A_{i} {ai}"))?;
        product_mode(a, &bi, x, m).map_err(|why| format!("mode {i}: {why}"))?;
    }
    Ok(())
}

/// flat_product / flat_divide = zipped result `(Z0, Z1)` sliced with `repeat<rank>(_)`:
/// `n0` tile pieces then `n1` rest pieces; a rank-1 zipped mode is not unpacked.
fn flat_split(rm: &[Lay], n0: usize, n1: usize) -> Option<(Vec<Lay>, Vec<Lay>)> {
    (rm.len() == n0 + n1).then(|| (rm[..n0].to_vec(), rm[n0..].to_vec()))
}

/// A zipped mode of rank 1 built with make_tuple is a 1-tuple: its element.
fn unwrap_one(m: &Lay) -> Option<Lay> {
    match (&m.shape, &m.stride) {
        (Tup::Tuple(s), Tup::Tuple(d)) if s.len() == 1 => Some(Lay::new(s[0].clone(), d[0].clone())),
        _ => None,
    }
}

/// The tile and rest pieces of a flat result for a by-mode tiler of `t` modes over `am`.
fn flat_pieces(r: &Lay, t: usize, am: &[Lay], what: &str) -> Check<(Vec<Lay>, Vec<Lay>)> {
    ensure(t <= am.len(), || "tiler longer than rank: should be rejected".to_string())?;
    let (mut p0, mut p1) = flat_split(&r.modes(), t, am.len())
        .ok_or_else(|| format!("rank {} does not match the unpacked zipped {what}", r.rank()))?;
    let not_wrapped = || "rank-1 zipped mode is not a 1-tuple".to_string();
    if t == 1 {
        p0 = vec![unwrap_one(&p0[0]).ok_or_else(not_wrapped)?];
    }
    if am.len() == 1 {
        p1 = vec![unwrap_one(&p1[0]).ok_or_else(not_wrapped)?];
    }
    Ok((p0, p1))
}

/// zipped (`((tiles…), (rests…, untiled…))`) and tiled (`((tiles…), rest_0, rest_1, …)`)
/// divides and products, checked piece by piece: a divide's tile piece is `A_i ∘ B_i` and its
/// rest piece `A_i ∘ C_i` (C_i the ordered complement), a product's block piece is `A_i` and its
/// grid piece `A_i* ∘ B_i`; untiled modes unchanged.
pub fn v_zipped_or_tiled(a: &Lay, b: &TElem, r: &Lay, tiled: bool, product: bool) -> Check {
    let rm = r.modes();
    let (z0, z1): (Lay, Vec<Lay>) = if tiled {
        ensure(rm.len() >= 2, || "a tiled result has at least two modes".to_string())?;
        (rm[0].clone(), rm[1..].to_vec())
    } else {
        ensure(rm.len() == 2, || format!("a zipped result has two modes, not {}", rm.len()))?;
        (rm[0].clone(), vec![rm[1].clone()])
    };
    let check = |ai: &Lay, bi: &Lay, p: &Lay, q: &Lay| -> Check {
        if product {
            ensure(p == ai || unwrap_one(p).as_ref() == Some(ai), || format!("block piece {p:?} is not {ai:?}"))?;
            product_mode(ai, bi, q, ai.size() * bi.cosize())
        } else {
            divide_mode(ai, bi, p, q)
        }
    };
    let rest = |v: Vec<Lay>| if v.len() == 1 { v[0].clone() } else { Lay::from_modes(&v) };
    let TElem::Tiler(bs) = b else {
        let b = layout_of(b)?;
        // A rank-1 tuple B (`(4):(1)`) gives a tiled rest piece without the wrapping tuple.
        let b = match unwrap_one(b) {
            Some(inner) if tiled && z1.len() == 1 && !z1[0].is_tuple() => inner,
            _ => b.clone(),
        };
        return check(a, &b, &z0, &rest(z1));
    };
    let am = a.modes();
    ensure(bs.len() <= am.len(), || "tiler longer than rank: should be rejected".to_string())?;
    let p0 = if bs.len() == 1 { vec![unwrap_one(&z0).unwrap_or(z0)] } else { z0.modes() };
    let p1 = if tiled {
        z1
    } else if am.len() == 1 {
        vec![unwrap_one(&z1[0]).unwrap_or_else(|| z1[0].clone())]
    } else {
        z1[0].modes()
    };
    ensure(p0.len() == bs.len() && p1.len() == am.len(), || {
        format!(
            "{} tile pieces and {} rest pieces for a tiler of {} on rank {}",
            p0.len(),
            p1.len(),
            bs.len(),
            am.len()
        )
    })?;
    for (i, bi) in bs.iter().enumerate() {
        match bi {
            TElem::Layout(bi) => check(&am[i], bi, &p0[i], &p1[i]).map_err(|why| format!("mode {i}: {why}"))?,
            _ => continue, // `_` or nested tilers: not checked here
        }
    }
    for k in bs.len()..am.len() {
        ensure(p1[k] == am[k], || format!("untiled mode {k} changed"))?;
    }
    Ok(())
}

pub fn v_flat_product(a: &Lay, b: &TElem, r: &Lay) -> Check {
    let rm = r.modes();
    if let TElem::Tiler(bs) = b {
        let am = a.modes();
        let (p0, p1) = flat_pieces(r, bs.len(), &am, "product")?;
        for (i, bi) in bs.iter().enumerate() {
            ensure(p0[i] == am[i], || format!("block mode {i} is not A_{i}"))?;
            let bi = layout_of(bi)?;
            product_mode(&am[i], bi, &p1[i], am[i].size() * bi.cosize())
                .map_err(|why| format!("tiler mode {i}: {why}"))?;
        }
        for k in bs.len()..am.len() {
            ensure(p1[k] == am[k], || format!("untiled mode {k} changed"))?;
        }
        return Ok(());
    }
    let b = layout_of(b)?;
    let lead = if a.rank() == 1 { vec![a.clone()] } else { a.modes() };
    ensure(rm.len() >= lead.len() && rm[..lead.len()] == lead[..], || "leading modes are not A's modes".to_string())?;
    let rest = &rm[lead.len()..];
    ensure(!rest.is_empty(), || "no tiler modes".to_string())?;
    let x = if rest.len() == 1 { rest[0].clone() } else { Lay::from_modes(rest) };
    ensure(x.size() == b.size(), || format!("tiler part size {} != size(B)", x.size()))?;
    let (fb, fx) = (b.eval(), x.eval());
    guard(b.size())?;
    let c = match complement_ref(a, a.size() * b.cosize()) {
        Ok(c) => c,
        Err(why) => return weak_product_mode(a, b, &x, a.size() * b.cosize(), &why),
    };
    for j in 0..b.size() {
        let cb = usize::try_from(fb.at(j)).ok().and_then(|k| c.get(k)).copied();
        let Some(cb) = cb else { return Err(format!("tiler value {} beyond the complement", fb.at(j))) };
        ensure(fx.at(j) == cb, || format!("tiler part ({j})={} != C(B({j}))={cb}", fx.at(j)))?;
    }
    Ok(())
}

// ---- divides

/// `P == A ∘ B` and `Q == A ∘ C` pointwise, C the ordered exact complement of B (as many
/// tiles as Q has points; the tiles must cover A's domain).
fn divide_mode(a: &Lay, b: &Lay, p: &Lay, q: &Lay) -> Check {
    let fa = a.eval();
    let na = a.size();
    ensure(p.size() == b.size(), || format!("tile part size {} != size(B) {}", p.size(), b.size()))?;
    let (fb, fp) = (b.eval(), p.eval());
    guard(b.size())?;
    for j in 0..b.size() {
        ensure(fp.at(j) == fa.at(fb.at(j)), || {
            format!("tile part ({j})={} != A(B({j}))={}", fp.at(j), fa.at(fb.at(j)))
        })?;
    }
    let parts = complement_parts(b)?.ok_or_else(|| "filter(B) not injective: should be rejected".to_string())?;
    let k = q.size();
    let (origins, _) = tile_origins(&parts.image, k)
        .map_err(|why| format!("tiler has no exact complement ({why}): should be rejected"))?;
    let fb = &fb;
    let tiles: HashSet<i64> = origins.iter().flat_map(|&o| (0..b.size()).map(move |j| o + fb.at(j))).collect();
    ensure((0..na).all(|v| tiles.contains(&v)), || {
        format!("(B, C) with {k} tiles does not cover A's domain [0,{na})")
    })?;
    let fq = q.eval();
    for (j, &o) in origins.iter().enumerate() {
        let place = if o >= na { "outside" } else { "inside" };
        ensure(fq.at(j as i64) == fa.at(o), || {
            format!("rest part ({j})={} != A(C({j}))=A({o})={} ({place} A's domain)", fq.at(j as i64), fa.at(o))
        })?;
    }
    Ok(())
}

pub fn v_flat_divide(a: &Lay, b: &TElem, r: &Lay) -> Check {
    let rm = r.modes();
    if let TElem::Tiler(bs) = b {
        let am = a.modes();
        let (p0, p1) = flat_pieces(r, bs.len(), &am, "divide")?;
        for (i, bi) in bs.iter().enumerate() {
            divide_mode(&am[i], layout_of(bi)?, &p0[i], &p1[i]).map_err(|why| format!("mode {i}: {why}"))?;
        }
        for k in bs.len()..am.len() {
            ensure(p1[k] == am[k], || format!("untiled mode {k} changed"))?;
        }
        return Ok(());
    }
    // A plain layout tiler: flat_divide is logical_divide with its top level unpacked; find
    // the split between tile and rest modes.
    let b = layout_of(b)?;
    let mut split = None;
    let mut p = 1i64;
    for k in 0..=rm.len() {
        if p == b.size() && k >= 1 {
            split = Some(k);
            break;
        }
        if k < rm.len() {
            p = p.saturating_mul(rm[k].size());
        }
    }
    let split = split
        .filter(|&k| k < rm.len())
        .ok_or_else(|| "no split of the top-level modes into tile (size(B)) and rest".to_string())?;
    let tile = if split == 1 { rm[0].clone() } else { Lay::from_modes(&rm[..split]) };
    let rest = if rm.len() - split == 1 { rm[split].clone() } else { Lay::from_modes(&rm[split..]) };
    divide_mode(a, b, &tile, &rest)
}

pub fn v_tile_to_shape(a: &Lay, shape: &Tup, r: &Lay) -> Check {
    let targets: Vec<i64> = shape.elements().iter().map(Tup::product).collect();
    let rank = targets.len();
    ensure(a.rank() <= rank, || "block rank > target rank: should be rejected".to_string())?;
    let ap = pad(a, rank);
    let blocks: Vec<i64> = ap.modes().iter().map(Lay::size).collect();
    ensure(targets.iter().zip(&blocks).all(|(t, b)| t % b == 0), || {
        "block does not divide the target: should be rejected".to_string()
    })?;
    let reps: Vec<i64> = targets.iter().zip(&blocks).map(|(t, b)| t / b).collect();
    let tiles = if rank > 1 || shape.is_tuple() {
        let mut acc = 1;
        let strides = reps.iter().map(|&p| {
            let d = acc;
            acc *= p;
            Tup::Int(d)
        });
        Lay::new(Tup::Tuple(reps.iter().map(|&p| Tup::Int(p)).collect()), Tup::Tuple(strides.collect()))
    } else {
        Lay::scalar(reps[0], 1)
    };
    let sizes: Vec<i64> = r.modes().iter().map(Lay::size).collect();
    ensure(sizes == targets, || format!("per-mode sizes {sizes:?} != target {targets:?}"))?;
    v_blocked_raked(&ap, &tiles, r, false).map_err(|why| format!("not blocked_product(block, col-major tiles): {why}"))
}

/// The compact layout of shape `s` ordered by `o` (a profile of `s`; a leaf of `o` may cover
/// a sub-shape): leaves sorted by (order value, position), ties left to right.
pub fn ordered_ref(s: &Tup, o: &Tup) -> Check<Lay> {
    fn walk(s: &Tup, o: &Tup, groups: &mut Vec<(i64, usize, i64)>) -> Check {
        match (s, o) {
            (Tup::Tuple(ss), Tup::Tuple(os)) => ss.iter().zip(os).try_for_each(|(si, oi)| walk(si, oi, groups)),
            (_, Tup::Int(v)) => {
                groups.push((*v, groups.len(), s.product()));
                Ok(())
            }
            _ => Err("order is not a profile of the shape".to_string()),
        }
    }
    let mut groups = Vec::new();
    walk(s, o, &mut groups)?;
    let mut sorted = groups.clone();
    sorted.sort_by_key(|&(order, pos, _)| (order, pos));
    let mut starts = vec![0; groups.len()];
    let mut acc = 1i64;
    for &(_, pos, size) in &sorted {
        starts[pos] = acc;
        acc = acc.saturating_mul(size);
    }
    fn compact(s: &Tup, cur: &mut i64) -> Tup {
        match s {
            Tup::Int(x) => {
                let v = *cur;
                *cur = cur.saturating_mul(*x);
                Tup::Int(v)
            }
            Tup::Tuple(ts) => Tup::Tuple(ts.iter().map(|t| compact(t, cur)).collect()),
        }
    }
    fn build(s: &Tup, o: &Tup, next: &mut usize, starts: &[i64]) -> Tup {
        match (s, o) {
            (Tup::Tuple(ss), Tup::Tuple(os)) => {
                Tup::Tuple(ss.iter().zip(os).map(|(si, oi)| build(si, oi, next, starts)).collect())
            }
            _ => {
                let mut cur = starts[*next];
                *next += 1;
                compact(s, &mut cur)
            }
        }
    }
    Ok(Lay::new(s.clone(), build(s, o, &mut 0, &starts)))
}

pub fn v_make_ordered_layout(s: &Tup, o: &Tup, r: &Lay) -> Check {
    ensure(r.shape == *s, || "shape changed".to_string())?;
    let n = s.product();
    guard(n)?;
    let mut t = r.table()?;
    t.sort_unstable();
    let compact = t.iter().copied().eq(0..n);
    let reference = ordered_ref(s, o)?;
    let order = o.leaves();
    let ties = order.iter().collect::<HashSet<_>>().len() != order.len();
    let strides_match = s
        .leaves()
        .iter()
        .zip(r.stride.leaves())
        .zip(reference.stride.leaves())
        .all(|((&size, d1), d2)| size == 1 || d1 == d2);
    if compact && strides_match {
        return Ok(());
    }
    if !compact {
        return Err(if ties {
            "duplicate order values give overlapping strides (not compact)".to_string()
        } else {
            "not compact".to_string()
        });
    }
    Err(format!("compact but strides do not follow the order (expected {})", reference.stride))
}

#[cfg(test)]
mod tests {
    use super::super::notation::parse_layout;
    use super::*;

    fn lay(s: &str) -> Lay {
        parse_layout(s).unwrap()
    }

    /// The checks added for issue 12 fail on wrong answers (they used to pass anything).
    #[test]
    fn zipped_and_tiled_checks_catch_wrong_answers() {
        let a = lay("(8,16):(20,1)");
        let t = super::super::notation::parse_layout_or_tiler("[4:1,8:2]").unwrap();
        // I4/I5 of docs/algebra.md §4.I.
        assert_eq!(v_zipped_or_tiled(&a, &t, &lay("((4,8),(2,2)):((20,2),(80,1))"), false, false), Ok(()));
        assert_eq!(v_zipped_or_tiled(&a, &t, &lay("((4,8),2,2):((20,2),80,1)"), true, false), Ok(()));
        // Same size and set of offsets, rest modes swapped: wrong.
        assert!(v_zipped_or_tiled(&a, &t, &lay("((4,8),(2,2)):((20,2),(1,80))"), false, false).is_err());
        assert!(v_zipped_or_tiled(&a, &t, &lay("((8,4),(2,2)):((2,20),(80,1))"), false, false).is_err());
        // Products: H5's zipped product.
        let b = super::super::notation::parse_layout_or_tiler("(2,5):(1,2)").unwrap();
        let a = lay("(3,4):(4,1)");
        assert_eq!(v_zipped_or_tiled(&a, &b, &lay("((3,4),(2,5)):((4,1),(12,24))"), false, true), Ok(()));
        assert!(v_zipped_or_tiled(&a, &b, &lay("((3,4),(2,5)):((4,1),(24,12))"), false, true).is_err());
    }

    #[test]
    fn weak_complements_are_judged_by_policy_9() {
        assert_eq!(v_complement(&lay("(4,8):(20,2)"), 192, &lay("(2,3):(1,80)")), Ok(()));
        assert!(v_complement(&lay("(4,8):(20,2)"), 192, &lay("(2,3):(1,40)")).is_err());
        // Falls short of the cotarget (C++'s 3:8).
        assert!(v_complement(&lay("(3,2):(1,4)"), 24, &lay("3:8")).is_err());
        // Overlapping modes have no complement at all.
        assert!(v_complement(&lay("(2,2):(6,7)"), 24, &lay("1:0")).is_err());
    }

    #[test]
    fn complement_reference() {
        let l = parse_layout("(2,2):(1,4)").unwrap();
        assert_eq!(complement_ref(&l, 24).unwrap(), [0, 2, 8, 10, 16, 18]);
        assert!(complement_ref(&parse_layout("(4,8):(1,5)").unwrap(), 32).is_err());
        assert!(complement_ref(&parse_layout("(2,2):(1,1)").unwrap(), 8).is_err());
    }

    #[test]
    fn ordered_reference() {
        let s = Tup::Tuple(vec![Tup::Int(2), Tup::Int(3), Tup::Int(4)]);
        let o = Tup::Tuple(vec![Tup::Int(1), Tup::Int(0), Tup::Int(2)]);
        assert_eq!(ordered_ref(&s, &o).unwrap().to_string(), "(2,3,4):(3,1,6)");
    }
}
