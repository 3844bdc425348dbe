//! Sub-layouts: an item whose whole expression is `local_tile(P, tiler)`,
//! `local_partition(P, tiler)` or `slice(P, coordinate with _)`, with `P` an earlier item of
//! the same invocation, also gets `impl SubLayout<P>` (the facade's `cute_layout::SubLayout`):
//! how many sub-tensors a tensor of layout P has and, as straight-line code, the offset at
//! which sub-tensor k starts. That offset is the layout of the complementary modes at k:
//!
//! - `local_tile(P, T)` is mode 0 of `Z = zipped_divide(P, T)`; sub-tensor k starts at
//!   `Z1(k)`, and there are `size(Z1)` of them;
//! - `local_partition(P, T)` is mode 1 of Z; sub-tensor k starts at `Z0(k)`, `size(Z0)` of
//!   them;
//! - `slice(P, c)` is the layout of the free modes of c; sub-tensor k starts at
//!   `slice_fixed(P, c)(k)`, the layout of the fixed modes (their values in `c` are ignored).
//!
//! In each case every parent offset is `base(k) + sub offset` (the divide is a bijection
//! onto P's domain; a slice splits P's coordinate into modes whose offsets add), so the
//! sub-tensor's offsets stay inside the parent's: the contract of the `unsafe` trait. The
//! numbers are checked here once more before the impl is emitted.
//!
//! A separate pass over the evaluated items (it reads the plans' notations), so that the
//! evaluation itself is unchanged.

use std::collections::HashMap;

use layout_core::notation::{Env, ExprKind, Value, evaluate_expr, parse};
use layout_core::{Layout, SliceCoord, parse_layout, slice, slice_fixed, zipped_divide};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::ast::Item;
use crate::ctxt::Ctxt;
use crate::eval::Outcome;
use crate::expand::{Target, lit, offset_body, private, split_attrs};
use crate::fallback::StandIn;
use crate::plan::{IndexPlan, Plan};

/// The `SubLayout` impl of one item.
pub enum SubPlan {
    /// A planned item: `COUNT` and the plan of the layout whose offset at k is `base(k)`.
    Planned { parent: Ident, parent_notation: String, count: u64, base: IndexPlan },
    /// A failed item (its stand-in): `COUNT = 0`, so that uses of `tile::<ITEM>` do not
    /// cascade into more errors.
    StandIn { parent: Ident },
}

/// The operations whose items are sub-layouts.
const OPERATIONS: [&str; 3] = ["local_tile", "local_partition", "slice"];

/// Per item, its `SubLayout` impl if it is a sub-layout of an earlier integer layout.
pub fn plans(items: &[Item], outcomes: &[Outcome], cx: &mut Ctxt) -> Vec<Option<SubPlan>> {
    let first: HashMap<String, usize> = items.iter().enumerate().rev().map(|(k, i)| (i.name.to_string(), k)).collect();
    let mut env: Option<Env> = None;
    let mut out = Vec::with_capacity(items.len());
    for (k, item) in items.iter().enumerate() {
        let Some((op, parent, arg)) = sub_call(item) else {
            out.push(None);
            continue;
        };
        let Some(&j) = first.get(&parent).filter(|&&j| j < k) else {
            out.push(None);
            continue;
        };
        let parent_ident = items[j].name.clone();
        out.push(match (&outcomes[k], &outcomes[j]) {
            (Outcome::Planned(sub), Outcome::Planned(p)) => match (&**sub, &**p) {
                (Plan::Int(sub), Plan::Int(p)) => {
                    let env = env.get_or_insert_with(|| environment(items, outcomes));
                    match planned(op, p, sub, &arg, env) {
                        Ok((count, base)) => Some(SubPlan::Planned {
                            parent: parent_ident,
                            parent_notation: p.notation.clone(),
                            count,
                            base,
                        }),
                        Err(message) => {
                            cx.error(item.expr.error_whole(format!("internal error of `layout!`: {message}")));
                            None
                        }
                    }
                }
                _ => None,
            },
            (Outcome::Failed(StandIn::Int), Outcome::Failed(StandIn::Int)) => {
                Some(SubPlan::StandIn { parent: parent_ident })
            }
            (Outcome::Failed(StandIn::Int), Outcome::Planned(p)) if matches!(**p, Plan::Int(_)) => {
                Some(SubPlan::StandIn { parent: parent_ident })
            }
            _ => None,
        });
    }
    out
}

/// `op(NAME, arg)` with `op` a sub-layout operation: the operation, the name and the
/// argument's syntax tree.
fn sub_call(item: &Item) -> Option<(&'static str, String, layout_core::notation::Expr)> {
    let ast = parse(&item.expr.text).ok()?;
    let ExprKind::Call { name, args, .. } = ast.kind else { return None };
    let op = OPERATIONS.into_iter().find(|o| *o == name)?;
    let [first, arg]: [_; 2] = args.try_into().ok()?;
    let ExprKind::Name(parent) = first.kind else { return None };
    Some((op, parent, arg))
}

/// The values of the planned items, from their notations (a tiler or coordinate argument
/// may name them).
fn environment(items: &[Item], outcomes: &[Outcome]) -> Env {
    items
        .iter()
        .zip(outcomes)
        .filter_map(|(item, o)| match o {
            Outcome::Planned(p) => layout_core::evaluate(p.notation()).ok().map(|v| (item.name.to_string(), v)),
            _ => None,
        })
        .collect()
}

/// `COUNT` and the plan of the base layout, after checking that the item's layout is the
/// sub-layout the operation gives and that the contract's inequalities hold.
fn planned(
    op: &str,
    parent: &IndexPlan,
    sub: &IndexPlan,
    arg: &layout_core::notation::Expr,
    env: &Env,
) -> Result<(u64, IndexPlan), String> {
    let p = parse_layout(&parent.notation).map_err(|e| e.to_string())?;
    let value = evaluate_expr(arg, env).map_err(|e| e.to_string())?;
    let (sub_layout, base) = match op {
        "slice" => {
            let c = match value {
                Value::Tuple(t) => SliceCoord::from(&t),
                Value::Coord(c) => c,
                Value::Underscore => SliceCoord::Free,
                v => return Err(format!("`{v}` is not a coordinate")),
            };
            (slice(&p, &c).map_err(|e| e.to_string())?.0, slice_fixed(&p, &c).map_err(|e| e.to_string())?)
        }
        _ => {
            let tiler = value.into_tiler()?;
            let z = zipped_divide(&p, &tiler).map_err(|e| e.to_string())?;
            let (m0, m1) = (z.mode(0).map_err(|e| e.to_string())?, z.mode(1).map_err(|e| e.to_string())?);
            if op == "local_tile" { (m0, m1) } else { (m1, m0) }
        }
    };
    if sub_layout.to_string() != sub.notation {
        return Err(format!("`{}` is not the sub-layout `{sub_layout}` of `{op}`", sub.notation));
    }
    let base_plan = IndexPlan::new(&base).map_err(|e| e.to_string())?;
    check_contract(parent, sub, &base_plan, &base)?;
    Ok((base_plan.size, base_plan))
}

/// `P::MIN <= base(k) + S::MIN` and `base(k) + S::MAX <= P::MAX` for every k: with the
/// smallest and largest values of the base layout.
fn check_contract(parent: &IndexPlan, sub: &IndexPlan, base: &IndexPlan, layout: &Layout) -> Result<(), String> {
    let max = |p: &IndexPlan| i128::from(p.cosize) - 1;
    let lo = i128::from(base.min_offset) + i128::from(sub.min_offset);
    let hi = max(base) + max(sub);
    if lo < i128::from(parent.min_offset) || hi > max(parent) {
        return Err(format!(
            "the sub-tensors of `{}` at the offsets of `{layout}` reach {lo}..={hi}, outside the parent's {}..={}",
            sub.notation,
            parent.min_offset,
            max(parent)
        ));
    }
    Ok(())
}

/// `unsafe impl SubLayout<PARENT> for NAME`.
pub fn items(target: &Target, plan: &SubPlan) -> TokenStream {
    let Target { attrs, name, .. } = target;
    let p = private();
    let (shared, _) = split_attrs(attrs);
    let (parent, count, base, check) = match plan {
        SubPlan::Planned { parent, parent_notation, count, base } => {
            let (param, stmts, body) = offset_body(&base.modes[..base.offset_modes], true);
            // The numbers hold for the parent the generator evaluated; a `cfg` can make the
            // name resolve to another item, so the impl checks at compile time that `P` is
            // that layout.
            let message =
                format!("`{parent}` is not the layout `{parent_notation}` the sub-layout `{name}` was planned on");
            let check = quote! {
                #(#shared)*
                const _: () = ::core::assert!(
                    #p::same_str(<#parent as #p::GeneratedLayout>::NOTATION, #parent_notation),
                    #message
                );
            };
            (parent, lit(*count), quote!(fn base(#param: usize) -> isize { #stmts #body }), check)
        }
        SubPlan::StandIn { parent } => (
            parent,
            lit(0),
            quote!(
                fn base(_: usize) -> isize {
                    0
                }
            ),
            TokenStream::new(),
        ),
    };
    let doc = format!(" The sub-tensors of `{parent}` of layout `{name}`.");
    quote! {
        #(#shared)*
        #[doc = #doc]
        // SAFETY: checked by the code generator: every parent offset is `base(k)` plus an
        // offset of this layout, within the parent's smallest and largest offsets.
        #[automatically_derived]
        unsafe impl #p::SubLayout<#parent> for #name {
            const COUNT: usize = #count;
            #[inline]
            #base
        }

        #check
    }
}
