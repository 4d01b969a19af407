/* record_read.c — JSON text → rl_record, with every type error named by its JSON path.
 * The text passes json_scan.c's strict check first; semantic checks (ranges, problem
 * consistency, the roof) are rl_record_validate's, in record_check.c. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* How much of a string a message quotes ("got \"...\"", unknown keys), in bytes. */
#define QUOTE_BYTES 40

typedef struct reader {
    rl_rec_issues *is;
    char path[RL_REC_PATH_MAX];
    int oom;
} reader;

static size_t push_key(reader *rd, const char *key) {
    size_t len = strlen(rd->path);
    snprintf(rd->path + len, sizeof rd->path - len, "%s%s", len ? "." : "", key);
    return len;
}

static size_t push_index(reader *rd, size_t i) {
    size_t len = strlen(rd->path);
    snprintf(rd->path + len, sizeof rd->path - len, "[%zu]", i);
    return len;
}

static void pop(reader *rd, size_t len) { rd->path[len] = '\0'; }

/* A string for "got ...": quoted, escaped, clipped after QUOTE_BYTES at a character boundary. */
static void describe_string(const unsigned char *s, char *buf, size_t cap) {
    if (cap < 8) {
        snprintf(buf, cap, "\"\"");
        return;
    }
    size_t o = 0, shown = rl__utf8_clip((const char *)s, QUOTE_BYTES), i = 0;
    buf[o++] = '"';
    for (; i < shown && o + 8 < cap; i++) {
        if (s[i] < 0x20 || s[i] == 0x7f)
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", s[i]);
        else if (s[i] == '"' || s[i] == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)s[i];
        } else
            buf[o++] = (char)s[i];
    }
    if (i == shown && s[i] && o + 8 < cap) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o++] = '"';
    buf[o] = '\0';
}

/* A short description of a JSON value for "got ..." (strings quoted, clipped, escaped). */
static const char *describe(const cJSON *v, char *buf, size_t cap) {
    const char *word = !v                  ? "nothing"
                       : cJSON_IsTrue(v)   ? "true"
                       : cJSON_IsFalse(v)  ? "false"
                       : cJSON_IsNull(v)   ? "null"
                       : cJSON_IsArray(v)  ? "an array"
                       : cJSON_IsObject(v) ? "an object"
                                           : "an invalid value";
    if (v && cJSON_IsNumber(v))
        snprintf(buf, cap, "%.15g", v->valuedouble);
    else if (v && cJSON_IsString(v))
        describe_string((const unsigned char *)(v->valuestring ? v->valuestring : ""), buf, cap);
    else
        snprintf(buf, cap, "%s", word);
    return buf;
}

static void type_error(reader *rd, const char *key, const char *expected, const cJSON *got) {
    char g[64];
    size_t m = key ? push_key(rd, key) : strlen(rd->path);
    rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path, "expected %s, got %s", expected,
              describe(got, g, sizeof g));
    pop(rd, m);
}

static void missing(reader *rd, const char *key, const char *expected) {
    size_t m = push_key(rd, key);
    rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path, "missing; expected %s", expected);
    pop(rd, m);
}

static void unknown_key(reader *rd, const char *shown, const char *const *allowed) {
    char list[400] = "";
    for (size_t i = 0; allowed[i]; i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", allowed[i]);
    }
    rl__issue(rd->is, RL_REC_ERROR, RL_ERR_UNKNOWN, rd->path,
              "unknown key \"%s\"; expected one of %s", shown, list);
}

/* Keys must be known and appear once: one pass, each key matched against the (short) allowed
 * list and marked seen, so an object of many keys costs time linear in its size. */
static void check_keys(reader *rd, const cJSON *obj, const char *const *allowed) {
    unsigned char seen[64] = {0}; /* the longest allowed list has 17 keys */
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        size_t known = 0;
        while (allowed[known] && strcmp(k, allowed[known]) != 0) known++;
        char shown[48];
        snprintf(shown, sizeof shown, "%.*s", (int)rl__utf8_clip(k, QUOTE_BYTES), k);
        if (!allowed[known]) {
            unknown_key(rd, shown, allowed);
            continue;
        }
        if (known >= sizeof seen) continue;
        if (seen[known])
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path,
                      "duplicate key \"%s\"; expected each key once", shown);
        seen[known] = 1;
    }
}

static int read_string(reader *rd, const cJSON *obj, const char *key, int required, char **out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required) missing(rd, key, "a non-empty string");
        return required ? -1 : 0;
    }
    if (!cJSON_IsString(v) || !v->valuestring) {
        type_error(rd, key, "a string", v);
        return -1;
    }
    size_t m = push_key(rd, key);
    int bad = rl__check_string(rd->is, rd->path, v->valuestring);
    pop(rd, m);
    if (bad) return -1;
    if (required && !v->valuestring[0]) {
        type_error(rd, key, "a non-empty string", v);
        return -1;
    }
    if (out) {
        free(*out);
        *out = rl__strndup(v->valuestring, strlen(v->valuestring));
        if (!*out) rd->oom = 1;
    }
    return 1;
}

typedef enum { NUM_POSITIVE, NUM_NONNEG } num_kind;

static int read_number(reader *rd, const cJSON *obj, const char *key, int required, num_kind kind,
                       const char *what, double *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char expected[96];
    snprintf(expected, sizeof expected, "a %s finite number%s%s",
             kind == NUM_POSITIVE ? "positive" : "non-negative", what ? " of " : "",
             what ? what : "");
    if (!v) {
        if (required) missing(rd, key, expected);
        return required ? -1 : 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        (kind == NUM_POSITIVE ? !(v->valuedouble > 0) : !(v->valuedouble >= 0))) {
        type_error(rd, key, expected, v);
        return -1;
    }
    *out = v->valuedouble;
    return 1;
}

static int read_int(reader *rd, const cJSON *obj, const char *key, int required, int64_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required) missing(rd, key, "a positive integer");
        return required ? -1 : 0;
    }
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(d >= 1 && d <= (double)RL_EXACT_INT_MAX) || floor(d) != d) {
        type_error(rd, key, "a positive integer", v);
        return -1;
    }
    *out = (int64_t)d;
    return 1;
}

static int read_bool(reader *rd, const cJSON *obj, const char *key, int *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    if (!cJSON_IsBool(v)) {
        type_error(rd, key, "true or false", v);
        return -1;
    }
    *out = cJSON_IsTrue(v) ? 1 : 0;
    return 1;
}

/* `key` must be one of `names` (NULL-terminated); returns its index or -1. */
static int read_enum(reader *rd, const cJSON *obj, const char *key, int required,
                     const char *const *names, int *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    char expected[200] = "one of ";
    for (size_t i = 0; names[i]; i++) {
        size_t len = strlen(expected);
        snprintf(expected + len, sizeof expected - len, "%s\"%s\"", i ? ", " : "", names[i]);
    }
    if (!v) {
        if (required) missing(rd, key, expected);
        return required ? -1 : 0;
    }
    if (cJSON_IsString(v) && v->valuestring)
        for (int i = 0; names[i]; i++)
            if (strcmp(v->valuestring, names[i]) == 0) {
                *out = i;
                return 1;
            }
    type_error(rd, key, expected, v);
    return -1;
}

static const cJSON *read_object(reader *rd, const cJSON *obj, const char *key, int required,
                                const char *expected) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required) missing(rd, key, expected);
        return NULL;
    }
    if (!cJSON_IsObject(v)) {
        type_error(rd, key, expected, v);
        return NULL;
    }
    return v;
}

/* One element of an array, read with the path at KEY[index]. */
typedef void (*read_item_fn)(reader *rd, const cJSON *item, size_t index, void *ctx);

typedef struct array_spec {
    const char *key;      /* "ceilings" */
    const char *expected; /* "an array of ceilings" */
    int max;              /* RL_RECORD_MAX_CEILINGS */
    const char *noun;     /* "ceilings": "expected at most 64 ceilings, got 65" */
    int say_got;          /* 0: the message stops after the noun */
    const char *object;   /* items must be objects ("an object with ..."); NULL: item checks */
} array_spec;

/* The array `arr` (present) under spec->key: its type, its length, then each item. 0, or -1 when
 * it is not an array or too long. */
static int read_array(reader *rd, const cJSON *arr, const array_spec *spec, read_item_fn item,
                      void *ctx) {
    if (!cJSON_IsArray(arr)) {
        type_error(rd, spec->key, spec->expected, arr);
        return -1;
    }
    size_t m = push_key(rd, spec->key), i = 0;
    int n = cJSON_GetArraySize(arr);
    if (n > spec->max) {
        if (spec->say_got)
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, rd->path, "expected at most %d %s, got %d",
                      spec->max, spec->noun, n);
        else
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, rd->path, "expected at most %d %s",
                      spec->max, spec->noun);
        pop(rd, m);
        return -1;
    }
    for (const cJSON *c = arr->child; c; c = c->next, i++) {
        size_t m2 = push_index(rd, i);
        if (spec->object && !cJSON_IsObject(c))
            type_error(rd, NULL, spec->object, c);
        else
            item(rd, c, i, ctx);
        pop(rd, m2);
    }
    pop(rd, m);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Enumerations, spelled as core spells them
 * ------------------------------------------------------------------------------------------- */

/* names[i] = rl_dtype_name(i + 1) for every dtype but DEFAULT, NULL-terminated. */
static void dtype_names(const char *names[RL_DTYPE_COUNT]) {
    for (int d = 1; d < RL_DTYPE_COUNT; d++) names[d - 1] = rl_dtype_name((rl_dtype)d);
    names[RL_DTYPE_COUNT - 1] = NULL;
}

/* A dtype key; 1 with *out set, 0 absent, -1 refused. */
static int read_dtype(reader *rd, const cJSON *obj, const char *key, int required, rl_dtype *out) {
    const char *names[RL_DTYPE_COUNT];
    dtype_names(names);
    int i = -1, rc = read_enum(rd, obj, key, required, names, &i);
    if (rc > 0) *out = (rl_dtype)(i + 1);
    return rc;
}

static int contains_ci(const char *s, const char *needle) {
    size_t n = strlen(needle);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && ((s[i] | 0x20) == (needle[i] | 0x20))) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Hardware
 * ------------------------------------------------------------------------------------------- */

static void ceiling_level(rl_rec_ceiling *it, int level) {
    if (level >= 0)
        it->dram = level == 0;
    else
        it->dram = contains_ci(it->name, "hbm") || contains_ci(it->name, "dram") ||
                   contains_ci(it->name, "gddr") || contains_ci(it->name, "device memory");
}

static void read_ceiling(reader *rd, const cJSON *c, size_t index, void *ctx) {
    rl_rec_hardware *hw = ctx;
    (void)index;
    static const char *const keys[] = {"name",  "bytes_per_s", "flops_per_s", "source",
                                       "dtype", "level",       "method",      NULL};
    static const char *const sources[] = {"measured", "datasheet", NULL};
    static const char *const levels[] = {"dram", "l2", "l1", "smem", "other", NULL};
    check_keys(rd, c, keys);
    char *name = NULL, *method = NULL;
    read_string(rd, c, "name", 1, &name);
    double bw = 0, fl = 0;
    int hb = read_number(rd, c, "bytes_per_s", 0, NUM_POSITIVE, "bytes per second", &bw);
    int hf = read_number(rd, c, "flops_per_s", 0, NUM_POSITIVE, "FLOP per second", &fl);
    int has_b = cJSON_GetObjectItemCaseSensitive(c, "bytes_per_s") != NULL;
    int has_f = cJSON_GetObjectItemCaseSensitive(c, "flops_per_s") != NULL;
    if (has_b == has_f)
        rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path,
                  "expected exactly one of bytes_per_s (a bandwidth) or flops_per_s (a compute "
                  "rate), got %s",
                  has_b ? "both" : "neither");
    int src = 0, level = -1;
    rl_dtype dt = RL_DTYPE_DEFAULT;
    read_enum(rd, c, "source", 0, sources, &src);
    read_dtype(rd, c, "dtype", 0, &dt);
    read_enum(rd, c, "level", 0, levels, &level);
    read_string(rd, c, "method", 0, &method);
    if (name && has_b != has_f && hb >= 0 && hf >= 0 && (hb > 0 || hf > 0)) {
        rl_rec_ceiling *it = rl_rec_add_ceiling(hw, name, hb > 0 ? RL_CEIL_BANDWIDTH
                                                                  : RL_CEIL_COMPUTE,
                                                hb > 0 ? bw : fl, src == 0);
        if (!it) {
            rd->oom = 1;
        } else {
            it->dtype = dt;
            ceiling_level(it, level);
            it->method = method;
            method = NULL;
        }
    }
    free(name);
    free(method);
}

static void read_hardware(reader *rd, const cJSON *obj, rl_rec_hardware *hw, int name_required) {
    static const char *const keys[] = {"name",           "preset",          "compute_capability",
                                       "cpu_model",      "driver_version",  "runtime_version",
                                       "sm_count",       "sm_clock_hz",     "memory_clock_hz",
                                       "threads",        "ceilings",        NULL};
    check_keys(rd, obj, keys);
    read_string(rd, obj, "name", name_required, &hw->name);
    read_string(rd, obj, "preset", 0, &hw->preset);
    read_string(rd, obj, "compute_capability", 0, &hw->compute_capability);
    read_string(rd, obj, "cpu_model", 0, &hw->cpu_model);
    read_string(rd, obj, "driver_version", 0, &hw->driver_version);
    read_string(rd, obj, "runtime_version", 0, &hw->runtime_version);
    read_int(rd, obj, "sm_count", 0, &hw->sm_count);
    read_number(rd, obj, "sm_clock_hz", 0, NUM_POSITIVE, "Hz", &hw->sm_clock_hz);
    read_number(rd, obj, "memory_clock_hz", 0, NUM_POSITIVE, "Hz", &hw->memory_clock_hz);
    read_int(rd, obj, "threads", 0, &hw->threads);
    const cJSON *ceil = cJSON_GetObjectItemCaseSensitive(obj, "ceilings");
    static const array_spec spec = {"ceilings", "an array of ceilings", RL_RECORD_MAX_CEILINGS,
                                    "ceilings", 1,
                                    "an object with name and bytes_per_s or flops_per_s"};
    if (ceil) read_array(rd, ceil, &spec, read_ceiling, hw);
}

/* ---------------------------------------------------------------------------------------------
 * The problem object: its keys are the field table's (RL_PROBLEM_FIELDS)
 * ------------------------------------------------------------------------------------------- */

/* The record's mandatory minimum names the precision and the sequence. */
static int problem_key_required(rl_problem_field f) {
    return f == RL_FIELD_SEQ || f == RL_FIELD_DTYPE;
}

/* A ragged batch: an array of 1 … RL_KV_LENS_MAX [length, count] pairs of positive integers
 * (range by the checker). 1 read, 0 absent, -1 refused. */
#define LENS_ITEM "a [length, count] pair of positive integers"
static int read_lens(reader *rd, const cJSON *obj, const char *key, rl_kv_lens *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return 0;
    const int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (n < 1 || n > RL_KV_LENS_MAX) {
        char expected[128];
        snprintf(expected, sizeof expected, "an array of 1 to %d [length, count] pairs",
                 RL_KV_LENS_MAX);
        if (n < 0) {
            type_error(rd, key, expected, v);
        } else {
            size_t m = push_key(rd, key);
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, rd->path, "expected %s, got %d", expected, n);
            pop(rd, m);
        }
        return -1;
    }
    rl_kv_lens l;
    memset(&l, 0, sizeof l);
    size_t m = push_key(rd, key), i = 0;
    int bad = 0;
    for (const cJSON *c = v->child; c; c = c->next, i++) {
        size_t m2 = push_index(rd, i);
        const cJSON *a = cJSON_IsArray(c) && cJSON_GetArraySize(c) == 2 ? c->child : NULL;
        const cJSON *b = a ? a->next : NULL;
        const double x = a && cJSON_IsNumber(a) ? a->valuedouble : NAN;
        const double y = b && cJSON_IsNumber(b) ? b->valuedouble : NAN;
        if (!(x >= 1 && x <= (double)RL_EXACT_INT_MAX) || floor(x) != x ||
            !(y >= 1 && y <= (double)RL_EXACT_INT_MAX) || floor(y) != y) {
            type_error(rd, NULL, LENS_ITEM, c);
            bad = 1;
        } else {
            l.pair[l.n].len = (int64_t)x;
            l.pair[l.n].count = (int64_t)y;
            l.n++;
        }
        pop(rd, m2);
    }
    pop(rd, m);
    if (bad) return -1;
    *out = l;
    return 1;
}

/* One field as JSON (type checked here, range by the checker); 1 read, 0 absent, -1 refused. */
static int read_problem_value(reader *rd, const cJSON *obj, rl_problem_field f, int64_t *v) {
    const rl_field_info *fi = rl_problem_field_info(f);
    int required = problem_key_required(f), rc = 0;
    switch (fi->type) {
    case RL_FTYPE_INT: return read_int(rd, obj, fi->key, required, v);
    case RL_FTYPE_DTYPE: {
        rl_dtype d = RL_DTYPE_DEFAULT;
        rc = read_dtype(rd, obj, fi->key, required, &d);
        *v = d;
        return rc;
    }
    case RL_FTYPE_BOOL: {
        int b = 0;
        rc = read_bool(rd, obj, fi->key, &b);
        *v = b;
        return rc;
    }
    case RL_FTYPE_PASS: {
        const char *passes[] = {rl_pass_name(RL_PASS_FWD), rl_pass_name(RL_PASS_BWD), NULL};
        int p = 0;
        rc = read_enum(rd, obj, fi->key, required, passes, &p);
        *v = p ? RL_PASS_BWD : RL_PASS_FWD;
        return rc;
    }
    case RL_FTYPE_LENS: return 0; /* read_lens, by read_problem */
    }
    return 0;
}

static void read_problem(reader *rd, const cJSON *obj, rl_problem *pb) {
    const char *keys[RL_PROBLEM_FIELD_COUNT + 1];
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++)
        keys[f] = rl_problem_field_info((rl_problem_field)f)->key;
    keys[RL_PROBLEM_FIELD_COUNT] = NULL;
    check_keys(rd, obj, keys);
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        int64_t v = 0;
        if (rl_problem_field_info((rl_problem_field)f)->type == RL_FTYPE_LENS)
            read_lens(rd, obj, rl_problem_field_info((rl_problem_field)f)->key, &pb->kv_lens);
        else if (read_problem_value(rd, obj, (rl_problem_field)f, &v) > 0)
            rl__problem_store(pb, (rl_problem_field)f, v);
    }
}

/* "problem": required in a point, optional in a skipped run. */
static void read_problem_key(reader *rd, const cJSON *obj, int required, rl_problem *pb) {
    const cJSON *v = read_object(rd, obj, "problem", required,
                                 "an object with at least seq and dtype (the problem measured)");
    if (!v) return;
    size_t m = push_key(rd, "problem");
    read_problem(rd, v, pb);
    pop(rd, m);
}

static void read_traffic(reader *rd, const cJSON *obj, rl_rec_traffic *out) {
    static const char *const traffic[] = {"compulsory", "tiled", "naive", "other", NULL};
    int t = 1;
    if (read_enum(rd, obj, "traffic_model", 0, traffic, &t) > 0) *out = (rl_rec_traffic)t;
}

/* ---------------------------------------------------------------------------------------------
 * Points and skipped runs
 * ------------------------------------------------------------------------------------------- */

static void read_timing(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    static const char *const keys[] = {"median_s", "min_s", "max_s", "mean_s", "stddev_s", "runs",
                                       NULL};
    const cJSON *tm = read_object(rd, obj, "timing", 1, "an object with median_s (seconds)");
    if (!tm) return;
    size_t m = push_key(rd, "timing");
    check_keys(rd, tm, keys);
    read_number(rd, tm, "median_s", 1, NUM_POSITIVE, "seconds", &pt->time_median_s);
    read_number(rd, tm, "min_s", 0, NUM_POSITIVE, "seconds", &pt->time_min_s);
    read_number(rd, tm, "max_s", 0, NUM_POSITIVE, "seconds", &pt->time_max_s);
    read_number(rd, tm, "mean_s", 0, NUM_POSITIVE, "seconds", &pt->time_mean_s);
    read_number(rd, tm, "stddev_s", 0, NUM_NONNEG, "seconds", &pt->time_stddev_s);
    read_int(rd, tm, "runs", 0, &pt->runs);
    pop(rd, m);
}

static void read_point_hardware(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    const cJSON *hw = read_object(rd, obj, "hardware", 0, "an object with the hardware's name");
    if (!hw) return;
    size_t m = push_key(rd, "hardware");
    rl_rec_hardware *h = rl_rec_point_hardware(pt);
    if (!h)
        rd->oom = 1;
    else
        read_hardware(rd, hw, h, 1);
    pop(rd, m);
}

static void read_reported(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    static const char *const keys[] = {"flops_per_s", "bytes_per_s", NULL};
    const cJSON *rep = read_object(rd, obj, "reported", 0,
                                   "an object with flops_per_s and/or bytes_per_s");
    if (!rep) return;
    size_t m = push_key(rd, "reported");
    check_keys(rd, rep, keys);
    read_number(rd, rep, "flops_per_s", 0, NUM_POSITIVE, "FLOP per second",
                &pt->reported_flops_per_s);
    read_number(rd, rep, "bytes_per_s", 0, NUM_POSITIVE, "bytes per second",
                &pt->reported_bytes_per_s);
    pop(rd, m);
}

/* The "expected one of generic, fa2, ..." part of core's rl_kernel_parse message (the list of
 * profiles is core's, so a new profile shows up here by itself). */
static const char *profile_expected(const rl_error *err) {
    const char *list = strstr(err->message, "expected one of");
    return list ? list : "expected a kernel profile id";
}

/* "profile": a rooflab kernel profile id, checked by core's rl_kernel_parse (its message lists
 * the profiles; the path replaces its field name). */
static void read_profile(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "profile");
    if (!v) return;
    if (!cJSON_IsString(v) || !v->valuestring) {
        type_error(rd, "profile", "a kernel profile id (a string, e.g. \"fa3\")", v);
        return;
    }
    size_t m = push_key(rd, "profile");
    rl_error err = {0};
    if (rl__check_string(rd->is, rd->path, v->valuestring) == 0) {
        if (rl_kernel_parse(v->valuestring, "profile", &pt->profile, &err) == RL_OK) {
            pt->has_profile = 1;
        } else {
            char shown[64];
            describe_string((const unsigned char *)v->valuestring, shown, sizeof shown);
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_UNKNOWN, rd->path, "%s (kernel profiles), got %s",
                      profile_expected(&err), shown);
        }
    }
    pop(rd, m);
}

static void read_point(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    static const char *const keys[] = {"problem",  "traffic_model", "timing",   "flops",
                                       "modelled_bytes", "measured_bytes", "measured_l2_bytes",
                                       "max_abs_error",
                                       "rel_l2_error", "kernel", "label", "profile", "figure",
                                       "reading_error", "set", "production_decode", "hardware",
                                       "reported", "derived", NULL};
    check_keys(rd, obj, keys);
    read_problem_key(rd, obj, 1, &pt->problem);
    read_traffic(rd, obj, &pt->traffic_model);
    read_timing(rd, obj, pt);
    read_number(rd, obj, "flops", 1, NUM_POSITIVE, "FLOP", &pt->flops);
    read_number(rd, obj, "modelled_bytes", 0, NUM_POSITIVE, "bytes", &pt->modelled_bytes);
    read_number(rd, obj, "measured_bytes", 0, NUM_POSITIVE, "bytes", &pt->measured_bytes);
    read_number(rd, obj, "measured_l2_bytes", 0, NUM_POSITIVE, "bytes", &pt->measured_l2_bytes);
    read_number(rd, obj, "max_abs_error", 0, NUM_NONNEG, NULL, &pt->max_abs_error);
    read_number(rd, obj, "rel_l2_error", 0, NUM_NONNEG, NULL, &pt->rel_l2_error);
    read_string(rd, obj, "kernel", 0, &pt->kernel);
    read_string(rd, obj, "label", 0, &pt->label);
    read_profile(rd, obj, pt);
    read_string(rd, obj, "figure", 0, &pt->figure);
    read_string(rd, obj, "reading_error", 0, &pt->reading_error);
    static const char *const sets[] = {"fit", "held-out", NULL};
    int set = 0;
    if (read_enum(rd, obj, "set", 0, sets, &set) > 0) pt->set = (rl_rec_set)(set + 1);
    read_bool(rd, obj, "production_decode", &pt->production_decode);
    read_point_hardware(rd, obj, pt);
    read_reported(rd, obj, pt);
    read_object(rd, obj, "derived", 0, "an object (written by rooflab, ignored when read)");
}

typedef struct points_read {
    rl_record *r;
    int all_have_hw; /* every point names its own hardware */
} points_read;

static void read_point_item(reader *rd, const cJSON *pv, size_t index, void *ctx) {
    points_read *pr = ctx;
    (void)index;
    if (rd->oom) return;
    if (!cJSON_IsObject(pv)) {
        type_error(rd, NULL, "an object (one measured point)", pv);
        pr->all_have_hw = 0;
        return;
    }
    rl_rec_point *pt = rl_record_add_point(pr->r);
    if (!pt) {
        rd->oom = 1;
        return;
    }
    read_point(rd, pv, pt);
    if (!pt->hardware) pr->all_have_hw = 0;
}

/* Points first, so that we know whether each has its own hardware: returns 1 when all do. */
static int read_points(reader *rd, const cJSON *points, rl_record *r) {
    static const array_spec spec = {"points", "an array of measured points", RL_RECORD_MAX_POINTS,
                                    "points", 1, NULL};
    if (!points) {
        missing(rd, "points", "an array of measured points (may be empty)");
        return 0;
    }
    points_read pr = {r, cJSON_IsArray(points) && points->child != NULL};
    read_array(rd, points, &spec, read_point_item, &pr);
    return pr.all_have_hw;
}

static void read_skip(reader *rd, const cJSON *obj, size_t index, void *ctx) {
    rl_record *r = ctx;
    (void)index;
    static const char *const keys[] = {"kernel", "problem", "traffic_model", "reason", NULL};
    check_keys(rd, obj, keys);
    char *kernel = NULL, *reason = NULL;
    rl_problem pb = {0};
    rl_rec_traffic traffic = RL_TRAFFIC_TILED;
    read_string(rd, obj, "kernel", 1, &kernel);
    read_problem_key(rd, obj, 0, &pb);
    read_traffic(rd, obj, &traffic);
    read_string(rd, obj, "reason", 1, &reason);
    if (kernel && reason) {
        rl_rec_skip *s = rl_record_add_skipped(r, kernel, reason);
        if (!s) {
            rd->oom = 1;
        } else {
            s->problem = pb;
            s->traffic_model = traffic;
        }
    }
    free(kernel);
    free(reason);
}

/* ---------------------------------------------------------------------------------------------
 * Provenance, software
 * ------------------------------------------------------------------------------------------- */

static void read_artifact_item(reader *rd, const cJSON *a, size_t index, void *r) {
    (void)index;
    if (!cJSON_IsString(a) || !a->valuestring || rl__string_problem(a->valuestring))
        type_error(rd, NULL, "a string of valid UTF-8 (a path)", a);
    else if (rl_rec_add_artifact(r, a->valuestring) != 0)
        rd->oom = 1;
}

static void read_provenance(reader *rd, const cJSON *root, rl_record *r) {
    static const char *const keys[] = {"kind", "date", "source", "tool", "notes", "artifacts", NULL};
    static const char *const kinds[] = {"measured", "historical-unaudited", "model", "published",
                                        NULL};
    const cJSON *prov = read_object(rd, root, "provenance", 1,
                                    "an object with kind (\"measured\", \"historical-unaudited\", "
                                    "\"model\" or \"published\")");
    if (!prov) return;
    size_t m = push_key(rd, "provenance");
    check_keys(rd, prov, keys);
    int k = 0;
    if (read_enum(rd, prov, "kind", 1, kinds, &k) > 0) r->provenance.kind = (rl_rec_provenance_kind)k;
    if (read_string(rd, prov, "date", 0, &r->provenance.date) > 0 && !rl__date_ok(r->provenance.date))
        type_error(rd, "date", "an ISO 8601 date (YYYY-MM-DD...)",
                   cJSON_GetObjectItemCaseSensitive(prov, "date"));
    read_string(rd, prov, "source", 0, &r->provenance.source);
    read_string(rd, prov, "tool", 0, &r->provenance.tool);
    read_string(rd, prov, "notes", 0, &r->provenance.notes);
    const cJSON *art = cJSON_GetObjectItemCaseSensitive(prov, "artifacts");
    static const array_spec spec = {"artifacts", "an array of strings", RL_RECORD_MAX_ARTIFACTS,
                                    "artifacts", 0, NULL};
    if (art) read_array(rd, art, &spec, read_artifact_item, r);
    pop(rd, m);
}

typedef struct argv_read {
    const char *args[RL_RECORD_MAX_ARGV];
    int ok;
} argv_read;

static void read_arg_item(reader *rd, const cJSON *a, size_t index, void *ctx) {
    argv_read *av = ctx;
    if (!cJSON_IsString(a) || !a->valuestring) {
        type_error(rd, NULL, "a string (one argument)", a);
        av->ok = 0;
    } else if (rl__check_string(rd->is, rd->path, a->valuestring) != 0) {
        av->ok = 0;
    } else {
        av->args[index] = a->valuestring;
    }
}

static void read_argv(reader *rd, const cJSON *arr, rl_record *r) {
    static const array_spec spec = {"argv", "an array of strings (the command line)",
                                    RL_RECORD_MAX_ARGV, "arguments", 1, NULL};
    argv_read av = {.ok = 1};
    if (read_array(rd, arr, &spec, read_arg_item, &av) == 0 && av.ok &&
        rl_rec_set_argv(r, cJSON_GetArraySize(arr), av.args) != 0)
        rd->oom = 1;
}

static void read_software(reader *rd, const cJSON *root, rl_record *r) {
    static const char *const keys[] = {"kernel", "kernel_version", "git_revision",
                                       "compiler", "flags", "argv", NULL};
    const cJSON *sw = read_object(rd, root, "software", 1,
                                  "an object with kernel_version (the minimum a report needs)");
    if (!sw) return;
    size_t m = push_key(rd, "software");
    check_keys(rd, sw, keys);
    read_string(rd, sw, "kernel", 0, &r->software.kernel);
    read_string(rd, sw, "kernel_version", 1, &r->software.kernel_version);
    read_string(rd, sw, "git_revision", 0, &r->software.git_revision);
    read_string(rd, sw, "compiler", 0, &r->software.compiler);
    read_string(rd, sw, "flags", 0, &r->software.flags);
    const cJSON *av = cJSON_GetObjectItemCaseSensitive(sw, "argv");
    if (av) read_argv(rd, av, r);
    pop(rd, m);
}

static void read_record_hardware(reader *rd, const cJSON *root, rl_record *r, int all_points_hw) {
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(root, "hardware");
    if (!hw) {
        if (!all_points_hw)
            missing(rd, "hardware", "an object with the hardware's name (or hardware in every "
                                    "point)");
    } else if (!cJSON_IsObject(hw)) {
        type_error(rd, "hardware", "an object with the hardware's name", hw);
    } else {
        size_t m = push_key(rd, "hardware");
        /* the name is optional here only when every point names its own hardware */
        read_hardware(rd, hw, &r->hardware, !all_points_hw);
        pop(rd, m);
    }
}

/* The record's body, once the document is known to be a record of this version. */
static void read_record(reader *rd, const cJSON *root, rl_record *r) {
    static const char *const keys[] = {"schema",   "schema_version", "provenance", "hardware",
                                       "software", "points",         "skipped",    "extra",
                                       NULL};
    check_keys(rd, root, keys);
    read_provenance(rd, root, r);
    read_software(rd, root, r);
    int all_points_hw = read_points(rd, cJSON_GetObjectItemCaseSensitive(root, "points"), r);
    read_record_hardware(rd, root, r, all_points_hw);
    static const array_spec skipped = {"skipped", "an array of skipped runs", RL_RECORD_MAX_POINTS,
                                       "skipped runs", 1,
                                       "an object with kernel and reason (one skipped run)"};
    const cJSON *sk = cJSON_GetObjectItemCaseSensitive(root, "skipped");
    if (sk) read_array(rd, sk, &skipped, read_skip, r);
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(root, "extra");
    if (extra && !cJSON_IsObject(extra)) type_error(rd, "extra", "an object", extra);
}

/* ---------------------------------------------------------------------------------------------
 * The document: limits, strict syntax, cJSON, schema and version
 * ------------------------------------------------------------------------------------------- */

static void syntax_error(rl_rec_issues *is, const char *text, size_t len, size_t off, int early) {
    size_t line, col;
    rl__line_col(text, len, off, &line, &col);
    if (early)
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not valid JSON at line %zu, column %zu: the text ends too early", line, col);
    else
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not valid JSON at line %zu, column %zu (byte %zu)", line, col, off);
}

/* Size limits, the strict syntax check, the depth limit, then cJSON. NULL with an issue added. */
static cJSON *parse_json(const char *text, size_t len, rl_rec_issues *is) {
    if (!text) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no text given");
        return NULL;
    }
    if (len > RL_RECORD_MAX_FILE_BYTES) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "file is %zu bytes; the limit is %zu bytes (16 MiB) per record", len,
                  (size_t)RL_RECORD_MAX_FILE_BYTES);
        return NULL;
    }
    if (len == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "not valid JSON: the file is empty");
        return NULL;
    }
    /* A UTF-8 byte order mark is ignored (RFC 8259 §8.1 allows it). */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    size_t at = 0;
    int depth = 0;
    if (rl__json_scan((const unsigned char *)text, len, &at, &depth) != 0) {
        syntax_error(is, text, len, at, at >= len);
        return NULL;
    }
    if (depth > RL_RECORD_MAX_DEPTH) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "nesting deeper than %d levels (the limit for a record)", RL_RECORD_MAX_DEPTH);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) syntax_error(is, text, len, end && end >= text ? (size_t)(end - text) : 0, 0);
    return root;
}

/* Is this JSON a record of this version (schema, schema_version, points limit)? 0 or -1. */
static int check_header(reader *rd, const cJSON *root) {
    char g[64];
    if (!cJSON_IsObject(root))
        return rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, "",
                         "valid JSON, not a record: expected an object with \"schema\": \"%s\", "
                         "got %s",
                         RL_RECORD_SCHEMA_ID, describe(root, g, sizeof g));
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!schema || !cJSON_IsString(schema) || strcmp(schema->valuestring, RL_RECORD_SCHEMA_ID))
        return rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, "",
                         "valid JSON, not a record: schema: expected \"%s\", got %s",
                         RL_RECORD_SCHEMA_ID, describe(schema, g, sizeof g));
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!ver) {
        missing(rd, "schema_version", "the integer 1");
        return -1;
    }
    if (!cJSON_IsNumber(ver) || floor(ver->valuedouble) != ver->valuedouble) {
        type_error(rd, "schema_version", "the integer 1", ver);
        return -1;
    }
    if (ver->valuedouble != RL_RECORD_SCHEMA_VERSION)
        return rl__issue(rd->is, RL_REC_ERROR, RL_ERR_UNSUPPORTED, "schema_version",
                         "unknown schema version %.15g; this reader knows %d", ver->valuedouble,
                         RL_RECORD_SCHEMA_VERSION);
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
    int n = points && cJSON_IsArray(points) ? cJSON_GetArraySize(points) : 0;
    if (n > RL_RECORD_MAX_POINTS)
        return rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, "points",
                         "expected at most %d points, got %d", RL_RECORD_MAX_POINTS, n);
    return 0;
}

/* The record read from `root` (validated when its structure is sound), or NULL. */
static rl_record *read_document(const cJSON *root, rl_rec_issues *is) {
    reader rd = {is, "", 0};
    size_t before = is->errors;
    if (check_header(&rd, root) != 0) return NULL;
    rl_record *r = rl_record_new(RL_PROV_MEASURED);
    if (!r) {
        rl__oom(is);
        return NULL;
    }
    read_record(&rd, root, r);
    if (rd.oom) rl__oom(is);
    /* Semantics only when the structure is sound: the messages would repeat otherwise. */
    if (is->errors == before) rl_record_validate(r, is);
    return r;
}

rl_status rl_record_parse(const char *text, size_t len, rl_record **out, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    if (out) *out = NULL;
    cJSON *root = parse_json(text, len, is);
    rl_record *r = root ? read_document(root, is) : NULL;
    cJSON_Delete(root);
    rl_status st = RL_OK;
    if (is->errors != before) {
        st = rl__first_error(is, before);
        if (st == RL_OK) st = RL_ERR_INVALID;
    } else if (out) {
        *out = r;
        r = NULL;
    }
    rl_record_free(r);
    rl_rec_issues_free(&local);
    return st;
}
