/* target.c - the targets (ast/target.h): one row per back end. */
#include "../ast/target.h"

#include <string.h>

#include "cg.h"

const ft_target ft_target_c = {"c", FT_CAP_HOST, ".c", cg_emit_c, cg_cc_command};
const ft_target ft_target_cuda = {"cuda", FT_CAP_GPU, ".cu", cg_emit_cuda, cg_nvcc_command};

const ft_target *const ft_targets[] = {&ft_target_c, &ft_target_cuda, NULL};

const ft_target *ft_target_find(const char *name)
{
    for (int i = 0; ft_targets[i]; i++)
        if (strcmp(ft_targets[i]->name, name) == 0)
            return ft_targets[i];
    return NULL;
}
