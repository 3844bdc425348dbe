use cute_layout::layout;

layout! {
    pub A = upcast((4,8):(1,4), 0);
}

fn main() {}
