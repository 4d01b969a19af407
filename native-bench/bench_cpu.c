/* bench_cpu.c — the CPU backend: ceilings (streaming copy, FMA peak) and the C kernels, timed with
 * a monotonic clock, checked against the fp64 reference. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attn_cpu.h"
#include "bench.h"
#include "shape.h"

#ifndef ROOFLAB_CPU_COMPILER
#define ROOFLAB_CPU_COMPILER "unknown"
#endif
#ifndef ROOFLAB_CPU_FLAGS
#define ROOFLAB_CPU_FLAGS "unknown"
#endif

#define MIB ((size_t)1 << 20)
#define RLB_MAX_RUNS 200

static void progress(const rlb_options *opt, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>
static void progress(const rlb_options *opt, const char *fmt, ...) {
    if (!opt->progress) return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    opt->progress(opt->progress_ctx, line);
}

/* Evict the caches between timed runs: write then read a buffer twice the last-level cache. */
typedef struct {
    unsigned char *buf;
    size_t bytes;
    unsigned round;
} flusher;

static void flush_init(flusher *f) {
    long llc = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    size_t want = llc > 0 ? 2 * (size_t)llc : 64 * MIB;
    if (want < 8 * MIB) want = 8 * MIB;
    if (want > 512 * MIB) want = 512 * MIB;
    f->buf = (unsigned char *)malloc(want);
    f->bytes = f->buf ? want : 0;
    f->round = 0;
}

static volatile unsigned rlb_flush_sink;
static void flush_run(flusher *f) {
    if (!f->buf) return;
    memset(f->buf, (int)(++f->round & 0xff), f->bytes);
    unsigned s = 0;
    for (size_t i = 0; i < f->bytes; i += 64) s += f->buf[i];
    rlb_flush_sink = s;
}

static int choose_runs(const rlb_options *opt, double t_est) {
    if (opt->runs > 0) return opt->runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : opt->runs;
    const double budget = opt->quick ? 0.4 : 3.0;
    const int lo = opt->quick ? 3 : 7, hi = opt->quick ? 15 : 51;
    int n = t_est > 0 ? (int)ceil(budget / t_est) : hi;
    if (n < lo) n = lo;
    if (n > hi) n = hi;
    return n;
}

/* ---- ceilings ----------------------------------------------------------------------------- */

static int measure_copy(const rlb_options *opt, int threads, rlb_ceiling *c) {
    const size_t bytes = (opt->quick ? 128 : 512) * MIB;
    unsigned char *src = (unsigned char *)malloc(bytes), *dst = (unsigned char *)malloc(bytes);
    if (!src || !dst) {
        free(src);
        free(dst);
        return -1;
    }
    for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 131u + 7u);
    memset(dst, 1, bytes); /* fault the pages in before timing */
    const int warmup = 2;
    for (int w = 0; w < warmup; w++) rlk_cpu_stream_copy(dst, src, bytes, threads);
    const int runs = opt->runs > 0 ? opt->runs : (opt->quick ? 7 : 21);
    double times[RLB_MAX_RUNS];
    int n = runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : runs;
    for (int r = 0; r < n; r++) {
        double t0 = rlb_now_s();
        rlk_cpu_stream_copy(dst, src, bytes, threads);
        times[r] = rlb_now_s() - t0;
    }
    int ok = memcmp(src, dst, bytes) == 0;
    free(src);
    free(dst);
    if (!ok) return -1;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "DRAM");
    c->is_bandwidth = 1;
    c->dtype = RL_DTYPE_DEFAULT;
    c->work = 2.0 * (double)bytes;
    rlb_stats_from(times, n, warmup, &c->t);
    c->value = c->work / c->t.min_s; /* a ceiling is what the device can reach: best run */
    snprintf(c->method, sizeof c->method,
             "memcpy of %zu MiB split over %d threads, bytes read + written, best of %d",
             bytes / MIB, threads, n);
    return 0;
}

static int measure_fma(const rlb_options *opt, int threads, rlb_ceiling *c) {
    double flops = 0.0;
    float sink = 0.0f;
    /* Calibrate to about 0.1 s (quick) or 0.3 s per run. */
    int64_t it = 1 << 20;
    double t0 = rlb_now_s();
    if (rlk_cpu_fma_peak(it, threads, &flops, &sink) != 0) return -1;
    double dt = rlb_now_s() - t0;
    const double target = opt->quick ? 0.1 : 0.3;
    if (dt > 0) it = (int64_t)((double)it * target / dt) + 1;
    const int runs = opt->runs > 0 ? opt->runs : (opt->quick ? 5 : 11);
    double times[RLB_MAX_RUNS];
    int n = runs > RLB_MAX_RUNS ? RLB_MAX_RUNS : runs;
    rlk_cpu_fma_peak(it, threads, &flops, &sink); /* warm-up */
    for (int r = 0; r < n; r++) {
        t0 = rlb_now_s();
        rlk_cpu_fma_peak(it, threads, &flops, &sink);
        times[r] = rlb_now_s() - t0;
    }
    if (!isfinite(sink)) return -1;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "fp32 FMA");
    c->is_bandwidth = 0;
    c->dtype = RL_DTYPE_FP32;
    c->work = flops;
    rlb_stats_from(times, n, 1, &c->t);
    c->value = flops / c->t.min_s; /* best run: a ceiling */
    snprintf(c->method, sizeof c->method,
             "%s vector FMA chains on %d threads, 2 FLOP per multiply-add, best of %d",
             rlk_cpu_isa(), threads, n);
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------------ */

static void describe(const rlb_case *c, char *buf, size_t cap) {
    const rl_problem *p = &c->problem;
    snprintf(buf, cap, "%s %s B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld%s", rlb_kernel_name(c->kernel),
             rl_dtype_name(p->dtype), (long long)p->batch, (long long)p->heads,
             (long long)p->kv_heads, (long long)p->seq, (long long)p->kv_len,
             (long long)p->head_dim, p->causal ? " causal" : "");
}

static int run_case(const rlb_options *opt, int threads, const rlb_case *c, uint64_t seed,
                    flusher *fl, rlb_result *res) {
    memset(res, 0, sizeof *res);
    res->c = *c;
    res->seed = seed;
    const rl_problem *p = &c->problem;
    if (p->dtype != RL_DTYPE_FP32 || p->kv_dtype != RL_DTYPE_FP32) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "the CPU kernels are fp32 only");
        return 0;
    }
    if (c->kernel != RLB_CPU_NAIVE && c->kernel != RLB_CPU_TILED) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "not a CPU kernel");
        return 0;
    }
    rlk_shape s;
    rlb_shape_from_problem(p, &s);
    const size_t nq = (size_t)(p->batch * p->heads * p->seq * p->head_dim);
    const size_t nk = (size_t)(p->batch * p->kv_heads * p->kv_len * p->head_dim);
    float *q = (float *)malloc(nq * sizeof *q), *o = (float *)malloc(nq * sizeof *o);
    float *k = (float *)malloc(nk * sizeof *k), *v = (float *)malloc(nk * sizeof *v);
    float *scratch = NULL;
    if (c->kernel == RLB_CPU_NAIVE) scratch = (float *)malloc(rlk_cpu_naive_scratch_bytes(&s));
    int rc = -1;
    if (!q || !o || !k || !v || (c->kernel == RLB_CPU_NAIVE && !scratch)) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "out of host memory");
        rc = 0;
        goto done;
    }
    rlb_fill_uniform(q, nq, seed ^ 0x51ull);
    rlb_fill_uniform(k, nk, seed ^ 0x4Bull);
    rlb_fill_uniform(v, nk, seed ^ 0x56ull);

    const int warmup = opt->warmup >= 0 ? opt->warmup : 1;
    double t_est = 0.0;
    for (int w = 0; w < warmup; w++) {
        memset(o, 0xFF, nq * sizeof *o); /* poison: NaN */
        double t0 = rlb_now_s();
        int e = c->kernel == RLB_CPU_NAIVE ? rlk_cpu_naive(&s, q, k, v, o, scratch, threads)
                                           : rlk_cpu_tiled(&s, q, k, v, o, threads);
        t_est = rlb_now_s() - t0;
        if (e != 0) goto kernel_failed;
    }
    int runs = choose_runs(opt, t_est);
    double times[RLB_MAX_RUNS];
    for (int r = 0; r < runs; r++) {
        memset(o, 0xFF, nq * sizeof *o);
        if (opt->flush) flush_run(fl);
        double t0 = rlb_now_s();
        int e = c->kernel == RLB_CPU_NAIVE ? rlk_cpu_naive(&s, q, k, v, o, scratch, threads)
                                           : rlk_cpu_tiled(&s, q, k, v, o, threads);
        times[r] = rlb_now_s() - t0;
        if (e != 0) goto kernel_failed;
    }
    rlb_stats_from(times, runs, warmup, &res->t);

    /* Correctness of the last timed run's output. */
    {
        int64_t nonfinite = 0;
        for (size_t x = 0; x < nq; x++) nonfinite += !isfinite(o[x]);
        const int64_t total = p->batch * p->heads * p->seq;
        const int64_t cap_rows = opt->check_rows > 0 ? opt->check_rows : 256;
        int64_t *rows = (int64_t *)malloc((size_t)(cap_rows < total ? cap_rows : total) * sizeof *rows);
        if (!rows) {
            snprintf(res->skip_reason, sizeof res->skip_reason, "out of host memory");
            rc = 0;
            goto done;
        }
        int64_t nr = rlb_pick_rows(total, cap_rows, seed ^ 0x52ull, rows);
        rlb_ref_acc acc = {0};
        const int64_t G = p->heads / p->kv_heads, d = p->head_dim;
        for (int64_t x = 0; x < nr; x++) {
            const int64_t r = rows[x], bh = r / p->seq, i = r % p->seq;
            const int64_t b = bh / p->heads, h = bh % p->heads;
            const int64_t kvh = b * p->kv_heads + h / G;
            rlb_ref_row(p, (double)s.scale, i, q + r * d, k + kvh * p->kv_len * d,
                        v + kvh * p->kv_len * d, o + r * d, &acc);
        }
        free(rows);
        rlb_ref_finish(&acc, rlb_tolerance(p->dtype), total, nonfinite, &res->check);
    }
    res->ran = 1;
    rc = 0;
    goto done;
kernel_failed:
    snprintf(res->skip_reason, sizeof res->skip_reason, "the kernel refused the problem");
    rc = 0;
done:
    free(q);
    free(o);
    free(k);
    free(v);
    free(scratch);
    return rc;
}

int rlb_cpu_run(const rlb_options *opt, const rlb_case *cases, int n, rlb_run *out, char *why,
                size_t cap) {
    const int threads = opt->threads > 0 ? opt->threads : rlk_cpu_default_threads();
    memset(&out->dev, 0, sizeof out->dev);
    rlb_cpu_model(out->dev.name, sizeof out->dev.name);
    out->dev.threads = threads;
    snprintf(out->dev.isa, sizeof out->dev.isa, "%s", rlk_cpu_isa());
    snprintf(out->compiler, sizeof out->compiler, "%s", ROOFLAB_CPU_COMPILER);
    snprintf(out->flags, sizeof out->flags, "%s", ROOFLAB_CPU_FLAGS);
    out->ceiling_count = 0;

    progress(opt, "cpu: %d threads, kernels built for %s", threads, rlk_cpu_isa());
    if (measure_copy(opt, threads, &out->ceilings[out->ceiling_count]) == 0) {
        rlb_ceiling *c = &out->ceilings[out->ceiling_count++];
        progress(opt, "ceiling DRAM (stream copy): %.2f GB/s", c->value / 1e9);
    } else {
        snprintf(why, cap, "could not measure the streaming bandwidth (out of memory)");
        return 1;
    }
    if (measure_fma(opt, threads, &out->ceilings[out->ceiling_count]) == 0) {
        rlb_ceiling *c = &out->ceilings[out->ceiling_count++];
        progress(opt, "ceiling fp32 FMA: %.1f GFLOP/s", c->value / 1e9);
    } else {
        snprintf(why, cap, "could not measure the FMA peak");
        return 1;
    }

    flusher fl = {0};
    if (opt->flush) flush_init(&fl);
    for (int i = 0; i < n; i++) {
        char desc[200];
        describe(&cases[i], desc, sizeof desc);
        run_case(opt, threads, &cases[i], rlb_mix64(opt->seed + (uint64_t)i), &fl,
                 &out->results[i]);
        const rlb_result *r = &out->results[i];
        if (r->ran)
            progress(opt, "[%d/%d] %s: median %.3f ms (%d runs), rel L2 err %.2e %s", i + 1, n,
                     desc, r->t.median_s * 1e3, r->t.runs, r->check.rel_l2_error,
                     r->check.passed ? "ok" : "FAILED");
        else
            progress(opt, "[%d/%d] %s: skipped (%s)", i + 1, n, desc, r->skip_reason);
    }
    out->result_count = n;
    free(fl.buf);
    return 0;
}
