/* stdlib_doc.c - `ftc stdlib`: the standard library's operators, their
 * signatures, docs and PyTorch/NumPy equivalents.
 *
 * The .ft operators are read from the stdlib texts embedded into ftc
 * (stdlib/embed.py): fe_doc_parse takes the comment block above each public
 * `func` line as its doc (the convention is in stdlib_doc.h and
 * stdlib/README.md).  The intrinsics and builtins, which the front end
 * implements in C (frontend/expr.c, intrinsics.c), are described by the
 * table fe_builtin_docs below.  Everything is built per call into an
 * fe_doc_list and freed before returning.
 */
#include "frontend/stdlib_doc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The stdlib texts embedded into ftc (stdlib/embed.py, ft_stdlib.c). */
extern const int ft_stdlib_count;
extern const char *const ft_stdlib_names[];
extern const char *const ft_stdlib_texts[];

/* ------------------------------------------------------ growable text */

/* A growable string; oom set once an allocation failed. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

/* Append n bytes of s to b (kept NUL-terminated). */
static void sb_putn(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->oom = 1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

/* Append one character. */
static void sb_putc(sbuf *b, char c) { sb_putn(b, &c, 1); }

/* Append a NUL-terminated string. */
static void sb_puts(sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

/* Hand b's text over (an empty string if nothing was appended); NULL
 * after an allocation failure. */
static char *sb_take(sbuf *b)
{
    if (!b->oom && !b->s)
        sb_putn(b, "", 0);
    if (b->oom) {
        free(b->s);
        return NULL;
    }
    return b->s;
}

/* ------------------------------------------------------------ parsing */

/* The end of the line that starts at s: its '\n' or the final NUL. */
static const char *line_end(const char *s) { return s + strcspn(s, "\n"); }

/* Whether the line at s is `func NAME...` at column 0; NAME's extent goes
 * to *name, *len. */
static int func_line(const char *s, const char **name, size_t *len)
{
    if (strncmp(s, "func", 4) || (s[4] != ' ' && s[4] != '\t'))
        return 0;
    const char *p = s + 4 + strspn(s + 4, " \t"), *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
        q++;
    *name = p;
    *len = (size_t)(q - p);
    return q > p;
}

/* Append c to a one-line signature, preceded by the space a skipped run of
 * whitespace stands for, except after an opening or before a closing
 * bracket or a comma. */
static void sig_char(sbuf *b, char c, int *space)
{
    char last = b->n ? b->s[b->n - 1] : '(';
    if (*space && last != '(' && last != '[' && c != ')' && c != ']' && c != ',')
        sb_putc(b, ' ');
    *space = 0;
    sb_putc(b, c);
}

/* Copy the string literal at p (its quote) into b; returns the character
 * after its closing quote (or the end of the line). */
static const char *sig_string(const char *p, sbuf *b, int *space)
{
    char q = *p;
    sig_char(b, *p++, space);
    while (*p && *p != '\n' && *p != q) {
        if (*p == '\\' && p[1] && p[1] != '\n')
            sb_putc(b, *p++);
        sb_putc(b, *p++);
    }
    if (*p == q)
        sb_putc(b, *p++);
    return p;
}

/* Copy the parameter list that starts at p (its '(') into b on one line:
 * runs of whitespace and line breaks become one space, comments and a
 * trailing comma go.  Returns the character after the closing ')' (or the
 * end of the text). */
static const char *sig_copy(const char *p, sbuf *b)
{
    int depth = 0, space = 0;
    while (*p) {
        char c = *p;
        if (c == '#')
            p = line_end(p);
        else if (isspace((unsigned char)c))
            space = 1, p++;
        else if (c == '"' || c == '\'')
            p = sig_string(p, b, &space);
        else {
            if ((c == ')' || c == ']') && depth == 1 && b->n && b->s[b->n - 1] == ',')
                b->s[--b->n] = 0;          /* the trailing comma */
            sig_char(b, c, &space);
            p++;
            depth += (c == '(' || c == '[') - (c == ')' || c == ']');
            if (depth == 0)
                return p;
        }
    }
    return p;
}

/* Append [s, e) less the whitespace at its end. */
static void put_trimmed(sbuf *b, const char *s, const char *e)
{
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    sb_putn(b, s, (size_t)(e - s));
}

/* Split the comment block [s, e) (lines starting with '#') into the doc
 * lines, less `#` and one space, and the text of its `# like:` lines
 * (joined with ", "). */
static void doc_copy(const char *s, const char *e, sbuf *doc, sbuf *like)
{
    while (s < e) {
        const char *le = line_end(s), *t = s + 1;
        if (*t == ' ')
            t++;
        if (!strncmp(t, "like:", 5)) {
            t += 5 + strspn(t + 5, " \t");
            if (like->n)
                sb_puts(like, ", ");
            put_trimmed(like, t, le);
        } else {
            put_trimmed(doc, t, le);
            sb_putc(doc, '\n');
        }
        s = *le ? le + 1 : le;
    }
}

/* A new zeroed operator at the end of l; NULL out of memory. */
static fe_doc *list_push(fe_doc_list *l)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        fe_doc *v = realloc(l->v, sizeof *v * (size_t)cap);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    fe_doc *d = &l->v[l->n++];
    memset(d, 0, sizeof *d);
    return d;
}

/* Free one operator's strings. */
static void doc_free(fe_doc *d)
{
    free(d->name);
    free(d->sig);
    free(d->doc);
    free(d->like);
}

/* Append an operator made of the given parts, which it takes over (sig,
 * doc and like from sb_take, like NULL when empty).  Returns 0, or -1 out
 * of memory (the parts freed). */
static int list_add(fe_doc_list *l, char *name, sbuf *sig, sbuf *doc, sbuf *like)
{
    int had_like = like->n > 0;
    fe_doc tmp = {name, sb_take(sig), sb_take(doc), sb_take(like), NULL, NULL, 0};
    if (!had_like) {
        free(tmp.like);
        tmp.like = NULL;
    }
    fe_doc *d = tmp.name && tmp.sig && tmp.doc && (tmp.like || !had_like) ? list_push(l) : NULL;
    if (!d) {
        doc_free(&tmp);
        return -1;
    }
    *d = tmp;
    return 0;
}

/* The function of the func line s, NAME at [name, name + len) and its
 * comment block [block, s) (block NULL: none): appended to l when public.
 * *end is set to where its parameter list ends.  Returns 0 or -1. */
static int add_func(fe_doc_list *l, const char *file, int line, const char *block,
                    const char *s, const char *name, size_t len, const char **end)
{
    sbuf sig = {0}, doc = {0}, like = {0};
    const char *p = name + len + strspn(name + len, " \t");
    *end = *p == '(' ? sig_copy(p, &sig) : p;
    if (name[0] == '_') {
        free(sig.s);
        return 0;
    }
    if (block)
        doc_copy(block, s, &doc, &like);
    if (list_add(l, strndup(name, len), &sig, &doc, &like))
        return -1;
    l->v[l->n - 1].file = file;
    l->v[l->n - 1].line = line;
    return 0;
}

/* The number of '\n' in [s, e). */
static int count_lines(const char *s, const char *e)
{
    int n = 0;
    for (; s < e; s++)
        n += *s == '\n';
    return n;
}

int fe_doc_parse(fe_doc_list *l, const char *file, const char *text)
{
    const char *block = NULL;   /* the '#' lines at column 0 just above */
    int line = 1;
    for (const char *s = text; *s;) {
        const char *next = line_end(s), *name, *end;
        size_t len;
        if (*s == '#')
            block = block ? block : s;
        else if (func_line(s, &name, &len)) {
            if (add_func(l, file, line, block, s, name, len, &end))
                return -1;
            line += count_lines(s, end);
            next = line_end(end);
            block = NULL;
        } else
            block = NULL;
        if (!*next)
            break;
        s = next + 1;
        line++;
    }
    return 0;
}

/* ------------------------------------------- intrinsics and builtins */

/* An operator the front end implements in C. */
typedef struct fe_builtin_doc {
    const char *kind, *name, *sig, *doc, *like;
} fe_builtin_doc;

/* The intrinsics (frontend/expr.c, intrinsics.c) and the builtins
 * (ast_builtin, min, max, the casts), as lang/reference.md describes them. */
static const fe_builtin_doc fe_builtin_docs[] = {
    {"intrinsic", "einsum", "(subscripts, *operands)",
     "Sums of products named by a string constant (\"ij,jk->ik\"): letters, `,` and\n"
     "`->`; without `->` the output is the letters seen once, sorted; no `...`.\n",
     "torch.einsum, np.einsum"},
    {"intrinsic", "transpose", "(x, perm=None)",
     "A view of x with its dimensions permuted (default: reversed); no copy;\n"
     "negative items of perm count from the end.\n",
     "torch.permute, np.transpose"},
    {"intrinsic", "reshape", "(x, shape)",
     "A copy of x in row-major order with a new shape; one size may be -1.\n",
     "torch.reshape, np.reshape"},
    {"intrinsic", "flatten", "(x)", "A 1-D copy of x in row-major order.\n",
     "torch.flatten, np.ravel"},
    {"intrinsic", "concat", "(tensors, axis=0)",
     "The tensors of a list `[a, b, ...]` joined along axis: one rank, equal\n"
     "sizes except along axis.\n",
     "torch.cat, np.concatenate"},
    {"intrinsic", "empty", "(shape, dtype=f32)",
     "A new, uninitialised tensor; shape is an int or a list of ints.\n",
     "torch.empty, np.empty"},
    {"intrinsic", "len", "(v)",
     "The length of a compile-time list, or a tensor's first dimension.\n",
     "len(v), x.shape[0]"},
    {"intrinsic", "require_layout", "(x, layout)",
     "A statement: x must have the layout \"L->P\" (declared, or row-major for\n"
     "one that keeps the order); a conversion is not supported yet.\n",
     "x.contiguous(memory_format=torch.channels_last)"},
    {"intrinsic", "prefer_layout", "(x, layout)",
     "A statement: a hint that x is best in layout \"L->P\" (checked for x's\n"
     "rank; the inference of locals' layouts does not weigh it yet).\n",
     "torch.channels_last (a memory format)"},
    {"builtin", "abs", "(x)", "|x|, element-wise on tensors.\n", "torch.abs, np.abs"},
    {"builtin", "sqrt", "(x)", "Square root; integers compute in f32.\n", "torch.sqrt, np.sqrt"},
    {"builtin", "exp", "(x)", "e ** x; integers compute in f32.\n", "torch.exp, np.exp"},
    {"builtin", "ln", "(x)", "Natural logarithm; integers compute in f32.\n", "torch.log, np.log"},
    {"builtin", "sin", "(x)", "Sine; integers compute in f32.\n", "torch.sin, np.sin"},
    {"builtin", "cos", "(x)", "Cosine; integers compute in f32.\n", "torch.cos, np.cos"},
    {"builtin", "tanh", "(x)", "Hyperbolic tangent; integers compute in f32.\n",
     "torch.tanh, np.tanh"},
    {"builtin", "sigmoid", "(x)", "1 / (1 + e ** -x); integers compute in f32.\n",
     "torch.sigmoid, scipy.special.expit"},
    {"builtin", "floor", "(x)", "Rounded down.\n", "torch.floor, np.floor"},
    {"builtin", "ceil", "(x)", "Rounded up.\n", "torch.ceil, np.ceil"},
    {"builtin", "square", "(x)", "x * x.\n", "torch.square, np.square"},
    {"builtin", "tan", "(x)", "Tangent; integers compute in f32.\n", "torch.tan, np.tan"},
    {"builtin", "erf", "(x)", "The error function 2 / sqrt(pi) * integral of exp(-t^2) from 0 "
     "to x;\nintegers compute in f32.\n", "torch.erf, scipy.special.erf"},
    {"builtin", "log1p", "(x)", "ln(1 + x), exact for small x; integers compute in f32.\n",
     "torch.log1p, np.log1p"},
    {"builtin", "expm1", "(x)", "e ** x - 1, exact for small x; integers compute in f32.\n",
     "torch.expm1, np.expm1"},
    {"builtin", "max", "(a, b) or (x, axis=None, keepdims=False)",
     "With two arguments the element-wise maximum (`maximum`); with one tensor\n"
     "the largest element over axis (`reduce_max`).\n",
     "torch.maximum / torch.amax, np.maximum / np.max"},
    {"builtin", "min", "(a, b) or (x, axis=None, keepdims=False)",
     "With two arguments the element-wise minimum (`minimum`); with one tensor\n"
     "the smallest element over axis (`reduce_min`).\n",
     "torch.minimum / torch.amin, np.minimum / np.min"},
    {"builtin", "bool", "(x)", "x converted to bool (cast).\n",
     "x.to(torch.bool), x.astype(np.bool_)"},
    {"builtin", "i32", "(x)", "x converted to i32 (cast).\n",
     "x.to(torch.int32), x.astype(np.int32)"},
    {"builtin", "i64", "(x)", "x converted to i64 (cast).\n",
     "x.to(torch.int64), x.astype(np.int64)"},
    {"builtin", "f16", "(x)", "x converted to f16 (cast).\n",
     "x.to(torch.float16), x.astype(np.float16)"},
    {"builtin", "f32", "(x)", "x converted to f32 (cast).\n",
     "x.to(torch.float32), x.astype(np.float32)"},
    {"builtin", "f64", "(x)", "x converted to f64 (cast).\n",
     "x.to(torch.float64), x.astype(np.float64)"},
};

int fe_doc_add_intrinsics(fe_doc_list *l)
{
    for (size_t i = 0; i < sizeof fe_builtin_docs / sizeof *fe_builtin_docs; i++) {
        const fe_builtin_doc *b = &fe_builtin_docs[i];
        sbuf sig = {0}, doc = {0}, like = {0};
        sb_puts(&sig, b->sig);
        sb_puts(&doc, b->doc);
        sb_puts(&like, b->like);
        if (list_add(l, strdup(b->name), &sig, &doc, &like))
            return -1;
        l->v[l->n - 1].kind = b->kind;
    }
    return 0;
}

void fe_doc_list_free(fe_doc_list *l)
{
    for (int i = 0; i < l->n; i++)
        doc_free(&l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* -------------------------------------------------------------- lookup */

const fe_doc *fe_doc_find(const fe_doc_list *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].name, name))
            return &l->v[i];
    return NULL;
}

const fe_doc *fe_doc_inplace_of(const fe_doc_list *l, const fe_doc *d)
{
    size_t n = strlen(d->name);
    if (d->doc[0] || d->like || n < 2 || d->name[n - 1] != '_')
        return NULL;
    for (int i = 0; i < l->n; i++)
        if (strlen(l->v[i].name) == n - 1 && !strncmp(l->v[i].name, d->name, n - 1))
            return &l->v[i];
    return NULL;
}

/* The equivalents of d: its own, or those of the operator it is the
 * in-place form of; NULL if none. */
static const char *doc_like(const fe_doc_list *l, const fe_doc *d)
{
    const fe_doc *base = fe_doc_inplace_of(l, d);
    return d->like ? d->like : base ? base->like : NULL;
}

/* Levenshtein distance between a and b, or a large number when either is
 * longer than 64 characters (no operator name is). */
static int edit_distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    int row[65];
    if (na > 64 || nb > 64)
        return 1 << 20;
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb];
}

const fe_doc *fe_doc_closest(const fe_doc_list *l, const char *name)
{
    const fe_doc *best = NULL;
    int bd = 3, n = (int)strlen(name);
    for (int i = 0; i < l->n; i++) {
        int d = edit_distance(name, l->v[i].name);
        if (d < bd && 2 * d <= n)
            best = &l->v[i], bd = d;
    }
    return best;
}

/* ------------------------------------------------------------- groups */

/* How the listing names and orders a group of operators: a stdlib file,
 * or the intrinsics or builtins (a fe_doc's kind). */
typedef struct fe_group {
    const char *key, *title, *where;
} fe_group;

static const fe_group fe_groups[] = {
    {"stdlib/elementwise.ft", "element-wise", "stdlib/elementwise.ft"},
    {"stdlib/creation.ft", "creation", "stdlib/creation.ft"},
    {"stdlib/reduction.ft", "reduction", "stdlib/reduction.ft"},
    {"stdlib/linalg.ft", "linear algebra", "stdlib/linalg.ft"},
    {"stdlib/nn.ft", "neural networks", "stdlib/nn.ft"},
    {"stdlib/shape.ft", "shape", "stdlib/shape.ft"},
    {"intrinsic", "intrinsics", "built into the compiler"},
    {"builtin", "builtins", "built into the compiler, element-wise on tensors"},
};
enum { FE_NGROUPS = sizeof fe_groups / sizeof *fe_groups, FE_NFILE_GROUPS = 6 };

/* The group d belongs to: its file, or its kind. */
static const char *group_key(const fe_doc *d) { return d->file ? d->file : d->kind; }

/* Where a group comes in the listing: the files of fe_groups in order,
 * then other files (a new stdlib file), then the intrinsics and builtins. */
static int group_rank(const char *key)
{
    for (int i = 0; i < FE_NGROUPS; i++)
        if (!strcmp(fe_groups[i].key, key))
            return i < FE_NFILE_GROUPS ? i : i + 100;
    return 50;
}

/* The distinct group keys of l, in listing order, into keys (room for
 * l->n); returns their number. */
static int group_order(const fe_doc_list *l, const char **keys)
{
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        const char *k = group_key(&l->v[i]);
        int j = 0;
        while (j < n && strcmp(keys[j], k))
            j++;
        if (j < n)
            continue;
        for (j = n++; j > 0 && group_rank(keys[j - 1]) > group_rank(k); j--)
            keys[j] = keys[j - 1];
        keys[j] = k;
    }
    return n;
}

/* A group's heading: "element-wise (stdlib/elementwise.ft)"; code marks
 * the place in backquotes (Markdown).  A file fe_groups lacks is titled by
 * its name less folder and ".ft". */
static void print_group_title(FILE *out, const char *key, int code)
{
    const char *title = strrchr(key, '/') ? strrchr(key, '/') + 1 : key, *where = key;
    const char *q = code ? "`" : "";
    int tlen = (int)strcspn(title, ".");
    for (int i = 0; i < FE_NGROUPS; i++)
        if (!strcmp(fe_groups[i].key, key))
            title = fe_groups[i].title, where = fe_groups[i].where, tlen = (int)strlen(title);
    if (strncmp(where, "stdlib/", 7))
        q = "";
    fprintf(out, "%.*s (%s%s%s)\n", tlen, title, q, where, q);
}

/* ------------------------------------------------------------ listing */

/* The width of the signature column: the longest name + signature, at
 * most 44 characters (longer ones push their equivalent right). */
static int sig_width(const fe_doc_list *l)
{
    int w = 0;
    for (int i = 0; i < l->n; i++) {
        int n = (int)(strlen(l->v[i].name) + strlen(l->v[i].sig));
        w = n > w ? n : w;
    }
    return w < 44 ? w : 44;
}

/* `ftc stdlib`: every operator, one line each (name, signature,
 * equivalents), grouped by file. */
static void print_listing(const fe_doc_list *l, const char **keys, int nkeys, FILE *out)
{
    int w = sig_width(l);
    for (int g = 0; g < nkeys; g++) {
        fputs(g ? "\n" : "", out);
        print_group_title(out, keys[g], 0);
        for (int i = 0; i < l->n; i++) {
            const fe_doc *d = &l->v[i];
            const char *like = doc_like(l, d);
            if (strcmp(group_key(d), keys[g]))
                continue;
            int n = (int)(strlen(d->name) + strlen(d->sig));
            fprintf(out, "  %s%s%*s  %s\n", d->name, d->sig, n < w ? w - n : 0, "",
                    like ? like : "-");
        }
    }
    fputs("\n`ftc stdlib NAME` shows one operator's doc.\n", out);
}

/* Print text as the content of a Markdown table cell: line breaks become
 * spaces, '|' is escaped, and '*' too outside `code` (code: whether text
 * starts inside a code span). */
static void md_cell(FILE *out, const char *text, int code)
{
    for (const char *p = text; *p; p++) {
        if (*p == '`')
            code = !code;
        if (*p == '|' || (*p == '*' && !code))
            fputc('\\', out);
        fputc(*p == '\n' ? ' ' : *p, out);
    }
}

/* The first sentence of doc (up to ". " or a final '.'), on one line,
 * for the summary column; "" when doc is empty. */
static void md_summary(FILE *out, const char *doc)
{
    sbuf b = {0};
    const char *p = doc;
    while (*p) {
        int stop = *p == '.' && (!p[1] || isspace((unsigned char)p[1]));
        sb_putc(&b, *p == '\n' ? ' ' : *p);
        p++;
        if (stop)
            break;
    }
    if (b.s && !b.oom) {
        while (b.n && b.s[b.n - 1] == ' ')
            b.s[--b.n] = 0;
        md_cell(out, b.s, 0);
    }
    free(b.s);
}

/* One row of the Markdown table. */
static void md_row(FILE *out, const fe_doc_list *l, const fe_doc *d)
{
    const fe_doc *base = fe_doc_inplace_of(l, d);
    const char *like = doc_like(l, d);
    fprintf(out, "| `%s` | `", d->name);
    md_cell(out, d->sig, 1);
    fputs("` | ", out);
    md_cell(out, like ? like : "", 0);
    fputs(" | ", out);
    if (base)
        fprintf(out, "in-place form of `%s` (writes out)", base->name);
    else
        md_summary(out, d->doc);
    fputs(" |\n", out);
}

/* `ftc stdlib --markdown`: the listing as lang/reference.md's section,
 * one table per group. */
static void print_markdown(const fe_doc_list *l, const char **keys, int nkeys, FILE *out)
{
    fputs("## Standard-library operators\n\n"
          "Every operator of `stdlib/*.ft` and the intrinsics and builtins of the\n"
          "compiler, with their PyTorch/NumPy equivalents. `ftc stdlib` prints this\n"
          "list, `ftc stdlib NAME` one operator's whole doc and where it is defined;\n"
          "`stdlib/README.md` gives the details (broadcasting, dtypes, shape\n"
          "contracts, loop labels). An `op_` form writes its result into its `out`\n"
          "argument.\n", out);
    for (int g = 0; g < nkeys; g++) {
        fputs("\n### ", out);
        print_group_title(out, keys[g], 1);
        fputs("\n| operator | signature | equivalent | summary |\n|---|---|---|---|\n", out);
        for (int i = 0; i < l->n; i++)
            if (!strcmp(group_key(&l->v[i]), keys[g]))
                md_row(out, l, &l->v[i]);
    }
}

/* --------------------------------------------------------- one operator */

/* Print each line of text indented by two spaces. */
static void print_indented(FILE *out, const char *text)
{
    for (const char *p = text; *p;) {
        const char *e = line_end(p);
        fprintf(out, "  %.*s\n", (int)(e - p), p);
        p = *e ? e + 1 : e;
    }
}

/* `ftc stdlib NAME` for a known operator: its signature, doc (or what it
 * is the in-place form of), equivalents, in-place form and place. */
static void print_one(FILE *out, const fe_doc_list *l, const fe_doc *d)
{
    const fe_doc *base = fe_doc_inplace_of(l, d);
    const char *like = doc_like(l, d);
    size_t n = strlen(d->name);
    fprintf(out, "%s%s\n", d->name, d->sig);
    if (base)
        fprintf(out, "  in-place form of %s (writes out)\n", base->name);
    print_indented(out, d->doc);
    if (like)
        fprintf(out, "  like: %s\n", like);
    for (int i = 0; i < l->n; i++) {
        const char *m = l->v[i].name;
        if (strlen(m) == n + 1 && !strncmp(m, d->name, n) && m[n] == '_')
            fprintf(out, "  in-place form: %s%s\n", m, l->v[i].sig);
    }
    if (d->file)
        fprintf(out, "  %s:%d\n", d->file, d->line);
    else
        fprintf(out, "  %s: built into the compiler (lang/reference.md)\n", d->kind);
}

/* An unknown NAME: the error, with the closest name if one is close. */
static int unknown_name(FILE *err, const fe_doc_list *l, const char *name)
{
    const fe_doc *near = fe_doc_closest(l, name);
    fprintf(err, "ftc: error: no standard-library operator '%s'", name);
    if (near)
        fprintf(err, "; did you mean '%s'?", near->name);
    fputs(" (`ftc stdlib` lists them)\n", err);
    return 1;
}

/* Every embedded stdlib file's operators, then the intrinsics'. */
static int load_all(fe_doc_list *l)
{
    for (int i = 0; i < ft_stdlib_count; i++)
        if (fe_doc_parse(l, ft_stdlib_names[i], ft_stdlib_texts[i]))
            return -1;
    return fe_doc_add_intrinsics(l);
}

int fe_stdlib_cmd(const char *name, int markdown, FILE *out, FILE *err)
{
    fe_doc_list l = {0};
    const char **keys = NULL;
    int r = 0;
    if (name && markdown) {
        fputs("ftc: error: `ftc stdlib --markdown` takes no NAME; see ftc --help\n", err);
        return 2;
    }
    if (load_all(&l) || !(keys = malloc(sizeof *keys * (size_t)(l.n + 1)))) {
        fputs("ftc: error: out of memory\n", err);
        r = 1;
    } else if (name) {
        const fe_doc *d = fe_doc_find(&l, name);
        if (d)
            print_one(out, &l, d);
        else
            r = unknown_name(err, &l, name);
    } else if (markdown)
        print_markdown(&l, keys, group_order(&l, keys), out);
    else
        print_listing(&l, keys, group_order(&l, keys), out);
    free(keys);
    fe_doc_list_free(&l);
    return r;
}
