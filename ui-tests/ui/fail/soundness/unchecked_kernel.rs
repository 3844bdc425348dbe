//! The unchecked copy kernel stays an `unsafe fn`: a forged program reaches it only through (Rejected by rustc's type check.)
//! `unsafe` (the checked entry is `kernels::copy`).
#![forbid(unsafe_code)]

use cute_layout::kernels::{Body, Program, run};

fn main() {
    let src = [0u32; 4];
    let mut dst = [0u32; 4];
    let program = Program { body: Body::Run { len: 1, src: 1, dst: 1 }, loops: &[], src_base: 0, dst_base: 60 };
    run::<u32>(src.as_ptr(), dst.as_mut_ptr(), &program);
}
