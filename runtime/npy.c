/* npy.c - reading and writing NumPy .npy files (format versions 1.0 to 3.0).
 *
 * Requires: a little-endian host (checked at compile time).
 * Provides: rt_npy_read / rt_npy_write (all or nothing, through
 * runtime/stage.c) / rt_npy_write_stream for C-order arrays of the dtypes in
 * ft_abi.h, and the dtype helpers rt_dtype_size / rt_dtype_name.
 *
 * The header is a Python dict literal, e.g.
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * parsed by a small recursive-descent reader below that accepts exactly the
 * literals NumPy writes (strings, True/False, tuples of integers) and rejects
 * anything else with a message; malformed files never crash the reader.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"
#include "stage.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "runtime/npy.c assumes a little-endian host"
#endif

/* Largest header we accept (NumPy itself refuses headers over 10000 bytes by
 * default; 1 MiB leaves room for v2 files while bounding the allocation). */
#define NPY_MAX_HEADER (1u << 20)

/* ------------------------------------------------------------ dtypes */

/* Bytes per element of an FT_ABI_* dtype; 0 for an unknown code. */
size_t rt_dtype_size(int dtype)
{
    switch (dtype) {
    case FT_ABI_BOOL: return 1;
    case FT_ABI_I32: return 4;
    case FT_ABI_I64: return 8;
    case FT_ABI_F16: return 2;
    case FT_ABI_F32: return 4;
    case FT_ABI_F64: return 8;
    default: return 0;
    }
}

/* The .ft spelling of a dtype ("f32"), for messages. */
const char *rt_dtype_name(int dtype)
{
    switch (dtype) {
    case FT_ABI_BOOL: return "bool";
    case FT_ABI_I32: return "i32";
    case FT_ABI_I64: return "i64";
    case FT_ABI_F16: return "f16";
    case FT_ABI_F32: return "f32";
    case FT_ABI_F64: return "f64";
    default: return "unknown";
    }
}

/* The descr string NumPy writes for a dtype. */
static const char *npy_descr_of(int dtype)
{
    switch (dtype) {
    case FT_ABI_BOOL: return "|b1";
    case FT_ABI_I32: return "<i4";
    case FT_ABI_I64: return "<i8";
    case FT_ABI_F16: return "<f2";
    case FT_ABI_F32: return "<f4";
    case FT_ABI_F64: return "<f8";
    default: return NULL;
    }
}

/* NumPy's name of a dtype ("float32"), for "convert with astype" hints. */
const char *rt_dtype_numpy_name(int dtype)
{
    switch (dtype) {
    case FT_ABI_BOOL: return "bool";
    case FT_ABI_I32: return "int32";
    case FT_ABI_I64: return "int64";
    case FT_ABI_F16: return "float16";
    case FT_ABI_F32: return "float32";
    case FT_ABI_F64: return "float64";
    default: return "?";
    }
}

/* printf into the caller's error buffer; always returns 1 so that error
 * paths read `return npy_fail(...)`. */
static int npy_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int npy_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* Map a descr to an FT_ABI_* code.  The byte-order character may be '<',
 * '=' (native, little here) or '|' (not applicable, for 1-byte types), or be
 * missing.  Bool is "b1" or "?"; "u1" is also read as bool (the values are
 * checked to be 0 or 1 after reading).  Returns -1 with a message for
 * big-endian or unsupported types. */
static int npy_dtype_of_descr(const char *d, int *is_u1, char *err, size_t errlen)
{
    static const struct { const char *code; int dtype; } tab[] = {
        {"b1", FT_ABI_BOOL}, {"?", FT_ABI_BOOL}, {"u1", FT_ABI_BOOL},
        {"i4", FT_ABI_I32}, {"i8", FT_ABI_I64},
        {"f2", FT_ABI_F16}, {"f4", FT_ABI_F32}, {"f8", FT_ABI_F64},
    };
    const char *code = d;
    *is_u1 = 0;
    if (*d == '>' || *d == '!') {
        int one_byte = !strcmp(d + 1, "b1") || !strcmp(d + 1, "?") || !strcmp(d + 1, "u1");
        if (!one_byte) {
            npy_fail(err, errlen, "big-endian data ('%s') is not supported; "
                     "save it little-endian, e.g. a.astype(a.dtype.newbyteorder('<'))", d);
            return -1;
        }
    }
    if (*d == '<' || *d == '=' || *d == '|' || *d == '>' || *d == '!')
        code = d + 1;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (!strcmp(code, tab[i].code)) {
            *is_u1 = !strcmp(code, "u1");
            return tab[i].dtype;
        }
    }
    npy_fail(err, errlen, "unsupported dtype '%s'; ftc reads bool, int32, int64, "
             "float16, float32 and float64 (convert with astype)", d);
    return -1;
}

/* ------------------------------------------------------- header parser */

/* A cursor over the header text. */
typedef struct npy_lex {
    const char *p, *end;
} npy_lex;

/* The header fields we need, as parsed. */
typedef struct npy_header {
    char descr[32];
    int have_descr, have_fortran, have_shape;
    int fortran_order;
    int ndim;
    int64_t dims[RT_MAX_DIMS];
} npy_header;

/* Skip spaces, tabs and newlines. */
static void npy_skip_ws(npy_lex *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' ||
                               *lx->p == '\n' || *lx->p == '\r'))
        lx->p++;
}

/* Consume character c (after whitespace); 1 if it was there. */
static int npy_accept(npy_lex *lx, char c)
{
    npy_skip_ws(lx);
    if (lx->p < lx->end && *lx->p == c) {
        lx->p++;
        return 1;
    }
    return 0;
}

/* Read a quoted string (single or double quotes, no escapes: NumPy never
 * writes any in the fields we read) into buf.  0 on success. */
static int npy_string(npy_lex *lx, char *buf, size_t cap)
{
    npy_skip_ws(lx);
    if (lx->p >= lx->end || (*lx->p != '\'' && *lx->p != '"'))
        return 1;
    char q = *lx->p++;
    size_t n = 0;
    while (lx->p < lx->end && *lx->p != q) {
        if (*lx->p == '\\' || n + 1 >= cap)
            return 1;
        buf[n++] = *lx->p++;
    }
    if (lx->p >= lx->end)
        return 1;
    lx->p++;
    buf[n] = 0;
    return 0;
}

/* Read a bare word (True, False, ...) into buf.  0 on success. */
static int npy_word(npy_lex *lx, char *buf, size_t cap)
{
    npy_skip_ws(lx);
    size_t n = 0;
    while (lx->p < lx->end && ((*lx->p >= 'A' && *lx->p <= 'Z') ||
                               (*lx->p >= 'a' && *lx->p <= 'z'))) {
        if (n + 1 >= cap)
            return 1;
        buf[n++] = *lx->p++;
    }
    buf[n] = 0;
    return n == 0;
}

/* Read a non-negative decimal integer (Python 2 files may add an 'L').
 * 0 on success; 2 when it is negative; 1 when malformed or too large. */
static int npy_int(npy_lex *lx, int64_t *v)
{
    npy_skip_ws(lx);
    if (lx->p < lx->end && *lx->p == '-')
        return 2;
    if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
        return 1;
    int64_t x = 0;
    while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9') {
        if (__builtin_mul_overflow(x, 10, &x) ||
            __builtin_add_overflow(x, *lx->p - '0', &x))
            return 1;
        lx->p++;
    }
    if (lx->p < lx->end && (*lx->p == 'L' || *lx->p == 'l'))
        lx->p++;
    *v = x;
    return 0;
}

/* Parse a shape tuple "(3, 4)", "(3,)" or "()" into h. */
static int npy_shape(npy_lex *lx, npy_header *h, char *err, size_t errlen)
{
    if (!npy_accept(lx, '('))
        return npy_fail(err, errlen, "malformed .npy header: 'shape' is not a tuple");
    h->ndim = 0;
    while (!npy_accept(lx, ')')) {
        if (h->ndim >= RT_MAX_DIMS)
            return npy_fail(err, errlen, "the array has more than %d dimensions, "
                            "which ftc does not support", RT_MAX_DIMS);
        int r = npy_int(lx, &h->dims[h->ndim]);
        if (r == 2)
            return npy_fail(err, errlen, "malformed .npy header: negative dimension in 'shape'");
        if (r)
            return npy_fail(err, errlen, "malformed .npy header: 'shape' must hold "
                            "non-negative integers that fit in 64 bits");
        h->ndim++;
        if (!npy_accept(lx, ',')) {
            if (!npy_accept(lx, ')'))
                return npy_fail(err, errlen, "malformed .npy header: unterminated 'shape' tuple");
            break;
        }
    }
    return 0;
}

/* Parse the value of one key of the header dict into h. */
static int npy_value(npy_lex *lx, const char *key, npy_header *h,
                     char *err, size_t errlen)
{
    char word[16];
    if (!strcmp(key, "descr")) {
        npy_skip_ws(lx);
        if (lx->p < lx->end && *lx->p == '[')
            return npy_fail(err, errlen, "structured dtypes (records) are not supported; "
                            "save each field as its own array");
        if (npy_string(lx, h->descr, sizeof h->descr))
            return npy_fail(err, errlen, "malformed .npy header: 'descr' is not a short string");
        h->have_descr = 1;
        return 0;
    }
    if (!strcmp(key, "fortran_order")) {
        if (npy_word(lx, word, sizeof word) ||
            (strcmp(word, "True") && strcmp(word, "False")))
            return npy_fail(err, errlen, "malformed .npy header: 'fortran_order' is not True or False");
        h->fortran_order = !strcmp(word, "True");
        h->have_fortran = 1;
        return 0;
    }
    if (!strcmp(key, "shape")) {
        h->have_shape = 1;
        return npy_shape(lx, h, err, errlen);
    }
    return npy_fail(err, errlen, "malformed .npy header: unexpected key '%s'", key);
}

/* Parse the whole header dict text (len bytes) into h. */
static int npy_parse_header(const char *text, size_t len, npy_header *h,
                            char *err, size_t errlen)
{
    npy_lex lx = {text, text + len};
    memset(h, 0, sizeof *h);
    if (!npy_accept(&lx, '{'))
        return npy_fail(err, errlen, "malformed .npy header: it does not start with '{'");
    while (!npy_accept(&lx, '}')) {
        char key[32];
        if (npy_string(&lx, key, sizeof key))
            return npy_fail(err, errlen, "malformed .npy header: expected a quoted key");
        if (!npy_accept(&lx, ':'))
            return npy_fail(err, errlen, "malformed .npy header: expected ':' after '%s'", key);
        if (npy_value(&lx, key, h, err, errlen))
            return 1;
        if (!npy_accept(&lx, ',')) {
            if (!npy_accept(&lx, '}'))
                return npy_fail(err, errlen, "malformed .npy header: expected ',' or '}'");
            break;
        }
    }
    if (!h->have_descr || !h->have_fortran || !h->have_shape)
        return npy_fail(err, errlen, "malformed .npy header: it must give 'descr', "
                        "'fortran_order' and 'shape'");
    return 0;
}

/* ---------------------------------------------------------------- read */

/* Read the preamble (magic, version, header length) and the header text.
 * On success *text is malloc-owned and NUL-terminated. */
static int npy_read_preamble(FILE *f, char **text, size_t *len,
                             char *err, size_t errlen)
{
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6))
        return npy_fail(err, errlen, "not a .npy file (the magic string \\x93NUMPY is missing)");
    int major = pre[6];
    if (major < 1 || major > 3)
        return npy_fail(err, errlen, ".npy format version %d.%d is not supported "
                        "(versions 1.0 to 3.0 are)", major, pre[7]);
    size_t hl;
    if (major == 1) {
        if (fread(pre + 8, 1, 2, f) != 2)
            return npy_fail(err, errlen, "truncated .npy file: the header length is missing");
        hl = (size_t)pre[8] | (size_t)pre[9] << 8;
    } else {
        if (fread(pre + 8, 1, 4, f) != 4)
            return npy_fail(err, errlen, "truncated .npy file: the header length is missing");
        hl = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 |
             (size_t)pre[11] << 24;
    }
    if (hl > NPY_MAX_HEADER)
        return npy_fail(err, errlen, "malformed .npy file: header length %zu is too large", hl);
    *text = malloc(hl + 1);
    if (!*text)
        return npy_fail(err, errlen, "out of memory reading a .npy header");
    if (fread(*text, 1, hl, f) != hl) {
        free(*text);
        *text = NULL;
        return npy_fail(err, errlen, "truncated .npy file: the header is shorter than "
                        "its stated length %zu", hl);
    }
    (*text)[hl] = 0;
    *len = hl;
    return 0;
}

/* Check that bool data (a "b1" file, or "u1" read as bool) holds only 0
 * and 1: any other byte is not a C bool. */
static int npy_check_bool(const rt_array *a, int is_u1, char *err, size_t errlen)
{
    const unsigned char *b = a->data;
    for (size_t i = 0; i < a->nbytes; i++)
        if (b[i] > 1)
            return npy_fail(err, errlen, "%s holds the value %u at element %zu; only 0 "
                            "and 1 are bool", is_u1 ? "uint8 data read as bool" : "bool data",
                            b[i], i);
    return 0;
}

/* Fill out's dtype/shape from h and compute nbytes, refusing absurd shapes
 * (element count or byte count overflowing 64 bits). */
static int npy_shape_bytes(const npy_header *h, int dtype, rt_array *out,
                           char *err, size_t errlen)
{
    uint64_t n = 1;
    out->dtype = dtype;
    out->ndim = h->ndim;
    for (int i = 0; i < h->ndim; i++) {
        out->dims[i] = h->dims[i];
        if (__builtin_mul_overflow(n, (uint64_t)h->dims[i], &n))
            return npy_fail(err, errlen, "the shape's element count overflows 64 bits");
    }
    uint64_t bytes;
    if (__builtin_mul_overflow(n, (uint64_t)rt_dtype_size(dtype), &bytes) ||
        bytes > (uint64_t)INT64_MAX)
        return npy_fail(err, errlen, "the array's size in bytes overflows 64 bits");
    out->nbytes = (size_t)bytes;
    return 0;
}

/* Read the data that follows the header; refuses to allocate more than the
 * file holds, so a lying shape cannot exhaust memory. */
static int npy_read_data(FILE *f, rt_array *out, char *err, size_t errlen)
{
    long here = ftell(f);
    if (here >= 0 && fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end >= here && (uint64_t)(end - here) < out->nbytes)
            return npy_fail(err, errlen, "truncated .npy file: the shape needs %zu bytes "
                            "of data but the file holds %ld", out->nbytes, end - here);
        fseek(f, here, SEEK_SET);
    }
    out->data = rt_array_alloc(out->nbytes, 0);
    if (!out->data)
        return npy_fail(err, errlen, "out of memory: the array needs %zu bytes", out->nbytes);
    if (out->nbytes && fread(out->data, 1, out->nbytes, f) != out->nbytes) {
        free(out->data);
        out->data = NULL;
        return npy_fail(err, errlen, "truncated .npy file: fewer than %zu bytes of data",
                        out->nbytes);
    }
    return 0;
}

/* Read the file's header and data into out (see rt.h). */
static int npy_read_file(FILE *f, rt_array *out, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    npy_header h;
    if (npy_read_preamble(f, &text, &len, err, errlen))
        return 1;
    int bad = npy_parse_header(text, len, &h, err, errlen);
    free(text);
    if (bad)
        return 1;
    if (h.fortran_order)
        return npy_fail(err, errlen, "Fortran-order arrays are not supported; save a "
                        "C-order copy, e.g. np.save(path, np.ascontiguousarray(a))");
    int is_u1;
    int dtype = npy_dtype_of_descr(h.descr, &is_u1, err, errlen);
    if (dtype < 0 || npy_shape_bytes(&h, dtype, out, err, errlen) ||
        npy_read_data(f, out, err, errlen))
        return 1;
    if (dtype == FT_ABI_BOOL && npy_check_bool(out, is_u1, err, errlen)) {
        rt_array_free(out);
        return 1;
    }
    return 0;
}

/* Read a .npy file into out; out->data is malloc-owned on success and out is
 * left empty (data NULL) on failure.  The message names the path. */
int rt_npy_read(const char *path, rt_array *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return npy_fail(err, errlen, "cannot open '%s': %s", path, strerror(errno));
    char msg[512];
    int r = npy_read_file(f, out, msg, sizeof msg);
    fclose(f);
    if (r) {
        rt_array_free(out);
        return npy_fail(err, errlen, "%s: %s", path, msg);
    }
    return 0;
}

/* --------------------------------------------------------------- write */

/* Build the padded header text for a: the dict, spaces, and a newline, so
 * that preamble + header is a multiple of 64 bytes.  Returns the length
 * written into buf (cap must be large enough: 64 + 24 per dim + 64). */
static size_t npy_header_text(const rt_array *a, size_t preamble, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                                npy_descr_of(a->dtype));
    for (int i = 0; i < a->ndim; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ", %lld" : "%lld", (long long)a->dims[i]);
    n += (size_t)snprintf(buf + n, cap - n, a->ndim == 1 ? ",), }" : "), }");
    size_t total = preamble + n + 1;
    size_t pad = (64 - total % 64) % 64;
    memset(buf + n, ' ', pad);
    n += pad;
    buf[n++] = '\n';
    return n;
}

/* Check that a describes a writable array: known dtype, sane ndim, and
 * nbytes matching the shape. */
static int npy_check_array(const rt_array *a, char *err, size_t errlen)
{
    if (!npy_descr_of(a->dtype))
        return npy_fail(err, errlen, "cannot write dtype code %d to .npy", a->dtype);
    if (a->ndim < 0 || a->ndim > RT_MAX_DIMS)
        return npy_fail(err, errlen, "cannot write an array with %d dimensions", a->ndim);
    uint64_t n = rt_dtype_size(a->dtype);
    for (int i = 0; i < a->ndim; i++)
        if (a->dims[i] < 0 || __builtin_mul_overflow(n, (uint64_t)a->dims[i], &n))
            return npy_fail(err, errlen, "cannot write an array with a bad shape");
    if (n != a->nbytes || (n && !a->data))
        return npy_fail(err, errlen, "internal error: the array's byte count does not match its shape");
    return 0;
}

/* Write a to f as a .npy file, format version 1.0 (the header of
 * RT_MAX_DIMS dimensions always fits its 16-bit length), and close f;
 * name is f's path for the messages. */
int rt_npy_write_stream(FILE *f, const char *name, const rt_array *a, char *err,
                        size_t errlen)
{
    char hdr[64 + 24 * RT_MAX_DIMS + 128];
    if (npy_check_array(a, err, errlen)) {
        fclose(f);
        return 1;
    }
    size_t hl = npy_header_text(a, 10, hdr, sizeof hdr);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                             (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre &&
             fwrite(hdr, 1, hl, f) == hl &&
             (a->nbytes == 0 || fwrite(a->data, 1, a->nbytes, f) == a->nbytes);
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok)
        return npy_fail(err, errlen, "cannot write '%s': %s", name, strerror(saved));
    return 0;
}

int rt_npy_stage(rt_stage *st, const char *path, const rt_array *a, char *err, size_t errlen)
{
    if (npy_check_array(a, err, errlen)) {
        *st = (rt_stage){.slot = -1};
        return 1;
    }
    int fd = rt_stage_open(st, path, 0666, err, errlen);
    if (fd < 0)
        return 1;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        npy_fail(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        return 1;
    }
    return rt_npy_write_stream(f, path, a, err, errlen);
}

/* Write a as a .npy file at path, all or nothing: through a temporary
 * beside it renamed into place (runtime/stage.c), so that a failure or a
 * signal leaves what was at path untouched. */
int rt_npy_write(const char *path, const rt_array *a, char *err, size_t errlen)
{
    rt_stage st;
    int r = rt_npy_stage(&st, path, a, err, errlen) || rt_stage_commit(&st, 1, 0, err, errlen);
    rt_stage_free(&st, 1);
    return r;
}

void *rt_array_alloc(size_t n, int zero)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1) != 0)
        return NULL;
    if (zero)
        memset(p, 0, n);
    return p;
}

/* Free a's data and leave it empty; safe on an already-freed array. */
void rt_array_free(rt_array *a)
{
    if (!a)
        return;
    free(a->data);
    a->data = NULL;
    a->nbytes = 0;
}
