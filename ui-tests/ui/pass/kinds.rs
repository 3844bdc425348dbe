//! Swizzled, coordinate and F2 layouts through `layout!` (docs/algebra.md §1; tables A14-A17, P5,
//! P6 and the CUTLASS shared-memory swizzles), used through inherent items, `const`, the
//! `GeneratedLayout` trait and the run-time values.

use cute_layout::{CoordinateLayout, F2Layout, GeneratedLayout, StaticLayout, SwizzledLayout, layout};

layout! {
    /// CUTLASS's 128-byte swizzle over an 8x64 row-major tile.
    pub Smem = Sw<3,4,3> o (8,64):(64,1);
    pub Shifted = Sw<2,0,-2> o 3 o (4,4):(4,1);
    /// A14: `(r,(c0,c1)) -> (c0, r+6*c1)`.
    pub Blocked = (4,(4,2)):(1@1,(1@0,6@1));
    /// A15: the identity (coordinate) tensor.
    pub Identity = (4,8):(1@0,1@1);
    /// P6: the identity tensor seen through the Ampere TV layout.
    pub TvCoords = composition((8,8):(1@0,1@1), ((4,8),2):((16,1),8));
    /// A16: `Sw<2,0,2> o (4,(4,3)):(1,(4,16))` with F2 strides.
    pub Xor = (4,(4,3)):(f1,(f5,f16));
    pub A17 = (4,4):(f1,f5);
    pub Plain = (4,8):(8,1);
}

const SWIZZLED: usize = Smem::offset(2);
const COORD: (usize, usize) = Blocked::offset(1);
const XOR: usize = Xor::offset(5);

fn all<L: GeneratedLayout>() -> Vec<L::Offset> {
    let mut v = Vec::new();
    L::for_each_offset(|o| v.push(o));
    v
}

fn main() {
    assert_eq!(SWIZZLED, 128 ^ 16);
    assert_eq!(COORD, (0, 1));
    assert_eq!(XOR, 4);
    assert_eq!((Smem::SIZE, Smem::COSIZE, Smem::RANK, Smem::DEPTH), (512, 512, 2, 1));
    assert_eq!(Smem::NOTATION, "Sw<3,4,3> o (8,64):(64,1)");
    assert_eq!(Smem.to_string(), Smem::NOTATION);
    assert_eq!(Smem::offset_of((2, 0)), Smem::offset(2));
    assert_eq!(Smem::coord(9), (1, 1));
    let sw: SwizzledLayout = Smem::to_value();
    assert_eq!(all::<Smem>(), sw.table().unwrap().iter().map(|&o| o as usize).collect::<Vec<_>>());
    assert_eq!(Shifted::offset(0), Shifted::to_value().eval(0).unwrap() as usize);

    assert_eq!(Blocked::offset_of((3, (3, 1))), (3, 9));
    assert_eq!(Identity::offset(9), (1, 2));
    assert_eq!(Identity::COSIZE, (4, 8));
    let b: CoordinateLayout = Identity::to_value();
    assert_eq!(b.to_string(), "(4,8):(1@0,1@1)");
    assert_eq!(TvCoords::NOTATION, "((4,8),2):((2@1,1@0),1@1)");
    assert_eq!(all::<TvCoords>().len(), 64);

    assert_eq!(A17::offset_of((1, 1)), 4);
    assert_eq!(Xor::COSIZE, 48);
    let f: F2Layout = Xor::to_value();
    assert_eq!(all::<Xor>(), f.table().unwrap().iter().map(|&o| o as usize).collect::<Vec<_>>());

    // Integer layouts implement both traits.
    assert_eq!(<Plain as GeneratedLayout>::to_value(), Plain::to_layout());
    assert_eq!(<Plain as GeneratedLayout>::offset(1), 8);

    // Expression position.
    let e = layout!(Sw<1,0,1> o 4:1);
    assert_eq!(e.to_string(), "Sw<1,0,1> o 4:1");
    let _ = e;
}
