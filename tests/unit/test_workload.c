/* Work, traffic and roofline against MODEL.md's reference values and hand calculations.
 * Every expected number here was computed by hand from the formulas (shown in comments). */
#include "check.h"
#include "rooflab/rooflab.h"

static rl_workload eval(rl_problem p) {
    rl_workload w;
    rl_error err;
    rl_status s = rl_workload_compute(&p, &w, &err);
    if (s != RL_OK) fprintf(stderr, "unexpected error: %s\n", err.message);
    CHECK(s == RL_OK);
    return w;
}

/* First seed, section 4.1: B=1, H=8, N=L=16384, d=64, fp16, non-causal, Br=64. */
static void first_seed_worked_example(void) {
    rl_problem p = {.batch = 1, .heads = 8, .seq = 16384, .head_dim = 64, .dtype = RL_DTYPE_FP16,
                    .block_m = 64};
    rl_workload w = eval(p);
    CHECK_CLOSE(w.q_tensor_bytes, 16777216.0, 0);          /* 2·8·16384·64 ≈ 16.78 MB */
    CHECK_CLOSE(w.score_matrix_bytes, 4294967296.0, 0);    /* 2·8·16384² ≈ 4.29 GB */
    CHECK_CLOSE(w.flops, 549755813888.0, 0);               /* 4·8·16384²·64 ≈ 549.8 GFLOP */
    CHECK_CLOSE(w.pairs, 268435456.0, 0);                  /* 16384² */
    CHECK_CLOSE(w.softmax_flops, 5.0 * 8 * 268435456.0, 0);
    const rl_traffic *t = &w.traffic[RL_MODEL_TILED];
    CHECK_CLOSE(t->query_blocks, 256, 0);
    CHECK_CLOSE(t->kv_reload_factor, 256, 0);
    CHECK_CLOSE(t->bytes, 257.0 * 33554432.0, 0);          /* Q+O + 256·(K+V) ≈ 8.62 GB */
    CHECK(t->bytes > 8.62e9 && t->bytes < 8.63e9);
    const rl_traffic *n = &w.traffic[RL_MODEL_NAIVE];
    CHECK_CLOSE(n->bytes, 4.0 * 4294967296.0 + 4.0 * 16777216.0, 0); /* ≈ 17.25 GB */
    CHECK(n->bytes > 17.24e9 && n->bytes < 17.26e9);
    CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].bytes, 4.0 * 16777216.0, 0);
    /* Same shapes at N = 1024: F = 4·8·1024²·64 ≈ 2.15 GFLOP. */
    p.seq = 1024;
    CHECK_CLOSE(eval(p).flops, 2147483648.0, 0);
}

/* GQA decode: B=1, H=32, Hkv=8, N=1, L=4096, d=128, fp16. */
static void gqa_decode(void) {
    rl_problem p = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096, .head_dim = 128};
    rl_workload w = eval(p);
    CHECK_CLOSE(w.flops, 67108864.0, 0);
    CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].bytes, 16793600.0, 0);
    rl_roof roof = {3350e9, 989e12};
    rl_point pt = rl_roofline_point(roof, w.flops, w.traffic[RL_MODEL_COMPULSORY].bytes);
    CHECK_CLOSE(pt.intensity_flop_per_byte, 67108864.0 / 16793600.0, 1e-15);
    CHECK(pt.intensity_flop_per_byte > 3.995 && pt.intensity_flop_per_byte < 3.997);
    CHECK(pt.bound == RL_BOUND_MEMORY);
    CHECK_CLOSE(pt.time_s, 16793600.0 / 3350e9, 1e-15);
    CHECK_CLOSE(pt.attainable_flops_per_s, 3350e9 * 67108864.0 / 16793600.0, 1e-15);
    /* Intensity ≈ 2·(H/Hkv)/b_kv = 2·4/2 = 4. */
    CHECK_CLOSE(pt.intensity_flop_per_byte, 4.0, 1e-3);
    /* Tiled counts K/V once per query head: 4× the compulsory K and V. */
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].k_bytes, 4.0 * 8388608.0, 0);
    /* fp8 KV cache halves K/V bytes: intensity ≈ 2·4/1 = 8. */
    p.kv_dtype = RL_DTYPE_FP8;
    rl_workload w8 = eval(p);
    CHECK_CLOSE(w8.traffic[RL_MODEL_COMPULSORY].bytes, 8192.0 * 2 + 2.0 * 4194304.0, 0);
    /* O in fp32 (out dtype): Q 4096 · 2 B + O 4096 · 4 B, K/V as before. */
    p.out_dtype = RL_DTYPE_FP32;
    rl_workload wo = eval(p);
    CHECK_CLOSE(wo.traffic[RL_MODEL_COMPULSORY].o_bytes, 4096.0 * 4, 0);
    CHECK_CLOSE(wo.traffic[RL_MODEL_COMPULSORY].bytes, 8192.0 + 16384.0 + 2.0 * 4194304.0, 0);
    CHECK_CLOSE(wo.traffic[RL_MODEL_TILED].o_bytes, 4096.0 * 4, 0);
}

/* FlashAttention-3 paper, Table 2: B=4, H=16, N=L=8448, d=128, 3.538 ms ≈ 661 TFLOP/s. */
static void fa3_reference(void) {
    rl_problem p = {.batch = 4, .heads = 16, .seq = 8448, .head_dim = 128};
    rl_workload w = eval(p);
    CHECK_CLOSE(w.flops, 2338609692672.0, 0);
    CHECK_CLOSE(w.flops / 3.538e-3 / 1e12, 661.0, 1e-3);
}

static void ridges(void) {
    const rl_hw *a100 = rl_hw_find("a100-sxm4-80gb"), *h100 = rl_hw_find("h100-sxm");
    const rl_hw *v100 = rl_hw_find("v100-sxm2");
    CHECK(a100 && h100 && v100);
    rl_roof ra = {a100->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(a100, RL_DTYPE_FP16)};
    rl_roof rh = {h100->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(h100, RL_DTYPE_BF16)};
    CHECK_CLOSE(rl_ridge_flop_per_byte(ra), 312e12 / 2039e9, 1e-15); /* ≈ 153 */
    CHECK(rl_ridge_flop_per_byte(ra) > 152.9 && rl_ridge_flop_per_byte(ra) < 153.1);
    CHECK_CLOSE(rl_ridge_flop_per_byte(rh), 989e12 / 3350e9, 1e-15); /* ≈ 295 */
    CHECK(rl_ridge_flop_per_byte(rh) > 295.0 && rl_ridge_flop_per_byte(rh) < 295.5);
    /* V100: tensor 125 (ridge ≈ 139), the seed's 31.4 is non-tensor (ridge ≈ 34.9). */
    rl_roof rv = {v100->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(v100, RL_DTYPE_FP16)};
    CHECK_CLOSE(rl_ridge_flop_per_byte(rv), 125e12 / 900e9, 1e-15);
    CHECK_CLOSE(v100->peak_flops_per_s[RL_PEAK_FP16_NONTENSOR] / v100->bandwidth_bytes_per_s,
                31.4e12 / 900e9, 1e-15);
    /* Attainable and regime on either side of the ridge. */
    CHECK_CLOSE(rl_attainable_flops_per_s(ra, 10.0), 10.0 * 2039e9, 1e-15);
    CHECK_CLOSE(rl_attainable_flops_per_s(ra, 1000.0), 312e12, 0);
    rl_point above = rl_roofline_point(ra, 1e15, 1e12); /* I = 1000 */
    CHECK(above.bound == RL_BOUND_COMPUTE);
    CHECK_CLOSE(above.time_s, 1e15 / 312e12, 1e-15);
    /* Efficiency: a kernel taking twice the bound time is at 50 %. */
    CHECK_CLOSE(rl_efficiency(ra, 1e15, 1e12, 2.0 * 1e15 / 312e12), 0.5, 1e-12);
}

/* Causal, L > N, partial tiles: tile rows computed by hand from MODEL.md's rule
 * rows_i = min(⌈(e_i + L − N)/Bc⌉·Bc, L), e_i = min((i+1)·Br, N). */
static void causal_and_partial_tiles(void) {
    struct {
        int64_t n, l, br, bc;
        int causal;
        double rows, pairs;
    } cases[] = {
        {8, 8, 4, 4, 1, 4 + 8, 36},            /* e = 4, 8 */
        {3, 10, 2, 4, 1, 10 + 10, 27},         /* L > N: keys end at 9 and 10 → capped at L */
        {10, 10, 4, 3, 1, 6 + 9 + 10, 55},     /* e = 4, 8, 10; last partial tile capped */
        {100, 100, 64, 64, 1, 64 + 100, 5050}, /* N not a multiple of Br */
        {100, 100, 64, 64, 0, 200, 10000},     /* non-causal: every block loads L */
        {1, 4096, 64, 64, 1, 4096, 4096},      /* causal decode: the one query sees all keys */
        /* D = 2; e = 2 → 4 keys → ⌈4/3⌉ = 2 tiles = 6 rows; e = 4 → 6 keys → 6 rows;
           e = 5 → 7 keys → 3 tiles = 9 rows, capped at L = 7. Pairs 5·7 − 5·4/2 = 25. */
        {5, 7, 2, 3, 1, 6 + 6 + 7, 25},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_problem p = {.seq = cases[i].n, .kv_len = cases[i].l, .block_m = cases[i].br,
                        .block_n = cases[i].bc, .causal = cases[i].causal};
        rl_workload w = eval(p);
        CHECK_CLOSE(w.traffic[RL_MODEL_TILED].kv_rows_loaded_per_head, cases[i].rows, 0);
        CHECK_CLOSE(w.pairs, cases[i].pairs, 0);
    }
    /* Causal does not shrink the naive model's stored matrix. */
    rl_problem p = {.seq = 1024, .causal = 1};
    rl_problem q = {.seq = 1024, .causal = 0};
    CHECK_CLOSE(eval(p).traffic[RL_MODEL_NAIVE].bytes, eval(q).traffic[RL_MODEL_NAIVE].bytes, 0);
    CHECK(eval(p).flops < eval(q).flops);
    /* The seed's causal estimate: K/V reload roughly halves (≈ 4.3 GB at 16K). */
    rl_problem c16 = {.heads = 8, .seq = 16384, .causal = 1};
    double tb = eval(c16).traffic[RL_MODEL_TILED].bytes;
    CHECK(tb > 4.2e9 && tb < 4.4e9);
}

static void backward(void) {
    rl_problem p = {.seq = 2048, .pass = RL_PASS_BWD};
    rl_problem f = {.seq = 2048};
    rl_workload wb = eval(p), wf = eval(f);
    CHECK_CLOSE(wb.flops, 2.5 * wf.flops, 0);
    /* Reads Q, K, V, O, dO and writes dQ, dK, dV: 8 tensors of B·H·N·d·2 bytes (MHA, N = L). */
    CHECK_CLOSE(wb.traffic[RL_MODEL_COMPULSORY].bytes, 8.0 * 2 * 8 * 2048 * 64, 0);
    CHECK(wb.traffic[RL_MODEL_TILED].available); /* the FA2 backward dataflow */
    CHECK(!wb.traffic[RL_MODEL_NAIVE].available);
    CHECK(wb.traffic[RL_MODEL_TILED].bytes > wb.traffic[RL_MODEL_COMPULSORY].bytes);

    /* By hand, B = H = 1, N = L = 128, d = 64, fp16, Br = Bc = 64, non-causal: 2 query blocks ×
     * 2 KV blocks = 4 tile pairs, each reading a 64-row query block: 256 query rows in all.
     * Q 256·64·2 = 32768; K, V 128·64·2 = 16384 each; O (pre-pass) 16384; the rest:
     * dO, LSE, D, dQ-acc r+w per row 256·(128 + 8 + 512) = 165888, pre-pass dO + D
     * 16384 + 512, post-pass dQ-acc → dQ 32768 + 16384, dK + dV 32768: 264704.
     * Total 346624 B. */
    rl_problem small = {.heads = 1, .seq = 128, .pass = RL_PASS_BWD};
    const rl_traffic *t = &eval(small).traffic[RL_MODEL_TILED];
    CHECK_CLOSE(t->q_bytes, 32768, 0);
    CHECK_CLOSE(t->k_bytes, 16384, 0);
    CHECK_CLOSE(t->o_bytes, 16384, 0);
    CHECK_CLOSE(t->grad_bytes, 264704, 0);
    CHECK_CLOSE(t->bytes, 346624, 0);
    /* Causal, the same shape: block 0 attends KV block 0 only, block 1 both: 3 tile pairs. */
    small.causal = 1;
    CHECK_CLOSE(eval(small).traffic[RL_MODEL_TILED].q_bytes, 3 * 64 * 64 * 2, 0);
}

static void sram_budget(void) {
    /* Br = Bc = d = 64, fp16 tiles, fp32 S and O: 8 + 16 + 16 + 16 + 0.5 = 56.5 KiB. */
    rl_problem p;
    rl_problem in = {.head_dim = 64, .block_m = 64, .block_n = 64};
    CHECK(rl_problem_resolve(&in, &p, NULL) == RL_OK);
    rl_sram s = rl_sram_budget(&p, rl_hw_find("a100-sxm4-80gb"));
    CHECK_CLOSE(s.q_tile_bytes, 8192, 0);
    CHECK_CLOSE(s.k_tile_bytes + s.v_tile_bytes, 16384, 0);
    CHECK_CLOSE(s.s_tile_bytes, 16384, 0);
    CHECK_CLOSE(s.o_acc_bytes, 16384, 0);
    CHECK_CLOSE(s.ml_bytes, 512, 0);
    CHECK_CLOSE(s.total_bytes, 56.5 * 1024, 0);
    CHECK(!s.fits_default); /* over 48 KiB */
    CHECK(s.fits_optin);    /* under A100's 163 KiB */
    CHECK_CLOSE(s.limit_default_bytes, 48 * 1024, 0);
}

static void errors_name_the_field(void) {
    rl_error err;
    rl_workload w;
    rl_problem p = {.heads = 32, .kv_heads = 5};
    CHECK(rl_workload_compute(&p, &w, &err) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(err.field, "kv-heads") == 0);
    CHECK_STR_CONTAINS(err.message, "heads (32) must be a multiple of kv-heads (5)");
    rl_problem q = {.head_dim = -64};
    CHECK(rl_workload_compute(&q, &w, &err) == RL_ERR_RANGE);
    CHECK_STR_CONTAINS(err.message, "head-dim: expected a positive integer");
    CHECK_STR_CONTAINS(err.message, "got -64");
    rl_problem c = {.seq = 4096, .kv_len = 1024, .causal = 1};
    CHECK(rl_workload_compute(&c, &w, &err) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(err.field, "kv-len") == 0);
    rl_problem big = {.seq = RL_MAX_DIM + 1};
    CHECK(rl_workload_compute(&big, &w, &err) == RL_ERR_RANGE);
    CHECK(strcmp(err.field, "seq") == 0);
    rl_problem dt = {.dtype = (rl_dtype)42};
    CHECK(rl_workload_compute(&dt, &w, &err) == RL_ERR_UNKNOWN);
    CHECK(strcmp(err.field, "dtype") == 0);
    rl_roof bad = {0, 1e12};
    rl_report r;
    CHECK(rl_report_compute(&p, NULL, bad, &r, &err) == RL_ERR_RANGE);
    CHECK(strcmp(err.field, "bandwidth") == 0);
    const rl_hw *hw;
    CHECK(rl_hw_lookup("h100", "hw", &hw, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "hw: unknown preset \"h100\"");
}

static void defaults(void) {
    rl_problem p;
    CHECK(rl_problem_resolve(&(rl_problem){0}, &p, NULL) == RL_OK);
    CHECK(p.batch == 1 && p.heads == 8 && p.kv_heads == 8 && p.seq == 4096 && p.kv_len == 4096);
    CHECK(p.head_dim == 64 && p.dtype == RL_DTYPE_FP16 && p.kv_dtype == RL_DTYPE_FP16);
    CHECK(p.block_m == 64 && p.block_n == 64 && !p.causal && p.pass == RL_PASS_FWD);
}

static void sweep(void) {
    int64_t v[64];
    size_t n = rl_sweep_values(128, 1048576, 14, 1, v);
    CHECK(n == 14);
    CHECK(v[0] == 128 && v[13] == 1048576);
    CHECK(v[1] == 256 && v[3] == 1024); /* 2^7 … 2^20 in 14 log steps are the powers of two */
    size_t m = rl_sweep_values(1, 4, 10, 0, v); /* duplicates after rounding are dropped */
    CHECK(m == 4 && v[0] == 1 && v[3] == 4);
    int64_t xs[3] = {1024, 4096, 16384};
    rl_sweep_row rows[3];
    rl_roof roof = {3350e9, 989e12};
    CHECK(rl_sweep(&(rl_problem){.heads = 8}, RL_SWEEP_SEQ, xs, 3, roof, rows, NULL) == RL_OK);
    CHECK_CLOSE(rows[0].flops, 2147483648.0, 0);
    CHECK_CLOSE(rows[2].flops, 549755813888.0, 0);
    CHECK_CLOSE(rows[2].bytes[RL_MODEL_TILED], 257.0 * 33554432.0, 0);
    rl_error err;
    int64_t bad[2] = {100, 7};
    CHECK(rl_sweep(&(rl_problem){.heads = 32, .kv_heads = 8}, RL_SWEEP_HEADS, bad, 2, roof, rows, &err) ==
          RL_ERR_INCONSISTENT);
}

/* ---- Issue 18's variants: every expected value by hand, the arithmetic beside it. ---- */

/* MLA prefill in "MHA mode" (DeepSeek-V3: q/k head dim 128 + 64 rope = 192, v 128):
 * B=1, H=128, N=L=4096 non-causal, bf16. P = 4096² = 16,777,216. */
static void value_head_dim(void) {
    rl_workload w = eval((rl_problem){.heads = 128, .seq = 4096, .head_dim = 192, .head_dim_v = 128,
                                      .dtype = RL_DTYPE_BF16});
    CHECK_CLOSE(w.pairs, 16777216.0, 0);
    CHECK_CLOSE(w.flops, 1374389534720.0, 0); /* 2·128·16777216·(192+128) = 81920·16777216 */
    const rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    CHECK_CLOSE(c->q_bytes, 201326592.0, 0); /* 2 B·128·4096·192 */
    CHECK_CLOSE(c->k_bytes, 201326592.0, 0); /* K with d_qk: 2·128·4096·192 */
    CHECK_CLOSE(c->v_bytes, 134217728.0, 0); /* V with d_v: 2·128·4096·128 */
    CHECK_CLOSE(c->o_bytes, 134217728.0, 0); /* O with d_v */
    CHECK_CLOSE(c->bytes, 671088640.0, 0);
    /* tiled, non-causal: 64 query blocks each load all 4096 K and V rows */
    const rl_traffic *t = &w.traffic[RL_MODEL_TILED];
    CHECK_CLOSE(t->k_bytes, 64.0 * 201326592.0, 0);
    CHECK_CLOSE(t->v_bytes, 64.0 * 134217728.0, 0);
    /* backward: 2·B·H·P·(3·192 + 2·128) = 256·832·16777216 */
    rl_workload b = eval((rl_problem){.heads = 128, .seq = 4096, .head_dim = 192, .head_dim_v = 128,
                                      .dtype = RL_DTYPE_BF16, .pass = RL_PASS_BWD});
    CHECK_CLOSE(b.flops, 3573412790272.0, 0);
    CHECK_CLOSE(b.fwd_flops, 1374389534720.0, 0);
    /* d_v = d keeps the old count: 4·B·H·d·P and 2.5× backward */
    rl_workload e = eval((rl_problem){.head_dim = 128, .head_dim_v = 128, .pass = RL_PASS_BWD});
    CHECK_CLOSE(e.flops, 2.5 * 4.0 * 8 * 128 * 16777216.0, 0);
}

/* Absorbed MLA decode (DeepSeek-V3: kv_lora_rank 512, qk_rope_head_dim 64, 128 heads), bf16:
 * d_qk = 576, d_v = 512, one latent of 576 elements per token read once for all heads.
 * F = 2·B·H·N·L·(576 + 512) = 278528·B·N·L;  bytes ≈ B·L·576·2 = 1152·B·L (+ Q and O)
 * → intensity → 2·H·N·(d_qk + d_v)/(d_qk·b) = 2·128·1·1088/(576·2) = 278528/1152 = 241.78. */
static void absorbed_mla(void) {
    rl_workload w = eval((rl_problem){.heads = 128, .seq = 1, .kv_len = 1 << 20,
                                      .kv_lora_rank = 512, .rope_dim = 64, .dtype = RL_DTYPE_BF16});
    CHECK(w.problem.head_dim == 576 && w.problem.head_dim_v == 512 && w.problem.kv_heads == 1);
    const rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    CHECK_CLOSE(w.flops, 278528.0 * 1048576.0, 0);
    CHECK_CLOSE(c->k_bytes, 1152.0 * 1048576.0, 0); /* the latent, once */
    CHECK_CLOSE(c->v_bytes, 0.0, 0);                /* V = the latent's first 512: no extra read */
    CHECK_CLOSE(c->q_bytes, 147456.0, 0);           /* 2·128·576 */
    CHECK_CLOSE(c->o_bytes, 131072.0, 0);           /* 2·128·512 */
    /* 278528·2^20 / (1152·2^20 + 278528) = 241.72 (the limit 241.78 less the Q/O share 2.3e-4) */
    CHECK_CLOSE(w.flops / c->bytes, 278528.0 / 1152.0, 3e-4);
    CHECK(w.flops / c->bytes > 241.7 && w.flops / c->bytes < 241.78);
    /* The limit itself: 2·128·1·(576 + 512)/(576·2) = 278528/1152 = 241.777…; two query rows
     * (MTP) double it: 557056/1152 = 483.55…; plain attention has none. */
    CHECK_CLOSE(rl_mla_intensity_limit(&w), 278528.0 / 1152.0, 1e-12);
    rl_workload mtp = eval((rl_problem){.heads = 128, .seq = 2, .kv_len = 4096, .kv_lora_rank = 512,
                                        .rope_dim = 64, .dtype = RL_DTYPE_BF16});
    CHECK_CLOSE(rl_mla_intensity_limit(&mtp), 557056.0 / 1152.0, 1e-12);
    CHECK(rl_mla_intensity_limit(&(rl_workload){0}) == 0);
    rl_workload plain = eval((rl_problem){.heads = 128, .seq = 1, .kv_len = 4096});
    CHECK(rl_mla_intensity_limit(&plain) == 0);
    /* The figure: B=64, L=4096: F = 64·278528·4096 = 73,014,444,032 FLOP; bytes =
     * 64·(147456 + 131072 + 1152·4096) = 64·4,997,120 = 319,815,680 → 228.30 FLOP/B. */
    rl_workload i = eval((rl_problem){.batch = 64, .heads = 128, .seq = 1, .kv_len = 4096,
                                      .kv_lora_rank = 512, .rope_dim = 64, .dtype = RL_DTYPE_BF16});
    CHECK_CLOSE(i.flops, 73014444032.0, 0);
    CHECK_CLOSE(i.traffic[RL_MODEL_COMPULSORY].bytes, 319815680.0, 0);
    CHECK_CLOSE(i.flops / i.traffic[RL_MODEL_COMPULSORY].bytes, 228.30, 1e-4);
    /* FlashMLA's fp8 cache: 512 fp8 + 4 fp32 scales (one per 128) + 64 bf16 rope = 512 + 16 + 128 */
    rl_workload f = eval((rl_problem){.heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                                      .rope_dim = 64, .dtype = RL_DTYPE_BF16,
                                      .kv_dtype = RL_DTYPE_FP8});
    CHECK_CLOSE(f.kv_token_bytes, 656.0, 0);
    CHECK_CLOSE(f.traffic[RL_MODEL_COMPULSORY].k_bytes, 656.0 * 4096, 0);
    CHECK_CLOSE(w.kv_token_bytes, 1152.0, 0); /* bf16: 576·2 */
    /* The layout is FlashMLA's: its RoPE part is bf16 whatever the compute dtype (64·2 = 128 B),
     * so an fp16 or fp8 --dtype gives the same 656 B (it was 592 B with an fp8 --dtype). */
    rl_workload f8 = eval((rl_problem){.heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                                       .rope_dim = 64, .dtype = RL_DTYPE_FP8,
                                       .kv_dtype = RL_DTYPE_FP8});
    CHECK_CLOSE(f8.kv_token_bytes, 656.0, 0);
    f8 = eval((rl_problem){.heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                           .rope_dim = 64, .dtype = RL_DTYPE_FP16, .kv_dtype = RL_DTYPE_FP8});
    CHECK_CLOSE(f8.kv_token_bytes, 656.0, 0);
}

/* Pairs of a causal sliding window by a literal loop: query i at key position p = L − N + i sees
 * key k when p − W < k ≤ p, or k < S (a sink). */
static double window_pairs_loop(int64_t n, int64_t l, int64_t w, int64_t s) {
    double pairs = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t p = l - n + i;
        for (int64_t k = 0; k <= p; k++) pairs += (k > p - w || k < s) ? 1 : 0;
    }
    return pairs;
}

/* K/V rows the tiled model loads for one (batch, head), by a literal loop over query blocks: mark
 * every Bc tile some query of the block sees, then add its rows (Bc, or what is left of L). */
static double window_rows_loop(int64_t n, int64_t l, int64_t br, int64_t bc, int64_t w, int64_t s) {
    double rows = 0;
    static char seen[4096];
    for (int64_t b0 = 0; b0 < n; b0 += br) {
        memset(seen, 0, sizeof seen);
        for (int64_t i = b0; i < b0 + br && i < n; i++) {
            const int64_t p = l - n + i;
            for (int64_t k = 0; k <= p; k++)
                if (k > p - w || k < s) seen[k / bc] = 1;
        }
        for (int64_t t = 0; t * bc < l; t++)
            if (seen[t]) rows += (double)((t + 1) * bc <= l ? bc : l - t * bc);
    }
    return rows;
}

static void sliding_window(void) {
    /* N = L = 4096, W = 128: W(W+1)/2 + (N − W)·W = 8256 + 3968·128 = 516,160 pairs */
    rl_workload w = eval((rl_problem){.seq = 4096, .causal = 1, .window = 128});
    CHECK_CLOSE(w.pairs, 516160.0, 0);
    CHECK_CLOSE(w.flops, 4.0 * 8 * 64 * 516160.0, 0);
    /* + S = 4 sinks: Σ_{u=1}^{3968} min(4, u) = 10 + 3964·4 = 15,866 → 532,026; steady state
     * N·(W + S) per row: the last query sees 128 + 4 = 132 keys */
    rl_workload ws = eval((rl_problem){.seq = 4096, .causal = 1, .window = 128, .sinks = 4});
    CHECK_CLOSE(ws.pairs, 532026.0, 0);
    /* general N ≤ L (chunked prefill, decode, windows larger than L) against the literal loop */
    const int64_t cases[][4] = {{4096, 4096, 128, 0}, {300, 1000, 77, 0}, {1, 5000, 256, 0},
                                {7, 5000, 256, 3},    {200, 200, 500, 0}, {130, 900, 64, 70},
                                {1000, 1000, 1, 0},   {16, 2048, 100, 5}, {333, 777, 333, 333}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int64_t *k = cases[c];
        rl_workload x = eval((rl_problem){.seq = k[0], .kv_len = k[1], .causal = 1, .window = k[2],
                                          .sinks = k[3]});
        CHECK_CLOSE(x.pairs, window_pairs_loop(k[0], k[1], k[2], k[3]), 0);
        const int64_t tiles[][2] = {{64, 64}, {128, 64}, {64, 128}, {48, 80}};
        for (size_t t = 0; t < 4; t++) {
            rl_workload y = eval((rl_problem){.seq = k[0], .kv_len = k[1], .causal = 1,
                                              .window = k[2], .sinks = k[3],
                                              .block_m = tiles[t][0], .block_n = tiles[t][1]});
            CHECK_CLOSE(y.traffic[RL_MODEL_TILED].kv_rows_loaded_per_head,
                        window_rows_loop(k[0], k[1], tiles[t][0], tiles[t][1], k[2], k[3]), 0);
        }
    }
    /* Tiles per query block, Br = Bc = 64, W = 128, N = L = 4096: block 0 loads tile 0, block 1
     * tiles 0–1, every later block ⌈(W + Br)/Bc⌉ = ⌈192/64⌉ = 3 → 1 + 2 + 62·3 = 189 tiles =
     * 12,096 rows, against 2,080 tiles (133,120 rows) for full causal attention. */
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].kv_rows_loaded_per_head, 189.0 * 64, 0);
    CHECK_CLOSE(eval((rl_problem){.seq = 4096, .causal = 1}).traffic[RL_MODEL_TILED]
                    .kv_rows_loaded_per_head, 2080.0 * 64, 0); /* Σ_{i=1}^{64} i = 2080 tiles */
    /* Decode with W = 4096 < L = 32768: 4096 pairs and only the window's 4096 keys read:
     * K = 8 heads · 4096 · 64 · 2 B = 4,194,304 B */
    rl_workload d = eval((rl_problem){.seq = 1, .kv_len = 32768, .causal = 1, .window = 4096});
    CHECK_CLOSE(d.pairs, 4096.0, 0);
    CHECK_CLOSE(d.traffic[RL_MODEL_COMPULSORY].k_bytes, 4194304.0, 0);
    /* + 4 sinks: 4100 keys */
    rl_workload d4 = eval((rl_problem){.seq = 1, .kv_len = 32768, .causal = 1, .window = 4096,
                                       .sinks = 4});
    CHECK_CLOSE(d4.pairs, 4100.0, 0);
    CHECK_CLOSE(d4.traffic[RL_MODEL_COMPULSORY].k_bytes, 8.0 * 4100 * 64 * 2, 0);
}

/* Multi-token decode (MTP, speculative): N = 4 new rows, causal among themselves, L = 4096:
 * row i sees L − N + i + 1 keys: 4093 + 4094 + 4095 + 4096 = 16,378 = N·L − N(N−1)/2. */
static void multi_token_decode(void) {
    rl_workload w = eval((rl_problem){.seq = 4, .kv_len = 4096, .causal = 1});
    CHECK_CLOSE(w.pairs, 16378.0, 0);
    for (int64_t n = 2; n <= 16; n++) {
        rl_workload x = eval((rl_problem){.seq = n, .kv_len = 4096, .causal = 1});
        CHECK_CLOSE(x.pairs, window_pairs_loop(n, 4096, 4096, 0), 0);
        /* the cache is read once whatever N: K = 8·4096·64·2 B */
        CHECK_CLOSE(x.traffic[RL_MODEL_COMPULSORY].k_bytes, 4194304.0, 0);
    }
}

/* Block-scaled KV, H = Hkv = 8, L = 4096, d = 128, per row of one head:
 * nvfp4: 128/16 = 8 groups of (16·4 bits = 8 B + one e4m3 scale 1 B) = 72 B;
 * mxfp4: 128/32 = 4 groups of (32·4 bits = 16 B + one e8m0 1 B) = 68 B;
 * mxfp8: 4 groups of (32 B + 1 B) = 132 B. K = 8·4096·(72 | 68 | 132). */
static void block_scaled_dtypes(void) {
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_NVFP4), 9.0 / 16.0, 0);
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_MXFP4), 17.0 / 32.0, 0);
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_MXFP8), 33.0 / 32.0, 0);
    const struct { rl_dtype d; double row; } c[] = {
        {RL_DTYPE_NVFP4, 72}, {RL_DTYPE_MXFP4, 68}, {RL_DTYPE_MXFP8, 132}};
    for (int i = 0; i < 3; i++) {
        rl_workload w = eval((rl_problem){.seq = 1, .kv_len = 4096, .head_dim = 128,
                                          .dtype = RL_DTYPE_BF16, .kv_dtype = c[i].d});
        CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].k_bytes, 8.0 * 4096 * c[i].row, 0);
        CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].v_bytes, 8.0 * 4096 * c[i].row, 0);
    }
}

/* --page-size: K/V gathered page by page in 32 B sectors; the page table 4 B per page. */
static void paged_kv(void) {
    /* Absorbed MLA decode, fp8 cache in FlashMLA's layout: 656 B per token (512 + 4·4 + 64·2),
     * H = 128, N = 1, L = 4096. Q = 128·576·2 = 147456 B, O = 128·512·2 = 131072 B. */
    const rl_problem mla = {.heads = 128, .seq = 1, .kv_len = 4096, .kv_lora_rank = 512,
                            .rope_dim = 64, .dtype = RL_DTYPE_BF16, .kv_dtype = RL_DTYPE_FP8};
    rl_problem p = mla;
    rl_workload w = eval(p); /* contiguous: no waste, no table */
    const rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    CHECK_CLOSE(c->gather_waste_bytes, 0, 0);
    CHECK_CLOSE(c->page_table_bytes, 0, 0);
    CHECK_CLOSE(c->bytes, 147456.0 + 656.0 * 4096 + 131072.0, 0);
    /* P = 1: a page is one 656 B row; gcd(656, 32) = 16, so a row starts at a multiple of 16 B
     * and spans (656 + 32 − 16)/32 = 21 sectors on average = 672 B: 16 B wasted per row, 65536 B
     * in all; the table 4 B × 4096 pages = 16384 B. */
    p.page_size = 1;
    w = eval(p);
    CHECK_CLOSE(c->gather_waste_bytes, 16.0 * 4096, 0);
    CHECK_CLOSE(c->page_table_bytes, 4.0 * 4096, 0);
    CHECK_CLOSE(c->bytes, 147456.0 + 656.0 * 4096 + 131072.0 + 65536.0 + 16384.0, 0);
    CHECK_CLOSE(w.seqs[0].page_table_bytes, 16384.0, 0);
    CHECK_CLOSE(w.seqs[0].kv_bytes, 672.0 * 4096, 0);
    /* P = 64 (FlashMLA's page): 64·656 = 41984 B = 1312 sectors exactly: no waste; 64 pages. */
    p.page_size = 64;
    w = eval(p);
    CHECK_CLOSE(c->gather_waste_bytes, 0, 0);
    CHECK_CLOSE(c->page_table_bytes, 4.0 * 64, 0);
    /* L = 4097 at P = 64: 64 full pages and one of 1 row (656 B → 672 B): 16 B; 65 pages. */
    p.kv_len = 4097;
    w = eval(p);
    CHECK_CLOSE(c->gather_waste_bytes, 16.0, 0);
    CHECK_CLOSE(c->page_table_bytes, 4.0 * 65, 0);

    /* nvfp4 K/V at d 64: 64·0.5625 = 36 B a row, H = 8, Hkv = 2, N = 1, L = 1024. */
    rl_problem q = {.heads = 8, .kv_heads = 2, .seq = 1, .kv_len = 1024, .head_dim = 64,
                    .kv_dtype = RL_DTYPE_NVFP4, .page_size = 1};
    w = eval(q);
    /* P = 1: gcd(36, 32) = 4: (36 + 28)/32 = 2 sectors = 64 B for 36: 28 B wasted per row, for
     * K and V of 2 KV heads: 28·2·2·1024 = 114688 B; table once per sequence: 4·1024. */
    CHECK_CLOSE(c->k_bytes, 36.0 * 2 * 1024, 0);
    CHECK_CLOSE(c->gather_waste_bytes, 28.0 * 2 * 2 * 1024, 0);
    CHECK_CLOSE(c->page_table_bytes, 4096.0, 0);
    /* tiled, per query head (8), one query block loading all 1024 rows: K = 36·8·1024 = 294912,
     * each row's 28 B waste for K and V: 2·28·8·1024 = 458752; the table per query head pass:
     * 4·8·1024 = 32768. */
    const rl_traffic *t = &w.traffic[RL_MODEL_TILED];
    CHECK_CLOSE(t->k_bytes, 294912.0, 0);
    CHECK_CLOSE(t->gather_waste_bytes, 458752.0, 1e-12);
    CHECK_CLOSE(t->page_table_bytes, 32768.0, 0);
    CHECK_CLOSE(t->bytes, t->q_bytes + t->k_bytes + t->v_bytes + t->o_bytes + 458752.0 + 32768.0, 1e-12);
    /* P = 64: 64·36 = 2304 B = 72 sectors: no waste; 16 pages → 64 B of table. */
    q.page_size = 64;
    w = eval(q);
    CHECK_CLOSE(c->gather_waste_bytes, 0, 0);
    CHECK_CLOSE(c->page_table_bytes, 64.0, 0);
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].gather_waste_bytes, 0, 0);
    /* P = 2: 72 B chunks, gcd 8: 72 + 24 = 96 B moved per page: 24 B per 2 rows, K and V,
     * 2 KV heads, 512 pages: 24·2·2·512 = 49152 B. */
    q.page_size = 2;
    w = eval(q);
    CHECK_CLOSE(c->gather_waste_bytes, 49152.0, 0);
    /* Paging is an inference layout: backward refuses it by its flag. */
    rl_error e;
    rl_problem bq = {.page_size = 16, .pass = RL_PASS_BWD};
    CHECK(rl_workload_compute(&bq, NULL, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "page-size") == 0);
}

/* --kv-lens: a ragged decode batch of three sequences, 512, 4096 and 32768 keys. */
static void ragged_batch(void) {
    rl_problem p = {.heads = 8, .kv_heads = 2, .seq = 1, .head_dim = 128};
    CHECK(rl_kv_lens_parse("512,4096,32768", NULL, &p.kv_lens, NULL) == RL_OK);
    rl_workload w = eval(p);
    CHECK(w.problem.batch == 3 && w.problem.kv_len == 32768); /* B = Σ counts, L = the longest */
    /* pairs: 512 + 4096 + 32768 = 37376 over 3 sequences; F = 4·H·d·Σ = 4·8·128·37376. */
    CHECK_CLOSE(w.pairs, 37376.0 / 3.0, 1e-15);
    CHECK_CLOSE(w.flops, 153092096.0, 1e-15);
    CHECK_CLOSE(w.softmax_flops, 5.0 * 8 * 37376, 1e-15);
    /* K = V = Hkv·d·2 B·Σ L = 2·256·37376 = 19136512; Q = O = 3·8·128·2 = 6144. */
    const rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    CHECK_CLOSE(c->k_bytes, 19136512.0, 1e-15);
    CHECK_CLOSE(c->v_bytes, 19136512.0, 1e-15);
    CHECK_CLOSE(c->bytes, 2.0 * 19136512 + 2.0 * 6144, 1e-15);
    /* tiled, one query block: each query head loads its sequence's L rows: 8·256·37376 for K. */
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].k_bytes, 8.0 * 256 * 37376, 1e-15);
    /* per sequence: the longest has 32768 pairs per head, 2·(256 + 256)·32768 = 33554432 K/V
     * bytes, 512 Bc-64 tiles for its CTA, 8 CTAs (H · ⌈1/64⌉) without split-KV. */
    CHECK(w.seq_groups == 3);
    CHECK(w.seqs[2].kv_len == 32768 && w.seqs[2].count == 1);
    CHECK_CLOSE(w.seqs[2].pairs, 32768.0, 0);
    CHECK_CLOSE(w.seqs[2].kv_bytes, 33554432.0, 0);
    CHECK_CLOSE(w.seqs[2].kv_tiles, 512.0, 0);
    CHECK_CLOSE(w.seqs[2].ctas, 8.0, 0);
    CHECK_CLOSE(w.seqs[0].kv_tiles, 8.0, 0); /* 512/64 */
    /* the tail: 32768 over the mean 37376/3 = 98304/37376 = 2.6301… */
    CHECK_CLOSE(w.tail_ratio, 98304.0 / 37376.0, 1e-15);

    /* The histogram form: 60 sequences of 4096 and 4 of 32768: B = 64, Σ pairs = 245760 +
     * 131072 = 376832, tail 32768 / (376832/64) = 32768/5888. */
    CHECK(rl_kv_lens_parse("4096x60,32768x4", NULL, &p.kv_lens, NULL) == RL_OK);
    w = eval(p);
    CHECK(w.problem.batch == 64);
    CHECK_CLOSE(w.pairs * 64.0, 376832.0, 1e-15);
    CHECK_CLOSE(w.tail_ratio, 32768.0 / 5888.0, 1e-15);

    /* Causal chunked prefill, N = 256 rows against 512 and 1024 keys: 256·512 − 256·255/2 =
     * 98432 and 256·1024 − 32640 = 229504. */
    rl_problem q = {.heads = 1, .seq = 256, .causal = 1, .head_dim = 64};
    CHECK(rl_kv_lens_parse("512,1024", NULL, &q.kv_lens, NULL) == RL_OK);
    w = eval(q);
    CHECK_CLOSE(w.seqs[0].pairs, 98432.0, 0);
    CHECK_CLOSE(w.seqs[1].pairs, 229504.0, 0);
    CHECK_CLOSE(w.flops, 4.0 * 64 * (98432.0 + 229504.0), 1e-15);
    /* The uniform batch is the one-group case: 3 × 4096 gives what --batch 3 --kv-len 4096 gives. */
    rl_problem u = {.heads = 8, .seq = 1, .head_dim = 128};
    CHECK(rl_kv_lens_parse("4096x3", NULL, &u.kv_lens, NULL) == RL_OK);
    rl_workload wu = eval(u);
    rl_workload wb = eval((rl_problem){.heads = 8, .seq = 1, .head_dim = 128, .batch = 3, .kv_len = 4096});
    CHECK_CLOSE(wu.flops, wb.flops, 0);
    CHECK_CLOSE(wu.traffic[RL_MODEL_COMPULSORY].bytes, wb.traffic[RL_MODEL_COMPULSORY].bytes, 0);
    CHECK_CLOSE(wu.traffic[RL_MODEL_TILED].bytes, wb.traffic[RL_MODEL_TILED].bytes, 0);
    CHECK_CLOSE(wu.tail_ratio, 1.0, 0);
}

/* --topk: DeepSeek-V3.2's sparse attention over an absorbed-MLA fp8 cache, and its indexer. */
static void sparse_topk(void) {
    rl_problem p = {.heads = 128, .seq = 1, .kv_len = 65536, .kv_lora_rank = 512, .rope_dim = 64,
                    .dtype = RL_DTYPE_BF16, .kv_dtype = RL_DTYPE_FP8, .topk = 2048};
    rl_workload w = eval(p);
    /* K < L: pairs N·min(K, L) = 2048; F = 2·H·(576 + 512)·2048 = 570425344. */
    CHECK_CLOSE(w.pairs, 2048.0, 0);
    CHECK_CLOSE(w.flops, 570425344.0, 0);
    /* The 2048 selected 656 B rows, gathered row by row: 672 B moved each (16 B waste). */
    const rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    CHECK_CLOSE(c->k_bytes, 656.0 * 2048, 0);
    CHECK_CLOSE(c->gather_waste_bytes, 16.0 * 2048, 0);
    /* The kernel reads its int32 index list (FlashMLA's `indices`, int32): 4·2048 = 8192 B,
     * contiguous cache or not. Compulsory 147456 + 1343488 + 131072 + 32768 + 8192 = 1662976 B:
     * 570425344 / 1662976 = 343.0 FLOP/B (MODEL.md's figure). */
    CHECK_CLOSE(c->page_table_bytes, 8192.0, 0);
    CHECK_CLOSE(w.seqs[0].page_table_bytes, 8192.0, 0);
    CHECK_CLOSE(c->bytes,
                128.0 * 576 * 2 + 656.0 * 2048 + 128.0 * 512 * 2 + 16.0 * 2048 + 8192.0, 0);
    CHECK_CLOSE(w.flops / c->bytes, 570425344.0 / 1662976.0, 1e-15);
    /* tiled: the list once per query head pass: 4·128·2048 = 1048576 B. */
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].page_table_bytes, 1048576.0, 0);
    /* Paged (FlashMLA's 64-row pages): the indices already encode page·64 + offset, so no block
     * table is read beside them: the same 8192 B, and 656 B rows still gathered one by one. */
    p.page_size = 64;
    w = eval(p);
    CHECK_CLOSE(c->page_table_bytes, 8192.0, 0);
    CHECK_CLOSE(c->gather_waste_bytes, 16.0 * 2048, 0);
    p.page_size = 0;
    w = eval(p);
    /* The indexer scores all 65536 keys: 2·64·128·65536 = 1073741824 FLOP; bytes: keys 65536 ×
     * (128 fp8 + 4 B scale) = 8650752, queries 64·128 + 64·4 = 8448, logits written and read
     * 2·4·65536 = 524288, indices 4·2048 = 8192. */
    CHECK_CLOSE(w.indexer.pairs, 65536.0, 0);
    CHECK_CLOSE(w.indexer.flops, 1073741824.0, 0);
    CHECK_CLOSE(w.indexer.k_bytes, 8650752.0, 0);
    CHECK_CLOSE(w.indexer.q_bytes, 8448.0, 0);
    CHECK_CLOSE(w.indexer.logit_bytes, 524288.0, 0);
    CHECK_CLOSE(w.indexer.index_bytes, 8192.0, 0);
    CHECK_CLOSE(w.indexer.bytes, 8650752.0 + 8448 + 524288 + 8192, 0);
    /* K ≥ L: every key selected: pairs 1024 = dense decode's, indices 4·1024. */
    p.kv_len = 1024;
    w = eval(p);
    CHECK_CLOSE(w.pairs, 1024.0, 0);
    CHECK_CLOSE(w.flops, 2.0 * 128 * 1088 * 1024, 0);
    CHECK_CLOSE(w.indexer.index_bytes, 4096.0, 0);
    /* Causal, N = 4 against L = 2050, K = 2048: the queries see 2047, 2048, 2049, 2050 keys and
     * attend 2047 + 2048 + 2048 + 2048 = 8191; the indexer scores 2047 + … + 2050 = 8194. */
    rl_problem q = {.heads = 1, .seq = 4, .kv_len = 2050, .causal = 1, .topk = 2048};
    w = eval(q);
    CHECK_CLOSE(w.pairs, 8191.0, 0);
    CHECK_CLOSE(w.indexer.pairs, 8194.0, 0);
    CHECK_CLOSE(w.traffic[RL_MODEL_TILED].kv_rows_loaded_per_head, 8191.0, 0); /* row gathers */
    /* Every query's list is read: 4·8191 = 32764 B (not only the last query's 2048 entries). */
    CHECK_CLOSE(w.traffic[RL_MODEL_COMPULSORY].page_table_bytes, 32764.0, 0);
    /* Without top-k there is no indexer line. */
    CHECK_CLOSE(eval((rl_problem){0}).indexer.bytes, 0, 0);
    rl_error e;
    rl_problem bad = {.causal = 1, .window = 128, .topk = 2048};
    CHECK(rl_workload_compute(&bad, NULL, &e) == RL_ERR_INCONSISTENT && strcmp(e.field, "topk") == 0);
    bad = (rl_problem){.topk = 2048, .pass = RL_PASS_BWD};
    CHECK(rl_workload_compute(&bad, NULL, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "topk") == 0);
}

int main(void) {
    value_head_dim();
    absorbed_mla();
    sliding_window();
    multi_token_decode();
    block_scaled_dtypes();
    paged_kv();
    ragged_batch();
    sparse_topk();
    first_seed_worked_example();
    gqa_decode();
    fa3_reference();
    ridges();
    causal_and_partial_tiles();
    backward();
    sram_budget();
    errors_name_the_field();
    defaults();
    sweep();
    return check_report("test_workload");
}
