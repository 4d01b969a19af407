/* common.cuh — small device helpers shared by the kernels (private to kernels/cuda). */
#ifndef ROOFLAB_CUDA_COMMON_CUH
#define ROOFLAB_CUDA_COMMON_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math_constants.h>

#define RLK_LOG2E 1.4426950408889634f

template <typename T> __device__ __forceinline__ float rlk_to_f(T x);
template <> __device__ __forceinline__ float rlk_to_f<float>(float x) { return x; }
template <> __device__ __forceinline__ float rlk_to_f<__half>(__half x) { return __half2float(x); }
template <> __device__ __forceinline__ float rlk_to_f<__nv_bfloat16>(__nv_bfloat16 x) {
    return __bfloat162float(x);
}

template <typename T> __device__ __forceinline__ T rlk_from_f(float x);
template <> __device__ __forceinline__ float rlk_from_f<float>(float x) { return x; }
template <> __device__ __forceinline__ __half rlk_from_f<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 rlk_from_f<__nv_bfloat16>(float x) {
    return __float2bfloat16_rn(x);
}

__device__ __forceinline__ float rlk_warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float rlk_warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Number of keys query row i may see (causal: 0 … i + L − N), clamped to [0, L]. */
__device__ __forceinline__ long long rlk_visible(long long i, long long N, long long L, int causal) {
    if (!causal) return L;
    long long n = i + L - N + 1;
    return n < 0 ? 0 : (n < L ? n : L);
}

#endif
