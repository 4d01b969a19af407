/* import.c — other tools' output → rl_record: the format names, format detection and
 * the dispatch. The formats themselves:
 *
 *   ert      import_ert.c: Empirical Roofline Toolkit roofline.json → named ceilings.
 *   ncu-csv  import_ncu.c: `ncu --csv --page raw` → one point per kernel name.
 *   gbench   import_gbench.c: Google Benchmark JSON → one point per run_name.
 *   torch-trace  import_torch.c: a PyTorch profiler (Kineto) trace → one point per GPU kernel.
 *   nsys-csv     import_nsys.c: nsys stats cuda_gpu_kern_sum / cuda_gpu_trace CSV → one point
 *                per kernel name.
 *   triton-csv   import_triton.c: a triton.testing.perf_report table → one point per x and line.
 * (import_kernels.c: what the trace importers share.)
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

const char *rl_import_format_name(rl_import_format f) {
    switch (f) {
    case RL_IMPORT_ERT: return "ert";
    case RL_IMPORT_NCU_CSV: return "ncu-csv";
    case RL_IMPORT_GBENCH: return "gbench";
    case RL_IMPORT_TORCH_TRACE: return "torch-trace";
    case RL_IMPORT_NSYS_CSV: return "nsys-csv";
    case RL_IMPORT_TRITON_CSV: return "triton-csv";
    case RL_IMPORT_RECORD: return "record";
    default: return "unknown";
    }
}

rl_status rl_import_format_parse(const char *text, rl_import_format *out, rl_error *err) {
    for (int f = 0; f < RL_IMPORT_RECORD; f++)
        if (text && strcmp(text, rl_import_format_name((rl_import_format)f)) == 0) {
            *out = (rl_import_format)f;
            return RL_OK;
        }
    const char *names[RL_IMPORT_RECORD];
    for (int f = 0; f < RL_IMPORT_RECORD; f++) names[f] = rl_import_format_name((rl_import_format)f);
    char list[160];
    rl__choices_text(names, RL_IMPORT_RECORD, list, sizeof list);
    return rl_error_fail(err, RL_ERR_UNKNOWN, "FORMAT", "unknown format \"%.*s\"; expected %s",
                         RL__QUOTE(text ? text : "", 40), list);
}

/* An import never makes a record the reader refuses: its JSON (as `rooflab import` writes it,
 * indented) within RL_RECORD_MAX_FILE_BYTES. */
static void check_written_size(rl_record *r, rl_rec_issues *is) {
    rl_error err = {0};
    char *json = rl_record_write_json(r, 1, &err);
    if (!json) {
        rl__issue(is, RL_REC_ERROR, err.status ? err.status : RL_ERR_CAPACITY, "", "%s",
                  err.message[0] ? err.message : "the record could not be written");
        return;
    }
    size_t n = strlen(json);
    free(json);
    if (n + 1 > RL_RECORD_MAX_FILE_BYTES)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "the imported record would be %zu bytes; the limit is %zu bytes (%d MiB) per "
                  "record: split the input", n + 1, (size_t)RL_RECORD_MAX_FILE_BYTES, RL_RECORD_MAX_FILE_MIB);
}

/* An issue the record's check raised at "points[k].FIELD" is about the input: its path becomes
 * the input's own ("benchmarks[3].real_time"), the record's path kept at the end for reference. */
static void issues_at_origin(const rl_record *r, rl_rec_issues *is) {
    const rl__origins *o = r->origins;
    if (!o) return;
    for (size_t i = 0; i < is->count; i++) {
        rl_rec_issue *it = &is->items[i];
        char *end = NULL;
        const char *base, *field, *note = "";
        size_t plen = strlen(it->path);
        const char *msg = strncmp(it->message, it->path, plen) == 0 && it->message[plen] == ':'
                              ? it->message + plen + 1
                              : it->message;
        if (strncmp(it->path, "hardware.ceilings[", 18) == 0) {
            /* an ERT ceiling: "hardware.ceilings[k]" is its value (or, "name: ...", its name),
             * ".name" its name: entry [name, value] */
            unsigned long k = strtoul(it->path + 18, &end, 10);
            if (!end || *end != ']' || k >= o->n_ceil || !o->ceil[k]) continue;
            base = o->ceil[k];
            int is_name = strcmp(end + 1, ".name") == 0 ||
                          (end[1] == '\0' && strncmp(msg + (*msg == ' '), "name:", 5) == 0);
            field = is_name ? "[0]" : end[1] == '\0' ? "[1]" : "";
            if (field[0] == '[' && !is_name && o->ceil_note) note = o->ceil_note;
        } else {
            if (strncmp(it->path, "points[", 7) != 0) continue;
            unsigned long k = strtoul(it->path + 7, &end, 10);
            if (!end || *end != ']' || k >= o->n || !o->base[k]) continue;
            const char *rest = end + 1; /* ".flops", ".timing.median_s", "" */
            int kind = strncmp(rest, ".timing", 7) == 0 ? RL__ORIGIN_TIME
                       : strncmp(rest, ".flops", 6) == 0 || strncmp(rest, ".reported.flops", 15) == 0
                           ? RL__ORIGIN_FLOPS
                       : strstr(rest, "bytes") ? RL__ORIGIN_BYTES
                       : strncmp(rest, ".problem", 8) == 0 ? RL__ORIGIN_PROBLEM
                                                            : -1;
            base = o->base[k];
            field = kind >= 0 && o->field[kind] ? o->field[kind] : "";
        }
        char path[RL_REC_PATH_MAX + 240], message[RL_REC_MESSAGE_MAX + 600]; /* clipped below */
        snprintf(path, sizeof path, "%.*s%.*s", 120, base, 100, field);
        snprintf(message, sizeof message, "%s:%.*s (the record's %.*s%s%.*s)", path,
                 (int)rl__utf8_clip(msg, sizeof message - 360), msg, 100, it->path,
                 note[0] ? ": " : "", 100, note);
        size_t plen2 = rl__utf8_clip(path, sizeof it->path - 1);
        memcpy(it->path, path, plen2);
        it->path[plen2] = '\0';
        size_t mlen = rl__utf8_clip(message, sizeof it->message - 1);
        memcpy(it->message, message, mlen);
        it->message[mlen] = '\0';
    }
}

/* The record an import produced, validated; *out or freed. */
static rl_status finish(rl_record *r, size_t before, rl_rec_issues *is, rl_record **out) {
    if (is->errors == before) rl_record_validate(r, is);
    issues_at_origin(r, is);
    rl__origins_free(r);
    if (is->errors == before) check_written_size(r, is);
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

/* ---------------------------------------------------------------------------------------------
 * Recognising a format (rl_import_detect)
 * ------------------------------------------------------------------------------------------- */

/* What the top level of a JSON object says about its format. */
typedef struct json_sig {
    int record, benchmarks, empirical, trace_events, ph;
    char keys[64]; /* the first top-level keys, for the message */
} json_sig;

/* The end of the JSON string starting at s[i] == '"' (the index after its closing quote, or n). */
static size_t string_end(const char *s, size_t n, size_t i) {
    for (i++; i < n; i++) {
        if (s[i] == '\\') i++;
        else if (s[i] == '"') return i + 1;
    }
    return n;
}

static int token_is(const char *s, size_t a, size_t b, const char *quoted) {
    size_t k = strlen(quoted);
    return b - a == k && memcmp(s + a, quoted, k) == 0;
}

/* Key s[a .. b) (quotes included) with its string value s[va .. vb) (empty when not a string). */
static void sig_key(json_sig *sig, const char *s, size_t a, size_t b, size_t va, size_t vb) {
    if (token_is(s, a, b, "\"schema\"") && token_is(s, va, vb, "\"rooflab-record\""))
        sig->record = 1;
    sig->benchmarks |= token_is(s, a, b, "\"benchmarks\"");
    sig->empirical |= token_is(s, a, b, "\"empirical\"");
    sig->trace_events |= token_is(s, a, b, "\"traceEvents\"");
    sig->ph |= token_is(s, a, b, "\"ph\"");
    size_t used = strlen(sig->keys), k = b - a;
    if (used + k + 3 < sizeof sig->keys) {
        char clean[64];
        snprintf(clean, sizeof clean, "%.*s", (int)k, s + a);
        rl_text_escape(sig->keys + used + (used ? 2 : 0), sizeof sig->keys - used - 2, clean);
        if (used) memcpy(sig->keys + used, ", ", 2);
    }
}

/* Walk the object starting at s[0] == '{' to its end (or the text's), noting its own keys. */
static void json_signature(const char *s, size_t n, json_sig *sig) {
    int depth = 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '{' || c == '[') depth++;
        else if (c == '}' || c == ']') {
            if (--depth <= 0) return;
        } else if (c == '"') {
            size_t e = string_end(s, n, i), j = e;
            while (j < n && isspace((unsigned char)s[j])) j++;
            if (depth == 1 && j < n && s[j] == ':') {
                size_t va = j + 1;
                while (va < n && isspace((unsigned char)s[va])) va++;
                size_t vb = va < n && s[va] == '"' ? string_end(s, n, va) : va;
                sig_key(sig, s, i, e, va, vb);
            }
            i = e;
            continue;
        }
        i++;
    }
}

static rl_status detect_error(rl_error *err, const char *got) {
    return rl_error_fail(err, RL_ERR_UNKNOWN, "file",
                         "not a format rooflab reads; expected CSV of ncu (\"Kernel Name\"), nsys "
                         "(\"Instances\") or perf_report, or JSON with \"benchmarks\", \"empirical\", "
                         "\"traceEvents\" or \"schema\"; got %.*s", (int)rl_text_clip(got, 70), got);
}

static rl_status detect_json(const char *s, size_t n, rl_import_format *out, rl_error *err) {
    json_sig sig = {0};
    char got[96];
    if (s[0] == '[') { /* a Chrome trace array: its first event names "ph" */
        size_t j = 1;
        while (j < n && isspace((unsigned char)s[j])) j++;
        if (j < n && s[j] == '{') json_signature(s + j, n - j, &sig);
        if (sig.ph) {
            *out = RL_IMPORT_TORCH_TRACE;
            return RL_OK;
        }
    }
    if (s[0] != '{') return detect_error(err, "a JSON array or value, not an object");
    json_signature(s, n, &sig);
    rl_import_format f = sig.record                       ? RL_IMPORT_RECORD
                         : sig.benchmarks                ? RL_IMPORT_GBENCH
                         : sig.empirical                 ? RL_IMPORT_ERT
                         : sig.trace_events              ? RL_IMPORT_TORCH_TRACE
                                                         : RL_IMPORT_FORMAT_COUNT;
    if (f != RL_IMPORT_FORMAT_COUNT) {
        *out = f;
        return RL_OK;
    }
    snprintf(got, sizeof got, "a JSON object with keys %s", sig.keys[0] ? sig.keys : "(none)");
    return detect_error(err, got);
}

/* nsys's header within its first lines; perf_report's printed form or CSV (a header, then a row
 * of numbers). RL_IMPORT_FORMAT_COUNT when neither. */
static rl_import_format detect_csv(const char *text, size_t len, size_t pos) {
    size_t at = pos;
    rl__csv_row row = {0}, next = {0};
    for (int k = 0; k < 17; k++) {
        if (rl__csv_next(text, len, &at, &row) != 1) break;
        int nsys = rl__csv_find(&row, "Name") >= 0 && rl__csv_find(&row, "Instances") >= 0;
        for (size_t c = 0; !nsys && c < row.n; c++)
            nsys = strncmp(row.cells[c], "Duration (", 10) == 0 && rl__csv_find(&row, "Name") >= 0;
        rl__csv_free(&row);
        if (nsys) return RL_IMPORT_NSYS_CSV;
    }
    if (rl__triton_printed(text, len, pos)) return RL_IMPORT_TRITON_CSV;
    at = pos;
    int numbers = 0;
    if (rl__csv_next(text, len, &at, &row) == 1 && row.n >= 2 &&
        rl__csv_next(text, len, &at, &next) == 1 && next.n == row.n) {
        numbers = 1;
        for (size_t c = 0; c < next.n && numbers; c++) {
            double v;
            rl__num_result r = rl__tool_number(next.cells[c], &v);
            numbers = r == RL__NUM_OK || (c > 0 && (r == RL__NUM_ABSENT || strcmp(next.cells[c], "NaN") == 0));
        }
    }
    rl__csv_free(&row);
    rl__csv_free(&next);
    return numbers ? RL_IMPORT_TRITON_CSV : RL_IMPORT_FORMAT_COUNT;
}

rl_status rl_import_detect(const char *text, size_t len, rl_import_format *out, rl_error *err) {
    if (!text) len = 0;
    rl__skip_bom(&text, &len);
    size_t pos = rl__skip_log_lines(text, len);
    while (pos < len && isspace((unsigned char)text[pos])) pos++;
    if (pos == len) return detect_error(err, "an empty file");
    if (text[pos] == '{' || text[pos] == '[') return detect_json(text + pos, len - pos, out, err);
    rl__csv_row header = {0};
    size_t at = pos;
    int ncu = rl__csv_next(text, len, &at, &header) == 1 &&
              rl__csv_find(&header, "Kernel Name") >= 0;
    rl__csv_free(&header);
    if (ncu) {
        *out = RL_IMPORT_NCU_CSV;
        return RL_OK;
    }
    rl_import_format other = detect_csv(text, len, pos);
    if (other != RL_IMPORT_FORMAT_COUNT) {
        *out = other;
        return RL_OK;
    }
    char start[40], got[64];
    size_t line = strcspn(text + pos, "\r\n");
    snprintf(start, sizeof start, "%.*s", (int)rl__utf8_clip(text + pos, line < 24 ? line : 24),
             text + pos);
    char shown[48];
    rl_text_escape(shown, sizeof shown, start);
    snprintf(got, sizeof got, "text starting \"%s\"", shown);
    return detect_error(err, got);
}

rl_status rl_record_import(rl_import_format format, const char *text, size_t len,
                           const rl_import_opts *opts, rl_record **out, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    rl_import_opts o = opts ? *opts : (rl_import_opts){0};
    if (out) *out = NULL;
    if (format == RL_IMPORT_RECORD) {
        rl_status st = rl_record_parse(text, len, out, is);
        rl_rec_issues_free(&local);
        return st;
    }
    if (!text || len > RL_RECORD_MAX_FILE_BYTES) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "", "file is %zu bytes; the limit is %zu bytes (%d MiB)",
                  len, (size_t)RL_RECORD_MAX_FILE_BYTES, RL_RECORD_MAX_FILE_MIB);
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
    case RL_IMPORT_TORCH_TRACE: rl__import_torch(text, len, &o, r, is); break;
    case RL_IMPORT_NSYS_CSV: rl__import_nsys(text, len, &o, r, is); break;
    case RL_IMPORT_TRITON_CSV: rl__import_triton(text, len, &o, r, is); break;
    default: rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "FORMAT", "unknown import format"); break;
    }
    rl_status st = finish(r, before, is, out);
    rl_rec_issues_free(&local);
    return st;
}
