//! A view can only be made from a real slice: its fields are private, so a user's (Rejected by rustc's type check.)
//! `CopySource` cannot hand a generated copy a dangling pointer (issue 21).
#![forbid(unsafe_code)]

use cute_layout::kernels::SrcView;

fn main() {
    let dangling = std::ptr::NonNull::<u32>::dangling().as_ptr();
    let _ = SrcView { ptr: dangling as *const u32, lo: 0, hi: 1 << 20, _borrow: std::marker::PhantomData };
}
