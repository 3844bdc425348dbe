//! Evaluation of expressions: each call runs one operation of the algebra; an error keeps
//! the span of the operand responsible.

use std::collections::HashMap;

use thiserror::Error;

use super::ast::{Expr, ExprKind, Span};
use super::parser::parse;
use super::value::Value;
use crate::error::{Blame, LayoutError};
use crate::int_tuple::{IntTuple, crd2crd, crd2idx, idx2crd};
use crate::layout::Layout;
use crate::slice::{SliceCoord, slice};
use crate::tiler::Tiler;
use crate::*;

/// Names bound earlier (the items of one `layout!` invocation).
pub type Env = HashMap<String, Value>;

/// An error of the expression language, at a byte span of the source.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExprError {
    #[error("{message}")]
    Parse { span: Span, message: String },
    #[error("{message}")]
    Type { span: Span, message: String },
    #[error("{error}")]
    Layout { span: Span, error: LayoutError },
}

impl ExprError {
    /// Where in the source the error is.
    pub fn span(&self) -> Span {
        match self {
            ExprError::Parse { span, .. } | ExprError::Type { span, .. } | ExprError::Layout { span, .. } => *span,
        }
    }

    /// A suggested fix, if there is one.
    pub fn help(&self) -> Option<String> {
        match self {
            ExprError::Layout { error, .. } => error.help(),
            _ => None,
        }
    }
}

/// Parses and evaluates `text`.
pub fn evaluate(text: &str) -> Result<Value, ExprError> {
    evaluate_with(text, &Env::new())
}

/// Parses and evaluates `text` with names bound in `env`.
pub fn evaluate_with(text: &str, env: &Env) -> Result<Value, ExprError> {
    evaluate_expr(&parse(text)?, env)
}

/// Evaluates a parsed expression.
pub fn evaluate_expr(e: &Expr, env: &Env) -> Result<Value, ExprError> {
    let ty = |message: String| ExprError::Type { span: e.span, message };
    match &e.kind {
        ExprKind::Int(v) => Ok(Value::Tuple(IntTuple::Int(*v))),
        ExprKind::Underscore => Ok(Value::Underscore),
        ExprKind::Name(n) => env.get(n).cloned().ok_or_else(|| ty(unknown_name(n, env))),
        ExprKind::Tuple(items) => {
            let vals = items.iter().map(|i| evaluate_expr(i, env)).collect::<Result<Vec<_>, _>>()?;
            tuple_value(vals, items)
        }
        ExprKind::Layout(s, d) => {
            let shape = int_tuple_of(evaluate_expr(s, env)?, s.span, "the shape of a layout")?;
            let stride = int_tuple_of(evaluate_expr(d, env)?, d.span, "the stride of a layout")?;
            Layout::new(shape, stride).map(Value::Layout).map_err(|error| {
                let span = if matches!(error, LayoutError::NonPositiveShape { .. }) { s.span } else { e.span };
                ExprError::Layout { span, error }
            })
        }
        ExprKind::Tiler(items) => {
            let mut modes = Vec::with_capacity(items.len());
            for item in items {
                modes.push(match evaluate_expr(item, env)? {
                    Value::Underscore => None,
                    v => Some(v.into_tiler().map_err(|message| ExprError::Type { span: item.span, message })?),
                });
            }
            Ok(Value::Tiler(Tiler::Modes(modes)))
        }
        ExprKind::Call { name, name_span, args } => call(name, *name_span, e.span, args, env),
    }
}

fn unknown_name(n: &str, env: &Env) -> String {
    if FUNCTIONS.iter().any(|f| f.name == n) {
        format!("`{n}` is an operation: call it as `{n}(…)`")
    } else if env.is_empty() {
        format!("unknown name `{n}`")
    } else {
        let mut known: Vec<&str> = env.keys().map(String::as_str).collect();
        known.sort();
        format!("unknown name `{n}` (defined so far: {})", known.join(", "))
    }
}

/// `(v, …)`: an int tuple, or a coordinate when some entry is `_`.
fn tuple_value(vals: Vec<Value>, items: &[Expr]) -> Result<Value, ExprError> {
    if vals.iter().all(|v| matches!(v, Value::Tuple(_))) {
        return Ok(Value::Tuple(IntTuple::Tuple(
            vals.into_iter().map(|v| if let Value::Tuple(t) = v { t } else { IntTuple::Int(0) }).collect(),
        )));
    }
    let mut coords = Vec::with_capacity(vals.len());
    for (v, item) in vals.into_iter().zip(items) {
        coords.push(match v {
            Value::Tuple(t) => SliceCoord::from(&t),
            Value::Coord(c) => c,
            Value::Underscore => SliceCoord::Free,
            v => {
                return Err(ExprError::Type {
                    span: item.span,
                    message: format!(
                        "a tuple holds integers, tuples and `_`, found {}; tilers are written `[…]`",
                        v.kind()
                    ),
                });
            }
        });
    }
    Ok(Value::Coord(SliceCoord::Tuple(coords)))
}

fn int_tuple_of(v: Value, span: Span, what: &str) -> Result<IntTuple, ExprError> {
    match v {
        Value::Tuple(t) => Ok(t),
        v => Err(ExprError::Type { span, message: format!("{what} must be an int tuple, found {}", v.kind()) }),
    }
}

/// One operation of the expression language.
pub struct Function {
    pub name: &'static str,
    /// How it is called, e.g. `complement(L[, cotarget])`.
    pub signature: &'static str,
    pub min_args: usize,
    pub max_args: usize,
    run: fn(&Args) -> Result<Value, ExprError>,
}

/// The evaluated arguments of a call, with their spans.
struct Args<'a> {
    vals: Vec<Value>,
    exprs: &'a [Expr],
    call: Span,
}

impl Args<'_> {
    fn span(&self, i: usize) -> Span {
        self.exprs.get(i).map_or(self.call, |e| e.span)
    }

    fn ty(&self, i: usize, message: String) -> ExprError {
        ExprError::Type { span: self.span(i), message }
    }

    fn layout(&self, i: usize) -> Result<Layout, ExprError> {
        self.vals[i].clone().into_layout().map_err(|m| self.ty(i, m))
    }

    fn tiler(&self, i: usize) -> Result<Tiler, ExprError> {
        self.vals[i].clone().into_tiler().map_err(|m| self.ty(i, m))
    }

    fn tuple(&self, i: usize) -> Result<IntTuple, ExprError> {
        match &self.vals[i] {
            Value::Tuple(t) => Ok(t.clone()),
            v => Err(self.ty(i, format!("expected an int tuple, found {}", v.kind()))),
        }
    }

    fn int(&self, i: usize) -> Result<i64, ExprError> {
        match &self.vals[i] {
            Value::Tuple(IntTuple::Int(v)) => Ok(*v),
            v => Err(self.ty(i, format!("expected an integer, found {}", v.kind()))),
        }
    }

    fn index(&self, i: usize) -> Result<usize, ExprError> {
        let v = self.int(i)?;
        usize::try_from(v).map_err(|_| self.ty(i, format!("expected a mode index, found {v}")))
    }

    fn coord(&self, i: usize) -> Result<SliceCoord, ExprError> {
        match &self.vals[i] {
            Value::Tuple(t) => Ok(SliceCoord::from(t)),
            Value::Coord(c) => Ok(c.clone()),
            Value::Underscore => Ok(SliceCoord::Free),
            v => Err(self.ty(i, format!("expected a coordinate, found {}", v.kind()))),
        }
    }

    fn opt(&self, i: usize) -> bool {
        i < self.vals.len()
    }

    /// Maps an error of the algebra to the span of the operand it blames.
    fn lift<T>(&self, r: crate::Result<T>) -> Result<T, ExprError> {
        r.map_err(|error| {
            let span = match error.blame() {
                Blame::Lhs => self.span(0),
                Blame::Rhs if self.exprs.len() > 1 => self.span(1),
                _ => self.call,
            };
            ExprError::Layout { span, error }
        })
    }
}

fn call(name: &str, name_span: Span, span: Span, exprs: &[Expr], env: &Env) -> Result<Value, ExprError> {
    let Some(f) = FUNCTIONS.iter().find(|f| f.name == name) else {
        return Err(ExprError::Type { span: name_span, message: unknown_function(name) });
    };
    if exprs.len() < f.min_args || exprs.len() > f.max_args {
        let want = if f.min_args == f.max_args {
            format!("{}", f.min_args)
        } else if f.max_args == usize::MAX {
            format!("at least {}", f.min_args)
        } else {
            format!("{} to {}", f.min_args, f.max_args)
        };
        return Err(ExprError::Type {
            span,
            message: format!("`{name}` takes {want} arguments, {} given: `{}`", exprs.len(), f.signature),
        });
    }
    let vals = exprs.iter().map(|e| evaluate_expr(e, env)).collect::<Result<Vec<_>, _>>()?;
    (f.run)(&Args { vals, exprs, call: span })
}

fn unknown_function(name: &str) -> String {
    let close: Vec<&str> = FUNCTIONS
        .iter()
        .map(|f| f.name)
        .filter(|f| f.contains(name) || name.contains(f) || f.split('_').any(|w| name.split('_').any(|v| v == w)))
        .collect();
    if close.is_empty() {
        format!("unknown operation `{name}`")
    } else {
        format!(
            "unknown operation `{name}`; did you mean {}?",
            close.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
        )
    }
}

fn int(v: i64) -> Value {
    Value::Tuple(IntTuple::Int(v))
}

fn usize_int(v: usize) -> Value {
    int(i64::try_from(v).unwrap_or(i64::MAX))
}

macro_rules! f {
    ($name:literal, $sig:literal, $min:expr, $max:expr, $run:expr) => {
        Function { name: $name, signature: $sig, min_args: $min, max_args: $max, run: $run }
    };
}

/// Every operation of the expression language, by CuTe's names.
pub static FUNCTIONS: &[Function] = &[
    f!("size", "size(L)", 1, 1, |a| Ok(int(a.layout(0)?.size()))),
    f!("cosize", "cosize(L)", 1, 1, |a| Ok(int(a.lift(a.layout(0)?.cosize())?))),
    f!("rank", "rank(L)", 1, 1, |a| Ok(usize_int(a.layout(0)?.rank()))),
    f!("depth", "depth(L)", 1, 1, |a| Ok(usize_int(a.layout(0)?.depth()))),
    f!("shape", "shape(L)", 1, 1, |a| Ok(Value::Tuple(a.layout(0)?.shape().clone()))),
    f!("stride", "stride(L)", 1, 1, |a| Ok(Value::Tuple(a.layout(0)?.stride().clone()))),
    f!("coalesce", "coalesce(L[, profile])", 1, 2, |a| {
        let l = a.layout(0)?;
        if a.opt(1) {
            a.lift(coalesce_by_mode(&l, &a.tuple(1)?)).map(Value::Layout)
        } else {
            Ok(Value::Layout(coalesce(&l)))
        }
    }),
    f!("coalesce_z", "coalesce_z(L)", 1, 1, |a| Ok(Value::Layout(coalesce_extended(&a.layout(0)?)))),
    f!("filter", "filter(L[, profile])", 1, 2, |a| {
        let l = a.layout(0)?;
        if a.opt(1) {
            a.lift(filter_by_mode(&l, &a.tuple(1)?)).map(Value::Layout)
        } else {
            Ok(Value::Layout(filter(&l)))
        }
    }),
    f!("composition", "composition(A, B)", 2, 2, |a| {
        a.lift(composition_tiler(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("complement", "complement(L[, cotarget])", 1, 2, |a| {
        let l = a.layout(0)?;
        let r = if a.opt(1) {
            let cotarget = a.tuple(1)?;
            a.lift(cotarget.product()).and_then(|n| a.lift(complement(&l, n)))
        } else {
            a.lift(complement_default(&l))
        };
        r.map(Value::Layout)
    }),
    f!("right_inverse", "right_inverse(L)", 1, 1, |a| a.lift(right_inverse(&a.layout(0)?)).map(Value::Layout)),
    f!("left_inverse", "left_inverse(L)", 1, 1, |a| a.lift(left_inverse(&a.layout(0)?)).map(Value::Layout)),
    f!("make_layout", "make_layout(L0, L1, …) or make_layout(shape[, stride])", 1, usize::MAX, |a| {
        if a.vals.len() == 2 && a.vals.iter().all(|v| matches!(v, Value::Tuple(_))) {
            return a.lift(Layout::new(a.tuple(0)?, a.tuple(1)?)).map(Value::Layout);
        }
        if a.vals.len() == 1 {
            return a.layout(0).map(Value::Layout);
        }
        let modes = (0..a.vals.len()).map(|i| a.layout(i)).collect::<Result<Vec<_>, _>>()?;
        a.lift(Layout::concat(modes)).map(Value::Layout)
    }),
    f!("logical_divide", "logical_divide(A, tiler)", 2, 2, |a| {
        a.lift(logical_divide_tiler(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("zipped_divide", "zipped_divide(A, tiler)", 2, 2, |a| {
        a.lift(zipped_divide(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("tiled_divide", "tiled_divide(A, tiler)", 2, 2, |a| {
        a.lift(tiled_divide(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("flat_divide", "flat_divide(A, tiler)", 2, 2, |a| {
        a.lift(flat_divide(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("logical_product", "logical_product(A, tiler)", 2, 2, |a| {
        a.lift(logical_product_tiler(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("zipped_product", "zipped_product(A, tiler)", 2, 2, |a| {
        a.lift(zipped_product(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("tiled_product", "tiled_product(A, tiler)", 2, 2, |a| {
        a.lift(tiled_product(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("flat_product", "flat_product(A, tiler)", 2, 2, |a| {
        a.lift(flat_product(&a.layout(0)?, &a.tiler(1)?)).map(Value::Layout)
    }),
    f!("blocked_product", "blocked_product(A, B)", 2, 2, |a| {
        a.lift(blocked_product(&a.layout(0)?, &a.layout(1)?)).map(Value::Layout)
    }),
    f!("raked_product", "raked_product(A, B)", 2, 2, |a| {
        a.lift(raked_product(&a.layout(0)?, &a.layout(1)?)).map(Value::Layout)
    }),
    f!("max_common_layout", "max_common_layout(A, B)", 2, 2, |a| {
        a.lift(max_common_layout(&a.layout(0)?, &a.layout(1)?)).map(Value::Layout)
    }),
    f!("max_common_vector", "max_common_vector(A, B)", 2, 2, |a| {
        a.lift(max_common_vector(&a.layout(0)?, &a.layout(1)?)).map(int)
    }),
    f!("nullspace", "nullspace(L)", 1, 1, |a| a.lift(nullspace(&a.layout(0)?)).map(Value::Layout)),
    f!("upcast", "upcast(L, N)", 2, 2, |a| a.lift(upcast(&a.layout(0)?, a.int(1)?)).map(Value::Layout)),
    f!("downcast", "downcast(L, N)", 2, 2, |a| a.lift(downcast(&a.layout(0)?, a.int(1)?)).map(Value::Layout)),
    f!("tile_to_shape", "tile_to_shape(block, shape)", 2, 2, |a| {
        a.lift(tile_to_shape(&a.layout(0)?, &a.tuple(1)?)).map(Value::Layout)
    }),
    f!("make_ordered_layout", "make_ordered_layout(shape, order)", 2, 2, |a| {
        a.lift(make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?)).map(Value::Layout)
    }),
    f!("make_layout_like", "make_layout_like(L)", 1, 1, |a| a.lift(make_layout_like(&a.layout(0)?)).map(Value::Layout)),
    f!("with_shape", "with_shape(L, shape)", 2, 2, |a| {
        a.lift(with_shape(&a.layout(0)?, &a.tuple(1)?)).map(Value::Layout)
    }),
    f!("flatten", "flatten(L)", 1, 1, |a| Ok(Value::Layout(a.layout(0)?.flatten()))),
    f!("group", "group(L, begin, end)", 3, 3, |a| {
        a.lift(a.layout(0)?.group(a.index(1)?, a.index(2)?)).map(Value::Layout)
    }),
    f!("append", "append(L, M)", 2, 2, |a| a.lift(a.layout(0)?.append(&a.layout(1)?)).map(Value::Layout)),
    f!("prepend", "prepend(L, M)", 2, 2, |a| a.lift(a.layout(0)?.prepend(&a.layout(1)?)).map(Value::Layout)),
    f!("get", "get(L, i[, j, …])", 2, usize::MAX, |a| {
        let mut l = a.layout(0)?;
        for i in 1..a.vals.len() {
            l = a.lift(l.mode(a.index(i)?))?;
        }
        Ok(Value::Layout(l))
    }),
    f!("eval", "eval(L, index or coordinate)", 2, 2, |a| {
        let l = a.layout(0)?;
        let c = a.tuple(1)?;
        match c {
            IntTuple::Int(i) => a.lift(l.eval(i)).map(int),
            c => a.lift(l.eval_coord(&c)).map(int),
        }
    }),
    f!("slice", "slice(L, coordinate with _)", 2, 2, |a| {
        a.lift(slice(&a.layout(0)?, &a.coord(1)?)).map(|(l, _)| Value::Layout(l))
    }),
    f!("slice_offset", "slice_offset(L, coordinate with _)", 2, 2, |a| {
        a.lift(slice(&a.layout(0)?, &a.coord(1)?)).map(|(_, o)| int(o))
    }),
    f!("idx2crd", "idx2crd(index, shape)", 2, 2, |a| a.lift(idx2crd(a.int(0)?, &a.tuple(1)?)).map(Value::Tuple)),
    f!("crd2idx", "crd2idx(coordinate, shape)", 2, 2, |a| a.lift(crd2idx(&a.tuple(0)?, &a.tuple(1)?)).map(int)),
    f!("crd2crd", "crd2crd(coordinate, shape, target shape)", 3, 3, |a| {
        a.lift(crd2crd(&a.tuple(0)?, &a.tuple(1)?, &a.tuple(2)?)).map(Value::Tuple)
    }),
    f!("congruent", "congruent(P, S)", 2, 2, |a| Ok(Value::Bool(a.tuple(0)?.congruent(&a.tuple(1)?)))),
    f!("weakly_congruent", "weakly_congruent(P, S)", 2, 2, |a| {
        Ok(Value::Bool(a.tuple(0)?.weakly_congruent(&a.tuple(1)?)))
    }),
    f!("compatible", "compatible(P, S)", 2, 2, |a| Ok(Value::Bool(a.tuple(0)?.compatible(&a.tuple(1)?)))),
];
