//! Composition `R = A ∘ B` (paper §3.3): `R(c) = A(B(c))` for every c in B's domain,
//! with B's shape compatible with R's.

use std::cell::RefCell;

use crate::error::Result;
use crate::layout::Layout;
use crate::strided::{Strided, compose_traced};
use crate::tiler::{Tiler, apply_by_mode};

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
    let r = compose_traced(&Strided::new(a.shape().clone(), a.stride().leaves()), b, log)?;
    let stride = r.shape.with_leaves(&mut r.leaves.iter().copied());
    Layout::new(r.shape, stride)
}

/// `A ∘ T` for a tiler: a layout tiler composes as a layout; `[T0, T1, …]` composes mode by
/// mode (`A ∘ ⟨B,C⟩ = (A0 ∘ B, A1 ∘ C)`), `_` and modes past the tiler stay as they are.
/// Requires `rank(T) ≤ rank(A)`.
pub fn composition_tiler(a: &Layout, t: &Tiler) -> Result<Layout> {
    apply_by_mode(a, t, &composition)
}
