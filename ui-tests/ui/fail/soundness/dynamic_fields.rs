// A dynamic item's numbers are not the user's: no field to write, no struct literal to forge, (Rejected by rustc's type check.)
// and the numbers' only constructor is unsafe.
#![forbid(unsafe_code)]

use cute_layout::{Tensor, layout};

layout! { pub Mat = (M,N):(1,LD); }

fn main() {
    let mut m = Mat::new(4, 4, 4).unwrap();
    m.ld = 100_000_000;
    let forged = Mat { m: 4, n: 4, ld: 100_000_000, size: 16, min_offset: 0, max_offset: 15 };
    let t = Tensor::new(&[7u8; 16][..], forged).unwrap();
    let _ = t[4];
}
