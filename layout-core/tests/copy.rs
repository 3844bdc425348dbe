//! The copy plan: the paper's Table 2 family with the plan each gets, and the plan checked by
//! brute force on random layout pairs: the pairs it copies are exactly `(S(i), D(i))` (any
//! order for an injective destination; for an overlapping one, the same final destination as
//! a sequential loop).

use std::collections::{BTreeMap, BTreeSet};

use layout_core::{CopyBody, CopyPlan, LayoutError, copy_plan, max_common_vector, parse_layout};
use proptest::prelude::*;

fn plan(s: &str, d: &str) -> CopyPlan {
    copy_plan(&parse_layout(s).unwrap(), &parse_layout(d).unwrap(), false).unwrap()
}

/// What a sequential loop `for i { dst[D(i)] = src[S(i)] }` leaves: destination offset ->
/// source offset of the last write.
fn sequential(plan: &CopyPlan) -> BTreeMap<i64, i64> {
    (0..plan.size).map(|i| (plan.dst.eval(i).unwrap(), plan.src.eval(i).unwrap())).collect()
}

/// The plan is right: injective destinations get exactly the pairs `(S(i), D(i))`, each once;
/// any destination ends as the sequential loop leaves it.
fn check(plan: &CopyPlan) {
    let pairs = plan.pairs().unwrap();
    let replayed: BTreeMap<i64, i64> = pairs.iter().map(|&(s, d)| (d, s)).collect();
    assert_eq!(replayed, sequential(plan), "{plan}");
    if plan.injective {
        assert_eq!(pairs.len() as i64, plan.size, "{plan}");
        let want: BTreeSet<(i64, i64)> =
            (0..plan.size).map(|i| (plan.src.eval(i).unwrap(), plan.dst.eval(i).unwrap())).collect();
        assert_eq!(pairs.iter().copied().collect::<BTreeSet<_>>(), want, "{plan}");
    }
}

#[test]
fn contiguous_is_one_vector() {
    let p = plan("(8,4):(1,8)", "32:1");
    assert_eq!(p.body, CopyBody::Run { len: 32, src: 1, dst: 1 });
    assert!(p.loops.is_empty());
    assert_eq!(p.vector, 32);
    check(&p);
}

#[test]
fn strided_columns_keep_the_column_vector() {
    // CuTe's vector rule: (16,8):(1,16) -> (16,8):(1,32) copies one 16-element vector per column.
    let p = plan("(16,8):(1,16)", "(16,8):(1,32)");
    assert_eq!(p.body, CopyBody::Run { len: 16, src: 1, dst: 1 });
    assert_eq!(p.vector, 16);
    assert_eq!(p.loops.len(), 1);
    assert_eq!((p.loops[0].extent, p.loops[0].src, p.loops[0].dst), (8, 16, 32));
    check(&p);
}

#[test]
fn gather_from_table_2() {
    let p = plan("(2,3,2):(42,1,128)", "12:1");
    assert_eq!(p.vector, 1);
    // The destination is contiguous along the first mode, the source along the second: a
    // 3x2 transpose of those two, looped over the third.
    assert_eq!(p.body, CopyBody::Transpose { rows: 3, cols: 2, src_ld: 42, dst_ld: 2 });
    check(&p);
}

#[test]
fn scatter_is_the_gather_reversed() {
    let p = plan("12:1", "(2,3,2):(42,1,128)");
    check(&p);
    assert_eq!(p.vector, 1);
}

#[test]
fn broadcast_loads_once() {
    let p = plan("7:0", "7:1");
    assert_eq!(p.body, CopyBody::Run { len: 7, src: 0, dst: 1 });
    assert_eq!(p.broadcast.len(), 1);
    check(&p);
    let c = plan("(8,8):(1,0)", "(8,8):(1,8)");
    assert_eq!(c.body, CopyBody::Run { len: 8, src: 1, dst: 1 });
    assert_eq!(c.broadcast.len(), 1, "{c}");
    check(&c);
}

#[test]
fn transpose_from_table_2() {
    let p = plan("(8,3):(1,8)", "(8,3):(3,1)");
    assert_eq!(p.body, CopyBody::Transpose { rows: 8, cols: 3, src_ld: 8, dst_ld: 3 });
    check(&p);
}

#[test]
fn tensor_transpose_from_table_2() {
    let p = plan("(8,(3,5)):(1,(57,8))", "(8,15):(1,8)");
    assert_eq!(p.vector, 8);
    assert_eq!(p.body, CopyBody::Run { len: 8, src: 1, dst: 1 });
    check(&p);
}

#[test]
fn negative_strides_flip_into_a_vector() {
    let p = plan("8:-1", "8:-1");
    assert_eq!(p.body, CopyBody::Run { len: 8, src: 1, dst: 1 });
    assert_eq!((p.src_base, p.dst_base), (-7, -7));
    check(&p);
}

#[test]
fn no_common_refinement_is_indexed() {
    let p = plan("(2,3):(3,1)", "(3,2):(2,1)");
    assert_eq!(p.body, CopyBody::Indexed);
    check(&p);
}

#[test]
fn sizes_must_agree() {
    let e = copy_plan(&parse_layout("8:1").unwrap(), &parse_layout("(2,3):(1,2)").unwrap(), false).unwrap_err();
    assert!(matches!(e, LayoutError::CopySize { src_size: 8, dst_size: 6, .. }), "{e}");
    assert!(e.to_string().contains("has 8 elements but the destination `(2,3):(1,2)` has 6"), "{e}");
}

#[test]
fn overlapping_destination_needs_consent() {
    let (s, d) = (parse_layout("(4,2):(1,4)").unwrap(), parse_layout("(4,2):(1,0)").unwrap());
    let e = copy_plan(&s, &d, false).unwrap_err();
    assert_eq!(e, LayoutError::CopyNotInjective { dst: "(4,2):(1,0)".into(), i: 0, j: 4, offset: 0 });
    assert!(e.help().unwrap().contains("overlapping"));
    let p = copy_plan(&s, &d, true).unwrap();
    assert!(!p.injective);
    assert_eq!(p.reduced.len(), 1);
    assert_eq!(p.src_base, 4, "the last write of the stride-0 mode is its last coordinate");
    check(&p);
    // Overlap without a stride-0 mode: index order is kept.
    let q = copy_plan(&parse_layout("(3,3):(1,3)").unwrap(), &parse_layout("(3,3):(1,1)").unwrap(), true).unwrap();
    assert!(!q.injective);
    check(&q);
}

#[test]
fn explain_names_the_steps() {
    let text = plan("(8,3):(1,8)", "(8,3):(3,1)").to_string();
    assert!(text.contains("common vector: 1 element"), "{text}");
    assert!(text.contains("8x3 transpose"), "{text}");
}

/// A small layout with flat modes: extents 1..=4, strides -4..=8.
fn small_layout() -> impl Strategy<Value = String> {
    prop::collection::vec((1i64..=4, -4i64..=8), 1..=3).prop_map(|modes| {
        let (n, d): (Vec<_>, Vec<_>) = modes.into_iter().unzip();
        let join = |v: &[i64]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        format!("({}):({})", join(&n), join(&d))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any pair of equal size: the plan copies what the sequential loop copies, and the
    /// vector is at least CuTe's `max_common_vector`.
    #[test]
    fn plan_copies_what_the_loop_copies(s in small_layout(), shuffle in any::<u64>(), overlapping in any::<bool>()) {
        let src = parse_layout(&s).unwrap();
        // A destination of the same size: the source's extents regrouped with new strides.
        let mut flat: Vec<i64> = src.flat_modes().iter().map(|m| m.0).collect();
        let mut x = shuffle;
        for k in (1..flat.len()).rev() {
            flat.swap(k, (x % (k as u64 + 1)) as usize);
            x /= 7;
        }
        let strides: Vec<i64> = flat.iter().map(|_| { let d = (x % 13) as i64 - 4; x /= 13; d }).collect();
        let join = |v: &[i64]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        let dst = parse_layout(&format!("({}):({})", join(&flat), join(&strides))).unwrap();
        match copy_plan(&src, &dst, overlapping) {
            Ok(p) => {
                check(&p);
                if p.injective && p.body != CopyBody::Indexed && dst.non_negative() && src.non_negative()
                    && let Ok(v) = max_common_vector(&src, &dst) {
                    prop_assert!(p.vector >= v, "{p}: vector {} < max_common_vector {v}", p.vector);
                }
            }
            Err(LayoutError::CopyNotInjective { i, j, offset, .. }) => {
                prop_assert!(!overlapping);
                prop_assert!(i != j && dst.eval(i).unwrap() == offset && dst.eval(j).unwrap() == offset);
            }
            Err(e) => prop_assert!(false, "unexpected rejection of {src} -> {dst}: {e}"),
        }
    }
}

#[test]
fn transpose_blocking_streams_column_stripes_beyond_the_l2() {
    use layout_core::{TransposeBlocking, transpose_blocking};
    let square = |side| TransposeBlocking { rows: side, cols: side, across_first: false, stream: false };
    // n = 256 f32 (256 KiB) stays in the caches: 4 KiB square blocks.
    assert_eq!(transpose_blocking(256, 256, 256, 1, 4, true), square(32));
    assert_eq!(transpose_blocking(256, 256, 256, 1, 8, true), square(16));
    assert_eq!(transpose_blocking(256, 256, 256, 1, 1, true), square(64));
    // n = 1024 f32 (4 MiB): column stripes of 128 bytes per row, streamed.
    let stripes = |rows, cols| TransposeBlocking { rows, cols, across_first: true, stream: true };
    assert_eq!(transpose_blocking(1024, 1024, 1024, 1, 4, true), stripes(1024, 32));
    assert_eq!(transpose_blocking(1024, 1024, 1024, 1, 8, true), stripes(1024, 16));
    // The whole nest counts: 64 bodies of 128 KiB.
    assert_eq!(transpose_blocking(128, 256, 256, 64, 4, true), stripes(128, 32));
    assert_eq!(transpose_blocking(128, 256, 256, 1, 4, true), square(32));
    // No streaming without line-aligned destination rows, or at a level without it.
    assert_eq!(transpose_blocking(1024, 1000, 1001, 1, 4, true), square(32));
    assert_eq!(transpose_blocking(1024, 1024, 1024, 1, 4, false), square(32));
    // Extreme sizes saturate instead of overflowing.
    assert!(transpose_blocking(i64::MAX, i64::MAX, 1 << 40, i64::MAX, 8, true).stream);
}

#[test]
fn avx2_blocking_walks_one_line_wide_stripes_down() {
    use layout_core::{BlockingLevel, TransposeBlocking, transpose_blocking_at};
    let at = |rows, cols, ld, points, e| transpose_blocking_at(BlockingLevel::Avx2, rows, cols, ld, points, e);
    let b = |rows, cols, stream| TransposeBlocking { rows, cols, across_first: false, stream };
    // In the caches (up to 8 MiB of destination): bands of 256 rows of stripes 64 bytes wide.
    assert_eq!(at(256, 256, 256, 1, 4), b(256, 16, false));
    assert_eq!(at(1024, 1024, 1024, 1, 4), b(256, 16, false));
    assert_eq!(at(1024, 1024, 1024, 1, 8), b(256, 8, false));
    // Beyond: whole-height stripes, streamed, when the destination rows start lines.
    assert_eq!(at(4096, 4096, 4096, 1, 4), b(4096, 16, true));
    assert_eq!(at(2048, 1024, 1024, 1, 8), b(2048, 8, true));
    assert_eq!(at(4096, 4096, 4097, 1, 4), b(256, 16, false));
    // The whole nest counts: 64 bodies of 256 KiB.
    assert_eq!(at(256, 256, 256, 64, 4), b(256, 16, true));
    // The other levels are as `transpose_blocking` says.
    for (level, streams) in [(BlockingLevel::Avx512, true), (BlockingLevel::Portable, false)] {
        for n in [256, 1024, 4096] {
            assert_eq!(
                transpose_blocking_at(level, n, n, n, 1, 4),
                layout_core::transpose_blocking(n, n, n, 1, 4, streams)
            );
        }
    }
    assert!(at(i64::MAX, i64::MAX, 1 << 40, i64::MAX, 8).stream);
}

#[test]
fn the_plan_of_a_transpose_names_its_blocking() {
    let p = plan("(1024,1024):(1,1024)", "(1024,1024):(1024,1)");
    let b = p.transpose_blocking(4).unwrap();
    assert!(b.stream && b.across_first && b.cols == 32);
    assert!(p.to_string().contains("cache blocks, 4-byte elements: 1024x32 blocks"));
    let small = plan("(8,3):(1,8)", "(8,3):(3,1)");
    assert!(!small.transpose_blocking(4).unwrap().stream);
    assert_eq!(plan("8:1", "8:1").transpose_blocking(4), None);
}

#[test]
fn small_bodies_are_unrolled_in_destination_order() {
    // Table 2's gather: a 3x2 transpose body at each of 8192 points.
    let p = plan("((2,3,2),4096):((42,1,128),256)", "(12,4096):(1,12)");
    assert_eq!(p.unrolled(), Some(vec![(0, 0), (42, 1), (1, 2), (43, 3), (2, 4), (44, 5)]));
    assert!(p.to_string().contains("emitted straight-line: 6 moves"));
    // A broadcast and a strided run.
    assert_eq!(plan("7:0", "7:1").unrolled(), Some((0..7).map(|d| (0, d)).collect()));
    assert_eq!(plan("(4,100):(3,1000)", "(4,100):(1,4)").unrolled(), Some(vec![(0, 0), (3, 1), (6, 2), (9, 3)]));
    // Contiguous runs, register-tile transposes and long runs are not.
    assert_eq!(plan("(16,8):(1,32)", "(16,8):(1,16)").unrolled(), None);
    assert_eq!(plan("(8,8):(1,8)", "(8,8):(8,1)").unrolled(), None);
    assert_eq!(plan("65:3", "65:1").unrolled(), None);
    assert!(!plan("(8,8):(1,8)", "(8,8):(8,1)").to_string().contains("straight-line"));
}
