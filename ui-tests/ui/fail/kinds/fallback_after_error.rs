use cute_layout::layout;

layout! {
    pub Smem = Sw<3,4,2> o (8,64):(64,1);
    pub Ident = (4,8):(1@0,1@1);
}

fn main() {
    // The failed item still exists: no cascade of errors.
    let _ = Smem::offset(3);
    let _ = Ident::offset(3);
}
