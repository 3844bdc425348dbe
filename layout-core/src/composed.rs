//! Composed layouts (CuTe's `ComposedLayout<A, O, B>`, docs/algebra.md §1.6): a chain of
//! functions on integers, integer layouts `A`, swizzles `Sw` and offsets `o`, applied after
//! an integer layout B that fixes the domain: `A o Sw o o o B` is `c ↦ A(Sw(o + B(c)))`.
//!
//! This is what a composition answers when its right operand is a swizzle or a swizzled
//! layout: `A ∘ (Sw o off o B) = A o Sw o off o B`, which no single layout or swizzled layout
//! represents in general. The chain is kept in a normal form (adjacent offsets added, zero
//! offsets and identity swizzles dropped, a swizzle applied twice cancelled, the stage next to
//! B composed into B when that composition is admissible, a layout after a swizzle turned into
//! a swizzle after the layout when they commute), and a chain that is a plain or a swizzled
//! layout is one: [`ComposedLayout::build`] returns the simplest kind.

use crate::operation::Operation;
use crate::trace;
use std::fmt;

use crate::any_layout::AnyLayout;
use crate::checked;
use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::slice::{SliceCoord, slice};
use crate::swizzle::{Swizzle, SwizzledLayout, pull_through};

/// One function of a composed layout's chain, on integers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// An integer layout, evaluated at an integer index (past its size, its last mode is
    /// unbounded; a negative index is an error).
    Layout(Layout),
    /// A swizzle `Sw<B,M,S>` (defined on every integer).
    Swizzle(Swizzle),
    /// `x ↦ o + x`.
    Offset(i64),
}

impl Stage {
    /// The stage applied to `x`.
    pub fn apply(&self, x: i64) -> Result<i64> {
        match self {
            Stage::Layout(l) => l.eval(x),
            Stage::Swizzle(s) => Ok(s.apply(x)),
            Stage::Offset(o) => checked::add(*o, x),
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Layout(l) => write!(f, "{l}"),
            Stage::Swizzle(s) => write!(f, "{s}"),
            Stage::Offset(o) => write!(f, "{o}"),
        }
    }
}

/// A composed layout `F_1 o F_2 o … o F_k o B`: `c ↦ F_1(F_2(…F_k(B(c))…))`, with B an
/// integer layout (the domain) and each `F_i` a [`Stage`]. Built by [`ComposedLayout::build`],
/// which keeps it in normal form; at least one stage is a layout and one a swizzle (otherwise
/// it is a swizzled or a plain layout).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// Outermost first.
    stages: Vec<Stage>,
    inner: Layout,
}

impl ComposedLayout {
    /// `F_1 o … o F_k o B` (outermost first) in normal form, as the simplest kind that is the
    /// same function on B's domain (admissible for any stages; a chain with offsets and no
    /// swizzle is printed behind `Sw<0,0,0>`): an integer layout when no swizzle remains and the layouts
    /// compose, a swizzled layout `Sw o off o L` when no layout stage remains, else a
    /// composed layout. Errors only when a chain without swizzles has layouts that do not
    /// compose (as [`composition`](fn@crate::composition) says) or an offset overflows.
    pub fn build(stages: Vec<Stage>, inner: Layout) -> Result<AnyLayout> {
        let mut stages = merge(stages, true)?;
        if !stages.iter().any(|s| matches!(s, Stage::Swizzle(_)))
            && stages.iter().any(|s| matches!(s, Stage::Offset(_)))
        {
            // Offsets without a swizzle: printed behind the identity swizzle, as `Sw<0,0,0> o
            // off o L` always has been, so that the printed form parses back.
            stages.insert(0, Stage::Swizzle(Swizzle::identity()));
        }
        let (stages, inner) = fold_inner(stages, inner);
        let swizzles = stages.iter().filter(|s| matches!(s, Stage::Swizzle(_))).count();
        let offsets = stages.iter().any(|s| matches!(s, Stage::Offset(_)));
        match stages.as_slice() {
            [] => Ok(AnyLayout::Int(inner)),
            [Stage::Swizzle(sw)] => Ok(AnyLayout::Swizzled(SwizzledLayout::new(*sw, 0, inner))),
            [Stage::Swizzle(sw), Stage::Offset(o)] => Ok(AnyLayout::Swizzled(SwizzledLayout::new(*sw, *o, inner))),
            _ if swizzles == 0 && !offsets => {
                // Layouts only: each composes with what it is applied to, or the composition's
                // error says why not.
                let mut l = inner;
                for s in stages.iter().rev() {
                    if let Stage::Layout(a) = s {
                        l = crate::composition(a, &l)?;
                    }
                }
                Ok(AnyLayout::Int(l))
            }
            _ => Ok(AnyLayout::Composed(ComposedLayout { stages, inner })),
        }
    }

    /// The same stages around another B with the same function on indices (flattened or
    /// coalesced), so the normal form is kept.
    pub(crate) fn with(&self, inner: Layout) -> ComposedLayout {
        ComposedLayout { stages: self.stages.clone(), inner }
    }

    /// The stages, outermost first.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The integer layout B that fixes the domain.
    pub fn inner(&self) -> &Layout {
        &self.inner
    }

    /// The shape of the innermost layout (the domain).
    pub fn shape(&self) -> &IntTuple {
        self.inner.shape()
    }

    /// `|B|`: the stages do not change the domain.
    pub fn size(&self) -> i64 {
        self.inner.size()
    }

    fn outside(&self, mut x: i64) -> Result<i64> {
        for s in self.stages.iter().rev() {
            x = s.apply(x)?;
        }
        Ok(x)
    }

    /// `F_1(…F_k(B(i)))` at an integer index.
    pub fn eval(&self, i: i64) -> Result<i64> {
        self.outside(self.inner.eval(i)?)
    }

    /// `F_1(…F_k(B(c)))` at a coordinate weakly congruent to the shape.
    pub fn eval_coord(&self, crd: &IntTuple) -> Result<i64> {
        self.outside(self.inner.eval_coord(crd)?)
    }

    /// The values at indices `0..|B|`, for at most [`Layout::TABLE_LIMIT`] elements.
    pub fn table(&self) -> Result<Vec<i64>> {
        self.inner.table()?.into_iter().map(|x| self.outside(x)).collect()
    }

    /// The largest value plus one over the domain (by enumeration).
    pub fn cosize(&self) -> Result<i64> {
        checked::add(self.table()?.into_iter().max().unwrap_or(0), 1)
    }

    /// An operation on B, keeping the stages outside (CuTe C++'s coalesce, divides, products
    /// and composition with a layout on the right of a composed layout):
    /// `op(F o B) = F o op(B)`, admissible exactly when `op(B)` is. The result is in normal
    /// form again, so `(A o Sw o B) ∘ C = A o Sw o (B ∘ C)`.
    pub fn map_inner(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<AnyLayout> {
        ComposedLayout::build(self.stages.clone(), op(&self.inner)?)
    }

    /// Slicing at a coordinate with `_`: `F o (B(c') + ·) o B|_`, the fixed part's offset
    /// becoming the innermost stage (the stages are not linear, so it cannot be pulled out).
    pub fn slice(&self, c: &SliceCoord) -> Result<AnyLayout> {
        let (sub, off) = slice(&self.inner, c)?;
        let mut stages = self.stages.clone();
        stages.push(Stage::Offset(off));
        ComposedLayout::build(stages, sub)
    }
}

/// Adjacent offsets added, zero offsets dropped, a swizzle applied twice in a row dropped
/// (a swizzle is an involution), identity swizzles dropped when `drop_identity` (and a chain
/// that is then left with offsets but no swizzle keeps them: `Sw<0,…> o off o L` stays a
/// swizzled layout, as today).
fn merge(stages: Vec<Stage>, drop_identity: bool) -> Result<Vec<Stage>> {
    let mut out: Vec<Stage> = Vec::with_capacity(stages.len());
    for s in stages.iter().cloned() {
        match (out.last(), &s) {
            (_, Stage::Offset(0)) => {}
            (_, Stage::Swizzle(sw)) if drop_identity && sw.is_identity() => {}
            (Some(Stage::Offset(a)), Stage::Offset(b)) => {
                let sum = checked::add(*a, *b)?;
                out.pop();
                if sum != 0 {
                    out.push(Stage::Offset(sum));
                }
            }
            (Some(Stage::Swizzle(a)), Stage::Swizzle(b)) if a == b => {
                out.pop();
            }
            _ => out.push(s),
        }
    }
    let swizzles = out.iter().any(|s| matches!(s, Stage::Swizzle(_)));
    let offsets = out.iter().any(|s| matches!(s, Stage::Offset(_)));
    if drop_identity && !swizzles && offsets {
        // Keep the identity swizzles, so that the chain stays printable (`Sw<0,…> o off o L`
        // parses back; `off o L` alone is not a layout).
        return merge(stages, false);
    }
    Ok(out)
}

/// Folds the stages next to B into B while that is the same function on B's domain: a
/// layout A whose composition with B is admissible (`A ∘ B` is exact, docs/algebra.md §3.1), and a
/// layout A after a swizzle Sw that commutes with it on A's domain, `A ∘ Sw = Sw' ∘ A`,
/// when B's values lie in that domain (CuTe C++'s `composition(Layout, Swizzle)`, here
/// checked at every point instead of assumed).
fn fold_inner(mut stages: Vec<Stage>, mut inner: Layout) -> (Vec<Stage>, Layout) {
    loop {
        match stages.as_slice() {
            [.., Stage::Layout(a)] if inner.non_negative() => match crate::composition(a, &inner) {
                Ok(l) => {
                    inner = l;
                    stages.pop();
                }
                Err(_) => return (stages, inner),
            },
            [.., Stage::Layout(a), Stage::Swizzle(sw)] if inner.non_negative() => {
                let within = inner.cosize().is_ok_and(|c| c <= a.size());
                let Some(sw2) = pull_through(*sw, a).ok().filter(|_| within) else {
                    return (stages, inner);
                };
                trace::note(|| {
                    format!(
                        "{a} ∘ {sw} = {sw2} ∘ {a} on the domain of {a} (checked at every point): the swizzle moves out"
                    )
                });
                let Ok(l) = crate::composition(a, &inner) else {
                    return (stages, inner);
                };
                let mut next = stages[..stages.len() - 2].to_vec();
                next.push(Stage::Swizzle(sw2));
                match merge(next, true) {
                    Ok(next) => {
                        stages = next;
                        inner = l;
                    }
                    Err(_) => return (stages, inner),
                }
            }
            _ => return (stages, inner),
        }
    }
}

impl fmt::Display for ComposedLayout {
    /// `F_1 o … o F_k o B`, CuTe C++'s form for a composed layout (`A o O o B`), with each
    /// stage in canonical notation; parses back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.stages {
            write!(f, "{s} o ")?;
        }
        write!(f, "{}", self.inner)
    }
}

/// The stages of a layout with integer values on the integers, outermost first, and the
/// layout that fixes its domain: `L` is `[] , L`; `Sw o off o L` is `[Sw, off], L`; a
/// composed layout its own. `None` for coordinate and F2 layouts.
pub(crate) fn chain_of(l: &AnyLayout) -> Option<(Vec<Stage>, Layout)> {
    match l {
        AnyLayout::Int(l) => Some((Vec::new(), l.clone())),
        AnyLayout::Swizzled(s) => {
            Some((vec![Stage::Swizzle(s.swizzle()), Stage::Offset(s.offset())], s.layout().clone()))
        }
        AnyLayout::Composed(c) => Some((c.stages.clone(), c.inner.clone())),
        AnyLayout::Coordinate(_) | AnyLayout::F2(_) => None,
    }
}

/// `A ∘ B` for A and B with integer values (integer, swizzled or composed layouts): A's chain
/// and its domain layout, then B's chain, around B's domain layout; the composed layout the
/// composition stands for, in normal form. `None` when either is a coordinate or F2 layout.
pub fn compose_chains(a: &AnyLayout, b: &AnyLayout) -> Option<Result<AnyLayout>> {
    let (mut stages, a_inner) = chain_of(a)?;
    let (b_stages, b_inner) = chain_of(b)?;
    Some(trace::operation(Operation::Composition, &[("A", a), ("B", b)], || {
        trace::note(|| {
            format!("A ∘ B = {a} o {b}: A's chain, then B's chain around B's inner layout {b_inner}, in normal form")
        });
        stages.push(Stage::Layout(a_inner));
        stages.extend(b_stages);
        ComposedLayout::build(stages, b_inner)
    }))
}

/// `A ∘ Sw` on A's domain: `A o Sw o I` with I the compact column-major layout of A's shape
/// (CuTe C++'s `composition(Layout, Swizzle)`); a swizzled layout `Sw' o A` when Sw commutes
/// with A there.
pub fn compose_swizzle(a: &AnyLayout, sw: Swizzle) -> Option<Result<AnyLayout>> {
    let (mut stages, a_inner) = chain_of(a)?;
    let identity = match Layout::column_major(a.shape().clone()) {
        Ok(i) => i,
        Err(e) => return Some(Err(e)),
    };
    Some(trace::operation(Operation::Composition, &[("A", a), ("B", &sw)], || {
        trace::note(|| format!("A ∘ {sw} on A's domain = A o {sw} o {identity}, in normal form"));
        stages.push(Stage::Layout(a_inner));
        stages.push(Stage::Swizzle(sw));
        ComposedLayout::build(stages, identity)
    }))
}
