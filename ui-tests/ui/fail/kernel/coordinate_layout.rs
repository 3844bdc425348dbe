use cute_layout::layout;

layout! {
    pub Id = (4,8):(1@0,1@1);
    pub fn c = copy(Id, 32:1);
}

fn main() {}
