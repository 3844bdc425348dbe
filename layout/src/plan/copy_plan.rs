//! The run-time copy: [`CopyPlan`] and [`copy()`](fn@crate::copy) over tensors of any layout.

use layout_plan::{CopyBody, CopyMode};

use super::{PlanError, same, shown, to_isize, to_usize};
use crate::kernels::{self, Body, CopyProgram, DstView, Element, Loop, Program, SrcView};
use crate::{LayoutError, Offset, Tensor, TensorMut, TrustedLayout};

const KERNEL: &str = "copy";

/// The plan of `dst[D(i)] = src[S(i)]` for every index `i` of two layouts of equal size,
/// made once from their values and run over any tensors of those layouts: the joint modes,
/// the common vector, the loop nest and the body (a vector run, a broadcast, a gather or
/// scatter, a register-tile transpose) that layout-core's planner finds, run by the same
/// precompiled kernels as a `copy` item of `layout!`. Layouts without a common refinement
/// (or swizzled ones) copy index by index.
///
/// ```
/// use cute_layout::{CopyPlan, Tensor, TensorMut, layout};
///
/// layout! {
///     pub ColMajor = (M,N):(1,LDS) where LDS >= M;
///     pub RowMajor = (M,N):(LDD,1) where LDD >= N;
/// }
/// let (m, n) = (3, 5);
/// let src: Vec<f32> = (0..15).map(|x| x as f32).collect();
/// let mut dst = vec![0.0f32; 15];
/// let (s, d) = (ColMajor::new(m, n, m).unwrap(), RowMajor::new(m, n, n).unwrap());
/// let plan = CopyPlan::new(&s, &d).unwrap();   // once
/// let t = Tensor::new(&src, s).unwrap();
/// let mut u = TensorMut::new(&mut dst, d).unwrap();
/// plan.run(&t, &mut u);                         // as often as needed
/// assert_eq!(dst[1], src[3]);                   // (0,1): column-major offset 3, row-major 1
/// assert_eq!(dst[5], src[1]);                   // (1,0)
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan<S, D> {
    src: S,
    dst: D,
    size: usize,
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// The program the kernels run.
    Program { body: Body, loops: Vec<Loop>, src_base: isize, dst_base: isize },
    /// No common refinement: index by index through both layouts' offset functions.
    Indexed,
}

fn mode(m: &CopyMode) -> Result<Loop, PlanError> {
    Ok(Loop {
        extent: to_usize(KERNEL, "an extent", m.extent)?,
        src: to_isize(KERNEL, "a stride", m.src)?,
        dst: to_isize(KERNEL, "a stride", m.dst)?,
    })
}

impl<S: TrustedLayout + PartialEq, D: TrustedLayout + PartialEq> CopyPlan<S, D> {
    /// Plans the copy from `src` to `dst`. Fails when the sizes differ or the destination
    /// maps two indices to one offset (the error names the layouts and the numbers).
    pub fn new(src: &S, dst: &D) -> Result<Self, PlanError> {
        Self::plan(src, dst, false)
    }

    /// Plans a copy whose destination may write a place more than once (`copy(SRC, DST,
    /// overlapping)` of [`layout!`](crate::layout)): the copy then runs in index order and
    /// each place keeps the value of the last index that writes it, as a sequential loop
    /// leaves it. Fails when the sizes differ.
    ///
    /// ```
    /// use cute_layout::{CopyPlan, RuntimeLayout, Tensor, TensorMut};
    ///
    /// // The last column of a 3x4 column-major matrix, by a destination of stride 0 along n.
    /// let src: Vec<i32> = (0..12).collect();
    /// let mut dst = vec![0; 3];
    /// let s = RuntimeLayout::<2>::new(&[(3, 1), (4, 3)]).unwrap();
    /// let d = RuntimeLayout::<2>::new(&[(3, 1), (4, 0)]).unwrap();
    /// assert!(CopyPlan::new(&s, &d).is_err());
    /// let plan = CopyPlan::new_overlapping(&s, &d).unwrap();
    /// plan.run(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
    /// assert_eq!(dst, [9, 10, 11]);
    /// ```
    pub fn new_overlapping(src: &S, dst: &D) -> Result<Self, PlanError> {
        Self::plan(src, dst, true)
    }

    fn plan(src: &S, dst: &D, overlapping: bool) -> Result<Self, PlanError> {
        // An empty layout (an extent 0) has no layout-core layout: nothing to plan.
        if src.size() == 0 || dst.size() == 0 {
            if src.size() != dst.size() {
                let size = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
                let source = LayoutError::CopySize {
                    src: shown(src),
                    dst: shown(dst),
                    src_size: size(src.size()),
                    dst_size: size(dst.size()),
                };
                return Err(PlanError::Layout { kernel: KERNEL, source });
            }
            return Ok(CopyPlan { src: *src, dst: *dst, size: 0, kind: Kind::Indexed });
        }
        let plan = layout_plan::copy_plan(&src.to_layout(), &dst.to_layout(), overlapping)
            .map_err(|source| PlanError::Layout { kernel: KERNEL, source })?;
        let (len, what) = (|v| to_usize(KERNEL, "an extent", v), |v| to_isize(KERNEL, "a stride", v));
        let body = match plan.body {
            CopyBody::Run { len: n, src, dst } => Some(Body::Run { len: len(n)?, src: what(src)?, dst: what(dst)? }),
            CopyBody::Transpose { rows, cols, src_ld, dst_ld } => Some(Body::Transpose {
                rows: len(rows)?,
                cols: len(cols)?,
                src_ld: what(src_ld)?,
                dst_ld: what(dst_ld)?,
            }),
            CopyBody::Indexed => None,
        };
        let kind = match body {
            Some(body) => Kind::Program {
                body,
                loops: plan.loops.iter().map(mode).collect::<Result<_, _>>()?,
                src_base: to_isize(KERNEL, "a base offset", plan.src_base)?,
                dst_base: to_isize(KERNEL, "a base offset", plan.dst_base)?,
            },
            None => Kind::Indexed,
        };
        Ok(CopyPlan { src: *src, dst: *dst, size: src.size(), kind })
    }

    /// The source layout the plan was made for.
    pub fn src(&self) -> &S {
        &self.src
    }

    /// The destination layout the plan was made for.
    pub fn dst(&self) -> &D {
        &self.dst
    }

    /// The number of elements copied.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The program the kernels run (`None` for a copy index by index).
    pub fn program(&self) -> Option<Program<'_>> {
        match &self.kind {
            Kind::Program { body, loops, src_base, dst_base } => {
                Some(Program { body: *body, loops, src_base: *src_base, dst_base: *dst_base })
            }
            Kind::Indexed => None,
        }
    }

    /// Copies `src` into `dst`, which must be tensors over the plan's layouts.
    ///
    /// # Panics
    /// When a tensor's layout is not the plan's ([`CopyPlan::try_run`] returns the error).
    #[track_caller]
    pub fn run<T: Element>(&self, src: &Tensor<'_, T, S>, dst: &mut TensorMut<'_, T, D>) {
        if let Err(e) = self.try_run(src, dst) {
            panic!("{e}");
        }
    }

    /// [`CopyPlan::run`], with a layout that is not the plan's an error.
    pub fn try_run<T: Element>(&self, src: &Tensor<'_, T, S>, dst: &mut TensorMut<'_, T, D>) -> Result<(), PlanError> {
        same(KERNEL, "source", &self.src, src.layout())?;
        same(KERNEL, "destination", &self.dst, dst.layout())?;
        self.execute(src, dst);
        Ok(())
    }

    /// Runs the plan over tensors whose layouts are the plan's (checked by the caller).
    #[track_caller]
    pub(super) fn execute<T: Element>(&self, src: &Tensor<'_, T, S>, dst: &mut TensorMut<'_, T, D>) {
        if self.size == 0 {
            // Two empty layouts: nothing to read or write.
            return;
        }
        let sv = SrcView::new(src.as_slice(), src.base());
        let base = dst.base();
        let dv = DstView::new(dst.as_mut_slice(), base);
        match &self.kind {
            Kind::Program { body, loops, src_base, dst_base } => {
                let program = Program { body: *body, loops, src_base: *src_base, dst_base: *dst_base };
                // The kernel checks the program's extremes against the views: they are the
                // layouts' offsets, which the tensors cover.
                kernels::copy(sv, dv, &CopyProgram::new(program));
            }
            Kind::Indexed => kernels::copy_indexed(sv, dv, self.size, |i| {
                (self.src.offset(i).to_isize(), self.dst.offset(i).to_isize())
            }),
        }
    }
}

/// `dst[D(i)] = src[S(i)]` for every index `i`, over tensors of any layouts of equal size:
/// plans from the layouts' values and runs the copy kernels ([`CopyPlan`] keeps the plan
/// for many calls).
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, copy};
///
/// // A 4x3 column-major matrix into a row-major one, the sizes known at run time.
/// let (m, n) = (4usize, 3usize);
/// let src: Vec<f64> = (0..12).map(f64::from).collect();
/// let mut dst = vec![0.0; 12];
/// let cm = RuntimeLayout::<2>::new(&[(m, 1), (n, m as isize)]).unwrap();
/// let rm = RuntimeLayout::<2>::new(&[(m, n as isize), (n, 1)]).unwrap();
/// copy(&Tensor::new(&src, cm).unwrap(), &mut TensorMut::new(&mut dst, rm).unwrap());
/// assert_eq!(dst, [0.0, 4.0, 8.0, 1.0, 5.0, 9.0, 2.0, 6.0, 10.0, 3.0, 7.0, 11.0]);
/// ```
///
/// # Panics
/// When the sizes differ or the destination writes one place twice ([`try_copy`] returns
/// the error), at the caller's line.
#[track_caller]
pub fn copy<T, S, D>(src: &Tensor<'_, T, S>, dst: &mut TensorMut<'_, T, D>)
where
    T: Element,
    S: TrustedLayout + PartialEq,
    D: TrustedLayout + PartialEq,
{
    match CopyPlan::new(src.layout(), dst.layout()) {
        Ok(plan) => plan.execute(src, dst),
        Err(e) => panic!("{e}"),
    }
}

/// [`copy()`], with layouts that cannot be copied an error.
///
/// ```
/// use cute_layout::{RuntimeLayout, Tensor, TensorMut, try_copy};
///
/// let src = [1u16, 2, 3, 4, 5, 6];
/// let mut dst = [0u16; 6];
/// let rows = RuntimeLayout::<2>::new(&[(2, 3), (3, 1)]).unwrap();   // a 2x3 row-major view
/// let cols = RuntimeLayout::<2>::new(&[(2, 1), (3, 2)]).unwrap();   // column-major
/// try_copy(&Tensor::new(&src, rows).unwrap(), &mut TensorMut::new(&mut dst, cols).unwrap()).unwrap();
/// assert_eq!(dst, [1, 4, 2, 5, 3, 6]);
/// // Sizes that differ are an error, not a panic.
/// let three = RuntimeLayout::<2>::new(&[(3, 1)]).unwrap();
/// assert!(try_copy(&Tensor::new(&src, three).unwrap(), &mut TensorMut::new(&mut dst, cols).unwrap()).is_err());
/// ```
pub fn try_copy<T, S, D>(src: &Tensor<'_, T, S>, dst: &mut TensorMut<'_, T, D>) -> Result<(), PlanError>
where
    T: Element,
    S: TrustedLayout + PartialEq,
    D: TrustedLayout + PartialEq,
{
    CopyPlan::new(src.layout(), dst.layout())?.execute(src, dst);
    Ok(())
}
