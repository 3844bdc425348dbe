//! Layouts `S:D` (paper §2.3): a shape and a congruent stride; the function from
//! coordinates to offsets `c ↦ Σ c_i·d_i`.

use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::int_tuple::{Int, IntTuple, Tuple, idx2crd, inner_product};
use crate::operation::Operation;

/// A layout: a shape of positive extents and a congruent stride.
///
/// ```
/// use layout_core::{IntTuple, Layout, parse_layout};
///
/// let l = parse_layout("((2,4),3):((1,6),2)")?;
/// assert_eq!((l.size(), l.rank(), l.depth(), l.cosize()?), (24, 2, 2, 24));
/// assert_eq!(l.eval(5)?, 13);                                   // index 5 is ((1,2),0)
/// assert_eq!(l.coord(5)?.to_string(), "((1,2),0)");
/// assert_eq!(l.mode(1)?.to_string(), "3:2");
/// assert_eq!(l.table()?[..6], [0, 1, 6, 7, 12, 13]);
/// // Built from parts; a shape and a stride that are not congruent are an error.
/// let m = Layout::new(IntTuple::from([4, 8]), IntTuple::from([8, 1]))?;
/// assert_eq!(m.to_string(), "(4,8):(8,1)");
/// assert!(Layout::new(IntTuple::from([4, 8]), IntTuple::Int(1)).is_err());
/// assert_eq!(Layout::from_flat(&[(4, 1), (3, 10)])?.to_string(), "(4,3):(1,10)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: IntTuple,
    stride: IntTuple,
}

impl Layout {
    /// The largest layout [`Layout::table`] enumerates.
    pub const TABLE_LIMIT: i64 = 1 << 26;

    /// `shape:stride`. Checks congruence, positive extents and that the size fits in 64 bits.
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        if !shape.congruent(&stride) {
            return Err(LayoutError::NotCongruent { shape: shape.to_string(), stride: stride.to_string() });
        }
        if let Some(&value) = shape.leaves().iter().find(|&&v| v <= 0) {
            return Err(LayoutError::NonPositiveShape { shape: shape.to_string(), value });
        }
        shape.product()?;
        Ok(Layout { shape, stride })
    }

    /// The compact column-major layout of a shape (CuTe's `make_layout(shape)`).
    pub fn column_major(shape: IntTuple) -> Result<Layout> {
        let stride = shape.compact_col_major()?;
        Layout::new(shape, stride)
    }

    /// The rank-1, depth-0 layout `s:d`.
    pub fn scalar(s: i64, d: i64) -> Result<Layout> {
        Layout::new(Int(s), Int(d))
    }

    /// Concatenation `(L0, L1, …)` (CuTe's `make_layout(L0, L1, …)`): always a tuple.
    /// The size is the product of the sizes and must fit in 64 bits.
    pub fn concat(modes: impl IntoIterator<Item = Layout>) -> Result<Layout> {
        let (shape, stride): (Vec<_>, Vec<_>) = modes.into_iter().map(|l| (l.shape, l.stride)).unzip();
        let shape = Tuple(shape);
        shape.product()?;
        Ok(Layout { shape, stride: Tuple(stride) })
    }

    /// A flat layout from `(shape, stride)` pairs: `1:0` when empty, a scalar layout for a
    /// single pair, a flat tuple otherwise.
    pub fn from_flat(modes: &[(i64, i64)]) -> Result<Layout> {
        match modes {
            [] => Layout::scalar(1, 0),
            [(s, d)] => Layout::scalar(*s, *d),
            _ => Layout::new(
                Tuple(modes.iter().map(|m| Int(m.0)).collect()),
                Tuple(modes.iter().map(|m| Int(m.1)).collect()),
            ),
        }
    }

    /// Builds a layout from parts already known to be valid (shared by the operations).
    pub(crate) fn from_parts(shape: IntTuple, stride: IntTuple) -> Layout {
        Layout { shape, stride }
    }

    /// The shape: the domain.
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride, congruent to the shape.
    pub fn stride(&self) -> &IntTuple {
        &self.stride
    }

    /// `|L|`, the number of elements of the domain.
    pub fn size(&self) -> i64 {
        // Checked at construction; every constructor keeps it representable.
        self.shape.product().unwrap_or(i64::MAX)
    }

    /// Top-level rank (a scalar layout has rank 1).
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// The nesting depth of the shape (0 for an integer).
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// `max offset + 1` over the domain (for non-negative strides, `L(|L|-1) + 1`).
    pub fn cosize(&self) -> Result<i64> {
        self.flat_modes().iter().try_fold(1i64, |acc, &(s, d)| checked::add(acc, checked::mul(s - 1, d.max(0))?))
    }

    /// The flattened `(shape, stride)` leaves, left to right.
    pub fn flat_modes(&self) -> Vec<(i64, i64)> {
        self.shape.leaves().into_iter().zip(self.stride.leaves()).collect()
    }

    /// Sub-layout `L_i` (a scalar layout is its own mode 0).
    pub fn mode(&self, i: usize) -> Result<Layout> {
        match (self.shape.mode(i), self.stride.mode(i)) {
            (Some(s), Some(d)) => Ok(Layout::from_parts(s.clone(), d.clone())),
            _ => Err(LayoutError::ModeOutOfRange { layout: self.to_string(), mode: i, rank: self.rank() }),
        }
    }

    /// The top-level modes as layouts.
    pub fn modes(&self) -> Vec<Layout> {
        self.shape.modes().into_iter().zip(self.stride.modes()).map(|(s, d)| Layout::from_parts(s, d)).collect()
    }

    /// The same function with all hierarchy removed (a scalar layout stays scalar).
    pub fn flatten(&self) -> Layout {
        Layout::from_parts(self.shape.flatten(), self.stride.flatten())
    }

    /// Groups modes `begin..end` into one mode (CuTe's `group<B,E>`).
    pub fn group(&self, begin: usize, end: usize) -> Result<Layout> {
        let modes = self.modes();
        if begin > end || end > modes.len() || begin == end {
            return Err(LayoutError::GroupRange { layout: self.to_string(), begin, end, rank: modes.len() });
        }
        let mut out: Vec<Layout> = modes[..begin].to_vec();
        out.push(Layout::concat(modes[begin..end].iter().cloned())?);
        out.extend(modes[end..].iter().cloned());
        Layout::concat(out)
    }

    /// `(L_0, …, L_{r-1}, other)`.
    pub fn append(&self, other: &Layout) -> Result<Layout> {
        Layout::concat(self.modes().into_iter().chain([other.clone()]))
    }

    /// `(other, L_0, …, L_{r-1})`.
    pub fn prepend(&self, other: &Layout) -> Result<Layout> {
        Layout::concat([other.clone()].into_iter().chain(self.modes()))
    }

    /// `L(i)` at an integer index. Indices past the size use the extended domain: the
    /// last mode is unbounded.
    pub fn eval(&self, i: i64) -> Result<i64> {
        if i < 0 {
            return Err(LayoutError::NegativeIndex { index: i });
        }
        inner_product(&Int(i), &self.shape, &self.stride)
    }

    /// `L(c)` at a coordinate weakly congruent to the shape (integer components stand for
    /// whole modes; out-of-bounds components follow the extended domain).
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<i64> {
        if let Some(&index) = crd.leaves().iter().find(|&&v| v < 0) {
            return Err(LayoutError::NegativeIndex { index });
        }
        inner_product(crd, &self.shape, &self.stride)
    }

    /// The natural coordinate of index `i` (colexicographic, last mode unbounded).
    pub fn coord(&self, i: i64) -> Result<IntTuple> {
        if i < 0 {
            return Err(LayoutError::NegativeIndex { index: i });
        }
        idx2crd(i, &self.shape)
    }

    /// `[L(0), …, L(|L|-1)]`, for layouts of at most [`Layout::TABLE_LIMIT`] elements.
    pub fn table(&self) -> Result<Vec<i64>> {
        if self.size() > Self::TABLE_LIMIT {
            return Err(LayoutError::TooLarge { size: self.size(), limit: Self::TABLE_LIMIT });
        }
        let modes = self.flat_modes();
        let mut out = Vec::with_capacity(usize::try_from(self.size()).unwrap_or(0));
        out.push(0i64);
        for (s, d) in modes {
            let len = out.len();
            for k in 1..s {
                let step = checked::mul(k, d)?;
                for j in 0..len {
                    out.push(checked::add(out[j], step)?);
                }
            }
        }
        Ok(out)
    }

    /// Whether every stride is non-negative.
    pub fn non_negative(&self) -> bool {
        self.stride.leaves().iter().all(|&d| d >= 0)
    }

    /// The error `op`, which needs non-negative strides, reports for this layout, if any;
    /// `right`: the layout is `op`'s right operand.
    pub(crate) fn require_non_negative(&self, op: Operation, right: bool) -> Result<()> {
        match self.stride.leaves().into_iter().find(|&d| d < 0) {
            Some(stride) => Err(LayoutError::NegativeStride { op, right, layout: self.to_string(), stride }),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Layout {
    /// Canonical notation `shape:stride`, e.g. `((2,4),3):((1,6),2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}
