/* record_write.c — rl_record → JSON text (cJSON), and the check report the CLI and page use. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

static int add_str(cJSON *obj, const char *key, const char *value) {
    if (!value) return 0;
    return cJSON_AddStringToObject(obj, key, value) ? 0 : -1;
}

static int add_num(cJSON *obj, const char *key, double value) {
    return cJSON_AddNumberToObject(obj, key, value) ? 0 : -1;
}

static cJSON *hardware_json(const rl_rec_hardware *hw) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
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
    if (hw->ceiling_count) {
        cJSON *arr = cJSON_AddArrayToObject(o, "ceilings");
        if (!arr) bad = 1;
        for (size_t i = 0; arr && i < hw->ceiling_count; i++) {
            const rl_rec_ceiling *c = &hw->ceilings[i];
            cJSON *co = cJSON_CreateObject();
            if (!co) {
                bad = 1;
                break;
            }
            cJSON_AddItemToArray(arr, co);
            bad |= add_str(co, "name", c->name);
            if (c->kind == RL_CEIL_BANDWIDTH) {
                bad |= add_num(co, "bytes_per_s", c->value);
                bad |= add_str(co, "level", c->dram ? "dram" : "other");
            } else {
                bad |= add_num(co, "flops_per_s", c->value);
                if (c->dtype != RL_DTYPE_DEFAULT) bad |= add_str(co, "dtype", rl_dtype_name(c->dtype));
            }
            bad |= add_str(co, "source", c->measured ? "measured" : "datasheet");
        }
    }
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *point_json(const rl_rec_point *pt) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    int bad = 0;
    const rl_problem *pb = &pt->problem;
    cJSON *p = cJSON_AddObjectToObject(o, "problem");
    if (!p) bad = 1;
    if (p) {
        bad |= add_num(p, "batch", (double)pb->batch);
        bad |= add_num(p, "heads", (double)pb->heads);
        bad |= add_num(p, "kv_heads", (double)pb->kv_heads);
        bad |= add_num(p, "seq", (double)pb->seq);
        bad |= add_num(p, "kv_len", (double)pb->kv_len);
        bad |= add_num(p, "head_dim", (double)pb->head_dim);
        bad |= add_str(p, "dtype", rl_dtype_name(pb->dtype));
        bad |= add_str(p, "kv_dtype", rl_dtype_name(pb->kv_dtype));
        bad |= add_str(p, "score_dtype", rl_dtype_name(pb->score_dtype));
        bad |= cJSON_AddBoolToObject(p, "causal", pb->causal ? 1 : 0) ? 0 : 1;
        bad |= add_str(p, "pass", rl_pass_name(pb->pass));
        bad |= add_num(p, "block_m", (double)pb->block_m);
        bad |= add_num(p, "block_n", (double)pb->block_n);
    }
    bad |= add_str(o, "traffic_model", rl_rec_traffic_name(pt->traffic_model));
    cJSON *t = cJSON_AddObjectToObject(o, "timing");
    if (!t) bad = 1;
    if (t) {
        bad |= add_num(t, "median_s", pt->time_median_s);
        if (pt->time_min_s > 0) bad |= add_num(t, "min_s", pt->time_min_s);
        if (pt->time_max_s > 0) bad |= add_num(t, "max_s", pt->time_max_s);
        if (pt->runs > 0) bad |= add_num(t, "runs", (double)pt->runs);
    }
    bad |= add_num(o, "flops", pt->flops);
    if (pt->modelled_bytes > 0) bad |= add_num(o, "modelled_bytes", pt->modelled_bytes);
    if (pt->measured_bytes > 0) bad |= add_num(o, "measured_bytes", pt->measured_bytes);
    if (pt->max_abs_error >= 0) bad |= add_num(o, "max_abs_error", pt->max_abs_error);
    if (pt->rel_l2_error >= 0) bad |= add_num(o, "rel_l2_error", pt->rel_l2_error);
    bad |= add_str(o, "kernel", pt->kernel);
    bad |= add_str(o, "label", pt->label);
    if (pt->hardware) {
        cJSON *h = hardware_json(pt->hardware);
        if (!h) bad = 1;
        else cJSON_AddItemToObject(o, "hardware", h);
    }
    if (pt->reported_flops_per_s > 0 || pt->reported_bytes_per_s > 0) {
        cJSON *r = cJSON_AddObjectToObject(o, "reported");
        if (!r) bad = 1;
        if (r && pt->reported_flops_per_s > 0)
            bad |= add_num(r, "flops_per_s", pt->reported_flops_per_s);
        if (r && pt->reported_bytes_per_s > 0)
            bad |= add_num(r, "bytes_per_s", pt->reported_bytes_per_s);
    }
    const rl_rec_derived *dv = &pt->derived;
    if (dv->bytes > 0) {
        cJSON *d = cJSON_AddObjectToObject(o, "derived");
        if (!d) bad = 1;
        if (d) {
            static const char *const sources[] = {"measured", "modelled", "model"};
            bad |= add_num(d, "model_flops", dv->model_flops);
            cJSON *mb = cJSON_AddObjectToObject(d, "model_bytes");
            if (!mb) bad = 1;
            for (int m = 0; mb && m < RL_MODEL_COUNT; m++)
                if (dv->model_bytes[m] > 0)
                    bad |= add_num(mb, rl_model_name((rl_model)m), dv->model_bytes[m]);
            bad |= add_num(d, "bytes", dv->bytes);
            bad |= add_str(d, "bytes_source", sources[dv->bytes_source % 3]);
            bad |= add_num(d, "intensity_flop_per_byte", dv->intensity_flop_per_byte);
            bad |= add_num(d, "achieved_flops_per_s", dv->achieved_flops_per_s);
            bad |= add_num(d, "achieved_bytes_per_s", dv->achieved_bytes_per_s);
            if (dv->roof_known) {
                bad |= add_num(d, "roof_bandwidth_bytes_per_s", dv->roof_bandwidth_bytes_per_s);
                bad |= add_num(d, "roof_peak_flops_per_s", dv->roof_peak_flops_per_s);
                bad |= add_num(d, "attainable_flops_per_s", dv->attainable_flops_per_s);
                bad |= add_num(d, "efficiency", dv->efficiency);
            }
        }
    }
    if (bad) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *record_json(const rl_record *r) {
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    int bad = 0;
    bad |= add_str(root, "schema", RL_RECORD_SCHEMA_ID);
    bad |= add_num(root, "schema_version", RL_RECORD_SCHEMA_VERSION);
    cJSON *pv = cJSON_AddObjectToObject(root, "provenance");
    if (!pv) bad = 1;
    if (pv) {
        bad |= add_str(pv, "kind", rl_rec_provenance_name(r->provenance.kind));
        bad |= add_str(pv, "date", r->provenance.date);
        bad |= add_str(pv, "source", r->provenance.source);
        bad |= add_str(pv, "tool", r->provenance.tool);
        bad |= add_str(pv, "notes", r->provenance.notes);
        if (r->provenance.artifact_count) {
            cJSON *a = cJSON_AddArrayToObject(pv, "artifacts");
            if (!a) bad = 1;
            for (size_t i = 0; a && i < r->provenance.artifact_count; i++) {
                cJSON *s = cJSON_CreateString(r->provenance.artifacts[i]);
                if (!s) bad = 1;
                else cJSON_AddItemToArray(a, s);
            }
        }
    }
    const rl_rec_hardware *rh = &r->hardware;
    if (rh->name || rh->ceiling_count || rh->preset || rh->compute_capability || rh->cpu_model ||
        rh->driver_version || rh->runtime_version || rh->sm_count > 0 || rh->sm_clock_hz > 0 ||
        rh->memory_clock_hz > 0 || rh->threads > 0) {
        cJSON *h = hardware_json(&r->hardware);
        if (!h) bad = 1;
        else cJSON_AddItemToObject(root, "hardware", h);
    }
    cJSON *sw = cJSON_AddObjectToObject(root, "software");
    if (!sw) bad = 1;
    if (sw) {
        bad |= add_str(sw, "kernel", r->software.kernel);
        bad |= add_str(sw, "kernel_version", r->software.kernel_version);
        bad |= add_str(sw, "git_revision", r->software.git_revision);
        bad |= add_str(sw, "compiler", r->software.compiler);
        bad |= add_str(sw, "flags", r->software.flags);
        if (r->software.argv) {
            cJSON *a = cJSON_AddArrayToObject(sw, "argv");
            if (!a) bad = 1;
            for (size_t i = 0; a && i < r->software.argv_count; i++) {
                cJSON *s = cJSON_CreateString(r->software.argv[i] ? r->software.argv[i] : "");
                if (!s) bad = 1;
                else cJSON_AddItemToArray(a, s);
            }
        }
    }
    cJSON *pts = cJSON_AddArrayToObject(root, "points");
    if (!pts) bad = 1;
    for (size_t i = 0; pts && !bad && i < r->point_count; i++) {
        cJSON *p = point_json(&r->points[i]);
        if (!p) bad = 1;
        else cJSON_AddItemToArray(pts, p);
    }
    if (bad) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

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
    char *text = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) fill_err(err, RL_ERR_CAPACITY, "", "out of memory");
    return text;
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
    char *text = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
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
