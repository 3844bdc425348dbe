use layout::layout;

layout! {
    pub A = ;
}

fn main() {}
