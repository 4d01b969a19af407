/* The Blackwell backward (issue 18): `fa4` from FlashAttention-4's flash_bwd_sm100.py, `cudnn` on
 * sm_100/sm_103 taking the same mechanism (ASSUMED: closed source). Every term against a hand
 * calculation from the preset figures (hardware.c: B200 2250 TFLOP/s bf16 dense, 148 SMs at
 * 1.856 GHz, MUFU 16/SM/clock; GB200 2500 TFLOP/s, 148 SMs at 2.062 GHz, MUFU 16; GB300 the
 * same with MUFU 32) and the profile's constants: the fitted backward MMA fraction 0.94901
 * (RL_FIT_BWD_MMA_SM100, fitted on cuDNN GB200 wan22 N = 17160: 10.638 ms), FA2/FA3's per-round
 * CTA cost 7.8667 µs and the per-kernel cost 2.855 µs (MODEL.md "Fitted constants"). */
#include <string.h>

#include "check.h"
#include "rooflab/rooflab.h"

#define FRAC 0.94901
#define CTA_S 7.8667e-6
#define KERNEL_S 2.855e-6

static rl_status run(rl_problem p, const char *hw, rl_kernel k, rl_prediction *r, rl_error *e) {
    const rl_hw *h = rl_hw_find(hw);
    rl_kernel_spec spec = {.kernel = k};
    rl_roof roof = {h->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(h, p.dtype)};
    return rl_predict(&p, h, roof, &spec, r, e);
}

/* FA4 backward on a B200, B = 4, H = 16, N = L = 8192, d = 128, bf16, non-causal.
 *
 * F (backward, 2.5 × the forward's 4·B·H·d·N·L): 4 · 4 · 16 · 128 · 8192² = 2 199 023 255 552;
 * × 2.5 = 5 497 558 138 880 FLOP.
 * Tile: d = 128 runs the 2-CTA MMA (interface.py: use_2cta_instrs when head_dim >= 128), 256 keys
 * per cluster × 128 query rows: 64 query blocks × 32 key tiles = 2048 tiles per head, no padding:
 * computed pairs 64 heads · 8192² = 4 294 967 296. CTAs: one per 128-key block per (batch, head)
 * = 64 · 64 = 4096 on 148 SMs, 1 per SM: 27.68 rounds.
 * mma = F / (0.94901 · 2250e12) = 2.5747 ms.
 * exp (taken as serialised with the MMAs: MODEL.md): per score one MUFU.EX2 at 16/clock = 8
 * FP32-lane clocks, + 4 FP32 ops (FMA 1, P cvt 1/2, dP − D 1, × P 1, dS cvt 1/2): 12 lane-clocks
 * of 128 · 148 · 1.856e9 lanes/s: 4 294 967 296 · 12 / 3.5160e13 = 1.4658 ms.
 * floor: 3 kernels (preprocess, main, dQ postprocess) × 2.855 µs + 27.68 rounds × 7.8667 µs.
 * Bytes (L2, the FA2 backward dataflow with the 128 × 256 tile), per (batch, head), b = 2:
 *   K, V read: 2 · 8192 · 128 · 2 = 4 194 304; O read by the pre-pass: 2 097 152;
 *   per tile the query block's rows (2048 tiles × 128 rows = 262 144 rows): Q 128 · 2 = 256 B,
 *   dO 256 B, LSE and D 8 B, the dQ accumulator read and written 2 · 128 · 4 = 1024 B: 1544 B
 *   a row → 404 750 336; pre-pass dO read 2 097 152 + D written 32 768; post-pass accumulator
 *   read 4 194 304 + dQ written 2 097 152; dK, dV written 4 194 304.
 *   Sum 423 657 472 per head. The L2 level carries it less the accumulator's one write and
 *   read that the memory-level model places in DRAM (2 · 4 · 8192 · 128 = 8 388 608, MODEL.md
 *   "Memory levels"): 415 268 864 per head, × 64 = 26 577 207 296 B.
 * The dQ accumulator alone: 64 · 262 144 · 1024 = 17 179 869 184 B (17.2 GB); the 1-CTA tile
 * (128 keys) would read and write it twice as often: 34.4 GB. */
static void fa4_b200_by_hand(void) {
    rl_problem p = {.batch = 4, .heads = 16, .seq = 8192, .head_dim = 128, .dtype = RL_DTYPE_BF16,
                    .pass = RL_PASS_BWD};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 256 && r.ctas_per_sm == 1 && !r.persistent);
    CHECK(r.exp_serialised);
    const double F = 2.5 * 4.0 * 4 * 16 * 128 * 8192.0 * 8192.0;
    CHECK_CLOSE(F, 5497558138880.0, 0);
    const double pairs = 64.0 * 8192.0 * 8192.0;
    CHECK_CLOSE(r.computed_pairs, pairs, 0);
    CHECK_CLOSE(r.ctas, 4096.0, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / (FRAC * 2250e12), 1e-9);
    CHECK(r.terms_s[RL_TERM_TILES] == 0);
    const double lanes = 128.0 * 148 * 1.856e9;
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], pairs * 12.0 / lanes, 1e-9);
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], 1.4658e-3, 1e-4);
    CHECK(r.kernels == 3);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 3 * KERNEL_S + 4096.0 / 148.0 * CTA_S, 1e-9);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_L2], 26577207296.0, 1e-12);
    CHECK(r.limit == RL_LIMIT_COMPUTE);
    /* d = 64: one CTA per cluster (no 2-CTA below head_dim 128), 128 × 128; the dQ accumulator
     * is read and written per 128 keys */
    rl_problem s = p;
    s.head_dim = 64;
    CHECK(run(s, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128);
}

/* GQA: dK and dV accumulate in fp32 over the group and two more postprocess kernels convert
 * them (interface.py: dKV_postprocess when qhead_per_kvhead > 1): 5 kernels. */
static void fa4_gqa_kernels(void) {
    rl_problem p = {.batch = 2, .heads = 64, .kv_heads = 8, .seq = 4096, .head_dim = 128,
                    .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD};
    rl_prediction r;
    CHECK(run(p, "gb200", RL_KERNEL_FA4, &r, NULL) == RL_OK);
    CHECK(r.kernels == 5);
}

/* GB300 against GB200, cudnn backward (FA4's mechanism, no emulation in either): same peak,
 * same clock; the serialised softmax per score is 8 + 4 = 12 lane-clocks on GB200 and 4 + 4 = 8
 * on GB300 (MUFU 32/clock). B = 1, H = 40, N = L = 17160, d = 128 (the fit point's shape):
 * pairs = 40 · 17408 · 17160 (17160 = 134.06 query blocks of 128 → 135 blocks, 68 key tiles of
 * 256 → 17408 keys computed): 40 · 135 · 128 · 17408 = 12 033 146 880.
 * exp GB200 = 12 033 146 880 · 12 / (128 · 148 · 2.062e9) = 3.6966 ms, GB300 two thirds of it. */
static void cudnn_gb300_over_gb200(void) {
    rl_problem p = {.batch = 1, .heads = 40, .seq = 17160, .head_dim = 128,
                    .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD};
    rl_prediction a, b;
    CHECK(run(p, "gb200", RL_KERNEL_CUDNN, &a, NULL) == RL_OK);
    CHECK(run(p, "gb300", RL_KERNEL_CUDNN, &b, NULL) == RL_OK);
    const double pairs = 40.0 * 135 * 128 * 17408;
    CHECK_CLOSE(a.computed_pairs, pairs, 0);
    const double lanes = 128.0 * 148 * 2.062e9;
    CHECK_CLOSE(a.terms_s[RL_TERM_EXP], pairs * 12.0 / lanes, 1e-9);
    CHECK_CLOSE(b.terms_s[RL_TERM_EXP], pairs * 8.0 / lanes, 1e-9);
    CHECK_CLOSE(a.terms_s[RL_TERM_MMA], b.terms_s[RL_TERM_MMA], 1e-12);
    /* the published pair (cuDNN frontend results, wan22): GB200 10.638 ms, GB300 9.883 ms */
    CHECK(b.time_s < a.time_s);
    /* the fit point itself: predicted within 0.1 % of 10.638 ms */
    CHECK_CLOSE(a.time_s, 10.638e-3, 1e-3);
}

static void expect_refusal(rl_problem p, const char *hw, rl_kernel k, const char *field,
                           const char *text) {
    rl_prediction r;
    rl_error e;
    memset(&e, 0, sizeof e);
    CHECK(run(p, hw, k, &r, &e) != RL_OK);
    CHECK(strcmp(e.field, field) == 0);
    CHECK_STR_CONTAINS(e.message, text);
}

static void refusals(void) {
    rl_problem p = {.seq = 4096, .head_dim = 256, .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD};
    expect_refusal(p, "b200", RL_KERNEL_FA4, "kernel", "head dim 256");
    expect_refusal(p, "gb200", RL_KERNEL_CUDNN, "kernel", "head dim 256");
    p.head_dim = 128;
    p.dtype = RL_DTYPE_FP8;
    expect_refusal(p, "b200", RL_KERNEL_FA4, "kernel", "fp16/bf16");
    /* d_qk 192 / d_v 128 runs (2-CTA, flash_bwd_sm100.py asserts it) */
    rl_problem m = {.seq = 4096, .heads = 16, .head_dim = 192, .head_dim_v = 128,
                    .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD};
    rl_prediction r;
    CHECK(run(m, "b200", RL_KERNEL_FA4, &r, NULL) == RL_OK);
    /* F = 2 · B · H · P · (3 · 192 + 2 · 128) */
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 2.0 * 16 * 4096.0 * 4096 * 832 / (FRAC * 2250e12), 1e-9);
}

int main(void) {
    fa4_b200_by_hand();
    fa4_gqa_kernels();
    cudnn_gb300_over_gb200();
    refusals();
    return check_report("test_blackwell_bwd");
}
