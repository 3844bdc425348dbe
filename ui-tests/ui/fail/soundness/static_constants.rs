// The hidden macro that declared a static layout's smallest and largest offsets is gone; the (Rejected by rustc's type check.)
// constants that remain vouch for nothing without an `unsafe impl`.
#![forbid(unsafe_code)]

pub struct Evil;

impl Evil {
    pub const SIZE: usize = 4;
    pub const COSIZE: usize = 4;
    pub const RANK: usize = 1;
    pub const DEPTH: usize = 0;
    pub const NOTATION: &'static str = "4:1";
    pub const fn offset(i: usize) -> usize {
        i * 1_000_000
    }
    pub const fn offset_of(c: usize) -> usize {
        c * 1_000_000
    }
    pub const fn coord(i: usize) -> usize {
        i
    }
    pub fn for_each_offset<F: FnMut(usize)>(mut f: F) {
        (0..4).for_each(|i| f(i * 1_000_000))
    }
}

cute_layout::__impl_static_layout!(Evil, usize, usize, 0, 3, 1);

fn main() {
    // Without the macro's `unsafe impl GeneratedLayout`, `Evil` is no layout a tensor takes.
    let data = [0u8; 4];
    let _ = cute_layout::Tensor::new(&data[..], Evil);
}
