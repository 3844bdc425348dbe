//! Writes the three crates of the expansion-cost measurement (see `expansion-cost.sh`):
//! `macro/` with N `layout!` items, `consts/` with the same layouts written by hand as
//! constants and straight-line `const fn offset`s, and `traits/`: those hand-written
//! layouts plus the standard trait impls the issue asks of every generated unit struct
//! (`Clone`, `Copy`, `Debug`, `Default`, `PartialEq`, `Eq`, `Hash`, `Display`), written out
//! as the facade writes them: the floor any design with one unit struct per layout pays; and
//! `expanded/`: the `macro/` crate with the macro's expansion pasted as text, so the macro's
//! own time is the difference to `macro/`.
//! Usage: `expansion_cost OUT_DIR [N]`.

use std::fmt::Write as _;
use std::path::Path;

use layout_core::{Layout, coalesce, evaluate};

/// A fixed LCG, so every run writes the same crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.next(xs.len() as u64) as usize]
    }
}

/// A random layout expression: a compact layout in a random mode order (sometimes with a
/// gap, sometimes nested), or a divide or product of one.
fn expression(rng: &mut Rng, k: usize) -> String {
    let extents = [2, 3, 4, 5, 6, 7, 8, 16];
    match k % 4 {
        0 => {
            let (m, n) = (rng.pick(&[8, 16, 32, 64]), rng.pick(&[8, 16, 32, 64]));
            let (a, b) = (rng.pick(&[1, 2, 4, 8]), rng.pick(&[1, 2, 4, 8]));
            format!("logical_divide(({m},{n}):(1,{m}), [{a}:1, {b}:1])")
        }
        1 => {
            let (m, n) = (rng.pick(&[2, 3, 4]), rng.pick(&[2, 4, 8]));
            format!("logical_product(({m},{n}):(1,{m}), {}:1)", rng.pick(&[2, 3, 4]))
        }
        _ => {
            let rank = 2 + rng.next(3) as usize;
            let shape: Vec<i64> = (0..rank).map(|_| rng.pick(&extents)).collect();
            let mut order: Vec<usize> = (0..rank).collect();
            for i in (1..rank).rev() {
                order.swap(i, rng.next(i as u64 + 1) as usize);
            }
            let mut stride = vec![0i64; rank];
            let mut acc = 1;
            for &m in &order {
                stride[m] = acc;
                acc *= shape[m] * if rng.next(4) == 0 { 2 } else { 1 };
            }
            let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            if rank == 4 && rng.next(2) == 0 {
                let (s, d) = (&shape, &stride);
                format!("(({},{}),({},{})):(({},{}),({},{}))", s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3])
            } else {
                format!("({}):({})", list(&shape), list(&stride))
            }
        }
    }
}

/// What a careful person writes by hand for one layout: its constants and the offset as
/// straight-line arithmetic over the coalesced modes.
fn hand_written(name: &str, l: &Layout) -> String {
    let modes = coalesce(l).flat_modes();
    let mut body = String::new();
    let mut terms = Vec::new();
    for (k, &(s, d)) in modes.iter().enumerate() {
        if k + 1 == modes.len() {
            terms.push(format!("i * {d}"));
        } else {
            let _ = writeln!(body, "        let c{k} = i % {s};\n        let i = i / {s};");
            terms.push(format!("c{k} * {d}"));
        }
    }
    format!(
        "pub struct {name};\n\nimpl {name} {{\n    pub const SIZE: usize = {};\n    pub const COSIZE: usize = {};\n    \
         pub const NOTATION: &'static str = \"{l}\";\n    pub const fn offset(i: usize) -> usize {{\n{body}        {}\n    }}\n}}\n\n",
        l.size(),
        l.cosize().unwrap(),
        terms.join(" + ")
    )
}

/// The standard trait impls of a unit struct: a copy of what the facade's
/// `impl_layout_value!` emits (keep the two in step).
fn std_impls(name: &str) -> String {
    format!(
        "impl ::core::clone::Clone for {name} {{\n    #[inline]\n    fn clone(&self) -> Self {{\n        *self\n    }}\n}}\n\n\
         impl ::core::marker::Copy for {name} {{}}\n\n\
         impl ::core::fmt::Debug for {name} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        \
         f.write_str(\"{name}\")\n    }}\n}}\n\n\
         impl ::core::default::Default for {name} {{\n    #[inline]\n    fn default() -> Self {{\n        {name}\n    }}\n}}\n\n\
         impl ::core::cmp::PartialEq for {name} {{\n    #[inline]\n    fn eq(&self, _: &Self) -> bool {{\n        true\n    }}\n}}\n\n\
         impl ::core::cmp::Eq for {name} {{}}\n\n\
         impl ::core::hash::Hash for {name} {{\n    #[inline]\n    fn hash<H: ::core::hash::Hasher>(&self, _: &mut H) {{}}\n}}\n\n\
         impl ::core::fmt::Display for {name} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        \
         f.write_str({name}::NOTATION)\n    }}\n}}\n\n"
    )
}

fn write_crate(dir: &Path, name: &str, lib: &str, package: &str, layout_dep: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\n{package} = {{ path = \"{layout_dep}\" }}\n{}",
        // `MACRO_OPT=1`: the macro and its dependencies optimized, as the README recommends
        // (the dev profile builds proc macros at opt-level 0).
        if std::env::var_os("MACRO_OPT").is_some() { "\n[profile.dev.build-override]\nopt-level = 3\n" } else { "" }
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
}

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: expansion_cost OUT_DIR [N]");
    let n: usize = args.next().map_or(1000, |s| s.parse().unwrap());
    // `LAYOUT_FACADE` points at another checkout of the facade (e.g. a snapshot of the tree).
    let facade = std::env::var("LAYOUT_FACADE").unwrap_or_else(|_| format!("{}/../layout", env!("CARGO_MANIFEST_DIR")));
    let facade = std::fs::canonicalize(facade).unwrap();
    let facade = facade.to_str().unwrap();
    // The facade's package name (`cute-layout`; `layout` in checkouts before the rename): the
    // generated code names the crate, so the dependency keeps its own name.
    let manifest = std::fs::read_to_string(format!("{facade}/Cargo.toml")).unwrap();
    let package = manifest
        .lines()
        .find_map(|l| l.strip_prefix("name = \"").and_then(|r| r.strip_suffix('"')))
        .expect("the facade's package name")
        .to_string();
    let krate = package.replace('-', "_");
    let mut rng = Rng(42);
    let mut macro_lib = format!("#![allow(dead_code)]\n\nuse {krate}::layout;\n\nlayout! {{\n");
    let mut consts_lib = format!(
        "#![allow(dead_code)]\n// The facade dependency is kept so both crates share it.\nuse {krate} as _;\n\n"
    );
    let mut traits_lib = consts_lib.clone();
    for k in 0..n {
        let expr = expression(&mut rng, k);
        let l = match evaluate(&expr) {
            Ok(layout_core::Value::Layout(layout_core::AnyLayout::Int(l))) => l,
            other => panic!("{expr}: {other:?}"),
        };
        let _ = writeln!(macro_lib, "    pub L{k} = {expr};");
        let hand = hand_written(&format!("L{k}"), &l);
        consts_lib.push_str(&hand);
        traits_lib.push_str(&hand);
        traits_lib.push_str(&std_impls(&format!("L{k}")));
    }
    macro_lib.push_str("}\n");
    let out = Path::new(&out);
    write_crate(&out.join("macro"), "expansion_macro", &macro_lib, &package, facade);
    write_crate(&out.join("consts"), "expansion_consts", &consts_lib, &package, facade);
    write_crate(&out.join("traits"), "expansion_traits", &traits_lib, &package, facade);
    // The macro's own share: the same crate with the macro's expansion pasted as text (the
    // current tree's code generator, so only when the facade is this tree's).
    if std::env::var_os("LAYOUT_FACADE").is_none() {
        let input: proc_macro2::TokenStream = macro_lib
            .split_once("layout! {\n")
            .and_then(|(_, rest)| rest.rsplit_once('}'))
            .map(|(items, _)| items)
            .expect("the layout! invocation")
            .parse()
            .expect("the items as tokens");
        let expansion = layout_codegen::expand(input);
        let expanded_lib = format!("#![allow(dead_code)]\n\nuse {krate} as _;\n\n{expansion}\n");
        write_crate(&out.join("expanded"), "expansion_expanded", &expanded_lib, &package, facade);
    } else {
        let _ = std::fs::remove_dir_all(out.join("expanded"));
    }
    println!("wrote {n} layouts to {}/{{macro,consts,traits}}", out.display());
}
