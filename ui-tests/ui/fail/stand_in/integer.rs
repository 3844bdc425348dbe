// A failed integer item's stand-in has the signatures of a real integer layout: every use
// below type-checks, so rustc reports only the macro's error (no "type annotations needed").
use cute_layout::{GeneratedLayout, StaticLayout, SubLayout, Tensor, layout};

layout! {
    pub Bad = composition((4,6):(2,3), 6:3);
    pub Tile = local_tile(Bad, [2:1, 3:1]);
}

const FIRST: usize = Bad::offset(1);

fn table<L: StaticLayout<Offset = usize>>() -> Vec<usize> {
    (0..L::SIZE).map(L::offset).collect()
}

fn main() {
    let _ = Bad::coord(5);
    Bad::coord(5);
    let _ = Bad::offset(3) + FIRST;
    let _ = Bad::offset_of(Bad::coord(2));
    let _ = (Bad::SIZE, Bad::COSIZE, Bad::RANK, Bad::DEPTH, Bad::NOTATION);
    Bad::for_each_offset(|o| {
        let _ = o + 1;
    });
    Bad::for_each_run(|start, len| {
        let _ = start + len;
    });
    let _ = table::<Bad>();
    let _ = <Bad as GeneratedLayout>::coord(3);
    let _ = (Bad.to_string(), format!("{Bad:?}"), Bad == Bad, Bad::to_layout());
    let data = vec![0f32; 64];
    let t = Tensor::new(&data, Bad).unwrap();
    let _ = t[3];
    let _ = <Tile as SubLayout<Bad>>::COUNT;
    let l = layout!(composition((4,6):(2,3), 6:3));
    let _ = l.at(3) + 1;
}
