/* The 2026 kernel profiles (issue 18): fa4 (Blackwell: the softmax beside the MMA, exp2 split
 * between MUFU.EX2 and an FMA polynomial), flashmla (Hopper absorbed-MLA decode), cudnn (FA3's
 * mechanism on Hopper, FA4's without emulation on Blackwell), each term against a hand
 * calculation from the preset figures and the sources' constants, and the refusals that name
 * their flag. Preset figures used (hardware.c): B200 2250 TFLOP/s bf16 dense, 148 SMs at
 * 1.856 GHz, MUFU 16/SM/clock; GB200 2500 TFLOP/s, 148 SMs at 2.062 GHz, MUFU 16; GB300 the
 * same with MUFU 32; H100 SXM 989 TFLOP/s, 3.35 TB/s, 132 SMs at 1.83 GHz; H20 148 TFLOP/s,
 * 4 TB/s, 78 SMs. */
#include <string.h>

#include "check.h"
#include "predict_check.h"
#include "rooflab/rooflab.h"

/* core/src/profiles.h (internal): FA4's exp2 emulation share of a row of bc scores */
double rl__ex2_emulated_share(int64_t bc, int freq, int res, int start);

static rl_status run(rl_problem p, const char *hw, rl_kernel k, rl_prediction *r, rl_error *e) {
    const rl_hw *h = rl_hw_find(hw);
    rl_kernel_spec spec = {.kernel = k};
    rl_dtype dt = p.dtype ? p.dtype : RL_DTYPE_FP16;
    return rl_predict(&p, h, roof_of(h, dt), &spec, r, e);
}

/* FA4 on a B200, B = 2, H = 16, N = L = 16384, d = 128, bf16, non-causal.
 * Tile 2 x 128 query rows x 128 keys: 64 query blocks x 128 key tiles per head, no padding, so
 * the computed pairs are exactly 32 · 16384² = 8 589 934 592.
 * MMA: F = 4 · 2 · 16 · 128 · 16384² = 4.398e12 FLOP at 2250 TFLOP/s.
 * exp2 emulated: non-causal, d 128, 16384 query rows > 256, so the 2-CTA forward
 * (interface.py use_2cta_instrs), whose _TUNING_CONFIG entry is ex2_emu_freq 10, start fragment 1
 * (res 4, softmax.py's default): of a 128-key row's 4 fragments of 32, fragments 1 and 2 (the
 * last all on MUFU, fragment 0 before the start) emulate the pairs k = 6, 8, 16, 18, 26, 28:
 * e = 2 · 12 / 128 = 0.1875. Softmax per score, in FP32-lane clocks of one SM (128 lanes; MUFU
 * is 16/clock = 8 lane-clocks each): MUFU (1 − e) · 8 = 6.5, FP32 ops 3 + 6e = 4.125: 10.625 /
 * (128 · 148 · 1.856e9) s.
 * The MMA per score: 512 FLOP / 8192 FLOP/clock = 8 lane-clocks: the softmax is longer, so the
 * exp term is its excess. Each Q tile's chain (flash_fwd_sm100.py mma(): S, softmax, P·V one after
 * another) adds per KV iteration (256 x 128 = 32768 scores) the fitted handoff latency,
 * RL_FIT_CHAIN_SM100 = 552.69 SM clocks (MODEL.md "Fitted constants"): 552.69 / 32768 SM-clocks =
 * 552.69 / 256 = 2.15895 lane-clocks per score, so the chain is (8 + 10.625) / 2 + 2.15895 =
 * 11.47145 lane-clocks per score, longer than the softmax alone: the exp term is
 * pairs · 11.47145 / lanes − F / 2250e12. The preset's peak and clock are rounded figures
 * (148 · 8192 · 1.856e9 = 2250.2 TFLOP/s): ratios of the two agree to 1e-3. */
static void fa4_b200_by_hand(void) {
    rl_problem p = {.batch = 2, .heads = 16, .seq = 16384, .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK(r.block_m == 256 && r.block_n == 128 && r.ctas_per_sm == 1 && r.persistent);
    CHECK(!r.exp_serialised);
    const double F = 4.0 * 2 * 16 * 128 * 16384.0 * 16384.0;
    const double pairs = 32.0 * 16384.0 * 16384.0;
    CHECK_CLOSE(r.computed_pairs, pairs, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / 2250e12, 1e-12);
    CHECK(r.terms_s[RL_TERM_TILES] == 0);
    const double lanes = 128.0 * 148 * 1.856e9;
    /* the chain's MMA half is F / 2250e12 (the preset's peak), its softmax half pairs · 10.625 /
     * lanes, its latency pairs / 32768 iterations / 148 SMs · 552.69 clocks */
    const double chain = (F / 2250e12 + pairs * 10.625 / lanes) / 2 +
                         pairs / 32768 / 148 * 552.69 / 1.856e9;
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], chain - F / 2250e12, 1e-9);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
    /* the compute side: the chain, 8 / 11.47145 = 69.7 % of the peak (1569 TFLOP/s); FA4's paper
     * measures 71 % (1613 TFLOP/s) at its best shape */
    const double compute = r.terms_s[RL_TERM_MMA] + r.terms_s[RL_TERM_EXP];
    CHECK_CLOSE(F / compute, 2250e12 * 8.0 / 11.47145, 1e-3); /* 1e-3: the rounded peak */
    /* the other emulation patterns of _TUNING_CONFIG, by hand (pairs k of fragments 0..2 with
     * k mod freq >= freq - 4, from the start fragment; 2 scores per pair, out of 128):
     * freq 16 start 1 (d <= 128 when not 2-CTA): k = 12, 14, 28, 30 in fragments 1, 2: 16/128;
     * freq 16 start 0 (2-CTA d 192): the same in fragments 0..2: 24/128;
     * freq 32 start 1 (causal d 192): k = 28, 30 in fragments 1, 2: 8/128 */
    CHECK_CLOSE(rl__ex2_emulated_share(128, 10, 4, 1), 24.0 / 128, 0);
    CHECK_CLOSE(rl__ex2_emulated_share(128, 16, 4, 1), 16.0 / 128, 0);
    CHECK_CLOSE(rl__ex2_emulated_share(128, 16, 4, 0), 24.0 / 128, 0);
    CHECK_CLOSE(rl__ex2_emulated_share(128, 32, 4, 1), 8.0 / 128, 0);
    /* causal d 128 (1-CTA, freq 16): softmax (1 − 0.125) · 8 + 3 + 0.75 = 10.75 lane-clocks per
     * score; the chain (8 + 10.75) / 2 + 2.15895 = 11.53395 on every computed pair */
    p.causal = 1;
    CHECK(run(p, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA] + r.terms_s[RL_TERM_TILES] + r.terms_s[RL_TERM_EXP],
                r.computed_pairs * 11.53395 / lanes, 1e-3);
    /* d_qk 192 / d_v 128, non-causal, 2-CTA (freq 16, start 0): softmax (1 − 0.1875) · 8 + 4.125 =
     * 10.625, MMA 2 · 320 / 8192 · 128 = 10, chain (10 + 10.625) / 2 + 2.15895 = 12.47145 */
    p.causal = 0;
    p.head_dim = 192;
    p.head_dim_v = 128;
    CHECK(run(p, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA] + r.terms_s[RL_TERM_EXP], pairs * 12.47145 / lanes, 1e-3);
    CHECK(r.limit == RL_LIMIT_COMPUTE);
}

/* The same problem on GB200 (sm_100, MUFU 16) and GB300 (sm_103, MUFU 32, FA4 emulates nothing):
 * GB300's softmax per score is (1/32 + 3/128) SM-clocks = 7 lane-clocks of 1/128 < the
 * MMA's 8, but the chain is (8 + 7) / 2 + 552.69 / 256 = 9.65895 > 8: the exp term is the
 * chain's excess over the MMA, 1.65895 / 8 of it. GB200: (8 + 10.625) / 2 + 2.15895 = 11.47145
 * as on B200. Same clock and dense peak: the ratio of the compute sides is 11.47145 / 9.65895 =
 * 1.1876 (issue 18: GB300 beats GB200 by 1.2–1.37 on attention; cuDNN frontend's d = 128 forward
 * rows: 1.13–1.20). */
static void fa4_gb300_over_gb200(void) {
    rl_problem p = {.batch = 2, .heads = 16, .seq = 16384, .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction a, b;
    CHECK(run(p, "gb200", RL_KERNEL_FA4, &a, NULL) == RL_OK);
    CHECK(run(p, "gb300", RL_KERNEL_FA4, &b, NULL) == RL_OK);
    CHECK_CLOSE(b.terms_s[RL_TERM_EXP] / b.terms_s[RL_TERM_MMA], 1.65895 / 8.0, 1e-4);
    const double ca = a.terms_s[RL_TERM_MMA] + a.terms_s[RL_TERM_EXP];
    const double cb = b.terms_s[RL_TERM_MMA] + b.terms_s[RL_TERM_EXP];
    CHECK_CLOSE(ca / cb, 11.47145 / 9.65895, 1e-4);
    CHECK(a.time_s / b.time_s > 1.15 && a.time_s / b.time_s < 1.22);
}

/* cudnn on Blackwell: FA4's tiles and overlap, every exp2 on MUFU (8 lane-clocks) + 3 = 11
 * lane-clocks per score against the MMA's 8 / 0.84388 = 9.48002 at cuDNN's fitted fraction
 * (RL_FIT_CUDNN_SM100_MMA); the chain (9.48002 + 11) / 2 + 552.69 / 256 = 12.39896 binds:
 * 8/12.39896 of GB200's 2500 TFLOP/s = 1613 TFLOP/s on the compute side (issue 18: cuDNN on
 * GB200 1.6–1.8 PFLOP/s); GB300 (softmax 7): chain (9.48002 + 7) / 2 + 2.15895 = 10.39896,
 * 1.09693x its MMA, and 12.39896 / 10.39896 = 1.1923 faster than GB200.
 * On Hopper: FA3's mechanism, the same prediction as --kernel fa3. */
static void cudnn_profiles(void) {
    rl_problem p = {.batch = 2, .heads = 16, .seq = 16384, .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction a, b, c, d;
    CHECK(run(p, "gb200", RL_KERNEL_CUDNN, &a, NULL) == RL_OK);
    const double F = 4.0 * 2 * 16 * 128 * 16384.0 * 16384.0;
    CHECK_CLOSE(F / (a.terms_s[RL_TERM_MMA] + a.terms_s[RL_TERM_EXP]), 2500e12 * 8.0 / 12.39896, 1e-3);
    CHECK(run(p, "gb300", RL_KERNEL_CUDNN, &b, NULL) == RL_OK);
    CHECK_CLOSE((b.terms_s[RL_TERM_MMA] + b.terms_s[RL_TERM_EXP]) / b.terms_s[RL_TERM_MMA],
                10.39896 / 9.48002, 1e-4);
    CHECK_CLOSE((a.terms_s[RL_TERM_MMA] + a.terms_s[RL_TERM_EXP]) /
                    (b.terms_s[RL_TERM_MMA] + b.terms_s[RL_TERM_EXP]),
                12.39896 / 10.39896, 1e-4);
    p.dtype = RL_DTYPE_FP16;
    CHECK(run(p, "h100-sxm", RL_KERNEL_CUDNN, &c, NULL) == RL_OK);
    CHECK(run(p, "h100-sxm", RL_KERNEL_FA3, &d, NULL) == RL_OK);
    CHECK(c.time_s == d.time_s && c.kernel == RL_KERNEL_CUDNN);
    p.pass = RL_PASS_BWD;
    CHECK(run(p, "h100-sxm", RL_KERNEL_CUDNN, &c, NULL) == RL_OK);
    CHECK(run(p, "h100-sxm", RL_KERNEL_FA3, &d, NULL) == RL_OK);
    CHECK(c.time_s == d.time_s);
}

/* FlashMLA, H100 SXM (the H800's configuration), DeepSeek-V3 decode: B = 64, H = 128, N = 1,
 * L = 4096, R = 512, DR = 64, bf16.
 * Rows h_q · s_q = 128 in 64-row tiles: 2 tiles per sequence; scheduler parts 132 / 1 / 2 = 66,
 * ⌊66 / 64⌋ = 1 split: 128 CTAs, one kernel. F = 2 · 64 · 128 · 4096 · (576 + 512) = 7.30e10.
 * MMA rate: 0.80 of the peak at the throttled 1600 MHz: 989e12 · 0.80 · 1.6 / 1.83.
 * DRAM: the latent once, 64 · 4096 · 1152 B, Q 64 · 128 · 576 · 2 and O 64 · 128 · 512 · 2 B, at
 * 3000 GB/s (README's memory-bound figure). The intensity F / bytes → 2 · 128 · 1088 / 1152
 * = 241.8 FLOP/B at large L (issue 18: ≈ 242), right at H100's ridge (295): both halves show. */
static void flashmla_by_hand(void) {
    rl_problem p = {.batch = 64, .heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                    .rope_dim = 64, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHMLA, &r, &e) == RL_OK);
    CHECK(r.block_m == 64 && r.block_n == 64 && r.gqa_packed && r.splits == 1 && r.kernels == 1);
    CHECK_CLOSE(r.ctas, 128, 0);
    const double F = 2.0 * 64 * 128 * 4096 * (576 + 512);
    const double rate = 989e12 * 0.80 * 1.6 / 1.83;
    CHECK_CLOSE(r.mma_flops_per_s, rate, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / rate, 1e-12);
    CHECK(r.terms_s[RL_TERM_TILES] == 0 && r.terms_s[RL_TERM_EXP] == 0);
    const double dram = 64.0 * 4096 * 1152 + 64.0 * 128 * 576 * 2 + 64.0 * 128 * 512 * 2;
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], dram, 1e-12);
    CHECK_CLOSE(r.level_time_s[RL_LEVEL_DRAM], dram / 3000e9, 1e-12);
    CHECK(fabs(F / (64.0 * 4096 * 1152) - 241.78) < 0.01);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
    /* near the published figures: not above FlashMLA's 660 TFLOP/s nor its 3000 GB/s, and
     * within the partial overlap of the two halves (60 % of 660 at the ridge) */
    printf("flashmla h100-sxm B=64 H=128 L=4096: %.1f us, %.0f TFLOP/s, %.0f GB/s\n", r.time_s * 1e6,
           F / r.time_s / 1e12, dram / r.time_s / 1e9);
    CHECK(F / r.time_s <= 660e12 && F / r.time_s >= 0.6 * 660e12);
    CHECK(dram / r.time_s <= 3000e9);
    /* MTP, two query rows: 4 row tiles, twice the FLOPs on the same bytes: past the ridge, the
     * MMA the limit and a higher rate */
    rl_problem q = p;
    q.seq = 2;
    q.causal = 1;
    rl_prediction m;
    CHECK(run(q, "h100-sxm", RL_KERNEL_FLASHMLA, &m, NULL) == RL_OK);
    CHECK(m.limit == RL_LIMIT_COMPUTE && r.limit != RL_LIMIT_COMPUTE);
    CHECK(m.flops_per_s > 1.2 * r.flops_per_s);
    /* H20: its capped tensor rate (148 TFLOP/s) is not power-throttled: 0.80 of it */
    CHECK(run(q, "h20", RL_KERNEL_FLASHMLA, &m, NULL) == RL_OK);
    CHECK_CLOSE(m.mma_flops_per_s, 148e12 * 0.80, 1e-12);
    /* paged with FlashMLA's 64-token blocks: the same streamed bytes + the page table */
    p.page_size = 64;
    rl_prediction g;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHMLA, &g, NULL) == RL_OK);
    CHECK(g.levels.bytes[RL_LEVEL_DRAM] > dram && g.levels.bytes[RL_LEVEL_DRAM] < 1.001 * dram);
}

/* B = 128 sequences, 16 heads: 1 row tile each, parts = 132, ⌊132/128⌋ = 1 split, 128 CTAs;
 * B = 2: 66 splits each, 132 CTAs, a combine kernel. The tile scheduler balances: no waves
 * term even when B = 256 gives 256 CTAs on 132 SMs. */
static void flashmla_splits(void) {
    rl_problem p = {.batch = 2, .heads = 128, .seq = 1, .kv_len = 32768, .kv_lora_rank = 512,
                    .rope_dim = 64, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHMLA, &r, NULL) == RL_OK);
    CHECK(r.splits == 33 && r.kernels == 2); /* parts 66 over 2 sequences */
    CHECK_CLOSE(r.ctas, 2.0 * 2 * 33, 0);
    p.batch = 256;
    p.kv_len = 4096;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHMLA, &r, NULL) == RL_OK);
    CHECK(r.splits == 1 && r.terms_s[RL_TERM_WAVES] == 0);
}

/* FlashMLA's sparse decode (--topk, DeepSeek-V3.2): B = 64, H = 128, N = 1, L = 32768, K = 2048,
 * the FP8 cache (656 B per token: 512 fp8 + 4 fp32 scales + 64 bf16 RoPE), bf16 MMAs.
 * F = 2 · 64 · 128 · 1088 · 2048 (each query row attends its K selected keys).
 * MMA rate: the dense rate × 410/660 (README: sparse 410, dense 660 TFLOPS compute-bound).
 * DRAM: each sequence's 2048 selected rows gathered once, each 656 B in whole 32 B sectors
 * (21 sectors = 672 B), + Q (64 · 128 · 576 · 2 B) and O (64 · 128 · 512 · 2 B), + the int32
 * index list the kernel reads (FlashMLA README: indices int32), 64 · 2048 · 4 B. One unit per
 * (sequence, token): 2 row tiles × 32 key tiles of 64; parts 66 ⇒ ⌊66/64⌋ = 1 split. */
static void flashmla_sparse_by_hand(void) {
    rl_problem p = {.batch = 64, .heads = 128, .seq = 1, .kv_len = 32768, .topk = 2048,
                    .kv_lora_rank = 512, .rope_dim = 64, .dtype = RL_DTYPE_BF16,
                    .kv_dtype = RL_DTYPE_FP8};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHMLA, &r, &e) == RL_OK);
    const double F = 2.0 * 64 * 128 * 1088 * 2048;
    const double rate = 989e12 * 0.80 * 1.6 / 1.83 * 410 / 660;
    CHECK_CLOSE(r.mma_flops_per_s, rate, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / rate, 1e-12);
    CHECK_CLOSE(r.computed_pairs, 64.0 * 128 * 2048, 0);
    const double dram =
        64.0 * 2048 * 672 + 64.0 * 128 * 576 * 2 + 64.0 * 128 * 512 * 2 + 64.0 * 2048 * 4;
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], dram, 1e-12);
    CHECK(r.splits == 1 && r.limit == RL_LIMIT_COMPUTE);
    /* the dense decode of the same cache would read all 32768 rows: far slower */
    rl_problem d = p;
    d.topk = 0;
    d.kv_dtype = RL_DTYPE_BF16;
    rl_prediction q;
    CHECK(run(d, "h100-sxm", RL_KERNEL_FLASHMLA, &q, NULL) == RL_OK);
    CHECK(q.time_s > 8 * r.time_s);
}

static void expect_refusal(rl_problem p, const char *hw, rl_kernel k, const char *field,
                           const char *text) {
    rl_prediction r;
    rl_error e;
    memset(&e, 0, sizeof e);
    rl_status st = run(p, hw, k, &r, &e);
    CHECK(st != RL_OK);
    CHECK(strcmp(e.field, field) == 0);
    CHECK_STR_CONTAINS(e.message, text);
}

static void refusals(void) {
    const rl_problem plain = {.seq = 4096, .head_dim = 128, .dtype = RL_DTYPE_BF16};
    const rl_problem mla = {.batch = 8, .heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                            .rope_dim = 64, .dtype = RL_DTYPE_BF16};
    expect_refusal(plain, "h100-sxm", RL_KERNEL_FA4, "kernel", "sm_100/sm_103");
    rl_problem b = plain;
    b.pass = RL_PASS_BWD;
    rl_prediction rb; /* the backward is modelled (test_blackwell_bwd) */
    CHECK(run(b, "b200", RL_KERNEL_FA4, &rb, NULL) == RL_OK);
    rl_problem d = plain;
    d.head_dim = 256;
    expect_refusal(d, "b200", RL_KERNEL_FA4, "kernel", "head dim 256");
    expect_refusal(plain, "h100-sxm", RL_KERNEL_FLASHMLA, "kv-lora-rank", "--kv-lora-rank");
    expect_refusal(mla, "b200", RL_KERNEL_FLASHMLA, "kernel", "sm_90");
    expect_refusal(mla, "h100-sxm", RL_KERNEL_FA2, "kv-lora-rank", "--kernel flashmla and fa3 do");
    rl_problem m8 = mla;
    m8.dtype = RL_DTYPE_FP8;
    expect_refusal(m8, "h100-sxm", RL_KERNEL_FA3, "dtype", "absorbed MLA");
    rl_problem f = mla;
    f.kv_dtype = RL_DTYPE_FP8;
    expect_refusal(f, "h100-sxm", RL_KERNEL_FLASHMLA, "kv-dtype", "sparse decode");
    rl_problem g = mla;
    g.page_size = 16;
    expect_refusal(g, "h100-sxm", RL_KERNEL_FLASHMLA, "page-size", "64-token blocks");
    rl_problem sp = mla;
    sp.kv_len = 8192;
    sp.topk = 2048;
    expect_refusal(sp, "h100-sxm", RL_KERNEL_FLASHMLA, "kv-dtype", "sparse decode: an FP8 cache");
    sp.kv_dtype = RL_DTYPE_FP8;
    expect_refusal(sp, "h100-sxm", RL_KERNEL_FA3, "topk", "--kernel flashmla does");
    rl_problem pg = plain;
    pg.page_size = 16;
    expect_refusal(pg, "h100-sxm", RL_KERNEL_FA2, "page-size", "does not model a paged");
    /* MLA prefill in MHA mode: fa4 runs d_qk 192 / d_v 128, fa3 refuses it by name */
    rl_problem v = plain;
    v.batch = 1;
    v.heads = 16;
    v.head_dim = 192;
    v.head_dim_v = 128;
    rl_prediction r;
    CHECK(run(v, "b200", RL_KERNEL_FA4, &r, NULL) == RL_OK);
    /* F = 2 · B · H · P · (192 + 128) */
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 2.0 * 1 * 16 * 4096.0 * 4096 * 320 / 2250e12, 1e-12);
    expect_refusal(v, "h100-sxm", RL_KERNEL_FA2, "head-dim-v", "--kernel fa4, fa3 and cudnn run");
    /* fa3 runs it too: tile_size.h, d <= 192 with d_v <= 128: 128 x 128 */
    CHECK(run(v, "h100-sxm", RL_KERNEL_FA3, &r, NULL) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 2.0 * 1 * 16 * 4096.0 * 4096 * 320 / 989e12, 1e-12);
    /* and absorbed MLA through its qv path (head dim 64 + head_dim_v 512): 64 x 64, the group's
     * 128 heads packed into two row tiles per sequence, the latent read once */
    CHECK(run(mla, "h100-sxm", RL_KERNEL_FA3, &r, NULL) == RL_OK);
    CHECK(r.block_m == 64 && r.block_n == 64 && r.gqa_packed);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM],
                8.0 * 4096 * 1152 + 8.0 * 128 * 576 * 2 + 8.0 * 128 * 512 * 2 +
                    (r.splits > 1 ? 2.0 * (double)r.splits * 8 * 128 * 513 * 4 : 0), 1e-9);
    rl_problem dec = plain;
    dec.seq = 1;
    expect_refusal(dec, "h100-sxm", RL_KERNEL_CUDNN, "kernel", "decode (N = 1) on Blackwell only");
    expect_refusal(plain, "a100-sxm4-80gb", RL_KERNEL_CUDNN, "kernel", "Hopper (sm_90)");
    rl_kernel k;
    CHECK(rl_kernel_parse("fa4", "kernel", &k, NULL) == RL_OK && k == RL_KERNEL_FA4);
    CHECK(rl_kernel_parse("flashmla", "kernel", &k, NULL) == RL_OK && k == RL_KERNEL_FLASHMLA);
    CHECK(rl_kernel_parse("cudnn", "kernel", &k, NULL) == RL_OK && k == RL_KERNEL_CUDNN);
}

/* Sliding windows (--window W, causal), each tile count by hand from the local mask: query block
 * i (rows i·Br … i·Br + Br − 1 = key positions, N = L) needs keys i·Br − W + 1 … i·Br + Br − 1,
 * the Bc tiles ⌊(i·Br − W + 1)/Bc⌋ … ⌊(i·Br + Br − 1)/Bc⌋. */
static void windows_by_hand(void) {
    rl_prediction r;
    rl_error e;
    /* FA3, H100, B = 1, H = 16, d = 128, bf16, N = L = 4096, W = 128: the causal tile 128 x 128
     * (tile_size.h: causal or local); block 0 reads tile 0, blocks 1..31 tiles i − 1 and i:
     * 1 + 31 · 2 = 63 tiles per head (2,080 causal). Useful pairs per head 128·129/2 +
     * 3968·128 = 516,160; F = 4 · 16 · 128 · 516,160 = 4,228,382,720. 16 · 32 = 512 query
     * blocks ≥ 0.8 · 132: one split. */
    rl_problem w = {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 128, .causal = 1,
                    .window = 128, .dtype = RL_DTYPE_BF16};
    CHECK(run(w, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128 && r.splits == 1);
    CHECK_CLOSE(r.computed_pairs, 16.0 * 63 * 128 * 128, 0);
    CHECK_CLOSE(r.ctas, 512.0, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 4228382720.0 / 989e12, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_TILES], (16.0 * 63 * 128 * 128 - 16.0 * 516160) * 512 / 989e12,
                1e-9);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
    /* the same on cudnn (FA3's mechanism on Hopper): the same prediction */
    rl_prediction c;
    CHECK(run(w, "h100-sxm", RL_KERNEL_CUDNN, &c, &e) == RL_OK);
    CHECK_CLOSE(c.time_s, r.time_s, 1e-12);
    /* FA4, B200, same problem: 256 x 128; block 0 (rows 0..255) tiles 0, 1; blocks 1..15 tiles
     * 2i − 1 … 2i + 1: 2 + 15 · 3 = 47 tiles per head. */
    CHECK(run(w, "b200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK_CLOSE(r.computed_pairs, 16.0 * 47 * 256 * 128, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 4228382720.0 / 2250e12, 1e-12);
    CHECK(run(w, "b200", RL_KERNEL_CUDNN, &r, &e) == RL_OK);
    CHECK_CLOSE(r.computed_pairs, 16.0 * 47 * 256 * 128, 0);
    /* FA2, H100: 128 x 64 (d = 128): block i needs keys 128i − 127 … 128i + 127, tiles
     * 2i − 2 … 2i + 1 (i ≥ 1: 4), block 0 tiles 0, 1: 2 + 31 · 4 = 126 tiles per head. */
    CHECK(run(w, "h100-sxm", RL_KERNEL_FA2, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 64);
    CHECK_CLOSE(r.computed_pairs, 16.0 * 126 * 128 * 64, 0);

    /* Decode, FA3, H100, B = 1, H = 32, Hkv = 8, d = 128, N = 1, L = 32768, W = 256. FA3's
     * split rule counts the keys it loads (flash_api.cpp seqlen_k_loaded = min(L, W + Br) =
     * 384: 3 blocks of 128 ≤ 4): one split, where the full cache (256 blocks) gets 15. The G = 4
     * rows packed (PackGQA); keys 32512 … 32767: tiles 254, 255. DRAM: the 256 keys' K and V
     * of 8 KV heads, 8 · 256 · 128 · 2 B · 2 = 1,048,576, + Q and O 2 · 32 · 128 · 2 = 16,384. */
    rl_problem dw = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768,
                     .head_dim = 128, .causal = 1, .window = 256, .dtype = RL_DTYPE_BF16};
    CHECK(run(dw, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.splits == 1 && r.gqa_packed);
    CHECK_CLOSE(r.computed_pairs, 8.0 * 2 * 128 * 128, 0);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 1048576.0 + 16384.0, 1e-12);
    rl_problem full = dw;
    full.window = 0;
    CHECK(run(full, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.splits == 15);
    /* FA2's split-KV kernel cuts all L (n_blocks_per_split = ⌈256 / splits⌉ blocks of 128):
     * W = 4096, units 8, 264 slots: the smallest eligible s with 8s/264 ≥ 0.85 is 29
     * (⌈256/29⌉ = 9 ≠ ⌈256/28⌉ = 10), chunks of 9 · 128 = 1152 keys; the window 28672 … 32767
     * lies in chunks 24 … 28: 5 splits work. Tiles of 64 x 128: keys 28672 … 32767 are 32 of
     * them per KV head. */
    dw.window = 4096;
    CHECK(run(dw, "h100-sxm", RL_KERNEL_FA2, &r, &e) == RL_OK);
    CHECK(r.splits == 5 && r.kernels == 2 && r.block_m == 64 && r.block_n == 128);
    CHECK_CLOSE(r.computed_pairs, 8.0 * 32 * 64 * 128, 0);
    /* FlashInfer's CUDA-core decode (G = 4): only the window's keys are read: DRAM = 8 · 4096 ·
     * 128 · 2 B · 2 + Q and O 16,384 + per working split the partial O and LSE written and read
     * (2 · 32 rows · 129 · 4 B). */
    dw.dtype = RL_DTYPE_FP16;
    CHECK(run(dw, "h100-sxm", RL_KERNEL_FLASHINFER, &r, &e) == RL_OK);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM],
                8.0 * 4096 * 128 * 2 * 2 + 16384.0 +
                    (r.splits > 1 ? 2.0 * (double)r.splits * 32 * 129 * 4 : 0), 1e-12);
    /* refusals: sink tokens by every profile but generic (naming it), a window by flashmla */
    rl_problem sk = w;
    sk.sinks = 4;
    expect_refusal(sk, "h100-sxm", RL_KERNEL_FA3, "sinks", "--kernel generic models them");
    expect_refusal(sk, "b200", RL_KERNEL_FA4, "sinks", "learned sink logit");
    expect_refusal(sk, "h100-sxm", RL_KERNEL_FLASHINFER, "sinks", "--kernel generic");
    rl_problem mw = {.batch = 1, .heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                     .rope_dim = 64, .causal = 1, .window = 128, .dtype = RL_DTYPE_BF16};
    expect_refusal(mw, "h100-sxm", RL_KERNEL_FLASHMLA, "window", "no sliding window");
}

/* StreamingLLM sink tokens in `generic` (the one profile that loads them), by hand. H100 SXM,
 * B = 1, H = 16, N = L = 4096, d = 64, bf16, causal, W = 128, S = 4, Br = Bc = 128.
 * Query block i (rows 128i … 128i + 127) needs window keys 128i − 127 … 128i + 127: tiles i − 1
 * and i (i ≥ 1), tile 0 alone for i = 0; the sinks (keys 0 … 3) sit in tile 0, ⌈4/128⌉ = 1 sink
 * tile, loaded separately only where the window starts above it (first tile i − 1 ≥ 1: i ≥ 2).
 * Tiles per head: 1 + 31 · 2 + 30 · 1 = 93 (63 without the sinks); KV rows 93 · 128 = 11,904.
 * Pairs per head: Σ_{q=1}^{4096} min(128, q) = 128·129/2 + 3968·128 = 516,160, plus the sinks
 * Σ_{u=1}^{3968} min(4, u) = 1 + 2 + 3 + 3965 · 4 = 15,866: 532,026 (steady state N·(W + S) =
 * 540,672 less the ramp). */
static void sinks_by_hand(void) {
    rl_problem p = {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 64, .causal = 1,
                    .window = 128, .sinks = 4, .block_m = 128, .block_n = 128,
                    .dtype = RL_DTYPE_BF16};
    rl_prediction r, r0;
    rl_error e;
    CHECK(run(p, "h100-sxm", RL_KERNEL_GENERIC, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128 && !r.gqa_packed && r.splits == 1);
    CHECK_CLOSE(r.computed_pairs, 16.0 * 93 * 128 * 128, 0);
    CHECK_CLOSE(r.ctas, 16.0 * 32, 0);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
    /* the tiles beyond the useful pairs: (93 · 128² − 532,026) per head at F / useful pairs
     * = 4 · 64 = 256 FLOP each, against the MMA term's F = 4 · 16 · 64 · 532,026 */
    CHECK_CLOSE(r.terms_s[RL_TERM_TILES] / r.terms_s[RL_TERM_MMA],
                (93.0 * 128 * 128 - 532026.0) / 532026.0, 1e-12);
    rl_problem p0 = p;
    p0.sinks = 0;
    CHECK(run(p0, "h100-sxm", RL_KERNEL_GENERIC, &r0, &e) == RL_OK);
    CHECK_CLOSE(r0.computed_pairs, 16.0 * 63 * 128 * 128, 0);
    CHECK(r.time_s > r0.time_s);
    /* the workload's tiled bytes: Q and O 16 · 4096 · 64 · 2 = 8,388,608 each, K and V
     * 16 · 11,904 · 64 · 2 = 24,379,392 each: 65,536,000 (without sinks 63 · 128 = 8,064 rows:
     * 16,515,072 each, 49,807,360); pairs 16 · 532,026; compulsory K/V every key (N = L) */
    rl_workload w;
    CHECK(rl_workload_compute(&p, &w, &e) == RL_OK);
    CHECK_CLOSE(w.pairs, 532026.0, 0);
    CHECK_CLOSE(w.flops, 4.0 * 16 * 64 * 532026.0, 0);
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].bytes, 2 * 8388608.0 + 2 * 24379392.0, 0);
    CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].bytes, 4 * 8388608.0, 0);

    /* Decode, B = 1, H = 32, Hkv = 8, N = 1, L = 32768, W = 4096, S = 4, bf16: generic packs the
     * group (4 rows, a 16-row tile) and splits the keys to fill the GPU; only the window's
     * keys 28672 … 32767 and the sinks 0 … 3 are read: 4100 keys per KV head, K and V
     * 8 · 4100 · 128 · 2 B · 2 = 16,793,600 B (the DRAM level's K/V); the sinks' 4 · 8 · 128 · 2
     * · 2 = 16,384 B are what they add. Full cache: 64 splits of 512 keys; the window meets 8
     * of them, which set the time; the sinks' chunk 0 is a 4-key CTA beside them, not counted
     * (a longer time would come from its work, not a shorter one from its count). */
    rl_problem d = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768,
                    .head_dim = 128, .causal = 1, .window = 4096, .sinks = 4,
                    .dtype = RL_DTYPE_BF16};
    rl_prediction rd, rd0;
    CHECK(run(d, "h100-sxm", RL_KERNEL_GENERIC, &rd, &e) == RL_OK);
    rl_problem d0 = d;
    d0.sinks = 0;
    CHECK(run(d0, "h100-sxm", RL_KERNEL_GENERIC, &rd0, &e) == RL_OK);
    CHECK(rd.gqa_packed && rd0.gqa_packed);
    CHECK(rd.splits == 8 && rd0.splits == 8);
    /* DRAM: K/V 16,793,600 + Q and O 2 · 32 · 128 · 2 = 16,384 + per split the partial O and LSE
     * written and read, 8 · 2 · 32 rows · 129 · 4 B = 264,192 */
    CHECK_CLOSE(rd.levels.bytes[RL_LEVEL_DRAM], 16793600.0 + 16384.0 + 8.0 * 2 * 32 * 129 * 4,
                1e-12);
    CHECK_CLOSE(rd.levels.bytes[RL_LEVEL_DRAM] - rd0.levels.bytes[RL_LEVEL_DRAM], 16384.0, 1e-12);
    CHECK(rd.time_s >= rd0.time_s);
    CHECK(rl_workload_compute(&d, &w, &e) == RL_OK);
    CHECK_CLOSE(w.pairs, 4100.0, 0);
}

/* The Blackwell per-work-tile fill (FA4's mechanism: fa4, cudnn on sm_100/103, forward): each
 * work tile's Q load and O store at 0.47855 (RL_FIT_TILE_FILL_SHARE) of β / SMs, per round of
 * CTAs. cuDNN, GB200 (8 TB/s, 148 SMs), the gpt-oss window: B = 2, H = Hkv = 128, d = 64,
 * N = L = 4096, causal, W = 128, bf16. Work tiles 2 · 128 · 4096/256 = 4096, rounds 4096/148;
 * bytes per tile 256 · 64 · 2 (Q) + 256 · 64 · 2 (O) = 65,536. Floor = one kernel's 2.855 µs +
 * (4096/148) · 65,536 / (0.47855 · 8e12 / 148) = 2.855 µs + 4096 · 65,536 / 3.8284e12
 * = 2.855 + 70.117 µs. The fit point: the whole prediction is the measured 0.210 ms. */
static void blackwell_fill_by_hand(void) {
    rl_problem p = {.batch = 2, .heads = 128, .seq = 4096, .head_dim = 64, .causal = 1,
                    .window = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "gb200", RL_KERNEL_CUDNN, &r, &e) == RL_OK);
    CHECK_CLOSE(r.ctas, 4096.0, 0);
    const double fill = 4096.0 * 65536.0 / (0.47855 * 8e12);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 2.855e-6 + fill, 1e-9);
    CHECK_CLOSE(r.time_s, 0.210e-3, 1e-3);
    /* FA4 on the same GPU: the same fill */
    CHECK(run(p, "gb200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 2.855e-6 + fill, 1e-9);
    /* half the bandwidth (--bandwidth 4 TB/s): twice the fill */
    const rl_hw *gb = rl_hw_find("gb200");
    rl_roof half = {4e12, rl_hw_peak_for_dtype(gb, RL_DTYPE_BF16)};
    rl_kernel_spec spec = {.kernel = RL_KERNEL_CUDNN};
    CHECK(rl_predict(&p, gb, half, &spec, &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 2.855e-6 + 2 * fill, 1e-9);
    /* Hopper (FA3's mechanism): no fill, one kernel's fixed cost */
    CHECK(run(p, "h100-sxm", RL_KERNEL_CUDNN, &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 2.855e-6, 1e-9);
    /* MLA prefill in MHA mode on FA4, d_qk 192 / d_v 128, N = L = 8192, B = 1, H = 16, causal:
     * 16 · 8192/256 = 512 tiles of Q 256 · 192 · 2 + O 256 · 128 · 2 = 163,840 B */
    rl_problem m = {.batch = 1, .heads = 16, .seq = 8192, .head_dim = 192, .head_dim_v = 128,
                    .causal = 1, .dtype = RL_DTYPE_BF16};
    CHECK(run(m, "gb200", RL_KERNEL_FA4, &r, &e) == RL_OK);
    CHECK_CLOSE(r.ctas, 512.0, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], 2.855e-6 + 512.0 * 163840.0 / (0.47855 * 8e12), 1e-9);
}

/* Paged KV and ragged batches, by hand. H100 SXM, H = 32, Hkv = 8, d = 128, fp16, N = 1. */
static void paged_and_ragged_by_hand(void) {
    rl_prediction r, u;
    rl_error e;
    /* FlashInfer's CUDA-core decode (G = 4): 128 threads (bdx 16 · bdy 4, bdz 2), 16 CTAs per SM:
     * max grid 16 · 132 = 2112, 8 (sequence, KV head) tiles a sequence. Its chunks count pages,
     * at least max(128 / P, 1) of them (scheduler.cuh). L = 1000: contiguous (pages of 16: 63),
     * chunk max(⌈63 / 264⌉, 8) = 8 pages: 8 splits; P = 256 (4 pages), chunk max(1, 1) = 1 page:
     * 4 splits. The page table: 4 B a page, once per sequence: 16 B at P = 256. */
    rl_problem p = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 1000,
                    .head_dim = 128};
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHINFER, &r, &e) == RL_OK);
    CHECK(r.splits == 8);
    p.page_size = 256;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FLASHINFER, &r, &e) == RL_OK);
    CHECK(r.splits == 4);
    /* DRAM: K and V 8 · 1000 · 256 B · 2 = 4,096,000 (256 B rows: whole sectors, no waste),
     * Q and O 2 · 32 · 128 · 2 = 16,384, the table 16, partial O and LSE 2 · 4 · 32 · 129 · 4 */
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 4096000.0 + 16384 + 16 + 2.0 * 4 * 32 * 129 * 4,
                1e-12);
    /* FA3's paged KV: a decode (G·N = 4 <= Br 128) never takes TMA: cp.async, 128 x 128 (not
     * 128 x 176) and PackGQA; a prefill with pages a multiple of Bc keeps TMA and its tile. */
    p.page_size = 16;
    p.kv_len = 4096;
    CHECK(run(p, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128 && r.gqa_packed);
    rl_problem pre = {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 128, .page_size = 176};
    CHECK(run(pre, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.block_n == 176);
    pre.page_size = 128; /* 128 % 176 != 0: cp.async, 128 x 128 */
    CHECK(run(pre, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.block_n == 128);

    /* A ragged batch: 63 sequences of 512 keys and one of 32768 (B = 64). */
    rl_problem g = {.heads = 32, .kv_heads = 8, .seq = 1, .head_dim = 128};
    CHECK(rl_kv_lens_parse("512x63,32768", NULL, &g.kv_lens, &e) == RL_OK);
    /* FlashInfer: the smallest chunk c >= 8 pages with Σ count · 8 · ⌈pages / c⌉ <= 2112:
     * c = 15: 63 · 8 · 3 + 8 · 137 = 2608; c = 16: 63 · 8 · 2 + 8 · 128 = 2032. The longest
     * runs 2048 / 16 = 128 splits; every CTA walks 256 keys: no tail. */
    CHECK(run(g, "h100-sxm", RL_KERNEL_FLASHINFER, &r, &e) == RL_OK);
    CHECK(r.splits == 128);
    CHECK_CLOSE(r.ctas, 2032.0, 0);
    /* FA3 (fp16, non-causal d = 128: 128 x 176, packed rows 4: one query block): 64 · 8 = 512
     * units >= 0.8 · 132, no split; tiles ⌈512/176⌉ = 3 and ⌈32768/176⌉ = 187: computed pairs
     * (63 · 8 · 3 + 8 · 187) · 128 · 176 = 3008 · 22528. The longest CTA alone: 187 tiles of
     * 128 x 176 x 4 · 128 FLOP at one SM's share of the peak, 989e12 / 132: 288 µs at least. */
    CHECK(run(g, "h100-sxm", RL_KERNEL_FA3, &r, &e) == RL_OK);
    CHECK(r.splits == 1);
    CHECK_CLOSE(r.ctas, 512.0, 0);
    CHECK_CLOSE(r.computed_pairs, 3008.0 * 128 * 176, 0);
    CHECK(r.time_s >= 187.0 * 128 * 176 * 512 / (989e12 / 132));
    CHECK(r.terms_s[RL_TERM_OCCUPANCY] > 0);
    /* a uniform list predicts what --batch does, for every profile that runs a ragged batch */
    rl_problem uni = {.heads = 32, .kv_heads = 8, .seq = 1, .head_dim = 128};
    CHECK(rl_kv_lens_parse("4096x64", NULL, &uni.kv_lens, &e) == RL_OK);
    rl_problem bat = {.batch = 64, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096,
                      .head_dim = 128};
    const rl_kernel ks[] = {RL_KERNEL_FLASHINFER, RL_KERNEL_FLASH_DECODING, RL_KERNEL_FA3,
                            RL_KERNEL_FA2, RL_KERNEL_GENERIC};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        CHECK(run(uni, "h100-sxm", ks[i], &r, &e) == RL_OK);
        CHECK(run(bat, "h100-sxm", ks[i], &u, &e) == RL_OK);
        CHECK_CLOSE(r.time_s, u.time_s, 1e-12);
    }
    expect_refusal(g, "b200", RL_KERNEL_FA4, "kv-lens", "does not model a ragged batch");
}

/* cudnn at d_qk 192 / d_v 128 (DeepSeek-V3's MLA prefill in MHA mode), the dsv3 shape of the
 * cuDNN frontend's results: B = 2, H = 128, N = L = 16384, non-causal, bf16. 256-row x 128-key
 * tiles: 64 x 128 per head, no padding, pairs = 256 · 16384² = 68 719 476 736.
 * F = 2 · 2 · 128 · (192 + 128) · 16384² = 4.3980e16 FLOP.
 * Per score, in lane-clocks (1/128 SM clock): the MMA 2 · (192 + 128) / 8192 · 128 = 10 at the
 * peak, 10 / 0.84388 = 11.85003 at cuDNN's fitted fraction (d = 128: 9.48002); the softmax on
 * GB200 8 (MUFU 16/clock) + 3 = 11, on GB300 4 + 3 = 7 — the same at any d. The chain per KV
 * iteration of a 256 x 128 tile (552.69 clocks / 32768 scores = 2.15895 lane-clocks per score):
 * GB200 (11.85003 + 11) / 2 + 2.15895 = 13.58396 > 11.85003 > 11: chain-bound, 2500 · 10 /
 * 13.58396 = 1840.4 TFLOP/s against 2500 · 8 / 12.39896 = 1613.0 at d = 128: 1.141x the rate
 * (cuDNN measures 1812 and 1697 TFLOP/s at this N: 1.07x); GB300 (11.85003 + 7) / 2 + 2.15895 =
 * 11.58396 < 11.85003: MMA-bound, 2500 · 0.84388 = 2109.7 TFLOP/s. The backward: F = 2 · 2 · 128 · (3 · 192 +
 * 2 · 128) · 16384² at the fitted 0.94901 of the peak, the 128 x 256 2-CTA tile, the softmax and
 * dS serialised (MUFU 8 + FP32 4 = 12 lane-clocks per score) and, d 192's loop being unpipelined,
 * three handoff round trips of 552.69 clocks per 128 x 128 iteration of a CTA: pairs / 16384 /
 * 148 iterations per SM · 3 · 552.69 / 2.062e9 s (with pairs = 6.8719e10: 22.79 ms beside the
 * MMA's 48.20 ms and the softmax's 21.11 ms; cuDNN measures 105.1 ms). */
static void cudnn_mla_prefill_by_hand(void) {
    rl_problem p = {.batch = 2, .heads = 128, .seq = 16384, .head_dim = 192, .head_dim_v = 128,
                    .dtype = RL_DTYPE_BF16};
    rl_prediction a, b, c;
    CHECK(run(p, "gb200", RL_KERNEL_CUDNN, &a, NULL) == RL_OK);
    CHECK(a.block_m == 256 && a.block_n == 128 && a.ctas_per_sm == 1);
    const double F = 2.0 * 2 * 128 * 320 * 16384.0 * 16384.0;
    const double pairs = 256.0 * 16384.0 * 16384.0;
    CHECK_CLOSE(a.computed_pairs, pairs, 0);
    const double mma = F / (0.84388 * 2500e12);
    CHECK_CLOSE(a.terms_s[RL_TERM_MMA], mma, 1e-5);
    CHECK(a.terms_s[RL_TERM_TILES] == 0);
    /* the chain's halves: the MMA and pairs · 11 / (128 · 148 · 2.062e9); its latency:
     * pairs / 32768 / 148 · 552.69 / 2.062e9 */
    const double lanes = 128.0 * 148 * 2.062e9;
    const double chain = (mma + pairs * 11.0 / lanes) / 2 + pairs / 32768 / 148 * 552.69 / 2.062e9;
    CHECK_CLOSE(a.terms_s[RL_TERM_EXP], chain - mma, 1e-4);
    CHECK_CLOSE(F / (a.terms_s[RL_TERM_MMA] + a.terms_s[RL_TERM_EXP]), 2500e12 * 10 / 13.58396, 1e-3);
    CHECK(run(p, "gb300", RL_KERNEL_CUDNN, &b, NULL) == RL_OK);
    CHECK(b.terms_s[RL_TERM_EXP] == 0);
    CHECK_CLOSE(F / b.terms_s[RL_TERM_MMA], 2500e12 * 0.84388, 1e-5);
    p.pass = RL_PASS_BWD;
    CHECK(run(p, "gb200", RL_KERNEL_CUDNN, &c, NULL) == RL_OK);
    CHECK(c.block_m == 128 && c.block_n == 256);
    CHECK_CLOSE(c.computed_pairs, pairs, 0);
    CHECK_CLOSE(c.terms_s[RL_TERM_MMA],
                2.0 * 2 * 128 * (3 * 192 + 2 * 128) * 16384.0 * 16384.0 / (0.94901 * 2500e12), 1e-4);
    CHECK_CLOSE(c.terms_s[RL_TERM_EXP],
                pairs * 12.0 / lanes + pairs / 16384 / 148 * 3 * 552.69 / 2.062e9, 1e-9);
    CHECK_CLOSE(pairs / 16384 / 148 * 3 * 552.69 / 2.062e9, 22.79e-3, 1e-3);
    /* d = 128 has no such term: its loop is pipelined (the next S issued before dK, dP, dQ) */
    rl_problem q = p;
    q.head_dim = 128;
    q.head_dim_v = 0;
    CHECK(run(q, "gb200", RL_KERNEL_CUDNN, &c, NULL) == RL_OK);
    CHECK_CLOSE(c.terms_s[RL_TERM_EXP], pairs * 12.0 / lanes, 1e-9);
    /* other value head dims stay refused by name */
    p.pass = RL_PASS_FWD;
    p.head_dim_v = 64;
    expect_refusal(p, "gb200", RL_KERNEL_CUDNN, "head-dim-v", "--kernel fa4, fa3 and cudnn run");
}

int main(void) {
    fa4_b200_by_hand();
    cudnn_mla_prefill_by_hand();
    fa4_gb300_over_gb200();
    cudnn_profiles();
    flashmla_by_hand();
    flashmla_splits();
    flashmla_sparse_by_hand();
    refusals();
    windows_by_hand();
    sinks_by_hand();
    blackwell_fill_by_hand();
    paged_and_ragged_by_hand();
    return check_report("test_profiles_2026");
}
