//! Kernel items `pub fn NAME = KERNEL;`: the call is parsed and dispatched to the kernel's
//! own evaluation (`copy(SRC, DST[, overlapping])`, `gemm(T, A, B, C)`, either over layouts
//! with symbols), each kind's evaluation beside its emission: `copy` and `expand_copy`,
//! `gemm` and `expand_gemm`, `dynamic` and `expand_dynamic` (planned at run time).

use layout_core::notation::{ExprKind, parse};

pub mod copy;
pub mod dyn_copy_plan;
pub mod dyn_plan;
pub mod dynamic;
pub mod expand_copy;
pub mod expand_dynamic;
pub mod expand_gemm;
pub mod expand_gemm_with;
pub mod gemm;

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;
use crate::scope::Scope;
use copy::CopyItem;
use dynamic::{DynKernel, DynKind};
use gemm::GemmItem;

/// A planned kernel item.
pub enum Kernel {
    Copy(Box<CopyItem>),
    Gemm(Box<GemmItem>),
    /// A copy or GEMM over layouts with symbols, planned at run time.
    Dynamic(Box<DynKernel>),
}

/// The kernels a `pub fn NAME = KERNEL;` item may call: the signature and what the emitted
/// function computes.
pub const KERNELS: [(&str, &str); 2] = [
    ("copy(SRC, DST[, overlapping])", "NAME(src, dst): dst[D(i)] = src[S(i)] for every index i"),
    ("gemm(T, A, B, C)", "NAME(alpha, a, b, beta, c): C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n), T f32 or f64"),
];

/// The name of the kernel `text` calls (`copy(…)`, `gemm(…)`), if it is a call of one.
pub fn kernel_name(text: &str) -> Option<&'static str> {
    match parse(text).ok()?.kind {
        ExprKind::Call { name, .. } => ["copy", "gemm"].into_iter().find(|k| *k == name),
        _ => None,
    }
}

const USAGE: &str = "write a kernel item as `pub fn NAME = copy(SRC, DST);` or `pub fn NAME = gemm(T, A, B, C);`";

/// Evaluates the expression of a `fn` item.
pub fn evaluate(expr: &ExprTokens, scope: &Scope, cx: &mut Ctxt) -> Option<Kernel> {
    if expr.tokens.is_empty() {
        cx.error(expr.error_whole(format!("expected a kernel: {USAGE}")));
        return None;
    }
    if !expr.bad_literals.is_empty() {
        for (token, message) in &expr.bad_literals {
            cx.error(syn::Error::new_spanned(token, message));
        }
        return None;
    }
    let ast = match parse(&expr.text) {
        Ok(ast) => ast,
        Err(e) => {
            cx.error(expr.error_at(e.span().start, e.span().end, crate::scope::message(&e)));
            return None;
        }
    };
    let ExprKind::Call { name, name_span, args } = &ast.kind else {
        cx.error(expr.error_whole(format!("a `fn` item defines a kernel, not a layout: {USAGE}")));
        return None;
    };
    let dynamic = |operands: &[layout_core::notation::Expr]| dynamic::is_dynamic(operands, scope);
    match name.as_str() {
        "copy" if args.len() == 2 && dynamic(args) => {
            let operands = [(&args[0], "source"), (&args[1], "destination")];
            dynamic::evaluate(DynKind::Copy, &operands, expr, scope, cx).map(|k| Kernel::Dynamic(Box::new(k)))
        }
        "copy" if args.len() == 3 && dynamic(&args[..2]) => {
            if !matches!(&args[2].kind, ExprKind::Name(n) if n == "overlapping") {
                cx.error(expr.error_at(args[2].span.start, args[2].span.end, copy::THIRD_ARGUMENT));
                return None;
            }
            let operands = [(&args[0], "source"), (&args[1], "destination")];
            let k = dynamic::evaluate(DynKind::Copy, &operands, expr, scope, cx);
            k.map(|k| Kernel::Dynamic(Box::new(dynamic::DynKernel { overlapping: true, ..k })))
        }
        "gemm" if args.len() == 4 && dynamic(&args[1..]) => {
            let scalar = gemm::scalar(&args[0], expr, cx);
            let operands = [(&args[1], "A"), (&args[2], "B"), (&args[3], "C")];
            let k = dynamic::evaluate(DynKind::Gemm(scalar?), &operands, expr, scope, cx);
            k.map(|k| Kernel::Dynamic(Box::new(k)))
        }
        "copy" => copy::evaluate(args, expr, scope, cx).map(|c| Kernel::Copy(Box::new(c))),
        "gemm" => gemm::evaluate(args, expr, scope, cx).map(|g| Kernel::Gemm(Box::new(g))),
        _ => {
            let message = format!(
                "unknown kernel `{name}`: the kernels are `copy(SRC, DST[, overlapping])` and `gemm(T, A, B, C)`"
            );
            cx.error(expr.error_at(name_span.start, name_span.end, message));
            None
        }
    }
}
