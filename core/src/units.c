/* units.c — quantities with a dimension: parsing ("4.8 TB/s", "312 TFLOPS", "1.5 GiB") and
 * formatting with SI or IEC prefixes. Conventions (MODEL.md "Units"): SI prefixes k M G T P E
 * are powers of 10³, IEC Ki Mi Gi Ti Pi Ei powers of 2¹⁰; `B` is a byte and `b`/`bit` a bit;
 * `FLOPS` is FLOP/s while `FLOP` and `FLOPs` are counts. `OP`/`TOPS` (operations, usually integer)
 * are refused for FLOPs; a bare number where a dimension is expected is refused with a suggestion;
 * commas separate thousands only; no whitespace around the value. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define RL_UNIT_TEXT_MAX 64 /* longest accepted input in bytes */

const char *rl_dim_noun(rl_dim dim) {
    switch (dim) {
    case RL_DIM_NONE: return "a plain number";
    case RL_DIM_BYTES: return "bytes";
    case RL_DIM_BYTES_PER_S: return "bytes per second";
    case RL_DIM_FLOP: return "FLOPs";
    case RL_DIM_FLOPS_PER_S: return "FLOP per second";
    case RL_DIM_SECONDS: return "seconds";
    case RL_DIM_FLOP_PER_BYTE: return "FLOP per byte";
    default: return "a quantity";
    }
}

const char *rl_dim_article(rl_dim dim) {
    switch (dim) {
    case RL_DIM_NONE: return "a plain number";
    case RL_DIM_BYTES: return "a byte count";
    case RL_DIM_BYTES_PER_S: return "a bandwidth";
    case RL_DIM_FLOP: return "a FLOP count";
    case RL_DIM_FLOPS_PER_S: return "a compute rate";
    case RL_DIM_SECONDS: return "a time";
    case RL_DIM_FLOP_PER_BYTE: return "an arithmetic intensity";
    default: return "a quantity";
    }
}

const char *rl_dim_base_unit(rl_dim dim) {
    switch (dim) {
    case RL_DIM_BYTES: return "B";
    case RL_DIM_BYTES_PER_S: return "B/s";
    case RL_DIM_FLOP: return "FLOP";
    case RL_DIM_FLOPS_PER_S: return "FLOP/s";
    case RL_DIM_SECONDS: return "s";
    case RL_DIM_FLOP_PER_BYTE: return "FLOP/B";
    default: return "";
    }
}

/* An example of a valid input per dimension, for error messages. */
static const char *dim_example(rl_dim dim) {
    switch (dim) {
    case RL_DIM_BYTES: return "\"16 MiB\"";
    case RL_DIM_BYTES_PER_S: return "\"3.35 TB/s\"";
    case RL_DIM_FLOP: return "\"2.15 GFLOP\"";
    case RL_DIM_FLOPS_PER_S: return "\"989 TFLOP/s\"";
    case RL_DIM_SECONDS: return "\"3.5 ms\"";
    case RL_DIM_FLOP_PER_BYTE: return "\"153 FLOP/B\"";
    default: return "\"42\"";
    }
}

typedef struct {
    const char *text;
    rl_dim dim;
    double scale; /* multiply to get base units (bits → bytes is 1/8) */
} unit_entry;

/* Units that take a prefix. Longest-match is not needed: each entry must match the whole rest. */
static const unit_entry prefixable_units[] = {
    {"B", RL_DIM_BYTES, 1.0},          {"byte", RL_DIM_BYTES, 1.0},
    {"bytes", RL_DIM_BYTES, 1.0},      {"Byte", RL_DIM_BYTES, 1.0},
    {"Bytes", RL_DIM_BYTES, 1.0},      {"b", RL_DIM_BYTES, 0.125},
    {"bit", RL_DIM_BYTES, 0.125},      {"bits", RL_DIM_BYTES, 0.125},
    {"B/s", RL_DIM_BYTES_PER_S, 1.0},  {"Bps", RL_DIM_BYTES_PER_S, 1.0},
    {"byte/s", RL_DIM_BYTES_PER_S, 1.0}, {"bytes/s", RL_DIM_BYTES_PER_S, 1.0},
    {"b/s", RL_DIM_BYTES_PER_S, 0.125}, {"bps", RL_DIM_BYTES_PER_S, 0.125},
    {"bit/s", RL_DIM_BYTES_PER_S, 0.125}, {"bits/s", RL_DIM_BYTES_PER_S, 0.125},
    {"FLOP", RL_DIM_FLOP, 1.0},        {"FLOPs", RL_DIM_FLOP, 1.0},
    {"flop", RL_DIM_FLOP, 1.0},        
             
    {"FLOP/s", RL_DIM_FLOPS_PER_S, 1.0}, {"FLOPS", RL_DIM_FLOPS_PER_S, 1.0},
    {"FLOPs/s", RL_DIM_FLOPS_PER_S, 1.0}, {"flop/s", RL_DIM_FLOPS_PER_S, 1.0},
    {"flops", RL_DIM_FLOPS_PER_S, 1.0}, 
    {"FLOP/B", RL_DIM_FLOP_PER_BYTE, 1.0}, /* prefixed: "2 kFLOP/B" (plain "FLOP/B" below) */
      
};

/* Units that take no prefix (times carry their own; intensity is a ratio). */
static const unit_entry plain_units[] = {
    {"s", RL_DIM_SECONDS, 1.0},        {"sec", RL_DIM_SECONDS, 1.0},
    {"ms", RL_DIM_SECONDS, 1e-3},      {"us", RL_DIM_SECONDS, 1e-6},
    {"\xC2\xB5s", RL_DIM_SECONDS, 1e-6}, /* µs, MICRO SIGN */
    {"\xCE\xBCs", RL_DIM_SECONDS, 1e-6}, /* μs, GREEK SMALL LETTER MU */
    {"ns", RL_DIM_SECONDS, 1e-9},
    {"FLOP/B", RL_DIM_FLOP_PER_BYTE, 1.0}, {"FLOP/byte", RL_DIM_FLOP_PER_BYTE, 1.0},
    {"FLOP/Byte", RL_DIM_FLOP_PER_BYTE, 1.0}, {"flop/byte", RL_DIM_FLOP_PER_BYTE, 1.0},
    {"flop/B", RL_DIM_FLOP_PER_BYTE, 1.0}, {"FLOPs/B", RL_DIM_FLOP_PER_BYTE, 1.0},
    {"FLOPs/byte", RL_DIM_FLOP_PER_BYTE, 1.0},
};

typedef struct {
    const char *text;
    double scale;
} prefix_entry;

/* Two-letter IEC prefixes first so "Gi" is not read as "G" + "iB". */
static const prefix_entry prefixes[] = {
    {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0}, {"Ei", 1152921504606846976.0},
    {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18},
};

static int lookup_unit(const unit_entry *table, size_t n, const char *s, const unit_entry **out) {
    for (size_t i = 0; i < n; i++) {
        if (strcmp(table[i].text, s) == 0) {
            *out = &table[i];
            return 1;
        }
    }
    return 0;
}

/* Resolve a unit string into dimension and scale. Returns 0 when unknown. */
static int resolve_unit(const char *unit, rl_dim *dim, double *scale) {
    const unit_entry *u = NULL;
    if (lookup_unit(plain_units, sizeof plain_units / sizeof plain_units[0], unit, &u) ||
        lookup_unit(prefixable_units, sizeof prefixable_units / sizeof prefixable_units[0], unit,
                    &u)) {
        *dim = u->dim;
        *scale = u->scale;
        return 1;
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t plen = strlen(prefixes[i].text);
        if (strncmp(unit, prefixes[i].text, plen) != 0 || unit[plen] == '\0') continue;
        if (lookup_unit(prefixable_units, sizeof prefixable_units / sizeof prefixable_units[0],
                        unit + plen, &u)) {
            /* IEC prefixes only make sense for bytes and bits; "GiFLOP/s" is refused. */
            if (plen == 2 && u->dim != RL_DIM_BYTES && u->dim != RL_DIM_BYTES_PER_S) return 0;
            *dim = u->dim;
            *scale = u->scale * prefixes[i].scale;
            return 1;
        }
    }
    return 0;
}

/* ---- Suggestions: a bare number, a case slip, operations instead of FLOPs -------------------- */

/* The unit a bare number is suggested in (MODEL.md "Units"): the first candidate under which the
 * typed number lands in the dimension's typical range for attention on one device, else the
 * first. Bandwidth "2039" → GB/s but "3.35" → TB/s; a peak → TFLOP/s; a time → ms. */
typedef struct {
    rl_dim dim;
    double lo, hi;           /* typical range in base units */
    const char *unit[4];     /* candidates, preferred first; the base unit last */
    double scale[4];
} bare_rule;

static const bare_rule bare_rules[] = {
    {RL_DIM_BYTES_PER_S, 1e10, 1e14, {"GB/s", "TB/s", "B/s", NULL}, {1e9, 1e12, 1.0, 0}},
    {RL_DIM_FLOPS_PER_S, 1e12, 1e16, {"TFLOP/s", "GFLOP/s", "FLOP/s", NULL}, {1e12, 1e9, 1.0, 0}},
    {RL_DIM_SECONDS, 1e-6, 10.0, {"ms", "\xC2\xB5s", "s"}, {1e-3, 1e-6, 1.0}},
    {RL_DIM_BYTES, 1e5, 1e12, {"MB", "GB", "B"}, {1e6, 1e9, 1.0}},
    {RL_DIM_FLOP, 1e6, 1e16, {"GFLOP", "TFLOP", "FLOP"}, {1e9, 1e12, 1.0}},
    {RL_DIM_FLOP_PER_BYTE, 0, 1e300, {"FLOP/B", NULL, NULL}, {1.0, 0, 0}},
};

const char *rl_bare_number_unit(double value, rl_dim dim) {
    for (size_t i = 0; i < sizeof bare_rules / sizeof bare_rules[0]; i++) {
        const bare_rule *r = &bare_rules[i];
        if (r->dim != dim) continue;
        for (int k = 0; k < 4 && r->unit[k]; k++)
            if (value * r->scale[k] >= r->lo && value * r->scale[k] <= r->hi) return r->unit[k];
        return r->unit[0];
    }
    return "";
}

static int ascii_casecmp(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 1;
    return *a != *b;
}

/* The accepted spelling of a unit typed with the wrong case ("tb/s" → "TB/s", "tflops" →
 * "TFLOP/s", "MS" → "ms"), preferring one of dimension `expected`; NULL when none. */
static const char *case_suggestion(const char *unit, rl_dim expected, char *buf, size_t cap) {
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    static const struct { const char *typed, *shown; rl_dim dim; int iec; } base[] = {
        {"B", "B", RL_DIM_BYTES, 1},          {"bit", "bit", RL_DIM_BYTES, 1},
        {"B/s", "B/s", RL_DIM_BYTES_PER_S, 1}, {"bit/s", "bit/s", RL_DIM_BYTES_PER_S, 1},
        {"FLOP", "FLOP", RL_DIM_FLOP, 0},     {"FLOPs", "FLOP", RL_DIM_FLOP, 0},
        {"FLOP/s", "FLOP/s", RL_DIM_FLOPS_PER_S, 0}, {"FLOPS", "FLOP/s", RL_DIM_FLOPS_PER_S, 0},
        {"FLOPs/s", "FLOP/s", RL_DIM_FLOPS_PER_S, 0},
    };
    static const struct { const char *typed, *shown; rl_dim dim; } plain[] = {
        {"s", "s", RL_DIM_SECONDS}, {"ms", "ms", RL_DIM_SECONDS}, {"us", "us", RL_DIM_SECONDS},
        {"ns", "ns", RL_DIM_SECONDS}, {"FLOP/B", "FLOP/B", RL_DIM_FLOP_PER_BYTE},
        {"FLOP/byte", "FLOP/B", RL_DIM_FLOP_PER_BYTE},
    };
    int found = 0;
    char cand[32];
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (ascii_casecmp(unit, plain[i].typed) == 0 && (!found || plain[i].dim == expected)) {
            snprintf(buf, cap, "%s", plain[i].shown);
            found = 1 + (plain[i].dim == expected);
        }
    for (size_t p = 0; p < sizeof pre / sizeof pre[0] && found < 2; p++)
        for (size_t u = 0; u < sizeof base / sizeof base[0]; u++) {
            if (strlen(pre[p]) == 2 && !base[u].iec) continue;
            snprintf(cand, sizeof cand, "%s%s", pre[p], base[u].typed);
            if (ascii_casecmp(unit, cand) != 0 || (found && base[u].dim != expected)) continue;
            snprintf(buf, cap, "%s%s", pre[p], base[u].shown);
            found = 1 + (base[u].dim == expected);
        }
    return found ? buf : NULL;
}

/* "TOPS", "TOP/s", "tops", "OP", "kOPs": operations, whatever their case and prefix. */
static int is_ops_unit(const char *unit) {
    static const char *const ops[] = {"op", "ops", "op/s", "ops/s"};
    int prefixed = unit[0] && strchr("kKmMgGtTpPeE", unit[0]) != NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ascii_casecmp(unit, ops[i]) == 0 || (prefixed && ascii_casecmp(unit + 1, ops[i]) == 0))
            return 1;
    return 0;
}

/* ---- Parsing ------------------------------------------------------------------------------- */

/* The nouns a count may follow with (any case, singular or plural): what the model counts. */
static int is_count_noun(const char *word) {
    static const char *const nouns[] = {"block", "blocks", "cta", "ctas", "tile", "tiles",
                                        "query block", "query blocks", "token", "tokens",
                                        "pass", "passes", "time", "times", "wave", "waves",
                                        "row", "rows", "head", "heads", "split", "splits",
                                        "kernel", "kernels", "sm", "sms", "warp", "warps",
                                        "thread block", "thread blocks", "pair", "pairs"};
    for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
        if (ascii_casecmp(word, nouns[i]) == 0) return 1;
    return 0;
}

typedef struct {
    const char *text, *field, *want, *example;
    rl_dim expected;
} parse_ctx;

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A comma that does not separate thousands: explain, and suggest the decimal point when the
 * comma could only have been a decimal comma ("2,5 TB/s"). */
static rl_status comma_error(const parse_ctx *c, const char *num, rl_error *err) {
    const char *comma = strchr(c->text, ',');
    if (comma && !strchr(comma + 1, ',') && !strchr(c->text, '.') && comma > num &&
        isdigit((unsigned char)comma[-1]) && isdigit((unsigned char)comma[1])) {
        char fixed[RL_UNIT_TEXT_MAX + 1];
        snprintf(fixed, sizeof fixed, "%s", c->text);
        fixed[comma - c->text] = '.';
        return rl__fail(err, RL_ERR_INVALID, c->field,
                        "\"%s\": a comma only separates thousands in groups of three digits "
                        "(\"2,039 GB/s\"); decimal commas are not accepted: did you mean \"%s\"?",
                        c->text, fixed);
    }
    return rl__fail(err, RL_ERR_INVALID, c->field,
                    "\"%s\": a comma only separates thousands in groups of three digits "
                    "(\"2,039 GB/s\"); decimal commas are not accepted, use a point (\"2.5 TB/s\")",
                    c->text);
}

/* Scan the number by hand: optional sign, digits (thousands separated by commas in groups of
 * three), optional fraction, optional exponent. strtod alone would also take "inf", "nan" and
 * hexadecimal, which are not quantities. Writes the number without commas into numbuf. */
static rl_status scan_number(const parse_ctx *c, const char **pp, char *numbuf, rl_error *err) {
    const char *p = *pp, *num = p;
    size_t n = 0, int_digits = 0, frac_digits = 0, group = 0;
    int commas = 0, bad_comma = 0;
    if (*p == '+' || *p == '-') numbuf[n++] = *p++;
    for (; isdigit((unsigned char)*p) || (*p == ',' && int_digits > 0); p++) {
        if (*p == ',') {
            bad_comma |= commas ? group != 3 : group > 3;
            commas++, group = 0;
            continue;
        }
        numbuf[n++] = *p, int_digits++, group++;
    }
    if (commas && group != 3) bad_comma = 1;
    if (*p == '.') {
        numbuf[n++] = *p++;
        while (isdigit((unsigned char)*p)) numbuf[n++] = *p++, frac_digits++;
    }
    if (int_digits + frac_digits == 0) {
        const char *q = num + (*num == '+' || *num == '-');
        if (strncmp(q, "inf", 3) == 0 || strncmp(q, "Inf", 3) == 0 || strncmp(q, "INF", 3) == 0 ||
            strncmp(q, "nan", 3) == 0 || strncmp(q, "NaN", 3) == 0 || strncmp(q, "NAN", 3) == 0)
            return rl__fail(err, RL_ERR_RANGE, c->field, "\"%s\" is not finite; expected %s, e.g. %s",
                            c->text, c->want, c->example);
        return rl__fail(err, RL_ERR_INVALID, c->field,
                        "\"%s\" does not start with a number; expected %s, e.g. %s", c->text,
                        c->want, c->example);
    }
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) || ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
        numbuf[n++] = *p++, numbuf[n++] = *p++;
        while (isdigit((unsigned char)*p)) numbuf[n++] = *p++;
    }
    numbuf[n] = '\0';
    if (bad_comma || strchr(p, ','))
        return comma_error(c, num, err);
    *pp = p;
    return RL_OK;
}

/* A unit that is not one: operations for FLOPs, a case slip, or unknown. */
static rl_status unit_error(const parse_ctx *c, const char *unit, const char *num, size_t num_len,
                            rl_error *err) {
    char fix[32];
    if (is_ops_unit(unit))
        return rl__fail(err, RL_ERR_UNIT, c->field,
                        "\"%s\": OP and TOPS count operations (on tensor cores usually integer, "
                        "e.g. INT8), not floating-point operations; expected %s, e.g. %s", c->text,
                        c->expected == RL_DIM_COUNT ? "FLOP or FLOP/s" : c->want,
                        c->expected == RL_DIM_FLOP ? "\"2.15 GFLOP\"" : "\"989 TFLOP/s\"");
    if (case_suggestion(unit, c->expected, fix, sizeof fix))
        return rl__fail(err, RL_ERR_UNIT, c->field,
                        "unknown unit \"%s\" in \"%s\" (units and prefixes are case-sensitive): "
                        "did you mean \"%.*s %s\"?", unit, c->text, (int)num_len, num, fix);
    return rl__fail(err, RL_ERR_UNIT, c->field, "unknown unit \"%s\" in \"%s\"; expected %s, e.g. %s",
                    unit, c->text, c->want, c->example);
}

/* The value's range, then a bare number where a dimension is expected. */
static rl_status check_value(const parse_ctx *c, int negative, double value, double scale,
                             rl_dim dim, int bare, const char *num, size_t num_len, rl_error *err) {
    if (negative && value != 0.0)
        return rl__fail(err, RL_ERR_RANGE, c->field, "\"%s\" is negative; expected a positive %s",
                        c->text, c->expected == RL_DIM_COUNT ? "quantity" : rl_dim_noun(dim));
    /* A numeral with a non-zero digit that reads as 0 ("1e-999") underflowed: the same words as
     * any value below the bound ("1e-310"), never "zero". */
    int nonzero_digit = 0;
    for (size_t k = 0; k < num_len && num[k] != 'e' && num[k] != 'E'; k++)
        if (num[k] >= '1' && num[k] <= '9') nonzero_digit = 1;
    double base = value * scale;
    if ((value == 0.0 && nonzero_digit) || (value != 0.0 && isfinite(base) && base < 1e-300))
        return rl__fail(err, RL_ERR_RANGE, c->field,
                        "\"%s\" underflows: it is below 1e-300 (in base units), the smallest "
                        "magnitude a quantity may have; expected %s", c->text, c->want);
    if (value == 0.0)
        return rl__fail(err, RL_ERR_RANGE, c->field,
                        "\"%s\" is zero; expected a value greater than zero", c->text);
    if (!isfinite(value) || !isfinite(base))
        return rl__fail(err, RL_ERR_RANGE, c->field,
                        "\"%s\" overflows a double; expected a finite %s", c->text, rl_dim_noun(dim));
    if (bare && dim != RL_DIM_NONE)
        return rl__fail(err, RL_ERR_UNIT, c->field, "%s \xE2\x80\x94 %s needs a unit: did you mean \"%.*s %s\"?",
                        c->text, rl_dim_article(dim), (int)num_len, num,
                        rl_bare_number_unit(value, dim));
    return RL_OK;
}

/* A space character other than U+0020 (Unicode's Zs category). */
static int is_other_space(uint32_t cp) {
    return cp == 0x00A0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

rl_status rl_parse_quantity(const char *text, rl_dim expected, const char *field, double *out_base,
                            rl_dim *out_dim, rl_error *err) {
    parse_ctx c = {text ? text : "", field ? field : "value", NULL, NULL, expected};
    size_t len = strlen(c.text);
    if (len > RL_UNIT_TEXT_MAX)
        return rl__fail(err, RL_ERR_INVALID, c.field,
                        "input is %zu characters (%zu bytes) long, expected at most %d bytes",
                        rl_text_length(c.text), len, RL_UNIT_TEXT_MAX);
    /* A no-break, thin or zero-width space, a direction mark ...: refused by name, never taken for
     * a space or read as part of a unit (MODEL.md "Units"). */
    for (size_t i = 0, k = 1; i < len; k++) {
        uint32_t cp = 0;
        size_t n = rl__utf8_decode((const unsigned char *)c.text + i, len - i, &cp);
        if (n == 0)
            return rl__fail(err, RL_ERR_INVALID, c.field,
                            "character %zu is the byte 0x%02X, not valid UTF-8; expected %s, e.g. %s",
                            k, (unsigned char)c.text[i],
                            expected == RL_DIM_COUNT ? "a number with a unit" : rl_dim_noun(expected),
                            expected == RL_DIM_COUNT ? "\"3.35 TB/s\"" : dim_example(expected));
        const char *name = rl_char_invisible_name(cp);
        if (name) {
            int space = is_other_space(cp);
            return rl__fail(err, RL_ERR_INVALID, c.field,
                            "character %zu is U+%04X %s, %s; type %s", k, (unsigned)cp, name,
                            space ? "which looks like a space but is not one"
                                  : "an invisible or direction character",
                            space ? "a plain space (U+0020) between the value and its unit"
                                  : "the quantity without it, e.g. \"2039 GB/s\"");
        }
        i += n;
    }
    c.want = expected == RL_DIM_COUNT ? "a number with a unit" : rl_dim_noun(expected);
    c.example = expected == RL_DIM_COUNT ? "\"3.35 TB/s\"" : dim_example(expected);
    const char *p = c.text;
    while (is_blank(*p)) p++;
    if (*p == '\0')
        return rl__fail(err, RL_ERR_INVALID, c.field, "empty; expected %s, e.g. %s", c.want, c.example);
    if (p != c.text || is_blank(c.text[len - 1]))
        return rl__fail(err, RL_ERR_INVALID, c.field,
                        "\"%s\" has a space or tab before or after it; expected the value alone, "
                        "e.g. %s", c.text, c.example);
    char numbuf[RL_UNIT_TEXT_MAX + 1];
    rl_status s = scan_number(&c, &p, numbuf, err);
    if (s != RL_OK) return s;
    const char *num = c.text;
    size_t num_len = (size_t)(p - c.text);
    double value = strtod(numbuf, NULL);
    while (is_blank(*p)) p++;
    rl_dim dim = RL_DIM_NONE;
    double scale = 1.0;
    /* A count may carry the noun it counts ("128 blocks", "128 CTAs"): only where a plain
     * number is asked for, and only the nouns of this model's counts (issue 20). */
    int counted = expected == RL_DIM_NONE && *p && is_count_noun(p);
    if (*p && !counted && !resolve_unit(p, &dim, &scale)) return unit_error(&c, p, num, num_len, err);
    int bare = *p == '\0' || counted;
    if (bare && expected != RL_DIM_COUNT) dim = expected;
    if (expected != RL_DIM_COUNT && dim != expected)
        return rl__fail(err, RL_ERR_UNIT, c.field, "\"%s\" is %s, expected %s, e.g. %s", c.text,
                        rl_dim_article(dim), rl_dim_noun(expected), c.example);
    s = check_value(&c, numbuf[0] == '-', value, scale, dim, bare, num, num_len, err);
    if (s != RL_OK) return s;
    if (out_base) *out_base = value * scale;
    if (out_dim) *out_dim = dim;
    rl__ok(err);
    return RL_OK;
}

/* Copy with snprintf semantics, returning the length needed. */
static size_t emit(char *buf, size_t cap, const char *num, const char *prefix, const char *unit) {
    int n = snprintf(buf, cap, "%s %s%s", num, prefix, unit);
    return n < 0 ? 0 : (size_t)n;
}

/* Digits `d` (no point) followed by `zeros` zeros, grouped by three with commas, after `sign`. */
static void group_digits(const char *sign, const char *d, int zeros, char *out, size_t cap) {
    char all[64];
    int n = snprintf(all, sizeof all, "%s", d);
    while (zeros-- > 0 && n < (int)sizeof all - 1) all[n++] = '0';
    all[n] = '\0';
    size_t o = 0;
    o += (size_t)snprintf(out, cap, "%s", sign);
    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = all[i];
    }
    out[o < cap ? o : cap - 1] = '\0';
}

/*
 * One number as a person reads it, never in e-notation (issue 20): `sig` significant digits;
 * an integer part of four digits or more grouped by three with commas ("16,384", "2,039.5"); a
 * whole number of more digits than `sig` shown whole ("316,544", not "3.165e+05"; from 10^15 on
 * rounded to `sig` digits and padded with zeros); small values with a leading "0.000..." down to
 * 10^-9; beyond 10^21 or below 10^-9 a power of ten written out ("1.5 × 10²⁴"). The parser
 * (rl_parse_quantity) reads every form but the last back.
 */
static void plain_number(double v, int sig, char *out, size_t cap) {
    double a = fabs(v);
    const char *sign = v < 0 ? "-" : "";
    char t[64];
    if (a == 0.0) {
        snprintf(out, cap, "0");
        return;
    }
    /* The value rounded to `sig` digits, as %e gives it: mantissa digits and exponent. */
    snprintf(t, sizeof t, "%.*e", sig - 1, a);
    int e = atoi(strchr(t, 'e') + 1);
    if (e >= 21 || e < -9) {
        static const char *const sup[] = {"\xE2\x81\xB0", "\xC2\xB9", "\xC2\xB2", "\xC2\xB3",
                                          "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6",
                                          "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9"};
        char m[32], ex[48] = "";
        snprintf(m, sizeof m, "%.*g", sig, a / pow(10.0, e));
        char digits[8];
        int nd = snprintf(digits, sizeof digits, "%d", e < 0 ? -e : e);
        if (e < 0) strcat(ex, "\xE2\x81\xBB"); /* superscript minus */
        for (int i = 0; i < nd; i++) strcat(ex, sup[digits[i] - '0']);
        snprintf(out, cap, "%s%s \xC3\x97 10%s", sign, m, ex);
        return;
    }
    if (e >= 15) { /* past 2^53: the rounded digits, then zeros */
        char d[32];
        size_t k = 0;
        for (const char *q = t; *q && *q != 'e'; q++)
            if (isdigit((unsigned char)*q)) d[k++] = *q;
        d[k] = '\0';
        group_digits(sign, d, e + 1 - (int)k, out, cap);
        return;
    }
    if (e >= sig) { /* a whole number longer than `sig` digits: all of it */
        snprintf(t, sizeof t, "%.0f", a);
        group_digits(sign, t, 0, out, cap);
        return;
    }
    /* Fixed point with `sig` significant digits, trailing zeros dropped (as %g does). */
    int decimals = sig - 1 - e;
    if (decimals < 0) decimals = 0;
    snprintf(t, sizeof t, "%.*f", decimals, a);
    if (strchr(t, '.')) {
        size_t n = strlen(t);
        while (n > 0 && t[n - 1] == '0') t[--n] = '\0';
        if (n > 0 && t[n - 1] == '.') t[--n] = '\0';
    }
    char *dot = strchr(t, '.');
    char frac[40] = "";
    if (dot) {
        snprintf(frac, sizeof frac, "%s", dot);
        *dot = '\0';
    }
    char whole[64];
    group_digits(sign, t, 0, whole, sizeof whole);
    snprintf(out, cap, "%s%s", whole, frac);
}

/* The formatter's tables (MODEL.md "Units"): prefixes for 1000^k / 1024^k, the units a time takes. */
static const char *const si[RL_PREFIX_COUNT] = {"", "k", "M", "G", "T", "P", "E"};
static const char *const iec[RL_PREFIX_COUNT] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
static const char *const tnames[RL_TIME_UNIT_COUNT] = {"s", "ms", "\xC2\xB5s", "ns"};

const char *rl_prefix_name(rl_prefix_style style, int k) {
    if (k < 0 || k >= RL_PREFIX_COUNT) return "";
    return style == RL_PREFIX_IEC ? iec[k] : si[k];
}

const char *rl_time_unit_name(int k) { return k >= 0 && k < RL_TIME_UNIT_COUNT ? tnames[k] : ""; }

size_t rl_format_quantity(double value, rl_dim dim, rl_prefix_style style, int sig, char *buf,
                          size_t cap) {
    if (sig <= 0) sig = RL_FORMAT_DEFAULT_SIG;
    if (sig > 17) sig = 17;
    const char *unit = rl_dim_base_unit(dim);
    const char *sep = unit[0] ? " " : "";
    char unit_sp[16];
    snprintf(unit_sp, sizeof unit_sp, "%s%s", sep, unit);

    if (!isfinite(value)) {
        int n = snprintf(buf, cap, "%s%s", isnan(value) ? "NaN" : (value > 0 ? "inf" : "-inf"),
                         unit_sp);
        return n < 0 ? 0 : (size_t)n;
    }
    char num[96];
    if (dim == RL_DIM_SECONDS) {
        double a = fabs(value), m = value;
        int k = 0;
        while (k < RL_TIME_UNIT_COUNT - 1 && a != 0.0 && a < 0.9995) a *= 1e3, m *= 1e3, k++;
        plain_number(m, sig, num, sizeof num);
        return emit(buf, cap, num, "", tnames[k]);
    }
    if (dim == RL_DIM_NONE || dim == RL_DIM_FLOP_PER_BYTE || dim >= RL_DIM_COUNT) {
        plain_number(value, sig, num, sizeof num);
        int n = snprintf(buf, cap, "%s%s", num, unit_sp);
        return n < 0 ? 0 : (size_t)n;
    }
    int use_iec = style == RL_PREFIX_IEC && (dim == RL_DIM_BYTES || dim == RL_DIM_BYTES_PER_S);
    double step = use_iec ? 1024.0 : 1000.0;
    double a = fabs(value), m = value;
    int k = 0;
    while (k < RL_PREFIX_COUNT - 1 && a >= step) a /= step, m /= step, k++;
    /* Rounding to `sig` digits can carry to the next prefix (999.96 → 1000). */
    char probe[64];
    snprintf(probe, sizeof probe, "%.*g", sig, fabs(m));
    if (k < RL_PREFIX_COUNT - 1 && strtod(probe, NULL) >= step) m /= step, k++;
    plain_number(m, sig, num, sizeof num);
    return emit(buf, cap, num, use_iec ? iec[k] : si[k], unit);
}

const char *rl__num(double v, char buf[32]) {
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v || !isfinite(v)) break;
    }
    return buf;
}
