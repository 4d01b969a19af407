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

/* The attention operator: today's model on the per-rank problem, compulsory traffic. */
static rl_status attention(builder *bl, const char *name, int64_t count, const rl_problem *p,
                           rl_error *err) {
    rl_workload w;
    rl_status st = rl_workload_compute(p, &w, err);
    if (st != RL_OK) return st;
    rl_layer_op *op = add_op(bl, name, RL_OP_ATTENTION, 0, count);
    if (!op) return RL_OK;
    const rl_traffic *t = &w.traffic[RL_MODEL_COMPULSORY];
    op->flops = w.flops;
    op->tile_flops = w.flops;
    op->act_in_bytes = t->q_bytes;
    op->act_out_bytes = t->o_bytes;
    op->kv_bytes = t->k_bytes + t->v_bytes;
    return RL_OK;
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

    /* Per layer. */
    norm(&bl, "attn_norm", 0, nl, T, h, ls->norm);
    gemm(&bl, "qkv_proj", 0, nl, T, (H + 2 * Hkv) * d, h, bl.b_w);
    if (ls->qk_norm) { /* one RMSNorm per Q head and per K head, γ of d each for Q and for K */
        norm(&bl, "qk_norm", 0, nl, T * (H + Hkv), d, RL_NORM_RMS);
        if (s->op_count) s->ops[s->op_count - 1].weight_bytes = 2 * d * bl.b;
    }
    if (ls->rope) {
        /* Rotate each (even, odd) pair of Q and K: 4 multiplies and 2 adds per pair = 3 FLOPs an
         * element; cos and sin read per token (d/2 each, fp32). */
        rl_layer_op *op = elementwise(&bl, "rope", 0, nl, T * (H + Hkv) * d, 3, 1, 0);
        if (op) op->act_in_bytes += T * d * 4;
    }
    {
        /* The new K and V rows copied into the cache in its dtype (vLLM's reshape_and_cache). */
        rl_layer_op *op = add_op(&bl, "kv_cache_write", RL_OP_ELEMENTWISE, 0, nl);
        if (op) {
            op->act_in_bytes = T * 2 * Hkv * d * bl.b;
            op->act_out_bytes = T * 2 * Hkv * d * bl.b_kv;
        }
    }
    /* Attention: decode sees min(L, window) keys in the sliding-window layers; prefill counts all
     * keys in every layer (the problem has no window: an upper bound there, said in the note). */
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
    const int64_t local = ls->local_layers < nl ? ls->local_layers : nl;
    const int64_t window = m->sliding_window;
    if (r.phase == RL_PHASE_DECODE && local > 0 && window > 0 && r.kv_len > window) {
        if (local < nl && (st = attention(&bl, "attention", nl - local, &p, err)) != RL_OK) return st;
        rl_problem pw = p;
        pw.kv_len = window;
        if ((st = attention(&bl, "attention_local", local, &pw, err)) != RL_OK) return st;
    } else {
        if ((st = attention(&bl, "attention", nl, &p, err)) != RL_OK) return st;
        if (r.phase == RL_PHASE_PREFILL && local > 0 && window > 0 && r.kv_len > window)
            snprintf(s->note, sizeof s->note,
                     "%s: the %lld-key window of its %lld sliding layers is not applied in "
                     "prefill; attention there counts all %lld keys (an upper bound)",
                     m->id, (long long)window, (long long)local, (long long)r.kv_len);
    }
    gemm(&bl, "o_proj", 0, nl, T, h, H * d, bl.b_w);
    if (ls->norms_per_layer >= 4) norm(&bl, "post_attn_norm", 0, nl, T, h, ls->norm);
    elementwise(&bl, "residual_add_attn", 0, nl, T * h, 1, 2, 0);
    norm(&bl, "mlp_norm", 0, nl, T, h, ls->norm);

    /* The activation: SiLU x·σ(x) as exp, add, divide, multiply = 4, times up = 5 per element;
     * tanh GELU 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) = 9 (tanh as one), gated 10. */
    const int gated = ls->act != RL_ACT_GELU_TANH;
    const double act_fpe = ls->act == RL_ACT_SILU_GLU ? 5 : (ls->act == RL_ACT_GELU_TANH_GLU ? 10 : 9);
    if (ls->experts > 0) {
        const double E = (double)ls->experts, k = (double)ls->experts_active;
        const double ie = (double)ls->expert_intermediate / tp;
        const double touched = rl_moe_experts_touched(ls->experts, ls->experts_active, T);
        s->experts_touched = touched;
        /* The router stays in the activation dtype, replicated on every rank. */
        gemm(&bl, "router", 0, nl, T, E, h, bl.b);
        expert_gemm(&bl, "experts_gate_up", nl, T * k, touched, 2 * ie, h);
        elementwise(&bl, "experts_act", 0, nl, T * k * ie, act_fpe, 2, 0);
        expert_gemm(&bl, "experts_down", nl, T * k, touched, h, ie);
        /* Combine: each token's k expert outputs scaled by its routing weight and summed. */
        elementwise(&bl, "experts_combine", 0, nl, T * h, 2 * k, k, 0);
        if (ls->shared_experts > 0) {
            const double is = (double)ls->shared_experts * ie;
            gemm(&bl, "shared_gate_up", 0, nl, T, 2 * is, h, bl.b_w);
            elementwise(&bl, "shared_act", 0, nl, T * is, act_fpe, 2, 0);
            gemm(&bl, "shared_down", 0, nl, T, h, is, bl.b_w);
        }
    } else {
        const double im = (double)ls->intermediate / tp;
        gemm(&bl, gated ? "mlp_gate_up" : "mlp_fc", 0, nl, T, gated ? 2 * im : im, h, bl.b_w);
        elementwise(&bl, "mlp_act", 0, nl, T * im, act_fpe, gated ? 2 : 1, 0);
        gemm(&bl, "mlp_down", 0, nl, T, h, im, bl.b_w);
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
