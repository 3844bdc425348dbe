//! Kernels over tensors of any layout, planned at run time: [`copy()`](fn@crate::copy) and
//! [`gemm()`](fn@crate::gemm) take tensors (static items, dynamic items, run-time layouts,
//! sub-tensors and edge tiles), plan from the layouts' values (layout-core's copy and GEMM
//! planners, the same the macro runs at compile time) and run the same precompiled kernels as
//! the `layout!` items. A [`CopyPlan`] or [`GemmPlan`] is the plan kept, to run many times
//! over tensors of the layouts it was made for, with no planning per call.

pub(crate) mod cache;
mod copy_plan;
pub(crate) mod copy_tile;
mod gemm_plan;
pub(crate) mod gemm_with;
pub(crate) mod inline;
mod small;
pub(crate) mod tile;

pub use copy_plan::{CopyPlan, copy, try_copy};
pub use gemm_plan::{GemmPlan, gemm, try_gemm};
pub use gemm_with::{gemm_batched_with, gemm_with, try_gemm_batched_with, try_gemm_with};

use crate::layout_fn::notation as shown;
use crate::{LayoutError, LayoutFn};

/// Why a run-time kernel cannot run: the planner's error (sizes that differ, a destination
/// that writes one place twice, operands whose modes do not agree), or a tensor whose layout
/// is not the one its plan was made for.
///
/// ```
/// use cute_layout::{CopyPlan, PlanError, RuntimeLayout, Tensor, TensorMut, try_copy};
///
/// let four = RuntimeLayout::<1>::new(&[(4, 1)]).unwrap();
/// let bcast = RuntimeLayout::<1>::new(&[(4, 0)]).unwrap();
/// let src = [1u32, 2, 3, 4];
/// let mut dst = [0u32; 4];
/// // A destination that writes one place four times.
/// let e = try_copy(&Tensor::new(&src, four).unwrap(), &mut TensorMut::new(&mut dst, bcast).unwrap()).unwrap_err();
/// assert!(matches!(e, PlanError::Layout { kernel: "copy", .. }), "{e}");
/// // A tensor over another layout than the plan's.
/// let plan = CopyPlan::new(&four, &four).unwrap();
/// let other = RuntimeLayout::<1>::new(&[(4, -1)]).unwrap();
/// let e = plan.try_run(&Tensor::new(&src, other).unwrap(), &mut TensorMut::new(&mut dst, four).unwrap()).unwrap_err();
/// assert!(matches!(e, PlanError::Mismatch { operand: "source", .. }), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The planner rejects the layouts (the error names the numbers).
    #[error("{}", prefixed(kernel, source))]
    Layout {
        /// `copy` or `gemm`.
        kernel: &'static str,
        /// What the planner says.
        source: LayoutError,
    },
    /// A tensor passed to [`CopyPlan::run`] or [`GemmPlan::run`] has another layout than the
    /// plan's.
    #[error("{kernel}: the plan was made for the {operand} layout `{planned}`, but the tensor's layout is `{found}`")]
    Mismatch {
        /// `copy` or `gemm`.
        kernel: &'static str,
        /// Which operand: `source`, `destination`, `A`, `B` or `C`.
        operand: &'static str,
        /// The layout the plan was made for.
        planned: String,
        /// The tensor's layout.
        found: String,
    },
    /// Two operands of a kernel item give a shared symbol different values (the same symbol
    /// in two operands is the same extent or stride).
    #[error(
        "{kernel}: the symbol `{symbol}` is {} in the {} (`{}`) but {} in the {} (`{}`); the same symbol in two \
         operands must have one value",
        first.2, first.0, first.1, second.2, second.0, second.1
    )]
    Symbol {
        /// The kernel item.
        kernel: &'static str,
        /// The symbol.
        symbol: &'static str,
        /// The first operand: its role, its item and the symbol's value there.
        first: (&'static str, &'static str, usize),
        /// The second operand.
        second: (&'static str, &'static str, usize),
    },
    /// The tensor passed for an operand written inline with symbols in a kernel item
    /// (`copy((M,N):(1,M), RowMajor)`) has a layout that is not the pattern for any values of
    /// its symbols (the symbols are read from the tensor's leaves).
    #[error("{kernel}: the {operand} is written `{pattern}`, but the tensor's layout is `{found}`: {why}")]
    Pattern {
        /// The kernel item.
        kernel: &'static str,
        /// Which operand: `source`, `destination`, `A`, `B` or `C`.
        operand: &'static str,
        /// The operand as written in the item.
        pattern: &'static str,
        /// The tensor's layout.
        found: String,
        /// What differs.
        why: String,
    },
    /// A number of the plan does not fit the machine's integers (a layout-core value beyond
    /// `isize`).
    #[error("{kernel}: {what} {value} does not fit in isize")]
    Overflow {
        /// `copy` or `gemm`.
        kernel: &'static str,
        /// What did not fit.
        what: &'static str,
        /// Its value.
        value: i64,
    },
}

/// `error` after `kernel: `, unless its message already starts so.
fn prefixed(kernel: &str, error: &LayoutError) -> String {
    let text = error.to_string();
    match text.strip_prefix(kernel) {
        Some(rest) if rest.starts_with(':') => text,
        _ => format!("{kernel}: {text}"),
    }
}

/// `Ok` when `found` is the plan's layout `planned`, else [`PlanError::Mismatch`].
fn same<L: LayoutFn + PartialEq>(
    kernel: &'static str,
    operand: &'static str,
    planned: &L,
    found: &L,
) -> Result<(), PlanError> {
    if planned == found {
        return Ok(());
    }
    Err(PlanError::Mismatch { kernel, operand, planned: shown(planned), found: shown(found) })
}

/// `v` as an `isize`, or [`PlanError::Overflow`] naming it.
fn to_isize(kernel: &'static str, what: &'static str, v: i64) -> Result<isize, PlanError> {
    isize::try_from(v).map_err(|_| PlanError::Overflow { kernel, what, value: v })
}

/// `v` (non-negative) as a `usize`, or [`PlanError::Overflow`] naming it.
fn to_usize(kernel: &'static str, what: &'static str, v: i64) -> Result<usize, PlanError> {
    usize::try_from(v).map_err(|_| PlanError::Overflow { kernel, what, value: v })
}
