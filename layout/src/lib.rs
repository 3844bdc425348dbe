//! The facade users depend on: it re-exports the algebra of [`layout_core`] (and, once it
//! exists, the `layout!` macro with the runtime items its expansion needs).
pub use layout_core::*;
