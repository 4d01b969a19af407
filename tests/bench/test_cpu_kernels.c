/* test_cpu_kernels.c — the CPU attention kernels against hand-derived values and against the fp64
 * reference on small problems: causal and not, N < L, N not a multiple of Br, L not a multiple of
 * Bc, GQA, decode (N = 1), 1 and 3 threads. Outputs are poisoned (NaN) before every call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn_cpu.h"
#include "bench.h"
#include "bench_check.h"


typedef int (*kernel_fn)(const rlk_shape *, const float *, const float *, const float *, float *,
                         int threads);
static int run_naive(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                     int threads) {
    return rlk_cpu_naive(s, q, k, v, o, NULL, threads);
}
static int run_tiled(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                     int threads) {
    return rlk_cpu_tiled(s, q, k, v, o, threads);
}

/* d = 1, scale 1: q = 1; keys 0 and ln 3 give weights 1/4 and 3/4; values 4 and 8 → 7.
 * Causal with N = L = 2: row 0 sees key 0 only → 4; row 1 sees both → 7. */
static void hand_values_should_match(const char *name, kernel_fn fn) {
    const float q[2] = {1.0f, 1.0f}, k[2] = {0.0f, (float)log(3.0)}, v[2] = {4.0f, 8.0f};
    float o[2];
    rlk_shape s = {.batch = 1, .heads = 1, .kv_heads = 1, .seq = 2, .kv_len = 2, .head_dim = 1,
                   .causal = 0, .block_m = 1, .block_n = 1, .scale = 1.0f};
    memset(o, 0xFF, sizeof o);
    CHECK(fn(&s, q, k, v, o, 1) == 0, "%s: refused the hand problem", name);
    CHECK(fabs(o[0] - 7.0) < 1e-5 && fabs(o[1] - 7.0) < 1e-5, "%s non-causal: got %g %g, want 7 7",
          name, o[0], o[1]);
    s.causal = 1;
    memset(o, 0xFF, sizeof o);
    CHECK(fn(&s, q, k, v, o, 2) == 0, "%s: refused the causal hand problem", name);
    CHECK(fabs(o[0] - 4.0) < 1e-5 && fabs(o[1] - 7.0) < 1e-5, "%s causal: got %g %g, want 4 7",
          name, o[0], o[1]);
    /* Decode-style alignment: N = 1 query against L = 2 keys sees both (the last position). */
    s.seq = 1;
    memset(o, 0xFF, sizeof o);
    CHECK(fn(&s, q, k, v, o, 1) == 0, "%s: refused N=1 L=2", name);
    CHECK(fabs(o[0] - 7.0) < 1e-5, "%s causal N=1 L=2: got %g, want 7", name, o[0]);
}

static void reference_should_match_hand_values(void) {
    rl_problem p = {.batch = 1, .heads = 1, .kv_heads = 1, .seq = 2, .kv_len = 2, .head_dim = 1,
                    .causal = 1};
    const float q[1] = {1.0f}, k[2] = {0.0f, (float)log(3.0)}, v[2] = {4.0f, 8.0f};
    const float o0[1] = {4.0f}, o1[1] = {7.0f}, bad[1] = {7.5f};
    rlb_ref_acc acc = {0};
    rlb_ref_row(&p, 1.0, 0, q, k, v, o0, &acc);
    rlb_ref_row(&p, 1.0, 1, q, k, v, o1, &acc);
    rlb_check c;
    rlb_ref_finish(&acc, 1e-5, 2, 0, &c);
    CHECK(c.passed && c.rel_l2_error < 1e-6, "reference: hand values rel err %g", c.rel_l2_error);
    rlb_ref_acc acc2 = {0};
    rlb_ref_row(&p, 1.0, 1, q, k, v, bad, &acc2);
    rlb_ref_finish(&acc2, 1e-5, 2, 0, &c);
    /* |7.5 − 7| / 7 */
    CHECK(!c.passed && fabs(c.rel_l2_error - 0.5 / 7.0) < 1e-6, "reference: wrong value passed (%g)",
          c.rel_l2_error);
    const float nan1[1] = {NAN};
    rlb_ref_acc acc3 = {0};
    rlb_ref_row(&p, 1.0, 1, q, k, v, nan1, &acc3);
    rlb_ref_finish(&acc3, 1e-5, 2, 0, &c);
    CHECK(!c.passed && isnan(c.rel_l2_error), "reference: NaN must never pass");
}

static void kernel_should_match_reference(const char *name, kernel_fn fn, int64_t B, int64_t H,
                                          int64_t Hkv, int64_t N, int64_t L, int64_t d,
                                          int causal, int64_t br, int64_t bc, int threads) {
    rlk_shape s = {.batch = B, .heads = H, .kv_heads = Hkv, .seq = N, .kv_len = L, .head_dim = d,
                   .causal = causal, .block_m = br, .block_n = bc,
                   .scale = (float)(1.0 / sqrt((double)d))};
    const size_t nq = (size_t)(B * H * N * d), nk = (size_t)(B * Hkv * L * d);
    float *q = malloc(nq * 4), *o = malloc(nq * 4), *k = malloc(nk * 4), *v = malloc(nk * 4);
    if (!q || !o || !k || !v) {
        CHECK(0, "out of memory");
        goto done;
    }
    rlb_fill_uniform(q, nq, 1000u + (uint64_t)N);
    rlb_fill_uniform(k, nk, 2000u + (uint64_t)L);
    rlb_fill_uniform(v, nk, 3000u + (uint64_t)d);
    memset(o, 0xFF, nq * 4);
    CHECK(fn(&s, q, k, v, o, threads) == 0, "%s refused a valid problem", name);
    /* The benchmark's own check, on every row (fp32: tolerance 1e-5). */
    rl_problem p = {.batch = B, .heads = H, .kv_heads = Hkv, .seq = N, .kv_len = L, .head_dim = d,
                    .causal = causal, .dtype = RL_DTYPE_FP32};
    const rlb_options opt = {.check_rows = B * H * N};
    const rlb_host_inputs host = {q, k, v, L, d};
    const rlb_inputs in = rlb_inputs_host(&host);
    rlb_check c;
    memset(&c, 0, sizeof c);
    CHECK(rlb_check_output(&opt, &p, (double)s.scale, 7u, o, &in, &c) == 0, "%s: check failed", name);
    CHECK(c.rows_checked == B * H * N, "%s: checked %lld rows", name, (long long)c.rows_checked);
    CHECK(c.passed,
          "%s B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld causal=%d Br=%lld Bc=%lld threads=%d: rel "
          "L2 %g, %lld non-finite",
          name, (long long)B, (long long)H, (long long)Hkv, (long long)N, (long long)L,
          (long long)d, causal, (long long)br, (long long)bc, threads, c.rel_l2_error,
          (long long)c.nonfinite);
done:
    free(q);
    free(o);
    free(k);
    free(v);
}

static void bad_shapes_should_be_refused(void) {
    float x[16] = {0};
    rlk_shape s = {.batch = 1, .heads = 3, .kv_heads = 2, .seq = 1, .kv_len = 1, .head_dim = 1,
                   .block_m = 1, .block_n = 1, .scale = 1.0f};
    CHECK(rlk_cpu_tiled(&s, x, x, x, x, 1) == -1, "H not a multiple of Hkv accepted");
    s.heads = 2;
    s.seq = 3;
    s.kv_len = 2;
    s.causal = 1;
    CHECK(rlk_cpu_naive(&s, x, x, x, x, NULL, 1) == -1, "causal with N > L accepted");
}

static void stats_and_rows_should_be_exact(void) {
    const double t3[] = {3, 1, 2}, t4[] = {4, 1, 3, 2};
    rlb_stats st;
    rlb_stats_from(t3, 3, 1, &st);
    CHECK(st.median_s == 2 && st.min_s == 1 && st.max_s == 3 && st.runs == 3, "stats of 3");
    rlb_stats_from(t4, 4, 0, &st);
    CHECK(st.median_s == 2.5 && st.min_s == 1 && st.max_s == 4, "stats of 4");
    /* mean 2.5; sample stddev √((2.25 + 2.25 + 0.25 + 0.25) / 3) = √(5/3) = 1.2909944 */
    CHECK(st.mean_s == 2.5 && fabs(st.stddev_s - 1.2909944487) < 1e-9, "mean and stddev of 4");
    rlb_stats_from(t3, 3, 1, &st); /* mean 2; √((1 + 1 + 0) / 2) = 1 */
    CHECK(st.mean_s == 2 && fabs(st.stddev_s - 1) < 1e-15, "mean and stddev of 3");
    rlb_stats_from(t3, 1, 0, &st); /* one run: no spread */
    CHECK(st.mean_s == 3 && st.stddev_s < 0 && st.runs == 1, "one run: stddev unknown");
    int64_t rows[8];
    int64_t n = rlb_pick_rows(1000, 8, 42, rows);
    CHECK(n == 8 && rows[0] == 0 && rows[7] == 999, "rows: first and last");
    for (int i = 1; i < 8; i++) CHECK(rows[i] > rows[i - 1], "rows sorted and distinct");
    CHECK(rlb_pick_rows(5, 8, 1, rows) == 5 && rows[4] == 4, "rows: all when few");
}

int main(void) {
    hand_values_should_match("naive", run_naive);
    hand_values_should_match("tiled", run_tiled);
    reference_should_match_hand_values();
    bad_shapes_should_be_refused();
    stats_and_rows_should_be_exact();
    const struct {
        const char *name;
        kernel_fn fn;
    } ks[] = {{"naive", run_naive}, {"tiled", run_tiled}};
    for (int i = 0; i < 2; i++) {
        for (int causal = 0; causal <= 1; causal++) {
            /* N, L not multiples of Br = 16 / Bc = 24; GQA 4 over 2 */
            kernel_should_match_reference(ks[i].name, ks[i].fn, 2, 4, 2, 77, 77, 32, causal, 16, 24, 3);
            /* N < L (causal aligns the last query with the last key) */
            kernel_should_match_reference(ks[i].name, ks[i].fn, 1, 2, 2, 50, 130, 64, causal, 32, 16, 1);
            /* Br larger than N, Bc larger than L */
            kernel_should_match_reference(ks[i].name, ks[i].fn, 1, 1, 1, 5, 9, 8, causal, 64, 64, 2);
        }
        /* GQA decode: N = 1 against 1000 keys, 8 query heads over 2 KV heads, and MQA */
        kernel_should_match_reference(ks[i].name, ks[i].fn, 2, 8, 2, 1, 1000, 64, 0, 64, 64, 3);
        kernel_should_match_reference(ks[i].name, ks[i].fn, 1, 4, 1, 1, 333, 128, 1, 64, 50, 2);
    }
    return bench_check_report("cpu kernels");
}
