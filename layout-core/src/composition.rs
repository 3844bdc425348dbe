//! Composition `R = A ∘ B` (paper §3.3): `R(c) = A(B(c))` for every c in B's domain,
//! with B's shape compatible with R's. The walk is written once, for A's strides in any
//! semimodule: integer layouts, and the coordinate and F2 strides of
//! [`CoordinateLayout`](crate::CoordinateLayout) and [`F2Layout`](crate::F2Layout), compose by it.

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::semimodule::Semimodule;
use crate::strided::Strided;
use crate::tiler::{Tiler, apply_by_mode};
use crate::trace::{self, Role};

/// `A ∘ B` for a layout B.
///
/// Rank-1 B = `s:d` (the base case): coalesce A (keeping its extension, last mode unbounded)
/// and walk `0, d, …, (s−1)d` over its modes. Admissible exactly when the walk never crosses
/// a mode boundary off-step: stride divisibility (Eq. 20) and shape divisibility (Eq. 21),
/// except that a walk may end ragged inside a mode (paper §3.3.3, "apparent violations").
/// A B with several modes distributes, `A ∘ (B0, B1) = (A ∘ B0, A ∘ B1)`, and is accepted only
/// when that equals `c ↦ A(B(c))` on all of B's domain. Requires B's strides non-negative.
///
/// ```
/// use layout_core::{LayoutError, composition, parse_layout};
/// let a = parse_layout("(6,2):(8,2)")?;
/// let b = parse_layout("(4,3):(3,1)")?;
/// let r = composition(&a, &b)?;
/// assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
/// for i in 0..12 {
///     assert_eq!(r.eval(i)?, a.eval(b.eval(i)?)?);        // R(i) = A(B(i))
/// }
/// // The walk 0, 3, 6, ... crosses the boundary of A's first mode (size 4) off-step.
/// let e = composition(&parse_layout("(4,6):(2,3)")?, &parse_layout("6:3")?).unwrap_err();
/// assert!(matches!(e, LayoutError::StrideDivisibility { .. }), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    let r = compose(&Strided::new(a.shape().clone(), a.stride().leaves()), b)?;
    let stride = r.shape.with_leaves(&mut r.leaves.iter().copied());
    Layout::new(r.shape, stride)
}

/// `A ∘ T` for a tiler: a layout tiler composes as a layout; `[T0, T1, …]` composes mode by
/// mode (`A ∘ ⟨B,C⟩ = (A0 ∘ B, A1 ∘ C)`), `_` and modes past the tiler stay as they are.
/// Requires `rank(T) ≤ rank(A)`.
///
/// ```
/// use layout_core::{composition_tiler, parse_layout, parse_tiler};
/// let a = parse_layout("(8,8):(1,8)")?;
/// // Every fourth row of the first two, the first four columns.
/// assert_eq!(composition_tiler(&a, &parse_tiler("[2:4,4:1]")?)?.to_string(), "(2,4):(4,8)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    apply_by_mode(Operation::Composition, a, t, &composition)
}

/// Composes (a mode of) A with an integer layout.
pub(crate) type ComposeOp<'a, S> = &'a dyn Fn(&Strided<S>, &Layout) -> Result<Strided<S>>;

/// `A ∘ B` for strides of A in any semimodule and an integer B, the walk of [`composition`]:
/// coalesce A keeping its extension, walk each mode `s:d` of B over A's modes (stride
/// divisibility, Eq. 20, and shape divisibility, Eq. 21, with walks allowed to end inside a
/// mode), scale A's strides by the steps of the walk; a B with several modes must distribute
/// (checked by digits, else point by point). Traced (see [`trace`](crate::trace)).
pub(crate) fn compose<S: Semimodule>(a: &Strided<S>, b: &Layout) -> Result<Strided<S>> {
    trace::operation(Operation::Composition, &[("A", a), ("B", b)], || {
        b.require_non_negative(Operation::Composition, true)?;
        let cal = a.coalesce(true);
        let ca = cal.flat();
        let ctx = Ctx { a, ca: &ca, b };
        trace::built(|| Role::Coalesced, &cal);
        let mut digits = Vec::new();
        let r = ctx.compose(b, &mut digits)?;
        if b.flat_modes().iter().filter(|&&(s, d)| s > 1 && d != 0).count() > 1 {
            ctx.check_distributes(&r, &digits)?;
        }
        Ok(r)
    })
}

/// One step of the walk of a rank-1 B over a mode of coalesced A.
#[derive(Clone, Copy, Debug)]
struct Digit {
    mode: usize,
    count: i64,
    step: i64,
}

/// The result's flat modes and the digits the walk touched.
type Walk<S> = (Vec<(i64, S)>, Vec<Digit>);

/// One composition `A ∘ B` in progress.
struct Ctx<'a, S> {
    a: &'a Strided<S>,
    /// Flat modes of coalesced A; the last one is unbounded.
    ca: &'a [(i64, S)],
    b: &'a Layout,
}

impl<S: Semimodule> Ctx<'_, S> {
    fn compose(&self, b: &Layout, digits: &mut Vec<Vec<Digit>>) -> Result<Strided<S>> {
        if b.shape().is_int() {
            let (s, d) = b.flat_modes()[0];
            trace::note(|| {
                let end = (s - 1).saturating_mul(d);
                format!("B mode {}: {s}:{d} walks 0, {d}, …, {end} over the modes of coalesced A", digits.len())
            });
            let (modes, walk) = self.walk(s, d)?;
            digits.push(walk);
            let r = Strided::from_flat(modes);
            trace::built(|| Role::Piece { b_mode: format!("{s}:{d}") }, &r);
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
                trace::note(|| {
                    let next = rest_stride / sr;
                    format!(
                        "  mode {r} ({sr}:{dr}, boundary {boundary}): stride {rest_stride} is a multiple of {sr}: skip it, stride becomes {next}"
                    )
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
                trace::note(|| {
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
            trace::note(|| {
                format!(
                    "  last mode (stride {last_stride}, unbounded): takes the remaining {rest_shape} elements with stride {rest_stride} -> {rest_shape}:{stride}"
                )
            });
            out.push((rest_shape, stride));
        }
        Ok((out, digits))
    }

    fn ca_string(&self) -> String {
        Strided::from_flat(self.ca.to_vec()).to_string()
    }

    /// The digits of B's modes never carry in a non-last mode of
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
            trace::note(|| {
                "the modes of B never carry in any mode of coalesced A: the mode-wise result is A ∘ B".into()
            });
            return Ok(());
        };
        trace::note(|| {
            format!("the modes of B may carry in mode {carry_mode} of coalesced A: compare with A(B(i)) point by point")
        });
        let witness = self.carry_witness(digits, carry_mode)?;
        for i in std::iter::once(witness).chain(0..self.b.size()) {
            let got = r.eval(i)?;
            let point = self.b.eval(i)?;
            let want = self.a.eval(point)?;
            if got != want {
                return Err(S::not_distributive(self.a.to_string(), self.b.to_string(), i, point, &got, &want));
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
