//! Conditions on symbols and what can be proved about them. A condition is a divisibility
//! (`M % 8 == 0`) or a comparison (`LD >= M`, `M > 7`) between symbolic integers. The solver
//! knows the facts the user stated and the conditions required so far (the layout is only
//! built when they hold) and proves or refutes a new condition from per-symbol bounds and
//! divisors and from relational facts; what it cannot decide stays a run-time check.

use std::fmt;

use super::symint::{SymInt, reduce};

/// How the two sides of a condition relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rel {
    /// `a % b == 0`.
    Divides,
    /// `a >= b`.
    Ge,
    /// `a > b`.
    Gt,
}

/// A condition `a REL b`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    /// The left side.
    pub a: SymInt,
    /// The relation.
    pub rel: Rel,
    /// The right side.
    pub b: SymInt,
}

impl Cond {
    /// `a | b`: a divides b.
    pub fn divides(a: SymInt, b: SymInt) -> Cond {
        Cond { a, rel: Rel::Divides, b }
    }
    /// `a >= b`.
    pub fn ge(a: SymInt, b: SymInt) -> Cond {
        Cond { a, rel: Rel::Ge, b }
    }
    /// `a > b`.
    pub fn gt(a: SymInt, b: SymInt) -> Cond {
        Cond { a, rel: Rel::Gt, b }
    }

    /// The truth of the condition with numbers for the symbols (`None`: a symbol has no
    /// value, or overflow).
    pub fn holds(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<bool> {
        let (an, ad) = self.a.eval(value)?;
        let (bn, bd) = self.b.eval(value)?;
        Some(match self.rel {
            Rel::Divides => {
                // a/b = (an·bd)/(ad·bn) is an integer.
                let (n, d) = (an.checked_mul(bd)?, ad.checked_mul(bn)?);
                d != 0 && n % d == 0
            }
            Rel::Ge => an.checked_mul(bd)? >= bn.checked_mul(ad)?,
            Rel::Gt => an.checked_mul(bd)? > bn.checked_mul(ad)?,
        })
    }

    /// The symbols the condition mentions, in name order.
    pub fn symbols(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self.a.symbols().chain(self.b.symbols()).collect();
        s.sort_unstable();
        s.dedup();
        s
    }
}

impl fmt::Display for Cond {
    /// `M % 8 == 0`, `LD >= M`, `M > 7`: the syntax of `where` clauses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rel {
            Rel::Divides => write!(f, "{} % {} == 0", self.a, self.b),
            Rel::Ge => write!(f, "{} >= {}", self.a, self.b),
            Rel::Gt => write!(f, "{} > {}", self.a, self.b),
        }
    }
}

/// Where a condition comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondKind {
    /// Stated by the user (`where …`): assumed at expansion time, checked at run time.
    Fact,
    /// Needed by an operation: the static algebra with numbers substituted fails exactly
    /// when it fails.
    Required,
}

/// A condition, where it comes from and why it is needed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Condition {
    /// The condition.
    pub cond: Cond,
    /// A fact the user stated, or a condition an operation required.
    pub kind: CondKind,
    /// For messages: which operation needs it (`logical_divide: the tile 8:1 divides M`).
    pub why: String,
}

/// A rational `n/d`, `d > 0`.
type Q = (i128, i128);

fn q_mul(a: Q, b: Q) -> Option<Q> {
    Some(reduce(a.0.checked_mul(b.0)?, a.1.checked_mul(b.1)?))
}

fn q_cmp(a: Q, b: Q) -> Option<std::cmp::Ordering> {
    Some(a.0.checked_mul(b.1)?.cmp(&b.0.checked_mul(a.1)?))
}

fn lcm(a: i128, b: i128) -> i128 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x.max(1)).saturating_mul(b)
}

/// What is known: the facts and the conditions required so far.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    /// The facts and the conditions, in order.
    pub conds: Vec<Condition>,
}

/// Bounds and divisor of one symbol.
struct Bounds {
    lo: i128,
    hi: Option<i128>,
    div: i128,
}

impl Solver {
    fn bounds(&self, s: &str) -> Bounds {
        let mut b = Bounds { lo: 1, hi: None, div: 1 };
        for c in &self.conds {
            let c = &c.cond;
            if c.b.is_zero() {
                continue;
            }
            let r = c.a.div(&c.b);
            let (n, d) = r.coef();
            if r.powers().len() != 1 || r.powers().get(s).is_none() || n <= 0 {
                continue;
            }
            let e = r.powers()[s];
            match (c.rel, e) {
                (Rel::Divides, 1) => b.div = lcm(b.div, d),
                // (n/d)·S >= 1: S >= d/n.
                (Rel::Ge, 1) => b.lo = b.lo.max((d + n - 1) / n),
                (Rel::Gt, 1) => b.lo = b.lo.max(d / n + 1),
                // (n/d)/S >= 1: S <= n/d.
                (Rel::Ge, -1) => b.hi = Some(b.hi.map_or(n / d, |h| h.min(n / d))),
                (Rel::Gt, -1) => b.hi = Some(b.hi.map_or((n - 1) / d, |h| h.min((n - 1) / d))),
                _ => {}
            }
        }
        // A multiple of div that is at least lo.
        b.lo = (b.lo.max(b.div) + b.div - 1) / b.div * b.div;
        b
    }

    /// The smallest (`max = false`) or largest value of a positive monomial over the known
    /// bounds, if bounded.
    fn extreme(&self, m: &SymInt, max: bool) -> Option<Q> {
        let (n, d) = m.coef();
        let mut acc = (n, d);
        for (s, &e) in m.powers() {
            let b = self.bounds(s);
            let v = match (e > 0, max) {
                (true, false) => (b.lo, 1),
                (true, true) => (b.hi?, 1),
                (false, false) => (1, b.hi?),
                (false, true) => (1, b.lo),
            };
            for _ in 0..e.unsigned_abs() {
                acc = q_mul(acc, v)?;
            }
        }
        Some(acc)
    }

    /// Whether a monomial is provably an integer (exponents non-negative and the
    /// coefficient cleared by the known divisors).
    fn integral(&self, m: &SymInt) -> bool {
        if m.powers().values().any(|&e| e < 0) {
            return false;
        }
        let (mut n, d) = m.coef();
        for (s, &e) in m.powers() {
            let div = self.bounds(s).div;
            for _ in 0..e {
                n = n.saturating_mul(div);
            }
        }
        n % d == 0
    }

    /// The facts without which `c` (refuted) would no longer be refuted; every fact when no
    /// single one is responsible but some together are; empty when no fact is needed.
    pub fn refuted_by(&self, c: &Cond) -> Vec<Cond> {
        let facts = || self.conds.iter().enumerate().filter(|(_, k)| k.kind == CondKind::Fact);
        let without = |i: usize| Solver {
            conds: self.conds.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, k)| k.clone()).collect(),
        };
        let all_gone = Solver { conds: self.conds.iter().filter(|k| k.kind != CondKind::Fact).cloned().collect() };
        if all_gone.prove(c) == Some(false) {
            return Vec::new();
        }
        let needed: Vec<Cond> =
            facts().filter(|&(i, _)| without(i).prove(c) != Some(false)).map(|(_, k)| k.cond.clone()).collect();
        if needed.is_empty() { facts().map(|(_, k)| k.cond.clone()).collect() } else { needed }
    }

    /// Proves (`Some(true)`), refutes (`Some(false)`) or cannot decide a condition.
    pub fn prove(&self, c: &Cond) -> Option<bool> {
        match c.rel {
            Rel::Divides => {
                if c.a.is_zero() {
                    return Some(true);
                }
                if c.b.is_zero() {
                    return Some(false);
                }
                let r = c.a.div(&c.b);
                let r = if r.is_negative() { r.scale(-1) } else { r };
                if r.is_const() {
                    return Some(r.coef().1 == 1);
                }
                if self.integral(&r) {
                    return Some(true);
                }
                for k in self.conds.iter().filter(|k| k.cond.rel == Rel::Divides && !k.cond.b.is_zero()) {
                    let known = k.cond.a.div(&k.cond.b);
                    if self.integral(&r.div(&known)) {
                        return Some(true);
                    }
                }
                // A positive value below 1 is not an integer.
                let hi = self.extreme(&r, true);
                if hi.and_then(|m| q_cmp(m, (1, 1))) == Some(std::cmp::Ordering::Less) {
                    return Some(false);
                }
                // Pinned by the bounds to one value.
                match (self.extreme(&r, false), hi) {
                    (Some(lo), Some(hi)) if lo == hi => Some(lo.1 == 1),
                    _ => None,
                }
            }
            Rel::Ge | Rel::Gt => {
                let strict = c.rel == Rel::Gt;
                let (an, bn) = (c.a.coef().0, c.b.coef().0);
                if an.signum() != bn.signum() || an == 0 {
                    // Symbols are positive: the sign of a monomial is the sign of its constant.
                    let (sa, sb) = (an.signum(), bn.signum());
                    return Some(if strict { sa > sb } else { sa >= sb });
                }
                // Both of one sign: compare the ratio with 1 (flipped for negatives).
                let (num, den) = if an > 0 { (&c.a, &c.b) } else { (&c.b, &c.a) };
                let num = if an > 0 { num.clone() } else { num.scale(-1) };
                let den = if an > 0 { den.clone() } else { den.scale(-1) };
                let r = num.div(&den);
                use std::cmp::Ordering::*;
                let above = |m: Option<Q>| m.and_then(|m| q_cmp(m, (1, 1)));
                match above(self.extreme(&r, false)) {
                    Some(Greater) => return Some(true),
                    Some(Equal) if !strict => return Some(true),
                    _ => {}
                }
                match above(self.extreme(&r, true)) {
                    Some(Less) => return Some(false),
                    Some(Equal) if strict => return Some(false),
                    _ => {}
                }
                for k in self.conds.iter().filter(|k| k.cond.rel != Rel::Divides) {
                    let (ka, kb) = (&k.cond.a, &k.cond.b);
                    if ka.is_negative() || kb.is_negative() || ka.is_zero() || kb.is_zero() {
                        continue;
                    }
                    let known = ka.div(kb);
                    let known_strict = k.cond.rel == Rel::Gt;
                    // r = (r / known) · known with known >= 1 (> 1 when strict).
                    match above(self.extreme(&r.div(&known), false)) {
                        Some(Greater) => return Some(true),
                        Some(Equal) if !strict || known_strict => return Some(true),
                        _ => {}
                    }
                    // r <= (r · known) / known: refuted when r · known is at most 1.
                    match above(self.extreme(&r.mul(&known), true)) {
                        Some(Less) => return Some(false),
                        Some(Equal) if strict || known_strict => return Some(false),
                        _ => {}
                    }
                }
                None
            }
        }
    }
}
