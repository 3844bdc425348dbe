//! The straight-line copy of a static tile with run-time strides ([`StridedTile`],
//! [`copy_strided_tile`]): the closed-form extremes against a brute-force range in `i128`
//! (overflow declined, never wrapped), the copy against a scalar reference into a poisoned
//! destination for random strides (negative, zero, large), and views one element short on
//! either side rejected.

use cute_layout::kernels::{DstView, Extremes, SrcView, StridedTile, copy_strided_tile};

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A stride: small of either sign, zero, large, or near the overflow edge of `extent`.
    fn stride(&mut self, extent: usize) -> isize {
        let sign = if self.below(2) == 0 { 1 } else { -1 };
        sign * match self.below(8) {
            0 => 0,
            1 => 1000 + self.below(5000) as isize,
            2 => (isize::MAX / (extent.max(2) as isize - 1) - self.below(3) as isize).saturating_add(1),
            _ => self.below(20) as isize,
        }
    }
}

/// The brute-force `(min, max)` of `r·s.0 + c·s.1` over the tile, in `i128`.
fn brute(r: usize, c: usize, s: (isize, isize)) -> Option<(i128, i128)> {
    let offsets = (0..r).flat_map(|i| (0..c).map(move |j| i as i128 * s.0 as i128 + j as i128 * s.1 as i128));
    Some((offsets.clone().min()?, offsets.max()?))
}

/// Whether every point's offset fits `isize` on both sides, and the extremes then.
fn want_extremes(r: usize, c: usize, s: (isize, isize), d: (isize, isize)) -> Option<Option<Extremes>> {
    let fits = |x: i128| isize::try_from(x).is_ok();
    // Each term as well as the sum: the entry forms `r·s.0` before adding `c·s.1`.
    let terms =
        |s: (isize, isize)| fits((r.max(1) - 1) as i128 * s.0 as i128) && fits((c.max(1) - 1) as i128 * s.1 as i128);
    match (brute(r, c, s), brute(r, c, d)) {
        (None, _) | (_, None) => Some(None),
        (Some(a), Some(b)) => {
            let ok = [a.0, a.1, b.0, b.1].into_iter().all(fits) && terms(s) && terms(d);
            ok.then_some(Some(Extremes { src: (a.0 as isize, a.1 as isize), dst: (b.0 as isize, b.1 as isize) }))
        }
    }
}

/// Copies an `R × C` tile with strides `s`, `d` through the entry and compares with the
/// reference; views one element short at either end must panic.
fn check<const R: usize, const C: usize>(rng: &mut Rng) {
    let (s, d) = ((rng.stride(R), rng.stride(C)), (rng.stride(R), rng.stride(C)));
    let what = format!("{R}x{C} src {s:?} dst {d:?}");
    let tile = StridedTile::<R, C>::new(s, d);
    let want = want_extremes(R, C, s, d);
    assert_eq!(tile.map(|t| t.extremes()), want, "{what}");
    let Some(tile) = tile else { return };
    let Some(e) = tile.extremes() else { return };
    // Only tiles whose offsets span a buffer of reasonable size are copied.
    let span = |(lo, hi): (isize, isize)| hi as i128 - lo as i128 + 1;
    if span(e.src) > 1 << 16 || span(e.dst) > 1 << 16 {
        return;
    }
    let (sn, dn) = (span(e.src) as isize, span(e.dst) as isize);
    let (so, dof) = ((-e.src.0) as usize, (-e.dst.0) as usize);
    let src: Vec<u32> = (0..sn as u32).map(|x| x.wrapping_mul(2_654_435_761)).collect();
    let poison = u32::MAX;
    let mut want = vec![poison; dn as usize];
    for r in 0..R as isize {
        for c in 0..C as isize {
            want[(dof as isize + r * d.0 + c * d.1) as usize] = src[(so as isize + r * s.0 + c * s.1) as usize];
        }
    }
    let mut got = vec![poison; dn as usize];
    copy_strided_tile(SrcView::new(&src, so), DstView::new(&mut got, dof), &tile);
    assert_eq!(got, want, "{what}");
    // One element short at the low or the high end of either view.
    let short = |f: &mut dyn FnMut()| {
        let e = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err();
        let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.starts_with("copy: the program reads offsets"), "{what}: {msg}");
    };
    let mut out = vec![poison; dn as usize];
    if so > 0 {
        short(&mut || copy_strided_tile(SrcView::new(&src[1..], so - 1), DstView::new(&mut out, dof), &tile));
    }
    short(&mut || copy_strided_tile(SrcView::new(&src[..sn as usize - 1], so), DstView::new(&mut out, dof), &tile));
    if dof > 0 {
        short(&mut || copy_strided_tile(SrcView::new(&src, so), DstView::new(&mut out[1..], dof - 1), &tile));
    }
    short(&mut || copy_strided_tile(SrcView::new(&src, so), DstView::new(&mut out[..dn as usize - 1], dof), &tile));
    assert!(out.iter().all(|&x| x == poison), "{what}: a rejected copy wrote");
}

#[test]
fn strided_tiles_match_the_reference() {
    let mut rng = Rng(4);
    for _ in 0..400 {
        check::<4, 8>(&mut rng);
        check::<8, 4>(&mut rng);
        check::<8, 3>(&mut rng);
        check::<1, 7>(&mut rng);
        check::<5, 1>(&mut rng);
        check::<8, 8>(&mut rng);
        check::<2, 32>(&mut rng);
    }
}

#[test]
fn empty_tiles_copy_nothing() {
    let t = StridedTile::<0, 8>::new((isize::MAX, isize::MIN), (1, 1)).unwrap();
    assert_eq!(t.extremes(), None);
    let mut out = [7u8; 0];
    copy_strided_tile(SrcView::new(&[], 0), DstView::new(&mut out, 0), &t);
}

#[test]
fn overflow_is_declined() {
    assert!(StridedTile::<4, 8>::new((isize::MAX / 3 + 1, 1), (8, 1)).is_none());
    assert!(StridedTile::<4, 8>::new((1, 4), (isize::MIN / 3 - 1, 1)).is_none());
    assert!(StridedTile::<4, 8>::new((isize::MAX / 3, 1), (8, 1)).is_none()); // the sum overflows
    assert!(StridedTile::<4, 8>::new((isize::MAX / 3, 0), (8, 1)).is_some());
    assert!(StridedTile::<4, 8>::new((isize::MAX / 3, -1), (8, 1)).is_some());
    assert!(StridedTile::<1, 8>::new((isize::MIN, 1), (isize::MAX, 1)).is_some()); // extent 1: never used
}
