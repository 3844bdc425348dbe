use layout::layout;

layout! {
    pub A = coalesce;
}

fn main() {}
