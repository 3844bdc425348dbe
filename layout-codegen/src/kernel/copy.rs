//! Kernel items `pub fn NAME = copy(SRC, DST[, overlapping]);`: the operands are evaluated
//! like any item (notation or earlier names), the copy is planned by layout-plan, and every
//! error is reported at the operand responsible.

use layout_core::notation::{Expr, ExprKind, Value, evaluate_expr};
use layout_core::{AnyLayout, Blame, Layout, LayoutError};
use layout_plan::{CopyPlan, copy_plan, injectivity_witness};
use proc_macro2::Ident;

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;
use crate::plan::{Plan, PlanError, plan_value};
use crate::scope::{Scope, check_calls, check_names, with_help};

/// One side of a copy.
pub struct Operand {
    /// The operand as written when it is the name of an earlier item (its type is used).
    pub name: Option<Ident>,
    pub plan: Plan,
    /// The smallest and largest offsets of the layout over its domain.
    pub min: i64,
    pub max: i64,
}

/// A planned copy item.
pub struct CopyItem {
    pub src: Operand,
    pub dst: Operand,
    pub size: u64,
    /// The plan of an integer copy; `None` when a side is swizzled or F2 (the copy is then
    /// indexed through the generated offset functions).
    pub plan: Option<CopyPlan>,
}

/// The error at a third argument of `copy` that is not `overlapping`.
pub const THIRD_ARGUMENT: &str = "the third argument of `copy` can only be `overlapping` (the destination may write \
                                  one place more than once; the last write wins)";

/// Evaluates `copy(SRC, DST[, overlapping])` (the arguments of the call).
pub fn evaluate(args: &[Expr], expr: &ExprTokens, scope: &Scope, cx: &mut Ctxt) -> Option<CopyItem> {
    if !(2..=3).contains(&args.len()) {
        let message = format!("`copy` takes 2 or 3 arguments, `copy(SRC, DST[, overlapping])`, found {}", args.len());
        cx.error(expr.error_whole(message));
        return None;
    }
    let overlapping = match args.get(2) {
        None => false,
        Some(Expr { kind: ExprKind::Name(n), .. }) if n == "overlapping" => true,
        Some(e) => {
            cx.error(expr.error_at(e.span.start, e.span.end, THIRD_ARGUMENT));
            return None;
        }
    };
    let src = operand(&args[0], "source", expr, scope, cx);
    let dst = operand(&args[1], "destination", expr, scope, cx);
    let (src, dst) = (src?, dst?);
    let at = |e: &Expr, message: String| expr.error_at(e.span.start, e.span.end, message);
    match (as_layout(&src.1), as_layout(&dst.1)) {
        (Some(s), Some(d)) => match copy_plan(&s, &d, overlapping) {
            Ok(plan) => Some(CopyItem { size: plan.size as u64, src: src.0, dst: dst.0, plan: Some(plan) }),
            Err(e) => {
                let message = with_help(e.to_string(), e.help());
                cx.error(match e.blame() {
                    Blame::Rhs => at(&args[1], message),
                    _ => expr.error_whole(message),
                });
                None
            }
        },
        _ => {
            let (s, d) = (size_of(&src.0.plan), size_of(&dst.0.plan));
            if s != d {
                let e = LayoutError::CopySize {
                    src: src.0.plan.notation().into(),
                    dst: dst.0.plan.notation().into(),
                    src_size: s as i64,
                    dst_size: d as i64,
                };
                cx.error(expr.error_whole(with_help(e.to_string(), e.help())));
                return None;
            }
            if !overlapping && let Err(e) = injective(&dst.1) {
                cx.error(at(&args[1], with_help(e.to_string(), e.help())));
                return None;
            }
            Some(CopyItem { size: s, src: src.0, dst: dst.0, plan: None })
        }
    }
}

/// Evaluates one side: its plan and offset range, and the integer layout when it is one.
pub fn operand(arg: &Expr, side: &str, expr: &ExprTokens, scope: &Scope, cx: &mut Ctxt) -> Option<(Operand, Value)> {
    if !check_calls(arg, expr, cx) | !check_names(arg, expr, scope, cx) {
        return None;
    }
    let at = |message: String| expr.error_at(arg.span.start, arg.span.end, message);
    let value = match evaluate_expr(arg, scope.env) {
        Ok(v) => v,
        Err(e) => {
            cx.error(expr.error_at(e.span().start, e.span().end, crate::scope::message(&e)));
            return None;
        }
    };
    let plan = match plan_value(&value) {
        Ok(p) => p,
        Err(PlanError::NotALayout(m)) => {
            cx.error(at(format!("the {side} of a copy must be a layout, but {m}")));
            return None;
        }
        Err(PlanError::Machine(m)) => {
            cx.error(at(m));
            return None;
        }
    };
    let name = match &arg.kind {
        ExprKind::Name(n) => Some(Ident::new(n, proc_macro2::Span::call_site())),
        _ => None,
    };
    let (min, max) = match &plan {
        Plan::Int(p) => (p.min_offset, p.cosize as i64 - 1),
        Plan::Swizzled(p) if !p.signed => (0, p.cosize as i64 - 1),
        Plan::F2(p) => (0, p.cosize as i64 - 1),
        Plan::Swizzled(p) => {
            cx.error(at(format!(
                "the {side} `{}` of a copy has negative offsets; a swizzled layout is copied through its offsets, \
                 which must be non-negative",
                p.notation
            )));
            return None;
        }
        Plan::Composed(p) => {
            cx.error(at(format!(
                "the {side} `{}` of a copy is a composed layout; copy an integer, swizzled or F2 layout",
                p.notation
            )));
            return None;
        }
        Plan::Coordinate(p) => {
            cx.error(at(format!(
                "the {side} `{}` of a copy is a coordinate layout: its offsets are coordinates, not positions in \
                 memory; copy an integer, swizzled or F2 layout",
                p.notation
            )));
            return None;
        }
    };
    Some((Operand { name, plan, min, max }, value))
}

/// The integer layout of a value (a bare shape is the compact column-major layout).
fn as_layout(value: &Value) -> Option<Layout> {
    match value {
        Value::Layout(AnyLayout::Int(l)) => Some(l.clone()),
        Value::Tuple(t) => Layout::column_major(t.clone()).ok(),
        _ => None,
    }
}

fn size_of(plan: &Plan) -> u64 {
    match plan {
        Plan::Int(p) => p.size,
        Plan::Swizzled(p) => p.inner.size,
        Plan::F2(p) => p.size,
        Plan::Coordinate(p) => p.size,
        Plan::Composed(p) => p.inner.size,
    }
}

/// Injectivity of a swizzled or F2 destination: a swizzle is a bijection, so `Sw o off o L`
/// is injective exactly when L is; an F2 layout is enumerated.
fn injective(value: &Value) -> Result<(), LayoutError> {
    let witness = match value {
        Value::Layout(AnyLayout::Swizzled(s)) => injectivity_witness(s.layout())?,
        Value::Layout(AnyLayout::F2(f)) => {
            let limit = 1 << 22;
            if f.size() > limit {
                return Err(LayoutError::CopyInjectivityUnknown { dst: f.to_string(), size: f.size(), limit });
            }
            let mut seen: Vec<(i64, i64)> =
                (0..f.size()).map(|i| f.eval(i).map(|o| (o, i))).collect::<Result<_, _>>()?;
            seen.sort_unstable();
            seen.windows(2).find(|w| w[0].0 == w[1].0).map(|w| (w[0].1, w[1].1, w[0].0))
        }
        _ => None,
    };
    match witness {
        Some((i, j, offset)) => Err(LayoutError::CopyNotInjective { dst: value.to_string(), i, j, offset }),
        None => Ok(()),
    }
}
