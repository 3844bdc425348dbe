//! The run-time support of kernel items whose operand is written inline with symbols
//! (`pub fn t = copy((M,N):(1,M), RowMajor);`): the function takes a tensor of any trusted
//! layout for it, reads the symbols from the layout's leaves, builds the pattern's layout with
//! those values (a hidden item of the kernel), checks that it is the tensor's layout (the same
//! leaves, extents and strides; the same nesting or a flat layout) and views the same
//! elements through it, so that the kernel runs as over a named item.

use super::PlanError;
use crate::{Layout, LayoutFn, Tensor, TensorMut, TrustedLayout};

/// Where a symbol of a pattern is read: an extent or a stride (of either sign) of a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The extent of leaf `k`.
    Extent(usize),
    /// The stride of leaf `k` (a stride written `-S` when the flag is set), read only when the
    /// leaf's extent is above 1 (the stride of an extent-1 mode is never used).
    Stride(usize, bool),
}

/// The layout of a tensor passed for an inline operand: its layout-core value and its leaves.
pub struct Found {
    layout: Layout,
    leaves: Vec<(i64, i64)>,
}

/// The value of `l` for the `operand` of `kernel` written `pattern` with `leaves` leaves;
/// [`PlanError::Pattern`] when the number of leaves differs or `l` is empty (a pattern is a
/// layout-core layout, which has no extent 0).
pub fn found<L: LayoutFn>(
    kernel: &'static str,
    operand: &'static str,
    pattern: &'static str,
    leaves: usize,
    l: &L,
) -> Result<Found, PlanError> {
    if l.size() == 0 {
        // `to_layout` of an empty layout is `1:0`, which a pattern could match: a view of one
        // element where the tensor has none.
        let why = "it is empty (an extent 0), which the pattern's layout cannot be".to_string();
        let found = crate::layout_fn::notation(l);
        return Err(PlanError::Pattern { kernel, operand, pattern, found, why });
    }
    let layout = l.to_layout();
    let f = Found { leaves: layout.flat_modes(), layout };
    if f.leaves.len() != leaves {
        let why = format!("it has {} leaves, the pattern {leaves}", f.leaves.len());
        return Err(mismatch(kernel, operand, pattern, &f, why));
    }
    Ok(f)
}

/// The value of a symbol read at the first of `sites` that tells it (an extent, or the
/// stride of a leaf whose extent is above 1); `None` when none does.
pub fn bind(f: &Found, sites: &[Site]) -> Option<usize> {
    sites.iter().find_map(|&s| match s {
        Site::Extent(k) => usize::try_from(f.leaves.get(k)?.0).ok(),
        Site::Stride(k, negative) => {
            let &(e, d) = f.leaves.get(k)?;
            let d = if negative { d.checked_neg()? } else { d };
            (e > 1).then(|| usize::try_from(d).ok()).flatten()
        }
    })
}

/// `Ok` when the operands `first` and `second` (role, item or pattern, value when the
/// operand's layout tells it) give the symbol `symbol` the same value.
pub fn same_bound(
    kernel: &'static str,
    symbol: &'static str,
    first: (&'static str, &'static str, Option<usize>),
    second: (&'static str, &'static str, Option<usize>),
) -> Result<(), PlanError> {
    match (first.2, second.2) {
        (Some(x), Some(y)) => super::cache::same_symbol(kernel, symbol, (first.0, first.1, x), (second.0, second.1, y)),
        _ => Ok(()),
    }
}

/// The pattern's layout `made` (its constructor's result for the symbols' values `values`,
/// printed in the error) when it is the tensor's layout `f`: the same leaves (a stride is
/// compared only where the extent is above 1) and the same nesting, or `f` flat.
pub fn matched<P: LayoutFn, E: std::fmt::Display>(
    kernel: &'static str,
    operand: &'static str,
    pattern: &'static str,
    f: &Found,
    made: Result<P, E>,
    values: &[(&str, usize)],
) -> Result<P, PlanError> {
    let with = || values.iter().map(|(s, v)| format!("{s} = {v}")).collect::<Vec<_>>().join(", ");
    let p = match made {
        Ok(p) => p,
        Err(e) => return Err(mismatch(kernel, operand, pattern, f, format!("with {}, {e}", with()))),
    };
    let want = p.to_layout();
    let leaves = want.flat_modes();
    let same_leaves = leaves.len() == f.leaves.len()
        && leaves.iter().zip(&f.leaves).all(|(&(e, d), &(fe, fd))| e == fe && (e <= 1 || d == fd));
    let nesting = f.layout.depth() <= 1 || f.layout.shape().congruent(want.shape());
    if same_leaves && nesting {
        return Ok(p);
    }
    let why = if values.is_empty() {
        "the layouts differ".to_string()
    } else {
        format!("with {} (read from its leaves) the pattern is `{want}`", with())
    };
    Err(mismatch(kernel, operand, pattern, f, why))
}

fn mismatch(kernel: &'static str, operand: &'static str, pattern: &'static str, f: &Found, why: String) -> PlanError {
    PlanError::Pattern { kernel, operand, pattern, found: f.layout.to_string(), why }
}

/// `t`'s elements through `p`, a layout of the same offsets (checked by [`matched`]).
pub fn view<'a, T, L: TrustedLayout, P: TrustedLayout>(
    kernel: &'static str,
    operand: &'static str,
    pattern: &'static str,
    t: &Tensor<'a, T, L>,
    p: P,
) -> Result<Tensor<'a, T, P>, PlanError> {
    Tensor::with_base(t.as_slice(), p, t.base()).map_err(|e| PlanError::Pattern {
        kernel,
        operand,
        pattern,
        found: t.layout().to_layout().to_string(),
        why: e.to_string(),
    })
}

/// `t`'s elements through `p`, mutably.
pub fn view_mut<'b, T, L: TrustedLayout, P: TrustedLayout>(
    kernel: &'static str,
    operand: &'static str,
    pattern: &'static str,
    t: &'b mut TensorMut<'_, T, L>,
    p: P,
) -> Result<TensorMut<'b, T, P>, PlanError> {
    let (base, l) = (t.base(), *t.layout());
    TensorMut::with_base(t.as_mut_slice(), p, base).map_err(|e| PlanError::Pattern {
        kernel,
        operand,
        pattern,
        found: l.to_layout().to_string(),
        why: e.to_string(),
    })
}
