#!/usr/bin/python3
"""Every dump is valid .ft: `--dump-after=PASS` of every program, for every
pass, compiles again; for a sample, the dump computes what the program does.

    /usr/bin/python3 tests/dumps/run.py PATH/TO/ftc SOURCE_ROOT [-k SUBSTRING] [-v] [-j N]

The programs: tests/golden/*.ft (but the .err cases and the *.inc.ft that
others include; each with the arguments of its `# ftc-args:` line),
tests/numeric/progs/*.ft, examples/*.ft and the bench programs (bench/ft/,
bench/longformer_elem.ft).  The passes: the list that `ftc --help` prints
after "passes for --dump-after:".

For each program and pass, `ftc build PROG --dump-after=PASS` must exit 0
(the program compiles, so its dump must print), and `ftc check DUMP` must
exit 0: a dump that does not compile again is a failure naming the program,
the pass and ftc's first error.

The sample (every program of tests/numeric/progs/ and examples/, after the
pass `auto`, which follows every cleanup and the schedules): the first
SAMPLE_FUNCS exported functions of the dump are run with `ftc run --random` (seed
1, every size 7, one thread, -O1 to keep the C compiler quick) on the program and on the dump; a function the
program itself refuses to run at those sizes (an assert, a shape
contract) must be refused by the dump with the same message (`refusal`)
and is not counted, and at least MIN_SAMPLE functions must be compared.  The halves of a
gradient (g_fwd, g_bwd: a `tape` parameter) are compared through the
combined gradient g only: before pack_tapes a dump passes their tape's
regions as parameters of their own (ast_print_func), another ABI.
The outputs (every .npy of --out-dir) must have the same names and shapes
and agree within NumPy's allclose (rtol 1e-4, atol 1e-5): a dump may not
change what a function computes.  The reference is the program as written,
compiled by ftc's whole pipeline; a dump printed wrong (a lost statement, a
renamed tensor read in the wrong scope) changes the numbers.

The work runs on -j workers (default 2).  Prints one line per failure and a
summary `N dumps checked, M functions compared, K failed`; exits 1 if any
failed.
"""
import concurrent.futures
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

TIMEOUT = 120
SAMPLE_PASSES = ("auto",)
SAMPLE_FUNCS = 2
MIN_SAMPLE = 60
CFLAGS = "-O1 -fopenmp"
SIZE = 7


def run(args, env=None):
    """Run ARGS (stdin closed): (exit status, stdout, stderr); a time-out is
    status -1000 with a message."""
    try:
        r = subprocess.run(args, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=env)
    except subprocess.TimeoutExpired:
        return -1000, "", f"timed out after {TIMEOUT} s"
    return r.returncode, r.stdout, r.stderr


def first_error(text):
    """The first diagnostic of ftc's stderr, with its source and caret lines."""
    lines = text.rstrip("\n").splitlines()
    for i, l in enumerate(lines):
        if "error" in l:
            return " | ".join(lines[i:i + 3])
    return " | ".join(lines[-3:]) if lines else "(no message)"


def header_args(path):
    """The arguments of a golden's `# ftc-args:` line ({dir}: its folder),
    but its --dump-after (each pass is dumped here)."""
    with open(path, errors="replace") as f:
        for line in f.read().splitlines()[:10]:
            m = re.match(r"\s*#\s*ftc-args:(.*)$", line)
            if m:
                return [a.replace("{dir}", os.path.dirname(path))
                        for a in shlex.split(m.group(1))
                        if not a.startswith("--dump-after")]
    return []


def cuda_only(path):
    """Whether the program binds loops to CUDA blocks or threads (it builds
    for --target cuda only)."""
    with open(path, errors="replace") as f:
        return re.search(r"\b(blockIdx|threadIdx)\.", f.read()) is not None


def programs(root):
    """(path, extra ftc arguments, sampled) of every program checked: a
    golden with a .cu expected output also for --target cuda, one binding
    CUDA indices for --target cuda only."""
    out = []
    for p in sorted(glob.glob(os.path.join(root, "tests/golden/**/*.ft"), recursive=True)):
        if p.endswith(".inc.ft") or os.path.exists(p[:-3] + ".err"):
            continue
        if not cuda_only(p):
            out.append((p, header_args(p), False))
        if cuda_only(p) or os.path.exists(p[:-3] + ".cu"):
            out.append((p, header_args(p) + ["--target", "cuda"], False))
    for pattern in ("tests/numeric/progs/*.ft", "examples/*.ft"):
        out += [(p, [], True) for p in sorted(glob.glob(os.path.join(root, pattern)))]
    for pattern in ("bench/ft/*.ft", "bench/*.ft"):
        out += [(p, [], False) for p in sorted(glob.glob(os.path.join(root, pattern)))]
    return out


def passes(ftc):
    """The pass names `ftc --help` lists for --dump-after."""
    _, out, err = run([ftc, "--help"])
    m = re.search(r"passes for --dump-after:\s*(.*)", out + err)
    if not m:
        sys.exit("dumps: `ftc --help` lists no passes for --dump-after")
    return [p.strip() for p in m.group(1).split(",") if p.strip()]


def functions(dump):
    """(name, [(param, is_size)]) of each exported function of a dump."""
    out = []
    for m in re.finditer(r"^export func (\w+)\((.*)\):$", dump, re.M):
        params = []
        for p in re.split(r",\s*(?![^\[]*\])", m.group(2)):
            name, _, ty = p.partition(":")
            params.append((name.strip(), ty.strip() == "size"))
        out.append((m.group(1), params))
    return out


def run_outputs(ftc, prog, func, params, extra, d):
    """`ftc run --random` of func; the dict of its outputs, or the failure
    message."""
    sizes = [f"{n}={SIZE}" for n, is_size in params if is_size]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    defines = [a for i, a in enumerate(extra)
               if a.startswith("-D") or (i and extra[i - 1] == "-D")]
    rc, _, err = run([ftc, "run", prog, func, *sizes, "--random", "--seed", "1",
                      "--no-print", "--out-dir", d, "--cflags", CFLAGS, *defines], env)
    if rc != 0:
        return first_error(err)
    return {f[:-4]: np.load(os.path.join(d, f)) for f in sorted(os.listdir(d))}


def refusal(first):
    """The text of a run-time refusal (first_error's line) that a dump must
    repeat: the message after "error: ", without the assert's text and
    place, and without the operator's name that a stdlib contract's message
    starts with (the dump inlined the operator: its assert is the
    program's); an assert without a message by its values only (the dump
    prints its condition as lowered: `x >= 0.0`)."""
    m = re.search(r"error: (.*?)(?: \(assert `.*)?(?: \| |$)", first)
    text = m.group(1) if m else first
    if " in stdlib/" in first:
        text = re.sub(r"^\w+: ", "", text)
    return re.sub(r"^assert `.*` failed: ", "assert failed: ", text)


def compare(ftc, prog, extra, dump_path, func, params):
    """None when the dump's func computes what the program's does, else why;
    "skip" when the program itself does not run at the sample's sizes, once
    the dump refused with the same message (an assert's message survives
    the dump)."""
    with tempfile.TemporaryDirectory(prefix="ftc-dumps-") as d:
        os.makedirs(os.path.join(d, "a"))
        os.makedirs(os.path.join(d, "b"))
        want = run_outputs(ftc, prog, func, params, extra, os.path.join(d, "a"))
        got = run_outputs(ftc, dump_path, func, params, [], os.path.join(d, "b"))
    if isinstance(want, str):
        if not isinstance(got, str) or refusal(got) != refusal(want):
            return f"{func}: the program refuses ({want}), the dump " + \
                (f"refuses otherwise ({got})" if isinstance(got, str) else "runs")
        return "skip"
    if isinstance(got, str):
        return f"the dump's {func} does not run: {got}"
    if sorted(want) != sorted(got):
        return f"{func}: outputs {sorted(got)}, expected {sorted(want)}"
    for k in want:
        a, b = want[k], got[k]
        if a.shape != b.shape:
            return f"{func}: {k} has shape {b.shape}, expected {a.shape}"
        if not np.allclose(b.astype(np.float64), a.astype(np.float64), rtol=1e-4,
                           atol=1e-5, equal_nan=True):
            i = np.unravel_index(np.argmax(np.abs(b.astype(np.float64) - a)), a.shape)
            return f"{func}: {k}{list(i)} is {b[i]}, expected {a[i]}"
    return None


def check(ftc, prog, extra, sampled, pas, root):
    """Dump prog after pas, compile the dump again, and for a sampled pair
    compare the numbers: (failures, number compared)."""
    rel = os.path.relpath(prog, root) + (" (cuda)" if "cuda" in extra else "")
    rc, out, err = run([ftc, "build", prog, f"--dump-after={pas}", *extra])
    if rc != 0:
        return [f"FAIL {rel} after {pas}: `ftc build --dump-after` exited {rc}: "
                f"{first_error(err)}"], 0
    with tempfile.TemporaryDirectory(prefix="ftc-dumps-") as d:
        dump_path = os.path.join(d, os.path.basename(prog))
        with open(dump_path, "w") as f:
            f.write(out)
        cuda = ["--target", "cuda", "--emit=c"] if "cuda" in extra else []
        rc, _, err = run([ftc, "build" if cuda else "check", dump_path, *cuda])
        if rc != 0:
            return [f"FAIL {rel} after {pas}: the dump does not compile: "
                    f"{first_error(err).replace(d + '/', '')}"], 0
        if not sampled or pas not in SAMPLE_PASSES:
            return [], 0
        fails, n = [], 0
        for func, params in [fp for fp in functions(out)
                             if all(n != "tape" for n, _ in fp[1])][:SAMPLE_FUNCS]:
            why = compare(ftc, prog, extra, dump_path, func, params)
            if why == "skip":
                continue
            n += 1
            if why:
                fails.append(f"FAIL {rel} after {pas}: {why}")
        return fails, n


def main():
    argv = sys.argv[1:]
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    pattern, jobs = "", 2
    for flag in ("-k", "-j"):
        if flag in argv:
            i = argv.index(flag)
            val = argv[i + 1]
            del argv[i:i + 2]
            if flag == "-k":
                pattern = val
            else:
                jobs = int(val)
    if len(argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    ftc, root = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    if not os.access(ftc, os.X_OK):
        sys.exit(f"dumps: no ftc binary at {ftc}")
    work = [(p, extra, sampled, pas) for p, extra, sampled in programs(root)
            if pattern in os.path.relpath(p, root) for pas in passes(ftc)]
    failed, compared = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for fails, n in ex.map(lambda w: check(ftc, *w, root), work):
            failed += fails
            compared += n
            for line in fails:
                print(line, flush=True)
    if verbose:
        print(f"programs: {len(work) // max(1, len(passes(ftc)))}")
    print(f"{len(work)} dumps checked, {compared} functions compared, {len(failed)} failed")
    if not pattern and compared < MIN_SAMPLE:
        print(f"FAIL only {compared} functions compared (at least {MIN_SAMPLE} expected)")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
