//! The `layout` command-line tool as a library: each subcommand is a function from its
//! arguments to the text it prints, so tests can call them without a process.

pub mod args;
pub mod grid;
pub mod show;
pub mod svg;
pub mod table;

use layout_codegen::KernelPlan;
use layout_core::dynamic::{DynOutput, EdgeGrid, evaluate_dynamic_value, is_symbol_name, mentions_symbols};
use layout_core::notation::{Env, ExprError, FUNCTIONS, Value, evaluate};
use layout_core::{AnyLayout, IntTuple, Layout};

pub use table::{TableError, write_table};

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
    reject_kernel(text)?;
    if !is_dynamic(text) {
        no_lets(lets)?;
        return evaluate(text).map(|v| v.to_string()).map_err(|e| describe(text, &e));
    }
    let out = evaluate_dynamic_value(text).map_err(|e| describe(text, &e))?;
    if lets.is_empty() {
        return Ok(symbolic(&out));
    }
    Ok(match instance(&out, lets)? {
        Instance::Layout(l) => l.to_string(),
        Instance::Int(v) => v.to_string(),
        Instance::Edges(g) => edge_grid_lines(&g),
    })
}

/// Whether the expression is evaluated over symbols: it has facts (`where …`) or mentions
/// a symbol (`(M,N):(1,LD)`).
fn is_dynamic(text: &str) -> bool {
    split_where(text).1.is_some()
        || layout_core::notation::parse(text).is_ok_and(|ast| mentions_symbols(&ast, &Env::new(), &Default::default()))
}

/// `EXPR where FACTS` split at the word `where` (the expression language has no word of
/// which `where` is a part on its own).
fn split_where(text: &str) -> (&str, Option<&str>) {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = text.as_bytes();
    let at = text
        .match_indices("where")
        .map(|(k, _)| k)
        .find(|&k| (k == 0 || !word(bytes[k - 1])) && bytes.get(k + 5).is_none_or(|&c| !word(c)));
    match at {
        Some(k) => (&text[..k], Some(&text[k + 5..])),
        None => (text, None),
    }
}

/// `--let` given for an expression without symbols.
fn no_lets(lets: &[(String, i64)]) -> Result<(), String> {
    match lets.first() {
        Some((name, _)) => Err(format!("`--let {name}=…`: the expression has no symbols")),
        None => Ok(()),
    }
}

/// A kernel call (`copy(…)`, `gemm(…)`) where a layout expression is expected: the macro's
/// error when the kernel is rejected (sizes that differ, …), else what to do with it instead.
fn reject_kernel(text: &str) -> Result<(), String> {
    let Some(kernel) = layout_codegen::kernel_name(text) else { return Ok(()) };
    layout_codegen::check_kernel(text)?;
    Err(format!(
        "`{kernel}(…)` is a kernel item, not a layout expression: `layout! {{ pub fn NAME = {kernel}(…); }}` \
         defines a function; `layout expand` prints its code and `layout explain` its plan"
    ))
}

/// The value over the symbols with its run-time conditions, one per line.
fn symbolic(out: &DynOutput) -> String {
    let (mut shown, conds, _) = parts(out);
    for c in conds {
        shown.push_str(&format!("\n  if {}  ({})", c.cond, c.why));
    }
    shown
}

fn parts(out: &DynOutput) -> (String, &[layout_core::dynamic::Condition], &[String]) {
    match out {
        DynOutput::Layout(l) => (l.to_string(), &l.conds, &l.symbols),
        DynOutput::Int(i) => (i.to_string(), &i.conds, &i.symbols),
        DynOutput::Edges(e) => (e.to_string(), &e.layout.conds, &e.layout.symbols),
    }
}

/// An expression over symbols with the numbers of `--let` in.
enum Instance {
    Layout(Layout),
    Int(i64),
    Edges(EdgeGrid),
}

/// The value with the numbers in: every name given is a symbol of the expression, every
/// symbol has a number, and the conditions hold for the numbers.
fn instance(out: &DynOutput, lets: &[(String, i64)]) -> Result<Instance, String> {
    let (_, _, symbols) = parts(out);
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
    let e = |e: layout_core::dynamic::DynamicError| e.to_string();
    Ok(match out {
        DynOutput::Layout(l) => Instance::Layout(l.substitute(&value).map_err(e)?),
        DynOutput::Int(i) => Instance::Int(i.substitute(&value).map_err(e)?),
        DynOutput::Edges(g) => Instance::Edges(g.substitute(&value).map_err(e)?),
    })
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
/// coordinates for a coordinate layout). `layout table` itself streams: [`write_table`].
pub fn table_line(text: &str) -> Result<String, String> {
    let mut out = Vec::new();
    write_table(text, &mut out).map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&out).trim_end().to_string())
}

/// `show`: the text grid (`tv`: a thread-value layout over its tile).
pub fn show(text: &str, tv: bool, tile: Option<(i64, i64)>) -> Result<String, String> {
    show_with(text, tv, tile, &[])
}

/// `show` with numbers for the symbols of a dynamic layout (`--let M=8`).
pub fn show_with(text: &str, tv: bool, tile: Option<(i64, i64)>, lets: &[(String, i64)]) -> Result<String, String> {
    Ok(show::render(&grid_of(text, tv, tile, lets)?))
}

/// `svg`: the picture.
pub fn svg(text: &str, tv: bool, tile: Option<(i64, i64)>) -> Result<String, String> {
    svg_with(text, tv, tile, &[])
}

/// `svg` with numbers for the symbols of a dynamic layout (`--let M=8`).
pub fn svg_with(text: &str, tv: bool, tile: Option<(i64, i64)>, lets: &[(String, i64)]) -> Result<String, String> {
    Ok(svg::render(&grid_of(text, tv, tile, lets)?))
}

fn grid_of(text: &str, tv: bool, tile: Option<(i64, i64)>, lets: &[(String, i64)]) -> Result<grid::Grid, String> {
    reject_kernel(text)?;
    let d = grid::Drawable::from_value(drawn_value(text, lets)?)?;
    if tv { grid::thread_values(d.as_layout()?, tile) } else { grid::cells(&d) }
}

/// The value `show` and `svg` draw: a static expression's, or a dynamic one's with the
/// numbers of `--let` in (a layout over symbols has no picture until its numbers are known).
fn drawn_value(text: &str, lets: &[(String, i64)]) -> Result<Value, String> {
    if !is_dynamic(text) {
        no_lets(lets)?;
        return evaluate(text).map_err(|e| describe(text, &e));
    }
    let out = evaluate_dynamic_value(text).map_err(|e| describe(text, &e))?;
    if lets.is_empty() {
        let (shown, _, symbols) = parts(&out);
        let lets: Vec<String> = symbols.iter().map(|s| format!("--let {s}=…")).collect();
        return Err(format!("`{shown}` has symbols; give each a number to draw it: {}", lets.join(" ")));
    }
    match instance(&out, lets)? {
        Instance::Layout(l) => Ok(Value::Layout(AnyLayout::Int(l))),
        Instance::Int(v) => Err(format!("expected a layout, found the integer {v}")),
        Instance::Edges(g) => Err(format!(
            "`local_tile_edge` gives {} tiles of {}, not one layout: `layout eval` with the same --let lists them; draw \
             one tile, or the tiled layout",
            g.count(),
            g.layout
        )),
    }
}

/// `explain`: the narrated steps; `Err` (with the same narration) when the operation is rejected.
/// A GEMM's blocks are shown for the caches of the machine this runs on (CPUID).
pub fn explain(text: &str) -> Result<String, String> {
    explain_with(text, &[])
}

/// `explain` with numbers for the symbols (`--let M=64`): the steps for that instance. Without
/// numbers, an expression over symbols is explained by its symbolic result and conditions.
pub fn explain_with(text: &str, lets: &[(String, i64)]) -> Result<String, String> {
    explain_for(text, lets, layout_plan::detected_caches())
}

/// [`explain`], with a GEMM's blocks shown for the given caches (`None`: the constant blocks),
/// so that the text does not depend on the machine.
pub fn explain_for_caches(text: &str, caches: Option<layout_plan::CacheSizes>) -> Result<String, String> {
    explain_for(text, &[], caches)
}

fn explain_for(text: &str, lets: &[(String, i64)], caches: Option<layout_plan::CacheSizes>) -> Result<String, String> {
    if let Some(plan) = explain_kernel(text, caches) {
        no_lets(lets)?;
        return plan;
    }
    if is_dynamic(text) {
        return explain_dynamic(text, lets);
    }
    no_lets(lets)?;
    let e = layout_core::explain(text).map_err(|e| describe(text, &e))?;
    let out = e.lines().join("\n");
    if e.result.is_ok() { Ok(out) } else { Err(out) }
}

/// `explain` of an expression over symbols. The steps are those of the instance the numbers
/// of `--let` give, after the expression's run-time conditions are checked for them; without
/// numbers, the symbolic result and its conditions, as `eval` prints them.
fn explain_dynamic(text: &str, lets: &[(String, i64)]) -> Result<String, String> {
    let rejected = |m: String| format!("rejected: {m}");
    let out = evaluate_dynamic_value(text).map_err(|e| rejected(describe(text, &e)))?;
    if lets.is_empty() {
        let (_, _, symbols) = parts(&out);
        let lets: Vec<String> = symbols.iter().map(|s| format!("--let {s}=…")).collect();
        return Ok(format!(
            "over the symbols {}: the steps are narrated for numbers ({})\nresult: {}",
            symbols.join(", "),
            lets.join(" "),
            symbolic(&out)
        ));
    }
    let instance = instance(&out, lets).map_err(rejected)?;
    let given: Vec<String> = lets.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    let head = format!("with {}:", given.join(", "));
    if let Instance::Edges(g) = instance {
        return Ok(format!("{head}\n{}", edge_grid_lines(&g)));
    }
    let env: Env = lets.iter().map(|(n, v)| (n.clone(), Value::Tuple(IntTuple::Int(*v)))).collect();
    let expr = split_where(text).0;
    let e = layout_core::explain_in(expr, &env).map_err(|e| describe(expr, &e))?;
    let out = std::iter::once(head).chain(e.lines()).collect::<Vec<_>>().join("\n");
    if e.result.is_ok() { Ok(out) } else { Err(out) }
}

/// `explain 'copy(S, D[, overlapping])'` or `'gemm(T, A, B, C)'`: the plan `layout!` would run
/// for a `pub fn NAME = KERNEL;` item, the call parsed and planned by the macro's own
/// evaluation; `None` when the text is not a kernel call.
fn explain_kernel(text: &str, caches: Option<layout_plan::CacheSizes>) -> Option<Result<String, String>> {
    layout_codegen::kernel_name(text)?;
    let rejected = |m: String| format!("rejected: {m}");
    Some(match layout_codegen::plan_kernel_call(text).map_err(rejected) {
        Ok(KernelPlan::Copy(Some(plan))) => Ok(plan.to_string()),
        Ok(KernelPlan::Copy(None)) => {
            Ok("a copy of a swizzled or F2 layout: indexed, each element through both layouts' offsets".into())
        }
        Ok(KernelPlan::Gemm(elem, plan)) => layout_plan::gemm_schedule_for(&plan, elem, caches)
            .map(|schedule| format!("{plan}\n{schedule}"))
            .map_err(|e| rejected(e.to_string())),
        Ok(KernelPlan::Dynamic(text)) => Ok(text),
        Err(e) => Err(e),
    })
}

/// `expand`: the Rust the `layout!` macro emits for `EXPR` as an item named `name`,
/// pretty-printed: a layout's types (`pub NAME = EXPR;`), or a kernel call's function
/// (`pub fn NAME = copy(…);`, `gemm(…)`).
pub fn expand(text: &str, name: &str) -> Result<String, String> {
    match layout_codegen::kernel_name(text) {
        Some(_) => layout_codegen::expand_kernel_pretty(text, name),
        None => layout_codegen::expand_expr_pretty(text, name),
    }
}

/// The signatures of every operation, then the kernels of `pub fn NAME = KERNEL;` items.
pub fn functions() -> String {
    let mut out: Vec<String> = FUNCTIONS.iter().map(|f| f.signature.to_string()).collect();
    out.push(String::new());
    out.push("kernels, for items `pub fn NAME = KERNEL;` (`layout expand`, `layout explain`):".into());
    out.extend(layout_codegen::KERNELS.iter().map(|(signature, what)| format!("{signature}  {what}")));
    out.join("\n")
}

/// A layout of any kind (a bare shape is column-major; a bare integer is not a layout).
pub fn any_layout_of(v: Value) -> Result<AnyLayout, String> {
    match v {
        Value::Tuple(t) if t.is_int() => Err(format!("expected a layout, found {}", Value::Tuple(t).kind())),
        v => v.into_any_layout(),
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
