//! The drivers, generic over the element word (`u8`..`u64`) and the register tile, always
//! inlined into one non-generic function per level and width (see `x86` and `portable`), so
//! they compile with that level's target features.

use super::Body;
use super::nest::{Plan, for_each};
use core::mem::size_of;
use core::ptr::{copy_nonoverlapping, read_unaligned, write_unaligned};
use layout_plan::Level;

/// The unsigned integer of each element width: what the drivers move.
pub(super) trait Word: Copy + 'static {}
impl Word for u8 {}
impl Word for u16 {}
impl Word for u32 {}
impl Word for u64 {}

/// A register-tile transpose of `R × C` words: `d[j·dld + i] = s[j + i·sld]`, `j < R`,
/// `i < C`, run over the tiles of a region inside cache blocks.
pub(super) trait Tile<W: Word> {
    /// The tile's rows (the source's contiguous direction).
    const R: usize;
    /// The tile's columns (the destination's contiguous direction); `C·size_of::<W>()` is a
    /// multiple of `NT_ALIGN`.
    const C: usize;
    /// Whether `tiles` with `blocks.stream` streams (non-temporal stores); then each
    /// destination row of a tile must be aligned to `NT_ALIGN` bytes.
    const NT_ALIGN: usize = 0;

    /// The level whose cache blocking ([`layout_plan::transpose_blocking_at`]) these tiles
    /// run in.
    const LEVEL: Level = Level::Portable;

    /// Transposes the rows `r0..r1` × columns `c0..c1` (extents multiples of `R` and `C`)
    /// in `blocks`, streaming the stores when `blocks.stream` and `NT_ALIGN > 0`.
    ///
    /// # Safety
    /// The region's source points are readable and destination points writable, not
    /// overlapping; when streaming, `d + r·dld + c0` is `NT_ALIGN`-aligned for every row `r`.
    unsafe fn tiles(
        src: *const W,
        dst: *mut W,
        sld: isize,
        dld: isize,
        rows: (usize, usize),
        cols: (usize, usize),
        blocks: Blocks,
    );

    /// Whether [`Tile::edge`] is a masked register tile (then the driver starts the tiles at
    /// the destination's line boundary and leaves the rest to edges).
    const MASKED: bool = false;

    /// Transposes one partial tile of `h ≤ R` rows × `w ≤ C` columns: scalar unless the
    /// level has masked tiles.
    ///
    /// # Safety
    /// The tile's points are inside the allocations, which do not overlap.
    #[inline(always)]
    unsafe fn edge(src: *const W, dst: *mut W, sld: isize, dld: isize, h: usize, w: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { scalar_rect(src, dst, (0, h), (0, w), sld, dld) }
    }

    /// Orders the streaming stores before later stores (`sfence`); nothing without them.
    #[inline(always)]
    fn fence() {}
}

/// The cache blocks of a transpose ([`layout_plan::TransposeBlocking`] in the drivers'
/// integers): `rows × cols` elements per block, tiles across each block first or down it
/// first, streaming stores or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blocks {
    pub rows: usize,
    pub cols: usize,
    pub across_first: bool,
    pub stream: bool,
}

impl Blocks {
    /// The blocking layout-plan chooses for a `rows × cols` body with destination pitch
    /// `dld`, run at `points` nest points, of `w`-byte elements, at `level`
    /// ([`Level::Portable`]: without streaming stores).
    #[inline(always)]
    pub(super) fn choose(rows: usize, cols: usize, dld: isize, points: usize, w: usize, level: Level) -> Blocks {
        let i = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        let b = layout_plan::transpose_blocking_at(level, i(rows), i(cols), dld as i64, i(points), i(w));
        let u = |v: i64| usize::try_from(v).unwrap_or(usize::MAX);
        Blocks { rows: u(b.rows), cols: u(b.cols), across_first: b.across_first, stream: b.stream }
    }
}

/// Calls `tile(r, c)` for the `tr × tc` tiles of rows `r0..r1` × columns `c0..c1`, in the
/// cache blocks of `b` (rounded to whole tiles): blocks across the columns, then down; inside
/// a block, tiles across first or down first as `b` says.
#[inline(always)]
pub(super) fn blocked(
    b: Blocks,
    (tr, tc): (usize, usize),
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    mut tile: impl FnMut(isize, isize),
) {
    let (br, bc) = ((b.rows / tr).max(1).saturating_mul(tr), (b.cols / tc).max(1).saturating_mul(tc));
    let mut rb = r0;
    while rb < r1 {
        let re = rb.saturating_add(br).min(r1);
        let mut cb = c0;
        while cb < c1 {
            let ce = cb.saturating_add(bc).min(c1);
            if b.across_first {
                // Column stripes (streaming): each source column is read down as adjacent
                // line pairs, each destination row written a line pair at a time.
                let mut r = rb;
                while r < re {
                    let mut c = cb;
                    while c < ce {
                        tile(r as isize, c as isize);
                        c += tc;
                    }
                    r += tr;
                }
            } else {
                // Down the rows first: each source column is then read front to back.
                let mut c = cb;
                while c < ce {
                    let mut r = rb;
                    while r < re {
                        tile(r as isize, c as isize);
                        r += tr;
                    }
                    c += tc;
                }
            }
            cb = ce;
        }
        rb = re;
    }
}

/// A scalar `8 × 8` tile, unrolled; the compiler vectorizes what it can.
pub(super) struct ScalarTile;

impl<W: Word> Tile<W> for ScalarTile {
    const R: usize = 8;
    const C: usize = 8;

    // SAFETY contract: `Tile::tiles`' (every tile point is inside both allocations).
    #[inline(always)]
    unsafe fn tiles(
        src: *const W,
        dst: *mut W,
        sld: isize,
        dld: isize,
        rows: (usize, usize),
        cols: (usize, usize),
        blocks: Blocks,
    ) {
        blocked(blocks, (8, 8), rows, cols, |r, c| {
            for j in r..r + 8 {
                for i in c..c + 8 {
                    // SAFETY: `(j, i)` is inside the region the caller vouches for.
                    unsafe { *dst.offset(j * dld + i) = *src.offset(j + i * sld) };
                }
            }
        });
    }
}

/// A level's SIMD gathers and scatters of constant small strides (a prefix of the run; the
/// driver finishes it with scalar code). The defaults do nothing.
pub(super) trait Strided<W: Word> {
    /// `d[k] = s[k·ss]` for `k < done`; returns `done ≤ len` (0 when the level has no code
    /// for the stride). Loads whole vectors between the run's points, none beyond its last.
    ///
    /// # Safety
    /// Every element from `s` to `s + (len - 1)·ss` readable and `d + k` writable for
    /// `k < len`, not overlapping.
    #[inline(always)]
    unsafe fn gather(_s: *const W, _d: *mut W, _len: usize, _ss: isize) -> usize {
        0
    }

    /// `d[k·ds] = s[k]` for `k < done`; returns `done ≤ len`. Writes no destination point
    /// beyond the run's.
    ///
    /// # Safety
    /// `s + k` readable and `d + k·ds` writable for `k < len`, not overlapping.
    #[inline(always)]
    unsafe fn scatter(_s: *const W, _d: *mut W, _len: usize, _ds: isize) -> usize {
        0
    }
}

impl<W: Word> Strided<W> for ScalarTile {}

/// Streaming (non-temporal) stores of whole 64-byte lines, if the level has them.
pub(super) trait Stream {
    /// Whether [`Stream::lines`] streams.
    const ENABLED: bool = false;

    /// Copies `n` bytes (a multiple of 64) from `s` to a 64-byte aligned `d` with
    /// non-temporal stores.
    ///
    /// # Safety
    /// `n` bytes readable at `s` and writable at `d`, not overlapping; `d` 64-byte aligned.
    #[inline(always)]
    unsafe fn lines(s: *const u8, d: *mut u8, n: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { copy_nonoverlapping(s, d, n) }
    }

    /// Orders the streaming stores before later stores (`sfence`).
    #[inline(always)]
    fn fence() {}
}

/// The portable level: no streaming stores.
pub(super) struct NoStream;
impl Stream for NoStream {}

/// Contiguous runs at least this long (bytes) stream when the whole destination is large.
const STREAM_MIN_RUN: usize = 256;

/// Destinations larger than this (bytes) are written with non-temporal stores when the tile
/// has them: they would not stay in the 2 MiB L2 anyway.
pub(super) const NT_THRESHOLD: usize = 4 << 20;

/// Runs `plan` from `src`/`dst`.
///
/// # Safety
/// The program's contract ([`super::run`]): every offset of the nest is inside the two
/// allocations, which do not overlap.
#[inline(always)]
pub(super) unsafe fn drive<W: Word, K: Tile<W> + Strided<W>, S: Stream>(src: *const W, dst: *mut W, plan: &Plan<'_>) {
    let (loops, sb, db) = (plan.loops(), plan.src_base, plan.dst_base);
    // SAFETY: the program's contract.
    if unsafe { small_body(src, dst, plan, (K::R, K::C)) } {
        return;
    }
    match plan.body {
        Body::Run { len, src: 1, dst: 1 } => {
            let bytes = len * size_of::<W>();
            let points: usize = loops.iter().map(|l| l.extent).product();
            if S::ENABLED && bytes >= STREAM_MIN_RUN && bytes.saturating_mul(points) > NT_THRESHOLD {
                for_each(loops, sb, db, |s, d| {
                    // SAFETY: the run `[s, s + len)` of the nest is inside both allocations
                    // (the program's contract), which do not overlap.
                    unsafe { stream_run::<S>(src.offset(s).cast(), dst.offset(d).cast(), bytes) }
                });
                S::fence();
                return;
            }
            macro_rules! fixed {
                ($n:literal) => {
                    for_each(loops, sb, db, |s, d| {
                        // SAFETY: the run `[s, s + len)` of the nest is inside both
                        // allocations (the program's contract).
                        unsafe { mv::<$n>(src.offset(s).cast(), dst.offset(d).cast()) }
                    })
                };
            }
            match bytes {
                1 => fixed!(1),
                2 => fixed!(2),
                4 => fixed!(4),
                8 => fixed!(8),
                16 => fixed!(16),
                32 => fixed!(32),
                64 => fixed!(64),
                ..=SHORT => for_each(loops, sb, db, |s, d| {
                    // SAFETY: as above.
                    unsafe { copy_short(src.offset(s).cast(), dst.offset(d).cast(), bytes) }
                }),
                _ => for_each(loops, sb, db, |s, d| {
                    // SAFETY: as above; the regions do not overlap (contract).
                    unsafe { copy_nonoverlapping(src.offset(s), dst.offset(d), len) }
                }),
            }
        }
        Body::Run { len, src: 0, dst: 1 } => for_each(loops, sb, db, |s, d| {
            // SAFETY: the source point and the destination run are inside the allocations
            // (contract), and do not overlap.
            unsafe {
                let v = *src.offset(s);
                core::slice::from_raw_parts_mut(dst.offset(d), len).fill(v);
            }
        }),
        Body::Run { len, src: ss, dst: ds } => for_each(loops, sb, db, |s, d| {
            // SAFETY: `s + k·ss` and `d + k·ds`, `k < len`, are points of the nest, and the
            // source offsets between the run's first and last point lie between the program's
            // extremes, all readable (the contract).
            unsafe { strided_run::<W, K>(src.wrapping_offset(s), dst.wrapping_offset(d), len, ss, ds) }
        }),
        Body::Transpose { rows, cols, src_ld, dst_ld } => {
            // The whole destination of the nest decides the blocking (streaming): one body's
            // worth times the number of bodies.
            let points = loops.iter().fold(1usize, |p, l| p.saturating_mul(l.extent));
            let level = if K::NT_ALIGN > 0 { K::LEVEL } else { Level::Portable };
            let blocks = Blocks::choose(rows, cols, dst_ld, points, size_of::<W>(), level);
            for_each(loops, sb, db, |s, d| {
                // SAFETY: the body's rectangle at this point is inside the allocations.
                unsafe { transpose::<W, K>(src.offset(s), dst.offset(d), rows, cols, src_ld, dst_ld, blocks) }
            });
            if blocks.stream {
                K::fence();
            }
        }
    }
}

/// Bodies with at most this many points, inside a nest, run from a table of offsets.
const SMALL_BODY: usize = 64;
/// The most points a table holds (the body times the innermost loops folded into it).
const TABLE: usize = 256;

/// Which side of a table is the contiguous `0..n` (then it is not read from the table).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dense {
    Dst,
    Src,
    Neither,
}

/// A small body inside a loop nest (a tiny transpose, a short strided run) with as much of
/// the innermost loops as fits folded in: one table of `(source, destination)` offsets walked
/// at each point of the remaining nest, instead of the nest's and the body's loop overhead per
/// handful of elements. Returns `false`, doing nothing, when the body is not small (or a
/// whole `tile` of the level fits in it) or there is no loop.
///
/// # Safety
/// The program's contract ([`super::run`]).
#[inline(always)]
unsafe fn small_body<W: Word>(src: *const W, dst: *mut W, plan: &Plan<'_>, tile: (usize, usize)) -> bool {
    let (loops, sb, db) = (plan.loops(), plan.src_base, plan.dst_base);
    let small = match plan.body {
        Body::Run { len, src: ss, dst: ds } => len <= 16 && (ss, ds) != (1, 1),
        // Not when a whole register tile fits (an 8×8 of f64 is one AVX-512 tile).
        Body::Transpose { rows, cols, .. } => {
            rows.saturating_mul(cols) <= SMALL_BODY && (rows < tile.0 || cols < tile.1)
        }
    };
    if loops.is_empty() || !small {
        return false;
    }
    let mut so = [0isize; TABLE];
    let mut dof = [0isize; TABLE];
    let mut n = 0;
    match plan.body {
        Body::Run { len, src: ss, dst: ds } => {
            for k in 0..len as isize {
                (so[n], dof[n]) = (k * ss, k * ds);
                n += 1;
            }
        }
        Body::Transpose { rows, cols, src_ld, dst_ld } => {
            for r in 0..rows as isize {
                for c in 0..cols as isize {
                    (so[n], dof[n]) = (r + c * src_ld, r * dst_ld + c);
                    n += 1;
                }
            }
        }
    }
    // The body in destination order (its destination points are distinct).
    if !dof[..n].is_sorted() {
        let mut pairs = [(0isize, 0isize); SMALL_BODY];
        for k in 0..n {
            pairs[k] = (dof[k], so[k]);
        }
        pairs[..n].sort_unstable();
        for k in 0..n {
            (dof[k], so[k]) = pairs[k];
        }
    }
    // Whole innermost loops fold in while the table has room; then `f` iterations of the next
    // loop, whose remainder runs a prefix of the table (its first `m·unit` points are its
    // first `m` iterations).
    let mut rest = loops;
    let mut split = None;
    let mut unit = n;
    while let Some((l, outer)) = rest.split_first() {
        let f = if n.saturating_mul(l.extent) <= TABLE { l.extent } else { TABLE / n };
        if f < 2 {
            break;
        }
        for e in 1..f {
            for k in 0..n {
                let ei = e as isize;
                (so[e * n + k], dof[e * n + k]) = (so[k] + ei * l.src, dof[k] + ei * l.dst);
            }
        }
        unit = n;
        n *= f;
        rest = outer;
        if f < l.extent {
            let fi = f as isize;
            split = Some((l.extent / f, l.src.wrapping_mul(fi), l.dst.wrapping_mul(fi), l.extent % f));
            break;
        }
    }
    let dense = if dof[..n].iter().enumerate().all(|(k, &o)| o == k as isize) {
        Dense::Dst
    } else if so[..n].iter().enumerate().all(|(k, &o)| o == k as isize) {
        Dense::Src
    } else {
        Dense::Neither
    };
    let (so, dof) = (&so[..n], &dof[..n]);
    // Copies the table's first `m` points at `s`, `d`.
    // SAFETY (of the calls below): `s`, `d` are a point of the remaining nest (after the
    // split loop's iterations), and every table entry `< m` added to it is a point of the
    // program: the table lists the body's points and the folded loops' iterations.
    let copy = |s: *const W, d: *mut W, m: usize| unsafe {
        match dense {
            Dense::Dst => {
                for (k, &o) in so[..m].iter().enumerate() {
                    *d.add(k) = *s.offset(o);
                }
            }
            Dense::Src => {
                for (k, &o) in dof[..m].iter().enumerate() {
                    *d.offset(o) = *s.add(k);
                }
            }
            Dense::Neither => {
                for (&o, &p) in so[..m].iter().zip(&dof[..m]) {
                    *d.offset(p) = *s.offset(o);
                }
            }
        }
    };
    match split {
        None => for_each(rest, sb, db, |s, d| copy(src.wrapping_offset(s), dst.wrapping_offset(d), n)),
        Some((q, qs, qd, rem)) => for_each(rest, sb, db, |s, d| {
            let (mut s, mut d) = (src.wrapping_offset(s), dst.wrapping_offset(d));
            for _ in 0..q {
                copy(s, d, n);
                s = s.wrapping_offset(qs);
                d = d.wrapping_offset(qd);
            }
            copy(s, d, rem * unit);
        }),
    }
    true
}

/// `d[k·ds] = s[k·ss]` for `k < len`: the level's SIMD gather (`ds == 1`) or scatter
/// (`ss == 1`) for the strides it has, then [`strided_scalar`] for the rest.
///
/// # Safety
/// Every element between `s` and `s + (len - 1)·ss` is readable (a gather loads whole
/// vectors between the points) and `d + k·ds` writable for every `k < len`; they do not
/// overlap.
#[inline(always)]
unsafe fn strided_run<W: Word, K: Strided<W>>(s: *const W, d: *mut W, len: usize, ss: isize, ds: isize) {
    // SAFETY: the caller's bounds; the SIMD paths copy a prefix `k < done` and touch no other
    // point, and the rest starts at the points `done` strides on.
    unsafe {
        let done = if ds == 1 && ss != 1 {
            K::gather(s, d, len, ss)
        } else if ss == 1 && ds != 1 {
            K::scatter(s, d, len, ds)
        } else {
            0
        };
        let k = done as isize;
        strided_scalar(s.wrapping_offset(k * ss), d.wrapping_offset(k * ds), len - done, ss, ds);
    }
}

/// `d[k·ds] = s[k·ss]` for `k < len`, unrolled by 8: eight independent loads, then eight
/// stores, the pointers stepping by eight strides (no index multiplies in the loop).
///
/// # Safety
/// `s + k·ss` is readable and `d + k·ds` writable for every `k < len`; they do not overlap.
#[inline(always)]
unsafe fn strided_scalar<W: Word>(mut s: *const W, mut d: *mut W, mut len: usize, ss: isize, ds: isize) {
    // SAFETY: every access is `s + k·ss` / `d + k·ds` with `k < len` of the caller's run;
    // pointers past the run are only formed with `wrapping_offset`, never dereferenced.
    unsafe {
        while len >= 8 {
            let v = [
                *s,
                *s.offset(ss),
                *s.offset(2 * ss),
                *s.offset(3 * ss),
                *s.offset(4 * ss),
                *s.offset(5 * ss),
                *s.offset(6 * ss),
                *s.offset(7 * ss),
            ];
            *d = v[0];
            *d.offset(ds) = v[1];
            *d.offset(2 * ds) = v[2];
            *d.offset(3 * ds) = v[3];
            *d.offset(4 * ds) = v[4];
            *d.offset(5 * ds) = v[5];
            *d.offset(6 * ds) = v[6];
            *d.offset(7 * ds) = v[7];
            s = s.wrapping_offset(8 * ss);
            d = d.wrapping_offset(8 * ds);
            len -= 8;
        }
        while len > 0 {
            *d = *s;
            s = s.wrapping_offset(ss);
            d = d.wrapping_offset(ds);
            len -= 1;
        }
    }
}

/// Copies `n ≥ 64` bytes: an unaligned head up to the destination's next 64-byte line,
/// streamed whole lines, an unaligned tail.
///
/// # Safety
/// `n` bytes readable at `s`, writable at `d`, not overlapping.
#[inline(always)]
unsafe fn stream_run<S: Stream>(s: *const u8, d: *mut u8, n: usize) {
    let head = (d.align_offset(64)).min(n);
    let lines = (n - head) / 64 * 64;
    // SAFETY: head, lines and tail partition `[0, n)`; `d + head` is 64-byte aligned (or
    // `lines` is 0); the pieces are at most `SHORT` bytes except the streamed lines.
    unsafe {
        copy_short(s, d, head);
        S::lines(s.add(head), d.add(head), lines);
        copy_short(s.add(head + lines), d.add(head + lines), n - head - lines);
    }
}

/// Runs up to this many bytes are copied inline, in 128-byte steps (no call and no size
/// dispatch per run); longer ones call `copy_nonoverlapping`.
const SHORT: usize = 4096;

/// Copies `N` bytes as one unaligned move (a vector register for 16, 32, 64).
///
/// # Safety
/// `N` bytes readable at `s`, writable at `d`.
#[inline(always)]
unsafe fn mv<const N: usize>(s: *const u8, d: *mut u8) {
    // SAFETY: the caller's bound; unaligned accesses.
    unsafe { write_unaligned(d.cast::<[u8; N]>(), read_unaligned(s.cast::<[u8; N]>())) }
}

/// Copies `n ≤ SHORT` bytes with straight moves: two overlapping moves of the largest power
/// of two not above `n` (up to 32), after loops of 128-byte and then 32-byte moves.
///
/// # Safety
/// `n` bytes readable at `s`, writable at `d`, not overlapping.
#[inline(always)]
unsafe fn copy_short(s: *const u8, d: *mut u8, n: usize) {
    // SAFETY: every move below lies in `[0, n)`: the pairs start at 0 and end at `n`, the
    // 128-byte loop stops before `n - 128` and the 32-byte loop before `n - 32`.
    unsafe {
        if n >= 32 {
            let mut k = 0;
            while k + 128 < n {
                mv::<32>(s.add(k), d.add(k));
                mv::<32>(s.add(k + 32), d.add(k + 32));
                mv::<32>(s.add(k + 64), d.add(k + 64));
                mv::<32>(s.add(k + 96), d.add(k + 96));
                k += 128;
            }
            while k + 32 < n {
                mv::<32>(s.add(k), d.add(k));
                k += 32;
            }
            mv::<32>(s.add(n - 32), d.add(n - 32));
        } else if n >= 16 {
            mv::<16>(s, d);
            mv::<16>(s.add(n - 16), d.add(n - 16));
        } else if n >= 8 {
            mv::<8>(s, d);
            mv::<8>(s.add(n - 8), d.add(n - 8));
        } else if n >= 4 {
            mv::<4>(s, d);
            mv::<4>(s.add(n - 4), d.add(n - 4));
        } else if n >= 2 {
            mv::<2>(s, d);
            mv::<2>(s.add(n - 2), d.add(n - 2));
        } else if n == 1 {
            mv::<1>(s, d);
        }
    }
}

/// The rectangle `rows r0..r1 × cols c0..c1` in partial tiles ([`Tile::edge`]).
///
/// # Safety
/// The rectangle's source and destination points are inside the allocations.
#[inline(always)]
unsafe fn edges<W: Word, K: Tile<W>>(
    src: *const W,
    dst: *mut W,
    sld: isize,
    dld: isize,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
) {
    let mut r = r0;
    while r < r1 {
        let h = (r1 - r).min(K::R);
        let mut c = c0;
        while c < c1 {
            let w = (c1 - c).min(K::C);
            let (ri, ci) = (r as isize, c as isize);
            // SAFETY: the partial tile at `(r, c)` is inside the rectangle.
            unsafe { K::edge(src.offset(ri + ci * sld), dst.offset(ri * dld + ci), sld, dld, h, w) };
            c += w;
        }
        r += h;
    }
}

/// The scalar transpose of the rectangle `rows r0..r1 × cols c0..c1`.
///
/// # Safety
/// The rectangle's source and destination points are inside the allocations.
#[inline(always)]
unsafe fn scalar_rect<W: Word>(
    src: *const W,
    dst: *mut W,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    sld: isize,
    dld: isize,
) {
    for r in r0 as isize..r1 as isize {
        for c in c0 as isize..c1 as isize {
            // SAFETY: `(r, c)` is a point of the rectangle.
            unsafe { *dst.offset(r * dld + c) = *src.offset(r + c * sld) };
        }
    }
}

/// `dst[r·dld + c] = src[r + c·sld]` for `r < rows`, `c < cols`: register tiles inside the
/// cache blocks `blocks`, scalar or masked edges; streaming stores when `blocks.stream` and
/// the destination rows allow (else the square blocks of a copy that stays in the caches).
///
/// # Safety
/// Every point of the rectangle is inside the allocations, which do not overlap.
#[inline(always)]
unsafe fn transpose<W: Word, K: Tile<W>>(
    src: *const W,
    dst: *mut W,
    rows: usize,
    cols: usize,
    sld: isize,
    dld: isize,
    mut blocks: Blocks,
) {
    let (tr, tc) = (K::R, K::C);
    let w = size_of::<W>();
    // Tiles write whole destination lines when the row pitch is a multiple of the line and the
    // tiles start at the first row's line boundary `c0`; the columns before it (and the rest)
    // are edges. Streaming needs that; masked edges make it worth it without streaming too.
    let line = K::NT_ALIGN;
    let mut c0 = 0;
    let pitch_ok = line > 0 && (dld * w as isize).rem_euclid(line as isize) == 0;
    let mis = if line > 0 { (dst as usize) % line } else { 0 };
    let nt = blocks.stream && pitch_ok && mis.is_multiple_of(w);
    if blocks.stream && !nt {
        blocks = if K::LEVEL == Level::Avx2 {
            // The same stripes, cut into the blocks of a copy that is not streamed.
            Blocks { rows: layout_plan::AVX2_BAND_ROWS as usize, stream: false, ..blocks }
        } else {
            Blocks::choose(rows, cols, dld, 1, w, Level::Portable)
        };
    }
    // AVX2 tiles align too, with scalar edges, so that no tile row straddles two lines (as
    // it would in a destination 16 bytes past a page, where glibc's large vectors start).
    let align = K::MASKED || K::LEVEL == Level::Avx2;
    if (nt || (align && pitch_ok)) && mis != 0 && mis.is_multiple_of(w) {
        c0 = ((line - mis) / w).min(cols);
    }
    // Likewise the source lines, along the rows, when the edges are masked tiles.
    let mut r0 = 0;
    let smis = if line > 0 { (src as usize) % line } else { 0 };
    if K::MASKED && (sld * w as isize).rem_euclid(line as isize) == 0 && smis != 0 && smis.is_multiple_of(w) {
        r0 = ((line - smis) / w).min(rows);
    }
    let rows_main = r0 + (rows - r0) / tr * tr;
    let cols_main = c0 + (cols - c0) / tc * tc;
    if rows_main > r0 && cols_main > c0 {
        // SAFETY: the main region is inside the rectangle; when streaming, `dst + c0` is
        // aligned and so is every row (`dld·w` is a multiple of the alignment).
        unsafe { K::tiles(src, dst, sld, dld, (r0, rows_main), (c0, cols_main), blocks) };
    }
    // SAFETY: the edges are parts of the rectangle.
    unsafe {
        edges::<W, K>(src, dst, sld, dld, (0, r0), (0, cols));
        edges::<W, K>(src, dst, sld, dld, (r0, rows_main), (0, c0));
        edges::<W, K>(src, dst, sld, dld, (r0, rows_main), (cols_main, cols));
        edges::<W, K>(src, dst, sld, dld, (rows_main, rows), (0, cols));
    }
}
