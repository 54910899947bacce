#!/usr/bin/python3
"""The cost of a call through the Python package (python/ftc), issue 20:

    FTC=build/ftc /usr/bin/python3 bench/python_overhead.py [--calls 20000]

Builds a tiny function (4 elements, `y[i] = x[i] + 1`) and prints the
microseconds a call takes: the exported symbol through bare ctypes (the
floor), then through ftc.load's checked callable with NumPy arrays and with
torch tensors (outputs given, and allocated), each the best of 5 rounds,
with the overhead over the floor and the targets (20 us NumPy, 30 us torch).
Run it on an idle machine (the library's OpenMP region is part of every
figure).  The results are checked: y must be x + 1.
"""
import argparse
import ctypes
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import ftc  # noqa: E402

PROG = """export func tiny(n: size, x: f32[n] in, y: f32[n] out):
    for i in range(n):
        y[i] = x[i] + 1
"""


def best_us(fn, calls):
    """The best of 5 rounds of calls, in microseconds a call."""
    fn()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t) / calls * 1e6)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=20000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ftc-overhead-") as cache:
        lib = ftc.compile(PROG, cache_dir=cache)
        x = np.arange(4, dtype=np.float32)
        y = np.zeros(4, np.float32)
        raw = ctypes.CDLL(lib.path).tiny
        raw.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
        px, py = x.ctypes.data, y.ctypes.data
        rows = [("bare ctypes (floor)", best_us(lambda: raw(4, px, py), args.calls), None)]
        rows.append(("ftc, NumPy, y given", best_us(lambda: lib.tiny(x=x, y=y), args.calls), 20))
        rows.append(("ftc, NumPy, y allocated", best_us(lambda: lib.tiny(x=x), args.calls), 20))
        if not np.array_equal(lib.tiny(x=x), x + 1):
            sys.exit("FAIL: tiny(x) is not x + 1")
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None:
            xt, yt = torch.from_numpy(x), torch.zeros(4)
            rows.append(("ftc, torch, y given", best_us(lambda: lib.tiny(x=xt, y=yt), args.calls), 30))
            rows.append(("ftc, torch, y allocated", best_us(lambda: lib.tiny(x=xt), args.calls), 30))
        floor = rows[0][1]
        print(f"load average {os.getloadavg()[0]:.2f} (measure on an idle machine)")
        for name, us, target in rows:
            extra = "" if target is None else \
                f"  overhead {us - floor:6.2f} us, target {target} us: " \
                f"{'met' if us - floor <= target else 'MISSED'}"
            print(f"{name:26s} {us:7.2f} us/call{extra}")


if __name__ == "__main__":
    main()
