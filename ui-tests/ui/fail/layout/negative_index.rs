use cute_layout::layout;

layout! {
    pub A = eval(8:1, -1):1;
}

fn main() {}
