use cute_layout::layout;

layout! {
    pub A = complement((2,2):(1,1), 8);
}

fn main() {}
