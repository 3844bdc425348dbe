use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4611686018427387904);
}

fn main() {}
