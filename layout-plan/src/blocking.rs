//! Cache blocking of a transpose body (`CopyBody::Transpose`): which cache blocks the
//! register tiles are walked in, and whether the destination is written with non-temporal
//! (streaming) stores. Chosen from the sizes and the element width alone, so that the
//! facade's drivers and `layout explain` agree. The thresholds assume a reference cache
//! configuration per level: 48 KiB L1d and 2 MiB L2 per core for the AVX-512 tiles; 32 KiB
//! L1d, 512 KiB L2 per core and 32 MiB L3 for the AVX2 tiles ([`transpose_blocking_at`]).

use std::fmt;

use crate::level::Level;

/// Bytes of destination per square cache block while the copy stays in the caches: 4 KiB
/// (32×32 of 4-byte elements), so a block's source and destination take 8 KiB of L1d.
pub const SQUARE_BLOCK_BYTES: i64 = 4096;

/// Destinations larger than this (bytes, the whole copy) are streamed: source and destination
/// together then exceed a 2 MiB L2, and the destination lines would be read for ownership
/// from L3 or memory only to be evicted again.
pub const STREAM_BYTES: i64 = 1 << 20;

/// Bytes of each destination row one streamed block writes: two 64-byte lines, so each
/// source column is read as adjacent line pairs and each write-combining buffer fills.
pub const STREAM_ROW_BYTES: i64 = 128;

/// Destination rows must start on this boundary (bytes) for streaming stores.
pub const LINE_BYTES: i64 = 64;

/// Bytes of each destination row one AVX2 streamed stripe writes: one 64-byte line. A
/// stripe reads one sequential stream per source column walked down the whole height: 16
/// for f32, half the 32 of the AVX-512 stripes of 128 bytes, so that the hardware
/// prefetchers follow every one.
pub const AVX2_STREAM_ROW_BYTES: i64 = 64;

/// AVX2 destinations larger than this (bytes, the whole copy) are streamed: a quarter of the
/// reference 32 MiB L3. Up to it, source and destination together stay in L3 and are not
/// streamed to memory.
pub const AVX2_STREAM_BYTES: i64 = 8 << 20;

/// Rows of one AVX2 cache block while the copy stays in the caches: the block is a column
/// stripe one line of the destination wide (16 f32) walked down this many rows, so that it
/// reads 16 KiB of source and writes 16 KiB of destination, half of a 32 KiB L1d, and
/// touches 256 destination pages at most (the L2 TLB holds 2048).
pub const AVX2_BAND_ROWS: i64 = 256;

/// How the register tiles of a `rows × cols` transpose body are walked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TransposeBlocking {
    /// Rows of one cache block (the drivers round it to a multiple of their tile, at least one).
    pub rows: i64,
    /// Columns of one cache block (likewise rounded).
    pub cols: i64,
    /// Inside a block the tiles go across the columns first (else down the rows first).
    /// Blocks themselves go across the columns, then down.
    pub across_first: bool,
    /// Non-temporal stores of whole destination lines (then `sfence`).
    pub stream: bool,
}

/// The blocking of a `rows × cols` transpose body, with destination row pitch `dst_ld`
/// elements of `elem_bytes`, run at `points` points of its loop nest; `streams` says whether
/// the level has streaming tiles.
///
/// Definition: when the whole destination `rows·cols·points·elem_bytes` exceeds
/// [`STREAM_BYTES`], the level streams and each destination row starts a line
/// (`dst_ld·elem_bytes ≡ 0 mod 64`): column stripes `rows × (128 / elem_bytes)`, tiles across
/// the stripe then down, streamed. Otherwise square blocks of at most [`SQUARE_BLOCK_BYTES`]
/// with a power-of-two side, tiles down the rows first. Admissible for every input (sizes saturate; `elem_bytes ≥ 1`).
pub fn transpose_blocking(
    rows: i64,
    cols: i64,
    dst_ld: i64,
    points: i64,
    elem_bytes: i64,
    streams: bool,
) -> TransposeBlocking {
    let level = if streams { Level::Avx512 } else { Level::Portable };
    transpose_blocking_at(level, rows, cols, dst_ld, points, elem_bytes)
}

/// The blocking of a `rows × cols` transpose body at `level` (the arguments as in
/// [`transpose_blocking`], which is this at [`Level::Avx512`] when `streams`, at
/// [`Level::Portable`] otherwise).
///
/// At [`Level::Avx2`], a destination beyond [`AVX2_STREAM_BYTES`] whose rows start
/// lines is streamed in column stripes `rows × (64 / elem_bytes)` ([`AVX2_STREAM_ROW_BYTES`])
/// walked down, one tile across; otherwise the stripes are cut into blocks of
/// [`AVX2_BAND_ROWS`] rows and not streamed.
pub fn transpose_blocking_at(
    level: Level,
    rows: i64,
    cols: i64,
    dst_ld: i64,
    points: i64,
    elem_bytes: i64,
) -> TransposeBlocking {
    let e = elem_bytes.max(1);
    let dst_bytes = rows.max(0).saturating_mul(cols.max(0)).saturating_mul(points.max(1)).saturating_mul(e);
    let pitch_ok = dst_ld.unsigned_abs().saturating_mul(e.unsigned_abs()).is_multiple_of(LINE_BYTES as u64);
    if level == Level::Avx2 {
        let stream = pitch_ok && dst_bytes > AVX2_STREAM_BYTES;
        let band = if stream { rows.max(1) } else { AVX2_BAND_ROWS };
        return TransposeBlocking { rows: band, cols: (AVX2_STREAM_ROW_BYTES / e).max(1), across_first: false, stream };
    }
    if level == Level::Avx512 && pitch_ok && dst_bytes > STREAM_BYTES {
        return TransposeBlocking {
            rows: rows.max(1),
            cols: (STREAM_ROW_BYTES / e).max(1),
            across_first: true,
            stream: true,
        };
    }
    // The largest power of two whose square fits the block: 32 for 4-byte elements, 16 for 8.
    let mut side = 1i64;
    while (2 * side) * (2 * side) * e <= SQUARE_BLOCK_BYTES {
        side *= 2;
    }
    TransposeBlocking { rows: side.max(1), cols: side.max(1), across_first: false, stream: false }
}

impl fmt::Display for TransposeBlocking {
    /// `32x32 blocks, tiles down the rows first` or `1024x32 blocks (column stripes), tiles
    /// across then down, streaming stores`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} blocks", self.rows, self.cols)?;
        if self.across_first {
            write!(f, ", tiles across each block then down")?;
        } else {
            write!(f, ", tiles down each block then across")?;
        }
        if self.stream {
            write!(f, ", streaming (non-temporal) stores")?;
        }
        Ok(())
    }
}
