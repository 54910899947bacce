/* target.h - a target: what the passes may use on it and how its code is
 * made.  Chosen once (ftc --target NAME, C by default) and read through
 * ctx->target; the objects are backend/target.c's table, where a new
 * back end is one row.
 *
 * Passes ask for capabilities (FT_CAP_*), never for a target by name.
 */
#ifndef FT_TARGET_H
#define FT_TARGET_H

#include <stdio.h>

struct ft_ctx;
struct ast_program;

enum {
    /* code runs on the host's threads: OpenMP regions with reduction
     * clauses, per-thread copies, SIMD lanes, prefetches, BLAS calls */
    FT_CAP_HOST = 1,
    /* kernels on a grid of blocks and threads: loops bound to blockIdx
     * and threadIdx, grid-stride kernels for the other parallel loops */
    FT_CAP_GPU = 2,
};

typedef struct ft_target {
    const char *name;           /* --target NAME */
    unsigned caps;              /* FT_CAP_* */
    const char *source_ext;     /* of --emit=c -o FILE: ".c", ".cu" */
    /* the source text of p to out; nonzero after errors */
    int (*emit)(struct ft_ctx *ctx, const struct ast_program *p, FILE *out);
    /* the compiler's argv (arena, NULL-terminated) building the library
     * so_path from the source c_path in the private folder dir; blas: the
     * program calls BLAS; NULL after an error */
    char **(*command)(struct ft_ctx *ctx, const char *dir, const char *c_path,
                      const char *so_path, int blas);
} ft_target;

extern const ft_target ft_target_c, ft_target_cuda;

/* Every target, NULL last. */
extern const ft_target *const ft_targets[];

/* The target named name, or NULL. */
const ft_target *ft_target_find(const char *name);

#endif
