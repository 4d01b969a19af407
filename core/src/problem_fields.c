/* problem_fields.c — the problem's fields described once (RL_PROBLEM_FIELDS in rooflab.h):
 * lookup by name, get and set by integer or by typed text, value as text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const rl_field_info field_infos[RL_PROBLEM_FIELD_COUNT] = {
#define RL_X_FIELD_INFO(ID, member, key, flag, type, def, max, lo, hi, meta, help)                 \
    [RL_FIELD_##ID] = {key, flag, type, def, max, lo, hi, meta, help},
    RL_PROBLEM_FIELDS(RL_X_FIELD_INFO)
#undef RL_X_FIELD_INFO
};

const char *rl_pass_name(rl_pass pass) { return pass == RL_PASS_BWD ? "bwd" : "fwd"; }

const rl_field_info *rl_problem_field_info(rl_problem_field field) {
    if ((int)field < 0 || field >= RL_PROBLEM_FIELD_COUNT) return NULL;
    return &field_infos[field];
}

int rl_problem_field_tie(rl_problem_field field) {
    switch (field) {
    case RL_FIELD_KV_HEADS: return RL_FIELD_HEADS;
    case RL_FIELD_KV_LEN: return RL_FIELD_SEQ;
    case RL_FIELD_HEAD_DIM_V: return RL_FIELD_HEAD_DIM;
    case RL_FIELD_KV_DTYPE:
    case RL_FIELD_OUT_DTYPE:
    case RL_FIELD_SCORE_DTYPE: return RL_FIELD_DTYPE;
    default: return -1;
    }
}

int rl_problem_field_variant(rl_problem_field field) {
    switch (field) {
    case RL_FIELD_HEAD_DIM_V:
    case RL_FIELD_KV_LORA_RANK:
    case RL_FIELD_ROPE_DIM:
    case RL_FIELD_WINDOW:
    case RL_FIELD_SINKS:
    case RL_FIELD_PAGE_SIZE:
    case RL_FIELD_KV_LENS:
    case RL_FIELD_TOPK: return 1;
    default: return 0;
    }
}

int rl_problem_field_find(const char *name) {
    if (!name) return -1;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++)
        if (strcmp(name, field_infos[f].key) == 0 || strcmp(name, field_infos[f].flag) == 0) return f;
    return -1;
}

static int64_t get_i64(const int64_t *m) { return *m; }
static int64_t get_int(const int *m) { return *m; }
static int64_t get_dtype(const rl_dtype *m) { return (int64_t)*m; }
static int64_t get_pass(const rl_pass *m) { return (int64_t)*m; }
static int64_t get_lens(const rl_kv_lens *m) { return m->n; } /* pairs; 0 = off */
#define RL_GET_MEMBER(ptr)                                                                         \
    _Generic((ptr), const int64_t *: get_i64, const int *: get_int, const rl_dtype *: get_dtype,  \
             const rl_pass *: get_pass, const rl_kv_lens *: get_lens)(ptr)

int64_t rl_problem_get(const rl_problem *p, rl_problem_field field) {
    switch (field) {
#define RL_X_FIELD_GET(ID, member, key, flag, type, def, max, lo, hi, meta, help)                  \
    case RL_FIELD_##ID: return RL_GET_MEMBER(&p->member);
        RL_PROBLEM_FIELDS(RL_X_FIELD_GET)
#undef RL_X_FIELD_GET
    default: return 0;
    }
}

static void set_i64(int64_t *m, int64_t v) { *m = v; }
static void set_int(int *m, int64_t v) { *m = (int)v; }
static void set_dtype(rl_dtype *m, int64_t v) { *m = (rl_dtype)v; }
static void set_pass(rl_pass *m, int64_t v) { *m = (rl_pass)v; }
/* A list has no integer form: only 0 (off) is stored this way (rl_problem_set refuses others). */
static void set_lens(rl_kv_lens *m, int64_t v) {
    if (v == 0) memset(m, 0, sizeof *m);
}
#define RL_SET_MEMBER(ptr, v)                                                                      \
    _Generic((ptr), int64_t *: set_i64, int *: set_int, rl_dtype *: set_dtype, rl_pass *: set_pass, \
             rl_kv_lens *: set_lens)(ptr, v)

static void store(rl_problem *p, rl_problem_field field, int64_t v) {
    switch (field) {
#define RL_X_FIELD_STORE(ID, member, key, flag, type, def, max, lo, hi, meta, help)                \
    case RL_FIELD_##ID: RL_SET_MEMBER(&p->member, v); break;
        RL_PROBLEM_FIELDS(RL_X_FIELD_STORE)
#undef RL_X_FIELD_STORE
    default: break;
    }
}

static const char *name_or_flag(rl_problem_field field, const char *name) {
    return name && name[0] ? name : field_infos[field].flag;
}

static rl_status expected_for(rl_problem_field field, const char *name, const char *got,
                              rl_error *err) {
    const rl_field_info *fi = &field_infos[field];
    const char *n = name_or_flag(field, name);
    switch (fi->type) {
    case RL_FTYPE_INT:
        return rl__fail(err, RL_ERR_RANGE, n, "expected a positive integer (1 to %" PRId64 "), got %s",
                        fi->max, got);
    case RL_FTYPE_DTYPE:
        return rl__fail(err, RL_ERR_UNKNOWN, n, "expected one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8, got %s",
                        got);
    case RL_FTYPE_BOOL: return rl__fail(err, RL_ERR_INVALID, n, "expected true or false, got %s", got);
    case RL_FTYPE_PASS: return rl__fail(err, RL_ERR_INVALID, n, "expected fwd or bwd, got %s", got);
    case RL_FTYPE_LENS:
        return rl__fail(err, RL_ERR_INVALID, n,
                        "expected a list of key lengths, LEN,LEN,... or LENxCOUNT,... (at most %d "
                        "items), got %s",
                        RL_KV_LENS_MAX, got);
    }
    return RL_ERR_INVALID;
}

rl_status rl_problem_set(rl_problem *p, rl_problem_field field, int64_t value, const char *name,
                         rl_error *err) {
    if ((int)field < 0 || field >= RL_PROBLEM_FIELD_COUNT)
        return rl__fail(err, RL_ERR_UNKNOWN, name ? name : "", "unknown problem field %d", (int)field);
    if (value < 0 || value > field_infos[field].max ||
        (field_infos[field].type == RL_FTYPE_LENS && value != 0)) {
        char got[32];
        snprintf(got, sizeof got, "%" PRId64, value);
        return expected_for(field, name, got, err);
    }
    store(p, field, value);
    rl__ok(err);
    return RL_OK;
}

/* A plain decimal integer: digits only, no sign, no spaces. */
static int parse_digits(const char *t, int64_t *out) {
    if (!t[0] || strlen(t) > 18) return 0;
    for (const char *c = t; *c; c++)
        if (*c < '0' || *c > '9') return 0;
    *out = (int64_t)strtoll(t, NULL, 10);
    return 1;
}

static int parse_value(rl_problem_field field, const char *t, int64_t *v) {
    switch (field_infos[field].type) {
    case RL_FTYPE_INT: return parse_digits(t, v) && *v >= 1 && *v <= field_infos[field].max;
    case RL_FTYPE_DTYPE: {
        rl_dtype d;
        if (rl_dtype_parse(t, "", &d, NULL) != RL_OK) return 0;
        *v = d;
        return 1;
    }
    case RL_FTYPE_BOOL:
        if (strcmp(t, "1") == 0 || strcmp(t, "true") == 0) *v = 1;
        else if (strcmp(t, "0") == 0 || strcmp(t, "false") == 0) *v = 0;
        else return 0;
        return 1;
    case RL_FTYPE_PASS:
        if (strcmp(t, "fwd") == 0) *v = RL_PASS_FWD;
        else if (strcmp(t, "bwd") == 0) *v = RL_PASS_BWD;
        else return 0;
        return 1;
    case RL_FTYPE_LENS: return 0; /* parsed by rl_kv_lens_parse */
    }
    return 0;
}

/* ---- the ragged batch's text form: LEN or LENxCOUNT, comma-separated ---- */

/* Digits at *s (no sign), 1 … RL_MAX_DIM; advances *s. 0 when none or out of range. */
static int64_t lens_number(const char **s) {
    const char *c = *s;
    int64_t v = 0;
    int digits = 0;
    while (*c >= '0' && *c <= '9') {
        if (++digits > 9) return 0; /* RL_MAX_DIM has 8 digits */
        v = v * 10 + (*c++ - '0');
    }
    *s = c;
    return digits && v >= 1 && v <= RL_MAX_DIM ? v : 0;
}

rl_status rl_kv_lens_parse(const char *text, const char *field, rl_kv_lens *out, rl_error *err) {
    const char *f = field && field[0] ? field : "kv-lens";
    const char *s = text ? text : "";
    rl_kv_lens l;
    memset(&l, 0, sizeof l);
    int item = 0;
    while (*s) {
        item++;
        const char *start = s;
        const int64_t len = lens_number(&s);
        int64_t count = 1;
        if (len && *s == 'x') {
            s++;
            count = lens_number(&s);
        }
        if (!len || !count || (*s && *s != ',') || (*s == ',' && !s[1])) {
            size_t shown = 0;
            while (start[shown] && start[shown] != ',' && shown < 40) shown++;
            return rl__fail(err, RL_ERR_INVALID, f,
                            "item %d: expected LEN or LENxCOUNT, whole numbers 1 to %" PRId64
                            " separated by commas (\"512,4096\" or \"4096x60,32768x4\"), got \"%.*s\"",
                            item, RL_MAX_DIM, RL__QUOTE(start, shown));
        }
        if (l.n == RL_KV_LENS_MAX)
            return rl__fail(err, RL_ERR_RANGE, f,
                            "at most %d items (use LENxCOUNT for repeated lengths), got more",
                            RL_KV_LENS_MAX);
        l.pair[l.n].len = len;
        l.pair[l.n].count = count;
        l.n++;
        if (*s == ',') s++;
    }
    if (out) *out = l;
    rl__ok(err);
    return RL_OK;
}

size_t rl_kv_lens_format(const rl_kv_lens *lens, char *buf, size_t cap) {
    size_t need = 0;
    if (cap) buf[0] = '\0';
    for (int i = 0; lens && i < lens->n && i < RL_KV_LENS_MAX; i++) {
        char item[48];
        int k = lens->pair[i].count == 1
                    ? snprintf(item, sizeof item, "%s%" PRId64, i ? "," : "", lens->pair[i].len)
                    : snprintf(item, sizeof item, "%s%" PRId64 "x%" PRId64, i ? "," : "",
                               lens->pair[i].len, lens->pair[i].count);
        if (k < 0) return need;
        if (need + (size_t)k < cap) memcpy(buf + need, item, (size_t)k + 1);
        need += (size_t)k;
    }
    return need;
}

rl_status rl_problem_set_text(rl_problem *p, rl_problem_field field, const char *text,
                              const char *name, rl_error *err) {
    if ((int)field < 0 || field >= RL_PROBLEM_FIELD_COUNT)
        return rl__fail(err, RL_ERR_UNKNOWN, name ? name : "", "unknown problem field %d", (int)field);
    const char *t = text ? text : "";
    int64_t v = 0;
    if (field_infos[field].type == RL_FTYPE_LENS) {
        /* A list that does not parse names the item; "" is off. */
        return rl_kv_lens_parse(t, name_or_flag(field, name), &p->kv_lens, err);
    }
    if (!parse_value(field, t, &v)) {
        char got[64];
        snprintf(got, sizeof got, "\"%.*s\"", RL__QUOTE(t, 40));
        return expected_for(field, name, got, err);
    }
    store(p, field, v);
    rl__ok(err);
    return RL_OK;
}

size_t rl_problem_value_text(const rl_problem *p, rl_problem_field field, char *buf, size_t cap) {
    int64_t v = rl_problem_get(p, field);
    int n = 0;
    switch ((int)field < 0 || field >= RL_PROBLEM_FIELD_COUNT ? RL_FTYPE_INT : field_infos[field].type) {
    case RL_FTYPE_INT: n = snprintf(buf, cap, "%" PRId64, v); break;
    case RL_FTYPE_DTYPE: n = snprintf(buf, cap, "%s", rl_dtype_name((rl_dtype)v)); break;
    case RL_FTYPE_BOOL: n = snprintf(buf, cap, "%s", v ? "true" : "false"); break;
    case RL_FTYPE_PASS: n = snprintf(buf, cap, "%s", rl_pass_name((rl_pass)v)); break;
    case RL_FTYPE_LENS: return rl_kv_lens_format(&p->kv_lens, buf, cap);
    }
    return n < 0 ? 0 : (size_t)n;
}
