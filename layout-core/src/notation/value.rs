//! Values of the expression language.

use std::fmt;

use crate::basis::BasisLayout;
use crate::f2::F2Layout;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::SliceCoord;
use crate::stride::{Stride, StridedLayout};
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tiler::Tiler;

/// The value of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer or an int tuple (a shape, a profile, a coordinate).
    Tuple(IntTuple),
    /// A coordinate with free (`_`) modes.
    Coord(SliceCoord),
    /// An integer layout `shape:stride`.
    Layout(Layout),
    /// A by-mode tiler `[T0, T1, …]`.
    Tiler(Tiler),
    /// `true` or `false` (the predicates, e.g. `congruent(P, S)`).
    Bool(bool),
    /// `_` on its own (only meaningful inside tilers and coordinates).
    Underscore,
    /// `Sw<B,M,S>`.
    Swizzle(Swizzle),
    /// `Sw<B,M,S> o L`, `Sw<B,M,S> o offset o L`.
    Swizzled(SwizzledLayout),
    /// A layout with coordinate strides `a@i`.
    BasisLayout(BasisLayout),
    /// A layout with F2 strides `fk`.
    F2Layout(F2Layout),
    /// A stride (or a tuple of strides) with coordinate or F2 leaves, e.g. `(1@0,1@1)`, `f9`.
    Stride(Stride),
}

impl Value {
    /// What kind of value this is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Tuple(IntTuple::Int(_)) => "an integer",
            Value::Tuple(_) => "an int tuple",
            Value::Coord(_) => "a coordinate with `_`",
            Value::Layout(_) => "a layout",
            Value::Tiler(_) => "a tiler",
            Value::Bool(_) => "a truth value",
            Value::Underscore => "`_`",
            Value::Swizzle(_) => "a swizzle",
            Value::Swizzled(_) => "a swizzled layout",
            Value::BasisLayout(_) => "a coordinate layout",
            Value::F2Layout(_) => "an F2 layout",
            Value::Stride(_) => "a stride",
        }
    }

    /// A swizzled layout, or its inner layout when the swizzle is the identity and the
    /// offset 0 (CuTe C++ drops such a swizzle too).
    pub fn from_swizzled(s: SwizzledLayout) -> Value {
        if s.swizzle().is_identity() && s.offset() == 0 {
            Value::Layout(s.layout().clone())
        } else {
            Value::Swizzled(s)
        }
    }

    /// A coordinate layout, or the integer layout with zero strides when no stride uses a
    /// basis element (0 is the zero of every semimodule; so the printed form parses back).
    pub fn from_basis(b: BasisLayout) -> Value {
        if b.codomain_rank() == 0 { Value::Layout(b.component(0)) } else { Value::BasisLayout(b) }
    }

    /// The value of a layout built from a [`Stride`].
    pub fn from_strided(l: StridedLayout) -> Value {
        match l {
            StridedLayout::Int(l) => Value::Layout(l),
            StridedLayout::Basis(b) => Value::from_basis(b),
            StridedLayout::F2(f) => Value::F2Layout(f),
        }
    }

    /// As a layout: a bare shape is the compact column-major layout.
    pub fn into_layout(self) -> Result<Layout, String> {
        match self {
            Value::Layout(l) => Ok(l),
            Value::Tuple(t) => Layout::column_major(t).map_err(|e| e.to_string()),
            v => Err(format!("expected a layout, found {}", v.kind())),
        }
    }

    /// As a tiler: a layout tiles the whole layout; a shape `(4,8)` is `[4:1,8:1]`.
    pub fn into_tiler(self) -> Result<Tiler, String> {
        match self {
            Value::Layout(l) => Ok(Tiler::Layout(l)),
            Value::Tiler(t) => Ok(t),
            Value::Tuple(t) => Tiler::from_shape(&t).map_err(|e| e.to_string()),
            v => Err(format!("expected a tiler, a layout or a shape, found {}", v.kind())),
        }
    }

    /// The layout, if this is one.
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    /// Canonical notation; parsing it gives back an equal value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Tuple(t) => write!(f, "{t}"),
            Value::Coord(c) => write!(f, "{c}"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Tiler(t) => write!(f, "{t}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Underscore => f.write_str("_"),
            Value::Swizzle(s) => write!(f, "{s}"),
            Value::Swizzled(s) => write!(f, "{s}"),
            Value::BasisLayout(b) => write!(f, "{b}"),
            Value::F2Layout(l) => write!(f, "{l}"),
            Value::Stride(s) => write!(f, "{s}"),
        }
    }
}
