// Facts are divisibilities and comparisons of the layout's symbols.
use cute_layout::layout;

layout! {
    pub A = (M,N):(1,LD) where M % 8 == 1;
    pub B = (M,N):(1,LD) where K >= 4;
    pub C = (4,8):(1,4) where M >= 4;
}

fn main() {}
