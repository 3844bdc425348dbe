//! The SVG pictures are well-formed and render: parsed as XML, rasterized with resvg, and
//! checked for their size and for the colours the layout implies.

use layout_cli::grid::{self, Cell};
use layout_cli::svg::{self, THREAD_COLORS};
use layout_core::parse_layout;

/// Rasterizes an SVG and returns (width, height, RGBA pixels).
fn rasterize(text: &str) -> (u32, u32, Vec<u8>) {
    let tree = resvg::usvg::Tree::from_str(text, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("non-empty picture");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    (size.width(), size.height(), pixmap.data().to_vec())
}

fn pixel(img: &(u32, u32, Vec<u8>), x: f64, y: f64) -> (u8, u8, u8) {
    let (w, _, data) = img;
    let i = ((y as u32 * w + x as u32) * 4) as usize;
    (data[i], data[i + 1], data[i + 2])
}

/// Every cell's top-left interior pixel has the cell's colour.
fn check_cells(expr: &str, tv: bool, tile: Option<(i64, i64)>) {
    let d = grid::Drawable::from_value(layout_core::evaluate(expr).unwrap()).unwrap();
    let g = if tv { grid::thread_values(d.as_layout().unwrap(), tile).unwrap() } else { grid::cells(&d).unwrap() };
    let text = layout_cli::svg(expr, tv, tile).unwrap();
    let geo = svg::geometry(&g);
    let img = rasterize(&text);
    assert_eq!((img.0, img.1), (geo.width as u32, geo.height as u32), "picture size of {expr}");
    for r in 0..g.rows {
        for c in 0..g.cols {
            let x = geo.left + c as f64 * geo.cell + 2.0;
            let y = geo.top + r as f64 * geo.cell + 2.0;
            let want = svg::color(&g, g.at(r, c));
            let got = pixel(&img, x, y);
            let close = |a: u8, b: u8| a.abs_diff(b) <= 2;
            assert!(
                close(got.0, want.0) && close(got.1, want.1) && close(got.2, want.2),
                "{expr}: cell ({r},{c}) = {:?} should be {want:?}, rendered {got:?}",
                g.at(r, c)
            );
        }
    }
}

#[test]
fn svg_is_well_formed() {
    for expr in ["(4,8):(1,4)", "((2,4),3):((1,6),2)", "16:3", "(8,(2,4)):(8,(1,64))"] {
        let text = layout_cli::svg(expr, false, None).unwrap();
        let doc = roxmltree_check(&text);
        assert!(doc > 0, "{expr}: no rect elements");
    }
}

/// Counts the `<rect` elements after checking that the document is balanced XML (resvg's
/// parser rejects malformed documents, so parsing with it is the well-formedness check).
fn roxmltree_check(text: &str) -> usize {
    resvg::usvg::Tree::from_str(text, &resvg::usvg::Options::default()).expect("well-formed SVG");
    text.matches("<rect").count()
}

#[test]
fn cells_have_the_offsets_colours() {
    check_cells("(4,8):(1,4)", false, None);
    check_cells("(4,8):(8,1)", false, None);
    check_cells("((2,4),3):((1,6),2)", false, None);
}

#[test]
fn equal_offsets_have_equal_colours_and_order_shows() {
    // A broadcast layout: both rows carry the same offsets, so the same colours.
    let l = parse_layout("(2,8):(0,1)").unwrap();
    let g = grid::offsets(&l).unwrap();
    for c in 0..8 {
        assert_eq!(svg::color(&g, g.at(0, c)), svg::color(&g, g.at(1, c)));
    }
    assert_ne!(svg::color(&g, g.at(0, 0)), svg::color(&g, g.at(0, 7)));
}

#[test]
fn thread_value_picture_colours_cells_by_thread() {
    check_cells("((4,8),2):((16,1),8)", true, Some((8, 8)));
    let l = parse_layout("((4,8),2):((16,1),8)").unwrap();
    let g = grid::thread_values(&l, Some((8, 8))).unwrap();
    // Row 0 holds threads 0..3, two values each (offset % 8 = t1, offset / 8 = 2·t0 + v).
    assert_eq!(g.at(0, 0), Cell::ThreadValue(Some((0, 0))));
    assert_eq!(g.at(0, 3), Cell::ThreadValue(Some((1, 1))));
    assert_eq!(g.at(7, 7), Cell::ThreadValue(Some((31, 1))));
    assert_eq!(svg::color(&g, g.at(0, 2)), THREAD_COLORS[1]);
}

#[test]
fn a_128_by_128_layout_renders_at_a_readable_scale() {
    let expr = "(128,128):(128,1)";
    let l = parse_layout(expr).unwrap();
    let g = grid::offsets(&l).unwrap();
    let geo = svg::geometry(&g);
    assert!(geo.cell >= 6.0, "cells stay visible");
    let img = rasterize(&layout_cli::svg(expr, false, None).unwrap());
    assert_eq!((img.0, img.1), (geo.width as u32, geo.height as u32));
    // Spot-check the corners and the middle.
    for (r, c) in [(0, 0), (0, 127), (127, 0), (127, 127), (64, 31)] {
        let x = geo.left + c as f64 * geo.cell + 1.0;
        let y = geo.top + r as f64 * geo.cell + 1.0;
        let want = svg::color(&g, g.at(r, c));
        let got = pixel(&img, x, y);
        assert!(got.0.abs_diff(want.0) <= 2 && got.1.abs_diff(want.1) <= 2 && got.2.abs_diff(want.2) <= 2);
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(layout_cli::svg("(4,8):(1", false, None).is_err());
    assert!(layout_cli::svg("(2048,2048):(1,2048)", false, None).is_err());
    assert!(layout_cli::svg("(4,8,2):(1,4,32)", true, None).is_err());
    assert!(layout_cli::svg("((4,8),2):((16,1),8)", true, Some((4, 4))).is_err());
}

#[test]
fn the_readme_picture_is_what_the_tool_draws() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/tv-ampere.svg");
    let committed = std::fs::read_to_string(path).expect("docs/tv-ampere.svg");
    let drawn = layout_cli::svg("((4,8),2):((16,1),8)", true, Some((8, 8))).unwrap();
    assert_eq!(
        committed, drawn,
        "regenerate with: cargo run -p cute-layout-cli -- svg --tv '((4,8),2):((16,1),8)' --tile 8x8 -o docs/tv-ampere.svg"
    );
}

#[test]
fn a_swizzled_layout_is_coloured_by_the_bits_the_swizzle_flips() {
    // Sw<3,4,3> flips offset bits 4..6 (the 16-element chunk within 128). Coloured by those
    // bits, column 0 of the unswizzled (8,64):(64,1) shows only chunks 0 and 4; swizzled, all
    // eight rows start in different chunks: the permutation is visible.
    let expr = "Sw<3,4,3> o (8,64):(64,1)";
    check_cells(expr, false, None);
    let d = grid::Drawable::from_value(layout_core::evaluate(expr).unwrap()).unwrap();
    let g = grid::cells(&d).unwrap();
    assert_eq!(g.swizzle_bits, Some((4, 3)));
    let chunk = |c: Cell| match c {
        Cell::Offset(v) => (v >> 4) & 7,
        other => panic!("expected an offset, got {other:?}"),
    };
    let swizzled: std::collections::BTreeSet<i64> = (0..8).map(|r| chunk(g.at(r, 0))).collect();
    assert_eq!(swizzled.len(), 8, "{swizzled:?}");
    let plain = grid::offsets(&parse_layout("(8,64):(64,1)").unwrap()).unwrap();
    assert_eq!(plain.swizzle_bits, None);
    let unswizzled: std::collections::BTreeSet<i64> = (0..8).map(|r| chunk(plain.at(r, 0))).collect();
    assert_eq!(unswizzled.into_iter().collect::<Vec<_>>(), vec![0, 4]);
    let colours: std::collections::BTreeSet<_> = (0..8).map(|r| svg::color(&g, g.at(r, 0))).collect();
    assert_eq!(colours.len(), 8);
}

#[test]
fn coordinate_and_f2_layouts_render() {
    check_cells("(4,(4,2)):(1@1,(1@0,6@1))", false, None);
    check_cells("(4,(4,3)):(f1,(f5,f16))", false, None);
}
