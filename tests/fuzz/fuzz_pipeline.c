/* fuzz_pipeline.c - libFuzzer harness (b): the whole pipeline to C on
 * generated programs.
 *
 * The input is a choice stream for gen.c's grammar, so that every input is
 * a valid program (with schedule lines that may be refused and a `grad`
 * line); the compiler must write C or give located errors (fz.h), with
 * the verifier of parallel code after every scheduling pass (as the test
 * suites run it).  A standalone build with -DFZ_GEN_MAIN prints the program
 * of an input instead (tests/fuzz/run.py --show).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One run: generate the program, compile it, check the diagnostics. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_stream s = {data, size, 0};
    char *prog = fz_gen_program(&s);
    fz_compile("gen.ft", (const uint8_t *)prog, strlen(prog), 1);
    free(prog);
    return 0;
}
