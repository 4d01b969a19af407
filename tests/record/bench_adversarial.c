/* bench_adversarial.c — time per MB of the record reader and each importer on adversarial inputs
 * of 0.1, 0.4, 1.6, 6.4 and 16 MB (generated in memory: adversarial.h). Figures, not a test:
 * `make bench-records` runs it. The target (issue 12): time per MB flat within 2x from 0.1 to
 * 16 MB, i.e. linear time. Each figure is the best of 3 runs. */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* ---- issue 21: inputs within the 16 MiB limit that an import refuses — refused before the
 * record is built. Each case runs in its own child process, so its peak memory (the child's
 * maxrss) is its own; the figure is its wall time and that peak. Target: < 1 s, < 100 MB. ---- */

/* ncu raw page: `n` kernels of one launch each, short names (100,000 of them: about 3 MB), the
 * record they make far over 16 MiB. */
static char *late_ncu_kernels(size_t n, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
                "\"dram__bytes_write.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
                "\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"inst\"\n");
    for (size_t i = 0; i < n; i++) adv_put(&b, "\"%zu\",\"k%zu\",\"1.5\",\"3\",\"6\",\"100\"\n", i, i);
    *len = b.n;
    return b.p;
}

/* gbench: `n` distinct run names of one iteration each. */
static char *late_gbench_names(size_t n, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "{\"benchmarks\": [");
    for (size_t i = 0; i < n; i++)
        adv_put(&b, "%s{\"name\": \"BM_x/1/128/1/64/%zu\", \"run_type\": \"iteration\", "
                    "\"real_time\": 5, \"time_unit\": \"us\"}", i ? "," : "", i);
    adv_put(&b, "]}");
    *len = b.n;
    return b.p;
}

/* ncu's details page: `n` launches of one metric row each, the last launch's ID the first's
 * again (interleaved): refused at its row after one pass, before any point. */
static char *late_ncu_details(size_t n, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
    for (size_t i = 0; i < n; i++)
        adv_put(&b, "\"%zu\",\"k\",\"gpu__time_duration.sum\",\"usecond\",\"1.5\"\n", i + 1 < n ? i : 0);
    *len = b.n;
    return b.p;
}

typedef struct late_case {
    const char *name;
    char *(*gen)(size_t n, size_t *len);
    size_t n;
    rl_import_format format;
    int bad_problem; /* the problem flags refused (heads 3, kv-heads 2) */
} late_case;

static void late_run(const late_case *c) {
    size_t len = 0;
    char *text = c->gen(c->n, &len);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        rl_rec_issues is = {0};
        rl_record *r = NULL;
        rl_import_opts o = {.problem_given = ~0u};
        if (c->bad_problem) {
            o.problem.heads = 3;
            o.problem.kv_heads = 2;
        }
        double t0 = now();
        rl_status st = rl_record_import(c->format, text, len, &o, &r, &is);
        double t = now() - t0;
        printf("%-40s %8.2f %10.4f ", c->name, (double)len / 1e6, t);
        printf("%s: %.90s\n", st == RL_OK ? "ACCEPTED" : "refused",
               is.count ? is.items[is.count - 1].message : "");
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    struct rusage ru;
    if (pid > 0 && wait4(pid, &status, 0, &ru) == pid)
        printf("%-40s %8s %10s peak %.1f MB (the child's maxrss, input included)\n", "", "", "",
               (double)ru.ru_maxrss / 1024.0);
    free(text);
}

static void refused_late(void) {
    static const late_case cases[] = {
        {"ncu-csv: 100,000 one-launch kernels", late_ncu_kernels, 100000, RL_IMPORT_NCU_CSV, 0},
        {"gbench: 100,000 run names", late_gbench_names, 100000, RL_IMPORT_GBENCH, 0},
        {"ncu-csv: 20,000 kernels, bad problem", late_ncu_kernels, 20000, RL_IMPORT_NCU_CSV, 1},
        {"ncu details: 100,000 launches, interleaved", late_ncu_details, 100000, RL_IMPORT_NCU_CSV, 0},
    };
    printf("\nrefused before the record is built (issue 21; target < 1 s, < 100 MB each):\n");
    printf("%-40s %8s %10s %s\n", "input", "MB", "seconds", "result");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) late_run(&cases[k]);
}

int main(void) {
    refused_late();
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
