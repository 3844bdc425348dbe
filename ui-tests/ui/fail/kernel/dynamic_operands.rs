//! Kernel items over layouts with symbols: an inline operand whose symbol is only inside a
//! computed extent (a call cannot read it from the tensor's layout), a third argument that is
//! not `overlapping`, operands of different ranks, and a tensor over another layout passed to
//! the item.
use cute_layout::{Tensor, TensorMut, layout};

layout! {
    pub ColMajor = (M,N):(1,LDS) where LDS >= M;
    pub RowMajor = (M,N):(LDD,1) where LDD >= N;
    pub fn inline = copy((W/2,2):(2,1), RowMajor);
    pub fn overlap = copy(ColMajor, RowMajor, overlap);
    pub V = (K):(1);
    pub fn ranks = gemm(f32, ColMajor, V, RowMajor);
    pub fn fine = copy(ColMajor, RowMajor);
}

fn main() {
    let src = vec![0f32; 16];
    let mut dst = vec![0f32; 16];
    let s = Tensor::new(&src, RowMajor::new(4, 4, 4).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor::new(4, 4, 4).unwrap()).unwrap();
    fine(&s, &mut d);
}
