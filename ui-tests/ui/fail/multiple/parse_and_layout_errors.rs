use cute_layout::layout;

layout! {
    pub A = (4,8):(1,4) 2;
    pub B = (4,0):(1,4);
    pub C = upcast(A, 3usize);
    pub D = (4,8):(1,4);
}

fn main() {
    let _ = A::offset(1) + B::offset(2) + C::offset(3) + D::offset(4);
}
