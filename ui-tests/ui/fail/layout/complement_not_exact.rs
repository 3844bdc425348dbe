use layout::layout;

layout! {
    pub A = complement((4,8):(1,5));
}

fn main() {}
