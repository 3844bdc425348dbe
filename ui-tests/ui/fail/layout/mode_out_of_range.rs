use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4);
    pub B = get(A, 3);
}

fn main() {}
