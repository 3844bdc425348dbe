// The static extent 6 is not a multiple of the tile 4: false whatever M and LD are.
use cute_layout::layout;

layout! {
    pub Bad = logical_divide((M,6):(1,LD), [_, 4:1]);
}

fn main() {}
