use cute_layout::layout;

// Every error of one invocation is reported, each at its own tokens; the failed items still
// exist, with the signatures of a real layout of rank 1 (the failed item's shape is unknown:
// `coord` returns a `usize`), so their uses below produce no further errors.
layout! {
    /// Fine.
    pub A = (4,8):(1,4);
    pub Bad = composition((4,6):(2,3), 6:3);
    pub Worse = logical_divide(A, 5:1);
    pub Typo = complment(A, 64);
    /// Depends on a failed item: skipped silently, its cause is reported above.
    pub Uses = coalesce(Bad);
}

const X: usize = Bad::offset(3);

fn main() {
    let _ = Worse::offset_of(Worse::coord(2));
    let _: usize = Typo::coord(3);
    Typo::coord(3);
    let _ = Uses::SIZE + X + A::SIZE;
    println!("{}", Bad);
}
