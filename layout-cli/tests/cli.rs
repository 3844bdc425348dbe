//! The `layout` binary as a process: exit codes (0 ok, 1 rejected, 2 usage), help for every
//! command, unknown and misplaced options, `--batch` over stdin with good and bad lines,
//! files written by `svg -o`, and the inputs that used to hang or panic (issue 12).

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn layout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout")).args(args).output().expect("the binary runs")
}

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(input).expect("write stdin");
    child.wait_with_output().expect("the binary ends")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_no_panic(o: &Output) {
    assert!(!stderr(o).contains("panicked"), "the binary panicked:\n{}", stderr(o));
}

#[test]
fn eval_prints_the_value_and_exits_0() {
    let o = layout(&["eval", "composition((6,2):(8,2), (4,3):(3,1))"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "((2,2),3):((24,2),8)\n");
    assert!(o.stderr.is_empty());
}

#[test]
fn eval_prints_a_composed_layout_and_table_its_offsets() {
    let chain = "(8,8):(1,9) o Sw<3,0,3> o (8,8):(8,1)";
    let o = layout(&["eval", "composition((8,8):(1,9), Sw<3,0,3> o (8,8):(8,1))"]);
    assert_eq!((o.status.code(), stdout(&o).trim()), (Some(0), chain));
    let o = layout(&["eval", "composition((8,8):(8,1), Sw<2,0,3> o (8,8):(8,1))"]);
    assert_eq!(stdout(&o).trim(), "Sw<2,0,-3> o (8,8):(1,8)");
    // `table`: A(Sw(B(i))) at every index.
    let o = layout(&["table", chain]);
    let (a, b) = (layout_core::parse_layout("(8,8):(1,9)").unwrap(), layout_core::parse_layout("(8,8):(8,1)").unwrap());
    let sw = layout_core::Swizzle::new(3, 0, 3).unwrap();
    let want: Vec<String> = (0..64).map(|i| a.eval(sw.apply(b.eval(i).unwrap())).unwrap().to_string()).collect();
    assert_eq!(stdout(&o).trim(), want.join(" "));
    let o = layout(&["show", chain]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_rejected_expression_exits_1_with_the_error_on_stderr() {
    let o = layout(&["eval", "composition((4,6):(2,3), 6:3)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).starts_with("error: composition is not admissible: stride divisibility"), "{}", stderr(&o));
}

#[test]
fn a_misspelled_operation_suggests_the_right_one() {
    let o = layout(&["eval", "compositon(4:1,2:1)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown operation `compositon`; did you mean `composition`?"), "{}", stderr(&o));
}

#[test]
fn every_command_has_help() {
    for cmd in ["eval", "table", "show", "svg", "explain", "expand", "functions"] {
        let o = layout(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help: {}", stderr(&o));
        assert!(stdout(&o).contains(&format!("Usage: layout {cmd}")), "{cmd} --help:\n{}", stdout(&o));
    }
    let o = layout(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    for cmd in ["eval", "table", "show", "svg", "explain", "expand", "functions"] {
        assert!(stdout(&o).contains(cmd), "{}", stdout(&o));
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["eval"],                // no expression
        &["frobnicate", "4:1"],   // unknown command
        &["eval", "--tv", "4:1"], // an option of another command
        &["eval", "--tile", "2x2", "4:1"],
        &["table", "--frob", "4:1"],         // unknown option
        &["eval", "4:1", "8:1"],             // two expressions (unquoted spaces)
        &["eval", "--batch", "4:1"],         // both
        &["show", "--tile", "4x4", "(4,4)"], // --tile needs --tv
        &["show", "--tv", "--tile", "0x4", "(4,4)"],
        &["expand", "--name"],
    ] {
        let o = layout(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error") || stderr(&o).contains("Usage: layout"), "{args:?}: {}", stderr(&o));
        assert_no_panic(&o);
    }
    let o = layout(&["eval", "--tv", "4:1"]);
    assert!(stderr(&o).contains("'--tv'"), "{}", stderr(&o));
}

#[test]
fn negative_numbers_are_expressions() {
    let o = layout(&["eval", "-3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "-3\n");
    let o = layout(&["eval", "--", "-3:1"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("extent -3"));
}

/// `layout eval '-4:1'` was a usage error ("unexpected argument '-4'"): an expression may
/// begin with `-`, before or after the options, and the options still work.
#[test]
fn an_expression_may_begin_with_a_minus() {
    for args in [&["eval", "-4:1"][..], &["show", "-4:1"], &["table", "-4:1"], &["explain", "-4:1"]] {
        let o = layout(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let text = stderr(&o) + &stdout(&o);
        assert!(text.contains("shape `-4` has the extent -4"), "{args:?}: {text}");
    }
    let o = layout(&["eval", "-1@0+2@1"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "-1@0+2@1\n"), "{}", stderr(&o));
    let o = layout(&["eval", "-2", "--let", "M=1"]); // the option after the expression still counts
    assert!(stderr(&o).contains("`--let M=…`: the expression has no symbols"), "{}", stderr(&o));
    let o = layout(&["table", "--batch"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = layout(&["expand", "-4:1", "--frob"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("'--frob'"), "{}", stderr(&o));
    // The value of `-o` is a file name, whatever it begins with.
    let dir = std::env::temp_dir().join(format!("layout-cli-minus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_layout"))
        .current_dir(&dir)
        .args(["svg", "-o", "-1.svg", "(2,2):(1,2)"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(dir.join("-1.svg")).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `table` of 2^22 elements used to hold every value and its text (about 87 bytes an element,
/// 366 MB here) and abort under a memory limit; it streams them now.
#[cfg(unix)]
#[test]
fn table_streams_its_values() {
    let script = format!("ulimit -v 65536 && exec '{}' table '(2048,2048):(2048,1)'", env!("CARGO_BIN_EXE_layout"));
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("0 2048 4096 ") && out.ends_with(" 4192255 4194303\n"), "{}", &out[out.len() - 40..]);
    assert_eq!(out.split(' ').count(), 1 << 22);
    // Offsets that do not fit are an error before anything is written.
    let o = layout(&["table", "3:4611686018427387904"]);
    assert_eq!((o.status.code(), o.stdout.len()), (Some(1), 0));
    assert!(stderr(&o).contains("integer overflow: 2 * 4611686018427387904"), "{}", stderr(&o));
    let o = with_stdin(&["table", "--batch"], b"3:4611686018427387904\n(2,2):(-1,-2)\nSw<1,0,1> o 4:1\n");
    assert_eq!(
        stdout(&o),
        "error: integer overflow: 2 * 4611686018427387904 does not fit in 64 bits\n0 -1 -2 -3\n0 1 3 2\n"
    );
    let o = layout(&["table", "(2,3):(-4611686018427387904,4611686018427387903)"]);
    assert_eq!(stdout(&o), "0 -4611686018427387904 4611686018427387903 -1 9223372036854775806 4611686018427387902\n");
}

/// The largest offset `i64::MAX` used to overflow `max + 1` for the colour scale.
#[test]
fn show_and_svg_draw_offsets_up_to_i64_max() {
    for cmd in ["show", "svg"] {
        for expr in
            ["2:9223372036854775807", "(2,2):(4611686018427387904,4611686018427387903)", "2:-9223372036854775807"]
        {
            let o = layout(&[cmd, expr]);
            assert_no_panic(&o);
            assert_eq!(o.status.code(), Some(0), "{cmd} {expr}: {}", stderr(&o));
        }
    }
    let o = layout(&["show", "2:9223372036854775807"]);
    assert!(stdout(&o).contains("| 9223372036854775807 |"), "{}", stdout(&o));
    let o = layout(&["show", "3:4611686018427387904"]);
    assert_eq!(o.status.code(), Some(1));
    assert_no_panic(&o);
    // A thread-value layout over a given tile: the index outside it, not the cosize's overflow.
    let o = layout(&["show", "--tv", "--tile", "2x2", "(2,2):(1,9223372036854775806)"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("T0V1 maps to 9223372036854775806, outside the 2x2 tile"), "{}", stderr(&o));
    let o = layout(&["show", "--tv", "(2,2):(1,9223372036854775806)"]);
    assert!(stderr(&o).contains("integer overflow"), "{}", stderr(&o));
}

#[test]
fn batch_answers_every_line_in_order() {
    let o = with_stdin(&["eval", "--batch"], b"4:1\ncomposition((4,6):(2,3), 6:3)\n\nsize((4,8))\nfoo(\r\n");
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "4:1");
    assert!(lines[1].starts_with("error: composition is not admissible"));
    assert!(lines[2].starts_with("error: "));
    assert_eq!(lines[3], "32");
    assert!(lines[4].starts_with("error: "));
    let o = with_stdin(&["table", "--batch"], b"(4,2):(2,1)\n\xff\n4:1");
    assert_eq!(stdout(&o), "0 2 4 6 1 3 5 7\nerror: the input line is not UTF-8\n0 1 2 3\n");
}

#[test]
fn batch_survives_long_chains_and_bad_facts() {
    let mut input = String::new();
    for chain in [vec!["1"; 20_000].join("*"), vec!["M"; 20_000].join("*"), vec!["8"; 20_000].join("/")] {
        input.push_str(&chain);
        input.push('\n');
    }
    input.push_str("logical_divide((M,N):(1,M), [8:1,8:1]) where M % 0 == 0\n");
    input.push_str("logical_divide((M,N):(1,M), [8:1,8:1]) where M % -1 == 0\n");
    input.push_str("4:1\n");
    let o = with_stdin(&["eval", "--batch"], input.as_bytes());
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert!(lines[..3].iter().all(|l| l.starts_with("error: expression nested deeper than 128 levels")), "{lines:?}");
    assert!(lines[3..5].iter().all(|l| l.contains("the modulus must be positive")), "{lines:?}");
    assert_eq!(lines[5], "4:1");
}

#[test]
fn edge_tiles_with_a_huge_tile_are_one_tile() {
    let o = layout(&[
        "eval",
        "--let",
        "M=16",
        "--let",
        "N=8",
        "local_tile_edge((M,N):(1,M), [9223372036854775807:1, 8:1])",
    ]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("1 tiles (1 x 1) over (16,8):(1,16)"), "{}", stdout(&o));
    // A tile just below the extent, both near 2^63: two tiles, the second of one element.
    let o = layout(&[
        "eval",
        "--let",
        "M=9223372036854775807",
        "--let",
        "N=1",
        "local_tile_edge((M,N):(1,M), [9223372036854775806:1, 8:1])",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines[0], "2 tiles (2 x 1) over (9223372036854775807,1):(1,9223372036854775807)");
    assert_eq!(lines[2], "  tile 1 (1,0) at offset 9223372036854775806: (1,1):(1,9223372036854775807)  partial");
}

#[test]
fn svg_writes_the_file() {
    let dir = std::env::temp_dir().join(format!("layout-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tv.svg");
    let o = layout(&["svg", "--tv", "((4,8),2):((16,1),8)", "--tile", "8x8", "-o", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("T0V0") && svg.trim_end().ends_with("</svg>"));
    // An unwritable path is exit 1.
    let o = layout(&["svg", "(4,4)", "-o", dir.join("missing/x.svg").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error: cannot write"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn explain_prints_the_steps_and_the_verdict_is_the_exit_code() {
    let ok = layout(&["explain", "composition((4,2,8):(3,12,97), 3:3)"]);
    assert_eq!(ok.status.code(), Some(0));
    assert!(stdout(&ok).ends_with("result: 3:9\n"), "{}", stdout(&ok));
    let no = layout(&["explain", "composition((4,6):(2,3), 6:3)"]);
    assert_eq!(no.status.code(), Some(1));
    assert!(stdout(&no).contains("stride divisibility"), "{}", stdout(&no));
}

/// Used to scan every number up to the cosize (3·10¹²) for a tile, and overflow `m·m`.
#[test]
fn show_tv_of_a_huge_cosize_returns_at_once() {
    let start = Instant::now();
    let o = layout(&["show", "--tv", "(32,4):(1,1000000000000)"]);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--tile"), "{}", stderr(&o));
    let o = layout(&["show", "--tv", "(1048576,1048576):(0,0)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_no_panic(&o);
}

/// `layout table … | head -c 10` used to panic on the closed pipe.
#[test]
fn a_closed_pipe_ends_quietly() {
    for args in [&["table", "(1024,1024):(1,1024)"][..], &["show", "(64,64)"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_layout"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // dropped: the pipe closes
        let o = child.wait_with_output().unwrap();
        assert_no_panic(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(["eval", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let _ = child.stdin.take().unwrap().write_all("4:1\n".repeat(100_000).as_bytes());
    let o = child.wait_with_output().unwrap();
    assert_no_panic(&o);
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_usage_error() {
    use std::os::unix::ffi::OsStrExt;
    let o = Command::new(env!("CARGO_BIN_EXE_layout"))
        .arg("eval")
        .arg(std::ffi::OsStr::from_bytes(b"4:\xff"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("UTF-8"), "{}", stderr(&o));
    assert_no_panic(&o);
}

#[test]
fn functions_lists_the_operations() {
    let o = layout(&["functions"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).lines().any(|l| l == "composition(A, B)"), "{}", stdout(&o));
}
