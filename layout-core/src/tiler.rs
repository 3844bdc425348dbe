//! Tilers (paper §3.1, §3.3.5): a layout, or a by-mode tuple `[T0, T1, …]` whose entries are
//! tilers or `_` (leave that mode alone).

use std::fmt;

use crate::coalesce::by_mode;
use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// A tiler: one layout applied to the whole layout, or one entry per mode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiler {
    Layout(Layout),
    /// `[T0, T1, …]`; `None` is `_`.
    Modes(Vec<Option<Tiler>>),
}

impl Tiler {
    /// A shape used as a tiler: `(4,8)` is `[4:1, 8:1]`, an integer `n` is `n:1`.
    pub fn from_shape(shape: &IntTuple) -> Result<Tiler> {
        Ok(match shape {
            IntTuple::Int(n) => Tiler::Layout(Layout::scalar(*n, 1)?),
            IntTuple::Tuple(t) => {
                Tiler::Modes(t.iter().map(|s| Tiler::from_shape(s).map(Some)).collect::<Result<_>>()?)
            }
        })
    }
}

/// Applies `op` with a layout tiler, or mode by mode for `[T0, T1, …]` (CuTe's by-mode
/// combinator `A ★ ⟨B,C⟩ = (A0 ★ B, A1 ★ C)`): `_` and modes past the tiler stay as they are.
/// Requires `rank(T) ≤ rank(A)`.
pub(crate) fn apply_by_mode(a: &Layout, t: &Tiler, op: &dyn Fn(&Layout, &Layout) -> Result<Layout>) -> Result<Layout> {
    match t {
        Tiler::Layout(b) => op(a, b),
        Tiler::Modes(m) => by_mode(a, m.len(), t, "tiler", |mode, i| match &m[i] {
            Some(t) => apply_by_mode(mode, t, op),
            None => Ok(mode.clone()),
        }),
    }
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}

impl fmt::Display for Tiler {
    /// `[4:1,_,[2:1,2:2]]`; a layout tiler prints as the layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Modes(m) => {
                f.write_str("[")?;
                for (k, t) in m.iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    match t {
                        Some(t) => write!(f, "{t}")?,
                        None => f.write_str("_")?,
                    }
                }
                f.write_str("]")
            }
        }
    }
}
