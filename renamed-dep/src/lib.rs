//! Empty: the test is `tests/renamed.rs`.
