use cute_layout::layout;

layout! {
    pub A = logical_divide((8,8):(1,8), []);
}

fn main() {}
