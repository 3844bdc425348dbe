// Dynamic layouts: symbols, facts, items over earlier dynamic items.
use cute_layout::{LayoutFn, layout};

layout! {
    pub Mat = (M,N):(1,LD);
    pub Tiled = logical_divide(Mat, [8:1, 8:1]) where M % 64 == 0, LD >= M;
    pub Tile = local_tile(Mat, [8:1, 8:1]);
    pub Rows = composition((M,N):(1,LD), 8:1) where M >= 8;
    pub Packed = ((8,M),N):((1,8),LDA);
    pub Scaled = (M/4, 4*N):(4, LD);
}

fn main() {
    let t = Tiled::new(64, 8, 64).unwrap();
    assert_eq!(t.size(), 512);
    assert!(Tiled::new(32, 8, 64).is_err());
    assert_eq!(Tile::new(16, 16, 16).unwrap().offset(9), 17);
    assert_eq!(Rows::new(8, 2, 10).unwrap().size(), 8);
    assert_eq!(Packed::new(2, 3, 100).unwrap().offset(16), 100);
    let s = Scaled::new(8, 2, 20).unwrap();
    assert_eq!(LayoutFn::size(&s), 16);
    assert!(Scaled::new(6, 2, 20).is_err());
}
