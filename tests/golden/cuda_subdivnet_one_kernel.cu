
__global__ void ft__ksubdivnet_0(int *ft__derr, int64_t n_faces, int64_t in_feats, const int32_t *adj, const float *e, float *y, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        {
            const int64_t ft__b3 = 0;
            const int64_t ft__s3 = 1;
            const int64_t ft__n3 = ft__trip(ft__b3, in_feats, ft__s3);
            for (int64_t ft__k3 = 0; ft__k3 < ft__n3; ft__k3++) {
                const int64_t k = (int64_t)((uint64_t)ft__b3 + (uint64_t)ft__k3 * (uint64_t)ft__s3);
                y[(int64_t)i * in_feats + (int64_t)k] = 0.0f;
                {
                    const int64_t ft__b4 = 0;
                    const int64_t ft__s4 = 1;
                    const int64_t ft__n4 = ft__trip(ft__b4, 3, ft__s4);
                    for (int64_t ft__k4 = 0; ft__k4 < ft__n4; ft__k4++) {
                        const int64_t j = (int64_t)((uint64_t)ft__b4 + (uint64_t)ft__k4 * (uint64_t)ft__s4);
                        if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)j] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 6, (int64_t)adj[(int64_t)i * 3 + (int64_t)j], n_faces); return; }
                        if ((uint64_t)adj[(int64_t)i * 3 + (int64_t)ft__mod<int64_t>(j + 1, 3)] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 7, (int64_t)adj[(int64_t)i * 3 + (int64_t)ft__mod<int64_t>(j + 1, 3)], n_faces); return; }
                        y[(int64_t)i * in_feats + (int64_t)k] = (float)(y[(int64_t)i * in_feats + (int64_t)k] + (((float)fabsf((float)(e[(int64_t)adj[(int64_t)i * 3 + (int64_t)j] * in_feats + (int64_t)k] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)ft__mod<int64_t>(j + 1, 3)] * in_feats + (int64_t)k])))));
                    }
                }
            }
        }
    }
}

extern "C" __attribute__((visibility("default"))) int subdivnet(int64_t n_faces, int64_t in_feats, const int32_t *adj, const float *e, float *y)
{
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 10, n_faces, 0);
    if (in_feats < 0) return ft__raise(FT_ERR_SIZE, 11, in_feats, 0);
    if (!adj && n_faces > 0) return ft__raise(FT_ERR_NULL, 12, 0, 0);
    if (!e && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 13, 0, 0);
    if (!y && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 14, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 15, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n_faces, 3};
        int32_t *ft__dev_adj = (int32_t *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z0, sizeof(int32_t)));
        if (!ft__dev_adj) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_adj, adj, ft__nbytes(2, ft__z0, sizeof(int32_t)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {n_faces, in_feats};
        float *ft__dev_e = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z1, sizeof(float)));
        if (!ft__dev_e) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_e, e, ft__nbytes(2, ft__z1, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        const int64_t ft__z2[] = {n_faces, in_feats};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z2, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        /* Li: */
        {
            const int64_t ft__b = 0, ft__s = 1;
            const int64_t ft__n = ft__trip(ft__b, n_faces, ft__s);
            if (ft__n > 0)
                ft__ksubdivnet_0<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n_faces, in_feats, ft__dev_adj, ft__dev_e, ft__dev_y, ft__b, ft__s, ft__n);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 8);
        const int64_t ft__z5[] = {n_faces, in_feats};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z5, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
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

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:12:23", "CUDA runtime failure: cannot allocate the device copy of `adj`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:12:23", "CUDA runtime failure: cannot copy `adj` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:13:23", "CUDA runtime failure: cannot allocate the device copy of `e`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:13:23", "CUDA runtime failure: cannot copy `e` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:14:23", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:11:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 5 */
    {FT_ERR_INDEX, "cuda_subdivnet_one_kernel.ft:19:34", "index out of bounds: `adj[i, j]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 6 */
    {FT_ERR_INDEX, "cuda_subdivnet_one_kernel.ft:19:52", "index out of bounds: `adj[i, (j + 1) %% 3]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:11:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "cuda_subdivnet_one_kernel.ft:14:23", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 9 */
    {FT_ERR_SIZE, "cuda_subdivnet_one_kernel.ft:11:23", "negative size: n_faces = %0", {1, 0}},   /* 10 */
    {FT_ERR_SIZE, "cuda_subdivnet_one_kernel.ft:11:38", "negative size: in_feats = %0", {1, 0}},   /* 11 */
    {FT_ERR_NULL, "cuda_subdivnet_one_kernel.ft:12:23", "null pointer: tensor parameter `adj` (i32[n_faces, 3]) is NULL but has elements", {0, 0}},   /* 12 */
    {FT_ERR_NULL, "cuda_subdivnet_one_kernel.ft:13:23", "null pointer: tensor parameter `e` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 13 */
    {FT_ERR_NULL, "cuda_subdivnet_one_kernel.ft:14:23", "null pointer: tensor parameter `y` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 14 */
    {FT_ERR_NODEVICE, "cuda_subdivnet_one_kernel.ft:11:13", "no usable CUDA device", {0, 0}},   /* 15 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 16 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_subdivnet_one_kernel_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"subdivnet", 5, ft__params_subdivnet, ft__call_subdivnet, ft__shapes_subdivnet, ft__lshapes_subdivnet},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 16, ft__sites, ft__last_error
};
