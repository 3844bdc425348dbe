// Failed swizzled, coordinate and F2 items: each stand-in has the signatures of a real layout
// of its kind (a swizzle function, offsets that are tuples of the right length), so the uses
// below report nothing beyond the macro's errors.
use cute_layout::{GeneratedLayout, layout};

layout! {
    pub Smem = Sw<3,4,2> o (8,64):(64,1);
    pub Ident = (4,8):(1@0,1@1,1@2);
    pub Xor = (4,4):(f1,f5,f7);
}

fn first<L: GeneratedLayout>() -> L::Offset {
    L::offset(0)
}

fn main() {
    let _ = Smem::swizzle(3) + Smem::offset(3);
    let (x, y, z) = Ident::offset(3);
    let _ = x + y + z;
    let _ = Ident::coord(5);
    let _ = Xor::offset(1) ^ Xor::offset(2);
    let _ = (first::<Smem>(), first::<Ident>(), first::<Xor>());
    let _ = (Smem::to_value(), Ident::to_value(), Xor::to_value());
}
