//! The loop nest: a program reduced to its non-trivial loops (continuations merged into the
//! body or into each other), and an odometer that walks it without allocating.

use super::{Body, Loop, Program};

/// More non-trivial loops than this would mean at least 2^64 nest points: no real program.
pub(super) const MAX_LOOPS: usize = 64;

/// A program with extent-1 loops dropped, continuations merged, and the loops in a fixed
/// array (innermost first).
pub(super) struct Plan {
    pub body: Body,
    loops: [Loop; MAX_LOOPS],
    n: usize,
    pub src_base: isize,
    pub dst_base: isize,
}

impl Plan {
    /// The loops, innermost first.
    #[inline(always)]
    pub fn loops(&self) -> &[Loop] {
        &self.loops[..self.n]
    }

    /// The plan of `p`, or `None` when it copies nothing.
    #[inline(always)]
    pub fn new(p: &Program<'_>) -> Option<Plan> {
        let mut body = p.body;
        match body {
            Body::Run { len: 0, .. } => return None,
            Body::Transpose { rows, cols, .. } if rows == 0 || cols == 0 => return None,
            _ => {}
        }
        let zero = Loop { extent: 1, src: 0, dst: 0 };
        let mut loops = [zero; MAX_LOOPS];
        let mut n = 0;
        for l in p.loops {
            if l.extent == 0 {
                return None;
            }
            if l.extent == 1 {
                continue;
            }
            // A loop continuing the previous one (same strides scaled by its extent) merges.
            if n > 0 {
                let prev = &mut loops[n - 1];
                if let Ok(e) = isize::try_from(prev.extent)
                    && prev.src.checked_mul(e) == Some(l.src)
                    && prev.dst.checked_mul(e) == Some(l.dst)
                    && let Some(extent) = prev.extent.checked_mul(l.extent)
                {
                    prev.extent = extent;
                    continue;
                }
            }
            assert!(n < MAX_LOOPS, "a copy program with more than {MAX_LOOPS} non-trivial loops");
            loops[n] = *l;
            n += 1;
        }
        let mut first = 0;
        if let Body::Run { len, src, dst } = &mut body {
            // A single point: the innermost loop becomes the run.
            if *len == 1 && n > 0 {
                *len = loops[0].extent;
                *src = loops[0].src;
                *dst = loops[0].dst;
                first = 1;
            }
            // The innermost loop continues the run: one longer run.
            if first < n
                && let Ok(l) = isize::try_from(*len)
                && src.checked_mul(l) == Some(loops[first].src)
                && dst.checked_mul(l) == Some(loops[first].dst)
                && let Some(total) = len.checked_mul(loops[first].extent)
            {
                *len = total;
                first += 1;
            }
        }
        if first > 0 {
            loops.copy_within(first..n, 0);
            n -= first;
        }
        Some(Plan { body, loops, n, src_base: p.src_base, dst_base: p.dst_base })
    }
}

/// Calls `f(src_offset, dst_offset)` at every point of the nest, in order (innermost loop
/// fastest). Offsets use wrapping arithmetic: only the ones passed to `f` are meaningful.
#[inline(always)]
pub(super) fn for_each(loops: &[Loop], mut s: isize, mut d: isize, mut f: impl FnMut(isize, isize)) {
    let Some((inner, outer)) = loops.split_first() else {
        f(s, d);
        return;
    };
    let mut idx = [0usize; MAX_LOOPS];
    loop {
        let (mut si, mut di) = (s, d);
        for _ in 0..inner.extent {
            f(si, di);
            si = si.wrapping_add(inner.src);
            di = di.wrapping_add(inner.dst);
        }
        let mut k = 0;
        loop {
            let Some(l) = outer.get(k) else { return };
            idx[k] += 1;
            s = s.wrapping_add(l.src);
            d = d.wrapping_add(l.dst);
            if idx[k] < l.extent {
                break;
            }
            idx[k] = 0;
            s = s.wrapping_sub(l.src.wrapping_mul(l.extent as isize));
            d = d.wrapping_sub(l.dst.wrapping_mul(l.extent as isize));
            k += 1;
        }
    }
}
