//! The copy plan (paper §4.1, Table 2): one generic COPY of a source layout S to a destination
//! layout D of equal size, `dst[D(i)] = src[S(i)]` for every index i, decided once as plain
//! data: the joint modes of S and D, the common contiguous vector, broadcast modes, the loop
//! nest, and the body that runs inside it (a vector, broadcast, gather/scatter run, or a
//! register-tile transpose). The facade's kernels run the plan; `layout explain` prints it.
//!
//! Steps:
//! 1. Joint modes: the common refinement of `coalesce(S)` and `coalesce(D)`: walk both flat
//!    mode lists and split the larger extent where the smaller one divides it, so that every
//!    joint mode `n:(s,d)` is one mode of each side. When no refinement exists (a boundary of
//!    one side falls off-step in the other, e.g. `(2,3)` against `(3,2)`), the copy is
//!    *indexed*: every element pays its index arithmetic.
//! 2. Destination stride-0 modes are reduced to their last write (only with `overlapping`,
//!    else the copy is rejected: two writes to one place lose data).
//! 3. An injective destination may be traversed in any order: modes are flipped to positive
//!    destination strides, sorted by destination stride and merged where both sides continue
//!    (CuTe's `coalesce(S ∘ D‡)`), so the first joint mode with strides `(1,1)` is the common
//!    vector (`max_common_vector`). A non-injective destination keeps index order, so the last
//!    write wins as in a sequential loop.
//! 4. Body: the innermost mode, or, when the destination is contiguous along one mode and the
//!    source along another, a `rows × cols` transpose of those two modes.

use std::fmt;

use crate::blocking::{TransposeBlocking, transpose_blocking};
use crate::program::{Body, Loop, ProgramBuf, ProgramRange, to_isize, to_usize};
use layout_core::Layout;
use layout_core::checked;
use layout_core::coalesce;
use layout_core::{LayoutError, Result};

/// The largest destination the injectivity check enumerates when the sorted-stride test does
/// not decide it.
const INJECTIVITY_LIMIT: i64 = 1 << 22;

/// One mode of a copy: `extent` steps of `src` elements in the source and `dst` elements in
/// the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyMode {
    /// The number of steps.
    pub extent: i64,
    /// The source stride, in elements.
    pub src: i64,
    /// The destination stride, in elements.
    pub dst: i64,
}

impl fmt::Display for CopyMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:({},{})", self.extent, self.src, self.dst)
    }
}

/// What runs at each point of the loop nest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CopyBody {
    /// `len` elements with strides `src` and `dst`: a vector when both are 1, a broadcast
    /// (load once, store `len` times) when `src` is 0, a gather or scatter otherwise.
    Run {
        /// The number of elements.
        len: i64,
        /// The source stride.
        src: i64,
        /// The destination stride.
        dst: i64,
    },
    /// `dst[r·dst_ld + c] = src[r + c·src_ld]` for `r < rows`, `c < cols`: the source is
    /// contiguous along rows, the destination along columns (register-tile transposes).
    Transpose {
        /// The extent along which the source is contiguous.
        rows: i64,
        /// The extent along which the destination is contiguous.
        cols: i64,
        /// The source's stride between columns.
        src_ld: i64,
        /// The destination's stride between rows.
        dst_ld: i64,
    },
    /// No common refinement of the two shapes: `dst[D(i)] = src[S(i)]` with the index
    /// arithmetic of both layouts per element.
    Indexed,
}

/// The plan of `copy(S, D)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    /// The source layout S.
    pub src: Layout,
    /// The destination layout D.
    pub dst: Layout,
    /// `size(S) = size(D)`: the number of elements copied.
    pub size: i64,
    /// The common refinement of the coalesced layouts, in index order (empty when indexed).
    pub joint: Vec<CopyMode>,
    /// Destination stride-0 modes reduced to their last write (`overlapping` copies only).
    pub reduced: Vec<CopyMode>,
    /// Whether the destination is injective (else the plan keeps index order).
    pub injective: bool,
    /// The number of elements contiguous on both sides (CuTe's `max_common_vector`), ≥ 1.
    pub vector: i64,
    /// Modes along which the source is constant (stride 0) while the destination moves:
    /// loaded once, stored many times.
    pub broadcast: Vec<CopyMode>,
    /// What runs at each point of the loop nest.
    pub body: CopyBody,
    /// The loop nest around the body, innermost first.
    pub loops: Vec<CopyMode>,
    /// Offsets of the first element: non-zero after negative destination strides were
    /// flipped or destination stride-0 modes were reduced.
    pub src_base: i64,
    /// The destination's offset of the first element (see `src_base`).
    pub dst_base: i64,
}

/// Plans `copy(src, dst)`. Requires `size(src) = size(dst)`, and an injective destination
/// unless `overlapping` (then each destination element receives the value of the last index
/// that writes it, as a sequential loop would leave it).
pub fn copy_plan(src: &Layout, dst: &Layout, overlapping: bool) -> Result<CopyPlan> {
    if src.size() != dst.size() {
        return Err(LayoutError::CopySize {
            src: src.to_string(),
            dst: dst.to_string(),
            src_size: src.size(),
            dst_size: dst.size(),
        });
    }
    let injective = match injectivity_witness(dst)? {
        None => true,
        Some((i, j, offset)) if !overlapping => {
            return Err(LayoutError::CopyNotInjective { dst: dst.to_string(), i, j, offset });
        }
        Some(_) => false,
    };
    let mut plan = CopyPlan {
        src: src.clone(),
        dst: dst.clone(),
        size: src.size(),
        joint: Vec::new(),
        reduced: Vec::new(),
        injective,
        vector: 1,
        broadcast: Vec::new(),
        body: CopyBody::Indexed,
        loops: Vec::new(),
        src_base: 0,
        dst_base: 0,
    };
    let Some(joint) = refine(&coalesce(src).flat_modes(), &coalesce(dst).flat_modes())? else {
        return Ok(plan);
    };
    plan.joint = joint.clone();
    let mut modes = Vec::new();
    for m in joint.into_iter().filter(|m| m.extent > 1) {
        if m.dst == 0 {
            // The last write of a stride-0 destination mode is its last coordinate.
            plan.src_base = checked::add(plan.src_base, checked::mul(m.extent - 1, m.src)?)?;
            plan.reduced.push(m);
        } else {
            modes.push(m);
        }
    }
    if injective {
        for m in &mut modes {
            if m.dst < 0 {
                plan.src_base = checked::add(plan.src_base, checked::mul(m.extent - 1, m.src)?)?;
                plan.dst_base = checked::add(plan.dst_base, checked::mul(m.extent - 1, m.dst)?)?;
                (m.src, m.dst) = (-m.src, -m.dst);
            }
        }
        modes.sort_by_key(|m| (m.dst, m.src.unsigned_abs()));
    }
    let modes = merge(&modes)?;
    plan.broadcast = modes.iter().copied().filter(|m| m.src == 0).collect();
    plan.vector = modes.first().filter(|m| m.src == 1 && m.dst == 1).map_or(1, |m| m.extent);
    (plan.body, plan.loops) = body_and_loops(modes, injective);
    Ok(plan)
}

/// The common refinement of two flat mode lists of equal size: joint modes in index order,
/// or `None` when a boundary of one side does not divide the other's extent.
fn refine(src: &[(i64, i64)], dst: &[(i64, i64)]) -> Result<Option<Vec<CopyMode>>> {
    let drop_units = |m: &[(i64, i64)]| m.iter().copied().filter(|&(n, _)| n > 1).collect::<Vec<_>>();
    let (src, dst) = (drop_units(src), drop_units(dst));
    let (mut a, mut b) = (src.into_iter(), dst.into_iter());
    let (mut x, mut y) = (a.next(), b.next());
    let mut out = Vec::new();
    while let (Some((n, s)), Some((m, d))) = (x, y) {
        let step = n.min(m);
        if n.max(m) % step != 0 {
            return Ok(None);
        }
        out.push(CopyMode { extent: step, src: s, dst: d });
        x = if n == step { a.next() } else { Some((n / step, checked::mul(s, step)?)) };
        y = if m == step { b.next() } else { Some((m / step, checked::mul(d, step)?)) };
    }
    Ok(Some(out))
}

/// Merges adjacent modes where both sides continue: `n0:(s0,d0)` then `n1:(n0·s0, n0·d0)`.
fn merge(modes: &[CopyMode]) -> Result<Vec<CopyMode>> {
    let mut out: Vec<CopyMode> = Vec::with_capacity(modes.len());
    for &m in modes {
        if let Some(last) = out.last_mut()
            && checked::mul(last.extent, last.src)? == m.src
            && checked::mul(last.extent, last.dst)? == m.dst
        {
            last.extent = checked::mul(last.extent, m.extent)?;
            continue;
        }
        out.push(m);
    }
    Ok(out)
}

/// The body and the loops around it. Innermost is the first mode (the smallest destination
/// stride for an injective destination). A transpose takes the destination's unit-stride
/// mode as columns and the source's unit-stride mode as rows.
fn body_and_loops(mut modes: Vec<CopyMode>, injective: bool) -> (CopyBody, Vec<CopyMode>) {
    if modes.is_empty() {
        return (CopyBody::Run { len: 1, src: 1, dst: 1 }, modes);
    }
    let inner = modes[0];
    if injective && inner.dst == 1 && inner.src > 1 {
        let rows = modes.iter().position(|m| m.src == 1 && m.dst > 1);
        if let Some(r) = rows {
            let row = modes.remove(r);
            modes.remove(0);
            let body = CopyBody::Transpose { rows: row.extent, cols: inner.extent, src_ld: inner.src, dst_ld: row.dst };
            return (body, modes);
        }
    }
    modes.remove(0);
    (CopyBody::Run { len: inner.extent, src: inner.src, dst: inner.dst }, modes)
}

/// Two indices `i < j` that the layout maps to one offset, or `None` when it is injective.
/// Sorted strides that each clear the reach of the smaller ones decide it at once; otherwise
/// the offsets are enumerated (up to `INJECTIVITY_LIMIT` elements).
pub fn injectivity_witness(layout: &Layout) -> Result<Option<(i64, i64, i64)>> {
    injectivity_witness_within(layout, INJECTIVITY_LIMIT)
}

/// [`injectivity_witness`], enumerating the offsets only when the layout has at most `limit`
/// elements (else the error [`LayoutError::CopyInjectivityUnknown`]).
pub fn injectivity_witness_within(layout: &Layout, limit: i64) -> Result<Option<(i64, i64, i64)>> {
    let mut step = 1i64;
    for (n, d) in layout.flat_modes() {
        if n > 1 && d == 0 {
            // Coordinates 0 and 1 of a stride-0 mode: indices 0 and the mode's index step.
            return Ok(Some((0, step, layout.eval(0)?)));
        }
        step = checked::mul(step, n)?;
    }
    let mut modes: Vec<(i64, i64)> = layout.flat_modes().into_iter().filter(|&(n, _)| n > 1).collect();
    modes.sort_by_key(|&(_, d)| d.unsigned_abs());
    let mut reach = 0i64;
    let mut sorted_ok = true;
    for &(n, d) in &modes {
        if d.abs() <= reach {
            sorted_ok = false;
            break;
        }
        reach = checked::add(reach, checked::mul(n - 1, d.abs())?)?;
    }
    if sorted_ok {
        return Ok(None);
    }
    if layout.size() > limit {
        return Err(LayoutError::CopyInjectivityUnknown { dst: layout.to_string(), size: layout.size(), limit });
    }
    let mut seen: Vec<(i64, i64)> =
        (0..layout.size()).map(|i| layout.eval(i).map(|o| (o, i))).collect::<Result<_>>()?;
    seen.sort_unstable();
    Ok(seen.windows(2).find(|w| w[0].0 == w[1].0).map(|w| (w[0].1, w[1].1, w[0].0)))
}

/// Bodies of at most this many points may be emitted straight-line ([`CopyPlan::unrolled`]).
pub const UNROLL_POINTS: i64 = 64;

/// The narrowest register tile of any level (AVX2's 4×8 of 8-byte elements has 8 columns):
/// a transpose body narrower than this on either side has no whole tile.
const MIN_TILE: i64 = 8;

impl CopyPlan {
    /// The body's `(source, destination)` offset pairs in destination order, when it is small
    /// enough to be emitted straight-line at each point of the loop nest (constant offsets,
    /// no call and no table): a strided, gather, scatter or broadcast run of at most
    /// [`UNROLL_POINTS`] elements, or a transpose of at most that many points narrower than
    /// any register tile. `None` for contiguous runs (one vector move or `memcpy` each),
    /// larger bodies and indexed copies.
    pub fn unrolled(&self) -> Option<Vec<(i64, i64)>> {
        let mut pairs: Vec<(i64, i64)> = match self.body {
            CopyBody::Run { len, src, dst } if len <= UNROLL_POINTS && (src, dst) != (1, 1) => {
                (0..len).map(|k| (k * src, k * dst)).collect()
            }
            CopyBody::Transpose { rows, cols, src_ld, dst_ld }
                if rows.saturating_mul(cols) <= UNROLL_POINTS && rows.min(cols) < MIN_TILE =>
            {
                (0..rows).flat_map(|r| (0..cols).map(move |c| (r + c * src_ld, r * dst_ld + c))).collect()
            }
            _ => return None,
        };
        pairs.sort_by_key(|&(_, d)| d);
        Some(pairs)
    }

    /// The plan as the program the kernels run (`None` for an indexed copy): the body and the
    /// loops in the target's `usize` and `isize`, or the number that does not fit them.
    pub fn program(&self) -> std::result::Result<Option<ProgramBuf>, ProgramRange> {
        let (len, stride) = (|v| to_usize("an extent", v), |v| to_isize("a stride", v));
        let body = match self.body {
            CopyBody::Run { len: n, src, dst } => Body::Run { len: len(n)?, src: stride(src)?, dst: stride(dst)? },
            CopyBody::Transpose { rows, cols, src_ld, dst_ld } => {
                Body::Transpose { rows: len(rows)?, cols: len(cols)?, src_ld: stride(src_ld)?, dst_ld: stride(dst_ld)? }
            }
            CopyBody::Indexed => return Ok(None),
        };
        let loops = self
            .loops
            .iter()
            .map(|m| Ok(Loop { extent: len(m.extent)?, src: stride(m.src)?, dst: stride(m.dst)? }))
            .collect::<std::result::Result<_, ProgramRange>>()?;
        Ok(Some(ProgramBuf {
            body,
            loops,
            src_base: to_isize("a base offset", self.src_base)?,
            dst_base: to_isize("a base offset", self.dst_base)?,
        }))
    }

    /// The cache blocking of a transpose body for elements of `elem_bytes` at a level with
    /// streaming tiles ([`transpose_blocking`] of the body and its loop nest); `None` for
    /// other bodies.
    pub fn transpose_blocking(&self, elem_bytes: i64) -> Option<TransposeBlocking> {
        let CopyBody::Transpose { rows, cols, dst_ld, .. } = self.body else { return None };
        let points = self.loops.iter().fold(1i64, |p, m| p.saturating_mul(m.extent));
        Some(transpose_blocking(rows, cols, dst_ld, points, elem_bytes, true))
    }

    /// Every `(source offset, destination offset)` pair the plan copies, in the order it
    /// copies them (a reference interpreter of the plan, for tests and `explain`).
    pub fn pairs(&self) -> Result<Vec<(i64, i64)>> {
        let mut out = Vec::with_capacity(self.size as usize);
        if self.body == CopyBody::Indexed {
            for i in 0..self.size {
                out.push((self.src.eval(i)?, self.dst.eval(i)?));
            }
            return Ok(out);
        }
        let outer: i64 = self.loops.iter().map(|m| m.extent).product();
        for k in 0..outer {
            let (mut s, mut d, mut q) = (self.src_base, self.dst_base, k);
            for m in &self.loops {
                s += (q % m.extent) * m.src;
                d += (q % m.extent) * m.dst;
                q /= m.extent;
            }
            match self.body {
                CopyBody::Run { len, src, dst } => out.extend((0..len).map(|j| (s + j * src, d + j * dst))),
                CopyBody::Transpose { rows, cols, src_ld, dst_ld } => {
                    for c in 0..cols {
                        out.extend((0..rows).map(|r| (s + r + c * src_ld, d + r * dst_ld + c)));
                    }
                }
                CopyBody::Indexed => unreachable!("handled above"),
            }
        }
        Ok(out)
    }
}

impl fmt::Display for CopyPlan {
    /// The plan as `layout explain` prints it, one step per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |modes: &[CopyMode]| modes.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
        writeln!(f, "S = {}", self.src)?;
        writeln!(f, "D = {}", self.dst)?;
        writeln!(f, "size: {} elements", self.size)?;
        if self.body == CopyBody::Indexed {
            writeln!(
                f,
                "joint modes: none: coalesce(S) = {} and coalesce(D) = {} have no common refinement (a mode boundary of one falls inside a mode of the other off-step)",
                coalesce(&self.src),
                coalesce(&self.dst)
            )?;
            return write!(
                f,
                "body: indexed: dst[D(i)] = src[S(i)] for i in 0..{}, with each layout's index arithmetic per element",
                self.size
            );
        }
        writeln!(f, "joint modes extent:(src,dst), in index order: {}", list(&self.joint))?;
        if self.injective {
            writeln!(f, "D is injective: modes sorted by destination stride and merged where both sides continue")?;
        } else {
            writeln!(f, "D is not injective (overlapping): index order kept, the last write of each element wins")?;
        }
        if !self.reduced.is_empty() {
            writeln!(f, "destination stride-0 modes reduced to their last write: {}", list(&self.reduced))?;
        }
        writeln!(
            f,
            "common vector: {} element{} (max_common_vector)",
            self.vector,
            if self.vector == 1 { "" } else { "s" }
        )?;
        if !self.broadcast.is_empty() {
            writeln!(f, "broadcast (source stride 0, load once, store many): {}", list(&self.broadcast))?;
        }
        match self.body {
            CopyBody::Run { len, src: 1, dst: 1 } => writeln!(f, "body: vector copy of {len} contiguous elements")?,
            CopyBody::Run { len, src: 0, dst: 1 } => {
                writeln!(f, "body: broadcast one element to {len} contiguous elements")?
            }
            CopyBody::Run { len, src, dst } => {
                writeln!(f, "body: run of {len} elements, source stride {src}, destination stride {dst}")?
            }
            CopyBody::Transpose { rows, cols, src_ld, dst_ld } => {
                write!(
                    f,
                    "body: {rows}x{cols} transpose dst[r*{dst_ld} + c] = src[r + c*{src_ld}] (source contiguous along \
                     rows, destination along columns)"
                )?;
                if self.unrolled().is_none() {
                    write!(f, ": register tiles (8x8 AVX2, 16x16 AVX-512) in cache blocks")?;
                }
                writeln!(f)?
            }

            CopyBody::Indexed => {}
        }
        if let Some(pairs) = self.unrolled() {
            writeln!(f, "the body is emitted straight-line: {} moves with constant offsets per point", pairs.len())?;
        } else if let (Some(b4), Some(b8)) = (self.transpose_blocking(4), self.transpose_blocking(8)) {
            writeln!(f, "cache blocks, 4-byte elements: {b4}; 8-byte: {b8}")?;
        }
        if self.loops.is_empty() {
            write!(f, "loops: none")?;
        } else {
            write!(f, "loops, innermost first: {}", list(&self.loops))?;
        }
        if (self.src_base, self.dst_base) != (0, 0) {
            write!(f, "\nbase offsets: source {}, destination {}", self.src_base, self.dst_base)?;
        }
        Ok(())
    }
}
