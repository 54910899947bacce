/* fuzz_frontend.c - libFuzzer harness (a): bytes -> diagnostics.
 *
 * The input is a .ft file, any bytes (NULs, CRs, invalid UTF-8 included);
 * the compiler runs on it as `ftc build --emit=c` would (fz.h) in a fresh
 * context freed after every run.  Findings: a crash, a sanitizer report, a
 * leak, an input over the time or memory limit, an error without a
 * location, an internal error, a failure without an error.
 */
#include "fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One run: compile the bytes, check the diagnostics. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_compile("fuzz.ft", data, size, 0);
    return 0;
}
