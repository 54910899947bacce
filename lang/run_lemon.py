#!/usr/bin/env python3
"""Run lemon on the grammar into the build folder and fail on any conflict.

lemon writes its outputs next to its input, so the grammar is copied into
the output folder first; its exit status counts errors and conflicts.
"""
import os
import shutil
import subprocess
import sys

lemon, template, grammar, outdir = sys.argv[1:5]
dst = os.path.join(outdir, "parser.y")
shutil.copyfile(grammar, dst)
r = subprocess.run([lemon, "-q", "-T" + template, dst], capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
if r.returncode != 0 or "conflict" in (r.stdout + r.stderr).lower():
    sys.stderr.write("lang/parser.y: lemon reported errors or conflicts\n")
    sys.exit(1)
