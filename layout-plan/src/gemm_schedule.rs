//! How a planned GEMM runs: the kernel call the `layout!` item makes (one leaf of each of M, N
//! and K, loops over the others), the regime of that call (the static straight-line kernel,
//! the engine's direct loop, or the blocked engine with packing), and for the blocked engine
//! the blocking of every dispatch level at this problem's sizes: micro-kernel shape, cache
//! blocks, packing layouts, loop order and edge handling. All of it comes from
//! [`crate::gemm_blocking`], the constants the facade's engine runs with.

use std::fmt;

use crate::gemm::{GemmLeaf, GemmPlan};
use crate::gemm_blocking::{
    BPanelOrder, CacheSizes, GEMM_PAR_GRAIN_M, GEMM_PAR_GRAIN_N, GEMM_PAR_MIN, GemmBlocking, GemmBlocks, GemmElem,
    Packer, gemm_blocking, gemm_direct, gemm_transposes,
};
use crate::gemm_grid::{
    GEMM_PAR_BALANCE_MIN_TASK, GEMM_PAR_BALANCE_MIN_THREADS, GEMM_PAR_EDGE, GEMM_PAR_TASKS_PER_THREAD,
};
use crate::level::Level;
use layout_core::Layout;
use layout_core::Result;

/// The largest extent of each of M, N and K of a kernel call that the straight-line static
/// kernel takes (every extent and stride a constant, no packing).
pub const GEMM_STATIC_MAX: i64 = 32;

/// Which code runs a kernel call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmRegime {
    /// The straight-line kernel of the facade's `small_gemm`, instantiated with constants.
    Static,
    /// The engine's direct loop: A and B read in place, register tiles, no packing.
    Direct,
    /// The engine's blocked loop nest with packing.
    Blocked,
}

/// One dispatch level's blocking at a problem's sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSchedule {
    /// The level's blocking (register tile, cache-block maxima, packers).
    pub blocking: GemmBlocking,
    /// The cache blocks at this problem's sizes.
    pub blocks: GemmBlocks,
    /// The most columns of a B block at this problem's rows
    /// ([`GemmBlocking::nc_for_rows`]).
    pub nc_max: usize,
    /// The packed A block `blocks.mc × blocks.kc` over `(i, p)`.
    pub a_panel: Layout,
    /// The packed B block `blocks.nc × blocks.kc` over `(j, p)`.
    pub b_panel: Layout,
    /// B is packed one micro-panel at a time inside the jr loop (`m ≤ MC`).
    pub b_per_panel: bool,
    /// The full B micro-panels are read in place, not packed
    /// ([`GemmBlocking::reads_b_in_place`]: a column-major B, `m ≤ MC`).
    pub b_in_place: bool,
    /// The depth of a step of k over B's full micro-panels read in place
    /// ([`GemmBlocking::blocks_b_in_place`]; `blocks.kc` when B is not read in place).
    pub b_in_place_kc: usize,
    /// The full A micro-panels are read in place, not packed
    /// ([`GemmBlocking::reads_a_in_place`]: a small column-major A).
    pub a_in_place: bool,
    /// The caches the blocks are for.
    pub caches: CacheSizes,
    /// The caches are the ones CPUID reported (the level's blocks recomputed from them with
    /// [`GemmBlocking::for_caches`]), not the constants' design caches.
    pub from_cpuid: bool,
}

/// The schedule of a planned GEMM with element type `elem`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmSchedule {
    /// The element type.
    pub elem: GemmElem,
    /// The extent of the leaves of M the kernel call takes.
    pub m: i64,
    /// The extent of the leaves of N the kernel call takes.
    pub n: i64,
    /// The extent of the leaves of K the kernel call takes.
    pub k: i64,
    /// Kernel calls per item call (the product of the other leaves and the batch).
    pub calls: i64,
    /// Which path runs the kernel call (static kernel, direct loop or blocked engine).
    pub regime: GemmRegime,
    /// The engine computes `Cᵀ = Bᵀ·Aᵀ` (C contiguous along n); its m and n are then N and M.
    pub transposed: bool,
    /// Large enough to run on rayon's pool (engine, feature `rayon`, more than one thread).
    pub parallel: bool,
    /// Every dispatch level, fastest first (empty unless the regime is blocked).
    pub levels: Vec<LevelSchedule>,
}

/// The schedule of `plan` for `elem` with the constant blocks (machine-independent). Defined
/// for every plan; an error only when a block's packing layout overflows.
pub fn gemm_schedule(plan: &GemmPlan, elem: GemmElem) -> Result<GemmSchedule> {
    gemm_schedule_for(plan, elem, None)
}

/// The schedule of `plan` for `elem` as the engine runs it on a machine with `caches` (the
/// AVX2 and AVX-512 levels' blocks from [`GemmBlocking::for_caches`], as the engine computes them from
/// [`detected_caches`](crate::gemm_blocking::detected_caches)); `None`: the constant blocks.
pub fn gemm_schedule_for(plan: &GemmPlan, elem: GemmElem, caches: Option<CacheSizes>) -> Result<GemmSchedule> {
    let (m, m_rest) = GemmPlan::split(&plan.m_leaves);
    let (n, n_rest) = GemmPlan::split(&plan.n_leaves);
    let (k, k_rest) = GemmPlan::split(&plan.k_leaves);
    let mut calls: i64 = 1;
    for l in plan.batch_leaves.iter().chain(&m_rest).chain(&n_rest).chain(&k_rest) {
        calls = layout_core::checked::mul(calls, l.extent)?;
    }
    let transposed = transposes(&m, &n);
    let (em, en) = if transposed { (n.extent, m.extent) } else { (m.extent, n.extent) };
    // The engine's B (Aᵀ when it transposes) and A (Bᵀ): their strides after the
    // normalization, which flips B's columns and A's rows with C's negative strides.
    let isize_of = |s: i64| s.clamp(isize::MIN as i64, isize::MAX as i64) as isize;
    let flipped = |s: i64, c: &GemmLeaf| isize_of(if c.c < 0 && c.extent > 1 { -s } else { s });
    let (b_rs, b_cs) = if transposed { (isize_of(k.a), flipped(m.a, &m)) } else { (isize_of(k.b), flipped(n.b, &n)) };
    let (a_rs, a_cs) = if transposed { (flipped(n.b, &n), isize_of(k.b)) } else { (flipped(m.a, &m), isize_of(k.a)) };
    let (um, un, uk) = (em as usize, en as usize, k.extent as usize);
    let regime = if m.extent <= GEMM_STATIC_MAX && n.extent <= GEMM_STATIC_MAX && k.extent <= GEMM_STATIC_MAX {
        GemmRegime::Static
    } else if gemm_direct(um, un, uk) {
        GemmRegime::Direct
    } else {
        GemmRegime::Blocked
    };
    let parallel = regime == GemmRegime::Blocked && um.saturating_mul(un).saturating_mul(uk) >= GEMM_PAR_MIN;
    let mut levels = Vec::new();
    if regime == GemmRegime::Blocked {
        for level in [Level::Avx512, Level::Avx2, Level::Portable] {
            let constant = gemm_blocking(level, elem);
            let (blocking, caches, from_cpuid) = match caches {
                Some(c) if level != Level::Portable => (constant.for_caches(c), c, true),
                _ => (constant, constant.design_caches(), false),
            };
            let blocks = blocking.blocks(um, un, uk);
            let nc_max = blocking.nc_for_rows(um, blocks.kc);
            let a_panel = blocking.a_panel(blocks.mc, blocks.kc)?;
            let b_panel = blocking.b_panel(blocks.nc, blocks.kc)?;
            let b_per_panel = blocking.packs_b_per_panel(um);
            let b_in_place = blocking.reads_b_in_place(um, b_rs, b_cs);
            let a_in_place = blocking.reads_a_in_place(um, uk, a_rs, a_cs);
            let b_in_place_kc = if b_in_place { blocking.blocks_b_in_place(um, un, uk).kc } else { blocks.kc };
            levels.push(LevelSchedule {
                blocking,
                blocks,
                nc_max,
                a_panel,
                b_panel,
                b_per_panel,
                b_in_place,
                b_in_place_kc,
                a_in_place,
                caches,
                from_cpuid,
            });
        }
    }
    Ok(GemmSchedule { elem, m: m.extent, n: n.extent, k: k.extent, calls, regime, transposed, parallel, levels })
}

/// Whether the engine transposes the kernel call: C's strides after the engine's
/// normalization (negative strides flipped, an extent-1 mode's stride read as 1).
fn transposes(m: &GemmLeaf, n: &GemmLeaf) -> bool {
    let norm = |l: &GemmLeaf| if l.extent <= 1 { 1 } else { l.c.unsigned_abs().min(isize::MAX as u64) as isize };
    gemm_transposes(norm(m), norm(n))
}

fn kib(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

impl fmt::Display for LevelSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.blocking;
        let x = &self.blocks;
        let e = b.elem.bytes();
        writeln!(
            f,
            "level {} {}: micro-kernel {}x{} ({} vectors of {} x {} broadcasts = {} accumulators, {} loads per {} \
             multiply-adds)",
            b.level,
            b.elem,
            b.mr,
            b.nr,
            b.mr / b.lanes,
            b.lanes,
            b.nr,
            b.accumulators(),
            b.loads_per_step(),
            b.accumulators()
        )?;
        writeln!(
            f,
            "  blocks: KC = {} (max {}), MC = {} (max {}), NC = {} (max {}); B micro-panel {} in L1d ({}), \
             A block {} in L2 ({}), {}",
            x.kc,
            b.kc,
            x.mc,
            b.mc,
            x.nc,
            self.nc_max,
            kib(b.b_panel_stride(x.kc) * e),
            kib(self.caches.l1d),
            kib(x.mc * x.kc * e),
            kib(self.caches.l2),
            if self.b_in_place {
                "B read in place".to_string()
            } else if self.b_per_panel {
                "B packed one micro-panel at a time".to_string()
            } else {
                format!("B block {}", kib(x.nc.div_ceil(b.nr) * b.b_panel_stride(x.kc) * e))
            }
        )?;
        if self.from_cpuid {
            writeln!(
                f,
                "  caches (CPUID): L1d {}, L2 {}; {} computed from them",
                kib(self.caches.l1d),
                kib(self.caches.l2),
                if b.level == Level::Avx512 { "MC" } else { "KC and MC" }
            )?;
        } else if b.level != Level::Portable {
            writeln!(f, "  caches: {} (the {} reference caches the constant blocks are for)", self.caches, b.level)?;
        }
        writeln!(f, "  A panel (i,p) -> {}", self.a_panel)?;
        writeln!(f, "  B panel (j,p) -> {}", self.b_panel)?;
        let packer = match b.packer {
            Packer::Simd => "SIMD: masked vector copies along the panel, register transposes across it, else a gather",
            Packer::Transposes => {
                "vector copies along the panel, register transposes across it (a group of 6 stored by 128- and \
                 64-bit stores, other groups narrower than a vector by masked stores), else a gather"
            }
            Packer::Scalar => "scalar loops: copies along the panel, 16-column blocked transposes across it",
        };
        let order = match b.b_order {
            BPanelOrder::Rows => "NR elements per step of k",
            BPanelOrder::Columns => "columns of fixed stride KC",
        };
        writeln!(f, "  packing: {packer}; B panels are {order}; edge panels zero-padded")?;
        if self.b_in_place {
            writeln!(
                f,
                "  B in place: B is column-major and m <= MC = {}: the micro-kernels read its full micro-panels \
                 where they are (column stride ldb for KC), no packing pass, in steps of k {} deep (all of k, at \
                 most {}); an edge panel of fewer than {} columns runs apart, packed, in steps of KC",
                b.mc,
                self.b_in_place_kc,
                crate::gemm_blocking::GEMM_DEEP_KC,
                b.nr
            )?;
        }
        if self.a_in_place {
            writeln!(
                f,
                "  A in place: A is column-major and spans at most {}: the micro-kernels read its full \
                 micro-panels where they are (column stride lda for MR), no packing pass; an edge panel of \
                 fewer than {} rows is packed",
                kib(crate::gemm_blocking::GEMM_A_IN_PLACE_BYTES),
                b.mr
            )?;
        }
        if self.b_per_panel {
            writeln!(
                f,
                "  order: m <= MC = {}, one A block: A {} once per KC step, then each B micro-panel {} inside \
                 jr, right before its micro-kernels (read from L1)",
                b.mc,
                if self.a_in_place { "read in place (an edge panel packed)" } else { "packed" },
                if self.b_in_place { "read in place (an edge panel packed)" } else { "packed" }
            )?;
        }
        let rows = if b.level == Level::Portable {
            format!("a full {}x{} tile on zero-padded panels, stores of the rows and columns in C", b.mr, b.nr)
        } else {
            format!("rows past mr < {} masked in the stores", b.mr)
        };
        let rows = if b.narrow_mr.is_empty() {
            rows
        } else {
            let list = b.narrow_mr.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            format!("{rows}; tiles of at most {list} rows run the kernels of that many rows")
        };
        let cols = if b.narrow_nr.is_empty() {
            String::new()
        } else {
            let list = b.narrow_nr.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            format!("; tiles of fewer columns run the kernels of {list} columns")
        };
        write!(f, "  edges: {rows}{cols}")
    }
}

impl fmt::Display for GemmSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let call = format!("{}x{}x{} (M x N x K)", self.m, self.n, self.k);
        let times = if self.calls == 1 { String::new() } else { format!(", {} calls", self.calls) };
        match self.regime {
            GemmRegime::Static => {
                return write!(
                    f,
                    "kernel call {call}{times}: static, the straight-line kernel (every extent and stride a constant; \
                     M, N, K <= {GEMM_STATIC_MAX}), no packing, one cached dispatch level"
                );
            }
            GemmRegime::Direct => {
                write!(
                    f,
                    "kernel call {call}{times}: the engine's direct loop (m, n, k <= 64): A and B read \
                     in place, register tiles, no packing"
                )?;
            }
            GemmRegime::Blocked => {
                writeln!(f, "kernel call {call}{times}: the engine's blocked loop nest with packing")?;
                if self.parallel {
                    writeln!(
                        f,
                        "threads: m·n·k >= 2^21: C is cut into a grid of tm x tn tasks over rayon's pool (gemm_grid: \
                         for T tasks, the tm x (T/tm) grid whose largest task has the least R·C + {GEMM_PAR_EDGE}·(R + C), \
                         R rows in multiples of {GEMM_PAR_GRAIN_M}, C columns in multiples of {GEMM_PAR_GRAIN_N}; gemm_tasks: T is \
                         the threads, or {GEMM_PAR_TASKS_PER_THREAD}x the threads on {GEMM_PAR_BALANCE_MIN_THREADS} threads or more \
                         when each task keeps {GEMM_PAR_BALANCE_MIN_TASK} elements of C); in rounds of steps of k, \
                         the threads taking the round's tasks one at a time, each A and B micro-panel packed once, by \
                         the first task that needs it, and shared by the tasks of its row (A) or column (B) of the grid; \
                         each task blocked as below on its block of C"
                    )?;
                } else {
                    writeln!(f, "threads: one (m·n·k < 2^21)")?;
                }
                write!(
                    f,
                    "loop order: jc += NC (B block) > pc += KC (pack B; beta on the first step only) > ic += MC (pack \
                     A) > jr += NR > ir += MR > micro-kernel: kc rank-1 updates of an MR x NR register tile"
                )?;
            }
        }
        if self.transposed {
            write!(f, "\nC is contiguous along N: the engine computes C^T = B^T·A^T (its m is N, its n is M)")?;
        }
        for l in &self.levels {
            write!(f, "\n{l}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gemm::gemm_plan;
    use layout_core::parse_layout;

    fn schedule(a: &str, b: &str, c: &str, elem: GemmElem) -> GemmSchedule {
        let l = |s: &str| parse_layout(s).unwrap();
        gemm_schedule(&gemm_plan(&l(a), &l(b), &l(c)).unwrap(), elem).unwrap()
    }

    #[test]
    fn large_square_is_blocked_and_parallel() {
        let s = schedule("(1024,1024):(1,1024)", "(1024,1024):(1024,1)", "(1024,1024):(1,1024)", GemmElem::F32);
        assert_eq!((s.regime, s.parallel, s.transposed, s.calls), (GemmRegime::Blocked, true, false, 1));
        assert_eq!(s.levels.len(), 3);
        let avx512 = &s.levels[0];
        assert_eq!(avx512.blocking, crate::gemm_blocking::GEMM_AVX512_F32);
        assert_eq!(avx512.blocks, GemmBlocks { mc: 512, nc: 1032, kc: 342 });
        assert_eq!(avx512.a_panel.to_string(), "((32,16),342):((1,10944),32)");
        assert_eq!(avx512.b_panel.to_string(), "((12,86),342):((384,4608),1)");
        assert!(!avx512.b_per_panel, "m = 1024 > MC = 512: B packed a block at a time");
        assert_eq!(s.levels[1].a_panel.to_string(), "((16,8),512):((1,8192),16)");
        let text = s.to_string();
        assert!(text.contains("micro-kernel 32x12 (2 vectors of 16 x 12 broadcasts = 24 accumulators"), "{text}");
        assert!(text.contains("loop order: jc += NC"), "{text}");
        assert!(text.contains("tiles of fewer columns run the kernels of 4, 8 columns"), "{text}");
    }

    #[test]
    fn a_column_major_b_is_read_in_place_at_the_column_panel_levels() {
        // m = 256 ≤ MC (AVX-512 f64 MC = 256), B(N,K) column-major along k: the AVX-512
        // micro-kernels read it in place; AVX2's panels are row-ordered and are packed.
        let s = schedule("(256,256):(1,256)", "(256,256):(256,1)", "(256,256):(1,256)", GemmElem::F64);
        assert_eq!(s.levels.iter().map(|l| l.b_in_place).collect::<Vec<_>>(), [true, false, false]);
        assert!(s.to_string().contains("B in place: B is column-major and m <= MC = 256"), "{s}");
        assert!(s.to_string().contains("each B micro-panel read in place (an edge panel packed) inside jr"), "{s}");
        // Steps of all of k over B in place (k = 5000: two of 2500), of KC where B is packed.
        let s = schedule("(16,5000):(1,16)", "(4096,5000):(5000,1)", "(16,4096):(1,16)", GemmElem::F64);
        assert_eq!(s.levels.iter().map(|l| l.b_in_place_kc).collect::<Vec<_>>()[..2], [2500, s.levels[1].blocks.kc]);
        assert!(s.to_string().contains("in steps of k 2500 deep (all of k, at most 4096)"), "{s}");
        // B contiguous along n (row-major as K×N): packed.
        let s = schedule("(256,256):(1,256)", "(256,256):(1,256)", "(256,256):(1,256)", GemmElem::F64);
        assert!(!s.levels[0].b_in_place, "{s}");
        // m = 1024 > MC = 512 (f32): each packed micro-panel serves two A blocks; packed.
        let s = schedule("(1024,1024):(1,1024)", "(1024,1024):(1024,1)", "(1024,1024):(1,1024)", GemmElem::F32);
        assert!(!s.levels[0].b_in_place, "{s}");
        // A row-major C: the engine's B is Aᵀ, in place when A is contiguous along k.
        let s = schedule("(300,300):(300,1)", "(300,300):(1,300)", "(300,300):(300,1)", GemmElem::F32);
        assert!(s.transposed && s.levels[0].b_in_place, "{s}");
    }

    #[test]
    fn a_small_column_major_a_is_read_in_place_at_the_avx512_level() {
        // A (256,256):(1,256) spans 256 KiB as f32 and 512 KiB as f64 (the limit): in place at
        // the AVX-512 level only.
        for elem in [GemmElem::F32, GemmElem::F64] {
            let s = schedule("(256,256):(1,256)", "(256,256):(256,1)", "(256,256):(1,256)", elem);
            assert_eq!(s.levels.iter().map(|l| l.a_in_place).collect::<Vec<_>>(), [true, false, false], "{s}");
            assert!(s.to_string().contains("A in place: A is column-major and spans at most 512 KiB"), "{s}");
            assert!(
                s.to_string().contains("one A block: A read in place (an edge panel packed) once per KC step"),
                "{s}"
            );
        }
        // A padded by one column of f64: 255·257 + 256 elements, 8 bytes past the limit.
        let s = schedule("(256,256):(1,257)", "(256,256):(256,1)", "(256,256):(1,256)", GemmElem::F64);
        assert!(!s.levels[0].a_in_place, "{s}");
        // 512×512 f32 (1 MiB) and a row-major A: packed.
        let s = schedule("(512,512):(1,512)", "(512,512):(512,1)", "(512,512):(1,512)", GemmElem::F32);
        assert!(!s.levels[0].a_in_place && !s.to_string().contains("A in place"), "{s}");
        let s = schedule("(256,256):(256,1)", "(256,256):(256,1)", "(256,256):(1,256)", GemmElem::F32);
        assert!(!s.levels[0].a_in_place, "{s}");
        // A row-major C: the engine's A is Bᵀ, in place when B(N,K) is contiguous along n.
        let s = schedule("(300,300):(300,1)", "(300,300):(1,300)", "(300,300):(300,1)", GemmElem::F32);
        assert!(s.transposed && s.levels[0].a_in_place, "{s}");
    }

    #[test]
    fn regimes_follow_the_sizes() {
        let s = schedule("(32,32):(1,32)", "(32,32):(32,1)", "(32,32):(1,32)", GemmElem::F64);
        assert_eq!((s.regime, s.levels.len()), (GemmRegime::Static, 0));
        let s = schedule("(40,16):(1,40)", "(40,16):(16,1)", "(40,40):(1,40)", GemmElem::F64);
        assert_eq!((s.regime, s.levels.len()), (GemmRegime::Direct, 0));
        let s = schedule("(100,64):(1,100)", "(50,64):(64,1)", "(100,50):(1,100)", GemmElem::F64);
        assert_eq!((s.regime, s.parallel), (GemmRegime::Blocked, false));
        assert_eq!(s.levels[0].blocks, GemmBlocks { mc: 112, nc: 60, kc: 64 });
        // m = 100 is one A block where MC ≥ 100 (every level's f64 MC is at least 128).
        assert_eq!(s.levels.iter().map(|l| l.b_per_panel).collect::<Vec<_>>(), [true, true, true]);
        // The AVX2 level's blocks follow the caches the schedule is for.
        let plan = gemm_plan(
            &parse_layout("(1000,1000):(1,1000)").unwrap(),
            &parse_layout("(1000,1000):(1000,1)").unwrap(),
            &parse_layout("(1000,1000):(1,1000)").unwrap(),
        )
        .unwrap();
        let big = CacheSizes { l1d: 48 << 10, l1d_ways: 12, l2: 2 << 20, l3: 105 << 20 };
        let s = gemm_schedule_for(&plan, GemmElem::F64, Some(big)).unwrap();
        assert_eq!((s.levels[1].blocking.kc, s.levels[1].from_cpuid), (384, true));
        assert_eq!(s.levels[0].blocking, crate::gemm_blocking::GEMM_AVX512_F64);
        assert!(s.to_string().contains("caches (CPUID): L1d 48 KiB, L2 2 MiB"), "{s}");
        // The AVX-512 level's MC follows L2 (its KC is the kernels' panel stride).
        let half = CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2: 1 << 20, l3: 0 };
        let s = gemm_schedule_for(&plan, GemmElem::F64, Some(half)).unwrap();
        let x = s.levels[0].blocking;
        assert_eq!((x.kc, x.mc, s.levels[0].from_cpuid), (256, 128, true));
        assert!(s.to_string().contains("L2 1 MiB; MC computed from them"), "{s}");
    }

    #[test]
    fn row_major_c_is_transposed_and_batches_are_calls() {
        let s = schedule("(300,8):(8,1)", "(40,8):(1,40)", "(300,40):(40,1)", GemmElem::F32);
        assert!(s.transposed);
        // The engine's m is N = 40 and its n is M = 300.
        assert_eq!(s.levels[0].blocks, GemmBlocks { mc: 64, nc: 300, kc: 8 });
        let s = schedule("(64,64,3):(1,64,4096)", "(64,64,3):(64,1,4096)", "(64,64,3):(1,64,4096)", GemmElem::F32);
        assert_eq!((s.calls, s.regime), (3, GemmRegime::Direct));
        let s = schedule("(64,80,3):(1,64,5120)", "(64,80,3):(80,1,5120)", "(64,64,3):(1,64,4096)", GemmElem::F32);
        assert_eq!((s.calls, s.regime), (3, GemmRegime::Blocked));
    }
}
