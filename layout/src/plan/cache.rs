//! The plans of `layout!`'s kernel items over layouts with symbols: each item keeps the last
//! plan per thread and plans again only when a tensor's layout value changes, so a loop of
//! calls over the same sizes plans once. The checks that operands agree on a shared symbol
//! live here too.

use std::cell::RefCell;
use std::thread::LocalKey;

use super::{CopyPlan, GemmPlan, PlanError};
use crate::gemm::GemmScalar;
use crate::kernels::Element;
use crate::{Tensor, TensorMut, TrustedLayout};

/// The per-thread plan of a copy item.
pub type CopyCache<S, D> = RefCell<Option<CopyPlan<S, D>>>;
/// The per-thread plan of a GEMM item.
pub type GemmCache<A, B, C> = RefCell<Option<GemmPlan<A, B, C>>>;

/// `Ok` when the operands `first` and `second` (role, item name, value) give the symbol
/// `symbol` the same value, else [`PlanError::Symbol`] naming the kernel item.
pub fn same_symbol(
    kernel: &'static str,
    symbol: &'static str,
    first: (&'static str, &'static str, usize),
    second: (&'static str, &'static str, usize),
) -> Result<(), PlanError> {
    if first.2 == second.2 {
        return Ok(());
    }
    Err(PlanError::Symbol { kernel, symbol, first, second })
}

/// Panics with the error's message, at the caller's caller (the user's call of the item).
#[cold]
#[track_caller]
pub fn kernel_failed(e: PlanError) -> ! {
    panic!("{e}")
}

/// Runs the copy with the thread's plan for these layouts, planning when they changed (with
/// `overlapping`, the plan of [`CopyPlan::new_overlapping`]: index order, the last write wins).
pub fn copy_cached<T, S, D>(
    cache: &'static LocalKey<CopyCache<S, D>>,
    src: &Tensor<'_, T, S>,
    dst: &mut TensorMut<'_, T, D>,
    overlapping: bool,
) -> Result<(), PlanError>
where
    T: Element,
    S: TrustedLayout + PartialEq,
    D: TrustedLayout + PartialEq,
{
    cache.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fresh = matches!(&*slot, Some(p) if p.src() == src.layout() && p.dst() == dst.layout());
        if !fresh {
            *slot = Some(if overlapping {
                CopyPlan::new_overlapping(src.layout(), dst.layout())?
            } else {
                CopyPlan::new(src.layout(), dst.layout())?
            });
        }
        if let Some(plan) = &*slot {
            plan.execute(src, dst);
        }
        Ok(())
    })
}

/// Runs the GEMM with the thread's plan for these layouts, planning when they changed.
pub fn gemm_cached<T, A, B, C>(
    cache: &'static LocalKey<GemmCache<A, B, C>>,
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
    cache.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fresh = matches!(&*slot, Some(p) if p.a() == a.layout() && p.b() == b.layout() && p.c() == c.layout());
        if !fresh {
            *slot = Some(GemmPlan::new(a.layout(), b.layout(), c.layout())?);
        }
        if let Some(plan) = &*slot {
            plan.execute(alpha, a, b, beta, c);
        }
        Ok(())
    })
}
