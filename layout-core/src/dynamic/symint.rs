//! Symbolic integers: a rational constant times a product of symbols with integer powers
//! (`M`, `8*M`, `M/8`, `LD*N`, `3*M/8/N`). Every symbol stands for a positive run-time
//! integer. Products and quotients are exact; whether a value is an integer, or how two
//! values compare, is the business of the solver ([`super::solve`]).

use std::collections::BTreeMap;
use std::fmt;

/// `num/den · Π symᵉ` with `den > 0`, `gcd(num, den) = 1` and no zero exponents.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymInt {
    num: i128,
    den: i128,
    syms: BTreeMap<String, i32>,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a/b` reduced, `b > 0`.
pub(crate) fn reduce(a: i128, b: i128) -> (i128, i128) {
    let g = gcd(a, b).max(1);
    let (a, b) = (a / g, b / g);
    if b < 0 { (-a, -b) } else { (a, b) }
}

impl SymInt {
    /// The integer `v`.
    pub fn int(v: i64) -> SymInt {
        SymInt { num: i128::from(v), den: 1, syms: BTreeMap::new() }
    }

    /// The symbol `name`.
    pub fn sym(name: &str) -> SymInt {
        SymInt { num: 1, den: 1, syms: BTreeMap::from([(name.to_string(), 1)]) }
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

    /// The symbols and their powers.
    pub fn powers(&self) -> &BTreeMap<String, i32> {
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

    /// Whether its coefficient is negative (symbols are positive).
    pub fn is_negative(&self) -> bool {
        self.num < 0
    }

    /// The symbols, in name order.
    pub fn symbols(&self) -> impl Iterator<Item = &str> {
        self.syms.keys().map(String::as_str)
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

    /// `self + o` when both have the same symbols and powers (like terms).
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
        let (num, den) = reduce(
            self.num.checked_mul(o.den)?.checked_add(o.num.checked_mul(self.den)?)?,
            self.den.checked_mul(o.den)?,
        );
        Some(SymInt { num, den, syms: if num == 0 { BTreeMap::new() } else { self.syms.clone() } })
    }

    /// `k · self`.
    pub fn scale(&self, k: i64) -> SymInt {
        self.mul(&SymInt::int(k))
    }

    /// The value with numbers for the symbols, as a reduced fraction; `None` on overflow or
    /// when a symbol has no value.
    pub fn eval(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<(i128, i128)> {
        let (mut n, mut d) = (self.num, self.den);
        for (k, &e) in &self.syms {
            let v = i128::from(value(k)?);
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
    /// `8*M`, `M/8`, `3*M/8/N`, `-LD`, `8/M`; symbols in name order, a power as a repeated
    /// factor. Parses back (`*` and `/` are left-associative).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos: Vec<&str> = self
            .syms
            .iter()
            .filter(|(_, e)| **e > 0)
            .flat_map(|(k, e)| std::iter::repeat_n(k.as_str(), *e as usize))
            .collect();
        let neg: Vec<&str> = self
            .syms
            .iter()
            .filter(|(_, e)| **e < 0)
            .flat_map(|(k, e)| std::iter::repeat_n(k.as_str(), e.unsigned_abs() as usize))
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
            f.write_str(s)?;
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
