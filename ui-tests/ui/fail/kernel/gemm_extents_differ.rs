use cute_layout::layout;

layout! {
    pub fn g = gemm(f32, (8,4):(1,8), (5,3):(3,1), (8,5):(1,8));
}

fn main() {}
