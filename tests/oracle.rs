//! Reading and judging the oracle vectors of `tests/data/`.
