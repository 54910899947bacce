#!/usr/bin/env python3
"""Embed the stdlib's .ft files into C: ft_stdlib_names/texts/count."""
import os
import sys

out, srcs = sys.argv[1], sorted(sys.argv[2:])
def quote(text):
    return "".join('  "%s"\n' % l.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                   for l in text.splitlines(True)) or '  ""\n'
with open(out, "w", encoding="utf-8") as f:
    f.write("/* generated from the stdlib .ft files by stdlib/embed.py */\n")
    f.write("const int ft_stdlib_count = %d;\n" % len(srcs))
    f.write("const char *const ft_stdlib_names[] = {\n")
    for s in srcs:
        f.write('  "stdlib/%s",\n' % os.path.basename(s))
    f.write("  0};\nconst char *const ft_stdlib_texts[] = {\n")
    for s in srcs:
        with open(s, encoding="utf-8") as g:
            f.write(quote(g.read()) + "  ,\n")
    f.write("  0};\n")
