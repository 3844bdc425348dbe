use cute_layout::layout;

layout! {
    pub A = downcast((4,8):(2,8), 2);
}

fn main() {}
