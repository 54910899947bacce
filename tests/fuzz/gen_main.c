/* gen_main.c - fz_gen: print the program gen.c makes of each input file
 * (to read a finding of fuzz_pipeline, or to see what the seeds are). */
#include <stdio.h>
#include <stdlib.h>

#include "fz.h"

/* Print the program of every file named on the command line. */
int main(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) {
        FILE *f = fopen(argv[k], "rb");
        if (!f) {
            perror(argv[k]);
            return 1;
        }
        uint8_t buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        fz_stream s = {buf, n, 0};
        char *prog = fz_gen_program(&s);
        fputs(prog, stdout);
        free(prog);
    }
    return 0;
}
