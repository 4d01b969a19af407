#define _POSIX_C_SOURCE 200809L
/* test_import_traces.c — the importers of issue 23 against the tools' layouts
 * (tests/record/imports/): torch-trace (PyTorch profiler / Kineto Chrome trace), nsys-csv
 * (cuda_gpu_kern_sum, cuda_gpu_trace), triton-csv (perf_report CSV and printed table). Every
 * expected number is computed by hand in the comment beside it, never by the code under test.
 * Usage: test_import_traces IMPORTS_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rooflab/record.h"

static const char *dir;

static char *slurp(const char *name, size_t *len) {
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *t = check_slurp(path, len);
    if (!t) fprintf(stderr, "cannot read %s\n", path);
    return t;
}

static const char *first_error(const rl_rec_issues *is) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == RL_REC_ERROR) return is->items[i].message;
    return "";
}

static int has_warning(const rl_rec_issues *is, const char *text) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == RL_REC_WARNING && strstr(is->items[i].message, text)) return 1;
    return 0;
}

/* Import `len` bytes of `text` as `fmt`; *r (freed first) and *is (cleared first). */
static rl_status import(rl_import_format fmt, const char *text, size_t len, const rl_import_opts *o,
                        rl_record **r, rl_rec_issues *is) {
    rl_rec_issues_clear(is);
    rl_record_free(*r);
    *r = NULL;
    return rl_record_import(fmt, text, len, o, r, is);
}

static int detect(const char *text, size_t len) {
    rl_import_format f;
    return rl_import_detect(text, len, &f, NULL) == RL_OK ? (int)f : -1;
}

static void formats_detected(void) {
    static const struct {
        const char *file;
        rl_import_format f;
    } files[] = {{"torch-cpu-debian.json", RL_IMPORT_TORCH_TRACE},
                 {"torch-gpu-flash-h100.json", RL_IMPORT_TORCH_TRACE},
                 {"nsys-kern-sum-h100.csv", RL_IMPORT_NSYS_CSV},
                 {"nsys-gpu-trace-h100.csv", RL_IMPORT_NSYS_CSV},
                 {"triton-fused-attention-batch4-head32-d64-fwd-causal=True.csv", RL_IMPORT_TRITON_CSV},
                 {"triton-fused-attention-fwd-print.txt", RL_IMPORT_TRITON_CSV}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        char *t = slurp(files[i].file, &len);
        CHECK(t && detect(t, len) == (int)files[i].f);
        free(t);
    }
    /* names on a command line */
    rl_import_format f;
    CHECK(rl_import_format_parse("torch-trace", &f, NULL) == RL_OK && f == RL_IMPORT_TORCH_TRACE);
    CHECK(rl_import_format_parse("nsys-csv", &f, NULL) == RL_OK && f == RL_IMPORT_NSYS_CSV);
    CHECK(rl_import_format_parse("triton-csv", &f, NULL) == RL_OK && f == RL_IMPORT_TRITON_CSV);
    rl_error err = {0};
    CHECK(rl_import_format_parse("nsys", &f, &err) != RL_OK);
    CHECK_STR_CONTAINS(err.message, "expected one of ert, ncu-csv, gbench, torch-trace, nsys-csv, triton-csv");
    /* a bare array of numbers is no trace; an array of events is */
    const char *arr = "[{\"name\":\"k\",\"ph\":\"X\",\"ts\":1,\"dur\":2}]";
    CHECK(detect(arr, strlen(arr)) == RL_IMPORT_TORCH_TRACE);
    CHECK(detect("[1,2]", 5) < 0);
    /* a CSV of text is not a perf_report table */
    CHECK(detect("name,time\nBM_x,5\n", 17) < 0);
}

/* ---- torch-trace ------------------------------------------------------------------------------ */

/* B=4, H=16, N=4096 given; the head dim comes from the FlashAttention-2 kernel's name. */
static rl_import_opts trace_opts(void) {
    rl_import_opts o = {0};
    o.problem.batch = 4;
    o.problem.heads = 16;
    o.problem.seq = 4096;
    o.traffic_model = RL_TRAFFIC_COMPULSORY;
    return o;
}

static void torch_gpu_trace(void) {
    size_t len;
    char *t = slurp("torch-gpu-flash-h100.json", &len);
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    CHECK(t && import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) == RL_OK && r);
    if (r) {
        /* the forward kernel (5 launches on two devices of one name) and the backward kernel;
         * the GEMM and the fill kernel are not attention kernels */
        CHECK(r->point_count == 2);
        CHECK(strcmp(r->hardware.name, "NVIDIA H100 80GB HBM3") == 0);
        CHECK(r->hardware.preset && strcmp(r->hardware.preset, "h100-sxm") == 0);
        CHECK(r->hardware.compute_capability && strcmp(r->hardware.compute_capability, "9.0") == 0);
        CHECK(r->hardware.sm_count == 132);
        const rl_rec_point *f = &r->points[0], *b = &r->points[1];
        /* dur 1000.000, 1002.500, 998.250, 1001.000, 999.000 µs: sorted 998.25 999 1000 1001
         * 1002.5 → median 1000 µs; mean 5000.75 / 5 = 1000.15 µs; deviations −1.9 −1.15 −0.15
         * 0.85 2.35, squares 3.61 + 1.3225 + 0.0225 + 0.7225 + 5.5225 = 11.2, / 4 = 2.8 µs² */
        CHECK_CLOSE(f->time_median_s, 1000e-6, 1e-12);
        CHECK_CLOSE(f->time_min_s, 998.25e-6, 1e-12);
        CHECK_CLOSE(f->time_max_s, 1002.5e-6, 1e-12);
        CHECK_CLOSE(f->time_mean_s, 1000.15e-6, 1e-12);
        CHECK_CLOSE(f->time_stddev_s, sqrt(2.8) * 1e-6, 1e-9);
        CHECK(f->runs == 5);
        /* head_dim 128, dtype fp16, block 128×64 from Flash_fwd_kernel_traits<128, 128, 64, 4, …,
         * cutlass::half_t>; F = 4·B·H·N²·d = 4·4·16·4096²·128 = 549,755,813,888 */
        CHECK(f->problem.head_dim == 128 && f->problem.dtype == RL_DTYPE_FP16);
        CHECK(f->problem.block_m == 128 && f->problem.block_n == 64 && f->problem.pass == RL_PASS_FWD);
        CHECK_CLOSE(f->flops, 549755813888.0, 0);
        CHECK(f->label && strcmp(f->label, "grid [32, 4, 16], block [128, 1, 1], 255 registers per "
                                           "thread, 49152 B shared memory") == 0);
        CHECK(f->kernel && strncmp(f->kernel, "void flash_fwd_kernel<", 22) == 0);
        /* the backward kernel: 2500 and 2600 µs → median 2550 µs; pass bwd from its traits:
         * F = 2.5 × 549,755,813,888 = 1,374,389,534,720 */
        CHECK_CLOSE(b->time_median_s, 2550e-6, 1e-12);
        CHECK(b->runs == 2 && b->problem.pass == RL_PASS_BWD && b->problem.head_dim == 128);
        CHECK_CLOSE(b->flops, 1374389534720.0, 0);
        CHECK_STR_CONTAINS(r->provenance.notes, "imported the 7 launches");
    }
    /* --match chooses other kernels: the GEMM (850.125 µs), whose name gives no head dim */
    o.match = "XMMA_GEMM";
    CHECK(import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "problem: a PyTorch profiler trace does not say which "
                                         "problem the kernels ran; give --batch, --heads, --seq, "
                                         "--head-dim (missing: --head-dim)");
    o.problem.head_dim = 64;
    CHECK(import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) == RL_OK && r && r->point_count == 1);
    if (r) CHECK_CLOSE(r->points[0].time_median_s, 850.125e-6, 1e-12);
    /* nothing matches: the filter, the kernels with the most time (bwd 2500 + 2600 = 5100 µs,
     * fwd 5000.75 µs, GEMM 850.125 µs) and --match */
    o.match = "decode_splitkv";
    CHECK(import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) != RL_OK && !r);
    CHECK_STR_CONTAINS(first_error(&is), "traceEvents: none of the 9 GPU kernels (4 distinct names) "
                                         "matches names containing \"decode_splitkv\" (--match); "
                                         "choose with --match TEXT (a part of a kernel's name); "
                                         "the most time: \"void flash_bwd_dq_dk_dv");
    CHECK_STR_CONTAINS(first_error(&is), "\", \"void flash_fwd_kernel<");
    CHECK_STR_CONTAINS(first_error(&is), "\", \"sm90_xmma_gemm");
    /* the problem not given */
    o = trace_opts();
    o.problem.batch = 0;
    CHECK(import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "(the kernel names give the head dim); give --batch, "
                                         "--heads, --seq (missing: --batch)");
    free(t);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void torch_cpu_trace_refused(void) {
    size_t len;
    char *t = slurp("torch-cpu-debian.json", &len);
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    o.problem.head_dim = 32;
    CHECK(t && import(RL_IMPORT_TORCH_TRACE, t, len, &o, &r, &is) != RL_OK && !r);
    /* 207 events written by Debian's torch 1.13 (python3-torch) on the CPU, none a GPU kernel */
    CHECK_STR_CONTAINS(first_error(&is), "traceEvents: no GPU kernel events (\"cat\": \"kernel\", "
                                         "\"ph\": \"X\") among its 207 events");
    CHECK_STR_CONTAINS(first_error(&is), "a CPU-only trace; profile on a GPU with "
                                         "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]");
    free(t);
    rl_rec_issues_free(&is);
}

static void torch_broken(void) {
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    o.problem.head_dim = 64;
    static const struct {
        const char *text, *error;
    } cases[] = {
        /* cut short: line 2, column 38 is where the text ends */
        {"{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\"",
         "not valid JSON at line 2, column 36 (the file ends early: cut short?)"},
        {"{\"traceEvents\": {}}", "traceEvents: not a PyTorch profiler trace: expected an object "
                                  "with a \"traceEvents\" array"},
        {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"flash\", \"dur\": \"12\"}]}",
         "traceEvents[0].dur: expected the kernel's duration, a positive number of microseconds"},
        {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"flash\", \"dur\": 0}]}",
         "traceEvents[0].dur: expected the kernel's duration"},
        {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"dur\": 3}]}",
         "traceEvents[0].name: expected the kernel's name"},
        {"{\"traceEvents\": [1, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"flash\", \"dur\": 5, "
         "\"args\": {\"grid\": [1, 2]}}]}",
         "traceEvents[0]: expected an event object"},
        {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"flash\", \"dur\": 5, "
         "\"args\": {\"grid\": [1, 2.5, 1], \"block\": [1, 1, 1]}}]}",
         "traceEvents[0].args.grid[1]: expected an integer from 0 to 4294967296"},
        {"{\"deviceProperties\": [{\"id\": 0}], \"traceEvents\": []}",
         "deviceProperties[0].name: expected the device's name"},
        {"{\"deviceProperties\": [{\"id\": 0, \"name\": \"G\", \"numSms\": -1}], \"traceEvents\": []}",
         "deviceProperties[0].numSms: expected an integer from 1 to 1048576"},
        /* RFC 8259 strictly: a leading zero is not JSON (cJSON alone would take it) */
        {"{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"flash\", \"dur\": 05}]}",
         "not valid JSON at line 1, column 72"}, /* the '5' after the leading zero */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(import(RL_IMPORT_TORCH_TRACE, cases[i].text, strlen(cases[i].text), &o, &r, &is) != RL_OK);
        CHECK(r == NULL);
        CHECK_STR_CONTAINS(first_error(&is), cases[i].error);
    }
    rl_rec_issues_free(&is);
}

/* A buffer that grows (for the generated traces). */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(buf *b, const char *fmt, ...) {
    if (!b->s && !(b->s = malloc(b->cap = 1 << 16))) abort();
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap ? b->cap * 2 : 1 << 16;
        b->s = realloc(b->s, b->cap);
        if (!b->s) abort();
    }
}

/* Eight ranks (devices 0–3 an H100, 4–7 an A100), 2,000 launches each of one FlashAttention
 * kernel with durations cycling 100, 101, 102, 103, 104 µs, and as many CPU events: 32,000
 * events in all. One point per device name, each with its own hardware. */
static void torch_many_ranks(void) {
    buf b = {0};
    put(&b, "{\"deviceProperties\": [");
    for (int d = 0; d < 8; d++)
        put(&b, "%s{\"id\": %d, \"name\": \"%s\", \"computeMajor\": %d, \"computeMinor\": 0, "
                "\"numSms\": %d}",
            d ? ", " : "", d, d < 4 ? "NVIDIA H100 80GB HBM3" : "NVIDIA A100-SXM4-80GB",
            d < 4 ? 9 : 8, d < 4 ? 132 : 108);
    put(&b, "], \"traceEvents\": [");
    for (int i = 0; i < 16000; i++) {
        int d = i % 8;
        put(&b, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::scaled_dot_product_attention\", "
                "\"pid\": %d, \"tid\": 1, \"ts\": %d, \"dur\": 3.5}",
            i ? ", " : "", d, i * 10);
        put(&b, ", {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"pytorch_flash::flash_fwd_kernel\", "
                "\"pid\": %d, \"tid\": 7, \"ts\": %d, \"dur\": %d.000, \"args\": {\"device\": %d, "
                "\"stream\": 7, \"grid\": [16, 2, 8], \"block\": [128, 1, 1], "
                "\"registers per thread\": 255, \"shared memory\": 65536}}",
            d, i * 10 + 5, 100 + (i / 8) % 5, d);
    }
    put(&b, "]}");
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    o.problem.head_dim = 128;
    CHECK(import(RL_IMPORT_TORCH_TRACE, b.s, b.n, &o, &r, &is) == RL_OK && r);
    if (r && r->point_count == 2) {
        CHECK(strcmp(r->hardware.name, "several GPUs (each point names its own)") == 0);
        for (int k = 0; k < 2; k++) {
            const rl_rec_point *p = &r->points[k];
            /* 8,000 launches per device name: each duration 1,600 times → median 102 µs,
             * mean (100 + 101 + 102 + 103 + 104) / 5 = 102 µs */
            CHECK(p->runs == 8000);
            CHECK_CLOSE(p->time_median_s, 102e-6, 1e-12);
            CHECK_CLOSE(p->time_min_s, 100e-6, 1e-12);
            CHECK_CLOSE(p->time_max_s, 104e-6, 1e-12);
            CHECK_CLOSE(p->time_mean_s, 102e-6, 1e-12);
            CHECK(p->hardware != NULL);
            if (p->hardware)
                CHECK(strcmp(p->hardware->preset, k == 0 ? "h100-sxm" : "a100-sxm4-80gb") == 0 &&
                      p->hardware->sm_count == (k == 0 ? 132 : 108));
        }
    } else {
        CHECK(0);
        fprintf(stderr, "many ranks: %s\n", first_error(&is));
    }
    free(b.s);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* One kernel name launched with two grids: its timing mixes two problems, said in a warning. */
static void torch_two_configs(void) {
    const char *t = "{\"traceEvents\": ["
                    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fmha_fwd\", \"dur\": 10, "
                    "\"args\": {\"grid\": [8, 1, 1], \"block\": [128, 1, 1]}},"
                    "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"fmha_fwd\", \"dur\": 20, "
                    "\"args\": {\"grid\": [16, 1, 1], \"block\": [128, 1, 1]}}]}";
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    o.problem.head_dim = 64;
    CHECK(import(RL_IMPORT_TORCH_TRACE, t, strlen(t), &o, &r, &is) == RL_OK && r);
    CHECK(has_warning(&is, "kernel \"fmha_fwd\": its launches differ in launch configuration "
                           "(grid [8, 1, 1], block [128, 1, 1]; also grid [16, 1, 1], block [128, 1, 1])"));
    /* 10 and 20 µs ("cat": "Kernel", as older Kineto wrote it, counts too) → median 15 µs */
    if (r) CHECK_CLOSE(r->points[0].time_median_s, 15e-6, 1e-12);
    CHECK(r && strcmp(r->hardware.name, "unknown (not in the file)") == 0);
    /* without args.device, the event's "pid" names the device (Kineto writes the device id there) */
    const char *pid = "{\"deviceProperties\": [{\"id\": 3, \"name\": \"NVIDIA L4\", \"numSms\": 58}], "
                      "\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fmha_fwd\", "
                      "\"pid\": 3, \"dur\": 10}]}";
    CHECK(import(RL_IMPORT_TORCH_TRACE, pid, strlen(pid), &o, &r, &is) == RL_OK && r);
    CHECK(r && strcmp(r->hardware.name, "NVIDIA L4") == 0 && r->hardware.sm_count == 58 &&
          r->hardware.preset && strcmp(r->hardware.preset, "l4") == 0);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* ---- nsys-csv --------------------------------------------------------------------------------- */

static void nsys_kern_sum(void) {
    size_t len;
    char *t = slurp("nsys-kern-sum-h100.csv", &len);
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    o.preset = "h100-sxm";
    CHECK(t && import(RL_IMPORT_NSYS_CSV, t, len, &o, &r, &is) == RL_OK && r);
    if (r && r->point_count == 1) {
        const rl_rec_point *p = &r->points[0];
        /* "1,000,000.0" ns median, "998,000" min, "1,004,000" max, "1,000,250.0" avg,
         * "1,870.4" stddev, 10 instances */
        CHECK_CLOSE(p->time_median_s, 1e-3, 1e-12);
        CHECK_CLOSE(p->time_min_s, 998e-6, 1e-12);
        CHECK_CLOSE(p->time_max_s, 1.004e-3, 1e-12);
        CHECK_CLOSE(p->time_mean_s, 1.00025e-3, 1e-12);
        CHECK_CLOSE(p->time_stddev_s, 1870.4e-9, 1e-12);
        CHECK(p->runs == 10 && p->problem.head_dim == 128);
        CHECK_CLOSE(p->flops, 549755813888.0, 0);
        CHECK(strcmp(r->hardware.preset, "h100-sxm") == 0);
    } else {
        CHECK(0);
    }
    free(t);
    /* --timeunit usec: "(us)" in the header; the gemm chosen with --match, d given */
    const char *us = "\"Time (%)\",\"Total Time (us)\",\"Instances\",\"Avg (us)\",\"Med (us)\","
                     "\"Min (us)\",\"Max (us)\",\"StdDev (us)\",\"Name\"\n"
                     "100.0,4920.0,6,820.0,819.5,815.0,826.0,4.0,\"xmma_gemm_f16\"\n";
    o.match = "gemm";
    o.problem.head_dim = 64;
    CHECK(import(RL_IMPORT_NSYS_CSV, us, strlen(us), &o, &r, &is) == RL_OK && r);
    if (r) {
        CHECK_CLOSE(r->points[0].time_median_s, 819.5e-6, 1e-12); /* 819.5 µs */
        CHECK_CLOSE(r->points[0].time_mean_s, 820e-6, 1e-12);
        CHECK(r->points[0].runs == 6);
    }
    /* strict cells, each error naming its line and column */
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"\"Time (%)\",\"Total Time (fortnights)\",\"Instances\",\"Avg (ns)\",\"Name\"\n1,2,3,4,flash\n",
         "line 1, column Total Time (fortnights): unknown time unit; expected (ns), (us), (ms) or (s)"},
        {"Processing [r.sqlite] with [cuda_gpu_kern_sum.py]...\n\n"
         "\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Med (ns)\",\"Name\"\n"
         "50.0,2000,2,1000,\"1.000,5\",flash_fwd\n",
         "line 4, column Med (ns): got \"1.000,5\": a decimal comma"},
        {"\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Med (ns)\",\"Name\"\n"
         "50.0,2000,2.5,1000,1000,flash_fwd\n",
         "line 2, column Instances: expected a whole number of instances, 1 or more"},
        {"\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Med (ns)\",\"Name\"\n"
         "50.0,2000,2,1000,-5,flash_fwd\n",
         "line 2, column Med (ns): expected a non-negative number, got \"-5\""},
        {"\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Med (ns)\",\"Name\"\n"
         "50.0,2000,2,1000\n",
         "line 2: expected 6 cells like the header, got 4"},
        {"\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Name\"\n50.0,2000,2,flash\n",
         "line 1: no \"Med (ns)\" or \"Avg (ns)\" column"},
        {"Kernel,Time\nflash,5\n", "line 1: expected the header of nsys stats --report cuda_gpu_kern_sum"},
        {"\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Name\"\n50.0,2000,2,1000,\"flash\n",
         "line 2: unterminated quoted cell"},
    };
    o.match = NULL;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(import(RL_IMPORT_NSYS_CSV, bad[i].text, strlen(bad[i].text), &o, &r, &is) != RL_OK);
        CHECK(!r);
        CHECK_STR_CONTAINS(first_error(&is), bad[i].error);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void nsys_gpu_trace(void) {
    size_t len;
    char *t = slurp("nsys-gpu-trace-h100.csv", &len);
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = trace_opts();
    CHECK(t && import(RL_IMPORT_NSYS_CSV, t, len, &o, &r, &is) == RL_OK && r);
    if (r && r->point_count == 1) {
        const rl_rec_point *p = &r->points[0];
        /* Duration 1000000, 1002000, 999000 ns → median 1 ms, min 0.999 ms, max 1.002 ms */
        CHECK_CLOSE(p->time_median_s, 1e-3, 1e-12);
        CHECK_CLOSE(p->time_min_s, 999e-6, 1e-12);
        CHECK_CLOSE(p->time_max_s, 1.002e-3, 1e-12);
        CHECK(p->runs == 3);
        CHECK(strcmp(p->label, "grid [32, 4, 16], block [128, 1, 1], 255 registers per thread") == 0);
        /* "NVIDIA H100 80GB HBM3 (0)": the device name without its index → the h100-sxm preset */
        CHECK(strcmp(r->hardware.name, "NVIDIA H100 80GB HBM3") == 0);
        CHECK(strcmp(r->hardware.preset, "h100-sxm") == 0);
        CHECK_STR_CONTAINS(r->provenance.notes, "6 rows, 1 memory operations passed over; "
                                                "imported the 3 launches");
    } else {
        CHECK(0);
    }
    free(t);
    /* nothing attention-like: the refusal names the kernel with the most time */
    const char *gemm = "\"Start (ns)\",\"Duration (ns)\",\"GrdX\",\"Name\"\n1,500,4,gemm_a\n2,700,4,gemm_b\n";
    CHECK(import(RL_IMPORT_NSYS_CSV, gemm, strlen(gemm), &o, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "Name: none of the 2 GPU kernels (2 distinct names) matches "
                                         "names that look like attention kernels");
    CHECK_STR_CONTAINS(first_error(&is), "the most time: \"gemm_b\", \"gemm_a\"");
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* ---- triton-csv ------------------------------------------------------------------------------- */

/* The 06-fused-attention benchmark: BATCH 4, N_HEADS 32, HEAD_DIM 64, causal, fwd, TFLOPS. */
static rl_import_opts triton_opts(void) {
    rl_import_opts o = {0};
    o.problem.batch = 4;
    o.problem.heads = 32;
    o.problem.head_dim = 64;
    o.problem.causal = 1;
    o.problem_given = 1u << RL_FIELD_CAUSAL;
    o.unit = "TFLOP/s";
    o.traffic_model = RL_TRAFFIC_COMPULSORY;
    return o;
}

static void triton_table(const char *file) {
    size_t len;
    char *t = slurp(file, &len);
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = triton_opts();
    CHECK(t && import(RL_IMPORT_TRITON_CSV, t, len, &o, &r, &is) == RL_OK && r);
    if (r && r->point_count == 5) {
        /* the tutorial's count: 4·B·H·N²·d × ½ (causal) = 2·4·32·64·N² = 16,384·N²
         * N = 1024: 17,179,869,184 FLOP; at 100 TFLOP/s 171.79869184 µs; at 120 (FP8 line)
         *   143.165576533… µs
         * N = 2048: 68,719,476,736 FLOP; at 200 TFLOP/s 343.59738368 µs
         * N = 4096: 274,877,906,944 FLOP; at 250 TFLOP/s 1,099.511627776 µs (the FP8 cell empty) */
        const rl_rec_point *p = r->points;
        CHECK(p[0].problem.seq == 1024 && p[0].problem.dtype == RL_DTYPE_FP16);
        CHECK_CLOSE(p[0].time_median_s, 171.79869184e-6, 1e-12);
        CHECK_CLOSE(p[0].flops, 17179869184.0, 0);
        CHECK_CLOSE(p[0].reported_flops_per_s, 100e12, 0);
        CHECK(p[1].problem.seq == 1024 && p[1].problem.dtype == RL_DTYPE_FP8);
        CHECK_CLOSE(p[1].time_median_s, 17179869184.0 / 120e12, 1e-12);
        CHECK(p[2].problem.seq == 2048);
        CHECK_CLOSE(p[2].time_median_s, 343.59738368e-6, 1e-12);
        CHECK(p[4].problem.seq == 4096 && p[4].problem.causal == 1);
        CHECK_CLOSE(p[4].time_median_s, 1099.511627776e-6, 1e-12);
        CHECK(strcmp(p[0].kernel, "Triton [FP16]") == 0);
        CHECK(has_warning(&is, "1 empty (NaN) cells skipped"));
    } else {
        CHECK(0);
        fprintf(stderr, "%s: %s\n", file, first_error(&is));
    }
    free(t);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void triton_units_and_errors(void) {
    rl_record *r = NULL;
    rl_rec_issues is = {0};
    rl_import_opts o = triton_opts();
    o.unit = NULL;
    /* a time in the header: 0.5 ms; FLOPs the model's F for causal N = L = 1024:
     * pairs N(N+1)/2 = 524,800, F = 4·B·H·d·pairs = 4·4·32·64·524,800 = 17,196,646,400 */
    const char *ms = "N_CTX,flash (ms)\n1024,0.5\n";
    CHECK(import(RL_IMPORT_TRITON_CSV, ms, strlen(ms), &o, &r, &is) == RL_OK && r);
    if (r) {
        CHECK_CLOSE(r->points[0].time_median_s, 0.5e-3, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 17196646400.0, 0);
    }
    /* the x column by --args: a batch sweep of 2 and 8 at N = 2048, 2 µs and 8 µs */
    const char *batch = "B,mine (us)\n2,2\n8,8\n";
    o.problem.seq = 2048;
    o.gbench_args = "batch";
    CHECK(import(RL_IMPORT_TRITON_CSV, batch, strlen(batch), &o, &r, &is) == RL_OK && r);
    if (r) CHECK(r->points[1].problem.batch == 8 && fabs(r->points[1].time_median_s - 8e-6) < 1e-18);
    o.gbench_args = NULL;
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"N_CTX,Triton [FP16]\n1024,100\n",
         "line 1, column Triton [FP16]: the table does not state its unit"},
        {"N_CTX,Triton (GB/s)\n1024,100\n",
         "line 1, column Triton (GB/s): unit \"GB/s\" is neither a time (ms, us, s) nor a FLOP rate"},
        {"N_CTX,Triton (ms)\n1024,0.5\n2048,abc\n",
         "line 3, column Triton (ms): expected a number such as 1,571.20"},
        {"N_CTX,Triton (ms)\n1024.5,0.5\n",
         "line 2, column N_CTX: expected a whole number (the swept seq), got \"1024.5\""},
        {"SIZE,Triton (ms)\n1024,0.5\n",
         "line 1: the first column \"SIZE\" names no problem field; give --args KEY"},
        {"N_CTX,Triton (ms)\n1024,0.5,7\n", "line 2: expected 2 cells like the header, got 3"},
        {"N_CTX,Triton (ms)\n1024,NaN\n", "every value of the table is empty (NaN): no line ran"},
        {"plot:\n   N_CTX  Triton (ms)\nx  1024.0  0.5\n",
         "line 3: expected a row of the printed table: its index (0, 1, ...) then one value per column"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(import(RL_IMPORT_TRITON_CSV, bad[i].text, strlen(bad[i].text), &o, &r, &is) != RL_OK);
        CHECK(!r);
        CHECK_STR_CONTAINS(first_error(&is), bad[i].error);
    }
    /* print_data prints one table per benchmark: the first is read, the next said */
    const char *two = "fused-attention-batch4-head32-d64-fwd-causal=True:\n   N_CTX  T (ms)\n0  1024.0  0.5\n"
                      "fused-attention-batch4-head32-d64-fwd-causal=False:\n   N_CTX  T (ms)\n0  1024.0  0.9\n";
    o = triton_opts();
    o.unit = NULL;
    CHECK(import(RL_IMPORT_TRITON_CSV, two, strlen(two), &o, &r, &is) == RL_OK && r && r->point_count == 1);
    CHECK(has_warning(&is, "line 4: another perf_report table (its plot name) not read"));
    /* the fixed fields are the user's: heads missing */
    o = triton_opts();
    o.problem.heads = 0;
    const char *ok = "N_CTX,Triton (ms)\n1024,0.5\n";
    CHECK(import(RL_IMPORT_TRITON_CSV, ok, strlen(ok), &o, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "problem: a perf_report table gives only its x columns of "
                                         "the problem; give --batch, --heads, --seq, --head-dim "
                                         "(missing: --heads)");
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* What the page prefills its form with: the tutorial's plot name in the printed table. */
static void triton_plot_name_hints(void) {
    size_t len;
    char *t = slurp("triton-fused-attention-fwd-print.txt", &len);
    rl_problem h;
    unsigned given = 0;
    char what[256];
    /* "fused-attention-batch4-head32-d64-fwd-causal=True:" → B 4, H 32, d 64, fwd, causal */
    CHECK(t && rl_import_hints(t, len, &h, &given, what, sizeof what) == 5);
    CHECK(h.batch == 4 && h.heads == 32 && h.head_dim == 64 && h.pass == RL_PASS_FWD && h.causal == 1);
    CHECK(given == (1u << RL_FIELD_BATCH | 1u << RL_FIELD_HEADS | 1u << RL_FIELD_HEAD_DIM |
                    1u << RL_FIELD_PASS | 1u << RL_FIELD_CAUSAL));
    CHECK_STR_CONTAINS(what, "the plot name …batch4-head32-d64-fwd-causal=True: batch 4, heads 32, "
                             "head-dim 64, pass fwd, causal");
    const char *bwd = "fused-attention-batch2-head16-d128-bwd-causal=False:";
    CHECK(rl_import_hints(bwd, strlen(bwd), &h, &given, what, sizeof what) == 5);
    CHECK(h.pass == RL_PASS_BWD && h.causal == 0 && h.head_dim == 128);
    const char *partial[] = {"x-batch4-head32-d64:", "x-batch4-head32-d64-fwd-causal=maybe", "-batch-head-d"};
    for (size_t i = 0; i < 3; i++)
        CHECK(rl_import_hints(partial[i], strlen(partial[i]), &h, &given, what, sizeof what) == 0 &&
              given == 0);
    free(t);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_import_traces IMPORTS_DIR\n");
        return 2;
    }
    dir = argv[1];
    formats_detected();
    torch_gpu_trace();
    torch_cpu_trace_refused();
    torch_broken();
    torch_many_ranks();
    torch_two_configs();
    nsys_kern_sum();
    nsys_gpu_trace();
    triton_table("triton-fused-attention-batch4-head32-d64-fwd-causal=True.csv");
    triton_table("triton-fused-attention-fwd-print.txt");
    triton_units_and_errors();
    triton_plot_name_hints();
    return check_report("test_import_traces");
}
