//! The run-time half of a `layout!` gemm item over a static tile of a dynamic tensor (static
//! shapes, strides read from the layout values): the extents are constants of the small
//! kernel's instantiation, so there is no plan to make or keep.

use super::{GemmPlan, PlanError};
use crate::gemm::small_dyn::{SMALL_MAX, Strides, on_cube, small_gemm_dyn, small_gemm_strided};
use crate::gemm::{GemmScalar, injective};
use crate::kernels::{DstView, SrcView};
use crate::{Tensor, TensorMut, TrustedLayout};

/// `C = α·A·Bᵀ + β·C` over tensors whose layouts have the static extents A `(M,K)`, B `(N,K)`,
/// C `(M,N)` and the strides `s` (read from the layout values by the item); `β = 0` does not
/// read C, `α = 0` reads neither A nor B. When C's strides do not show at once that it writes
/// each element once, the run-time planner decides (an error for a C that writes one place
/// twice).
///
/// # Panics
/// When some operand's offsets do not lie in its tensor's slice (never for strides of the
/// tensors' layouts).
#[inline]
#[track_caller]
pub fn gemm_tile<T, A, B, C, const M: usize, const N: usize, const K: usize>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    s: Strides,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    if !injective(M, N, s.crs, s.ccs) {
        return planned(alpha, a, b, beta, c);
    }
    let (av, bv) = (SrcView::new(a.as_slice(), a.base()), SrcView::new(b.as_slice(), b.base()));
    let base = c.base();
    small_gemm_strided::<T, M, N, K>(alpha, &av, 0, &bv, 0, beta, &mut DstView::new(c.as_mut_slice(), base), 0, s);
    Ok(())
}

/// [`gemm_tile`] with run-time extents `(M, N, K)` (read from the layouts by the item, each
/// at most `SMALL_MAX`; a larger one is planned at run time); a common cube runs
/// [`gemm_tile`]'s instantiation for it.
///
/// # Panics
/// As [`gemm_tile`].
#[inline]
#[track_caller]
pub fn gemm_small<T, A, B, C>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    (m, n, k): (usize, usize, usize),
    s: Strides,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    macro_rules! cube {
        ($e:literal) => {
            return gemm_tile::<T, A, B, C, $e, $e, $e>(alpha, a, b, beta, c, s)
        };
    }
    on_cube!((m, n, k), cube, {});
    // The strides as pairs of scalars: a `Strides` argument (passed by address) would keep
    // them in memory on the cubes' paths too.
    other(alpha, a, b, beta, c, (m, n, k), (s.ars, s.acs), (s.brs, s.bcs), (s.crs, s.ccs))
}

/// [`gemm_small`] for the extents other than the cubes, out of line.
#[inline(never)]
#[track_caller]
#[allow(clippy::too_many_arguments)]
fn other<T, A, B, C>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    (m, n, k): (usize, usize, usize),
    (ars, acs): (isize, isize),
    (brs, bcs): (isize, isize),
    (crs, ccs): (isize, isize),
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    if m > SMALL_MAX || n > SMALL_MAX || k > SMALL_MAX || !injective(m, n, crs, ccs) {
        return planned(alpha, a, b, beta, c);
    }
    let (av, bv) = (SrcView::new(a.as_slice(), a.base()), SrcView::new(b.as_slice(), b.base()));
    let base = c.base();
    let s = Strides { ars, acs, brs, bcs, crs, ccs };
    small_gemm_dyn((m, n, k), alpha, &av, 0, &bv, 0, beta, &mut DstView::new(c.as_mut_slice(), base), 0, s);
    Ok(())
}

/// The product through a run-time plan.
#[cold]
#[inline(never)]
#[track_caller]
fn planned<T, A, B, C>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    GemmPlan::new(a.layout(), b.layout(), c.layout())?.execute(alpha, a, b, beta, c);
    Ok(())
}
