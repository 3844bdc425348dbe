//! The run-time GEMM engine: `C(m,n) = α·Σ_k A(m,k)·B(k,n) + β·C(m,n)` over strided `f32` or
//! `f64` matrices, at the SIMD [`level`](crate::kernels::level) in effect (portable, AVX2+FMA,
//! AVX-512), in parallel over rayon's pool for large problems (default feature `rayon`).
//!
//! Every operand is a raw strided view: element `(i, j)` of a matrix is at
//! `ptr + i·row_stride + j·col_stride`, strides in elements and of any sign, so the BLAS
//! transposition variants (NN, NT, TN, TT), sub-matrices, reversed and generally strided
//! matrices are all choices of strides. (The layout issue writes B as `(N,K)`; with strides
//! that is the same matrix read the other way.)
//!
//! How it runs: the blocking of every level (tile, cache blocks, B panel order, edge kernels,
//! the direct, parallel and transposition rules) is the plan's, `layout_plan::gemm_blocking`,
//! which `layout explain 'gemm(T, A, B, C)'` prints at the problem's sizes:
//! - C is normalized first: negative strides are flipped (reversing A's rows or B's columns
//!   with them), and a C that is contiguous along its columns (row-major) is computed as
//!   `Cᵀ = Bᵀ·Aᵀ`, so the micro-kernels write columns of C as vectors.
//! - Small problems (every extent at most 64) run a direct register-blocked
//!   loop over the strided operands, without packing.
//! - Larger ones are blocked as in BLIS: for each `NC` columns of B and `KC` of the inner
//!   dimension, B is packed into `KC×NR` micro-panels; for each `MC` rows of A, A into
//!   `MR×KC` micro-panels (`((MR,MC/MR),KC):((1,MR·KC),MR)`; at the AVX-512 level a
//!   column-major A spanning at most 512 KiB is read in place instead, its full micro-panels
//!   with column stride `lda`, only an edge panel packed: `reads_a_in_place`); the
//!   micro-kernel then keeps an `MR×NR` tile of C in registers over `KC` rank-1 updates.
//!   When A is one block (`m ≤ MC`), B is instead packed one micro-panel at a time right
//!   before the micro-kernels of its columns (it is then read from L1), or at AVX-512 a
//!   column-major B is read in place, each panel as two tiles of `NR/2` columns when its
//!   columns would crowd one set of L1d beyond its ways (`b_in_place_halves`, from CPUID's L1d
//!   ways), and in steps of all of k (at most 4096 deep, `blocks_b_in_place`: each column of B
//!   is read in whole runs), its edge panel as a problem of its own. A step of k shallower than
//!   `KC` takes an A block of as many more rows as keep its elements, up to `8·MC`
//!   (`mc_for_depth`). At AVX-512, `NC` keeps the B block `KC×NC` within L2 (from CPUID's L2,
//!   `for_caches`), since each A micro-panel walks all of it; when A is one block, B blocks
//!   are wider (`nc_for_rows`), so that A is not packed again per B block. A shallow product
//!   (`k ≤ 64`) whose C columns all start at one offset
//!   inside a cache line runs the rows before the line apart, so that the other tiles store
//!   whole lines (`c_line_peel`); a product of one step of k with β = 0 whose C is larger
//!   than L3 stores its full tiles past the caches (non-temporal stores on aligned columns,
//!   an `sfence` per thread: `streams_c`). AVX-512 B panels are
//!   column-major with a fixed column stride `KC` (`((KC,NR),NC/NR):((1,KC),NR·KC)` over
//!   `(k, j)`: a column-major B packs by vector copies and the kernel's broadcasts have
//!   immediate offsets); the other levels' are `((NR,NC/NR),KC):((1,NR·KC),NR)`. AVX-512
//!   packing is masked vector copies when the source is contiguous along the panel's layout
//!   (for A, column by column across the block's panels, four columns prefetched ahead),
//!   16×16 (f32) / 8×8 (f64) register transposes when it is contiguous the other way, a
//!   gather otherwise; AVX2 packing is vector copies (step of k outermost) or 8×8 (f32) / 4×4
//!   (f64) register transposes (no masked stores for B's 6-wide rows: they are microcoded on
//!   AMD), the portable level copies or transposes in scalar blocks. The cache blocks
//!   come from the caches CPUID reports (`GemmBlocking::for_caches`, read once: AVX2's KC
//!   and MC, AVX-512's MC, its KC being the kernels' B panel stride), the constants (the
//!   blocks of the level's reference caches, `AVX2_REFERENCE_CACHES` and
//!   `AVX512_REFERENCE_CACHES`) when it reports none. The loop nest is not a closure, so it inlines into each level's
//!   `#[target_feature]` entry with the packers' intrinsics. Edge panels are zero-padded;
//!   edge tiles run a narrower kernel (4 or 8 of 12 columns on AVX-512, 3 of 6
//!   on AVX2) with masked stores of the rows.
//! - Micro-kernels: AVX-512 f32 32×12 and f64 16×12 (24 accumulators), AVX2 f32 16×6 and f64
//!   8×6 (12 accumulators), portable f32 8×4 / f64 4×4; at AVX-512 an edge tile of at most
//!   one vector of rows runs a kernel of one vector (no multiply-adds on the zero padding);
//!   the x86 kernels prefetch A 8 steps of k ahead, and, over packed B panels of a
//!   column-major A spanning more than 512 KiB (`prefetches_next_a`), the source of the next
//!   A block into L2 (up to 4 lines per step in the block's first calls), so that the packer
//!   reads it from L2; the first tiles over a packed B micro-panel prefetch the next panel
//!   into L2 (one line per step of k). The x86 kernels and packers are written once over a SIMD trait
//!   implemented per level (`isa.rs`) and instantiated per level and type; their operands
//!   go by reference (a by-value copy would read the fields back with wide loads that miss
//!   store forwarding and wait behind the stores of C).
//! - A fused epilogue (`gemm_with`, `NAME_with`) runs in the full tiles' micro-kernels of the
//!   last step of k at the SIMD levels: the kernel, compiled for the caller's `f` (`Post`),
//!   applies `f` to each finished column in registers before storing it; edge tiles and the
//!   portable level apply it to the tile right after the kernel's stores (`epilogue.rs`).
//! - With the `rayon` feature and `m·n·k ≥ 2²¹`, C is cut into a grid of `tm × tn` tasks
//!   over the pool's threads, chosen from m, n and the thread count
//!   (`layout_plan::gemm_grid`); each task runs the blocked loops on its block of C, and
//!   every A and B micro-panel is packed once per step of k, by the first task that needs
//!   it, into a buffer the tasks share (flags per panel; `grid.rs`), a run of consecutive
//!   claimed panels by one packer call; the tasks of one row of the grid claim their own
//!   shares of an A block's panels first, so that they pack it together. A panel no other task reads is packed into the
//!   task's own scratch instead (A with one column of tasks, a whole block per call and the
//!   next one prefetched as on one thread; B with one row), and with shared A panels a task
//!   of at most 8 B micro-panels reads a column-major A in place
//!   (`reads_a_in_place_for_few_columns`).
//!
//! `β = 0` never reads C (so NaN or uninitialized-but-allocated values in C do not leak), and
//! `α = 0` or `k = 0` never reads A or B.
//!
//! ```
//! use cute_layout::gemm::{MatMut, MatRef, matmul};
//!
//! // The four BLAS variants are strides: A (m x k) read column-major or transposed from a
//! // row-major buffer gives the same product.
//! let (m, k, n) = (3, 2, 2);
//! let col: Vec<f64> = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];   // A column-major
//! let row: Vec<f64> = vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0];   // the same A row-major
//! let b = vec![1.0, 1.0, 0.0, 1.0];                          // B = [[1,0],[1,1]]
//! let (mut c1, mut c2) = (vec![f64::NAN; m * n], vec![f64::NAN; m * n]);
//! let bb = MatRef::from_slice(&b, k, n, 1, k as isize);
//! matmul(1.0, MatRef::from_slice(&col, m, k, 1, m as isize), bb, 0.0, MatMut::from_slice(&mut c1, m, n, 1, m as isize));
//! matmul(1.0, MatRef::from_slice(&row, m, k, k as isize, 1), bb, 0.0, MatMut::from_slice(&mut c2, m, n, 1, m as isize));
//! assert_eq!(c1, [5.0, 7.0, 9.0, 4.0, 5.0, 6.0]);            // C = A·B, beta = 0: NaNs never read
//! assert_eq!(c1, c2);
//! ```

mod driver;
pub(crate) mod epilogue;
#[cfg(feature = "rayon")]
mod grid;
pub(crate) mod parts;
mod portable;
pub(crate) mod small_dyn;
#[cfg(target_arch = "x86_64")]
mod x86;

use crate::kernels::{DstView, SrcView};
use core::marker::PhantomData;
use driver::Problem;
#[doc(hidden)]
pub use epilogue::At;
pub use epilogue::{Batched, GemmEpilogue};

mod sealed {
    /// Implemented for `f32` and `f64` only; carries the per-type dispatch.
    pub trait Sealed {
        /// Runs a normalized problem at the level in effect, on this thread.
        ///
        /// # Safety
        /// The contract of [`gemm`](super::gemm) for the problem's pointers and strides,
        /// except that C's offsets need not be distinct (this thread writes them in turn).
        unsafe fn run(p: &super::Problem<Self>, small: bool)
        where
            Self: Sized;

        /// Runs task `t` of the current round of a parallel GEMM at `level`.
        ///
        /// # Safety
        /// [`grid::task`](super::grid::task)'s contract with the kernel of `level`, which
        /// the CPU supports.
        #[cfg(feature = "rayon")]
        unsafe fn run_task(
            level: crate::kernels::Level,
            p: &super::Problem<Self>,
            g: &super::grid::Shared<Self>,
            t: usize,
        ) where
            Self: Sized;

        /// Runs the micro-kernel `t` of a full register tile of `level`'s blocked engine with
        /// `post` applied to each column before it is stored (B read in place when
        /// `in_place`); `false`, having run nothing, when the level has no such kernel.
        ///
        /// # Safety
        /// `t` is a full tile of the level's blocked engine with `c_rs = 1` and the
        /// micro-kernel's bounds (B in place when `in_place`); `level` is supported by the CPU.
        #[cfg(target_arch = "x86_64")]
        unsafe fn fused_micro<P: super::x86::Post<Self>>(
            level: crate::kernels::Level,
            t: &super::driver::MicroArgs<Self>,
            post: &P,
            in_place: bool,
        ) -> bool
        where
            Self: Sized;
    }
}

/// The element types the GEMM engine has kernels for: `f32` and `f64` (sealed).
///
/// ```
/// use cute_layout::gemm::{GemmScalar, MatMut, MatRef, matmul};
///
/// /// The product of two column-major square matrices, in either precision.
/// fn square<T: GemmScalar>(n: usize, a: &[T], b: &[T]) -> Vec<T> {
///     let mut c = vec![T::ZERO; n * n];
///     let (s, t) = (1, n as isize);
///     matmul(T::ONE, MatRef::from_slice(a, n, n, s, t), MatRef::from_slice(b, n, n, s, t), T::ZERO, MatMut::from_slice(&mut c, n, n, s, t));
///     c
/// }
/// assert_eq!(square(2, &[1.0f32, 0.0, 0.0, 1.0], &[1.0, 2.0, 3.0, 4.0]), [1.0, 2.0, 3.0, 4.0]);
/// assert_eq!(square(1, &[3.0f64], &[4.0]), [12.0]);
/// ```
pub trait GemmScalar:
    sealed::Sealed
    + Copy
    + PartialEq
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + core::ops::Add<Output = Self>
    + core::ops::Mul<Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
}

impl GemmScalar for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
}

impl GemmScalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
}

/// A read-only strided matrix view: element `(i, j)` at `ptr + i·row_stride + j·col_stride`.
///
/// ```
/// use cute_layout::gemm::MatRef;
///
/// let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let a = MatRef::from_slice(&data, 2, 3, 3, 1);       // 2x3 row-major
/// assert_eq!((a.rows(), a.cols(), a.strides()), (2, 3, (3, 1)));
/// assert_eq!(a.get(1, 0), 4.0);
/// let t = a.transpose();                              // 3x2, a view: nothing is copied
/// assert_eq!(t.get(0, 1), 4.0);
/// // Every offset must lie in the slice: 2 rows of stride 3 need 6 elements.
/// assert!(std::panic::catch_unwind(|| MatRef::from_slice(&data[..5], 2, 3, 3, 1)).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MatRef<'a, T> {
    ptr: *const T,
    rows: usize,
    cols: usize,
    row_stride: isize,
    col_stride: isize,
    _life: PhantomData<&'a T>,
}

/// A mutable strided matrix view: element `(i, j)` at `ptr + i·row_stride + j·col_stride`,
/// no two elements at the same address.
///
/// ```
/// use cute_layout::gemm::{MatMut, matmul};
///
/// let mut c = vec![0.0f64; 6];
/// let mut m = MatMut::from_slice(&mut c, 2, 3, 1, 2);  // 2x3 column-major
/// assert_eq!(m.as_ref().get(1, 2), 0.0);
/// let ones = [1.0; 4];
/// matmul(1.0, MatRef::from_slice(&ones, 2, 2, 2, 1), MatRef::from_slice(&ones, 2, 3, 0, 1), 0.0, m);
/// assert_eq!(c, [2.0; 6]);
/// # use cute_layout::gemm::MatRef;
/// ```
#[derive(Debug)]
pub struct MatMut<'a, T> {
    ptr: *mut T,
    rows: usize,
    cols: usize,
    row_stride: isize,
    col_stride: isize,
    _life: PhantomData<&'a mut T>,
}

/// The smallest and largest offset `i·rs + j·cs` over a `rows × cols` matrix (both extents
/// non-zero), or `None` on overflow.
pub(crate) const fn offset_range(rows: usize, cols: usize, rs: isize, cs: isize) -> Option<(isize, isize)> {
    let (r, c) = (rows - 1, cols - 1);
    if r > isize::MAX as usize || c > isize::MAX as usize {
        return None;
    }
    let (Some(r), Some(c)) = ((r as isize).checked_mul(rs), (c as isize).checked_mul(cs)) else { return None };
    let (r_lo, r_hi) = if r < 0 { (r, 0) } else { (0, r) };
    let (c_lo, c_hi) = if c < 0 { (c, 0) } else { (0, c) };
    match (r_lo.checked_add(c_lo), r_hi.checked_add(c_hi)) {
        (Some(lo), Some(hi)) => Some((lo, hi)),
        _ => None,
    }
}

/// The smallest and largest offset `i·rs + j·cs` over `i < rows`, `j < cols`; `None` when
/// the matrix is empty.
///
/// # Panics
/// When an offset overflows `isize` (a compile error where it is a `const`).
pub(crate) const fn reach(rows: usize, cols: usize, rs: isize, cs: isize) -> Option<(isize, isize)> {
    if rows == 0 || cols == 0 {
        return None;
    }
    match offset_range(rows, cols, rs, cs) {
        Some(r) => Some(r),
        None => panic!("a GEMM operand whose offsets overflow isize"),
    }
}

/// Panics unless the offsets `at + reach` lie in `view` (`lo..=hi`), the range of operand
/// `name`'s view.
#[inline(always)]
#[track_caller]
pub(crate) fn check_operand(name: &str, view: (isize, isize), at: isize, reach: Option<(isize, isize)>) {
    let Some((min, max)) = reach else { return };
    match (at.checked_add(min), at.checked_add(max)) {
        (Some(lo), Some(hi)) if view.0 <= lo && hi <= view.1 => {}
        _ => operand_outside(name, view, at, (min, max)),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn operand_outside(name: &str, view: (isize, isize), at: isize, (min, max): (isize, isize)) -> ! {
    panic!("gemm: {name} addresses offsets {at} + ({min}..={max}), but its view holds {}..={}", view.0, view.1);
}

/// Whether every offset of a `rows × cols` matrix with these strides lies in `0..len`.
fn fits(len: usize, rows: usize, cols: usize, rs: isize, cs: isize) -> bool {
    if rows == 0 || cols == 0 {
        return true;
    }
    match offset_range(rows, cols, rs, cs) {
        Some((lo, hi)) => lo >= 0 && (hi as usize) < len,
        None => false,
    }
}

/// Whether distinct elements of a `rows × cols` matrix have distinct offsets (a sufficient
/// test: the larger stride steps over the whole extent of the smaller one).
pub(crate) fn injective(rows: usize, cols: usize, rs: isize, cs: isize) -> bool {
    // An empty matrix has no two elements to collide.
    if rows == 0 || cols == 0 || (rows <= 1 && cols <= 1) {
        return true;
    }
    if rows <= 1 {
        return cs != 0;
    }
    if cols <= 1 {
        return rs != 0;
    }
    let (r, c) = (rs.unsigned_abs(), cs.unsigned_abs());
    let (small, small_n, large) = if r <= c { (r, rows, c) } else { (c, cols, r) };
    small != 0 && small.checked_mul(small_n).is_some_and(|span| large >= span)
}

impl<'a, T> MatRef<'a, T> {
    /// A view of `rows × cols` elements of `slice` with these strides.
    ///
    /// # Panics
    /// When some element's offset falls outside `slice`.
    pub fn from_slice(slice: &'a [T], rows: usize, cols: usize, row_stride: isize, col_stride: isize) -> Self {
        assert!(
            fits(slice.len(), rows, cols, row_stride, col_stride),
            "MatRef::from_slice: a {rows}x{cols} matrix with strides ({row_stride}, {col_stride}) does not fit in a slice of {} elements",
            slice.len()
        );
        // SAFETY: every offset is inside `slice` (checked above), borrowed for `'a`.
        unsafe { Self::from_raw_parts(slice.as_ptr(), rows, cols, row_stride, col_stride) }
    }

    /// A view from a raw pointer.
    ///
    /// # Safety
    /// For every `i < rows`, `j < cols`, `ptr + i·row_stride + j·col_stride` is in bounds of
    /// one allocation, aligned, initialized and not written through other pointers for `'a`.
    pub unsafe fn from_raw_parts(
        ptr: *const T,
        rows: usize,
        cols: usize,
        row_stride: isize,
        col_stride: isize,
    ) -> Self {
        MatRef { ptr, rows, cols, row_stride, col_stride, _life: PhantomData }
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(row_stride, col_stride)` in elements.
    pub fn strides(&self) -> (isize, isize) {
        (self.row_stride, self.col_stride)
    }

    /// The pointer to element `(0, 0)`.
    pub fn as_ptr(&self) -> *const T {
        self.ptr
    }

    /// The transpose (a view, strides swapped).
    pub fn transpose(self) -> Self {
        MatRef {
            ptr: self.ptr,
            rows: self.cols,
            cols: self.rows,
            row_stride: self.col_stride,
            col_stride: self.row_stride,
            _life: PhantomData,
        }
    }

    /// Element `(i, j)`.
    ///
    /// # Panics
    /// When `i ≥ rows` or `j ≥ cols`.
    pub fn get(&self, i: usize, j: usize) -> T
    where
        T: Copy,
    {
        assert!(i < self.rows && j < self.cols, "MatRef::get: ({i}, {j}) outside {}x{}", self.rows, self.cols);
        // SAFETY: `(i, j)` is inside the matrix, whose elements are readable (constructor bound).
        unsafe { *self.ptr.offset(i as isize * self.row_stride + j as isize * self.col_stride) }
    }
}

impl<'a, T> MatMut<'a, T> {
    /// A view of `rows × cols` elements of `slice` with these strides.
    ///
    /// # Panics
    /// When some element's offset falls outside `slice`, or two elements may share an offset.
    pub fn from_slice(slice: &'a mut [T], rows: usize, cols: usize, row_stride: isize, col_stride: isize) -> Self {
        assert!(
            fits(slice.len(), rows, cols, row_stride, col_stride),
            "MatMut::from_slice: a {rows}x{cols} matrix with strides ({row_stride}, {col_stride}) does not fit in a slice of {} elements",
            slice.len()
        );
        assert!(
            injective(rows, cols, row_stride, col_stride),
            "MatMut::from_slice: strides ({row_stride}, {col_stride}) map two elements of a {rows}x{cols} matrix to one place"
        );
        // SAFETY: every offset is inside `slice` (checked), distinct (checked), and `slice`
        // is borrowed exclusively for `'a`.
        unsafe { Self::from_raw_parts(slice.as_mut_ptr(), rows, cols, row_stride, col_stride) }
    }

    /// A view from a raw pointer.
    ///
    /// # Safety
    /// For every `i < rows`, `j < cols`, `ptr + i·row_stride + j·col_stride` is in bounds of
    /// one allocation, aligned, initialized, distinct for distinct `(i, j)`, and not accessed
    /// through other pointers for `'a`.
    pub unsafe fn from_raw_parts(ptr: *mut T, rows: usize, cols: usize, row_stride: isize, col_stride: isize) -> Self {
        MatMut { ptr, rows, cols, row_stride, col_stride, _life: PhantomData }
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(row_stride, col_stride)` in elements.
    pub fn strides(&self) -> (isize, isize) {
        (self.row_stride, self.col_stride)
    }

    /// The pointer to element `(0, 0)`.
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr
    }

    /// A read-only view of the same elements.
    pub fn as_ref(&self) -> MatRef<'_, T> {
        MatRef {
            ptr: self.ptr,
            rows: self.rows,
            cols: self.cols,
            row_stride: self.row_stride,
            col_stride: self.col_stride,
            _life: PhantomData,
        }
    }
}

/// `c = alpha·a·b + beta·c` over views (`a` is `m×k`, `b` is `k×n`, `c` is `m×n`); with
/// `beta = 0`, `c` is not read.
///
/// # Panics
/// When the shapes do not agree.
///
/// ```
/// use cute_layout::gemm::{MatMut, MatRef, matmul};
///
/// // C (2x2, column-major) = A (2x3, row-major) · B (3x2, column-major) + C.
/// let a = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let b = [1.0f32, 0.0, 1.0, 0.0, 1.0, 0.0];
/// let mut c = [10.0f32; 4];
/// matmul(
///     1.0,
///     MatRef::from_slice(&a, 2, 3, 3, 1),
///     MatRef::from_slice(&b, 3, 2, 1, 3),
///     1.0,
///     MatMut::from_slice(&mut c, 2, 2, 1, 2),
/// );
/// assert_eq!(c, [14.0, 20.0, 12.0, 15.0]); // column 0: rows' first + third, column 1: second
/// ```
pub fn matmul<T: GemmScalar>(alpha: T, a: MatRef<'_, T>, b: MatRef<'_, T>, beta: T, mut c: MatMut<'_, T>) {
    assert!(
        a.rows == c.rows && b.cols == c.cols && a.cols == b.rows,
        "matmul: shapes do not agree: a is {}x{}, b is {}x{}, c is {}x{}",
        a.rows,
        a.cols,
        b.rows,
        b.cols,
        c.rows,
        c.cols
    );
    let (c_rs, c_cs) = c.strides();
    // SAFETY: the views' constructors vouch for every element in bounds; `c` is borrowed
    // mutably, so it overlaps neither `a` nor `b` (shared borrows), and its offsets are
    // distinct (its constructor's bound).
    unsafe {
        gemm(
            c.rows,
            c.cols,
            a.cols,
            alpha,
            a.ptr,
            a.row_stride,
            a.col_stride,
            b.ptr,
            b.row_stride,
            b.col_stride,
            beta,
            c.as_mut_ptr(),
            c_rs,
            c_cs,
        )
    }
}

/// `C = α·A·B + β·C` for strided `m×k` A, `k×n` B and `m×n` C: element `(i, j)` of a matrix
/// is at `ptr + i·rs + j·cs` (strides in elements, any sign).
///
/// `β = 0` stores `α·A·B` without reading C; `α = 0` or `k = 0` scales C by β without
/// reading A or B. Runs at the SIMD level in effect, and on rayon's pool when the problem is
/// large (`m·n·k ≥ 2²¹`, feature `rayon`).
///
/// # Safety
/// - For every `i < m`, `p < k`: `a + i·a_rs + p·a_cs` is in bounds of one allocation, aligned
///   and readable (unless `α = 0` or `k = 0`); likewise `b + p·b_rs + j·b_cs` for `p < k`,
///   `j < n`.
/// - For every `i < m`, `j < n`: `c + i·c_rs + j·c_cs` is in bounds, aligned, writable,
///   readable unless `β = 0`, and distinct for distinct `(i, j)`.
/// - C overlaps neither A nor B; nothing else accesses them during the call.
///
/// ```
/// let (a, b) = ([1.0f64, 2.0, 3.0, 4.0], [1.0f64, 1.0]);
/// let mut c = [0.0f64; 2];
/// // C (2x1) = A (2x2, column-major) · B (2x1).
/// unsafe { cute_layout::gemm::gemm(2, 1, 2, 1.0, a.as_ptr(), 1, 2, b.as_ptr(), 1, 2, 0.0, c.as_mut_ptr(), 1, 2) };
/// assert_eq!(c, [4.0, 6.0]);
/// ```
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm<T: GemmScalar>(
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: *const T,
    a_rs: isize,
    a_cs: isize,
    b: *const T,
    b_rs: isize,
    b_cs: isize,
    beta: T,
    c: *mut T,
    c_rs: isize,
    c_cs: isize,
) {
    let p = Problem { m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs, ep: None };
    // SAFETY: the caller's bounds, C's offsets distinct.
    unsafe { run_problem(p, true) }
}

/// [`gemm`] over views: element `(i, p)` of A is offset `a_at + i·a_rs + p·a_cs` of `a`,
/// `(p, j)` of B offset `b_at + p·b_rs + j·b_cs` of `b`, `(i, j)` of C offset
/// `c_at + i·c_rs + j·c_cs` of `c`. The extremes of each operand (from m, n, k and its
/// strides) are checked against its view; a C whose strides may map two elements to one
/// offset runs on one thread.
///
/// # Panics
/// When some operand's offsets do not lie in its view (A and B are checked when `k > 0`,
/// every operand only when `m, n > 0`).
///
/// ```
/// use cute_layout::gemm::gemm_views;
/// use cute_layout::kernels::{DstView, SrcView};
///
/// // A 2x2 block of a 4x4 column-major matrix times itself, into the block at (2,2).
/// let m: Vec<f32> = (0..16).map(|x| x as f32).collect();
/// let mut out = vec![0f32; 16];
/// let a = SrcView::new(&m, 0);
/// let mut c = DstView::new(&mut out, 0);
/// gemm_views(2, 2, 2, 1.0, &a, 0, 1, 4, &a, 0, 1, 4, 0.0, &mut c, 10, 1, 4);
/// // [[0,4],[1,5]]^2 = [[4,20],[5,29]]
/// assert_eq!((out[10], out[11], out[14], out[15]), (4.0, 5.0, 20.0, 29.0));
/// ```
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn gemm_views<T: GemmScalar>(
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: &SrcView<'_, T>,
    a_at: isize,
    a_rs: isize,
    a_cs: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    b_rs: isize,
    b_cs: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
    c_rs: isize,
    c_cs: isize,
) {
    let Some(p) = checked_problem(m, n, k, alpha, a, a_at, a_rs, a_cs, b, b_at, b_rs, b_cs, beta, c, c_at, c_rs, c_cs)
    else {
        return;
    };
    // SAFETY: `checked_problem`'s problem; the shares of a parallel run write distinct
    // elements only when C's offsets are distinct, which `injective` proves.
    unsafe { run_problem(p, injective(m, n, c_rs, c_cs)) }
}

/// The problem of [`gemm_views`]'s arguments, its operands checked against their views;
/// `None` when C is empty. Every offset of each operand of the problem lies in its view,
/// inside the view's borrowed slice, and C's view is an exclusive borrow, so it overlaps
/// neither A nor B: the problem satisfies [`gemm`]'s bounds except that C's offsets may
/// repeat.
///
/// # Panics
/// As [`gemm_views`].
#[track_caller]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn checked_problem<T: GemmScalar>(
    m: usize,
    n: usize,
    k: usize,
    alpha: T,
    a: &SrcView<'_, T>,
    a_at: isize,
    a_rs: isize,
    a_cs: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    b_rs: isize,
    b_cs: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
    c_rs: isize,
    c_cs: isize,
) -> Option<Problem<T>> {
    if m == 0 || n == 0 {
        return None;
    }
    check_operand("A", (a.lo(), a.hi()), a_at, reach(m, k, a_rs, a_cs));
    check_operand("B", (b.lo(), b.hi()), b_at, reach(k, n, b_rs, b_cs));
    check_operand("C", (c.lo(), c.hi()), c_at, reach(m, n, c_rs, c_cs));
    let (a, b) = (a.as_ptr().wrapping_offset(a_at), b.as_ptr().wrapping_offset(b_at));
    let c = c.as_mut_ptr().wrapping_offset(c_at);
    Some(Problem { m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta, c, c_rs, c_cs, ep: None })
}

/// Runs `p`, on rayon's pool when `parallel` and the problem is large.
///
/// # Safety
/// The bounds of [`gemm`] for the problem's pointers and strides, except that C's offsets
/// need be distinct only when `parallel` (one thread writes an element twice in turn).
unsafe fn run_problem<T: GemmScalar>(mut p: Problem<T>, parallel: bool) {
    if p.m == 0 || p.n == 0 {
        return;
    }
    // Every run-time path (the direct loop, the blocked engine, the parallel shares, at each
    // level) starts here, so this is the one place `α = 0` and `k = 0` are kept from A and B.
    if p.k == 0 || p.alpha == T::ZERO {
        // SAFETY: C's bound (the caller's).
        unsafe { driver::scale_c(&p) };
        return;
    }
    // SAFETY: flipping and transposing keep the same set of element addresses (the caller's
    // bounds).
    unsafe { p.normalize() };
    if layout_plan::gemm_blocking::gemm_direct(p.m, p.n, p.k) {
        // SAFETY: the caller's bounds, kept by `normalize`.
        return unsafe { T::run(&p, true) };
    }
    let plan = plan::<T>();
    // The rows before C's first cache line apart (the plan's `c_line_peel`), so that the
    // other rows' tiles store whole lines.
    let r0 = plan.c_line_peel(p.m, p.k, p.c as usize, p.c_rs, p.c_cs);
    if r0 > 0 {
        // SAFETY: two sub-problems of the caller's, rows `0..r0` and `r0..m` of A and C
        // (`r0 < m`), each normalized.
        unsafe {
            run_normalized(p.rows(0, r0), parallel, &plan);
            run_normalized(p.rows(r0, p.m - r0), parallel, &plan);
        }
        return;
    }
    // SAFETY: the caller's bounds, kept by `normalize` (`α ≠ 0`, `k ≥ 1` checked above).
    unsafe { run_normalized(p, parallel, &plan) }
}

/// The blocking of `T` at the level the kernels run at, on this machine.
fn plan<T: GemmScalar>() -> layout_plan::GemmBlocking {
    let elem = if core::mem::size_of::<T>() == 4 { layout_plan::GemmElem::F32 } else { layout_plan::GemmElem::F64 };
    layout_plan::gemm_blocking::gemm_blocking(crate::kernels::level(), elem).on_this_machine()
}

/// Runs a normalized `p` with `α ≠ 0`, `k ≥ 1` (see [`run_problem`]); `plan` is [`plan`]'s.
///
/// # Safety
/// [`run_problem`]'s bounds for `p`, normalized (SAFETY: the callers pass `p` or a rows or
/// columns sub-problem of it, whose elements are among `p`'s).
unsafe fn run_normalized<T: GemmScalar>(p: Problem<T>, parallel: bool, plan: &layout_plan::GemmBlocking) {
    let small = layout_plan::gemm_blocking::gemm_direct(p.m, p.n, p.k);
    if !small {
        // B read in place over more than one step of k: its full micro-panels apart from its
        // edge panel, so that they run in steps of all of k (`Problem::blocks`).
        let full = p.n - p.n % plan.nr;
        if plan.reads_b_in_place(p.m, p.b_rs, p.b_cs) && p.k > plan.kc && full > 0 && full < p.n {
            // SAFETY: two sub-problems of the caller's, columns `0..full` and `full..n` of B
            // and C, each normalized.
            unsafe {
                run_normalized(p.columns(0, full), parallel, plan);
                run_normalized(p.columns(full, p.n - full), parallel, plan);
            }
            return;
        }
    }
    #[cfg(feature = "rayon")]
    if parallel && !small && par::run(&p, plan) {
        return;
    }
    #[cfg(not(feature = "rayon"))]
    let _ = parallel;
    // SAFETY: the caller's bounds, normalized.
    unsafe { T::run(&p, small) }
}

#[cfg(feature = "rayon")]
mod par {
    use super::grid::{Shared, task_count};
    use super::{GemmScalar, Problem};
    use core::sync::atomic::{AtomicUsize, Ordering};
    use layout_plan::gemm_blocking::{GEMM_PAR_GRAIN_M, GEMM_PAR_GRAIN_N, GEMM_PAR_MIN};
    use layout_plan::gemm_grid::GEMM_PAR_ROUND_BYTES;
    use layout_plan::{gemm_grid, gemm_tasks};
    use rayon::prelude::*;

    /// Runs `p` on rayon's pool over the plan's grid of tasks ([`gemm_grid`] of m, n and
    /// [`gemm_tasks`] of the pool's threads; see [`grid`](super::grid)), the threads taking
    /// the tasks of each round one at a time; `false` when the problem is too small
    /// (`m·n·k < GEMM_PAR_MIN`) or the grid has one task. A problem whose one step of k over
    /// all of m and n would pack more than four rounds' bytes is cut in two halves along
    /// the larger of m and n, run one after the other.
    pub(super) fn run<T: GemmScalar>(p: &Problem<T>, plan: &layout_plan::GemmBlocking) -> bool {
        let threads = rayon::current_num_threads();
        if threads < 2 || p.m.saturating_mul(p.n).saturating_mul(p.k) < GEMM_PAR_MIN {
            return false;
        }
        let level = crate::kernels::level();
        let kc = plan.blocks(p.m, p.n, p.k).kc;
        let step = (p.m.saturating_add(p.n)).saturating_mul(kc).saturating_mul(core::mem::size_of::<T>());
        if step > 4 * GEMM_PAR_ROUND_BYTES && (p.m > 2 * GEMM_PAR_GRAIN_M || p.n > 2 * GEMM_PAR_GRAIN_N) {
            let halves = if p.n >= p.m {
                let h = (p.n / 2).next_multiple_of(GEMM_PAR_GRAIN_N);
                [p.columns(0, h), p.columns(h, p.n - h)]
            } else {
                let h = (p.m / 2).next_multiple_of(GEMM_PAR_GRAIN_M);
                [p.rows(0, h), p.rows(h, p.m - h)]
            };
            for half in &halves {
                if !run(half, plan) {
                    // SAFETY: a half is a sub-problem of the caller's (rows or columns of C).
                    unsafe { T::run(half, false) }
                }
            }
            return true;
        }
        let grid = gemm_grid(p.m, p.n, gemm_tasks(p.m, p.n, threads));
        if grid.tasks() < 2 {
            return false;
        }
        let mut g = Shared::new(p, grid, *plan);
        while g.round(p.k) {
            let g = &g;
            // One worker per thread (at most one per task), each taking the round's next
            // task until none is left: a thread that finishes early takes more.
            let (tasks, next) = (task_count(g), AtomicUsize::new(0));
            (0..threads.min(tasks)).into_par_iter().for_each(|_| {
                loop {
                    let t = next.fetch_add(1, Ordering::Relaxed);
                    if t >= tasks {
                        break;
                    }
                    // SAFETY: `p` is normalized with `k ≥ 1` and C's offsets distinct (the
                    // caller's); `g` was made for `p` at `level` (read once, supported by the
                    // CPU) and its round begun; each task index runs once (`fetch_add` hands
                    // out each index below `tasks` to one worker).
                    unsafe { T::run_task(level, p, g, t) }
                }
            });
        }
        true
    }
}

macro_rules! scalar_dispatch {
    ($t:ty, $portable:ident, $avx2:ident, $avx512:ident, $portable_task:ident, $avx2_task:ident, $avx512_task:ident,
     $fused:ident) => {
        impl sealed::Sealed for $t {
            // SAFETY contract: `fused_micro`'s.
            #[cfg(target_arch = "x86_64")]
            unsafe fn fused_micro<P: x86::Post<$t>>(
                level: crate::kernels::Level,
                t: &driver::MicroArgs<$t>,
                post: &P,
                in_place: bool,
            ) -> bool {
                // SAFETY: the caller's.
                unsafe { x86::$fused(level, t, post, in_place) }
            }

            // SAFETY contract: `gemm`'s (every offset of A, B and C in the problem is in bounds).
            unsafe fn run(p: &Problem<$t>, small: bool) {
                use crate::kernels::{Level, level};
                match level() {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: `level()` never exceeds what the CPU supports; the caller's bounds.
                    Level::Avx512 => unsafe { x86::$avx512(p, small) },
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: as above.
                    Level::Avx2 => unsafe { x86::$avx2(p, small) },
                    // SAFETY: the caller's bounds.
                    _ => unsafe { portable::$portable(p, small) },
                }
            }

            // SAFETY contract: `grid::task`'s.
            #[cfg(feature = "rayon")]
            unsafe fn run_task(level: crate::kernels::Level, p: &Problem<$t>, g: &grid::Shared<$t>, t: usize) {
                use crate::kernels::Level;
                match level {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: the caller's (`level` supported by the CPU).
                    Level::Avx512 => unsafe { x86::$avx512_task(p, g, t) },
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: as above.
                    Level::Avx2 => unsafe { x86::$avx2_task(p, g, t) },
                    // SAFETY: the caller's.
                    _ => unsafe { portable::$portable_task(p, g, t) },
                }
            }
        }
    };
}

scalar_dispatch!(
    f32,
    f32_portable,
    f32_avx2,
    f32_avx512,
    f32_portable_task,
    f32_avx2_task,
    f32_avx512_task,
    fused_micro_f32
);
scalar_dispatch!(
    f64,
    f64_portable,
    f64_avx2,
    f64_avx512,
    f64_portable_task,
    f64_avx2_task,
    f64_avx512_task,
    fused_micro_f64
);
