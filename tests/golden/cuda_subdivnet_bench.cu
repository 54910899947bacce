
__global__ void ft__ksubdivnet_0(int *ft__derr, int64_t n_faces, int64_t in_feats, int64_t out_feats, const int32_t *adj, const float *e, const float *w0, const float *w1, const float *w2, const float *w3, float *y)
{
    if (__syncthreads_or(*(volatile int *)ft__derr != 0)) return;
    bool ft__bad = false;   /* this thread failed a check */
    const bool ft__tid0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    (void)ft__tid0;
    /* Li: */
    {
        const int64_t ft__b7 = 0;
        const int64_t ft__s7 = 1;
        const int64_t ft__n7 = ft__trip(ft__b7, n_faces, ft__s7);
        for (int64_t ft__k7 = blockIdx.x; ft__k7 < ft__n7; ft__k7 += gridDim.x) {
            const int64_t i = (int64_t)((uint64_t)ft__b7 + (uint64_t)ft__k7 * (uint64_t)ft__s7);
            {
                extern __shared__ __align__(16) unsigned char ft__dsmem[];
                float *const f1 = (float *)(ft__dsmem + 0);
                {
                    extern __shared__ __align__(16) unsigned char ft__dsmem[];
                    float *const f2 = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)));
                    {
                        extern __shared__ __align__(16) unsigned char ft__dsmem[];
                        float *const f3 = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)));
                        /* L_i_1: */
                        {
                            const int64_t ft__b8 = 0;
                            const int64_t ft__s8 = 1;
                            const int64_t ft__n8 = ft__trip(ft__b8, in_feats, ft__s8);
                            for (int64_t ft__k8 = threadIdx.x; ft__k8 < ft__n8 && !ft__bad; ft__k8 += blockDim.x) {
                                const int64_t i_1 = (int64_t)((uint64_t)ft__b8 + (uint64_t)ft__k8 * (uint64_t)ft__s8);
                                if (!ft__bad)
                                    f1[(int64_t)i_1] = 0.0f;
                                if (!ft__bad)
                                    f2[(int64_t)i_1] = 0.0f;
                                if (!ft__bad)
                                    f3[(int64_t)i_1] = 0.0f;
                            }
                        }
                        if (__syncthreads_or(ft__bad)) return;
                        {
                            const int64_t ft__b9 = 0;
                            const int64_t ft__s9 = 1;
                            const int64_t ft__n9 = ft__trip(ft__b9, in_feats, ft__s9);
                            for (int64_t ft__k9 = threadIdx.x; ft__k9 < ft__n9 && !ft__bad; ft__k9 += blockDim.x) {
                                const int64_t i_1 = (int64_t)((uint64_t)ft__b9 + (uint64_t)ft__k9 * (uint64_t)ft__s9);
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)0] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 14, (int64_t)adj[(int64_t)i * 3 + (int64_t)0], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f1[(int64_t)i_1] = (float)(f1[(int64_t)i_1] + (e[(int64_t)adj[(int64_t)i * 3 + (int64_t)0] * in_feats + (int64_t)i_1]));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)0] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 15, (int64_t)adj[(int64_t)i * 3 + (int64_t)0], n_faces); ft__bad = true; }
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)1] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 16, (int64_t)adj[(int64_t)i * 3 + (int64_t)1], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f2[(int64_t)i_1] = (float)(f2[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)adj[(int64_t)i * 3 + (int64_t)0] * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)1] * in_feats + (int64_t)i_1])))));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)0] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 17, (int64_t)adj[(int64_t)i * 3 + (int64_t)0], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f3[(int64_t)i_1] = (float)(f3[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)i * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)0] * in_feats + (int64_t)i_1])))));
                            }
                        }
                        if (__syncthreads_or(ft__bad)) return;
                        {
                            const int64_t ft__b10 = 0;
                            const int64_t ft__s10 = 1;
                            const int64_t ft__n10 = ft__trip(ft__b10, in_feats, ft__s10);
                            for (int64_t ft__k10 = threadIdx.x; ft__k10 < ft__n10 && !ft__bad; ft__k10 += blockDim.x) {
                                const int64_t i_1 = (int64_t)((uint64_t)ft__b10 + (uint64_t)ft__k10 * (uint64_t)ft__s10);
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)1] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 18, (int64_t)adj[(int64_t)i * 3 + (int64_t)1], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f1[(int64_t)i_1] = (float)(f1[(int64_t)i_1] + (e[(int64_t)adj[(int64_t)i * 3 + (int64_t)1] * in_feats + (int64_t)i_1]));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)1] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 19, (int64_t)adj[(int64_t)i * 3 + (int64_t)1], n_faces); ft__bad = true; }
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)2] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 20, (int64_t)adj[(int64_t)i * 3 + (int64_t)2], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f2[(int64_t)i_1] = (float)(f2[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)adj[(int64_t)i * 3 + (int64_t)1] * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)2] * in_feats + (int64_t)i_1])))));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)1] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 21, (int64_t)adj[(int64_t)i * 3 + (int64_t)1], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f3[(int64_t)i_1] = (float)(f3[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)i * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)1] * in_feats + (int64_t)i_1])))));
                            }
                        }
                        if (__syncthreads_or(ft__bad)) return;
                        {
                            const int64_t ft__b11 = 0;
                            const int64_t ft__s11 = 1;
                            const int64_t ft__n11 = ft__trip(ft__b11, in_feats, ft__s11);
                            for (int64_t ft__k11 = threadIdx.x; ft__k11 < ft__n11 && !ft__bad; ft__k11 += blockDim.x) {
                                const int64_t i_1 = (int64_t)((uint64_t)ft__b11 + (uint64_t)ft__k11 * (uint64_t)ft__s11);
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)2] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 22, (int64_t)adj[(int64_t)i * 3 + (int64_t)2], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f1[(int64_t)i_1] = (float)(f1[(int64_t)i_1] + (e[(int64_t)adj[(int64_t)i * 3 + (int64_t)2] * in_feats + (int64_t)i_1]));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)2] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 23, (int64_t)adj[(int64_t)i * 3 + (int64_t)2], n_faces); ft__bad = true; }
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)0] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 24, (int64_t)adj[(int64_t)i * 3 + (int64_t)0], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f2[(int64_t)i_1] = (float)(f2[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)adj[(int64_t)i * 3 + (int64_t)2] * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)0] * in_feats + (int64_t)i_1])))));
                                if (!ft__bad && (uint64_t)adj[(int64_t)i * 3 + (int64_t)2] >= (uint64_t)n_faces) { ft__dfail(ft__derr, FT_ERR_INDEX, 25, (int64_t)adj[(int64_t)i * 3 + (int64_t)2], n_faces); ft__bad = true; }
                                if (!ft__bad)
                                    f3[(int64_t)i_1] = (float)(f3[(int64_t)i_1] + (((float)fabsf((float)(e[(int64_t)i * in_feats + (int64_t)i_1] - e[(int64_t)adj[(int64_t)i * 3 + (int64_t)2] * in_feats + (int64_t)i_1])))));
                            }
                        }
                        if (__syncthreads_or(ft__bad)) return;
                        {
                            extern __shared__ __align__(16) unsigned char ft__dsmem[];
                            float *const t = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)));
                            {
                                extern __shared__ __align__(16) unsigned char ft__dsmem[];
                                float *const t_1 = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)));
                                {
                                    extern __shared__ __align__(16) unsigned char ft__dsmem[];
                                    float *const t_2 = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)));
                                    {
                                        extern __shared__ __align__(16) unsigned char ft__dsmem[];
                                        float *const t_3 = (float *)(ft__dsmem + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)));
                                        /* L_i_1_2: */
                                        {
                                            const int64_t ft__b12 = 0;
                                            const int64_t ft__s12 = 1;
                                            const int64_t ft__n12 = ft__trip(ft__b12, out_feats, ft__s12);
                                            for (int64_t ft__k12 = threadIdx.x; ft__k12 < ft__n12 && !ft__bad; ft__k12 += blockDim.x) {
                                                const int64_t i_1 = (int64_t)((uint64_t)ft__b12 + (uint64_t)ft__k12 * (uint64_t)ft__s12);
                                                if (!ft__bad)
                                                    t[(int64_t)i_1] = 0.0f;
                                                if (!ft__bad)
                                                    t_1[(int64_t)i_1] = 0.0f;
                                                if (!ft__bad)
                                                    t_2[(int64_t)i_1] = 0.0f;
                                                if (!ft__bad)
                                                    t_3[(int64_t)i_1] = 0.0f;
                                            }
                                        }
                                        if (__syncthreads_or(ft__bad)) return;
                                        /* L_matmul_k: */
                                        {
                                            const int64_t ft__b13 = 0;
                                            const int64_t ft__s13 = 1;
                                            const int64_t ft__n13 = ft__trip(ft__b13, in_feats, ft__s13);
                                            for (int64_t ft__k13 = 0; ft__k13 < ft__n13; ft__k13++) {
                                                const int64_t k = (int64_t)((uint64_t)ft__b13 + (uint64_t)ft__k13 * (uint64_t)ft__s13);
                                                /* L_matmul_j: */
                                                {
                                                    const int64_t ft__b14 = 0;
                                                    const int64_t ft__s14 = 1;
                                                    const int64_t ft__n14 = ft__trip(ft__b14, out_feats, ft__s14);
                                                    for (int64_t ft__k14 = threadIdx.x; ft__k14 < ft__n14 && !ft__bad; ft__k14 += blockDim.x) {
                                                        const int64_t j = (int64_t)((uint64_t)ft__b14 + (uint64_t)ft__k14 * (uint64_t)ft__s14);
                                                        if (!ft__bad)
                                                            t[(int64_t)j] = (float)(t[(int64_t)j] + (e[(int64_t)i * in_feats + (int64_t)k] * w0[(int64_t)k * out_feats + (int64_t)j]));
                                                    }
                                                }
                                                if (__syncthreads_or(ft__bad)) return;
                                            }
                                        }
                                        /* L_matmul_k_1: */
                                        {
                                            const int64_t ft__b15 = 0;
                                            const int64_t ft__s15 = 1;
                                            const int64_t ft__n15 = ft__trip(ft__b15, in_feats, ft__s15);
                                            for (int64_t ft__k15 = 0; ft__k15 < ft__n15; ft__k15++) {
                                                const int64_t k = (int64_t)((uint64_t)ft__b15 + (uint64_t)ft__k15 * (uint64_t)ft__s15);
                                                /* L_matmul_j_1: */
                                                {
                                                    const int64_t ft__b16 = 0;
                                                    const int64_t ft__s16 = 1;
                                                    const int64_t ft__n16 = ft__trip(ft__b16, out_feats, ft__s16);
                                                    for (int64_t ft__k16 = threadIdx.x; ft__k16 < ft__n16 && !ft__bad; ft__k16 += blockDim.x) {
                                                        const int64_t j = (int64_t)((uint64_t)ft__b16 + (uint64_t)ft__k16 * (uint64_t)ft__s16);
                                                        if (!ft__bad)
                                                            t_1[(int64_t)j] = (float)(t_1[(int64_t)j] + (f1[(int64_t)k] * w1[(int64_t)k * out_feats + (int64_t)j]));
                                                    }
                                                }
                                                if (__syncthreads_or(ft__bad)) return;
                                            }
                                        }
                                        /* L_matmul_k_2: */
                                        {
                                            const int64_t ft__b17 = 0;
                                            const int64_t ft__s17 = 1;
                                            const int64_t ft__n17 = ft__trip(ft__b17, in_feats, ft__s17);
                                            for (int64_t ft__k17 = 0; ft__k17 < ft__n17; ft__k17++) {
                                                const int64_t k = (int64_t)((uint64_t)ft__b17 + (uint64_t)ft__k17 * (uint64_t)ft__s17);
                                                /* L_matmul_j_2: */
                                                {
                                                    const int64_t ft__b18 = 0;
                                                    const int64_t ft__s18 = 1;
                                                    const int64_t ft__n18 = ft__trip(ft__b18, out_feats, ft__s18);
                                                    for (int64_t ft__k18 = threadIdx.x; ft__k18 < ft__n18 && !ft__bad; ft__k18 += blockDim.x) {
                                                        const int64_t j = (int64_t)((uint64_t)ft__b18 + (uint64_t)ft__k18 * (uint64_t)ft__s18);
                                                        if (!ft__bad)
                                                            t_2[(int64_t)j] = (float)(t_2[(int64_t)j] + (f2[(int64_t)k] * w2[(int64_t)k * out_feats + (int64_t)j]));
                                                    }
                                                }
                                                if (__syncthreads_or(ft__bad)) return;
                                            }
                                        }
                                        /* L_matmul_k_3: */
                                        {
                                            const int64_t ft__b19 = 0;
                                            const int64_t ft__s19 = 1;
                                            const int64_t ft__n19 = ft__trip(ft__b19, in_feats, ft__s19);
                                            for (int64_t ft__k19 = 0; ft__k19 < ft__n19; ft__k19++) {
                                                const int64_t k = (int64_t)((uint64_t)ft__b19 + (uint64_t)ft__k19 * (uint64_t)ft__s19);
                                                /* L_matmul_j_3: */
                                                {
                                                    const int64_t ft__b20 = 0;
                                                    const int64_t ft__s20 = 1;
                                                    const int64_t ft__n20 = ft__trip(ft__b20, out_feats, ft__s20);
                                                    for (int64_t ft__k20 = threadIdx.x; ft__k20 < ft__n20 && !ft__bad; ft__k20 += blockDim.x) {
                                                        const int64_t j = (int64_t)((uint64_t)ft__b20 + (uint64_t)ft__k20 * (uint64_t)ft__s20);
                                                        if (!ft__bad)
                                                            t_3[(int64_t)j] = (float)(t_3[(int64_t)j] + (f3[(int64_t)k] * w3[(int64_t)k * out_feats + (int64_t)j]));
                                                    }
                                                }
                                                if (__syncthreads_or(ft__bad)) return;
                                            }
                                        }
                                        if (__syncthreads_or(ft__bad)) return;
                                        /* L_i_1_3: */
                                        {
                                            const int64_t ft__b21 = 0;
                                            const int64_t ft__s21 = 1;
                                            const int64_t ft__n21 = ft__trip(ft__b21, out_feats, ft__s21);
                                            for (int64_t ft__k21 = threadIdx.x; ft__k21 < ft__n21 && !ft__bad; ft__k21 += blockDim.x) {
                                                const int64_t i_1 = (int64_t)((uint64_t)ft__b21 + (uint64_t)ft__k21 * (uint64_t)ft__s21);
                                                if (!ft__bad)
                                                    y[(int64_t)i * out_feats + (int64_t)i_1] = ((t[(int64_t)i_1] + t_1[(int64_t)i_1]) + t_2[(int64_t)i_1]) + t_3[(int64_t)i_1];
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if (__syncthreads_or(ft__bad)) return;
        }
    }
}

extern "C" __attribute__((visibility("default"))) int subdivnet(int64_t n_faces, int64_t in_feats, int64_t out_feats, const int32_t *adj, const float *e, const float *w0, const float *w1, const float *w2, const float *w3, float *y)
{
    if (n_faces < 0) return ft__raise(FT_ERR_SIZE, 28, n_faces, 0);
    if (in_feats < 0) return ft__raise(FT_ERR_SIZE, 29, in_feats, 0);
    if (out_feats < 0) return ft__raise(FT_ERR_SIZE, 30, out_feats, 0);
    if (!adj && n_faces > 0) return ft__raise(FT_ERR_NULL, 31, 0, 0);
    if (!e && n_faces > 0 && in_feats > 0) return ft__raise(FT_ERR_NULL, 32, 0, 0);
    if (!w0 && in_feats > 0 && out_feats > 0) return ft__raise(FT_ERR_NULL, 33, 0, 0);
    if (!w1 && in_feats > 0 && out_feats > 0) return ft__raise(FT_ERR_NULL, 34, 0, 0);
    if (!w2 && in_feats > 0 && out_feats > 0) return ft__raise(FT_ERR_NULL, 35, 0, 0);
    if (!w3 && in_feats > 0 && out_feats > 0) return ft__raise(FT_ERR_NULL, 36, 0, 0);
    if (!y && n_faces > 0 && out_feats > 0) return ft__raise(FT_ERR_NULL, 37, 0, 0);
    if (!ft__have_device()) return ft__raise(FT_ERR_NODEVICE, 38, 0, 0);
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
        const int64_t ft__z2[] = {in_feats, out_feats};
        float *ft__dev_w0 = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z2, sizeof(float)));
        if (!ft__dev_w0) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 4, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_w0, w0, ft__nbytes(2, ft__z2, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 5, 0, 0); goto ft__end; }
        const int64_t ft__z3[] = {in_feats, out_feats};
        float *ft__dev_w1 = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z3, sizeof(float)));
        if (!ft__dev_w1) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 6, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_w1, w1, ft__nbytes(2, ft__z3, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 7, 0, 0); goto ft__end; }
        const int64_t ft__z4[] = {in_feats, out_feats};
        float *ft__dev_w2 = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z4, sizeof(float)));
        if (!ft__dev_w2) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 8, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_w2, w2, ft__nbytes(2, ft__z4, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 9, 0, 0); goto ft__end; }
        const int64_t ft__z5[] = {in_feats, out_feats};
        float *ft__dev_w3 = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z5, sizeof(float)));
        if (!ft__dev_w3) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 10, 0, 0); goto ft__end; }
        if (cudaMemcpy(ft__dev_w3, w3, ft__nbytes(2, ft__z5, sizeof(float)), cudaMemcpyHostToDevice) != cudaSuccess) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 11, 0, 0); goto ft__end; }
        const int64_t ft__z6[] = {n_faces, out_feats};
        float *ft__dev_y = (float *)ft__dev_alloc(&ft__pool, ft__nbytes(2, ft__z6, sizeof(float)));
        if (!ft__dev_y) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 12, 0, 0); goto ft__end; }
        if (ft__err_init(&ft__pool, &ft__derr)) { ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 13, 0, 0); goto ft__end; }
        /* Li: */
        {
            int64_t ft__ext[6] = {1, 1, 1, 1, 1, 1};
            ft__ext[0] = ft__max<int64_t>(ft__ext[0], ft__trip(0, n_faces, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, in_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, in_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, in_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, in_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            ft__ext[3] = ft__max<int64_t>(ft__ext[3], ft__trip(0, out_feats, 1));
            dim3 ft__grid, ft__block;
            ft__launch_dims(ft__ext, ft__max_threads(ft__ksubdivnet_0), &ft__grid, &ft__block);
            const size_t ft__smem = ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, in_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats)) + ft__dsz(sizeof(float), ft__max<int64_t>(0, out_feats));
            if (ft__smem > 48 * 1024)   /* past the default: opt in (or the launch fails) */
                cudaFuncSetAttribute(ft__ksubdivnet_0, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)ft__min<size_t>(ft__smem, 2147483647));
            ft__ksubdivnet_0<<<ft__grid, ft__block, ft__smem>>>(ft__derr, n_faces, in_feats, out_feats, ft__dev_adj, ft__dev_e, ft__dev_w0, ft__dev_w1, ft__dev_w2, ft__dev_w3, ft__dev_y);
        }
        ft__err_fetch(ft__derr, &ft__err, &ft__er, 26);
        const int64_t ft__z22[] = {n_faces, out_feats};
        if (!ft__err && cudaMemcpy(y, ft__dev_y, ft__nbytes(2, ft__z22, sizeof(float)), cudaMemcpyDeviceToHost) != cudaSuccess) ft__fail(&ft__err, &ft__er, FT_ERR_NOMEM, 27, 0, 0);
    }
ft__end:
    ft__pool_free(&ft__pool);
    return ft__done(ft__err, &ft__er);
}

static int ft__call_subdivnet(void *const *ft__args)
{
    return subdivnet(*(const int64_t *)ft__args[0],
        *(const int64_t *)ft__args[1],
        *(const int64_t *)ft__args[2],
        (const int32_t *)ft__args[3],
        (const float *)ft__args[4],
        (const float *)ft__args[5],
        (const float *)ft__args[6],
        (const float *)ft__args[7],
        (const float *)ft__args[8],
        (float *)ft__args[9]);
}

static void ft__shapes_subdivnet(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    const int64_t out_feats = ft__sizes[2]; (void)out_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = in_feats;
    ft__dims[5] = out_feats;
    ft__dims[6] = in_feats;
    ft__dims[7] = out_feats;
    ft__dims[8] = in_feats;
    ft__dims[9] = out_feats;
    ft__dims[10] = in_feats;
    ft__dims[11] = out_feats;
    ft__dims[12] = n_faces;
    ft__dims[13] = out_feats;
}

static void ft__lshapes_subdivnet(const int64_t *ft__sizes, int64_t *ft__dims)
{
    (void)ft__sizes; (void)ft__dims;
    const int64_t n_faces = ft__sizes[0]; (void)n_faces;
    const int64_t in_feats = ft__sizes[1]; (void)in_feats;
    const int64_t out_feats = ft__sizes[2]; (void)out_feats;
    ft__dims[0] = n_faces;
    ft__dims[1] = 3;
    ft__dims[2] = n_faces;
    ft__dims[3] = in_feats;
    ft__dims[4] = in_feats;
    ft__dims[5] = out_feats;
    ft__dims[6] = in_feats;
    ft__dims[7] = out_feats;
    ft__dims[8] = in_feats;
    ft__dims[9] = out_feats;
    ft__dims[10] = in_feats;
    ft__dims[11] = out_feats;
    ft__dims[12] = n_faces;
    ft__dims[13] = out_feats;
}

static const char *const ft__shape_subdivnet_3[] = {"n_faces", "3"};
static const char *const ft__shape_subdivnet_4[] = {"n_faces", "in_feats"};
static const char *const ft__shape_subdivnet_5[] = {"in_feats", "out_feats"};
static const char *const ft__shape_subdivnet_6[] = {"in_feats", "out_feats"};
static const char *const ft__shape_subdivnet_7[] = {"in_feats", "out_feats"};
static const char *const ft__shape_subdivnet_8[] = {"in_feats", "out_feats"};
static const char *const ft__shape_subdivnet_9[] = {"n_faces", "out_feats"};
static const ft_param_desc ft__params_subdivnet[] = {
    {"n_faces", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"in_feats", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"out_feats", FT_PARAM_SIZE, FT_ABI_I64, FT_ABI_IN, 0, 0, NULL, NULL, 0, NULL},
    {"adj", FT_PARAM_TENSOR, FT_ABI_I32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_3, NULL, 2, ft__shape_subdivnet_3},
    {"e", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_4, NULL, 2, ft__shape_subdivnet_4},
    {"w0", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_5, NULL, 2, ft__shape_subdivnet_5},
    {"w1", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_6, NULL, 2, ft__shape_subdivnet_6},
    {"w2", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_7, NULL, 2, ft__shape_subdivnet_7},
    {"w3", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_IN, 0, 2, ft__shape_subdivnet_8, NULL, 2, ft__shape_subdivnet_8},
    {"y", FT_PARAM_TENSOR, FT_ABI_F32, FT_ABI_OUT, 0, 2, ft__shape_subdivnet_9, NULL, 2, ft__shape_subdivnet_9},
};

/* The run-time checks: where each is in the program and what it checks. */
static const ft_site_desc ft__sites[] = {
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:29:23", "CUDA runtime failure: cannot allocate the device copy of `adj`", {0, 0}},   /* 0 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:29:23", "CUDA runtime failure: cannot copy `adj` to the device", {0, 0}},   /* 1 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:30:23", "CUDA runtime failure: cannot allocate the device copy of `e`", {0, 0}},   /* 2 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:30:23", "CUDA runtime failure: cannot copy `e` to the device", {0, 0}},   /* 3 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:31:23", "CUDA runtime failure: cannot allocate the device copy of `w0`", {0, 0}},   /* 4 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:31:23", "CUDA runtime failure: cannot copy `w0` to the device", {0, 0}},   /* 5 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:32:23", "CUDA runtime failure: cannot allocate the device copy of `w1`", {0, 0}},   /* 6 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:32:23", "CUDA runtime failure: cannot copy `w1` to the device", {0, 0}},   /* 7 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:33:23", "CUDA runtime failure: cannot allocate the device copy of `w2`", {0, 0}},   /* 8 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:33:23", "CUDA runtime failure: cannot copy `w2` to the device", {0, 0}},   /* 9 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:34:23", "CUDA runtime failure: cannot allocate the device copy of `w3`", {0, 0}},   /* 10 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:34:23", "CUDA runtime failure: cannot copy `w3` to the device", {0, 0}},   /* 11 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:35:23", "CUDA runtime failure: cannot allocate the device copy of `y`", {0, 0}},   /* 12 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:28:13", "CUDA runtime failure: cannot allocate the device's error record", {0, 0}},   /* 13 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:44:21", "index out of bounds: `adj[i, 0]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 14 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:25", "index out of bounds: `adj[i, 0]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 15 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:40", "index out of bounds: `adj[i, 1]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 16 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:46:32", "index out of bounds: `adj[i, 0]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 17 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:44:21", "index out of bounds: `adj[i, 1]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 18 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:25", "index out of bounds: `adj[i, 1]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 19 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:40", "index out of bounds: `adj[i, 2]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 20 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:46:32", "index out of bounds: `adj[i, 1]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 21 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:44:21", "index out of bounds: `adj[i, 2]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 22 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:25", "index out of bounds: `adj[i, 2]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 23 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:45:40", "index out of bounds: `adj[i, 0]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 24 */
    {FT_ERR_INDEX, "cuda_subdivnet_bench.ft:46:32", "index out of bounds: `adj[i, 2]` = %0 is outside [0, %1) (dimension 0 of e)", {1, 1}},   /* 25 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:28:13", "CUDA runtime failure: a kernel launch or the device failed", {0, 0}},   /* 26 */
    {FT_ERR_NOMEM, "cuda_subdivnet_bench.ft:35:23", "CUDA runtime failure: cannot copy `y` back from the device", {0, 0}},   /* 27 */
    {FT_ERR_SIZE, "cuda_subdivnet_bench.ft:28:23", "negative size: n_faces = %0", {1, 0}},   /* 28 */
    {FT_ERR_SIZE, "cuda_subdivnet_bench.ft:28:38", "negative size: in_feats = %0", {1, 0}},   /* 29 */
    {FT_ERR_SIZE, "cuda_subdivnet_bench.ft:28:54", "negative size: out_feats = %0", {1, 0}},   /* 30 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:29:23", "null pointer: tensor parameter `adj` (i32[n_faces, 3]) is NULL but has elements", {0, 0}},   /* 31 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:30:23", "null pointer: tensor parameter `e` (f32[n_faces, in_feats]) is NULL but has elements", {0, 0}},   /* 32 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:31:23", "null pointer: tensor parameter `w0` (f32[in_feats, out_feats]) is NULL but has elements", {0, 0}},   /* 33 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:32:23", "null pointer: tensor parameter `w1` (f32[in_feats, out_feats]) is NULL but has elements", {0, 0}},   /* 34 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:33:23", "null pointer: tensor parameter `w2` (f32[in_feats, out_feats]) is NULL but has elements", {0, 0}},   /* 35 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:34:23", "null pointer: tensor parameter `w3` (f32[in_feats, out_feats]) is NULL but has elements", {0, 0}},   /* 36 */
    {FT_ERR_NULL, "cuda_subdivnet_bench.ft:35:23", "null pointer: tensor parameter `y` (f32[n_faces, out_feats]) is NULL but has elements", {0, 0}},   /* 37 */
    {FT_ERR_NODEVICE, "cuda_subdivnet_bench.ft:28:13", "no usable CUDA device", {0, 0}},   /* 38 */
};

/* ft_module.last_error: the calling thread's last failure. */
static int ft__last_error(ft_error_rec *rec, char *buf, size_t size)
{
    const ft_error_rec e = ft__last;
    if (rec)
        *rec = e;
    const ft_site_desc *s = e.site >= 0 && e.site < 39 ? &ft__sites[e.site] : NULL;
    if (buf && size)
        ft__format(buf, size, &e, s);
    return e.code;
}

/* The C ABI's error helper (the generated header declares it). */
extern "C" __attribute__((visibility("default")))
int cuda_subdivnet_bench_last_error(char *buf, size_t size)
{
    return ft__last_error(NULL, buf, size);
}

static const ft_func_desc ft__funcs[] = {
    {"subdivnet", 10, ft__params_subdivnet, ft__call_subdivnet, ft__shapes_subdivnet, ft__lshapes_subdivnet},
};

extern "C" __attribute__((visibility("default")))
const ft_module_desc ft_module = {
    FT_ABI_VERSION, 1, ft__funcs, 39, ft__sites, ft__last_error
};
