/* layer.c — attention in its decoder layer: every operator of one layer (norms, projections, RoPE,
 * the K/V cache append, attention, residual adds, the MLP or the mixture of experts) and, once per
 * step, the embedding, the final norm and the LM head, each with FLOPs, bytes and a bound time on
 * the same roof; the step's time, shares, and the context where attention passes the weights.
 * Formulas and what is left out: MODEL.md "The layer". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* CUTLASS's default tensor-op threadblock tile for Sm80 (include/cutlass/gemm/device/
 * default_gemm_configuration.h, DefaultGemmConfiguration<OpClassTensorOp, Sm80, ...>:
 * ThreadblockShape GemmShape<128, 256, 64>): M (tokens) × N (outputs) × K (inputs). */
#define TILE_M 128
#define TILE_N 256
#define TILE_K 64

#define DEFAULT_LAYER_SEQ 4096
#define DEFAULT_LAYER_KV 4096

const char *rl_phase_name(rl_phase phase) { return phase == RL_PHASE_PREFILL ? "prefill" : "decode"; }

rl_status rl_phase_parse(const char *text, const char *field, rl_phase *out, rl_error *err) {
    if (!field) field = "phase";
    if (text && strcmp(text, "decode") == 0) {
        if (out) *out = RL_PHASE_DECODE;
    } else if (text && strcmp(text, "prefill") == 0) {
        if (out) *out = RL_PHASE_PREFILL;
    } else {
        return rl__fail(err, RL_ERR_INVALID, field, "expected prefill or decode, got \"%.*s\"",
                        RL__QUOTE(text ? text : "", 40));
    }
    rl__ok(err);
    return RL_OK;
}

const char *rl_weight_dtype_name(rl_weight_dtype w) {
    switch (w) {
    case RL_WDTYPE_FP32: return "fp32";
    case RL_WDTYPE_FP16: return "fp16";
    case RL_WDTYPE_BF16: return "bf16";
    case RL_WDTYPE_FP8: return "fp8";
    case RL_WDTYPE_FP4: return "fp4";
    default: return "default";
    }
}

double rl_weight_dtype_bytes(rl_weight_dtype w) {
    switch (w) {
    case RL_WDTYPE_FP32: return 4;
    case RL_WDTYPE_FP16:
    case RL_WDTYPE_BF16: return 2;
    case RL_WDTYPE_FP8: return 1;
    case RL_WDTYPE_FP4: return (32 * 0.5 + 1) / 32; /* MXFP4: 32 × 4 bit + one 8-bit scale */
    default: return 0;
    }
}

rl_status rl_weight_dtype_parse(const char *text, const char *field, rl_weight_dtype *out,
                                rl_error *err) {
    if (!field) field = "weight-dtype";
    for (int w = RL_WDTYPE_FP32; w < RL_WDTYPE_COUNT; w++) {
        if (text && strcmp(text, rl_weight_dtype_name((rl_weight_dtype)w)) == 0) {
            if (out) *out = (rl_weight_dtype)w;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_INVALID, field,
                    "expected one of fp32, fp16, bf16, fp8, fp4 (MXFP4), got \"%.*s\"",
                    RL__QUOTE(text ? text : "", 40));
}

const char *rl_op_kind_name(rl_op_kind kind) {
    switch (kind) {
    case RL_OP_ATTENTION: return "attention";
    case RL_OP_ELEMENTWISE: return "elementwise";
    case RL_OP_GATHER: return "gather";
    default: return "gemm";
    }
}

double rl_moe_experts_touched(int64_t experts, int64_t active, double tokens) {
    if (experts <= 0 || active <= 0 || tokens <= 0) return 0;
    const double e = (double)experts, k = (double)(active < experts ? active : experts);
    return e * (1.0 - pow(1.0 - k / e, tokens));
}

static double round_up(double x, double tile) { return ceil(x / tile) * tile; }

/* The step under construction: the roof and the dtypes' bytes every operator uses. */
typedef struct {
    rl_layer_step *s;
    double b, b_kv, b_w; /* activation, K/V cache and linear-weight bytes per element */
    size_t cap;          /* operators the step may hold (RL_LAYER_OPS_MAX) */
    const char *overflow; /* the first operator that did not fit; the step is then refused */
} builder;

static rl_layer_op *add_op(builder *bl, const char *name, rl_op_kind kind, int per_step,
                           int64_t count) {
    rl_layer_step *s = bl->s;
    if (count <= 0) return NULL; /* no instance: nothing to add */
    if (s->op_count >= bl->cap) {
        if (!bl->overflow) bl->overflow = name;
        return NULL;
    }
    rl_layer_op *op = &s->ops[s->op_count++];
    memset(op, 0, sizeof *op);
    snprintf(op->name, sizeof op->name, "%s", name);
    op->kind = kind;
    op->per_step = per_step;
    op->count = count;
    return op;
}

/* A GEMM: M tokens × K inputs → N outputs, weights K·N in `wb` bytes each, `mult` independent
 * GEMMs of that shape (MoE experts touched: weights read once each, M per expert). */
static void gemm(builder *bl, const char *name, int per_step, int64_t count, double m, double n,
                 double k, double wb) {
    rl_layer_op *op = add_op(bl, name, RL_OP_GEMM, per_step, count);
    if (!op) return;
    op->gemm_m = (int64_t)ceil(m);
    op->gemm_n = (int64_t)n;
    op->gemm_k = (int64_t)k;
    op->flops = 2 * m * n * k;
    op->tile_flops = 2 * round_up(m, TILE_M) * round_up(n, TILE_N) * round_up(k, TILE_K);
    op->weight_bytes = k * n * wb;
    op->act_in_bytes = m * k * bl->b;
    op->act_out_bytes = m * n * bl->b;
}

/* `heads` independent GEMMs of T tokens × K inputs → N outputs, one weight matrix K·N per head
 * (absorbed MLA: the query through W_UK, the output latent through W_UV, per head). */
static void head_gemm(builder *bl, const char *name, int64_t count, double heads, double m,
                      double n, double k) {
    rl_layer_op *op = add_op(bl, name, RL_OP_GEMM, 0, count);
    if (!op) return;
    op->gemm_m = (int64_t)ceil(m);
    op->gemm_n = (int64_t)n;
    op->gemm_k = (int64_t)k;
    op->flops = 2 * heads * m * n * k;
    op->tile_flops = 2 * heads * round_up(m, TILE_M) * round_up(n, TILE_N) * round_up(k, TILE_K);
    op->weight_bytes = heads * k * n * bl->b_w;
    op->act_in_bytes = heads * m * k * bl->b;
    op->act_out_bytes = heads * m * n * bl->b;
}

/* The experts of a mixture: T·k routed (token, expert) rows over `touched` experts, each expert's
 * GEMM M ≈ T·k / touched rows, its weights read once. */
static void expert_gemm(builder *bl, const char *name, int64_t count, double rows, double touched,
                        double n, double k) {
    rl_layer_op *op = add_op(bl, name, RL_OP_GEMM, 0, count);
    if (!op) return;
    const double m_each = rows / touched;
    op->gemm_m = (int64_t)ceil(m_each);
    op->gemm_n = (int64_t)n;
    op->gemm_k = (int64_t)k;
    op->flops = 2 * rows * n * k;
    op->tile_flops =
        2 * touched * round_up(m_each, TILE_M) * round_up(n, TILE_N) * round_up(k, TILE_K);
    op->weight_bytes = touched * k * n * bl->b_w;
    op->act_in_bytes = rows * k * bl->b;
    op->act_out_bytes = rows * n * bl->b;
}

/* An element-wise operator over `elems` elements: `fpe` FLOPs each, `reads` input elements and
 * one output element each (activation dtype), plus `wbytes` of small weights. */
static rl_layer_op *elementwise(builder *bl, const char *name, int per_step, int64_t count,
                                double elems, double fpe, double reads, double wbytes) {
    rl_layer_op *op = add_op(bl, name, RL_OP_ELEMENTWISE, per_step, count);
    if (!op) return NULL;
    op->flops = fpe * elems;
    op->tile_flops = op->flops;
    op->act_in_bytes = reads * elems * bl->b;
    op->act_out_bytes = elems * bl->b;
    op->weight_bytes = wbytes;
    return op;
}

/* A norm over `rows` vectors of `width`: RMSNorm x², Σ, ·r, ·γ = 4 FLOPs per element, weight γ;
 * LayerNorm Σ, −μ, x², Σ, ·r, ·γ, +β = 7, weights γ and β (in the activation dtype). */
static void norm(builder *bl, const char *name, int per_step, int64_t count, double rows,
                 double width, rl_norm_kind kind) {
    const int ln = kind == RL_NORM_LAYER;
    elementwise(bl, name, per_step, count, rows * width, ln ? 7 : 4, 1, (ln ? 2 : 1) * width * bl->b);
}

/* The attention operator: today's model on the per-rank problems (one, or a chunked layer's
 * pieces), compulsory traffic, summed. */
static rl_status attention_parts(builder *bl, const char *name, int64_t count, const rl_problem *ps,
                                 const double *times, size_t n, rl_error *err) {
    if (count <= 0) return RL_OK;
    double flops = 0, q = 0, o = 0, kv = 0;
    for (size_t i = 0; i < n; i++) {
        rl_workload w;
        rl_status st = rl_workload_compute(&ps[i], &w, err);
        if (st != RL_OK) return st;
        const rl_traffic *t = &w.traffic[RL_MODEL_COMPULSORY];
        const double x = times ? times[i] : 1;
        flops += x * w.flops;
        q += x * t->q_bytes;
        o += x * t->o_bytes;
        kv += x * (t->k_bytes + t->v_bytes);
    }
    rl_layer_op *op = add_op(bl, name, RL_OP_ATTENTION, 0, count);
    if (!op) return RL_OK;
    op->flops = flops;
    op->tile_flops = flops;
    op->act_in_bytes = q;
    op->act_out_bytes = o;
    op->kv_bytes = kv;
    return RL_OK;
}

static rl_status attention(builder *bl, const char *name, int64_t count, const rl_problem *p,
                           rl_error *err) {
    return attention_parts(bl, name, count, p, NULL, 1, err);
}

/* Chunked local attention (Llama 4): the N queries at key positions D = L − N … L − 1 each see
 * the keys of their own C-key chunk up to themselves. Chunks share no keys, so the layer is
 * exactly a sum of causal problems: the first chunk's queries (D … the chunk's end) against its
 * keys from the chunk start, the whole chunks between (seq = kv-len = C, counted once each) and
 * the last chunk's queries against its keys so far. Decode: one problem with
 * ((L − 1) mod C) + 1 keys. */
static rl_status chunked_attention(builder *bl, const char *name, int64_t count,
                                   const rl_problem *p, int64_t chunk, rl_error *err) {
    const int64_t L = p->kv_len, D = L - p->seq;
    const int64_t c0 = D / chunk, c1 = (L - 1) / chunk;
    rl_problem parts[3];
    double times[3] = {1, 1, 1};
    size_t n = 0;
    rl_problem q = *p;
    q.causal = 1;
    if (c0 == c1) {
        q.kv_len = L - c0 * chunk;
        parts[n++] = q;
    } else {
        q.seq = (c0 + 1) * chunk - D;
        q.kv_len = chunk;
        parts[n++] = q;
        if (c1 - c0 > 1) {
            rl_problem f = *p;
            f.causal = 1;
            f.seq = f.kv_len = chunk;
            times[n] = (double)(c1 - c0 - 1);
            parts[n++] = f;
        }
        rl_problem last = *p;
        last.causal = 1;
        last.seq = last.kv_len = L - c1 * chunk;
        parts[n++] = last;
    }
    return attention_parts(bl, name, count, parts, times, n, err);
}

static void finish_op(rl_layer_op *op, rl_roof roof, double ew_peak) {
    op->bytes = op->weight_bytes + op->act_in_bytes + op->act_out_bytes + op->kv_bytes;
    op->peak_flops_per_s = op->kind == RL_OP_GEMM || op->kind == RL_OP_ATTENTION
                               ? roof.peak_flops_per_s
                               : ew_peak;
    op->intensity_flop_per_byte = op->bytes > 0 ? op->flops / op->bytes : 0;
    op->memory_time_s = op->bytes / roof.bandwidth_bytes_per_s;
    op->compute_time_s = op->peak_flops_per_s > 0 ? op->tile_flops / op->peak_flops_per_s : 0;
    op->time_s = op->memory_time_s > op->compute_time_s ? op->memory_time_s : op->compute_time_s;
    op->bound = op->compute_time_s > op->memory_time_s ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
    op->step_time_s = (double)op->count * op->time_s;
}

/* Checks and defaults; errors name the CLI flag. */
static rl_status resolve(const rl_layer_request *in, rl_layer_request *r, rl_error *err) {
    *r = *in;
    const rl_model_shape *m = r->model;
    if (!m) return rl__fail(err, RL_ERR_INVALID, "model", "missing; expected a model id (see rooflab models)");
    if (m->unsupported)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "model", "%s cannot be described here: %s", m->id,
                        m->unsupported);
    if (m->layer.hidden <= 0 || m->layer.layers <= 0 || m->layer.vocab <= 0)
        return rl__fail(err, RL_ERR_UNSUPPORTED, "model", "%s has no layer shape", m->id);
    if (r->phase != RL_PHASE_DECODE && r->phase != RL_PHASE_PREFILL)
        return rl__fail(err, RL_ERR_INVALID, "phase", "expected prefill or decode");
    if (r->batch == 0) r->batch = 1;
    if (r->tp == 0) r->tp = 1;
    if (r->dtype == RL_DTYPE_DEFAULT) r->dtype = RL_DTYPE_BF16;
    if (r->kv_dtype == RL_DTYPE_DEFAULT) r->kv_dtype = r->dtype;
    if (r->batch < 1 || r->batch > RL_MAX_DIM)
        return rl__fail(err, RL_ERR_RANGE, "batch", "expected 1 to %lld, got %lld",
                        (long long)RL_MAX_DIM, (long long)r->batch);
    if (r->phase == RL_PHASE_DECODE) {
        if (r->seq > 1)
            return rl__fail(err, RL_ERR_INCONSISTENT, "seq",
                            "decode adds one token per sequence; seq %lld is for --phase prefill "
                            "(decode's context is kv-len)",
                            (long long)r->seq);
        r->seq = 1;
        if (r->kv_len == 0) r->kv_len = DEFAULT_LAYER_KV;
    } else {
        if (r->seq == 0) r->seq = DEFAULT_LAYER_SEQ;
        if (r->kv_len == 0) r->kv_len = r->seq;
        if (r->seq < 1 || r->seq > RL_MAX_DIM)
            return rl__fail(err, RL_ERR_RANGE, "seq", "expected 1 to %lld, got %lld",
                            (long long)RL_MAX_DIM, (long long)r->seq);
        if (r->kv_len < r->seq)
            return rl__fail(err, RL_ERR_INCONSISTENT, "kv-len",
                            "prefill needs kv-len (%lld) >= seq (%lld): the prompt's keys are "
                            "cached too",
                            (long long)r->kv_len, (long long)r->seq);
    }
    if (r->kv_len < 1 || r->kv_len > RL_MAX_DIM)
        return rl__fail(err, RL_ERR_RANGE, "kv-len", "expected 1 to %lld, got %lld",
                        (long long)RL_MAX_DIM, (long long)r->kv_len);
    if ((double)r->batch * (double)r->seq > (double)RL_MAX_DIM * 64)
        return rl__fail(err, RL_ERR_RANGE, "batch", "batch x seq = %.0f tokens is over %lld",
                        (double)r->batch * (double)r->seq, (long long)RL_MAX_DIM * 64);
    if (r->dtype < RL_DTYPE_FP32 || r->dtype >= RL_DTYPE_COUNT)
        return rl__fail(err, RL_ERR_INVALID, "dtype", "unknown dtype code %d", (int)r->dtype);
    if (r->kv_dtype < RL_DTYPE_FP32 || r->kv_dtype >= RL_DTYPE_COUNT)
        return rl__fail(err, RL_ERR_INVALID, "kv-dtype", "unknown dtype code %d", (int)r->kv_dtype);
    if (r->weight_dtype < RL_WDTYPE_DEFAULT || r->weight_dtype >= RL_WDTYPE_COUNT)
        return rl__fail(err, RL_ERR_INVALID, "weight-dtype", "unknown weight dtype code %d",
                        (int)r->weight_dtype);
    const int64_t tp = r->tp;
    if (tp < 1 || tp > 1024)
        return rl__fail(err, RL_ERR_RANGE, "tp", "expected 1 to 1024, got %lld", (long long)tp);
    if (m->heads % tp != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "tp",
                        "%lld does not divide %s's %lld query heads", (long long)tp, m->id,
                        (long long)m->heads);
    if (m->kv_heads % tp != 0 && tp % m->kv_heads != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "tp",
                        "%lld neither divides nor is a multiple of %s's %lld KV heads",
                        (long long)tp, m->id, (long long)m->kv_heads);
    const rl_layer_shape *ls = &m->layer;
    const int64_t width = ls->experts > 0 ? ls->expert_intermediate : ls->intermediate;
    if (width % tp != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "tp",
                        "%lld does not divide %s's %s size %lld", (long long)tp, m->id,
                        ls->experts > 0 ? "expert intermediate" : "intermediate",
                        (long long)width);
    if (ls->experts > 0 && ls->dense_layers > 0 && ls->intermediate % tp != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "tp",
                        "%lld does not divide %s's dense intermediate size %lld", (long long)tp,
                        m->id, (long long)ls->intermediate);
    rl__ok(err);
    return RL_OK;
}

rl_status rl__layer_step_compute_capped(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                        size_t cap, rl_layer_step *out, rl_error *err) {
    if (!req || !out) return rl__fail(err, RL_ERR_INVALID, "model", "missing request");
    rl_status st = rl_roof_check(roof, err);
    if (st != RL_OK) return st;
    rl_layer_request r;
    if ((st = resolve(req, &r, err)) != RL_OK) return st;
    memset(out, 0, sizeof *out);
    rl_layer_step *s = out;
    s->request = r;
    s->roof = roof;
    s->elementwise_peak_flops_per_s =
        hw && hw->peak_flops_per_s[RL_PEAK_FP32] > 0 ? hw->peak_flops_per_s[RL_PEAK_FP32]
                                                     : roof.peak_flops_per_s;
    const rl_model_shape *m = r.model;
    const rl_layer_shape *ls = &m->layer;
    builder bl = {s, rl_dtype_bytes(r.dtype), rl_dtype_bytes(r.kv_dtype),
                  rl_weight_dtype_bytes(r.weight_dtype),
                  cap < RL_LAYER_OPS_MAX ? cap : RL_LAYER_OPS_MAX, NULL};
    if (bl.b_w == 0) bl.b_w = bl.b;
    const double tp = (double)r.tp;
    const double T = (double)r.batch * (double)r.seq;  /* tokens through each layer */
    const double B = (double)r.batch;
    const double h = (double)ls->hidden, d = (double)m->head_dim;
    const int64_t nl = ls->layers;
    s->tokens = r.batch * r.seq;
    s->heads = m->heads / r.tp;
    s->kv_heads = m->kv_heads >= r.tp ? m->kv_heads / r.tp : 1; /* replicated past Hkv ranks */
    if (m->kv_lora_rank > 0 && r.phase == RL_PHASE_DECODE) s->kv_heads = 1; /* one latent */
    const double H = (double)s->heads, Hkv = (double)s->kv_heads;

    /* Once per step: the embedding lookup (vocabulary-parallel: each rank holds V/tp rows, so on
     * average T/tp of the T rows are its own; learned positions add a second row per token). */
    {
        rl_layer_op *op = add_op(&bl, "embedding", RL_OP_GATHER, 1, 1);
        if (op) {
            const double tables = ls->rope ? 1 : 2;
            op->flops = ls->rope ? 0 : T * h;
            op->tile_flops = op->flops;
            op->weight_bytes = tables * T / tp * h * bl.b;
            op->act_in_bytes = T * 4; /* the token ids, int32 */
            op->act_out_bytes = T * h * bl.b;
        }
    }

    /* Per layer. MLA (MODEL.md "The layer", MLA): the query through q_a_proj, its norm and
     * q_b_proj (d = nope + rope per head), the latent through kv_a_proj_with_mqa (R + DR, both
     * replicated on every rank) and its norm; prefill decompresses K and V of all L keys with
     * kv_b_proj (MHA form), decode folds kv_b_proj's halves into the query (W_UK) and the output
     * (W_UV) per head (absorbed form). */
    const int mla = m->kv_lora_rank > 0;
    const int decode = r.phase == RL_PHASE_DECODE;
    const double dv = m->head_dim_v ? (double)m->head_dim_v : d;
    const double R = (double)m->kv_lora_rank, DR = (double)m->rope_dim, dnope = d - DR;
    const int64_t local = ls->local_layers < nl ? ls->local_layers : nl;
    norm(&bl, "attn_norm", 0, nl, T, h, ls->norm);
    if (mla) {
        const double qr = (double)ls->q_lora_rank;
        if (qr > 0) {
            gemm(&bl, "q_a_proj", 0, nl, T, qr, h, bl.b_w);
            norm(&bl, "q_a_norm", 0, nl, T, qr, RL_NORM_RMS);
            gemm(&bl, "q_b_proj", 0, nl, T, H * d, qr, bl.b_w);
        } else {
            gemm(&bl, "q_proj", 0, nl, T, H * d, h, bl.b_w);
        }
        gemm(&bl, "kv_a_proj", 0, nl, T, R + DR, h, bl.b_w);
        norm(&bl, "kv_a_norm", 0, nl, T, R, RL_NORM_RMS);
        if (decode)
            head_gemm(&bl, "q_absorb", nl, H, T, R, dnope);
        else
            gemm(&bl, "kv_b_proj", 0, nl, B * (double)r.kv_len, H * (dnope + dv), R, bl.b_w);
    } else {
        gemm(&bl, "qkv_proj", 0, nl, T, (H + 2 * Hkv) * d, h, bl.b_w);
    }
    if (ls->qk_norm) { /* one RMSNorm per Q head and per K head, γ of d each for Q and for K */
        norm(&bl, "qk_norm", 0, nl, T * (H + Hkv), d, RL_NORM_RMS);
        if (s->op_count) s->ops[s->op_count - 1].weight_bytes = 2 * d * bl.b;
    }
    if (ls->rope) {
        /* Rotate each (even, odd) pair of Q and K: 4 multiplies and 2 adds per pair = 3 FLOPs an
         * element; cos and sin read per token (d/2 each, fp32). MLA rotates only the DR rope
         * part of each query head and of the one shared key; Llama 4's NoPE layers none. */
        const double rd = mla ? DR : d, rheads = mla ? H + 1 : H + Hkv;
        const int64_t rl_count = ls->nope_global ? local : nl;
        rl_layer_op *op = elementwise(&bl, "rope", 0, rl_count, T * rheads * rd, 3, 1, 0);
        if (op) op->act_in_bytes += T * rd * 4;
    }
    {
        /* The new cache rows copied in its dtype (vLLM's reshape_and_cache): K and V per KV
         * head, or MLA's one latent of R + DR. */
        const double row = mla ? R + DR : 2 * Hkv * d;
        rl_layer_op *op = add_op(&bl, "kv_cache_write", RL_OP_ELEMENTWISE, 0, nl);
        if (op) {
            op->act_in_bytes = T * row * bl.b;
            op->act_out_bytes = T * row * bl.b_kv;
        }
    }
    /* Attention per layer kind: the global layers see all L keys; the local ones their sliding
     * window (--window: W keys ending at the query, causal) or their chunk. MLA: decode in the
     * absorbed form (H query heads on one latent), prefill in the MHA form. */
    rl_problem p = {0};
    p.batch = r.batch;
    p.heads = s->heads;
    p.kv_heads = s->kv_heads;
    p.seq = r.seq;
    p.kv_len = r.kv_len;
    p.head_dim = m->head_dim;
    p.dtype = r.dtype;
    p.kv_dtype = r.kv_dtype;
    p.causal = r.phase == RL_PHASE_PREFILL;
    if (mla && decode) {
        p.kv_heads = 0;
        p.head_dim = 0;
        p.kv_lora_rank = m->kv_lora_rank;
        p.rope_dim = m->rope_dim;
    } else if (m->head_dim_v) {
        p.head_dim_v = m->head_dim_v;
    }
    p.topk = m->topk; /* DSA (DeepSeek-V3.2): each query attends to its top-k keys */
    if ((st = attention(&bl, "attention", nl - local, &p, err)) != RL_OK) return st;
    if (m->topk && nl - local > 0) {
        /* the lightning indexer that picks them: its own kernel over every visible key
         * (rl_indexer, MODEL.md "--topk"), index keys read as the cache is */
        rl_workload wi;
        if ((st = rl_workload_compute(&p, &wi, err)) != RL_OK) return st;
        rl_layer_op *op = add_op(&bl, "indexer", RL_OP_ATTENTION, 0, nl - local);
        if (op) {
            op->flops = op->tile_flops = wi.indexer.flops;
            op->act_in_bytes = wi.indexer.q_bytes;
            op->kv_bytes = wi.indexer.k_bytes;
            op->act_out_bytes = wi.indexer.logit_bytes + wi.indexer.index_bytes;
        }
    }
    if (local > 0 && m->sliding_window > 0) {
        rl_problem pw = p;
        pw.window = m->sliding_window;
        pw.causal = 1;
        if ((st = attention(&bl, "attention_local", local, &pw, err)) != RL_OK) return st;
    } else if (local > 0 && m->chunk > 0) {
        if ((st = chunked_attention(&bl, "attention_chunked", local, &p, m->chunk, err)) != RL_OK)
            return st;
    }
    if (m->sink_logit)
        snprintf(s->note, sizeof s->note,
                 "%s: the learned sink logit of each head adds one exp per softmax row and no "
                 "bytes; not counted",
                 m->id);
    else if (ls->nope_global)
        snprintf(s->note, sizeof s->note,
                 "%s: the weightless L2 norm of Q and K in its %lld RoPE layers (use_qk_norm, 3 "
                 "FLOPs an element, no weights) and the attention temperature tuning of its "
                 "global layers are not counted",
                 m->id, (long long)local);
    if (mla && decode) head_gemm(&bl, "v_absorb", nl, H, T, dv, R);
    gemm(&bl, "o_proj", 0, nl, T, h, H * dv, bl.b_w);
    if (ls->norms_per_layer >= 4) norm(&bl, "post_attn_norm", 0, nl, T, h, ls->norm);
    elementwise(&bl, "residual_add_attn", 0, nl, T * h, 1, 2, 0);
    norm(&bl, "mlp_norm", 0, nl, T, h, ls->norm);

    /* The activation: SiLU x·σ(x) as exp, add, divide, multiply = 4, times up = 5 per element;
     * tanh GELU 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) = 9 (tanh as one), gated 10. */
    const int gated = ls->act != RL_ACT_GELU_TANH;
    const double act_fpe = ls->act == RL_ACT_SILU_GLU ? 5 : (ls->act == RL_ACT_GELU_TANH_GLU ? 10 : 9);
    /* A mixture in every layer but the dense ones (DeepSeek's first layers, Maverick's
     * alternate layers), which run the dense MLP of the intermediate size. */
    const int64_t dense_n = ls->experts > 0 ? (ls->dense_layers < nl ? ls->dense_layers : nl) : nl;
    const int64_t moe_n = nl - dense_n;
    if (moe_n > 0) {
        const double E = (double)ls->experts, k = (double)ls->experts_active;
        const double ie = (double)ls->expert_intermediate / tp;
        const double touched = rl_moe_experts_touched(ls->experts, ls->experts_active, T);
        s->experts_touched = touched;
        /* The router stays in the activation dtype, replicated on every rank. */
        gemm(&bl, "router", 0, moe_n, T, E, h, bl.b);
        expert_gemm(&bl, "experts_gate_up", moe_n, T * k, touched, 2 * ie, h);
        elementwise(&bl, "experts_act", 0, moe_n, T * k * ie, act_fpe, 2, 0);
        expert_gemm(&bl, "experts_down", moe_n, T * k, touched, h, ie);
        /* Combine: each token's k expert outputs scaled by its routing weight and summed. */
        elementwise(&bl, "experts_combine", 0, moe_n, T * h, 2 * k, k, 0);
        if (ls->shared_experts > 0) {
            const double is = (double)ls->shared_experts * ie;
            gemm(&bl, "shared_gate_up", 0, moe_n, T, 2 * is, h, bl.b_w);
            elementwise(&bl, "shared_act", 0, moe_n, T * is, act_fpe, 2, 0);
            gemm(&bl, "shared_down", 0, moe_n, T, h, is, bl.b_w);
        }
    }
    if (dense_n > 0) {
        const double im = (double)ls->intermediate / tp;
        gemm(&bl, gated ? "mlp_gate_up" : "mlp_fc", 0, dense_n, T, gated ? 2 * im : im, h, bl.b_w);
        elementwise(&bl, "mlp_act", 0, dense_n, T * im, act_fpe, gated ? 2 : 1, 0);
        gemm(&bl, "mlp_down", 0, dense_n, T, h, im, bl.b_w);
    }
    if (ls->norms_per_layer >= 4) norm(&bl, "post_mlp_norm", 0, nl, T, h, ls->norm);
    elementwise(&bl, "residual_add_mlp", 0, nl, T * h, 1, 2, 0);

    /* Once per step: the final norm over every token, the LM head over each sequence's last
     * (vocabulary-parallel, V/tp rows per rank, in the activation dtype). */
    norm(&bl, "final_norm", 1, 1, T, h, ls->norm);
    gemm(&bl, "lm_head", 1, 1, B, ceil((double)ls->vocab / tp), h, bl.b);
    /* An operator that did not fit would leave the step short of its time: refuse it whole. */
    if (bl.overflow) {
        const char *first = bl.overflow;
        memset(out, 0, sizeof *out);
        return rl__fail(err, RL_ERR_CAPACITY, "model",
                        "%s needs more than %zu operators per step (\"%s\" did not fit); "
                        "the step holds at most RL_LAYER_OPS_MAX = %d",
                        m->id, bl.cap, first, RL_LAYER_OPS_MAX);
    }

    /* Times, sums, shares. */
    double per_layer = 0;
    for (size_t i = 0; i < s->op_count; i++) {
        rl_layer_op *op = &s->ops[i];
        finish_op(op, roof, s->elementwise_peak_flops_per_s);
        const double c = (double)op->count;
        s->time_s += op->step_time_s;
        if (!op->per_step) per_layer += op->step_time_s;
        s->flops += c * op->flops;
        s->bytes += c * op->bytes;
        s->kv_bytes += c * op->kv_bytes;
        const int matrices = op->kind == RL_OP_GEMM || op->kind == RL_OP_GATHER;
        if (matrices) s->weights_time_s += op->step_time_s;
        if (op->kind == RL_OP_ATTENTION) s->attention_time_s += op->step_time_s;
        s->weight_bytes += c * op->weight_bytes;
        s->activation_bytes += c * (op->act_in_bytes + op->act_out_bytes);
    }
    for (size_t i = 0; i < s->op_count; i++)
        s->ops[i].share = s->time_s > 0 ? s->ops[i].step_time_s / s->time_s : 0;
    s->layer_time_s = per_layer / (double)nl;
    s->attention_share = s->time_s > 0 ? s->attention_time_s / s->time_s : 0;
    s->weights_share = s->time_s > 0 ? s->weights_time_s / s->time_s : 0;
    /* Megatron: an all-reduce of T·h activations after o_proj and after the MLP's down
     * projection, and one after the vocabulary-parallel embedding. Bytes only. */
    if (r.tp > 1) s->allreduce_bytes = (2.0 * (double)nl + 1) * T * h * bl.b;

    /* The predicted time of one global-attention layer under the generic profile. */
    if (hw) {
        rl_prediction pr;
        rl_kernel_spec spec = {0};
        if (rl_predict(&p, hw, roof, &spec, &pr, NULL) == RL_OK) s->attention_predicted_time_s = pr.time_s;
    }
    rl__ok(err);
    return RL_OK;
}

rl_status rl_layer_step_compute(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                rl_layer_step *out, rl_error *err) {
    return rl__layer_step_compute_capped(req, hw, roof, RL_LAYER_OPS_MAX, out, err);
}

rl_status rl_layer_crossover_find(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                  rl_layer_crossover *out, rl_error *err) {
    if (!req || !out) return rl__fail(err, RL_ERR_INVALID, "model", "missing request");
    memset(out, 0, sizeof *out);
    const int prefill = req->phase == RL_PHASE_PREFILL;
    out->varied = prefill ? "seq" : "kv-len";
    rl_layer_request r = *req;
    rl_layer_step one;
    rl_layer_step *s = &one;
    /* passes(x): attention's step time ≥ the weights' at x. */
#define AT(x)                                                                                      \
    do {                                                                                           \
        if (prefill) {                                                                             \
            r.seq = (x);                                                                           \
            r.kv_len = (x);                                                                        \
        } else {                                                                                   \
            r.kv_len = (x);                                                                        \
        }                                                                                          \
    } while (0)
    AT(1);
    rl_status st = rl_layer_step_compute(&r, hw, roof, s, err);
    if (st != RL_OK) return st;
    if (s->attention_time_s >= s->weights_time_s) {
        out->found = 1;
        out->at_minimum = 1;
        out->value = 1;
        rl__ok(err);
        return RL_OK;
    }
    int64_t lo = 1, hi = RL_MAX_DIM;
    if (prefill && r.batch > 64) hi = RL_MAX_DIM * 64 / r.batch; /* B·N within the token limit */
    AT(hi);
    if ((st = rl_layer_step_compute(&r, hw, roof, s, err)) != RL_OK) return st;
    if (s->attention_time_s < s->weights_time_s) {
        rl__ok(err);
        return RL_OK; /* not found below the limit */
    }
    while (hi - lo > 1) { /* invariant: fails at lo, passes at hi */
        const int64_t mid = lo + (hi - lo) / 2;
        AT(mid);
        if ((st = rl_layer_step_compute(&r, hw, roof, s, err)) != RL_OK) return st;
        if (s->attention_time_s >= s->weights_time_s)
            hi = mid;
        else
            lo = mid;
    }
#undef AT
    out->found = 1;
    out->value = hi;
    rl__ok(err);
    return RL_OK;
}
