"""Helpers of tests/robust/: processes of a session, folders' leftovers,
the programs built and run (issue 18, all-or-nothing outputs)."""
import os
import re
import signal
import subprocess
import time

import numpy as np

# Two programs with different functions, so that a header and a library
# of different builds are told apart.
PROG_A = """export func fa(n: size, x: f32[n] in, a: f32[n] out, b: f32[n] out):
    for i in range(n):
        a[i] = x[i] * 2.0
        b[i] = x[i] + 1.0
"""
PROG_B = """export func fb(n: size, x: f64[n] in, y: f64[n] out):
    for i in range(n):
        y[i] = x[i] * x[i]
"""



def prog_big(nfuncs=40):
    """A program whose C takes the compiler a while (nfuncs exported
    functions of a few loops each), to signal ftc while its compiler
    runs."""
    out = []
    for k in range(nfuncs):
        out.append(f"""export func g{k}(n: size, x: f32[n, n] in, y: f32[n, n] out):
    for i in range(n):
        for j in range(n):
            y[i, j] = x[i, j] * {k + 1}.0 + x[j, i]
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            y[i, j] += 0.25 * (x[i - 1, j] + x[i + 1, j] + x[i, j - 1] + x[i, j + 1])
""")
    return "\n".join(out)


# What an ftc temporary left by SIGKILL looks like (lang/reference.md):
# beside an output ".NAME.ftc-XXXXXX", in $TMPDIR "ftc-XXXXXX" and
# "ftc-run-XXXXXX" folders.
TEMP_BESIDE = re.compile(r"^\..+\.ftc-[A-Za-z0-9]{6}$")
TEMP_IN_TMPDIR = re.compile(r"^ftc-(run-|gc-)?[A-Za-z0-9]{6}$")


def write(path, text):
    """Write text to path."""
    with open(path, "w") as f:
        f.write(text)


def read_bytes(path):
    """The bytes of path, or None when it does not exist."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def live_procs():
    """(pid, the fields of /proc/PID/stat after the command name) of every
    live (not zombie) process."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            yield int(d), fields


def session_pids(sid):
    """The pids of every live process of session sid (ftc is started as a
    session leader, so its compiler and the compiler's children are in it
    whatever their process group)."""
    return [pid for pid, fields in live_procs() if int(fields[3]) == sid]


def children_of(pid):
    """The pids of the live children of pid."""
    return [p for p, fields in live_procs() if int(fields[1]) == pid]


def wait_session_empty(sid, timeout):
    """Wait up to timeout seconds for session sid to have no process; the
    pids still there."""
    end = time.monotonic() + timeout
    while True:
        left = session_pids(sid)
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.02)


def kill_session(sid):
    """SIGKILL whatever is left of session sid (after a SIGKILLed ftc, its
    compiler runs on) and wait for it to go."""
    for pid in session_pids(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    wait_session_empty(sid, 5)


def start(args, env, **kw):
    """Start ftc as a session leader (its pid is the session's id)."""
    return subprocess.Popen(args, env=env, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def env_with_tmpdir(tmpdir):
    """The environment with TMPDIR=tmpdir and the verifier on."""
    env = dict(os.environ)
    env["TMPDIR"] = tmpdir
    env.setdefault("FTC_VERIFY", "passes")
    return env


def npy_values(n):
    """The input x of fa and the outputs a, b it must give (NumPy)."""
    x = (np.arange(n, dtype=np.float64) % 1000).astype(np.float32)
    return x, x * np.float32(2.0), x + np.float32(1.0)


def leftovers(folder, allowed):
    """The names in folder that are not in allowed."""
    return sorted(set(os.listdir(folder)) - set(allowed))
