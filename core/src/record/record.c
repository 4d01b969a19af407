/* record.c — the rooflab record in memory: issues, building, freeing, validation (semantics).
 * Reading JSON is in record_read.c, writing in record_write.c, importers in record_import.c. */
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
}

int rl__issue(rl_rec_issues *issues, rl_rec_severity severity, rl_status status, const char *path,
              const char *fmt, ...) {
    int ret = severity == RL_REC_ERROR ? -1 : 0;
    if (!issues) return ret;
    if (severity == RL_REC_ERROR)
        issues->errors++;
    else
        issues->warnings++;
    if (issues->count >= RL_RECORD_MAX_ISSUES) return ret;
    if (issues->count == issues->cap) {
        size_t cap = issues->cap ? issues->cap * 2 : 8;
        if (cap > RL_RECORD_MAX_ISSUES) cap = RL_RECORD_MAX_ISSUES;
        rl_rec_issue *items = realloc(issues->items, cap * sizeof *items);
        if (!items) return ret; /* counted, not kept */
        issues->items = items;
        issues->cap = cap;
    }
    rl_rec_issue *it = &issues->items[issues->count++];
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
    return ret;
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

/* Valid UTF-8 of at most RL_RECORD_MAX_STRING code points. Returns the problem or NULL. */
const char *rl__string_problem(const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    size_t cps = 0;
    for (size_t i = 0; u[i];) {
        unsigned char c = u[i];
        size_t n;
        unsigned cp;
        if (c < 0x80) {
            n = 1;
            cp = c;
        } else if ((c & 0xE0) == 0xC0) {
            n = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 4;
            cp = c & 0x07;
        } else
            return "not valid UTF-8";
        for (size_t k = 1; k < n; k++) {
            if ((u[i + k] & 0xC0) != 0x80) return "not valid UTF-8";
            cp = (cp << 6) | (u[i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return "not valid UTF-8";
        i += n;
        cps++;
    }
    if (cps > RL_RECORD_MAX_STRING) return "too long";
    return NULL;
}


/* ---------------------------------------------------------------------------------------------
 * Names
 * ------------------------------------------------------------------------------------------- */

const char *rl_rec_provenance_name(rl_rec_provenance_kind kind) {
    switch (kind) {
    case RL_PROV_MEASURED: return "measured";
    case RL_PROV_HISTORICAL_UNAUDITED: return "historical-unaudited";
    case RL_PROV_MODEL: return "model";
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
    for (size_t i = 0; i < hw->ceiling_count; i++) free(hw->ceilings[i].name);
    free(hw->ceilings);
    memset(hw, 0, sizeof *hw);
}

void rl_record_free(rl_record *r) {
    if (!r) return;
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
        if (p->hardware) {
            free_hardware(p->hardware);
            free(p->hardware);
        }
    }
    free(r->points);
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

int rl__set_clean(char **slot, const char *text) {
    if (!text) return rl_rec_set_string(slot, NULL);
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (!out) return -1;
    const unsigned char *u = (const unsigned char *)text;
    size_t o = 0, cps = 0;
    for (size_t i = 0; u[i] && cps < RL_RECORD_MAX_STRING;) {
        unsigned char c = u[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        int ok = len > 0;
        for (size_t k = 1; ok && k < len; k++) ok = u[i + k] != 0 && (u[i + k] & 0xC0) == 0x80;
        if (ok && len > 1) {
            char tmp[5] = {0};
            memcpy(tmp, u + i, len);
            ok = rl__string_problem(tmp) == NULL;
        }
        if (ok) {
            memcpy(out + o, u + i, len);
            o += len;
            i += len;
        } else {
            out[o++] = '?';
            i++;
        }
        cps++;
    }
    out[o] = '\0';
    free(*slot);
    *slot = out;
    return 0;
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

/* ---------------------------------------------------------------------------------------------
 * Validation (semantics). The reader has already checked JSON types; this checks values, so
 * that records built in memory by the benchmark get the same checks before they are written.
 * ------------------------------------------------------------------------------------------- */

static const char *problem_field_to_json(const char *field, char *buf, size_t cap) {
    /* core names fields by CLI flag ("kv-heads"); the record by JSON key ("kv_heads"). */
    size_t i = 0;
    for (; field[i] && i + 1 < cap; i++) buf[i] = field[i] == '-' ? '_' : field[i];
    buf[i] = '\0';
    return buf;
}

static int bad_number(double v) { return !isfinite(v); }

/* Human-readable quantity for messages ("2.147 GFLOP"). */
static const char *fmtq(double v, rl_dim dim, char *buf, size_t cap) {
    rl_format_quantity(v, dim, RL_PREFIX_SI, 4, buf, cap);
    return buf;
}

static int near_ratio(double a, double b, double rel) {
    if (!(b > 0)) return 0;
    return fabs(a / b - 1.0) <= rel;
}

/* Common slips that make a point read N times too high, nearest first. */
static const char *explain_factor(double factor, double *nearest) {
    static const struct {
        double f;
        const char *why;
    } slips[] = {
        {2.0, "×2: a multiply-add counted as 2 FLOPs against a rate quoted in MAC/s, a sparse "
              "(2:4) peak where the dense one applies, or causal work counted as full (N·L "
              "instead of about N·L/2)"},
        {4.0, "×4: two ×2 slips together (e.g. MAC vs FLOP and causal counted as full)"},
        {8.0, "×8: bits counted as bytes"},
        {1000.0, "×1000: a unit slip (ms read as s, GB as MB, GFLOP as TFLOP)"},
        {1e6, "×10⁶: a unit slip of two prefixes (us read as s, GB as kB)"},
    };
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
        double d = fabs(log(factor / slips[i].f));
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    *nearest = slips[best].f;
    /* within a factor 1.5 of the slip: it can explain it */
    if (best_d <= log(1.5)) return slips[best].why;
    return NULL;
}

static const rl_hw *hardware_preset(const rl_rec_hardware *hw) {
    if (!hw) return NULL;
    if (hw->preset) return rl_hw_find(hw->preset);
    return NULL;
}

static void check_hardware(const rl_rec_hardware *hw, const char *path, rl_rec_issues *issues,
                           int name_required) {
    char p[RL_REC_PATH_MAX];
    if (name_required && (!hw->name || !hw->name[0])) {
        snprintf(p, sizeof p, "%s.name", path);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, p,
                  "missing; expected the hardware's name (a non-empty string)");
    }
    if (hw->preset && !rl_hw_find(hw->preset)) {
        snprintf(p, sizeof p, "%s.preset", path);
        char ids[512] = "";
        size_t n = rl_hw_count();
        for (size_t i = 0; i < n; i++) {
            const rl_hw *h = rl_hw_at(i);
            if (!h) break;
            size_t len = strlen(ids);
            snprintf(ids + len, sizeof ids - len, "%s%s", i ? ", " : "", h->id);
        }
        rl__issue(issues, RL_REC_ERROR, RL_ERR_UNKNOWN, p,
                  "unknown preset \"%.40s\"; expected one of %s", hw->preset, ids);
    }
    /* Device details: 0 means "not given"; anything else must be in range. */
    static const char *const ints[] = {"sm_count", "threads"};
    const int64_t ivals[] = {hw->sm_count, hw->threads};
    for (int i = 0; i < 2; i++)
        if (ivals[i] < 0 || ivals[i] > (int64_t)9007199254740992LL) {
            snprintf(p, sizeof p, "%s.%s", path, ints[i]);
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                      "expected a positive integer, got %lld", (long long)ivals[i]);
        }
    static const char *const clocks[] = {"sm_clock_hz", "memory_clock_hz"};
    const double cvals[] = {hw->sm_clock_hz, hw->memory_clock_hz};
    for (int i = 0; i < 2; i++)
        if (bad_number(cvals[i]) || cvals[i] < 0) {
            snprintf(p, sizeof p, "%s.%s", path, clocks[i]);
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                      "expected a positive finite number of Hz, got %g", cvals[i]);
        }
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        const rl_rec_ceiling *c = &hw->ceilings[i];
        snprintf(p, sizeof p, "%s.ceilings[%zu]", path, i);
        if (!c->name || !c->name[0])
            rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "name: missing; expected a non-empty string such as \"HBM\"");
        if (bad_number(c->value) || c->value <= 0)
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                      "expected a positive finite %s, got %g",
                      c->kind == RL_CEIL_BANDWIDTH ? "bytes_per_s" : "flops_per_s", c->value);
    }
}

/* The roof a point runs against: its preset's datasheet figures, raised by any measured or
 * stated ceiling in the record (the envelope: a point above it is above every roof given). */
static void point_roof(const rl_rec_hardware *hw, rl_dtype dtype, double *beta, double *pi) {
    *beta = 0;
    *pi = 0;
    const rl_hw *preset = hardware_preset(hw);
    if (preset) {
        *beta = preset->bandwidth_bytes_per_s;
        *pi = rl_hw_peak_for_dtype(preset, dtype);
    }
    if (!hw) return;
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        const rl_rec_ceiling *c = &hw->ceilings[i];
        if (!(c->value > 0) || !isfinite(c->value)) continue;
        if (c->kind == RL_CEIL_BANDWIDTH) {
            if (c->dram && c->value > *beta) *beta = c->value;
        } else if (c->dtype == RL_DTYPE_DEFAULT || c->dtype == dtype) {
            if (c->value > *pi) *pi = c->value;
        }
    }
}

static void check_point(rl_record *r, size_t index, rl_rec_issues *issues) {
    rl_rec_point *pt = &r->points[index];
    char base[32], p[RL_REC_PATH_MAX + 40], q1[32], q2[32], q3[32];
    snprintf(base, sizeof base, "points[%zu]", index);
    memset(&pt->derived, 0, sizeof pt->derived);
    rl_rec_derived *dv = &pt->derived;
    int point_ok = 1;

    /* Problem: core resolves and checks it (sizes, H multiple of Hkv, causal N ≤ L). */
    rl_workload work;
    rl_error err = {0};
    if (rl_workload_compute(&pt->problem, &work, &err) != RL_OK) {
        char key[RL_ERROR_FIELD_MAX];
        problem_field_to_json(err.field, key, sizeof key);
        snprintf(p, sizeof p, "%s.problem%s%s", base, key[0] ? "." : "", key);
        const char *msg = err.message;
        size_t flen = strlen(err.field);
        if (flen && strncmp(msg, err.field, flen) == 0 && msg[flen] == ':') msg += flen + 1;
        while (*msg == ' ') msg++;
        rl__issue(issues, RL_REC_ERROR, err.status ? err.status : RL_ERR_INVALID, p, "%s", msg);
        point_ok = 0;
    } else {
        pt->problem = work.problem;
        dv->model_flops = work.flops;
        for (int m = 0; m < RL_MODEL_COUNT; m++)
            dv->model_bytes[m] = work.traffic[m].available ? work.traffic[m].bytes : 0;
    }

    /* Timing. */
    snprintf(p, sizeof p, "%s.timing.median_s", base);
    if (bad_number(pt->time_median_s) || pt->time_median_s <= 0) {
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite number of seconds, got %g", pt->time_median_s);
        point_ok = 0;
    }
    if (bad_number(pt->time_min_s) || pt->time_min_s < 0) {
        snprintf(p, sizeof p, "%s.timing.min_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite number of seconds, got %g", pt->time_min_s);
    } else if (pt->time_min_s > 0 && pt->time_median_s > 0 && pt->time_min_s > pt->time_median_s) {
        snprintf(p, sizeof p, "%s.timing.min_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INCONSISTENT, p,
                  "expected min_s ≤ median_s, got %g > %g", pt->time_min_s, pt->time_median_s);
    }
    if (bad_number(pt->time_max_s) || pt->time_max_s < 0) {
        snprintf(p, sizeof p, "%s.timing.max_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite number of seconds, got %g", pt->time_max_s);
    } else if (pt->time_max_s > 0 && pt->time_max_s < pt->time_median_s) {
        snprintf(p, sizeof p, "%s.timing.max_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INCONSISTENT, p,
                  "expected max_s ≥ median_s, got %g < %g", pt->time_max_s, pt->time_median_s);
    }
    if (pt->runs < 0) {
        snprintf(p, sizeof p, "%s.timing.runs", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive integer, got %lld",
                  (long long)pt->runs);
    }

    /* Work and bytes. */
    snprintf(p, sizeof p, "%s.flops", base);
    if (bad_number(pt->flops) || pt->flops <= 0) {
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite FLOP count, got %g", pt->flops);
        point_ok = 0;
    }
    if (bad_number(pt->modelled_bytes) || pt->modelled_bytes < 0) {
        snprintf(p, sizeof p, "%s.modelled_bytes", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite byte count, got %g", pt->modelled_bytes);
        point_ok = 0;
    }
    if (bad_number(pt->measured_bytes) || pt->measured_bytes < 0) {
        snprintf(p, sizeof p, "%s.measured_bytes", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite byte count, got %g", pt->measured_bytes);
        point_ok = 0;
    }
    if (isnan(pt->max_abs_error) || isinf(pt->max_abs_error)) {
        snprintf(p, sizeof p, "%s.max_abs_error", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a finite non-negative number, got %g", pt->max_abs_error);
    }
    if (isnan(pt->rel_l2_error) || isinf(pt->rel_l2_error)) {
        snprintf(p, sizeof p, "%s.rel_l2_error", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a finite non-negative number, got %g", pt->rel_l2_error);
    }
    if (bad_number(pt->reported_flops_per_s) || pt->reported_flops_per_s < 0) {
        snprintf(p, sizeof p, "%s.reported.flops_per_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite FLOP/s, got %g", pt->reported_flops_per_s);
    }
    if (bad_number(pt->reported_bytes_per_s) || pt->reported_bytes_per_s < 0) {
        snprintf(p, sizeof p, "%s.reported.bytes_per_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a positive finite bytes/s, got %g", pt->reported_bytes_per_s);
    }
    if ((int)pt->traffic_model < 0 || (int)pt->traffic_model > (int)RL_TRAFFIC_OTHER) {
        snprintf(p, sizeof p, "%s.traffic_model", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_UNKNOWN, p,
                  "expected one of \"compulsory\", \"tiled\", \"naive\", \"other\"");
        point_ok = 0;
    }

    /* Hardware: the point's own, or the record's. */
    const rl_rec_hardware *hw = pt->hardware ? pt->hardware : &r->hardware;
    if (pt->hardware) {
        snprintf(p, sizeof p, "%s.hardware", base);
        check_hardware(pt->hardware, p, issues, 1);
    }
    if (!point_ok) return;

    /* Bytes the point is placed with. */
    if (pt->measured_bytes > 0) {
        dv->bytes = pt->measured_bytes;
        dv->bytes_source = 0;
    } else if (pt->modelled_bytes > 0) {
        dv->bytes = pt->modelled_bytes;
        dv->bytes_source = 1;
    } else if (pt->traffic_model != RL_TRAFFIC_OTHER && dv->model_bytes[pt->traffic_model] > 0) {
        dv->bytes = dv->model_bytes[pt->traffic_model];
        dv->bytes_source = 2;
    } else {
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, base,
                  "no byte count: expected measured_bytes or modelled_bytes, or a traffic_model "
                  "core models for this problem (\"%s\" is not modelled for it)",
                  rl_rec_traffic_name(pt->traffic_model));
        return;
    }
    dv->intensity_flop_per_byte = pt->flops / dv->bytes;
    dv->achieved_flops_per_s = pt->flops / pt->time_median_s;
    dv->achieved_bytes_per_s = dv->bytes / pt->time_median_s;

    /* The point's FLOPs against core's F for its problem (the same problem has one F). */
    snprintf(p, sizeof p, "%s.flops", base);
    if (!near_ratio(pt->flops, dv->model_flops, 1e-3)) {
        double ratio = pt->flops / dv->model_flops;
        int explained = 0;
        if (pt->problem.causal) {
            rl_problem full = pt->problem;
            full.causal = 0;
            rl_workload wf;
            if (rl_workload_compute(&full, &wf, NULL) == RL_OK) {
                if (near_ratio(pt->flops, wf.flops, 1e-2)) {
                    rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                              "%s is the non-causal count (%s, N·L pairs) for a causal problem "
                              "whose F is %s: causal counted as full (×%.3g)",
                              fmtq(pt->flops, RL_DIM_FLOP, q1, sizeof q1),
                              fmtq(wf.flops, RL_DIM_FLOP, q2, sizeof q2),
                              fmtq(dv->model_flops, RL_DIM_FLOP, q3, sizeof q3), ratio);
                    explained = 1;
                }
                /* flash-attention's benchmarks count causal as N·L/2 pairs: accepted. */
                else if (pt->problem.seq == pt->problem.kv_len &&
                         near_ratio(pt->flops, wf.flops / 2.0, 1e-3)) {
                    explained = 2;
                }
            }
        }
        if (!explained) {
            double nearest = 0;
            const char *why = NULL;
            if (near_ratio(ratio, 0.5, 1e-2))
                why = "×0.5: a multiply-add counted as 1 FLOP (MAC vs FLOP)";
            else if (near_ratio(ratio, 2.0, 1e-2))
                why = "×2: each multiply-add counted twice, or causal work counted as full";
            else if (ratio > 1) why = explain_factor(ratio, &nearest);
            rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                      "%s differs from the model's F = %s for this problem by ×%.4g%s%s",
                      fmtq(pt->flops, RL_DIM_FLOP, q1, sizeof q1),
                      fmtq(dv->model_flops, RL_DIM_FLOP, q2, sizeof q2), ratio,
                      why ? "; likely " : "", why ? why : "");
        }
    }

    /* Reported rates against what the record's own numbers give. */
    if (pt->reported_flops_per_s > 0 &&
        !near_ratio(pt->reported_flops_per_s, dv->achieved_flops_per_s, 0.05)) {
        snprintf(p, sizeof p, "%s.reported.flops_per_s", base);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s disagrees with flops / timing.median_s = %s (×%.3g)",
                  fmtq(pt->reported_flops_per_s, RL_DIM_FLOPS_PER_S, q1, sizeof q1),
                  fmtq(dv->achieved_flops_per_s, RL_DIM_FLOPS_PER_S, q2, sizeof q2),
                  pt->reported_flops_per_s / dv->achieved_flops_per_s);
    }
    if (pt->reported_bytes_per_s > 0 &&
        !near_ratio(pt->reported_bytes_per_s, dv->achieved_bytes_per_s, 0.05)) {
        snprintf(p, sizeof p, "%s.reported.bytes_per_s", base);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s disagrees with %s / timing.median_s = %s (×%.3g)",
                  fmtq(pt->reported_bytes_per_s, RL_DIM_BYTES_PER_S, q1, sizeof q1),
                  dv->bytes_source == 0   ? "measured_bytes"
                  : dv->bytes_source == 1 ? "modelled_bytes"
                                          : "the model's bytes",
                  fmtq(dv->achieved_bytes_per_s, RL_DIM_BYTES_PER_S, q2, sizeof q2),
                  pt->reported_bytes_per_s / dv->achieved_bytes_per_s);
    }

    /* The roof check: above its own hardware's roof is almost always a unit or counting slip. */
    double beta, pi;
    point_roof(hw, pt->problem.dtype, &beta, &pi);
    dv->roof_bandwidth_bytes_per_s = beta;
    dv->roof_peak_flops_per_s = pi;
    if (beta > 0 && pi > 0) {
        rl_roof roof = {beta, pi};
        dv->roof_known = 1;
        dv->attainable_flops_per_s = rl_attainable_flops_per_s(roof, dv->intensity_flop_per_byte);
        dv->efficiency = rl_efficiency(roof, pt->flops, dv->bytes, pt->time_median_s);
        if (dv->efficiency > 1.0) {
            double nearest = 0;
            const char *why = explain_factor(dv->efficiency, &nearest);
            snprintf(p, sizeof p, "%s", base);
            rl__issue(issues, RL_REC_WARNING, RL_ERR_RANGE, p,
                      "above its own roof: %s at %.3g FLOP/B is ×%.3g the attainable %s of "
                      "%s; %s%s",
                      fmtq(dv->achieved_flops_per_s, RL_DIM_FLOPS_PER_S, q1, sizeof q1),
                      dv->intensity_flop_per_byte, dv->efficiency,
                      fmtq(dv->attainable_flops_per_s, RL_DIM_FLOPS_PER_S, q2, sizeof q2),
                      hw && hw->name ? hw->name : "its hardware",
                      why ? "likely " : "no common slip explains it: check the flops, bytes and "
                                        "timing units, or whether the data was served from a "
                                        "cache faster than the roof's memory",
                      why ? why : "");
        }
    }
}


/* Strings: valid UTF-8 of at most RL_RECORD_MAX_STRING characters (what the reader accepts). */
static void check_str(rl_rec_issues *is, const char *path, const char *s) {
    if (!s) return;
    const char *problem = rl__string_problem(s);
    if (!problem) return;
    if (strcmp(problem, "too long") == 0)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, path,
                  "expected a string of at most %d characters, got a longer one", RL_RECORD_MAX_STRING);
    else
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path,
                  "expected a string of valid UTF-8, got invalid bytes");
}

int rl__date_ok(const char *d) {
    if (!d || strlen(d) < 10) return 0;
    for (int i = 0; i < 10; i++)
        if ((i == 4 || i == 7) ? d[i] != '-' : !(d[i] >= '0' && d[i] <= '9')) return 0;
    return 1;
}

static void check_hw_strings(rl_rec_issues *is, const char *path, const rl_rec_hardware *hw) {
    char p[RL_REC_PATH_MAX + 40];
    static const char *const names[] = {"name", "preset", "compute_capability", "cpu_model",
                                        "driver_version", "runtime_version"};
    const char *vals[] = {hw->name, hw->preset, hw->compute_capability, hw->cpu_model,
                          hw->driver_version, hw->runtime_version};
    for (int i = 0; i < 6; i++) {
        snprintf(p, sizeof p, "%s.%s", path, names[i]);
        check_str(is, p, vals[i]);
    }
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        snprintf(p, sizeof p, "%s.ceilings[%zu].name", path, i);
        check_str(is, p, hw->ceilings[i].name);
    }
}

static void check_strings(const rl_record *r, rl_rec_issues *is) {
    check_str(is, "provenance.date", r->provenance.date);
    if (r->provenance.date && !rl__string_problem(r->provenance.date) && !rl__date_ok(r->provenance.date))
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "provenance.date",
                  "expected an ISO 8601 date (YYYY-MM-DD...), got \"%.40s\"", r->provenance.date);
    check_str(is, "provenance.source", r->provenance.source);
    check_str(is, "provenance.tool", r->provenance.tool);
    check_str(is, "provenance.notes", r->provenance.notes);
    char p[RL_REC_PATH_MAX + 40];
    for (size_t i = 0; i < r->provenance.artifact_count; i++) {
        snprintf(p, sizeof p, "provenance.artifacts[%zu]", i);
        check_str(is, p, r->provenance.artifacts[i]);
    }
    check_hw_strings(is, "hardware", &r->hardware);
    check_str(is, "software.kernel", r->software.kernel);
    check_str(is, "software.kernel_version", r->software.kernel_version);
    check_str(is, "software.git_revision", r->software.git_revision);
    check_str(is, "software.compiler", r->software.compiler);
    check_str(is, "software.flags", r->software.flags);
    if (r->software.argv_count > RL_RECORD_MAX_ARGV)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "software.argv",
                  "expected at most %d arguments, got %zu", RL_RECORD_MAX_ARGV,
                  r->software.argv_count);
    else
        for (size_t i = 0; i < r->software.argv_count; i++) {
            snprintf(p, sizeof p, "software.argv[%zu]", i);
            if (!r->software.argv[i])
                rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected a string, got nothing");
            else
                check_str(is, p, r->software.argv[i]);
        }
    for (size_t i = 0; i < r->point_count && i < RL_RECORD_MAX_POINTS; i++) {
        const rl_rec_point *pt = &r->points[i];
        snprintf(p, sizeof p, "points[%zu].kernel", i);
        check_str(is, p, pt->kernel);
        snprintf(p, sizeof p, "points[%zu].label", i);
        check_str(is, p, pt->label);
        if (pt->hardware) {
            snprintf(p, sizeof p, "points[%zu].hardware", i);
            check_hw_strings(is, p, pt->hardware);
        }
        if (pt->runs > (int64_t)9007199254740992LL) {
            snprintf(p, sizeof p, "points[%zu].timing.runs", i);
            rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive integer up to 2^53");
        }
    }
}

rl_status rl_record_validate(rl_record *r, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    if (!r) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no record");
        rl_rec_issues_free(&local);
        return RL_ERR_INVALID;
    }
    if (r->schema_version != RL_RECORD_SCHEMA_VERSION)
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNSUPPORTED, "schema_version",
                  "unknown schema version %d; this reader knows %d", r->schema_version,
                  RL_RECORD_SCHEMA_VERSION);
    if ((int)r->provenance.kind < 0 || r->provenance.kind >= RL_PROV_COUNT)
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "provenance.kind",
                  "expected one of \"measured\", \"historical-unaudited\", \"model\"");
    check_strings(r, is);
    if (!r->software.kernel_version || !r->software.kernel_version[0])
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "software.kernel_version",
                  "missing; expected the kernel's version (a non-empty string, e.g. a tag or git "
                  "revision)");
    /* Hardware: the record's block may lack a name only when every point has its own. */
    int all_points_have_hw = r->point_count > 0;
    for (size_t i = 0; i < r->point_count; i++)
        if (!r->points[i].hardware) all_points_have_hw = 0;
    check_hardware(&r->hardware, "hardware", is, !all_points_have_hw);
    if (r->point_count > RL_RECORD_MAX_POINTS)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "points", "expected at most %d points, got %zu",
                  RL_RECORD_MAX_POINTS, r->point_count);
    else
        for (size_t i = 0; i < r->point_count; i++) check_point(r, i, is);
    rl_status st = rl__first_error(is, before);
    rl_rec_issues_free(&local);
    return st;
}
