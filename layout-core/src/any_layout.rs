//! A layout of any kind (docs/algebra.md §1): integer strides, a swizzled layout
//! `Sw o off o L`, coordinate strides `a@i`, F2 strides `fk`, a composed layout
//! `A o Sw o off o B`. The operations every kind has
//! are written once here, one match per operation; a new kind is one variant and its arms.

use std::fmt;

use crate::basis::CoordinateLayout;
use crate::composed::ComposedLayout;
use crate::error::{LayoutError, Result};
use crate::f2::F2Layout;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::{SliceCoord, slice};
use crate::stride::StridedLayout;
use crate::swizzle::SwizzledLayout;
use crate::tiler::Tiler;

/// A layout of any kind: a shape (the domain) and a function from its coordinates to offsets
/// (integers) or, for a coordinate layout, to coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyLayout {
    /// `shape:stride` with integer strides.
    Int(Layout),
    /// `Sw<B,M,S> o off o L`: `c ↦ Sw(off + L(c))`.
    Swizzled(SwizzledLayout),
    /// Coordinate strides `a@i`: the values are coordinates.
    Coordinate(CoordinateLayout),
    /// F2 strides `fk`: the XOR of carry-less products.
    F2(F2Layout),
    /// `A o Sw o off o B`, a chain of layouts, swizzles and offsets after B: what a
    /// composition with a swizzle or a swizzled layout on the right gives.
    Composed(ComposedLayout),
}

impl AnyLayout {
    /// The simplest kind that is the same function: a swizzled layout with the identity
    /// swizzle and offset 0 is its inner layout (CuTe C++ drops such a swizzle too); a
    /// coordinate layout that uses no basis element is the integer layout with zero strides
    /// (0 is the zero of every semimodule, so the printed form parses back).
    pub fn simplified(self) -> AnyLayout {
        match self {
            AnyLayout::Swizzled(s) if s.swizzle().is_identity() && s.offset() == 0 => {
                AnyLayout::Int(s.layout().clone())
            }
            AnyLayout::Coordinate(b) if b.codomain_rank() == 0 => AnyLayout::Int(b.component(0)),
            l => l,
        }
    }

    /// What kind of layout this is, for messages ("a swizzled layout").
    pub fn kind(&self) -> &'static str {
        match self {
            AnyLayout::Int(_) => "a layout",
            AnyLayout::Swizzled(_) => "a swizzled layout",
            AnyLayout::Coordinate(_) => "a coordinate layout",
            AnyLayout::F2(_) => "an F2 layout",
            AnyLayout::Composed(_) => "a composed layout",
        }
    }

    /// What the layout maps to, for messages ("integer offsets", "coordinates").
    pub fn codomain(&self) -> &'static str {
        match self {
            AnyLayout::Int(_) => "integer offsets",
            AnyLayout::Swizzled(_) => "swizzled offsets",
            AnyLayout::Coordinate(_) => "coordinates",
            AnyLayout::F2(_) => "F2 bit vectors",
            AnyLayout::Composed(_) => "composed offsets",
        }
    }

    /// The integer layout, if this is one.
    pub fn as_int(&self) -> Option<&Layout> {
        match self {
            AnyLayout::Int(l) => Some(l),
            _ => None,
        }
    }

    /// The integer layout that fixes the domain and that the domain operations (coalesce,
    /// divides, products, composition on the right) act on, keeping the rest outside: the
    /// layout itself, or L of `Sw o off o L`. `None` for coordinate and F2 layouts, whose
    /// strides are not integers.
    pub fn inner(&self) -> Option<&Layout> {
        match self {
            AnyLayout::Int(l) => Some(l),
            AnyLayout::Swizzled(s) => Some(s.layout()),
            AnyLayout::Composed(c) => Some(c.inner()),
            AnyLayout::Coordinate(_) | AnyLayout::F2(_) => None,
        }
    }

    /// The shape: the domain of the function.
    pub fn shape(&self) -> &IntTuple {
        match self {
            AnyLayout::Int(l) => l.shape(),
            AnyLayout::Swizzled(s) => s.shape(),
            AnyLayout::Coordinate(b) => b.shape(),
            AnyLayout::F2(f) => f.shape(),
            AnyLayout::Composed(c) => c.shape(),
        }
    }

    /// `size(L)`, the number of coordinates of the domain.
    pub fn size(&self) -> i64 {
        match self {
            AnyLayout::Int(l) => l.size(),
            AnyLayout::Swizzled(s) => s.size(),
            AnyLayout::Coordinate(b) => b.size(),
            AnyLayout::F2(f) => f.size(),
            AnyLayout::Composed(c) => c.size(),
        }
    }

    /// The number of top-level modes.
    pub fn rank(&self) -> usize {
        self.shape().rank()
    }

    /// The nesting depth of the shape.
    pub fn depth(&self) -> usize {
        self.shape().depth()
    }

    /// `cosize(L)`: the largest value plus one (an integer), or for a coordinate layout the
    /// extent per component (a tuple). Enumerates the domain for the kinds that are not
    /// monotone in their strides (swizzled, F2), so at most [`Layout::TABLE_LIMIT`] elements.
    pub fn cosize(&self) -> Result<IntTuple> {
        Ok(match self {
            AnyLayout::Int(l) => IntTuple::Int(l.cosize()?),
            AnyLayout::Swizzled(s) => IntTuple::Int(s.cosize()?),
            AnyLayout::Coordinate(b) => b.cosize()?,
            AnyLayout::F2(f) => IntTuple::Int(f.cosize()?),
            AnyLayout::Composed(c) => IntTuple::Int(c.cosize()?),
        })
    }

    /// `L(i)` at an integer index (past the size, the last mode is unbounded); an integer,
    /// or a coordinate for a coordinate layout.
    pub fn eval(&self, i: i64) -> Result<IntTuple> {
        Ok(match self {
            AnyLayout::Int(l) => IntTuple::Int(l.eval(i)?),
            AnyLayout::Swizzled(s) => IntTuple::Int(s.eval(i)?),
            AnyLayout::Coordinate(b) => b.eval(i)?,
            AnyLayout::F2(f) => IntTuple::Int(f.eval(i)?),
            AnyLayout::Composed(c) => IntTuple::Int(c.eval(i)?),
        })
    }

    /// `L(c)` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<IntTuple> {
        Ok(match self {
            AnyLayout::Int(l) => IntTuple::Int(l.eval_coord(crd)?),
            AnyLayout::Swizzled(s) => IntTuple::Int(s.eval_coord(crd)?),
            AnyLayout::Coordinate(b) => b.eval_coord(crd)?,
            AnyLayout::F2(f) => IntTuple::Int(f.eval_coord(crd)?),
            AnyLayout::Composed(c) => IntTuple::Int(c.eval_coord(crd)?),
        })
    }

    /// The values at indices `0..size`, for at most [`Layout::TABLE_LIMIT`] elements.
    pub fn table(&self) -> Result<Vec<IntTuple>> {
        if self.size() > Layout::TABLE_LIMIT {
            return Err(LayoutError::TooLarge { size: self.size(), limit: Layout::TABLE_LIMIT });
        }
        (0..self.size()).map(|i| self.eval(i)).collect()
    }

    /// Mode i (as CuTe's `get<i>` / `layout<i>`), of the same kind.
    pub fn mode(&self, i: usize) -> Result<AnyLayout> {
        Ok(match self {
            AnyLayout::Int(l) => AnyLayout::Int(l.mode(i)?),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.mode(i)?),
            AnyLayout::Coordinate(b) => AnyLayout::Coordinate(b.mode(i)?),
            AnyLayout::F2(f) => AnyLayout::F2(f.mode(i)?),
            AnyLayout::Composed(c) => c.map_inner(|l| l.mode(i))?,
        }
        .simplified())
    }

    /// The same function over the flattened shape.
    pub fn flatten(&self) -> AnyLayout {
        match self {
            AnyLayout::Int(l) => AnyLayout::Int(l.flatten()),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.flatten()),
            AnyLayout::Coordinate(b) => AnyLayout::Coordinate(b.flatten()),
            AnyLayout::F2(f) => AnyLayout::F2(f.flatten()),
            AnyLayout::Composed(c) => AnyLayout::Composed(c.with(c.inner().flatten())),
        }
        .simplified()
    }

    /// Slicing (paper §2.5) at a coordinate with `_`: the sub-layout of the free modes and the
    /// value at the coordinate with `_` = 0 (for a swizzled layout the offset folds into
    /// the composed one, so the returned offset is 0, as in CuTe C++).
    pub fn slice(&self, c: &SliceCoord) -> Result<(AnyLayout, IntTuple)> {
        let (l, off) = match self {
            AnyLayout::Int(l) => slice(l, c).map(|(l, o)| (AnyLayout::Int(l), IntTuple::Int(o)))?,
            AnyLayout::Swizzled(s) => (AnyLayout::Swizzled(s.slice(c)?), IntTuple::Int(0)),
            AnyLayout::Coordinate(b) => b.slice(c).map(|(b, o)| (AnyLayout::Coordinate(b), o))?,
            AnyLayout::F2(f) => f.slice(c).map(|(f, o)| (AnyLayout::F2(f), IntTuple::Int(o)))?,
            AnyLayout::Composed(x) => (x.slice(c)?, IntTuple::Int(0)),
        };
        Ok((l.simplified(), off))
    }

    /// Coalesce (paper §3.2) without a profile, for every kind (a swizzled layout coalesces L).
    pub fn coalesce(&self) -> AnyLayout {
        match self {
            AnyLayout::Int(l) => AnyLayout::Int(crate::coalesce(l)),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.with(crate::coalesce(s.layout()))),
            AnyLayout::Coordinate(b) => AnyLayout::Coordinate(b.coalesce()),
            AnyLayout::F2(f) => AnyLayout::F2(f.coalesce()),
            AnyLayout::Composed(c) => AnyLayout::Composed(c.with(crate::coalesce(c.inner()))),
        }
        .simplified()
    }

    /// `op` applied to the integer layout that fixes the domain ([`AnyLayout::inner`]),
    /// keeping the rest outside: `op(Sw o off o L) = Sw o off o op(L)`, as CuTe C++ defines
    /// coalesce, filter, the divides and the products on composed layouts. Admissible
    /// exactly when `op(L)` is. `None` for the kinds without an integer inner layout.
    pub fn map_inner(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Option<Result<AnyLayout>> {
        Some(match self {
            AnyLayout::Int(l) => op(l).map(AnyLayout::Int),
            AnyLayout::Swizzled(s) => s.map_inner(op).map(|s| AnyLayout::Swizzled(s).simplified()),
            AnyLayout::Composed(c) => c.map_inner(op),
            AnyLayout::Coordinate(_) | AnyLayout::F2(_) => return None,
        })
    }

    /// An operation on the domain (a divide): on the inner layout where there is one
    /// ([`AnyLayout::map_inner`]), else `A ∘ op(I)` with I the compact column-major layout of
    /// A's shape.
    pub fn map_domain(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<AnyLayout> {
        Ok(match self {
            AnyLayout::Int(l) => AnyLayout::Int(op(l)?),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.map_inner(op)?),
            AnyLayout::Coordinate(b) => AnyLayout::Coordinate(b.map_domain(op)?),
            AnyLayout::F2(f) => AnyLayout::F2(f.map_domain(op)?),
            AnyLayout::Composed(c) => c.map_inner(op)?,
        }
        .simplified())
    }

    /// Composition `A ∘ T` with an integer layout or tiler on the right, `R(c) = A(T(c))`
    /// (see [`composition_tiler`](crate::composition_tiler) for when it is admissible; a
    /// swizzled layout composes its inner layout, `(Sw o off o L) ∘ T = Sw o off o (L ∘ T)`).
    pub fn compose(&self, t: &Tiler) -> Result<AnyLayout> {
        Ok(match self {
            AnyLayout::Int(l) => AnyLayout::Int(crate::composition_tiler(l, t)?),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.compose(t)?),
            AnyLayout::Coordinate(b) => AnyLayout::Coordinate(b.compose(t)?),
            AnyLayout::F2(f) => AnyLayout::F2(f.compose(t)?),
            AnyLayout::Composed(c) => c.map_inner(|l| crate::composition_tiler(l, t))?,
        }
        .simplified())
    }

    /// Composition `A ∘ B` with a B that produces coordinates (coordinate reduction, see
    /// [`compose_coordinates`](crate::compose_coordinates)).
    pub fn compose_coordinates(&self, b: &CoordinateLayout) -> Result<AnyLayout> {
        Ok(match self {
            AnyLayout::Int(l) => AnyLayout::Int(crate::compose_coordinates(l, b)?),
            AnyLayout::Swizzled(s) => AnyLayout::Swizzled(s.compose_coordinates(b)?),
            AnyLayout::Coordinate(x) => AnyLayout::Coordinate(x.compose_coordinates(b)?),
            AnyLayout::F2(f) => AnyLayout::F2(f.compose_coordinates(b)?),
            AnyLayout::Composed(c) => c.map_inner(|l| crate::compose_coordinates(l, b))?,
        }
        .simplified())
    }

    /// The right inverse (paper §3.4) of each kind (a coordinate layout's is an integer layout);
    /// `None` for a composed layout (not defined: its stages are not invertible in general).
    pub fn right_inverse(&self) -> Option<Result<AnyLayout>> {
        let r = match self {
            AnyLayout::Int(l) => crate::right_inverse(l).map(AnyLayout::Int),
            AnyLayout::Swizzled(s) => s.right_inverse().map(AnyLayout::Swizzled),
            AnyLayout::Coordinate(b) => b.right_inverse().map(AnyLayout::Int),
            AnyLayout::F2(f) => f.right_inverse().map(AnyLayout::F2),
            AnyLayout::Composed(_) => return None,
        };
        Some(r.map(AnyLayout::simplified))
    }

    /// The left inverse (paper §3.4) of each kind (a coordinate layout's is an integer layout);
    /// `None` for a composed layout (not defined: its stages are not invertible in general).
    pub fn left_inverse(&self) -> Option<Result<AnyLayout>> {
        let r = match self {
            AnyLayout::Int(l) => crate::left_inverse(l).map(AnyLayout::Int),
            AnyLayout::Swizzled(s) => s.left_inverse().map(AnyLayout::Swizzled),
            AnyLayout::Coordinate(b) => b.left_inverse().map(AnyLayout::Int),
            AnyLayout::F2(f) => f.left_inverse().map(AnyLayout::F2),
            AnyLayout::Composed(_) => return None,
        };
        Some(r.map(AnyLayout::simplified))
    }
}

impl fmt::Display for AnyLayout {
    /// Canonical notation; parsing it gives back an equal layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLayout::Int(l) => write!(f, "{l}"),
            AnyLayout::Swizzled(s) => write!(f, "{s}"),
            AnyLayout::Coordinate(b) => write!(f, "{b}"),
            AnyLayout::F2(l) => write!(f, "{l}"),
            AnyLayout::Composed(c) => write!(f, "{c}"),
        }
    }
}

impl From<Layout> for AnyLayout {
    fn from(l: Layout) -> AnyLayout {
        AnyLayout::Int(l)
    }
}

impl From<SwizzledLayout> for AnyLayout {
    fn from(s: SwizzledLayout) -> AnyLayout {
        AnyLayout::Swizzled(s)
    }
}

impl From<CoordinateLayout> for AnyLayout {
    fn from(b: CoordinateLayout) -> AnyLayout {
        AnyLayout::Coordinate(b)
    }
}

impl From<ComposedLayout> for AnyLayout {
    fn from(c: ComposedLayout) -> AnyLayout {
        AnyLayout::Composed(c)
    }
}

impl From<F2Layout> for AnyLayout {
    fn from(f: F2Layout) -> AnyLayout {
        AnyLayout::F2(f)
    }
}

impl From<StridedLayout> for AnyLayout {
    fn from(l: StridedLayout) -> AnyLayout {
        match l {
            StridedLayout::Int(l) => AnyLayout::Int(l),
            StridedLayout::Coordinate(b) => AnyLayout::Coordinate(b),
            StridedLayout::F2(f) => AnyLayout::F2(f),
        }
    }
}
