//! Coordinate (basis) strides (paper §1 "E-basis strides", §3.3 coordinate reduction): a
//! stride `a@i` is CuTe's scaled basis element `a·e_i`, and a layout with such strides
//! produces coordinates: `(4,8):(1@0,1@1)` is the identity (coordinate) tensor of a 4×8 tile,
//! `(4,(4,2)):(1@1,(1@0,6@1))` maps `(r,(c0,c1))` to `(c0, r+6·c1)`. Sums `4@2+2@3` are
//! strides too; evaluation, slicing and composition on the left accept them, the operations
//! the paper defines through single basis elements (composition on the right, complement,
//! inverses) reject them.
//!
//! Coordinates are zero-extended, as in CuTe: `(3)` and `(3,0)` are the same point, and a
//! layout's codomain rank is 1 + the largest basis element it uses.

use std::fmt;

use crate::complement::complement_modes;
use crate::composition::{ComposeOp, compose, composition};
use crate::error::{LayoutError, Result};
use crate::int_tuple::{Int, IntTuple, Tuple};
use crate::inverse;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::semimodule::{Coord, Semimodule};
use crate::slice::SliceCoord;
use crate::strided::Strided;
use crate::tiler::{Tiler, apply_by_mode};

/// A layout with coordinate strides: a shape and, per leaf, a sum of scaled basis elements.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CoordinateLayout {
    inner: Strided<Coord>,
}

impl CoordinateLayout {
    /// `shape:stride` given as one integer stride tuple per codomain component: leaf j of
    /// `components[i]` is the coefficient of `e_i` in the stride of leaf j, so
    /// `(4,8):(1@0,1@1)` is `new((4,8), [(1,0), (0,1)])`. Checks that every component is
    /// congruent to the shape, positive extents and that the size fits in 64 bits.
    pub fn new(shape: IntTuple, components: Vec<IntTuple>) -> Result<CoordinateLayout> {
        Layout::column_major(shape.clone())?;
        for c in &components {
            if !shape.congruent(c) {
                return Err(LayoutError::NotCongruent { shape: shape.to_string(), stride: c.to_string() });
            }
        }
        let columns: Vec<Vec<i64>> = components.iter().map(IntTuple::leaves).collect();
        let leaves = (0..shape.leaves().len()).map(|j| Coord::new(columns.iter().map(|c| c[j]).collect())).collect();
        Ok(CoordinateLayout { inner: Strided::new(shape, leaves) })
    }

    /// `(L0, L1, …)`: the concatenation of coordinate layouts (always a tuple); the size
    /// must fit in 64 bits.
    pub fn concat(parts: impl IntoIterator<Item = CoordinateLayout>) -> Result<CoordinateLayout> {
        Ok(CoordinateLayout { inner: Strided::concat(parts.into_iter().map(|p| p.inner).collect())? })
    }

    /// The shape (the domain).
    pub fn shape(&self) -> &IntTuple {
        &self.inner.shape
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

    /// The rank of the coordinates it produces: 1 + the largest basis element used
    /// (0 when every stride is zero).
    pub fn codomain_rank(&self) -> usize {
        self.inner.leaves.iter().map(Coord::rank).max().unwrap_or(0)
    }

    /// Component i of the layout as an integer layout: the shape with the coefficients of
    /// `e_i` (zero strides where a leaf does not use `e_i`).
    pub fn component(&self, i: usize) -> Layout {
        let mut coefs = self.inner.leaves.iter().map(|c| c.get(i));
        Layout::from_parts(self.inner.shape.clone(), self.inner.shape.map_leaves(&mut |_| coefs.next().unwrap_or(0)))
    }

    /// The components `0..codomain_rank` (see [`CoordinateLayout::component`]).
    pub fn components(&self) -> Vec<Layout> {
        (0..self.codomain_rank()).map(|i| self.component(i)).collect()
    }

    /// The stride leaves as coefficient vectors (`4@2+2@3` is `[0,0,4,2]`).
    pub fn stride_leaves(&self) -> Vec<Vec<i64>> {
        self.inner.leaves.iter().map(|c| c.coefs().to_vec()).collect()
    }

    fn coordinate(&self, c: &Coord) -> IntTuple {
        Tuple((0..self.codomain_rank()).map(|i| Int(c.get(i))).collect())
    }

    /// `L(i)`, a coordinate of the codomain rank (past the size the last mode is unbounded).
    pub fn eval(&self, i: i64) -> Result<IntTuple> {
        Ok(self.coordinate(&self.inner.eval(i)?))
    }

    /// `L(c)` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<IntTuple> {
        Ok(self.coordinate(&self.inner.eval_coord(crd)?))
    }

    /// The codomain's extent per component, `max L(c)_i + 1` over the domain: for
    /// `(4,8):(1@0,1@1)` it is `(4,8)`.
    pub fn cosize(&self) -> Result<IntTuple> {
        Ok(Tuple(self.components().iter().map(|c| c.cosize().map(Int)).collect::<Result<_>>()?))
    }

    /// Mode `i` as a layout of its own (an error when `i` is out of range).
    pub fn mode(&self, i: usize) -> Result<CoordinateLayout> {
        Ok(CoordinateLayout { inner: self.inner.mode(i)? })
    }

    /// The same function over the flattened shape (every leaf a top-level mode).
    pub fn flatten(&self) -> CoordinateLayout {
        CoordinateLayout { inner: self.inner.flatten() }
    }

    /// Coalesce (paper §3.2): drops size-1 modes and merges `s0:d0 ++ s1:d1` when `d1 = s0·d0`
    /// component-wise. Always admissible.
    pub fn coalesce(&self) -> CoordinateLayout {
        CoordinateLayout { inner: self.inner.coalesce(false) }
    }

    /// Slicing (paper §2.5): the sub-layout of the free modes of `c` and the coordinate
    /// `L(c with _ = 0)`, so that `L(c' + c*) = L(c') + L|_(c*)`.
    pub fn slice(&self, c: &SliceCoord) -> Result<(CoordinateLayout, IntTuple)> {
        let (sub, off) = self.inner.slice(c)?;
        let off = self.coordinate(&off);
        Ok((CoordinateLayout { inner: sub }, off))
    }

    /// Composition with an integer layout or tiler on the right: `R(c) = A(B(c))`, by the
    /// walk of [`composition`] over A's modes with A's strides scaled component-wise (the
    /// coordinate strides form a true semimodule, so the integer admissibility conditions,
    /// Eq. 20 and 21, are exactly the conditions here), e.g. `(8,8):(1@0,1@1) ∘
    /// ((4,8),2):((16,1),8) = ((4,8),2):((2@1,1@0),1@1)` (Table 4, P6).
    pub fn compose(&self, t: &Tiler) -> Result<CoordinateLayout> {
        let op = |a: &Strided<Coord>, b: &Layout| compose(a, b);
        Ok(CoordinateLayout { inner: apply_by_mode(Operation::Composition, &self.inner, t, &op)? })
    }

    /// `A ∘ B` for a B that produces coordinates: coordinate reduction, see
    /// [`compose_coordinates`].
    pub fn compose_coordinates(&self, b: &CoordinateLayout) -> Result<CoordinateLayout> {
        let op = |a: &Strided<Coord>, bi: &Layout| compose(a, bi);
        Ok(CoordinateLayout { inner: reduce(&self.inner, &self.to_string(), b, &op)? })
    }

    /// An operation on the domain: `A ∘ op(I)` with I the compact column-major layout of A's
    /// shape, the identity on A's domain. For the divides, `A ⊘ T = A ∘ (I ⊘ T)`, so
    /// `zipped_divide((8,8):(1@0,1@1), [4:1,2:1])` tiles the identity tensor. Admissible when
    /// `op(I)` is and A composes with it.
    pub fn map_domain(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<CoordinateLayout> {
        let domain = op(&Layout::column_major(self.inner.shape.clone())?)?;
        Ok(CoordinateLayout { inner: compose(&self.inner, &domain)? })
    }

    /// The error for a stride that is a sum of basis elements, if there is one.
    fn require_single(&self, op: Operation) -> Result<()> {
        match self.inner.leaves.iter().find(|c| c.rank() > 0 && c.single().is_none()) {
            Some(c) => Err(LayoutError::BasisSum { op, layout: self.to_string(), stride: c.to_string() }),
            None => Ok(()),
        }
    }

    /// Runs an integer operation on component i, naming the component in its errors.
    fn on_component<T>(&self, op: Operation, i: usize, f: impl FnOnce(&Layout) -> Result<T>) -> Result<T> {
        f(&self.component(i)).map_err(|e| LayoutError::InComponent {
            op,
            layout: self.to_string(),
            component: i,
            source: Box::new(e),
        })
    }

    /// Complement (paper §3.5) on an E-basis codomain: weakly congruent to the codomain, one mode
    /// per component i, the integer complement of component i (its `hole` modes and its
    /// trailing `rest` mode, in the paper's un-coalesced form of Table 7 with size-1 holes
    /// dropped) with strides along `e_i`. `cotarget` gives the extent per component (default:
    /// the cosize per component): `complement((4,(4,2)):(1@1,(1@0,12@1))) =
    /// (1,(3,1)):(4@0,(4@1,24@1))` (G7). Requires single basis elements and, per component,
    /// what the integer complement requires.
    pub fn complement(&self, cotarget: Option<&IntTuple>) -> Result<CoordinateLayout> {
        self.require_single(Operation::Complement)?;
        let r = self.codomain_rank();
        let targets: Vec<i64> = match cotarget {
            None => self.components().iter().map(Layout::cosize).collect::<Result<_>>()?,
            Some(t) if t.rank() == r && (r > 1 || !t.is_int()) => {
                t.modes().iter().map(IntTuple::product).collect::<Result<_>>()?
            }
            Some(t) if r == 1 => vec![t.product()?],
            Some(t) => {
                return Err(LayoutError::CotargetRank { layout: self.to_string(), cotarget: t.to_string(), rank: r });
            }
        };
        let mut parts = Vec::with_capacity(r);
        for (i, &n) in targets.iter().enumerate() {
            let modes = self.on_component(Operation::Complement, i, |c| complement_modes(c, n))?.flat_modes();
            let last = modes.len() - 1;
            let kept: Vec<(i64, Coord)> = modes
                .into_iter()
                .enumerate()
                .filter(|&(k, (s, _))| s != 1 || k == last)
                .map(|(_, (s, d))| (s, Coord::new((0..=i).map(|j| if j == i { d } else { 0 }).collect())))
                .collect();
            parts.push(Strided::from_flat(kept));
        }
        Ok(CoordinateLayout { inner: Strided::concat(parts)? })
    }

    /// Right inverse (paper §3.4) on an E-basis codomain: its domain is congruent to the codomain,
    /// `L‡(x) = Σ_i R_i(x_i)` with `R_i` the integer right inverse of component i (the modes
    /// along `e_i`, with their index positions in L), so that `L(L‡(x)) = x` for x in
    /// `[0,|R_0|) × [0,|R_1|) × …`: `right_inverse((4,8):(1@0,1@1)) = (4,8):(1,4)` (E9).
    /// Requires single basis elements and non-negative strides.
    pub fn right_inverse(&self) -> Result<Layout> {
        self.require_single(Operation::RightInverse)?;
        let parts = (0..self.codomain_rank())
            .map(|i| self.on_component(Operation::RightInverse, i, inverse::right_inverse))
            .collect::<Result<Vec<_>>>()?;
        Layout::concat(parts)
    }

    /// Left inverse (paper §3.4) on an E-basis codomain: `L†(x) = Σ_i L_i†(x_i)` with `L_i†` the
    /// integer left inverse of component i, so that `L†(L(k)) = k` when L is injective;
    /// its domain is compatible with the codomain and may be larger than the image:
    /// `left_inverse((4,(4,2)):(1@1,(1@0,6@1))) = (4,(6,2)):(4,(1,16))` (F9). Requires single
    /// basis elements and, per component, the integer left inverse's conditions.
    pub fn left_inverse(&self) -> Result<Layout> {
        self.require_single(Operation::LeftInverse)?;
        let parts = (0..self.codomain_rank())
            .map(|i| self.on_component(Operation::LeftInverse, i, inverse::left_inverse))
            .collect::<Result<Vec<_>>>()?;
        Layout::concat(parts)
    }
}

/// `A ∘ B` for a B that produces coordinates (paper §3.3, coordinate reduction): a mode `s:a@i` of
/// B selects mode i of A, `A ∘ (s:a@i) = A_i ∘ (s:a)`, and the modes of B along one basis
/// element compose with that mode of A as an integer layout (with its distributivity check).
/// The result has A's strides and B's shape. Requires every stride of B to be a single scaled
/// basis element `a@i` with `i < rank(A)`, and each `A_i ∘ B_i` admissible.
pub fn compose_coordinates(a: &Layout, b: &CoordinateLayout) -> Result<Layout> {
    let sa = Strided::new(a.shape().clone(), a.stride().leaves());
    let op = |ai: &Strided<i64>, bi: &Layout| {
        let l = Layout::from_parts(ai.shape.clone(), ai.shape.with_leaves(&mut ai.leaves.iter().copied()));
        let r = composition(&l, bi)?;
        Ok(Strided::new(r.shape().clone(), r.stride().leaves()))
    };
    let r = reduce(&sa, &a.to_string(), b, &op)?;
    Ok(Layout::from_parts(r.shape.clone(), r.shape.with_leaves(&mut r.leaves.into_iter())))
}

/// Coordinate reduction for A with strides in any semimodule; `op` composes a mode of A with
/// an integer layout.
pub(crate) fn reduce<S: Semimodule>(
    a: &Strided<S>,
    a_text: &str,
    b: &CoordinateLayout,
    op: ComposeOp<'_, S>,
) -> Result<Strided<S>> {
    b.require_single(Operation::Composition)?;
    let (r, rank) = (b.codomain_rank().max(1), a.shape.rank());
    if r > rank {
        return Err(LayoutError::BasisComponent { lhs: a_text.into(), rhs: b.to_string(), component: r - 1, rank });
    }
    let parts = (0..r).map(|i| op(&a.mode(i)?, &b.component(i))).collect::<Result<Vec<_>>>()?;
    let mut which = b.inner.leaves.iter().map(|c| c.single().map_or(0, |(i, _)| i));
    let shapes: Vec<&IntTuple> = parts.iter().map(|p| &p.shape).collect();
    let mut cursors = vec![0usize; parts.len()];
    let mut leaves = Vec::new();
    let shape = pick(&b.inner.shape, &shapes, &mut which, &mut cursors, &parts, &mut leaves);
    Ok(Strided::new(shape, leaves))
}

/// Walks B's shape and the per-component results (each is B's shape with every leaf replaced
/// by a sub-layout) in parallel, taking each leaf's sub-layout from its component's result.
fn pick<S: Semimodule>(
    b: &IntTuple,
    shapes: &[&IntTuple],
    which: &mut impl Iterator<Item = usize>,
    cursors: &mut [usize],
    parts: &[Strided<S>],
    out: &mut Vec<S>,
) -> IntTuple {
    match b {
        Tuple(children) => Tuple(
            children
                .iter()
                .enumerate()
                .map(|(k, child)| {
                    let sub: Vec<&IntTuple> = shapes.iter().map(|s| s.mode(k).unwrap_or(s)).collect();
                    pick(child, &sub, which, cursors, parts, out)
                })
                .collect(),
        ),
        Int(_) => {
            let c = which.next().unwrap_or(0).min(parts.len() - 1);
            let n = shapes[c].leaves().len();
            // Each part is B's shape with every leaf replaced by its sub-layout, so the
            // leaves are there; `get` keeps a mismatch from panicking.
            out.extend(parts[c].leaves.get(cursors[c]..cursors[c] + n).unwrap_or_default().iter().cloned());
            for (cursor, s) in cursors.iter_mut().zip(shapes) {
                *cursor += s.leaves().len();
            }
            shapes[c].clone()
        }
    }
}

impl fmt::Display for CoordinateLayout {
    /// `shape:stride` with strides `a@i` (sums `4@2+2@3`, zero `0`), e.g. `(4,8):(1@0,1@1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.inner)
    }
}
