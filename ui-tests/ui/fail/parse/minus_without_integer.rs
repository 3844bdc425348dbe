use cute_layout::layout;

layout! {
    pub A = (4,8):(1,-x);
}

fn main() {}
