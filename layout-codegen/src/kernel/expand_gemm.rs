//! Emission of a GEMM item: a function `NAME(alpha, a, b, beta, c)` over slices or tensors.
//! The kernel takes one leaf of each of M, N and K; loops over the other leaves (and the batch
//! mode) surround it, and K loops accumulate after their first step. A small kernel (M, N,
//! K ≤ 32) is a straight-line kernel instantiated with every extent and stride as a constant
//! (no packing, no dispatch beyond one cached level); a larger one calls the facade's blocked
//! GEMM.

use layout_plan::{GemmLeaf, GemmPlan};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::expand::{Target, private, split_attrs};
use crate::fallback::KernelStandIn;
use crate::kernel::expand_copy::{isize_lit, local, usize_lit};
use crate::kernel::gemm::{GemmItem, Scalar};

/// The largest extent of each dimension the straight-line small kernel takes (the plan's).
const SMALL: i64 = layout_plan::GEMM_STATIC_MAX;

fn scalar_type(s: Scalar) -> TokenStream {
    match s {
        Scalar::F32 => quote!(f32),
        Scalar::F64 => quote!(f64),
    }
}

/// The GEMM function.
pub fn gemm_fn(target: &Target, item: &GemmItem) -> TokenStream {
    let facade = crate::expand::facade();
    let Target { attrs, vis, name } = target;
    let (shared, own) = split_attrs(attrs);
    let p = private();
    let t = scalar_type(item.scalar);
    let (a, b, c) = (local("a"), local("b"), local("c"));
    let (alpha, beta) = (local("alpha"), local("beta"));
    let layout_type = |op: &crate::kernel::copy::Operand| match &op.name {
        Some(name) => quote!(#name),
        None => quote!(#p::InlineLayout),
    };
    let (la, lb, lc) = (layout_type(&item.a), layout_type(&item.b), layout_type(&item.c));
    let args =
        |op: &crate::kernel::copy::Operand| (isize_lit(op.min), isize_lit(op.max), op.plan.notation().to_string());
    let ((a_min, a_max, a_not), (b_min, b_max, b_not), (c_min, c_max, c_not)) =
        (args(&item.a), args(&item.b), args(&item.c));
    let plan = &item.plan;
    let body = kernel_loops(plan, &t, false);
    let mut doc = vec![
        format!(" `C = alpha·A·Bᵀ + beta·C` over A = `{a_not}` (M,K), B = `{b_not}` (N,K), C = `{c_not}` (M,N):"),
        format!(" `C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)`, M = {}, N = {}, K = {}.", plan.m, plan.n, plan.k),
        " `beta = 0` does not read C. Takes slices (a short one panics) or tensors over the named layouts.".into(),
        String::new(),
        " ```text".into(),
    ];
    doc.extend(plan.to_string().lines().map(|l| format!(" {l}")));
    doc.push(" ```".into());
    let bounds = quote! {
        SA: #facade::CopySource<#t, #la>,
        SB: #facade::CopySource<#t, #lb>,
        SC: #facade::CopyDest<#t, #lc>,
    };
    let operands = quote! {
        let #a = SA::operand(#a, "gemm", "A", #a_min, #a_max, #a_not);
        let #b = SB::operand(#b, "gemm", "B", #b_min, #b_max, #b_not);
        let mut #c = SC::operand(#c, "gemm", "C", #c_min, #c_max, #c_not);
    };
    let with = super::expand_gemm_with::with_fn(target, plan, &t, &bounds, &operands);
    quote! {
        #(#own)*
        #(#shared)*
        #(#[doc = #doc])*
        // No `#[track_caller]`: its location would be a stack argument of every call of the
        // small kernel, so a short slice's panic points at the `layout!` item.
        #[allow(dead_code)]
        #vis fn #name<SA, SB, SC>(#alpha: #t, #a: SA, #b: SB, #beta: #t, #c: SC)
        where
            #bounds
        {
            #operands
            #body
        }

        #with
    }
}

/// A stand-in for a GEMM item that failed: the real signature when the element type is
/// `f32` or `f64` as written (the layout types of named operands included); generic over the
/// element type otherwise.
pub fn gemm_fallback(target: &Target, k: &KernelStandIn) -> TokenStream {
    let facade = crate::expand::facade();
    let Target { attrs, vis, name } = target;
    let (shared, own) = split_attrs(attrs);
    let (la, lb, lc) = (k.layout_type(0), k.layout_type(1), k.layout_type(2));
    let (generic, t) = match &k.scalar {
        Some(t) => (TokenStream::new(), quote!(#t)),
        None => (quote!(T: #facade::kernels::Element,), quote!(T)),
    };
    quote! {
        #(#own)*
        #(#shared)*
        #[allow(dead_code, unused_variables, clippy::all)]
        #vis fn #name<#generic SA, SB, SC>(alpha: #t, a: SA, b: SB, beta: #t, c: SC)
        where
            SA: #facade::CopySource<#t, #la>,
            SB: #facade::CopySource<#t, #lb>,
            SC: #facade::CopyDest<#t, #lc>,
        {
        }
    }
}

/// Loops over the leaves the kernel does not take, around one call of the kernel: the
/// straight-line small kernel (every extent and stride a constant) when M, N and K of the
/// kernel are at most [`SMALL`], else the facade's blocked GEMM. With `with`, the kernel's
/// `_with` form applies the epilogue in the local `f` on the last point of the K loops.
pub(crate) fn kernel_loops(plan: &GemmPlan, t: &TokenStream, with: bool) -> TokenStream {
    let p = private();
    let (m, m_rest) = GemmPlan::split(&plan.m_leaves);
    let (n, n_rest) = GemmPlan::split(&plan.n_leaves);
    let (k, k_rest) = GemmPlan::split(&plan.k_leaves);
    let (a, b, c, alpha, beta) = (local("a"), local("b"), local("c"), local("alpha"), local("beta"));
    let mut loops: Vec<(Ident, GemmLeaf, bool)> = Vec::new();
    let all = plan.batch_leaves.iter().map(|l| (*l, false)).chain(m_rest.iter().map(|l| (*l, false)));
    let all = all.chain(n_rest.iter().map(|l| (*l, false))).chain(k_rest.iter().map(|l| (*l, true)));
    for (i, (l, is_k)) in all.enumerate() {
        loops.push((format_ident!("i{}", i, span = Span::mixed_site()), l, is_k));
    }
    let ep = if with { super::expand_gemm_with::epilogue_arg(plan, &loops) } else { TokenStream::new() };
    let offset = |pick: fn(&GemmLeaf) -> i64| {
        let terms = loops.iter().filter(|(_, l, _)| pick(l) != 0).map(|(v, l, _)| {
            let s = isize_lit(pick(l));
            quote!(+ (#v as isize) * #s)
        });
        quote!(0isize #(#terms)*)
    };
    let (ao, bo, co) = (offset(|l| l.a), offset(|l| l.b), offset(|l| l.c));
    let first_k: Vec<&Ident> = loops.iter().filter(|(_, _, is_k)| *is_k).map(|(v, _, _)| v).collect();
    let beta_here =
        if first_k.is_empty() { quote!(#beta) } else { quote!(if #(#first_k == 0)&&* { #beta } else { 1.0 }) };
    let (mm, nn, kk) = (usize_lit(m.extent), usize_lit(n.extent), usize_lit(k.extent));
    let strides = [m.a, k.a, k.b, n.b, m.c, n.c].map(isize_lit);
    let [ars, acs, brs, bcs, crs, ccs] = &strides;
    let small = m.extent <= SMALL && n.extent <= SMALL && k.extent <= SMALL;
    let facade = crate::expand::facade();
    let mut body = if small && with {
        quote! {
            #p::small_gemm_with::<#t, _, #mm, #nn, #kk, #ars, #acs, #brs, #bcs, #crs, #ccs>(
                #alpha, &#a, #ao, &#b, #bo, #beta_here, &mut #c, #co, #ep
            );
        }
    } else if with {
        quote! {
            #p::gemm_views_with::<#t, _>(
                #mm, #nn, #kk, #alpha, &#a, #ao, #ars, #acs, &#b, #bo, #brs, #bcs, #beta_here, &mut #c, #co, #crs, #ccs, #ep
            );
        }
    } else if small {
        quote! {
            #p::small_gemm::<#t, #mm, #nn, #kk, #ars, #acs, #brs, #bcs, #crs, #ccs>(
                #alpha, &#a, #ao, &#b, #bo, #beta_here, &mut #c, #co,
            );
        }
    } else {
        quote! {
            #facade::gemm::gemm_views::<#t>(
                #mm, #nn, #kk, #alpha, &#a, #ao, #ars, #acs, &#b, #bo, #brs, #bcs, #beta_here, &mut #c, #co, #crs, #ccs,
            );
        }
    };
    for (v, l, _) in loops.iter().rev() {
        let e = usize_lit(l.extent);
        body = quote!(for #v in 0..#e { #body });
    }
    body
}
