//! `_` in a tiler has one meaning in every operation: the whole mode as its tile. By brute
//! force on the function, an operation with `_` at mode i equals the same operation with the
//! whole mode's tiler there (`n:1` for a mode of size n in the divides, `1:1`, one copy of
//! the block, in the products), and the results agree with pycute where pycute gives the
//! same meaning (values copied from pycute 4.2.0.0; no Python runs here).

use layout_core::dynamic::{evaluate_dynamic, local_tile_edge};
use layout_core::{Layout, evaluate, parse_tiler};

fn layout(text: &str) -> Layout {
    evaluate(text).unwrap_or_else(|e| panic!("{text}: {e}")).into_layout().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn eval(text: &str) -> Result<Layout, String> {
    evaluate(text).map_err(|e| e.to_string())?.into_layout()
}

/// The same function: the same size and the same offset at every index.
fn same_function(a: &Layout, b: &Layout) -> bool {
    a.size() == b.size() && a.table().unwrap() == b.table().unwrap()
}

/// The tiler with each `_` replaced by `whole(mode)` (mode the layout's mode at that place).
fn replaced(a: &Layout, tiler: &[Option<&str>], whole: &dyn Fn(&Layout) -> String) -> String {
    let modes = a.modes();
    let entries: Vec<String> =
        tiler.iter().zip(&modes).map(|(t, m)| t.map_or_else(|| whole(m), str::to_string)).collect();
    format!("[{}]", entries.join(","))
}

const DIVIDES: [&str; 6] =
    ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "local_tile", "local_partition"];
const PRODUCTS: [&str; 4] = ["logical_product", "zipped_product", "tiled_product", "flat_product"];

#[test]
fn underscore_is_the_whole_mode_in_every_operation() {
    let layouts = [
        "(16,48):(1,16)",
        "(16,48):(48,1)",
        "(8,6):(1,8)",
        "(6,4,5):(20,1,4)",
        "((2,4),6):((1,2),8)",
        "(4,(2,3)):(3,(1,12))",
        "(12,1,4):(1,12,12)",
        "(8,8):(0,1)",
    ];
    let tilers: [&[Option<&str>]; 5] = [
        &[Some("2:1"), None],
        &[None, Some("2:1")],
        &[None, None],
        &[Some("4:1"), None, Some("1:1")],
        &[None, Some("1:1"), None],
    ];
    let mut compared = 0;
    for a_text in layouts {
        let a = layout(a_text);
        for t in tilers {
            if t.len() > a.rank() {
                continue;
            }
            let with = replaced(&a, t, &|_| "_".to_string());
            let divide_whole = replaced(&a, t, &|m| format!("{}:1", m.size()));
            let product_whole = replaced(&a, t, &|_| "1:1".to_string());
            for (ops, whole) in [(&DIVIDES[..], &divide_whole), (&PRODUCTS[..], &product_whole)] {
                for op in ops {
                    let got = eval(&format!("{op}({a_text}, {with})"));
                    let want = eval(&format!("{op}({a_text}, {whole})"));
                    match (got, want) {
                        (Ok(g), Ok(w)) => {
                            assert!(same_function(&g, &w), "{op}({a_text}, {with}) = {g}, but with {whole}: {w}");
                            compared += 1;
                        }
                        (Err(_), Err(_)) => {}
                        (g, w) => panic!("{op}({a_text}, {with}) = {g:?}, with {whole}: {w:?}"),
                    }
                }
            }
        }
    }
    assert!(compared > 200, "only {compared} comparisons");
}

#[test]
fn the_row_block_example() {
    let a = "(16,48):(1,16)";
    let cases = [
        ("logical_divide", "((8,2),48):((1,8),16)"),
        ("zipped_divide", "((8,48),(2,1)):((1,16),(8,0))"),
        ("tiled_divide", "((8,48),2,1):((1,16),8,0)"),
        ("flat_divide", "(8,48,2,1):(1,16,8,0)"),
        ("local_tile", "(8,48):(1,16)"),
        ("local_partition", "(2,1):(8,0)"),
    ];
    for (op, want) in cases {
        assert_eq!(layout(&format!("{op}({a}, [8:1,_])")).to_string(), want, "{op}");
    }
    // Tile k of the row block holds rows 8k..8k+8 of every column.
    let tile = layout(&format!("local_tile({a}, [8:1,_])"));
    let grid = layout(&format!("local_partition({a}, [8:1,_])"));
    let whole = layout(a);
    for k in 0..grid.size() {
        let base = grid.eval(k).unwrap();
        let mut got: Vec<i64> = (0..tile.size()).map(|i| base + tile.eval(i).unwrap()).collect();
        let mut want: Vec<i64> = (0..48)
            .flat_map(|c| (8 * k..8 * k + 8).map(move |r| (r, c)))
            .map(|(r, c)| whole.eval_coord(&layout_core::IntTuple::Tuple(vec![r.into(), c.into()])).unwrap())
            .collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "tile {k}");
    }
}

#[test]
fn agrees_with_pycute_where_pycute_means_the_same() {
    // pycute 4.2.0.0: `logical_divide` and `logical_product` with `None` keep the mode (as
    // CuTe C++ and we do); the zipped and tiled forms with the whole-mode tiler give what we
    // give for `_`. (pycute's zipped forms with `None` put the mode in the rest instead:
    // `zipped_divide((16,48):(1,16), (8:1, None)) = ((8,1),(2,48)):((1,0),(8,16))`.)
    let cases = [
        ("logical_divide((16,48):(1,16), [8:1,_])", "((8,2),48):((1,8),16)"),
        ("zipped_divide((16,48):(1,16), [8:1,_])", "((8,48),(2,1)):((1,16),(8,0))"),
        ("tiled_divide((16,48):(1,16), [8:1,_])", "((8,48),2,1):((1,16),8,0)"),
        ("logical_divide((8,(3,4)):(1,(8,24)), [4:1,[_,2:1]])", "((4,2),(3,(2,2))):((1,4),(8,(24,48)))"),
        ("zipped_divide((8,(3,4)):(1,(8,24)), [4:1,[_,2:1]])", "((4,(3,2)),(2,(1,2))):((1,(8,24)),(4,(0,48)))"),
        ("tiled_divide((8,(3,4)):(1,(8,24)), [4:1,[_,2:1]])", "((4,(3,2)),2,(1,2)):((1,(8,24)),4,(0,48))"),
        ("logical_divide((6,4,5):(20,1,4), [_,2:1,_])", "(6,(2,2),5):(20,(1,2),4)"),
        ("zipped_divide((6,4,5):(20,1,4), [_,2:1,_])", "((6,2,5),(1,2,1)):((20,1,4),(0,2,0))"),
        ("tiled_divide((6,4,5):(20,1,4), [_,2:1,_])", "((6,2,5),1,2,1):((20,1,4),0,2,0)"),
        ("logical_product((4,3):(1,4), [2:1,_])", "((4,2),3):((1,4),4)"),
        ("logical_product((4,(2,3)):(3,(1,12)), [2:1,[_,2:2]])", "((4,2),(2,(3,2))):((3,1),(1,(12,2)))"),
        ("zipped_product((4,(2,3)):(3,(1,12)), [2:1,[_,2:2]])", "((4,(2,3)),(2,(1,2))):((3,(1,12)),(1,(0,2)))"),
        ("tiled_product((4,(2,3)):(3,(1,12)), [2:1,[_,2:2]])", "((4,(2,3)),2,(1,2)):((3,(1,12)),1,(0,2))"),
    ];
    for (text, pycute) in cases {
        let got = layout(text);
        assert!(same_function(&got, &layout(pycute)), "{text} = {got}, pycute's meaning: {pycute}");
        assert_eq!(got.to_string(), pycute, "{text}");
    }
}

#[test]
fn over_symbols_and_in_edge_tiles() {
    let l = evaluate_dynamic("local_tile((M,N):(1,LD), [8:1,_])").unwrap();
    assert_eq!(l.to_string(), "(8,N):(1,LD)");
    let z = evaluate_dynamic("zipped_divide((M,N):(1,LD), [8:1,_])").unwrap();
    assert_eq!(z.to_string(), "((8,N),(M/8,1)):((1,LD),(8,0))");
    for (m, n, ld) in [(8, 3, 8), (16, 5, 20), (24, 1, 30)] {
        let v = |s: &str| {
            Some(match s {
                "M" => m,
                "N" => n,
                _ => ld,
            })
        };
        let stat = format!("({m},{n}):(1,{ld})");
        for (op, text) in [
            ("local_tile", "local_tile((M,N):(1,LD), [8:1,_])"),
            ("zipped_divide", "zipped_divide((M,N):(1,LD), [8:1,_])"),
        ] {
            let got = evaluate_dynamic(text).unwrap().substitute(&v).unwrap();
            let want = layout(&format!("{op}({stat}, [8:1,{n}:1])"));
            assert!(same_function(&got, &want), "{text} at M = {m}, N = {n}, LD = {ld}: {got} vs {want}");
        }
    }
    // Edge tiles: `_` is one tile of the whole extent along the mode.
    let a = evaluate_dynamic("(M,N):(1,LD)").unwrap();
    let e = local_tile_edge(&a, &parse_tiler("[8:1,_]").unwrap()).unwrap();
    assert_eq!(e.to_string(), "local_tile_edge((M,N):(1,LD), [8:1,_]): tiles (8,N):(1,LD), ceil(M/8) x 1 of them");
    let v = |s: &str| {
        Some(match s {
            "M" => 20,
            "N" => 5,
            _ => 32,
        })
    };
    let g = e.substitute(&v).unwrap();
    assert_eq!(g.grid(), [3, 1]);
    assert_eq!(g.tile_extent(2), [4, 5]);
    assert_eq!(g.tile(0).to_string(), "(8,5):(1,32)");
    assert_eq!(g.tile_base(1), 8);
    // A mode past the tiler is tiled by 1 (as in local_tile, it goes to the grid).
    let e = local_tile_edge(&a, &parse_tiler("[8:1]").unwrap()).unwrap();
    assert_eq!(e.substitute(&v).unwrap().grid(), [3, 5]);
}
