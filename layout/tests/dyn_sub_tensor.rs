//! Sub-tensors of run-time tensors: `slice`, `local_tile` and `local_partition` on
//! `Tensor` / `TensorMut`, against layout-core's slice and zipped divide of the layout
//! with the numbers in, element by element.

use cute_layout::{
    LayoutFn, RuntimeLayout, SliceCoord, SubTensorError, Tensor, TensorMut, layout, parse_tiler, slice, zipped_divide,
};

layout! {
    pub Mat = (M,N):(1,LD);
    pub Blocked = ((8,M),N):((1,8),LDA);
    pub Rev = (M,4):(-1,M);
}

fn coord(c: &[Option<i64>]) -> SliceCoord {
    SliceCoord::Tuple(c.iter().map(|x| x.map_or(SliceCoord::Free, SliceCoord::Int)).collect())
}

/// The elements a sub-tensor sees equal those layout-core's sub-layout addresses.
fn same<L: LayoutFn>(t: &Tensor<'_, u32, RuntimeLayout>, parent: &L, base: usize, sub: &cute_layout::Layout, off: i64) {
    let got: Vec<u32> = t.iter().copied().collect();
    let want: Vec<u32> = (0..sub.size()).map(|i| (base as i64 + off + sub.eval(i).unwrap()) as u32).collect();
    assert_eq!(got, want, "{} in {}", sub, parent.to_layout());
}

#[test]
fn slices_agree_with_layout_core() {
    let data: Vec<u32> = (0..4096).collect();
    for (m, n, ld) in [(1, 1, 1), (3, 5, 7), (8, 8, 8), (16, 4, 20)] {
        let mat = Mat::new(m, n, ld).unwrap();
        let a = Tensor::new(&data, mat).unwrap();
        let core = mat.to_layout();
        for j in 0..n as i64 {
            let c = coord(&[None, Some(j)]);
            let (sub, off) = slice(&core, &c).unwrap();
            same(&a.slice(&c).unwrap(), &mat, a.base(), &sub, off);
        }
        for i in 0..m as i64 {
            let c = coord(&[Some(i), None]);
            let (sub, off) = slice(&core, &c).unwrap();
            same(&a.slice(&c).unwrap(), &mat, a.base(), &sub, off);
        }
        // A coordinate outside the shape (inside A's extended domain) is refused.
        let e = a.slice(&coord(&[None, Some(n as i64)])).unwrap_err();
        assert!(matches!(e, SubTensorError::CoordOutOfRange { .. }), "{e}");
        assert!(a.slice(&coord(&[Some(-1), None])).is_err());
    }
    // Negative strides: the sub-tensor's base moves with the parent's.
    let rev = Rev::new(5).unwrap();
    let a = Tensor::new(&data, rev).unwrap();
    let c = coord(&[None, Some(3)]);
    let (sub, off) = slice(&rev.to_layout(), &c).unwrap();
    same(&a.slice(&c).unwrap(), &rev, a.base(), &sub, off);
}

#[test]
fn tiles_and_partitions_agree_with_layout_core() {
    let data: Vec<u32> = (0..8192).collect();
    for tiler in ["[4:1,2:1]", "[2:1,_]", "[(2,2):(1,4),2:1]", "8:1"] {
        let t = parse_tiler(tiler).unwrap();
        for (m, n, ld) in [(8, 4, 8), (16, 6, 20)] {
            let mat = Mat::new(m, n, ld).unwrap();
            let a = Tensor::new(&data, mat).unwrap();
            let z = zipped_divide(&mat.to_layout(), &t).unwrap();
            let (tile, grid) = (z.mode(0).unwrap(), z.mode(1).unwrap());
            for k in 0..grid.size() {
                same(&a.local_tile(&t, k as usize).unwrap(), &mat, a.base(), &tile, grid.eval(k).unwrap());
            }
            for k in 0..tile.size() {
                same(&a.local_partition(&t, k as usize).unwrap(), &mat, a.base(), &grid, tile.eval(k).unwrap());
            }
            let past = grid.size() as usize;
            assert!(matches!(a.local_tile(&t, past), Err(SubTensorError::OutOfRange { .. })), "{tiler}");
        }
    }
    let blocked = Blocked::new(4, 3, 40).unwrap();
    let a = Tensor::new(&data, blocked).unwrap();
    let t = parse_tiler("[16:1,_]").unwrap();
    let z = zipped_divide(&blocked.to_layout(), &t).unwrap();
    for k in 0..z.mode(1).unwrap().size() {
        let base = z.mode(1).unwrap().eval(k).unwrap();
        same(&a.local_tile(&t, k as usize).unwrap(), &blocked, a.base(), &z.mode(0).unwrap(), base);
    }
    // A tiler that does not divide the layout is refused, as by the static algebra.
    let mat = Mat::new(6, 4, 6).unwrap();
    let a = Tensor::new(&data, mat).unwrap();
    let e = a.local_tile(&parse_tiler("[4:1,_]").unwrap(), 0).unwrap_err();
    assert!(matches!(e, SubTensorError::Algebra(_)), "{e}");
}

#[test]
fn mutable_sub_tensors_write_their_elements() {
    let mut data = vec![0u32; 64];
    let mat = Mat::new(4, 4, 8).unwrap();
    let mut a = TensorMut::new(&mut data, mat).unwrap();
    let t = parse_tiler("[2:1,2:1]").unwrap();
    for k in 0..4 {
        a.local_tile_mut(&t, k).unwrap().for_each_mut(|x| *x += k as u32 + 1);
    }
    a.slice_mut(&coord(&[Some(0), None])).unwrap().for_each_mut(|x| *x += 10);
    // Tile k covers rows 2·(k%2).., columns 2·(k/2)..; row 0 got 10 more.
    for j in 0..4 {
        for i in 0..4 {
            let k = i / 2 + 2 * (j / 2);
            let want = k as u32 + 1 + if i == 0 { 10 } else { 0 };
            assert_eq!(data[i + 8 * j], want, "({i},{j})");
        }
    }
    assert!(data[4..8].iter().all(|&x| x == 0), "the padding is untouched");
}

#[test]
fn runtime_layout_limits() {
    let l = cute_layout::parse_layout("(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)").unwrap();
    assert!(<RuntimeLayout>::from_layout(&l).is_none(), "more than 8 flat modes");
    let l = cute_layout::parse_layout("(3,4):(-2,5)").unwrap();
    let r = <RuntimeLayout>::from_layout(&l).unwrap();
    assert_eq!((r.min_offset(), r.max_offset()), (-4, 15));
    assert_eq!(r.to_layout(), l);
    let table = l.table().unwrap();
    let mut seen = Vec::new();
    r.for_each_offset(|o| seen.push(o as i64));
    assert_eq!(seen, table);
    for (i, &want) in table.iter().enumerate() {
        assert_eq!(r.offset_of(r.coord(i)) as i64, want);
    }
}
