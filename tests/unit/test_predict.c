/* The predicted time (rl_predict): the ledger adds up, each term against a hand calculation, the
 * fitted constant reproduces the one published point it was fitted on, the L2 reuse rule at its
 * boundary, GQA packing, refusals that name the flag, the tile search, and no prediction below
 * the compulsory bound over random problems. Hand values use the preset figures of DESIGN.md:
 * H100 SXM 989 TFLOP/s, 3.35 TB/s, L2 50 MiB at 9.7 TB/s, exp 16 × 132 × 1.83 GHz. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "rooflab/rooflab.h"

static const rl_hw *H100(void) { return rl_hw_find("h100-sxm"); }
static rl_roof roof_of(const rl_hw *hw, rl_dtype dt) {
    rl_roof r = {hw->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(hw, dt)};
    return r;
}

static double sum_terms(const rl_prediction *p) {
    double s = 0;
    for (int t = 0; t < RL_TERM_COUNT; t++) s += p->terms_s[t];
    return s;
}

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
    CHECK(r.terms_s[RL_TERM_FLOOR] == 0);
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
    CHECK_CLOSE(r.time_s, r.compute_s + dram / 3350e9, 1e-12);
    /* fp16 keeps the fitted partial overlap: its memory term is less than its DRAM time. */
    p.dtype = RL_DTYPE_FP16;
    p.out_dtype = RL_DTYPE_DEFAULT;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &k, &r, NULL) == RL_OK);
    CHECK(r.overlap_exponent > 1.5 && r.overlap_exponent < 1.7);
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
    CHECK_STR_CONTAINS(e.message, "needs --seq 1");
    rl_hw no_l2 = *H100(); /* every preset but custom has an L2 figure now: a copy without one */
    no_l2.l2_bandwidth_bytes_per_s = 0;
    no_l2.l2_bandwidth_source = NULL;
    CHECK(rl_predict(&p, &no_l2, roof_of(H100(), RL_DTYPE_FP16), NULL, &r, &e) == RL_ERR_UNSUPPORTED);
    CHECK(strcmp(e.field, "hw") == 0);
    CHECK_STR_CONTAINS(e.message, "L2 bandwidth");
    rl_problem bwd = {.seq = 1, .kv_len = 4096, .pass = RL_PASS_BWD};
    CHECK(rl_predict(&bwd, H100(), roof_of(H100(), RL_DTYPE_FP16),
                     &(rl_kernel_spec){.kernel = RL_KERNEL_FLASH_DECODING}, &r, &e) == RL_ERR_UNSUPPORTED);
    rl_problem wide = {.seq = 1024, .head_dim = 512};
    CHECK(rl_predict(&wide, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FA2}, &r,
                     &e) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(e.message, "head dim 512");
    rl_kernel k;
    CHECK(rl_kernel_parse("flash-decoding", "kernel", &k, NULL) == RL_OK && k == RL_KERNEL_FLASH_DECODING);
    CHECK(rl_kernel_parse("fa4", "kernel", &k, &e) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(e.message, "kernel: unknown kernel profile \"fa4\"");
}

/* The reuse rule at its boundary: one (batch, head) in flight (B = H = 1, 64-row query blocks
 * outnumber the 132 × CTAs/SM slots), so the working set is that head's K and V: 2·L·128·2 B.
 * L = 65536: 32 MiB ≤ 50 MiB, every re-read hits. L = 131072: 64 MiB, hit fraction 50/64. */
static void l2_reuse_boundary(void) {
    for (int big = 0; big < 2; big++) {
        const double L = big ? 131072 : 65536;
        rl_problem p = {.batch = 1, .heads = 1, .seq = (int64_t)L, .head_dim = 128};
        rl_prediction r;
        CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), NULL, &r, NULL) == RL_OK);
        const double kv = 2.0 * L * 128 * 2;
        CHECK_CLOSE(r.levels.kv_working_set_bytes, kv, 0);
        const double hit = big ? 50.0 / 64.0 : 1.0;
        CHECK_CLOSE(r.levels.kv_hit_fraction, hit, 1e-15);
        const double q_blocks = L / 64, kv_l2 = q_blocks * kv;
        CHECK_CLOSE(r.levels.bytes[RL_LEVEL_L2], 2 * L * 128 * 2 + kv_l2, 1e-12);
        CHECK_CLOSE(r.levels.bytes[RL_LEVEL_DRAM], 2 * L * 128 * 2 + kv + (1 - hit) * (kv_l2 - kv), 1e-12);
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
    /* Both read K/V from DRAM once: the working set (8 KV heads, 128 MiB) is over L2, but one
     * query block per unit puts all units in flight … so the re-reads of per head partly miss. */
    CHECK_CLOSE(packed.levels.bytes[RL_LEVEL_DRAM], qo + kv, 1e-12);
    CHECK(per_head.levels.bytes[RL_LEVEL_DRAM] > packed.levels.bytes[RL_LEVEL_DRAM]);
    /* flashinfer packs by default and picks a split count that fills the SMs */
    rl_prediction fi;
    CHECK(rl_predict(&p, H100(), roof_of(H100(), RL_DTYPE_FP16), &(rl_kernel_spec){.kernel = RL_KERNEL_FLASHINFER}, &fi,
                     NULL) == RL_OK);
    CHECK(fi.gqa_packed && fi.splits > 1);
    CHECK(fi.terms_s[RL_TERM_FLOOR] > 0);
    CHECK(fi.bound == RL_BOUND_MEMORY);
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

int main(void) {
    fa3_ledger_by_hand();
    fitted_point_reproduced();
    fa3_fp8_serialises_memory();
    refusals_name_the_flag();
    l2_reuse_boundary();
    gqa_packing();
    tile_search();
    never_below_compulsory();
    return check_report("test_predict");
}
