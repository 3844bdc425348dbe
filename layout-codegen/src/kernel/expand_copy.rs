//! Emission of a copy item: a generic function over the element type and the argument kinds
//! (slices or tensors) whose body checks the arguments, builds the plan's
//! `cute_layout::kernels::Program` from constants and runs it; the loops themselves are the
//! facade's precompiled drivers. A copy without a common refinement (or of a swizzled or F2
//! layout) loops over the indices with the layouts' generated offset functions.

use layout_plan::{Body, CopyPlan, Loop, ProgramBuf};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::expand::{Target, items, private, split_attrs};
use crate::fallback::KernelStandIn;
use crate::kernel::copy::{CopyItem, Operand};

/// The copy function.
pub fn copy_fn(target: &Target, item: &CopyItem) -> TokenStream {
    let facade = crate::expand::facade();
    let Target { attrs, vis, name } = target;
    let (shared, own) = split_attrs(attrs);
    let (src, dst) = (local("src"), local("dst"));
    let (s_notation, d_notation) = (item.src.plan.notation(), item.dst.plan.notation());
    let (s_min, s_max, d_min, d_max) =
        (isize_lit(item.src.min), isize_lit(item.src.max), isize_lit(item.dst.min), isize_lit(item.dst.max));
    // The program the kernels run; an indexed copy (or one whose numbers do not fit the
    // machine's integers) loops over the indices.
    let body = match item.plan.as_ref().map(|plan| (plan, plan.program())) {
        Some((plan, Ok(Some(program)))) => program_call(plan, &program, &src, &dst),
        _ => indexed_loop(item, &src, &dst),
    };
    let mut doc = vec![
        format!(" Copies through `{s_notation}` into `{d_notation}`: `dst[D(i)] = src[S(i)]` for every index `i`"),
        format!(" of the {} indices.", item.size),
        String::new(),
        " Takes slices (`&[T]`, `&[T; N]`, `&Vec<T>` and their `&mut` forms), which must cover the".into(),
        " layouts' offsets (a shorter one panics, as `copy_from_slice` does), or tensors over the".into(),
        " layouts named in the copy, checked when they were created.".into(),
    ];
    if let Some(plan) = &item.plan {
        doc.push(String::new());
        doc.push(" The plan:".into());
        doc.push(String::new());
        doc.push(" ```text".into());
        doc.extend(plan.to_string().lines().map(|l| format!(" {l}")));
        doc.push(" ```".into());
    }
    let p = private();
    let layout_type = |op: &Operand| match &op.name {
        Some(name) => quote!(#name),
        None => quote!(#p::InlineLayout),
    };
    let (s_layout, d_layout) = (layout_type(&item.src), layout_type(&item.dst));
    quote! {
        #(#own)*
        #(#shared)*
        #(#[doc = #doc])*
        #[track_caller]
        #[allow(dead_code)]
        #vis fn #name<T, S, D>(#src: S, #dst: D)
        where
            T: #facade::kernels::Element,
            S: #facade::CopySource<T, #s_layout>,
            D: #facade::CopyDest<T, #d_layout>,
        {
            let #src = S::source(#src, #s_min, #s_max, #s_notation);
            let #dst = D::dest(#dst, #d_min, #d_max, #d_notation);
            #body
        }
    }
}

/// A stand-in for a copy item that failed: the real signature (the layout types of named
/// operands included), so that calls do not cascade into more errors.
pub fn copy_fallback(target: &Target, k: &KernelStandIn) -> TokenStream {
    let facade = crate::expand::facade();
    let Target { attrs, vis, name } = target;
    let (shared, own) = split_attrs(attrs);
    let (s_layout, d_layout) = (k.layout_type(0), k.layout_type(1));
    quote! {
        #(#own)*
        #(#shared)*
        #[allow(dead_code, unused_variables, clippy::all)]
        #vis fn #name<T, S, D>(src: S, dst: D)
        where
            T: #facade::kernels::Element,
            S: #facade::CopySource<T, #s_layout>,
            D: #facade::CopyDest<T, #d_layout>,
        {
        }
    }
}

/// Builds the program from the plan's constants and runs it.
fn program_call(plan: &CopyPlan, program: &ProgramBuf, src: &Ident, dst: &Ident) -> TokenStream {
    let facade = crate::expand::facade();
    let name = local("PROGRAM");
    let body = match program.body {
        Body::Run { len, src, dst } => {
            let (len, s, d) = (usize_lit(len as i64), isize_lit(src as i64), isize_lit(dst as i64));
            quote!(#facade::kernels::Body::Run { len: #len, src: #s, dst: #d })
        }
        Body::Transpose { rows, cols, src_ld, dst_ld } => {
            let (r, c) = (usize_lit(rows as i64), usize_lit(cols as i64));
            let (s, d) = (isize_lit(src_ld as i64), isize_lit(dst_ld as i64));
            quote!(#facade::kernels::Body::Transpose { rows: #r, cols: #c, src_ld: #s, dst_ld: #d })
        }
    };
    let loops = program.loops.iter().map(|&Loop { extent, src, dst }| {
        let (n, s, d) = (usize_lit(extent as i64), isize_lit(src as i64), isize_lit(dst as i64));
        quote!(#facade::kernels::Loop { extent: #n, src: #s, dst: #d })
    });
    let (sb, db) = (isize_lit(program.src_base as i64), isize_lit(program.dst_base as i64));
    if let Some(pairs) = plan.unrolled() {
        // Straight-line: the careful person's loop, every offset a constant.
        let n = pairs.len();
        let pairs = pairs.iter().map(|&(s, d)| {
            let (s, d) = (isize_lit(s), isize_lit(d));
            quote!((#s, #d))
        });
        return quote! {
            const #name: #facade::kernels::UnrolledCopy<'static, #n> =
                #facade::kernels::UnrolledCopy::new(&[#(#loops),*], #sb, #db, [#(#pairs),*]);
            #facade::kernels::copy_unrolled(#src, #dst, &#name)
        };
    }
    quote! {
        const #name: #facade::kernels::CopyProgram<'static> =
            #facade::kernels::CopyProgram::new(#facade::kernels::Program {
                body: #body,
                loops: &[#(#loops),*],
                src_base: #sb,
                dst_base: #db,
            });
        #facade::kernels::copy(#src, #dst, &#name)
    }
}

/// `dst[D(i)] = src[S(i)]` for every index, through the layouts' offset functions (the named
/// items' own, or hidden items for operands written in notation).
fn indexed_loop(item: &CopyItem, src: &Ident, dst: &Ident) -> TokenStream {
    let (s_items, s_ty) = operand_type(&item.src, "Src");
    let (d_items, d_ty) = operand_type(&item.dst, "Dst");
    let i = local("i");
    let facade = crate::expand::facade();
    quote! {
        #s_items
        #d_items
        #facade::kernels::copy_indexed(#src, #dst, #s_ty::SIZE, |#i| {
            (#s_ty::offset(#i) as isize, #d_ty::offset(#i) as isize)
        })
    }
}

/// The type whose `offset` evaluates an operand: the named item, or a hidden item emitted
/// inside the function.
fn operand_type(op: &Operand, hidden: &str) -> (TokenStream, TokenStream) {
    match &op.name {
        Some(name) => (TokenStream::new(), quote!(#name)),
        None => {
            let name = Ident::new(&format!("__Copy{hidden}"), Span::mixed_site());
            let t = Target { attrs: &[], vis: TokenStream::new(), name: name.clone() };
            (items(&t, &op.plan), quote!(#name))
        }
    }
}

pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

pub(crate) fn usize_lit(v: i64) -> Literal {
    Literal::u64_unsuffixed(v.unsigned_abs())
}

pub(crate) fn isize_lit(v: i64) -> TokenStream {
    let m = Literal::u64_unsuffixed(v.unsigned_abs());
    if v < 0 { quote!(-#m) } else { quote!(#m) }
}
