use cute_layout::layout;

layout! {
    pub fn c = gemv(8:1, 8:1);
}

fn main() {}
