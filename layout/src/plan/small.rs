//! The small-problem path of a [`GemmPlan`](super::GemmPlan): one leaf per dimension, no batch,
//! every extent at most [`SMALL_MAX`]. The strides and each operand's reach are worked out
//! once per plan, so a run only compares the views with the reaches and calls the register
//! tiled kernel over run-time extents.

use crate::gemm::epilogue::whole;
use crate::gemm::small_dyn::{Dyn, SMALL_MAX, Strides, run_scalar};
use crate::gemm::{At, GemmEpilogue, GemmScalar};
use crate::gemm::{check_operand, offset_range};
use crate::kernels::{DstView, SrcView};

/// A small product, planned: the extents, the strides, and the smallest and largest offset
/// of each operand over the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SmallPlan {
    e: Dyn,
    s: Strides,
    a: Option<(isize, isize)>,
    b: Option<(isize, isize)>,
    c: Option<(isize, isize)>,
}

impl SmallPlan {
    /// The plan of `m × n × k` with these strides, `None` when some extent is above
    /// [`SMALL_MAX`] or some operand's offsets overflow `isize`.
    pub(super) fn new(m: usize, n: usize, k: usize, s: Strides) -> Option<Self> {
        if m > SMALL_MAX || n > SMALL_MAX || k > SMALL_MAX {
            return None;
        }
        let fits = |r: usize, c: usize, rs: isize, cs: isize| match r == 0 || c == 0 {
            true => Some(None),
            false => offset_range(r, c, rs, cs).map(Some),
        };
        Some(SmallPlan {
            e: Dyn { m, n, k },
            s,
            a: fits(m, k, s.ars, s.acs)?,
            b: fits(k, n, s.brs, s.bcs)?,
            c: fits(m, n, s.crs, s.ccs)?,
        })
    }

    /// Runs the product over the views (offset 0 of each operand at its view's offset 0).
    ///
    /// # Panics
    /// When some operand's offsets do not lie in its view (never for tensors of the plan's
    /// layouts).
    #[inline]
    #[track_caller]
    pub(super) fn run<T: GemmScalar>(
        &self,
        alpha: T,
        a: &SrcView<'_, T>,
        b: &SrcView<'_, T>,
        beta: T,
        c: &mut DstView<'_, T>,
    ) {
        check_operand("A", (a.lo(), a.hi()), 0, self.a);
        check_operand("B", (b.lo(), b.hi()), 0, self.b);
        check_operand("C", (c.lo(), c.hi()), 0, self.c);
        // SAFETY: every offset of A, B and C over the problem lies in its view (checked
        // above), inside the view's borrowed slice; C's view is an exclusive borrow, so it
        // overlaps neither A nor B; the extents are at most `SMALL_MAX` (`new`).
        unsafe { run_scalar(self.e, alpha, a.as_ptr(), b.as_ptr(), beta, c.as_mut_ptr(), self.s) }
    }

    /// Applies the epilogue `e` to every element of C (just written by [`SmallPlan::run`], in
    /// L1: at most `SMALL_MAX²` elements).
    ///
    /// # Panics
    /// As [`SmallPlan::run`].
    #[track_caller]
    pub(super) fn epilogue<T: GemmScalar, E: GemmEpilogue<T>>(&self, e: &E, c: &mut DstView<'_, T>) {
        check_operand("C", (c.lo(), c.hi()), 0, self.c);
        let Dyn { m, n, .. } = self.e;
        // SAFETY: every offset of C over the problem lies in its view (checked above), an
        // exclusive borrow of its slice; a plan's C is injective (the planner's).
        unsafe { whole(e, At::WHOLE, c.as_mut_ptr(), self.s.crs, self.s.ccs, m, n) }
    }
}
