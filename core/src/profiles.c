/* profiles.c — kernel profiles: how a real kernel runs attention (its tile per head dim and dtype,
 * CTAs per SM, scheduling, GQA packing, split-KV rule, exp and MMA behaviour, fixed floor).
 * Constants come from the kernels' public launch templates and papers, cited per profile; the
 * few fitted constants say which published point they were fitted on (MODEL.md "Fitted constants").
 */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "profiles.h"

/* Fitted constants. Each was fitted on ONE published point of the fit set (data/published/,
 * "set": "fit"; κ excepted, see below) by scripts/fit-constants.py (bisection, in this order,
 * twice); every held-out point is a prediction (`rooflab check-model`).
 *
 * RL_FIT_OVERLAP_P — the exponent of the memory/compute overlap t = (c^p + m^p)^(1/p): p → ∞ is
 *   perfect overlap (max), p = 1 none (sum). Fitted on FA3, H100 SXM, fp16, d = 128, B = 32,
 *   H = 16, N = L = 512, non-causal: 467 TFLOP/s (FA3 paper, Fig. 5(c)).
 * RL_FIT_MMA_SYNC_SM90 — the fraction of Hopper's dense (wgmma) tensor peak that mma.sync
 *   (the Ampere instruction FA2 uses) reaches. Fitted on FA2 v2.5.8, H100 SXM, fp16, d = 128,
 *   B = 1, H = 16, N = L = 16384, non-causal: 370 TFLOP/s (FA3 paper, Fig. 5(c)).
 * RL_FIT_BWD_MMA_FA3 / _FA2 — the backward MMA rate as a fraction of the dense peak (five GEMMs,
 *   dQ atomics, more shared-memory traffic per FLOP than forward). Fitted on the d = 128,
 *   N = 16384 backward points of FA3 (561) and FA2 (322 TFLOP/s) (FA3 paper, Fig. 6(b)).
 * RL_FIT_KERNEL_FIXED_S — the fixed cost of one kernel launched back to back (the launch
 *   gap, the prologue's first loads, the epilogue's store), charged per kernel: the main one,
 *   the combine when split, the backward's preprocess and dQ conversion. Fitted on the smallest
 *   published decode, TileOps' dense GQA decode (TileOps PR #2084), H200, B = 1, H = 32, Hkv = 4,
 *   d = 128, L = 1024, fp16: 6.9 µs, predicted with the default profile (two kernels).
 * RL_FIT_SPLITKV_DRAM — the fraction of β FlashAttention-2's split-KV kernel (Flash-Decoding,
 *   2023) reaches. Fitted on Flash-Decoding, A100, B = 256, H = 16, Hkv = 2, d = 128, L = 256:
 *   63.4 µs (PyTorch blog "Flash-Decoding for long-context inference", 2023-10).
 * RL_FIT_CTA_SM_SHARE — f1: the share of its SM's MMA and exp throughput one CTA of fewer than 8
 *   warps reaches alone (k CTAs: min(1, k·f1)). Fitted on FlashAttention v2.0.9 (no split-KV),
 *   A100, B = 1, H = 16, Hkv = 2 (per head), d = 128, N = 1, L = 65536: 16 CTAs of 128 rows on
 *   108 SMs, 2.301 ms (Flash-Decoding blog's table).
 * RL_FIT_DECODE_DRAM — the fraction of β a production split-KV decode (the default for N <= 16)
 *   reaches at a large size. Fitted on TileOps' dense GQA decode, H200, Llama-3 8B shape B = 8,
 *   H = 32, Hkv = 8, d = 128, L = 32768, fp16: 256.55 µs (TileOPs docs/perf/gqa-dense-h200.md).
 * RL_FIT_BWD_CTA_S — the backward's fixed cost per round of CTAs on an SM (each CTA loads its
 *   K/V block, fills and drains the pipeline over N / Br query blocks, writes dK and dV): the
 *   short-N backward is slow for it. Fitted on FA3 backward, H100, d = 128, B = 32, H = 16,
 *   N = 512: 543.7 µs (FA3 paper, Fig. 6(b)); FA2's backward uses the same value.
 * RL_FIT_FA2_ONE_CTA — FA2's MMA rate at d > 128 relative to d <= 128: one CTA of 8 warps per SM
 *   (255 registers × 256 threads fill the register file) instead of two. Fitted on FA2 v2.5.8,
 *   H100, d = 256, B = 1, H = 8, N = 16384, non-causal: 6.745 ms (FA3 paper, Fig. 5(e)).
 * RL_FIT_SM_BANDWIDTH_SHARE — κ: one SM reaches κ · β / SMs of DRAM bandwidth when few SMs are
 *   busy. From issue 17's measurement (not a data/published point): FlashInfer decode without
 *   split, 32 CTAs on 32 SMs of an H100 SXM, reached 47 % of HBM: 0.47 · 132 / 32 = 1.94.
 * RL_FIT_BWD_MMA_SM100 — the Blackwell backward's MMA rate as a fraction of the dense peak
 *   while the MMAs run (tcgen05, five GEMMs per tile; the softmax and dS work is a term of its
 *   own, serialised: blackwell_bwd). Fitted on cuDNN (the cudnn profile takes FA4's backward mechanism),
 *   GB200, bf16, B = 1, H = 40, d = 128, N = L = 17160, non-causal: 10.638 ms (cuDNN frontend
 *   benchmark/sdpa_benchmark_training results, wan22 on GB200); fa4 uses the same value.
 * RL_FIT_CHAIN_SM100 — the Blackwell forward's exposed latency per KV iteration, in SM clocks: a
 *   Q tile's S = Q·Kᵀ, its softmax and its O += P·V run one after another (one S/P buffer per Q
 *   tile in TMEM; the MMA warp issues PV and the next QK of a tile only once the softmax has
 *   written P and the correction warps have rescaled O: flash_fwd_sm100.py mma()), and each
 *   iteration adds the handoffs' latency (TMEM load of S and store of P, the mbarriers softmax →
 *   correction → MMA warp, the MMA's own pipeline latency) beyond the pipes' busy times. Fitted on
 *   cuDNN (the cudnn profile takes FA4's forward mechanism), GB200, bf16, Kimi K2.6's MLA prefill
 *   shape B = 2, H = 64, d_qk 192 / d_v 128, N = L = 16384, non-causal: 12.457 ms (cuDNN frontend
 *   benchmark/sdpa_benchmark_training results, kimiK26 on GB200) — where the chain, not the
 *   softmax's throughput nor the MMA's, binds; fa4 uses the same value, and the d 192 / 128
 *   backward charges it three times per iteration.
 * RL_FIT_TILE_FILL_SHARE — Blackwell, FA4's mechanism (fa4; cudnn on sm_100/103), forward: each
 *   work tile's Q load and O store (Br·d and Br·d_v elements) run outside the mainloop, at this
 *   share of an SM's fair share of DRAM bandwidth, β / SMs: a fixed cost per work tile that a
 *   window of W = 128 (3 key tiles per tile) exposes. Fitted on cuDNN (frontend 1.21.1, backend
 *   9.22), GB200, gpt-oss shape B = 2, H = Hkv = 128, d = 64, N = L = 4096, causal, W = 128,
 *   bf16: 0.210 ms (NVIDIA/cudnn-frontend benchmark/sdpa_benchmark_training/results/gpt_oss/
 *   gb200/gpt_oss_20260424_100011.csv).
 * RL_FIT_EAGER_DRAM — the fraction of the datasheet DRAM bandwidth PyTorch eager's elementwise
 *   and GEMM-epilogue traffic reaches for materialised S and P. Fitted on standard attention,
 *   H100 SXM, fp16, d = 128, B = 4, H = 16, N = 4096, non-causal: 133 TFLOP/s (FA3 paper,
 *   Fig. 5(c)).
 * RL_FIT_CUDNN_SM100_MMA — the fraction of the dense tensor peak cuDNN's Blackwell forward reaches
 *   where the MMA, not the softmax, sets its time. Fitted on cuDNN 9.22, GB300, bf16, DeepSeek-V3's
 *   MLA prefill shape B = 2, H = 128, d_qk 192 / d_v 128, N = L = 16384, non-causal: 21.640 ms
 *   (cudnn-frontend benchmark/sdpa_benchmark_training, dsv3 on GB300) — there the softmax, 7/128
 *   SM-clock per score on GB300's MUFU (32/clock), is shorter than the MMA's 10/128 at the peak,
 *   so the time is the MMA pipe's: 2032 TFLOP/s of 2500. What holds it there (the sustained clock
 *   under load, the two dependent GEMMs per tile) is not separable from public data. */
#ifndef RL_FIT_OVERLAP_P
#define RL_FIT_OVERLAP_P 1.7166
#endif
#ifndef RL_FIT_MMA_SYNC_SM90
#define RL_FIT_MMA_SYNC_SM90 0.47847
#endif
#ifndef RL_FIT_BWD_MMA_FA3
#define RL_FIT_BWD_MMA_FA3 0.68084
#endif
#ifndef RL_FIT_BWD_MMA_FA2
#define RL_FIT_BWD_MMA_FA2 0.36164
#endif
#ifndef RL_FIT_KERNEL_FIXED_S
#define RL_FIT_KERNEL_FIXED_S 2.855e-06
#endif
#ifndef RL_FIT_CTA_SM_SHARE
#define RL_FIT_CTA_SM_SHARE 0.81147
#endif
#ifndef RL_FIT_SM_BANDWIDTH_SHARE
#define RL_FIT_SM_BANDWIDTH_SHARE 1.94
#endif
#ifndef RL_FIT_SPLITKV_DRAM
#define RL_FIT_SPLITKV_DRAM 0.62618
#endif
#ifndef RL_FIT_DECODE_DRAM
#define RL_FIT_DECODE_DRAM 0.92421
#endif
#ifndef RL_FIT_BWD_CTA_S
#define RL_FIT_BWD_CTA_S 7.8667e-06
#endif
#ifndef RL_FIT_FA2_ONE_CTA
#define RL_FIT_FA2_ONE_CTA 0.77701
#endif
#ifndef RL_FIT_BWD_MMA_SM100
#define RL_FIT_BWD_MMA_SM100 0.94901
#endif
#ifndef RL_FIT_CHAIN_SM100
#define RL_FIT_CHAIN_SM100 552.69
#endif
#ifndef RL_FIT_TILE_FILL_SHARE
#define RL_FIT_TILE_FILL_SHARE 0.47855
#endif
#ifndef RL_FIT_EAGER_DRAM
#define RL_FIT_EAGER_DRAM 0.66776
#endif
#ifndef RL_FIT_CUDNN_SM100_MMA
#define RL_FIT_CUDNN_SM100_MMA 0.84388
#endif

static const char *const kernel_names[RL_KERNEL_COUNT] = {
    [RL_KERNEL_GENERIC] = "generic",       [RL_KERNEL_FA2] = "fa2",
    [RL_KERNEL_FA3] = "fa3",               [RL_KERNEL_FLASHINFER] = "flashinfer",
    [RL_KERNEL_FLASH_DECODING] = "flash-decoding", [RL_KERNEL_STANDARD] = "standard",
    [RL_KERNEL_FA4] = "fa4",               [RL_KERNEL_FLASHMLA] = "flashmla",
    [RL_KERNEL_CUDNN] = "cudnn",
};

static const char *const kernel_descriptions[RL_KERNEL_COUNT] = {
    [RL_KERNEL_GENERIC] = "a FlashAttention-style forward with the problem's tile (--block-m, "
                          "--block-n), CTAs per SM from the SRAM budget, per-head K/V unless "
                          "--gqa-pack packed, exp serialised with the MMA at the full tensor peak",
    [RL_KERNEL_FA2] = "FlashAttention-2 v2.5 (csrc/flash_attn/src/flash_fwd_launch_template.h): "
                      "mma.sync, 4 or 8 warps of 16-32 query rows, 2 CTAs/SM (1 at d = 256), "
                      "launch order (m_block fastest), exp serialised; its num_splits heuristic "
                      "and split-KV kernel for few query blocks (decode); fp16/bf16 only",
    [RL_KERNEL_FA3] = "FlashAttention-3 (hopper/flash_fwd_launch_template.h): wgmma + TMA, "
                      "1 CTA/SM, persistent tile scheduler (longest causal tiles first), "
                      "Hopper only; the exp serialised with the MMA (FA3 paper §3.1)",
    [RL_KERNEL_FLASHINFER] = "FlashInfer decode (include/flashinfer/attention/scheduler.cuh, "
                             "decode.cuh): groups of up to 4 query heads on the CUDA cores, one "
                             "row per head; larger groups and N = 2..16 on the tensor-core "
                             "prefill kernel with G·N packed rows; KV chunks of >= 128 tokens "
                             "filling every resident CTA slot, a merge kernel when split; N <= 16",
    [RL_KERNEL_FLASH_DECODING] = "Flash-Decoding (FlashAttention-2's split-KV kernel, "
                                 "flash_api.cpp): Br = 64, Bc = 256/128/64 by head dim, the GQA "
                                 "group swapped into the query rows at N = 1, FA2's num_splits "
                                 "heuristic, a combine kernel when split; N <= 16",
    [RL_KERNEL_STANDARD] = "S and P materialised as PyTorch eager does: a batched GEMM writes S, "
                           "a softmax reads S and writes P (a mask pass more when causal), a "
                           "second GEMM reads P",
    [RL_KERNEL_FA4] = "FlashAttention-4 forward (flash_attn/cute/flash_fwd_sm100.py): Blackwell "
                      "sm_100/sm_103, tcgen05 MMA into TMEM, two 128-row Q tiles per CTA (256 "
                      "rows) x 128 keys, 1 CTA/SM, persistent; the softmax of one Q tile runs "
                      "beside the MMA of the other, each tile's S -> softmax -> P.V a chain with "
                      "a fitted handoff latency per KV iteration; exp2 split between MUFU.EX2 "
                      "and a cubic polynomial on the FP32 pipes (its tuning table by 2-CTA, "
                      "causal and d: 6-19 % of a 128-key row; none on sm_103); d 64-128 and d_qk 192 / d_v 128; fp16/bf16. "
                      "Backward (flash_bwd_sm100.py): 128 x 128 tiles, 2-CTA MMA at d >= 128, the "
                      "softmax and dS serialised with the five GEMMs, MUFU-only exp2; d 192 / 128 "
                      "unpipelined (three handoff round trips per iteration)",
    [RL_KERNEL_FLASHMLA] = "FlashMLA dense MLA decode (deepseek-ai/FlashMLA, sm_90): the h_q·s_q "
                           "query rows of a sequence packed in 64-row tiles, 64-key blocks, one "
                           "CTA per SM (a 64 x 512 fp32 output fills half the register file), "
                           "seesaw softmax/MMA overlap, 80 % of the tensor peak at the throttled "
                           "~1600 MHz, KV split over SMs / q-tiles scheduler parts; BF16 cache",
    [RL_KERNEL_CUDNN] = "cuDNN fused SDPA (closed source: the mechanism of the open kernel for "
                        "the same hardware, assumed): on Hopper FA3's (prefill, backward, fp8 "
                        "forward), on Blackwell FA4's tiles, softmax overlap and chain without exp2 "
                        "emulation, the MMA at a fitted 0.844 of the peak (prefill), FA4's "
                        "backward, d_qk 192 / d_v 128 (MLA prefill) included; Blackwell decode "
                        "(N = 1) as TensorRT-LLM's trtllm-gen generation kernels: the group's heads "
                        "in 8/16/32-row tiles, 128-key tiles, keys split over idle SMs",
};

const char *rl_kernel_name(rl_kernel k) {
    return (int)k >= 0 && k < RL_KERNEL_COUNT ? kernel_names[k] : "unknown";
}

const char *rl_kernel_description(rl_kernel k) {
    return (int)k >= 0 && k < RL_KERNEL_COUNT ? kernel_descriptions[k] : "";
}

static const struct {
    const char *name, *meaning, *loses;
} terms[RL_TERM_COUNT] = {
#define RL_X_TERM(ID, name, meaning, loses) [RL_TERM_##ID] = {name, meaning, loses},
    RL_TERMS(RL_X_TERM)
#undef RL_X_TERM
};

const char *rl_term_name(rl_term t) { return (int)t >= 0 && t < RL_TERM_COUNT ? terms[t].name : "unknown"; }
const char *rl_term_meaning(rl_term t) { return (int)t >= 0 && t < RL_TERM_COUNT ? terms[t].meaning : ""; }
const char *rl_term_why_loses(rl_term t) { return (int)t >= 0 && t < RL_TERM_COUNT ? terms[t].loses : ""; }

const char *rl_limit_name(rl_limit limit) {
    static const char *const names[] = {"compute", "memory", "occupancy", "latency"};
    return (int)limit >= 0 && limit <= RL_LIMIT_LATENCY ? names[limit] : "unknown";
}

const char *rl_level_name(rl_level level) {
    return level == RL_LEVEL_L2 ? "l2" : level == RL_LEVEL_DRAM ? "dram" : "unknown";
}

/* ---------------------------------------------------------------------------------------------
 * Tiles per profile
 * ------------------------------------------------------------------------------------------- */

/* FlashMLA's deep-dive blog (docs/20250422-new-kernel-deep-dive.md): an H800 SXM5 under the
 * kernel throttles to ~1600 MHz. */
#define FLASHMLA_THROTTLED_HZ 1.6e9

static rl_status no_tile(rl_kernel k, int64_t d, rl_error *err) {
    return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                    "--kernel %s has no tile for head dim %lld (it runs d <= 256)",
                    rl_kernel_name(k), (long long)d);
}

/* FA2 v2.5 forward, sm80 and sm90 (not sm86/89): d <= 64: 128 x 128, 4 warps; d <= 128:
 * 128 x 64, 4 warps; d <= 256: 128 x 64, 8 warps (when 2·d·(128 + 2·64) bytes of shared memory
 * fit, as on A100 and H100). FA2 kernels use 255 registers per thread: 2 CTAs of 4 warps per SM
 * (65,536 registers), 1 of 8 warps. */
static rl_status fa2_tile(const rl_problem *p, rl_profile *pf, rl_error *err) {
    const int64_t d = p->head_dim;
    if (d > 256) return no_tile(RL_KERNEL_FA2, d, err);
    pf->block_m = 128;
    pf->block_n = d <= 64 ? 128 : 64;
    pf->warps = d <= 128 ? 4 : 8;
    pf->ctas_per_sm = d <= 128 ? 2 : 1;
    return RL_OK;
}

/* FA3 forward (hopper/flash_fwd_launch_template.h, v3.0.0b1): fp16/bf16 d <= 64: 192 x 128;
 * d <= 128: 128 x 176 (128 x 128 causal); d <= 256: 128 x 80. fp8: 192 x 128, 128 x 256,
 * 128 x 128. One CTA per SM (the tiles fill the 227 KiB of shared memory). */
static rl_status fa3_tile(const rl_problem *p, rl_profile *pf, rl_error *err) {
    const int64_t d = p->head_dim;
    const int fp8 = p->dtype == RL_DTYPE_FP8;
    /* The MLA shapes (hopper/tile_size.h tile_size_fwd_sm90 @ 07602ad): absorbed MLA runs FA3's
     * qv path, head dim 64 (the RoPE part) with head_dim_v 512 (the latent, also Q's nope part):
     * 64 x 64, no intra-warpgroup overlap; d 192 with d_v 128 (MLA prefill): 128 x 128 (fp8
     * 128 x 160). */
    if (p->kv_lora_rank > 0) {
        pf->block_m = 64;
        pf->block_n = 64;
        pf->warps = 4 + 4;
        pf->ctas_per_sm = 1;
        return RL_OK;
    }
    if (d == 192 && p->head_dim_v == 128) {
        pf->block_m = 128;
        pf->block_n = fp8 ? 160 : 128;
        pf->warps = 4 + 8;
        pf->ctas_per_sm = 1;
        return RL_OK;
    }
    if (d > 256) return no_tile(RL_KERNEL_FA3, d, err);
    if (d <= 64) {
        pf->block_m = 192;
        pf->block_n = 128;
    } else if (d <= 128) {
        pf->block_m = 128;
        pf->block_n = fp8 ? 256 : p->causal ? 128 : 176;
    } else {
        pf->block_m = 128;
        pf->block_n = fp8 ? 128 : 80;
    }
    /* A sliding window runs FA3's local mask, not its causal one (flash_api.cpp: is_causal only
     * without a left window): tile_size.h @ 07602ad, 2-byte, is_local: d <= 64 192 x 160, d <= 128
     * 128 x 128, d <= 256 128 x 64. */
    if (p->window && !fp8) pf->block_n = d <= 64 ? 160 : d <= 128 ? 128 : 64;
    pf->warps = 4 + (int)pf->block_m / 16;
    pf->ctas_per_sm = 1;
    return RL_OK;
}

/* FA3's paged KV (hopper/flash_api.cpp get_pagedkv_tma @ 07602ad): TMA loads the pages only when
 * page_size % Bc == 0 and the packed rows G·N exceed Br ("when seqlen_q <= kBlockM ... using TMA
 * is slower"); otherwise the producer gathers the rows with cp.async (paged_kv_non_TMA), the tile
 * narrows (tile_size.h: 2-byte d <= 64 non-causal 192 x 160, d <= 128 128 x 128, d 192 / d_v 128
 * 128 x 96; 1-byte d <= 128 128 x 160) and PackGQA is always on (get_pack_gqa). */
static void fa3_paged(const rl_problem *p, rl_profile *pf) {
    if (!p->page_size) return;
    const int64_t G = p->heads / p->kv_heads, d = p->head_dim;
    const int fp8 = p->dtype == RL_DTYPE_FP8;
    if (p->page_size % pf->block_n == 0 && G * p->seq > pf->block_m) return;
    pf->paged_non_tma = 1;
    if (p->kv_lora_rank > 0) return; /* the qv path's 64 x 64 stays */
    if (!fp8 && d <= 64 && !p->causal) pf->block_n = 160;
    else if (!fp8 && d <= 128) pf->block_n = 128;
    else if (!fp8 && d == 192 && p->head_dim_v == 128) pf->block_n = 96;
    else if (fp8 && d > 64 && d <= 128) pf->block_n = 160;
}

/* FA2's split-KV kernel (flash_fwd_launch_template.h, run_mha_fwd_splitkv_dispatch): Br = 64,
 * Bc = 256 for d <= 64, 128 for d <= 128, 64 above; 4 warps; its shared memory (Q tile + K and
 * V tiles: 80 KiB at d = 128) leaves 2 CTAs per SM on A100 and H100. */
static int64_t fa2_split_block_n(int64_t d) { return d <= 64 ? 256 : d <= 128 ? 128 : 64; }
static void splitkv_tile(const rl_problem *p, rl_profile *pf) {
    pf->block_m = 64;
    pf->block_n = fa2_split_block_n(p->head_dim);
    pf->warps = 4;
    pf->ctas_per_sm = 2;
}

static rl_status no_dtype(rl_kernel k, const rl_problem *p, const char *why, rl_error *err) {
    return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel", "--kernel %s: no such %s kernel: %s",
                    rl_kernel_name(k), rl_dtype_name(p->dtype), why);
}

static rl_status need_decode(const rl_problem *p, rl_kernel k, rl_error *err) {
    if (p->seq > 16)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                        "--kernel %s is a decode kernel: it needs --seq 16 or less (new query "
                        "rows: decode, speculative or append), got seq %lld",
                        rl_kernel_name(k), (long long)p->seq);
    if (p->pass != RL_PASS_FWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                        "--kernel %s has no backward pass (a decode kernel)", rl_kernel_name(k));
    return RL_OK;
}

/* FlashInfer (include/flashinfer/attention/decode.cuh, scheduler.cuh, utils.cuh). N = 1 with a
 * group of at most 4 query heads per KV head runs BatchDecodeWithPagedKVCacheKernel on the CUDA
 * cores; larger groups (vLLM's rule: use_tensor_cores when H/Hkv > 4) and N > 1 (append,
 * speculative) run the tensor-core prefill kernel with the group packed into the query rows. */
static void flashinfer_profile(const rl_problem *p, const rl_hw *hw, rl_cores cores, rl_profile *pf) {
    const int64_t G = p->heads / p->kv_heads, d = p->head_dim;
    const double bkv = rl_dtype_bytes(p->kv_dtype);
    pf->gqa_packed = 1;
    pf->head_major = 1;
    pf->split_rule = RL_SPLIT_FILL;
    pf->dram_fraction = RL_FIT_DECODE_DRAM; /* a production decode kernel's, as the default's */
    const int single = cores == RL_CORES_CUDA_SINGLE;
    if (single || cores == RL_CORES_CUDA || (cores == RL_CORES_DEFAULT && p->seq == 1 && G <= 4)) {
        /* vec_size = max(16 B / element, d/32), bdx = d / vec_size threads per row, bdy = G rows,
         * 128 threads at least (bdz = threads / (bdx·bdy) groups of keys), tile_size_per_bdx =
         * 4 (2 for 1-byte K/V) keys per thread when G = 1, else 1; two pipeline stages on sm_80+.
         * Shared memory = 2 · stages · tile · bdy · bdz · d · bytes (+ pointers). CTAs per SM
         * (cudaOccupancyMaxActiveBlocksPerMultiprocessor): threads (2,048 per SM on sm_80/90,
         * 1,536 on sm_86/89, 1,024 on sm_75) and shared memory; registers are not published and
         * assumed not to bind. */
        int64_t vec = (int64_t)(16.0 / bkv);
        if (d / 32 > vec) vec = d / 32;
        const int64_t bdx = d / vec > 0 ? d / vec : 1, bdy = G;
        /* single_decode_with_kv_cache: get_heuristic_num_threads (512 for a group of 8, 256
         * with 1-byte K/V, else 128) and 8 keys per thread when G = 1 (2 with 1-byte K/V) */
        const int64_t base_threads = single && G == 8 ? (bkv == 1 ? 256 : 512) : 128;
        const int64_t threads = bdx * bdy > base_threads ? bdx * bdy : base_threads;
        const int64_t bdz = threads / (bdx * bdy);
        const int64_t tile = G == 1 ? (bkv == 1 ? 2 : single ? 8 : 4) : 1;
        const int64_t stages = hw->sm_arch >= 80 || hw->sm_arch == 0 ? 2 : 1;
        const double smem = 2.0 * (double)(stages * tile * bdy * bdz * d) * bkv +
                            (double)(tile * threads) * 8.0;
        const int64_t max_threads = hw->sm_arch == 86 || hw->sm_arch == 89 ? 1536
                                    : hw->sm_arch == 75                    ? 1024
                                                                           : 2048;
        int64_t per_sm = max_threads / threads;
        const int64_t by_smem = (int64_t)(hw->smem_per_sm_bytes / smem);
        if (by_smem < per_sm) per_sm = by_smem;
        if (per_sm < 1) per_sm = 1;
        pf->cuda_core = 1;
        pf->block_m = G;
        pf->block_n = tile * bdz;
        pf->warps = (int)(threads / 32);
        pf->ctas_per_sm = per_sm;
        pf->max_grid = per_sm * hw->sm_count;
        pf->exp_serialised = 1;
        if (single) pf->split_rule = RL_SPLIT_SINGLE;
        return;
    }
    /* FA2DetermineCtaTileQ on the packed rows G·N: > 64 → 128, > 16 → 64, else 16 (sm_80+);
     * 4 warps along the keys for the 16-row tile (Bc = 64). The prefill plan takes
     * num_blocks_per_sm = 2: at most 2 · SMs CTAs when split. */
    const int64_t rows = G * p->seq;
    pf->block_m = rows > 64 && d < 256 ? 128 : rows > 16 ? 64 : 16;
    pf->warps_along_keys = pf->block_m == 16;
    pf->block_n = 64;
    pf->warps = 4;
    pf->ctas_per_sm = 2;
    pf->max_grid = 2 * (int64_t)hw->sm_count;
    pf->mma_fraction = hw->sm_arch >= 90 ? RL_FIT_MMA_SYNC_SM90 : 1.0; /* mma.sync */
    pf->smem_roof = 1;
}

/* FlashAttention-4's exp2 split (flash_attn/cute/softmax.py, SoftmaxSm100.apply_exp2_convert, as
 * flash_fwd_sm100.py calls it with its tuned ex2_emu_freq and ex2_emu_start_frg and ex2_emu_res
 * 4: fa4_ex2_share): a softmax thread holds one row of Bc scores in fragments of 32; in every fragment
 * but the last (and from fragment `start` on) the element pairs k = 0, 2, ..., 30 with
 * k mod freq >= freq - res go through the polynomial (utils.ex2_emulation_2), the rest through
 * MUFU.EX2. Returns the emulated share of the row. Bc = 128, freq 10: pairs 6, 8, 16, 18, 26, 28
 * of fragments 0..2 (start 0): 3 · 12 / 128 = 0.28125; of fragments 1..2 (start 1): 0.1875. */
double rl__ex2_emulated_share(int64_t bc, int freq, int res, int start) {
    if (freq <= 0 || bc < 32) return 0.0;
    const int64_t frgs = bc / 32;
    int64_t emulated = 0;
    for (int64_t j = 0; j < frgs; j++) {
        if (j >= frgs - 1 || j < start) continue;
        for (int k = 0; k < 32; k += 2)
            if (k % freq >= freq - res) emulated += 2;
    }
    return (double)emulated / (double)(frgs * 32);
}

/* FA4's exp2 emulation share on sm_100 (sm_103 emulates none), as flash_fwd_sm100.py @ 0251105a
 * picks it: _TUNING_CONFIG keyed (2-CTA, causal, padded d) gives ex2_emu_freq and
 * ex2_emu_start_frg (res 4, softmax.py's default; start 1 when the key has none): 2-CTA d 128
 * (10, 1), causal d 128 (16, 1), 2-CTA d 192 (16, 0), causal d 192 (32, 1); a key not in the
 * table keeps the default — emulation on for d <= 128 (freq 16, start 1), off for d 192 unless
 * 2-CTA; PackGQA at d > 64 without a causal or local mask takes freq 10. The 2-CTA forward
 * (interface.py use_2cta_instrs): no causal or local mask, padded d 128 or 192 with d_v 128, more
 * than 2 · 128 query rows (G·N when packed). Share of a 128-key row (rl__ex2_emulated_share):
 * 2-CTA d 128 24/128 = 0.1875, d <= 128 otherwise 16/128 = 0.125, 2-CTA d 192 24/128 = 0.1875,
 * causal d 192 8/128 = 0.0625. */
static double fa4_ex2_share(const rl_problem *p, int packed) {
    const int64_t d = (p->head_dim + 15) / 16 * 16;
    const int64_t dv = p->head_dim_v ? p->head_dim_v : p->head_dim;
    const int64_t rows = p->seq * (packed ? p->heads / p->kv_heads : 1);
    const int masked = p->causal || p->window;
    const int two_cta = !masked && (d == 128 || d == 192) && (dv + 15) / 16 * 16 == 128 && rows > 256;
    int freq, start;
    if (d == 192) {
        if (two_cta) freq = 16, start = 0;
        else if (p->causal && !p->window) freq = 32, start = 1;
        else return 0.0;
    } else {
        freq = two_cta ? 10 : 16;
        start = 1;
    }
    if (packed && d > 64 && !masked) freq = 10;
    return rl__ex2_emulated_share(128, freq, 4, start);
}

/* ---------------------------------------------------------------------------------------------
 * Profile resolution: the profile's choices, then the caller's spec on top
 * ------------------------------------------------------------------------------------------- */

/* The per-work-tile fill of FA4's mechanism on Blackwell (forward): the Q tile (Br rows of d)
 * loaded before the first S = QKᵀ and the O tile (Br rows of d_v) stored after the last P·V,
 * neither hidden behind a mainloop of a few key tiles. cuDNN on a GB200 and a GB300 runs the
 * gpt-oss window (W = 128, d = 64) in the same time (0.210 and 0.202 ms at N = 4096) although the
 * GB300's MUFU is twice as fast and both are at a third of the DRAM roof: a cost per tile, not
 * a rate. Charged per round of CTAs (a persistent kernel: per work tile on each SM). Hopper's FA3
 * is left without it: its N = 512 point (3 key tiles per CTA at 467 TFLOP/s) and cuDNN's H200
 * gpt-oss points (W = 1024, within 4–12 % without it) show no such cost. */
static void blackwell_fill(const rl_problem *p, rl_profile *pf) {
    if (p->pass != RL_PASS_FWD) return; /* the forward's tiles; a backward has its own costs */
    const double dv = (double)(p->head_dim_v > 0 ? p->head_dim_v : p->head_dim);
    const rl_dtype out = p->out_dtype != RL_DTYPE_DEFAULT ? p->out_dtype : p->dtype;
    /* the rows a tile holds: Br, or fewer (a decode's G·N packed rows, a short N) */
    const int64_t rows = pf->gqa_packed ? (p->heads / p->kv_heads) * p->seq : p->seq;
    const double br = (double)(rows < pf->block_m ? rows : pf->block_m);
    pf->fill_bytes = br * ((double)p->head_dim * rl_dtype_bytes(p->dtype) +
                           dv * rl_dtype_bytes(out));
    pf->fill_share = RL_FIT_TILE_FILL_SHARE;
}

/* FA3's choices on a Hopper GPU, once the kernel's checks have passed (fa3, and cudnn on sm_90). */
static rl_status fa3_profile(const rl_problem *p, rl_profile *pf, int bwd, rl_error *err) {
    pf->persistent = 1;
    pf->head_major = 1;
    pf->bwd_mma_fraction = RL_FIT_BWD_MMA_FA3;
    /* fp8: wgmma wants V K-major, so the producer warpgroup transposes every V tile in
     * shared memory (LDSM/STSM) before the consumers may use it (FA3 paper, §3.3): loads no
     * longer run ahead of the MMA and DRAM time adds to compute (p = 1, no overlap). */
    if (p->dtype == RL_DTYPE_FP8) pf->overlap_p = 1.0;
    if (bwd) {
        pf->kernels = 3; /* preprocess, the main kernel, dQ postprocess */
        pf->cta_fixed_s = RL_FIT_BWD_CTA_S;
    } else {
        /* hopper/flash_api.cpp get_num_splits + heuristics.h: splits by FA3's rule on
         * every forward; PackGQA by should_pack_gqa, always when split. */
        pf->split_rule = RL_SPLIT_FA3;
        pf->pack_rule = 1;
    }
    rl_status st = fa3_tile(p, pf, err);
    if (st == RL_OK && !bwd) fa3_paged(p, pf);
    pf->split_block_m = pf->block_m;
    pf->split_block_n = pf->block_n;
    return st;
}

/* cuDNN's decode on Blackwell (sm_100, sm_103). cuDNN is closed source; what is published: SDPA
 * has a "decode only mode, i.e. s_q == 1" of its own (cudnn-frontend
 * include/cudnn_frontend/node/sdpa_support_surface.h @ 3929da2: its own checks, d_qk and d_v <= 128
 * on Blackwell through cuDNN 9.9, no sink token), sped up for "single-query step" use on Blackwell
 * in cuDNN 9.8.0 (release notes); the 9.18.1 release notes' known issues single out decode "with
 * causal masking turned on, and if the layer has Q head count != K/V head count" (the rest of the
 * sentence was not in the copy read) — a hint, not a statement, that the group's heads share
 * rows. The mechanism, packing included, is ASSUMED to be that of the open SM100 decode kernels
 * NVIDIA ships, TensorRT-LLM's trtllm-gen
 * generation kernels (cpp/tensorrt_llm/kernels/trtllmGenKernels/fmha/fmhaKernels.h @ 01c84c6):
 * groups of <= 16 query heads run SwapsMmaAbForGeneration — 128 keys in the MMA's M, the group's
 * heads in its N: tileSizeQ 8 (G <= 8) or 16 —, larger groups KeepsMmaAbForGeneration with 32
 * heads per CTA; one CTA per (sequence, head tile), the keys split over the idle SMs:
 * numCtasPerSeqKv = min(ceil(L / stepKv), max(1, SMs / CTAs)), a reduction after (resolved below,
 * RL_SPLIT_SM100_DECODE). stepKv = tileSizeKv = 128 keys is assumed: the GQA kernels' values sit in
 * the cubin metadata (kernelMetaInfo.h), and 128 is the tile the MLA path starts from. The DRAM fraction is the production decode kernel's (fitted on H200:
 * no Blackwell decode point exists to fit one on) — an ASSUMPTION. */
static rl_status cudnn_sm100_decode(const rl_problem *p, rl_profile *pf, rl_error *err) {
    if (p->seq != 1)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "seq",
                        "--kernel cudnn models cuDNN's decode-only mode, s_q = 1 "
                        "(cudnn-frontend sdpa_support_surface.h); --seq 2..16 (speculative, MTP) "
                        "runs another cuDNN path with no published mechanism: give --seq 1, or "
                        "--seq 17 or more for its prefill");
    if ((p->dtype != RL_DTYPE_FP16 && p->dtype != RL_DTYPE_BF16) || p->kv_dtype != p->dtype)
        return no_dtype(RL_KERNEL_CUDNN, p, "the cudnn profile models cuDNN's fp16/bf16 decode on "
                                            "Blackwell, the cache in the query's dtype", err);
    const int64_t dv = p->head_dim_v ? p->head_dim_v : p->head_dim;
    if (p->head_dim > 128 || dv > 128)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "head-dim",
                        "--kernel cudnn's decode on Blackwell runs d_qk and d_v <= 128 "
                        "(cudnn-frontend sdpa_support_surface.h), got %lld / %lld",
                        (long long)p->head_dim, (long long)dv);
    const int64_t G = p->heads / p->kv_heads;
    pf->block_m = G <= 8 ? 8 : G <= 16 ? 16 : 32; /* tileSizeQ: the heads in one CTA */
    pf->block_n = 128;                            /* tileSizeKv: the keys in the MMA's M */
    pf->split_block_n = 128;
    pf->warps = 16; /* warp-specialised as the prefill kernel (assumed: not published) */
    pf->ctas_per_sm = 1;
    pf->gqa_packed = 1;
    pf->head_major = 1;
    pf->split_rule = RL_SPLIT_SM100_DECODE;
    pf->dram_fraction = RL_FIT_DECODE_DRAM;
    pf->exp_serialised = 0;
    pf->softmax_overlap = 1;
    pf->ex2_emulated = 0.0;
    return RL_OK;
}

/* FA4's forward on Blackwell (flash_attn/cute/flash_fwd_sm100.py), shared by `fa4` and by
 * `cudnn` on sm_100/sm_103: m_block_size = n_block_size = 128 with q_stage = 2 (two 128-row Q
 * tiles per CTA whose softmax warpgroups take turns with the MMA warp: 256 x 128), 16 warps,
 * 1 CTA per SM (its TMEM and shared memory), persistent, head-major, the softmax overlapped with
 * the MMA; `ex2_share` of the exp2 emulated on the FP32 pipes. The overlap is bounded by each Q
 * tile's chain (mma(): the MMA warp issues tile i's P·V and its next Q·Kᵀ back to back, once
 * tile i's P is written and O rescaled; TMEM holds one S/P buffer per tile — tmem_s_offset
 * [0, 128], P aliased in S — so the next S of a tile cannot start before its P·V has read P):
 * per KV iteration the two tiles need max(MMA of both, softmax of both, MMA of one + softmax of
 * one + the handoffs' latency, RL_FIT_CHAIN_SM100). The d_qk 192 / d_v 128 tile keeps the same
 * TMEM layout (S 2 x 128 + O 2 x 128 columns) and fits 3 K/V stages in shared memory only by
 * uneven_kv_smem; its Q·Kᵀ is 1.5x longer, so the chain, not the softmax's throughput, binds
 * where d = 128 is softmax-bound (GB200). */
static void blackwell_overlapped(rl_profile *pf, double ex2_share) {
    pf->chain_clocks = RL_FIT_CHAIN_SM100;
    pf->chain_scores = 256.0 * 128.0;
    pf->block_m = 256;
    pf->block_n = 128;
    pf->warps = 16;
    pf->ctas_per_sm = 1;
    pf->persistent = 1;
    pf->head_major = 1;
    pf->exp_serialised = 0;
    pf->softmax_overlap = 1;
    pf->ex2_emulated = ex2_share;
}

/* FA4's backward on Blackwell (flash_attn/cute/flash_bwd_sm100.py and interface.py
 * _flash_attn_bwd @ 0251105a, 2026-08-15), shared by `fa4` and by `cudnn` on sm_100/sm_103:
 * one CTA per 128-key block (tile_n 128) looping over 128-row query blocks (tile_m 128), 16 warps
 * (4 dQ-reduce, 8 compute, MMA, load, relay, empty), 1 CTA per SM, not persistent
 * (is_persistent False). For d >= 128 two CTAs of a cluster run one 2-CTA MMA (use_2cta_instrs:
 * mma_tiler 2·tile_n × tile_m): 256 keys share each Q, dO tile and each dQ accumulation, so
 * the tile the traffic and causal mask see is 128 queries × 256 keys (a CTA still holds 128
 * keys: the CTA count is B·H·⌈N/128⌉ for N = L). All five GEMMs (S = K·Qᵀ, dP = V·dOᵀ,
 * dV += Pᵀ·dO, dK += dSᵀ·Q, dQ = dS·K) run on the tensor cores at the fitted backward fraction.
 * The compute warps recompute P = exp2(S·scale − LSE) on MUFU only (cute.math.exp2; no
 * emulation in the backward) and form dS = P·(dP − D): per score one MUFU.EX2 and, on the FP32
 * pipes, the scale-and-subtract FMA (1), the P conversion (1/2: F2FP packs two), dP − D (1),
 * the product with P (1) and the dS conversion (1/2) = 4. The model adds this softmax time to
 * the MMA time (serialised). The kernel pipelines one tile deep (mma(): S of the next query
 * block is issued before dK, dP, dQ of the current one), but TMEM has no second buffer (at
 * d = 128 S/P 128 + dV 128 + dP/dS 128 + dK 128 columns = all 512; dQ shares dP's columns, in
 * the 2-CTA layout S's): each S waits for the reduce warps to drain the previous dQ, each dV
 * for P, each dK and dQ for dS. How much of the softmax hides is not derived; the data say most
 * of it shows: GB300 (MUFU 32/clock) runs cuDNN's backward 1.09× faster than GB200 at the same
 * MMA peak (median of 20 pairs), serialised predicts 1.14×, hidden 1.00×. dQ: fp32 TMA
 * reduce-adds into dQaccum per tile, zeroed by the preprocess (D = rowsum(dO·O)), converted by
 * a postprocess kernel; with a group (H > Hkv) dK and dV are accumulated in fp32 too and two
 * more postprocess kernels convert them. d_qk 192 / d_v 128 runs its own main loop (mma(),
 * `use_2cta_instrs and tile_hdim == 192`), not software-pipelined, in a TMEM layout where S/P
 * (columns 320–447), dP/dS (384–511) and dQ (416–511) overlap: each iteration S waits for the
 * reduce warps to drain the previous dQ, dP for the compute warps to load S, dK for dS — three
 * round trips MMA warp → other warps → MMA warp per 128 x 128 iteration of a CTA, none hidden
 * behind another tile's MMA. Each is charged the forward's fitted handoff latency
 * (RL_FIT_CHAIN_SM100, the same kind of round trip: an MMA's completion, an mbarrier, a TMEM
 * load by the warps, an mbarrier back), not refitted. */
static rl_status blackwell_bwd(const rl_problem *p, rl_kernel k, rl_profile *pf, rl_error *err) {
    if (!(p->head_dim <= 128 || (p->head_dim == 192 && p->head_dim_v == 128)))
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                        "--kernel %s --pass bwd models FlashAttention-4's sm100 backward "
                        "(flash_bwd_sm100.py: d <= 128, or d_qk 192 with d_v 128); head dim %lld "
                        "runs a separate 2-CTA d = 256 kernel, not modelled",
                        rl_kernel_name(k), (long long)p->head_dim);
    pf->block_m = 128;
    pf->block_n = p->head_dim >= 128 ? 256 : 128;
    pf->warps = 16;
    pf->ctas_per_sm = 1;
    pf->persistent = 0;
    pf->head_major = 1;
    pf->exp_serialised = 1;
    pf->softmax_overlap = 0;
    pf->softmax_fp32_ops = 4.0;
    pf->ex2_emulated = 0.0;
    pf->bwd_mma_fraction = RL_FIT_BWD_MMA_SM100;
    if (p->head_dim == 192) { /* the unpipelined d 192 / 128 loop: three round trips */
        pf->chain_clocks = 3.0 * RL_FIT_CHAIN_SM100;
        pf->chain_scores = 128.0 * 128.0;
    }
    pf->kernels = 3 + (p->heads > p->kv_heads ? 2 : 0);
    /* each CTA loads its K/V block, fills and drains the pipeline over its query blocks and
     * writes dK/dV: FA2's and FA3's per-round cost (fitted on FA3, H100), taken as is */
    pf->cta_fixed_s = RL_FIT_BWD_CTA_S;
    return RL_OK;
}

static rl_status base_profile(const rl_problem *p, const rl_hw *hw, const rl_kernel_spec *spec,
                              rl_profile *pf, rl_error *err) {
    const rl_kernel k = spec->kernel;
    if (spec->cores != RL_CORES_DEFAULT && k != RL_KERNEL_FLASHINFER)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "cores",
                        "--cores: only --kernel flashinfer has both a CUDA-core and a tensor-core "
                        "decode kernel; --kernel %s has one",
                        rl_kernel_name(k));
    memset(pf, 0, sizeof *pf);
    pf->kernel = k;
    pf->mma_fraction = 1.0;
    pf->bwd_mma_fraction = 1.0;
    pf->exp_serialised = 1;
    pf->dram_fraction = 1.0;
    pf->overlap_p = RL_FIT_OVERLAP_P;
    pf->kernels = 1;
    pf->kernel_fixed_s = RL_FIT_KERNEL_FIXED_S;
    pf->sm_bandwidth_share = RL_FIT_SM_BANDWIDTH_SHARE;
    pf->cta_sm_share = RL_FIT_CTA_SM_SHARE;
    const int bwd = p->pass == RL_PASS_BWD;
    const int fp32 = p->dtype == RL_DTYPE_FP32 || p->dtype == RL_DTYPE_TF32;
    switch (k) {
    case RL_KERNEL_GENERIC:
        /* FA2-like: 4 warps share the query rows, operands from shared memory per warp. A
         * decode (N <= 16, forward) is run as every production decode kernel runs it: the group
         * packed into the query rows, the keys split to fill the GPU (FlashInfer's rule),
         * unless the caller fixes packing or splits. */
        pf->block_m = p->block_m;
        pf->block_n = p->block_n;
        pf->warps = 4;
        pf->smem_roof = 1;
        pf->rescale_serialised = 1;
        if (bwd) pf->kernels = 3;
        if (p->seq <= 16 && !bwd) {
            /* the query tile FlashInfer picks for the packed rows G·N (FA2DetermineCtaTileQ:
             * 16, 64 or 128), when the caller gives none */
            const int64_t rows = (p->heads / p->kv_heads) * p->seq;
            if (spec->block_m == 0 && spec->gqa_pack != RL_PACK_PER_HEAD)
                pf->block_m = rows > 64 ? 128 : rows > 16 ? 64 : 16;
            pf->gqa_packed = 1;
            pf->split_rule = RL_SPLIT_FILL;
            pf->head_major = 1;
            /* the DRAM fraction a production decode kernel reaches at a large size (fitted). On
             * Ampere and Ada (sm_80-89) the production decode is FlashAttention-2's split-KV kernel:
             * vLLM's CUDA backend priority puts FLASH_ATTN first on every non-Blackwell GPU
             * (vllm/platforms/cuda.py _get_backend_priorities @ 002db495), which is FA2 below sm_90
             * (FA3 needs sm_90), and FA2 runs a paged KV cache through its split-KV kernel
             * (flash_api.cpp: force_split_kernel for paged KV) - at that kernel's fitted fraction. */
            pf->dram_fraction = hw->sm_arch >= 80 && hw->sm_arch < 90 ? RL_FIT_SPLITKV_DRAM
                                                                      : RL_FIT_DECODE_DRAM;
        }
        return RL_OK;
    case RL_KERNEL_FA2:
        if (hw->sm_arch < 80)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel fa2 describes FlashAttention-2's CUDA kernels, which need "
                            "sm_80 or newer (Ampere, Ada, Hopper: the FlashAttention README); "
                            "preset %s is %s",
                            hw->id, hw->arch);
        if (p->dtype == RL_DTYPE_FP8)
            return no_dtype(k, p, "FlashAttention-2 runs fp16 and bf16 only (flash_api.cpp: "
                                  "\"FlashAttention only support fp16 and bf16 data type\"); "
                                  "fp8 is fa3's", err);
        if (fp32)
            return no_dtype(k, p, "FlashAttention-2 runs fp16 and bf16 only (flash_api.cpp); "
                                  "use --kernel standard for fp32 attention", err);
        pf->mma_fraction = hw->sm_arch >= 90 ? RL_FIT_MMA_SYNC_SM90 : 1.0;
        pf->bwd_mma_fraction = RL_FIT_BWD_MMA_FA2 / RL_FIT_MMA_SYNC_SM90 * pf->mma_fraction;
        /* d > 128: one CTA of 8 warps at 255 registers per thread fills the register file
         * (65,536): no second CTA overlaps its softmax with another's MMA */
        if (p->head_dim > 128) pf->mma_fraction *= RL_FIT_FA2_ONE_CTA;
        pf->smem_roof = 1;
        if (bwd) {
            pf->kernels = 3; /* dot(dO, O) preprocess, the main kernel, dQ fp32 → dtype */
            pf->cta_fixed_s = RL_FIT_BWD_CTA_S;
        } else {
            /* mha_fwd calls set_params_splitkv: FA2's num_splits heuristic on every forward,
             * the split-KV kernel when it gives more than one split; N = 1 with a group swaps
             * the group into the query rows (seqlenq_ngroups_swapped). */
            pf->split_rule = RL_SPLIT_FA2;
            pf->split_block_m = 64;
            pf->split_block_n = fa2_split_block_n(p->head_dim);
            pf->split_tile = 1;
            pf->pack_n1 = 1;
        }
        return fa2_tile(p, pf, err);
    case RL_KERNEL_CUDNN:
        /* cuDNN's fused SDPA kernels are closed source; the profile takes the mechanism of the
         * open kernel built for the same hardware features and says so: on Hopper FA3's (wgmma,
         * TMA, warp-specialised producer/consumers, 1 CTA/SM), on Blackwell FA4's (tcgen05 into
         * TMEM, 2 x 128-row Q tiles x 128 keys — the mma_tiler_mn (128, 128) of cuDNN frontend's
         * SM100 SDPA kernels — softmax beside the MMA) without FA4's exp2 emulation (FA4's paper
         * presents it as FA4's own). Forward prefill on both; the backward on Hopper is FA3's,
         * on Blackwell FA4's (blackwell_bwd; checked on cuDNN frontend's GB200/GB300 training
         * results); decode (N = 1) on Blackwell by trtllm-gen's mechanism (cudnn_sm100_decode),
         * not modelled on Hopper. */
        if (p->seq <= 16 && !bwd) {
            if (hw->sm_arch == 100 || hw->sm_arch == 103) return cudnn_sm100_decode(p, pf, err);
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel cudnn models cuDNN's decode (N = 1) on Blackwell only; on "
                            "preset %s (%s) it models prefill (N > 16) and backward",
                            hw->id, hw->arch);
        }
        if (hw->sm_arch == 100 || hw->sm_arch == 103) {
            if (p->dtype != RL_DTYPE_FP16 && p->dtype != RL_DTYPE_BF16)
                return no_dtype(k, p, "the cudnn profile models cuDNN's fp16/bf16 SDPA on "
                                      "Blackwell", err);
            if (bwd) return blackwell_bwd(p, k, pf, err); /* FA4's backward, ASSUMED */
            if (p->head_dim > 128 && !(p->head_dim == 192 && p->head_dim_v == 128) &&
                p->head_dim != 256)
                return rl__fail(err, RL_ERR_UNSUPPORTED, "head-dim",
                                "--kernel cudnn's forward on Blackwell runs head dim <= 128, 256, "
                                "or 192 with --head-dim-v 128 (MLA prefill); got %lld / %lld",
                                (long long)p->head_dim,
                                (long long)(p->head_dim_v ? p->head_dim_v : p->head_dim));
            blackwell_overlapped(pf, 0.0); /* FA4's tiles, no exp2 emulation */
            pf->mma_fraction = RL_FIT_CUDNN_SM100_MMA; /* fitted on GB300, where the MMA binds */
            blackwell_fill(p, pf);
            return RL_OK;
        }
        if (hw->sm_arch != 90)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel cudnn models cuDNN's fused SDPA on Hopper (sm_90) and "
                            "Blackwell (sm_100, sm_103); preset %s is %s",
                            hw->id, hw->arch);
        if (fp32)
            return no_dtype(k, p, "cuDNN's fused flash SDPA runs fp16, bf16 and fp8; use "
                                  "--kernel standard for fp32", err);
        if (bwd && p->dtype == RL_DTYPE_FP8)
            return no_dtype(k, p, "the cudnn profile has no fp8 backward (no published point)",
                            err);
        return fa3_profile(p, pf, bwd, err); /* on Hopper, FA3's mechanism */
    case RL_KERNEL_FA3:
        if (hw->sm_arch != 90)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel fa3 needs a Hopper GPU (sm_90: wgmma, TMA); preset %s is %s",
                            hw->id, hw->arch);
        if (fp32)
            return no_dtype(k, p, "FlashAttention-3 runs fp16, bf16 and fp8 e4m3 "
                                  "(hopper/flash_api.cpp); use --kernel standard for fp32", err);
        if (p->kv_lora_rank > 0 && (p->dtype == RL_DTYPE_FP8 || p->kv_dtype != p->dtype))
            return rl__fail(err, RL_ERR_UNSUPPORTED, p->dtype == RL_DTYPE_FP8 ? "dtype" : "kv-dtype",
                            "--kernel fa3 runs absorbed MLA (head dim 64 + head_dim_v 512) in "
                            "fp16/bf16 with the cache in the query's dtype (hopper/tile_size.h has "
                            "no 1-byte tile for it)");
        if (bwd && p->dtype == RL_DTYPE_FP8)
            return no_dtype(k, p, "FlashAttention-3 has no fp8 backward (hopper/flash_api.cpp "
                                  "mha_bwd takes fp16 and bf16 only)", err);
        return fa3_profile(p, pf, bwd, err);
    case RL_KERNEL_FLASHINFER:
        if (need_decode(p, k, err) != RL_OK) return RL_ERR_UNSUPPORTED;
        if (p->head_dim > 256) return no_tile(k, p->head_dim, err);
        if ((spec->cores == RL_CORES_CUDA || spec->cores == RL_CORES_CUDA_SINGLE) && p->seq != 1)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "cores",
                            "--cores cuda: FlashInfer's CUDA-core decode runs one query per request "
                            "(N = 1); N = %lld runs the tensor-core kernel",
                            (long long)p->seq);
        if (spec->cores == RL_CORES_CUDA_SINGLE && p->batch != 1)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "cores",
                            "--cores cuda-single: single_decode_with_kv_cache decodes one request "
                            "(B = 1); B = %lld runs the batch decode (--cores cuda)",
                            (long long)p->batch);
        if (spec->cores == RL_CORES_CUDA || spec->cores == RL_CORES_CUDA_SINGLE) {
            const int64_t g = p->heads / p->kv_heads;
            if (g != 1 && g != 2 && g != 3 && g != 4 && g != 8)
                return rl__fail(err, RL_ERR_UNSUPPORTED, "cores",
                                "--cores cuda: FlashInfer's CUDA-core decode is compiled for groups "
                                "of 1, 2, 3, 4 or 8 query heads per KV head "
                                "(DISPATCH_GQA_GROUP_SIZE); H/Hkv = %lld",
                                (long long)g);
        }
        flashinfer_profile(p, hw, spec->cores, pf);
        return RL_OK;
    case RL_KERNEL_FLASH_DECODING:
        if (need_decode(p, k, err) != RL_OK) return RL_ERR_UNSUPPORTED;
        if (hw->sm_arch < 80)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel flash-decoding is FlashAttention-2's split-KV kernel: sm_80 "
                            "or newer (the FlashAttention README); preset %s is %s",
                            hw->id, hw->arch);
        if (p->head_dim > 256) return no_tile(k, p->head_dim, err);
        if (p->dtype == RL_DTYPE_FP8 || fp32)
            return no_dtype(k, p, "Flash-Decoding is FlashAttention-2's split-KV kernel, fp16 "
                                  "and bf16 only (flash_api.cpp)", err);
        /* mha_fwd_kvcache: the split-KV kernel always (force_split_kernel), FA2's heuristic,
         * the group swapped into the rows at N = 1. */
        pf->split_rule = RL_SPLIT_FA2;
        pf->split_block_m = 64;
        pf->split_block_n = fa2_split_block_n(p->head_dim);
        pf->pack_n1 = 1;
        pf->head_major = 1;
        pf->mma_fraction = hw->sm_arch >= 90 ? RL_FIT_MMA_SYNC_SM90 : 1.0;
        pf->smem_roof = 1;
        pf->dram_fraction = RL_FIT_SPLITKV_DRAM;
        splitkv_tile(p, pf);
        return RL_OK;
    case RL_KERNEL_STANDARD:
        pf->materialised = 1;
        pf->dram_fraction = RL_FIT_EAGER_DRAM;
        pf->block_m = p->block_m;
        pf->block_n = p->block_n;
        /* eager kernels: forward bmm, softmax (+ masked_fill when causal), bmm; backward four
         * bmm and the softmax backward (+ the mask's backward when causal) */
        pf->kernels = bwd ? 5 + p->causal : 3 + p->causal;
        return RL_OK;
    case RL_KERNEL_FA4:
        if (hw->sm_arch != 100 && hw->sm_arch != 103)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel fa4 is FlashAttention-4's Blackwell datacenter kernel "
                            "(sm_100/sm_103: tcgen05, TMEM; flash_attn/cute/flash_fwd_sm100.py); "
                            "preset %s is %s",
                            hw->id, hw->arch);
        if (p->dtype != RL_DTYPE_FP16 && p->dtype != RL_DTYPE_BF16)
            return no_dtype(k, p, "the fa4 profile models FlashAttention-4's fp16/bf16 forward "
                                  "(flash_fwd_sm100.py); its fp8 path is not modelled", err);
        if (bwd) return blackwell_bwd(p, k, pf, err);
        if (!(p->head_dim <= 128 || (p->head_dim == 192 && p->head_dim_v == 128)))
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel fa4 has no tile for head dim %lld (flash_fwd_sm100.py runs "
                            "d <= 128 and d_qk 192 with d_v 128; d = 256 is a separate 2-CTA "
                            "kernel, not modelled)",
                            (long long)p->head_dim);
        /* flash_fwd_sm100.py: m_block_size = n_block_size = 128, q_stage = 2 (two Q tiles per
         * CTA whose softmax warpgroups take turns with the MMA warp), 16 warps (2 softmax
         * warpgroups, 1 correction warpgroup, MMA, load, epilogue, empty), 1 CTA per SM (its
         * TMEM and shared memory), a persistent tile scheduler (LPT order when causal); no
         * split-KV by default (interface.py num_splits = 1). */
        pf->gqa_packed = p->seq <= 16 && p->heads > p->kv_heads; /* pack_gqa for decode */
        blackwell_overlapped(pf, hw->sm_arch == 103 ? 0.0 : fa4_ex2_share(p, pf->gqa_packed));
        blackwell_fill(p, pf);
        return RL_OK;
    case RL_KERNEL_FLASHMLA: {
        if (hw->sm_arch != 90)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "--kernel flashmla models FlashMLA's dense decode, an sm_90 kernel "
                            "(FlashMLA README, support matrix); preset %s is %s",
                            hw->id, hw->arch);
        if (need_decode(p, k, err) != RL_OK) return RL_ERR_UNSUPPORTED;
        if (p->topk && (p->dtype != RL_DTYPE_BF16 || p->kv_dtype != RL_DTYPE_FP8))
            return rl__fail(err, RL_ERR_UNSUPPORTED, p->dtype != RL_DTYPE_BF16 ? "dtype" : "kv-dtype",
                            "--kernel flashmla --topk is FlashMLA's sparse decode: an FP8 cache "
                            "(656 B per token) and bf16 MMAs (FlashMLA README): give --dtype bf16 "
                            "--kv-dtype fp8; got dtype %s, kv-dtype %s",
                            rl_dtype_name(p->dtype), rl_dtype_name(p->kv_dtype));
        if (!p->topk &&
            ((p->dtype != RL_DTYPE_FP16 && p->dtype != RL_DTYPE_BF16) || p->kv_dtype != p->dtype))
            return rl__fail(err, RL_ERR_UNSUPPORTED, p->kv_dtype != p->dtype ? "kv-dtype" : "dtype",
                            "--kernel flashmla: the dense decode reads a BF16/FP16 cache in the "
                            "query's dtype (FlashMLA README: the FP8 cache is its sparse decode, "
                            "--topk); got dtype %s, kv-dtype %s",
                            rl_dtype_name(p->dtype), rl_dtype_name(p->kv_dtype));
        /* csrc/sm90 decode (the 2025-04 kernel, docs/20250422-new-kernel-deep-dive.md): a 64-row
         * tile of the h_q·s_q rows of one sequence (the query heads share the latent), K blocks
         * of 64 tokens (the page block), 3 warpgroups (2 consumers in seesaw, 1 producer); the
         * 64 x 512 fp32 output takes 32,768 of the 65,536 registers: 1 CTA per SM. */
        pf->block_m = 64;
        pf->block_n = 64;
        pf->warps = 12;
        pf->ctas_per_sm = 1;
        pf->gqa_packed = 1;
        pf->pack_causal = 1;
        pf->head_major = 1;
        pf->exp_serialised = 0;
        pf->softmax_overlap = 1;
        /* The blog: "up to 80 % Tensor Core utilization (of the throttled theoretical peak)",
         * the H800 throttled to ~1600 MHz: ~865 of 990 TFLOP/s. Both are published figures of
         * the kernel, not fitted here (0.80 · 1600/1830 = 0.70 of the h100-sxm preset's peak;
         * the README's "up to 660 TFLOPS" is 0.67). */
        pf->mma_fraction = 0.80;
        /* The throttling is power: a full-rate Hopper tensor core (4096 FLOP/SM/clock at the
         * preset's clock: H800, H100, H200 SXM) under this load runs at ~1600 MHz; a preset whose
         * tensor rate is capped below that (H20: ~1024 FLOP/SM/clock) is taken as unthrottled. */
        const double per_sm_clock = hw->peak_flops_per_s[RL_PEAK_FP16_TENSOR] /
                                    ((double)hw->sm_count * hw->sm_clock_hz);
        if (per_sm_clock > 0.9 * 4096.0 && hw->sm_clock_hz > FLASHMLA_THROTTLED_HZ)
            pf->mma_fraction *= FLASHMLA_THROTTLED_HZ / hw->sm_clock_hz;
        pf->balanced = 1;
        /* Sparse decode (--topk, FP8 cache dequantised to bf16 on the CUDA cores before the
         * MMAs): the README's compute-bound figures on one GPU, 410 TFLOPS sparse against 660
         * dense, scale the dense rate (not fitted here). Its splits count each (sequence, query
         * token) as a sequence of min(K, L) keys. */
        if (p->topk) pf->mma_fraction *= 410.0 / 660.0;
        /* README: 3000 GB/s memory-bound on an H800 SXM5 (3.35 TB/s). */
        pf->dram_fraction = 3000.0 / 3350.0;
        pf->split_rule = RL_SPLIT_MLA;
        return RL_OK;
    }
    default:
        return rl__fail(err, RL_ERR_UNKNOWN, "kernel", "unknown kernel profile %d", (int)k);
    }
}

/* FA2's num_splits heuristic (flash_api.cpp, num_splits_heuristic called by set_params_splitkv
 * with 2 · SMs and at most 128 splits): one split when `units` = batch · heads · query blocks
 * fill 80 % of the slots; otherwise, among split counts s ≤ min(128, slots, key blocks) whose
 * ⌈blocks/s⌉ differs from ⌈blocks/(s−1)⌉, the smallest whose wave efficiency
 * (units·s/slots) / ⌈units·s/slots⌉ reaches 85 % of the best. FA3 (hopper/heuristics.h) is the
 * same with slots = SMs, no eligibility test, and one split when there are at most 4 key blocks
 * (or, past 80 %, ⌈K/V head bytes / 50 MiB⌉ splits when one K/V head exceeds 50 MiB, with
 * 2 · SMs query blocks, non-causal). */
static int64_t wave_split_rule(double units, double slots, int64_t key_blocks, int fa3) {
    if (units >= 0.8 * slots) return 1;
    if (fa3 && key_blocks <= 4) return 1;
    int64_t max_s = 128;
    if ((double)max_s > slots) max_s = (int64_t)slots;
    if (max_s > key_blocks) max_s = key_blocks;
    if (max_s < 1) return 1;
    double best = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t s = 1; s <= max_s; s++) {
            int eligible = fa3 || s == 1 ||
                           (key_blocks + s - 1) / s != (key_blocks + s - 2) / (s - 1);
            if (!eligible) continue;
            double waves = (double)(float)(units * (double)s / slots);
            double eff = waves / ceil(waves);
            if (pass == 0 && eff > best) best = eff;
            if (pass == 1 && eff >= 0.85 * best) return s;
        }
    }
    return 1;
}

/* FlashInfer's rule (scheduler.cuh: BatchDecodeWithPagedKVCacheWorkEstimationDispatched and
 * PrefillBinarySearchKVChunkSize): with `tiles` = batch · KV heads · query tiles CTAs, no split
 * when they fill max_grid; otherwise the smallest KV chunk (pages of 16 tokens, at least 128
 * tokens) with tiles · ⌈L / chunk⌉ ≤ max_grid; split when that chunk is shorter than L. */
static int64_t fill_split_rule(double tiles, double max_grid, int64_t kv_len, int64_t page,
                               int64_t *chunk_keys) {
    /* the chunk is counted in pages of the cache (16 tokens taken for a contiguous one), at
     * least min_kv_chunk_size = max(128 / page_size, 1) pages (scheduler.cuh) */
    const int64_t min_chunk = 128 / page > 1 ? 128 / page : 1;
    const int64_t pages = (kv_len + page - 1) / page;
    *chunk_keys = pages * page;
    if (tiles >= max_grid) return 1;
    const double s_max = floor(max_grid / tiles);
    int64_t chunk = (int64_t)ceil((double)pages / s_max);
    if (chunk < min_chunk) chunk = min_chunk;
    *chunk_keys = chunk * page;
    return (pages + chunk - 1) / chunk;
}

/* The same rule over a ragged batch (scheduler.cuh: search_kv_chunk_size, a binary search for
 * the smallest chunk of at least min_kv_chunk_size pages with Σ_i tiles_i · ⌈pages_i / chunk⌉ ·
 * Hkv ≤ max grid; none: the longest sequence's pages, no split). `tiles_per_seq`: the query tiles
 * and heads of one sequence (packed: Hkv · ⌈G·N / Br⌉). Returns the splits of the longest. */
static int64_t fill_split_rule_ragged(const rl_kv_lens *lens, double tiles_per_seq,
                                      double max_grid, int64_t page, int64_t *chunk_keys) {
    const int64_t min_chunk = 128 / page > 1 ? 128 / page : 1;
    int64_t max_pages = 0;
    for (int g = 0; g < lens->n; g++) {
        const int64_t pg = (lens->pair[g].len + page - 1) / page;
        if (pg > max_pages) max_pages = pg;
    }
    int64_t lo = min_chunk < max_pages ? min_chunk : max_pages, hi = max_pages;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        double ctas = 0;
        for (int g = 0; g < lens->n; g++) {
            const int64_t pg = (lens->pair[g].len + page - 1) / page;
            ctas += (double)lens->pair[g].count * tiles_per_seq * (double)((pg + mid - 1) / mid);
        }
        if (ctas <= max_grid) hi = mid;
        else lo = mid + 1;
    }
    *chunk_keys = lo * page;
    return (max_pages + lo - 1) / lo;
}

/* The generic profile's tile when the problem's Br × Bc exceeds the preset's opt-in shared
 * memory per block (d = 128 on V100's 96 KiB or MI300X's 64 KiB LDS) and the caller named no
 * tile: what a real kernel's dispatch does — FlashAttention-2 picks a smaller tile where shared
 * memory is short (flash_fwd_launch_template.h, run_mha_fwd_hdim*: a narrower key tile on sm86/89
 * when max_smem_per_block is below the large tile's need). Among the tile-search candidates
 * (rl_tune's Br, Bc in 16 … 256) no larger than the problem's tile, the largest Br · Bc that
 * fits; ties go to the larger Br (fewer K/V re-reads). Returns 0 when none fits. */
static int fit_tile(rl_problem *tile, const rl_hw *hw, rl_profile *pf) {
    static const int64_t sizes[] = {256, 128, 64, 32, 16};
    int64_t best_m = 0, best_n = 0;
    for (size_t i = 0; i < 5; i++) {
        for (size_t j = 0; j < 5; j++) {
            if (sizes[i] > pf->block_m || sizes[j] > pf->block_n) continue;
            if (sizes[i] * sizes[j] <= best_m * best_n) continue;
            rl_problem c = *tile;
            c.block_m = sizes[i];
            c.block_n = sizes[j];
            if (!rl_sram_budget(&c, hw).fits_optin) continue;
            best_m = sizes[i];
            best_n = sizes[j];
        }
    }
    if (best_m == 0) return 0;
    pf->block_m = tile->block_m = best_m;
    pf->block_n = tile->block_n = best_n;
    return 1;
}

/* A sliding window under a split rule that cuts all L keys (FA2's split-KV kernel,
 * flash_fwd_kernel.h compute_attn_1rowblock_splitkv: n_blocks_per_split = ⌈⌈L/Bc⌉ / splits⌉,
 * each split's range then clipped to the local mask's n_block_min, an empty range returning at
 * once; FlashInfer's KV chunks, assumed to do the same): only the splits whose chunk meets the
 * window [L − N − W + 1, L − 1] do work. FA3 splits the window's own blocks (hopper/block.h:
 * the n_block range after the local clip is what num_splits divides) and is left alone. Returns
 * the splits that work: the CTAs that set the time (generic's sinks, S ≤ a chunk's keys, add a
 * short CTA on chunk 0 that does not: their K/V bytes are counted, their CTA is not). */
static int64_t window_working_splits(const rl_problem *p, const rl_profile *pf) {
    const int64_t chunk = pf->chunk_keys > 0 ? pf->chunk_keys : p->kv_len; /* keys per split */
    int64_t first = p->kv_len - p->seq - p->window + 1;
    if (first < 0) first = 0;
    const int64_t working = (p->kv_len - 1) / chunk - first / chunk + 1;
    return working < pf->splits ? working : pf->splits;
}

rl_status rl__profile_resolve(const rl_problem *p, const rl_hw *hw, const rl_kernel_spec *spec,
                              rl_profile *pf, rl_error *err) {
    rl_status s = base_profile(p, hw, spec, pf, err);
    if (s != RL_OK) return s;
    const double G = (double)(p->heads / p->kv_heads);
    if (spec->block_m > 0) pf->block_m = spec->block_m;
    if (spec->block_n > 0) pf->block_n = spec->block_n;
    /* a decode tile of 16 rows (FlashInfer's 1 × 4 warp layout): the warps split the keys */
    if (pf->kernel == RL_KERNEL_GENERIC && pf->split_rule == RL_SPLIT_FILL)
        pf->warps_along_keys = pf->block_m <= 16;
    if (pf->pack_n1) pf->gqa_packed = p->seq == 1 && G > 1;
    if (spec->gqa_pack == RL_PACK_PACKED) pf->gqa_packed = 1;
    if (spec->gqa_pack == RL_PACK_PER_HEAD) {
        pf->gqa_packed = 0;
        if (pf->kernel == RL_KERNEL_GENERIC) { /* FA2's grid (m_block, batch, head) */
            pf->head_major = 0;
            if (spec->splits == 0) pf->split_rule = RL_SPLIT_NONE;
        }
    }
    if (pf->kernel == RL_KERNEL_GENERIC && spec->splits > 0 && spec->gqa_pack == RL_PACK_DEFAULT &&
        p->seq > 16)
        pf->gqa_packed = 0;
    if (pf->kernel == RL_KERNEL_GENERIC || spec->ctas_per_sm > 0 || pf->ctas_per_sm == 0) {
        rl_problem tile = *p;
        tile.block_m = pf->block_m;
        tile.block_n = pf->block_n;
        rl_sram sram = rl_sram_budget(&tile, hw);
        if (!sram.fits_optin && !pf->materialised && pf->kernel == RL_KERNEL_GENERIC &&
            spec->block_m == 0 && spec->block_n == 0 && fit_tile(&tile, hw, pf)) {
            pf->tile_fitted = 1;
            sram = rl_sram_budget(&tile, hw);
            if (pf->split_rule == RL_SPLIT_FILL) pf->warps_along_keys = pf->block_m <= 16;
        }
        if (!sram.fits_optin && !pf->materialised)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "a %lld x %lld tile needs %.0f B of shared memory; preset %s allows %.0f "
                            "B per block",
                            (long long)pf->block_m, (long long)pf->block_n, sram.total_bytes, hw->id,
                            sram.limit_optin_bytes);
        double fit = sram.total_bytes > 0 ? hw->smem_per_sm_bytes / sram.total_bytes : 1;
        pf->ctas_per_sm = fit >= 1 ? (int64_t)fit : 1;
        if (pf->ctas_per_sm > 8) pf->ctas_per_sm = 8; /* four-warp CTAs: 32 warps fill an SM */
    }
    if (spec->ctas_per_sm > 0) pf->ctas_per_sm = spec->ctas_per_sm;
    if (pf->split_rule == RL_SPLIT_FILL && pf->max_grid == 0)
        pf->max_grid = pf->ctas_per_sm * hw->sm_count;
    pf->splits = 1;
    if (spec->splits > 0) {
        pf->splits = spec->splits;
    } else if (pf->split_rule == RL_SPLIT_FA2) {
        const double rows = pf->gqa_packed ? G * (double)p->seq : (double)p->seq;
        const double units = (double)p->batch * (double)(pf->gqa_packed ? p->kv_heads : p->heads) *
                             ceil(rows / (double)pf->split_block_m);
        const int64_t key_blocks = (p->kv_len + pf->split_block_n - 1) / pf->split_block_n;
        pf->splits = wave_split_rule(units, 2.0 * hw->sm_count, key_blocks, 0);
    } else if (pf->split_rule == RL_SPLIT_FA3) {
        const double q_blocks = ceil(G * (double)p->seq / (double)pf->split_block_m);
        const double units = (double)p->batch * (double)p->kv_heads * q_blocks;
        /* hopper/flash_api.cpp get_num_splits: "If is_local, we're not going to load all of
         * seqlen_k": seqlen_k_loaded = min(L, window_size_left + window_size_right + 1 + Br),
         * W + Br here (left W − 1, right 0) */
        int64_t loaded = p->kv_len;
        if (p->window && p->window + pf->split_block_m < loaded) loaded = p->window + pf->split_block_m;
        const int64_t key_blocks = (loaded + pf->split_block_n - 1) / pf->split_block_n;
        const double head_bytes = (double)p->kv_len * 2.0 * (double)p->head_dim *
                                  rl_dtype_bytes(p->kv_dtype), l2 = 50.0 * 1024 * 1024;
        if (units >= 0.8 * hw->sm_count && head_bytes > l2 && q_blocks >= 2.0 * hw->sm_count &&
            !p->causal) {
            pf->splits = (int64_t)ceil(head_bytes / l2);
            if (pf->splits > 128) pf->splits = 128;
        } else {
            pf->splits = wave_split_rule(units, (double)hw->sm_count, key_blocks, 1);
        }
    } else if (pf->split_rule == RL_SPLIT_SINGLE) {
        /* SingleDecodeWithKVCacheDispatched: one chunk when L <= 256; else chunks of
         * max(⌈L / (max grid / Hkv)⌉, 256) keys, MergeStates after */
        if (p->kv_len > 256) {
            int64_t per_head = pf->max_grid / p->kv_heads;
            if (per_head < 1) per_head = 1;
            int64_t chunk = (p->kv_len + per_head - 1) / per_head;
            if (chunk < 256) chunk = 256;
            pf->splits = (p->kv_len + chunk - 1) / chunk;
        }
    } else if (pf->split_rule == RL_SPLIT_MLA) {
        /* get_mla_metadata: num_sm_parts = SMs / Hkv / ⌈h_q·s_q / 64⌉ parts, the tile scheduler
         * deals every sequence's 64-key blocks out evenly over them; a sequence spans about
         * parts / B of them: ⌊parts / B⌋ splits, at least 1 (a combine kernel when split). */
        const int64_t q_tiles = (int64_t)ceil(G * (double)(p->topk ? 1 : p->seq) /
                                              (double)pf->block_m);
        int64_t parts = hw->sm_count / p->kv_heads / (q_tiles > 0 ? q_tiles : 1);
        if (parts < 1) parts = 1;
        pf->splits = parts / (p->batch * (p->topk ? p->seq : 1));
        if (pf->splits < 1) pf->splits = 1;
    } else if (pf->split_rule == RL_SPLIT_SM100_DECODE) {
        /* trtllm-gen computeNumCtas: min(key tiles, max(1, SMs / (B · head tiles))), the head
         * tiles H / min(G, tileSizeQ) = Hkv · ceil(G / tileSizeQ) (N = 1: one CTA per sequence) */
        const double ctas = (double)p->batch * (double)p->kv_heads *
                            ceil(G * (double)p->seq / (double)pf->block_m);
        int64_t per_seq = (int64_t)floor((double)hw->sm_count / ctas);
        if (per_seq < 1) per_seq = 1;
        const int64_t key_tiles = (p->kv_len + pf->split_block_n - 1) / pf->split_block_n;
        pf->splits = per_seq < key_tiles ? per_seq : key_tiles;
        pf->chunk_keys = ((key_tiles + pf->splits - 1) / pf->splits) * pf->split_block_n;
    } else if (pf->split_rule == RL_SPLIT_FILL) {
        const double rows = pf->gqa_packed ? G * (double)p->seq : (double)p->seq;
        const double tiles = (double)p->batch * (double)(pf->gqa_packed ? p->kv_heads : p->heads) *
                             ceil(rows / (double)pf->block_m);
        const int64_t page = p->page_size ? p->page_size : 16;
        if (p->kv_lens.n)
            pf->splits = fill_split_rule_ragged(&p->kv_lens, tiles / (double)p->batch,
                                                (double)pf->max_grid, page, &pf->chunk_keys);
        else
            pf->splits = fill_split_rule(tiles, (double)pf->max_grid, p->kv_len, page,
                                         &pf->chunk_keys);
    }
    if (pf->split_rule == RL_SPLIT_FA2 && spec->splits == 0) /* n_blocks_per_split */
        pf->chunk_keys = (((p->kv_len + pf->split_block_n - 1) / pf->split_block_n + pf->splits - 1) /
                          pf->splits) * pf->split_block_n;
    if (pf->split_rule != RL_SPLIT_FA2 && pf->split_rule != RL_SPLIT_FILL &&
        pf->split_rule != RL_SPLIT_SM100_DECODE)
        pf->chunk_keys = 0;
    if (pf->pack_rule) {
        /* should_pack_gqa: N / round_up(N, Br) < 0.9 · G·N / round_up(G·N, Br); always split */
        const double br = (double)pf->block_m, n = (double)p->seq, gn = G * n;
        const int pack = n / (ceil(n / br) * br) < 0.9 * gn / (ceil(gn / br) * br);
        if (spec->gqa_pack == RL_PACK_DEFAULT)
            pf->gqa_packed = G > 1 && (pack || pf->splits > 1 || pf->paged_non_tma);
    }
    if (pf->split_tile && pf->splits > 1 && spec->block_m == 0 && spec->block_n == 0) {
        splitkv_tile(p, pf); /* FA2's split-KV kernel, as flash-decoding */
        pf->dram_fraction = RL_FIT_SPLITKV_DRAM;
    }
    if (pf->splits > 1) pf->kernels += 1; /* the combine kernel */
    if (p->window && pf->splits > 1 && pf->split_rule != RL_SPLIT_FA3 && spec->splits == 0 &&
        !p->kv_lens.n)
        pf->splits = window_working_splits(p, pf);
    return RL_OK;
}
