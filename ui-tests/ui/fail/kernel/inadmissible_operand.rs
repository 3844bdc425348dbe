use cute_layout::layout;

layout! {
    pub fn c = copy(composition((4,6):(2,3), 6:3), 6:1);
}

fn main() {}
