/* cmd_bench.c — `rooflab bench`: time the attention kernels, check them against fp64, measure the
 * device's ceilings and write one record (CONTRACTS.md; native-bench/bench.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"        /* native-bench/, through rooflab_bench */
#include "bench_record.h"
#include "cli.h"

#define CMD "bench"
#define MAX_CASES 256

static void bench_help(FILE *out) {
    fputs("usage: rooflab bench --backend cpu|cuda [--quick] --out FILE [options]\n\n"
          "Times the attention kernels of the backend on a fixed problem grid, checks each one\n"
          "against an fp64 CPU reference on fresh random inputs (outputs poisoned with NaN before\n"
          "every run), measures the device's ceilings in the same run (cpu: streaming copy and FMA\n"
          "peak; cuda: device-to-device copy and cuBLAS GEMM per dtype) and writes one record.\n"
          "FLOPs and modelled bytes come from the model (core). Progress goes to stderr, a table\n"
          "of the results to stdout.\n\n"
          "  --backend cpu|cuda  which kernels (required)\n"
          "  --out FILE          where to write the record (required unless --list-grid)\n"
          "  --quick             the small grid (cpu: under a minute on 2 cores)\n"
          "  --runs N            timed runs per kernel (default: adaptive, at least 3)\n"
          "  --warmup N          untimed runs before them (default 1 cpu, 3 cuda)\n"
          "  --no-flush          do not flush the caches (L2 / last level) between timed runs\n"
          "  --threads N         CPU threads (default: all online CPUs)\n"
          "  --seed N            base seed of the random inputs (default: fresh each run)\n"
          "  --check-rows N      query rows per kernel compared with fp64 (default 256)\n"
          "  --series FILE       add a reference series: a record (gpu-check.sh's SDPA timing)\n"
          "  --only K1,K2        run only these kernels of the grid (e.g. cuda-decode)\n"
          "  --list-grid         print the grid as JSON lines and exit\n"
          "  --quiet             no progress lines\n\n"
          "Exit status: 0 all kernels correct and the record written; 1 a kernel failed its check\n"
          "(the record is written without it and lists it under \"skipped\") or the run\n"
          "failed; 2 bad flags; 3 no usable device (one line says why).\n",
          out);
}

static void on_progress(void *ctx, const char *line) {
    (void)ctx;
    cli_errorf("bench", "%s", line);
    fflush(stderr);
}

static int write_file(const char *path, const char *text, char *why, size_t cap) {
    char tmp[4096];
    if (cli_tmp_name(tmp, sizeof tmp, path) != 0) {
        snprintf(why, cap, "out: path too long");
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(why, cap, "out: cannot write \"%s\": %s", path, strerror(errno));
        return -1;
    }
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(why, cap, "out: cannot write \"%s\": %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

static void list_grid(const rlb_case *cases, int n) {
    for (int i = 0; i < n; i++) {
        cli_json j; /* one line per case; the problem's keys from core's RL_PROBLEM_FIELDS */
        cli_json_begin(&j, stdout);
        j.compact = 1;
        cli_json_key(&j, "kernel", 0);
        cli_json_string(stdout, rlb_kernel_name(cases[i].kernel));
        cli_json_problem(&j, "", &cases[i].problem);
        cli_json_key(&j, "traffic_model", 0);
        cli_json_string(stdout, rl_model_name(cases[i].model));
        cli_json_end(&j);
    }
}

int cmd_bench(int argc, char **argv) {
    const char *backend = NULL, *out = NULL, *series_path = NULL, *only = NULL;
    int quick = 0, quiet = 0, do_list = 0;
    rlb_options opt;
    memset(&opt, 0, sizeof opt);
    opt.flush = 1;
    opt.warmup = -1;
    opt.seed = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid() ^
               (uint64_t)clock();
    rl_error err;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int64_t x;
        if (cli_is_help(argv[i])) {
            bench_help(stdout);
            return CLI_EXIT_OK;
        } else if (cli_flag(argc, argv, &i, "backend", &v)) {
            if (!v) return cli_errorf(CMD, "backend: expected cpu or cuda");
            if (strcmp(v, "cpu") != 0 && strcmp(v, "cuda") != 0)
                return cli_errorf(CMD, "backend: expected cpu or cuda, got \"%.*s\"", CLI_QUOTE(v, 64));
            backend = v;
        } else if (cli_flag(argc, argv, &i, "out", &v)) {
            if (!v || !*v) return cli_errorf(CMD, "out: expected a file name");
            out = v;
        } else if (cli_flag(argc, argv, &i, "series", &v)) {
            if (!v || !*v) return cli_errorf(CMD, "series: expected a file name");
            series_path = v;
        } else if (cli_flag(argc, argv, &i, "only", &v)) {
            if (!v || !*v) return cli_errorf(CMD, "only: expected kernel names separated by commas");
            only = v;
        } else if (cli_flag(argc, argv, &i, "runs", &v)) {
            if (cli_parse_int("runs", v, 1, 200, &x, &err) != RL_OK) return cli_error(CMD, &err);
            opt.runs = (int)x;
        } else if (cli_flag(argc, argv, &i, "warmup", &v)) {
            if (cli_parse_int("warmup", v, 0, 100, &x, &err) != RL_OK) return cli_error(CMD, &err);
            opt.warmup = (int)x;
        } else if (cli_flag(argc, argv, &i, "threads", &v)) {
            if (cli_parse_int("threads", v, 1, 256, &x, &err) != RL_OK) return cli_error(CMD, &err);
            opt.threads = (int)x;
        } else if (cli_flag(argc, argv, &i, "seed", &v)) {
            if (cli_parse_int("seed", v, 0, INT64_MAX, &x, &err) != RL_OK) return cli_error(CMD, &err);
            opt.seed = (uint64_t)x;
        } else if (cli_flag(argc, argv, &i, "check-rows", &v)) {
            if (cli_parse_int("check-rows", v, 1, 1 << 20, &x, &err) != RL_OK)
                return cli_error(CMD, &err);
            opt.check_rows = x;
        } else if (cli_is_switch(argv[i], "quick")) {
            quick = 1;
        } else if (cli_is_switch(argv[i], "no-flush")) {
            opt.flush = 0;
        } else if (cli_is_switch(argv[i], "quiet")) {
            quiet = 1;
        } else if (cli_is_switch(argv[i], "list-grid")) {
            do_list = 1;
        } else {
            return cli_errorf(CMD, "%.*s: unknown flag (see rooflab bench --help)", CLI_QUOTE(argv[i], 64));
        }
    }
    if (!backend) return cli_errorf(CMD, "backend: expected --backend cpu or --backend cuda");
    opt.quick = quick;
    if (!quiet) opt.progress = on_progress;

    rlb_case cases[MAX_CASES];
    int n = rlb_grid(backend, quick, cases, MAX_CASES);
    if (n > MAX_CASES) n = MAX_CASES;
    if (only) {
        /* Check every name, then keep the cases of the kernels named. */
        int keep[RLB_KERNEL_COUNT] = {0};
        char names[256];
        snprintf(names, sizeof names, "%s", only);
        for (char *save = NULL, *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int k = rlb_kernel_parse(t);
            if (k < 0)
                return cli_errorf(CMD, "only: unknown kernel \"%.*s\"; expected names such as "
                                       "cpu-naive, cpu-tiled, cuda-naive, cuda-tiled-fp32, "
                                       "cuda-tiled-tc, cuda-decode",
                                  CLI_QUOTE(t, 64));
            keep[k] = 1;
        }
        int m = 0;
        for (int i = 0; i < n; i++)
            if (keep[cases[i].kernel]) cases[m++] = cases[i];
        if (m == 0)
            return cli_errorf(CMD, "only: no case of the %s grid uses \"%.*s\"", backend, CLI_QUOTE(only, 64));
        n = m;
    }
    if (do_list) {
        list_grid(cases, n);
        return CLI_EXIT_OK;
    }
    if (!out) return cli_errorf(CMD, "out: expected --out FILE (where the record goes)");
    if (cli_check_out_path(CMD, "out", out) != 0) return CLI_EXIT_USAGE;

    char why[512] = "";
    rlb_series series;
    memset(&series, 0, sizeof series);
    if (series_path && rlb_series_read(series_path, &series, why, sizeof why) != 0)
        return cli_errorf(CMD, "%s", why);

    rlb_run run;
    memset(&run, 0, sizeof run);
    run.results = (rlb_result *)calloc((size_t)n, sizeof *run.results);
    if (!run.results) {
        rlb_series_free(&series);
        return cli_errorf(CMD, "out of memory");
    }
    int rc;
    if (strcmp(backend, "cuda") == 0) {
        rlb_cuda_run_fn fn = rlb_cuda_load(why, sizeof why);
        rc = fn ? fn(&opt, cases, n, &run, why, sizeof why) : RLB_EXIT_NODEVICE;
    } else {
        rc = rlb_cpu_run(&opt, cases, n, &run, why, sizeof why);
    }
    if (rc != 0) {
        cli_errorf(CMD, "backend %s: %s", backend, why);
        free(run.results);
        rlb_series_free(&series);
        return rc == RLB_EXIT_NODEVICE ? CLI_EXIT_NODEVICE : 1;
    }

    rl_record *rec = NULL;
    int status = CLI_EXIT_OK;
    why[0] = 0;
    if (rlb_build_record(backend, &run, &opt, series.count ? &series : NULL, argc + 1, argv - 1,
                         &rec, why, sizeof why) != 0) {
        cli_errorf(CMD, "record: %s", why);
        status = 1;
    } else {
        rl_error werr;
        char *json = rl_record_write_json(rec, 1, &werr);
        if (!json) {
            cli_errorf(CMD, "record: %s", werr.message);
            status = 1;
        } else if (write_file(out, json, why, sizeof why) != 0) {
            cli_errorf(CMD, "%s", why);
            status = 1;
        }
        free(json);
    }
    rlb_print_table(stdout, &run, series.count ? &series : NULL);
    for (int i = 0; i < run.result_count; i++)
        if (run.results[i].ran && !run.results[i].check.passed) {
            fprintf(stderr, "rooflab bench: %s failed its correctness check (see the record's "
                            "\"skipped\" list)\n",
                    rlb_kernel_name(run.results[i].c.kernel));
            status = 1;
        }
    if (status == CLI_EXIT_OK && !quiet) cli_errorf(CMD, "wrote %s", out);
    rl_record_free(rec);
    free(run.results);
    rlb_series_free(&series);
    return status;
}
