use cute_layout::layout;

layout! {
    pub fn c = copy((4,2):(1,4), (4,2):(1,0));
}

fn main() {}
