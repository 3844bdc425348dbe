//! `layout!(EXPR)` in expression position: a value of a generated type.
use cute_layout::{StaticLayout, layout};

fn offsets<L: StaticLayout<Offset = usize>>(_: L) -> Vec<usize> {
    let mut v = Vec::with_capacity(L::SIZE);
    L::for_each_offset(|o| v.push(o));
    v
}

fn main() {
    let l = layout!((4,2):(2,1));
    assert_eq!(offsets(l), [0, 2, 4, 6, 1, 3, 5, 7]);
    assert_eq!(l.at(5), 3);
    assert_eq!(l.to_string(), "(4,2):(2,1)");
    let d = layout!(logical_divide((8,8):(1,8), [4:1, 2:1]));
    assert_eq!(d.to_string(), "((4,2),(2,4)):((1,4),(8,16))");
    assert_eq!(format!("{:?}", layout!(8:1)), "Layout");
}
