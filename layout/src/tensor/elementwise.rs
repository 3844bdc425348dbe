//! Element-wise maps and reductions over tensors of any layout, by the layout's runs of
//! consecutive offsets (vectorized where the layout has a stride-1 first mode): `fill`,
//! `map_inplace`, `zip_mut_with`, `assign` (the copy kernels), `fold`, `sum` and `fold_mode`.
//! Names follow ndarray where the operation is the same.
//!
//! ```
//! use cute_layout::{Tensor, TensorMut, layout};
//!
//! layout! {
//!     pub Mat = (M,N):(1,LD) where LD >= M;
//! }
//! let (m, n) = (3, 4);
//! let mut data = vec![0.0f32; 5 * n];
//! let mut t = TensorMut::new(&mut data, Mat::new(m, n, 5).unwrap()).unwrap();
//! t.fill(1.0);
//! t.map_inplace(|x| *x *= 2.0);
//! assert_eq!(t.as_tensor().sum(), 24.0);
//! // Row sums: fold mode 1 (the columns) away; one value per row, a tensor of shape (M).
//! let rows = t.as_tensor().fold_mode(1, 0.0, |acc, &x| acc + x);
//! assert_eq!(rows, [8.0, 8.0, 8.0]);
//! assert_eq!(data[3], 0.0); // the padding is untouched
//! ```

use core::iter::Sum;
use core::ops::Add;

use super::{FoldedTensor, Tensor, TensorMut};
use crate::kernels::{Element, Sealed};
use crate::layout_fn::mode_sizes;
use crate::{IntTuple, Offset, TrustedLayout};

impl<'a, T, L: TrustedLayout> Tensor<'a, T, L> {
    /// Folds every element in index order: `f(…f(f(init, t[0]), t[1])…, t[size-1])`.
    #[inline]
    pub fn fold<B, F: FnMut(B, &'a T) -> B>(&self, init: B, mut f: F) -> B {
        let mut acc = Some(init);
        self.for_each(|x| acc = acc.take().map(|a| f(a, x)));
        acc.expect("the accumulator is put back after every element")
    }

    /// The sum of the elements (an element several indices share counts once per index),
    /// over the layout's runs of consecutive offsets with vector kernels (explicit ones for
    /// `f32` and `f64`, at the level of [`level()`](crate::kernels::level) read once per call):
    /// floats are added in an unspecified order, as ndarray's `sum`.
    pub fn sum(&self) -> T
    where
        T: Element + Add<Output = T> + Sum<T>,
    {
        let zero: T = core::iter::empty().sum();
        if self.layout().unit_run() > 1 {
            let level = crate::kernels::level();
            let mut total = zero;
            // SAFETY: `level` is `level()`'s, which never exceeds what the CPU supports.
            self.for_each_slice(|s| total = total + unsafe { <T as Sealed>::sum_run(level, s) });
            total
        } else {
            self.fold(zero, |a, &x| a + x)
        }
    }

    /// Folds mode `mode` away: the [`FoldedTensor`] of the other top-level modes holding, for
    /// each of their coordinates, the fold in index order of the elements along `mode`,
    /// starting from `init` (ndarray's `fold_axis`). Row sums of a matrix fold mode 1, column
    /// maxima mode 0; folding the only mode of a rank-1 tensor gives a rank-0 result of one
    /// element, and a mode of extent 0 gives `init` everywhere. An element several indices
    /// share (a stride-0 mode) counts once per index. Where the first mode has stride 1 and
    /// is not the one folded, whole columns update the results at once.
    ///
    /// ```
    /// use cute_layout::{Tensor, layout};
    ///
    /// layout! { pub Mat = (2,3):(3,1); }   // row-major
    /// let data = [1.0f32, 5.0, 2.0, 7.0, 3.0, 4.0];
    /// let t = Tensor::new(&data, Mat).unwrap();
    /// assert_eq!(t.fold_mode(1, 0.0, |a, &x| a + x), [8.0, 14.0]);          // row sums
    /// assert_eq!(t.fold_mode(0, f32::MIN, |a, &x| a.max(x)), [7.0, 5.0, 4.0]); // column maxima
    /// ```
    ///
    /// # Panics
    /// When `mode` is not below the rank, or when the tensor is empty (a mode of extent 0 is
    /// folded) and the other modes have more than `isize::MAX` coordinates together (the
    /// result could not be allocated).
    pub fn fold_mode<B: Clone, F: FnMut(B, &'a T) -> B>(&self, mode: usize, init: B, mut f: F) -> FoldedTensor<B> {
        let shape = self.layout().shape();
        let sizes = mode_sizes(&shape);
        assert!(mode < sizes.len(), "fold_mode: mode {mode} of a rank-{} tensor", sizes.len());
        let product = |s: &[usize]| s.iter().try_fold(1usize, |a, &e| a.checked_mul(e));
        let folded = sizes[mode];
        let (pre, post) = (product(&sizes[..mode]), product(&sizes[mode + 1..]));
        let rest = pre.zip(post).and_then(|(a, b)| a.checked_mul(b)).filter(|&r| isize::try_from(r).is_ok());
        let (Some(rest), Some(pre), Some(post)) = (rest, pre, post) else {
            panic!(
                "fold_mode: the result of folding mode {mode} of the shape {shape} has more than isize::MAX elements"
            )
        };
        let mut out = vec![init.clone(); rest];
        let size = self.size();
        if size == 0 {
            return FoldedTensor::new(&shape, mode, [pre, folded, post], out, init);
        }
        // Index i = a + pre·(c + folded·b) with a < pre, c < folded goes to out[a + pre·b].
        let (data, base) = (self.as_slice(), self.base());
        let level = crate::kernels::level();
        let mut i = 0usize;
        // Whole pieces (`a = 0`, all `pre` results) at consecutive `c` of one `b`, held until
        // there are four: those fold together, each result read and written once for the four.
        let mut held = Held { pieces: [&data[..0]; 4], n: 0, b: 0, c: 0 };
        self.layout().for_each_run(|start, len| {
            let at = (base as isize + start.to_isize()) as usize;
            let run = &data[at..at + len];
            let b = i / pre.max(1) / folded;
            if len > 1 && pre > 1 {
                // Pieces of the run of consecutive `a` at one (c, b): one element per result.
                let mut done = 0;
                while done < len {
                    let k = i + done;
                    let (a, c, b) = (k % pre, k / pre % folded, k / pre / folded);
                    let take = (pre - a).min(len - done);
                    let piece = &run[done..done + take];
                    if a == 0 && take == pre {
                        if held.n > 0 && (held.b != b || held.c + held.n != c) {
                            held.flush(level, &mut out, pre, &mut f);
                        }
                        if held.n == 0 {
                            (held.b, held.c) = (b, c);
                        }
                        held.pieces[held.n] = piece;
                        held.n += 1;
                        if held.n == 4 {
                            fold4_into(level, &mut out[pre * b..pre * b + pre], held.pieces, &mut f);
                            held.n = 0;
                        }
                    } else {
                        held.flush(level, &mut out, pre, &mut f);
                        fold_into(level, &mut out[a + pre * b..a + pre * b + take], piece, &mut f);
                    }
                    done += take;
                }
            } else if pre == 1 && i % folded + len <= folded {
                // The run lies along the folded mode at one b: one result.
                held.flush(level, &mut out, pre, &mut f);
                let o = &mut out[b];
                *o = run.iter().fold(o.clone(), &mut f);
            } else {
                held.flush(level, &mut out, pre, &mut f);
                for (j, x) in run.iter().enumerate() {
                    let k = i + j;
                    let (a, b) = (k % pre.max(1), k / pre.max(1) / folded);
                    let o = &mut out[a + pre * b];
                    *o = f(o.clone(), x);
                }
            }
            i += len;
        });
        held.flush(level, &mut out, pre, &mut f);
        FoldedTensor::new(&shape, mode, [pre, folded, post], out, init)
    }
}

impl<T, L: TrustedLayout> TensorMut<'_, T, L> {
    /// Sets every element to `x`.
    pub fn fill(&mut self, x: T)
    where
        T: Clone,
    {
        self.for_each_slice_mut(|s| s.fill(x.clone()));
    }

    /// Applies `f` to each element in index order (an element several indices share, in a
    /// layout with a stride-0 mode, once per index).
    pub fn map_inplace<F: FnMut(&mut T)>(&mut self, mut f: F) {
        self.for_each_slice_mut(|s| s.iter_mut().for_each(&mut f));
    }

    /// Calls `f(self[i], rhs[i])` for every index `i` in order: the same shape in any two
    /// layouts (runs of consecutive offsets on both sides when their first modes agree). The
    /// shapes agree when their top-level modes of more than one element have the same sizes
    /// (the modes themselves may be split differently), or when either has one such mode (a
    /// walk in index order).
    ///
    /// # Panics
    /// When the sizes differ, or the sizes of the top-level modes (a 3×4 tensor with a 4×3
    /// one).
    #[track_caller]
    pub fn zip_mut_with<U, L2: TrustedLayout, F: FnMut(&mut T, &U)>(&mut self, rhs: &Tensor<'_, U, L2>, f: F) {
        let sizes = |shape: &IntTuple| mode_sizes(shape).into_iter().filter(|&e| e != 1).collect::<Vec<_>>();
        let (a, b) = (sizes(&self.layout().shape()), sizes(&rhs.layout().shape()));
        assert!(
            a == b || a.len() <= 1 || b.len() <= 1 || self.size() != rhs.size(),
            "zip_mut_with: tensors of shapes {} and {}: the sizes of their modes differ ({a:?} and {b:?})",
            self.layout().shape(),
            rhs.layout().shape()
        );
        self.zip_each(rhs, f);
    }

    /// [`zip_mut_with`](Self::zip_mut_with) by index alone: the sizes must agree.
    #[track_caller]
    fn zip_each<U, L2: TrustedLayout, F: FnMut(&mut T, &U)>(&mut self, rhs: &Tensor<'_, U, L2>, mut f: F) {
        assert_eq!(self.size(), rhs.size(), "zip_mut_with: tensors of {} and {} elements", self.size(), rhs.size());
        let run = self.layout().unit_run();
        if run > 1 && run == rhs.layout().unit_run() {
            let mut starts = Vec::with_capacity(rhs.size() / run);
            rhs.layout().for_each_run(|s, _| starts.push((rhs.base() as isize + s.to_isize()) as usize));
            let (data, mut k) = (rhs.as_slice(), 0);
            self.for_each_slice_mut(|s| {
                let r = &data[starts[k]..starts[k] + s.len()];
                s.iter_mut().zip(r).for_each(|(x, y)| f(x, y));
                k += 1;
            });
        } else {
            let mut it = rhs.iter();
            self.for_each_mut(|x| {
                if let Some(y) = it.next() {
                    f(x, y)
                }
            });
        }
    }

    /// `self[i] = rhs[i]` for every index `i`, through the copy kernels when the planner takes
    /// the two layouts (else element by element, the last write winning where `self` maps two
    /// indices to one place).
    ///
    /// # Panics
    /// When the sizes differ.
    #[track_caller]
    pub fn assign<L2: TrustedLayout + PartialEq>(&mut self, rhs: &Tensor<'_, T, L2>)
    where
        T: Element,
        L: PartialEq,
    {
        assert_eq!(self.size(), rhs.size(), "assign: tensors of {} and {} elements", self.size(), rhs.size());
        if crate::try_copy(rhs, self).is_err() {
            self.zip_each(rhs, |x, y| *x = *y);
        }
    }
}

/// `out[i] = f(out[i], &run[i])` for each `i` of the shorter of the two, compiled for the SIMD
/// `level` (which the compiler vectorizes when `f` is, as for sums).
#[inline]
fn fold_into<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(
    level: crate::kernels::Level,
    out: &mut [B],
    run: &'a [T],
    f: &mut F,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::kernels::Level;
        match level {
            // SAFETY: `level` is `level()`'s, which never exceeds what the CPU supports.
            Level::Avx512 => return unsafe { fold_into_avx512(out, run, f) },
            // SAFETY: as above.
            Level::Avx2 => return unsafe { fold_into_avx2(out, run, f) },
            _ => {}
        }
    }
    let _ = level;
    fold_into_any(out, run, f)
}

#[inline(always)]
fn fold_into_any<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], run: &'a [T], f: &mut F) {
    for (o, x) in out.iter_mut().zip(run) {
        *o = f(o.clone(), x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
fn fold_into_avx512<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], run: &'a [T], f: &mut F) {
    fold_into_any(out, run, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fold_into_avx2<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], run: &'a [T], f: &mut F) {
    fold_into_any(out, run, f)
}

/// `out[i] = f(f(f(f(out[i], &r[0][i]), &r[1][i]), &r[2][i]), &r[3][i])` for each `i` of
/// `out` (the four runs at least as long), compiled for the SIMD `level`.
#[inline]
fn fold4_into<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(
    level: crate::kernels::Level,
    out: &mut [B],
    r: [&'a [T]; 4],
    f: &mut F,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::kernels::Level;
        match level {
            // SAFETY: `level` is `level()`'s, which never exceeds what the CPU supports.
            Level::Avx512 => return unsafe { fold4_into_avx512(out, r, f) },
            // SAFETY: as above.
            Level::Avx2 => return unsafe { fold4_into_avx2(out, r, f) },
            _ => {}
        }
    }
    let _ = level;
    fold4_into_any(out, r, f)
}

#[inline(always)]
fn fold4_into_any<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], r: [&'a [T]; 4], f: &mut F) {
    let [r0, r1, r2, r3] = r;
    for ((((o, x0), x1), x2), x3) in out.iter_mut().zip(r0).zip(r1).zip(r2).zip(r3) {
        let v = f(o.clone(), x0);
        let v = f(v, x1);
        let v = f(v, x2);
        *o = f(v, x3);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
fn fold4_into_avx512<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], r: [&'a [T]; 4], f: &mut F) {
    fold4_into_any(out, r, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fold4_into_avx2<'a, B: Clone, T, F: FnMut(B, &'a T) -> B>(out: &mut [B], r: [&'a [T]; 4], f: &mut F) {
    fold4_into_any(out, r, f)
}

/// The whole pieces [`fold_mode`](Tensor::fold_mode) holds: `n < 4` runs of all `pre` results
/// of block `b`, at `c..c+n` of the folded mode.
struct Held<'a, T> {
    pieces: [&'a [T]; 4],
    n: usize,
    b: usize,
    c: usize,
}

impl<'a, T> Held<'a, T> {
    /// Folds the held pieces one by one, in order, and holds none.
    fn flush<B: Clone, F: FnMut(B, &'a T) -> B>(
        &mut self,
        level: crate::kernels::Level,
        out: &mut [B],
        pre: usize,
        f: &mut F,
    ) {
        for piece in &self.pieces[..self.n] {
            fold_into(level, &mut out[pre * self.b..pre * self.b + pre], piece, f);
        }
        self.n = 0;
    }
}
