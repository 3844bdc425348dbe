//! Layouts whose extents and strides are symbolic ([`DynLayout`]), and the operations with
//! static operands over them: the walk of composition, the complement of a static tiler in
//! a symbolic extent, the divides, coalesce and slicing. Each operation decides what it can
//! at expansion time (with the [`Solver`]) and records the rest as conditions; with numbers
//! substituted, the result equals what layout-core computes on the substituted layout, or a
//! condition fails exactly when layout-core's computation fails.

use std::fmt;

use super::solve::{Cond, CondKind, Condition, Rel, Solver};
use super::symint::{SymInt, SymSum};
use super::{DynError, DynamicError};
use crate::complement::complement_modes;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::operation::Operation;
use crate::slice::SliceCoord;
use crate::tiler::Tiler;

/// A hierarchical tuple of symbolic integers (a dynamic shape or stride).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymTuple {
    /// One symbolic integer.
    Leaf(SymInt),
    /// A tuple of sub-tuples.
    Tuple(Vec<SymTuple>),
}

impl SymTuple {
    /// The static tuple, each leaf a constant.
    pub fn from_int_tuple(t: &IntTuple) -> SymTuple {
        match t {
            IntTuple::Int(v) => SymTuple::Leaf(SymInt::int(*v)),
            IntTuple::Tuple(c) => SymTuple::Tuple(c.iter().map(SymTuple::from_int_tuple).collect()),
        }
    }

    /// The leaves, left to right.
    pub fn leaves(&self) -> Vec<SymInt> {
        let mut out = Vec::new();
        self.push_leaves(&mut out);
        out
    }

    fn push_leaves(&self, out: &mut Vec<SymInt>) {
        match self {
            SymTuple::Leaf(v) => out.push(v.clone()),
            SymTuple::Tuple(c) => c.iter().for_each(|c| c.push_leaves(out)),
        }
    }

    /// The product of the leaves (the size of a shape).
    pub fn product(&self) -> SymInt {
        self.leaves().iter().fold(SymInt::int(1), |a, b| a.mul(b))
    }

    /// Whether both have the same profile (nesting).
    pub fn congruent(&self, o: &SymTuple) -> bool {
        match (self, o) {
            (SymTuple::Leaf(_), SymTuple::Leaf(_)) => true,
            (SymTuple::Tuple(a), SymTuple::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y))
            }
            _ => false,
        }
    }

    /// The number of top-level modes (1 for a leaf).
    pub fn rank(&self) -> usize {
        match self {
            SymTuple::Leaf(_) => 1,
            SymTuple::Tuple(c) => c.len(),
        }
    }

    /// The nesting depth (0 for a leaf).
    pub fn depth(&self) -> usize {
        match self {
            SymTuple::Leaf(_) => 0,
            SymTuple::Tuple(c) => 1 + c.iter().map(SymTuple::depth).max().unwrap_or(0),
        }
    }

    /// The top-level modes (a leaf is its own only mode).
    pub fn modes(&self) -> Vec<SymTuple> {
        match self {
            SymTuple::Leaf(_) => vec![self.clone()],
            SymTuple::Tuple(c) => c.clone(),
        }
    }

    /// The same profile with the leaves taken in order from `leaves`.
    pub fn with_leaves(&self, leaves: &mut impl Iterator<Item = SymInt>) -> SymTuple {
        match self {
            SymTuple::Leaf(_) => SymTuple::Leaf(leaves.next().unwrap_or_else(|| SymInt::int(0))),
            SymTuple::Tuple(c) => SymTuple::Tuple(c.iter().map(|c| c.with_leaves(leaves)).collect()),
        }
    }

    /// Compact column-major strides (exclusive prefix products).
    pub fn compact_col_major(&self) -> SymTuple {
        let mut acc = SymInt::int(1);
        let leaves: Vec<SymInt> = self
            .leaves()
            .iter()
            .map(|s| {
                let d = acc.clone();
                acc = acc.mul(s);
                d
            })
            .collect();
        self.with_leaves(&mut leaves.into_iter())
    }

    /// The int tuple with numbers for the symbols (`None`: not an integer, or overflow).
    pub fn eval(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<IntTuple> {
        Some(match self {
            SymTuple::Leaf(v) => IntTuple::Int(v.eval_int(value)?),
            SymTuple::Tuple(c) => IntTuple::Tuple(c.iter().map(|c| c.eval(value)).collect::<Option<_>>()?),
        })
    }

    fn symbols_into(&self, out: &mut Vec<String>) {
        for l in self.leaves() {
            for s in l.symbols() {
                if !out.iter().any(|o| o == s) {
                    out.push(s.to_string());
                }
            }
        }
    }
}

impl fmt::Display for SymTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymTuple::Leaf(v) => write!(f, "{v}"),
            SymTuple::Tuple(c) => crate::int_tuple::write_tuple(f, c),
        }
    }
}

/// A layout with symbolic extents and strides, valid under its conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynLayout {
    /// The shape.
    pub shape: SymTuple,
    /// The stride, congruent to the shape.
    pub stride: SymTuple,
    /// The facts and the conditions the operations required, in order.
    pub conds: Vec<Condition>,
    /// The symbols in order of first appearance in the source (the constructor's
    /// parameters).
    pub symbols: Vec<String>,
}

type Flat = Vec<(SymInt, SymInt)>;

impl DynLayout {
    /// `shape:stride`; the shape's extents must be positive. A sum among the factors of an
    /// extent or a stride (`W-2`) must be positive too: a condition, unless it is proved or
    /// refuted (an error) here.
    pub fn new(shape: SymTuple, stride: SymTuple) -> Result<DynLayout, DynError> {
        if !shape.congruent(&stride) {
            return Err(DynError::Layout(crate::LayoutError::NotCongruent {
                shape: shape.to_string(),
                stride: stride.to_string(),
            }));
        }
        if let Some(bad) = shape.leaves().iter().find(|s| s.coef().0 <= 0) {
            return Err(DynError::Other(format!(
                "shape `{shape}` has the extent {bad}; every extent must be positive"
            )));
        }
        let mut symbols = Vec::new();
        shape.symbols_into(&mut symbols);
        stride.symbols_into(&mut symbols);
        let mut l = DynLayout { shape, stride, conds: Vec::new(), symbols };
        for (what, leaves) in [("extent", l.shape.leaves()), ("stride", l.stride.leaves())] {
            for leaf in leaves {
                for sum in leaf.sums() {
                    l.require_positive(sum, || {
                        let also = if what == "stride" { "; a negative stride is written `-(…)`" } else { "" };
                        if leaf.as_sum().is_some() {
                            format!("the {what} {leaf} must be positive{also}")
                        } else {
                            format!("the sum {sum} in the {what} {leaf} must be positive{also}")
                        }
                    })?;
                }
            }
        }
        Ok(l)
    }

    /// Requires a sum to be positive (`W-2 > 0`): proved, refuted, or a run-time check.
    pub(super) fn require_positive(&mut self, sum: &SymSum, why: impl FnOnce() -> String) -> Result<(), DynError> {
        self.require(Cond::gt(SymInt::of_sum(sum), SymInt::int(0)), why)
    }

    /// Rechecks the positivity conditions of sums with the facts: one they prove is dropped
    /// (`W >= 3` proves `W-2 > 0`; the constructor checks the facts first), one they refute is
    /// an error.
    pub(super) fn recheck_positivity(&mut self) -> Result<(), DynError> {
        let mut k = 0;
        while k < self.conds.len() {
            let c = &self.conds[k];
            let positivity = c.kind == CondKind::Required
                && c.cond.rel == Rel::Gt
                && c.cond.b.is_zero()
                && c.cond.a.as_sum().is_some();
            if !positivity {
                k += 1;
                continue;
            }
            let others = Solver {
                conds: self.conds.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, c)| c.clone()).collect(),
            };
            match others.prove(&c.cond) {
                Some(true) => {
                    self.conds.remove(k);
                }
                Some(false) => {
                    let given = match others.refuted_by(&c.cond).as_slice() {
                        [] => String::new(),
                        facts => format!(" allowed by {}", super::eval::quoted(facts)),
                    };
                    return Err(DynError::Never { cond: c.cond.to_string(), given, why: c.why.clone() });
                }
                None => k += 1,
            }
        }
        Ok(())
    }

    /// A static layout as a dynamic one.
    pub fn from_layout(l: &Layout) -> DynLayout {
        DynLayout {
            shape: SymTuple::from_int_tuple(l.shape()),
            stride: SymTuple::from_int_tuple(l.stride()),
            conds: Vec::new(),
            symbols: Vec::new(),
        }
    }

    /// Whether some extent or stride is symbolic.
    pub fn is_dynamic(&self) -> bool {
        self.shape.leaves().iter().chain(self.stride.leaves().iter()).any(|l| !l.is_const())
    }

    /// The layout with the same conditions and symbols and a new shape and stride.
    fn with(&self, shape: SymTuple, stride: SymTuple) -> DynLayout {
        DynLayout { shape, stride, conds: self.conds.clone(), symbols: self.symbols.clone() }
    }

    /// The size: the product of the extents.
    pub fn size(&self) -> SymInt {
        self.shape.product()
    }

    /// The number of top-level modes.
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// The nesting depth of the shape.
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// The leaf modes `(extent, stride)`, left to right.
    pub fn flat_modes(&self) -> Flat {
        self.shape.leaves().into_iter().zip(self.stride.leaves()).collect()
    }

    /// The top-level modes, each with this layout's conditions.
    pub fn modes(&self) -> Vec<DynLayout> {
        self.shape.modes().into_iter().zip(self.stride.modes()).map(|(s, d)| self.with(s, d)).collect()
    }

    /// Mode `i`, or [`crate::LayoutError::ModeOutOfRange`].
    pub fn mode(&self, i: usize) -> Result<DynLayout, DynError> {
        self.modes().get(i).cloned().ok_or_else(|| {
            DynError::Layout(crate::LayoutError::ModeOutOfRange {
                layout: self.to_string(),
                mode: i,
                rank: self.rank(),
            })
        })
    }

    /// `(L0, L1, …)` of layouts sharing conditions (the conditions of all of them, merged).
    pub fn concat(parts: Vec<DynLayout>) -> DynLayout {
        let mut conds: Vec<Condition> = Vec::new();
        let mut symbols: Vec<String> = Vec::new();
        for p in &parts {
            for c in &p.conds {
                if !conds.contains(c) {
                    conds.push(c.clone());
                }
            }
            for s in &p.symbols {
                if !symbols.contains(s) {
                    symbols.push(s.clone());
                }
            }
        }
        let (shape, stride): (Vec<_>, Vec<_>) = parts.into_iter().map(|p| (p.shape, p.stride)).unzip();
        DynLayout { shape: SymTuple::Tuple(shape), stride: SymTuple::Tuple(stride), conds, symbols }
    }

    pub(super) fn with_flat(&self, modes: Flat) -> DynLayout {
        match modes.len() {
            0 => self.with(SymTuple::Leaf(SymInt::int(1)), SymTuple::Leaf(SymInt::int(0))),
            1 => {
                let (s, d) = modes.into_iter().next().unwrap_or((SymInt::int(1), SymInt::int(0)));
                self.with(SymTuple::Leaf(s), SymTuple::Leaf(d))
            }
            _ => {
                let (s, d): (Vec<_>, Vec<_>) =
                    modes.into_iter().map(|(s, d)| (SymTuple::Leaf(s), SymTuple::Leaf(d))).unzip();
                self.with(SymTuple::Tuple(s), SymTuple::Tuple(d))
            }
        }
    }

    /// The solver that knows this layout's conditions.
    pub fn solver(&self) -> Solver {
        Solver { conds: self.conds.clone() }
    }

    /// Records a condition an operation needs: nothing when it is proved, an error when it
    /// is false for every value, a run-time check otherwise.
    pub fn require(&mut self, cond: Cond, why: impl FnOnce() -> String) -> Result<(), DynError> {
        match self.solver().prove(&cond) {
            Some(true) => Ok(()),
            Some(false) => {
                let given = match self.solver().refuted_by(&cond).as_slice() {
                    [] => String::new(),
                    facts => format!(" allowed by {}", super::eval::quoted(facts)),
                };
                Err(DynError::Never { cond: cond.to_string(), given, why: why() })
            }
            None => {
                let c = Condition { cond, kind: CondKind::Required, why: why() };
                if !self.conds.contains(&c) {
                    self.conds.push(c);
                }
                Ok(())
            }
        }
    }

    /// A branch the algebra must take at expansion time: proved, refuted, or an error that
    /// names the fact that would decide it.
    pub fn decide(&self, cond: Cond, why: impl FnOnce() -> String) -> Result<bool, DynError> {
        self.solver().prove(&cond).ok_or_else(|| DynError::NeedFact { cond: cond.to_string(), why: why() })
    }

    /// Adds a fact the user stated (checked by the constructor, assumed by the algebra).
    pub fn assume(&mut self, cond: Cond) {
        self.conds.push(Condition { cond, kind: CondKind::Fact, why: "stated in `where`".into() });
    }

    /// `coalesce(L)`: drops extents that are 1 and merges `s0:d0 ++ s1:d1` when
    /// `d1 = s0·d0` holds symbolically (values that happen to be equal for some numbers are
    /// not merged; the function is the same).
    pub fn coalesce(&self) -> DynLayout {
        self.with_flat(merge(&self.flat_modes(), false))
    }

    /// The layout with numbers for the symbols: checks positivity, every condition, and that
    /// every offset fits in `isize`; then builds the layout-core layout.
    pub fn substitute(&self, value: &dyn Fn(&str) -> Option<i64>) -> Result<Layout, DynamicError> {
        let shown = |syms: &[&str]| {
            syms.iter()
                .map(|s| format!("{s} = {}", value(s).map_or("?".into(), |v| v.to_string())))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for s in &self.symbols {
            match value(s) {
                Some(v) if v > 0 => {}
                v => return Err(DynamicError::NotPositive { symbol: s.clone().into(), value: v.unwrap_or(0) }),
            }
        }
        for c in &self.conds {
            if c.cond.holds(value) != Some(true) {
                return Err(DynamicError::Condition {
                    layout: self.to_string().into(),
                    condition: c.cond.to_string().into(),
                    why: c.why.clone().into(),
                    values: shown(&c.cond.symbols()),
                });
            }
        }
        let all: Vec<&str> = self.symbols.iter().map(String::as_str).collect();
        let overflow = || DynamicError::Overflow { layout: self.to_string().into(), values: shown(&all) };
        let shape = self.shape.eval(value).ok_or_else(overflow)?;
        let stride = self.stride.eval(value).ok_or_else(overflow)?;
        let l = Layout::new(shape, stride).map_err(|_| overflow())?;
        let lo = l.flat_modes().iter().try_fold(0i64, |a, &(s, d)| a.checked_add((s - 1).checked_mul(d.min(0))?));
        match (l.cosize(), lo) {
            (Ok(_), Some(_)) => Ok(l),
            _ => Err(overflow()),
        }
    }
}

impl fmt::Display for DynLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

/// Coalesces flat modes: drops extents that are 1 and merges `s0:d0 ++ s1:d1` when
/// `d1 = s0·d0` symbolically; with `keep_last`, a trailing extent-1 mode that does not
/// extend the previous one is kept (the last mode of a composition's left operand).
pub(super) fn merge(modes: &[(SymInt, SymInt)], keep_last: bool) -> Flat {
    let mut out: Flat = Vec::new();
    for (s, d) in modes {
        if s.is_one() {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.0.mul(&last.1) == *d => last.0 = last.0.mul(s),
            _ => out.push((s.clone(), d.clone())),
        }
    }
    if let (true, Some((s, d))) = (keep_last, modes.last())
        && s.is_one()
    {
        let extends = out.last().is_some_and(|(s0, d0)| s0.mul(d0) == *d);
        if !extends && (!d.is_zero() || !out.is_empty()) {
            out.push((s.clone(), d.clone()));
        }
    }
    out
}

/// `A ∘ B` for a dynamic A and a B whose strides are static (its extents may be symbolic,
/// e.g. the complement in a divide): the walk of layout-core's composition with each
/// comparison decided by the solver or required as a condition.
pub fn compose(a: &DynLayout, b: &DynLayout) -> Result<DynLayout, DynError> {
    let mut out = a.clone();
    for c in &b.conds {
        if !out.conds.contains(c) {
            out.conds.push(c.clone());
        }
    }
    if b.stride.leaves().iter().any(SymInt::is_negative) {
        return Err(DynError::Other(format!("composition needs non-negative strides in its right operand `{b}`")));
    }
    let ca = merge(&a.flat_modes(), true);
    let ca = if ca.is_empty() { vec![(SymInt::int(1), SymInt::int(0))] } else { ca };
    let mut touched: Vec<Vec<(SymInt, SymInt)>> = vec![Vec::new(); ca.len()];
    let shown = || format!("{a} ∘ {b}");
    let parts = walk_tree(&mut out, &ca, &b.shape, &b.stride, &mut touched, &shown)?;
    // The modes of B distribute when their digits never carry in a non-last mode of A:
    // Σ (count - 1)·step < extent, i.e. Σ count·step - Σ step - extent + 1 <= 0.
    for (r, digits) in touched.iter().enumerate().filter(|(_, d)| d.len() > 1) {
        let mut terms: Vec<SymInt> = vec![SymInt::int(1), ca[r].0.scale(-1)];
        for (count, step) in digits {
            terms.push(count.mul(step));
            terms.push(step.scale(-1));
        }
        let poly = combine(terms);
        // Σ positive terms <= Σ negated negative terms, decided when each side is one
        // monomial (or the positive side is empty).
        let (pos, neg): (Vec<SymInt>, Vec<SymInt>) = poly.into_iter().partition(|t| t.coef().0 > 0);
        let neg: Vec<SymInt> = neg.iter().map(|t| t.scale(-1)).collect();
        let decided = match (pos.as_slice(), neg.as_slice()) {
            ([], _) => true,
            ([p], [n]) => out.solver().prove(&Cond::ge(n.clone(), p.clone())) == Some(true),
            _ => false,
        };
        if !decided {
            return Err(DynError::Other(format!(
                "{}: several modes of the right operand walk mode {r} of the left one, and the symbolic algebra \
                 cannot show that they never carry (compose mode by mode with a tiler `[…]`, or state facts)",
                shown()
            )));
        }
    }
    Ok(DynLayout { shape: parts.0, stride: parts.1, conds: out.conds, symbols: merge_symbols(&a.symbols, &b.symbols) })
}

/// Adds like terms; drops zeros.
fn combine(terms: Vec<SymInt>) -> Vec<SymInt> {
    let mut out: Vec<SymInt> = Vec::new();
    for t in terms {
        match out.iter_mut().find(|o| o.add_like(&t).is_some()) {
            Some(o) => *o = o.add_like(&t).unwrap_or_else(|| o.clone()),
            None => out.push(t),
        }
    }
    out.retain(|t| !t.is_zero());
    out
}

fn merge_symbols(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = a.to_vec();
    for s in b {
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

fn walk_tree(
    out: &mut DynLayout,
    ca: &[(SymInt, SymInt)],
    s: &SymTuple,
    d: &SymTuple,
    touched: &mut [Vec<(SymInt, SymInt)>],
    shown: &dyn Fn() -> String,
) -> Result<(SymTuple, SymTuple), DynError> {
    match (s, d) {
        (SymTuple::Leaf(s), SymTuple::Leaf(d)) => {
            let modes = walk(out, ca, s, d, touched, shown)?;
            Ok(match modes.len() {
                0 => (SymTuple::Leaf(SymInt::int(1)), SymTuple::Leaf(SymInt::int(0))),
                1 => (SymTuple::Leaf(modes[0].0.clone()), SymTuple::Leaf(modes[0].1.clone())),
                _ => modes.into_iter().map(|(s, d)| (SymTuple::Leaf(s), SymTuple::Leaf(d))).unzip_tuple(),
            })
        }
        (SymTuple::Tuple(s), SymTuple::Tuple(d)) => {
            let parts = s
                .iter()
                .zip(d)
                .map(|(s, d)| walk_tree(out, ca, s, d, touched, shown))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(parts.into_iter().unzip_tuple())
        }
        _ => Err(DynError::Other("shape and stride are not congruent".into())),
    }
}

trait UnzipTuple {
    fn unzip_tuple(self) -> (SymTuple, SymTuple);
}

impl<I: Iterator<Item = (SymTuple, SymTuple)>> UnzipTuple for I {
    fn unzip_tuple(self) -> (SymTuple, SymTuple) {
        let (s, d): (Vec<_>, Vec<_>) = self.unzip();
        (SymTuple::Tuple(s), SymTuple::Tuple(d))
    }
}

/// The base case `A ∘ s:d` over the modes of coalesced A (the last one unbounded).
fn walk(
    out: &mut DynLayout,
    ca: &[(SymInt, SymInt)],
    s: &SymInt,
    d: &SymInt,
    touched: &mut [Vec<(SymInt, SymInt)>],
    shown: &dyn Fn() -> String,
) -> Result<Flat, DynError> {
    let last = ca.len() - 1;
    let last_stride = &ca[last].1;
    if d.is_zero() {
        return Ok(vec![(s.clone(), SymInt::int(0))]);
    }
    if s.is_one() {
        // Where index d lands: divide by the non-last extents, rounding up.
        let mut rest = d.clone();
        for (sr, _) in &ca[..last] {
            if out.decide(Cond::divides(rest.clone(), sr.clone()), shown)? {
                rest = rest.div(sr);
            } else if out.decide(Cond::ge(sr.clone(), rest.clone()), shown)? {
                rest = SymInt::int(1);
            } else {
                return Err(DynError::Other(format!(
                    "{}: a size-1 mode whose stride is not a multiple of an extent",
                    shown()
                )));
            }
        }
        return Ok(vec![(SymInt::int(1), last_stride.mul(&rest))]);
    }
    let (mut rest_shape, mut rest_stride) = (s.clone(), d.clone());
    let mut modes = Vec::new();
    for (r, (sr, dr)) in ca[..last].iter().enumerate() {
        if rest_shape.is_one() {
            break;
        }
        // A unit step never skips a mode (skipping an extent-1 mode changes nothing).
        if !rest_stride.is_one() && out.decide(Cond::divides(rest_stride.clone(), sr.clone()), shown)? {
            rest_stride = rest_stride.div(sr);
            continue;
        }
        // Does the walk end inside this mode: (rest_shape - 1)·rest_stride < sr? When the
        // walk provably fills the mode in whole steps and the rest is a whole number of
        // such fills, both answers give the same modes: no need to decide.
        let fills = || {
            let s = out.solver();
            s.prove(&Cond::gt(sr.clone(), rest_stride.clone())) == Some(true)
                && s.prove(&Cond::divides(sr.clone(), rest_stride.clone())) == Some(true)
                && s.prove(&Cond::divides(rest_shape.clone(), sr.div(&rest_stride))) == Some(true)
        };
        let inside = match rest_shape.as_int() {
            Some(n) => out.decide(Cond::gt(sr.clone(), rest_stride.scale(n - 1)), shown)?,
            None if fills() => false,
            None => out.decide(Cond::ge(sr.clone(), rest_shape.mul(&rest_stride)), shown)?,
        };
        let count = if inside {
            rest_shape.clone()
        } else {
            let (sr2, rs2) = (sr.clone(), rest_stride.clone());
            let boundary =
                || format!("{}: stride divisibility (Eq. 20) at mode {r} ({sr2}) of the left operand", shown());
            out.require(Cond::gt(sr.clone(), rest_stride.clone()), boundary)?;
            let boundary =
                || format!("{}: stride divisibility (Eq. 20): {rs2} must divide the extent {sr2} of mode {r}", shown());
            out.require(Cond::divides(sr.clone(), rest_stride.clone()), boundary)?;
            let count = sr.div(&rest_stride);
            let (c2, rs) = (count.clone(), rest_shape.clone());
            out.require(Cond::divides(rest_shape.clone(), count.clone()), || {
                format!(
                    "{}: shape divisibility (Eq. 21): {c2} must divide the {rs} remaining elements at mode {r}",
                    shown()
                )
            })?;
            count
        };
        touched[r].push((count.clone(), rest_stride.clone()));
        modes.push((count.clone(), dr.mul(&rest_stride)));
        rest_shape = rest_shape.div(&count);
        rest_stride = SymInt::int(1);
    }
    if !rest_shape.is_one() {
        modes.push((rest_shape, last_stride.mul(&rest_stride)));
    }
    Ok(modes)
}

/// `complement(B, n)` of a static B in a symbolic extent n: the static holes of B, then
/// the rest mode `n/c : c` (c the extent B and its holes cover), coalesced. B's complement
/// must be exact (a divide needs a bijection, docs/algebra.md §3.9). With `exact`, `c | n`
/// (the tiles cover A exactly) is required (a run-time check); otherwise it must be decided
/// at expansion time (`flat_divide`'s ceil-div tiles have no form over symbols).
fn complement_in(a: &mut DynLayout, b: &Layout, n: &SymInt, op: Operation, exact: bool) -> Result<Flat, DynError> {
    if let Some((stride, extent)) = crate::complement::complement_weak_at(b) {
        return Err(DynError::Layout(crate::LayoutError::TilerNotBijective {
            op,
            tiler: b.to_string(),
            layout: a.to_string(),
            reason: format!(
                "its complement is weak (the stride {stride} is not a multiple of the extent {extent} below it)"
            ),
        }));
    }
    let modes = complement_modes(b, 1).map_err(DynError::Layout)?;
    let mut flat: Flat = modes.flat_modes().into_iter().map(|(s, d)| (SymInt::int(s), SymInt::int(d))).collect();
    let Some(last) = flat.last_mut() else { return Err(DynError::Other("empty complement".into())) };
    let extent = last.1.clone();
    let (b2, n2, e2) = (b.to_string(), n.clone(), extent.clone());
    let why = move || {
        format!("{op}: the tiler `{b2}` covers {e2} elements, which must divide the size {n2} of the tiled mode")
    };
    let divides = Cond::divides(n.clone(), extent.clone());
    if exact {
        a.require(divides, why)?;
    } else if !a.decide(divides, why)? {
        return Err(DynError::Other(format!(
            "{op}: the tiler `{b}` does not divide the size {n} of the tiled mode; ceil-div tiles have no form over \
             symbols (`local_tile_edge` tiles with edges)"
        )));
    }
    last.0 = n.div(&extent);
    Ok(merge(&flat, false))
}

/// `logical_divide(A, B)` for a static layout B: `A ∘ (B, complement(B, |A|))`.
pub fn logical_divide(a: &DynLayout, b: &Layout, op: Operation) -> Result<DynLayout, DynError> {
    divide_by(a, b, op, true)
}

/// `A ∘ (B, complement(B, |A|))`: with `exact`, the tiles must cover A (a run-time check);
/// otherwise that must be decided at expansion time.
fn divide_by(a: &DynLayout, b: &Layout, op: Operation, exact: bool) -> Result<DynLayout, DynError> {
    if let Some(&(s, _)) = b.flat_modes().iter().find(|&&(s, d)| d == 0 && s > 1) {
        return Err(DynError::Layout(crate::LayoutError::TilerNotBijective {
            op,
            tiler: b.to_string(),
            layout: a.to_string(),
            reason: format!("its broadcast mode of extent {s} (stride 0) repeats tiles"),
        }));
    }
    let mut a = a.clone();
    let n = a.size();
    let rest = complement_in(&mut a, b, &n, op, exact)?;
    let b_dyn = DynLayout::from_layout(b);
    let rest = b_dyn.with_flat(rest);
    let star = DynLayout::concat(vec![b_dyn, rest]);
    compose(&a, &star)
}

/// Applies `op` with a layout tiler, or mode by mode.
fn by_mode(
    a: &DynLayout,
    t: &Tiler,
    op: &dyn Fn(&DynLayout, &Layout) -> Result<DynLayout, DynError>,
) -> Result<DynLayout, DynError> {
    match t {
        Tiler::Layout(b) => op(a, b),
        Tiler::Modes(m) => {
            let modes = a.modes();
            if m.len() > modes.len() {
                return Err(too_many(a, t, m.len()));
            }
            let parts = modes
                .iter()
                .enumerate()
                .map(|(i, mode)| match m.get(i) {
                    Some(Some(ti)) => by_mode(mode, ti, op),
                    _ => Ok(mode.clone()),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(DynLayout::concat(parts))
        }
    }
}

fn too_many(a: &DynLayout, t: &Tiler, n: usize) -> DynError {
    DynError::Layout(crate::LayoutError::too_many_modes("tiler", t, n, a, a.rank()))
}

/// `logical_divide(A, T)` for any static tiler.
pub fn logical_divide_tiler(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    by_mode(a, t, &|a, b| logical_divide(a, b, Operation::LogicalDivide))
}

/// `composition(A, T)` for a static tiler.
pub fn composition_tiler(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    by_mode(a, t, &|a, b| compose(a, &DynLayout::from_layout(b)))
}

/// `((tiles…), (rests…, untiled modes…))`.
fn hier_unzip(a: &DynLayout, t: &Tiler, op: Operation) -> Result<DynLayout, DynError> {
    hier_unzip_by(a, t, &|a, b| logical_divide(a, b, op))
}

/// `((firsts…), (seconds…, untiled modes…))` of `split` applied by mode (layout-core's
/// `hier_unzip`): a `_` entry contributes `(A_i, 1:0)`, the whole mode as its tile.
pub(super) fn hier_unzip_by(
    a: &DynLayout,
    t: &Tiler,
    split: &dyn Fn(&DynLayout, &Layout) -> Result<DynLayout, DynError>,
) -> Result<DynLayout, DynError> {
    let m = match t {
        Tiler::Layout(b) => return split(a, b),
        Tiler::Modes(m) => m,
    };
    let modes = a.modes();
    if m.len() > modes.len() {
        return Err(too_many(a, t, m.len()));
    }
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for (ai, ti) in modes.iter().zip(m) {
        let split = match ti {
            Some(ti) => hier_unzip_by(ai, ti, split)?,
            // `_`: the whole mode as its tile, a rest of 1 (layout-core's `hier_unzip`).
            None => DynLayout::concat(vec![
                ai.clone(),
                ai.with(SymTuple::Leaf(SymInt::int(1)), SymTuple::Leaf(SymInt::int(0))),
            ]),
        };
        first.push(split.mode(0)?);
        second.push(split.mode(1)?);
    }
    second.extend(modes[m.len()..].iter().cloned());
    Ok(DynLayout::concat(vec![DynLayout::concat(first), DynLayout::concat(second)]))
}

/// `zipped_divide(A, T)` (a `_` entry is the whole mode as its tile, as in layout-core's
/// `zipped_divide`).
pub fn zipped_divide(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    hier_unzip(a, t, Operation::ZippedDivide)
}

/// `tiled_divide(A, T)`: `((tiles…), rest_0, rest_1, …)`.
pub fn tiled_divide(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    Ok(tiled_unpack(&hier_unzip(a, t, Operation::TiledDivide)?))
}

/// `local_tile(A, T)`: mode 0 of the zipped divide (one tile; a `_` entry keeps the whole
/// mode: `local_tile((M,N):(1,LD), [8:1,_])` is `(8,N):(1,LD)`).
pub fn local_tile(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    hier_unzip(a, t, Operation::LocalTile)?.mode(0)
}

/// `local_partition(A, T)`: mode 1 of the zipped divide.
pub fn local_partition(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    hier_unzip(a, t, Operation::LocalPartition)?.mode(1)
}

/// `slice(A, c)`: the sub-layout of the modes `c` leaves free (the structure follows
/// layout-core's slice of a proxy layout whose strides number the leaves).
pub fn slice(a: &DynLayout, c: &SliceCoord) -> Result<DynLayout, DynError> {
    let mut k = 0i64;
    let mut n = || {
        k += 1;
        k
    };
    let proxy_shape = a.shape.with_leaves(&mut std::iter::repeat_with(|| SymInt::int(2)));
    let shape = proxy_shape.eval(&|_| None).ok_or_else(|| DynError::Other("slice".into()))?;
    let stride = shape.map_leaves(&mut |_| n());
    let proxy = Layout::new(shape, stride).map_err(DynError::Layout)?;
    let (sub, _) = crate::slice::slice(&proxy, c).map_err(DynError::Layout)?;
    let (ls, ld) = (a.shape.leaves(), a.stride.leaves());
    let pick = |j: i64| usize::try_from(j - 1).ok();
    let shape = SymTuple::from_int_tuple(sub.shape());
    let mut idx = sub.stride().leaves().into_iter();
    let mut idx2 = sub.stride().leaves().into_iter();
    let s = shape.with_leaves(&mut std::iter::from_fn(|| {
        let j = idx.next()?;
        Some(pick(j).and_then(|j| ls.get(j).cloned()).unwrap_or_else(|| SymInt::int(1)))
    }));
    let d = shape.with_leaves(&mut std::iter::from_fn(|| {
        let j = idx2.next()?;
        Some(pick(j).and_then(|j| ld.get(j).cloned()).unwrap_or_else(|| SymInt::int(0)))
    }));
    Ok(a.with(s, d))
}

/// `1 + Σ (s_i - 1)·max(d_i, 0)` over symbols (`(M,N):(1,M)` has cosize `M*N`,
/// `(M,N):(1,LD)` the sum `LD*N+M-LD`); an error on overflow or where a stride divides by a
/// sum (no expansion).
pub fn cosize(l: &DynLayout) -> Result<SymInt, DynError> {
    cosize_sum(l, true).ok_or_else(|| {
        DynError::Other(format!(
            "cosize: the cosize of `{l}` has no form over symbols (the numbers overflow, or a stride divides by a sum)"
        ))
    })
}

/// `1 + Σ (s_i - 1)·d_i`, over the positive strides only with `positive_only`: added up,
/// expanded and factored again.
fn cosize_sum(l: &DynLayout, positive_only: bool) -> Option<SymInt> {
    let mut acc = SymInt::int(1);
    for (s, d) in l.flat_modes() {
        if positive_only && d.coef().0 <= 0 {
            continue;
        }
        acc = acc.add(&s.sub(&SymInt::int(1))?.mul(&d))?;
    }
    Some(acc)
}

/// The cosize `1 + Σ (s_i - 1)·d_i` of a layout with non-negative strides, when it is a
/// product of symbols and of sums the layout has (`(M,N):(1,M)` has cosize `M*N`,
/// `(W-2,H):(1,W-2)` has `H*(W-2)`).
fn cosize_monomial(l: &DynLayout) -> Option<SymInt> {
    let c = cosize_sum(l, false)?;
    let leaves: Vec<SymInt> = l.shape.leaves().into_iter().chain(l.stride.leaves()).collect();
    let known = |s: &SymSum| leaves.iter().any(|x| x.sums().any(|t| t == s));
    (c.coef().0 >= 0 && c.sums().all(known)).then_some(c)
}

/// Sorts modes by their stride (insertion sort), every comparison decided by the solver of
/// `a` or an error naming the fact that decides it.
pub(super) fn sort_by_stride<T>(
    a: &DynLayout,
    modes: &mut [T],
    stride: impl Fn(&T) -> &SymInt,
    shown: &dyn Fn() -> String,
) -> Result<(), DynError> {
    for i in 1..modes.len() {
        let mut j = i;
        while j > 0 {
            let (lo, hi) = (stride(&modes[j - 1]).clone(), stride(&modes[j]).clone());
            let solver = a.solver();
            if solver.prove(&Cond::ge(hi.clone(), lo.clone())) == Some(true) {
                break;
            }
            if solver.prove(&Cond::ge(lo.clone(), hi.clone())) != Some(true) && a.decide(Cond::ge(hi, lo), shown)? {
                break;
            }
            modes.swap(j - 1, j);
            j -= 1;
        }
    }
    Ok(())
}

/// The un-coalesced complement of A over symbols: for the modes of filter(A) sorted by
/// stride (each comparison decided, or an error naming the fact), a hole `⌊d_i/e⌋ : e` before
/// each, where e is the extent covered so far; the condition `d_i >= e` (the modes do not
/// overlap) is decided or checked at run time. Whether `e | d_i` (the complement is exact)
/// is decided at expansion time; a weak hole (`e ∤ d_i`) is taken when `weak` allows it and
/// `d_i/e` is a constant (its floor is then a number). The rest mode `rest : e` comes last,
/// with `rest` from the caller. Returns the modes, the sorted modes of A and whether a hole
/// is weak.
fn complement_flat(
    a: &mut DynLayout,
    of: &DynLayout,
    rest: &dyn Fn(&mut DynLayout, &SymInt) -> Result<SymInt, DynError>,
    op: Operation,
    weak: bool,
) -> Result<(Flat, Flat, bool), DynError> {
    if of.stride.leaves().iter().any(SymInt::is_negative) {
        return Err(DynError::Other(format!("{op} needs non-negative strides, but `{of}` has a negative one")));
    }
    let kept: Flat = of.flat_modes().into_iter().filter(|(s, d)| !s.is_one() && !d.is_zero()).collect();
    let mut modes = merge(&kept, false);
    sort_by_stride(a, &mut modes, |m| &m.1, &|| format!("{op}: sorting the strides of `{of}`"))?;
    let sorted = modes.clone();
    let mut is_weak = false;
    let mut extent = SymInt::int(1);
    let mut out = Vec::new();
    for (s, d) in modes {
        let (d2, e2) = (d.clone(), extent.clone());
        a.require(Cond::ge(d.clone(), extent.clone()), || {
            format!("{op}: the mode with stride {d2} of `{of}` must not start inside the extent {e2} below it")
        })?;
        let exact = a.decide(Cond::divides(d.clone(), extent.clone()), || {
            format!("{op}: whether the complement of `{of}` is exact")
        })?;
        let ratio = d.div(&extent);
        let hole = match (exact, ratio.is_const()) {
            (true, _) => ratio,
            (false, true) if weak => {
                is_weak = true;
                let (n, q) = ratio.coef();
                SymInt::ratio(n.div_euclid(q), 1)
            }
            (false, true) => {
                return Err(DynError::Other(format!(
                    "{op}: the complement of `{of}` is weak (its stride {d} is not a multiple of the extent {extent} \
                     below it), and {op} needs copies whose disjointness the symbolic algebra does not check"
                )));
            }
            (false, false) => {
                return Err(DynError::Other(format!(
                    "{op}: the complement of `{of}` is weak (its stride {d} is not a multiple of the extent {extent} \
                     below it), and ⌊{d}/{extent}⌋ is not a product of symbols"
                )));
            }
        };
        out.push((hole, extent.clone()));
        extent = s.mul(&d);
    }
    let r = rest(a, &extent)?;
    out.push((r, extent));
    Ok((out, sorted, is_weak))
}

/// `complement(A, cotarget)` over symbols (`cotarget` defaults to `cosize(A)`, which must
/// then be one monomial). The rest mode's extent `⌈cotarget/e⌉` must be decided: an integer
/// (a fact such as `where M % 4 == 0` may say so) or static numbers.
pub fn complement(a: &DynLayout, cotarget: Option<&SymInt>) -> Result<DynLayout, DynError> {
    let cot = match cotarget {
        Some(c) => c.clone(),
        None => cosize_monomial(a).ok_or_else(|| {
            DynError::Other(format!(
                "complement: the cosize of `{a}` is not a single product of symbols; give the cotarget, \
                 `complement(A, n)`"
            ))
        })?,
    };
    if cot.coef().0 <= 0 {
        return Err(DynError::Other(format!("complement: the cotarget {cot} must be positive")));
    }
    let mut out = a.clone();
    for sum in cot.sums() {
        out.require_positive(sum, || format!("complement: the cotarget {cot} must be positive"))?;
    }
    let rest = |l: &mut DynLayout, e: &SymInt| -> Result<SymInt, DynError> {
        // A constant ratio (`19*M` over `5*M`) rounds up to a number.
        let ratio = cot.div(e);
        if ratio.is_const() {
            let (n, d) = ratio.coef();
            return Ok(SymInt::ratio((n + d - 1).div_euclid(d), 1));
        }
        let shown = || format!("complement: the rest mode of `{a}` is ⌈{cot}/{e}⌉, exact over symbols only");
        if l.decide(Cond::divides(cot.clone(), e.clone()), shown)? {
            Ok(cot.div(e))
        } else {
            Err(DynError::Other(format!(
                "complement: {cot} is not a multiple of {e}, so the rest mode ⌈{cot}/{e}⌉ is not a product of symbols"
            )))
        }
    };
    let (flat, sorted, weak) = complement_flat(&mut out, a, &rest, Operation::Complement, true)?;
    if weak {
        // A symbolic extent that is 1 drops out of the static construction, which changes
        // the floors of a weak complement: each must be decided greater than 1.
        for (s, _) in &sorted {
            if !s.is_const() {
                let s2 = s.clone();
                if !out.decide(Cond::gt(s.clone(), SymInt::int(1)), || {
                    format!("complement: `{a}` has a weak complement, whose holes change when the extent {s2} is 1")
                })? {
                    return Err(DynError::Other(format!("complement: the extent {s} of `{a}` is 1")));
                }
            }
        }
        // CuTe's post-condition `cosize((A, A*)) >= cotarget`, which an exact complement
        // always meets: Σ (s-1)·d over A, plus 1 + Σ (h-1)·e over the complement.
        let mut terms = vec![SymInt::int(1), cot.scale(-1)];
        for (s, d) in sorted.iter().chain(&flat) {
            terms.push(s.mul(d));
            terms.push(d.scale(-1));
        }
        let (pos, neg): (Vec<SymInt>, Vec<SymInt>) = combine(terms).into_iter().partition(|t| t.coef().0 > 0);
        let neg: Vec<SymInt> = neg.iter().map(|t| t.scale(-1)).collect();
        let reach = match (pos.as_slice(), neg.as_slice()) {
            (_, []) => Some(true),
            ([], _) => Some(false),
            ([p], [n]) => out.solver().prove(&Cond::ge(p.clone(), n.clone())),
            _ => None,
        };
        match reach {
            Some(true) => {}
            Some(false) => {
                return Err(DynError::Other(format!(
                    "complement: `{a}` has only a weak complement in {cot}, and `(A, complement)` falls short of the \
                     cotarget {cot} for every value of the symbols"
                )));
            }
            None => {
                return Err(DynError::Other(format!(
                    "complement: `{a}` has only a weak complement in {cot}; whether `(A, complement)` reaches the \
                     cotarget is not decided over symbols"
                )));
            }
        }
    }
    Ok(out.with_flat(merge(&flat, false)))
}

/// `logical_product(A, B) = (A, complement(A, |A|·cosize(B)) ∘ B)` over symbols: A's
/// complement exact (decided), the composition with B's walk decided or checked as in
/// [`compose`]. The rest mode's extent does not matter to the composition (its last mode is
/// unbounded), so no rounding is needed.
pub fn logical_product(a: &DynLayout, b: &DynLayout) -> Result<DynLayout, DynError> {
    if b.stride.leaves().iter().any(SymInt::is_negative) {
        return Err(DynError::Other(format!("logical_product needs non-negative strides in its right operand `{b}`")));
    }
    let mut out = a.clone();
    for c in &b.conds {
        if !out.conds.contains(c) {
            out.conds.push(c.clone());
        }
    }
    // Any extent at least ⌈|A|·cosize(B)/e⌉ will do: |A|·Π s_i·max(d_i, 1) over B bounds it.
    let bound = b.flat_modes().iter().fold(a.size(), |acc, (s, d)| {
        let d = if d.is_zero() { SymInt::int(1) } else { d.clone() };
        acc.mul(s).mul(&d)
    });
    let rest = |_: &mut DynLayout, _: &SymInt| Ok(bound.clone());
    let (flat, _, _) = complement_flat(&mut out, a, &rest, Operation::LogicalProduct, false)?;
    let c = out.with_flat(merge(&flat, false));
    let copies = compose(&c, b)?;
    let mut result = DynLayout::concat(vec![a.clone(), copies]);
    result.symbols = merge_symbols(&a.symbols, &b.symbols);
    Ok(result)
}

/// `logical_product(A, T)` for a static tiler by mode over a dynamic A.
pub fn logical_product_tiler(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    by_mode(a, t, &|a, b| logical_product(a, &DynLayout::from_layout(b)))
}

fn pad(l: &DynLayout, r: usize) -> DynLayout {
    if l.rank() >= r {
        return l.clone();
    }
    let mut modes = l.modes();
    while modes.len() < r {
        modes.push(l.with(SymTuple::Leaf(SymInt::int(1)), SymTuple::Leaf(SymInt::int(0))));
    }
    DynLayout::concat(modes)
}

/// `blocked_product(A, B)` (`raked = false`) or `raked_product(A, B)` over symbols, as
/// layout-core pairs the modes of the logical product of the padded operands.
pub fn zip_product(a: &DynLayout, b: &DynLayout, raked: bool) -> Result<DynLayout, DynError> {
    let r = a.rank().max(b.rank());
    let (ap, bp) = (pad(a, r), pad(b, r));
    let p = logical_product(&ap, &bp)?;
    let (blocks, grids) = (p.mode(0)?, p.mode(1)?);
    let parts = |part: DynLayout, operand: &DynLayout| {
        if matches!(operand.shape, SymTuple::Leaf(_)) { vec![part] } else { part.modes() }
    };
    let (blocks, grids) = (parts(blocks, &ap), parts(grids, &bp));
    let pairs: Vec<DynLayout> = blocks
        .into_iter()
        .zip(grids)
        .map(|(x, g)| DynLayout::concat(if raked { vec![g, x] } else { vec![x, g] }))
        .collect();
    let mut out = DynLayout::concat(pairs);
    out.symbols = p.symbols;
    Ok(out)
}

/// `(firsts…, seconds…)` from a zipped result: both modes unpacked, a part of rank 1 kept
/// whole (layout-core's `flat_unpack`).
fn flat_unpack(zipped: &DynLayout) -> DynLayout {
    let mut out = Vec::new();
    for part in zipped.modes() {
        if part.rank() == 1 {
            out.push(part);
        } else {
            out.extend(part.modes());
        }
    }
    let mut l = DynLayout::concat(out);
    l.symbols = zipped.symbols.clone();
    l
}

/// `((firsts…), second_0, second_1, …)` from a zipped result.
fn tiled_unpack(zipped: &DynLayout) -> DynLayout {
    let modes = zipped.modes();
    let mut out = vec![modes[0].clone()];
    out.extend(modes.get(1).map(DynLayout::modes).unwrap_or_default());
    let mut l = DynLayout::concat(out);
    l.symbols = zipped.symbols.clone();
    l
}

/// `flat_divide(A, T)`: `(tile_0, …, rest_0, …)`. layout-core's `flat_divide` takes ceil-div
/// tiles; over symbols the tiles must provably divide A (`where M % 8 == 0`), and the tiler
/// may not broadcast.
pub fn flat_divide(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    Ok(flat_unpack(&hier_unzip_by(a, t, &|a, b| divide_by(a, b, Operation::FlatDivide, false))?))
}

/// `zipped_product(A, T)`: `((blocks…), (grids…, untiled modes…))`, each mode's
/// [`logical_product`] with its static tile.
pub fn zipped_product(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    hier_unzip_by(a, t, &|a, b| logical_product(a, &DynLayout::from_layout(b)))
}

/// `tiled_product(A, T)`: `((blocks…), grid_0, grid_1, …)`.
pub fn tiled_product(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    Ok(tiled_unpack(&zipped_product(a, t)?))
}

/// `flat_product(A, T)`: both modes of the zipped product unpacked.
pub fn flat_product(a: &DynLayout, t: &Tiler) -> Result<DynLayout, DynError> {
    Ok(flat_unpack(&zipped_product(a, t)?))
}
