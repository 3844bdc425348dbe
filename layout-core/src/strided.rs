//! Layouts whose strides live in any semimodule (paper §1): the shared machinery behind
//! coordinate-stride and F2-stride layouts. A [`Strided`] is a shape and one stride per leaf;
//! evaluation, coalescing and composition with an integer layout on the right only need the
//! semimodule operations, so they are written once here. Structural operations (modes,
//! flattening, slicing) are the integer ones applied to an index proxy whose stride leaves
//! number the leaves.
//!
//! Composition is written once, here, for every semimodule: the integer
//! [`composition`](crate::composition) is this walk with `i64` strides.

use std::cell::RefCell;
use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::int_tuple::{Int, IntTuple, Tuple};
use crate::layout::Layout;
use crate::semimodule::Semimodule;
use crate::slice::{SliceCoord, slice};
use crate::tiler::Tiler;

/// A shape and one stride per leaf, left to right.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Strided<S> {
    pub(crate) shape: IntTuple,
    pub(crate) leaves: Vec<S>,
}

impl<S: Semimodule> Strided<S> {
    /// A layout from parts known to be valid (as many strides as the shape has leaves).
    pub(crate) fn new(shape: IntTuple, leaves: Vec<S>) -> Strided<S> {
        Strided { shape, leaves }
    }

    pub(crate) fn size(&self) -> i64 {
        self.shape.product().unwrap_or(i64::MAX)
    }

    /// The flattened `(shape, stride)` leaves.
    pub(crate) fn flat(&self) -> Vec<(i64, S)> {
        self.shape.leaves().into_iter().zip(self.leaves.iter().cloned()).collect()
    }

    /// `1:0` when empty, a scalar layout for one mode, a flat tuple otherwise.
    pub(crate) fn from_flat(modes: Vec<(i64, S)>) -> Strided<S> {
        match modes.len() {
            0 => Strided::new(Int(1), vec![S::zero()]),
            1 => {
                let (s, d) = modes.into_iter().next().unwrap_or((1, S::zero()));
                Strided::new(Int(s), vec![d])
            }
            _ => {
                let (shape, leaves): (Vec<i64>, Vec<S>) = modes.into_iter().unzip();
                Strided::new(Tuple(shape.into_iter().map(Int).collect()), leaves)
            }
        }
    }

    /// `(L0, L1, …)`: always a tuple; the size must fit in 64 bits.
    pub(crate) fn concat(parts: Vec<Strided<S>>) -> Result<Strided<S>> {
        let mut shape = Vec::with_capacity(parts.len());
        let mut leaves = Vec::new();
        for p in parts {
            shape.push(p.shape);
            leaves.extend(p.leaves);
        }
        let shape = Tuple(shape);
        shape.product()?;
        Ok(Strided::new(shape, leaves))
    }

    /// The integer layout of this shape whose stride leaves are `1, 2, …, n`: structural
    /// operations on it tell which leaves end up where.
    fn proxy(&self) -> Result<Layout> {
        let mut k = 0i64;
        let stride = self.shape.map_leaves(&mut |_| {
            k += 1;
            k
        });
        Layout::new(self.shape.clone(), stride)
    }

    /// The layout a structural operation turned the proxy into (stride leaf 0 is a zero
    /// stride, e.g. the `1:0` of an empty slice).
    fn like_proxy(&self, p: &Layout) -> Strided<S> {
        let leaves = p
            .stride()
            .leaves()
            .into_iter()
            .map(|k| usize::try_from(k - 1).ok().and_then(|j| self.leaves.get(j).cloned()).unwrap_or_else(S::zero))
            .collect();
        Strided::new(p.shape().clone(), leaves)
    }

    /// Mode i (a scalar layout is its own mode 0).
    pub(crate) fn mode(&self, i: usize) -> Result<Strided<S>> {
        match self.proxy()?.mode(i) {
            Ok(m) => Ok(self.like_proxy(&m)),
            Err(_) => Err(LayoutError::ModeOutOfRange {
                layout: self.display().to_string(),
                mode: i,
                rank: self.shape.rank(),
            }),
        }
    }

    pub(crate) fn modes(&self) -> Result<Vec<Strided<S>>> {
        Ok(self.proxy()?.modes().iter().map(|m| self.like_proxy(m)).collect())
    }

    pub(crate) fn flatten(&self) -> Strided<S> {
        Strided::new(self.shape.flatten(), self.leaves.clone())
    }

    /// `L(i)` at an integer index; past the size the last mode is unbounded.
    pub(crate) fn eval(&self, i: i64) -> Result<S> {
        if i < 0 {
            return Err(LayoutError::NegativeIndex { index: i });
        }
        let modes = self.flat();
        let mut rest = i;
        let mut acc = S::zero();
        for (k, (s, d)) in modes.iter().enumerate() {
            let digit = if k + 1 == modes.len() { rest } else { rest % s };
            rest /= s;
            acc = acc.add(&d.scale(digit)?)?;
        }
        Ok(acc)
    }

    /// `L(c)` at a coordinate weakly congruent to the shape.
    pub(crate) fn eval_coord(&self, crd: &IntTuple) -> Result<S> {
        if let Some(&index) = crd.leaves().iter().find(|&&v| v < 0) {
            return Err(LayoutError::NegativeIndex { index });
        }
        let mut digits = Vec::with_capacity(self.leaves.len());
        leaf_digits(crd, &self.shape, &mut digits)?;
        digits.iter().zip(&self.leaves).try_fold(S::zero(), |acc, (&c, d)| acc.add(&d.scale(c)?))
    }

    /// `L(0), …, L(|L|-1)`, for layouts of at most [`Layout::TABLE_LIMIT`] elements.
    pub(crate) fn table(&self) -> Result<Vec<S>> {
        let n = self.size();
        if n > Layout::TABLE_LIMIT {
            return Err(LayoutError::TooLarge { size: n, limit: Layout::TABLE_LIMIT });
        }
        (0..n).map(|i| self.eval(i)).collect()
    }

    /// The sub-layout of the free modes of `c` and the value at `c` with `_` = 0 (see
    /// [`slice`]): `L(c' + c*) = L(c') + L|_(c*)` in any semimodule.
    pub(crate) fn slice(&self, c: &SliceCoord) -> Result<(Strided<S>, S)> {
        let offset = self.eval_coord(&c.fixed())?;
        let (sub, _) = slice(&self.proxy()?, c)?;
        Ok((self.like_proxy(&sub), offset))
    }

    /// Coalesce: drops size-1 modes and merges `s0:d0 ++ s1:d1` when `d1 = s0·d0` (in the
    /// semimodule). With `keep_last` a trailing size-1 mode that does not continue the last
    /// merged one is kept, so the extended function is preserved too.
    pub(crate) fn coalesce(&self, keep_last: bool) -> Strided<S> {
        Strided::from_flat(merge(&self.flat(), keep_last))
    }

    /// Canonical notation `shape:stride` with the strides printed by the semimodule.
    pub(crate) fn display(&self) -> Printed<'_, S> {
        Printed(self)
    }
}

/// Prints a [`Strided`] as `shape:stride`.
pub(crate) struct Printed<'a, S>(&'a Strided<S>);

impl<S: Semimodule> fmt::Display for Printed<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.0.shape)?;
        let mut leaves = self.0.leaves.iter();
        write_like(f, &self.0.shape, &mut leaves)
    }
}

fn write_like<S: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    shape: &IntTuple,
    leaves: &mut std::slice::Iter<'_, S>,
) -> fmt::Result {
    match shape {
        Int(_) => match leaves.next() {
            Some(d) => write!(f, "{d}"),
            None => f.write_str("0"),
        },
        Tuple(t) => {
            f.write_str("(")?;
            for (k, c) in t.iter().enumerate() {
                if k > 0 {
                    f.write_str(",")?;
                }
                write_like(f, c, leaves)?;
            }
            f.write_str(")")
        }
    }
}

/// The digit of every leaf of `shape` at coordinate `crd` (weakly congruent to it): an
/// integer component is split colexicographically over its mode, the last leaf unreduced.
fn leaf_digits(crd: &IntTuple, shape: &IntTuple, out: &mut Vec<i64>) -> Result<()> {
    match (crd, shape) {
        (Tuple(c), Tuple(s)) if c.len() == s.len() => c.iter().zip(s).try_for_each(|(c, s)| leaf_digits(c, s, out)),
        (Int(i), Int(_)) => {
            out.push(*i);
            Ok(())
        }
        (Int(i), Tuple(s)) => {
            let mut rest = *i;
            for (k, child) in s.iter().enumerate() {
                if k + 1 == s.len() {
                    leaf_digits(&Int(rest), child, out)?;
                } else {
                    let n = child.product()?;
                    leaf_digits(&Int(rest % n), child, out)?;
                    rest /= n;
                }
            }
            Ok(())
        }
        _ => Err(LayoutError::CoordinateRank { coord: crd.to_string(), shape: shape.to_string() }),
    }
}

/// The generic `merge_modes` of `coalesce.rs`.
fn merge<S: Semimodule>(modes: &[(i64, S)], keep_last: bool) -> Vec<(i64, S)> {
    let mut out: Vec<(i64, S)> = Vec::new();
    for (s, d) in modes {
        if *s == 1 {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1.continues(last.0, d) => last.0 *= s,
            _ => out.push((*s, d.clone())),
        }
    }
    if let (true, Some((1, d))) = (keep_last, modes.last()) {
        let extends = out.last().is_some_and(|(s0, d0)| d0.continues(*s0, d));
        if !extends && (!d.is_zero() || !out.is_empty()) {
            out.push((1, d.clone()));
        }
    }
    out
}

/// One step of the walk of a rank-1 B over a mode of coalesced A (as in `composition.rs`).
#[derive(Clone, Copy, Debug)]
struct Digit {
    mode: usize,
    count: i64,
    step: i64,
}

/// `A ∘ B` for strides of A in any semimodule and an integer B, exactly as
/// [`composition`](crate::composition) does it for integer A: coalesce A keeping its
/// extension, walk each mode `s:d` of B over A's modes (stride divisibility, Eq. 20, and shape
/// divisibility, Eq. 21, with walks allowed to end inside a mode), scale A's strides by the
/// steps of the walk; a B with several modes must distribute (checked by digits, else point
/// by point).
pub(crate) fn compose<S: Semimodule>(a: &Strided<S>, b: &Layout) -> Result<Strided<S>> {
    compose_traced(a, b, None)
}

/// [`compose`], narrating each step of the walk into `log` (for `layout explain`).
pub(crate) fn compose_traced<S: Semimodule>(
    a: &Strided<S>,
    b: &Layout,
    log: Option<&RefCell<Vec<String>>>,
) -> Result<Strided<S>> {
    b.require_non_negative("composition (right operand)")?;
    let cal = a.coalesce(true);
    let ca = cal.flat();
    let ctx = Ctx { a, ca: &ca, b, log };
    ctx.say(|| format!("coalesce A = {} keeping its extension (last mode unbounded): {}", a.display(), cal.display()));
    let mut digits = Vec::new();
    let r = ctx.compose(b, &mut digits)?;
    if b.flat_modes().iter().filter(|&&(s, d)| s > 1 && d != 0).count() > 1 {
        ctx.check_distributes(&r, &digits)?;
    }
    ctx.say(|| format!("A ∘ B = {}", r.display()));
    Ok(r)
}

/// Composes (a mode of) A with an integer layout.
pub(crate) type ComposeOp<'a, S> = &'a dyn Fn(&Strided<S>, &Layout) -> Result<Strided<S>>;

/// `A ∘ T` for a tiler: `op` for a layout, by mode for `[T0, T1, …]` (`_` and modes past the
/// tiler untouched). Requires `rank(T) ≤ rank(A)`.
pub(crate) fn compose_tiler<S: Semimodule>(a: &Strided<S>, t: &Tiler, op: ComposeOp<'_, S>) -> Result<Strided<S>> {
    let m = match t {
        Tiler::Layout(b) => return op(a, b),
        Tiler::Modes(m) => m,
    };
    let modes = a.modes()?;
    if m.len() > modes.len() {
        return Err(LayoutError::TooManyModes {
            what: "tiler",
            arg: t.to_string(),
            arg_rank: m.len(),
            layout: a.display().to_string(),
            rank: modes.len(),
        });
    }
    let mut parts = Vec::with_capacity(modes.len());
    for (i, mode) in modes.iter().enumerate() {
        parts.push(match m.get(i) {
            Some(Some(ti)) => compose_tiler(mode, ti, op)?,
            _ => mode.clone(),
        });
    }
    Strided::concat(parts)
}

/// The result's flat modes and the digits the walk touched.
type Walk<S> = (Vec<(i64, S)>, Vec<Digit>);

struct Ctx<'a, S> {
    a: &'a Strided<S>,
    /// Flat modes of coalesced A; the last one is unbounded.
    ca: &'a [(i64, S)],
    b: &'a Layout,
    log: Option<&'a RefCell<Vec<String>>>,
}

impl<S: Semimodule> Ctx<'_, S> {
    /// Narrates a step; the text is only built when someone listens.
    fn say(&self, line: impl FnOnce() -> String) {
        if let Some(log) = self.log {
            log.borrow_mut().push(line());
        }
    }

    fn compose(&self, b: &Layout, digits: &mut Vec<Vec<Digit>>) -> Result<Strided<S>> {
        if b.shape().is_int() {
            let (s, d) = b.flat_modes()[0];
            self.say(|| {
                let end = (s - 1).saturating_mul(d);
                format!("B mode {}: {s}:{d} walks 0, {d}, …, {end} over the modes of coalesced A", digits.len())
            });
            let (modes, walk) = self.walk(s, d)?;
            digits.push(walk);
            let r = Strided::from_flat(modes);
            self.say(|| format!("  A ∘ {s}:{d} = {}", r.display()));
            return Ok(r);
        }
        let modes = b.modes().iter().map(|m| self.compose(m, digits)).collect::<Result<Vec<_>>>()?;
        Strided::concat(modes)
    }

    /// The base case `A ∘ s:d`.
    fn walk(&self, s: i64, d: i64) -> Result<Walk<S>> {
        let last = self.ca.len() - 1;
        let last_stride = &self.ca[last].1;
        if d == 0 {
            return Ok((vec![(s, S::zero())], vec![]));
        }
        if s == 1 {
            let rest = self.ca[..last].iter().fold(d, |rs, &(sr, _)| checked::ceil_div(rs, sr));
            return Ok((vec![(1, last_stride.scale(rest)?)], vec![]));
        }
        let (mut rest_shape, mut rest_stride) = (s, d);
        let (mut out, mut digits) = (Vec::new(), Vec::new());
        let mut boundary = 1i64;
        for (r, (sr, dr)) in self.ca[..last].iter().enumerate() {
            let sr = *sr;
            if rest_shape == 1 {
                break;
            }
            boundary = checked::mul(boundary, sr)?;
            if rest_stride % sr == 0 {
                self.say(|| {
                    let next = rest_stride / sr;
                    format!("  mode {r} ({sr}:{dr}, boundary {boundary}): stride {rest_stride} is a multiple of {sr}: skip it, stride becomes {next}")
                });
                rest_stride /= sr;
                continue;
            }
            let inside = checked::mul(rest_shape - 1, rest_stride)? < sr;
            if rest_stride < sr && (sr % rest_stride == 0 || inside) {
                let count = if inside { rest_shape } else { sr / rest_stride };
                if rest_shape % count != 0 {
                    return Err(LayoutError::ShapeDivisibility {
                        lhs: self.ca_string(),
                        rhs: format!("{s}:{d}"),
                        mode: r,
                        remaining: rest_shape,
                        fit: count,
                        boundary,
                    });
                }
                let stride = dr.scale(rest_stride)?;
                self.say(|| {
                    let ends = count == rest_shape && (rest_shape - 1) * rest_stride + 1 < sr;
                    let ends = if ends { ", the walk ends inside the mode" } else { "" };
                    format!(
                        "  mode {r} ({sr}:{dr}, boundary {boundary}): takes {count} of the {rest_shape} elements with stride {rest_stride}{ends} -> {count}:{stride}"
                    )
                });
                out.push((count, stride));
                digits.push(Digit { mode: r, count, step: rest_stride });
                rest_shape /= count;
                rest_stride = 1;
                continue;
            }
            return Err(LayoutError::StrideDivisibility {
                lhs: self.ca_string(),
                rhs: format!("{s}:{d}"),
                mode: r,
                stride: d,
                walk_end: checked::mul(s - 1, d)?,
                boundary,
            });
        }
        if rest_shape > 1 {
            let stride = last_stride.scale(rest_stride)?;
            self.say(|| format!(
                "  last mode (stride {last_stride}, unbounded): takes the remaining {rest_shape} elements with stride {rest_stride} -> {rest_shape}:{stride}"
            ));
            out.push((rest_shape, stride));
        }
        Ok((out, digits))
    }

    fn ca_string(&self) -> String {
        Strided::from_flat(self.ca.to_vec()).display().to_string()
    }

    /// As in `composition.rs`: the digits of B's modes never carry in a non-last mode of
    /// coalesced A, or the mode-wise result equals `A(B(i))` at every point.
    fn check_distributes(&self, r: &Strided<S>, digits: &[Vec<Digit>]) -> Result<()> {
        let last = self.ca.len() - 1;
        let mut top = vec![0i64; last];
        for walk in digits {
            for dg in walk {
                top[dg.mode] = checked::add(top[dg.mode], checked::mul(dg.count - 1, dg.step)?)?;
            }
        }
        let Some(carry_mode) = top.iter().zip(self.ca).position(|(&t, (sr, _))| t >= *sr) else {
            self.say(|| "the modes of B never carry in any mode of coalesced A: the mode-wise result is A ∘ B".into());
            return Ok(());
        };
        self.say(|| {
            format!("the modes of B may carry in mode {carry_mode} of coalesced A: compare with A(B(i)) point by point")
        });
        let witness = self.carry_witness(digits, carry_mode)?;
        for i in std::iter::once(witness).chain(0..self.b.size()) {
            let got = r.eval(i)?;
            let point = self.b.eval(i)?;
            let want = self.a.eval(point)?;
            if got != want {
                return Err(S::not_distributive(
                    self.a.display().to_string(),
                    self.b.to_string(),
                    i,
                    point,
                    &got,
                    &want,
                ));
            }
        }
        Ok(())
    }

    fn carry_witness(&self, digits: &[Vec<Digit>], r: usize) -> Result<i64> {
        let (mut index, mut position) = (0i64, 1i64);
        for ((s, _), walk) in self.b.flat_modes().into_iter().zip(digits) {
            let mut radix = 1i64;
            for dg in walk {
                if dg.mode == r {
                    index = checked::add(index, checked::mul(checked::mul(dg.count - 1, radix)?, position)?)?;
                }
                radix = checked::mul(radix, dg.count)?;
            }
            position = checked::mul(position, s)?;
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_layout;

    fn int(l: &Layout) -> Strided<i64> {
        Strided::new(l.shape().clone(), l.stride().leaves())
    }

    fn lay(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    #[test]
    fn structural_operations_follow_the_proxy() {
        let l = int(&lay("((3,2),((2,3),2)):((4,1),((2,15),100))"));
        let (sub, off) = l.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(2), SliceCoord::Free])).unwrap();
        assert_eq!((sub.display().to_string(), off), ("((2,3),2):((2,15),100)".into(), 8));
        let (none, off) = l.slice(&SliceCoord::Tuple(vec![SliceCoord::Int(2), SliceCoord::Int(5)])).unwrap();
        assert_eq!((none.display().to_string(), off), ("1:0".into(), 8 + 32));
        assert_eq!(l.mode(1).unwrap().display().to_string(), "((2,3),2):((2,15),100)");
        assert!(l.mode(2).is_err());
        assert_eq!(l.eval(22), lay("((3,2),((2,3),2)):((4,1),((2,15),100))").eval(22));
    }
}
