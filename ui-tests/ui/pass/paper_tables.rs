//! The worked examples of docs/algebra.md's tables (integer strides), evaluated by `layout!` at
//! compile time; `main` checks the printed forms and spot values.
#![deny(missing_docs, warnings)]

use cute_layout::{Offset, StaticLayout, layout};

layout! {
    // A. Representation and evaluation
    /// A4 (Fig. 3e)
    pub A4 = ((2,2),(4,2)):((1,8),(2,16));
    /// A5 (Fig. 1)
    pub A5 = (2,2,2):(2,1,4);
    /// A6
    pub A6 = coalesce(((2,2),2):((2,4),1));
    /// A8
    pub A8Col = (4,8):(1,4);
    /// A8
    pub A8Row = (4,8):(8,1);
    /// A9
    pub A9 = (4,8):(1,5);
    /// A10
    pub A10 = (4,(4,2)):(4,(1,16));
    /// A11
    pub A11 = ((2,2),(2,4)):((0,2),(0,4));
    /// A25
    pub A25 = (3,(4,2)):(1,(3,12));
    // B. Coalesce
    /// B1
    pub B1 = coalesce((2,(1,6)):(1,(6,2)));
    /// B2
    pub B2 = coalesce((2,(1,6)):(1,(6,2)), (1,1));
    /// B3
    pub B3 = coalesce(((4,3),5):((15,1),3));
    /// B6
    pub B6 = coalesce(((2,2),(2,2)):((1,4),(8,32)));
    /// B7
    pub B7 = coalesce_z((2,1,6,1):(1,7,8,0));
    // C. Composition
    /// C1
    pub C1 = composition(7:11, 3:4);
    /// C2
    pub C2 = composition(7:11, (3,5):(6,3));
    /// C3
    pub C3 = composition((4,6,8,10):(2,3,5,7), 6:12);
    /// C4
    pub C4 = composition((4,2,8):(3,12,97), 3:3);
    /// C5
    pub C5 = composition(24:3, 8:3);
    /// C7
    pub C7 = composition((6,2):(8,2), (4,3):(3,1));
    /// C8
    pub C8 = composition(20:2, (5,4):(4,1));
    /// C9
    pub C9 = composition((10,2):(16,4), (3,4):(1,5));
    /// C10
    pub C10 = composition((32,128):(128,1), (30,128):(1,32));
    /// C11
    pub C11 = composition((6,2):(8,3), (4,3):(3,1));
    /// C12
    pub C12 = composition((2,3):(1,2), (2,3):(3,1));
    /// C15
    pub C15 = composition((8,16):(1,8), (4,8));
    /// C19
    pub C19 = composition((12,(4,8)):(59,(13,1)), [3:4, 8:2]);
    /// D6 (accepted: the walk ends inside mode 0)
    pub D6 = composition((5,3):(7,1), 2:3);
    // Partitioning with the Ampere TV layout (Table 4)
    /// The Ampere TV layout
    pub Tv = ((4,8),2):((16,1),8);
    /// P1
    pub P1 = composition((8,8):(1,8), Tv);
    /// P2
    pub P2 = composition((8,8):(8,1), Tv);
    /// P3
    pub P3 = composition((8,8):(1,9), Tv);
    /// P4
    pub P4 = composition(((4,2),(2,4)):((2,16),(1,8)), Tv);
    // E, F. Inverses
    /// E2
    pub E2 = right_inverse((4,8):(8,1));
    /// E3
    pub E3 = right_inverse((3,7,5):(5,15,1));
    /// E5
    pub E5 = right_inverse(((2,2),(2,4)):((0,1),(0,2)));
    /// E8
    pub E8 = right_inverse(((2,2),(4,2)):((1,8),(2,16)));
    /// E11
    pub E11 = right_inverse((2,4,6):(4,1,8));
    /// F3
    pub F3 = left_inverse((4,8):(1,5));
    /// F4
    pub F4 = left_inverse(((2,2),(2,4)):((0,2),(0,4)));
    /// F11
    pub F11 = left_inverse((4,4):(4,1));
    // G. Complement
    /// G4
    pub G4 = complement((4,8):(1,8));
    /// G12
    pub G12 = complement(4:2, 24);
    /// G14
    pub G14 = complement((2,2):(1,6), 24);
    // H. Products
    /// H1
    pub H1 = logical_product((3,4):(4,1), (2,5):(1,2));
    /// H3
    pub H3 = blocked_product((3,4):(4,1), (2,5):(1,2));
    /// H4
    pub H4 = raked_product((3,4):(4,1), (2,5):(1,2));
    /// H5
    pub H5 = flat_product((3,4):(4,1), (2,5):(1,2));
    /// H6
    pub H6 = logical_product((2,2):(4,1), 6:1);
    // I. Divides
    /// I1
    pub I1 = logical_divide(24:3, 8:3);
    /// I2
    pub I2 = logical_divide((6,2,2):(2,1,20), 8:3);
    /// I3
    pub I3 = logical_divide((8,16):(20,1), [4:1, 8:2]);
    /// I4
    pub I4 = zipped_divide((8,16):(20,1), [4:1, 8:2]);
    /// I5
    pub I5 = tiled_divide((8,16):(20,1), [4:1, 8:2]);
    /// I7
    pub I7 = logical_divide((9,(4,8)):(59,(13,1)), [3:3, (2,4):(1,8)]);
    /// I9
    pub I9 = logical_divide((6,6):(1,12), (6,3):(3,1));
    // J. Helpers
    /// J2
    pub J2 = max_common_layout(((2,2),(2,2)):((8,2),(4,1)), ((2,2),(2,2)):((4,2),(8,1)));
    /// J4
    pub J4 = upcast((4,8):(1,4), 2);
    /// J5
    pub J5 = tile_to_shape((2,2):(1,2), (8,6));
    /// J6
    pub J6 = make_ordered_layout((2,3,4), (2,0,1));
    // K. Hardware layouts
    /// K3: tcgen05 16x256b.x1
    pub K3 = (8,(16,4)):(1,(16384,524288));
}

fn check<L: StaticLayout>(notation: &str) {
    assert_eq!(L::NOTATION, notation, "{}", std::any::type_name::<L>());
    let core = L::to_layout();
    for i in 0..L::SIZE {
        assert_eq!(L::offset(i).to_i64(), core.eval(i as i64).unwrap());
    }
}

fn main() {
    const { assert!(A4::offset(22) == 26) };
    assert_eq!([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 1, 1)].map(A5::offset_of), [0, 2, 1, 3, 4, 7]);
    assert_eq!((A8Col::offset_of((3, 7)), A8Row::offset_of((3, 7)), A9::offset_of((3, 7)), A9::COSIZE), (31, 31, 38, 39));
    assert_eq!((A10::offset_of((0, (1, 0))), A10::offset_of((0, (0, 1)))), (1, 16));
    assert_eq!(A11::offset_of(((1, 0), (0, 0))), 0);
    assert!((0..24).all(|i| A25::offset(i) == i));
    assert_eq!(K3::offset_of((7, (15, 3))), 7 + 15 * 16384 + 3 * 524288);
    // Ampere TV: offset % 8 = t1, offset / 8 = 2·t0 + v.
    for ((t0, t1), v) in (0..4).flat_map(|t0| (0..8).flat_map(move |t1| (0..2).map(move |v| ((t0, t1), v)))) {
        let o = Tv::offset_of(((t0, t1), v));
        assert_eq!((o % 8, o / 8), (t1, 2 * t0 + v));
    }
    check::<A6>("(4,2):(2,1)");
    check::<B1>("12:1");
    check::<B2>("(2,6):(1,2)");
    check::<B3>("(4,15):(15,1)");
    check::<B6>("(2,4,2):(1,4,32)");
    check::<B7>("(2,6,1):(1,8,0)");
    check::<C1>("3:44");
    check::<C2>("(3,5):(66,33)");
    check::<C3>("(2,3):(9,5)");
    check::<C4>("3:9");
    check::<C5>("8:9");
    check::<C7>("((2,2),3):((24,2),8)");
    check::<C8>("(5,4):(8,2)");
    check::<C9>("(3,(2,2)):(16,(80,4))");
    check::<C10>("(30,128):(128,1)");
    check::<C11>("((2,2),3):((24,3),8)");
    check::<C12>("(2,3):(3,1)");
    check::<C15>("(4,8):(1,8)");
    check::<C19>("(3,(2,4)):(236,(26,1))");
    check::<D6>("2:21");
    check::<P1>("((4,8),2):((16,1),8)");
    check::<P2>("((4,8),2):((2,8),1)");
    check::<P3>("((4,8),2):((18,1),9)");
    check::<P4>("((4,(4,2)),2):((8,(2,16)),1)");
    check::<E2>("(8,4):(4,1)");
    check::<E3>("(5,21):(21,1)");
    check::<E5>("(2,4):(2,8)");
    check::<E8>("(2,4,2,2):(1,4,2,16)");
    check::<E11>("(4,2,6):(2,1,8)");
    check::<F3>("(5,8):(1,4)");
    check::<F4>("(2,2,4):(0,2,8)");
    check::<F11>("(4,4):(4,1)");
    check::<G4>("2:4");
    check::<G12>("(2,3):(1,8)");
    check::<G14>("(3,2):(2,12)");
    check::<H1>("((3,4),(2,5)):((4,1),(12,24))");
    check::<H3>("((3,2),(4,5)):((4,12),(1,24))");
    check::<H4>("((2,3),(5,4)):((12,4),(24,1))");
    check::<H5>("(3,4,2,5):(4,1,12,24)");
    check::<H6>("((2,2),(2,3)):((4,1),(2,8))");
    check::<I1>("(8,3):(9,3)");
    check::<I2>("((2,2,2),3):((6,1,20),2)");
    check::<I3>("((4,2),(8,2)):((20,80),(2,1))");
    check::<I4>("((4,8),(2,2)):((20,2),(80,1))");
    check::<I5>("((4,8),2,2):((20,2),80,1)");
    check::<I7>("((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    check::<I9>("(((2,3),3),2):(((3,12),1),36)");
    check::<J2>("(2,2):(8,2)");
    check::<J4>("(2,8):(1,2)");
    check::<J5>("((2,4),(2,3)):((1,4),(2,16))");
    check::<J6>("(2,3,4):(12,1,3)");
}
