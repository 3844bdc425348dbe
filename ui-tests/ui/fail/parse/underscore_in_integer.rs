use cute_layout::layout;

layout! {
    pub A = 1_024:1;
}

fn main() {}
