#!/usr/bin/env python3
"""Embed a text file into C as `const char NAME[]` (runtime/ft_abi.h,
backend/cuda_prelude.cuh)."""
import sys

name, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, encoding="utf-8") as f:
    text = f.read()
with open(dst, "w", encoding="utf-8") as f:
    f.write("/* generated from %s by backend/embed_text.py */\n" % src.split("/")[-1])
    f.write("const char %s[] =\n" % name)
    for line in text.splitlines(True):
        f.write('  "%s"\n' % line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
    f.write(";\n")
