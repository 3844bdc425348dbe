//! `fold_mode` against a brute-force reference: every mode of random run-time layouts (strides
//! of any sign, stride 0, extents 0 and 1), of dynamic nested items with random extents, and
//! of static nested items; the result's shape, layout, coordinates, slice, broadcast and
//! conversions.

use cute_layout::{FoldedTensor, IntTuple, LayoutFn, Offset, RuntimeLayout, Tensor, TensorMut, TrustedLayout, layout};

layout! {
    pub Nested = ((2,3),(4,2)):((1,12),(2,36));
    pub Cube = (3,4,5):(20,5,1);
    pub Deep = ((2,(2,3)),3,(2,2)):((1,(2,4)),24,(72,144));
    pub Bcast = ((3,2),4):((1,0),3);
    pub Scalar = 7:2;
    pub DynNested = ((A,B),C,(D,2)):((1,A),SC,(SD,-1)) where SC >= A*B;
    pub DynCol = (M,(N,2)):(1,(LD,0)) where LD >= M;
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
}

/// The sizes of the top-level modes of a shape.
fn sizes(shape: &IntTuple) -> Vec<usize> {
    shape.modes().iter().map(|m| m.leaves().iter().map(|&e| e as usize).product()).collect()
}

/// By hand: for each coordinate of the other modes (colexicographic), the fold in index order
/// `a·31 + x` (wrapping) of the elements along `mode`, through `offset`.
fn reference<L: LayoutFn>(l: &L, base: usize, data: &[i64], mode: usize) -> Vec<i64> {
    let s = sizes(&l.shape());
    let pre: usize = s[..mode].iter().product();
    let post: usize = s[mode + 1..].iter().product();
    let mut out = vec![5i64; pre * post];
    for i in 0..l.size() {
        let (a, b) = (i % pre, i / pre / s[mode]);
        let x = data[(base as isize + l.offset(i).to_isize()) as usize];
        out[a + pre * b] = out[a + pre * b].wrapping_mul(31).wrapping_add(x);
    }
    out
}

/// Checks every mode of `t` against [`reference`], and the result's shape, coordinates and
/// broadcast.
fn check<L: TrustedLayout>(t: &Tensor<'_, i64, L>, what: &str) {
    let shape = t.layout().shape();
    let s = sizes(&shape);
    for mode in 0..shape.rank() {
        let want = reference(t.layout(), t.base(), t.as_slice(), mode);
        let got: FoldedTensor<i64> = t.fold_mode(mode, 5, |a, &x| a.wrapping_mul(31).wrapping_add(x));
        assert_eq!(got, want, "{what}, mode {mode}");
        assert_eq!(got.len(), want.len());
        // The shape: the other top-level modes as they are.
        let rest: Vec<String> =
            shape.modes().iter().enumerate().filter(|&(k, _)| k != mode).map(|(_, m)| m.to_string()).collect();
        assert_eq!(got.shape().to_string(), format!("({})", rest.join(",")), "{what}, mode {mode}");
        assert_eq!(got.rank(), shape.rank() - 1);
        // Coordinates of the flat modes, colexicographic over the leaves.
        let leaves: Vec<usize> = got.shape().leaves().iter().map(|&e| e as usize).collect();
        let lt = got.as_tensor();
        assert_eq!(lt.size(), want.len());
        for (j, w) in want.iter().enumerate() {
            let mut c = Vec::new();
            let mut r = j;
            for &e in &leaves {
                c.push(r % e);
                r /= e;
            }
            if leaves.len() <= cute_layout::RUNTIME_MAX_MODES {
                assert_eq!(got.at(&c), w, "{what}, mode {mode}, coordinate {c:?}");
                let mut full = [0; cute_layout::RUNTIME_MAX_MODES];
                full[..c.len()].copy_from_slice(&c);
                assert_eq!(lt.at(full), w);
            }
            assert_eq!(lt[j], *w);
            assert_eq!(got[j], *w);
        }
        assert!(got.get_at(&vec![0; got.layout().rank() + 1]).is_none());
        // Broadcast: element i is the result of index i's other coordinates.
        let pre: usize = s[..mode].iter().product();
        let b = got.broadcast();
        assert_eq!(b.size(), t.size());
        for i in 0..t.size() {
            let (a, q) = (i % pre, i / pre / s[mode]);
            assert_eq!(b[i], want[a + pre * q], "{what}, mode {mode}, broadcast index {i}");
        }
        assert_eq!(got.clone().into_vec(), want);
        assert_eq!(Vec::from(got), want);
    }
}

#[test]
fn every_mode_of_static_nested_layouts() {
    let data: Vec<i64> = (0..400).map(|x| x * 7 % 23 - 11).collect();
    check(&Tensor::new(&data, Nested).unwrap(), "Nested");
    check(&Tensor::new(&data, Cube).unwrap(), "Cube");
    check(&Tensor::new(&data, Deep).unwrap(), "Deep");
    check(&Tensor::new(&data, Bcast).unwrap(), "Bcast (stride 0)");
    check(&Tensor::new(&data, Scalar).unwrap(), "Scalar");
}

#[test]
fn every_mode_of_dynamic_nested_layouts() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..60 {
        let (a, b, c, d) = (1 + rng.below(4), 1 + rng.below(3), 1 + rng.below(4), 1 + rng.below(3));
        let sc = a * b + rng.below(3);
        let sd = sc * c + rng.below(3);
        let l = DynNested::new(a, b, c, d, sc, sd).unwrap();
        let data: Vec<i64> = (0..l.max_offset() - l.min_offset() + 1).map(|x| (x as i64 * 13) % 29 - 14).collect();
        check(&Tensor::new(&data, l).unwrap(), &format!("{l}"));
        let (m, n) = (1 + rng.below(9), 1 + rng.below(5));
        let l = DynCol::new(m, n, m + rng.below(3)).unwrap();
        let data: Vec<i64> = (0..=l.max_offset()).map(|x| (x as i64 * 5) % 17 - 8).collect();
        check(&Tensor::new(&data, l).unwrap(), &format!("{l}"));
    }
}

/// Contiguous column-major layouts, folded along the columns: runs of several whole columns,
/// which the fold takes four at a time (a count of columns not a multiple of four, and a third
/// mode whose runs cross from one result block to the next, included).
#[test]
fn contiguous_columns_fold_in_order() {
    for m in [2usize, 3, 8, 17] {
        for n in [1usize, 3, 4, 5, 8, 9, 13] {
            for p in [1usize, 2, 3] {
                let l = RuntimeLayout::<3>::new(&[(m, 1), (n, m as isize), (p, (m * n) as isize)]).unwrap();
                let data: Vec<i64> = (0..m * n * p).map(|x| (x as i64 * 7) % 19 - 9).collect();
                let t = Tensor::new(&data, l).unwrap();
                check(&t, &format!("({m},{n},{p}) contiguous"));
            }
        }
    }
}

#[test]
fn every_mode_of_random_run_time_layouts() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut tested = 0;
    while tested < 400 {
        let rank = 1 + rng.below(5);
        let modes: Vec<(usize, isize)> = (0..rank)
            .map(|_| {
                let e = match rng.below(10) {
                    0 => 0,
                    1 => 1,
                    _ => 2 + rng.below(5),
                };
                let d = rng.below(40) as isize - 12;
                (e, if rng.below(6) == 0 { 0 } else { d })
            })
            .collect();
        let Some(l) = RuntimeLayout::<5>::new(&modes) else { continue };
        let len = (l.max_offset() - l.min_offset() + 1) as usize + rng.below(3);
        let data: Vec<i64> = (0..len).map(|x| (x as i64 * 11) % 31 - 15).collect();
        let t = Tensor::new(&data, l).unwrap();
        check(&t, &format!("{modes:?}"));
        tested += 1;
    }
}

#[test]
fn empty_tensors() {
    let data = [1i64, 2, 3];
    // A folded mode of extent 0: `init` for every coordinate of the others.
    let l = RuntimeLayout::<3>::new(&[(3, 1), (0, 3), (2, 0)]).unwrap();
    let t = Tensor::new(&data, l).unwrap();
    let r = t.fold_mode(1, 9, |a, &x| a + x);
    assert_eq!(r, [9; 6]);
    assert_eq!(r.shape().to_string(), "(3,2)");
    assert_eq!(r.broadcast().size(), 0);
    // Another mode of extent 0: an empty result of the other modes' shape.
    let r = t.fold_mode(0, 9, |a, &x| a + x);
    assert!(r.is_empty() && r.as_tensor().is_empty());
    assert_eq!((r.shape().to_string(), r.layout().size()), ("(0,2)".to_string(), 0));
    assert_eq!(r.into_vec(), Vec::<i64>::new());
    // The only mode, empty: rank 0, one element, `init`.
    let l = RuntimeLayout::<1>::new(&[(0, 1)]).unwrap();
    let r = Tensor::new(&data, l).unwrap().fold_mode(0, 4, |a, &x| a + x);
    assert_eq!((r.rank(), r.size(), *r.at(&[]), r.shape().to_string()), (0, 1, 4, "()".to_string()));
}

#[test]
fn the_only_mode_gives_rank_zero() {
    let data: Vec<f64> = (0..10).map(f64::from).collect();
    let t = Tensor::new(&data, layout!(10:1)).unwrap();
    let r = t.fold_mode(0, 0.0, |a, &x| a + x);
    assert_eq!(r, [45.0]);
    assert_eq!((r.rank(), r.layout().rank(), r.as_tensor().size()), (0, 0, 1));
    assert_eq!(*r.at(&[]), t.fold(0.0, |a, &x| a + x));
    assert_eq!(r.broadcast().size(), 10);
    assert!(r.broadcast().iter().all(|&x| x == 45.0));
    assert_eq!(format!("{r:?}"), "FoldedTensor { shape: (), elements: [45.0] }");
}

#[test]
#[should_panic(expected = "fold_mode: mode 2 of a rank-2 tensor")]
fn a_mode_past_the_rank_panics() {
    let data = [0u8; 4];
    let _ = Tensor::new(&data, layout!((2, 2):(1, 2))).unwrap().fold_mode(2, 0u8, |a, _| a);
}

#[test]
fn a_slice_and_a_tensor_to_write_through() {
    let mut data: Vec<f32> = (0..12).map(|x| x as f32).collect();
    let l = RuntimeLayout::<2>::new(&[(3, 1), (4, 3)]).unwrap();
    let mut sums = Tensor::new(&data, l).unwrap().fold_mode(1, 0.0f32, |a, &x| a + x);
    assert_eq!(sums, vec![18.0, 22.0, 26.0]);
    assert_eq!(vec![18.0f32, 22.0, 26.0], sums);
    assert_eq!([18.0f32, 22.0, 26.0], sums);
    assert_eq!(sums.iter().sum::<f32>(), 66.0);
    for s in &mut sums {
        *s /= 4.0;
    }
    *sums.at_mut(&[2]) += 1.0;
    sums.as_tensor_mut().map_inplace(|x| *x *= 2.0);
    assert_eq!(sums.as_slice(), [9.0, 11.0, 15.0]);
    // Centre each row: subtract its (doubled, shifted) mean, broadcast along the columns.
    let mut t = TensorMut::new(&mut data, l).unwrap();
    t.zip_mut_with(&sums.broadcast(), |x, &m| *x -= m);
    assert_eq!(data[..4], [-9.0, -10.0, -13.0, -6.0]);
    // Equal elements in another shape: not equal as tensors.
    let flat = RuntimeLayout::<3>::new(&[(3, 1), (1, 0), (1, 0)]).unwrap();
    let other = Tensor::new(&[9.0f32, 11.0, 15.0], flat).unwrap().fold_mode(2, 0.0, |a, &x| a + x);
    assert_eq!(other, [9.0, 11.0, 15.0]);
    assert_ne!(sums, other);
    let column = RuntimeLayout::<2>::new(&[(3, 1), (1, 0)]).unwrap();
    assert_eq!(sums, Tensor::new(&[9.0f32, 11.0, 15.0], column).unwrap().fold_mode(1, 0.0, |_, &x| x));
}

#[test]
fn more_flat_modes_than_a_run_time_layout_holds_coalesce() {
    layout! { pub Many = ((2,2,2,2,2),(2,2,2,2,2)):((1,2,4,8,16),(32,64,128,256,512)); }
    let data: Vec<i64> = (0..1024).collect();
    let t = Tensor::new(&data, Many).unwrap();
    let r = t.fold_mode(0, 0, |a, &x| a + x);
    assert_eq!(r.layout().to_string(), "(2,2,2,2,2):(1,2,4,8,16)");
    let many = layout!(((2,2,2,2,2),(2,2,2,2,2),(2,2)):((1,2,4,8,16),(32,64,128,256,512),(1024,2048)));
    let data: Vec<i64> = (0..4096).collect();
    let t = Tensor::new(&data, many).unwrap();
    let r = t.fold_mode(0, 0, |a, &x| a + x);
    assert_eq!(r.layout().to_string(), "(2,2,2,2,2,2,2):(1,2,4,8,16,32,64)");
    // Ten flat modes remain: one mode, the index its coordinate.
    let r = t.fold_mode(2, 0, |a, &x| a + x);
    assert_eq!(
        (r.shape().to_string(), r.layout().to_string()),
        ("((2,2,2,2,2),(2,2,2,2,2))".to_string(), "1024:1".to_string())
    );
    assert_eq!(*r.at(&[5]), (0..4).map(|k| 5 + 1024 * k).sum::<i64>());
}
