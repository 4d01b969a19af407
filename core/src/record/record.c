/* record.c — the rooflab record in memory: issues, names, building and freeing.
 * Reading JSON is in record_read.c (after json_scan.c's pre-check), checking in record_check.c,
 * writing in record_write.c, importers in import*.c; UTF-8 in utf8.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* ---------------------------------------------------------------------------------------------
 * Issues
 * ------------------------------------------------------------------------------------------- */

void rl_rec_issues_free(rl_rec_issues *issues) {
    if (!issues) return;
    free(issues->items);
    memset(issues, 0, sizeof *issues);
}

void rl_rec_issues_clear(rl_rec_issues *issues) {
    if (!issues) return;
    issues->count = 0;
    issues->errors = 0;
    issues->warnings = 0;
    issues->kept_warnings = 0;
}

int rl__issue(rl_rec_issues *issues, rl_rec_severity severity, rl_status status, const char *path,
              const char *fmt, ...) {
    int ret = severity == RL_REC_ERROR ? -1 : 0;
    if (!issues) return ret;
    if (severity == RL_REC_ERROR)
        issues->errors++;
    else
        issues->warnings++;
    rl_rec_issue *it = NULL;
    if (issues->count >= RL_RECORD_MAX_ISSUES) {
        /* full: an error replaces the last kept warning; a warning is only counted */
        if (severity != RL_REC_ERROR || issues->kept_warnings == 0) return ret;
        size_t k = issues->count;
        while (k > 0 && issues->items[k - 1].severity != RL_REC_WARNING) k--;
        if (k == 0) return ret;
        it = &issues->items[k - 1];
        issues->kept_warnings--;
    } else if (issues->count == issues->cap) {
        size_t cap = issues->cap ? issues->cap * 2 : 8;
        if (cap > RL_RECORD_MAX_ISSUES) cap = RL_RECORD_MAX_ISSUES;
        rl_rec_issue *items = realloc(issues->items, cap * sizeof *items);
        if (!items) return ret; /* counted, not kept */
        issues->items = items;
        issues->cap = cap;
    }
    if (!it) {
        it = &issues->items[issues->count++];
        if (severity == RL_REC_WARNING) issues->kept_warnings++;
    }
    memset(it, 0, sizeof *it);
    it->severity = severity;
    it->status = status;
    snprintf(it->path, sizeof it->path, "%s", path ? path : "");
    size_t off = 0;
    if (path && path[0]) {
        int n = snprintf(it->message, sizeof it->message, "%s: ", path);
        off = n > 0 ? (size_t)n : 0;
        if (off >= sizeof it->message) off = sizeof it->message - 1;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->message + off, sizeof it->message - off, fmt, ap);
    va_end(ap);
    /* a path or message clipped inside a character, or quoting another tool's bytes */
    rl__utf8_clean(it->path, it->path, sizeof it->path);
    rl__utf8_clean(it->message, it->message, sizeof it->message);
    return ret;
}

int rl__oom(rl_rec_issues *issues) {
    return rl__issue(issues, RL_REC_ERROR, RL_ERR_CAPACITY, "", "out of memory");
}

rl_status rl__first_error(const rl_rec_issues *issues, size_t errors_before) {
    if (!issues) return RL_OK;
    size_t seen = 0;
    for (size_t i = 0; i < issues->count; i++) {
        if (issues->items[i].severity != RL_REC_ERROR) continue;
        if (seen++ >= errors_before) return issues->items[i].status;
    }
    return issues->errors > errors_before ? RL_ERR_INVALID : RL_OK;
}

char *rl__strndup(const char *s, size_t n) {
    char *p = malloc(n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* ---------------------------------------------------------------------------------------------
 * Names
 * ------------------------------------------------------------------------------------------- */

const char *rl_rec_provenance_name(rl_rec_provenance_kind kind) {
    switch (kind) {
    case RL_PROV_MEASURED: return "measured";
    case RL_PROV_HISTORICAL_UNAUDITED: return "historical-unaudited";
    case RL_PROV_MODEL: return "model";
    case RL_PROV_PUBLISHED: return "published";
    default: return "unknown";
    }
}

const char *rl_rec_traffic_name(rl_rec_traffic traffic) {
    switch (traffic) {
    case RL_TRAFFIC_COMPULSORY: return "compulsory";
    case RL_TRAFFIC_TILED: return "tiled";
    case RL_TRAFFIC_NAIVE: return "naive";
    case RL_TRAFFIC_OTHER: return "other";
    default: return "unknown";
    }
}

const char *rl_rec_set_name(rl_rec_set set) {
    switch (set) {
    case RL_REC_SET_FIT: return "fit";
    case RL_REC_SET_HELD_OUT: return "held-out";
    default: return NULL;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Building and freeing
 * ------------------------------------------------------------------------------------------- */

rl_record *rl_record_new(rl_rec_provenance_kind kind) {
    rl_record *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->schema_version = RL_RECORD_SCHEMA_VERSION;
    r->provenance.kind = kind;
    return r;
}

static void free_hardware(rl_rec_hardware *hw) {
    if (!hw) return;
    free(hw->name);
    free(hw->preset);
    free(hw->compute_capability);
    free(hw->cpu_model);
    free(hw->driver_version);
    free(hw->runtime_version);
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        free(hw->ceilings[i].name);
        free(hw->ceilings[i].method);
    }
    free(hw->ceilings);
    memset(hw, 0, sizeof *hw);
}

void rl_record_free(rl_record *r) {
    if (!r) return;
    rl__origins_free(r);
    free(r->provenance.date);
    free(r->provenance.source);
    free(r->provenance.tool);
    free(r->provenance.notes);
    for (size_t i = 0; i < r->provenance.artifact_count; i++) free(r->provenance.artifacts[i]);
    free(r->provenance.artifacts);
    free_hardware(&r->hardware);
    free(r->software.kernel);
    free(r->software.kernel_version);
    free(r->software.git_revision);
    free(r->software.compiler);
    free(r->software.flags);
    for (size_t i = 0; i < r->software.argv_count; i++) free(r->software.argv[i]);
    free(r->software.argv);
    for (size_t i = 0; i < r->point_count; i++) {
        rl_rec_point *p = &r->points[i];
        free(p->kernel);
        free(p->label);
        free(p->figure);
        free(p->reading_error);
        if (p->hardware) {
            free_hardware(p->hardware);
            free(p->hardware);
        }
    }
    free(r->points);
    for (size_t i = 0; i < r->skipped_count; i++) {
        free(r->skipped[i].kernel);
        free(r->skipped[i].reason);
    }
    free(r->skipped);
    free(r);
}

int rl_rec_set_string(char **slot, const char *text) {
    char *copy = NULL;
    if (text) {
        copy = rl__strndup(text, strlen(text));
        if (!copy) return -1;
    }
    free(*slot);
    *slot = copy;
    return 0;
}

int rl_rec_set_clean_string(char **slot, const char *text) {
    if (!text) return rl_rec_set_string(slot, NULL);
    char *out = malloc(strlen(text) + 1);
    if (!out) return -1;
    rl__utf8_clean(out, text, RL_RECORD_MAX_STRING);
    free(*slot);
    *slot = out;
    return 0;
}

int rl__date_ok(const char *d) {
    if (!d || strlen(d) < 10) return 0;
    for (int i = 0; i < 10; i++)
        if ((i == 4 || i == 7) ? d[i] != '-' : !(d[i] >= '0' && d[i] <= '9')) return 0;
    return 1;
}

const char *rl__problem_key(const char *field) {
    int f = rl_problem_field_find(field);
    return f >= 0 ? rl_problem_field_info((rl_problem_field)f)->key : field;
}

double rl_rec_median(double *v, size_t n) { return rl_median(v, n); }

void rl_rec_set_times(rl_rec_point *pt, double *t, size_t n) {
    if (!pt || !t || n == 0) return;
    rl_time_stats st = rl_time_stats_of(t, n);
    pt->time_median_s = st.median_s;
    pt->time_min_s = st.min_s;
    pt->time_max_s = st.max_s;
    pt->time_mean_s = st.mean_s;
    pt->time_stddev_s = st.stddev_s;
    pt->runs = (int64_t)n;
}

int rl_rec_add_artifact(rl_record *r, const char *path) {
    if (!r || !path || r->provenance.artifact_count >= RL_RECORD_MAX_ARTIFACTS) return -1;
    char **a = realloc(r->provenance.artifacts, (r->provenance.artifact_count + 1) * sizeof *a);
    if (!a) return -1;
    r->provenance.artifacts = a;
    a[r->provenance.artifact_count] = rl__strndup(path, strlen(path));
    if (!a[r->provenance.artifact_count]) return -1;
    r->provenance.artifact_count++;
    return 0;
}

int rl_rec_set_argv(rl_record *r, int argc, const char *const *argv) {
    if (!r || argc < 0 || argc > RL_RECORD_MAX_ARGV || (argc > 0 && !argv)) return -1;
    char **copy = NULL;
    if (argc > 0) {
        copy = calloc((size_t)argc, sizeof *copy);
        if (!copy) return -1;
        for (int i = 0; i < argc; i++) {
            const char *a = argv[i] ? argv[i] : "";
            copy[i] = rl__strndup(a, strlen(a));
            if (!copy[i]) {
                for (int k = 0; k < i; k++) free(copy[k]);
                free(copy);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < r->software.argv_count; i++) free(r->software.argv[i]);
    free(r->software.argv);
    r->software.argv = copy;
    r->software.argv_count = (size_t)argc;
    return 0;
}

rl_rec_point *rl_record_add_point(rl_record *r) {
    if (!r || r->point_count >= RL_RECORD_MAX_POINTS) return NULL;
    if (r->point_count == r->point_cap) {
        size_t cap = r->point_cap ? r->point_cap * 2 : 16;
        if (cap > RL_RECORD_MAX_POINTS) cap = RL_RECORD_MAX_POINTS;
        rl_rec_point *p = realloc(r->points, cap * sizeof *p);
        if (!p) return NULL;
        r->points = p;
        r->point_cap = cap;
    }
    rl_rec_point *p = &r->points[r->point_count++];
    memset(p, 0, sizeof *p);
    p->traffic_model = RL_TRAFFIC_TILED;
    p->max_abs_error = -1.0;
    p->rel_l2_error = -1.0;
    p->time_stddev_s = -1.0;
    return p;
}

rl_rec_ceiling *rl_rec_add_ceiling(rl_rec_hardware *hw, const char *name, rl_rec_ceiling_kind kind,
                                   double value, int measured) {
    if (!hw || !name || hw->ceiling_count >= RL_RECORD_MAX_CEILINGS) return NULL;
    rl_rec_ceiling *c = realloc(hw->ceilings, (hw->ceiling_count + 1) * sizeof *c);
    if (!c) return NULL;
    hw->ceilings = c;
    rl_rec_ceiling *it = &c[hw->ceiling_count];
    memset(it, 0, sizeof *it);
    it->name = rl__strndup(name, strlen(name));
    if (!it->name) return NULL;
    it->kind = kind;
    it->value = value;
    it->measured = measured;
    hw->ceiling_count++;
    return it;
}

rl_rec_hardware *rl_rec_point_hardware(rl_rec_point *p) {
    if (!p) return NULL;
    if (!p->hardware) p->hardware = calloc(1, sizeof *p->hardware);
    return p->hardware;
}

rl_rec_skip *rl_record_add_skipped(rl_record *r, const char *kernel, const char *reason) {
    if (!r || !kernel || !reason || r->skipped_count >= RL_RECORD_MAX_POINTS) return NULL;
    if (r->skipped_count == r->skipped_cap) {
        size_t cap = r->skipped_cap ? r->skipped_cap * 2 : 8;
        if (cap > RL_RECORD_MAX_POINTS) cap = RL_RECORD_MAX_POINTS;
        rl_rec_skip *s = realloc(r->skipped, cap * sizeof *s);
        if (!s) return NULL;
        r->skipped = s;
        r->skipped_cap = cap;
    }
    rl_rec_skip *s = &r->skipped[r->skipped_count];
    memset(s, 0, sizeof *s);
    s->traffic_model = RL_TRAFFIC_TILED;
    s->kernel = rl__strndup(kernel, strlen(kernel));
    s->reason = rl__strndup(reason, strlen(reason));
    if (!s->kernel || !s->reason) {
        free(s->kernel);
        free(s->reason);
        return NULL;
    }
    r->skipped_count++;
    return s;
}

void rl__problem_error(rl_rec_issues *issues, const char *problem_path, const rl_error *err) {
    char p[RL_REC_PATH_MAX + RL_ERROR_FIELD_MAX];
    const char *key = rl__problem_key(err->field);
    snprintf(p, sizeof p, "%s%s%s", problem_path, key[0] ? "." : "", key);
    /* core's message starts with the field's name: the path says it already */
    const char *msg = err->message;
    size_t flen = strlen(err->field);
    if (flen && strncmp(msg, err->field, flen) == 0 && msg[flen] == ':') msg += flen + 1;
    while (*msg == ' ') msg++;
    rl__issue(issues, RL_REC_ERROR, err->status ? err->status : RL_ERR_INVALID, p, "%s", msg);
}

/* A member of rl_problem is an int64_t (sizes) or int-sized (causal, and the dtype and pass
 * enums). */
static void put_member(void *member, size_t size, int64_t value) {
    if (size == sizeof(int64_t)) {
        memcpy(member, &value, sizeof value);
    } else {
        int small = (int)value;
        memcpy(member, &small, sizeof small);
    }
}

void rl__problem_store(rl_problem *p, rl_problem_field field, int64_t value) {
    if (field == RL_FIELD_KV_LENS) { /* a list: only "off" has an integer form */
        if (value == 0) memset(&p->kv_lens, 0, sizeof p->kv_lens);
        return;
    }
    switch (field) {
#define RL_X_STORE(ID, member, key, flag, type, def, max, lo, hi, meta, help)                      \
    case RL_FIELD_##ID: put_member(&p->member, sizeof p->member, value); break;
        RL_PROBLEM_FIELDS(RL_X_STORE)
#undef RL_X_STORE
    default: break;
    }
}
