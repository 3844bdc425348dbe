use cute_layout::layout;

layout! {
    pub A = complement(4:1, (4,8):(1,4));
}

fn main() {}
