//! Sub-tensors of run-time tensors: `slice`, `local_tile` and `local_partition` on
//! `Tensor` / `TensorMut`, against layout-core's slice and zipped divide of the layout
//! with the numbers in, element by element.

use cute_layout::{
    LayoutFn, RuntimeLayout, SliceCoord, SubTensorError, Tensor, TensorError, TensorMut, layout, parse_tiler, slice,
    zipped_divide,
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

/// `(4,0):(1,0)`: an empty run-time layout of rank 2.
fn four_by_zero() -> RuntimeLayout<2> {
    RuntimeLayout::<2>::new(&[(4, 1), (0, 4)]).unwrap()
}

/// An empty layout addresses no element: its tensors view any slice, `&[]` included, and
/// every traversal, reduction and write over them visits nothing.
#[test]
fn empty_tensors_view_empty_slices() {
    let empty = four_by_zero();
    let t = Tensor::<f32, _>::new(&[], empty).unwrap();
    assert_eq!((t.size(), t.len(), t.is_empty(), t.base()), (0, 0, true, 0));
    assert_eq!((t.get(0), t.get_at([0, 0]), t.iter().count(), t.iter().next_back()), (None, None, 0, None));
    let mut visits = 0;
    t.for_each(|_| visits += 1);
    t.for_each_slice(|_| visits += 1);
    assert_eq!(visits, 0);
    assert_eq!(t.sum(), 0.0);
    assert_eq!(t.fold(0, |n, _| n + 1), 0);
    assert_eq!(t.iter().fold(0, |n, _| n + 1), 0);
    // Folding the mode of extent 0 leaves `init` in each of the 4 rows; folding mode 0 leaves
    // no result.
    assert_eq!(t.fold_mode(1, 7.0, |a, &x| a + x), [7.0; 4]);
    assert_eq!(t.fold_mode(0, 7.0, |a, &x| a + x).size(), 0);
    let debug = format!("{t:?}");
    assert!(debug.contains("(4,0)") && debug.contains("elements: []"), "{debug}");
    // A longer slice is accepted too, and never read.
    let data = [f32::NAN; 3];
    let t = Tensor::new(&data, empty).unwrap();
    assert_eq!((t.sum(), t.iter().count()), (0.0, 0));
    // The base of an empty tensor is a position of the slice or its end.
    assert!(Tensor::with_base(&data, empty, 3).is_ok());
    let e = Tensor::<f32, _>::with_base(&[], empty, 1).unwrap_err();
    assert_eq!(e, TensorError::BaseBeyondEnd { layout: "(4,0) (empty)".into(), len: 0, base: 1 });

    let mut none: [f32; 0] = [];
    let mut m = TensorMut::new(&mut none, empty).unwrap();
    m.fill(1.0);
    m.map_inplace(|x| *x += 1.0);
    m.for_each_mut(|x| *x += 1.0);
    m.for_each_slice_mut(|s| s.fill(2.0));
    assert_eq!((m.iter_mut().count(), m.get_mut(0).is_none(), m.get_at_mut([0, 0]).is_none()), (0, true, true));
    m.zip_mut_with(&Tensor::<f32, _>::new(&[], empty).unwrap(), |x, y| *x = *y);
    m.assign(&Tensor::new(&[], empty).unwrap());
    assert_eq!(m.as_tensor().sum(), 0.0);
    // Over a longer slice, nothing is written.
    let mut data = [5.0f32; 4];
    let mut m = TensorMut::new(&mut data, empty).unwrap();
    m.fill(1.0);
    m.map_inplace(|x| *x = 0.0);
    m.assign(&Tensor::new(&[], empty).unwrap());
    assert_eq!(data, [5.0; 4]);
}

/// Copies between empty tensors and products with an empty dimension run over empty slices
/// and touch nothing.
#[test]
fn kernels_over_empty_slices() {
    let (empty, other) = (four_by_zero(), RuntimeLayout::<2>::new(&[(0, 1), (3, 1)]).unwrap());
    let mut none: [f64; 0] = [];
    cute_layout::copy(&Tensor::new(&[], empty).unwrap(), &mut TensorMut::new(&mut none, other).unwrap());
    cute_layout::try_copy(&Tensor::new(&[], other).unwrap(), &mut TensorMut::new(&mut none, empty).unwrap()).unwrap();
    let plan = cute_layout::CopyPlan::new(&empty, &empty).unwrap();
    plan.run(&Tensor::new(&[], empty).unwrap(), &mut TensorMut::new(&mut none, empty).unwrap());
    assert_eq!(plan.size(), 0);
    // K = 0 over empty A and B: C = beta·C.
    let rt = |modes: &[(usize, isize)]| RuntimeLayout::<2>::new(modes).unwrap();
    let (la, lb, lc) = (rt(&[(2, 1), (0, 2)]), rt(&[(3, 1), (0, 3)]), rt(&[(2, 1), (3, 2)]));
    let mut c = [1.0f64; 6];
    cute_layout::gemm(
        2.0,
        &Tensor::new(&[], la).unwrap(),
        &Tensor::new(&[], lb).unwrap(),
        0.5,
        &mut TensorMut::new(&mut c, lc).unwrap(),
    );
    assert_eq!(c, [0.5; 6]);
    // M = 0: C is empty too.
    let (la, lc) = (rt(&[(0, 1), (2, 1)]), rt(&[(0, 1), (3, 1)]));
    let b = [f64::NAN; 6];
    let lb = rt(&[(3, 1), (2, 3)]);
    cute_layout::try_gemm(
        1.0,
        &Tensor::new(&[], la).unwrap(),
        &Tensor::new(&b, lb).unwrap(),
        0.0,
        &mut TensorMut::new(&mut none, lc).unwrap(),
    )
    .unwrap();
}

/// A sub-tensor of an empty tensor is empty (its extents shown, no element visited, at the
/// parent's base), or an error where there is none: never a view of an element.
#[test]
fn sub_tensors_of_empty_tensors() {
    let empty = four_by_zero();
    let data = [7u8; 5];
    for a in [Tensor::<u8, _>::new(&[], empty).unwrap(), Tensor::with_base(&data, empty, 2).unwrap()] {
        let visited = |t: &Tensor<'_, u8, RuntimeLayout>| t.iter().count() + t.fold(0, |n, _| n + 1);
        // Slices: the free modes keep their extents; a fixed entry must lie in its mode.
        let row = a.slice(&coord(&[Some(2), None])).unwrap();
        assert_eq!((row.size(), row.layout().to_string(), row.base(), visited(&row)), (0, "0:0".into(), a.base(), 0));
        let all = a.slice(&coord(&[None, None])).unwrap();
        assert_eq!((all.size(), all.layout().to_string()), (0, "(4,0):(1,0)".into()));
        assert_eq!(a.slice(&SliceCoord::Free).unwrap().size(), 0);
        for c in [coord(&[None, Some(0)]), coord(&[Some(4), None]), coord(&[Some(0), Some(0)]), SliceCoord::Int(0)] {
            let e = a.slice(&c).unwrap_err();
            assert!(matches!(e, SubTensorError::CoordOutOfRange { .. }), "{c}: {e}");
            assert!(e.to_string().contains("(4,0) (empty)"), "{e}");
        }
        let e = a.slice(&coord(&[None, None, None])).unwrap_err();
        assert!(matches!(e, SubTensorError::Algebra(_)), "{e}");

        // Tiles: 0 tiles along a mode of extent 0, unless `_` keeps it whole in the tile.
        let tiles = parse_tiler("[2:1,2:1]").unwrap();
        let e = a.local_tile(&tiles, 0).unwrap_err();
        assert!(matches!(e, SubTensorError::OutOfRange { k: 0, count: 0, .. }), "{e}");
        let rows = parse_tiler("[2:1,_]").unwrap();
        for k in 0..2 {
            let t = a.local_tile(&rows, k).unwrap();
            assert_eq!((t.size(), t.layout().to_string(), visited(&t)), (0, "(2,0):(1,0)".into(), 0));
        }
        assert!(matches!(a.local_tile(&rows, 2), Err(SubTensorError::OutOfRange { k: 2, count: 2, .. })));
        for whole in ["8:1", "[2:1]"] {
            let e = a.local_tile(&parse_tiler(whole).unwrap(), 0).unwrap_err();
            assert!(matches!(e, SubTensorError::OutOfRange { count: 0, .. }), "{whole}: {e}");
        }
        // The tiler must still divide the modes that are not empty.
        let e = a.local_tile(&parse_tiler("[3:1,_]").unwrap(), 0).unwrap_err();
        assert!(matches!(e, SubTensorError::Algebra(_)), "{e}");
        let e = a.local_tile(&parse_tiler("[2:1,2:1,2:1]").unwrap(), 0).unwrap_err();
        assert!(matches!(e, SubTensorError::Algebra(_)), "{e}");

        // Partitions: what a tile position owns across 0 tiles is empty; a tile that keeps the
        // mode of extent 0 whole has no positions.
        for k in 0..4 {
            let p = a.local_partition(&tiles, k).unwrap();
            assert_eq!((p.size(), p.layout().to_string(), visited(&p)), (0, "(2,0):(2,0)".into(), 0));
        }
        assert!(matches!(a.local_partition(&tiles, 4), Err(SubTensorError::OutOfRange { k: 4, count: 4, .. })));
        assert!(matches!(a.local_partition(&rows, 0), Err(SubTensorError::OutOfRange { count: 0, .. })));
        assert_eq!(a.local_partition(&parse_tiler("8:1").unwrap(), 7).unwrap().size(), 0);

        // A `Tiling` is made from a layout-core layout (`layout_value()` is `1:0`): its
        // sub-tensors have elements, which an empty tensor has not.
        let tiling = cute_layout::Tiling::local_tile(&a.layout_value(), &parse_tiler("1:1").unwrap()).unwrap();
        let e = a.sub(&tiling, 0).unwrap_err();
        assert!(matches!(e, SubTensorError::EmptyParent { size: 1, .. }), "{e}");
        // Edge tiles: 0 tiles along the mode of extent 0; a tiling of a one-element layout has
        // a tile with an element, which is not one of this tensor's.
        let edges = cute_layout::EdgeTiles::<2>::new([4, 0], [1, 4], [2, 2]).unwrap();
        assert_eq!(edges.count(), 0);
        assert!(a.edge_tile(&edges, 0).is_none());
        let one = cute_layout::EdgeTiles::<2>::new([1, 1], [1, 1], [1, 1]).unwrap();
        assert!(a.edge_tile(&one, 0).is_none());
    }
    // Rank 1.
    let line = Tensor::<u8, _>::new(&[], RuntimeLayout::<1>::new(&[(0, 1)]).unwrap()).unwrap();
    assert!(matches!(line.slice(&SliceCoord::Int(0)), Err(SubTensorError::CoordOutOfRange { .. })));
    assert_eq!(line.slice(&SliceCoord::Free).unwrap().layout().to_string(), "0:0");
    assert!(matches!(
        line.local_tile(&parse_tiler("4:1").unwrap(), 0),
        Err(SubTensorError::OutOfRange { count: 0, .. })
    ));
    assert_eq!(line.local_partition(&parse_tiler("[4:1]").unwrap(), 3).unwrap().size(), 0);
}

/// The mutable sub-tensors of an empty tensor over a longer slice write nothing.
#[test]
fn mutable_sub_tensors_of_empty_tensors() {
    let mut data = [9u32; 8];
    let mut a = TensorMut::new(&mut data, four_by_zero()).unwrap();
    a.slice_mut(&coord(&[Some(1), None])).unwrap().fill(0);
    a.local_tile_mut(&parse_tiler("[2:1,_]").unwrap(), 1).unwrap().fill(0);
    a.local_partition_mut(&parse_tiler("[2:1,2:1]").unwrap(), 3).unwrap().map_inplace(|x| *x = 0);
    assert!(a.slice_mut(&coord(&[None, Some(0)])).is_err());
    assert!(a.local_tile_mut(&parse_tiler("[2:1,2:1]").unwrap(), 0).is_err());
    let tiling = cute_layout::Tiling::local_tile(&a.layout_value(), &parse_tiler("1:1").unwrap()).unwrap();
    assert!(matches!(a.sub_mut(&tiling, 0), Err(SubTensorError::EmptyParent { .. })));
    let one = cute_layout::EdgeTiles::<2>::new([1, 1], [1, 1], [1, 1]).unwrap();
    assert!(a.edge_tile_mut(&one, 0).is_none());
    assert_eq!(data, [9; 8]);
}
