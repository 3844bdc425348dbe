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

/// An error of the algebra: the violated condition with its operands and numbers.
///
/// ```
/// use layout_core::{Blame, LayoutError, logical_divide, parse_layout};
///
/// let e = logical_divide(&parse_layout("24:1")?, &parse_layout("5:1")?).unwrap_err();
/// assert!(matches!(e, LayoutError::TilerOverrun { .. }), "{e:?}");
/// assert!(e.to_string().contains("does not divide"));
/// assert_eq!(e.blame(), Blame::Rhs);                 // the macro puts the error on the tiler
/// assert!(e.help().is_some_and(|h| h.contains("divides 24")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LayoutError {
    /// An intermediate value of the algebra does not fit in an `i64`: overflow is an error, never a
    /// wrap-around.
    #[error("integer overflow: {a} {op} {b} does not fit in 64 bits")]
    Overflow {
        /// The left operand of the operation that overflowed.
        a: i64,
        /// The operator.
        op: char,
        /// The right operand.
        b: i64,
    },

    /// A shape has an extent of zero or less.
    #[error("shape `{shape}` has the extent {value}; every extent of a shape must be positive")]
    NonPositiveShape {
        /// The shape, in canonical notation.
        shape: String,
        /// The non-positive extent.
        value: i64,
    },

    /// A shape and a stride of different profiles (nesting).
    #[error("shape `{shape}` and stride `{stride}` are not congruent: they must have the same profile")]
    NotCongruent {
        /// The shape, in canonical notation.
        shape: String,
        /// The stride, in canonical notation.
        stride: String,
    },

    /// A coordinate that is not weakly congruent to the shape it indexes.
    #[error("coordinate `{coord}` is not weakly congruent to shape `{shape}`")]
    CoordinateRank {
        /// The coordinate, in notation.
        coord: String,
        /// The shape, in canonical notation.
        shape: String,
    },

    /// A negative linear index.
    #[error("index {index} is negative; indices start at 0")]
    NegativeIndex {
        /// The index.
        index: i64,
    },

    /// A mode index at or past the rank of the layout.
    #[error("mode {mode} does not exist: `{layout}` has rank {rank}")]
    ModeOutOfRange {
        /// The layout, in canonical notation.
        layout: String,
        /// The mode asked for.
        mode: usize,
        /// The rank (number of top-level modes).
        rank: usize,
    },

    /// `group(begin, end)` with a range of modes the layout does not have.
    #[error("group({begin}, {end}) is not a valid range of modes of `{layout}` (rank {rank})")]
    GroupRange {
        /// The layout, in canonical notation.
        layout: String,
        /// The first mode of the group.
        begin: usize,
        /// One past the last mode of the group.
        end: usize,
        /// The rank (number of top-level modes).
        rank: usize,
    },

    /// A by-mode argument (tiler, profile) with more modes than the layout it applies to.
    #[error("{what} `{arg}` has {arg_rank} modes but `{layout}` has only {rank}")]
    TooManyModes {
        /// What the argument is (`tiler`, `profile`, ...).
        what: &'static str,
        /// The argument, in notation.
        arg: String,
        /// The argument's number of modes.
        arg_rank: usize,
        /// The layout, in canonical notation.
        layout: String,
        /// The layout's rank.
        rank: usize,
    },

    /// Composition: the stride of B's walk crosses a mode boundary of A off-step (stride
    /// divisibility, Eq. 20 of the walk condition).
    #[error(
        "composition is not admissible: stride divisibility (Eq. 20) fails: the walk 0, {stride}, …, {walk_end} \
         of `{rhs}` crosses the boundary of mode {mode} of `{lhs}` at {boundary} off-step \
         ({stride} neither divides nor is a multiple of {boundary})"
    )]
    StrideDivisibility {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The mode of A whose boundary is crossed.
        mode: usize,
        /// The stride of B's walk.
        stride: i64,
        /// The last point of the walk.
        walk_end: i64,
        /// The boundary (the mode's extent in A's walk).
        boundary: i64,
    },

    /// Composition: the elements B's walk has left do not fit a mode of A a whole number of times.
    #[error(
        "composition is not admissible: shape divisibility (Eq. 21) fails: {remaining} elements of `{rhs}` \
         remain when its walk reaches mode {mode} of `{lhs}`, {fit} of them fit before the mode's boundary at \
         {boundary}, and {fit} does not divide {remaining}"
    )]
    ShapeDivisibility {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The mode of A the walk reaches.
        mode: usize,
        /// Elements of B's walk still to place.
        remaining: i64,
        /// How many of them fit before the mode's boundary.
        fit: i64,
        /// The mode's boundary.
        boundary: i64,
    },

    /// Composition: B's modes cannot be composed one by one (the mode-wise result differs from
    /// `A(B(i))`).
    #[error(
        "composition does not distribute over the modes of B = `{rhs}`: at index {index}, B gives {point} and \
         A = `{lhs}` maps that to {want}, but the mode-wise composition gives {got}"
    )]
    NotDistributive {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The linear index.
        index: i64,
        /// What B gives at the index.
        point: i64,
        /// The mode-wise composition's value.
        got: i64,
        /// `A(B(index))`.
        want: i64,
    },

    /// `right`: the layout is the operation's right operand (the message says so).
    #[error(
        "{op}{} needs non-negative strides, but `{layout}` has the stride {stride}",
        if *.right { " (right operand)" } else { "" }
    )]
    NegativeStride {
        /// The operation that failed.
        op: Operation,
        /// Whether the layout is the right operand.
        right: bool,
        /// The layout, in canonical notation.
        layout: String,
        /// The negative stride.
        stride: i64,
    },

    /// Complement: two modes of the layout overlap.
    /// Not "not injective": `(2,2):(6,7)` (offsets 0, 6, 7, 13) is injective, yet its modes
    /// overlap, which is what the complement's construction cannot handle.
    #[error(
        "complement: the modes of `{layout}` overlap: its mode {shape}:{stride} starts at offset {stride}, inside \
         the extent {extent} spanned by its modes of smaller stride (up to {below}); the complement's construction \
         needs modes that do not overlap (each stride at least the extent shape × stride of the smaller ones)"
    )]
    ComplementOverlap {
        /// The layout, in canonical notation.
        layout: String,
        /// The extent of the overlapping mode.
        shape: i64,
        /// The stride of the overlapping mode.
        stride: i64,
        /// The extent the smaller modes span.
        extent: i64,
        /// The smaller modes, printed.
        below: String,
    },

    /// Complement: a stride is not a multiple of the extent its smaller modes cover (only a weak
    /// complement exists, which this project rejects).
    #[error(
        "complement is not exact: the stride {stride} of `{layout}` is not a multiple of the extent {extent} \
         covered by its smaller strides, so (L, complement) cannot tile a contiguous range"
    )]
    ComplementNotExact {
        /// The layout, in canonical notation.
        layout: String,
        /// The stride that is not a multiple.
        stride: i64,
        /// The extent covered by the smaller strides.
        extent: i64,
    },

    /// Complement: the weak complement does not reach the cotarget.
    #[error(
        "complement: `{layout}` has only a weak complement (a stride is not a multiple of the extent below it), \
         and it falls short: (L, complement) ends at offset {last}, so it does not reach the cotarget {cotarget} \
         (CuTe's post-condition cosize((L, complement)) ≥ cotarget)"
    )]
    ComplementShort {
        /// The layout, in canonical notation.
        layout: String,
        /// The cotarget it should reach.
        cotarget: i64,
        /// The last offset (L, complement) reaches.
        last: i64,
    },

    /// Logical product: the copies of A placed by B overlap.
    #[error("logical_product: the copies of `{lhs}` in its product with `{rhs}` are not disjoint: {detail}")]
    ProductCopiesOverlap {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// Where they overlap, in words.
        detail: String,
    },

    /// A cotarget (the size a complement completes to) of zero or less.
    #[error("the cotarget must be positive, got {cotarget}")]
    CotargetNotPositive {
        /// The cotarget given.
        cotarget: i64,
    },

    /// Divide or product: the tiler and its complement cover more than the layout's size (the tiles
    /// do not divide it exactly).
    #[error(
        "{op}: tiler `{tiler}` does not divide `{layout}`: (B, complement(B, {size})) has {star_size} elements, \
         so the last tile would overrun the {size} elements by {overrun}"
    )]
    TilerOverrun {
        /// The operation that failed.
        op: Operation,
        /// The tiler, in notation.
        tiler: String,
        /// The layout, in canonical notation.
        layout: String,
        /// The layout's size.
        size: i64,
        /// The size of (B, complement(B, size)).
        star_size: i64,
        /// By how much the last tile overruns.
        overrun: i64,
    },

    /// Divide or product: the tiler does not tile the layout one to one.
    #[error("{op}: tiler `{tiler}` does not tile `{layout}`: {reason}")]
    TilerNotBijective {
        /// The operation that failed.
        op: Operation,
        /// The tiler, in notation.
        tiler: String,
        /// The layout, in canonical notation.
        layout: String,
        /// Why, in words.
        reason: String,
    },

    /// Left inverse: a sorted stride is not a multiple of the previous one.
    #[error(
        "left inverse: `{layout}` has sorted strides {lower} and {upper}, and {upper} is not a multiple of {lower} \
         (left inverse divisibility condition)"
    )]
    LeftInverseDivisibility {
        /// The layout, in canonical notation.
        layout: String,
        /// The smaller stride.
        lower: i64,
        /// The next stride, not a multiple of it.
        upper: i64,
    },

    /// Left inverse: the layout is not injective apart from its broadcast modes.
    #[error(
        "left inverse: `{layout}` is not injective apart from its broadcast modes: mode {shape}:{stride} \
         reaches {reach}, past the next stride {next}"
    )]
    LeftInverseOverlap {
        /// The layout, in canonical notation.
        layout: String,
        /// The extent of the overlapping mode.
        shape: i64,
        /// Its stride.
        stride: i64,
        /// The offset the mode reaches.
        reach: i64,
        /// The next stride.
        next: i64,
    },

    /// Upcast or downcast: a stride neither divides nor is a multiple of the factor.
    #[error(
        "{op}<{n}>: stride {stride} of `{layout}` neither divides nor is a multiple of {n} (divisibility condition)"
    )]
    CastStride {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The factor.
        n: i64,
        /// The offending stride.
        stride: i64,
    },

    /// Upcast or downcast: an extent neither divides nor is a multiple of the ratio.
    #[error(
        "{op}<{n}>: extent {shape} of `{layout}` neither divides nor is a multiple of {ratio} (divisibility condition)"
    )]
    CastShape {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The factor.
        n: i64,
        /// The offending extent.
        shape: i64,
        /// The ratio the extent is checked against.
        ratio: i64,
    },

    /// Downcast: no stride-1 mode to split the sub-elements over.
    #[error("downcast<{n}>: `{layout}` has no stride-1 mode to split the {n} sub-elements over")]
    DowncastNoUnitStride {
        /// The layout, in canonical notation.
        layout: String,
        /// The factor.
        n: i64,
    },

    /// A cast factor of zero or less.
    #[error("{op}: the factor must be positive, got {n}")]
    FactorNotPositive {
        /// The operation that failed.
        op: Operation,
        /// The factor given.
        n: i64,
    },

    /// `tile_to_shape`: the block has more modes than the target shape.
    #[error("tile_to_shape: `{block}` has rank {block_rank}, more than the rank {rank} of the target shape `{shape}`")]
    TileRank {
        /// The block layout, in notation.
        block: String,
        /// The block's rank.
        block_rank: usize,
        /// The target shape, in notation.
        shape: String,
        /// The target shape's rank.
        rank: usize,
    },

    /// `tile_to_shape`: a mode of the block does not divide the target shape's mode.
    #[error(
        "tile_to_shape: block shape does not divide the target shape: mode {mode} of `{block}` has {block_size} \
         elements, which does not divide {target} of `{shape}`"
    )]
    TileDoesNotDivide {
        /// The block layout, in notation.
        block: String,
        /// The target shape, in notation.
        shape: String,
        /// The index of the mode.
        mode: usize,
        /// The size of the block's mode.
        block_size: i64,
        /// The size of the target's mode.
        target: i64,
    },

    /// An order (as in `make_ordered_layout`) that is not weakly congruent to the shape.
    #[error("the order `{order}` is not weakly congruent to the shape `{shape}`")]
    OrderProfile {
        /// The shape, in canonical notation.
        shape: String,
        /// The order, in notation.
        order: String,
    },

    /// A layout too large to enumerate element by element.
    #[error("`{size}` elements are too many to enumerate (the limit is {limit})")]
    TooLarge {
        /// The layout's size.
        size: i64,
        /// The largest size that is enumerated.
        limit: i64,
    },

    /// `with_shape`: the new shape and the layout have different sizes.
    #[error("with_shape: `{shape}` has {shape_size} elements but `{layout}` has {size}")]
    WithShapeSize {
        /// The layout, in canonical notation.
        layout: String,
        /// The new shape, in notation.
        shape: String,
        /// The new shape's size.
        shape_size: i64,
        /// The layout's size.
        size: i64,
    },

    /// [`LayoutError::NotDistributive`] for A with coordinate or F2 strides: `values` holds
    /// the mode-wise value and `A(B(i))`, printed.
    #[error(
        "composition does not distribute over the modes of B = `{rhs}`: at index {index}, B gives {point} and \
         A = `{lhs}` maps that to {}, but the mode-wise composition gives {}",
        .values.1, .values.0
    )]
    NotDistributiveValues {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The linear index.
        index: i64,
        /// What B gives at the index.
        point: i64,
        /// The mode-wise value and `A(B(index))`, printed.
        values: Box<(String, String)>,
    },

    /// Swizzle parameters that do not make a swizzle.
    #[error("`Sw<{bits},{base},{shift}>` is not a swizzle: {reason}")]
    SwizzleParams {
        /// B: the number of bits.
        bits: i64,
        /// M: the base (least significant bits kept).
        base: i64,
        /// S: the shift.
        shift: i64,
        /// Why, in words.
        reason: &'static str,
    },

    /// The swizzle of a swizzled layout does not pass through the other operand of the operation.
    #[error("{op}: the swizzle of `{layout}` does not pass through `{inner}`: {reason}")]
    SwizzleNotCommuting {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The other operand, in notation.
        inner: String,
        /// Why, in words.
        reason: String,
    },

    /// An operation on a swizzled layout that needs the offset 0.
    #[error("{op} of a swizzled layout needs the offset 0, but `{layout}` has the offset {offset}")]
    SwizzledOffset {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The layout's offset.
        offset: i64,
    },

    /// Strides of one layout in different semimodules (integers, coordinates, F2).
    #[error(
        "a stride mixes codomains: `{a}` is {a_kind} and `{b}` is {b_kind}; the strides of a layout must all live \
         in one semimodule (paper §1)"
    )]
    MixedStrides {
        /// One stride.
        a: String,
        /// Its kind.
        a_kind: &'static str,
        /// Another stride.
        b: String,
        /// Its kind.
        b_kind: &'static str,
    },

    /// A concatenation of layouts with different codomains.
    #[error(
        "concatenation is not admissible: `{a}` maps to {a_kind} and `{b}` to {b_kind}; the modes of a layout \
         must share one codomain (paper §3.1)"
    )]
    CodomainMismatch {
        /// One layout.
        a: String,
        /// Its codomain.
        a_kind: &'static str,
        /// The other layout.
        b: String,
        /// Its codomain.
        b_kind: &'static str,
    },

    /// A coordinate stride that is a sum of basis elements where one scaled basis element is
    /// needed.
    #[error(
        "{op}: the stride `{stride}` of `{layout}` is a sum of basis elements; {op} needs every stride to be a \
         single scaled basis element `a@i` (paper §3.3, coordinate reduction)"
    )]
    BasisSum {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The stride, in notation.
        stride: String,
    },

    /// Composition: B produces a coordinate component that A has no mode for.
    #[error(
        "composition: B = `{rhs}` produces coordinates with a component {component}, but A = `{lhs}` has only \
         {rank} modes to take it"
    )]
    BasisComponent {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The component B produces.
        component: usize,
        /// The rank of A.
        rank: usize,
    },

    /// An error in one codomain component of a coordinate layout.
    #[error("{op}: codomain component {component} of `{layout}`: {source}")]
    InComponent {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The codomain component.
        component: usize,
        /// The error in that component.
        source: Box<LayoutError>,
    },

    /// A cotarget with a different number of extents than the layout's codomain components.
    #[error("the cotarget `{cotarget}` must have one extent per codomain component of `{layout}`, which has {rank}")]
    CotargetRank {
        /// The layout, in canonical notation.
        layout: String,
        /// The cotarget, in notation.
        cotarget: String,
        /// The number of codomain components.
        rank: usize,
    },

    /// An F2 layout with a mode whose extent is not a power of two.
    #[error(
        "{op}: mode {mode} of `{layout}` has the extent {extent}, not a power of two; F2 strides only behave on \
         power-of-two modes (the carry-less scalar action is not associative, paper §1: 3·(3·f1) = f5 but 9·f1 = f9)"
    )]
    F2NotAligned {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The index of the mode.
        mode: usize,
        /// The extent, not a power of two.
        extent: i64,
    },

    /// An F2 layout whose last, non-power-of-two mode has a stride that is not a single high bit.
    #[error(
        "{op}: the last mode {extent}:f{stride} of `{layout}` has an extent that is not a power of two, so its \
         stride must be a single bit above every bit the other modes reach (bit {reach} or higher)"
    )]
    F2Tail {
        /// The operation that failed.
        op: Operation,
        /// The layout, in canonical notation.
        layout: String,
        /// The last mode's extent.
        extent: i64,
        /// The last mode's stride (a bit vector).
        stride: i64,
        /// The lowest bit the stride may use.
        reach: u32,
    },

    /// Composition with F2 strides where the carry-less action differs from integer multiplication
    /// on the walk.
    #[error(
        "composition with F2 strides is not exact here: at index {index}, B = `{rhs}` gives {point} and \
         A = `{lhs}` maps it to {want}, but the mode-wise result gives {got}: the carry-less scalar action does not \
         agree with integer multiplication on this walk (paper §1)"
    )]
    F2Inexact {
        /// The left operand A, in canonical notation.
        lhs: String,
        /// The right operand B, in canonical notation.
        rhs: String,
        /// The linear index.
        index: i64,
        /// What B gives at the index.
        point: i64,
        /// The mode-wise composition's value.
        got: i64,
        /// `A(B(index))`.
        want: i64,
    },

    /// A negative F2 stride.
    #[error("a negative F2 stride f{stride} in `{layout}`: F2 strides are bit vectors, k ≥ 0")]
    F2Negative {
        /// The layout, in canonical notation.
        layout: String,
        /// The negative stride.
        stride: i64,
    },

    /// `copy(SRC, DST)` with layouts of different sizes.
    #[error(
        "copy: the source `{src}` has {src_size} elements but the destination `{dst}` has {dst_size}; a copy needs equal sizes"
    )]
    CopySize {
        /// The source layout, in notation.
        src: String,
        /// The destination layout, in notation.
        dst: String,
        /// The source's size.
        src_size: i64,
        /// The destination's size.
        dst_size: i64,
    },

    /// `copy(SRC, DST)` whose destination writes one offset twice.
    #[error(
        "copy: the destination `{dst}` is not injective: indices {i} and {j} both write offset {offset}, so one \
         write would be lost"
    )]
    CopyNotInjective {
        /// The destination layout, in notation.
        dst: String,
        /// The first index.
        i: i64,
        /// The second index.
        j: i64,
        /// The offset both write.
        offset: i64,
    },

    /// `copy(SRC, DST)` whose destination is too large to check for injectivity.
    #[error(
        "copy: cannot decide whether the destination `{dst}` is injective: its sorted strides overlap and its \
         {size} elements are more than the {limit} the check enumerates"
    )]
    CopyInjectivityUnknown {
        /// The destination layout, in notation.
        dst: String,
        /// The destination's size.
        size: i64,
        /// The largest size that is enumerated.
        limit: i64,
    },

    /// `gemm` with layouts that are not all of rank 2 (or all of rank 3 with a batch mode).
    #[error(
        "gemm needs A = `{a}` (M,K), B = `{b}` (N,K) and C = `{c}` (M,N), each of rank 2, or 3 with a batch \
         mode L last in all three"
    )]
    GemmRank {
        /// A, in notation.
        a: String,
        /// B, in notation.
        b: String,
        /// C, in notation.
        c: String,
    },

    /// `gemm` with operands whose M, N, K or L extents differ.
    #[error(
        "gemm: the extents of {dim} differ: {lhs} has {lhs_size} and {rhs} has {rhs_size} (A is (M,K), B is (N,K), \
         C is (M,N))"
    )]
    GemmExtent {
        /// The dimension: `M`, `N`, `K` or `L`.
        dim: &'static str,
        /// One operand's name.
        lhs: &'static str,
        /// Its extent.
        lhs_size: i64,
        /// The other operand's name.
        rhs: &'static str,
        /// Its extent.
        rhs_size: i64,
    },

    /// `gemm`: the operands' modes for one of M, N, K have no common refinement.
    #[error(
        "gemm: the modes that carry {dim} have no common refinement (a mode boundary of one operand falls inside \
         a mode of another off-step): A = `{a}`, B = `{b}`, C = `{c}`"
    )]
    GemmRefinement {
        /// The dimension: `M`, `N`, `K` or `L`.
        dim: &'static str,
        /// A, in notation.
        a: String,
        /// B, in notation.
        b: String,
        /// C, in notation.
        c: String,
    },

    /// `gemm` whose C writes one offset twice.
    #[error("gemm: C = `{c}` is not injective: indices {i} and {j} both write offset {offset}")]
    GemmNotInjective {
        /// C, in notation.
        c: String,
        /// The first index.
        i: i64,
        /// The second index.
        j: i64,
        /// The offset both write.
        offset: i64,
    },

    /// A GEMM blocking whose block is not a positive multiple of its register tile.
    #[error("gemm: a packed block of {value} {what} is not a positive multiple of the tile's {unit}")]
    GemmBlockUnit {
        /// What the block counts (rows, columns, depth).
        what: &'static str,
        /// The block's extent.
        value: u64,
        /// The register tile's extent it must be a multiple of.
        unit: u64,
    },

    /// A GEMM panel deeper than the level's `KC`.
    #[error("gemm: the panel depth {kc} exceeds KC = {max}, the fixed column stride of this level's B panels")]
    GemmDepth {
        /// The panel depth asked for.
        kc: u64,
        /// The level's KC.
        max: u64,
    },

    /// A GEMM block extent beyond `i64`.
    #[error("gemm: the block extent {value} does not fit in a 64-bit signed integer")]
    GemmTooLarge {
        /// The extent.
        value: u64,
    },
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
            // The blocking's packing layouts: no operand of the user's at fault.
            GemmBlockUnit { .. } | GemmDepth { .. } | GemmTooLarge { .. } => Blame::Whole,
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
