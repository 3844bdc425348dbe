use cute_layout::layout;

layout! {
    pub A = ;
}

fn main() {}
