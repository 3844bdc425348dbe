#!/usr/bin/env python3
"""Differential vectors for swizzled layouts, computed by pycute (nvidia-cutlass 4.2.0.0).

Writes `pycute-swizzle-vectors.txt` next to this script: one case per line,
`EXPRESSION<TAB>v0 v1 ... v(n-1)`, the values of the expression at every index of its domain
as pycute's `ComposedLayout(Swizzle(B,M,S), offset, L)` computes them. The expressions use
the project's notation (`Sw<B,M,S> o offset o L`), so the Rust tests replay them without
Python:

  * `Sw<B,M,S> o off o L` for random swizzles (negative shifts included), offsets and layouts
    (nested shapes, zero and negative strides);
  * `composition(Sw<B,M,S> o off o L, B)`: pycute composes the inner layout,
    `ComposedLayout(sw, off, composition(L, B))`; kept only when pycute's inner composition is
    right by brute force (`R(i) == L(B(i))` with B's image inside L's domain), since pycute has
    known composition bugs;
  * `logical_divide(Sw<B,M,S> o off o L, T)`: likewise `ComposedLayout(sw, off,
    logical_divide(L, T))`, kept only when T tiles L exactly (the result enumerates L's offsets
    once each, docs/algebra.md §3.3).

Run: python3 pycute_swizzle.py   (pycute from $PYCUTE_DIR, the oracle cache
~/.cache/layout-oracle/pycute, or an installed nvidia-cutlass==4.2.0.0).
"""

import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
for d in [os.environ.get("PYCUTE_DIR"), os.path.expanduser("~/.cache/layout-oracle")]:
    if d and os.path.isdir(os.path.join(d, "pycute")):
        sys.path.insert(0, d)
        break

from pycute import ComposedLayout, Layout, Swizzle, composition, logical_divide, size  # noqa: E402

SEED = 20260404
rng = random.Random(SEED)


def fmt(t):
    if isinstance(t, tuple):
        return "(" + ",".join(fmt(c) for c in t) + ")"
    return str(t)


def fmt_layout(l):
    return f"{fmt(l.shape)}:{fmt(l.stride)}"


def random_swizzle():
    b = rng.choice([0, 1, 2, 3])
    m = rng.choice([0, 1, 2, 3, 4])
    # pycute's shiftr/shiftl recurse forever on a shift of 0, so S = 0 (possible only with
    # B = 0, the identity) is left to the Rust tests.
    s = rng.choice([s for s in range(-6, 7) if abs(s) >= b and s != 0])
    return Swizzle(b, m, s)


def random_mode(strides):
    return rng.choice([1, 2, 3, 4, 8]), rng.choice(strides)


def random_layout(strides=(0, 1, 2, 3, 4, 8, 16, 32, 64, 5, -1, -4)):
    rank = rng.choice([1, 2, 2, 3])
    shape, stride = [], []
    for _ in range(rank):
        if rng.random() < 0.25:
            inner = [random_mode(strides) for _ in range(2)]
            shape.append(tuple(s for s, _ in inner))
            stride.append(tuple(d for _, d in inner))
        else:
            s, d = random_mode(strides)
            shape.append(s)
            stride.append(d)
    if rank == 1 and rng.random() < 0.5:
        return Layout(shape[0], stride[0])
    return Layout(tuple(shape), tuple(stride))


def sw_text(sw):
    return f"Sw<{sw.bits},{sw.base},{sw.shift}>"


def composed_text(sw, off, l):
    return f"{sw_text(sw)} o {off} o {fmt_layout(l)}" if off else f"{sw_text(sw)} o {fmt_layout(l)}"


def values(f, n):
    return " ".join(str(f(i)) for i in range(n))


lines = []

# Swizzled layouts, values at every index.
while len(lines) < 300:
    sw, l = random_swizzle(), random_layout()
    off = rng.choice([0, 0, 0, rng.randrange(-64, 512)])
    n = size(l)
    if n > 256:
        continue
    c = ComposedLayout(sw, off, l)
    lines.append(f"{composed_text(sw, off, l)}\t{values(c, n)}")

# (Sw o off o L) o B = Sw o off o (L o B), where pycute's L o B is right.
count = 0
while count < 120:
    sw, l = random_swizzle(), random_layout((1, 2, 4, 8, 16, 3, 6))
    off = rng.choice([0, rng.randrange(0, 256)])
    n = size(l)
    b = random_layout((1, 2, 3, 4))
    if size(b) > n or any(b(i) >= n for i in range(size(b))):
        continue
    try:
        r = composition(l, b)
    except Exception:  # pycute rejects: not an oracle case
        continue
    if size(r) != size(b) or any(r(i) != l(b(i)) for i in range(size(b))):
        continue
    c = ComposedLayout(sw, off, r)
    lines.append(f"composition({composed_text(sw, off, l)}, {fmt_layout(b)})\t{values(c, size(b))}")
    count += 1

# logical_divide(Sw o off o L, T) = Sw o off o logical_divide(L, T), where T tiles L exactly.
count = 0
while count < 80:
    sw = random_swizzle()
    l = random_layout((1, 2, 4, 8, 16))
    n = size(l)
    if n > 256 or n < 2:
        continue
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    t = Layout(rng.choice(divisors), rng.choice([1, 1, 2]))
    try:
        r = logical_divide(l, t)
    except Exception:
        continue
    offsets = sorted(l(i) for i in range(n))
    if size(r) != n or sorted(r(i) for i in range(n)) != offsets or n % (t.shape * t.stride) != 0:
        continue
    off = rng.choice([0, rng.randrange(0, 128)])
    c = ComposedLayout(sw, off, r)
    lines.append(f"logical_divide({composed_text(sw, off, l)}, {fmt_layout(t)})\t{values(c, n)}")
    count += 1

with open(os.path.join(here, "pycute-swizzle-vectors.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} cases")
