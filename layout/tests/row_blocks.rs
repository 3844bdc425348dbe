//! `_` in a tiler is the whole mode: `[8:1, _]` over a 16×48 column-major matrix is a block
//! of 8 full rows, in the static item, the run-time sub-tensors, the tilings and the edge
//! tiles alike. The row sums of a row block are the row sums of the matrix.

use cute_layout::{Tensor, Tiling, layout, parse_tiler};

layout! {
    pub Mat = (16,48):(1,16);
    pub RowBlock = local_tile(Mat, [8:1, _]);
    pub WholeWidth = local_tile(Mat, [8:1, 48:1]);
    pub Dyn = (M,N):(1,LD);
    pub DynRowBlock = local_tile(Dyn, [8:1, _]);
    pub EdgeRows = local_tile_edge(Dyn, [8:1, _]);
}

/// Element (r, c) of the matrix: distinct values, so a wrong element changes a sum.
fn value(r: usize, c: usize) -> i64 {
    (r * 1000 + c * c + 7 * r * c) as i64
}

fn matrix(rows: usize, cols: usize, ld: usize) -> Vec<i64> {
    let mut data = vec![-1_000_000_000; ld * cols];
    for c in 0..cols {
        for r in 0..rows {
            data[r + ld * c] = value(r, c);
        }
    }
    data
}

/// The sum of row r of the matrix.
fn row_sum(r: usize, cols: usize) -> i64 {
    (0..cols).map(|c| value(r, c)).sum()
}

#[test]
fn a_static_row_block_holds_full_rows() {
    assert_eq!(RowBlock::NOTATION, "(8,48):(1,16)");
    assert_eq!(RowBlock::NOTATION, WholeWidth::NOTATION);
    let data = matrix(16, 48, 16);
    let a = Tensor::new(&data, Mat).unwrap();
    assert_eq!(<RowBlock as cute_layout::SubLayout<Mat>>::COUNT, 2);
    for k in 0..2 {
        let block = a.tile::<RowBlock>(k);
        for r in 0..8 {
            let sum: i64 = (0..48).map(|c| *block.at((r, c))).sum();
            assert_eq!(sum, row_sum(8 * k + r, 48), "row {r} of block {k}");
        }
        let total: i64 = block.iter().sum();
        assert_eq!(total, (8 * k..8 * k + 8).map(|r| row_sum(r, 48)).sum::<i64>());
    }
}

#[test]
fn run_time_row_blocks_and_tilings() {
    let data = matrix(16, 48, 16);
    let a = Tensor::new(&data, Mat).unwrap();
    let rows = parse_tiler("[8:1,_]").unwrap();
    let whole = parse_tiler("[8:1,48:1]").unwrap();
    let tiling = Tiling::local_tile(&<Mat as cute_layout::StaticLayout>::to_layout(), &rows).unwrap();
    assert_eq!(tiling.count(), 2);
    assert_eq!(tiling, Tiling::local_tile(&<Mat as cute_layout::StaticLayout>::to_layout(), &whole).unwrap());
    for k in 0..2 {
        let block = a.local_tile(&rows, k).unwrap();
        assert_eq!(block.size(), 8 * 48);
        let sub = a.sub(&tiling, k).unwrap();
        assert_eq!(block.iter().collect::<Vec<_>>(), sub.iter().collect::<Vec<_>>());
        for r in 0..8 {
            // Row r of the block: its elements at r, r + 8, … in the tile's column-major order.
            let sum: i64 = (0..48).map(|c| block[r + 8 * c]).sum();
            assert_eq!(sum, row_sum(8 * k + r, 48), "row {r} of block {k}");
        }
    }
    assert!(a.local_tile(&rows, 2).is_err());
    // The partitions: position (r, c) of the tile owns one element per block.
    let parts = a.local_partition(&rows, 3 + 8 * 5).unwrap();
    assert_eq!(parts.iter().copied().collect::<Vec<_>>(), [value(3, 5), value(11, 5)]);
}

#[test]
fn dynamic_row_blocks_and_edge_tiles() {
    assert_eq!(DynRowBlock::NOTATION, "(8,N):(1,LD)");
    let (m, n, ld) = (16, 5, 20);
    let data = matrix(m, n, ld);
    let a = Tensor::new(&data, Dyn::new(m, n, ld).unwrap()).unwrap();
    assert_eq!(
        a.local_tile(&parse_tiler("[8:1,_]").unwrap(), 1).unwrap().iter().sum::<i64>(),
        (8..16).map(|r| row_sum(r, n)).sum::<i64>()
    );
    let block = DynRowBlock::new(m, n, ld).unwrap();
    let t = Tensor::new(&data, block).unwrap();
    for r in 0..8 {
        assert_eq!((0..n).map(|c| t[r + 8 * c]).sum::<i64>(), row_sum(r, n));
    }
    assert!(DynRowBlock::new(12, n, ld).is_err(), "8 must divide M");
    // Edge tiles: the whole width in every tile, the last block of rows partial.
    let (m, n, ld) = (20, 5, 24);
    let data = matrix(m, n, ld);
    let tiles = EdgeRows::new(m, n, ld).unwrap();
    assert_eq!(EdgeRows::TILE, [8, 0]);
    assert_eq!(tiles.grid(), [3, 1]);
    assert_eq!(tiles.tile_shape(), [8, 5]);
    assert_eq!(tiles.tile_extent(2), [4, 5]);
    assert!(tiles.is_full(1) && !tiles.is_full(2));
    let a = Tensor::new(&data, *tiles.layout()).unwrap();
    for k in 0..tiles.count() {
        let tile = a.edge_tile(&tiles, k).unwrap();
        let rows = tiles.tile_extent(k)[0];
        for r in 0..rows {
            let sum: i64 = (0..n).map(|c| tile[r + rows * c]).sum();
            assert_eq!(sum, row_sum(8 * k + r, n), "row {r} of edge tile {k}");
        }
    }
}
