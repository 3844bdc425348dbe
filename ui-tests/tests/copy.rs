//! Copy kernels emitted by `layout!` (`pub fn NAME = copy(SRC, DST);`) against a scalar
//! reference, at every dispatch level the CPU has, for 1-, 2-, 4- and 8-byte elements. The
//! destination is poisoned first (and has a poisoned tail past its layout's cosize): after the
//! copy it must equal what the sequential loop `for i { dst[D(i)] = src[S(i)] }` leaves, with
//! every other element still poisoned.
//!
//! `copy/generated.rs` holds the paper's Table 2 family, transposes whose sizes are not
//! multiples of the register tiles, and random equal-size layout pairs from the generator
//! below (seeded, so the file is reproducible). Regenerate with
//! `REGENERATE=1 cargo test -p layout-ui-tests --test copy`; `generated_file_is_fresh` fails
//! when the committed file differs from what the generator writes.

use std::fmt::Debug;

use cute_layout::kernels::{Level, force_level, level};
use layout_core::{AnyLayout, Layout, Value, evaluate};
use layout_plan::copy_plan;

#[rustfmt::skip]
#[path = "copy/generated.rs"]
mod generated;

/// An element type under test, with a value for each source index and a poison value.
pub trait Elem: cute_layout::kernels::Element + Debug + PartialEq {
    /// The value of source element `k`.
    fn value(k: usize) -> Self;
    /// A value no source element has: what a destination element not written keeps.
    const POISON: Self;
}

impl Elem for u8 {
    fn value(k: usize) -> Self {
        (k % 251) as u8
    }
    const POISON: Self = 0xff;
}

impl Elem for u16 {
    fn value(k: usize) -> Self {
        (k % 65521) as u16
    }
    const POISON: Self = 0xffff;
}

impl Elem for f32 {
    fn value(k: usize) -> Self {
        k as f32 + 0.5
    }
    const POISON: Self = -1.0;
}

impl Elem for f64 {
    fn value(k: usize) -> Self {
        k as f64 + 0.25
    }
    const POISON: Self = -1.0;
}

type Kernel<T> = fn(&[T], &mut [T]);

/// Runs every generated case through a visitor.
pub trait Visit {
    /// One case: the source and destination layouts and the copy for each element type.
    fn visit(&mut self, src: &str, dst: &str, kernels: (Kernel<u8>, Kernel<u16>, Kernel<f32>, Kernel<f64>));
}

fn layout_of(text: &str) -> Layout {
    match evaluate(text) {
        Ok(Value::Layout(AnyLayout::Int(l))) => l,
        Ok(Value::Tuple(t)) => Layout::column_major(t).unwrap(),
        other => panic!("{text}: {other:?}"),
    }
}

/// The slice range a layout needs: `(origin, length)` with offsets `min..=max` around `origin`.
fn extent(l: &Layout) -> (usize, usize) {
    let min: i64 = l.flat_modes().iter().map(|&(n, d)| (n - 1) * d.min(0)).sum();
    let max = l.cosize().unwrap() - 1;
    ((-min) as usize, (max - min + 1) as usize)
}

fn check_one<T: Elem>(src_text: &str, dst_text: &str, kernel: Kernel<T>) {
    const TAIL: usize = 17;
    let (s, d) = (layout_of(src_text), layout_of(dst_text));
    let (s_origin, s_len) = extent(&s);
    let (d_origin, d_len) = extent(&d);
    let src: Vec<T> = (0..s_len).map(T::value).collect();
    let mut dst = vec![T::POISON; d_len + TAIL];
    let mut want = dst.clone();
    for i in 0..s.size() {
        let so = (s_origin as i64 + s.eval(i).unwrap()) as usize;
        let dof = (d_origin as i64 + d.eval(i).unwrap()) as usize;
        want[dof] = src[so];
    }
    kernel(&src, &mut dst);
    if dst != want {
        let bad = (0..dst.len()).find(|&k| dst[k] != want[k]).unwrap();
        panic!(
            "copy({src_text}, {dst_text}) at level {:?}, {}-byte elements: destination element {bad} is {:?}, \
             want {:?}",
            level(),
            size_of::<T>(),
            dst[bad],
            want[bad]
        );
    }
}

struct Checker {
    cases: usize,
}

impl Visit for Checker {
    fn visit(&mut self, src: &str, dst: &str, (k1, k2, k4, k8): (Kernel<u8>, Kernel<u16>, Kernel<f32>, Kernel<f64>)) {
        check_one(src, dst, k1);
        check_one(src, dst, k2);
        check_one(src, dst, k4);
        check_one(src, dst, k8);
        self.cases += 1;
    }
}

/// Every case at every level this CPU has (one test, since the level is process-wide).
#[test]
fn kernels_match_the_sequential_loop_at_every_level() {
    let detected = level();
    let levels = [Level::Portable, Level::Avx2, Level::Avx512];
    for &l in levels.iter().filter(|&&l| l <= detected) {
        assert_eq!(force_level(l), l);
        let mut checker = Checker { cases: 0 };
        generated::each(&mut checker);
        assert!(checker.cases >= 200, "{} cases", checker.cases);
        eprintln!("level {l:?}: {} copies x 4 element sizes agree", checker.cases);
    }
    force_level(detected);
    for l in levels.iter().filter(|&&l| l > detected) {
        eprintln!("level {l:?}: not on this CPU, skipped");
    }
}

#[test]
#[should_panic(
    expected = "copy: the destination slice has 5 elements but the layout `(8,3):(3,1)` addresses offsets 0..=23, which needs 24"
)]
fn short_slice_panics_with_the_numbers() {
    let src = vec![0f32; 24];
    let mut dst = vec![0f32; 5];
    generated::table2_transpose(&src, &mut dst);
}

/// A small deterministic generator (SplitMix64).
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
}

/// A random layout over the given extents (shuffled, sometimes nested in pairs), with
/// compact strides in a random mode order, sometimes negated or padded, sometimes broadcast.
fn random_layout(rng: &mut Rng, extents: &[i64], broadcast: bool) -> String {
    let mut ext = extents.to_vec();
    for k in (1..ext.len()).rev() {
        ext.swap(k, rng.below(k as u64 + 1) as usize);
    }
    let mut order: Vec<usize> = (0..ext.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k as u64 + 1) as usize);
    }
    let mut strides = vec![0i64; ext.len()];
    let mut step = 1i64;
    for &k in &order {
        strides[k] = step;
        step *= ext[k] + rng.below(3) as i64 / 2;
    }
    for (k, d) in strides.iter_mut().enumerate() {
        if rng.below(6) == 0 {
            *d = -*d;
        }
        if broadcast && ext[k] > 1 && rng.below(3) == 0 {
            *d = 0;
        }
    }
    let modes: Vec<(String, String)> = ext.iter().zip(&strides).map(|(n, d)| (n.to_string(), d.to_string())).collect();
    let (mut shape, mut stride) = (Vec::new(), Vec::new());
    let mut k = 0;
    while k < modes.len() {
        if k + 1 < modes.len() && rng.below(3) == 0 {
            shape.push(format!("({},{})", modes[k].0, modes[k + 1].0));
            stride.push(format!("({},{})", modes[k].1, modes[k + 1].1));
            k += 2;
        } else {
            shape.push(modes[k].0.clone());
            stride.push(modes[k].1.clone());
            k += 1;
        }
    }
    format!("({}):({})", shape.join(","), stride.join(","))
}

/// A random factorization of a random size into 1-4 extents, split differently for the two
/// sides some of the time.
fn random_pair(rng: &mut Rng) -> (String, String) {
    let rank = 1 + rng.below(4) as usize;
    let extents: Vec<i64> = (0..rank).map(|_| 1 + rng.below(if rank <= 2 { 40 } else { 9 }) as i64).collect();
    let mut dst_extents = extents.clone();
    if rng.below(3) == 0 && dst_extents.len() >= 2 {
        // Merge two extents on the destination side: the shapes differ, the sizes do not.
        let last = dst_extents.pop().unwrap();
        dst_extents[0] *= last;
    }
    (random_layout(rng, &extents, true), random_layout(rng, &dst_extents, false))
}

/// The fixed cases: the Table 2 family and transposes with edges.
fn fixed_cases() -> Vec<(&'static str, String, String)> {
    let mut cases: Vec<(&'static str, String, String)> = vec![
        ("table2_contiguous", "(8,4):(1,8)".into(), "32:1".into()),
        ("table2_strided", "(16,8):(1,16)".into(), "(16,8):(1,32)".into()),
        ("table2_gather", "(2,3,2):(42,1,128)".into(), "12:1".into()),
        ("table2_scatter", "12:1".into(), "(2,3,2):(42,1,128)".into()),
        ("table2_broadcast", "7:0".into(), "7:1".into()),
        ("table2_constant", "(8,8):(0,0)".into(), "(8,8):(1,8)".into()),
        ("table2_row_broadcast", "(8,8):(1,0)".into(), "(8,8):(1,8)".into()),
        ("table2_transpose", "(8,3):(1,8)".into(), "(8,3):(3,1)".into()),
        ("table2_tensor_transpose", "(8,(3,5)):(1,(57,8))".into(), "(8,15):(1,8)".into()),
        ("reversed", "64:-1".into(), "64:1".into()),
    ];
    for (k, &(m, n)) in
        [(7, 5), (9, 17), (16, 16), (17, 33), (31, 8), (40, 40), (100, 37), (64, 1), (1, 64)].iter().enumerate()
    {
        let name: &'static str =
            ["tr_7x5", "tr_9x17", "tr_16x16", "tr_17x33", "tr_31x8", "tr_40x40", "tr_100x37", "tr_64x1", "tr_1x64"][k];
        cases.push((name, format!("({m},{n}):(1,{m})"), format!("({m},{n}):({n},1)")));
    }
    cases.push(("tr_padded", "(33,20):(1,40)".into(), "(33,20):(24,1)".into()));
    cases
}

fn generate() -> String {
    let mut out = String::from(
        "// @generated by `REGENERATE=1 cargo test -p layout-ui-tests --test copy`. Do not edit.\n\n\
         use cute_layout::layout;\n\nuse super::Visit;\n\nlayout! {\n",
    );
    let mut cases = fixed_cases();
    let mut rng = Rng(0x5eed_c0b1);
    let mut k = 0;
    while cases.len() < 240 {
        let (s, d) = random_pair(&mut rng);
        let (sl, dl) = (layout_of(&s), layout_of(&d));
        if copy_plan(&sl, &dl, false).is_ok() {
            cases.push((Box::leak(format!("random_{k:03}").into_boxed_str()), s, d));
            k += 1;
        }
    }
    for (name, s, d) in &cases {
        out.push_str(&format!("    pub fn {name} = copy({s}, {d});\n"));
    }
    out.push_str("}\n\n/// Every case, with its kernel for each element size.\npub fn each(v: &mut impl Visit) {\n");
    for (name, s, d) in &cases {
        out.push_str(&format!(
            "    v.visit(\"{s}\", \"{d}\", (|s, d| {name}(s, d), |s, d| {name}(s, d), |s, d| {name}(s, d), |s, d| {name}(s, d)));\n"
        ));
    }
    out.push_str("}\n");
    out
}

#[test]
fn generated_file_is_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/copy/generated.rs");
    let text = generate();
    if std::env::var_os("REGENERATE").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), text, "stale: run with REGENERATE=1");
}
