//! Emission of the fused forms of GEMM items: `NAME_with(alpha, a, b, beta, c, f)` next to
//! each static `gemm` item, and `NAME_with` / `try_NAME_with` next to each `gemm` item over
//! layouts with symbols. `f(x, m, n)` (`f(x, m, n, l)` for an item with a batch mode) gets
//! each final element of C and its indices and returns what is stored; the facade applies it
//! on each finished tile of C.

use layout_plan::{GemmLeaf, GemmPlan};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::expand::{Target, private, split_attrs};
use crate::kernel::dynamic::DynKernel;
use crate::kernel::expand_copy::{local, usize_lit};
use crate::kernel::gemm::Scalar;

/// The epilogue's type: `Fn(T, usize, usize) -> T + Sync`, with a batch index when `batched`.
fn closure_bound(t: &TokenStream, batched: bool) -> TokenStream {
    if batched {
        quote!(::core::ops::Fn(#t, usize, usize, usize) -> #t + ::core::marker::Sync)
    } else {
        quote!(::core::ops::Fn(#t, usize, usize) -> #t + ::core::marker::Sync)
    }
}

/// The contract of `f`, for the docs.
fn contract(name: &Ident, batched: bool) -> Vec<String> {
    let (args, batch) = if batched { ("x, m, n, l", ", `l` the batch index") } else { ("x, m, n", "") };
    vec![
        format!(" [`{name}`] with an epilogue fused: stores `C(m,n) = f({args})` where"),
        format!(
            " `x = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` and `m`, `n` are the indices in C's M and N modes{batch}."
        ),
        " `f` is called exactly once per element of C, on each finished tile of C while it is in L1 (never as a".into(),
        " second sweep over C), possibly from several threads and in no particular order. `beta = 0` does not read"
            .into(),
        " C; `alpha = 0` reads neither A nor B.".into(),
    ]
}

/// `NAME_with` of a static GEMM item: the item's operands (`bounds`, `operands`) and its
/// kernel loops with the epilogue.
pub fn with_fn(
    target: &Target,
    plan: &GemmPlan,
    t: &TokenStream,
    bounds: &TokenStream,
    operands: &TokenStream,
) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let (shared, _) = split_attrs(attrs);
    let p = private();
    let with_name = format_ident!("{}_with", name, span = name.span());
    let (a, b, c, f) = (local("a"), local("b"), local("c"), local("f"));
    let (alpha, beta) = (local("alpha"), local("beta"));
    let batched = plan.c.rank() == 3;
    let bound = closure_bound(t, batched);
    let doc = contract(name, batched);
    let body = super::expand_gemm::kernel_loops(plan, t, true);
    let wrap = if batched { quote!(let #f = #p::Batched(#f);) } else { TokenStream::new() };
    quote! {
        #(#shared)*
        #(#[doc = #doc])*
        #[allow(dead_code)]
        #vis fn #with_name<SA, SB, SC, F>(#alpha: #t, #a: SA, #b: SB, #beta: #t, #c: SC, #f: F)
        where
            #bounds
            F: #bound,
        {
            #operands
            #wrap
            #body
        }
    }
}

/// The weight of each leaf of a dimension in its index (the product of the extents before
/// it), the kernel's leaf first, then the others in order.
fn weights(leaves: &[GemmLeaf]) -> (i64, Vec<i64>) {
    let (kernel, _) = GemmPlan::split(leaves);
    let mut all = Vec::new();
    let mut w = 1i64;
    for l in leaves {
        all.push(w);
        w = w.saturating_mul(l.extent);
    }
    match leaves.iter().position(|l| *l == kernel) {
        Some(at) => {
            let k = all.remove(at);
            (k, all)
        }
        None => (1, all),
    }
}

/// The epilogue argument of the kernel call inside the loops `loops` (batch, M, N, K leaves
/// in that order, as `kernel_loops` makes them): `Some((&f, At { .. }))` on the last point of
/// the K loops, `None` before.
pub fn epilogue_arg(plan: &GemmPlan, loops: &[(Ident, GemmLeaf, bool)]) -> TokenStream {
    let p = private();
    let f = local("f");
    let (mw, m_rest) = weights(&plan.m_leaves);
    let (nw, n_rest) = weights(&plan.n_leaves);
    let mut batch_w = Vec::new();
    let mut w = 1i64;
    for l in &plan.batch_leaves {
        batch_w.push(w);
        w = w.saturating_mul(l.extent);
    }
    let vars: Vec<&Ident> = loops.iter().map(|(v, _, _)| v).collect();
    let (lb, rest) = vars.split_at(batch_w.len());
    let (mb, rest) = rest.split_at(m_rest.len());
    let (nb, kb) = rest.split_at(n_rest.len());
    let sum = |vs: &[&Ident], ws: &[i64]| {
        let terms = vs.iter().zip(ws).map(|(v, w)| {
            let w = usize_lit(*w);
            quote!(+ (#v as usize) * #w)
        });
        quote!(0usize #(#terms)*)
    };
    let (l0, m0, n0) = (sum(lb, &batch_w), sum(mb, &m_rest), sum(nb, &n_rest));
    let (ms, ns) = (usize_lit(mw), usize_lit(nw));
    let last = loops[loops.len() - kb.len()..].iter().map(|(v, l, _)| {
        let e = usize_lit(l.extent - 1);
        quote!(#v == #e)
    });
    let last: Vec<TokenStream> = last.collect();
    let place = quote!((&#f, #p::At { m0: #m0, ms: #ms, n0: #n0, ns: #ns, l: #l0 }));
    if last.is_empty() {
        quote!(::core::option::Option::Some(#place))
    } else {
        quote!(if #(#last)&&* { ::core::option::Option::Some(#place) } else { ::core::option::Option::None })
    }
}

/// `NAME_with` and `try_NAME_with` of a GEMM item over layouts with symbols: `checks` are the
/// shared-symbol checks of `try_NAME`; the run-time plan is kept per thread as `NAME`'s.
pub fn dyn_with_fns(
    target: &Target,
    k: &DynKernel,
    scalar: Scalar,
    checks: &[TokenStream],
    types: &[TokenStream],
    generics: &[TokenStream],
) -> TokenStream {
    let facade = crate::expand::facade();
    let p = private();
    let Target { attrs, vis, name } = target;
    let (shared, _) = split_attrs(attrs);
    let with_name = format_ident!("{}_with", name, span = name.span());
    let try_with = format_ident!("try_{}_with", name, span = name.span());
    let t = match scalar {
        Scalar::F32 => quote!(f32),
        Scalar::F64 => quote!(f64),
    };
    let (la, lb, lc) = (&k.operands[0].name, &k.operands[1].name, &k.operands[2].name);
    let (a, b, c, f) = (local("a"), local("b"), local("c"), local("f"));
    let (alpha, beta, cache) = (local("alpha"), local("beta"), local("PLAN"));
    let bound = closure_bound(&t, k.batched);
    let (ta, tb, tc) = (&types[0], &types[1], &types[2]);
    let args = quote! {
        <F: #bound #(, #generics)*>(#alpha: #t, #a: &#facade::Tensor<'_, #t, #ta>, #b: &#facade::Tensor<'_, #t, #tb>, #beta: #t,
         #c: &mut #facade::TensorMut<'_, #t, #tc>, #f: F)
    };
    let e = if k.batched { quote!(&#p::Batched(#f)) } else { quote!(&#f) };
    let doc = contract(name, k.batched);
    let panics = format!(" As [`{name}`]; [`{try_with}`] returns the error.");
    let try_doc = format!(" `{with_name}`, with the error returned instead of a panic.");
    quote! {
        #(#shared)*
        #(#[doc = #doc])*
        #[doc = ""]
        #[doc = " # Panics"]
        #[doc = #panics]
        #[track_caller]
        #[allow(dead_code)]
        #vis fn #with_name #args {
            if let ::core::result::Result::Err(e) = #try_with(#alpha, #a, #b, #beta, #c, #f) {
                #p::kernel_failed(e)
            }
        }

        #(#shared)*
        #[doc = #try_doc]
        #[allow(dead_code)]
        #vis fn #try_with #args -> ::core::result::Result<(), #facade::PlanError> {
            #(#checks)*
            ::std::thread_local! {
                static #cache: #p::GemmCache<#la, #lb, #lc> = const { ::core::cell::RefCell::new(::core::option::Option::None) };
            }
            #p::gemm_cached_with(&#cache, #alpha, #a, #b, #beta, #c, #e)
        }
    }
}
