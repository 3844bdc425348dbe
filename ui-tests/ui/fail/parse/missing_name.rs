use cute_layout::layout;

layout! {
    pub = (4,8):(1,4);
}

fn main() {}
