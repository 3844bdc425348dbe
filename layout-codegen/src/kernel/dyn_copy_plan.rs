//! What the static strides of a copy over layouts with symbols decide at expansion: when the
//! source and the destination are rank-2 with one leaf per mode, the same extents as written
//! (a constant or a symbol per mode), and a stride-1 mode each (a constant stride of 1), the
//! body is fixed here: a transpose when the unit-stride modes differ (`(M,N):(1,LDS)` into
//! `(M,N):(LDD,1)`), contiguous runs when they agree. A call then reads the extents and the
//! other strides and builds the kernels' program in closed form, with no run-time planner; a
//! static tile with run-time strides (`(4,8):(1,LDS)`) whose transpose a static item would run
//! straight-line runs the same straight-line body. Anything else keeps the run-time plan.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use crate::kernel::dyn_plan::{Ext, TileMode, strides};
use crate::kernel::dynamic::{DynKernel, DynKind};

/// The most points of a transpose emitted straight-line (layout-plan's `UNROLL_POINTS`).
const UNROLL_POINTS: usize = 64;
/// A transpose narrower than this on some side has no whole register tile (layout-plan's
/// `MIN_TILE`), so a static item runs it straight-line.
const MIN_TILE: usize = 8;

/// The body the static strides decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyShape {
    /// The source is unit-stride along mode `rows`, the destination along the other.
    Transpose { rows: usize },
    /// Both are unit-stride along mode `mode`.
    Runs { mode: usize },
}

/// The first mode of `modes` with a constant stride of 1 and an extent that is not the
/// constant 1.
fn unit_mode(modes: &[TileMode]) -> Option<usize> {
    modes.iter().position(|m| m.stride == Some(1) && m.extent != Ext::Const(1))
}

/// The body of a copy item over rank-2 flat operands with the same extents and a static
/// unit-stride mode on each side; `None` leaves the copy to the run-time plan.
pub fn copy_shape(k: &DynKernel) -> Option<CopyShape> {
    if k.kind != DynKind::Copy || k.overlapping {
        return None;
    }
    let (s, d) = (k.operands[0].tile.as_deref()?, k.operands[1].tile.as_deref()?);
    if s.len() != 2 || d.len() != 2 || s.iter().zip(d).any(|(a, b)| a.extent != b.extent) {
        return None;
    }
    let (a, b) = (unit_mode(s)?, unit_mode(d)?);
    Some(if a == b { CopyShape::Runs { mode: a } } else { CopyShape::Transpose { rows: a } })
}

/// The extent `e` of an operand `v`: a literal, or the symbol's getter on the layout.
fn extent(e: &Ext, v: &Ident) -> TokenStream {
    match e {
        Ext::Const(x) => {
            let x = Literal::usize_unsuffixed(*x);
            quote!(#x)
        }
        Ext::Symbol(s) => {
            let getter = quote::format_ident!("{}", s.to_lowercase());
            quote!(#v.layout().#getter())
        }
    }
}

/// The static extents `(R, C)` of a transpose a static item would run straight-line.
fn straight_line(rows: &Ext, cols: &Ext) -> Option<(usize, usize)> {
    match (rows, cols) {
        (Ext::Const(r), Ext::Const(c)) if r * c <= UNROLL_POINTS && (*r).min(*c) < MIN_TILE => Some((*r, *c)),
        _ => None,
    }
}

/// The body of a copy item of shape `shape` over the parameters `src` and `dst`: the direct
/// program, and `planned` (the kept plan's call) when its numbers are rejected.
pub fn copy_call(
    k: &DynKernel,
    shape: CopyShape,
    [src, dst]: [&Ident; 2],
    facade: &TokenStream,
    p: &TokenStream,
    planned: TokenStream,
) -> TokenStream {
    let (sm, dm) =
        (k.operands[0].tile.as_deref().unwrap_or_default(), k.operands[1].tile.as_deref().unwrap_or_default());
    let (ss, ds) = (strides(sm, &quote!(#src), facade), strides(dm, &quote!(#dst), facade));
    let call = match shape {
        CopyShape::Transpose { rows } => {
            let cols = 1 - rows;
            let (src_ld, dst_ld) = (&ss[cols], &ds[rows]);
            match straight_line(&sm[rows].extent, &sm[cols].extent) {
                Some((r, c)) => {
                    let n = Literal::usize_unsuffixed(r * c);
                    let (r, c) = (Literal::usize_unsuffixed(r), Literal::usize_unsuffixed(c));
                    quote!(#p::copy_tile::<T, _, _, #r, #c, #n>(#src, #dst, (#src_ld, #dst_ld)))
                }
                None => {
                    let (r, c) = (extent(&sm[rows].extent, src), extent(&sm[cols].extent, src));
                    quote!(#p::copy_transpose(#src, #dst, (#r, #c), (#src_ld, #dst_ld)))
                }
            }
        }
        CopyShape::Runs { mode } => {
            let other = 1 - mode;
            let (len, ext) = (extent(&sm[mode].extent, src), extent(&sm[other].extent, src));
            let (s, d) = (&ss[other], &ds[other]);
            quote!(#p::copy_runs(#src, #dst, #len, (#ext, #s, #d)))
        }
    };
    quote! {
        if #call {
            return ::core::result::Result::Ok(());
        }
        #planned
    }
}

/// The item's documentation of a copy of shape `shape`.
pub fn copy_doc(k: &DynKernel, shape: CopyShape) -> String {
    let sm = k.operands[0].tile.as_deref().unwrap_or_default();
    match shape {
        CopyShape::Transpose { rows } => {
            let body = match straight_line(&sm[rows].extent, &sm[1 - rows].extent) {
                Some((r, c)) => format!("the {r}×{c} transpose straight-line"),
                None => "the transpose body".to_string(),
            };
            format!(
                " Planned at expansion: the source is unit-stride along mode {rows}, the destination along mode {}, so \
                 a call reads the extents and leading dimensions from the tensors' layouts and runs {body} (no \
                 run-time planner); a destination that writes one place twice is planned at run time, which \
                 reports it.",
                1 - rows
            )
        }
        CopyShape::Runs { mode } => format!(
            " Planned at expansion: both sides are unit-stride along mode {mode}, so a call reads the extents and \
             strides from the tensors' layouts and runs contiguous runs (no run-time planner); a destination that \
             writes one place twice is planned at run time, which reports it."
        ),
    }
}
