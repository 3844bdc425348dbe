use cute_layout::layout;

layout! {
    pub A = with_shape(16:1, (4,3));
}

fn main() {}
