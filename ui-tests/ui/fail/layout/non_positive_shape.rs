use cute_layout::layout;

layout! {
    pub A = (4,0):(1,4);
}

fn main() {}
