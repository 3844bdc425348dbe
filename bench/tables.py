#!/usr/bin/env python3
"""Ratio tables for BENCHMARKS.md from criterion's results.

Usage: python3 bench/tables.py [CRITERION_DIR]   (default: $CARGO_TARGET_DIR/criterion,
or /tmp/target-bench/criterion). Times are criterion's mean per iteration, divided by the
elements of the iteration (4096 random indices, or the layout's size for a traversal).
"""
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("CARGO_TARGET_DIR", "/tmp/target-bench"), "criterion")


def mean_ns(group, bench):
    for base in (os.path.join(root, group, bench), os.path.join(root, group.replace("/", "_"), bench)):
        path = os.path.join(base, "new", "estimates.json")
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)["mean"]["point_estimate"]
    return None


def benchmark_json(group_dir):
    with open(os.path.join(group_dir, "new", "benchmark.json")) as f:
        return json.load(f)


# Find groups by reading benchmark.json files (criterion sanitizes directory names).
groups = {}
for dirpath, dirnames, filenames in os.walk(root):
    if os.path.basename(dirpath) == "new" and "benchmark.json" in filenames:
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            b = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            e = json.load(f)
        elements = (b.get("throughput") or {}).get("Elements")
        groups.setdefault(b["group_id"], {})[b["function_id"]] = (e["mean"]["point_estimate"], elements)

print("### Random access (ns per index)\n")
print("| layout | generated | hand-written | run-time walk | layout-core `eval` | generated / hand | walk / generated | eval / generated |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for g in sorted(k for k in groups if k.startswith("random_access/")):
    r = groups[g]
    per = {k: v[0] / v[1] for k, v in r.items()}
    gen, hand, walk, core = (per.get(k) for k in ("generated", "hand_written", "runtime_walk", "layout_core_eval"))
    print(f"| `{g.split('/', 1)[1].split(' ', 1)[1]}` | {gen:.2f} | {hand:.2f} | {walk:.2f} | {core:.1f} | {gen / hand:.2f} | {walk / gen:.1f} | {core / gen:.0f} |")

print("\n### Traversal (ns per element)\n")
print("| layout | size | sum: for_each_offset | sum: contiguous | sum: offset(i) per index | sum ratio | write: for_each_offset | write: contiguous | write ratio | store: for_each_offset | store: contiguous | **store ratio** |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for g in sorted(k for k in groups if k.startswith("traversal/")):
    r = groups[g]
    per = {k: v[0] / v[1] for k, v in r.items()}
    size = next(iter(r.values()))[1]
    a, b, c = per["sum/generated_for_each_offset"], per["sum/contiguous_loop"], per["sum/offset_per_index"]
    d, e = per["write/generated_for_each_offset"], per["write/contiguous_loop"]
    f, h = per["store/generated_for_each_offset"], per["store/contiguous_loop"]
    print(f"| `{g.split('/', 1)[1].split(' ', 1)[1]}` | {size} | {a:.3f} | {b:.3f} | {c:.3f} | {a / b:.2f} | {d:.3f} | {e:.3f} | {d / e:.2f} | {f:.3f} | {h:.3f} | **{f / h:.2f}** |")
