//! Evaluation of the items with layout-core. A later item sees the names of the earlier ones;
//! every error is collected in the context at the tokens responsible, and an item whose
//! expression uses a name that already failed is skipped silently (its cause is reported).

use std::collections::{HashMap, HashSet};

use layout_core::dynamic::{DynEnv, evaluate_dynamic_expr, is_symbol_name, mentions_symbols, parse_facts};
use layout_core::notation::{
    Env, Expr, ExprError, ExprKind, Span, Value, did_you_mean, did_you_mean_operation, evaluate_expr, parse,
};
use layout_core::{AnyLayout, Layout, LayoutError, Operation};
use quote::ToTokens;

use crate::ast::{ExprTokens, Item};
use crate::ctxt::Ctxt;
use crate::dynamic::DynPlan;
use crate::fallback::{KernelStandIn, StandIn};
use crate::kernel::{self, Kernel};
use crate::plan::{ComposedPlan, CoordinatePlan, F2Plan, IndexPlan, Plan, SwizzledPlan};

/// What became of one item.
pub enum Outcome {
    /// Evaluated and planned: emit the layout's struct.
    Planned(Box<Plan>),
    /// An error was reported: emit a stand-in of the kind the item would have had, so that
    /// uses of the name do not cascade into more errors.
    Failed(StandIn),
    /// A second item of the same name: reported, nothing emitted.
    Duplicate,
    /// A kernel item (`pub fn NAME = copy(SRC, DST);`, `gemm(T, A, B, C)`), planned.
    Kernel(Box<Kernel>),
    /// A kernel item whose error was reported: emit a stand-in function of the signature
    /// the kernel would have had (`gemm`'s when the item calls `gemm`, else `copy`'s).
    KernelFailed(KernelStandIn),
    /// A layout with symbols (`pub Mat = (M,N):(1,LD);`): a struct of run-time integers.
    Dynamic(Box<DynPlan>),
    /// An edge tiling of a layout with symbols (`local_tile_edge(Mat, [8:1, 8:1])`).
    Edge(Box<crate::dynamic::EdgePlan>),
    /// An item with symbols whose error was reported (or that uses such an item): emit a
    /// stand-in with a dynamic item's API, so that uses do not cascade.
    DynFailed(crate::dyn_fallback::DynStandIn),
}

/// Evaluates the items in order.
pub fn evaluate_items(items: &[Item], cx: &mut Ctxt) -> Vec<Outcome> {
    let names: HashMap<String, usize> = items.iter().enumerate().rev().map(|(k, i)| (i.name.to_string(), k)).collect();
    let mut env = Env::new();
    let mut denv = DynEnv::new();
    let mut failed = HashSet::new();
    // Failed items with symbols, and the symbols their stand-ins take.
    let mut failed_dyn: HashMap<String, Vec<String>> = HashMap::new();
    let mut out = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let name = item.name.to_string();
        if names[&name] != k {
            cx.error(syn::Error::new_spanned(&item.name, format!("`{name}` is defined twice in this `layout!`")));
            out.push(Outcome::Duplicate);
            continue;
        }
        let scope = Scope { env: &env, denv: &denv, failed: &failed, later: &names, here: k };
        let dynamic = item.facts.is_some()
            || parse(&item.expr.text)
                .is_ok_and(|ast| mentions_symbols(&ast, &env, &denv) && !uses_failed(&ast, &failed));
        let uses_failed_dyn = parse(&item.expr.text).is_ok_and(|ast| {
            let mut used = Vec::new();
            collect_names(&ast, &mut used);
            used.iter().any(|(n, _)| failed_dyn.contains_key(*n))
        });
        if item.fn_token.is_none() && (dynamic || uses_failed_dyn) {
            let outcome = if uses_failed_dyn { None } else { evaluate_dynamic_item(item, &scope, cx) };
            match outcome {
                Some(DynOutcome::Layout(layout, plan)) => {
                    denv.insert(name, layout);
                    out.push(Outcome::Dynamic(plan));
                }
                Some(DynOutcome::Edge(plan)) => out.push(Outcome::Edge(plan)),
                None => {
                    let stand_in = crate::dyn_fallback::stand_in(&item.expr.text, &env, &denv, &failed_dyn, &names);
                    failed_dyn.insert(name.clone(), stand_in.symbols.clone());
                    failed.insert(name);
                    out.push(Outcome::DynFailed(stand_in));
                }
            }
            continue;
        }
        if item.fn_token.is_some() {
            out.push(match kernel::evaluate(&item.expr, &scope, cx) {
                Some(k) => Outcome::Kernel(Box::new(k)),
                None => Outcome::KernelFailed(KernelStandIn::guess(&item.expr.text, &env, &failed)),
            });
            continue;
        }
        match evaluate_item(&item.expr, &item.eq_token, &format!("`{name}`"), &scope, cx) {
            Some((value, plan)) => {
                env.insert(name, value);
                out.push(Outcome::Planned(Box::new(plan)));
            }
            None => {
                failed.insert(name);
                out.push(Outcome::Failed(StandIn::guess(&item.expr.text, &env)));
            }
        }
    }
    out
}

/// Evaluates the expression form (no names in scope).
pub fn evaluate_expression(expr: &ExprTokens, cx: &mut Ctxt) -> Option<Plan> {
    let env = Env::new();
    let denv = DynEnv::new();
    let (failed, later) = (HashSet::new(), HashMap::new());
    let scope = Scope { env: &env, denv: &denv, failed: &failed, later: &later, here: 0 };
    evaluate_item(expr, expr, "the expression", &scope, cx).map(|(_, plan)| plan)
}

/// Evaluates a kernel call on its own, as the expression of `pub fn NAME = KERNEL;` in an
/// invocation with no other items (no names in scope): for the command-line tool.
pub fn evaluate_kernel(expr: &ExprTokens, cx: &mut Ctxt) -> Option<Kernel> {
    let env = Env::new();
    let denv = DynEnv::new();
    let (failed, later) = (HashSet::new(), HashMap::new());
    let scope = Scope { env: &env, denv: &denv, failed: &failed, later: &later, here: 0 };
    kernel::evaluate(expr, &scope, cx)
}

/// The names an expression can see.
pub struct Scope<'a> {
    pub env: &'a Env,
    /// Earlier items with symbols.
    pub denv: &'a DynEnv,
    /// Earlier items that failed: an expression using one is skipped silently.
    failed: &'a HashSet<String>,
    /// Every item name and its position, to tell a forward reference from a typo.
    later: &'a HashMap<String, usize>,
    here: usize,
}

fn evaluate_item(
    expr: &ExprTokens,
    empty_at: &dyn ToTokens,
    what: &str,
    scope: &Scope,
    cx: &mut Ctxt,
) -> Option<(Value, Plan)> {
    if expr.tokens.is_empty() {
        cx.error(syn::Error::new_spanned(empty_at, "expected a layout expression, e.g. `(4,8):(1,4)`"));
        return None;
    }
    if !expr.bad_literals.is_empty() {
        for (token, message) in &expr.bad_literals {
            cx.error(syn::Error::new_spanned(token, message));
        }
        return None;
    }
    let ast = parse(&expr.text).map_err(|e| cx.error(to_syn(expr, &e))).ok()?;
    if !check_calls(&ast, expr, cx) | !check_names(&ast, expr, scope, cx) {
        return None;
    }
    let value = evaluate_expr(&ast, scope.env).map_err(|e| cx.error(to_syn(expr, &e))).ok()?;
    match plan_value(&value) {
        Ok(plan) => Some((value, plan)),
        Err(PlanError::NotALayout(message)) => {
            cx.error(expr.error_whole(format!("{what} must be a layout, but {message}")));
            None
        }
        Err(PlanError::Machine(message)) => {
            cx.error(expr.error_whole(message));
            None
        }
    }
}

/// Whether the expression names an item that failed (it is skipped silently).
fn uses_failed(ast: &Expr, failed: &HashSet<String>) -> bool {
    let mut names = Vec::new();
    collect_names(ast, &mut names);
    names.iter().any(|(n, _)| failed.contains(*n))
}

/// Evaluates an item with symbols (or facts): the symbolic algebra, the facts, and the plan
/// of the struct.
/// A dynamic item: a layout, or an edge tiling.
#[allow(clippy::large_enum_variant)] // a transient value, moved once
enum DynOutcome {
    Layout(layout_core::DynLayout, Box<DynPlan>),
    Edge(Box<crate::dynamic::EdgePlan>),
}

fn evaluate_dynamic_item(item: &Item, scope: &Scope, cx: &mut Ctxt) -> Option<DynOutcome> {
    let expr = &item.expr;
    if expr.tokens.is_empty() {
        cx.error(syn::Error::new_spanned(item.eq_token, "expected a layout expression, e.g. `(M,N):(1,LD)`"));
        return None;
    }
    if !expr.bad_literals.is_empty() {
        for (token, message) in &expr.bad_literals {
            cx.error(syn::Error::new_spanned(token, message));
        }
        return None;
    }
    let ast = parse(&expr.text).map_err(|e| cx.error(to_syn(expr, &e))).ok()?;
    if !check_calls(&ast, expr, cx) | !check_names(&ast, expr, scope, cx) {
        return None;
    }
    let facts = match &item.facts {
        None => Vec::new(),
        Some((w, f)) if f.tokens.is_empty() => {
            cx.error(syn::Error::new_spanned(w, "expected facts after `where`, e.g. `where M % 8 == 0, LD >= M`"));
            return None;
        }
        Some((_, f)) => parse_facts(&f.text, 0).map_err(|e| cx.error(to_syn(f, &e))).ok()?,
    };
    if let layout_core::notation::ExprKind::Call { name, args, .. } = &ast.kind
        && name == "local_tile_edge"
    {
        return evaluate_edge_item(item, &ast, args, &facts, scope, cx);
    }
    let layout = evaluate_dynamic_expr(&ast, scope.env, scope.denv, &facts)
        .map_err(|e| match &item.facts {
            // A fact about a symbol the layout does not use: at the facts.
            Some((_, f)) if e.to_string().starts_with("the fact `") => cx.error(f.error_whole(e.to_string())),
            _ => cx.error(to_syn(expr, &e)),
        })
        .ok()?;
    if layout.symbols.is_empty() {
        cx.error(expr.error_whole("`where` is for layouts with symbols; this layout is static"));
        return None;
    }
    match DynPlan::new(&layout) {
        Ok(plan) => Some(DynOutcome::Layout(layout, Box::new(plan))),
        Err(m) => {
            cx.error(expr.error_whole(m));
            None
        }
    }
}

/// `local_tile_edge(A, tiler)`: A over symbols, a static tiler `[t0:1, t1:1, …]`.
fn evaluate_edge_item(
    item: &Item,
    ast: &layout_core::notation::Expr,
    args: &[layout_core::notation::Expr],
    facts: &[layout_core::dynamic::Cond],
    scope: &Scope,
    cx: &mut Ctxt,
) -> Option<DynOutcome> {
    let expr = &item.expr;
    if args.len() != 2 {
        cx.error(expr.error_whole(format!("`local_tile_edge` takes a layout and a tiler, {} given", args.len())));
        return None;
    }
    let a =
        evaluate_dynamic_expr(&args[0], scope.env, scope.denv, facts).map_err(|e| cx.error(to_syn(expr, &e))).ok()?;
    let tiler = evaluate_expr(&args[1], scope.env)
        .map_err(|e| cx.error(to_syn(expr, &e)))
        .ok()?
        .into_tiler()
        .map_err(|m| cx.error(expr.error_at(args[1].span.start, args[1].span.end, m)))
        .ok()?;
    if a.symbols.is_empty() {
        cx.error(
            expr.error_whole("`local_tile_edge` tiles a layout with symbols; for a static layout use `local_tile`"),
        );
        return None;
    }
    let _ = ast;
    let edges = layout_core::dynamic::local_tile_edge(&a, &tiler)
        .map_err(|e| cx.error(expr.error_whole(e.to_string())))
        .ok()?;
    match crate::dynamic::EdgePlan::new(&edges) {
        Ok(plan) => Some(DynOutcome::Edge(Box::new(plan))),
        Err(m) => {
            cx.error(expr.error_whole(m));
            None
        }
    }
}

/// Why a value cannot be emitted.
pub enum PlanError {
    /// Not a layout of any kind (`is a tiler`, `is an integer`, …).
    NotALayout(String),
    /// A layout whose offsets do not fit the machine integers of the emitted code.
    Machine(String),
}

/// The plan of a value: an integer layout (a bare shape is the compact column-major
/// layout), a swizzled layout, a coordinate layout or an F2 layout.
pub fn plan_value(value: &Value) -> Result<Plan, PlanError> {
    let machine = |shown: &dyn std::fmt::Display, e: LayoutError| {
        PlanError::Machine(format!("`{shown}` cannot be indexed with machine integers: {e}"))
    };
    match value {
        Value::Layout(AnyLayout::Swizzled(s)) => SwizzledPlan::new(s).map(Plan::Swizzled).map_err(|e| machine(s, e)),
        Value::Layout(AnyLayout::Coordinate(b)) => {
            CoordinatePlan::new(b).map(Plan::Coordinate).map_err(|e| machine(b, e))
        }
        Value::Layout(AnyLayout::F2(f)) => F2Plan::new(f).map(Plan::F2).map_err(|e| machine(f, e)),
        Value::Layout(AnyLayout::Composed(c)) => ComposedPlan::new(c).map(Plan::Composed).map_err(|e| machine(c, e)),
        v => {
            let layout = as_layout(v).map_err(PlanError::NotALayout)?;
            IndexPlan::new(&layout).map(Plan::Int).map_err(|e| machine(&layout, e))
        }
    }
}

/// A value as a layout: a bare shape is the compact column-major layout.
fn as_layout(value: &Value) -> Result<Layout, String> {
    match value {
        Value::Layout(AnyLayout::Int(l)) => Ok(l.clone()),
        Value::Tuple(t) => Layout::column_major(t.clone()).map_err(|e| e.to_string()),
        Value::Tiler(t) => Err(format!("`{t}` is a tiler; use it inside the expression that applies it")),
        Value::Swizzle(s) => {
            Err(format!("`{s}` is a swizzle function; compose it with a layout: `{s} o (8,64):(64,1)`"))
        }
        v => Err(format!("`{v}` is {}", v.kind())),
    }
}

/// Reports names used before their item; returns false when the expression must be
/// skipped (an error was reported, or it uses an item that failed).
pub fn check_names(ast: &Expr, expr: &ExprTokens, scope: &Scope, cx: &mut Ctxt) -> bool {
    let mut names = Vec::new();
    collect_names(ast, &mut names);
    let mut ok = true;
    for (name, span) in names {
        if scope.env.contains_key(name) || scope.denv.contains_key(name) {
            continue;
        }
        if scope.failed.contains(name) {
            ok = false;
        } else if let Some(&k) = scope.later.get(name).filter(|&&k| k >= scope.here) {
            let message = if k == scope.here {
                format!("`{name}` cannot be used in its own definition")
            } else {
                format!("`{name}` is defined later in this `layout!`; an item can only use the names defined before it")
            };
            cx.error(expr.error_at(span.start, span.end, message));
            ok = false;
        } else if let Some(item) = misspelled_item(name, scope) {
            let message = format!(
                "`{name}` is no item of this `layout!`, so it would be a symbol (a run-time extent); did you mean \
                 the item `{item}`? (to mean a symbol, pick a name that is not one edit from an item's)"
            );
            cx.error(expr.error_at(span.start, span.end, message));
            ok = false;
        } else if is_symbol_name(name) && !scope.later.is_empty() {
            // A symbol: a run-time extent or stride.
        } else if is_symbol_name(name) {
            let message = format!(
                "`{name}` is a symbol (a run-time extent or stride): a layout with symbols must be an item, \
                 `layout! {{ pub NAME = …; }}`, built at run time with `NAME::new(…)`"
            );
            cx.error(expr.error_at(span.start, span.end, message));
            ok = false;
        } else if Operation::from_name(name).is_none() {
            let help = did_you_mean(name, scope.env.keys().map(String::as_str));
            let mut known: Vec<&str> = scope.env.keys().map(String::as_str).collect();
            known.sort_unstable();
            let message = if scope.later.is_empty() {
                format!(
                    "unknown name `{name}`: `layout!(EXPR)` has no names; define them with `layout! {{ pub NAME = EXPR; }}`"
                )
            } else if known.is_empty() {
                format!("unknown name `{name}`: no layout is defined before this item")
            } else {
                format!("unknown name `{name}` (defined so far: {})", known.join(", "))
            };
            cx.error(expr.error_at(span.start, span.end, with_help(message, help)));
            ok = false;
        }
    }
    ok
}

/// An earlier item one edit from `name`, a would-be symbol of at least three characters
/// (shorter symbols, `M` beside an item `A`, are one edit from many names).
fn misspelled_item<'a>(name: &str, scope: &'a Scope) -> Option<&'a str> {
    if !is_symbol_name(name) || name.chars().count() < 3 {
        return None;
    }
    let mut earlier: Vec<(&str, usize)> =
        scope.later.iter().filter(|&(_, &k)| k < scope.here).map(|(n, &k)| (n.as_str(), k)).collect();
    earlier.sort_by_key(|&(_, k)| k);
    earlier.into_iter().map(|(n, _)| n).find(|n| layout_core::notation::edit_distance(name, n) == 1)
}

/// Reports calls of unknown operations, with the closest known names as a `help:`.
pub fn check_calls(e: &Expr, expr: &ExprTokens, cx: &mut Ctxt) -> bool {
    let mut ok = true;
    if let ExprKind::Call { name, name_span, .. } = &e.kind
        && Operation::from_name(name).is_none()
        && name != "local_tile_edge"
    {
        let help = did_you_mean_operation(name);
        let message = with_help(format!("unknown operation `{name}`"), help);
        cx.error(expr.error_at(name_span.start, name_span.end, message));
        ok = false;
    }
    match &e.kind {
        ExprKind::Tuple(items) | ExprKind::Tiler(items) | ExprKind::Call { args: items, .. } => {
            items.iter().fold(ok, |ok, i| check_calls(i, expr, cx) && ok)
        }
        ExprKind::Layout(s, d) => check_calls(s, expr, cx) & check_calls(d, expr, cx) && ok,
        _ => ok,
    }
}

fn collect_names<'a>(e: &'a Expr, out: &mut Vec<(&'a str, Span)>) {
    match &e.kind {
        ExprKind::Name(n) => out.push((n, e.span)),
        ExprKind::Tuple(items) | ExprKind::Tiler(items) | ExprKind::Call { args: items, .. } => {
            items.iter().for_each(|i| collect_names(i, out));
        }
        ExprKind::Layout(s, d) | ExprKind::Arith { lhs: s, rhs: d, .. } => {
            collect_names(s, out);
            collect_names(d, out);
        }
        // Leaves (integers, `_`, and whatever the notation adds) name nothing.
        _ => {}
    }
}

/// An error of layout-core at the tokens of its span.
fn to_syn(expr: &ExprTokens, e: &ExprError) -> syn::Error {
    let span = e.span();
    expr.error_at(span.start, span.end, message(e))
}

/// The text of an error: the condition and the numbers, then a `help:` line where the core
/// can suggest a fix.
pub fn message(e: &ExprError) -> String {
    with_help(e.to_string(), e.help())
}

/// Appends the help line.
pub fn with_help(message: String, help: Option<String>) -> String {
    match help {
        Some(help) => format!("{message}\n\nhelp: {help}"),
        None => message,
    }
}
