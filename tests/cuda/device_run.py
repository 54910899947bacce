#!/usr/bin/python3
"""`ftc run` with `@ gpu` parameters, without a GPU.

    /usr/bin/python3 tests/cuda/device_run.py PATH/TO/ftc SOURCE_ROOT [--gpu]

Builds tests/cuda/fake_cudart.c into a libcudart.so put first on
LD_LIBRARY_PATH, and runs tests/cuda/progs/device_params.ft on the CUDA
target compiled for the CPU (FTC_NVCC=tests/cuda/fake_nvcc):
  - the fake runtime reporting no device: a "no CUDA device" error;
  - the machine's own CUDA runtime, if any, without a GPU: the same error;
  - one fake device: the numbers match NumPy and the runtime copied every
    `@ gpu` tensor in (outs too: zeros) and the out/inout ones back, once
    per call, also under --bench;
  - the module's own check: no device (FT_EMU_NO_DEVICE) gives
    FT_ERR_NODEVICE, reported as "no CUDA device";
  - `ftc gradcheck --target cuda` of axpy wrt x (`@ gpu`) and a (host):
    the gradient built for the CUDA target, its `@ gpu` arguments copied
    to the (fake) device and back by the gradcheck runtime, against
    central differences.
With --gpu (tests/gpu/run): the library is built with ftc's nvcc and run
with the machine's CUDA runtime and GPU; only the numbers are checked
(axpy with `@ gpu` tensors, scale with host ones, the gradcheck).
Exits 1 when any case failed.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "numeric"))
from harness import Fail, run_cases  # noqa: E402


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    prog = os.path.join(root, "tests", "cuda", "progs", "device_params.ft")
    with tempfile.TemporaryDirectory(prefix="ftc-device-run-") as d:
        libdir = os.path.join(d, "lib")
        os.mkdir(libdir)
        r = subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o",
                            os.path.join(libdir, "libcudart.so"),
                            os.path.join(root, "tests", "cuda", "fake_cudart.c")])
        if r.returncode:
            print("FAIL cannot build the fake libcudart")
            return 1
        lib = os.path.join(d, "libdev.so")
        gpu = "--gpu" in argv
        base = dict(os.environ)
        if not gpu:
            base["FTC_NVCC"] = os.path.join(root, "tests", "cuda", "fake_nvcc")
        r = subprocess.run([ftc, "build", prog, "--target", "cuda", "-o", lib], env=base,
                           capture_output=True, text=True)
        if r.returncode:
            print("FAIL ftc build: " + r.stderr)
            return 1
        n = 1000
        rng = np.random.default_rng(3)
        a = np.array([1.5], dtype=np.float32)
        x = rng.integers(-8, 8, n).astype(np.float32)
        y = rng.integers(-8, 8, n).astype(np.float32)
        for k, v in (("a", a), ("x", x), ("y", y)):
            np.save(os.path.join(d, k + ".npy"), v)
        log = os.path.join(d, "copies.log")

        def run(func, env, extra=()):
            out = os.path.join(d, "out")
            if os.path.isdir(out):
                for f in os.listdir(out):
                    os.unlink(os.path.join(out, f))
            args = [ftc, "run", lib, func, f"n={n}", "--no-print", "--out-dir", out]
            args += [f"{k}={os.path.join(d, k + '.npy')}" for k in
                     (("a", "x", "y") if func == "axpy" else ("x",))]
            r = subprocess.run(args + list(extra), env=env, capture_output=True, text=True)
            outs = {}
            if os.path.isdir(out):
                outs = {f[:-4]: np.load(os.path.join(out, f)) for f in os.listdir(out)}
            return r, outs

        def copies():
            if not os.path.exists(log):
                return []
            with open(log) as f:
                lines = [l.split() for l in f.read().splitlines()]
            os.unlink(log)
            return lines

        def no_device_fake():
            env = dict(base, LD_LIBRARY_PATH=libdir)
            r, _ = run("axpy", env)
            if r.returncode == 0 or "no CUDA device: no CUDA-capable device" not in r.stderr:
                raise Fail(f"exit {r.returncode}, stderr: {r.stderr.strip()}")
            if "'x'" not in r.stderr:
                raise Fail("the message does not name the @ gpu parameter: " + r.stderr)

        def no_device_real():
            env = dict(base)
            env.pop("LD_LIBRARY_PATH", None)
            r, outs = run("axpy", env)
            if r.returncode == 0:
                print("  (a real CUDA device answered: nothing to check)")
                return
            if "no CUDA device: " not in r.stderr:
                raise Fail(f"exit {r.returncode}, stderr: {r.stderr.strip()}")

        def check_axpy(outs):
            yref = y + x
            for name, ref in (("y", yref), ("z", a[0] * x + yref)):
                got = outs.get(name)
                if got is None or got.dtype != np.float32 or not np.array_equal(got, ref):
                    raise Fail(f"{name}: got {None if got is None else got[:4]}, "
                               f"want {ref[:4]}")

        def one_device():
            env = dict(base, LD_LIBRARY_PATH=libdir, FAKE_CUDART_DEVICES="1",
                       FAKE_CUDART_LOG=log)
            copies()
            r, outs = run("axpy", env)
            if r.returncode:
                raise Fail(f"exit {r.returncode}: {r.stderr.strip()}")
            check_axpy(outs)
            got = copies()
            want = [["h2d", str(4 * n)]] * 3 + [["d2h", str(4 * n)]] * 2
            if got != want:
                raise Fail(f"copies {got}, want {want}")

        def bench():
            env = dict(base, LD_LIBRARY_PATH=libdir, FAKE_CUDART_DEVICES="1",
                       FAKE_CUDART_LOG=log)
            copies()
            r, outs = run("axpy", env, ["--bench", "3"])
            if r.returncode:
                raise Fail(f"exit {r.returncode}: {r.stderr.strip()}")
            check_axpy(outs)   # y inout: each call starts from the same y
            got = copies()
            h2d = sum(1 for c in got if c[0] == "h2d")
            d2h = sum(1 for c in got if c[0] == "d2h")
            if (h2d, d2h) != (3 * 4, 2):
                raise Fail(f"{h2d} copies in, {d2h} out; want 12 and 2")

        def host_only():
            # no @ gpu parameter: the runtime loads no CUDA runtime at all
            env = dict(base, LD_LIBRARY_PATH=libdir, FAKE_CUDART_LOG=log)
            copies()
            r, outs = run("scale", env)
            if r.returncode or not np.array_equal(outs.get("y"), 2 * x):
                raise Fail(f"exit {r.returncode}: {r.stderr.strip()}")
            if copies():
                raise Fail("the runtime copied through libcudart without @ gpu parameters")

        def module_no_device():
            env = dict(base, FT_EMU_NO_DEVICE="1")
            r, _ = run("scale", env)
            if r.returncode == 0 or "no CUDA device" not in r.stderr or \
                    "code 5" not in r.stderr:
                raise Fail(f"exit {r.returncode}, stderr: {r.stderr.strip()}")

        def gradcheck(env=None):
            if env is None:
                env = dict(base, LD_LIBRARY_PATH=libdir, FAKE_CUDART_DEVICES="1",
                           FAKE_CUDART_LOG=log)
            copies()
            r = subprocess.run([ftc, "gradcheck", prog, "axpy", "wrt", "x", "a", "n=50",
                                "--target", "cuda"], env=env, capture_output=True, text=True)
            lines = [l for l in r.stdout.splitlines() if l.startswith("gradcheck axpy wrt ")]
            if r.returncode or len(lines) != 2:
                raise Fail(f"exit {r.returncode}: {r.stdout.strip()} {r.stderr.strip()}")
            got = copies()
            if env.get("FAKE_CUDART_LOG") and not any(c[0] == "h2d" for c in got):
                raise Fail("gradcheck copied nothing to the device")

        def real_gpu():
            r, outs = run("axpy", base)
            if r.returncode:
                raise Fail(f"axpy exit {r.returncode}: {r.stderr.strip()}")
            check_axpy(outs)
            r, outs = run("scale", base)
            if r.returncode or not np.array_equal(outs.get("y"), 2 * x):
                raise Fail(f"scale exit {r.returncode}: {r.stderr.strip()}")
            gradcheck(base)

        cases = (("no_device_fake", no_device_fake), ("no_device_real", no_device_real),
                 ("one_device", one_device), ("bench", bench),
                 ("host_only", host_only), ("module_no_device", module_no_device),
                 ("gradcheck", gradcheck))
        if gpu:
            cases = (("real_gpu", real_gpu),)
        return run_cases(cases)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
