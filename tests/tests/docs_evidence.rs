//! The documents in `docs/` stay true.
//!
//! - [`citations_resolve`]: every citation `docs/<name>.md` or `docs/<name>.md §N[.M…]` in the
//!   repository's `.rs` and `.md` files (outside `target*/` and dot-directories) names a file
//!   that exists and, with `§N`, a heading of that file that carries `§N`. A citation
//!   `… §N table X` must also find a heading `Table X` (docs/algebra.md §4).
//! - [`divide_existence`], [`complement_of_8_3`], [`composition_closure`],
//!   [`completeness_construction`]: the evidence of `docs/open-questions.md`, recomputed; each
//!   test renders its numbers as the table the document prints and asserts the document
//!   contains it verbatim, so a change in the code or the enumeration that moves a number fails
//!   here (the failure prints the table to paste).
//!
//! The pycute model below restates pycute 4.2's `complement` and `composition` (the
//! `nvidia-cutlass==4.2.0.0` wheel) and is checked against every `complement` and
//! `composition` record of `tests/data/pycute-vectors.jsonl` before its answers are counted.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use layout_core::{IntTuple, Layout, complement, complement_modes, composition, logical_divide, parse_layout};
use layout_tests::brute;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

fn read_doc(name: &str) -> String {
    let path = root().join("docs").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Asserts that `doc` contains `table` verbatim, printing the table to paste otherwise.
fn assert_doc_has(doc_name: &str, table: &str) {
    let doc = read_doc(doc_name);
    assert!(
        doc.contains(table),
        "docs/{doc_name} does not contain the recomputed evidence; replace its table with:\n\n{table}"
    );
}

// ----------------------------------------------------------------------------- citations

/// `.rs` and `.md` files under `dir`, skipping `target*` and dot-directories.
fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !name.starts_with("target") {
                source_files(&path, out);
            }
        } else if name.ends_with(".rs") || name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// A citation of a document in `docs/`: the file name, the section (`"4"`, `"2.3"`) and a
/// table letter, if given.
#[derive(Debug, PartialEq)]
struct Citation {
    file: String,
    section: Option<String>,
    table: Option<String>,
}

/// Every `docs/` + `NAME.md[ §N[.M…][ table X]]` in `text` (the name: letters, digits, `_`, `-`).
fn citations(text: &str) -> Vec<Citation> {
    let mut out = Vec::new();
    let marker = "docs/";
    let mut from = 0;
    while let Some(k) = text[from..].find(marker) {
        let start = from + k + marker.len();
        from = start;
        let name_len = text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(0);
        let after_name = &text[start + name_len..];
        if name_len == 0 || !after_name.starts_with(".md") {
            continue;
        }
        let file = format!("{}.md", &text[start..start + name_len]);
        let rest = after_name[3..].trim_start_matches([' ', '\u{a0}']);
        let (section, table) = match rest.strip_prefix('§') {
            Some(s) => {
                let len = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
                let sec = s[..len].trim_end_matches('.').to_string();
                let table = s[len..]
                    .strip_prefix(" table ")
                    .and_then(|t| t.chars().next())
                    .filter(|c| c.is_ascii_uppercase())
                    .map(String::from);
                (Some(sec).filter(|s| !s.is_empty()), table)
            }
            None => (None, None),
        };
        out.push(Citation { file, section, table });
    }
    out
}

/// The headings (`#` lines) of a Markdown text.
fn headings(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('#')).collect()
}

/// A heading carries `§sec` when `§sec` is followed by neither a digit nor `.digit`.
fn heading_has_section(heading: &str, sec: &str) -> bool {
    let needle = format!("§{sec}");
    heading.match_indices(&needle).any(|(k, _)| {
        let rest = &heading[k + needle.len()..];
        let mut chars = rest.chars();
        match chars.next() {
            Some(c) if c.is_ascii_digit() => false,
            Some('.') => !chars.next().is_some_and(|c| c.is_ascii_digit()),
            _ => true,
        }
    })
}

#[test]
fn citation_parser() {
    // Built at run time so that the scan of this file does not see them as citations.
    let d = "docs/";
    let cites = citations(&format!("see {d}algebra.md §4 table C, {d}design.md and {d}x-y.md §2.3."));
    assert_eq!(
        cites,
        vec![
            Citation { file: "algebra.md".into(), section: Some("4".into()), table: Some("C".into()) },
            Citation { file: "design.md".into(), section: None, table: None },
            Citation { file: "x-y.md".into(), section: Some("2.3".into()), table: None },
        ]
    );
    assert!(citations(&format!("{d}tv-ampere.svg {d}<file>.md")).is_empty());
    assert!(heading_has_section("## §2 Operations", "2"));
    assert!(heading_has_section("### §2.3 Composition", "2.3"));
    assert!(heading_has_section("### §4.C Table C", "4"));
    assert!(!heading_has_section("### §2.3 Composition", "2"));
    assert!(!heading_has_section("## §21 Other", "2"));
}

#[test]
fn citations_resolve() {
    let root = root();
    let mut files = Vec::new();
    source_files(&root, &mut files);
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for c in citations(&text) {
            count += 1;
            let at = path.strip_prefix(&root).unwrap_or(path).display();
            let Ok(doc) = std::fs::read_to_string(root.join("docs").join(&c.file)) else {
                failures.push(format!("{at}: docs/{} does not exist", c.file));
                continue;
            };
            let hs = headings(&doc);
            if let Some(sec) = &c.section
                && !hs.iter().any(|h| heading_has_section(h, sec))
            {
                failures.push(format!("{at}: docs/{} has no heading §{sec}", c.file));
            }
            if let Some(t) = &c.table
                && !hs.iter().any(|h| h.contains(&format!("Table {t}")))
            {
                failures.push(format!("{at}: docs/{} has no heading `Table {t}`", c.file));
            }
        }
    }
    println!("{count} citations of docs/ in {} files", files.len());
    assert!(failures.is_empty(), "citations that do not resolve:\n{}", failures.join("\n"));
}

/// The older forms of citation that docs/algebra.md no longer translates, found in `text`:
/// `policy N` / `policies N` (now `§3.N`), `weak point N` (now §5), and the specification
/// files outside the repository (the upper-case `ALGEBRA`, `DESIGN` and `KERNELS` `.md` names, not
/// under `docs/`).
fn older_citations(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = text.to_ascii_lowercase();
    for word in ["policy ", "policies ", "weak point "] {
        for (k, _) in lower.match_indices(word) {
            let after = &text[k + word.len()..];
            let before_ok = k == 0 || !text[..k].ends_with(|c: char| c.is_alphanumeric());
            if before_ok && after.starts_with(|c: char| c.is_ascii_digit()) {
                let end = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
                out.push(format!("{}{}", &text[k..k + word.len()], &after[..end]));
            }
        }
    }
    for file in ["ALGEBRA", "DESIGN", "KERNELS"] {
        let name = format!("{file}.md");
        for (k, _) in text.match_indices(&name) {
            if !text[..k].ends_with('/') {
                out.push(name.clone());
            }
        }
    }
    out
}

#[test]
fn older_citation_forms_are_recognized() {
    // Built at run time so that the scan of this file does not see them.
    let (p, a) = ("pol", "ALGE");
    assert_eq!(
        older_citations(&format!("({p}icy 3) and {p}icies 2 and 9")),
        [format!("{p}icy 3"), format!("{p}icies 2")]
    );
    assert_eq!(older_citations(&format!("see {a}BRA.md §2")), [format!("{a}BRA.md")]);
    let w = format!("Weak {}oint 4", "p");
    assert_eq!(older_citations(&w), std::slice::from_ref(&w));
    assert!(older_citations(&format!("the {p}icy of §3.2, docs/algebra.md, shared/{a}BRA.md")).is_empty());
}

/// Code and docs cite the policies as `§3.N` of docs/algebra.md: the table that translated
/// older citations is gone, so an older form would point nowhere.
#[test]
fn no_older_citations() {
    let root = root();
    let mut files = Vec::new();
    source_files(&root, &mut files);
    let mut found = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for c in older_citations(&text) {
            found.push(format!("{}: `{c}`", path.strip_prefix(&root).unwrap_or(path).display()));
        }
    }
    assert!(
        found.is_empty(),
        "citations in an older form (write `§3.N` for a policy of docs/algebra.md):\n{}",
        found.join("\n")
    );
}

// ----------------------------------------------------------------------------- pycute model

/// pycute 4.2's `coalesce` of flat modes: size-1 modes dropped, `s0·d0 = d1` merged, `1:0`
/// for nothing (zero extents are kept as they are).
fn pycute_coalesce(modes: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut out = vec![(1i64, 0i64)];
    for &(s, d) in modes {
        let last = out.len() - 1;
        if s == 1 {
            continue;
        } else if out[last].0 == 1 {
            out[last] = (s, d);
        } else if out[last].0 * out[last].1 == d {
            out[last].0 *= s;
        } else {
            out.push((s, d));
        }
    }
    out
}

/// pycute 4.2's `complement(L, max_idx)`: modes sorted by (stride, shape), stride-0 and
/// size-1 modes skipped, `assert current_idx <= shape*stride`, holes `stride // current_idx`
/// (which may be 0), rest `ceil(max_idx / current_idx)`; then coalesced.
fn pycute_complement(modes: &[(i64, i64)], max_idx: i64) -> Result<Vec<(i64, i64)>, &'static str> {
    let mut sorted: Vec<(i64, i64)> = modes.iter().map(|&(s, d)| (d, s)).collect();
    sorted.sort_unstable();
    let mut cur = 1i64;
    let mut out = Vec::new();
    for (d, s) in sorted {
        if d == 0 || s == 1 {
            continue;
        }
        if cur > s * d {
            return Err("AssertionError");
        }
        out.push((d / cur, cur));
        cur = s * d;
    }
    out.push((brute::ceil_div(max_idx, cur), cur));
    Ok(pycute_coalesce(&out))
}

/// pycute 4.2's `composition(A, s:d)`: no shape-divisibility check, the stride condition
/// asserted on the modes of `coalesce(A)` but the last; returns flat modes.
fn pycute_compose_leaf(a: &[(i64, i64)], s: i64, d: i64) -> Result<Vec<(i64, i64)>, &'static str> {
    if d == 0 {
        return Ok(vec![(s, 0)]);
    }
    let flat = pycute_coalesce(a);
    let (mut rest_shape, mut rest_stride) = (s, d);
    let mut out = Vec::new();
    for &(cs, cd) in &flat[..flat.len() - 1] {
        if cs % rest_stride != 0 && rest_stride % cs != 0 {
            return Err("AssertionError");
        }
        let new_shape = (cs / rest_stride).max(1).min(rest_shape);
        if new_shape != 1 {
            out.push((new_shape, rest_stride * cd));
        }
        rest_shape /= new_shape;
        rest_stride = brute::ceil_div(rest_stride, cs);
    }
    if rest_shape != 1 || out.is_empty() {
        out.push((rest_shape, rest_stride * flat[flat.len() - 1].1));
    }
    Ok(out)
}

/// pycute's composition with a layout B: distributed over B's leaves unconditionally.
fn pycute_compose(a: &[(i64, i64)], b: &[(i64, i64)]) -> Result<Vec<(i64, i64)>, &'static str> {
    let mut out = Vec::new();
    for &(s, d) in b {
        out.extend(pycute_compose_leaf(a, s, d)?);
    }
    Ok(out)
}

/// Values of flat modes on `[0, size)` (empty for a zero extent).
fn values(modes: &[(i64, i64)]) -> Vec<i64> {
    let n: i64 = modes.iter().map(|m| m.0).product();
    (0..n).map(|i| brute::eval_modes(modes, i)).collect()
}

fn print_flat(modes: &[(i64, i64)]) -> String {
    match modes {
        [(s, d)] => format!("{s}:{d}"),
        _ => {
            let s: Vec<String> = modes.iter().map(|m| m.0.to_string()).collect();
            let d: Vec<String> = modes.iter().map(|m| m.1.to_string()).collect();
            format!("({}):({})", s.join(","), d.join(","))
        }
    }
}

/// The records of `op` in the pycute vectors: (args, expect, expect_table).
fn pycute_records(op: &str) -> Vec<(Vec<serde_json::Value>, serde_json::Value, Option<Vec<i64>>)> {
    let text = std::fs::read_to_string(root().join("tests/data/pycute-vectors.jsonl")).expect("pycute vectors");
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r["op"] == op)
        .map(|r| {
            let table = r["expect_table"].as_array().map(|t| t.iter().filter_map(|v| v.as_i64()).collect());
            (r["args"].as_array().cloned().unwrap_or_default(), r["expect"].clone(), table)
        })
        .collect()
}

#[test]
fn pycute_model_reproduces_the_vectors() {
    let mut n = 0;
    for (args, expect, _) in pycute_records("complement") {
        let l = parse_layout(args[0].as_str().expect("a layout")).expect("parses");
        let cotarget = args.get(1).and_then(|v| v.as_i64()).unwrap_or(1);
        let got = match pycute_complement(&brute::leaves(&l), cotarget) {
            Ok(m) => print_flat(&m),
            Err(_) => "error".into(),
        };
        assert_eq!(got, expect.as_str().unwrap_or_default(), "complement({l}, {cotarget})");
        n += 1;
    }
    let mut m = 0;
    for (args, expect, table) in pycute_records("composition") {
        let (Some(a), Some(b)) = (args[0].as_str(), args[1].as_str()) else { continue };
        let (Ok(a), Ok(b)) = (parse_layout(a), parse_layout(b)) else { continue };
        let got = pycute_compose(&brute::leaves(&a), &brute::leaves(&b));
        match (got, expect.as_str()) {
            (Err(_), Some("error")) => {}
            (Ok(r), Some(e)) if e != "error" => {
                if let Some(t) = table {
                    assert_eq!(values(&r), t, "composition({a}, {b})");
                }
            }
            (got, e) => panic!("composition({a}, {b}): model {got:?}, pycute {e:?}"),
        }
        m += 1;
    }
    assert_eq!((n, m), (462, 265), "the number of complement and layout-composition records replayed");
}

// ----------------------------------------------------------------------------- (a) divide

/// Every flat `(shape, stride)` list of rank 1..=3, extents ≥ 1 with product ≤ `max_size`,
/// strides in `0..=max_stride`.
fn flat_tilers(max_size: i64, max_stride: i64) -> Vec<Vec<(i64, i64)>> {
    let mut out = Vec::new();
    let mut stack: Vec<Vec<(i64, i64)>> = vec![vec![]];
    while let Some(head) = stack.pop() {
        if !head.is_empty() {
            out.push(head.clone());
        }
        if head.len() == 3 {
            continue;
        }
        let p: i64 = head.iter().map(|m| m.0).product();
        for s in (1..=max_size).filter(|s| p * s <= max_size) {
            for d in 0..=max_stride {
                let mut v = head.clone();
                v.push((s, d));
                stack.push(v);
            }
        }
    }
    out
}

/// The closed-form condition of docs/open-questions.md §1: drop size-1 modes; no stride 0;
/// sorted by stride, every stride a multiple of the extent `c` the smaller ones reach
/// (`c = s·d` of the previous mode, starting at 1); and the final extent divides N.
fn divides_closed_form(b: &[(i64, i64)], n: i64) -> bool {
    let mut modes: Vec<(i64, i64)> = b.iter().copied().filter(|&(s, _)| s != 1).collect();
    if modes.iter().any(|&(_, d)| d == 0) {
        return false;
    }
    modes.sort_unstable_by_key(|&(s, d)| (d, s));
    let mut c = 1i64;
    for (s, d) in modes {
        if d % c != 0 {
            return false;
        }
        c = s * d;
    }
    n % c == 0
}

#[derive(Default, Debug)]
struct DivideCounts {
    tilers: usize,
    pairs: usize,
    divide: usize,
    tilers_dividing_some: usize,
    pycute_raises: usize,
    pycute_silent: usize,
    pycute_too_big: usize,
    pycute_too_small: usize,
    pycute_zero_extent: usize,
    pycute_not_bijective: usize,
}

#[test]
fn divide_existence() {
    let mut k = DivideCounts::default();
    for modes in flat_tilers(8, 4) {
        let b = brute::layout_of(&modes);
        let nb = brute::size(&b);
        k.tilers += 1;
        let mut some = false;
        for n in nb..=2 * nb {
            k.pairs += 1;
            let a = Layout::scalar(n, 1).expect("N:1");
            let tiling = brute::divide_tiling(&b, n);
            let closed = divides_closed_form(&modes, n);
            let project = logical_divide(&a, &b);
            assert_eq!(tiling.is_ok(), closed, "closed form vs brute force: {b} on {n}: {tiling:?}");
            assert_eq!(project.is_ok(), closed, "layout-core vs closed form: {b} on {n}: {project:?}");
            let pycute = pycute_complement(&modes, n).and_then(|c| {
                let star: Vec<(i64, i64)> = modes.iter().copied().chain(c).collect();
                pycute_compose(&brute::leaves(&a), &star)
            });
            if let (Ok(origins), Ok(r)) = (&tiling, &project) {
                k.divide += 1;
                some = true;
                assert!(brute::canonical_layout(origins).is_some(), "the tile origins of {b} on {n} form a layout");
                let want: Vec<i64> = (0..n).map(|i| brute::eval(&b, i % nb) + origins[(i / nb) as usize]).collect();
                assert_eq!(brute::table(r), want, "logical_divide({n}:1, {b})");
                assert_eq!(pycute.map(|m| values(&m)), Ok(want), "pycute where the divide exists: {b} on {n}");
                continue;
            }
            match pycute {
                Err(_) => k.pycute_raises += 1,
                Ok(m) => {
                    k.pycute_silent += 1;
                    let v = values(&m);
                    if v.is_empty() {
                        k.pycute_zero_extent += 1;
                    } else if v.len() as i64 > n {
                        k.pycute_too_big += 1;
                    } else if (v.len() as i64) < n {
                        k.pycute_too_small += 1;
                    } else {
                        assert!(!brute::is_bijection_onto(&v, n));
                        k.pycute_not_bijective += 1;
                    }
                }
            }
        }
        k.tilers_dividing_some += usize::from(some);
    }
    let table = format!(
        "| quantity | count |\n\
         |---|---:|\n\
         | tilers B enumerated | {} |\n\
         | pairs (B, N) with N in [\\|B\\|, 2\\|B\\|] | {} |\n\
         | pairs where the divide exists (layout-core accepts) | {} |\n\
         | pairs where it does not (layout-core rejects) | {} |\n\
         | tilers that divide at least one N of their range | {} |\n\
         | tilers that divide none | {} |\n\
         | non-dividing pairs pycute rejects (AssertionError) | {} |\n\
         | non-dividing pairs pycute answers silently (wrong) | {} |\n\
         | … of which the result has a zero extent (size 0) | {} |\n\
         | … of which the result has more than N elements (tiles overrun A) | {} |\n\
         | … of which the result has fewer than N elements (elements of A lost) | {} |\n\
         | … of which the size is N but the tiles overlap or leave holes | {} |\n\
         | dividing pairs pycute gets wrong | 0 |\n",
        k.tilers,
        k.pairs,
        k.divide,
        k.pairs - k.divide,
        k.tilers_dividing_some,
        k.tilers - k.tilers_dividing_some,
        k.pycute_raises,
        k.pycute_silent,
        k.pycute_zero_extent,
        k.pycute_too_big,
        k.pycute_too_small,
        k.pycute_not_bijective,
    );
    println!("{table}");
    assert_doc_has("open-questions.md", &table);
}

// ----------------------------------------------------------------------------- (b) complement of 8:3

/// The paper's complement conditions for L = 8:3 and a candidate C, with the cotarget 24 read
/// as "(L, C) is a bijection onto [0, 24)": ordered on `[0, |C|)`, and disjoint from L's image
/// at every index `1 ≤ a < window` of C's extended domain (integer indices, last mode unbounded).
fn paper_complement(l_image: &BTreeSet<i64>, c: &[(i64, i64)], window: i64) -> (bool, bool, Option<i64>) {
    let vals = values(c);
    let ordered = vals.windows(2).all(|w| w[0] < w[1]);
    let mut joint: Vec<i64> = l_image.iter().flat_map(|&x| vals.iter().map(move |&y| x + y)).collect::<Vec<_>>();
    joint.sort_unstable();
    let bijective = brute::is_bijection_onto(&joint, 24);
    let clash = (1..window).find(|&a| l_image.contains(&brute::eval_modes(c, a)));
    (ordered, bijective, clash)
}

#[test]
fn complement_of_8_3() {
    let l = parse_layout("8:3").expect("8:3");
    assert_eq!(complement(&l, 24).expect("complement").to_string(), "3:1");
    assert_eq!(complement_modes(&l, 24).expect("complement").to_string(), "(3,1):(1,24)");
    let image: BTreeSet<i64> = brute::table(&l).into_iter().collect();
    let window = 24 * 24;
    // The paper's `3:1`: ordered and completing, but index 3 of its extension is 3 = L(1).
    assert_eq!(paper_complement(&image, &[(3, 1)], window), (true, true, Some(3)));
    // The un-coalesced form layout-core builds first: no clash anywhere in the window.
    assert_eq!(paper_complement(&image, &[(3, 1), (1, 24)], window), (true, true, None));
    // Reading the extended domain as "every mode unbounded", (3,1):(1,24) at (3,0) is 3 = L(1):
    // under that reading no layout with a mode of stride 1 and extent 3 can qualify.
    let every_mode_unbounded = parse_layout("(3,1):(1,24)")
        .expect("layout")
        .eval_coord(&IntTuple::Tuple(vec![IntTuple::Int(3), IntTuple::Int(0)]));
    assert_eq!(every_mode_unbounded.ok(), Some(brute::eval(&l, 1)));
    // Every candidate of rank ≤ 2 with |C| = 3 ((L, C) bijective onto [0, 24) needs 24/8
    // elements) and strides 0..=48.
    let (mut rank1, mut rank2, mut both) = (0, 0, Vec::new());
    let mut candidates = 0;
    for shape in [vec![3i64], vec![1, 3], vec![3, 1]] {
        for d0 in 0..=48i64 {
            for d1 in 0..=if shape.len() == 2 { 48i64 } else { 0 } {
                candidates += 1;
                let m: Vec<(i64, i64)> = shape.iter().copied().zip([d0, d1]).collect();
                let (o, b, c) = paper_complement(&image, &m, window);
                if o && b && c.is_none() {
                    if m.len() == 1 {
                        rank1 += 1;
                    } else {
                        rank2 += 1;
                        if both.len() < 4 {
                            both.push(print_flat(&m));
                        }
                    }
                }
            }
        }
    }
    let table = format!(
        "| candidates C (rank ≤ 2, \\|C\\| = 3, strides 0..=48) | rank 1 that qualify | rank 2 that qualify | first rank-2 ones |\n\
         |---:|---:|---:|---|\n\
         | {candidates} | {rank1} | {rank2} | {} |\n",
        both.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
    );
    println!("{table}");
    assert_doc_has("open-questions.md", &table);
}

// ----------------------------------------------------------------------------- (c) closure, completeness

#[derive(Default)]
struct ClosureCounts {
    pairs: usize,
    accepted: usize,
    representable: usize,
    representable_rejected: usize,
    pycute_accepts: usize,
    pycute_wrong: usize,
}

#[test]
fn composition_closure() {
    let mut k = ClosureCounts::default();
    let mut example = None;
    for am in flat_tilers(16, 4).into_iter().filter(|m| m.len() <= 2 && m.iter().all(|x| x.0 <= 8)) {
        let a = brute::layout_of(&am);
        let na = brute::size(&a);
        for s in 1..=8i64 {
            for d in 0..=8i64 {
                k.pairs += 1;
                let b = Layout::scalar(s, d).expect("s:d");
                let f = brute::composition_values(&a, &b);
                let ours = composition(&a, &b);
                let repr = brute::representable(&f, &IntTuple::Int(s)).is_some();
                k.representable += usize::from(repr);
                match &ours {
                    Ok(r) => {
                        k.accepted += 1;
                        assert!(repr);
                        assert_eq!(brute::table(r), f, "{a} ∘ {b}");
                    }
                    Err(_) if repr => {
                        k.representable_rejected += 1;
                        if example.is_none() && s > 2 {
                            example = Some(format!("{a} ∘ {b}"));
                        }
                    }
                    Err(_) => {}
                }
                if let Ok(p) = pycute_compose(&am, &[(s, d)]) {
                    k.pycute_accepts += 1;
                    let v = values(&p);
                    let in_domain = |i: usize| brute::eval(&b, i as i64) < na;
                    let wrong = v.len() as i64 != s || (0..v.len()).any(|i| in_domain(i) && v[i] != f[i]);
                    k.pycute_wrong += usize::from(wrong);
                }
            }
        }
    }
    let table = format!(
        "| quantity | count |\n\
         |---|---:|\n\
         | pairs (A, B) | {} |\n\
         | A ∘ B accepted by layout-core (walk condition) | {} |\n\
         | c ↦ A(B(c)) is the function of some layout of size s | {} |\n\
         | … of which layout-core rejects (structure, not values) | {} |\n\
         | pairs pycute answers | {} |\n\
         | … of which wrong (size ≠ s, or a value inside A's domain differs) | {} |\n",
        k.pairs, k.accepted, k.representable, k.representable_rejected, k.pycute_accepts, k.pycute_wrong
    );
    println!("{table}first representable-but-rejected pair with s > 2: {example:?}");
    assert_doc_has("open-questions.md", &table);
}

/// The paper's completeness construction (§2.4.3): every f on `Z_N` with f(0) = 0 is
/// `(2,…,2):(f(1),…,f(N−1)) ∘ (3,1):(1,4) ∘ … ∘ (N−1,1):(1,2(N−2))`, evaluated point by point
/// with layout-core's extended evaluation. Checked for every f with values in 0..4, N = 3..=7.
#[test]
fn completeness_construction() {
    let mut checked = 0usize;
    for n in 3..=7i64 {
        let chain: Vec<Layout> = (3..n)
            .map(|k| {
                let s = IntTuple::Tuple(vec![IntTuple::Int(k), IntTuple::Int(1)]);
                let d = IntTuple::Tuple(vec![IntTuple::Int(1), IntTuple::Int(2 * (k - 1))]);
                Layout::new(s, d).expect("(k,1):(1,2(k-1))")
            })
            .collect();
        let total = 4i64.pow((n - 1) as u32);
        for code in 0..total {
            let f: Vec<i64> = std::iter::once(0).chain((0..n - 1).map(|j| (code >> (2 * j)) & 3)).collect();
            let outer = Layout::new(
                IntTuple::Tuple(vec![IntTuple::Int(2); (n - 1) as usize]),
                IntTuple::Tuple(f[1..].iter().map(|&v| IntTuple::Int(v)).collect()),
            )
            .expect("(2,…,2):(f(1),…)");
            for i in 0..n {
                let x = chain.iter().rev().fold(i, |x, l| l.eval(x).expect("extended evaluation"));
                assert_eq!(outer.eval(x).expect("eval"), f[i as usize], "N = {n}, f = {f:?}, i = {i}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 16 + 64 + 256 + 1024 + 4096);
    // The first link as a *layout* composition is not admissible (shape divisibility): the
    // construction composes functions on Z_N, not layouts.
    let outer = parse_layout("(2,2,2):(5,7,9)").expect("layout");
    assert!(composition(&outer, &parse_layout("(3,1):(1,4)").expect("layout")).is_err());
}
