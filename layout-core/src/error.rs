//! Errors of the algebra. Each variant names the violated condition, the operand and the
//! numbers, so a message can be read without the source at hand; operands are kept in
//! canonical notation.

use thiserror::Error;

use crate::operation::Operation;

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

    /// `right`: the layout is the operation's right operand (the message says so).
    #[error(
        "{op}{} needs non-negative strides, but `{layout}` has the stride {stride}",
        if *.right { " (right operand)" } else { "" }
    )]
    NegativeStride { op: Operation, right: bool, layout: String, stride: i64 },

    /// Not "not injective": `(2,2):(6,7)` (offsets 0, 6, 7, 13) is injective, yet its modes
    /// overlap, which is what the complement's construction cannot handle.
    #[error(
        "complement: the modes of `{layout}` overlap: its mode {shape}:{stride} starts at offset {stride}, inside \
         the extent {extent} spanned by its modes of smaller stride (up to {below}); the complement's construction \
         needs modes that do not overlap (each stride at least the extent shape × stride of the smaller ones)"
    )]
    ComplementOverlap { layout: String, shape: i64, stride: i64, extent: i64, below: String },

    #[error(
        "complement is not exact: the stride {stride} of `{layout}` is not a multiple of the extent {extent} \
         covered by its smaller strides, so (L, complement) cannot tile a contiguous range"
    )]
    ComplementNotExact { layout: String, stride: i64, extent: i64 },

    #[error(
        "complement: `{layout}` has only a weak complement (a stride is not a multiple of the extent below it), \
         and it falls short: (L, complement) ends at offset {last}, so it does not reach the cotarget {cotarget} \
         (CuTe's post-condition cosize((L, complement)) ≥ cotarget)"
    )]
    ComplementShort { layout: String, cotarget: i64, last: i64 },

    #[error("logical_product: the copies of `{lhs}` in its product with `{rhs}` are not disjoint: {detail}")]
    ProductCopiesOverlap { lhs: String, rhs: String, detail: String },

    #[error("the cotarget must be positive, got {cotarget}")]
    CotargetNotPositive { cotarget: i64 },

    #[error(
        "{op}: tiler `{tiler}` does not divide `{layout}`: (B, complement(B, {size})) has {star_size} elements, \
         so the last tile would overrun the {size} elements by {overrun}"
    )]
    TilerOverrun { op: Operation, tiler: String, layout: String, size: i64, star_size: i64, overrun: i64 },

    #[error("{op}: tiler `{tiler}` does not tile `{layout}`: {reason}")]
    TilerNotBijective { op: Operation, tiler: String, layout: String, reason: String },

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
    CastStride { op: Operation, layout: String, n: i64, stride: i64 },

    #[error(
        "{op}<{n}>: extent {shape} of `{layout}` neither divides nor is a multiple of {ratio} (divisibility condition)"
    )]
    CastShape { op: Operation, layout: String, n: i64, shape: i64, ratio: i64 },

    #[error("downcast<{n}>: `{layout}` has no stride-1 mode to split the {n} sub-elements over")]
    DowncastNoUnitStride { layout: String, n: i64 },

    #[error("{op}: the factor must be positive, got {n}")]
    FactorNotPositive { op: Operation, n: i64 },

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

    /// [`LayoutError::NotDistributive`] for A with coordinate or F2 strides: `values` holds
    /// the mode-wise value and `A(B(i))`, printed.
    #[error(
        "composition does not distribute over the modes of B = `{rhs}`: at index {index}, B gives {point} and \
         A = `{lhs}` maps that to {}, but the mode-wise composition gives {}",
        .values.1, .values.0
    )]
    NotDistributiveValues { lhs: String, rhs: String, index: i64, point: i64, values: Box<(String, String)> },

    #[error("`Sw<{bits},{base},{shift}>` is not a swizzle: {reason}")]
    SwizzleParams { bits: i64, base: i64, shift: i64, reason: &'static str },

    #[error("{op}: the swizzle of `{layout}` does not pass through `{inner}`: {reason}")]
    SwizzleNotCommuting { op: Operation, layout: String, inner: String, reason: String },

    #[error("{op} of a swizzled layout needs the offset 0, but `{layout}` has the offset {offset}")]
    SwizzledOffset { op: Operation, layout: String, offset: i64 },

    #[error(
        "a stride mixes codomains: `{a}` is {a_kind} and `{b}` is {b_kind}; the strides of a layout must all live \
         in one semimodule (§1)"
    )]
    MixedStrides { a: String, a_kind: &'static str, b: String, b_kind: &'static str },

    #[error(
        "concatenation is not admissible: `{a}` maps to {a_kind} and `{b}` to {b_kind}; the modes of a layout \
         must share one codomain (§3.1)"
    )]
    CodomainMismatch { a: String, a_kind: &'static str, b: String, b_kind: &'static str },

    #[error(
        "{op}: the stride `{stride}` of `{layout}` is a sum of basis elements; {op} needs every stride to be a \
         single scaled basis element `a@i` (§3.3, coordinate reduction)"
    )]
    BasisSum { op: Operation, layout: String, stride: String },

    #[error(
        "composition: B = `{rhs}` produces coordinates with a component {component}, but A = `{lhs}` has only \
         {rank} modes to take it"
    )]
    BasisComponent { lhs: String, rhs: String, component: usize, rank: usize },

    #[error("{op}: codomain component {component} of `{layout}`: {source}")]
    InComponent { op: Operation, layout: String, component: usize, source: Box<LayoutError> },

    #[error("the cotarget `{cotarget}` must have one extent per codomain component of `{layout}`, which has {rank}")]
    CotargetRank { layout: String, cotarget: String, rank: usize },

    #[error(
        "{op}: mode {mode} of `{layout}` has the extent {extent}, not a power of two; F2 strides only behave on \
         power-of-two modes (the carry-less scalar action is not associative, §1: 3·(3·f1) = f5 but 9·f1 = f9)"
    )]
    F2NotAligned { op: Operation, layout: String, mode: usize, extent: i64 },

    #[error(
        "{op}: the last mode {extent}:f{stride} of `{layout}` has an extent that is not a power of two, so its \
         stride must be a single bit above every bit the other modes reach (bit {reach} or higher)"
    )]
    F2Tail { op: Operation, layout: String, extent: i64, stride: i64, reach: u32 },

    #[error(
        "composition with F2 strides is not exact here: at index {index}, B = `{rhs}` gives {point} and \
         A = `{lhs}` maps it to {want}, but the mode-wise result gives {got}: the carry-less scalar action does not \
         agree with integer multiplication on this walk (§1)"
    )]
    F2Inexact { lhs: String, rhs: String, index: i64, point: i64, got: i64, want: i64 },

    #[error("a negative F2 stride f{stride} in `{layout}`: F2 strides are bit vectors, k ≥ 0")]
    F2Negative { layout: String, stride: i64 },

    #[error(
        "copy: the source `{src}` has {src_size} elements but the destination `{dst}` has {dst_size}; a copy needs equal sizes"
    )]
    CopySize { src: String, dst: String, src_size: i64, dst_size: i64 },

    #[error(
        "copy: the destination `{dst}` is not injective: indices {i} and {j} both write offset {offset}, so one \
         write would be lost"
    )]
    CopyNotInjective { dst: String, i: i64, j: i64, offset: i64 },

    #[error(
        "copy: cannot decide whether the destination `{dst}` is injective: its sorted strides overlap and its \
         {size} elements are more than the {limit} the check enumerates"
    )]
    CopyInjectivityUnknown { dst: String, size: i64, limit: i64 },

    #[error(
        "gemm needs A = `{a}` (M,K), B = `{b}` (N,K) and C = `{c}` (M,N), each of rank 2, or 3 with a batch \
         mode L last in all three"
    )]
    GemmRank { a: String, b: String, c: String },

    #[error(
        "gemm: the extents of {dim} differ: {lhs} has {lhs_size} and {rhs} has {rhs_size} (A is (M,K), B is (N,K), \
         C is (M,N))"
    )]
    GemmExtent { dim: &'static str, lhs: &'static str, lhs_size: i64, rhs: &'static str, rhs_size: i64 },

    #[error(
        "gemm: the modes that carry {dim} have no common refinement (a mode boundary of one operand falls inside \
         a mode of another off-step): A = `{a}`, B = `{b}`, C = `{c}`"
    )]
    GemmRefinement { dim: &'static str, a: String, b: String, c: String },

    #[error("gemm: C = `{c}` is not injective: indices {i} and {j} both write offset {offset}")]
    GemmNotInjective { c: String, i: i64, j: i64, offset: i64 },
}

impl LayoutError {
    /// [`LayoutError::TooManyModes`]: a by-mode argument (`what`: a tiler or profile) of rank
    /// `arg_rank` for a layout of smaller rank `rank`. The one place this error is built.
    pub(crate) fn too_many_modes(
        what: &'static str,
        arg: &dyn std::fmt::Display,
        arg_rank: usize,
        layout: &dyn std::fmt::Display,
        rank: usize,
    ) -> LayoutError {
        LayoutError::TooManyModes { what, arg: arg.to_string(), arg_rank, layout: layout.to_string(), rank }
    }

    /// The operand responsible for the error. Exhaustive: a new variant must say whom it
    /// blames.
    pub fn blame(&self) -> Blame {
        use LayoutError::*;
        match self {
            Overflow { .. } | NotDistributive { .. } | NotDistributiveValues { .. } => Blame::Whole,
            SwizzleParams { .. } | MixedStrides { .. } | CodomainMismatch { .. } | F2Inexact { .. } => Blame::Whole,
            CopySize { .. } => Blame::Whole,
            GemmRank { .. } | GemmExtent { .. } | GemmRefinement { .. } => Blame::Whole,
            BasisComponent { .. } | CotargetRank { .. } => Blame::Rhs,
            BasisSum { op: Operation::Composition, .. } => Blame::Rhs,
            NegativeStride { right: true, .. } => Blame::Rhs,
            StrideDivisibility { .. } | ShapeDivisibility { .. } => Blame::Rhs,
            TooManyModes { .. } | TilerOverrun { .. } | TilerNotBijective { .. } => Blame::Rhs,
            CotargetNotPositive { .. } | FactorNotPositive { .. } | OrderProfile { .. } => Blame::Rhs,
            TileDoesNotDivide { .. } | WithShapeSize { .. } => Blame::Rhs,
            // `eval(A, (1,2,3))`, `slice(A, c)`: the coordinate is at fault, not the layout.
            CoordinateRank { .. } => Blame::Rhs,
            CopyNotInjective { .. } | CopyInjectivityUnknown { .. } => Blame::Rhs,
            GemmNotInjective { .. } => Blame::Rhs,
            NonPositiveShape { .. } | NotCongruent { .. } | NegativeIndex { .. } => Blame::Lhs,
            ModeOutOfRange { .. } | GroupRange { .. } | TileRank { .. } | TooLarge { .. } => Blame::Lhs,
            NegativeStride { right: false, .. } | BasisSum { .. } | InComponent { .. } => Blame::Lhs,
            ComplementOverlap { .. } | ComplementNotExact { .. } | ComplementShort { .. } => Blame::Lhs,
            ProductCopiesOverlap { .. } | LeftInverseDivisibility { .. } | LeftInverseOverlap { .. } => Blame::Lhs,
            CastStride { .. } | CastShape { .. } | DowncastNoUnitStride { .. } => Blame::Lhs,
            SwizzleNotCommuting { .. } | SwizzledOffset { .. } => Blame::Lhs,
            F2NotAligned { .. } | F2Tail { .. } | F2Negative { .. } => Blame::Lhs,
        }
    }

    /// A suggested fix, where one can be given.
    pub fn help(&self) -> Option<String> {
        use LayoutError::*;
        match self {
            CopyNotInjective { .. } | CopyInjectivityUnknown { .. } => Some(
                "write `copy(SRC, DST, overlapping)` to copy in index order, the last write of each destination \
                 element winning"
                    .into(),
            ),
            CopySize { src_size, dst_size, .. } => Some(format!(
                "tile or slice one side so both have the same number of elements ({src_size} ≠ {dst_size})"
            )),
            StrideDivisibility { boundary, .. } => Some(format!(
                "choose a stride that divides, or is a multiple of, {boundary}, or reshape the left operand so \
                 that its mode boundaries fall on the walk"
            )),
            ShapeDivisibility { fit, remaining, .. } => Some(format!(
                "let the walk cover a multiple of {fit} elements there (for example {} instead of {remaining}), \
                 or at most {fit}",
                crate::checked::ceil_div(*remaining, *fit).saturating_mul(*fit)
            )),
            NotDistributive { .. } | NotDistributiveValues { .. } => {
                Some("compose with each mode separately, or use a tiler `[...]` to compose mode by mode".into())
            }
            SwizzleParams { .. } => {
                Some("a swizzle `Sw<B,M,S>` needs B ≥ 0, M ≥ 0, |S| ≥ B and B + M + |S| ≤ 62".into())
            }
            BasisSum { .. } => Some("split the sum into separate modes, one basis element each".into()),
            F2NotAligned { .. } | F2Tail { .. } | F2Inexact { .. } => {
                Some("write the layout with power-of-two modes, or as a swizzled integer layout `Sw<B,M,S> o L`".into())
            }
            InComponent { source, .. } => source.help(),
            TilerOverrun { size, star_size, .. } => Some(format!(
                "use a tiler whose size divides {size} (the tiles and their complement must cover exactly {size}, \
                 not {star_size})"
            )),
            ComplementNotExact { .. } => {
                Some("make each stride a multiple of the extent the smaller modes cover (shape × stride)".into())
            }
            ComplementOverlap { .. } => {
                Some("remove or reorder the overlapping mode, or filter the layout first".into())
            }
            NegativeStride { .. } => Some("reverse the mode with a positive stride instead".into()),
            TooManyModes { rank, .. } => Some(format!("give at most {rank} modes")),
            LeftInverseDivisibility { .. } => {
                Some("use right_inverse, which needs no divisibility, if a partial inverse is enough".into())
            }
            _ => None,
        }
    }
}
