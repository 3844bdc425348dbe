use cute_layout::layout;

layout! {
    pub A = (4294967296,4294967296):(1,4294967296);
}

fn main() {}
