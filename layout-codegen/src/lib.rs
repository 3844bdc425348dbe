//! The work behind the `layout!` macro, as an ordinary library that unit tests, snapshot
//! tests and the command-line tool call directly (the proc-macro crate is a shim).
//!
//! Four passes, one file each: [`ast`] models the input and keeps the tokens of every
//! expression; `eval` runs layout-core on it, collecting every error at the tokens
//! responsible; [`plan`] decides the index code as plain data; `expand` emits it with
//! `quote`. After an error, `fallback` still emits the named items. `sub` adds the
//! `SubLayout` impls of items that tile, partition or slice an earlier item. The kernel items
//! (`pub fn NAME = copy(…)`, `gemm(…)`) live in `kernel`, one evaluation and one emission
//! per kind; `scope` holds what every pass shares: the names an expression can see, the
//! checks of names and calls, and errors at their tokens with the `help:` line.
//!
//! ```
//! let tokens: proc_macro2::TokenStream = "pub Tiled = ((2,4),3):((1,6),2);".parse().unwrap();
//! let out = layout_codegen::expand(tokens).to_string();
//! assert!(out.contains("pub struct Tiled"));
//! ```

pub mod ast;
mod ctxt;
mod dyn_fallback;
pub mod dynamic;
mod eval;
mod expand;
mod fallback;
mod kernel;
pub mod plan;
mod scope;
mod sub;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ast::Input;
use crate::ctxt::Ctxt;
use crate::eval::Outcome;
use crate::expand::Target;
use crate::kernel::Kernel;
pub use crate::kernel::{KERNELS, kernel_name};
pub use crate::plan::{ComposedPlan, CoordinatePlan, F2Plan, IndexPlan, Plan, StagePlan, SwizzledPlan};

/// [`expand()`] with the facade named by `facade` (the facade's `layout!` passes `$crate`, so
/// the generated code works when a user renames the dependency).
pub fn expand_with_facade(facade: TokenStream, input: TokenStream) -> TokenStream {
    expand::with_facade(facade, || expand(input))
}

/// Expands the input of one `layout!` invocation, naming the facade `::cute_layout` unless
/// [`expand_with_facade`] says otherwise. Never panics: every problem becomes a
/// `compile_error!` at the tokens responsible, emitted before the items (and, for failed
/// items, before stand-ins of the same names); an internal panic becomes one
/// `compile_error!` at the invocation.
pub fn expand(input: TokenStream) -> TokenStream {
    guarded(|| expand_unguarded(input))
}

/// `f()`, or one `compile_error!` at the invocation when it panics.
fn guarded(f: impl FnOnce() -> TokenStream) -> TokenStream {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        let message = format!("internal error in `layout!` (please report it with this input): {what}");
        syn::Error::new(Span::call_site(), message).into_compile_error()
    })
}

fn expand_unguarded(input: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let parsed = ast::parse_input(input, &mut cx);
    match parsed {
        None => errors(cx),
        Some(Input::Items(items)) => {
            let outcomes = eval::evaluate_items(&items, &mut cx);
            let subs = sub::plans(&items, &outcomes, &mut cx);
            let mut out = TokenStream::new();
            for ((item, outcome), sub) in items.iter().zip(outcomes).zip(subs) {
                let vis = &item.vis;
                let target = Target { attrs: &item.attrs, vis: quote!(#vis), name: item.name.clone() };
                match outcome {
                    Outcome::Planned(plan) => out.extend(expand::items(&target, &plan)),
                    Outcome::Failed(kind) => out.extend(fallback::layout_items(&target, &kind)),
                    Outcome::Kernel(k) => out.extend(match *k {
                        Kernel::Copy(c) => kernel::expand_copy::copy_fn(&target, &c),
                        Kernel::Gemm(g) => kernel::expand_gemm::gemm_fn(&target, &g),
                        Kernel::Dynamic(d) => kernel::expand_dynamic::kernel_fns(&target, &d),
                    }),
                    Outcome::KernelFailed(k) if k.gemm => out.extend(kernel::expand_gemm::gemm_fallback(&target, &k)),
                    Outcome::KernelFailed(k) => out.extend(kernel::expand_copy::copy_fallback(&target, &k)),
                    Outcome::Dynamic(plan) => out.extend(dynamic::items(&target, &plan)),
                    Outcome::Edge(plan) => out.extend(dynamic::edge_items(&target, &plan)),
                    Outcome::DynFailed(stand_in) => out.extend(dyn_fallback::items(&target, &stand_in)),
                    Outcome::Duplicate => {}
                }
                if let Some(sub) = sub {
                    out.extend(sub::items(&target, &sub));
                }
            }
            let mut all = errors(cx);
            all.extend(out);
            all
        }
        Some(Input::Expr(expr)) => match eval::evaluate_expression(&expr, &mut cx) {
            Some(plan) if !cx.has_errors() => expand::expression(&plan),
            _ => {
                let kind = fallback::StandIn::guess(&expr.text, &layout_core::notation::Env::new());
                fallback::expression(errors(cx), &kind)
            }
        },
    }
}

fn errors(cx: Ctxt) -> TokenStream {
    cx.into_error().map(syn::Error::into_compile_error).unwrap_or_default()
}

/// Expands a single expression (canonical notation or the expression language; integer,
/// swizzled, coordinate or F2 layouts) into the items of a layout named `name`, as
/// `layout! { pub NAME = EXPR; }` would; an error is the message text with its `help:` line. For the command-line tool's `layout expand`.
pub fn expand_expr(text: &str, name: &str) -> Result<TokenStream, String> {
    let value = layout_core::notation::evaluate(text).map_err(|e| scope::message(&e))?;
    let plan = plan::plan_value(&value).map_err(|e| match e {
        plan::PlanError::NotALayout(m) => format!("the expression must be a layout, but {m}"),
        plan::PlanError::Machine(m) => m,
    })?;
    let name = syn::parse_str::<Ident>(name).map_err(|_| format!("`{name}` is not a valid type name"))?;
    let target = Target { attrs: &[], vis: quote!(pub), name: Ident::new(&name.to_string(), Span::call_site()) };
    Ok(expand::items(&target, &plan))
}

/// [`expand_expr`], formatted as Rust source.
#[cfg(feature = "pretty")]
pub fn expand_expr_pretty(text: &str, name: &str) -> Result<String, String> {
    pretty(expand_expr(text, name)?)
}

/// Checks a kernel call (`copy(SRC, DST[, overlapping])`, `gemm(T, A, B, C)`) as
/// `layout! { pub fn NAME = KERNEL; }` does: `Err` holds the macro's messages (with their
/// `help:` lines), one after the other. For the command-line tool.
pub fn check_kernel(text: &str) -> Result<(), String> {
    plan_kernel(text).map(drop)
}

/// What a kernel call plans to: the plan `layout! { pub fn NAME = KERNEL; }` runs.
pub enum KernelPlan {
    /// A copy: its plan, `None` when a side is swizzled or F2 (copied index by index).
    Copy(Option<layout_plan::CopyPlan>),
    /// A GEMM: the element type and the plan.
    Gemm(layout_plan::GemmElem, layout_plan::GemmPlan),
    /// A kernel over layouts with symbols, planned at run time from the tensors' layouts: what
    /// the item's documentation says of its operands and of what the static parts decide.
    Dynamic(String),
}

/// The plan of a kernel call (`copy(SRC, DST[, overlapping])`, `gemm(T, A, B, C)`), parsed and
/// evaluated as the macro evaluates the expression of a `fn` item (no names in scope); an
/// error is the macro's message. For the command-line tool's `layout explain`.
pub fn plan_kernel_call(text: &str) -> Result<KernelPlan, String> {
    Ok(match plan_kernel(text)? {
        Kernel::Copy(c) => KernelPlan::Copy(c.plan),
        Kernel::Gemm(g) => {
            let elem = match g.scalar {
                kernel::gemm::Scalar::F32 => layout_plan::GemmElem::F32,
                kernel::gemm::Scalar::F64 => layout_plan::GemmElem::F64,
            };
            KernelPlan::Gemm(elem, g.plan)
        }
        Kernel::Dynamic(d) => KernelPlan::Dynamic(
            kernel::expand_dynamic::describe(&d)
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    })
}

/// Expands a kernel call into the function `layout! { pub fn NAME = KERNEL; }` emits, named
/// `name`; an error is the macro's message. For the command-line tool's `layout expand`.
pub fn expand_kernel(text: &str, name: &str) -> Result<TokenStream, String> {
    let name = syn::parse_str::<Ident>(name).map_err(|_| format!("`{name}` is not a valid function name"))?;
    let kernel = plan_kernel(text)?;
    let target = Target { attrs: &[], vis: quote!(pub), name: Ident::new(&name.to_string(), Span::call_site()) };
    Ok(match kernel {
        Kernel::Copy(c) => kernel::expand_copy::copy_fn(&target, &c),
        Kernel::Gemm(g) => kernel::expand_gemm::gemm_fn(&target, &g),
        Kernel::Dynamic(d) => kernel::expand_dynamic::kernel_fns(&target, &d),
    })
}

/// [`expand_kernel`], formatted as Rust source.
#[cfg(feature = "pretty")]
pub fn expand_kernel_pretty(text: &str, name: &str) -> Result<String, String> {
    pretty(expand_kernel(text, name)?)
}

/// The kernel a call plans to, evaluated as the macro evaluates the expression of a `fn` item.
fn plan_kernel(text: &str) -> Result<Kernel, String> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|_| format!("`{text}` is not made of Rust tokens (unbalanced brackets or a stray quote?)"))?;
    let mut cx = Ctxt::default();
    let kernel = eval::evaluate_kernel(&ast::ExprTokens::new(tokens), &mut cx);
    match (cx.into_error(), kernel) {
        (Some(errors), _) => Err(errors.into_iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")),
        (None, Some(kernel)) => Ok(kernel),
        (None, None) => Err(format!("`{text}` is not a kernel call")),
    }
}

#[cfg(feature = "pretty")]
fn pretty(tokens: TokenStream) -> Result<String, String> {
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| e.to_string())?;
    Ok(prettyplease::unparse(&file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_one_compile_error() {
        let out = guarded(|| panic!("boom")).to_string();
        assert!(out.starts_with(":: core :: compile_error !"), "{out}");
        assert!(out.contains("internal error in `layout!`") && out.contains("boom"), "{out}");
    }

    /// The messages of the `compile_error!`s of an expansion.
    fn errors_of(input: &str) -> Vec<String> {
        let out = expand(input.parse().expect("tokens")).to_string();
        out.split("compile_error ! {").skip(1).map(|e| e.split('}').next().unwrap_or("").to_string()).collect()
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic_or_a_stack_overflow() {
        let cases = [
            ("pub A = logical_divide((M,N):(1,M), [8:1,8:1]) where M % 0 == 0;", "the modulus must be positive"),
            ("pub A = logical_divide((M,N):(1,M), [8:1,8:1]) where M % -1 == 0;", "the modulus must be positive"),
            ("pub A = (M,N):(1,LD) where LD >= M, M > LD;", "the facts contradict each other"),
            ("pub A = local_tile_edge((M,N):(1,M), [9223372036854775807:1, 8:1]);", ""),
        ];
        for (input, wanted) in cases {
            let errors = errors_of(input);
            assert!(errors.iter().all(|e| !e.contains("internal error")), "{input}: {errors:?}");
            assert_eq!(wanted.is_empty(), errors.is_empty(), "{input}: {errors:?}");
            assert!(errors.iter().all(|e| e.contains(wanted)), "{input}: {errors:?}");
        }
        for chain in [vec!["1"; 20_000].join("*"), vec!["M"; 20_000].join("*"), vec!["8"; 20_000].join("/")] {
            let errors = errors_of(&format!("pub A = ({chain}):1;"));
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert!(errors[0].contains("nested deeper than 128 levels"), "{errors:?}");
        }
    }

    #[test]
    fn a_symbol_one_edit_from_an_item_is_an_error() {
        let errors = errors_of("pub TILE_A = (16,48):(1,16);\npub D = logical_divide(TILE_B, [8:1, _]);");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("`TILE_B` is no item") && errors[0].contains("did you mean the item `TILE_A`"));
        // Short symbols and names further away stay symbols.
        assert!(errors_of("pub A = (8,8):(1,8);\npub D = (M,N):(1,M);").is_empty());
        assert!(errors_of("pub TILE_A = (8,8):(1,8);\npub D = (TILE,N):(1,TILE);").is_empty());
    }

    #[test]
    fn the_facade_is_restored_after_a_panic() {
        let unwound = std::panic::catch_unwind(|| expand::with_facade(quote!(::elsewhere), || panic!("inside")));
        assert!(unwound.is_err());
        assert_eq!(expand::facade().to_string(), quote!(::cute_layout).to_string());
    }
}
