//! Visibility, docs, attributes, private and nested uses, negative strides, generic code.
#![deny(missing_docs)]
//! Crate docs.

use cute_layout::{StaticLayout, layout};

mod tiles {
    use cute_layout::layout;

    layout! {
        /// Visible in the crate.
        pub(crate) Crate = (4,8):(8,1);
        /// A column-major tile.
        pub Tile = (4,8);
        Private = (2,2):(2,1);
    }

    pub(crate) fn private_size() -> usize {
        Private::SIZE
    }
}

layout! {
    /// Reversed: offsets are `isize`.
    pub Reversed = (4,2):(-1,4);
    #[allow(non_camel_case_types)]
    /// A lower-case name.
    pub lower = 8:2;
    /// A compact tile.
    pub Base = (2,4):(1,2);
    /// Uses an item of the same invocation (no `;` after the last item).
    pub Grid = logical_product(Base, 3:1)
}

fn table<L: StaticLayout>() -> Vec<i64> {
    let mut v = Vec::new();
    L::for_each_offset(|o| v.push(cute_layout::Offset::to_i64(o)));
    v
}

fn main() {
    assert_eq!(tiles::Crate::offset(1), 8);
    assert_eq!(tiles::Tile::NOTATION, "(4,8):(1,4)");
    assert_eq!(tiles::private_size(), 4);
    let r: isize = Reversed::offset(1);
    assert_eq!(r, -1);
    assert_eq!(table::<Reversed>(), [0, -1, -2, -3, 4, 3, 2, 1]);
    assert_eq!(lower::offset(3), 6);
    assert_eq!(Grid::SIZE, 24);
    assert_eq!(Reversed::coord(6), (2, 1));
    assert_eq!(Reversed::offset_of((2, 1)), 2);
    assert_eq!(<Reversed as StaticLayout>::to_layout().to_string(), "(4,2):(-1,4)");
    assert_eq!(Reversed, Reversed::default());
}
