use cute_layout::layout;

layout! {}

fn main() {}
