#!/usr/bin/python3
"""Numeric tests of the CUDA target's code without a GPU.

    /usr/bin/python3 tests/cuda/emulated_run.py PATH/TO/ftc SOURCE_ROOT [NAME...]

Runs tests/numeric/run.py, once per NAME (a -k substring; default: a set
covering the four kinds of kernels, atomics, barriers-free serial code and
run-time errors), through a wrapper that adds `--target cuda` to every
`ftc build` and `ftc run`, with FTC_NVCC=tests/cuda/fake_nvcc, which
compiles the emitted CUDA for the CPU (tests/cuda/ft_cuda_emu.h).  The
references are the NumPy ones the C target is checked against.  Exits 1
when any case failed.
"""
import os
import subprocess
import sys
import tempfile

DEFAULT = ["subdivnet", "spmv", "histogram", "minmax", "control", "assert", "intdiv",
           "casts", "shared_acc", "range_step", "as_lib[7x5x3]", "spread_rows"]


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    names = argv[3:] or DEFAULT
    status = 0
    with tempfile.TemporaryDirectory(prefix="ftc-cuda-emu-") as d:
        wrap = os.path.join(d, "ftc")
        with open(wrap, "w") as f:
            f.write("#!/bin/sh\ncase \"$1\" in\nbuild|run) exec \"%s\" \"$@\" --target cuda ;;\n"
                    "*) exec \"%s\" \"$@\" ;;\nesac\n" % (ftc, ftc))
        os.chmod(wrap, 0o755)
        env = dict(os.environ, FTC_NVCC=os.path.join(root, "tests", "cuda", "fake_nvcc"))
        for name in names:
            r = subprocess.run(["/usr/bin/python3", os.path.join(root, "tests/numeric/run.py"),
                                wrap, root, "-k", name], env=env)
            status |= r.returncode != 0
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
