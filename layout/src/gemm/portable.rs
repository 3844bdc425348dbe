//! The portable level: plain Rust the compiler vectorizes for the target's baseline (SSE2 on
//! x86_64, no FMA), the only level on other architectures.

use super::GemmScalar;
use super::driver::{Kernel, MicroArgs, Problem, Unfused, blocked, small, write_back};
#[cfg(test)]
use super::driver::{SMALL_NR, small_mr};
use layout_plan::GemmBlocking;
use layout_plan::gemm_blocking::{GEMM_PORTABLE_F32, GEMM_PORTABLE_F64};

/// A generic register tile of `MR×NR` (`MR` a multiple of the baseline vector), blocked as
/// the plan's portable level of `f64` (`F64`) or `f32`.
struct Tile<const MR: usize, const NR: usize, const F64: bool>;

impl<T: GemmScalar, const MR: usize, const NR: usize, const F64: bool> Kernel<T> for Tile<MR, NR, F64> {
    const PLAN: GemmBlocking = if F64 { GEMM_PORTABLE_F64 } else { GEMM_PORTABLE_F32 };
    const LEVEL: crate::kernels::Level = crate::kernels::Level::Portable;
    const MR: usize = MR;
    const NR: usize = NR;

    // SAFETY contract: `Kernel::micro`'s (the packed panels hold `kc` steps; C covers the tile).
    #[inline(always)]
    unsafe fn micro(t: &MicroArgs<T>) {
        let MicroArgs { k: kc, a, a_cs, b, c, c_rs: rs, c_cs: cs, mr, nr, alpha, beta, .. } = *t;
        let a_step = a_cs as usize;
        let mut acc = [[T::ZERO; MR]; NR];
        for p in 0..kc {
            // SAFETY: `p < kc`: `MR` elements of A at `p·a_step` and the packed B panel's
            // `kc·NR` elements (the caller's bounds).
            let (ap, bp) = unsafe { (&*a.add(p * a_step).cast::<[T; MR]>(), &*b.add(p * NR).cast::<[T; NR]>()) };
            for (col, &bv) in acc.iter_mut().zip(bp) {
                for (x, &av) in col.iter_mut().zip(ap) {
                    *x = av * bv + *x;
                }
            }
        }
        // SAFETY: `[[T; MR]; NR]` is `MR·NR` contiguous `T`s.
        let flat = unsafe { core::slice::from_raw_parts(acc.as_ptr().cast::<T>(), MR * NR) };
        // SAFETY: the tile's bounds (the caller's).
        unsafe { write_back(flat, MR, c, rs, cs, mr, nr, alpha, beta) }
    }
}

type F32Tile = Tile<{ GEMM_PORTABLE_F32.mr }, { GEMM_PORTABLE_F32.nr }, false>;
type F64Tile = Tile<{ GEMM_PORTABLE_F64.mr }, { GEMM_PORTABLE_F64.nr }, true>;

/// # Safety
/// [`gemm`](super::gemm)'s bounds for a normalized problem with `k ≥ 1`.
pub(super) unsafe fn f32_portable(p: &Problem<f32>, direct: bool) {
    // SAFETY: forwarded from the caller.
    unsafe { if direct { small::<f32, Unfused>(p) } else { blocked::<f32, F32Tile>(p) } }
}

/// # Safety
/// [`gemm`](super::gemm)'s bounds for a normalized problem with `k ≥ 1`.
pub(super) unsafe fn f64_portable(p: &Problem<f64>, direct: bool) {
    // SAFETY: forwarded from the caller.
    unsafe { if direct { small::<f64, Unfused>(p) } else { blocked::<f64, F64Tile>(p) } }
}

/// # Safety
/// [`task`](super::grid::task)'s contract with the portable kernel.
#[cfg(feature = "rayon")]
pub(super) unsafe fn f32_portable_task(p: &Problem<f32>, g: &super::grid::Shared<f32>, t: usize) {
    // SAFETY: forwarded from the caller.
    unsafe { super::grid::task::<f32, F32Tile>(p, g, t) }
}

/// # Safety
/// [`task`](super::grid::task)'s contract with the portable kernel.
#[cfg(feature = "rayon")]
pub(super) unsafe fn f64_portable_task(p: &Problem<f64>, g: &super::grid::Shared<f64>, t: usize) {
    // SAFETY: forwarded from the caller.
    unsafe { super::grid::task::<f64, F64Tile>(p, g, t) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::driver::assert_agrees;
    use layout_plan::Level as GemmLevel;

    #[test]
    fn tiles_run_the_plans_blocking() {
        assert_agrees::<f32, F32Tile>(GemmLevel::Portable, (small_mr::<f32>(), SMALL_NR));
        assert_agrees::<f64, F64Tile>(GemmLevel::Portable, (small_mr::<f64>(), SMALL_NR));
    }
}
