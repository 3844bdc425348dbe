//! The safe kernel entries reject what safe code can hand them: a too-short slice, a forged
//! program, forged pairs, offsets or extents and strides, and a user's own `CopySource`
//! (issue 21). Each case asserts the panic (and that nothing outside the views was touched).
#![forbid(unsafe_code)]

use cute_layout::kernels::{
    self, Body, CopyProgram, DstView, Extremes, Loop, Program, SrcView, UnrolledCopy, copy, copy_indexed, copy_unrolled,
};
use cute_layout::{CopyDest, CopySource, layout};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The panic message of `f`, which must panic.
fn panic_of(f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap()
}

const RUN: Program<'static> = Program {
    body: Body::Run { len: 8, src: 1, dst: 1 },
    loops: &[Loop { extent: 4, src: 8, dst: 8 }],
    src_base: 0,
    dst_base: 0,
};

#[test]
fn extremes_are_closed_form_over_the_nest_and_body() {
    assert_eq!(RUN.extremes(), Some(Extremes { src: (0, 31), dst: (0, 31) }));
    let t = Program {
        body: Body::Transpose { rows: 3, cols: 2, src_ld: -5, dst_ld: 4 },
        loops: &[Loop { extent: 3, src: 100, dst: -10 }, Loop { extent: 1, src: 7, dst: 7 }],
        src_base: 6,
        dst_base: 30,
    };
    // Source: 6 + (0..=2) + (0..=1)·-5 + (0..=2)·100; destination: 30 + (0..=2)·4 + (0..=1) + (0..=2)·-10.
    assert_eq!(t.extremes(), Some(Extremes { src: (1, 208), dst: (10, 39) }));
    let empty = Program { loops: &[Loop { extent: 0, src: 1 << 40, dst: 0 }], ..RUN };
    assert_eq!(empty.extremes(), None);
}

#[test]
fn a_checked_copy_copies() {
    let src: Vec<u32> = (0..32).collect();
    let mut dst = vec![0u32; 32];
    copy(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &const { CopyProgram::new(RUN) });
    assert_eq!(src, dst);
}

#[test]
fn a_short_destination_view_panics_with_the_numbers() {
    let src = vec![1u32; 32];
    let mut dst = vec![0u32; 31];
    let m = panic_of(|| copy(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &CopyProgram::new(RUN)));
    assert!(m.contains("writes 0..=31") && m.contains("destination view 0..=30"), "{m}");
    assert!(dst.iter().all(|&x| x == 0));
}

#[test]
fn a_forged_program_is_checked() {
    // The attack of issue 21: a program that reaches 60 elements past a 4-element slice.
    let src = vec![1u64; 4];
    let mut dst = vec![0u64; 4];
    let forged =
        CopyProgram::new(Program { body: Body::Run { len: 1, src: 1, dst: 1 }, loops: &[], src_base: 0, dst_base: 60 });
    let m = panic_of(|| copy(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &forged));
    assert!(m.contains("writes 60..=60"), "{m}");
    // Negative offsets before the origin are outside too.
    let before = CopyProgram::new(Program { src_base: -1, dst_base: 0, ..RUN });
    let m = panic_of(|| copy(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &before));
    assert!(m.contains("reads offsets -1..="), "{m}");
}

#[test]
fn a_program_whose_offsets_overflow_panics() {
    let huge = Program { loops: &[Loop { extent: usize::MAX, src: 2, dst: 1 }], ..RUN };
    let m = panic_of(|| {
        CopyProgram::new(huge);
    });
    assert!(m.contains("overflow"), "{m}");
}

#[test]
fn forged_unrolled_pairs_are_checked() {
    let src = vec![7i32; 6];
    let mut dst = vec![0i32; 6];
    const LOOPS: &[Loop] = &[Loop { extent: 3, src: 2, dst: 2 }];
    copy_unrolled(
        SrcView::new(&src, 0),
        DstView::new(&mut dst, 0),
        &const { UnrolledCopy::new(LOOPS, 0, 0, [(0, 1), (1, 0)]) },
    );
    assert_eq!(dst, [7; 6]);
    let forged = UnrolledCopy::new(LOOPS, 0, 0, [(0, 0), (0, 60)]);
    let m = panic_of(|| copy_unrolled(SrcView::new(&src, 0), DstView::new(&mut dst, 0), &forged));
    assert!(m.contains("writes 0..=64"), "{m}");
}

#[test]
fn indexed_offsets_are_checked_one_by_one() {
    let src = vec![3u16; 4];
    let mut dst = vec![0u16; 4];
    let m = panic_of(|| copy_indexed(SrcView::new(&src, 0), DstView::new(&mut dst, 0), 4, |i| (0, 2 * i as isize)));
    assert!(m.contains("index 2 reads offset 0 and writes 4"), "{m}");
    assert_eq!(dst, [3, 0, 3, 0]);
}

#[test]
fn a_view_origin_past_the_end_panics() {
    let src = vec![0u8; 4];
    let m = panic_of(|| {
        SrcView::new(&src, 5);
    });
    assert!(m.contains("origin 5"), "{m}");
    let v = SrcView::new(&src, 4);
    assert_eq!((v.lo(), v.hi()), (-4, -1));
}

#[test]
fn forged_small_gemm_extents_and_offsets_are_checked() {
    use cute_layout::__private::small_gemm;
    let a = vec![1.0f32; 16];
    let b = vec![1.0f32; 16];
    let mut c = vec![0.0f32; 16];
    let (av, bv) = (SrcView::new(&a, 0), SrcView::new(&b, 0));
    small_gemm::<f32, 4, 4, 4, 1, 4, 1, 4, 1, 4>(1.0, &av, 0, &bv, 0, 0.0, &mut DstView::new(&mut c, 0), 0);
    assert_eq!(c, [4.0; 16]);
    // A 16x16 problem over 16-element slices.
    let m = panic_of(|| {
        small_gemm::<f32, 16, 16, 16, 1, 16, 1, 16, 1, 16>(1.0, &av, 0, &bv, 0, 0.0, &mut DstView::new(&mut c, 0), 0)
    });
    assert!(m.contains("A addresses offsets 0 + (0..=255)"), "{m}");
    // An offset of C past its view.
    let m = panic_of(|| {
        small_gemm::<f32, 4, 4, 4, 1, 4, 1, 4, 1, 4>(1.0, &av, 0, &bv, 0, 0.0, &mut DstView::new(&mut c, 0), 60)
    });
    assert!(m.contains("C addresses offsets 60 + (0..=15)"), "{m}");
    let m = panic_of(|| {
        small_gemm::<f32, 4, 4, 4, 1, 4, 1, 4, 1, 4>(1.0, &av, isize::MAX, &bv, 0, 0.0, &mut DstView::new(&mut c, 0), 0)
    });
    assert!(m.contains("A addresses"), "{m}");
}

#[test]
fn forged_gemm_extents_and_strides_are_checked() {
    use cute_layout::gemm::gemm_views;
    let a = vec![1.0f64; 40 * 40];
    let b = vec![1.0f64; 40 * 40];
    let mut c = vec![0.0f64; 40 * 40];
    let (av, bv) = (SrcView::new(&a, 0), SrcView::new(&b, 0));
    gemm_views(40, 40, 40, 1.0, &av, 0, 1, 40, &bv, 0, 1, 40, 0.0, &mut DstView::new(&mut c, 0), 0, 1, 40);
    assert!(c.iter().all(|&x| x == 40.0));
    let m = panic_of(|| {
        gemm_views(40, 40, 41, 1.0, &av, 0, 1, 40, &bv, 0, 1, 40, 0.0, &mut DstView::new(&mut c, 0), 0, 1, 40)
    });
    assert!(m.contains("A addresses offsets 0 + (0..=1639)"), "{m}");
    let m = panic_of(|| {
        gemm_views(40, 40, 40, 1.0, &av, 0, 1, 40, &bv, 0, 1, -40, 0.0, &mut DstView::new(&mut c, 0), 0, 1, 40)
    });
    assert!(m.contains("B addresses offsets 0 + (-1560..=39)"), "{m}");
    // A C whose strides map every element to one place is in bounds: it runs, on one thread
    // (large enough to be blocked and split across threads otherwise).
    let mut one = vec![0.0f64; 1];
    gemm_views(256, 256, 6, 1.0, &av, 0, 1, 0, &bv, 0, 1, 0, 0.0, &mut DstView::new(&mut one, 0), 0, 0, 0);
    assert!(one[0].is_finite());
}

layout! {
    pub Src = (4,8):(1,4);
    pub Dst = (4,8):(8,1);
    pub fn transpose = copy(Src, Dst);
    pub fn small = gemm(f32, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
}

/// A user's own source: it can only hand out views of slices it really borrows.
struct Mine(Vec<u32>);

impl CopySource<u32, Src> for &Mine {
    fn source<'s>(self, _: isize, _: isize, _: &'static str) -> SrcView<'s, u32>
    where
        Self: 's,
    {
        // Too short on purpose: the copy must notice.
        SrcView::new(&self.0[..4], 0)
    }
}

#[test]
fn a_user_copy_source_cannot_reach_past_its_slice() {
    let mine = Mine((0..32).collect());
    let mut dst = vec![0u32; 32];
    let m = panic_of(|| transpose(&mine, &mut dst));
    assert!(m.contains("reads offsets 0..=31") && m.contains("source view holds 0..=3"), "{m}");
    assert!(dst.iter().all(|&x| x == 0));
}

/// A user's own destination for a GEMM item, too short.
struct Out(Vec<f32>);

impl CopyDest<f32, cute_layout::__private::InlineLayout> for &mut Out {
    fn dest<'s>(self, _: isize, _: isize, _: &'static str) -> DstView<'s, f32>
    where
        Self: 's,
    {
        DstView::new(&mut self.0, 8)
    }
}

#[test]
fn a_user_copy_dest_cannot_reach_past_its_slice() {
    let (a, b) = (vec![1.0f32; 16], vec![1.0f32; 16]);
    let mut out = Out(vec![0.0; 16]);
    let m = panic_of(|| small(1.0, &a, &b, 0.0, &mut out));
    assert!(m.contains("C addresses offsets 0 + (0..=15), but its view holds -8..=7"), "{m}");
    let _ = kernels::level();
}
