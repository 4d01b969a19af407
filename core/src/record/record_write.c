/* record_write.c — rl_record → JSON text (cJSON), and the check report the CLI and page use.
 * Keys are written in a fixed order (the problem's in the field table's order). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

static char *escape_invisible(char *text);

static int add_str(cJSON *obj, const char *key, const char *value) {
    if (!value) return 0;
    return cJSON_AddStringToObject(obj, key, value) ? 0 : -1;
}

static int add_num(cJSON *obj, const char *key, double value) {
    return cJSON_AddNumberToObject(obj, key, value) ? 0 : -1;
}

/* A cJSON object made by `fill` (nonzero = out of memory), or NULL. */
static cJSON *object_of(int (*fill)(cJSON *o, const void *what), const void *what) {
    cJSON *o = cJSON_CreateObject();
    if (o && fill(o, what) != 0) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Add object_of(fill, what) to `parent` under `key`; 0 or -1. */
static int add_object(cJSON *parent, const char *key, int (*fill)(cJSON *, const void *),
                      const void *what) {
    cJSON *o = object_of(fill, what);
    if (!o) return -1;
    cJSON_AddItemToObject(parent, key, o);
    return 0;
}

static int add_strings(cJSON *obj, const char *key, char *const *items, size_t n) {
    cJSON *a = cJSON_AddArrayToObject(obj, key);
    if (!a) return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(items[i] ? items[i] : "");
        if (!s) return -1;
        cJSON_AddItemToArray(a, s);
    }
    return 0;
}

static int fill_ceiling(cJSON *co, const void *what) {
    const rl_rec_ceiling *c = what;
    int bad = add_str(co, "name", c->name);
    if (c->kind == RL_CEIL_BANDWIDTH) {
        bad |= add_num(co, "bytes_per_s", c->value);
        bad |= add_str(co, "level", c->dram ? "dram" : "other");
    } else {
        bad |= add_num(co, "flops_per_s", c->value);
        if (c->dtype != RL_DTYPE_DEFAULT) bad |= add_str(co, "dtype", rl_dtype_name(c->dtype));
    }
    bad |= add_str(co, "source", c->measured ? "measured" : "datasheet");
    bad |= add_str(co, "method", c->method);
    return bad;
}

static int fill_hardware(cJSON *o, const void *what) {
    const rl_rec_hardware *hw = what;
    int bad = 0;
    bad |= add_str(o, "name", hw->name);
    bad |= add_str(o, "preset", hw->preset);
    bad |= add_str(o, "compute_capability", hw->compute_capability);
    bad |= add_str(o, "cpu_model", hw->cpu_model);
    bad |= add_str(o, "driver_version", hw->driver_version);
    bad |= add_str(o, "runtime_version", hw->runtime_version);
    if (hw->sm_count > 0) bad |= add_num(o, "sm_count", (double)hw->sm_count);
    if (hw->sm_clock_hz > 0) bad |= add_num(o, "sm_clock_hz", hw->sm_clock_hz);
    if (hw->memory_clock_hz > 0) bad |= add_num(o, "memory_clock_hz", hw->memory_clock_hz);
    if (hw->threads > 0) bad |= add_num(o, "threads", (double)hw->threads);
    if (!hw->ceiling_count) return bad;
    cJSON *arr = cJSON_AddArrayToObject(o, "ceilings");
    for (size_t i = 0; arr && !bad && i < hw->ceiling_count; i++) {
        cJSON *co = object_of(fill_ceiling, &hw->ceilings[i]);
        if (!co) return -1;
        cJSON_AddItemToArray(arr, co);
    }
    return arr ? bad : -1;
}

/* The problem object: one key per field of the table, in its order. */
static int fill_problem(cJSON *p, const void *what) {
    const rl_problem *pb = what;
    int bad = 0;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        int64_t v = rl_problem_get(pb, (rl_problem_field)f);
        /* A variant that is off (0, or head_dim_v equal to head_dim) is left out: records of
         * plain attention read as before. */
        const int tie = rl_problem_field_tie((rl_problem_field)f);
        if (rl_problem_field_variant((rl_problem_field)f) &&
            (v == 0 || (tie >= 0 && v == rl_problem_get(pb, (rl_problem_field)tie))))
            continue;
        switch (fi->type) {
        case RL_FTYPE_INT: bad |= add_num(p, fi->key, (double)v); break;
        case RL_FTYPE_DTYPE: bad |= add_str(p, fi->key, rl_dtype_name((rl_dtype)v)); break;
        case RL_FTYPE_BOOL: bad |= cJSON_AddBoolToObject(p, fi->key, v ? 1 : 0) ? 0 : 1; break;
        case RL_FTYPE_PASS: bad |= add_str(p, fi->key, rl_pass_name((rl_pass)v)); break;
        case RL_FTYPE_LENS: { /* [[length, count], ...] */
            cJSON *arr = cJSON_AddArrayToObject(p, fi->key);
            for (int i = 0; arr && i < pb->kv_lens.n; i++) {
                const double pair[2] = {(double)pb->kv_lens.pair[i].len,
                                        (double)pb->kv_lens.pair[i].count};
                cJSON *item = cJSON_CreateDoubleArray(pair, 2);
                if (!item) bad = 1;
                else cJSON_AddItemToArray(arr, item);
            }
            if (!arr) bad = 1;
            break;
        }
        }
    }
    return bad;
}

static int fill_timing(cJSON *t, const void *what) {
    const rl_rec_point *pt = what;
    int bad = add_num(t, "median_s", pt->time_median_s);
    if (pt->time_min_s > 0) bad |= add_num(t, "min_s", pt->time_min_s);
    if (pt->time_max_s > 0) bad |= add_num(t, "max_s", pt->time_max_s);
    if (pt->time_mean_s > 0) bad |= add_num(t, "mean_s", pt->time_mean_s);
    if (pt->time_stddev_s >= 0) bad |= add_num(t, "stddev_s", pt->time_stddev_s);
    if (pt->runs > 0) bad |= add_num(t, "runs", (double)pt->runs);
    return bad;
}

static int fill_reported(cJSON *r, const void *what) {
    const rl_rec_point *pt = what;
    int bad = 0;
    if (pt->reported_flops_per_s > 0) bad |= add_num(r, "flops_per_s", pt->reported_flops_per_s);
    if (pt->reported_bytes_per_s > 0) bad |= add_num(r, "bytes_per_s", pt->reported_bytes_per_s);
    return bad;
}

static int fill_model_bytes(cJSON *mb, const void *what) {
    const rl_rec_derived *dv = what;
    int bad = 0;
    for (int m = 0; m < RL_MODEL_COUNT; m++)
        if (dv->model_bytes[m] > 0) bad |= add_num(mb, rl_model_name((rl_model)m), dv->model_bytes[m]);
    return bad;
}

static int fill_derived(cJSON *d, const void *what) {
    const rl_rec_derived *dv = what;
    static const char *const sources[] = {"measured", "modelled", "model"};
    int bad = add_num(d, "model_flops", dv->model_flops);
    bad |= add_object(d, "model_bytes", fill_model_bytes, dv);
    bad |= add_num(d, "bytes", dv->bytes);
    bad |= add_str(d, "bytes_source", sources[dv->bytes_source % 3]);
    bad |= add_num(d, "intensity_flop_per_byte", dv->intensity_flop_per_byte);
    if (dv->l2_intensity_flop_per_byte > 0)
        bad |= add_num(d, "l2_intensity_flop_per_byte", dv->l2_intensity_flop_per_byte);
    bad |= add_num(d, "achieved_flops_per_s", dv->achieved_flops_per_s);
    bad |= add_num(d, "achieved_bytes_per_s", dv->achieved_bytes_per_s);
    if (dv->time_cv >= 0) bad |= add_num(d, "time_cv", dv->time_cv);
    if (dv->roof_known) {
        bad |= add_num(d, "roof_bandwidth_bytes_per_s", dv->roof_bandwidth_bytes_per_s);
        bad |= add_num(d, "roof_peak_flops_per_s", dv->roof_peak_flops_per_s);
        bad |= add_num(d, "attainable_flops_per_s", dv->attainable_flops_per_s);
        bad |= add_num(d, "efficiency", dv->efficiency);
    }
    if (dv->predicted) {
        bad |= add_num(d, "predicted_time_s", dv->predicted_time_s);
        bad |= add_num(d, "predicted_flops_per_s", dv->predicted_flops_per_s);
        bad |= add_num(d, "prediction_error", dv->prediction_error);
    }
    return bad;
}

static int fill_point(cJSON *o, const void *what) {
    const rl_rec_point *pt = what;
    int bad = add_object(o, "problem", fill_problem, &pt->problem);
    bad |= add_str(o, "traffic_model", rl_rec_traffic_name(pt->traffic_model));
    bad |= add_object(o, "timing", fill_timing, pt);
    bad |= add_num(o, "flops", pt->flops);
    if (pt->modelled_bytes > 0) bad |= add_num(o, "modelled_bytes", pt->modelled_bytes);
    if (pt->measured_bytes > 0) bad |= add_num(o, "measured_bytes", pt->measured_bytes);
    if (pt->measured_l2_bytes > 0) bad |= add_num(o, "measured_l2_bytes", pt->measured_l2_bytes);
    if (pt->max_abs_error >= 0) bad |= add_num(o, "max_abs_error", pt->max_abs_error);
    if (pt->rel_l2_error >= 0) bad |= add_num(o, "rel_l2_error", pt->rel_l2_error);
    bad |= add_str(o, "kernel", pt->kernel);
    bad |= add_str(o, "label", pt->label);
    if (pt->has_profile) bad |= add_str(o, "profile", rl_kernel_name(pt->profile));
    bad |= add_str(o, "figure", pt->figure);
    bad |= add_str(o, "reading_error", pt->reading_error);
    if (pt->set != RL_REC_SET_NONE) bad |= add_str(o, "set", rl_rec_set_name(pt->set));
    if (pt->production_decode) bad |= cJSON_AddTrueToObject(o, "production_decode") ? 0 : 1;
    if (pt->hardware) bad |= add_object(o, "hardware", fill_hardware, pt->hardware);
    if (pt->reported_flops_per_s > 0 || pt->reported_bytes_per_s > 0)
        bad |= add_object(o, "reported", fill_reported, pt);
    if (pt->derived.bytes > 0) bad |= add_object(o, "derived", fill_derived, &pt->derived);
    return bad;
}

static int fill_skip(cJSON *o, const void *what) {
    const rl_rec_skip *s = what;
    int bad = add_str(o, "kernel", s->kernel);
    bad |= add_object(o, "problem", fill_problem, &s->problem);
    bad |= add_str(o, "traffic_model", rl_rec_traffic_name(s->traffic_model));
    bad |= add_str(o, "reason", s->reason);
    return bad;
}

static int fill_provenance(cJSON *pv, const void *what) {
    const rl_rec_provenance *p = what;
    int bad = add_str(pv, "kind", rl_rec_provenance_name(p->kind));
    bad |= add_str(pv, "date", p->date);
    bad |= add_str(pv, "source", p->source);
    bad |= add_str(pv, "tool", p->tool);
    bad |= add_str(pv, "notes", p->notes);
    if (p->artifact_count) bad |= add_strings(pv, "artifacts", p->artifacts, p->artifact_count);
    return bad;
}

static int fill_software(cJSON *sw, const void *what) {
    const rl_rec_software *s = what;
    int bad = add_str(sw, "kernel", s->kernel);
    bad |= add_str(sw, "kernel_version", s->kernel_version);
    bad |= add_str(sw, "git_revision", s->git_revision);
    bad |= add_str(sw, "compiler", s->compiler);
    bad |= add_str(sw, "flags", s->flags);
    if (s->argv) bad |= add_strings(sw, "argv", s->argv, s->argv_count);
    return bad;
}

static int hardware_given(const rl_rec_hardware *rh) {
    return rh->name || rh->ceiling_count || rh->preset || rh->compute_capability ||
           rh->cpu_model || rh->driver_version || rh->runtime_version || rh->sm_count > 0 ||
           rh->sm_clock_hz > 0 || rh->memory_clock_hz > 0 || rh->threads > 0;
}

/* An array of `n` objects made by `fill` from items of `size` bytes. */
static int add_array(cJSON *parent, const char *key, int (*fill)(cJSON *, const void *),
                     const void *items, size_t size, size_t n) {
    cJSON *arr = cJSON_AddArrayToObject(parent, key);
    if (!arr) return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *o = object_of(fill, (const char *)items + i * size);
        if (!o) return -1;
        cJSON_AddItemToArray(arr, o);
    }
    return 0;
}

static int fill_record(cJSON *root, const void *what) {
    const rl_record *r = what;
    int bad = add_str(root, "schema", RL_RECORD_SCHEMA_ID);
    bad |= add_num(root, "schema_version", RL_RECORD_SCHEMA_VERSION);
    bad |= add_object(root, "provenance", fill_provenance, &r->provenance);
    if (hardware_given(&r->hardware)) bad |= add_object(root, "hardware", fill_hardware, &r->hardware);
    bad |= add_object(root, "software", fill_software, &r->software);
    if (bad) return bad;
    bad |= add_array(root, "points", fill_point, r->points, sizeof *r->points, r->point_count);
    if (r->skipped_count)
        bad |= add_array(root, "skipped", fill_skip, r->skipped, sizeof *r->skipped,
                         r->skipped_count);
    return bad;
}

static cJSON *record_json(const rl_record *r) { return object_of(fill_record, r); }

static void fill_err(rl_error *err, rl_status st, const char *field, const char *msg) {
    if (!err) return;
    err->status = st;
    snprintf(err->field, sizeof err->field, "%.*s", (int)sizeof err->field - 1, field);
    snprintf(err->message, sizeof err->message, "%.*s", (int)sizeof err->message - 1, msg);
}

char *rl_record_write_json(rl_record *r, int pretty, rl_error *err) {
    rl_rec_issues is = {0};
    if (rl_record_validate(r, &is) != RL_OK) {
        for (size_t i = 0; i < is.count; i++)
            if (is.items[i].severity == RL_REC_ERROR) {
                fill_err(err, is.items[i].status, is.items[i].path, is.items[i].message);
                break;
            }
        if (err && err->status == RL_OK) fill_err(err, RL_ERR_INVALID, "", "invalid record");
        rl_rec_issues_free(&is);
        return NULL;
    }
    rl_rec_issues_free(&is);
    cJSON *root = record_json(r);
    if (!root) {
        fill_err(err, RL_ERR_CAPACITY, "", "out of memory");
        return NULL;
    }
    char *text = escape_invisible(pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root));
    cJSON_Delete(root);
    if (!text) fill_err(err, RL_ERR_CAPACITY, "", "out of memory");
    return text;
}

/* cJSON writes every non-ASCII character raw. The characters rl_char_invisible_name names (direction
 * overrides and isolates, zero-width characters, line separators …) are rewritten as \uXXXX escapes,
 * as the CLI's JSON writer does (cli_json_string), so a record or report printed to a terminal cannot
 * reorder or hide what it shows; the JSON value is the same. Raw UTF-8 occurs only inside strings in
 * cJSON's output, so the whole text can be rewritten. Frees `text`; NULL when out of memory. */
static char *escape_invisible(char *text) {
    if (!text) return NULL;
    const size_t len = strlen(text);
    size_t extra = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = rl_utf8_next(text + i, len - i, &cp);
        if (n == 0) n = 1;
        else if (cp >= 0x80 && rl_char_invisible_name(cp)) extra += 12; /* ≤ 12 ASCII bytes */
        i += n;
    }
    if (extra == 0) return text;
    char *out = malloc(len + extra + 1);
    if (!out) {
        free(text);
        return NULL;
    }
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = rl_utf8_next(text + i, len - i, &cp);
        if (n != 0 && cp >= 0x80 && rl_char_invisible_name(cp)) {
            if (cp > 0xFFFF) /* a UTF-16 surrogate pair, as JSON spells characters past U+FFFF */
                o += (size_t)snprintf(out + o, 13, "\\u%04x\\u%04x", 0xD800u + ((cp - 0x10000u) >> 10),
                                      0xDC00u + ((cp - 0x10000u) & 0x3FFu));
            else
                o += (size_t)snprintf(out + o, 7, "\\u%04x", (unsigned)cp);
        } else {
            if (n == 0) n = 1;
            memcpy(out + o, text + i, n);
            o += n;
        }
        i += n == 0 ? 1 : n;
    }
    out[o] = '\0';
    free(text);
    return out;
}

static cJSON *issues_json(const rl_rec_issues *is) {
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < is->count; i++) {
        const rl_rec_issue *it = &is->items[i];
        cJSON *o = cJSON_CreateObject();
        if (!o) break;
        cJSON_AddItemToArray(arr, o);
        add_str(o, "severity", it->severity == RL_REC_ERROR ? "error" : "warning");
        add_str(o, "path", it->path);
        add_str(o, "message", it->message);
    }
    return arr;
}

char *rl_record_report_json(const rl_record *r, const rl_rec_issues *is, int pretty) {
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    size_t errors = is ? is->errors : 0, warnings = is ? is->warnings : 0;
    cJSON_AddBoolToObject(root, "ok", errors == 0 && r != NULL);
    add_num(root, "errors", (double)errors);
    add_num(root, "warnings", (double)warnings);
    size_t kept = is ? is->count : 0;
    add_num(root, "issues_omitted", (double)(errors + warnings - kept));
    rl_rec_issues empty = {0};
    cJSON *iss = issues_json(is ? is : &empty);
    if (iss) cJSON_AddItemToObject(root, "issues", iss);
    if (r) {
        cJSON *rec = record_json(r);
        if (rec) cJSON_AddItemToObject(root, "record", rec);
        else cJSON_AddNullToObject(root, "record");
    } else {
        cJSON_AddNullToObject(root, "record");
    }
    char *text = escape_invisible(pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root));
    cJSON_Delete(root);
    return text;
}

char *rl_record_check_json(const char *text, size_t len, int pretty) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    rl_record_parse(text, len, &r, &is);
    char *out = rl_record_report_json(r, &is, pretty);
    rl_record_free(r);
    rl_rec_issues_free(&is);
    return out;
}
