/*
 * bench.h — the native benchmark harness (CONTRACTS.md "The command line": `rooflab bench`).
 *
 * The harness times attention kernels (kernels/cpu, kernels/cuda) on a grid of problems, checks
 * every kernel against an fp64 CPU reference on fresh random inputs (outputs poisoned with NaN
 * before each run), measures the device's ceilings in the same run, and writes one record
 * (core/include/rooflab/record.h) whose FLOPs and modelled bytes come from core's model — the
 * benchmark never derives them itself.
 *
 * Pieces:
 *   rlb_* cases and results   plain C structs shared by the CPU runner (bench_cpu.c) and the CUDA
 *                             runner (cuda_backend.cu, a shared library loaded with dlopen so that
 *                             `rooflab` starts on machines without CUDA);
 *   rlb_grid_*                the fixed problem grids (quick / full, per backend);
 *   the harness               what both runners share (bench_common.c, no calls into core):
 *                             progress lines, run counts, case descriptions, the loop over the
 *                             cases (rlb_run_cases), seeds, ceilings from timed runs, and the
 *                             check of an output against the fp64 reference (rlb_check_output);
 *   rlb_ref_*                 the fp64 reference and the error measure;
 *   rlb_stats_*               median / min / max of timed runs;
 *   rlb_build_record          results → rl_record (bench_record.c).
 */
#ifndef ROOFLAB_BENCH_H
#define ROOFLAB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "rooflab/rooflab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RLB_EXIT_NODEVICE 3
#define RLB_TEXT_MAX 256
#define RLB_MAX_CEILINGS 8
#define RLB_MAX_RUNS 200 /* timed runs of one case or ceiling, at most */

/* A case's random inputs and checked rows come from its seed (rlb_case_seed) xor these, on both
 * backends: the same seed gives the same Q, K, V and rows. */
#define RLB_SEED_Q 0x51u
#define RLB_SEED_K 0x4Bu
#define RLB_SEED_V 0x56u
#define RLB_SEED_ROWS 0x52u

typedef enum {
    RLB_CPU_NAIVE = 0,   /* kernels/cpu rlk_cpu_naive, fp32: `naive` model */
    RLB_CPU_TILED,       /* kernels/cpu rlk_cpu_tiled, fp32: `tiled` model */
    RLB_CUDA_NAIVE,      /* cuBLAS + softmax kernel, S and P in device memory: `naive` */
    RLB_CUDA_TILED_FP32, /* FlashAttention-style, CUDA cores, Br×Bc configurable: `tiled` */
    RLB_CUDA_TILED_TC,   /* FlashAttention-style, tensor cores (WMMA), fp16/bf16: `tiled` */
    RLB_CUDA_TILED_MMA,  /* the same, FlashAttention-2 registers (mma.sync), fp16/bf16: `tiled` */
    RLB_CUDA_DECODE,     /* split-KV decode, GQA-fused: `compulsory` (or `tiled` unfused) */
    RLB_TORCH_SDPA,      /* PyTorch scaled_dot_product_attention (flash backend), imported */
    RLB_KERNEL_COUNT
} rlb_kernel;

const char *rlb_kernel_name(rlb_kernel k);   /* "cpu-naive", "cuda-tiled-tc" ... */
const char *rlb_kernel_version(rlb_kernel k); /* "1" ... bumped when a kernel changes */
/* Parse a kernel name; -1 when unknown. */
int rlb_kernel_parse(const char *name);

/* One kernel × problem. `problem` is resolved (rl_problem_resolve) and carries the kernel's tile
 * in block_m/block_n; `model` is the traffic model the kernel's dataflow follows. */
typedef struct rlb_case {
    rlb_kernel kernel;
    rl_problem problem;
    rl_model model;
} rlb_case;

typedef struct rlb_stats {
    double median_s, min_s, max_s;
    double mean_s, stddev_s; /* stddev_s: sample standard deviation, −1 = fewer than 2 runs */
    int runs;   /* timed runs */
    int warmup; /* untimed runs before them */
} rlb_stats;

/* Error against the fp64 reference over the rows checked. */
typedef struct rlb_check {
    double rel_l2_error;  /* ‖o − ref‖₂ / ‖ref‖₂; NaN when any checked value is not finite */
    double max_abs_error;
    double tolerance;     /* pass when rel_l2_error ≤ tolerance and nothing is NaN/inf */
    int64_t rows_checked; /* query rows compared with the reference */
    int64_t rows_total;   /* B·H·N */
    int64_t nonfinite;    /* output elements (of all of O) that are NaN or inf */
    int passed;
} rlb_check;

typedef struct rlb_result {
    rlb_case c;
    int ran;                          /* 1: timed and checked; 0: skipped (skip_reason) */
    char skip_reason[RLB_TEXT_MAX];
    rlb_stats t;
    rlb_check check;
    uint64_t seed;                    /* of this case's random inputs */
    char note[RLB_TEXT_MAX];          /* e.g. "splits=16, G=4" */
} rlb_result;

typedef struct rlb_ceiling {
    char name[64];        /* "HBM", "DRAM", "fp16 tensor", "fp32 FMA" ... */
    int is_bandwidth;     /* 1: bytes/s (device memory), 0: FLOP/s */
    rl_dtype dtype;       /* compute ceilings: the dtype; DEFAULT for bandwidth */
    double value;         /* bytes/s or FLOP/s, from the median run */
    double work;          /* bytes (read + written) or FLOPs of one run */
    rlb_stats t;
    char method[RLB_TEXT_MAX]; /* "cudaMemcpy D2D 1 GiB, bytes read + written" */
} rlb_ceiling;

typedef struct rlb_device {
    char name[128];
    char compute_capability[16]; /* "9.0"; "" on the CPU */
    int sm_count;                 /* SMs (GPU); 0 on the CPU */
    int threads;                  /* CPU threads used (CPU backend); 0 on a GPU */
    double sm_clock_hz;           /* peak SM clock, Hz; 0 = unknown */
    double mem_clock_hz;          /* peak memory clock, Hz; 0 = unknown */
    int mem_bus_bits;
    double l2_bytes;
    double mem_bytes;
    double smem_optin_bytes;
    char driver_version[32];
    char runtime_version[32];
    char library_versions[64];    /* "cuBLAS 13.0.0" */
    char isa[64];                 /* CPU kernels' instruction set */
} rlb_device;

typedef struct rlb_options {
    int quick;
    int runs;        /* 0 = adaptive */
    int warmup;      /* < 0 = default */
    int flush;       /* flush caches (L2 / LLC) between timed runs */
    int threads;     /* CPU threads, 0 = all */
    uint64_t seed;   /* base seed; case i uses a value derived from (seed, i) */
    int64_t check_rows; /* at most this many query rows per case against fp64 (0 = default) */
    /* Progress: called once per case/ceiling with a one-line message (no newline). */
    void (*progress)(void *ctx, const char *line);
    void *progress_ctx;
} rlb_options;

typedef struct rlb_run {
    rlb_device dev;
    rlb_ceiling ceilings[RLB_MAX_CEILINGS];
    int ceiling_count;
    rlb_result *results; /* caller-owned, one per case */
    int result_count;
    char compiler[128];  /* of the kernels */
    char flags[256];
} rlb_run;

/* ---- grids -------------------------------------------------------------------------------- */
/* Fill up to `cap` cases of the backend's grid ("cpu" or "cuda"); returns how many (the full
 * count even when cap is smaller). */
int rlb_grid(const char *backend, int quick, rlb_case *cases, int cap);
/* Make a case: resolves the problem (error → -1 with err filled), sets the model. */
int rlb_case_make(rlb_kernel kernel, const rl_problem *p, rl_model model, rlb_case *out,
                  rl_error *err);

/* ---- the harness both backends share -------------------------------------------------------- */
#if defined(__GNUC__)
#define RLB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RLB_PRINTF(f, a)
#endif
/* One progress line (no newline) through opt->progress; nothing when it is NULL. */
void rlb_progress(const rlb_options *opt, const char *fmt, ...) RLB_PRINTF(2, 3);

/* Adaptive run count of a case: about `seconds` of timed runs given one run's time t_est, within
 * [min_runs, max_runs]; --runs (opt->runs) wins, capped at RLB_MAX_RUNS. */
typedef struct rlb_budget {
    double seconds;
    int min_runs, max_runs;
} rlb_budget;
int rlb_choose_runs(const rlb_options *opt, double t_est, rlb_budget quick, rlb_budget full);
/* Run count of a ceiling: --runs capped at RLB_MAX_RUNS, else `runs`. */
int rlb_ceiling_runs(const rlb_options *opt, int runs);

/* A ceiling from its timed runs (the method text is the caller's): its value is work over the
 * best run, what the device reaches. */
void rlb_ceiling_from_runs(rlb_ceiling *c, const char *name, int is_bandwidth, rl_dtype dtype,
                           double work, const double *times_s, int runs, int warmup);

const char *rlb_dtype_name(rl_dtype dtype); /* "fp32", "bf16" ... as core's rl_dtype_name */
/* "cpu-tiled fp32 B=1 H=4 Hkv=4 N=512 L=512 d=64 causal", with " Br=64 Bc=64" before " causal"
 * when with_tile is set. */
void rlb_case_describe(const rlb_case *c, int with_tile, char *buf, size_t cap);
uint64_t rlb_case_seed(const rlb_options *opt, int index); /* seed of case `index`'s inputs */

/* A backend's cases: run_case fills `res` (ran and checked, or skip_reason) and returns 0, or
 * returns another value with `why` filled when the run cannot go on. */
typedef struct rlb_backend {
    int (*run_case)(void *ctx, const rlb_case *c, uint64_t seed, rlb_result *res, char *why,
                    size_t cap);
    void *ctx;
    int tile_in_progress; /* progress lines name Br and Bc */
    int ms_decimals;      /* decimals of the median (ms) in progress lines */
} rlb_backend;
/* Runs the cases in order with a progress line each; out->results[i] for case i. Returns 0, or 1
 * with `why` = "<case>: <the backend's why>" and out->result_count = the cases done. */
int rlb_run_cases(const rlb_options *opt, const rlb_case *cases, int n, const rlb_backend *be,
                  rlb_run *out, char *why, size_t cap);

/* Where the check finds a case's inputs as fp32 on the host: the d floats of query row `row`
 * (of B·H·N) and the L×d floats of K and V of KV head `kv_head` (of B·Hkv). Each returns 0, or a
 * positive value that stops the check. */
typedef struct rlb_inputs {
    int (*query)(void *ctx, int64_t row, const float **q);
    int (*kv)(void *ctx, int64_t kv_head, const float **k, const float **v);
    void *ctx;
} rlb_inputs;
/* The check of a case's output `o` (all of O, fp32 on the host, after the last timed run; it was
 * poisoned with NaN before the run): every element for NaN/inf, and up to opt->check_rows query
 * rows (256 by default; rlb_pick_rows with seed ^ RLB_SEED_ROWS) against the fp64 reference with
 * softmax scale `scale`, against rlb_tolerance. Returns 0 with *out, -1 when out of host memory,
 * or what a loader of `in` returned. */
int rlb_check_output(const rlb_options *opt, const rl_problem *p, double scale, uint64_t seed,
                     const float *o, const rlb_inputs *in, rlb_check *out);
/* Inputs already on the host in fp32 (Q [B][H][N][d], K and V [B][Hkv][L][d]): rlb_inputs_host
 * points into them; `t` must outlive the check. */
typedef struct rlb_host_inputs {
    const float *q, *k, *v;
    int64_t kv_len, head_dim;
} rlb_host_inputs;
rlb_inputs rlb_inputs_host(const rlb_host_inputs *t);

/* ---- statistics --------------------------------------------------------------------------- */
void rlb_stats_from(const double *times_s, int n, int warmup, rlb_stats *out);
double rlb_now_s(void); /* monotonic clock */
uint64_t rlb_mix64(uint64_t x);

/* ---- fp64 reference ------------------------------------------------------------------------ */
typedef struct rlb_ref_acc {
    double err2, ref2, max_abs;
    int64_t rows, nonfinite;
} rlb_ref_acc;

/* Reference for query row `i` of one (batch, head): q (d floats), kh/vh (L×d of its KV head), o
 * (d floats) the kernel's output; accumulates into acc. Causal as in MODEL.md. */
void rlb_ref_row(const rl_problem *p, double scale, int64_t i, const float *q, const float *kh,
                 const float *vh, const float *o, rlb_ref_acc *acc);
void rlb_ref_finish(const rlb_ref_acc *acc, double tolerance, int64_t rows_total,
                    int64_t nonfinite_all, rlb_check *out);
/* Tolerance on relative L2 error for a dtype: fp32 1e-5, tf32 1e-3, fp16/bf16 1e-2. */
double rlb_tolerance(rl_dtype dtype);
/* Rows to check: fills rows[] (sorted, distinct, within [0, total)) with at most `cap` row indices,
 * all of them when total ≤ cap, else the first, the last and random ones. Returns the count. */
int64_t rlb_pick_rows(int64_t total, int64_t cap, uint64_t seed, int64_t *rows);
/* Host input generation with the same distribution as the device (uniform in [−√3, √3)). */
void rlb_fill_uniform(float *p, size_t n, uint64_t seed);

/* ---- backends ----------------------------------------------------------------------------- */
/* Runs the CPU grid. Returns 0, or another value with `why` filled. */
int rlb_cpu_run(const rlb_options *opt, const rlb_case *cases, int n, rlb_run *out, char *why,
                size_t cap);

/* The CUDA backend, exported by librooflab_cuda.so (C ABI). Returns 0; RLB_EXIT_NODEVICE with
 * `why` when no usable device; another value on failure. */
typedef int (*rlb_cuda_run_fn)(const rlb_options *opt, const rlb_case *cases, int n, rlb_run *out,
                               char *why, size_t cap);
int rlb_cuda_run(const rlb_options *opt, const rlb_case *cases, int n, rlb_run *out, char *why,
                 size_t cap);
/* Load the CUDA backend (dlopen). NULL with `why` filled when it is absent or cannot load. */
rlb_cuda_run_fn rlb_cuda_load(char *why, size_t cap);

/* ---- provenance ---------------------------------------------------------------------------- */
void rlb_cpu_model(char *buf, size_t cap);
void rlb_git_revision(char *buf, size_t cap); /* "abc123…" (+ "-dirty"), or "unknown" */
void rlb_utc_now(char *buf, size_t cap);      /* "2026-11-29T10:00:00Z" */

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_BENCH_H */
