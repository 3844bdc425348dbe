use cute_layout::layout;

layout! {
    pub Inv = right_inverse(Sw<3,4,3> o 8 o (8,64):(64,1));
}

fn main() {}
