#!/usr/bin/python3
"""Whether two ftc binaries generate the same code: the check of a
refactoring that must change no behaviour (issue 19).

    /usr/bin/python3 tests/refactor/same_output.py OLD_FTC NEW_FTC SOURCE_ROOT [-v]
    /usr/bin/python3 tests/refactor/same_output.py --commit REV NEW_FTC SOURCE_ROOT [-v]

With --commit, OLD_FTC is built first from REV (a git worktree and a meson
build under $TMPDIR, removed afterwards).

For every program of the corpus each binary runs `ftc build FILE
--emit=c` and `ftc build FILE --target cuda --emit=c` (with the file's
`# ftc-args:` when it has them), from SOURCE_ROOT with the file's path
relative to it, and the two outputs (stdout, stderr with the temporary
folders masked, exit status) must be byte-identical.  The corpus: every
tests/golden/*.ft, examples/*.ft, tests/numeric/{progs,grad,stdlib}/*.ft,
tests/cuda/progs/*.ft, and the 8 benchmark builds (bench/ft/NAME.ft, and
the same with its `bench-grad:` line appended, as bench/run builds them).
A program that fails to build must fail the same way under both.

Prints one line per program and target that differs (with -v, the first
differing lines), then the counts; exits 1 when any differs.
"""
import concurrent.futures
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden"))
from run import header  # noqa: E402  (tests/golden/run.py: a file's `# KEY:` words)

TARGETS = (("c", []), ("cuda", ["--target", "cuda"]))


def ftc_args(path):
    """The words of the file's `# ftc-args:` line, as tests/golden/run.py reads them."""
    return [a.replace("{dir}", os.path.dirname(path)) for a in header(path, "ftc-args") or []]


def corpus(root, tmp):
    """[(name, path relative to root, extra args)]: the programs compared."""
    pats = ["tests/golden/*.ft", "examples/*.ft", "tests/numeric/progs/*.ft",
            "tests/numeric/grad/*.ft", "tests/numeric/stdlib/*.ft", "tests/cuda/progs/*.ft"]
    out = []
    for pat in pats:
        for p in sorted(glob.glob(os.path.join(root, pat))):
            rel = os.path.relpath(p, root)
            out.append((rel, rel, ftc_args(p)))
    for p in sorted(glob.glob(os.path.join(root, "bench", "ft", "*.ft"))):
        rel = os.path.relpath(p, root)
        out.append((rel, rel, []))
        src = open(p).read()
        m = re.search(r"bench-grad:\s*(.*)", src)
        if m:
            g = os.path.join(tmp, os.path.basename(p)[:-3] + "_grad.ft")
            with open(g, "w") as f:
                f.write(src + "\n" + m.group(1) + "\n")
            out.append((rel + " + grad", g, []))
    return out


def emit(ftc, root, path, args):
    """(exit status, stdout, stderr with temporary folder names masked)."""
    r = subprocess.run([ftc, "build", path, "--emit=c"] + args, cwd=root, capture_output=True,
                       text=True, errors="replace", timeout=600)
    err = re.sub(r"/tmp/[^\s:'\"]*", "/tmp/...", r.stderr)
    return r.returncode, r.stdout, err


def compare(old, new, root, item, target, verbose):
    """The difference of one program and target as text, or ""."""
    name, path, extra = item
    args = extra + dict(TARGETS)[target]
    a, b = emit(old, root, path, args), emit(new, root, path, args)
    if a == b:
        return ""
    what = "exit status" if a[0] != b[0] else "C" if a[1] != b[1] else "diagnostics"
    line = f"DIFF {name} [{target}]: {what} ({a[0]} -> {b[0]})"
    if verbose:
        k = 1 if a[1] != b[1] else 2
        diff = difflib.unified_diff(a[k].splitlines(), b[k].splitlines(), "old", "new", n=1,
                                    lineterm="")
        line += "\n" + "\n".join(list(diff)[:20])
    return line


def build_commit(rev, root, tmp):
    """ftc built from commit REV in a worktree under TMP; its path."""
    wt = os.path.join(tmp, "old")
    subprocess.run(["git", "-C", root, "worktree", "add", "--detach", wt, rev], check=True,
                   capture_output=True)
    bd = os.path.join(wt, "build")
    subprocess.run(["meson", "setup", bd, wt], check=True, capture_output=True)
    subprocess.run(["ninja", "-C", bd, "ftc"], check=True, capture_output=True)
    return os.path.join(bd, "ftc")


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    rev = None
    if argv[:1] == ["--commit"] and len(argv) == 4:
        rev, argv = argv[1], argv[2:]
    elif len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    tmp = tempfile.mkdtemp(prefix="ftc-same-")
    try:
        new, root = os.path.abspath(argv[-2]), os.path.abspath(argv[-1])
        old = build_commit(rev, root, tmp) if rev else os.path.abspath(argv[0])
        items = corpus(root, tmp)
        jobs = [(item, t) for item in items for t, _ in TARGETS]
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            diffs = list(pool.map(lambda j: compare(old, new, root, j[0], j[1], verbose), jobs))
        bad = [d for d in diffs if d]
        for d in bad:
            print(d)
        print(f"{len(jobs) - len(bad)} of {len(jobs)} outputs the same ({len(items)} programs, "
              f"C and CUDA), {len(bad)} differ")
        return 1 if bad else 0
    finally:
        if rev:
            subprocess.run(["git", "-C", os.path.abspath(argv[-1]), "worktree", "remove",
                            "--force", os.path.join(tmp, "old")], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
