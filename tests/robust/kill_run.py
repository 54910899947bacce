#!/usr/bin/python3
"""`ftc build` and `ftc run` killed at random moments (issue 18, what to
build 4):

    /usr/bin/python3 tests/robust/kill_run.py PATH/TO/ftc [--seed S] [--trials N] [-v]

Each trial starts one of `ftc build prog.ft -o dst/libk.so`, `ftc run
libk.so fa ... a=out/a.npy b=out/b.npy` (outputs of 8 MB each) or `ftc run
prog.ft fa ...` with a private $TMPDIR, over outputs that already hold
known old bytes, and sends it SIGKILL, SIGINT, SIGTERM or SIGHUP after a random
delay (seeded) between 0 and the command's measured duration.
Then it checks:
- every output is either its old bytes or exactly the bytes of a clean
  run (the reference outputs, checked against NumPy; the reference
  library, the same bytes since builds are reproducible): nothing
  half-written;
- after SIGINT/SIGTERM/SIGHUP: the outputs are all old or all new (the library
  and its header of the same build, both .npy of the same run), no
  temporary is left (destination and $TMPDIR), no process of ftc's
  session (the C compiler) runs on, and ftc died of that signal (or
  finished before it);
- after SIGKILL (which cannot be caught): what is left is only what
  lang/reference.md says SIGKILL may leave (".NAME.ftc-XXXXXX" beside an
  output, "ftc-XXXXXX"/"ftc-run-XXXXXX" in $TMPDIR); the compiler that
  ftc leaves running is killed by the test before the next trial.
Prints a line per failed trial (every trial with -v) and a summary; exits
1 if any trial failed.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as U  # noqa: E402

N = 2 * 1024 * 1024
OLD = b"old bytes, not an output\n"
SIGNALS = (signal.SIGKILL, signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Fail(Exception):
    pass


def check(cond, why):
    """Raise Fail(why) unless cond."""
    if not cond:
        raise Fail(why)


class Setup:
    """The programs, the input, the reference outputs and the commands'
    durations, made once in work by clean runs."""

    def __init__(self, ftc, work):
        self.ftc, self.work = ftc, work
        U.write(f"{work}/prog_a.ft", U.PROG_A)
        x, a, b = U.npy_values(N)
        np.save(f"{work}/x.npy", x)
        ref = f"{work}/ref"
        os.makedirs(f"{ref}/tmp")
        env = U.env_with_tmpdir(f"{ref}/tmp")
        t0 = time.monotonic()
        self.clean([ftc, "build", f"{work}/prog_a.ft", "-o", f"{ref}/libk.so"], env)
        self.t_build = time.monotonic() - t0
        self.lib = f"{ref}/libk.so"
        t0 = time.monotonic()
        self.clean([ftc, "run", self.lib, "fa", f"x={work}/x.npy", f"a={ref}/a.npy",
                    f"b={ref}/b.npy"], env)
        self.t_run = time.monotonic() - t0
        self.t_run_prog = self.t_build + self.t_run
        check(np.array_equal(np.load(f"{ref}/a.npy"), a), "reference a.npy is not 2 x")
        check(np.array_equal(np.load(f"{ref}/b.npy"), b), "reference b.npy is not x + 1")
        self.ref = {n: U.read_bytes(f"{ref}/{n}") for n in ("libk.so", "libk.h", "a.npy", "b.npy")}

    def clean(self, args, env):
        """Run args to completion, checked."""
        p = subprocess.run(args, env=env, capture_output=True, text=True)
        check(p.returncode == 0, f"{' '.join(args)}: exit {p.returncode}: {p.stderr}")


def trial_command(s, kind, dst, env_tmp):
    """The command of a trial of kind, its outputs in dst, and their
    names."""
    run_args = ["fa", f"x={s.work}/x.npy", f"a={dst}/a.npy", f"b={dst}/b.npy"]
    if kind == "build":
        return [s.ftc, "build", f"{s.work}/prog_a.ft", "-o", f"{dst}/libk.so"], \
            ["libk.so", "libk.h"]
    if kind == "run":
        return [s.ftc, "run", s.lib] + run_args, ["a.npy", "b.npy"]
    return [s.ftc, "run", f"{s.work}/prog_a.ft"] + run_args, ["a.npy", "b.npy"]


def check_outputs(s, dst, names, sig):
    """Each output old or exactly new; all old or all new unless SIGKILL."""
    states = []
    for n in names:
        got = U.read_bytes(f"{dst}/{n}")
        check(got in (OLD, s.ref[n]), f"{n} is neither its old bytes nor a complete output "
              f"({'missing' if got is None else len(got)} bytes)")
        states.append(got == OLD)
    if sig != signal.SIGKILL:
        check(len(set(states)) == 1, f"outputs of different runs: {dict(zip(names, states))} "
              "(True: old)")
    return "old" if all(states) else "new" if not any(states) else "mixed"


def check_leftovers(dst, tmp, names, sig):
    """No temporary after SIGINT/SIGTERM/SIGHUP; only recognisable ones after
    SIGKILL."""
    extra = U.leftovers(dst, names)
    in_tmp = os.listdir(tmp)
    if sig != signal.SIGKILL:
        check(not extra, f"left beside the outputs: {extra}")
        check(not in_tmp, f"left in TMPDIR: {in_tmp}")
        return
    check(all(U.TEMP_BESIDE.match(n) for n in extra), f"unrecognisable leftovers: {extra}")
    check(all(U.TEMP_IN_TMPDIR.match(n) for n in in_tmp),
          f"unrecognisable leftovers in TMPDIR: {in_tmp}")


def run_trial(s, rng, i, kind):
    """One trial; a description of what happened (Fail when a check fails)."""
    sig = rng.choice(SIGNALS)
    dur = {"build": s.t_build, "run": s.t_run, "run_prog": s.t_run_prog}[kind]
    delay = rng.uniform(0, dur)
    root = f"{s.work}/t{i}"
    dst, tmp = f"{root}/dst", f"{root}/tmp"
    os.makedirs(dst)
    os.makedirs(tmp)
    args, names = trial_command(s, kind, dst, tmp)
    for n in names:
        with open(f"{dst}/{n}", "wb") as f:
            f.write(OLD)
    proc = U.start(args, U.env_with_tmpdir(tmp))
    time.sleep(delay)
    sent = proc.poll() is None
    if sent:
        proc.send_signal(sig)
    proc.communicate(timeout=120)
    left = U.wait_session_empty(proc.pid, 1.0) if sig != signal.SIGKILL else []
    U.kill_session(proc.pid)
    what = f"{kind} {signal.Signals(sig).name} at {delay:.3f}s"
    check(not left, f"{what}: processes left running after ftc: {left}")
    if sent and sig != signal.SIGKILL:
        check(proc.returncode in (0, -sig), f"{what}: exit {proc.returncode}")
    elif not sent or proc.returncode == 0:
        check(proc.returncode == 0, f"{what}: exit {proc.returncode}")
    try:
        state = check_outputs(s, dst, names, sig)
        check_leftovers(dst, tmp, names, sig)
    except Fail as e:
        raise Fail(f"{what}: {e}")
    shutil.rmtree(root)
    return f"{what}: exit {proc.returncode}, outputs {state}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ftc")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--trials", type=int, default=36)
    ap.add_argument("-v", action="store_true")
    o = ap.parse_args()
    rng = random.Random(o.seed)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="ftc-kill-") as work:
        s = Setup(os.path.abspath(o.ftc), work)
        kinds = ("build", "run", "run_prog")
        for i in range(o.trials):
            try:
                msg = run_trial(s, rng, i, kinds[i % 3])
                if o.v:
                    print(f"ok {i} {msg}")
            except (Fail, subprocess.TimeoutExpired) as e:
                failed += 1
                print(f"FAIL {i}: {e}")
    print(f"{o.trials - failed} of {o.trials} trials passed (seed {o.seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
