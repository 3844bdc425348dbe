use cute_layout::layout;

layout! {
    pub Smem = Sw<3,4,3> o (8,64):(64,1);
    pub Rest = complement(Smem);
}

fn main() {}
