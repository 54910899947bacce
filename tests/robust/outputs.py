#!/usr/bin/python3
"""All-or-nothing outputs of `ftc build` and `ftc run` (issue 18, found 5),
case by case:

    /usr/bin/python3 tests/robust/outputs.py PATH/TO/ftc [-v]

- run_second_fails: an output that cannot be written leaves the others
  (and what was at their paths) untouched;
- run_write_error: a write error (a file-size limit) leaves the file that
  was at the path, where `ftc run` used to remove it;
- emit_c_write_error, build_write_error: the same for `ftc build
  --emit=c -o x.c` (which used to remove x.c) and for a build (whose
  write error was silent);
- run_special_paths: an output to /dev/null is written in place (the
  device stays), one to a symlink replaces the link's target;
- build_reproducible: the same program built to two paths (also with -g)
  gives the same bytes;
- build_waits_for_lock: the renames wait for an exclusive flock of the
  destination folder (a reader holding it sees a consistent pair);
  build_sigint_at_lock: SIGINT while waiting for it ends the build;
- build_concurrent: two programs built to one path at once leave the
  header and the library of the same build, round after round;
- build_sigint, run_sigterm: a signal while the C compiler runs stops the
  compiler, leaves no temporary (destination, private $TMPDIR) and the
  old outputs as they were, and ftc dies of that signal;
- build_sigterm_compiler_leftovers, build_failed_compiler_leftovers: files
  and folders a compiler leaves in its $TMPDIR (as collect2 does when
  SIGTERM stops it) go with ftc's private folder, on a signal and when
  the compiler fails.

Every expectation is written here (old bytes kept, NumPy's values, the
reference builds' bytes).  Prints `ok NAME` or `FAIL NAME: why` per case,
then `N passed, M failed`; exits 1 if any case failed.
"""
import fcntl
import os
import shutil
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as U  # noqa: E402

VERBOSE = "-v" in sys.argv
FTC = os.path.abspath([a for a in sys.argv[1:] if a != "-v"][0])
OLD = b"old bytes, not an output\n"


class Fail(Exception):
    pass


def check(cond, why):
    """Raise Fail(why) unless cond."""
    if not cond:
        raise Fail(why)


def ftc(args, env, expect_ok=True, **kw):
    """Run ftc to completion; its CompletedProcess (checked when expect_ok)."""
    p = subprocess.run([FTC] + args, env=env, capture_output=True, text=True, **kw)
    if VERBOSE:
        print("  $ ftc", " ".join(args), "->", p.returncode, p.stderr.strip()[:300])
    if expect_ok:
        check(p.returncode == 0, f"ftc {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p


def setup(work):
    """prog_a.ft, prog_b.ft, prog_big.ft and x.npy (n = 1000) in work, a private
    TMPDIR; returns the environment."""
    U.write(f"{work}/prog_a.ft", U.PROG_A)
    U.write(f"{work}/prog_b.ft", U.PROG_B)
    U.write(f"{work}/prog_big.ft", U.prog_big(10))
    x, _, _ = U.npy_values(1000)
    np.save(f"{work}/x.npy", x)
    os.mkdir(f"{work}/tmp")
    return U.env_with_tmpdir(f"{work}/tmp")


def built(work, env, name, prog="prog_a.ft"):
    """Build prog into work/NAME/libk.so; its path."""
    os.makedirs(f"{work}/{name}", exist_ok=True)
    so = f"{work}/{name}/libk.so"
    ftc(["build", f"{work}/{prog}", "-o", so], env)
    return so


def no_temps(work, env, folders):
    """Check that folders (under work) and the private TMPDIR hold no
    temporary."""
    for d in folders:
        bad = [n for n in os.listdir(f"{work}/{d}") if ".ftc-" in n]
        check(not bad, f"temporaries left in {d}: {bad}")
    check(not os.listdir(env["TMPDIR"]), f"left in TMPDIR: {os.listdir(env['TMPDIR'])}")


def case_run_second_fails(work, env):
    so = built(work, env, "lib")
    os.mkdir(f"{work}/out")
    U.write(f"{work}/out/a.npy", OLD.decode())
    p = ftc(["run", so, "fa", f"x={work}/x.npy", f"a={work}/out/a.npy",
             f"b={work}/no-such-folder/b.npy"], env, expect_ok=False)
    check(p.returncode == 1, f"exit {p.returncode}, expected 1")
    check("no-such-folder" in p.stderr, f"the error names the path: {p.stderr}")
    check(U.read_bytes(f"{work}/out/a.npy") == OLD, "a.npy was replaced though b failed")
    no_temps(work, env, ["out"])


def limit_file_size():
    """In the child: files at most 2000 bytes, and SIGXFSZ ignored, so that
    a longer write fails with EFBIG."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def case_run_write_error(work, env):
    so = built(work, env, "lib")
    os.mkdir(f"{work}/out")
    for n in ("a", "b"):
        U.write(f"{work}/out/{n}.npy", OLD.decode())
    p = ftc(["run", so, "fa", f"x={work}/x.npy", f"a={work}/out/a.npy",
             f"b={work}/out/b.npy"], env, expect_ok=False, preexec_fn=limit_file_size)
    check(p.returncode == 1, f"exit {p.returncode}, expected 1: {p.stderr}")
    for n in ("a", "b"):
        check(U.read_bytes(f"{work}/out/{n}.npy") == OLD, f"{n}.npy lost its old bytes")
    no_temps(work, env, ["out"])


def case_emit_c_write_error(work, env):
    os.mkdir(f"{work}/out")
    U.write(f"{work}/out/k.c", OLD.decode())
    p = ftc(["build", f"{work}/prog_a.ft", "--emit=c", "-o", f"{work}/out/k.c"], env,
            expect_ok=False, preexec_fn=limit_file_size)
    check(p.returncode == 1, f"exit {p.returncode}, expected 1")
    check("cannot write" in p.stderr and "File too large" in p.stderr,
          f"no message naming the write error: {p.stderr!r}")
    check(U.read_bytes(f"{work}/out/k.c") == OLD, "k.c lost its old bytes")
    no_temps(work, env, ["out"])


def case_build_write_error(work, env):
    os.mkdir(f"{work}/dst")
    U.write(f"{work}/dst/libk.so", OLD.decode())
    p = ftc(["build", f"{work}/prog_a.ft", "-o", f"{work}/dst/libk.so"], env,
            expect_ok=False, preexec_fn=limit_file_size)
    check(p.returncode == 1, f"exit {p.returncode}, expected 1")
    check("cannot write" in p.stderr and "File too large" in p.stderr,
          f"no message naming the write error: {p.stderr!r}")
    check(os.listdir(f"{work}/dst") == ["libk.so"], f"in dst: {os.listdir(f'{work}/dst')}")
    check(U.read_bytes(f"{work}/dst/libk.so") == OLD, "libk.so lost its old bytes")
    no_temps(work, env, ["dst"])


def case_run_special_paths(work, env):
    so = built(work, env, "lib")
    os.mkdir(f"{work}/out")
    os.mkdir(f"{work}/real")
    U.write(f"{work}/real/b.npy", OLD.decode())
    os.symlink(f"{work}/real/b.npy", f"{work}/out/b.npy")
    ftc(["run", so, "fa", f"x={work}/x.npy", "a=/dev/null", f"b={work}/out/b.npy"], env)
    check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is no longer a device")
    check(os.path.islink(f"{work}/out/b.npy"), "the symlink was replaced by a file")
    _, _, b = U.npy_values(1000)
    check(np.array_equal(np.load(f"{work}/real/b.npy"), b), "the link's target is not b")
    no_temps(work, env, ["out", "real"])


def case_build_reproducible(work, env):
    for flags, tag in ((None, ""), ("-O2 -g -fopenmp", "g")):
        extra = ["--cflags", flags] if flags else []
        os.makedirs(f"{work}/r1{tag}")
        os.makedirs(f"{work}/r2{tag}")
        ftc(["build", f"{work}/prog_a.ft", "-o", f"{work}/r1{tag}/libk.so"] + extra, env)
        ftc(["build", f"{work}/prog_a.ft", "-o", f"{work}/r2{tag}/libother.so"] + extra, env)
        a = U.read_bytes(f"{work}/r1{tag}/libk.so")
        b = U.read_bytes(f"{work}/r2{tag}/libother.so")
        check(a == b, f"two builds ({flags or 'default flags'}) differ")
    no_temps(work, env, ["r1", "r2", "r1g", "r2g"])


def case_build_reproducible_cuda(work, env):
    """--target cuda with the default flags (nvcc names its temporaries by
    its process id; with -g they stay in the debug information)."""
    if not shutil.which("nvcc") and not os.access("/usr/local/cuda/bin/nvcc", os.X_OK) \
            and not os.environ.get("FTC_NVCC"):
        print("  (no nvcc: skipped)")
        return
    for d, name in (("c1", "libk.so"), ("c2", "libother.so")):
        os.makedirs(f"{work}/{d}")
        ftc(["build", f"{work}/prog_a.ft", "--target", "cuda", "-o", f"{work}/{d}/{name}"], env)
    a, b = U.read_bytes(f"{work}/c1/libk.so"), U.read_bytes(f"{work}/c2/libother.so")
    check(a == b, "two CUDA builds differ")
    no_temps(work, env, ["c1", "c2"])


def locked_build(work, env):
    """Lock work/dst (exclusive flock), start a build into it and wait for
    it to be done but for the renames (its library written, no compiler
    running); returns the process and the lock's descriptor."""
    os.mkdir(f"{work}/dst")
    fd = os.open(f"{work}/dst", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    proc = U.start([FTC, "build", f"{work}/prog_a.ft", "-o", f"{work}/dst/libk.so"], env)
    time.sleep(0.2)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        tmps = [n for n in os.listdir(f"{work}/dst") if n.startswith(".libk.so.ftc-")]
        if tmps and os.path.getsize(f"{work}/dst/{tmps[0]}") > 0 and \
                not U.children_of(proc.pid):
            break
        time.sleep(0.02)
    time.sleep(0.3)
    return proc, fd


def case_build_waits_for_lock(work, env):
    proc, fd = locked_build(work, env)
    try:
        check(proc.poll() is None, "the build finished while the folder was locked")
        check(not os.path.exists(f"{work}/dst/libk.so"), "libk.so renamed under the lock")
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        proc.communicate(timeout=60)
    check(proc.returncode == 0, f"exit {proc.returncode}")
    check(os.path.exists(f"{work}/dst/libk.h"), "no header after the lock")


def case_build_sigint_at_lock(work, env):
    proc, fd = locked_build(work, env)
    try:
        check(proc.poll() is None, "the build finished while the folder was locked")
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=5)
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    check(proc.returncode == -signal.SIGINT, f"exit {proc.returncode}, expected SIGINT")
    check(not os.listdir(f"{work}/dst"), f"left in dst: {os.listdir(f'{work}/dst')}")
    no_temps(work, env, ["dst"])


def case_build_concurrent(work, env):
    ref = {p: (U.read_bytes(built(work, env, f"ref_{p}", f"prog_{p}.ft")),
               U.read_bytes(f"{work}/ref_{p}/libk.h")) for p in ("a", "b")}
    check(ref["a"][1] != ref["b"][1], "the two programs' headers are the same")
    os.mkdir(f"{work}/dst")
    for rnd in range(6):
        procs = [U.start([FTC, "build", f"{work}/prog_{p}.ft", "-o", f"{work}/dst/libk.so"], env)
                 for p in ("a", "b")]
        for p in procs:
            p.communicate(timeout=120)
            check(p.returncode == 0, f"round {rnd}: a build failed")
        pair = (U.read_bytes(f"{work}/dst/libk.so"), U.read_bytes(f"{work}/dst/libk.h"))
        check(pair in ref.values(), f"round {rnd}: the header and the library are of "
              "different builds")
    no_temps(work, env, ["dst"])


def signal_at_compiler(work, env, args, sig):
    """Start ftc ARGS, send it sig while its C compiler runs (prog_big.ft's
    C takes it about 0.5 s of CPU), check that ftc died of sig and that
    no process of its session (the compiler) is left 0.3 s later."""
    proc = U.start([FTC] + args, env)
    deadline = time.monotonic() + 60
    while proc.poll() is None and not U.children_of(proc.pid):
        check(time.monotonic() < deadline, "no compiler started")
        time.sleep(0.002)
    check(proc.poll() is None, "ftc ended before its compiler ran")
    time.sleep(0.05)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    left = U.wait_session_empty(proc.pid, 0.3)
    U.kill_session(proc.pid)
    check(not left, f"processes left running after ftc: {left}")
    check(proc.returncode == -sig, f"exit {proc.returncode}, expected killed by {sig}")


def case_build_sigint(work, env):
    os.mkdir(f"{work}/dst")
    U.write(f"{work}/dst/libk.so", OLD.decode())
    U.write(f"{work}/dst/libk.h", OLD.decode())
    signal_at_compiler(work, env, ["build", f"{work}/prog_big.ft", "-o", f"{work}/dst/libk.so"],
                       signal.SIGINT)
    check(U.read_bytes(f"{work}/dst/libk.so") == OLD, "the old library was replaced")
    check(U.read_bytes(f"{work}/dst/libk.h") == OLD, "the old header was replaced")
    check(sorted(os.listdir(f"{work}/dst")) == ["libk.h", "libk.so"],
          f"left in the destination: {os.listdir(f'{work}/dst')}")
    no_temps(work, env, ["dst"])


def case_run_sigterm(work, env):
    os.mkdir(f"{work}/out")
    U.write(f"{work}/out/a.npy", OLD.decode())
    signal_at_compiler(work, env, ["run", f"{work}/prog_big.ft", "g0", "n=4", "--random",
                                   f"y={work}/out/a.npy", "--out-dir", f"{work}/out"],
                       signal.SIGTERM)
    check(os.listdir(f"{work}/out") == ["a.npy"], f"in out/: {os.listdir(f'{work}/out')}")
    check(U.read_bytes(f"{work}/out/a.npy") == OLD, "a.npy was replaced")
    no_temps(work, env, ["out"])


LEAVING_CC = """#!/bin/sh
# A compiler that leaves temporaries in its $TMPDIR, as collect2 does.
mkdir "$TMPDIR/sub" && : > "$TMPDIR/sub/x.o" && : > "$TMPDIR/cc123.cdtor.c" || exit 3
[ "$1" = fail ] && exit 1
exec sleep 30
"""


def leaving_cc(work, env, how):
    """The environment with FTC_CC set to LEAVING_CC (failing at once when
    how == "fail", else sleeping until killed)."""
    U.write(f"{work}/leaving_cc", LEAVING_CC)
    os.chmod(f"{work}/leaving_cc", 0o755)
    return dict(env, FTC_CC=f"{work}/leaving_cc {how}")


def case_build_sigterm_compiler_leftovers(work, env):
    os.mkdir(f"{work}/dst")
    signal_at_compiler(work, leaving_cc(work, env, "sleep"),
                       ["build", f"{work}/prog_a.ft", "-o", f"{work}/dst/libk.so"],
                       signal.SIGTERM)
    check(os.listdir(f"{work}/dst") == [], f"in dst/: {os.listdir(f'{work}/dst')}")
    no_temps(work, env, ["dst"])


def case_build_failed_compiler_leftovers(work, env):
    os.mkdir(f"{work}/dst")
    p = ftc(["build", f"{work}/prog_a.ft", "-o", f"{work}/dst/libk.so"],
            leaving_cc(work, env, "fail"), expect_ok=False)
    check(p.returncode == 1 and "C compiler" in p.stderr, f"exit {p.returncode}: {p.stderr}")
    no_temps(work, env, ["dst"])


CASES = [(n[5:], f) for n, f in sorted(globals().items()) if n.startswith("case_")]


def main():
    failed = 0
    for name, fn in CASES:
        with tempfile.TemporaryDirectory(prefix="ftc-robust-") as work:
            env = setup(work)
            try:
                fn(work, env)
                print(f"ok {name}")
            except (Fail, subprocess.TimeoutExpired) as e:
                failed += 1
                print(f"FAIL {name}: {e}")
    print(f"{len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
