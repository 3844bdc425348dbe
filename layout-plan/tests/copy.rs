//! The copy plan: the paper's Table 2 family with the plan each gets, and the plan checked by
//! brute force on random layout pairs: the pairs it copies are exactly `(S(i), D(i))` (any
//! order for an injective destination; for an overlapping one, the same final destination as
//! a sequential loop).

use std::collections::{BTreeMap, BTreeSet};

use layout_core::{LayoutError, max_common_vector, parse_layout};
use layout_plan::{CopyBody, CopyPlan, copy_plan};
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

/// What the transpose blocking promises, in terms of its named thresholds (which are measured
/// choices and may change): square power-of-two blocks that fit `SQUARE_BLOCK_BYTES` while the
/// copy stays in the caches, and line-wide streamed column stripes once the destination exceeds
/// the streaming threshold and its rows start lines.
fn check_blocking(level: layout_plan::Level, rows: i64, cols: i64, ld: i64, points: i64, e: i64) {
    use layout_plan::{
        AVX2_BAND_ROWS, AVX2_STREAM_BYTES, AVX2_STREAM_ROW_BYTES, LINE_BYTES, Level, SQUARE_BLOCK_BYTES, STREAM_BYTES,
        STREAM_ROW_BYTES, transpose_blocking_at,
    };
    let b = transpose_blocking_at(level, rows, cols, ld, points, e);
    let at = format!("{level:?} {rows}x{cols} ld {ld} x{points}, {e}-byte: {b:?}");
    let dst = rows.saturating_mul(cols).saturating_mul(points).saturating_mul(e);
    let lines = (ld * e) % LINE_BYTES == 0;
    match level {
        Level::Avx2 => {
            assert_eq!(b.stream, lines && dst > AVX2_STREAM_BYTES, "{at}");
            assert_eq!(b.cols * e, AVX2_STREAM_ROW_BYTES, "{at}: stripes one line wide");
            assert_eq!(b.rows, if b.stream { rows } else { AVX2_BAND_ROWS }, "{at}");
            assert!(!b.across_first, "{at}: stripes are walked down");
        }
        _ => {
            let streams = level == Level::Avx512 && lines && dst > STREAM_BYTES;
            assert_eq!(b.stream, streams, "{at}");
            if streams {
                assert_eq!((b.rows, b.cols * e), (rows, STREAM_ROW_BYTES), "{at}: whole-height stripes");
                assert!(b.across_first, "{at}");
            } else {
                // The largest power-of-two square that fits the block.
                assert_eq!(b.rows, b.cols, "{at}");
                assert!(b.rows.count_ones() == 1, "{at}");
                assert!(b.rows * b.rows * e <= SQUARE_BLOCK_BYTES, "{at}");
                assert!(4 * b.rows * b.rows * e > SQUARE_BLOCK_BYTES, "{at}");
                assert!(!b.across_first, "{at}");
            }
        }
    }
}

#[test]
fn transpose_blocking_streams_column_stripes_beyond_the_caches() {
    use layout_plan::{AVX2_STREAM_BYTES, Level, STREAM_BYTES, transpose_blocking, transpose_blocking_at};
    let levels = [Level::Portable, Level::Avx2, Level::Avx512];
    for e in [1, 2, 4, 8] {
        // Square destinations just below and above each streaming threshold (a whole copy of
        // exactly the threshold is not streamed), line-aligned rows or not, whole nests.
        let side = |bytes: i64| (1..).find(|n: &i64| n * n * e > bytes).unwrap() - 1;
        let (s1, s2) = (side(STREAM_BYTES), side(AVX2_STREAM_BYTES));
        for n in [8, 64, 256, s1, s1 + 1, s2, s2 + 1] {
            for ld in [n, n + 1, (n + 63) / 64 * 64] {
                for points in [1, 64] {
                    for level in levels {
                        check_blocking(level, n, n, ld, points, e);
                    }
                }
            }
        }
        for level in levels {
            // The threshold itself: a destination of exactly that many bytes stays in the caches.
            let limit = if level == Level::Avx2 { AVX2_STREAM_BYTES } else { STREAM_BYTES };
            let cols = 64 / e;
            let rows = limit / (cols * e);
            check_blocking(level, rows, cols, cols, 1, e);
            assert!(!transpose_blocking_at(level, rows, cols, cols, 1, e).stream, "{level:?} at the limit");
            check_blocking(level, rows + 1, cols, cols, 1, e);
        }
    }
    // `transpose_blocking` is the AVX-512 blocking when the level streams, the portable one
    // otherwise.
    for n in [256, 1024, 4096] {
        for (level, streams) in [(Level::Avx512, true), (Level::Portable, false)] {
            assert_eq!(transpose_blocking_at(level, n, n, n, 1, 4), transpose_blocking(n, n, n, 1, 4, streams));
        }
    }
    // Extreme sizes saturate instead of overflowing.
    assert!(transpose_blocking(i64::MAX, i64::MAX, 1 << 40, i64::MAX, 8, true).stream);
    assert!(transpose_blocking_at(Level::Avx2, i64::MAX, i64::MAX, 1 << 40, i64::MAX, 8).stream);
}

#[test]
fn the_plan_of_a_transpose_names_its_blocking() {
    let p = plan("(1024,1024):(1,1024)", "(1024,1024):(1024,1)");
    for e in [4, 8] {
        let b = p.transpose_blocking(e).unwrap();
        assert_eq!(b, layout_plan::transpose_blocking(1024, 1024, 1024, 1, e, true));
        let text = p.to_string();
        assert!(text.contains(&format!("{e}-byte")) && text.contains(&b.to_string()), "{text}");
    }
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
