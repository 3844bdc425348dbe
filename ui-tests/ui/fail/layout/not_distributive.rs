use cute_layout::layout;

layout! {
    pub Bad = composition((2,2):(1,10), (2,2):(1,1));
}

fn main() {}
