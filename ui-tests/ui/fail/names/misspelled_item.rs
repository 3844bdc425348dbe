// A would-be symbol one edit from an earlier item is a misspelling, not a run-time extent.
use cute_layout::layout;

layout! {
    pub TILE_A = (16,48):(1,16);
    pub Divided = logical_divide(TILE_B, [8:1, _]);
}

fn main() {}
