#!/usr/bin/env python3
"""Differential vectors for swizzled (composed) layouts, computed by tensor-layouts 0.3.2
(`pip install tensor-layouts==0.3.2`), the second oracle next to pycute (pycute_swizzle.py).

Writes `tl-swizzle-vectors.txt` next to this script: one case per line,
`EXPRESSION<TAB>v0 v1 ... v(n-1)` in the project's notation, the values at every index:

  * `Sw<B,M,S> o off o L`: tensor-layouts' `ComposedLayout(Swizzle(B,M,S), L, offset=off)`;
  * `composition(Sw o off o L, B)`: tensor-layouts' own `compose` of the composed layout with
    an integer layout, kept only when its result is right by brute force (R(i) == C(B(i)),
    B's image inside L's domain);
  * `logical_divide(Sw o off o L, T)`: tensor-layouts' `logical_divide`, kept only when T
    tiles L exactly (docs/algebra.md §3.3) and the result re-indexes C;
  * `right_inverse(Sw o L)` of compact swizzled layouts (the inverse of a bijection is unique
    on [0, size), so the values must agree whatever form each library prints).

Run: python3 tl_swizzle.py   (tensor_layouts importable, e.g. from the unpacked wheel via
PYTHONPATH).
"""

import os
import random

import tensor_layouts as tl

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261130)


def fmt(t):
    return "(" + ",".join(fmt(c) for c in t) + ")" if isinstance(t, tuple) else str(t)


def fmt_layout(l):
    return f"{fmt(l.shape)}:{fmt(l.stride)}"


def random_swizzle():
    b = rng.choice([1, 2, 3])
    m = rng.choice([0, 1, 2, 3, 4])
    s = rng.choice([s for s in range(-6, 7) if abs(s) >= b])
    return b, m, s


def random_layout(strides=(0, 1, 2, 3, 4, 8, 16, 32, 64, 5, -1, -4)):
    rank = rng.choice([1, 2, 2, 3])
    shape, stride = [], []
    for _ in range(rank):
        if rng.random() < 0.25:
            inner = [(rng.choice([1, 2, 3, 4, 8]), rng.choice(strides)) for _ in range(2)]
            shape.append(tuple(s for s, _ in inner))
            stride.append(tuple(d for _, d in inner))
        else:
            shape.append(rng.choice([1, 2, 3, 4, 8]))
            stride.append(rng.choice(strides))
    if rank == 1 and rng.random() < 0.5:
        return tl.Layout(shape[0], stride[0])
    return tl.Layout(tuple(shape), tuple(stride))


def text(sw, off, l):
    b, m, s = sw
    head = f"Sw<{b},{m},{s}> o "
    return head + (f"{off} o " if off else "") + fmt_layout(l)


def composed(sw, off, l):
    return tl.ComposedLayout(tl.Swizzle(*sw), l, offset=off)


def values(f, n):
    return " ".join(str(f(i)) for i in range(n))


lines = []
while len(lines) < 200:
    sw, l = random_swizzle(), random_layout()
    off = rng.choice([0, 0, 0, rng.randrange(0, 512)])
    n = tl.size(l)
    if n > 256:
        continue
    lines.append(f"{text(sw, off, l)}\t{values(composed(sw, off, l), n)}")

count = 0
while count < 100:
    sw, l = random_swizzle(), random_layout((1, 2, 4, 8, 16, 3, 6))
    off = rng.choice([0, rng.randrange(0, 256)])
    c, n = composed(sw, off, l), tl.size(l)
    b = random_layout((1, 2, 3, 4))
    nb = tl.size(b)
    if nb > n or any(b(i) >= n for i in range(nb)):
        continue
    try:
        r = tl.compose(c, b)
    except Exception:  # tensor-layouts rejects: not an oracle case
        continue
    if tl.size(r) != nb or any(r(i) != c(b(i)) for i in range(nb)):
        continue
    lines.append(f"composition({text(sw, off, l)}, {fmt_layout(b)})\t{values(r, nb)}")
    count += 1

count = 0
while count < 60:
    sw, l = random_swizzle(), random_layout((1, 2, 4, 8, 16))
    off = rng.choice([0, rng.randrange(0, 128)])
    c, n = composed(sw, off, l), tl.size(l)
    if n > 256 or n < 2:
        continue
    t = tl.Layout(rng.choice([d for d in range(1, n + 1) if n % d == 0]), rng.choice([1, 1, 2]))
    if n % (t.shape * t.stride) != 0:
        continue
    try:
        r = tl.logical_divide(c, t)
    except Exception:
        continue
    if tl.size(r) != n or sorted(r(i) for i in range(n)) != sorted(c(i) for i in range(n)):
        continue
    lines.append(f"logical_divide({text(sw, off, l)}, {fmt_layout(t)})\t{values(r, n)}")
    count += 1

count = 0
while count < 40:
    sw = random_swizzle()
    # A compact layout: a column-major shape in a random mode order.
    shape = tuple(rng.choice([2, 4, 8]) for _ in range(rng.choice([1, 2, 3])))
    order = list(range(len(shape)))
    rng.shuffle(order)
    stride, acc = [0] * len(shape), 1
    for k in order:
        stride[k], acc = acc, acc * shape[k]
    l = tl.Layout(shape, tuple(stride)) if len(shape) > 1 else tl.Layout(shape[0], stride[0])
    b, m, s = sw
    if (1 << (b + m + abs(s))) > acc:  # keep the swizzle's bits inside the cosize
        continue
    c = composed(sw, 0, l)
    try:
        r = tl.right_inverse(c)
    except Exception:
        continue
    if any(c(r(i)) != i for i in range(acc)):
        continue
    lines.append(f"right_inverse({text(sw, 0, l)})\t{values(r, acc)}")
    count += 1

with open(os.path.join(here, "tl-swizzle-vectors.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{len(lines)} cases")
