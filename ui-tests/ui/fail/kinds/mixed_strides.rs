use cute_layout::layout;

layout! {
    pub Mixed = (4,3):(2,1@0);
}

fn main() {}
