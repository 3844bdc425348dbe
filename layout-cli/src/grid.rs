//! The two-dimensional view of a layout shared by `show` and `svg`: rows are mode 0, columns
//! the remaining modes (grouped), as CuTe's `print_layout` draws a rank-2 layout; a rank-1
//! layout is one row. With `--tv`, a thread-value layout `(T,V) -> index` is drawn over the
//! M×N tile its indices address (column-major), each cell labelled with its thread and value.
//! Swizzled and F2 layouts draw their offsets; coordinate layouts their coordinates.

use layout_core::{AnyLayout, IntTuple, Layout, Value};

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// An offset (integer, swizzled and F2 layouts).
    Offset(i64),
    /// A coordinate of a coordinate (basis-stride) layout: its first two components.
    Coordinate(i64, i64),
    /// Thread and value of a TV layout; `None` where no (t, v) lands.
    ThreadValue(Option<(i64, i64)>),
}

/// Any layout the tools draw: a layout of any kind, whose function gives the cells.
pub struct Drawable(AnyLayout);

impl Drawable {
    /// The layout a value denotes (a bare shape is column-major).
    pub fn from_value(v: Value) -> Result<Drawable, String> {
        crate::any_layout_of(v).map(Drawable)
    }

    fn shape(&self) -> &IntTuple {
        self.0.shape()
    }

    fn title(&self) -> String {
        self.0.to_string()
    }

    /// The cell at a coordinate weakly congruent to the shape: an offset, or the first two
    /// components of a coordinate.
    fn cell(&self, crd: &IntTuple) -> Result<Cell, String> {
        Ok(match self.0.eval_coord(crd).map_err(|e| e.to_string())? {
            IntTuple::Int(v) => Cell::Offset(v),
            c => {
                let c = c.leaves();
                Cell::Coordinate(c.first().copied().unwrap_or(0), c.get(1).copied().unwrap_or(0))
            }
        })
    }

    /// As a plain integer layout, for thread-value pictures.
    pub fn as_layout(&self) -> Result<&Layout, String> {
        self.0.as_int().ok_or_else(|| format!("a thread-value picture needs an integer layout, not `{}`", self.title()))
    }
}

/// A layout laid out for drawing: `rows × cols` cells, row-major.
pub struct Grid {
    /// The heading: the layout in canonical notation.
    pub title: String,
    /// The number of rows (the extent of mode 0).
    pub rows: usize,
    /// The number of columns (the product of the other modes' extents).
    pub cols: usize,
    /// The cells, row by row.
    pub cells: Vec<Cell>,
    /// The largest offset, coordinate component or thread, for colour scales (not plus one:
    /// the largest offset may be `i64::MAX`).
    pub max: i64,
    /// For a swizzled layout: colour offsets by the bits the swizzle flips, `(shift, count)`,
    /// so the permutation shows as a pattern (stripes before the swizzle, diagonals after).
    pub swizzle_bits: Option<(u32, u32)>,
}

impl Grid {
    /// The cell in row `r`, column `c`.
    pub fn at(&self, r: usize, c: usize) -> Cell {
        self.cells[r * self.cols + c]
    }
}

/// The largest grid side the tools draw.
pub const MAX_SIDE: i64 = 1024;

/// Rows = mode 0, columns = the other modes; `L(r, c)` in each cell.
pub fn offsets(l: &Layout) -> Result<Grid, String> {
    cells(&Drawable(AnyLayout::Int(l.clone())))
}

/// Rows = mode 0, columns = the other modes (grouped, colexicographic); a rank-1 layout is
/// one row.
pub fn cells(d: &Drawable) -> Result<Grid, String> {
    let modes = d.shape().modes();
    if modes.is_empty() {
        return Err(format!("`{}` has no modes to draw", d.title()));
    }
    let size = |t: &IntTuple| t.product().map_err(|e| e.to_string());
    let total = size(d.shape())?;
    let scalar = d.shape().is_int();
    let (rows, cols) = if scalar { (1, total) } else { (size(&modes[0])?, total / size(&modes[0])?) };
    check_side(rows, cols)?;
    let rest = modes[1..].iter().map(size).collect::<Result<Vec<_>, _>>()?;
    let mut cells = Vec::with_capacity((rows * cols) as usize);
    for r in 0..rows {
        for c in 0..cols {
            let crd = if scalar {
                IntTuple::Int(c)
            } else {
                IntTuple::tuple(std::iter::once(IntTuple::Int(r)).chain(grouped_rest(&rest, c)))
            };
            cells.push(d.cell(&crd)?);
        }
    }
    let max = cells
        .iter()
        .map(|c| match c {
            Cell::Offset(v) => *v,
            Cell::Coordinate(a, b) => (*a).max(*b),
            Cell::ThreadValue(_) => 0,
        })
        .max()
        .unwrap_or(0);
    let swizzle_bits = match d {
        Drawable(AnyLayout::Swizzled(l)) if !l.swizzle().is_identity() => {
            let m = l.swizzle().zzz_mask();
            Some((m.trailing_zeros(), m.count_ones()))
        }
        _ => None,
    };
    Ok(Grid { title: d.title(), rows: rows as usize, cols: cols as usize, cells, max, swizzle_bits })
}

/// The coordinates of modes 1.. for a column index (colexicographic over those modes).
fn grouped_rest(sizes: &[i64], mut c: i64) -> Vec<IntTuple> {
    let mut out = Vec::with_capacity(sizes.len());
    for (k, &n) in sizes.iter().enumerate() {
        if k + 1 == sizes.len() {
            out.push(IntTuple::Int(c));
        } else {
            out.push(IntTuple::Int(c % n));
            c /= n;
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
    if l.size() > MAX_SIDE * MAX_SIDE {
        return Err(format!(
            "`{l}` has {} (thread, value) pairs; the tools draw at most {MAX_SIDE}x{MAX_SIDE} cells",
            l.size()
        ));
    }
    let (rows, cols) = match tile {
        Some(t) => t,
        None => square_tile(l.cosize().map_err(|e| e.to_string())?)?,
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
        max: threads - 1,
        swizzle_bits: None,
    })
}

/// The most nearly square M×N tile with `M·N = cosize`, `M ≤ N`; only searched up to the
/// largest grid the tools draw (M ≤ √cosize ≤ MAX_SIDE), so a huge cosize is an error at once.
fn square_tile(cosize: i64) -> Result<(i64, i64), String> {
    if cosize > MAX_SIDE * MAX_SIDE {
        return Err(format!(
            "the layout addresses {cosize} elements, more than a {MAX_SIDE}x{MAX_SIDE} grid holds; give a smaller --tile MxN"
        ));
    }
    let m = (1..=MAX_SIDE).take_while(|m| m * m <= cosize).filter(|m| cosize % m == 0).last().unwrap_or(1);
    Ok((m, cosize / m))
}

fn check_side(rows: i64, cols: i64) -> Result<(), String> {
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(format!("the grid would be {rows}x{cols}; the tools draw at most {MAX_SIDE}x{MAX_SIDE}"));
    }
    Ok(())
}
