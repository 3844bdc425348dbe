//! Tensors over generated layouts in a crate that forbids unsafe code: the `unsafe impl`s
//! the macro emits come from the macro, not from this crate.
#![forbid(unsafe_code)]

use layout::{SubLayout, Tensor, TensorMut, layout};

layout! {
    pub A = (8,8):(1,8);
    pub Tile = local_tile(A, [4:1, 2:1]);
    pub Part = local_partition(A, [4:1, 2:1]);
    pub Col = slice(A, (_, 0));
    pub Reversed = (4,2):(-1,4);
}

fn main() {
    let mut data: Vec<u32> = (0..64).collect();
    let t = Tensor::new(&data, A).unwrap();
    assert_eq!(t.tile::<Tile>(1)[0], 4);
    assert_eq!(t.tile::<Part>(1).iter().copied().sum::<u32>(), (0..8).map(|j| 1 + 4 * (j % 2) + 16 * (j / 2)).sum());
    assert_eq!(<Col as SubLayout<A>>::COUNT, 8);
    let mut m = TensorMut::new(&mut data, A).unwrap();
    m.tile::<Col>(2).for_each_mut(|x| *x = 0);
    assert_eq!(data[16..24], [0; 8]);
    let r = Tensor::new(&data[..8], Reversed).unwrap();
    assert_eq!(r.base(), 3);
}
