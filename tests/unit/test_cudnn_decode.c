/* cuDNN's decode on Blackwell (--kernel cudnn, N = 1, sm_100/sm_103): the mechanism of
 * TensorRT-LLM's trtllm-gen generation kernels, assumed for closed-source cuDNN (MODEL.md,
 * profiles.c cudnn_sm100_decode): the G query heads of a KV head packed into one CTA's rows
 * (tileSizeQ 8 for G <= 8, 16 for G <= 16, else 32), 128 keys per tile, the keys split over the
 * idle SMs (min(ceil(L / 128), max(1, SMs / CTAs))), the production decode DRAM fraction. Every
 * figure below is worked by hand from the B200 preset (2250 TFLOP/s bf16 dense, 8 TB/s, 148 SMs
 * at 1.856 GHz, MUFU 16/SM/clock) and two fitted constants quoted from MODEL.md's table: the
 * production decode DRAM fraction 0.92421 and the overlap exponent p = 1.7166. Also cuDNN's MLA
 * prefill shape (d_qk 192, d_v 128) on GB200, and the refusals by flag. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "rooflab/rooflab.h"

static rl_status run(rl_problem p, const char *hw, rl_prediction *r, rl_error *e) {
    const rl_hw *h = rl_hw_find(hw);
    rl_kernel_spec spec = {.kernel = RL_KERNEL_CUDNN};
    rl_roof roof = {h->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(h, p.dtype)};
    return rl_predict(&p, h, roof, &spec, r, e);
}

/* B200, Llama-3 8B's attention shape in decode: B = 64, H = 32, Hkv = 8 (G = 4), N = 1,
 * L = 8192, d = 128, bf16.
 * Tile: G = 4 <= 8, tileSizeQ 8: the 4 heads of a group padded to 8 rows, 128 keys.
 * CTAs: 64 sequences · 8 KV heads · 1 head tile = 512 >= 148 SMs: no split (148 / 512 < 1),
 *   one kernel; 512 / 148 = 3.459 waves.
 * Bytes (DRAM): K and V 64 · 8 · 8192 · 128 · 2 tensors · 2 B = 2 147 483 648;
 *   Q and O 64 · 32 · 128 · 2 B each = 1 048 576: 2 148 532 224 B.
 * mma = F / peak, F = 4 · B · H · d · L = 4 · 64 · 32 · 128 · 8192 = 8 589 934 592 FLOP:
 *   3.8177 µs at 2250 TFLOP/s; tiles: the 4 padded rows of 8 cost as much again, 3.8177 µs.
 * exp (softmax beside the MMA, no emulation): computed scores 64 · 8 · 8 rows · 8192 =
 *   33 554 432, each 1/16 SM-clock on MUFU + 3/128 on the FP32 pipes = 11/128 SM-clock:
 *   33 554 432 · 11/128 / (148 · 1.856e9) = 10.498 µs; exp = that − (mma + tiles) = 2.862 µs.
 * waves: (⌈3.459⌉ / 3.459 − 1) · (mma + tiles + exp) = 0.1563 · 10.498 = 1.641 µs.
 * memory: m = 2 148 532 224 / (8e12 · 0.92421) = 290.59 µs; compute c = 12.139 µs;
 *   t = (c^p + m^p)^(1/p), p = 1.7166: 291.33 µs. floor: one kernel, 2.855 µs.
 * time = 294.18 µs: memory-bound at 97 % of what 8 TB/s × 0.924 allows. */
static void b200_gqa_by_hand(void) {
    rl_problem p = {.batch = 64, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 8192,
                    .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "b200", &r, &e) == RL_OK);
    CHECK(r.kernel == RL_KERNEL_CUDNN);
    CHECK(r.block_m == 8 && r.block_n == 128 && r.gqa_packed && r.splits == 1);
    CHECK(r.ctas == 512 && r.kernels == 1);
    const double bytes = 64.0 * 8 * 8192 * 128 * 2 * 2 + 2.0 * 64 * 32 * 128 * 2;
    CHECK_CLOSE(bytes, 2148532224.0, 0);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], bytes, 1e-9);
    const double F = 4.0 * 64 * 32 * 128 * 8192;
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / 2250e12, 1e-9);
    CHECK_CLOSE(r.terms_s[RL_TERM_TILES], F / 2250e12, 1e-9);
    CHECK_CLOSE(r.computed_pairs, 64.0 * 8 * 8 * 8192, 0);
    /* the preset's peak and clock are rounded figures: 148 · 8192 · 1.856e9 = 2250.2e12 */
    const double softmax = 64.0 * 8 * 8 * 8192 * (11.0 / 128) / (148 * 1.856e9);
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], softmax - 2 * F / 2250e12, 2e-3);
    const double w = 512.0 / 148;
    CHECK_CLOSE(r.terms_s[RL_TERM_WAVES], (ceil(w) / w - 1) * softmax, 2e-3);
    const double m = bytes / (8e12 * 0.92421);
    const double c = softmax * ceil(w) / w, pp = 1.7166;
    const double t = pow(pow(c, pp) + pow(m, pp), 1 / pp);
    CHECK_CLOSE(r.time_s, t + 2.855e-6, 1e-4);
    CHECK_CLOSE(r.time_s, 294.18e-6, 1e-3);
    CHECK(r.limit == RL_LIMIT_MEMORY);
}

/* One long sequence, B200: B = 1, H = 32, Hkv = 8, L = 32768, d = 128, bf16. CTAs without a
 * split: 1 · 8 · 1 = 8; splits = min(⌈32768 / 128⌉ = 256, ⌊148 / 8⌋ = 18) = 18: 144 CTAs, and a
 * reduction after (two kernels). The K/V bytes stream from 144 SMs, so the time stays within
 * 30 % of the K/V bytes at the decode fraction: 8 · 32768 · 128 · 2 · 2 = 134 217 728 B /
 * (8e12 · 0.92421) = 18.15 µs (+ the partial results and the floor). */
static void b200_split_by_hand(void) {
    rl_problem p = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768,
                    .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    CHECK(run(p, "b200", &r, NULL) == RL_OK);
    CHECK(r.splits == 18 && r.ctas == 144 && r.kernels == 2);
    const double kv = 8.0 * 32768 * 128 * 2 * 2;
    CHECK(r.levels.bytes[RL_LEVEL_DRAM] >= kv);
    CHECK(r.time_s > kv / (8e12 * 0.92421) && r.time_s < 1.3 * kv / (8e12 * 0.92421) + 2 * 2.855e-6);
    /* B = 32: 256 CTAs fill the 148 SMs: no split */
    p.batch = 32;
    CHECK(run(p, "b200", &r, NULL) == RL_OK);
    CHECK(r.splits == 1 && r.kernels == 1);
}

/* The head tile by group size (fmhaKernels.h: SwapsMmaAb with tileSizeQ 8 / 16 for G <= 16,
 * KeepsMmaAb with 32 heads per CTA above): G = 1 (MHA) 8 rows, G = 16 16 rows, G = 64 two
 * tiles of 32 per KV head (B = 4, Hkv = 1: 8 CTAs → ⌊148 / 8⌋ = 18 splits). */
static void head_tiles(void) {
    rl_problem p = {.batch = 4, .heads = 16, .kv_heads = 16, .seq = 1, .kv_len = 4096,
                    .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    CHECK(run(p, "gb200", &r, NULL) == RL_OK);
    CHECK(r.block_m == 8);
    p.kv_heads = 1;
    CHECK(run(p, "gb200", &r, NULL) == RL_OK);
    CHECK(r.block_m == 16);
    p.heads = 64;
    CHECK(run(p, "gb300", &r, NULL) == RL_OK);
    CHECK(r.block_m == 32 && r.splits == 18 && r.ctas == 4.0 * 2 * 18);
}

/* MLA prefill in MHA mode on GB200 (d_qk 192, d_v 128: cudnn-frontend's DeepSeek-V3 preset):
 * F = 2 · B · H · N² · (192 + 128) = 2 · 2 · 128 · 4096² · 320 = 2.749e15 FLOP. Per score the MMA
 * takes 640 / 8192 = 10/128 SM-clock at the peak, 10 / 0.84388 = 11.85/128 at cuDNN's fitted
 * Blackwell fraction (MODEL.md, RL_FIT_CUDNN_SM100_MMA), longer than the softmax's 11/128 (MUFU
 * 1/16 + 3/128): mma = F / (2500e12 · 0.84388) = 1.3029 ms. Each Q tile's chain (MODEL.md: one
 * tile's MMA + one softmax + RL_FIT_CHAIN_SM100 = 552.69 clocks per 256 x 128 iteration, 552.69 /
 * 256 = 2.15895/128 per score) is longer still: (11.85003 + 11) / 2 + 2.15895 = 13.58397/128, so
 * the exp term is the chain's excess, mma · (13.58397 / 11.85003 − 1). At d = 128 the MMA's
 * 8 / 0.84388 = 9.48/128 is the shorter too. */
static void mla_prefill(void) {
    rl_problem p = {.batch = 2, .heads = 128, .seq = 4096, .head_dim = 192, .head_dim_v = 128,
                    .dtype = RL_DTYPE_BF16};
    rl_prediction r;
    rl_error e;
    CHECK(run(p, "gb200", &r, &e) == RL_OK);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 2.0 * 2 * 128 * 4096.0 * 4096 * 320 / (2500e12 * 0.84388),
                1e-9);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 1.3029e-3, 1e-4);
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], r.terms_s[RL_TERM_MMA] * (13.58397 / 11.85003 - 1), 1e-5);
    p.head_dim = 128;
    p.head_dim_v = 0;
    CHECK(run(p, "gb200", &r, &e) == RL_OK);
    CHECK(r.terms_s[RL_TERM_EXP] > 0);
}

static void expect_refusal(rl_problem p, const char *hw, const char *field, const char *text) {
    rl_prediction r;
    rl_error e;
    memset(&e, 0, sizeof e);
    CHECK(run(p, hw, &r, &e) != RL_OK);
    CHECK(strcmp(e.field, field) == 0);
    CHECK_STR_CONTAINS(e.message, text);
}

static void refusals(void) {
    const rl_problem dec = {.batch = 8, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096,
                            .head_dim = 128, .dtype = RL_DTYPE_BF16};
    rl_problem p = dec;
    p.seq = 4; /* speculative rows: not cuDNN's s_q = 1 decode-only mode */
    expect_refusal(p, "b200", "seq", "s_q = 1");
    p = dec;
    p.head_dim = 256;
    expect_refusal(p, "b200", "head-dim", "d_qk and d_v <= 128");
    p = dec;
    p.dtype = RL_DTYPE_FP8;
    p.kv_dtype = RL_DTYPE_FP8;
    expect_refusal(p, "b200", "kernel", "fp16/bf16 decode");
    p = dec;
    p.kv_dtype = RL_DTYPE_FP8;
    expect_refusal(p, "b200", "kernel", "the cache in the query's dtype");
    expect_refusal(dec, "h100-sxm", "kernel", "decode (N = 1) on Blackwell only");
    p = dec;
    p.page_size = 16;
    expect_refusal(p, "b200", "page-size", "does not model a paged");
    /* d_qk 192 / d_v 128 runs forward and backward (the backward's unpipelined d 192 loop,
     * test_profiles_2026); another value head dim is refused by name */
    rl_problem m = {.batch = 1, .heads = 16, .seq = 2048, .head_dim = 192, .head_dim_v = 128,
                    .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD};
    rl_prediction mr;
    CHECK(run(m, "gb200", &mr, NULL) == RL_OK);
    m.head_dim_v = 64;
    expect_refusal(m, "gb200", "head-dim-v", "--kernel fa4, fa3 and cudnn run");
    /* d 192 without --head-dim-v 128 (d_v = 192): no Blackwell forward tile; the refusal names
     * head-dim and the shapes it does run, not "d <= 256", which 192 satisfies */
    m.pass = RL_PASS_FWD;
    m.head_dim_v = 0;
    expect_refusal(m, "gb200", "head-dim", "192 with --head-dim-v 128");
    m.head_dim = 160;
    expect_refusal(m, "b200", "head-dim", "got 160 / 160");
}

/* Properties of the decode over 3,000 random problems on the three sm_100/103 presets the profile
 * covers (test_properties.c draws Hopper and Ampere only): never below the compulsory bound (the
 * K/V, Q and O bytes at the datasheet bandwidth), and never faster for a longer cache or a larger
 * batch with the split count held (the rule may split a small batch more, a really faster GPU). */
static uint64_t seed = 12345;
static int64_t pick(int64_t lo, int64_t hi) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int64_t)((seed >> 33) % (uint64_t)(hi - lo + 1));
}
static void properties(void) {
    static const char *const hws[] = {"b200", "gb200", "gb300"};
    int checked = 0, below = 0, faster = 0;
    for (int t = 0; t < 3000; t++) {
        rl_problem p = {.seq = 1, .dtype = pick(0, 1) ? RL_DTYPE_BF16 : RL_DTYPE_FP16};
        p.batch = pick(1, 256);
        p.kv_heads = pick(1, 16);
        p.heads = p.kv_heads * (int64_t[]){1, 2, 4, 5, 8, 16, 32, 64}[pick(0, 7)];
        p.kv_len = pick(1, 131072);
        p.head_dim = pick(1, 2) * 64;
        const char *hw = hws[pick(0, 2)];
        const rl_hw *h = rl_hw_find(hw);
        rl_prediction a, b;
        if (run(p, hw, &a, NULL) != RL_OK) continue;
        checked++;
        const double B = (double)p.batch, L = (double)p.kv_len, d = (double)p.head_dim;
        const double bytes = 2.0 * B * (double)p.kv_heads * L * d * 2 +
                             2.0 * B * (double)p.heads * d * 2;
        if (a.time_s < bytes / h->bandwidth_bytes_per_s) below++;
        rl_problem q = p;
        if (pick(0, 1)) q.kv_len += pick(1, 8192);
        else q.batch += pick(1, 32);
        const rl_roof roof = {h->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(h, q.dtype)};
        rl_kernel_spec held = {.kernel = RL_KERNEL_CUDNN, .splits = a.splits};
        if (rl_predict(&q, h, roof, &held, &b, NULL) == RL_OK && b.time_s < a.time_s * (1 - 1e-9))
            faster++;
    }
    CHECK(checked == 3000);
    CHECK(below == 0);
    CHECK(faster == 0);
}

int main(void) {
    properties();
    b200_gqa_by_hand();
    b200_split_by_hand();
    head_tiles();
    mla_prefill();
    refusals();
    return check_report("test_cudnn_decode");
}
