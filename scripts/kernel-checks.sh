#!/usr/bin/env bash
# Runs the copy-kernel tests (layout/tests/kernels.rs), the copies layout! emits
# (ui-tests/tests/copy.rs) and the GEMM engine's tests (layout/tests/gemm.rs) at every dispatch
# level this machine can exercise:
#   1. natively, capped by LAYOUT_SIMD_LEVEL=avx2 and =portable (the native run covers the
#      detected level: the tests force each lower level in turn);
#   2. under qemu-x86_64 -cpu Haswell (AVX2, no AVX-512) and -cpu Nehalem (neither), where
#      the detection itself must pick Avx2 / Portable (test `detected_level`);
#   3. under valgrind with LAYOUT_SIMD_LEVEL=avx2 and =portable (valgrind has no AVX-512).
# Under qemu and valgrind the GEMM tests run with LAYOUT_TEST_SMALL=1 (fewer, smaller problems).
# A missing tool is skipped with a message, unless CI is set (then it fails).
# Cargo uses CARGO_TARGET_DIR if set. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

missing() {
    if [[ -n "${CI:-}" ]]; then
        echo "kernel-checks: $1 is not installed (required when CI is set)" >&2
        exit 1
    fi
    echo "kernel-checks: SKIPPED $1 checks: $1 is not installed" >&2
}

# The test binary of `cargo test -p PKG --test NAME`.
test_bin() {
    local bin
    bin=$(cargo test -p "$1" --test "$2" --no-run --message-format=json \
        | grep '"reason":"compiler-artifact"' \
        | grep "\"name\":\"$2\"" \
        | grep -o '"executable":"[^"]*"' | head -n1 | sed 's/^"executable":"//; s/"$//')
    if [[ -z "$bin" || ! -x "$bin" ]]; then
        echo "kernel-checks: could not find the test binary of $1 --test $2" >&2
        exit 1
    fi
    echo "$bin"
}

echo "== building the test binaries: the drivers (layout/tests/kernels.rs) and the copies layout! emits (ui-tests/tests/copy.rs)"
bin=$(test_bin cute-layout kernels)
copies=$(test_bin layout-ui-tests copy)
gemm=$(test_bin cute-layout gemm)
small=$(test_bin cute-layout small_gemms)
echo "   $bin"
echo "   $copies"
echo "   $gemm"

# qemu warns about each CPU feature its TCG cannot emulate (irrelevant here).
quiet_qemu() {
    grep -v "TCG doesn't support requested feature" || true
}

run() {
    echo "== $*"
    "$@"
}

for b in "$bin" "$copies" "$gemm"; do
    run "$b" -q
    run env LAYOUT_SIMD_LEVEL=avx2 "$b" -q
    run env LAYOUT_SIMD_LEVEL=portable "$b" -q
done

if command -v qemu-x86_64 >/dev/null 2>&1; then
    for cpu in Haswell Nehalem; do
        echo "== qemu-x86_64 -cpu $cpu $bin"
        out=$(qemu-x86_64 -cpu "$cpu" "$bin" --test-threads=1 --nocapture detected_level 2>&1 | quiet_qemu) || {
            echo "$out"
            exit 1
        }
        echo "$out" | grep "detected SIMD level"
        expect=$([[ $cpu == Haswell ]] && echo Avx2 || echo Portable)
        if ! echo "$out" | grep -q "detected SIMD level: $expect\$"; then
            echo "kernel-checks: qemu -cpu $cpu did not detect $expect" >&2
            exit 1
        fi
        for b in "$bin" "$copies"; do
            echo "== qemu-x86_64 -cpu $cpu $b -q"
            qemu-x86_64 -cpu "$cpu" "$b" -q 2>&1 | quiet_qemu
        done
        echo "== LAYOUT_TEST_SMALL=1 qemu-x86_64 -cpu $cpu $gemm -q"
        LAYOUT_TEST_SMALL=1 qemu-x86_64 -cpu "$cpu" "$gemm" -q 2>&1 | quiet_qemu
    done
else
    missing qemu-x86_64
fi

if command -v valgrind >/dev/null 2>&1; then
    for level in avx2 portable; do
        for b in "$bin" "$copies"; do
            run env LAYOUT_SIMD_LEVEL=$level valgrind -q --error-exitcode=1 "$b" -q --test-threads=2
        done
        run env LAYOUT_SIMD_LEVEL=$level LAYOUT_TEST_SMALL=1 valgrind -q --error-exitcode=1 "$gemm" -q --test-threads=2
    done
    # The small GEMM kernels over run-time strides (each test runs every level up to AVX2).
    run env LAYOUT_SIMD_LEVEL=avx2 LAYOUT_TEST_SMALL=1 valgrind -q --error-exitcode=1 "$small" -q --test-threads=2
else
    missing valgrind
fi

echo "kernel-checks: all passed"
