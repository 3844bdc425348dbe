//! Kernel items over layouts with symbols (`pub fn T = copy(ColMajor, RowMajor);` with
//! `ColMajor = (M,N):(1,LDS)`): an operand is the name of an item, dynamic or static, whose
//! tensors the function takes, or a layout written inline (`(M,N):(1,M)`), for which it takes
//! a tensor of any layout that is the pattern for some values of its symbols; the plan is made
//! at run time from the tensors' layout values (once per thread while they stay the same),
//! and a symbol shared by two operands must have one value (checked at each call).

use layout_core::dynamic::{DynLayout, SymInt, evaluate_dynamic_expr, is_symbol_name, mentions_symbols};
use layout_core::notation::{Expr, ExprKind, Value, evaluate_expr};
use layout_core::{AnyLayout, Layout};
use proc_macro2::{Ident, Span};

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;
use crate::dynamic::DynPlan;
use crate::kernel::gemm::Scalar;
use crate::plan::{Plan, plan_value};
use crate::scope::{Scope, check_calls, check_names, to_syn};

/// What the kernel computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DynKind {
    Copy,
    Gemm(Scalar),
}

/// One operand: the item whose tensors it takes.
pub struct DynOperand {
    pub name: Ident,
    /// `source`, `destination`, `A`, `B` or `C`.
    pub role: &'static str,
    /// The item's symbols (empty for a static item), in its constructor's order.
    pub symbols: Vec<String>,
    /// The item's layout in notation.
    pub notation: String,
    /// The modes, when each is one leaf with a constant extent (a static shape): the extent
    /// and the stride when it is a constant ([`crate::kernel::dyn_plan::flat_modes`]).
    pub tile: Option<Vec<crate::kernel::dyn_plan::TileMode>>,
    /// The operand written inline: `name` is then its hidden item, emitted in the function.
    pub inline: Option<Inline>,
}

/// Where a symbol of an inline operand is read from the tensor's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The extent of leaf `k`.
    Extent(usize),
    /// The stride of leaf `k`, written negated when the flag is set.
    Stride(usize, bool),
}

/// The layout of an inline operand's hidden item.
pub enum InlinePlan {
    /// Over symbols: a dynamic item.
    Dynamic(Box<DynPlan>),
    /// Static: a static item (a unit struct).
    Static(Box<Plan>),
}

/// An operand written inline.
pub struct Inline {
    /// The operand as written, without spaces.
    pub pattern: String,
    /// The hidden item.
    pub plan: InlinePlan,
    /// The number of leaves of the layout.
    pub leaves: usize,
    /// For each symbol (`DynOperand::symbols`), where it is read.
    pub sites: Vec<Vec<Site>>,
}

/// A kernel item over layouts with symbols.
pub struct DynKernel {
    pub kind: DynKind,
    pub operands: Vec<DynOperand>,
    /// Each symbol shared by two operands: the symbol and the two operands' positions (each
    /// later operand paired with the first that has it, and with every inline one).
    pub shared: Vec<(String, usize, usize)>,
    /// Whether the operands have a batch mode (a GEMM of rank 3).
    pub batched: bool,
    /// A copy whose destination may write a place more than once (`overlapping`): planned
    /// at run time in index order, the last write winning.
    pub overlapping: bool,
}

/// Whether some operand names an item with symbols or is written with symbols.
pub fn is_dynamic(operands: &[Expr], scope: &Scope) -> bool {
    operands.iter().any(|e| mentions_symbols(e, scope.env, scope.denv))
}

/// Evaluates the operands of a kernel over layouts with symbols; the errors are reported at
/// the operand responsible. `None` when some operand is not the name of an integer layout
/// item (the function then cannot have its signature).
pub fn evaluate(
    kind: DynKind,
    operands: &[(&Expr, &'static str)],
    expr: &ExprTokens,
    scope: &Scope,
    cx: &mut Ctxt,
) -> Option<DynKernel> {
    let mut out = Vec::new();
    let mut ranks = Vec::new();
    let mut ok = true;
    for &(e, role) in operands {
        let at = |message: String| expr.error_at(e.span.start, e.span.end, message);
        let name = match &e.kind {
            ExprKind::Name(n) => n.as_str(),
            _ => {
                match inline(e, role, expr, scope, cx) {
                    Some((op, rank)) => {
                        ranks.push(rank);
                        out.push(op);
                    }
                    None => ok = false,
                }
                continue;
            }
        };
        let ident = Ident::new(name, Span::call_site());
        if let Some(d) = scope.denv.get(name) {
            ranks.push(d.rank());
            let tile = crate::kernel::dyn_plan::flat_modes(d);
            out.push(DynOperand {
                name: ident,
                role,
                symbols: d.symbols.clone(),
                notation: d.to_string(),
                tile,
                inline: None,
            });
            continue;
        }
        match scope.env.get(name) {
            Some(Value::Layout(AnyLayout::Int(l))) => {
                ranks.push(l.rank());
                let tile = crate::kernel::dyn_plan::flat_modes(&layout_core::dynamic::DynLayout::from_layout(l));
                out.push(DynOperand {
                    name: ident,
                    role,
                    symbols: Vec::new(),
                    notation: l.to_string(),
                    tile,
                    inline: None,
                });
            }
            Some(Value::Tuple(t)) => match Layout::column_major(t.clone()) {
                Ok(l) => {
                    ranks.push(l.rank());
                    let tile = crate::kernel::dyn_plan::flat_modes(&layout_core::dynamic::DynLayout::from_layout(&l));
                    out.push(DynOperand {
                        name: ident,
                        role,
                        symbols: Vec::new(),
                        notation: l.to_string(),
                        tile,
                        inline: None,
                    });
                }
                Err(err) => {
                    cx.error(at(err.to_string()));
                    ok = false;
                }
            },
            Some(v) => {
                cx.error(at(format!(
                    "the {role} `{name}` is {}; a kernel over layouts with symbols takes integer layouts",
                    v.kind()
                )));
                ok = false;
            }
            None if is_symbol_name(name) => {
                cx.error(at(format!(
                    "`{name}` is a symbol, not a layout: the {role} of a kernel is the name of a layout item"
                )));
                ok = false;
            }
            // An item that failed (reported at its definition).
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    // A symbol of an inline operand that is no extent or stride of its own is read from
    // another operand.
    for (j, op) in out.iter().enumerate() {
        let Some(inline) = &op.inline else { continue };
        for (s, sites) in op.symbols.iter().zip(&inline.sites) {
            let elsewhere = out.iter().enumerate().any(|(i, o)| {
                i != j
                    && match &o.inline {
                        None => o.symbols.contains(s),
                        Some(x) => o.symbols.iter().zip(&x.sites).any(|(t, w)| t == s && !w.is_empty()),
                    }
            });
            if sites.is_empty() && !elsewhere {
                let e = operands[j].0;
                cx.error(expr.error_at(
                    e.span.start,
                    e.span.end,
                    format!(
                        "the symbol `{s}` of the inline {role} `{}` is not an extent or a stride of its own, nor of \
                         another operand, so a call cannot read it from the tensors' layouts; define the {role} as an \
                         item, `pub NAME = {};`, and write `NAME` here",
                        op.notation,
                        inline.pattern,
                        role = op.role,
                    ),
                ));
                ok = false;
            }
        }
    }
    if !ok {
        return None;
    }
    if let DynKind::Gemm(_) = kind {
        let (a, b, c) = (ranks[0], ranks[1], ranks[2]);
        if !(2..=3).contains(&c) || a != c || b != c {
            let message = format!(
                "gemm: A `{}`, B `{}` and C `{}` must all have rank 2, (M,K), (N,K) and (M,N), or all rank 3 with a \
                 batch mode last; their ranks are {a}, {b} and {c}",
                out[0].notation, out[1].notation, out[2].notation
            );
            cx.error(expr.error_whole(message));
        }
    }
    // Each later operand with the first that has the symbol, and every pair with an inline
    // operand: one may not tell a symbol's value (a stride of an extent-1 leaf), so agreement
    // is not transitive through it.
    let mut shared = Vec::new();
    for (j, op) in out.iter().enumerate() {
        for s in &op.symbols {
            let first = out[..j].iter().position(|o| o.symbols.contains(s));
            for (i, o) in out[..j].iter().enumerate() {
                let inline = o.inline.is_some() || op.inline.is_some();
                if o.symbols.contains(s) && (Some(i) == first || inline) {
                    shared.push((s.clone(), i, j));
                }
            }
        }
    }
    Some(DynKernel { kind, operands: out, shared, batched: ranks.get(2) == Some(&3), overlapping: false })
}

/// An operand written inline: its layout over symbols (or static) as a hidden item, and where
/// each symbol is read from a tensor's layout. Errors at the operand.
fn inline(
    e: &Expr,
    role: &'static str,
    expr: &ExprTokens,
    scope: &Scope,
    cx: &mut Ctxt,
) -> Option<(DynOperand, usize)> {
    if !check_calls(e, expr, cx) | !check_names(e, expr, scope, cx) {
        return None;
    }
    let at = |message: String| expr.error_at(e.span.start, e.span.end, message);
    let pattern = expr.text.get(e.span.start..e.span.end).unwrap_or("…").replace(' ', "");
    let hidden = Ident::new(&format!("__{}", role.replace(' ', "_")), Span::mixed_site());
    if !mentions_symbols(e, scope.env, scope.denv) {
        let l = match evaluate_expr(e, scope.env) {
            Ok(Value::Layout(AnyLayout::Int(l))) => l,
            Ok(Value::Tuple(t)) => Layout::column_major(t).map_err(|err| cx.error(at(err.to_string()))).ok()?,
            Ok(v) => {
                cx.error(at(format!(
                    "the {role} `{v}` is {}; a kernel over layouts with symbols takes integer layouts",
                    v.kind()
                )));
                return None;
            }
            Err(err) => {
                cx.error(to_syn(expr, &err));
                return None;
            }
        };
        let plan = plan_value(&Value::Layout(AnyLayout::Int(l.clone())))
            .map_err(|err| {
                cx.error(at(match err {
                    crate::plan::PlanError::NotALayout(m) | crate::plan::PlanError::Machine(m) => m,
                }))
            })
            .ok()?;
        let d = DynLayout::from_layout(&l);
        let inline = Inline {
            pattern,
            plan: InlinePlan::Static(Box::new(plan)),
            leaves: d.flat_modes().len(),
            sites: Vec::new(),
        };
        let tile = crate::kernel::dyn_plan::flat_modes(&d);
        let op =
            DynOperand { name: hidden, role, symbols: Vec::new(), notation: l.to_string(), tile, inline: Some(inline) };
        return Some((op, l.rank()));
    }
    let d = evaluate_dynamic_expr(e, scope.env, scope.denv, &[]).map_err(|err| cx.error(to_syn(expr, &err))).ok()?;
    let plan = DynPlan::new(&d).map_err(|m| cx.error(at(m))).ok()?;
    let leaves = d.flat_modes();
    let mut sites = Vec::new();
    for s in &d.symbols {
        let v = SymInt::sym(s);
        let mut here: Vec<Site> =
            leaves.iter().enumerate().filter(|(_, (x, _))| *x == v).map(|(k, _)| Site::Extent(k)).collect();
        for (k, (_, st)) in leaves.iter().enumerate() {
            if *st == v {
                here.push(Site::Stride(k, false));
            } else if *st == v.scale(-1) {
                here.push(Site::Stride(k, true));
            }
        }
        sites.push(here);
    }
    let tile = crate::kernel::dyn_plan::flat_modes(&d);
    let inline = Inline { pattern, plan: InlinePlan::Dynamic(Box::new(plan)), leaves: leaves.len(), sites };
    let op = DynOperand {
        name: hidden,
        role,
        symbols: d.symbols.clone(),
        notation: d.to_string(),
        tile,
        inline: Some(inline),
    };
    Some((op, d.rank()))
}
