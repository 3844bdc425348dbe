//! Tensors: creation checks, access by index and coordinate, iteration order, and the
//! sub-tensors of `local_tile`, `local_partition` and `slice` items against the parent and
//! against layout-core's algebra evaluated at run time.

use std::collections::HashSet;

use cute_layout::{
    IntTuple, Layout, Offset, SliceCoord, StaticLayout, SubLayout, Tensor, TensorError, TensorMut, Tiler, idx2crd,
    layout, parse_layout, parse_tiler, slice, slice_fixed, zipped_divide,
};

layout! {
    pub ColMajor = (4,8):(1,4);
    pub RowMajor = (4,8):(8,1);
    pub Reversed = (4,2):(-1,4);
    pub Nested = ((2,4),3):((1,6),2);
    pub Broadcast = (4,3):(1,0);

    pub A = (8,8):(1,8);
    pub ATile = local_tile(A, [4:1, 2:1]);
    pub APart = local_partition(A, [4:1, 2:1]);
    pub ACol = slice(A, (_, 0));
    pub ARow = slice(A, (5, _));                     // the fixed value is ignored

    pub B = (6,8):(8,1);
    pub BTile = local_tile(B, (3,4));
    pub BPart = local_partition(B, (2,2));

    pub H = ((3,2),((2,3),2)):((4,1),((2,15),100));
    pub HSlice = slice(H, ((1,_),((_,0),_)));
    pub HWhole = slice(H, (2,_));                     // mode 0 fixed as a whole

    pub R = (4,6):(-1,-4);
    pub RTile = local_tile(R, (2,3));
    pub RPart = local_partition(R, [2:1, 3:2]);
    pub RCol = slice(R, (_, 0));

    pub V = 32:1;
    pub Vt = 4:2;
    pub VTile = local_tile(V, Vt);                    // a tiler named by an earlier item
    pub VPart = local_partition(V, 8:1);
}

fn positions(n: usize) -> Vec<i64> {
    (0..n as i64).collect()
}

#[test]
fn creation_checks_the_slice_once() {
    let data = positions(32);
    let e = Tensor::new(&data[..20], ColMajor).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the slice has 20 elements but the layout `(4,8):(1,4)` addresses offsets 0..=31 (needs 32)"
    );
    assert_eq!(
        e,
        TensorError::TooShort { len: 20, layout: "(4,8):(1,4)".into(), min: 0, max: 31, base: 0, needed: 32 }
    );
    // Exactly long enough, and one short.
    assert!(Tensor::new(&data[..32], ColMajor).is_ok());
    assert!(matches!(Tensor::new(&data[..31], RowMajor), Err(TensorError::TooShort { needed: 32, .. })));
    let mut owned = positions(32);
    assert!(TensorMut::new(&mut owned[..31], ColMajor).is_err());
    assert!(TensorMut::new(&mut owned, ColMajor).is_ok());
}

#[test]
fn negative_strides_put_the_smallest_offset_at_the_base() {
    assert_eq!((<Reversed as StaticLayout>::MIN_OFFSET, <Reversed as StaticLayout>::MAX_OFFSET), (-3, 4));
    assert_eq!((<R as StaticLayout>::MIN_OFFSET, <R as StaticLayout>::MAX_OFFSET), (-23, 0));
    let data = positions(8);
    let t = Tensor::new(&data, Reversed).unwrap();
    assert_eq!(t.base(), 3);
    let e = Tensor::new(&data[..7], Reversed).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the slice has 7 elements but the layout `(4,2):(-1,4)` addresses offsets -3..=4, at base 3 the positions \
         0..=7 (needs 8)"
    );
    // An explicit base: at least 3, and the slice must reach base + 4.
    let e = Tensor::with_base(&data, Reversed, 2).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the layout `(4,2):(-1,4)` addresses offsets -3..=4, so the base must be at least 3, but it is 2"
    );
    assert!(matches!(e, TensorError::BaseTooSmall { min: -3, base: 2, .. }));
    let long = positions(10);
    assert!(Tensor::with_base(&long, Reversed, 5).is_ok());
    assert!(matches!(Tensor::with_base(&long, Reversed, 6), Err(TensorError::TooShort { needed: 11, .. })));
    // A base so large that base + MAX_OFFSET + 1 overflows is an error, not a panic.
    assert!(matches!(
        Tensor::with_base(&long, ColMajor, usize::MAX),
        Err(TensorError::TooShort { needed: usize::MAX, .. })
    ));
}

/// `t[i]`, `t.get(i)`, `t.at(coord(i))` and `iter()` against `data[base + L::offset(i)]`.
fn check_access<L: StaticLayout>(extra: usize) {
    let base = L::MIN_OFFSET.unsigned_abs() + extra;
    let data = positions(base + L::COSIZE + 3);
    let t = Tensor::with_base(&data, L::default(), base).unwrap();
    let expected: Vec<i64> = (0..L::SIZE).map(|i| data[(base as isize + L::offset(i).to_isize()) as usize]).collect();
    for (i, &e) in expected.iter().enumerate() {
        assert_eq!(t[i], e, "{} at {i}", L::NOTATION);
        assert_eq!(t.get(i), Some(&e));
        assert_eq!(*t.at(L::coord(i)), e);
    }
    assert_eq!(t.get(L::SIZE), None);
    assert_eq!(t.len(), L::SIZE);
    // Index order, whole (the loop nest), piecewise (`next`), from the back.
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), expected);
    let mut by_next = Vec::new();
    for &x in t.iter() {
        by_next.push(x); // a `for` loop calls `next`
    }
    assert_eq!(by_next, expected);
    assert_eq!(t.iter().rev().copied().collect::<Vec<_>>(), expected.iter().rev().copied().collect::<Vec<_>>());
    assert_eq!(t.iter().skip(1).sum::<i64>(), expected[1..].iter().sum::<i64>());
    assert_eq!(t.iter().len(), L::SIZE);
    // The mutable view agrees, and writes land at the same positions.
    let mut owned = data.clone();
    let mut m = TensorMut::with_base(&mut owned, L::default(), base).unwrap();
    assert_eq!(m.iter().copied().collect::<Vec<_>>(), expected);
    for i in 0..L::SIZE {
        m[i] += 1000;
    }
    *m.at_mut(L::coord(0)) += 1;
    m.for_each_mut(|x| *x *= 2);
    let mut want = data.clone();
    for i in 0..L::SIZE {
        want[(base as isize + L::offset(i).to_isize()) as usize] += 1000;
    }
    want[base] += 1;
    for i in 0..L::SIZE {
        want[(base as isize + L::offset(i).to_isize()) as usize] *= 2;
    }
    assert_eq!(owned, want);
}

#[test]
fn access_by_index_and_coordinate_reads_base_plus_offset() {
    check_access::<ColMajor>(0);
    check_access::<RowMajor>(2);
    check_access::<Reversed>(0);
    check_access::<Reversed>(5);
    check_access::<Nested>(1);
    check_access::<Broadcast>(0);
    check_access::<R>(0);
    check_access::<H>(3);
}

#[test]
#[should_panic(expected = "index out of bounds: the len is 32 but the index is 32")]
fn indexing_past_the_size_panics() {
    let data = positions(32);
    let t = Tensor::new(&data, ColMajor).unwrap();
    let _ = t[32];
}

#[test]
fn coordinates_are_checked_mode_by_mode() {
    let data = positions(40);
    let t = Tensor::new(&data, ColMajor).unwrap();
    // (4,0) is past the extent 4 of mode 0, although its offset 4 lies inside 0..=31.
    assert_eq!(t.get_at((4, 0)), None);
    assert_eq!(t.get_at((3, 7)), Some(&31));
    assert_eq!(t.get_at((0, 8)), None);
    let r = std::panic::catch_unwind(|| *t.at((4, 0)));
    let message = *r.unwrap_err().downcast::<String>().unwrap();
    assert!(message.contains("coordinate out of range") && message.contains("(4,8):(1,4)"), "{message}");
    let mut d = positions(32);
    let mut w = TensorMut::new(&mut d, ColMajor).unwrap();
    assert!(w.get_at_mut((4, 0)).is_none());
    *w.at_mut((1, 1)) = 99;
    assert_eq!(w[5], 99);
}

#[test]
fn as_ptr_is_the_element_at_offset_zero() {
    let data = positions(8);
    let t = Tensor::new(&data, Reversed).unwrap();
    assert_eq!(t.as_ptr(), &data[3] as *const i64);
    assert_eq!(t.as_slice().len(), 8);
    assert_eq!(*t.layout(), Reversed);
    let s = format!("{t:?}");
    assert!(s.starts_with("Tensor { layout: (4,2):(-1,4), base: 3, elements: [3, 2, 1, 0, 7, 6, 5, 4]"), "{s}");
}

/// Every sub-tensor of `S` of a tensor of layout `P` (at a base past the smallest one) equals
/// the parent's slice at `base + S::base(k) + S::offset(i)`, lies among the parent's
/// positions, and equals `expected(k, i)`: the parent offset layout-core computes at run time.
fn check_sub<P: StaticLayout, S: SubLayout<P>>(expected: &dyn Fn(usize, usize) -> i64) {
    let extra = 2;
    let base = P::MIN_OFFSET.unsigned_abs() + extra;
    let data = positions(base + P::MAX_OFFSET as usize + 1 + 3);
    let t = Tensor::with_base(&data, P::default(), base).unwrap();
    let parent: HashSet<i64> = t.iter().copied().collect();
    for k in 0..S::COUNT {
        let sub = t.tile::<S>(k);
        assert_eq!(sub.base() as isize, base as isize + S::base(k));
        for i in 0..S::SIZE {
            let at = base as isize + S::base(k) + S::offset(i).to_isize();
            assert_eq!(sub[i], data[at as usize], "{} of {}: sub-tensor {k} at {i}", S::NOTATION, P::NOTATION);
            assert!(parent.contains(&sub[i]));
            assert_eq!(sub[i] - base as i64, expected(k, i), "{} of {}: {k}, {i}", S::NOTATION, P::NOTATION);
        }
        assert_eq!(sub.iter().count(), S::SIZE);
        // The contract of `SubLayout`, numerically.
        assert!(P::MIN_OFFSET <= S::base(k) + S::MIN_OFFSET);
        assert!(S::base(k) + S::MAX_OFFSET <= P::MAX_OFFSET);
    }
    assert!(t.try_tile::<S>(S::COUNT).is_none());
    // The mutable sub-tensors write where the shared ones read.
    let mut owned = data.clone();
    let mut m = TensorMut::with_base(&mut owned, P::default(), base).unwrap();
    for k in 0..S::COUNT {
        let mut sub = m.tile::<S>(k);
        for i in 0..S::SIZE {
            sub[i] = -1;
        }
    }
    for (p, (&o, &d)) in owned.iter().zip(&data).enumerate() {
        let touched = (0..S::COUNT)
            .any(|k| (0..S::SIZE).any(|i| base as isize + S::base(k) + S::offset(i).to_isize() == p as isize));
        assert_eq!(o, if touched { -1 } else { d });
    }
}

/// Sub-tensor k of `local_tile(P, tiler)` at i is `Z(i, k)` and of `local_partition` is
/// `Z(k, i)`, with `Z = zipped_divide(P, tiler)` evaluated by layout-core.
fn check_divides<P: StaticLayout, Tile: SubLayout<P>, Part: SubLayout<P>>(tiler: &str) {
    let z = zipped_divide(&P::to_layout(), &parse_tiler(tiler).unwrap()).unwrap();
    let (z0, z1) = (z.mode(0).unwrap(), z.mode(1).unwrap());
    assert_eq!(Tile::to_layout(), z0);
    assert_eq!(Part::to_layout(), z1);
    assert_eq!((Tile::COUNT as i64, Part::COUNT as i64), (z1.size(), z0.size()));
    let n0 = z0.size() as usize;
    check_sub::<P, Tile>(&|k, i| z.eval((i + k * n0) as i64).unwrap());
    check_sub::<P, Part>(&|k, i| z.eval((k + i * n0) as i64).unwrap());
}

fn check_divide<P: StaticLayout, Tile: SubLayout<P>>(tiler: Tiler, tile: bool) {
    let z = zipped_divide(&P::to_layout(), &tiler).unwrap();
    let n0 = z.mode(0).unwrap().size() as usize;
    if tile {
        check_sub::<P, Tile>(&|k, i| z.eval((i + k * n0) as i64).unwrap());
    } else {
        check_sub::<P, Tile>(&|k, i| z.eval((k + i * n0) as i64).unwrap());
    }
}

#[test]
fn local_tile_and_local_partition_sub_tensors() {
    check_divides::<A, ATile, APart>("[4:1,2:1]");
    check_divide::<B, BTile>(parse_tiler("(3,4)").unwrap(), true);
    check_divide::<B, BPart>(parse_tiler("(2,2)").unwrap(), false);
    check_divide::<R, RTile>(parse_tiler("(2,3)").unwrap(), true);
    check_divide::<R, RPart>(parse_tiler("[2:1,3:2]").unwrap(), false);
    check_divide::<V, VTile>(Tiler::Layout(parse_layout("4:2").unwrap()), true);
    check_divide::<V, VPart>(Tiler::Layout(parse_layout("8:1").unwrap()), false);
    assert_eq!((<VTile as SubLayout<V>>::COUNT, <VPart as SubLayout<V>>::COUNT), (8, 8));
}

/// `c` with its fixed (integer) entries replaced, in order, by the parts of the k-th
/// coordinate of the fixed modes.
fn fix(c: &SliceCoord, parts: &mut std::vec::IntoIter<IntTuple>) -> SliceCoord {
    match c {
        SliceCoord::Free => SliceCoord::Free,
        SliceCoord::Int(_) => SliceCoord::from(&parts.next().unwrap()),
        SliceCoord::Tuple(t) => SliceCoord::Tuple(t.iter().map(|c| fix(c, parts)).collect()),
    }
}

fn count_fixed(c: &SliceCoord) -> usize {
    match c {
        SliceCoord::Free => 0,
        SliceCoord::Int(_) => 1,
        SliceCoord::Tuple(t) => t.iter().map(count_fixed).sum(),
    }
}

/// Sub-tensor k of `slice(P, c)` is layout-core's `slice(P, c_k)` with `c_k` the k-th value
/// (colexicographic) of the fixed modes: the same sub-layout, at the slice's offset.
fn check_slice<P: StaticLayout, S: SubLayout<P>>(coord: &str) {
    let p = P::to_layout();
    let c = match cute_layout::evaluate(coord).unwrap() {
        cute_layout::Value::Coord(c) => c,
        cute_layout::Value::Tuple(t) => SliceCoord::from(&t),
        v => panic!("{v:?}"),
    };
    let fixed: Layout = slice_fixed(&p, &c).unwrap();
    assert_eq!(S::COUNT as i64, fixed.size());
    let sliced = |k: usize| {
        let crd = idx2crd(k as i64, fixed.shape()).unwrap();
        let parts = if count_fixed(&c) == 1 { vec![crd] } else { crd.modes() };
        slice(&p, &fix(&c, &mut parts.into_iter())).unwrap()
    };
    for k in 0..S::COUNT {
        let (sub, offset) = sliced(k);
        assert_eq!(sub, S::to_layout());
        assert_eq!(offset, S::base(k) as i64, "{coord} at {k}");
    }
    check_sub::<P, S>(&|k, i| {
        let (sub, offset) = sliced(k);
        offset + sub.eval(i as i64).unwrap()
    });
}

#[test]
fn slice_sub_tensors() {
    check_slice::<A, ACol>("(_,0)");
    check_slice::<A, ARow>("(5,_)");
    check_slice::<H, HSlice>("((1,_),((_,0),_))");
    check_slice::<H, HWhole>("(2,_)");
    check_slice::<R, RCol>("(_,0)");
    // For `slice(A, (_, 0))` with A = (M,N), k is the column.
    let data = positions(64);
    let a = Tensor::new(&data, A).unwrap();
    for k in 0..8 {
        assert_eq!(
            a.tile::<ACol>(k).iter().copied().collect::<Vec<_>>(),
            (8 * k as i64..8 * k as i64 + 8).collect::<Vec<_>>()
        );
        assert_eq!(
            a.tile::<ARow>(k).iter().copied().collect::<Vec<_>>(),
            (0..8).map(|j| k as i64 + 8 * j).collect::<Vec<_>>()
        );
    }
}

#[test]
#[should_panic(expected = "sub-tensor 8 out of range: `(8,8):(1,8)` has 8 sub-tensors of layout `(4,2):(1,8)`")]
fn a_sub_tensor_past_the_count_panics() {
    let data = positions(64);
    let _ = Tensor::new(&data, A).unwrap().tile::<ATile>(8);
}

mod elementwise {
    use cute_layout::kernels::{Level, force_level};
    use cute_layout::{RuntimeLayout, Tensor, TensorMut, layout};

    layout! {
        pub ColMajor = (M,N):(1,LD) where LD >= M;
        pub RowMajor = (M,N):(LD,1) where LD >= N;
        pub Nested = ((2,3),(4,2)):((1,12),(2,36));
        pub Cube = (3,4,5):(20,5,1);
    }

    /// By hand: the fold of mode `mode` over index order, through `offset`.
    fn fold_mode_ref<L: cute_layout::LayoutFn>(l: &L, data: &[i64], sizes: &[usize], mode: usize) -> Vec<i64> {
        let pre: usize = sizes[..mode].iter().product();
        let size = l.size();
        let mut out = vec![0i64; size / sizes[mode]];
        for i in 0..size {
            let (a, b) = (i % pre, i / pre / sizes[mode]);
            out[a + pre * b] = out[a + pre * b] * 3 + data[cute_layout::Offset::to_isize(l.offset(i)) as usize];
        }
        out
    }

    #[test]
    fn fold_mode_matches_the_hand_fold_on_every_mode() {
        let data: Vec<i64> = (0..200).map(|x| x % 17 - 8).collect();
        let cm = ColMajor::new(5, 7, 6).unwrap();
        let rm = RowMajor::new(5, 7, 9).unwrap();
        for mode in 0..2 {
            let t = Tensor::new(&data, cm).unwrap();
            assert_eq!(t.fold_mode(mode, 0, |a, &x| a * 3 + x), fold_mode_ref(&cm, &data, &[5, 7], mode));
            let t = Tensor::new(&data, rm).unwrap();
            assert_eq!(t.fold_mode(mode, 0, |a, &x| a * 3 + x), fold_mode_ref(&rm, &data, &[5, 7], mode));
            let t = Tensor::new(&data, Nested).unwrap();
            assert_eq!(t.fold_mode(mode, 0, |a, &x| a * 3 + x), fold_mode_ref(&Nested, &data, &[6, 8], mode));
        }
        for mode in 0..3 {
            let t = Tensor::new(&data, Cube).unwrap();
            assert_eq!(t.fold_mode(mode, 0, |a, &x| a * 3 + x), fold_mode_ref(&Cube, &data, &[3, 4, 5], mode));
        }
        let r = RuntimeLayout::<3>::new(&[(4, 1), (3, 4), (2, 12)]).unwrap();
        for mode in 0..3 {
            let t = Tensor::new(&data, r).unwrap();
            assert_eq!(t.fold_mode(mode, 0, |a, &x| a * 3 + x), fold_mode_ref(&r, &data, &[4, 3, 2], mode));
        }
    }

    #[test]
    fn sum_fold_fill_map_zip_and_assign() {
        let data: Vec<f64> = (0..300).map(|x| (x % 13) as f64).collect();
        let cm = ColMajor::new(17, 9, 20).unwrap();
        let t = Tensor::new(&data, cm).unwrap();
        let want: f64 = (0..17).flat_map(|i| (0..9).map(move |j| i + 20 * j)).map(|o| data[o]).sum();
        assert_eq!(t.sum(), want);
        assert_eq!(t.fold(0.0, |a, &x| a + x), want);
        let rm = RowMajor::new(17, 9, 9).unwrap();
        let mut out = vec![-1.0; 17 * 9];
        let mut u = TensorMut::new(&mut out, rm).unwrap();
        u.assign(&t);
        for i in 0..17 {
            for j in 0..9 {
                assert_eq!(*u.at((i, j)), *t.at((i, j)));
            }
        }
        u.map_inplace(|x| *x += 1.0);
        u.zip_mut_with(&t, |x, &y| *x -= y);
        assert!(out.iter().all(|&x| x == 1.0));
        let mut pad = vec![5u8; 200];
        let mut p = TensorMut::new(&mut pad, cm).unwrap();
        p.fill(0);
        assert_eq!(pad.iter().filter(|&&x| x == 0).count(), 17 * 9);
        assert!(pad[17..20].iter().all(|&x| x == 5));
        // Integer sums of a strided layout (no unit run) and of a broadcast.
        let b = RuntimeLayout::<2>::new(&[(3, 0), (4, 1)]).unwrap();
        let ints: Vec<u32> = (1..=4).collect();
        assert_eq!(Tensor::new(&ints, b).unwrap().sum(), 30);
    }

    #[test]
    fn zip_mut_with_panics_on_sizes_that_differ() {
        let (a, mut b) = (vec![0u8; 16], vec![0u8; 16]);
        let x = Tensor::new(&a, RuntimeLayout::<1>::new(&[(16, 1)]).unwrap()).unwrap();
        let mut y = TensorMut::new(&mut b, RuntimeLayout::<1>::new(&[(15, 1)]).unwrap()).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| y.zip_mut_with(&x, |p, q| *p = *q)));
        assert!(r.is_err());
    }

    /// A 3×4 tensor and a 4×3 one have one size but not one shape: zipped index by index
    /// they would pair elements of different rows, so `zip_mut_with` panics naming both.
    /// A one-mode side walks in index order, and `assign` pairs by index alone, as a copy
    /// does.
    #[test]
    fn zip_mut_with_needs_one_shape() {
        let (a, mut b) = ((0..12).collect::<Vec<u8>>(), vec![0u8; 12]);
        let x = Tensor::new(&a, RuntimeLayout::<2>::new(&[(4, 1), (3, 4)]).unwrap()).unwrap();
        let mut y = TensorMut::new(&mut b, RuntimeLayout::<2>::new(&[(3, 1), (4, 3)]).unwrap()).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| y.zip_mut_with(&x, |p, q| *p = *q)));
        let text = r.unwrap_err().downcast::<String>().unwrap();
        assert!(text.contains("tensors of shapes (3,4) and (4,3)"), "{text}");
        y.assign(&x);
        let flat = RuntimeLayout::<1>::new(&[(12, 1)]).unwrap();
        let mut d = vec![0u8; 12];
        TensorMut::new(&mut d, flat).unwrap().zip_mut_with(&x, |p, q| *p = *q);
        assert_eq!(d, a);
    }

    /// The levels the CPU has, each forced in turn; the detected one is restored at the end.
    /// Tests that force levels run one at a time (the level is global).
    fn at_every_level(mut f: impl FnMut(Level)) {
        static LEVELS: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one = LEVELS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let top = force_level(Level::Avx512);
        for l in [Level::Portable, Level::Avx2, Level::Avx512].into_iter().filter(|&l| l <= top) {
            assert_eq!(force_level(l), l);
            f(l);
        }
        force_level(top);
    }

    /// A compensated (Kahan) sum in f64 of the values and the sum of their magnitudes.
    fn kahan(xs: impl Iterator<Item = f64>) -> (f64, f64) {
        let (mut s, mut c, mut abs) = (0.0f64, 0.0f64, 0.0f64);
        for x in xs {
            abs += x.abs();
            let y = x - c;
            let t = s + y;
            c = (t - s) - y;
            s = t;
        }
        (s, abs)
    }

    /// Integer values in -8..=8 that depend on the index, and pseudo-random ones in [-1, 1).
    fn ints(n: usize) -> Vec<i32> {
        (0..n).map(|i| ((i * 7 + i / 13) % 17) as i32 - 8).collect()
    }
    fn randoms(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn sum_of_contiguous_runs_matches_the_reference_at_every_level() {
        let lens: Vec<usize> =
            (0..=70).chain([127, 128, 129, 255, 257, 1000, 4099, (1 << 18) + 17, 1 << 20, (1 << 20) + 13]).collect();
        at_every_level(|l| {
            for &n in &lens {
                let whole = RuntimeLayout::<1>::new(&[(n, 1)]).unwrap();
                // Integer-valued data: every partial sum is exact, so the sum is too. One more
                // element past the run, large, that a kernel must not read.
                let mut iv = ints(n + 1);
                iv[n] = 1 << 28;
                let want: i64 = iv[..n].iter().map(|&x| i64::from(x)).sum();
                let f: Vec<f32> = iv.iter().map(|&x| x as f32).collect();
                let d: Vec<f64> = iv.iter().map(|&x| f64::from(x)).collect();
                assert_eq!(Tensor::new(&f, whole).unwrap().sum(), want as f32, "f32, n = {n}, {l:?}");
                assert_eq!(Tensor::new(&d, whole).unwrap().sum(), want as f64, "f64, n = {n}, {l:?}");
                assert_eq!(Tensor::new(&iv, whole).unwrap().sum(), want as i32, "i32, n = {n}, {l:?}");
                // Random data against a compensated reference, within the error of a sum in
                // any order (n · eps · Σ|x|), and much closer in practice.
                let mut r = randoms(n + 1, n as u64 + 1);
                r[n] = 1e30;
                let (want, abs) = kahan(r[..n].iter().copied());
                let got = Tensor::new(&r, whole).unwrap().sum();
                assert!((got - want).abs() <= 1e-14 * abs.max(1.0), "f64, n = {n}, {l:?}: {got} vs {want}");
                let r32: Vec<f32> = r.iter().map(|&x| x as f32).collect();
                let (want, abs) = kahan(r32[..n].iter().map(|&x| f64::from(x)));
                let got = f64::from(Tensor::new(&r32, whole).unwrap().sum());
                assert!((got - want).abs() <= 1e-5 * abs.max(1.0), "f32, n = {n}, {l:?}: {got} vs {want}");
            }
        });
    }

    #[test]
    fn sum_of_short_runs_and_of_other_element_types_is_exact_at_every_level() {
        let iv = ints(4000);
        let f: Vec<f32> = iv.iter().map(|&x| x as f32).collect();
        let d: Vec<f64> = iv.iter().map(|&x| f64::from(x)).collect();
        let u: Vec<u64> = iv.iter().map(|&x| (x + 8) as u64).collect();
        let b: Vec<i8> = iv.iter().map(|&x| x as i8).collect();
        let by_index =
            |l: &dyn Fn(usize) -> usize, size: usize| -> i64 { (0..size).map(|i| i64::from(iv[l(i)])).sum() };
        at_every_level(|lv| {
            for m in 1..=40 {
                for n in [1, 3, 7] {
                    let cm = ColMajor::new(m, n, m + 3).unwrap();
                    let want = by_index(
                        &|i| cute_layout::Offset::to_isize(cute_layout::LayoutFn::offset(&cm, i)) as usize,
                        m * n,
                    );
                    assert_eq!(Tensor::new(&f, cm).unwrap().sum(), want as f32, "f32 {m}x{n}, {lv:?}");
                    assert_eq!(Tensor::new(&d, cm).unwrap().sum(), want as f64, "f64 {m}x{n}, {lv:?}");
                    assert_eq!(Tensor::new(&iv, cm).unwrap().sum(), want as i32, "i32 {m}x{n}, {lv:?}");
                    let wu: u64 = (0..m * n).map(|i| u[i % m + (m + 3) * (i / m)]).sum();
                    assert_eq!(Tensor::new(&u, cm).unwrap().sum(), wu, "u64 {m}x{n}, {lv:?}");
                    let rm = RowMajor::new(m, n, n + 2).unwrap();
                    let want = by_index(&|i| (i % m) * (n + 2) + i / m, m * n);
                    assert_eq!(Tensor::new(&f, rm).unwrap().sum(), want as f32, "f32 row-major {m}x{n}, {lv:?}");
                }
            }
            let want =
                by_index(&|i| cute_layout::Offset::to_isize(cute_layout::LayoutFn::offset(&Nested, i)) as usize, 48);
            assert_eq!(Tensor::new(&d, Nested).unwrap().sum(), want as f64);
            assert_eq!(Tensor::new(&f, Nested).unwrap().sum(), want as f32);
            let small: Vec<i8> = b[..80].iter().map(|&x| x / 4).collect();
            let ws: i8 = (0..48)
                .map(|i| small[cute_layout::Offset::to_isize(cute_layout::LayoutFn::offset(&Nested, i)) as usize])
                .sum();
            assert_eq!(Tensor::new(&small, Nested).unwrap().sum(), ws);
            let r = RuntimeLayout::<3>::new(&[(5, 1), (3, 7), (4, 30)]).unwrap();
            let want = by_index(&|i| i % 5 + 7 * (i / 5 % 3) + 30 * (i / 15), 60);
            assert_eq!(Tensor::new(&f, r).unwrap().sum(), want as f32);
            assert_eq!(Tensor::new(&d, r).unwrap().sum(), want as f64);
        });
    }
}
