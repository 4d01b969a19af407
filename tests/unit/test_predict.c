/* The predicted time (rl_predict): the ledger adds up, each term against a hand calculation, the
 * fitted constant reproduces the one published point it was fitted on, the L2 reuse rule at its
 * boundary, GQA packing, refusals that name the flag, the tile search, and no prediction below
 * the compulsory bound over random problems. Hand values use the preset figures of MODEL.md:
 * H100 SXM 989 TFLOP/s, 3.35 TB/s, L2 50 MiB at 9.7 TB/s, exp 16 × 132 × 1.83 GHz. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "predict_check.h"
#include "rooflab/rooflab.h"

/* the fitted per-kernel fixed cost, as MODEL.md's table gives it */
#define KERNEL_FIXED_S 2.855e-6

static const rl_hw *H100(void) { return rl_hw_find("h100-sxm"); }
static void fa3_ledger_by_hand(void) {
    /* B = 1, H = 16, N = L = 16384, d = 128, fp16, non-causal; FA3's tile 128 × 176. */
    rl_problem p = {.batch = 1, .heads = 16, .seq = 16384, .head_dim = 128};
    rl_kernel_spec k = {.kernel = RL_KERNEL_FA3};
    rl_prediction r;
    rl_error e;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &k, &r, &e) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 176 && r.ctas_per_sm == 1 && r.persistent);
    const double F = 4.0 * 16 * 128 * 16384.0 * 16384.0;
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], F / 989e12, 1e-12);
    /* 128 query blocks × ⌈16384/176⌉ = 94 key tiles of 128 × 176 pairs, 16 heads. */
    const double computed = 16.0 * 128 * 94 * 128 * 176;
    CHECK_CLOSE(r.computed_pairs, computed, 0);
    CHECK_CLOSE(r.terms_s[RL_TERM_TILES], (computed - 16.0 * 16384 * 16384) * 4 * 128 / 989e12, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_EXP], computed / (16.0 * 132 * 1.83e9), 1e-12);
    /* 2048 CTAs over 132 SMs: 15.52 waves → 16: a factor 16 / 15.515… */
    const double w = 2048.0 / 132;
    CHECK_CLOSE(r.waves, w, 1e-12);
    const double base = r.terms_s[RL_TERM_MMA] + r.terms_s[RL_TERM_TILES] + r.terms_s[RL_TERM_EXP];
    CHECK_CLOSE(r.terms_s[RL_TERM_WAVES], base * (16.0 / w - 1.0), 1e-12);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
    CHECK_CLOSE(r.flops_per_s, F / r.time_s, 1e-12);
    CHECK(r.bound == RL_BOUND_COMPUTE);
    /* DRAM: every K/V re-read hits L2 (one head's K and V, 8 MiB, fit 50 MiB): the compulsory
     * 4 tensors of 16 · 16384 · 128 · 2 B. L2: Q + O + 128 query blocks × (K + V). */
    const double tensor = 16.0 * 16384 * 128 * 2;
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 4 * tensor, 1e-12);
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_L2], 2 * tensor + 128 * 2 * tensor, 1e-12);
    CHECK(r.levels.kv_hit_fraction == 1.0);
    /* one kernel (2048 query blocks fill the SMs: one split, no combine): one fixed cost,
     * KERNEL_FIXED_S (MODEL.md's table); every SM busy: no occupancy term */
    CHECK(r.splits == 1 && r.kernels == 1);
    CHECK_CLOSE(r.terms_s[RL_TERM_FLOOR], KERNEL_FIXED_S, 1e-12);
    CHECK(r.terms_s[RL_TERM_OCCUPANCY] == 0);
    CHECK(r.limit == RL_LIMIT_COMPUTE);
}

/* The overlap exponent was fitted on FA3, d = 128, B = 32, H = 16, N = 512, non-causal:
 * 467 TFLOP/s in the FA3 paper's Fig. 5(c). The model must give it back (to 0.5 %). */
static void fitted_point_reproduced(void) {
    rl_problem p = {.batch = 32, .heads = 16, .seq = 512, .head_dim = 128};
    rl_kernel_spec k = {.kernel = RL_KERNEL_FA3};
    rl_prediction r;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &k, &r, NULL) == RL_OK);
    CHECK_CLOSE(r.flops_per_s, 467e12, 5e-3);
    CHECK(r.terms_s[RL_TERM_MEMORY] > 0); /* short N: memory only partly hidden */
}

/* FA3 fp8 (FA3 paper §3.3): the producer transposes each V tile before the consumers use it, so
 * DRAM time adds to compute (overlap exponent 1), and O is written in bf16 (flash_api.cpp).
 * B = 32, H = 8, N = L = 512, d = 256, tile 128 × 128: DRAM bytes are the compulsory Q, K, V at
 * 1 B and O at 2 B: 5 · 32 · 8 · 512 · 256 B. */
static void fa3_fp8_serialises_memory(void) {
    rl_problem p = {.batch = 32, .heads = 8, .seq = 512, .head_dim = 256, .dtype = RL_DTYPE_FP8,
                    .out_dtype = RL_DTYPE_BF16};
    rl_kernel_spec k = {.kernel = RL_KERNEL_FA3};
    rl_prediction r;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP8), &k, &r, NULL) == RL_OK);
    CHECK(r.block_m == 128 && r.block_n == 128);
    CHECK(r.overlap_exponent == 1.0);
    const double dram = 5.0 * 32 * 8 * 512 * 256;
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], dram, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_MEMORY], dram / 3350e9, 1e-12); /* all of it, none hidden */
    CHECK_CLOSE(r.time_s, r.compute_s + dram / 3350e9 + KERNEL_FIXED_S, 1e-12);
    /* without --out-dtype, fa3 fp8 still writes O in bf16: the same bytes */
    p.out_dtype = RL_DTYPE_DEFAULT;
    rl_prediction r2;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP8), &k, &r2, NULL) == RL_OK);
    CHECK_CLOSE(r2.levels.bytes[RL_LEVEL_DRAM], dram, 1e-12);
    /* fp16 keeps the fitted partial overlap: its memory term is less than its DRAM time. */
    p.dtype = RL_DTYPE_FP16;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &k, &r, NULL) == RL_OK);
    CHECK(r.overlap_exponent > 1.6 && r.overlap_exponent < 1.8);
    CHECK(r.terms_s[RL_TERM_MEMORY] < 0.9 * r.level_time_s[RL_LEVEL_DRAM]);
}

static void refusals_name_the_flag(void) {
    rl_prediction r;
    rl_error e;
    rl_problem p = {.seq = 4096, .head_dim = 128};
    const rl_hw *a100 = rl_hw_find("a100-sxm4-80gb");
    CHECK(rl_predict(&p, a100, roof_of(a100, RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA3}, &r, &e) ==
          RL_ERR_UNSUPPORTED);
    CHECK(strcmp(e.field, "kernel") == 0);
    CHECK_STR_CONTAINS(e.message, "needs a Hopper GPU");
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER},
                     &r, &e) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "needs --seq 16 or less");
    /* kernels that do not exist: refused naming the kernel and the source */
    static const struct {
        rl_kernel k;
        rl_dtype dt;
        rl_pass pass;
        const char *says;
    } none[] = {
        {RL_KERNEL_FA2, RL_DTYPE_FP8, RL_PASS_FWD, "fp16 and bf16 only"},
        {RL_KERNEL_FA2, RL_DTYPE_FP32, RL_PASS_FWD, "fp16 and bf16 only"},
        {RL_KERNEL_FA2, RL_DTYPE_TF32, RL_PASS_BWD, "fp16 and bf16 only"},
        {RL_KERNEL_FA3, RL_DTYPE_FP32, RL_PASS_FWD, "fp16, bf16 and fp8 e4m3"},
        {RL_KERNEL_FA3, RL_DTYPE_TF32, RL_PASS_FWD, "fp16, bf16 and fp8 e4m3"},
        {RL_KERNEL_FA3, RL_DTYPE_FP8, RL_PASS_BWD, "no fp8 backward"},
        {RL_KERNEL_FLASH_DECODING, RL_DTYPE_FP8, RL_PASS_FWD, "split-KV kernel"},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        rl_problem q = {.seq = 1024, .head_dim = 128, .dtype = none[i].dt, .pass = none[i].pass};
        if (none[i].k == RL_KERNEL_FLASH_DECODING) q.seq = 1;
        CHECK(rl_predict(&q, H100(), roof_of(H100(), none[i].dt), &(rl_kernel_spec){.kernel = none[i].k},
                         &r, &e) == RL_ERR_UNSUPPORTED);
        CHECK(strcmp(e.field, "kernel") == 0);
        CHECK_STR_CONTAINS(e.message, none[i].says);
        CHECK_STR_CONTAINS(e.message, rl_dtype_name(none[i].dt));
    }
    /* FA2's CUDA kernels need sm_80+: V100 (sm_70) and MI300X (not NVIDIA) are refused */
    const char *old_parts[] = {"v100-sxm2", "mi300x"};
    for (int i = 0; i < 2; i++) {
        const rl_hw *hw = rl_hw_find(old_parts[i]);
        rl_problem q = {.seq = 1024, .head_dim = 128};
        CHECK(rl_predict(&q, hw, roof_of(hw, RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA2}, &r, &e) ==
              RL_ERR_UNSUPPORTED);
        CHECK_STR_CONTAINS(e.message, "sm_80 or newer");
    }
    const rl_hw *custom = rl_hw_find("custom");
    CHECK(rl_predict(&p, custom, roof_of(H100(), RL_DTYPE_FP16), NULL, &r, &e) == RL_ERR_UNSUPPORTED);
    CHECK(strcmp(e.field, "hw") == 0);
    rl_hw no_l2 = *H100(); /* every preset but custom has an L2 figure now: a copy without one */
    no_l2.l2_bandwidth_bytes_per_s = 0;
    no_l2.l2_bandwidth_source = NULL;
    CHECK(rl_predict(&p, &no_l2, roof_of(H100(), RL_DTYPE_FP16), NULL, &r, &e) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "L2 bandwidth");
    CHECK(strcmp(e.field, "hw") == 0);
    rl_problem bwd = {.seq = 1, .kv_len = 4096, .pass = RL_PASS_BWD};
    CHECK(rl_predict(&bwd, H100(), roof_of(H100(), RL_DTYPE_FP16),
                     &(rl_kernel_spec){.kernel = RL_KERNEL_FLASH_DECODING}, &r, &e) == RL_ERR_UNSUPPORTED);
    rl_problem wide = {.seq = 1024, .head_dim = 512};
    CHECK(rl_predict(&wide, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA2}, &r,
                     &e) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "head dim 512");
    rl_kernel k;
    CHECK(rl_kernel_parse("flash-decoding", "kernel", &k, NULL) == RL_OK && k == RL_KERNEL_FLASH_DECODING);
    CHECK(rl_kernel_parse("fa5", "kernel", &k, &e) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(e.message, "kernel: unknown kernel profile \"fa5\"");
}

/* The reuse rule (reuse distance). B = H = 1, N = L, the generic 64 × 64 tile (2 CTAs per SM on
 * H100: 264 slots): the K/V tiles of the head are re-read by its L/64 query blocks, launched
 * next to each other. 264 of them are in flight together and hit; the rest come later, after the
 * head's whole K and V (2·L·128·2 B) has streamed: they hit as far as that fits in 50 MiB.
 * L = 65536: 32 MiB, every re-read hits. L = 131072: 64 MiB, 264/2048 + (1 − 264/2048)·50/64. */
static void l2_reuse_boundary(void) {
    for (int big = 0; big < 2; big++) {
        const double L = big ? 131072 : 65536;
        rl_problem p = {.batch = 1, .heads = 1, .seq = (int64_t)L, .head_dim = 128};
        rl_prediction r;
        CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), NULL, &r, NULL) == RL_OK);
        CHECK(r.ctas_per_sm == 2);
        const double kv = 2.0 * L * 128 * 2;
        CHECK_CLOSE(r.levels.kv_working_set_bytes, kv, 0);
        const double q_blocks = L / 64, together = 264.0 / q_blocks;
        const double hit = big ? together + (1 - together) * 50.0 / 64.0 : 1.0;
        CHECK_CLOSE(r.levels.kv_hit_fraction, hit, 1e-15);
        const double kv_l2 = q_blocks * kv;
        CHECK_CLOSE(r.levels.bytes[RL_LEVEL_L2], 2 * L * 128 * 2 + kv_l2, 1e-12);
        CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 2 * L * 128 * 2 + kv + (1 - hit) * (kv_l2 - kv), 1e-12);
    }
    /* The boundary of "in flight together" for a streaming per-head decode (FA2's grid order:
     * query block, batch, head): the 4 query heads of a KV head (H = 32, Hkv = 8) stand B CTAs
     * apart, a spread of 3·B + 1 CTAs; 264 are in flight (B·32 ≥ 264). B = 87: 262 ≤ 264, every
     * re-read hits. B = 88: 265, so 264/265 of them hit together and the rest as far as the K/V
     * of the 66 KV heads in flight (264 units / 4; 16 MiB each at L = 32768) fits in 50 MiB. */
    for (int b = 87; b <= 88; b++) {
        rl_problem p = {.batch = b, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768, .head_dim = 128};
        rl_kernel_spec k = {.kernel = RL_KERNEL_GENERIC, .gqa_pack = RL_PACK_PER_HEAD};
        rl_prediction r;
        CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &k, &r, NULL) == RL_OK);
        CHECK(r.splits == 1 && !r.gqa_packed && r.ctas_per_sm == 2);
        const double hit = b == 87 ? 1.0 : 264.0 / 265 + (1.0 / 265) * 50.0 / (66 * 16.0);
        CHECK_CLOSE(r.levels.kv_hit_fraction, hit, 1e-12);
    }
}

/* Decode, H = 32 query heads on Hkv = 8: packed, each KV head's K and V cross L2 once per query
 * block (one block holds the group's 4 rows); per head, 4 times. */
static void gqa_packing(void) {
    rl_problem p = {.heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768, .head_dim = 128};
    rl_prediction packed, per_head;
    rl_kernel_spec a = {.kernel = RL_KERNEL_GENERIC, .gqa_pack = RL_PACK_PACKED, .splits = 1};
    rl_kernel_spec b = {.kernel = RL_KERNEL_GENERIC, .gqa_pack = RL_PACK_PER_HEAD, .splits = 1};
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &a, &packed, NULL) == RL_OK);
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &b, &per_head, NULL) == RL_OK);
    const double qo = 2.0 * 32 * 128 * 2, kv = 2.0 * 8 * 32768 * 128 * 2;
    CHECK(packed.gqa_packed && !per_head.gqa_packed);
    CHECK_CLOSE(packed.levels.bytes[RL_LEVEL_L2], qo + kv, 1e-12);
    CHECK_CLOSE(per_head.levels.bytes[RL_LEVEL_L2], qo + 4 * kv, 1e-12);
    /* Both read K/V from DRAM once: per head, the 4 readers of a KV head are 4 CTAs apart in
     * launch order and all 32 CTAs are in flight: the re-reads hit though the 8 KV heads'
     * K/V (128 MiB) is over L2 — a streaming kernel's reuse distance is a few tiles. */
    CHECK_CLOSE(packed.levels.bytes[RL_LEVEL_DRAM], qo + kv, 1e-12);
    CHECK_CLOSE(per_head.levels.bytes[RL_LEVEL_DRAM], qo + kv, 1e-12);
    /* flashinfer packs by default and picks a split count that fills the SMs */
    rl_prediction fi;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi,
                     NULL) == RL_OK);
    CHECK(fi.gqa_packed && fi.splits > 1);
    CHECK(fi.kernels == 2); /* the decode kernel and the merge of its splits */
    CHECK(fi.bound == RL_BOUND_MEMORY);
}

/* flashinfer and flash-decoding differ where the kernels do. H100, H = 32, Hkv = 8, L = 4096,
 * d = 128, fp16.
 * flashinfer: group 4 ≤ 4 → the CUDA-core decode kernel: one row per query head (no padding):
 *   computed pairs = 32 heads × 4096. 128 threads (bdx = 16 × bdy = 4, bdz = 2), 8 KiB + 1 KiB of
 *   shared memory: 16 CTAs per SM (2,048 threads), max grid 16 × 132 = 2,112. B = 1: 8 tiles,
 *   s_max = 264, 256 pages of 16 → chunk max(8, ⌈256/264⌉) = 8 pages → 32 splits. B = 8: 64
 *   tiles, s_max = 33, chunk max(8, ⌈256/33⌉ = 8) = 8 → 32 splits.
 * flash-decoding (FA2's heuristic, 264 slots, 32 key blocks of 128): B = 1: 8 units; wave
 *   efficiencies 8s/264 peak at s = 32 (0.97); 85 % of it needs s ≥ 27.2; 28 … 31 are not
 *   eligible (⌈32/s⌉ = 2 like s − 1) → 32. B = 8: 64 units; s = 33 gives 8 waves exactly
 *   (efficiency 1); s = 4 reaches 0.97 ≥ 0.85 and is eligible (8 ≠ 11) → 4 splits. 64-row tiles:
 *   computed pairs = 8 units × 64 rows × 4096 (56 padded rows each). */
static void decode_profiles_differ(void) {
    rl_problem p = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096, .head_dim = 128};
    rl_prediction fi, fd;
    const rl_roof roof = roof_of(H100(), RL_DTYPE_FP16);
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi, NULL) == RL_OK);
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASH_DECODING}, &fd, NULL) == RL_OK);
    CHECK(fi.splits == 32 && fd.splits == 32);
    CHECK(fi.ctas_per_sm == 16 && fi.block_m == 4);
    CHECK_CLOSE(fi.computed_pairs, 32.0 * 4096, 0);
    CHECK(fi.terms_s[RL_TERM_TILES] == 0);
    CHECK_CLOSE(fd.computed_pairs, 8.0 * 64 * 4096, 0);
    CHECK(fd.terms_s[RL_TERM_TILES] > 0);
    p.batch = 8;
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi, NULL) == RL_OK);
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASH_DECODING}, &fd, NULL) == RL_OK);
    CHECK(fi.splits == 32 && fd.splits == 4);
    /* one split: no combine kernel, one fixed cost. L = 128: 8 pages, one chunk of 8. */
    p.batch = 1;
    p.kv_len = 128;
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi, NULL) == RL_OK);
    CHECK(fi.splits == 1 && fi.kernels == 1);
    CHECK_CLOSE(fi.terms_s[RL_TERM_FLOOR], KERNEL_FIXED_S, 1e-12);
    /* N = 2 … 16 (speculative, append): accepted; the tensor-core path packs G·N rows */
    for (int64_t n = 2; n <= 16; n++) {
        p.seq = n;
        p.kv_len = 4096;
        CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi, NULL) == RL_OK);
        CHECK(fi.block_m == (4 * n > 64 ? 128 : 4 * n > 16 ? 64 : 16));
        CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASH_DECODING}, &fd, NULL) ==
              RL_OK);
        CHECK(!fd.gqa_packed); /* FA2 swaps the group into the rows only at N = 1 */
    }
}

/* The README's decode (H100, B = 1, H = 32, Hkv = 8, L = 4096, d = 128): the default is a
 * split-KV, packed decode; K and V are 2·8·4096·128·2 B = 16.8 MB, 5.0 µs at 3.35 TB/s. Its
 * prediction lies between that and 4× it, and nothing calls it compute-bound — fa3 included. */
static void decode_default_and_verdict(void) {
    rl_problem p = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096, .head_dim = 128};
    rl_prediction r;
    const rl_roof roof = roof_of(H100(), RL_DTYPE_FP16);
    CHECK(rl_predict(&p, H100(), roof, NULL, &r, NULL) == RL_OK);
    CHECK(r.gqa_packed && r.splits > 1 && r.kernels == 2);
    const double compulsory = 2.0 * 8 * 4096 * 128 * 2 / 3350e9;
    CHECK(r.time_s > compulsory && r.time_s < 4 * compulsory);
    CHECK(r.limit != RL_LIMIT_COMPUTE && r.bound == RL_BOUND_MEMORY);
    int predicted = 0;
    for (int k = 0; k < RL_KERNEL_COUNT; k++) {
        if (rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = (rl_kernel)k}, &r, NULL) != RL_OK) continue;
        predicted++;
        CHECK(r.bound == RL_BOUND_MEMORY);
        CHECK(r.limit != RL_LIMIT_COMPUTE);
    }
    /* generic, fa3, flashinfer, flash-decoding and fa2 all run this fp16 GQA decode on H100 */
    CHECK(predicted >= 5);
    /* B = 1, H = Hkv = 1, L = 256, one split: a few CTAs, the fixed cost dominates: latency */
    rl_problem tiny = {.batch = 1, .heads = 1, .seq = 1, .kv_len = 256, .head_dim = 128};
    CHECK(rl_predict(&tiny, H100(), roof, NULL, &r, NULL) == RL_OK);
    CHECK(r.limit == RL_LIMIT_LATENCY);
}

/* One smooth occupancy curve: fa2 on A100, B = H = 1, d = 128: N = 13,696 → 13,824 is 107 → 108
 * CTAs of 128 rows on 108 SMs (one split: 214 blocks of 64 ≥ 0.8 · 216). Each SM holds one CTA,
 * half of what fills it (2 CTAs of 4 warps): the same time per CTA either side, so the time per
 * FLOP changes by far less than 15 % (it was 2× before). */
static void occupancy_is_smooth(void) {
    const rl_hw *a100 = rl_hw_find("a100-sxm4-80gb");
    rl_prediction a, b;
    rl_problem p = {.batch = 1, .heads = 1, .seq = 13696, .head_dim = 128};
    CHECK(rl_predict(&p, a100, roof_of(a100, RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA2}, &a, NULL) ==
          RL_OK);
    p.seq = 13824;
    CHECK(rl_predict(&p, a100, roof_of(a100, RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA2}, &b, NULL) ==
          RL_OK);
    CHECK(a.ctas == 107 && b.ctas == 108 && a.splits == 1 && b.splits == 1);
    const double per_flop_a = a.time_s / (13696.0 * 13696), per_flop_b = b.time_s / (13824.0 * 13824);
    CHECK(per_flop_b / per_flop_a < 1.15 && per_flop_b / per_flop_a > 0.85);
    CHECK(b.time_s >= a.time_s);
    CHECK(a.limit == RL_LIMIT_OCCUPANCY || a.terms_s[RL_TERM_OCCUPANCY] > 0);
}

/* standard (PyTorch eager) backward: four GEMMs and the softmax backward through DRAM. DRAM:
 * P read twice (dV, softmax), dP written and read, dS written and read twice: 8 · S, plus Q, K,
 * V, O-sized dO each read twice and the gradients written once: 2 · (q + k + v + o). H100, B = 4,
 * H = 16, N = L = 4096, d = 128, fp16: S = 4·16·4096²·2 B. */
static void standard_backward(void) {
    rl_problem p = {.batch = 4, .heads = 16, .seq = 4096, .head_dim = 128, .pass = RL_PASS_BWD};
    rl_prediction r;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_STANDARD}, &r,
                     NULL) == RL_OK);
    const double S = 4.0 * 16 * 4096 * 4096 * 2, t = 4.0 * 16 * 4096 * 128 * 2;
    CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 8 * S + 2 * 4 * t, 1e-12);
    CHECK_CLOSE(r.terms_s[RL_TERM_MMA], 8.0 * 4 * 16 * 4096.0 * 4096 * 128 / 989e12, 1e-12);
    CHECK(r.kernels == 5);
    CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-12);
}

static void tile_search(void) {
    rl_problem p = {.batch = 4, .heads = 16, .seq = 8192, .head_dim = 128};
    rl_tile_candidate c[25];
    size_t n = rl_tune(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), c, 25);
    CHECK(n > 5 && n < 25); /* some of the 25 tiles exceed 227 KiB */
    for (size_t i = 0; i < n && i < 25; i++) {
        rl_problem t = p;
        t.block_m = c[i].block_m;
        t.block_n = c[i].block_n;
        CHECK(rl_sram_budget(&t, H100()).fits_optin);
        if (i) CHECK(c[i].prediction.time_s >= c[0].prediction.time_s);
    }
    CHECK(c[0].loses_on == -1);
    rl_problem dec = {.heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 32768, .head_dim = 128};
    CHECK(rl_tune(&dec, H100(), roof_of(H100(), RL_DTYPE_FP16), c, 4) > 25); /* splits searched */
}

/* No profile predicts below the compulsory bound max(F/π, compulsory bytes/β). */
static void never_below_compulsory(void) {
    srand(12345);
    int checked = 0;
    for (int i = 0; i < 3000; i++) {
        rl_problem p = {0};
        p.batch = 1 + rand() % 8;
        p.kv_heads = 1 << (rand() % 4);
        p.heads = p.kv_heads * (1 << (rand() % 3));
        p.kv_len = 64 + rand() % 20000;
        p.seq = rand() % 3 == 0 ? 1 : 1 + rand() % p.kv_len;
        p.head_dim = 32 << (rand() % 4);
        p.causal = rand() % 2;
        p.pass = rand() % 5 == 0 ? RL_PASS_BWD : RL_PASS_FWD;
        const rl_hw *hw = rand() % 2 ? H100() : rl_hw_find("a100-sxm4-80gb");
        rl_roof roof = roof_of(hw, RL_DTYPE_FP16);
        rl_report rep;
        if (rl_report_compute(&p, hw, roof, &rep, NULL) != RL_OK) continue;
        const double bound = rep.points[RL_MODEL_COMPULSORY].time_s;
        for (int k = 0; k < RL_KERNEL_COUNT; k++) {
            rl_prediction r;
            if (rl_predict(&p, hw, roof, &(rl_kernel_spec){.kernel = (rl_kernel)k}, &r, NULL) != RL_OK) continue;
            checked++;
            CHECK(r.time_s >= bound * (1 - 1e-12));
            CHECK_CLOSE(r.time_s, sum_terms(&r), 1e-9);
            for (int t = 0; t < RL_TERM_COUNT; t++) CHECK(r.terms_s[t] >= -1e-15 * r.time_s);
        }
    }
    CHECK(checked > 5000);
}

/* Every preset but `custom` predicts without --kernel (the zero spec, as `rooflab eval` gives),
 * prefill and decode at d = 64, 128, 256; the default tile always fits the preset's opt-in
 * shared memory. Where the problem's 64 × 64 tile does not (d = 128 on V100: Q, K, V
 * 3 · 64·128·2 = 49152 B + S 64·64·4 = 16384 + O 64·128·4 = 32768 + m, l 512 = 98816 B over
 * 96 KiB = 98304 B), the largest candidate no larger than 64 × 64 that fits is taken: 64 × 32
 * (16384 + 2 · 8192 + 8192 + 32768 + 512 = 74240 B); on MI300X's 64 KiB LDS 64 × 16 (16384 +
 * 2 · 4096 + 4096 + 32768 + 512 = 61952 B; 32 × 32 has the same area, the larger Br wins). */
static void every_preset_predicts(void) {
    const rl_problem problems[] = {
        {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 64},
        {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 128},
        {.batch = 1, .heads = 16, .seq = 4096, .head_dim = 256, .causal = 1},
        {.batch = 4, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 8192, .head_dim = 64},
        {.batch = 4, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 8192, .head_dim = 128},
        {.batch = 1, .heads = 64, .kv_heads = 8, .seq = 4, .kv_len = 32768, .head_dim = 256},
    };
    int presets = 0;
    for (size_t i = 0; i < rl_hw_count(); i++) {
        const rl_hw *hw = rl_hw_at(i);
        if (strcmp(hw->id, "custom") == 0) continue;
        presets++;
        for (size_t j = 0; j < sizeof problems / sizeof problems[0]; j++) {
            rl_prediction r;
            rl_error e = {0};
            const rl_status st = rl_predict(&problems[j], hw, roof_of(hw, RL_DTYPE_FP16), NULL, &r, &e);
            if (st != RL_OK) fprintf(stderr, "%s problem %zu: %s\n", hw->id, j, e.message);
            CHECK(st == RL_OK);
            if (st != RL_OK) continue;
            CHECK(r.time_s > 0 && r.kernel == RL_KERNEL_GENERIC);
            rl_problem t;
            CHECK(rl_problem_resolve(&problems[j], &t, NULL) == RL_OK);
            t.block_m = r.block_m;
            t.block_n = r.block_n;
            CHECK(rl_sram_budget(&t, hw).fits_optin);
        }
    }
    CHECK(presets >= 10);
    rl_prediction r;
    const rl_problem d128 = problems[1];
    CHECK(rl_predict(&d128, rl_hw_find("v100-sxm2"), roof_of(rl_hw_find("v100-sxm2"), RL_DTYPE_FP16),
                     NULL, &r, NULL) == RL_OK);
    CHECK(r.tile_fitted == 1 && r.block_m == 64 && r.block_n == 32);
    CHECK(rl_predict(&d128, rl_hw_find("mi300x"), roof_of(rl_hw_find("mi300x"), RL_DTYPE_FP16), NULL,
                     &r, NULL) == RL_OK);
    CHECK(r.tile_fitted == 1 && r.block_m == 64 && r.block_n == 16);
    CHECK(rl_predict(&d128, H100(), roof_of(H100(), RL_DTYPE_FP16), NULL, &r, NULL) == RL_OK);
    CHECK(r.tile_fitted == 0 && r.block_m == 64 && r.block_n == 64);
    /* a tile the caller names is never changed: over the budget it is refused, naming "kernel" */
    rl_error e = {0};
    CHECK(rl_predict(&d128, rl_hw_find("v100-sxm2"), roof_of(rl_hw_find("v100-sxm2"), RL_DTYPE_FP16),
                     &(rl_kernel_spec){.kernel = RL_KERNEL_GENERIC, .block_m = 64, .block_n = 64}, &r,
                     &e) == RL_ERR_UNSUPPORTED);
    CHECK(strcmp(e.field, "kernel") == 0);
}

/* --cores: FlashInfer's CUDA-core decode for a group of 8 (what flashinfer.single_decode_with_kv_cache
 * runs by default) against vLLM's rule (tensor cores above 4). decode.cuh: vec_size = max(16 B / 2 B,
 * 128/32) = 8, bdx = 128/8 = 16, bdy = G = 8, threads = max(128, 16·8) = 128, bdz = 1,
 * tile_size_per_bdx = 1 (G > 1): a CTA holds the 8 query heads and takes 1 key per step; CTAs per SM
 * = min(2048/128 = 16, 228 KiB / (2·2·1·8·1·128·2 + 128·8 = 9216 B) = 25) = 16 on H100. */
static void flashinfer_cores(void) {
    rl_problem p = {.heads = 32, .kv_heads = 4, .seq = 1, .kv_len = 32768, .head_dim = 128};
    rl_prediction r;
    rl_error e = {0};
    const rl_roof roof = roof_of(H100(), RL_DTYPE_FP16);
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &r, NULL) == RL_OK);
    CHECK(r.block_m == 16 && r.mma_flops_per_s < roof.peak_flops_per_s); /* tensor cores, 16-row tile */
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER, .cores = RL_CORES_CUDA},
                     &r, NULL) == RL_OK);
    CHECK(r.block_m == 8 && r.block_n == 1 && r.ctas_per_sm == 16);
    CHECK(r.mma_flops_per_s == H100()->peak_flops_per_s[RL_PEAK_FP32]);
    /* refused, naming the flag: N > 1, a group the CUDA-core kernel is not compiled for, another
     * profile */
    p.seq = 2;
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER, .cores = RL_CORES_CUDA},
                     &r, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "cores") == 0);
    p.seq = 1;
    p.kv_heads = 2; /* G = 16 */
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER, .cores = RL_CORES_CUDA},
                     &r, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "cores") == 0);
    CHECK(rl_predict(&p, H100(), roof, &(rl_kernel_spec){.kernel = RL_KERNEL_FA3, .cores = RL_CORES_TENSOR},
                     &r, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "cores") == 0);
    /* cuda-single (SingleDecodeWithKVCacheDispatched): G = 8, fp16 → get_heuristic_num_threads
     * 512, bdz = 512 / (16·8) = 4, 1 key per thread: Bc = 4; CTAs per SM = min(2048/512 = 4,
     * 228 KiB / (2·2·8·1·4·128·2 + 512·8 = 36,864 B) = 6) = 4; max grid 4 · 132 = 528, 528 / 4 KV
     * heads = 132 chunks at most: chunk = max(⌈32768/132⌉ = 249, 256) = 256 keys → 128 splits,
     * 128 · 4 = 512 CTAs, + MergeStates. L = 256: one chunk, no merge. */
    p.kv_heads = 4;
    const rl_kernel_spec single = {.kernel = RL_KERNEL_FLASHINFER, .cores = RL_CORES_CUDA_SINGLE};
    CHECK(rl_predict(&p, H100(), roof, &single, &r, NULL) == RL_OK);
    CHECK(r.block_m == 8 && r.block_n == 4 && r.ctas_per_sm == 4 && r.splits == 128 && r.ctas == 512 &&
          r.kernels == 2);
    p.kv_len = 256;
    CHECK(rl_predict(&p, H100(), roof, &single, &r, NULL) == RL_OK);
    CHECK(r.splits == 1 && r.kernels == 1);
    p.batch = 2; /* one request only */
    CHECK(rl_predict(&p, H100(), roof, &single, &r, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "cores") == 0);
    rl_cores c;
    CHECK(rl_cores_parse("cuda-single", "cores", &c, NULL) == RL_OK && c == RL_CORES_CUDA_SINGLE);
    CHECK(rl_cores_parse("cuda", "cores", &c, NULL) == RL_OK && c == RL_CORES_CUDA);
    CHECK(rl_cores_parse("gpu", "cores", &c, &e) == RL_ERR_INVALID && strcmp(e.field, "cores") == 0);
}

/* The default decode's DRAM fraction by architecture (MODEL.md "Fitted constants"): on sm_80-89
 * it is FlashAttention-2's split-KV kernel's, 0.62618 (vLLM runs FLASH_ATTN, FA2 below sm_90, and
 * FA2 sends a paged cache through its split-KV kernel), elsewhere the production decode's, 0.92421;
 * --kernel flashinfer keeps its own 0.92421 on Ampere. The attention_tests MHA shape (B = 16,
 * H = Hkv = 32, L = 32000, d = 128) is streaming on every preset here: the DRAM time is its DRAM
 * bytes at β × the fraction, the datasheet β of MODEL.md's presets (A100 SXM 2039, A100 PCIe 1935,
 * RTX 3060 360, L4 300, H100 SXM 3350, V100 900 GB/s). */
static void default_decode_dram_by_arch(void) {
    rl_problem p = {.batch = 16, .heads = 32, .kv_heads = 32, .seq = 1, .kv_len = 32000, .head_dim = 128};
    const struct { const char *hw; double beta, fraction; } rows[] = {
        {"a100-sxm4-80gb", 2039e9, 0.62618}, {"a100-pcie-80gb", 1935e9, 0.62618},
        {"rtx3060", 360e9, 0.62618},         {"l4", 300e9, 0.62618},
        {"h100-sxm", 3350e9, 0.92421},       {"v100-sxm2", 900e9, 0.92421},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const rl_hw *hw = rl_hw_find(rows[i].hw);
        rl_prediction r;
        CHECK(hw && rl_predict(&p, hw, roof_of(hw, RL_DTYPE_FP16), NULL, &r, NULL) == RL_OK);
        /* K and V: 2 · 16 · 32 · 32000 · 128 · 2 B = 8.39 GB, the bulk of the DRAM bytes */
        CHECK(r.levels.bytes[RL_LEVEL_DRAM] >= 2.0 * 16 * 32 * 32000 * 128 * 2);
        CHECK_CLOSE(r.level_time_s[RL_LEVEL_DRAM],
                    r.levels.bytes[RL_LEVEL_DRAM] / (rows[i].beta * rows[i].fraction), 1e-9);
    }
    const rl_hw *a100 = rl_hw_find("a100-sxm4-80gb");
    rl_prediction r;
    CHECK(rl_predict(&p, a100, roof_of(a100, RL_DTYPE_FP16),
                     &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &r, NULL) == RL_OK);
    CHECK_CLOSE(r.level_time_s[RL_LEVEL_DRAM], r.levels.bytes[RL_LEVEL_DRAM] / (2039e9 * 0.92421),
                1e-9);
}

int main(void) {
    fa3_ledger_by_hand();
    fitted_point_reproduced();
    fa3_fp8_serialises_memory();
    refusals_name_the_flag();
    l2_reuse_boundary();
    gqa_packing();
    decode_profiles_differ();
    decode_default_and_verdict();
    default_decode_dram_by_arch();
    occupancy_is_smooth();
    standard_backward();
    tile_search();
    every_preset_predicts();
    flashinfer_cores();
    never_below_compulsory();
    return check_report("test_predict");
}
