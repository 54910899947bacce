/* cg_desc.h - the description table of a built library (runtime/ft_abi.h),
 * written by the C and the CUDA emitters alike. */
#ifndef FT_CG_DESC_H
#define FT_CG_DESC_H

#include "cg_core.h"

/* f's call wrapper ft__call_F, shapes functions ft__shapes_F (physical)
 * and ft__lshapes_F (logical), and parameter rows ft__params_F; pr is the
 * emitter's printer (C names, C types, expressions). */
void cg_desc_func(const cg_printer *pr, ft_ctx *ctx, FILE *o, const ast_func *f);

/* The sites, the error accessor, the function rows and `ft_module`
 * (cxx: C++, for the CUDA file). */
void cg_desc_module(FILE *o, ft_ctx *ctx, const ast_program *p, const cg_sites *sites, int cxx);

#endif
