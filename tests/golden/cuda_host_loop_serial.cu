
__global__ void ft__ksteps_0(int *ft__derr, int64_t n, int64_t t, float *a, float *c, int64_t s, int64_t ft__d3_0, float *b, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        b[(int64_t)i] = (a[(int64_t)i] * 0.5f) + ((float)s);
    }
}

__global__ void ft__ksteps_1(int *ft__derr, int64_t n, int64_t t, float *a, float *c, int64_t s, int64_t ft__d3_0, float *b, int64_t ft__b, int64_t ft__s, int64_t ft__n)
{
    if (*(volatile int *)ft__derr) return;
    for (int64_t ft__k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ft__k < ft__n;
         ft__k += (int64_t)gridDim.x * blockDim.x) {
        const int64_t i = (int64_t)((uint64_t)ft__b + (uint64_t)ft__k * (uint64_t)ft__s);
        a[(int64_t)i] = b[(int64_t)i];
    }
}

__global__ void ft__ksteps_2(int *ft__derr, int64_t n, int64_t t, float *a, float *c)
{
    if (*(volatile int *)ft__derr) return;
    c[(int64_t)0] = a[(int64_t)0];
    {
        const int64_t ft__b5 = 1;
        const int64_t ft__s5 = 1;
        const int64_t ft__n5 = ft__trip(ft__b5, n, ft__s5);
        for (int64_t ft__k5 = 0; ft__k5 < ft__n5; ft__k5++) {
            const int64_t i = (int64_t)((uint64_t)ft__b5 + (uint64_t)ft__k5 * (uint64_t)ft__s5);
            c[(int64_t)i] = c[(int64_t)(i - 1)] + a[(int64_t)i];
        }
    }
}

extern "C" __attribute__((visibility("default"))) int steps(int64_t n, int64_t t, float *a, float *c)
{
    if (n < 0) return ft__raise(FT_ERR_SIZE, 8, n, 0);
    if (t < 0) return ft__raise(FT_ERR_SIZE, 9, t, 0);
    if (!a && n > 0) return ft__raise(FT_ERR_NULL, 10, 0, 0);
    if (!c && n > 0) return ft__raise(FT_ERR_NULL, 11, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 12, 0, 0);
    int ft__err = FT_OK;
    ft_error_rec ft__er = {FT_OK, -1, {0, 0}};
    ft__pool_t ft__pool = {0};
    int *ft__derr = NULL;
    {   /* the gotos leave this block: they cross no initialisation */
        const int64_t ft__z0[] = {n};
        float *ft__dev_a = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z0, sizeof(float)));
        if (!ft__dev_a) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 0, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_a, a, ft__nbytes(1, ft__z0, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 1, 0, 0); goto ft__end; }
        const int64_t ft__z1[] = {n};
        float *ft__dev_c = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z1, sizeof(float)));
        if (!ft__dev_c) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 2, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 3, 0, 0); goto ft__end; }
        {
            const int64_t ft__b2 = 0, ft__s2 = 1;
            const int64_t ft__n2 = ft__trip(ft__b2, t, ft__s2);
            for (int64_t ft__k2 = 0; ft__k2 < ft__n2; ft__k2++) {
                const int64_t s = (int64_t)((uint64_t)ft__b2 + (uint64_t)ft__k2 * (uint64_t)ft__s2);
                {
                    const int64_t ft__d3_0 = n;
                    const int64_t ft__z4[] = {ft__d3_0};
                    float *b = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(1, ft__z4, sizeof(float)));
                    if (!b) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
                    {
                        const int64_t ft__b = 0, ft__s = 1;
                        const int64_t ft__n = ft__trip(ft__b, n, ft__s);
                        if (ft__n > 0)
                            ft__ksteps_0<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, t, ft__dev_a, ft__dev_c, s, ft__d3_0, b, ft__b, ft__s, ft__n);
                    }
                    {
                        const int64_t ft__b = 0, ft__s = 1;
                        const int64_t ft__n = ft__trip(ft__b, n, ft__s);
                        if (ft__n > 0)
                            ft__ksteps_1<<<ft__blocks(ft__n, 256), 256>>>(ft__derr, n, t, ft__dev_a, ft__dev_c, s, ft__d3_0, b, ft__b, ft__s, ft__n);
                    }
                    ft__dev_free(&ft__pool, b);
                }
            }
        }
        ft__ksteps_2<<<1, 1>>>(ft__derr, n, t, ft__dev_a, ft__dev_c);
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 5);
        const int64_t ft__z6[] = {n};
        if (!ft__err && cudaMemcpy(a, ft__dev_a, ft__nbytes(1, ft__z6, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, 0, 0);
        const int64_t ft__z7[] = {n};
        if (!ft__err && cudaMemcpy(c, ft__dev_c, ft__nbytes(1, ft__z7, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_steps(void *const *ft__args)
{
    return steps(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        (float *)ft__args[2],
        (float *)ft__args[3]);
}

static void ft__shapes_steps(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t t = ft__sizes[1]; (void)t;
    ft__dims[0] = n;
    ft__dims[1] = n;
}

static void ft__lshapes_steps(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n = ft__sizes[0]; (void)n;
    const int64_t t = ft__sizes[1]; (void)t;
    ft__dims[0] = n;
    ft__dims[1] = n;
}

static const char *const ft__shape_steps_2[] = {"n"};
static const char *const ft__shape_steps_3[] = {"n"};
static const ft_param_desc ft__params_steps[] = {
    {"n", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"t", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"a", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_INOUT, 0, 1, ft__shape_steps_2, NULL, 1, ft__shape_steps_2},
    {"c", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 1, ft__shape_steps_3, NULL, 1, ft__shape_steps_3},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:37", "CUDA runtime failure: cannot allocate the device copy of `a`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:37", "CUDA runtime failure: cannot copy `a` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:54", "CUDA runtime failure: cannot allocate the device copy of `c`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:8:13", "CUDA runtime failure: cannot allocate local tensor `b`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:37", "CUDA runtime failure: cannot copy `a` back from the device", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_host_loop_serial.ft:6:54", "CUDA runtime failure: cannot copy `c` back from the device", {0, 0}},   /* 7 */
    {FT_ERR_SIZE, "cuda_host_loop_serial.ft:6:19", "negative size: n = %0", {1, 0}},   /* 8 */
    {FT_ERR_SIZE, "cuda_host_loop_serial.ft:6:28", "negative size: t = %0", {1, 0}},   /* 9 */
    {FT_ERR_NULL, "cuda_host_loop_serial.ft:6:37", "null pointer: tensor parameter `a` (f32[n]) is NULL but has elements", {0, 0}},   /* 10 */
    {FT_ERR_NULL, "cuda_host_loop_serial.ft:6:54", "null pointer: tensor parameter `c` (f32[n]) is NULL but has elements", {0, 0}},   /* 11 */
    {FT_ERR_NODEVICE, "cuda_host_loop_serial.ft:6:13", "no usable CUDA device", {0, 0}},   /* 12 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 13 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_host_loop_serial_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"steps", 4, ft__params_steps, ft__call_steps, ft__shapes_steps, ft__lshapes_steps},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 13, ft__sites, ft__last_error
};
