"""ftc.compile: build a .ft program with the ftc binary into a cache and
load it.

The cache key is the SHA-256 of the program's text, the target, the
defines, the flags and the compiler's identity (`ftc --version` and the
binary's size and modification time).  Each key has its own folder,
holding libprog.so; a build runs under an exclusive lock of the key's lock
file (fcntl.flock), so concurrent processes compiling the same program
build it once, and ftc writes the library all-or-nothing, so a reader never
sees half of one.
"""
import fcntl
import hashlib
import os
import shutil
import subprocess

# builds this process ran (the tests check that a cached call runs none)
builds = 0


class CompileError(Exception):
    """ftc refused the program: diagnostics holds its located messages
    (`prog.ft:3:9: error: ...` with the source line and a caret)."""

    def __init__(self, diagnostics, returncode):
        super().__init__(diagnostics.rstrip() or f"ftc exited {returncode}")
        self.diagnostics, self.returncode = diagnostics, returncode


def find_ftc():
    """The ftc binary: $FTC, else `ftc` on PATH, else build/ftc of the
    checkout this package sits in."""
    env = os.environ.get("FTC")
    if env:
        return env
    on_path = shutil.which("ftc")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.join(here, "..", "..", "build", "ftc")
    if os.access(local, os.X_OK):
        return os.path.abspath(local)
    raise FileNotFoundError("no ftc binary: set $FTC, put ftc on PATH, or build the "
                            "checkout (meson setup build && ninja -C build)")


def default_cache_dir():
    """$FTC_CACHE_DIR, else $XDG_CACHE_HOME/ftc, else ~/.cache/ftc."""
    d = os.environ.get("FTC_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ftc")


_identity = {}


def _ftc_identity(ftc):
    """What distinguishes one ftc binary from another for the cache."""
    st = os.stat(ftc)
    key = (ftc, st.st_size, st.st_mtime_ns)
    if key not in _identity:
        r = subprocess.run([ftc, "--version"], capture_output=True, text=True)
        _identity[key] = f"{r.stdout.strip()} {st.st_size} {st.st_mtime_ns}"
    return _identity[key]


def _source(source_or_path):
    """(text, path or None) of a program given as text or as a path."""
    s = os.fspath(source_or_path)
    if "\n" not in s and (s.endswith(".ft") or os.path.exists(s)):
        with open(s, encoding="utf-8") as f:
            return f.read(), s
    return s, None


def compile(source_or_path, target="c", defines=None, flags=(), cache_dir=None, ftc=None):
    """Build the program (its text, or the path of a .ft file) for target
    ("c" or "cuda") with `-D NAME=VALUE` for each item of defines and the
    extra ftc flags, into the cache (default_cache_dir()), and load it.
    A second call with the same program, target, defines, flags and ftc
    does not run ftc.  Raises CompileError with ftc's diagnostics."""
    from . import load
    global builds
    ftc = ftc or find_ftc()
    text, path = _source(source_or_path)
    defs = [f"{k}={v}" for k, v in sorted((defines or {}).items())]
    flags = list(flags)
    h = hashlib.sha256()
    for part in [_ftc_identity(ftc), target, *defs, "--", *flags, "--", text]:
        h.update(part.encode() + b"\0")
    key = h.hexdigest()
    folder = os.path.join(cache_dir or default_cache_dir(), key[:2], key)
    lib = os.path.join(folder, "libprog.so")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(lib):
            src = os.path.join(folder, "prog.ft")
            if path is None:
                with open(src, "w", encoding="utf-8") as f:
                    f.write(text)
            cmd = [ftc, "build", path or src, "-o", lib, "--target", target]
            for d in defs:
                cmd += ["-D", d]
            r = subprocess.run(cmd + flags, capture_output=True, text=True)
            builds += 1
            if r.returncode != 0:
                raise CompileError(r.stderr, r.returncode)
    return load(lib)
