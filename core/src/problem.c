/* problem.c — defaults and validation of an attention problem. */
#include <inttypes.h>

#include "internal.h"

static rl_status check_size(int64_t v, int64_t max, const char *field, rl_error *err) {
    if (v < 1 || v > max)
        return rl__fail(err, RL_ERR_RANGE, field,
                        "expected a positive integer (1 to %" PRId64 "), got %" PRId64, max, v);
    return RL_OK;
}

static rl_status check_dtype(rl_dtype d, const char *field, rl_error *err) {
    if ((int)d <= (int)RL_DTYPE_DEFAULT || d >= RL_DTYPE_COUNT)
        return rl__fail(err, RL_ERR_UNKNOWN, field, "expected one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8, got code %d",
                        (int)d);
    return RL_OK;
}

/* Absorbed MLA (DESIGN.md "Variants"): the latent fixes d_qk = R + DR, d_v = R and one KV head.
 * Runs before the defaults are filled, so a flag given with another value is refused by name. */
static rl_status resolve_mla(rl_problem *p, rl_error *err) {
    if (p->kv_lora_rank == 0) {
        if (p->rope_dim != 0)
            return rl__fail(err, RL_ERR_INCONSISTENT, "rope-dim",
                            "--rope-dim is the RoPE part of an MLA latent and needs --kv-lora-rank");
        return RL_OK;
    }
    if (p->rope_dim == 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-lora-rank",
                        "--kv-lora-rank needs --rope-dim (the latent's RoPE part, 64 in DeepSeek-V3)");
    if (p->kv_lora_rank > RL_MAX_HEAD_DIM || p->rope_dim > RL_MAX_HEAD_DIM - p->kv_lora_rank)
        return rl__fail(err, RL_ERR_RANGE, "kv-lora-rank",
                        "kv-lora-rank + rope-dim is the head dim, expected at most %" PRId64
                        ", got %" PRId64 " + %" PRId64,
                        RL_MAX_HEAD_DIM, p->kv_lora_rank, p->rope_dim);
    const int64_t dqk = p->kv_lora_rank + p->rope_dim;
    if (p->head_dim != 0 && p->head_dim != dqk)
        return rl__fail(err, RL_ERR_INCONSISTENT, "head-dim",
                        "absorbed MLA sets the head dim to kv-lora-rank + rope-dim = %" PRId64
                        ", got --head-dim %" PRId64 " (leave it out)",
                        dqk, p->head_dim);
    if (p->head_dim_v != 0 && p->head_dim_v != p->kv_lora_rank)
        return rl__fail(err, RL_ERR_INCONSISTENT, "head-dim-v",
                        "absorbed MLA sets the value head dim to kv-lora-rank = %" PRId64
                        ", got --head-dim-v %" PRId64 " (leave it out)",
                        p->kv_lora_rank, p->head_dim_v);
    if (p->kv_heads != 0 && p->kv_heads != 1)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-heads",
                        "absorbed MLA forces kv-heads 1 (one latent shared by all query heads), "
                        "got --kv-heads %" PRId64,
                        p->kv_heads);
    if (p->pass == RL_PASS_BWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kv-lora-rank",
                        "absorbed MLA is the inference form; training runs the MHA form: "
                        "--head-dim 192 --head-dim-v 128 --pass bwd");
    p->head_dim = dqk;
    p->head_dim_v = p->kv_lora_rank;
    p->kv_heads = 1;
    return RL_OK;
}

/* A ragged batch (DESIGN.md "Variants"): the batch is the sum of the counts and L the longest
 * length; a --batch or --kv-len given with another value is refused by name. */
static rl_status resolve_kv_lens(rl_problem *p, rl_error *err) {
    const rl_kv_lens *l = &p->kv_lens;
    if (l->n == 0) return RL_OK;
    if (l->n < 0 || l->n > RL_KV_LENS_MAX)
        return rl__fail(err, RL_ERR_RANGE, "kv-lens", "expected 1 to %d (length, count) pairs, got %d",
                        RL_KV_LENS_MAX, (int)l->n);
    int64_t sum = 0, longest = 0;
    for (int i = 0; i < l->n; i++) {
        const rl_kv_len_pair *q = &l->pair[i];
        if (q->len < 1 || q->len > RL_MAX_DIM || q->count < 1 || q->count > RL_MAX_DIM)
            return rl__fail(err, RL_ERR_RANGE, "kv-lens",
                            "item %d: expected a length and a count from 1 to %" PRId64
                            ", got %" PRId64 "x%" PRId64,
                            i + 1, RL_MAX_DIM, q->len, q->count);
        sum += q->count;
        if (q->len > longest) longest = q->len;
    }
    if (sum > RL_MAX_DIM)
        return rl__fail(err, RL_ERR_RANGE, "kv-lens",
                        "the counts add up to the batch, expected at most %" PRId64 ", got %" PRId64,
                        RL_MAX_DIM, sum);
    if (p->batch != 0 && p->batch != sum)
        return rl__fail(err, RL_ERR_INCONSISTENT, "batch",
                        "--kv-lens sets the batch to the sum of its counts, %" PRId64
                        ", got --batch %" PRId64 " (leave it out)",
                        sum, p->batch);
    if (p->kv_len != 0 && p->kv_len != longest)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-len",
                        "--kv-lens sets kv-len to its longest length, %" PRId64
                        ", got --kv-len %" PRId64 " (leave it out)",
                        longest, p->kv_len);
    if (p->pass == RL_PASS_BWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kv-lens",
                        "a ragged batch is modelled for the forward pass (serving) only");
    p->batch = sum;
    p->kv_len = longest;
    return RL_OK;
}

/* The shortest key length of the batch (kv_len when not ragged). */
int64_t rl__shortest_kv_len(const rl_problem *p) {
    int64_t m = p->kv_len;
    for (int i = 0; i < p->kv_lens.n; i++)
        if (p->kv_lens.pair[i].len < m) m = p->kv_lens.pair[i].len;
    return m;
}

rl_status rl_problem_resolve(const rl_problem *in, rl_problem *out, rl_error *err) {
    rl_problem p = in ? *in : (rl_problem){0};
    rl_status s;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) /* off (0) is valid only for a variant */
        if (rl_problem_field_variant((rl_problem_field)f) && rl_problem_get(&p, (rl_problem_field)f) < 0)
            return check_size(rl_problem_get(&p, (rl_problem_field)f), RL_MAX_DIM,
                              rl_problem_field_info((rl_problem_field)f)->flag, err);
    if ((s = resolve_mla(&p, err)) != RL_OK) return s;
    if ((s = resolve_kv_lens(&p, err)) != RL_OK) return s;
    /* Zero means default: the table's value, or (tied fields) the value of the field it names.
     * Ties point at untied fields, so one pass in table order fills everything. */
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        if (rl_problem_get(&p, (rl_problem_field)f) != 0) continue;
        const int tie = rl_problem_field_tie((rl_problem_field)f);
        const int64_t v = tie >= 0 ? rl_problem_get(&p, (rl_problem_field)tie)
                                   : rl_problem_field_info((rl_problem_field)f)->default_value;
        if (v != 0) rl_problem_set(&p, (rl_problem_field)f, v, NULL, NULL);
    }
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        const int64_t v = rl_problem_get(&p, (rl_problem_field)f);
        if (v == 0 && rl_problem_field_variant((rl_problem_field)f)) continue; /* off */
        if (fi->type == RL_FTYPE_LENS) continue; /* checked by resolve_kv_lens */
        if (fi->type == RL_FTYPE_INT && (s = check_size(v, fi->max, fi->flag, err)) != RL_OK) return s;
        if (fi->type == RL_FTYPE_DTYPE && (s = check_dtype((rl_dtype)v, fi->flag, err)) != RL_OK)
            return s;
    }
    if (p.pass != RL_PASS_FWD && p.pass != RL_PASS_BWD)
        return rl__fail(err, RL_ERR_INVALID, "pass", "expected fwd or bwd, got code %d", (int)p.pass);
    if (p.causal != 0 && p.causal != 1)
        return rl__fail(err, RL_ERR_INVALID, "causal", "expected 0 or 1, got %d", p.causal);
    if (p.heads % p.kv_heads != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-heads",
                        "heads (%" PRId64 ") must be a multiple of kv-heads (%" PRId64 ")", p.heads,
                        p.kv_heads);
    if (p.causal && p.kv_lens.n && p.seq > rl__shortest_kv_len(&p))
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-lens",
                        "causal attention needs seq <= every sequence's key length, got seq %" PRId64
                        " > %" PRId64 " (the shortest in --kv-lens)",
                        p.seq, rl__shortest_kv_len(&p));
    if (p.causal && p.seq > p.kv_len)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-len",
                        "causal attention needs seq <= kv-len (the queries are the last seq of "
                        "kv-len positions), got seq %" PRId64 " > kv-len %" PRId64,
                        p.seq, p.kv_len);
    if (p.window != 0 && !p.causal)
        return rl__fail(err, RL_ERR_INCONSISTENT, "window",
                        "a sliding window is causal here (each query sees the W keys ending at "
                        "itself): add --causal");
    if (p.sinks != 0 && p.window == 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "sinks",
                        "sink tokens matter only with a sliding window: add --window W (full "
                        "causal attention sees them anyway)");
    if (p.page_size != 0 && p.pass == RL_PASS_BWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "page-size",
                        "a paged KV cache is an inference layout; backward reads contiguous K/V "
                        "(leave --page-size out)");
    if (p.topk != 0 && p.window != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "topk",
                        "--topk selects keys from all of them; it does not combine with --window");
    if (p.topk != 0 && p.pass == RL_PASS_BWD)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "topk",
                        "sparse top-k attention is modelled for the forward pass only");
    if (out) *out = p;
    rl__ok(err);
    return RL_OK;
}

/* The one check at a kernel profile's entry (predict.c): what kernel k does not model is refused
 * by its flag, never predicted as if it were plain attention. Lifted exactly where a profile
 * models the variant: flashmla runs absorbed MLA (its dense decode: MQA mode, d_qk = 576,
 * d_v = 512 — FlashMLA README, support matrix) and fa3 (its qv path: head dim 64 + head_dim_v 512,
 * hopper/tile_size.h); fa4, fa3 and cudnn run d_qk 192 with d_v 128 (DeepSeek's MLA prefill in
 * MHA mode: flash_attn/cute/interface.py, hopper/tile_size.h; cuDNN's SDPA takes head_dim_vo apart
 * from head_dim_qk and the cuDNN frontend benchmarks it at 192 / 128: its dsv3 and kimiK26 rows,
 * data/published/cudnn-fe-sdpa-*.json). */
rl_status rl__variant_unmodelled(const rl_problem *p, int k, rl_error *err) {
    if (p->kv_lora_rank != 0 && k != RL_KERNEL_FLASHMLA && k != RL_KERNEL_FA3)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kv-lora-rank",
                        "--kernel %s does not model absorbed MLA; --kernel flashmla and fa3 do "
                        "(Hopper), or use the roofline (rooflab eval without --kernel)",
                        rl_kernel_name((rl_kernel)k));
    if (k == RL_KERNEL_FLASHMLA && p->kv_lora_rank == 0)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kv-lora-rank",
                        "--kernel flashmla is FlashMLA's absorbed-MLA decode: give --kv-lora-rank "
                        "and --rope-dim (DeepSeek-V3: 512 and 64)");
    /* cudnn too, forward and backward: cuDNN's SDPA runs d_qk 192 / d_v 128 (cudnn-frontend's
     * DeepSeek-V3 and Kimi K2.6 presets, benchmark/sdpa_benchmark_training/configs, measured on
     * H200, GB200 and GB300); its Blackwell backward takes FA4's unpipelined d 192 loop
     * (profiles.c blackwell_bwd). */
    const int fa4_mla_prefill =
        (k == RL_KERNEL_FA4 || k == RL_KERNEL_FA3 || k == RL_KERNEL_CUDNN) && p->head_dim == 192 &&
        p->head_dim_v == 128;
    if (p->kv_lora_rank == 0 && p->head_dim_v != 0 && p->head_dim_v != p->head_dim &&
        !fa4_mla_prefill)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "head-dim-v",
                        "--kernel %s does not model a value head dim different from --head-dim; "
                        "--kernel fa4, fa3 and cudnn run --head-dim 192 --head-dim-v 128 (MLA prefill)",
                        rl_kernel_name((rl_kernel)k));
    /* Sliding windows: flash-attention's local mask (FA2 window_size, FA3 hopper/block.h, FA4
     * flash_fwd_sm100.py is_local), cuDNN's sliding_window_length, FlashInfer's window_left —
     * every fused profile but FlashMLA's (no window in its MLA decode) runs them; eager
     * (`standard`) computes all scores and masks them, as it does causal. */
    if (p->window != 0 && k == RL_KERNEL_FLASHMLA)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "window",
                        "--kernel flashmla has no sliding window (FlashMLA's MLA decode reads the "
                        "whole cache); --kernel fa2, fa3, fa4, cudnn, flashinfer, flash-decoding "
                        "and generic run --window");
    /* StreamingLLM sink tokens (the first S keys, always visible): no shipped kernel of a
     * profile loads them. FA3's hopper mainloop had a sink_token_length loop over the tiles
     * 0 … ⌈S/Bc⌉ − 1 below the window (flash-attention 7a802796, 2025-01-07), compiled out from
     * the start (`if constexpr (false && Is_local)`) and removed in 5458c78e (2025-03-01, "It
     * wasn't working anyway"); TensorRT-LLM keeps the sinks in its cyclic KV cache for its
     * generation kernels and runs the context phase dense (docs/source/advanced/
     * gpt-attention.md, "StreamingLLM"); FA4's, cuDNN's (SDPA set_sink_token) and FlashInfer's
     * "sinks" are gpt-oss's learned per-head logit, no key. `generic` is a tiled kernel that
     * loads the sink tiles (rl__window_tiles), as FA3's disabled loop would have. */
    if (p->sinks != 0 && k != RL_KERNEL_GENERIC)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "sinks",
                        "--kernel %s has no sink tokens: its mask takes a left and right window "
                        "only; --kernel generic models them (a tiled kernel that also loads the "
                        "ceil(S/Bc) sink tiles below each window, as FlashAttention-3's "
                        "sink_token_length loop would have before it was removed, unused, in "
                        "2025). gpt-oss's learned sink logit is no --sinks value (one more exp "
                        "per row, no traffic: leave --sinks out)",
                        rl_kernel_name((rl_kernel)k));
    if (p->page_size != 0 && k == RL_KERNEL_FLASHMLA && p->page_size != 64)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "page-size",
                        "--kernel flashmla reads a paged cache of 64-token blocks (FlashMLA "
                        "README: KV cache [num_blocks, 64, h_kv, d]; the kernel's key tile is the "
                        "block), got --page-size %lld",
                        (long long)p->page_size);
    /* Paged KV: FlashInfer (its paged decode, any page size: its chunks count pages), the
     * generic decode (FlashInfer's rule), FA3 (page_table: TMA or cp.async by page size),
     * FlashMLA (64-token blocks). */
    if (p->page_size != 0 && k != RL_KERNEL_FLASHMLA && k != RL_KERNEL_FLASHINFER &&
        k != RL_KERNEL_FA3 && k != RL_KERNEL_GENERIC)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "page-size",
                        "--kernel %s does not model a paged KV cache (--kernel flashinfer, fa3 and "
                        "generic do, flashmla with page size 64); use the roofline (rooflab eval "
                        "without --kernel)",
                        rl_kernel_name((rl_kernel)k));
    /* Ragged batches: the split-KV decode kernels (FlashInfer's chunks over the batch,
     * FA2's split kernel as flash-decoding and fa2 run it, FA3's per-sequence splits) and the
     * generic decode (FlashInfer's rule). */
    if (p->kv_lens.n != 0 && k != RL_KERNEL_FLASHINFER && k != RL_KERNEL_FLASH_DECODING &&
        k != RL_KERNEL_FA3 && k != RL_KERNEL_FA2 && k != RL_KERNEL_GENERIC)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "kv-lens",
                        "--kernel %s does not model a ragged batch (--kernel flashinfer, "
                        "flash-decoding, fa3, fa2 and generic do); use the roofline (rooflab eval "
                        "without --kernel)",
                        rl_kernel_name((rl_kernel)k));
    if (p->topk != 0 && k != RL_KERNEL_FLASHMLA)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "topk",
                        "--kernel %s does not model sparse top-k attention (--kernel flashmla "
                        "does: FlashMLA's sparse MLA decode); use the roofline (rooflab eval "
                        "without --kernel)",
                        rl_kernel_name((rl_kernel)k));
    const rl_dtype d[3] = {p->dtype, p->kv_dtype, p->out_dtype};
    const char *flag[3] = {"dtype", "kv-dtype", "out-dtype"};
    for (int i = 0; i < 3; i++)
        if (rl_dtype_block_scaled(d[i]))
            return rl__fail(err, RL_ERR_UNSUPPORTED, flag[i],
                            "no kernel profile models %s yet", rl_dtype_name(d[i]));
    return RL_OK;
}
