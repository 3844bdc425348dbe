//! After an error, the named items still exist (thiserror's `fallback.rs`): a stand-in of the
//! same name, so that the user sees only the real error and not a cascade of "cannot find
//! type", "no function named `offset`" or "type annotations needed" errors.
//!
//! A stand-in is the expansion of a real layout of the kind the failed item would have had
//! (as far as its text tells: [`StandIn`]), so its inherent items and trait impls have
//! exactly the signatures of a real item of that kind: a rank-1 layout (`Coord` is `usize`)
//! that is `1:0` for an integer layout, `Sw<1,0,1> o 1:0` for a swizzled one, `1:1@(k-1)`
//! for a coordinate layout with k components, `1:f0` for an F2 layout, (a layout with symbols has
//! its own stand-in, `dyn_fallback`).

use layout_core::notation::{Env, Expr, ExprKind, Value, evaluate, parse};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::expand::{Target, items};

/// The kind of layout a failed item would have been.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandIn {
    /// An integer layout (also the guess when the text tells nothing else).
    Int,
    /// `Sw<B,M,S> o L`.
    Swizzled,
    /// Coordinate strides, with this many components of an offset.
    Coordinate(usize),
    /// F2 strides.
    F2,
}

impl StandIn {
    /// The kind of a static item from its text and the earlier items it names: a swizzle
    /// (`Sw<…>`, `make_swizzle`) or a swizzled item makes it swizzled; else a coordinate
    /// stride `a@i` or a coordinate item makes it a coordinate layout (with the largest
    /// component named, plus one); else an F2 stride `fk` or an F2 item; else an integer
    /// layout.
    pub fn guess(text: &str, env: &Env) -> StandIn {
        let mut named = Vec::new();
        if let Ok(ast) = parse(text) {
            names(&ast, &mut named);
        }
        let values: Vec<&Value> = named.iter().filter_map(|n| env.get(n.as_str())).collect();
        let words: Vec<&str> = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '@')).collect();
        if values.iter().any(|v| {
            matches!(v, Value::Layout(layout_core::AnyLayout::Swizzled(_) | layout_core::AnyLayout::Composed(_)))
        }) || words.iter().any(|w| *w == "Sw" || *w == "make_swizzle")
        {
            return StandIn::Swizzled;
        }
        let from_names = values.iter().filter_map(|v| match v {
            Value::Layout(layout_core::AnyLayout::Coordinate(b)) => Some(b.codomain_rank()),
            _ => None,
        });
        let from_text = text.match_indices('@').map(|(at, _)| {
            let digits: String = text[at + 1..].trim_start().chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<usize>().map_or(1, |i| i.saturating_add(1))
        });
        if let Some(k) = from_names.chain(from_text).max() {
            return StandIn::Coordinate(k.clamp(1, 64));
        }
        let f2_stride =
            |w: &&str| w.strip_prefix('f').is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        if values.iter().any(|v| matches!(v, Value::Layout(layout_core::AnyLayout::F2(_))))
            || words.iter().any(f2_stride)
        {
            return StandIn::F2;
        }
        StandIn::Int
    }

    /// The text of the real layout whose expansion is the stand-in.
    fn notation(&self) -> String {
        match self {
            StandIn::Int => "1:0".into(),
            StandIn::Swizzled => "Sw<1,0,1> o 1:0".into(),
            StandIn::Coordinate(k) => format!("1:1@{}", k - 1),
            StandIn::F2 => "1:f0".into(),
        }
    }
}

fn names(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Name(n) => out.push(n.clone()),
        ExprKind::Tuple(items) | ExprKind::Tiler(items) | ExprKind::Call { args: items, .. } => {
            items.iter().for_each(|i| names(i, out));
        }
        ExprKind::Layout(s, d) => {
            names(s, out);
            names(d, out);
        }
        ExprKind::Arith { lhs, rhs, .. } => {
            names(lhs, out);
            names(rhs, out);
        }
        _ => {}
    }
}

/// What a failed kernel item's stand-in function needs to have the real one's signature.
#[derive(Clone, Debug)]
pub struct KernelStandIn {
    /// `gemm(T, A, B, C)` rather than `copy(SRC, DST)`.
    pub gemm: bool,
    /// The element type of a `gemm` when it is `f32` or `f64` as written.
    pub scalar: Option<Ident>,
    /// The layout operands (SRC, DST; or A, B, C): the name of an earlier item (real or a
    /// stand-in) when the operand is one, else `None` (notation, whose type is the facade's
    /// `InlineLayout`).
    pub operands: Vec<Option<Ident>>,
}

impl KernelStandIn {
    /// From the item's text: the kernel called, the element type, and which operands name an
    /// earlier item (evaluated, in `env`, or failed, in `failed`: both have a struct).
    pub fn guess(text: &str, env: &Env, failed: &std::collections::HashSet<String>) -> KernelStandIn {
        let mut k = KernelStandIn { gemm: false, scalar: None, operands: Vec::new() };
        let Ok(Expr { kind: ExprKind::Call { name, args, .. }, .. }) = parse(text) else {
            k.gemm = text.trim_start().starts_with("gemm");
            return k;
        };
        k.gemm = name == "gemm";
        let layouts = if k.gemm {
            k.scalar = match text.get(args.first().map_or(0..0, |a| a.span.start..a.span.end)) {
                Some(t @ ("f32" | "f64")) => Some(Ident::new(t, Span::call_site())),
                _ => None,
            };
            args.get(1..4).unwrap_or(&[])
        } else {
            args.get(..2).unwrap_or(&[])
        };
        k.operands = layouts
            .iter()
            .map(|a| match &a.kind {
                ExprKind::Name(n)
                    if env.get(n.as_str()).is_some_and(|v| !matches!(v, Value::Tuple(_))) || failed.contains(n) =>
                {
                    Some(Ident::new(n, Span::call_site()))
                }
                _ => None,
            })
            .collect();
        k
    }

    /// The layout type of operand `k` in the signature.
    pub fn layout_type(&self, k: usize) -> TokenStream {
        match self.operands.get(k).cloned().flatten() {
            Some(name) => quote!(#name),
            None => {
                let p = crate::expand::private();
                quote!(#p::InlineLayout)
            }
        }
    }
}

/// A stand-in for an item whose layout could not be evaluated: the items of a real layout of
/// the guessed kind under the item's name, attributes and visibility.
pub fn layout_items(target: &Target, kind: &StandIn) -> TokenStream {
    let text = kind.notation();
    match evaluate(&text).ok().and_then(|v| crate::plan::plan_value(&v).ok()) {
        Some(plan) => items(target, &plan),
        // Unreachable: every stand-in notation is a layout of its kind (tested).
        None => TokenStream::new(),
    }
}

/// The expression form after an error: the errors, then a stand-in value.
pub fn expression(errors: TokenStream, kind: &StandIn) -> TokenStream {
    let name = Ident::new("Layout", Span::call_site());
    let items = layout_items(&Target { attrs: &[], vis: TokenStream::new(), name: name.clone() }, kind);
    quote!({ #errors #items #name })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;

    #[test]
    fn every_stand_in_is_a_layout_of_its_kind() {
        for (kind, want) in [
            (StandIn::Int, "Int"),
            (StandIn::Swizzled, "Swizzled"),
            (StandIn::Coordinate(3), "Basis"),
            (StandIn::F2, "F2"),
        ] {
            let plan =
                crate::plan::plan_value(&evaluate(&kind.notation()).unwrap()).unwrap_or_else(|_| panic!("{kind:?}"));
            let got = match plan {
                Plan::Int(_) => "Int",
                Plan::Swizzled(_) => "Swizzled",
                Plan::Coordinate(ref b) => {
                    assert_eq!(b.components, 3);
                    "Basis"
                }
                Plan::F2(_) => "F2",
                Plan::Composed(_) => "Composed",
            };
            assert_eq!(got, want, "{kind:?}");
        }
    }

    #[test]
    fn the_kind_is_guessed_from_the_text() {
        let env = Env::new();
        assert_eq!(StandIn::guess("composition ( ( 4 , 6 ) : ( 2 , 3 ) , 6 : 3 )", &env), StandIn::Int);
        assert_eq!(StandIn::guess("Sw < 3 , 4 , 2 > o ( 8 , 64 ) : ( 64 , 1 )", &env), StandIn::Swizzled);
        assert_eq!(StandIn::guess("( 4 , 8 ) : ( 1 @ 0 , 1 @ 2 )", &env), StandIn::Coordinate(3));
        assert_eq!(StandIn::guess("( 4 , 8 ) : ( f1 , f3 )", &env), StandIn::F2);
    }
}
