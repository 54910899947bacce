#!/usr/bin/python3
"""`bench/run --target cuda` without a GPU.

    /usr/bin/python3 tests/cuda/bench_cuda.py PATH/TO/ftc SOURCE_ROOT

1. `bench/run --target cuda --emulate` (needs PyTorch, CPU build is enough):
   the four workloads and their gradients built from the `@ gpu` copies of
   bench/ft with tests/cuda/fake_nvcc, called through ctypes with tensors'
   data_ptr() as device pointers; asserts exit status 0, every check line
   `ok` (ftc's forward against NumPy and PyTorch, ftc's gradients against
   PyTorch's autograd), and the table's 8 rows with an ftc time and "n/a
   (CPU only)" for hand C.
2. `bench/run --target cuda --quick` with the real nvcc (when there is one)
   on this machine without a GPU: asserts exit status 3, the one line
   "bench/run: no GPU here (...)" saying that all 8 libraries were built.
   (On a machine with a GPU this part is skipped: tests/gpu/run runs it.)
Exits 77 (skipped) when neither part can run, 1 when a check failed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg, out=""):
    print("FAIL " + msg)
    if out:
        print(out[-4000:])
    return 1


def emulated(ftc, root, res):
    """Part 1; -> 0 ok, 1 failed."""
    r = subprocess.run(["/usr/bin/python3", os.path.join(root, "bench", "run"), "--target", "cuda",
                        "--emulate", "--ftc", ftc, "--results", res],
                       capture_output=True, text=True, timeout=1100)
    out = r.stdout + r.stderr
    if r.returncode != 0:
        return fail(f"bench/run --target cuda --emulate: exit status {r.returncode}", out)
    checks = [l for l in r.stderr.splitlines() if re.match(r"\s+(ftc|torch)\s+fwd", l)]
    bad = [l for l in checks if not l.rstrip().endswith(" ok")]
    ftc_checks = [l for l in checks if l.split()[0] == "ftc"]
    if bad or len(ftc_checks) != 8:
        return fail(f"--emulate: {len(ftc_checks)} ftc checks (want 8), not ok: {bad}", out)
    rows = [l for l in r.stdout.splitlines()
            if re.match(r"(subdivnet|longformer|softras|gat)\s", l)]
    if len(rows) != 8:
        return fail(f"--emulate: {len(rows)} table rows, want 8", out)
    for l in rows:
        m = re.search(r"\s(fwd\+bwd|fwd)\s+([0-9.]+)\s+([0-9.]+)\s+n/a \(CPU only\)", l)
        if not m:
            return fail(f"--emulate: row without ftc and torch times and hand C n/a: {l}", out)
    if "EMULATED" not in r.stdout:
        return fail("--emulate: the table does not say it was emulated", out)
    print(f"ok bench/run --target cuda --emulate: {len(checks)} checks, 8 rows")
    return 0


def no_gpu(ftc, root, res):
    """Part 2; -> 0 ok, 1 failed."""
    r = subprocess.run(["/usr/bin/python3", os.path.join(root, "bench", "run"), "--target", "cuda",
                        "--quick", "--ftc", ftc, "--results", res],
                       capture_output=True, text=True, timeout=1100)
    out = r.stdout + r.stderr
    lines = [l for l in r.stdout.splitlines() if l.startswith("bench/run: no GPU here (")]
    if r.returncode != 3 or len(lines) != 1:
        return fail(f"bench/run --target cuda --quick: exit status {r.returncode} (want 3), "
                    f"{len(lines)} 'no GPU here' lines", out)
    if "built 8 CUDA libraries of 4 workloads" not in lines[0]:
        return fail("bench/run --target cuda --quick: not everything built: " + lines[0], out)
    if os.listdir(res):
        return fail("bench/run --target cuda --quick without a GPU wrote results", out)
    print("ok " + lines[0])
    return 0


def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    r = subprocess.run([smi, "-L"], capture_output=True, text=True)
    return "GPU" in r.stdout


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    try:
        import torch  # noqa: F401
        torch_ok = True
    except ImportError:
        torch_ok = False
    nvcc = os.environ.get("FTC_NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    nvcc_ok = os.access(nvcc, os.X_OK) and "fake_nvcc" not in nvcc
    ran, status = 0, 0
    with tempfile.TemporaryDirectory(prefix="ftc-bench-cuda-") as d:
        if torch_ok:
            os.mkdir(os.path.join(d, "emu"))
            status |= emulated(ftc, root, os.path.join(d, "emu"))
            ran += 1
        else:
            print("skip --emulate: no PyTorch (python3-torch)")
        if nvcc_ok and not have_gpu():
            os.mkdir(os.path.join(d, "nogpu"))
            status |= no_gpu(ftc, root, os.path.join(d, "nogpu"))
            ran += 1
        else:
            print("skip the no-GPU run: " + ("a GPU is here" if nvcc_ok else "no nvcc"))
    if not ran:
        return 77
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
