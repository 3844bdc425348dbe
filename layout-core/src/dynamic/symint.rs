//! Symbolic integers: a rational constant times a product of factors with integer powers
//! (`M`, `8*M`, `M/8`, `LD*N`, `3*M/8/N`, `(W-2)/8`, `(W-2)*(H-2)`). A factor is a symbol,
//! which stands for a positive run-time integer, or a sum of terms with integer
//! coefficients (`W-2`, `Q+2`, `LD*N+M-LD`), which the layouts that use it require to be
//! positive (a condition of the layout, checked by its constructor). Products and quotients
//! are exact and keep sums as factors; a sum of two symbolic integers is expanded and
//! factored again ([`SymInt::add`]); whether a value is an integer, or how two values
//! compare, is the business of the solver ([`super::solve`]).

use std::collections::BTreeMap;
use std::fmt;

/// The most terms an expanded sum may have (a product of sums multiplies their terms).
const MAX_TERMS: usize = 256;

/// A rational `n/d`, `d > 0`, reduced.
pub(crate) type Q = (i128, i128);

/// A monomial of symbols with their powers (negative powers allowed), in name order.
pub(crate) type Mono = BTreeMap<String, i32>;

/// A polynomial: monomials (the empty one is the constant) with non-zero rational
/// coefficients.
pub(crate) type Poly = BTreeMap<Mono, Q>;

/// A sum of at least two terms `c·Π symᵉ`: integer coefficients with no common divisor,
/// non-negative powers with no symbol common to every term, the terms in a canonical order
/// (higher degree first, then positive coefficients, then by name). Its sign is as written:
/// `2-W` is the sum `-W+2`, not `-(W-2)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymSum {
    terms: Vec<(i128, Vec<(String, u32)>)>,
}

/// A factor of a symbolic integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Factor {
    /// A symbol: a positive run-time integer.
    Symbol(String),
    /// A sum (`W-2`), positive where a layout uses it.
    Sum(SymSum),
}

/// `num/den · Π factorᵉ` with `den > 0`, `gcd(num, den) = 1` and no zero exponents.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymInt {
    num: i128,
    den: i128,
    syms: BTreeMap<Factor, i32>,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i128::try_from(a).unwrap_or(i128::MAX)
}

/// `a/b` reduced, `b > 0`.
pub(crate) fn reduce(a: i128, b: i128) -> (i128, i128) {
    let g = gcd(a, b).max(1);
    let (a, b) = (a / g, b / g);
    if b < 0 { (a.saturating_neg(), b.saturating_neg()) } else { (a, b) }
}

/// `a·b`, `None` on overflow.
pub(crate) fn q_mul(a: Q, b: Q) -> Option<Q> {
    let (n1, d2) = reduce(a.0, b.1);
    let (n2, d1) = reduce(b.0, a.1);
    Some(reduce(n1.checked_mul(n2)?, d1.checked_mul(d2)?))
}

/// `a+b`, `None` on overflow.
pub(crate) fn q_add(a: Q, b: Q) -> Option<Q> {
    let g = gcd(a.1, b.1).max(1);
    let (da, db) = (a.1 / g, b.1 / g);
    Some(reduce(a.0.checked_mul(db)?.checked_add(b.0.checked_mul(da)?)?, a.1.checked_mul(db)?))
}

/// `p + k·q` over polynomials, `None` on overflow or past [`MAX_TERMS`].
pub(crate) fn poly_add_scaled(p: &Poly, k: Q, q: &Poly) -> Option<Poly> {
    let mut out = p.clone();
    for (m, c) in q {
        let c = q_mul(*c, k)?;
        let sum = match out.get(m) {
            Some(&x) => q_add(x, c)?,
            None => c,
        };
        if sum.0 == 0 {
            out.remove(m);
        } else {
            out.insert(m.clone(), sum);
        }
    }
    (out.len() <= MAX_TERMS).then_some(out)
}

fn poly_mul(p: &Poly, q: &Poly) -> Option<Poly> {
    let mut out = Poly::new();
    for (mq, cq) in q {
        let mut shifted = Poly::new();
        for (mp, cp) in p {
            let mut m = mp.clone();
            for (s, e) in mq {
                let v = m.entry(s.clone()).or_insert(0);
                *v = v.checked_add(*e)?;
                if *v == 0 {
                    m.remove(s);
                }
            }
            shifted.insert(m, *cp);
        }
        out = poly_add_scaled(&out, *cq, &shifted)?;
    }
    Some(out)
}

fn degree(powers: &[(String, u32)]) -> u64 {
    powers.iter().map(|(_, e)| u64::from(*e)).sum()
}

impl SymSum {
    /// The polynomial of the sum.
    fn poly(&self) -> Poly {
        self.terms.iter().map(|(c, p)| (p.iter().map(|(s, e)| (s.clone(), *e as i32)).collect(), (*c, 1))).collect()
    }

    /// The symbols it mentions, in name order.
    pub fn symbols(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self.terms.iter().flat_map(|(_, p)| p.iter().map(|(s, _)| s.as_str())).collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The terms `(coefficient, [(symbol, power)])`, in the canonical order.
    pub fn terms(&self) -> &[(i128, Vec<(String, u32)>)] {
        &self.terms
    }

    /// The value with numbers for the symbols (`None` on overflow or when a symbol has no
    /// value).
    pub fn eval(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<i128> {
        let mut acc: i128 = 0;
        for (c, p) in &self.terms {
            let mut t = *c;
            for (s, e) in p {
                let v = i128::from(value(s)?);
                for _ in 0..*e {
                    t = t.checked_mul(v)?;
                }
            }
            acc = acc.checked_add(t)?;
        }
        Some(acc)
    }
}

impl fmt::Display for SymSum {
    /// `W-2`, `Q+2`, `H*W-2*H-2*W+4`, `-W+2`: parses back (`+` and `-` bind looser than
    /// `*`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (c, p)) in self.terms.iter().enumerate() {
            if *c < 0 {
                f.write_str("-")?;
            } else if k > 0 {
                f.write_str("+")?;
            }
            let names: Vec<&str> = p.iter().flat_map(|(s, e)| std::iter::repeat_n(s.as_str(), *e as usize)).collect();
            let a = c.unsigned_abs();
            match (names.is_empty(), a) {
                (true, _) => write!(f, "{a}")?,
                (false, 1) => f.write_str(&names.join("*"))?,
                (false, _) => write!(f, "{a}*{}", names.join("*"))?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Factor::Symbol(s) => f.write_str(s),
            Factor::Sum(s) => write!(f, "({s})"),
        }
    }
}

impl SymInt {
    /// The integer `v`.
    pub fn int(v: i64) -> SymInt {
        SymInt { num: i128::from(v), den: 1, syms: BTreeMap::new() }
    }

    /// The symbol `name`.
    pub fn sym(name: &str) -> SymInt {
        SymInt { num: 1, den: 1, syms: BTreeMap::from([(Factor::Symbol(name.to_string()), 1)]) }
    }

    /// The rational constant `num/den`.
    pub fn ratio(num: i128, den: i128) -> SymInt {
        let (num, den) = reduce(num, den);
        SymInt { num, den, syms: BTreeMap::new() }
    }

    /// The constant factor `(num, den)`.
    pub fn coef(&self) -> (i128, i128) {
        (self.num, self.den)
    }

    /// The factors (symbols and sums) and their powers.
    pub fn powers(&self) -> &BTreeMap<Factor, i32> {
        &self.syms
    }

    /// The integer, when this is one with no symbols.
    pub fn as_int(&self) -> Option<i64> {
        (self.syms.is_empty() && self.den == 1).then(|| i64::try_from(self.num).ok()).flatten()
    }

    /// Whether no symbol occurs (a rational constant).
    pub fn is_const(&self) -> bool {
        self.syms.is_empty()
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.num == 0
    }

    /// Whether it is the integer 1.
    pub fn is_one(&self) -> bool {
        self.as_int() == Some(1)
    }

    /// Whether its coefficient is negative (symbols, and the sums a layout uses, are
    /// positive).
    pub fn is_negative(&self) -> bool {
        self.num < 0
    }

    /// The sums among its factors, in order.
    pub fn sums(&self) -> impl Iterator<Item = &SymSum> {
        self.syms.keys().filter_map(|f| match f {
            Factor::Sum(s) => Some(s),
            Factor::Symbol(_) => None,
        })
    }

    /// Whether a sum is among its factors.
    pub fn has_sum(&self) -> bool {
        self.sums().next().is_some()
    }

    /// The sum `s` as a symbolic integer.
    pub fn of_sum(s: &SymSum) -> SymInt {
        SymInt { num: 1, den: 1, syms: BTreeMap::from([(Factor::Sum(s.clone()), 1)]) }
    }

    /// The sum, when this is exactly one sum (coefficient 1, power 1): it prints without
    /// parentheses (`W-2`), which a context that binds tighter than `+` must add.
    pub fn as_sum(&self) -> Option<&SymSum> {
        match (self.num, self.den, self.syms.iter().next()) {
            (1, 1, Some((Factor::Sum(s), 1))) if self.syms.len() == 1 => Some(s),
            _ => None,
        }
    }

    /// The symbols, in name order (those inside sums included).
    pub fn symbols(&self) -> impl Iterator<Item = &str> {
        let mut out: Vec<&str> = Vec::new();
        for f in self.syms.keys() {
            match f {
                Factor::Symbol(s) => out.push(s),
                Factor::Sum(s) => out.extend(s.symbols()),
            }
        }
        out.sort_unstable();
        out.dedup();
        out.into_iter()
    }

    /// `self · o`.
    pub fn mul(&self, o: &SymInt) -> SymInt {
        if self.num == 0 || o.num == 0 {
            return SymInt::int(0);
        }
        let (n1, d2) = reduce(self.num, o.den);
        let (n2, d1) = reduce(o.num, self.den);
        let (num, den) = reduce(n1.saturating_mul(n2), d1.saturating_mul(d2));
        let mut syms = self.syms.clone();
        for (k, e) in &o.syms {
            let v = syms.entry(k.clone()).or_insert(0);
            *v += e;
            if *v == 0 {
                syms.remove(k);
            }
        }
        SymInt { num, den, syms }
    }

    /// `self / o` (exact, rational); `o` must not be zero.
    pub fn div(&self, o: &SymInt) -> SymInt {
        self.mul(&o.recip())
    }

    /// `1 / self`; `self` must not be zero.
    pub fn recip(&self) -> SymInt {
        let (num, den) = reduce(self.den, self.num);
        SymInt { num, den, syms: self.syms.iter().map(|(k, e)| (k.clone(), -e)).collect() }
    }

    /// `self + o` when both have the same factors and powers (like terms).
    pub fn add_like(&self, o: &SymInt) -> Option<SymInt> {
        if self.num == 0 {
            return Some(o.clone());
        }
        if o.num == 0 {
            return Some(self.clone());
        }
        if self.syms != o.syms {
            return None;
        }
        let (num, den) = q_add((self.num, self.den), (o.num, o.den))?;
        Some(SymInt { num, den, syms: if num == 0 { BTreeMap::new() } else { self.syms.clone() } })
    }

    /// `self + o`: like terms add; otherwise both are expanded, added and factored again
    /// (the constant and the symbols common to every term come out, the rest is one sum:
    /// `W + -2` is the sum `W-2`, `2*W - 4` is `2*(W-2)`, `(W-2) + 2` is `W`). `None` on
    /// overflow, or when a side divides by a sum (`M/(W-2)` has no expansion).
    pub fn add(&self, o: &SymInt) -> Option<SymInt> {
        if let Some(s) = self.add_like(o) {
            return Some(s);
        }
        let p = poly_add_scaled(&self.expand()?, (1, 1), &o.expand()?)?;
        SymInt::from_poly(&p)
    }

    /// `self - o` (see [`SymInt::add`]).
    pub fn sub(&self, o: &SymInt) -> Option<SymInt> {
        self.add(&o.scale(-1))
    }

    /// `k · self`.
    pub fn scale(&self, k: i64) -> SymInt {
        self.mul(&SymInt::int(k))
    }

    /// The polynomial in the symbols (sums multiplied out); `None` when a sum has a negative
    /// power, on overflow, or past [`MAX_TERMS`] terms.
    pub(crate) fn expand(&self) -> Option<Poly> {
        let mut mono = Mono::new();
        let mut p = Poly::from([(Mono::new(), (self.num, self.den))]);
        if self.num == 0 {
            return Some(Poly::new());
        }
        for (f, &e) in &self.syms {
            match f {
                Factor::Symbol(s) => {
                    mono.insert(s.clone(), e);
                }
                Factor::Sum(s) if e > 0 => {
                    let sp = s.poly();
                    for _ in 0..e {
                        p = poly_mul(&p, &sp)?;
                    }
                }
                Factor::Sum(_) => return None,
            }
        }
        poly_mul(&p, &Poly::from([(mono, (1, 1))]))
    }

    /// The symbolic integer of a polynomial: one term is a monomial; several are factored
    /// into a positive constant, the symbols common to every term and one sum.
    pub(crate) fn from_poly(p: &Poly) -> Option<SymInt> {
        let mut terms = p.iter().filter(|(_, c)| c.0 != 0);
        let Some((m0, c0)) = terms.next() else { return Some(SymInt::int(0)) };
        let mono_of = |m: &Mono, c: Q| SymInt {
            num: c.0,
            den: c.1,
            syms: m.iter().map(|(s, e)| (Factor::Symbol(s.clone()), *e)).collect(),
        };
        if p.values().filter(|c| c.0 != 0).count() == 1 {
            return Some(mono_of(m0, *c0));
        }
        // The symbols common to every term, at their smallest power (absent is power 0).
        let mut common: Mono = m0.clone();
        for (m, _) in p.iter().filter(|(_, c)| c.0 != 0) {
            let names: Vec<String> = common.keys().chain(m.keys()).cloned().collect();
            for s in names {
                let e = (*common.get(&s).unwrap_or(&0)).min(*m.get(&s).unwrap_or(&0));
                if e == 0 {
                    common.remove(&s);
                } else {
                    common.insert(s, e);
                }
            }
        }
        // The content: gcd of the numerators over lcm of the denominators.
        let (mut g, mut l) = (0i128, 1i128);
        for c in p.values().filter(|c| c.0 != 0) {
            g = gcd(g, c.0);
            l = l.checked_div(gcd(l, c.1).max(1))?.checked_mul(c.1)?;
        }
        let content = reduce(g, l);
        let mut terms: Vec<(i128, Vec<(String, u32)>)> = Vec::new();
        for (m, c) in p.iter().filter(|(_, c)| c.0 != 0) {
            let k = q_mul(*c, (content.1, content.0))?;
            if k.1 != 1 {
                return None;
            }
            let powers: Vec<(String, u32)> = m
                .iter()
                .filter_map(|(s, e)| {
                    let e = e - common.get(s).unwrap_or(&0);
                    (e != 0).then(|| (s.clone(), e as u32))
                })
                .collect();
            terms.push((k.0, powers));
        }
        terms
            .sort_by(|(ca, pa), (cb, pb)| degree(pb).cmp(&degree(pa)).then((*ca < 0).cmp(&(*cb < 0))).then(pa.cmp(pb)));
        let mut out = mono_of(&common, content);
        out.syms.insert(Factor::Sum(SymSum { terms }), 1);
        Some(out)
    }

    /// The value with numbers for the symbols, as a reduced fraction; `None` on overflow,
    /// when a symbol has no value, or when a sum with a negative power is 0.
    pub fn eval(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<(i128, i128)> {
        let (mut n, mut d) = (self.num, self.den);
        for (k, &e) in &self.syms {
            let v = match k {
                Factor::Symbol(s) => i128::from(value(s)?),
                Factor::Sum(s) => s.eval(value)?,
            };
            if e < 0 && v == 0 {
                return None;
            }
            for _ in 0..e.unsigned_abs() {
                if e > 0 {
                    n = n.checked_mul(v)?;
                } else {
                    d = d.checked_mul(v)?;
                }
            }
            let (a, b) = reduce(n, d);
            (n, d) = (a, b);
        }
        Some(reduce(n, d))
    }

    /// The integer value with numbers for the symbols (`None` if it is not an integer in
    /// 64 bits).
    pub fn eval_int(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        let (n, d) = self.eval(value)?;
        if d != 1 {
            return None;
        }
        i64::try_from(n).ok()
    }
}

impl fmt::Display for SymInt {
    /// `8*M`, `M/8`, `3*M/8/N`, `-LD`, `8/M`, `W-2`, `(W-2)/8`, `-(W-2)`; factors in order
    /// (symbols by name, then sums), a power as a repeated factor, a sum in parentheses
    /// unless it is the whole value. Parses back (`*` and `/` are left-associative and bind
    /// tighter than `+` and `-`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = self.as_sum() {
            return write!(f, "{s}");
        }
        if self.num == -1
            && self.den == 1
            && let Some((Factor::Sum(s), 1)) = self.syms.iter().next()
            && self.syms.len() == 1
        {
            return write!(f, "-({s})");
        }
        let pos: Vec<String> = self
            .syms
            .iter()
            .filter(|(_, e)| **e > 0)
            .flat_map(|(k, e)| std::iter::repeat_n(k.to_string(), *e as usize))
            .collect();
        let neg: Vec<String> = self
            .syms
            .iter()
            .filter(|(_, e)| **e < 0)
            .flat_map(|(k, e)| std::iter::repeat_n(k.to_string(), e.unsigned_abs() as usize))
            .collect();
        let mut first = true;
        if pos.is_empty() || self.num.abs() != 1 {
            write!(f, "{}", self.num)?;
            first = false;
        } else if self.num < 0 {
            f.write_str("-")?;
        }
        for s in pos {
            if !first {
                f.write_str("*")?;
            }
            f.write_str(&s)?;
            first = false;
        }
        if self.den != 1 {
            write!(f, "/{}", self.den)?;
        }
        for s in neg {
            write!(f, "/{s}")?;
        }
        Ok(())
    }
}
