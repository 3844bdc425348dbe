//! Narrated evaluation for `layout explain`: the steps the algorithm took for a composition,
//! divide or product (coalesced operand, walk over modes, complement), and for a rejected one
//! the reason in the same words as the error.

use std::cell::RefCell;

use crate::checked;
use crate::complement::{complement, complement_modes, complement_weak_at};
use crate::composition::composition_traced;
use crate::layout::Layout;
use crate::notation::{Env, ExprError, ExprKind, Value, evaluate_expr, parse};
use crate::tiler::Tiler;

/// The narration of one evaluation and its outcome.
#[derive(Clone, Debug)]
pub struct Explanation {
    pub steps: Vec<String>,
    pub result: Result<Value, ExprError>,
}

type Log = RefCell<Vec<String>>;

/// Parses `text`, evaluates it, and narrates the algorithm of its outermost operation.
/// A parse error is returned as `Err`; an evaluation error is the explanation's `result`.
pub fn explain(text: &str) -> Result<Explanation, ExprError> {
    let expr = parse(text)?;
    let env = Env::new();
    let log = Log::default();
    if let ExprKind::Call { name, args, .. } = &expr.kind {
        let vals: Vec<Value> = args.iter().filter_map(|a| evaluate_expr(a, &env).ok()).collect();
        if vals.len() == args.len() {
            narrate(name, &vals, &log);
        }
    }
    let result = evaluate_expr(&expr, &env);
    let mut steps = log.into_inner();
    match &result {
        Ok(v) => steps.push(format!("result: {v}")),
        Err(e) => {
            steps.push(format!("rejected: {e}"));
            if let Some(h) = e.help() {
                steps.push(format!("help: {h}"));
            }
        }
    }
    Ok(Explanation { steps, result })
}

fn narrate(name: &str, vals: &[Value], log: &Log) {
    let say = |s: String| log.borrow_mut().push(s);
    let layout = |i: usize| vals.get(i).cloned().and_then(|v| v.into_layout().ok());
    let tiler = |i: usize| vals.get(i).cloned().and_then(|v| v.into_tiler().ok());
    if name == "complement" {
        if let Some(l) = layout(0) {
            let cotarget = match vals.get(1) {
                Some(v) => v.clone().into_layout().ok().map(|c| c.size()),
                None => l.cosize().ok(),
            };
            if let Some(n) = cotarget {
                narrate_complement(&l, n, "L", log);
            }
        }
        return;
    }
    let (Some(a), Some(t)) = (layout(0), tiler(1)) else { return };
    say(format!("A = {a}"));
    say(format!("B = {t}"));
    match name {
        "composition" => by_mode(&a, &t, log, &|a, b, log| composition_traced(a, b, Some(log)).is_ok()),
        "logical_divide" | "zipped_divide" | "tiled_divide" => {
            by_mode(&a, &t, log, &|a, b, log| divide(a, b, true, log))
        }
        "flat_divide" => by_mode(&a, &t, log, &|a, b, log| divide(a, b, false, log)),
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product" => {
            by_mode(&a, &t, log, &|a, b, log| product(a, b, log))
        }
        "blocked_product" | "raked_product" => {
            say("both operands are padded with 1:0 modes to the same rank; then as logical_product:".into());
            if let Tiler::Layout(b) = &t {
                product(&a, b, log);
            }
        }
        _ => {}
    }
}

/// Runs `step` on the whole layout, or mode by mode for `[T0, T1, …]`.
fn by_mode(a: &Layout, t: &Tiler, log: &Log, step: &dyn Fn(&Layout, &Layout, &Log) -> bool) {
    match t {
        Tiler::Layout(b) => {
            step(a, b, log);
        }
        Tiler::Modes(m) => {
            for (i, (ai, ti)) in a.modes().iter().zip(m).enumerate() {
                match ti {
                    None => log.borrow_mut().push(format!("mode {i}: `_` keeps {ai}")),
                    Some(ti) => {
                        log.borrow_mut().push(format!("mode {i}: A_{i} = {ai}, tiler {ti}"));
                        by_mode(ai, ti, log, step);
                    }
                }
            }
            if m.len() < a.rank() {
                log.borrow_mut().push(format!("modes {}.. are not tiled and stay as they are", m.len()));
            }
        }
    }
}

fn narrate_complement(l: &Layout, n: i64, name: &str, log: &Log) -> Option<Layout> {
    let say = |s: String| log.borrow_mut().push(s);
    say(format!(
        "complement({name} = {l}, {n}): sort the modes of filter({name}) by stride; before each, a hole of \
         stride/extent, then a rest mode ⌈{n}/extent⌉"
    ));
    match complement_modes(l, n) {
        Ok(paper) => {
            let c = complement(l, n).ok()?;
            say(format!("  = {paper} (paper form), coalesced {c}"));
            if let Some((stride, extent)) = complement_weak_at(l) {
                say(format!(
                    "  weak: the stride {stride} is not a multiple of the extent {extent} below it, so the hole \
                     before it is ⌊{stride}/{extent}⌋ and ({name}, complement) is injective but skips offsets"
                ));
            }
            Some(c)
        }
        Err(e) => {
            say(format!("  fails: {e}"));
            None
        }
    }
}

fn divide(a: &Layout, b: &Layout, exact: bool, log: &Log) -> bool {
    let Some(c) = narrate_complement(b, a.size(), "B", log) else { return false };
    if let Some((stride, extent)) = complement_weak_at(b) {
        log.borrow_mut().push(format!(
            "  the complement is weak (stride {stride} is not a multiple of the extent {extent} below it): (B, \
             complement) cannot tile [0, {}), and a divide needs it to",
            a.size()
        ));
        return false;
    }
    let Ok(star) = Layout::concat([b.clone(), c]) else { return false };
    let say = |s: String| log.borrow_mut().push(s);
    if star.size() == a.size() {
        say(format!("B★ = (B, complement) = {star}: {} elements, a bijection onto [0, {})", star.size(), a.size()));
    } else if exact {
        say(format!("B★ = (B, complement) = {star} has {} elements, not |A| = {}", star.size(), a.size()));
        return false;
    } else {
        say(format!("B★ = (B, complement) = {star}: the last tile reaches past |A| = {} (ceil-div tiles)", a.size()));
    }
    say("A ⊘ B = A ∘ B★:".into());
    composition_traced(a, &star, Some(log)).is_ok()
}

fn product(a: &Layout, b: &Layout, log: &Log) -> bool {
    let Ok(cotarget) = b.cosize().and_then(|c| checked::mul(a.size(), c)) else { return false };
    let Some(c) = narrate_complement(a, cotarget, "A", log) else { return false };
    if let Some((stride, extent)) = complement_weak_at(a) {
        log.borrow_mut().push(format!(
            "  A* is weak (stride {stride} is not a multiple of the extent {extent} below it): the copies of A must \
             be disjoint, which holds when B's image stays inside A*'s {} elements (cosize(B) = {})",
            c.size(),
            b.cosize().unwrap_or(0)
        ));
    }
    log.borrow_mut().push(format!("A ⊗ B = (A, A* ∘ B) with A* = {c}; A* ∘ B:"));
    composition_traced(&c, b, Some(log)).is_ok()
}
