//! The procedural half of `layout!`. A thin shim: parsing, evaluation with layout-core,
//! planning and emission live in `layout-codegen`, which tests and the command-line tool call
//! directly. Use it through the facade crate `cute-layout`, whose `layout!` forwards here with
//! its own path (`$crate`), so the generated code names the facade even when a user renames
//! the dependency.

use proc_macro::{TokenStream, TokenTree};

/// `__layout!(FACADE_PATH; INPUT)`: expands `INPUT` as `layout!` does, naming the facade by
/// the tokens before the first `;` (the facade passes `$crate`). Not a public API: call the
/// facade's `layout!`.
#[doc(hidden)]
#[proc_macro]
pub fn __layout(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let mut facade = TokenStream::new();
    for t in tokens.by_ref() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ';' => break,
            _ => facade.extend([t]),
        }
    }
    layout_codegen::expand_with_facade(facade.into(), tokens.collect::<TokenStream>().into()).into()
}
