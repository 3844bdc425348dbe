//! The run-time half of a `layout!` copy item over layouts with symbols whose body the static
//! strides decide at expansion (a stride-1 mode in the source and one in the destination): the
//! item reads the extents and the other strides from the layout values and calls one of these,
//! which builds the kernels' [`Program`] in closed form (no planner, no allocation) and runs it
//! through the checked entries ([`kernels::copy`], [`kernels::copy_strided_tile`]), which compare
//! the program's extremes with the tensors' slices. Each returns `false`, copying nothing, when
//! the destination numbers write one place twice or an offset would overflow `isize`: the item
//! then plans at run time, which reports the error.

use crate::kernels::{self, Body, CopyProgram, DstView, Element, Loop, Program, SrcView, StridedTile};
use crate::{Tensor, TensorMut, TrustedLayout};

/// Whether every offset `Σ (e_k - 1)·|s_k|` of the modes `(extent, stride)` fits `isize`.
fn fits(modes: &[(usize, isize)]) -> bool {
    modes
        .iter()
        .try_fold(0usize, |acc, &(e, s)| e.saturating_sub(1).checked_mul(s.unsigned_abs())?.checked_add(acc))
        .is_some_and(|reach| isize::try_from(reach).is_ok())
}

/// Whether a destination with a unit-stride mode of `inner` elements inside `outer` steps of
/// `stride` writes each place once.
fn injective(inner: usize, outer: usize, stride: isize) -> bool {
    inner <= 1 || outer <= 1 || stride.unsigned_abs() >= inner
}

/// Runs `program` from `src` to `dst` through the checked entry.
#[inline(always)]
#[track_caller]
fn run<T: Element, S: TrustedLayout, D: TrustedLayout>(
    src: &Tensor<'_, T, S>,
    dst: &mut TensorMut<'_, T, D>,
    program: Program<'_>,
) {
    let sv = SrcView::new(src.as_slice(), src.base());
    let base = dst.base();
    // The entry compares the program's extremes with the views: a program whose numbers are
    // not the layouts' panics there, never reaches outside the slices.
    kernels::copy(sv, DstView::new(dst.as_mut_slice(), base), &CopyProgram::new(program));
}

/// The transpose `dst[r·dst_ld + c] = src[r + c·src_ld]` for `r < rows`, `c < cols` (the source
/// unit-stride along the rows, the destination along the columns): the transpose body, or a
/// strided run when one side has extent 1 (its stride is then never used).
///
/// # Panics
/// When the program's offsets do not lie in the tensors' slices (never for numbers read from
/// the tensors' layouts).
#[inline]
#[track_caller]
pub fn copy_transpose<T, S, D>(
    src: &Tensor<'_, T, S>,
    dst: &mut TensorMut<'_, T, D>,
    (rows, cols): (usize, usize),
    (src_ld, dst_ld): (isize, isize),
) -> bool
where
    T: Element,
    S: TrustedLayout,
    D: TrustedLayout,
{
    if !injective(cols, rows, dst_ld) || !fits(&[(rows, 1), (cols, src_ld)]) || !fits(&[(rows, dst_ld), (cols, 1)]) {
        return false;
    }
    let body = match (rows, cols) {
        (1, _) => Body::Run { len: cols, src: src_ld, dst: 1 },
        (_, 1) => Body::Run { len: rows, src: 1, dst: dst_ld },
        _ => Body::Transpose { rows, cols, src_ld, dst_ld },
    };
    run(src, dst, Program { body, loops: &[], src_base: 0, dst_base: 0 });
    true
}

/// Contiguous runs: `dst[k + j·dst_stride] = src[k + j·src_stride]` for `k < len`,
/// `j < extent` (both unit-stride along the same mode); one run when the steps are the run's
/// length on both sides or the loop has extent 1.
///
/// # Panics
/// As [`copy_transpose`].
#[inline]
#[track_caller]
pub fn copy_runs<T, S, D>(
    src: &Tensor<'_, T, S>,
    dst: &mut TensorMut<'_, T, D>,
    len: usize,
    (extent, src_stride, dst_stride): (usize, isize, isize),
) -> bool
where
    T: Element,
    S: TrustedLayout,
    D: TrustedLayout,
{
    if !injective(len, extent, dst_stride)
        || !fits(&[(len, 1), (extent, src_stride)])
        || !fits(&[(len, 1), (extent, dst_stride)])
    {
        return false;
    }
    let whole = isize::try_from(len).is_ok_and(|l| l == src_stride && l == dst_stride);
    let (body, loops): (Body, &[Loop]) = match len.checked_mul(extent) {
        Some(n) if extent == 1 || whole => (Body::Run { len: n, src: 1, dst: 1 }, &[]),
        _ if len == 1 => (Body::Run { len: extent, src: src_stride, dst: dst_stride }, &[]),
        _ => {
            let l = [Loop { extent, src: src_stride, dst: dst_stride }];
            run(src, dst, Program { body: Body::Run { len, src: 1, dst: 1 }, loops: &l, src_base: 0, dst_base: 0 });
            return true;
        }
    };
    run(src, dst, Program { body, loops, src_base: 0, dst_base: 0 });
    true
}

/// [`copy_transpose`] of a static `R × C` tile (`N = R·C` points, at most
/// [`kernels::UNROLL_MAX`]) with run-time leading dimensions: a [`StridedTile`], whose
/// extremes follow from the strides in closed form, run straight-line, one statement per
/// point, as a static item's small transpose.
///
/// # Panics
/// As [`copy_transpose`]; at compile time when `N` is not `R·C` or exceeds
/// [`kernels::UNROLL_MAX`].
#[inline(always)]
#[track_caller]
pub fn copy_tile<T, S, D, const R: usize, const C: usize, const N: usize>(
    src: &Tensor<'_, T, S>,
    dst: &mut TensorMut<'_, T, D>,
    (src_ld, dst_ld): (isize, isize),
) -> bool
where
    T: Element,
    S: TrustedLayout,
    D: TrustedLayout,
{
    const { assert!(R * C == N && N <= kernels::UNROLL_MAX, "a straight-line tile of R·C points") };
    if !injective(C, R, dst_ld) {
        return false;
    }
    let Some(tile) = StridedTile::<R, C>::new((1, src_ld), (dst_ld, 1)) else { return false };
    let sv = SrcView::new(src.as_slice(), src.base());
    let base = dst.base();
    // The entry compares the tile's extremes with the views.
    kernels::copy_strided_tile(sv, DstView::new(dst.as_mut_slice(), base), &tile);
    true
}
