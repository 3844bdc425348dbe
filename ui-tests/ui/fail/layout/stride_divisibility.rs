use cute_layout::layout;

layout! {
    pub Bad = composition((4,6):(2,3), 6:3);
}

fn main() {}
