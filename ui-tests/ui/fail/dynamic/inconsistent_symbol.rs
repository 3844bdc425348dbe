// A symbol is a run-time extent of the layout being tiled; a tiler must be static, and a
// symbol cannot take the name of an item defined later.
use cute_layout::layout;

layout! {
    pub A = logical_divide((M,N):(1,LD), [M:1, _]);
    pub B = (K,N):(1,C);
    pub C = (4,4):(1,4);
}

fn main() {}
