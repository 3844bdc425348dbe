use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4);
    pub A = (8,4):(1,8);
}

fn main() {}
