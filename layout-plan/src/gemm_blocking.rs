//! The blocking of the run-time GEMM engine, per dispatch level and element type: the
//! register tile `MR×NR` of the micro-kernel, the cache blocks `KC`, `MC`, `NC`, the packing
//! layouts of the A and B panels, the edge kernels and the thresholds between the direct,
//! blocked and parallel regimes. The facade's engine (`cute_layout::gemm`) instantiates its
//! kernels with these constants and calls [`GemmBlocking::blocks`], [`gemm_direct`] and
//! [`gemm_transposes`]; `layout explain 'gemm(...)'` shows the same data.
//!
//! The constant blocks of each level are derived from a reference cache configuration
//! ([`GemmBlocking::design_caches`]): those of the AVX-512 levels from
//! [`AVX512_REFERENCE_CACHES`] (48 KiB L1d, 2 MiB L2), those of the AVX2 and portable
//! levels from [`AVX2_REFERENCE_CACHES`] (32 KiB L1d, 512 KiB L2, 32 MiB L3). In each, the B
//! micro-panel `KC×NR` stays in L1 while the A micro-panels stream through it, the A block
//! `MC×KC` stays in L2, and the B block `KC×NC` is left to L3. At run time the engine recomputes the
//! AVX2 and AVX-512 blocks from the caches the CPU reports ([`detected_caches`], CPUID leaf
//! `0x8000_001D` or 4, read once) with [`GemmBlocking::for_caches`]; the constants are its
//! result for the level's reference caches and the fallback when CPUID says nothing.

use std::fmt;

use crate::level::Level;
use layout_core::Layout;
use layout_core::checked;
use layout_core::{LayoutError, Result};

/// The element type of a GEMM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmElem {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl GemmElem {
    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        match self {
            GemmElem::F32 => 4,
            GemmElem::F64 => 8,
        }
    }
}

impl fmt::Display for GemmElem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GemmElem::F32 => "f32",
            GemmElem::F64 => "f64",
        })
    }
}

/// How the packed B panel of a level is laid out over its coordinates `(j, p)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BPanelOrder {
    /// `NR` elements per step of k: `((NR,NC/NR),KC):((1,NR·KC),NR)`, like the A panel.
    Rows,
    /// One column of the panel per j, of fixed stride `KC` (the kernel's broadcasts have
    /// immediate offsets; a column-major B packs by vector copies):
    /// `((NR,NC/NR),KC):((KC,NR·KC),1)`.
    Columns,
}

/// How a level packs its panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Packer {
    /// Masked vector copies when the source is contiguous along the panel, register
    /// transposes (16×16 f32, 8×8 f64) when it is contiguous the other way, a gather otherwise.
    Simd,
    /// Vector copies when the source is contiguous along the panel (step of k outermost),
    /// 8×8 (f32) / 4×4 (f64) register transposes when it is contiguous along k (a group
    /// narrower than a vector, B's `NR = 6`, with 128- and 64-bit stores: AMD's masked stores
    /// are microcoded), a gather otherwise.
    Transposes,
    /// Scalar loops the compiler vectorizes where it can: copies when the source is
    /// contiguous along the panel, 16-column blocked transposes when it is contiguous along k.
    Scalar,
}

/// The blocking of one level and element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmBlocking {
    /// The dispatch level this blocking is for.
    pub level: Level,
    /// The element type this blocking is for.
    pub elem: GemmElem,
    /// Elements per vector register.
    pub lanes: usize,
    /// Rows of the register tile (a multiple of `lanes`).
    pub mr: usize,
    /// Columns of the register tile.
    pub nr: usize,
    /// Largest depth of a packed panel.
    pub kc: usize,
    /// Largest number of rows of a packed A block (a multiple of `mr`).
    pub mc: usize,
    /// Largest number of columns of a packed B block (a multiple of `nr`).
    pub nc: usize,
    /// The narrower kernels an edge tile of fewer columns runs, narrowest first (each takes
    /// the tiles of at most that many columns); wider edge tiles run the full kernel.
    pub narrow_nr: &'static [usize],
    /// The shorter kernels an edge tile of fewer rows runs (each takes the tiles of at most
    /// that many rows, at any width; one vector of rows: no multiply-adds on the padding of a
    /// half-empty tile); taller edge tiles run the full kernel with masked stores.
    pub narrow_mr: &'static [usize],
    /// The order of the elements inside a packed B micro-panel.
    pub b_order: BPanelOrder,
    /// How the panels are packed at this level.
    pub packer: Packer,
    /// Rows of the register tile of the direct (unpacked) kernel of small problems.
    pub direct_mr: usize,
    /// Columns of the register tile of the direct kernel.
    pub direct_nr: usize,
    /// L1d's ways and the bytes of one way (addresses that far apart share a set), of the
    /// caches the blocks are for; 0 when unknown.
    pub l1d_ways: usize,
    /// See [`l1d_ways`](Self::l1d_ways).
    pub l1d_way: usize,
    /// The L3 cache the core shares, in bytes, of the caches the blocks are for (0 when
    /// unknown or none): a C larger than it is written past the caches
    /// ([`streams_c`](Self::streams_c)).
    pub l3: usize,
}

/// The data caches of one core, in bytes (L3: the whole cache the core shares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheSizes {
    /// The L1 data cache.
    pub l1d: usize,
    /// The L1 data cache's ways (0 when unknown): addresses `l1d / l1d_ways` bytes apart
    /// fall into one set.
    pub l1d_ways: usize,
    /// The L2 cache.
    pub l2: usize,
    /// The L3 cache (0 when there is none).
    pub l3: usize,
}

/// The reference cache configuration the constant AVX2 and portable blocks are derived from
/// (32 KiB 8-way L1d, 512 KiB L2, 32 MiB L3): [`GemmBlocking::for_caches`] of it is the AVX2
/// constant.
pub const AVX2_REFERENCE_CACHES: CacheSizes = CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2: 512 << 10, l3: 32 << 20 };

/// The reference cache configuration the constant AVX-512 blocks are derived from (48 KiB
/// 12-way L1d, 2 MiB L2, 105 MiB L3).
pub const AVX512_REFERENCE_CACHES: CacheSizes = CacheSizes { l1d: 48 << 10, l1d_ways: 12, l2: 2 << 20, l3: 105 << 20 };

impl fmt::Display for CacheSizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kib = |b: usize| {
            if b >= 1 << 20 && b.is_multiple_of(1 << 20) {
                format!("{} MiB", b >> 20)
            } else {
                format!("{} KiB", b >> 10)
            }
        };
        write!(f, "L1d {}, L2 {}, L3 {}", kib(self.l1d), kib(self.l2), kib(self.l3))
    }
}

/// The caches of the core this runs on, from CPUID (AMD leaf `0x8000_001D` when the CPU has
/// topology extensions, Intel leaf 4), read once; `None` off x86_64, on other vendors, or when
/// the leaves report no L1 data or L2 cache.
pub fn detected_caches() -> Option<CacheSizes> {
    static CACHES: std::sync::OnceLock<Option<CacheSizes>> = std::sync::OnceLock::new();
    *CACHES.get_or_init(cpuid_caches)
}

#[cfg(target_arch = "x86_64")]
fn cpuid_caches() -> Option<CacheSizes> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    let v = __cpuid(0);
    let vendor: Vec<u8> = [v.ebx, v.edx, v.ecx].iter().flat_map(|x| x.to_le_bytes()).collect();
    let leaf = match &vendor[..] {
        b"AuthenticAMD" | b"HygonGenuine" => {
            // Topology extensions (CPUID 0x8000_0001 ECX bit 22) give leaf 0x8000_001D.
            if __cpuid(0x8000_0000).eax < 0x8000_001D || __cpuid(0x8000_0001).ecx & (1 << 22) == 0 {
                return None;
            }
            0x8000_001D
        }
        b"GenuineIntel" if v.eax >= 4 => 4,
        _ => return None,
    };
    let mut c = CacheSizes { l1d: 0, l1d_ways: 0, l2: 0, l3: 0 };
    for sub in 0..16 {
        let r = __cpuid_count(leaf, sub);
        let kind = r.eax & 0x1F;
        if kind == 0 {
            break;
        }
        // 1 data, 2 instruction, 3 unified.
        if kind == 2 {
            continue;
        }
        let ways = ((r.ebx >> 22) & 0x3FF) as usize + 1;
        let parts = ((r.ebx >> 12) & 0x3FF) as usize + 1;
        let line = (r.ebx & 0xFFF) as usize + 1;
        let sets = r.ecx as usize + 1;
        let bytes = ways * parts * line * sets;
        match (r.eax >> 5) & 7 {
            1 => (c.l1d, c.l1d_ways) = (bytes, ways),
            2 => c.l2 = bytes,
            3 => c.l3 = bytes,
            _ => {}
        }
    }
    (c.l1d > 0 && c.l2 > 0).then_some(c)
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_caches() -> Option<CacheSizes> {
    None
}

/// The share of L1d the AVX2 B micro-panel `KC×NR` takes (numerator / 64).
pub const AVX2_KC_L1_64THS: usize = 24;
/// The share of L2 the AVX2 A block `MC×KC` takes (numerator / 64).
pub const AVX2_MC_L2_64THS: usize = 32;

/// AVX-512 f32: 2 zmm of A × 12 broadcasts of B = 24 accumulators, 14 loads per 24 FMAs;
/// the B micro-panel `KC×NR` 18 KiB of a 48 KiB L1d, the A block `MC×KC` 768 KiB, 3/8 of a
/// 2 MiB L2, the B block `KC×NC` at most the L2 (2034 KiB).
pub const GEMM_AVX512_F32: GemmBlocking = GemmBlocking {
    level: Level::Avx512,
    elem: GemmElem::F32,
    lanes: 16,
    mr: 32,
    nr: 12,
    kc: 384,
    mc: 512,
    nc: 1356,
    narrow_nr: &[4, 8],
    narrow_mr: &[16],
    b_order: BPanelOrder::Columns,
    packer: Packer::Simd,
    direct_mr: 32,
    direct_nr: 6,
    l1d_ways: 12,
    l1d_way: 4096,
    l3: 105 << 20,
};

/// AVX-512 f64: 2 zmm of A × 12 broadcasts = 24 accumulators; the B micro-panel 24 KiB of a
/// 48 KiB L1d, the A block 512 KiB, a quarter of a 2 MiB L2, the B block at most the L2
/// (2040 KiB).
pub const GEMM_AVX512_F64: GemmBlocking = GemmBlocking {
    level: Level::Avx512,
    elem: GemmElem::F64,
    lanes: 8,
    mr: 16,
    nr: 12,
    kc: 256,
    mc: 256,
    nc: 1020,
    narrow_nr: &[4, 8],
    narrow_mr: &[8],
    b_order: BPanelOrder::Columns,
    packer: Packer::Simd,
    direct_mr: 16,
    direct_nr: 6,
    l1d_ways: 12,
    l1d_way: 4096,
    l3: 105 << 20,
};

/// AVX2 f32: 2 ymm of A × 6 broadcasts = 12 accumulators (of 16 registers); the blocks of
/// [`AVX2_REFERENCE_CACHES`] (B micro-panel 12 KiB of 32 KiB L1d, A block 256 KiB of
/// 512 KiB L2).
pub const GEMM_AVX2_F32: GemmBlocking = GemmBlocking {
    level: Level::Avx2,
    elem: GemmElem::F32,
    lanes: 8,
    mr: 16,
    nr: 6,
    kc: 512,
    mc: 128,
    nc: 4080,
    narrow_nr: &[3],
    narrow_mr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Transposes,
    direct_mr: 16,
    direct_nr: 6,
    l1d_ways: 8,
    l1d_way: 4096,
    l3: 32 << 20,
};

/// AVX2 f64: 2 ymm of A × 6 broadcasts = 12 accumulators; the blocks of
/// [`AVX2_REFERENCE_CACHES`] (B micro-panel 12 KiB, A block 256 KiB).
pub const GEMM_AVX2_F64: GemmBlocking = GemmBlocking {
    level: Level::Avx2,
    elem: GemmElem::F64,
    lanes: 4,
    mr: 8,
    nr: 6,
    kc: 256,
    mc: 128,
    nc: 4080,
    narrow_nr: &[3],
    narrow_mr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Transposes,
    direct_mr: 8,
    direct_nr: 6,
    l1d_ways: 8,
    l1d_way: 4096,
    l3: 32 << 20,
};

/// Portable f32: an 8×4 tile of SSE2 vectors (no FMA).
pub const GEMM_PORTABLE_F32: GemmBlocking = GemmBlocking {
    level: Level::Portable,
    elem: GemmElem::F32,
    lanes: 4,
    mr: 8,
    nr: 4,
    kc: 256,
    mc: 128,
    nc: 4096,
    narrow_nr: &[],
    narrow_mr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Scalar,
    direct_mr: 16,
    direct_nr: 4,
    l1d_ways: 8,
    l1d_way: 4096,
    l3: 0,
};

/// Portable f64: a 4×4 tile of SSE2 vectors (no FMA).
pub const GEMM_PORTABLE_F64: GemmBlocking = GemmBlocking {
    level: Level::Portable,
    elem: GemmElem::F64,
    lanes: 2,
    mr: 4,
    nr: 4,
    kc: 256,
    mc: 128,
    nc: 4096,
    narrow_nr: &[],
    narrow_mr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Scalar,
    direct_mr: 8,
    direct_nr: 4,
    l1d_ways: 8,
    l1d_way: 4096,
    l3: 0,
};

/// Every level's blocking, fastest level first.
pub const GEMM_BLOCKINGS: [GemmBlocking; 6] =
    [GEMM_AVX512_F32, GEMM_AVX512_F64, GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_PORTABLE_F32, GEMM_PORTABLE_F64];

/// The blocking of a level and element type.
pub const fn gemm_blocking(level: Level, elem: GemmElem) -> GemmBlocking {
    match (level, elem) {
        (Level::Avx512, GemmElem::F32) => GEMM_AVX512_F32,
        (Level::Avx512, GemmElem::F64) => GEMM_AVX512_F64,
        (Level::Avx2, GemmElem::F32) => GEMM_AVX2_F32,
        (Level::Avx2, GemmElem::F64) => GEMM_AVX2_F64,
        (Level::Portable, GemmElem::F32) => GEMM_PORTABLE_F32,
        (Level::Portable, GemmElem::F64) => GEMM_PORTABLE_F64,
    }
}

/// The largest extent of k the direct (unpacked) regime takes.
pub const GEMM_DIRECT_K: usize = 64;
/// The largest extent of m and of n the direct regime takes.
pub const GEMM_DIRECT_MN: usize = 64;
/// The widest B block (`NC`) the AVX-512 blocking takes from a large L2
/// ([`GemmBlocking::for_caches`]).
pub const GEMM_NC_MAX: usize = 4080;
/// The most multiply-adds `m·n·k` the direct regime takes: all of 64³ (at these sizes
/// packing the operands costs more than it saves).
pub const GEMM_DIRECT_MNK: usize = 64 * 64 * 64;
/// The largest span of a column-major A in bytes that the AVX-512 level reads in place
/// ([`GemmBlocking::reads_a_in_place`]): an A that stays in L2 (half of a 1 MiB L2, a
/// quarter of the AVX-512 reference's 2 MiB).
pub const GEMM_A_IN_PLACE_BYTES: usize = 512 << 10;
/// The column strides in bytes that [`GemmBlocking::reads_a_in_place`] refuses: multiples of
/// this. L1's sets repeat every 4 KiB (64 sets of 64-byte lines) and L2's sets in multiples
/// of it, so columns a multiple of 4 KiB apart fall into a fraction of the sets, which a C
/// with the same leading dimension streams through: A is evicted there and read from
/// further out at each use, while a packed A spreads over every set.
pub const GEMM_A_ALIAS_BYTES: usize = 4 << 10;
/// The most B micro-panels a task of the parallel engine may have for it to read A in place
/// whatever A's span and stride ([`GemmBlocking::reads_a_in_place_for_few_columns`]).
pub const GEMM_A_FEW_B_PANELS: usize = 8;
/// The most rows an A block of a shallow problem takes, as a multiple of the level's `MC`
/// ([`GemmBlocking::mc_for_depth`]): 8 (at most 8 KiB of each column of C per B
/// micro-panel at `MC` = 256 f32 or 128 f64 rows).
pub const GEMM_MC_DEPTH_SCALE: usize = 8;
/// The deepest step of k over a B read in place ([`GemmBlocking::blocks_b_in_place`]).
pub const GEMM_DEEP_KC: usize = 4096;
/// The bytes of a cache line: C's tiles store whole lines when its columns start on one
/// ([`GemmBlocking::c_line_peel`]).
pub const GEMM_LINE_BYTES: usize = 64;
/// The deepest product (k) for which [`GemmBlocking::c_line_peel`] runs the rows before C's
/// first line apart: deeper, the stores of C weigh less than the rows run apart cost.
pub const GEMM_PEEL_MAX_K: usize = 64;
/// The fewest rows of C, as a multiple of the level's `MR`, for which
/// [`GemmBlocking::c_line_peel`] runs the rows before C's first line apart.
pub const GEMM_PEEL_MIN_TILES: usize = 8;
/// The fewest multiply-adds `m·n·k` that run on more than one thread (feature `rayon`).
pub const GEMM_PAR_MIN: usize = 1 << 21;
/// Thread shares of m are multiples of this (of every level's MR), so that only the last
/// share has an edge tile.
pub const GEMM_PAR_GRAIN_M: usize = 32;
/// Thread shares of n are multiples of this (of every level's NR), not of a grain common to
/// m and n (96), which would cut n = 512 on two threads into shares of 288 and 224 columns.
pub const GEMM_PAR_GRAIN_N: usize = 12;

/// Whether a normalized `m×n×k` problem runs the direct regime: A and B read in place by a
/// register-tiled kernel, no packing. Defined for every size; true iff
/// `m·n·k ≤ 64³` and `m, n ≤ 64`, `k ≤ 64`.
#[inline]
pub const fn gemm_direct(m: usize, n: usize, k: usize) -> bool {
    m <= GEMM_DIRECT_MN
        && n <= GEMM_DIRECT_MN
        && k <= GEMM_DIRECT_K
        && m.saturating_mul(n).saturating_mul(k) <= GEMM_DIRECT_MNK
}

/// Whether the engine computes `Cᵀ = Bᵀ·Aᵀ` for a C of row stride `rs` and column stride
/// `cs` (after negative strides are flipped; an extent-1 mode's stride reads as 1): when C
/// is not contiguous along m but is along n, or its column stride is the smaller. So the
/// micro-kernel always stores columns of C as vectors. Defined for every input.
#[inline]
pub const fn gemm_transposes(rs: isize, cs: isize) -> bool {
    rs != 1 && (cs == 1 || cs < rs)
}

/// The cache blocks of one problem (each at most the level's maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmBlocks {
    /// Rows of the packed A block.
    pub mc: usize,
    /// Columns of the packed B block.
    pub nc: usize,
    /// Depth of the packed panels.
    pub kc: usize,
}

impl GemmBlocking {
    /// The blocking with its cache blocks computed from `caches`. AVX2: `KC` so that the B
    /// micro-panel takes [`AVX2_KC_L1_64THS`]/64 of L1d (a multiple of 16, 64 to 1024), `MC`
    /// so that the A block takes [`AVX2_MC_L2_64THS`]/64 of L2 (a multiple of `MR`, at most
    /// 4096). AVX-512: `KC` stays the constant's (the kernels' B panels have the column
    /// stride `KC` built in), `MC` is the constant's scaled by L2 against
    /// [`AVX512_REFERENCE_CACHES`] (the A block keeps its share of L2; a multiple of `MR`,
    /// at most 4096), and `NC` so that the B block `KC×NC` takes at most the L2 (a multiple
    /// of `NR`, at most [`GEMM_NC_MAX`]): the B panels each A micro-panel walks are then read
    /// from L2 rather than L3. AVX2 keeps the constant's `NC` (the B block is left to L3).
    /// Both take L1d's ways and the size of one way from `caches`
    /// ([`l1d_ways`](Self::l1d_ways)); the portable level is returned as it is. For the level's
    /// [`design_caches`](Self::design_caches) the result is the constant. Defined for every
    /// input (tiny caches give the smallest blocks).
    pub const fn for_caches(&self, caches: CacheSizes) -> GemmBlocking {
        let (l1d_ways, l1d_way) = match caches.l1d_ways {
            0 => (0, 0),
            w => (w, caches.l1d / w),
        };
        let this = if matches!(self.level, Level::Portable) {
            *self
        } else {
            GemmBlocking { l1d_ways, l1d_way, l3: caches.l3, ..*self }
        };
        let this = &this;
        match self.level {
            Level::Avx2 => {
                let e = self.elem.bytes();
                let kc = clamp_down(caches.l1d / 64 * AVX2_KC_L1_64THS / (self.nr * e), 16, 64, 1024);
                let mc = clamp_down(caches.l2 / 64 * AVX2_MC_L2_64THS / (kc * e), self.mr, self.mr, 4096);
                GemmBlocking { kc, mc, ..*this }
            }
            Level::Avx512 => {
                let l2_kib = caches.l2 >> 10;
                let mc = clamp_down(
                    self.mc.saturating_mul(l2_kib) / (AVX512_REFERENCE_CACHES.l2 >> 10),
                    self.mr,
                    self.mr,
                    4096,
                );
                // The columns of `KC` elements L2 holds (none when `KC` is 0: the constant's).
                let nc = match caches.l2.checked_div(self.kc.saturating_mul(self.elem.bytes())) {
                    Some(columns) => clamp_down(columns, self.nr, self.nr, GEMM_NC_MAX),
                    None => self.nc,
                };
                GemmBlocking { mc, nc, ..*this }
            }
            Level::Portable => *self,
        }
    }

    /// The caches the constant blocks of this level are for: [`AVX512_REFERENCE_CACHES`] for
    /// AVX-512, [`AVX2_REFERENCE_CACHES`] otherwise.
    pub const fn design_caches(&self) -> CacheSizes {
        match self.level {
            Level::Avx512 => AVX512_REFERENCE_CACHES,
            _ => AVX2_REFERENCE_CACHES,
        }
    }

    /// This level's blocking on this machine: [`for_caches`](Self::for_caches) of the
    /// [`detected_caches`], or the constant when CPUID reports none (computed once per call
    /// of [`detected_caches`]'s cached value; cheap).
    pub fn on_this_machine(&self) -> GemmBlocking {
        match detected_caches() {
            Some(c) => self.for_caches(c),
            None => *self,
        }
    }

    /// The accumulators of the register tile: `MR/lanes · NR` vector registers.
    pub const fn accumulators(&self) -> usize {
        self.mr / self.lanes * self.nr
    }

    /// Loads per step of k: `MR/lanes` vectors of A and `NR` broadcasts of B (for
    /// `accumulators()` FMAs).
    pub const fn loads_per_step(&self) -> usize {
        self.mr / self.lanes + self.nr
    }

    /// The cache blocks of an `m×n×k` problem: each dimension is cut into the fewest blocks
    /// of at most the maximum, of equal size rounded up to the tile
    /// (`⌈len / ⌈len / max⌉⌉` rounded up to `MR`, `NR`, 1), so the last block is not a thin
    /// rest. Defined for every size (a zero extent gives a zero block).
    /// The row block is [`mc_for_depth`](Self::mc_for_depth) of the depth block, the column
    /// block [`nc_for_rows`](Self::nc_for_rows) of `m` and the depth block.
    #[inline]
    pub const fn blocks(&self, m: usize, n: usize, k: usize) -> GemmBlocks {
        let kc = even(k, self.kc, 1);
        GemmBlocks { mc: even(m, self.mc_for_depth(kc), self.mr), nc: even(n, self.nc_for_rows(m, kc), self.nr), kc }
    }

    /// The most columns of a B block for `m` rows of A and steps of k `kc` deep: `NC`, which
    /// keeps a B block that every A block walks in the cache it is sized for, or, when the
    /// rows make one A block (`m ≤` [`mc_for_depth`](Self::mc_for_depth)`(kc)`: each B block
    /// is walked once), the larger [`GEMM_NC_MAX`], so that A is not packed again for each B
    /// block. Defined for every input.
    #[inline]
    pub const fn nc_for_rows(&self, m: usize, kc: usize) -> usize {
        if m <= self.mc_for_depth(kc) && self.nc < GEMM_NC_MAX { GEMM_NC_MAX } else { self.nc }
    }

    /// The cache blocks of an `m×n×k` problem whose full B micro-panels are read in place
    /// ([`reads_b_in_place`](Self::reads_b_in_place)) and whose `n` is a multiple of `NR` (no
    /// edge panel, which would be packed at most `KC` deep): [`blocks`](Self::blocks) with
    /// steps of all of k, or of equal depth at most [`GEMM_DEEP_KC`]. Each column of B is then
    /// read in runs of a whole step instead of pieces of `KC` (each a new stream for the
    /// hardware prefetchers), C's tiles are loaded and stored once per step, and the A panels
    /// of a step (`MR × kc`) stream in order. Defined for every size.
    #[inline]
    pub const fn blocks_b_in_place(&self, m: usize, n: usize, k: usize) -> GemmBlocks {
        let kc = even(k, if self.kc > GEMM_DEEP_KC { self.kc } else { GEMM_DEEP_KC }, 1);
        GemmBlocks { mc: even(m, self.mc_for_depth(kc), self.mr), nc: even(n, self.nc_for_rows(m, kc), self.nr), kc }
    }

    /// The most rows of an A block for steps of k `kc` deep: `MC`, or for a step shallower than
    /// `KC` as many rows as keep the block's `MC·KC` elements, rounded down to `MR`, at most
    /// [`GEMM_MC_DEPTH_SCALE`]·`MC`. A shallow product (small k) then walks longer runs down
    /// each column of C per B micro-panel and loads each B micro-panel for more A panels.
    /// Defined for every input; at least `MC`.
    #[inline]
    pub const fn mc_for_depth(&self, kc: usize) -> usize {
        if kc == 0 || kc >= self.kc {
            return self.mc;
        }
        let rows = self.mc.saturating_mul(self.kc) / kc;
        let cap = self.mc.saturating_mul(GEMM_MC_DEPTH_SCALE);
        let rows = if rows < cap { rows } else { cap };
        let rows = rows / self.mr * self.mr;
        if rows < self.mc { self.mc } else { rows }
    }

    /// Whether a product with `β = 0` writes its full tiles of C with non-temporal stores
    /// (past the caches, without reading the lines first): at the SIMD levels, when it is one
    /// step of k (`k ≤ KC`: each element of C is written once and not read back) and C's
    /// `m·n` elements are larger than L3 (known), so they would go to memory anyway.
    /// Defined for every input.
    #[inline]
    pub const fn streams_c(&self, m: usize, n: usize, k: usize) -> bool {
        !matches!(self.level, Level::Portable)
            && self.l3 != 0
            && k <= self.kc
            && m.saturating_mul(n).saturating_mul(self.elem.bytes()) > self.l3
    }

    /// The rows of a normalized problem's C to run apart, first, so that the tiles of the
    /// other rows start on a cache line ([`GEMM_LINE_BYTES`]) and store whole lines: at the
    /// SIMD levels, for a shallow product (`k ≤` [`GEMM_PEEL_MAX_K`], where C's stores
    /// weigh), C contiguous along
    /// its columns (`c_rs = 1`) whose stride is a multiple of a line (every column starts at
    /// the same offset in its line) and whose first element `c_addr` is not on a line,
    /// and at least [`GEMM_PEEL_MIN_TILES`] tiles of rows. The rows up to the next line
    /// (fewer than a line's elements), else 0. Defined for every input.
    #[inline]
    pub const fn c_line_peel(&self, m: usize, k: usize, c_addr: usize, c_rs: isize, c_cs: isize) -> usize {
        let e = self.elem.bytes();
        let off = c_addr % GEMM_LINE_BYTES;
        if matches!(self.level, Level::Portable)
            || k > GEMM_PEEL_MAX_K
            || c_rs != 1
            || !(c_cs.unsigned_abs() % GEMM_LINE_BYTES * e).is_multiple_of(GEMM_LINE_BYTES)
            || off == 0
            || !off.is_multiple_of(e)
            || m < self.mr.saturating_mul(GEMM_PEEL_MIN_TILES)
        {
            return 0;
        }
        (GEMM_LINE_BYTES - off) / e
    }

    /// Whether B is packed one micro-panel at a time, right before the micro-kernels of
    /// its columns use it (so it is read from L1), instead of a whole `KC×NC` block first:
    /// when the `m` rows of A make one block (`m ≤ MC`), each micro-panel is used once per
    /// step of KC either way. Defined for every `m`.
    #[inline]
    pub const fn packs_b_per_panel(&self, m: usize) -> bool {
        m <= self.mc
    }

    /// Whether the blocked engine reads the full B micro-panels of a normalized `m`-row problem
    /// in place instead of packing them (the edge panel narrower than `NR` is still packed): at
    /// the levels whose packed panels are column-major ([`BPanelOrder::Columns`], whose
    /// micro-kernels then take B's column stride for `KC`), when B is column-major (`b_rs = 1`,
    /// `b_cs > 0`, strides along k and n) and the rows of A make one block (`m ≤ MC`): each
    /// panel is then used once per step of KC, and packing it would be one more pass over B.
    /// Defined for every input.
    #[inline]
    pub const fn reads_b_in_place(&self, m: usize, b_rs: isize, b_cs: isize) -> bool {
        matches!(self.b_order, BPanelOrder::Columns) && b_rs == 1 && b_cs > 0 && self.packs_b_per_panel(m)
    }

    /// Whether the kernels over B read in place run each full micro-panel as two tiles of
    /// `NR/2` columns: when its `NR` columns, `b_cs` elements apart, crowd one set of L1d
    /// beyond its ways ([`b_columns_per_l1_set`](Self::b_columns_per_l1_set) more than
    /// [`l1d_ways`](Self::l1d_ways), known): every step of k would then miss L1 on each
    /// column, where half of them fit. Defined for every input.
    #[inline]
    pub const fn b_in_place_halves(&self, b_cs: isize) -> bool {
        self.l1d_ways != 0
            && b_cs > 0
            && self.nr.is_multiple_of(2)
            && self.b_columns_per_l1_set(b_cs as usize) > self.l1d_ways
    }

    /// The most of a micro-panel's `NR` columns, `b_cs` elements apart, whose elements at one
    /// step of k fall into one line's set of L1d: the columns' byte offsets modulo one way
    /// ([`l1d_way`](Self::l1d_way)), counted per 64-byte line. 1 when the way is unknown or the
    /// columns are less than a line apart.
    /// Defined for every input.
    pub const fn b_columns_per_l1_set(&self, b_cs: usize) -> usize {
        let way = self.l1d_way;
        // (Columns less than a line apart share lines, which are consecutive: no crowding.)
        if way < 64 || b_cs.saturating_mul(self.elem.bytes()) < 64 {
            return 1;
        }
        let step = (b_cs % way).saturating_mul(self.elem.bytes()) % way;
        // Each column's line within a way (`NR` ≤ 64 of them), then the most that coincide.
        let mut lines = [0usize; 64];
        let n = if self.nr < 64 { self.nr } else { 64 };
        let (mut j, mut off) = (0, 0usize);
        while j < n {
            lines[j] = off / 64;
            // `(off + step) mod way` without overflow (`off`, `step` < `way`).
            off = if off >= way - step { off - (way - step) } else { off + step };
            j += 1;
        }
        let mut most = 1;
        let mut j = 0;
        while j < n {
            let mut same = 0;
            let mut i = 0;
            while i < n {
                if lines[i] == lines[j] {
                    same += 1;
                }
                i += 1;
            }
            if same > most {
                most = same;
            }
            j += 1;
        }
        most
    }

    /// Whether the blocked engine reads the full A micro-panels of a normalized `m×k` problem
    /// in place instead of packing them (an edge panel of fewer than `MR` rows is still
    /// packed; the micro-kernels take A's column stride for `MR`): at the levels whose packed
    /// B panels are column-major ([`BPanelOrder::Columns`], AVX-512), when A is column-major
    /// (`a_rs = 1`, `a_cs > 0`), the span of its elements, `((k-1)·a_cs + m)·size_of(T)`, is
    /// at most [`GEMM_A_IN_PLACE_BYTES`] and the column stride in bytes is not a multiple of
    /// [`GEMM_A_ALIAS_BYTES`]: A then stays in L2 and its `k` columns in the first-level TLB,
    /// and packing it would be one more pass. Defined for every input.
    #[inline]
    pub const fn reads_a_in_place(&self, m: usize, k: usize, a_rs: isize, a_cs: isize) -> bool {
        if !matches!(self.b_order, BPanelOrder::Columns) || a_rs != 1 || a_cs <= 0 || m < self.mr || k == 0 {
            return false;
        }
        let e = self.elem.bytes();
        let span = (k - 1).saturating_mul(a_cs as usize).saturating_add(m);
        span.saturating_mul(e) <= GEMM_A_IN_PLACE_BYTES
            && !(a_cs as usize).saturating_mul(e).is_multiple_of(GEMM_A_ALIAS_BYTES)
    }

    /// Whether the engine prefetches the source of the next A block into L2 while the
    /// micro-kernels of the current one run, so that the packer reads it from L2 rather than
    /// from memory: at the SIMD levels, when A is column-major (`a_rs = 1`, `a_cs > 0`: each
    /// block column is one run of lines) and its span is more than
    /// [`GEMM_A_IN_PLACE_BYTES`] (an A that does not stay in L2 between its uses). With few
    /// columns of C the packer's reads from memory would otherwise take most of the time.
    /// Defined for every input.
    #[inline]
    pub const fn prefetches_next_a(&self, m: usize, k: usize, a_rs: isize, a_cs: isize) -> bool {
        if matches!(self.level, Level::Portable) || a_rs != 1 || a_cs <= 0 || k == 0 {
            return false;
        }
        let span = (k - 1).saturating_mul(a_cs as usize).saturating_add(m);
        span.saturating_mul(self.elem.bytes()) > GEMM_A_IN_PLACE_BYTES
    }

    /// Whether the parallel engine reads the full A micro-panels of a task whose C has
    /// `n_share` columns in place, whatever A's span and column stride: when the task has at
    /// most [`GEMM_A_FEW_B_PANELS`] B micro-panels, so that each packed A panel would serve
    /// that few micro-kernels, while the engine packs the A panels of a whole round of steps
    /// of k over the task's rows at once (more than L2 holds): packing would then add a write
    /// and a read of A from beyond L2 to A's one read. The level and orientation conditions
    /// are [`reads_a_in_place`](Self::reads_a_in_place)'s. Defined for every input.
    #[inline]
    pub const fn reads_a_in_place_for_few_columns(
        &self,
        m: usize,
        k: usize,
        a_rs: isize,
        a_cs: isize,
        n_share: usize,
    ) -> bool {
        matches!(self.b_order, BPanelOrder::Columns)
            && a_rs == 1
            && a_cs > 0
            && m >= self.mr
            && k > 0
            && n_share <= GEMM_A_FEW_B_PANELS * self.nr
    }

    /// The distance in elements between two packed B micro-panels of depth `kc ≤ KC`:
    /// `NR·kc`, or `NR·KC` for [`BPanelOrder::Columns`] (fixed column stride `KC`).
    #[inline]
    pub const fn b_panel_stride(&self, kc: usize) -> usize {
        match self.b_order {
            BPanelOrder::Rows => self.nr * kc,
            BPanelOrder::Columns => self.nr * self.kc,
        }
    }

    /// The packed A block of `mc` rows and depth `kc` as a layout of `(i, p)`:
    /// `((MR,mc/MR),kc):((1,MR·kc),MR)`. Admissible when `mc` is a positive multiple of `MR`
    /// and `kc ≥ 1` (as [`blocks`](Self::blocks) gives); else or on overflow an error.
    pub fn a_panel(&self, mc: usize, kc: usize) -> Result<Layout> {
        let (mr, mc, kc) = (to_i64(self.mr)?, to_i64(mc)?, to_i64(kc)?);
        let tiles = Layout::from_flat(&[(mr, 1), (exact_div("rows", mc, mr)?, checked::mul(mr, kc)?)])?;
        Layout::concat([tiles, Layout::scalar(kc, mr)?])
    }

    /// The packed B block of `nc` columns and depth `kc` as a layout of `(j, p)`:
    /// `((NR,nc/NR),kc):((1,NR·kc),NR)` ([`BPanelOrder::Rows`]) or
    /// `((NR,nc/NR),kc):((KC,NR·KC),1)` ([`BPanelOrder::Columns`]). Admissible when `nc` is a
    /// positive multiple of `NR` and `1 ≤ kc` (`≤ KC` for columns); else or on overflow an error.
    pub fn b_panel(&self, nc: usize, kc: usize) -> Result<Layout> {
        let (nr, nc_i, kc_i) = (to_i64(self.nr)?, to_i64(nc)?, to_i64(kc)?);
        let panels = exact_div("columns", nc_i, nr)?;
        let (col, step) = match self.b_order {
            BPanelOrder::Rows => (1, nr),
            BPanelOrder::Columns => {
                if kc > self.kc {
                    return Err(LayoutError::GemmDepth { kc: kc as u64, max: self.kc as u64 });
                }
                (to_i64(self.kc)?, 1)
            }
        };
        let panel = to_i64(self.b_panel_stride(kc))?;
        let tiles = Layout::from_flat(&[(nr, col), (panels, panel)])?;
        Layout::concat([tiles, Layout::scalar(kc_i, step)?])
    }

    /// The bytes of the B micro-panel (`KC·NR`, kept in L1), of the A block (`MC·KC`, kept in
    /// L2) and of the B block (`KC·NC`) at the maximum blocks.
    pub const fn footprints(&self) -> (usize, usize, usize) {
        let e = self.elem.bytes();
        (self.kc * self.nr * e, self.mc * self.kc * e, self.kc * self.nc * e)
    }
}

/// `x` rounded down to a multiple of `unit`, then clamped to `lo..=hi` (`lo`, `hi` multiples
/// of `unit`).
const fn clamp_down(x: usize, unit: usize, lo: usize, hi: usize) -> usize {
    let x = x / unit * unit;
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// `⌈len / ⌈len / max⌉⌉` rounded up to a multiple of `unit`.
const fn even(len: usize, max: usize, unit: usize) -> usize {
    if len == 0 || max == 0 || unit == 0 {
        return 0;
    }
    len.div_ceil(len.div_ceil(max)).next_multiple_of(unit)
}

fn to_i64(x: usize) -> Result<i64> {
    i64::try_from(x).map_err(|_| LayoutError::GemmTooLarge { value: x as u64 })
}

/// `total / unit` when `total` is a positive multiple of `unit` (both non-negative here).
fn exact_div(what: &'static str, total: i64, unit: i64) -> Result<i64> {
    if total <= 0 || unit <= 0 || total % unit != 0 {
        return Err(LayoutError::GemmBlockUnit { what, value: total as u64, unit: unit as u64 });
    }
    Ok(total / unit)
}

#[cfg(test)]
mod tests {
    //! The tuning constants are measured choices and may change; these tests state what any
    //! choice must satisfy (tiles that fill the registers, blocks derived from and fitting the
    //! caches they are for, blocks that cover a problem evenly, packing layouts that are
    //! bijections), not the numbers themselves.

    use super::*;

    /// Vector registers of a level and their width in bytes (x86_64: 32 zmm, 16 ymm, 16 xmm).
    fn registers(level: Level) -> (usize, usize) {
        match level {
            Level::Avx512 => (32, 64),
            Level::Avx2 => (16, 32),
            Level::Portable => (16, 16),
        }
    }

    /// Some caches around the real ones, from tiny to absurd (the computation must stay
    /// well formed), with the design caches of every level among them.
    fn cache_sizes() -> Vec<CacheSizes> {
        let mut out = vec![AVX2_REFERENCE_CACHES, AVX512_REFERENCE_CACHES];
        for l1d in [1, 1 << 10, 16 << 10, 32 << 10, 48 << 10, 64 << 10, 1 << 20] {
            for l2 in [1, 64 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 8 << 20] {
                out.push(CacheSizes { l1d, l1d_ways: 8, l2, l3: 32 << 20 });
            }
        }
        out.push(CacheSizes { l1d: usize::MAX / 2, l1d_ways: 0, l2: usize::MAX / 2, l3: 0 });
        out.push(CacheSizes { l1d: 48 << 10, l1d_ways: usize::MAX, l2: 1 << 20, l3: 0 });
        out
    }

    #[test]
    fn the_next_a_block_is_prefetched_when_a_is_column_major_and_large() {
        for b in GEMM_BLOCKINGS {
            let e = b.elem.bytes();
            let simd = b.level != Level::Portable;
            let m = 2 * b.mr;
            let k = GEMM_A_IN_PLACE_BYTES / (m * e);
            let lda = m as isize;
            assert!(!b.prefetches_next_a(m, k, 1, lda), "{b:?}: at the limit (A stays in L2)");
            assert_eq!(b.prefetches_next_a(m + 1, k, 1, lda + 1), simd, "{b:?}: one element past it");
            assert_eq!(b.prefetches_next_a(4096, 4096, 1, 4096), simd, "{b:?}: a large A");
            assert!(!b.prefetches_next_a(4096, 4096, 4096, 1), "{b:?}: row-major");
            assert!(!b.prefetches_next_a(4096, 4096, 1, -4096), "{b:?}: reversed columns");
            assert!(!b.prefetches_next_a(4096, 0, 1, 4096), "{b:?}: no depth");
            assert_eq!(b.prefetches_next_a(usize::MAX, usize::MAX, 1, isize::MAX), simd, "{b:?}: saturates");
        }
    }

    #[test]
    fn a_is_read_in_place_when_column_major_and_small() {
        for b in GEMM_BLOCKINGS {
            let e = b.elem.bytes();
            let reads = matches!(b.b_order, BPanelOrder::Columns);
            // The span `((k-1)·a_cs + m)·size` at the limit, and one element past it.
            let m = 2 * b.mr;
            let k = GEMM_A_IN_PLACE_BYTES / (m * e);
            assert_eq!(k * m * e, GEMM_A_IN_PLACE_BYTES, "{b:?}: the limit is a whole number of columns");
            let lda = m as isize;
            assert_eq!(b.reads_a_in_place(m, k, 1, lda), reads, "{b:?}: at the limit");
            assert!(!b.reads_a_in_place(m + 1, k, 1, lda + 1), "{b:?}: one element past the limit");
            assert!(!b.reads_a_in_place(m, k, lda, 1), "{b:?}: row-major");
            assert!(!b.reads_a_in_place(m, k, 1, -lda), "{b:?}: reversed columns");
            assert!(!b.reads_a_in_place(m, k, 1, 0), "{b:?}: a broadcast column");
            assert!(!b.reads_a_in_place(b.mr - 1, 8, 1, b.mr as isize), "{b:?}: fewer rows than MR: all edge");
            assert!(!b.reads_a_in_place(m, 0, 1, lda), "{b:?}: no depth");
            // A task with few columns reads a large A, or one of a 4 KiB stride, in place.
            let few = GEMM_A_FEW_B_PANELS * b.nr;
            assert_eq!(b.reads_a_in_place_for_few_columns(4096, 4096, 1, 4096, few), reads, "{b:?}: few columns");
            assert!(!b.reads_a_in_place_for_few_columns(4096, 4096, 1, 4096, few + 1), "{b:?}: one more");
            assert!(!b.reads_a_in_place_for_few_columns(4096, 4096, 4096, 1, 16), "{b:?}: row-major");
            assert!(!b.reads_a_in_place_for_few_columns(b.mr - 1, 8, 1, 64, 16), "{b:?}: all edge");
            assert!(!b.reads_a_in_place_for_few_columns(64, 0, 1, 64, 16), "{b:?}: no depth");
            assert!(!b.reads_a_in_place(usize::MAX, usize::MAX, 1, isize::MAX), "{b:?}: saturates");
            // Columns a multiple of 4 KiB apart are packed; a stride just past it is read in place.
            let aliased = (GEMM_A_ALIAS_BYTES / e) as isize;
            for lda in [aliased, 2 * aliased, 4 * aliased] {
                assert!(!b.reads_a_in_place(m, 4, 1, lda), "{b:?}: lda {lda}");
            }
            assert_eq!(b.reads_a_in_place(m, 4, 1, aliased + b.mr as isize), reads, "{b:?}: lda past 4 KiB");
        }
        // Only the levels that can take A's column stride for MR read it in place.
        assert!(GEMM_BLOCKINGS.iter().any(|b| matches!(b.b_order, BPanelOrder::Columns)));
    }

    #[test]
    fn every_tile_fills_the_registers_and_covers_fma_latency() {
        for b in GEMM_BLOCKINGS {
            let (regs, width) = registers(b.level);
            assert_eq!(b.lanes * b.elem.bytes(), width, "{b:?}: one lane per element of a vector register");
            assert_eq!(b.mr % b.lanes, 0, "{b:?}");
            assert_eq!(b.direct_mr % b.lanes, 0, "{b:?}");
            assert_eq!(b.accumulators() * b.lanes, b.mr * b.nr, "{b:?}: the accumulators hold the tile");
            assert_eq!(b.loads_per_step(), b.mr / b.lanes + b.nr, "{b:?}");
            // The accumulators, one step's vectors of A and a broadcast of B fit the register file.
            assert!(b.accumulators() + b.mr / b.lanes < regs, "{b:?}: spills");
            assert_eq!(b.mc % b.mr, 0, "{b:?}");
            assert_eq!(b.nc % b.nr, 0, "{b:?}");
            assert_eq!(GEMM_PAR_GRAIN_M % b.mr, 0, "{b:?}");
            assert_eq!(GEMM_PAR_GRAIN_N % b.nr, 0, "{b:?}");
            assert!(b.narrow_nr.windows(2).all(|w| w[0] < w[1]) && b.narrow_nr.iter().all(|&w| 0 < w && w < b.nr));
            assert!(b.narrow_mr.windows(2).all(|w| w[0] < w[1]));
            assert!(b.narrow_mr.iter().all(|&h| 0 < h && h < b.mr && h.is_multiple_of(b.lanes)), "{b:?}");
            assert_eq!(gemm_blocking(b.level, b.elem), b);
            if b.level != Level::Portable {
                // FMA latency 4 × 2 ports: at least 8 independent accumulators; fewer loads than FMAs.
                assert!(b.accumulators() >= 8, "{b:?}");
                assert!(b.loads_per_step() < b.accumulators(), "{b:?}");
            }
        }
    }

    #[test]
    fn blocks_fit_the_caches_they_are_for() {
        for b in GEMM_BLOCKINGS {
            let e = b.elem.bytes();
            let (b_micro, a_block, b_block) = b.footprints();
            assert_eq!((b_micro, a_block, b_block), (b.kc * b.nr * e, b.mc * b.kc * e, b.kc * b.nc * e));
            let c = b.design_caches();
            assert!(b_micro <= c.l1d / 2, "{b:?}: B micro-panel {b_micro} bytes exceeds half of L1d");
            assert!(a_block <= c.l2 / 2, "{b:?}: A block {a_block} bytes exceeds half of L2");
            assert!(b_block <= c.l3, "{b:?}: B block {b_block} bytes exceeds L3");
            // The constants are the blocks of their design caches.
            assert_eq!(b.for_caches(c), b, "{b:?}");
        }
    }

    #[test]
    fn blocks_follow_the_caches() {
        for b in GEMM_BLOCKINGS {
            let e = b.elem.bytes();
            let mut by_l1 = std::collections::BTreeMap::<usize, usize>::new();
            for c in cache_sizes() {
                let x = b.for_caches(c);
                if b.level == Level::Portable {
                    assert_eq!(x, b, "{b:?}: the portable level does not follow the caches");
                    continue;
                }
                if b.level == Level::Avx512 {
                    // Only MC and NC change, with L2, and stay well formed.
                    assert_eq!(
                        GemmBlocking { mc: b.mc, nc: b.nc, l1d_ways: b.l1d_ways, l1d_way: b.l1d_way, l3: b.l3, ..x },
                        b,
                        "{c}"
                    );
                    // The B block takes at most L2, or is one micro-panel wide; NC is the
                    // widest such multiple of NR up to GEMM_NC_MAX.
                    assert!(x.nc.is_multiple_of(x.nr) && (x.nr..=GEMM_NC_MAX).contains(&x.nc), "{c}: {x:?}");
                    assert!(x.nc == x.nr || x.kc * x.nc * e <= c.l2, "{c}: {x:?}");
                    assert!(x.nc == GEMM_NC_MAX || x.kc * (x.nc + x.nr) * e > c.l2, "{c}: {x:?}");
                    assert_eq!(x.l3, c.l3, "{c}");
                    assert!(x.mc.is_multiple_of(x.mr) && (x.mr..=4096).contains(&x.mc), "{c}: {x:?}");
                    let scaled = b.mc * (c.l2 >> 10) / (AVX512_REFERENCE_CACHES.l2 >> 10);
                    assert!(x.mc == x.mr || x.mc <= scaled, "{c}: {x:?}");
                    assert!(x.mc == 4096 || x.mc + x.mr > scaled, "{c}: {x:?}");
                    continue;
                }
                // Only the cache blocks change, and they stay well formed.
                assert_eq!(
                    GemmBlocking { kc: b.kc, mc: b.mc, l1d_ways: b.l1d_ways, l1d_way: b.l1d_way, l3: b.l3, ..x },
                    b,
                    "{c}"
                );
                assert_eq!((x.l1d_ways, x.l1d_way), (c.l1d_ways, c.l1d.checked_div(c.l1d_ways).unwrap_or(0)), "{c}");
                assert!(x.kc.is_multiple_of(16) && (64..=1024).contains(&x.kc), "{c}: {x:?}");
                assert!(x.mc.is_multiple_of(x.mr) && (x.mr..=4096).contains(&x.mc), "{c}: {x:?}");
                // KC: the largest multiple of 16 whose B micro-panel fits its share of L1d
                // (unless clamped); MC likewise for the A block in L2.
                let l1_share = c.l1d / 64 * AVX2_KC_L1_64THS;
                let l2_share = c.l2 / 64 * AVX2_MC_L2_64THS;
                assert!(x.kc == 64 || x.kc * x.nr * e <= l1_share, "{c}: {x:?}");
                assert!(x.kc == 1024 || (x.kc + 16) * x.nr * e > l1_share, "{c}: {x:?}");
                assert!(x.mc == x.mr || x.mc * x.kc * e <= l2_share, "{c}: {x:?}");
                assert!(x.mc == 4096 || (x.mc + x.mr) * x.kc * e > l2_share, "{c}: {x:?}");
                // A larger L1d never gives a smaller KC.
                let kc = *by_l1.entry(c.l1d).or_insert(x.kc);
                assert_eq!(kc, x.kc, "{c}: KC depends on L1d only");
                if let Some((_, &smaller)) = by_l1.range(..c.l1d).next_back() {
                    assert!(smaller <= x.kc, "{c}: KC shrank with a larger L1d");
                }
            }
        }
        // A larger L2 never gives a smaller MC (at one L1d, so one KC).
        for b in [GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_AVX512_F32, GEMM_AVX512_F64] {
            let mcs: Vec<usize> = [64usize << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 8 << 20]
                .iter()
                .map(|&l2| b.for_caches(CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2, l3: 0 }).mc)
                .collect();
            assert!(mcs.windows(2).all(|w| w[0] <= w[1]), "{b:?}: {mcs:?}");
        }
        // Whatever CPUID says, the engine's blocks are well formed.
        let here = GEMM_AVX2_F32.on_this_machine();
        assert!(here.kc >= 64 && here.mc.is_multiple_of(here.mr) && here.mc > 0, "{here:?}");
        if let Some(c) = detected_caches() {
            assert!(c.l1d >= 1 << 10 && c.l2 >= c.l1d, "{c:?}");
            assert!(c.to_string().starts_with("L1d "), "{c}");
        }
    }

    #[test]
    fn blocks_are_even_and_bounded() {
        assert_eq!(GEMM_AVX512_F32.blocks(0, 0, 0), GemmBlocks { mc: 0, nc: 0, kc: 0 });
        // Each dimension: the fewest blocks of at most the maximum, of equal size rounded up
        // to the unit, so the last block is not a thin rest.
        let even = |len: usize, block: usize, max: usize, unit: usize| {
            let count = len.div_ceil(max);
            assert!(block <= max && block.is_multiple_of(unit), "{len}: {block} (max {max}, unit {unit})");
            assert_eq!(len.div_ceil(block), count, "{len}: {block} is not the fewest blocks of at most {max}");
            assert!(block < len.div_ceil(count) + unit, "{len}: {block} is not even (max {max}, unit {unit})");
        };
        for b in GEMM_BLOCKINGS {
            let (mr, mc) = (b.mr, b.mc);
            let sizes = [1, 3, mr - 1, mr, mr + 1, mc - 1, mc, mc + 1, 2 * mc + 1, b.kc + 1, b.nc + 1, 1000, 5000];
            for &m in &sizes {
                for &n in &sizes {
                    for &k in &sizes {
                        let x = b.blocks(m, n, k);
                        even(m, x.mc, b.mc_for_depth(x.kc), b.mr);
                        // One A block: B blocks up to GEMM_NC_MAX; else up to NC.
                        let one = m <= b.mc_for_depth(x.kc);
                        even(n, x.nc, if one { b.nc.max(GEMM_NC_MAX) } else { b.nc }, b.nr);
                        even(k, x.kc, b.kc, 1);
                    }
                }
            }
            let x = b.blocks(usize::MAX, usize::MAX, usize::MAX);
            assert!(x.kc <= b.kc && x.mc <= b.mc * GEMM_MC_DEPTH_SCALE && x.nc <= b.nc, "{b:?} {x:?}");
            assert!(x.mc % b.mr == 0 && x.nc % b.nr == 0, "{b:?} {x:?}");
        }
    }

    #[test]
    fn b_in_place_runs_in_halves_when_its_columns_crowd_one_l1_set() {
        let f32_8way = GEMM_AVX512_F32.for_caches(CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2: 1 << 20, l3: 0 });
        let f64_8way = GEMM_AVX512_F64.for_caches(CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2: 1 << 20, l3: 0 });
        assert_eq!((f32_8way.l1d_ways, f32_8way.l1d_way), (8, 4096));
        // Column strides of 16 KiB and 4 KiB: all 12 columns in one set; 2 KiB: two sets;
        // 1536 bytes (8 distinct offsets per 4 KiB): 2; 16400 bytes: 16 bytes apart, 4 per line;
        // 4, 64 or 68 bytes: consecutive lines, 1.
        for (b_cs, most) in [(4096, 12), (1024, 12), (512, 6), (384, 2), (4100, 4), (1, 1), (16, 1), (17, 1)] {
            assert_eq!(f32_8way.b_columns_per_l1_set(b_cs), most, "f32 b_cs {b_cs}");
        }
        assert_eq!(f64_8way.b_columns_per_l1_set(4096), 12);
        assert_eq!(f64_8way.b_columns_per_l1_set(4100), 2);
        // 8 ways: B with 12 columns in one set runs in halves of 6; 12 ways (the reference)
        // whole; unknown ways whole.
        assert!(f32_8way.b_in_place_halves(4096) && f64_8way.b_in_place_halves(4096));
        assert!(f32_8way.b_in_place_halves(1024) && !f32_8way.b_in_place_halves(512));
        assert!(!f32_8way.b_in_place_halves(4100) && !f32_8way.b_in_place_halves(384));
        assert!(!f32_8way.b_in_place_halves(0) && !f32_8way.b_in_place_halves(-4096));
        assert!(!GEMM_AVX512_F32.b_in_place_halves(4096) && !GEMM_AVX512_F64.b_in_place_halves(4096));
        let unknown = GEMM_AVX512_F32.for_caches(CacheSizes { l1d: 32 << 10, l1d_ways: 0, l2: 1 << 20, l3: 0 });
        assert!(!unknown.b_in_place_halves(4096));
        // Half of the columns fit: 6 in one set of 8 ways.
        let half = GemmBlocking { nr: 6, ..f32_8way };
        assert!(half.b_columns_per_l1_set(4096) <= half.l1d_ways);
        // Defined for every input.
        let odd = GEMM_AVX512_F64.for_caches(CacheSizes { l1d: usize::MAX, l1d_ways: 1, l2: 1 << 20, l3: 0 });
        for b_cs in [0, 1, 3, usize::MAX / 16 + 1, usize::MAX / 2, usize::MAX] {
            assert!((1..=12).contains(&odd.b_columns_per_l1_set(b_cs)));
        }
    }

    #[test]
    fn shallow_steps_take_more_rows_in_the_same_bytes() {
        for b in GEMM_BLOCKINGS {
            // Full-depth steps: the level's MC.
            for kc in [0, b.kc, b.kc + 1, usize::MAX] {
                assert_eq!(b.mc_for_depth(kc), b.mc, "{b:?} kc {kc}");
            }
            for kc in 1..b.kc {
                let rows = b.mc_for_depth(kc);
                assert!(rows.is_multiple_of(b.mr) && rows >= b.mc, "{b:?} kc {kc}: {rows}");
                assert!(rows <= b.mc * GEMM_MC_DEPTH_SCALE, "{b:?} kc {kc}: {rows}");
                // The block keeps at most the full-depth block's elements, and is the largest
                // such (or the cap, or MC).
                assert!(rows == b.mc || rows * kc <= b.mc * b.kc, "{b:?} kc {kc}: {rows}");
                assert!(
                    rows == b.mc * GEMM_MC_DEPTH_SCALE / b.mr * b.mr || (rows + b.mr) * kc > b.mc * b.kc,
                    "{b:?} kc {kc}: {rows}"
                );
                // Shallower steps never take fewer rows.
                assert!(rows >= b.mc_for_depth(kc + 1), "{b:?} kc {kc}");
            }
        }
        // The AVX-512 f32 reference at k = 16 and 64: 8·512 rows (the cap) and 3072.
        assert_eq!(GEMM_AVX512_F32.blocks(100_000, 100, 16).mc, even(100_000, 4096, 32));
        assert_eq!(GEMM_AVX512_F32.mc_for_depth(64), 3072);
    }

    #[test]
    fn packing_layouts_in_the_notation() {
        for b in GEMM_BLOCKINGS {
            let (mr, nr) = (b.mr, b.nr);
            let x = b.blocks(1000, 1000, 1000);
            let (mc, nc, kc) = (x.mc, x.nc, x.kc);
            // `((MR,mc/MR),kc):((1,MR·kc),MR)`: a bijection onto [0, mc·kc), so packing writes
            // every element once.
            let a = b.a_panel(mc, kc).unwrap();
            assert_eq!(a.to_string(), format!("(({mr},{}),{kc}):((1,{}),{mr})", mc / mr, mr * kc), "{b:?}");
            let mut seen = a.table().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..(mc * kc) as i64).collect::<Vec<_>>(), "{b:?}");
            let p = b.b_panel(nc, kc).unwrap();
            let want = match b.b_order {
                BPanelOrder::Rows => format!("(({nr},{}),{kc}):((1,{}),{nr})", nc / nr, nr * kc),
                BPanelOrder::Columns => format!("(({nr},{}),{kc}):(({},{}),1)", nc / nr, b.kc, nr * b.kc),
            };
            assert_eq!(p.to_string(), want, "{b:?}");
            let columns = matches!(b.b_order, BPanelOrder::Columns);
            assert_eq!(b.b_panel_stride(kc), if columns { nr * b.kc } else { nr * kc }, "{b:?}");
            // Injective within the panel's extent.
            let mut seen = p.table().unwrap();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), nc * kc, "{b:?}");
            // Not admissible: a block that is not a multiple of the tile, an empty block,
            // sizes that overflow.
            assert!(b.a_panel(mr + 1, 8).is_err(), "{b:?}");
            assert!(b.a_panel(0, 8).is_err(), "{b:?}");
            assert!(b.b_panel(nr + 1, 8).is_err(), "{b:?}");
            assert!(b.a_panel(usize::MAX - (mr - 1), 2).is_err(), "{b:?}");
            // Column-ordered B panels have the fixed column stride KC: no deeper panel.
            assert_eq!(b.b_panel(nr, b.kc + 1).is_err(), columns, "{b:?}");
        }
    }

    #[test]
    fn b_in_place_takes_steps_of_all_of_k() {
        for b in GEMM_BLOCKINGS {
            for (m, n, k) in [(16, 4092, 4096), (100, 36, 1), (256, 120, 385), (32, 12, 9000), (0, 0, 0)] {
                let (deep, plain) = (b.blocks_b_in_place(m, n, k), b.blocks(m, n, k));
                // All of k up to GEMM_DEEP_KC, else equal steps of at most that; the same
                // blocks of m and n.
                let steps = k.div_ceil(GEMM_DEEP_KC.max(b.kc)).max(1);
                assert_eq!(deep.kc, k.div_ceil(steps), "{b:?} {m}x{n}x{k}");
                assert!(deep.kc >= plain.kc && deep.kc <= GEMM_DEEP_KC.max(b.kc), "{b:?} {m}x{n}x{k}");
                assert_eq!((deep.mc, deep.nc), (even(m, b.mc_for_depth(deep.kc), b.mr), plain.nc), "{b:?}");
            }
            // Defined for the largest sizes.
            let huge = b.blocks_b_in_place(usize::MAX, usize::MAX, usize::MAX);
            assert!(huge.kc <= GEMM_DEEP_KC.max(b.kc), "{b:?}");
        }
    }

    #[test]
    fn c_is_streamed_when_written_once_and_larger_than_l3() {
        let caches = CacheSizes { l1d: 32 << 10, l1d_ways: 8, l2: 1 << 20, l3: 32 << 20 };
        for b in GEMM_BLOCKINGS {
            let x = b.for_caches(caches);
            let e = b.elem.bytes();
            // One more element than L3 holds, as one column.
            let over = (32 << 20) / e + 1;
            let simd = b.level != Level::Portable;
            assert_eq!(x.streams_c(over, 1, x.kc), simd, "{b:?}");
            assert_eq!(x.streams_c(1, over, 1), simd, "{b:?}");
            // L3 exactly, a second step of k, unknown L3, empty C: no.
            assert!(!x.streams_c(over - 1, 1, 1) && !x.streams_c(over, 1, x.kc + 1), "{b:?}");
            assert!(!b.for_caches(CacheSizes { l3: 0, ..caches }).streams_c(over, 1, 1), "{b:?}");
            assert!(!x.streams_c(0, usize::MAX, 1), "{b:?}");
            // Defined where `m·n` overflows.
            assert_eq!(x.streams_c(usize::MAX, usize::MAX, 1), simd, "{b:?}");
        }
    }

    #[test]
    fn c_line_peel_takes_the_rows_before_the_first_line() {
        for b in GEMM_BLOCKINGS {
            let e = b.elem.bytes();
            let per_line = GEMM_LINE_BYTES / e;
            let m = b.mr * GEMM_PEEL_MIN_TILES;
            let simd = b.level != Level::Portable;
            for off in 0..GEMM_LINE_BYTES {
                // Column stride one line or 1000 lines: every column starts `off` into a line.
                for cs in [per_line as isize, 1000 * per_line as isize] {
                    let rows = b.c_line_peel(m, GEMM_PEEL_MAX_K, 4096 + off, 1, cs);
                    if !simd || off == 0 || off % e != 0 {
                        assert_eq!(rows, 0, "{b:?} off {off}");
                    } else {
                        // The rows up to the next line: fewer than a line's elements.
                        assert_eq!(off + rows * e, GEMM_LINE_BYTES, "{b:?} off {off}");
                        assert!((1..per_line).contains(&rows), "{b:?} off {off}");
                    }
                }
            }
            if !simd {
                continue;
            }
            let at = 4096 + e;
            assert_eq!(b.c_line_peel(m, 1, at, 1, -(per_line as isize)), per_line - 1, "{b:?}");
            // A deeper product, a row stride, columns at different offsets in their lines,
            // fewer rows than the minimum: none.
            assert_eq!(b.c_line_peel(m, GEMM_PEEL_MAX_K + 1, at, 1, per_line as isize), 0, "{b:?}");
            assert_eq!(b.c_line_peel(m, 1, at, 2, per_line as isize), 0, "{b:?}");
            assert_eq!(b.c_line_peel(m, 1, at, 1, per_line as isize + 1), 0, "{b:?}");
            assert_eq!(b.c_line_peel(m - 1, 1, at, 1, per_line as isize), 0, "{b:?}");
            // Defined for extreme inputs.
            assert_eq!(b.c_line_peel(usize::MAX, 1, usize::MAX, 1, isize::MIN), 0, "{b:?}");
        }
    }

    #[test]
    fn regimes() {
        let (mn, k) = (GEMM_DIRECT_MN, GEMM_DIRECT_K);
        assert_eq!(gemm_direct(mn, mn, k), mn * mn * k <= GEMM_DIRECT_MNK);
        assert!(gemm_direct(1, 1, 1));
        assert!(!gemm_direct(mn + 1, 1, 1));
        assert!(!gemm_direct(1, mn + 1, 1));
        assert!(!gemm_direct(1, 1, k + 1));
        assert!(!gemm_direct(usize::MAX, usize::MAX, usize::MAX));
        // The product limit decides within the extent limits.
        for m in [1, mn / 2, mn] {
            for n in [1, mn / 2, mn] {
                for kk in [1, k / 2, k] {
                    assert_eq!(gemm_direct(m, n, kk), m * n * kk <= GEMM_DIRECT_MNK, "{m}x{n}x{kk}");
                }
            }
        }
        // C is transposed when it is not contiguous along m but is along n, or its column
        // stride is the smaller.
        assert!(!gemm_transposes(1, 64));
        assert!(gemm_transposes(64, 1));
        assert!(gemm_transposes(10, 3));
        assert!(!gemm_transposes(3, 10));
    }
}
