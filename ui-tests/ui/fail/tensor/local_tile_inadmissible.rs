use cute_layout::{Tensor, layout};

layout! {
    pub A = (8,8):(1,8);
    // 3 does not divide 8: the tiles would overrun A.
    pub Tile = local_tile(A, [3:1, 2:1]);
}

fn main() {
    // The failed item still exists and is still a sub-layout of A: no cascade of errors.
    let data = [0u8; 64];
    let t = Tensor::new(&data, A).unwrap();
    let _ = t.tile::<Tile>(0);
}
