use cute_layout::layout;

layout! {
    pub T = [4:1, 2:1];
}

fn main() {}
