/* test_npy.c - .npy reading and writing (runtime/npy.c).
 *
 * Round trips for every dtype and 0-D to 4-D shapes; files crafted byte by
 * byte as NumPy writes them (magic, version, header padded to 64); and
 * malformed or truncated files, which must give an error, never a crash.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

/* A fresh temporary folder per test (removed by the test's teardown). */
static char tmpdir[64];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/ftc-test-npy-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* path of name inside the test's folder (static buffer: one at a time). */
static const char *tpath(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

/* Write len bytes to the test file name; returns its path. */
static const char *write_bytes(const char *name, const void *bytes, size_t len)
{
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return p;
}

/* Build a v1.0 file the way NumPy does: magic, version, little-endian
 * header length, the dict padded with spaces and a newline to a multiple of
 * 64 bytes, then the data.  Returns a malloc'd buffer and its length. */
static unsigned char *npy_bytes(int major, const char *dict, const void *data,
                                size_t nbytes, size_t *len)
{
    size_t pre = major == 1 ? 10 : 12;
    size_t dl = strlen(dict);
    size_t hl = dl + 1 + (64 - (pre + dl + 1) % 64) % 64;
    unsigned char *b = malloc(pre + hl + nbytes);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    b[8] = hl & 0xff;
    b[9] = (hl >> 8) & 0xff;
    if (major > 1) {
        b[10] = (hl >> 16) & 0xff;
        b[11] = (hl >> 24) & 0xff;
    }
    memcpy(b + pre, dict, dl);
    memset(b + pre + dl, ' ', hl - dl - 1);
    b[pre + hl - 1] = '\n';
    if (nbytes)
        memcpy(b + pre + hl, data, nbytes);
    *len = pre + hl + nbytes;
    return b;
}

/* Write a crafted file and read it; returns rt_npy_read's code, the
 * message in err. */
static int read_crafted(int major, const char *dict, const void *data, size_t nbytes,
                        rt_array *a, char *err, size_t errlen)
{
    size_t len;
    unsigned char *b = npy_bytes(major, dict, data, nbytes, &len);
    const char *p = write_bytes("c.npy", b, len);
    free(b);
    return rt_npy_read(p, a, err, errlen);
}

/* Read a whole file into a malloc'd buffer. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*len + 1);
    ck_assert_uint_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

/* ------------------------------------------------------- round trips */

START_TEST(test_dtype_helpers)
{
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_BOOL), 1);
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_I32), 4);
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_I64), 8);
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_F16), 2);
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_F32), 4);
    ck_assert_uint_eq(rt_dtype_size(FT_ABI_F64), 8);
    ck_assert_uint_eq(rt_dtype_size(42), 0);
    ck_assert_str_eq(rt_dtype_name(FT_ABI_F32), "f32");
    ck_assert_str_eq(rt_dtype_name(FT_ABI_BOOL), "bool");
    ck_assert_str_eq(rt_dtype_numpy_name(FT_ABI_I64), "int64");
}
END_TEST

/* Every dtype and rank 0 to 4 survives write then read, bytes included. */
START_TEST(test_round_trip)
{
    static const int64_t shapes[5][4] = {{0}, {7}, {3, 5}, {2, 3, 4}, {2, 1, 3, 2}};
    for (int dt = FT_ABI_BOOL; dt <= FT_ABI_F64; dt++) {
        for (int nd = 0; nd <= 4; nd++) {
            rt_array a = {.dtype = dt, .ndim = nd}, b;
            size_t n = 1;
            for (int i = 0; i < nd; i++)
                n *= (size_t)(a.dims[i] = shapes[nd][i]);
            a.nbytes = n * rt_dtype_size(dt);
            a.data = malloc(a.nbytes);
            for (size_t i = 0; i < a.nbytes; i++)
                ((unsigned char *)a.data)[i] = dt == FT_ABI_BOOL ? i % 2 : (unsigned char)(i * 37 + dt);
            char err[512] = "";
            ck_assert_msg(rt_npy_write(tpath("r.npy"), &a, err, sizeof err) == 0, "%s", err);
            size_t len;
            unsigned char *raw = slurp(tpath("r.npy"), &len);
            ck_assert_uint_eq((len - a.nbytes) % 64, 0);
            ck_assert_int_eq(raw[len - a.nbytes - 1], '\n');
            free(raw);
            ck_assert_msg(rt_npy_read(tpath("r.npy"), &b, err, sizeof err) == 0, "%s", err);
            ck_assert_int_eq(b.dtype, dt);
            ck_assert_int_eq(b.ndim, nd);
            for (int i = 0; i < nd; i++)
                ck_assert_int_eq(b.dims[i], a.dims[i]);
            ck_assert_uint_eq(b.nbytes, a.nbytes);
            ck_assert_uint_eq((uintptr_t)b.data % 64, 0);   /* a cache line */
            ck_assert_int_eq(memcmp(a.data, b.data, a.nbytes), 0);
            rt_array_free(&a);
            rt_array_free(&b);
            ck_assert_ptr_null(b.data);
        }
    }
}
END_TEST

/* Empty arrays (a zero dimension) round trip too. */
START_TEST(test_round_trip_empty)
{
    rt_array a = {.dtype = FT_ABI_F32, .ndim = 2, .dims = {0, 3}}, b;
    char err[512];
    ck_assert_int_eq(rt_npy_write(tpath("e.npy"), &a, err, sizeof err), 0);
    ck_assert_int_eq(rt_npy_read(tpath("e.npy"), &b, err, sizeof err), 0);
    ck_assert_int_eq(b.ndim, 2);
    ck_assert_int_eq(b.dims[0], 0);
    ck_assert_int_eq(b.dims[1], 3);
    ck_assert_uint_eq(b.nbytes, 0);
    rt_array_free(&b);
}
END_TEST

/* The writer produces exactly NumPy's bytes for np.save of a (2, 3) f32. */
START_TEST(test_write_exact_bytes)
{
    float v[6] = {1, 2, 3, 4, 5, 6};
    rt_array a = {.dtype = FT_ABI_F32, .ndim = 2, .dims = {2, 3}, .data = v, .nbytes = sizeof v};
    char err[512];
    ck_assert_int_eq(rt_npy_write(tpath("w.npy"), &a, err, sizeof err), 0);
    size_t len;
    unsigned char *raw = slurp(tpath("w.npy"), &len);
    static const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    ck_assert_uint_eq(len, 128 + sizeof v);
    ck_assert_int_eq(memcmp(raw, "\x93NUMPY\x01\x00\x76\x00", 10), 0);  /* 118 */
    ck_assert_int_eq(memcmp(raw + 10, dict, sizeof dict - 1), 0);
    for (size_t i = 10 + sizeof dict - 1; i < 127; i++)
        ck_assert_int_eq(raw[i], ' ');
    ck_assert_int_eq(raw[127], '\n');
    ck_assert_int_eq(memcmp(raw + 128, v, sizeof v), 0);
    free(raw);
    /* 1-D shapes are written "(n,)", scalars "()". */
    rt_array s = {.dtype = FT_ABI_I64, .ndim = 1, .dims = {1}, .data = (int64_t[]){9}, .nbytes = 8};
    ck_assert_int_eq(rt_npy_write(tpath("s.npy"), &s, err, sizeof err), 0);
    raw = slurp(tpath("s.npy"), &len);
    ck_assert_ptr_nonnull(memmem(raw, len, "'shape': (1,), }", 16));
    ck_assert_ptr_nonnull(memmem(raw, len, "'descr': '<i8'", 14));
    free(raw);
    s.ndim = 0;
    ck_assert_int_eq(rt_npy_write(tpath("s.npy"), &s, err, sizeof err), 0);
    raw = slurp(tpath("s.npy"), &len);
    ck_assert_ptr_nonnull(memmem(raw, len, "'shape': (), }", 14));
    free(raw);
}
END_TEST

/* ------------------------------------------------- crafted, accepted */

START_TEST(test_read_v1_f8)
{
    double v[3] = {1.5, -2, 1e300};
    rt_array a;
    char err[512] = "";
    ck_assert_msg(read_crafted(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                               v, sizeof v, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(a.dtype, FT_ABI_F64);
    ck_assert_int_eq(a.ndim, 1);
    ck_assert_int_eq(a.dims[0], 3);
    ck_assert_int_eq(memcmp(a.data, v, sizeof v), 0);
    rt_array_free(&a);
}
END_TEST

START_TEST(test_read_v2_v3_and_layout_variants)
{
    int64_t v[6] = {1, 2, 3, 4, 5, 6};
    rt_array a;
    char err[512] = "";
    /* v2: 4-byte header length; keys in another order, double quotes. */
    ck_assert_msg(read_crafted(2, "{\"shape\": (2, 3), \"fortran_order\": False, \"descr\": \"<i8\"}",
                               v, sizeof v, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(a.dtype, FT_ABI_I64);
    ck_assert_int_eq(a.dims[1], 3);
    rt_array_free(&a);
    /* v3 (utf-8 header), Python 2 long suffix, odd whitespace. */
    ck_assert_msg(read_crafted(3, "{ 'descr' : '<i8' ,'fortran_order':False,'shape':( 6L , ) }",
                               v, sizeof v, &a, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(a.ndim, 1);
    ck_assert_int_eq(a.dims[0], 6);
    rt_array_free(&a);
}
END_TEST

START_TEST(test_read_small_dtypes)
{
    unsigned char b[4] = {1, 0, 0, 1};
    uint16_t h[2] = {0x3c00, 0xc000};     /* 1.0, -2.0 */
    int32_t i[1] = {-7};
    rt_array a;
    char err[512] = "";
    const char *bools[] = {"|b1", "?", "|?", "|u1"};
    for (int k = 0; k < 4; k++) {
        char dict[128];
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 2), }",
                 bools[k]);
        ck_assert_msg(read_crafted(1, dict, b, 4, &a, err, sizeof err) == 0, "%s: %s", bools[k], err);
        ck_assert_int_eq(a.dtype, FT_ABI_BOOL);
        rt_array_free(&a);
    }
    ck_assert_int_eq(read_crafted(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
                                  h, sizeof h, &a, err, sizeof err), 0);
    ck_assert_int_eq(a.dtype, FT_ABI_F16);
    ck_assert_int_eq(memcmp(a.data, h, 4), 0);
    rt_array_free(&a);
    ck_assert_int_eq(read_crafted(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }",
                                  i, sizeof i, &a, err, sizeof err), 0);
    ck_assert_int_eq(a.dtype, FT_ABI_I32);
    ck_assert_int_eq(a.ndim, 0);
    ck_assert_int_eq(*(int32_t *)a.data, -7);
    rt_array_free(&a);
}
END_TEST

/* ------------------------------------------------- crafted, refused */

/* Expect dict + nbytes of data to be refused with a message holding want. */
static void expect_refused(int major, const char *dict, size_t nbytes, const char *want)
{
    unsigned char *data = calloc(1, nbytes + 1);
    data[0] = 7;
    rt_array a;
    char err[512] = "";
    int r = read_crafted(major, dict, data, nbytes, &a, err, sizeof err);
    free(data);
    ck_assert_msg(r != 0, "accepted: %s", dict);
    ck_assert_ptr_null(a.data);
    ck_assert_msg(strstr(err, want), "message '%s' lacks '%s'", err, want);
    ck_assert_msg(strstr(err, "c.npy"), "message '%s' does not name the file", err);
}

START_TEST(test_refused_headers)
{
    expect_refused(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 8, "Fortran");
    expect_refused(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8, "big-endian");
    expect_refused(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16, "unsupported dtype '<c8'");
    expect_refused(1, "{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }", 8, "unsupported dtype");
    expect_refused(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 8, "structured");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", 8, "negative");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 8, "64 bits");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 8, "overflows");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }", 4, "more than 16");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False}", 4, "must give");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", 4, "fortran_order");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [1]}", 4, "not a tuple");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2}", 8, "shape");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4, "unexpected key");
    expect_refused(1, "['descr', '<f4']", 4, "does not start with '{'");
    expect_refused(1, "{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}", 4, "expected ',' or '}'");
    expect_refused(1, "{'descr: '<f4', 'fortran_order': False, 'shape': (1,)}", 4, "malformed");
    expect_refused(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", 8, "truncated");
    /* uint8 read as bool must hold only 0 and 1 (data[0] is 7). */
    expect_refused(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", 2, "only 0 and 1");
    /* so must bool data (a bool other than 0 or 1 is undefined in C; found by
     * tests/fuzz/fuzz_npy, regress/fuzz_npy/bool_not_01). */
    expect_refused(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", 2, "only 0 and 1");
    expect_refused(1, "{'descr': '?', 'fortran_order': False, 'shape': (), }", 1, "only 0 and 1");
}
END_TEST

START_TEST(test_refused_preambles)
{
    rt_array a;
    char err[512] = "";
    ck_assert_int_ne(rt_npy_read(tpath("missing.npy"), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "cannot open"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "", 0), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "not a .npy file"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "PK\3\4zipfile", 11), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "not a .npy file"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "\x93NUMPY\x04\x00\x10\x00", 10), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "version 4.0"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "\x93NUMPY\x01\x00\x10", 9), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "header length"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "\x93NUMPY\x01\x00\x40\x00{'descr'", 18), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "shorter"));
    ck_assert_int_ne(rt_npy_read(write_bytes("c.npy", "\x93NUMPY\x02\x00\xff\xff\xff\x7f{", 13), &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "too large"));
    ck_assert_int_ne(rt_npy_read(tmpdir, &a, err, sizeof err), 0);   /* a folder */
}
END_TEST

/* Every truncation and many single-byte corruptions of a valid file give
 * an error or a valid array, never a crash (ASan checks the reads). */
START_TEST(test_fuzz_no_crash)
{
    float v[6] = {1, 2, 3, 4, 5, 6};
    size_t len;
    unsigned char *good = npy_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                    v, sizeof v, &len);
    unsigned char *b = malloc(len);
    char err[512];
    rt_array a;
    for (size_t cut = 0; cut < len; cut++) {
        ck_assert_int_ne(rt_npy_read(write_bytes("f.npy", good, cut), &a, err, sizeof err), 0);
        ck_assert_ptr_null(a.data);
    }
    uint64_t s = 12345;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(b, good, len);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t pos = (size_t)(s >> 33) % 128;
        b[pos] = (unsigned char)(s >> 20);
        if (rt_npy_read(write_bytes("f.npy", b, len), &a, err, sizeof err) == 0)
            ck_assert_uint_le(a.nbytes, sizeof v);
        rt_array_free(&a);
    }
    free(b);
    free(good);
}
END_TEST

START_TEST(test_write_errors)
{
    float v[2] = {0};
    rt_array a = {.dtype = FT_ABI_F32, .ndim = 1, .dims = {2}, .data = v, .nbytes = 8};
    char err[512] = "";
    ck_assert_int_ne(rt_npy_write("/nonexistent-folder/x.npy", &a, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "cannot create"));
    a.nbytes = 4;
    ck_assert_int_ne(rt_npy_write(tpath("x.npy"), &a, err, sizeof err), 0);
    a.nbytes = 8;
    a.dtype = 99;
    ck_assert_int_ne(rt_npy_write(tpath("x.npy"), &a, err, sizeof err), 0);
    ck_assert_int_ne(access(tpath("x.npy"), F_OK), 0);
}
END_TEST

static Suite *npy_suite(void)
{
    Suite *s = suite_create("npy");
    TCase *tc = tcase_create("npy");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dtype_helpers);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_round_trip_empty);
    tcase_add_test(tc, test_write_exact_bytes);
    tcase_add_test(tc, test_read_v1_f8);
    tcase_add_test(tc, test_read_v2_v3_and_layout_variants);
    tcase_add_test(tc, test_read_small_dtypes);
    tcase_add_test(tc, test_refused_headers);
    tcase_add_test(tc, test_refused_preambles);
    tcase_add_test(tc, test_fuzz_no_crash);
    tcase_add_test(tc, test_write_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(npy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
