//! The error texts of every compile-fail case, as insta snapshots of the expansion function
//! (no rustc involved): each `layout!` invocation of `ui/fail/**/*.rs` is expanded by
//! `layout_codegen::expand`, and every `compile_error!` it emits is rendered with the source
//! line and carets under the tokens it points at, the way rustc shows it.
//! Update with `INSTA_UPDATE=always cargo test -p layout-ui-tests --test errors`.

use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// The bodies of the `layout!` invocations in a token stream (also inside functions).
fn invocations(tokens: TokenStream, out: &mut Vec<TokenStream>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (k, t) in tokens.iter().enumerate() {
        match (t, tokens.get(k + 1), tokens.get(k + 2)) {
            (TokenTree::Ident(i), Some(TokenTree::Punct(p)), Some(TokenTree::Group(g)))
                if i == "layout" && p.as_char() == '!' =>
            {
                out.push(g.stream());
            }
            (TokenTree::Group(g), _, _) => invocations(g.stream(), out),
            _ => {}
        }
    }
}

/// The `compile_error!` invocations of an expansion: message, first span, last span.
fn compile_errors(tokens: TokenStream, out: &mut Vec<(String, Span, Span)>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (k, t) in tokens.iter().enumerate() {
        if let TokenTree::Ident(i) = t
            && i == "compile_error"
            && let Some(TokenTree::Group(g)) = tokens.get(k + 2)
        {
            let start = tokens[k - 3].span();
            let lit = g.stream().into_iter().next().map(|l| l.to_string()).unwrap_or_default();
            let message: String = syn::parse_str::<syn::LitStr>(&lit).map(|l| l.value()).unwrap_or(lit);
            out.push((message, start, g.span()));
        } else if let TokenTree::Group(g) = t
            && g.delimiter() != Delimiter::None
        {
            compile_errors(g.stream(), out);
        }
    }
}

/// rustc's layout: `error: message`, the location, the line and carets.
fn render(source: &str, errors: &[(String, Span, Span)]) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for (message, start, end) in errors {
        let (s, e) = (start.start(), end.end());
        out.push_str(&format!("error: {message}\n --> {}:{}\n", s.line, s.column + 1));
        let line = lines.get(s.line.wrapping_sub(1)).copied().unwrap_or("");
        let width = if e.line == s.line { e.column.saturating_sub(s.column).max(1) } else { 1 };
        let n = s.line.to_string();
        let pad = " ".repeat(n.len());
        out.push_str(&format!("{pad} |\n{n} | {line}\n{pad} | {}{}\n\n", " ".repeat(s.column), "^".repeat(width)));
    }
    out
}

fn cases(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cases(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn error_texts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/fail");
    let mut files = Vec::new();
    cases(&root, &mut files);
    assert!(files.len() >= 50);
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let tokens: TokenStream = source.parse().unwrap();
        let mut bodies = Vec::new();
        invocations(tokens, &mut bodies);
        let mut errors = Vec::new();
        for body in bodies {
            compile_errors(layout_codegen::expand(body), &mut errors);
        }
        let rel = file.strip_prefix(&root).unwrap().with_extension("");
        let name = rel.to_string_lossy().replace('/', "__");
        if errors.is_empty() {
            // A case rustc rejects after the macro succeeded (a trait bound): its `.stderr` is
            // the only record, and the case says so.
            assert!(source.contains("Rejected by rustc's type check"), "{name}: no error");
            assert!(file.with_extension("stderr").exists(), "{name}: no .stderr");
            continue;
        }
        insta::with_settings!({ snapshot_path => "snapshots/errors", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name, render(&source, &errors));
        });
    }
}
