//! Shared helpers for the integration tests (brute-force semantics live here).
