//! Slicing (paper §2.5): a coordinate with `_` entries splits into a fixed part, evaluated to
//! an offset, and a free part, the sub-layout: `L(c' + c*) = L(c') + L|_(c*)`.

use std::fmt;

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// A coordinate that may leave modes free with `_`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SliceCoord {
    /// A fixed coordinate.
    Int(i64),
    /// `_`: the mode is kept.
    Free,
    /// A tuple of slice coordinates.
    Tuple(Vec<SliceCoord>),
}

impl SliceCoord {
    /// The coordinate with every `_` replaced by 0.
    pub fn fixed(&self) -> IntTuple {
        match self {
            SliceCoord::Int(v) => IntTuple::Int(*v),
            SliceCoord::Free => IntTuple::Int(0),
            SliceCoord::Tuple(t) => IntTuple::Tuple(t.iter().map(SliceCoord::fixed).collect()),
        }
    }
}

impl From<&IntTuple> for SliceCoord {
    fn from(t: &IntTuple) -> Self {
        match t {
            IntTuple::Int(v) => SliceCoord::Int(*v),
            IntTuple::Tuple(t) => SliceCoord::Tuple(t.iter().map(SliceCoord::from).collect()),
        }
    }
}

impl fmt::Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SliceCoord::Int(v) => write!(f, "{v}"),
            SliceCoord::Free => f.write_str("_"),
            SliceCoord::Tuple(t) => crate::int_tuple::write_tuple(f, t),
        }
    }
}

/// `slice(L, c)`: the sub-layout of the modes `c` leaves free and the offset `L(c with _ = 0)`.
/// The free modes keep their grouping: each tuple of `c` contributes its free parts as one
/// mode (unwrapped when there is only one), e.g. `A((1,_),((_,0),_))` of
/// `((3,2),((2,3),2)):((4,1),((2,15),100))` is `(2,(2,2)):(1,(2,100))` at offset 4.
/// Requires `c` weakly congruent to L's shape (`_` matches any mode).
///
/// ```
/// use layout_core::{SliceCoord, parse_layout, slice};
/// // Column 3 of a 4x8 column-major matrix: `(_, 3)`.
/// let c = SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(3)]);
/// let (col, offset) = slice(&parse_layout("(4,8):(1,4)")?, &c)?;
/// assert_eq!((col.to_string(), offset), ("4:1".to_string(), 12));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn slice(layout: &Layout, c: &SliceCoord) -> Result<(Layout, i64)> {
    let offset = layout.eval_coord(&c.fixed())?;
    let sub = match free_part(c, layout.shape(), layout.stride(), layout)? {
        Some((s, d)) => Layout::new(s, d)?,
        None => Layout::scalar(1, 0)?,
    };
    Ok((sub, offset))
}

/// The layout of the modes `c` fixes (its integer entries; `_` entries are left out), grouped
/// as [`slice()`] groups the free modes: the complement of the slice. Sub-layout k of the
/// slicing, the slice at the k-th value (colexicographic) of the fixed coordinates, starts at
/// offset `slice_fixed(L, c)(k)`, and `L = slice(L, c) + slice_fixed(L, c)` on the split
/// coordinates, so every sub-layout offset is an offset of L. The values of the fixed
/// entries are not used, only their positions: `slice_fixed((4,8):(1,4), (_,3))` is `8:4`.
pub fn slice_fixed(layout: &Layout, c: &SliceCoord) -> Result<Layout> {
    match part(c, layout.shape(), layout.stride(), layout, false)? {
        Some((s, d)) => Layout::new(s, d),
        None => Layout::scalar(1, 0),
    }
}

fn free_part(
    c: &SliceCoord,
    shape: &IntTuple,
    stride: &IntTuple,
    layout: &Layout,
) -> Result<Option<(IntTuple, IntTuple)>> {
    part(c, shape, stride, layout, true)
}

/// The free modes of `c` (`free`), or its fixed modes.
fn part(
    c: &SliceCoord,
    shape: &IntTuple,
    stride: &IntTuple,
    layout: &Layout,
    free: bool,
) -> Result<Option<(IntTuple, IntTuple)>> {
    match (c, shape, stride) {
        (SliceCoord::Free, s, d) => Ok(free.then(|| (s.clone(), d.clone()))),
        (SliceCoord::Int(_), s, d) => Ok((!free).then(|| (s.clone(), d.clone()))),
        (SliceCoord::Tuple(cs), IntTuple::Tuple(ss), IntTuple::Tuple(ds)) if cs.len() == ss.len() => {
            let mut parts = Vec::new();
            for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                parts.extend(part(c, s, d, layout, free)?);
            }
            Ok(match parts.len() {
                0 => None,
                1 => parts.pop(),
                _ => {
                    let (s, d) = parts.into_iter().unzip();
                    Some((IntTuple::Tuple(s), IntTuple::Tuple(d)))
                }
            })
        }
        _ => Err(LayoutError::CoordinateRank { coord: c.to_string(), shape: layout.shape().to_string() }),
    }
}
