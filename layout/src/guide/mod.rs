//! A guide to `cute-layout`, inside the API docs: every example on these pages is a doc test
//! that runs with `cargo test`.
//!
//! - [Getting started](getting_started): the dependency, a first layout, the command-line
//!   tool, tensors, kernels, and what happens when the algebra says no.
//! - [The notation](notation): int tuples, layouts, tilers, swizzles, coordinate and F2
//!   strides, symbols and facts, and the operations.
//! - [Tensors](tensors): a slice seen through a layout, what is checked and when,
//!   sub-tensors (static and run-time) and edge tiles.
//! - [Cookbook](cookbook): transpose, matrix product, convolution through an im2col view,
//!   reductions, tiles with edges.
//!
//! The reference is the rest of the API docs: the [`layout!`](crate::layout) macro (its
//! grammar and every kind of item), [`Tensor`](crate::Tensor), [`gemm`](mod@crate::gemm) (and the run-time entries [`copy()`](fn@crate::copy), [`gemm()`](fn@crate::gemm)),
//! [`kernels`](crate::kernels), and the algebra itself, [`algebra`](crate::algebra).
//! The algebra as this project defines it, with its policies where the sources disagree, is
//! `docs/algebra.md` in the repository.

#[doc = include_str!("getting_started.md")]
pub mod getting_started {}

#[doc = include_str!("notation.md")]
pub mod notation {}

#[doc = include_str!("tensors.md")]
pub mod tensors {}

#[doc = include_str!("cookbook.md")]
pub mod cookbook {}
