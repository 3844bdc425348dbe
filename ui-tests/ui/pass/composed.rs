//! Composed layouts `A o Sw o off o B` through `layout!` (docs/algebra.md §1.6): a composition
//! with a swizzled layout on the right that no swizzled layout represents; the generated
//! `offset(i)`, `offset_of`, the traversal and the constants checked against layout-core
//! and against the brute-force `A(Sw(off + B(i)))` at every index.

use cute_layout::{ComposedLayout, GeneratedLayout, Swizzle, layout, parse_layout};

layout! {
    pub Tile = (8,8):(8,1);
    /// The paper's example: the swizzle commutes with the transpose, a swizzled layout.
    pub Pulled = composition(Tile, Sw<2,0,3> o Tile);
    /// `(8,8):(1,9)` is not a bit permutation: the chain stays composed.
    pub Chain = composition((8,8):(1,9), Sw<3,0,3> o Tile);
    /// With an offset, and then composed on the right with a layout: `A o Sw o 1 o (B ∘ C)`.
    pub Offset = composition(composition((8,8):(8,1), Sw<2,0,3> o 1 o Tile), (4,4):(1,8));
    /// Two layouts and two swizzles.
    pub Long = (4,4):(1,5) o Sw<1,0,2> o 3 o (4,4):(4,1) o Sw<2,0,2> o 16:1;
    /// A layout stage evaluated past its size: its trailing `1:7` extends the last mode.
    pub Past = (4,1):(1,7) o Sw<1,0,2> o 1 o 4:1;
}

fn all<L: GeneratedLayout>() -> Vec<L::Offset> {
    let mut v = Vec::new();
    L::for_each_offset(|o| v.push(o));
    v
}

/// The generated code against the run-time value at every index.
fn agrees<L: GeneratedLayout<Offset = usize, Value = ComposedLayout>>() {
    let value: ComposedLayout = L::to_value();
    assert_eq!(value.to_string(), L::NOTATION);
    assert_eq!(L::SIZE as i64, value.size());
    let table: Vec<usize> = value.table().unwrap().into_iter().map(|v| v as usize).collect();
    assert_eq!(all::<L>(), table, "{}", L::NOTATION);
    for i in 0..L::SIZE {
        assert_eq!(L::offset(i), table[i], "{}: offset({i})", L::NOTATION);
    }
}

const CHAIN_AT_9: usize = Chain::offset(9);

fn main() {
    assert_eq!(Pulled::NOTATION, "Sw<2,0,-3> o (8,8):(1,8)");
    assert_eq!(Chain::NOTATION, "(8,8):(1,9) o Sw<3,0,3> o (8,8):(8,1)");
    assert_eq!(Offset::NOTATION, "(8,8):(8,1) o Sw<2,0,3> o 1 o (4,4):(8,1)");
    agrees::<Chain>();
    agrees::<Offset>();
    agrees::<Long>();
    agrees::<Past>();
    assert_eq!(all::<Past>(), [1, 2, 3, 8]);

    // The brute force: A(Sw(off + B(i))).
    let (a, b) = (parse_layout("(8,8):(1,9)").unwrap(), parse_layout("(8,8):(8,1)").unwrap());
    let sw = Swizzle::new(3, 0, 3).unwrap();
    for i in 0..64 {
        let want = a.eval(sw.apply(b.eval(i as i64).unwrap())).unwrap();
        assert_eq!(Chain::offset(i) as i64, want, "Chain::offset({i})");
        assert_eq!(Pulled::offset(i) as i64, {
            let t = parse_layout("(8,8):(8,1)").unwrap();
            t.eval(Swizzle::new(2, 0, 3).unwrap().apply(t.eval(i as i64).unwrap())).unwrap()
        });
    }
    assert_eq!(CHAIN_AT_9, Chain::offset(9));
    assert_eq!(Chain::offset_of((1, 1)), Chain::offset(9));
    assert_eq!(Chain::coord(9), (1, 1));
    assert_eq!((Chain::SIZE, Chain::RANK, Chain::DEPTH), (64, 2, 1));
    assert_eq!(Chain::COSIZE, all::<Chain>().into_iter().max().unwrap() + 1);
    assert_eq!(Chain.to_string(), Chain::NOTATION);
}
