use cute_layout::layout;

layout! {
    pub A = composition((4,8):(1,4));
}

fn main() {}
