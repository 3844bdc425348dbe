use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4);
    pub B = (eval(A, (1,2,3)), 2):(1,8);
}

fn main() {}
