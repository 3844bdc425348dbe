use cute_layout::layout;

layout! {
    pub A = make_ordered_layout((2,3,4), (0,1));
}

fn main() {}
