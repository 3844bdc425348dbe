// Failed copy and GEMM items: the stand-ins have the real signatures (the element type of the
// GEMM, the layout types of named operands), so calls with slices and tensors type-check.
use cute_layout::{Tensor, TensorMut, layout};

layout! {
    pub A = (8,8):(1,8);
    pub B = (6,6):(1,6);
    pub fn copy_slices = copy(8:1, 6:1);
    pub fn copy_tensors = copy(A, B);
    pub fn product = gemm(f32, (8,4):(1,8), (5,3):(3,1), (8,5):(1,8));
}

fn main() {
    let src = vec![0f32; 64];
    let mut dst = vec![0f32; 64];
    copy_slices(&src, &mut dst);
    copy_tensors(&Tensor::new(&src, A).unwrap(), &mut TensorMut::new(&mut dst, B).unwrap());
    let (a, b) = (vec![1.0; 32], vec![1.0; 15]);
    let mut c = vec![0.0; 40];
    product(1.0, &a, &b, 0.0, &mut c);
}
