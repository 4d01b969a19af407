/* import_gbench.c — Google Benchmark JSON → rl_record: one point per run_name (its repetitions
 * and its mean/median aggregates give the timing); time real_time (time_unit); counters by
 * meaning: the first user counter whose unit is a FLOP rate ("TFLOP/s", "GFLOPS") gives the
 * FLOPs, the first byte rate ("HBM GB/s") or bytes_per_second the bytes (rate × the time Google
 * Benchmark divides by); the problem comes from the name's arguments, whose keys are the problem
 * field table's (RL_PROBLEM_FIELDS), and the pass from the family name. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define GB_DEFAULT_ARGS "batch,seq,heads,head_dim" /* BM_x/4/8192/16/128: B=4, N=8192, H=16, d=128 */
#define GB_MAX_ARGS 16 /* keys in --args */
#define GB_MAX_KEY 16  /* bytes of one key */

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
 * value is kept as given; the checker names one out of range with the point's path. Returns 1
 * when it is a positional number (it takes a position), 0 otherwise. */
static int gbench_arg(char *tok, size_t position, const int *fields, size_t nfields,
                      rl_problem *pb) {
    char *colon = strchr(tok, ':');
    const char *val = colon ? colon + 1 : tok;
    char *end = NULL;
    long long v = strtoll(val, &end, 10);
    /* Google Benchmark appends e.g. "real_time", "manual_time": not numbers, no position */
    if (end == val || *end) return 0;
    int f = -1;
    if (colon) {
        *colon = '\0';
        f = gbench_key(tok); /* "threads:1", "repeats:5" ... name no field: ignored */
    } else if (position < nfields) {
        f = fields[position]; /* more than the mapping names: counted, an error after */
    }
    if (f >= 0) {
        if (rl_problem_field_info((rl_problem_field)f)->type == RL_FTYPE_BOOL) v = v != 0;
        rl__problem_store(pb, (rl_problem_field)f, v);
    }
    return colon ? 0 : 1;
}

/* A word of the family name (the part before the first '/'): split at non-alphanumerics and at
 * lower-to-upper case changes ("FlashAttnBackward" → Flash, Attn, Backward). The pass it names:
 * 0 fwd ("forward", "fwd"), 1 bwd ("backward", "bwd"), -1 none. */
static int pass_word(const char *w, size_t n) {
    static const struct {
        const char *word;
        int pass;
    } words[] = {{"forward", RL_PASS_FWD}, {"fwd", RL_PASS_FWD}, {"backward", RL_PASS_BWD},
                 {"bwd", RL_PASS_BWD}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = strlen(words[i].word);
        if (n != k) continue;
        size_t j = 0;
        while (j < n && tolower((unsigned char)w[j]) == words[i].word[j]) j++;
        if (j == n) return words[i].pass;
    }
    return -1;
}

/* The passes named by the family name: bit 0 forward, bit 1 backward. */
static unsigned family_passes(const char *name) {
    unsigned found = 0;
    size_t end = strcspn(name, "/"), i = 0;
    while (i < end) {
        while (i < end && !isalnum((unsigned char)name[i])) i++;
        size_t a = i++;
        while (i < end && isalnum((unsigned char)name[i]) &&
               !(islower((unsigned char)name[i - 1]) && isupper((unsigned char)name[i])))
            i++;
        int pass = a < end ? pass_word(name + a, i - a) : -1;
        if (pass >= 0) found |= 1u << pass;
    }
    return found;
}

/* The pass of a benchmark: given (--pass, a form) wins; else the family name's word. 0, or -1
 * with an issue when the name says both. */
static int gbench_pass(const char *name, const rl_import_opts *o, rl_problem *pb, const char *p,
                       rl_rec_issues *is) {
    if (rl__problem_given(o) & (1u << RL_FIELD_PASS)) return 0;
    unsigned found = family_passes(name);
    if (found == 3)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "\"%.*s\" names both a forward and a backward pass; give --pass", 
                         (int)rl__utf8_clip(name, 80), name);
    if (found) pb->pass = found == 2 ? RL_PASS_BWD : RL_PASS_FWD;
    return 0;
}

/* "BM_x/4/8192/16/128" or "BM_x/batch:4/seq:8192/..." → problem. The positional arguments must
 * match the mapping one to one (a name with none, all key:value, is fine). Returns 0, or -1 when
 * the mapping is wrong or does not fit the name (issue added at `p`). */
static int gbench_problem(const char *name, const char *mapping, rl_problem *pb, const char *p,
                          rl_rec_issues *is) {
    int fields[GB_MAX_ARGS];
    size_t nfields = 0;
    if (gbench_mapping(mapping, fields, &nfields, is) != 0) return -1;
    rl_dtype d = rl__dtype_in_name(name);
    if (d != RL_DTYPE_DEFAULT) pb->dtype = d;
    size_t position = 0;
    for (const char *s = strchr(name, '/'); s && *s == '/';) {
        s++;
        size_t n = strcspn(s, "/");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), s);
        s += n;
        if (gbench_arg(tok, position, fields, nfields, pb)) position++;
    }
    if (position == 0 || position == nfields) return 0;
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                     "\"%.*s\" has %zu numeric arguments; --args names %zu (%.*s): give --args "
                     "with one key per argument (_ skips one)",
                     RL__QUOTE(name, 80), position, nfields, RL__QUOTE(mapping, 60));
}

/* ---- counters by meaning -------------------------------------------------------------------- */

/* Keys Google Benchmark writes itself: never a user counter. */
static int gb_own_key(const char *k) {
    static const char *const own[] = {
        "name", "family_index", "per_family_instance_index", "run_name", "run_type",
        "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
        "time_unit", "aggregate_name", "aggregate_unit", "label", "error_occurred",
        "error_message", "bytes_per_second", "items_per_second", "skipped", "skip_message"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(k, own[i]) == 0) return 1;
    return 0;
}

/* The rate a counter's name states by its unit, the last word of the name ("TFLOP/s", "HBM
 * GB/s", "GFLOPS"): the factor to base units (FLOP/s or bytes/s), 0 when it names none. */
static double gb_unit_rate(const char *key, rl_dim want) {
    const char *unit = strrchr(key, ' ');
    unit = unit ? unit + 1 : key;
    char text[48];
    if (strlen(unit) > 32) return 0;
    snprintf(text, sizeof text, "1 %s", unit);
    double base = 0;
    rl_dim dim = RL_DIM_NONE;
    if (rl_parse_quantity(text, RL_DIM_COUNT, "counter", &base, &dim, NULL) != RL_OK) return 0;
    return dim == want && base > 0 ? base : 0;
}

/* The counters of one entry used for its work: the first user counter whose unit is a FLOP
 * rate, the first whose unit is a byte rate (else bytes_per_second). */
typedef struct gb_rates {
    const char *flop_key, *byte_key;
    double flops_per_s, bytes_per_s; /* base units; 0 = none */
} gb_rates;

static gb_rates gb_entry_rates(const cJSON *b) {
    gb_rates r = {0};
    for (const cJSON *c = b->child; c; c = c->next) {
        if (!c->string || gb_own_key(c->string) || !cJSON_IsNumber(c)) continue;
        double v = c->valuedouble, f;
        if (!(v > 0) || !isfinite(v)) continue;
        if (!r.flop_key && (f = gb_unit_rate(c->string, RL_DIM_FLOPS_PER_S)) > 0) {
            r.flop_key = c->string;
            r.flops_per_s = v * f;
        } else if (!r.byte_key && (f = gb_unit_rate(c->string, RL_DIM_BYTES_PER_S)) > 0) {
            r.byte_key = c->string;
            r.bytes_per_s = v * f;
        }
    }
    const cJSON *bps = cJSON_GetObjectItemCaseSensitive(b, "bytes_per_second");
    if (!r.byte_key && cJSON_IsNumber(bps) && bps->valuedouble > 0 && isfinite(bps->valuedouble)) {
        r.byte_key = "bytes_per_second";
        r.bytes_per_s = bps->valuedouble;
    }
    if (!isfinite(r.flops_per_s)) r.flops_per_s = 0;
    if (!isfinite(r.bytes_per_s)) r.bytes_per_s = 0;
    return r;
}

/* The benchmarks of one run_name: its repetitions' times and rates, its aggregates. */
typedef struct gb_group {
    const char *run_name;
    const cJSON *first;            /* first entry, for the name */
    const cJSON *median, *mean;    /* aggregates "median", "mean" when present */
    const cJSON *stddev, *cv;      /* aggregates "stddev", "cv" (a fraction) when present */
    double *times, *rate_times;    /* malloc'd, one per iteration run: real_time, and the time
                                      its rates are over (real_time, or cpu_time) */
    size_t n, cap;
    double flops_sum, bytes_sum;   /* rates, base units */
    size_t n_flops, n_bytes;
    const char *flop_key, *byte_key;
    int index;
} gb_group;

/* The keys used across the file, for the notes (at most GB_MAX_NOTED each). */
#define GB_MAX_NOTED 6
typedef struct gb_noted {
    const char *keys[GB_MAX_NOTED];
    size_t n;
} gb_noted;

typedef struct gb_import {
    gb_group *groups;
    size_t ng;
    size_t *group;                      /* per entry: its group (rl__group_names) */
    size_t n_failed, n_aggregate, n_runs; /* entries by kind, for "nothing to import" */
    gb_noted flop_keys, byte_keys;
    size_t no_bytes, no_flops, cpu_rates, items; /* points without ..., rates over cpu_time */
} gb_import;

static void gb_note_key(gb_noted *nk, const char *key) {
    for (size_t i = 0; i < nk->n; i++)
        if (strcmp(nk->keys[i], key) == 0) return;
    if (nk->n < GB_MAX_NOTED) nk->keys[nk->n++] = key;
}

/* real_time (or `which`) in seconds, or 0 when it is not a positive time with a known unit. */
static double gb_time(const cJSON *b, const char *which) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(b, which);
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(b, "time_unit");
    double scale = gb_time_scale(cJSON_IsString(unit) ? unit->valuestring : NULL);
    if (!cJSON_IsNumber(t) || !(t->valuedouble > 0) || !isfinite(t->valuedouble)) return 0;
    return t->valuedouble * scale;
}
static double gb_seconds(const cJSON *b) { return gb_time(b, "real_time"); }

/* The time Google Benchmark divides rates by: real_time under UseRealTime / UseManualTime (the
 * run name ends in "/real_time" or "/manual_time"), else cpu_time (real_time when absent). */
static double gb_rate_time(const cJSON *b, const char *run_name, int *over_cpu) {
    const char *slash = strrchr(run_name, '/');
    int real = slash && (strcmp(slash, "/real_time") == 0 || strcmp(slash, "/manual_time") == 0);
    double cpu = real ? 0 : gb_time(b, "cpu_time");
    *over_cpu = cpu > 0;
    return cpu > 0 ? cpu : gb_seconds(b);
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

/* A run's rates into the group (per-second sums, averaged later). */
static void gb_add_rates(gb_group *gr, const gb_rates *r) {
    if (r->flop_key) {
        gr->flops_sum += r->flops_per_s;
        gr->n_flops++;
        if (!gr->flop_key) gr->flop_key = r->flop_key;
    }
    if (r->byte_key) {
        gr->bytes_sum += r->bytes_per_s;
        gr->n_bytes++;
        if (!gr->byte_key) gr->byte_key = r->byte_key;
    }
}

/* An iteration run of the group: its times and rates. 0, or -1 when out of memory. */
static int gb_iteration(gb_import *im, gb_group *gr, const cJSON *b, double seconds) {
    if (gr->n == gr->cap) {
        size_t cap = gr->cap ? gr->cap * 2 : 4;
        double *nt = realloc(gr->times, cap * sizeof *nt);
        if (!nt) return -1;
        gr->times = nt;
        nt = realloc(gr->rate_times, cap * sizeof *nt);
        if (!nt) return -1;
        gr->rate_times = nt;
        gr->cap = cap;
    }
    int over_cpu = 0;
    gr->times[gr->n] = seconds;
    gr->rate_times[gr->n++] = gb_rate_time(b, gr->run_name, &over_cpu);
    gb_rates r = gb_entry_rates(b);
    if (over_cpu && (r.flop_key || r.byte_key)) im->cpu_rates++;
    gb_add_rates(gr, &r);
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

/* An aggregate entry: "median", "mean", "stddev" and "cv" kept as the family's timing statistics
 * (the cv's real_time is a fraction, not a time); the rest ("min", "max", user-defined) say
 * nothing the runs do not. */
static void gb_aggregate(gb_import *im, gb_group *gr, const cJSON *b) {
    im->n_aggregate++;
    const cJSON *agg = cJSON_GetObjectItemCaseSensitive(b, "aggregate_name");
    if (!cJSON_IsString(agg)) return;
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(b, "real_time");
    if (strcmp(agg->valuestring, "cv") == 0 && cJSON_IsNumber(rt) && isfinite(rt->valuedouble) &&
        rt->valuedouble >= 0)
        gr->cv = b;
    if (gb_seconds(b) == 0) {
        /* a zero stddev (identical repetitions) is a statistic, not a missing time */
        if (strcmp(agg->valuestring, "stddev") == 0 && cJSON_IsNumber(rt) && rt->valuedouble == 0)
            gr->stddev = b;
        return;
    }
    if (strcmp(agg->valuestring, "median") == 0) gr->median = b;
    if (strcmp(agg->valuestring, "mean") == 0) gr->mean = b;
    if (strcmp(agg->valuestring, "stddev") == 0) gr->stddev = b;
}

/* The keys of one entry the importer reads, refused rather than guessed (issue 21): each of
 * Google Benchmark's own keys at most once (cJSON would take the first of two), time_unit one of
 * Google Benchmark's strings (a number is not a unit), and a counter whose name states a FLOP or
 * byte rate a number (a string there is reported as a string, not as "no counter"). One pass over
 * the keys, each matched against the short list. 0, or -1 (an issue at the input's path). */
static int gb_entry_keys(const cJSON *b, const char *p, rl_rec_issues *is) {
    static const char *const own[] = {"name", "run_name", "run_type", "repetitions", "real_time",
                                      "cpu_time", "time_unit", "aggregate_name", "error_occurred",
                                      "bytes_per_second", "items_per_second"};
    unsigned char seen[sizeof own / sizeof own[0]] = {0};
    int bad = 0;
    char q[RL_REC_PATH_MAX + 200]; /* rl__issue clips the path to RL_REC_PATH_MAX */
    for (const cJSON *c = b->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        size_t w = 0;
        while (w < sizeof own / sizeof own[0] && strcmp(k, own[w]) != 0) w++;
        if (w < sizeof own / sizeof own[0]) {
            snprintf(q, sizeof q, "%s.%s", p, k);
            if (seen[w]++)
                bad |= rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, q,
                                 "given twice; expected each key once (which one was meant?)");
            continue;
        }
        if (gb_own_key(k)) continue;
        /* a user counter whose name states a rate must hold a number */
        if (!cJSON_IsNumber(c) && (gb_unit_rate(k, RL_DIM_FLOPS_PER_S) > 0 ||
                                   gb_unit_rate(k, RL_DIM_BYTES_PER_S) > 0)) {
            snprintf(q, sizeof q, "%s.\"%.*s\"", p, (int)rl__utf8_clip(k, 60), k);
            bad |= rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, q,
                             "a counter named as a rate holds %s; expected a number (a "
                             "benchmark::Counter)",
                             cJSON_IsString(c) ? "a string" : cJSON_IsNull(c) ? "null"
                             : cJSON_IsBool(c) ? "a boolean" : "an array or object");
        }
    }
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(b, "time_unit");
    if (unit && !(cJSON_IsString(unit) && gb_time_scale(unit->valuestring) > 0)) {
        snprintf(q, sizeof q, "%s.time_unit", p);
        if (cJSON_IsString(unit))
            bad |= rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, q,
                             "expected \"ns\", \"us\", \"ms\" or \"s\", got \"%.*s\"",
                             (int)rl__utf8_clip(unit->valuestring, 40), unit->valuestring);
        else
            bad |= rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, q,
                             "expected the string \"ns\", \"us\", \"ms\" or \"s\", got %s",
                             cJSON_IsNumber(unit) ? "a number" : "a value that is not a string");
    }
    return bad ? -1 : 0;
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
    if (gb_entry_keys(b, p, is) != 0) return 0;
    gb_group *gr = gb_group_of(im, im->group[i], run_name, b, i);
    const cJSON *rt = cJSON_GetObjectItemCaseSensitive(b, "run_type");
    if (cJSON_IsString(rt) && strcmp(rt->valuestring, "aggregate") == 0) {
        gb_aggregate(im, gr, b);
        return 0;
    }
    double seconds = gb_seconds(b);
    if (seconds == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                  "expected real_time > 0 with time_unit ns, us, ms or s");
        return 0;
    }
    im->n_runs++;
    return gb_iteration(im, gr, b, seconds) ? rl__oom(is) : 0;
}

/* A family reported by its aggregates only (--benchmark_report_aggregates_only): the median
 * aggregate (else the mean) stands for its runs; its rates are its own. */
static void gb_from_aggregate(gb_import *im, gb_group *gr, rl_rec_point *pt, double *rate_time) {
    const cJSON *a = gr->median ? gr->median : gr->mean;
    int over_cpu = 0;
    pt->time_median_s = gb_seconds(a);
    *rate_time = gb_rate_time(a, gr->run_name, &over_cpu);
    const cJSON *reps = cJSON_GetObjectItemCaseSensitive(a, "repetitions");
    if (cJSON_IsNumber(reps) && reps->valuedouble >= 1 && reps->valuedouble <= RL_EXACT_INT_MAX)
        pt->runs = (int64_t)reps->valuedouble;
    gb_rates r = gb_entry_rates(a);
    if (over_cpu && (r.flop_key || r.byte_key)) im->cpu_rates++;
    gb_add_rates(gr, &r);
    /* the spread from the aggregates: mean, stddev (else cv × mean) */
    if (gr->mean) pt->time_mean_s = gb_seconds(gr->mean);
    if (gr->stddev) {
        pt->time_stddev_s = gb_seconds(gr->stddev);
    } else if (gr->cv && pt->time_mean_s > 0) {
        pt->time_stddev_s =
            cJSON_GetObjectItemCaseSensitive(gr->cv, "real_time")->valuedouble * pt->time_mean_s;
    }
}

/* The point's timing: median (the "median" aggregate where given, else the runs' median), min,
 * max over the runs, runs = the repetitions (never the iteration count). *rate_time: the median
 * time the rates are over. */
static void gb_timing(gb_import *im, rl_rec_point *pt, gb_group *gr, double *rate_time) {
    if (gr->n == 0) {
        gb_from_aggregate(im, gr, pt, rate_time);
        return;
    }
    /* median, min, max, mean and the sample stddev over the repetitions (as Google Benchmark's
     * own mean and stddev aggregates compute them) */
    rl_rec_set_times(pt, gr->times, gr->n);
    *rate_time = rl_rec_median(gr->rate_times, gr->n);
    if (gr->median) {
        int over_cpu;
        double med = gb_seconds(gr->median);
        *rate_time = gb_rate_time(gr->median, gr->run_name, &over_cpu);
        pt->time_median_s = med;
        if (pt->time_min_s > med) pt->time_min_s = med;
        if (pt->time_max_s < med) pt->time_max_s = med;
    }
}

/* FLOPs = FLOP rate × its time (else the model's F, counted); bytes = byte rate × its time (else
 * the point's traffic model, counted). A rate over real_time is kept as the reported rate. */
static void gb_work(gb_import *im, rl_rec_point *pt, const gb_group *gr, double rate_time) {
    int over_real = rate_time == pt->time_median_s;
    if (gr->n_flops) {
        double rate = gr->flops_sum / (double)gr->n_flops;
        pt->flops = rate * rate_time;
        if (over_real) pt->reported_flops_per_s = rate;
        gb_note_key(&im->flop_keys, gr->flop_key);
    } else {
        rl_workload w;
        if (rl_workload_compute(&pt->problem, &w, NULL) == RL_OK) pt->flops = w.flops;
        im->no_flops++;
    }
    if (gr->n_bytes) {
        double rate = gr->bytes_sum / (double)gr->n_bytes;
        pt->modelled_bytes = rate * rate_time;
        if (over_real) pt->reported_bytes_per_s = rate;
        gb_note_key(&im->byte_keys, gr->byte_key);
    } else {
        im->no_bytes++;
    }
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(gr->first, "items_per_second");
    if (cJSON_IsNumber(items)) im->items++;
}

/* One point per group with runs or a median/mean aggregate. 0, or -1 to stop. */
static int gb_point(rl_record *r, const rl_import_opts *o, const char *mapping, gb_import *im,
                    gb_group *gr, rl_rec_issues *is) {
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "benchmarks[%d].name", gr->index);
    if (gr->n == 0 && !gr->median && !gr->mean) return 0;
    rl_rec_point *pt = rl_record_add_point(r);
    if (!pt) return rl__oom(is);
    /* the input's place of the point, for the record check's issues (rl__set_origin) */
    if (rl__set_origin(r, r->point_count - 1, "benchmarks[%d]", gr->index) != 0) return rl__oom(is);
    pt->problem = o->problem;
    pt->traffic_model = o->traffic_model;
    if (gbench_problem(gr->run_name, mapping, &pt->problem, p, is) != 0 ||
        gbench_pass(gr->run_name, o, &pt->problem, p, is) != 0)
        return -1;
    double rate_time = 0;
    gb_timing(im, pt, gr, &rate_time);
    if (rl_rec_set_clean_string(&pt->label, gr->run_name)) rl__oom(is);
    gb_work(im, pt, gr, rate_time);
    return 0;
}

/* "a, b" of the noted keys into buf. */
static void gb_keys_text(const gb_noted *nk, char *buf, size_t cap) {
    buf[0] = '\0';
    for (size_t i = 0; i < nk->n; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, cap - l, "%s\"%.*s\"", i ? ", " : "", RL__QUOTE(nk->keys[i], 40));
    }
}

/* The notes: the mapping, and exactly the counters used (none claimed that was absent). */
static int gb_notes(rl_record *r, const gb_import *im, const char *mapping,
                    rl_rec_traffic traffic) {
    char flops[300], bytes[300], note[1400], model[80];
    snprintf(model, sizeof model, "%score's \"%s\" traffic model (each point's traffic_model)",
             im->byte_keys.n ? "; else " : "none counted: ", rl_rec_traffic_name(traffic));
    gb_keys_text(&im->flop_keys, flops, sizeof flops);
    gb_keys_text(&im->byte_keys, bytes, sizeof bytes);
    snprintf(note, sizeof note,
             "Problem from the benchmark name: numeric \"/\"-separated arguments mapped in order "
             "to %s (key:value arguments by name; dtype from a fp16/bf16/fp8/fp32 token; pass "
             "from a forward/fwd/backward/bwd word of the family name unless given). Time: "
             "real_time (the median aggregate where given, else the median of the repetitions; "
             "runs = repetitions; mean and sample standard deviation over the repetitions, or "
             "from the mean and stddev aggregates, or cv × mean). FLOPs: %s%s%s. Bytes: %s%s%s.%s",
             mapping, im->flop_keys.n ? flops : "", im->flop_keys.n ? " × the time it is over" : "",
             im->no_flops ? (im->flop_keys.n ? "; else the model's F" : "the model's F (no FLOP-rate counter)") : "",
             im->byte_keys.n ? bytes : "", im->byte_keys.n ? " × the time it is over" : "",
             im->no_bytes ? model : "",
             im->cpu_rates ? " Rates over cpu_time where the benchmark used neither UseRealTime nor "
                             "UseManualTime (as Google Benchmark computes them)." : "");
    return rl_rec_set_clean_string(&r->provenance.notes, note);
}

/* Hardware name, date and kernel from the "context" block; nonzero when out of memory. */
static int gb_fields(rl_record *r, const cJSON *root, const rl_import_opts *o) {
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
    return bad;
}

/* The text is not JSON (cut short, ...): where; or JSON without a "benchmarks" array. */
static void gb_not_json(const char *text, size_t len, int parsed, rl_rec_issues *is) {
    size_t at = 0, line = 1, col = 1;
    int depth = 0;
    if (!parsed && rl__json_scan((const unsigned char *)text, len, &at, &depth) != 0) {
        rl__line_col(text, len, at, &line, &col);
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not valid Google Benchmark JSON at line %zu, column %zu%s", line, col,
                  at >= len ? " (the file ends early: cut short?)" : "");
        return;
    }
    rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "benchmarks",
              "not Google Benchmark JSON: expected an object with a \"benchmarks\" array "
              "(--benchmark_format=json or --benchmark_out)");
}

/* What the import chose where the file says nothing: warnings, one per kind. */
static void gb_warnings(const gb_import *im, size_t points, const rl_import_opts *o,
                        rl_rec_issues *is) {
    if (im->no_flops)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "benchmarks",
                  "%zu of %zu points have no FLOP-rate counter (a user counter in FLOP/s, "
                  "GFLOP/s, TFLOP/s ...): their flops are the model's F for the problem",
                  im->no_flops, points);
    if (im->no_bytes)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "benchmarks",
                  "%zu of %zu points have no byte counter (bytes_per_second, or a GB/s counter): "
                  "their bytes are core's \"%s\" traffic model for the problem (traffic_model "
                  "in each point; choose with --traffic-model)",
                  im->no_bytes, points, rl_rec_traffic_name(o->traffic_model));
    if (im->items && im->flop_keys.n == 0)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "benchmarks",
                  "items_per_second not used: an item has no unit; report FLOPs in a counter "
                  "named \"FLOP/s\" or \"TFLOP/s\" (benchmark::Counter::kIsRate)");
    if (im->cpu_rates)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "benchmarks",
                  "%zu runs report rates over cpu_time (neither UseRealTime nor UseManualTime): "
                  "FLOPs and bytes = rate × cpu_time, as Google Benchmark computed them; a GPU "
                  "kernel's rates belong over real_time", im->cpu_rates);
}

static void gb_import_free(gb_import *im) {
    for (size_t g = 0; im->groups && g < im->ng; g++) {
        free(im->groups[g].times);
        free(im->groups[g].rate_times);
    }
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
                         "only aggregates without a mean or median (%zu: stddev, cv ...) and no "
                         "iteration runs; rerun without --benchmark_report_aggregates_only",
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
    /* two "benchmarks" (or "context") keys: cJSON would keep the first; refused by name */
    int n_bms = 0, n_ctx = 0;
    for (const cJSON *c = root && cJSON_IsObject(root) ? root->child : NULL; c; c = c->next) {
        n_bms += c->string && strcmp(c->string, "benchmarks") == 0;
        n_ctx += c->string && strcmp(c->string, "context") == 0;
    }
    if (n_bms > 1 || n_ctx > 1) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, n_bms > 1 ? "benchmarks" : "context",
                  "the key appears %d times in the top-level object; expected it once (which "
                  "one holds the runs?)", n_bms > 1 ? n_bms : n_ctx);
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    if (!root || !cJSON_IsArray(bms)) {
        gb_not_json(text, len, root != NULL, is);
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    const char *mapping = o->gbench_args ? o->gbench_args : GB_DEFAULT_ARGS;
    rl__set_origin_fields(r, ".real_time",
                          " (its FLOP-rate counter \xC3\x97 its time, else the model's F)",
                          " (its byte-rate counter \xC3\x97 its time, else the traffic model)",
                          ".name (its arguments, --args)");
    if (gb_fields(r, root, o)) rl__oom(is);
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
    for (size_t g = 0; st == RL_OK && g < im.ng; g++)
        points += im.groups[g].n > 0 || im.groups[g].median || im.groups[g].mean;
    if (st == RL_OK && gb_check_counts(&im, nb, points, is) != 0) st = RL_ERR_INVALID;
    if (st == RL_OK) { /* the record's written size, bounded before any point is built */
        size_t label_bytes = 0; /* each point's "label" is its run name */
        for (size_t g = 0; g < im.ng; g++)
            if ((im.groups[g].n > 0 || im.groups[g].median || im.groups[g].mean) && im.groups[g].run_name) {
                size_t l = strlen(im.groups[g].run_name);
                label_bytes += l < RL_RECORD_MAX_STRING ? l : RL_RECORD_MAX_STRING;
            }
        if (rl__import_size_check(points, label_bytes, is) != 0) st = RL_ERR_RANGE;
    }
    for (size_t g = 0; st == RL_OK && g < im.ng; g++)
        if (gb_point(r, o, mapping, &im, &im.groups[g], is) != 0) break;
    if (st == RL_OK && gb_notes(r, &im, mapping, o->traffic_model)) rl__oom(is);
    if (st == RL_OK) gb_warnings(&im, r->point_count, o, is);
    gb_import_free(&im);
    cJSON_Delete(root);
    return st;
}
