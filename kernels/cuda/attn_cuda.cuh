/*
 * attn_cuda.cuh — attention forward kernels in CUDA C, one per traffic model of core
 * (DESIGN.md "The model"). Host launchers; every one returns a cudaError_t (cudaSuccess, the
 * launch error, or cudaErrorInvalidValue for a shape it does not support) and never syncs.
 *
 * Layout (row-major): Q and O are [B][H][N][d], K and V are [B][Hkv][L][d]. Query head h reads
 * key/value head h / (H / Hkv) (rlk_kv_head, ../attn_shape.h). Causal aligns the last query with
 * the last key: query row i sees keys 0 … i + L − N.
 *
 *   naive          `naive` model: S = scale·Q·Kᵀ (cuBLAS, batched per KV head: the G = H/Hkv query
 *                  heads of a group are one (G·N)×d matrix), written to device memory in the
 *                  score dtype (= the input dtype); a softmax kernel reads S and writes P (masked
 *                  entries 0: the full matrix is stored, causal or not); O = P·V (cuBLAS).
 *                  fp32, fp16, bf16 (fp32 accumulation).
 *   tiled_fp32     `tiled` model, fp32 on CUDA cores: one thread block per (query block of Br
 *                  rows, batch·head); K/V streamed in tiles of Bc rows (causal: only the tiles the
 *                  block needs); Q tile, K and V tiles, the Br×Bc score tile, the Br×d fp32 output
 *                  accumulator and m, l in shared memory (the SRAM budget of core, plus one float
 *                  of padding per K row against bank conflicts). Br, Bc configurable, d ≤ 256.
 *   tiled_tc       `tiled` model on tensor cores (WMMA 16×16×16, fp32 accumulation): fp16 or bf16,
 *                  d = 64 (Br = Bc = 64) or d = 128 (Br = 64, Bc = 32), causal or not.
 *   tiled_mma      the same on tensor cores with mma.sync and everything but the K/V tiles in
 *                  registers (FlashAttention-2's arrangement); Br = Bc = 64, d = 64 or 128.
 *   decode         N = 1 against a KV cache: split-KV (the L keys of a sequence are divided among
 *                  `splits` thread blocks, each writing a partial (m, l, o)) and a reduction
 *                  kernel. A block serves the G query heads of a KV group at once (G = H/Hkv when
 *                  it is 1, 2, 4 or 8), so K and V are read once per KV head: the `compulsory`
 *                  model; other groupings run one query head per block (the `tiled` model with
 *                  N = 1). fp32, fp16, bf16; d = 64 or 128.
 */
#ifndef ROOFLAB_ATTN_CUDA_CUH
#define ROOFLAB_ATTN_CUDA_CUH

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "attn_shape.h" /* rlk_shape, rlk_shape_check, rlk_kv_head */

typedef enum { RLK_F32 = 0, RLK_F16 = 1, RLK_BF16 = 2 } rlk_dtype;

size_t rlk_dtype_size(rlk_dtype t);

/* Fill n elements of dtype t with values uniform in [-√3, √3) (unit variance) from a counter-based
 * hash of (seed, index): a fresh seed gives fresh inputs, the same seed the same ones. */
cudaError_t rlk_cuda_fill_uniform(void *p, rlk_dtype t, size_t n, uint64_t seed, cudaStream_t st);
/* Poison: every byte 0xFF (NaN in fp32, fp16 and bf16). */
cudaError_t rlk_cuda_poison(void *p, size_t bytes, cudaStream_t st);

/* naive: S and P must each hold B·H·N·L elements of dtype t. cuBLAS errors come back as
 * cudaErrorUnknown with *cublas_status set (may be NULL). */
cudaError_t rlk_cuda_naive(cublasHandle_t h, const rlk_shape *s, rlk_dtype t, const void *q,
                           const void *k, const void *v, void *o, void *S, void *P,
                           cudaStream_t st, cublasStatus_t *cublas_status);

/* Dynamic shared memory the fp32 tiled kernel needs for a shape (bytes). */
size_t rlk_cuda_tiled_fp32_smem(const rlk_shape *s);
cudaError_t rlk_cuda_tiled_fp32(const rlk_shape *s, const float *q, const float *k, const float *v,
                                float *o, cudaStream_t st);

/* Tile the tensor-core kernel uses for head dim d (Br, Bc), and its shared memory. 0 when d is
 * not supported. */
int rlk_cuda_tiled_tc_tile(int64_t d, int64_t *br, int64_t *bc);
size_t rlk_cuda_tiled_tc_smem(int64_t d);
cudaError_t rlk_cuda_tiled_tc(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                              const void *v, void *o, cudaStream_t st);

/* tiled_mma: the same dataflow as tiled_tc with the FlashAttention-2 register arrangement
 * (mma.sync.m16n8k16: scores, softmax state and O in registers; K and Vᵀ tiles in shared memory).
 * Br = 64, Bc = 64, d = 64 or 128, fp16 or bf16. */
#define RLK_CUDA_MMA_BR 64
#define RLK_CUDA_MMA_BC 64
size_t rlk_cuda_tiled_mma_smem(int64_t d);
cudaError_t rlk_cuda_tiled_mma(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                               const void *v, void *o, cudaStream_t st);

/* decode: N must be 1. Query heads per block (G) and the model it follows: returns G; *fused is 1
 * when G = H/Hkv (K/V read once per KV head). */
int rlk_cuda_decode_group(const rlk_shape *s, int *fused);
/* Splits for a shape on a device with `sm_count` SMs, and the workspace they need (bytes). */
int rlk_cuda_decode_splits(const rlk_shape *s, int sm_count);
size_t rlk_cuda_decode_workspace(const rlk_shape *s, int splits);
cudaError_t rlk_cuda_decode(const rlk_shape *s, rlk_dtype t, const void *q, const void *k,
                            const void *v, void *o, void *workspace, int splits, cudaStream_t st);

#endif /* ROOFLAB_ATTN_CUDA_CUH */
