use cute_layout::layout;

layout! {
    pub fn g = gemm(f32, 8:1, (5,4):(4,1), (8,5):(1,8));
}

fn main() {}
