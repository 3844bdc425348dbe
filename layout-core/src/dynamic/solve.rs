//! Conditions on symbols and what can be proved about them. A condition is a divisibility
//! (`M % 8 == 0`) or a comparison (`LD >= M`, `M > 7`, `W >= Q+2`) between symbolic integers.
//! The solver knows the facts the user stated and the conditions required so far (the layout
//! is only built when they hold) and proves or refutes a new condition from per-factor bounds
//! and divisors and from relational facts (treating a product as a whole), and a comparison
//! also as a linear inequality between monomials: `W >= Q+2` proves `W > Q` and `W >= 3`,
//! `LD >= N` and `N >= M` prove `LD >= M`. What it cannot decide stays a run-time check.

use std::collections::BTreeMap;
use std::fmt;

use super::symint::{Factor, Mono, Poly, Q, SymInt, SymSum, poly_add_scaled, q_add, q_mul, reduce};

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

/// A symbolic integer as an operand of `%`: a sum in parentheses (`(W-2) % 8`).
pub(crate) fn operand(x: &SymInt) -> String {
    if x.as_sum().is_some() { format!("({x})") } else { x.to_string() }
}

impl fmt::Display for Cond {
    /// `M % 8 == 0`, `LD >= M`, `M > 7`, `(W-2) % 8 == 0`: the syntax of `where` clauses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rel {
            Rel::Divides => write!(f, "{} % {} == 0", operand(&self.a), operand(&self.b)),
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

/// Bounds and divisor of one factor.
struct Bounds {
    lo: i128,
    hi: Option<i128>,
    div: i128,
}

/// `p >= 0`, or `p > 0` when strict: a comparison as a polynomial in the symbols.
struct Ineq {
    p: Poly,
    strict: bool,
}

/// The range of each symbol a linear argument needs, read once.
type Ranges = BTreeMap<String, (i128, Option<i128>)>;

/// How many facts one linear argument may combine.
const LINEAR_DEPTH: usize = 2;

/// Whether the polynomial takes integer values (integer coefficients, no negative powers).
fn integral_poly(p: &Poly) -> bool {
    p.iter().all(|(m, c)| c.1 == 1 && m.values().all(|&e| e >= 0))
}

/// `p + k` for a constant k.
fn plus_const(p: &Poly, k: i128) -> Option<Poly> {
    poly_add_scaled(p, (k, 1), &Poly::from([(Mono::new(), (1, 1))]))
}

/// The smallest and largest value of a monomial of positive symbols (`None`: unbounded
/// above); the smallest is 0 where a negative power has no upper bound on its symbol.
fn mono_range(m: &Mono, r: &Ranges) -> Option<(Q, Option<Q>)> {
    let (mut lo, mut hi) = ((1, 1), Some((1, 1)));
    for (s, &e) in m {
        let &(slo, shi) = r.get(s)?;
        let (l, h) =
            if e > 0 { ((slo, 1), shi.map(|h| (h, 1))) } else { (shi.map_or((0, 1), |h| (1, h)), Some((1, slo))) };
        for _ in 0..e.unsigned_abs() {
            lo = q_mul(lo, l)?;
            hi = match (hi, h) {
                (Some(a), Some(b)) => Some(q_mul(a, b)?),
                _ => None,
            };
        }
    }
    Some((lo, hi))
}

/// A lower (`upper = false`) or upper bound of a polynomial over the ranges.
fn poly_bound(p: &Poly, r: &Ranges, upper: bool) -> Option<Q> {
    let mut acc = (0, 1);
    for (m, &c) in p {
        let (lo, hi) = mono_range(m, r)?;
        let v = if (c.0 > 0) != upper { lo } else { hi? };
        acc = q_add(acc, q_mul(c, v)?)?;
    }
    Some(acc)
}

impl Solver {
    /// Bounds and divisor of a factor from the conditions about it alone (`M >= 8`,
    /// `M <= 4096`, `M % 8 == 0`, `(W-2) % 8 == 0`), for a sum also from its symbols' bounds.
    /// The bounds of a sum assume it positive (the caller checks [`Solver::positive`]).
    fn bounds(&self, f: &Factor) -> Bounds {
        let mut b = Bounds { lo: 1, hi: None, div: 1 };
        if let Factor::Sum(sum) = f {
            let r = self.ranges(&sum.symbols());
            let p = SymInt::of_sum(sum).expand();
            let floor = |q: Q| q.0.div_euclid(q.1);
            if let Some(lo) = p.as_ref().and_then(|p| poly_bound(p, &r, false)) {
                b.lo = b.lo.max(floor(lo) + i128::from(lo.0.rem_euclid(lo.1) != 0));
            }
            b.hi = p.as_ref().and_then(|p| poly_bound(p, &r, true)).map(floor);
        }
        for c in &self.conds {
            let c = &c.cond;
            if c.b.is_zero() {
                continue;
            }
            // The ratio a/b >= 1 says a >= b only for a positive b; a sum other than this
            // factor, whose sign is unknown here, is left to the linear argument.
            let other_sum = |x: &SymInt| x.sums().any(|s| !matches!(f, Factor::Sum(t) if t == s));
            if other_sum(&c.a) || other_sum(&c.b) {
                continue;
            }
            if c.rel != Rel::Divides && (c.b.is_negative() || c.b.has_sum() && !self.known_positive_sum(&c.b)) {
                continue;
            }
            let r = c.a.div(&c.b);
            let (n, d) = r.coef();
            if r.powers().len() != 1 || r.powers().get(f).is_none() || n <= 0 {
                continue;
            }
            let e = r.powers()[f];
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

    /// The range of each symbol from the conditions about it alone.
    fn ranges(&self, symbols: &[&str]) -> Ranges {
        symbols
            .iter()
            .map(|s| {
                let b = self.bounds(&Factor::Symbol((*s).to_string()));
                ((*s).to_string(), (b.lo, b.hi))
            })
            .collect()
    }

    /// Whether the sum is known to be positive: a condition of the layout says so (the
    /// positivity a layout requires of its sums, or a fact), or the bounds of its symbols
    /// show it. Only then may the reasoning over products treat it as a positive factor.
    fn positive(&self, s: &SymSum) -> bool {
        let x = SymInt::of_sum(s);
        let said = self.conds.iter().any(|c| {
            (c.cond.rel == Rel::Gt && c.cond.a == x && c.cond.b.is_zero())
                || (c.cond.rel == Rel::Ge && c.cond.a == x && c.cond.b.is_one())
        });
        said || {
            let r = self.ranges(&s.symbols());
            x.expand()
                .and_then(|p| poly_bound(&p, &r, false))
                .is_some_and(|lo| q_cmp(lo, (0, 1)) == Some(std::cmp::Ordering::Greater))
        }
    }

    /// Whether every sum among the factors of `x` is known to be positive.
    fn known_positive_sum(&self, x: &SymInt) -> bool {
        x.sums().all(|s| self.positive(s))
    }

    /// The smallest (`max = false`) or largest value of a positive monomial over the known
    /// bounds, if bounded.
    fn extreme(&self, m: &SymInt, max: bool) -> Option<Q> {
        let (n, d) = m.coef();
        let mut acc = (n, d);
        for (f, &e) in m.powers() {
            let b = self.bounds(f);
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
    /// coefficient cleared by the known divisors; a sum has integer values).
    fn integral(&self, m: &SymInt) -> bool {
        if m.powers().values().any(|&e| e < 0) {
            return false;
        }
        let (mut n, d) = m.coef();
        for (f, &e) in m.powers() {
            let div = self.bounds(f).div;
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
        let sums_known = self.known_positive_sum(&c.a) && self.known_positive_sum(&c.b);
        match c.rel {
            Rel::Divides => self.prove_divides(c, sums_known),
            Rel::Ge | Rel::Gt if !c.a.has_sum() && !c.b.has_sum() => {
                self.prove_ratio(c).or_else(|| self.prove_linear(c))
            }
            // A sum's positivity is proved from its terms, never assumed.
            Rel::Ge | Rel::Gt => self.prove_linear(c).or_else(|| if sums_known { self.prove_ratio(c) } else { None }),
        }
    }

    /// `a % b == 0` as the integrality of `a/b`.
    fn prove_divides(&self, c: &Cond, sums_known: bool) -> Option<bool> {
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
        if !sums_known {
            return None;
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

    /// A comparison of two monomials (their sums known positive) through their ratio: its
    /// bounds, and its ratio to a relational condition's.
    fn prove_ratio(&self, c: &Cond) -> Option<bool> {
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
            if !self.known_positive_sum(ka) || !self.known_positive_sum(kb) {
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

    /// `a - b >= 0` (`> 0`) as a linear inequality between the monomials of the symbols:
    /// from the bounds of each monomial, plus up to [`LINEAR_DEPTH`] relational conditions
    /// with positive multipliers (each cancels a monomial). Sums are expanded, so nothing is
    /// assumed of their sign.
    fn prove_linear(&self, c: &Cond) -> Option<bool> {
        let strict = c.rel == Rel::Gt;
        let g = poly_add_scaled(&c.a.expand()?, (-1, 1), &c.b.expand()?)?;
        let facts: Vec<Ineq> = self
            .conds
            .iter()
            .filter(|k| k.cond.rel != Rel::Divides)
            .filter_map(|k| {
                let p = poly_add_scaled(&k.cond.a.expand()?, (-1, 1), &k.cond.b.expand()?)?;
                normalized(p, k.cond.rel == Rel::Gt, -1)
            })
            .collect();
        let mut symbols: Vec<&str> = c.symbols();
        for k in &self.conds {
            symbols.extend(k.cond.symbols());
        }
        symbols.sort_unstable();
        symbols.dedup();
        let r = self.ranges(&symbols);
        if nonneg(&g, strict, &facts, &r, LINEAR_DEPTH) {
            return Some(true);
        }
        if nonpos(&g, !strict, &facts, &r, LINEAR_DEPTH) {
            return Some(false);
        }
        None
    }
}

/// `p >= 0` (`> 0`); an integer-valued strict one as `p - 1 >= 0` (`k = -1`; `k = 1`
/// turns `p < 0` into `p + 1 <= 0`).
fn normalized(p: Poly, strict: bool, k: i128) -> Option<Ineq> {
    if strict && integral_poly(&p) {
        Some(Ineq { p: plus_const(&p, k)?, strict: false })
    } else {
        Some(Ineq { p, strict })
    }
}

/// Whether `p >= 0` (`> 0` when strict) follows from the ranges and up to `depth` of the
/// inequalities: `p = h + λ·f` with `λ > 0` and `f >= 0`, so `h >= 0` suffices.
fn nonneg(p: &Poly, strict: bool, facts: &[Ineq], r: &Ranges, depth: usize) -> bool {
    let Some(Ineq { p, strict }) = normalized(p.clone(), strict, -1) else { return false };
    let zero = (0, 1);
    if let Some(lo) = poly_bound(&p, r, false) {
        match q_cmp(lo, zero) {
            Some(std::cmp::Ordering::Greater) => return true,
            Some(std::cmp::Ordering::Equal) if !strict => return true,
            _ => {}
        }
    }
    if depth == 0 {
        return false;
    }
    for f in facts {
        for (m, &c) in p.iter().filter(|(m, _)| !m.is_empty()) {
            let Some(&fc) = f.p.get(m) else { continue };
            if (fc.0 > 0) != (c.0 > 0) {
                continue;
            }
            let Some(lambda) = q_mul(c, (fc.1, fc.0)).map(|l| reduce(l.0, l.1)) else { continue };
            let Some(h) = poly_add_scaled(&p, (-lambda.0, lambda.1), &f.p) else { continue };
            if nonneg(&h, strict && !f.strict, facts, r, depth - 1) {
                return true;
            }
        }
    }
    false
}

/// Whether `p <= 0` (`< 0` when strict) follows: `p = h - λ·f` with `λ > 0` and `f >= 0`,
/// so `h <= 0` suffices.
fn nonpos(p: &Poly, strict: bool, facts: &[Ineq], r: &Ranges, depth: usize) -> bool {
    let Some(Ineq { p, strict }) = normalized(p.clone(), strict, 1) else { return false };
    let zero = (0, 1);
    if let Some(hi) = poly_bound(&p, r, true) {
        match q_cmp(hi, zero) {
            Some(std::cmp::Ordering::Less) => return true,
            Some(std::cmp::Ordering::Equal) if !strict => return true,
            _ => {}
        }
    }
    if depth == 0 {
        return false;
    }
    for f in facts {
        for (m, &c) in p.iter().filter(|(m, _)| !m.is_empty()) {
            let Some(&fc) = f.p.get(m) else { continue };
            if (fc.0 > 0) == (c.0 > 0) {
                continue;
            }
            let Some(lambda) = q_mul(c, (fc.1, fc.0)).map(|l| reduce(-l.0, l.1)) else { continue };
            let Some(h) = poly_add_scaled(&p, lambda, &f.p) else { continue };
            if nonpos(&h, strict && !f.strict, facts, r, depth - 1) {
                return true;
            }
        }
    }
    false
}
