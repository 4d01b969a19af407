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

/* Timed runs of a case: about 0.4 s (quick) or 3 s, within [3, 15] or [7, 51]. */
static const rlb_budget quick_budget = {0.4, 3, 15}, full_budget = {3.0, 7, 51};

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
    const int n = rlb_ceiling_runs(opt, opt->quick ? 7 : 21);
    double times[RLB_MAX_RUNS];
    for (int r = 0; r < n; r++) {
        double t0 = rlb_now_s();
        rlk_cpu_stream_copy(dst, src, bytes, threads);
        times[r] = rlb_now_s() - t0;
    }
    int ok = memcmp(src, dst, bytes) == 0;
    free(src);
    free(dst);
    if (!ok) return -1;
    rlb_ceiling_from_runs(c, "DRAM", 1, RL_DTYPE_DEFAULT, 2.0 * (double)bytes, times, n, warmup);
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
    const int n = rlb_ceiling_runs(opt, opt->quick ? 5 : 11);
    double times[RLB_MAX_RUNS];
    rlk_cpu_fma_peak(it, threads, &flops, &sink); /* warm-up */
    for (int r = 0; r < n; r++) {
        t0 = rlb_now_s();
        rlk_cpu_fma_peak(it, threads, &flops, &sink);
        times[r] = rlb_now_s() - t0;
    }
    if (!isfinite(sink)) return -1;
    rlb_ceiling_from_runs(c, "fp32 FMA", 0, RL_DTYPE_FP32, flops, times, n, 1);
    snprintf(c->method, sizeof c->method,
             "%s vector FMA chains on %d threads, 2 FLOP per multiply-add, best of %d",
             rlk_cpu_isa(), threads, n);
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------------ */

typedef struct {
    const rlb_options *opt;
    int threads;
    flusher *fl;
} cpu_ctx;

/* One case's buffers on the host, fp32: inputs, output, the naive kernel's scratch. */
typedef struct {
    rlk_shape s;
    float *q, *k, *v, *o, *scratch;
    size_t nq, nk;
} case_bufs;

static int bufs_alloc(const rlb_case *c, case_bufs *b) {
    const rl_problem *p = &c->problem;
    memset(b, 0, sizeof *b);
    rlb_shape_from_problem(p, &b->s);
    b->nq = (size_t)(p->batch * p->heads * p->seq * p->head_dim);
    b->nk = (size_t)(p->batch * p->kv_heads * p->kv_len * p->head_dim);
    b->q = (float *)malloc(b->nq * sizeof *b->q);
    b->o = (float *)malloc(b->nq * sizeof *b->o);
    b->k = (float *)malloc(b->nk * sizeof *b->k);
    b->v = (float *)malloc(b->nk * sizeof *b->v);
    if (c->kernel == RLB_CPU_NAIVE) b->scratch = (float *)malloc(rlk_cpu_naive_scratch_bytes(&b->s));
    return b->q && b->o && b->k && b->v && (c->kernel != RLB_CPU_NAIVE || b->scratch) ? 0 : -1;
}

static void bufs_free(case_bufs *b) {
    free(b->q);
    free(b->o);
    free(b->k);
    free(b->v);
    free(b->scratch);
}

/* One run, the output poisoned (NaN) first; its time through *dt. Nonzero: the kernel refused. */
static int run_once(const cpu_ctx *cx, rlb_kernel kernel, case_bufs *b, int flush, double *dt) {
    memset(b->o, 0xFF, b->nq * sizeof *b->o);
    if (flush) flush_run(cx->fl);
    const double t0 = rlb_now_s();
    const int e = kernel == RLB_CPU_NAIVE
                      ? rlk_cpu_naive(&b->s, b->q, b->k, b->v, b->o, b->scratch, cx->threads)
                      : rlk_cpu_tiled(&b->s, b->q, b->k, b->v, b->o, cx->threads);
    *dt = rlb_now_s() - t0;
    return e;
}

/* Warm-up, then the timed runs into *t. Nonzero: the kernel refused the problem. */
static int time_case(const cpu_ctx *cx, rlb_kernel kernel, case_bufs *b, rlb_stats *t) {
    const int warmup = cx->opt->warmup >= 0 ? cx->opt->warmup : 1;
    double t_est = 0.0, times[RLB_MAX_RUNS];
    for (int w = 0; w < warmup; w++)
        if (run_once(cx, kernel, b, 0, &t_est) != 0) return -1;
    const int runs = rlb_choose_runs(cx->opt, t_est, quick_budget, full_budget);
    for (int r = 0; r < runs; r++)
        if (run_once(cx, kernel, b, cx->opt->flush, &times[r]) != 0) return -1;
    rlb_stats_from(times, runs, warmup, t);
    return 0;
}

static int run_case(void *ctx, const rlb_case *c, uint64_t seed, rlb_result *res, char *why,
                    size_t cap) {
    (void)why, (void)cap; /* a CPU case never stops the run: problems are skips */
    const cpu_ctx *cx = (const cpu_ctx *)ctx;
    memset(res, 0, sizeof *res);
    res->c = *c;
    res->seed = seed;
    const rl_problem *p = &c->problem;
    const char *skip = NULL;
    case_bufs b;
    memset(&b, 0, sizeof b);
    if (p->dtype != RL_DTYPE_FP32 || p->kv_dtype != RL_DTYPE_FP32)
        skip = "the CPU kernels are fp32 only";
    else if (c->kernel != RLB_CPU_NAIVE && c->kernel != RLB_CPU_TILED)
        skip = "not a CPU kernel";
    else if (bufs_alloc(c, &b) != 0)
        skip = "out of host memory";
    if (!skip) {
        rlb_fill_uniform(b.q, b.nq, seed ^ RLB_SEED_Q);
        rlb_fill_uniform(b.k, b.nk, seed ^ RLB_SEED_K);
        rlb_fill_uniform(b.v, b.nk, seed ^ RLB_SEED_V);
        const rlb_host_inputs host = {b.q, b.k, b.v, b.s.kv_len, b.s.head_dim};
        const rlb_inputs in = rlb_inputs_host(&host);
        if (time_case(cx, c->kernel, &b, &res->t) != 0)
            skip = "the kernel refused the problem";
        else if (rlb_check_output(cx->opt, p, (double)b.s.scale, seed, b.o, &in, &res->check) != 0)
            skip = "out of host memory";
    }
    if (skip)
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", skip);
    res->ran = !skip;
    bufs_free(&b);
    return 0;
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

    rlb_progress(opt, "cpu: %d threads, kernels built for %s", threads, rlk_cpu_isa());
    if (measure_copy(opt, threads, &out->ceilings[0]) != 0) {
        snprintf(why, cap, "could not measure the streaming bandwidth (out of memory)");
        return 1;
    }
    rlb_progress(opt, "ceiling DRAM (stream copy): %.2f GB/s", out->ceilings[0].value / 1e9);
    if (measure_fma(opt, threads, &out->ceilings[1]) != 0) {
        snprintf(why, cap, "could not measure the FMA peak");
        return 1;
    }
    rlb_progress(opt, "ceiling fp32 FMA: %.1f GFLOP/s", out->ceilings[1].value / 1e9);
    out->ceiling_count = 2;

    flusher fl = {0};
    if (opt->flush) flush_init(&fl);
    cpu_ctx cx = {opt, threads, &fl};
    const rlb_backend be = {run_case, &cx, 0, 3};
    const int rc = rlb_run_cases(opt, cases, n, &be, out, why, cap);
    free(fl.buf);
    return rc;
}
