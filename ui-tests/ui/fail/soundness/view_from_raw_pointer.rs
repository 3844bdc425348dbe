//! The raw-pointer constructor of a view is the crate's own (its tensors use it). (Rejected by rustc's type check.)
#![forbid(unsafe_code)]

use cute_layout::kernels::DstView;

fn main() {
    let dangling = std::ptr::NonNull::<u32>::dangling().as_ptr();
    let _ = DstView::from_raw_parts(dangling, 0, 1 << 20);
}
