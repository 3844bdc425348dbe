//! The engine's full-tile micro-kernels and its AVX2 packer alone, behind safe entries, for
//! the timing harness of the bench crate (`bench/benches/micro.rs`, which owns the timing
//! loops). Hidden (`__private`): not part of the API, no stability promise.
//!
//! A [`MicroKernel`] or [`Packer`] exists only for a level the CPU has (the lists hold the
//! levels at or below [`level`](crate::kernels::level), which never exceeds what was
//! detected), and each run checks its buffers' lengths, so every input is sound.

/// A full-tile micro-kernel of one level: `C = A·B` over register tiles of `mr × nr`, each
/// over its own packed A panel (`mr·kc` elements, step `mr` per step of k) and one shared
/// packed B panel, `kc` deep.
#[derive(Clone, Copy)]
pub struct MicroKernel<T> {
    pub(crate) name: &'static str,
    pub(crate) mr: usize,
    pub(crate) nr: usize,
    /// A kernel whose full tile is `mr × nr`, whose packed B panel's reads for `p < kc`,
    /// `j < nr` lie in `nr·max(kc, 384)` elements ([`MicroKernel::lens`]), and whose
    /// features the CPU has.
    pub(crate) f: Micro<T>,
}

use super::driver::{Micro, MicroArgs};

impl<T: super::GemmScalar> MicroKernel<T> {
    /// The kernel: level, element type and tile `MRxNR` (`"avx512 f32 32x12"`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Rows and columns of the tile.
    pub fn tile(&self) -> (usize, usize) {
        (self.mr, self.nr)
    }

    /// The lengths [`run`](Self::run) needs for the A panels, the B panel and the C tiles of
    /// `tiles` tiles `kc` deep: `mr·kc·tiles`, `nr·max(kc, 384)` and `mr·nr·tiles`; `None`
    /// on overflow. (The B panel holds every element the kernel reads for `p < kc`, `j < nr`
    /// at strides `(BJ, BS)` of `(KC, 1)` with `KC ≤ 384`, `(nr-1)·KC + kc - 1 <
    /// nr·max(kc, 384)`, or of `(1, nr)`, `nr - 1 + (kc-1)·nr < nr·kc`.)
    pub fn lens(&self, kc: usize, tiles: usize) -> Option<(usize, usize, usize)> {
        let a = self.mr.checked_mul(kc)?.checked_mul(tiles)?;
        let b = self.nr.checked_mul(kc.max(384))?;
        let c = self.mr.checked_mul(self.nr)?.checked_mul(tiles)?;
        Some((a, b, c))
    }

    /// One pass over `tiles` tiles: tile `i` of C (`mr` contiguous rows by `nr` columns of
    /// stride `mr`, at `i·mr·nr` in `c`) becomes A panel `i` (at `i·mr·kc` in `a`) times the
    /// B panel `b`.
    ///
    /// # Panics
    /// When a slice is shorter than [`lens`](Self::lens) says, or the lengths overflow.
    pub fn run(&self, kc: usize, tiles: usize, a: &[T], b: &[T], c: &mut [T]) {
        let Some((a_len, b_len, c_len)) = self.lens(kc, tiles) else {
            panic!("MicroKernel::run: kc = {kc}, tiles = {tiles} are too large")
        };
        assert!(
            a.len() >= a_len && b.len() >= b_len && c.len() >= c_len,
            "MicroKernel::run: {} needs {a_len}, {b_len} and {c_len} elements for A, B and C, not {}, {} and {}",
            self.name,
            a.len(),
            b.len(),
            c.len()
        );
        let (mr, nr) = (self.mr, self.nr);
        for i in 0..tiles {
            // SAFETY: the CPU has the kernel's features (a `MicroKernel` is made only for a
            // level it has); panel `i` of A is the `mr·kc` elements at `i·mr·kc` (step `mr`),
            // inside `a`; B's reads lie in `b` (`lens`, the field's bound); tile `i` of C is
            // `mr` contiguous rows by `nr` columns of stride `mr` at `i·mr·nr`, inside `c`,
            // distinct, a full tile; `β = 0` does not read C; C is an exclusive borrow.
            unsafe {
                (self.f)(&MicroArgs {
                    k: kc,
                    a: a.as_ptr().add(i * mr * kc),
                    a_cs: mr as isize,
                    b: b.as_ptr(),
                    b_rs: 1,
                    b_cs: 1,
                    c: c.as_mut_ptr().add(i * mr * nr),
                    c_rs: 1,
                    c_cs: mr as isize,
                    mr,
                    nr,
                    alpha: T::ONE,
                    beta: T::ZERO,
                    pf: core::ptr::null(),
                    pf_cs: 0,
                    pf_n: 0,
                    pf_b: core::ptr::null(),
                    pf_b_n: 0,
                    tiles: 1,
                    a_tile: 0,
                    stream: false,
                })
            };
        }
    }
}

/// The full-tile micro-kernels of every level the CPU has at or below the level in effect
/// (AVX-512: f32 32×12; AVX2: f32 16×6), with shapes the engine does not use for comparison
/// (AVX-512 64×6, the gemm crate's; AVX2 24×4); empty at the portable level and off x86_64.
pub fn micro_kernels_f32() -> Vec<MicroKernel<f32>> {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::parts::micro_kernels_f32()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// As [`micro_kernels_f32`] for f64 (AVX-512 16×12 and, for comparison, 32×6; AVX2 8×6 and,
/// for comparison, 12×4).
pub fn micro_kernels_f64() -> Vec<MicroKernel<f64>> {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::parts::micro_kernels_f64()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// An f32 packer of the engine: a `len × kc` block (element `(i, p)` at `src[i·s_i + p]`)
/// into panels of `w` rows, `dst[(i/w)·w·kc + p·w + i%w]`, the last panel zero-padded.
#[derive(Clone, Copy)]
pub struct Packer {
    pub(crate) name: &'static str,
    /// A packer with the contract of the engine's `pack` at `s_p = 1`, whose features the
    /// CPU has (SAFETY: [`Packer::run`] checks the buffers' lengths before the call).
    pub(crate) f: unsafe fn(usize, *mut f32, *const f32, isize, usize, usize),
}

impl Packer {
    /// What it is (`"avx2"`: the AVX2 packer; `"generic"`: the scalar one compiled with the
    /// same features).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Packs the block; see [`Packer`].
    ///
    /// # Panics
    /// When `w = 0`, the block does not lie in `src` or the panels (`len` rounded up to `w`,
    /// times `kc`) do not fit in `dst`.
    pub fn run(&self, w: usize, src: &[f32], s_i: usize, len: usize, kc: usize, dst: &mut [f32]) {
        assert!(w > 0, "Packer::run: panels of 0 rows");
        let reach = match (len, kc) {
            (0, _) | (_, 0) => Some(0),
            _ => (len - 1).checked_mul(s_i).and_then(|x| x.checked_add(kc)),
        };
        let out = len.checked_next_multiple_of(w).and_then(|x| x.checked_mul(kc));
        let (Some(reach), Some(out)) = (reach, out) else { panic!("Packer::run: the block's size overflows") };
        assert!(
            reach <= src.len() && out <= dst.len() && s_i <= isize::MAX as usize,
            "Packer::run: a {len}x{kc} block of row stride {s_i} needs {reach} source and {out} destination elements, not {} and {}",
            src.len(),
            dst.len()
        );
        // SAFETY: the CPU has the packer's features (made only for a level it has); every
        // `i·s_i + p` for `i < len`, `p < kc` is below `reach ≤ src.len()`; `dst` has `len`
        // rounded up to `w` times `kc` writable elements, an exclusive borrow apart from `src`.
        unsafe { (self.f)(w, dst.as_mut_ptr(), src.as_ptr(), s_i as isize, len, kc) }
    }
}

/// The AVX2 f32 packer and the generic one compiled with the same features, when the level
/// in effect is AVX2 or above; empty otherwise.
pub fn packers() -> Vec<Packer> {
    #[cfg(target_arch = "x86_64")]
    {
        super::x86::parts::packers()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{Level, level};

    /// Each kernel computes `C = A·B` on its tiles (small integers: exact).
    #[test]
    fn every_kernel_of_the_level_multiplies_its_panels() {
        let (f32s, f64s) = (micro_kernels_f32(), micro_kernels_f64());
        let want = match level() {
            Level::Avx512 => 4,
            Level::Avx2 => 2,
            Level::Portable => 0,
        };
        assert_eq!((f32s.len(), f64s.len()), (want, want));
        for k in &f32s {
            let (mr, nr) = k.tile();
            assert!(k.name().ends_with(&format!("{mr}x{nr}")), "{}", k.name());
            let (kc, tiles) = (5, 2);
            let (al, bl, cl) = k.lens(kc, tiles).unwrap();
            let a: Vec<f32> = (0..al).map(|x| (x % 7) as f32).collect();
            let b: Vec<f32> = (0..bl).map(|x| (x % 5) as f32).collect();
            let mut c = vec![f32::NAN; cl];
            k.run(kc, tiles, &a, &b, &mut c);
            // B's strides: AVX-512 panels `(384, 1)` over (j, p), AVX2 ones `(1, nr)`.
            let bs = |p: usize, j: usize| if k.name().starts_with("avx512") { b[j * 384 + p] } else { b[p * nr + j] };
            for t in 0..tiles {
                for j in 0..nr {
                    for i in 0..mr {
                        let s: f32 = (0..kc).map(|p| a[t * mr * kc + p * mr + i] * bs(p, j)).sum();
                        assert_eq!(c[t * mr * nr + j * mr + i], s, "{} tile {t} ({i}, {j})", k.name());
                    }
                }
            }
        }
        for k in &f64s {
            let mut c = vec![0.0; k.lens(3, 1).unwrap().2];
            let (al, bl, _) = k.lens(3, 1).unwrap();
            k.run(3, 1, &vec![1.0; al], &vec![2.0; bl], &mut c);
            assert!(c.iter().all(|&x| x == 6.0), "{}", k.name());
        }
    }

    #[test]
    #[should_panic(expected = "needs")]
    fn a_short_buffer_panics() {
        let Some(k) = micro_kernels_f32().into_iter().next() else { panic!("needs: no kernel at this level") };
        let (a, b, c) = k.lens(8, 2).unwrap();
        k.run(8, 2, &vec![0.0; a - 1], &vec![0.0; b], &mut vec![0.0; c]);
    }

    #[test]
    #[should_panic(expected = "too large")]
    fn sizes_that_overflow_panic() {
        let k = MicroKernel::<f32> { name: "x", mr: 32, nr: 12, f: never };
        k.run(usize::MAX / 64, 3, &[], &[], &mut []);
    }

    /// A `Micro` that is never called (the run panics first).
    // SAFETY contract: none; it never touches memory.
    unsafe fn never(_: &MicroArgs<f32>) {
        unreachable!()
    }

    /// The packers agree with each other and with the definition; short buffers panic.
    #[test]
    fn the_packers_pack_the_block() {
        let ps = packers();
        assert_eq!(ps.len(), if level() >= Level::Avx2 { 2 } else { 0 });
        for p in &ps {
            for (w, len, kc, s_i) in [(6usize, 13usize, 9usize, 11usize), (16, 33, 17, 17), (6, 1, 1, 1), (16, 0, 4, 4)]
            {
                let src: Vec<f32> = (0..(len * s_i + kc)).map(|x| x as f32).collect();
                let mut dst = vec![f32::NAN; len.next_multiple_of(w) * kc];
                p.run(w, &src, s_i, len, kc, &mut dst);
                for (o, &got) in dst.iter().enumerate() {
                    let (panel, p_, r) = (o / (w * kc), o % (w * kc) / w, o % w);
                    let i = panel * w + r;
                    let want = if i < len { src[i * s_i + p_] } else { 0.0 };
                    assert_eq!(got, want, "{} w {w} len {len} kc {kc} at {o}", p.name());
                }
            }
            let short = std::panic::catch_unwind(|| p.run(6, &[0.0; 10], 4, 3, 4, &mut [0.0; 24]));
            assert!(short.is_err(), "{}: a source of 10 for a 3x4 block of stride 4", p.name());
        }
    }
}
