//! `layout`: evaluate CuTe layout expressions.
//!
//! ```text
//! layout eval 'composition((6,2):(8,2), (4,3):(3,1))'    # ((2,2),3):((24,2),8)
//! layout table '(4,2):(2,1)'                             # 0 2 4 6 1 3 5 7
//! layout eval --batch < exprs.txt                        # one result or `error: …` per line
//! ```

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use layout_core::notation::{ExprError, FUNCTIONS, Value, evaluate};

const USAGE: &str = "usage: layout <eval|table> (EXPR | --batch)
  eval EXPR     print the value of EXPR in canonical notation
  table EXPR    print a layout's offsets at indices 0..size-1, space-separated
  --batch       read one expression per line from stdin, print one line per input line
  functions     list the operations of the expression language";

/// The largest layout `table` prints.
const TABLE_LIMIT: i64 = layout_core::Layout::TABLE_LIMIT;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run: fn(&str) -> Result<String, String> = match args.first().map(String::as_str) {
        Some("eval") => eval_line,
        Some("table") => table_line,
        Some("functions") => {
            FUNCTIONS.iter().for_each(|f| println!("{}", f.signature));
            return ExitCode::SUCCESS;
        }
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match args.get(1).map(String::as_str) {
        Some("--batch") if args.len() == 2 => batch(run),
        Some(expr) if args.len() == 2 => match run(expr) {
            Ok(out) => {
                println!("{out}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("error: {msg}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// One output line per input line, whatever happens; never stops early.
fn batch(run: fn(&str) -> Result<String, String>) -> ExitCode {
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = match line {
            Ok(l) => run(&l),
            Err(e) => Err(format!("unreadable input line: {e}")),
        };
        let written = match line {
            Ok(v) => writeln!(out, "{v}"),
            Err(msg) => writeln!(out, "error: {}", msg.replace('\n', " ")),
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    if out.flush().is_err() { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn describe(text: &str, e: &ExprError) -> String {
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

fn eval_line(text: &str) -> Result<String, String> {
    evaluate(text).map(|v| v.to_string()).map_err(|e| describe(text, &e))
}

fn table_line(text: &str) -> Result<String, String> {
    let value = evaluate(text).map_err(|e| describe(text, &e))?;
    let layout = match value {
        Value::Layout(l) => l,
        Value::Tuple(t) if !t.is_int() => layout_core::Layout::column_major(t).map_err(|e| e.to_string())?,
        v => return Err(format!("`table` needs a layout, found {}", v.kind())),
    };
    if layout.size() > TABLE_LIMIT {
        return Err(format!("the layout has {} elements; `table` prints at most {TABLE_LIMIT}", layout.size()));
    }
    let values = layout.table().map_err(|e| e.to_string())?;
    Ok(values.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
}
