/* attn_cpu.c — naive and tiled attention forward on the CPU, and the CPU ceilings. See attn_cpu.h. */
#define _POSIX_C_SOURCE 200809L
#include "attn_cpu.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RLK_MAX_THREADS 256

int rlk_cpu_default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    if (n > RLK_MAX_THREADS) return RLK_MAX_THREADS;
    return (int)n;
}

static int clamp_threads(int threads) {
    if (threads <= 0) return rlk_cpu_default_threads();
    return threads > RLK_MAX_THREADS ? RLK_MAX_THREADS : threads;
}

/* ---- shared inner primitives ------------------------------------------------------------- */

/* One query row against nk keys in K's own layout: s[j] = scale · ⟨q, k_j⟩. Used when a block
 * has fewer than 4 rows (decode, N = 1), where transposing the K tile would cost as much as the
 * scores themselves. */
static void score_row_dot(const float *restrict q, const float *restrict k, int64_t nk, int64_t d,
                          float scale, float *restrict s) {
    for (int64_t j = 0; j < nk; j++) {
        const float *restrict kj = k + j * d;
        float a = 0.0f;
#pragma omp simd reduction(+ : a)
        for (int64_t c = 0; c < d; c++) a += q[c] * kj[c];
        s[j] = a * scale;
    }
}

/* Kᵀ of nk rows of K (row stride d) into kt (d rows of ld floats). */
static void transpose_k(const float *restrict k, int64_t nk, int64_t d, float *restrict kt,
                        int64_t ld) {
    for (int64_t j = 0; j < nk; j++)
        for (int64_t c = 0; c < d; c++) kt[c * ld + j] = k[j * d + c];
}

/* Scores of up to 4 query rows at once against nk keys given transposed (kt: d rows of ld
 * floats): s_r[j] = scale · Σ_c q_r[c] · kt[c][j]. Rows of q have stride d, rows of s stride lds.
 * Outer-product form: no horizontal reductions, each kt row is loaded once for the 4 rows. */
static void score_rows_t(const float *restrict q, int nr, const float *restrict kt, int64_t ld,
                         int64_t nk, int64_t d, float scale, float *restrict s, int64_t lds) {
    if (nr == 4) {
        float *restrict s0 = s;
        float *restrict s1 = s + lds;
        float *restrict s2 = s + 2 * lds;
        float *restrict s3 = s + 3 * lds;
#pragma omp simd
        for (int64_t j = 0; j < nk; j++) s0[j] = s1[j] = s2[j] = s3[j] = 0.0f;
        for (int64_t c = 0; c < d; c++) {
            const float q0 = q[c] * scale, q1 = q[d + c] * scale, q2 = q[2 * d + c] * scale,
                        q3 = q[3 * d + c] * scale;
            const float *restrict kr = kt + c * ld;
#pragma omp simd
            for (int64_t j = 0; j < nk; j++) {
                const float kj = kr[j];
                s0[j] += q0 * kj;
                s1[j] += q1 * kj;
                s2[j] += q2 * kj;
                s3[j] += q3 * kj;
            }
        }
        return;
    }
    for (int r = 0; r < nr; r++) {
        float *restrict sr = s + r * lds;
        const float *restrict qr = q + r * d;
#pragma omp simd
        for (int64_t j = 0; j < nk; j++) sr[j] = 0.0f;
        for (int64_t c = 0; c < d; c++) {
            const float qc = qr[c] * scale;
            const float *restrict kr = kt + c * ld;
#pragma omp simd
            for (int64_t j = 0; j < nk; j++) sr[j] += qc * kr[j];
        }
    }
}

/* acc[c] += Σ_j p[j] · v_j[c] for the nk rows v_j = v + j·d. */
static void pv_run(const float *restrict p, const float *restrict v, int64_t nk, int64_t d,
                   float *restrict acc) {
    int64_t j = 0;
    for (; j + 4 <= nk; j += 4) {
        const float p0 = p[j], p1 = p[j + 1], p2 = p[j + 2], p3 = p[j + 3];
        const float *restrict v0 = v + j * d;
        const float *restrict v1 = v0 + d;
        const float *restrict v2 = v1 + d;
        const float *restrict v3 = v2 + d;
#pragma omp simd
        for (int64_t c = 0; c < d; c++) acc[c] += p0 * v0[c] + p1 * v1[c] + p2 * v2[c] + p3 * v3[c];
    }
    for (; j < nk; j++) {
        const float p0 = p[j];
        const float *restrict v0 = v + j * d;
#pragma omp simd
        for (int64_t c = 0; c < d; c++) acc[c] += p0 * v0[c];
    }
}

/* Number of keys query row i may see (causal: positions 0 … i + L − N). */
static int64_t visible_keys(const rlk_shape *s, int64_t i) {
    if (!s->causal) return s->kv_len;
    int64_t n = i + s->kv_len - s->seq + 1;
    return n < s->kv_len ? n : s->kv_len;
}

/* ---- a tiny fork/join helper -------------------------------------------------------------- */

typedef void (*worker_fn)(void *ctx, int tid, int nthreads);
typedef struct {
    worker_fn fn;
    void *ctx;
    int tid, nthreads;
} worker_arg;

static void *worker_entry(void *p) {
    worker_arg *a = (worker_arg *)p;
    a->fn(a->ctx, a->tid, a->nthreads);
    return NULL;
}

/* Runs fn(ctx, t, threads) for t = 0 … threads−1, on `threads` threads (the caller is thread 0).
 * Work items of different t must be independent: when a thread cannot be created, the caller runs
 * that t itself afterwards, so the call always completes. */
static void run_threads(worker_fn fn, void *ctx, int threads) {
    pthread_t tids[RLK_MAX_THREADS];
    worker_arg args[RLK_MAX_THREADS];
    int started[RLK_MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        args[t].fn = fn;
        args[t].ctx = ctx;
        args[t].tid = t;
        args[t].nthreads = threads;
        started[t] = 0;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tids[t], NULL, worker_entry, &args[t]) == 0;
    fn(ctx, 0, threads);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tids[t], NULL);
        else
            fn(ctx, t, threads);
    }
}

static void row_range(int64_t n, int tid, int nthreads, int64_t *r0, int64_t *r1) {
    *r0 = n * tid / nthreads;
    *r1 = n * (tid + 1) / nthreads;
}

/* ---- naive -------------------------------------------------------------------------------- */

size_t rlk_cpu_naive_scratch_bytes(const rlk_shape *s) {
    return (2u * (size_t)s->seq * (size_t)s->kv_len + (size_t)s->kv_len * (size_t)s->head_dim) *
           sizeof(float);
}

typedef struct {
    const rlk_shape *s;
    const float *qh, *kt, *vh; /* this (batch, head); kt = its K transposed (d × L) */
    float *oh, *S, *P;
} naive_ctx;

/* Pass 1: S = scale · Q Kᵀ, the whole N×L matrix (the mask is applied by the softmax). */
static void naive_scores(void *p, int tid, int nthreads) {
    naive_ctx *c = (naive_ctx *)p;
    const int64_t L = c->s->kv_len, d = c->s->head_dim;
    int64_t r0, r1;
    row_range(c->s->seq, tid, nthreads, &r0, &r1);
    for (int64_t i = r0; i < r1; i += 4) {
        const int nr = (int)(r1 - i < 4 ? r1 - i : 4);
        score_rows_t(c->qh + i * d, nr, c->kt, L, L, d, c->s->scale, c->S + i * L, L);
    }
}

/* Pass 2: P = softmax(mask(S)) row by row; masked entries become 0. */
static void naive_softmax(void *p, int tid, int nthreads) {
    naive_ctx *c = (naive_ctx *)p;
    const int64_t L = c->s->kv_len;
    int64_t r0, r1;
    row_range(c->s->seq, tid, nthreads, &r0, &r1);
    for (int64_t i = r0; i < r1; i++) {
        const float *srow = c->S + i * L;
        float *prow = c->P + i * L;
        const int64_t nv = visible_keys(c->s, i);
        float m = -INFINITY;
        for (int64_t j = 0; j < nv; j++) m = srow[j] > m ? srow[j] : m;
        float sum = 0.0f;
        for (int64_t j = 0; j < nv; j++) {
            float e = expf(srow[j] - m);
            prow[j] = e;
            sum += e;
        }
        const float inv = 1.0f / sum;
        for (int64_t j = 0; j < nv; j++) prow[j] *= inv;
        for (int64_t j = nv; j < L; j++) prow[j] = 0.0f;
    }
}

/* Pass 3: O = P · V over the whole row of P (masked zeros included, as stored). */
static void naive_pv(void *p, int tid, int nthreads) {
    naive_ctx *c = (naive_ctx *)p;
    const int64_t L = c->s->kv_len, d = c->s->head_dim;
    int64_t r0, r1;
    row_range(c->s->seq, tid, nthreads, &r0, &r1);
    for (int64_t i = r0; i < r1; i++) {
        float *orow = c->oh + i * d;
        memset(orow, 0, (size_t)d * sizeof(float));
        pv_run(c->P + i * L, c->vh, L, d, orow);
    }
}

int rlk_cpu_naive(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                  float *scratch, int threads) {
    if (rlk_shape_check(s) != 0 || !q || !k || !v || !o) return -1;
    threads = clamp_threads(threads);
    if (threads > s->seq) threads = (int)s->seq;
    float *owned = NULL;
    if (!scratch) {
        owned = (float *)malloc(rlk_cpu_naive_scratch_bytes(s));
        if (!owned) return -1;
        scratch = owned;
    }
    const int64_t N = s->seq, L = s->kv_len, d = s->head_dim, H = s->heads;
    const int64_t group = s->heads / s->kv_heads;
    float *kt = scratch + 2 * N * L;
    naive_ctx c = {.s = s, .kt = kt, .S = scratch, .P = scratch + N * L};
    /* One (batch, head) at a time, three passes each (as three GPU kernels would be). */
    int64_t transposed = -1;
    for (int64_t bh = 0; bh < s->batch * H; bh++) {
        const int64_t b = bh / H, h = bh % H, kvh = rlk_kv_head(b, h, s->kv_heads, group);
        c.qh = q + bh * N * d;
        if (kvh != transposed) transpose_k(k + kvh * L * d, L, d, kt, L);
        transposed = kvh;
        c.vh = v + kvh * L * d;
        c.oh = o + bh * N * d;
        run_threads(naive_scores, &c, threads);
        run_threads(naive_softmax, &c, threads);
        run_threads(naive_pv, &c, threads);
    }
    free(owned);
    return 0;
}

/* ---- tiled -------------------------------------------------------------------------------- */

typedef struct {
    const rlk_shape *s;
    const float *q, *k, *v;
    float *o;
    int64_t qblocks;
    int64_t tasks;
    atomic_llong next;
    atomic_int failed;
} tiled_ctx;

/* One task: the query block qb of the G = H/Hkv query heads that share one KV head. Each K/V
 * tile is loaded once for the whole group (K transposed once), then every head of the group
 * consumes it: K/V move once per (query block, KV head). With H = Hkv that is the `tiled` model
 * exactly; with one query block (decode, N ≤ Br) it is the `compulsory` model; prefill with GQA
 * moves less than `tiled` counts (that model is an upper bound: no reuse across a group). */
static void tiled_task(const rlk_shape *s, const tiled_ctx *c, int64_t task, float *stile,
                       float *acc, float *m, float *l, float *ktile) {
    const int64_t N = s->seq, L = s->kv_len, d = s->head_dim, H = s->heads;
    const int64_t Br = s->block_m, Bc = s->block_n;
    const int64_t G = s->heads / s->kv_heads;
    const int64_t BKV = s->batch * s->kv_heads;
    /* Heaviest blocks first (causal: the last query blocks see the most keys). */
    const int64_t kvg = task % BKV;
    const int64_t qb = c->qblocks - 1 - task / BKV;
    const int64_t b = kvg / s->kv_heads, hkv = kvg % s->kv_heads;
    const float *kh = c->k + kvg * L * d;
    const float *vh = c->v + kvg * L * d;

    const int64_t i0 = qb * Br;
    const int64_t rows = (i0 + Br <= N) ? Br : N - i0;
    /* Keys this block needs: all L, or up to the last visible key of its last row (the model's
     * min(⌈(e_i + L − N)/Bc⌉·Bc, L) rows, loaded tile by tile). */
    const int64_t keys = s->causal ? visible_keys(s, i0 + rows - 1) : L;
    const int64_t tiles = (keys + Bc - 1) / Bc;

    for (int64_t r = 0; r < G * Br; r++) {
        m[r] = -INFINITY;
        l[r] = 0.0f;
    }
    memset(acc, 0, (size_t)(G * Br * d) * sizeof(float));

    for (int64_t t = 0; t < tiles; t++) {
        const int64_t j0 = t * Bc;
        const int64_t nk = (j0 + Bc <= L) ? Bc : L - j0;
        const float *vt = vh + j0 * d;
        /* The K tile, transposed (d × Bc) once for the group's heads; blocks of fewer than 4
         * rows (decode) read K rows directly instead. */
        if (rows >= 4) transpose_k(kh + j0 * d, nk, d, ktile, Bc);
        for (int64_t gh = 0; gh < G; gh++) {
            const float *qh = c->q + (b * H + hkv * G + gh) * N * d;
            float *mg = m + gh * Br, *lg = l + gh * Br, *ag = acc + gh * Br * d;
            if (rows < 4) {
                for (int64_t r = 0; r < rows; r++)
                    if (visible_keys(s, i0 + r) - j0 > 0)
                        score_row_dot(qh + (i0 + r) * d, kh + j0 * d, nk, d, s->scale,
                                      stile + r * Bc);
            } else {
                /* Scores, four rows at a time; rows that see no key of this tile are skipped. */
                for (int64_t r = 0; r < rows; r += 4) {
                    const int nr = (int)(rows - r < 4 ? rows - r : 4);
                    if (visible_keys(s, i0 + r + nr - 1) - j0 <= 0) continue;
                    score_rows_t(qh + (i0 + r) * d, nr, ktile, Bc, nk, d, s->scale,
                                 stile + r * Bc, Bc);
                }
            }
            for (int64_t r = 0; r < rows; r++) {
                int64_t lim = visible_keys(s, i0 + r) - j0;
                if (lim > nk) lim = nk;
                if (lim <= 0) continue;
                float *srow = stile + r * Bc;
                float mt = mg[r];
                for (int64_t j = 0; j < lim; j++) mt = srow[j] > mt ? srow[j] : mt;
                const float alpha = expf(mg[r] - mt); /* 0 on the first tile (m = −∞) */
                float sum = 0.0f;
                for (int64_t j = 0; j < lim; j++) {
                    float e = expf(srow[j] - mt);
                    srow[j] = e;
                    sum += e;
                }
                lg[r] = lg[r] * alpha + sum;
                mg[r] = mt;
                float *arow = ag + r * d;
                if (alpha != 1.0f) {
#pragma omp simd
                    for (int64_t cc = 0; cc < d; cc++) arow[cc] *= alpha;
                }
                pv_run(srow, vt, lim, d, arow);
            }
        }
    }
    for (int64_t gh = 0; gh < G; gh++) {
        float *oh = c->o + (b * H + hkv * G + gh) * N * d;
        for (int64_t r = 0; r < rows; r++) {
            const float inv = 1.0f / l[gh * Br + r];
            const float *arow = acc + (gh * Br + r) * d;
            float *orow = oh + (i0 + r) * d;
#pragma omp simd
            for (int64_t cc = 0; cc < d; cc++) orow[cc] = arow[cc] * inv;
        }
    }
}

static void tiled_worker(void *p, int tid, int nthreads) {
    (void)tid;
    (void)nthreads;
    tiled_ctx *c = (tiled_ctx *)p;
    const rlk_shape *s = c->s;
    /* Task-local working set: S tile Br×Bc, and for each of the G heads of the group the O
     * accumulator Br×d and m, l (Br each); the K tile transposed (Bc×d). */
    const int64_t G = s->heads / s->kv_heads;
    const size_t floats = (size_t)(s->block_m * s->block_n + G * s->block_m * s->head_dim +
                                   2 * G * s->block_m + s->block_n * s->head_dim);
    float *buf = (float *)aligned_alloc(64, ((floats * sizeof(float) + 63) / 64) * 64);
    if (!buf) {
        atomic_store(&c->failed, 1);
        return;
    }
    float *stile = buf;
    float *acc = stile + s->block_m * s->block_n;
    float *m = acc + G * s->block_m * s->head_dim;
    float *l = m + G * s->block_m;
    float *ktile = l + G * s->block_m;
    for (;;) {
        long long task = atomic_fetch_add(&c->next, 1);
        if (task >= c->tasks) break;
        tiled_task(s, c, (int64_t)task, stile, acc, m, l, ktile);
    }
    free(buf);
}

int rlk_cpu_tiled(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                  int threads) {
    if (rlk_shape_check(s) != 0 || !q || !k || !v || !o) return -1;
    threads = clamp_threads(threads);
    tiled_ctx c = {.s = s, .q = q, .k = k, .v = v, .o = o};
    c.qblocks = (s->seq + s->block_m - 1) / s->block_m;
    c.tasks = s->batch * s->kv_heads * c.qblocks;
    if (threads > c.tasks) threads = (int)c.tasks;
    atomic_init(&c.next, 0);
    atomic_init(&c.failed, 0);
    run_threads(tiled_worker, &c, threads);
    return atomic_load(&c.failed) ? -1 : 0;
}

/* ---- ceilings ----------------------------------------------------------------------------- */

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
    size_t bytes;
} copy_ctx;

static void copy_worker(void *p, int tid, int nthreads) {
    copy_ctx *c = (copy_ctx *)p;
    /* 4 KiB-aligned shares, so threads never write the same page. */
    size_t pages = (c->bytes + 4095) / 4096;
    size_t b0 = pages * (size_t)tid / (size_t)nthreads * 4096;
    size_t b1 = pages * (size_t)(tid + 1) / (size_t)nthreads * 4096;
    if (b1 > c->bytes) b1 = c->bytes;
    if (b0 < b1) memcpy(c->dst + b0, c->src + b0, b1 - b0);
}

int rlk_cpu_stream_copy(void *dst, const void *src, size_t bytes, int threads) {
    if (!dst || !src) return -1;
    copy_ctx c = {(unsigned char *)dst, (const unsigned char *)src, bytes};
    run_threads(copy_worker, &c, clamp_threads(threads));
    return 0;
}

#if defined(__AVX512F__)
#define RLK_VEC_BYTES 64
#define RLK_ISA "avx512f"
#elif defined(__AVX__)
#define RLK_VEC_BYTES 32
#define RLK_ISA "avx2/avx"
#elif defined(__SSE2__) || defined(__ARM_NEON)
#define RLK_VEC_BYTES 16
#define RLK_ISA "sse2/neon"
#else
#define RLK_VEC_BYTES 16
#define RLK_ISA "generic"
#endif
#define RLK_VEC_LANES (RLK_VEC_BYTES / 4)
#define RLK_FMA_CHAINS 16

#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
#define RLK_FMA_NOTE "+fma"
#else
#define RLK_FMA_NOTE " (no fma: multiply and add are separate)"
#endif

const char *rlk_cpu_isa(void) {
    return RLK_ISA RLK_FMA_NOTE;
}

typedef float rlk_vf __attribute__((vector_size(RLK_VEC_BYTES)));
_Static_assert(sizeof(rlk_vf) == RLK_VEC_BYTES, "vector width");

typedef struct {
    int64_t iterations;
    float sinks[RLK_MAX_THREADS];
} fma_ctx;

static void fma_worker(void *p, int tid, int nthreads) {
    (void)nthreads;
    fma_ctx *c = (fma_ctx *)p;
    rlk_vf acc[RLK_FMA_CHAINS];
    rlk_vf mul, add;
    for (int i = 0; i < RLK_VEC_LANES; i++) {
        mul[i] = 0.999f - 0.0001f * (float)i;
        add[i] = 0.001f * (float)(i + 1 + tid);
    }
    for (int k = 0; k < RLK_FMA_CHAINS; k++)
        for (int i = 0; i < RLK_VEC_LANES; i++) acc[k][i] = (float)(k + i) * 0.01f;
    /* Each chain converges to add/(1 − mul): finite for any iteration count. */
    for (int64_t it = 0; it < c->iterations; it++) {
#pragma GCC unroll 16
        for (int k = 0; k < RLK_FMA_CHAINS; k++) acc[k] = acc[k] * mul + add;
    }
    float s = 0.0f;
    for (int k = 0; k < RLK_FMA_CHAINS; k++)
        for (int i = 0; i < RLK_VEC_LANES; i++) s += acc[k][i];
    c->sinks[tid] = s;
}

int rlk_cpu_fma_peak(int64_t iterations, int threads, double *flops, float *sink) {
    if (iterations < 1 || !flops) return -1;
    threads = clamp_threads(threads);
    fma_ctx *c = (fma_ctx *)calloc(1, sizeof *c);
    if (!c) return -1;
    c->iterations = iterations;
    run_threads(fma_worker, c, threads);
    float s = 0.0f;
    for (int t = 0; t < threads; t++) s += c->sinks[t];
    if (sink) *sink = s;
    *flops = 2.0 * RLK_VEC_LANES * RLK_FMA_CHAINS * (double)iterations * (double)threads;
    free(c);
    return 0;
}
