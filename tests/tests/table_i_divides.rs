//! docs/algebra.md §4.I: divides (paper §3.5.2; CuTe C++'s zipped / tiled / flat forms).
//!
//! `A ⊘ B = A ∘ (B, B*)` is checked by brute force: `B★ = (B, B*)` (B* found by brute force)
//! is a bijection onto `[0, |A|)`, `R(i) = A(B★(i))` for all i (so `R(i, 0) = A(B(i))`), mode 0
//! is compatible with B and R has the same multiset of offsets as A. By-mode tilers are checked
//! mode by mode; zipped / tiled / flat as re-indexings of the by-mode logical divide.

mod common;

use common::*;
use layout_core::{Layout, LayoutError, logical_divide, parse_tiler, zipped_divide};

/// `logical_divide(a, b)` prints `want` and divides correctly.
fn check(a: &str, b: &str, want: &str) -> Layout {
    let r = eval_layout(&format!("logical_divide({a}, {b})"));
    assert_eq!(r.to_string(), want, "{a} ⊘ {b}");
    assert_logical_divide(&r, &lay(a), &lay(b));
    r
}

#[test]
fn i1_divide_24_3_by_8_3() {
    check("24:3", "8:3", "(8,3):(9,3)");
    assert_eq!(show("complement(8:3, 24)"), "3:1");
    let star = eval_layout("make_layout(8:3, complement(8:3, 24))");
    assert_eq!(star.to_string(), "(8,3):(3,1)");
    assert!(is_bijection_onto(&star, 24));
}

#[test]
fn i2_divide_multimode_a_by_8_3() {
    check("(6,2,2):(2,1,20)", "8:3", "((2,2,2),3):((6,1,20),2)");
}

const I3_A: &str = "(8,16):(20,1)";
const I3_T: &str = "[4:1,8:2]";

/// The by-mode divide of I3, checked mode by mode.
fn i3_logical() -> Layout {
    let r = eval_layout(&format!("logical_divide({I3_A}, {I3_T})"));
    assert_by_mode(&r, &lay(I3_A), &[Some(lay("4:1")), Some(lay("8:2"))], assert_logical_divide);
    r
}

/// `arranged` at index `index(t0, t1, r0, r1)` equals the by-mode divide at `((t0,r0),(t1,r1))`.
fn assert_rearranges_i3(arranged: &Layout, index: impl Fn(i64, i64, i64, i64) -> i64) {
    let l = i3_logical();
    for t0 in 0..4 {
        for r0 in 0..2 {
            for t1 in 0..8 {
                for r1 in 0..2 {
                    let want = at(&l, t0 + 4 * r0 + 8 * (t1 + 8 * r1));
                    assert_eq!(at(arranged, index(t0, t1, r0, r1)), want, "({t0},{t1},{r0},{r1})");
                }
            }
        }
    }
}

#[test]
fn i3_by_mode_logical_divide() {
    assert_eq!(show(&format!("logical_divide({I3_A}, {I3_T})")), "((4,2),(8,2)):((20,80),(2,1))");
    let r = i3_logical();
    let (mut x, mut y) = (values(&r), values(&lay(I3_A)));
    x.sort_unstable();
    y.sort_unstable();
    assert_eq!(x, y, "the divide keeps A's offsets");
}

#[test]
fn i4_zipped_divide_gathers_tiles_and_rests() {
    assert_eq!(show(&format!("zipped_divide({I3_A}, {I3_T})")), "((4,8),(2,2)):((20,2),(80,1))");
    let z = eval_layout(&format!("zipped_divide({I3_A}, {I3_T})"));
    assert_rearranges_i3(&z, |t0, t1, r0, r1| t0 + 4 * t1 + 32 * (r0 + 2 * r1));
}

#[test]
fn i5_tiled_and_flat_divide() {
    assert_eq!(show(&format!("tiled_divide({I3_A}, {I3_T})")), "((4,8),2,2):((20,2),80,1)");
    assert_eq!(show(&format!("flat_divide({I3_A}, {I3_T})")), "(4,8,2,2):(20,2,80,1)");
    let t = eval_layout(&format!("tiled_divide({I3_A}, {I3_T})"));
    assert_eq!(t.rank(), 3);
    assert_rearranges_i3(&t, |t0, t1, r0, r1| t0 + 4 * t1 + 32 * r0 + 64 * r1);
    let f = eval_layout(&format!("flat_divide({I3_A}, {I3_T})"));
    assert_eq!(f.rank(), 4);
    assert_rearranges_i3(&f, |t0, t1, r0, r1| index_of(&[4, 8, 2, 2], &[t0, t1, r0, r1]));
}

#[test]
fn i6_divide_cpp_docs_example() {
    check("(4,2,3):(2,1,8)", "4:2", "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(show("complement(4:2, 24)"), "(2,3):(1,8)");
}

#[test]
fn i7_by_mode_divide_of_hierarchical_a() {
    let (a, t) = ("(9,(4,8)):(59,(13,1))", "[3:3,(2,4):(1,8)]");
    assert_eq!(show(&format!("logical_divide({a}, {t})")), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    let r = eval_layout(&format!("logical_divide({a}, {t})"));
    assert_by_mode(&r, &lay(a), &[Some(lay("3:3")), Some(lay("(2,4):(1,8)"))], assert_logical_divide);
    let z = zipped_divide(&lay(a), &parse_tiler(t).unwrap()).unwrap();
    assert_eq!(z.mode(0).unwrap().to_string(), "(3,(2,4)):(177,(13,2))", "the tile part");
    // The tile is A ∘ ⟨3:3, (2,4):(1,8)⟩.
    let tile = eval_layout(&format!("composition({a}, {t})"));
    assert_same_function(&z.mode(0).unwrap(), &tile);
}

#[test]
fn i8_divide_24_1_by_4_2() {
    check("24:1", "4:2", "(4,(2,3)):(2,(1,8))");
}

#[test]
fn i9_divide_by_rank2_tiler_pycute_doc() {
    check("(6,6):(1,12)", "(6,3):(3,1)", "(((2,3),3),2):(((3,12),1),36)");
}

/// I10: for any A and B, an accepted divide satisfies the brute-force invariants, and a
/// rejection names a real defect. Swept over several A of size 24 and every tiler `s:d` and
/// `(s0,s1):(d0,d1)` in a small range. For a rank-1 A composition needs no checks, so every
/// tiler whose B★ tiles `[0, 24)` exactly must be accepted.
#[test]
fn i10_divide_invariants_for_a_sweep_of_layouts_and_tilers() {
    let mut tilers = Vec::new();
    for s in 1..=24 {
        for d in 0..=24 {
            tilers.push(Layout::scalar(s, d).unwrap());
        }
    }
    for s0 in 1..=6 {
        for s1 in 1..=6 {
            for d0 in 0..=12 {
                for d1 in 0..=12 {
                    tilers.push(lay(&format!("({s0},{s1}):({d0},{d1})")));
                }
            }
        }
    }
    let (mut accepted, mut rejected) = (0, 0);
    for a in ["24:1", "24:3", "(4,6):(1,4)", "(4,6):(6,1)", "(6,2,2):(2,1,20)", "(2,3,4):(1,10,2)"] {
        let a = lay(a);
        for b in &tilers {
            let tiles = is_injective(b) && complement_bases(b, 24).is_ok_and(|c| c.len() as i64 * b.size() == 24);
            match logical_divide(&a, b) {
                Ok(r) => {
                    accepted += 1;
                    assert!(tiles, "`{a}` ⊘ `{b}` accepted but B★ does not tile [0, 24)");
                    assert_logical_divide(&r, &a, b);
                }
                Err(e) => {
                    rejected += 1;
                    match e {
                        LayoutError::TilerOverrun { star_size, overrun, .. } => {
                            assert!(!tiles, "`{b}` tiles 24 but was rejected: {e}");
                            assert_eq!(star_size - 24, overrun);
                        }
                        LayoutError::TilerNotBijective { .. } => assert!(!tiles, "`{b}` tiles 24: {e}"),
                        LayoutError::StrideDivisibility { .. }
                        | LayoutError::ShapeDivisibility { .. }
                        | LayoutError::NotDistributive { .. } => {
                            assert!(tiles, "`{b}` does not tile, but the error is about composition: {e}");
                            assert!(a.rank() > 1, "composition with rank-1 `{a}` cannot fail: {e}");
                        }
                        e => panic!("`{a}` ⊘ `{b}`: unexpected error {e:?}"),
                    }
                }
            }
        }
    }
    assert!(accepted > 500 && rejected > 500, "sweep too narrow: {accepted} accepted, {rejected} rejected");
}
