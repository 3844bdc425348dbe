// A dynamic item that fails gets a stand-in with a dynamic item's API (`new` with one
// argument per symbol returning `Result`, `size`, `offset`, tensors), and an item that uses
// it is skipped silently: only the original error is reported, not a cascade at each use.
use cute_layout::{Tensor, layout};

layout! {
    pub Rows = composition((M,N):(1,LD), 8:1);
    pub Tiles = local_tile_edge(Rows, [4:1, 2:1]);
    pub Cols = local_tile_edge((M,N):(1,LD), [4:1, 2:1, 3:1]);
}

fn main() -> Result<(), cute_layout::DynamicError> {
    let r = Rows::new(16, 4, 16)?;
    let _ = r.size() + r.offset(3) + r.offset_of((1, 2));
    let _: usize = r.coord(5);
    r.for_each_offset(|o| assert!(o < 64));
    let data = vec![0f32; 64];
    let t = Tensor::new(&data, r).unwrap();
    let _ = t.len();
    let tiles = Tiles::new(16, 4, 16)?;
    let _ = tiles.count() + tiles.grid()[1] + tiles.layout().size();
    let cols = Cols::new(16, 4, 16)?;
    let _ = cols.tile_extent(0)[2];
    println!("{r} {}", Rows::SYMBOLS.len());
    Ok(())
}
