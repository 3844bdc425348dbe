// A failed layout with symbols: the stand-in is a dynamic layout over the same symbols, so
// `new` takes the same arguments and its methods exist (main's dyn_fallback; it has no
// getters for the symbols yet).
use cute_layout::{LayoutFn, layout};

layout! {
    pub Rows = composition((M,N):(1,LD), 8:1);
}

fn main() {
    let r = Rows::new(16, 8, 16).unwrap();
    let _ = r.offset(3) + r.size();
    let _ = LayoutFn::offset(&r, 1);
}
