//! The loop nest: a program reduced to its non-trivial loops (continuations merged into the
//! body or into each other), and an odometer that walks it without allocating.

use super::{Body, Loop, Program};
use core::mem::MaybeUninit;

/// More non-trivial loops than this would mean at least 2^64 nest points: no real program.
pub(super) const MAX_LOOPS: usize = 64;

/// Room for a plan's loops, on the caller's stack (left uninitialized: no 1.5 KiB memset, and
/// the plan borrows it rather than moving it).
pub(super) type LoopBuf = [MaybeUninit<Loop>; MAX_LOOPS];

/// An empty [`LoopBuf`].
#[inline(always)]
pub(super) fn loop_buf() -> LoopBuf {
    [const { MaybeUninit::<Loop>::uninit() }; MAX_LOOPS]
}

/// A program with extent-1 loops dropped and continuations merged (innermost first).
pub(super) struct Plan<'b> {
    pub body: Body,
    loops: &'b [Loop],
    pub src_base: isize,
    pub dst_base: isize,
}

impl<'b> Plan<'b> {
    /// The loops, innermost first.
    #[inline(always)]
    pub fn loops(&self) -> &'b [Loop] {
        self.loops
    }

    /// The plan of `p`, or `None` when it copies nothing.
    #[inline(always)]
    pub fn new(p: &Program<'_>, loops: &'b mut LoopBuf) -> Option<Plan<'b>> {
        let mut body = p.body;
        match body {
            Body::Run { len: 0, .. } => return None,
            Body::Transpose { rows, cols, .. } if rows == 0 || cols == 0 => return None,
            _ => {}
        }
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
                // SAFETY: `loops[n - 1]` was written (all of `..n` are).
                let prev = unsafe { loops[n - 1].assume_init_mut() };
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
            loops[n].write(*l);
            n += 1;
        }
        let mut first = 0;
        if let Body::Run { len, src, dst } = &mut body
            && n > 0
        {
            // SAFETY: `n > 0`: `loops[0]` was written.
            let l0 = unsafe { loops[0].assume_init() };
            // A single point: the innermost loop becomes the run.
            if *len == 1 {
                (*len, *src, *dst) = (l0.extent, l0.src, l0.dst);
                first = 1;
            }
            // The innermost loop continues the run: one longer run.
            // SAFETY (the `assume_init` below): `first < n`, so `loops[first]` was written.
            if first < n
                && let next = unsafe { loops[first].assume_init() }
                && let Ok(l) = isize::try_from(*len)
                && src.checked_mul(l) == Some(next.src)
                && dst.checked_mul(l) == Some(next.dst)
                && let Some(total) = len.checked_mul(next.extent)
            {
                *len = total;
                first += 1;
            }
        }
        if first > 0 {
            loops.copy_within(first..n, 0);
            n -= first;
        }
        // SAFETY: the first `n ≤ MAX_LOOPS` elements are initialized, and `MaybeUninit<Loop>`
        // has `Loop`'s layout.
        let loops = unsafe { core::slice::from_raw_parts(loops.as_ptr().cast::<Loop>(), n) };
        Some(Plan { body, loops, src_base: p.src_base, dst_base: p.dst_base })
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
    // The usual depths as plain nested loops.
    match outer {
        [] => {
            for _ in 0..inner.extent {
                f(s, d);
                s = s.wrapping_add(inner.src);
                d = d.wrapping_add(inner.dst);
            }
            return;
        }
        [o] => {
            for _ in 0..o.extent {
                let (mut si, mut di) = (s, d);
                for _ in 0..inner.extent {
                    f(si, di);
                    si = si.wrapping_add(inner.src);
                    di = di.wrapping_add(inner.dst);
                }
                s = s.wrapping_add(o.src);
                d = d.wrapping_add(o.dst);
            }
            return;
        }
        _ => {}
    }
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
