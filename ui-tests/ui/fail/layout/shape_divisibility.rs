use cute_layout::layout;

layout! {
    pub Bad = composition((4,6,8):(2,3,5), 6:1);
}

fn main() {}
