use cute_layout::layout;

layout! {
    pub fn g = gemm(f64, (8,4):(1,8), (5,4):(4,1), (8,5):(1,0));
}

fn main() {}
