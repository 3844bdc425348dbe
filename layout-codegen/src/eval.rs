//! Evaluation of the items with layout-core. A later item sees the names of the earlier ones;
//! every error is collected in the context at the tokens responsible, and an item whose
//! expression uses a name that already failed is skipped silently (its cause is reported).

use std::collections::{HashMap, HashSet};

use layout_core::dynamic::{DynEnv, evaluate_dynamic_expr, mentions_symbols, parse_facts};
use layout_core::notation::{Env, Value, evaluate_expr, parse};
use quote::ToTokens;

use crate::ast::{ExprTokens, Item};
use crate::ctxt::Ctxt;
use crate::dynamic::DynPlan;
use crate::fallback::{KernelStandIn, StandIn};
use crate::kernel::{self, Kernel};
use crate::plan::{Plan, PlanError, plan_value};
use crate::scope::{Scope, check_calls, check_names, collect_names, to_syn, uses_failed};

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
    // The item itself, under a name no expression can write: an invocation of items, whose
    // operands may have symbols.
    let (failed, later) = (HashSet::new(), HashMap::from([(" ".to_string(), 0)]));
    let scope = Scope { env: &env, denv: &denv, failed: &failed, later: &later, here: 0 };
    kernel::evaluate(expr, &scope, cx)
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
