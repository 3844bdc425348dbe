//! `layout svg`: the grid as an SVG picture, cells coloured by offset (or by thread for a
//! TV layout), with row and column coordinates and a legend; it scales down to stay readable
//! up to 128×128 cells and beyond.

use std::fmt::Write;

use crate::grid::{Cell, Grid};

/// Eight distinguishable colours for threads (CuTe's `print_latex` also cycles eight).
pub const THREAD_COLORS: [(u8, u8, u8); 8] = [
    (175, 175, 255),
    (175, 255, 175),
    (255, 255, 175),
    (255, 175, 175),
    (210, 210, 255),
    (210, 255, 210),
    (255, 255, 210),
    (255, 210, 210),
];

/// The geometry of a picture, exposed so tests can find cells.
pub struct Geometry {
    /// The side of a cell, in pixels.
    pub cell: f64,
    /// The x of the left edge of the first column.
    pub left: f64,
    /// The y of the top edge of the first row.
    pub top: f64,
    /// The width of the picture.
    pub width: f64,
    /// The height of the picture.
    pub height: f64,
}

/// Where the cells of `g` go: a cell side between 6 and 48 pixels that fits the larger side
/// of the grid into about 960 pixels, and the margins for the labels.
pub fn geometry(g: &Grid) -> Geometry {
    let side = g.rows.max(g.cols) as f64;
    let cell = (960.0 / side).clamp(6.0, 48.0).floor();
    let left = 16.0 + cell.max(12.0) * 1.5;
    let top = 40.0 + cell.max(12.0);
    let width = left + cell * g.cols as f64 + 16.0;
    let height = top + cell * g.rows as f64 + 70.0;
    let legend = if g.cells.iter().any(|c| matches!(c, Cell::ThreadValue(_))) {
        left + 620.0
    } else if let Some((_, bits)) = g.swizzle_bits {
        left + 420.0 + 30.0 * (1i64 << bits).min(16) as f64
    } else {
        left + 330.0
    };
    Geometry { cell, left, top, width: width.max(legend).ceil(), height: height.ceil() }
}

/// The fill of a cell.
pub fn color(g: &Grid, c: Cell) -> (u8, u8, u8) {
    match c {
        Cell::Offset(v) => match g.swizzle_bits {
            Some((shift, bits)) => hue((v >> shift) & ((1 << bits) - 1), 1 << bits),
            None => ramp(if g.max > 0 { v as f64 / g.max as f64 } else { 0.0 }),
        },
        // A coordinate: hue from the first component, lightness from the second.
        Cell::Coordinate(a, b) => {
            let (r, gg, bb) = THREAD_COLORS[(a.rem_euclid(8)) as usize];
            let k = if g.max > 0 { 1.0 - 0.5 * b as f64 / g.max as f64 } else { 1.0 };
            ((r as f64 * k) as u8, (gg as f64 * k) as u8, (bb as f64 * k) as u8)
        }
        Cell::ThreadValue(Some((t, _))) => THREAD_COLORS[(t % 8) as usize],
        Cell::ThreadValue(None) => (255, 255, 255),
    }
}

/// A light-to-dark blue-green-yellow ramp; t in [0, 1].
fn ramp(t: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 5] =
        [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];
    let t = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let (i, f) = ((t.floor() as usize).min(STOPS.len() - 2), t - t.floor().min((STOPS.len() - 2) as f64));
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Colour k of n evenly spaced, light hues.
fn hue(k: i64, n: i64) -> (u8, u8, u8) {
    let h = k as f64 / n.max(1) as f64 * 6.0;
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    let (r, g, b) = match h as i64 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let light = |c: f64| (255.0 * (0.45 + 0.55 * c)).round() as u8;
    (light(r), light(g), light(b))
}

fn text_color((r, g, b): (u8, u8, u8)) -> &'static str {
    if 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64 > 140.0 { "#000" } else { "#fff" }
}

fn label(c: Cell) -> String {
    match c {
        Cell::Offset(o) => o.to_string(),
        Cell::Coordinate(a, b) => format!("({a},{b})"),
        Cell::ThreadValue(Some((t, v))) => format!("T{t}V{v}"),
        Cell::ThreadValue(None) => String::new(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The grid as an SVG picture: coloured cells labelled with their offsets (or coordinates,
/// or threads and values), row and column numbers, and the title.
pub fn render(g: &Grid) -> String {
    let geo = geometry(g);
    let Geometry { cell, left, top, width, height } = geo;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">"#
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##);
    let _ = writeln!(s, r#"<text x="16" y="24" font-size="16">{}</text>"#, escape(&g.title));
    let label_size = (cell * 0.45).clamp(6.0, 14.0);
    let every = (12.0 / cell).ceil().max(1.0) as usize;
    for c in (0..g.cols).step_by(every) {
        let x = left + (c as f64 + 0.5) * cell;
        let _ =
            writeln!(s, r#"<text x="{x}" y="{}" font-size="{label_size}" text-anchor="middle">{c}</text>"#, top - 4.0);
    }
    for r in (0..g.rows).step_by(every) {
        let y = top + (r as f64 + 0.5) * cell + label_size * 0.35;
        let _ =
            writeln!(s, r#"<text x="{}" y="{y}" font-size="{label_size}" text-anchor="end">{r}</text>"#, left - 4.0);
    }
    let longest = g.cells.iter().map(|&c| label(c).len()).max().unwrap_or(1).max(2);
    let size = (cell * 1.2 / longest as f64).min(cell * 0.4);
    let stroke = if cell >= 10.0 { r##" stroke="#555" stroke-width="0.5""## } else { "" };
    for r in 0..g.rows {
        for c in 0..g.cols {
            let v = g.at(r, c);
            let rgb = color(g, v);
            let (x, y) = (left + c as f64 * cell, top + r as f64 * cell);
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="rgb({},{},{})"{stroke}/>"#,
                rgb.0, rgb.1, rgb.2
            );
            let text = label(v);
            if size >= 5.0 && !text.is_empty() {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" font-size="{size:.1}" text-anchor="middle" fill="{}">{text}</text>"#,
                    x + cell / 2.0,
                    y + cell * 0.62,
                    text_color(rgb)
                );
            }
        }
    }
    legend(&mut s, g, left, top + cell * g.rows as f64 + 20.0);
    s.push_str("</svg>\n");
    s
}

fn legend(s: &mut String, g: &Grid, x0: f64, y: f64) {
    let thread = g.cells.iter().any(|c| matches!(c, Cell::ThreadValue(_)));
    if thread {
        let _ =
            writeln!(s, r#"<text x="{x0}" y="{}" font-size="12">threads (colour = thread mod 8):</text>"#, y + 10.0);
        for t in 0..=g.max.min(7) {
            let (r, gg, b) = THREAD_COLORS[t as usize];
            let x = x0 + 250.0 + t as f64 * 44.0;
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="14" height="14" fill="rgb({r},{gg},{b})" stroke="#555"/>"##
            );
            let _ = writeln!(s, r#"<text x="{}" y="{}" font-size="11">T{t}</text>"#, x + 17.0, y + 11.0);
        }
        return;
    }
    if let Some((shift, bits)) = g.swizzle_bits {
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="{}" font-size="12">colour = offset bits {shift}..{} (the bits the swizzle flips):</text>"#,
            y + 11.0,
            shift + bits - 1
        );
        for k in 0..(1i64 << bits).min(16) {
            let (r, gg, b) = hue(k, 1 << bits);
            let x = x0 + 400.0 + k as f64 * 30.0;
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="14" height="14" fill="rgb({r},{gg},{b})" stroke="#555"/>"##
            );
            let _ = writeln!(s, r#"<text x="{}" y="{}" font-size="11">{k}</text>"#, x + 16.0, y + 11.0);
        }
        return;
    }
    let steps = 32;
    let _ = writeln!(s, r#"<text x="{x0}" y="{}" font-size="12">offset 0</text>"#, y + 11.0);
    for k in 0..steps {
        let (r, gg, b) = ramp(k as f64 / (steps - 1) as f64);
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{y}" width="6" height="14" fill="rgb({r},{gg},{b})"/>"#,
            x0 + 70.0 + k as f64 * 6.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="12">{}</text>"#,
        x0 + 70.0 + steps as f64 * 6.0 + 6.0,
        y + 11.0,
        g.max
    );
}
