/* record_read.c — JSON text → rl_record, with every type error named by its JSON path.
 * Semantic checks (ranges, problem consistency, the roof) are rl_record_validate's, in record.c. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

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

/* A short description of a JSON value for "got ..." (strings quoted, clipped, escaped). */
static const char *describe(const cJSON *v, char *buf, size_t cap) {
    if (!v) {
        snprintf(buf, cap, "nothing");
    } else if (cJSON_IsNumber(v)) {
        snprintf(buf, cap, "%.15g", v->valuedouble);
    } else if (cJSON_IsString(v)) {
        size_t o = 0;
        const unsigned char *s = (const unsigned char *)v->valuestring;
        if (cap < 8) {
            snprintf(buf, cap, "\"\"");
            return buf;
        }
        buf[o++] = '"';
        for (size_t i = 0; s && s[i] && o + 8 < cap; i++) {
            if (i >= 40) {
                memcpy(buf + o, "...", 3);
                o += 3;
                break;
            }
            if (s[i] < 0x20 || s[i] == 0x7f)
                o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", s[i]);
            else if (s[i] == '"' || s[i] == '\\') {
                buf[o++] = '\\';
                buf[o++] = (char)s[i];
            } else
                buf[o++] = (char)s[i];
        }
        buf[o++] = '"';
        buf[o] = '\0';
    } else if (cJSON_IsTrue(v)) {
        snprintf(buf, cap, "true");
    } else if (cJSON_IsFalse(v)) {
        snprintf(buf, cap, "false");
    } else if (cJSON_IsNull(v)) {
        snprintf(buf, cap, "null");
    } else if (cJSON_IsArray(v)) {
        snprintf(buf, cap, "an array");
    } else if (cJSON_IsObject(v)) {
        snprintf(buf, cap, "an object");
    } else {
        snprintf(buf, cap, "an invalid value");
    }
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

/* Keys must be known and appear once. */
static void check_keys(reader *rd, const cJSON *obj, const char *const *allowed) {
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        int known = 0;
        for (size_t i = 0; allowed[i]; i++)
            if (strcmp(k, allowed[i]) == 0) known = 1;
        char shown[48];
        snprintf(shown, sizeof shown, "%.40s", k);
        if (!known) {
            char list[400] = "";
            for (size_t i = 0; allowed[i]; i++) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", allowed[i]);
            }
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_UNKNOWN, rd->path,
                      "unknown key \"%s\"; expected one of %s", shown, list);
            continue;
        }
        for (const cJSON *d = obj->child; d != c; d = d->next)
            if (d->string && strcmp(d->string, k) == 0) {
                rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path,
                          "duplicate key \"%s\"; expected each key once", shown);
                break;
            }
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
    const char *problem = rl__string_problem(v->valuestring);
    if (problem) {
        size_t m = push_key(rd, key);
        if (strcmp(problem, "too long") == 0)
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, rd->path,
                      "expected a string of at most %d characters, got a longer one",
                      RL_RECORD_MAX_STRING);
        else
            rl__issue(rd->is, RL_REC_ERROR, RL_ERR_INVALID, rd->path,
                      "expected a string of valid UTF-8, got invalid bytes");
        pop(rd, m);
        return -1;
    }
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
    if (!(d >= 1 && d <= 9007199254740992.0) || floor(d) != d) {
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

static const char *const DTYPES[] = {"fp32", "tf32", "fp16", "bf16", "fp8", NULL};
static const rl_dtype DTYPE_VALUES[] = {RL_DTYPE_FP32, RL_DTYPE_TF32, RL_DTYPE_FP16, RL_DTYPE_BF16,
                                        RL_DTYPE_FP8};

static int contains_ci(const char *s, const char *needle) {
    size_t n = strlen(needle);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && ((s[i] | 0x20) == (needle[i] | 0x20))) i++;
        if (i == n) return 1;
    }
    return 0;
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
    if (!ceil) return;
    if (!cJSON_IsArray(ceil)) {
        type_error(rd, "ceilings", "an array of ceilings", ceil);
        return;
    }
    int n = cJSON_GetArraySize(ceil);
    if (n > RL_RECORD_MAX_CEILINGS) {
        size_t m = push_key(rd, "ceilings");
        rl__issue(rd->is, RL_REC_ERROR, RL_ERR_RANGE, rd->path,
                  "expected at most %d ceilings, got %d", RL_RECORD_MAX_CEILINGS, n);
        pop(rd, m);
        return;
    }
    size_t m = push_key(rd, "ceilings");
    size_t i = 0;
    for (const cJSON *c = ceil->child; c; c = c->next, i++) {
        size_t m2 = push_index(rd, i);
        if (!cJSON_IsObject(c)) {
            type_error(rd, NULL, "an object with name and bytes_per_s or flops_per_s", c);
            pop(rd, m2);
            continue;
        }
        static const char *const ckeys[] = {"name", "bytes_per_s", "flops_per_s", "source",
                                            "dtype", "level", NULL};
        check_keys(rd, c, ckeys);
        char *name = NULL;
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
        static const char *const sources[] = {"measured", "datasheet", NULL};
        int src = 0;
        read_enum(rd, c, "source", 0, sources, &src);
        int dt = -1;
        read_enum(rd, c, "dtype", 0, DTYPES, &dt);
        static const char *const levels[] = {"dram", "l2", "l1", "smem", "other", NULL};
        int level = -1;
        read_enum(rd, c, "level", 0, levels, &level);
        if (name && has_b != has_f && hb >= 0 && hf >= 0 && (hb > 0 || hf > 0)) {
            rl_rec_ceiling *it = rl_rec_add_ceiling(hw, name, hb > 0 ? RL_CEIL_BANDWIDTH
                                                                      : RL_CEIL_COMPUTE,
                                                    hb > 0 ? bw : fl, src == 0);
            if (!it)
                rd->oom = 1;
            else {
                it->dtype = dt >= 0 ? DTYPE_VALUES[dt] : RL_DTYPE_DEFAULT;
                if (level >= 0)
                    it->dram = level == 0;
                else
                    it->dram = contains_ci(name, "hbm") || contains_ci(name, "dram") ||
                               contains_ci(name, "gddr") || contains_ci(name, "device memory");
            }
        }
        free(name);
        pop(rd, m2);
    }
    pop(rd, m);
}

static void read_problem(reader *rd, const cJSON *obj, rl_problem *pb) {
    static const char *const keys[] = {"batch",    "heads", "kv_heads", "seq",     "kv_len",
                                       "head_dim", "dtype", "kv_dtype", "score_dtype", "causal",
                                       "pass",     "block_m", "block_n", NULL};
    check_keys(rd, obj, keys);
    read_int(rd, obj, "batch", 0, &pb->batch);
    read_int(rd, obj, "heads", 0, &pb->heads);
    read_int(rd, obj, "kv_heads", 0, &pb->kv_heads);
    read_int(rd, obj, "seq", 1, &pb->seq);
    read_int(rd, obj, "kv_len", 0, &pb->kv_len);
    read_int(rd, obj, "head_dim", 0, &pb->head_dim);
    read_int(rd, obj, "block_m", 0, &pb->block_m);
    read_int(rd, obj, "block_n", 0, &pb->block_n);
    int d = -1;
    if (read_enum(rd, obj, "dtype", 1, DTYPES, &d) > 0) pb->dtype = DTYPE_VALUES[d];
    d = -1;
    if (read_enum(rd, obj, "kv_dtype", 0, DTYPES, &d) > 0) pb->kv_dtype = DTYPE_VALUES[d];
    d = -1;
    if (read_enum(rd, obj, "score_dtype", 0, DTYPES, &d) > 0) pb->score_dtype = DTYPE_VALUES[d];
    read_bool(rd, obj, "causal", &pb->causal);
    static const char *const passes[] = {"fwd", "bwd", NULL};
    int ps = 0;
    if (read_enum(rd, obj, "pass", 0, passes, &ps) > 0) pb->pass = ps ? RL_PASS_BWD : RL_PASS_FWD;
}

static void read_point(reader *rd, const cJSON *obj, rl_rec_point *pt) {
    static const char *const keys[] = {"problem",  "traffic_model", "timing",   "flops",
                                       "modelled_bytes", "measured_bytes", "max_abs_error",
                                       "rel_l2_error", "kernel", "label", "hardware", "reported",
                                       "derived", NULL};
    check_keys(rd, obj, keys);
    const cJSON *pb = read_object(rd, obj, "problem", 1,
                                  "an object with at least seq and dtype (the problem measured)");
    if (pb) {
        size_t m = push_key(rd, "problem");
        read_problem(rd, pb, &pt->problem);
        pop(rd, m);
    }
    static const char *const traffic[] = {"compulsory", "tiled", "naive", "other", NULL};
    int t = 1;
    if (read_enum(rd, obj, "traffic_model", 0, traffic, &t) > 0) pt->traffic_model = (rl_rec_traffic)t;
    const cJSON *tm = read_object(rd, obj, "timing", 1, "an object with median_s (seconds)");
    if (tm) {
        size_t m = push_key(rd, "timing");
        static const char *const tkeys[] = {"median_s", "min_s", "max_s", "runs", NULL};
        check_keys(rd, tm, tkeys);
        read_number(rd, tm, "median_s", 1, NUM_POSITIVE, "seconds", &pt->time_median_s);
        read_number(rd, tm, "min_s", 0, NUM_POSITIVE, "seconds", &pt->time_min_s);
        read_number(rd, tm, "max_s", 0, NUM_POSITIVE, "seconds", &pt->time_max_s);
        read_int(rd, tm, "runs", 0, &pt->runs);
        pop(rd, m);
    }
    read_number(rd, obj, "flops", 1, NUM_POSITIVE, "FLOP", &pt->flops);
    read_number(rd, obj, "modelled_bytes", 0, NUM_POSITIVE, "bytes", &pt->modelled_bytes);
    read_number(rd, obj, "measured_bytes", 0, NUM_POSITIVE, "bytes", &pt->measured_bytes);
    read_number(rd, obj, "max_abs_error", 0, NUM_NONNEG, NULL, &pt->max_abs_error);
    read_number(rd, obj, "rel_l2_error", 0, NUM_NONNEG, NULL, &pt->rel_l2_error);
    read_string(rd, obj, "kernel", 0, &pt->kernel);
    read_string(rd, obj, "label", 0, &pt->label);
    const cJSON *hw = read_object(rd, obj, "hardware", 0, "an object with the hardware's name");
    if (hw) {
        size_t m = push_key(rd, "hardware");
        rl_rec_hardware *h = rl_rec_point_hardware(pt);
        if (!h)
            rd->oom = 1;
        else
            read_hardware(rd, hw, h, 1);
        pop(rd, m);
    }
    const cJSON *rep = read_object(rd, obj, "reported", 0,
                                   "an object with flops_per_s and/or bytes_per_s");
    if (rep) {
        size_t m = push_key(rd, "reported");
        static const char *const rkeys[] = {"flops_per_s", "bytes_per_s", NULL};
        check_keys(rd, rep, rkeys);
        read_number(rd, rep, "flops_per_s", 0, NUM_POSITIVE, "FLOP per second",
                    &pt->reported_flops_per_s);
        read_number(rd, rep, "bytes_per_s", 0, NUM_POSITIVE, "bytes per second",
                    &pt->reported_bytes_per_s);
        pop(rd, m);
    }
    read_object(rd, obj, "derived", 0, "an object (written by rooflab, ignored when read)");
}

/* ---------------------------------------------------------------------------------------------
 * A strict RFC 8259 syntax check before cJSON (which is lenient about leading zeros, "1.", raw
 * control characters in strings, NUL bytes...). It also measures the nesting depth without
 * recursion, so cJSON never sees a document deeper than RL_RECORD_MAX_DEPTH.
 * ------------------------------------------------------------------------------------------- */

typedef struct scan {
    const unsigned char *t;
    size_t len, i;
    int depth, max_depth;
} scan;

static void skip_ws(scan *s) {
    while (s->i < s->len &&
           (s->t[s->i] == ' ' || s->t[s->i] == '\t' || s->t[s->i] == '\n' || s->t[s->i] == '\r'))
        s->i++;
}

static int hexval(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int scan_string(scan *s) {
    s->i++; /* opening quote */
    while (s->i < s->len) {
        unsigned char c = s->t[s->i];
        if (c == '"') {
            s->i++;
            return 0;
        }
        if (c < 0x20) return -1;
        if (c == '\\') {
            if (s->i + 1 >= s->len) return -1;
            unsigned char e = s->t[s->i + 1];
            if (e == 'u') {
                if (s->i + 6 > s->len) return -1;
                for (size_t k = 2; k < 6; k++)
                    if (hexval(s->t[s->i + k]) < 0) {
                        s->i += k;
                        return -1;
                    }
                s->i += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0) {
                s->i++;
                return -1;
            }
            s->i += 2;
            continue;
        }
        if (c < 0x80) {
            s->i++;
            continue;
        }
        /* one UTF-8 sequence, shortest form, no surrogates, ≤ U+10FFFF */
        size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!n || s->i + n > s->len) return -1;
        unsigned cp = c & (0x7F >> n);
        for (size_t k = 1; k < n; k++) {
            if ((s->t[s->i + k] & 0xC0) != 0x80) return -1;
            cp = (cp << 6) | (s->t[s->i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return -1;
        s->i += n;
    }
    return -1;
}

static int digits(scan *s) {
    size_t start = s->i;
    while (s->i < s->len && s->t[s->i] >= '0' && s->t[s->i] <= '9') s->i++;
    return s->i > start ? 0 : -1;
}

static int scan_number(scan *s) {
    if (s->t[s->i] == '-') s->i++;
    if (s->i >= s->len) return -1;
    if (s->t[s->i] == '0') s->i++;
    else if (digits(s)) return -1;
    if (s->i < s->len && s->t[s->i] == '.') {
        s->i++;
        if (digits(s)) return -1;
    }
    if (s->i < s->len && (s->t[s->i] == 'e' || s->t[s->i] == 'E')) {
        s->i++;
        if (s->i < s->len && (s->t[s->i] == '+' || s->t[s->i] == '-')) s->i++;
        if (digits(s)) return -1;
    }
    return 0;
}

/* 0 when the whole text is one JSON value; -1 with s->i at the offending byte. */
static int scan_json(scan *s) {
    /* stack of open containers: '[' or '{'; grows as needed (the text bounds it) */
    size_t cap = 64, top = 0;
    unsigned char *stack = malloc(cap);
    int rc = -1;
    if (!stack) return -1;
    enum { VALUE, AFTER_VALUE, KEY_OR_END, KEY, VALUE_OR_END } want = VALUE;
    for (;;) {
        skip_ws(s);
        if (s->i >= s->len) {
            if (want == AFTER_VALUE && top == 0) rc = 0;
            break;
        }
        unsigned char c = s->t[s->i];
        if (want == VALUE || want == VALUE_OR_END) {
            if (want == VALUE_OR_END && c == ']') {
                top--;
                s->depth--;
                s->i++;
                want = AFTER_VALUE;
                continue;
            }
            if (c == '[' || c == '{') {
                if (top == cap) {
                    unsigned char *ns = realloc(stack, cap * 2);
                    if (!ns) break;
                    stack = ns;
                    cap *= 2;
                }
                stack[top++] = c;
                if (++s->depth > s->max_depth) s->max_depth = s->depth;
                s->i++;
                want = c == '[' ? VALUE_OR_END : KEY_OR_END;
                continue;
            }
            if (c == '"') {
                if (scan_string(s)) break;
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                if (scan_number(s)) break;
            } else if (s->len - s->i >= 4 && memcmp(s->t + s->i, "true", 4) == 0) {
                s->i += 4;
            } else if (s->len - s->i >= 5 && memcmp(s->t + s->i, "false", 5) == 0) {
                s->i += 5;
            } else if (s->len - s->i >= 4 && memcmp(s->t + s->i, "null", 4) == 0) {
                s->i += 4;
            } else {
                break;
            }
            want = AFTER_VALUE;
            continue;
        }
        if (want == KEY_OR_END || want == KEY) {
            if (want == KEY_OR_END && c == '}') {
                top--;
                s->depth--;
                s->i++;
                want = AFTER_VALUE;
                continue;
            }
            if (c != '"' || scan_string(s)) break;
            skip_ws(s);
            if (s->i >= s->len || s->t[s->i] != ':') break;
            s->i++;
            want = VALUE;
            continue;
        }
        /* AFTER_VALUE */
        if (top == 0) break; /* text after the top-level value */
        if (c == ',') {
            s->i++;
            want = stack[top - 1] == '[' ? VALUE : KEY;
            continue;
        }
        if ((c == ']' && stack[top - 1] == '[') || (c == '}' && stack[top - 1] == '{')) {
            top--;
            s->depth--;
            s->i++;
            continue;
        }
        break;
    }
    free(stack);
    return rc;
}

static void line_col(const char *text, size_t len, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

rl_status rl_record_parse(const char *text, size_t len, rl_record **out, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    cJSON *root = NULL;
    rl_record *r = NULL;
    reader rd = {is, "", 0};
    if (out) *out = NULL;

    if (!text) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no text given");
        goto done;
    }
    if (len > RL_RECORD_MAX_FILE_BYTES) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "file is %zu bytes; the limit is %zu bytes (16 MiB) per record", len,
                  (size_t)RL_RECORD_MAX_FILE_BYTES);
        goto done;
    }
    if (len == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "not valid JSON: the file is empty");
        goto done;
    }
    /* A UTF-8 byte order mark is ignored (RFC 8259 §8.1 allows it). */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    scan sc = {(const unsigned char *)text, len, 0, 0, 0};
    if (scan_json(&sc) != 0) {
        size_t line, col;
        line_col(text, len, sc.i, &line, &col);
        if (sc.i >= len)
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                      "not valid JSON at line %zu, column %zu: the text ends too early", line, col);
        else
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                      "not valid JSON at line %zu, column %zu (byte %zu)", line, col, sc.i);
        goto done;
    }
    if (sc.max_depth > RL_RECORD_MAX_DEPTH) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "nesting deeper than %d levels (the limit for a record)", RL_RECORD_MAX_DEPTH);
        goto done;
    }
    const char *end = NULL;
    root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        size_t off = end && end >= text ? (size_t)(end - text) : 0;
        size_t line, col;
        line_col(text, len, off, &line, &col);
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not valid JSON at line %zu, column %zu (byte %zu)", line, col, off);
        goto done;
    }
    char g[64];
    if (!cJSON_IsObject(root)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "valid JSON, not a record: expected an object with \"schema\": \"%s\", got %s",
                  RL_RECORD_SCHEMA_ID, describe(root, g, sizeof g));
        goto done;
    }
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!schema || !cJSON_IsString(schema) || strcmp(schema->valuestring, RL_RECORD_SCHEMA_ID)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "valid JSON, not a record: schema: expected \"%s\", got %s",
                  RL_RECORD_SCHEMA_ID, describe(schema, g, sizeof g));
        goto done;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    if (!ver) {
        missing(&rd, "schema_version", "the integer 1");
        goto done;
    }
    if (!cJSON_IsNumber(ver) || floor(ver->valuedouble) != ver->valuedouble) {
        type_error(&rd, "schema_version", "the integer 1", ver);
        goto done;
    }
    if (ver->valuedouble != RL_RECORD_SCHEMA_VERSION) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNSUPPORTED, "schema_version",
                  "unknown schema version %.15g; this reader knows %d", ver->valuedouble,
                  RL_RECORD_SCHEMA_VERSION);
        goto done;
    }
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (points && cJSON_IsArray(points)) {
        int n = cJSON_GetArraySize(points);
        if (n > RL_RECORD_MAX_POINTS) {
            rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "points",
                      "expected at most %d points, got %d", RL_RECORD_MAX_POINTS, n);
            goto done;
        }
    }

    r = rl_record_new(RL_PROV_MEASURED);
    if (!r) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_CAPACITY, "", "out of memory");
        goto done;
    }
    static const char *const keys[] = {"schema",   "schema_version", "provenance", "hardware",
                                       "software", "points",         "extra",      NULL};
    check_keys(&rd, root, keys);

    const cJSON *prov = read_object(&rd, root, "provenance", 1,
                                    "an object with kind (\"measured\", \"historical-unaudited\" "
                                    "or \"model\")");
    if (prov) {
        size_t m = push_key(&rd, "provenance");
        static const char *const pkeys[] = {"kind", "date", "source", "tool", "notes",
                                            "artifacts", NULL};
        check_keys(&rd, prov, pkeys);
        static const char *const kinds[] = {"measured", "historical-unaudited", "model", NULL};
        int k = 0;
        if (read_enum(&rd, prov, "kind", 1, kinds, &k) > 0)
            r->provenance.kind = (rl_rec_provenance_kind)k;
        if (read_string(&rd, prov, "date", 0, &r->provenance.date) > 0) {
            const char *d = r->provenance.date;
            int ok = strlen(d) >= 10;
            for (int i = 0; ok && i < 10; i++)
                ok = (i == 4 || i == 7) ? d[i] == '-' : (d[i] >= '0' && d[i] <= '9');
            if (!ok) {
                const cJSON *dv = cJSON_GetObjectItemCaseSensitive(prov, "date");
                type_error(&rd, "date", "an ISO 8601 date (YYYY-MM-DD...)", dv);
            }
        }
        read_string(&rd, prov, "source", 0, &r->provenance.source);
        read_string(&rd, prov, "tool", 0, &r->provenance.tool);
        read_string(&rd, prov, "notes", 0, &r->provenance.notes);
        const cJSON *art = cJSON_GetObjectItemCaseSensitive(prov, "artifacts");
        if (art && !cJSON_IsArray(art)) type_error(&rd, "artifacts", "an array of strings", art);
        if (art && cJSON_IsArray(art)) {
            size_t m2 = push_key(&rd, "artifacts");
            if (cJSON_GetArraySize(art) > RL_RECORD_MAX_ARTIFACTS)
                rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, rd.path,
                          "expected at most %d artifacts", RL_RECORD_MAX_ARTIFACTS);
            else {
                size_t i = 0;
                for (const cJSON *a = art->child; a; a = a->next, i++) {
                    size_t m3 = push_index(&rd, i);
                    if (!cJSON_IsString(a) || !a->valuestring || rl__string_problem(a->valuestring))
                        type_error(&rd, NULL, "a string of valid UTF-8 (a path)", a);
                    else if (rl_rec_add_artifact(r, a->valuestring) != 0)
                        rd.oom = 1;
                    pop(&rd, m3);
                }
            }
            pop(&rd, m2);
        }
        pop(&rd, m);
    }

    const cJSON *sw = read_object(&rd, root, "software", 1,
                                  "an object with kernel_version (the minimum a report needs)");
    if (sw) {
        size_t m = push_key(&rd, "software");
        static const char *const skeys[] = {"kernel", "kernel_version", "git_revision",
                                            "compiler", "flags", "argv", NULL};
        check_keys(&rd, sw, skeys);
        read_string(&rd, sw, "kernel", 0, &r->software.kernel);
        read_string(&rd, sw, "kernel_version", 1, &r->software.kernel_version);
        read_string(&rd, sw, "git_revision", 0, &r->software.git_revision);
        read_string(&rd, sw, "compiler", 0, &r->software.compiler);
        read_string(&rd, sw, "flags", 0, &r->software.flags);
        const cJSON *av = cJSON_GetObjectItemCaseSensitive(sw, "argv");
        if (av && !cJSON_IsArray(av))
            type_error(&rd, "argv", "an array of strings (the command line)", av);
        if (av && cJSON_IsArray(av)) {
            size_t m2 = push_key(&rd, "argv");
            int n = cJSON_GetArraySize(av);
            if (n > RL_RECORD_MAX_ARGV) {
                rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, rd.path,
                          "expected at most %d arguments, got %d", RL_RECORD_MAX_ARGV, n);
            } else {
                const char *args[RL_RECORD_MAX_ARGV];
                int ok = 1;
                size_t i = 0;
                for (const cJSON *a = av->child; a; a = a->next, i++) {
                    size_t m3 = push_index(&rd, i);
                    if (!cJSON_IsString(a) || !a->valuestring) {
                        type_error(&rd, NULL, "a string (one argument)", a);
                        ok = 0;
                    } else {
                        const char *problem = rl__string_problem(a->valuestring);
                        if (problem && strcmp(problem, "too long") == 0) {
                            rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, rd.path,
                                      "expected a string of at most %d characters, got a longer "
                                      "one",
                                      RL_RECORD_MAX_STRING);
                            ok = 0;
                        } else if (problem) {
                            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, rd.path,
                                      "expected a string of valid UTF-8, got invalid bytes");
                            ok = 0;
                        } else {
                            args[i] = a->valuestring;
                        }
                    }
                    pop(&rd, m3);
                }
                if (ok && rl_rec_set_argv(r, n, args) != 0) rd.oom = 1;
            }
            pop(&rd, m2);
        }
        pop(&rd, m);
    }

    /* Points first, so that we know whether each has its own hardware. */
    int all_points_have_hw = 0;
    if (!points) {
        missing(&rd, "points", "an array of measured points (may be empty)");
    } else if (!cJSON_IsArray(points)) {
        type_error(&rd, "points", "an array of measured points", points);
    } else {
        size_t m = push_key(&rd, "points");
        size_t i = 0;
        all_points_have_hw = points->child != NULL;
        for (const cJSON *pv = points->child; pv; pv = pv->next, i++) {
            size_t m2 = push_index(&rd, i);
            if (!cJSON_IsObject(pv)) {
                type_error(&rd, NULL, "an object (one measured point)", pv);
                all_points_have_hw = 0;
            } else {
                rl_rec_point *pt = rl_record_add_point(r);
                if (!pt) {
                    rd.oom = 1;
                    pop(&rd, m2);
                    break;
                }
                read_point(&rd, pv, pt);
                if (!pt->hardware) all_points_have_hw = 0;
            }
            pop(&rd, m2);
        }
        pop(&rd, m);
    }

    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(root, "hardware");
    if (!hw) {
        if (!all_points_have_hw)
            missing(&rd, "hardware", "an object with the hardware's name (or hardware in every "
                                     "point)");
    } else if (!cJSON_IsObject(hw)) {
        type_error(&rd, "hardware", "an object with the hardware's name", hw);
    } else {
        size_t m = push_key(&rd, "hardware");
        /* the name is optional here only when every point names its own hardware */
        read_hardware(&rd, hw, &r->hardware, !all_points_have_hw);
        pop(&rd, m);
    }
    const cJSON *extra = cJSON_GetObjectItemCaseSensitive(root, "extra");
    if (extra && !cJSON_IsObject(extra)) type_error(&rd, "extra", "an object", extra);

    if (rd.oom) rl__issue(is, RL_REC_ERROR, RL_ERR_CAPACITY, "", "out of memory");
    /* Semantics only when the structure is sound: the messages would repeat otherwise. */
    if (is->errors == before) rl_record_validate(r, is);

done:
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
