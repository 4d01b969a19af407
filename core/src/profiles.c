/* profiles.c — kernel profiles: how a real kernel runs attention (its tile per head dim and dtype,
 * CTAs per SM, scheduling, GQA packing, split-KV rule, exp and MMA behaviour, fixed floor).
 * Constants come from the kernels' public launch templates and papers, cited per profile; the
 * few fitted constants say which published point they were fitted on (DESIGN.md "Predicted time").
 */
#include <string.h>

#include "internal.h"
#include "profiles.h"

/* Fitted constants. Each was fitted on ONE published point (data/published/) and is checked by
 * tests/unit/test_predict.c against that point; every other published point is a prediction.
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
 * RL_FIT_DECODE_FLOOR_S — split-KV decode's fixed floor (the split kernel's launch and the
 *   combine kernel). Fitted on Flash-Decoding, A100, B = 256, H = 16, Hkv = 2, d = 128,
 *   L = 256: 63.4 µs (PyTorch blog "Flash-Decoding for long-context inference", 2023-10).
 * RL_FIT_EAGER_DRAM — the fraction of the datasheet DRAM bandwidth PyTorch eager's elementwise
 *   and GEMM-epilogue traffic reaches for materialised S and P. Fitted on standard attention,
 *   H100 SXM, fp16, d = 128, B = 4, H = 16, N = 4096, non-causal: 133 TFLOP/s (FA3 paper,
 *   Fig. 5(c)). */
#define RL_FIT_OVERLAP_P 1.6331
#define RL_FIT_MMA_SYNC_SM90 0.4783
#define RL_FIT_BWD_MMA_FA3 0.6709
#define RL_FIT_BWD_MMA_FA2 0.3601
#define RL_FIT_DECODE_FLOOR_S 2.017e-05
#define RL_FIT_EAGER_DRAM 0.6716

static const char *const kernel_names[RL_KERNEL_COUNT] = {
    [RL_KERNEL_GENERIC] = "generic",       [RL_KERNEL_FA2] = "fa2",
    [RL_KERNEL_FA3] = "fa3",               [RL_KERNEL_FLASHINFER] = "flashinfer",
    [RL_KERNEL_FLASH_DECODING] = "flash-decoding", [RL_KERNEL_STANDARD] = "standard",
};

static const char *const kernel_descriptions[RL_KERNEL_COUNT] = {
    [RL_KERNEL_GENERIC] = "a FlashAttention-style forward with the problem's tile (--block-m, "
                          "--block-n), CTAs per SM from the SRAM budget, per-head K/V unless "
                          "--gqa-pack packed, exp serialised with the MMA at the full tensor peak",
    [RL_KERNEL_FA2] = "FlashAttention-2 v2.5 (csrc/flash_attn/src/flash_fwd_launch_template.h): "
                      "mma.sync, 4 or 8 warps of 16-32 query rows, 2 CTAs/SM (1 at d = 256), "
                      "launch order (m_block fastest), exp serialised",
    [RL_KERNEL_FA3] = "FlashAttention-3 (hopper/flash_fwd_launch_template.h): wgmma + TMA, "
                      "1 CTA/SM, persistent tile scheduler (longest causal tiles first), "
                      "Hopper only; the exp serialised with the MMA (FA3 paper §3.1)",
    [RL_KERNEL_FLASHINFER] = "FlashInfer batch decode: the query heads of a GQA group packed "
                             "into one tile, K/V read once per KV head, split-KV to fill the "
                             "SMs; decode only (N = 1)",
    [RL_KERNEL_FLASH_DECODING] = "Flash-Decoding (FlashAttention-2 splitkv kernel): Br = 64, "
                                 "Bc = 256/128/64 by head dim, the GQA group swapped into the "
                                 "query rows, FA2's num_splits heuristic, a combine kernel; "
                                 "decode only (N = 1)",
    [RL_KERNEL_STANDARD] = "S and P materialised as PyTorch eager does: a batched GEMM writes S, "
                           "a softmax reads S and writes P (a mask pass more when causal), a "
                           "second GEMM reads P",
};

const char *rl_kernel_name(rl_kernel k) {
    return (int)k >= 0 && k < RL_KERNEL_COUNT ? kernel_names[k] : "unknown";
}

const char *rl_kernel_description(rl_kernel k) {
    return (int)k >= 0 && k < RL_KERNEL_COUNT ? kernel_descriptions[k] : "";
}

rl_status rl_kernel_parse(const char *text, const char *field, rl_kernel *out, rl_error *err) {
    for (int k = 0; k < RL_KERNEL_COUNT; k++) {
        if (text && strcmp(text, kernel_names[k]) == 0) {
            if (out) *out = (rl_kernel)k;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_UNKNOWN, field,
                    "unknown kernel profile \"%.*s\"; expected one of generic, fa2, fa3, "
                    "flashinfer, flash-decoding, standard",
                    RL__QUOTE(text ? text : "", 40));
}

rl_status rl_gqa_pack_parse(const char *text, const char *field, rl_gqa_pack *out, rl_error *err) {
    static const char *const names[] = {"", "packed", "per-head"}; /* rl_gqa_pack order */
    for (int k = 0; k < 3; k++) {
        if (text && strcmp(text, names[k]) == 0) {
            if (out) *out = (rl_gqa_pack)k;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_INVALID, field, "expected packed or per-head, got \"%.*s\"",
                    RL__QUOTE(text ? text : "", 48));
}

const char *rl_term_name(rl_term t) {
    static const char *const names[RL_TERM_COUNT] = {"mma", "tiles", "exp", "waves", "memory",
                                                     "floor"};
    return (int)t >= 0 && t < RL_TERM_COUNT ? names[t] : "unknown";
}

const char *rl_level_name(rl_level level) {
    return level == RL_LEVEL_L2 ? "l2" : level == RL_LEVEL_DRAM ? "dram" : "unknown";
}

/* ---------------------------------------------------------------------------------------------
 * Tiles per profile
 * ------------------------------------------------------------------------------------------- */

static rl_status no_tile(rl_kernel k, int64_t d, rl_error *err) {
    return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                    "profile %s has no tile for head dim %lld (it runs d <= 256)",
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
    pf->warps = 4 + (int)pf->block_m / 16;
    pf->ctas_per_sm = 1;
    return RL_OK;
}

/* FA2's split-KV kernel (flash_fwd_launch_template.h, run_mha_fwd_splitkv_dispatch): Br = 64,
 * Bc = 256 for d <= 64, 128 for d <= 128, 64 above; 4 warps. */
static rl_status splitkv_tile(const rl_problem *p, rl_profile *pf, rl_error *err) {
    const int64_t d = p->head_dim;
    if (d > 256) return no_tile(pf->kernel, d, err);
    pf->block_m = 64;
    pf->block_n = d <= 64 ? 256 : d <= 128 ? 128 : 64;
    pf->warps = 4;
    pf->ctas_per_sm = 2;
    return RL_OK;
}

static rl_status need_decode(const rl_problem *p, rl_kernel k, rl_error *err) {
    if (p->seq != 1)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                        "profile %s is a decode kernel: it needs --seq 1 (one new query row), "
                        "got seq %lld",
                        rl_kernel_name(k), (long long)p->seq);
    if (p->pass != RL_PASS_FWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel", "profile %s has no backward pass",
                        rl_kernel_name(k));
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Profile resolution: the profile's choices, then the caller's spec on top
 * ------------------------------------------------------------------------------------------- */

static rl_status base_profile(const rl_problem *p, const rl_hw *hw, rl_kernel k, rl_profile *pf,
                              rl_error *err) {
    memset(pf, 0, sizeof *pf);
    pf->kernel = k;
    pf->mma_fraction = 1.0;
    pf->bwd_mma_fraction = 1.0;
    pf->exp_serialised = 1;
    pf->dram_fraction = 1.0;
    pf->overlap_p = RL_FIT_OVERLAP_P;
    switch (k) {
    case RL_KERNEL_GENERIC:
        /* FA2-like: 4 warps share the query rows, operands from shared memory per warp. */
        pf->block_m = p->block_m;
        pf->block_n = p->block_n;
        pf->warps = 4;
        pf->smem_roof = 1;
        pf->rescale_serialised = 1;
        return RL_OK;
    case RL_KERNEL_FA2:
        pf->mma_fraction = hw->sm_arch >= 90 ? RL_FIT_MMA_SYNC_SM90 : 1.0;
        pf->bwd_mma_fraction = RL_FIT_BWD_MMA_FA2 / RL_FIT_MMA_SYNC_SM90 * pf->mma_fraction;
        pf->smem_roof = 1;
        return fa2_tile(p, pf, err);
    case RL_KERNEL_FA3:
        if (hw->sm_arch != 90)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "profile fa3 needs a Hopper GPU (sm_90: wgmma, TMA); preset %s is %s",
                            hw->id, hw->arch);
        pf->persistent = 1;
        pf->bwd_mma_fraction = RL_FIT_BWD_MMA_FA3;
        /* fp8: wgmma wants V K-major, so the producer warpgroup transposes every V tile in
         * shared memory (LDSM/STSM) before the consumers may use it (FA3 paper, §3.3): loads no
         * longer run ahead of the MMA and DRAM time adds to compute (p = 1, no overlap). */
        if (p->dtype == RL_DTYPE_FP8) pf->overlap_p = 1.0;
        return fa3_tile(p, pf, err);
    case RL_KERNEL_FLASHINFER:
    case RL_KERNEL_FLASH_DECODING:
        if (need_decode(p, k, err) != RL_OK) return RL_ERR_UNSUPPORTED;
        pf->gqa_packed = 1;
        pf->split_rule = 1;
        pf->floor_s = RL_FIT_DECODE_FLOOR_S;
        return splitkv_tile(p, pf, err);
    case RL_KERNEL_STANDARD:
        if (p->pass != RL_PASS_FWD)
            return rl__fail(err, RL_ERR_UNSUPPORTED, "kernel",
                            "profile standard models the forward pass only");
        pf->materialised = 1;
        pf->dram_fraction = RL_FIT_EAGER_DRAM;
        pf->block_m = p->block_m;
        pf->block_n = p->block_n;
        return RL_OK;
    default:
        return rl__fail(err, RL_ERR_UNKNOWN, "kernel", "unknown kernel profile %d", (int)k);
    }
}

/* FA2's num_splits heuristic (flash_api.cpp, set_params_splitkv), as a rule: with
 * `units` = batch · heads · query blocks CTAs and `slots` = 2 · SMs, one split when units already
 * fill 80 % of the slots; otherwise, among split counts s ≤ min(128, slots, key blocks) whose
 * ⌈blocks/s⌉ differs from ⌈blocks/(s−1)⌉, the smallest whose wave efficiency
 * (units·s/slots) / ⌈units·s/slots⌉ reaches 85 % of the best. */
static int64_t split_rule(double units, double slots, int64_t key_blocks) {
    if (units >= 0.8 * slots) return 1;
    int64_t max_s = 128;
    if ((double)max_s > slots) max_s = (int64_t)slots;
    if (max_s > key_blocks) max_s = key_blocks;
    if (max_s < 1) return 1;
    double best = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t s = 1; s <= max_s; s++) {
            int eligible = s == 1 || (key_blocks + s - 1) / s != (key_blocks + s - 2) / (s - 1);
            if (!eligible) continue;
            double waves = units * (double)s / slots;
            double eff = waves / (double)(int64_t)(waves + 0.999999999);
            if (pass == 0 && eff > best) best = eff;
            if (pass == 1 && eff >= 0.85 * best) return s;
        }
    }
    return 1;
}

rl_status rl__profile_resolve(const rl_problem *p, const rl_hw *hw, const rl_kernel_spec *spec,
                              rl_profile *pf, rl_error *err) {
    rl_status s = base_profile(p, hw, spec->kernel, pf, err);
    if (s != RL_OK) return s;
    if (spec->block_m > 0) pf->block_m = spec->block_m;
    if (spec->block_n > 0) pf->block_n = spec->block_n;
    if (spec->gqa_pack == RL_PACK_PACKED) pf->gqa_packed = 1;
    if (spec->gqa_pack == RL_PACK_PER_HEAD) pf->gqa_packed = 0;
    if (pf->kernel == RL_KERNEL_GENERIC || spec->ctas_per_sm > 0 || pf->ctas_per_sm == 0) {
        rl_problem tile = *p;
        tile.block_m = pf->block_m;
        tile.block_n = pf->block_n;
        rl_sram sram = rl_sram_budget(&tile, hw);
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
    pf->splits = 1;
    if (spec->splits > 0) {
        pf->splits = spec->splits;
    } else if (pf->split_rule) {
        const double G = (double)(p->heads / p->kv_heads);
        const double rows = pf->gqa_packed ? G * (double)p->seq : (double)p->seq;
        const double units = (double)p->batch * (double)(pf->gqa_packed ? p->kv_heads : p->heads) *
                             (double)(((int64_t)rows + pf->block_m - 1) / pf->block_m);
        const int64_t key_blocks = (p->kv_len + pf->block_n - 1) / pf->block_n;
        pf->splits = split_rule(units, 2.0 * hw->sm_count, key_blocks);
    }
    return RL_OK;
}
