use cute_layout::layout;

layout! {
    pub Inv = right_inverse((4,2):(1@0+1@1,2@1));
}

fn main() {}
