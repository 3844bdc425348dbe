//! `layout eval` over symbols: the symbolic layout and its conditions; `--let` substitutes.

use layout_cli::{eval_line, eval_line_with, parse_let};

fn lets(s: &[&str]) -> Vec<(String, i64)> {
    s.iter().map(|l| parse_let(l).unwrap()).collect()
}

#[test]
fn symbolic_result_and_conditions() {
    let out = eval_line("local_tile((M,N):(1,LD), [8:1,8:1])").unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "(8,8):(1,LD)");
    assert!(lines[1].starts_with("  if M % 8 == 0  (local_tile:"), "{out}");
    assert!(lines[2].starts_with("  if N % 8 == 0"), "{out}");
    // Facts discharge conditions (and are themselves checked at run time).
    let out = eval_line("logical_divide((M,N):(1,LD), [8:1,_]) where M % 32 == 0").unwrap();
    assert_eq!(out, "((8,M/8),N):((1,8),LD)\n  if M % 32 == 0  (stated in `where`)");
}

#[test]
fn let_substitutes() {
    let text = "logical_divide((M,N):(1,LD), [8:1,8:1])";
    assert_eq!(eval_line_with(text, &lets(&["M=16", "N=8", "LD=20"])).unwrap(), "((8,2),(8,1)):((1,8),(20,160))");
    let e = eval_line_with(text, &lets(&["M=12", "N=8", "LD=20"])).unwrap_err();
    assert!(e.contains("`M % 8 == 0`") && e.ends_with("but M = 12"), "{e}");
    assert!(eval_line_with(text, &lets(&["M=16"])).unwrap_err().contains("--let N="));
    assert!(eval_line_with(text, &lets(&["K=1", "M=16", "N=8", "LD=20"])).is_err());
    assert!(eval_line_with("(4,8):(1,4)", &lets(&["M=1"])).is_err());
    assert!(parse_let("M").is_err() && parse_let("M=x").is_err());
}

#[test]
fn integer_results_print_as_integers() {
    assert_eq!(eval_line("size((M,N))").unwrap(), "M*N");
    assert_eq!(eval_line("cosize((8,M):(M,1))").unwrap(), "8*M");
    assert_eq!(eval_line("rank(((8,M),N):((1,8),LDA))").unwrap(), "2");
    let out = eval_line("size(local_tile((M,N):(1,LD), [8:1,8:1]))").unwrap();
    assert!(out.starts_with("64\n  if M % 8 == 0"), "{out}");
    assert_eq!(eval_line_with("size((M,N))", &lets(&["M=3", "N=5"])).unwrap(), "15");
    let e = eval_line_with("size(logical_divide((M,N):(1,LD), [8:1,_]))", &lets(&["M=12", "N=1", "LD=12"]));
    assert!(e.unwrap_err().contains("M % 8 == 0"));
    // The printed integer parses back.
    assert_eq!(eval_line("size(M*N)").unwrap(), "M*N");
}

#[test]
fn edge_tiles_in_eval() {
    let out = eval_line("local_tile_edge((M,N):(1,LD), [8:1,8:1])").unwrap();
    assert_eq!(out, "local_tile_edge((M,N):(1,LD), [8:1,8:1]): tiles (8,8):(1,LD), ceil(M/8) x ceil(N/8) of them");
    let out = eval_line("local_tile_edge((M,N):(1,LD), [8:1,_]) where LD >= M").unwrap();
    assert!(out.ends_with("\n  if LD >= M  (stated in `where`)"), "{out}");
    let out = eval_line_with("local_tile_edge((M,N):(1,LD), [8:1,8:1])", &lets(&["M=20", "N=8", "LD=32"])).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3 tiles (3 x 1) over (20,8):(1,32)");
    assert_eq!(lines[1], "  tile 0 (0,0) at offset 0: (8,8):(1,32)");
    assert_eq!(lines[3], "  tile 2 (2,0) at offset 16: (4,8):(1,32)  partial");
    // The checks of A still apply; a tiler other than `t:1` per mode is refused.
    let e = eval_line_with("local_tile_edge((M,N):(1,LD), [8:1,8:1]) where LD >= M", &lets(&["M=20", "N=8", "LD=8"]));
    assert!(e.unwrap_err().contains("LD >= M"));
    assert!(eval_line("local_tile_edge((M,N):(1,LD), [4:2,_])").unwrap_err().contains("t:1"));
    assert!(eval_line("local_tile_edge((M,N):(1,LD))").is_err());
}

/// `explain` of a symbolic divide that `eval` accepts used to be "rejected: `M` is a symbol";
/// now it is the symbolic result and its conditions, and with `--let` the steps of that instance.
#[test]
fn explain_over_symbols() {
    use layout_cli::explain_with;
    let text = "logical_divide((M,N):(1,M), [4:1,2:1])";
    let symbolic = eval_line(text).unwrap();
    let out = explain_with(text, &[]).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "over the symbols M, N: the steps are narrated for numbers (--let M=… --let N=…)");
    assert_eq!(out.split_once('\n').unwrap().1, format!("result: {symbolic}"));
    let out = explain_with(text, &lets(&["M=8", "N=4"])).unwrap();
    assert!(out.starts_with("with M = 8, N = 4:\nlogical_divide: A = (8,4):(1,8), tiler = [4:1,2:1]\n"), "{out}");
    let want = eval_line_with(text, &lets(&["M=8", "N=4"])).unwrap();
    assert!(out.ends_with(&format!("\nresult: {want}")), "{out}");
    // The conditions and the facts are checked for the numbers first.
    let e = explain_with(text, &lets(&["M=6", "N=4"])).unwrap_err();
    assert!(e.starts_with("rejected: the layout") && e.ends_with("but M = 6"), "{e}");
    let e = explain_with("logical_divide((M,N):(1,LD), [4:1,_]) where LD >= M", &lets(&["M=8", "N=2", "LD=4"]));
    assert!(e.unwrap_err().contains("LD >= M"));
    let out = explain_with("logical_divide((M,N):(1,LD), [4:1,_]) where LD >= M", &lets(&["M=8", "N=2", "LD=8"]));
    assert!(out.unwrap().ends_with("result: ((4,2),2):((1,4),8)"));
    assert!(explain_with(text, &lets(&["M=8"])).unwrap_err().contains("--let N="));
    assert!(explain_with("(4,8):(1,4)", &lets(&["M=1"])).is_err());
    // An edge tiling lists its tiles, as eval does.
    let out = explain_with("local_tile_edge((M,N):(1,M), [8:1,8:1])", &lets(&["M=20", "N=8"])).unwrap();
    assert!(out.starts_with("with M = 20, N = 8:\n3 tiles (3 x 1)"), "{out}");
}

/// `show` and `svg` had no `--let`: a layout over symbols is drawn with the numbers in.
#[test]
fn show_and_svg_with_numbers_for_the_symbols() {
    use layout_cli::{show, show_with, svg, svg_with};
    let text = "logical_divide((M,N):(1,LD), [4:1,2:1]) where LD >= M";
    let numbers = lets(&["M=8", "N=4", "LD=10"]);
    assert_eq!(
        show_with(text, false, None, &numbers).unwrap(),
        show("((4,2),(2,2)):((1,4),(10,20))", false, None).unwrap()
    );
    assert_eq!(
        svg_with(text, false, None, &numbers).unwrap(),
        svg("((4,2),(2,2)):((1,4),(10,20))", false, None).unwrap()
    );
    let tv = show_with("((4,M),2):((16,1),8)", true, Some((8, 8)), &lets(&["M=8"])).unwrap();
    assert_eq!(tv, show("((4,8),2):((16,1),8)", true, Some((8, 8))).unwrap());
    // Without numbers, or with numbers that break a condition: the reason.
    let e = show(text, false, None).unwrap_err();
    assert!(e.contains("has symbols; give each a number to draw it: --let M=… --let N=… --let LD=…"), "{e}");
    let e = svg_with(text, false, None, &lets(&["M=8", "N=4", "LD=4"])).unwrap_err();
    assert!(e.contains("`LD >= M`") && e.ends_with("but LD = 4, M = 8"), "{e}");
    assert!(show_with("(4,8):(1,4)", false, None, &lets(&["M=1"])).unwrap_err().contains("no symbols"));
    assert!(show_with("size((M,N))", false, None, &lets(&["M=2", "N=2"])).unwrap_err().contains("integer 4"));
    let e = show_with("local_tile_edge((M,N):(1,M), [8:1,8:1])", false, None, &lets(&["M=20", "N=8"])).unwrap_err();
    assert!(e.contains("3 tiles"), "{e}");
    // On the command line.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(["show", "--let", "M=4", "--let", "N=2", "(M,N):(1,M)"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("(4,2):(1,4)\n"));
}

/// A smallest offset of exactly `i64::MIN`, and a stride that fits only because its mode has
/// extent 1: both are layouts, drawn and listed.
#[test]
fn numbers_near_the_limits() {
    use layout_cli::show_with;
    let min = lets(&["M=2", "N=2", "LD=9223372036854775807"]);
    assert_eq!(eval_line_with("(M,N):(-1,-LD)", &min).unwrap(), "(2,2):(-1,-9223372036854775807)");
    let grid = show_with("(M,N):(-1,-LD)", false, None, &min).unwrap();
    assert!(grid.contains("| -9223372036854775808 |"), "{grid}");
    let one = lets(&["M=9", "N=1", "LD=9223372036854775807"]);
    let out = eval_line_with("local_tile_edge((M,N):(1,LD), [8:1,8:1])", &one).unwrap();
    assert!(out.starts_with("2 tiles (2 x 1) over (9,1):(1,9223372036854775807)"), "{out}");
    assert!(out.ends_with("tile 1 (1,0) at offset 8: (1,1):(1,9223372036854775807)  partial"), "{out}");
}
