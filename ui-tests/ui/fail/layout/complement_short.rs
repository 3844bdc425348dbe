use cute_layout::layout;

layout! {
    pub A = complement((3,2):(1,4), 24);
}

fn main() {}
