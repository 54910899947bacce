/* layout.c - parsing layout strings and packing arrays into them (layout.h). */
#include "layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Report a fault at column c of the layout text; returns 1. */
static int fail(char *err, size_t size, int *col, int c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && size)
        vsnprintf(err, size, fmt, ap);
    va_end(ap);
    if (col)
        *col = c;
    return 1;
}

/* The logical dimension named by capital ch in l, or -1. */
static int find_letter(const rt_layout *l, char ch)
{
    for (int d = 0; d < l->ndim; d++)
        if (l->letter[d] == ch)
            return d;
    return -1;
}

/* The logical part "NCHW" (n characters) into l->letter. */
static int parse_logical(const char *t, int n, rt_layout *l, char *err, size_t size, int *col)
{
    if (n == 0)
        return fail(err, size, col, 0, "a layout names its logical dimensions before '->', "
                    "e.g. \"NCHW->NHWC\"");
    if (n > RT_LAYOUT_MAX_DIMS)
        return fail(err, size, col, 0, "a layout has at most %d dimensions", RT_LAYOUT_MAX_DIMS);
    for (int i = 0; i < n; i++) {
        char ch = t[i];
        if (ch < 'A' || ch > 'Z')
            return fail(err, size, col, i, "the logical dimensions are capital letters, one "
                        "per dimension, not '%c'", ch);
        if (find_letter(l, ch) >= 0)
            return fail(err, size, col, i, "'%c' names two logical dimensions", ch);
        l->letter[l->ndim++] = ch;
    }
    return 0;
}

/* A block "8c" at t[*i] (a digit): its size and dimension appended to l. */
static int parse_block(const char *t, int *i, rt_layout *l, char *err, size_t size, int *col)
{
    int start = *i;
    int64_t v = 0;
    while (t[*i] >= '0' && t[*i] <= '9') {
        if (v > (INT64_C(1) << 40))
            return fail(err, size, col, start, "a block of more than 2^40 elements");
        v = v * 10 + (t[(*i)++] - '0');
    }
    char ch = t[*i];
    if (ch < 'a' || ch > 'z')
        return fail(err, size, col, *i, "a block is a size and a lower-case letter, e.g. "
                    "\"8c\"");
    if (v < 2)
        return fail(err, size, col, start, "a block of %lld: blocks hold at least 2 elements",
                    (long long)v);
    int d = find_letter(l, (char)(ch - 'a' + 'A'));
    if (d < 0)
        return fail(err, size, col, *i, "block '%lld%c' has no logical dimension '%c'",
                    (long long)v, ch, ch - 'a' + 'A');
    if (l->blocks[d] > (INT64_C(1) << 40) / v)
        return fail(err, size, col, start, "the blocks of '%c' hold more than 2^40 elements",
                    ch - 'a' + 'A');
    l->blocks[d] *= v;
    l->dim[l->nphys] = d;
    l->block[l->nphys++] = v;
    (*i)++;
    return 0;
}

/* The physical part "NCHW8c" (from offset at) into l->dim/block. */
static int parse_physical(const char *t, int at, rt_layout *l, char *err, size_t size, int *col)
{
    int seen[RT_LAYOUT_MAX_DIMS] = {0};
    for (int i = at; t[i];) {
        char ch = t[i];
        if (l->nphys == RT_LAYOUT_MAX_DIMS)
            return fail(err, size, col, i, "a layout has at most %d physical dimensions",
                        RT_LAYOUT_MAX_DIMS);
        if (ch >= '0' && ch <= '9') {
            if (parse_block(t, &i, l, err, size, col))
                return 1;
            continue;
        }
        int d = ch >= 'A' && ch <= 'Z' ? find_letter(l, ch) : -2;
        if (d == -2)
            return fail(err, size, col, i, "the physical order holds capital letters and "
                        "blocks such as \"8c\", not '%c'", ch);
        if (d < 0)
            return fail(err, size, col, i, "'%c' is not one of the logical dimensions", ch);
        if (seen[d]++)
            return fail(err, size, col, i, "'%c' appears twice in the physical order", ch);
        l->dim[l->nphys] = d;
        l->block[l->nphys++] = 0;
        i++;
    }
    for (int d = 0; d < l->ndim; d++)
        if (!seen[d])
            return fail(err, size, col, at, "'%c' is missing from the physical order",
                        l->letter[d]);
    return 0;
}

int rt_layout_parse(const char *text, int ndim, rt_layout *out, char *err, size_t errsize,
                    int *col)
{
    memset(out, 0, sizeof *out);
    const char *arrow = strstr(text, "->");
    if (!arrow)
        return fail(err, errsize, col, 0, "a layout is \"LOGICAL->PHYSICAL\", e.g. "
                    "\"NCHW->NHWC\" or \"NCHW->NCHW8c\"");
    int n = (int)(arrow - text);
    if (parse_logical(text, n, out, err, errsize, col))
        return 1;
    if (ndim >= 0 && out->ndim != ndim)
        return fail(err, errsize, col, 0, "the layout names %d logical dimension%s, the tensor "
                    "has %d", out->ndim, out->ndim == 1 ? "" : "s", ndim);
    for (int d = 0; d < out->ndim; d++)
        out->blocks[d] = 1;
    if (parse_physical(text, n + 2, out, err, errsize, col))
        return 1;
    for (int k = 0; k < out->nphys; k++) {
        out->inner[k] = 1;
        for (int j = k + 1; out->block[k] && j < out->nphys; j++)
            if (out->dim[j] == out->dim[k] && out->block[j])
                out->inner[k] *= out->block[j];
    }
    return 0;
}

int rt_layout_same(const rt_layout *a, const rt_layout *b)
{
    if (a->ndim != b->ndim || a->nphys != b->nphys)
        return 0;
    for (int k = 0; k < a->nphys; k++)
        if (a->dim[k] != b->dim[k] || a->block[k] != b->block[k])
            return 0;
    return 1;
}

int rt_layout_is_identity(const rt_layout *l)
{
    if (l->nphys != l->ndim)
        return 0;
    for (int k = 0; k < l->nphys; k++)
        if (l->dim[k] != k || l->block[k])
            return 0;
    return 1;
}

void rt_layout_phys_shape(const rt_layout *l, const int64_t *lshape, int64_t *pshape)
{
    for (int k = 0; k < l->nphys; k++) {
        int64_t n = lshape[l->dim[k]], b = l->blocks[l->dim[k]];
        pshape[k] = l->block[k] ? l->block[k] : n < 0 || n > INT64_MAX - b ? -1 : (n + b - 1) / b;
    }
}

/* The row-major offset in the physical array of logical element idx. */
static size_t phys_offset(const rt_layout *l, const int64_t *pshape, const int64_t *idx)
{
    size_t off = 0;
    for (int k = 0; k < l->nphys; k++) {
        int64_t i = idx[l->dim[k]];
        int64_t p = l->block[k] ? i / l->inner[k] % l->block[k] : i / l->blocks[l->dim[k]];
        off = off * (size_t)pshape[k] + (size_t)p;
    }
    return off;
}

/* Step idx to the next logical element in row-major order; 0 past the
 * last. */
static int next_index(const rt_layout *l, const int64_t *lshape, int64_t *idx)
{
    int d = l->ndim - 1;
    while (d >= 0 && ++idx[d] == lshape[d])
        idx[d--] = 0;
    return d >= 0;
}

/* Whether the logical shape has no element. */
static int is_empty(const rt_layout *l, const int64_t *lshape)
{
    for (int d = 0; d < l->ndim; d++)
        if (lshape[d] <= 0)
            return 1;
    return 0;
}

size_t rt_layout_offsets(const rt_layout *l, const int64_t *lshape, size_t *out)
{
    int64_t pshape[RT_LAYOUT_MAX_DIMS], idx[RT_LAYOUT_MAX_DIMS] = {0};
    rt_layout_phys_shape(l, lshape, pshape);
    size_t n = 0;
    if (is_empty(l, lshape))
        return 0;
    do
        out[n++] = phys_offset(l, pshape, idx);
    while (next_index(l, lshape, idx));
    return n;
}

/* Visit every logical element in row-major order, copying it between the
 * logical array and the physical one (to_phys: from logical). */
static void copy_all(const rt_layout *l, const int64_t *lshape, size_t esize, char *logical,
                     char *physical, int to_phys)
{
    int64_t pshape[RT_LAYOUT_MAX_DIMS], idx[RT_LAYOUT_MAX_DIMS] = {0};
    rt_layout_phys_shape(l, lshape, pshape);
    if (is_empty(l, lshape))
        return;
    size_t li = 0;
    do {
        char *p = physical + phys_offset(l, pshape, idx) * esize, *q = logical + li++ * esize;
        memcpy(to_phys ? p : q, to_phys ? q : p, esize);
    } while (next_index(l, lshape, idx));
}

void rt_layout_pack(const rt_layout *l, const int64_t *lshape, size_t esize, const void *logical,
                    void *physical)
{
    int64_t pshape[RT_LAYOUT_MAX_DIMS];
    rt_layout_phys_shape(l, lshape, pshape);
    size_t n = 1;
    for (int k = 0; k < l->nphys; k++)
        n *= (size_t)pshape[k];
    memset(physical, 0, n * esize);
    copy_all(l, lshape, esize, (char *)logical, physical, 1);
}

void rt_layout_unpack(const rt_layout *l, const int64_t *lshape, size_t esize,
                      const void *physical, void *logical)
{
    copy_all(l, lshape, esize, logical, (char *)physical, 0);
}
