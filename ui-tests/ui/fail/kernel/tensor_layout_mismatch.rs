use cute_layout::{Tensor, TensorMut, layout};

layout! {
    pub ColMajor = (8,8):(1,8);
    pub RowMajor = (8,8):(8,1);
    pub fn transpose = copy(ColMajor, RowMajor);
}

fn main() {
    let src = vec![0f32; 64];
    let mut dst = vec![0f32; 64];
    // Rejected by rustc's type check, not the macro: the tensor is row-major, the copy column-major.
    let s = Tensor::new(&src, RowMajor).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor).unwrap();
    transpose(&s, &mut d);
}
