use cute_layout::layout;

layout! {
    pub A = coalesce((4,8):(1,4), (1,1,1));
}

fn main() {}
