//! The copy program: a body inside a loop nest, in the integers the kernels run with. A
//! [`CopyPlan`](crate::CopyPlan) becomes one with [`CopyPlan::program`](crate::CopyPlan::program);
//! the code `layout!` emits for a `copy` item writes it as constants, and the facade's
//! precompiled drivers (`cute_layout::kernels`) run it.
//!
//! A program copies `dst[dst_base + Σ c_k·dst_k + body] = src[src_base + Σ c_k·src_k + body]`
//! for every coordinate `c` of the loop nest, the body doing the innermost one or two modes.

/// One loop of a copy's nest: `extent` iterations, advancing the source by `src` elements and
/// the destination by `dst` elements per iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    /// The number of iterations.
    pub extent: usize,
    /// The source stride, in elements per iteration.
    pub src: isize,
    /// The destination stride, in elements per iteration.
    pub dst: isize,
}

/// What runs at each point of the loop nest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// `len` elements, source stride `src`, destination stride `dst`:
    /// `dst[k·dst] = src[k·src]` for `k < len`. `src == dst == 1` is a contiguous vector
    /// (the common vector of the two layouts); `src == 0` a broadcast (load once, store
    /// `len` times); anything else a gather or scatter.
    Run {
        /// The number of elements.
        len: usize,
        /// The source stride.
        src: isize,
        /// The destination stride.
        dst: isize,
    },
    /// A `rows × cols` transpose: `dst[r·dst_ld + c] = src[r + c·src_ld]` for `r < rows`,
    /// `c < cols` (the source contiguous along rows, the destination along columns), done
    /// in register tiles inside cache blocks.
    Transpose {
        /// The extent along which the source is contiguous.
        rows: usize,
        /// The extent along which the destination is contiguous.
        cols: usize,
        /// The source's stride between columns.
        src_ld: isize,
        /// The destination's stride between rows.
        dst_ld: isize,
    },
}

/// A copy plan in the form the drivers run: a body inside a loop nest (innermost loop first).
///
/// ```
/// use layout_plan::{Body, Extremes, Program};
///
/// // The 8x3 transpose of the README: dst[r*3 + c] = src[r + c*8].
/// let p = Program { body: Body::Transpose { rows: 8, cols: 3, src_ld: 8, dst_ld: 3 }, loops: &[], src_base: 0, dst_base: 0 };
/// assert_eq!(p.extremes(), Some(Extremes { src: (0, 23), dst: (0, 23) }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Program<'a> {
    /// What runs at each point of the nest.
    pub body: Body,
    /// The loops, innermost first.
    pub loops: &'a [Loop],
    /// Offsets of the first element on each side (non-zero after a broadcast destination
    /// mode was reduced to its last write).
    pub src_base: isize,
    /// The destination's offset of the first element (see `src_base`).
    pub dst_base: isize,
}

/// A [`Program`] that owns its loops: what a plan made at run time keeps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProgramBuf {
    /// What runs at each point of the nest.
    pub body: Body,
    /// The loops, innermost first.
    pub loops: Vec<Loop>,
    /// The source's offset of the first element.
    pub src_base: isize,
    /// The destination's offset of the first element.
    pub dst_base: isize,
}

impl ProgramBuf {
    /// The program, borrowing the loops.
    pub fn as_program(&self) -> Program<'_> {
        Program { body: self.body, loops: &self.loops, src_base: self.src_base, dst_base: self.dst_base }
    }
}

/// The smallest and largest offset a copy reads (`src`) and writes (`dst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extremes {
    /// `(min, max)` of the source offsets.
    pub src: (isize, isize),
    /// `(min, max)` of the destination offsets.
    pub dst: (isize, isize),
}

/// `r + (0..extent)·stride`: the range of `o + c·stride` over `o` in `r` and `c < extent`
/// (`extent ≥ 1`).
///
/// # Panics
/// When a bound overflows `isize`.
const fn widen(r: (isize, isize), extent: usize, stride: isize) -> (isize, isize) {
    assert!(extent - 1 <= isize::MAX as usize, "a copy whose offsets overflow isize");
    let Some(t) = ((extent - 1) as isize).checked_mul(stride) else { panic!("a copy whose offsets overflow isize") };
    let (lo, hi) = if t < 0 { (t, 0) } else { (0, t) };
    match (r.0.checked_add(lo), r.1.checked_add(hi)) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => panic!("a copy whose offsets overflow isize"),
    }
}

impl Extremes {
    /// The extremes of `base + body + Σ c_k·stride_k` over the points `c` of the nest `loops`,
    /// `body` being the extremes of one point's offsets; `None` when some loop is empty.
    ///
    /// # Panics
    /// When a bound overflows `isize`.
    pub const fn over_nest(loops: &[Loop], src_base: isize, dst_base: isize, body: Extremes) -> Option<Extremes> {
        let (Some(s0), Some(s1), Some(d0), Some(d1)) = (
            src_base.checked_add(body.src.0),
            src_base.checked_add(body.src.1),
            dst_base.checked_add(body.dst.0),
            dst_base.checked_add(body.dst.1),
        ) else {
            panic!("a copy whose offsets overflow isize")
        };
        let (mut src, mut dst) = ((s0, s1), (d0, d1));
        let mut k = 0;
        while k < loops.len() {
            let l = loops[k];
            if l.extent == 0 {
                return None;
            }
            src = widen(src, l.extent, l.src);
            dst = widen(dst, l.extent, l.dst);
            k += 1;
        }
        Some(Extremes { src, dst })
    }
}

impl Program<'_> {
    /// The smallest and largest offset the program reads and writes: `src_base` plus the
    /// body's offsets plus `Σ c_k·loops[k].src` over the nest, likewise for the destination
    /// (O(number of loops)); `None` when it copies nothing (an empty loop or body).
    ///
    /// # Panics
    /// When an offset overflows `isize`.
    pub const fn extremes(&self) -> Option<Extremes> {
        let body = match self.body {
            Body::Run { len, src, dst } => {
                if len == 0 {
                    return None;
                }
                Extremes { src: widen((0, 0), len, src), dst: widen((0, 0), len, dst) }
            }
            Body::Transpose { rows, cols, src_ld, dst_ld } => {
                if rows == 0 || cols == 0 {
                    return None;
                }
                Extremes {
                    src: widen(widen((0, 0), rows, 1), cols, src_ld),
                    dst: widen(widen((0, 0), rows, dst_ld), cols, 1),
                }
            }
        };
        Extremes::over_nest(self.loops, self.src_base, self.dst_base, body)
    }
}

/// A number of a plan that the target's `usize` or `isize` cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {value} of the plan does not fit the target's {ty}")]
pub struct ProgramRange {
    /// What the number is (`an extent`, `a stride`, `a base offset`).
    pub what: &'static str,
    /// The number.
    pub value: i64,
    /// The type it does not fit (`usize` or `isize`).
    pub ty: &'static str,
}

/// `value` as a `usize`, or the [`ProgramRange`] naming `what`.
pub(crate) fn to_usize(what: &'static str, value: i64) -> Result<usize, ProgramRange> {
    usize::try_from(value).map_err(|_| ProgramRange { what, value, ty: "usize" })
}

/// `value` as an `isize`, or the [`ProgramRange`] naming `what`.
pub(crate) fn to_isize(what: &'static str, value: i64) -> Result<isize, ProgramRange> {
    isize::try_from(value).map_err(|_| ProgramRange { what, value, ty: "isize" })
}
