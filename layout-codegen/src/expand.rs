//! Emission: an [`IndexPlan`] becomes a unit struct with constants, straight-line index
//! functions and a loop-nest traversal; the standard trait impls, `Display` and the
//! `StaticLayout` impl come from the facade's `impl_static_layout!` (written-out impls rather
//! than `#[derive]`: a third of the check time, see BENCHMARKS.md). The emitted code names
//! nothing but `core` and `::layout::__private`; its locals are hygienic (`mixed_site`).

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Attribute;

use crate::plan::{IndexPlan, Mode, ShapeTree, Split};

/// Where the generated items come from: the user's attributes, visibility and name.
pub struct Target<'a> {
    pub attrs: &'a [Attribute],
    pub vis: TokenStream,
    pub name: Ident,
}

/// The path of the runtime support in the facade.
pub fn private() -> TokenStream {
    quote!(::layout::__private)
}

/// Attributes that must hold for the impls as well as the struct (`cfg`, lint levels);
/// docs and everything else go on the struct only.
pub fn split_attrs(attrs: &[Attribute]) -> (Vec<&Attribute>, Vec<&Attribute>) {
    attrs.iter().partition(|a| {
        ["cfg", "cfg_attr", "allow", "warn", "deny", "expect", "forbid"].iter().any(|n| a.path().is_ident(n))
    })
}

/// The struct, its inherent impl, and the trait impls.
pub fn layout_items(target: &Target, plan: &IndexPlan) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let p = private();
    let (shared, own) = split_attrs(attrs);
    let user_docs = own.iter().any(|a| a.path().is_ident("doc"));
    let summary = if plan.signed {
        format!(
            " The layout `{}`: {}, offsets from {} to {} (some strides are negative).",
            plan.notation,
            indices(plan.size),
            plan.min_offset,
            plan.cosize - 1
        )
    } else {
        format!(" The layout `{}`: {}, offsets in `0..{}`.", plan.notation, indices(plan.size), plan.cosize)
    };
    let separator = user_docs.then(|| quote!(#[doc = ""]));

    let off = offset_type(plan);
    let coord_ty = coord_type(&plan.shape);
    let (size, cosize) = (lit(plan.size), lit(plan.cosize));
    let (rank, depth) = (Literal::usize_unsuffixed(plan.rank), Literal::usize_unsuffixed(plan.depth));
    let notation = Literal::string(&plan.notation);
    let offset = offset_fn(plan);
    let offset_of = offset_of_fn(plan);
    let coord = coord_fn(plan);
    let for_each = for_each_fn(plan);

    quote! {
        #(#own)*
        #(#shared)*
        #separator
        #[doc = #summary]
        #vis struct #name;

        #(#shared)*
        #[allow(dead_code)]
        impl #name {
            /// The number of indices of the domain, `size(L)`.
            pub const SIZE: usize = #size;
            /// One past the largest offset, `cosize(L)`.
            pub const COSIZE: usize = #cosize;
            /// The number of top-level modes.
            pub const RANK: usize = #rank;
            /// The nesting depth of the shape.
            pub const DEPTH: usize = #depth;
            /// The layout in canonical notation.
            pub const NOTATION: &'static str = #notation;

            /// The offset of index `index` (straight-line: one division or shift per mode).
            #[inline]
            #offset

            /// The offset of a natural coordinate (nested tuples shaped like the layout).
            #[inline]
            #offset_of

            /// The natural coordinate of index `index`.
            #[inline]
            #coord

            /// Calls `f` with the offset of every index in order, as a loop nest over the
            /// coalesced modes (no division per element).
            #[inline]
            #for_each
        }

        #p::impl_static_layout!(#(#shared)* #name, #off, #coord_ty);
    }
}

/// The expression form: a block that defines the struct and evaluates to its value.
pub fn expression(plan: &IndexPlan) -> TokenStream {
    let name = Ident::new("Layout", Span::call_site());
    let items = layout_items(&Target { attrs: &[], vis: TokenStream::new(), name: name.clone() }, plan);
    quote!({ #items #name })
}

fn indices(n: u64) -> String {
    if n == 1 { "1 index".into() } else { format!("{n} indices") }
}

fn offset_type(plan: &IndexPlan) -> TokenStream {
    if plan.signed { quote!(isize) } else { quote!(usize) }
}

fn lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

/// A local variable of the emitted code (hygienic: it cannot collide with user items).
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `usize` for a leaf, a tuple (with a trailing comma for rank 1) otherwise.
fn coord_type(shape: &ShapeTree) -> TokenStream {
    match shape {
        ShapeTree::Leaf(_) => quote!(usize),
        ShapeTree::Tuple(children) => {
            let c = children.iter().map(coord_type);
            quote!((#(#c,)*))
        }
    }
}

/// The same structure as a pattern or expression over per-leaf tokens.
fn coord_tree(shape: &ShapeTree, leaf: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    match shape {
        ShapeTree::Leaf(k) => leaf(*k),
        ShapeTree::Tuple(children) => {
            let c = children.iter().map(|c| coord_tree(c, leaf));
            quote!((#(#c,)*))
        }
    }
}

/// `|stride| * c` in the offset type (`c` is a `usize`), and whether it is subtracted.
struct Term {
    negative: bool,
    tokens: TokenStream,
}

fn term(c: &TokenStream, stride: i64, signed: bool) -> Term {
    let c = if signed { quote!(#c as isize) } else { c.clone() };
    let m = Literal::u64_unsuffixed(stride.unsigned_abs());
    let tokens = if stride.unsigned_abs() == 1 { c } else { quote!(#c * #m) };
    Term { negative: stride < 0, tokens }
}

/// `base + t0 + t1 - t2 …` (additions first), or `0` without a base or terms.
fn sum(base: Option<TokenStream>, terms: Vec<Term>) -> TokenStream {
    let (pos, neg): (Vec<Term>, Vec<Term>) = terms.into_iter().partition(|t| !t.negative);
    let mut pos = base.into_iter().chain(pos.into_iter().map(|t| t.tokens));
    let neg = neg.into_iter().map(|t| t.tokens);
    match pos.next() {
        Some(first) => quote!(#first #(+ #pos)* #(- #neg)*),
        None => {
            let mut neg = neg.peekable();
            match neg.next() {
                Some(first) => quote!(-(#first) #(- #neg)*),
                None => quote!(0),
            }
        }
    }
}

/// Splits the running index at a sequence of modes: one `let` for the coordinate and one for
/// the quotient per mode; the quotient after the last needed mode is not computed. Returns
/// the statements and, per mode, the expression of its coordinate (`None` when it is 0 or
/// not needed).
fn split_index(
    modes: &[Mode],
    index: &Ident,
    prefix: &str,
    needed: &dyn Fn(usize) -> bool,
) -> (TokenStream, Vec<Option<TokenStream>>) {
    let last_needed = (0..modes.len()).rev().find(|&k| needed(k));
    let mut stmts = TokenStream::new();
    let mut coords = Vec::with_capacity(modes.len());
    let Some(last_needed) = last_needed else {
        return (stmts, vec![None; modes.len()]);
    };
    for (k, m) in modes.iter().enumerate().take(last_needed + 1) {
        let c = format_ident!("{}{}", prefix, k, span = Span::mixed_site());
        let more = k < last_needed;
        let use_c = needed(k);
        match m.split {
            Split::Last => {
                coords.push(Some(index.to_token_stream()));
                continue;
            }
            Split::Unit => {
                coords.push(None);
                continue;
            }
            Split::Pow2 { shift, mask } => {
                let (mask, shift) = (lit(mask), Literal::u32_unsuffixed(shift));
                if use_c {
                    stmts.extend(quote!(let #c = #index & #mask;));
                }
                if more {
                    stmts.extend(quote!(let #index = #index >> #shift;));
                }
            }
            Split::Div(n) => {
                let n = lit(n);
                if use_c {
                    stmts.extend(quote!(let #c = #index % #n;));
                }
                if more {
                    stmts.extend(quote!(let #index = #index / #n;));
                }
            }
        }
        coords.push(use_c.then(|| c.to_token_stream()));
    }
    coords.resize(modes.len(), None);
    (stmts, coords)
}

fn offset_fn(plan: &IndexPlan) -> TokenStream {
    let off = offset_type(plan);
    let index = local("index");
    let modes = &plan.modes[..plan.offset_modes];
    let (stmts, coords) = split_index(modes, &index, "c", &|k| modes[k].stride != 0);
    let terms: Vec<Term> =
        modes.iter().zip(&coords).filter_map(|(m, c)| c.as_ref().map(|c| term(c, m.stride, plan.signed))).collect();
    let param = if terms.is_empty() { quote!(_) } else { index.to_token_stream() };
    let body = sum(None, terms);
    quote! {
        pub const fn offset(#param: usize) -> #off {
            #stmts
            #body
        }
    }
}

fn offset_of_fn(plan: &IndexPlan) -> TokenStream {
    let off = offset_type(plan);
    let coord_ty = coord_type(&plan.shape);
    let used = |k: usize| plan.leaves[k].stride != 0;
    let pattern = coord_tree(&plan.shape, &|k| {
        if used(k) { local(&format!("c{k}")).to_token_stream() } else { quote!(_) }
    });
    let terms: Vec<Term> = (0..plan.leaves.len())
        .filter(|&k| used(k))
        .map(|k| term(&local(&format!("c{k}")).to_token_stream(), plan.leaves[k].stride, plan.signed))
        .collect();
    let body = sum(None, terms);
    quote! {
        pub const fn offset_of(#pattern: #coord_ty) -> #off {
            #body
        }
    }
}

fn coord_fn(plan: &IndexPlan) -> TokenStream {
    let coord_ty = coord_type(&plan.shape);
    let index = local("index");
    let (stmts, coords) = split_index(&plan.leaves, &index, "c", &|k| plan.leaves[k].split != Split::Unit);
    let value = coord_tree(&plan.shape, &|k| coords[k].clone().unwrap_or_else(|| quote!(0)));
    let param = if coords.iter().any(Option::is_some) { index.to_token_stream() } else { quote!(_) };
    quote! {
        pub const fn coord(#param: usize) -> #coord_ty {
            #stmts
            #value
        }
    }
}

fn for_each_fn(plan: &IndexPlan) -> TokenStream {
    let off = offset_type(plan);
    let f = local("f");
    let zero = if plan.signed { quote!(0isize) } else { quote!(0usize) };
    // Innermost statement, then wrap loops from mode 0 (innermost) outwards.
    let modes: Vec<&Mode> = plan.modes.iter().filter(|m| m.extent > 1).collect();
    if modes.is_empty() {
        return quote! {
            pub fn for_each_offset<F: FnMut(#off)>(mut #f: F) {
                #f(#zero)
            }
        };
    }
    let base = |k: usize| local(&format!("o{k}"));
    let n = modes.len();
    let mut body = TokenStream::new();
    for (k, m) in modes.iter().enumerate() {
        // Typed, so that the counter is a `usize` whatever the body does with it.
        let extent = Literal::usize_suffixed(usize::try_from(m.extent).unwrap_or(usize::MAX));
        let outer = (k + 1 < n).then(|| base(k + 1).to_token_stream());
        let counter = local(&format!("k{k}"));
        let here = if m.stride == 0 {
            outer.unwrap_or_else(|| zero.clone())
        } else {
            sum(outer, vec![term(&counter.to_token_stream(), m.stride, plan.signed)])
        };
        let counter_pat = if m.stride == 0 { quote!(_) } else { counter.to_token_stream() };
        body = if k == 0 {
            quote! {
                for #counter_pat in 0..#extent {
                    #f(#here);
                }
            }
        } else {
            let o = base(k);
            quote! {
                for #counter_pat in 0..#extent {
                    let #o = #here;
                    #body
                }
            }
        };
    }
    quote! {
        pub fn for_each_offset<F: FnMut(#off)>(mut #f: F) {
            #body
        }
    }
}
