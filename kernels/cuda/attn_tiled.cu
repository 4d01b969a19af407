/* attn_tiled.cu — FlashAttention-style forward (the `tiled` model): fp32 on CUDA cores with a
 * configurable Br × Bc, and fp16/bf16 on tensor cores (WMMA, fp32 accumulation). */
#include <mma.h>

#include "attn_cuda.cuh"
#include "common.cuh"

/* ================================ fp32, CUDA cores ============================================ */

#define RLK_TILED_THREADS 256
#define RLK_TILED_MAX_D 256

/* Shared memory (floats): Q Br·d, K Bc·(d+1) (one float of padding per row: threads of a warp
 * read one column of K for consecutive rows), V Bc·d, S Br·Bc, O accumulator Br·d, m, l, alpha. */
static size_t tiled_fp32_floats(long long br, long long bc, long long d) {
    return (size_t)(br * d + bc * (d + 1) + bc * d + br * bc + br * d + 3 * br);
}

size_t rlk_cuda_tiled_fp32_smem(const rlk_shape *s) {
    return tiled_fp32_floats(s->block_m, s->block_n, s->head_dim) * sizeof(float);
}

__global__ void __launch_bounds__(RLK_TILED_THREADS)
    rlk_tiled_fp32_kernel(const float *__restrict__ q, const float *__restrict__ k,
                          const float *__restrict__ v, float *__restrict__ o, int H, int group,
                          long long N, long long L, int d, int br, int bc, int causal,
                          float scale_log2) {
    extern __shared__ __align__(16) float sm[];
    float *Qs = sm;                        /* br × d */
    float *Ks = Qs + br * d;               /* bc × (d+1) */
    float *Vs = Ks + bc * (d + 1);         /* bc × d */
    float *Ss = Vs + bc * d;               /* br × bc */
    float *Os = Ss + br * bc;              /* br × d */
    float *Ms = Os + br * d;               /* br */
    float *Ls = Ms + br;                   /* br */
    float *As = Ls + br;                   /* br: alpha of the current tile */
    const int ldk = d + 1;

    /* Heaviest query blocks first (causal: the last blocks see the most keys). */
    const long long qb = (long long)gridDim.x - 1 - blockIdx.x;
    const long long bh = blockIdx.y;
    const long long b = bh / H, h = bh % H;
    const long long kvh = rlk_kv_head(b, h, H / group, group);
    const float *qh = q + bh * N * d;
    const float *kh = k + kvh * L * d;
    const float *vh = v + kvh * L * d;
    float *oh = o + bh * N * d;
    const long long i0 = qb * br;
    const int tid = threadIdx.x, nth = blockDim.x;
    const int warp = tid / 32, lane = tid % 32, nwarps = nth / 32;

    for (int x = tid; x < br * d; x += nth) {
        int r = x / d, c = x % d;
        Qs[x] = (i0 + r < N) ? qh[(i0 + r) * d + c] : 0.0f;
        Os[x] = 0.0f;
    }
    for (int r = tid; r < br; r += nth) {
        Ms[r] = -CUDART_INF_F;
        Ls[r] = 0.0f;
    }
    long long last = i0 + br < N ? i0 + br : N; /* one past the block's last row */
    long long keys = causal ? rlk_visible(last - 1, N, L, 1) : L;
    long long tiles = (keys + bc - 1) / bc;

    for (long long t = 0; t < tiles; t++) {
        const long long j0 = t * bc;
        __syncthreads(); /* previous tile's readers of Ks/Vs/Ss are done */
        for (int x = tid; x < bc * d; x += nth) {
            int r = x / d, c = x % d;
            bool in = j0 + r < L;
            Ks[r * ldk + c] = in ? kh[(j0 + r) * d + c] : 0.0f;
            Vs[x] = in ? vh[(j0 + r) * d + c] : 0.0f;
        }
        __syncthreads();
        /* S tile (log2 domain), masked entries −∞. */
        for (int x = tid; x < br * bc; x += nth) {
            int r = x / bc, c = x % bc;
            long long i = i0 + r, j = j0 + c;
            float acc = 0.0f;
            const float *qr = Qs + r * d;
            const float *kr = Ks + c * ldk;
            for (int e = 0; e < d; e++) acc = fmaf(qr[e], kr[e], acc);
            bool masked = j >= L || (causal && j > i + L - N);
            Ss[x] = masked ? -CUDART_INF_F : acc * scale_log2;
        }
        __syncthreads();
        /* Online softmax, one warp per row. */
        for (int r = warp; r < br; r += nwarps) {
            float *sr = Ss + r * bc;
            float mx = -CUDART_INF_F;
            for (int c = lane; c < bc; c += 32) mx = fmaxf(mx, sr[c]);
            mx = rlk_warp_max(mx);
            const float m_old = Ms[r];
            const float m_new = fmaxf(m_old, mx);
            const float m_use = m_new == -CUDART_INF_F ? 0.0f : m_new;
            float sum = 0.0f;
            for (int c = lane; c < bc; c += 32) {
                float p = exp2f(sr[c] - m_use); /* exp2(−∞) = 0 */
                sr[c] = p;
                sum += p;
            }
            sum = rlk_warp_sum(sum);
            if (lane == 0) {
                const float alpha = exp2f(m_old - m_use); /* 0 when m_old = −∞ */
                As[r] = alpha;
                Ls[r] = Ls[r] * alpha + sum;
                Ms[r] = m_new;
            }
        }
        __syncthreads();
        /* O = alpha·O + P·V */
        for (int x = tid; x < br * d; x += nth) {
            int r = x / d, c = x % d;
            const float *pr = Ss + r * bc;
            float acc = Os[x] * As[r];
            for (int j = 0; j < bc; j++) acc = fmaf(pr[j], Vs[j * d + c], acc);
            Os[x] = acc;
        }
    }
    __syncthreads();
    for (int x = tid; x < br * d; x += nth) {
        int r = x / d, c = x % d;
        if (i0 + r < N) oh[(i0 + r) * d + c] = Os[x] / Ls[r];
    }
}

cudaError_t rlk_cuda_tiled_fp32(const rlk_shape *s, const float *q, const float *k, const float *v,
                                float *o, cudaStream_t st) {
    if (rlk_shape_check(s) != 0 || s->head_dim > RLK_TILED_MAX_D || s->block_m > 1024 ||
        s->block_n > 1024 || s->batch * s->heads > 65535)
        return cudaErrorInvalidValue;
    const size_t smem = rlk_cuda_tiled_fp32_smem(s);
    cudaError_t e = cudaFuncSetAttribute(rlk_tiled_fp32_kernel,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return e;
    const long long qblocks = (s->seq + s->block_m - 1) / s->block_m;
    if (qblocks > 0x7fffffffLL) return cudaErrorInvalidValue;
    dim3 grid((unsigned)qblocks, (unsigned)(s->batch * s->heads));
    const float scale_log2 = s->scale * RLK_LOG2E;
    rlk_tiled_fp32_kernel<<<grid, RLK_TILED_THREADS, smem, st>>>(
        q, k, v, o, (int)s->heads, (int)(s->heads / s->kv_heads), s->seq, s->kv_len,
        (int)s->head_dim, (int)s->block_m, (int)s->block_n, s->causal, scale_log2);
    return cudaGetLastError();
}

/* ================================ fp16 / bf16, tensor cores =================================== */

namespace wmma = nvcuda::wmma;

#define RLK_TC_BR 64 /* 4 warps × 16 query rows */
#define RLK_TC_THREADS 128

template <int D> struct tc_tile;
template <> struct tc_tile<64> { static constexpr int BC = 64; };
template <> struct tc_tile<128> { static constexpr int BC = 32; };

/* Shared-memory layout of the tensor-core kernel (bytes; every region 32-byte aligned, rows padded
 * so WMMA's ldm rules hold and rows do not all start in the same bank). */
template <int D, int BC> struct tc_layout {
    static constexpr int LDQ = D + 8;   /* elements of T */
    static constexpr int LDK = D + 8;
    static constexpr int LDV = D + 8;
    static constexpr int LDS = BC + 4;  /* floats */
    static constexpr int LDP = BC + 8;  /* elements of T */
    static constexpr int LDO = D + 4;   /* floats */
    static constexpr size_t Q_OFF = 0;
    static constexpr size_t K_OFF = Q_OFF + (size_t)RLK_TC_BR * LDQ * 2;
    static constexpr size_t V_OFF = K_OFF + (size_t)BC * LDK * 2;
    static constexpr size_t S_OFF = V_OFF + (size_t)BC * LDV * 2;
    static constexpr size_t P_OFF = S_OFF + (size_t)RLK_TC_BR * LDS * 4;
    static constexpr size_t O_OFF = P_OFF + (size_t)RLK_TC_BR * LDP * 2;
    static constexpr size_t M_OFF = O_OFF + (size_t)RLK_TC_BR * LDO * 4;
    static constexpr size_t L_OFF = M_OFF + (size_t)RLK_TC_BR * 4;
    static constexpr size_t BYTES = L_OFF + (size_t)RLK_TC_BR * 4;
    static_assert(K_OFF % 32 == 0 && V_OFF % 32 == 0 && S_OFF % 32 == 0 && P_OFF % 32 == 0 &&
                      O_OFF % 32 == 0 && M_OFF % 32 == 0,
                  "WMMA needs 32-byte aligned tiles");
};

/* Copy `rows` rows of D elements (row stride D in global) into smem rows of stride LD, 16 bytes
 * per access; rows past `valid` are zero (so masked keys never meet garbage V: 0·NaN = NaN). */
template <typename T, int D, int LD>
__device__ __forceinline__ void tc_load_rows(T *dst, const T *src, int rows, long long valid) {
    constexpr int VPR = D * (int)sizeof(T) / 16; /* 16-byte vectors per row */
    for (int x = threadIdx.x; x < rows * VPR; x += blockDim.x) {
        int r = x / VPR, c = (x % VPR) * (16 / (int)sizeof(T));
        uint4 val = make_uint4(0, 0, 0, 0);
        if (r < valid) val = *reinterpret_cast<const uint4 *>(src + (long long)r * D + c);
        *reinterpret_cast<uint4 *>(dst + r * LD + c) = val;
    }
}

template <typename T, int D>
__global__ void __launch_bounds__(RLK_TC_THREADS)
    rlk_tiled_tc_kernel(const T *__restrict__ q, const T *__restrict__ k, const T *__restrict__ v,
                        T *__restrict__ o, int H, int group, long long N, long long L, int causal,
                        float scale_log2) {
    constexpr int BC = tc_tile<D>::BC;
    using LY = tc_layout<D, BC>;
    extern __shared__ __align__(128) unsigned char smem[];
    T *Qs = reinterpret_cast<T *>(smem + LY::Q_OFF);
    T *Ks = reinterpret_cast<T *>(smem + LY::K_OFF);
    T *Vs = reinterpret_cast<T *>(smem + LY::V_OFF);
    float *Ss = reinterpret_cast<float *>(smem + LY::S_OFF);
    T *Ps = reinterpret_cast<T *>(smem + LY::P_OFF);
    float *Os = reinterpret_cast<float *>(smem + LY::O_OFF);
    float *Ms = reinterpret_cast<float *>(smem + LY::M_OFF);
    float *Ls = reinterpret_cast<float *>(smem + LY::L_OFF);

    const long long qb = (long long)gridDim.x - 1 - blockIdx.x; /* heaviest first */
    const long long bh = blockIdx.y;
    const long long b = bh / H, h = bh % H;
    const long long kvh = rlk_kv_head(b, h, H / group, group);
    const T *qh = q + bh * N * D;
    const T *kh = k + kvh * L * D;
    const T *vh = v + kvh * L * D;
    T *oh = o + bh * N * D;
    const long long i0 = qb * RLK_TC_BR;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int r0 = warp * 16; /* this warp's 16 rows of the block */

    tc_load_rows<T, D, LY::LDQ>(Qs, qh + i0 * D, RLK_TC_BR, N - i0);
    for (int x = threadIdx.x; x < RLK_TC_BR * LY::LDO; x += blockDim.x) Os[x] = 0.0f;
    for (int x = threadIdx.x; x < RLK_TC_BR; x += blockDim.x) {
        Ms[x] = -CUDART_INF_F;
        Ls[x] = 0.0f;
    }
    const long long last = i0 + RLK_TC_BR < N ? i0 + RLK_TC_BR : N;
    const long long keys = causal ? rlk_visible(last - 1, N, L, 1) : L;
    const long long tiles = (keys + BC - 1) / BC;

    /* Softmax work split: two lanes per row, each half of the tile's columns. */
    const int srow = r0 + lane / 2;
    const int half = lane % 2;
    const long long gi = i0 + srow; /* global query row */

    for (long long t = 0; t < tiles; t++) {
        const long long j0 = t * BC;
        __syncthreads(); /* all warps are done with the previous Ks/Vs; Q and init visible */
        tc_load_rows<T, D, LY::LDK>(Ks, kh + j0 * D, BC, L - j0);
        tc_load_rows<T, D, LY::LDV>(Vs, vh + j0 * D, BC, L - j0);
        __syncthreads();

        /* S (16 × BC per warp) = Q Kᵀ */
        {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> sf[BC / 16];
#pragma unroll
            for (int n = 0; n < BC / 16; n++) wmma::fill_fragment(sf[n], 0.0f);
#pragma unroll
            for (int kk = 0; kk < D; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> af;
                wmma::load_matrix_sync(af, Qs + r0 * LY::LDQ + kk, LY::LDQ);
#pragma unroll
                for (int n = 0; n < BC / 16; n++) {
                    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> bf;
                    wmma::load_matrix_sync(bf, Ks + n * 16 * LY::LDK + kk, LY::LDK);
                    wmma::mma_sync(sf[n], af, bf, sf[n]);
                }
            }
#pragma unroll
            for (int n = 0; n < BC / 16; n++)
                wmma::store_matrix_sync(Ss + r0 * LY::LDS + n * 16, sf[n], LY::LDS,
                                        wmma::mem_row_major);
        }
        __syncwarp();

        /* Online softmax of this warp's rows; P to Ps (T), O rows rescaled by alpha. */
        {
            constexpr int HALF = BC / 2;
            const float *sr = Ss + srow * LY::LDS + half * HALF;
            float x[HALF];
            float mx = -CUDART_INF_F;
#pragma unroll
            for (int c = 0; c < HALF; c++) {
                long long j = j0 + half * HALF + c;
                bool masked = j >= L || (causal && j > gi + L - N);
                x[c] = masked ? -CUDART_INF_F : sr[c] * scale_log2;
                mx = fmaxf(mx, x[c]);
            }
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            const float m_old = Ms[srow];
            const float m_new = fmaxf(m_old, mx);
            const float m_use = m_new == -CUDART_INF_F ? 0.0f : m_new;
            float sum = 0.0f;
            T *pr = Ps + srow * LY::LDP + half * HALF;
#pragma unroll
            for (int c = 0; c < HALF; c++) {
                float p = exp2f(x[c] - m_use);
                T pt = rlk_from_f<T>(p);
                pr[c] = pt;
                sum += rlk_to_f<T>(pt); /* l sums the P that is multiplied, as rounded */
            }
            sum += __shfl_xor_sync(0xffffffffu, sum, 1);
            const float alpha = exp2f(m_old - m_use);
            float *orow = Os + srow * LY::LDO + half * (D / 2);
#pragma unroll 8
            for (int c = 0; c < D / 2; c++) orow[c] *= alpha;
            __syncwarp(); /* both lanes of a row read Ms/Ls before one writes them */
            if (half == 0) {
                Ls[srow] = Ls[srow] * alpha + sum;
                Ms[srow] = m_new;
            }
        }
        __syncwarp();

        /* O (16 × D per warp) += P V */
#pragma unroll
        for (int n = 0; n < D / 16; n++) {
            wmma::fragment<wmma::accumulator, 16, 16, 16, float> of;
            wmma::load_matrix_sync(of, Os + r0 * LY::LDO + n * 16, LY::LDO, wmma::mem_row_major);
#pragma unroll
            for (int kk = 0; kk < BC; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> pf;
                wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> vf;
                wmma::load_matrix_sync(pf, Ps + r0 * LY::LDP + kk, LY::LDP);
                wmma::load_matrix_sync(vf, Vs + kk * LY::LDV + n * 16, LY::LDV);
                wmma::mma_sync(of, pf, vf, of);
            }
            wmma::store_matrix_sync(Os + r0 * LY::LDO + n * 16, of, LY::LDO, wmma::mem_row_major);
        }
        __syncwarp();
    }
    __syncwarp();
    /* Write this warp's rows: O / l, two lanes per row. */
    if (gi < N) {
        const float inv = 1.0f / Ls[srow];
        const float *orow = Os + srow * LY::LDO + half * (D / 2);
        T *dst = oh + gi * D + half * (D / 2);
        for (int c = 0; c < D / 2; c += 8) {
            T buf[8];
#pragma unroll
            for (int e = 0; e < 8; e++) buf[e] = rlk_from_f<T>(orow[c + e] * inv);
            *reinterpret_cast<uint4 *>(dst + c) = *reinterpret_cast<const uint4 *>(buf);
        }
    }
}

int rlk_cuda_tiled_tc_tile(int64_t d, int64_t *br, int64_t *bc) {
    if (d == 64 || d == 128) {
        if (br) *br = RLK_TC_BR;
        if (bc) *bc = d == 64 ? tc_tile<64>::BC : tc_tile<128>::BC;
        return 1;
    }
    return 0;
}

size_t rlk_cuda_tiled_tc_smem(int64_t d) {
    if (d == 64) return tc_layout<64, tc_tile<64>::BC>::BYTES;
    if (d == 128) return tc_layout<128, tc_tile<128>::BC>::BYTES;
    return 0;
}

template <typename T, int D>
static cudaError_t tc_launch(const rlk_shape *s, const void *q, const void *k, const void *v,
                             void *o, cudaStream_t st) {
    constexpr size_t smem = tc_layout<D, tc_tile<D>::BC>::BYTES;
    cudaError_t e = cudaFuncSetAttribute(rlk_tiled_tc_kernel<T, D>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return e;
    const long long qblocks = (s->seq + RLK_TC_BR - 1) / RLK_TC_BR;
    dim3 grid((unsigned)qblocks, (unsigned)(s->batch * s->heads));
    rlk_tiled_tc_kernel<T, D><<<grid, RLK_TC_THREADS, smem, st>>>(
        (const T *)q, (const T *)k, (const T *)v, (T *)o, (int)s->heads,
        (int)(s->heads / s->kv_heads), s->seq, s->kv_len, s->causal, s->scale * RLK_LOG2E);
    return cudaGetLastError();
}

/* Shape check and (dtype, d) dispatch shared by the two tensor-core kernels; Launch is a struct
 * whose static template run<T, D> launches one of them. */
template <class Launch>
static cudaError_t tc_dispatch(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                               const void *v, void *o, cudaStream_t st) {
    if (rlk_shape_check(s) != 0 || (s->head_dim != 64 && s->head_dim != 128) ||
        s->batch * s->heads > 65535 || (s->seq + RLK_TC_BR - 1) / RLK_TC_BR > 0x7fffffffLL)
        return cudaErrorInvalidValue;
    if (t == RLK_F16)
        return s->head_dim == 64 ? Launch::template run<__half, 64>(s, q, k, v, o, st)
                                 : Launch::template run<__half, 128>(s, q, k, v, o, st);
    if (t == RLK_BF16)
        return s->head_dim == 64 ? Launch::template run<__nv_bfloat16, 64>(s, q, k, v, o, st)
                                 : Launch::template run<__nv_bfloat16, 128>(s, q, k, v, o, st);
    return cudaErrorInvalidValue;
}

struct tc_launcher {
    template <typename T, int D>
    static cudaError_t run(const rlk_shape *s, const void *q, const void *k, const void *v, void *o,
                           cudaStream_t st) {
        return tc_launch<T, D>(s, q, k, v, o, st);
    }
};

cudaError_t rlk_cuda_tiled_tc(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                              const void *v, void *o, cudaStream_t st) {
    return tc_dispatch<tc_launcher>(s, t, q, k, v, o, st);
}

/* ======================= fp16 / bf16, tensor cores, registers (mma.sync) ======================= */
/*
 * The FlashAttention-2 arrangement: each warp keeps its 16 query rows' Q fragments, scores, running
 * max/sum and O accumulator in registers; only K and V tiles go through shared memory. Tensor-core
 * instruction mma.sync.m16n8k16 (fp32 accumulate), whose fragment layouts the PTX ISA documents
 * ("Matrix Fragments for mma.m16n8k16"): with g = lane / 4 and t = lane % 4,
 *   A (16×16, row):  a0,a1 = (g, 2t..2t+1)   a2,a3 = (g+8, 2t..)   a4,a5 = (g, 2t+8..)   a6,a7 = (g+8, 2t+8..)
 *   B (16×8, col):   b0,b1 = (k 2t..2t+1, n g)   b2,b3 = (k 2t+8.., n g)
 *   C (16×8, f32):   c0,c1 = (g, 2t..2t+1)   c2,c3 = (g+8, 2t..2t+1)
 * so two score blocks of 8 keys (C) are exactly one P operand of 16 keys (A). K is kept as rows
 * (B = Kᵀ reads two consecutive halves of a K row); V is stored transposed in shared memory so
 * that B = V reads two consecutive halves too. Br = 64 (4 warps), Bc = 64, d = 64 or 128.
 */

#define RLK_MMA_BC 64

template <typename T> struct mma_op;
template <> struct mma_op<__half> {
    static __device__ __forceinline__ void run(float (&d)[4], const uint32_t (&a)[4],
                                               uint32_t b0, uint32_t b1) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
    static __device__ __forceinline__ uint32_t pack(float lo, float hi, float &lo_r, float &hi_r) {
        __half2 h = __floats2half2_rn(lo, hi);
        lo_r = __low2float(h);
        hi_r = __high2float(h);
        return *reinterpret_cast<uint32_t *>(&h);
    }
};
template <> struct mma_op<__nv_bfloat16> {
    static __device__ __forceinline__ void run(float (&d)[4], const uint32_t (&a)[4],
                                               uint32_t b0, uint32_t b1) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
    static __device__ __forceinline__ uint32_t pack(float lo, float hi, float &lo_r, float &hi_r) {
        __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
        lo_r = __low2float(h);
        hi_r = __high2float(h);
        return *reinterpret_cast<uint32_t *>(&h);
    }
};

template <typename T> __device__ __forceinline__ uint32_t ld32(const T *p) {
    return *reinterpret_cast<const uint32_t *>(p);
}

template <int D> struct mma_layout {
    static constexpr int LDQ = D + 8;          /* halves */
    static constexpr int LDK = D + 8;
    static constexpr int LDV = RLK_MMA_BC + 8; /* V transposed: D rows of Bc keys */
    static constexpr size_t Q_OFF = 0;
    static constexpr size_t K_OFF = Q_OFF + (size_t)RLK_TC_BR * LDQ * 2;
    static constexpr size_t V_OFF = K_OFF + (size_t)RLK_MMA_BC * LDK * 2;
    static constexpr size_t BYTES = V_OFF + (size_t)D * LDV * 2;
};

template <typename T, int D>
__global__ void __launch_bounds__(RLK_TC_THREADS)
    rlk_tiled_mma_kernel(const T *__restrict__ q, const T *__restrict__ k, const T *__restrict__ v,
                         T *__restrict__ o, int H, int group, long long N, long long L, int causal,
                         float scale_log2) {
    constexpr int BC = RLK_MMA_BC;
    using LY = mma_layout<D>;
    using OP = mma_op<T>;
    extern __shared__ __align__(128) unsigned char smem_mma[];
    T *Qs = reinterpret_cast<T *>(smem_mma + LY::Q_OFF);
    T *Ks = reinterpret_cast<T *>(smem_mma + LY::K_OFF);
    T *Vt = reinterpret_cast<T *>(smem_mma + LY::V_OFF);

    const long long qb = (long long)gridDim.x - 1 - blockIdx.x; /* heaviest first */
    const long long bh = blockIdx.y;
    const long long b = bh / H, h = bh % H;
    const long long kvh = rlk_kv_head(b, h, H / group, group);
    const T *qh = q + bh * N * D;
    const T *kh = k + kvh * L * D;
    const T *vh = v + kvh * L * D;
    T *oh = o + bh * N * D;
    const long long i0 = qb * RLK_TC_BR;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int g = lane / 4, t4 = lane % 4;
    const int r0 = warp * 16;
    const long long gi0 = i0 + r0 + g, gi1 = gi0 + 8; /* this thread's two query rows */

    tc_load_rows<T, D, LY::LDQ>(Qs, qh + i0 * D, RLK_TC_BR, N - i0);
    __syncthreads();
    uint32_t qa[D / 16][4];
#pragma unroll
    for (int c = 0; c < D / 16; c++) {
        const T *base = Qs + (r0 + g) * LY::LDQ + c * 16 + 2 * t4;
        qa[c][0] = ld32(base);
        qa[c][1] = ld32(base + 8 * LY::LDQ);
        qa[c][2] = ld32(base + 8);
        qa[c][3] = ld32(base + 8 * LY::LDQ + 8);
    }
    float oacc[D / 8][4];
#pragma unroll
    for (int n = 0; n < D / 8; n++) oacc[n][0] = oacc[n][1] = oacc[n][2] = oacc[n][3] = 0.0f;
    float m[2] = {-CUDART_INF_F, -CUDART_INF_F}, l[2] = {0.0f, 0.0f};

    const long long last = i0 + RLK_TC_BR < N ? i0 + RLK_TC_BR : N;
    const long long keys = causal ? rlk_visible(last - 1, N, L, 1) : L;
    const long long tiles = (keys + BC - 1) / BC;
    constexpr int VPR = D * (int)sizeof(T) / 16;

    for (long long tt = 0; tt < tiles; tt++) {
        const long long j0 = tt * BC;
        __syncthreads(); /* every warp is done with the previous K and V tiles */
        tc_load_rows<T, D, LY::LDK>(Ks, kh + j0 * D, BC, L - j0);
        for (int x = threadIdx.x; x < BC * VPR; x += blockDim.x) {
            const int r = x / VPR, c = (x % VPR) * 8;
            uint4 val = make_uint4(0, 0, 0, 0);
            if (j0 + r < L) val = *reinterpret_cast<const uint4 *>(vh + (j0 + r) * D + c);
            const T *e = reinterpret_cast<const T *>(&val);
#pragma unroll
            for (int u = 0; u < 8; u++) Vt[(c + u) * LY::LDV + r] = e[u];
        }
        __syncthreads();

        float s[BC / 8][4];
#pragma unroll
        for (int n = 0; n < BC / 8; n++) {
            s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0f;
            const T *kb = Ks + (n * 8 + g) * LY::LDK + 2 * t4;
#pragma unroll
            for (int c = 0; c < D / 16; c++) OP::run(s[n], qa[c], ld32(kb + c * 16), ld32(kb + c * 16 + 8));
        }
        float mx[2] = {-CUDART_INF_F, -CUDART_INF_F};
#pragma unroll
        for (int n = 0; n < BC / 8; n++)
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int hi = i >> 1;
                const long long j = j0 + n * 8 + 2 * t4 + (i & 1);
                const long long gi = hi ? gi1 : gi0;
                const bool masked = j >= L || (causal && j > gi + L - N);
                s[n][i] = masked ? -CUDART_INF_F : s[n][i] * scale_log2;
                mx[hi] = fmaxf(mx[hi], s[n][i]);
            }
        float mu[2], alpha[2];
#pragma unroll
        for (int r = 0; r < 2; r++) {
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 1));
            mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], 2));
            const float mn = fmaxf(m[r], mx[r]);
            mu[r] = mn == -CUDART_INF_F ? 0.0f : mn;
            alpha[r] = exp2f(m[r] - mu[r]); /* 0 on the first tile */
            m[r] = mn;
            l[r] *= alpha[r];
        }
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            oacc[n][0] *= alpha[0];
            oacc[n][1] *= alpha[0];
            oacc[n][2] *= alpha[1];
            oacc[n][3] *= alpha[1];
        }
#pragma unroll
        for (int c = 0; c < BC / 16; c++) {
            uint32_t pa[4];
            float r0a, r0b, r1a, r1b, r2a, r2b, r3a, r3b;
            pa[0] = OP::pack(exp2f(s[2 * c][0] - mu[0]), exp2f(s[2 * c][1] - mu[0]), r0a, r0b);
            pa[1] = OP::pack(exp2f(s[2 * c][2] - mu[1]), exp2f(s[2 * c][3] - mu[1]), r1a, r1b);
            pa[2] = OP::pack(exp2f(s[2 * c + 1][0] - mu[0]), exp2f(s[2 * c + 1][1] - mu[0]), r2a, r2b);
            pa[3] = OP::pack(exp2f(s[2 * c + 1][2] - mu[1]), exp2f(s[2 * c + 1][3] - mu[1]), r3a, r3b);
            l[0] += r0a + r0b + r2a + r2b; /* the P that is multiplied, as rounded */
            l[1] += r1a + r1b + r3a + r3b;
#pragma unroll
            for (int n = 0; n < D / 8; n++) {
                const T *vb = Vt + (n * 8 + g) * LY::LDV + c * 16 + 2 * t4;
                OP::run(oacc[n], pa, ld32(vb), ld32(vb + 8));
            }
        }
    }
    /* Each row's sum is spread over the 4 lanes that share g. */
#pragma unroll
    for (int r = 0; r < 2; r++) {
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 1);
        l[r] += __shfl_xor_sync(0xffffffffu, l[r], 2);
    }
    const float inv0 = 1.0f / l[0], inv1 = 1.0f / l[1];
#pragma unroll
    for (int n = 0; n < D / 8; n++) {
        const int col = n * 8 + 2 * t4;
        float a, bb;
        if (gi0 < N)
            *reinterpret_cast<uint32_t *>(oh + gi0 * D + col) =
                OP::pack(oacc[n][0] * inv0, oacc[n][1] * inv0, a, bb);
        if (gi1 < N)
            *reinterpret_cast<uint32_t *>(oh + gi1 * D + col) =
                OP::pack(oacc[n][2] * inv1, oacc[n][3] * inv1, a, bb);
    }
}

size_t rlk_cuda_tiled_mma_smem(int64_t d) {
    if (d == 64) return mma_layout<64>::BYTES;
    if (d == 128) return mma_layout<128>::BYTES;
    return 0;
}

template <typename T, int D>
static cudaError_t mma_launch(const rlk_shape *s, const void *q, const void *k, const void *v,
                              void *o, cudaStream_t st) {
    constexpr size_t smem = mma_layout<D>::BYTES;
    cudaError_t e = cudaFuncSetAttribute(rlk_tiled_mma_kernel<T, D>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return e;
    const long long qblocks = (s->seq + RLK_TC_BR - 1) / RLK_TC_BR;
    dim3 grid((unsigned)qblocks, (unsigned)(s->batch * s->heads));
    rlk_tiled_mma_kernel<T, D><<<grid, RLK_TC_THREADS, smem, st>>>(
        (const T *)q, (const T *)k, (const T *)v, (T *)o, (int)s->heads,
        (int)(s->heads / s->kv_heads), s->seq, s->kv_len, s->causal, s->scale * RLK_LOG2E);
    return cudaGetLastError();
}

struct mma_launcher {
    template <typename T, int D>
    static cudaError_t run(const rlk_shape *s, const void *q, const void *k, const void *v, void *o,
                           cudaStream_t st) {
        return mma_launch<T, D>(s, q, k, v, o, st);
    }
};

cudaError_t rlk_cuda_tiled_mma(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                               const void *v, void *o, cudaStream_t st) {
    return tc_dispatch<mma_launcher>(s, t, q, k, v, o, st);
}
