//! The `layout!` procedural macro. A thin shim: parsing, evaluation with layout-core, planning
//! and emission live in `layout-codegen`, which tests and the command-line tool call directly.
//! Use it through the facade crate `layout`, which also holds the runtime items the expansion
//! names (`::layout::__private`).

use proc_macro::TokenStream;

/// CuTe layouts evaluated at compile time.
///
/// Items: `layout! { /// docs  pub NAME = EXPR; ... }` defines a unit struct per item (a later
/// `EXPR` may use an earlier `NAME`); expression: `layout!(EXPR)` is a value of a generated
/// type. `EXPR` is the notation and expression language of layout-core
/// (`((2,4),3):((1,6),2)`, `logical_divide((8,8):(1,8), [4:1, 2:1])`, …). Every error is a
/// compile error at the operand responsible. See the facade crate `layout` for the generated
/// API.
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    layout_codegen::expand(input.into()).into()
}
