#!/usr/bin/env python3
"""Golden tests, cproc style: the expected output sits beside each program.

    python3 tests/golden/run.py PATH/TO/ftc GOLDEN_DIR [--update] [-k SUBSTRING]

Walks GOLDEN_DIR (recursively, in sorted order).  For every x.ft (except
*.inc.ft, which other cases include), each expected file beside it is a case:

  x.err  `ftc check x.ft` must exit 1, and its stderr, with the directory
         part of the path stripped (lines read `x.ft:3:9: error: ...`),
         must equal x.err.
  x.ir   `ftc build x.ft --dump-after=lower` must exit 0 and print x.ir;
         and the dump must be a fixed point of the printer: the dump, saved
         as x.ft in a temporary folder and dumped again, prints itself.
  x.c    `ftc build x.ft --emit=c` must exit 0 and print x.c from the
         definition of the first exported function: the functions and the
         descriptions, not the ABI text (runtime/ft_abi.h) nor the helpers
         (the same in every output, or chosen by what the program uses;
         the numeric tests run them).
  x.deps `ftc build x.ft --emit=deps` must exit 0 and print x.deps (the
         dependences of every function, analysis/deps.c).
  x.layouts `ftc build x.ft --emit=layouts` must exit 0 and print
         x.layouts (every tensor's layout and every conversion, with the
         bytes, place and runs the layout pass weighs).
  x.cu   `ftc build x.ft --target cuda --emit=c` must exit 0 and print x.cu
         from the line after the prelude's last line (`/* end of the
         prelude */`): the kernels and host code, not the helpers.

A .ft with none of these fails.  Extra arguments for ftc (e.g. `-D W=64`)
may be given in a comment among the file's first lines: `# ftc-args: -D W=64`
(`{dir}` in them is the .ft's folder: `--schedule {dir}/x.fts`).

--update rewrites the expected files from the actual output, for review
(`git diff tests/golden`).  A .ft with no expected file gets x.err when its
name starts with `err_`, x.deps when it starts with `deps_`, x.layouts
when it starts with `layouts_`, x.ir otherwise;
a comment `# golden: ir c` among the first lines picks the kinds instead.
An update never writes the output of a run that failed the wrong way (a
crash, exit 0 for an .err case, exit 1 for an .ir, .c or .deps case, a dump
that is not a fixed point).

Prints one line per case (`ok x.ft (err)`, or `FAIL x.ft (ir): why` and a
unified diff), then `N passed, M failed`; exits 1 if any case failed.
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIMEOUT = 120
KINDS = ("err", "ir", "c", "deps", "layouts", "cu")
CU_PRELUDE_END = "/* end of the prelude */\n"
C_ABI_END = "/* end of the run-time error helpers */\n"   # after ft_abi.h


class Fail(Exception):
    pass


def run(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Fail(f"timed out after {TIMEOUT} s: {' '.join(cmd)}")
    except OSError as e:
        raise Fail(f"cannot run {cmd[0]}: {e}")
    if r.returncode < 0:
        raise Fail(f"`{' '.join(cmd)}` died of signal {-r.returncode}"
                   + tail(r.stderr))
    return r


def tail(text, n=10):
    lines = text.rstrip("\n").splitlines()[-n:]
    return "".join("\n    | " + l for l in lines) if lines else ""


def header(path, key):
    """Words after `# KEY:` in the file's leading comment lines, or None."""
    with open(path, errors="replace") as f:
        for line in f.read().splitlines()[:10]:
            m = re.match(r"\s*#\s*" + re.escape(key) + r":(.*)$", line)
            if m:
                return shlex.split(m.group(1))
    return None


def strip_dirs(text, path):
    """x.ft instead of any/dir/x.ft at the start of diagnostic lines."""
    base = os.path.basename(path)
    text = text.replace(path, base).replace(os.path.dirname(path) + "/", "")
    return re.sub(r"(?m)^[^\s:]*/" + re.escape(base) + r"(?=:)", base, text)


def after_helpers(c_text, path):
    """The C from the definition of the program's first exported function
    on: past the ABI text, the run-time error helpers and the helpers the
    program needs (floor division, reductions, buffers, BLAS), whose text
    the numeric tests check by running it.  When the .ft exports nothing
    itself (its functions come from an included file), from the end of the
    error helpers."""
    text = c_text.split(C_ABI_END, 1)[-1]
    with open(path, errors="replace") as f:
        m = re.search(r"(?m)^\s*export\s+func\s+(\w+)", f.read())
    at = re.search(r"(?m)^int " + re.escape(m.group(1)) + r"\(", text) if m else None
    return text[at.start():] if at else text


def actual(ftc, path, kind, extra):
    """The text that kind's expected file should hold for path."""
    if kind == "err":
        r = run([ftc, "check", path] + extra)
        if r.returncode != 1:
            raise Fail(f"`ftc check` exited {r.returncode}, expected 1" + tail(r.stderr))
        return strip_dirs(r.stderr, path)
    if kind in ("c", "deps", "layouts"):
        r = run([ftc, "build", path, f"--emit={kind}"] + extra)
        if r.returncode != 0:
            raise Fail(f"`ftc build --emit={kind}` exited {r.returncode}" + tail(r.stderr))
        # the error sites name the source as given (x.ft, not any/dir/x.ft)
        return strip_dirs(after_helpers(r.stdout, path), path) if kind == "c" else r.stdout
    if kind == "cu":
        r = run([ftc, "build", path, "--target", "cuda", "--emit=c"] + extra)
        if r.returncode != 0:
            raise Fail(f"`ftc build --target cuda --emit=c` exited {r.returncode}"
                       + tail(r.stderr))
        return strip_dirs(r.stdout.split(CU_PRELUDE_END, 1)[-1], path)
    r = run([ftc, "build", path, "--dump-after=lower"] + extra)
    if r.returncode != 0:
        raise Fail(f"`ftc build --dump-after=lower` exited {r.returncode}" + tail(r.stderr))
    with tempfile.TemporaryDirectory(prefix="ftc-golden-") as d:
        again = os.path.join(d, os.path.basename(path))
        with open(again, "w") as f:
            f.write(r.stdout)
        r2 = run([ftc, "build", again, "--dump-after=lower"] + extra)
        if r2.returncode != 0:
            raise Fail("the dump does not build again: `ftc build --dump-after=lower` "
                       f"exited {r2.returncode}" + tail(strip_dirs(r2.stderr, again)))
        if r2.stdout != r.stdout:
            raise Fail("the dump is not a fixed point of the printer; "
                       "dumping the dump again gives:\n"
                       + diff(r.stdout, r2.stdout, "dump", "dump of dump"))
    return r.stdout


def diff(want, got, a, b):
    lines = difflib.unified_diff(want.splitlines(True), got.splitlines(True), a, b)
    return "".join(l if l.endswith("\n") else l + "\n\\ No newline at end of file\n"
                   for l in lines).rstrip("\n")


def cases(root):
    """(path of x.ft, kinds of the expected files beside it), sorted."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".ft") or name.endswith(".inc.ft"):
                continue
            path = os.path.join(d, name)
            stem = path[:-3]
            kinds = [k for k in KINDS if os.path.exists(f"{stem}.{k}")]
            out.append((path, kinds))
    return out


def main():
    args = sys.argv[1:]
    update = "--update" in args
    args = [a for a in args if a != "--update"]
    pattern = None
    if "-k" in args:
        i = args.index("-k")
        pattern = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit("usage: run.py PATH/TO/ftc GOLDEN_DIR [--update] [-k SUBSTRING]")
    ftc, root = os.path.abspath(args[0]), os.path.abspath(args[1])
    if not os.access(ftc, os.X_OK):
        sys.exit(f"golden: no ftc binary at {ftc}")
    passed = failed = 0
    for path, kinds in cases(root):
        rel = os.path.relpath(path, root)
        if pattern and pattern not in rel:
            continue
        if not kinds:
            if not update:
                print(f"FAIL {rel}: no expected output (.err, .ir, .c or .deps); "
                      "generate it with --update and review it")
                failed += 1
                continue
            base = os.path.basename(path)
            kinds = header(path, "golden") or \
                (["err"] if base.startswith("err_") else
                 ["deps"] if base.startswith("deps_") else
                 ["layouts"] if base.startswith("layouts_") else ["ir"])
            bad = [k for k in kinds if k not in KINDS]
            if bad:
                print(f"FAIL {rel}: unknown kind in `# golden:`: {' '.join(bad)}")
                failed += 1
                continue
        extra = [a.replace("{dir}", os.path.dirname(path))
                 for a in header(path, "ftc-args") or []]
        for kind in kinds:
            want_path = f"{path[:-3]}.{kind}"
            try:
                got = actual(ftc, path, kind, extra)
            except Fail as e:
                print(f"FAIL {rel} ({kind}): {e}")
                failed += 1
                continue
            want = None
            if os.path.exists(want_path):
                with open(want_path, errors="replace") as f:
                    want = f.read()
            if got == want:
                print(f"ok {rel} ({kind})")
                passed += 1
            elif update:
                with open(want_path, "w") as f:
                    f.write(got)
                print(f"updated {os.path.relpath(want_path, root)}")
                passed += 1
            else:
                print(f"FAIL {rel} ({kind}): output differs from {os.path.basename(want_path)}")
                print(diff(want, got, os.path.basename(want_path), "actual"))
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
