//! Values of the expression language.

use std::fmt;

use crate::any_layout::AnyLayout;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::SliceCoord;
use crate::stride::Stride;
use crate::swizzle::Swizzle;
use crate::tiler::Tiler;

/// The value of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer or an int tuple (a shape, a profile, a coordinate).
    Tuple(IntTuple),
    /// A coordinate with free (`_`) modes.
    Coord(SliceCoord),
    /// A layout of any kind (integer, swizzled, coordinate, F2).
    Layout(AnyLayout),
    /// A by-mode tiler `[T0, T1, …]`.
    Tiler(Tiler),
    /// `true` or `false` (the predicates, e.g. `congruent(P, S)`).
    Bool(bool),
    /// `_` on its own (only meaningful inside tilers and coordinates).
    Underscore,
    /// `Sw<B,M,S>`.
    Swizzle(Swizzle),
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
            Value::Layout(l) => l.kind(),
            Value::Tiler(_) => "a tiler",
            Value::Bool(_) => "a truth value",
            Value::Underscore => "`_`",
            Value::Swizzle(_) => "a swizzle",
            Value::Stride(_) => "a stride",
        }
    }

    /// A layout of any kind, in its simplest kind ([`AnyLayout::simplified`]).
    pub fn layout(l: impl Into<AnyLayout>) -> Value {
        Value::Layout(l.into().simplified())
    }

    /// As a layout: a bare shape is the compact column-major layout.
    pub fn into_layout(self) -> Result<Layout, String> {
        match self {
            Value::Layout(AnyLayout::Int(l)) => Ok(l),
            Value::Tuple(t) => Layout::column_major(t).map_err(|e| e.to_string()),
            v => Err(format!("expected a layout, found {}", v.kind())),
        }
    }

    /// As a tiler: a layout tiles the whole layout; a shape `(4,8)` is `[4:1,8:1]`.
    pub fn into_tiler(self) -> Result<Tiler, String> {
        match self {
            Value::Layout(AnyLayout::Int(l)) => Ok(Tiler::Layout(l)),
            Value::Tiler(t) => Ok(t),
            Value::Tuple(t) => Tiler::from_shape(&t).map_err(|e| e.to_string()),
            v => Err(format!("expected a tiler, a layout or a shape, found {}", v.kind())),
        }
    }

    /// The integer layout, if this is one.
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            Value::Layout(l) => l.as_int(),
            _ => None,
        }
    }

    /// As a layout of any kind: a bare shape is the compact column-major layout.
    pub fn into_any_layout(self) -> Result<AnyLayout, String> {
        match self {
            Value::Layout(l) => Ok(l),
            v => v.into_layout().map(AnyLayout::Int),
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
            Value::Stride(s) => write!(f, "{s}"),
        }
    }
}
