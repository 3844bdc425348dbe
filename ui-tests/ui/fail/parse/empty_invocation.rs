use layout::layout;

layout! {}

fn main() {}
