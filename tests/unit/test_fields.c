/* The problem's fields described once (RL_PROBLEM_FIELDS) and the one roof resolution
 * (rl_roof_resolve): names, defaults, parsing and refusals, and the roof from preset + dtype +
 * typed overrides. Expected values are CONTRACTS.md's defaults and the presets' datasheet figures. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "rooflab/rooflab.h"

static void names_have_one_spelling(void) {
    CHECK(RL_PROBLEM_FIELD_COUNT == 22); /* 14 + the eight variants of issue 18 */
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        char flag[64];
        size_t n = strlen(fi->key);
        CHECK(n < sizeof flag);
        for (size_t i = 0; i <= n; i++) flag[i] = fi->key[i] == '_' ? '-' : fi->key[i];
        CHECK(strcmp(flag, fi->flag) == 0); /* the flag is the key with '-' for '_' */
        CHECK(rl_problem_field_find(fi->key) == f);
        CHECK(rl_problem_field_find(fi->flag) == f);
        CHECK(fi->help && fi->help[0]);
        CHECK(fi->range_lo <= fi->range_hi && fi->range_hi <= fi->max);
    }
    CHECK(rl_problem_field_find("kv-heads") == RL_FIELD_KV_HEADS);
    CHECK(rl_problem_field_find("kv_heads") == RL_FIELD_KV_HEADS);
    CHECK(rl_problem_field_find("kvheads") == -1);
    CHECK(rl_problem_field_find(NULL) == -1);
    CHECK(rl_problem_field_info(RL_PROBLEM_FIELD_COUNT) == NULL);
}

static void defaults_are_designs(void) {
    /* CONTRACTS.md: B=1, H=8, HKV=H, N=4096, L=N, D=64, fp16, non-causal, fwd, BR=BC=64. */
    rl_problem p;
    CHECK(rl_problem_resolve(&(rl_problem){0}, &p, NULL) == RL_OK);
    const int64_t want[RL_PROBLEM_FIELD_COUNT] = {
        [RL_FIELD_BATCH] = 1,    [RL_FIELD_HEADS] = 8,         [RL_FIELD_KV_HEADS] = 8,
        [RL_FIELD_SEQ] = 4096,   [RL_FIELD_KV_LEN] = 4096,     [RL_FIELD_HEAD_DIM] = 64,
        [RL_FIELD_DTYPE] = RL_DTYPE_FP16, [RL_FIELD_KV_DTYPE] = RL_DTYPE_FP16,
        [RL_FIELD_OUT_DTYPE] = RL_DTYPE_FP16,
        [RL_FIELD_SCORE_DTYPE] = RL_DTYPE_FP16, [RL_FIELD_CAUSAL] = 0, [RL_FIELD_PASS] = RL_PASS_FWD,
        [RL_FIELD_BLOCK_M] = 64, [RL_FIELD_BLOCK_N] = 64,
        /* variants: d_v = d, the rest off (0) */
        [RL_FIELD_HEAD_DIM_V] = 64};
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        CHECK(rl_problem_get(&p, (rl_problem_field)f) == want[f]);
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        /* A non-zero table default is the resolved default; zero means "tied to another field". */
        if (fi->default_value != 0) CHECK(fi->default_value == want[f]);
    }
    CHECK(rl_problem_field_info(RL_FIELD_KV_HEADS)->default_value == 0);
    CHECK(rl_problem_field_info(RL_FIELD_KV_LEN)->default_value == 0);
    CHECK(rl_problem_field_info(RL_FIELD_HEAD_DIM)->max == 65536);
    CHECK(rl_problem_field_info(RL_FIELD_SEQ)->max == 16777216);
}

static void typed_text_is_parsed_or_refused(void) {
    rl_problem p = {0};
    rl_error e;
    CHECK(rl_problem_set_text(&p, RL_FIELD_SEQ, "8192", NULL, &e) == RL_OK && p.seq == 8192);
    CHECK(rl_problem_set_text(&p, RL_FIELD_KV_HEADS, "8", NULL, &e) == RL_OK && p.kv_heads == 8);
    CHECK(rl_problem_set_text(&p, RL_FIELD_DTYPE, "bfloat16", NULL, &e) == RL_OK &&
          p.dtype == RL_DTYPE_BF16);
    CHECK(rl_problem_set_text(&p, RL_FIELD_CAUSAL, "true", NULL, &e) == RL_OK && p.causal == 1);
    CHECK(rl_problem_set_text(&p, RL_FIELD_CAUSAL, "0", NULL, &e) == RL_OK && p.causal == 0);
    CHECK(rl_problem_set_text(&p, RL_FIELD_PASS, "bwd", NULL, &e) == RL_OK && p.pass == RL_PASS_BWD);
    const char *bad_ints[] = {"0", "-1", "+3", " 12", "12 ", "1.5", "1e3", "", "16777217",
                              "99999999999999999999999", "0x10"};
    for (size_t i = 0; i < sizeof bad_ints / sizeof bad_ints[0]; i++) {
        rl_problem q = {0};
        CHECK(rl_problem_set_text(&q, RL_FIELD_SEQ, bad_ints[i], NULL, &e) == RL_ERR_RANGE);
        CHECK(q.seq == 0); /* refused input changes nothing */
        CHECK(strcmp(e.field, "seq") == 0);
    }
    rl_problem_set_text(&p, RL_FIELD_SEQ, "16777217", NULL, &e);
    CHECK(strcmp(e.message, "seq: expected a positive integer (1 to 16777216), got \"16777217\"") == 0);
    CHECK(rl_problem_set_text(&p, RL_FIELD_HEAD_DIM, "-64", "points[3].problem.head_dim", &e) ==
          RL_ERR_RANGE);
    CHECK(strcmp(e.message,
                 "points[3].problem.head_dim: expected a positive integer (1 to 65536), got \"-64\"") == 0);
    CHECK(rl_problem_set_text(&p, RL_FIELD_DTYPE, "int4", NULL, &e) == RL_ERR_UNKNOWN);
    CHECK(strcmp(e.message, "dtype: expected one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8, got \"int4\"") == 0);
    CHECK(rl_problem_set_text(&p, RL_FIELD_CAUSAL, "yes", NULL, &e) == RL_ERR_INVALID);
    CHECK(rl_problem_set_text(&p, RL_FIELD_PASS, "sideways", NULL, &e) == RL_ERR_INVALID);
    CHECK(strcmp(e.message, "pass: expected fwd or bwd, got \"sideways\"") == 0);
}

static void integers_are_refused_as_core_refuses(void) {
    rl_problem p = {0};
    rl_error e;
    CHECK(rl_problem_set(&p, RL_FIELD_KV_HEADS, 0, NULL, &e) == RL_OK); /* 0 = tied to H */
    CHECK(rl_problem_set(&p, RL_FIELD_HEADS, 32, NULL, &e) == RL_OK && p.heads == 32);
    CHECK(rl_problem_set(&p, RL_FIELD_HEADS, -1, NULL, &e) != RL_OK && p.heads == 32);
    CHECK(rl_problem_set(&p, RL_FIELD_CAUSAL, 2, NULL, &e) != RL_OK && p.causal == 0);
    CHECK(strcmp(e.message, "causal: expected true or false, got 2") == 0);
    CHECK(rl_problem_set(&p, RL_FIELD_PASS, 2, NULL, &e) != RL_OK);
    CHECK(rl_problem_set(&p, RL_FIELD_DTYPE, RL_DTYPE_COUNT, NULL, &e) != RL_OK);
    CHECK(rl_problem_set(&p, RL_FIELD_DTYPE, RL_DTYPE_FP8, NULL, &e) == RL_OK && p.dtype == RL_DTYPE_FP8);
    CHECK(rl_problem_set(&p, RL_FIELD_BLOCK_M, 65537, NULL, &e) != RL_OK);
    CHECK(rl_problem_set(&p, RL_PROBLEM_FIELD_COUNT, 1, NULL, &e) == RL_ERR_UNKNOWN);
    char buf[32];
    CHECK(rl_problem_value_text(&p, RL_FIELD_DTYPE, buf, sizeof buf) == 3 && strcmp(buf, "fp8") == 0);
    CHECK(rl_problem_value_text(&p, RL_FIELD_HEADS, buf, sizeof buf) == 2 && strcmp(buf, "32") == 0);
    p.causal = 1;
    rl_problem_value_text(&p, RL_FIELD_CAUSAL, buf, sizeof buf);
    CHECK(strcmp(buf, "true") == 0);
}

static void roof_resolution(void) {
    rl_roof_resolved r;
    rl_error e;
    /* Default preset h100-sxm, fp16: 3.35 TB/s and 989 TFLOP/s dense → ridge 295.2 FLOP/B. */
    CHECK(rl_roof_resolve(&(rl_roof_request){0}, &r, &e) == RL_OK);
    CHECK(strcmp(r.hw->id, "h100-sxm") == 0);
    CHECK_CLOSE(r.roof.bandwidth_bytes_per_s, 3.35e12, 0);
    CHECK_CLOSE(r.roof.peak_flops_per_s, 989e12, 0);
    CHECK_CLOSE(r.ridge_flop_per_byte, 989.0 / 3.35, 1e-15);
    CHECK(r.peak_kind == RL_PEAK_FP16_TENSOR && !r.bandwidth_typed && !r.peak_typed);
    /* A100 80 GB: 2039 GB/s, 312 TFLOP/s fp16 tensor → ridge ≈ 153; fp32 → the CUDA-core 19.5. */
    CHECK(rl_roof_resolve(&(rl_roof_request){"a100-sxm4-80gb", RL_DTYPE_BF16, NULL, NULL}, &r, &e) ==
          RL_OK);
    CHECK_CLOSE(r.ridge_flop_per_byte, 312e12 / 2039e9, 1e-15);
    CHECK(rl_roof_resolve(&(rl_roof_request){"a100-sxm4-80gb", RL_DTYPE_FP32, "", ""}, &r, &e) ==
          RL_OK);
    CHECK_CLOSE(r.roof.peak_flops_per_s, 19.5e12, 0);
    CHECK(r.peak_kind == RL_PEAK_FP32);
    /* Typed overrides win and say so. */
    CHECK(rl_roof_resolve(&(rl_roof_request){"h100-sxm", RL_DTYPE_FP16, "4.8 TB/s", "1 PFLOP/s"}, &r,
                          &e) == RL_OK);
    CHECK_CLOSE(r.roof.bandwidth_bytes_per_s, 4.8e12, 1e-15);
    CHECK_CLOSE(r.roof.peak_flops_per_s, 1e15, 1e-15);
    CHECK(r.bandwidth_typed && r.peak_typed);
    /* Errors name the field. */
    CHECK(rl_roof_resolve(&(rl_roof_request){"a100-sxm4-80gb", RL_DTYPE_FP8, NULL, NULL}, &r, &e) ==
          RL_ERR_INVALID);
    CHECK(strcmp(e.field, "peak") == 0);
    CHECK(strcmp(e.message, "peak: preset a100-sxm4-80gb has no fp8 tensor peak for fp8; expected a "
                            "rate such as \"989 TFLOP/s\"") == 0);
    CHECK(rl_roof_resolve(&(rl_roof_request){"custom", RL_DTYPE_FP16, NULL, "1 PFLOP/s"}, &r, &e) ==
          RL_ERR_INVALID);
    CHECK(strcmp(e.field, "bandwidth") == 0);
    CHECK(rl_roof_resolve(&(rl_roof_request){"h100-sxm", RL_DTYPE_FP16, "312 TFLOPS", NULL}, &r, &e) ==
          RL_ERR_UNIT);
    CHECK(strcmp(e.message, "bandwidth: \"312 TFLOPS\" is a compute rate, expected bytes per second, "
                            "e.g. \"3.35 TB/s\"") == 0);
    CHECK(rl_roof_resolve(&(rl_roof_request){"nope", RL_DTYPE_FP16, NULL, NULL}, &r, &e) ==
          RL_ERR_UNKNOWN);
    CHECK(strcmp(e.field, "hw") == 0);
}

/* Issue 18's variants: 0 is off, a typed 0 is refused, and every inconsistency names its flag. */
static rl_status resolve_err(rl_problem in, rl_error *e) { return rl_problem_resolve(&in, NULL, e); }

static void variants_are_validated(void) {
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) /* exactly the five new fields are variants */
        CHECK(rl_problem_field_variant((rl_problem_field)f) == (f >= RL_FIELD_HEAD_DIM_V));
    CHECK(rl_problem_field_tie(RL_FIELD_HEAD_DIM_V) == RL_FIELD_HEAD_DIM);
    rl_problem p = {0};
    rl_error e;
    CHECK(rl_problem_set_text(&p, RL_FIELD_WINDOW, "0", NULL, &e) == RL_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "window: expected a positive integer (1 to 16777216), got \"0\"");
    CHECK(rl_problem_set_text(&p, RL_FIELD_HEAD_DIM_V, "70000", NULL, &e) == RL_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "head-dim-v: expected a positive integer (1 to 65536)");
    CHECK(rl_problem_field_find("kv-lora-rank") == RL_FIELD_KV_LORA_RANK);
    CHECK(rl_problem_field_find("rope_dim") == RL_FIELD_ROPE_DIM);

    CHECK(resolve_err((rl_problem){.kv_lora_rank = 512}, &e) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "kv-lora-rank") == 0);
    CHECK_STR_CONTAINS(e.message, "needs --rope-dim");
    CHECK(resolve_err((rl_problem){.rope_dim = 64}, &e) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "rope-dim") == 0);
    CHECK(resolve_err((rl_problem){.kv_lora_rank = 512, .rope_dim = 64, .kv_heads = 8}, &e) ==
          RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "kv-heads") == 0);
    CHECK_STR_CONTAINS(e.message, "absorbed MLA forces kv-heads 1");
    CHECK(resolve_err((rl_problem){.kv_lora_rank = 512, .rope_dim = 64, .head_dim = 128}, &e) ==
          RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "head-dim") == 0);
    CHECK_STR_CONTAINS(e.message, "kv-lora-rank + rope-dim = 576");
    CHECK(resolve_err((rl_problem){.kv_lora_rank = 512, .rope_dim = 64, .head_dim_v = 128}, &e) ==
          RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "head-dim-v") == 0);
    CHECK(resolve_err((rl_problem){.kv_lora_rank = 512, .rope_dim = 64, .pass = RL_PASS_BWD}, &e) ==
          RL_ERR_UNSUPPORTED);
    CHECK(strcmp(e.field, "kv-lora-rank") == 0);
    CHECK(resolve_err((rl_problem){.kv_lora_rank = 65536, .rope_dim = 64}, &e) == RL_ERR_RANGE);
    /* MLA resolves to d_qk = R + DR = 576, d_v = R = 512, Hkv = 1; resolving again keeps it. */
    rl_problem m;
    CHECK(rl_problem_resolve(&(rl_problem){.heads = 128, .kv_lora_rank = 512, .rope_dim = 64}, &m,
                             &e) == RL_OK);
    CHECK(m.head_dim == 576 && m.head_dim_v == 512 && m.kv_heads == 1);
    rl_problem m2;
    CHECK(rl_problem_resolve(&m, &m2, &e) == RL_OK);
    CHECK(m2.head_dim == 576 && m2.head_dim_v == 512 && m2.kv_heads == 1);

    CHECK(resolve_err((rl_problem){.window = 128}, &e) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "window") == 0);
    CHECK_STR_CONTAINS(e.message, "add --causal");
    CHECK(resolve_err((rl_problem){.causal = 1, .sinks = 4}, &e) == RL_ERR_INCONSISTENT);
    CHECK(strcmp(e.field, "sinks") == 0);
    CHECK(resolve_err((rl_problem){.causal = 1, .window = 128, .sinks = 4}, &e) == RL_OK);

    /* Block-scaled dtypes parse; as the compute dtype they need a preset with their peak. */
    rl_dtype d;
    CHECK(rl_dtype_parse("nvfp4", "kv-dtype", &d, NULL) == RL_OK && d == RL_DTYPE_NVFP4);
    CHECK(rl_dtype_parse("mxfp4", "kv-dtype", &d, NULL) == RL_OK && d == RL_DTYPE_MXFP4);
    CHECK(rl_dtype_parse("mxfp8", "kv-dtype", &d, NULL) == RL_OK && d == RL_DTYPE_MXFP8);
    CHECK(strcmp(rl_dtype_name(RL_DTYPE_MXFP8), "mxfp8") == 0);
    rl_roof_resolved rr;
    CHECK(rl_roof_resolve(&(rl_roof_request){.hw = "h100-sxm", .dtype = RL_DTYPE_NVFP4}, &rr, &e) ==
          RL_ERR_INVALID);
    CHECK(strcmp(e.field, "dtype") == 0);
    CHECK_STR_CONTAINS(e.message, "--dtype nvfp4: preset h100-sxm has no block-scaled tensor cores");
    CHECK_STR_CONTAINS(e.message, "--hw");
    /* As the compute dtype: nvfp4 and mxfp4 run against the fp4 ceiling, mxfp8 against fp8, on a
     * preset with block-scaled tensor cores (HARDWARE.md: B200 9 PFLOP/s dense fp4, 4.5 fp8;
     * RTX 5090 1676 TFLOP/s fp4, 419 fp8; MI355X 10066.3 TFLOP/s fp4). */
    const struct { const char *hw; rl_dtype d; double peak; } mx[] = {
        {"b200", RL_DTYPE_NVFP4, 9e15},       {"b200", RL_DTYPE_MXFP4, 9e15},
        {"b200", RL_DTYPE_MXFP8, 4.5e15},     {"rtx5090", RL_DTYPE_MXFP8, 419e12},
        {"rtx5090", RL_DTYPE_NVFP4, 1676e12}, {"mi355x", RL_DTYPE_MXFP4, 10066.3e12}};
    for (size_t i = 0; i < sizeof mx / sizeof mx[0]; i++) {
        CHECK(rl_roof_resolve(&(rl_roof_request){.hw = mx[i].hw, .dtype = mx[i].d}, &rr, &e) == RL_OK);
        CHECK_CLOSE(rr.roof.peak_flops_per_s, mx[i].peak, 1e-12);
    }
    CHECK(rl_peak_for_dtype(RL_DTYPE_NVFP4) == RL_PEAK_FP4 && rl_peak_for_dtype(RL_DTYPE_MXFP8) == RL_PEAK_FP8);
    /* Hopper has an fp8 ceiling but no block-scaled MMA: mxfp8 refused, naming --dtype and it. */
    CHECK(rl_roof_resolve(&(rl_roof_request){.hw = "h100-sxm", .dtype = RL_DTYPE_MXFP8}, &rr, &e) ==
          RL_ERR_INVALID);
    CHECK(strcmp(e.field, "dtype") == 0);
    CHECK_STR_CONTAINS(e.message, "--dtype mxfp8: preset h100-sxm has no block-scaled tensor cores");
    CHECK(rl_roof_resolve(&(rl_roof_request){.hw = "h20", .dtype = RL_DTYPE_NVFP4}, &rr, &e) == RL_ERR_INVALID);
    CHECK_STR_CONTAINS(e.message, "preset h20");
    /* The scale bytes, by hand: nvfp4 4 bit + one e4m3 per 16 = 4.5 bit = 0.5625 B; mxfp4 4 bit +
     * one e8m0 per 32 = 4.25 bit = 0.53125 B; mxfp8 8 bit + 8/32 = 8.25 bit = 1.03125 B. */
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_NVFP4), 0.5625, 0);
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_MXFP4), 0.53125, 0);
    CHECK_CLOSE(rl_dtype_bytes(RL_DTYPE_MXFP8), 1.03125, 0);
    CHECK(rl_roof_resolve(&(rl_roof_request){.hw = "h100-sxm", .dtype = RL_DTYPE_MXFP8, .peak = "2 PFLOP/s"},
                          &rr, &e) == RL_OK);
    CHECK_CLOSE(rr.roof.peak_flops_per_s, 2e15, 0);
}

/* The three fields of issue 18 part 1: --page-size, --kv-lens (a list), --topk. */
static void lists_and_new_variants(void) {
    rl_problem p;
    memset(&p, 0, sizeof p);
    rl_error e;
    char buf[128];
    /* The list's grammar: LEN or LENxCOUNT, comma-separated, kept in the order typed. */
    CHECK(rl_problem_set_text(&p, RL_FIELD_KV_LENS, "4096x60,32768x4,512", NULL, &e) == RL_OK);
    CHECK(p.kv_lens.n == 3 && p.kv_lens.pair[0].len == 4096 && p.kv_lens.pair[0].count == 60 &&
          p.kv_lens.pair[1].len == 32768 && p.kv_lens.pair[1].count == 4 &&
          p.kv_lens.pair[2].len == 512 && p.kv_lens.pair[2].count == 1);
    CHECK(rl_problem_get(&p, RL_FIELD_KV_LENS) == 3); /* as an integer: the pairs */
    CHECK(rl_problem_value_text(&p, RL_FIELD_KV_LENS, buf, sizeof buf) == 19 &&
          strcmp(buf, "4096x60,32768x4,512") == 0);
    rl_problem r;
    CHECK(rl_problem_resolve(&p, &r, &e) == RL_OK && r.batch == 65 && r.kv_len == 32768);
    /* Refusals name the flag and the item. */
    const char *bad[] = {"", "512,,4096", "0", "512x0", "512,", "-5", "5 12", "4096X2", "1e3", "16777217"};
    const char *item[] = {NULL, "item 2", "item 1", "item 1", NULL, "item 1", "item 1", "item 1", "item 1", "item 1"};
    for (size_t i = 1; i < sizeof bad / sizeof bad[0]; i++) {
        rl_problem q;
        memset(&q, 0, sizeof q);
        CHECK(rl_problem_set_text(&q, RL_FIELD_KV_LENS, bad[i], NULL, &e) != RL_OK);
        CHECK(strcmp(e.field, "kv-lens") == 0);
        if (item[i]) CHECK_STR_CONTAINS(e.message, item[i]);
        CHECK_STR_CONTAINS(e.message, "LENxCOUNT");
    }
    CHECK(rl_problem_set_text(&p, RL_FIELD_KV_LENS, "", NULL, &e) == RL_OK && p.kv_lens.n == 0); /* off */
    char many[65 * 3 + 1] = "";
    for (int i = 0; i < 65; i++) strcat(many, i ? ",16" : "16");
    CHECK(rl_kv_lens_parse(many, NULL, &p.kv_lens, &e) == RL_ERR_RANGE);
    CHECK_STR_CONTAINS(e.message, "at most 64 items");
    CHECK(rl_problem_set(&p, RL_FIELD_KV_LENS, 3, NULL, &e) != RL_OK); /* a list has no integer form */
    CHECK(rl_problem_set(&p, RL_FIELD_KV_LENS, 0, NULL, &e) == RL_OK && p.kv_lens.n == 0);
    /* The batch and L follow the list; a contradicting --batch or --kv-len is refused by name. */
    rl_problem q;
    memset(&q, 0, sizeof q);
    CHECK(rl_kv_lens_parse("512,4096", NULL, &q.kv_lens, NULL) == RL_OK);
    q.batch = 3;
    CHECK(rl_problem_resolve(&q, NULL, &e) == RL_ERR_INCONSISTENT && strcmp(e.field, "batch") == 0);
    q.batch = 2;
    q.kv_len = 512;
    CHECK(rl_problem_resolve(&q, NULL, &e) == RL_ERR_INCONSISTENT && strcmp(e.field, "kv-len") == 0);
    q.kv_len = 4096;
    CHECK(rl_problem_resolve(&q, NULL, &e) == RL_OK);
    q.seq = 1024;
    q.causal = 1; /* 1024 query rows cannot be the last rows of a 512-key sequence */
    CHECK(rl_problem_resolve(&q, NULL, &e) == RL_ERR_INCONSISTENT && strcmp(e.field, "kv-lens") == 0);
    CHECK_STR_CONTAINS(e.message, "512 (the shortest in --kv-lens)");
    q.causal = 0;
    q.pass = RL_PASS_BWD;
    CHECK(rl_problem_resolve(&q, NULL, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "kv-lens") == 0);
    /* --page-size and --topk: integers 1 … max, 0 = off; text "0" refused like every size. */
    memset(&p, 0, sizeof p);
    CHECK(rl_problem_set_text(&p, RL_FIELD_PAGE_SIZE, "16", NULL, &e) == RL_OK && p.page_size == 16);
    CHECK(rl_problem_set_text(&p, RL_FIELD_PAGE_SIZE, "0", NULL, &e) == RL_ERR_RANGE);
    CHECK(strcmp(e.field, "page-size") == 0);
    CHECK(rl_problem_set_text(&p, RL_FIELD_TOPK, "2048", NULL, &e) == RL_OK && p.topk == 2048);
    CHECK(rl_problem_set_text(&p, RL_FIELD_TOPK, "2k", NULL, &e) == RL_ERR_RANGE && strcmp(e.field, "topk") == 0);
    CHECK(rl_problem_resolve(&p, NULL, &e) == RL_OK);
    /* A profile that does not model them refuses them by flag (fa4: no paged, no top-k, no
     * ragged batch). */
    const rl_hw *h = rl_hw_find("b200");
    const rl_roof roof = {h->bandwidth_bytes_per_s, h->peak_flops_per_s[RL_PEAK_FP16_TENSOR]};
    rl_prediction pr;
    const rl_kernel_spec spec = {.kernel = RL_KERNEL_FA4};
    rl_problem v;
    memset(&v, 0, sizeof v);
    v.seq = 1;
    v.page_size = 16;
    CHECK(rl_predict(&v, h, roof, &spec, &pr, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "page-size") == 0);
    v.page_size = 0;
    v.topk = 2048;
    CHECK(rl_predict(&v, h, roof, &spec, &pr, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "topk") == 0);
    v.topk = 0;
    CHECK(rl_kv_lens_parse("512,4096", NULL, &v.kv_lens, NULL) == RL_OK);
    CHECK(rl_predict(&v, h, roof, &spec, &pr, &e) == RL_ERR_UNSUPPORTED && strcmp(e.field, "kv-lens") == 0);
}

/* The kernel spec's fields (RL_KERNEL_FIELDS): the CLI's flags, their limits and their messages. */
static void kernel_fields_are_one_table(void) {
    CHECK(RL_KERNEL_FIELD_COUNT == 5);
    const char *flags[] = {"kernel", "gqa-pack", "splits", "ctas-per-sm", "cores"};
    for (int f = 0; f < RL_KERNEL_FIELD_COUNT; f++) {
        const rl_kfield_info *fi = rl_kernel_field_info((rl_kernel_field)f);
        CHECK(strcmp(fi->flag, flags[f]) == 0);
        CHECK(rl_kernel_field_find(fi->flag) == f && rl_kernel_field_find(fi->key) == f);
    }
    CHECK(rl_kernel_field_info(RL_KERNEL_FIELD_COUNT) == NULL);
    rl_kernel_spec s = {0};
    rl_error e;
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_SPLITS, "128", NULL, &e) == RL_OK && s.splits == 128);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_SPLITS, "129", NULL, &e) == RL_ERR_RANGE);
    CHECK(strcmp(e.message, "splits: expected an integer from 1 to 128, got \"129\"") == 0);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_SPLITS, "0", NULL, &e) != RL_OK); /* typed: 1 … 128 */
    CHECK(rl_kernel_spec_set(&s, RL_KFIELD_SPLITS, 0, NULL, &e) == RL_OK && s.splits == 0); /* 0 = the profile's */
    CHECK(rl_kernel_spec_set(&s, RL_KFIELD_CTAS_PER_SM, 33, NULL, &e) == RL_ERR_RANGE);
    CHECK(strcmp(e.message, "ctas-per-sm: expected a whole number from 0 to 32, got 33") == 0);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_GQA_PACK, "packed", NULL, &e) == RL_OK &&
          s.gqa_pack == RL_PACK_PACKED);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_GQA_PACK, "both", "gqa-pack", &e) != RL_OK);
    CHECK(strcmp(e.message, "gqa-pack: expected packed or per-head, got \"both\"") == 0);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_CORES, "q", NULL, &e) != RL_OK);
    CHECK(strcmp(e.message, "cores: expected one of cuda, tensor, cuda-single, got \"q\"") == 0);
    CHECK(rl_kernel_spec_set_text(&s, RL_KFIELD_KERNEL, "fa3", NULL, &e) == RL_OK && s.kernel == RL_KERNEL_FA3);
    CHECK(rl_kernel_spec_get(&s, RL_KFIELD_KERNEL) == RL_KERNEL_FA3);
    CHECK(strcmp(rl_kernel_field_choice(RL_KFIELD_CORES, RL_CORES_CUDA_SINGLE), "cuda-single") == 0);
    CHECK(rl_kernel_field_choice(RL_KFIELD_SPLITS, 1) == NULL);
}

/* MODEL.md's first example, B=1 H=8 N=L=16384 d=64 fp16, Br=Bc=64, on a typed roof (no preset). */
static rl_problem first_example(rl_report *r) {
    rl_problem p = {0};
    p.heads = 8, p.seq = 16384, p.head_dim = 64;
    rl_roof roof = {2.039e12, 312e12};
    CHECK(rl_report_compute(&p, NULL, roof, r, NULL) == RL_OK);
    return p;
}

/* The report-output table: names unique, the problem's keys first, values by hand (MODEL.md's
 * first example: B=1 H=8 N=L=16384 d=64 fp16, Br=Bc=64). */
static void report_outputs_are_one_table(void) {
    for (size_t i = 0; i < rl_output_count(); i++)
        for (size_t k = i + 1; k < rl_output_count(); k++)
            CHECK(strcmp(rl_output_info_at(i)->name, rl_output_info_at(k)->name) != 0);
    CHECK(rl_output_info_at(rl_output_count()) == NULL);
    CHECK(rl_output_find("problem.score_dtype") == RL_FIELD_SCORE_DTYPE);
    rl_report r;
    first_example(&r);
    const rl_output_view v = {&r, NULL, NULL};
    const int bytes = rl_output_find("models.tiled.bytes");
    CHECK(bytes >= 0 && rl_output_info_at((size_t)bytes)->unit == RL_DIM_BYTES);
    /* Q + O + 256 × (K + V) = 2·(8·16384·64·2) + 256·2·(8·16384·64·2) = 8 623 489 024 B */
    rl_output_value ov = rl_output_get((size_t)bytes, &v);
    CHECK(ov.state == RL_OUTV_VALUE && ov.number == 8623489024.0);
    /* F = 4·B·H·d·N·L = 4·8·64·16384² = 549 755 813 888 FLOP */
    CHECK(rl_output_get((size_t)rl_output_find("flops"), &v).number == 549755813888.0);
    ov = rl_output_get((size_t)rl_output_find("models.tiled.bound"), &v);
    CHECK(ov.text && strcmp(ov.text, "memory") == 0);
    /* no prediction: "predicted" is null as a whole */
    ov = rl_output_get((size_t)rl_output_find("predicted.time_s"), &v);
    CHECK(ov.state == RL_OUTV_NULL && ov.depth == 1);
    /* no preset: no memory levels, "models.tiled.levels" left out */
    ov = rl_output_get((size_t)rl_output_find("models.tiled.levels.l2.bytes"), &v);
    CHECK(ov.state == RL_OUTV_OMIT && ov.depth == 3);
    ov = rl_output_get((size_t)rl_output_find("problem.dtype"), &v);
    CHECK(ov.number == RL_DTYPE_FP16 && strcmp(ov.text, "fp16") == 0);
}

/* rl_output_fill (the binding's report slots in one call) gives, entry by entry, what
 * rl_output_get gives: the number where the entry has a value, NaN where it is null or left out.
 * Views that exercise every condition group: no preset, a prediction with memory levels, the
 * backward pass (naive null, "unmodelled"), sparse MLA (the indexer, the MLA limit). */
static void fill_matches(const rl_problem *p, const char *hw_id, rl_kernel kernel, int want_pred) {
    const rl_hw *hw = hw_id ? rl_hw_find(hw_id) : NULL;
    rl_roof roof = {3.35e12, 989e12};
    rl_report r;
    rl_prediction pr;
    rl_kernel_spec spec = {0};
    spec.kernel = kernel;
    CHECK(rl_report_compute(p, hw, roof, &r, NULL) == RL_OK);
    const int predicted = hw && rl_predict(p, hw, roof, &spec, &pr, NULL) == RL_OK;
    CHECK(predicted == want_pred);
    const rl_output_view v = {&r, predicted ? &pr : NULL, hw};
    double out[1024];
    CHECK(rl_output_count() <= 1024);
    CHECK(rl_output_fill(&v, out, 1024) == rl_output_count());
    size_t values = 0;
    for (size_t i = 0; i < rl_output_count(); i++) {
        const rl_output_value g = rl_output_get(i, &v);
        if (g.state == RL_OUTV_VALUE) {
            values++;
            CHECK(out[i] == g.number || (isnan(out[i]) && isnan(g.number)));
        } else {
            CHECK(isnan(out[i]));
        }
    }
    CHECK(values > 0);
}

static void batched_fill_is_the_table(void) {
    rl_report r;
    const rl_problem p = first_example(&r);
    const rl_output_view v = {&r, NULL, NULL};
    double out[1024];
    /* as in report_outputs_are_one_table: 8 623 489 024 B, F = 4·8·64·16384² */
    CHECK(rl_output_fill(&v, out, 1024) == rl_output_count());
    CHECK(out[rl_output_find("models.tiled.bytes")] == 8623489024.0);
    CHECK(out[rl_output_find("flops")] == 549755813888.0);
    CHECK(out[rl_output_find("problem.heads")] == 8);
    CHECK(out[rl_output_find("models.tiled.bound")] == RL_BOUND_MEMORY);
    CHECK(isnan(out[rl_output_find("predicted.time_s")])); /* no prediction */
    CHECK(out[rl_output_find("hw")] == 0); /* a text entry: its number is 0 (rooflab.h) */
    /* too small a buffer, or no view: nothing written */
    out[0] = -1;
    CHECK(rl_output_fill(&v, out, rl_output_count() - 1) == 0 && out[0] == -1);
    CHECK(rl_output_fill(NULL, out, 1024) == 0 && rl_output_fill(&v, NULL, 1024) == 0);

    fill_matches(&p, NULL, RL_KERNEL_GENERIC, 0);
    rl_problem c = {.heads = 16, .seq = 4096, .head_dim = 128, .causal = 1};
    fill_matches(&c, "h100-sxm", RL_KERNEL_FA3, 1);
    rl_problem b = c;
    b.pass = RL_PASS_BWD;
    fill_matches(&b, "h100-sxm", RL_KERNEL_GENERIC, 1);
    rl_problem mla = {.batch = 64, .heads = 128, .seq = 1, .kv_len = 32768, .topk = 2048,
                      .kv_lora_rank = 512, .rope_dim = 64, .dtype = RL_DTYPE_BF16,
                      .kv_dtype = RL_DTYPE_FP8};
    fill_matches(&mla, "h100-sxm", RL_KERNEL_FLASHMLA, 1);
    fill_matches(&mla, "h100-sxm", RL_KERNEL_FA3, 0); /* fa3 refuses --topk: predicted null */
}

/* The ledger terms (RL_TERMS): a name, a meaning and a reason for every term. */
static void ledger_terms_are_one_table(void) {
    CHECK(RL_TERM_COUNT == 7);
    CHECK(strcmp(rl_term_name(RL_TERM_WAVES), "waves") == 0);
    for (int t = 0; t < RL_TERM_COUNT; t++)
        CHECK(rl_term_meaning((rl_term)t)[0] && rl_term_why_loses((rl_term)t)[0]);
    CHECK(rl_term_meaning(RL_TERM_COUNT)[0] == '\0');
}

int main(void) {
    kernel_fields_are_one_table();
    report_outputs_are_one_table();
    batched_fill_is_the_table();
    ledger_terms_are_one_table();
    names_have_one_spelling();
    variants_are_validated();
    defaults_are_designs();
    typed_text_is_parsed_or_refused();
    integers_are_refused_as_core_refuses();
    roof_resolution();
    lists_and_new_variants();
    return check_report("test_fields");
}
