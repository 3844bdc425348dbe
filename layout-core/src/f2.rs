//! F2 strides (paper §1, §2.4.4): a stride `fk` is the bit vector k; the layout's value is
//! the XOR of the carry-less products `c_i · k_i` of its natural coordinate with its strides,
//! so `(4,4):(f1,f5)` is the F2 matrix with columns 1, 2, 5, 10 and `(4,(4,3)):(f1,(f5,f16))`
//! is CuTe's `Sw<2,0,2> o (4,(4,3)):(1,(4,16))` (Fig. 4c).
//!
//! Evaluation is defined for every shape. The operations that rescale strides need the
//! carry-less action to agree with integer multiplication, which it does for power-of-two
//! factors only (`3·(3·f1) = f5` but `9·f1 = f9`): coalescing merges only across power-of-two
//! extents, compositions are checked point by point, and the inverses and the F2 matrix
//! need power-of-two modes (a last mode of another extent is allowed when its stride is a
//! single bit above all the others, as in Fig. 4c). Otherwise they are errors, never guesses.

use std::fmt;

use crate::basis::CoordinateLayout;
use crate::composition::compose;
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::semimodule::{F2, bit_len, clmul, is_pow2};
use crate::slice::SliceCoord;
use crate::strided::Strided;
use crate::tiler::{Tiler, apply_by_mode};

/// A layout with F2 strides: a shape and, per leaf, a bit vector `fk`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct F2Layout {
    inner: Strided<F2>,
}

/// The linear structure of an F2 layout for the inverses: the images of the index bits of
/// its power-of-two modes, their number m, and a last mode `extent:f(2^h)` of another extent.
struct Linear {
    columns: Vec<i64>,
    tail: Option<(i64, u32)>,
}

impl F2Layout {
    /// `shape:stride` with the bit vectors k of the strides `fk` as an int tuple congruent to
    /// the shape. Checks congruence, positive extents, k ≥ 0 and that the size fits.
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<F2Layout> {
        Layout::new(shape.clone(), stride.clone())?;
        if let Some(&k) = stride.leaves().iter().find(|&&k| k < 0) {
            return Err(LayoutError::F2Negative { layout: format!("{shape}:{stride}"), stride: k });
        }
        let leaves = stride.leaves().into_iter().map(F2).collect();
        Ok(F2Layout { inner: Strided::new(shape, leaves) })
    }

    /// `(L0, L1, …)` (always a tuple); the size must fit in 64 bits.
    pub fn concat(parts: impl IntoIterator<Item = F2Layout>) -> Result<F2Layout> {
        Ok(F2Layout { inner: Strided::concat(parts.into_iter().map(|p| p.inner).collect())? })
    }

    /// The shape (the domain).
    pub fn shape(&self) -> &IntTuple {
        &self.inner.shape
    }

    /// The bit vectors k of the strides `fk` as integers, congruent to the shape (`(f1,f5)`
    /// gives `(1,5)`); [`F2Layout::stride`] gives the strides themselves.
    pub fn stride_bits(&self) -> IntTuple {
        let mut k = self.inner.leaves.iter().map(|f| f.0);
        self.inner.shape.map_leaves(&mut |_| k.next().unwrap_or(0))
    }

    /// `size(L)`: the number of indices.
    pub fn size(&self) -> i64 {
        self.inner.size()
    }

    /// The number of top-level modes.
    pub fn rank(&self) -> usize {
        self.inner.shape.rank()
    }

    /// The nesting depth of the shape.
    pub fn depth(&self) -> usize {
        self.inner.shape.depth()
    }

    /// `L(i) = XOR_r c_r·k_r` (carry-less products) at the natural coordinate of i; past
    /// the size the last mode is unbounded.
    pub fn eval(&self, i: i64) -> Result<i64> {
        Ok(self.inner.eval(i)?.0)
    }

    /// `L(c)` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<i64> {
        Ok(self.inner.eval_coord(crd)?.0)
    }

    /// The values at indices `0..|L|`, for at most [`Layout::TABLE_LIMIT`] elements.
    pub fn table(&self) -> Result<Vec<i64>> {
        Ok(self.inner.table()?.into_iter().map(|f| f.0).collect())
    }

    /// The largest value plus one over the domain (by enumeration: at most
    /// [`Layout::TABLE_LIMIT`] elements).
    pub fn cosize(&self) -> Result<i64> {
        crate::checked::add(self.table()?.into_iter().max().unwrap_or(0), 1)
    }

    /// Mode `i` as a layout of its own (an error when `i` is out of range).
    pub fn mode(&self, i: usize) -> Result<F2Layout> {
        Ok(F2Layout { inner: self.inner.mode(i)? })
    }

    /// The same function over the flattened shape (every leaf a top-level mode).
    pub fn flatten(&self) -> F2Layout {
        F2Layout { inner: self.inner.flatten() }
    }

    /// Coalesce (paper §3.2): drops size-1 modes and merges `s0:fa ++ s1:fb` into `(s0·s1):fa`
    /// when s0 is a power of two and `b = s0·a` (only then is the merge the same function).
    pub fn coalesce(&self) -> F2Layout {
        F2Layout { inner: self.inner.coalesce(false) }
    }

    /// Slicing (paper §2.5): the sub-layout of the free modes of `c` and the value at `c` with
    /// `_` = 0; F2 offsets combine by XOR: `L(c' + c*) = L(c') XOR L|_(c*)`.
    pub fn slice(&self, c: &SliceCoord) -> Result<(F2Layout, i64)> {
        let (sub, off) = self.inner.slice(c)?;
        Ok((F2Layout { inner: sub }, off.0))
    }

    /// Composition with an integer layout or tiler on the right, `R(c) = A(B(c))`: the walk
    /// of [`composition`](fn@crate::composition) with A's strides scaled by the carry-less
    /// action, e.g. `(8,8):(f1,f9) ∘ ((4,8),2):((16,1),8) = ((4,8),2):((f18,f1),f9)` (P5).
    /// Admissible when the integer walk is and the result equals `A(B(c))` at every point of
    /// B (checked: the carry-less action only agrees with the walk's integer steps for
    /// power-of-two steps), so B has at most [`Layout::TABLE_LIMIT`] elements.
    pub fn compose(&self, t: &Tiler) -> Result<F2Layout> {
        Ok(F2Layout { inner: apply_by_mode(Operation::Composition, &self.inner, t, &compose_checked)? })
    }

    /// `A ∘ B` for a B that produces coordinates: coordinate reduction (see
    /// [`compose_coordinates`](crate::compose_coordinates)), each mode of A composed as in
    /// [`F2Layout::compose`].
    pub fn compose_coordinates(&self, b: &CoordinateLayout) -> Result<F2Layout> {
        Ok(F2Layout { inner: crate::basis::reduce(&self.inner, &self.to_string(), b, &compose_checked)? })
    }

    /// An operation on the domain: `A ∘ op(I)` with I the compact column-major layout of A's
    /// shape (the divides: `A ⊘ T = A ∘ (I ⊘ T)`), checked point by point like
    /// [`F2Layout::compose`].
    pub fn map_domain(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<F2Layout> {
        let domain = op(&Layout::column_major(self.inner.shape.clone())?)?;
        Ok(F2Layout { inner: compose_checked(&self.inner, &domain)? })
    }

    /// The F2 matrix of the layout (paper §2.4.4, Table 1): row o, column j is bit o of the image
    /// of index bit j; rows cover every bit the image reaches (at least as many as columns).
    /// `(4,4):(f1,f5)` gives rows `1010`, `0101`, `0010`, `0001`. Requires every extent to
    /// be a power of two (index bits are then coordinate bits).
    pub fn matrix(&self) -> Result<Vec<Vec<u8>>> {
        let columns = self.columns(Operation::F2Matrix, &self.inner.flat())?;
        let rows = columns.iter().map(|&c| bit_len(c) as usize).max().unwrap_or(0).max(columns.len());
        Ok((0..rows).map(|o| columns.iter().map(|&c| u8::from((c >> o) & 1 == 1)).collect()).collect())
    }

    /// The images of the index bits of power-of-two modes, in index order.
    fn columns(&self, op: Operation, modes: &[(i64, F2)]) -> Result<Vec<i64>> {
        let mut columns = Vec::new();
        for (mode, (s, k)) in modes.iter().enumerate() {
            if !is_pow2(*s) {
                return Err(LayoutError::F2NotAligned { op, layout: self.to_string(), mode, extent: *s });
            }
            for t in 0..s.trailing_zeros() {
                columns.push(clmul(1i64 << t, k.0)?);
            }
        }
        Ok(columns)
    }

    /// The columns of the power-of-two modes and the tail (a last mode of another extent,
    /// whose stride must be a single bit above every bit the columns reach).
    fn linear(&self, op: Operation) -> Result<Linear> {
        let mut modes: Vec<(i64, F2)> = self.inner.flat().into_iter().filter(|&(s, _)| s != 1).collect();
        let tail = match modes.last() {
            Some(&(s, k)) if !is_pow2(s) => {
                modes.pop();
                Some((s, k.0))
            }
            _ => None,
        };
        let columns = self.columns(op, &modes)?;
        let reach = bit_len(columns.iter().fold(0, |acc, c| acc | c));
        let tail = match tail {
            None => None,
            Some((s, k)) if is_pow2(k) && k.trailing_zeros() >= reach => Some((s, k.trailing_zeros())),
            Some((s, k)) => {
                return Err(LayoutError::F2Tail { op, layout: self.to_string(), extent: s, stride: k, reach });
            }
        };
        Ok(Linear { columns, tail })
    }

    /// Right inverse (paper §3.4): the largest F2 layout R with `L(R(k)) = k` for `k < |R|`.
    /// With the columns of L's index bits, R sends output bit j to a preimage of `2^j`
    /// (Gaussian elimination over F2) for every j below the first bit the columns do not
    /// span; a tail mode `extent:f(2^h)` of L maps back as `extent:f(2^m)` (m index bits
    /// before it) when all h bits below it are reached. `right_inverse((4,(4,3)):(f1,(f5,f16)))
    /// = (4,4,3):(f1,f5,f16)` (E10). Requires power-of-two modes except such a tail.
    pub fn right_inverse(&self) -> Result<F2Layout> {
        let Linear { columns, tail } = self.linear(Operation::RightInverse)?;
        let basis = XorBasis::from(columns.iter().enumerate().map(|(j, &c)| (c, 1i64 << j)));
        let mut modes = Vec::new();
        for j in 0..63 {
            match basis.express(1i64 << j) {
                Some(pre) => modes.push((2, F2(pre))),
                None => break,
            }
        }
        if let Some((s, h)) = tail
            && modes.len() == h as usize
        {
            modes.push((s, F2(1i64 << columns.len())));
        }
        F2Layout::checked(Strided::from_flat(modes).coalesce(false))
    }

    /// Left inverse (paper §3.4): an F2 layout L† with `L†(L(k)) = k` for every k < |L| when L is
    /// injective (`L(L†(L(k))) = L(k)` otherwise), over every output bit L reaches: the
    /// images of independent index bits go back to those bits, the other output bits to 0;
    /// a tail mode maps back as for the right inverse. `left_inverse((4,(4,3)):(f1,(f5,f16)))
    /// = (4,4,3):(f1,f5,f16)` (F10). Requires power-of-two modes except such a tail.
    pub fn left_inverse(&self) -> Result<F2Layout> {
        let Linear { columns, tail } = self.linear(Operation::LeftInverse)?;
        let reach = bit_len(columns.iter().fold(0, |acc, c| acc | c));
        let units = (0..reach).map(|o| (1i64 << o, 0));
        let basis = XorBasis::from(columns.iter().enumerate().map(|(j, &c)| (c, 1i64 << j)).chain(units));
        let mut modes: Vec<(i64, F2)> = (0..reach).map(|o| (2, F2(basis.express(1i64 << o).unwrap_or(0)))).collect();
        if let Some((s, h)) = tail {
            modes.extend((reach..h).map(|_| (2, F2(0))));
            modes.push((s, F2(1i64 << columns.len())));
        }
        F2Layout::checked(Strided::from_flat(modes).coalesce(false))
    }

    /// A computed layout whose size must still fit in 64 bits.
    fn checked(inner: Strided<F2>) -> Result<F2Layout> {
        inner.shape.product()?;
        Ok(F2Layout { inner })
    }
}

/// `A ∘ B` by the generic walk, then checked at every point of B.
fn compose_checked(a: &Strided<F2>, b: &Layout) -> Result<Strided<F2>> {
    let r = compose(a, b)?;
    let n = b.size();
    if n > Layout::TABLE_LIMIT {
        return Err(LayoutError::TooLarge { size: n, limit: Layout::TABLE_LIMIT });
    }
    for i in 0..n {
        let (got, point) = (r.eval(i)?, b.eval(i)?);
        let want = a.eval(point)?;
        if got != want {
            return Err(LayoutError::F2Inexact {
                lhs: a.to_string(),
                rhs: b.to_string(),
                index: i,
                point,
                got: got.0,
                want: want.0,
            });
        }
    }
    Ok(r)
}

/// A basis of a subspace of F2^63, one vector per leading bit, each with the image it is
/// sent to (the XOR of the images of the vectors it was built from).
struct XorBasis {
    rows: [Option<(i64, i64)>; 64],
}

impl XorBasis {
    /// Inserts the vectors in order; a vector dependent on the earlier ones is dropped.
    fn from(vectors: impl Iterator<Item = (i64, i64)>) -> XorBasis {
        let mut b = XorBasis { rows: [None; 64] };
        for (v, img) in vectors {
            let (mut v, mut img) = (v, img);
            while v != 0 {
                let p = 63 - v.leading_zeros() as usize;
                match b.rows[p] {
                    Some((u, ui)) => {
                        v ^= u;
                        img ^= ui;
                    }
                    None => {
                        b.rows[p] = Some((v, img));
                        break;
                    }
                }
            }
        }
        b
    }

    /// The image of `v` if v is in the span.
    fn express(&self, v: i64) -> Option<i64> {
        let (mut v, mut img) = (v, 0i64);
        while v != 0 {
            let p = 63 - v.leading_zeros() as usize;
            let (u, ui) = self.rows[p]?;
            v ^= u;
            img ^= ui;
        }
        Some(img)
    }
}

impl fmt::Display for F2Layout {
    /// `shape:stride` with strides `fk`, e.g. `(4,(4,3)):(f1,(f5,f16))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.inner)
    }
}
