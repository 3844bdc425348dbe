//! Copy kernels: precompiled drivers that run a copy plan (the loop nest and its body) with
//! SIMD, chosen at run time by [`dispatch`]. The code `layout!` emits for a `copy` item builds a
//! [`Program`] from constants and calls [`run`]; the big loops live here, compiled at this
//! crate's optimization level (see KERNELS in the docs).
//!
//! A program copies `dst[dst_base + Σ c_k·dst_k + body] = src[src_base + Σ c_k·src_k + body]`
//! for every coordinate `c` of the loop nest, the body doing the innermost one or two modes.

pub mod dispatch;
mod element;

pub use dispatch::{Level, force_level, level};
pub use element::Element;

/// One loop of a copy's nest: `extent` iterations, advancing the source by `src` elements and
/// the destination by `dst` elements per iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    pub extent: usize,
    pub src: isize,
    pub dst: isize,
}

/// What runs at each point of the loop nest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// `len` elements, source stride `src`, destination stride `dst`:
    /// `dst[k·dst] = src[k·src]` for `k < len`. `src == dst == 1` is a contiguous vector
    /// (the common vector of the two layouts); `src == 0` a broadcast (load once, store
    /// `len` times); anything else a gather or scatter.
    Run { len: usize, src: isize, dst: isize },
    /// A `rows × cols` transpose: `dst[r·dst_ld + c] = src[r + c·src_ld]` for `r < rows`,
    /// `c < cols` (the source contiguous along rows, the destination along columns), done
    /// in register tiles inside cache blocks.
    Transpose { rows: usize, cols: usize, src_ld: isize, dst_ld: isize },
}

/// A copy plan in the form the drivers run: a body inside a loop nest (innermost loop first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Program<'a> {
    pub body: Body,
    pub loops: &'a [Loop],
    /// Offsets of the first element on each side (non-zero after a broadcast destination
    /// mode was reduced to its last write).
    pub src_base: isize,
    pub dst_base: isize,
}
