/* kernel_fields.c — the kernel spec's fields described once (RL_KERNEL_FIELDS in rooflab.h):
 * lookup by name, choice names, get and set by integer or by typed text, messages built from the
 * table's names and limits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const rl_kfield_info kernel_field_infos[RL_KERNEL_FIELD_COUNT] = {
#define RL_X_KFIELD_INFO(ID, member, key, flag, type, lo, hi, meta, help)                         \
    [RL_KFIELD_##ID] = {key, flag, type, lo, hi, meta, help},
    RL_KERNEL_FIELDS(RL_X_KFIELD_INFO)
#undef RL_X_KFIELD_INFO
};

static const char *const pack_names[] = {"", "packed", "per-head"};            /* rl_gqa_pack */
static const char *const cores_names[] = {"", "cuda", "tensor", "cuda-single"}; /* rl_cores */
_Static_assert(sizeof pack_names / sizeof pack_names[0] == RL_PACK_PER_HEAD + 1, "rl_gqa_pack");
_Static_assert(sizeof cores_names / sizeof cores_names[0] == RL_CORES_CUDA_SINGLE + 1, "rl_cores");

const rl_kfield_info *rl_kernel_field_info(rl_kernel_field field) {
    if ((int)field < 0 || field >= RL_KERNEL_FIELD_COUNT) return NULL;
    return &kernel_field_infos[field];
}

int rl_kernel_field_find(const char *name) {
    if (!name) return -1;
    for (int f = 0; f < RL_KERNEL_FIELD_COUNT; f++)
        if (strcmp(name, kernel_field_infos[f].key) == 0 || strcmp(name, kernel_field_infos[f].flag) == 0)
            return f;
    return -1;
}

const char *rl_kernel_field_choice(rl_kernel_field field, int64_t code) {
    const rl_kfield_info *fi = rl_kernel_field_info(field);
    if (!fi || fi->type != RL_KTYPE_CHOICE || code < fi->lo || code > fi->hi) return NULL;
    switch (field) {
    case RL_KFIELD_KERNEL: return rl_kernel_name((rl_kernel)code);
    case RL_KFIELD_GQA_PACK: return pack_names[code];
    case RL_KFIELD_CORES: return cores_names[code];
    default: return NULL;
    }
}

size_t rl_kernel_field_choices_text(rl_kernel_field field, char *buf, size_t cap) {
    const char *names[RL_KERNEL_COUNT + RL_CORES_CUDA_SINGLE + 4];
    size_t count = 0;
    const rl_kfield_info *fi = rl_kernel_field_info(field);
    if (fi && fi->type == RL_KTYPE_CHOICE)
        for (int64_t c = fi->lo; c <= fi->hi && count < sizeof names / sizeof names[0]; c++)
            names[count++] = rl_kernel_field_choice(field, c);
    if (cap) buf[0] = '\0';
    return rl__choices_text(names, count, buf, cap);
}

int64_t rl_kernel_spec_get(const rl_kernel_spec *spec, rl_kernel_field field) {
    switch (field) {
#define RL_X_KFIELD_GET(ID, member, key, flag, type, lo, hi, meta, help)                          \
    case RL_KFIELD_##ID: return (int64_t)spec->member;
        RL_KERNEL_FIELDS(RL_X_KFIELD_GET)
#undef RL_X_KFIELD_GET
    default: return 0;
    }
}

static void store(rl_kernel_spec *spec, rl_kernel_field field, int64_t v) {
    switch (field) {
    case RL_KFIELD_KERNEL: spec->kernel = (rl_kernel)v; break;
    case RL_KFIELD_GQA_PACK: spec->gqa_pack = (rl_gqa_pack)v; break;
    case RL_KFIELD_SPLITS: spec->splits = v; break;
    case RL_KFIELD_CTAS_PER_SM: spec->ctas_per_sm = v; break;
    case RL_KFIELD_CORES: spec->cores = (rl_cores)v; break;
    default: break;
    }
}

/* "expected an integer from 1 to 128, got X" / "expected packed or per-head, got X" */
static rl_status expected(rl_kernel_field field, const char *name, const char *got, rl_error *err) {
    const rl_kfield_info *fi = &kernel_field_infos[field];
    const char *n = name && name[0] ? name : fi->flag;
    if (fi->type == RL_KTYPE_INT)
        return rl__fail(err, RL_ERR_RANGE, n, "expected an integer from %" PRId64 " to %" PRId64 ", got %s",
                        fi->lo, fi->hi, got);
    char list[160];
    rl_kernel_field_choices_text(field, list, sizeof list);
    if (field == RL_KFIELD_KERNEL)
        return rl__fail(err, RL_ERR_UNKNOWN, n, "unknown kernel profile %s; expected %s", got, list);
    return rl__fail(err, RL_ERR_INVALID, n, "expected %s, got %s", list, got);
}

rl_status rl_kernel_spec_set(rl_kernel_spec *spec, rl_kernel_field field, int64_t value,
                             const char *name, rl_error *err) {
    const rl_kfield_info *fi = rl_kernel_field_info(field);
    if (!fi) return rl__fail(err, RL_ERR_UNKNOWN, name ? name : "", "unknown kernel field %d", (int)field);
    if (value != 0 && (value < fi->lo || value > fi->hi)) {
        /* 0 (the profile's choice) is a value here too */
        return rl__fail(err, RL_ERR_RANGE, name && name[0] ? name : fi->flag,
                        "expected a whole number from 0 to %" PRId64 ", got %" PRId64, fi->hi, value);
    }
    store(spec, field, value);
    rl__ok(err);
    return RL_OK;
}

rl_status rl_kernel_spec_set_text(rl_kernel_spec *spec, rl_kernel_field field, const char *text,
                                  const char *name, rl_error *err) {
    const rl_kfield_info *fi = rl_kernel_field_info(field);
    if (!fi) return rl__fail(err, RL_ERR_UNKNOWN, name ? name : "", "unknown kernel field %d", (int)field);
    const char *t = text ? text : "";
    int64_t v = -1;
    if (fi->type == RL_KTYPE_INT) {
        int digits = t[0] != '\0' && strlen(t) <= 18;
        for (const char *c = t; *c; c++) digits = digits && *c >= '0' && *c <= '9';
        if (digits) v = (int64_t)strtoll(t, NULL, 10);
        if (v < fi->lo || v > fi->hi) v = -1;
    } else {
        for (int64_t c = fi->lo; c <= fi->hi; c++) {
            const char *choice = rl_kernel_field_choice(field, c);
            if (choice && strcmp(t, choice) == 0) v = c;
        }
    }
    if (v < 0) {
        char got[64];
        snprintf(got, sizeof got, "\"%.*s\"", RL__QUOTE(t, 40));
        return expected(field, name, got, err);
    }
    store(spec, field, v);
    rl__ok(err);
    return RL_OK;
}

rl_status rl_gqa_pack_parse(const char *text, const char *field, rl_gqa_pack *out, rl_error *err) {
    rl_kernel_spec s = {0};
    rl_status st = rl_kernel_spec_set_text(&s, RL_KFIELD_GQA_PACK, text, field, err);
    if (st == RL_OK && out) *out = s.gqa_pack;
    return st;
}

rl_status rl_cores_parse(const char *text, const char *field, rl_cores *out, rl_error *err) {
    rl_kernel_spec s = {0};
    rl_status st = rl_kernel_spec_set_text(&s, RL_KFIELD_CORES, text, field, err);
    if (st == RL_OK && out) *out = s.cores;
    return st;
}

rl_status rl_kernel_parse(const char *text, const char *field, rl_kernel *out, rl_error *err) {
    rl_kernel_spec s = {0};
    rl_status st = rl_kernel_spec_set_text(&s, RL_KFIELD_KERNEL, text, field, err);
    if (st == RL_OK && out) *out = s.kernel;
    return st;
}
