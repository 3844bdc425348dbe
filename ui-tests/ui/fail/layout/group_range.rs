use cute_layout::layout;

layout! {
    pub A = group((4,8):(1,4), 1, 5);
}

fn main() {}
