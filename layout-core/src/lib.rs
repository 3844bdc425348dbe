//! The CuTe layout algebra (Cecka, "CuTe Layout Representation and Algebra", arXiv 2603.02298):
//! hierarchical int tuples, layouts `shape:stride`, and every operation of the algebra,
//! exact and checked. Beyond integer strides: swizzled layouts `Sw<B,M,S> o L`
//! ([`SwizzledLayout`]), coordinate strides `a@i` ([`CoordinateLayout`]), F2 strides `fk`
//! ([`F2Layout`]) and composed layouts `A o Sw o off o B` ([`ComposedLayout`]); a layout of any
//! of these kinds is an [`AnyLayout`]. An operation that is not admissible returns a [`LayoutError`] that
//! names the violated condition and the numbers; nothing panics, overflow is an error.
//!
//! ```
//! use layout_core::{parse_layout, composition};
//! let a = parse_layout("(6,2):(8,2)").unwrap();
//! let b = parse_layout("(4,3):(3,1)").unwrap();
//! assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),3):((24,2),8)");
//! ```

mod any_layout;
mod basis;
mod cast;
pub mod checked;
mod coalesce;
mod common;
mod complement;
mod composed;
mod composition;
mod divide;
pub mod dynamic;
mod error;
mod explain;
mod f2;
mod int_tuple;
mod inverse;
mod layout;
pub mod notation;
mod operation;
mod ordered;
mod product;
mod semimodule;
mod slice;
mod stride;
mod strided;
mod swizzle;
mod tiler;
pub mod trace;
mod unzip;

pub use any_layout::AnyLayout;
pub use basis::{CoordinateLayout, compose_coordinates};
pub use cast::{downcast, upcast};
pub use coalesce::{coalesce, coalesce_by_mode, coalesce_extended, filter, filter_by_mode};
pub use common::{max_common_layout, max_common_vector, nullspace};
pub use complement::{complement, complement_default, complement_exact, complement_modes, complement_weak_at};
pub use composed::{ComposedLayout, Stage, compose_chains, compose_swizzle};
pub use composition::{composition, composition_tiler};
pub use divide::{
    flat_divide, local_partition, local_tile, logical_divide, logical_divide_tiler, tiled_divide, zipped_divide,
};
pub use dynamic::{DynLayout, DynamicError, SymInt, evaluate_dynamic};
pub use error::{Blame, LayoutError, Result};
pub use explain::{Explanation, explain, explain_in};
pub use f2::F2Layout;
pub use int_tuple::{IntTuple, crd2crd, crd2idx, idx2crd, inner_product};
pub use inverse::{left_inverse, right_inverse};
pub use layout::Layout;
pub use notation::{Value, evaluate, parse_int_tuple, parse_layout, parse_tiler};
pub use operation::Operation;
pub use ordered::{make_layout_like, make_ordered_layout, tile_to_shape, with_shape};
pub use product::{
    blocked_product, flat_product, logical_product, logical_product_tiler, raked_product, tiled_product, zipped_product,
};
pub use slice::{SliceCoord, slice, slice_fixed};
pub use stride::{Stride, StridedLayout};
pub use swizzle::{Swizzle, SwizzledLayout};
pub use tiler::Tiler;
