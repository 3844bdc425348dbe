use cute_layout::layout;

layout! {
    pub A = logical_product(B, (2,2));
    pub B = (4,8):(1,4);
}

fn main() {}
