//! The two-dimensional view of a layout shared by `show` and `svg`: rows are mode 0, columns
//! the remaining modes (grouped), as CuTe's `print_layout` draws a rank-2 layout; a rank-1
//! layout is one row. With `--tv`, a thread-value layout `(T,V) -> index` is drawn over the
//! M×N tile its indices address (column-major), each cell labelled with its thread and value.

use layout_core::{IntTuple, Layout};

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Offset(i64),
    /// Thread and value of a TV layout; `None` where no (t, v) lands.
    ThreadValue(Option<(i64, i64)>),
}

pub struct Grid {
    pub title: String,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
    /// The largest offset (or thread) plus one, for colour scales.
    pub extent: i64,
}

impl Grid {
    pub fn at(&self, r: usize, c: usize) -> Cell {
        self.cells[r * self.cols + c]
    }
}

/// The largest grid side the tools draw.
pub const MAX_SIDE: i64 = 1024;

/// Rows = mode 0, columns = the other modes; `L(r, c)` in each cell.
pub fn offsets(l: &Layout) -> Result<Grid, String> {
    let modes = l.modes();
    if modes.is_empty() {
        return Err(format!("`{l}` has no modes to draw"));
    }
    let (rows, cols) = if l.shape().is_int() { (1, l.size()) } else { (modes[0].size(), l.size() / modes[0].size()) };
    check_side(rows, cols)?;
    let mut cells = Vec::with_capacity((rows * cols) as usize);
    for r in 0..rows {
        for c in 0..cols {
            let v = if l.shape().is_int() {
                l.eval(c)
            } else {
                l.eval_coord(&IntTuple::tuple(std::iter::once(IntTuple::Int(r)).chain(grouped_rest(&modes, c))))
            };
            cells.push(Cell::Offset(v.map_err(|e| e.to_string())?));
        }
    }
    let max = cells.iter().map(|c| if let Cell::Offset(v) = c { *v } else { 0 }).max().unwrap_or(0);
    Ok(Grid { title: l.to_string(), rows: rows as usize, cols: cols as usize, cells, extent: max + 1 })
}

/// The coordinates of modes 1.. for a column index (colexicographic over those modes).
fn grouped_rest(modes: &[Layout], mut c: i64) -> Vec<IntTuple> {
    let rest = &modes[1..];
    let mut out = Vec::with_capacity(rest.len());
    for (k, m) in rest.iter().enumerate() {
        if k + 1 == rest.len() {
            out.push(IntTuple::Int(c));
        } else {
            out.push(IntTuple::Int(c % m.size()));
            c /= m.size();
        }
    }
    out
}

/// The M×N tile of a TV layout: cell (m, n) shows the (t, v) with `L(t, v) = m + n·M`.
pub fn thread_values(l: &Layout, tile: Option<(i64, i64)>) -> Result<Grid, String> {
    if l.rank() != 2 {
        return Err(format!("a thread-value layout has rank 2 (threads, values); `{l}` has rank {}", l.rank()));
    }
    let (threads, values) =
        (l.mode(0).map_err(|e| e.to_string())?.size(), l.mode(1).map_err(|e| e.to_string())?.size());
    let cosize = l.cosize().map_err(|e| e.to_string())?;
    let (rows, cols) = match tile {
        Some(t) => t,
        None => {
            let m = (1..=cosize).filter(|m| cosize % m == 0 && m * m <= cosize).max().unwrap_or(1);
            (m, cosize / m)
        }
    };
    check_side(rows, cols)?;
    let mut cells = vec![Cell::ThreadValue(None); (rows * cols) as usize];
    for v in 0..values {
        for t in 0..threads {
            let idx = l.eval_coord(&IntTuple::from([t, v])).map_err(|e| e.to_string())?;
            if idx < 0 || idx >= rows * cols {
                return Err(format!("T{t}V{v} maps to {idx}, outside the {rows}x{cols} tile"));
            }
            let (m, n) = (idx % rows, idx / rows);
            cells[(m * cols + n) as usize] = Cell::ThreadValue(Some((t, v)));
        }
    }
    Ok(Grid {
        title: format!("{l} over a {rows}x{cols} tile"),
        rows: rows as usize,
        cols: cols as usize,
        cells,
        extent: threads,
    })
}

fn check_side(rows: i64, cols: i64) -> Result<(), String> {
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(format!("the grid would be {rows}x{cols}; the tools draw at most {MAX_SIDE}x{MAX_SIDE}"));
    }
    Ok(())
}
