use cute_layout::layout;

fn main() {
    let _l = layout!(coalesce(Tile));
}
