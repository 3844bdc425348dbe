//! The run-time GEMM with a fused epilogue: [`gemm_with`], [`gemm_batched_with`] and the
//! [`GemmPlan`] methods that take one.

use std::thread::LocalKey;

use super::cache::GemmCache;
use super::{GemmPlan, PlanError};
use crate::gemm::{Batched, GemmScalar};
use crate::{Tensor, TensorMut, TrustedLayout};

impl<A, B, C> GemmPlan<A, B, C>
where
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    /// [`GemmPlan::run`] with `f` fused: `C(m,n) = f(alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n), m, n)`,
    /// `f` called exactly once per element of C (once per batch over a batch mode) on each
    /// finished tile of C; see [`gemm_with`].
    ///
    /// # Panics
    /// When a tensor's layout is not the plan's ([`GemmPlan::try_run_with`] returns the error).
    #[track_caller]
    pub fn run_with<T: GemmScalar, F: Fn(T, usize, usize) -> T + Sync>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
        f: F,
    ) {
        if let Err(e) = self.try_run_with(alpha, a, b, beta, c, f) {
            panic!("{e}");
        }
    }

    /// [`GemmPlan::run_with`], with a layout that is not the plan's an error.
    pub fn try_run_with<T: GemmScalar, F: Fn(T, usize, usize) -> T + Sync>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
        f: F,
    ) -> Result<(), PlanError> {
        self.check(a, b, c)?;
        self.execute_with(alpha, a, b, beta, c, Some(&f));
        Ok(())
    }

    /// [`GemmPlan::run_with`] where `f(x, m, n, l)` also receives the batch index `l` (0
    /// without a batch mode).
    ///
    /// # Panics
    /// When a tensor's layout is not the plan's ([`GemmPlan::try_run_batched_with`] returns
    /// the error).
    #[track_caller]
    pub fn run_batched_with<T: GemmScalar, F: Fn(T, usize, usize, usize) -> T + Sync>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
        f: F,
    ) {
        if let Err(e) = self.try_run_batched_with(alpha, a, b, beta, c, f) {
            panic!("{e}");
        }
    }

    /// [`GemmPlan::run_batched_with`], with a layout that is not the plan's an error.
    pub fn try_run_batched_with<T: GemmScalar, F: Fn(T, usize, usize, usize) -> T + Sync>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
        f: F,
    ) -> Result<(), PlanError> {
        self.check(a, b, c)?;
        self.execute_with(alpha, a, b, beta, c, Some(&Batched(f)));
        Ok(())
    }
}

/// [`gemm()`](fn@crate::gemm) with an epilogue fused: stores
/// `C(m,n) = f(alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n), m, n)`, where `m` and `n` are the
/// element's indices in C's M and N modes (a mode of several leaves indexed
/// colexicographically, as its layout does).
///
/// `f` is called exactly once per element of C (over a batch mode, once per element of each
/// batch: [`gemm_batched_with`] passes the batch index), in the GEMM's own pass: on each
/// finished tile of C right after the kernel stores it, while it is in L1, on the last block
/// of K only; never as a second sweep over C. The calls come from several threads for a
/// large product (hence `Sync`) and in no particular order. `beta = 0` does not read C;
/// `alpha = 0` reads neither A nor B (`f` then receives `beta·C(m,n)`, or 0).
///
/// A linear layer `Y = relu(X·Wᵀ + bias)`, the bias and the activation fused:
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, gemm_with};
///
/// let (batch, inputs, outputs) = (4, 3, 2);
/// let x: Vec<f32> = (0..batch * inputs).map(|v| v as f32 - 5.0).collect();  // X (batch, inputs), column-major
/// let w = [1.0f32, -1.0, 0.5, 0.5, 2.0, 0.0];                             // W (outputs, inputs), column-major
/// let bias = [0.25f32, -3.0];
/// let mut y = vec![f32::NAN; batch * outputs];                            // Y (batch, outputs): never read
/// let lx = RuntimeLayout::<2>::new(&[(batch, 1), (inputs, batch as isize)]).unwrap();
/// let lw = RuntimeLayout::<2>::new(&[(outputs, 1), (inputs, outputs as isize)]).unwrap();
/// let ly = RuntimeLayout::<2>::new(&[(batch, 1), (outputs, batch as isize)]).unwrap();
/// let (tx, tw) = (Tensor::new(&x, lx).unwrap(), Tensor::new(&w, lw).unwrap());
/// gemm_with(1.0, &tx, &tw, 0.0, &mut TensorMut::new(&mut y, ly).unwrap(), |v, _m, n| (v + bias[n]).max(0.0));
/// for (m, n) in (0..batch).flat_map(|m| (0..outputs).map(move |n| (m, n))) {
///     let dot: f32 = (0..inputs).map(|k| x[m + batch * k] * w[n + outputs * k]).sum();
///     assert_eq!(y[m + batch * n], (dot + bias[n]).max(0.0));
/// }
/// ```
///
/// # Panics
/// When the plan fails ([`try_gemm_with`] returns the error), at the caller's line.
#[track_caller]
pub fn gemm_with<T, A, B, C, F>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    f: F,
) where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
    F: Fn(T, usize, usize) -> T + Sync,
{
    if let Err(e) = try_gemm_with(alpha, a, b, beta, c, f) {
        panic!("{e}");
    }
}

/// [`gemm_with`], with layouts that cannot be multiplied an error.
pub fn try_gemm_with<T, A, B, C, F>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    f: F,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
    F: Fn(T, usize, usize) -> T + Sync,
{
    GemmPlan::new(a.layout(), b.layout(), c.layout())?.execute_with(alpha, a, b, beta, c, Some(&f));
    Ok(())
}

/// [`gemm_with`] where `f(x, m, n, l)` also receives the batch index `l` of a batch mode (the
/// last mode of A, B and C; 0 without one).
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, gemm_batched_with};
///
/// // Two batches of C (2x2) = A (2x1) · B (2x1)ᵀ, each shifted by its batch index.
/// let a = [1.0f64, 2.0, 3.0, 4.0];
/// let b = [1.0f64, 10.0, 1.0, 10.0];
/// let mut c = [0.0f64; 8];
/// let la = RuntimeLayout::<3>::new(&[(2, 1), (1, 2), (2, 2)]).unwrap();
/// let lc = RuntimeLayout::<3>::new(&[(2, 1), (2, 2), (2, 4)]).unwrap();
/// let (ta, tb) = (Tensor::new(&a, la).unwrap(), Tensor::new(&b, la).unwrap());
/// gemm_batched_with(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, lc).unwrap(), |x, _, _, l| x + 100.0 * l as f64);
/// assert_eq!(c, [1.0, 2.0, 10.0, 20.0, 103.0, 104.0, 130.0, 140.0]);
/// ```
///
/// # Panics
/// When the plan fails ([`try_gemm_batched_with`] returns the error), at the caller's line.
#[track_caller]
pub fn gemm_batched_with<T, A, B, C, F>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    f: F,
) where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
    F: Fn(T, usize, usize, usize) -> T + Sync,
{
    if let Err(e) = try_gemm_batched_with(alpha, a, b, beta, c, f) {
        panic!("{e}");
    }
}

/// [`gemm_batched_with`], with layouts that cannot be multiplied an error.
pub fn try_gemm_batched_with<T, A, B, C, F>(
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    f: F,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
    F: Fn(T, usize, usize, usize) -> T + Sync,
{
    GemmPlan::new(a.layout(), b.layout(), c.layout())?.execute_with(alpha, a, b, beta, c, Some(&Batched(f)));
    Ok(())
}

/// Runs the GEMM with the epilogue `e` and the thread's plan for these layouts, planning when
/// they changed (the kernel items over symbols' `NAME_with`). The plan is taken out of the
/// cache while `e` runs, so that `e` may call the item again (that call plans afresh).
pub fn gemm_cached_with<T, A, B, C, E>(
    cache: &'static LocalKey<GemmCache<A, B, C>>,
    alpha: T,
    a: &Tensor<'_, T, A>,
    b: &Tensor<'_, T, B>,
    beta: T,
    c: &mut TensorMut<'_, T, C>,
    e: &E,
) -> Result<(), PlanError>
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
    E: crate::gemm::GemmEpilogue<T>,
{
    let kept = cache.with(|cell| cell.borrow_mut().take());
    let plan = match kept {
        Some(p) if p.a() == a.layout() && p.b() == b.layout() && p.c() == c.layout() => p,
        _ => GemmPlan::new(a.layout(), b.layout(), c.layout())?,
    };
    plan.execute_with(alpha, a, b, beta, c, Some(e));
    cache.with(|cell| *cell.borrow_mut() = Some(plan));
    Ok(())
}
