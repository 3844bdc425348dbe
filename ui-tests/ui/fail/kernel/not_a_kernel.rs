use cute_layout::layout;

layout! {
    pub fn c = (8,8):(1,8);
}

fn main() {}
