//! The `layout` command-line tool as a library: each subcommand is a function from its
//! arguments to the text it prints, so tests can call them without a process.

pub mod grid;
pub mod show;
pub mod svg;

use layout_core::notation::{ExprError, FUNCTIONS, Value, evaluate};
use layout_core::{AnyLayout, IntTuple, Layout};

/// One line of `eval`: the value in canonical notation, or the error message. An
/// expression with symbols (`logical_divide((M,N):(1,LD), [8:1,8:1])`, optionally followed
/// by `where FACTS`) prints the symbolic layout and, one per line, the conditions its
/// constructor checks at run time.
pub fn eval_line(text: &str) -> Result<String, String> {
    eval_line_with(text, &[])
}

/// `eval` with numbers for the symbols (`--let M=64`): the layout with the numbers in, or
/// the condition that fails with the numbers.
pub fn eval_line_with(text: &str, lets: &[(String, i64)]) -> Result<String, String> {
    use layout_core::dynamic::{DynOutput, evaluate_dynamic_value, is_symbol_name};
    let dynamic = text.contains("where")
        || layout_core::notation::parse(text)
            .is_ok_and(|ast| layout_core::dynamic::mentions_symbols(&ast, &Default::default(), &Default::default()));
    if !dynamic {
        if let Some((name, _)) = lets.first() {
            return Err(format!("`--let {name}=…`: the expression has no symbols"));
        }
        return evaluate(text).map(|v| v.to_string()).map_err(|e| describe(text, &e));
    }
    let out = evaluate_dynamic_value(text).map_err(|e| describe(text, &e))?;
    let (shown, conds, symbols) = match &out {
        DynOutput::Layout(l) => (l.to_string(), &l.conds, &l.symbols),
        DynOutput::Int(i) => (i.to_string(), &i.conds, &i.symbols),
        DynOutput::Edges(e) => (e.to_string(), &e.layout.conds, &e.layout.symbols),
    };
    if lets.is_empty() {
        let mut out = shown;
        for c in conds {
            out.push_str(&format!("\n  if {}  ({})", c.cond, c.why));
        }
        return Ok(out);
    }
    if let Some((name, _)) = lets.iter().find(|(n, _)| !is_symbol_name(n) || !symbols.contains(n)) {
        return Err(format!(
            "`--let {name}=…`: the expression has no symbol `{name}` (its symbols: {})",
            symbols.join(", ")
        ));
    }
    if let Some(missing) = symbols.iter().find(|s| !lets.iter().any(|(n, _)| n == *s)) {
        return Err(format!("no value for the symbol `{missing}`: add `--let {missing}=…`"));
    }
    let value = |s: &str| lets.iter().find(|(n, _)| n == s).map(|(_, v)| *v);
    match &out {
        DynOutput::Layout(l) => l.substitute(&value).map(|l| l.to_string()).map_err(|e| e.to_string()),
        DynOutput::Int(i) => i.substitute(&value).map(|v| v.to_string()).map_err(|e| e.to_string()),
        DynOutput::Edges(e) => e.substitute(&value).map(|g| edge_grid_lines(&g)).map_err(|e| e.to_string()),
    }
}

/// At most this many tiles are listed by `eval` of `local_tile_edge` with `--let`.
const EDGE_TILES_LISTED: i64 = 64;

/// The tiles of an edge tiling with the numbers in: the grid, then per tile its grid
/// coordinate, base offset and the layout of its existing elements (`partial` when some
/// are missing).
fn edge_grid_lines(g: &layout_core::dynamic::EdgeGrid) -> String {
    let grid: Vec<String> = g.grid().iter().map(i64::to_string).collect();
    let mut out = format!("{} tiles ({}) over {}", g.count(), grid.join(" x "), g.layout);
    for k in 0..g.count().min(EDGE_TILES_LISTED) {
        let coord: Vec<String> = g.tile_coord(k).iter().map(i64::to_string).collect();
        let tile = g.tile(k);
        let partial = if g.tile_extent(k).iter().zip(&g.modes).any(|(&e, m)| e < m.2) { "  partial" } else { "" };
        out.push_str(&format!("\n  tile {k} ({}) at offset {}: {tile}{partial}", coord.join(","), g.tile_base(k)));
    }
    if g.count() > EDGE_TILES_LISTED {
        out.push_str(&format!("\n  … {} more", g.count() - EDGE_TILES_LISTED));
    }
    out
}

/// `NAME=VALUE` of `--let`.
pub fn parse_let(s: &str) -> Result<(String, i64), String> {
    let (name, value) =
        s.split_once('=').ok_or_else(|| format!("`--let {s}`: expected NAME=VALUE, e.g. `--let M=64`"))?;
    let value = value.trim().parse::<i64>().map_err(|_| format!("`--let {s}`: `{value}` is not an integer"))?;
    Ok((name.trim().to_string(), value))
}

/// One line of `table`: the values at indices 0..size-1, space-separated (offsets, or
/// coordinates for a coordinate layout).
pub fn table_line(text: &str) -> Result<String, String> {
    let e = |e: layout_core::LayoutError| e.to_string();
    let join = |v: Vec<String>| v.join(" ");
    let l = any_layout_of(evaluate(text).map_err(|e| describe(text, &e))?)?;
    Ok(join(l.table().map_err(e)?.iter().map(IntTuple::to_string).collect()))
}

/// `show`: the text grid (`tv`: a thread-value layout over its tile).
pub fn show(text: &str, tv: bool, tile: Option<(i64, i64)>) -> Result<String, String> {
    Ok(show::render(&grid_of(text, tv, tile)?))
}

/// `svg`: the picture.
pub fn svg(text: &str, tv: bool, tile: Option<(i64, i64)>) -> Result<String, String> {
    Ok(svg::render(&grid_of(text, tv, tile)?))
}

fn grid_of(text: &str, tv: bool, tile: Option<(i64, i64)>) -> Result<grid::Grid, String> {
    let d = grid::Drawable::from_value(evaluate(text).map_err(|e| describe(text, &e))?)?;
    if tv { grid::thread_values(d.as_layout()?, tile) } else { grid::cells(&d) }
}

/// `explain`: the narrated steps; `Err` (with the same narration) when the operation is rejected.
/// A GEMM's blocks are shown for the caches of the machine this runs on (CPUID).
pub fn explain(text: &str) -> Result<String, String> {
    explain_for_caches(text, layout_core::detected_caches())
}

/// [`explain`], with a GEMM's blocks shown for the given caches (`None`: the constant blocks),
/// so that the text does not depend on the machine.
pub fn explain_for_caches(text: &str, caches: Option<layout_core::CacheSizes>) -> Result<String, String> {
    if let Some(plan) = explain_copy(text, caches) {
        return plan;
    }
    let e = layout_core::explain(text).map_err(|e| describe(text, &e))?;
    let out = e.lines().join("\n");
    if e.result.is_ok() { Ok(out) } else { Err(out) }
}

/// `explain 'copy(S, D[, overlapping])'`: the copy plan `layout!` would run for a
/// `pub fn NAME = copy(S, D);` item; `None` when the text is not a copy.
fn explain_copy(text: &str, caches: Option<layout_core::CacheSizes>) -> Option<Result<String, String>> {
    use layout_core::notation::{Env, ExprKind, evaluate_expr, parse};
    let expr = parse(text).ok()?;
    let ExprKind::Call { name, args, .. } = &expr.kind else { return None };
    if name == "gemm" {
        return Some(explain_gemm(text, args, caches));
    }
    if name != "copy" {
        return None;
    }
    let overlapping = match args.get(2).map(|a| &a.kind) {
        None => false,
        Some(ExprKind::Name(n)) if n == "overlapping" => true,
        Some(_) => return Some(Err("the third argument of `copy` can only be `overlapping`".into())),
    };
    if !(2..=3).contains(&args.len()) {
        return Some(Err(format!("`copy(SRC, DST[, overlapping])` takes 2 or 3 arguments, found {}", args.len())));
    }
    let env = Env::new();
    let side = |k: usize| evaluate_expr(&args[k], &env).map_err(|e| describe(text, &e)).and_then(layout_of);
    Some(side(0).and_then(|s| {
        let d = side(1)?;
        layout_core::copy_plan(&s, &d, overlapping).map(|p| p.to_string()).map_err(|e| match e.help() {
            Some(h) => format!("rejected: {e}\nhelp: {h}"),
            None => format!("rejected: {e}"),
        })
    }))
}

/// `explain 'gemm(T, A, B, C)'`: the GEMM plan of a `pub fn NAME = gemm(T, A, B, C);` item.
fn explain_gemm(
    text: &str,
    args: &[layout_core::notation::Expr],
    caches: Option<layout_core::CacheSizes>,
) -> Result<String, String> {
    use layout_core::notation::{Env, evaluate_expr};
    if args.len() != 4 {
        return Err(format!("`gemm(T, A, B, C)` takes 4 arguments, found {}", args.len()));
    }
    let elem = match text.get(args[0].span.start..args[0].span.end) {
        Some("f32") => layout_core::GemmElem::F32,
        Some("f64") => layout_core::GemmElem::F64,
        _ => return Err("the element type of a `gemm` is `f32` or `f64`: `gemm(f32, A, B, C)`".into()),
    };
    let env = Env::new();
    let layout = |k: usize| evaluate_expr(&args[k], &env).map_err(|e| describe(text, &e)).and_then(layout_of);
    let (a, b, c) = (layout(1)?, layout(2)?, layout(3)?);
    let rejected = |e: layout_core::LayoutError| format!("rejected: {e}");
    let plan = layout_core::gemm_plan(&a, &b, &c).map_err(rejected)?;
    let schedule = layout_core::gemm_schedule_for(&plan, elem, caches).map_err(rejected)?;
    Ok(format!("{plan}\n{schedule}"))
}

/// `expand`: the Rust the `layout!` macro emits for `EXPR` as an item named `name`,
/// pretty-printed.
pub fn expand(text: &str, name: &str) -> Result<String, String> {
    layout_codegen::expand_expr_pretty(text, name)
}

/// The signatures of every operation.
pub fn functions() -> String {
    FUNCTIONS.iter().map(|f| f.signature).collect::<Vec<_>>().join("\n")
}

/// A layout of any kind (a bare shape is column-major; a bare integer is not a layout).
pub fn any_layout_of(v: Value) -> Result<AnyLayout, String> {
    match v {
        Value::Tuple(t) if t.is_int() => Err(format!("expected a layout, found {}", Value::Tuple(t).kind())),
        v => v.into_any_layout(),
    }
}

fn layout_of(v: Value) -> Result<Layout, String> {
    match v {
        Value::Layout(AnyLayout::Int(l)) => Ok(l),
        Value::Tuple(t) if !t.is_int() => Layout::column_major(t).map_err(|e| e.to_string()),
        v => Err(format!("expected a layout, found {}", v.kind())),
    }
}

/// An error message with the offending source text and the help line.
pub fn describe(text: &str, e: &ExprError) -> String {
    let span = e.span();
    let at = text.get(span.start..span.end).filter(|s| !s.is_empty() && s.len() < text.len());
    let mut msg = match at {
        Some(at) => format!("{e} (at `{at}`)"),
        None => e.to_string(),
    };
    if let Some(help) = e.help() {
        msg.push_str("; help: ");
        msg.push_str(&help);
    }
    msg
}

/// Parses `MxN` or `(M,N)` as a tile shape.
pub fn parse_tile(s: &str) -> Result<(i64, i64), String> {
    let t = s.replace(['x', 'X'], ",");
    let t = if t.starts_with('(') { t } else { format!("({t})") };
    match layout_core::parse_int_tuple(&t) {
        Ok(IntTuple::Tuple(v)) if v.len() == 2 => match (v[0].as_int(), v[1].as_int()) {
            (Some(m), Some(n)) if m > 0 && n > 0 => Ok((m, n)),
            _ => Err(format!("--tile takes two positive extents, got `{s}`")),
        },
        _ => Err(format!("--tile takes `MxN` or `(M,N)`, got `{s}`")),
    }
}
