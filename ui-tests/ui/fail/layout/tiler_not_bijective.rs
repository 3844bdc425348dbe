use cute_layout::layout;

layout! {
    pub A = logical_divide(16:1, 4:0);
}

fn main() {}
