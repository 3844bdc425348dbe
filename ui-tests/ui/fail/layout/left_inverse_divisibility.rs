use cute_layout::layout;

layout! {
    pub A = left_inverse((2,2):(2,3));
}

fn main() {}
