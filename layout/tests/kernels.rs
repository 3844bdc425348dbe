//! The copy kernels against a scalar reference: every body kind, every element width, every
//! dispatch level the CPU has (forced in turn), destinations poisoned first and fenced by a
//! poisoned margin, so a write outside the program's points is caught as well as a wrong one.

use cute_layout::kernels::{self, Body, Element, Level, Loop, Program};
use proptest::prelude::*;
use std::fmt::Debug;
use std::sync::Mutex;

/// Tests force the process-wide level; they take turns so each runs at the level it forced.
static LEVEL_LOCK: Mutex<()> = Mutex::new(());

const LEVELS: [Level; 3] = [Level::Portable, Level::Avx2, Level::Avx512];

/// Runs `f` at each level the CPU (and `LAYOUT_SIMD_LEVEL`) allows, saying which it skips.
fn at_each_level(mut f: impl FnMut(Level)) {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for l in LEVELS {
        let got = kernels::force_level(l);
        if got != l {
            println!("skipping level {l:?}: this CPU (or LAYOUT_SIMD_LEVEL) allows only {got:?}");
            continue;
        }
        f(l);
    }
    kernels::force_level(Level::Avx512);
}

trait TestElem: Element + PartialEq + Debug {
    fn from_index(i: usize) -> Self;
    const POISON: Self;
}

macro_rules! test_elem {
    ($($t:ty: $poison:expr),*) => {$(
        impl TestElem for $t {
            // Distinct values (modulo the width) with no zero: a zeroed write shows.
            fn from_index(i: usize) -> Self { (i % 251 + 1 + (i / 251) * 3) as $t }
            const POISON: Self = $poison;
        }
    )*};
}
test_elem!(u8: 0, u16: 0, u32: 0, u64: 0, i8: 0, i16: 0, i32: 0, i64: 0, usize: 0, isize: 0, f32: -0.5, f64: -0.5);

/// Every (source, destination) offset pair of the program, in the drivers' order.
fn points(p: &Program<'_>) -> Vec<(isize, isize)> {
    fn body(b: &Body, s: isize, d: isize, out: &mut Vec<(isize, isize)>) {
        match *b {
            Body::Run { len, src, dst } => {
                for k in 0..len as isize {
                    out.push((s + k * src, d + k * dst));
                }
            }
            Body::Transpose { rows, cols, src_ld, dst_ld } => {
                for r in 0..rows as isize {
                    for c in 0..cols as isize {
                        out.push((s + r + c * src_ld, d + r * dst_ld + c));
                    }
                }
            }
        }
    }
    fn nest(p: &Program<'_>, k: usize, s: isize, d: isize, out: &mut Vec<(isize, isize)>) {
        if k == 0 {
            return body(&p.body, s, d, out);
        }
        let l = p.loops[k - 1];
        for i in 0..l.extent as isize {
            nest(p, k - 1, s + i * l.src, d + i * l.dst, out);
        }
    }
    let mut out = Vec::new();
    nest(p, p.loops.len(), p.src_base, p.dst_base, &mut out);
    out
}

const MARGIN: usize = 70;

/// Runs `p` on poisoned buffers sized from its points (plus poisoned margins, and `dst_shift`
/// extra elements before the destination to vary its alignment) and compares every
/// destination element with the reference.
fn check_shifted<T: TestElem>(p: &Program<'_>, dst_shift: usize) {
    let pts = points(p);
    let (smax, dmax) = pts.iter().fold((0, 0), |(a, b), &(s, d)| (a.max(s), b.max(d)));
    assert!(pts.iter().all(|&(s, d)| s >= 0 && d >= 0), "test programs keep offsets non-negative");
    let src: Vec<T> = (0..smax as usize + 1 + MARGIN).map(T::from_index).collect();
    let off = MARGIN + dst_shift;
    let mut dst = vec![T::POISON; dmax as usize + 1 + off + MARGIN];
    let mut expect = dst.clone();
    for &(s, d) in &pts {
        expect[off + d as usize] = src[s as usize];
    }
    // SAFETY: every offset is within `0..=smax` / `0..=dmax`, inside the buffers; distinct
    // vectors do not overlap.
    unsafe { kernels::run::<T>(src.as_ptr(), dst.as_mut_ptr().add(off), p) };
    if dst != expect {
        let bad = (0..dst.len()).find(|&i| dst[i] != expect[i]).unwrap();
        panic!(
            "{} at {:?}: first difference at destination offset {} (got {:?}, expected {:?}); program {p:?}",
            std::any::type_name::<T>(),
            kernels::level(),
            bad as isize - off as isize,
            dst[bad],
            expect[bad]
        );
    }
}

fn check<T: TestElem>(p: &Program<'_>) {
    check_shifted::<T>(p, 0);
}

/// Runs `check` for one type of each width.
fn check_widths(p: &Program<'_>) {
    check::<u8>(p);
    check::<u16>(p);
    check::<f32>(p);
    check::<f64>(p);
}

fn prog(body: Body, loops: &[Loop], src_base: isize, dst_base: isize) -> Program<'_> {
    Program { body, loops, src_base, dst_base }
}

/// The level detection picks what the CPU has (run under `qemu-x86_64 -cpu Haswell` it must
/// say Avx2, under `-cpu Nehalem` Portable), capped by `LAYOUT_SIMD_LEVEL`.
#[test]
fn detected_level() {
    let _guard = LEVEL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let l = kernels::force_level(Level::Avx512);
    println!("detected SIMD level: {l:?}");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma");
        let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx512dq");
        let cpu = if avx512 {
            Level::Avx512
        } else if avx2 {
            Level::Avx2
        } else {
            Level::Portable
        };
        let cap = match std::env::var("LAYOUT_SIMD_LEVEL").as_deref() {
            Ok("portable") => Level::Portable,
            Ok("avx2") => Level::Avx2,
            _ => Level::Avx512,
        };
        assert_eq!(l, cpu.min(cap));
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(l, Level::Portable);
    assert_eq!(kernels::force_level(Level::Portable), Level::Portable);
    assert_eq!(kernels::level(), Level::Portable);
    assert_eq!(kernels::force_level(Level::Avx512), l);
    assert_eq!(kernels::level(), l);
}

#[test]
fn all_element_types() {
    let loops = [Loop { extent: 3, src: 40, dst: 9 }];
    let progs = [
        prog(Body::Run { len: 9, src: 1, dst: 1 }, &loops, 0, 0),
        prog(Body::Run { len: 9, src: 0, dst: 1 }, &loops, 2, 1),
        prog(Body::Run { len: 9, src: 3, dst: 1 }, &loops, 0, 0),
        prog(Body::Transpose { rows: 3, cols: 9, src_ld: 4, dst_ld: 9 }, &[], 1, 0),
        prog(Body::Transpose { rows: 17, cols: 18, src_ld: 20, dst_ld: 19 }, &[], 1, 0),
    ];
    at_each_level(|_| {
        for p in &progs {
            check::<u8>(p);
            check::<i8>(p);
            check::<u16>(p);
            check::<i16>(p);
            check::<u32>(p);
            check::<i32>(p);
            check::<f32>(p);
            check::<u64>(p);
            check::<i64>(p);
            check::<f64>(p);
            check::<usize>(p);
            check::<isize>(p);
        }
    });
}

#[test]
fn contiguous_runs() {
    let lens: Vec<usize> = (0..=70).chain([127, 128, 129, 255, 256, 257, 1000, 4099]).collect();
    at_each_level(|_| {
        for &len in &lens {
            let l = len as isize;
            // One run; runs inside a loop with gaps; a run continued by its loops (merged).
            check_widths(&prog(Body::Run { len, src: 1, dst: 1 }, &[], 0, 0));
            let gap = [Loop { extent: 3, src: l + 5, dst: l + 1 }];
            check_widths(&prog(Body::Run { len, src: 1, dst: 1 }, &gap, 2, 3));
            let cont = [Loop { extent: 3, src: l, dst: l }, Loop { extent: 2, src: 3 * l, dst: 3 * l }];
            check_widths(&prog(Body::Run { len, src: 1, dst: 1 }, &cont, 0, 1));
        }
    });
}

/// Destinations big enough for streaming stores (runs of at least 256 bytes, over 4 MiB in
/// all), aligned and not.
#[test]
fn contiguous_streaming() {
    at_each_level(|_| {
        let p = prog(Body::Run { len: 560_000, src: 1, dst: 1 }, &[], 3, 0);
        for shift in [0, 1, 5] {
            check_shifted::<u64>(&p, shift);
        }
        // 300-byte runs with gaps on both sides.
        let loops = [Loop { extent: 7300, src: 80, dst: 77 }];
        check_shifted::<f32>(&prog(Body::Run { len: 75, src: 1, dst: 1 }, &loops, 0, 0), 1);
    });
}

#[test]
fn broadcasts() {
    at_each_level(|_| {
        for len in [1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1000] {
            let l = len as isize;
            check_widths(&prog(Body::Run { len, src: 0, dst: 1 }, &[], 5, 0));
            let lp = [Loop { extent: 4, src: 1, dst: l }];
            check_widths(&prog(Body::Run { len, src: 0, dst: 1 }, &lp, 0, 0));
            let lp = [Loop { extent: 3, src: -1, dst: -l - 2 }];
            check_widths(&prog(Body::Run { len, src: 0, dst: 1 }, &lp, 2, 2 * (l + 2)));
            // Broadcast continued by its loop (merged into one longer broadcast).
            let lp = [Loop { extent: 3, src: 0, dst: l }];
            check_widths(&prog(Body::Run { len, src: 0, dst: 1 }, &lp, 1, 0));
        }
    });
}

#[test]
fn gathers_and_scatters() {
    at_each_level(|_| {
        for len in [1, 2, 5, 8, 9, 16, 17, 33, 40, 100] {
            let l = len as isize;
            for (s, d) in [
                (2, 1),
                (3, 1),
                (4, 1),
                (1, 2),
                (1, 3),
                (1, 4),
                (-1, 1),
                (1, -2),
                (5, -7),
                (-3, -1),
                (0, 2),
                (0, -1),
                (7, 1),
                (2, 3),
            ] {
                let sb = if s < 0 { -s * (l - 1) } else { 0 };
                let db = if d < 0 { -d * (l - 1) } else { 0 };
                check_widths(&prog(Body::Run { len, src: s, dst: d }, &[], sb, db));
                let loops = [Loop { extent: 3, src: 3, dst: d.abs() * l }];
                check_widths(&prog(Body::Run { len, src: s, dst: d }, &loops, sb, db));
            }
        }
        // A single-point body: the innermost loop becomes the run.
        let loops = [Loop { extent: 9, src: 2, dst: 1 }, Loop { extent: 4, src: -20, dst: 9 }];
        check_widths(&prog(Body::Run { len: 1, src: 1, dst: 1 }, &loops, 60, 0));
    });
}

/// Small bodies inside big nests run from a table of offsets with the innermost loops folded
/// in (whole, or split with a remainder): the destination dense, the source dense, neither.
#[test]
fn small_bodies_in_nests() {
    at_each_level(|_| {
        // Table 2's gather: a 3x2 transpose per block, the destination packed.
        let t = Body::Transpose { rows: 3, cols: 2, src_ld: 42, dst_ld: 2 };
        check_widths(&prog(t, &[Loop { extent: 1000, src: 128, dst: 6 }], 0, 0));
        check_widths(&prog(t, &[Loop { extent: 43, src: 128, dst: 6 }, Loop { extent: 5, src: 6000, dst: 300 }], 1, 2));
        // A scatter of a packed source; a strided run with gaps on both sides.
        let r = Body::Run { len: 3, src: 1, dst: 5 };
        check_widths(&prog(r, &[Loop { extent: 7, src: 3, dst: 1 }, Loop { extent: 300, src: 21, dst: 15 }], 0, 0));
        let r = Body::Run { len: 2, src: 7, dst: 3 };
        check_widths(&prog(r, &[Loop { extent: 211, src: -1, dst: 7 }], 220, 0));
        let t = Body::Transpose { rows: 5, cols: 9, src_ld: -6, dst_ld: -10 };
        check_widths(&prog(
            t,
            &[Loop { extent: 2, src: 60, dst: 50 }, Loop { extent: 97, src: 130, dst: 100 }],
            60,
            40,
        ));
    });
}

#[test]
fn negative_strides_nests() {
    at_each_level(|_| {
        // Runs reversed across loops, three deep, with an extent-1 loop in the middle.
        let loops = [
            Loop { extent: 3, src: -8, dst: 8 },
            Loop { extent: 1, src: 1000, dst: 1000 },
            Loop { extent: 2, src: 30, dst: -24 },
            Loop { extent: 2, src: -70, dst: 48 },
        ];
        for len in [1, 4, 8] {
            check_widths(&prog(Body::Run { len, src: 1, dst: 1 }, &loops, 100, 24));
            check_widths(&prog(Body::Run { len, src: -1, dst: 1 }, &loops, 120, 24));
            check_widths(&prog(Body::Run { len, src: 1, dst: -1 }, &loops, 100, 40));
        }
        let t = Body::Transpose { rows: 5, cols: 6, src_ld: -7, dst_ld: 6 };
        let l = [Loop { extent: 3, src: -50, dst: 30 }];
        check_widths(&prog(t, &l, 200, 0));
        let t = Body::Transpose { rows: 20, cols: 18, src_ld: 21, dst_ld: -18 };
        check_widths(&prog(t, &[], 0, 19 * 18));
        // A loop of extent 0 copies nothing.
        let empty = [Loop { extent: 0, src: 1, dst: 1 }];
        check_widths(&prog(Body::Run { len: 4, src: 1, dst: 1 }, &empty, 0, 0));
    });
}

#[test]
fn transposes_small() {
    at_each_level(|_| {
        for rows in 1..=40 {
            for cols in 1..=40 {
                // Leading dimensions equal to the extents on some sizes, larger on others.
                let sld = rows as isize + (rows % 2) as isize * 3;
                let dld = cols as isize + (cols % 3) as isize;
                let p = prog(Body::Transpose { rows, cols, src_ld: sld, dst_ld: dld }, &[], 0, 0);
                check::<u32>(&p);
                check::<u64>(&p);
                if rows % 4 == 1 || cols % 4 == 1 {
                    check::<u8>(&p);
                    check::<u16>(&p);
                }
            }
        }
    });
}

#[test]
fn transposes_larger() {
    at_each_level(|_| {
        for (rows, cols, es, ed) in
            [(100, 37, 0, 0), (37, 100, 5, 3), (257, 255, 0, 0), (64, 64, 0, 0), (128, 96, 16, 16), (65, 130, 1, 0)]
        {
            let body = Body::Transpose { rows, cols, src_ld: rows as isize + es, dst_ld: cols as isize + ed };
            let p = prog(body, &[], 0, 0);
            check_widths(&p);
            check::<u32>(&p);
            check::<u64>(&p);
        }
        // Transposes inside a loop nest (a batch).
        let l = [Loop { extent: 3, src: 40 * 33, dst: 35 * 41 }];
        check_widths(&prog(Body::Transpose { rows: 35, cols: 33, src_ld: 40, dst_ld: 41 }, &l, 0, 0));
    });
}

/// Destinations big enough for streaming stores, aligned and not.
#[test]
fn transposes_streaming() {
    at_each_level(|_| {
        let (rows, cols) = (1040, 1056);
        let p = prog(Body::Transpose { rows, cols, src_ld: rows as isize, dst_ld: cols as isize }, &[], 0, 0);
        for shift in [0, 3] {
            check_shifted::<f32>(&p, shift);
        }
        let p = prog(Body::Transpose { rows: 720, cols: 736, src_ld: 720, dst_ld: 736 }, &[], 0, 0);
        check_shifted::<f64>(&p, 1);
    });
}

/// A random program whose destination offsets are distinct (the source may repeat).
fn program_strategy() -> impl Strategy<Value = (Body, Vec<Loop>, isize, isize)> {
    let run = (0usize..20, -3isize..=3, prop_oneof![-3isize..=-1, 1isize..=3]).prop_map(|(len, src, dst)| Body::Run {
        len,
        src,
        dst,
    });
    let transpose =
        (0usize..20, 0usize..20, -25isize..25, 0isize..3, any::<bool>()).prop_map(|(rows, cols, sld, extra, neg)| {
            let dld = cols as isize + extra;
            Body::Transpose { rows, cols, src_ld: sld, dst_ld: if neg { -dld } else { dld } }
        });
    let body = prop_oneof![run, transpose];
    let loops = prop::collection::vec((0usize..4, -40isize..40, 1isize..3, any::<bool>()), 0..4);
    (body, loops, 0isize..3, 0isize..3).prop_map(|(body, raw, sextra, dextra)| {
        // The body's destination footprint; each loop's destination stride is a multiple of
        // everything inside it, so destination offsets never repeat.
        let footprint = match body {
            Body::Run { len, dst, .. } => (len as isize - 1).max(0) * dst.abs() + 1,
            Body::Transpose { rows, cols, dst_ld, .. } => (rows as isize - 1).max(0) * dst_ld.abs() + cols as isize,
        };
        let mut span = footprint;
        let mut loops = Vec::new();
        for (extent, src, gap, neg) in raw {
            let dst = span * gap * if neg { -1 } else { 1 };
            loops.push(Loop { extent, src, dst });
            span *= gap * extent.max(1) as isize;
        }
        let p = Program { body, loops: &loops, src_base: 0, dst_base: 0 };
        let pts = points(&p);
        let smin = pts.iter().map(|p| p.0).min().unwrap_or(0);
        let dmin = pts.iter().map(|p| p.1).min().unwrap_or(0);
        (body, loops, sextra - smin, dextra - dmin)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_programs((body, loops, sb, db) in program_strategy()) {
        let p = Program { body, loops: &loops, src_base: sb, dst_base: db };
        at_each_level(|_| {
            check::<u8>(&p);
            check::<u16>(&p);
            check::<u32>(&p);
            check::<u64>(&p);
        });
    }
}
