use cute_layout::layout;

layout! {
    pub A = upcast((4,8):(3,12), 2);
}

fn main() {}
