//! `copy(SRC, DST, overlapping)` over layouts with symbols, through items and inline
//! operands, and `CopyPlan::new_overlapping`: destinations that write a place more than once
//! (a stride 0, a leading dimension below the extent, a diagonal) against a sequential loop in
//! index order into a poisoned destination, at every SIMD level; an injective destination
//! copies as without `overlapping`; a shared symbol with two values and sizes that differ
//! are errors that leave the destination untouched.

use cute_layout::{CopyPlan, LayoutFn, Offset, PlanError, RuntimeLayout, Tensor, TensorMut, layout};

mod common;
use common::{Rng, at_each_level};

layout! {
    pub Cm = (M,N):(1,LDS);
    pub Lane = (M,N):(1,0);
    pub Band = (M,N):(1,S);
    pub Skew = (M,N):(LDD,1);
    pub fn last_column = copy(Cm, Lane, overlapping);
    pub fn into_band = copy(Cm, Band, overlapping);
    pub fn skewed = copy(Cm, Skew, overlapping);
    pub fn inline_rows = copy((M,N):(1,LDS), (M,N):(0,1), overlapping);
    pub Run = (X):(1);
    pub Spot = (Y):(0);
    pub fn last_of = copy(Run, Spot, overlapping);
}

const POISON: i64 = -7;

/// The sequential loop: `dst[D(i)] = src[S(i)]` for `i = 0, 1, …`, into a poisoned buffer of
/// `len` elements.
fn reference<S, D>(src: &[i64], s: &S, d: &D, len: usize) -> Vec<i64>
where
    S: LayoutFn<Offset: Offset>,
    D: LayoutFn<Offset: Offset>,
{
    let mut out = vec![POISON; len];
    for i in 0..s.size() {
        out[d.offset(i).to_isize() as usize] = src[s.offset(i).to_isize() as usize];
    }
    out
}

/// The source: distinct values, so that a wrong write order shows.
fn source(len: usize) -> Vec<i64> {
    (0..len as i64).map(|x| 1000 + x).collect()
}

#[test]
fn overlapping_items_match_the_sequential_loop() {
    let mut rng = Rng(0x0ed_c0de);
    at_each_level(|level| {
        for _ in 0..60 {
            let (m, n) = (1 + rng.below(40), 1 + rng.below(12));
            let lds = m + rng.below(5);
            let src = source(lds * n);
            let s = Cm::new(m, n, lds).unwrap();
            let st = Tensor::new(&src, s).unwrap();

            let d = Lane::new(m, n).unwrap();
            let mut dst = vec![POISON; m];
            last_column(&st, &mut TensorMut::new(&mut dst, d).unwrap());
            assert_eq!(dst, reference(&src, &s, &d, m), "{level:?} last_column m={m} n={n}");

            // A band: the columns overlap where S < M, are disjoint where S >= M.
            let stride = 1 + rng.below(m + 2);
            let d = Band::new(m, n, stride).unwrap();
            let len = m + (n - 1) * stride;
            let mut dst = vec![POISON; len];
            into_band(&st, &mut TensorMut::new(&mut dst, d).unwrap());
            assert_eq!(dst, reference(&src, &s, &d, len), "{level:?} into_band m={m} n={n} S={stride}");

            let ldd = 1 + rng.below(n + 1);
            let d = Skew::new(m, n, ldd).unwrap();
            let len = (m - 1) * ldd + n;
            let mut dst = vec![POISON; len];
            skewed(&st, &mut TensorMut::new(&mut dst, d).unwrap());
            assert_eq!(dst, reference(&src, &s, &d, len), "{level:?} skewed m={m} n={n} LDD={ldd}");

            let d = RuntimeLayout::<2>::new(&[(m, 0), (n, 1)]).unwrap();
            let rs = RuntimeLayout::<2>::new(&[(m, 1), (n, lds as isize)]).unwrap();
            let mut dst = vec![POISON; n];
            let rst = Tensor::new(&src, rs).unwrap();
            inline_rows(&rst, &mut TensorMut::new(&mut dst, d).unwrap());
            assert_eq!(dst, reference(&src, &rs, &d, n), "{level:?} inline_rows m={m} n={n}");
        }
    });
}

#[test]
fn the_run_time_plan_overlaps_only_when_asked() {
    let mut rng = Rng(7);
    at_each_level(|level| {
        for _ in 0..40 {
            let (m, n) = (1 + rng.below(20), 2 + rng.below(10));
            let src = source(m * n);
            let s = RuntimeLayout::<2>::new(&[(m, 1), (n, m as isize)]).unwrap();
            // Rows of stride `r < n` overlap.
            let r = rng.below(n);
            let d = RuntimeLayout::<2>::new(&[(m, r as isize), (n, 1)]).unwrap();
            let len = (m - 1) * r + n;
            if m > 1 {
                assert!(matches!(CopyPlan::new(&s, &d), Err(PlanError::Layout { .. })), "m={m} n={n} r={r}");
            }
            let plan = CopyPlan::new_overlapping(&s, &d).unwrap();
            let mut dst = vec![POISON; len];
            plan.run(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
            assert_eq!(dst, reference(&src, &s, &d, len), "{level:?} m={m} n={n} r={r}");
        }
    });
}

#[test]
fn injective_destinations_copy_as_without_overlapping() {
    let (m, n, lds) = (9, 5, 11);
    let src = source(lds * n);
    let s = Cm::new(m, n, lds).unwrap();
    let d = Band::new(m, n, m + 2).unwrap();
    let len = m + (n - 1) * (m + 2);
    let mut dst = vec![POISON; len];
    into_band(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
    assert_eq!(dst, reference(&src, &s, &d, len));
    assert_eq!(dst.iter().filter(|&&x| x == POISON).count(), len - m * n);
}

#[test]
fn disagreeing_symbols_and_sizes_are_errors() {
    let src = source(12);
    let mut dst = vec![POISON; 4];
    let s = Cm::new(3, 4, 3).unwrap();
    let d = Lane::new(4, 1).unwrap();
    let e = try_last_column(&Tensor::new(&src, s).unwrap(), &mut TensorMut::new(&mut dst, d).unwrap());
    assert!(matches!(e, Err(PlanError::Symbol { symbol: "M", .. })), "{e:?}");
    assert!(dst.iter().all(|&x| x == POISON));

    // No shared symbol: the plan compares the sizes.
    let e = try_last_of(
        &Tensor::new(&src, Run::new(12).unwrap()).unwrap(),
        &mut TensorMut::new(&mut dst, Spot::new(5).unwrap()).unwrap(),
    );
    assert!(matches!(e, Err(PlanError::Layout { .. })), "{e:?}");
    assert!(dst.iter().all(|&x| x == POISON));
    last_of(
        &Tensor::new(&src, Run::new(12).unwrap()).unwrap(),
        &mut TensorMut::new(&mut dst, Spot::new(12).unwrap()).unwrap(),
    );
    assert_eq!(dst[0], src[11]);
}
