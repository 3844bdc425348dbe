//! CuTe layouts for Rust: the algebra of [`layout_core`] at run time, and the [`layout!`]
//! macro that runs it while your crate compiles.
//!
//! New here? The [guide] has a getting-started page, the notation, tensors and a cookbook
//! (transpose, matrix product, convolution, reductions, tiles with edges); [`layout!`] has the
//! grammar of the macro and an example of every kind of item.
//!
//! ```
//! use cute_layout::{StaticLayout, layout};
//!
//! layout! {
//!     /// A 4x8 row-major tile.
//!     pub RowMajor = (4,8):(8,1);
//!     pub Tiled = ((2,4),3):((1,6),2);
//!     /// Later items see earlier names.
//!     pub Blocks = logical_divide((8,8):(1,8), [4:1, 2:1]);
//! }
//!
//! assert_eq!(Tiled::offset(5), 13);                // straight-line, `const fn`
//! assert_eq!(Tiled::offset_of(((1, 2), 0)), 13);   // natural coordinate
//! assert_eq!(Tiled::coord(5), ((1, 2), 0));
//! assert_eq!((Tiled::SIZE, Tiled::COSIZE, Tiled::RANK, Tiled::DEPTH), (24, 24, 2, 2));
//! assert_eq!(Tiled.to_string(), "((2,4),3):((1,6),2)");
//! assert_eq!(Blocks::NOTATION, "((4,2),(2,4)):((1,4),(8,16))");
//!
//! const FIFTH: usize = RowMajor::offset(5);
//! assert_eq!(FIFTH, 9);
//!
//! let mut offsets = Vec::new();
//! Tiled::for_each_offset(|o| offsets.push(o));     // loop nest, no division per element
//! assert_eq!(offsets[..4], [0, 1, 6, 7]);
//!
//! // Generic code takes any generated layout.
//! fn table<L: StaticLayout<Offset = usize>>() -> Vec<usize> {
//!     (0..L::SIZE).map(L::offset).collect()
//! }
//! assert_eq!(table::<RowMajor>(), RowMajor::to_layout().table().unwrap().iter().map(|&o| o as usize).collect::<Vec<_>>());
//!
//! // Expression position: a value of a generated type.
//! let l = layout!((4,8):(1,4));
//! assert_eq!(l.at(9), 9);
//! ```
//!
//! [`Tensor`] and [`TensorMut`] view a slice through a generated layout (checked once, at
//! creation); items that tile, partition or slice an earlier item implement [`SubLayout`],
//! and `t.tile::<Sub>(k)` is sub-tensor k.
//!
//! The run-time algebra is here too, by name (the layout kinds, their errors, the notation
//! and the operations; the whole of layout-core is [`algebra`]):
//!
//! ```
//! use cute_layout::{Layout, composition, logical_divide, parse_layout, parse_tiler};
//!
//! let a = parse_layout("(6,2):(8,2)")?;
//! let b = parse_layout("(4,3):(3,1)")?;
//! assert_eq!(composition(&a, &b)?.to_string(), "((2,2),3):((24,2),8)");
//! let tiles: Layout = cute_layout::logical_divide_tiler(&parse_layout("(8,8):(1,8)")?, &parse_tiler("[4:1,2:1]")?)?;
//! assert_eq!(tiles.to_string(), "((4,2),(2,4)):((1,4),(8,16))");
//! // Not admissible: an error naming the condition, never a panic.
//! assert!(logical_divide(&parse_layout("(4,8):(1,4)")?, &parse_layout("5:1")?).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A mistake is a compile error at the operand responsible:
//!
//! ```compile_fail
//! cute_layout::layout! { pub Bad = composition((4,6):(2,3), 6:3); }
//! ```

// Code expanded outside `layout!` (the command-line tool's `layout expand`, the codegen tests)
// names `::cute_layout`; this makes that path resolve inside this crate too.
extern crate self as cute_layout;

// The run-time algebra, by name: what a user of the facade reaches for (the layout values of
// every kind, their errors, the notation and the operations). No glob: `layout_core::Result`
// would shadow std's `Result` on `use cute_layout::*`, and the planners behind the macro are
// not the user's API. Everything else of layout-core is under `algebra`.
pub use layout_core::{
    AnyLayout, Blame, ComposedLayout, CoordinateLayout, DynamicError, Explanation, F2Layout, IntTuple, Layout,
    LayoutError, SliceCoord, Swizzle, SwizzledLayout, Tiler, Value,
};
pub use layout_core::{
    blocked_product, coalesce, complement, composition, crd2idx, downcast, evaluate, explain, filter, flat_divide,
    flat_product, idx2crd, left_inverse, local_partition, local_tile, logical_divide, logical_divide_tiler,
    logical_product, logical_product_tiler, make_ordered_layout, max_common_layout, max_common_vector, parse_int_tuple,
    parse_layout, parse_tiler, raked_product, right_inverse, slice, slice_fixed, tile_to_shape, tiled_divide,
    tiled_product, upcast, zipped_divide, zipped_product,
};

/// The whole of layout-core, the run-time algebra (the crate root re-exports the parts a user
/// reaches for by name): the by-mode and extended variants of the operations, symbolic
/// layouts, and layout-core's own `Result`.
pub use layout_core as algebra;

/// The whole of layout-plan, the kernel planner behind the macro and the run-time kernels:
/// the copy and GEMM plans, the transpose and GEMM cache blocking, the GEMM schedule.
pub use layout_plan as kernel_plan;

// The README's Rust examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;

pub mod guide;

mod copy;
#[cfg(target_arch = "x86_64")]
mod isa;
mod small_gemm;
pub use copy::{CopyDest, CopySource};
mod dyn_layout;
mod edge_tiles;
mod layout_fn;
mod runtime_layout;
pub use edge_tiles::EdgeTiles;
pub use layout_fn::{LayoutFn, TrustedLayout};
pub use runtime_layout::{RUNTIME_MAX_MODES, RuntimeLayout};

#[doc = include_str!("layout_macro.md")]
#[macro_export]
macro_rules! layout {
    ($($input:tt)*) => {
        $crate::__private::layout_impl! { $crate; $($input)* }
    };
}

/// The run-time GEMM engine: strided `f32`/`f64` matrix products with packed, blocked,
/// run-time dispatched micro-kernels (see [`gemm::gemm`]); the `layout!` macro's `gemm`
/// items call it.
pub mod gemm;
/// Copy kernels: precompiled, run-time dispatched (portable, AVX2, AVX-512) drivers that run
/// the loop nest and body a copy plan compiles to, with register-tile transposes, vector
/// runs, broadcasts and gathers. The code `layout!` emits for a copy calls [`kernels::run`].
pub mod kernels;
mod plan;
pub use plan::{CopyPlan, GemmPlan, PlanError, copy, gemm, try_copy, try_gemm};
pub use plan::{gemm_batched_with, gemm_with, try_gemm_batched_with, try_gemm_with};
mod tensor;
#[allow(deprecated)]
pub use tensor::{DynTensor, DynTensorError, DynTensorMut};
pub use tensor::{FoldedTensor, Iter, IterMut, SubLayout, SubTensorError, Tensor, TensorError, TensorMut, Tiling};

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// The integer type of a generated layout's offsets: `usize`, or `isize` when some stride is
/// negative.
///
/// ```
/// use cute_layout::{Offset, StaticLayout, layout};
///
/// layout! {
///     pub Forward = 4:2;
///     pub Backward = 4:-2;
/// }
/// fn last<L: StaticLayout>() -> i64 {
///     L::offset(L::SIZE - 1).to_i64()
/// }
/// let f: usize = Forward::offset(3);
/// let b: isize = Backward::offset(3);
/// assert_eq!((f, b), (6, -6));
/// assert_eq!((last::<Forward>(), last::<Backward>()), (6, -6));
/// ```
pub trait Offset: Copy + Debug + Display + Eq + Ord + Hash + Send + Sync + 'static {
    /// The offset as layout-core's integer.
    fn to_i64(self) -> i64;
    /// The offset as an `isize` (exact for every offset of a [`StaticLayout`]'s domain, which
    /// lies in `MIN_OFFSET..=MAX_OFFSET`).
    fn to_isize(self) -> isize;
}

// The macro rejects layouts whose offsets do not fit in 64 bits, so the casts are exact for
// every offset of the domain (and a plain cast keeps generic loops vectorizable).
impl Offset for usize {
    #[inline]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline]
    fn to_isize(self) -> isize {
        self as isize
    }
}

impl Offset for isize {
    #[inline]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline]
    fn to_isize(self) -> isize {
        self
    }
}

/// An integer layout generated by [`layout!`]: a [`GeneratedLayout`] whose offsets are
/// integers (`usize`, or `isize` when some stride is negative) and whose run-time value is a
/// [`Layout`]. Generic code takes `L: StaticLayout` and calls `L::offset(i)`, `L::SIZE`, … (the
/// items of [`GeneratedLayout`]).
///
/// # Safety
///
/// [`Tensor`] reads its slice without bounds checks on the strength of this contract, so it
/// is an `unsafe` trait; `layout!` implements it (do not implement it by hand). `SIZE >= 1`
/// (a layout-core layout has no extent 0), and for every index `i < SIZE`, `offset(i)` (and
/// `offset_of(coord(i))`, and every offset `for_each_offset` visits, which are `SIZE` calls
/// with the offsets of the indices in order) lies in `MIN_OFFSET..=MAX_OFFSET`, and
/// `MIN_OFFSET <= 0`; `UNIT_RUN` divides `SIZE`, and for every index `i` that is a multiple of
/// it, `offset(i + j) = offset(i) + j` for `j < UNIT_RUN`; when `INJECTIVE` is true, distinct
/// indices have distinct offsets.
pub unsafe trait StaticLayout: GeneratedLayout<Offset: Offset, Value = Layout> {
    /// `cosize(L)`: one past the largest offset.
    const COSIZE: usize = Self::__CONSTANTS.cosize;
    /// The smallest offset of the domain: 0, or negative when some stride is negative
    /// (the sum of `(s-1)·d` over the modes with `d < 0`).
    const MIN_OFFSET: isize = Self::__CONSTANTS.min_offset;
    /// The largest offset of the domain, `cosize(L) - 1` (the sum of `(s-1)·d` over the
    /// modes with `d > 0`).
    const MAX_OFFSET: isize = Self::__CONSTANTS.max_offset;
    /// How many consecutive indices map to consecutive offsets at the start of every run:
    /// the extent of the first mode of `coalesce(L)` when its stride is 1, else 1. It
    /// divides `SIZE`.
    const UNIT_RUN: usize = Self::__CONSTANTS.unit_run;
    /// Whether distinct indices have distinct offsets.
    const INJECTIVE: bool = Self::__CONSTANTS.injective;

    /// Calls `f(start, len)` for each run of `len` consecutive offsets `start..start + len`,
    /// in index order: the sibling of [`GeneratedLayout::for_each_offset`] for consumers
    /// that work on contiguous ranges (a `copy_from_slice`, a vectorized loop), so a layout
    /// whose inner mode is contiguous costs what a contiguous loop costs. `len` is
    /// [`StaticLayout::UNIT_RUN`] for every run.
    ///
    /// ```
    /// use cute_layout::{StaticLayout, layout};
    /// layout! { pub Padded = (4,3):(1,6); }
    /// let mut runs = Vec::new();
    /// Padded::for_each_run(|start, len| runs.push((start, len)));
    /// assert_eq!(runs, [(0, 4), (6, 4), (12, 4)]);
    /// ```
    #[inline]
    fn for_each_run<F: FnMut(Self::Offset, usize)>(mut f: F) {
        let run = Self::UNIT_RUN;
        if run == 1 {
            Self::for_each_offset(|o| f(o, 1));
            return;
        }
        let mut i = 0;
        while i < Self::SIZE {
            f(Self::offset(i), run);
            i += run;
        }
    }

    /// The run-time layout value of layout-core (parsed from [`GeneratedLayout::NOTATION`]).
    fn to_layout() -> Layout {
        Self::to_value()
    }

    /// [`GeneratedLayout::offset`] on a value (for `layout!(EXPR)` in expression position).
    fn at(self, index: usize) -> Self::Offset {
        Self::offset(index)
    }
}

// SAFETY: `GeneratedLayout` is an unsafe trait whose implementor vouches for this trait's
// contract when the value type is `Layout` (an integer layout); the offset type is `usize`
// or `isize`.
unsafe impl<L: GeneratedLayout<Offset: Offset, Value = Layout>> StaticLayout for L {}

/// Any layout generated by [`layout!`]: integer layouts (which also implement
/// [`StaticLayout`]), swizzled layouts `Sw<B,M,S> o L`, coordinate layouts (strides `a@i`,
/// whose offsets are tuples of per-component offsets) and F2 layouts (strides `fk`). Generic
/// code over every kind takes `L: GeneratedLayout`.
///
/// ```
/// use cute_layout::{GeneratedLayout, SwizzledLayout, layout};
///
/// layout! {
///     pub Smem = Sw<3,4,3> o (8,64):(64,1);
///     pub Identity = (4,8):(1@0,1@1);
///     pub Xor = (4,(4,3)):(f1,(f5,f16));
/// }
///
/// assert_eq!(Smem::offset(2), 128 ^ 16);                     // x ^ ((x & 0b1110000000) >> 3)
/// assert_eq!(Identity::offset(9), (1, 2));                   // a coordinate
/// assert_eq!(Xor::offset(5), 1 ^ 5);                         // XOR of carry-less products
/// let sw: SwizzledLayout = Smem::to_value();
/// assert_eq!(sw.eval(2).unwrap(), 144);
///
/// fn first<L: GeneratedLayout>() -> L::Offset {
///     L::offset(0)
/// }
/// assert_eq!(first::<Identity>(), (0, 0));
/// ```
///
/// # Safety
///
/// `layout!` implements it (do not implement it by hand): an integer layout (value type
/// [`Layout`]) is a [`StaticLayout`] through a blanket impl, so its constants and functions
/// must meet that trait's contract.
pub unsafe trait GeneratedLayout: Copy + Default + Debug + Display + Eq + Hash + Send + Sync + 'static {
    /// `usize` or `isize` for integer, swizzled and F2 layouts; a tuple of them, one per
    /// codomain component, for coordinate layouts.
    type Offset: Copy + Debug + Eq + Hash + Send + Sync + 'static;
    /// The natural coordinate: nested tuples of `usize` shaped like the layout.
    type Coord: Copy;
    /// The run-time value of layout-core: [`Layout`], [`SwizzledLayout`], [`ComposedLayout`], [`CoordinateLayout`]
    /// or [`F2Layout`].
    type Value: Clone + Debug + Display + PartialEq + __private::FromNotation;
    /// Every constant of the layout in one value, which the others read: one item for the
    /// compiler to check per generated layout instead of eight. Not a public API.
    #[doc(hidden)]
    const __CONSTANTS: __private::Constants<Self::Offset, Self::Coord>;
    /// `size(L)`.
    const SIZE: usize = Self::__CONSTANTS.size;
    /// The number of top-level modes.
    const RANK: usize = Self::__CONSTANTS.rank;
    /// The nesting depth of the shape.
    const DEPTH: usize = Self::__CONSTANTS.depth;
    /// The layout in canonical notation.
    const NOTATION: &'static str = Self::__CONSTANTS.notation;

    /// The offset of an index (straight-line code).
    #[inline]
    fn offset(index: usize) -> Self::Offset {
        (Self::__CONSTANTS.offset)(index)
    }
    /// The offset of a natural coordinate.
    #[inline]
    fn offset_of(coord: Self::Coord) -> Self::Offset {
        (Self::__CONSTANTS.offset_of)(coord)
    }
    /// The natural coordinate of an index.
    #[inline]
    fn coord(index: usize) -> Self::Coord {
        (Self::__CONSTANTS.coord)(index)
    }
    /// Whether every component of a natural coordinate is below the extent of its mode.
    #[inline]
    fn contains(coord: Self::Coord) -> bool {
        (Self::__CONSTANTS.contains)(coord)
    }
    /// Visits the offset of every index in order.
    fn for_each_offset<F: FnMut(Self::Offset)>(f: F);
    /// The run-time value of layout-core (parsed from [`GeneratedLayout::NOTATION`]).
    fn to_value() -> Self::Value {
        <Self::Value as __private::FromNotation>::from_notation(Self::NOTATION)
    }
}

/// The standard trait impls of a generated unit struct: `Clone`, `Copy`, `Debug`,
/// `Default`, `PartialEq`, `Eq`, `Hash` (written out: what `#[derive]` would give, at a third
/// of the check time, see BENCHMARKS.md) and `Display` (the canonical notation). Emitted by
/// `layout!` through `__private`, next to the `unsafe impl GeneratedLayout` it emits itself
/// (no `unsafe` passes through this macro, so invoking it by hand vouches for nothing). Not a
/// public API.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_layout_traits {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[automatically_derived]
        impl ::core::clone::Clone for $name {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::marker::Copy for $name {}

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(::core::stringify!($name))
            }
        }

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::default::Default for $name {
            #[inline]
            fn default() -> Self {
                $name
            }
        }

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::cmp::PartialEq for $name {
            #[inline]
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::cmp::Eq for $name {}

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::hash::Hash for $name {
            #[inline]
            fn hash<H: ::core::hash::Hasher>(&self, _: &mut H) {}
        }

        $(#[$attr])*
        #[automatically_derived]
        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str($name::NOTATION)
            }
        }
    };
}

/// What the generated code uses. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__impl_layout_traits as impl_layout_traits;
    pub use crate::copy::InlineLayout;
    pub use crate::dyn_layout::support as dynamic;
    pub use crate::gemm::epilogue::{gemm_views_with, small_gemm_with};
    pub use crate::gemm::parts::{MicroKernel, Packer, micro_kernels_f32, micro_kernels_f64, packers};
    pub use crate::gemm::small_dyn::{Strides, small_gemm_dyn, small_gemm_strided};
    pub use crate::gemm::{At, Batched};
    pub use crate::plan::cache::{CopyCache, GemmCache, copy_cached, gemm_cached, kernel_failed, same_symbol};
    pub use crate::plan::copy_tile::{copy_runs, copy_tile, copy_transpose};
    pub use crate::plan::gemm_with::gemm_cached_with;
    pub use crate::plan::inline::{Found, Site, bind, found, matched, same_bound, view, view_mut};
    pub use crate::plan::tile::{gemm_small, gemm_tile};
    pub use crate::small_gemm::small_gemm;
    pub use crate::{DynamicError, EdgeTiles, GeneratedLayout, LayoutFn, StaticLayout, SubLayout, TrustedLayout};
    use layout_core::{AnyLayout, Value};
    pub use layout_core::{ComposedLayout, CoordinateLayout, F2Layout, IntTuple, Layout, Swizzle, SwizzledLayout};
    pub use layout_macro::__layout as layout_impl;

    /// The constants of a generated layout ([`GeneratedLayout::__CONSTANTS`](crate::GeneratedLayout)),
    /// which the traits' constants read. `cosize`, `min_offset`, `max_offset`, `unit_run`
    /// and `injective` are those of [`StaticLayout`] for integer layouts and 0, 0, 0, 1,
    /// false for the other kinds. Building one vouches for nothing: only an
    /// `unsafe impl GeneratedLayout` (which `layout!` emits) gives the numbers meaning.
    pub struct Constants<O: 'static, C: 'static> {
        pub(crate) size: usize,
        pub(crate) rank: usize,
        pub(crate) depth: usize,
        pub(crate) notation: &'static str,
        pub(crate) cosize: usize,
        pub(crate) min_offset: isize,
        pub(crate) max_offset: isize,
        pub(crate) unit_run: usize,
        pub(crate) injective: bool,
        pub(crate) offset: fn(usize) -> O,
        pub(crate) offset_of: fn(C) -> O,
        pub(crate) coord: fn(usize) -> C,
        pub(crate) contains: fn(C) -> bool,
    }

    impl<O: 'static, C: 'static> Constants<O, C> {
        /// The constants of a layout.
        #[allow(clippy::too_many_arguments)]
        pub const fn new(
            size: usize,
            rank: usize,
            depth: usize,
            notation: &'static str,
            cosize: usize,
            min_offset: isize,
            max_offset: isize,
            unit_run: usize,
            injective: bool,
            offset: fn(usize) -> O,
            offset_of: fn(C) -> O,
            coord: fn(usize) -> C,
            contains: fn(C) -> bool,
        ) -> Self {
            Constants {
                size,
                rank,
                depth,
                notation,
                cosize,
                min_offset,
                max_offset,
                unit_run,
                injective,
                offset,
                offset_of,
                coord,
                contains,
            }
        }
    }

    /// `a == b`, in a constant (the check that a `SubLayout` impl's parent is the layout it
    /// was planned on).
    pub const fn same_str(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// A run-time value from the notation the macro has already evaluated; the stand-in of
    /// an item whose evaluation failed (empty notation) gets the trivial value of the kind.
    pub trait FromNotation: Sized {
        fn from_notation(notation: &str) -> Self;
    }

    impl FromNotation for Layout {
        fn from_notation(notation: &str) -> Self {
            layout_of(notation)
        }
    }

    /// The layout of one kind that a notation evaluates to, or the trivial one of the kind.
    macro_rules! from_notation {
        ($ty:ty, $kind:ident, $fallback:expr) => {
            impl FromNotation for $ty {
                fn from_notation(notation: &str) -> Self {
                    match layout_core::evaluate(notation) {
                        Ok(Value::Layout(AnyLayout::$kind(l))) => l,
                        _ => $fallback,
                    }
                }
            }
        };
    }

    from_notation!(SwizzledLayout, Swizzled, SwizzledLayout::new(Swizzle::identity(), 0, layout_of("")));
    from_notation!(
        CoordinateLayout,
        Coordinate,
        CoordinateLayout::new(IntTuple::Int(1), Vec::new()).expect("`1:0` is a layout")
    );
    from_notation!(F2Layout, F2, F2Layout::new(IntTuple::Int(1), IntTuple::Int(0)).expect("`1:f0` is a layout"));
    from_notation!(ComposedLayout, Composed, {
        // A chain that stays composed: `(2,2):(1,3)` sends index bit 1 to 3, not a single bit,
        // so no swizzle after it is the same function.
        match layout_core::evaluate("(2,2):(1,3) o Sw<1,0,1> o 4:1") {
            Ok(Value::Layout(AnyLayout::Composed(c))) => c,
            _ => unreachable!("`(2,2):(1,3) o Sw<1,0,1> o 4:1` is a composed layout"),
        }
    });

    /// The layout of a notation the macro has already evaluated (`1:0` for the stand-in of
    /// an item whose evaluation failed, whose notation is empty).
    pub fn layout_of(notation: &str) -> Layout {
        layout_core::parse_layout(notation).or_else(|_| Layout::scalar(1, 0)).expect("`1:0` is a layout")
    }
}
