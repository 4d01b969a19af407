/* import.c — other tools' output → rl_record: the format names, what every importer shares, and
 * the dispatch. The formats themselves:
 *
 *   ert      import_ert.c: Empirical Roofline Toolkit roofline.json → named ceilings.
 *   ncu-csv  import_ncu.c: `ncu --csv --page raw` → one point per kernel name.
 *   gbench   import_gbench.c: Google Benchmark JSON → one point per run_name.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

const char *rl_import_format_name(rl_import_format f) {
    switch (f) {
    case RL_IMPORT_ERT: return "ert";
    case RL_IMPORT_NCU_CSV: return "ncu-csv";
    case RL_IMPORT_GBENCH: return "gbench";
    default: return "unknown";
    }
}

rl_status rl_import_format_parse(const char *text, rl_import_format *out, rl_error *err) {
    for (int f = 0; f < RL_IMPORT_FORMAT_COUNT; f++)
        if (text && strcmp(text, rl_import_format_name((rl_import_format)f)) == 0) {
            *out = (rl_import_format)f;
            return RL_OK;
        }
    if (err) {
        err->status = RL_ERR_UNKNOWN;
        snprintf(err->field, sizeof err->field, "FORMAT");
        snprintf(err->message, sizeof err->message,
                 "FORMAT: unknown format \"%.40s\"; expected one of ert, ncu-csv, gbench",
                 text ? text : "");
    }
    return RL_ERR_UNKNOWN;
}

int rl__import_common(rl_record *r, const rl_import_opts *o, const char *tool,
                      const char *hw_default, const char *date_default,
                      const char *version_default) {
    int bad = 0;
    bad |= rl_rec_set_clean_string(&r->hardware.name, o->hardware_name ? o->hardware_name : hw_default);
    if (o->preset) bad |= rl_rec_set_clean_string(&r->hardware.preset, o->preset);
    bad |= rl_rec_set_clean_string(&r->software.kernel_version,
                         o->kernel_version ? o->kernel_version
                         : version_default ? version_default
                                           : "unknown (imported)");
    const char *date = o->date ? o->date : date_default;
    if (date && (o->date || rl__date_ok(date))) bad |= rl_rec_set_clean_string(&r->provenance.date, date);
    bad |= rl_rec_set_clean_string(&r->provenance.tool, tool);
    if (o->source) bad |= rl_rec_set_clean_string(&r->provenance.source, o->source);
    return bad;
}

rl_dtype rl__dtype_in_name(const char *s) {
    static const struct {
        const char *tok;
        rl_dtype d;
    } map[] = {{"fp16", RL_DTYPE_FP16}, {"half", RL_DTYPE_FP16}, {"bf16", RL_DTYPE_BF16},
               {"tf32", RL_DTYPE_TF32}, {"fp32", RL_DTYPE_FP32}, {"fp8", RL_DTYPE_FP8},
               {"sp", RL_DTYPE_FP32}};
    char low[128];
    size_t n = 0;
    for (; s && s[n] && n + 1 < sizeof low; n++) low[n] = (char)tolower((unsigned char)s[n]);
    low[n] = '\0';
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        size_t len = strlen(map[i].tok);
        for (const char *hit = strstr(low, map[i].tok); hit; hit = strstr(hit + 1, map[i].tok)) {
            int left = hit == low || !isalnum((unsigned char)hit[-1]);
            int right = !isalnum((unsigned char)hit[len]);
            if (left && right) return map[i].d;
        }
    }
    return RL_DTYPE_DEFAULT;
}

/* The record an import produced, validated; *out or freed. */
static rl_status finish(rl_record *r, size_t before, rl_rec_issues *is, rl_record **out) {
    if (is->errors == before) rl_record_validate(r, is);
    if (is->errors != before) {
        rl_status st = rl__first_error(is, before);
        rl_record_free(r);
        return st == RL_OK ? RL_ERR_INVALID : st;
    }
    if (out)
        *out = r;
    else
        rl_record_free(r);
    return RL_OK;
}

rl_status rl_record_import(rl_import_format format, const char *text, size_t len,
                           const rl_import_opts *opts, rl_record **out, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    rl_import_opts o = opts ? *opts : (rl_import_opts){0};
    if (out) *out = NULL;
    if (!text || len > RL_RECORD_MAX_FILE_BYTES) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "", "file is %zu bytes; the limit is %zu bytes (16 MiB)",
                  len, (size_t)RL_RECORD_MAX_FILE_BYTES);
        rl_rec_issues_free(&local);
        return RL_ERR_RANGE;
    }
    rl_record *r = rl_record_new(RL_PROV_MEASURED);
    if (!r) {
        rl__oom(is);
        rl_rec_issues_free(&local);
        return RL_ERR_CAPACITY;
    }
    switch (format) {
    case RL_IMPORT_ERT: rl__import_ert(text, len, &o, r, is); break;
    case RL_IMPORT_NCU_CSV: rl__import_ncu(text, len, &o, r, is); break;
    case RL_IMPORT_GBENCH: rl__import_gbench(text, len, &o, r, is); break;
    default: rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "FORMAT", "unknown import format"); break;
    }
    rl_status st = finish(r, before, is, out);
    rl_rec_issues_free(&local);
    return st;
}
