//! Stride semimodules (paper §1, "Stride / integer semimodule"): the codomains a layout's
//! strides may live in. A semimodule has an associative `+` and an action `k·d` of the
//! integers; the layout's value is the inner product `Σ c_i·d_i` of its natural coordinate
//! with the strides.
//!
//! - `i64`: integer strides (the [`Layout`](crate::Layout) of the rest of the crate).
//! - [`Coord`]: coordinate strides, sums of scaled basis elements `a@i` (CuTe's `a·e_i`);
//!   the value is a coordinate, zero-extended (`(3)` and `(3,0)` are the same point).
//! - [`F2`]: F2 strides `fk`: `+` is XOR and `c·fk` the carry-less product of c and k.
//!   The carry-less action is not associative with integer multiplication
//!   (`3·(3·f1) = f5` but `9·f1 = f9`); it agrees with it for power-of-two factors, which is
//!   why F2 layouts only behave on power-of-two modes.

use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};

/// An element of a stride semimodule.
pub(crate) trait Semimodule: Clone + PartialEq + fmt::Debug + fmt::Display {
    fn zero() -> Self;
    fn is_zero(&self) -> bool;
    /// `self + other`.
    fn add(&self, other: &Self) -> Result<Self>;
    /// The action `k·self` of a non-negative integer k.
    fn scale(&self, k: i64) -> Result<Self>;
    /// Whether `extent:self` followed by `s:next` is the single mode `(extent·s):self`
    /// (coalescing), i.e. `next = extent·self` and `c·self + c'·next = (c + extent·c')·self`.
    fn continues(&self, extent: i64, next: &Self) -> bool {
        self.scale(extent).is_ok_and(|v| &v == next)
    }
    /// The error of a composition that does not distribute over B's modes, at index `index`
    /// where B gives `point`: the mode-wise value `got`, the true `want = A(point)`.
    fn not_distributive(lhs: String, rhs: String, index: i64, point: i64, got: &Self, want: &Self) -> LayoutError {
        LayoutError::NotDistributiveValues {
            lhs,
            rhs,
            index,
            point,
            values: Box::new((got.to_string(), want.to_string())),
        }
    }
}

impl Semimodule for i64 {
    fn zero() -> Self {
        0
    }

    fn is_zero(&self) -> bool {
        *self == 0
    }

    fn add(&self, other: &Self) -> Result<Self> {
        checked::add(*self, *other)
    }

    fn scale(&self, k: i64) -> Result<Self> {
        checked::mul(k, *self)
    }

    fn not_distributive(lhs: String, rhs: String, index: i64, point: i64, got: &Self, want: &Self) -> LayoutError {
        LayoutError::NotDistributive { lhs, rhs, index, point, got: *got, want: *want }
    }
}

/// A coordinate stride `Σ a_i·e_i`: the coefficient of basis element i at position i, with
/// no trailing zeros (so equal strides compare equal and the zero is empty).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Coord(Vec<i64>);

impl Coord {
    /// The stride with coefficients `coefs` (trailing zeros dropped).
    pub(crate) fn new(mut coefs: Vec<i64>) -> Coord {
        while coefs.last() == Some(&0) {
            coefs.pop();
        }
        Coord(coefs)
    }

    /// Coefficient of basis element i.
    pub(crate) fn get(&self, i: usize) -> i64 {
        self.0.get(i).copied().unwrap_or(0)
    }

    /// 1 + the largest basis element with a non-zero coefficient (0 for the zero stride).
    pub(crate) fn rank(&self) -> usize {
        self.0.len()
    }

    /// The basis element this stride is a multiple of, if it is a single scaled basis
    /// element (`None` for zero and for sums).
    pub(crate) fn single(&self) -> Option<(usize, i64)> {
        let mut nonzero = self.0.iter().enumerate().filter(|(_, a)| **a != 0);
        let first = nonzero.next()?;
        nonzero.next().is_none().then_some((first.0, *first.1))
    }

    pub(crate) fn coefs(&self) -> &[i64] {
        &self.0
    }
}

impl Semimodule for Coord {
    fn zero() -> Self {
        Coord(Vec::new())
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn add(&self, other: &Self) -> Result<Self> {
        let n = self.0.len().max(other.0.len());
        (0..n).map(|i| checked::add(self.get(i), other.get(i))).collect::<Result<Vec<_>>>().map(Coord::new)
    }

    fn scale(&self, k: i64) -> Result<Self> {
        self.0.iter().map(|&a| checked::mul(k, a)).collect::<Result<Vec<_>>>().map(Coord::new)
    }
}

impl fmt::Display for Coord {
    /// `a@i`, sums joined by `+` (`4@2+2@3`), the zero stride as `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_basis_sum(f, &self.0)
    }
}

/// `a@i+b@j+…` for the non-zero coefficients, `0` when there is none.
pub(crate) fn write_basis_sum(f: &mut fmt::Formatter<'_>, coefs: &[i64]) -> fmt::Result {
    let mut first = true;
    for (i, &a) in coefs.iter().enumerate().filter(|(_, a)| **a != 0) {
        if !first {
            f.write_str("+")?;
        }
        write!(f, "{a}@{i}")?;
        first = false;
    }
    if first {
        f.write_str("0")?;
    }
    Ok(())
}

/// An F2 stride `fk`: the bit vector k (non-negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct F2(pub(crate) i64);

impl Semimodule for F2 {
    fn zero() -> Self {
        F2(0)
    }

    fn is_zero(&self) -> bool {
        self.0 == 0
    }

    fn add(&self, other: &Self) -> Result<Self> {
        Ok(F2(self.0 ^ other.0))
    }

    fn scale(&self, k: i64) -> Result<Self> {
        clmul(k, self.0).map(F2)
    }

    /// Only across a power-of-two extent: there `c + extent·c' = c XOR (c' << log2 extent)`
    /// for `c < extent`, so the carry-less action agrees with the integer one.
    fn continues(&self, extent: i64, next: &Self) -> bool {
        is_pow2(extent) && self.scale(extent).is_ok_and(|v| &v == next)
    }
}

impl fmt::Display for F2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "f{}", self.0)
    }
}

/// The carry-less product of non-negative `a` and `b`: the XOR of `b << j` over the set bits
/// j of a (paper §1: `2·f9 = f18`, `3·f5 = f15`). A result past 63 bits is an overflow.
pub(crate) fn clmul(a: i64, b: i64) -> Result<i64> {
    let overflow = || LayoutError::Overflow { a, op: '⊗', b };
    if a < 0 || b < 0 {
        return Err(overflow());
    }
    if a == 0 || b == 0 {
        return Ok(0);
    }
    if bit_len(a) + bit_len(b) - 1 > 63 {
        return Err(overflow());
    }
    let mut out = 0i64;
    let mut rest = a;
    while rest != 0 {
        let j = rest.trailing_zeros();
        out ^= b << j;
        rest &= rest - 1;
    }
    Ok(out)
}

/// Number of bits of a non-negative integer (0 for 0).
pub(crate) fn bit_len(x: i64) -> u32 {
    64 - x.leading_zeros()
}

pub(crate) fn is_pow2(x: i64) -> bool {
    x > 0 && x & (x - 1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carry_less_product() {
        assert_eq!(clmul(2, 9), Ok(18));
        assert_eq!(clmul(3, 5), Ok(15));
        assert_eq!(clmul(3, 3), Ok(5));
        assert_eq!(clmul(3, clmul(3, 1).unwrap()), Ok(5));
        assert_eq!(clmul(9, 1), Ok(9));
        assert_eq!(clmul(0, 7), Ok(0));
        assert!(clmul(1 << 40, 1 << 30).is_err());
        assert_eq!(clmul(1 << 31, 1 << 31), Ok(1 << 62));
        assert!(clmul(1 << 32, 1 << 31).is_err());
    }

    #[test]
    fn coordinate_strides_are_normalized() {
        assert_eq!(Coord::new(vec![1, 0, 0]), Coord::new(vec![1]));
        assert_eq!(Coord::new(vec![0, 2]).single(), Some((1, 2)));
        assert_eq!(Coord::new(vec![1, 2]).single(), None);
        assert_eq!(Coord::zero().single(), None);
        assert_eq!(Coord::new(vec![0, 0, 4, 2]).to_string(), "4@2+2@3");
        assert_eq!(Coord::zero().to_string(), "0");
        assert_eq!(Coord::new(vec![1, -1]).add(&Coord::new(vec![0, 1])), Ok(Coord::new(vec![1])));
    }

    #[test]
    fn f2_modes_merge_only_across_powers_of_two() {
        assert!(F2(1).continues(4, &F2(4)));
        assert!(!F2(1).continues(3, &F2(3)));
        assert!(!F2(1).continues(4, &F2(5)));
    }
}
