use cute_layout::layout;

layout! {
    pub A = left_inverse((4,4):(1,2));
}

fn main() {}
