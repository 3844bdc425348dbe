#!/usr/bin/env python3
"""Prints N expressions (default 10,000) built from the oracle records in tests/data, cycling
through them: the input of the `layout eval --batch` throughput measurement in BENCHMARKS.md."""
import itertools, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
exprs = []
for name in ("pycute-vectors.jsonl", "cute-cpp-vectors.jsonl"):
    for line in open(os.path.join(here, "..", "tests", "data", name)):
        r = json.loads(line)
        op, a = r["op"], r["args"]
        if op == "table":
            exprs.append(a[0])
        elif op == "coalesce_profile":
            exprs.append(f"coalesce({a[0]}, {a[1]})")
        else:
            exprs.append(f"{op}({', '.join(str(x) for x in a)})")
for e in itertools.islice(itertools.cycle(exprs), n):
    print(e)
