use cute_layout::layout;

layout! {
    pub A = logical_divide((6,4):(1,6), 5:1);
}

fn main() {}
