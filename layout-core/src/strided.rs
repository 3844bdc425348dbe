//! Layouts whose strides live in any semimodule (paper §1): the shared machinery behind
//! coordinate-stride and F2-stride layouts. A [`Strided`] is a shape and one stride per leaf;
//! evaluation and coalescing only need the semimodule operations, so they are written once
//! here. Structural operations (modes, flattening, slicing) are the integer ones applied to an
//! index proxy whose stride leaves number the leaves. Composition with such a layout on the
//! left is the walk of [`composition`](fn@crate::composition), also written once for every
//! semimodule.

use std::fmt;

use crate::coalesce::merge_modes;
use crate::error::{LayoutError, Result};
use crate::int_tuple::{Int, IntTuple, Tuple};
use crate::layout::Layout;
use crate::semimodule::Semimodule;
use crate::slice::{SliceCoord, slice};
use crate::tiler::ByMode;

/// A shape and one stride per leaf, left to right.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Strided<S> {
    pub(crate) shape: IntTuple,
    pub(crate) leaves: Vec<S>,
}

impl<S: Semimodule> Strided<S> {
    /// A layout from parts known to be valid (as many strides as the shape has leaves).
    pub(crate) fn new(shape: IntTuple, leaves: Vec<S>) -> Strided<S> {
        Strided { shape, leaves }
    }

    pub(crate) fn size(&self) -> i64 {
        self.shape.product().unwrap_or(i64::MAX)
    }

    /// The flattened `(shape, stride)` leaves.
    pub(crate) fn flat(&self) -> Vec<(i64, S)> {
        self.shape.leaves().into_iter().zip(self.leaves.iter().cloned()).collect()
    }

    /// `1:0` when empty, a scalar layout for one mode, a flat tuple otherwise.
    pub(crate) fn from_flat(modes: Vec<(i64, S)>) -> Strided<S> {
        match modes.len() {
            0 => Strided::new(Int(1), vec![S::zero()]),
            1 => {
                let (s, d) = modes.into_iter().next().unwrap_or((1, S::zero()));
                Strided::new(Int(s), vec![d])
            }
            _ => {
                let (shape, leaves): (Vec<i64>, Vec<S>) = modes.into_iter().unzip();
                Strided::new(Tuple(shape.into_iter().map(Int).collect()), leaves)
            }
        }
    }

    /// `(L0, L1, …)`: always a tuple; the size must fit in 64 bits.
    pub(crate) fn concat(parts: Vec<Strided<S>>) -> Result<Strided<S>> {
        let mut shape = Vec::with_capacity(parts.len());
        let mut leaves = Vec::new();
        for p in parts {
            shape.push(p.shape);
            leaves.extend(p.leaves);
        }
        let shape = Tuple(shape);
        shape.product()?;
        Ok(Strided::new(shape, leaves))
    }

    /// The integer layout of this shape whose stride leaves are `1, 2, …, n`: structural
    /// operations on it tell which leaves end up where.
    fn proxy(&self) -> Result<Layout> {
        let mut k = 0i64;
        let stride = self.shape.map_leaves(&mut |_| {
            k += 1;
            k
        });
        Layout::new(self.shape.clone(), stride)
    }

    /// The layout a structural operation turned the proxy into (stride leaf 0 is a zero
    /// stride, e.g. the `1:0` of an empty slice).
    fn like_proxy(&self, p: &Layout) -> Strided<S> {
        let leaves = p
            .stride()
            .leaves()
            .into_iter()
            .map(|k| usize::try_from(k - 1).ok().and_then(|j| self.leaves.get(j).cloned()).unwrap_or_else(S::zero))
            .collect();
        Strided::new(p.shape().clone(), leaves)
    }

    /// Mode i (a scalar layout is its own mode 0).
    pub(crate) fn mode(&self, i: usize) -> Result<Strided<S>> {
        match self.proxy()?.mode(i) {
            Ok(m) => Ok(self.like_proxy(&m)),
            Err(_) => Err(LayoutError::ModeOutOfRange { layout: self.to_string(), mode: i, rank: self.shape.rank() }),
        }
    }

    pub(crate) fn modes(&self) -> Result<Vec<Strided<S>>> {
        Ok(self.proxy()?.modes().iter().map(|m| self.like_proxy(m)).collect())
    }

    pub(crate) fn flatten(&self) -> Strided<S> {
        Strided::new(self.shape.flatten(), self.leaves.clone())
    }

    /// `L(i)` at an integer index; past the size the last mode is unbounded.
    pub(crate) fn eval(&self, i: i64) -> Result<S> {
        if i < 0 {
            return Err(LayoutError::NegativeIndex { index: i });
        }
        let modes = self.flat();
        let mut rest = i;
        let mut acc = S::zero();
        for (k, (s, d)) in modes.iter().enumerate() {
            let digit = if k + 1 == modes.len() { rest } else { rest % s };
            rest /= s;
            acc = acc.add(&d.scale(digit)?)?;
        }
        Ok(acc)
    }

    /// `L(c)` at a coordinate weakly congruent to the shape.
    pub(crate) fn eval_coord(&self, crd: &IntTuple) -> Result<S> {
        if let Some(&index) = crd.leaves().iter().find(|&&v| v < 0) {
            return Err(LayoutError::NegativeIndex { index });
        }
        let mut digits = Vec::with_capacity(self.leaves.len());
        leaf_digits(crd, &self.shape, &mut digits)?;
        digits.iter().zip(&self.leaves).try_fold(S::zero(), |acc, (&c, d)| acc.add(&d.scale(c)?))
    }

    /// `L(0), …, L(|L|-1)`, for layouts of at most [`Layout::TABLE_LIMIT`] elements.
    pub(crate) fn table(&self) -> Result<Vec<S>> {
        let n = self.size();
        if n > Layout::TABLE_LIMIT {
            return Err(LayoutError::TooLarge { size: n, limit: Layout::TABLE_LIMIT });
        }
        (0..n).map(|i| self.eval(i)).collect()
    }

    /// The sub-layout of the free modes of `c` and the value at `c` with `_` = 0 (see
    /// [`slice`](fn@crate::slice)): `L(c' + c*) = L(c') + L|_(c*)` in any semimodule.
    pub(crate) fn slice(&self, c: &SliceCoord) -> Result<(Strided<S>, S)> {
        let offset = self.eval_coord(&c.fixed())?;
        let (sub, _) = slice(&self.proxy()?, c)?;
        Ok((self.like_proxy(&sub), offset))
    }

    /// Coalesce: drops size-1 modes and merges `s0:d0 ++ s1:d1` when `d1 = s0·d0` (in the
    /// semimodule). With `keep_last` a trailing size-1 mode that does not continue the last
    /// merged one is kept, so the extended function is preserved too.
    pub(crate) fn coalesce(&self, keep_last: bool) -> Strided<S> {
        Strided::from_flat(merge_modes(&self.flat(), keep_last))
    }
}

impl<S: Semimodule> ByMode for Strided<S> {
    fn top_modes(&self) -> Result<Vec<Strided<S>>> {
        self.modes()
    }

    fn concat_modes(parts: Vec<Strided<S>>) -> Result<Strided<S>> {
        Strided::concat(parts)
    }
}

impl<S: Semimodule> fmt::Display for Strided<S> {
    /// Canonical notation `shape:stride` with the strides printed by the semimodule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.shape)?;
        let mut leaves = self.leaves.iter();
        write_like(f, &self.shape, &mut leaves)
    }
}

fn write_like<S: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    shape: &IntTuple,
    leaves: &mut std::slice::Iter<'_, S>,
) -> fmt::Result {
    match shape {
        Int(_) => match leaves.next() {
            Some(d) => write!(f, "{d}"),
            None => f.write_str("0"),
        },
        Tuple(t) => {
            f.write_str("(")?;
            for (k, c) in t.iter().enumerate() {
                if k > 0 {
                    f.write_str(",")?;
                }
                write_like(f, c, leaves)?;
            }
            f.write_str(")")
        }
    }
}

/// The digit of every leaf of `shape` at coordinate `crd` (weakly congruent to it): an
/// integer component is split colexicographically over its mode, the last leaf unreduced.
fn leaf_digits(crd: &IntTuple, shape: &IntTuple, out: &mut Vec<i64>) -> Result<()> {
    match (crd, shape) {
        (Tuple(c), Tuple(s)) if c.len() == s.len() => c.iter().zip(s).try_for_each(|(c, s)| leaf_digits(c, s, out)),
        (Int(i), Int(_)) => {
            out.push(*i);
            Ok(())
        }
        (Int(i), Tuple(s)) => {
            let mut rest = *i;
            for (k, child) in s.iter().enumerate() {
                if k + 1 == s.len() {
                    leaf_digits(&Int(rest), child, out)?;
                } else {
                    let n = child.product()?;
                    leaf_digits(&Int(rest % n), child, out)?;
                    rest /= n;
                }
            }
            Ok(())
        }
        _ => Err(LayoutError::CoordinateRank { coord: crd.to_string(), shape: shape.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_layout;

    fn int(l: &Layout) -> Strided<i64> {
        Strided::new(l.shape().clone(), l.stride().leaves())
    }

    fn lay(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    #[test]
    fn structural_operations_follow_the_proxy() {
        let l = int(&lay("((3,2),((2,3),2)):((4,1),((2,15),100))"));
        let (sub, off) = l.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(2), SliceCoord::Free])).unwrap();
        assert_eq!((sub.to_string(), off), ("((2,3),2):((2,15),100)".into(), 8));
        let (none, off) = l.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(2), SliceCoord::Int(5)])).unwrap();
        assert_eq!((none.to_string(), off), ("1:0".into(), 8 + 32));
        assert_eq!(l.mode(1).unwrap().to_string(), "((2,3),2):((2,15),100)");
        assert!(l.mode(2).is_err());
        assert_eq!(l.eval(22), lay("((3,2),((2,3),2)):((4,1),((2,15),100))").eval(22));
    }

    #[test]
    fn coalescing_is_the_integer_coalesce_in_every_semimodule() {
        // One merge for every kind: the strided coalesce of an integer layout is `coalesce`
        // (and, keeping the last mode, `coalesce_extended`) exactly.
        for s0 in 1..=4 {
            for s1 in 1..=4 {
                for d0 in 0..=6 {
                    for d1 in 0..=9 {
                        let l = lay(&format!("({s0},({s1},2)):({d0},({d1},{}))", d0 + d1));
                        let sl = int(&l);
                        assert_eq!(sl.coalesce(false).to_string(), crate::coalesce(&l).to_string(), "{l}");
                        assert_eq!(sl.coalesce(true).to_string(), crate::coalesce_extended(&l).to_string(), "{l}");
                    }
                }
            }
        }
    }
}
