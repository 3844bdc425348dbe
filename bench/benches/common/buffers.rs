//! Page-aligned `f32` buffers for the copy benches.
//!
//! Why aligned: glibc 2.36's `memcpy` copies 4 KiB to 512 KiB (the L2 of this Zen 3) with
//! `rep movsb`, which runs about 15x slower (4 GiB/s instead of 65) when the destination
//! starts 4 to 28 bytes past the source modulo 4096 (glibc bug 30994, fixed in 2.39). Two
//! heap vectors allocated one after the other are exactly that far apart (a 16-byte chunk
//! header), which is why the criterion run's 256x256 memcpy anchor read 153 µs instead of
//! about 7. Every buffer here starts on a page, so source and destination are 0 bytes apart
//! modulo 4096, as two large `mmap`ed allocations are.

/// A vector of at least `len` `f32` whose slice starts on a 4096-byte boundary (or `offset`
/// bytes past one).
pub struct Aligned {
    buf: Vec<f32>,
    start: usize,
    len: usize,
}

impl Aligned {
    /// `len` elements, element `k` holding `f(k)`.
    pub fn new(len: usize, f: impl Fn(usize) -> f32) -> Aligned {
        Aligned::at(len, 0, f)
    }

    /// `len` elements from `offset` bytes (a multiple of 4 below 4096) past a page boundary,
    /// element `k` holding `f(k)`. Large `Vec`s from glibc start 16 bytes past a page.
    pub fn at(len: usize, offset: usize, f: impl Fn(usize) -> f32) -> Aligned {
        let mut buf = vec![0f32; len + 2048];
        let start = buf.as_ptr().align_offset(4096) + offset / 4;
        for (k, x) in buf[start..start + len].iter_mut().enumerate() {
            *x = f(k);
        }
        Aligned { buf, start, len }
    }

    /// `len` zeros.
    pub fn zeros(len: usize) -> Aligned {
        Aligned::new(len, |_| 0.0)
    }

    /// The ramp `0, 1, 2, …` (exact in `f32` up to 2^24).
    pub fn ramp(len: usize) -> Aligned {
        Aligned::new(len, |k| k as f32)
    }

    /// The elements.
    pub fn get(&self) -> &[f32] {
        &self.buf[self.start..self.start + self.len]
    }

    /// The elements, mutable.
    pub fn get_mut(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}
