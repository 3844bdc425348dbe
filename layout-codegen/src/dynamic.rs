//! Layouts with symbols: the plan and the emitted struct. A dynamic item is a struct holding
//! its run-time integers (the symbols, and the derived extents and strides such as `M/8` or
//! `8*LD`, computed once by the constructor); `new` checks positivity, every condition the
//! algebra left to run time, and that every offset fits in `isize`. The index functions are
//! those of static layouts with the dynamic extents and strides read from fields: a static
//! inner mode of 8 is still a shift and a mask.

use layout_core::dynamic::{Cond, CondKind, DynLayout, Factor, Rel, SymInt, SymSum, SymTuple};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote};

use crate::expand::{Target, coord_tree, coord_type, lit, local, private, split_attrs};
use crate::plan::ShapeTree;

/// An extent or the magnitude of a stride: a constant, a symbol, or a derived value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DVal {
    /// A constant.
    Const(u64),
    /// Index into [`DynPlan::symbols`].
    Sym(usize),
    /// Index into [`DynPlan::derived`].
    Derived(usize),
}

/// One mode: extent, stride magnitude and sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DMode {
    /// The extent.
    pub extent: DVal,
    /// The magnitude of the stride.
    pub stride: DVal,
    /// The stride is negative.
    pub negative: bool,
}

/// Everything the emitted struct needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynPlan {
    /// The layout in canonical notation, with its symbols.
    pub notation: String,
    /// The symbols, in the order `new` takes them.
    pub symbols: Vec<String>,
    /// The conditions checked by `new`, in order (facts first), with why they are needed.
    pub conds: Vec<(Cond, String)>,
    /// Derived values (not a constant, not a plain symbol), as magnitudes.
    pub derived: Vec<SymInt>,
    /// The modes of `coalesce(L)` (offset and traversal).
    pub modes: Vec<DMode>,
    /// The leaves of the shape as written (coord and offset_of).
    pub leaves: Vec<DMode>,
    /// The shape's tuple structure over the leaves.
    pub shape: ShapeTree,
    /// The number of top-level modes.
    pub rank: usize,
    /// The nesting depth of the shape.
    pub depth: usize,
    /// Some stride is negative: offsets are `isize`.
    pub signed: bool,
}

impl DynPlan {
    /// The plan of a layout over symbols: its values as constants, symbols or derived
    /// values, and the conditions `new` checks; an error names what cannot be emitted.
    pub fn new(l: &DynLayout) -> Result<DynPlan, String> {
        let mut plan = DynPlan {
            notation: l.to_string(),
            symbols: l.symbols.clone(),
            conds: Vec::new(),
            derived: Vec::new(),
            modes: Vec::new(),
            leaves: Vec::new(),
            shape: tree(&l.shape, &mut 0),
            rank: l.rank(),
            depth: l.depth(),
            signed: l.stride.leaves().iter().any(SymInt::is_negative),
        };
        let mut conds = l.conds.clone();
        conds.sort_by_key(|c| c.kind != CondKind::Fact);
        plan.conds = conds.into_iter().map(|c| (c.cond, c.why)).collect();
        let coalesced = l.coalesce().flat_modes();
        let solver = l.solver();
        for (s, d) in l.flat_modes().iter().chain(&coalesced) {
            for v in [s, d] {
                let c = Cond { a: v.clone(), rel: Rel::Divides, b: SymInt::int(1) };
                if solver.prove(&c) != Some(true) && !plan.conds.iter().any(|(k, _)| *k == c) {
                    plan.conds.push((c, format!("`{v}` must be an integer")));
                }
            }
        }
        plan.leaves = l.flat_modes().iter().map(|(s, d)| plan.mode(s, d)).collect::<Result<_, _>>()?;
        plan.modes = coalesced.iter().map(|(s, d)| plan.mode(s, d)).collect::<Result<_, _>>()?;
        Ok(plan)
    }

    fn val(&mut self, v: &SymInt) -> Result<DVal, String> {
        let v = if v.is_negative() { v.scale(-1) } else { v.clone() };
        if let Some(c) = v.as_int() {
            return Ok(DVal::Const(c as u64));
        }
        if v.is_const() {
            return Err(format!("internal error of `layout!`: the constant {v} is not an integer"));
        }
        if let Some(k) = self.symbols.iter().position(|s| SymInt::sym(s) == v) {
            return Ok(DVal::Sym(k));
        }
        let k = self.derived.iter().position(|d| *d == v).unwrap_or_else(|| {
            self.derived.push(v.clone());
            self.derived.len() - 1
        });
        Ok(DVal::Derived(k))
    }

    fn mode(&mut self, s: &SymInt, d: &SymInt) -> Result<DMode, String> {
        Ok(DMode { extent: self.val(s)?, stride: self.val(d)?, negative: d.is_negative() })
    }
}

fn tree(shape: &SymTuple, next: &mut usize) -> ShapeTree {
    match shape {
        SymTuple::Leaf(_) => {
            *next += 1;
            ShapeTree::Leaf(*next - 1)
        }
        SymTuple::Tuple(c) => ShapeTree::Tuple(c.iter().map(|c| tree(c, next)).collect()),
    }
}

fn field_of_symbol(s: &str) -> Ident {
    format_ident!("{}", s.to_lowercase())
}

fn field_of_derived(k: usize) -> Ident {
    format_ident!("d{}", k)
}

/// `self.numbers.get(k)` (a symbol, or a derived value after the symbols) or a literal.
fn value(v: &DVal, plan: &DynPlan) -> TokenStream {
    match v {
        DVal::Const(c) => lit(*c).into_token_stream(),
        DVal::Sym(k) => {
            let k = Literal::usize_unsuffixed(*k);
            quote!(self.numbers.get(#k))
        }
        DVal::Derived(k) => {
            let k = Literal::usize_unsuffixed(plan.symbols.len() + *k);
            quote!(self.numbers.get(#k))
        }
    }
}

/// `__p::mono(num, den, &[up…], &[down…])` over the constructor's locals; with sums among
/// the factors, `__p::mono_sums(num, den, &[up…], &[down…], &[sums up…], &[sums down…])`,
/// each sum `__p::sum(&[(coefficient, &[symbols…]), …])`.
fn mono(v: &SymInt, p: &TokenStream) -> TokenStream {
    let (num, den) = v.coef();
    let (num, den) = (Literal::i128_unsuffixed(num), Literal::i128_unsuffixed(den));
    let mut up = Vec::new();
    let mut down = Vec::new();
    let mut sums_up = Vec::new();
    let mut sums_down = Vec::new();
    for (f, &e) in v.powers() {
        let (value, ups, downs) = match f {
            Factor::Symbol(s) => (field_of_symbol(s).into_token_stream(), &mut up, &mut down),
            Factor::Sum(s) => (sum_value(s, p), &mut sums_up, &mut sums_down),
        };
        for _ in 0..e.unsigned_abs() {
            if e > 0 {
                ups.push(value.clone());
            } else {
                downs.push(value.clone());
            }
        }
    }
    if sums_up.is_empty() && sums_down.is_empty() {
        quote!(#p::mono(#num, #den, &[#(#up),*], &[#(#down),*]))
    } else {
        quote!(#p::mono_sums(#num, #den, &[#(#up),*], &[#(#down),*], &[#(#sums_up),*], &[#(#sums_down),*]))
    }
}

/// `__p::sum(&[(coefficient, &[symbols…]), …])`: the value of a sum (`W-2`), `None` on
/// overflow.
fn sum_value(s: &SymSum, p: &TokenStream) -> TokenStream {
    let terms = s.terms().iter().map(|(c, powers)| {
        let c = Literal::i128_unsuffixed(*c);
        let fields = powers.iter().flat_map(|(s, e)| std::iter::repeat_n(field_of_symbol(s), *e as usize));
        quote!((#c, &[#(#fields),*]))
    });
    quote!(#p::sum(&[#(#terms),*]))
}

/// The struct, its constructor and index functions, and the trait impls.
pub fn items(target: &Target, plan: &DynPlan) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let private = private();
    let p = quote!(#private::dynamic);
    let (shared, own) = split_attrs(attrs);
    let sym_fields: Vec<Ident> = plan.symbols.iter().map(|s| field_of_symbol(s)).collect();
    let sym_names: Vec<Literal> = plan.symbols.iter().map(|s| Literal::string(s)).collect();
    let der_fields: Vec<Ident> = (0..plan.derived.len()).map(field_of_derived).collect();
    let notation = Literal::string(&plan.notation);
    let off = if plan.signed { quote!(isize) } else { quote!(usize) };
    let coord_ty = coord_type(&plan.shape);

    // The constructor's checks.
    let positive = sym_fields
        .iter()
        .zip(&sym_names)
        .map(|(f, n)| quote!(if #f == 0 { return ::core::result::Result::Err(#p::not_positive(#n)); }));
    let conds = plan.conds.iter().map(|(c, why)| {
        let (a, b) = (mono(&c.a, &p), mono(&c.b, &p));
        let test = match c.rel {
            Rel::Divides => quote!(#p::divides(#a, #b)),
            Rel::Ge => quote!(#p::ge(#a, #b)),
            Rel::Gt => quote!(#p::gt(#a, #b)),
        };
        let shown = Literal::string(&c.to_string());
        let why = Literal::string(why);
        let named: Vec<usize> =
            c.symbols().iter().filter_map(|s| plan.symbols.iter().position(|x| x == s)).collect();
        let names = named.iter().map(|&k| &sym_names[k]);
        let vals = named.iter().map(|&k| &sym_fields[k]);
        quote! {
            if !#test {
                return ::core::result::Result::Err(#p::failed(Self::NOTATION, #shown, #why, &[#(#names),*], &[#(#vals),*]));
            }
        }
    });
    let overflow = quote!(#p::overflow(Self::NOTATION, &[#(#sym_names),*], &[#(#sym_fields),*]));
    let derive = plan.derived.iter().zip(&der_fields).map(|(v, f)| {
        let m = mono(v, &p);
        quote!(let #f = match #p::int(#m) { ::core::option::Option::Some(v) => v, ::core::option::Option::None => return ::core::result::Result::Err(#overflow) };)
    });
    let local_val = |v: &DVal| -> TokenStream {
        match v {
            DVal::Const(c) => lit(*c).into_token_stream(),
            DVal::Sym(k) => sym_fields[*k].to_token_stream(),
            DVal::Derived(k) => der_fields[*k].to_token_stream(),
        }
    };
    let extent_checks = plan.leaves.iter().map(|m| {
        let (s, d, neg) = (local_val(&m.extent), local_val(&m.stride), m.negative);
        quote!((#s, #d, #neg))
    });

    // Index functions.
    let index = local("index");
    let (stmts, coords) = split(&plan.modes, plan, &index, &|m| !matches!(m.stride, DVal::Const(0)));
    let terms: Vec<TokenStream> =
        plan.modes.iter().zip(&coords).filter_map(|(m, c)| c.as_ref().map(|c| term(c, m, plan))).collect();
    let offset_body = sum(&terms, plan.signed);
    let param = if terms.is_empty() { quote!(_) } else { index.to_token_stream() };

    let used = |k: usize| !matches!(plan.leaves[k].stride, DVal::Const(0));
    let pattern =
        coord_tree(&plan.shape, &|k| if used(k) { local(&format!("c{k}")).to_token_stream() } else { quote!(_) });
    let leaf_terms: Vec<TokenStream> = (0..plan.leaves.len())
        .filter(|&k| used(k))
        .map(|k| term(&local(&format!("c{k}")).to_token_stream(), &plan.leaves[k], plan))
        .collect();
    let offset_of_body = sum(&leaf_terms, plan.signed);

    let (cstmts, ccoords) = split(&plan.leaves, plan, &index, &|m| m.extent != DVal::Const(1));
    let coord_value = coord_tree(&plan.shape, &|k| ccoords[k].clone().unwrap_or_else(|| quote!(0)));
    let cparam = if ccoords.iter().any(Option::is_some) { index.to_token_stream() } else { quote!(_) };

    let for_each = nest(plan);
    let summary = format!(
        " The dynamic layout `{}` over the run-time integers {}: build it with `new`, which checks {}.",
        plan.notation,
        plan.symbols.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "),
        if plan.conds.is_empty() {
            "that they are positive and that every offset fits in `isize`".to_string()
        } else {
            format!(
                "that they are positive, {}, and that every offset fits in `isize`",
                plan.conds.iter().map(|(c, _)| format!("`{c}`")).collect::<Vec<_>>().join(", ")
            )
        }
    );
    let separator = own.iter().any(|a| a.path().is_ident("doc")).then(|| quote!(#[doc = ""]));
    let (rank, depth) = (Literal::usize_unsuffixed(plan.rank), Literal::usize_unsuffixed(plan.depth));
    let getters = sym_fields.iter().zip(&plan.symbols).enumerate().map(|(k, (f, s))| {
        let doc = format!(" The value of `{s}`.");
        let k = Literal::usize_unsuffixed(k);
        quote!(#[doc = #doc] #[inline] pub const fn #f(&self) -> usize { self.numbers.get(#k) })
    });
    let n_values = Literal::usize_unsuffixed(sym_fields.len() + der_fields.len());
    let self_leaves: Vec<TokenStream> = plan
        .leaves
        .iter()
        .map(|m| {
            let (e, d, neg) = (value(&m.extent, plan), value(&m.stride, plan), m.negative);
            quote!((#e, #d, #neg))
        })
        .collect();
    let contains_pattern = coord_tree(&plan.shape, &|k| local(&format!("c{k}")).to_token_stream());
    let contains_tests: Vec<TokenStream> = plan
        .leaves
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let (c, e) = (local(&format!("c{k}")), value(&m.extent, plan));
            quote!(#c < #e)
        })
        .collect();
    let unit_run = match plan.modes.first() {
        Some(DMode { extent, stride: DVal::Const(1), negative: false }) => value(extent, plan),
        _ => quote!(1),
    };
    let new_doc = format!(" Builds the layout from {}: every check is made here, once.", plan.symbols.join(", "));
    quote! {
        #(#own)*
        #(#shared)*
        #separator
        #[doc = #summary]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name {
            numbers: #p::Numbers<#name, #n_values>,
        }

        #(#shared)*
        #[allow(dead_code, clippy::too_many_arguments)]
        impl #name {
            /// The layout in canonical notation, with its symbols.
            pub const NOTATION: &'static str = #notation;
            /// The symbols, in the order `new` takes them.
            pub const SYMBOLS: &'static [&'static str] = &[#(#sym_names),*];
            /// The number of top-level modes.
            pub const RANK: usize = #rank;
            /// The nesting depth of the shape.
            pub const DEPTH: usize = #depth;

            #[doc = #new_doc]
            pub fn new(#(#sym_fields: usize),*) -> ::core::result::Result<Self, #private::DynamicError> {
                #(#positive)*
                #(#conds)*
                #(#derive)*
                let (min_offset, max_offset, size) = match #p::extremes(&[#(#extent_checks),*]) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return ::core::result::Result::Err(#overflow),
                };
                // SAFETY: `extremes` computed the size and the smallest and largest offsets from
                // these values, over the leaves whose extents and strides the index functions
                // read from them (their coalesced modes give the same offsets).
                let numbers = unsafe {
                    #p::Numbers::new_unchecked([#(#sym_fields,)* #(#der_fields,)*], size, min_offset, max_offset)
                };
                ::core::result::Result::Ok(Self { numbers })
            }

            #(#getters)*

            /// The number of indices, `size(L)` (the product of the extents).
            #[inline]
            pub const fn size(&self) -> usize {
                self.numbers.size()
            }

            /// The smallest offset of the domain (0 unless a stride is negative).
            #[inline]
            pub const fn min_offset(&self) -> isize {
                self.numbers.min_offset()
            }

            /// The largest offset of the domain, `cosize(L) - 1`.
            #[inline]
            pub const fn max_offset(&self) -> isize {
                self.numbers.max_offset()
            }

            /// Whether every component of a natural coordinate is below the extent of its mode.
            #[inline]
            pub const fn contains(&self, #contains_pattern: #coord_ty) -> bool {
                #(#contains_tests)&&*
            }

            /// The offset of index `index` (one split per mode: a shift and mask for a static
            /// power of two, a division by a field for a dynamic extent).
            #[inline]
            pub const fn offset(&self, #param: usize) -> #off {
                #stmts
                #offset_body
            }

            /// The offset of a natural coordinate.
            #[inline]
            pub const fn offset_of(&self, #pattern: #coord_ty) -> #off {
                #offset_of_body
            }

            /// The natural coordinate of index `index`.
            #[inline]
            pub const fn coord(&self, #cparam: usize) -> #coord_ty {
                #cstmts
                #coord_value
            }

            /// Calls `f` with the offset of every index in order, as a loop nest over the
            /// coalesced modes.
            #[inline]
            #for_each

            /// The layout-core layout with the numbers in.
            pub fn to_layout(&self) -> #private::Layout {
                #p::to_layout(Self::NOTATION, &[#(#self_leaves),*])
            }
        }

        #(#shared)*
        #[automatically_derived]
        impl ::core::fmt::Display for #name {
            /// The layout with the numbers in, in canonical notation.
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Display::fmt(&self.to_layout(), f)
            }
        }

        // SAFETY (of the emitted impl): the numbers are a `Numbers<Self, _>`, which only `new`
        // makes (its constructor is unsafe, its fields private), with the extremes `extremes`
        // computed from the values the index functions read; the unit run is the extent of a
        // first coalesced mode of stride 1, the injectivity test is that of the leaves, and
        // `contains` compares each leaf coordinate with the leaf's extent, so a coordinate it
        // accepts is that of an index, whose `offset_of` is the index's offset.
        #(#shared)*
        #[automatically_derived]
        unsafe impl #private::TrustedLayout for #name {
            const __TRUSTED: () = ();
        }

        #(#shared)*
        #[automatically_derived]
        impl #private::LayoutFn for #name {
            type Offset = #off;
            type Coord = #coord_ty;
            #[inline]
            fn size(&self) -> usize { #name::size(self) }
            #[inline]
            fn offset(&self, index: usize) -> #off { #name::offset(self, index) }
            #[inline]
            fn offset_of(&self, coord: #coord_ty) -> #off { #name::offset_of(self, coord) }
            #[inline]
            fn coord(&self, index: usize) -> #coord_ty { #name::coord(self, index) }
            #[inline]
            fn for_each_offset<F: FnMut(#off)>(&self, f: F) { #name::for_each_offset(self, f) }
            #[inline]
            fn contains(&self, coord: #coord_ty) -> bool { #name::contains(self, coord) }
            #[inline]
            fn unit_run(&self) -> usize { #unit_run }
            #[inline]
            fn min_offset(&self) -> isize { self.numbers.min_offset() }
            #[inline]
            fn max_offset(&self) -> isize { self.numbers.max_offset() }
            fn is_injective(&self) -> bool { #p::injective(&[#(#self_leaves),*]) }
            fn to_layout(&self) -> #private::Layout { #name::to_layout(self) }
        }
    }
}

/// `c * stride` in the offset type.
fn term(c: &TokenStream, m: &DMode, plan: &DynPlan) -> TokenStream {
    let c = if plan.signed { quote!((#c as isize)) } else { c.clone() };
    let t = match &m.stride {
        DVal::Const(1) => c,
        DVal::Const(k) => {
            let k = lit(*k);
            quote!(#c * #k)
        }
        s => {
            let v = value(s, plan);
            let v = if plan.signed { quote!((#v as isize)) } else { v };
            quote!(#c * #v)
        }
    };
    if m.negative { quote!(- #t) } else { quote!(+ #t) }
}

fn sum(terms: &[TokenStream], signed: bool) -> TokenStream {
    if terms.is_empty() {
        return quote!(0);
    }
    let zero = if signed { quote!(0isize) } else { quote!(0usize) };
    // Leading `+` terms are fine after a zero; the optimizer drops it.
    let pos: Vec<&TokenStream> = terms.iter().filter(|t| t.to_string().starts_with('+')).collect();
    let neg: Vec<&TokenStream> = terms.iter().filter(|t| !t.to_string().starts_with('+')).collect();
    match pos.split_first() {
        Some((first, rest)) => {
            let first: TokenStream = (*first).clone().into_iter().skip(1).collect();
            quote!(#first #(#rest)* #(#neg)*)
        }
        None => quote!(#zero #(#neg)*),
    }
}

/// Splits the running index at the modes: one coordinate and one quotient per mode, the
/// last mode unreduced; a static power of two is a mask and a shift.
fn split(
    modes: &[DMode],
    plan: &DynPlan,
    index: &Ident,
    needed: &dyn Fn(&DMode) -> bool,
) -> (TokenStream, Vec<Option<TokenStream>>) {
    let last_needed = modes.iter().rposition(needed);
    let mut stmts = TokenStream::new();
    let mut coords = vec![None; modes.len()];
    let Some(last_needed) = last_needed else { return (stmts, coords) };
    let last = modes.len() - 1;
    for (k, m) in modes.iter().enumerate().take(last_needed + 1) {
        let c = format_ident!("c{}", k, span = Span::mixed_site());
        let more = k < last_needed;
        let use_c = needed(m);
        if k == last {
            coords[k] = Some(index.to_token_stream());
            continue;
        }
        match &m.extent {
            DVal::Const(1) => continue,
            DVal::Const(n) if n.is_power_of_two() => {
                let (mask, shift) = (lit(n - 1), Literal::u32_unsuffixed(n.trailing_zeros()));
                if use_c {
                    stmts.extend(quote!(let #c = #index & #mask;));
                }
                if more {
                    stmts.extend(quote!(let #index = #index >> #shift;));
                }
            }
            e => {
                let n = value(e, plan);
                if use_c {
                    stmts.extend(quote!(let #c = #index % #n;));
                }
                if more {
                    stmts.extend(quote!(let #index = #index / #n;));
                }
            }
        }
        if use_c {
            coords[k] = Some(c.to_token_stream());
        }
    }
    (stmts, coords)
}

/// The traversal: a loop nest over the coalesced modes, innermost first. The run-time
/// extents and strides are read into locals first (the closure's writes could otherwise
/// force a reload of the fields at every step).
fn nest(plan: &DynPlan) -> TokenStream {
    let off = if plan.signed { quote!(isize) } else { quote!(usize) };
    let f = local("f");
    let zero = if plan.signed { quote!(0isize) } else { quote!(0usize) };
    let modes: Vec<&DMode> = plan.modes.iter().filter(|m| m.extent != DVal::Const(1)).collect();
    if modes.is_empty() {
        return quote!(pub fn for_each_offset<F: FnMut(#off)>(&self, mut #f: F) { #f(#zero) });
    }
    let mut hoisted = TokenStream::new();
    let mut hoist = |v: &DVal, name: String| -> DVal {
        if matches!(v, DVal::Const(_)) {
            return v.clone();
        }
        let x = local(&name);
        let val = value(v, plan);
        hoisted.extend(quote!(let #x = #val;));
        DVal::Const(0)
    };
    // Per mode: the extent and stride tokens (a literal, or a hoisted local).
    let mut parts = Vec::new();
    for (k, m) in modes.iter().enumerate() {
        let e = match hoist(&m.extent, format!("e{k}")) {
            DVal::Const(0) => local(&format!("e{k}")).to_token_stream(),
            v => value(&v, plan),
        };
        let d = match &m.stride {
            DVal::Const(0) => None,
            DVal::Const(c) => Some(lit(*c).to_token_stream()),
            v => {
                hoist(v, format!("s{k}"));
                Some(local(&format!("s{k}")).to_token_stream())
            }
        };
        parts.push((e, d, m.negative));
    }
    let n = modes.len();
    let base = |k: usize| local(&format!("o{k}"));
    let mut body = TokenStream::new();
    for (k, (extent, stride, negative)) in parts.iter().enumerate() {
        let counter = local(&format!("k{k}"));
        let outer = if k + 1 < n { base(k + 1).to_token_stream() } else { zero.clone() };
        let here = match stride {
            None => outer,
            Some(d) => {
                let (c, d) = if plan.signed {
                    (quote!((#counter as isize)), quote!((#d as isize)))
                } else {
                    (counter.to_token_stream(), d.clone())
                };
                let t = if d.to_string() == "1" { c } else { quote!(#c * #d) };
                if *negative { quote!(#outer - #t) } else { quote!(#outer + #t) }
            }
        };
        let pat = if stride.is_none() { quote!(_) } else { counter.to_token_stream() };
        body = if k == 0 {
            quote!(for #pat in 0..#extent { #f(#here); })
        } else {
            let o = base(k);
            quote!(for #pat in 0..#extent { let #o = #here; #body })
        };
    }
    quote! {
        pub fn for_each_offset<F: FnMut(#off)>(&self, mut #f: F) {
            #hoisted
            #body
        }
    }
}

/// An edge tiling item (`pub Tiles = local_tile_edge(Mat, [8:1, 8:1]);`): the tiled layout
/// (emitted as a hidden dynamic struct whose `new` makes every check) and the modes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgePlan {
    /// The plan of the tiled layout.
    pub parent: DynPlan,
    /// The description printed as `NOTATION`.
    pub notation: String,
    /// Per mode: A's extent and stride (monomials of the symbols) and the static tile extent
    /// (`None` for `_`: the whole mode).
    pub modes: Vec<(SymInt, SymInt, Option<u64>)>,
}

impl EdgePlan {
    /// The plan of an edge tiling from layout-core's.
    pub fn new(e: &layout_core::dynamic::EdgeTiles) -> Result<EdgePlan, String> {
        Ok(EdgePlan {
            parent: DynPlan::new(&e.layout)?,
            notation: e.to_string(),
            modes: e.modes.iter().map(|m| (m.extent.clone(), m.stride.clone(), m.tile.map(|t| t as u64))).collect(),
        })
    }
}

/// The hidden struct of the tiled layout, the edge tiling struct (which dereferences to
/// `cute_layout::EdgeTiles<R>`) and its constructor.
pub fn edge_items(target: &Target, plan: &EdgePlan) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let private = private();
    let p = quote!(#private::dynamic);
    let (shared, own) = split_attrs(attrs);
    let parent = format_ident!("__{}Layout", name);
    let shared_owned: Vec<syn::Attribute> = shared.iter().map(|a| (*a).clone()).collect();
    let parent_items = items(&Target { attrs: &shared_owned, vis: vis.clone(), name: parent.clone() }, &plan.parent);
    let sym_fields: Vec<Ident> = plan.parent.symbols.iter().map(|s| field_of_symbol(s)).collect();
    let sym_names: Vec<Literal> = plan.parent.symbols.iter().map(|s| Literal::string(s)).collect();
    let rank = Literal::usize_unsuffixed(plan.modes.len());
    let extents = plan.modes.iter().map(|(n, _, _)| mono(n, &p));
    let strides = plan.modes.iter().map(|(_, d, _)| mono(d, &p));
    let tile = plan.modes.iter().map(|(_, _, t)| lit(t.unwrap_or(0)));
    // The tile extents at run time: TILE, or with the mode's extent where the tiler has `_`.
    let tile_now = if plan.modes.iter().all(|(_, _, t)| t.is_some()) {
        quote!(Self::TILE)
    } else {
        let each = plan.modes.iter().enumerate().map(|(k, (n, _, t))| match t {
            Some(_) => {
                let k = Literal::usize_unsuffixed(k);
                quote!(Self::TILE[#k])
            }
            None => {
                let n = mono(n, &p);
                quote!(#p::int(#n)?)
            }
        });
        quote!([#(#each),*])
    };
    let notation = Literal::string(&plan.notation);
    let overflow = quote!(#p::overflow(Self::NOTATION, &[#(#sym_names),*], &[#(#sym_fields),*]));
    let summary = format!(
        " `{}`: the tiles of a dynamic layout by a static tile that need not divide it. Build it with `new` \
         (the checks of the tiled layout); it dereferences to `cute_layout::EdgeTiles`, which gives the number of \
         tiles, each tile's base and the extents of the elements that exist.",
        plan.notation
    );
    let separator = own.iter().any(|a| a.path().is_ident("doc")).then(|| quote!(#[doc = ""]));
    let new_doc =
        format!(" Builds the tiling from {}: every check is made here, once.", plan.parent.symbols.join(", "));
    quote! {
        #(#shared)*
        #[doc(hidden)]
        #parent_items

        #(#own)*
        #(#shared)*
        #separator
        #[doc = #summary]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name {
            layout: #parent,
            tiles: #private::EdgeTiles<#rank>,
        }

        #(#shared)*
        #[allow(dead_code, clippy::too_many_arguments)]
        impl #name {
            /// The tiling, in words.
            pub const NOTATION: &'static str = #notation;
            /// The symbols, in the order `new` takes them.
            pub const SYMBOLS: &'static [&'static str] = &[#(#sym_names),*];
            /// The full tile's extents; 0 for a mode the tiler leaves `_` (the whole mode: its
            /// extent, known at run time, is the tile's, see `tile_shape()`).
            pub const TILE: [usize; #rank] = [#(#tile),*];

            #[doc = #new_doc]
            pub fn new(#(#sym_fields: usize),*) -> ::core::result::Result<Self, #private::DynamicError> {
                let layout = #parent::new(#(#sym_fields),*)?;
                let tiles = (|| {
                    #private::EdgeTiles::new([#(#p::int(#extents)?),*], [#(#p::int(#strides)?),*], #tile_now)
                })();
                match tiles {
                    ::core::option::Option::Some(tiles) => ::core::result::Result::Ok(Self { layout, tiles }),
                    ::core::option::Option::None => ::core::result::Result::Err(#overflow),
                }
            }

            /// The tiled layout (a dynamic layout with the same numbers).
            #[inline]
            pub const fn layout(&self) -> &#parent {
                &self.layout
            }

            /// The tiling (also reachable through `Deref`).
            #[inline]
            pub const fn tiles(&self) -> &#private::EdgeTiles<#rank> {
                &self.tiles
            }
        }

        #(#shared)*
        #[automatically_derived]
        impl ::core::ops::Deref for #name {
            type Target = #private::EdgeTiles<#rank>;
            #[inline]
            fn deref(&self) -> &Self::Target {
                &self.tiles
            }
        }
    }
}
