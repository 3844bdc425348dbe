use cute_layout::layout;

layout! {
    pub A = coalesce(A);
}

fn main() {}
