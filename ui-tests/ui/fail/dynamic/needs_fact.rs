// Where the walk of `8:1` ends depends on M: the error names the fact that decides it.
use cute_layout::layout;

layout! {
    pub Rows = composition((M,N):(1,LD), 8:1);
}

fn main() {}
