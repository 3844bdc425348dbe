use cute_layout::layout;

layout! {
    pub A = 99999999999999999999:1;
}

fn main() {}
