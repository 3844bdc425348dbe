//! Brute-force semantics of the algebra (filled in by the laws/exhaustive tests).
