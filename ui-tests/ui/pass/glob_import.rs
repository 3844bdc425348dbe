// `use cute_layout::*;` brings the facade's API and nothing that shadows the user's own names
// or std's prelude: a crate that glob-imports it next to a module with its own `Result` (a
// common pattern) still compiles, which it would not if the facade re-exported layout-core's
// `Result` (two glob imports of one name are ambiguous when the name is used).

mod app {
    pub type Result<T> = std::result::Result<T, String>;
}

use app::*;
use cute_layout::*;

layout! {
    pub Tile = (4,8):(1,4);
}

fn parse(text: &str) -> Result<Layout> {
    parse_layout(text).map_err(|e| e.to_string())
}

// std's `Result` with both parameters, through the prelude.
fn checked(index: usize) -> std::result::Result<usize, String> {
    if index < Tile::SIZE { Ok(Tile::offset(index)) } else { Err(format!("{index} is out of range")) }
}

fn main() {
    let l = parse("(4,8):(1,4)").unwrap();
    assert_eq!(l.to_string(), Tile::NOTATION);
    assert_eq!(checked(9), Ok(9));
    assert!(checked(32).is_err());
    let t = parse(Tile::NOTATION).unwrap();
    assert_eq!(composition(&t, &parse("4:1").unwrap()).unwrap().to_string(), "4:1");
}
