use cute_layout::layout;

layout! {
    pub fn c = copy(8:1, 6:1);
}

fn main() {
    // The stand-in has the real signature: no further errors here.
    let src = vec![0f32; 8];
    let mut dst = vec![0f32; 8];
    c(&src, &mut dst);
}
