/* attn_naive.cu — input fill, output poison, and the naive (materialised) attention forward. */
#include "attn_cuda.cuh"
#include "common.cuh"

size_t rlk_dtype_size(rlk_dtype t) { return t == RLK_F32 ? 4u : 2u; }

/* splitmix64 finaliser of (seed, index): a counter-based generator, the same on every run. */
__device__ __forceinline__ unsigned long long rlk_mix(unsigned long long z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

template <typename T>
__global__ void rlk_fill_kernel(T *p, size_t n, unsigned long long seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned long long h = rlk_mix(seed ^ rlk_mix(i));
        float u = (float)(h >> 40) * (1.0f / 16777216.0f); /* [0, 1), exact */
        p[i] = rlk_from_f<T>((2.0f * u - 1.0f) * 1.7320508f);
    }
}

cudaError_t rlk_cuda_fill_uniform(void *p, rlk_dtype t, size_t n, uint64_t seed, cudaStream_t st) {
    if (!p && n) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    unsigned grid = (unsigned)(blocks < 65536 ? blocks : 65536);
    switch (t) {
    case RLK_F32: rlk_fill_kernel<float><<<grid, 256, 0, st>>>((float *)p, n, seed); break;
    case RLK_F16: rlk_fill_kernel<__half><<<grid, 256, 0, st>>>((__half *)p, n, seed); break;
    case RLK_BF16:
        rlk_fill_kernel<__nv_bfloat16><<<grid, 256, 0, st>>>((__nv_bfloat16 *)p, n, seed);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

cudaError_t rlk_cuda_poison(void *p, size_t bytes, cudaStream_t st) {
    return cudaMemsetAsync(p, 0xFF, bytes, st);
}

/* ---- softmax over the rows of the materialised S --------------------------------------------- */

#define RLK_SOFTMAX_THREADS 256

/* Combine two (max, sum) pairs of an online softmax. */
__device__ __forceinline__ void rlk_ml_combine(float &m, float &l, float m2, float l2) {
    float mn = fmaxf(m, m2);
    if (mn == -CUDART_INF_F) return; /* both empty */
    l = l * exp2f(m - mn) + l2 * exp2f(m2 - mn);
    m = mn;
}

/* One block per row of S (B·H·N rows of L). S already carries the softmax scale (cuBLAS alpha).
 * Pass 1 reads the row once for its max and sum (online); pass 2 reads it again (from L1/L2: a
 * row is at most a few hundred KiB) and writes P, 0 where masked. VEC elements per access when
 * L is a multiple of VEC (16-byte loads), else 1. */
template <typename T, int VEC>
__global__ void __launch_bounds__(RLK_SOFTMAX_THREADS)
    rlk_softmax_rows(const T *__restrict__ S, T *__restrict__ P, long long N, long long L,
                     int causal) {
    __shared__ float red_m[RLK_SOFTMAX_THREADS / 32], red_l[RLK_SOFTMAX_THREADS / 32];
    const long long row = blockIdx.x;
    const long long i = row % N;
    const long long nv = rlk_visible(i, N, L, causal);
    const T *srow = S + row * L;
    T *prow = P + row * L;

    float m = -CUDART_INF_F, l = 0.0f;
    for (long long j0 = (long long)threadIdx.x * VEC; j0 < nv; j0 += (long long)blockDim.x * VEC) {
        T buf[VEC];
        if (VEC > 1) {
            *reinterpret_cast<uint4 *>(buf) = *reinterpret_cast<const uint4 *>(srow + j0);
        } else {
            buf[0] = srow[j0];
        }
#pragma unroll
        for (int e = 0; e < VEC; e++) {
            if (j0 + e < nv) {
                float x = rlk_to_f<T>(buf[e]) * RLK_LOG2E;
                float mn = fmaxf(m, x);
                l = l * exp2f(m - mn) + exp2f(x - mn);
                m = mn;
            }
        }
    }
    /* warp, then block reduction of (m, l) */
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o);
        float l2 = __shfl_xor_sync(0xffffffffu, l, o);
        rlk_ml_combine(m, l, m2, l2);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        red_m[warp] = m;
        red_l[warp] = l;
    }
    __syncthreads();
    m = red_m[0];
    l = red_l[0];
    for (int w = 1; w < RLK_SOFTMAX_THREADS / 32; w++) rlk_ml_combine(m, l, red_m[w], red_l[w]);
    const float inv = 1.0f / l; /* l ≥ 1: key 0 is always visible (causal needs N ≤ L) */

    for (long long j0 = (long long)threadIdx.x * VEC; j0 < L; j0 += (long long)blockDim.x * VEC) {
        T in[VEC], out[VEC];
        if (j0 < nv) {
            if (VEC > 1) {
                *reinterpret_cast<uint4 *>(in) = *reinterpret_cast<const uint4 *>(srow + j0);
            } else {
                in[0] = srow[j0];
            }
        }
#pragma unroll
        for (int e = 0; e < VEC; e++) {
            float p = 0.0f;
            if (j0 + e < nv) p = exp2f(rlk_to_f<T>(in[e]) * RLK_LOG2E - m) * inv;
            out[e] = rlk_from_f<T>(p);
        }
        if (VEC > 1) {
            *reinterpret_cast<uint4 *>(prow + j0) = *reinterpret_cast<const uint4 *>(out);
        } else {
            prow[j0] = out[0];
        }
    }
}

template <typename T>
static cudaError_t rlk_launch_softmax(const rlk_shape *s, const void *S, void *P, cudaStream_t st) {
    const long long rows = s->batch * s->heads * s->seq;
    constexpr int VEC = (int)(16 / sizeof(T));
    if (rows > 0x7fffffffLL) return cudaErrorInvalidValue;
    if (s->kv_len % VEC == 0)
        rlk_softmax_rows<T, VEC><<<(unsigned)rows, RLK_SOFTMAX_THREADS, 0, st>>>(
            (const T *)S, (T *)P, s->seq, s->kv_len, s->causal);
    else
        rlk_softmax_rows<T, 1><<<(unsigned)rows, RLK_SOFTMAX_THREADS, 0, st>>>(
            (const T *)S, (T *)P, s->seq, s->kv_len, s->causal);
    return cudaGetLastError();
}

cudaError_t rlk_cuda_naive(cublasHandle_t h, const rlk_shape *s, rlk_dtype t, const void *q,
                           const void *k, const void *v, void *o, void *S, void *P,
                           cudaStream_t st, cublasStatus_t *cublas_status) {
    if (rlk_shape_check(s) != 0) return cudaErrorInvalidValue;
    const long long G = s->heads / s->kv_heads, N = s->seq, L = s->kv_len, d = s->head_dim;
    const long long batches = s->batch * s->kv_heads;
    if (G * N > 0x7fffffffLL || L > 0x7fffffffLL || d > 0x7fffffffLL || batches > 0x7fffffffLL)
        return cudaErrorInvalidValue;
    cudaDataType_t ty = t == RLK_F32 ? CUDA_R_32F : (t == RLK_F16 ? CUDA_R_16F : CUDA_R_16BF);
    cublasStatus_t cs = cublasSetStream(h, st);
    const float alpha_s = s->scale, one = 1.0f, zero = 0.0f;
    /* Column-major view: Sᵀ (L × G·N) = Kᵀ_cm(d × L)ᵀ · Qᵀ_cm (d × G·N), one GEMM per KV head. */
    if (cs == CUBLAS_STATUS_SUCCESS)
        cs = cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)L, (int)(G * N), (int)d,
                                        &alpha_s, k, ty, (int)d, L * d, q, ty, (int)d, G * N * d,
                                        &zero, S, ty, (int)L, G * N * L, (int)batches,
                                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (cs != CUBLAS_STATUS_SUCCESS) {
        if (cublas_status) *cublas_status = cs;
        return cudaErrorUnknown;
    }
    cudaError_t e;
    switch (t) {
    case RLK_F32: e = rlk_launch_softmax<float>(s, S, P, st); break;
    case RLK_F16: e = rlk_launch_softmax<__half>(s, S, P, st); break;
    case RLK_BF16: e = rlk_launch_softmax<__nv_bfloat16>(s, S, P, st); break;
    default: return cudaErrorInvalidValue;
    }
    if (e != cudaSuccess) return e;
    /* Oᵀ (d × G·N) = Vᵀ_cm (d × L) · Pᵀ_cm (L × G·N). */
    cs = cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)d, (int)(G * N), (int)L, &one,
                                    v, ty, (int)d, L * d, P, ty, (int)L, G * N * L, &zero, o, ty,
                                    (int)d, G * N * d, (int)batches, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT);
    if (cs != CUBLAS_STATUS_SUCCESS) {
        if (cublas_status) *cublas_status = cs;
        return cudaErrorUnknown;
    }
    return cudaSuccess;
}
