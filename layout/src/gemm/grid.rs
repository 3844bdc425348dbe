//! The parallel GEMM: C cut into the plan's grid of tasks ([`layout_plan::gemm_grid`]: task
//! `(r, c)` computes rows `r·row_share..` and columns `c·col_share..` of C), run on rayon's
//! pool in rounds of steps of k. In a round every micro-panel of A and of B the round's steps
//! need is packed once, into one buffer shared by all tasks, by the first task that needs it
//! (a flag per panel: empty, being packed, ready), and read by every other task of its row
//! (A) or column (B) of the grid. A task packs the A panels of a block of its rows that no
//! other task has claimed, waits for the rest, then walks its B panels starting at a panel
//! that depends on its row of the grid (so the tasks of one column pack different panels).
//! When no other task reads a task's B panels (one row of tasks) and A is one block
//! (`m ≤ MC`), each task packs its B panels one at a time into its own scratch instead, right
//! before their micro-kernels, as the one-thread engine does; when no other task reads its A
//! panels (one column of tasks), it packs each A block into its own scratch of one block,
//! which stays in L2.
//! Rounds are separate fork-joins (nothing is overwritten while read; no barrier inside a
//! round): the buffer holds [`GEMM_PAR_ROUND_BYTES`] (at least one step over all of m and n).
//!
//! A task waits only for a panel another task has claimed, and a claimer packs it at once
//! (no user code, no rayon call between the claim and the ready flag), so every wait ends.

use core::sync::atomic::{AtomicU8, Ordering};

use super::GemmScalar;
use super::driver::{ALIGN, Buf, Kernel, MicroArgs, NextA, Problem, Scratch, StreamFence, micro_b_panel};
use layout_plan::gemm_grid::GEMM_PAR_ROUND_BYTES;
use layout_plan::{GemmBlocking, GemmBlocks, GemmGrid};

const EMPTY: u8 = 0;
const PACKING: u8 = 1;
const READY: u8 = 2;

/// The packing buffer of parallel GEMMs, kept between calls (taken by one call at a time; a
/// concurrent call allocates its own).
static POOL: std::sync::Mutex<Buf> = std::sync::Mutex::new(Buf::new());

/// The shared state of one parallel GEMM: its grid, blocking and packed panels.
pub struct Shared<T> {
    /// The tasks over C.
    pub grid: GemmGrid,
    /// The level's blocking on this machine (the caches CPUID reports).
    pub plan: GemmBlocking,
    /// The depth of a step of k (the last step of the problem may be shallower).
    pub kc: usize,
    /// The first step of the current round: `pc = (first + s)·kc` for its steps `s`.
    first: usize,
    /// The steps of the current round.
    steps: usize,
    /// Full A micro-panels are read in place (the plan's `reads_a_in_place`, or, for the
    /// round's shared A panels, its `reads_a_in_place_for_few_columns` for the grid's column
    /// share).
    pub direct_a: bool,
    /// Full B micro-panels are read in place (the plan's `reads_b_in_place`).
    pub direct_b: bool,
    /// Those run as two tiles of `NR/2` columns each (the plan's `b_in_place_halves`).
    pub b_halves: bool,
    /// Each task packs its B micro-panels itself, one at a time into its own scratch, right
    /// before their micro-kernels (read from L1): when no other task reads them (`tm = 1`)
    /// and each is used by one A block per step (the plan's `packs_b_per_panel(m)`).
    pub b_private: bool,
    /// Each task packs its A blocks itself into its own scratch of one block (which stays in
    /// L2), a whole block per call as the one-thread engine does: when no other task reads
    /// them (`tn = 1`).
    pub a_private: bool,
    /// A task's micro-kernels prefetch its next A block into L2 (`a_private`, A packed, the
    /// plan's `prefetches_next_a`), as the one-thread engine's do.
    pub prefetch_a: bool,
    /// The tasks write C past the caches (`β = 0`, the plan's `streams_c`; not when an
    /// epilogue pass reads the tiles back).
    pub stream: bool,
    /// A micro-panels per step (`⌈m / MR⌉`) and the elements of each (`MR·kc`).
    a_panels: usize,
    a_slot: usize,
    /// B micro-panels per step (`⌈n / NR⌉`) and the elements of each (`b_panel(kc)`).
    b_panels: usize,
    b_slot: usize,
    /// The round's packed panels: A panel `(s, q)` at `(s·a_panels + q)·a_slot`, B panel
    /// `(s, q)` at `b_at + (s·b_panels + q)·b_slot`.
    buf: Buf,
    b_at: usize,
    /// A panel `(s, q)`'s state at `s·a_panels + q`, B panel `(s, q)`'s at
    /// `steps·a_panels + s·b_panels + q`.
    flags: Vec<AtomicU8>,
    _elem: core::marker::PhantomData<T>,
}

// SAFETY: the buffer is written only by the task that claimed a panel, before the panel's
// ready flag is stored (release), and read only after the flag is seen (acquire).
unsafe impl<T: Send> Send for Shared<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Shared<T> {}

impl<T: GemmScalar> Shared<T> {
    /// The state of a parallel GEMM of `p` on `grid` with the level blocking `plan` (its
    /// first round not begun: call [`round`](Self::round)).
    pub fn new(p: &Problem<T>, grid: GemmGrid, plan: GemmBlocking) -> Self {
        let direct_b = plan.reads_b_in_place(p.m, p.b_rs, p.b_cs);
        // Steps of all of k when every B panel of every task is read in place, as the
        // one-thread engine.
        let kc = p.blocks(&plan, grid.col_share).kc;
        let (a_panels, b_panels) = (p.m.div_ceil(plan.mr), p.n.div_ceil(plan.nr));
        let (a_slot, b_slot) = (plan.mr * kc, plan.b_panel_stride(kc));
        // Private A blocks are packed whole, as the one-thread engine's, and prefetched
        // (reading A in place for few columns is for the round's shared panels).
        let a_private = grid.tn == 1;
        let direct_a = plan.reads_a_in_place(p.m, p.k, p.a_rs, p.a_cs)
            || (!a_private && plan.reads_a_in_place_for_few_columns(p.m, p.k, p.a_rs, p.a_cs, grid.col_share));
        let e = core::mem::size_of::<T>();
        let b_private = grid.tm == 1 && plan.packs_b_per_panel(p.m);
        let prefetch_a = a_private && !direct_a && plan.prefetches_next_a(p.m, p.k, p.a_rs, p.a_cs);
        let stream = p.streams_c(&plan);
        let (a_step, b_step) = (
            if a_private { 0 } else { (a_panels * a_slot).next_multiple_of(ALIGN) },
            if b_private { 0 } else { b_panels * b_slot },
        );
        // Steps per round: as many as fit the round's bytes, at least one, at most all.
        let steps = (GEMM_PAR_ROUND_BYTES / ((a_step + b_step) * e).max(1)).clamp(1, p.k.div_ceil(kc));
        let mut buf = POOL.try_lock().map(|mut b| core::mem::replace(&mut *b, Buf::new())).unwrap_or(Buf::new());
        buf.reserve((steps * (a_step + b_step) * e).max(1));
        let flags = (0..steps * (a_panels + b_panels)).map(|_| AtomicU8::new(EMPTY)).collect();
        Shared {
            grid,
            plan,
            kc,
            first: 0,
            steps: 0,
            direct_a,
            direct_b,
            b_halves: direct_b && plan.b_in_place_halves(p.b_cs),
            b_private,
            a_private,
            prefetch_a,
            stream,
            a_panels,
            a_slot,
            b_panels,
            b_slot,
            buf,
            b_at: steps * a_step,
            flags,
            _elem: core::marker::PhantomData,
        }
    }

    /// Begins the next round of steps of k of a problem of depth `k`: `false` when every
    /// step is done. Between rounds no task runs (the caller joins them), so the panels of
    /// the last round may be overwritten.
    pub fn round(&mut self, k: usize) -> bool {
        let total = k.div_ceil(self.kc);
        let capacity = self.flags.len() / (self.a_panels + self.b_panels);
        self.first += self.steps;
        if self.first >= total {
            return false;
        }
        self.steps = capacity.min(total - self.first);
        for f in &mut self.flags {
            *f.get_mut() = EMPTY;
        }
        true
    }

    /// The packed A panel `(s, q)`: `a_slot` elements of the buffer (not when `a_private`).
    #[inline(always)]
    fn a_panel(&self, s: usize, q: usize) -> *mut T {
        debug_assert!(!self.a_private);
        // SAFETY: `s < steps`, `q < a_panels`: inside the A part of the buffer (which has
        // `a_panels` slots per step unless `a_private`).
        unsafe { self.buf.ptr.cast::<T>().add((s * self.a_panels + q) * self.a_slot) }
    }

    /// The packed B panel `(s, q)`: `b_slot` elements of the buffer.
    #[inline(always)]
    fn b_panel(&self, s: usize, q: usize) -> *mut T {
        // SAFETY: `s < steps`, `q < b_panels`: inside the B part of the buffer.
        unsafe { self.buf.ptr.cast::<T>().add(self.b_at + (s * self.b_panels + q) * self.b_slot) }
    }

    fn a_flag(&self, s: usize, q: usize) -> &AtomicU8 {
        &self.flags[s * self.a_panels + q]
    }

    fn b_flag(&self, s: usize, q: usize) -> &AtomicU8 {
        &self.flags[self.steps * self.a_panels + s * self.b_panels + q]
    }
}

impl<T> Drop for Shared<T> {
    fn drop(&mut self) {
        let buf = core::mem::replace(&mut self.buf, Buf::new());
        // Keep the larger buffer (a concurrent call may have put one back meanwhile).
        if let Ok(mut pool) = POOL.try_lock()
            && pool.bytes < buf.bytes
        {
            *pool = buf;
        }
    }
}

/// The tasks of `g`'s grid (task indices `0..task_count`).
pub fn task_count<T>(g: &Shared<T>) -> usize {
    g.grid.tasks()
}

/// Claims a panel for packing: `true` when this task must pack it and then [`publish`] it.
#[inline(always)]
fn claim(flag: &AtomicU8) -> bool {
    flag.load(Ordering::Relaxed) == EMPTY
        && flag.compare_exchange(EMPTY, PACKING, Ordering::Acquire, Ordering::Relaxed).is_ok()
}

/// Marks a claimed panel packed.
#[inline(always)]
fn publish(flag: &AtomicU8) {
    flag.store(READY, Ordering::Release);
}

/// Waits until a panel is packed (by the task that claimed it, which is packing it now).
#[inline(always)]
fn wait(flag: &AtomicU8) {
    let mut spins = 0u32;
    while flag.load(Ordering::Acquire) != READY {
        if spins < 256 {
            core::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// Task `t` of the current round of `g` with kernel `K`: its block of C over the round's
/// steps of k, blocked as [`blocked`](super::driver::blocked) (A blocks of at most `MC` rows,
/// B blocks of at most `NC` columns), its panels packed or waited for as the module says.
///
/// # Safety
/// [`gemm`](super::gemm)'s bounds for the normalized problem `p` with `k ≥ 1`, C's offsets
/// distinct; `g` was made for `p` with `K`'s blocking (`K::PLAN` on this machine) and its
/// round begun; the tasks running at once have distinct `t`; the CPU has `K`'s features.
#[inline(always)]
pub unsafe fn task<T: GemmScalar, K: Kernel<T>>(p: &Problem<T>, g: &Shared<T>, t: usize) {
    let (mr, nr) = (K::MR, K::NR);
    debug_assert_eq!(g.plan, K::PLAN.on_this_machine());
    let (r, c) = (t / g.grid.tn, t % g.grid.tn);
    let (i0, j0) = (r * g.grid.row_share, c * g.grid.col_share);
    if r >= g.grid.tm || i0 >= p.m || j0 >= p.n {
        return;
    }
    let (rows, cols) = (g.grid.row_share.min(p.m - i0), g.grid.col_share.min(p.n - j0));
    let GemmBlocks { mc: mc_max, nc: nc_max, .. } = g.plan.blocks(rows, cols, p.k);
    // This task's own scratch: one A block of `mc_max` rows (`a_private`), then one B panel
    // (`b_private`).
    let a_len = if g.a_private { (mc_max.div_ceil(mr) * g.a_slot).next_multiple_of(ALIGN) } else { 0 };
    let b_len = if g.b_private { g.b_slot } else { 0 };
    let own = (a_len + b_len > 0).then(|| Scratch::take((a_len + b_len) * core::mem::size_of::<T>()));
    // The `sfence` after this task's streamed stores of C, on return or unwind.
    let fence = StreamFence(g.stream);
    let own_a = own.as_ref().map_or(core::ptr::null_mut(), |s| s.0.ptr.cast::<T>());
    // SAFETY: `a_len` elements into a scratch of `a_len + b_len` (or a null pointer, unused,
    // offset by 0).
    let own_b = unsafe { own_a.add(a_len) };
    let mut jc = 0;
    while jc < cols {
        let nc = nc_max.min(cols - jc);
        let panels = nc.div_ceil(nr);
        // The first B panel this task walks: the tasks of one column of the grid start apart.
        let rot = panels * r / g.grid.tm;
        for s in 0..g.steps {
            let pc = (g.first + s) * g.kc;
            let kc = g.kc.min(p.k - pc);
            let beta = if pc == 0 { p.beta } else { T::ONE };
            let last = pc + kc == p.k;
            // The last step's tiles with the epilogue in their micro-kernels (as the one-thread
            // engine), else the epilogue per block.
            let fused = last && p.c_rs == 1 && p.ep.as_ref().is_some_and(|e| e.fuses());
            let mut ic = 0;
            while ic < rows {
                let mc = mc_max.min(rows - ic);
                // The block's A panels (`i0`, `ic` are multiples of MR): pack this task's own
                // or the unclaimed ones, then wait for the others. A full panel is read in
                // place when A is.
                let (q0, q1) = ((i0 + ic) / mr, (i0 + ic + mc).div_ceil(mr));
                // Where panel `q` of the block is packed: this task's scratch, one after
                // another (`a_private`), else the round's shared slot.
                let a_panel = |q: usize| {
                    if g.a_private {
                        // SAFETY: panel `q - q0 < mc_max.div_ceil(mr)` of `own_a`, which holds
                        // that many slots of `a_slot = MR·g.kc ≥ MR·kc` elements.
                        unsafe { own_a.add((q - q0) * mr * kc) }
                    } else {
                        g.a_panel(s, q)
                    }
                };
                if g.a_private && !g.direct_a {
                    // The whole block at once, column by column across its panels (the
                    // packer's layout: panel `q - q0` at `(q - q0)·MR·kc`).
                    // SAFETY: rows `i0+ic..i0+ic+mc`, columns `pc..pc+kc` of A (in bounds),
                    // into this task's scratch of `mc.div_ceil(mr)` panels of `MR·kc`.
                    unsafe {
                        let a = p.a.offset((i0 + ic) as isize * p.a_rs + pc as isize * p.a_cs);
                        K::pack(mr, own_a, a, p.a_rs, p.a_cs, mc, kc);
                    }
                } else {
                    // The panels this task claims, in runs of consecutive ones packed by one
                    // call column by column (when the slots are the packer's layout: a
                    // step of full depth), each published once packed: first those of its
                    // share of the block (the `c`-th of `tn`, so the tasks of one row of the
                    // grid, arriving together, pack the block together), then any other
                    // still unclaimed (of tasks not arrived yet). Private panels (`tn = 1`) are
                    // all this task's share.
                    let packs = |q: usize| !(g.direct_a && mr <= p.m - q * mr);
                    let share = (q1 - q0).div_ceil(g.grid.tn);
                    let own = (q0 + c * share).min(q1);
                    // (The second pass, over the whole block, only for shared panels.)
                    let rest_end = if g.a_private { q0 } else { q1 };
                    for (mut q, end) in [(own, (own + share).min(q1)), (q0, rest_end)] {
                        while q < end {
                            if !(packs(q) && (g.a_private || claim(g.a_flag(s, q)))) {
                                q += 1;
                                continue;
                            }
                            let mut e = q + 1;
                            if kc == g.kc {
                                while e < end && packs(e) && (g.a_private || claim(g.a_flag(s, e))) {
                                    e += 1;
                                }
                            }
                            let len = (e * mr).min(p.m) - q * mr;
                            // SAFETY: rows `q·mr..q·mr+len`, columns `pc..pc+kc` of A (in bounds);
                            // panels `q..e` hold `a_slot = MR·g.kc ≥ MR·kc` elements each, one
                            // after another (`e = q + 1` unless `kc = g.kc`: the packer's panel
                            // stride `MR·kc`), this task's own or claimed by it (no other writer
                            // or reader until published).
                            unsafe {
                                let a = p.a.offset((q * mr) as isize * p.a_rs + pc as isize * p.a_cs);
                                K::pack(mr, a_panel(q), a, p.a_rs, p.a_cs, len, kc);
                            }
                            if !g.a_private {
                                for x in q..e {
                                    publish(g.a_flag(s, x));
                                }
                            }
                            q = e;
                        }
                    }
                }
                if !g.a_private {
                    for q in q0..q1 {
                        if !(g.direct_a && mr <= p.m - q * mr) {
                            wait(g.a_flag(s, q));
                        }
                    }
                }
                // The task's next A block (this step's next rows, else the next step's
                // first rows), prefetched by this block's first calls.
                let next = if !g.prefetch_a {
                    NextA::NONE
                } else if ic + mc < rows {
                    let at = p.a.wrapping_offset((i0 + ic + mc) as isize + pc as isize * p.a_cs);
                    NextA::new(at, mc_max.min(rows - ic - mc), mc.div_ceil(mr))
                } else if s + 1 < g.steps {
                    let at = p.a.wrapping_offset(i0 as isize + (pc + g.kc) as isize * p.a_cs);
                    NextA::new(at, mc_max.min(rows), mc.div_ceil(mr))
                } else {
                    NextA::NONE
                };
                let mut call = 0;
                for x in 0..panels {
                    let jr = (x + rot) % panels * nr;
                    let nrr = nr.min(nc - jr);
                    let j = j0 + jc + jr;
                    let in_place = g.direct_b && K::MICRO_B && nrr == nr;
                    // SAFETY: rows `pc..pc+kc`, columns `j..j+nrr` of B (in bounds).
                    let b = unsafe { p.b.offset(pc as isize * p.b_rs + j as isize * p.b_cs) };
                    let bp = if in_place {
                        b
                    } else if g.b_private {
                        // SAFETY: `own_b` holds `b_slot ≥ b_panel(kc)` elements of this task's
                        // scratch, `kc ≤ KC` (deeper steps only where every panel is full and
                        // read in place: `MICRO_B` is the plan's column-ordered panels); B's
                        // block is in bounds.
                        unsafe { K::pack_b(own_b, b, p.b_cs, p.b_rs, nrr, kc) };
                        own_b.cast_const()
                    } else {
                        // `j` is a multiple of NR (`j0`, `jc`, `jr` are).
                        let (q, flag) = (j / nr, g.b_flag(s, j / nr));
                        if claim(flag) {
                            // SAFETY: the panel holds `b_slot = b_panel(g.kc) ≥ b_panel(kc)`
                            // elements (`kc ≤ KC`, as above), claimed by this task; B's block is
                            // in bounds.
                            unsafe { K::pack_b(g.b_panel(s, q), b, p.b_cs, p.b_rs, nrr, kc) };
                            publish(flag);
                        } else {
                            wait(flag);
                        }
                        g.b_panel(s, q).cast_const()
                    };
                    // The next B panel this task walks, when it is packed in the round's
                    // buffer and ready (packed for an earlier A block, or by another task):
                    // prefetched into L2 by this panel's first tiles, as the one-thread
                    // engine's.
                    let next_panel = if g.b_private || x + 1 >= panels {
                        None
                    } else {
                        let jn = (x + 1 + rot) % panels * nr;
                        let qn = (j0 + jc + jn) / nr;
                        let in_place_n = g.direct_b && K::MICRO_B && nr.min(nc - jn) == nr;
                        (!in_place_n && g.b_flag(s, qn).load(Ordering::Relaxed) == READY).then(|| g.b_panel(s, qn))
                    };
                    let mut ir = 0;
                    while ir < mc {
                        let mrr = mr.min(mc - ir);
                        let i = i0 + ic + ir;
                        // SAFETY: A's rows `i..i+tiles·mr` in place (full panels, `direct_a`)
                        // or its packed panels from `i / mr` on, `a_tile` apart (packed above,
                        // or ready: waited for above); B's panel in place (full,
                        // column-major) or packed (ready); the tiles' `tiles·mrr × nrr`
                        // elements of C are in bounds and in this task's block (no other task
                        // writes them); the features are the caller's; the fused kernel runs
                        // full tiles (`MR × NR`) with `c_rs = 1` (`fused`) only, at `K`'s
                        // level, within the engine call of its epilogue.
                        unsafe {
                            let cp = p.c.offset(i as isize * p.c_rs + j as isize * p.c_cs);
                            let (a, a_cs) = if g.direct_a && mr <= p.m - i {
                                (p.a.offset(i as isize * p.a_rs + pc as isize * p.a_cs), p.a_cs)
                            } else {
                                (a_panel(i / mr).cast_const(), mr as isize)
                            };
                            let (b_rs, b_cs, c_rs, c_cs) = (p.b_rs, p.b_cs, p.c_rs, p.c_cs);
                            // The full tiles of this row of the block from A's same source (in
                            // place, or packed panels `a_tile` apart) in one call, as the
                            // one-thread engine: not while calls prefetch the next A block,
                            // nor for an edge tile. (Rows `i..i + tiles·mr` are in the block, so
                            // in A: each of these tiles reads A in place if the first does.)
                            let (pf, pf_n) = next.call(call);
                            let (pf_b, pf_b_n) = match next_panel {
                                Some(at) => super::driver::next_b(at, K::b_panel(kc), ir / mr, kc),
                                None => (core::ptr::null(), 0),
                            };
                            let group = K::TILES && pf_n == 0 && (!fused || nrr == nr);
                            let tiles = if group && mrr == mr { (mc - ir) / mr } else { 1 };
                            let a_tile = if g.direct_a && mr <= p.m - i {
                                mr as isize * p.a_rs
                            } else if g.a_private {
                                (mr * kc) as isize
                            } else {
                                g.a_slot as isize
                            };
                            call += tiles;
                            let t = MicroArgs {
                                k: kc,
                                a,
                                a_cs,
                                b: bp,
                                b_rs,
                                b_cs,
                                c: cp,
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
                                tiles,
                                a_tile,
                                stream: g.stream,
                            };
                            // Full tiles with the epilogue fused into their stores, else the
                            // plain kernel (and the epilogue on the tiles after it).
                            let done = fused
                                && mrr == mr
                                && nrr == nr
                                && p.ep.as_ref().is_some_and(|e| e.micro(&t, in_place, i, j, K::LEVEL));
                            if !done {
                                // (Not past the caches when the epilogue reads the tiles next.)
                                let t = MicroArgs { stream: g.stream && !fused, ..t };
                                if in_place {
                                    micro_b_panel::<T, K>(&t, g.b_halves);
                                } else {
                                    K::micro(&t);
                                }
                                if fused {
                                    p.epilogue(cp, i, j, tiles * mrr, nrr);
                                }
                            }
                            ir += (tiles - 1) * mr;
                        }
                        ir += mr;
                    }
                    if last && !fused {
                        // SAFETY: rows `i0+ic..i0+ic+mc`, columns `j..j+nrr` of C: this
                        // task's, just written.
                        unsafe {
                            let cp = p.c.offset((i0 + ic) as isize * p.c_rs + j as isize * p.c_cs);
                            p.epilogue(cp, i0 + ic, j, mc, nrr);
                        }
                    }
                }
                ic += mc;
            }
        }
        jc += nc;
    }
    drop(own);
    drop(fence);
}
