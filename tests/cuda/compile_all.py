#!/usr/bin/env python3
"""Every example, stdlib test program, numeric program and benchmark
workload (forward and gradient) emits CUDA that nvcc compiles.

    python3 tests/cuda/compile_all.py PATH/TO/ftc SOURCE_ROOT [-j N] [-k SUBSTRING]

For each .ft in examples/ (and its folders), tests/numeric/stdlib/, tests/numeric/progs/,
tests/cuda/progs/, tests/numeric/layouts/ and bench/ft/, and for each bench/ft/NAME.ft's gradient
(the file with its `# bench-grad: grad ...` line appended, as bench/run
builds it), runs `ftc build X.ft --target cuda --emit=c -o X.cu` and then
`nvcc -arch=sm_90 -Xcompiler -fPIC -shared` on it (N compilations at a
time, default: the number of CPUs).  Any ftc or nvcc error fails the case.
nvcc is $FTC_NVCC, else on PATH, else /usr/local/cuda/bin/nvcc; without it
the test prints why and exits 77 (meson's "skipped").  A gradient that
ftc's autodiff does not support yet ("not supported yet") is reported as
`skip`, not failed.  Prints one line per case with its nvcc time, then
`N passed, M failed` and the total time.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


def find_nvcc():
    env = os.environ.get("FTC_NVCC")
    if env:
        return env
    return shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)


def grad_sources(root, tmp):
    """The gradient programs of the benchmark workloads, written into tmp:
    [(name, path)]."""
    sys.path.insert(0, os.path.join(root, "bench"))
    import workloads as WL
    out = []
    for src in sorted(glob.glob(os.path.join(root, "bench", "ft", "*.ft"))):
        base = os.path.basename(src)[:-3]
        path = os.path.join(tmp, base + "_grad.ft")
        if WL.grad_program(open(src).read(), path):
            out.append((f"bench/ft/{base}.ft (gradient)", path))
    return out


def programs(root, tmp):
    """[(name, path)] of every program to compile."""
    pats = ["examples/*.ft", "examples/*/*.ft", "tests/numeric/stdlib/*.ft", "tests/numeric/progs/*.ft",
            "bench/ft/*.ft", "tests/cuda/progs/*.ft", "tests/numeric/layouts/*.ft"]
    progs = [(os.path.relpath(p, root), p)
             for pat in pats for p in sorted(glob.glob(os.path.join(root, pat)))]
    return progs + grad_sources(root, tmp)


def one(ftc, nvcc, name, prog, tmp):
    """Compile one program: (name, ok, nvcc seconds, why; ok None: skipped)."""
    cu = os.path.join(tmp, re.sub(r"[^A-Za-z0-9_.]", "_", name)[:-3] + ".cu")
    r = subprocess.run([ftc, "build", prog, "--target", "cuda", "--emit=c", "-o", cu],
                       capture_output=True, text=True, errors="replace", timeout=600)
    if r.returncode != 0:
        if name.endswith("(gradient)") and "not supported yet" in r.stderr:
            why = [l for l in r.stderr.splitlines() if "not supported yet" in l][0]
            return name, None, 0.0, why.split("error: ", 1)[-1]
        if name.endswith("c_names.ft") and "clashes with a CUDA C++ keyword" in r.stderr:
            # c_names.ft exports `time`, which <ctime> declares in CUDA C++:
            # a located refusal on that target, not a failure to compile
            why = [l for l in r.stderr.splitlines() if "clashes with" in l][0]
            return name, None, 0.0, why.split("error: ", 1)[-1]
        return name, False, 0.0, "ftc: " + r.stderr[-3000:]
    t0 = time.time()
    r = subprocess.run([nvcc, "-arch=sm_90", "-x", "cu", "-Xcompiler", "-fPIC", "-shared",
                        "-o", cu[:-3] + ".so", cu],
                       capture_output=True, text=True, errors="replace", timeout=600)
    dt = time.time() - t0
    if r.returncode != 0:
        return name, False, dt, "nvcc: " + (r.stdout + r.stderr)[-3000:]
    return name, True, dt, ""


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    ftc, root = os.path.abspath(argv[1]), argv[2]
    jobs = os.cpu_count() or 2
    only = None
    if "-j" in argv:
        jobs = int(argv[argv.index("-j") + 1])
    if "-k" in argv:
        only = argv[argv.index("-k") + 1]
    nvcc = find_nvcc()
    if not nvcc:
        print("skipped: no nvcc (not on PATH, not at /usr/local/cuda/bin/nvcc, $FTC_NVCC "
              "unset): the CUDA compile test needs the CUDA toolkit")
        return SKIP
    t0 = time.time()
    npass = nfail = 0
    with tempfile.TemporaryDirectory(prefix="ftc-cuda-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        progs = [(n, p) for n, p in programs(root, tmp) if not only or only in n]
        futs = [pool.submit(one, ftc, nvcc, n, p, tmp) for n, p in progs]
        for f in futs:
            name, ok, dt, why = f.result()
            if ok is None:
                print(f"skip {name}: {why}")
            elif ok:
                npass += 1
                print(f"ok {name} (nvcc {dt:.1f} s)")
            else:
                nfail += 1
                print(f"FAIL {name}:\n{why}")
    print(f"{npass} passed, {nfail} failed in {time.time() - t0:.1f} s")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
