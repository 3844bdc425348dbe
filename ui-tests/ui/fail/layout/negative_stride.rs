use cute_layout::layout;

layout! {
    pub A = (4,8):(-1,4);
    pub B = complement(A, 64);
}

fn main() {}
