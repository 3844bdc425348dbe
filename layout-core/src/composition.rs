//! Composition `R = A ∘ B` (paper §3.3): `R(c) = A(B(c))` for every c in B's domain,
//! with B's shape compatible with R's.

use std::cell::RefCell;

use crate::checked;
use crate::coalesce::coalesce_extended;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::tiler::{Tiler, apply_by_mode};

/// One step of the walk of a rank-1 B over a mode of coalesced A: `count` elements that
/// advance the mode's coordinate by `step`.
#[derive(Clone, Copy, Debug)]
struct Digit {
    mode: usize,
    count: i64,
    step: i64,
}

/// `A ∘ B` for a layout B.
///
/// Rank-1 B = `s:d` (the base case): coalesce A (keeping its extension, last mode unbounded)
/// and walk `0, d, …, (s−1)d` over its modes. Admissible exactly when the walk never crosses
/// a mode boundary off-step: stride divisibility (Eq. 20) and shape divisibility (Eq. 21),
/// except that a walk may end ragged inside a mode (§3.3.3, "apparent violations").
/// A B with several modes distributes, `A ∘ (B0, B1) = (A ∘ B0, A ∘ B1)`, and is accepted only
/// when that equals `c ↦ A(B(c))` on all of B's domain.
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    composition_traced(a, b, None)
}

/// [`composition`], narrating each step of the algorithm into `log` (for `layout explain`).
pub fn composition_traced(a: &Layout, b: &Layout, log: Option<&RefCell<Vec<String>>>) -> Result<Layout> {
    b.require_non_negative("composition (right operand)")?;
    let cal = coalesce_extended(a);
    let ca = cal.flat_modes();
    let ctx = Ctx { a, ca: &ca, b, log };
    ctx.say(|| format!("coalesce A = {a} keeping its extension (last mode unbounded): {cal}"));
    let mut digits = Vec::new();
    let r = ctx.compose(b, &mut digits)?;
    if b.flat_modes().iter().filter(|&&(s, d)| s > 1 && d != 0).count() > 1 {
        ctx.check_distributes(&r, &digits)?;
    }
    ctx.say(|| format!("A ∘ B = {r}"));
    Ok(r)
}

/// `A ∘ T` for a tiler: a layout tiler composes as a layout; `[T0, T1, …]` composes mode by
/// mode (`A ∘ ⟨B,C⟩ = (A0 ∘ B, A1 ∘ C)`), `_` and modes past the tiler stay as they are.
/// Requires `rank(T) ≤ rank(A)`.
pub fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    apply_by_mode(a, t, &composition)
}

/// The result's flat modes and the digits the walk touched.
type Walk = (Vec<(i64, i64)>, Vec<Digit>);

struct Ctx<'a> {
    a: &'a Layout,
    /// Flat modes of coalesced A; the last one is unbounded.
    ca: &'a [(i64, i64)],
    b: &'a Layout,
    log: Option<&'a RefCell<Vec<String>>>,
}

impl Ctx<'_> {
    /// Narrates a step; the text is only built when someone listens.
    fn say(&self, line: impl FnOnce() -> String) {
        if let Some(log) = self.log {
            log.borrow_mut().push(line());
        }
    }

    fn compose(&self, b: &Layout, digits: &mut Vec<Vec<Digit>>) -> Result<Layout> {
        if b.shape().is_int() {
            let (s, d) = b.flat_modes()[0];
            self.say(|| {
                format!(
                    "B mode {}: {s}:{d} walks 0, {d}, …, {} over the modes of coalesced A",
                    digits.len(),
                    (s - 1).saturating_mul(d)
                )
            });
            let (modes, walk) = self.walk(s, d)?;
            digits.push(walk);
            let r = Layout::from_flat(&modes)?;
            self.say(|| format!("  A ∘ {s}:{d} = {r}"));
            return Ok(r);
        }
        let modes = b.modes().iter().map(|m| self.compose(m, digits)).collect::<Result<Vec<_>>>()?;
        Layout::concat(modes)
    }

    /// The base case `A ∘ s:d`: the result's flat modes and the digits the walk touched.
    fn walk(&self, s: i64, d: i64) -> Result<Walk> {
        let (last_shape_idx, last_stride) = (self.ca.len() - 1, self.ca[self.ca.len() - 1].1);
        if d == 0 {
            return Ok((vec![(s, 0)], vec![]));
        }
        if s == 1 {
            // Form only (any stride is the same function): the stride pycute and C++ print.
            let rest = self.ca[..last_shape_idx].iter().fold(d, |rs, &(sr, _)| checked::ceil_div(rs, sr));
            return Ok((vec![(1, checked::mul(rest, last_stride)?)], vec![]));
        }
        let (mut rest_shape, mut rest_stride) = (s, d);
        let (mut out, mut digits) = (Vec::new(), Vec::new());
        let mut boundary = 1i64;
        for (r, &(sr, dr)) in self.ca[..last_shape_idx].iter().enumerate() {
            if rest_shape == 1 {
                break;
            }
            boundary = checked::mul(boundary, sr)?;
            if rest_stride % sr == 0 {
                self.say(|| format!(
                    "  mode {r} ({sr}:{dr}, boundary {boundary}): stride {rest_stride} is a multiple of {sr}: skip it, stride becomes {}",
                    rest_stride / sr
                ));
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
                out.push((count, checked::mul(dr, rest_stride)?));
                self.say(|| format!(
                    "  mode {r} ({sr}:{dr}, boundary {boundary}): takes {count} of the {rest_shape} elements with stride {rest_stride}{} -> {count}:{}",
                    if count == rest_shape && (rest_shape - 1) * rest_stride + 1 < sr { ", the walk ends inside the mode" } else { "" },
                    dr * rest_stride
                ));
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
            out.push((rest_shape, checked::mul(last_stride, rest_stride)?));
            self.say(|| format!(
                "  last mode (stride {last_stride}, unbounded): takes the remaining {rest_shape} elements with stride {rest_stride} -> {rest_shape}:{}",
                last_stride.saturating_mul(rest_stride)
            ));
        }
        Ok((out, digits))
    }

    fn ca_string(&self) -> String {
        Layout::from_flat(self.ca).map(|l| l.to_string()).unwrap_or_default()
    }

    /// The mode-wise result equals `A(B(c))` everywhere when the digits of B's modes, added
    /// in every non-last mode of coalesced A, never carry; otherwise compare point by point.
    fn check_distributes(&self, r: &Layout, digits: &[Vec<Digit>]) -> Result<()> {
        let last = self.ca.len() - 1;
        let mut top = vec![0i64; last];
        for walk in digits {
            for dg in walk {
                top[dg.mode] = checked::add(top[dg.mode], checked::mul(dg.count - 1, dg.step)?)?;
            }
        }
        let Some(carry_mode) = top.iter().zip(self.ca).position(|(&t, &(sr, _))| t >= sr) else {
            self.say(|| "the modes of B never carry in any mode of coalesced A: the mode-wise result is A ∘ B".into());
            return Ok(());
        };
        self.say(|| {
            format!("the modes of B may carry in mode {carry_mode} of coalesced A: compare with A(B(i)) point by point")
        });
        // A carry is possible in `carry_mode`: try first the point where every mode of B sits
        // at its largest digit there, then every point.
        let witness = self.carry_witness(digits, carry_mode)?;
        for i in std::iter::once(witness).chain(0..self.b.size()) {
            let got = r.eval(i)?;
            let point = self.b.eval(i)?;
            let want = self.a.eval(point)?;
            if got != want {
                return Err(LayoutError::NotDistributive {
                    lhs: self.a.to_string(),
                    rhs: self.b.to_string(),
                    index: i,
                    point,
                    got,
                    want,
                });
            }
        }
        Ok(())
    }

    /// The index of B whose flat coordinate puts each mode of B at its largest digit in
    /// mode `r` of coalesced A (and at 0 in the others).
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
