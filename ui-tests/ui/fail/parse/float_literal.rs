use cute_layout::layout;

layout! {
    pub A = 4.5:1;
}

fn main() {}
