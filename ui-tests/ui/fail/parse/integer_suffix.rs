use cute_layout::layout;

layout! {
    pub A = (4,8):(1usize,4);
}

fn main() {}
