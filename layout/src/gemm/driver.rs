//! The level-independent parts of the GEMM engine: the problem and its normalization, the
//! blocked (BLIS) loop nest with packing, the direct small-problem loop and the packing
//! buffers. Everything here is `#[inline(always)]` so it compiles inside each level's
//! `#[target_feature]` entry (packing and the small loop vectorize for that level); only the
//! micro-kernel is a call.

use super::GemmScalar;
use layout_plan::{GemmBlocking, GemmBlocks};

/// One GEMM call: `C = α·A·B + β·C`, element `(i, j)` of a matrix at `ptr + i·rs + j·cs`.
#[derive(Clone, Copy, Debug)]
pub struct Problem<T> {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: T,
    pub a: *const T,
    pub a_rs: isize,
    pub a_cs: isize,
    pub b: *const T,
    pub b_rs: isize,
    pub b_cs: isize,
    pub beta: T,
    pub c: *mut T,
    pub c_rs: isize,
    pub c_cs: isize,
    /// The fused epilogue applied to each finished tile of C, if any.
    pub ep: Option<super::epilogue::Epi<T>>,
}

// SAFETY: a problem is plain data and a `Sync` epilogue; the threads that share one write
// disjoint parts of C (see `par::run`) and only read A and B.
unsafe impl<T: Send> Send for Problem<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Problem<T> {}

impl<T: GemmScalar> Problem<T> {
    /// Makes C's strides non-negative (reversing the order of rows or columns, and A's rows
    /// or B's columns with them) and C contiguous along rows when it is contiguous along
    /// anything (computing `Cᵀ = Bᵀ·Aᵀ` for a row-major C).
    ///
    /// # Safety
    /// `m, n ≥ 1` and the pointers satisfy [`gemm`](super::gemm)'s bounds (the flips move a
    /// base pointer to another element of the same matrix).
    pub unsafe fn normalize(&mut self) {
        // SAFETY: `(m-1)·rs` is the offset of the last row of C and of A (in bounds).
        unsafe {
            if self.c_rs < 0 && self.m > 1 {
                let last = (self.m - 1) as isize;
                self.c = self.c.offset(last * self.c_rs);
                self.a = self.a.offset(last * self.a_rs);
                self.c_rs = -self.c_rs;
                self.a_rs = -self.a_rs;
                if let Some(e) = &mut self.ep {
                    e.flip_rows(last);
                }
            }
            if self.c_cs < 0 && self.n > 1 {
                let last = (self.n - 1) as isize;
                self.c = self.c.offset(last * self.c_cs);
                self.b = self.b.offset(last * self.b_cs);
                self.c_cs = -self.c_cs;
                self.b_cs = -self.b_cs;
                if let Some(e) = &mut self.ep {
                    e.flip_cols(last);
                }
            }
        }
        // Degenerate extents: the stride of an extent-1 mode is never used.
        if self.m == 1 {
            self.c_rs = 1;
        }
        if self.n == 1 {
            self.c_cs = 1;
        }
        if layout_plan::gemm_blocking::gemm_transposes(self.c_rs, self.c_cs) {
            let p = *self;
            *self = Problem {
                m: p.n,
                n: p.m,
                k: p.k,
                alpha: p.alpha,
                a: p.b,
                a_rs: p.b_cs,
                a_cs: p.b_rs,
                b: p.a,
                b_rs: p.a_cs,
                b_cs: p.a_rs,
                beta: p.beta,
                c: p.c,
                c_rs: p.c_cs,
                c_cs: p.c_rs,
                ep: p.ep.map(|mut e| {
                    e.transpose();
                    e
                }),
            };
        }
    }

    /// The sub-problem of columns `start..start + len` of B and C.
    pub fn columns(&self, start: usize, len: usize) -> Self {
        let s = start as isize;
        let (b, c) = (self.b.wrapping_offset(s * self.b_cs), self.c.wrapping_offset(s * self.c_cs));
        Problem { n: len, b, c, ep: self.ep.map(|e| e.shifted(start, false)), ..*self }
    }

    /// The sub-problem of rows `start..start + len` of A and C.
    pub fn rows(&self, start: usize, len: usize) -> Self {
        let s = start as isize;
        let (a, c) = (self.a.wrapping_offset(s * self.a_rs), self.c.wrapping_offset(s * self.c_rs));
        Problem { m: len, a, c, ep: self.ep.map(|e| e.shifted(start, true)), ..*self }
    }

    /// The cache blocks both engines run this problem in with `plan`: steps of all of k
    /// over a B read in place (the plan's `blocks_b_in_place`) when every micro-panel of B
    /// is full in every share of `n_share` columns (`n` and `n_share` multiples of NR: a
    /// step deeper than `KC` is never packed into a B panel), else the plan's `blocks`.
    #[inline]
    pub fn blocks(&self, plan: &GemmBlocking, n_share: usize) -> GemmBlocks {
        let (m, n, k) = (self.m, self.n, self.k);
        if plan.reads_b_in_place(m, self.b_rs, self.b_cs)
            && n.is_multiple_of(plan.nr)
            && n_share.is_multiple_of(plan.nr)
        {
            plan.blocks_b_in_place(m, n, k)
        } else {
            plan.blocks(m, n, k)
        }
    }

    /// Whether both engines write C past the caches: `β = 0`, the plan's `streams_c`, and no
    /// epilogue pass that reads the tiles back after their micro-kernels.
    #[inline]
    pub fn streams_c(&self, plan: &GemmBlocking) -> bool {
        self.beta == T::ZERO && plan.streams_c(self.m, self.n, self.k) && self.ep.as_ref().is_none_or(|e| e.fuses())
    }
}

/// `C = β·C` (zeros when `β = 0`, without reading C), the epilogue applied to each block of
/// at most [`SCALE_ROWS`] rows of a column right after it is scaled.
///
/// # Safety
/// C's bounds of [`gemm`](super::gemm).
pub unsafe fn scale_c<T: GemmScalar>(p: &Problem<T>) {
    for j in 0..p.n {
        let mut i0 = 0;
        while i0 < p.m {
            let rows = SCALE_ROWS.min(p.m - i0);
            // SAFETY: `(i, j)` is an element of C.
            let c0 = unsafe { p.c.offset(i0 as isize * p.c_rs + j as isize * p.c_cs) };
            for i in 0..rows {
                // SAFETY: `(i0 + i, j)` is an element of C.
                unsafe {
                    let c = c0.offset(i as isize * p.c_rs);
                    *c = if p.beta == T::ZERO { T::ZERO } else { p.beta * *c };
                }
            }
            // SAFETY: rows `i0..i0 + rows` of column `j`: elements of C.
            unsafe { p.epilogue(c0, i0, j, rows, 1) };
            i0 += rows;
        }
    }
}

/// The rows of a column [`scale_c`] scales before applying the epilogue to them (they stay
/// in L1).
const SCALE_ROWS: usize = 256;

/// A multiply-add: fused at the levels with FMA, `a·b + c` otherwise.
pub trait Madd<T> {
    fn madd(a: T, b: T, c: T) -> T;
}

/// `a·b + c` (two roundings; no libm call where FMA is missing).
pub struct Unfused;

impl<T: GemmScalar> Madd<T> for Unfused {
    #[inline(always)]
    fn madd(a: T, b: T, c: T) -> T {
        a * b + c
    }
}

/// The operands of one register tile: `C(i, j) = α·Σ_{p<k} A(i, p)·B(p, j) + β·C(i, j)` for
/// `i < mr`, `j < nr` (C not read when `β = 0`), with `A(i, p)` at `a + i + p·a_cs`,
/// `B(p, j)` at `b + p·b_rs + j·b_cs` (a packed panel's own strides for [`Kernel::micro`])
/// and `C(i, j)` at `c + i·c_rs + j·c_cs`. At step `p` the SIMD kernels over packed B
/// panels also prefetch into L2 the `pf_n ≤` [`NEXT_A_LINES`] consecutive lines from
/// `pf + p·pf_cs`: the source of the next A block, which the packer then reads from L2 (any
/// address: a prefetch does not access memory; `pf_n = 0`: none), and at each of their first
/// `pf_b_n` steps one line into L2, the lines one after another from `pf_b` (the next packed B
/// micro-panel, which the next tiles then read from L2 rather than from L3). With `tiles > 1`
/// (kernels whose [`Kernel::TILES`] is true, full tiles: `mr = MR`) the call runs `tiles`
/// tiles down the rows, tile `q` with A at `a + q·a_tile` and C at `c + q·MR·c_rs` (and the
/// same B), each prefetching as above, except that the B lines go on from tile to tile (tile
/// `q` from line `q·k`); `tiles ≤ 1` is one tile. With `stream` and `β = 0`, the SIMD
/// kernels write the full tiles of a C whose columns are aligned to the vector with
/// non-temporal stores (C not read or prefetched; the caller holds a [`StreamFence`]).
#[derive(Clone, Copy, Debug)]
pub struct MicroArgs<T> {
    pub k: usize,
    pub a: *const T,
    pub a_cs: isize,
    pub b: *const T,
    pub b_rs: isize,
    pub b_cs: isize,
    pub c: *mut T,
    pub c_rs: isize,
    pub c_cs: isize,
    pub mr: usize,
    pub nr: usize,
    pub alpha: T,
    pub beta: T,
    pub pf: *const T,
    pub pf_cs: isize,
    pub pf_n: usize,
    pub pf_b: *const T,
    pub pf_b_n: usize,
    pub tiles: usize,
    pub a_tile: isize,
    pub stream: bool,
}

/// A micro-kernel as a function pointer (the edge tables, the bench crate's harness).
///
/// # Safety
/// A call has [`Kernel::micro`]'s contract for the kernel's tile and level (SAFETY: its
/// panels, C's tile and the CPU's features are the caller's to vouch for).
pub type Micro<T> = unsafe fn(&MicroArgs<T>);

/// A level's micro-kernel and blocking.
pub trait Kernel<T> {
    /// The level's blocking in the plan (`layout_plan::gemm_blocking`): the one source of
    /// the constants below, of the cache blocks and of the B panel stride.
    const PLAN: GemmBlocking;
    /// The SIMD level of these kernels (the fused epilogue's kernels are chosen by it, so
    /// that their tile and panels are this level's).
    const LEVEL: crate::kernels::Level;
    /// The widths of the narrower edge kernels `micro` dispatches to, narrowest first
    /// (checked against the plan in tests).
    #[cfg(test)]
    const NARROW: &'static [usize] = &[];
    /// The heights of the shorter edge kernels `micro` dispatches to, shortest first
    /// (checked against the plan in tests).
    #[cfg(test)]
    const NARROW_MR: &'static [usize] = &[];
    /// Rows of the register tile (a multiple of the vector width).
    const MR: usize = Self::PLAN.mr;
    /// Columns of the register tile.
    const NR: usize = Self::PLAN.nr;
    /// Depth of a packed panel (the B micro-panel `KC×NR` stays in L1).
    const KC: usize = Self::PLAN.kc;

    /// The tile `t` (see [`MicroArgs`]): A a panel packed by [`pack`](Kernel::pack)
    /// (`a_cs = MR`) or `MR` full rows of a column-major A read in place (`a_cs` its column
    /// stride), B a panel packed by [`pack_b`](Kernel::pack_b) (`b_rs`, `b_cs` unused).
    ///
    /// # Safety
    /// `a[p·a_cs..][..MR]` is readable for `p < k`, `b` holds `b_panel(k)` readable elements;
    /// `mr ≤ MR`, `nr ≤ NR`; the `mr × nr` elements of C are valid (readable unless `β = 0`,
    /// writable, distinct); the CPU has the kernel's features.
    unsafe fn micro(t: &MicroArgs<T>);

    /// Whether [`micro_b`](Kernel::micro_b) is implemented: full tiles over a B read in place.
    const MICRO_B: bool = false;
    /// Whether [`micro`](Kernel::micro) and [`micro_b`](Kernel::micro_b) take `tiles > 1`
    /// (see [`MicroArgs`]): a call then runs that many full tiles down the rows, and the
    /// bounds below hold for each of them.
    const TILES: bool = false;

    /// As [`micro`](Kernel::micro) for a full-width tile (`nr = NR`), or a half-width one
    /// (`nr = NR/2`, see [`micro_b_panel`]), over B read in place: `B(p, j)` at
    /// `b + p + j·b_cs` (a column-major B, which the AVX-512 panels' layout `(KC,NR):(1,KC)`
    /// is with `KC` replaced by `b_cs`), so no packing pass over B. Any other `nr` runs the
    /// full width.
    ///
    /// # Safety
    /// [`MICRO_B`](Kernel::MICRO_B); A as for [`micro`](Kernel::micro); `b_cs > 0` and the
    /// `k × w` elements of B are readable, where `w = NR/2` when `nr = NR/2`, else `NR`;
    /// `mr ≤ MR` and C's `mr × w` tile as for [`micro`](Kernel::micro).
    unsafe fn micro_b(_t: &MicroArgs<T>) {
        unreachable!("micro_b runs only where MICRO_B is true")
    }

    /// The distance in elements between two packed B panels of depth `kc ≤ KC`.
    #[inline(always)]
    fn b_panel(kc: usize) -> usize {
        Self::PLAN.b_panel_stride(kc)
    }

    /// Packs `len` columns of a `kc`-deep block of B (element `(p, j)` at
    /// `src + p·s_p + j·s_j`) into the panels the micro-kernel reads, panel `j / NR` at
    /// `dst + (j / NR)·b_panel(kc)`, the last one zero-padded. By default `NR` elements per
    /// step of k (`((NR,NC/NR),KC):((1,NR·KC),NR)`), as [`pack`].
    ///
    /// # Safety
    /// The block's elements are readable; `dst` has `len.div_ceil(NR)·b_panel(kc)` writable
    /// elements; the CPU has the kernel's features.
    #[inline(always)]
    unsafe fn pack_b(dst: *mut T, src: *const T, s_j: isize, s_p: isize, len: usize, kc: usize)
    where
        T: GemmScalar,
    {
        // SAFETY: the caller's.
        unsafe { Self::pack(Self::NR, dst, src, s_j, s_p, len, kc) }
    }

    /// Packs a `len × kc` block (element `(i, p)` at `src + i·s_i + p·s_p`) into panels of
    /// `w` rows, as [`pack`] (which is the default; levels override it with SIMD copies and
    /// register transposes).
    ///
    /// # Safety
    /// As [`pack`]; the CPU has the kernel's features.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn pack(w: usize, dst: *mut T, src: *const T, s_i: isize, s_p: isize, len: usize, kc: usize)
    where
        T: GemmScalar,
    {
        // SAFETY: the caller's.
        unsafe { pack(w, dst, src, s_i, s_p, len, kc) }
    }
}

/// A level's direct kernel for small problems: A read in place.
pub trait Direct<T> {
    /// Rows of the register tile.
    const MR: usize;
    /// Columns of the register tile.
    const NR: usize;

    /// The tile `t` (see [`MicroArgs`]), every operand read in place.
    ///
    /// # Safety
    /// `mr ≤ MR`, `nr ≤ NR`; the `mr × k` elements of A, the `k × nr` of B and the `mr × nr`
    /// of C are valid (C readable unless `β = 0`, writable, distinct); the CPU has the
    /// kernel's features.
    unsafe fn kernel(t: &MicroArgs<T>);
}

/// The largest `k` of a problem [`direct`] runs (the plan's `gemm_direct`).
pub const DIRECT_K: usize = layout_plan::gemm_blocking::GEMM_DIRECT_K;
/// The largest `MR` of a [`Direct`] kernel.
const DIRECT_MR: usize = 32;

/// Small problems with kernel `D`, no packing (A is copied to a stack block only when its
/// rows are not contiguous).
///
/// # Safety
/// [`gemm`](super::gemm)'s bounds for a normalized problem with `1 ≤ k ≤ DIRECT_K`; the CPU
/// has `D`'s features.
#[inline(always)]
pub unsafe fn direct<T: GemmScalar, D: Direct<T>>(p: &Problem<T>) {
    debug_assert!(p.k <= DIRECT_K && D::MR <= DIRECT_MR);
    let mut block = core::mem::MaybeUninit::<[T; DIRECT_MR * DIRECT_K]>::uninit();
    let block = block.as_mut_ptr().cast::<T>();
    let mut i0 = 0;
    while i0 < p.m {
        let mr = D::MR.min(p.m - i0);
        // SAFETY: rows `i0..i0+mr` of A; the block holds `MR·k ≤ DIRECT_MR·DIRECT_K`
        // elements, of which the kernel reads rows `< mr` of each column.
        let (a, a_cs) = unsafe {
            let a = p.a.offset(i0 as isize * p.a_rs);
            if p.a_rs == 1 {
                (a, p.a_cs)
            } else {
                for q in 0..p.k {
                    for i in 0..mr {
                        *block.add(q * D::MR + i) = *a.offset(i as isize * p.a_rs + q as isize * p.a_cs);
                    }
                }
                (block.cast_const(), D::MR as isize)
            }
        };
        let mut j0 = 0;
        while j0 < p.n {
            // The fewest tiles of at most `NR` columns, balanced in even widths (8 columns as
            // 4,4 rather than 6,2: a narrow tile has too few accumulators to hide the FMA
            // latency; 32 as 6,6,6,6,4,4).
            let left = p.n - j0;
            let nr = left.div_ceil(left.div_ceil(D::NR)).next_multiple_of(2).min(D::NR).min(left);
            // SAFETY: columns `j0..j0+nr` of B and C, rows `i0..i0+mr` of C: in bounds.
            unsafe {
                let b = p.b.offset(j0 as isize * p.b_cs);
                let c = p.c.offset(i0 as isize * p.c_rs + j0 as isize * p.c_cs);
                let (alpha, beta, k) = (p.alpha, p.beta, p.k);
                let (b_rs, b_cs, c_rs, c_cs) = (p.b_rs, p.b_cs, p.c_rs, p.c_cs);
                D::kernel(&MicroArgs {
                    k,
                    a,
                    a_cs,
                    b,
                    b_rs,
                    b_cs,
                    c,
                    c_rs,
                    c_cs,
                    mr,
                    nr,
                    alpha,
                    beta,
                    pf: a,
                    pf_cs: 0,
                    pf_n: 0,
                    pf_b: core::ptr::null(),
                    pf_b_n: 0,
                    tiles: 1,
                    a_tile: 0,
                    stream: false,
                });
                p.epilogue(c, i0, j0, mr, nr);
            }
            j0 += nr;
        }
        i0 += D::MR;
    }
}

/// A 64-byte aligned, growable, uninitialized byte buffer.
pub struct Buf {
    pub ptr: *mut u8,
    pub bytes: usize,
}

// SAFETY: the buffer owns its allocation (freed once, by its owner).
unsafe impl Send for Buf {}

/// The alignment of a [`Buf`] in bytes.
pub const ALIGN: usize = 64;

impl Buf {
    pub const fn new() -> Self {
        Buf { ptr: core::ptr::null_mut(), bytes: 0 }
    }

    /// Grows the buffer to at least `bytes` bytes (its contents are not kept).
    pub fn reserve(&mut self, bytes: usize) {
        if bytes <= self.bytes {
            return;
        }
        self.free();
        let bytes = bytes.next_multiple_of(ALIGN).max(ALIGN);
        let layout = std::alloc::Layout::from_size_align(bytes, ALIGN).expect("gemm: packing buffer too large");
        // SAFETY: `layout` has a non-zero size.
        let ptr = unsafe { std::alloc::alloc(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        self.ptr = ptr;
        self.bytes = bytes;
    }

    fn free(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: allocated by `reserve` with this size and alignment.
            unsafe { std::alloc::dealloc(self.ptr, std::alloc::Layout::from_size_align_unchecked(self.bytes, ALIGN)) };
            self.ptr = core::ptr::null_mut();
            self.bytes = 0;
        }
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        self.free();
    }
}

thread_local! {
    /// The packing buffer of this thread, kept between calls (taken out while a call uses it).
    static PACK: core::cell::Cell<Buf> = const { core::cell::Cell::new(Buf::new()) };
}

/// This thread's packing buffer, taken out of the thread-local for one call and put back
/// when dropped (a nested call on the same thread finds an empty buffer and allocates its
/// own). Not a closure: the blocked loop nest runs in the caller's body, which inlines into
/// each level's `#[target_feature]` entry (a closure would not inherit the features, and the
/// packers' intrinsics would become calls).
pub struct Scratch(pub Buf);

impl Scratch {
    /// At least `bytes` bytes of 64-byte aligned scratch memory.
    #[inline(always)]
    pub fn take(bytes: usize) -> Self {
        let mut buf = PACK.with(|cell| cell.replace(Buf::new()));
        buf.reserve(bytes);
        Scratch(buf)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let buf = core::mem::replace(&mut self.0, Buf::new());
        // Keep the larger buffer (a nested call may have put one back meanwhile).
        let _ = PACK.try_with(|cell| {
            let old = cell.replace(Buf::new());
            cell.set(if old.bytes > buf.bytes { old } else { buf });
        });
    }
}

/// Packs a `len × kc` block (element `(i, p)` at `src + i·s_i + p·s_p`) into panels of `w`
/// rows: `dst[(i/w)·w·kc + p·w + i%w]`, the last panel zero-padded to `w` rows.
///
/// # Safety
/// The block's elements are readable; `dst` has `len.next_multiple_of(w)·kc` writable
/// elements.
#[inline(always)]
pub unsafe fn pack<T: GemmScalar>(w: usize, dst: *mut T, src: *const T, s_i: isize, s_p: isize, len: usize, kc: usize) {
    let mut i0 = 0;
    while i0 < len {
        let rows = w.min(len - i0);
        // SAFETY: panel `i0 / w` of `dst`, rows `i0..i0 + rows` of the block (the caller's
        // bounds); every index below stays inside them.
        unsafe {
            let d = dst.add(i0 * kc);
            let s = src.offset(i0 as isize * s_i);
            if s_i == 1 && rows == w {
                // Contiguous along the panel: vector copies of `w` elements.
                for p in 0..kc {
                    let sp = s.offset(p as isize * s_p);
                    let dp = d.add(p * w);
                    for i in 0..w {
                        *dp.add(i) = *sp.add(i);
                    }
                }
            } else if s_p == 1 {
                // Contiguous along k: a transpose, in blocks of 16 columns that stay in L1.
                let mut p0 = 0;
                while p0 < kc {
                    let pe = (p0 + 16).min(kc);
                    for i in 0..rows {
                        let si = s.offset(i as isize * s_i);
                        for p in p0..pe {
                            *d.add(p * w + i) = *si.add(p);
                        }
                    }
                    for i in rows..w {
                        for p in p0..pe {
                            *d.add(p * w + i) = T::ZERO;
                        }
                    }
                    p0 = pe;
                }
            } else {
                for p in 0..kc {
                    let sp = s.offset(p as isize * s_p);
                    let dp = d.add(p * w);
                    for i in 0..rows {
                        *dp.add(i) = *sp.offset(i as isize * s_i);
                    }
                    for i in rows..w {
                        *dp.add(i) = T::ZERO;
                    }
                }
            }
        }
        i0 += w;
    }
}

/// The most lines of the next A block a micro-kernel prefetches per step of k (see
/// [`MicroArgs`]).
pub const NEXT_A_LINES: usize = 4;

/// The next A block of the blocked engine, prefetched into L2 by the micro-kernels of the
/// current block (see [`MicroArgs`]): `lines` lines per column from `at` (a column-major A,
/// column stride `pf_cs`), `per_call` of them per step of k by each of the block's first calls
/// (call `q` the lines from `q·per_call`), so that they arrive while the rest of the block
/// computes.
#[derive(Clone, Copy)]
pub(crate) struct NextA<T> {
    at: *const T,
    lines: usize,
    per_call: usize,
}

impl<T> NextA<T> {
    /// Nothing to prefetch.
    pub const NONE: NextA<T> = NextA { at: core::ptr::null(), lines: 0, per_call: 0 };

    /// The block of `rows` rows at `at`, spread over `calls` calls.
    pub fn new(at: *const T, rows: usize, calls: usize) -> Self {
        // One line more than the rows' bytes: the run need not start on a line.
        let lines = (rows * core::mem::size_of::<T>()).div_ceil(64) + 1;
        NextA { at, lines, per_call: lines.div_ceil(calls.max(1)).min(NEXT_A_LINES) }
    }

    /// The first line and the lines per step of call `q`.
    #[inline(always)]
    pub fn call(&self, q: usize) -> (*const T, usize) {
        let first = q * self.per_call;
        let n = if first < self.lines { self.per_call.min(self.lines - first) } else { 0 };
        (self.at.wrapping_add(first * (64 / core::mem::size_of::<T>())), n)
    }
}

/// The lines of the next packed B micro-panel (`len` elements at `at`) that a call whose first
/// tile is tile `tile` of the current panel prefetches, one per step of k (see [`MicroArgs`]):
/// tile `q` from line `q·kc`, so that the panel's first tiles bring in all of it.
#[inline(always)]
pub(crate) fn next_b<T>(at: *mut T, len: usize, tile: usize, kc: usize) -> (*const T, usize) {
    let line = 64 / core::mem::size_of::<T>();
    let lines = len.div_ceil(line);
    let done = tile.saturating_mul(kc).min(lines);
    (at.wrapping_add(done * line).cast_const(), lines - done)
}

/// The blocked GEMM of a normalized problem on this thread, with kernel `K`.
///
/// # Safety
/// [`gemm`](super::gemm)'s bounds; `k ≥ 1`; the CPU has `K`'s features.
#[inline(always)]
pub unsafe fn blocked<T: GemmScalar, K: Kernel<T>>(p: &Problem<T>) {
    let (mr, nr) = (K::MR, K::NR);
    // The plan's blocking with the cache blocks of this machine's caches (CPUID, read once),
    // then blocks of equal size (a multiple of the tile) rather than full blocks and a
    // thin rest.
    let plan = K::PLAN.on_this_machine();
    let per_panel = plan.packs_b_per_panel(p.m);
    // Full micro-panels of a column-major B read in place (the plan's `reads_b_in_place`,
    // which implies `per_panel`: the other panels are packed one at a time).
    let direct_b = K::MICRO_B && plan.reads_b_in_place(p.m, p.b_rs, p.b_cs);
    debug_assert!(!direct_b || per_panel);
    // Steps of all of k when every panel of B is read in place (no edge panel), else the
    // plan's blocks: a step deeper than `KC` is never packed into a B panel.
    let GemmBlocks { mc: mc_max, nc: nc_max, kc: kc_max } = p.blocks(&plan, p.n);
    let halves = direct_b && plan.b_in_place_halves(p.b_cs);
    // Full micro-panels of a small column-major A read in place (the plan's
    // `reads_a_in_place`); only an edge panel of fewer than `MR` rows is packed.
    let direct_a = plan.reads_a_in_place(p.m, p.k, p.a_rs, p.a_cs);
    let prefetch_a = plan.prefetches_next_a(p.m, p.k, p.a_rs, p.a_cs);
    // C written past the caches (the plan's `streams_c`), unless an epilogue pass reads the
    // tiles back after their micro-kernels.
    let stream = p.streams_c(&plan);
    // The `sfence` after the streamed stores of C, on return or unwind.
    let fence = StreamFence(stream);
    let a_len = (mc_max * kc_max).next_multiple_of(ALIGN);
    let b_len = nc_max.div_ceil(nr) * K::b_panel(kc_max);
    let bytes = (a_len + b_len) * core::mem::size_of::<T>();
    let scratch = Scratch::take(bytes);
    {
        let ap = scratch.0.ptr.cast::<T>();
        // SAFETY: `a_len` elements into a buffer of `a_len + b_len`.
        let bp = unsafe { ap.add(a_len) };
        let mut jc = 0;
        while jc < p.n {
            let nc = nc_max.min(p.n - jc);
            let mut pc = 0;
            while pc < p.k {
                let kc = kc_max.min(p.k - pc);
                let beta = if pc == 0 { p.beta } else { T::ONE };
                // The epilogue runs on each block of tiles of the last block of K, right after
                // the micro-kernels store them.
                let last = pc + kc == p.k;
                // The last step's tiles with the epilogue in their micro-kernels (columns of
                // C with unit row stride along M or N), else the epilogue per block.
                let fused = last && p.c_rs == 1 && p.ep.as_ref().is_some_and(|e| e.fuses());
                if !per_panel {
                    // SAFETY: rows `pc..pc+kc`, columns `jc..jc+nc` of B (in bounds); `bp` has
                    // `b_len ≥ nc.div_ceil(nr)·b_panel(kc)` elements (`b_panel` grows with kc),
                    // `kc ≤ KC` (deeper steps only over B in place, which implies `per_panel`).
                    unsafe {
                        let b = p.b.offset(pc as isize * p.b_rs + jc as isize * p.b_cs);
                        K::pack_b(bp, b, p.b_cs, p.b_rs, nc, kc);
                    }
                }
                let mut ic = 0;
                while ic < p.m {
                    let mc = mc_max.min(p.m - ic);
                    // Rows `ic..ic+full` are read in place (`full = 0` unless A is), the others
                    // packed from the start of `ap`.
                    let full = if direct_a { mc - mc % mr } else { 0 };
                    // SAFETY: rows `ic+full..ic+mc`, columns `pc..pc+kc` of A; `ap` has
                    // `mc_max·kc_max ≥ mc.next_multiple_of(mr)·kc` elements.
                    unsafe {
                        if full < mc {
                            let a = p.a.offset((ic + full) as isize * p.a_rs + pc as isize * p.a_cs);
                            K::pack(mr, ap, a, p.a_rs, p.a_cs, mc - full, kc);
                        }
                    }
                    // The source of the next A block (this step's next rows, else the next
                    // step's first rows), prefetched by this block's first calls.
                    let next = if !prefetch_a || direct_a {
                        NextA::NONE
                    } else if ic + mc < p.m {
                        let at = p.a.wrapping_offset((ic + mc) as isize + pc as isize * p.a_cs);
                        NextA::new(at, mc_max.min(p.m - ic - mc), mc.div_ceil(mr))
                    } else if pc + kc < p.k {
                        NextA::new(p.a.wrapping_offset((pc + kc) as isize * p.a_cs), mc_max.min(p.m), mc.div_ceil(mr))
                    } else {
                        NextA::NONE
                    };
                    let mut call = 0;
                    let mut jr = 0;
                    while jr < nc {
                        let nrr = nr.min(nc - jr);
                        // A full panel of a column-major B read in place (no packing pass),
                        // else one B micro-panel packed at a time, used while it is in L1 (one
                        // A block), else the panel of the packed block.
                        let in_place = direct_b && nrr == nr;
                        let bpj = if in_place {
                            // SAFETY: rows `pc..pc+kc`, columns `jc+jr..jc+jr+nr` of B.
                            unsafe { p.b.offset(pc as isize * p.b_rs + (jc + jr) as isize * p.b_cs) }
                        } else if per_panel {
                            // SAFETY: rows `pc..pc+kc`, columns `jc+jr..jc+jr+nrr` of B (in
                            // bounds); `bp` has `b_len ≥ b_panel(kc)` elements, `kc ≤ KC` (a
                            // deeper step only where every panel is full and read in place).
                            unsafe {
                                let b = p.b.offset(pc as isize * p.b_rs + (jc + jr) as isize * p.b_cs);
                                K::pack_b(bp, b, p.b_cs, p.b_rs, nrr, kc);
                            }
                            bp.cast_const()
                        } else {
                            // SAFETY: panel `jr / nr` of the packed block (`b_len` elements).
                            unsafe { bp.add(jr / nr * K::b_panel(kc)).cast_const() }
                        };
                        let mut ir = 0;
                        while ir < mc {
                            let mrr = mr.min(mc - ir);
                            // SAFETY: A's rows `ic+ir..ic+ir+mr`, columns `pc..pc+kc` in place
                            // (`ir < full ≤ mc`: full panels of the block, in bounds), else
                            // panel `(ir-full)/mr` of `ap` (`kc·mr` packed elements); panel
                            // `jr/nr` of `bp` holds `b_panel(kc)` packed elements; the tile's
                            // `mrr × nrr` elements of C are in bounds (the caller's); the
                            // features are the caller's; the fused kernel runs full tiles
                            // (`MR × NR`) with `c_rs = 1` (`fused`) only, at `K`'s level,
                            // within the engine call its epilogue was made for.
                            unsafe {
                                let c = p.c.offset((ic + ir) as isize * p.c_rs + (jc + jr) as isize * p.c_cs);
                                // Rows `ic+ir..ic+ir+MR` of A where they are (column stride
                                // `a_cs`), or the packed panel (the edge panel first in `ap`).
                                let (a, a_cs) = if ir < full {
                                    (p.a.offset((ic + ir) as isize * p.a_rs + pc as isize * p.a_cs), p.a_cs)
                                } else {
                                    (ap.add((ir - full) * kc).cast_const(), mr as isize)
                                };
                                let (b_rs, b_cs, c_rs, c_cs) = (p.b_rs, p.b_cs, p.c_rs, p.c_cs);
                                let (pf, pf_n) = next.call(call);
                                // The next panel of the packed B block into L2, by the first
                                // tiles of this one (tile `ir / MR` from line `(ir / MR)·kc`).
                                let (pf_b, pf_b_n) = if per_panel || in_place || jr + nr >= nc {
                                    (core::ptr::null(), 0)
                                } else {
                                    let at = bp.wrapping_add((jr / nr + 1) * K::b_panel(kc));
                                    next_b(at, K::b_panel(kc), ir / mr, kc)
                                };
                                let t = MicroArgs {
                                    k: kc,
                                    a,
                                    a_cs,
                                    b: bpj,
                                    b_rs,
                                    b_cs,
                                    c,
                                    c_rs,
                                    c_cs,
                                    mr: mrr,
                                    nr: nrr,
                                    alpha: p.alpha,
                                    beta,
                                    pf,
                                    pf_cs: p.a_cs,
                                    pf_n,
                                    pf_b,
                                    pf_b_n,
                                    tiles: 1,
                                    a_tile: 0,
                                    stream,
                                };
                                // The full tiles of this row of the block from A's same source
                                // (in place, or packed) in one call (`tiles`, A's panels
                                // `a_tile` apart): not while calls prefetch the next A block
                                // (its lines are spread over the block's first calls; none
                                // after a call without), nor for an edge tile.
                                let group = K::TILES && pf_n == 0 && (!fused || nrr == nr);
                                let tiles = if !group || mrr < mr {
                                    1
                                } else if ir < full {
                                    (full - ir) / mr
                                } else {
                                    (mc - ir) / mr
                                };
                                let a_tile = if ir < full { mr as isize * p.a_rs } else { (mr * kc) as isize };
                                let t = MicroArgs { tiles, a_tile, ..t };
                                // Full tiles with the epilogue fused into their stores, else
                                // the plain kernel (and the epilogue on the tiles after it).
                                let done = fused
                                    && mrr == mr
                                    && nrr == nr
                                    && p.ep.as_ref().is_some_and(|e| e.micro(&t, in_place, ic + ir, jc + jr, K::LEVEL));
                                if !done {
                                    // (Not past the caches when the epilogue reads the tiles
                                    // next.)
                                    let t = MicroArgs { stream: stream && !fused, ..t };
                                    if in_place {
                                        // (B's `kc × NR` block at `bpj`, column stride `b_cs > 0`.)
                                        micro_b_panel::<T, K>(&t, halves);
                                    } else {
                                        K::micro(&t);
                                    }
                                    if fused {
                                        p.epilogue(c, ic + ir, jc + jr, tiles * mrr, nrr);
                                    }
                                }
                                call += tiles;
                                ir += (tiles - 1) * mr;
                            }
                            ir += mr;
                        }
                        if last && !fused {
                            // The `mc × nrr` block of C just written (in L1), one call.
                            // SAFETY: rows `ic..ic+mc`, columns `jc+jr..jc+jr+nrr` of C.
                            unsafe {
                                let c = p.c.offset(ic as isize * p.c_rs + (jc + jr) as isize * p.c_cs);
                                p.epilogue(c, ic, jc + jr, mc, nrr);
                            }
                        }
                        jr += nr;
                    }
                    ic += mc;
                }
                pc += kc;
            }
            jc += nc;
        }
    }
    drop(scratch);
    drop(fence);
}

/// When dropped (at the end of an engine call, or while a panic of the epilogue unwinds
/// through it), orders this thread's non-temporal stores (of [`MicroArgs::stream`]) before its
/// later stores (`sfence`), so that a thread that synchronizes with this one afterwards sees
/// C; `StreamFence(false)` does nothing.
pub struct StreamFence(pub bool);

impl Drop for StreamFence {
    #[inline]
    fn drop(&mut self) {
        if self.0 {
            // SAFETY: SSE is part of x86_64.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                core::arch::x86_64::_mm_sfence()
            };
        }
    }
}

/// A full micro-panel over B read in place ([`Kernel::micro_b`]): one tile, or two of `NR/2`
/// columns when `halves` (the plan's `b_in_place_halves`: B's columns crowd one set of L1d).
///
/// # Safety
/// [`Kernel::micro_b`]'s for `t` with `nr = NR` (`MICRO_B`; B's `k × NR` block and C's
/// `mr × NR` tile in bounds).
#[inline(always)]
pub unsafe fn micro_b_panel<T: GemmScalar, K: Kernel<T>>(t: &MicroArgs<T>, halves: bool) {
    if halves && K::NR.is_multiple_of(2) {
        let h = K::NR / 2;
        // SAFETY: columns `0..h` and `h..NR` of the caller's `k × NR` block of B and
        // `mr × NR` tile of C, each a half-width tile (`nr = NR/2`).
        unsafe {
            K::micro_b(&MicroArgs { nr: h, ..*t });
            let (b, c) = (t.b.offset(h as isize * t.b_cs), t.c.offset(h as isize * t.c_cs));
            K::micro_b(&MicroArgs { nr: h, b, c, ..*t });
        }
    } else {
        // SAFETY: the caller's.
        unsafe { K::micro_b(t) }
    }
}

/// The columns of [`small`]'s register tile.
pub const SMALL_NR: usize = 4;

/// The rows of [`small`]'s register tile: one 64-byte line of A (at most 16).
pub const fn small_mr<T>() -> usize {
    64 / core::mem::size_of::<T>()
}

/// The direct loop for small problems: register tiles of `64/size_of::<T>()` rows by 4
/// columns, read straight from the strided operands (no packing).
///
/// # Safety
/// [`gemm`](super::gemm)'s bounds; `k ≥ 1`.
#[inline(always)]
pub unsafe fn small<T: GemmScalar, F: Madd<T>>(p: &Problem<T>) {
    const NB: usize = SMALL_NR;
    let ib = small_mr::<T>();
    let (a_rs, a_cs, b_rs, b_cs) = (p.a_rs, p.a_cs, p.b_rs, p.b_cs);
    let mut j0 = 0;
    while j0 < p.n {
        let nj = NB.min(p.n - j0);
        let mut i0 = 0;
        while i0 < p.m {
            let mi = ib.min(p.m - i0);
            let mut acc = [[T::ZERO; 16]; NB];
            // SAFETY: every `(i0 + i, q)` of A and `(q, j0 + jj)` of B read below has
            // `i < mi`, `jj < nj`, `q < k`: inside the operands (the caller's bounds).
            unsafe {
                let a0 = p.a.offset(i0 as isize * a_rs);
                let b0 = p.b.offset(j0 as isize * b_cs);
                if mi == ib && nj == NB {
                    if a_rs == 1 {
                        for q in 0..p.k as isize {
                            let ap = a0.offset(q * a_cs);
                            let bp = b0.offset(q * b_rs);
                            for (jj, col) in acc.iter_mut().enumerate() {
                                let bv = *bp.offset(jj as isize * b_cs);
                                for (i, x) in col.iter_mut().enumerate().take(ib) {
                                    *x = F::madd(*ap.add(i), bv, *x);
                                }
                            }
                        }
                    } else {
                        for q in 0..p.k as isize {
                            let ap = a0.offset(q * a_cs);
                            let bp = b0.offset(q * b_rs);
                            for (jj, col) in acc.iter_mut().enumerate() {
                                let bv = *bp.offset(jj as isize * b_cs);
                                for (i, x) in col.iter_mut().enumerate().take(ib) {
                                    *x = F::madd(*ap.offset(i as isize * a_rs), bv, *x);
                                }
                            }
                        }
                    }
                } else {
                    for q in 0..p.k as isize {
                        let ap = a0.offset(q * a_cs);
                        let bp = b0.offset(q * b_rs);
                        for (jj, col) in acc.iter_mut().enumerate().take(nj) {
                            let bv = *bp.offset(jj as isize * b_cs);
                            for (i, x) in col.iter_mut().enumerate().take(mi) {
                                *x = F::madd(*ap.offset(i as isize * a_rs), bv, *x);
                            }
                        }
                    }
                }
            }
            for (jj, col) in acc.iter().enumerate().take(nj) {
                for (i, &x) in col.iter().enumerate().take(mi) {
                    // SAFETY: `(i0 + i, j0 + jj)` is an element of C.
                    unsafe {
                        let c = p.c.offset((i0 + i) as isize * p.c_rs + (j0 + jj) as isize * p.c_cs);
                        *c = if p.beta == T::ZERO { p.alpha * x } else { p.alpha * x + p.beta * *c };
                    }
                }
            }
            // SAFETY: rows `i0..i0 + mi`, columns `j0..j0 + nj` of C.
            unsafe { p.epilogue(p.c.offset(i0 as isize * p.c_rs + j0 as isize * p.c_cs), i0, j0, mi, nj) };
            i0 += ib;
        }
        j0 += NB;
    }
}

/// Writes back an `MR×NR` tile held column by column in `acc` (`acc[j·mr_full + i]`):
/// `C[i, j] = α·acc + β·C` for `i < mr`, `j < nr` (C not read when `β = 0`).
///
/// # Safety
/// The `mr × nr` elements of C are valid as [`Kernel::micro`] requires; `acc` holds
/// `mr_full·nr` elements.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub unsafe fn write_back<T: GemmScalar>(
    acc: &[T],
    mr_full: usize,
    c: *mut T,
    rs: isize,
    cs: isize,
    mr: usize,
    nr: usize,
    alpha: T,
    beta: T,
) {
    for j in 0..nr {
        for i in 0..mr {
            let x = acc[j * mr_full + i];
            // SAFETY: `(i, j)` is an element of the tile (the caller's bound).
            unsafe {
                let cp = c.offset(i as isize * rs + j as isize * cs);
                *cp = if beta == T::ZERO { alpha * x } else { alpha * x + beta * *cp };
            }
        }
    }
}

/// Asserts that kernel `K`'s constants, edge kernels, B panel stride and direct tile are
/// those of the plan's blocking for `level` (tests: the one source of truth).
#[cfg(test)]
pub fn assert_agrees<T: GemmScalar, K: Kernel<T>>(level: layout_plan::Level, direct: (usize, usize)) -> GemmBlocking {
    let elem = if core::mem::size_of::<T>() == 4 { layout_plan::GemmElem::F32 } else { layout_plan::GemmElem::F64 };
    let plan = layout_plan::gemm_blocking::gemm_blocking(level, elem);
    assert_eq!(K::PLAN, plan);
    assert_eq!((K::MR, K::NR, K::KC), (plan.mr, plan.nr, plan.kc), "{plan:?}");
    assert_eq!(K::NARROW, plan.narrow_nr, "{plan:?}");
    assert_eq!(K::NARROW_MR, plan.narrow_mr, "{plan:?}");
    assert_eq!(K::MICRO_B, plan.b_order == layout_plan::gemm_blocking::BPanelOrder::Columns, "{plan:?}");
    assert_eq!(direct, (plan.direct_mr, plan.direct_nr), "{plan:?}");
    for kc in [1, plan.kc / 2, plan.kc] {
        assert_eq!(K::b_panel(kc), plan.b_panel_stride(kc), "{plan:?}");
    }
    plan
}
