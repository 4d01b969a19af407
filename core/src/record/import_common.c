/* import_common.c — what every importer shares (record_internal.h "Importers"): the problem the
 * caller gave, dtype and group names, tool numbers, size checks, input origins, log lines. The
 * importers and the dispatch (import.c) call these; nothing here calls an importer, so the include
 * and call graph has no circle. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

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

size_t rl__skip_log_lines(const char *text, size_t len) {
    size_t pos = 0;
    for (;;) {
        while (pos < len && (text[pos] == '\n' || text[pos] == '\r')) pos++;
        if (!(pos + 1 < len && text[pos] == '=' && text[pos + 1] == '=')) return pos;
        while (pos < len && text[pos] != '\n') pos++;
    }
}

size_t rl__line_at(const char *text, size_t pos, size_t *from, size_t *line) {
    for (; *from < pos; (*from)++)
        if (text[*from] == '\n') (*line)++;
    return *line;
}

