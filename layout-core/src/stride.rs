//! Strides beyond integers, as written in the notation: scaled basis elements `a@i` (sums
//! `4@2+2@3`), F2 strides `fk`, integers, and tuples of them. A layout's strides must all live
//! in one semimodule; an integer 0 is the zero of every semimodule and may stand anywhere.

use std::fmt;

use crate::basis::CoordinateLayout;
use crate::error::{LayoutError, Result};
use crate::f2::F2Layout;
use crate::int_tuple::{IntTuple, write_tuple};
use crate::layout::Layout;
use crate::semimodule::write_basis_sum;

/// A stride tuple whose leaves may be coordinate or F2 strides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stride {
    /// An integer stride.
    Int(i64),
    /// `Σ a_i@i`: the coefficient of basis element i at position i (no trailing zeros).
    Basis(Vec<i64>),
    /// `fk`: the bit vector k.
    F2(i64),
    /// A tuple of strides.
    Tuple(Vec<Stride>),
}

/// A layout with coordinate or F2 strides, as built from a shape and a [`Stride`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StridedLayout {
    /// Integer strides only.
    Int(Layout),
    /// Some coordinate strides `a@i` (no F2).
    Coordinate(CoordinateLayout),
    /// Some F2 strides `fk` (no coordinate).
    F2(F2Layout),
}

/// The semimodule a stride leaf lives in, for messages.
fn kind_of(leaf: &Stride) -> Option<&'static str> {
    match leaf {
        Stride::Int(0) => None,
        Stride::Int(_) => Some("an integer stride"),
        Stride::Basis(_) => Some("a coordinate stride"),
        Stride::F2(_) => Some("an F2 stride"),
        Stride::Tuple(_) => None,
    }
}

impl Stride {
    /// `Σ coefs[i]@i` (trailing zeros dropped).
    pub fn basis_sum(mut coefs: Vec<i64>) -> Stride {
        while coefs.last() == Some(&0) {
            coefs.pop();
        }
        Stride::Basis(coefs)
    }

    /// The integer tuple as a stride.
    pub fn from_int_tuple(t: &IntTuple) -> Stride {
        match t {
            IntTuple::Int(v) => Stride::Int(*v),
            IntTuple::Tuple(c) => Stride::Tuple(c.iter().map(Stride::from_int_tuple).collect()),
        }
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<&Stride> {
        match self {
            Stride::Tuple(t) => t.iter().flat_map(Stride::leaves).collect(),
            leaf => vec![leaf],
        }
    }

    /// The same profile as an int tuple, every leaf replaced by `f(leaf)`.
    fn profile(&self, f: &mut impl FnMut(&Stride) -> i64) -> IntTuple {
        match self {
            Stride::Tuple(t) => IntTuple::Tuple(t.iter().map(|c| c.profile(f)).collect()),
            leaf => IntTuple::Int(f(leaf)),
        }
    }

    /// The first two leaves from different semimodules, if any (a layout cannot have both).
    pub fn mixed(&self) -> Option<(&Stride, &Stride)> {
        let leaves = self.leaves();
        let first = leaves.iter().find(|l| kind_of(l).is_some())?;
        let other = leaves.iter().find(|l| kind_of(l).is_some_and(|k| Some(k) != kind_of(first)))?;
        Some((first, other))
    }

    /// The error for mixed semimodules.
    pub fn check_mixed(&self) -> Result<()> {
        match self.mixed() {
            Some((a, b)) => Err(LayoutError::MixedStrides {
                a: a.to_string(),
                a_kind: kind_of(a).unwrap_or("zero"),
                b: b.to_string(),
                b_kind: kind_of(b).unwrap_or("zero"),
            }),
            None => Ok(()),
        }
    }

    /// `shape:stride`: a coordinate layout when a leaf is `a@i`, an F2 layout when a leaf is
    /// `fk`, an integer layout when every leaf is an integer; an error when the strides mix
    /// semimodules. Checks congruence as [`Layout::new`].
    pub fn layout(&self, shape: IntTuple) -> Result<StridedLayout> {
        self.check_mixed()?;
        let profile = self.profile(&mut |_| 0);
        if !shape.congruent(&profile) {
            return Err(LayoutError::NotCongruent { shape: shape.to_string(), stride: self.to_string() });
        }
        let leaves = self.leaves();
        if leaves.iter().all(|l| matches!(l, Stride::Int(_))) {
            let ints = self.profile(&mut |l| if let Stride::Int(v) = l { *v } else { 0 });
            return Layout::new(shape, ints).map(StridedLayout::Int);
        }
        if leaves.iter().any(|l| matches!(l, Stride::F2(_))) {
            let ks = self.profile(&mut |l| if let Stride::F2(k) = l { *k } else { 0 });
            return F2Layout::new(shape, ks).map(StridedLayout::F2);
        }
        let rank = leaves.iter().map(|l| if let Stride::Basis(c) = l { c.len() } else { 0 }).max().unwrap_or(0);
        let components = (0..rank)
            .map(|i| self.profile(&mut |l| if let Stride::Basis(c) = l { c.get(i).copied().unwrap_or(0) } else { 0 }))
            .collect();
        CoordinateLayout::new(shape, components).map(StridedLayout::Coordinate)
    }
}

impl fmt::Display for Stride {
    /// `a@i` (sums `4@2+2@3`, the zero coordinate `0`), `fk`, integers, `(…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stride::Int(v) => write!(f, "{v}"),
            Stride::Basis(c) => write_basis_sum(f, c),
            Stride::F2(k) => write!(f, "f{k}"),
            Stride::Tuple(t) => write_tuple(f, t),
        }
    }
}

impl CoordinateLayout {
    /// The strides as a [`Stride`] tuple congruent to the shape.
    pub fn stride(&self) -> Stride {
        let mut leaves = self.stride_leaves().into_iter();
        with_stride_leaves(self.shape(), &mut || Stride::basis_sum(leaves.next().unwrap_or_default()))
    }
}

impl F2Layout {
    /// The strides `fk` as a [`Stride`] congruent to the shape (`(f1,f5)`);
    /// [`F2Layout::stride_bits`] gives their bit vectors k as integers.
    pub fn stride(&self) -> Stride {
        let ks = self.stride_bits().leaves();
        let mut it = ks.into_iter();
        with_stride_leaves(self.shape(), &mut || Stride::F2(it.next().unwrap_or(0)))
    }
}

fn with_stride_leaves(shape: &IntTuple, leaf: &mut impl FnMut() -> Stride) -> Stride {
    match shape {
        IntTuple::Int(_) => leaf(),
        IntTuple::Tuple(t) => Stride::Tuple(t.iter().map(|c| with_stride_leaves(c, leaf)).collect()),
    }
}
