/* bench_record.c — benchmark results → one rooflab record (core's record.h), a summary table,
 * and the import of a reference series (PyTorch SDPA timings from gpu-check.sh, a record). FLOPs and
 * modelled bytes come from core (rl_workload_compute); nothing here derives them. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_record.h"
#include "rooflab/record.h"

/* Append printf-formatted text to a growing buffer. */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#include <stdarg.h>
static void sb_printf(sbuf *b, const char *fmt, ...) {
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) return;
    if (b->len + (size_t)need + 1 > b->cap) {
        size_t nc = (b->cap ? b->cap * 2 : 1024);
        while (nc < b->len + (size_t)need + 1) nc *= 2;
        char *ns = (char *)realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

/* A malloc'd copy of `s` the record accepts as a string: valid UTF-8 (a byte that does not start
 * a well-formed, shortest-form, non-surrogate sequence becomes '?'), at most RL_RECORD_MAX_STRING
 * code points. NULL when out of memory. */
/* A command-line argument as the record stores it: core's UTF-8 cleaning and length limit. */
static char *storable_arg(const char *s) {
    char *out = NULL;
    return rl_rec_set_clean_string(&out, s) == 0 ? out : NULL;
}

static int set_problem(rl_rec_point *pt, const rl_problem *p, rl_model model, rl_error *err) {
    rl_workload w;
    if (rl_workload_compute(p, &w, err) != RL_OK) return -1;
    pt->problem = w.problem;
    pt->traffic_model = (rl_rec_traffic)model;
    pt->flops = w.flops;
    pt->modelled_bytes = w.traffic[model].available ? w.traffic[model].bytes : 0.0;
    return 0;
}

/* hardware: the device, its details as fields, and the ceilings measured in the same run (how:
 * ceilings[].method, with the spread of the runs). The notes repeat the details for people. */
static int set_hardware(rl_record *r, const char *backend, const rlb_run *run, sbuf *notes) {
    int bad = 0;
    char buf[1024];
    const rlb_device *dv = &run->dev;
    bad |= rl_rec_set_string(&r->hardware.name, dv->name);
    const rl_hw *preset = rl_hw_match_device(dv->name); /* only where the name is unambiguous */
    if (preset) bad |= rl_rec_set_string(&r->hardware.preset, preset->id);
    if (dv->compute_capability[0])
        bad |= rl_rec_set_string(&r->hardware.compute_capability, dv->compute_capability);
    rlb_cpu_model(buf, sizeof buf);
    bad |= rl_rec_set_string(&r->hardware.cpu_model, buf);
    if (dv->driver_version[0]) bad |= rl_rec_set_string(&r->hardware.driver_version, dv->driver_version);
    if (dv->runtime_version[0])
        bad |= rl_rec_set_string(&r->hardware.runtime_version, dv->runtime_version);
    if (dv->sm_count > 0) r->hardware.sm_count = dv->sm_count;
    if (dv->sm_clock_hz > 0 && isfinite(dv->sm_clock_hz)) r->hardware.sm_clock_hz = dv->sm_clock_hz;
    if (dv->mem_clock_hz > 0 && isfinite(dv->mem_clock_hz))
        r->hardware.memory_clock_hz = dv->mem_clock_hz;
    if (dv->threads > 0) r->hardware.threads = dv->threads;
    for (int i = 0; i < run->ceiling_count; i++) {
        const rlb_ceiling *c = &run->ceilings[i];
        rl_rec_ceiling *rc = rl_rec_add_ceiling(&r->hardware, c->name,
                                                c->is_bandwidth ? RL_CEIL_BANDWIDTH : RL_CEIL_COMPUTE,
                                                c->value, 1);
        if (!rc) return -1;
        rc->dtype = c->dtype;
        rc->dram = c->is_bandwidth;
        snprintf(buf, sizeof buf, "%s%sper run: min %.6g s, median %.6g s, max %.6g s, %.6g %s each",
                 c->method, c->method[0] ? "; " : "", c->t.min_s, c->t.median_s, c->t.max_s,
                 c->work, c->is_bandwidth ? "bytes" : "FLOP");
        bad |= rl_rec_set_string(&rc->method, buf);
    }
    if (strcmp(backend, "cuda") == 0)
        sb_printf(notes,
                  "device: %d SMs, SM clock %.0f MHz, memory clock %.0f MHz, %d-bit bus, L2 %.0f "
                  "MiB, %.1f GiB, shared memory per block (opt-in) %.0f KiB; %s\n",
                  dv->sm_count, dv->sm_clock_hz / 1e6, dv->mem_clock_hz / 1e6, dv->mem_bus_bits,
                  dv->l2_bytes / 1048576.0, dv->mem_bytes / 1073741824.0,
                  dv->smem_optin_bytes / 1024.0, dv->library_versions);
    else
        sb_printf(notes, "device: %d threads, kernels built for %s\n", dv->threads, dv->isa);
    return bad ? -1 : 0;
}

/* Other work on the host skews CPU timings: the notes say how busy it was. */
static void note_host_load(sbuf *notes) {
    char load[128] = "";
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (!fgets(load, sizeof load, lf)) load[0] = 0;
        fclose(lf);
    }
    size_t ln = strlen(load);
    while (ln && (load[ln - 1] == '\n' || load[ln - 1] == ' ')) load[--ln] = 0;
    if (load[0]) sb_printf(notes, "host /proc/loadavg when the record was written: %s\n", load);
}

/* software.argv: the command line as given, made storable (the run must not be lost to an
 * argument the record refuses): invalid UTF-8 bytes become '?', an argument is clipped at
 * RL_RECORD_MAX_STRING characters, and past RL_RECORD_MAX_ARGV arguments the last entry says how
 * many were left out. */
static int set_argv(rl_record *r, int argc, char **argv) {
    int n = argc < 0 ? 0 : argc > RL_RECORD_MAX_ARGV ? RL_RECORD_MAX_ARGV : argc, bad = 0;
    char **args = (char **)calloc((size_t)(n ? n : 1), sizeof *args);
    if (!args) return -1;
    for (int i = 0; i < n; i++) {
        if (argc > RL_RECORD_MAX_ARGV && i == n - 1) {
            char more[96];
            snprintf(more, sizeof more, "... (%d more arguments not recorded)", argc - i);
            args[i] = storable_arg(more);
        } else {
            args[i] = storable_arg(argv[i] ? argv[i] : "");
        }
        if (!args[i]) bad = 1;
    }
    if (!bad && n > 0 && rl_rec_set_argv(r, n, (const char *const *)args) != 0) bad = 1;
    for (int i = 0; i < n; i++) free(args[i]);
    free(args);
    return bad ? -1 : 0;
}

/* software: kernel versions of the kernels that ran, git revision, compiler, flags, argv. */
static int set_software(rl_record *r, const char *backend, const rlb_run *run, int argc,
                        char **argv) {
    int bad = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "rooflab native-bench (%s)", backend);
    bad |= rl_rec_set_string(&r->software.kernel, buf);
    sbuf kv = {0};
    sb_printf(&kv, "rooflab %s;", RL_VERSION);
    int seen[RLB_KERNEL_COUNT] = {0};
    for (int i = 0; i < run->result_count; i++) {
        rlb_kernel k = run->results[i].c.kernel;
        if (!seen[k]) {
            seen[k] = 1;
            sb_printf(&kv, " %s v%s", rlb_kernel_name(k), rlb_kernel_version(k));
        }
    }
    bad |= kv.oom || rl_rec_set_string(&r->software.kernel_version, kv.s ? kv.s : RL_VERSION);
    free(kv.s);
    rlb_git_revision(buf, sizeof buf);
    bad |= rl_rec_set_string(&r->software.git_revision, buf);
    bad |= rl_rec_set_string(&r->software.compiler, run->compiler);
    bad |= rl_rec_set_string(&r->software.flags, run->flags);
    bad |= set_argv(r, argc, argv);
    return bad ? -1 : 0;
}

/* A case that is not a point (skipped, or failed its check): the record's "skipped" list. */
static int add_skipped(rl_record *r, const rlb_result *res, const char *reason) {
    rl_rec_skip *sk = rl_record_add_skipped(r, rlb_kernel_name(res->c.kernel), reason);
    if (!sk) return -1;
    sk->problem = res->c.problem;
    sk->traffic_model = (rl_rec_traffic)res->c.model;
    return 0;
}

/* One point per case that ran and passed its check; the others in "skipped" with the reason. */
static int add_results(rl_record *r, const rlb_run *run, char *why, size_t cap) {
    char buf[1024], desc[256];
    for (int i = 0; i < run->result_count; i++) {
        const rlb_result *res = &run->results[i];
        if (!res->ran) {
            if (add_skipped(r, res, res->skip_reason) != 0) return -1;
            continue;
        }
        if (!res->check.passed) {
            snprintf(buf, sizeof buf,
                     "FAILED correctness: rel L2 error %.3g (tolerance %.1g), %lld non-finite "
                     "outputs",
                     res->check.rel_l2_error, res->check.tolerance, (long long)res->check.nonfinite);
            if (add_skipped(r, res, buf) != 0) return -1;
            continue;
        }
        rlb_case_describe(&res->c, 0, desc, sizeof desc);
        rl_rec_point *pt = rl_record_add_point(r);
        if (!pt) return -1;
        rl_error e;
        if (set_problem(pt, &res->c.problem, res->c.model, &e) != 0) {
            snprintf(why, cap, "%s: %s", desc, e.message);
            return -1;
        }
        pt->time_median_s = res->t.median_s;
        pt->time_min_s = res->t.min_s;
        pt->time_max_s = res->t.max_s;
        pt->time_mean_s = res->t.mean_s;
        pt->time_stddev_s = res->t.stddev_s;
        pt->runs = res->t.runs;
        pt->max_abs_error = res->check.max_abs_error;
        /* a passing check has a finite error; anything else stays absent rather than invented */
        if (isfinite(res->check.rel_l2_error) && res->check.rel_l2_error >= 0)
            pt->rel_l2_error = res->check.rel_l2_error;
        snprintf(buf, sizeof buf,
                 "%s; checked against fp64 on %lld of %lld rows; %d runs after %d warm-up%s%s",
                 desc, (long long)res->check.rows_checked, (long long)res->check.rows_total,
                 res->t.runs, res->t.warmup, res->note[0] ? "; " : "", res->note);
        if (rl_rec_set_string(&pt->kernel, rlb_kernel_name(res->c.kernel)) ||
            rl_rec_set_string(&pt->label, buf))
            return -1;
    }
    return 0;
}

/* A reference series (e.g. PyTorch SDPA) timed by another tool on the same machine. */
static int add_series(rl_record *r, const rlb_series *series, sbuf *notes, char *why, size_t cap) {
    char buf[1024];
    for (int i = 0; i < series->count; i++) {
        const rlb_series_point *sp = &series->points[i];
        rl_rec_point *pt = rl_record_add_point(r);
        if (!pt) return -1;
        rl_error e;
        if (set_problem(pt, &sp->problem, RL_MODEL_TILED, &e) != 0) {
            snprintf(why, cap, "series point %d: %s", i, e.message);
            return -1;
        }
        pt->time_median_s = sp->median_s;
        pt->time_min_s = sp->min_s;
        pt->time_max_s = sp->max_s;
        pt->runs = sp->runs;
        pt->max_abs_error = sp->max_abs_error >= 0 ? sp->max_abs_error : -1.0;
        pt->rel_l2_error = sp->rel_l2_error >= 0 ? sp->rel_l2_error : -1.0;
        snprintf(buf, sizeof buf, "%s (%s), reference series; tile assumed %lldx%lld for the model",
                 series->kernel, series->version, (long long)sp->problem.block_m,
                 (long long)sp->problem.block_n);
        if (rl_rec_set_string(&pt->kernel, series->kernel) || rl_rec_set_string(&pt->label, buf))
            return -1;
    }
    if (series->count)
        sb_printf(notes, "reference series: %s (%s), %d points\n", series->kernel, series->version,
                  series->count);
    return 0;
}

int rlb_build_record(const char *backend, const rlb_run *run, const rlb_options *opt,
                     const rlb_series *series, int argc, char **argv, rl_record **out, char *why,
                     size_t cap) {
    *out = NULL;
    rl_record *r = rl_record_new(RL_PROV_MEASURED);
    if (!r) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    int bad = 0;
    char buf[1024];
    sbuf notes = {0};
    rlb_utc_now(buf, sizeof buf);
    bad |= rl_rec_set_string(&r->provenance.date, buf);
    snprintf(buf, sizeof buf, "rooflab bench %s (native-bench)", RL_VERSION);
    bad |= rl_rec_set_string(&r->provenance.tool, buf);
    bad |= rl_rec_set_string(&r->provenance.source, "measured by rooflab bench on this machine");
    bad |= set_hardware(r, backend, run, &notes) != 0;
    note_host_load(&notes);
    sb_printf(&notes, "timing: %s; caches %s between timed runs; base seed %llu\n",
              strcmp(backend, "cuda") == 0 ? "CUDA events around each run"
                                           : "monotonic clock around each run",
              opt->flush ? "flushed" : "not flushed", (unsigned long long)opt->seed);
    bad |= set_software(r, backend, run, argc, argv) != 0;
    if (!bad) bad |= add_results(r, run, why, cap) != 0;
    if (!bad && series) bad |= add_series(r, series, &notes, why, cap) != 0;
    if (!bad) bad |= rl_rec_set_string(&r->provenance.notes, notes.s ? notes.s : "");
    bad |= notes.oom;
    free(notes.s);
    if (bad) {
        if (!why[0]) snprintf(why, cap, "could not build the record (out of memory)");
        rl_record_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

/* ---- the reference series file --------------------------------------------------------------- */

/* The series is a record (the record format, read by core's rl_record_parse): its points' problems,
 * times and errors; the kernel is the points' own name or the record's software.kernel, the
 * version software.kernel_version. sdpa_reference.py writes one. */
int rlb_series_read(const char *path, rlb_series *out, char *why, size_t cap) {
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, cap, "series: cannot open \"%s\"", path);
        return -1;
    }
    text = (char *)malloc(RL_RECORD_MAX_FILE_BYTES + 1);
    len = text ? fread(text, 1, RL_RECORD_MAX_FILE_BYTES + 1, f) : 0;
    fclose(f);
    if (!text || len > RL_RECORD_MAX_FILE_BYTES) {
        free(text);
        snprintf(why, cap, "series: \"%s\" is larger than %zu bytes", path,
                 (size_t)RL_RECORD_MAX_FILE_BYTES);
        return -1;
    }
    rl_record *rec = NULL;
    rl_rec_issues issues = {0};
    rl_status st = rl_record_parse(text, len, &rec, &issues);
    free(text);
    int rc = -1;
    if (st != RL_OK || !rec) {
        const char *msg = "not a valid record";
        for (size_t i = 0; i < issues.count; i++)
            if (issues.items[i].severity == RL_REC_ERROR) {
                msg = issues.items[i].message;
                break;
            }
        snprintf(why, cap, "series: \"%s\" is not a record: %s", path, msg);
        goto done;
    }
    if (rec->point_count > RLB_SERIES_MAX) {
        snprintf(why, cap, "series.points: at most %d points, got %zu", RLB_SERIES_MAX, rec->point_count);
        goto done;
    }
    out->points = (rlb_series_point *)calloc(rec->point_count ? rec->point_count : 1, sizeof *out->points);
    if (!out->points) {
        snprintf(why, cap, "out of memory");
        goto done;
    }
    const char *kernel = rec->point_count && rec->points[0].kernel ? rec->points[0].kernel : rec->software.kernel;
    snprintf(out->kernel, sizeof out->kernel, "%s", kernel ? kernel : "");
    snprintf(out->version, sizeof out->version, "%s", rec->software.kernel_version ? rec->software.kernel_version : "");
    for (size_t i = 0; i < rec->point_count; i++) {
        const rl_rec_point *pt = &rec->points[i];
        rlb_series_point *sp = &out->points[i];
        sp->problem = pt->problem;
        sp->median_s = pt->time_median_s;
        sp->min_s = pt->time_min_s;
        sp->max_s = pt->time_max_s;
        sp->runs = (int)pt->runs;
        sp->max_abs_error = pt->max_abs_error;
        sp->rel_l2_error = pt->rel_l2_error;
    }
    out->count = (int)rec->point_count;
    rc = 0;
done:
    rl_record_free(rec);
    rl_rec_issues_free(&issues);
    if (rc != 0) {
        free(out->points);
        out->points = NULL;
        out->count = 0;
    }
    return rc;
}

void rlb_series_free(rlb_series *s) {
    free(s->points);
    s->points = NULL;
    s->count = 0;
}

/* ---- table ---------------------------------------------------------------------------------- */

void rlb_print_table(FILE *f, const rlb_run *run, const rlb_series *series) {
    double bw = 0.0;
    for (int i = 0; i < run->ceiling_count; i++)
        if (run->ceilings[i].is_bandwidth) bw = run->ceilings[i].value;
    fprintf(f, "device: %s\n", run->dev.name);
    for (int i = 0; i < run->ceiling_count; i++) {
        const rlb_ceiling *c = &run->ceilings[i];
        if (c->is_bandwidth)
            fprintf(f, "  ceiling %-14s %10.2f GB/s    (%s)\n", c->name, c->value / 1e9, c->method);
        else
            fprintf(f, "  ceiling %-14s %10.2f %s (%s)\n", c->name,
                    c->value >= 1e12 ? c->value / 1e12 : c->value / 1e9,
                    c->value >= 1e12 ? "TFLOP/s" : "GFLOP/s", c->method);
    }
    fprintf(f, "%-16s %-5s %3s %3s %3s %6s %6s %4s %-3s %10s %10s %9s %8s %8s %8s %9s\n", "kernel",
           "dtype", "B", "H", "Hkv", "N", "L", "d", "cau", "median_ms", "GFLOP/s", "GB/s(mod)",
           "%copyBW", "%peak", "roof%", "relL2");
    for (int i = 0; i < run->result_count; i++) {
        const rlb_result *res = &run->results[i];
        const rl_problem *p = &res->c.problem;
        if (!res->ran) {
            fprintf(f, "%-16s %-5s %3lld %3lld %3lld %6lld %6lld %4lld %-3s skipped: %s\n",
                    rlb_kernel_name(res->c.kernel), rl_dtype_name(p->dtype), (long long)p->batch,
                    (long long)p->heads, (long long)p->kv_heads, (long long)p->seq,
                    (long long)p->kv_len, (long long)p->head_dim, p->causal ? "yes" : "no",
                    res->skip_reason);
            continue;
        }
        rl_workload w;
        rl_error e;
        if (rl_workload_compute(p, &w, &e) != RL_OK) continue;
        const double bytes = w.traffic[res->c.model].bytes;
        const double t = res->t.median_s;
        double peak = 0.0;
        for (int c = 0; c < run->ceiling_count; c++)
            if (!run->ceilings[c].is_bandwidth && run->ceilings[c].dtype == p->dtype)
                peak = run->ceilings[c].value;
        double roof = 0.0;
        if (bw > 0 && peak > 0) {
            rl_roof rf = {bw, peak};
            roof = rl_efficiency(rf, w.flops, bytes, t);
        }
        fprintf(f,
                "%-16s %-5s %3lld %3lld %3lld %6lld %6lld %4lld %-3s %10.4f %10.1f %9.1f %8.1f "
                "%8.1f %8.1f %9.2e%s\n",
                rlb_kernel_name(res->c.kernel), rl_dtype_name(p->dtype), (long long)p->batch,
                (long long)p->heads, (long long)p->kv_heads, (long long)p->seq,
                (long long)p->kv_len, (long long)p->head_dim, p->causal ? "yes" : "no", t * 1e3,
                w.flops / t / 1e9, bytes / t / 1e9, bw > 0 ? 100.0 * bytes / t / bw : 0.0,
                peak > 0 ? 100.0 * w.flops / t / peak : 0.0, 100.0 * roof,
                res->check.rel_l2_error, res->check.passed ? "" : " FAILED");
    }
    for (int i = 0; series && i < series->count; i++) {
        const rlb_series_point *sp = &series->points[i];
        const rl_problem *p = &sp->problem;
        rl_workload w;
        rl_error e;
        if (rl_workload_compute(p, &w, &e) != RL_OK) continue;
        fprintf(f, "%-16s %-5s %3lld %3lld %3lld %6lld %6lld %4lld %-3s %10.4f %10.1f\n",
                series->kernel, rl_dtype_name(p->dtype), (long long)p->batch, (long long)p->heads,
                (long long)p->kv_heads, (long long)p->seq, (long long)p->kv_len,
                (long long)p->head_dim, p->causal ? "yes" : "no", sp->median_s * 1e3,
                w.flops / sp->median_s / 1e9);
    }
    fprintf(f, "GFLOP/s = core's F / median time; GB/s(mod) = core's modelled bytes of the kernel's "
               "traffic model / median time; %%peak against the measured ceiling of the dtype; "
               "roof%% = rl_efficiency against the measured roof.\n");
}
