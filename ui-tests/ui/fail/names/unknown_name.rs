use cute_layout::layout;

layout! {
    pub Tile = (4,8):(1,4);
    pub Grid = logical_product(Tiel, (2,2));
}

fn main() {}
