//! `+` and `-` on the command line: the im2col view of a convolution, `--let`, facts with
//! sums, and the errors.

use std::process::Command;

use layout_cli::{eval_line, eval_line_with, parse_let};

const IM2COL: &str = "((W-2,H-2),(3,3)):((1,W),(1,W))";

fn lets(s: &[&str]) -> Vec<(String, i64)> {
    s.iter().map(|l| parse_let(l).unwrap()).collect()
}

#[test]
fn im2col_symbolic_and_with_numbers() {
    let out = eval_line(IM2COL).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], IM2COL);
    assert_eq!(lines[1], "  if W-2 > 0  (the extent W-2 must be positive)");
    assert_eq!(lines[2], "  if H-2 > 0  (the extent H-2 must be positive)");
    assert_eq!(eval_line_with(IM2COL, &lets(&["W=6", "H=5"])).unwrap(), "((4,3),(3,3)):((1,6),(1,6))");
    let e = eval_line_with(IM2COL, &lets(&["W=2", "H=5"])).unwrap_err();
    assert!(e.contains("`W-2 > 0`") && e.ends_with("but W = 2"), "{e}");
    let e = eval_line_with(IM2COL, &lets(&["W=6", "H=1"])).unwrap_err();
    assert!(e.contains("`H-2 > 0`") && e.ends_with("but H = 1"), "{e}");
    // Facts that make the extents positive replace the checks.
    let out = eval_line(&format!("{IM2COL} where W >= 3, H >= 3")).unwrap();
    assert_eq!(out, format!("{IM2COL}\n  if W >= 3  (stated in `where`)\n  if H >= 3  (stated in `where`)"));
    assert_eq!(eval_line(&format!("size({IM2COL})")).unwrap().lines().next(), Some("9*(H-2)*(W-2)"));
    assert_eq!(eval_line_with(&format!("size({IM2COL})"), &lets(&["W=6", "H=5"])).unwrap(), "108");
    assert_eq!(eval_line(&format!("cosize({IM2COL})")).unwrap().lines().next(), Some("H*W"));
}

#[test]
fn facts_with_sums() {
    let out = eval_line("left_inverse((Q+2,P):(1,W)) where Q+2 <= W, P > 1").unwrap();
    assert_eq!(out, "(W,P):(1,Q+2)\n  if W >= Q+2  (stated in `where`)\n  if P > 1  (stated in `where`)");
    // The weaker workaround leaves the check to run time.
    let out = eval_line("left_inverse((Q+2,P):(1,W)) where W > Q, P > 1").unwrap();
    assert!(
        out.ends_with("if W >= Q+2  (left_inverse: the mode reaching Q+2 must not overlap the mode of stride W)"),
        "{out}"
    );
    let text = "((Q,P),(3,3)):((1,W),(1,W)) where Q+2 <= W";
    assert_eq!(eval_line_with(text, &lets(&["Q=4", "P=3", "W=6"])).unwrap(), "((4,3),(3,3)):((1,6),(1,6))");
    let e = eval_line_with(text, &lets(&["Q=5", "P=3", "W=6"])).unwrap_err();
    assert!(e.contains("`W >= Q+2`") && e.contains("Q = 5") && e.contains("W = 6"), "{e}");
}

#[test]
fn errors_and_negative_literals() {
    // A negative literal stride still reads as one.
    assert_eq!(eval_line("4:-1").unwrap(), "4:-1");
    assert_eq!(eval_line("(M,4):(-1,M)").unwrap(), "(M,4):(-1,M)");
    assert_eq!(eval_line("(8,4):(1,10-2)").unwrap(), "(8,4):(1,8)");
    assert!(eval_line("(W-5,3):(1,W) where W <= 4").unwrap_err().contains("`W-5 > 0` is false for every value"));
    assert!(eval_line("(M,N):(1,LD) where Q+ <= W").unwrap_err().contains("is not a fact"));
    assert!(eval_line("9223372036854775807+1:1").unwrap_err().contains("integer overflow"));
    let e = eval_line_with("(W-2,3):(1,W)", &lets(&["W=4611686018427387904"])).unwrap_err();
    assert!(e.contains("does not fit"), "{e}");
}

#[test]
fn the_binary() {
    let out = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(["eval", "--let", "W=6", "--let", "H=5", IM2COL])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "((4,3),(3,3)):((1,6),(1,6))\n");
    let out = Command::new(env!("CARGO_BIN_EXE_layout")).args(["table", "((2-1+1,3-1),2):((1,4),2)"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0 1 4 5 2 3 6 7\n");
    let out = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(["eval", "--let", "W=2", "--let", "H=5", IM2COL])
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`W-2 > 0`"));
}
