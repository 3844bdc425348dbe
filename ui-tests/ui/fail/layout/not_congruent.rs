use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4,2);
}

fn main() {}
