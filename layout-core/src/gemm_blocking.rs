//! The blocking of the run-time GEMM engine, per dispatch level and element type: the
//! register tile `MR×NR` of the micro-kernel, the cache blocks `KC`, `MC`, `NC`, the packing
//! layouts of the A and B panels, the edge kernels and the thresholds between the direct,
//! blocked and parallel regimes. The facade's engine (`cute_layout::gemm`) instantiates its
//! kernels with these constants and calls [`GemmBlocking::blocks`], [`gemm_direct`] and
//! [`gemm_transposes`]; `layout explain 'gemm(...)'` shows the same data.
//!
//! The constant blocks of each level are derived from a reference cache configuration
//! ([`GemmBlocking::design_caches`]): those of the AVX-512 levels from
//! [`SAPPHIRE_RAPIDS_CACHES`] (48 KiB L1d, 2 MiB L2), those of the AVX2 and portable levels
//! from [`ZEN3_CACHES`] (32 KiB L1d, 512 KiB L2, 32 MiB L3). In each, the B micro-panel
//! `KC×NR` stays in L1 while the A micro-panels stream through it, the A block `MC×KC` stays
//! in L2, and the B block `KC×NC` is left to L3. At run time the engine recomputes the AVX2
//! blocks from the caches the CPU reports ([`detected_caches`], CPUID leaf `0x8000_001D` or
//! 4, read once) with [`GemmBlocking::for_caches`]; the constants are its result for
//! [`ZEN3_CACHES`] and the fallback when CPUID says nothing.

use std::fmt;

use crate::checked;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;

/// A SIMD dispatch level of the engine (the levels of the copy kernels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmLevel {
    /// Plain Rust vectorized for the target's baseline (SSE2 on x86_64, no FMA).
    Portable,
    /// AVX2 and FMA: 16 ymm registers.
    Avx2,
    /// AVX-512 (F, BW, VL, DQ): 32 zmm registers.
    Avx512,
}

impl fmt::Display for GemmLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GemmLevel::Portable => "portable",
            GemmLevel::Avx2 => "AVX2+FMA",
            GemmLevel::Avx512 => "AVX-512",
        })
    }
}

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
    pub level: GemmLevel,
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
    /// The order of the elements inside a packed B micro-panel.
    pub b_order: BPanelOrder,
    /// How the panels are packed at this level.
    pub packer: Packer,
    /// Rows of the register tile of the direct (unpacked) kernel of small problems.
    pub direct_mr: usize,
    /// Columns of the register tile of the direct kernel.
    pub direct_nr: usize,
}

/// The data caches of one core, in bytes (L3: the whole cache the core shares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheSizes {
    /// The L1 data cache.
    pub l1d: usize,
    /// The L2 cache.
    pub l2: usize,
    /// The L3 cache (0 when there is none).
    pub l3: usize,
}

/// The reference cache configuration the constant AVX2 and portable blocks are derived from
/// (32 KiB L1d, 512 KiB L2, 32 MiB L3): [`GemmBlocking::for_caches`] of it is the AVX2
/// constant.
pub const ZEN3_CACHES: CacheSizes = CacheSizes { l1d: 32 << 10, l2: 512 << 10, l3: 32 << 20 };

/// The reference cache configuration the constant AVX-512 blocks are derived from (48 KiB
/// L1d, 2 MiB L2, 105 MiB L3).
pub const SAPPHIRE_RAPIDS_CACHES: CacheSizes = CacheSizes { l1d: 48 << 10, l2: 2 << 20, l3: 105 << 20 };

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
    let mut c = CacheSizes { l1d: 0, l2: 0, l3: 0 };
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
            1 => c.l1d = bytes,
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
/// 2 MiB L2.
pub const GEMM_AVX512_F32: GemmBlocking = GemmBlocking {
    level: GemmLevel::Avx512,
    elem: GemmElem::F32,
    lanes: 16,
    mr: 32,
    nr: 12,
    kc: 384,
    mc: 512,
    nc: 4080,
    narrow_nr: &[4, 8],
    b_order: BPanelOrder::Columns,
    packer: Packer::Simd,
    direct_mr: 32,
    direct_nr: 6,
};

/// AVX-512 f64: 2 zmm of A × 12 broadcasts = 24 accumulators; the B micro-panel 24 KiB of a
/// 48 KiB L1d, the A block 512 KiB, a quarter of a 2 MiB L2.
pub const GEMM_AVX512_F64: GemmBlocking = GemmBlocking {
    level: GemmLevel::Avx512,
    elem: GemmElem::F64,
    lanes: 8,
    mr: 16,
    nr: 12,
    kc: 256,
    mc: 256,
    nc: 4080,
    narrow_nr: &[4, 8],
    b_order: BPanelOrder::Columns,
    packer: Packer::Simd,
    direct_mr: 16,
    direct_nr: 6,
};

/// AVX2 f32: 2 ymm of A × 6 broadcasts = 12 accumulators (of 16 registers); the blocks of
/// [`ZEN3_CACHES`] (B micro-panel 12 KiB of 32 KiB L1d, A block 256 KiB of 512 KiB L2).
pub const GEMM_AVX2_F32: GemmBlocking = GemmBlocking {
    level: GemmLevel::Avx2,
    elem: GemmElem::F32,
    lanes: 8,
    mr: 16,
    nr: 6,
    kc: 512,
    mc: 128,
    nc: 4080,
    narrow_nr: &[3],
    b_order: BPanelOrder::Rows,
    packer: Packer::Transposes,
    direct_mr: 16,
    direct_nr: 6,
};

/// AVX2 f64: 2 ymm of A × 6 broadcasts = 12 accumulators; the blocks of [`ZEN3_CACHES`]
/// (B micro-panel 12 KiB, A block 256 KiB).
pub const GEMM_AVX2_F64: GemmBlocking = GemmBlocking {
    level: GemmLevel::Avx2,
    elem: GemmElem::F64,
    lanes: 4,
    mr: 8,
    nr: 6,
    kc: 256,
    mc: 128,
    nc: 4080,
    narrow_nr: &[3],
    b_order: BPanelOrder::Rows,
    packer: Packer::Transposes,
    direct_mr: 8,
    direct_nr: 6,
};

/// Portable f32: an 8×4 tile of SSE2 vectors (no FMA).
pub const GEMM_PORTABLE_F32: GemmBlocking = GemmBlocking {
    level: GemmLevel::Portable,
    elem: GemmElem::F32,
    lanes: 4,
    mr: 8,
    nr: 4,
    kc: 256,
    mc: 128,
    nc: 4096,
    narrow_nr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Scalar,
    direct_mr: 16,
    direct_nr: 4,
};

/// Portable f64: a 4×4 tile of SSE2 vectors (no FMA).
pub const GEMM_PORTABLE_F64: GemmBlocking = GemmBlocking {
    level: GemmLevel::Portable,
    elem: GemmElem::F64,
    lanes: 2,
    mr: 4,
    nr: 4,
    kc: 256,
    mc: 128,
    nc: 4096,
    narrow_nr: &[],
    b_order: BPanelOrder::Rows,
    packer: Packer::Scalar,
    direct_mr: 8,
    direct_nr: 4,
};

/// Every level's blocking, fastest level first.
pub const GEMM_BLOCKINGS: [GemmBlocking; 6] =
    [GEMM_AVX512_F32, GEMM_AVX512_F64, GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_PORTABLE_F32, GEMM_PORTABLE_F64];

/// The blocking of a level and element type.
pub const fn gemm_blocking(level: GemmLevel, elem: GemmElem) -> GemmBlocking {
    match (level, elem) {
        (GemmLevel::Avx512, GemmElem::F32) => GEMM_AVX512_F32,
        (GemmLevel::Avx512, GemmElem::F64) => GEMM_AVX512_F64,
        (GemmLevel::Avx2, GemmElem::F32) => GEMM_AVX2_F32,
        (GemmLevel::Avx2, GemmElem::F64) => GEMM_AVX2_F64,
        (GemmLevel::Portable, GemmElem::F32) => GEMM_PORTABLE_F32,
        (GemmLevel::Portable, GemmElem::F64) => GEMM_PORTABLE_F64,
    }
}

/// The largest extent of k the direct (unpacked) regime takes.
pub const GEMM_DIRECT_K: usize = 64;
/// The largest extent of m and of n the direct regime takes.
pub const GEMM_DIRECT_MN: usize = 64;
/// The most multiply-adds `m·n·k` the direct regime takes: all of 64³ (at these sizes
/// packing the operands costs more than it saves).
pub const GEMM_DIRECT_MNK: usize = 64 * 64 * 64;
/// The largest span of a column-major A in bytes that the AVX-512 level reads in place
/// ([`GemmBlocking::reads_a_in_place`]): an A that stays in L2 (half of a 1 MiB L2, a
/// quarter of the AVX-512 reference's 2 MiB).
pub const GEMM_A_IN_PLACE_BYTES: usize = 512 << 10;
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
    /// The AVX2 blocking with its cache blocks computed from `caches`: `KC` so that the B
    /// micro-panel takes [`AVX2_KC_L1_64THS`]/64 of L1d (a multiple of 16, 64 to 1024), `MC`
    /// so that the A block takes [`AVX2_MC_L2_64THS`]/64 of L2 (a multiple of `MR`, at most
    /// 4096); `NC` stays the constant's (the B block is left to L3, whose size a VM may report
    /// oddly). Other levels are returned as they are (the AVX-512 kernels' B panels have the
    /// column stride `KC` built in). For [`ZEN3_CACHES`] the result is the constant. Defined
    /// for every input (tiny caches give the smallest blocks).
    pub const fn for_caches(&self, caches: CacheSizes) -> GemmBlocking {
        if !matches!(self.level, GemmLevel::Avx2) {
            return *self;
        }
        let e = self.elem.bytes();
        let kc = clamp_down(caches.l1d / 64 * AVX2_KC_L1_64THS / (self.nr * e), 16, 64, 1024);
        let mc = clamp_down(caches.l2 / 64 * AVX2_MC_L2_64THS / (kc * e), self.mr, self.mr, 4096);
        GemmBlocking { kc, mc, ..*self }
    }

    /// The caches the constant blocks of this level are for: [`SAPPHIRE_RAPIDS_CACHES`] for
    /// AVX-512, [`ZEN3_CACHES`] otherwise.
    pub const fn design_caches(&self) -> CacheSizes {
        match self.level {
            GemmLevel::Avx512 => SAPPHIRE_RAPIDS_CACHES,
            _ => ZEN3_CACHES,
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
    #[inline]
    pub const fn blocks(&self, m: usize, n: usize, k: usize) -> GemmBlocks {
        GemmBlocks { mc: even(m, self.mc, self.mr), nc: even(n, self.nc, self.nr), kc: even(k, self.kc, 1) }
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

    /// Whether the blocked engine reads the full A micro-panels of a normalized `m×k` problem
    /// in place instead of packing them (an edge panel of fewer than `MR` rows is still
    /// packed; the micro-kernels take A's column stride for `MR`): at the levels whose packed
    /// B panels are column-major ([`BPanelOrder::Columns`], AVX-512), when A is column-major
    /// (`a_rs = 1`, `a_cs > 0`) and the span of its elements,
    /// `((k-1)·a_cs + m)·size_of(T)`, is at most [`GEMM_A_IN_PLACE_BYTES`]: A then stays in
    /// L2 and its `k` columns in the first-level TLB, and packing it would be one more pass.
    /// Defined for every input.
    #[inline]
    pub const fn reads_a_in_place(&self, m: usize, k: usize, a_rs: isize, a_cs: isize) -> bool {
        if !matches!(self.b_order, BPanelOrder::Columns) || a_rs != 1 || a_cs <= 0 || m < self.mr || k == 0 {
            return false;
        }
        let span = (k - 1).saturating_mul(a_cs as usize).saturating_add(m);
        span.saturating_mul(self.elem.bytes()) <= GEMM_A_IN_PLACE_BYTES
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
    use super::*;

    #[test]
    fn a_is_read_in_place_when_column_major_and_small() {
        let f32_ = GEMM_AVX512_F32;
        assert!(f32_.reads_a_in_place(256, 256, 1, 256));
        // The span `((k-1)·a_cs + m)·4` at the limit (2048·64 elements) and one element past it.
        assert_eq!(GEMM_A_IN_PLACE_BYTES, 2048 * 64 * 4);
        assert!(f32_.reads_a_in_place(64, 2048, 1, 64));
        assert!(!f32_.reads_a_in_place(65, 2048, 1, 64));
        assert!(!f32_.reads_a_in_place(256, 256, 256, 1), "row-major");
        assert!(!f32_.reads_a_in_place(256, 256, 1, -256), "reversed columns");
        assert!(!f32_.reads_a_in_place(256, 256, 1, 0), "a broadcast column");
        assert!(!f32_.reads_a_in_place(31, 256, 1, 31), "fewer rows than MR: all edge");
        assert!(!f32_.reads_a_in_place(256, 0, 1, 256));
        assert!(!f32_.reads_a_in_place(usize::MAX, usize::MAX, 1, isize::MAX), "saturates");
        assert!(GEMM_AVX512_F64.reads_a_in_place(256, 256, 1, 256));
        assert!(!GEMM_AVX512_F64.reads_a_in_place(256, 256, 1, 257));
        for plan in [GEMM_AVX2_F32, GEMM_AVX2_F64, GEMM_PORTABLE_F32, GEMM_PORTABLE_F64] {
            assert!(!plan.reads_a_in_place(256, 256, 1, 256), "{plan:?}");
        }
    }

    #[test]
    fn every_tile_covers_fma_latency_with_few_loads() {
        for b in GEMM_BLOCKINGS {
            assert_eq!(b.mr % b.lanes, 0, "{b:?}");
            assert_eq!(b.mc % b.mr, 0, "{b:?}");
            assert_eq!(b.nc % b.nr, 0, "{b:?}");
            assert_eq!(GEMM_PAR_GRAIN_M % b.mr, 0, "{b:?}");
            assert_eq!(GEMM_PAR_GRAIN_N % b.nr, 0, "{b:?}");
            assert!(b.narrow_nr.windows(2).all(|w| w[0] < w[1]) && b.narrow_nr.iter().all(|&w| w < b.nr));
            assert_eq!(gemm_blocking(b.level, b.elem), b);
            if b.level != GemmLevel::Portable {
                // FMA latency 4 × 2 ports: at least 8 independent accumulators; fewer loads than FMAs.
                assert!(b.accumulators() >= 12, "{b:?}");
                assert!(b.loads_per_step() < b.accumulators(), "{b:?}");
            }
        }
        assert_eq!(GEMM_AVX512_F32.accumulators(), 24);
        assert_eq!(GEMM_AVX512_F32.loads_per_step(), 14);
        assert_eq!(GEMM_AVX2_F64.accumulators(), 12);
    }

    #[test]
    fn blocks_fit_the_caches() {
        for b in GEMM_BLOCKINGS {
            let (b_micro, a_block, _) = b.footprints();
            let c = b.design_caches();
            assert!(b_micro <= c.l1d / 2, "{b:?}: B micro-panel {b_micro} bytes exceeds half of L1d");
            assert!(a_block <= c.l2 / 2, "{b:?}: A block {a_block} bytes exceeds half of L2");
            // The constants are the blocks of their design caches.
            assert_eq!(b.for_caches(c), b, "{b:?}");
        }
        assert_eq!(GEMM_AVX512_F32.footprints(), (18432, 786432, 6266880));
        assert_eq!(GEMM_AVX2_F32.footprints(), (12288, 262144, 8355840));
    }

    #[test]
    fn avx2_blocks_follow_the_caches() {
        let big = CacheSizes { l1d: 48 << 10, l2: 2 << 20, l3: 0 };
        let b = GEMM_AVX2_F32.for_caches(big);
        assert_eq!((b.kc, b.mc, b.nc), (768, 336, 4080));
        assert_eq!(GEMM_AVX2_F64.for_caches(big).kc, 384);
        let tiny = CacheSizes { l1d: 1, l2: 1, l3: 1 };
        let b = GEMM_AVX2_F64.for_caches(tiny);
        assert_eq!((b.kc, b.mc, b.nc), (64, 8, 4080));
        assert_eq!(GEMM_AVX512_F32.for_caches(tiny), GEMM_AVX512_F32);
        let huge = CacheSizes { l1d: usize::MAX / 2, l2: usize::MAX / 2, l3: 0 };
        let b = GEMM_AVX2_F32.for_caches(huge);
        assert_eq!((b.kc, b.mc), (1024, 4096));
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
        let b = GEMM_AVX512_F32;
        assert_eq!(b.blocks(1024, 1024, 1024), GemmBlocks { mc: 512, nc: 1032, kc: 342 });
        assert_eq!(b.blocks(256, 256, 256), GemmBlocks { mc: 256, nc: 264, kc: 256 });
        assert_eq!(b.blocks(100, 5, 3), GemmBlocks { mc: 128, nc: 12, kc: 3 });
        assert_eq!(b.blocks(0, 0, 0), GemmBlocks { mc: 0, nc: 0, kc: 0 });
        for (m, n, k) in [(1, 1, 1), (385, 4081, 385), (5000, 37, 1000), (usize::MAX, usize::MAX, usize::MAX)] {
            for b in GEMM_BLOCKINGS {
                let x = b.blocks(m, n, k);
                assert!(x.kc <= b.kc && x.mc <= b.mc && x.nc <= b.nc, "{b:?} {x:?}");
                assert!(x.mc % b.mr == 0 && x.nc % b.nr == 0, "{b:?} {x:?}");
                // The blocks cover the extent in ⌈len / max⌉ steps.
                assert!(x.mc.saturating_mul(m.div_ceil(b.mc)) >= m, "{b:?} {x:?}");
            }
        }
    }

    #[test]
    fn packing_layouts_in_the_notation() {
        let b = GEMM_AVX512_F32;
        assert_eq!(b.a_panel(384, 384).unwrap().to_string(), "((32,12),384):((1,12288),32)");
        assert_eq!(b.b_panel(24, 100).unwrap().to_string(), "((12,2),100):((384,4608),1)");
        assert_eq!(GEMM_AVX2_F32.b_panel(12, 100).unwrap().to_string(), "((6,2),100):((1,600),6)");
        // The A panel is a bijection onto [0, mc·kc): packing writes every element once.
        let a = GEMM_AVX2_F64.a_panel(16, 5).unwrap();
        let mut seen = a.table().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (0..80).collect::<Vec<_>>());
        // Not admissible: a block that is not a multiple of the tile, a depth beyond KC.
        assert!(b.a_panel(40, 8).is_err());
        assert!(b.a_panel(0, 8).is_err());
        assert!(b.b_panel(24, 385).is_err());
        assert!(b.a_panel(usize::MAX - 31, 2).is_err());
    }

    #[test]
    fn regimes() {
        assert!(gemm_direct(32, 32, 32));
        assert!(gemm_direct(64, 64, 8));
        assert!(gemm_direct(64, 64, 64));
        assert!(!gemm_direct(65, 1, 1));
        assert!(!gemm_direct(1, 1, 65));
        assert!(!gemm_direct(usize::MAX, usize::MAX, usize::MAX));
        assert!(!gemm_transposes(1, 64));
        assert!(gemm_transposes(64, 1));
        assert!(gemm_transposes(10, 3));
        assert!(!gemm_transposes(3, 10));
    }
}
