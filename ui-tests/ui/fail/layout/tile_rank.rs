use cute_layout::layout;

layout! {
    pub A = tile_to_shape((2,2,2):(1,2,4), (8,6));
}

fn main() {}
