//! The hidden macros that wrapped raw-pointer accesses in their own `unsafe` block are gone (Rejected by rustc's type check.)
//! (issue 21: `__copy_element!` overwrote a neighbouring allocation from safe code).
#![forbid(unsafe_code)]

fn main() {
    let src = [0u8; 4];
    let mut dst = [0u8; 4];
    cute_layout::__copy_element!(src.as_ptr(), dst.as_mut_ptr(), 0isize, 60isize);
    cute_layout::__copy_unrolled!(src.as_ptr(), dst.as_mut_ptr(), &[], 0, 0, [(0, 60)]);
    cute_layout::__run_copy!(u8, src.as_ptr(), dst.as_mut_ptr(), &program);
    cute_layout::__run_gemm!(f32, 4, 4, 4, 1.0, a, 1, 4, b, 1, 4, 0.0, c, 1, 4);
    cute_layout::__run_small_gemm!(f32, 4, 4, 4, 1, 4, 1, 4, 1, 4, 1.0, a, b, 0.0, c);
}
