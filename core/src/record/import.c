/* import.c — other tools' output → rl_record: the format names, what every importer shares, and
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

unsigned rl__problem_given(const rl_import_opts *o) {
    unsigned given = o->problem_given;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT && f < 32; f++)
        if (rl_problem_get(&o->problem, (rl_problem_field)f) != 0) given |= 1u << f;
    return given;
}

int rl__require_problem(const rl_import_opts *o, const rl_problem_field *need, size_t n,
                        const char *what, rl_rec_issues *is) {
    unsigned given = rl__problem_given(o);
    char all[120] = "", missing[120] = "";
    for (size_t i = 0; i < n; i++) {
        const char *flag = rl_problem_field_info(need[i])->flag;
        size_t a = strlen(all), m = strlen(missing);
        snprintf(all + a, sizeof all - a, "%s--%s", a ? ", " : "", flag);
        if (!(given & (1u << need[i])))
            snprintf(missing + m, sizeof missing - m, "%s--%s", m ? ", " : "", flag);
    }
    if (!missing[0]) return 0;
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "problem",
                     "%s; give %s (missing: %s), and --kv-heads, --kv-len, --dtype, --causal, "
                     "--pass where they differ from the defaults", what, all, missing);
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

/* ---------------------------------------------------------------------------------------------
 * Grouping by name (a sort: O(n log n) whatever the names)
 * ------------------------------------------------------------------------------------------- */

typedef struct named {
    const char *name;
    size_t index;
} named;

static int cmp_named(const void *a, const void *b) {
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

int rl__group_names(const char *const *names, size_t n, size_t *group, size_t *ngroups) {
    named *v = malloc((n ? n : 1) * sizeof *v);
    size_t *first = malloc((n ? n : 1) * sizeof *first);
    if (!v || !first) {
        free(v);
        free(first);
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (names[i]) v[m++] = (named){names[i], i};
    qsort(v, m, sizeof *v, cmp_named);
    for (size_t i = 0; i < n; i++) first[i] = SIZE_MAX;
    /* each name's first appearance: the head of its run in the sorted order */
    for (size_t k = 0; k < m; k++)
        first[v[k].index] = k && strcmp(v[k].name, v[k - 1].name) == 0 ? first[v[k - 1].index]
                                                                         : v[k].index;
    size_t ng = 0;
    for (size_t i = 0; i < n; i++)
        group[i] = first[i] == SIZE_MAX ? SIZE_MAX : first[i] == i ? ng++ : group[first[i]];
    *ngroups = ng;
    free(v);
    free(first);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Numbers in tools' output: one strict routine
 * ------------------------------------------------------------------------------------------- */

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A decimal comma: only digits, '.' and ',', with a '.' before the last ',' or the last ','
 * followed by other than exactly three digits. */
static int decimal_comma(const char *s, size_t n) {
    const char *last = NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ',') last = s + i;
        else if (s[i] != '.' && !isdigit((unsigned char)s[i])) return 0;
    }
    if (!last) {
        const char *dot = memchr(s, '.', n);
        return dot && memchr(dot + 1, '.', (size_t)(s + n - dot - 1)) != NULL; /* "1.571.200" */
    }
    size_t tail = (size_t)(s + n - last - 1);
    return memchr(s, '.', (size_t)(last - s)) != NULL || tail != 3;
}

/* The C-locale grammar on s[0 .. n): digits (thousands groups "1,234,567"), optional fraction,
 * optional exponent. 1 when it matches. */
static int c_number(const char *s, size_t n) {
    size_t i = 0, lead = 0;
    while (i < n && isdigit((unsigned char)s[i])) i++;
    lead = i;
    while (i < n && s[i] == ',') {
        if (lead == 0 || lead > 3 || i + 4 > n) return 0;
        for (size_t k = 1; k <= 3; k++)
            if (!isdigit((unsigned char)s[i + k])) return 0;
        i += 4;
        if (i < n && isdigit((unsigned char)s[i])) return 0;
    }
    size_t digits = i;
    if (i < n && s[i] == '.') {
        size_t f = ++i;
        while (i < n && isdigit((unsigned char)s[i])) i++;
        digits += i - f;
    }
    if (digits == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t e = i;
        while (i < n && isdigit((unsigned char)s[i])) i++;
        if (i == e) return 0;
    }
    return i == n;
}

rl__num_result rl__tool_number(const char *s, double *out) {
    if (!s) return RL__NUM_ABSENT;
    while (is_blank(*s)) s++;
    size_t n = strlen(s);
    while (n && is_blank(s[n - 1])) n--;
    if (n == 0 || (n == 3 && (strncmp(s, "n/a", 3) == 0 || strncmp(s, "N/A", 3) == 0)) ||
        (n == 1 && s[0] == '-'))
        return RL__NUM_ABSENT;
    int neg = s[0] == '-';
    const char *body = s + neg;
    size_t bn = n - (size_t)neg;
    if (bn > 64) return RL__NUM_BAD;
    if (!c_number(body, bn)) return decimal_comma(body, bn) ? RL__NUM_DECIMAL_COMMA : RL__NUM_BAD;
    char buf[72];
    size_t o = 0;
    for (size_t i = 0; i < bn; i++)
        if (body[i] != ',') buf[o++] = body[i];
    buf[o] = '\0';
    double v = strtod(buf, NULL);
    if (!isfinite(v)) return RL__NUM_RANGE;
    if (neg && v > 0) return RL__NUM_NEGATIVE;
    *out = v;
    return RL__NUM_OK;
}

int rl__number_issue(rl_rec_issues *is, const char *path, const char *cell, rl__num_result why) {
    char shown[48];
    rl_text_escape(shown, sizeof shown, cell);
    switch (why) {
    case RL__NUM_DECIMAL_COMMA:
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path,
                         "got \"%s\": a decimal comma (another locale's numbers); expected "
                         "numbers like 1,571.20 (export with LC_ALL=C)", shown);
    case RL__NUM_NEGATIVE:
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, path,
                         "expected a non-negative number, got \"%s\"", shown);
    case RL__NUM_RANGE:
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, path,
                         "expected a finite number, got \"%s\" (beyond the double range)", shown);
    default:
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path,
                         "expected a number such as 1,571.20 (',' only between groups of three "
                         "digits), got \"%s\"", shown);
    }
}

void rl__skip_bom(const char **text, size_t *len) {
    if (*text && *len >= 3 && memcmp(*text, "\xEF\xBB\xBF", 3) == 0) {
        *text += 3;
        *len -= 3;
    }
}

/* The fewest bytes one point adds to a record as `rooflab import` writes it (indented): every
 * problem field at its shortest (1, fp8, true, fwd), the median time and the FLOPs as "1", the
 * traffic model. Every imported point writes at least these keys, so points × this is a lower
 * bound of the written size. 0 when it cannot be measured (out of memory). */
static size_t min_point_bytes(void) {
    rl_record *r = rl_record_new(RL_PROV_MEASURED);
    size_t n0 = 0, n1 = 0;
    /* the writer wants the mandatory strings; they cancel out in n1 - n0 */
    if (r && (rl_rec_set_string(&r->hardware.name, "h") || rl_rec_set_string(&r->software.kernel_version, "1"))) {
        rl_record_free(r);
        return 0;
    }
    char *j = r ? rl_record_write_json(r, 1, NULL) : NULL;
    if (j) n0 = strlen(j);
    free(j);
    rl_rec_point *pt = r ? rl_record_add_point(r) : NULL;
    if (pt) {
        for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
            const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
            rl_problem_set_text(&pt->problem, (rl_problem_field)f,
                                fi->type == RL_FTYPE_DTYPE  ? "fp8"
                                : fi->type == RL_FTYPE_BOOL ? "true"
                                : fi->type == RL_FTYPE_PASS ? "fwd"
                                                            : "1",
                                NULL, NULL);
        }
        pt->time_median_s = 1;
        pt->flops = 1;
        j = rl_record_write_json(r, 1, NULL);
        if (j) n1 = strlen(j);
        free(j);
    }
    rl_record_free(r);
    return n1 > n0 ? n1 - n0 : 0;
}

int rl__import_size_check(size_t points, size_t string_bytes, rl_rec_issues *is) {
    size_t per = min_point_bytes();
    if (per == 0 || points == 0) return 0;
    size_t est = points * per + string_bytes; /* points ≤ RL_RECORD_MAX_POINTS: no overflow */
    if (est + 1 <= RL_RECORD_MAX_FILE_BYTES) return 0;
    return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                     "the imported record would be at least %zu bytes (%zu points of at least %zu "
                     "bytes each, and their names); the limit is %zu bytes (%d MiB) per record: "
                     "split the input (refused before building it)",
                     est + 1, points, per, (size_t)RL_RECORD_MAX_FILE_BYTES, RL_RECORD_MAX_FILE_MIB);
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

static rl__origins *origins_of(rl_record *r) {
    if (!r->origins) r->origins = calloc(1, sizeof *r->origins);
    return r->origins;
}

int rl__set_origin(rl_record *r, size_t k, const char *fmt, ...) {
    rl__origins *o = origins_of(r);
    if (!o) return -1;
    if (k >= o->n) {
        size_t n = k + 1 > o->n * 2 ? k + 1 : o->n * 2;
        char **b = realloc(o->base, n * sizeof *b);
        if (!b) return -1;
        memset(b + o->n, 0, (n - o->n) * sizeof *b);
        o->base = b;
        o->n = n;
    }
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(o->base[k]);
    o->base[k] = malloc(strlen(buf) + 1);
    if (!o->base[k]) return -1;
    memcpy(o->base[k], buf, strlen(buf) + 1);
    return 0;
}

void rl__set_origin_fields(rl_record *r, const char *time, const char *flops, const char *bytes,
                           const char *problem) {
    rl__origins *o = origins_of(r);
    if (!o) return;
    const char *f[RL__ORIGIN_KINDS] = {time, flops, bytes, problem};
    for (int i = 0; i < RL__ORIGIN_KINDS; i++)
        if (f[i]) o->field[i] = f[i];
}

int rl__set_ceiling_origin(rl_record *r, size_t k, const char *place) {
    rl__origins *o = origins_of(r);
    if (!o) return -1;
    if (k >= o->n_ceil) {
        size_t n = k + 1 > o->n_ceil * 2 ? k + 1 : o->n_ceil * 2;
        char **c = realloc(o->ceil, n * sizeof *c);
        if (!c) return -1;
        memset(c + o->n_ceil, 0, (n - o->n_ceil) * sizeof *c);
        o->ceil = c;
        o->n_ceil = n;
    }
    free(o->ceil[k]);
    o->ceil[k] = rl__strndup(place, strlen(place));
    return o->ceil[k] ? 0 : -1;
}

void rl__origins_free(rl_record *r) {
    if (!r || !r->origins) return;
    for (size_t k = 0; k < r->origins->n; k++) free(r->origins->base[k]);
    for (size_t k = 0; k < r->origins->n_ceil; k++) free(r->origins->ceil[k]);
    free(r->origins->ceil);
    free(r->origins->base);
    free(r->origins);
    r->origins = NULL;
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

size_t rl__skip_log_lines(const char *text, size_t len) {
    size_t pos = 0;
    for (;;) {
        while (pos < len && (text[pos] == '\n' || text[pos] == '\r')) pos++;
        if (!(pos + 1 < len && text[pos] == '=' && text[pos + 1] == '=')) return pos;
        while (pos < len && text[pos] != '\n') pos++;
    }
}

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

size_t rl__line_at(const char *text, size_t pos, size_t *from, size_t *line) {
    for (; *from < pos; (*from)++)
        if (text[*from] == '\n') (*line)++;
    return *line;
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
