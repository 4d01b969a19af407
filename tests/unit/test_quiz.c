/* test_quiz.c — exercises: the drawn questions' expected values computed by hand from the problem
 * each seed draws (4·B·H·d·N·L for F, the tensors' bytes, π/β from the preset's figures), answers
 * in other units accepted, and each slip named with its step. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rooflab/quiz.h"

/* The problem's sizes as doubles, for the hand computations. */
typedef struct { double B, H, Hkv, N, L, d; } sizes;
static sizes sizes_of(const rl_problem *p) {
    return (sizes){(double)p->batch, (double)p->heads, (double)p->kv_heads, (double)p->seq,
                   (double)p->kv_len, (double)p->head_dim};
}

/* The expected value of a question, by hand from the drawn problem and the preset's datasheet. */
static double hand_value(const rl_quiz_question *q) {
    const rl_problem *p = &q->problem;
    const double B = (double)p->batch, H = (double)p->heads, Hkv = (double)p->kv_heads;
    const double N = (double)p->seq, L = (double)p->kv_len, d = (double)p->head_dim;
    const double b = rl_dtype_bytes(p->dtype);
    const double F = 4 * B * H * d * N * L; /* non-causal: P = N·L */
    const double qo = 2 * b * B * H * N * d, kv = 2 * b * B * Hkv * L * d;
    double bytes = qo + kv;                                             /* compulsory */
    if (q->model == RL_MODEL_TILED) bytes = qo + ceil(N / (double)p->block_m) * 2 * b * B * H * L * d;
    if (q->model == RL_MODEL_NAIVE) bytes = qo + kv + 4 * b * B * H * N * L; /* S, P written+read */
    const double beta = q->hw->bandwidth_bytes_per_s;
    const double pi = q->hw->peak_flops_per_s[rl_peak_for_dtype(p->dtype)];
    switch (q->kind) {
    case RL_QUIZ_FLOPS: return F;
    case RL_QUIZ_BYTES: return bytes;
    case RL_QUIZ_INTENSITY: return F / bytes;
    case RL_QUIZ_RIDGE: return pi / beta;
    case RL_QUIZ_TIME: return fmax(F / pi, bytes / beta);
    case RL_QUIZ_REGIME: return F / bytes < pi / beta ? RL_BOUND_MEMORY : RL_BOUND_COMPUTE;
    /* The operators around attention: T = B·N rows, h = H·d, all in b bytes per element. */
    case RL_QUIZ_OP_GEMM: /* 2·T·h² over input T·h, weights h², output T·h */
        return 2 * B * N * H * d * H * d / (b * (2 * B * N * H * d + H * d * H * d));
    case RL_QUIZ_OP_NORM: /* RMSNorm 4 FLOPs an element over x and y (T·h each) and γ (h) */
        return 4 * B * N * H * d / (b * (2 * B * N * H * d + H * d));
    case RL_QUIZ_OP_SOFTMAX: /* 5 per pair over S read and P written (B·H·N·L each) */
        return 5 * B * H * N * L / (2 * b * B * H * N * L);
    default: return -1;
    }
}

/* Every kind on many seeds: the drawn problem is one the questions describe, the value by hand. */
static void test_hand_values(void) {
    for (int kind = RL_QUIZ_FLOPS; kind < (int)RL_QUIZ_KIND_COUNT; kind++) {
        for (uint32_t seed = 0; seed < 300; seed++) {
            rl_quiz_question q;
            rl_quiz_options o = {(rl_quiz_kind)kind};
            CHECK(rl_quiz_draw(seed, &o, &q, NULL) == RL_OK);
            CHECK((int)q.kind == kind && q.problem.causal == 0 && q.problem.pass == RL_PASS_FWD);
            CHECK(q.decode ? q.problem.seq == 1 : q.problem.seq == q.problem.kv_len);
            CHECK(q.problem.heads % q.problem.kv_heads == 0);
            CHECK_CLOSE(q.expected, hand_value(&q), 1e-12);
            CHECK(q.step_count > 0 && q.step_count <= RL_QUIZ_STEPS_MAX);
            CHECK(strstr(q.ask, kind == RL_QUIZ_REGIME ? "memory or compute" : "Answer with units"));
        }
    }
}

/* Pinned seeds: the draw itself must not move (shared URLs name a seed), values by hand. */
static void test_pinned(void) {
    rl_quiz_question q;
    /* seed 9, any kind: the bound time of prefill B = 2, H = 16, Hkv = 4, N = L = 2048, d = 64,
     * fp16 on the RTX 4090 (1008 GB/s, 165.2 TFLOP/s), compulsory traffic. */
    CHECK(rl_quiz_draw(9, NULL, &q, NULL) == RL_OK);
    CHECK(q.kind == RL_QUIZ_TIME && !q.decode && q.model == RL_MODEL_COMPULSORY);
    CHECK(q.problem.batch == 2 && q.problem.heads == 16 && q.problem.kv_heads == 4);
    CHECK(q.problem.seq == 2048 && q.problem.head_dim == 64 && q.problem.dtype == RL_DTYPE_FP16);
    CHECK(strcmp(q.hw->id, "rtx4090") == 0);
    const double F = 4.0 * 2 * 16 * 64 * 2048.0 * 2048.0; /* 2^35 = 34.36 GFLOP */
    const double bytes = 2 * 2.0 * 2 * 16 * 2048 * 64 + 2 * 2.0 * 2 * 4 * 2048 * 64;
    CHECK(bytes == 20971520.0);
    CHECK_CLOSE(q.expected, fmax(F / 165.2e12, bytes / 1008e9), 1e-12); /* compute side */
    CHECK(strcmp(q.expected_text, "208 \xC2\xB5s") == 0);
    CHECK(q.step_count == 5);
    CHECK_STR_CONTAINS(q.steps[1], "F = 4\xC2\xB7" "B\xC2\xB7H\xC2\xB7" "d\xC2\xB7P = 4 \xC2\xB7 2 "
                       "\xC2\xB7 16 \xC2\xB7 64 \xC2\xB7 4194304 = 34.36 GFLOP");
    CHECK_STR_CONTAINS(q.setup, "NVIDIA GeForce RTX 4090");
    /* The same seed for another kind: the same problem (the kind is drawn even when given). */
    rl_quiz_question a;
    CHECK(rl_quiz_draw(9, &(rl_quiz_options){RL_QUIZ_FLOPS}, &a, NULL) == RL_OK);
    CHECK(memcmp(&a.problem, &q.problem, sizeof q.problem) == 0 && a.hw == q.hw);
    CHECK(a.expected == F && strcmp(a.expected_text, "34.36 GFLOP") == 0);
    CHECK(rl_quiz_draw(9, NULL, &a, NULL) == RL_OK && strcmp(q.setup, a.setup) == 0);
}

/* The first seed whose question of `kind` satisfies `want`. */
static int find(rl_quiz_kind kind, int (*want)(const rl_quiz_question *), rl_quiz_question *q) {
    for (uint32_t seed = 0; seed < 2000; seed++)
        if (rl_quiz_draw(seed, &(rl_quiz_options){kind}, q, NULL) == RL_OK && want(q)) return 1;
    return 0;
}

static int any(const rl_quiz_question *q) { (void)q; return 1; }
static int gqa_decode(const rl_quiz_question *q) {
    return q->decode && q->problem.kv_heads < q->problem.heads;
}
static int gqa(const rl_quiz_question *q) { return q->problem.kv_heads < q->problem.heads; }
/* Prefill fp16 asked under the compulsory model (its naive bytes are far from every factor). */
static int fp16_compulsory(const rl_quiz_question *q) {
    return q->model == RL_MODEL_COMPULSORY && !q->decode && q->problem.dtype == RL_DTYPE_FP16;
}
static int fp32(const rl_quiz_question *q) {
    return q->problem.dtype == RL_DTYPE_FP32 && q->model == RL_MODEL_COMPULSORY;
}
static int memory_time(const rl_quiz_question *q) { return q->decode; }
static int compute_regime(const rl_quiz_question *q) { return q->expected == RL_BOUND_COMPUTE; }

/* Check `answer` and expect the outcome, slip and a piece of the text. */
static void expect(const rl_quiz_question *q, const char *answer, rl_quiz_outcome outcome,
                   rl_quiz_slip slip, const char *text) {
    rl_quiz_verdict v;
    rl_error err;
    rl_status st = rl_quiz_check(q, answer, &v, &err);
    CHECK(outcome == RL_QUIZ_UNREADABLE ? st != RL_OK : st == RL_OK);
    if (v.outcome != outcome || v.slip != slip)
        fprintf(stderr, "answer \"%s\" (expected %s): outcome %d slip %s: %s\n", answer,
                q->expected_text, v.outcome, rl_quiz_slip_name(v.slip), v.text);
    CHECK(v.outcome == outcome);
    CHECK(v.slip == slip);
    CHECK_STR_CONTAINS(v.text, text);
}

/* `value` (base units) written as "%.6g <prefix><unit>". */
static const char *in(double value, double scale, const char *unit) {
    static char buf[8][64];
    static int i;
    char *b = buf[i++ % 8];
    snprintf(b, 64, "%.6g %s", value / scale, unit);
    return b;
}

static void test_flops_slips(void) {
    rl_quiz_question q;
    CHECK(find(RL_QUIZ_FLOPS, gqa, &q));
    const double F = hand_value(&q);
    expect(&q, in(F, 1e9, "GFLOP"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(F, 1e12, "TFLOP"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "within 2 %");
    expect(&q, in(F * 1.015, 1e6, "MFLOP"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(F * 1.03, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_UNKNOWN, "none of the usual");
    expect(&q, in(F / 2, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_MAC,
           "step 2 (FLOPs F = 4\xC2\xB7" "B\xC2\xB7H\xC2\xB7" "d\xC2\xB7P): your answer is half of "
           "it: did you count multiply-adds instead of FLOPs?");
    expect(&q, in(F * 2, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_MAC, "twice it");
    expect(&q, in(F * 1000, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_PREFIX, "prefix");
    expect(&q, in(F / 1e6, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_PREFIX, "your answer is 1/1,000,000 of it");
    const double Fkv = F * (double)q.problem.kv_heads / (double)q.problem.heads;
    expect(&q, in(Fkv, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_GQA, "H query heads");
    expect(&q, "3 ms", RL_QUIZ_WRONG, RL_SLIP_DIMENSION, "the question asks for FLOPs");
    expect(&q, "34.4", RL_QUIZ_UNREADABLE, RL_SLIP_NONE, "needs a unit: did you mean \"34.4 GFLOP\"?");
    expect(&q, "34.4 gflop", RL_QUIZ_UNREADABLE, RL_SLIP_NONE, "did you mean \"34.4 GFLOP\"?");
    expect(&q, "34 TOPS", RL_QUIZ_UNREADABLE, RL_SLIP_NONE, "integer");
    expect(&q, "", RL_QUIZ_UNREADABLE, RL_SLIP_NONE, "answer: empty");
}

static void test_bytes_slips(void) {
    rl_quiz_question q;
    CHECK(find(RL_QUIZ_BYTES, gqa_decode, &q));
    const rl_problem *p = &q.problem;
    const double bytes = hand_value(&q);
    expect(&q, in(bytes, 1e6, "MB"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(bytes * 8, 1e9, "Gbit"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    /* "1.07 Gb" for 1.07 GB: b is a bit, so the value is 1/8 of it. */
    expect(&q, in(bytes, 1e9, "Gb"), RL_QUIZ_WRONG, RL_SLIP_BITS, "did you mix bits and bytes?");
    /* A GiB figure written as GB: bytes / 2^30 GB = bytes × 10^9 / 1,073,741,824 = 0.9313 × it.
     * The slip said "off by 10^3n/2^10n" before issue 20; now both numbers in words. */
    expect(&q, in(bytes, 1073741824.0, "GB"), RL_QUIZ_WRONG, RL_SLIP_BINARY,
           "your answer is 0.9313\xC3\x97 it: you used the decimal giga, 1,000,000,000, where the "
           "binary gibi, 1024\xC2\xB3 = 1,073,741,824, was meant");
    /* GiB for GB: 1,073,741,824 / 1,000,000,000 = 1.074 × it. */
    expect(&q, in(bytes, 1e9, "GiB"), RL_QUIZ_WRONG, RL_SLIP_BINARY,
           "your answer is 1.074\xC3\x97 it: you used the binary gibi, 1024\xC2\xB3 = "
           "1,073,741,824, where the decimal giga, 1,000,000,000, was meant (GiB for GB)");
    /* K and V counted for every query head: the GQA factor H/Hkv missing. */
    const double b = rl_dtype_bytes(p->dtype);
    sizes z = sizes_of(p);
    const double per_head = 2 * b * z.B * z.H * z.N * z.d + 2 * b * z.B * z.H * z.L * z.d;
    expect(&q, in(per_head, 1e9, "GB"), RL_QUIZ_WRONG, RL_SLIP_GQA,
           "step 1 (bytes per tensor");
    expect(&q, "3 ms", RL_QUIZ_WRONG, RL_SLIP_DIMENSION, "expected bytes");

    CHECK(find(RL_QUIZ_BYTES, fp32, &q));
    const double half = hand_value(&q) / 2; /* fp16's 2 B per element for fp32's 4 */
    expect(&q, in(half, 1e6, "MB"), RL_QUIZ_WRONG, RL_SLIP_DTYPE, "fp32 4");

    CHECK(find(RL_QUIZ_BYTES, fp16_compulsory, &q));
    z = sizes_of(&q.problem);
    const double naive = 2 * 2.0 * z.B * z.H * z.N * z.d + 2 * 2.0 * z.B * z.Hkv * z.L * z.d +
                         4 * 2.0 * z.B * z.H * z.N * z.L;
    expect(&q, in(naive, 1e9, "GB"), RL_QUIZ_WRONG, RL_SLIP_MODEL,
           "step 2 (the traffic model's bytes): your answer is the naive model's, not the "
           "compulsory");
}

static void test_other_kinds(void) {
    rl_quiz_question q;
    CHECK(find(RL_QUIZ_TIME, memory_time, &q));
    const double t = hand_value(&q);
    expect(&q, in(t, 1e-6, "\xC2\xB5s"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(t, 1e-3, "ms"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(t, 1e-9, "ns"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(t * 1000, 1e-6, "us"), RL_QUIZ_WRONG, RL_SLIP_PREFIX, "1 ms = 1000 \xC2\xB5s");
    const rl_problem *p = &q.problem;
    const double pi = q.hw->peak_flops_per_s[rl_peak_for_dtype(p->dtype)];
    const sizes z = sizes_of(p);
    const double F = 4.0 * z.B * z.H * z.d * z.N * z.L;
    expect(&q, in(F / pi, 1e-6, "us"), RL_QUIZ_WRONG, RL_SLIP_OTHER_SIDE, "the larger of the two");
    expect(&q, "1.5 GB", RL_QUIZ_WRONG, RL_SLIP_DIMENSION, "expected seconds");

    CHECK(find(RL_QUIZ_RIDGE, any, &q));
    const double ridge = hand_value(&q);
    expect(&q, in(ridge, 1, "FLOP/B"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(ridge, 1e3, "kFLOP/B"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(ridge * 2, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_SPARSE, "sparse");
    expect(&q, in(1 / ridge, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_INVERTED, "not bytes over FLOPs");
    expect(&q, in(ridge / 8, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_BITS, "step 1 (ridge");
    /* A ridge 2^40/10^12 = 1.0995 × too large: β taken in decimal TB/s where TiB/s was meant. */
    expect(&q, in(ridge * 1.0995, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_BINARY,
           "1.1\xC3\x97 it: you used the decimal tera, 1,000,000,000,000, where the binary tebi");

    CHECK(find(RL_QUIZ_INTENSITY, any, &q));
    expect(&q, in(hand_value(&q) / 2, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_MAC, "step 2 (FLOPs");

    CHECK(find(RL_QUIZ_REGIME, compute_regime, &q));
    expect(&q, "compute", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right: compute-bound");
    expect(&q, "Compute-bound", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "bandwidth-bound", RL_QUIZ_WRONG, RL_SLIP_REGIME, "step 7 (regime");
    expect(&q, "3 ms", RL_QUIZ_UNREADABLE, RL_SLIP_NONE, "expected memory or compute");
}

/* The operator questions: slips named by hand (the GEMM of decode B = 16, H = 32, d = 64, fp8:
 * T = 16, h = 2048, F = 2·16·2048² = 134,217,728; input and output 16·2048 = 32,768 B each,
 * weights 2048² = 4,194,304 B; I = 134,217,728 / 4,259,840 = 31.5077). */
static void test_operators(void) {
    rl_quiz_question q;
    CHECK(rl_quiz_draw(3, &(rl_quiz_options){RL_QUIZ_OP_GEMM}, &q, NULL) == RL_OK);
    CHECK(q.problem.batch == 16 && q.problem.seq == 1 && q.problem.heads == 32 &&
          q.problem.head_dim == 64 && q.problem.dtype == RL_DTYPE_FP8);
    CHECK_CLOSE(q.expected, 134217728.0 / 4259840.0, 1e-12);
    CHECK(q.step_count == 3 && q.step_ids[2] == RL_QUIZ_STEP_INTENSITY);
    expect(&q, "31.5 FLOP/B", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "15.75 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_MAC, "step 1 (the operator's FLOPs)");
    /* the activations alone: 134,217,728 / 65,536 = 2048 FLOP/B */
    expect(&q, "2048 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_WEIGHTS, "what the activations alone give");
    /* the weights alone: 134,217,728 / 4,194,304 = 32 FLOP/B is within 2 % of 31.5: right */
    expect(&q, "32 FLOP/B", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "3.94 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_BITS, "an eighth of it");
    expect(&q, "0.0317 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_INVERTED, "its inverse");
    expect(&q, "15.75 FLOP/s", RL_QUIZ_WRONG, RL_SLIP_DIMENSION, "the question asks for");
    /* Fused softmax, seed 5: bf16, I = 5 / (2·2) = 1.25; reads alone 2.5; fp8's size 2.5 too
     * (the first listed wins: the write). */
    CHECK(rl_quiz_draw(5, &(rl_quiz_options){RL_QUIZ_OP_SOFTMAX}, &q, NULL) == RL_OK);
    CHECK(q.expected == 1.25 && q.problem.dtype == RL_DTYPE_BF16);
    expect(&q, "1.25 FLOP/B", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "2.5 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_NO_WRITE, "the output is written back");
    expect(&q, "0.625 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_DTYPE, "another element size");
    expect(&q, "0.8 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_INVERTED, "its inverse");
    /* RMSNorm, seed 1: prefill B = 1, N = 1024, H = 16, d = 128, fp8: T·h = 2,097,152, h = 2048,
     * I = 4·2,097,152 / (2·2,097,152 + 2048) = 1.99902; without the write 8,388,608 / 2,099,200
     * = 3.9961; in 2-byte elements 0.9995. */
    CHECK(rl_quiz_draw(1, &(rl_quiz_options){RL_QUIZ_OP_NORM}, &q, NULL) == RL_OK);
    CHECK(q.problem.dtype == RL_DTYPE_FP8 && q.problem.batch * q.problem.seq == 1024);
    CHECK_CLOSE(q.expected, 4 * 2097152.0 / (2 * 2097152.0 + 2048), 1e-12);
    expect(&q, "2 FLOP/B", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "4 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_NO_WRITE, "step 2 (the operator's bytes");
    expect(&q, "1 FLOP/B", RL_QUIZ_WRONG, RL_SLIP_DTYPE, "another element size");
    rl_quiz_kind k;
    CHECK(rl_quiz_kind_parse("softmax-intensity", "kind", &k, NULL) == RL_OK && k == RL_QUIZ_OP_SOFTMAX);
    CHECK(strcmp(rl_quiz_slip_name(RL_SLIP_NO_WRITE), "output-write") == 0);
    /* "any" never draws an operator question: the seeds' questions did not move. */
    for (uint32_t seed = 0; seed < 500; seed++) {
        CHECK(rl_quiz_draw(seed, NULL, &q, NULL) == RL_OK);
        CHECK(q.kind >= RL_QUIZ_FLOPS && q.kind <= RL_QUIZ_REGIME);
    }
}

static void test_kinds(void) {
    rl_quiz_kind k;
    CHECK(rl_quiz_kind_parse("time", "kind", &k, NULL) == RL_OK && k == RL_QUIZ_TIME);
    rl_error err;
    CHECK(rl_quiz_kind_parse("speed", "kind", &k, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "kind: \"speed\" is not a question kind; expected one of");
    rl_quiz_question q;
    CHECK(rl_quiz_draw(1, &(rl_quiz_options){(rl_quiz_kind)99}, &q, &err) == RL_ERR_RANGE);
    CHECK(strcmp(err.field, "kind") == 0);
    uint32_t seed = 0;
    CHECK(rl_quiz_seed_parse("4294967295", "practice", &seed, NULL) == RL_OK && seed == 4294967295u);
    CHECK(rl_quiz_seed_parse("0", "practice", &seed, NULL) == RL_OK && seed == 0);
    CHECK(rl_quiz_seed_parse("4294967296", "practice", &seed, &err) == RL_ERR_INVALID);
    CHECK_STR_CONTAINS(err.message, "practice: expected a whole number 0 to 4294967295, got");
    CHECK(rl_quiz_seed_parse("-1", "practice", &seed, NULL) == RL_ERR_INVALID);
    CHECK(rl_quiz_seed_parse("12a", "practice", &seed, NULL) == RL_ERR_INVALID);
    CHECK(rl_quiz_seed_parse("", "practice", &seed, NULL) == RL_ERR_INVALID);
    CHECK(rl_quiz_seed_parse("99999999999999", "practice", &seed, NULL) == RL_ERR_INVALID);
    for (int s = 0; s < RL_SLIP_COUNT; s++) CHECK(strcmp(rl_quiz_slip_name((rl_quiz_slip)s), "") != 0);
}

/* ---------------------------------------------------------------------------------------------
 * Posed questions: a given problem and preset (the tours' closing questions), values by hand.
 * ------------------------------------------------------------------------------------------- */

static rl_quiz_pose_request request(const char *hw, rl_quiz_kind kind, rl_model model,
                                    int64_t batch, int64_t heads, int64_t kv_heads, int64_t seq,
                                    int64_t kv_len, int64_t head_dim) {
    rl_quiz_pose_request r = {.hw = hw, .kind = kind, .model = model};
    r.problem = (rl_problem){.batch = batch, .heads = heads, .kv_heads = kv_heads, .seq = seq,
                             .kv_len = kv_len, .head_dim = head_dim};
    return r;
}

static void test_pose_values(void) {
    rl_quiz_question q;
    /* bytes, compulsory: A100, B = 1, H = Hkv = 8, N = L = 32768, d = 64, fp16:
     * Q = O = K = V = 2·1·8·32768·64 = 33,554,432 B; 134,217,728 B = 128 MiB in all. */
    rl_quiz_pose_request r = request("a100-sxm4-80gb", RL_QUIZ_BYTES, RL_MODEL_COMPULSORY, 1, 8, 0,
                                     32768, 0, 64);
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    CHECK(q.expected == 134217728.0 && q.seed == 0 && !q.decode);
    CHECK(strcmp(q.expected_text, "134.2 MB") == 0);
    CHECK_STR_CONTAINS(q.setup, "Prefill: batch B = 1, N = L = 32768 tokens per sequence");
    expect(&q, "128 MiB", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, "0.134218 GB", RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");

    /* intensity, tiled: H100, B = 1, H = 16, N = L = 8192, d = 64, Br = 128: F = 4·16·64·8192²
     * = 274,877,906,944; bytes = Q + O + ⌈8192/128⌉·2·2·16·8192·64 = 33,554,432 + 2,147,483,648. */
    r = request("h100-sxm", RL_QUIZ_INTENSITY, RL_MODEL_TILED, 1, 16, 0, 8192, 0, 64);
    r.problem.block_m = 128;
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    const double tiled = 274877906944.0 / (33554432.0 + 2147483648.0);
    CHECK_CLOSE(q.expected, tiled, 1e-12);
    CHECK_STR_CONTAINS(q.setup, "tile Br = 128, Bc = 64");
    expect(&q, in(tiled / 2, 1, "FLOP/B"), RL_QUIZ_WRONG, RL_SLIP_MAC, "multiply-adds");

    /* ridge with a typed bandwidth: 26.8 Tbit/s = 3.35 TB/s; H100 fp16 989 TFLOP/s. */
    r = request("h100-sxm", RL_QUIZ_RIDGE, RL_MODEL_COMPULSORY, 1, 32, 0, 4096, 0, 128);
    r.bandwidth = "26.8 Tbit/s";
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    CHECK_CLOSE(q.expected, 989e12 / 3.35e12, 1e-12);
    CHECK_STR_CONTAINS(q.setup, "3.35 TB/s as typed");
    expect(&q, in(989e12 / 3.35e12, 1e3, "kFLOP/B"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");

    /* time, decode with an fp8 cache: H200, H = 32, Hkv = 8, L = 32768, d = 128: Q = O =
     * 2·32·128 = 8192 B, K = V = 1·8·32768·128 = 33,554,432 B; F = 4·32·128·32768. */
    r = request("h200-sxm", RL_QUIZ_TIME, RL_MODEL_COMPULSORY, 1, 32, 8, 1, 32768, 128);
    r.problem.kv_dtype = RL_DTYPE_FP8;
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    const double bytes = 2 * 8192.0 + 2 * 33554432.0, F = 4.0 * 32 * 128 * 32768;
    CHECK_CLOSE(q.expected, fmax(F / 989e12, bytes / 4.8e12), 1e-12);
    CHECK(q.decode && q.expected == bytes / 4.8e12);
    CHECK_STR_CONTAINS(q.setup, "fp16 Q and O (2 B per element), fp8 K and V (1 B per element)");
    expect(&q, in(bytes / 4.8e12, 1e-3, "ms"), RL_QUIZ_RIGHT, RL_SLIP_NONE, "Right");
    expect(&q, in(F / 989e12, 1e-6, "us"), RL_QUIZ_WRONG, RL_SLIP_OTHER_SIDE, "the larger");

    /* flops, causal: B = 2, H = 8, N = L = 1024, d = 64: P = 1024² − 1024·1023/2 = 524,800. */
    r = request("h100-sxm", RL_QUIZ_FLOPS, RL_MODEL_COMPULSORY, 2, 8, 0, 1024, 0, 64);
    r.problem.causal = 1;
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    CHECK(q.expected == 4.0 * 2 * 8 * 64 * 524800);
    CHECK_STR_CONTAINS(q.steps[0], "= 524800 pairs");
    CHECK_STR_CONTAINS(q.setup, "causal (the last query row sees every key) forward pass");
    expect(&q, in(2.0 * 2 * 8 * 64 * 524800, 1e9, "GFLOP"), RL_QUIZ_WRONG, RL_SLIP_MAC, "half of it");

    /* regime: H100 prefill H = 16, N = L = 8192, d = 128: I = 4·N·d / (4·2·d) … = 2048 FLOP/B
     * compulsory, above the ridge 989/3.35 = 295: compute-bound. */
    r = request("h100-sxm", RL_QUIZ_REGIME, RL_MODEL_COMPULSORY, 1, 16, 0, 8192, 0, 128);
    CHECK(rl_quiz_pose(&r, &q, NULL) == RL_OK);
    CHECK(q.expected == RL_BOUND_COMPUTE);
    expect(&q, "memory-bound", RL_QUIZ_WRONG, RL_SLIP_REGIME, "step 7 (regime");
}

static void test_pose_errors(void) {
    rl_quiz_question q;
    rl_error err;
    rl_quiz_pose_request r = request("h100-sxm", RL_QUIZ_ANY, RL_MODEL_TILED, 1, 8, 0, 1024, 0, 64);
    CHECK(rl_quiz_pose(&r, &q, &err) == RL_ERR_RANGE && strcmp(err.field, "kind") == 0);
    r.kind = RL_QUIZ_BYTES;
    r.model = (rl_model)7;
    CHECK(rl_quiz_pose(&r, &q, &err) == RL_ERR_RANGE && strcmp(err.field, "traffic-model") == 0);
    r.model = RL_MODEL_TILED;
    r.problem.pass = RL_PASS_BWD;
    CHECK(rl_quiz_pose(&r, &q, &err) == RL_ERR_INVALID);
    CHECK_STR_CONTAINS(err.message, "pass: exercises are posed for the forward pass, got bwd");
    r.problem.pass = RL_PASS_FWD;
    r.problem.out_dtype = RL_DTYPE_BF16;
    CHECK(rl_quiz_pose(&r, &q, &err) == RL_ERR_INVALID && strcmp(err.field, "out-dtype") == 0);
    r.problem.out_dtype = 0;
    r.problem.kv_heads = 3;
    CHECK(rl_quiz_pose(&r, &q, &err) != RL_OK && strcmp(err.field, "kv-heads") == 0);
    r.problem.kv_heads = 0;
    r.hw = "h9000";
    CHECK(rl_quiz_pose(&r, &q, &err) != RL_OK && strcmp(err.field, "hw") == 0);
    r.hw = "h100-sxm";
    r.peak = "3 TB/s";
    CHECK(rl_quiz_pose(&r, &q, &err) != RL_OK && strcmp(err.field, "peak") == 0);
    r.peak = NULL;
    CHECK(rl_quiz_pose(&r, &q, &err) == RL_OK && err.status == RL_OK);
}

/* A drawn question is its problem posed: the same text, value and solution. */
static void test_draw_is_pose(void) {
    for (int kind = RL_QUIZ_ANY; kind < (int)RL_QUIZ_KIND_COUNT; kind++) {
        for (uint32_t seed = 0; seed < 200; seed++) {
            rl_quiz_question d, p;
            CHECK(rl_quiz_draw(seed, &(rl_quiz_options){(rl_quiz_kind)kind}, &d, NULL) == RL_OK);
            rl_quiz_pose_request r = {d.problem, d.hw->id, NULL, NULL, d.kind, d.model};
            CHECK(rl_quiz_pose(&r, &p, NULL) == RL_OK);
            CHECK(p.seed == 0 && p.kind == d.kind && p.decode == d.decode && p.hw == d.hw);
            CHECK(memcmp(&p.problem, &d.problem, sizeof d.problem) == 0);
            CHECK(p.roof.bandwidth_bytes_per_s == d.roof.bandwidth_bytes_per_s &&
                  p.roof.peak_flops_per_s == d.roof.peak_flops_per_s && p.peak_kind == d.peak_kind);
            CHECK(p.model == d.model && p.dim == d.dim && p.expected == d.expected &&
                  p.tolerance == d.tolerance && p.step_count == d.step_count);
            CHECK(strcmp(p.expected_text, d.expected_text) == 0 && strcmp(p.setup, d.setup) == 0 &&
                  strcmp(p.ask, d.ask) == 0);
            for (int i = 0; i < d.step_count; i++)
                CHECK(p.step_ids[i] == d.step_ids[i] && strcmp(p.steps[i], d.steps[i]) == 0);
        }
    }
}

int main(void) {
    test_hand_values();
    test_pinned();
    test_flops_slips();
    test_bytes_slips();
    test_other_kinds();
    test_kinds();
    test_operators();
    test_pose_values();
    test_pose_errors();
    test_draw_is_pose();
    return check_report("test_quiz");
}
