/* record_wasm.c — the record validator for the page: core's reader, unchanged, behind three
 * exports. No record logic here: it moves bytes in and a JSON report out.
 *
 *   rlw_record_check(ptr, len) → malloc'd NUL-terminated JSON report (rl_record_check_json):
 *       { ok, errors, warnings, issues: [{severity, path, message}], record: {... "derived" ...} }
 *     or 0 when out of memory. The caller frees it with _free.
 *   rlw_record_limit_count(), rlw_record_limit_key(i), rlw_record_limit(i) → the stated limits
 *     by name ("max_file_bytes", "max_file_mib" (the same in MiB, for words), "max_points", "max_depth", "max_string"), checked by the page
 *     before it reads a file, and "max_check_seconds": how long the page lets one file's check
 *     (or import) run in its worker before it terminates it (PAGE.md, uploads).
 *
 * Other tools' output (core's importers, the same as `rooflab import`):
 *   rlw_import_detect(ptr, len, err) → the format's code (rl_import_format: ert, ncu-csv, gbench,
 *     torch-trace, nsys-csv, triton-csv, record) or -1 with err naming every signature looked for; rlw_import_format_count(),
 *     rlw_import_format_name(i); rlw_import_ncu_command() → the ncu command line to run.
 *   rlw_record_import(format, ptr, len, answers, err) → malloc'd JSON
 *       { "report": { ...as rlw_record_check... }, "text": the record as `rooflab import` writes it
 *         (pretty, no trailing newline) | null }
 *     or 0 with err when an answer is refused (err.field: its flag) or out of memory. `answers`
 *     is a JSON object of the CLI's flag names → the text typed for them ("seq": "4096",
 *     "causal": "true", "hw": "h100-sxm", "hw-name", "kernel-version", "date", "args",
 *     "traffic-model", "source", "match", "unit"); "" means the flag was not given.
 *   rlw_import_hints(ptr, len) → malloc'd JSON { "answers": { flag: text }, "from": text } of what
 *     the file names unasked (rl_import_hints: FA2 kernel traits), answers empty when nothing. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rooflab/record.h"
#include "rooflab_wasm.h"

RLW_EXPORT char *rlw_record_check(const char *text, size_t len) {
    return rl_record_check_json(text, len, 0);
}

/* The page's time limit per file. Core's reader is linear: the largest file the limits allow
 * (100,000 points) takes 0.7 s natively and 4.3 s in this module under node on the 2-core test
 * machine, more while the page checks several files at once. 60 s leaves a slow machine more
 * than ten times that, and a stuck or adversarial file still gives its worker back. */
#define RLW_MAX_CHECK_SECONDS 60

/* The stated limits, by name, for the page to check and to print (formatted by core's units). */
#define RLW_RECORD_LIMITS(X)                                                                       \
    X("max_file_bytes", RL_RECORD_MAX_FILE_BYTES)                                                  \
    X("max_file_mib", RL_RECORD_MAX_FILE_MIB)                                                      \
    X("max_points", RL_RECORD_MAX_POINTS)                                                          \
    X("max_depth", RL_RECORD_MAX_DEPTH)                                                            \
    X("max_string", RL_RECORD_MAX_STRING)                                                          \
    X("max_check_seconds", RLW_MAX_CHECK_SECONDS)

static const char *const rlw_limit_keys[] = {
#define RLW_X_KEY(key, value) key,
    RLW_RECORD_LIMITS(RLW_X_KEY)
#undef RLW_X_KEY
};
static const double rlw_limit_values[] = {
#define RLW_X_VALUE(key, value) (double)(value),
    RLW_RECORD_LIMITS(RLW_X_VALUE)
#undef RLW_X_VALUE
};
#define RLW_LIMIT_COUNT ((int)(sizeof rlw_limit_keys / sizeof rlw_limit_keys[0]))

RLW_EXPORT int rlw_record_limit_count(void) { return RLW_LIMIT_COUNT; }
RLW_EXPORT const char *rlw_record_limit_key(int i) {
    return (i >= 0 && i < RLW_LIMIT_COUNT) ? rlw_limit_keys[i] : "";
}
RLW_EXPORT double rlw_record_limit(int i) {
    return (i >= 0 && i < RLW_LIMIT_COUNT) ? rlw_limit_values[i] : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Import */

RLW_EXPORT int rlw_import_format_count(void) { return RL_IMPORT_FORMAT_COUNT; }
RLW_EXPORT const char *rlw_import_format_name(int f) {
    return (f >= 0 && f < RL_IMPORT_FORMAT_COUNT) ? rl_import_format_name((rl_import_format)f) : "";
}
/* The one ncu command line that collects what the ncu-csv import reads (core's). */
RLW_EXPORT const char *rlw_import_ncu_command(void) { return rl_import_ncu_command(); }
RLW_EXPORT int rlw_import_detect(const char *text, size_t len, rl_error *err) {
    rl_import_format f;
    return rl_import_detect(text, len, &f, err) == RL_OK ? (int)f : -1;
}

static rl_status rlw_refuse(rl_error *err, const char *flag, const char *what, const char *got) {
    return rl_error_fail(err, RL_ERR_INVALID, flag, "expected %s, got \"%.*s\"", what,
                         (int)rl_text_clip(got, 64), got);
}

static rl_status rlw_traffic(const char *v, rl_rec_traffic *out, rl_error *err) {
    static const rl_rec_traffic all[] = {RL_TRAFFIC_COMPULSORY, RL_TRAFFIC_TILED, RL_TRAFFIC_NAIVE,
                                         RL_TRAFFIC_OTHER};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (strcmp(v, rl_rec_traffic_name(all[k])) == 0) {
            *out = all[k];
            return RL_OK;
        }
    return rlw_refuse(err, "traffic-model", "compulsory, tiled, naive or other", v);
}

/* One answer (flag → text) into the import options, as `rooflab import` reads its flags. */
static rl_status rlw_answer(rl_import_opts *o, const char *flag, const char *v, rl_error *err) {
    static const char *const names[] = {"hw-name", "kernel-version", "date", "args", "source",
                                        "match", "unit"};
    const char **slots[] = {&o->hardware_name, &o->kernel_version, &o->date, &o->gbench_args,
                            &o->source, &o->match, &o->unit};
    if (!v[0]) return RL_OK; /* not given: the default, as without the flag */
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(flag, names[k]) == 0) {
            *slots[k] = v;
            return RL_OK;
        }
    if (strcmp(flag, "traffic-model") == 0) return rlw_traffic(v, &o->traffic_model, err);
    if (strcmp(flag, "hw") == 0) {
        o->preset = v;
        return rl_hw_lookup(v, "hw", NULL, err);
    }
    int f = rl_problem_field_find(flag);
    if (f < 0) return rlw_refuse(err, flag, "a flag of rooflab import", flag);
    o->problem_given |= 1u << f; /* answered in the form: given, even when it is the default */
    return rl_problem_set_text(&o->problem, (rl_problem_field)f, v, NULL, err);
}

static rl_status rlw_answers(const cJSON *answers, rl_import_opts *o, rl_error *err) {
    if (!cJSON_IsObject(answers)) return rlw_refuse(err, "answers", "a JSON object", "");
    const cJSON *a;
    cJSON_ArrayForEach(a, answers) {
        if (!cJSON_IsString(a)) return rlw_refuse(err, a->string, "text", "not text");
        rl_status st = rlw_answer(o, a->string, a->valuestring, err);
        if (st != RL_OK) return st;
    }
    return RL_OK;
}

/* { "report": <report JSON, raw>, "text": <record text> | null }, malloc'd; NULL with err when
 * the record cannot be written or memory runs out. `rec` NULL: the import failed (its issues say
 * why). */
static char *rlw_import_result(rl_record *rec, const rl_rec_issues *is, rl_error *err) {
    char *text = rec ? rl_record_write_json(rec, 1, err) : NULL;
    if (rec && !text) return NULL;
    char *report = rl_record_report_json(rec, is, 0);
    cJSON *o = cJSON_CreateObject();
    char *out = NULL;
    if (o && report && cJSON_AddItemToObject(o, "report", cJSON_CreateRaw(report)) &&
        cJSON_AddItemToObject(o, "text", text ? cJSON_CreateString(text) : cJSON_CreateNull()))
        out = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    free(report);
    free(text);
    if (!out) rl_error_fail(err, RL_ERR_CAPACITY, "file", "out of memory while importing");
    return out;
}

RLW_EXPORT char *rlw_record_import(int format, const char *text, size_t len,
                                             const char *answers_json, rl_error *err) {
    rl_import_opts o = {0};
    o.traffic_model = RL_TRAFFIC_TILED;
    if (format < 0 || format >= RL_IMPORT_FORMAT_COUNT) {
        rlw_refuse(err, "format", "a format code from rlw_import_detect", "?");
        return NULL;
    }
    cJSON *answers = cJSON_Parse(answers_json ? answers_json : "{}");
    if (rlw_answers(answers, &o, err) != RL_OK) {
        cJSON_Delete(answers);
        return NULL;
    }
    rl_rec_issues is = {0};
    rl_record *rec = NULL;
    rl_status st = rl_record_import((rl_import_format)format, text, len, &o, &rec, &is);
    char *out = rlw_import_result(st == RL_OK ? rec : NULL, &is, err);
    rl_record_free(rec);
    rl_rec_issues_free(&is);
    cJSON_Delete(answers);
    return out;
}

RLW_EXPORT char *rlw_import_hints(const char *text, size_t len) {
    rl_problem h;
    unsigned given;
    char from[256], value[32];
    rl_import_hints(text, len, &h, &given, from, sizeof from);
    cJSON *root = cJSON_CreateObject(), *answers = cJSON_AddObjectToObject(root, "answers");
    for (int f = 0; answers && f < RL_PROBLEM_FIELD_COUNT; f++) {
        if (!(given & 1u << f)) continue;
        rl_problem_value_text(&h, (rl_problem_field)f, value, sizeof value);
        cJSON_AddStringToObject(answers, rl_problem_field_info((rl_problem_field)f)->flag, value);
    }
    cJSON_AddStringToObject(root, "from", from);
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}

/* rlw_text_escape(text, max_bytes) → malloc'd NUL-terminated one-line form of `text` by core's one
 * escaper (rl_text_escape: controls as \xHH, invisible and direction characters named, e.g.
 * "<U+202E RIGHT-TO-LEFT OVERRIDE>"), at most max_bytes bytes (0: the whole text), cut with "...";
 * 0 when out of memory. The caller frees it with _free. For every user-supplied text the page
 * echoes (answers, labels, file names, kernel names), so the page and the CLI escape alike. */
RLW_EXPORT char *rlw_text_escape(const char *text, size_t max_bytes) {
    size_t len = text ? strlen(text) : 0;
    /* the longest form is 14 bytes per input byte ("<U+FFF9 INTERLINEAR ANNOTATION CHARACTER>"
     * for 3 bytes); 16 leaves room */
    size_t cap = len > (SIZE_MAX - 8) / 16 ? SIZE_MAX / 2 : len * 16 + 8;
    if (max_bytes > 0 && max_bytes + 1 < cap) cap = max_bytes + 1;
    char *out = malloc(cap);
    if (!out) return 0;
    rl_text_escape(out, cap, text);
    return out;
}
