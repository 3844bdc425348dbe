//! Kernel items `pub fn NAME = gemm(T, A, B, C);`: `T` is `f32` or `f64`, A `(M,K)`, B `(N,K)`
//! and C `(M,N)` are layouts (notation or earlier names; an optional batch mode last in all
//! three), planned by layout-plan's `gemm_plan`.

use layout_core::notation::{Expr, Value};
use layout_core::{AnyLayout, Blame, Layout, LayoutError};
use layout_plan::{GemmPlan, gemm_plan};

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;
use crate::kernel::copy::{Operand, operand};
use crate::scope::{Scope, with_help};

/// The element types a GEMM runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    F32,
    F64,
}

/// A planned GEMM item.
pub struct GemmItem {
    pub scalar: Scalar,
    pub a: Operand,
    pub b: Operand,
    pub c: Operand,
    pub plan: GemmPlan,
}

/// The element type `T` of `gemm(T, A, B, C)`, as written (`f32` and `f64` also read as F2
/// strides in the notation); an error at it otherwise.
pub fn scalar(arg: &Expr, expr: &ExprTokens, cx: &mut Ctxt) -> Option<Scalar> {
    match expr.text.get(arg.span.start..arg.span.end) {
        Some("f32") => Some(Scalar::F32),
        Some("f64") => Some(Scalar::F64),
        _ => {
            let message = "the element type of a `gemm` is `f32` or `f64`: `gemm(f32, A, B, C)`";
            cx.error(expr.error_at(arg.span.start, arg.span.end, message));
            None
        }
    }
}

/// Evaluates `gemm(T, A, B, C)` (the arguments of the call).
pub fn evaluate(args: &[Expr], expr: &ExprTokens, scope: &Scope, cx: &mut Ctxt) -> Option<GemmItem> {
    if args.len() != 4 {
        let message =
            format!("`gemm` takes 4 arguments, `gemm(T, A, B, C)` with T `f32` or `f64`, found {}", args.len());
        cx.error(expr.error_whole(message));
        return None;
    }
    let scalar = scalar(&args[0], expr, cx);
    let a = operand(&args[1], "A operand", expr, scope, cx);
    let b = operand(&args[2], "B operand", expr, scope, cx);
    let c = operand(&args[3], "C operand", expr, scope, cx);
    let (scalar, a, b, c) = (scalar?, a?, b?, c?);
    let mut layouts = Vec::new();
    for ((_, value), arg) in [&a, &b, &c].into_iter().zip(&args[1..]) {
        match value {
            Value::Layout(AnyLayout::Int(l)) => layouts.push(l.clone()),
            Value::Tuple(t) => layouts.push(Layout::column_major(t.clone()).ok()?),
            v => {
                let message = format!("the operands of a `gemm` are integer layouts, but `{v}` is {}", v.kind());
                cx.error(expr.error_at(arg.span.start, arg.span.end, message));
                return None;
            }
        }
    }
    match gemm_plan(&layouts[0], &layouts[1], &layouts[2]) {
        Ok(plan) => Some(GemmItem { scalar, a: a.0, b: b.0, c: c.0, plan }),
        Err(e) => {
            let message = with_help(e.to_string(), e.help());
            // The operand at fault: C when it is not injective, the second of two operands whose
            // extents differ.
            let at = match &e {
                LayoutError::GemmExtent { rhs, .. } => ["A", "B", "C"].iter().position(|o| o == rhs).map(|k| k + 1),
                _ if e.blame() == Blame::Rhs => Some(3),
                _ => None,
            };
            cx.error(match at {
                Some(k) => expr.error_at(args[k].span.start, args[k].span.end, message),
                None => expr.error_whole(message),
            });
            None
        }
    }
}
