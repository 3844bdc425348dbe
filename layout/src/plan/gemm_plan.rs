//! The run-time GEMM: [`GemmPlan`] and [`gemm()`](fn@crate::gemm) over tensors of any layout.

use layout_plan::GemmLeaf;

use super::small::SmallPlan;
use super::{PlanError, same, to_isize, to_usize};
use crate::gemm::epilogue::gemm_views_with;
use crate::gemm::small_dyn::Strides;
use crate::gemm::{At, GemmEpilogue, GemmScalar};
use crate::kernels::{DstView, SrcView};
use crate::layout_fn::mode_sizes;
use crate::{LayoutError, Tensor, TensorMut, TrustedLayout};

const KERNEL: &str = "gemm";

/// One leaf of a dimension: its extent, the stride of A, B and C along it, and its weight in
/// the dimension's index (the product of the extents of the leaves before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Leaf {
    extent: usize,
    a: isize,
    b: isize,
    c: isize,
    weight: usize,
}

impl Leaf {
    fn new(l: &GemmLeaf, weight: usize) -> Result<Self, PlanError> {
        let s = |v| to_isize(KERNEL, "a stride", v);
        Ok(Leaf { extent: to_usize(KERNEL, "an extent", l.extent)?, a: s(l.a)?, b: s(l.b)?, c: s(l.c)?, weight })
    }

    /// The leaves of a dimension in index order, with their weights.
    fn all(leaves: &[GemmLeaf]) -> Result<Vec<Self>, PlanError> {
        let mut weight = 1usize;
        leaves
            .iter()
            .map(|l| {
                let leaf = Leaf::new(l, weight)?;
                weight = weight.saturating_mul(leaf.extent);
                Ok(leaf)
            })
            .collect()
    }
}

/// The dimension of a loop around the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    L,
    M,
    N,
    K,
}

/// The plan of `C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` over A `(M,K)`, B `(N,K)`
/// and C `(M,N)` (with a batch mode `L` last in all three, if any), made once from the
/// layouts' values and run over any tensors of those layouts. Each of M, N and K may be
/// several leaves (a tensor contraction, an im2col view): the kernel, the same blocked,
/// run-time dispatched engine the `gemm` items of `layout!` call, takes the largest leaf of
/// each, and the other leaves (and the batch mode) are loops around it; K loops accumulate
/// into C after their first step.
///
/// ```
/// use cute_layout::{GemmPlan, Tensor, TensorMut, layout};
///
/// layout! {
///     pub A = (M,K):(1,LDA) where LDA >= M;
///     pub B = (N,K):(LDB,1) where LDB >= K;
///     pub C = (M,N):(1,LDC) where LDC >= M;
/// }
/// let (m, n, k) = (3, 2, 4);
/// let a: Vec<f32> = (0..12).map(|x| x as f32).collect(); // A(i,p) = i + 3p
/// let b = vec![1.0f32; 8];                                // B(j,p) = 1
/// let mut c = vec![0.0f32; 6];
/// let (la, lb, lc) = (A::new(m, k, m).unwrap(), B::new(n, k, k).unwrap(), C::new(m, n, m).unwrap());
/// let plan = GemmPlan::new(&la, &lb, &lc).unwrap();
/// let (ta, tb) = (Tensor::new(&a, la).unwrap(), Tensor::new(&b, lb).unwrap());
/// plan.run(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, lc).unwrap());
/// // C(i,j) = Σ_p (i + 3p) = 4i + 18
/// assert_eq!(c, [18.0, 22.0, 26.0, 18.0, 22.0, 26.0]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmPlan<A, B, C> {
    a: A,
    b: B,
    c: C,
    m: Leaf,
    n: Leaf,
    k: Leaf,
    /// The other leaves, outermost first, with their dimension.
    loops: Vec<(Leaf, Dim)>,
    /// M, N, K and the number of batches.
    extents: (usize, usize, usize, usize),
    /// The small-problem path, when the problem is one small product.
    small: Option<SmallPlan>,
    /// C has no element (M, N or L is 0): running the plan does nothing.
    empty_c: bool,
}

/// Whether M, N, K and L are 0, from the operands' top-level modes (A `(M,K)`, B `(N,K)`,
/// C `(M,N)`, a batch mode last), for operands of which one is empty; an error when two
/// operands disagree on a dimension's extent. Operands of other ranks give no empty
/// dimension (the planner rejects them).
fn empty_dims<A: TrustedLayout, B: TrustedLayout, C: TrustedLayout>(
    a: &A,
    b: &B,
    c: &C,
) -> Result<[bool; 4], PlanError> {
    let sizes = |shape: crate::IntTuple| -> Vec<i64> {
        mode_sizes(&shape).into_iter().map(|e| i64::try_from(e).unwrap_or(i64::MAX)).collect()
    };
    let (sa, sb, sc) = (sizes(a.shape()), sizes(b.shape()), sizes(c.shape()));
    let at = |s: &[i64], i: usize| s.get(i).copied().unwrap_or(1);
    let ranks_ok = sa.len() == sb.len() && sa.len() == sc.len() && (sa.len() == 2 || sa.len() == 3);
    if !ranks_ok {
        // The planner's rank error follows.
        return Ok([false; 4]);
    }
    let pairs = [
        ("M", ("A", at(&sa, 0)), ("C", at(&sc, 0))),
        ("N", ("B", at(&sb, 0)), ("C", at(&sc, 1))),
        ("K", ("A", at(&sa, 1)), ("B", at(&sb, 1))),
        ("L", ("A", at(&sa, 2)), ("C", at(&sc, 2))),
        ("L", ("B", at(&sb, 2)), ("C", at(&sc, 2))),
    ];
    for (dim, (lhs, lhs_size), (rhs, rhs_size)) in pairs {
        if lhs_size != rhs_size {
            let source = LayoutError::GemmExtent { dim, lhs, lhs_size, rhs, rhs_size };
            return Err(PlanError::Layout { kernel: KERNEL, source });
        }
    }
    Ok([at(&sa, 0) == 0, at(&sb, 0) == 0, at(&sa, 1) == 0, at(&sc, 2) == 0])
}

impl<A, B, C> GemmPlan<A, B, C>
where
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    /// Plans the product. Fails when the operands' ranks are not 2 (3 with a batch mode), the
    /// extents of a dimension differ between two operands, the leaves of a dimension have no
    /// common refinement, or C maps two elements to one offset (the error names the numbers).
    pub fn new(a: &A, b: &B, c: &C) -> Result<Self, PlanError> {
        // An empty operand (an extent 0) is planned with its empty modes read as 1; the
        // dimensions that are really 0 must agree between the operands (checked first, on
        // operands of the right ranks, so that the error gives the real extents).
        let empty = if a.size() == 0 || b.size() == 0 || c.size() == 0 { Some(empty_dims(a, b, c)?) } else { None };
        // An empty C writes nothing, so its strides do not matter (nor whether they are
        // injective): planned as the compact column-major layout of its shape.
        let lc = if c.size() == 0 {
            crate::Layout::column_major(c.planned_layout().shape().clone())
                .map_err(|source| PlanError::Layout { kernel: KERNEL, source })?
        } else {
            c.planned_layout()
        };
        let plan = layout_plan::gemm_plan(&a.planned_layout(), &b.planned_layout(), &lc)
            .map_err(|source| PlanError::Layout { kernel: KERNEL, source })?;
        let split = |leaves: &[GemmLeaf], dim: Dim| -> Result<(Leaf, Vec<(Leaf, Dim)>), PlanError> {
            let (kernel, _) = layout_plan::GemmPlan::split(leaves);
            let mut all = Leaf::all(leaves)?;
            let Some(at) = leaves.iter().position(|l| *l == kernel) else {
                return Ok((Leaf::new(&kernel, 1)?, Vec::new()));
            };
            let kernel = all.remove(at);
            Ok((kernel, all.into_iter().map(|l| (l, dim)).collect()))
        };
        let (m, m_rest) = split(&plan.m_leaves, Dim::M)?;
        let (n, n_rest) = split(&plan.n_leaves, Dim::N)?;
        let (k, k_rest) = split(&plan.k_leaves, Dim::K)?;
        let batch = Leaf::all(&plan.batch_leaves)?.into_iter().map(|l| (l, Dim::L));
        let loops: Vec<(Leaf, Dim)> = batch.chain(m_rest).chain(n_rest).chain(k_rest).collect();
        let e = |v| to_usize(KERNEL, "an extent", v);
        let mut extents = (e(plan.m)?, e(plan.n)?, e(plan.k)?, e(plan.batch)?);
        let (mut k, mut empty_c) = (k, false);
        if let Some([m0, n0, k0, l0]) = empty {
            // C empty: nothing to compute. K empty: C = β·C (the engine's k = 0), at the first
            // point of the other K loops (later points add nothing), the epilogue at the last.
            empty_c = m0 || n0 || l0;
            let zero = |cond: bool, v: usize| if cond { 0 } else { v };
            extents = (zero(m0, extents.0), zero(n0, extents.1), zero(k0, extents.2), zero(l0, extents.3));
            if k0 {
                k.extent = 0;
            }
        }
        let strides = Strides { ars: m.a, acs: k.a, brs: k.b, bcs: n.b, crs: m.c, ccs: n.c };
        let small = if loops.is_empty() && empty.is_none() {
            SmallPlan::new(m.extent, n.extent, k.extent, strides)
        } else {
            None
        };
        Ok(GemmPlan { a: *a, b: *b, c: *c, m, n, k, loops, extents, small, empty_c })
    }

    /// The A layout the plan was made for.
    pub fn a(&self) -> &A {
        &self.a
    }

    /// The B layout the plan was made for.
    pub fn b(&self) -> &B {
        &self.b
    }

    /// The C layout the plan was made for.
    pub fn c(&self) -> &C {
        &self.c
    }

    /// The extents of M, N and K, and the number of batches (1 without a batch mode).
    pub fn extents(&self) -> (usize, usize, usize, usize) {
        self.extents
    }

    /// Runs `c = alpha·a·bᵀ + beta·c` over tensors of the plan's layouts; `beta = 0` does not
    /// read C, `alpha = 0` reads neither A nor B.
    ///
    /// # Panics
    /// When a tensor's layout is not the plan's ([`GemmPlan::try_run`] returns the error).
    #[track_caller]
    pub fn run<T: GemmScalar>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
    ) {
        if let Err(e) = self.try_run(alpha, a, b, beta, c) {
            panic!("{e}");
        }
    }

    /// [`GemmPlan::run`], with a layout that is not the plan's an error.
    pub fn try_run<T: GemmScalar>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
    ) -> Result<(), PlanError> {
        self.check(a, b, c)?;
        self.execute(alpha, a, b, beta, c);
        Ok(())
    }

    /// `Ok` when the tensors' layouts are the plan's.
    pub(super) fn check<T>(
        &self,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        c: &TensorMut<'_, T, C>,
    ) -> Result<(), PlanError> {
        same(KERNEL, "A", &self.a, a.layout())?;
        same(KERNEL, "B", &self.b, b.layout())?;
        same(KERNEL, "C", &self.c, c.layout())
    }

    /// Runs the plan over tensors whose layouts are the plan's (checked by the caller): one
    /// call of the engine per point of the loops around the kernel.
    #[track_caller]
    pub(super) fn execute<T: GemmScalar>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
    ) {
        self.execute_with(alpha, a, b, beta, c, None::<&fn(T, usize, usize) -> T>);
    }

    /// [`GemmPlan::execute`] with the epilogue `e`, applied by the engine call of the last
    /// point of the K loops of each point of the others.
    #[track_caller]
    pub(super) fn execute_with<T: GemmScalar, E: GemmEpilogue<T>>(
        &self,
        alpha: T,
        a: &Tensor<'_, T, A>,
        b: &Tensor<'_, T, B>,
        beta: T,
        c: &mut TensorMut<'_, T, C>,
        e: Option<&E>,
    ) {
        if self.empty_c {
            return;
        }
        let (av, bv) = (SrcView::new(a.as_slice(), a.base()), SrcView::new(b.as_slice(), b.base()));
        let base = c.base();
        let mut cv = DstView::new(c.as_mut_slice(), base);
        if let Some(small) = &self.small {
            small.run(alpha, &av, &bv, beta, &mut cv);
            if let Some(e) = e {
                small.epilogue(e, &mut cv);
            }
            return;
        }
        let (m, n, k) = (self.m, self.n, self.k);
        let mut at = vec![0usize; self.loops.len()];
        loop {
            // The offsets of this point: coordinates of the operands' domains, so the sums
            // are offsets of their layouts and cannot overflow.
            let (mut ao, mut bo, mut co) = (0isize, 0isize, 0isize);
            let (mut first_k, mut last_k) = (true, true);
            let mut place = At { m0: 0, ms: m.weight, n0: 0, ns: n.weight, l: 0 };
            for (&i, &(l, dim)) in at.iter().zip(&self.loops) {
                let w = i * l.weight;
                match dim {
                    Dim::L => place.l += w,
                    Dim::M => place.m0 += w,
                    Dim::N => place.n0 += w,
                    Dim::K => (first_k, last_k) = (first_k && i == 0, last_k && i + 1 == l.extent),
                }
                let i = i as isize;
                (ao, bo, co) = (ao + i * l.a, bo + i * l.b, co + i * l.c);
            }
            let beta_here = if first_k { beta } else { T::ONE };
            // The engine checks each operand's reach against its view.
            gemm_views_with(
                m.extent,
                n.extent,
                k.extent,
                alpha,
                &av,
                ao,
                m.a,
                k.a,
                &bv,
                bo,
                k.b,
                n.b,
                beta_here,
                &mut cv,
                co,
                m.c,
                n.c,
                e.filter(|_| last_k).map(|e| (e, place)),
            );
            // The next point, the last loop fastest.
            let mut d = at.len();
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                at[d] += 1;
                if at[d] < self.loops[d].0.extent {
                    break;
                }
                at[d] = 0;
            }
        }
    }
}

/// `C(m,n) = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` over tensors of any layouts, A `(M,K)`,
/// B `(N,K)` and C `(M,N)` as for the `gemm` items of `layout!` (a batch mode last in all
/// three, if any): plans from the layouts' values and runs the blocked engine
/// ([`GemmPlan`] keeps the plan for many calls). `beta = 0` does not read C.
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, gemm};
///
/// // C (2x2, column-major) = A (2x3, column-major) times Bᵀ, B (N,K) row-major.
/// let a = [1.0f64, 4.0, 2.0, 5.0, 3.0, 6.0]; // [[1,2,3],[4,5,6]]
/// let b = [1.0f64, 0.0, 1.0, 0.0, 1.0, 0.0]; // B(0,·) = (1,0,1), B(1,·) = (0,1,0)
/// let mut c = [0.0f64; 4];
/// let la = RuntimeLayout::<2>::new(&[(2, 1), (3, 2)]).unwrap();
/// let lb = RuntimeLayout::<2>::new(&[(2, 3), (3, 1)]).unwrap();
/// let lc = RuntimeLayout::<2>::new(&[(2, 1), (2, 2)]).unwrap();
/// gemm(1.0, &Tensor::new(&a, la).unwrap(), &Tensor::new(&b, lb).unwrap(), 0.0, &mut TensorMut::new(&mut c, lc).unwrap());
/// assert_eq!(c, [4.0, 10.0, 2.0, 5.0]); // C(i,0) = A(i,0) + A(i,2), C(i,1) = A(i,1)
/// ```
///
/// # Panics
/// When the plan fails ([`try_gemm`] returns the error), at the caller's line.
#[track_caller]
pub fn gemm<T, A, B, C>(alpha: T, a: &Tensor<'_, T, A>, b: &Tensor<'_, T, B>, beta: T, c: &mut TensorMut<'_, T, C>)
where
    T: GemmScalar,
    A: TrustedLayout + PartialEq,
    B: TrustedLayout + PartialEq,
    C: TrustedLayout + PartialEq,
{
    match GemmPlan::new(a.layout(), b.layout(), c.layout()) {
        Ok(plan) => plan.execute(alpha, a, b, beta, c),
        Err(e) => panic!("{e}"),
    }
}

/// [`gemm()`], with layouts that cannot be multiplied an error.
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, try_gemm};
///
/// let a = [1.0f32, 2.0, 3.0, 4.0];                                    // A (2,2) column-major
/// let b = [1.0f32, 1.0];                                              // B (N,K) = (1,2)
/// let la = RuntimeLayout::<2>::new(&[(2, 1), (2, 2)]).unwrap();
/// let lb = RuntimeLayout::<2>::new(&[(1, 2), (2, 1)]).unwrap();
/// let lc = RuntimeLayout::<2>::new(&[(2, 1), (1, 2)]).unwrap();
/// let mut c = [0.0f32; 2];
/// try_gemm(1.0, &Tensor::new(&a, la).unwrap(), &Tensor::new(&b, lb).unwrap(), 0.0, &mut TensorMut::new(&mut c, lc).unwrap()).unwrap();
/// assert_eq!(c, [4.0, 6.0]);                                          // the row sums of A
/// // A and B disagree on K: an error, not a panic.
/// let lk = RuntimeLayout::<2>::new(&[(1, 3), (3, 1)]).unwrap();
/// let e = try_gemm(1.0, &Tensor::new(&a, la).unwrap(), &Tensor::new(&[1.0f32; 3], lk).unwrap(), 0.0, &mut TensorMut::new(&mut c, lc).unwrap());
/// assert!(e.is_err());
/// ```
pub fn try_gemm<T, A, B, C>(
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
