//! Values of the expression language.

use std::fmt;

use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::SliceCoord;
use crate::tiler::Tiler;

/// The value of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer or an int tuple (a shape, a profile, a coordinate).
    Tuple(IntTuple),
    /// A coordinate with free (`_`) modes.
    Coord(SliceCoord),
    Layout(Layout),
    Tiler(Tiler),
    Bool(bool),
    /// `_` on its own (only meaningful inside tilers and coordinates).
    Underscore,
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
        }
    }
}
