//! The canonical notation of the oracle files, parsed without layout-core (a port of the
//! reference tools' `notation.py`), and layouts evaluated point by point.
//!
//! ```text
//! IntTuple  := INT | "(" [ IntTuple ("," IntTuple)* ] ")"
//! Layout    := IntTuple ":" IntTuple                 shape ":" stride, congruent
//! Tiler     := "[" Elem ("," Elem)* "]"
//! Elem      := Layout | Tiler | "_"
//! ```
//!
//! Structure is kept exactly: `(8):(3)` (a 1-tuple) and `8:3` are different values.

use std::fmt;

use super::bf::{CHECK_LIMIT, Check, floor_div};

/// An int tuple: an integer or a (possibly empty) tuple of int tuples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tup {
    Int(i64),
    Tuple(Vec<Tup>),
}

impl Tup {
    pub fn is_tuple(&self) -> bool {
        matches!(self, Tup::Tuple(_))
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<i64> {
        fn go(t: &Tup, out: &mut Vec<i64>) {
            match t {
                Tup::Int(v) => out.push(*v),
                Tup::Tuple(ts) => ts.iter().for_each(|e| go(e, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The product of the leaves (saturating: a huge product is refused by the guards anyway).
    pub fn product(&self) -> i64 {
        self.leaves().into_iter().fold(1i64, i64::saturating_mul)
    }

    /// CuTe's depth: 0 for an integer, 1 + the largest child depth for a tuple.
    pub fn depth(&self) -> usize {
        match self {
            Tup::Int(_) => 0,
            Tup::Tuple(ts) => 1 + ts.iter().map(Tup::depth).max().unwrap_or(0),
        }
    }

    /// The top-level elements (an integer is its own single element).
    pub fn elements(&self) -> Vec<Tup> {
        match self {
            Tup::Int(_) => vec![self.clone()],
            Tup::Tuple(ts) => ts.clone(),
        }
    }

    pub fn congruent(&self, other: &Tup) -> bool {
        match (self, other) {
            (Tup::Int(_), Tup::Int(_)) => true,
            (Tup::Tuple(a), Tup::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y)),
            _ => false,
        }
    }

    /// Every 1-tuple replaced by its element.
    pub fn unwrap1(&self) -> Tup {
        match self {
            Tup::Tuple(ts) if ts.len() == 1 => ts[0].unwrap1(),
            Tup::Tuple(ts) => Tup::Tuple(ts.iter().map(Tup::unwrap1).collect()),
            Tup::Int(v) => Tup::Int(*v),
        }
    }
}

impl fmt::Display for Tup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tup::Int(v) => write!(f, "{v}"),
            Tup::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A layout `shape:stride` (congruent), as a plain pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lay {
    pub shape: Tup,
    pub stride: Tup,
}

impl Lay {
    pub fn new(shape: Tup, stride: Tup) -> Lay {
        Lay { shape, stride }
    }

    pub fn scalar(s: i64, d: i64) -> Lay {
        Lay::new(Tup::Int(s), Tup::Int(d))
    }

    /// `(M0, M1, …)` from top-level modes (always a tuple).
    pub fn from_modes(modes: &[Lay]) -> Lay {
        Lay::new(
            Tup::Tuple(modes.iter().map(|m| m.shape.clone()).collect()),
            Tup::Tuple(modes.iter().map(|m| m.stride.clone()).collect()),
        )
    }

    /// A flat layout from `(shape, stride)` pairs: a tuple, or a scalar layout for one pair.
    pub fn from_flat(pairs: &[(i64, i64)]) -> Lay {
        match pairs {
            [(s, d)] => Lay::scalar(*s, *d),
            _ => Lay::from_modes(&pairs.iter().map(|&(s, d)| Lay::scalar(s, d)).collect::<Vec<_>>()),
        }
    }

    /// The flattened `(shape, stride)` leaves.
    pub fn flat(&self) -> Vec<(i64, i64)> {
        self.shape.leaves().into_iter().zip(self.stride.leaves()).collect()
    }

    pub fn flat_shape(&self) -> Vec<i64> {
        self.shape.leaves()
    }

    pub fn size(&self) -> i64 {
        self.shape.product()
    }

    /// Top-level rank (a scalar layout has rank 1).
    pub fn rank(&self) -> usize {
        match &self.shape {
            Tup::Int(_) => 1,
            Tup::Tuple(ts) => ts.len(),
        }
    }

    pub fn is_tuple(&self) -> bool {
        self.shape.is_tuple()
    }

    /// The top-level modes (a scalar layout is its own single mode).
    pub fn modes(&self) -> Vec<Lay> {
        match (&self.shape, &self.stride) {
            (Tup::Tuple(s), Tup::Tuple(d)) => s.iter().zip(d).map(|(s, d)| Lay::new(s.clone(), d.clone())).collect(),
            _ => vec![self.clone()],
        }
    }

    /// The pointwise evaluator.
    pub fn eval(&self) -> Eval {
        let (shape, stride) = self.flat().into_iter().unzip();
        Eval { shape, stride }
    }

    /// `L(i)` (one point; use [`Lay::eval`] for many).
    pub fn at(&self, i: i64) -> i64 {
        self.eval().at(i)
    }

    /// `[L(0), …, L(size-1)]`; refused above [`CHECK_LIMIT`] points.
    pub fn table(&self) -> Check<Vec<i64>> {
        let n = self.size();
        if n > CHECK_LIMIT {
            return Err(format!("brute force over {n} points refused (limit {CHECK_LIMIT})"));
        }
        let f = self.eval();
        Ok((0..n).map(|i| f.at(i)).collect())
    }

    /// `L(size-1) + 1` (pycute's and bf.py's definition; every input stride is >= 0).
    pub fn cosize(&self) -> i64 {
        let n = self.size();
        if n == 0 { 0 } else { self.at(n - 1).wrapping_add(1) }
    }

    /// Every 1-tuple of shape and stride replaced by its element.
    pub fn unwrap1(&self) -> Lay {
        Lay::new(self.shape.unwrap1(), self.stride.unwrap1())
    }

    /// Whether every extent is positive (a zero extent would make the evaluator divide by 0).
    pub fn extents_positive(&self) -> bool {
        self.shape.leaves().iter().all(|&s| s > 0)
    }
}

impl fmt::Display for Lay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

/// `L(i) = Σ c_k·d_k` with `c` the colexicographic coordinate of `i` over the flat shape, the
/// last flat mode not reduced: CuTe's (and pycute's) extension of a layout past its domain.
/// Division follows Python's floor semantics, as the reference checkers do.
pub struct Eval {
    shape: Vec<i64>,
    stride: Vec<i64>,
}

impl Eval {
    pub fn at(&self, mut i: i64) -> i64 {
        let Some((&last, init)) = self.stride.split_last() else { return 0 };
        let mut r = 0i64;
        for (&s, &d) in self.shape.iter().zip(init) {
            let q = if i >= 0 { i / s } else { floor_div(i, s) };
            r = r.wrapping_add((i - q * s).wrapping_mul(d));
            i = q;
        }
        r.wrapping_add(i.wrapping_mul(last))
    }
}

/// An element of a by-mode tiler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TElem {
    /// `_`: leaves the mode alone.
    Skip,
    Layout(Lay),
    Tiler(Vec<TElem>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Int(i64),
    Sym(u8),
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<Tok>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Parser<'a>, String> {
        let bytes = text.as_bytes();
        let mut toks = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let v = text[start..i].parse().map_err(|e| format!("bad integer in {text:?}: {e}"))?;
                toks.push(Tok::Int(v));
            } else if b"():,[]_".contains(&c) {
                toks.push(Tok::Sym(c));
                i += 1;
            } else {
                return Err(format!("bad character at {i} in {text:?}"));
            }
        }
        Ok(Parser { text, toks, pos: 0 })
    }

    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        if self.peek() == Some(Tok::Sym(c)) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at token {} in {:?}", c as char, self.pos, self.text))
        }
    }

    fn int_tuple(&mut self) -> Result<Tup, String> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(Tup::Int(v))
            }
            Some(Tok::Sym(b'(')) => {
                self.pos += 1;
                let mut elems = Vec::new();
                if self.peek() != Some(Tok::Sym(b')')) {
                    elems.push(self.int_tuple()?);
                    while self.peek() == Some(Tok::Sym(b',')) {
                        self.pos += 1;
                        elems.push(self.int_tuple()?);
                    }
                }
                self.eat(b')')?;
                Ok(Tup::Tuple(elems))
            }
            _ => Err(format!("expected an int tuple at token {} in {:?}", self.pos, self.text)),
        }
    }

    fn layout(&mut self) -> Result<Lay, String> {
        let shape = self.int_tuple()?;
        self.eat(b':')?;
        let stride = self.int_tuple()?;
        if !shape.congruent(&stride) {
            return Err(format!("shape and stride not congruent in {:?}", self.text));
        }
        Ok(Lay::new(shape, stride))
    }

    fn tiler_elem(&mut self) -> Result<TElem, String> {
        match self.peek() {
            Some(Tok::Sym(b'_')) => {
                self.pos += 1;
                Ok(TElem::Skip)
            }
            Some(Tok::Sym(b'[')) => self.tiler(),
            _ => Ok(TElem::Layout(self.layout()?)),
        }
    }

    fn tiler(&mut self) -> Result<TElem, String> {
        self.eat(b'[')?;
        let mut elems = vec![self.tiler_elem()?];
        while self.peek() == Some(Tok::Sym(b',')) {
            self.pos += 1;
            elems.push(self.tiler_elem()?);
        }
        self.eat(b']')?;
        Ok(TElem::Tiler(elems))
    }

    fn done<T>(self, value: T) -> Result<T, String> {
        if self.pos == self.toks.len() { Ok(value) } else { Err(format!("trailing tokens in {:?}", self.text)) }
    }
}

/// `((2,4),3)`.
pub fn parse_tuple(text: &str) -> Result<Tup, String> {
    let mut p = Parser::new(text)?;
    let t = p.int_tuple()?;
    p.done(t)
}

/// `((2,4),3):((1,6),2)`.
pub fn parse_layout(text: &str) -> Result<Lay, String> {
    let mut p = Parser::new(text)?;
    let l = p.layout()?;
    p.done(l)
}

/// `[4:1,_,[2:1,2:2]]` (a [`TElem::Tiler`]) or a layout (a [`TElem::Layout`]).
pub fn parse_layout_or_tiler(text: &str) -> Result<TElem, String> {
    let mut p = Parser::new(text)?;
    let e = if text.trim_start().starts_with('[') { p.tiler()? } else { TElem::Layout(p.layout()?) };
    p.done(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for s in ["8:3", "(8):(3)", "((2,4),3):((1,6),2)", "():()", "((2),((3,4))):((1),((2,6)))"] {
            assert_eq!(parse_layout(s).unwrap().to_string(), s);
        }
        assert_eq!(
            parse_layout_or_tiler("[_,(2,2):(1,4),[2:1,_]]").unwrap(),
            TElem::Tiler(vec![
                TElem::Skip,
                TElem::Layout(parse_layout("(2,2):(1,4)").unwrap()),
                TElem::Tiler(vec![TElem::Layout(Lay::scalar(2, 1)), TElem::Skip]),
            ])
        );
        assert!(parse_layout("(2,2):(1)").is_err());
    }

    #[test]
    fn evaluation_extends_the_last_mode() {
        let l = parse_layout("(6,1):(1,1)").unwrap();
        assert_eq!((0..5).map(|i| l.at(4 * i)).collect::<Vec<_>>(), [0, 4, 3, 2, 6]);
        assert_eq!(parse_layout("(4,2):(2,1)").unwrap().table().unwrap(), [0, 2, 4, 6, 1, 3, 5, 7]);
    }
}
