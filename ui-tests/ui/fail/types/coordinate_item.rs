use cute_layout::layout;

layout! {
    pub A = (4,_);
}

fn main() {}
