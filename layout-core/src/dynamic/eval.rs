//! The expression language over symbols: an expression that mentions a symbol (or a
//! dynamic item) is evaluated here; its static parts go to the ordinary evaluator.

use std::collections::HashMap;

use super::layout::{self as dl, DynLayout, SymTuple};
use super::solve::{Cond, Solver};
use super::symint::SymInt;
use super::{DynError, is_symbol_name};
use crate::notation::{Env, Expr, ExprError, ExprKind, Span, Value, evaluate_expr, parse};
use crate::operation::Operation;
use crate::slice::SliceCoord;
use crate::tiler::Tiler;

/// Dynamic items bound earlier (the macro's items whose layouts have symbols).
pub type DynEnv = HashMap<String, DynLayout>;

/// The value of an expression over symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynValue {
    /// No symbol: an ordinary value.
    Static(Value),
    /// A symbolic integer (`M`, `8*M`).
    Int(SymInt),
    /// A tuple with symbolic leaves (a shape).
    Tuple(SymTuple),
    /// A layout with symbolic extents or strides.
    Layout(DynLayout),
}

impl DynValue {
    fn kind(&self) -> &'static str {
        match self {
            DynValue::Static(v) => v.kind(),
            DynValue::Int(_) => "a symbolic integer",
            DynValue::Tuple(_) => "a symbolic int tuple",
            DynValue::Layout(_) => "a dynamic layout",
        }
    }
}

/// Whether the expression mentions a symbol or a dynamic item (given the names bound).
pub fn mentions_symbols(e: &Expr, env: &Env, denv: &DynEnv) -> bool {
    match &e.kind {
        ExprKind::Name(n) => denv.contains_key(n) || (!env.contains_key(n) && is_symbol_name(n)),
        ExprKind::Tuple(items) | ExprKind::Tiler(items) | ExprKind::Call { args: items, .. } => {
            items.iter().any(|i| mentions_symbols(i, env, denv))
        }
        ExprKind::Layout(s, d) => mentions_symbols(s, env, denv) || mentions_symbols(d, env, denv),
        ExprKind::Arith { lhs, rhs, .. } => mentions_symbols(lhs, env, denv) || mentions_symbols(rhs, env, denv),
        _ => false,
    }
}

/// Splits `EXPR where FACT, FACT` at the word `where`.
fn split_where(text: &str) -> (&str, Option<&str>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(k) = text[i..].find("where") {
        let at = i + k;
        let before = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let after = bytes.get(at + 5).is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        if before && after {
            return (&text[..at], Some(&text[at + 5..]));
        }
        i = at + 5;
    }
    (text, None)
}

/// Parses facts `M % 8 == 0, LD >= M, M <= 4096, N > 1, Q+2 <= W` (`==`, `>=`, `>`, `<=`, `<`
/// between sums, products and quotients of symbols and integers; `X % k == 0`). `offset` is added to the
/// spans of errors.
pub fn parse_facts(text: &str, offset: usize) -> Result<Vec<Cond>, ExprError> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in text.split(',') {
        let span = Span::new(offset + start, offset + start + part.len());
        start += part.len() + 1;
        if part.trim().is_empty() {
            continue;
        }
        out.push(parse_fact(part).map_err(|message| ExprError::Parse { span, message })?);
    }
    Ok(out)
}

fn parse_fact(text: &str) -> Result<Cond, String> {
    let squeezed: String = text.split_whitespace().collect::<Vec<_>>().join("");
    let help = || {
        let shown = squeezed.replace("==", " == ").replace(">=", " >= ").replace("<=", " <= ").replace('%', " % ");
        format!(
            "`{shown}` is not a fact: write `X % 8 == 0`, `LD >= M`, `M > 7`, `M <= 4096`, `Q+2 <= W` (sums, products and quotients of symbols and integers)"
        )
    };
    let side = |s: &str| -> Result<SymInt, String> {
        let e = parse(s).map_err(|_| help())?;
        sym_of(&e).ok_or_else(help)
    };
    if let Some((lhs, rhs)) = squeezed.split_once("==") {
        if let Some((x, k)) = lhs.split_once('%') {
            if rhs != "0" {
                return Err(help());
            }
            let (x, k) = (side(x)?, side(k)?);
            if k.is_zero() || k.is_negative() {
                return Err(format!(
                    "`{x} % {k} == 0` is not a fact: the modulus must be positive (`{x} % 8 == 0` says that 8 divides {x})"
                ));
            }
            return Ok(Cond::divides(x, k));
        }
        // `a == b` as the two comparisons is not supported: a fact is one condition.
        return Err(format!("{}; an equality fixes the value: use a static number instead", help()));
    }
    for (op, flip, strict) in [(">=", false, false), ("<=", true, false), (">", false, true), ("<", true, true)] {
        if let Some((a, b)) = squeezed.split_once(op) {
            let (a, b) = if flip { (side(b)?, side(a)?) } else { (side(a)?, side(b)?) };
            return Ok(if strict { Cond::gt(a, b) } else { Cond::ge(a, b) });
        }
    }
    Err(help())
}

/// Integers and symbols combined with `*`, `/`, `+` and `-` (and parentheses) as a symbolic
/// integer.
fn sym_of(e: &Expr) -> Option<SymInt> {
    match &e.kind {
        ExprKind::Int(v) => Some(SymInt::int(*v)),
        ExprKind::Name(n) if is_symbol_name(n) => Some(SymInt::sym(n)),
        ExprKind::Tuple(items) if items.len() == 1 => sym_of(&items[0]),
        ExprKind::Arith { lhs, op, rhs } => arith(&sym_of(lhs)?, *op, &sym_of(rhs)?).ok(),
        _ => None,
    }
}

/// `a op b` over symbolic integers, or why not.
fn arith(a: &SymInt, op: char, b: &SymInt) -> Result<SymInt, String> {
    let sum = |r: Option<SymInt>| {
        r.ok_or_else(|| {
            format!(
                "`{a} {op} {b}` has no form over symbols: the numbers overflow, or a side divides by a sum (`M/(W-2)`)"
            )
        })
    };
    match op {
        '*' => Ok(a.mul(b)),
        '+' => sum(a.add(b)),
        '-' => sum(a.sub(b)),
        _ if b.is_zero() => Err("division by zero".into()),
        _ => Ok(a.div(b)),
    }
}

/// Parses and evaluates `EXPR [where FACTS]` to a dynamic layout (a static result is a
/// dynamic layout without symbols).
pub fn evaluate_dynamic(text: &str) -> Result<DynLayout, ExprError> {
    let (ast, facts) = parse_with_facts(text)?;
    evaluate_dynamic_expr(&ast, &Env::new(), &DynEnv::new(), &facts)
}

fn parse_with_facts(text: &str) -> Result<(Expr, Vec<Cond>), ExprError> {
    let (expr, facts) = split_where(text);
    let facts = match facts {
        Some(f) => parse_facts(f, expr.len() + 5)?,
        None => Vec::new(),
    };
    Ok((parse(expr.trim_end())?, facts))
}

/// An integer over symbols (`size((M,N))` is `M*N`), valid under its conditions (those of
/// the layouts it was computed from, and the facts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynInt {
    /// The integer, over the symbols.
    pub value: SymInt,
    /// The conditions under which it is valid.
    pub conds: Vec<super::Condition>,
    /// The symbols in order of first appearance.
    pub symbols: Vec<String>,
}

impl DynInt {
    /// The number with values for the symbols: checks positivity and every condition as
    /// [`DynLayout::substitute`] does.
    pub fn substitute(&self, value: &dyn Fn(&str) -> Option<i64>) -> Result<i64, super::DynamicError> {
        let check = DynLayout {
            shape: SymTuple::Leaf(SymInt::int(1)),
            stride: SymTuple::Leaf(SymInt::int(0)),
            conds: self.conds.clone(),
            symbols: self.symbols.clone(),
        };
        check.substitute(value)?;
        self.value.eval_int(value).ok_or_else(|| super::DynamicError::Overflow {
            layout: self.value.to_string().into(),
            values: self
                .symbols
                .iter()
                .map(|s| format!("{s} = {}", value(s).unwrap_or(0)))
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

impl std::fmt::Display for DynInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.value)
    }
}

/// The value of an expression over symbols: a layout, or an integer (`size`, `cosize`,
/// `rank`, `depth`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynOutput {
    /// A layout over the symbols.
    Layout(DynLayout),
    /// An integer over the symbols.
    Int(DynInt),
    /// `local_tile_edge(A, T)` as the whole expression: the tiles with edges.
    Edges(super::EdgeTiles),
}

/// Parses and evaluates `EXPR [where FACTS]`: an integer-valued operation gives
/// [`DynOutput::Int`], printed as an integer expression (`M*N`) that parses back;
/// `local_tile_edge(A, T)` as the whole expression gives [`DynOutput::Edges`].
pub fn evaluate_dynamic_value(text: &str) -> Result<DynOutput, ExprError> {
    let (ast, facts) = parse_with_facts(text)?;
    let (env, denv) = (Env::new(), DynEnv::new());
    let order = check_facts(&ast, &env, &denv, &facts)?;
    if let ExprKind::Call { name, args, .. } = &ast.kind
        && name == "local_tile_edge"
    {
        let [a, t] = args.as_slice() else {
            return Err(err(ast.span, format!("`local_tile_edge` takes a layout and a tiler, {} given", args.len())));
        };
        let a = evaluate_dynamic_expr(a, &env, &denv, &facts)?;
        let tiler = evaluate_expr(t, &env)?.into_tiler().map_err(|m| err(t.span, m))?;
        return super::local_tile_edge(&a, &tiler).map(DynOutput::Edges).map_err(|e| dyn_err(ast.span, e));
    }
    let cx = Cx { env: &env, denv: &denv, facts: &facts, used: Default::default() };
    let v = cx.eval(&ast)?;
    let int = match &v {
        DynValue::Int(i) => Some(i.clone()),
        DynValue::Static(Value::Tuple(crate::IntTuple::Int(k))) => Some(SymInt::int(*k)),
        _ => None,
    };
    match int {
        Some(value) => {
            let conds = with_facts_first(&facts, cx.used.into_inner());
            Ok(DynOutput::Int(DynInt { value, conds, symbols: order }))
        }
        None => {
            let mut l = cx.layout(v, ast.span)?;
            l.symbols = order;
            l.conds = with_facts_first(&facts, std::mem::take(&mut l.conds));
            Ok(DynOutput::Layout(l))
        }
    }
}

/// The symbols in order of first appearance; every fact must name only those, and no fact
/// may be false for every value allowed by the facts before it.
fn check_facts(e: &Expr, env: &Env, denv: &DynEnv, facts: &[Cond]) -> Result<Vec<String>, ExprError> {
    let mut order = Vec::new();
    symbol_order(e, env, denv, &mut order);
    for (i, f) in facts.iter().enumerate() {
        for s in f.symbols() {
            if !order.iter().any(|o| o == s) {
                return Err(ExprError::Type {
                    span: e.span,
                    message: format!("the fact `{f}` names `{s}`, which the layout does not use"),
                });
            }
        }
        let before = &facts[..i];
        let solver = Solver { conds: before.iter().map(stated).collect() };
        if solver.prove(f) == Some(false) {
            let message = match solver.refuted_by(f).as_slice() {
                [] => format!("the fact `{f}` is false for every value of the symbols (symbols are positive)"),
                given => format!("the facts contradict each other: `{f}` is false when {}", quoted(given)),
            };
            return Err(ExprError::Type { span: e.span, message });
        }
    }
    Ok(order)
}

/// A fact as a condition.
fn stated(f: &Cond) -> super::Condition {
    super::Condition { cond: f.clone(), kind: super::CondKind::Fact, why: "stated in `where`".into() }
}

/// `` `a` `` or `` `a`, `b` ``.
pub(super) fn quoted(conds: &[Cond]) -> String {
    conds.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" and ")
}

/// The facts first (they are checked first at run time), then the other conditions.
fn with_facts_first(facts: &[Cond], rest: Vec<super::Condition>) -> Vec<super::Condition> {
    let mut conds: Vec<_> = facts.iter().map(stated).collect();
    for c in rest {
        if !conds.contains(&c) {
            conds.push(c);
        }
    }
    conds
}

/// Evaluates a parsed expression over symbols with the facts assumed; the result carries
/// the facts and the conditions the operations need.
pub fn evaluate_dynamic_expr(e: &Expr, env: &Env, denv: &DynEnv, facts: &[Cond]) -> Result<DynLayout, ExprError> {
    let order = check_facts(e, env, denv, facts)?;
    let cx = Cx { env, denv, facts, used: Default::default() };
    let v = cx.eval(e)?;
    let mut l = cx.layout(v, e.span)?;
    l.symbols = order;
    l.conds = with_facts_first(facts, std::mem::take(&mut l.conds));
    Ok(l)
}

fn symbol_order(e: &Expr, env: &Env, denv: &DynEnv, out: &mut Vec<String>) {
    let mut push = |s: &str| {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    };
    match &e.kind {
        ExprKind::Name(n) => {
            if let Some(l) = denv.get(n) {
                l.symbols.iter().for_each(|s| push(s));
            } else if !env.contains_key(n) && is_symbol_name(n) {
                push(n);
            }
        }
        ExprKind::Tuple(items) | ExprKind::Tiler(items) | ExprKind::Call { args: items, .. } => {
            items.iter().for_each(|i| symbol_order(i, env, denv, out));
        }
        ExprKind::Layout(s, d) => {
            symbol_order(s, env, denv, out);
            symbol_order(d, env, denv, out);
        }
        ExprKind::Arith { lhs, rhs, .. } => {
            symbol_order(lhs, env, denv, out);
            symbol_order(rhs, env, denv, out);
        }
        _ => {}
    }
}

struct Cx<'a> {
    env: &'a Env,
    denv: &'a DynEnv,
    facts: &'a [Cond],
    /// The conditions of the layouts an integer-valued operation consumed.
    used: std::cell::RefCell<Vec<super::Condition>>,
}

fn v_str(v: &DynValue) -> String {
    match v {
        DynValue::Tuple(t) => t.to_string(),
        DynValue::Int(i) => i.to_string(),
        DynValue::Layout(l) => l.to_string(),
        DynValue::Static(s) => s.to_string(),
    }
}

fn err(span: Span, message: impl Into<String>) -> ExprError {
    ExprError::Type { span, message: message.into() }
}

fn dyn_err(span: Span, e: DynError) -> ExprError {
    match e {
        DynError::Layout(error) => ExprError::Layout { span, error },
        e => err(span, e.to_string()),
    }
}

impl Cx<'_> {
    fn eval(&self, e: &Expr) -> Result<DynValue, ExprError> {
        if !mentions_symbols(e, self.env, self.denv) {
            return evaluate_expr(e, self.env).map(DynValue::Static);
        }
        match &e.kind {
            ExprKind::Name(n) => Ok(match self.denv.get(n) {
                Some(l) => {
                    let mut l = l.clone();
                    self.with_facts(&mut l, e.span)?;
                    DynValue::Layout(l)
                }
                None => DynValue::Int(SymInt::sym(n)),
            }),
            ExprKind::Arith { lhs, op, rhs } => {
                let a = self.int(lhs)?;
                let b = self.int(rhs)?;
                arith(&a, *op, &b).map(DynValue::Int).map_err(|m| err(e.span, m))
            }
            ExprKind::Tuple(items) => {
                let leaves = items.iter().map(|i| self.tuple(i)).collect::<Result<Vec<_>, _>>()?;
                Ok(DynValue::Tuple(SymTuple::Tuple(leaves)))
            }
            ExprKind::Layout(s, d) => {
                let shape = self.tuple(s)?;
                let stride = self.tuple(d)?;
                let mut l = DynLayout::new(shape, stride).map_err(|x| dyn_err(e.span, x))?;
                self.with_facts(&mut l, e.span)?;
                Ok(DynValue::Layout(l))
            }
            ExprKind::Tiler(_) => Err(err(
                e.span,
                "a tiler must be static: symbols are allowed in the layout being tiled, not in the tiler",
            )),
            ExprKind::Call { name, args, .. } => self.call(name, args, e.span),
            _ => Err(err(e.span, "unexpected expression over symbols")),
        }
    }

    /// Assumes the facts; a sum whose positivity they prove no longer needs its own check,
    /// one they refute is an error.
    fn with_facts(&self, l: &mut DynLayout, span: Span) -> Result<(), ExprError> {
        for f in self.facts {
            if !l.conds.iter().any(|c| &c.cond == f) {
                l.assume(f.clone());
            }
        }
        l.recheck_positivity().map_err(|x| dyn_err(span, x))
    }

    fn int(&self, e: &Expr) -> Result<SymInt, ExprError> {
        match self.eval(e)? {
            DynValue::Int(v) => Ok(v),
            DynValue::Static(Value::Tuple(crate::IntTuple::Int(v))) => Ok(SymInt::int(v)),
            // `(x)` groups: `(W-2)/8`.
            DynValue::Tuple(SymTuple::Tuple(v)) if matches!(v.as_slice(), [SymTuple::Leaf(_)]) => match &v[0] {
                SymTuple::Leaf(x) => Ok(x.clone()),
                SymTuple::Tuple(_) => Err(err(e.span, "expected an integer")),
            },
            DynValue::Static(Value::Tuple(crate::IntTuple::Tuple(v)))
                if matches!(v.as_slice(), [crate::IntTuple::Int(_)]) =>
            {
                match v[0] {
                    crate::IntTuple::Int(x) => Ok(SymInt::int(x)),
                    crate::IntTuple::Tuple(_) => Err(err(e.span, "expected an integer")),
                }
            }
            v => Err(err(e.span, format!("`*`, `/`, `+` and `-` take integers and symbols, found {}", v.kind()))),
        }
    }

    fn tuple(&self, e: &Expr) -> Result<SymTuple, ExprError> {
        match self.eval(e)? {
            DynValue::Int(v) => Ok(SymTuple::Leaf(v)),
            DynValue::Tuple(t) => Ok(t),
            DynValue::Static(Value::Tuple(t)) => Ok(SymTuple::from_int_tuple(&t)),
            v => Err(err(e.span, format!("a shape or stride holds integers and symbols, found {}", v.kind()))),
        }
    }

    fn layout(&self, v: DynValue, span: Span) -> Result<DynLayout, ExprError> {
        match v {
            DynValue::Layout(l) => Ok(l),
            DynValue::Tuple(t) => {
                let stride = t.compact_col_major();
                let mut l = DynLayout::new(t, stride).map_err(|x| dyn_err(span, x))?;
                self.with_facts(&mut l, span)?;
                Ok(l)
            }
            DynValue::Int(v) => {
                let mut l =
                    DynLayout::new(SymTuple::Leaf(v), SymTuple::Leaf(SymInt::int(1))).map_err(|x| dyn_err(span, x))?;
                self.with_facts(&mut l, span)?;
                Ok(l)
            }
            DynValue::Static(v) => match v.into_layout() {
                Ok(l) => {
                    let mut l = DynLayout::from_layout(&l);
                    self.with_facts(&mut l, span)?;
                    Ok(l)
                }
                Err(m) => Err(err(span, m)),
            },
        }
    }

    fn static_arg(&self, e: &Expr, what: &str) -> Result<Value, ExprError> {
        match self.eval(e)? {
            DynValue::Static(v) => Ok(v),
            v => Err(err(
                e.span,
                format!("{what} must be static, found {}; only the first operand may have symbols", v.kind()),
            )),
        }
    }

    fn call(&self, name: &str, args: &[Expr], span: Span) -> Result<DynValue, ExprError> {
        use Operation as Op;
        let n = args.len();
        let arity = |k: usize| {
            if n == k {
                Ok(())
            } else {
                Err(err(span, format!("`{name}` takes {k} arguments over symbols, {n} given")))
            }
        };
        let first = |cx: &Self| -> Result<DynLayout, ExprError> {
            let v = cx.eval(&args[0])?;
            cx.layout(v, args[0].span)
        };
        let tiler = |cx: &Self| -> Result<Tiler, ExprError> {
            cx.static_arg(&args[1], "the tiler")?.into_tiler().map_err(|m| err(args[1].span, m))
        };
        let lift = |r: Result<DynLayout, DynError>| r.map(DynValue::Layout).map_err(|e| dyn_err(span, e));
        if name == "local_tile_edge" {
            return Err(err(
                span,
                "`local_tile_edge` is an item of its own, not part of an expression: \
                 `pub Tiles = local_tile_edge(Mat, [8:1, 8:1]);`",
            ));
        }
        let unavailable = || {
            err(
                span,
                format!(
                    "`{name}` is not available over symbols; the operations over dynamic layouts are logical_divide, \
                     zipped_divide, tiled_divide, flat_divide, local_tile, local_partition, composition, \
                     logical_product, zipped_product, tiled_product, flat_product, blocked_product, raked_product, \
                     complement, right_inverse, left_inverse, coalesce, flatten, size, cosize, rank, depth, shape, \
                     stride, make_layout, get, slice (and `local_tile_edge` as an item, or as the whole expression \
                     of `layout eval`)"
                ),
            )
        };
        let Some(op) = Operation::from_name(name) else { return Err(unavailable()) };
        match op {
            Op::Composition if n == 2 && mentions_symbols(&args[1], self.env, self.denv) => {
                // A right operand with symbolic extents and static strides.
                let a = first(self)?;
                let v = self.eval(&args[1])?;
                let b = self.layout(v, args[1].span)?;
                if b.stride.leaves().iter().any(|d| !d.is_const()) {
                    return Err(err(
                        args[1].span,
                        "the right operand of a composition over symbols needs static strides",
                    ));
                }
                lift(dl::compose(&a, &b))
            }
            Op::LogicalDivide
            | Op::ZippedDivide
            | Op::TiledDivide
            | Op::LocalTile
            | Op::LocalPartition
            | Op::Composition => {
                arity(2)?;
                let (a, t) = (first(self)?, tiler(self)?);
                lift(match op {
                    Op::LogicalDivide => dl::logical_divide_tiler(&a, &t),
                    Op::ZippedDivide => dl::zipped_divide(&a, &t),
                    Op::TiledDivide => dl::tiled_divide(&a, &t),
                    Op::LocalTile => dl::local_tile(&a, &t),
                    Op::LocalPartition => dl::local_partition(&a, &t),
                    _ => dl::composition_tiler(&a, &t),
                })
            }
            Op::Complement if n == 1 || n == 2 => {
                let a = first(self)?;
                let cot = match args.get(1) {
                    Some(c) => Some(self.int(c)?),
                    None => None,
                };
                lift(dl::complement(&a, cot.as_ref()))
            }
            Op::LogicalProduct | Op::BlockedProduct | Op::RakedProduct => {
                arity(2)?;
                let a = first(self)?;
                let v = self.eval(&args[1])?;
                if op == Op::LogicalProduct
                    && let DynValue::Static(s) = &v
                    && let Ok(t) = s.clone().into_tiler()
                    && matches!(t, Tiler::Modes(_))
                {
                    return lift(dl::logical_product_tiler(&a, &t));
                }
                if op == Op::LogicalProduct
                    && let DynValue::Tuple(SymTuple::Tuple(entries)) = &v
                {
                    // A shape as a tiler, as in the static algebra: `[s0:1, s1:1, …]` by mode.
                    let modes = a.modes();
                    if entries.len() > modes.len() {
                        return Err(err(args[1].span, format!("the tiler `{}` has more modes than `{a}`", v_str(&v))));
                    }
                    let mut parts = Vec::new();
                    for (k, mode) in modes.iter().enumerate() {
                        parts.push(match entries.get(k) {
                            Some(SymTuple::Leaf(s)) => {
                                let t = DynLayout::new(SymTuple::Leaf(s.clone()), SymTuple::Leaf(SymInt::int(1)))
                                    .map_err(|x| dyn_err(span, x))?;
                                dl::logical_product(mode, &t).map_err(|x| dyn_err(span, x))?
                            }
                            Some(_) => return Err(err(args[1].span, "a nested shape as a tiler over symbols")),
                            None => mode.clone(),
                        });
                    }
                    let mut out = DynLayout::concat(parts);
                    out.symbols = a.symbols.clone();
                    for s in entries.iter().flat_map(|e| e.leaves()) {
                        for x in s.symbols() {
                            if !out.symbols.iter().any(|o| o == x) {
                                out.symbols.push(x.to_string());
                            }
                        }
                    }
                    return Ok(DynValue::Layout(out));
                }
                let b = self.layout(v, args[1].span)?;
                lift(match op {
                    Op::LogicalProduct => dl::logical_product(&a, &b),
                    Op::BlockedProduct => dl::zip_product(&a, &b, false),
                    _ => dl::zip_product(&a, &b, true),
                })
            }
            Op::Coalesce => {
                arity(1)?;
                Ok(DynValue::Layout(first(self)?.coalesce()))
            }
            Op::Flatten => {
                arity(1)?;
                let a = first(self)?;
                let (s, d): (Vec<_>, Vec<_>) =
                    a.flat_modes().into_iter().map(|(s, d)| (SymTuple::Leaf(s), SymTuple::Leaf(d))).unzip();
                let mut out = a.clone();
                if s.len() > 1 || matches!(a.shape, SymTuple::Tuple(_)) {
                    (out.shape, out.stride) = (SymTuple::Tuple(s), SymTuple::Tuple(d));
                }
                Ok(DynValue::Layout(out))
            }
            Op::Size | Op::Cosize | Op::Rank | Op::Depth => {
                arity(1)?;
                let a = first(self)?;
                let mut used = self.used.borrow_mut();
                for c in &a.conds {
                    if !used.contains(c) {
                        used.push(c.clone());
                    }
                }
                let int = |k: usize| DynValue::Static(Value::Tuple(crate::IntTuple::Int(k as i64)));
                Ok(match op {
                    Op::Size => DynValue::Int(a.size()),
                    Op::Rank => int(a.rank()),
                    Op::Depth => int(a.depth()),
                    _ => DynValue::Int(dl::cosize(&a).map_err(|e| dyn_err(span, e))?),
                })
            }
            Op::RightInverse | Op::LeftInverse => {
                arity(1)?;
                let a = first(self)?;
                lift(if op == Op::RightInverse { super::right_inverse(&a) } else { super::left_inverse(&a) })
            }
            Op::ZippedProduct | Op::TiledProduct | Op::FlatProduct | Op::FlatDivide => {
                arity(2)?;
                let (a, t) = (first(self)?, tiler(self)?);
                lift(match op {
                    Op::ZippedProduct => dl::zipped_product(&a, &t),
                    Op::TiledProduct => dl::tiled_product(&a, &t),
                    Op::FlatProduct => dl::flat_product(&a, &t),
                    _ => dl::flat_divide(&a, &t),
                })
            }
            Op::Shape | Op::Stride => {
                arity(1)?;
                let a = first(self)?;
                Ok(DynValue::Tuple(if op == Op::Shape { a.shape } else { a.stride }))
            }
            Op::MakeLayout if n == 2 => {
                let shape = self.tuple(&args[0])?;
                let stride = self.tuple(&args[1])?;
                let mut l = DynLayout::new(shape, stride).map_err(|x| dyn_err(span, x))?;
                self.with_facts(&mut l, span)?;
                Ok(DynValue::Layout(l))
            }
            Op::Get => {
                if n < 2 {
                    return Err(err(span, "`get` takes a layout and mode indices"));
                }
                let mut a = first(self)?;
                for i in &args[1..] {
                    let k = match self.static_arg(i, "a mode index")? {
                        Value::Tuple(crate::IntTuple::Int(k)) if k >= 0 => k as usize,
                        v => return Err(err(i.span, format!("expected a mode index, found {}", v.kind()))),
                    };
                    a = a.mode(k).map_err(|e| dyn_err(i.span, e))?;
                }
                Ok(DynValue::Layout(a))
            }
            Op::Slice => {
                arity(2)?;
                let a = first(self)?;
                let c = match self.static_arg(&args[1], "the coordinate")? {
                    Value::Tuple(t) => SliceCoord::from(&t),
                    Value::Coord(c) => c,
                    Value::Underscore => SliceCoord::Free,
                    v => return Err(err(args[1].span, format!("expected a coordinate, found {}", v.kind()))),
                };
                lift(dl::slice(&a, &c))
            }
            _ => Err(unavailable()),
        }
    }
}
