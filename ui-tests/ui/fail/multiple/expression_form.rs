use cute_layout::{StaticLayout, layout};

fn main() {
    // The value still exists after the error: no cascade at its uses.
    let l = layout!(composition((4,6):(2,3), 6:3));
    let _ = l.at(3);
    let _ = layout!(logical_divide(24:1, 5:1)).at(1);
}
