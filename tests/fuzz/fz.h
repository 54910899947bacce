/* fz.h - what the libFuzzer harnesses of tests/fuzz share (README).
 *
 * fz_compile runs the compiler on a text held in memory as `ftc build
 * --emit=c` runs it on a file (parse, lower, every pass, then the C text),
 * without files or a C compiler, in a context of its own that it frees, and
 * checks what the compiler said: every error located (FILE:LINE:COL), no
 * internal error, an error count for every failure.  A broken rule is a
 * finding: fz_compile prints the diagnostics and aborts, so that libFuzzer
 * keeps the input.
 */
#ifndef FT_FZ_H
#define FT_FZ_H

#include <stddef.h>
#include <stdint.h>

/* What fz_compile produced: 1 when it wrote C, 0 after located errors. */
int fz_compile(const char *name, const uint8_t *data, size_t size, int verify_passes);

/* A choice stream over the fuzzer's bytes (tests/fuzz/gen.c): each choice
 * takes the next byte; past the end every choice is 0, so that any input,
 * even an empty one, chooses a whole program. */
typedef struct fz_stream {
    const uint8_t *data;
    size_t size, pos;
} fz_stream;

/* A choice in [0, n) (0 when the bytes are used up or n <= 1). */
unsigned fz_pick(fz_stream *s, unsigned n);
/* Whether a choice of one in `in` came up (fz_pick(s, in) == 0). */
int fz_chance(fz_stream *s, unsigned in);

/* tests/fuzz/gen.c: a valid .ft program chosen by the stream, as a
 * malloc-owned NUL-terminated text. */
char *fz_gen_program(fz_stream *s);

#endif
