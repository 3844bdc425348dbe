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
