//! Edge tilings: the tiles of a run-time layout by a static tile that need not divide it.

// Rank-generic loops over parallel arrays read best indexed.
#![allow(clippy::needless_range_loop)]

use crate::RuntimeLayout;

/// `local_tile_edge(A, [t0:1, t1:1, …])` with the numbers in: the tiles of A's modes `n_i:d_i`
/// by static tile extents `t_i` that need not divide them (a `_` in the tiler is the whole
/// mode, `t_i = n_i`: one tile along it). Along mode i there are
/// `⌈n_i/t_i⌉` tiles; tile k (colexicographic over the grid) starts at offset
/// `Σ t_i·k_i·d_i` and holds `min(t_i, n_i - t_i·k_i)` elements along mode i, which is all a
/// kernel needs to handle the edge: [`EdgeTiles::tile`] is the layout of the elements that
/// exist, and [`Tensor::edge_tile`](crate::Tensor::edge_tile) the tensor over them.
///
/// ```
/// use cute_layout::layout;
///
/// layout! {
///     pub Mat = (M,N):(1,LD);
///     pub Tiles = local_tile_edge(Mat, [8:1, 8:1]);
/// }
///
/// let tiles = Tiles::new(20, 8, 32).unwrap();   // no divisibility needed
/// assert_eq!(tiles.grid(), [3, 1]);             // ceil(20/8) x ceil(8/8)
/// assert_eq!(tiles.tile_extent(0), [8, 8]);
/// assert_eq!(tiles.tile_extent(2), [4, 8]);     // rows 16..20
/// assert_eq!(tiles.tile_base(2), 16);
/// assert!(!tiles.is_full(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeTiles<const R: usize> {
    extents: [usize; R],
    strides: [usize; R],
    tile: [usize; R],
    grid: [usize; R],
    count: usize,
}

impl<const R: usize> EdgeTiles<R> {
    /// The tiling of modes `extents:strides` by `tile`; `None` if a tile extent is 0, the
    /// number of tiles overflows, or an offset of the tiled layout, `Σ (n_i - 1)·d_i` (a mode
    /// of extent 1 adds nothing, whatever its stride), or the size of a tile does not fit in
    /// `isize`.
    pub fn new(extents: [usize; R], strides: [usize; R], tile: [usize; R]) -> Option<Self> {
        let mut grid = [0; R];
        let mut count = 1usize;
        let (mut span, mut tile_size) = (0usize, 1usize);
        let mut strides = strides;
        for k in 0..R {
            if tile[k] == 0 {
                return None;
            }
            if extents[k] <= 1 {
                strides[k] = 0;
            }
            grid[k] = extents[k].div_ceil(tile[k]);
            count = count.checked_mul(grid[k])?;
            span = span.checked_add(extents[k].saturating_sub(1).checked_mul(strides[k])?)?;
            tile_size = tile_size.checked_mul(tile[k].min(extents[k]))?;
        }
        isize::try_from(span).ok()?;
        isize::try_from(tile_size).ok()?;
        Some(EdgeTiles { extents, strides, tile, grid, count })
    }

    /// The number of tiles, `Π ⌈n_i/t_i⌉`.
    #[inline]
    pub const fn count(&self) -> usize {
        self.count
    }

    /// The number of tiles along each mode.
    #[inline]
    pub const fn grid(&self) -> [usize; R] {
        self.grid
    }

    /// The extent of A along each mode.
    #[inline]
    pub const fn extents(&self) -> [usize; R] {
        self.extents
    }

    /// The full tile's extents `t_i`.
    #[inline]
    pub const fn tile_shape(&self) -> [usize; R] {
        self.tile
    }

    /// The grid coordinate of tile `k` (colexicographic; `k < count()`).
    #[inline]
    pub fn tile_coord(&self, k: usize) -> [usize; R] {
        let mut k = k;
        let mut c = [0; R];
        for i in 0..R {
            c[i] = k % self.grid[i];
            k /= self.grid[i];
        }
        c
    }

    /// How many elements of tile `k` exist along each mode: `t_i`, or the residue at the
    /// edge. Panics if `k >= count()`.
    #[inline]
    #[track_caller]
    pub fn tile_extent(&self, k: usize) -> [usize; R] {
        assert!(k < self.count, "tile {k} out of range: there are {} tiles", self.count);
        let c = self.tile_coord(k);
        let mut e = [0; R];
        for i in 0..R {
            e[i] = self.tile[i].min(self.extents[i] - self.tile[i] * c[i]);
        }
        e
    }

    /// Whether tile `k` is whole (no residue along any mode).
    #[inline]
    pub fn is_full(&self, k: usize) -> bool {
        self.tile_extent(k) == self.tile
    }

    /// The offset in A of tile `k`'s first element. Panics if `k >= count()`.
    #[inline]
    #[track_caller]
    pub fn tile_base(&self, k: usize) -> usize {
        assert!(k < self.count, "tile {k} out of range: there are {} tiles", self.count);
        let c = self.tile_coord(k);
        // At most Σ (n_i - 1)·d_i, which `new` checked fits.
        (0..R).map(|i| c[i] * self.tile[i] * self.strides[i]).sum()
    }

    /// The layout of the elements of tile `k` that exist (offsets from [`Self::tile_base`]).
    /// Panics if `k >= count()`.
    #[inline]
    #[track_caller]
    pub fn tile(&self, k: usize) -> RuntimeLayout<R> {
        self.layout_of(self.tile_extent(k))
    }

    /// The full tile `(t_0, …):(d_0, …)`, if its offsets fit in `isize` (they do when every
    /// tile is full).
    pub fn full_tile(&self) -> Option<RuntimeLayout<R>> {
        RuntimeLayout::new(&self.modes_of(self.tile))
    }

    /// Calls `f(k, base, tile)` for every tile in order.
    pub fn for_each_tile<F: FnMut(usize, usize, RuntimeLayout<R>)>(&self, mut f: F) {
        for k in 0..self.count {
            f(k, self.tile_base(k), self.tile(k));
        }
    }

    fn modes_of(&self, extents: [usize; R]) -> [(usize, isize); R] {
        // A stride of a mode of extent > 1 is at most the checked span, so it fits in isize.
        std::array::from_fn(|i| (extents[i], self.strides[i] as isize))
    }

    /// The layout of `extents` (each at most A's) over A's strides: its offsets are offsets
    /// of A and its size at most a tile's, which `new` checked fit.
    fn layout_of(&self, extents: [usize; R]) -> RuntimeLayout<R> {
        match RuntimeLayout::new(&self.modes_of(extents)) {
            Some(l) => l,
            None => unreachable!("an edge tile's offsets are offsets of A, which `EdgeTiles::new` checked"),
        }
    }
}
