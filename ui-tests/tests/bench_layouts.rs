//! The bench crate's own tests (hand-written index expressions = generated code =
//! layout-core, at every index), run in CI without building criterion: `bench/` is a separate
//! workspace whose dev-dependency on criterion is too heavy for every CI run, so its library
//! is compiled here as a module and its `#[cfg(test)]` tests run as part of this test target.

#[allow(dead_code)]
#[path = "../../bench/src/lib.rs"]
mod bench;
