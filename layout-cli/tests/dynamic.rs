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
