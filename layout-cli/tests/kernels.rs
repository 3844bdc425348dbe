//! Kernel calls on the command line (issue 25): `eval`, `table`, `show` and `svg` say that
//! `copy(…)` and `gemm(…)` are kernel items (after checking them as the macro does, with the
//! macro's message when they are rejected); `expand` prints the function the macro emits;
//! `functions` lists the kernels.

use std::process::{Command, Output};

use layout_cli::{eval_line, expand, functions, show, svg, table_line};

fn layout(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_layout")).args(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const TRANSPOSE: &str = "copy((4,8):(1,4), (4,8):(8,1))";
const GEMM: &str = "gemm(f32, (8,4):(1,8), (6,4):(4,1), (8,6):(1,8))";

#[test]
fn a_valid_kernel_call_is_not_a_layout_expression() {
    for text in [TRANSPOSE, GEMM] {
        let kernel = &text[..4];
        for e in [eval_line(text), table_line(text), show(text, false, None), svg(text, false, None)] {
            let e = e.unwrap_err();
            assert!(e.starts_with(&format!("`{kernel}(…)` is a kernel item, not a layout expression")), "{e}");
            assert!(e.contains(&format!("pub fn NAME = {kernel}(…);")) && e.contains("layout expand"), "{e}");
            assert!(!e.contains("unknown operation"), "{e}");
        }
    }
    let o = layout(&["show", TRANSPOSE]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error: `copy(…)` is a kernel item"), "{}", stderr(&o));
}

/// The macro's messages for the same item, from layout-codegen's expansion of
/// `pub fn k = KERNEL;`: the string of each `compile_error! { "…" }`, one after the other.
fn macro_error(kernel: &str) -> String {
    use proc_macro2::TokenTree;
    let out: Vec<TokenTree> =
        layout_codegen::expand(format!("pub fn k = {kernel};").parse().unwrap()).into_iter().collect();
    let mut messages = Vec::new();
    for w in out.windows(3) {
        if let [TokenTree::Ident(i), TokenTree::Punct(_), TokenTree::Group(g)] = w
            && i == "compile_error"
        {
            let literal = g.stream().into_iter().next().expect("the message").to_string();
            messages.push(syn::parse_str::<syn::LitStr>(&literal).expect("a string").value());
        }
    }
    messages.join("\n")
}

#[test]
fn a_rejected_kernel_call_gives_the_macros_message() {
    for text in [
        "copy((4,8):(1,4), (8,8):(8,1))",                   // sizes differ
        "copy(8:1, (4,2):(1,0))",                           // the destination writes one place twice
        "gemm(f32, (8,4):(1,8), (6,5):(5,1), (8,6):(1,8))", // K differs
        "gemm(f16, (8,4):(1,8), (6,4):(4,1), (8,6):(1,8))", // no such element type
        "copy(8:1)",
        "copy((W/2,2):(2,1), (M,N):(1,LD))", // over symbols: `W` cannot be read from a tensor
        "copy((M,N):(1,M), (M,N):(1,LD), overlap)", // a third argument that is not `overlapping`
    ] {
        let want = macro_error(text);
        assert!(!want.is_empty(), "{text}");
        for got in [eval_line(text), show(text, false, None), svg(text, false, None), expand(text, "k")] {
            assert_eq!(got.unwrap_err(), want, "{text}");
        }
    }
    let e = eval_line("copy((4,8):(1,4), (8,8):(8,1))").unwrap_err();
    assert!(e.starts_with("copy: the source `(4,8):(1,4)` has 32 elements but the destination"), "{e}");
    let o = layout(&["eval", "copy((4,8):(1,4), (8,8):(8,1))"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("a copy needs equal sizes"), "{}", stderr(&o));
}

#[test]
fn expand_prints_the_function_the_macro_emits() {
    for (text, name) in [(TRANSPOSE, "transpose"), (GEMM, "matmul")] {
        let cli = layout_codegen::expand_kernel(text, name).unwrap().to_string();
        let item = layout_codegen::expand(format!("pub fn {name} = {text};").parse().unwrap()).to_string();
        assert_eq!(cli, item, "{text}");
    }
    insta::assert_snapshot!("expand_copy_transpose", expand(TRANSPOSE, "transpose").unwrap());
    insta::assert_snapshot!("expand_gemm", expand(GEMM, "matmul").unwrap());
    let o = layout(&["expand", TRANSPOSE, "--name", "transpose"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("pub fn transpose<T, S, D>(src: S, dst: D)"), "{out}");
    assert!(expand(TRANSPOSE, "fn").unwrap_err().contains("not a valid function name"));
}

#[test]
fn functions_lists_the_kernels() {
    let f = functions();
    assert!(f.lines().any(|l| l == "composition(A, B)"), "{f}");
    assert!(f.lines().any(|l| l.starts_with("copy(SRC, DST[, overlapping])  NAME(src, dst)")), "{f}");
    assert!(f.lines().any(|l| l.starts_with("gemm(T, A, B, C)  NAME(alpha, a, b, beta, c)")), "{f}");
}
