"""Run the libFuzzer harnesses of tests/fuzz (README): a campaign of each
from the seeds (seeds.py) and the corpus kept in the build folder, then the
replay of the regression inputs in tests/fuzz/regress/<harness>/.

    run.py BUILD_DIR SOURCE_ROOT [--seconds S] [--runs N] [--harness NAME]...
           [--jobs J] [--timeout T] [--replay-only]

BUILD_DIR is tests/fuzz of a build configured with -Dfuzz=true.  Each
harness runs S seconds or N executions, whichever ends first (default
$FTC_FUZZ_SECONDS, else 60 seconds), under ASan+UBSan with a memory limit of 2048 MB and a time
limit of T s per input (default 10; wall-clock: raise it only on a machine
so loaded that a nice'd harness waits for a core); findings go to BUILD_DIR/findings/<harness>/.
Prints per harness the executions, seconds, coverage and corpus size, and
fails on any finding (a crash, a sanitizer report, a leak, a slow or
oversized input, a broken rule of the harness).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import time

HARNESSES = ["fuzz_frontend", "fuzz_pipeline", "fuzz_npy", "fuzz_loader"]
LIMITS = ["-rss_limit_mb=2048", "-malloc_limit_mb=2048", "-max_len=4096"]
ENV = {"ASAN_OPTIONS": "detect_leaks=1:allocator_may_return_null=1",
       "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}


def env(sdir):
    """The environment of a harness: sanitizer options (the UBSan reports
    of findings still open, listed in tests/fuzz/open/ubsan.supp, are
    suppressed), no verifier setting from outside."""
    e = dict(os.environ)
    e.update(ENV)
    supp = os.path.join(os.path.abspath(sdir), "tests", "fuzz", "open", "ubsan.supp")
    if os.path.exists(supp):
        e["UBSAN_OPTIONS"] += ":suppressions=" + supp
    e.pop("FTC_VERIFY", None)
    return e


def stats(text):
    """Executions, coverage, features and corpus size from libFuzzer's log."""
    execs = re.findall(r"stat::number_of_executed_units:\s+(\d+)", text)
    cov = re.findall(r"cov: (\d+) ft: (\d+) corp: (\d+)", text)
    total = sum(int(x) for x in execs)      # summed over the workers of --jobs
    return (total,) + (tuple(int(x) for x in cov[-1]) if cov else (0, 0, 0))


def default_seconds():
    """The time of each harness when neither --seconds nor --runs is given."""
    return int(os.environ.get("FTC_FUZZ_SECONDS", 60))


def campaign(bdir, sdir, name, args):
    """Fuzz one harness; returns whether it found nothing."""
    exe = os.path.join(bdir, name)
    corpus = os.path.join(bdir, "corpus", name)
    seeds = os.path.join(bdir, "seeds", name)
    findings = os.path.join(bdir, "findings", name) + "/"
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(findings, exist_ok=True)
    cmd = [exe] + LIMITS + [f"-timeout={args.timeout}", "-print_final_stats=1",
                            "-artifact_prefix=" + findings]
    if args.runs:
        cmd.append(f"-runs={args.runs}")
    if args.seconds or not args.runs:
        cmd.append(f"-max_total_time={args.seconds or default_seconds()}")
    if args.jobs > 1:
        cmd += [f"-jobs={args.jobs}", f"-workers={args.jobs}"]
    cmd += [corpus, seeds]
    logpath = os.path.join(bdir, "findings", name + ".log")
    t = time.time()
    with open(logpath, "w") as logf:      # libFuzzer's progress, readable while it runs
        r = subprocess.run(cmd, env=env(sdir), stdout=logf, stderr=subprocess.STDOUT, cwd=bdir)
    dt = time.time() - t
    log = open(logpath, errors="replace").read()
    counted = log
    if args.jobs > 1:
        # each worker logs to fuzz-N.log in cwd, and the main log repeats
        # their final lines: the counts come from the workers' logs alone
        # (summing both counted every execution twice)
        counted = "".join(open(p, errors="replace").read()
                          for p in glob.glob(os.path.join(bdir, "fuzz-*.log")))
        log += counted
    execs, cov, ft, corp = stats(counted)
    slow = re.findall(r"stat::slowest_unit_time_sec:\s+(\d+)", log)
    ncorpus = len(os.listdir(corpus))
    print(f"{name}: {execs} executions in {dt:.0f} s, cov {cov}, ft {ft}, corpus {ncorpus} "
          f"files, slowest input {slow[-1] if slow else '?'} s, exit {r.returncode}", flush=True)
    if r.returncode != 0:
        print(log[-6000:])
        print(f"{name}: FINDING, inputs in {findings}")
        return False
    return True


def replay(bdir, sdir, name, timeout):
    """Run the harness on every input of regress/<name>/; returns ok."""
    inputs = sorted(glob.glob(os.path.join(sdir, "tests", "fuzz", "regress", name, "*")))
    if not inputs:
        return True
    r = subprocess.run([os.path.join(bdir, name)] + LIMITS + [f"-timeout={timeout}"] + inputs,
                       env=env(sdir),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    print(f"{name}: replayed {len(inputs)} regression inputs, exit {r.returncode}", flush=True)
    if r.returncode != 0:
        print(r.stdout[-6000:])
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bdir")
    ap.add_argument("sdir")
    ap.add_argument("--seconds", type=int, default=0)
    ap.add_argument("--runs", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--harness", action="append")
    ap.add_argument("--replay-only", action="store_true")
    args = ap.parse_args()
    bdir = os.path.abspath(args.bdir)
    names = args.harness or HARNESSES
    subprocess.run([sys.executable, os.path.join(args.sdir, "tests", "fuzz", "seeds.py"),
                    args.sdir, os.path.join(bdir, "seeds")] + names, check=True)
    ok = True
    for name in names:
        ok &= replay(bdir, args.sdir, name, args.timeout)
        if not args.replay_only:
            ok &= campaign(bdir, args.sdir, name, args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
