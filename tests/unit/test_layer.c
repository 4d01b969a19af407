/* The whole layer against hand calculations (MODEL.md "The layer"). Every expected value below is
 * worked out here from the config values (test_models.c lists them) with its arithmetic, never
 * taken from the code under test. Roof: H100 SXM, 3.35 TB/s and 989 TFLOP/s (bf16 tensor). */
#include "check.h"
#include "rooflab/rooflab.h"

/* core/src/internal.h: the step with room for fewer operators (the refusal path). */
rl_status rl__layer_step_compute_capped(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                        size_t cap, rl_layer_step *out, rl_error *err);

static const rl_roof H100 = {3.35e12, 989e12};

static const rl_layer_op *op_find(const rl_layer_step *s, const char *name) {
    for (size_t i = 0; i < s->op_count; i++)
        if (strcmp(s->ops[i].name, name) == 0) return &s->ops[i];
    return NULL;
}

/* An operator the step must have: a failed check when it is missing. */
static const rl_layer_op *op_named(const rl_layer_step *s, const char *name) {
    const rl_layer_op *op = op_find(s, name);
    CHECK(op != NULL);
    if (!op) fprintf(stderr, "no operator %s\n", name);
    return op;
}

/* The step's time is the sum of its operators' (count × time), shares sum to 1, and every
 * operator's bytes are the sum of its four parts. */
static void check_sums(const rl_layer_step *s) {
    double t = 0, share = 0, bytes = 0, w = 0, kv = 0, act = 0;
    for (size_t i = 0; i < s->op_count; i++) {
        const rl_layer_op *op = &s->ops[i];
        t += (double)op->count * op->time_s;
        share += op->share;
        bytes += (double)op->count * op->bytes;
        w += (double)op->count * op->weight_bytes;
        kv += (double)op->count * op->kv_bytes;
        act += (double)op->count * (op->act_in_bytes + op->act_out_bytes);
        CHECK_CLOSE(op->bytes, op->weight_bytes + op->act_in_bytes + op->act_out_bytes + op->kv_bytes,
                    1e-15);
        CHECK(op->time_s >= op->memory_time_s && op->time_s >= op->compute_time_s);
    }
    CHECK_CLOSE(s->time_s, t, 1e-12);
    CHECK_CLOSE(share, 1.0, 1e-12);
    CHECK_CLOSE(s->bytes, bytes, 1e-12);
    CHECK_CLOSE(s->bytes, w + kv + act, 1e-12);
}

static rl_layer_step step_of(const char *id, rl_phase phase, int64_t batch, int64_t seq,
                             int64_t kv_len, int64_t tp) {
    rl_layer_request r = {0};
    r.model = rl_model_shape_find(id);
    r.phase = phase;
    r.batch = batch;
    r.seq = seq;
    r.kv_len = kv_len;
    r.tp = tp;
    rl_layer_step s;
    rl_error err;
    const rl_status st = rl_layer_step_compute(&r, rl_hw_find("h100-sxm"), H100, &s, &err);
    CHECK(st == RL_OK);
    if (st != RL_OK) fprintf(stderr, "%s\n", err.message);
    return s;
}

/* Llama 3.1 8B decode, B = 1, L = 8192, bf16 (2 bytes): h 4096, I 14336, H 32, Hkv 8, d 128,
 * 32 layers, V 128256. */
static void llama_decode(void) {
    rl_layer_step s = step_of("llama-3.1-8b", RL_PHASE_DECODE, 1, 0, 8192, 1);
    const rl_layer_op *qkv = op_named(&s, "qkv_proj"), *o = op_named(&s, "o_proj");
    const rl_layer_op *gu = op_named(&s, "mlp_gate_up"), *dn = op_named(&s, "mlp_down");
    const rl_layer_op *at = op_named(&s, "attention"), *lm = op_named(&s, "lm_head");
    if (!qkv || !o || !gu || !dn || !at || !lm) return;
    /* QKV: N = (32 + 2·8)·128 = 6144 outputs, K = 4096: weights 4096·6144·2 = 50,331,648 B;
     * FLOPs 2·1·6144·4096 = 50,331,648; in 4096·2, out 6144·2. Whole tiles: M 1 → 128. */
    CHECK(qkv->count == 32 && qkv->gemm_m == 1 && qkv->gemm_n == 6144 && qkv->gemm_k == 4096);
    CHECK(qkv->weight_bytes == 50331648.0 && qkv->flops == 50331648.0);
    CHECK(qkv->act_in_bytes == 8192 && qkv->act_out_bytes == 12288);
    CHECK(qkv->tile_flops == 2.0 * 128 * 6144 * 4096);
    CHECK(qkv->bound == RL_BOUND_MEMORY);
    CHECK_CLOSE(qkv->time_s, 50352128.0 / 3.35e12, 1e-12);
    /* O: 4096 × 4096 · 2 = 33,554,432 B. Gate/up: 4096 × 2·14336 · 2 = 234,881,024 B.
     * Down: 14336 × 4096 · 2 = 117,440,512 B. LM head: 4096 × 128256 · 2 = 1,050,673,152 B. */
    CHECK(o->weight_bytes == 33554432.0);
    CHECK(gu->weight_bytes == 234881024.0 && gu->gemm_n == 28672);
    CHECK(dn->weight_bytes == 117440512.0 && dn->gemm_k == 14336);
    CHECK(lm->weight_bytes == 1050673152.0 && lm->count == 1 && lm->per_step);
    /* Attention: F = 4·B·H·d·L = 4·32·128·8192 = 134,217,728; K + V = 2·8·8192·128·2 =
     * 33,554,432 B; Q and O 32·128·2 = 8192 B each. Intensity ≈ 4: memory-bound. */
    CHECK(at->flops == 134217728.0 && at->kv_bytes == 33554432.0);
    CHECK(at->act_in_bytes == 8192 && at->act_out_bytes == 8192 && at->bound == RL_BOUND_MEMORY);
    /* Weights per layer: 50,331,648 + 33,554,432 + 234,881,024 + 117,440,512 + 2 norms' γ
     * 2·4096·2 = 436,224,000; × 32 = 13,959,168,000; + embedding row 8192 + final norm γ 8192
     * + LM head 1,050,673,152 = 15,009,857,536 B (≈ 15.0 GB). */
    CHECK(s.weight_bytes == 15009857536.0);
    /* K/V cache: 32 × 33,554,432 = 1,073,741,824 B (≈ 1.07 GB). */
    CHECK(s.kv_bytes == 1073741824.0);
    /* Activations per layer (in + out, bytes): attn_norm 8192+8192; qkv 8192+12288; rope
     * (Q and K: (32+8)·128 = 5120 elements) 10240 + cos/sin 128·4 + 10240; kv_cache_write
     * 4096+4096; attention Q 8192 + O 8192; o_proj 8192+8192; residual 16384+8192; mlp_norm
     * 8192+8192; gate_up 8192+57344; act 57344+28672; down 28672+8192; residual 16384+8192
     * = 352,768; × 32 = 11,288,576. Per step: embedding ids 4 + row 8192; final norm 16384;
     * LM head 8192 + logits 128256·2 = 256,512 → 289,284. Total 11,577,860 B. */
    CHECK(s.activation_bytes == 11577860.0);
    /* Everything is memory-bound here, so the step is all bytes over β:
     * (15,009,857,536 + 1,073,741,824 + 11,577,860) / 3.35e12 = 4.8045 ms. */
    for (size_t i = 0; i < s.op_count; i++) CHECK(s.ops[i].bound == RL_BOUND_MEMORY);
    CHECK_CLOSE(s.time_s, 16095177220.0 / 3.35e12, 1e-12);
    CHECK_CLOSE(s.attention_share, 32 * 33570816.0 / 16095177220.0, 1e-12);
    check_sums(&s);
    /* The crossover: attention bytes 32·(16384 + 4096·L) against the weight-reading operators'
     * 32·(50,352,128 + 33,570,816 + 234,946,560 + 117,477,376) + embedding 16,388 + LM head
     * 1,050,937,856 = 15,014,054,404 B: L ≥ (15,014,054,404 − 524,288) / 131072 = 114,544.57,
     * so L = 114,545. */
    rl_layer_request r = s.request;
    rl_layer_crossover x;
    CHECK(rl_layer_crossover_find(&r, rl_hw_find("h100-sxm"), H100, &x, NULL) == RL_OK);
    CHECK(x.found && !x.at_minimum && x.value == 114545 && strcmp(x.varied, "kv-len") == 0);
    rl_layer_step below = step_of("llama-3.1-8b", RL_PHASE_DECODE, 1, 0, 114544, 1);
    rl_layer_step at_x = step_of("llama-3.1-8b", RL_PHASE_DECODE, 1, 0, 114545, 1);
    CHECK(below.attention_time_s < below.weights_time_s);
    CHECK(at_x.attention_time_s >= at_x.weights_time_s);
    CHECK(s.allreduce_bytes == 0 && s.experts_touched == 0 && s.note[0] == '\0');
}

/* The same with --tp 2: heads 16, KV heads 4, I 7168 per rank (Megatron: QKV and gate/up split
 * by columns, O and down by rows, the vocabulary split in two). */
static void llama_decode_tp2(void) {
    rl_layer_step s = step_of("llama-3.1-8b", RL_PHASE_DECODE, 1, 0, 8192, 2);
    CHECK(s.heads == 16 && s.kv_heads == 4);
    const rl_layer_op *qkv = op_named(&s, "qkv_proj"), *o = op_named(&s, "o_proj");
    const rl_layer_op *gu = op_named(&s, "mlp_gate_up"), *dn = op_named(&s, "mlp_down");
    const rl_layer_op *at = op_named(&s, "attention"), *lm = op_named(&s, "lm_head");
    if (!qkv || !o || !gu || !dn || !at || !lm) return;
    CHECK(qkv->weight_bytes == 4096.0 * (16 + 8) * 128 * 2); /* 25,165,824 */
    CHECK(o->weight_bytes == 2048.0 * 4096 * 2);              /* 16,777,216 */
    CHECK(gu->weight_bytes == 4096.0 * 14336 * 2);            /* 117,440,512 */
    CHECK(dn->weight_bytes == 7168.0 * 4096 * 2);             /* 58,720,256 */
    CHECK(lm->weight_bytes == 4096.0 * 64128 * 2);            /* 128256 / 2 = 64128 rows */
    CHECK(at->kv_bytes == 2.0 * 4 * 8192 * 128 * 2);          /* 16,777,216 */
    /* All-reduces, bytes only: 2 per layer + the embedding's, of T·h·2 = 8192 B each. */
    CHECK(s.allreduce_bytes == (2.0 * 32 + 1) * 8192);
    check_sums(&s);
}

/* Llama 3.1 8B prefill, B = 1, N = 1000 (causal, L = N): tile quantisation shows. */
static void llama_prefill(void) {
    rl_layer_step s = step_of("llama-3.1-8b", RL_PHASE_PREFILL, 1, 1000, 0, 1);
    const rl_layer_op *qkv = op_named(&s, "qkv_proj"), *at = op_named(&s, "attention");
    const rl_layer_op *lm = op_named(&s, "lm_head");
    if (!qkv || !at || !lm) return;
    CHECK(s.tokens == 1000 && s.request.kv_len == 1000);
    /* QKV: FLOPs 2·1000·6144·4096 = 50,331,648,000; whole 128-row tiles: 1000 → 1024 rows. */
    CHECK(qkv->flops == 50331648000.0);
    CHECK(qkv->tile_flops == 2.0 * 1024 * 6144 * 4096);
    CHECK(qkv->act_in_bytes == 1000.0 * 4096 * 2 && qkv->act_out_bytes == 1000.0 * 6144 * 2);
    /* Attention, causal N = L = 1000: pairs 1000·1001/2 = 500,500; F = 4·32·128·500,500 =
     * 8,200,192,000; K + V once: 2·8·1000·128·2 = 4,096,000 B. */
    CHECK(at->flops == 8200192000.0 && at->kv_bytes == 4096000.0);
    /* The LM head reads each sequence's last token only: M = B = 1. */
    CHECK(lm->gemm_m == 1 && lm->flops == 2.0 * 128256 * 4096);
    /* QKV's compute time: 2·1024·6144·4096 / 989e12 > its bytes' time: compute-bound. */
    CHECK(qkv->bound == RL_BOUND_COMPUTE);
    CHECK_CLOSE(qkv->time_s, 2.0 * 1024 * 6144 * 4096 / 989e12, 1e-12);
    check_sums(&s);
    /* tp 2 prefill: still balanced, QKV outputs halve. */
    rl_layer_step t = step_of("llama-3.1-8b", RL_PHASE_PREFILL, 1, 1000, 0, 2);
    const rl_layer_op *q2 = op_named(&t, "qkv_proj");
    if (q2) CHECK(q2->flops == 2.0 * 1000 * 3072 * 4096);
    check_sums(&t);
}

/* Qwen3-30B-A3B: h 2048, H 32, Hkv 4, d 128, 48 layers, V 151936, 128 experts, top-8, expert
 * intermediate 768, per-head q/k norms. */
static void qwen3_moe(void) {
    /* Decode, B = 1, L = 4096: one token touches exactly k = 8 experts. */
    rl_layer_step s = step_of("qwen3-30b-a3b", RL_PHASE_DECODE, 1, 0, 4096, 1);
    CHECK(s.experts_touched == 8.0); /* 128·(1 − (1 − 8/128)^1) = 128·0.0625 */
    const rl_layer_op *qkv = op_named(&s, "qkv_proj"), *o = op_named(&s, "o_proj");
    const rl_layer_op *rt = op_named(&s, "router"), *gu = op_named(&s, "experts_gate_up");
    const rl_layer_op *dn = op_named(&s, "experts_down"), *at = op_named(&s, "attention");
    const rl_layer_op *qk = op_named(&s, "qk_norm");
    if (!qkv || !o || !rt || !gu || !dn || !at || !qk) return;
    CHECK(qkv->weight_bytes == 2048.0 * (32 + 8) * 128 * 2); /* 20,971,520: 5120 outputs */
    CHECK(o->weight_bytes == 4096.0 * 2048 * 2);              /* 32·128 = 4096 inputs */
    CHECK(rt->weight_bytes == 2048.0 * 128 * 2);              /* 524,288 */
    /* Experts: 8 touched × (2048 × 2·768) × 2 B = 50,331,648; down 8 × 768 × 2048 × 2 =
     * 25,165,824. FLOPs: 8 (token, expert) rows: 2·8·1536·2048 = 50,331,648. */
    CHECK(gu->weight_bytes == 50331648.0 && dn->weight_bytes == 25165824.0);
    CHECK(gu->flops == 50331648.0 && gu->gemm_m == 1);
    /* Whole tiles per touched expert: 8 × 128 rows × 1536 × 2048 × 2. */
    CHECK(gu->tile_flops == 2.0 * 8 * 128 * 1536 * 2048);
    CHECK(at->kv_bytes == 2.0 * 4 * 4096 * 128 * 2); /* 8,388,608 */
    /* q/k norm over (32 + 4) heads of 128: 4 FLOPs an element, γ of 128 for Q and for K, bf16. */
    CHECK(qk->flops == 4.0 * 36 * 128 && qk->weight_bytes == 2 * 128 * 2);
    /* Step weights: per layer QKV 20,971,520 + O 16,777,216 + router 524,288 + experts
     * 50,331,648 + 25,165,824 + q/k γ 512 + 2 norms' γ 2·2048·2 = 8192 → 113,779,200; × 48 =
     * 5,461,401,600; + embedding row 4096 + final γ 4096 + LM head 2048·151936·2 = 622,329,856
     * → 6,083,739,648 B. */
    CHECK(s.weight_bytes == 6083739648.0);
    CHECK(s.kv_bytes == 48 * 8388608.0);
    check_sums(&s);

    /* Decode, B = 8, tp = 2: 8 tokens touch 128·(1 − (15/16)^8) experts; heads 16, KV 2, I 384. */
    rl_layer_step t = step_of("qwen3-30b-a3b", RL_PHASE_DECODE, 8, 0, 4096, 2);
    const double touched = 128 * (1 - pow(15.0 / 16.0, 8)); /* ≈ 51.62 */
    CHECK_CLOSE(t.experts_touched, touched, 1e-12);
    const rl_layer_op *gu2 = op_named(&t, "experts_gate_up"), *q2 = op_named(&t, "qkv_proj");
    if (gu2 && q2) {
        CHECK_CLOSE(gu2->weight_bytes, touched * 2048 * 768 * 2, 1e-12);
        CHECK(gu2->flops == 2.0 * 8 * 8 * 768 * 2048);
        CHECK(q2->weight_bytes == 2048.0 * (16 + 4) * 128 * 2);
    }
    CHECK(t.heads == 16 && t.kv_heads == 2);
    check_sums(&t);

    /* Prefill, N = 2048: every expert touched (128·(1 − (15/16)^2048) = 128 to 1e-50). */
    rl_layer_step p = step_of("qwen3-30b-a3b", RL_PHASE_PREFILL, 1, 2048, 0, 1);
    CHECK_CLOSE(p.experts_touched, 128.0, 1e-12);
    const rl_layer_op *gu3 = op_named(&p, "experts_gate_up"), *at3 = op_named(&p, "attention");
    if (gu3 && at3) {
        CHECK_CLOSE(gu3->weight_bytes, 128.0 * 2048 * 1536 * 2, 1e-12); /* 805,306,368 */
        CHECK(gu3->flops == 2.0 * 2048 * 8 * 1536 * 2048);
        /* 2048·8 rows over 128 experts = 128 each: whole tiles, no padding. */
        CHECK_CLOSE(gu3->tile_flops, gu3->flops, 1e-12);
        /* Causal N = L = 2048: pairs 2048·2049/2 = 2,098,176; F = 4·32·128·pairs. */
        CHECK(at3->flops == 4.0 * 32 * 128 * 2098176);
    }
    check_sums(&p);
    rl_layer_step p2 = step_of("qwen3-30b-a3b", RL_PHASE_PREFILL, 1, 2048, 0, 4);
    check_sums(&p2);
    /* fp8 weights: the experts' bytes halve, the router and LM head stay bf16. */
    rl_layer_request r8 = p.request;
    r8.weight_dtype = RL_WDTYPE_FP8;
    rl_layer_step s8;
    CHECK(rl_layer_step_compute(&r8, rl_hw_find("h100-sxm"), H100, &s8, NULL) == RL_OK);
    const rl_layer_op *g8 = op_named(&s8, "experts_gate_up"), *r8op = op_named(&s8, "router");
    if (g8 && r8op) {
        CHECK_CLOSE(g8->weight_bytes, 128.0 * 2048 * 1536, 1e-12);
        CHECK(r8op->weight_bytes == 2048.0 * 128 * 2);
    }
    /* MXFP4: 32 weights in 32·0.5 + 1 = 17 bytes. */
    CHECK(rl_weight_dtype_bytes(RL_WDTYPE_FP4) == 17.0 / 32);
}

/* E·(1 − (1 − k/E)^T) at its limits. */
static void touched_limits(void) {
    CHECK(rl_moe_experts_touched(128, 8, 1) == 8.0);  /* T = 1 → k */
    CHECK(rl_moe_experts_touched(8, 2, 1) == 2.0);
    CHECK_CLOSE(rl_moe_experts_touched(128, 8, 1e6), 128.0, 1e-15); /* T → ∞ → E */
    CHECK_CLOSE(rl_moe_experts_touched(8, 2, 2), 8 * (1 - 0.75 * 0.75), 1e-15); /* 3.5 */
    CHECK(rl_moe_experts_touched(8, 8, 1) == 8.0);
    CHECK(rl_moe_experts_touched(0, 0, 10) == 0.0);
    for (double t = 1; t < 512; t *= 2) /* grows with T, never past E */
        CHECK(rl_moe_experts_touched(128, 8, 2 * t) > rl_moe_experts_touched(128, 8, t) &&
              rl_moe_experts_touched(128, 8, 2 * t) <= 128);
}

/* Sliding windows: decode applies them (Gemma 2 9B: 21 of 42 layers see 4096 keys); prefill
 * says it does not. GPT-2: LayerNorm, plain GELU MLP, no RoPE. */
static void windows_and_gpt2(void) {
    rl_layer_step s = step_of("gemma-2-9b", RL_PHASE_DECODE, 1, 0, 16384, 1);
    const rl_layer_op *g = op_named(&s, "attention"), *l = op_named(&s, "attention_local");
    if (g && l) {
        CHECK(g->count == 21 && l->count == 21);
        CHECK(g->kv_bytes == 2.0 * 8 * 16384 * 256 * 2 && l->kv_bytes == 2.0 * 8 * 4096 * 256 * 2);
    }
    CHECK(op_named(&s, "post_attn_norm") && op_named(&s, "post_mlp_norm"));
    check_sums(&s);
    /* Prefill applies the window too (--window W, causal): Gemma 2 9B, N = L = 8192, W = 4096:
     * pairs W(W+1)/2 + (N − W)·W = 8390656 + 16777216 = 25167872 per head against the global
     * layers' N(N+1)/2 = 33558528; F = 4·16·256·pairs. */
    rl_layer_step p = step_of("gemma-2-9b", RL_PHASE_PREFILL, 1, 8192, 0, 1);
    const rl_layer_op *pg = op_named(&p, "attention"), *pl = op_named(&p, "attention_local");
    if (pg && pl) {
        CHECK(pg->count == 21 && pl->count == 21);
        CHECK(pl->flops == 4.0 * 16 * 256 * 25167872 && pg->flops == 4.0 * 16 * 256 * 33558528);
    }
    CHECK(p.note[0] == '\0');
    rl_layer_step m = step_of("mistral-7b-v0.1", RL_PHASE_DECODE, 1, 0, 8192, 1);
    const rl_layer_op *ml = op_named(&m, "attention_local");
    CHECK(ml && ml->count == 32 && op_find(&m, "attention") == NULL);
    rl_layer_step g2 = step_of("gpt2", RL_PHASE_DECODE, 1, 0, 1024, 1);
    const rl_layer_op *fc = op_named(&g2, "mlp_fc"), *an = op_named(&g2, "attn_norm");
    CHECK(fc && fc->gemm_n == 3072 && op_find(&g2, "rope") == NULL);
    if (an) CHECK(an->flops == 7.0 * 768 && an->weight_bytes == 2.0 * 768 * 2); /* LayerNorm */
    const rl_layer_op *act = op_named(&g2, "mlp_act");
    if (act) CHECK(act->flops == 9.0 * 3072 && act->act_in_bytes == 3072.0 * 2);
    check_sums(&g2);
}

/* Gemma 3 27B decode, B = 1, L = 32768, bf16: 10 global layers read 2·16·32768·128·2 =
 * 268435456 B of K/V, the 52 local ones 2·16·1024·128·2 = 8388608 B (W = 1024); F = 4·32·128·keys
 * (536870912 and 16777216). Each is memory-bound (I = 2 FLOP/B), its time (K/V + Q + O bytes,
 * 32·128·2 each) / β; attention's step time is 10·t_global + 52·t_local. */
static void gemma3_kinds(void) {
    rl_layer_step s = step_of("gemma-3-27b", RL_PHASE_DECODE, 1, 0, 32768, 1);
    const rl_layer_op *g = op_named(&s, "attention"), *l = op_named(&s, "attention_local");
    if (g && l) {
        CHECK(g->count == 10 && l->count == 52);
        CHECK(g->kv_bytes == 268435456.0 && l->kv_bytes == 8388608.0);
        CHECK(g->flops == 536870912.0 && l->flops == 16777216.0);
        const double tg = (268435456.0 + 2 * 8192) / 3.35e12, tl = (8388608.0 + 2 * 8192) / 3.35e12;
        CHECK_CLOSE(g->time_s, tg, 1e-12);
        CHECK_CLOSE(l->time_s, tl, 1e-12);
        CHECK_CLOSE(s.attention_time_s, 10 * tg + 52 * tl, 1e-12);
    }
    CHECK(op_named(&s, "qk_norm") && op_named(&s, "post_mlp_norm"));
    check_sums(&s);
    /* Prefill N = L = 4096: local pairs 1024·1025/2 + 3072·1024 = 3670528, global 4096·4097/2 =
     * 8390656; F = 4·32·128·pairs = 16384·pairs. */
    rl_layer_step p = step_of("gemma-3-27b", RL_PHASE_PREFILL, 1, 4096, 0, 1);
    g = op_named(&p, "attention");
    l = op_named(&p, "attention_local");
    if (g && l) CHECK(l->flops == 16384.0 * 3670528 && g->flops == 16384.0 * 8390656);
    check_sums(&p);
}

/* Llama 4 Scout: 36 chunked layers (C = 8192) and 12 global NoPE layers, F = 4·40·128·pairs =
 * 20480·pairs, K/V 2·8·128·2 = 4096 B per key. */
static void llama4_chunks(void) {
    /* Prefill N = L = 20000: chunks of 8192, 8192, 3616 queries, each causal within itself:
     * pairs 2·(8192·8193/2) + 3616·3617/2 = 67117056 + 6539536 = 73656592; every key read once
     * (20000 · 4096 B). Global: 20000·20001/2 = 200010000 pairs. */
    rl_layer_step p = step_of("llama-4-scout", RL_PHASE_PREFILL, 1, 20000, 0, 1);
    const rl_layer_op *c = op_named(&p, "attention_chunked"), *g = op_named(&p, "attention");
    if (c && g) {
        CHECK(c->count == 36 && g->count == 12);
        CHECK(c->flops == 20480.0 * 73656592 && g->flops == 20480.0 * 200010000);
        CHECK(c->kv_bytes == 20000.0 * 4096 && g->kv_bytes == 20000.0 * 4096);
    }
    const rl_layer_op *rope = op_named(&p, "rope"); /* NoPE global layers: RoPE on 36 of 48 */
    if (rope) CHECK(rope->count == 36);
    CHECK_STR_CONTAINS(p.note, "llama-4-scout: the weightless L2 norm of Q and K in its 36 RoPE layers");
    rl_layer_step go = step_of("gpt-oss-20b", RL_PHASE_DECODE, 1, 0, 4096, 1);
    CHECK_STR_CONTAINS(go.note, "gpt-oss-20b: the learned sink logit of each head adds one exp");
    const rl_layer_op *gl = op_named(&go, "attention_local"); /* W = 128 on 12 of 24 layers */
    if (gl) CHECK(gl->count == 12 && gl->kv_bytes == 2.0 * 8 * 128 * 64 * 2);
    check_sums(&p);
    /* A cached prefix: N = 1000 new rows at positions 8000 … 8999, L = 9000. The first 192 sit in
     * chunk 0 and see keys 0 … their position: Σ_{q=8001}^{8192} q = (8001 + 8192)·192/2 =
     * 1554528; the last 808 open chunk 1: 808·809/2 = 326836. Keys read: all 9000. */
    rl_layer_step x = step_of("llama-4-scout", RL_PHASE_PREFILL, 1, 1000, 9000, 1);
    c = op_named(&x, "attention_chunked");
    if (c) CHECK(c->flops == 20480.0 * (1554528 + 326836) && c->kv_bytes == 9000.0 * 4096);
    /* Decode at L = 20000: the chunked layers see ((20000 − 1) mod 8192) + 1 = 3616 keys. */
    rl_layer_step d = step_of("llama-4-scout", RL_PHASE_DECODE, 1, 0, 20000, 1);
    c = op_named(&d, "attention_chunked");
    g = op_named(&d, "attention");
    if (c && g) CHECK(c->kv_bytes == 3616.0 * 4096 && g->kv_bytes == 20000.0 * 4096);
    /* Maverick: 24 dense layers (I 16384) and 24 MoE layers. */
    rl_layer_step mv = step_of("llama-4-maverick", RL_PHASE_DECODE, 1, 0, 4096, 1);
    const rl_layer_op *dense = op_named(&mv, "mlp_gate_up"), *moe = op_named(&mv, "experts_gate_up");
    if (dense && moe) CHECK(dense->count == 24 && moe->count == 24 && dense->gemm_n == 2 * 16384);
    check_sums(&mv);
}

/* DeepSeek-V3 (MLA). Decode, B = 64, L = 4096, bf16, absorbed: F = 2·B·H·L·(576 + 512) =
 * 2·64·128·4096·1088 = 73014444032; bytes = the latent 64·4096·576·2 = 301989888 + Q 64·128·576·2
 * = 9437184 + O 64·128·512·2 = 8388608 = 319815680 (228.3 FLOP/B). */
static void deepseek_mla(void) {
    rl_layer_step s = step_of("deepseek-v3", RL_PHASE_DECODE, 64, 0, 4096, 1);
    const rl_layer_op *a = op_named(&s, "attention");
    if (a) {
        CHECK(a->count == 61 && a->flops == 73014444032.0);
        CHECK(a->bytes == 319815680.0 && a->kv_bytes == 301989888.0);
    }
    CHECK(s.kv_heads == 1 && s.heads == 128);
    /* W_UK per head: 64 tokens × 128 nope → 512: 2·128·64·512·128 FLOPs, 128·128·512 weights. */
    const rl_layer_op *qa = op_named(&s, "q_absorb"), *va = op_named(&s, "v_absorb");
    if (qa && va) {
        CHECK(qa->flops == 2.0 * 128 * 64 * 512 * 128 && qa->weight_bytes == 128.0 * 128 * 512 * 2);
        CHECK(va->flops == 2.0 * 128 * 64 * 128 * 512 && va->weight_bytes == 128.0 * 512 * 128 * 2);
    }
    const rl_layer_op *w = op_named(&s, "kv_cache_write"), *o = op_named(&s, "o_proj");
    if (w) CHECK(w->act_out_bytes == 64.0 * 576 * 2); /* one 576-element latent per token */
    if (o) CHECK(o->weight_bytes == 128.0 * 128 * 7168 * 2); /* H·d_v → h */
    const rl_layer_op *qb = op_named(&s, "q_b_proj"), *kva = op_named(&s, "kv_a_proj");
    if (qb && kva) CHECK(qb->gemm_n == 128 * 192 && qb->gemm_k == 1536 && kva->gemm_n == 576);
    /* 3 dense layers (I 18432), 58 MoE layers with one shared expert. */
    const rl_layer_op *mg = op_named(&s, "mlp_gate_up"), *eg = op_named(&s, "experts_gate_up"),
                      *sg = op_named(&s, "shared_gate_up");
    if (mg && eg && sg) CHECK(mg->count == 3 && eg->count == 58 && sg->count == 58 && mg->gemm_n == 2 * 18432);
    CHECK(op_find(&s, "kv_b_proj") == NULL && op_find(&s, "qkv_proj") == NULL);
    check_sums(&s);
    /* Prefill N = L = 4096, the MHA form: F = 2·H·P·(192 + 128), P = 4096·4097/2 = 8390656;
     * kv_b_proj decompresses the 4096 keys: 2·4096·(128·(128 + 128))·512 FLOPs. */
    rl_layer_step p = step_of("deepseek-v3", RL_PHASE_PREFILL, 1, 4096, 0, 1);
    a = op_named(&p, "attention");
    const rl_layer_op *kvb = op_named(&p, "kv_b_proj");
    if (a) CHECK(a->flops == 2.0 * 128 * 8390656 * 320);
    if (kvb) CHECK(kvb->flops == 2.0 * 4096 * 32768 * 512);
    CHECK(op_find(&p, "q_absorb") == NULL && p.kv_heads == 128);
    check_sums(&p);
}

static void errors(void) {
    rl_layer_request r = {0};
    rl_layer_step s;
    rl_error err;
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_ERR_INVALID);
    CHECK_STR_CONTAINS(err.message, "model: missing");
    r.model = rl_model_shape_find("qwen3-next-80b-a3b");
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(err.message,
                       "model: qwen3-next-80b-a3b cannot be described here: linear attention");
    r.model = rl_model_shape_find("llama-3.1-8b");
    r.tp = 3;
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_ERR_INCONSISTENT);
    CHECK_STR_CONTAINS(err.message, "tp: 3 does not divide llama-3.1-8b's 32 query heads");
    r.tp = 16; /* 16 ranks, 8 KV heads: each KV head replicated on two ranks */
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_OK && s.kv_heads == 1);
    r.tp = 1;
    r.phase = RL_PHASE_PREFILL;
    r.seq = 4096;
    r.kv_len = 100;
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_ERR_INCONSISTENT);
    CHECK_STR_CONTAINS(err.message, "kv-len: prefill needs kv-len (100) >= seq (4096)");
    /* Decode adds one token per sequence: a prefill length there is refused, naming seq. */
    r.phase = RL_PHASE_DECODE;
    r.seq = 1024;
    r.kv_len = 0;
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(err.field, "seq") == 0);
    r.seq = 1;
    CHECK(rl_layer_step_compute(&r, NULL, H100, &s, &err) == RL_OK && s.tokens == 1);
    rl_weight_dtype w;
    CHECK(rl_weight_dtype_parse("int4", "weight-dtype", &w, &err) == RL_ERR_INVALID);
    CHECK_STR_CONTAINS(err.message, "weight-dtype: expected one of fp32, fp16, bf16, fp8, fp4");
    rl_phase ph;
    CHECK(rl_phase_parse("sideways", "phase", &ph, &err) == RL_ERR_INVALID);
    CHECK(rl_phase_parse("prefill", "phase", &ph, NULL) == RL_OK && ph == RL_PHASE_PREFILL);
    /* Every described model computes a step in both phases. */
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        if (m->unsupported) continue;
        for (int phase = 0; phase < 2; phase++) {
            rl_layer_request q = {0};
            q.model = m;
            q.phase = (rl_phase)phase;
            q.seq = phase == RL_PHASE_PREFILL ? 512 : 0;
            const rl_status st = rl_layer_step_compute(&q, rl_hw_find("h100-sxm"), H100, &s, &err);
            CHECK(st == RL_OK);
            if (st == RL_OK) check_sums(&s);
        }
    }
}

/* A step that needs more operators than it holds is refused, never cut short (it used to drop
 * operators past RL_LAYER_OPS_MAX silently). Llama-3.1-8B decode has, by the builder's order,
 * embedding, attn_norm, qkv_proj, rope, kv_cache_write, attention, o_proj, residual_add_attn,
 * mlp_norm, mlp_gate_up, mlp_act, mlp_down, residual_add_mlp, final_norm, lm_head: 15. */
static void operator_capacity(void) {
    rl_layer_request r = {0};
    r.model = rl_model_shape_find("llama-3.1-8b");
    r.phase = RL_PHASE_DECODE;
    rl_layer_step s;
    rl_error err;
    CHECK(rl__layer_step_compute_capped(&r, NULL, H100, 15, &s, &err) == RL_OK);
    CHECK(s.op_count == 15);
    CHECK(strcmp(s.ops[14].name, "lm_head") == 0);
    CHECK(rl__layer_step_compute_capped(&r, NULL, H100, 14, &s, &err) == RL_ERR_CAPACITY);
    CHECK(strcmp(err.field, "model") == 0);
    CHECK_STR_CONTAINS(err.message, "llama-3.1-8b needs more than 14 operators per step");
    CHECK_STR_CONTAINS(err.message, "\"lm_head\" did not fit");
    CHECK(s.op_count == 0 && s.time_s == 0); /* nothing partial is handed back */
    /* The largest step a described model builds fits the public capacity. */
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        if (m->unsupported) continue;
        for (int phase = 0; phase < 2; phase++) {
            rl_layer_request q = {0};
            q.model = m;
            q.phase = (rl_phase)phase;
            q.kv_len = 1 << 20; /* past every sliding window: the decode's two attention lines */
            CHECK(rl_layer_step_compute(&q, NULL, H100, &s, &err) == RL_OK);
            CHECK(s.op_count <= RL_LAYER_OPS_MAX);
        }
    }
}

int main(void) {
    llama_decode();
    llama_decode_tp2();
    llama_prefill();
    qwen3_moe();
    touched_limits();
    windows_and_gpt2();
    gemma3_kinds();
    llama4_chunks();
    deepseek_mla();
    errors();
    operator_capacity();
    return check_report("test_layer");
}
