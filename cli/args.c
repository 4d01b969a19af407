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
        err->status = RL_ERR_RANGE;
        snprintf(err->field, sizeof err->field, "%s", field);
        snprintf(err->message, sizeof err->message,
                 "--%s: expected an integer from %" PRId64 " to %" PRId64 ", got \"%.*s\"", field,
                 lo, hi, CLI_QUOTE(t, 40));
        return RL_ERR_RANGE;
    }
    *out = (int64_t)v;
    err->status = RL_OK;
    return RL_OK;
}

/* Prefix core's "FIELD: ..." message with "--" so it names the flag. */
static void as_flag(rl_error *err) {
    char buf[RL_ERROR_MESSAGE_MAX];
    snprintf(buf, sizeof buf, "--%.*s", (int)sizeof buf - 3, err->message);
    memcpy(err->message, buf, sizeof buf);
}

/* `fmt` quotes `value` with "%.*s": at most 40 bytes, cut on a character boundary. */
static int cli_fail(rl_error *err, const char *field, const char *fmt, const char *value) {
    err->status = RL_ERR_INVALID;
    snprintf(err->field, sizeof err->field, "%s", field);
    snprintf(err->message, sizeof err->message, fmt, CLI_QUOTE(value, 40));
    return -1;
}

static int missing_value(const char *flag, const char *expected, rl_error *err) {
    err->status = RL_ERR_INVALID;
    snprintf(err->field, sizeof err->field, "%s", flag);
    snprintf(err->message, sizeof err->message, "--%s: missing value; expected %s", flag, expected);
    return -1;
}

/* What a field's value looks like, for "missing value" messages. */
static const char *field_expected(rl_field_type type) {
    switch (type) {
    case RL_FTYPE_DTYPE: return "one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8";
    case RL_FTYPE_PASS: return "fwd or bwd";
    case RL_FTYPE_BOOL: return "true or false";
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
            return missing_value(fi->flag, field_expected(fi->type), err);
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

/* A kernel flag: --kernel PROFILE, --gqa-pack packed|per-head, --splits S, --ctas-per-sm K. */
static int kernel_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    const char *v = NULL;
    if (cli_flag(argc, argv, i, "kernel", &v)) {
        if (!v) return missing_value("kernel", "a profile (see rooflab eval --help)", err);
        if (rl_kernel_parse(v, "kernel", &o->kernel.kernel, err) != RL_OK) goto bad;
        o->kernel_given = 1;
        return 1;
    }
    if (cli_flag(argc, argv, i, "gqa-pack", &v)) {
        if (!v) return missing_value("gqa-pack", "packed or per-head", err);
        if (strcmp(v, "packed") == 0) {
            o->kernel.gqa_pack = RL_PACK_PACKED;
        } else if (strcmp(v, "per-head") == 0) {
            o->kernel.gqa_pack = RL_PACK_PER_HEAD;
        } else {
            return cli_fail(err, "gqa-pack", "--gqa-pack: expected packed or per-head, got \"%.*s\"", v);
        }
        return 1;
    }
    if (cli_flag(argc, argv, i, "splits", &v)) {
        if (!v) return missing_value("splits", "a split-KV count from 1 to 128", err);
        if (cli_parse_int("splits", v, 1, 128, &o->kernel.splits, err) != RL_OK) return -1;
        return 1;
    }
    if (cli_flag(argc, argv, i, "cores", &v)) {
        if (!v) return missing_value("cores", "cuda, tensor or cuda-single", err);
        if (strcmp(v, "cuda") == 0) {
            o->kernel.cores = RL_CORES_CUDA;
        } else if (strcmp(v, "tensor") == 0) {
            o->kernel.cores = RL_CORES_TENSOR;
        } else if (strcmp(v, "cuda-single") == 0) {
            o->kernel.cores = RL_CORES_CUDA_SINGLE;
        } else {
            return cli_fail(err, "cores", "--cores: expected cuda, tensor or cuda-single, got \"%.*s\"", v);
        }
        return 1;
    }
    if (cli_flag(argc, argv, i, "ctas-per-sm", &v)) {
        if (!v) return missing_value("ctas-per-sm", "an integer from 1 to 32", err);
        if (cli_parse_int("ctas-per-sm", v, 1, 32, &o->kernel.ctas_per_sm, err) != RL_OK) return -1;
        return 1;
    }
    return 0;
bad:
    as_flag(err);
    return -1;
}

/* --model ID: a real shape (core's table) fills heads, kv-heads and head-dim where no flag set
 * them; flags after it overwrite, so an explicit flag wins in either order. */
static int model_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    const char *v = NULL;
    if (!cli_flag(argc, argv, i, "model", &v)) return 0;
    if (!v) return missing_value("model", "a model id (see rooflab models)", err);
    if (o->model) return cli_fail(err, "model", "--model: given twice (\"%.*s\")", v);
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

static const char *const shared_names[CLI_SF_COUNT - RL_PROBLEM_FIELD_COUNT] = {
    "model", "hw", "bandwidth", "peak", "kernel", "gqa-pack", "splits", "ctas-per-sm", "cores"};

const char *cli_shared_flag_name(int id) {
    if (id >= 0 && id < RL_PROBLEM_FIELD_COUNT) return rl_problem_field_info((rl_problem_field)id)->flag;
    if (id >= RL_PROBLEM_FIELD_COUNT && id < CLI_SF_COUNT) return shared_names[id - RL_PROBLEM_FIELD_COUNT];
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
        err->status = RL_ERR_INVALID;
        snprintf(err->field, sizeof err->field, "%s", cli_shared_flag_name(id));
        snprintf(err->message, sizeof err->message,
                 "--%s: not used by %s%s%s; rooflab %s --help lists the flags it uses",
                 cli_shared_flag_name(id), rules->cmd, why ? ": " : "", why ? why : "", rules->cmd);
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
    if (set & CLI_SF(CLI_SF_GQA_PACK))
        fputs("  --gqa-pack P       packed (a GQA group's query heads share one tile's K/V) or per-head\n", out);
    if (set & CLI_SF(CLI_SF_SPLITS))
        fputs("  --splits S         split-KV count (default: the profile's rule)\n", out);
    if (set & CLI_SF(CLI_SF_CTAS_PER_SM))
        fputs("  --ctas-per-sm K    CTAs resident per SM (default: the profile's, or the SRAM budget's)\n", out);
    if (set & CLI_SF(CLI_SF_CORES))
        fputs("  --cores C          flashinfer: cuda (its CUDA-core decode, N = 1, groups 1-4 and 8; its\n"
              "                     APIs' default) or tensor (default: vLLM's rule, tensor cores when\n"
              "                     H/Hkv > 4 or N > 1); cuda-single: as single_decode_with_kv_cache\n"
              "                     launches it (B = 1)\n", out);
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
