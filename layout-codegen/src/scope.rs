//! The names an expression can see and the diagnostics every pass shares: the checks of
//! names and calls against the scope, and layout-core's errors as `syn` errors at the
//! tokens of their span, with the `help:` line.

use std::collections::{HashMap, HashSet};

use layout_core::Operation;
use layout_core::dynamic::{DynEnv, is_symbol_name};
use layout_core::notation::{Env, Expr, ExprError, ExprKind, Span, did_you_mean, did_you_mean_operation};

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;

/// The names an expression can see.
pub struct Scope<'a> {
    pub env: &'a Env,
    /// Earlier items with symbols.
    pub denv: &'a DynEnv,
    /// Earlier items that failed: an expression using one is skipped silently.
    pub failed: &'a HashSet<String>,
    /// Every item name and its position, to tell a forward reference from a typo.
    pub later: &'a HashMap<String, usize>,
    /// The position of the item being evaluated.
    pub here: usize,
}

/// Whether the expression names an item that failed (it is skipped silently).
pub fn uses_failed(ast: &Expr, failed: &HashSet<String>) -> bool {
    let mut names = Vec::new();
    collect_names(ast, &mut names);
    names.iter().any(|(n, _)| failed.contains(*n))
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

/// The names an expression uses, with their spans.
pub fn collect_names<'a>(e: &'a Expr, out: &mut Vec<(&'a str, Span)>) {
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
pub fn to_syn(expr: &ExprTokens, e: &ExprError) -> syn::Error {
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
