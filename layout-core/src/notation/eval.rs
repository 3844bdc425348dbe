//! Evaluation of expressions: each call runs one operation of the algebra; an error keeps
//! the span of the operand responsible.

use std::collections::HashMap;

use thiserror::Error;

use super::ast::{Expr, ExprKind, Span};
use super::extended as ext;
use super::parser::parse;
use super::value::Value;
use crate::any_layout::AnyLayout;
use crate::error::{Blame, LayoutError};
use crate::int_tuple::{IntTuple, crd2crd, crd2idx, idx2crd};
use crate::layout::Layout;
use crate::operation::Operation;
use crate::slice::SliceCoord;
use crate::stride::Stride;
use crate::tiler::Tiler;
use crate::*;

/// Names bound earlier (the items of one `layout!` invocation).
pub type Env = HashMap<String, Value>;

/// An error of the expression language, at a byte span of the source.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExprError {
    /// The text is not an expression of the language.
    #[error("{message}")]
    Parse {
        /// Where.
        span: Span,
        /// What was expected.
        message: String,
    },
    /// An operand of the wrong kind (a tiler where a layout is needed, …) or a wrong number
    /// of arguments.
    #[error("{message}")]
    Type {
        /// The operand (or call) at fault.
        span: Span,
        /// What was expected and what was given.
        message: String,
    },
    /// An operation of the algebra is not admissible.
    #[error("{error}")]
    Layout {
        /// The operand the error blames (or the call).
        span: Span,
        /// The algebra's error.
        error: LayoutError,
    },
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
            tuple_value(vals, items, e.span)
        }
        ExprKind::Layout(s, d) => {
            let shape = int_tuple_of(evaluate_expr(s, env)?, s.span, "the shape of a layout")?;
            let at = |error: LayoutError| {
                let span = if matches!(error, LayoutError::NonPositiveShape { .. }) { s.span } else { e.span };
                ExprError::Layout { span, error }
            };
            match evaluate_expr(d, env)? {
                Value::Stride(stride) => stride.layout(shape).map(Value::layout).map_err(at),
                v => {
                    let stride = int_tuple_of(v, d.span, "the stride of a layout")?;
                    Layout::new(shape, stride).map(Value::layout).map_err(at)
                }
            }
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
        ExprKind::Arith { lhs, op, rhs } => {
            // `(x)` in arithmetic groups: `(6-2)*4`.
            let int = |t: IntTuple| match t {
                IntTuple::Tuple(mut v) if v.len() == 1 && matches!(v[0], IntTuple::Int(_)) => v.remove(0),
                t => t,
            };
            let a = int(int_tuple_of(evaluate_expr(lhs, env)?, lhs.span, "an operand of `*`, `/`, `+` and `-`")?);
            let b = int(int_tuple_of(evaluate_expr(rhs, env)?, rhs.span, "an operand of `*`, `/`, `+` and `-`")?);
            let (IntTuple::Int(a), IntTuple::Int(b)) = (a, b) else {
                return Err(ty(format!("`{op}` takes integers")));
            };
            let overflow = || ExprError::Layout { span: e.span, error: LayoutError::Overflow { a, op: *op, b } };
            match op {
                '*' => a.checked_mul(b).map(|v| Value::Tuple(IntTuple::Int(v))).ok_or_else(overflow),
                '+' => a.checked_add(b).map(|v| Value::Tuple(IntTuple::Int(v))).ok_or_else(overflow),
                '-' => a.checked_sub(b).map(|v| Value::Tuple(IntTuple::Int(v))).ok_or_else(overflow),
                _ if b == 0 || a % b != 0 => Err(ty(format!("`{a}/{b}` is not an integer"))),
                _ => a.checked_div(b).map(|v| Value::Tuple(IntTuple::Int(v))).ok_or_else(overflow),
            }
        }
    }
}

fn unknown_name(n: &str, env: &Env) -> String {
    if crate::dynamic::is_symbol_name(n) && !env.contains_key(n) {
        format!("`{n}` is a symbol (a run-time extent or stride); this operation needs a static layout")
    } else if Operation::from_name(n).is_some() {
        format!("`{n}` is an operation: call it as `{n}(…)`")
    } else if env.is_empty() {
        format!("unknown name `{n}`")
    } else {
        let mut known: Vec<&str> = env.keys().map(String::as_str).collect();
        known.sort();
        format!("unknown name `{n}` (defined so far: {})", known.join(", "))
    }
}

/// `(v, …)`: an int tuple, a stride tuple when some entry is a coordinate or F2 stride, or a
/// coordinate when some entry is `_`.
fn tuple_value(vals: Vec<Value>, items: &[Expr], span: Span) -> Result<Value, ExprError> {
    if vals.iter().all(|v| matches!(v, Value::Tuple(_))) {
        return Ok(Value::Tuple(IntTuple::Tuple(
            vals.into_iter().map(|v| if let Value::Tuple(t) = v { t } else { IntTuple::Int(0) }).collect(),
        )));
    }
    if vals.iter().all(|v| matches!(v, Value::Tuple(_) | Value::Stride(_))) {
        let stride = Stride::Tuple(
            vals.into_iter()
                .map(|v| match v {
                    Value::Stride(s) => s,
                    Value::Tuple(t) => Stride::from_int_tuple(&t),
                    _ => Stride::Int(0),
                })
                .collect(),
        );
        return stride.check_mixed().map(|()| Value::Stride(stride)).map_err(|error| ExprError::Layout { span, error });
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

/// One operation of the expression language: how it is called and what runs it.
pub struct Function {
    /// The operation; its name is how the function is called.
    pub op: Operation,
    /// How it is called, e.g. `complement(L[, cotarget])`.
    pub signature: &'static str,
    /// The fewest arguments it takes.
    pub min_args: usize,
    /// The most arguments it takes.
    pub max_args: usize,
    run: fn(&Args) -> Result<Value, ExprError>,
}

impl Function {
    /// The operation's name, as called in expressions.
    pub fn name(&self) -> &'static str {
        self.op.name()
    }

    /// The table entry of `op`.
    pub fn of(op: Operation) -> Option<&'static Function> {
        FUNCTIONS.iter().find(|f| f.op == op)
    }
}

/// The evaluated arguments of a call, with their spans.
pub(super) struct Args<'a> {
    /// The operation called.
    pub(super) op: Operation,
    pub(super) vals: Vec<Value>,
    exprs: &'a [Expr],
    call: Span,
}

impl Args<'_> {
    fn span(&self, i: usize) -> Span {
        self.exprs.get(i).map_or(self.call, |e| e.span)
    }

    pub(super) fn ty(&self, i: usize, message: String) -> ExprError {
        ExprError::Type { span: self.span(i), message }
    }

    /// Operand i as an integer layout (a bare shape is column-major).
    pub(super) fn layout(&self, i: usize) -> Result<Layout, ExprError> {
        match &self.vals[i] {
            v @ Value::Swizzle(_)
            | v @ Value::Layout(AnyLayout::Swizzled(_) | AnyLayout::Coordinate(_) | AnyLayout::F2(_)) => {
                Err(self.ty(i, format!("`{}` is not defined for {} (`{v}`)", self.op, v.kind())))
            }
            v => v.clone().into_layout().map_err(|m| self.ty(i, m)),
        }
    }

    pub(super) fn tiler(&self, i: usize) -> Result<Tiler, ExprError> {
        self.vals[i].clone().into_tiler().map_err(|m| self.ty(i, m))
    }

    pub(super) fn tuple(&self, i: usize) -> Result<IntTuple, ExprError> {
        match &self.vals[i] {
            Value::Tuple(t) => Ok(t.clone()),
            v => Err(self.ty(i, format!("expected an int tuple, found {}", v.kind()))),
        }
    }

    pub(super) fn int(&self, i: usize) -> Result<i64, ExprError> {
        match &self.vals[i] {
            Value::Tuple(IntTuple::Int(v)) => Ok(*v),
            v => Err(self.ty(i, format!("expected an integer, found {}", v.kind()))),
        }
    }

    pub(super) fn index(&self, i: usize) -> Result<usize, ExprError> {
        let v = self.int(i)?;
        usize::try_from(v).map_err(|_| self.ty(i, format!("expected a mode index, found {v}")))
    }

    pub(super) fn coord(&self, i: usize) -> Result<SliceCoord, ExprError> {
        match &self.vals[i] {
            Value::Tuple(t) => Ok(SliceCoord::from(t)),
            Value::Coord(c) => Ok(c.clone()),
            Value::Underscore => Ok(SliceCoord::Free),
            v => Err(self.ty(i, format!("expected a coordinate, found {}", v.kind()))),
        }
    }

    pub(super) fn opt(&self, i: usize) -> bool {
        i < self.vals.len()
    }

    /// Maps an error of the algebra to the span of the operand it blames.
    pub(super) fn lift<T>(&self, r: crate::Result<T>) -> Result<T, ExprError> {
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
    let Some(f) = Operation::from_name(name).and_then(Function::of) else {
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
    (f.run)(&Args { op: f.op, vals, exprs, call: span })
}

fn unknown_function(name: &str) -> String {
    match super::did_you_mean_operation(name) {
        Some(help) => format!("unknown operation `{name}`; {help}"),
        None => format!("unknown operation `{name}`"),
    }
}

fn int(v: i64) -> Value {
    Value::Tuple(IntTuple::Int(v))
}

macro_rules! f {
    ($op:ident, $sig:literal, $min:expr, $max:expr, $run:expr) => {
        Function { op: Operation::$op, signature: $sig, min_args: $min, max_args: $max, run: $run }
    };
}

/// Every operation of the expression language, one entry per [`Operation`], in the order of
/// [`Operation::ALL`].
pub static FUNCTIONS: &[Function] = &[
    f!(Size, "size(L)", 1, 1, ext::size),
    f!(Cosize, "cosize(L)", 1, 1, ext::cosize),
    f!(Rank, "rank(L)", 1, 1, ext::rank),
    f!(Depth, "depth(L)", 1, 1, ext::depth),
    f!(Shape, "shape(L)", 1, 1, ext::shape),
    f!(Stride, "stride(L)", 1, 1, ext::stride),
    f!(Coalesce, "coalesce(L[, profile])", 1, 2, ext::coalesce),
    f!(CoalesceZ, "coalesce_z(L)", 1, 1, ext::coalesce_z),
    f!(Filter, "filter(L[, profile])", 1, 2, ext::filter),
    f!(Composition, "composition(A, B)", 2, 2, ext::composition),
    f!(Complement, "complement(L[, cotarget])", 1, 2, ext::complement),
    f!(RightInverse, "right_inverse(L)", 1, 1, ext::right_inverse),
    f!(LeftInverse, "left_inverse(L)", 1, 1, ext::left_inverse),
    f!(MakeLayout, "make_layout(L0, L1, …) or make_layout(shape[, stride])", 1, usize::MAX, ext::make_layout),
    f!(LogicalDivide, "logical_divide(A, tiler)", 2, 2, |a| ext::divide(a, logical_divide_tiler)),
    f!(ZippedDivide, "zipped_divide(A, tiler)", 2, 2, |a| ext::divide(a, zipped_divide)),
    f!(TiledDivide, "tiled_divide(A, tiler)", 2, 2, |a| ext::divide(a, tiled_divide)),
    f!(FlatDivide, "flat_divide(A, tiler)", 2, 2, |a| ext::divide(a, flat_divide)),
    f!(LocalTile, "local_tile(A, tiler)", 2, 2, |a| {
        a.lift(local_tile(&a.layout(0)?, &a.tiler(1)?)).map(Value::layout)
    }),
    f!(LocalPartition, "local_partition(A, tiler)", 2, 2, |a| {
        a.lift(local_partition(&a.layout(0)?, &a.tiler(1)?)).map(Value::layout)
    }),
    f!(LogicalProduct, "logical_product(A, tiler)", 2, 2, |a| ext::product(a, logical_product_tiler)),
    f!(ZippedProduct, "zipped_product(A, tiler)", 2, 2, |a| ext::product(a, zipped_product)),
    f!(TiledProduct, "tiled_product(A, tiler)", 2, 2, |a| ext::product(a, tiled_product)),
    f!(FlatProduct, "flat_product(A, tiler)", 2, 2, |a| ext::product(a, flat_product)),
    f!(BlockedProduct, "blocked_product(A, B)", 2, 2, |a| ext::product_layout(a, blocked_product)),
    f!(RakedProduct, "raked_product(A, B)", 2, 2, |a| ext::product_layout(a, raked_product)),
    f!(MaxCommonLayout, "max_common_layout(A, B)", 2, 2, |a| {
        a.lift(max_common_layout(&a.layout(0)?, &a.layout(1)?)).map(Value::layout)
    }),
    f!(MaxCommonVector, "max_common_vector(A, B)", 2, 2, |a| {
        a.lift(max_common_vector(&a.layout(0)?, &a.layout(1)?)).map(int)
    }),
    f!(Nullspace, "nullspace(L)", 1, 1, |a| a.lift(nullspace(&a.layout(0)?)).map(Value::layout)),
    f!(Upcast, "upcast(L, N)", 2, 2, |a| a.lift(upcast(&a.layout(0)?, a.int(1)?)).map(Value::layout)),
    f!(Downcast, "downcast(L, N)", 2, 2, |a| a.lift(downcast(&a.layout(0)?, a.int(1)?)).map(Value::layout)),
    f!(TileToShape, "tile_to_shape(block, shape)", 2, 2, |a| {
        a.lift(tile_to_shape(&a.layout(0)?, &a.tuple(1)?)).map(Value::layout)
    }),
    f!(MakeOrderedLayout, "make_ordered_layout(shape, order)", 2, 2, |a| {
        a.lift(make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?)).map(Value::layout)
    }),
    f!(MakeLayoutLike, "make_layout_like(L)", 1, 1, |a| a.lift(make_layout_like(&a.layout(0)?)).map(Value::layout)),
    f!(WithShape, "with_shape(L, shape)", 2, 2, |a| {
        a.lift(with_shape(&a.layout(0)?, &a.tuple(1)?)).map(Value::layout)
    }),
    f!(Flatten, "flatten(L)", 1, 1, ext::flatten),
    f!(Group, "group(L, begin, end)", 3, 3, |a| {
        a.lift(a.layout(0)?.group(a.index(1)?, a.index(2)?)).map(Value::layout)
    }),
    f!(Append, "append(L, M)", 2, 2, |a| a.lift(a.layout(0)?.append(&a.layout(1)?)).map(Value::layout)),
    f!(Prepend, "prepend(L, M)", 2, 2, |a| a.lift(a.layout(0)?.prepend(&a.layout(1)?)).map(Value::layout)),
    f!(Get, "get(L, i[, j, …])", 2, usize::MAX, ext::get),
    f!(Eval, "eval(L, index or coordinate)", 2, 2, ext::eval),
    f!(Slice, "slice(L, coordinate with _)", 2, 2, ext::slice_layout),
    f!(SliceOffset, "slice_offset(L, coordinate with _)", 2, 2, ext::slice_offset),
    f!(Idx2Crd, "idx2crd(index, shape)", 2, 2, |a| a.lift(idx2crd(a.int(0)?, &a.tuple(1)?)).map(Value::Tuple)),
    f!(Crd2Idx, "crd2idx(coordinate, shape)", 2, 2, |a| a.lift(crd2idx(&a.tuple(0)?, &a.tuple(1)?)).map(int)),
    f!(Crd2Crd, "crd2crd(coordinate, shape, target shape)", 3, 3, |a| {
        a.lift(crd2crd(&a.tuple(0)?, &a.tuple(1)?, &a.tuple(2)?)).map(Value::Tuple)
    }),
    f!(Congruent, "congruent(P, S)", 2, 2, |a| Ok(Value::Bool(a.tuple(0)?.congruent(&a.tuple(1)?)))),
    f!(WeaklyCongruent, "weakly_congruent(P, S)", 2, 2, |a| {
        Ok(Value::Bool(a.tuple(0)?.weakly_congruent(&a.tuple(1)?)))
    }),
    f!(Compatible, "compatible(P, S)", 2, 2, |a| Ok(Value::Bool(a.tuple(0)?.compatible(&a.tuple(1)?)))),
    f!(MakeSwizzle, "make_swizzle(B, M, S), written Sw<B,M,S>", 3, 3, ext::make_swizzle),
    f!(
        MakeComposedLayout,
        "make_composed_layout(F, …, L), written Sw o offset o L or A o Sw o offset o B",
        2,
        17,
        ext::make_composed_layout
    ),
    f!(ScaledBasis, "scaled_basis(a, i[, b, j, …]), written a@i+b@j", 2, usize::MAX, ext::scaled_basis),
    f!(F2Stride, "f2_stride(k), written fk", 1, 1, ext::f2_stride),
    f!(F2Matrix, "f2_matrix(L)", 1, 1, ext::f2_matrix),
];
