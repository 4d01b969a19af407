/* import_gbench.c — Google Benchmark JSON → rl_record: one point per run_name; time real_time
 * (time_unit); the "TFLOP/s" and "HBM GB/s" counters give the benchmark's FLOPs and bytes
 * (rate × time) and are kept as reported rates; the problem comes from the name's arguments,
 * whose keys are the problem field table's (RL_PROBLEM_FIELDS). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define GB_DEFAULT_ARGS "batch,seq,heads,head_dim" /* BM_x/4/8192/16/128: B=4, N=8192, H=16, d=128 */
#define GB_MAX_ARGS 16 /* keys in --args */
#define GB_MAX_KEY 16  /* bytes of one key */
#define TERA 1e12      /* "TFLOP/s" */
#define GIGA 1e9       /* "HBM GB/s" */

static double gb_time_scale(const char *unit) {
    if (!unit) return 1e-9;
    if (strcmp(unit, "ns") == 0) return 1e-9;
    if (strcmp(unit, "us") == 0) return 1e-6;
    if (strcmp(unit, "ms") == 0) return 1e-3;
    if (strcmp(unit, "s") == 0) return 1;
    return 0;
}



/* A key of --args: a problem field whose value is an integer (sizes, and causal as 0/1). */
static int gbench_key(const char *key) {
    int f = rl_problem_field_find(key);
    if (f < 0 || strcmp(key, rl_problem_field_info((rl_problem_field)f)->key) != 0) return -1;
    rl_field_type t = rl_problem_field_info((rl_problem_field)f)->type;
    return t == RL_FTYPE_INT || t == RL_FTYPE_BOOL ? f : -1;
}

/* The mapping "batch,seq,heads,head_dim" → field per position (-1 for "_"). 0, or -1 (issue). */
static int gbench_mapping(const char *mapping, int *fields, size_t *n, rl_rec_issues *is) {
    *n = 0;
    for (const char *m = mapping; *m && *n < GB_MAX_ARGS;) {
        size_t len = strcspn(m, ",");
        char key[GB_MAX_KEY];
        snprintf(key, sizeof key, "%.*s", (int)(len < GB_MAX_KEY - 1 ? len : GB_MAX_KEY - 1), m);
        int f = strcmp(key, "_") == 0 ? -1 : gbench_key(key);
        if (f < 0 && strcmp(key, "_") != 0) {
            char list[200] = "";
            for (int k = 0; k < RL_PROBLEM_FIELD_COUNT; k++)
                if (gbench_key(rl_problem_field_info((rl_problem_field)k)->key) >= 0) {
                    size_t l = strlen(list);
                    snprintf(list + l, sizeof list - l, "%s, ", rl_problem_field_info((rl_problem_field)k)->key);
                }
            if (strlen(list) >= 2) list[strlen(list) - 2] = '\0';
            return rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "--args",
                             "unknown key \"%s\"; expected %s or _", key, list);
        }
        fields[(*n)++] = f;
        m += len;
        if (*m == ',') m++;
    }
    return 0;
}

/* One argument of a benchmark name: "key:value" by name, else the field of its position. The
 * value is kept as given; the checker names one out of range with the point's path. */
static void gbench_arg(char *tok, size_t position, const int *fields, size_t nfields,
                       rl_problem *pb) {
    char *colon = strchr(tok, ':');
    const char *val = colon ? colon + 1 : tok;
    int f = -1;
    if (colon) {
        *colon = '\0';
        f = gbench_key(tok); /* "threads:1", "repeats:5" ... name no field: ignored */
    } else if (position < nfields) {
        f = fields[position]; /* more arguments than the mapping names: ignored */
    }
    char *end = NULL;
    long long v = strtoll(val, &end, 10);
    /* Google Benchmark appends e.g. "real_time", "manual_time": not numbers, ignored */
    if (f < 0 || end == val || *end) return;
    if (rl_problem_field_info((rl_problem_field)f)->type == RL_FTYPE_BOOL) v = v != 0;
    rl__problem_store(pb, (rl_problem_field)f, v);
}

/* "BM_x/4/8192/16/128" or "BM_x/batch:4/seq:8192/..." → problem. Returns 0, or -1 when the
 * mapping is wrong (issue added). */
static int gbench_problem(const char *name, const char *mapping, rl_problem *pb,
                          rl_rec_issues *is) {
    int fields[GB_MAX_ARGS];
    size_t nfields = 0;
    if (gbench_mapping(mapping, fields, &nfields, is) != 0) return -1;
    rl_dtype d = rl__dtype_in_name(name);
    if (d != RL_DTYPE_DEFAULT) pb->dtype = d;
    size_t position = 0;
    for (const char *s = strchr(name, '/'); s && *s == '/'; position++) {
        s++;
        size_t n = strcspn(s, "/");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), s);
        s += n;
        gbench_arg(tok, position, fields, nfields, pb);
    }
    return 0;
}

/* The benchmarks of one run_name: its repetitions' times and counters. */
typedef struct gb_group {
    const char *run_name;
    const cJSON *first;  /* first entry, for name and counters */
    const cJSON *median; /* aggregate "median" when present */
    double *times;       /* malloc'd, one per iteration run */
    size_t n, cap;
    double tflops_sum, gbs_sum;
    size_t n_tflops, n_gbs;
    int index;
} gb_group;

typedef struct gb_import {
    gb_group *groups;
    size_t ng;
    size_t *group;                      /* per entry: its group (rl__group_names) */
    size_t n_failed, n_aggregate, n_runs; /* entries by kind, for "nothing to import" */
} gb_import;

/* real_time in seconds, or 0 when it is not a positive time with a known unit. */
static double gb_seconds(const cJSON *b) {
    const cJSON *real = cJSON_GetObjectItemCaseSensitive(b, "real_time");
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(b, "time_unit");
    double scale = gb_time_scale(cJSON_IsString(unit) ? unit->valuestring : NULL);
    if (!cJSON_IsNumber(real) || !(real->valuedouble > 0) || !isfinite(real->valuedouble)) return 0;
    return real->valuedouble * scale;
}

/* A positive finite counter `key` of `b` added to *sum (and counted). */
static void gb_counter(const cJSON *b, const char *key, double *sum, size_t *n) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, key);
    if (cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble)) {
        *sum += v->valuedouble;
        (*n)++;
    }
}

/* The group numbered `g` (rl__group_names), filled from its first entry `b` at index `i`. */
static gb_group *gb_group_of(gb_import *im, size_t g, const char *run_name, const cJSON *b, int i) {
    gb_group *gr = &im->groups[g];
    if (!gr->run_name) {
        gr->run_name = run_name;
        gr->first = b;
        gr->index = i;
    }
    return gr;
}

/* An iteration run of the group: its time and counters. 0, or -1 when out of memory. */
static int gb_iteration(gb_group *gr, const cJSON *b, double seconds) {
    if (gr->n == gr->cap) {
        size_t cap = gr->cap ? gr->cap * 2 : 4;
        double *nt = realloc(gr->times, cap * sizeof *nt);
        if (!nt) return -1;
        gr->times = nt;
        gr->cap = cap;
    }
    gr->times[gr->n++] = seconds;
    gb_counter(b, "TFLOP/s", &gr->tflops_sum, &gr->n_tflops);
    gb_counter(b, "HBM GB/s", &gr->gbs_sum, &gr->n_gbs);
    return 0;
}

/* The run name of an entry that names one and did not fail; NULL otherwise. */
static const char *gb_run_name(const cJSON *b) {
    const cJSON *run_name = cJSON_GetObjectItemCaseSensitive(b, "run_name");
    if (!cJSON_IsString(run_name)) run_name = cJSON_GetObjectItemCaseSensitive(b, "name");
    if (!cJSON_IsObject(b) || !cJSON_IsString(run_name)) return NULL;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "error_occurred"))) return NULL;
    return run_name->valuestring;
}

/* One entry of "benchmarks" at `p`. 0, or -1 when out of memory. */
static int gb_entry(gb_import *im, const cJSON *b, int i, const char *p, rl_rec_issues *is) {
    const char *run_name = gb_run_name(b);
    if (!run_name && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(b, "error_occurred"))) {
        const cJSON *msg = cJSON_GetObjectItemCaseSensitive(b, "error_message");
        const char *m = cJSON_IsString(msg) ? msg->valuestring : "no message";
        im->n_failed++;
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p, "skipped: the benchmark failed (%.*s)",
                  (int)rl__utf8_clip(m, 120), m);
        return 0;
    }
    if (!run_name) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected an object with a name");
        return 0;
    }
    gb_group *gr = gb_group_of(im, im->group[i], run_name, b, i);
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(b, "run_type");
    if (cJSON_IsString(rt) && strcmp(rt->valuestring, "aggregate") == 0) {
        im->n_aggregate++;
        const cJSON *agg = cJSON_GetObjectItemCaseSensitive(b, "aggregate_name");
        if (cJSON_IsString(agg) && strcmp(agg->valuestring, "median") == 0) gr->median = b;
        return 0;
    }
    double seconds = gb_seconds(b);
    if (seconds == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                  "expected real_time > 0 with time_unit ns, us, ms or s");
        return 0;
    }
    im->n_runs++;
    return gb_iteration(gr, b, seconds) ? rl__oom(is) : 0;
}

/* The point's timing: median (the "median" aggregate where given), min, max, runs. */
static void gb_timing(rl_rec_point *pt, const gb_group *gr) {
    double tmin = gr->times[0], tmax = gr->times[0];
    for (size_t k = 1; k < gr->n; k++) {
        if (gr->times[k] < tmin) tmin = gr->times[k];
        if (gr->times[k] > tmax) tmax = gr->times[k];
    }
    double med = rl_rec_median(gr->times, gr->n);
    if (gr->median && gb_seconds(gr->median) > 0) med = gb_seconds(gr->median);
    pt->time_median_s = med;
    pt->time_min_s = tmin < med ? tmin : med;
    pt->time_max_s = tmax > med ? tmax : med;
    const cJSON *iters = cJSON_GetObjectItemCaseSensitive(gr->first, "iterations");
    pt->runs = (int64_t)gr->n;
    if (gr->n == 1 && cJSON_IsNumber(iters) && iters->valuedouble >= 1 &&
        iters->valuedouble <= RL_EXACT_INT_MAX) /* beyond 2^53 no exact count: keep n */
        pt->runs = (int64_t)iters->valuedouble;
}

/* FLOPs = "TFLOP/s" × time (else the model's F, with a warning); bytes = "HBM GB/s" × time. */
static void gb_work(rl_rec_point *pt, const gb_group *gr, const char *p, rl_rec_issues *is) {
    double med = pt->time_median_s;
    if (gr->n_tflops) {
        pt->reported_flops_per_s = gr->tflops_sum / (double)gr->n_tflops * TERA;
        pt->flops = pt->reported_flops_per_s * med;
    } else {
        rl_workload w;
        if (rl_workload_compute(&pt->problem, &w, NULL) == RL_OK) pt->flops = w.flops;
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p,
                  "no \"TFLOP/s\" counter: flops taken from the model's F for the problem");
    }
    if (gr->n_gbs) {
        pt->reported_bytes_per_s = gr->gbs_sum / (double)gr->n_gbs * GIGA;
        pt->modelled_bytes = pt->reported_bytes_per_s * med;
    }
}

/* One point per group with iteration runs. 0, or -1 to stop. */
static int gb_point(rl_record *r, const rl_import_opts *o, const char *mapping, gb_group *gr,
                    rl_rec_issues *is) {
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "benchmarks[%d]", gr->index);
    if (gr->n == 0) return 0;
    rl_rec_point *pt = rl_record_add_point(r);
    if (!pt) return rl__oom(is);
    pt->problem = o->problem;
    pt->traffic_model = o->traffic_model;
    if (gbench_problem(gr->run_name, mapping, &pt->problem, is) != 0) return -1;
    gb_timing(pt, gr);
    if (rl_rec_set_clean_string(&pt->label, gr->run_name)) rl__oom(is);
    gb_work(pt, gr, p, is);
    return 0;
}

/* Hardware name, date, kernel and notes from the "context" block; nonzero when out of memory. */
static int gb_fields(rl_record *r, const cJSON *root, const rl_import_opts *o, const char *mapping) {
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
    const cJSON *date = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "date") : NULL;
    const cJSON *host = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "host_name") : NULL;
    const cJSON *exe = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "executable") : NULL;
    char hwname[160], datebuf[32] = "";
    snprintf(hwname, sizeof hwname, "unknown (host %.100s)",
             cJSON_IsString(host) ? host->valuestring : "not recorded");
    if (cJSON_IsString(date) && strlen(date->valuestring) >= 10)
        snprintf(datebuf, sizeof datebuf, "%.25s", date->valuestring);
    int bad = rl__import_common(r, o, "Google Benchmark JSON (imported by rooflab import gbench)",
                                hwname, datebuf[0] ? datebuf : NULL, NULL);
    if (cJSON_IsString(exe)) bad |= rl_rec_set_clean_string(&r->software.kernel, exe->valuestring);
    char note[RL_REC_MESSAGE_MAX];
    snprintf(note, sizeof note,
             "Problem from the benchmark name: \"/\"-separated arguments mapped in order to "
             "%s (key:value arguments by name; dtype from a fp16/bf16/fp8/fp32 token in the "
             "name). FLOPs = \"TFLOP/s\" × real_time, bytes = \"HBM GB/s\" × real_time.",
             mapping);
    bad |= rl_rec_set_clean_string(&r->provenance.notes, note);
    return bad;
}

static void gb_import_free(gb_import *im) {
    for (size_t g = 0; im->groups && g < im->ng; g++) free(im->groups[g].times);
    free(im->groups);
    free(im->group);
}

/* Group the entries by run name (a sort, so that many names stay linear-ish). 0 or -1 (OOM). */
static int gb_group_entries(gb_import *im, const cJSON *bms, size_t nb) {
    const char **names = malloc((nb ? nb : 1) * sizeof *names);
    im->group = malloc((nb ? nb : 1) * sizeof *im->group);
    int bad = !names || !im->group;
    size_t i = 0;
    for (const cJSON *b = bms->child; !bad && b && i < nb; b = b->next) names[i++] = gb_run_name(b);
    if (!bad) bad = rl__group_names(names, i, im->group, &im->ng);
    free(names);
    if (!bad) im->groups = calloc(im->ng ? im->ng : 1, sizeof *im->groups);
    return bad || !im->groups ? -1 : 0;
}

/* Nothing to import, or more than a record holds: an error naming why. 0, or -1 (issue). */
static int gb_check_counts(const gb_import *im, size_t nb, size_t points, rl_rec_issues *is) {
    if (points > RL_RECORD_MAX_POINTS)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "benchmarks",
                         "%zu distinct benchmark runs; the limit is %d points per record: split "
                         "the file", points, RL_RECORD_MAX_POINTS);
    if (points > 0) return 0;
    if (nb == 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "benchmarks",
                         "no benchmarks: the array is empty (did the filter match nothing?)");
    if (im->n_runs == 0 && im->n_aggregate > 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "benchmarks",
                         "only aggregates (%zu: mean, median, stddev ...) and no iteration runs; "
                         "rerun without --benchmark_report_aggregates_only",
                         im->n_aggregate);
    if (im->n_failed == nb)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "benchmarks",
                         "every benchmark failed (%zu with error_occurred): nothing measured",
                         im->n_failed);
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "benchmarks",
                     "no benchmark run to import (%zu entries: %zu failed, %zu aggregates)", nb,
                     im->n_failed, im->n_aggregate);
}

rl_status rl__import_gbench(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is) {
    const char *end = NULL;
    rl__skip_bom(&text, &len);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    const cJSON *bms = root ? cJSON_GetObjectItemCaseSensitive(root, "benchmarks") : NULL;
    if (!root || !cJSON_IsArray(bms)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not Google Benchmark JSON: expected an object with a \"benchmarks\" array "
                  "(--benchmark_format=json or --benchmark_out)");
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    const char *mapping = o->gbench_args ? o->gbench_args : GB_DEFAULT_ARGS;
    if (gb_fields(r, root, o, mapping)) rl__oom(is);
    size_t nb = (size_t)cJSON_GetArraySize(bms), points = 0;
    gb_import im = {0};
    rl_status st = RL_OK;
    if (gb_group_entries(&im, bms, nb) != 0) {
        st = RL_ERR_CAPACITY;
        rl__oom(is);
    }
    int i = 0;
    for (const cJSON *b = bms->child; st == RL_OK && b; b = b->next, i++) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "benchmarks[%d]", i);
        if (gb_entry(&im, b, i, p, is) != 0) break;
    }
    for (size_t g = 0; st == RL_OK && g < im.ng; g++) points += im.groups[g].n > 0;
    if (st == RL_OK && gb_check_counts(&im, nb, points, is) != 0) st = RL_ERR_INVALID;
    for (size_t g = 0; st == RL_OK && g < im.ng; g++)
        if (gb_point(r, o, mapping, &im.groups[g], is) != 0) break;
    gb_import_free(&im);
    cJSON_Delete(root);
    return st;
}
