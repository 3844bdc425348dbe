//! Emission of a kernel item over layouts with symbols: `NAME`, which panics at the caller's
//! line, and `try_NAME`, which returns the error; both take tensors over the operands' items.
//! The body checks that shared symbols agree, then runs the facade's run-time kernel with a
//! per-thread plan that is made again only when a layout value changes.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::expand::{Target, private, split_attrs};
use crate::kernel::dynamic::{DynKernel, DynKind};
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
    let checks = k.shared.iter().map(|(s, i, j)| {
        let getter = format_ident!("{}", s.to_lowercase());
        let symbol = Literal::string(s);
        let side = |n: usize| {
            let (v, o) = (&params[n], &k.operands[n]);
            let (role, item) = (Literal::string(o.role), Literal::string(&o.name.to_string()));
            quote!((#role, #item, #v.layout().#getter()))
        };
        let (x, y) = (side(*i), side(*j));
        quote!(#p::same_symbol(#kernel, #symbol, #x, #y)?;)
    });
    let checks: Vec<TokenStream> = checks.collect();
    let with = match k.kind {
        DynKind::Gemm(scalar) => super::expand_gemm_with::dyn_with_fns(target, k, scalar, &checks),
        DynKind::Copy => TokenStream::new(),
    };
    let list = |f: &dyn Fn(&crate::kernel::dynamic::DynOperand) -> String| {
        k.operands.iter().map(f).collect::<Vec<_>>().join(", ")
    };
    let shared_doc = if k.shared.is_empty() {
        String::new()
    } else {
        let mut names: Vec<&str> = k.shared.iter().map(|(s, _, _)| s.as_str()).collect();
        names.dedup();
        format!(
            " The symbols {} are shared: each must have one value in every operand that has it.",
            names.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        )
    };
    let cache = local("PLAN");
    let (signature, try_signature, call, head): (TokenStream, TokenStream, TokenStream, String) = match k.kind {
        DynKind::Copy => {
            let (s, d) = (ops[0], ops[1]);
            let (src, dst) = (&params[0], &params[1]);
            let args = quote! {
                <T: #facade::kernels::Element>(#src: &#facade::Tensor<'_, T, #s>, #dst: &mut #facade::TensorMut<'_, T, #d>)
            };
            (
                quote!(#args),
                quote!(#args -> ::core::result::Result<(), #facade::PlanError>),
                quote! {
                    ::std::thread_local! {
                        static #cache: #p::CopyCache<#s, #d> = const { ::core::cell::RefCell::new(::core::option::Option::None) };
                    }
                    #p::copy_cached(&#cache, #src, #dst)
                },
                format!(
                    " Copies a tensor over `{}` into a tensor over `{}`: `dst[D(i)] = src[S(i)]` for every index `i`.",
                    k.operands[0].name, k.operands[1].name
                ),
            )
        }
        DynKind::Gemm(scalar) => {
            let t = match scalar {
                Scalar::F32 => quote!(f32),
                Scalar::F64 => quote!(f64),
            };
            let (la, lb, lc) = (ops[0], ops[1], ops[2]);
            let (a, b, c) = (&params[0], &params[1], &params[2]);
            let (alpha, beta) = (local("alpha"), local("beta"));
            let args = quote! {
                (#alpha: #t, #a: &#facade::Tensor<'_, #t, #la>, #b: &#facade::Tensor<'_, #t, #lb>, #beta: #t,
                 #c: &mut #facade::TensorMut<'_, #t, #lc>)
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
                    k.operands[0].name, k.operands[1].name, k.operands[2].name
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
    let generic = match k.kind {
        DynKind::Copy => quote!(::<T>),
        DynKind::Gemm(_) => TokenStream::new(),
    };
    let layouts = format!(" The layouts: {}.", list(&|o| format!("`{}` = `{}`", o.name, o.notation)));
    let planned = match crate::kernel::dyn_plan::gemm_tile(k) {
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
    let panics = format!(
        " At the caller's line, with the message of the error [`{try_name}`] returns: a shared symbol \
         with two values, or layouts the plan rejects (sizes that differ, a destination that writes one place twice)."
    );
    let try_doc = format!(" `{name}`, with the error returned instead of a panic.");
    quote! {
        #(#own)*
        #(#shared_attrs)*
        #[doc = #head]
        #[doc = ""]
        #[doc = #layouts]
        #[doc = #shared_doc]
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
