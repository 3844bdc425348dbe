//! Hierarchical integer tuples (paper §2.1): an integer, or a tuple of int tuples.
//!
//! Shapes, strides and coordinates are all `IntTuple`s. `(4)` is a rank-1 tuple and
//! differs from the integer `4` in structure (depth 1 versus 0), not in meaning.

use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};

/// An integer or a tuple of `IntTuple`s (CuTe's `IntTuple`, the paper's HTuple over Z).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntTuple {
    /// An integer.
    Int(i64),
    /// A tuple of int tuples.
    Tuple(Vec<IntTuple>),
}

pub use IntTuple::{Int, Tuple};

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        Int(v)
    }
}

impl<const N: usize> From<[i64; N]> for IntTuple {
    fn from(v: [i64; N]) -> Self {
        Tuple(v.iter().map(|&x| Int(x)).collect())
    }
}

impl IntTuple {
    /// The tuple of the given children.
    pub fn tuple(children: impl IntoIterator<Item = IntTuple>) -> Self {
        Tuple(children.into_iter().collect())
    }

    /// Whether this is an integer (not a tuple).
    pub fn is_int(&self) -> bool {
        matches!(self, Int(_))
    }

    /// The integer, or `None` for a tuple.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Int(v) => Some(*v),
            Tuple(_) => None,
        }
    }

    /// Number of top-level modes; an integer has rank 1.
    pub fn rank(&self) -> usize {
        match self {
            Int(_) => 1,
            Tuple(t) => t.len(),
        }
    }

    /// Nesting depth: 0 for an integer, 1 + the deepest child for a tuple.
    pub fn depth(&self) -> usize {
        match self {
            Int(_) => 0,
            Tuple(t) => 1 + t.iter().map(IntTuple::depth).max().unwrap_or(0),
        }
    }

    /// Mode `i` (an integer is its own mode 0).
    pub fn mode(&self, i: usize) -> Option<&IntTuple> {
        match self {
            Int(_) if i == 0 => Some(self),
            Int(_) => None,
            Tuple(t) => t.get(i),
        }
    }

    /// The top-level modes (an integer is a single mode).
    pub fn modes(&self) -> Vec<IntTuple> {
        match self {
            Int(_) => vec![self.clone()],
            Tuple(t) => t.clone(),
        }
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.push_leaves(&mut out);
        out
    }

    fn push_leaves(&self, out: &mut Vec<i64>) {
        match self {
            Int(v) => out.push(*v),
            Tuple(t) => t.iter().for_each(|c| c.push_leaves(out)),
        }
    }

    /// The leaves as a flat tuple; an integer stays an integer.
    pub fn flatten(&self) -> IntTuple {
        match self {
            Int(_) => self.clone(),
            Tuple(_) => Tuple(self.leaves().into_iter().map(Int).collect()),
        }
    }

    /// Product of all leaves (the size of a shape); overflow is an error.
    pub fn product(&self) -> Result<i64> {
        self.leaves().into_iter().try_fold(1i64, checked::mul)
    }

    /// Congruence `P ~ S`: same profile (both leaves, or tuples of equal rank with
    /// pairwise congruent children).
    pub fn congruent(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Int(_), Int(_)) => true,
            (Tuple(a), Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y)),
            _ => false,
        }
    }

    /// Weak congruence `P ≲ S`: P is a leaf, or both are tuples of equal rank with pairwise
    /// weakly congruent children (P's profile coarsens S's).
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Int(_), _) => true,
            (Tuple(a), Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.weakly_congruent(y)),
            _ => false,
        }
    }

    /// Compatibility `P ⪯ S` of shapes: P is an integer equal to |S|, or both are tuples of
    /// equal rank with pairwise compatible children.
    pub fn compatible(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Int(p), s) => s.product().is_ok_and(|n| n == *p),
            (Tuple(a), Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.compatible(y)),
            _ => false,
        }
    }

    /// Compact column-major strides for this shape: exclusive prefix products
    /// congruent to the shape, e.g. `((2,3),4)` gives `((1,2),6)`.
    pub fn compact_col_major(&self) -> Result<IntTuple> {
        let mut acc = 1;
        self.map_leaves_acc(&mut acc)
    }

    fn map_leaves_acc(&self, acc: &mut i64) -> Result<IntTuple> {
        match self {
            Int(s) => {
                let d = *acc;
                *acc = checked::mul(*acc, *s)?;
                Ok(Int(d))
            }
            Tuple(t) => Ok(Tuple(t.iter().map(|c| c.map_leaves_acc(acc)).collect::<Result<_>>()?)),
        }
    }

    /// The same profile with every leaf replaced by `f(leaf)`.
    pub fn map_leaves(&self, f: &mut impl FnMut(i64) -> i64) -> IntTuple {
        match self {
            Int(v) => Int(f(*v)),
            Tuple(t) => Tuple(t.iter().map(|c| c.map_leaves(f)).collect()),
        }
    }

    /// Rebuilds a tuple congruent to `self` from `leaves` taken in order.
    pub fn with_leaves(&self, leaves: &mut impl Iterator<Item = i64>) -> IntTuple {
        self.map_leaves(&mut |_| leaves.next().unwrap_or(0))
    }
}

/// `idx2crd`: the natural coordinate of integer index `i` in `shape`, colexicographic.
/// The last mode is not reduced (extended domain): an index past the size lands in it.
///
/// ```
/// use layout_core::{crd2idx, idx2crd, parse_int_tuple};
/// let shape = parse_int_tuple("((2,2),(4,2))")?;
/// let c = idx2crd(22, &shape)?;
/// assert_eq!(c.to_string(), "((0,1),(1,1))");
/// assert_eq!(crd2idx(&c, &shape)?, 22);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn idx2crd(i: i64, shape: &IntTuple) -> Result<IntTuple> {
    require_positive_shape(shape)?;
    idx2crd_in(i, shape)
}

/// A shape's extents must be positive (`idx2crd(22, (2,0))` would divide by zero).
fn require_positive_shape(shape: &IntTuple) -> Result<()> {
    match shape.leaves().into_iter().find(|&v| v < 1) {
        Some(value) => Err(LayoutError::NonPositiveShape { shape: shape.to_string(), value }),
        None => Ok(()),
    }
}

fn idx2crd_in(i: i64, shape: &IntTuple) -> Result<IntTuple> {
    match shape {
        Int(_) => Ok(Int(i)),
        Tuple(t) => {
            let mut rest = i;
            let mut out = Vec::with_capacity(t.len());
            for (k, s) in t.iter().enumerate() {
                if k + 1 == t.len() {
                    out.push(idx2crd_in(rest, s)?);
                } else {
                    let n = s.product()?;
                    out.push(idx2crd_in(rest.rem_euclid(n), s)?);
                    rest = rest.div_euclid(n);
                }
            }
            Ok(Tuple(out))
        }
    }
}

/// `crd2idx`: the colexicographic (mixed-radix) index of coordinate `crd` in `shape`.
/// `crd` must be weakly congruent to `shape`; an integer component stands for a whole mode.
///
/// ```
/// use layout_core::{crd2idx, parse_int_tuple};
/// let shape = parse_int_tuple("(4,8)")?;
/// assert_eq!(crd2idx(&parse_int_tuple("(3,7)")?, &shape)?, 31);
/// assert_eq!(crd2idx(&parse_int_tuple("9")?, &shape)?, 9);   // an integer stands for the whole
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn crd2idx(crd: &IntTuple, shape: &IntTuple) -> Result<i64> {
    require_positive_shape(shape)?;
    let stride = shape.compact_col_major()?;
    inner_product(crd, shape, &stride)
}

/// `crd2crd`: re-expresses coordinate `crd` of `src` as a coordinate of the congruent-or-
/// coarser shape `dst` (via the integer index).
pub fn crd2crd(crd: &IntTuple, src: &IntTuple, dst: &IntTuple) -> Result<IntTuple> {
    idx2crd(crd2idx(crd, src)?, dst)
}

/// The layout function `Σ c_i·d_i` at an admissible coordinate (pycute's `crd2idx` with a
/// stride): integer components are split over their mode colexicographically, the last
/// part unreduced.
pub fn inner_product(crd: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    match (crd, shape, stride) {
        (Tuple(c), Tuple(s), Tuple(d)) => {
            if c.len() != s.len() {
                return Err(rank_error(crd, shape));
            }
            c.iter().zip(s).zip(d).try_fold(0i64, |acc, ((c, s), d)| checked::add(acc, inner_product(c, s, d)?))
        }
        (Tuple(_), _, _) => Err(rank_error(crd, shape)),
        (Int(i), Tuple(s), Tuple(d)) => {
            let mut rest = *i;
            let mut acc = 0i64;
            for (k, (s, d)) in s.iter().zip(d).enumerate() {
                if k + 1 == s_len(shape) {
                    acc = checked::add(acc, inner_product(&Int(rest), s, d)?)?;
                } else {
                    let n = s.product()?;
                    if n < 1 {
                        return Err(LayoutError::NonPositiveShape { shape: shape.to_string(), value: n });
                    }
                    acc = checked::add(acc, inner_product(&Int(rest.rem_euclid(n)), s, d)?)?;
                    rest = rest.div_euclid(n);
                }
            }
            Ok(acc)
        }
        (Int(i), Int(_), Int(d)) => checked::mul(*i, *d),
        _ => Err(rank_error(crd, shape)),
    }
}

fn rank_error(crd: &IntTuple, shape: &IntTuple) -> LayoutError {
    LayoutError::CoordinateRank { coord: crd.to_string(), shape: shape.to_string() }
}

fn s_len(shape: &IntTuple) -> usize {
    shape.rank()
}

impl fmt::Display for IntTuple {
    /// Canonical notation: no spaces, `(a,b)`, a rank-1 tuple as `(a)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int(v) => write!(f, "{v}"),
            Tuple(t) => write_tuple(f, t),
        }
    }
}

/// `(a,b,…)` with no spaces; a rank-1 tuple as `(a)`.
pub(crate) fn write_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("(")?;
    for (k, c) in items.iter().enumerate() {
        if k > 0 {
            f.write_str(",")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str(")")
}
