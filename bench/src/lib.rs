//! The layouts the benchmarks use, their hand-written index expressions, and a generic
//! run-time walk over flat `(shape, stride)` pairs for comparison.

use cute_layout::layout;

layout! {
    /// The paper's running example.
    pub Tiled = ((2,4),3):((1,6),2);
    /// The Ampere TV layout (thread, value) -> offset in an 8x8 tile.
    pub AmpereTv = ((4,8),2):((16,1),8);
    /// Rank 6, no power of two among the strides' periods: a permutation of 0..3150.
    pub Rank6 = (3,5,7,2,3,5):(1,90,450,45,15,3);
    /// A 64x64 column-major matrix as (8x16 tile, 8x4 grid of tiles).
    pub Blocks = zipped_divide((64,64):(1,64), [8:1, 16:1]);
    /// A 96x40 row-major matrix.
    pub RowMajor = (96,40):(40,1);
    /// Column-interleaved with negative strides (offsets are `isize`).
    pub Reversed = ((4,2),(8,3)):((-1,32),(4,64));
}

/// Hand-written index expressions, what a careful person writes for each layout.
pub mod hand {
    #[inline]
    pub fn tiled(i: usize) -> usize {
        (i & 1) + ((i >> 1) & 3) * 6 + (i >> 3) * 2
    }

    #[inline]
    pub fn ampere_tv(i: usize) -> usize {
        (i & 3) * 16 + ((i >> 2) & 7) + (i >> 5) * 8
    }

    #[inline]
    pub fn rank6(i: usize) -> usize {
        let (c0, i) = (i % 3, i / 3);
        let (c1, i) = (i % 5, i / 5);
        let (c2, i) = (i % 7, i / 7);
        let (c3, i) = (i % 2, i / 2);
        let (c4, c5) = (i % 3, i / 3);
        c0 + c1 * 90 + c2 * 450 + c3 * 45 + c4 * 15 + c5 * 3
    }

    /// `((8,16),(8,4)):((1,64),(8,1024))`
    #[inline]
    pub fn blocks(i: usize) -> usize {
        (i & 7) + ((i >> 3) & 15) * 64 + ((i >> 7) & 7) * 8 + (i >> 10) * 1024
    }

    #[inline]
    pub fn row_major(i: usize) -> usize {
        (i % 96) * 40 + i / 96
    }

    #[inline]
    pub fn reversed(i: usize) -> isize {
        let c0 = (i & 3) as isize;
        let c1 = ((i >> 2) & 1) as isize;
        let c2 = ((i >> 3) & 7) as isize;
        let c3 = (i >> 6) as isize;
        -c0 + c1 * 32 + c2 * 4 + c3 * 64
    }
}

/// A generic run-time walk over flat `(shape, stride)` pairs (no allocation, no checks).
#[inline(never)]
pub fn walk(modes: &[(usize, isize)], mut i: usize) -> isize {
    let mut o = 0;
    let (last, init) = modes.split_last().unwrap_or((&(1, 0), &[]));
    for &(s, d) in init {
        o += (i % s) as isize * d;
        i /= s;
    }
    o + i as isize * last.1
}

/// `count` pseudo-random indices in `0..size` (a fixed LCG, so runs are comparable).
pub fn random_indices(size: usize, count: usize) -> Vec<usize> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..count)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) as usize) % size
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cute_layout::StaticLayout;

    fn agree<L: StaticLayout>(hand: impl Fn(usize) -> i64) {
        let core = L::to_layout();
        let modes: Vec<(usize, isize)> = core.flat_modes().iter().map(|&(s, d)| (s as usize, d as isize)).collect();
        for i in 0..L::SIZE {
            let want = core.eval(i as i64).unwrap();
            assert_eq!(hand(i), want, "{} at {i}", L::NOTATION);
            assert_eq!(cute_layout::Offset::to_i64(L::offset(i)), want);
            assert_eq!(walk(&modes, i) as i64, want);
        }
    }

    #[test]
    fn hand_written_expressions_are_the_layouts() {
        agree::<Tiled>(|i| hand::tiled(i) as i64);
        agree::<AmpereTv>(|i| hand::ampere_tv(i) as i64);
        agree::<Rank6>(|i| hand::rank6(i) as i64);
        agree::<Blocks>(|i| hand::blocks(i) as i64);
        agree::<RowMajor>(|i| hand::row_major(i) as i64);
        agree::<Reversed>(|i| hand::reversed(i) as i64);
        assert_eq!(Blocks::NOTATION, "((8,16),(8,4)):((1,64),(8,1024))");
    }

    #[test]
    fn rank6_is_a_permutation() {
        let mut seen = vec![false; Rank6::SIZE];
        Rank6::for_each_offset(|o| seen[o] = true);
        assert!(seen.iter().all(|&s| s));
    }
}
