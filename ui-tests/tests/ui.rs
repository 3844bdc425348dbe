//! trybuild cases for `layout!`. The compile-fail cases compare rustc's rendering of our
//! diagnostics with the committed `.stderr` files, so they run only on the compiler that
//! produced them (rustc 1.95); on another compiler the test is reported as ignored, with the
//! reason, rather than failing on changed wording (or vanishing without a word). The error texts themselves are also insta snapshots in layout-codegen, which do
//! not depend on rustc. Regenerate with `TRYBUILD=overwrite cargo test -p layout-ui-tests --test ui`.

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "the .stderr files are rustc 1.95's rendering; the error texts are checked on every compiler by tests/errors.rs"
)]
#[test]
fn compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*/*.rs");
}

#[test]
fn compile_pass() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
}
