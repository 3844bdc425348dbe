//! `layout show`: a text grid in the style of CuTe's `print_layout`.

use std::fmt::Write;

use crate::grid::{Cell, Grid};

/// The grid as text: a header row of column numbers, then one line per row with its cells.
pub fn render(g: &Grid) -> String {
    let label = |c: Cell| match c {
        Cell::Offset(v) => v.to_string(),
        Cell::Coordinate(a, b) => format!("({a},{b})"),
        Cell::ThreadValue(Some((t, v))) => format!("T{t}V{v}"),
        Cell::ThreadValue(None) => ".".into(),
    };
    let width =
        g.cells.iter().map(|&c| label(c).len()).max().unwrap_or(1).max(g.cols.saturating_sub(1).to_string().len());
    let head = g.rows.saturating_sub(1).to_string().len().max(1);
    let mut out = String::new();
    let _ = writeln!(out, "{}", g.title);
    let _ = write!(out, "{:head$}  ", "");
    for c in 0..g.cols {
        let _ = write!(out, "  {c:>width$}");
        if c + 1 < g.cols {
            out.push(' ');
        }
    }
    out.push('\n');
    let rule = format!("{:head$}  +{}\n", "", format!("{}+", "-".repeat(width + 2)).repeat(g.cols));
    out.push_str(&rule);
    for r in 0..g.rows {
        let _ = write!(out, "{r:>head$}  |");
        for c in 0..g.cols {
            let _ = write!(out, " {:>width$} |", label(g.at(r, c)));
        }
        out.push('\n');
        out.push_str(&rule);
    }
    out
}
