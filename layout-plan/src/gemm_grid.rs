//! The thread grid of a parallel GEMM: C cut into `tm × tn` blocks, one task each, task
//! `(r, c)` computing rows `r·row_share..` and columns `c·col_share..` of C. Tasks of one row
//! of the grid share the packed A panels of their rows, tasks of one column the packed B
//! panels of their columns (each panel packed once, by the first task that needs it).

use crate::gemm_blocking::{GEMM_PAR_GRAIN_M, GEMM_PAR_GRAIN_N};

/// The weight of one element of A or B a task streams through its caches, in multiply-adds,
/// in [`gemm_grid`]'s cost.
pub const GEMM_PAR_EDGE: usize = 32;

/// The bytes of packed A and B panels a parallel GEMM keeps for one round of steps of k
/// (at least one step: its panels over all of m and n).
pub const GEMM_PAR_ROUND_BYTES: usize = 32 << 20;

/// Tasks per thread of a parallel GEMM with [`GEMM_PAR_BALANCE_MIN_THREADS`] threads or more
/// whose tasks stay at least [`GEMM_PAR_BALANCE_MIN_TASK`] elements of C ([`gemm_tasks`]):
/// the pool's threads take the tasks of a round one at a time as they finish the last, so a
/// thread on a slower core (shared with other work, or clocked lower) takes fewer, and the
/// round does not wait for it.
pub const GEMM_PAR_TASKS_PER_THREAD: usize = 4;

/// The fewest threads for which [`gemm_tasks`] cuts C into more tasks than threads.
pub const GEMM_PAR_BALANCE_MIN_THREADS: usize = 8;

/// The fewest elements of C a task keeps when [`gemm_tasks`] cuts C into more tasks than
/// threads: `256 × 256` (below that, the rows of A and columns of B each task streams per
/// step of k outweigh the balance).
pub const GEMM_PAR_BALANCE_MIN_TASK: usize = 256 * 256;

/// The number of tasks of a parallel GEMM of an `m × n` C on `threads` threads:
/// `threads · GEMM_PAR_TASKS_PER_THREAD` when `threads ≥ GEMM_PAR_BALANCE_MIN_THREADS` and
/// `m·n` holds that many tasks of [`GEMM_PAR_BALANCE_MIN_TASK`] elements, else `threads`.
/// Defined for every input.
pub const fn gemm_tasks(m: usize, n: usize, threads: usize) -> usize {
    let many = threads.saturating_mul(GEMM_PAR_TASKS_PER_THREAD);
    if threads >= GEMM_PAR_BALANCE_MIN_THREADS && m.saturating_mul(n) / many >= GEMM_PAR_BALANCE_MIN_TASK {
        many
    } else {
        threads
    }
}

/// A grid of `tm × tn` tasks over C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmGrid {
    /// Tasks along m (rows of the grid).
    pub tm: usize,
    /// Tasks along n (columns of the grid).
    pub tn: usize,
    /// Rows of C per task (a multiple of [`GEMM_PAR_GRAIN_M`]; the last task's may be fewer).
    pub row_share: usize,
    /// Columns of C per task (a multiple of [`GEMM_PAR_GRAIN_N`]; the last task's may be fewer).
    pub col_share: usize,
}

impl GemmGrid {
    /// The number of tasks, `tm·tn`.
    pub const fn tasks(&self) -> usize {
        self.tm * self.tn
    }
}

/// The grid of an `m × n` C over at most `threads` tasks (the caller's [`gemm_tasks`]): among
/// `tm` in `1..=threads` and `tn = threads / tm`, the one whose largest task has the least cost
/// `R·C + GEMM_PAR_EDGE·(R + C)`, with `R`, `C` its rows and columns (shares rounded up to the
/// grains): `R·C` is the task's multiply-adds per step of k (balance), `R + C` the rows of A
/// and columns of B it streams per step of k (a square block streams the fewest). Shares are
/// then recomputed so that no task is empty; ties go to the smaller `tm`. Defined for every
/// input (`m`, `n` or `threads` zero give the `1 × 1` grid).
pub fn gemm_grid(m: usize, n: usize, threads: usize) -> GemmGrid {
    let (gm, gn) = (m.div_ceil(GEMM_PAR_GRAIN_M).max(1), n.div_ceil(GEMM_PAR_GRAIN_N).max(1));
    let mut best = (usize::MAX, 1, 1);
    for tm in 1..=threads.max(1) {
        let tn = threads.max(1) / tm;
        if tm > gm || tn > gn {
            continue;
        }
        let r = gm.div_ceil(tm).saturating_mul(GEMM_PAR_GRAIN_M);
        let c = gn.div_ceil(tn).saturating_mul(GEMM_PAR_GRAIN_N);
        let cost = r.saturating_mul(c).saturating_add(GEMM_PAR_EDGE.saturating_mul(r.saturating_add(c)));
        if cost < best.0 {
            best = (cost, tm, tn);
        }
    }
    let (_, tm, tn) = best;
    // Shares of whole grains; as many tasks as the shares leave non-empty.
    let row_share = gm.div_ceil(tm) * GEMM_PAR_GRAIN_M;
    let col_share = gn.div_ceil(tn) * GEMM_PAR_GRAIN_N;
    GemmGrid { tm: gm.div_ceil(gm.div_ceil(tm)), tn: gn.div_ceil(gn.div_ceil(tn)), row_share, col_share }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_cover_c_with_non_empty_tasks() {
        let sizes = [1, 5, 12, 31, 32, 33, 96, 257, 513, 1000, 2048, 4096, 100_000];
        for threads in [0, 1, 2, 3, 5, 7, 16, 64] {
            for &m in &sizes {
                for &n in &sizes {
                    let g = gemm_grid(m, n, threads);
                    assert!(g.tasks() >= 1 && g.tasks() <= threads.max(1), "{m}x{n} on {threads}: {g:?}");
                    assert!(
                        g.row_share.is_multiple_of(GEMM_PAR_GRAIN_M) && g.col_share.is_multiple_of(GEMM_PAR_GRAIN_N)
                    );
                    // Every row and column is in some task, and the last task of each is non-empty.
                    assert!(g.tm * g.row_share >= m && (g.tm - 1) * g.row_share < m.max(1), "{m}x{n}: {g:?}");
                    assert!(g.tn * g.col_share >= n && (g.tn - 1) * g.col_share < n.max(1), "{m}x{n}: {g:?}");
                }
            }
        }
    }

    #[test]
    fn large_products_on_many_threads_get_more_tasks_than_threads() {
        assert_eq!(gemm_tasks(2048, 2048, 16), 16 * GEMM_PAR_TASKS_PER_THREAD);
        assert_eq!(gemm_tasks(4096, 4096, 16), 16 * GEMM_PAR_TASKS_PER_THREAD);
        // Tasks would fall below the least size: one per thread.
        assert_eq!(gemm_tasks(1024, 1024, 16), 16);
        assert_eq!(gemm_tasks(96, 3072, 16), 16);
        // Few threads: one task each.
        assert_eq!(gemm_tasks(4096, 4096, 2), 2);
        assert_eq!(gemm_tasks(usize::MAX, usize::MAX, usize::MAX), usize::MAX);
        assert_eq!(gemm_tasks(0, 0, 0), 0);
    }

    #[test]
    fn grids_follow_the_shape() {
        // One thread: one task.
        assert_eq!(gemm_grid(4096, 4096, 1).tasks(), 1);
        // A square C on a square number of threads: a square grid.
        let g = gemm_grid(2048, 2048, 16);
        assert_eq!((g.tm, g.tn), (4, 4), "{g:?}");
        // Few rows: the threads go to n; few columns: to m.
        assert_eq!(gemm_grid(96, 3072, 16).tm, 1);
        assert_eq!(gemm_grid(4096, 16, 16).tn, 1);
        // A wide C gets more columns of tasks than rows, a tall one the other way.
        let (w, t) = (gemm_grid(512, 8192, 16), gemm_grid(8192, 512, 16));
        assert!(w.tn > w.tm && t.tm > t.tn, "{w:?} {t:?}");
    }
}
