/* attn_decode.cu — decode attention (one query row per sequence against a KV cache): split-KV
 * across thread blocks, then a reduction kernel. GQA: a block serves the G query heads of a KV
 * group, so K and V are read once per KV head. */
#include "attn_cuda.cuh"
#include "common.cuh"

#define RLK_DEC_THREADS 128
#define RLK_DEC_WARPS (RLK_DEC_THREADS / 32)

/* Lanes of a warp split a key row into 16-byte vectors: LPK lanes per key, KPW keys per warp at a
 * time; each lane keeps U keys' K and V vectors in flight before it computes. */
template <typename T, int D> struct dec_geom {
    static constexpr int VEC = 16 / (int)sizeof(T);
    static constexpr int LPK = D / VEC;
    static constexpr int KPW = 32 / LPK;
    static constexpr int SLOTS = RLK_DEC_WARPS * KPW;
    static_assert(LPK >= 1 && LPK <= 32 && 32 % LPK == 0, "head dim / dtype not supported");
};

template <typename T, int D, int G>
static size_t dec_smem() {
    return (size_t)dec_geom<T, D>::SLOTS * G * (D + 2) * sizeof(float);
}

template <typename T, int D, int G, int U>
__global__ void __launch_bounds__(RLK_DEC_THREADS)
    rlk_decode_split_kernel(const T *__restrict__ q, const T *__restrict__ k,
                            const T *__restrict__ v, float *__restrict__ opart,
                            float *__restrict__ mpart, float *__restrict__ lpart, int H, int group,
                            long long L, long long chunk, long long BH, float scale_log2) {
    using GE = dec_geom<T, D>;
    constexpr int VEC = GE::VEC, LPK = GE::LPK, KPW = GE::KPW, SLOTS = GE::SLOTS;
    extern __shared__ __align__(16) float dsm[];
    float *pm = dsm;                 /* [SLOTS][G] */
    float *pl = pm + SLOTS * G;      /* [SLOTS][G] */
    float *pa = pl + SLOTS * G;      /* [SLOTS][G][D] */

    const int split = blockIdx.x;
    const int hpb = H / G; /* head blocks per batch */
    const long long b = blockIdx.y / hpb;
    const int hq0 = (int)(blockIdx.y % hpb) * G;
    const long long kvh = rlk_kv_head(b, hq0, H / group, group);
    const T *kh = k + kvh * L * D;
    const T *vh = v + kvh * L * D;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int kslot = lane / LPK, sub = lane % LPK;

    float qv[G][VEC];
#pragma unroll
    for (int g = 0; g < G; g++) {
        T buf[VEC];
        *reinterpret_cast<uint4 *>(buf) =
            *reinterpret_cast<const uint4 *>(q + (b * H + hq0 + g) * D + sub * VEC);
#pragma unroll
        for (int e = 0; e < VEC; e++) qv[g][e] = rlk_to_f<T>(buf[e]) * scale_log2;
    }
    float m[G], l[G], acc[G][VEC];
#pragma unroll
    for (int g = 0; g < G; g++) {
        m[g] = -CUDART_INF_F;
        l[g] = 0.0f;
#pragma unroll
        for (int e = 0; e < VEC; e++) acc[g][e] = 0.0f;
    }

    const long long j_begin = (long long)split * chunk;
    const long long j_end = j_begin + chunk < L ? j_begin + chunk : L;
    constexpr int STEP = RLK_DEC_WARPS * KPW * U;
    /* jb is the same for every lane of a warp, so all lanes take part in every shuffle. */
    for (long long jb = j_begin + (long long)warp * KPW * U; jb < j_end; jb += STEP) {
        uint4 kr[U], vr[U];
        bool valid[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const long long j = jb + u * KPW + kslot;
            valid[u] = j < j_end;
            kr[u] = make_uint4(0, 0, 0, 0);
            vr[u] = make_uint4(0, 0, 0, 0);
            if (valid[u]) {
                kr[u] = *reinterpret_cast<const uint4 *>(kh + j * D + sub * VEC);
                vr[u] = *reinterpret_cast<const uint4 *>(vh + j * D + sub * VEC);
            }
        }
#pragma unroll
        for (int g = 0; g < G; g++) {
            float s[U];
            float mx = -CUDART_INF_F;
#pragma unroll
            for (int u = 0; u < U; u++) {
                const T *kb = reinterpret_cast<const T *>(&kr[u]);
                float dot = 0.0f;
#pragma unroll
                for (int e = 0; e < VEC; e++) dot = fmaf(qv[g][e], rlk_to_f<T>(kb[e]), dot);
#pragma unroll
                for (int o = LPK / 2; o > 0; o >>= 1) dot += __shfl_xor_sync(0xffffffffu, dot, o);
                s[u] = valid[u] ? dot : -CUDART_INF_F;
                mx = fmaxf(mx, s[u]);
            }
            const float mn = fmaxf(m[g], mx);
            const float mu = mn == -CUDART_INF_F ? 0.0f : mn;
            const float a = exp2f(m[g] - mu); /* 0 while m is −∞ */
            float p[U], psum = 0.0f;
#pragma unroll
            for (int u = 0; u < U; u++) {
                p[u] = exp2f(s[u] - mu);
                psum += p[u];
            }
            l[g] = l[g] * a + psum;
            m[g] = mn;
#pragma unroll
            for (int e = 0; e < VEC; e++) {
                float x = acc[g][e] * a;
#pragma unroll
                for (int u = 0; u < U; u++)
                    x = fmaf(p[u], rlk_to_f<T>(reinterpret_cast<const T *>(&vr[u])[e]), x);
                acc[g][e] = x;
            }
        }
    }

    /* Combine the block's SLOTS partial states per query head, then write this split's partial. */
    const int slot = warp * KPW + kslot;
#pragma unroll
    for (int g = 0; g < G; g++) {
        if (sub == 0) {
            pm[slot * G + g] = m[g];
            pl[slot * G + g] = l[g];
        }
#pragma unroll
        for (int e = 0; e < VEC; e++) pa[(slot * G + g) * D + sub * VEC + e] = acc[g][e];
    }
    __syncthreads();
    for (int x = threadIdx.x; x < G * D; x += blockDim.x) {
        const int g = x / D, c = x % D;
        float mm = -CUDART_INF_F;
        for (int sl = 0; sl < SLOTS; sl++) mm = fmaxf(mm, pm[sl * G + g]);
        const float mu = mm == -CUDART_INF_F ? 0.0f : mm;
        float ll = 0.0f, aa = 0.0f;
        for (int sl = 0; sl < SLOTS; sl++) {
            const float w = exp2f(pm[sl * G + g] - mu);
            ll += pl[sl * G + g] * w;
            aa += pa[(sl * G + g) * D + c] * w;
        }
        const long long row = b * H + hq0 + g;
        opart[((long long)split * BH + row) * D + c] = aa;
        if (c == 0) {
            mpart[(long long)split * BH + row] = mm;
            lpart[(long long)split * BH + row] = ll;
        }
    }
}

/* One block of D threads per (batch, query head): O = Σ_s o_s·2^(m_s−m) / Σ_s l_s·2^(m_s−m). */
template <typename T>
__global__ void rlk_decode_reduce_kernel(const float *__restrict__ opart,
                                         const float *__restrict__ mpart,
                                         const float *__restrict__ lpart, T *__restrict__ o,
                                         int splits, long long BH, int D) {
    const long long row = blockIdx.x;
    const int c = threadIdx.x;
    float mm = -CUDART_INF_F;
    for (int s = 0; s < splits; s++) mm = fmaxf(mm, mpart[(long long)s * BH + row]);
    const float mu = mm == -CUDART_INF_F ? 0.0f : mm;
    float ll = 0.0f, aa = 0.0f;
    for (int s = 0; s < splits; s++) {
        const float w = exp2f(mpart[(long long)s * BH + row] - mu);
        ll += lpart[(long long)s * BH + row] * w;
        aa += opart[((long long)s * BH + row) * D + c] * w;
    }
    o[row * D + c] = rlk_from_f<T>(aa / ll);
}

int rlk_cuda_decode_group(const rlk_shape *s, int *fused) {
    const int64_t group = s->heads / s->kv_heads;
    const int ok = group == 1 || group == 2 || group == 4 || group == 8;
    if (fused) *fused = ok;
    return ok ? (int)group : 1;
}

int rlk_cuda_decode_splits(const rlk_shape *s, int sm_count) {
    const int G = rlk_cuda_decode_group(s, NULL);
    const long long base = s->batch * (s->heads / G);
    long long want = (4LL * (sm_count > 0 ? sm_count : 1) + base - 1) / base;
    long long most = (s->kv_len + 255) / 256; /* at least 256 keys per split */
    if (want > most) want = most;
    if (want < 1) want = 1;
    if (want > 4096) want = 4096;
    /* Every split gets at least one key: recompute from the chunk size. */
    long long chunk = (s->kv_len + want - 1) / want;
    return (int)((s->kv_len + chunk - 1) / chunk);
}

size_t rlk_cuda_decode_workspace(const rlk_shape *s, int splits) {
    return (size_t)splits * (size_t)(s->batch * s->heads) * (size_t)(s->head_dim + 2) *
           sizeof(float);
}

template <typename T, int D, int G>
static cudaError_t dec_launch(const rlk_shape *s, const void *q, const void *k, const void *v,
                              void *o, void *ws, int splits, cudaStream_t st) {
    constexpr int U = G >= 8 ? 2 : 4;
    const long long BH = s->batch * s->heads;
    const long long chunk = (s->kv_len + splits - 1) / splits;
    float *opart = (float *)ws;
    float *mpart = opart + (size_t)splits * BH * D;
    float *lpart = mpart + (size_t)splits * BH;
    dim3 grid((unsigned)splits, (unsigned)(s->batch * (s->heads / G)));
    rlk_decode_split_kernel<T, D, G, U><<<grid, RLK_DEC_THREADS, dec_smem<T, D, G>(), st>>>(
        (const T *)q, (const T *)k, (const T *)v, opart, mpart, lpart, (int)s->heads,
        (int)(s->heads / s->kv_heads), s->kv_len, chunk, BH, s->scale * RLK_LOG2E);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    rlk_decode_reduce_kernel<T><<<(unsigned)BH, D, 0, st>>>(opart, mpart, lpart, (T *)o, splits,
                                                            BH, D);
    return cudaGetLastError();
}

template <typename T, int D>
static cudaError_t dec_dispatch_g(const rlk_shape *s, const void *q, const void *k, const void *v,
                                  void *o, void *ws, int splits, cudaStream_t st) {
    switch (rlk_cuda_decode_group(s, NULL)) {
    case 1: return dec_launch<T, D, 1>(s, q, k, v, o, ws, splits, st);
    case 2: return dec_launch<T, D, 2>(s, q, k, v, o, ws, splits, st);
    case 4: return dec_launch<T, D, 4>(s, q, k, v, o, ws, splits, st);
    case 8: return dec_launch<T, D, 8>(s, q, k, v, o, ws, splits, st);
    default: return cudaErrorInvalidValue;
    }
}

template <typename T>
static cudaError_t dec_dispatch_d(const rlk_shape *s, const void *q, const void *k, const void *v,
                                  void *o, void *ws, int splits, cudaStream_t st) {
    if (s->head_dim == 64) return dec_dispatch_g<T, 64>(s, q, k, v, o, ws, splits, st);
    if (s->head_dim == 128) return dec_dispatch_g<T, 128>(s, q, k, v, o, ws, splits, st);
    return cudaErrorInvalidValue;
}

cudaError_t rlk_cuda_decode(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                            const void *v, void *o, void *workspace, int splits, cudaStream_t st) {
    if (rlk_shape_check(s) != 0 || s->seq != 1 || splits < 1 || !workspace ||
        s->batch * s->heads > 0x7fffffffLL || s->batch * s->heads > 65535LL * 8)
        return cudaErrorInvalidValue;
    if (s->batch * (s->heads / rlk_cuda_decode_group(s, NULL)) > 65535) return cudaErrorInvalidValue;
    switch (t) {
    case RLK_F32: return dec_dispatch_d<float>(s, q, k, v, o, workspace, splits, st);
    case RLK_F16: return dec_dispatch_d<__half>(s, q, k, v, o, workspace, splits, st);
    case RLK_BF16: return dec_dispatch_d<__nv_bfloat16>(s, q, k, v, o, workspace, splits, st);
    default: return cudaErrorInvalidValue;
    }
}
