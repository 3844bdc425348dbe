//! After an error, the named items still exist (thiserror's `fallback.rs`): a struct of the
//! same name with the same associated items, so that the user sees only the real error and
//! not a cascade of "cannot find type" or "no function named `offset`" errors.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::expand::{Target, private, split_attrs};

/// A stand-in for an item whose layout could not be evaluated.
pub fn layout_items(target: &Target) -> TokenStream {
    let Target { attrs, vis, name } = target;
    let p = private();
    let (shared, own) = split_attrs(attrs);
    quote! {
        #(#own)*
        #(#shared)*
        #vis struct #name;

        #(#shared)*
        #[allow(dead_code, clippy::all)]
        impl #name {
            pub const SIZE: usize = 0;
            pub const COSIZE: usize = 0;
            pub const RANK: usize = 0;
            pub const DEPTH: usize = 0;
            pub const NOTATION: &'static str = "";
            pub const fn offset(_: usize) -> usize {
                0
            }
            pub fn offset_of<C>(_: C) -> usize {
                0
            }
            pub fn coord<C: ::core::default::Default>(_: usize) -> C {
                C::default()
            }
            pub fn for_each_offset<F: FnMut(usize)>(_: F) {}
        }

        #p::impl_static_layout!(#(#shared)* #name, usize, (), 0, -1, 1);
    }
}

/// The expression form after an error: the errors, then a stand-in value.
pub fn expression(errors: TokenStream) -> TokenStream {
    let name = Ident::new("Layout", Span::call_site());
    let items = layout_items(&Target { attrs: &[], vis: TokenStream::new(), name: name.clone() });
    quote!({ #errors #items #name })
}
