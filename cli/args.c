/* args.c — argument helpers shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rooflab/record.h"

/* Every error line goes through core's sanitiser (rl_text_escape): one line, printable, valid
 * UTF-8, whatever argv or a record held. */
static int error_line(const char *cmd, const char *text) {
    char line[4096];
    rl_text_escape(line, sizeof line, text);
    if (cmd && cmd[0])
        fprintf(stderr, "rooflab %s: %s\n", cmd, line);
    else
        fprintf(stderr, "rooflab: %s\n", line);
    return CLI_EXIT_USAGE;
}

int cli_error(const char *cmd, const rl_error *err) {
    return error_line(cmd, err && err->message[0] ? err->message : "error");
}

int cli_errorf(const char *cmd, const char *fmt, ...) {
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return error_line(cmd, text);
}

void cli_json_string(FILE *out, const char *s) {
    const char *t = s ? s : "";
    size_t len = strlen(t);
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = rl_utf8_next(t + i, len - i, &cp);
        if (n == 0) { /* not UTF-8: the replacement character, so the JSON stays valid */
            fputs("\\ufffd", out);
            i++;
            continue;
        }
        if (cp == '"' || cp == '\\') {
            fprintf(out, "\\%c", (char)cp);
        } else if (cp < 0x20 || cp == 0x7F || rl_char_invisible_name(cp)) {
            if (cp > 0xFFFF) /* a UTF-16 surrogate pair, as JSON spells characters past U+FFFF */
                fprintf(out, "\\u%04x\\u%04x", 0xD800u + ((cp - 0x10000u) >> 10),
                        0xDC00u + ((cp - 0x10000u) & 0x3FFu));
            else
                fprintf(out, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(t + i, 1, n, out);
        }
        i += n;
    }
    fputc('"', out);
}

int cli_is_switch(const char *arg, const char *name) {
    return arg && arg[0] == '-' && arg[1] == '-' && strcmp(arg + 2, name) == 0;
}

int cli_is_help(const char *arg) {
    return arg && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0);
}

int cli_flag(int argc, char **argv, int *i, const char *name, const char **value) {
    const char *arg = argv[*i];
    if (!arg || arg[0] != '-' || arg[1] != '-') return 0;
    size_t n = strlen(name);
    if (strncmp(arg + 2, name, n) != 0) return 0;
    if (arg[2 + n] == '=') {
        *value = arg + 3 + n;
        return 1;
    }
    if (arg[2 + n] != '\0') return 0;
    if (*i + 1 < argc) {
        *value = argv[++*i];
    } else {
        *value = NULL;
    }
    return 1;
}

/* Prefix core's "FIELD: ..." message with "--" so it names the flag. */
static void as_flag(rl_error *err) {
    char buf[RL_ERROR_MESSAGE_MAX];
    snprintf(buf, sizeof buf, "--%.*s", (int)sizeof buf - 3, err->message);
    memcpy(err->message, buf, sizeof buf);
}

rl_status cli_parse_int(const char *field, const char *text, int64_t lo, int64_t hi, int64_t *out,
                        rl_error *err) {
    rl_error local;
    if (!err) err = &local;
    const char *t = text ? text : "";
    char *end = NULL;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    /* strtoll skips leading whitespace: refuse it here, as core refuses it everywhere. */
    int ok = t[0] != '\0' && end && *end == '\0' && errno == 0 && !isspace((unsigned char)t[0]) &&
             t[0] != '+';
    if (!ok || v < lo || v > hi) {
        rl_error_fail(err, RL_ERR_RANGE, field, "expected an integer from %" PRId64 " to %" PRId64
                      ", got \"%.*s\"", lo, hi, CLI_QUOTE(t, 40));
        as_flag(err);
        return RL_ERR_RANGE;
    }
    *out = (int64_t)v;
    err->status = RL_OK;
    return RL_OK;
}

static int missing_value(const char *flag, const char *expected, rl_error *err) {
    rl_error_fail(err, RL_ERR_INVALID, flag, "missing value; expected %s", expected);
    as_flag(err);
    return -1;
}

/* What a field's value looks like, for "missing value" messages. */
static const char *field_expected(rl_field_type type, char *buf, size_t cap) {
    switch (type) {
    case RL_FTYPE_PASS: return "fwd or bwd";
    case RL_FTYPE_BOOL: return "true or false";
    case RL_FTYPE_DTYPE: rl_dtype_choices_text(buf, cap); return buf;
    default: return "a positive integer";
    }
}

/* A problem flag, from core's field table: --FLAG VALUE (a boolean is a bare switch). */
static int problem_field_flag(int argc, char **argv, int *i, rl_problem *p, rl_error *err) {
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        const char *v = NULL;
        if (fi->type == RL_FTYPE_BOOL) {
            if (!cli_is_switch(argv[*i], fi->flag)) continue;
            v = "true";
        } else if (!cli_flag(argc, argv, i, fi->flag, &v)) {
            continue;
        } else if (!v) {
            char buf[128];
            return missing_value(fi->flag, field_expected(fi->type, buf, sizeof buf), err);
        }
        if (rl_problem_set_text(p, (rl_problem_field)f, v, NULL, err) != RL_OK) {
            as_flag(err);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* A roof flag: --hw, --bandwidth, --peak (checked here, resolved by rl_roof_resolve). */
static int roof_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    static const struct {
        const char *flag;
        const char *expected;
    } flags[] = {{"hw", "a preset id (see rooflab hw)"},
                 {"bandwidth", "a rate such as \"3.35 TB/s\""},
                 {"peak", "a rate such as \"989 TFLOP/s\""}};
    const char **slots[] = {&o->hw_id, &o->bandwidth, &o->peak};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        const char *v = NULL;
        if (!cli_flag(argc, argv, i, flags[k].flag, &v)) continue;
        if (!v) return missing_value(flags[k].flag, flags[k].expected, err);
        /* Check the value now, so the error names this flag even if a later flag also fails. */
        if (k == 0 && rl_hw_lookup(v, "hw", NULL, err) != RL_OK) goto bad;
        if (k == 1 && rl_parse_quantity(v, RL_DIM_BYTES_PER_S, "bandwidth", NULL, NULL, err) != RL_OK)
            goto bad;
        if (k == 2 && rl_parse_quantity(v, RL_DIM_FLOPS_PER_S, "peak", NULL, NULL, err) != RL_OK)
            goto bad;
        *slots[k] = v;
        return 1;
    bad:
        as_flag(err);
        return -1;
    }
    return 0;
}

/* A kernel flag, from core's kernel-field table: --kernel PROFILE, --gqa-pack P, --splits S,
 * --ctas-per-sm K, --cores C; values and limits checked by core (rl_kernel_spec_set_text). */
static int kernel_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    for (int f = 0; f < RL_KERNEL_FIELD_COUNT; f++) {
        const rl_kfield_info *fi = rl_kernel_field_info((rl_kernel_field)f);
        const char *v = NULL;
        if (!cli_flag(argc, argv, i, fi->flag, &v)) continue;
        if (!v) {
            char what[200];
            if (fi->type == RL_KTYPE_INT)
                snprintf(what, sizeof what, "an integer from %lld to %lld", (long long)fi->lo,
                         (long long)fi->hi);
            else
                rl_kernel_field_choices_text((rl_kernel_field)f, what, sizeof what);
            return missing_value(fi->flag, what, err);
        }
        if (rl_kernel_spec_set_text(&o->kernel, (rl_kernel_field)f, v, NULL, err) != RL_OK) {
            as_flag(err);
            return -1;
        }
        if (f == RL_KFIELD_KERNEL) o->kernel_given = 1;
        return 1;
    }
    return 0;
}

/* --model ID: a real shape (core's table) fills heads, kv-heads and head-dim where no flag set
 * them; flags after it overwrite, so an explicit flag wins in either order. */
static int model_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    const char *v = NULL;
    if (!cli_flag(argc, argv, i, "model", &v)) return 0;
    if (!v) return missing_value("model", "a model id (see rooflab models)", err);
    if (o->model) {
        rl_error_fail(err, RL_ERR_INVALID, "model", "given twice (\"%.*s\")", CLI_QUOTE(v, 40));
        as_flag(err);
        return -1;
    }
    if (rl_model_shape_lookup(v, "model", &o->model, err) != RL_OK) {
        as_flag(err);
        return -1;
    }
    rl_model_shape_apply(o->model, &o->problem, 1);
    return 1;
}

/* The shape's fields no flag gave are the model's: refilled after every flag, so a later --seq
 * picks an MLA model's form (absorbed decode for seq 1 … 16, MHA otherwise; rl_model_shape_apply)
 * and a flag typed before or after --model wins. */
static void model_refill(cli_problem_opts *o) {
    static const rl_problem_field shape_fields[] = {RL_FIELD_HEADS,      RL_FIELD_KV_HEADS,
                                                    RL_FIELD_HEAD_DIM,   RL_FIELD_HEAD_DIM_V,
                                                    RL_FIELD_KV_LORA_RANK, RL_FIELD_ROPE_DIM};
    for (size_t k = 0; k < sizeof shape_fields / sizeof shape_fields[0]; k++)
        if (!(o->given & CLI_SF(shape_fields[k])))
            rl_problem_set(&o->problem, shape_fields[k], 0, NULL, NULL);
    rl_model_shape_apply(o->model, &o->problem, 1);
}

static const char *const shared_names[CLI_SF_KERNEL - RL_PROBLEM_FIELD_COUNT] = {
    "model", "hw", "bandwidth", "peak"};

const char *cli_shared_flag_name(int id) {
    if (id >= 0 && id < RL_PROBLEM_FIELD_COUNT) return rl_problem_field_info((rl_problem_field)id)->flag;
    if (id >= RL_PROBLEM_FIELD_COUNT && id < CLI_SF_KERNEL) return shared_names[id - RL_PROBLEM_FIELD_COUNT];
    if (id >= CLI_SF_KERNEL && id < CLI_SF_COUNT)
        return rl_kernel_field_info((rl_kernel_field)(id - CLI_SF_KERNEL))->flag;
    return "";
}

int cli_shared_flag_find(const char *arg) {
    if (!arg || arg[0] != '-' || arg[1] != '-') return -1;
    size_t n = strcspn(arg + 2, "=");
    for (int id = 0; id < CLI_SF_COUNT; id++) {
        const char *name = cli_shared_flag_name(id);
        if (strlen(name) == n && strncmp(arg + 2, name, n) == 0) return id;
    }
    return -1;
}

int cli_problem_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    const cli_flag_rules *rules = o->rules;
    int id = cli_shared_flag_find(argv[*i]);
    if (id >= 0 && rules && rules->uses && !(rules->uses & CLI_SF(id))) {
        const char *why = rules->why_not ? rules->why_not[id] : NULL;
        rl_error_fail(err, RL_ERR_INVALID, cli_shared_flag_name(id),
                      "not used by %s%s%s; rooflab %s --help lists the flags it uses", rules->cmd,
                      why ? ": " : "", why ? why : "", rules->cmd);
        as_flag(err);
        return -1;
    }
    int r = model_flag(argc, argv, i, o, err);
    if (r == 0) r = problem_field_flag(argc, argv, i, &o->problem, err);
    if (r == 0) r = roof_flag(argc, argv, i, o, err);
    if (r == 0) r = kernel_flag(argc, argv, i, o, err);
    if (r > 0 && id >= 0) o->given |= CLI_SF(id);
    if (r > 0 && o->model) model_refill(o);
    return r;
}

void cli_flags_help(FILE *out, cli_flag_set set) {
    if (set & (CLI_SF_PROBLEM | CLI_SF(CLI_SF_MODEL))) fputs("problem:\n", out);
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        if (!(set & CLI_SF(f))) continue;
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        char left[32];
        snprintf(left, sizeof left, "--%s%s%s", fi->flag,
                 fi->type == RL_FTYPE_BOOL || fi->type == RL_FTYPE_PASS ? "" : " ", fi->meta);
        if (fi->type == RL_FTYPE_PASS) snprintf(left, sizeof left, "--%s %s", fi->flag, fi->meta);
        fprintf(out, "  %-18s %s\n", left, fi->help);
    }
    if (set & CLI_SF(CLI_SF_MODEL))
        fputs("  --model ID         a real shape: heads, kv-heads, head-dim (see rooflab models);\n"
              "                     flags typed before or after it win\n", out);
    if (set & CLI_SF_ROOF) fputs("roof:\n", out);
    if (set & CLI_SF(CLI_SF_HW))
        fputs("  --hw PRESET        hardware preset (default " RL_DEFAULT_HW "; see rooflab hw)\n", out);
    if (set & CLI_SF(CLI_SF_BANDWIDTH))
        fputs("  --bandwidth RATE   override the memory bandwidth, e.g. \"3.35 TB/s\", \"2039 GB/s\"\n", out);
    if (set & CLI_SF(CLI_SF_PEAK))
        fputs("  --peak RATE        override the compute peak, e.g. \"989 TFLOP/s\", \"312 TFLOPS\"\n", out);
    if (set & CLI_SF_KERNELS) fputs("kernel (the predicted time; DESIGN.md \"Predicted time\"):\n", out);
    if (set & CLI_SF(CLI_SF_KERNEL)) {
        fputs("  --kernel PROFILE   one of:\n", out);
        for (int k = 0; k < RL_KERNEL_COUNT; k++)
            fprintf(out, "      %-15s %s\n", rl_kernel_name((rl_kernel)k),
                    rl_kernel_description((rl_kernel)k));
    }
    for (int f = RL_KFIELD_KERNEL + 1; f < RL_KERNEL_FIELD_COUNT; f++) {
        if (!(set & CLI_SF(CLI_SF_KERNEL + f))) continue;
        const rl_kfield_info *fi = rl_kernel_field_info((rl_kernel_field)f);
        char left[32];
        snprintf(left, sizeof left, "--%s %s", fi->flag, fi->meta);
        fprintf(out, "  %-18s %s\n", left, fi->help);
    }
}

void cli_kernel_flags_help(FILE *out) { cli_flags_help(out, CLI_SF_KERNELS); }

void cli_problem_flags_help(FILE *out) {
    cli_flags_help(out, CLI_SF_PROBLEM | CLI_SF(CLI_SF_MODEL) | CLI_SF_ROOF);
}

rl_status cli_resolve_roof(const cli_problem_opts *o, const rl_hw **hw_out, rl_roof *roof,
                           rl_error *err) {
    rl_problem p;
    rl_status s = rl_hw_lookup(o->hw_id ? o->hw_id : RL_DEFAULT_HW, "hw", NULL, err);
    if (s == RL_OK) s = rl_problem_resolve(&o->problem, &p, err);
    rl_roof_resolved r;
    if (s == RL_OK) {
        rl_roof_request req = {o->hw_id, p.dtype, o->bandwidth, o->peak};
        s = rl_roof_resolve(&req, &r, err);
    }
    if (s != RL_OK) {
        as_flag(err);
        return s;
    }
    *roof = r.roof;
    if (hw_out) *hw_out = r.hw;
    return RL_OK;
}
