/* quiz.c — exercises with unit-checked answers (MODEL.md "Exercises"). rl_quiz_pose asks a
 * question about a problem on a preset, rl_quiz_draw picks both from a seed and poses it; the
 * expected value comes from rl_report_compute, never re-derived here. rl_quiz_check parses the answer with the one units parser (rl_parse_quantity),
 * checks its dimension and value, and names the step of the solution a wrong answer departs from:
 * a slip is a value the student gets by one known mistake (MAC vs FLOP, a prefix, bits, GiB, a
 * missing H/Hkv, a dtype size, another traffic model, the other side of the max ...). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rooflab/quiz.h"
#include "internal.h"

static const char *const kind_names[RL_QUIZ_KIND_COUNT] = {
    "any", "flops", "bytes", "intensity", "ridge", "time", "regime", "gemm-intensity",
    "norm-intensity", "softmax-intensity"};
static const char *const slip_names[RL_SLIP_COUNT] = {
    "none",  "dimension",  "mac-vs-flop", "prefix",      "bits-vs-bytes", "gib-vs-gb", "gqa",
    "dtype-size", "traffic-model", "other-side", "sparse-peak", "inverted", "regime", "unknown", "output-write",
    "weights"};
/* The steps of a solution, as the page's worked calculation names them. */
static const char *const step_titles[RL_QUIZ_STEP_COUNT] = {
    "scored pairs P = N\xC2\xB7L",
    "FLOPs F = 4\xC2\xB7" "B\xC2\xB7H\xC2\xB7" "d\xC2\xB7P",
    "bytes per tensor: Q, O = b\xC2\xB7" "B\xC2\xB7H\xC2\xB7N\xC2\xB7" "d; K, V = b_kv\xC2\xB7"
    "B\xC2\xB7Hkv\xC2\xB7L\xC2\xB7" "d",
    "the traffic model's bytes",
    "intensity I = F / bytes",
    "ridge I* = \xCF\x80 / \xCE\xB2",
    "bound time t = max(F/\xCF\x80, bytes/\xCE\xB2)",
    "regime: memory-bound when I < I*",
    "the operator's FLOPs",
    "the operator's bytes: inputs and weights read, output written"};

const char *rl_quiz_kind_name(rl_quiz_kind kind) {
    return kind >= 0 && kind < RL_QUIZ_KIND_COUNT ? kind_names[kind] : "unknown";
}

const char *rl_quiz_slip_name(rl_quiz_slip slip) {
    return slip >= 0 && slip < RL_SLIP_COUNT ? slip_names[slip] : "unknown";
}

const char *rl_quiz_step_title(rl_quiz_step step) {
    return step >= 0 && step < RL_QUIZ_STEP_COUNT ? step_titles[step] : "";
}

rl_status rl_quiz_kind_parse(const char *text, const char *field, rl_quiz_kind *out,
                             rl_error *err) {
    for (int k = 0; k < RL_QUIZ_KIND_COUNT; k++) {
        if (text && strcmp(text, kind_names[k]) == 0) {
            *out = (rl_quiz_kind)k;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_UNKNOWN, field ? field : "kind",
                    "\"%.*s\" is not a question kind; expected one of any, flops, bytes, "
                    "intensity, ridge, time, regime, gemm-intensity, norm-intensity, "
                    "softmax-intensity", RL__QUOTE(text ? text : "", 40));
}

rl_status rl_quiz_seed_parse(const char *text, const char *field, uint32_t *out, rl_error *err) {
    const char *s = text ? text : "";
    uint64_t v = 0;
    size_t n = 0;
    for (; s[n] >= '0' && s[n] <= '9' && n < 11; n++) v = v * 10 + (uint64_t)(s[n] - '0');
    if (n == 0 || s[n] != '\0' || v > 4294967295ULL)
        return rl__fail(err, RL_ERR_INVALID, field ? field : "seed",
                        "expected a whole number 0 to 4294967295, got \"%.*s\"", RL__QUOTE(s, 40));
    *out = (uint32_t)v;
    rl__ok(err);
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Drawing: splitmix64 from the seed, so a seed draws the same question everywhere.
 * ------------------------------------------------------------------------------------------- */

static uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define PICK(state, arr) (arr)[next_u64(state) % (sizeof(arr) / sizeof((arr)[0]))]

/* Presets with every figure the questions use; a fixed list, so new presets change no draw. */
static const char *const quiz_hw[] = {"a100-sxm4-80gb", "h100-sxm", "h200-sxm",
                                      "l4", "rtx4090", "mi300x"};

/* The seed's problem, preset and traffic model, as a request rl_quiz_pose answers. */
static rl_status draw_problem(uint64_t *st, rl_quiz_pose_request *req, rl_error *err) {
    static const rl_dtype dtypes[] = {RL_DTYPE_FP16, RL_DTYPE_BF16, RL_DTYPE_FP32, RL_DTYPE_FP8};
    static const int64_t heads[] = {8, 16, 32, 64}, groups[] = {1, 1, 4, 8}, dims[] = {64, 128};
    static const int64_t pre_b[] = {1, 2, 4}, pre_n[] = {1024, 2048, 4096, 8192};
    static const int64_t dec_b[] = {1, 8, 16, 64}, dec_l[] = {2048, 4096, 8192, 32768};
    static const rl_model pre_models[] = {RL_MODEL_COMPULSORY, RL_MODEL_TILED, RL_MODEL_NAIVE};
    const rl_hw *hw = NULL;
    req->hw = PICK(st, quiz_hw);
    rl_status s = rl_hw_lookup(req->hw, "hw", &hw, err);
    if (s != RL_OK) return s;
    rl_problem p = {0};
    const int decode = (int)(next_u64(st) % 2);
    p.dtype = PICK(st, dtypes);
    if (rl_hw_peak_for_dtype(hw, p.dtype) <= 0) p.dtype = RL_DTYPE_FP16;
    p.heads = PICK(st, heads);
    p.kv_heads = p.heads / PICK(st, groups);
    p.head_dim = PICK(st, dims);
    if (decode) {
        p.batch = PICK(st, dec_b);
        p.seq = 1;
        p.kv_len = PICK(st, dec_l);
        req->model = RL_MODEL_COMPULSORY;
    } else {
        p.batch = PICK(st, pre_b);
        p.seq = p.kv_len = PICK(st, pre_n);
        req->model = PICK(st, pre_models);
    }
    return rl_problem_resolve(&p, &req->problem, err);
}

/* The quantity a question asks for, from a report. */
static double report_value(rl_quiz_kind kind, rl_model model, const rl_report *r) {
    switch (kind) {
    case RL_QUIZ_FLOPS: return r->work.flops;
    case RL_QUIZ_BYTES: return r->points[model].bytes;
    case RL_QUIZ_INTENSITY: return r->points[model].intensity_flop_per_byte;
    case RL_QUIZ_RIDGE: return r->ridge_flop_per_byte;
    case RL_QUIZ_TIME: return r->points[model].time_s;
    case RL_QUIZ_REGIME: return (double)r->points[model].bound;
    default: return 0.0;
    }
}

static rl_dim kind_dim(rl_quiz_kind kind) {
    switch (kind) {
    case RL_QUIZ_FLOPS: return RL_DIM_FLOP;
    case RL_QUIZ_BYTES: return RL_DIM_BYTES;
    case RL_QUIZ_INTENSITY: case RL_QUIZ_RIDGE: return RL_DIM_FLOP_PER_BYTE;
    case RL_QUIZ_OP_GEMM: case RL_QUIZ_OP_NORM: case RL_QUIZ_OP_SOFTMAX: return RL_DIM_FLOP_PER_BYTE;
    case RL_QUIZ_TIME: return RL_DIM_SECONDS;
    default: return RL_DIM_NONE;
    }
}

static const char *fmtq(double v, rl_dim dim, char *buf, size_t cap) {
    rl_format_quantity(v, dim, RL_PREFIX_SI, 4, buf, cap);
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * The question's text and its solution, step by step, with the numbers substituted.
 * ------------------------------------------------------------------------------------------- */

static const char *model_words(rl_model m) {
    switch (m) {
    case RL_MODEL_TILED:
        return "the tiled (FlashAttention) model: Q read and O written once, K and V read by "
               "each of the \xE2\x8C\x88N/Br\xE2\x8C\x89 query blocks of each query head";
    case RL_MODEL_NAIVE:
        return "the naive model: the compulsory bytes plus the N\xC3\x97L score matrices S and P, "
               "each written once and read once";
    default:
        return "the compulsory model: Q, K, V read once and O written once";
    }
}

/* "fp16 (2 B per element)", or the Q/O and K/V types apart when they differ. */
static void dtype_words(const rl_problem *p, char *buf, size_t cap) {
    if (p->kv_dtype == p->dtype)
        snprintf(buf, cap, "%s (%g B per element)", rl_dtype_name(p->dtype),
                 rl_dtype_bytes(p->dtype));
    else
        snprintf(buf, cap, "%s Q and O (%g B per element), %s K and V (%g B per element)",
                 rl_dtype_name(p->dtype), rl_dtype_bytes(p->dtype), rl_dtype_name(p->kv_dtype),
                 rl_dtype_bytes(p->kv_dtype));
}

static void shape_words(const rl_quiz_question *q, char *buf, size_t cap) {
    const rl_problem *p = &q->problem;
    if (q->decode)
        snprintf(buf, cap, "Decode: batch B = %lld, one new query row per sequence "
                 "(N = 1) against a KV cache of L = %lld rows", (long long)p->batch,
                 (long long)p->kv_len);
    else if (p->seq == p->kv_len)
        snprintf(buf, cap, "Prefill: batch B = %lld, N = L = %lld tokens per sequence",
                 (long long)p->batch, (long long)p->seq);
    else
        snprintf(buf, cap, "Batch B = %lld, N = %lld query rows against L = %lld key/value rows "
                 "per sequence", (long long)p->batch, (long long)p->seq, (long long)p->kv_len);
}

static void write_setup(rl_quiz_question *q, const rl_roof_resolved *roof) {
    const rl_problem *p = &q->problem;
    char beta[48], pi[48], shape[200], heads[160], types[160];
    if (p->kv_heads == p->heads)
        snprintf(heads, sizeof heads, "H = Hkv = %lld heads (MHA)", (long long)p->heads);
    else
        snprintf(heads, sizeof heads, "H = %lld query heads sharing Hkv = %lld K/V heads (GQA)",
                 (long long)p->heads, (long long)p->kv_heads);
    shape_words(q, shape, sizeof shape);
    dtype_words(p, types, sizeof types);
    char tile[48] = "";
    if (q->model == RL_MODEL_TILED && p->block_n == p->block_m)
        snprintf(tile, sizeof tile, "; tile Br = Bc = %lld", (long long)p->block_m);
    else if (q->model == RL_MODEL_TILED)
        snprintf(tile, sizeof tile, "; tile Br = %lld, Bc = %lld", (long long)p->block_m,
                 (long long)p->block_n);
    fmtq(q->roof.bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, beta, sizeof beta);
    fmtq(q->roof.peak_flops_per_s, RL_DIM_FLOPS_PER_S, pi, sizeof pi);
    if (roof->bandwidth_typed) strncat(beta, " as typed", sizeof beta - strlen(beta) - 1);
    if (roof->peak_typed) strncat(pi, " as typed", sizeof pi - strlen(pi) - 1);
    snprintf(q->setup, sizeof q->setup,
             "%s; %s, head dim d = %lld; %s; %s forward pass%s. "
             "Hardware: %s, \xCE\xB2 = %s, \xCF\x80 = %s (%s, dense).",
             shape, heads, (long long)p->head_dim, types,
             p->causal ? "causal (the last query row sees every key)" : "non-causal", tile,
             q->hw->name, beta, pi, rl_peak_name(q->peak_kind));
}

static void write_ask(rl_quiz_question *q) {
    const char *m = model_words(q->model);
    switch (q->kind) {
    case RL_QUIZ_FLOPS:
        snprintf(q->ask, sizeof q->ask, "How many FLOPs do the two matmuls (QK\xE1\xB5\x80 and PV) "
                 "take? Count 2 FLOPs per multiply-add and leave the softmax out. Answer with "
                 "units, e.g. 12.5 GFLOP.");
        break;
    case RL_QUIZ_BYTES:
        snprintf(q->ask, sizeof q->ask, "How many bytes move to and from device memory under %s? "
                 "Answer with units, e.g. 16.8 MB.", m);
        break;
    case RL_QUIZ_INTENSITY:
        snprintf(q->ask, sizeof q->ask, "What is the arithmetic intensity I = F / bytes under %s? "
                 "Answer with units, e.g. 3.99 FLOP/B.", m);
        break;
    case RL_QUIZ_RIDGE:
        snprintf(q->ask, sizeof q->ask, "What is the ridge point I* of this hardware for %s? "
                 "Answer with units, e.g. 153 FLOP/B.", rl_dtype_name(q->problem.dtype));
        break;
    case RL_QUIZ_TIME:
        snprintf(q->ask, sizeof q->ask, "What is the roofline bound time t = max(F/\xCF\x80, "
                 "bytes/\xCE\xB2) under %s? Answer with units, e.g. 163 \xC2\xB5s.", m);
        break;
    default:
        snprintf(q->ask, sizeof q->ask, "Is this problem memory-bound or compute-bound under %s? "
                 "Answer memory or compute.", m);
        break;
    }
}

static char *add_step(rl_quiz_question *q, rl_quiz_step id) {
    q->step_ids[q->step_count] = id;
    return q->steps[q->step_count++];
}

static void step_flops(rl_quiz_question *q, const rl_report *r) {
    const rl_problem *p = &q->problem;
    char f[32];
    if (p->causal)
        snprintf(add_step(q, RL_QUIZ_STEP_PAIRS), RL_QUIZ_STEP_TEXT_MAX,
                 "causal: P = N\xC2\xB7L \xE2\x88\x92 N(N\xE2\x88\x92" "1)/2 = %lld \xC2\xB7 %lld "
                 "\xE2\x88\x92 %lld \xC2\xB7 %lld / 2 = %.0f pairs per (batch, head)",
                 (long long)p->seq, (long long)p->kv_len, (long long)p->seq,
                 (long long)(p->seq - 1), r->work.pairs);
    else
        snprintf(add_step(q, RL_QUIZ_STEP_PAIRS), RL_QUIZ_STEP_TEXT_MAX,
                 "P = N\xC2\xB7L = %lld \xC2\xB7 %lld = %.0f pairs per (batch, head)",
                 (long long)p->seq, (long long)p->kv_len, r->work.pairs);
    snprintf(add_step(q, RL_QUIZ_STEP_FLOPS), RL_QUIZ_STEP_TEXT_MAX,
             "F = 4\xC2\xB7" "B\xC2\xB7H\xC2\xB7" "d\xC2\xB7P = 4 \xC2\xB7 %lld \xC2\xB7 %lld "
             "\xC2\xB7 %lld \xC2\xB7 %.0f = %s", (long long)p->batch, (long long)p->heads,
             (long long)p->head_dim, r->work.pairs, fmtq(r->work.flops, RL_DIM_FLOP, f, sizeof f));
}

static void step_traffic(rl_quiz_question *q, const rl_report *r) {
    const rl_problem *p = &q->problem;
    const rl_traffic *t = &r->work.traffic[q->model];
    char a[32], b[32], c[32], d[32];
    snprintf(add_step(q, RL_QUIZ_STEP_TENSORS), RL_QUIZ_STEP_TEXT_MAX,
             "Q = O = b\xC2\xB7" "B\xC2\xB7H\xC2\xB7N\xC2\xB7" "d = %g B \xC2\xB7 %lld \xC2\xB7 %lld "
             "\xC2\xB7 %lld \xC2\xB7 %lld = %s each; K = V = b_kv\xC2\xB7" "B\xC2\xB7Hkv\xC2\xB7L"
             "\xC2\xB7" "d = %g B \xC2\xB7 %lld \xC2\xB7 %lld \xC2\xB7 %lld \xC2\xB7 %lld = %s each",
             rl_dtype_bytes(p->dtype), (long long)p->batch, (long long)p->heads, (long long)p->seq,
             (long long)p->head_dim, fmtq(r->work.q_tensor_bytes, RL_DIM_BYTES, a, sizeof a),
             rl_dtype_bytes(p->kv_dtype), (long long)p->batch, (long long)p->kv_heads,
             (long long)p->kv_len, (long long)p->head_dim,
             fmtq(r->work.k_tensor_bytes, RL_DIM_BYTES, b, sizeof b));
    char *s = add_step(q, RL_QUIZ_STEP_TRAFFIC);
    fmtq(t->bytes, RL_DIM_BYTES, d, sizeof d);
    if (q->model == RL_MODEL_TILED)
        snprintf(s, RL_QUIZ_STEP_TEXT_MAX, "tiled: \xE2\x8C\x88N/Br\xE2\x8C\x89 = %.0f query blocks "
                 "per query head each read all L rows of K and V: K reads = V reads = %.0f \xC2\xB7 "
                 "b_kv\xC2\xB7" "B\xC2\xB7H\xC2\xB7L\xC2\xB7" "d = %s; tiled = Q + O + K reads + V "
                 "reads = %s", t->query_blocks, t->query_blocks,
                 fmtq(t->k_bytes, RL_DIM_BYTES, c, sizeof c), d);
    else if (q->model == RL_MODEL_NAIVE)
        snprintf(s, RL_QUIZ_STEP_TEXT_MAX, "naive: S = P = b\xC2\xB7" "B\xC2\xB7H\xC2\xB7N\xC2\xB7L "
                 "= %s each, written and read: naive = Q + K + V + O + 2\xC2\xB7S + 2\xC2\xB7P = %s",
                 fmtq(r->work.score_matrix_bytes, RL_DIM_BYTES, c, sizeof c), d);
    else
        snprintf(s, RL_QUIZ_STEP_TEXT_MAX, "compulsory = Q + K + V + O = %s", d);
}

static void step_roof(rl_quiz_question *q, const rl_report *r) {
    const rl_point *pt = &r->points[q->model];
    char a[32], b[32], c[32];
    if (q->kind == RL_QUIZ_INTENSITY || q->kind == RL_QUIZ_REGIME)
        snprintf(add_step(q, RL_QUIZ_STEP_INTENSITY), RL_QUIZ_STEP_TEXT_MAX, "I = F / bytes = %s / "
                 "%s = %s", fmtq(pt->flops, RL_DIM_FLOP, a, sizeof a),
                 fmtq(pt->bytes, RL_DIM_BYTES, b, sizeof b),
                 fmtq(pt->intensity_flop_per_byte, RL_DIM_FLOP_PER_BYTE, c, sizeof c));
    if (q->kind == RL_QUIZ_RIDGE || q->kind == RL_QUIZ_REGIME)
        snprintf(add_step(q, RL_QUIZ_STEP_RIDGE), RL_QUIZ_STEP_TEXT_MAX, "I* = \xCF\x80 / \xCE\xB2 "
                 "= %s / %s = %s", fmtq(r->roof.peak_flops_per_s, RL_DIM_FLOPS_PER_S, a, sizeof a),
                 fmtq(r->roof.bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, b, sizeof b),
                 fmtq(r->ridge_flop_per_byte, RL_DIM_FLOP_PER_BYTE, c, sizeof c));
    if (q->kind == RL_QUIZ_TIME)
        snprintf(add_step(q, RL_QUIZ_STEP_TIME), RL_QUIZ_STEP_TEXT_MAX, "F/\xCF\x80 = %s, "
                 "bytes/\xCE\xB2 = %s: t = the larger = %s (%s-bound)",
                 fmtq(pt->compute_time_s, RL_DIM_SECONDS, a, sizeof a),
                 fmtq(pt->memory_time_s, RL_DIM_SECONDS, b, sizeof b),
                 fmtq(pt->time_s, RL_DIM_SECONDS, c, sizeof c), rl_bound_name(pt->bound));
    if (q->kind == RL_QUIZ_REGIME)
        snprintf(add_step(q, RL_QUIZ_STEP_REGIME), RL_QUIZ_STEP_TEXT_MAX, "I %s I*: %s-bound",
                 pt->bound == RL_BOUND_MEMORY ? "<" : "\xE2\x89\xA5", rl_bound_name(pt->bound));
}

/* ---------------------------------------------------------------------------------------------
 * The operators around attention (MODEL.md "The layer"), for the same problem: T = B·N token
 * rows, hidden size h = H·d, every element in the problem's dtype (b bytes).
 *   gemm     the output projection: F = 2·T·h·h; input T·h, weights h·h, output T·h elements
 *   norm     RMSNorm (x², Σ, ·r, ·γ): F = 4·T·h; input T·h and γ h read, output T·h written
 *   softmax  plain attention's fused scale + softmax: F = 5·B·H·P (the softmax count of the
 *            model); S read and P written, B·H·N·L elements each
 * ------------------------------------------------------------------------------------------- */

static int is_op_kind(rl_quiz_kind kind) {
    return kind == RL_QUIZ_OP_GEMM || kind == RL_QUIZ_OP_NORM || kind == RL_QUIZ_OP_SOFTMAX;
}

typedef struct {
    double flops, in_bytes, weight_bytes, out_bytes, bytes;
    double tokens, hidden, b;
} op_figures;

static op_figures op_of(rl_quiz_kind kind, const rl_problem *p, const rl_report *r, double b) {
    op_figures o = {0};
    o.b = b;
    o.tokens = (double)p->batch * (double)p->seq;
    o.hidden = (double)p->heads * (double)p->head_dim;
    const double T = o.tokens, h = o.hidden;
    if (kind == RL_QUIZ_OP_GEMM) {
        o.flops = 2 * T * h * h;
        o.in_bytes = T * h * b;
        o.weight_bytes = h * h * b;
        o.out_bytes = T * h * b;
    } else if (kind == RL_QUIZ_OP_NORM) {
        o.flops = 4 * T * h;
        o.in_bytes = T * h * b;
        o.weight_bytes = h * b;
        o.out_bytes = T * h * b;
    } else {
        const double elems = (double)p->batch * (double)p->heads * (double)p->seq * (double)p->kv_len;
        o.flops = r->work.softmax_flops;
        o.in_bytes = elems * b;
        o.out_bytes = elems * b;
    }
    o.bytes = o.in_bytes + o.weight_bytes + o.out_bytes;
    return o;
}

static void op_ask(rl_quiz_question *q) {
    const char *t = rl_dtype_name(q->problem.dtype);
    if (q->kind == RL_QUIZ_OP_GEMM)
        snprintf(q->ask, sizeof q->ask, "After attention comes its output projection: the B\xC2\xB7N "
                 "token rows times an h \xC3\x97 h weight matrix, h = H\xC2\xB7" "d, all %s. What is "
                 "its intensity (2 FLOPs per multiply-add; input and weights read, output "
                 "written)? Answer with units, e.g. 3.99 FLOP/B.", t);
    else if (q->kind == RL_QUIZ_OP_NORM)
        snprintf(q->ask, sizeof q->ask, "Before it runs an RMSNorm of those B\xC2\xB7N rows of h = "
                 "H\xC2\xB7" "d values: 4 FLOPs per element (x\xC2\xB2, \xCE\xA3, \xC2\xB7r, "
                 "\xC2\xB7\xCE\xB3), x and \xCE\xB3 read, y written, all %s. What is its "
                 "intensity? Answer with units, e.g. 0.5 FLOP/B.", t);
    else
        snprintf(q->ask, sizeof q->ask, "Plain attention scales and softmaxes the scores in one "
                 "kernel: it reads S and writes P (B\xC2\xB7H\xC2\xB7N\xC2\xB7L elements each, %s) "
                 "and does 5 FLOPs per scored pair. What is its intensity? Answer with units, "
                 "e.g. 1.25 FLOP/B.", t);
}

static void op_solution(rl_quiz_question *q, const rl_report *r) {
    const op_figures o = op_of(q->kind, &q->problem, r, rl_dtype_bytes(q->problem.dtype));
    const rl_problem *p = &q->problem;
    char a[32], b[32], c[32], d[32], e[32];
    q->step_count = 0;
    fmtq(o.flops, RL_DIM_FLOP, a, sizeof a);
    fmtq(o.bytes, RL_DIM_BYTES, b, sizeof b);
    if (q->kind == RL_QUIZ_OP_SOFTMAX) {
        snprintf(add_step(q, RL_QUIZ_STEP_OP_FLOPS), RL_QUIZ_STEP_TEXT_MAX,
                 "F = 5\xC2\xB7" "B\xC2\xB7H\xC2\xB7P = 5 \xC2\xB7 %lld \xC2\xB7 %lld \xC2\xB7 "
                 "%.0f = %s", (long long)p->batch, (long long)p->heads, r->work.pairs, a);
        snprintf(add_step(q, RL_QUIZ_STEP_OP_BYTES), RL_QUIZ_STEP_TEXT_MAX,
                 "S read + P written = 2 \xC2\xB7 b\xC2\xB7" "B\xC2\xB7H\xC2\xB7N\xC2\xB7L = "
                 "2 \xC2\xB7 %s = %s", fmtq(o.in_bytes, RL_DIM_BYTES, c, sizeof c), b);
    } else {
        snprintf(add_step(q, RL_QUIZ_STEP_OP_FLOPS), RL_QUIZ_STEP_TEXT_MAX,
                 q->kind == RL_QUIZ_OP_GEMM
                     ? "T = B\xC2\xB7N = %.0f rows, h = H\xC2\xB7" "d = %.0f: F = 2\xC2\xB7T\xC2\xB7h"
                       "\xC2\xB7h = %s"
                     : "T = B\xC2\xB7N = %.0f rows, h = H\xC2\xB7" "d = %.0f: F = 4\xC2\xB7T\xC2\xB7h "
                       "= %s",
                 o.tokens, o.hidden, a);
        snprintf(add_step(q, RL_QUIZ_STEP_OP_BYTES), RL_QUIZ_STEP_TEXT_MAX,
                 "input T\xC2\xB7h\xC2\xB7" "b = %s, %s = %s, output T\xC2\xB7h\xC2\xB7" "b = %s: "
                 "%s in all", fmtq(o.in_bytes, RL_DIM_BYTES, c, sizeof c),
                 q->kind == RL_QUIZ_OP_GEMM ? "weights h\xC2\xB7h\xC2\xB7" "b" : "\xCE\xB3 h\xC2\xB7" "b",
                 fmtq(o.weight_bytes, RL_DIM_BYTES, d, sizeof d),
                 fmtq(o.out_bytes, RL_DIM_BYTES, e, sizeof e), b);
    }
    snprintf(add_step(q, RL_QUIZ_STEP_INTENSITY), RL_QUIZ_STEP_TEXT_MAX, "I = F / bytes = %s / %s "
             "= %s", a, b, fmtq(o.flops / o.bytes, RL_DIM_FLOP_PER_BYTE, c, sizeof c));
}

static void write_solution(rl_quiz_question *q, const rl_report *r) {
    q->step_count = 0;
    if (q->kind != RL_QUIZ_BYTES && q->kind != RL_QUIZ_RIDGE) step_flops(q, r);
    if (q->kind != RL_QUIZ_FLOPS && q->kind != RL_QUIZ_RIDGE) step_traffic(q, r);
    step_roof(q, r);
}

/* What the solution's formulas describe: the forward pass, one element type for Q, O, S, P. */
static rl_status pose_refusals(const rl_quiz_pose_request *req, const rl_problem *p,
                               rl_error *err) {
    if (req->kind <= RL_QUIZ_ANY || req->kind >= RL_QUIZ_KIND_COUNT)
        return rl__fail(err, RL_ERR_RANGE, "kind", "expected a question kind (flops, bytes, "
                        "intensity, ridge, time or regime), got %d", (int)req->kind);
    if (req->model < 0 || req->model >= RL_MODEL_COUNT)
        return rl__fail(err, RL_ERR_RANGE, "traffic-model", "expected compulsory, tiled or naive, "
                        "got %d", (int)req->model);
    if (p->pass != RL_PASS_FWD)
        return rl__fail(err, RL_ERR_INVALID, "pass", "exercises are posed for the forward pass, "
                        "got %s", rl_pass_name(p->pass));
    if (p->out_dtype != p->dtype)
        return rl__fail(err, RL_ERR_INVALID, "out-dtype", "exercises write O in the Q dtype (%s), "
                        "got %s", rl_dtype_name(p->dtype), rl_dtype_name(p->out_dtype));
    if (p->score_dtype != p->dtype)
        return rl__fail(err, RL_ERR_INVALID, "score-dtype", "exercises keep S and P in the Q dtype "
                        "(%s), got %s", rl_dtype_name(p->dtype), rl_dtype_name(p->score_dtype));
    rl__ok(err);
    return RL_OK;
}

rl_status rl_quiz_pose(const rl_quiz_pose_request *req, rl_quiz_question *out, rl_error *err) {
    rl_quiz_question q;
    memset(&q, 0, sizeof q);
    rl_status s = rl_problem_resolve(&req->problem, &q.problem, err);
    if (s == RL_OK) s = pose_refusals(req, &q.problem, err);
    rl_roof_resolved roof;
    if (s == RL_OK)
        s = rl_roof_resolve(&(rl_roof_request){req->hw, q.problem.dtype, req->bandwidth, req->peak},
                            &roof, err);
    if (s != RL_OK) return s;
    q.kind = req->kind;
    q.model = is_op_kind(req->kind) ? RL_MODEL_COMPULSORY : req->model;
    q.decode = q.problem.seq == 1 && q.problem.kv_len > 1;
    q.hw = roof.hw;
    q.roof = roof.roof;
    q.peak_kind = roof.peak_kind;
    rl_report r;
    if ((s = rl_report_compute(&q.problem, q.hw, q.roof, &r, err)) != RL_OK) return s;
    q.dim = kind_dim(q.kind);
    q.expected = report_value(q.kind, q.model, &r);
    if (is_op_kind(q.kind)) {
        const op_figures o = op_of(q.kind, &q.problem, &r, rl_dtype_bytes(q.problem.dtype));
        q.expected = o.flops / o.bytes;
    }
    q.tolerance = RL_QUIZ_TOLERANCE;
    if (q.kind == RL_QUIZ_REGIME)
        snprintf(q.expected_text, sizeof q.expected_text, "%s", rl_bound_name((rl_bound)q.expected));
    else
        fmtq(q.expected, q.dim, q.expected_text, sizeof q.expected_text);
    write_setup(&q, &roof);
    if (is_op_kind(q.kind)) {
        op_ask(&q);
        op_solution(&q, &r);
    } else {
        write_ask(&q);
        write_solution(&q, &r);
    }
    *out = q;
    rl__ok(err);
    return RL_OK;
}

rl_status rl_quiz_draw(uint32_t seed, const rl_quiz_options *opts, rl_quiz_question *out,
                       rl_error *err) {
    rl_quiz_kind kind = opts ? opts->kind : RL_QUIZ_ANY;
    if (kind < RL_QUIZ_ANY || kind >= RL_QUIZ_KIND_COUNT)
        return rl__fail(err, RL_ERR_RANGE, "kind", "expected a question kind 0 to %d, got %d",
                        RL_QUIZ_KIND_COUNT - 1, (int)kind);
    uint64_t st = seed;
    /* The kind is drawn even when given, so a seed draws the same problem for every kind. */
    rl_quiz_kind drawn = (rl_quiz_kind)(1 + next_u64(&st) % (RL_QUIZ_ATTENTION_KIND_COUNT - 1));
    rl_quiz_pose_request req = {.kind = kind != RL_QUIZ_ANY ? kind : drawn};
    rl_status s = draw_problem(&st, &req, err);
    if (s == RL_OK) s = rl_quiz_pose(&req, out, err);
    if (s == RL_OK) out->seed = seed;
    return s;
}

/* ---------------------------------------------------------------------------------------------
 * Checking: right within the tolerance, else the nearest slip within it, else "no known slip".
 * ------------------------------------------------------------------------------------------- */

typedef struct {
    double value;      /* what the slip gives, base units */
    rl_quiz_slip slip;
    rl_quiz_step step;
    const char *what;  /* "half of it" */
    const char *hint;  /* "did you count multiply-adds instead of FLOPs? ..." */
} slip_candidate;

#define SLIP_MAX 40

typedef struct {
    slip_candidate c[SLIP_MAX];
    int n;
} slip_list;

static void add_slip(slip_list *l, double value, rl_quiz_slip slip, rl_quiz_step step,
                     const char *what, const char *hint) {
    if (l->n < SLIP_MAX && value > 0 && isfinite(value))
        l->c[l->n++] = (slip_candidate){value, slip, step, what, hint};
}

/* Does the quantity asked for carry F, the bytes, or the roof's β? */
static int uses_flops(const rl_quiz_question *q, const rl_report *r) {
    if (q->kind == RL_QUIZ_TIME) return r->points[q->model].bound == RL_BOUND_COMPUTE;
    return q->kind == RL_QUIZ_FLOPS || q->kind == RL_QUIZ_INTENSITY;
}

static int uses_bytes(const rl_quiz_question *q, const rl_report *r) {
    if (q->kind == RL_QUIZ_TIME) return r->points[q->model].bound == RL_BOUND_MEMORY;
    return q->kind == RL_QUIZ_BYTES || q->kind == RL_QUIZ_INTENSITY || q->kind == RL_QUIZ_RIDGE;
}

/* The step a bytes slip belongs to: the tensors for a byte count, the ridge for β. */
static rl_quiz_step bytes_step(const rl_quiz_question *q) {
    return q->kind == RL_QUIZ_RIDGE ? RL_QUIZ_STEP_RIDGE : RL_QUIZ_STEP_TENSORS;
}

static void factor_slips(const rl_quiz_question *q, const rl_report *r, slip_list *l) {
    const double e = q->expected;
    const rl_quiz_step last = q->step_ids[q->step_count - 1];
    if (uses_flops(q, r)) {
        add_slip(l, e / 2, RL_SLIP_MAC, RL_QUIZ_STEP_FLOPS, "half of it",
                 "did you count multiply-adds instead of FLOPs? A multiply-add is 2 FLOPs.");
        add_slip(l, e * 2, RL_SLIP_MAC, RL_QUIZ_STEP_FLOPS, "twice it",
                 "did you count 2 FLOPs per multiply-add twice? The 4 in 4\xC2\xB7" "B\xC2\xB7H"
                 "\xC2\xB7" "d\xC2\xB7P is already 2 matmuls \xC3\x97 2 FLOPs per multiply-add.");
    }
    if (q->kind == RL_QUIZ_RIDGE)
        add_slip(l, e * 2, RL_SLIP_SPARSE, RL_QUIZ_STEP_RIDGE, "twice it",
                 "did you take the sparse (2:4) peak? Roofline peaks here are dense.");
    if (uses_bytes(q, r)) {
        const char *bits_hint = "did you mix bits and bytes? 1 B = 8 bit: b is a bit and B a byte "
                                "(Gb vs GB, Gbit/s vs GB/s).";
        int ridge_or_i = q->kind == RL_QUIZ_RIDGE || q->kind == RL_QUIZ_INTENSITY;
        add_slip(l, ridge_or_i ? e / 8 : e * 8, RL_SLIP_BITS, bytes_step(q),
                 ridge_or_i ? "1/8 of it" : "8\xC3\x97 it",
                 bits_hint);
        add_slip(l, ridge_or_i ? e * 8 : e / 8, RL_SLIP_BITS, bytes_step(q),
                 ridge_or_i ? "8\xC3\x97 it" : "1/8 of it",
                 bits_hint);
        /* Plain words with both numbers (issue 20): which prefix was used, which was meant. A
         * binary prefix for a decimal one makes bytes larger, and a ridge or an intensity (bytes
         * below the line) smaller. */
        static const double bin[] = {1048576.0 / 1e6, 1073741824.0 / 1e9, 1099511627776.0 / 1e12};
        static const char *const larger[] = {"1.049\xC3\x97 it", "1.074\xC3\x97 it", "1.1\xC3\x97 it"};
        static const char *const smaller[] = {"0.9537\xC3\x97 it", "0.9313\xC3\x97 it",
                                              "0.9095\xC3\x97 it"};
        static const char *const bin_for_dec[] = {
            "you used the binary mebi, 1024 \xC3\x97 1024 = 1,048,576, where the decimal mega, "
            "1,000,000, was meant (MiB for MB); bandwidths and these answers are decimal.",
            "you used the binary gibi, 1024\xC2\xB3 = 1,073,741,824, where the decimal giga, "
            "1,000,000,000, was meant (GiB for GB); bandwidths and these answers are decimal.",
            "you used the binary tebi, 1024\xE2\x81\xB4 = 1,099,511,627,776, where the decimal "
            "tera, 1,000,000,000,000, was meant (TiB for TB); bandwidths and these answers are "
            "decimal."};
        static const char *const dec_for_bin[] = {
            "you used the decimal mega, 1,000,000, where the binary mebi, 1024 \xC3\x97 1024 = "
            "1,048,576, was meant (MB for MiB, or a MiB figure written as MB).",
            "you used the decimal giga, 1,000,000,000, where the binary gibi, 1024\xC2\xB3 = "
            "1,073,741,824, was meant (GB for GiB, or a GiB figure written as GB).",
            "you used the decimal tera, 1,000,000,000,000, where the binary tebi, "
            "1024\xE2\x81\xB4 = 1,099,511,627,776, was meant (TB for TiB, or a TiB figure "
            "written as TB)."};
        for (int k = 0; k < 3; k++) {
            add_slip(l, e * bin[k], RL_SLIP_BINARY, bytes_step(q), larger[k],
                     ridge_or_i ? dec_for_bin[k] : bin_for_dec[k]);
            add_slip(l, e / bin[k], RL_SLIP_BINARY, bytes_step(q), smaller[k],
                     ridge_or_i ? bin_for_dec[k] : dec_for_bin[k]);
        }
    }
    static const double pre[] = {1e3, 1e6, 1e9};
    static const char *const up[] = {"1,000\xC3\x97 it", "1,000,000\xC3\x97 it",
                                     "1,000,000,000\xC3\x97 it"};
    static const char *const down[] = {"1/1,000 of it", "1/1,000,000 of it",
                                       "1/1,000,000,000 of it"};
    const char *why = "a prefix slip: k, M, G, T step by 1000 (1 ms = 1000 \xC2\xB5s, "
                      "1 GB = 1000 MB).";
    for (int k = 0; k < 3; k++) {
        add_slip(l, e * pre[k], RL_SLIP_PREFIX, last, up[k], why);
        add_slip(l, e / pre[k], RL_SLIP_PREFIX, last, down[k], why);
    }
}

/* The same question on a changed problem (a missing GQA factor, another dtype size). */
static void problem_slip(const rl_quiz_question *q, const rl_problem *p, slip_list *l,
                         rl_quiz_slip slip, const char *what, const char *hint) {
    rl_report r;
    if (rl_report_compute(p, q->hw, q->roof, &r, NULL) == RL_OK)
        add_slip(l, report_value(q->kind, q->model, &r), slip, RL_QUIZ_STEP_TENSORS, what, hint);
}

static void problem_slips(const rl_quiz_question *q, slip_list *l) {
    if (q->kind == RL_QUIZ_RIDGE) return;
    rl_problem p = q->problem;
    if (q->kind == RL_QUIZ_FLOPS) {
        if (p.kv_heads == p.heads) return;
        p.heads = p.kv_heads;
        rl_report r;
        if (rl_report_compute(&p, q->hw, q->roof, &r, NULL) == RL_OK)
            add_slip(l, r.work.flops, RL_SLIP_GQA, RL_QUIZ_STEP_FLOPS, "what Hkv heads give",
                     "every query head computes its own scores: F counts H query heads, not the "
                     "Hkv K/V heads they share.");
        return;
    }
    if (p.kv_heads != p.heads) {
        p.kv_heads = p.heads;
        problem_slip(q, &p, l, RL_SLIP_GQA, "what K and V give counted for every query head",
                     "K and V exist once per K/V head: their bytes are b_kv\xC2\xB7" "B\xC2\xB7Hkv"
                     "\xC2\xB7L\xC2\xB7" "d, the GQA factor H/Hkv fewer than Q's heads.");
    }
    static const rl_dtype alt[] = {RL_DTYPE_FP8, RL_DTYPE_FP16, RL_DTYPE_FP32};
    for (int k = 0; k < 3; k++) {
        if (rl_dtype_bytes(alt[k]) == rl_dtype_bytes(q->problem.dtype)) continue;
        p = q->problem;
        for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) /* every element type of the problem */
            if (rl_problem_field_info((rl_problem_field)f)->type == RL_FTYPE_DTYPE)
                rl_problem_set(&p, (rl_problem_field)f, alt[k], NULL, NULL);
        problem_slip(q, &p, l, RL_SLIP_DTYPE, "what another element size gives",
                     "check b, the bytes per element of the dtype: fp32 4, fp16 and bf16 2, fp8 1.");
    }
}

static void other_slips(const rl_quiz_question *q, const rl_report *r, slip_list *l) {
    const rl_point *pt = &r->points[q->model];
    if (q->kind == RL_QUIZ_TIME)
        add_slip(l, fmin(pt->compute_time_s, pt->memory_time_s), RL_SLIP_OTHER_SIDE,
                 RL_QUIZ_STEP_TIME, "the shorter of F/\xCF\x80 and bytes/\xCE\xB2",
                 "the bound time is the larger of the two: both the work and the traffic must "
                 "be done.");
    if (q->kind == RL_QUIZ_BYTES || q->kind == RL_QUIZ_INTENSITY)
        for (int m = 0; m < RL_MODEL_COUNT; m++)
            if (m != (int)q->model && r->work.traffic[m].available)
                add_slip(l, q->kind == RL_QUIZ_BYTES ? r->points[m].bytes
                                                     : r->points[m].intensity_flop_per_byte,
                         RL_SLIP_MODEL, RL_QUIZ_STEP_TRAFFIC, rl_model_name((rl_model)m),
                         "that is another traffic model: read again which tensors the question's "
                         "model moves, and how often.");
    if (q->kind == RL_QUIZ_RIDGE || q->kind == RL_QUIZ_INTENSITY)
        add_slip(l, 1.0 / q->expected, RL_SLIP_INVERTED,
                 q->kind == RL_QUIZ_RIDGE ? RL_QUIZ_STEP_RIDGE : RL_QUIZ_STEP_INTENSITY,
                 "its inverse", "the ratio is FLOPs over bytes, not bytes over FLOPs.");
}

/* An operator's intensity: the slips of its FLOPs and of its bytes. */
static void op_slips(const rl_quiz_question *q, const rl_report *r, slip_list *l) {
    const double b = rl_dtype_bytes(q->problem.dtype);
    const op_figures o = op_of(q->kind, &q->problem, r, b);
    const double e = q->expected;
    if (q->kind == RL_QUIZ_OP_GEMM) {
        add_slip(l, e / 2, RL_SLIP_MAC, RL_QUIZ_STEP_OP_FLOPS, "half of it",
                 "did you count multiply-adds instead of FLOPs? A multiply-add is 2 FLOPs.");
        add_slip(l, o.flops / (o.in_bytes + o.out_bytes), RL_SLIP_WEIGHTS, RL_QUIZ_STEP_OP_BYTES,
                 "what the activations alone give", "the weights are read too: h\xC2\xB7h\xC2\xB7"
                 "b bytes, the largest term when there are few rows.");
        add_slip(l, o.flops / o.weight_bytes, RL_SLIP_WEIGHTS, RL_QUIZ_STEP_OP_BYTES,
                 "what the weights alone give", "the input is read and the output written as well.");
    }
    add_slip(l, o.flops / (o.bytes - o.out_bytes), RL_SLIP_NO_WRITE, RL_QUIZ_STEP_OP_BYTES,
             "what the reads alone give", "the output is written back to device memory too.");
    static const double sizes[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] != b)
            add_slip(l, e * b / sizes[i], RL_SLIP_DTYPE, RL_QUIZ_STEP_OP_BYTES,
                     "what another element size gives", "check the bytes per element of the dtype.");
    add_slip(l, e / 8, RL_SLIP_BITS, RL_QUIZ_STEP_OP_BYTES, "an eighth of it",
             "did you count the bytes in bits? A byte is 8 bits.");
    add_slip(l, 1.0 / e, RL_SLIP_INVERTED, RL_QUIZ_STEP_INTENSITY, "its inverse",
             "the ratio is FLOPs over bytes, not bytes over FLOPs.");
}

/* The slip nearest to `answer` within the tolerance, among those that differ from the expected
 * by more than the tolerance (a slip that changes nothing is not one). */
static const slip_candidate *nearest_slip(const rl_quiz_question *q, const slip_list *l,
                                          double answer) {
    const slip_candidate *best = NULL;
    double best_d = log1p(q->tolerance);
    for (int i = 0; i < l->n; i++) {
        if (fabs(log(l->c[i].value / q->expected)) <= log1p(q->tolerance)) continue;
        double dist = fabs(log(answer / l->c[i].value));
        if (dist < best_d) { /* ties: the first listed (GQA before "tiled" in decode) */
            best_d = dist;
            best = &l->c[i];
        }
    }
    return best;
}

static int step_number(const rl_quiz_question *q, rl_quiz_step step) {
    for (int i = 0; i < q->step_count; i++)
        if (q->step_ids[i] == step) return i + 1;
    return 0;
}

static void verdict_slip(const rl_quiz_question *q, const slip_candidate *c, rl_quiz_verdict *v) {
    v->outcome = RL_QUIZ_WRONG;
    v->slip = c->slip;
    v->step = c->step;
    v->step_number = step_number(q, c->step);
    if (c->slip == RL_SLIP_MODEL)
        snprintf(v->text, sizeof v->text, "Not quite: step %d (%s): your answer is the %s "
                 "model's, not the %s model's: %s", v->step_number, rl_quiz_step_title(c->step),
                 c->what, rl_model_name(q->model), c->hint);
    else
        snprintf(v->text, sizeof v->text, "Not quite: step %d (%s): your answer is %s: %s",
                 v->step_number, rl_quiz_step_title(c->step), c->what, c->hint);
}

static void judge_value(const rl_quiz_question *q, double answer, rl_quiz_verdict *v) {
    char got[32];
    fmtq(answer, q->dim, got, sizeof got);
    v->answer_base = answer;
    v->ratio = answer / q->expected;
    if (fabs(log(v->ratio)) <= log1p(q->tolerance)) {
        v->outcome = RL_QUIZ_RIGHT;
        snprintf(v->text, sizeof v->text, "Right: your %s is within %g %% of the model's %s.",
                 got, q->tolerance * 100, q->expected_text);
        return;
    }
    rl_report r;
    slip_list l = {.n = 0};
    if (rl_report_compute(&q->problem, q->hw, q->roof, &r, NULL) == RL_OK) {
        if (is_op_kind(q->kind)) {
            op_slips(q, &r, &l);
        } else {
            factor_slips(q, &r, &l);
            problem_slips(q, &l);
            other_slips(q, &r, &l);
        }
    }
    const slip_candidate *c = nearest_slip(q, &l, answer);
    if (c) {
        verdict_slip(q, c, v);
        return;
    }
    v->outcome = RL_QUIZ_WRONG;
    v->slip = RL_SLIP_UNKNOWN;
    snprintf(v->text, sizeof v->text, "Not quite: your answer (%s) is %.3g\xC3\x97 the model's "
             "value and matches none of the usual slips (MAC vs FLOP, a prefix, bits vs bytes, "
             "GiB vs GB, a missing H/Hkv, the dtype size). Work through the steps again.", got,
             v->ratio);
}

/* "memory", "memory-bound", "bandwidth-bound", "compute", "compute bound" (any case) → a bound. */
static int parse_regime(const char *text, rl_bound *out) {
    static const struct { const char *word; rl_bound bound; } words[] = {
        {"memory", RL_BOUND_MEMORY},       {"memory-bound", RL_BOUND_MEMORY},
        {"memory bound", RL_BOUND_MEMORY}, {"bandwidth", RL_BOUND_MEMORY},
        {"bandwidth-bound", RL_BOUND_MEMORY}, {"bandwidth bound", RL_BOUND_MEMORY},
        {"compute", RL_BOUND_COMPUTE},     {"compute-bound", RL_BOUND_COMPUTE},
        {"compute bound", RL_BOUND_COMPUTE}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const char *a = text, *b = words[i].word;
        while (*a && *b && (*a | 0x20) == *b) a++, b++;
        if (!*a && !*b) {
            *out = words[i].bound;
            return 1;
        }
    }
    return 0;
}

static rl_status judge_regime(const rl_quiz_question *q, const char *text, rl_quiz_verdict *v,
                              rl_error *err) {
    rl_bound b;
    if (!parse_regime(text, &b)) {
        size_t shown = rl__utf8_clip(text, 64);
        char more[48] = "";
        if (shown < strlen(text))
            snprintf(more, sizeof more, "... (%zu characters)", rl_text_length(text));
        rl_status s = rl__fail(err, RL_ERR_INVALID, "answer", "\"%.*s%s\": expected memory or "
                               "compute (or memory-bound, bandwidth-bound, compute-bound)",
                               (int)shown, text, more);
        snprintf(v->text, sizeof v->text, "%s", err ? err->message : "answer: expected memory or compute");
        return s;
    }
    v->answer_base = (double)b;
    if ((double)b == q->expected) {
        v->outcome = RL_QUIZ_RIGHT;
        snprintf(v->text, sizeof v->text, "Right: %s-bound.", q->expected_text);
    } else {
        v->outcome = RL_QUIZ_WRONG;
        v->slip = RL_SLIP_REGIME;
        v->step = RL_QUIZ_STEP_REGIME;
        v->step_number = step_number(q, RL_QUIZ_STEP_REGIME);
        snprintf(v->text, sizeof v->text, "Not quite: step %d (%s): compare the intensity I = F / "
                 "bytes with the ridge I* = \xCF\x80 / \xCE\xB2 \xE2\x80\x94 below the ridge the "
                 "bandwidth limits, above it the peak.", v->step_number,
                 rl_quiz_step_title(RL_QUIZ_STEP_REGIME));
    }
    rl__ok(err);
    return RL_OK;
}

rl_status rl_quiz_check(const rl_quiz_question *q, const char *answer, rl_quiz_verdict *out,
                        rl_error *err) {
    rl_quiz_verdict v;
    memset(&v, 0, sizeof v);
    v.outcome = RL_QUIZ_UNREADABLE;
    v.step = -1;
    const char *text = answer ? answer : "";
    rl_status s;
    if (q->kind == RL_QUIZ_REGIME) {
        s = judge_regime(q, text, &v, err);
        *out = v;
        return s;
    }
    double value = 0;
    rl_error perr = {0};
    s = rl_parse_quantity(text, q->dim, "answer", &value, NULL, &perr);
    if (s == RL_OK) {
        judge_value(q, value, &v);
        *out = v;
        rl__ok(err);
        return RL_OK;
    }
    /* A readable quantity of another dimension is a wrong answer, not unreadable input. */
    rl_dim got = RL_DIM_NONE;
    snprintf(v.text, sizeof v.text, "%s", perr.message);
    if (rl_parse_quantity(text, RL_DIM_COUNT, "answer", &value, &got, NULL) == RL_OK &&
        got != RL_DIM_NONE && got != q->dim) {
        v.outcome = RL_QUIZ_WRONG;
        v.slip = RL_SLIP_DIMENSION;
        snprintf(v.text, sizeof v.text, "Not quite: %.400s \xE2\x80\x94 the question asks for %s.",
                 perr.message, rl_dim_noun(q->dim));
        *out = v;
        rl__ok(err);
        return RL_OK;
    }
    *out = v;
    if (err) *err = perr;
    return s;
}
