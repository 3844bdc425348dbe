//! Shared helpers for the integration tests in `tests/tests/`.
//!
//! - [`brute`]: brute-force semantics, stated independently of layout-core's algorithms.
//! - [`oracle`]: reading and judging the oracle vectors in `tests/data/`.

// Test support, not published (`publish = false`): its helpers are documented where the
// name does not say it all, not item by item.
#![allow(missing_docs)]

pub mod brute;
pub mod oracle;
