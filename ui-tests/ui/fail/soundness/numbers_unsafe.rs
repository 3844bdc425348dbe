// The facade type that holds a dynamic item's numbers is built only by an unsafe constructor, (Rejected by rustc's type check.)
// which a crate that forbids unsafe code cannot call.
#![forbid(unsafe_code)]

use cute_layout::layout;

layout! { pub Mat = (M,N):(1,LD); }

fn main() {
    let m = Mat::new(4, 4, 4).unwrap();
    let _ = m;
    let _forged = unsafe { cute_layout::__private::dynamic::Numbers::<Mat, 3>::new_unchecked([4, 4, 100_000_000], 16, 0, 15) };
}
