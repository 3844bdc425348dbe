use cute_layout::layout;

layout! {
    pub A = complment((4,8):(1,4), 64);
}

fn main() {}
