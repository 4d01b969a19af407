/* test_bench_record.c — benchmark results → record: a synthetic GPU run (no GPU needed) written,
 * read back and checked against MODEL.md's reference values; failed and skipped cases kept out
 * of the points and listed under "skipped" with their reason; ceilings' methods as fields, not
 * notes; a reference series file read and refused when bad. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_check.h"
#include "bench_record.h"
#include "rooflab/record.h"


static void set_result(rlb_result *r, rlb_kernel k, rl_model m, rl_problem p, double median,
                       int passed, int ran) {
    rl_error e;
    memset(r, 0, sizeof *r);
    CHECK(rlb_case_make(k, &p, m, &r->c, &e) == 0, "case: %s", e.message);
    r->ran = ran;
    if (!ran) snprintf(r->skip_reason, sizeof r->skip_reason, "needs 9 GiB of device memory");
    r->t.median_s = median;
    r->t.min_s = median * 0.9;
    r->t.max_s = median * 1.2;
    r->t.mean_s = median * 1.01;
    r->t.stddev_s = median * 0.05;
    r->t.runs = 20;
    r->t.warmup = 3;
    r->check.passed = passed;
    r->check.rel_l2_error = passed ? 1e-3 : 0.5;
    r->check.max_abs_error = passed ? 2e-3 : 1.0;
    r->check.tolerance = 1e-2;
    r->check.rows_checked = 1;
    r->check.rows_total = 32;
}

static void gpu_run_should_make_a_valid_record_with_core_values(const char *series_path) {
    rlb_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.dev.name, sizeof run.dev.name, "NVIDIA H200");
    snprintf(run.dev.compute_capability, sizeof run.dev.compute_capability, "9.0");
    snprintf(run.dev.driver_version, sizeof run.dev.driver_version, "13.0");
    snprintf(run.dev.runtime_version, sizeof run.dev.runtime_version, "13.0");
    run.dev.sm_count = 132;
    run.dev.sm_clock_hz = 1.98e9;   /* cudaDevAttrClockRate 1,980,000 kHz */
    run.dev.mem_clock_hz = 3.2e9;   /* cudaDevAttrMemoryClockRate 3,200,000 kHz */
    snprintf(run.compiler, sizeof run.compiler, "nvcc 13.0");
    snprintf(run.flags, sizeof run.flags, "-O3");
    run.ceiling_count = 2;
    snprintf(run.ceilings[0].name, sizeof run.ceilings[0].name, "HBM");
    run.ceilings[0].is_bandwidth = 1;
    run.ceilings[0].value = 4.3e12;
    snprintf(run.ceilings[1].name, sizeof run.ceilings[1].name, "fp16 tensor");
    run.ceilings[1].dtype = RL_DTYPE_FP16;
    run.ceilings[1].value = 7.9e14;
    rlb_result res[3];
    /* MODEL.md's GQA decode: B=1, H=32, Hkv=8, N=1, L=4096, d=128, fp16:
     * F = 67,108,864 FLOP, compulsory = 16,793,600 bytes. 10 µs → 3.9 TB/s, under the roof. */
    rl_problem dec = {.batch = 1, .heads = 32, .kv_heads = 8, .seq = 1, .kv_len = 4096,
                      .head_dim = 128, .dtype = RL_DTYPE_FP16};
    set_result(&res[0], RLB_CUDA_DECODE, RL_MODEL_COMPULSORY, dec, 1e-5, 1, 1);
    rl_problem big = {.batch = 1, .heads = 8, .seq = 16384, .head_dim = 64, .dtype = RL_DTYPE_FP16};
    set_result(&res[1], RLB_CUDA_TILED_TC, RL_MODEL_TILED, big, 1e-2, 0, 1); /* failed check */
    set_result(&res[2], RLB_CUDA_NAIVE, RL_MODEL_NAIVE, big, 0, 0, 0);       /* skipped */
    run.results = res;
    run.result_count = 3;

    rlb_series series, *sp = NULL;
    char why[512] = "";
    if (series_path) {
        CHECK(rlb_series_read(series_path, &series, why, sizeof why) == 0, "series: %s", why);
        sp = &series;
    }
    rlb_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flush = 1;
    opt.seed = 42;
    char *argv[] = {"rooflab", "bench", "--backend", "cuda", "--out", "x.json", NULL};
    rl_record *rec = NULL;
    CHECK(rlb_build_record("cuda", &run, &opt, sp, 6, argv, &rec, why, sizeof why) == 0,
          "build: %s", why);
    if (!rec) return;
    rl_error e;
    char *json = rl_record_write_json(rec, 1, &e);
    CHECK(json != NULL, "write: %s", e.message);
    rl_record_free(rec);
    if (!json) return;
    rl_record *back = NULL;
    rl_rec_issues issues = {0};
    CHECK(rl_record_parse(json, strlen(json), &back, &issues) == RL_OK, "read back: %s",
          issues.count ? issues.items[0].message : "?");
    if (back) {
        CHECK(back->point_count == (size_t)(1 + (sp ? series.count : 0)),
              "points: %zu (only the passing case and the series)", back->point_count);
        const rl_rec_point *pt = &back->points[0];
        CHECK(pt->flops == 67108864.0, "decode flops %.17g, DESIGN.md says 67,108,864", pt->flops);
        CHECK(pt->modelled_bytes == 16793600.0, "decode bytes %.17g, DESIGN.md says 16,793,600",
              pt->modelled_bytes);
        CHECK(pt->traffic_model == RL_TRAFFIC_COMPULSORY, "decode traffic model");
        CHECK(pt->time_median_s == 1e-5 && pt->runs == 20, "timing");
        CHECK(fabs(pt->time_mean_s - 1.01e-5) < 1e-18 && fabs(pt->time_stddev_s - 5e-7) < 1e-18,
              "timing: mean and stddev carried");
        CHECK(pt->kernel && strcmp(pt->kernel, "cuda-decode") == 0, "kernel name");
        CHECK(back->hardware.preset && strcmp(back->hardware.preset, "h200-sxm") == 0, "preset");
        CHECK(back->hardware.compute_capability &&
                  strcmp(back->hardware.compute_capability, "9.0") == 0, "compute capability");
        CHECK(back->hardware.ceiling_count == 2 && back->hardware.ceilings[0].measured, "ceilings");
        CHECK(back->provenance.kind == RL_PROV_MEASURED, "provenance kind");
        const char *n = back->provenance.notes ? back->provenance.notes : "";
        rl_rec_issues vissues = {0};
        CHECK(rl_record_validate(back, &vissues) == RL_OK, "validate: %s",
              vissues.count ? vissues.items[0].message : "?");
        rl_rec_issues_free(&vissues);
        CHECK(back->skipped_count == 2, "skipped: %zu (the failed and the skipped case)",
              back->skipped_count);
        if (back->skipped_count == 2) {
            const rl_rec_skip *f = &back->skipped[0], *k = &back->skipped[1];
            CHECK(strcmp(f->kernel, "cuda-tiled-tc") == 0 && strstr(f->reason, "FAILED correctness"),
                  "failure in skipped: %s: %s", f->kernel, f->reason);
            CHECK(strcmp(k->kernel, "cuda-naive") == 0 && strstr(k->reason, "9 GiB") &&
                      k->problem.seq == 16384 && k->traffic_model == RL_TRAFFIC_NAIVE,
                  "skip in skipped: %s: %s", k->kernel, k->reason);
        }
        CHECK(!strstr(n, "skipped") && !strstr(n, "FAILED") && !strstr(n, "ceiling"),
              "skips, failures and ceilings no longer in the notes: %s", n);
        CHECK(back->hardware.ceiling_count == 2 && back->hardware.ceilings[0].method &&
                  strstr(back->hardware.ceilings[0].method, "per run: min"),
              "ceiling method as a field");
        CHECK(strstr(n, "132 SMs") != NULL, "SM count in notes (for people)");
        /* the real fields */
        CHECK(back->hardware.sm_count == 132, "hardware.sm_count %lld",
              (long long)back->hardware.sm_count);
        CHECK(back->hardware.sm_clock_hz == 1.98e9, "hardware.sm_clock_hz %.17g",
              back->hardware.sm_clock_hz);
        CHECK(back->hardware.memory_clock_hz == 3.2e9, "hardware.memory_clock_hz %.17g",
              back->hardware.memory_clock_hz);
        CHECK(back->hardware.threads == 0, "no threads on a GPU run");
        CHECK(back->software.argv_count == 6 && strcmp(back->software.argv[0], "rooflab") == 0 &&
                  strcmp(back->software.argv[5], "x.json") == 0,
              "software.argv (%zu entries)", back->software.argv_count);
        CHECK(strstr(n, "argv") == NULL, "argv no longer stuffed into the notes");
        CHECK(pt->rel_l2_error == 1e-3, "points[0].rel_l2_error %.17g (set_result gives 1e-3)",
              pt->rel_l2_error);
        CHECK(pt->max_abs_error == 2e-3, "points[0].max_abs_error %.17g", pt->max_abs_error);
        CHECK(pt->label && !strstr(pt->label, "rel L2"), "label without the error: %s",
              pt->label ? pt->label : "(none)");
        if (sp && back->point_count == 2) {
            const rl_rec_point *s2 = &back->points[1];
            /* B=1 H=8 N=L=1024 d=64 non-causal: F = 4·8·1024²·64 = 2,147,483,648 */
            CHECK(s2->flops == 2147483648.0, "series flops %.17g", s2->flops);
            CHECK(s2->kernel && strcmp(s2->kernel, "torch-sdpa-flash") == 0, "series kernel");
            CHECK(s2->rel_l2_error == 4e-4 && s2->max_abs_error == 0.001,
                  "series errors %.17g %.17g", s2->rel_l2_error, s2->max_abs_error);
        }
    }
    rl_record_free(back);
    rl_rec_issues_free(&issues);
    free(json);
    if (sp) rlb_series_free(&series);
}

/* A CPU run: threads recorded, no SM count or clocks; argv kept storable (invalid UTF-8 → '?',
 * at most 256 entries with the last saying how many were left out). */
static void cpu_run_records_threads_and_a_storable_argv(void) {
    rlb_run run;
    memset(&run, 0, sizeof run);
    snprintf(run.dev.name, sizeof run.dev.name, "AMD EPYC 7B13");
    run.dev.threads = 2;
    snprintf(run.dev.isa, sizeof run.dev.isa, "avx2+fma");
    snprintf(run.compiler, sizeof run.compiler, "GNU 12.2.0");
    rlb_result res[1];
    /* B=1 H=2 N=L=128 d=32 fp32 non-causal: F = 4·2·32·128² = 4,194,304 FLOP */
    rl_problem p = {.batch = 1, .heads = 2, .seq = 128, .head_dim = 32, .dtype = RL_DTYPE_FP32};
    set_result(&res[0], RLB_CPU_TILED, RL_MODEL_TILED, p, 1e-3, 1, 1);
    res[0].check.rel_l2_error = 2.5e-7;
    run.results = res;
    run.result_count = 1;
    rlb_options opt;
    memset(&opt, 0, sizeof opt);
    static char *argv[300];
    argv[0] = "rooflab";
    argv[1] = "bench";
    argv[2] = "--out";
    argv[3] = "caf\xe9.json"; /* Latin-1 é: not UTF-8 */
    for (int i = 4; i < 300; i++) argv[i] = "--quick";
    char why[512] = "";
    rl_record *rec = NULL;
    CHECK(rlb_build_record("cpu", &run, &opt, NULL, 300, argv, &rec, why, sizeof why) == 0,
          "build: %s", why);
    if (!rec) return;
    rl_error e;
    char *json = rl_record_write_json(rec, 0, &e);
    CHECK(json != NULL, "write: %s", e.message);
    rl_record_free(rec);
    rl_record *back = NULL;
    rl_rec_issues issues = {0};
    CHECK(json && rl_record_parse(json, strlen(json), &back, &issues) == RL_OK, "read back");
    if (back) {
        CHECK(back->hardware.threads == 2, "hardware.threads %lld", (long long)back->hardware.threads);
        CHECK(back->hardware.sm_count == 0 && back->hardware.sm_clock_hz == 0 &&
                  back->hardware.memory_clock_hz == 0,
              "no SM count or clocks on the CPU");
        CHECK(json && !strstr(json, "sm_count") && !strstr(json, "clock_hz"), "keys absent");
        CHECK(back->point_count == 1 && back->points[0].rel_l2_error == 2.5e-7 &&
                  back->points[0].flops == 4194304.0,
              "cpu point");
        CHECK(back->software.argv_count == 256, "argv entries %zu", back->software.argv_count);
        if (back->software.argv_count == 256) {
            CHECK(strcmp(back->software.argv[3], "caf?.json") == 0, "argv[3] %s",
                  back->software.argv[3]);
            CHECK(strcmp(back->software.argv[254], "--quick") == 0, "argv[254]");
            /* 300 arguments, 255 kept as given: 45 left out */
            CHECK(strcmp(back->software.argv[255], "... (45 more arguments not recorded)") == 0,
                  "argv[255] %s", back->software.argv[255]);
        }
        const char *n = back->provenance.notes ? back->provenance.notes : "";
        CHECK(strstr(n, "device: 2 threads") != NULL, "threads in notes (for people)");
    }
    rl_record_free(back);
    rl_rec_issues_free(&issues);
    free(json);
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char good[1024], bad[1024];
    snprintf(good, sizeof good, "%s/series-good.json", dir);
    snprintf(bad, sizeof bad, "%s/series-bad.json", dir);
    /* The reference series is a record (hand-built here, as sdpa_reference.py writes one): one
     * torch SDPA point, B = 1, H = 8, N = L = 1024, d = 64, fp16, timed 20 µs, its fp64 errors;
     * F = 4·B·H·N·L·d = 4·8·1024·1024·64 = 2,147,483,648. */
    write_text(good,
               "{\"schema\": \"rooflab-record\", \"schema_version\": 1,\n"
               " \"provenance\": {\"kind\": \"measured\", \"date\": \"2026-12-02T00:00:00+00:00\",\n"
               "  \"source\": \"timed by sdpa_reference.py on this machine\",\n"
               "  \"tool\": \"sdpa_reference.py (torch.nn.functional.scaled_dot_product_attention)\"},\n"
               " \"hardware\": {\"name\": \"NVIDIA H100 80GB HBM3\"},\n"
               " \"software\": {\"kernel\": \"torch-sdpa-flash\", \"kernel_version\": \"torch 2.11.0\"},\n"
               " \"points\": [{\"problem\": {\"batch\": 1, \"heads\": 8, \"kv_heads\": 8, \"seq\": 1024,\n"
               "   \"kv_len\": 1024, \"head_dim\": 64, \"dtype\": \"fp16\", \"causal\": false, \"block_m\": 128,\n"
               "   \"block_n\": 128}, \"traffic_model\": \"tiled\",\n"
               "  \"timing\": {\"median_s\": 2e-5, \"min_s\": 1.9e-5, \"max_s\": 3e-5, \"runs\": 50},\n"
               "  \"flops\": 2147483648, \"max_abs_error\": 0.001, \"rel_l2_error\": 4e-4,\n"
               "  \"kernel\": \"torch-sdpa-flash\"}]}\n");
    /* Not a record: the old series form, a point without its problem's fields. */
    write_text(bad, "{\"kernel\": \"x\", \"version\": \"y\", \"points\": [{\"batch\": 1}]}");
    gpu_run_should_make_a_valid_record_with_core_values(NULL);
    gpu_run_should_make_a_valid_record_with_core_values(good);
    cpu_run_records_threads_and_a_storable_argv();
    rlb_series s;
    char why[512] = "";
    CHECK(rlb_series_read(bad, &s, why, sizeof why) != 0 && strstr(why, "is not a record: "),
          "bad series accepted or unnamed: %s", why);
    CHECK(rlb_series_read("/nonexistent/x.json", &s, why, sizeof why) != 0 && strstr(why, "cannot open"),
          "missing series: %s", why);
    return bench_check_report("bench records");
}
