//! After an error in an item with symbols, a stand-in with the API of a dynamic item:
//! `new` with one `usize` per symbol (in order of first appearance, as the real item would
//! take them) returning `Result`, `size()`, `offset(i)`, `offset_of(c)`, `coord(i)`,
//! `for_each_offset`, the extremes, `to_layout`, `Display`, `LayoutFn` and `TrustedLayout`
//! (and, for a failed `local_tile_edge` item, the edge tiling's API through `Deref`), so
//! the user sees only the original error and not "no function named `new`" at every use.

use std::collections::HashMap;

use layout_core::dynamic::{DynEnv, is_symbol_name};
use layout_core::notation::{Env, Expr, ExprKind, parse};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use crate::expand::{Target, private, split_attrs};

/// What a failed item with symbols stands in for.
pub struct DynStandIn {
    /// The symbols `new` takes, in order.
    pub symbols: Vec<String>,
    /// For a `local_tile_edge` item: the rank of the tiling.
    pub edge_rank: Option<usize>,
}

/// The stand-in of a failed item: its symbols as the real item would order them (an
/// earlier dynamic item, or an earlier failed one, contributes its own symbols), and, for
/// `local_tile_edge(A, [t0, t1, …])`, the rank of the tiling.
pub fn stand_in(
    text: &str,
    env: &Env,
    denv: &DynEnv,
    failed_dyn: &HashMap<String, Vec<String>>,
    items: &HashMap<String, usize>,
) -> DynStandIn {
    let text = text.split(" where ").next().unwrap_or(text);
    let Ok(ast) = parse(text) else { return DynStandIn { symbols: Vec::new(), edge_rank: None } };
    let mut symbols = Vec::new();
    collect(&ast, env, denv, failed_dyn, items, &mut symbols);
    let edge_rank = match &ast.kind {
        ExprKind::Call { name, args, .. } if name == "local_tile_edge" => Some(match args.get(1).map(|a| &a.kind) {
            Some(ExprKind::Tiler(entries)) => entries.len().max(1),
            _ => 1,
        }),
        _ => None,
    };
    DynStandIn { symbols, edge_rank }
}

fn collect(
    e: &Expr,
    env: &Env,
    denv: &DynEnv,
    failed_dyn: &HashMap<String, Vec<String>>,
    items: &HashMap<String, usize>,
    out: &mut Vec<String>,
) {
    let push = |s: &str, out: &mut Vec<String>| {
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    };
    match &e.kind {
        ExprKind::Name(n) => {
            if let Some(l) = denv.get(n) {
                l.symbols.iter().for_each(|s| push(s, out));
            } else if let Some(syms) = failed_dyn.get(n) {
                syms.iter().for_each(|s| push(s, out));
            } else if !env.contains_key(n) && !items.contains_key(n) && is_symbol_name(n) {
                push(n, out);
            }
        }
        ExprKind::Tuple(x) | ExprKind::Tiler(x) | ExprKind::Call { args: x, .. } => {
            x.iter().for_each(|i| collect(i, env, denv, failed_dyn, items, out));
        }
        ExprKind::Layout(a, b) | ExprKind::Arith { lhs: a, rhs: b, .. } => {
            collect(a, env, denv, failed_dyn, items, out);
            collect(b, env, denv, failed_dyn, items, out);
        }
        _ => {}
    }
}

/// The stand-in's items.
pub fn items(target: &Target, s: &DynStandIn) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let private = private();
    let (shared, own) = split_attrs(attrs);
    let fields: Vec<Ident> = s.symbols.iter().map(|x| format_ident!("{}", x.to_lowercase())).collect();
    let names: Vec<Literal> = s.symbols.iter().map(|x| Literal::string(x)).collect();
    let layout_name = match s.edge_rank {
        Some(_) => format_ident!("__{}Layout", name),
        None => name.clone(),
    };
    let layout = quote! {
        #(#shared)*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #layout_name;

        #(#shared)*
        #[allow(dead_code, clippy::too_many_arguments, clippy::all)]
        impl #layout_name {
            pub const NOTATION: &'static str = "";
            pub const SYMBOLS: &'static [&'static str] = &[#(#names),*];
            pub const RANK: usize = 0;
            pub const DEPTH: usize = 0;
            pub fn new(#(#fields: usize),*) -> ::core::result::Result<Self, #private::DynamicError> {
                let _ = (#(#fields,)*);
                ::core::result::Result::Ok(Self)
            }
            pub const fn size(&self) -> usize { 0 }
            pub const fn min_offset(&self) -> isize { 0 }
            pub const fn max_offset(&self) -> isize { 0 }
            pub const fn offset(&self, _: usize) -> usize { 0 }
            pub fn offset_of<C>(&self, _: C) -> usize { 0 }
            pub fn coord<C: ::core::default::Default>(&self, _: usize) -> C { C::default() }
            pub fn for_each_offset<F: FnMut(usize)>(&self, _: F) {}
            pub fn to_layout(&self) -> #private::Layout {
                #private::dynamic::to_layout("1:0", &[(1, 0, false)])
            }
        }

        #(#shared)*
        impl ::core::fmt::Display for #layout_name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str("1:0")
            }
        }

        // SAFETY (of the emitted impl): the stand-in's size is 0, so no index has an offset
        // and the contract holds vacuously; it is emitted only next to a compile error.
        #(#shared)*
        unsafe impl #private::TrustedLayout for #layout_name {
            const __TRUSTED: () = ();
        }

        #(#shared)*
        impl #private::LayoutFn for #layout_name {
            type Offset = usize;
            type Coord = usize;
            fn size(&self) -> usize { 0 }
            fn offset(&self, _: usize) -> usize { 0 }
            fn offset_of(&self, _: usize) -> usize { 0 }
            fn coord(&self, _: usize) -> usize { 0 }
            fn contains(&self, _: usize) -> bool { false }
            fn for_each_offset<F: FnMut(usize)>(&self, _: F) {}
            fn min_offset(&self) -> isize { 0 }
            fn max_offset(&self) -> isize { 0 }
            fn is_injective(&self) -> bool { true }
            fn to_layout(&self) -> #private::Layout { #layout_name::to_layout(self) }
        }
    };
    let Some(rank) = s.edge_rank else {
        return quote! { #(#own)* #layout };
    };
    let rank = Literal::usize_unsuffixed(rank);
    quote! {
        #(#shared)*
        #[doc(hidden)]
        #layout

        #(#own)*
        #(#shared)*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name {
            layout: #layout_name,
            tiles: #private::EdgeTiles<#rank>,
        }

        #(#shared)*
        #[allow(dead_code, clippy::too_many_arguments, clippy::all)]
        impl #name {
            pub const NOTATION: &'static str = "";
            pub const SYMBOLS: &'static [&'static str] = &[#(#names),*];
            pub const TILE: [usize; #rank] = [1; #rank];
            pub fn new(#(#fields: usize),*) -> ::core::result::Result<Self, #private::DynamicError> {
                let _ = (#(#fields,)*);
                match #private::EdgeTiles::new([0; #rank], [0; #rank], Self::TILE) {
                    ::core::option::Option::Some(tiles) => ::core::result::Result::Ok(Self { layout: #layout_name, tiles }),
                    ::core::option::Option::None => ::core::result::Result::Err(#private::dynamic::overflow("", &[], &[])),
                }
            }
            pub const fn layout(&self) -> &#layout_name { &self.layout }
            pub const fn tiles(&self) -> &#private::EdgeTiles<#rank> { &self.tiles }
        }

        #(#shared)*
        impl ::core::ops::Deref for #name {
            type Target = #private::EdgeTiles<#rank>;
            fn deref(&self) -> &Self::Target { &self.tiles }
        }
    }
}
