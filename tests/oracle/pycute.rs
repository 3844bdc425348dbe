//! The judge of the pycute records: a port of the reference tools' `oracle_check.py`.
//!
//! A result must be right by brute force (composition `R(i) == A(B(i))`, divides re-index A,
//! inverses invert, complements are ordered and disjoint, ...); a rejection is right where
//! pycute rejected or was wrong, and an over-rejection where pycute's answer is right (or
//! where §3.2 says the composition is representable); accepted results should print
//! exactly as pycute does.

use std::collections::HashSet;

use super::bf::{Check, coalesce_ref, guard, refines};
use super::notation::{Lay, TElem, parse_layout};
use super::{Answer, Arg, Expect, Judgement, Record, Verdict};

const INT_OPS: [&str; 4] = ["size", "cosize", "rank", "depth"];

fn ensure(ok: bool, why: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(why()) }
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect()
}

/// `R == A ∘ B`, by mode when B is a tiler; a tiler shorter than A's rank keeps the other
/// modes (§3.7). Points of B outside A's domain read A as written with its last mode
/// unbounded, or, when `coalesced_extension` is set, `coalesce(A)` extended the same way
/// (pycute's reading).
pub fn compose_ok(a: &Lay, b: &TElem, r: &Lay, coalesced_extension: bool) -> Check {
    match b {
        TElem::Skip => ensure(r.table()? == a.table()? && r.size() == a.size(), || "`_` mode changed".to_string()),
        TElem::Tiler(bs) => {
            let (am, rm) = (a.modes(), r.modes());
            ensure(rm.len() == am.len() && bs.len() <= am.len(), || {
                format!("rank {} != rank of A {}", rm.len(), am.len())
            })?;
            for (i, (ai, ri)) in am.iter().zip(&rm).enumerate() {
                let bi = bs.get(i).unwrap_or(&TElem::Skip);
                compose_ok(ai, bi, ri, coalesced_extension).map_err(|why| format!("mode {i}: {why}"))?;
            }
            Ok(())
        }
        TElem::Layout(b) => {
            let n = b.size();
            ensure(r.size() == n, || format!("size {} != size(B) {n}", r.size()))?;
            ensure(refines(&b.shape, &r.shape), || "result shape does not refine B's shape".to_string())?;
            guard(n)?;
            let (fb, fr) = (b.eval(), r.eval());
            let mut extensions = vec![a.clone()];
            if coalesced_extension {
                extensions.push(coalesce_ref(a));
            }
            if extensions.iter().any(|ext| {
                let fe = ext.eval();
                (0..n).all(|i| fr.at(i) == fe.at(fb.at(i)))
            }) {
                return Ok(());
            }
            let fa = a.eval();
            let i = (0..n).find(|&i| fr.at(i) != fa.at(fb.at(i))).unwrap_or(0);
            Err(format!("R({i})={} but A(B({i}))={}", fr.at(i), fa.at(fb.at(i))))
        }
    }
}

/// `R` re-indexes A with `R(i, 0) == A(B(i))`, by mode when B is a tiler.
fn divide_ok(a: &Lay, b: &TElem, r: &Lay) -> Check {
    match b {
        TElem::Skip => ensure(r.table()? == a.table()?, || "`_` mode changed".to_string()),
        TElem::Tiler(bs) => {
            let (am, rm) = (a.modes(), r.modes());
            ensure(rm.len() == am.len(), || format!("rank {} != rank of A {}", rm.len(), am.len()))?;
            for (i, (ai, ri)) in am.iter().zip(&rm).enumerate() {
                divide_ok(ai, bs.get(i).unwrap_or(&TElem::Skip), ri).map_err(|why| format!("mode {i}: {why}"))?;
            }
            Ok(())
        }
        TElem::Layout(b) => {
            ensure(r.size() == a.size() && sorted(r.table()?) == sorted(a.table()?), || {
                "not a re-indexing of A".to_string()
            })?;
            let (fa, fb, fr) = (a.eval(), b.eval(), r.eval());
            for i in 0..b.size() {
                ensure(fr.at(i) == fa.at(fb.at(i)), || format!("R({i},0) != A(B({i}))"))?;
            }
            Ok(())
        }
    }
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

/// The ordered factorizations of `n` into factors >= 2; `visit` returns true to stop.
fn factorizations(n: i64, prefix: &mut Vec<i64>, visit: &mut impl FnMut(&[i64]) -> bool) -> bool {
    if n == 1 {
        return visit(prefix);
    }
    for d in (2..=n).filter(|d| n % d == 0) {
        prefix.push(d);
        let stop = factorizations(n / d, prefix, visit);
        prefix.pop();
        if stop {
            return true;
        }
    }
    false
}

/// Some layout whose shape refines the integer `f.len()` has exactly the values `f`.
pub fn representable(f: &[i64]) -> bool {
    let n = f.len() as i64;
    if n <= 1 {
        return true;
    }
    factorizations(n, &mut Vec::new(), &mut |fac| {
        let mut acc = 1;
        let modes: Vec<(i64, i64)> = fac
            .iter()
            .map(|&d| {
                let stride = if acc < n { f[acc as usize] } else { 0 };
                acc *= d;
                (d, stride)
            })
            .collect();
        let l = Lay::from_flat(&modes).eval();
        f.iter().enumerate().all(|(i, &v)| l.at(i as i64) == v)
    })
}

/// §3.2 for a rank-1 `B = s:d`: after coalescing A, the walk `0, d, …, (s-1)d` may end
/// inside a mode but never cross a mode boundary misaligned.
pub fn coalesced_walk_ok(a: &Lay, s: i64, d: i64) -> bool {
    if s == 1 || d == 0 {
        return true;
    }
    let shapes = coalesce_ref(a).flat_shape();
    let (mut rest_shape, mut rest_stride) = (s, d);
    for &m in &shapes[..shapes.len() - 1] {
        if rest_shape == 1 {
            return true;
        }
        if rest_stride % m == 0 {
            rest_stride /= m;
            continue;
        }
        if rest_stride < m {
            if m % rest_stride == 0 {
                let k = (m / rest_stride).min(rest_shape);
                if rest_shape % k != 0 {
                    return (rest_shape - 1) * rest_stride < m;
                }
                rest_shape /= k;
                rest_stride = 1;
                continue;
            }
            return (rest_shape - 1) * rest_stride < m;
        }
        return false;
    }
    true
}

/// pycute rejected `A ∘ B` for a rank-1 B, but §3.2 accepts it: the walk ends inside a
/// mode, stays in A's domain, and its values form a layout.
fn policy2_representable(a: &Lay, b: &Lay) -> bool {
    let (Some(s), Some(d)) = (b.shape.leaves().first().copied(), b.stride.leaves().first().copied()) else {
        return false;
    };
    if b.is_tuple() || s > 4096 || !coalesced_walk_ok(a, s, d) {
        return false;
    }
    let (fa, fb) = (a.eval(), b.eval());
    if (0..s).any(|i| fb.at(i) >= a.size()) {
        return false;
    }
    representable(&(0..s).map(|i| fa.at(fb.at(i))).collect::<Vec<_>>())
}

fn depth_of(l: &Lay) -> usize {
    l.shape.depth()
}

/// `None` when R is right by brute force, else the reason.
fn semantic(rec: &Record, r: &Lay) -> Check {
    let op = rec.op.as_str();
    ensure(r.size() <= 1 << 16, || format!("result size {} is implausible", r.size()))?;
    ensure(r.flat_shape().iter().all(|&s| s != 0), || "zero-extent mode".to_string())?;
    ensure(r.extents_positive(), || "negative extent".to_string())?;
    let a0 = rec.layout_arg(0)?;
    match op {
        "filter" => {
            // filter(L) = coalesce(L without its stride-0 and size-1 modes): same function as
            // the remaining modes, flat, coalesced.
            let kept = super::bf::filter_modes(a0);
            let want = if kept.is_empty() { Lay::scalar(1, 0) } else { Lay::from_flat(&kept) };
            ensure(r.table()? == want.table()?, || "not the function of L's non-broadcast modes".to_string())?;
            ensure(depth_of(r) <= 1, || "depth > 1".to_string())?;
            ensure(r.flat().iter().all(|&(_, d)| d != 0) || r.size() == 1, || "a stride-0 mode is left".to_string())
        }
        "coalesce" | "coalesce_profile" => {
            ensure(r.table()? == a0.table()?, || "not the same function".to_string())?;
            ensure(op != "coalesce" || depth_of(r) <= 1, || "depth > 1".to_string())
        }
        "complement" => {
            let n = rec.int_arg(1)?;
            let c = r.table()?;
            ensure(c.windows(2).all(|w| w[0] < w[1]), || "not ordered".to_string())?;
            let img: HashSet<i64> = a0.table()?.into_iter().collect();
            ensure(c.iter().skip(1).all(|v| !img.contains(v)), || "image not disjoint".to_string())?;
            ensure(Lay::from_modes(&[a0.clone(), r.clone()]).cosize() >= n, || "cosize((L,C)) < cotarget".to_string())?;
            // Beyond the reference judge: the size and the values are the exact ordered
            // complement (or, without one, the weak complement of §3.9).
            super::bf::v_complement(a0, n, r)
        }
        "right_inverse" => {
            let want = match (rec.cpp_chain_size, &rec.expect) {
                (Some(w), _) => Some(w),
                (None, Expect::Layout(e)) => Some(parse_layout(e)?.size()),
                _ => None,
            };
            if let Some(want) = want {
                ensure(r.size() >= want, || format!("not the largest right inverse: size {} < {want}", r.size()))?;
            }
            let (fl, fr) = (a0.eval(), r.eval());
            for i in 0..r.size() {
                ensure(fl.at(fr.at(i)) == i, || format!("L(R({i})) != {i}"))?;
            }
            Ok(())
        }
        "left_inverse" => {
            let t = a0.table()?;
            let fr = r.eval();
            for (i, &v) in t.iter().enumerate() {
                let back = fr.at(v);
                let ok = usize::try_from(back).ok().and_then(|b| t.get(b)) == Some(&v);
                ensure(ok, || format!("L(R(L({i}))) != L({i})"))?;
            }
            let injective = sorted(t.clone()).windows(2).all(|w| w[0] != w[1]);
            ensure(!injective || t.iter().enumerate().all(|(i, &v)| fr.at(v) == i as i64), || {
                "R(L(i)) != i for an injective L".to_string()
            })
        }
        "composition" => compose_ok(a0, &rec.tiler_arg(1)?, r, true),
        _ if op.ends_with("_divide") => {
            ensure(r.size() == a0.size(), || format!("size {} != size(A) {}", r.size(), a0.size()))?;
            ensure(sorted(r.table()?) == sorted(a0.table()?), || "offsets differ from A's".to_string())?;
            match op {
                "logical_divide" => divide_ok(a0, &rec.tiler_arg(1)?, r),
                "zipped_divide" | "tiled_divide" => {
                    super::bf::v_zipped_or_tiled(a0, &rec.tiler_arg(1)?, r, op == "tiled_divide", false)
                }
                "flat_divide" => super::bf::v_flat_divide(a0, &rec.tiler_arg(1)?, r),
                _ => Ok(()),
            }
        }
        _ if op.ends_with("_product") => {
            let b = rec.tiler_arg(1)?;
            if let TElem::Layout(b) = &b {
                ensure(r.size() == a0.size() * b.size(), || "size != size(A)*size(B)".to_string())?;
            }
            match (op, &b) {
                ("logical_product", TElem::Layout(b)) => super::bf::v_logical_product(a0, b, r),
                ("logical_product", TElem::Tiler(bs)) => {
                    let (am, rm) = (a0.modes(), r.modes());
                    ensure(rm.len() == am.len(), || format!("rank {} != rank of A {}", rm.len(), am.len()))?;
                    for (i, (ai, ri)) in am.iter().zip(&rm).enumerate() {
                        match bs.get(i) {
                            Some(TElem::Layout(bi)) => super::bf::v_logical_product(ai, bi, ri),
                            Some(_) => Ok(()),
                            None => ensure(ri == ai, || "untiled mode changed".to_string()),
                        }
                        .map_err(|why| format!("mode {i}: {why}"))?;
                    }
                    Ok(())
                }
                ("zipped_product" | "tiled_product", _) => {
                    super::bf::v_zipped_or_tiled(a0, &b, r, op == "tiled_product", true)
                }
                ("flat_product", _) => super::bf::v_flat_product(a0, &b, r),
                ("blocked_product" | "raked_product", TElem::Layout(b)) => {
                    super::bf::v_blocked_raked(a0, b, r, op == "raked_product")
                }
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// Classifies one answer to a pycute record.
pub fn judge(rec: &Record, answer: &Answer) -> Judgement {
    let op = rec.op.as_str();
    let wrong = |why: String| Judgement::new(Verdict::Wrong, why);
    if let Answer::Panic(msg) = answer {
        return wrong(format!("layout-core panicked: {msg}"));
    }
    if INT_OPS.contains(&op) {
        return match (answer, &rec.expect) {
            (Answer::Value(v), Expect::Int(e)) if norm(v) == e.to_string() => Judgement::new(Verdict::Exact, ""),
            _ => wrong(format!("expected {}", rec.expect)),
        };
    }
    if op == "table" {
        return match (answer, &rec.expect) {
            (Answer::Table(t), Expect::Table(e)) if t == e => Judgement::new(Verdict::Exact, ""),
            _ => wrong(format!("expected {}", rec.expect)),
        };
    }
    let tiler = rec.args.iter().any(|a| matches!(a, Arg::Tiler(_)));
    let divide_inadmissible =
        op.ends_with("_divide") && (rec.tiler_complement_bijective == Some(false) || rec.size_preserved == Some(false));
    let expect_error = rec.expect == Expect::Error;
    match answer {
        Answer::Rejected(_) => {
            if !(expect_error || rec.suspect || divide_inadmissible) {
                return Judgement::new(Verdict::OverRejected, format!("pycute: {}", rec.expect));
            }
            let policy2 = op == "composition" && !tiler && expect_error;
            if policy2
                && let (Ok(a), Ok(b)) = (rec.layout_arg(0), rec.layout_arg(1))
                && policy2_representable(a, b)
            {
                return Judgement::new(Verdict::OverRejected, "walk ends inside a mode (§3.2)");
            }
            Judgement::new(Verdict::RejectedOk, "")
        }
        Answer::Value(text) => {
            let r = match parse_layout(text) {
                Ok(r) => r,
                Err(e) => return wrong(format!("unparseable ({e})")),
            };
            if let Err(why) = semantic(rec, &r) {
                return wrong(why);
            }
            if divide_inadmissible {
                return wrong("tiler does not divide (§3.3)".to_string());
            }
            if expect_error || rec.suspect {
                return Judgement::new(Verdict::AcceptedByPolicy, "");
            }
            match &rec.expect {
                Expect::Layout(e) if norm(text) == *e => Judgement::new(Verdict::Exact, ""),
                e => Judgement::new(Verdict::FormDiffers, format!("pycute: {e}")),
            }
        }
        Answer::Table(_) => wrong("a table where a value was expected".to_string()),
        Answer::Panic(_) => unreachable!("handled above"),
    }
}
