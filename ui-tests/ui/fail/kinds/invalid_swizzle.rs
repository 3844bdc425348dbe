use cute_layout::layout;

layout! {
    pub Smem = Sw<3,4,2> o (8,64):(64,1);
}

fn main() {}
