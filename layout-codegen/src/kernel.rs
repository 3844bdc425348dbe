//! Kernel items `pub fn NAME = KERNEL;`: the call is parsed and dispatched to the kernel's
//! own evaluation (`copy(SRC, DST[, overlapping])`, `gemm(T, A, B, C)`).

use layout_core::notation::{ExprKind, parse};

use crate::ast::ExprTokens;
use crate::copy::{self, CopyItem};
use crate::ctxt::Ctxt;
use crate::eval::Scope;
use crate::gemm::{self, GemmItem};

/// A planned kernel item.
pub enum Kernel {
    Copy(Box<CopyItem>),
    Gemm(Box<GemmItem>),
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
            cx.error(expr.error_at(e.span().start, e.span().end, crate::eval::message(&e)));
            return None;
        }
    };
    let ExprKind::Call { name, name_span, args } = &ast.kind else {
        cx.error(expr.error_whole(format!("a `fn` item defines a kernel, not a layout: {USAGE}")));
        return None;
    };
    match name.as_str() {
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
