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
//! ```

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use layout_cli::{eval_line_with, expand, explain, functions, parse_let, parse_tile, show, svg, table_line};

const USAGE: &str = "usage: layout COMMAND [OPTIONS] (EXPR | --batch)
commands:
  eval EXPR       the value of EXPR in canonical notation; with symbols (`(M,N):(1,LD)`,
                  `EXPR where M % 8 == 0`), the symbolic layout and its run-time conditions
  table EXPR      a layout's offsets at indices 0..size-1, space-separated
  show EXPR       a layout as a text grid (rows: mode 0, columns: the other modes)
  svg EXPR        the same grid as an SVG picture (-o FILE to write a file)
  explain EXPR    the steps of a composition, divide or product, or why it is rejected
  expand EXPR     the Rust code `layout!` emits for EXPR (--name NAME, default L)
  functions       the operations of the expression language
options:
  --batch         (eval, table) one expression per stdin line -> one output line each
  --tv            (show, svg) EXPR is a thread-value layout (T,V) -> index into a tile
  --tile MxN      (show, svg with --tv) the tile the indices address, column-major
  -o FILE         (svg) write the picture to FILE
  --name NAME     (expand) the name of the generated type
  --let NAME=N    (eval) a number for a symbol (repeat for each)";

/// A subcommand: one expression in, the text to print (or the error) out.
type Command = dyn Fn(&str) -> Result<String, String>;

struct Opts {
    batch: bool,
    tv: bool,
    tile: Option<(i64, i64)>,
    out: Option<String>,
    name: String,
    expr: Option<String>,
    /// `--let NAME=VALUE` (eval): numbers for the symbols.
    lets: Vec<(String, i64)>,
}

fn parse_opts(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts { batch: false, tv: false, tile: None, out: None, name: "L".into(), expr: None, lets: Vec::new() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--batch" => o.batch = true,
            "--tv" => o.tv = true,
            "--tile" => o.tile = Some(parse_tile(it.next().ok_or("--tile needs a value")?)?),
            "-o" | "--output" => o.out = Some(it.next().ok_or("-o needs a file name")?.clone()),
            "--name" => o.name = it.next().ok_or("--name needs a type name")?.clone(),
            "--let" => o.lets.push(parse_let(it.next().ok_or("--let needs NAME=VALUE")?)?),
            _ if o.expr.is_none() => o.expr = Some(a.clone()),
            _ => return Err(format!("unexpected argument `{a}` (quote the expression)")),
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let opts = match parse_opts(&args[1..]) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let run: Box<Command> = match cmd.as_str() {
        "eval" => {
            let lets = opts.lets.clone();
            Box::new(move |e| eval_line_with(e, &lets))
        }
        "table" => Box::new(table_line),
        "show" => Box::new(move |e| show(e, opts.tv, opts.tile)),
        "svg" => Box::new(move |e| svg(e, opts.tv, opts.tile)),
        "explain" => Box::new(explain),
        "expand" => {
            let name = opts.name.clone();
            Box::new(move |e| expand(e, &name))
        }
        "functions" => {
            println!("{}", functions());
            return ExitCode::SUCCESS;
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("error: unknown command `{cmd}`\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if opts.batch {
        return batch(&*run);
    }
    let Some(expr) = opts.expr else {
        eprintln!("error: `{cmd}` needs an expression\n{USAGE}");
        return ExitCode::from(2);
    };
    match run(&expr) {
        Ok(out) => match opts.out {
            Some(path) => match std::fs::write(&path, out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: cannot write {path}: {e}");
                    ExitCode::FAILURE
                }
            },
            None => {
                println!("{}", out.trim_end());
                ExitCode::SUCCESS
            }
        },
        Err(msg) => {
            if cmd == "explain" {
                println!("{msg}");
            } else {
                eprintln!("error: {msg}");
            }
            ExitCode::FAILURE
        }
    }
}

/// One output line per input line, whatever happens; never stops early.
fn batch(run: &Command) -> ExitCode {
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = match line {
            Ok(l) => run(&l),
            Err(e) => Err(format!("unreadable input line: {e}")),
        };
        let written = match line {
            Ok(v) => writeln!(out, "{}", v.replace('\n', " ")),
            Err(msg) => writeln!(out, "error: {}", msg.replace('\n', " ")),
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
