use cute_layout::layout;

layout! {
    pub Xor = composition((4,4):(f1,f5), 3:3);
}

fn main() {}
