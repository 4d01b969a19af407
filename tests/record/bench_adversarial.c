/* bench_adversarial.c — time per MB of the record reader and each importer on adversarial inputs
 * of 0.1, 0.4, 1.6, 6.4 and 16 MB (generated in memory: adversarial.h). Figures, not a test:
 * `make bench-records` runs it. The target (issue 12): time per MB flat within 2x from 0.1 to
 * 16 MB, i.e. linear time. Each figure is the best of 3 runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "adversarial.h"
#include "rooflab/record.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ERT roofline.json with many [name, GB/s] entries (the import stops at 64 ceilings). */
static char *adv_ert(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "{\"empirical\": {\"metadata\": {\"HOSTNAME\": \"n\"}, \"gbytes\": {\"data\": [");
    for (size_t i = 0; b.n + 64 < bytes; i++) adv_put(&b, "%s[\"DRAM %zu\", 800.5]", i ? "," : "", i);
    adv_put(&b, "]}}}");
    *len = b.n;
    return b.p;
}

/* ---- issue 23's importers (torch-trace, nsys-csv, triton-csv) ------------------------------- */

/* A PyTorch profiler trace of 8 ranks: CPU ops and FlashAttention kernel launches (4 names)
 * alternating, with Kineto's args. */
static char *adv_torch_launches(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
                "\"numSms\": 132, \"computeMajor\": 9, \"computeMinor\": 0}], \"traceEvents\": [");
    for (size_t i = 0; b.n + 400 < bytes; i++)
        adv_put(&b,
                "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": %zu, "
                "\"tid\": 1, \"ts\": %zu.5, \"dur\": 3.25}, {\"ph\": \"X\", \"cat\": \"kernel\", "
                "\"name\": \"flash_fwd_kernel_%zu\", \"pid\": 0, \"tid\": 7, \"ts\": %zu.5, "
                "\"dur\": %zu.125, \"args\": {\"device\": 0, \"stream\": 7, \"grid\": [32, 4, 16], "
                "\"block\": [128, 1, 1], \"registers per thread\": 255, \"shared memory\": 49152}}",
                i ? "," : "", i % 8, i * 10, i % 4, i * 10 + 5, 100 + i % 9);
    adv_put(&b, "]}");
    *len = b.n;
    return b.p;
}

/* The same with every kernel name distinct (the grouping sort's worst case). */
static char *adv_torch_names(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "{\"traceEvents\": [");
    for (size_t i = 0; b.n + 200 < bytes; i++)
        adv_put(&b, "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"attn_%zu\", "
                    "\"ts\": %zu, \"dur\": 10.5}",
                i ? "," : "", (i * 2654435761u) % 1000003u, i);
    adv_put(&b, "]}");
    *len = b.n;
    return b.p;
}

/* nsys stats cuda_gpu_trace: launches of 16 kernel names, copies between them. */
static char *adv_nsys_trace(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "\"Start (ns)\",\"Duration (ns)\",\"CorrId\",\"GrdX\",\"GrdY\",\"GrdZ\",\"BlkX\","
                "\"BlkY\",\"BlkZ\",\"Reg/Trd\",\"Device\",\"Strm\",\"Name\"\n");
    for (size_t i = 0; b.n + 200 < bytes; i++)
        adv_put(&b, i % 5 == 4 ? "\"%zu\",\"%zu\",\"%zu\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
                                 "\"NVIDIA H100 80GB HBM3 (0)\",\"7\",\"[CUDA memcpy Host-to-Device]\"\n"
                               : "\"%zu\",\"%zu\",\"%zu\",\"32\",\"4\",\"16\",\"128\",\"1\",\"1\",\"255\","
                                 "\"NVIDIA H100 80GB HBM3 (0)\",\"7\",\"void flash_fwd_kernel<%zu>\"\n",
                i * 1000, 1000000 + i % 97, i, i % 16);
    *len = b.n;
    return b.p;
}

/* A perf_report CSV: many x values, three lines (points beyond the record's limit: refused after
 * the whole table is read). */
static char *adv_triton(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "N_CTX,Triton [FP16],Triton [FP8],Flash-2\n");
    for (size_t i = 0; b.n + 64 < bytes; i++)
        adv_put(&b, "%zu.0,%zu.5,%zu.5,%zu.5\n", 128 + i % 4096, 100 + i % 50, 150 + i % 50, 90 + i % 50);
    *len = b.n;
    return b.p;
}

typedef char *(*gen_fn)(size_t bytes, size_t *len);

typedef struct bench_case {
    const char *name;
    gen_fn gen;
    int import; /* -1 reader, else the rl_import_format */
} bench_case;

static double run_once(const bench_case *c, const char *text, size_t len, int *ok) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    rl_import_opts o = {.problem_given = ~0u, /* an ncu export needs the problem given */
                        .unit = "TFLOP/s"};   /* a perf_report table's unit */
    double t0 = now();
    rl_status st = c->import < 0 ? rl_record_parse(text, len, &r, &is)
                                 : rl_record_import((rl_import_format)c->import, text, len, &o,
                                                    &r, &is);
    double t = now() - t0;
    *ok = st == RL_OK;
    rl_record_free(r);
    rl_rec_issues_free(&is);
    return t;
}

int main(void) {
    static const bench_case cases[] = {
        {"reader: duplicate keys", adv_many_keys, -1},
        {"reader: deep nesting", adv_deep, -1},
        {"import gbench: many names", adv_gbench, RL_IMPORT_GBENCH},
        {"import ncu-csv: many rows", adv_ncu, RL_IMPORT_NCU_CSV},
        {"import ert: many entries", adv_ert, RL_IMPORT_ERT},
        {"import torch: many launches", adv_torch_launches, RL_IMPORT_TORCH_TRACE},
        {"import torch: many names", adv_torch_names, RL_IMPORT_TORCH_TRACE},
        {"import nsys: many launches", adv_nsys_trace, RL_IMPORT_NSYS_CSV},
        {"import triton: many rows", adv_triton, RL_IMPORT_TRITON_CSV},
    };
    static const double sizes_mb[] = {0.1, 0.4, 1.6, 6.4, 16.0};
    printf("%-28s %8s %10s %10s %8s %s\n", "input", "MB", "seconds", "s per MB", "vs 0.1", "result");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double first = 0;
        for (size_t s = 0; s < sizeof sizes_mb / sizeof sizes_mb[0]; s++) {
            size_t len = 0;
            char *text = cases[k].gen((size_t)(sizes_mb[s] * 1e6), &len);
            double best = 1e30;
            int ok = 0;
            for (int rep = 0; rep < 3; rep++) {
                double t = run_once(&cases[k], text, len, &ok);
                if (t < best) best = t;
            }
            double mb = (double)len / 1e6, per = best / mb;
            if (s == 0) first = per;
            printf("%-28s %8.2f %10.4f %10.4f %7.2fx %s\n", cases[k].name, mb, best, per,
                   per / first, ok ? "accepted" : "refused");
            fflush(stdout);
            free(text);
        }
    }
    return 0;
}
