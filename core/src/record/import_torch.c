/* import_torch.c — a PyTorch profiler trace (Kineto's Chrome trace JSON, as
 * torch.profiler.profile(...).export_chrome_trace() or tensorboard_trace_handler write it) →
 * rl_record: one point per GPU kernel name (and device), its launches' durations as the timing.
 *
 * The format (Kineto libkineto/src/output_json.cpp, ChromeTraceLogger): a JSON object with
 * "deviceProperties": [{"id", "name", "computeMajor", "computeMinor", "numSms", ...}] and
 * "traceEvents": [...]; a GPU kernel is an event {"ph": "X", "cat": "kernel", "name", "pid":
 * device, "tid": stream, "ts", "dur" (microseconds, three decimals: nanoseconds), "args":
 * {"device", "stream", "registers per thread", "shared memory", "grid": [x, y, z], "block":
 * [x, y, z], ...}} (older Kineto wrote "cat": "Kernel"). The Chrome trace array form (a bare
 * array of events, as PyTorch builds without Kineto write it) is read too. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define TT_TOOL "a PyTorch profiler trace"
#define TT_MAX_DEVICES 256   /* deviceProperties entries read */
#define TT_MAX_CATS 6        /* categories named in the "no GPU kernel" message */

typedef struct tt_import {
    rl__device dev[TT_MAX_DEVICES];
    int64_t dev_id[TT_MAX_DEVICES];
    size_t ndev;
    rl__launch *l;          /* matched kernel launches */
    size_t n, cap;
    const char **other;     /* kernels not matched: names and seconds, for the refusal */
    double *other_s;
    size_t nother, other_cap, other_s_cap;
    size_t events, kernels; /* all events; GPU kernel events */
    const char *cats[TT_MAX_CATS];
    size_t ncats;
} tt_import;

static int is_kernel_cat(const char *c) {
    return tolower((unsigned char)c[0]) == 'k' && strcmp(c + 1, "ernel") == 0;
}

/* An integer-valued JSON number in [lo, hi] at `v`; 1 with *out, 0 when absent (v NULL), -1 with
 * an issue at `path`. */
static int json_int(const cJSON *v, const char *path, int64_t lo, int64_t hi, int64_t *out,
                    rl_rec_issues *is) {
    if (!v) return 0;
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(d >= (double)lo && d <= (double)hi) || d != floor(d))
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path,
                         "expected an integer from %lld to %lld", (long long)lo, (long long)hi);
    *out = (int64_t)d;
    return 1;
}

/* deviceProperties: each GPU's id, name, compute capability and SM count. 0, or -1 (issue). */
static int tt_devices(const cJSON *root, tt_import *im, rl_rec_issues *is) {
    const cJSON *dp = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "deviceProperties")
                                           : NULL;
    if (!dp) return 0;
    if (!cJSON_IsArray(dp))
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "deviceProperties",
                         "expected an array of device objects");
    int i = 0;
    for (const cJSON *d = dp->child; d; d = d->next, i++) {
        char p[RL_REC_PATH_MAX];
        if (im->ndev == TT_MAX_DEVICES)
            return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "deviceProperties",
                             "more than %d devices", TT_MAX_DEVICES);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        snprintf(p, sizeof p, "deviceProperties[%d].name", i);
        if (!cJSON_IsObject(d) || !cJSON_IsString(name) || !name->valuestring[0])
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected the device's name");
        rl__device *dev = &im->dev[im->ndev];
        int64_t id = i, sms = 0, maj = -1, min = -1;
        snprintf(p, sizeof p, "deviceProperties[%d].id", i);
        if (json_int(cJSON_GetObjectItemCaseSensitive(d, "id"), p, 0, 1 << 20, &id, is) < 0) return -1;
        snprintf(p, sizeof p, "deviceProperties[%d].numSms", i);
        if (json_int(cJSON_GetObjectItemCaseSensitive(d, "numSms"), p, 1, 1 << 20, &sms, is) < 0)
            return -1;
        snprintf(p, sizeof p, "deviceProperties[%d].computeMajor", i);
        if (json_int(cJSON_GetObjectItemCaseSensitive(d, "computeMajor"), p, 0, 99, &maj, is) < 0)
            return -1;
        snprintf(p, sizeof p, "deviceProperties[%d].computeMinor", i);
        if (json_int(cJSON_GetObjectItemCaseSensitive(d, "computeMinor"), p, 0, 99, &min, is) < 0)
            return -1;
        dev->name = name->valuestring;
        dev->sm_count = sms;
        if (maj >= 0 && min >= 0) snprintf(dev->cc, sizeof dev->cc, "%d.%d", (int)maj, (int)min);
        im->dev_id[im->ndev++] = id;
    }
    return 0;
}

static const rl__device *tt_device(const tt_import *im, int64_t id) {
    for (size_t i = 0; i < im->ndev; i++)
        if (im->dev_id[i] == id) return &im->dev[i];
    return NULL;
}

/* args.grid / args.block: [x, y, z] of positive integers. 1, 0 absent, -1 (issue). */
static int tt_dim3(const cJSON *args, const char *key, const char *path, int64_t out[3],
                   rl_rec_issues *is) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, key);
    if (!a) return 0;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "%.40s.args.%s", path, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected [x, y, z]");
    int k = 0;
    for (const cJSON *v = a->child; v; v = v->next, k++) {
        snprintf(p, sizeof p, "%.40s.args.%s[%d]", path, key, k);
        if (json_int(v, p, 0, INT64_C(1) << 32, &out[k], is) < 0) return -1;
    }
    return 1;
}

/* A kernel event's args: device, grid, block, registers, shared memory. 0, or -1 (issue). */
static int tt_args(const cJSON *e, const char *path, const tt_import *im, rl__launch *l,
                   rl_rec_issues *is) {
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
    const cJSON *pid = cJSON_GetObjectItemCaseSensitive(e, "pid");
    char p[RL_REC_PATH_MAX];
    l->regs = l->smem = -1;
    /* a GPU event's "pid" is its device (output_json.cpp); args.device, where given, says so too */
    if (cJSON_IsNumber(pid) && pid->valuedouble >= 0 && pid->valuedouble < (1 << 20))
        l->device = tt_device(im, (int64_t)pid->valuedouble);
    if (!args) return 0;
    snprintf(p, sizeof p, "%.40s.args", path);
    if (!cJSON_IsObject(args)) return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected an object");
    int64_t device = -1;
    snprintf(p, sizeof p, "%.40s.args.device", path);
    if (json_int(cJSON_GetObjectItemCaseSensitive(args, "device"), p, 0, 1 << 20, &device, is) < 0)
        return -1;
    if (device >= 0) l->device = tt_device(im, device);
    snprintf(p, sizeof p, "%.40s.args.registers per thread", path);
    if (json_int(cJSON_GetObjectItemCaseSensitive(args, "registers per thread"), p, 0, 1 << 16,
                 &l->regs, is) < 0)
        return -1;
    snprintf(p, sizeof p, "%.40s.args.shared memory", path);
    if (json_int(cJSON_GetObjectItemCaseSensitive(args, "shared memory"), p, 0, INT64_C(1) << 40,
                 &l->smem, is) < 0)
        return -1;
    int g = tt_dim3(args, "grid", path, l->grid, is), b = tt_dim3(args, "block", path, l->block, is);
    if (g < 0 || b < 0) return -1;
    l->facts = g == 1 && b == 1;
    return 0;
}

static int push(void **arr, size_t *cap, size_t n, size_t size) {
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *a = realloc(*arr, c * size);
    if (!a) return -1;
    *arr = a;
    *cap = c;
    return 0;
}

/* A category seen, kept for the "no GPU kernel" message (the first TT_MAX_CATS). */
static void tt_note_cat(tt_import *im, const cJSON *cat) {
    const char *c = cJSON_IsString(cat) ? cat->valuestring : "events without \"cat\"";
    for (size_t i = 0; i < im->ncats; i++)
        if (strcmp(im->cats[i], c) == 0) return;
    if (im->ncats < TT_MAX_CATS) im->cats[im->ncats++] = c;
}

/* One event; 0, or -1 to stop (an issue added). */
static int tt_event(const cJSON *e, int i, const rl_import_opts *o, tt_import *im,
                    rl_rec_issues *is) {
    char path[40], p[RL_REC_PATH_MAX];
    snprintf(path, sizeof path, "traceEvents[%d]", i);
    im->events++;
    if (!cJSON_IsObject(e)) return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path, "expected an event object");
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat");
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
    if (!cJSON_IsString(cat) || !is_kernel_cat(cat->valuestring) || !cJSON_IsString(ph) ||
        strcmp(ph->valuestring, "X") != 0) {
        tt_note_cat(im, cat);
        return 0;
    }
    im->kernels++;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
    snprintf(p, sizeof p, "%s.name", path);
    if (!cJSON_IsString(name) || !name->valuestring[0])
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected the kernel's name");
    snprintf(p, sizeof p, "%s.dur", path);
    if (!cJSON_IsNumber(dur) || !(dur->valuedouble > 0) || !isfinite(dur->valuedouble * 1e-6))
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "expected the kernel's duration, a positive number of microseconds");
    double seconds = dur->valuedouble * 1e-6; /* Kineto writes µs */
    if (!rl__kernel_matches(name->valuestring, o->match)) {
        if (push((void **)&im->other, &im->other_cap, im->nother, sizeof *im->other) ||
            push((void **)&im->other_s, &im->other_s_cap, im->nother, sizeof *im->other_s))
            return rl__oom(is);
        im->other[im->nother] = name->valuestring;
        im->other_s[im->nother++] = seconds;
        return 0;
    }
    if (push((void **)&im->l, &im->cap, im->n, sizeof *im->l)) return rl__oom(is);
    rl__launch *l = &im->l[im->n];
    memset(l, 0, sizeof *l);
    l->name = name->valuestring;
    l->seconds = seconds;
    if (tt_args(e, path, im, l, is) != 0) return -1;
    im->n++;
    return 0;
}

/* The text is not one JSON value: where it stops being one. */
static void tt_not_json(const char *text, size_t len, rl_rec_issues *is) {
    size_t at = 0, line = 1, col = 1;
    int depth = 0;
    rl__json_scan((const unsigned char *)text, len, &at, &depth);
    for (size_t i = 0; i < at && i < len; i++, col++)
        if (text[i] == '\n') {
            line++;
            col = 0;
        }
    rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
              "not valid JSON at line %zu, column %zu%s; expected a PyTorch profiler trace "
              "(export_chrome_trace)", line, col,
              at >= len ? " (the file ends early: cut short?)" : "");
}

/* No GPU kernel events: say what the trace holds instead. */
static void tt_no_kernels(const tt_import *im, rl_rec_issues *is) {
    char cats[200] = "";
    for (size_t i = 0; i < im->ncats; i++) {
        char shown[40];
        rl_text_escape(shown, sizeof shown, im->cats[i]);
        size_t u = strlen(cats);
        snprintf(cats + u, sizeof cats - u, "%s%s", i ? ", " : "", shown);
    }
    rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "traceEvents",
              "no GPU kernel events (\"cat\": \"kernel\", \"ph\": \"X\") among its %zu events "
              "(categories: %s): a CPU-only trace; profile on a GPU with "
              "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]",
              im->events, cats[0] ? cats : "none");
}

static void tt_free(tt_import *im) {
    free(im->l);
    free(im->other);
    free(im->other_s);
}

/* The notes: what was read, in words. */
static int tt_notes(rl_record *r, const rl_import_opts *o, const tt_import *im) {
    char filter[160], note[900];
    snprintf(note, sizeof note,
             "PyTorch profiler (Kineto) trace: %zu GPU kernel events of %zu events; imported the "
             "%zu launches of kernels with %s. One point per kernel name (and device): timing over "
             "its launches' \"dur\" (microseconds; median, min, max, mean, sample standard "
             "deviation); grid, block, registers and shared memory (args) as the point's label; "
             "device from deviceProperties. FLOPs: the model's F for the problem (the trace counts "
             "none); bytes: the %s traffic model. The problem is the one given to rooflab import, "
             "completed by what an attention kernel's name carries (FlashAttention-2's traits).",
             im->kernels, im->events, im->n, rl__kernel_filter_text(o->match, filter, sizeof filter),
             rl_rec_traffic_name(o->traffic_model));
    return rl_rec_set_clean_string(&r->provenance.notes, note);
}

rl_status rl__import_torch(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                           rl_rec_issues *is) {
    rl__skip_bom(&text, &len);
    size_t at = 0;
    int depth = 0;
    if (rl__json_scan((const unsigned char *)text, len, &at, &depth) != 0) {
        tt_not_json(text, len, is);
        return RL_ERR_INVALID;
    }
    if (depth > RL_RECORD_MAX_DEPTH) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "", "nesting depth %d; the limit is %d", depth,
                  RL_RECORD_MAX_DEPTH);
        return RL_ERR_RANGE;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root) return rl__oom(is), RL_ERR_CAPACITY;
    const cJSON *events = cJSON_IsArray(root) ? root : cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    if (!cJSON_IsArray(events)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "traceEvents",
                  "not a PyTorch profiler trace: expected an object with a \"traceEvents\" array "
                  "(export_chrome_trace), or an array of trace events");
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    tt_import im = {0};
    int bad = 0;
    /* the common fields first: the device's name replaces the default below */
    if (rl__import_common(r, o, "PyTorch profiler trace (Kineto; imported by rooflab import "
                                "torch-trace)", "unknown (not in the trace)", NULL, NULL))
        bad = rl__oom(is);
    if (!bad) bad = tt_devices(root, &im, is);
    int i = 0;
    for (const cJSON *e = events->child; !bad && e; e = e->next, i++) bad = tt_event(e, i, o, &im, is);
    if (!bad && im.kernels == 0) {
        tt_no_kernels(&im, is);
        bad = -1;
    }
    if (!bad && im.n == 0)
        bad = rl__kernel_none_matched(im.other, im.other_s, im.nother, o->match, "traceEvents", is);
    if (!bad) bad = rl__kernel_points(r, o, im.l, im.n, TT_TOOL, is);
    if (!bad && tt_notes(r, o, &im)) bad = rl__oom(is);
    tt_free(&im);
    cJSON_Delete(root);
    return bad ? RL_ERR_INVALID : RL_OK;
}
