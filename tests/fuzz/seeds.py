"""Seed corpora of the libFuzzer harnesses (tests/fuzz/README), written
into a folder at test time so that the repository keeps no binary seeds.

    seeds.py SOURCE_ROOT OUT_DIR [HARNESS]...   (default: all)

OUT_DIR/fuzz_frontend: the .ft files of the golden, numeric and gradient
fuzzer tests, the examples and the stdlib, up to 4 KB each; OUT_DIR/fuzz_pipeline and OUT_DIR/fuzz_loader: choice streams
of a fixed random seed (every one a program or a table); OUT_DIR/fuzz_npy:
valid .npy files of every dtype, rank and format version, and invalid ones
(bad magic, versions, truncated headers and data, Fortran order, big-endian,
unknown dtypes, shapes whose byte count overflows, bools other than 0/1).
"""
import glob
import os
import random
import shutil
import struct
import sys


# The largest .ft seed, in bytes: larger programs (and the stdlib gradient
# checks of tests/numeric/grad, the bench) take seconds each under ASan, a
# campaign's time better spent on mutations of small ones.
MAX_FT_SEED = 4096


def ft_seeds(root, out):
    """Copy the small .ft files of the tests, examples and stdlib (named
    after their path)."""
    pats = ["tests/golden/*.ft", "tests/numeric/progs/*.ft", "tests/grad_fuzz/regress/*.ft",
            "examples/*.ft", "stdlib/*.ft"]
    for pat in pats:
        for p in sorted(glob.glob(os.path.join(root, pat), recursive=True)):
            if os.path.getsize(p) > MAX_FT_SEED:
                continue
            name = os.path.relpath(p, root).replace("/", "_")
            shutil.copyfile(p, os.path.join(out, name))


def stream_seeds(out, count, seed):
    """count random choice streams (lengths 0 to 400)."""
    rng = random.Random(seed)
    for k in range(count):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 400)))
        with open(os.path.join(out, f"seed{k:02d}"), "wb") as f:
            f.write(data)


def npy_bytes(descr, shape, data, version=1, fortran=False, pad=True):
    """A .npy file: magic, version, header length, dict header, data."""
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False",
        "(%s)" % "".join(f"{d}, " for d in shape) if len(shape) != 1 else f"({shape[0]},)")
    pre = 10 if version == 1 else 12
    if pad:
        header += " " * ((64 - (pre + len(header) + 1) % 64) % 64)
    header += "\n"
    hl = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + hl + header.encode("latin1") + data


def npy_seeds(out):
    """Valid and invalid .npy files."""
    files = {}
    sizes = {"<f2": 2, "<f4": 4, "<f8": 8, "<i4": 4, "<i8": 8, "|b1": 1, "|u1": 1}
    for descr, sz in sizes.items():
        for shape in [(), (3,), (2, 3), (1, 2, 1, 2), (0, 5)]:
            n = 1
            for d in shape:
                n *= d
            body = bytes([k % 2 for k in range(n * sz)])
            tag = descr.replace("<", "l").replace("|", "p")
            files[f"ok_{tag}_{len(shape)}d"] = npy_bytes(descr, shape, body)
    files["ok_v2"] = npy_bytes("<f4", (2,), b"\0" * 8, version=2)
    files["ok_v3"] = npy_bytes("<f4", (2,), b"\0" * 8, version=3)
    files["ok_unpadded"] = npy_bytes("<f8", (1,), b"\0" * 8, pad=False)
    files["ok_16d"] = npy_bytes("<f4", (1,) * 16, b"\0" * 4)
    good = files["ok_lf4_2d"]
    files["bad_magic"] = b"\x93NUMPX" + good[6:]
    files["bad_version"] = good[:6] + b"\x04\x00" + good[8:]
    files["bad_trunc_header"] = good[:20]
    files["bad_trunc_data"] = good[:-5]
    files["bad_empty"] = b""
    files["bad_fortran"] = npy_bytes("<f4", (2, 3), b"\0" * 24, fortran=True)
    files["bad_bigendian"] = npy_bytes(">f4", (2,), b"\0" * 8)
    files["bad_descr"] = npy_bytes("<c8", (2,), b"\0" * 16)
    files["bad_overflow"] = npy_bytes("<f8", (2 ** 62, 2 ** 62), b"")
    files["bad_bytes_overflow"] = npy_bytes("<f8", (2 ** 61 + 1,), b"")
    files["bad_negative"] = npy_bytes("<f4", (-1,), b"")
    files["bad_17d"] = npy_bytes("<f4", (1,) * 17, b"\0" * 4)
    files["bad_bool"] = npy_bytes("|u1", (3,), b"\0\1\2")
    files["bad_hlen"] = good[:8] + b"\xff\xff" + good[10:]
    files["bad_dict"] = npy_bytes("<f4", (2,), b"").replace(b"'shape'", b"'shap'")
    for name, data in files.items():
        with open(os.path.join(out, name + ".npy"), "wb") as f:
            f.write(data)


def main():
    root, out, only = sys.argv[1], sys.argv[2], sys.argv[3:]
    makers = {"fuzz_frontend": lambda d: ft_seeds(root, d),
              "fuzz_pipeline": lambda d: stream_seeds(d, 24, 1),
              "fuzz_loader": lambda d: stream_seeds(d, 24, 2),
              "fuzz_npy": npy_seeds}
    for name, make in makers.items():
        if only and name not in only:
            continue
        d = os.path.join(out, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        make(d)


if __name__ == "__main__":
    main()
