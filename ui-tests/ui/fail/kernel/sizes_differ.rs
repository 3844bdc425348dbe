use cute_layout::layout;

layout! {
    pub fn c = copy(8:1, (2,3):(1,2));
}

fn main() {}
