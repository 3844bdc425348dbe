//! x86_64 levels: the micro-kernels, direct kernels and packers written once over
//! [`Isa`](crate::isa::Isa) and instantiated per level and type as `#[target_feature]`
//! functions (one line each, `instances!`), each level's [`Kernel`] with its edge table, and
//! one `#[target_feature]` entry per level and type into which the blocked driver, the
//! packing and the small-problem loop inline.

use super::GemmScalar;
use super::driver::{Direct, Kernel, Micro, MicroArgs, Problem, blocked, direct, pack, write_back};
use crate::isa::{Avx2, Avx512, Isa};
use crate::kernels::Level;
use core::arch::x86_64::*;
use layout_plan::GemmBlocking;
use layout_plan::gemm_blocking::{GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_AVX512_F32, GEMM_AVX512_F64};

/// Expands `$body` once per listed value, with `$v` bound to it (a `usize` constant), so that
/// indices into the accumulator arrays are constants and the arrays live in registers.
macro_rules! unroll {
    ($v:ident in [$($n:literal)*] $body:block) => {
        $( { let $v: usize = $n; $body } )*
    };
}

/// How many steps of k ahead the micro-kernels prefetch A.
const PF_A: isize = 8;

/// How many columns ahead the AVX-512 A packer prefetches a column-major block (every line of
/// the column's rows: each column is a short run of its own, often a page apart, which the
/// hardware prefetchers pick up late).
const PF_A_COLUMNS: isize = 4;

/// The largest register tile in elements (AVX-512 f32's 32×12): the write-back buffer.
const MAX_TILE: usize = 32 * 12;

/// The micro-kernel of `MV` vectors of rows by `NR` columns (see [`Kernel::micro`]): per step
/// of k, `MV` loads of A, `NR` broadcasts of B and `MV·NR` FMAs into accumulators held in
/// registers, a prefetch of A [`PF_A`] steps ahead and one of the next A block's lines
/// ([`MicroArgs`]). `B(p, j)` is at `b + p·BS + j·BJ` (a packed panel's strides: AVX-512
/// panels `(KC, 1)`, AVX2 ones `(1, NR)`), or at `b + p + j·b_cs` when `IN_PLACE` (a column-major B
/// read in place, [`Kernel::micro_b`]). A full tile with `c_rs = 1` is written back with
/// vector loads and stores, an edge tile with masked ones, others through a buffer.
///
/// # Safety
/// As [`Kernel::micro`] (as [`Kernel::micro_b`] when `IN_PLACE`); the CPU has `I`'s features.
#[inline(always)]
unsafe fn micro<
    T: GemmScalar,
    I: Isa<T>,
    const MV: usize,
    const NR: usize,
    const BJ: usize,
    const BS: usize,
    const IN_PLACE: bool,
>(
    t: &MicroArgs<T>,
) {
    // SAFETY: the caller's.
    unsafe { micro_post::<T, I, MV, NR, BJ, BS, IN_PLACE, NoPost>(t, &NoPost) }
}

/// What a micro-kernel applies to each finished column of a full tile (unit row stride, all
/// `MV·LANES` rows) right before storing it: a fused epilogue, or nothing ([`NoPost`]).
pub trait Post<T> {
    /// Runs only on full tiles (`MV·LANES × NR`) with unit row stride, which the micro-kernel
    /// then assumes.
    const FULL: bool;
    /// Column `j` of the tile whose first row is `row` rows past the call's first tile, its
    /// `MV` vectors of rows in order (row `row + q·LANES + i` in lane `i` of `col[q]`): the
    /// column to store.
    fn column<I: Isa<T>, const MV: usize>(&self, row: usize, j: usize, col: [I::V; MV]) -> [I::V; MV];
}

/// No change: the plain GEMM's micro-kernels.
pub struct NoPost;

impl<T> Post<T> for NoPost {
    const FULL: bool = false;
    #[inline(always)]
    fn column<I: Isa<T>, const MV: usize>(&self, _row: usize, _j: usize, col: [I::V; MV]) -> [I::V; MV] {
        col
    }
}

/// [`micro_tile`] over `t.tiles` full tiles down the rows (A panels `a_tile` apart).
///
/// # Safety
/// As [`micro_tile`] for each tile.
#[inline(always)]
unsafe fn micro_post<
    T: GemmScalar,
    I: Isa<T>,
    const MV: usize,
    const NR: usize,
    const BJ: usize,
    const BS: usize,
    const IN_PLACE: bool,
    P: Post<T>,
>(
    t: &MicroArgs<T>,
    post: &P,
) {
    if t.tiles <= 1 {
        // SAFETY: the caller's, for one tile.
        return unsafe { micro_tile::<T, I, MV, NR, BJ, BS, IN_PLACE, P>(t, post, 0) };
    }
    let mr = MV * I::LANES;
    let (mut a, mut c) = (t.a, t.c);
    let line = 64 / core::mem::size_of::<T>();
    for q in 0..t.tiles {
        // The next B panel's lines go on from the previous tile's.
        let done = q * t.k;
        let (pf_b, pf_b_n) = (t.pf_b.wrapping_add(done.min(t.pf_b_n) * line), t.pf_b_n.saturating_sub(done));
        let u = MicroArgs { a, c, tiles: 1, pf_b, pf_b_n, ..*t };
        // SAFETY: the caller's, for tile `q` (A's panel `q·a_tile` on, C's rows `q·MR` on).
        unsafe { micro_tile::<T, I, MV, NR, BJ, BS, IN_PLACE, P>(&u, post, q * mr) };
        a = a.wrapping_offset(t.a_tile);
        c = c.wrapping_offset(mr as isize * t.c_rs);
    }
}

/// [`micro`] with `post` applied to each column of a full tile before it is stored.
///
/// # Safety
/// As [`micro`]; a full tile with `c_rs = 1` when `P::FULL`.
#[inline(always)]
unsafe fn micro_tile<
    T: GemmScalar,
    I: Isa<T>,
    const MV: usize,
    const NR: usize,
    const BJ: usize,
    const BS: usize,
    const IN_PLACE: bool,
    P: Post<T>,
>(
    t: &MicroArgs<T>,
    post: &P,
    row: usize,
) {
    const { assert!(MV <= 4 && NR <= 12 && super::driver::NEXT_A_LINES <= 4) };
    let MicroArgs { k: kc, a, a_cs, b, b_cs, c, c_rs: rs, c_cs: cs, mr, nr, alpha, beta, pf, pf_cs, pf_n, .. } = *t;
    let (mut pf_b, mut pf_b_n) = (t.pf_b, t.pf_b_n);
    let l = I::LANES;
    let mr_full = MV * l;
    // A post that changes the tile runs on full tiles with unit row stride only (its
    // callers'): constants then.
    let (rs, mr, nr) = if P::FULL { (1, mr_full, NR) } else { (rs, mr, nr) };
    let (bj, bs) = if IN_PLACE { (b_cs as usize, 1) } else { (BJ, BS) };
    // SAFETY: the CPU has `I`'s features (the caller's), here and in every `I::` call below.
    let z = unsafe { I::zero() };
    let mut acc = [[z; NR]; MV];
    // Non-temporal stores of a full tile with unit row stride and columns aligned to the
    // vector (β = 0: C is not read).
    let vbytes = l * core::mem::size_of::<T>();
    let stream = t.stream
        && beta == T::ZERO
        && rs == 1
        && mr == mr_full
        && (c as usize).is_multiple_of(vbytes)
        && (cs.unsigned_abs() % vbytes * core::mem::size_of::<T>()).is_multiple_of(vbytes);
    // Prefetch the tile of C (its first and last element per column): the stores at the end
    // then do not wait for the lines.
    unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
        if j < NR && j < nr && !stream {
            let cj = c.wrapping_offset(j as isize * cs);
            // SAFETY: a prefetch does not access memory.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(cj.cast::<i8>());
                _mm_prefetch::<_MM_HINT_T0>(cj.wrapping_offset((mr as isize - 1) * rs).cast::<i8>());
            }
        }
    });
    let (mut a, mut b, mut pf) = (a, b, pf);
    // SAFETY: step `p < kc` reads `a[p·a_cs..][..MR]` and `b[p·bs + j·bj]` for `j < NR`, inside
    // the panels (the caller's bound).
    unsafe {
        for _ in 0..kc {
            // Prefetch A `PF_A` steps ahead: the lines of its panel row (packed: contiguous;
            // in place: one column of A per step, a page apart).
            unroll!(q in [0 1 2 3] {
                if q < MV * l * core::mem::size_of::<T>() / 64 {
                    _mm_prefetch::<_MM_HINT_T0>(a.wrapping_offset(PF_A * a_cs).cast::<i8>().wrapping_add(q * 64));
                }
            });
            let mut av = [z; MV];
            unroll!(i in [0 1 2 3] { if i < MV { av[i] = I::load(a.add(i * l)); } });
            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                if j < NR {
                    let bv = I::splat(*b.add(j * bj));
                    unroll!(i in [0 1 2 3] { if i < MV { acc[i][j] = I::fma(av[i], bv, acc[i][j]); } });
                }
            });
            // The next A block's lines into L2 (over packed B panels only: B read in place
            // takes the registers for its column offsets).
            if !IN_PLACE && pf_n > 0 {
                unroll!(q in [0 1 2 3] {
                    if q < pf_n {
                        _mm_prefetch::<_MM_HINT_T1>(pf.cast::<i8>().wrapping_add(q * 64));
                    }
                });
                pf = pf.wrapping_offset(pf_cs);
            }
            // The next B panel's lines into L2, one per step.
            if pf_b_n > 0 {
                _mm_prefetch::<_MM_HINT_T1>(pf_b.cast::<i8>());
                pf_b = pf_b.wrapping_add(64 / core::mem::size_of::<T>());
                pf_b_n -= 1;
            }
            // (Wrapping: after the last step, A read in place may point past its allocation,
            // one column on; the pointer is not read there.)
            a = a.wrapping_offset(a_cs);
            b = b.add(bs);
        }
    }
    // α·(A·B), not multiplied when α = 1 (whose product is the same value: a shallow
    // product's tiles then spend no FMA-port cycle on it).
    if alpha != T::ONE {
        // SAFETY: the CPU has `I`'s features (the caller's); registers only.
        unsafe {
            let va = I::splat(alpha);
            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                unroll!(i in [0 1 2 3] { if i < MV && j < NR { acc[i][j] = I::mul(va, acc[i][j]); } });
            });
        }
    }
    if rs == 1 && mr == mr_full {
        // Every row of the tile (the columns `j < nr`): plain vector stores (AMD's masked
        // stores are microcoded).
        // SAFETY: column `j < nr` of the tile is `MR` contiguous elements at `c + j·cs`; the
        // features, as above.
        unsafe {
            if beta == T::ZERO {
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NR && j < nr {
                        let cj = c.wrapping_offset(j as isize * cs);
                        let mut col = [z; MV];
                        unroll!(i in [0 1 2 3] { if i < MV { col[i] = acc[i][j]; } });
                        let col = post.column::<I, MV>(row, j, col);
                        if stream {
                            // (`cj + i·l` is aligned to the vector: `stream`'s condition.)
                            unroll!(i in [0 1 2 3] { if i < MV { I::stream(cj.add(i * l), col[i]); } });
                        } else {
                            unroll!(i in [0 1 2 3] { if i < MV { I::store(cj.add(i * l), col[i]); } });
                        }
                    }
                });
            } else {
                let vb = I::splat(beta);
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NR && j < nr {
                        let cj = c.wrapping_offset(j as isize * cs);
                        let mut col = [z; MV];
                        unroll!(i in [0 1 2 3] {
                            if i < MV { col[i] = I::fma(vb, I::load(cj.add(i * l)), acc[i][j]); }
                        });
                        let col = post.column::<I, MV>(row, j, col);
                        unroll!(i in [0 1 2 3] { if i < MV { I::store(cj.add(i * l), col[i]); } });
                    }
                });
            }
        }
    } else if rs == 1 {
        // An edge tile: masked stores of rows `< mr`, columns `< nr`.
        // SAFETY: the features, as above.
        let mut mk = [unsafe { I::mask(0) }; 4];
        // SAFETY: as above.
        unroll!(i in [0 1 2 3] { mk[i] = unsafe { I::mask(mr.saturating_sub(i * l)) }; });
        // SAFETY: columns `j < nr`, rows `i < mr` (masked) of the tile: elements of C; the
        // features, as above.
        unsafe {
            if beta == T::ZERO {
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NR && j < nr {
                        let cj = c.wrapping_offset(j as isize * cs);
                        unroll!(i in [0 1 2 3] {
                            if i < MV { I::store_masked(cj.wrapping_add(i * l), mk[i], acc[i][j]); }
                        });
                    }
                });
            } else {
                let vb = I::splat(beta);
                unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                    if j < NR && j < nr {
                        let cj = c.wrapping_offset(j as isize * cs);
                        unroll!(i in [0 1 2 3] {
                            if i < MV {
                                let old = I::load_masked(cj.wrapping_add(i * l), mk[i]);
                                I::store_masked(cj.wrapping_add(i * l), mk[i], I::fma(vb, old, acc[i][j]));
                            }
                        });
                    }
                });
            }
        }
    } else {
        const { assert!(MV * I::LANES * NR <= MAX_TILE) };
        let mut buf = [T::ZERO; MAX_TILE];
        // SAFETY: column `j`, vector `i` of the tile is `buf[j·MR + i·lanes..][..lanes]`, inside
        // the buffer (`MR·NR ≤ MAX_TILE`); the features, as above.
        unsafe {
            unroll!(j in [0 1 2 3 4 5 6 7 8 9 10 11] {
                unroll!(i in [0 1 2 3] { if i < MV && j < NR { I::store(buf.as_mut_ptr().add(j * mr_full + i * l), acc[i][j]); } });
            });
        }
        // SAFETY: the tile's bounds (the caller's): `mr × nr` elements of C at `c`, strides
        // `rs`, `cs`; the buffer holds `MR·NR` (α applied above, so the write-back's α is 1).
        unsafe { write_back(&buf, mr_full, c, rs, cs, mr, nr, T::ONE, beta) }
    }
}

/// A direct micro-kernel for small problems (see [`Direct::kernel`]): like [`micro`], but A
/// is read in place (rows contiguous, `a_cs` between columns), B through per-column pointers
/// with any strides. The tile is cut to the problem: one vector of rows when `mr ≤ lanes`,
/// plain loads and stores for the full vectors and a masked one only for a partial last
/// vector (a mask register per vector would not fit in AVX2's 16 with 12 accumulators, and
/// `vmaskmov` stores are slow on AMD cores), and 2, 4 or 6 columns of FMAs for `nr` rounded up
/// to even (a column past `nr` reads column 0; its sums are never stored).
///
/// # Safety
/// As [`Direct::kernel`] with `MR = 2·lanes`, `NR = 6`; the CPU has `I`'s features.
#[inline(always)]
unsafe fn direct_kernel<T: GemmScalar, I: Isa<T>>(t: &MicroArgs<T>) {
    let t = *t;
    let one = t.mr <= I::LANES;
    let full = t.mr.is_multiple_of(I::LANES);
    // SAFETY: the caller's bounds (`mr ≤ MR`, `nr ≤ NR`); the variant matches `mr` and `nr`.
    unsafe {
        macro_rules! go {
            ($w:literal) => {
                match (one, full) {
                    (true, true) => direct_tile::<T, I, 1, true, $w>(t),
                    (true, false) => direct_tile::<T, I, 1, false, $w>(t),
                    (false, true) => direct_tile::<T, I, 2, true, $w>(t),
                    (false, false) => direct_tile::<T, I, 2, false, $w>(t),
                }
            };
        }
        match t.nr {
            0..=2 => go!(2),
            3..=4 => go!(4),
            _ => go!(6),
        }
    }
}

/// [`direct_kernel`]'s tile: `MV` vectors of rows (the last one masked unless `FULL`) by `W`
/// columns.
///
/// # Safety
/// As [`direct_kernel`]; `mr` is `MV` vectors of rows (`MV·lanes` when `FULL`, else more
/// than `(MV - 1)·lanes`), `W - 1 ≤ nr ≤ W`.
#[inline(always)]
unsafe fn direct_tile<T: GemmScalar, I: Isa<T>, const MV: usize, const FULL: bool, const W: usize>(t: MicroArgs<T>) {
    const { assert!(MV <= 2 && W <= 6) };
    let MicroArgs { k, a, a_cs, b, b_rs, b_cs, c, c_rs: rs, c_cs: cs, mr, nr, alpha, beta, .. } = t;
    let l = I::LANES;
    // α and β go through memory: held in registers over the k loop they would take two of the
    // 16 and push an accumulator to the stack (a store and a reload in its FMA chain every
    // step).
    let scal = [alpha, beta];
    // Whether vector `i` is the partial (masked) last one.
    let part = |i: usize| !FULL && i + 1 == MV;
    // SAFETY: the CPU has `I`'s features (the caller's), here and in every `I::` call below.
    let (mk, z) = unsafe { (I::mask(if FULL { l } else { mr - (MV - 1) * l }), I::zero()) };
    let mut bp = [b; W];
    unroll!(j in [0 1 2 3 4 5] { if j < W && j < nr { bp[j] = b.wrapping_offset(j as isize * b_cs); } });
    let mut acc = [[z; W]; MV];
    // SAFETY: step `p` reads rows `i < mr` of column `p` of A (the full vectors are inside
    // `mr`, the masked load touches no other element) and `B(p, j)` for `j < nr` (or column
    // 0): inside the operands.
    unsafe {
        let mut ap = a;
        for p in 0..k as isize {
            let mut av = [z; MV];
            unroll!(i in [0 1] {
                if i < MV {
                    let q = ap.wrapping_add(i * l);
                    av[i] = if part(i) { I::load_masked(q, mk) } else { I::load(q) };
                }
            });
            unroll!(j in [0 1 2 3 4 5] {
                if j < W {
                    let bv = I::splat(*bp[j].offset(p * b_rs));
                    unroll!(i in [0 1] { if i < MV { acc[i][j] = I::fma(av[i], bv, acc[i][j]); } });
                }
            });
            ap = ap.wrapping_offset(a_cs);
        }
    }
    // SAFETY: reads of a live local.
    let (alpha, beta) = unsafe { (core::ptr::read_volatile(&scal[0]), core::ptr::read_volatile(&scal[1])) };
    // SAFETY: the features, as above.
    let va = unsafe { I::splat(alpha) };
    if rs == 1 {
        // SAFETY: columns `j < nr` of the tile, rows `i < mr` (the last vector masked unless
        // full): elements of C; the features, as above.
        unsafe {
            let vb = I::splat(beta);
            unroll!(j in [0 1 2 3 4 5] {
                if j < W && j < nr {
                    let cj = c.wrapping_offset(j as isize * cs);
                    unroll!(i in [0 1] {
                        if i < MV {
                            let q = cj.wrapping_add(i * l);
                            let mut x = I::mul(va, acc[i][j]);
                            if beta != T::ZERO {
                                let old = if part(i) { I::load_masked(q, mk) } else { I::load(q) };
                                x = I::fma(vb, old, x);
                            }
                            if part(i) { I::store_masked(q, mk, x) } else { I::store(q, x) }
                        }
                    });
                }
            });
        }
    } else {
        const { assert!(2 * I::LANES * 6 <= MAX_TILE) };
        let mut buf = [T::ZERO; MAX_TILE];
        let mr_full = 2 * l;
        // SAFETY: column `j`, vector `i` of the tile is `buf[j·MR + i·lanes..][..lanes]`, inside
        // the buffer; the features, as above.
        unsafe {
            unroll!(j in [0 1 2 3 4 5] {
                unroll!(i in [0 1] { if i < MV && j < W { I::store(buf.as_mut_ptr().add(j * mr_full + i * l), acc[i][j]); } });
            });
        }
        // SAFETY: the tile's bounds (the caller's).
        unsafe { write_back(&buf, mr_full, c, rs, cs, mr, nr, alpha, beta) }
    }
}

/// `#[target_feature]` instances of the generic kernels and packers, one line each:
/// `name(args) = kernel::<T, Level, ...>;` with the level's features.
macro_rules! instances {
    ($feat:literal; $($name:ident($($arg:ident: $ty:ty),*) = $f:path;)*) => {
        $(
            /// # Safety
            /// The generic function's contract; the CPU has the level's features.
            #[target_feature(enable = $feat)]
            #[allow(clippy::too_many_arguments)]
            unsafe fn $name($($arg: $ty),*) {
                // SAFETY: forwarded from the caller.
                unsafe { $f($($arg),*) }
            }
        )*
    };
}

/// The column stride of the AVX-512 B panels (the plan's `KC`), built into the kernels, the
/// B packers and the fused kernels below.
const KC_F32: usize = GEMM_AVX512_F32.kc;
/// As [`KC_F32`] for f64.
const KC_F64: usize = GEMM_AVX512_F64.kc;

// The full tiles, and narrower ones over the same packed B panel for the last columns, so
// that an edge of 4 columns does not run 12. AVX-512 B panels are column-major with a fixed
// column stride `KC` (packing a column-major B is then a copy, and the broadcasts' offsets
// are immediates): `BJ, BS = KC, 1`; AVX2 ones are `NR` elements per step of k: `1, NR`.
instances!("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma";
    micro_avx512_f32(t: &MicroArgs<f32>) = micro::<f32, Avx512, 2, 12, KC_F32, 1, false>;
    micro_avx512_f32_n8(t: &MicroArgs<f32>) = micro::<f32, Avx512, 2, 8, KC_F32, 1, false>;
    micro_avx512_f32_n4(t: &MicroArgs<f32>) = micro::<f32, Avx512, 2, 4, KC_F32, 1, false>;
    micro_b_avx512_f32(t: &MicroArgs<f32>) = micro::<f32, Avx512, 2, 12, 0, 0, true>;
    micro_avx512_f32_m1(t: &MicroArgs<f32>) = micro::<f32, Avx512, 1, 12, KC_F32, 1, false>;
    micro_b_avx512_f32_m1(t: &MicroArgs<f32>) = micro::<f32, Avx512, 1, 12, 0, 0, true>;
    micro_b_avx512_f32_h(t: &MicroArgs<f32>) = micro::<f32, Avx512, 2, 6, 0, 0, true>;
    micro_b_avx512_f32_m1_h(t: &MicroArgs<f32>) = micro::<f32, Avx512, 1, 6, 0, 0, true>;
    micro_avx512_f64(t: &MicroArgs<f64>) = micro::<f64, Avx512, 2, 12, KC_F64, 1, false>;
    micro_avx512_f64_n8(t: &MicroArgs<f64>) = micro::<f64, Avx512, 2, 8, KC_F64, 1, false>;
    micro_avx512_f64_n4(t: &MicroArgs<f64>) = micro::<f64, Avx512, 2, 4, KC_F64, 1, false>;
    micro_b_avx512_f64(t: &MicroArgs<f64>) = micro::<f64, Avx512, 2, 12, 0, 0, true>;
    micro_avx512_f64_m1(t: &MicroArgs<f64>) = micro::<f64, Avx512, 1, 12, KC_F64, 1, false>;
    micro_b_avx512_f64_m1(t: &MicroArgs<f64>) = micro::<f64, Avx512, 1, 12, 0, 0, true>;
    micro_b_avx512_f64_h(t: &MicroArgs<f64>) = micro::<f64, Avx512, 2, 6, 0, 0, true>;
    micro_b_avx512_f64_m1_h(t: &MicroArgs<f64>) = micro::<f64, Avx512, 1, 6, 0, 0, true>;
    direct_avx512_f32(t: &MicroArgs<f32>) = direct_kernel::<f32, Avx512>;
    direct_avx512_f64(t: &MicroArgs<f64>) = direct_kernel::<f64, Avx512>;
    pack_avx512_f32(w: usize, dst: *mut f32, src: *const f32, s_i: isize, s_p: isize, len: usize, kc: usize) =
        pack_a_avx512::<f32, Avx512>;
    pack_avx512_f64(w: usize, dst: *mut f64, src: *const f64, s_i: isize, s_p: isize, len: usize, kc: usize) =
        pack_a_avx512::<f64, Avx512>;
    pack_b_avx512_f32(dst: *mut f32, src: *const f32, s_j: isize, s_p: isize, len: usize, kc: usize) =
        pack_b_avx512::<f32, Avx512, 12, KC_F32>;
    pack_b_avx512_f64(dst: *mut f64, src: *const f64, s_j: isize, s_p: isize, len: usize, kc: usize) =
        pack_b_avx512::<f64, Avx512, 12, KC_F64>;
);
instances!("avx2,fma";
    micro_avx2_f32(t: &MicroArgs<f32>) = micro::<f32, Avx2, 2, 6, 1, 6, false>;
    micro_avx2_f32_n3(t: &MicroArgs<f32>) = micro::<f32, Avx2, 2, 3, 1, 6, false>;
    micro_avx2_f64(t: &MicroArgs<f64>) = micro::<f64, Avx2, 2, 6, 1, 6, false>;
    micro_avx2_f64_n3(t: &MicroArgs<f64>) = micro::<f64, Avx2, 2, 3, 1, 6, false>;
    direct_avx2_f32(t: &MicroArgs<f32>) = direct_kernel::<f32, Avx2>;
    direct_avx2_f64(t: &MicroArgs<f64>) = direct_kernel::<f64, Avx2>;
    pack_avx2_f32(w: usize, dst: *mut f32, src: *const f32, s_i: isize, s_p: isize, len: usize, kc: usize) =
        pack_avx2::pack_avx2::<f32, Avx2>;
    pack_avx2_f64(w: usize, dst: *mut f64, src: *const f64, s_i: isize, s_p: isize, len: usize, kc: usize) =
        pack_avx2::pack_avx2::<f64, Avx2>;
);

/// The full-tile micro-kernels of each level and type with a [`Post`] (over a packed B
/// panel, or B read in place when `in_place`), as `#[target_feature]` functions generic over
/// the post.
macro_rules! fused {
    ($name:ident, $feat:literal, $t:ty, $isa:ty, $mv:literal, $nr:literal, $bj:tt, $bs:literal) => {
        /// # Safety
        /// [`micro`]'s contract for a full tile (or `t.tiles`) of the level with `c_rs = 1`
        /// (over B in place when `in_place`: [`Kernel::micro_b`]'s); the CPU has the level's
        /// features.
        #[target_feature(enable = $feat)]
        unsafe fn $name<P: Post<$t>>(t: &MicroArgs<$t>, post: &P, in_place: bool) {
            // SAFETY: forwarded from the caller.
            unsafe {
                if in_place {
                    micro_post::<$t, $isa, $mv, $nr, 0, 0, true, P>(t, post)
                } else {
                    micro_post::<$t, $isa, $mv, $nr, $bj, $bs, false, P>(t, post)
                }
            }
        }
    };
}

fused!(fused_avx512_f32, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, Avx512, 2, 12, KC_F32, 1);
fused!(fused_avx512_f64, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, Avx512, 2, 12, KC_F64, 1);
fused!(fused_avx2_f32, "avx2,fma", f32, Avx2, 2, 6, 1, 6);
fused!(fused_avx2_f64, "avx2,fma", f64, Avx2, 2, 6, 1, 6);

/// The entry of each type's fused micro-kernels, by level.
macro_rules! fused_entry {
    ($name:ident, $t:ty, $avx512:ident, $avx2:ident) => {
        /// Runs the micro-kernel of a full `MR × NR` tile (or `t.tiles` of them) of `level`'s
        /// blocked engine with `post` (see `Sealed::fused_micro`); `false` (nothing run) at
        /// the portable level, and at AVX2 over B in place.
        ///
        /// # Safety
        /// `t` is a full tile (or `t.tiles`) of the level's blocked engine with `c_rs = 1` and
        /// [`micro`]'s bounds (B in place, as [`Kernel::micro_b`] requires, when `in_place`,
        /// which only the AVX-512 level reads); `level` is supported by the CPU.
        pub(super) unsafe fn $name<P: Post<$t>>(level: Level, t: &MicroArgs<$t>, post: &P, in_place: bool) -> bool {
            match level {
                // SAFETY: the caller's bounds; the level is supported.
                Level::Avx512 => unsafe { $avx512(t, post, in_place) },
                // SAFETY: as above (AVX2 packs B: `in_place` is false).
                Level::Avx2 if !in_place => unsafe { $avx2(t, post, false) },
                _ => return false,
            }
            true
        }
    };
}

fused_entry!(fused_micro_f32, f32, fused_avx512_f32, fused_avx2_f32);
fused_entry!(fused_micro_f64, f64, fused_avx512_f64, fused_avx2_f64);

const _: () = assert!(
    GEMM_AVX512_F32.mr == 32 && GEMM_AVX512_F64.mr == 16 && GEMM_AVX512_F32.nr == 12 && GEMM_AVX512_F64.nr == 12
);
const _: () =
    assert!(GEMM_AVX2_F32.mr == 16 && GEMM_AVX2_F64.mr == 8 && GEMM_AVX2_F32.nr == 6 && GEMM_AVX2_F64.nr == 6);

/// A level's register transpose of `LANES × LANES` blocks, for the packers.
trait Transpose<T>: Isa<T> {
    /// `LANES` vectors.
    type Block: Copy + AsRef<[Self::V]> + AsMut<[Self::V]>;
    /// A block of zeros.
    /// # Safety
    /// The level's features.
    unsafe fn zeros() -> Self::Block;
    /// Lane `j` of vector `i` becomes lane `i` of vector `j`.
    /// # Safety
    /// The level's features.
    unsafe fn transpose(r: &mut Self::Block);
}

impl Transpose<f32> for Avx512 {
    type Block = [__m512; 16];
    // SAFETY contract: the level's features (the callers').
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn zeros() -> Self::Block {
        [_mm512_setzero_ps(); 16]
    }
    // SAFETY contract: the level's features (the callers'); no memory access.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn transpose(r: &mut Self::Block) {
        transpose16_ps(r)
    }
}

impl Transpose<f64> for Avx512 {
    type Block = [__m512d; 8];
    // SAFETY contract: the level's features (the callers').
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn zeros() -> Self::Block {
        [_mm512_setzero_pd(); 8]
    }
    // SAFETY contract: the level's features (the callers'); no memory access.
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn transpose(r: &mut Self::Block) {
        transpose8_pd(r)
    }
}

/// The 16×16 register transpose of AVX-512 f32: `r[i]` lane `j` becomes `r[j]` lane `i`
/// (unpacks within 128-bit lanes, then two rounds of 128-bit lane shuffles).
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose16_ps(r: &mut [__m512; 16]) {
    let mut t = [_mm512_setzero_ps(); 16];
    unroll!(i in [0 1 2 3 4 5 6 7] {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    });
    // `u[4i + q]`, 128-bit lane `l`: column `4l + q` of rows `4i..4i + 4`.
    let mut u = [_mm512_setzero_ps(); 16];
    unroll!(i in [0 1 2 3] {
        let (t0, t1) = (_mm512_castps_pd(t[4 * i]), _mm512_castps_pd(t[4 * i + 1]));
        let (t2, t3) = (_mm512_castps_pd(t[4 * i + 2]), _mm512_castps_pd(t[4 * i + 3]));
        u[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
        u[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
        u[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
        u[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(t1, t3));
    });
    unroll!(q in [0 1 2 3] {
        let v = _mm512_shuffle_f32x4::<0x88>(u[q], u[4 + q]);
        let w = _mm512_shuffle_f32x4::<0xDD>(u[q], u[4 + q]);
        let v2 = _mm512_shuffle_f32x4::<0x88>(u[8 + q], u[12 + q]);
        let w2 = _mm512_shuffle_f32x4::<0xDD>(u[8 + q], u[12 + q]);
        r[q] = _mm512_shuffle_f32x4::<0x88>(v, v2);
        r[8 + q] = _mm512_shuffle_f32x4::<0xDD>(v, v2);
        r[4 + q] = _mm512_shuffle_f32x4::<0x88>(w, w2);
        r[12 + q] = _mm512_shuffle_f32x4::<0xDD>(w, w2);
    });
}

/// The 8×8 register transpose of AVX-512 f64 (as [`transpose16_ps`], one unpack round).
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose8_pd(r: &mut [__m512d; 8]) {
    // `t[2i + q]`, 128-bit lane `l`: column `2l + q` of rows `2i, 2i + 1`.
    let mut t = [_mm512_setzero_pd(); 8];
    unroll!(i in [0 1 2 3] {
        t[2 * i] = _mm512_unpacklo_pd(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_pd(r[2 * i], r[2 * i + 1]);
    });
    unroll!(q in [0 1] {
        let v = _mm512_shuffle_f64x2::<0x88>(t[q], t[2 + q]);
        let w = _mm512_shuffle_f64x2::<0xDD>(t[q], t[2 + q]);
        let v2 = _mm512_shuffle_f64x2::<0x88>(t[4 + q], t[6 + q]);
        let w2 = _mm512_shuffle_f64x2::<0xDD>(t[4 + q], t[6 + q]);
        r[q] = _mm512_shuffle_f64x2::<0x88>(v, v2);
        r[4 + q] = _mm512_shuffle_f64x2::<0xDD>(v, v2);
        r[2 + q] = _mm512_shuffle_f64x2::<0x88>(w, w2);
        r[6 + q] = _mm512_shuffle_f64x2::<0xDD>(w, w2);
    });
}

/// One `lanes × lanes` block through registers: `n_src` vectors loaded from
/// `src + v·src_stride` (lanes of `load`; the rest zeros), transposed, and `n_dst` of them
/// stored at `dst + v·dst_stride` (lanes of `store`). What the packers' transposing branches
/// share.
///
/// # Safety
/// Every vector loaded or stored (under its mask) is inside its operand; `n_src`,
/// `n_dst ≤ lanes`; the CPU has `I`'s features.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn transpose_block<T: GemmScalar, I: Transpose<T>>(
    src: *const T,
    src_stride: isize,
    n_src: usize,
    load: I::M,
    dst: *mut T,
    dst_stride: usize,
    n_dst: usize,
    store: I::M,
) {
    let l = I::LANES;
    // SAFETY: the caller's bounds and features.
    unsafe {
        let mut r = I::zeros();
        let rv = r.as_mut();
        unroll!(v in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15] {
            if v < l && v < n_src {
                rv[v] = I::load_masked(src.offset(v as isize * src_stride), load);
            }
        });
        I::transpose(&mut r);
        let rv = r.as_ref();
        unroll!(v in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15] {
            if v < l && v < n_dst {
                I::store_masked(dst.add(v * dst_stride), store, rv[v]);
            }
        });
    }
}

/// The AVX-512 packer with the contract of [`pack`] (at most 4 vectors per panel width):
/// masked vector copies, column by column across the panels, when the block is contiguous
/// along the panel (`s_i = 1`), register transposes of `lanes × lanes` blocks when it is
/// contiguous along k (`s_p = 1`, a column-major B or a row-major A), the generic gather
/// otherwise. Masked-off lanes of a load are zeros, which pads the last panel; masked-off
/// lanes of a store are not written.
///
/// # Safety
/// As [`pack`], with `w ≤ 4·lanes`; the CPU has `I`'s features.
#[inline(always)]
unsafe fn pack_a_avx512<T: GemmScalar, I: Transpose<T>>(
    w: usize,
    dst: *mut T,
    src: *const T,
    s_i: isize,
    s_p: isize,
    len: usize,
    kc: usize,
) {
    let l = I::LANES;
    debug_assert!(w <= 4 * l && l <= 16);
    if s_i != 1 && s_p != 1 {
        // SAFETY: the caller's.
        return unsafe { pack(w, dst, src, s_i, s_p, len, kc) };
    }
    let chunks = w.div_ceil(l);
    if len == 0 {
        return;
    }
    if s_i == 1 {
        // Column by column across the panels: each column of the block is read once, in order
        // (a column-major A with a large `lda` has every column in a page of its own, which a
        // panel at a time would revisit once per panel). The stores' masks (the panel's `w`
        // rows), the loads' of a full panel and of the last one (its `last` rows; the rest
        // zeros, the padding).
        let last = len - (len - 1) / w * w;
        // SAFETY: the CPU has the features (the caller's).
        let (sm, full, edge) = unsafe {
            let (mut sm, mut full, mut edge) = ([I::mask(0); 4], [I::mask(0); 4], [I::mask(0); 4]);
            for ch in 0..chunks {
                sm[ch] = I::mask(w - ch * l);
                full[ch] = I::mask(w.saturating_sub(ch * l));
                edge[ch] = I::mask(last.saturating_sub(ch * l));
            }
            (sm, full, edge)
        };
        let panels = len.div_ceil(w);
        for p in 0..kc {
            // SAFETY: column `p < kc` of the block, rows `< len` (the masks keep the last
            // panel's loads inside them), into row `p` of each panel of `dst` (`w` elements at
            // `(i0 / w)·w·kc + p·w`); the CPU has the features.
            unsafe {
                let sp = src.offset(p as isize * s_p);
                let ahead = sp.wrapping_offset(PF_A_COLUMNS * s_p).cast::<i8>();
                for q in 0..(len * core::mem::size_of::<T>()).div_ceil(64) {
                    _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(q * 64));
                }
                for panel in 0..panels {
                    let i0 = panel * w;
                    let lm = if panel + 1 == panels { &edge } else { &full };
                    let (sp, dp) = (sp.add(i0), dst.add(i0 * kc + p * w));
                    for ch in 0..chunks {
                        I::store_masked(dp.add(ch * l), sm[ch], I::load_masked(sp.add(ch * l), lm[ch]));
                    }
                }
            }
        }
        return;
    }
    let mut i0 = 0;
    while i0 < len {
        let rows = w.min(len - i0);
        // SAFETY: panel `i0 / w` of `dst` (`w·kc` elements) and rows `i0..i0 + rows` of the
        // block; the masks keep every access to rows `< rows`, columns `< kc` of the source
        // and to the panel's `w` columns of `kc` rows in `dst`; the CPU has the features.
        unsafe {
            let d = dst.add(i0 * kc);
            let s = src.offset(i0 as isize * s_i);
            for ch in 0..chunks {
                let ic = ch * l;
                let ni = rows.saturating_sub(ic).min(l);
                let sm = I::mask(w - ic);
                let mut p0 = 0;
                while p0 < kc {
                    let np = (kc - p0).min(l);
                    // Rows `ic..ic + ni`, columns `p0..p0 + np` of the block into rows
                    // `p0..p0 + np` of the panel.
                    let src = s.offset(ic as isize * s_i).add(p0);
                    transpose_block::<T, I>(src, s_i, ni, I::mask(np), d.add(p0 * w + ic), w, np, sm);
                    p0 += l;
                }
            }
        }
        i0 += w;
    }
}

/// The B packer of the AVX-512 kernels: panels of `NR` columns, column `j` of a panel at
/// `j·KCS` (`((KC,NR),NC/NR):((1,KC),NR·KC)` over `(k, j)`), zero columns past the block's
/// edge. A column-major B (`s_p = 1`) is copied with vector loads and stores; a row-major one
/// (`s_j = 1`) transposed in `lanes × lanes` register blocks; others gathered.
///
/// # Safety
/// As [`Kernel::pack_b`] with `kc ≤ KCS`; the CPU has `I`'s features.
#[inline(always)]
unsafe fn pack_b_avx512<T: GemmScalar, I: Transpose<T>, const NR: usize, const KCS: usize>(
    dst: *mut T,
    src: *const T,
    s_j: isize,
    s_p: isize,
    len: usize,
    kc: usize,
) {
    let l = I::LANES;
    debug_assert!(kc <= KCS && l <= 16);
    let mut j0 = 0;
    while j0 < len {
        let cols = NR.min(len - j0);
        // SAFETY: panel `j0 / NR` of `dst` (`NR·KCS` elements, of which columns `< NR`, rows
        // `< kc ≤ KCS` are written) and columns `j0..j0 + cols`, rows `< kc` of the block (the
        // masks keep the loads inside them); the CPU has the features.
        unsafe {
            let d = dst.add(j0 / NR * (NR * KCS));
            let s = src.offset(j0 as isize * s_j);
            if s_p == 1 {
                // Whole vectors with plain loads and stores (AMD's masked stores are
                // microcoded), the column's last partial vector masked.
                for j in 0..NR {
                    let (sj, dj) = (s.offset(j as isize * s_j), d.add(j * KCS));
                    let mut p = 0;
                    while p + l <= kc {
                        let v = if j < cols { I::load(sj.add(p)) } else { I::zero() };
                        I::store(dj.add(p), v);
                        p += l;
                    }
                    if p < kc {
                        let m = I::mask(kc - p);
                        let v = if j < cols { I::load_masked(sj.add(p), m) } else { I::zero() };
                        I::store_masked(dj.add(p), m, v);
                    }
                }
            } else if s_j == 1 {
                let mut jc = 0;
                while jc < NR {
                    let nj = cols.saturating_sub(jc).min(l);
                    let lm = I::mask(nj);
                    let mut p0 = 0;
                    while p0 < kc {
                        let np = (kc - p0).min(l);
                        // Rows `p0..p0 + np`, columns `jc..jc + nj` of the block into columns
                        // `jc..min(jc + lanes, NR)` of the panel (zeros past `nj`).
                        let src = s.offset(p0 as isize * s_p).add(jc);
                        let dst = d.add(jc * KCS + p0);
                        transpose_block::<T, I>(src, s_p, np, lm, dst, KCS, (NR - jc).min(l), I::mask(np));
                        p0 += l;
                    }
                    jc += l;
                }
            } else {
                for j in 0..NR {
                    for p in 0..kc {
                        *d.add(j * KCS + p) =
                            if j < cols { *s.offset(j as isize * s_j + p as isize * s_p) } else { T::ZERO };
                    }
                }
            }
        }
        j0 += NR;
    }
}

mod pack_avx2;
/// The micro-kernels and packers alone, for the bench crate.
pub(super) mod parts;

/// A level's [`Kernel`] and [`Direct`] for one element type: its blocking in the plan, its
/// edge tables (the kernels of fewer rows, shortest first, which a tile of at most that many
/// rows runs at any width; then the kernels by width, narrowest first, the full tile last: a
/// tile runs the first that covers its columns), its direct kernel and packers; with B read in
/// place, the kernels by rows and the half-width ones (`half NR/2 [MR rows, one vector of
/// rows]`, for B whose columns crowd one set of L1d).
macro_rules! kernel {
    ($k:ty, $t:ty, $plan:path, $level:path, rows [$($h:literal => $rm:ident),*], edges [$($w:literal => $micro:ident),*],
     direct $direct:ident, pack $pack:ident
     $(, pack_b $pack_b:ident, micro_b $micro_b:ident [$($hb:literal => $rmb:ident),*],
       half $hh:literal [$micro_b_h:ident, $rmb_h:ident])?) => {
        impl Kernel<$t> for $k {
            const TILES: bool = true;
            const PLAN: GemmBlocking = $plan;
            const LEVEL: Level = $level;
            #[cfg(test)]
            const NARROW: &'static [usize] = {
                const W: &[usize] = &[$($w),*];
                W.split_last().unwrap().1
            };
            #[cfg(test)]
            const NARROW_MR: &'static [usize] = &[$($h),*];

            // SAFETY contract: `Kernel::micro`'s (the packed panels hold `kc` steps; C covers the tile).
            #[inline(always)]
            unsafe fn micro(t: &MicroArgs<$t>) {
                const ROWS: &[(usize, Micro<$t>)] = &[$(($h, $rm)),*];
                const EDGES: &[(usize, Micro<$t>)] = &[$(($w, $micro)),*];
                const { assert!(EDGES[EDGES.len() - 1].0 == $plan.nr) };
                for &(h, f) in ROWS {
                    if t.mr <= h {
                        // SAFETY: the caller's bounds (`mr ≤ h`: the kernel covers the tile's
                        // rows, and every column of the packed panel); the kernels run only
                        // from the entries of their level, which run only when the CPU has
                        // the features.
                        return unsafe { f(t) };
                    }
                }
                for &(w, f) in EDGES {
                    if t.nr <= w {
                        // SAFETY: the caller's bounds (`nr ≤ w`: the kernel covers the tile);
                        // as above.
                        return unsafe { f(t) };
                    }
                }
            }

            $(
            const MICRO_B: bool = true;

            // SAFETY contract: `Kernel::micro_b`'s (B's `kc × NR` block and C's tile are in bounds).
            #[inline(always)]
            unsafe fn micro_b(t: &MicroArgs<$t>) {
                const ROWS: &[(usize, Micro<$t>)] = &[$(($hb, $rmb)),*];
                const { assert!(2 * $hh == <Self as Kernel<$t>>::NR) };
                if t.nr == $hh {
                    // SAFETY: the caller's bounds for a half-width tile (`nr = NR/2`); as below.
                    return unsafe { if t.mr <= <Self as Isa<$t>>::LANES { $rmb_h(t) } else { $micro_b_h(t) } };
                }
                let t = MicroArgs { nr: <Self as Kernel<$t>>::NR, ..*t };
                for &(h, f) in ROWS {
                    if t.mr <= h {
                        // SAFETY: the caller's bounds (`mr ≤ h`); runs only from the entries
                        // of its level.
                        return unsafe { f(&t) };
                    }
                }
                // SAFETY: the caller's bounds; runs only from the entries of its level.
                unsafe { $micro_b(&t) }
            }

            // SAFETY contract: `Kernel::pack_b`'s (the panel's source and destination are in bounds).
            #[inline(always)]
            unsafe fn pack_b(dst: *mut $t, src: *const $t, s_j: isize, s_p: isize, len: usize, kc: usize) {
                // SAFETY: the caller's bounds (`kc ≤ KC`, the driver's blocks); as above.
                unsafe { $pack_b(dst, src, s_j, s_p, len, kc) }
            }
            )?

            // SAFETY contract: `Kernel::pack`'s (the panel's source and destination are in bounds).
            #[inline(always)]
            unsafe fn pack(w: usize, dst: *mut $t, src: *const $t, s_i: isize, s_p: isize, len: usize, kc: usize) {
                // SAFETY: the caller's bounds; runs only from the entries of its level.
                unsafe { $pack(w, dst, src, s_i, s_p, len, kc) }
            }
        }

        impl Direct<$t> for $k {
            const MR: usize = $plan.direct_mr;
            const NR: usize = $plan.direct_nr;

            // SAFETY contract: `Direct::kernel`'s (the operands cover the tile).
            #[inline(always)]
            unsafe fn kernel(t: &MicroArgs<$t>) {
                const { assert!($plan.direct_mr == 2 * <$k as Isa<$t>>::LANES && $plan.direct_nr == 6) };
                // SAFETY: as above.
                unsafe { $direct(t) }
            }
        }
    };
}

// One vector of rows for the edge tiles of at most 16 (f32) or 8 (f64) rows, at full width,
// over packed B panels and over B in place.
kernel!(Avx512, f32, GEMM_AVX512_F32, Level::Avx512, rows [16 => micro_avx512_f32_m1],
    edges [4 => micro_avx512_f32_n4, 8 => micro_avx512_f32_n8, 12 => micro_avx512_f32],
    direct direct_avx512_f32, pack pack_avx512_f32, pack_b pack_b_avx512_f32,
    micro_b micro_b_avx512_f32 [16 => micro_b_avx512_f32_m1], half 6 [micro_b_avx512_f32_h, micro_b_avx512_f32_m1_h]);
kernel!(Avx512, f64, GEMM_AVX512_F64, Level::Avx512, rows [8 => micro_avx512_f64_m1],
    edges [4 => micro_avx512_f64_n4, 8 => micro_avx512_f64_n8, 12 => micro_avx512_f64],
    direct direct_avx512_f64, pack pack_avx512_f64, pack_b pack_b_avx512_f64,
    micro_b micro_b_avx512_f64 [8 => micro_b_avx512_f64_m1], half 6 [micro_b_avx512_f64_h, micro_b_avx512_f64_m1_h]);
// The AVX-512 B panels' column stride is `KC` (the `KC_F32`, `KC_F64` of the micro-kernels, the
// B packers and the fused kernels above).
const _: () = assert!(<Avx512 as Kernel<f32>>::KC == KC_F32 && <Avx512 as Kernel<f64>>::KC == KC_F64);

// AVX2 packs A and B with the same packer (`pack_b` defaults to `pack` with `NR` rows).
kernel!(Avx2, f32, GEMM_AVX2_F32, Level::Avx2, rows [], edges [3 => micro_avx2_f32_n3, 6 => micro_avx2_f32],
    direct direct_avx2_f32, pack pack_avx2_f32);
kernel!(Avx2, f64, GEMM_AVX2_F64, Level::Avx2, rows [], edges [3 => micro_avx2_f64_n3, 6 => micro_avx2_f64],
    direct direct_avx2_f64, pack pack_avx2_f64);
// The AVX2 B panels hold `NR = 6` elements per step of k (the `1, 6` of the micro-kernels).
const _: () = assert!(<Avx2 as Kernel<f32>>::NR == 6 && <Avx2 as Kernel<f64>>::NR == 6);

macro_rules! entry {
    ($name:ident, $task:ident, $feat:expr, $t:ty, $k:ty) => {
        /// # Safety
        /// [`gemm`](super::gemm)'s bounds for a normalized problem with `k ≥ 1`; the CPU has
        /// the level's features.
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $name(p: &Problem<$t>, small: bool) {
            // SAFETY: forwarded from the caller.
            unsafe { if small { direct::<$t, $k>(p) } else { blocked::<$t, $k>(p) } }
        }

        /// # Safety
        /// [`task`](super::grid::task)'s contract with this level's kernel.
        #[cfg(feature = "rayon")]
        #[target_feature(enable = $feat)]
        pub(super) unsafe fn $task(p: &Problem<$t>, g: &super::grid::Shared<$t>, t: usize) {
            // SAFETY: forwarded from the caller.
            unsafe { super::grid::task::<$t, $k>(p, g, t) }
        }
    };
}

entry!(f32_avx512, f32_avx512_task, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f32, Avx512);
entry!(f64_avx512, f64_avx512_task, "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma", f64, Avx512);
entry!(f32_avx2, f32_avx2_task, "avx2,fma", f32, Avx2);
entry!(f64_avx2, f64_avx2_task, "avx2,fma", f64, Avx2);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::driver::assert_agrees;
    use layout_plan::Level as GemmLevel;

    #[test]
    fn kernels_run_the_plans_blocking() {
        fn direct<T, D: Direct<T>>() -> (usize, usize) {
            (D::MR, D::NR)
        }
        assert_agrees::<f32, Avx512>(GemmLevel::Avx512, direct::<f32, Avx512>());
        assert_agrees::<f64, Avx512>(GemmLevel::Avx512, direct::<f64, Avx512>());
        assert_agrees::<f32, Avx2>(GemmLevel::Avx2, direct::<f32, Avx2>());
        assert_agrees::<f64, Avx2>(GemmLevel::Avx2, direct::<f64, Avx2>());
    }

    /// Every tile shape of a level's kernel (its edge tables by rows and by width), and three
    /// full tiles in one call (`tiles = 3`, A's packed panels `MR·kc` apart, C's rows
    /// `MR·c_rs` apart), C with a unit and a non-unit row stride, β zero and not, B packed and
    /// (where the level has it) read in place, whole, in halves and half-width, non-temporal
    /// stores asked for over C aligned to a line and not, against the sum over the same panels;
    /// the elements of C outside the tiles stay as they were.
    fn every_tile<T: GemmScalar + From<f32>, K: Kernel<T>>() {
        let (mr_full, nr_full, kc) = (K::MR, K::NR, 7usize);
        // Three A panels, `MR·kc` elements each: `A(q·MR + r, p) = a[q·MR·kc + p·MR + r]`.
        let a: Vec<T> = (0..3 * mr_full * kc).map(|x| T::from(((x * 7) % 11) as f32 - 5.0)).collect();
        // B column-major, `kc × NR`: `B(p, j) = b[p + j·kc]`.
        let b: Vec<T> = (0..kc * nr_full).map(|x| T::from(((x * 5) % 13) as f32 - 6.0)).collect();
        let mut packed = vec![T::ZERO; K::b_panel(kc)];
        // SAFETY: the CPU has the level's features (the caller checks); the block is the
        // `kc × NR` elements of `b`, the panel `b_panel(kc)` elements.
        unsafe { K::pack_b(packed.as_mut_ptr(), b.as_ptr(), kc as isize, 1, nr_full, kc) };
        let (alpha, sentinel) = (T::from(3.0), T::from(1000.0));
        let shapes = (1..=mr_full).map(|mr| (1, mr)).chain([(3, mr_full)]);
        for (tiles, mr) in shapes {
            // The tiles' rows: `mr` for one tile, `3·MR` for three.
            let rows = (tiles - 1) * mr_full + mr;
            for nr in 1..=nr_full {
                // C's first element on a line and its columns a multiple of 16 elements apart
                // (`line`) or not, `shift` elements past the line; non-temporal stores asked
                // for (`stream`: taken only on aligned columns) or not.
                let cases = [(1usize, false, false, 0usize), (2, false, false, 0), (1, true, true, 0)];
                let cases = cases.into_iter().chain([(1, true, true, 1), (1, true, false, 0)]);
                for (rs, stream, line, shift) in cases {
                    for beta in [T::ZERO, T::from(2.0)] {
                        let cs = if line { (rs * 3 * mr_full + 3).next_multiple_of(16) } else { rs * 3 * mr_full + 3 };
                        let old = |x: usize| T::from((x % 17) as f32);
                        let inside = |x: usize| (x % cs).is_multiple_of(rs) && x % cs / rs < rows && x / cs < nr;
                        let want = |c: &[T], what: &str| {
                            let c = &c[c.as_ptr().align_offset(64) + shift..][..cs * nr_full];
                            for (x, &got) in c.iter().enumerate() {
                                let (i, j) = (x % cs / rs, x / cs);
                                let want = if inside(x) {
                                    let (q, r) = (i / mr_full, i % mr_full);
                                    let mut sum = T::ZERO;
                                    for p in 0..kc {
                                        sum = sum + a[q * mr_full * kc + p * mr_full + r] * b[p + j * kc];
                                    }
                                    alpha * sum + beta * old(x)
                                } else {
                                    old(x) + sentinel
                                };
                                assert!(
                                    got == want,
                                    "{what}: tiles {tiles} mr {mr} nr {nr} rs {rs} beta {beta:?} stream {stream} \
                                     cs {cs} shift {shift}: C[{}, {j}]",
                                    x % cs
                                );
                            }
                        };
                        // C's buffer, its `cs·NR` elements from `shift` past its first line on
                        // (the rest never touched: the sentinel).
                        let fill = || -> Vec<T> {
                            let mut c = vec![sentinel; cs * nr_full + 64];
                            let at = c.as_ptr().align_offset(64) + shift;
                            for (x, e) in c[at..][..cs * nr_full].iter_mut().enumerate() {
                                *e = if inside(x) { old(x) } else { old(x) + sentinel };
                            }
                            c
                        };
                        let start = |c: &mut Vec<T>| {
                            let at = c.as_ptr().align_offset(64) + shift;
                            c[at..].as_mut_ptr()
                        };
                        let mut c = fill();
                        let t = MicroArgs {
                            k: kc,
                            a: a.as_ptr(),
                            a_cs: mr_full as isize,
                            b: packed.as_ptr(),
                            b_rs: 0,
                            b_cs: 0,
                            c: start(&mut c),
                            c_rs: rs as isize,
                            c_cs: cs as isize,
                            mr,
                            nr,
                            alpha,
                            beta,
                            pf: core::ptr::null(),
                            pf_cs: 0,
                            pf_n: 0,
                            pf_b: core::ptr::null(),
                            pf_b_n: 0,
                            tiles,
                            a_tile: (mr_full * kc) as isize,
                            stream,
                        };
                        // SAFETY: the features (the caller's); the A panels hold `MR·kc`
                        // elements each (step `MR`), the B panel `b_panel(kc)`; the tiles'
                        // `rows × nr` elements at `i·rs + j·cs` lie in `c` from `start` on
                        // (`rows·rs < cs`, `cs·NR` elements there), distinct.
                        unsafe { K::micro(&t) };
                        want(&c, "packed B");
                        if K::MICRO_B && nr == nr_full {
                            let mut c = fill();
                            let t = MicroArgs { b: b.as_ptr(), b_rs: 1, b_cs: kc as isize, c: start(&mut c), ..t };
                            // SAFETY: as above; B's `kc × NR` elements at `p + j·kc` lie in `b`.
                            unsafe { K::micro_b(&t) };
                            want(&c, "B in place");
                            let mut c = fill();
                            let t = MicroArgs { c: start(&mut c), ..t };
                            // SAFETY: as above, the panel as two tiles of `NR/2` columns.
                            unsafe { crate::gemm::driver::micro_b_panel::<T, K>(&t, true) };
                            want(&c, "B in place, halves");
                        }
                        if K::MICRO_B && 2 * nr == nr_full {
                            let mut c = fill();
                            let t = MicroArgs { b: b.as_ptr(), b_rs: 1, b_cs: kc as isize, c: start(&mut c), ..t };
                            // SAFETY: as above; B's `kc × NR/2` elements at `p + j·kc` lie in `b`,
                            // the half-width tiles in `c`.
                            unsafe { K::micro_b(&t) };
                            want(&c, "B in place, half width");
                        }
                    }
                }
            }
        }
    }

    /// The AVX-512 A packer against the generic one: blocks contiguous along the panel (column
    /// by column across the panels) and along k (register transposes), several panels with a
    /// short last one, panel widths of half a vector to four vectors (`w ≤ 4·lanes`), and an
    /// empty block.
    fn packs_as_the_generic_packer<T: GemmScalar + From<f32> + core::fmt::Debug>(
        pack_simd: unsafe fn(usize, *mut T, *const T, isize, isize, usize, usize),
    ) {
        for (w, len, kc) in [(32usize, 77usize, 9usize), (16, 16, 5), (16, 3, 20), (24, 100, 3), (32, 0, 4), (8, 17, 1)]
        {
            for column_major in [true, false] {
                let (s_i, s_p) = if column_major { (1, len as isize + 5) } else { (kc as isize + 2, 1) };
                let n = (len as isize * s_i + kc as isize * s_p) as usize + 1;
                let src: Vec<T> = (0..n).map(|x| T::from((x % 1000) as f32)).collect();
                let size = len.next_multiple_of(w) * kc;
                let (mut got, mut want) = (vec![T::from(-1.0); size], vec![T::from(-2.0); size]);
                // SAFETY: the block's `len × kc` elements at `i·s_i + p·s_p` lie in `src`, each
                // destination holds `len.next_multiple_of(w)·kc` elements; the caller runs this
                // only where the CPU has AVX-512.
                unsafe {
                    pack_simd(w, got.as_mut_ptr(), src.as_ptr(), s_i, s_p, len, kc);
                    pack(w, want.as_mut_ptr(), src.as_ptr(), s_i, s_p, len, kc);
                }
                assert_eq!(got, want, "w {w} len {len} kc {kc} column-major {column_major}");
            }
        }
    }

    #[test]
    fn the_avx512_a_packer_agrees_with_the_generic_packer() {
        use crate::kernels::{Level, level};
        if level() == Level::Avx512 {
            packs_as_the_generic_packer::<f32>(pack_avx512_f32);
            packs_as_the_generic_packer::<f64>(pack_avx512_f64);
        }
    }

    #[test]
    fn every_edge_tile_agrees_with_the_sum() {
        use crate::kernels::{Level, level};
        // Each level only where the CPU has it (`level()` never exceeds what was detected).
        if level() == Level::Avx512 {
            every_tile::<f32, Avx512>();
            every_tile::<f64, Avx512>();
        }
        if level() >= Level::Avx2 {
            every_tile::<f32, Avx2>();
            every_tile::<f64, Avx2>();
        }
    }
}
