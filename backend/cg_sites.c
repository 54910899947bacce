/* cg_sites.c - the error sites of a library (see cg_sites.h).
 *
 * A site's `where` is the user's program: a statement's own location when
 * it lies in the file of the exported function, else the call it was
 * inlined through (ft_loc.via), followed outwards until a call in that
 * file; the function called there is named in the message, with the
 * check's own place ("in matmul() (stdlib/linalg.ft:20:5)"); a check in
 * the user's own inline function names the call instead ("in half()
 * (called at prog.ft:9:9)").
 *
 * A user's `assert c` quotes c as written: the text after the `assert`
 * keyword at the statement's location, up to the end of the statement.
 * When c compares two values, the message names both sides and the
 * failure records their values ("assert `k == k2` failed in matmul()
 * (...): k = 4, k2 = 20000"); a literal side is not repeated.
 */
#include "cg_sites.h"

#include "../runtime/ft_abi.h"

#include <stdlib.h>
#include <string.h>

/* One site (becomes an ft_site_desc). */
typedef struct cg_site {
    int code;
    const char *where;
    const char *msg;         /* "%0"/"%1" for the values, "%%" for '%' */
    int kinds[2];
} cg_site;

static const char *const cg_code_names[] = {
    "FT_OK", "FT_ERR_SIZE", "FT_ERR_ASSERT", "FT_ERR_INDEX", "FT_ERR_NOMEM", "FT_ERR_NODEVICE",
    "FT_ERR_NULL",
};

/* s with every '%' doubled (a message template's literal text). */
static const char *cg_esc(ft_ctx *ctx, const char *s)
{
    size_t n = 0;
    for (const char *c = s; *c; c++)
        n += *c == '%' ? 2 : 1;
    char *r = ft_alloc(ctx, n + 1), *o = r;
    for (const char *c = s; *c; c++) {
        *o++ = *c;
        if (*c == '%')
            *o++ = '%';
    }
    *o = '\0';
    return r;
}

/* "path:line:col" of loc (the function's name when loc has no file). */
static const char *cg_loc_text(ft_ctx *ctx, ft_loc loc, const ast_func *f)
{
    if (!loc.src)
        return f ? f->name : "?";
    return ft_fmt(ctx, "%s:%d:%d", loc.src->path, loc.line, loc.col);
}

/* The place in the user's program of a statement at loc: loc itself in
 * the exported function's file, else the innermost call in that file it
 * was inlined through; *op gets the function called there (NULL when loc
 * is the user's own). */
static ft_loc cg_user_loc(const ast_func *f, ft_loc loc, const char **op)
{
    const ft_source *user = f ? f->loc.src : NULL;
    *op = NULL;
    while (loc.via && (!user || loc.src != user)) {
        *op = loc.via->func;
        loc = loc.via->at;
    }
    return loc;
}

/* The id of a site equal to s (the same check emitted again: the
 * functions of a gradient repeat their size checks), or -1. */
static int cg_site_find(const cg_sites *sites, const cg_site *s)
{
    for (int i = 0; i < sites->items.len; i++) {
        const cg_site *o = sites->items.items[i];
        if (o->code == s->code && o->kinds[0] == s->kinds[0] && o->kinds[1] == s->kinds[1] &&
            !strcmp(o->where, s->where) && !strcmp(o->msg, s->msg))
            return i;
    }
    return -1;
}

/* The id of s among the sites, added when no equal one is there. */
static cg_failure cg_site_intern(ft_ctx *ctx, cg_sites *sites, cg_site *s)
{
    cg_failure fl = {.site = cg_site_find(sites, s), .code = s->code,
                     .code_name = cg_code_names[s->code]};
    if (fl.site < 0) {
        ft_vec_push(ctx, &sites->items, s);
        fl.site = sites->items.len - 1;
    }
    return fl;
}

/* Where a check at loc is, beyond its user's place (*op, *user: as
 * cg_user_loc): " in OP() (check's place)" for code inlined from another
 * file, " in F() (called at X)" in the user's own inline function F, else
 * "" (a template, escaped). */
static const char *cg_site_in(ft_ctx *ctx, const ast_func *f, ft_loc loc, const char *op,
                              ft_loc user)
{
    if (op)   /* inlined from another file: name the check's own place */
        return loc.src && loc.src != user.src
               ? ft_fmt(ctx, " in %s() (%s)", op, cg_esc(ctx, cg_loc_text(ctx, loc, f)))
               : ft_fmt(ctx, " in %s()", op);
    if (user.via)   /* in the user's own inline function: name its call */
        return ft_fmt(ctx, " in %s() (called at %s)", user.via->func,
                      cg_esc(ctx, cg_loc_text(ctx, user.via->at, f)));
    return "";
}

/* A new site of code at the user's place of loc (msg and kinds unset). */
static cg_site *cg_site_new(ft_ctx *ctx, const ast_func *f, ft_loc loc, int code,
                            const int kinds[2])
{
    cg_site *s = ft_alloc(ctx, sizeof *s);
    const char *op;
    s->code = code;
    s->where = cg_loc_text(ctx, cg_user_loc(f, loc, &op), f);
    s->kinds[0] = kinds ? kinds[0] : FT_VAL_NONE;
    s->kinds[1] = kinds ? kinds[1] : FT_VAL_NONE;
    return s;
}

/* Add a site (or find its equal): where = the user's place of loc; msg = head, then " in OP()
 * (check's place)" for inlined code, then tail (templates, escaped). */
static cg_failure cg_site_add(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                              int code, const char *head, const char *tail, const int kinds[2])
{
    const char *op;
    ft_loc user = cg_user_loc(f, loc, &op);
    cg_site *s = cg_site_new(ctx, f, loc, code, kinds);
    s->msg = ft_fmt(ctx, "%s%s%s", head, cg_site_in(ctx, f, loc, op, user), tail ? tail : "");
    return cg_site_intern(ctx, sites, s);
}

const char *cg_site_value(ft_ctx *ctx, const char *text, ft_dtype t, int *kind)
{
    if (t == FT_BOOL) {
        *kind = FT_VAL_BOOL;
        return ft_fmt(ctx, "(int64_t)(%s)", text);
    }
    if (ft_dtype_is_float(t)) {
        *kind = t == FT_F64 ? FT_VAL_DOUBLE : FT_VAL_FLOAT;
        return ft_fmt(ctx, "ft__fbits((double)(%s))", text);
    }
    *kind = FT_VAL_INT;
    return ft_fmt(ctx, "(int64_t)(%s)", text);
}

/* ------------------------------------------------------------ asserts */

/* The start of line `line` of src's text (NULL past the end). */
static const char *cg_line_start(const ft_source *src, int line)
{
    const char *p = src->text;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p)
            return NULL;
        p++;
    }
    return p;
}

/* The condition of the `assert` statement at loc as written (blanks
 * collapsed, up to the end of the statement or the comma before its
 * message), or NULL when no `assert`
 * keyword is there (a check the front end made). */
static const char *cg_assert_source(ft_ctx *ctx, ft_loc loc)
{
    if (!loc.src || loc.line < 1 || loc.col < 1)
        return NULL;
    const char *p = cg_line_start(loc.src, loc.line);
    if (!p || (size_t)(loc.col - 1) > strcspn(p, "\n"))
        return NULL;
    p += loc.col - 1;
    if (strncmp(p, "assert", 6) != 0 || !strchr(" \t(", p[6]))
        return NULL;
    p += 6;
    char *out = ft_alloc(ctx, strlen(p) + 1), *o = out;
    int depth = 0;
    char quote = 0;
    for (; *p; p++) {
        char c = *p;
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[') {
            depth++;
        } else if (c == ')' || c == ']') {
            depth--;
        } else if (depth <= 0 && (c == '\n' || c == ';' || c == '#' || c == ',')) {
            break;      /* `assert c, "message", ...`: the condition only */
        } else if (c == '#') {   /* a comment inside brackets: skip the line */
            p += strcspn(p, "\n") - 1;
            continue;
        }
        if (c == '\n' || c == '\t' || c == '\r' || c == '\\')
            c = ' ';
        if (c == ' ' && (o == out || o[-1] == ' '))
            continue;
        *o++ = c;
    }
    while (o > out && o[-1] == ' ')
        o--;
    *o = '\0';
    return *out ? out : NULL;
}

/* Split condition text at its only top-level comparison, which must be op:
 * sets *lhs and *rhs (trimmed); returns 0 when there is not exactly one. */
static int cg_split_compare(ft_ctx *ctx, const char *text, const char *op, const char **lhs,
                            const char **rhs)
{
    int depth = 0, found = 0;
    size_t at = 0, oplen = 0;
    char quote = 0;
    for (size_t i = 0; text[i]; i++) {
        char c = text[i], d = text[i + 1];
        if (quote) {
            quote = c == quote ? 0 : quote;
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']')
            depth--;
        else if (depth == 0 && (c == '<' || c == '>' || ((c == '=' || c == '!') && d == '='))) {
            size_t len = d == '=' ? 2 : 1;
            found++;
            at = i;
            oplen = len;
            i += len - 1;
        }
    }
    if (found != 1 || strlen(op) != oplen || strncmp(text + at, op, oplen) != 0)
        return 0;
    size_t l = at, r = at + oplen;
    while (l > 0 && text[l - 1] == ' ')
        l--;
    while (text[r] == ' ')
        r++;
    if (!l || !text[r])
        return 0;
    *lhs = ft_strndup(ctx, text, l);
    *rhs = ft_strdup(ctx, text + r);
    return 1;
}

/* Whether e is a literal (its value needs no reporting). */
static int cg_is_literal(const ast_expr *e)
{
    return e->kind == AST_INT || e->kind == AST_FLOAT || e->kind == AST_BOOLC ||
           (e->kind == AST_UNARY && e->u.un.op == AST_NEG && cg_is_literal(e->u.un.a)) ||
           (e->kind == AST_CAST && cg_is_literal(e->u.cast.a));
}

/* Whether source text t is a number ("2", "-0.5", "1e-3"). */
static int cg_is_number(const char *t)
{
    char *end;
    if (*t == '-')
        t++;
    if (!(*t >= '0' && *t <= '9') && *t != '.')
        return 0;
    (void)strtod(t, &end);
    return *end == '\0' || !strcmp(end, "f");
}

/* Message msg of an assert (ast.h, ast_stmt.msg) as a template: each
 * side's marker becomes the value recorded in its slot (slot[k] >= 0; side
 * NULL: no comparison), else the side's text when it is a literal, else
 * the name the marker carries. */
static const char *cg_msg_template(ft_ctx *ctx, const char *msg, const ast_expr *const *side,
                                   const int slot[2])
{
    const char *t = "", *p = msg, *m;
    while ((m = strchr(p, '\x01')) && (m[1] == '0' || m[1] == '1')) {
        int k = m[1] - '0';
        const char *end = strchr(m, '\x02');
        if (!end)
            break;
        const char *v = slot[k] >= 0 ? ft_fmt(ctx, "%%%d", slot[k])
                        : side && cg_is_literal(side[k])
                            ? cg_esc(ctx, ast_expr_text(ctx, side[k]))
                            : cg_esc(ctx, ft_strndup(ctx, m + 2, (size_t)(end - m - 2)));
        t = ft_fmt(ctx, "%s%s%s", t, cg_esc(ctx, ft_strndup(ctx, p, (size_t)(m - p))), v);
        p = end + 1;
    }
    return ft_fmt(ctx, "%s%s", t, cg_esc(ctx, p));
}

/* The site of assert s that has a message (source text src, or NULL for
 * a check the front end made): "OP: MESSAGE (assert `c` in PLACE)", OP
 * the operator inlined from another file and PLACE the assert's own
 * place there (or the call of the user's inline function), the values
 * recorded in slot order (cg_msg_template); a recorded side the message
 * does not show is listed after the place ("...: lhs = 4"). */
static cg_failure cg_site_add_msg(ft_ctx *ctx, cg_sites *sites, const ast_func *f,
                                  const ast_stmt *s, const char *src,
                                  const ast_expr *const *side, const char *const *name,
                                  const int slot[2], const int kinds[2])
{
    const char *op;
    ft_loc user = cg_user_loc(f, s->loc, &op);
    cg_site *site = cg_site_new(ctx, f, s->loc, FT_ERR_ASSERT, kinds);
    const char *place = op && s->loc.src && s->loc.src != user.src
                        ? ft_fmt(ctx, " in %s", cg_esc(ctx, cg_loc_text(ctx, s->loc, f)))
                        : op ? "" : cg_site_in(ctx, f, s->loc, NULL, user);
    const char *what = src ? ft_fmt(ctx, "assert `%s`%s", cg_esc(ctx, src), place)
                       : *place ? ft_fmt(ctx, "check%s", place) : NULL;
    const char *rest = "";   /* the recorded sides the message does not show */
    for (int k = 0; k < 2; k++)
        if (slot[k] >= 0 && !strstr(s->msg, ft_fmt(ctx, "\x01%c", '0' + k)))
            rest = ft_fmt(ctx, "%s%s%s = %%%d", rest, *rest ? ", " : ": ",
                          cg_esc(ctx, name[k]), slot[k]);
    if (*rest)
        what = ft_fmt(ctx, "%s%s", what ? what : "check", rest);
    site->msg = ft_fmt(ctx, "%s%s%s%s%s", op ? cg_esc(ctx, op) : "", op ? ": " : "",
                       cg_msg_template(ctx, s->msg, side, slot), what ? " (" : "",
                       what ? what : "");
    if (what)
        site->msg = ft_fmt(ctx, "%s)", site->msg);
    return cg_site_intern(ctx, sites, site);
}

cg_failure cg_site_assert(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_stmt *s,
                          const ast_expr **lhs, const ast_expr **rhs)
{
    const ast_expr *c = s->u.cond;
    const char *src = cg_assert_source(ctx, s->loc);
    const char *head = src ? ft_fmt(ctx, "assert `%s` failed", cg_esc(ctx, src))
                           : ft_fmt(ctx, "shape check `%s` failed",
                                    cg_esc(ctx, ast_expr_text(ctx, c)));
    *lhs = *rhs = NULL;
    if (c->kind != AST_BINARY || c->u.bin.op < AST_LT || c->u.bin.op > AST_NE) {
        const int none[2] = {-1, -1};
        return s->msg ? cg_site_add_msg(ctx, sites, f, s, src, NULL, NULL, none, NULL)
                      : cg_site_add(ctx, sites, f, s->loc, FT_ERR_ASSERT, head, NULL, NULL);
    }
    const ast_expr *side[2] = {c->u.bin.a, c->u.bin.b};
    const char *name[2];
    if (!src || !cg_split_compare(ctx, src, ast_binop_text(c->u.bin.op), &name[0], &name[1]) ||
        cg_is_number(name[0]) != cg_is_literal(side[0]) ||
        cg_is_number(name[1]) != cg_is_literal(side[1]))
        for (int i = 0; i < 2; i++)   /* no source text that surely matches the sides */
            name[i] = ast_expr_text(ctx, side[i]);
    const char *tail = "";
    int kinds[2] = {FT_VAL_NONE, FT_VAL_NONE}, nv = 0, slot[2] = {-1, -1};
    const ast_expr **out[2] = {lhs, rhs};
    for (int i = 0; i < 2; i++) {
        if (cg_is_literal(side[i]))
            continue;
        int kind;
        (void)cg_site_value(ctx, "0", side[i]->dtype, &kind);
        kinds[nv] = kind;
        *out[nv] = side[i];
        tail = ft_fmt(ctx, "%s%s%s = %%%d", tail, nv ? ", " : ": ", cg_esc(ctx, name[i]), nv);
        slot[i] = nv++;
    }
    if (s->msg)
        return cg_site_add_msg(ctx, sites, f, s, src, side, name, slot, kinds);
    return cg_site_add(ctx, sites, f, s->loc, FT_ERR_ASSERT, head, tail, kinds);
}

/* --------------------------------------------------------- other checks */

ft_loc cg_site_access_loc(ft_loc loc, ft_loc stmt)
{
    if (!loc.src)
        return stmt;
    loc.via = stmt.via;
    return loc;
}

cg_failure cg_site_index(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         const char *var, int k, const ast_expr *idx)
{
    const int kinds[2] = {FT_VAL_INT, FT_VAL_INT};
    if (idx->loc.src) {   /* at the index as written (a store's is its value's) */
        ft_loc at = idx->loc;
        at.via = loc.via;
        loc = at;
    }
    const char *head = ft_fmt(ctx, "index out of bounds: `%s` = %%0 is outside [0, %%1) "
                              "(dimension %d of %s)", cg_esc(ctx, ast_expr_text(ctx, idx)), k,
                              var);
    return cg_site_add(ctx, sites, f, loc, FT_ERR_INDEX, head, NULL, kinds);
}

cg_failure cg_site_size(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_param *p)
{
    const int kinds[2] = {FT_VAL_INT, FT_VAL_NONE};
    const char *head = ft_fmt(ctx, "negative size: %s = %%0", p->name);
    return cg_site_add(ctx, sites, f, p->loc.src ? p->loc : f->loc, FT_ERR_SIZE, head, NULL,
                       kinds);
}

cg_failure cg_site_nomem(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         const char *what)
{
    const int kinds[2] = {FT_VAL_UINT, FT_VAL_NONE};
    const char *head = ft_fmt(ctx, "out of memory: cannot allocate %%0 bytes for %s",
                              cg_esc(ctx, what));
    return cg_site_add(ctx, sites, f, loc, FT_ERR_NOMEM, head, NULL, kinds);
}

/* The site of the check that tensor parameter p of f is not NULL when it
 * has elements (no values: the message names p and its shape). */
static cg_failure cg_site_null(ft_ctx *ctx, cg_sites *sites, const ast_func *f,
                               const ast_param *p)
{
    const char *shape = "";
    for (int k = 0; k < p->ndim; k++)
        shape = ft_fmt(ctx, "%s%s%s", shape, k ? ", " : "", ast_expr_text(ctx, p->shape[k]));
    const char *msg = ft_fmt(ctx, "null pointer: tensor parameter `%s` (%s%s%s%s) is NULL but "
                             "has elements", p->name, ft_dtype_name(p->dtype), p->ndim ? "[" : "",
                             shape, p->ndim ? "]" : "");
    return cg_site_plain(ctx, sites, f, p->loc.src ? p->loc : f->loc, FT_ERR_NULL, msg);
}

const char *cg_null_check(ft_ctx *ctx, cg_sites *sites, const ast_func *f, const ast_param *p,
                          const char *cname, const char *const *dims)
{
    const char *cond = p->opaque ? ft_fmt(ctx, "!%s__bytes", cname) : ft_fmt(ctx, "!%s", cname);
    for (int k = 0; k < p->ndim; k++) {
        const ast_expr *d = p->shape[k];
        if (d->kind == AST_INT && d->u.ival <= 0)
            return "";      /* never any element: nothing to check */
        if (d->kind != AST_INT)
            cond = ft_fmt(ctx, "%s && %s > 0", cond, dims[k]);
    }
    cg_failure fl = cg_site_null(ctx, sites, f, p);
    return ft_fmt(ctx, "if (%s) return ft__raise(FT_ERR_NULL, %d, 0, 0);", cond, fl.site);
}

cg_failure cg_site_plain(ft_ctx *ctx, cg_sites *sites, const ast_func *f, ft_loc loc,
                         int code, const char *msg)
{
    return cg_site_add(ctx, sites, f, loc, code, cg_esc(ctx, msg), NULL, NULL);
}

/* ----------------------------------------------------------- C text */

void cg_str_lit(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", out);
        else if (*s == '?')
            fputs("\\?", out);   /* no trigraphs */
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

void cg_sites_emit(FILE *out, const cg_sites *sites)
{
    if (!sites->items.len)
        return;
    fputs("/* The run-time checks: where each is in the program and what it checks. */\n"
          "static const ft_site_desc ft__sites[] = {\n", out);
    for (int i = 0; i < sites->items.len; i++) {
        const cg_site *s = sites->items.items[i];
        fprintf(out, "    {%s, ", cg_code_names[s->code]);
        cg_str_lit(out, s->where);
        fputs(", ", out);
        cg_str_lit(out, s->msg);
        fprintf(out, ", {%d, %d}},   /* %d */\n", s->kinds[0], s->kinds[1], i);
    }
    fputs("};\n\n", out);
}

/* Whether c may appear in a C identifier. */
static int cg_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

const char *cg_error_fn_name(ft_ctx *ctx, const ast_program *p)
{
    const ft_source *src = NULL;
    for (int i = 0; i < p->nfuncs && !src; i++)
        src = p->funcs[i]->loc.src;
    const char *base = src && src->path ? src->path : "";
    const char *slash = strrchr(base, '/');
    base = slash ? slash + 1 : base;
    size_t n = strcspn(base, ".");
    char *m = ft_strndup(ctx, base, n);
    for (char *c = m; *c; c++)
        if (!cg_ident_char(*c))
            *c = '_';
    if (!*m)
        m = "ft";
    else if (*m >= '0' && *m <= '9')
        m = ft_fmt(ctx, "ft_%s", m);
    return ft_fmt(ctx, "%s_last_error", m);
}

int cg_clashes_error_fn(ft_ctx *ctx, const ast_program *p)
{
    const char *name = cg_error_fn_name(ctx, p);
    for (int i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i]->name, name) == 0) {
            ft_error(ctx, p->funcs[i]->loc, "exported function name '%s' clashes with the "
                     "library's error helper of that name; rename the function", name);
            return 1;
        }
    return 0;
}

static const char cg_helpers_text[] =
    "/* Run-time errors (backend/cg_sites.c): the calling thread's last failure;\n"
    " * ft__raise records one on the calling thread and returns its code;\n"
    " * ft__fail records the first failure of a call in the call's record (a CAS\n"
    " * on its error code: race-free in parallel regions); ft__done publishes\n"
    " * the call's record when it failed. */\n"
    "static __thread ft_error_rec ft__last = {FT_OK, -1, {0, 0}};\n"
    "static inline int ft__raise(int code, int site, int64_t a, int64_t b)\n{\n"
    "    ft__last.code = code;\n"
    "    ft__last.site = site;\n"
    "    ft__last.v[0] = a;\n"
    "    ft__last.v[1] = b;\n"
    "    return code;\n}\n"
    "static inline void ft__fail(int *err, ft_error_rec *r, int code, int site, int64_t a,\n"
    "                            int64_t b)\n{\n"
    "    int ok = FT_OK;\n"
    "    if (__atomic_compare_exchange_n(err, &ok, code, 0, __ATOMIC_RELAXED,\n"
    "                                    __ATOMIC_RELAXED)) {\n"
    "        r->code = code;\n"
    "        r->site = site;\n"
    "        r->v[0] = a;\n"
    "        r->v[1] = b;\n"
    "    }\n}\n"
    "static inline int ft__done(int err, const ft_error_rec *r)\n{\n"
    "    if (err != FT_OK)\n"
    "        ft__last = *r;\n"
    "    return err;\n}\n"
    "static inline FT__HD_BITS int64_t ft__fbits(double x)\n{\n"
    "    int64_t b;\n"
    "    memcpy(&b, &x, sizeof b);\n"
    "    return b;\n}\n"
    "/* Append s to buf[size] at *n (cut at the end, always terminated). */\n"
    "static void ft__put(char *buf, size_t size, size_t *n, const char *s)\n{\n"
    "    while (*s && *n + 1 < size)\n"
    "        buf[(*n)++] = *s++;\n"
    "    buf[*n < size ? *n : size - 1] = '\\0';\n}\n"
    "/* Append value v of kind k (FT_VAL_*). */\n"
    "static void ft__put_val(char *buf, size_t size, size_t *n, int k, int64_t v)\n{\n"
    "    char t[40];\n"
    "    double d;\n"
    "    memcpy(&d, &v, sizeof d);\n"
    "    if (k == FT_VAL_FLOAT || k == FT_VAL_DOUBLE)\n"
    "        __builtin_snprintf(t, sizeof t, k == FT_VAL_FLOAT ? \"%.9g\" : \"%.17g\", d);\n"
    "    else if (k == FT_VAL_BOOL)\n"
    "        __builtin_snprintf(t, sizeof t, \"%s\", v ? \"true\" : \"false\");\n"
    "    else if (k == FT_VAL_UINT && v == -1)   /* ft__nbytes: the size overflowed */\n"
    "        __builtin_snprintf(t, sizeof t, \"more than SIZE_MAX\");\n"
    "    else if (k == FT_VAL_UINT)\n"
    "        __builtin_snprintf(t, sizeof t, \"%llu\", (unsigned long long)v);\n"
    "    else\n"
    "        __builtin_snprintf(t, sizeof t, \"%lld\", (long long)v);\n"
    "    ft__put(buf, size, n, t);\n}\n"
    "/* \"where: message\" of record e at site s (NULL: unknown) into buf[size]. */\n"
    "static void ft__format(char *buf, size_t size, const ft_error_rec *e,\n"
    "                       const ft_site_desc *s)\n{\n"
    "    size_t n = 0;\n"
    "    char t[64];\n"
    "    buf[0] = '\\0';\n"
    "    if (e->code == FT_OK || !s) {\n"
    "        __builtin_snprintf(t, sizeof t, e->code == FT_OK ? \"no error\" : \"error code %d\", e->code);\n"
    "        ft__put(buf, size, &n, t);\n"
    "        return;\n"
    "    }\n"
    "    ft__put(buf, size, &n, s->where);\n"
    "    ft__put(buf, size, &n, \": \");\n"
    "    for (const char *m = s->msg; *m; m++) {\n"
    "        if (m[0] == '%' && (m[1] == '0' || m[1] == '1')) {\n"
    "            ft__put_val(buf, size, &n, s->kinds[m[1] - '0'], e->v[m[1] - '0']);\n"
    "            m++;\n"
    "            continue;\n"
    "        }\n"
    "        t[0] = *m;\n"
    "        t[1] = '\\0';\n"
    "        m += m[0] == '%' && m[1] == '%';\n"
    "        ft__put(buf, size, &n, t);\n"
    "    }\n}\n";

void cg_error_helpers(FILE *out, int cxx)
{
    /* ft__fbits records a float in a CUDA kernel too */
    fprintf(out, "#define FT__HD_BITS%s\n", cxx ? " __host__ __device__" : "");
    fputs(cg_helpers_text, out);
    fputs("/* end of the run-time error helpers */\n", out);   /* golden/run.py */
}

void cg_error_accessors(FILE *out, const cg_sites *sites, const char *name, int cxx)
{
    int n = sites->items.len;
    fputs("/* ft_module.last_error: the calling thread's last failure. */\n"
          "static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)\n{\n"
          "    const ft_error_rec e = ft__last;\n"
          "    if (rec)\n"
          "        *rec = e;\n", out);
    if (n)
        fprintf(out, "    const ft_site_desc *s = e.site >= 0 && e.site < %d ? &ft__sites[e.site] "
                ": NULL;\n", n);
    else
        fputs("    const ft_site_desc *s = NULL;\n", out);
    fputs("    if (buf && size)\n"
          "        ft__format(buf, size, &e, s);\n"
          "    return e.code;\n}\n\n", out);
    fprintf(out, "/* The C ABI's error helper (the generated header declares it). */\n"
            "%s__attribute__((visibility(\"default\")))\n"
            "int %s(char *buf, size_t size)\n{\n"
            "    return ft__last_error(NULL, buf, size);\n}\n\n", cxx ? "extern \"C\" " : "",
            name);
}

void cg_error_header(FILE *out, const char *name)
{
    fprintf(out, "/* %s(buf, size): after a call of this library returned non-zero,\n"
            " * what failed: writes \"file:line:col: message\" (the place in the .ft\n"
            " * program, for stdlib code the call site, and the values the failed check\n"
            " * saw) into buf[size] (NULL or 0: nothing) and returns that call's code.\n"
            " * Per thread: it describes the last failed call of the calling thread\n"
            " * (FT_OK and \"no error\" when none failed yet). */\n"
            "int %s(char *buf, size_t size);\n\n", name, name);
}
