//! Emission of a kernel item over layouts with symbols: `NAME`, which panics at the caller's
//! line, and `try_NAME`, which returns the error; both take tensors over the operands' items,
//! or of any trusted layout for an operand written inline. The body reads the symbols of the
//! inline operands from their tensors' layouts, checks that shared symbols agree, views each
//! inline operand's tensor through its pattern's hidden item (checked to be its layout), then
//! runs the facade's run-time kernel with a per-thread plan that is made again only when a
//! layout value changes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::expand::{Target, private, split_attrs};
use crate::kernel::dynamic::{DynKernel, DynKind, InlinePlan, Site};
use crate::kernel::expand_copy::local;
use crate::kernel::gemm::Scalar;

/// `NAME` and `try_NAME`.
pub fn kernel_fns(target: &Target, k: &DynKernel) -> TokenStream {
    let facade = crate::expand::facade();
    let p = private();
    let Target { attrs, vis, name } = target;
    let (shared_attrs, own) = split_attrs(attrs);
    let try_name = format_ident!("try_{}", name, span = name.span());
    let kernel = Literal::string(&name.to_string());
    let ops: Vec<_> = k.operands.iter().map(|o| &o.name).collect();
    let params: Vec<_> = match k.kind {
        DynKind::Copy => vec![local("src"), local("dst")],
        DynKind::Gemm(_) => vec![local("a"), local("b"), local("c")],
    };
    let inline = inline_prelude(k, &params, &kernel);
    let checks = vec![inline.prelude.clone()];
    let with = match k.kind {
        DynKind::Gemm(scalar) => {
            super::expand_gemm_with::dyn_with_fns(target, k, scalar, &checks, &inline.types, &inline.generics)
        }
        DynKind::Copy => TokenStream::new(),
    };
    let cache = local("PLAN");
    let (signature, try_signature, call, head): (TokenStream, TokenStream, TokenStream, String) = match k.kind {
        DynKind::Copy => {
            let (s, d) = (ops[0], ops[1]);
            let (ts, td) = (&inline.types[0], &inline.types[1]);
            let (src, dst) = (&params[0], &params[1]);
            let g = &inline.generics;
            let args = quote! {
                <T: #facade::kernels::Element #(, #g)*>(#src: &#facade::Tensor<'_, T, #ts>, #dst: &mut #facade::TensorMut<'_, T, #td>)
            };
            (
                quote!(#args),
                quote!(#args -> ::core::result::Result<(), #facade::PlanError>),
                {
                    let overlapping = k.overlapping;
                    let planned = quote! {
                        ::std::thread_local! {
                            static #cache: #p::CopyCache<#s, #d> = const { ::core::cell::RefCell::new(::core::option::Option::None) };
                        }
                        #p::copy_cached(&#cache, #src, #dst, #overlapping)
                    };
                    match crate::kernel::dyn_copy_plan::copy_shape(k) {
                        Some(shape) => {
                            crate::kernel::dyn_copy_plan::copy_call(k, shape, [src, dst], &facade, &p, planned)
                        }
                        None => planned,
                    }
                },
                format!(
                    " Copies a tensor over `{}` into a tensor over `{}`: `dst[D(i)] = src[S(i)]` for every index `i`{}",
                    shown(&k.operands[0]),
                    shown(&k.operands[1]),
                    if k.overlapping {
                        " in index order: where the destination writes a place more than once, the last write wins."
                    } else {
                        "."
                    }
                ),
            )
        }
        DynKind::Gemm(scalar) => {
            let t = match scalar {
                Scalar::F32 => quote!(f32),
                Scalar::F64 => quote!(f64),
            };
            let (la, lb, lc) = (ops[0], ops[1], ops[2]);
            let (ta, tb, tc) = (&inline.types[0], &inline.types[1], &inline.types[2]);
            let (a, b, c) = (&params[0], &params[1], &params[2]);
            let (alpha, beta) = (local("alpha"), local("beta"));
            let g = &inline.generics;
            let args = quote! {
                <#(#g),*>(#alpha: #t, #a: &#facade::Tensor<'_, #t, #ta>, #b: &#facade::Tensor<'_, #t, #tb>, #beta: #t,
                 #c: &mut #facade::TensorMut<'_, #t, #tc>)
            };
            (
                quote!(#args),
                quote!(#args -> ::core::result::Result<(), #facade::PlanError>),
                match crate::kernel::dyn_plan::gemm_tile(k) {
                    Some(ext) => crate::kernel::dyn_plan::tile_call(
                        k,
                        ext,
                        &t,
                        [la, lb, lc],
                        [&alpha, a, b, &beta, c],
                        &facade,
                        &p,
                    ),
                    None => {
                        let planned = quote! {
                            ::std::thread_local! {
                                static #cache: #p::GemmCache<#la, #lb, #lc> = const { ::core::cell::RefCell::new(::core::option::Option::None) };
                            }
                            #p::gemm_cached(&#cache, #alpha, #a, #b, #beta, #c)
                        };
                        match crate::kernel::dyn_plan::gemm_direct(k) {
                            Some(ext) => crate::kernel::dyn_plan::direct_call(
                                k,
                                &ext,
                                [&alpha, a, b, &beta, c],
                                &facade,
                                &p,
                                planned,
                            ),
                            None => planned,
                        }
                    }
                },
                format!(
                    " `C = alpha·A·Bᵀ + beta·C` over tensors of A = `{}` (M,K), B = `{}` (N,K), C = `{}` (M,N): \
                     `C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)`; `beta = 0` does not read C.",
                    shown(&k.operands[0]),
                    shown(&k.operands[1]),
                    shown(&k.operands[2])
                ),
            )
        }
    };
    let forward: Vec<TokenStream> = match k.kind {
        DynKind::Copy => params.iter().map(|v| quote!(#v)).collect(),
        DynKind::Gemm(_) => {
            let (alpha, beta) = (local("alpha"), local("beta"));
            let (a, b, c) = (&params[0], &params[1], &params[2]);
            vec![quote!(#alpha), quote!(#a), quote!(#b), quote!(#beta), quote!(#c)]
        }
    };
    let generic = TokenStream::new();
    let [layouts, shared_doc, inline_doc, planned] = describe(k);
    let inline_doc: Vec<String> = Some(inline_doc).filter(|d| !d.is_empty()).into_iter().collect();
    let panics = format!(
        " At the caller's line, with the message of the error [`{try_name}`] returns: a shared symbol \
         with two values, {}or layouts the plan rejects ({}).",
        if k.operands.iter().any(|o| o.inline.is_some()) {
            "a tensor whose layout is not its inline operand's pattern, "
        } else {
            ""
        },
        if k.overlapping {
            "sizes that differ"
        } else {
            "sizes that differ, a destination that writes one place twice"
        }
    );
    let try_doc = format!(" `{name}`, with the error returned instead of a panic.");
    quote! {
        #(#own)*
        #(#shared_attrs)*
        #[doc = #head]
        #[doc = ""]
        #[doc = #layouts]
        #[doc = #shared_doc]
        #(#[doc = #inline_doc])*
        #[doc = #planned]
        #[doc = ""]
        #[doc = " # Panics"]
        #[doc = #panics]
        #[track_caller]
        #[allow(dead_code)]
        #vis fn #name #signature {
            if let ::core::result::Result::Err(e) = #try_name #generic(#(#forward),*) {
                #p::kernel_failed(e)
            }
        }

        #(#shared_attrs)*
        #[doc = #try_doc]
        #[allow(dead_code)]
        #vis fn #try_name #try_signature {
            #(#checks)*
            #call
        }

        #with
    }
}

/// What the inline operands add to the functions: the signature's type of each operand's
/// tensor (the item, or a generic parameter for an inline operand), the generic parameters,
/// and the prelude of the body (every shared symbol checked, each inline operand's tensor
/// viewed through its hidden item).
pub struct InlineParts {
    pub types: Vec<TokenStream>,
    pub generics: Vec<TokenStream>,
    pub prelude: TokenStream,
}

/// The prelude over the parameters `params` (one per operand) of the kernel item `kernel`.
pub fn inline_prelude(k: &DynKernel, params: &[proc_macro2::Ident], kernel: &Literal) -> InlineParts {
    let facade = crate::expand::facade();
    let p = private();
    let mut types = Vec::new();
    let mut generics = Vec::new();
    let mut read = Vec::new();
    // The value of symbol `s` in operand `i`: `Option<usize>`.
    let value = |i: usize, s: &str| -> TokenStream {
        let o = &k.operands[i];
        let v = &params[i];
        match &o.inline {
            Some(_) => {
                let local = local(&format!("__{i}_{}", s.to_lowercase()));
                quote!(#local)
            }
            None => {
                let getter = format_ident!("{}", s.to_lowercase());
                quote!(::core::option::Option::Some(#v.layout().#getter()))
            }
        }
    };
    let label = |o: &crate::kernel::dynamic::DynOperand| match &o.inline {
        Some(i) => Literal::string(&i.pattern),
        None => Literal::string(&o.name.to_string()),
    };
    for (i, o) in k.operands.iter().enumerate() {
        let Some(inl) = &o.inline else {
            let name = &o.name;
            types.push(quote!(#name));
            continue;
        };
        let g = local(&format!("__L{i}"));
        generics.push(quote!(#g: #facade::TrustedLayout));
        types.push(quote!(#g));
        let (v, role, pattern) = (&params[i], Literal::string(o.role), Literal::string(&inl.pattern));
        let found = local(&format!("__found{i}"));
        let n = Literal::usize_unsuffixed(inl.leaves);
        read.push(quote!(let #found = #p::found(#kernel, #role, #pattern, #n, #v.layout())?;));
        for (s, sites) in o.symbols.iter().zip(&inl.sites) {
            let sites = sites.iter().map(|site| match *site {
                Site::Extent(k) => {
                    let k = Literal::usize_unsuffixed(k);
                    quote!(#p::Site::Extent(#k))
                }
                Site::Stride(k, neg) => {
                    let k = Literal::usize_unsuffixed(k);
                    quote!(#p::Site::Stride(#k, #neg))
                }
            });
            let local = local(&format!("__{i}_{}", s.to_lowercase()));
            read.push(quote!(let #local: ::core::option::Option<usize> = #p::bind(&#found, &[#(#sites),*]);));
        }
    }
    let checks = k.shared.iter().map(|(s, i, j)| {
        let symbol = Literal::string(s);
        let side = |n: usize| {
            let o = &k.operands[n];
            let (role, item, v) = (Literal::string(o.role), label(o), value(n, s));
            quote!((#role, #item, #v))
        };
        let (x, y) = (side(*i), side(*j));
        if k.operands[*i].inline.is_none() && k.operands[*j].inline.is_none() {
            // Both named: each has the value.
            let named = |n: usize| {
                let o = &k.operands[n];
                let (role, item, v) = (Literal::string(o.role), label(o), &params[n]);
                let getter = format_ident!("{}", s.to_lowercase());
                quote!((#role, #item, #v.layout().#getter()))
            };
            let (x, y) = (named(*i), named(*j));
            return quote!(#p::same_symbol(#kernel, #symbol, #x, #y)?;);
        }
        quote!(#p::same_bound(#kernel, #symbol, #x, #y)?;)
    });
    let mut views = Vec::new();
    for (i, o) in k.operands.iter().enumerate() {
        let Some(inl) = &o.inline else { continue };
        let (v, role, pattern) = (&params[i], Literal::string(o.role), Literal::string(&inl.pattern));
        let hidden = &o.name;
        let allow: syn::Attribute = syn::parse_quote!(#[allow(dead_code, clippy::all)]);
        let attrs = [allow];
        let t = Target { attrs: &attrs, vis: TokenStream::new(), name: hidden.clone() };
        let found = local(&format!("__found{i}"));
        let made = match &inl.plan {
            InlinePlan::Dynamic(plan) => {
                let item = crate::dynamic::items(&t, plan);
                let vals: Vec<TokenStream> = o
                    .symbols
                    .iter()
                    .map(|s| {
                        let others = k
                            .operands
                            .iter()
                            .enumerate()
                            .filter(|&(j, x)| j != i && x.symbols.contains(s))
                            .map(|(j, _)| value(j, s));
                        let own = value(i, s);
                        quote!(#own #(.or(#others))*.unwrap_or(1))
                    })
                    .collect();
                let names = o.symbols.iter().map(|s| Literal::string(s));
                let idents: Vec<proc_macro2::Ident> =
                    o.symbols.iter().map(|s| local(&format!("__v{i}_{}", s.to_lowercase()))).collect();
                quote! {
                    #item
                    #(let #idents: usize = #vals;)*
                    let __made = #p::matched(#kernel, #role, #pattern, &#found, #hidden::new(#(#idents),*), &[#((#names, #idents)),*])?;
                }
            }
            InlinePlan::Static(plan) => {
                let item = crate::expand::items(&t, plan);
                quote! {
                    #item
                    let __made = #p::matched(#kernel, #role, #pattern, &#found, ::core::result::Result::<_, ::core::convert::Infallible>::Ok(#hidden), &[])?;
                }
            }
        };
        let view = local(&format!("__view{i}"));
        let mutable = match k.kind {
            DynKind::Copy => i == 1,
            DynKind::Gemm(_) => i == 2,
        };
        views.push(if mutable {
            quote! {
                #made
                let mut #view = #p::view_mut(#kernel, #role, #pattern, #v, __made)?;
                let #v = &mut #view;
            }
        } else {
            quote! {
                #made
                let #view = #p::view(#kernel, #role, #pattern, #v, __made)?;
                let #v = &#view;
            }
        });
    }
    InlineParts { types, generics, prelude: quote!(#(#read)* #(#checks)* #(#views)*) }
}

/// The documentation of the inline operands.
fn inline_doc(k: &DynKernel) -> String {
    let inline: Vec<_> = k.operands.iter().filter_map(|o| o.inline.as_ref().map(|i| (o, i))).collect();
    if inline.is_empty() {
        return String::new();
    }
    let which = inline.iter().map(|(o, i)| format!("the {} `{}`", o.role, i.pattern)).collect::<Vec<_>>().join(", ");
    format!(
        " For an operand written inline ({which}) the function takes a tensor of any trusted layout (a dynamic or \
         static item, a `RuntimeLayout` of a sub-tensor) whose layout is the pattern for some values of its symbols: \
         each symbol is read from the tensor's leaves (an extent, or a stride of a leaf of extent above 1) and the \
         pattern with those values must have the tensor's leaves, extents and strides, and its nesting (or the \
         tensor's layout is flat). This costs a comparison of layouts per call; a named item does not. `where` \
         facts are only on items."
    )
}

/// What the item's documentation says of the operands and the plan: the layouts, the shared
/// symbols, the inline operands, and what the static parts decided at expansion (also
/// `layout explain`'s text for a kernel over symbols).
pub fn describe(k: &DynKernel) -> [String; 4] {
    let list = |f: &dyn Fn(&crate::kernel::dynamic::DynOperand) -> String| {
        k.operands.iter().map(f).collect::<Vec<_>>().join(", ")
    };
    let shared_doc = if k.shared.is_empty() {
        String::new()
    } else {
        let mut names: Vec<&str> = Vec::new();
        for (s, _, _) in &k.shared {
            if !names.contains(&s.as_str()) {
                names.push(s);
            }
        }
        format!(
            " The symbols {} are shared: each must have one value in every operand that has it.",
            names.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        )
    };
    let layouts = format!(
        " The layouts: {}.",
        list(&|o| match &o.inline {
            Some(i) => format!("the {} written inline, `{}`", o.role, i.pattern),
            None => format!("`{}` = `{}`", o.name, o.notation),
        })
    );
    let inline_doc = inline_doc(k);
    let planned = match crate::kernel::dyn_plan::gemm_tile(k) {
        _ if let Some(shape) = crate::kernel::dyn_copy_plan::copy_shape(k) => {
            crate::kernel::dyn_copy_plan::copy_doc(k, shape)
        }
        Some([m, n, kk]) => format!(
            " The operands' shapes are static: the {m}×{n}×{kk} product runs the straight-line small kernel with \
             these extents as constants, the strides read from the tensors' layouts at each call (no plan to keep)."
        ),
        None if crate::kernel::dyn_plan::gemm_direct(k).is_some() => format!(
            " When M, N and K are at most {}, the product runs the small kernel over run-time extents at once (no \
             plan); larger ones are planned at run time by the same planner as a static item, the plan kept per \
             thread and made again only when a layout changes.",
            crate::kernel::dyn_plan::TILE_MAX
        ),
        None => {
            " Planned at run time from the tensors' layout values by the same planner as a static item, and run by \
                 the same kernels; the plan is kept per thread and made again only when a layout changes."
                .to_string()
        }
    };
    [layouts, shared_doc, inline_doc, planned]
}

/// An operand as the documentation names it: the item, or the pattern written inline.
fn shown(o: &crate::kernel::dynamic::DynOperand) -> String {
    match &o.inline {
        Some(i) => i.pattern.clone(),
        None => o.name.to_string(),
    }
}
