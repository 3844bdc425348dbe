use cute_layout::layout;

layout! {
    pub fn c = copy(8:1, 8:1, overlaping);
}

fn main() {}
