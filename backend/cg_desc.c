/* cg_desc.c - the description table of a built library (runtime/ft_abi.h),
 * the same for the C and the CUDA emitters: each function's call wrapper,
 * shapes functions (physical and logical dimensions), shape texts and
 * parameter rows, then the function rows and `ft_module`.
 */
#include "cg_desc.h"

/* The logical shape of tensor parameter p: lshape when a layout made its
 * storage physical, else its shape. */
static int logical_ndim(const ast_param *p)
{
    return p->lshape ? p->lndim : p->ndim;
}

static ast_expr *const *logical_shape(const ast_param *p)
{
    return p->lshape ? p->lshape : p->shape;
}

/* ft__call_F: the wrapper the loaders call with one pointer per
 * parameter (to an int64_t for a size, the data for a tensor). */
static void call_wrapper(const cg_printer *pr, FILE *o, const ast_func *f)
{
    fprintf(o, "static int ft__call_%s(void *const *ft__args)\n{\n", f->name);
    if (!f->nparams)
        fputs("    (void)ft__args;\n", o);
    fprintf(o, "    return %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        fputs(i ? ",\n        " : "", o);
        if (p->is_size)
            fprintf(o, "*(const int64_t *)ft__args[%d]", i);
        else
            fprintf(o, "(%s%s *)ft__args[%d]", p->access == FT_ACC_IN ? "const " : "",
                    pr->ctype(p->dtype), i);
    }
    fputs(");\n}\n\n", o);
}

/* ft__shapes_F (logical 0) or ft__lshapes_F (1): every tensor dimension
 * from the sizes, physical or logical. */
static void shapes_fn(const cg_printer *pr, ft_ctx *ctx, FILE *o, const ast_func *f, int logical)
{
    fprintf(o, "static void ft__%sshapes_%s(const int64_t *ft__sizes, int64_t *ft__dims)\n{\n",
            logical ? "l" : "", f->name);
    fputs("    (void)ft__sizes; (void)ft__dims;\n", o);
    int nsizes = 0, ndims = 0;
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].is_size) {
            const char *cn = pr->cname(pr->em, f->params[i].name);
            fprintf(o, "    const int64_t %s = ft__sizes[%d]; (void)%s;\n", cn, nsizes++, cn);
        }
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        int nd = p->is_size ? 0 : logical ? logical_ndim(p) : p->ndim;
        ast_expr *const *shape = logical ? logical_shape(p) : p->shape;
        for (int k = 0; k < nd; k++)
            fprintf(o, "    ft__dims[%d] = %s;\n", ndims++, cg_print_str(pr, ctx, shape[k], 0));
    }
    fputs("}\n\n", o);
}

/* static const char *const NAME[] = {texts of shape[n]}; */
static void shape_texts(ft_ctx *ctx, FILE *o, const char *name, int n, ast_expr *const *shape)
{
    fprintf(o, "static const char *const %s[] = {", name);
    for (int k = 0; k < n; k++) {
        fputs(k ? ", " : "", o);
        cg_str_lit(o, ast_expr_text(ctx, shape[k]));
    }
    fputs("};\n", o);
}

/* The parameter rows of f (and the shape texts they point to). */
static void param_rows(ft_ctx *ctx, FILE *o, const ast_func *f)
{
    static const char *const acc[] = {"FT_ABI_IN", "FT_ABI_OUT", "FT_ABI_INOUT", "FT_ABI_IN"};
    static const char *const dt[] = {"FT_ABI_BOOL", "FT_ABI_I32", "FT_ABI_I64", "FT_ABI_F16",
                                     "FT_ABI_F32", "FT_ABI_F64"};
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        if (!p->is_size && p->ndim)
            shape_texts(ctx, o, ft_fmt(ctx, "ft__shape_%s_%d", f->name, i), p->ndim, p->shape);
        if (!p->is_size && p->lshape)
            shape_texts(ctx, o, ft_fmt(ctx, "ft__lshape_%s_%d", f->name, i), p->lndim,
                        p->lshape);
    }
    if (!f->nparams)
        return;
    fprintf(o, "static const ft_param_desc ft__params_%s[] = {\n", f->name);
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        fputs("    {", o);
        cg_str_lit(o, p->name);
        if (p->is_size) {
            fputs(", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},\n", o);
            continue;
        }
        fprintf(o, ", FT_PARAM_TENSOR, %s, %s, %d, %d, %s, ", dt[p->dtype], acc[p->access],
                (int)p->mtype, p->ndim,
                p->ndim ? ft_fmt(ctx, "ft__shape_%s_%d", f->name, i) : "NULL");
        if (p->lshape) {
            cg_str_lit(o, p->layout);
            fprintf(o, ", %d, ft__lshape_%s_%d},\n", p->lndim, f->name, i);
        } else {
            fprintf(o, "NULL, %d, %s},\n", p->ndim,
                    p->ndim ? ft_fmt(ctx, "ft__shape_%s_%d", f->name, i) : "NULL");
        }
    }
    fputs("};\n\n", o);
}

void cg_desc_func(const cg_printer *pr, ft_ctx *ctx, FILE *o, const ast_func *f)
{
    call_wrapper(pr, o, f);
    shapes_fn(pr, ctx, o, f, 0);
    shapes_fn(pr, ctx, o, f, 1);
    param_rows(ctx, o, f);
}

void cg_desc_module(FILE *o, ft_ctx *ctx, const ast_program *p, const cg_sites *sites, int cxx)
{
    cg_sites_emit(o, sites);
    cg_error_accessors(o, sites, cg_error_fn_name(ctx, p), cxx);
    if (p->nfuncs) {
        fputs("static const ft_func_desc ft__funcs[] = {\n", o);
        for (int i = 0; i < p->nfuncs; i++) {
            const ast_func *f = p->funcs[i];
            fputs("    {", o);
            cg_str_lit(o, f->name);
            if (f->nparams)
                fprintf(o, ", %d, ft__params_%s, ", f->nparams, f->name);
            else
                fputs(", 0, NULL, ", o);
            fprintf(o, "ft__call_%s, ft__shapes_%s, ft__lshapes_%s},\n", f->name, f->name,
                    f->name);
        }
        fputs("};\n\n", o);
    }
    fprintf(o, "%s__attribute__((visibility(\"default\")))\n"
            "const ft_module_desc ft_module = {\n"
            "    FT_ABI_VERSION, %d, %s, %d, %s, ft__last_error\n};\n", cxx ? "extern \"C\" " : "",
            p->nfuncs, p->nfuncs ? "ft__funcs" : "NULL", sites->items.len,
            sites->items.len ? "ft__sites" : "NULL");
}
