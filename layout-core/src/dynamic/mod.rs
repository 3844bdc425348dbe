//! Dynamic extents: layouts whose sizes and strides are known only at run time.
//!
//! Identifiers in shapes and strides are symbols, positive run-time integers:
//! `(M,N):(1,LD)`. The algebra runs over them with static operands (`dynamic::layout`): what can
//! be decided at expansion time is decided there (with the facts the user states, `where
//! M % 8 == 0, LD >= M`), what depends on the run-time values becomes a condition that the
//! constructor of the layout checks once ([`DynLayout::substitute`] here, `Mat::new` in the
//! generated code). A condition false for every value, or a branch that needs a fact to be
//! decided, is an error at expansion time.
//!
//! ```
//! use layout_core::dynamic::evaluate_dynamic;
//! let l = evaluate_dynamic("logical_divide((M,N):(1,LD), [8:1,8:1])").unwrap();
//! assert_eq!(l.to_string(), "((8,M/8),(8,N/8)):((1,8),(LD,8*LD))");
//! let conds: Vec<String> = l.conds.iter().map(|c| c.cond.to_string()).collect();
//! assert_eq!(conds, ["M % 8 == 0", "N % 8 == 0"]);
//! let v = |s: &str| match s { "M" => Some(16), "N" => Some(8), "LD" => Some(20), _ => None };
//! assert_eq!(l.substitute(&v).unwrap().to_string(), "((8,2),(8,1)):((1,8),(20,160))");
//! ```

mod edge;
mod eval;
mod inverse;
mod layout;
mod solve;
mod symint;

use std::borrow::Cow;

use thiserror::Error;

pub use edge::{EdgeGrid, EdgeMode, EdgeTiles, local_tile_edge};
pub use eval::{
    DynEnv, DynInt, DynOutput, DynValue, evaluate_dynamic, evaluate_dynamic_expr, evaluate_dynamic_value,
    mentions_symbols, parse_facts,
};
pub use inverse::{left_inverse, right_inverse};
pub use layout::{
    DynLayout, SymTuple, complement, compose, composition_tiler, cosize, flat_divide, flat_product, local_partition,
    local_tile, logical_divide, logical_divide_tiler, logical_product, logical_product_tiler, slice, tiled_divide,
    tiled_product, zip_product, zipped_divide, zipped_product,
};
pub use solve::{Cond, CondKind, Condition, Rel, Solver};
pub use symint::{Factor, SymInt, SymSum};

use crate::error::LayoutError;

/// Whether a name is a symbol when no item binds it: ASCII upper-case letters, digits and
/// `_`, starting with a letter (`M`, `LD`, `LDA`, `K_TILES`).
pub fn is_symbol_name(n: &str) -> bool {
    n.starts_with(|c: char| c.is_ascii_uppercase())
        && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Why the symbolic algebra rejects an expression at expansion time.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DynError {
    /// A condition that no value of the symbols satisfies.
    #[error("`{cond}` is false for every value of the symbols{given}: {why}")]
    Never {
        /// The condition, over the symbols.
        cond: String,
        /// ` allowed by `F`` when the facts F rule it out, else empty.
        given: String,
        /// Why no value satisfies it.
        why: String,
    },
    /// A branch of the algebra that depends on the values.
    #[error("{why}: the result depends on whether `{cond}`; state it (or the opposite) as a fact: `where {cond}`")]
    NeedFact {
        /// The condition the result depends on.
        cond: String,
        /// Which step of the algebra branches on it.
        why: String,
    },
    /// The static algebra rejects a static part.
    #[error("{0}")]
    Layout(LayoutError),
    /// Anything else the symbolic algebra cannot do, in words.
    #[error("{0}")]
    Other(String),
}

/// Why a dynamic layout cannot be built with the given numbers (the error of the generated
/// constructors and of [`DynLayout::substitute`]): the condition and the numbers.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DynamicError {
    /// A symbol given a value of zero or less (every extent is positive).
    #[error("`{symbol}` must be positive, but it is {value}")]
    NotPositive {
        /// The symbol.
        symbol: Cow<'static, str>,
        /// The value it was given.
        value: i64,
    },
    /// A condition of the layout (from its operations or its `where` facts) false for the values.
    #[error("the layout `{layout}` needs `{condition}` ({why}), but {values}")]
    Condition {
        /// The layout, in notation over the symbols.
        layout: Cow<'static, str>,
        /// The condition the values break.
        condition: Cow<'static, str>,
        /// The operation that needs it.
        why: Cow<'static, str>,
        /// The values of the symbols, printed.
        values: String,
    },
    /// An offset beyond `isize` for the values.
    #[error("an offset of the layout `{layout}` does not fit in isize with {values}")]
    Overflow {
        /// The layout, in notation over the symbols.
        layout: Cow<'static, str>,
        /// The values of the symbols, printed.
        values: String,
    },
}
