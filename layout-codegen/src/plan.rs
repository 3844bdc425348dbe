//! The index plan: every decision about the emitted code, made once, as plain data.
//!
//! `offset(i)` walks the modes of `coalesce(L)`: mode k splits the running index `q` into the
//! coordinate `q mod s_k` and the quotient `q / s_k` (a mask and a shift when `s_k` is a
//! power of two); the last mode is not reduced, as the paper's idx2crd leaves the last
//! component unbounded. Modes after the last one with a non-zero stride are not computed at
//! all. `coord(i)` does the same over the leaves of the shape as written, and the traversal
//! is a loop nest over the coalesced modes.

use layout_core::notation::Value;
use layout_core::{
    AnyLayout, ComposedLayout, CoordinateLayout, F2Layout, IntTuple, Layout, LayoutError, Stage, SwizzledLayout,
    coalesce, coalesce_extended,
};

/// The most elements whose offsets the macro counts to decide that a layout is injective
/// when the sorted-stride test does not (a larger one is taken as not known injective).
const INJECTIVE_ENUMERATION: i64 = 1 << 16;

/// How the running index is split at one mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The last mode: the coordinate is the whole running index (not reduced).
    Last,
    /// Extent 1 (not last): the coordinate is 0 and the index passes on unchanged.
    Unit,
    /// Extent `1 << shift`: coordinate `q & mask`, quotient `q >> shift`.
    Pow2 {
        /// log2 of the extent.
        shift: u32,
        /// The extent minus one.
        mask: u64,
    },
    /// Any other extent `n`: coordinate `q % n`, quotient `q / n`.
    Div(u64),
}

/// One mode `extent:stride` and how the index is split there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// The extent.
    pub extent: u64,
    /// The stride.
    pub stride: i64,
    /// How the running index is split here.
    pub split: Split,
}

/// The shape's tuple structure; leaves are numbered left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeTree {
    /// A leaf: its number.
    Leaf(usize),
    /// A tuple of sub-trees.
    Tuple(Vec<ShapeTree>),
}

/// Everything the emitted code needs to know about a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexPlan {
    /// Canonical notation of the layout as evaluated.
    pub notation: String,
    /// The number of elements.
    pub size: u64,
    /// The largest offset plus one.
    pub cosize: u64,
    /// The smallest offset (negative only with negative strides).
    pub min_offset: i64,
    /// The number of top-level modes.
    pub rank: usize,
    /// The nesting depth of the shape.
    pub depth: usize,
    /// Some stride is negative: offsets are `isize`.
    pub signed: bool,
    /// The modes of `coalesce(L)`, for `offset` and the traversal.
    pub modes: Vec<Mode>,
    /// How many leading coalesced modes `offset` computes (the rest have stride 0).
    pub offset_modes: usize,
    /// The leaves of the shape as written, for `coord` and `offset_of`.
    pub leaves: Vec<Mode>,
    /// The shape's nesting, over the leaves.
    pub shape: ShapeTree,
    /// Distinct indices have distinct offsets (`false` when not known).
    pub injective: bool,
}

impl IndexPlan {
    /// Plans the index code of `layout`. Fails only when the offsets or the size do not fit
    /// the integer types of the emitted code.
    pub fn new(layout: &Layout) -> Result<IndexPlan, LayoutError> {
        // `injective` is "known injective": the sorted-stride test, or the offsets counted
        // for at most `INJECTIVE_ENUMERATION` elements.
        let cosize = layout.cosize()?;
        let min_offset = min_offset(layout)?;
        let modes = with_splits(&coalesce(layout).flat_modes());
        let offset_modes = modes.iter().rposition(|m| m.stride != 0).map_or(0, |k| k + 1);
        let mut next = 0;
        Ok(IndexPlan {
            notation: layout.to_string(),
            size: to_u64(layout.size()),
            cosize: to_u64(cosize),
            min_offset,
            rank: layout.rank(),
            depth: layout.depth(),
            signed: !layout.non_negative(),
            modes,
            offset_modes,
            leaves: with_splits(&layout.flat_modes()),
            shape: tree(layout.shape(), &mut next),
            injective: matches!(layout_plan::injectivity_witness_within(layout, INJECTIVE_ENUMERATION), Ok(None)),
        })
    }

    /// The plan of a layout evaluated past its size too (a stage of a composed layout): the
    /// modes of `coalesce_z(L)`, which keeps the extension of the last mode, so that `offset`
    /// is `L(i)` on the extended domain as layout-core evaluates it (plain coalescing drops a
    /// trailing `1:d`, which changes the values past the size).
    pub fn extended(layout: &Layout) -> Result<IndexPlan, LayoutError> {
        let mut plan = IndexPlan::new(layout)?;
        plan.modes = with_splits(&coalesce_extended(layout).flat_modes());
        plan.offset_modes = plan.modes.iter().rposition(|m| m.stride != 0).map_or(0, |k| k + 1);
        Ok(plan)
    }

    /// The number of divisions (or shifts) `offset` performs: one per computed mode but the
    /// last mode of the layout.
    pub fn offset_splits(&self) -> usize {
        self.modes[..self.offset_modes].iter().filter(|m| !matches!(m.split, Split::Last | Split::Unit)).count()
    }
}

/// The plan of one value the macro emits: an integer layout, or one of the kinds beyond
/// integer strides (docs/algebra.md §1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// `shape:stride` with integer strides.
    Int(IndexPlan),
    /// `Sw<B,M,S> o off o L`.
    Swizzled(SwizzledPlan),
    /// Coordinate strides `a@i`: offsets are tuples.
    Coordinate(CoordinatePlan),
    /// F2 strides `fk`: XOR of carry-less products.
    F2(F2Plan),
    /// `A o Sw o off o B`: B, then a chain of layouts, swizzles and offsets.
    Composed(ComposedPlan),
}

impl Plan {
    /// The canonical notation of the value.
    pub fn notation(&self) -> &str {
        match self {
            Plan::Int(p) => &p.notation,
            Plan::Swizzled(p) => &p.notation,
            Plan::Coordinate(p) => &p.notation,
            Plan::F2(p) => &p.notation,
            Plan::Composed(p) => &p.notation,
        }
    }
}

/// `Sw o off o L`: the inner layout's plan, then `x = off + L(i)` and `x ^ ((x & yyy) >> S)`
/// (`<< -S` for a negative S).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwizzledPlan {
    /// Canonical notation of the layout.
    pub notation: String,
    /// The plan of L (its `cosize` is L's, not the swizzled layout's).
    pub inner: IndexPlan,
    /// The composed offset `off`.
    pub offset: i64,
    /// The bits read, `((1 << B) - 1) << (M + max(0,S))`; 0 for the identity.
    pub yyy: u64,
    /// S: positive moves the yyy bits down, negative up.
    pub shift: i64,
    /// `cosize` as layout-core reports it (largest value plus one over the domain).
    pub cosize: u64,
    /// Offsets are `isize`: L has negative strides or the offset is negative.
    pub signed: bool,
}

impl SwizzledPlan {
    /// Plans `s`; fails when its offsets do not fit the emitted integer types.
    pub fn new(s: &SwizzledLayout) -> Result<SwizzledPlan, LayoutError> {
        let inner = IndexPlan::new(s.layout())?;
        let cosize = s.cosize()?;
        let lo = inner.min_offset.checked_add(s.offset()).ok_or(LayoutError::Overflow {
            a: inner.min_offset,
            op: '+',
            b: s.offset(),
        })?;
        let sw = s.swizzle();
        Ok(SwizzledPlan {
            notation: s.to_string(),
            signed: inner.signed || lo < 0 || s.offset() < 0,
            inner,
            offset: s.offset(),
            yyy: if sw.is_identity() { 0 } else { to_u64(sw.yyy_mask()) },
            shift: sw.shift(),
            cosize: to_u64(cosize),
        })
    }
}

/// One stage of a composed layout's chain, as the emitted code applies it to an `isize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StagePlan {
    /// An integer layout evaluated at the (non-negative) value: its index plan.
    Layout(IndexPlan),
    /// `x ^ ((x & yyy) >> S)` (`<< -S` for a negative S).
    Swizzle {
        /// The bits read.
        yyy: u64,
        /// S: positive moves the bits down, negative up.
        shift: i64,
    },
    /// `x + o`.
    Offset(i64),
}

/// `F_1 o … o F_k o B`: B's plan, then the stages from the innermost out. Every value of the
/// domain is computed by layout-core when planning, so the chain is known to be defined
/// (no layout stage sees a negative value) and to fit 64-bit integers there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComposedPlan {
    /// Canonical notation of the layout.
    pub notation: String,
    /// The plan of B.
    pub inner: IndexPlan,
    /// Outermost first, as written.
    pub stages: Vec<StagePlan>,
    /// `cosize` as layout-core reports it (largest value plus one over the domain).
    pub cosize: u64,
    /// Some value of the domain is negative: offsets are `isize`.
    pub signed: bool,
}

impl ComposedPlan {
    /// Plans `c`; fails when its values do not fit the emitted integer types.
    pub fn new(c: &ComposedLayout) -> Result<ComposedPlan, LayoutError> {
        let table = c.table()?;
        let stages = c
            .stages()
            .iter()
            .map(|s| {
                Ok(match s {
                    Stage::Layout(l) => StagePlan::Layout(IndexPlan::extended(l)?),
                    Stage::Swizzle(sw) => StagePlan::Swizzle {
                        yyy: if sw.is_identity() { 0 } else { to_u64(sw.yyy_mask()) },
                        shift: sw.shift(),
                    },
                    Stage::Offset(o) => StagePlan::Offset(*o),
                })
            })
            .collect::<Result<_, LayoutError>>()?;
        Ok(ComposedPlan {
            notation: c.to_string(),
            inner: IndexPlan::new(c.inner())?,
            stages,
            cosize: to_u64(c.cosize()?),
            signed: table.iter().any(|&v| v < 0),
        })
    }
}

/// A layout with coordinate strides: the index is split once at the coalesced modes, and
/// each component of the result is the integer layout function with that component's
/// coefficients (the integer plan per component, sharing the division work).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatePlan {
    /// Canonical notation of the layout.
    pub notation: String,
    /// The number of elements.
    pub size: u64,
    /// The number of top-level modes.
    pub rank: usize,
    /// The nesting depth of the shape.
    pub depth: usize,
    /// The codomain rank: the number of components of an offset.
    pub components: usize,
    /// Per component, `cosize` of that component (as layout-core's `cosize` gives it).
    pub cosize: Vec<u64>,
    /// Per component: some coefficient is negative, so that component is `isize`.
    pub signed: Vec<bool>,
    /// The modes of the coalesced layout (stride 1 marks a mode with a non-zero coefficient,
    /// 0 one whose coefficients are all zero).
    pub modes: Vec<Mode>,
    /// Per coalesced mode, the coefficient of each component.
    pub mode_coefs: Vec<Vec<i64>>,
    /// The leaves of the shape as written, for `coord` and `offset_of`.
    pub leaves: Vec<Mode>,
    /// Per leaf, the coefficient of each component.
    pub leaf_coefs: Vec<Vec<i64>>,
    /// The shape's nesting, over the leaves.
    pub shape: ShapeTree,
}

impl CoordinatePlan {
    /// Plans `b`; fails when a component's offsets do not fit the emitted integer types.
    pub fn new(b: &CoordinateLayout) -> Result<CoordinatePlan, LayoutError> {
        let n = b.codomain_rank();
        let mut cosize = Vec::with_capacity(n);
        let mut signed = Vec::with_capacity(n);
        for c in b.components() {
            // The checks of the integer plan per component: offsets fit machine integers.
            let p = IndexPlan::new(&c)?;
            cosize.push(p.cosize);
            signed.push(p.signed);
        }
        let coefs = |l: &CoordinateLayout| -> Vec<Vec<i64>> {
            l.stride_leaves().into_iter().map(|c| (0..n).map(|i| c.get(i).copied().unwrap_or(0)).collect()).collect()
        };
        let flat = |l: &CoordinateLayout, cs: &[Vec<i64>]| -> Vec<(i64, i64)> {
            l.shape().leaves().into_iter().zip(cs).map(|(s, c)| (s, i64::from(c.iter().any(|&x| x != 0)))).collect()
        };
        let coalesced = b.coalesce().flatten();
        let mode_coefs = coefs(&coalesced);
        let leaf_coefs = coefs(b);
        let mut next = 0;
        Ok(CoordinatePlan {
            notation: b.to_string(),
            size: to_u64(b.size()),
            rank: b.rank(),
            depth: b.depth(),
            components: n,
            cosize,
            signed,
            modes: with_splits(&flat(&coalesced, &mode_coefs)),
            leaves: with_splits(&flat(b, &leaf_coefs)),
            mode_coefs,
            leaf_coefs,
            shape: tree(b.shape(), &mut next),
        })
    }
}

/// A layout with F2 strides: the index is split at the coalesced modes as for integer
/// strides, and each digit `c` with stride `fk` contributes the carry-less product `c ⊗ k`,
/// unrolled over the digit's bits (a shift when k is a single bit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct F2Plan {
    /// Canonical notation of the layout.
    pub notation: String,
    /// The number of elements.
    pub size: u64,
    /// The largest offset plus one.
    pub cosize: u64,
    /// The number of top-level modes.
    pub rank: usize,
    /// The nesting depth of the shape.
    pub depth: usize,
    /// The modes of `coalesce(L)`; `stride` is the bit vector k of `fk`.
    pub modes: Vec<Mode>,
    /// How many leading coalesced modes `offset` computes (the rest have stride `f0`).
    pub offset_modes: usize,
    /// The leaves of the shape as written; `stride` is the bit vector.
    pub leaves: Vec<Mode>,
    /// The shape's nesting, over the leaves.
    pub shape: ShapeTree,
}

impl F2Plan {
    /// Plans `l`; fails when its offsets do not fit the emitted integer types.
    pub fn new(l: &F2Layout) -> Result<F2Plan, LayoutError> {
        let cosize = l.cosize()?;
        let flat = |l: &F2Layout| -> Vec<(i64, i64)> {
            l.shape().leaves().into_iter().zip(l.stride_bits().leaves()).collect()
        };
        let modes = with_splits(&flat(&l.coalesce().flatten()));
        let offset_modes = modes.iter().rposition(|m| m.stride != 0).map_or(0, |k| k + 1);
        let mut next = 0;
        Ok(F2Plan {
            notation: l.to_string(),
            size: to_u64(l.size()),
            cosize: to_u64(cosize),
            rank: l.rank(),
            depth: l.depth(),
            modes,
            offset_modes,
            leaves: with_splits(&flat(l)),
            shape: tree(l.shape(), &mut next),
        })
    }
}

/// The number of bits of a digit of a mode of extent `extent` (its largest value is
/// `extent - 1`).
pub fn digit_bits(extent: u64) -> u32 {
    u64::BITS - extent.saturating_sub(1).leading_zeros()
}

/// The most negative offset of the domain: it must be representable too.
fn min_offset(layout: &Layout) -> Result<i64, LayoutError> {
    layout.flat_modes().iter().try_fold(0i64, |acc, &(s, d)| {
        let term = (s - 1).checked_mul(d.min(0)).ok_or(LayoutError::Overflow { a: s - 1, op: '*', b: d })?;
        acc.checked_add(term).ok_or(LayoutError::Overflow { a: acc, op: '+', b: term })
    })
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn with_splits(modes: &[(i64, i64)]) -> Vec<Mode> {
    let last = modes.len().saturating_sub(1);
    modes
        .iter()
        .enumerate()
        .map(|(k, &(s, d))| {
            let extent = to_u64(s);
            let split = if k == last {
                Split::Last
            } else if extent == 1 {
                Split::Unit
            } else if extent.is_power_of_two() {
                Split::Pow2 { shift: extent.trailing_zeros(), mask: extent - 1 }
            } else {
                Split::Div(extent)
            };
            Mode { extent, stride: d, split }
        })
        .collect()
}

fn tree(shape: &IntTuple, next: &mut usize) -> ShapeTree {
    match shape {
        IntTuple::Int(_) => {
            *next += 1;
            ShapeTree::Leaf(*next - 1)
        }
        IntTuple::Tuple(children) => ShapeTree::Tuple(children.iter().map(|c| tree(c, next)).collect()),
    }
}

/// Why a value cannot be emitted.
pub(crate) enum PlanError {
    /// Not a layout of any kind (`is a tiler`, `is an integer`, …).
    NotALayout(String),
    /// A layout whose offsets do not fit the machine integers of the emitted code.
    Machine(String),
}

/// The plan of a value: an integer layout (a bare shape is the compact column-major
/// layout), a swizzled layout, a coordinate layout or an F2 layout.
pub(crate) fn plan_value(value: &Value) -> Result<Plan, PlanError> {
    let machine = |shown: &dyn std::fmt::Display, e: LayoutError| {
        PlanError::Machine(format!("`{shown}` cannot be indexed with machine integers: {e}"))
    };
    match value {
        Value::Layout(AnyLayout::Swizzled(s)) => SwizzledPlan::new(s).map(Plan::Swizzled).map_err(|e| machine(s, e)),
        Value::Layout(AnyLayout::Coordinate(b)) => {
            CoordinatePlan::new(b).map(Plan::Coordinate).map_err(|e| machine(b, e))
        }
        Value::Layout(AnyLayout::F2(f)) => F2Plan::new(f).map(Plan::F2).map_err(|e| machine(f, e)),
        Value::Layout(AnyLayout::Composed(c)) => ComposedPlan::new(c).map(Plan::Composed).map_err(|e| machine(c, e)),
        v => {
            let layout = as_layout(v).map_err(PlanError::NotALayout)?;
            IndexPlan::new(&layout).map(Plan::Int).map_err(|e| machine(&layout, e))
        }
    }
}

/// A value as a layout: a bare shape is the compact column-major layout.
fn as_layout(value: &Value) -> Result<Layout, String> {
    match value {
        Value::Layout(AnyLayout::Int(l)) => Ok(l.clone()),
        Value::Tuple(t) => Layout::column_major(t.clone()).map_err(|e| e.to_string()),
        Value::Tiler(t) => Err(format!("`{t}` is a tiler; use it inside the expression that applies it")),
        Value::Swizzle(s) => {
            Err(format!("`{s}` is a swizzle function; compose it with a layout: `{s} o (8,64):(64,1)`"))
        }
        v => Err(format!("`{v}` is {}", v.kind())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_core::parse_layout;

    fn plan(s: &str) -> IndexPlan {
        IndexPlan::new(&parse_layout(s).unwrap()).unwrap()
    }

    /// Runs the plan the way the emitted code does.
    fn offset(p: &IndexPlan, i: u64) -> i64 {
        let mut q = i;
        let mut o = 0i64;
        for m in &p.modes[..p.offset_modes] {
            let c = match m.split {
                Split::Last => q,
                Split::Unit => 0,
                Split::Pow2 { shift, mask } => {
                    let c = q & mask;
                    q >>= shift;
                    c
                }
                Split::Div(n) => {
                    let c = q % n;
                    q /= n;
                    c
                }
            };
            o += c as i64 * m.stride;
        }
        o
    }

    #[test]
    fn tiled_layout_splits_three_modes_with_shifts() {
        let p = plan("((2,4),3):((1,6),2)");
        assert_eq!((p.size, p.cosize, p.rank, p.depth, p.signed), (24, 24, 2, 2, false));
        assert_eq!(
            p.modes,
            vec![
                Mode { extent: 2, stride: 1, split: Split::Pow2 { shift: 1, mask: 1 } },
                Mode { extent: 4, stride: 6, split: Split::Pow2 { shift: 2, mask: 3 } },
                Mode { extent: 3, stride: 2, split: Split::Last },
            ]
        );
        assert_eq!(p.offset_splits(), 2);
        assert_eq!(
            p.shape,
            ShapeTree::Tuple(vec![ShapeTree::Tuple(vec![ShapeTree::Leaf(0), ShapeTree::Leaf(1)]), ShapeTree::Leaf(2)])
        );
    }

    #[test]
    fn coalescing_merges_modes_and_non_powers_of_two_divide() {
        let p = plan("(3,(2,5)):(1,(3,6))");
        assert_eq!(p.modes, vec![Mode { extent: 30, stride: 1, split: Split::Last }]);
        assert_eq!(p.offset_splits(), 0);
        let p = plan("(3,5):(5,1)");
        assert_eq!(p.modes[0].split, Split::Div(3));
        assert_eq!(p.leaves.len(), 2);
    }

    #[test]
    fn trailing_stride_zero_modes_are_not_computed() {
        let p = plan("(4,3):(1,0)");
        assert_eq!(p.offset_modes, 1);
        assert_eq!(p.modes[0].split, Split::Pow2 { shift: 2, mask: 3 });
        let p = plan("8:0");
        assert_eq!(p.offset_modes, 0);
    }

    #[test]
    fn negative_strides_make_offsets_signed() {
        let p = plan("(4,2):(-1,4)");
        assert!(p.signed);
        assert_eq!((p.cosize, p.min_offset), (5, -3));
    }

    #[test]
    fn size_one_leaves_pass_the_index_through() {
        let p = plan("(2,1,6,1):(1,7,8,0)");
        let splits: Vec<Split> = p.leaves.iter().map(|m| m.split).collect();
        assert_eq!(splits, vec![Split::Pow2 { shift: 1, mask: 1 }, Split::Unit, Split::Div(6), Split::Last]);
    }

    #[test]
    fn the_plan_computes_the_layout_function() {
        for s in [
            "((2,4),3):((1,6),2)",
            "((4,8),2):((16,1),8)",
            "(3,5,7,2,3,5):(1,210,3,105,15,630)",
            "(4,3):(1,0)",
            "(4,(4,2)):(4,(1,16))",
            "(2,1,6,1):(1,7,8,0)",
            "(4,2):(-1,4)",
            "1:0",
            "7:11",
        ] {
            let l = parse_layout(s).unwrap();
            let p = IndexPlan::new(&l).unwrap();
            for i in 0..l.size() {
                assert_eq!(offset(&p, i as u64), l.eval(i).unwrap(), "{s} at {i}");
            }
        }
    }

    #[test]
    fn overflowing_offsets_are_rejected() {
        let l = parse_layout("(4,4):(1,4611686018427387904)").unwrap();
        assert!(matches!(IndexPlan::new(&l), Err(LayoutError::Overflow { .. })));
    }
}
