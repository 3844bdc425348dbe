//! Errors of the algebra. Each variant names the violated condition, the operand and the
//! numbers, so a message can be read without the source at hand; operands are kept in
//! canonical notation.

use thiserror::Error;

/// The result type of every fallible operation of the algebra.
pub type Result<T, E = LayoutError> = std::result::Result<T, E>;

/// Which operand of an operation an error is about: the macro and the CLI point there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The first argument (the layout being operated on).
    Lhs,
    /// The second argument (the tiler, cotarget, profile, ...).
    Rhs,
    /// The whole expression.
    Whole,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LayoutError {
    #[error("integer overflow: {a} {op} {b} does not fit in 64 bits")]
    Overflow { a: i64, op: char, b: i64 },

    #[error("shape `{shape}` has the extent {value}; every extent of a shape must be positive")]
    NonPositiveShape { shape: String, value: i64 },

    #[error("shape `{shape}` and stride `{stride}` are not congruent: they must have the same profile")]
    NotCongruent { shape: String, stride: String },

    #[error("coordinate `{coord}` is not weakly congruent to shape `{shape}`")]
    CoordinateRank { coord: String, shape: String },

    #[error("index {index} is negative; indices start at 0")]
    NegativeIndex { index: i64 },

    #[error("mode {mode} does not exist: `{layout}` has rank {rank}")]
    ModeOutOfRange { layout: String, mode: usize, rank: usize },

    #[error("group({begin}, {end}) is not a valid range of modes of `{layout}` (rank {rank})")]
    GroupRange { layout: String, begin: usize, end: usize, rank: usize },

    #[error("{what} `{arg}` has {arg_rank} modes but `{layout}` has only {rank}")]
    TooManyModes { what: &'static str, arg: String, arg_rank: usize, layout: String, rank: usize },

    #[error(
        "composition is not admissible: stride divisibility (Eq. 20) fails: the walk 0, {stride}, …, {walk_end} \
         of `{rhs}` crosses the boundary of mode {mode} of `{lhs}` at {boundary} off-step \
         ({stride} neither divides nor is a multiple of {boundary})"
    )]
    StrideDivisibility { lhs: String, rhs: String, mode: usize, stride: i64, walk_end: i64, boundary: i64 },

    #[error(
        "composition is not admissible: shape divisibility (Eq. 21) fails: {remaining} elements of `{rhs}` \
         remain when its walk reaches mode {mode} of `{lhs}`, {fit} of them fit before the mode's boundary at \
         {boundary}, and {fit} does not divide {remaining}"
    )]
    ShapeDivisibility { lhs: String, rhs: String, mode: usize, remaining: i64, fit: i64, boundary: i64 },

    #[error(
        "composition does not distribute over the modes of B = `{rhs}`: at index {index}, B gives {point} and \
         A = `{lhs}` maps that to {want}, but the mode-wise composition gives {got}"
    )]
    NotDistributive { lhs: String, rhs: String, index: i64, point: i64, got: i64, want: i64 },

    #[error("{op} needs non-negative strides, but `{layout}` has the stride {stride}")]
    NegativeStride { op: &'static str, layout: String, stride: i64 },

    #[error(
        "complement: `{layout}` is not injective: its mode {shape}:{stride} starts inside the extent {extent} \
         already covered by its smaller strides"
    )]
    ComplementNotInjective { layout: String, shape: i64, stride: i64, extent: i64 },

    #[error(
        "complement is not exact: the stride {stride} of `{layout}` is not a multiple of the extent {extent} \
         covered by its smaller strides, so (L, complement) cannot tile a contiguous range"
    )]
    ComplementNotExact { layout: String, stride: i64, extent: i64 },

    #[error("the cotarget must be positive, got {cotarget}")]
    CotargetNotPositive { cotarget: i64 },

    #[error(
        "{op}: tiler `{tiler}` does not divide `{layout}`: (B, complement(B, {size})) has {star_size} elements, \
         so the last tile would overrun the {size} elements by {overrun}"
    )]
    TilerOverrun { op: &'static str, tiler: String, layout: String, size: i64, star_size: i64, overrun: i64 },

    #[error("{op}: tiler `{tiler}` does not tile `{layout}`: {reason}")]
    TilerNotBijective { op: &'static str, tiler: String, layout: String, reason: String },

    #[error(
        "left inverse: `{layout}` has sorted strides {lower} and {upper}, and {upper} is not a multiple of {lower} \
         (left inverse divisibility condition)"
    )]
    LeftInverseDivisibility { layout: String, lower: i64, upper: i64 },

    #[error(
        "left inverse: `{layout}` is not injective apart from its broadcast modes: mode {shape}:{stride} \
         reaches {reach}, past the next stride {next}"
    )]
    LeftInverseOverlap { layout: String, shape: i64, stride: i64, reach: i64, next: i64 },

    #[error(
        "{op}<{n}>: stride {stride} of `{layout}` neither divides nor is a multiple of {n} (divisibility condition)"
    )]
    CastStride { op: &'static str, layout: String, n: i64, stride: i64 },

    #[error(
        "{op}<{n}>: extent {shape} of `{layout}` neither divides nor is a multiple of {ratio} (divisibility condition)"
    )]
    CastShape { op: &'static str, layout: String, n: i64, shape: i64, ratio: i64 },

    #[error("downcast<{n}>: `{layout}` has no stride-1 mode to split the {n} sub-elements over")]
    DowncastNoUnitStride { layout: String, n: i64 },

    #[error("{op}: the factor must be positive, got {n}")]
    FactorNotPositive { op: &'static str, n: i64 },

    #[error("tile_to_shape: `{block}` has rank {block_rank}, more than the rank {rank} of the target shape `{shape}`")]
    TileRank { block: String, block_rank: usize, shape: String, rank: usize },

    #[error(
        "tile_to_shape: block shape does not divide the target shape: mode {mode} of `{block}` has {block_size} \
         elements, which does not divide {target} of `{shape}`"
    )]
    TileDoesNotDivide { block: String, shape: String, mode: usize, block_size: i64, target: i64 },

    #[error("the order `{order}` is not weakly congruent to the shape `{shape}`")]
    OrderProfile { shape: String, order: String },

    #[error("`{size}` elements are too many to enumerate (the limit is {limit})")]
    TooLarge { size: i64, limit: i64 },

    #[error("with_shape: `{shape}` has {shape_size} elements but `{layout}` has {size}")]
    WithShapeSize { layout: String, shape: String, shape_size: i64, size: i64 },
}

impl LayoutError {
    /// The operand responsible for the error.
    pub fn blame(&self) -> Blame {
        use LayoutError::*;
        match self {
            Overflow { .. } | NotDistributive { .. } => Blame::Whole,
            StrideDivisibility { .. } | ShapeDivisibility { .. } => Blame::Rhs,
            TooManyModes { .. } | TilerOverrun { .. } | TilerNotBijective { .. } => Blame::Rhs,
            CotargetNotPositive { .. } | FactorNotPositive { .. } | OrderProfile { .. } => Blame::Rhs,
            TileDoesNotDivide { .. } | WithShapeSize { .. } => Blame::Rhs,
            _ => Blame::Lhs,
        }
    }

    /// A suggested fix, where one can be given.
    pub fn help(&self) -> Option<String> {
        use LayoutError::*;
        match self {
            StrideDivisibility { boundary, .. } => Some(format!(
                "choose a stride that divides, or is a multiple of, {boundary}, or reshape the left operand so \
                 that its mode boundaries fall on the walk"
            )),
            ShapeDivisibility { fit, remaining, .. } => Some(format!(
                "let the walk cover a multiple of {fit} elements there (for example {} instead of {remaining}), \
                 or at most {fit}",
                crate::checked::ceil_div(*remaining, *fit).saturating_mul(*fit)
            )),
            NotDistributive { .. } => {
                Some("compose with each mode separately, or use a tiler `[...]` to compose mode by mode".into())
            }
            TilerOverrun { size, star_size, .. } => Some(format!(
                "use a tiler whose size divides {size} (the tiles and their complement must cover exactly {size}, \
                 not {star_size})"
            )),
            ComplementNotExact { .. } => {
                Some("make each stride a multiple of the extent the smaller modes cover (shape × stride)".into())
            }
            ComplementNotInjective { .. } => Some("remove the overlapping mode, or filter the layout first".into()),
            NegativeStride { .. } => Some("reverse the mode with a positive stride instead".into()),
            TooManyModes { rank, .. } => Some(format!("give at most {rank} modes")),
            LeftInverseDivisibility { .. } => {
                Some("use right_inverse, which needs no divisibility, if a partial inverse is enough".into())
            }
            _ => None,
        }
    }
}
