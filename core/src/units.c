/* units.c — quantities with a dimension: parsing ("4.8 TB/s", "312 TFLOPS", "1.5 GiB") and
 * formatting with SI or IEC prefixes. Conventions (DESIGN.md "Units"): SI prefixes k M G T P E
 * are powers of 10³, IEC Ki Mi Gi Ti Pi Ei powers of 2¹⁰; `B` is a byte and `b`/`bit` a bit;
 * `FLOPS` is FLOP/s while `FLOP` and `FLOPs` are counts; `OP` counts like `FLOP`. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define RL_UNIT_TEXT_MAX 64 /* longest accepted input in characters */

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
    {"flop", RL_DIM_FLOP, 1.0},        {"OP", RL_DIM_FLOP, 1.0},
    {"OPs", RL_DIM_FLOP, 1.0},         {"op", RL_DIM_FLOP, 1.0},
    {"FLOP/s", RL_DIM_FLOPS_PER_S, 1.0}, {"FLOPS", RL_DIM_FLOPS_PER_S, 1.0},
    {"FLOPs/s", RL_DIM_FLOPS_PER_S, 1.0}, {"flop/s", RL_DIM_FLOPS_PER_S, 1.0},
    {"flops", RL_DIM_FLOPS_PER_S, 1.0}, {"OP/s", RL_DIM_FLOPS_PER_S, 1.0},
    {"OPS", RL_DIM_FLOPS_PER_S, 1.0},  {"op/s", RL_DIM_FLOPS_PER_S, 1.0},
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

rl_status rl_parse_quantity(const char *text, rl_dim expected, const char *field, double *out_base,
                            rl_dim *out_dim, rl_error *err) {
    if (!field) field = "value";
    if (!text) text = "";
    size_t len = strlen(text);
    if (len > RL_UNIT_TEXT_MAX)
        return rl__fail(err, RL_ERR_INVALID, field, "input is %zu characters long, expected at most %d",
                        len, RL_UNIT_TEXT_MAX);

    const char *p = text;
    while (*p == ' ' || *p == '\t') p++;
    const char *want = expected == RL_DIM_COUNT ? "a number with a unit" : rl_dim_noun(expected);
    const char *example = expected == RL_DIM_COUNT ? "\"3.35 TB/s\"" : dim_example(expected);
    if (*p == '\0')
        return rl__fail(err, RL_ERR_INVALID, field, "empty; expected %s, e.g. %s", want, example);

    /* Scan the number by hand: optional sign, digits, optional fraction, optional exponent.
     * strtod alone would also take "inf", "nan" and hexadecimal, which are not quantities. */
    const char *num = p;
    int negative = 0;
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        p++;
    }
    size_t int_digits = 0, frac_digits = 0;
    while (isdigit((unsigned char)*p)) p++, int_digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) p++, frac_digits++;
    }
    if (int_digits + frac_digits == 0) {
        const char *q = num + (*num == '+' || *num == '-');
        if (strncmp(q, "inf", 3) == 0 || strncmp(q, "Inf", 3) == 0 || strncmp(q, "INF", 3) == 0 ||
            strncmp(q, "nan", 3) == 0 || strncmp(q, "NaN", 3) == 0 || strncmp(q, "NAN", 3) == 0)
            return rl__fail(err, RL_ERR_RANGE, field, "\"%s\" is not finite; expected %s, e.g. %s",
                            text, want, example);
        return rl__fail(err, RL_ERR_INVALID, field,
                        "\"%s\" does not start with a number; expected %s, e.g. %s", text, want,
                        example);
    }
    if ((*p == 'e' || *p == 'E') &&
        (isdigit((unsigned char)p[1]) ||
         ((p[1] == '+' || p[1] == '-') && isdigit((unsigned char)p[2])))) {
        p += 2;
        while (isdigit((unsigned char)*p)) p++;
    }
    char numbuf[RL_UNIT_TEXT_MAX + 1];
    size_t nlen = (size_t)(p - num);
    memcpy(numbuf, num, nlen);
    numbuf[nlen] = '\0';
    double value = strtod(numbuf, NULL);

    while (*p == ' ' || *p == '\t') p++;
    char unit[RL_UNIT_TEXT_MAX + 1];
    size_t ulen = strlen(p);
    while (ulen > 0 && (p[ulen - 1] == ' ' || p[ulen - 1] == '\t')) ulen--;
    memcpy(unit, p, ulen);
    unit[ulen] = '\0';

    rl_dim dim = RL_DIM_NONE;
    double scale = 1.0;
    if (ulen > 0 && !resolve_unit(unit, &dim, &scale))
        return rl__fail(err, RL_ERR_UNIT, field, "unknown unit \"%s\" in \"%s\"; expected %s, e.g. %s",
                        unit, text, want, example);
    if (dim == RL_DIM_NONE && expected != RL_DIM_COUNT) dim = expected; /* bare number */
    if (expected != RL_DIM_COUNT && dim != expected)
        return rl__fail(err, RL_ERR_UNIT, field, "\"%s\" is %s, expected %s, e.g. %s", text,
                        rl_dim_article(dim), rl_dim_noun(expected), example);
    if (negative && value != 0.0)
        return rl__fail(err, RL_ERR_RANGE, field, "\"%s\" is negative; expected a positive %s",
                        text, expected == RL_DIM_COUNT ? "quantity" : rl_dim_noun(dim));
    if (value == 0.0)
        return rl__fail(err, RL_ERR_RANGE, field, "\"%s\" is zero; expected a value greater than zero",
                        text);
    double base = value * scale;
    if (!isfinite(value) || !isfinite(base))
        return rl__fail(err, RL_ERR_RANGE, field,
                        "\"%s\" overflows a double; expected a finite %s", text, rl_dim_noun(dim));
    if (base < 1e-300)
        return rl__fail(err, RL_ERR_RANGE, field, "\"%s\" is too small to represent; expected %s",
                        text, want);
    if (out_base) *out_base = base;
    if (out_dim) *out_dim = dim;
    rl__ok(err);
    return RL_OK;
}

/* Copy with snprintf semantics, returning the length needed. */
static size_t emit(char *buf, size_t cap, const char *fmt, int sig, double mantissa,
                   const char *prefix, const char *unit) {
    int n = snprintf(buf, cap, fmt, sig, mantissa, prefix, unit);
    return n < 0 ? 0 : (size_t)n;
}

size_t rl_format_quantity(double value, rl_dim dim, rl_prefix_style style, int sig, char *buf,
                          size_t cap) {
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    if (sig <= 0) sig = 4;
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
    if (dim == RL_DIM_SECONDS) {
        static const char *const tnames[] = {"s", "ms", "\xC2\xB5s", "ns"};
        double a = fabs(value), m = value;
        int k = 0;
        while (k < 3 && a != 0.0 && a < 0.9995) a *= 1e3, m *= 1e3, k++;
        return emit(buf, cap, "%.*g %s%s", sig, m, "", tnames[k]);
    }
    if (dim == RL_DIM_NONE || dim == RL_DIM_FLOP_PER_BYTE || dim >= RL_DIM_COUNT) {
        int n = snprintf(buf, cap, "%.*g%s", sig, value, unit_sp);
        return n < 0 ? 0 : (size_t)n;
    }
    int use_iec = style == RL_PREFIX_IEC && (dim == RL_DIM_BYTES || dim == RL_DIM_BYTES_PER_S);
    double step = use_iec ? 1024.0 : 1000.0;
    double a = fabs(value), m = value;
    int k = 0;
    while (k < 6 && a >= step) a /= step, m /= step, k++;
    /* Rounding to `sig` digits can carry to the next prefix (999.96 → 1000). */
    char probe[64];
    snprintf(probe, sizeof probe, "%.*g", sig, fabs(m));
    if (k < 6 && strtod(probe, NULL) >= step) m /= step, k++;
    return emit(buf, cap, "%.*g %s%s", sig, m, use_iec ? iec[k] : si[k], unit);
}
