use cute_layout::layout;

layout! {
    pub Bare = Sw<3,4,3>;
}

fn main() {}
