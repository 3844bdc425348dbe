#!/usr/bin/env bash
# Expansion cost of `layout!`: `cargo check` of a crate with N `layout!` items against the
# same crate with the layouts written by hand (constants and straight-line offsets), and with
# those hand-written layouts plus the standard trait impls every generated struct must have.
# With this tree's facade it also writes `expanded/`, the macro crate with the macro's expansion
# pasted as text: macro − expanded is the macro's own time.
# Usage: bench/expansion-cost.sh [N] [RUNS]   (needs hyperfine: `apt-get install hyperfine`)
# LAYOUT_FACADE=/path/to/layout measures another checkout of the facade.
# MACRO_OPT=1 writes the crates with `[profile.dev.build-override] opt-level = 3` (the README's
# recommendation: the macro optimized); use another OUT for each setting.
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-1000}
RUNS=${2:-10}
OUT=${OUT:-/tmp/layout-expansion-cost}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/target-bench}
cargo run -q --release --bin expansion_cost -- "$OUT" "$N"
# Both crates share one target dir, so the dependencies (layout, layout-core, the macro) are
# checked once here and every timed run checks only the crate itself.
export CARGO_TARGET_DIR="$OUT/target"
# Out of bench/, so its `.cargo/config.toml` (loop alignment for the criterion builds) does
# not apply to the measured crates.
cd "$OUT"
cargo check -q --manifest-path "$OUT/macro/Cargo.toml"
cargo check -q --manifest-path "$OUT/consts/Cargo.toml"
cargo check -q --manifest-path "$OUT/traits/Cargo.toml"
# `expanded/` (the macro's expansion pasted as text) is written only for this tree's facade.
EXP_INC=() EXP_COLD=()
if [ -d "$OUT/expanded" ]; then
  cargo check -q --manifest-path "$OUT/expanded/Cargo.toml"
  EXP_INC=(--prepare "touch $OUT/expanded/src/lib.rs" -n "$N items as expanded text, incremental"
    "cargo check -q --manifest-path $OUT/expanded/Cargo.toml")
  EXP_COLD=(--prepare "cargo clean -q -p expansion_expanded --manifest-path $OUT/expanded/Cargo.toml"
    -n "$N items as expanded text, cold" "cargo check -q --manifest-path $OUT/expanded/Cargo.toml")
fi
# 1. Incremental: the file is touched, as after an edit (the macro runs again, rustc reuses
#    what did not change).
hyperfine --warmup 2 --runs "$RUNS" --export-markdown "$OUT/incremental.md" \
  --prepare "touch $OUT/macro/src/lib.rs" -n "$N layout! items, incremental" \
  "cargo check -q --manifest-path $OUT/macro/Cargo.toml" \
  --prepare "touch $OUT/consts/src/lib.rs" -n "$N hand-written, incremental" \
  "cargo check -q --manifest-path $OUT/consts/Cargo.toml" \
  --prepare "touch $OUT/traits/src/lib.rs" -n "$N hand-written + std trait impls, incremental" \
  "cargo check -q --manifest-path $OUT/traits/Cargo.toml" "${EXP_INC[@]}"
# 2. Cold: the crate's own artifacts and incremental state removed first (dependencies kept).
hyperfine --warmup 1 --runs "$RUNS" --export-markdown "$OUT/cold.md" \
  --prepare "cargo clean -q -p expansion_macro --manifest-path $OUT/macro/Cargo.toml" -n "$N layout! items, cold" \
  "cargo check -q --manifest-path $OUT/macro/Cargo.toml" \
  --prepare "cargo clean -q -p expansion_consts --manifest-path $OUT/consts/Cargo.toml" -n "$N hand-written, cold" \
  "cargo check -q --manifest-path $OUT/consts/Cargo.toml" \
  --prepare "cargo clean -q -p expansion_traits --manifest-path $OUT/traits/Cargo.toml" -n "$N hand-written + std trait impls, cold" \
  "cargo check -q --manifest-path $OUT/traits/Cargo.toml" "${EXP_COLD[@]}"
cat "$OUT/incremental.md" "$OUT/cold.md"
