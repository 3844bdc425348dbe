use cute_layout::layout;

layout! {
    pub A = tile_to_shape((2,3):(1,2), (8,8));
}

fn main() {}
