//! Kernel items over layouts with symbols (`pub fn T = copy(ColMajor, RowMajor);` with
//! `ColMajor = (M,N):(1,LDS)`): each operand is the name of an item, dynamic or static, whose
//! tensors the function takes; the plan is made at run time from the tensors' layout values
//! (once per thread while they stay the same), and a symbol shared by two operands must have
//! one value (checked at each call).

use layout_core::dynamic::{is_symbol_name, mentions_symbols};
use layout_core::notation::{Expr, ExprKind, Value};
use layout_core::{AnyLayout, Layout};
use proc_macro2::{Ident, Span};

use crate::ast::ExprTokens;
use crate::ctxt::Ctxt;
use crate::kernel::gemm::Scalar;
use crate::scope::Scope;

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
}

/// A kernel item over layouts with symbols.
pub struct DynKernel {
    pub kind: DynKind,
    pub operands: Vec<DynOperand>,
    /// Each symbol shared by two operands: the symbol and the two operands' positions (each
    /// later operand paired with the first that has it).
    pub shared: Vec<(String, usize, usize)>,
    /// Whether the operands have a batch mode (a GEMM of rank 3).
    pub batched: bool,
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
                cx.error(at(format!(
                    "the {role} of a kernel over layouts with symbols must be the name of an item, whose tensors \
                     the function takes; define it first, `pub NAME = {};`, and write `NAME` here",
                    expr.text.get(e.span.start..e.span.end).unwrap_or("…").replace(' ', "")
                )));
                ok = false;
                continue;
            }
        };
        let ident = Ident::new(name, Span::call_site());
        if let Some(d) = scope.denv.get(name) {
            ranks.push(d.rank());
            let tile = crate::kernel::dyn_plan::flat_modes(d);
            out.push(DynOperand { name: ident, role, symbols: d.symbols.clone(), notation: d.to_string(), tile });
            continue;
        }
        match scope.env.get(name) {
            Some(Value::Layout(AnyLayout::Int(l))) => {
                ranks.push(l.rank());
                let tile = crate::kernel::dyn_plan::flat_modes(&layout_core::dynamic::DynLayout::from_layout(l));
                out.push(DynOperand { name: ident, role, symbols: Vec::new(), notation: l.to_string(), tile });
            }
            Some(Value::Tuple(t)) => match Layout::column_major(t.clone()) {
                Ok(l) => {
                    ranks.push(l.rank());
                    let tile = crate::kernel::dyn_plan::flat_modes(&layout_core::dynamic::DynLayout::from_layout(&l));
                    out.push(DynOperand { name: ident, role, symbols: Vec::new(), notation: l.to_string(), tile });
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
    let mut shared = Vec::new();
    for (j, op) in out.iter().enumerate() {
        for s in &op.symbols {
            if let Some(i) = out[..j].iter().position(|o| o.symbols.contains(s)) {
                shared.push((s.clone(), i, j));
            }
        }
    }
    Some(DynKernel { kind, operands: out, shared, batched: ranks.get(2) == Some(&3) })
}
