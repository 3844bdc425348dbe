//! Tilers (paper §3.1, §3.3.5): a layout, or a by-mode tuple `[T0, T1, …]` whose entries are
//! tilers or `_` (leave that mode alone: in every operation the whole mode is its own tile,
//! the same as the tiler `n:1` for a mode of size n).

use std::fmt;

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::trace::{self, Role};

/// A tiler: one layout applied to the whole layout, or one entry per mode.
///
/// ```
/// use layout_core::{Tiler, parse_tiler};
///
/// let t = parse_tiler("[4:1,_]")?;
/// assert!(matches!(&t, Tiler::Modes(m) if m.len() == 2 && m[1].is_none()));
/// assert_eq!(t.to_string(), "[4:1,_]");
/// assert_eq!(parse_tiler("(4,8)")?.to_string(), "[4:1,8:1]");   // a shape as a tiler
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiler {
    /// One layout composed with the whole layout.
    Layout(Layout),
    /// `[T0, T1, …]`; `None` is `_`, the whole mode as its tile.
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

/// What the by-mode combinator needs of a layout (integer, or strides in any semimodule):
/// its top-level modes and concatenation (and its printed form, for errors and traces).
pub(crate) trait ByMode: Sized + Clone + fmt::Display {
    fn top_modes(&self) -> Result<Vec<Self>>;
    fn concat_modes(parts: Vec<Self>) -> Result<Self>;
}

impl ByMode for Layout {
    fn top_modes(&self) -> Result<Vec<Layout>> {
        Ok(self.modes())
    }

    fn concat_modes(parts: Vec<Layout>) -> Result<Layout> {
        Layout::concat(parts)
    }
}

/// The by-mode combinator of `op`: applies `f` to the first `n` modes of `layout` (`arg`, a
/// tiler or profile of rank n, says how), keeps the rest, and concatenates (the result is
/// always a tuple). Requires `n ≤ rank(layout)`, else [`LayoutError::TooManyModes`]. Traced:
/// each mode of the result is recorded.
pub(crate) fn by_mode<L: ByMode>(
    op: Operation,
    layout: &L,
    n: usize,
    arg: &dyn fmt::Display,
    what: &'static str,
    mut f: impl FnMut(&L, usize) -> Result<L>,
) -> Result<L> {
    trace::operation(op, &[("A", layout), (what, arg)], || {
        let modes = layout.top_modes()?;
        if n > modes.len() {
            return Err(LayoutError::too_many_modes(what, arg, n, layout, modes.len()));
        }
        let mut out = Vec::with_capacity(modes.len());
        for (i, m) in modes.iter().enumerate() {
            let r = if i < n {
                f(m, i)?
            } else {
                trace::note(|| format!("mode {i} ({m}) is past the {what} and stays as it is"));
                m.clone()
            };
            trace::built(|| Role::Mode(i), &r);
            out.push(r);
        }
        L::concat_modes(out)
    })
}

/// Applies `op` (the operation `name`) with a layout tiler, or mode by mode for `[T0, T1, …]`
/// (CuTe's by-mode combinator `A ★ ⟨B,C⟩ = (A0 ★ B, A1 ★ C)`): `_` and modes past the tiler
/// stay as they are. Requires `rank(T) ≤ rank(A)`.
pub(crate) fn apply_by_mode<L: ByMode>(
    name: Operation,
    a: &L,
    t: &Tiler,
    op: &dyn Fn(&L, &Layout) -> Result<L>,
) -> Result<L> {
    match t {
        Tiler::Layout(b) => op(a, b),
        Tiler::Modes(m) => by_mode(name, a, m.len(), t, "tiler", |mode, i| match &m[i] {
            Some(t) => apply_by_mode(name, mode, t, op),
            None => {
                trace::note(|| format!("mode {i} ({mode}): `_` keeps it"));
                Ok(mode.clone())
            }
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
