/* stream.c - the fuzzer's bytes as a stream of choices (fz.h). */
#include "fz.h"

unsigned fz_pick(fz_stream *s, unsigned n)
{
    if (n <= 1 || s->pos >= s->size)
        return 0;
    return s->data[s->pos++] % n;
}

int fz_chance(fz_stream *s, unsigned in)
{
    return fz_pick(s, in) == 0;
}
