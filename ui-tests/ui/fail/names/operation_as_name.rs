use cute_layout::layout;

layout! {
    pub A = coalesce;
}

fn main() {}
