//! `+` and `-` in symbolic extents, strides and facts, from the outside, as a user writes
//! them: the im2col view of a W×H image for a 3×3 convolution, and an output tile whose
//! windows stay inside a row (`where Q+2 <= W`).

use cute_layout::{DynamicError, Tensor, layout};

layout! {
    /// The im2col view of a W×H image (row length W) for a 3×3 filter: A(m, k) with
    /// m = (q, p) an output position and k = (s, r) a filter tap reads image[(p+r)·W + q+s].
    pub Im2col = ((W-2,H-2),(3,3)):((1,W),(1,W)) where W >= 3, H >= 3;
    /// The same view without facts: the constructor checks that W-2 and H-2 are positive.
    pub Bare = ((W-2,H-2),(3,3)):((1,W),(1,W));
    /// Q×P output positions in an image with rows of W: the fact keeps every window inside
    /// its row (`W > Q` would not: the last window would wrap into the next row).
    pub Windows = ((Q,P),(3,3)):((1,W),(1,W)) where Q+2 <= W;
    /// A padded matrix view whose rows are Q+2 long; the fact proves the non-overlap
    /// condition of its left inverse, so no run-time check of its own remains.
    pub Padded = left_inverse((Q+2,P):(1,W)) where Q+2 <= W, P > 1;
    /// Sums in strides and a sum over a quotient: `-(W-2)` is a negative stride.
    pub Mixed = ((W-2)/2,H+1):(-(W-2),2*W+1) where (W-2) % 2 == 0;
}

/// The hand formula of the im2col view at flat index i (colexicographic over q, p, s, r).
fn im2col(i: usize, w: usize, h: usize) -> usize {
    let (q, i) = (i % (w - 2), i / (w - 2));
    let (p, i) = (i % (h - 2), i / (h - 2));
    let (s, r) = (i % 3, i / 3);
    (p + r) * w + q + s
}

#[test]
fn im2col_is_the_hand_formula() {
    for w in 3..=9 {
        for h in 3..=8 {
            let l = Im2col::new(w, h).unwrap();
            let n = 9 * (w - 2) * (h - 2);
            assert_eq!(l.size(), n);
            for i in 0..n {
                assert_eq!(l.offset(i), im2col(i, w, h), "W = {w}, H = {h}, index {i}");
                let ((q, p), (s, r)) = l.coord(i);
                assert_eq!(l.offset_of(((q, p), (s, r))), (p + r) * w + q + s);
            }
            let mut seen = Vec::new();
            l.for_each_offset(|o| seen.push(o));
            assert_eq!(seen, (0..n).map(|i| im2col(i, w, h)).collect::<Vec<_>>());
            // The windows cover the image: offsets 0 ..= H·W - 1.
            assert_eq!((l.min_offset(), l.max_offset()), (0, (h * w - 1) as isize));
            assert_eq!(l.to_string(), l.to_layout().to_string());
            assert_eq!(Bare::new(w, h).unwrap().to_layout(), l.to_layout());
        }
    }
    assert_eq!(Im2col::NOTATION, "((W-2,H-2),(3,3)):((1,W),(1,W))");
    assert_eq!(Im2col::new(6, 5).unwrap().to_string(), "((4,3),(3,3)):((1,6),(1,6))");
}

#[test]
fn a_convolution_through_the_view() {
    // out(q, p) = Σ_{s,r} filter(s, r) · image(q+s, p+r), read through the view.
    let (w, h) = (7, 6);
    let image: Vec<i64> = (0..(w * h) as i64).map(|x| x * x % 17).collect();
    let filter: [i64; 9] = [1, -2, 3, 0, 5, -1, 2, 2, -3];
    let a = Tensor::new(&image, Im2col::new(w, h).unwrap()).unwrap();
    let m = (w - 2) * (h - 2);
    for q in 0..w - 2 {
        for p in 0..h - 2 {
            let mut via_view = 0;
            for k in 0..9 {
                via_view += filter[k] * a[q + (w - 2) * p + m * k];
            }
            let direct: i64 = (0..3)
                .flat_map(|r| (0..3).map(move |s| (s, r)))
                .map(|(s, r)| filter[s + 3 * r] * image[(p + r) * w + q + s])
                .sum();
            assert_eq!(via_view, direct, "q = {q}, p = {p}");
        }
    }
}

#[test]
fn extents_that_would_not_be_positive_are_rejected() {
    // A fact is checked first and named.
    let e = Im2col::new(2, 5).unwrap_err().to_string();
    assert!(e.contains("`W >= 3`") && e.contains("W = 2"), "{e}");
    // Without facts the extent itself is named, with the value.
    for w in [1, 2] {
        let e = Bare::new(w, 5).unwrap_err();
        assert!(matches!(e, DynamicError::Condition { .. }), "{e:?}");
        let e = e.to_string();
        assert!(
            e.contains("`W-2 > 0`") && e.contains("the extent W-2 must be positive") && e.contains(&format!("W = {w}")),
            "{e}"
        );
    }
    let e = Bare::new(4, 2).unwrap_err().to_string();
    assert!(e.contains("`H-2 > 0`") && e.contains("H = 2"), "{e}");
    assert!(Bare::new(3, 3).is_ok());
    // Symbols are positive; offsets past isize are an overflow error, not a wrap.
    assert!(matches!(Bare::new(0, 5), Err(DynamicError::NotPositive { .. })));
    for (w, h) in [(usize::MAX, 3), (1 << 62, 3), (3, usize::MAX), (1 << 32, 1 << 32)] {
        assert!(matches!(Bare::new(w, h), Err(DynamicError::Overflow { .. })), "W = {w}, H = {h}");
    }
}

#[test]
fn facts_with_sums() {
    // Q+2 <= W: every window stays inside its row.
    let l = Windows::new(4, 3, 6).unwrap();
    for i in 0..l.size() {
        let ((q, p), (s, r)) = l.coord(i);
        assert_eq!(l.offset(i), (p + r) * 6 + q + s);
        assert!(q + s < 6, "a window leaves its row at {i}");
    }
    let e = Windows::new(5, 3, 6).unwrap_err().to_string();
    assert!(e.contains("`W >= Q+2`") && e.contains("Q = 5") && e.contains("W = 6"), "{e}");
    assert!(Windows::new(4, 1, 6).is_ok());
    // The solver used the fact: the left inverse checks the facts and nothing else.
    assert_eq!(Padded::NOTATION, "(W,P):(1,Q+2)");
    let (q, pp, w) = (2, 3, 5);
    let p = Padded::new(q, pp, w).unwrap();
    for i in 0..(q + 2) * pp {
        let a = i % (q + 2) + w * (i / (q + 2));
        assert_eq!(p.offset(a), i, "the left inverse at A({i}) = {a}");
    }
    let e = Padded::new(4, 3, 5).unwrap_err().to_string();
    assert!(e.contains("`W >= Q+2`") && e.contains("(stated in `where`)"), "{e}");
}

#[test]
fn sums_in_strides_and_quotients() {
    assert_eq!(Mixed::NOTATION, "((W-2)/2,H+1):(-(W-2),2*W+1)");
    for (w, h) in [(4, 1), (6, 2), (10, 3)] {
        let l = Mixed::new(w, h).unwrap();
        let (n0, n1) = ((w - 2) / 2, h + 1);
        assert_eq!(l.size(), n0 * n1);
        for i in 0..l.size() {
            let (a, b) = (i % n0, i / n0);
            assert_eq!(l.offset(i), -((a * (w - 2)) as isize) + (b * (2 * w + 1)) as isize);
        }
    }
    let e = Mixed::new(5, 1).unwrap_err().to_string();
    assert!(e.contains("(W-2) % 2 == 0") && e.contains("W = 5"), "{e}");
    // W = 2 makes the extent (W-2)/2 zero: the sum's positivity is checked.
    let e = Mixed::new(2, 1).unwrap_err().to_string();
    assert!(e.contains("W-2 > 0") && e.contains("W = 2"), "{e}");
}
