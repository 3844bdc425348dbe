//! Copy kernels: precompiled drivers that run a copy plan (the loop nest and its body) with
//! SIMD, chosen at run time by [`dispatch`](crate::kernels::dispatch). The code `layout!` emits
//! for a `copy` item builds a [`CopyProgram`](crate::kernels::CopyProgram) from constants and
//! calls [`copy`](crate::kernels::copy), which checks the program's extremes against the
//! [`SrcView`](crate::kernels::SrcView) and [`DstView`](crate::kernels::DstView) of its
//! arguments and runs [`run`](crate::kernels::run); the big loops live here, compiled at this
//! crate's optimization level, not the caller's: in a debug build,
//! `[profile.dev.package.cute-layout] opt-level = 3` in your manifest keeps them fast while
//! your own code stays unoptimized ([getting started](crate::guide::getting_started#the-dependency);
//! the figures of both builds are in the repository's BENCHMARKS.md).
//!
//! A program copies `dst[dst_base + Σ c_k·dst_k + body] = src[src_base + Σ c_k·src_k + body]`
//! for every coordinate `c` of the loop nest, the body doing the innermost one or two modes.
//!
//! What runs, per body:
//! - a contiguous run (`Run { src: 1, dst: 1 }`): without loops and below the streaming
//!   threshold, `copy_nonoverlapping` in [`run`](crate::kernels::run) itself; otherwise straight unaligned vector
//!   moves up to 4 KiB, `copy_nonoverlapping` beyond; streaming (non-temporal) stores of whole lines when
//!   the runs are at least 256 bytes and the program writes more than 4 MiB (AVX2, AVX-512).
//!   Loops that continue the run (or each other) are merged first, so a program that is one
//!   contiguous block is one copy;
//! - a broadcast (`Run { src: 0, dst: 1 }`): one load, vector fills;
//! - other strides: a gather (`dst == 1`) or scatter (`src == 1`) of stride 2..=4 loads whole
//!   vectors and permutes their lanes (AVX-512, 4- and 8-byte elements; scatters store masked);
//!   everything else a scalar loop unrolled by 8 with independent loads;
//! - a transpose: register tiles (AVX-512 16×16 of 4-byte and 8×8 of 8-byte elements, AVX2
//!   8×16 and 4×8, scalar 8×8 otherwise and for 1- and 2-byte elements) inside the cache
//!   blocks of `layout_plan::transpose_blocking_at` for the level. AVX-512: 4 KiB square
//!   blocks while the copy fits the caches (the destination lines ahead prefetched); once the
//!   whole destination exceeds 1 MiB, column stripes 128 bytes wide, two tiles across then
//!   down, written with streaming stores. AVX2: column stripes one 64-byte
//!   line wide walked down, in bands of 256 rows while the destination is at most 8 MiB, the
//!   whole height and streamed beyond. Tiles start at the destination's 64-byte line
//!   boundaries (AVX-512 and AVX2) and the source's (AVX-512), with masked partial tiles
//!   around them (AVX-512; scalar edges otherwise);
//! - a small body inside a loop nest (a transpose of at most 64 points, a strided run of at
//!   most 16): a table of offsets with the innermost loops folded in, walked at each point of
//!   the rest of the nest.
//!
//! `LAYOUT_SIMD_LEVEL=portable|avx2|avx512` caps the level (read once);
//! [`force_level`](crate::kernels::force_level) lowers it from code.

mod checked;
pub mod dispatch;
mod driver;
mod element;
mod nest;
mod portable;
mod sum;
mod view;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use checked::{
    CopyProgram, StridedTile, UNROLL_MAX, UnrolledCopy, copy, copy_indexed, copy_strided_tile, copy_unrolled,
};
pub use dispatch::{Level, force_level, level};
pub(crate) use element::sealed::Sealed;
pub use element::{Element, Width};
/// The copy program (loops and body) and its extremes: layout-plan's, which the code
/// `layout!` emits writes as constants.
pub use layout_plan::{Body, Extremes, Loop, Program};
pub use view::{DstView, SrcView};

/// Runs `program`: `dst[dst_base + Σ c_k·dst_k + body] = src[src_base + Σ c_k·src_k + body]`
/// for every point of the nest, at the SIMD [`level`] in effect. Forwards to one
/// precompiled driver per element width, so it costs a call whatever the caller's
/// optimization level.
///
/// Loops of extent 1 are skipped, loops that continue each other (or the body's run) are
/// merged, and a program with an empty loop or body copies nothing.
///
/// [`copy`] is the checked form.
///
/// # Safety
/// - With `(min, max)` the source [`Extremes`] of the program ([`Program::extremes`]: the
///   smallest and largest `src_base + Σ c_k·program.loops[k].src + b` over every coordinate
///   `c` of the nest and every offset `b` the body reads, `k·src` for `k < len` of a run,
///   `r + c·src_ld` for `r < rows`, `c < cols` of a transpose), every offset in `min..=max`
///   is inside the allocation `src` points into and valid for reads (the AVX-512 gathers load
///   whole vectors between the points of a run).
/// - Every offset between the destination extremes is inside the allocation `dst` points
///   into and valid for writes (only the program's points are written).
/// - The source and destination regions do not overlap.
/// - Both pointers are aligned for `T`.
///
/// ```
/// use cute_layout::kernels::{Body, Program, run};
///
/// let p = Program { body: Body::Transpose { rows: 8, cols: 3, src_ld: 8, dst_ld: 3 }, loops: &[], src_base: 0, dst_base: 0 };
/// let src: Vec<f32> = (0..24).map(|x| x as f32).collect();
/// let mut dst = vec![0f32; 24];
/// // SAFETY: the program reads offsets 0..=23 of `src` and writes 0..=23 of `dst` (its
/// // extremes); both hold 24 elements and do not overlap.
/// unsafe { run(src.as_ptr(), dst.as_mut_ptr(), &p) };
/// assert_eq!(dst[..4], [0.0, 8.0, 16.0, 1.0]);
/// ```
#[inline]
pub unsafe fn run<T: Element>(src: *const T, dst: *mut T, program: &Program<'_>) {
    // One contiguous block that will not stream: a `memcpy` here, without the dispatch and
    // the plan (the program is a constant in emitted code, so this folds to the call).
    if let Body::Run { len, src: 1, dst: 1 } = program.body
        && program.loops.is_empty()
        && len > 0
        && len.saturating_mul(size_of::<T>()) <= driver::NT_THRESHOLD
    {
        // SAFETY: the caller's contract: the run's `len` elements from each base are inside
        // the allocations, which do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(src.offset(program.src_base), dst.offset(program.dst_base), len) };
        return;
    }
    // SAFETY: the caller's contract; `T` is a primitive of the width named by `T::WIDTH`
    // (sealed), and the unsigned integer of that width has the same size and alignment.
    unsafe {
        match T::WIDTH {
            Width::W1 => run_w1(src.cast(), dst.cast(), program),
            Width::W2 => run_w2(src.cast(), dst.cast(), program),
            Width::W4 => run_w4(src.cast(), dst.cast(), program),
            Width::W8 => run_w8(src.cast(), dst.cast(), program),
        }
    }
}

macro_rules! width_entry {
    ($($name:ident: $w:ty => $portable:ident, $avx2:ident, $avx512:ident;)*) => {$(
        /// The precompiled driver of one element width: picks the level's entry.
        ///
        /// # Safety
        /// The contract of [`run`].
        unsafe fn $name(src: *const $w, dst: *mut $w, program: &Program<'_>) {
            match level() {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `level()` never exceeds what the CPU supports; the contract of `run`.
                Level::Avx512 => unsafe { x86::$avx512(src, dst, program) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: as above.
                Level::Avx2 => unsafe { x86::$avx2(src, dst, program) },
                // SAFETY: the contract of `run`.
                _ => unsafe { portable::$portable(src, dst, program) },
            }
        }
    )*};
}

width_entry! {
    run_w1: u8 => portable_w1, avx2_w1, avx512_w1;
    run_w2: u16 => portable_w2, avx2_w2, avx512_w2;
    run_w4: u32 => portable_w4, avx2_w4, avx512_w4;
    run_w8: u64 => portable_w8, avx2_w8, avx512_w8;
}
