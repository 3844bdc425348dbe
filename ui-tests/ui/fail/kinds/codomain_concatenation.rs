use cute_layout::layout;

layout! {
    pub Mixed = make_layout(4:2, 3:1@0);
}

fn main() {}
