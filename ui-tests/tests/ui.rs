//! trybuild cases for `layout!`. The compile-fail cases compare rustc's rendering of our
//! diagnostics with the committed `.stderr` files, so they run only on the compiler that
//! produced them (rustc 1.95); another compiler skips them rather than failing on changed
//! wording. The error texts themselves are also insta snapshots in layout-codegen, which do
//! not depend on rustc. Regenerate with `TRYBUILD=overwrite cargo test -p layout-ui-tests --test ui`.

#[rustversion::stable(1.95)]
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
