use cute_layout::layout;

fn main() {
    let _l = layout!((4,8):(1,4), 2);
}
