/* bench_record.h — results → record, the summary table, and reference series (bench_record.c). */
#ifndef ROOFLAB_BENCH_RECORD_H
#define ROOFLAB_BENCH_RECORD_H

#include <stdio.h>

#include "bench.h"
#include "rooflab/record.h"

#define RLB_SERIES_MAX 1000

/* A reference series timed by another tool on the same machine (gpu-check.sh writes one with
 * PyTorch's scaled_dot_product_attention, sdpa_reference.py): a record in the record format
 * (CONTRACTS.md "Records"), read by core's rl_record_parse; its points' problems, times and fp64
 * errors, the kernel from the points' "kernel" (or software.kernel), the version from
 * software.kernel_version. */
typedef struct rlb_series_point {
    rl_problem problem; /* resolved */
    double median_s, min_s, max_s, max_abs_error, rel_l2_error; /* errors: < 0 = not given */
    int runs;
} rlb_series_point;

typedef struct rlb_series {
    char kernel[64];
    char version[96];
    rlb_series_point *points;
    int count;
} rlb_series;

int rlb_series_read(const char *path, rlb_series *out, char *why, size_t cap);
void rlb_series_free(rlb_series *s);

/* Build the record of one benchmark run. Points: every case that ran and passed its check (FLOPs
 * and modelled bytes from core); skipped and failed cases go to the record's "skipped" list with
 * their problem, traffic model and reason; each ceiling's method says how it was measured. `series` may be NULL. Returns 0 and *out, or -1 with `why`. */
int rlb_build_record(const char *backend, const rlb_run *run, const rlb_options *opt,
                     const rlb_series *series, int argc, char **argv, rl_record **out, char *why,
                     size_t cap);

/* Human-readable table of the run on `f`. */
void rlb_print_table(FILE *f, const rlb_run *run, const rlb_series *series);

#endif
