use layout::layout;

layout! {
    pub fn c = gemm(8:1, 8:1);
}

fn main() {}
