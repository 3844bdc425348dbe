use cute_layout::layout;

layout! {
    pub A = complement(4:1, 0);
}

fn main() {}
