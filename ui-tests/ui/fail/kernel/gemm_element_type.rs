use cute_layout::layout;

layout! {
    pub fn g = gemm(i32, (8,4):(1,8), (5,4):(4,1), (8,5):(1,8));
}

fn main() {}
