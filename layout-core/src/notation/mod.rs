//! The canonical notation and the expression language (docs/design.md): one grammar and one
//! parser, shared by the command-line tool and the `layout!` macro.
//!
//! ```text
//! expr     := term ("o" term)*                    Sw<B,M,S> o [offset o] L, A o Sw o [offset o] B
//! term     := atom [":" atom]                    shape:stride
//! atom     := INT | "-" INT | "_" | NAME | NAME "(" [expr ("," expr)*] ")"
//!           | "(" [expr ("," expr)*] ")"        int tuple / coordinate
//!           | "[" expr ("," expr)* "]"          by-mode tiler
//!           | ["-"] INT "@" INT ("+" ["-"] INT "@" INT)*    coordinate stride a@i (+ b@j …)
//!           | "f" DIGITS                          F2 stride fk
//!           | "Sw" "<" INT "," INT "," INT ">"   swizzle
//! ```
//! Every node keeps the byte span of its source text, so an error points at the operand
//! responsible. The forms beyond integers are sugar for calls, so the syntax tree has no node
//! kinds of its own for them: `Sw<B,M,S>` is `make_swizzle(B, M, S)`, `F o L` is
//! `make_composed_layout(F, 0, L)`, `F o off o L` is `make_composed_layout(F, off, L)` and a
//! longer chain `A o Sw o off o B` is `make_composed_layout(A, Sw, off, B)`,
//! `a@i+b@j` is `scaled_basis(a, i, b, j)`, `fk` is `f2_stride(k)`.

mod ast;
mod eval;
mod extended;
mod lexer;
mod parser;
mod suggest;
mod value;

pub use ast::{Expr, ExprKind, Span};
pub use eval::{Env, ExprError, FUNCTIONS, Function, evaluate, evaluate_expr, evaluate_with};
pub use parser::parse;
pub use suggest::{closest, did_you_mean, did_you_mean_operation, edit_distance};
pub use value::Value;

use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;

/// Parses a layout in canonical notation (`((2,4),3):((1,6),2)`; a bare shape is
/// column-major).
pub fn parse_layout(text: &str) -> Result<Layout, ExprError> {
    evaluate(text)?.into_layout().map_err(|m| ExprError::Type { span: Span::new(0, text.len()), message: m })
}

/// Parses an int tuple (`((2,4),3)`).
pub fn parse_int_tuple(text: &str) -> Result<IntTuple, ExprError> {
    match evaluate(text)? {
        Value::Tuple(t) => Ok(t),
        v => Err(ExprError::Type {
            span: Span::new(0, text.len()),
            message: format!("expected an int tuple, found {}", v.kind()),
        }),
    }
}

/// Parses a tiler (`[4:1,_,[2:1,2:2]]`, a layout, or a shape).
pub fn parse_tiler(text: &str) -> Result<Tiler, ExprError> {
    evaluate(text)?.into_tiler().map_err(|m| ExprError::Type { span: Span::new(0, text.len()), message: m })
}
