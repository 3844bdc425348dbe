//! `layout`: evaluate, tabulate, draw and explain CuTe layout expressions.
//!
//! ```text
//! layout eval 'composition((6,2):(8,2), (4,3):(3,1))'    # ((2,2),3):((24,2),8)
//! layout table '(4,2):(2,1)'                             # 0 2 4 6 1 3 5 7
//! layout eval --batch < exprs.txt                        # one result or `error: …` per line
//! layout show '(4,8):(8,1)'                              # a grid like CuTe's print_layout
//! layout svg --tv '((4,8),2):((16,1),8)' -o tv.svg       # a picture, cells coloured by thread
//! layout explain 'composition((4,6):(2,3), 6:3)'         # the algorithm's steps, or why not
//! layout expand --name Tiled '((2,4),3):((1,6),2)'       # the code `layout!` emits
//! layout expand --name t 'copy((4,8):(1,4), (4,8):(8,1))' # a kernel item's function
//! layout show --let M=8 --let N=4 '(M,N):(1,M)'          # a layout over symbols, with numbers
//! ```
//!
//! Exit codes: 0 success (also when the reader of stdout goes away, as `cat` does), 1 an
//! expression is rejected or a file cannot be written, 2 a usage error (clap's).

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use layout_cli::{
    TableError, eval_line_with, expand, explain_with, functions, parse_let, parse_tile, show_with, svg_with,
    write_table,
};

#[derive(Parser)]
#[command(name = "layout", version, about = "Evaluate, tabulate, draw and explain CuTe layout expressions")]
#[command(subcommand_required = true)]
#[command(after_help = "Quote expressions: layout eval 'logical_divide((8,8):(1,8), [4:1,2:1])'")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The value of EXPR in canonical notation (an integer for size, cosize, rank, depth);
    /// with symbols (`(M,N):(1,LD)`, `EXPR where M % 8 == 0`), the symbolic layout and its
    /// run-time conditions.
    Eval {
        #[command(flatten)]
        batch: Batch,
        /// A number for a symbol (repeat for each): the layout with the numbers in, or the
        /// condition that fails with the numbers.
        #[arg(long = "let", value_name = "NAME=N", value_parser = parse_let)]
        lets: Vec<(String, i64)>,
    },
    /// A layout's offsets at indices 0..size-1, space-separated.
    Table(Batch),
    /// A layout as a text grid (rows: mode 0, columns: the other modes), as CuTe's print_layout.
    Show(Draw),
    /// The same grid as an SVG picture.
    Svg {
        #[command(flatten)]
        draw: Draw,
        /// Write the picture to FILE instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE", allow_hyphen_values = true)]
        output: Option<PathBuf>,
    },
    /// The steps of a composition, divide, product or complement, or why it is rejected.
    Explain {
        /// The expression to explain.
        #[arg(allow_negative_numbers = true)]
        expr: String,
        /// A number for a symbol (repeat for each): the steps for those numbers. Without,
        /// an expression over symbols is explained by its symbolic result and conditions.
        #[arg(long = "let", value_name = "NAME=N", value_parser = parse_let)]
        lets: Vec<(String, i64)>,
    },
    /// The Rust code `layout!` emits for EXPR: a layout's types, or the function of a kernel
    /// call (`copy(SRC, DST)`, `gemm(T, A, B, C)`) as `pub fn NAME = KERNEL;` emits it.
    Expand {
        /// The expression or kernel call.
        #[arg(allow_negative_numbers = true)]
        expr: String,
        /// The name of the generated type (or function).
        #[arg(long, default_value = "L")]
        name: String,
    },
    /// The operations of the expression language.
    Functions,
}

#[derive(Args)]
struct Batch {
    /// The expression (quote it).
    #[arg(required_unless_present = "batch", conflicts_with = "batch", allow_negative_numbers = true)]
    expr: Option<String>,
    /// Read one expression per stdin line; print one result or `error: …` line each.
    #[arg(long)]
    batch: bool,
}

#[derive(Args)]
struct Draw {
    /// The layout (quote it).
    #[arg(allow_negative_numbers = true)]
    expr: String,
    /// EXPR is a thread-value layout (T,V) -> index into a tile.
    #[arg(long)]
    tv: bool,
    /// With --tv: the M×N tile the indices address, column-major (`MxN` or `(M,N)`).
    #[arg(long, value_name = "MxN", requires = "tv", value_parser = parse_tile)]
    tile: Option<(i64, i64)>,
    /// A number for a symbol (repeat for each): a layout over symbols is drawn with the
    /// numbers in, after its run-time conditions are checked.
    #[arg(long = "let", value_name = "NAME=N", value_parser = parse_let)]
    lets: Vec<(String, i64)>,
}

fn main() -> ExitCode {
    let cli = parse_args();
    match cli.command {
        Command::Eval { batch, lets } => match batch.expr {
            Some(expr) if !batch.batch => finish(eval_line_with(&expr, &lets), None),
            _ => run_batch(&|e, out| {
                let line = eval_line_with(e, &lets).map_err(TableError::Rejected)?;
                Ok(writeln!(out, "{}", line.replace('\n', " "))?)
            }),
        },
        Command::Table(b) => match b.expr {
            Some(expr) if !b.batch => run_table(&expr),
            _ => run_batch(&write_table),
        },
        Command::Show(d) => finish(show_with(&d.expr, d.tv, d.tile, &d.lets), None),
        Command::Svg { draw: d, output } => finish(svg_with(&d.expr, d.tv, d.tile, &d.lets), output),
        Command::Explain { expr, lets } => run_explain(&expr, &lets),
        Command::Expand { expr, name } => finish(expand(&expr, &name), None),
        Command::Functions => finish(Ok(functions()), None),
    }
}

/// The command line, with an expression that begins with `-` (`layout eval '-4:1'`) taken
/// as the expression it is rather than as an unknown option (`layout_cli::args`).
fn parse_args() -> Cli {
    let mut cmd = Cli::command();
    let args = layout_cli::args::hyphen_expressions_last(std::env::args_os().collect(), &cmd);
    let parsed = cmd.try_get_matches_from_mut(args).and_then(|mut m| Cli::from_arg_matches_mut(&mut m));
    parsed.unwrap_or_else(|e| e.format(&mut cmd).exit())
}

/// `explain`: the narration goes to stdout whether or not the operation is accepted; the
/// exit code says which.
fn run_explain(expr: &str, lets: &[(String, i64)]) -> ExitCode {
    match explain_with(expr, lets) {
        Ok(out) => print(&out, ExitCode::SUCCESS),
        Err(out) => print(&out, ExitCode::FAILURE),
    }
}

/// `table EXPR`: the values streamed to stdout as they are computed.
fn run_table(expr: &str) -> ExitCode {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match write_table(expr, &mut out).and_then(|()| Ok(out.flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(TableError::Io(e)) => write_failed(&e),
        Err(TableError::Rejected(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Prints (or writes to `output`) a result, or the error on stderr with exit code 1.
fn finish(result: Result<String, String>, output: Option<PathBuf>) -> ExitCode {
    match (result, output) {
        (Ok(out), Some(path)) => match std::fs::write(&path, out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                ExitCode::FAILURE
            }
        },
        (Ok(out), None) => print(&out, ExitCode::SUCCESS),
        (Err(msg), _) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` and a newline to stdout; a reader that went away (`| head`) ends the
/// program quietly with `code`, any other write error with code 1.
fn print(text: &str, code: ExitCode) -> ExitCode {
    let mut out = io::stdout().lock();
    match writeln!(out, "{}", text.trim_end()).and_then(|()| out.flush()) {
        Ok(()) => code,
        Err(e) => write_failed(&e),
    }
}

fn write_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        ExitCode::SUCCESS
    } else {
        eprintln!("error: cannot write to stdout: {e}");
        ExitCode::FAILURE
    }
}

/// One output line per input line, whatever happens; never stops early (except when the
/// reader of stdout goes away). `run` writes one line, or writes nothing and says why not.
fn run_batch(run: &dyn Fn(&str, &mut dyn Write) -> Result<(), TableError>) -> ExitCode {
    let stdin = io::stdin().lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in stdin.split(b'\n') {
        let line = match line {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(l) => run(l.strip_suffix('\r').unwrap_or(&l), &mut out),
                Err(_) => Err(TableError::Rejected("the input line is not UTF-8".into())),
            },
            Err(e) => Err(TableError::Rejected(format!("unreadable input line: {e}"))),
        };
        let written = match line {
            Ok(()) => Ok(()),
            Err(TableError::Rejected(msg)) => writeln!(out, "error: {}", msg.replace('\n', " ")),
            Err(TableError::Io(e)) => Err(e),
        };
        if let Err(e) = written {
            return write_failed(&e);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
}
