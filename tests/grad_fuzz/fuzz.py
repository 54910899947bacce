#!/usr/bin/python3
"""The gradient fuzzer: random small programs (tests/grad_fuzz/gen.py),
their gradients checked in f64 at 1, 2 and 4 threads.

    /usr/bin/python3 tests/grad_fuzz/fuzz.py PATH/TO/ftc SOURCE_ROOT
        [--programs N] [--seed S] [--batch B] [--jobs J] [--found DIR] [--log FILE]
        [--no-shrink] [--no-regress] [-v]

Programs are batched: B functions (default 40), each with its `grad` line,
go into one .ft file built once with `ftc build --promote-f64`, so one C
compiler call serves B programs.  A function ftc rejects with a located
error is taken out of its batch and counted (a refused gradient is a skip,
not a failure; any other rejection of a generated program is a failure);
when ftc crashes or the C compiler fails, the batch is bisected to find
the culprits (J batches, default 2, are built and checked at once).  Each
built function is then checked in a child process
(a crash there names its function) through tests/numeric/ftlib.py and
fdcheck.py: forward and gradient with 1 thread, then with 2 and 4 threads
(OMP_NUM_THREADS through omp_set_num_threads; 4 oversubscribes a 2-core
machine), three runs each; central differences of L = sum(r * outs) on the
first, the last and 6 random elements of every wrt tensor.

Verdicts: ok; skip (refused gradient, non-finite outputs, every checked
element on a kink); failures: `race` (the 2- or 4-thread forward or gradient
differs from the 1-thread one by more than 1e-8 relative, and by more than
100 times what nudging the inputs by 1e-13 does to it (a chaotic program's
reassociated sums move it that far without a race), while 1 thread agrees
with the central differences), `wrong_grad` (1 thread disagrees with
them by more than 1e-6, gradcheck's limit), `runtime_error` (a nonzero code
or a crash of the library), `rejected` (a located error other than a
refused gradient), `ftc_crash`, `cc_error`.  A failing program is shrunk
(statements removed one at a time, all candidates of a round in one build,
while the failure keeps its kind) and written to the --found folder (default:
a temporary folder, printed) as a .ft whose header comment gives its sizes,
seed and verdict; copied into tests/grad_fuzz/regress/, it is re-checked on
every run (--no-regress skips them); `--check FILE.ft` (repeatable, with
--programs 0) checks found programs instead.

Programs have seeds SEED * 1000003 + i, so a run is reproducible
(FTC_GRAD_FUZZ_PROGRAMS overrides the default count, 240;
FTC_GRAD_FUZZ_FLAGS adds `ftc build` flags); prints
one line per failure, then the counts; appends them as a JSON line to --log;
exits 1 on any failure.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "numeric"))

import gen  # noqa: E402

FD_TOL = 1e-6         # gradcheck's limit
# The smallest denominator of an element's error: below 1e-3 a gradient
# passes within 1e-9 absolute (FD_TOL * FD_FLOOR), what central differences
# of a loss summed over thousands of O(1) outputs resolve (their rounding is
# about 1e-16 * |L| / h): a gradient of 8.5e-5 was 2e-6 off at h = 1e-5 and
# 4e-9 at h = 1e-3; `(a[0] - a[0]) * x[i]` gave 1.8e-18 against 0.
FD_FLOOR = 1e-3
THREAD_TOL = 1e-8     # 1 thread against 2 and 4 (f64 sums reassociated)
# ... or SENS_FACTOR times how far a nudge of the inputs moves an output
# (fdcheck.sensitivity), where that is more: a race loses or repeats whole
# updates (relative differences of 1e-3 to 1), far above either.
SENS_FACTOR = 100
THREADS = (1, 2, 4)
REPEAT = 3
# A race shows only when threads overlap, which a loaded machine makes rare:
# the regression programs run with 2 and 4 threads 8 times each.
REGRESS_REPEAT = 8
ELEMS = 8
FAILURES = ("race", "wrong_grad", "runtime_error", "rejected", "ftc_crash", "cc_error")
REFUSALS = ("not supported", "cannot be differentiated", "no derivative", "not differentiable")


# --- building a batch -------------------------------------------------------

class Unit:
    """One function of a batch: name, its text (function and grad line),
    sizes, input seed, wrt names, and where it came from (a Program or a
    regression file)."""

    def __init__(self, name, text, sizes, seed, wrt, origin=None):
        self.name, self.text, self.sizes, self.seed, self.wrt = name, text, sizes, seed, wrt
        self.origin = origin
        self.verdict, self.detail = None, ""
        self.repeat = REPEAT          # runs with 2 and with 4 threads


def build(ftc, units, workdir, tag):
    """`ftc build --promote-f64` (and $FTC_GRAD_FUZZ_FLAGS) of UNITS' texts
    in one file; (return code,
    stderr, library path, {line: unit} of the file's lines)."""
    src = os.path.join(workdir, f"{tag}.ft")
    lib = os.path.join(workdir, f"lib{tag}.so")
    owner, text = {}, []
    for u in units:
        first = len(text) + 1
        text += u.text.splitlines()
        for ln in range(first, len(text) + 1):
            owner[ln] = u
    with open(src, "w") as f:
        f.write("\n".join(text) + "\n")
    try:
        flags = os.environ.get("FTC_GRAD_FUZZ_FLAGS", "").split()
        r = subprocess.run([ftc, "build", src, "--promote-f64", "-o", lib, *flags],
                           capture_output=True, text=True, errors="replace", timeout=900,
                           stdin=subprocess.DEVNULL)
        return r.returncode, r.stderr, lib, owner
    except subprocess.TimeoutExpired:
        return -999, "ftc build timed out after 900 s", lib, owner


def classify_error(msg):
    """`skip` for a refused gradient, else `rejected`."""
    low = msg.lower()
    return "skip" if any(w in low for w in REFUSALS) or "grad" in low.split("error:")[-1][:60] \
        else "rejected"


def build_batch(ftc, units, workdir, tag, counter=None):
    """Build UNITS into one library, taking out those ftc rejects (verdict
    set) and bisecting on crashes and C compiler errors.  Returns [(library,
    units in it)]."""
    counter = counter if counter is not None else [0]
    units = list(units)
    while units:
        counter[0] += 1
        rc, err, lib, owner = build(ftc, units, workdir, f"{tag}_{counter[0]}")
        if rc == 0:
            return [(lib, units)]
        located = {}
        if rc > 0 and "internal error" not in err:
            for m in re.finditer(r"^[^\n:]+\.ft:(\d+):\d+: error: (.*)$", err, re.M):
                u = owner.get(int(m.group(1)))
                if u is not None and u not in located:
                    located[u] = m.group(2)
        if not located:
            return bisect(ftc, units, workdir, tag, counter, rc, err)
        for u, msg in located.items():
            u.verdict, u.detail = classify_error(msg), msg
        units = [u for u in units if u not in located]
    return []


def bisect(ftc, units, workdir, tag, counter, rc, err):
    """A batch that failed without a located error: one unit is the
    culprit (its verdict ftc_crash or cc_error); more are split in two."""
    if len(units) == 1:
        u = units[0]
        located = re.findall(r"\.ft:\d+:\d+: error: (.*)", err)
        u.verdict = "ftc_crash" if rc < 0 or "internal error" in err else \
            classify_error(located[0]) if located else "cc_error"
        u.detail = f"exit {rc}: " + " | ".join(err.strip().splitlines()[-4:])
        return []
    h = len(units) // 2
    return build_batch(ftc, units[:h], workdir, tag, counter) + \
        build_batch(ftc, units[h:], workdir, tag, counter)


# --- checking a library (in a child process) --------------------------------

def thread_differences(chk, res, rng):
    """The outputs and gradients of RES whose 2- or 4-thread values differ
    from the 1-thread ones by more than THREAD_TOL and by more than
    SENS_FACTOR times what a nudge of the inputs by rounding moves them
    (fdcheck.sensitivity, measured only when something differs): a
    reassociated sum in a chaotic program is no race.  ["NAME at T threads:
    DIFF (tolerance TOL)"]."""
    import fdcheck
    import ftlib
    diffs = {t: {**res.fwd_diff[t], **{"d_" + w: v for w, v in res.grad_diff[t].items()}}
             for t in THREADS[1:]}
    if all(d <= THREAD_TOL for t in diffs for d in diffs[t].values()):
        return []
    ftlib.set_threads(THREADS[0])
    sf, sg = fdcheck.sensitivity(chk, rng, FD_FLOOR)
    sens = {**sf, **{"d_" + w: v for w, v in sg.items()}}
    tol = {k: max(THREAD_TOL, SENS_FACTOR * sens.get(k, 0.0)) for k in diffs[THREADS[1]]}
    return [f"{k} at {t} threads: {d:.3g}" + (f" (tolerance {tol[k]:.2g})" if tol[k] > THREAD_TOL
                                                 else "")
            for t in THREADS[1:] for k, d in diffs[t].items() if not d <= tol[k]]


def check_one(lib, spec):
    """The verdict of one function of LIB (see the module comment):
    (verdict, detail)."""
    import numpy as np
    import fdcheck
    f, g = lib.func(spec["name"]), lib.func(spec["name"] + "_grad")
    sizes = spec["sizes"]
    rng = np.random.default_rng(spec["seed"])
    given = {}
    if "idx" in f.shapes(sizes):
        given["idx"] = rng.integers(0, sizes["m"], sizes["n"])
    inputs = fdcheck.random_inputs(f, sizes, rng, given)
    chk = fdcheck.Check(f, g, sizes, inputs, spec["wrt"], rng)
    res = fdcheck.check_gradient(chk, THREADS, ELEMS, rng, kink_tol=FD_TOL,
                                 repeat=spec.get("repeat", REPEAT), floor=FD_FLOOR)
    bad = {t: c for t, c in res.codes.items() if c != (0, 0)}
    if bad:
        return "runtime_error", f"codes (forward, gradient) by threads: {bad}"
    rc, outs = chk.forward()
    if not all(np.isfinite(v).all() for v in outs.values()):
        return "skip_nonfinite", ""
    races = thread_differences(chk, res, rng)
    e1 = res.errors[THREADS[0]]
    wrong = {w: e for w, e in e1.items() if not e[0] <= FD_TOL}
    if wrong:
        return "wrong_grad", "; ".join(
            f"d_{w}[{e[1]}]: analytic {e[2]:.10g}, central differences {e[3]:.10g} "
            f"(error {e[0]:.3g})" for w, e in wrong.items()) + \
            (f"; also differs by threads: {', '.join(races)}" if races else "")
    if races:
        worst = {t: {w: f"{e[0]:.3g}" for w, e in res.errors[t].items()} for t in THREADS[1:]}
        return "race", f"differs from 1 thread: {', '.join(races)}; errors against " \
            f"central differences by threads: {worst}"
    if res.kinks and all(e[1] < 0 for e in e1.values()):
        return "skip_kinks", ""
    return "ok", f"{len(res.kinks)} kinks" if res.kinks else ""


def child_main(lib_path):
    """--child LIB: read a JSON list of specs from stdin, print one JSON
    line per function as it is done (flushed, so the parent knows which
    one crashed)."""
    import ftlib
    lib = ftlib.Library(lib_path)
    for spec in json.load(sys.stdin):
        print(json.dumps({"name": spec["name"], "start": True}), flush=True)
        try:
            v, d = check_one(lib, spec)
        except Exception as e:                  # noqa: BLE001 (reported, not hidden)
            v, d = "runtime_error", f"{type(e).__name__}: {e}"
        print(json.dumps({"name": spec["name"], "verdict": v, "detail": d}), flush=True)
    return 0


def check_lib(lib, units, timeout):
    """Check UNITS of library LIB in child processes; sets each verdict (a
    child that dies fails the function it was checking, and a new child
    takes the rest)."""
    todo = list(units)
    while todo:
        specs = [{"name": u.name, "sizes": u.sizes, "seed": u.seed, "wrt": u.wrt,
                  "repeat": u.repeat} for u in todo]
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", lib],
                               input=json.dumps(specs), capture_output=True, text=True,
                               timeout=timeout, errors="replace")
            out, died = r.stdout, r.returncode != 0
            why = f"the checking process exited {r.returncode}: " + \
                " | ".join(r.stderr.strip().splitlines()[-3:])
        except subprocess.TimeoutExpired as e:
            out, died = (e.stdout or b"").decode(errors="replace") if isinstance(
                e.stdout, bytes) else (e.stdout or ""), True
            why = f"timed out after {timeout} s"
        byname = {u.name: u for u in todo}
        started = None
        for line in out.splitlines():
            try:
                j = json.loads(line)
            except ValueError:
                continue
            if j.get("start"):
                started = j["name"]
            else:
                byname[j["name"]].verdict, byname[j["name"]].detail = j["verdict"], j["detail"]
                started = None
        if died and started is not None:
            byname[started].verdict, byname[started].detail = "runtime_error", why
        elif died and all(u.verdict is None for u in todo):
            for u in todo:
                u.verdict, u.detail = "runtime_error", why
        todo = [u for u in todo if u.verdict is None]


def run_units(ftc, units, workdir, tag, timeout=600):
    """Build and check UNITS (verdicts set on each); the number built."""
    built = 0
    for lib, ok in build_batch(ftc, units, workdir, tag):
        built += len(ok)
        check_lib(lib, ok, timeout)
    return built


# --- shrinking ----------------------------------------------------------------

def deletions(body):
    """Every body with one statement (at any depth) removed."""
    for i, s in enumerate(body):
        yield body[:i] + body[i + 1:]
        for sub in deletions(s.body or []):
            yield body[:i] + [gen.Stmt(s.head, sub)] + body[i + 1:]


def candidates(prog, sizes):
    """Smaller variants of PROG at SIZES: either half of a body of more
    than 3 statements, one statement fewer, one wrt fewer, tape auto, one
    time step.  [(Program, sizes)]."""
    body = prog.body
    chunks = [body[:len(body) // 2], body[len(body) // 2:]] if len(body) > 3 else []
    out = [(gen.Program(prog.name, b, prog.wrt, prog.tape), sizes)
           for b in chunks + list(deletions(body))]
    if len(prog.wrt) > 1:
        out += [(gen.Program(prog.name, prog.body, [v for v in prog.wrt if v != w], prog.tape),
                 sizes) for w in prog.wrt]
    if prog.tape != "auto":
        out.append((gen.Program(prog.name, prog.body, prog.wrt, "auto"), sizes))
    if sizes["steps"] > 1:
        out.append((prog, {**sizes, "steps": 1}))
    return out


def same_failure(kind, verdict):
    """Whether a candidate's VERDICT keeps the failure KIND (a race may show
    as a wrong gradient too, and the reverse)."""
    close = {"race", "wrong_grad"}
    return verdict == kind or (kind in close and verdict in close)


def shrink(ftc, prog, sizes, seed, kind, workdir, log, rounds=30):
    """PROG (failing with KIND at SIZES, input seed SEED) shrunk by rounds
    of candidates, each round built as one batch; returns (program, sizes,
    unit) of the smallest that still fails."""
    best, best_sizes, best_unit = prog, sizes, None
    for rnd in range(rounds):
        cands = candidates(best, best_sizes)
        units = [Unit(f"{prog.name}_s{rnd}_{i}", p.render(f"{prog.name}_s{rnd}_{i}"), s, seed,
                      p.wrt, (p, s)) for i, (p, s) in enumerate(cands)]
        run_units(ftc, units, workdir, f"shrink_{prog.name}_{rnd}")
        failing = [u for u in units if same_failure(kind, u.verdict)]
        log(f"  shrink {prog.name} round {rnd}: {len(units)} candidates, {len(failing)} fail")
        if not failing:
            break
        u = min(failing, key=lambda u: (u.origin[0].size(), len(u.origin[0].wrt),
                                        u.origin[1]["steps"]))
        best, best_sizes, best_unit = u.origin[0], u.origin[1], u
    return best, best_sizes, best_unit


def write_found(folder, name, prog, sizes, seed, verdict, detail):
    """The shrunk program as FOLDER/NAME.ft with its header; the path."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".ft")
    head = [f"# grad_fuzz: {verdict}: {detail}",
            "# sizes: " + " ".join(f"{k}={v}" for k, v in sizes.items()),
            f"# seed: {seed}"]
    with open(path, "w") as f:
        f.write("\n".join(h[:2000] for h in head) + "\n" + prog.render(name))
    return path


# --- regression programs ------------------------------------------------------

def regress_units(folder):
    """The programs of FOLDER/*.ft (written by write_found, function named
    as the file) as Units."""
    if not os.path.isdir(folder):
        return []
    return [program_unit(os.path.join(folder, fn)) for fn in sorted(os.listdir(folder))
            if fn.endswith(".ft")]


def program_unit(path):
    """The program of PATH (written by write_found, its function named as
    the file) as a Unit."""
    text = open(path).read()
    sizes = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)",
                 re.search(r"^# sizes: (.*)$", text, re.M).group(1)))
    seed = int(re.search(r"^# seed: (\d+)$", text, re.M).group(1))
    wrt = [w.strip() for w in re.search(r"^grad \w+ wrt ([\w, ]+?)( tape \w+)? ->",
                                        text, re.M).group(1).split(",")]
    u = Unit(os.path.basename(path)[:-3], text, sizes, seed, wrt, path)
    u.repeat = REGRESS_REPEAT
    return u


# --- the campaign -------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ftc")
    ap.add_argument("root")
    ap.add_argument("--programs", type=int,
                    default=int(os.environ.get("FTC_GRAD_FUZZ_PROGRAMS", "240")))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--found", default=None)
    ap.add_argument("--log", default=None)
    ap.add_argument("--jobs", type=int, default=2, help="batches built and checked at once")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--max-shrink", type=int, default=2,
                    help="failures shrunk per verdict (the rest are reported as found)")
    ap.add_argument("--no-shrink-kind", action="append", default=[],
                    help="a verdict not to shrink (a campaign's known failure)")
    ap.add_argument("--no-regress", action="store_true")
    ap.add_argument("--check", action="append", default=[], metavar="FILE.ft",
                    help="check this program (as written by --found) instead of regress/")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    ftc = os.path.abspath(a.ftc)
    t0 = time.time()
    counts = {"generated": 0, "built": 0, "checked": 0}

    def log(msg):
        print(msg, flush=True)

    work = tempfile.mkdtemp(prefix="ftc-gradfuzz-")
    found = a.found or os.path.join(work, "found")
    failures = 0
    shrunk = {}

    def tally(units):
        nonlocal failures
        for u in units:
            counts[u.verdict] = counts.get(u.verdict, 0) + 1
            if u.verdict in ("ok", "race", "wrong_grad", "skip_kinks", "skip_nonfinite"):
                counts["checked"] += 1
            if u.verdict in FAILURES:
                failures += 1
            if a.v or u.verdict in FAILURES:
                log(f"{'FAIL' if u.verdict in FAILURES else 'ok'} {u.name}: {u.verdict}"
                    + (f": {u.detail}" if u.detail else ""))

    if not a.no_regress or a.check:
        units = [program_unit(p) for p in a.check] if a.check else \
            regress_units(os.path.join(HERE, "regress"))
        if units:
            run_units(ftc, units, work, "regress")
            for u in units:
                u.name = "regress/" + u.name
            tally(units)
            log(f"{len(units)} regression programs checked")
    def batch(start):
        """Generate, build and check the programs from START on: (units,
        number built)."""
        units = []
        for i in range(start, min(a.programs, start + a.batch)):
            seed = a.seed * 1000003 + i
            prog, sizes = gen.program(seed, f"fz{i}")   # (a function f32 would hide the dtype)
            units.append(Unit(prog.name, prog.render(), sizes, seed, prog.wrt, (prog, sizes)))
        return units, run_units(ftc, units, work, f"b{start}")

    # --jobs batches at a time (each build is one C compiler process and
    # each check one Python process); tallied and shrunk in order.
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for units, built in pool.map(batch, range(0, a.programs, a.batch)):
            counts["generated"] += len(units)
            counts["built"] += built
            tally(units)
            for u in units:
                if u.verdict in FAILURES and not a.no_shrink and \
                        u.verdict not in a.no_shrink_kind and \
                        shrunk.get(u.verdict, 0) < a.max_shrink:
                    shrunk[u.verdict] = shrunk.get(u.verdict, 0) + 1
                    prog, sizes = u.origin
                    sp, ss, su = shrink(ftc, prog, sizes, u.seed, u.verdict, work, log)
                    verdict, detail = (su.verdict, su.detail) if su else (u.verdict, u.detail)
                    path = write_found(found, f"s{a.seed}_{u.name}", sp, ss, u.seed, verdict,
                                       detail)
                    log(f"  shrunk {u.name} ({prog.size()} -> {sp.size()} statements): {path}")
            log(f"after {counts['generated']} programs ({time.time() - t0:.0f} s): "
                + ", ".join(f"{k} {v}" for k, v in counts.items()))
    counts["seconds"] = round(time.time() - t0)
    counts["seed"] = a.seed
    log("counts: " + json.dumps(counts))
    if a.log:
        with open(a.log, "a") as f:
            f.write(json.dumps(counts) + "\n")
    if failures:
        log(f"{failures} failures" + (f"; shrunk programs in {found}" if os.path.isdir(found)
                                      and os.listdir(found) else ""))
    clean(work, keep=os.path.join(work, "found"))
    return 1 if failures else 0


def clean(work, keep):
    """Remove the batches' files from WORK, all but the folder KEEP (when
    it has files); WORK itself when nothing is kept."""
    for fn in os.listdir(work):
        p = os.path.join(work, fn)
        if p != keep:
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    if not os.path.isdir(keep) or not os.listdir(keep):
        shutil.rmtree(work)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        sys.exit(child_main(sys.argv[2]))
    sys.exit(main())
