//! Emission: an [`IndexPlan`] becomes a unit struct with constants, straight-line index
//! functions and a loop-nest traversal; the standard trait impls, `Display` and the
//! `GeneratedLayout` impl (its constants, with the smallest and largest offsets, in one
//! `__CONSTANTS` item; `StaticLayout` follows from a blanket impl), emitted here, and the
//! standard impls from the facade's `impl_layout_traits!` (written-out impls rather than
//! `#[derive]`: a third of the check time, see BENCHMARKS.md). The emitted code names
//! nothing but `core` and the facade ([`facade`]: `$crate` from the facade's `layout!`, so a
//! renamed dependency works; `::cute_layout` for direct callers); its locals are hygienic
//! (`mixed_site`).

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Attribute;

use crate::plan::{
    ComposedPlan, CoordinatePlan, F2Plan, IndexPlan, Mode, Plan, ShapeTree, Split, StagePlan, SwizzledPlan, digit_bits,
};

/// Where the generated items come from: the user's attributes, visibility and name.
pub struct Target<'a> {
    pub attrs: &'a [Attribute],
    pub vis: TokenStream,
    pub name: Ident,
}

thread_local! {
    static FACADE: std::cell::RefCell<Option<TokenStream>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `path` as the facade's path (the facade's `layout!` passes `$crate`); the
/// previous path is restored when `f` returns or unwinds, so no token of this invocation
/// outlives it in the thread-local.
pub fn with_facade<R>(path: TokenStream, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<TokenStream>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            FACADE.with(|c| *c.borrow_mut() = previous);
        }
    }
    let _restore = Restore(FACADE.with(|c| c.replace(Some(path))));
    f()
}

/// The path of the facade crate: the one set by [`with_facade`], else `::cute_layout`.
pub fn facade() -> TokenStream {
    FACADE.with(|c| c.borrow().clone()).unwrap_or_else(|| quote!(::cute_layout))
}

/// The path of the runtime support in the facade.
pub fn private() -> TokenStream {
    let f = facade();
    quote!(#f::__private)
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
    kind_items(
        target,
        Parts {
            summary,
            notation: plan.notation.clone(),
            size: plan.size,
            rank: plan.rank,
            depth: plan.depth,
            off: offset_type(plan),
            cosize_ty: quote!(usize),
            cosize: lit(plan.cosize).into_token_stream(),
            cosize_doc: " One past the largest offset, `cosize(L)`.",
            coord_ty: coord_type(&plan.shape),
            runtime: Runtime::Static {
                min: plan.min_offset,
                max: plan.cosize.saturating_sub(1),
                run: plan.modes.first().filter(|m| m.stride == 1).map_or(1, |m| m.extent),
                injective: plan.injective,
            },
            contains: contains_fn(&plan.leaves, &plan.shape),
            traversal_doc: &[
                " Calls `f` with the offset of every index in order, as a loop nest over the",
                " coalesced modes (no division per element).",
            ],
            extra: TokenStream::new(),
            offset: offset_fn(plan),
            offset_of: offset_of_fn(plan),
            coord: coord_fn(&plan.leaves, &plan.shape),
            for_each: for_each_fn(plan),
        },
    )
}

/// The expression form: a block that defines the struct and evaluates to its value.
pub fn expression(plan: &Plan) -> TokenStream {
    let name = Ident::new("Layout", Span::call_site());
    let items = items(&Target { attrs: &[], vis: TokenStream::new(), name: name.clone() }, plan);
    quote!({ #items #name })
}

/// The items of any plan: an integer layout's ([`layout_items`]), or those of a swizzled,
/// coordinate or F2 layout.
pub fn items(target: &Target, plan: &Plan) -> TokenStream {
    match plan {
        Plan::Int(p) => layout_items(target, p),
        Plan::Swizzled(p) => swizzled_items(target, p),
        Plan::Coordinate(p) => basis_items(target, p),
        Plan::F2(p) => f2_items(target, p),
        Plan::Composed(p) => composed_items(target, p),
    }
}

/// What differs between the kinds beyond integer strides; the struct, the constants and the
/// trait impls (`impl_layout_value!`, with `cute_layout::GeneratedLayout`) are shared.
struct Parts {
    summary: String,
    notation: String,
    size: u64,
    rank: usize,
    depth: usize,
    /// The type of an offset, and of `COSIZE` with its value.
    off: TokenStream,
    cosize_ty: TokenStream,
    cosize: TokenStream,
    coord_ty: TokenStream,
    /// The doc line of `COSIZE` and of the traversal.
    cosize_doc: &'static str,
    traversal_doc: &'static [&'static str],
    /// The run-time value type and the trait impls.
    runtime: Runtime,
    /// `|coord| …`: whether each component is below its extent.
    contains: TokenStream,
    /// Functions before `offset` (the swizzle).
    extra: TokenStream,
    offset: TokenStream,
    offset_of: TokenStream,
    coord: TokenStream,
    for_each: TokenStream,
}

/// How the trait impls are emitted.
enum Runtime {
    /// An integer layout: the smallest and largest offsets of the domain, the length of its
    /// leading unit-stride run and its injectivity go to the constants of `GeneratedLayout`
    /// (and so to the blanket `StaticLayout`).
    Static { min: i64, max: u64, run: u64, injective: bool },
    /// The run-time value type of layout-core under `__private`.
    Value(TokenStream),
}

fn kind_items(target: &Target, parts: Parts) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let p = private();
    let (shared, own) = split_attrs(attrs);
    let separator = own.iter().any(|a| a.path().is_ident("doc")).then(|| quote!(#[doc = ""]));
    let Parts {
        summary,
        off,
        cosize_ty,
        cosize,
        cosize_doc,
        coord_ty,
        traversal_doc,
        extra,
        offset,
        offset_of,
        coord,
        ..
    } = &parts;
    let for_each = &parts.for_each;
    let facade = facade();
    let contains = &parts.contains;
    let (value, cosize_c, min, max, run, injective) = match &parts.runtime {
        Runtime::Value(rt) => (quote!(#p::#rt), quote!(0), quote!(0), quote!(0), quote!(1), quote!(false)),
        Runtime::Static { min, max, run, injective } => {
            let (min, max, run) = (signed_lit(*min), lit(*max), lit(*run));
            (
                quote!(#p::Layout),
                quote!(#name::COSIZE),
                min,
                max.into_token_stream(),
                run.into_token_stream(),
                quote!(#injective),
            )
        }
    };
    // SAFETY (of the emitted impl): the constants are the plan's own numbers (for an integer
    // layout the smallest and largest offsets of the domain, the leading unit-stride run and
    // the injectivity, which the code generator computed from the same layout as the index
    // functions), and the functions are the generated ones of that plan. Every token here is
    // the generator's: names resolve to the items emitted beside this impl.
    let impls = quote! {
        #p::impl_layout_traits!(#(#shared)* #name);

        #(#shared)*
        #[automatically_derived]
        unsafe impl #facade::GeneratedLayout for #name {
            type Offset = #off;
            type Coord = #coord_ty;
            type Value = #value;
            const __CONSTANTS: #p::Constants<#off, #coord_ty> = #p::Constants::new(
                #name::SIZE,
                #name::RANK,
                #name::DEPTH,
                #name::NOTATION,
                #cosize_c,
                #min,
                #max,
                #run,
                #injective,
                #name::offset,
                #name::offset_of,
                #name::coord,
                #contains,
            );
            #[inline]
            fn for_each_offset<F: FnMut(#off)>(f: F) {
                #name::for_each_offset(f)
            }
        }
    };
    let size = lit(parts.size);
    let (rank, depth) = (Literal::usize_unsuffixed(parts.rank), Literal::usize_unsuffixed(parts.depth));
    let notation = Literal::string(&parts.notation);
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
            #[doc = #cosize_doc]
            pub const COSIZE: #cosize_ty = #cosize;
            /// The number of top-level modes.
            pub const RANK: usize = #rank;
            /// The nesting depth of the shape.
            pub const DEPTH: usize = #depth;
            /// The layout in canonical notation.
            pub const NOTATION: &'static str = #notation;

            #extra

            /// The offset of index `index` (straight-line: one division or shift per mode).
            #[inline]
            #offset

            /// The offset of a natural coordinate (nested tuples shaped like the layout).
            #[inline]
            #offset_of

            /// The natural coordinate of index `index`.
            #[inline]
            #coord

            #(#[doc = #traversal_doc])*
            #[inline]
            #for_each
        }

        #impls
    }
}

fn int_type(signed: bool) -> TokenStream {
    if signed { quote!(isize) } else { quote!(usize) }
}

/// `Sw o off o L`: L's straight-line offset, then `Self::swizzle` (add the offset, XOR and
/// shift); the traversal is L's loop nest with the swizzle applied to each offset.
fn swizzled_items(target: &Target, plan: &SwizzledPlan) -> TokenStream {
    let inner = &plan.inner;
    let off = int_type(plan.signed);
    let x = local("x");
    let value = local("offset");
    let add = match plan.offset {
        0 => quote!(#value),
        o if o < 0 => {
            let m = Literal::u64_unsuffixed(o.unsigned_abs());
            quote!(#value - #m)
        }
        o => {
            let m = Literal::u64_unsuffixed(o.unsigned_abs());
            quote!(#value + #m)
        }
    };
    let xor = if plan.yyy == 0 {
        quote!(#x)
    } else {
        let yyy = lit(plan.yyy);
        let s = Literal::u32_unsuffixed(u32::try_from(plan.shift.unsigned_abs()).unwrap_or(0));
        if plan.shift >= 0 { quote!(#x ^ ((#x & #yyy) >> #s)) } else { quote!(#x ^ ((#x & #yyy) << #s)) }
    };
    let swizzle_doc = format!(" The swizzle of `{}` applied to an offset of the inner layout.", plan.notation);
    let extra = quote! {
        #[doc = #swizzle_doc]
        #[inline]
        pub const fn swizzle(#value: #off) -> #off {
            let #x = #add;
            #xor
        }
    };
    let for_each = for_each_nest(&inner.modes, plan.signed, &|o| quote!(Self::swizzle(#o)));
    let kind = Wrapped {
        word: "swizzled",
        apply: quote!(swizzle),
        runtime: quote!(SwizzledLayout),
        signed_inner: plan.signed,
    };
    wrapped_items(target, &plan.notation, plan.signed, plan.cosize, inner, &off, kind, extra, for_each)
}

/// `F_1 o … o F_k o B`: B's straight-line offset as an `isize`, then `Self::stages`, which
/// applies the stages from the innermost out: an offset is an addition, a swizzle an XOR and
/// shift, a layout its own straight-line offset of the value. The traversal is by index.
fn composed_items(target: &Target, plan: &ComposedPlan) -> TokenStream {
    let inner = &plan.inner;
    let off = int_type(plan.signed);
    let x = local("x");
    let value = local("offset");
    let steps = plan.stages.iter().rev().map(|s| match s {
        StagePlan::Offset(o) => {
            let o = signed_lit(*o);
            quote!(let #x: isize = #x + #o;)
        }
        StagePlan::Swizzle { yyy: 0, .. } => quote!(),
        StagePlan::Swizzle { yyy, shift } => {
            let yyy = lit(*yyy);
            let s = Literal::u32_unsuffixed(u32::try_from(shift.unsigned_abs()).unwrap_or(0));
            if *shift >= 0 {
                quote!(let #x: isize = #x ^ ((#x & #yyy) >> #s);)
            } else {
                quote!(let #x: isize = #x ^ ((#x & #yyy) << #s);)
            }
        }
        StagePlan::Layout(l) => {
            let (param, stmts, body) = offset_body(&l.modes[..l.offset_modes], true);
            // The planner evaluated every value of the domain: a layout stage only sees
            // non-negative values there, so the conversion to an index is exact.
            quote!(let #x: isize = { let #param: usize = #x as usize; #stmts #body };)
        }
    });
    let doc = format!(" The stages of `{}` applied to an offset of the inner layout, innermost first.", plan.notation);
    let out = if plan.signed { quote!(#x) } else { quote!(#x as usize) };
    let extra = quote! {
        #[doc = #doc]
        #[inline]
        pub const fn stages(#value: isize) -> #off {
            let #x: isize = #value;
            #(#steps)*
            #out
        }
    };
    let for_each = for_each_by_index(&off);
    let kind = Wrapped { word: "composed", apply: quote!(stages), runtime: quote!(ComposedLayout), signed_inner: true };
    wrapped_items(target, &plan.notation, plan.signed, plan.cosize, inner, &off, kind, extra, for_each)
}

/// What sets a kind whose offset is a function applied to an inner layout's offset apart:
/// the word in its summary, the generated function applied (`Self::swizzle`, `Self::stages`),
/// the run-time value's type, and whether the inner offsets are computed as `isize`.
struct Wrapped {
    word: &'static str,
    apply: TokenStream,
    runtime: TokenStream,
    signed_inner: bool,
}

/// The items of a swizzled or composed layout: `offset`/`offset_of` of the inner layout
/// with `Self::APPLY` around them, `coord` of the inner layout, and the rest of the kind's
/// items.
#[allow(clippy::too_many_arguments)]
fn wrapped_items(
    target: &Target,
    notation: &str,
    signed: bool,
    cosize: u64,
    inner: &IndexPlan,
    off: &TokenStream,
    kind: Wrapped,
    extra: TokenStream,
    for_each: TokenStream,
) -> TokenStream {
    let apply = &kind.apply;
    let (param, stmts, body) = offset_body(&inner.modes[..inner.offset_modes], kind.signed_inner);
    let offset = quote! {
        pub const fn offset(#param: usize) -> #off {
            #stmts
            Self::#apply(#body)
        }
    };
    let coord_ty = coord_type(&inner.shape);
    let (pattern, body) = offset_of_body(&inner.leaves, &inner.shape, kind.signed_inner);
    let offset_of = quote! {
        pub const fn offset_of(#pattern: #coord_ty) -> #off {
            Self::#apply(#body)
        }
    };
    let summary = format!(
        " The {} layout `{}`: {}, offsets {}.",
        kind.word,
        notation,
        indices(inner.size),
        if signed { "of either sign".to_string() } else { format!("in `0..{}`", cosize) }
    );
    kind_items(
        target,
        Parts {
            summary,
            notation: notation.to_string(),
            size: inner.size,
            rank: inner.rank,
            depth: inner.depth,
            off: off.clone(),
            cosize_ty: quote!(usize),
            cosize: lit(cosize).into_token_stream(),
            coord_ty,
            runtime: Runtime::Value(kind.runtime),
            contains: contains_fn(&inner.leaves, &inner.shape),
            cosize_doc: " `cosize(L)` as layout-core reports it.",
            traversal_doc: &[" Calls `f` with the offset of every index in order."],
            extra,
            offset,
            offset_of,
            coord: coord_fn(&inner.leaves, &inner.shape),
            for_each,
        },
    )
}

/// A traversal by index, for the kinds whose offsets are not a sum along a loop nest.
fn for_each_by_index(off: &TokenStream) -> TokenStream {
    let (f, index) = (local("f"), local("index"));
    quote! {
        pub fn for_each_offset<F: FnMut(#off)>(mut #f: F) {
            for #index in 0..Self::SIZE {
                #f(Self::offset(#index));
            }
        }
    }
}

/// Coordinate strides: the index is split once at the coalesced modes; each component is a
/// sum with that component's coefficients; `offset` returns the tuple of the components.
fn basis_items(target: &Target, plan: &CoordinatePlan) -> TokenStream {
    let tys: Vec<TokenStream> = plan.signed.iter().map(|&s| int_type(s)).collect();
    let off = quote!((#(#tys,)*));
    let index = local("index");
    let modes = &plan.modes;
    let (stmts, coords) = split_index(modes, &index, "c", &|k| modes[k].stride != 0);
    let components: Vec<TokenStream> = (0..plan.components)
        .map(|i| {
            let terms = coords
                .iter()
                .zip(&plan.mode_coefs)
                .filter_map(|(c, coefs)| {
                    c.as_ref().filter(|_| coefs[i] != 0).map(|c| term(c, coefs[i], plan.signed[i]))
                })
                .collect();
            sum(None, terms)
        })
        .collect();
    let param = if coords.iter().any(Option::is_some) { index.to_token_stream() } else { quote!(_) };
    let offset = quote! {
        pub const fn offset(#param: usize) -> #off {
            #stmts
            (#(#components,)*)
        }
    };
    let coord_ty = coord_type(&plan.shape);
    let used = |k: usize| plan.leaves[k].stride != 0;
    let pattern =
        coord_tree(&plan.shape, &|k| if used(k) { local(&format!("c{k}")).to_token_stream() } else { quote!(_) });
    let leaf_components: Vec<TokenStream> = (0..plan.components)
        .map(|i| {
            let terms = (0..plan.leaves.len())
                .filter(|&k| plan.leaf_coefs[k][i] != 0)
                .map(|k| term(&local(&format!("c{k}")).to_token_stream(), plan.leaf_coefs[k][i], plan.signed[i]))
                .collect();
            sum(None, terms)
        })
        .collect();
    let offset_of = quote! {
        pub const fn offset_of(#pattern: #coord_ty) -> #off {
            (#(#leaf_components,)*)
        }
    };
    let cosizes = plan.cosize.iter().map(|&c| lit(c));
    let cosize_tys = plan.cosize.iter().map(|_| quote!(usize));
    let shown: Vec<String> = plan.cosize.iter().map(u64::to_string).collect();
    let summary = format!(
        " The coordinate layout `{}`: {}, coordinates of rank {} within `({})`.",
        plan.notation,
        indices(plan.size),
        plan.components,
        shown.join(",")
    );
    kind_items(
        target,
        Parts {
            summary,
            notation: plan.notation.clone(),
            size: plan.size,
            rank: plan.rank,
            depth: plan.depth,
            cosize_ty: quote!((#(#cosize_tys,)*)),
            cosize: quote!((#(#cosizes,)*)),
            coord_ty,
            runtime: Runtime::Value(quote!(CoordinateLayout)),
            contains: contains_fn(&plan.leaves, &plan.shape),
            cosize_doc: " `cosize(L)` as layout-core reports it.",
            traversal_doc: &[" Calls `f` with the offset of every index in order."],
            extra: TokenStream::new(),
            offset,
            offset_of,
            coord: coord_fn(&plan.leaves, &plan.shape),
            for_each: for_each_by_index(&off),
            off,
        },
    )
}

/// `c ⊗ k` (carry-less) for a digit `c` of a mode of extent `extent`: `c << t` when k is the
/// single bit `1 << t`, otherwise one masked term per bit of the digit,
/// `0usize.wrapping_sub((c >> b) & 1) & (k << b)` (all ones or all zeros, then the bit's
/// image).
fn clmul_terms(c: &TokenStream, k: u64, extent: u64) -> Vec<TokenStream> {
    if k == 0 {
        return Vec::new();
    }
    if k.is_power_of_two() {
        let t = k.trailing_zeros();
        return vec![if t == 0 {
            c.clone()
        } else {
            let t = Literal::u32_unsuffixed(t);
            quote!((#c << #t))
        }];
    }
    (0..digit_bits(extent))
        .map(|b| {
            let image = lit(k << b);
            let bit = if b == 0 {
                quote!(#c & 1)
            } else {
                let b = Literal::u32_unsuffixed(b);
                quote!((#c >> #b) & 1)
            };
            quote!((0usize.wrapping_sub(#bit) & #image))
        })
        .collect()
}

fn xor(terms: Vec<TokenStream>) -> TokenStream {
    let mut terms = terms.into_iter();
    match terms.next() {
        Some(first) => quote!(#first #(^ #terms)*),
        None => quote!(0),
    }
}

/// F2 strides: the digits of the coalesced modes, each XORed in as its carry-less product
/// with the stride, unrolled over the digit's bits (no loops, no tables).
fn f2_items(target: &Target, plan: &F2Plan) -> TokenStream {
    // A digit of a size-1 leaf is always 0: it contributes nothing.
    let off = quote!(usize);
    let index = local("index");
    let modes = &plan.modes[..plan.offset_modes];
    let (stmts, coords) = split_index(modes, &index, "c", &|k| modes[k].stride != 0);
    let terms: Vec<TokenStream> = modes
        .iter()
        .zip(&coords)
        .filter_map(|(m, c)| c.as_ref().map(|c| clmul_terms(c, m.stride.unsigned_abs(), m.extent)))
        .flatten()
        .collect();
    let param = if terms.is_empty() { quote!(_) } else { index.to_token_stream() };
    let body = xor(terms);
    let offset = quote! {
        pub const fn offset(#param: usize) -> #off {
            #stmts
            #body
        }
    };
    let coord_ty = coord_type(&plan.shape);
    let used = |k: usize| plan.leaves[k].stride != 0 && plan.leaves[k].extent > 1;
    let pattern =
        coord_tree(&plan.shape, &|k| if used(k) { local(&format!("c{k}")).to_token_stream() } else { quote!(_) });
    let terms: Vec<TokenStream> = (0..plan.leaves.len())
        .filter(|&k| used(k))
        .flat_map(|k| {
            let m = &plan.leaves[k];
            clmul_terms(&local(&format!("c{k}")).to_token_stream(), m.stride.unsigned_abs(), m.extent)
        })
        .collect();
    let body = xor(terms);
    let offset_of = quote! {
        pub const fn offset_of(#pattern: #coord_ty) -> #off {
            #body
        }
    };
    let summary =
        format!(" The F2 layout `{}`: {}, offsets in `0..{}`.", plan.notation, indices(plan.size), plan.cosize);
    kind_items(
        target,
        Parts {
            summary,
            notation: plan.notation.clone(),
            size: plan.size,
            rank: plan.rank,
            depth: plan.depth,
            cosize_ty: quote!(usize),
            cosize: lit(plan.cosize).into_token_stream(),
            coord_ty,
            runtime: Runtime::Value(quote!(F2Layout)),
            contains: contains_fn(&plan.leaves, &plan.shape),
            cosize_doc: " `cosize(L)` as layout-core reports it.",
            traversal_doc: &[" Calls `f` with the offset of every index in order."],
            extra: TokenStream::new(),
            offset,
            offset_of,
            coord: coord_fn(&plan.leaves, &plan.shape),
            for_each: for_each_by_index(&off),
            off,
        },
    )
}

fn indices(n: u64) -> String {
    if n == 1 { "1 index".into() } else { format!("{n} indices") }
}

fn offset_type(plan: &IndexPlan) -> TokenStream {
    if plan.signed { quote!(isize) } else { quote!(usize) }
}

pub(crate) fn lit(v: u64) -> Literal {
    Literal::u64_unsuffixed(v)
}

/// A possibly negative integer: `-` and the literal of its magnitude.
pub(crate) fn signed_lit(v: i64) -> TokenStream {
    let m = lit(v.unsigned_abs());
    if v < 0 { quote!(-#m) } else { m.into_token_stream() }
}

/// A local variable of the emitted code (hygienic: it cannot collide with user items).
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// `usize` for a leaf, a tuple (with a trailing comma for rank 1) otherwise.
pub(crate) fn coord_type(shape: &ShapeTree) -> TokenStream {
    match shape {
        ShapeTree::Leaf(_) => quote!(usize),
        ShapeTree::Tuple(children) => {
            let c = children.iter().map(coord_type);
            quote!((#(#c,)*))
        }
    }
}

/// The same structure as a pattern or expression over per-leaf tokens.
pub(crate) fn coord_tree(shape: &ShapeTree, leaf: &dyn Fn(usize) -> TokenStream) -> TokenStream {
    match shape {
        ShapeTree::Leaf(k) => leaf(*k),
        ShapeTree::Tuple(children) => {
            let c = children.iter().map(|c| coord_tree(c, leaf));
            quote!((#(#c,)*))
        }
    }
}

/// `|coord: C| c0 < e0 && …`: whether each component of a natural coordinate is below its
/// leaf's extent (a non-capturing closure, so a `fn` pointer in a constant).
pub(crate) fn contains_fn(leaves: &[Mode], shape: &ShapeTree) -> TokenStream {
    let coord_ty = coord_type(shape);
    let pattern = coord_tree(shape, &|k| local(&format!("c{k}")).to_token_stream());
    let tests: Vec<TokenStream> = (0..leaves.len())
        .map(|k| {
            let (c, e) = (local(&format!("c{k}")), lit(leaves[k].extent));
            quote!(#c < #e)
        })
        .collect();
    let body = if tests.is_empty() { quote!(true) } else { quote!(#(#tests)&&*) };
    quote!(|#pattern: #coord_ty| #body)
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
    let (param, stmts, body) = offset_body(&plan.modes[..plan.offset_modes], plan.signed);
    quote! {
        pub const fn offset(#param: usize) -> #off {
            #stmts
            #body
        }
    }
}

/// The parameter, statements and value of `offset` over the given (coalesced) modes.
pub(crate) fn offset_body(modes: &[Mode], signed: bool) -> (TokenStream, TokenStream, TokenStream) {
    let index = local("index");
    let (stmts, coords) = split_index(modes, &index, "c", &|k| modes[k].stride != 0);
    let terms: Vec<Term> =
        modes.iter().zip(&coords).filter_map(|(m, c)| c.as_ref().map(|c| term(c, m.stride, signed))).collect();
    let param = if terms.is_empty() { quote!(_) } else { index.to_token_stream() };
    (param, stmts, sum(None, terms))
}

fn offset_of_fn(plan: &IndexPlan) -> TokenStream {
    let off = offset_type(plan);
    let coord_ty = coord_type(&plan.shape);
    let (pattern, body) = offset_of_body(&plan.leaves, &plan.shape, plan.signed);
    quote! {
        pub const fn offset_of(#pattern: #coord_ty) -> #off {
            #body
        }
    }
}

/// The pattern and value of `offset_of` over the leaves of the shape.
fn offset_of_body(leaves: &[Mode], shape: &ShapeTree, signed: bool) -> (TokenStream, TokenStream) {
    let used = |k: usize| leaves[k].stride != 0;
    let pattern = coord_tree(shape, &|k| if used(k) { local(&format!("c{k}")).to_token_stream() } else { quote!(_) });
    let terms: Vec<Term> = (0..leaves.len())
        .filter(|&k| used(k))
        .map(|k| term(&local(&format!("c{k}")).to_token_stream(), leaves[k].stride, signed))
        .collect();
    (pattern, sum(None, terms))
}

fn coord_fn(leaves: &[Mode], shape: &ShapeTree) -> TokenStream {
    let coord_ty = coord_type(shape);
    let index = local("index");
    let (stmts, coords) = split_index(leaves, &index, "c", &|k| leaves[k].split != Split::Unit);
    let value = coord_tree(shape, &|k| coords[k].clone().unwrap_or_else(|| quote!(0)));
    let param = if coords.iter().any(Option::is_some) { index.to_token_stream() } else { quote!(_) };
    quote! {
        pub const fn coord(#param: usize) -> #coord_ty {
            #stmts
            #value
        }
    }
}

fn for_each_fn(plan: &IndexPlan) -> TokenStream {
    for_each_nest(&plan.modes, plan.signed, &|o| o)
}

/// The most calls of `f` the unrolled innermost block of a traversal holds: the innermost
/// modes are unrolled while the product of their extents stays within this bound, so the
/// emitted code stays bounded per layout (at most this many calls, plus one `for` and one
/// `let` per remaining mode) whatever the size.
const UNROLL_BLOCK: u64 = 16;

/// The loop nest over `modes`; `wrap` turns the offset of the nest into the value passed
/// to `f` (the identity for integer layouts, the swizzle for swizzled ones). When at least
/// the two innermost modes have extents multiplying to at most [`UNROLL_BLOCK`], the
/// longest such run of innermost modes is unrolled into a straight block of calls
/// `f(o + c)` with constant `c`, in index order; the other modes are counted `for` loops,
/// innermost first.
fn for_each_nest(all: &[Mode], signed: bool, wrap: &dyn Fn(TokenStream) -> TokenStream) -> TokenStream {
    let off = if signed { quote!(isize) } else { quote!(usize) };
    let f = local("f");
    let zero = if signed { quote!(0isize) } else { quote!(0usize) };
    let modes: Vec<&Mode> = all.iter().filter(|m| m.extent > 1).collect();
    if modes.is_empty() {
        let value = wrap(zero);
        return quote! {
            pub fn for_each_offset<F: FnMut(#off)>(mut #f: F) {
                #f(#value)
            }
        };
    }
    // The unrolled block: the innermost `u` modes.
    let mut u = 0;
    let mut block_size = 1u64;
    while u < modes.len() && block_size.saturating_mul(modes[u].extent) <= UNROLL_BLOCK {
        block_size *= modes[u].extent;
        u += 1;
    }
    // A single short mode is left to the compiler, which unrolls a constant-count loop
    // itself (and does better with the whole nest in loop form); the manual block
    // pays off when it removes a loop level around a short innermost mode.
    if u < 2 {
        u = 0;
    }
    let base = |k: usize| local(&format!("o{k}"));
    let n = modes.len();
    // The constant offsets of the block in index order (mode 0 fastest): each further mode
    // repeats the block of the faster ones once per coordinate.
    let mut order = vec![0i128];
    for m in &modes[..u] {
        order = (0..m.extent as i128)
            .flat_map(|c| order.iter().map(move |&o| (c, o)))
            .map(|(c, o)| o + c * m.stride as i128)
            .collect();
    }
    let block_base = (u < n).then(|| base(u).to_token_stream());
    let calls = order.iter().map(|&c| {
        let abs = c.unsigned_abs();
        let value = match &block_base {
            Some(o) if c == 0 => o.clone(),
            Some(o) => {
                let lit = Literal::u128_unsuffixed(abs);
                if c > 0 { quote!(#o + #lit) } else { quote!(#o - #lit) }
            }
            None if signed => {
                let lit = Literal::isize_suffixed(isize::try_from(abs).unwrap_or(isize::MAX));
                if c < 0 { quote!(-#lit) } else { lit.to_token_stream() }
            }
            None => Literal::usize_suffixed(usize::try_from(abs).unwrap_or(usize::MAX)).to_token_stream(),
        };
        let value = wrap(value);
        quote!(#f(#value);)
    });
    let mut body = quote!(#(#calls)*);
    for (k, m) in modes.iter().enumerate().skip(u) {
        // Typed, so that the counter is a `usize` whatever the body does with it.
        let extent = Literal::usize_suffixed(usize::try_from(m.extent).unwrap_or(usize::MAX));
        let outer = (k + 1 < n).then(|| base(k + 1).to_token_stream());
        let counter = local(&format!("k{k}"));
        let here = if m.stride == 0 {
            outer.unwrap_or_else(|| zero.clone())
        } else {
            sum(outer, vec![term(&counter.to_token_stream(), m.stride, signed)])
        };
        let counter_pat = if m.stride == 0 { quote!(_) } else { counter.to_token_stream() };
        body = if k == 0 {
            let value = wrap(here);
            quote! {
                for #counter_pat in 0..#extent {
                    #f(#value);
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
