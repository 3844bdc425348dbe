//! Shared helpers for the integration tests in `tests/tests/`.
//!
//! - [`brute`]: brute-force semantics, stated independently of layout-core's algorithms.
//! - [`oracle`]: reading and judging the oracle vectors in `tests/data/`.

pub mod brute;
pub mod oracle;
