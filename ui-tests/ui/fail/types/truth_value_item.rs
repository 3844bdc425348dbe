use cute_layout::layout;

layout! {
    pub A = congruent((4,8), (1,2));
}

fn main() {}
