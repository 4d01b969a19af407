/* bench_common.c — kernel names, the harness both backends share (progress, run counts, case
 * descriptions, the loop over the cases, the check against fp64), statistics, the fp64 reference,
 * provenance. No calls into core: this file is also linked into the CUDA backend library. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attn_shape.h" /* rlk_kv_head */
#include "bench.h"
#include "rooflab/rooflab.h"

static const char *const kernel_names[RLB_KERNEL_COUNT] = {
    "cpu-naive",       "cpu-tiled",   "cuda-naive", "cuda-tiled-fp32",
    "cuda-tiled-tc",   "cuda-tiled-mma", "cuda-decode", "torch-sdpa-flash",
};
/* Bump a kernel's version whenever its code changes what it computes or how fast. */
static const char *const kernel_versions[RLB_KERNEL_COUNT] = {"1", "2", "1", "1", "1", "1", "1",
                                                              "torch"};

const char *rlb_kernel_name(rlb_kernel k) {
    return (unsigned)k < RLB_KERNEL_COUNT ? kernel_names[k] : "unknown";
}
const char *rlb_kernel_version(rlb_kernel k) {
    return (unsigned)k < RLB_KERNEL_COUNT ? kernel_versions[k] : "unknown";
}
int rlb_kernel_parse(const char *name) {
    for (int k = 0; k < RLB_KERNEL_COUNT; k++)
        if (name && strcmp(name, kernel_names[k]) == 0) return k;
    return -1;
}

/* ---- the harness both backends share -------------------------------------------------------- */

void rlb_progress(const rlb_options *opt, const char *fmt, ...) {
    if (!opt->progress) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    opt->progress(opt->progress_ctx, line);
}

int rlb_choose_runs(const rlb_options *opt, double t_est, rlb_budget quick, rlb_budget full) {
    if (opt->runs > 0) return opt->runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : opt->runs;
    const rlb_budget b = opt->quick ? quick : full;
    int n = t_est > 0 ? (int)ceil(b.seconds / t_est) : b.max_runs;
    if (n < b.min_runs) n = b.min_runs;
    if (n > b.max_runs) n = b.max_runs;
    return n;
}

int rlb_ceiling_runs(const rlb_options *opt, int runs) {
    if (opt->runs > 0) return opt->runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : opt->runs;
    return runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : runs;
}

void rlb_ceiling_from_runs(rlb_ceiling *c, const char *name, int is_bandwidth, rl_dtype dtype,
                           double work, const double *times_s, int runs, int warmup) {
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->is_bandwidth = is_bandwidth;
    c->dtype = dtype;
    c->work = work;
    rlb_stats_from(times_s, runs, warmup, &c->t);
    c->value = c->work / c->t.min_s;
}

static const char *const dtype_names[] = {"default", "fp32", "tf32", "fp16", "bf16", "fp8"};

const char *rlb_dtype_name(rl_dtype dtype) {
    return (unsigned)dtype < sizeof dtype_names / sizeof dtype_names[0] ? dtype_names[dtype]
                                                                         : "unknown";
}

void rlb_case_describe(const rlb_case *c, int with_tile, char *buf, size_t cap) {
    const rl_problem *p = &c->problem;
    char tile[64] = "";
    if (with_tile)
        snprintf(tile, sizeof tile, " Br=%lld Bc=%lld", (long long)p->block_m, (long long)p->block_n);
    snprintf(buf, cap, "%s %s B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld%s%s",
             rlb_kernel_name(c->kernel), rlb_dtype_name(p->dtype), (long long)p->batch,
             (long long)p->heads, (long long)p->kv_heads, (long long)p->seq, (long long)p->kv_len,
             (long long)p->head_dim, tile, p->causal ? " causal" : "");
}

uint64_t rlb_case_seed(const rlb_options *opt, int index) {
    return rlb_mix64(opt->seed + (uint64_t)index);
}

int rlb_run_cases(const rlb_options *opt, const rlb_case *cases, int n, const rlb_backend *be,
                  rlb_run *out, char *why, size_t cap) {
    for (int i = 0; i < n; i++) {
        char desc[256];
        rlb_case_describe(&cases[i], be->tile_in_progress, desc, sizeof desc);
        if (be->run_case(be->ctx, &cases[i], rlb_case_seed(opt, i), &out->results[i], why, cap) !=
            0) {
            char msg[RLB_TEXT_MAX + 300];
            snprintf(msg, sizeof msg, "%s: %s", desc, why);
            snprintf(why, cap, "%s", msg);
            out->result_count = i;
            return 1;
        }
        const rlb_result *r = &out->results[i];
        if (r->ran)
            rlb_progress(opt, "[%d/%d] %s: median %.*f ms (%d runs), rel L2 err %.2e %s", i + 1, n,
                         desc, be->ms_decimals, r->t.median_s * 1e3, r->t.runs,
                         r->check.rel_l2_error, r->check.passed ? "ok" : "FAILED");
        else
            rlb_progress(opt, "[%d/%d] %s: skipped (%s)", i + 1, n, desc, r->skip_reason);
    }
    out->result_count = n;
    return 0;
}

/* Rows of the check, each against the fp64 reference; the K/V head is loaded when it changes. */
static int check_rows(const rl_problem *p, double scale, const int64_t *rows, int64_t nr,
                      const float *o, const rlb_inputs *in, rlb_ref_acc *acc) {
    const int64_t G = p->heads / p->kv_heads, d = p->head_dim;
    const float *q = NULL, *kh = NULL, *vh = NULL;
    int64_t loaded = -1;
    for (int64_t x = 0; x < nr; x++) {
        const int64_t r = rows[x], bh = r / p->seq, i = r % p->seq;
        const int64_t kvh = rlk_kv_head(bh / p->heads, bh % p->heads, p->kv_heads, G);
        int rc = 0;
        if (kvh != loaded && (rc = in->kv(in->ctx, kvh, &kh, &vh)) != 0) return rc;
        loaded = kvh;
        if ((rc = in->query(in->ctx, r, &q)) != 0) return rc;
        rlb_ref_row(p, scale, i, q, kh, vh, o + r * d, acc);
    }
    return 0;
}

int rlb_check_output(const rlb_options *opt, const rl_problem *p, double scale, uint64_t seed,
                     const float *o, const rlb_inputs *in, rlb_check *out) {
    const size_t nq = (size_t)(p->batch * p->heads * p->seq * p->head_dim);
    int64_t nonfinite = 0;
    for (size_t x = 0; x < nq; x++) nonfinite += !isfinite(o[x]);
    const int64_t total = p->batch * p->heads * p->seq;
    const int64_t cap_rows = opt->check_rows > 0 ? opt->check_rows : 256;
    int64_t *rows = (int64_t *)malloc((size_t)(cap_rows < total ? cap_rows : total) * sizeof *rows);
    if (!rows) return -1;
    const int64_t nr = rlb_pick_rows(total, cap_rows, seed ^ RLB_SEED_ROWS, rows);
    rlb_ref_acc acc;
    memset(&acc, 0, sizeof acc);
    const int rc = check_rows(p, scale, rows, nr, o, in, &acc);
    free(rows);
    if (rc != 0) return rc;
    rlb_ref_finish(&acc, rlb_tolerance(p->dtype), total, nonfinite, out);
    return 0;
}

static int host_query(void *ctx, int64_t row, const float **q) {
    const rlb_host_inputs *t = (const rlb_host_inputs *)ctx;
    *q = t->q + row * t->head_dim;
    return 0;
}

static int host_kv(void *ctx, int64_t kv_head, const float **k, const float **v) {
    const rlb_host_inputs *t = (const rlb_host_inputs *)ctx;
    *k = t->k + kv_head * t->kv_len * t->head_dim;
    *v = t->v + kv_head * t->kv_len * t->head_dim;
    return 0;
}

rlb_inputs rlb_inputs_host(const rlb_host_inputs *t) {
    rlb_inputs in = {host_query, host_kv, (void *)t};
    return in;
}

/* ---- statistics --------------------------------------------------------------------------- */

void rlb_stats_from(const double *times_s, int n, int warmup, rlb_stats *out) {
    memset(out, 0, sizeof *out);
    out->warmup = warmup;
    if (n <= 0) return;
    double *t = (double *)malloc((size_t)n * sizeof *t);
    if (!t) return;
    memcpy(t, times_s, (size_t)n * sizeof *t);
    rl_time_stats st = rl_time_stats_of(t, (size_t)n);
    out->median_s = st.median_s;
    out->min_s = st.min_s;
    out->max_s = st.max_s;
    out->mean_s = st.mean_s;
    out->stddev_s = st.stddev_s;
    out->runs = n;
    free(t);
}

double rlb_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t rlb_mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rlb_fill_uniform(float *p, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        uint64_t h = rlb_mix64(seed ^ rlb_mix64((uint64_t)i));
        float u = (float)(h >> 40) * (1.0f / 16777216.0f);
        p[i] = (2.0f * u - 1.0f) * 1.7320508f;
    }
}

/* ---- fp64 reference ------------------------------------------------------------------------ */

double rlb_tolerance(rl_dtype dtype) {
    switch (dtype) {
    case RL_DTYPE_FP32: return 1e-5;
    case RL_DTYPE_TF32: return 1e-3;
    case RL_DTYPE_FP16:
    case RL_DTYPE_BF16: return 1e-2;
    default: return 5e-2; /* fp8 */
    }
}

void rlb_ref_row(const rl_problem *p, double scale, int64_t i, const float *q, const float *kh,
                 const float *vh, const float *o, rlb_ref_acc *acc) {
    const int64_t L = p->kv_len, d = p->head_dim;
    int64_t nv = L;
    if (p->causal) {
        nv = i + L - p->seq + 1;
        if (nv > L) nv = L;
    }
    double *s = (double *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof *s);
    double *ref = (double *)calloc((size_t)d, sizeof *ref);
    if (!s || !ref) {
        free(s);
        free(ref);
        acc->nonfinite += d; /* cannot check: count as failed, never as passed */
        return;
    }
    double m = -INFINITY;
    for (int64_t j = 0; j < nv; j++) {
        double x = 0.0;
        for (int64_t c = 0; c < d; c++) x += (double)q[c] * (double)kh[j * d + c];
        s[j] = x * scale;
        if (s[j] > m) m = s[j];
    }
    double sum = 0.0;
    for (int64_t j = 0; j < nv; j++) {
        s[j] = exp(s[j] - m);
        sum += s[j];
    }
    for (int64_t j = 0; j < nv; j++) {
        const double w = s[j] / sum;
        for (int64_t c = 0; c < d; c++) ref[c] += w * (double)vh[j * d + c];
    }
    for (int64_t c = 0; c < d; c++) {
        const double x = (double)o[c];
        if (!isfinite(x)) {
            acc->nonfinite++;
            continue;
        }
        const double e = fabs(x - ref[c]);
        acc->err2 += e * e;
        acc->ref2 += ref[c] * ref[c];
        if (e > acc->max_abs) acc->max_abs = e;
    }
    acc->rows++;
    free(s);
    free(ref);
}

void rlb_ref_finish(const rlb_ref_acc *acc, double tolerance, int64_t rows_total,
                    int64_t nonfinite_all, rlb_check *out) {
    memset(out, 0, sizeof *out);
    out->tolerance = tolerance;
    out->rows_checked = acc->rows;
    out->rows_total = rows_total;
    out->nonfinite = nonfinite_all > acc->nonfinite ? nonfinite_all : acc->nonfinite;
    out->max_abs_error = acc->max_abs;
    out->rel_l2_error = (out->nonfinite || !(acc->ref2 > 0.0)) ? NAN : sqrt(acc->err2 / acc->ref2);
    /* NaN never passes: the comparison below is false for NaN. */
    out->passed = acc->rows > 0 && out->nonfinite == 0 && out->rel_l2_error <= tolerance;
}

int64_t rlb_pick_rows(int64_t total, int64_t cap, uint64_t seed, int64_t *rows) {
    if (total <= 0 || cap <= 0) return 0;
    if (total <= cap) {
        for (int64_t r = 0; r < total; r++) rows[r] = r;
        return total;
    }
    /* Stratified: one random row in each of `cap` equal strata, plus the first and last row. */
    for (int64_t k = 0; k < cap; k++) {
        const int64_t lo = total * k / cap, hi = total * (k + 1) / cap;
        const uint64_t h = rlb_mix64(seed + (uint64_t)k);
        rows[k] = lo + (int64_t)(h % (uint64_t)(hi - lo));
    }
    rows[0] = 0;
    rows[cap - 1] = total - 1;
    return cap;
}

/* ---- provenance ---------------------------------------------------------------------------- */

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = 0;
}

void rlb_cpu_model(char *buf, size_t cap) {
    snprintf(buf, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
            const char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ' || *c == '\t') c++;
                snprintf(buf, cap, "%s", c);
                trim(buf);
                break;
            }
        }
    }
    fclose(f);
}

#ifndef ROOFLAB_SOURCE_DIR
#define ROOFLAB_SOURCE_DIR "."
#endif
#ifndef ROOFLAB_GIT_REV
#define ROOFLAB_GIT_REV "unknown"
#endif

static int run_line(const char *cmd, char *out, size_t cap) {
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    out[0] = 0;
    if (!fgets(out, (int)cap, p)) out[0] = 0;
    int rc = pclose(p);
    trim(out);
    return rc;
}

void rlb_git_revision(char *buf, size_t cap) {
    char rev[96], dirty[96];
    if (run_line("git -C '" ROOFLAB_SOURCE_DIR "' rev-parse HEAD 2>/dev/null", rev, sizeof rev) ==
            0 &&
        strlen(rev) >= 7) {
        int is_dirty = run_line("git -C '" ROOFLAB_SOURCE_DIR
                                "' status --porcelain --untracked-files=no 2>/dev/null",
                                dirty, sizeof dirty) == 0 &&
                       dirty[0] != 0;
        snprintf(buf, cap, "%s%s", rev, is_dirty ? "-dirty" : "");
        return;
    }
    snprintf(buf, cap, "%s (at build time)", ROOFLAB_GIT_REV);
}

void rlb_utc_now(char *buf, size_t cap) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
