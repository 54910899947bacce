/* cg_core.c - what the C and CUDA emitters share (cg_core.h). */
#include "cg_core.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void cg_sub_begin(ft_ctx *ctx, FILE **out, cg_sub *s)
{
    s->saved = *out;
    s->buf = NULL;
    s->len = 0;
    FILE *f = open_memstream(&s->buf, &s->len);
    if (!f) {
        ft_error(ctx, (ft_loc){0}, "out of memory in the backend");
        f = s->saved;
    }
    *out = f;
}

char *cg_sub_end(FILE **out, cg_sub *s)
{
    if (*out != s->saved)
        fclose(*out);
    *out = s->saved;
    if (!s->buf)
        s->buf = calloc(1, 1);
    return s->buf;
}

const char *cg_print_str(const cg_printer *pr, ft_ctx *ctx, const ast_expr *e, int paren)
{
    cg_sub sub;
    cg_sub_begin(ctx, pr->out, &sub);
    cg_print_expr(pr, e, paren);
    char *s = cg_sub_end(pr->out, &sub);
    const char *r = ft_strdup(ctx, s);
    free(s);
    return r;
}

void cg_print_expr(const cg_printer *pr, const ast_expr *e, int paren)
{
    const char *lp = paren ? "(" : "", *rp = paren ? ")" : "";
    switch (e->kind) {
    case AST_INT: cg_int_lit(*pr->out, e->u.ival); break;
    case AST_FLOAT: pr->float_lit(pr->em, e->u.fval, e->dtype); break;
    case AST_BOOLC: fputs(e->u.ival ? "true" : "false", *pr->out); break;
    case AST_VAR: fputs(pr->cname(pr->em, e->u.name), *pr->out); break;
    case AST_LOAD: pr->load(pr->em, e); break;
    case AST_BINARY: pr->binary(pr->em, e, paren); break;
    case AST_UNARY:
        fprintf(*pr->out, "%s%s", lp, e->u.un.op == AST_NEG ? "-" : "!");
        cg_print_expr(pr, e->u.un.a, 1);
        fputs(rp, *pr->out);
        break;
    case AST_CALL: pr->call(pr->em, e); break;
    case AST_CAST:
        fprintf(*pr->out, "%s(%s)", lp, pr->ctype(e->dtype));
        cg_print_expr(pr, e->u.cast.a, 1);
        fputs(rp, *pr->out);
        break;
    case AST_IFEXPR:
        fputs(lp, *pr->out);
        cg_print_expr(pr, e->u.ife.cond, 1);
        fputs(" ? ", *pr->out);
        cg_print_expr(pr, e->u.ife.then, 1);
        fputs(" : ", *pr->out);
        cg_print_expr(pr, e->u.ife.other, 1);
        fputs(rp, *pr->out);
        break;
    }
}

void cg_int_lit(FILE *out, int64_t v)
{
    if (v == INT64_MIN)
        fputs("INT64_MIN", out);
    else if (v > INT32_MAX || v < INT32_MIN)
        fprintf(out, v < 0 ? "(INT64_C(%" PRId64 "))" : "INT64_C(%" PRId64 ")", v);
    else
        fprintf(out, v < 0 ? "(%" PRId64 ")" : "%" PRId64, v);
}

void cg_float_digits(char buf[64], double v, ft_dtype t)
{
    for (int prec = t == FT_F64 ? 15 : 6; prec <= 17; prec++) {
        snprintf(buf, 64, "%.*g", prec, v);
        double back = strtod(buf, NULL);
        if (t == FT_F64 ? back == v : (float)back == (float)v)
            break;
    }
    if (!strpbrk(buf, ".e"))
        strcat(buf, ".0");
}

int cg_is_simple(const char *s)
{
    for (; *s; s++)
        if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return 0;
    return 1;
}

int64_t cg_dtype_size(ft_dtype t)
{
    static const int64_t sizes[FT_DTYPE_COUNT] = {1, 4, 8, 2, 4, 8};
    return sizes[t];
}

int cg_has_load(const ast_expr *e)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case AST_LOAD: return 1;
    case AST_BINARY: return cg_has_load(e->u.bin.a) || cg_has_load(e->u.bin.b);
    case AST_UNARY: return cg_has_load(e->u.un.a);
    case AST_CAST: return cg_has_load(e->u.cast.a);
    case AST_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (cg_has_load(e->u.call.args[i]))
                return 1;
        return 0;
    case AST_IFEXPR:
        return cg_has_load(e->u.ife.cond) || cg_has_load(e->u.ife.then) ||
               cg_has_load(e->u.ife.other);
    default: return 0;
    }
}

int64_t cg_const_elems(const ast_stmt *s)
{
    int64_t n = 1;
    for (int k = 0; k < s->u.def.ndim; k++) {
        const ast_expr *d = s->u.def.shape[k];
        if (d->kind != AST_INT || d->u.ival < 0 || d->u.ival > (INT64_C(1) << 31))
            return -1;
        n *= d->u.ival;
        if (n > (INT64_C(1) << 31))
            return -1;
    }
    return n;
}

void cg_print_null_checks(const cg_printer *pr, ft_ctx *ctx, cg_sites *sites,
                          const ast_func *f)
{
    for (int i = 0; i < f->nparams; i++) {
        const ast_param *p = &f->params[i];
        if (p->is_size)
            continue;
        const char **dims = ft_alloc(ctx, sizeof *dims * (size_t)(p->ndim + 1));
        for (int k = 0; k < p->ndim; k++)
            dims[k] = cg_print_str(pr, ctx, p->shape[k], 1);
        const char *text = cg_null_check(ctx, sites, f, p, pr->cname(pr->em, p->name), dims);
        if (*text)
            pr->line(pr->em, text);
    }
}
