#!/usr/bin/env python3
"""The GEMM table of BENCHMARKS.md from a saved run:
`cargo bench --bench gemm > out.txt 2>&1; python3 gemm-table.py out.txt`."""
import re
import sys

rows, order, name = {}, [], None
for line in open(sys.argv[1]):
    m = re.match(r"^(gemm\S+)", line)
    if m:
        name = m.group(1)
    m = re.search(r"thrpt:\s+\[\S+ \S+ (\S+) (\S+)", line)
    if m and name and "elem" in m.group(2):
        v = float(m.group(1)) / (1000 if m.group(2).startswith("Melem") else 1)
        group, who = name.rsplit("/", 1)
        if group not in rows:
            rows[group] = {}
            order.append(group)
        rows[group][who] = v
        name = None
print("| case | layout | faer | gemm | ratio |\n|---|---|---|---|---|")
for g in order:
    r = rows[g]
    ratio = r.get("layout", 0) / r["faer"] if r.get("faer") else 0
    print(f"| {g} | {r.get('layout', 0):.1f} | {r.get('faer', 0):.1f} | {r.get('gemm', 0):.1f} | {ratio:.2f} |")
small = [g for g in order if "static" in rows[g]]
if small:
    print("\nStatic `layout!` gemm items (the straight-line kernel) on the same sizes:\n")
    print("| case | static | layout (run time) | faer | static / faer |\n|---|---|---|---|---|")
    for g in small:
        r = rows[g]
        ratio = r["static"] / r["faer"] if r.get("faer") else 0
        print(f"| {g} | {r['static']:.1f} | {r.get('layout', 0):.1f} | {r.get('faer', 0):.1f} | {ratio:.2f} |")
