//! Fused epilogues: a function `f(x, m, n)` applied to every element of C in the GEMM's own
//! pass, on the last block of K only: in the registers of the micro-kernel of each full
//! tile, else on each finished tile (or block of tiles) right after the kernel stores it.
//!
//! The engine normalizes a problem (negative strides flipped, `Cᵀ = Bᵀ·Aᵀ` for a row-major
//! C, shares of m or n on several threads, loops of a run-time plan around the kernel), so an
//! element `(i, j)` of the problem it runs is mapped back to the caller's indices by an
//! affine map [`Coords`] that every such step updates. The epilogue is one object behind an
//! indirect call ([`TileFn`]), monomorphized for the caller's `f`: its `micro` runs a full
//! tile's micro-kernel compiled with `f` applied to the finished columns ([`Fused`], the
//! kernel's `Post`: the lanes go through an array that the compiler keeps in registers, `f`
//! vectorized across them), its `tile` loops over a stored tile with `f` inlined, at the SIMD
//! level in effect.

use super::GemmScalar;
use super::driver::{MicroArgs, Problem};
#[cfg(target_arch = "x86_64")]
use super::x86::Post;
#[cfg(target_arch = "x86_64")]
use crate::isa::Isa;
use crate::kernels::{DstView, Level, SrcView, level};
use crate::small_gemm::{SmallScalar, small_gemm};

/// The function a fused GEMM applies to each element of C before storing it: the final value
/// `x = alpha·Σ_k A(m,k)·B(n,k) + beta·C(m,n)` and the element's indices `m`, `n` (within
/// the whole M and N modes) and batch `l` (0 without a batch mode) give the value stored.
///
/// Implemented for closures `Fn(T, usize, usize) -> T + Sync` (which do not see the batch
/// index) and for [`Batched`] closures `Fn(T, usize, usize, usize) -> T + Sync`.
pub trait GemmEpilogue<T>: Sync {
    /// The value stored at `C(m, n)` of batch `l` for the product's value `x`.
    fn apply(&self, x: T, m: usize, n: usize, l: usize) -> T;
}

impl<T, F: Fn(T, usize, usize) -> T + Sync> GemmEpilogue<T> for F {
    #[inline(always)]
    fn apply(&self, x: T, m: usize, n: usize, _l: usize) -> T {
        self(x, m, n)
    }
}

/// An epilogue that also receives the batch index: `f(x, m, n, l)`.
///
/// ```
/// use cute_layout::gemm::{Batched, GemmEpilogue};
///
/// let f = Batched(|x: f32, m, n, l| x + (m + 10 * n + 100 * l) as f32);
/// assert_eq!(f.apply(0.5, 1, 2, 3), 321.5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Batched<F>(pub F);

impl<T, F: Fn(T, usize, usize, usize) -> T + Sync> GemmEpilogue<T> for Batched<F> {
    #[inline(always)]
    fn apply(&self, x: T, m: usize, n: usize, l: usize) -> T {
        (self.0)(x, m, n, l)
    }
}

/// Where a kernel call's C lies in the caller's C: element `(i, j)` of the call is
/// `C(m0 + i·ms, n0 + j·ns)` of batch `l` (a leaf of a multi-leaf mode has the weight `ms`
/// or `ns` of its position in the mode's colexicographic order). What generated code passes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// The M index of the call's first row.
    pub m0: usize,
    /// The M weight of the call's row index.
    pub ms: usize,
    /// The N index of the call's first column.
    pub n0: usize,
    /// The N weight of the call's column index.
    pub ns: usize,
    /// The batch index.
    pub l: usize,
}

impl At {
    /// A whole C: element `(i, j)` is `C(i, j)` of batch 0.
    pub const WHOLE: At = At { m0: 0, ms: 1, n0: 0, ns: 1, l: 0 };
}

/// The caller's indices of a problem element `(i, j)`: `m = m0 + i·mi + j·mj`,
/// `n = n0 + i·ni + j·nj` (wrapping arithmetic; the map is exact on the problem's elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Coords {
    pub m0: isize,
    pub mi: isize,
    pub mj: isize,
    pub n0: isize,
    pub ni: isize,
    pub nj: isize,
}

impl Coords {
    fn new(at: At) -> Self {
        Coords { m0: at.m0 as isize, mi: at.ms as isize, mj: 0, n0: at.n0 as isize, ni: 0, nj: at.ns as isize }
    }

    /// The map after the substitution `i = a + s·i'` (a shift of the row origin by `a`,
    /// reversed when `s = -1`).
    fn rows(self, a: isize, s: isize) -> Self {
        Coords {
            m0: self.m0.wrapping_add(a.wrapping_mul(self.mi)),
            mi: self.mi.wrapping_mul(s),
            n0: self.n0.wrapping_add(a.wrapping_mul(self.ni)),
            ni: self.ni.wrapping_mul(s),
            ..self
        }
    }

    /// The map after `j = a + s·j'`.
    fn cols(self, a: isize, s: isize) -> Self {
        Coords {
            m0: self.m0.wrapping_add(a.wrapping_mul(self.mj)),
            mj: self.mj.wrapping_mul(s),
            n0: self.n0.wrapping_add(a.wrapping_mul(self.nj)),
            nj: self.nj.wrapping_mul(s),
            ..self
        }
    }

    /// The map after exchanging `i` and `j`.
    fn swapped(self) -> Self {
        Coords { mi: self.mj, mj: self.mi, ni: self.nj, nj: self.ni, ..self }
    }

    /// Whether the problem's columns run along the caller's M (`mi = 1`, `ni = 0`) or along
    /// its N (`ni = 1`, `mi = 0`).
    fn along(&self) -> bool {
        (self.mi == 1 && self.ni == 0) || (self.ni == 1 && self.mi == 0)
    }

    /// The map of a tile whose element `(0, 0)` is problem element `(i, j)`.
    #[inline(always)]
    fn at(self, i: usize, j: usize) -> Self {
        self.rows(i as isize, 1).cols(j as isize, 1)
    }
}

/// A tile epilogue behind one indirect call per tile.
pub(crate) trait TileFn<T>: Sync {
    /// Applies the epilogue to the `mr × nr` tile at `c` (element `(i, j)` at
    /// `c + i·rs + j·cs`), element `(i, j)` being the caller's `at` image of `(i, j)`.
    ///
    /// # Safety
    /// The tile's elements are readable, writable and distinct; nothing else accesses them.
    #[allow(clippy::too_many_arguments)]
    unsafe fn tile(&self, c: *mut T, rs: isize, cs: isize, mr: usize, nr: usize, at: Coords);

    /// Runs the micro-kernel `t` of a full register tile (or `t.tiles` of them down the rows)
    /// of the blocked engine of `level` with the epilogue applied to its accumulators before
    /// the stores (B read in place when `in_place`), element `(i, j)` of the tiles (`i` over
    /// all of their rows) being the caller's `at` image of `(i, j)`,
    /// whose columns run along M or along N ([`Coords::along`]); `false`, having run nothing,
    /// when the level has no such kernel.
    ///
    /// # Safety
    /// `t` is a full tile (or `t.tiles` of them) of the blocked engine of `level` (which the
    /// CPU supports) with `c_rs = 1` and the micro-kernel's bounds (B in place when
    /// `in_place`), C's tiles accessed by nothing else.
    unsafe fn micro(&self, t: &MicroArgs<T>, in_place: bool, at: Coords, level: Level) -> bool;
}

/// The epilogue as the micro-kernels' [`Post`]: `f` on each lane of a finished column of the
/// tile whose element `(0, 0)` is the caller's `at` image, columns along M (`ALONG_M`) or
/// along N. The lanes go through an array (`Isa::lanes2`), which the compiler keeps in the
/// vector registers with `f` vectorized across them.
#[cfg(target_arch = "x86_64")]
struct Fused<'e, E, const ALONG_M: bool> {
    e: &'e E,
    l: usize,
    at: &'e Coords,
}

#[cfg(target_arch = "x86_64")]
impl<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool> Post<T> for Fused<'_, E, ALONG_M> {
    const FULL: bool = true;
    #[inline(always)]
    fn column<I: Isa<T>, const MV: usize>(&self, row: usize, j: usize, col: [I::V; MV]) -> [I::V; MV] {
        let Coords { m0, mj, n0, nj, .. } = *self.at;
        let (m, n) = ((m0 + j as isize * mj) as usize, (n0 + j as isize * nj) as usize);
        // (The rows of this column along M or along N: `row` rows on from the first tile.)
        let (m, n) = if ALONG_M { (m + row, n) } else { (m, n + row) };
        // `f` on the lanes `xs` of the column from row `at` on (one loop over the whole
        // array: the compiler vectorizes it back into the registers).
        let f = |xs: &mut [T], at: usize| {
            for (i, x) in xs.iter_mut().enumerate() {
                *x = if ALONG_M {
                    self.e.apply(*x, m + at + i, n, self.l)
                } else {
                    self.e.apply(*x, m, n + at + i, self.l)
                };
            }
        };
        let mut col = col;
        if MV == 2 {
            // (`MV - 1` is 1: the pair as one array of `2·LANES` lanes.)
            let mut x = I::lanes2([col[0], col[MV - 1]]);
            f(x.as_mut(), 0);
            [col[0], col[MV - 1]] = I::from_lanes2(x);
        } else {
            for (q, v) in col.iter_mut().enumerate() {
                let mut x = I::lanes(*v);
                f(x.as_mut(), q * I::LANES);
                *v = I::from_lanes(x);
            }
        }
        col
    }
}

/// The epilogue `e` of batch `l`, as a [`TileFn`] compiled at `level` (read once per call).
struct Tile<'e, E> {
    e: &'e E,
    l: usize,
    level: Level,
}

/// One column of a tile along M (`ALONG_M`: element `i` is `(m + i, n)`) or along N
/// (`(m, n + i)`): `x = f(x, ..)` for each element. The column is an argument (a `&mut` that
/// aliases nothing `f` reads), so `f`'s captures are loaded once and the loop vectorizes when
/// `f` does.
///
/// The first two blocks of [`CHUNK`] elements (the 32 rows of the tallest tile) go as blocks
/// of a constant length, in straight-line code that the compiler turns into whole vectors (a
/// register tile's column, 8 to 32 elements, is too short for the main loop of a vectorized
/// run-time trip count, and a loop over blocks is vectorized across blocks, by gathers), then
/// the rest as a loop.
#[inline(always)]
fn column<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool>(col: &mut [T], e: &E, m: usize, n: usize, l: usize) {
    let mut at = 0;
    for _ in 0..2 {
        let Some(Ok(block)) = col.get_mut(at..at + CHUNK).map(<&mut [T; CHUNK]>::try_from) else { break };
        elements::<T, E, ALONG_M>(block, e, m, n, l, at);
        at += CHUNK;
    }
    elements::<T, E, ALONG_M>(&mut col[at..], e, m, n, l, at);
}

/// `x = f(x, ..)` for the elements of `xs`, element `i` being element `at + i` of the column.
#[inline(always)]
fn elements<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool>(
    xs: &mut [T],
    e: &E,
    m: usize,
    n: usize,
    l: usize,
    at: usize,
) {
    for (i, x) in xs.iter_mut().enumerate() {
        *x = if ALONG_M { e.apply(*x, m + at + i, n, l) } else { e.apply(*x, m, n + at + i, l) };
    }
}

/// The elements of a block of [`column`]: a 64-byte line of f32.
const CHUNK: usize = 16;

/// [`column`] compiled for the AVX-512 level.
///
/// # Safety
/// The CPU has the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")]
#[inline(never)]
unsafe fn column_avx512<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool>(
    col: &mut [T],
    e: &E,
    m: usize,
    n: usize,
    l: usize,
) {
    column::<T, E, ALONG_M>(col, e, m, n, l)
}

/// [`column`] compiled for the AVX2 level.
///
/// # Safety
/// The CPU has the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
unsafe fn column_avx2<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool>(
    col: &mut [T],
    e: &E,
    m: usize,
    n: usize,
    l: usize,
) {
    column::<T, E, ALONG_M>(col, e, m, n, l)
}

/// [`column`] at the baseline.
///
/// # Safety
/// None (an `unsafe fn` as the others).
#[inline(never)]
unsafe fn column_portable<T: Copy, E: GemmEpilogue<T>, const ALONG_M: bool>(
    col: &mut [T],
    e: &E,
    m: usize,
    n: usize,
    l: usize,
) {
    column::<T, E, ALONG_M>(col, e, m, n, l)
}

/// `C(i, j) = f(C(i, j), m, n)` over the tile: the common maps (C's columns along M or along
/// N with unit weight, chosen once per tile) column by column through `along_m` or `along_n`
/// (the level's [`column`], called directly), others element by element.
///
/// # Safety
/// As [`TileFn::tile`], and the columns' functions are safe to call on the tile's columns.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn body<T: Copy, E: GemmEpilogue<T>>(
    along_m: impl Fn(&mut [T], &E, usize, usize, usize),
    along_n: impl Fn(&mut [T], &E, usize, usize, usize),
    e: &E,
    l: usize,
    c: *mut T,
    rs: isize,
    cs: isize,
    mr: usize,
    nr: usize,
    at: Coords,
) {
    let Coords { m0, mi, mj, n0, ni, nj } = at;
    if rs == 1 && mi == 1 && ni == 0 {
        for j in 0..nr as isize {
            // SAFETY: column `j < nr` of a tile with unit row stride: `mr` contiguous elements
            // accessed by nothing else (the caller's bound).
            let col = unsafe { core::slice::from_raw_parts_mut(c.offset(j * cs), mr) };
            along_m(col, e, (m0 + j * mj) as usize, (n0 + j * nj) as usize, l);
        }
    } else if rs == 1 && ni == 1 && mi == 0 {
        for j in 0..nr as isize {
            // SAFETY: as above.
            let col = unsafe { core::slice::from_raw_parts_mut(c.offset(j * cs), mr) };
            along_n(col, e, (m0 + j * mj) as usize, (n0 + j * nj) as usize, l);
        }
    } else {
        for j in 0..nr as isize {
            for i in 0..mr as isize {
                let (m, n) = ((m0 + i * mi + j * mj) as usize, (n0 + i * ni + j * nj) as usize);
                // SAFETY: element `(i, j)` of the tile (the caller's bound).
                unsafe {
                    let p = c.offset(i * rs + j * cs);
                    *p = e.apply(*p, m, n, l);
                }
            }
        }
    }
}

/// [`body`] with the columns of `level`: direct calls.
///
/// # Safety
/// As [`TileFn::tile`], and `level` is at most what the CPU supports (a value of [`level()`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn dispatch<T: Copy, E: GemmEpilogue<T>>(
    level: Level,
    e: &E,
    l: usize,
    c: *mut T,
    rs: isize,
    cs: isize,
    mr: usize,
    nr: usize,
    at: Coords,
) {
    // SAFETY: the caller's bounds; the level's features are the CPU's.
    unsafe {
        match level {
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => body(
                |c: &mut [T], e: &E, m, n, l| column_avx512::<T, E, true>(c, e, m, n, l),
                |c: &mut [T], e: &E, m, n, l| column_avx512::<T, E, false>(c, e, m, n, l),
                e,
                l,
                c,
                rs,
                cs,
                mr,
                nr,
                at,
            ),
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => body(
                |c: &mut [T], e: &E, m, n, l| column_avx2::<T, E, true>(c, e, m, n, l),
                |c: &mut [T], e: &E, m, n, l| column_avx2::<T, E, false>(c, e, m, n, l),
                e,
                l,
                c,
                rs,
                cs,
                mr,
                nr,
                at,
            ),
            _ => body(
                |c: &mut [T], e: &E, m, n, l| column_portable::<T, E, true>(c, e, m, n, l),
                |c: &mut [T], e: &E, m, n, l| column_portable::<T, E, false>(c, e, m, n, l),
                e,
                l,
                c,
                rs,
                cs,
                mr,
                nr,
                at,
            ),
        }
    }
}

impl<T: GemmScalar, E: GemmEpilogue<T>> TileFn<T> for Tile<'_, E> {
    // SAFETY contract: `TileFn::micro`'s.
    unsafe fn micro(&self, t: &MicroArgs<T>, in_place: bool, at: Coords, level: Level) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            // (The engine's level, not `self.level`: the tile and panels are that level's.)
            let (e, l) = (self.e, self.l);
            // SAFETY: the caller's bounds and level.
            unsafe {
                // (`at` by reference: the kernel reads its fields where the caller stored them.)
                if at.mi == 1 {
                    T::fused_micro(level, t, &Fused::<E, true> { e, l, at: &at }, in_place)
                } else {
                    T::fused_micro(level, t, &Fused::<E, false> { e, l, at: &at }, in_place)
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (t, in_place, at, level);
            false
        }
    }

    // SAFETY contract: `TileFn::tile`'s (the `mr × nr` elements of C at `i·rs + j·cs` are valid).
    unsafe fn tile(&self, c: *mut T, rs: isize, cs: isize, mr: usize, nr: usize, at: Coords) {
        // SAFETY: the caller's; `self.level` is a value of `level()`.
        unsafe { dispatch(self.level, self.e, self.l, c, rs, cs, mr, nr, at) }
    }
}

/// The epilogue of one engine problem: the tile function and the map from the problem's
/// `(i, j)` to the caller's `(m, n)`.
#[derive(Clone, Copy, Debug)]
pub struct Epi<T> {
    /// Valid for the whole engine call that holds this problem (the [`with`] caller's frame).
    f: *const (dyn TileFn<T> + 'static),
    map: Coords,
}

impl<T> Epi<T> {
    /// The problem's rows reversed: `i = last - i'`.
    pub fn flip_rows(&mut self, last: isize) {
        self.map = self.map.rows(last, -1);
    }

    /// The problem's columns reversed: `j = last - j'`.
    pub fn flip_cols(&mut self, last: isize) {
        self.map = self.map.cols(last, -1);
    }

    /// The transposed problem (`Cᵀ = Bᵀ·Aᵀ`).
    pub fn transpose(&mut self) {
        self.map = self.map.swapped();
    }

    /// The sub-problem of rows (`rows`) or columns from `start` on.
    pub fn shifted(self, start: usize, rows: bool) -> Self {
        let map = if rows { self.map.rows(start as isize, 1) } else { self.map.cols(start as isize, 1) };
        Epi { map, ..self }
    }

    /// Whether full tiles can run [`micro`](Self::micro): the problem's columns run along M
    /// or along N.
    pub fn fuses(&self) -> bool {
        self.map.along()
    }

    /// Runs the micro-kernel `t` of the full tile, of the engine of `level`, whose element
    /// `(0, 0)` is problem element `(i, j)` with the epilogue applied to its accumulators
    /// ([`TileFn::micro`]); `false`, having run nothing, when the level has no such kernel.
    ///
    /// # Safety
    /// [`fuses`](Self::fuses); as [`TileFn::micro`] (a full tile of the engine of `level`,
    /// `c_rs = 1`), and the engine call the epilogue was made for is still running.
    #[inline(always)]
    pub unsafe fn micro(&self, t: &MicroArgs<T>, in_place: bool, i: usize, j: usize, level: Level) -> bool {
        // SAFETY: `f` outlives the engine call (the caller's bound); the tile's bounds.
        unsafe { (*self.f).micro(t, in_place, self.map.at(i, j), level) }
    }

    /// Applies the epilogue to the `mr × nr` tile at `c` (strides `rs`, `cs`) whose element
    /// `(0, 0)` is problem element `(i, j)`.
    ///
    /// # Safety
    /// The tile's elements are valid as [`TileFn::tile`] requires, and the engine call the
    /// epilogue was made for is still running.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn apply(&self, c: *mut T, rs: isize, cs: isize, i: usize, j: usize, mr: usize, nr: usize) {
        // SAFETY: `f` outlives the engine call (the caller's bound); the tile's bounds.
        unsafe { (*self.f).tile(c, rs, cs, mr, nr, self.map.at(i, j)) }
    }
}

/// Runs `run` with the epilogue `e` of batch `l` placed at `at`, as an [`Epi`] for the
/// engine's problem (`None` when `e` is).
pub(crate) fn with<T: GemmScalar, E: GemmEpilogue<T>, R>(
    e: Option<(&E, At)>,
    run: impl FnOnce(Option<Epi<T>>) -> R,
) -> R {
    let Some((e, at)) = e else { return run(None) };
    let tile = Tile { e, l: at.l, level: level() };
    let f: *const (dyn TileFn<T> + '_) = &tile;
    // SAFETY: only the lifetime bound of the trait object changes (the same fat pointer);
    // `Epi`'s bound is that the pointer is used only during the engine call, which ends
    // before `tile` is dropped at the end of this frame.
    let f: *const (dyn TileFn<T> + 'static) = unsafe { core::mem::transmute(f) };
    run(Some(Epi { f, map: Coords::new(at) }))
}

/// Applies `e` of batch `at.l` to the `M × N` C of a static kernel (`C(i, j)` at
/// `c + i·CRS + j·CCS`, element `(i, j)` the caller's `C(at.m0 + i·at.ms, at.n0 + j·at.ns)`),
/// with the loop compiled at the level in effect.
///
/// # Safety
/// C's elements are readable, writable and distinct, and nothing else accesses them.
#[inline(always)]
pub(crate) unsafe fn static_tile<
    T: GemmScalar,
    E: GemmEpilogue<T>,
    const M: usize,
    const N: usize,
    const CRS: isize,
    const CCS: isize,
>(
    c: *mut T,
    e: &E,
    at: At,
) {
    // SAFETY: the caller's.
    unsafe { dispatch(level(), e, at.l, c, CRS, CCS, M, N, Coords::new(at)) }
}

/// Applies `e` of batch `at.l` to the `m × n` C at `c` (`C(i, j)` at `c + i·rs + j·cs`,
/// element `(i, j)` the caller's `C(at.m0 + i·at.ms, at.n0 + j·at.ns)`).
///
/// # Safety
/// C's elements are readable, writable and distinct, and nothing else accesses them.
pub(crate) unsafe fn whole<T: GemmScalar, E: GemmEpilogue<T>>(
    e: &E,
    at: At,
    c: *mut T,
    rs: isize,
    cs: isize,
    m: usize,
    n: usize,
) {
    // SAFETY: the caller's.
    unsafe { dispatch(level(), e, at.l, c, rs, cs, m, n, Coords::new(at)) }
}

impl<T: GemmScalar> Problem<T> {
    /// Applies the epilogue, if any, to the tile at `c` whose element `(0, 0)` is problem
    /// element `(i, j)`.
    ///
    /// # Safety
    /// As [`Epi::apply`] for the tile `mr × nr` of this problem's C.
    #[inline(always)]
    pub(crate) unsafe fn epilogue(&self, c: *mut T, i: usize, j: usize, mr: usize, nr: usize) {
        if let Some(e) = &self.ep {
            // SAFETY: the caller's.
            unsafe { e.apply(c, self.c_rs, self.c_cs, i, j, mr, nr) }
        }
    }
}

/// [`gemm_views`](super::gemm_views) with the epilogue `e` applied to each element of C
/// (`None`: none), element `(i, j)` of this call's C being `C(at.m0 + i·at.ms,
/// at.n0 + j·at.ns)` of batch `at.l` for `f`. What generated code and the run-time plans call.
///
/// # Panics
/// As [`gemm_views`](super::gemm_views).
#[doc(hidden)]
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn gemm_views_with<T: GemmScalar, E: GemmEpilogue<T>>(
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
    e: Option<(&E, At)>,
) {
    let Some(p) =
        super::checked_problem(m, n, k, alpha, a, a_at, a_rs, a_cs, b, b_at, b_rs, b_cs, beta, c, c_at, c_rs, c_cs)
    else {
        return;
    };
    let parallel = super::injective(m, n, c_rs, c_cs);
    // SAFETY: `checked_problem`'s problem, run within `with` (the epilogue outlives it); the
    // shares of a parallel run write distinct elements only when C's offsets are distinct,
    // which `injective` proves.
    with(e, |ep| unsafe { super::run_problem(Problem { ep, ..p }, parallel) })
}

/// [`small_gemm`](crate::small_gemm::small_gemm) with the epilogue `e` applied to each
/// element of C right after the kernel (C, at most 32 × 32, is in L1), as
/// [`gemm_views_with`].
///
/// # Panics
/// As [`small_gemm`](crate::small_gemm::small_gemm).
#[doc(hidden)]
#[inline]
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn small_gemm_with<
    T: GemmScalar + SmallScalar,
    E: GemmEpilogue<T>,
    const M: usize,
    const N: usize,
    const K: usize,
    const ARS: isize,
    const ACS: isize,
    const BRS: isize,
    const BCS: isize,
    const CRS: isize,
    const CCS: isize,
>(
    alpha: T,
    a: &SrcView<'_, T>,
    a_at: isize,
    b: &SrcView<'_, T>,
    b_at: isize,
    beta: T,
    c: &mut DstView<'_, T>,
    c_at: isize,
    e: Option<(&E, At)>,
) {
    small_gemm::<T, M, N, K, ARS, ACS, BRS, BCS, CRS, CCS>(alpha, a, a_at, b, b_at, beta, c, c_at);
    if let Some((e, at)) = e {
        let c = c.as_mut_ptr().wrapping_offset(c_at);
        // SAFETY: `small_gemm` checked every offset of C in its view (an exclusive borrow of
        // its slice), else it panicked; a static C's offsets are distinct (the planner's).
        unsafe { static_tile::<T, E, M, N, CRS, CCS>(c, e, at) }
    }
}
