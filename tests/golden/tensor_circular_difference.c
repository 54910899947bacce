int subdivnet(int64_t n_faces, int64_t in_feats, const int32_t *adj, const float *e, float *y)
{
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 2, n_faces, 0);
    if (in_feats < 0) return ft__raise(FT_ERR_SIZE, 3, in_feats, 0);
    if (!adj && n_faces > 0) return ft__raise(FT_ERR_NULL, 4, 0, 0);
    if (!e && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 5, 0, 0);
    if (!y && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 6, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    /* Li: */
    for (int64_t i = 0; i < n_faces; i++) {
        for (int64_t i_1 = 0; i_1 < in_feats; i_1++) {
            y[i * in_feats + i_1] = 0.0f;
        }
        for (int64_t j = 0; j < 3; j++) {
            if (0 < in_feats) {
                if ((uint64_t)adj[i * 3 + j] >= (uint64_t)n_faces) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 0, (int64_t)adj[i * 3 + j], n_faces); goto ft__end0; }
                if ((uint64_t)adj[i * 3 + ((j + 1) % 3)] >= (uint64_t)n_faces) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 1, (int64_t)adj[i * 3 + ((j + 1) % 3)], n_faces); goto ft__end0; }
            }
            for (int64_t i_1 = 0; i_1 < in_feats; i_1++) {
                y[i * in_feats + i_1] += fabsf(e[(int64_t)adj[i * 3 + j] * in_feats + i_1] - e[(int64_t)adj[i * 3 + ((j + 1) % 3)] * in_feats + i_1]);
            }
        }
    }
ft__end0:;
    return ft__done(ft__err, &ft__er);
}

static int ft__call_subdivnet(void *const *ft__args)
{
    return subdivnet(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_subdivnet(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = n_faces;
    ft__dims[5] = in_feats;
}

static void ft__lshapes_subdivnet(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = n_faces;
    ft__dims[5] = in_feats;
}

static const char *const ft__shape_subdivnet_2[] = {"n_faces", "3"};
static const char *const ft__shape_subdivnet_3[] = {"n_faces", "in_feats"};
static const char *const ft__shape_subdivnet_4[] = {"n_faces", "in_feats"};
static const ft_param_desc ft__params_subdivnet[] = {
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"in_feats", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_2, NULL, 2, ft__shape_subdivnet_2},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_3, NULL, 2, ft__shape_subdivnet_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_subdivnet_4, NULL, 2, ft__shape_subdivnet_4},
};

int subdivnet_rows(int64_t n_faces, int64_t in_feats, const int32_t *adj, const float *e, float *y)
{
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 10, n_faces, 0);
    if (in_feats < 0) return ft__raise(FT_ERR_SIZE, 11, in_feats, 0);
    if (!adj && n_faces > 0) return ft__raise(FT_ERR_NULL, 12, 0, 0);
    if (!e && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!y && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    void *ft__h9 = NULL; size_t ft__h9_n = 0;
    /* Li: */
    for (int64_t i = 0; i < n_faces; i++) {
        for (int64_t i_1 = 0; i_1 < in_feats; i_1++) {
            y[i * in_feats + i_1] = 0.0f;
        }
        for (int64_t j = 0; j < 3; j++) {
            {
                if (!ft__grow(&ft__h9, &ft__h9_n, ft__nbytes(1, (const int64_t[]){in_feats}, sizeof(float)))) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, (int64_t)ft__nbytes(1, (const int64_t[]){in_feats}, sizeof(float)), 0); goto ft__end5; }
                float *d = (float *)ft__h9;
                if (0 < in_feats) {
                    if ((uint64_t)adj[i * 3 + j] >= (uint64_t)n_faces) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 8, (int64_t)adj[i * 3 + j], n_faces); goto ft__end5; }
                    if ((uint64_t)adj[i * 3 + ((j + 1) % 3)] >= (uint64_t)n_faces) { ft__fail(&ft__err, &ft__er, FT_ERR_INDEX, 9, (int64_t)adj[i * 3 + ((j + 1) % 3)], n_faces); goto ft__end5; }
                }
                for (int64_t i_1 = 0; i_1 < in_feats; i_1++) {
                    d[i_1] = e[(int64_t)adj[i * 3 + j] * in_feats + i_1] - e[(int64_t)adj[i * 3 + ((j + 1) % 3)] * in_feats + i_1];
                }
                for (int64_t i_1 = 0; i_1 < in_feats; i_1++) {
                    y[i * in_feats + i_1] += fabsf(d[i_1]);
                }
            }
        }
    }
ft__end5:;
    free(ft__h9);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_subdivnet_rows(void *const *ft__args)
{
    return subdivnet_rows(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (const int32_t *)ft__args[2],
        (const float *)ft__args[3],
        (float *)ft__args[4]);
}

static void ft__shapes_subdivnet_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = n_faces;
    ft__dims[5] = in_feats;
}

static void ft__lshapes_subdivnet_rows(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = n_faces;
    ft__dims[5] = in_feats;
}

static const char *const ft__shape_subdivnet_rows_2[] = {"n_faces", "3"};
static const char *const ft__shape_subdivnet_rows_3[] = {"n_faces", "in_feats"};
static const char *const ft__shape_subdivnet_rows_4[] = {"n_faces", "in_feats"};
static const ft_param_desc ft__params_subdivnet_rows[] = {
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"in_feats", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_rows_2, NULL, 2, ft__shape_subdivnet_rows_2},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_rows_3, NULL, 2, ft__shape_subdivnet_rows_3},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_subdivnet_rows_4, NULL, 2, ft__shape_subdivnet_rows_4},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_INDEX, "tensor_circular_difference.ft:17:27", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 0 */
    {FT_ERR_INDEX, "tensor_circular_difference.ft:17:42", "index out of bounds: `adj[i, (j + 1) %% 3]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 1 */
    {FT_ERR_SIZE, "tensor_circular_difference.ft:10:23", "negative size: n_faces = %0", {1, 0}},   /* 2 */
    {FT_ERR_SIZE, "tensor_circular_difference.ft:10:38", "negative size: in_feats = %0", {1, 0}},   /* 3 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:11:23", "null pointer: tensor parameter `adj` (i32[n_faces, 3]) is NULL but has elements", {0, 0}},   /* 4 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:12:23", "null pointer: tensor parameter `e` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 5 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:13:23", "null pointer: tensor parameter `y` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "tensor_circular_difference.ft:28:17", "out of memory: cannot allocate %0 bytes for local tensor `d`", {5, 0}},   /* 7 */
    {FT_ERR_INDEX, "tensor_circular_difference.ft:28:23", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 8 */
    {FT_ERR_INDEX, "tensor_circular_difference.ft:28:38", "index out of bounds: `adj[i, (j + 1) %% 3]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 9 */
    {FT_ERR_SIZE, "tensor_circular_difference.ft:21:28", "negative size: n_faces = %0", {1, 0}},   /* 10 */
    {FT_ERR_SIZE, "tensor_circular_difference.ft:21:43", "negative size: in_feats = %0", {1, 0}},   /* 11 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:22:28", "null pointer: tensor parameter `adj` (i32[n_faces, 3]) is NULL but has elements", {0, 0}},   /* 12 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:23:28", "null pointer: tensor parameter `e` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NULL, "tensor_circular_difference.ft:24:28", "null pointer: tensor parameter `y` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 14 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 15 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
__attribute__((visibility("default")))
int tensor_circular_difference_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"subdivnet", 5, ft__params_subdivnet, ft__call_subdivnet, ft__shapes_subdivnet, ft__lshapes_subdivnet},
    {"subdivnet_rows", 5, ft__params_subdivnet_rows, ft__call_subdivnet_rows, ft__shapes_subdivnet_rows, ft__lshapes_subdivnet_rows},
};

__attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 2, ft__funcs, 15, ft__sites, ft__last_error
};
