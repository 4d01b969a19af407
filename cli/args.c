/* args.c — argument helpers shared by the subcommands. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_error(const char *cmd, const rl_error *err) {
    if (cmd && cmd[0])
        fprintf(stderr, "rooflab %s: %s\n", cmd, err && err->message[0] ? err->message : "error");
    else
        fprintf(stderr, "rooflab: %s\n", err && err->message[0] ? err->message : "error");
    return CLI_EXIT_USAGE;
}

int cli_errorf(const char *cmd, const char *fmt, ...) {
    if (cmd && cmd[0])
        fprintf(stderr, "rooflab %s: ", cmd);
    else
        fputs("rooflab: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
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
    int ok = t[0] != '\0' && end && *end == '\0' && errno == 0 && t[0] != ' ' && t[0] != '+';
    if (!ok || v < lo || v > hi) {
        err->status = RL_ERR_RANGE;
        snprintf(err->field, sizeof err->field, "%s", field);
        snprintf(err->message, sizeof err->message,
                 "--%s: expected an integer from %" PRId64 " to %" PRId64 ", got \"%.40s\"", field,
                 lo, hi, t);
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

static int missing_value(const char *flag, const char *expected, rl_error *err) {
    err->status = RL_ERR_INVALID;
    snprintf(err->field, sizeof err->field, "%s", flag);
    snprintf(err->message, sizeof err->message, "--%s: missing value; expected %s", flag, expected);
    return -1;
}

typedef struct {
    const char *flag;
    size_t offset; /* into rl_problem */
    int64_t max;
} int_flag;

static const int_flag int_flags[] = {
    {"batch", offsetof(rl_problem, batch), RL_MAX_DIM},
    {"heads", offsetof(rl_problem, heads), RL_MAX_DIM},
    {"kv-heads", offsetof(rl_problem, kv_heads), RL_MAX_DIM},
    {"seq", offsetof(rl_problem, seq), RL_MAX_DIM},
    {"kv-len", offsetof(rl_problem, kv_len), RL_MAX_DIM},
    {"head-dim", offsetof(rl_problem, head_dim), RL_MAX_HEAD_DIM},
    {"block-m", offsetof(rl_problem, block_m), RL_MAX_BLOCK},
    {"block-n", offsetof(rl_problem, block_n), RL_MAX_BLOCK},
};

int cli_problem_flag(int argc, char **argv, int *i, cli_problem_opts *o, rl_error *err) {
    const char *v = NULL;
    for (size_t k = 0; k < sizeof int_flags / sizeof int_flags[0]; k++) {
        if (!cli_flag(argc, argv, i, int_flags[k].flag, &v)) continue;
        if (!v) return missing_value(int_flags[k].flag, "a positive integer", err);
        int64_t *field = (int64_t *)(void *)((char *)&o->problem + int_flags[k].offset);
        if (cli_parse_int(int_flags[k].flag, v, 1, int_flags[k].max, field, err) != RL_OK) return -1;
        return 1;
    }
    static const char *const dtype_flags[2] = {"dtype", "kv-dtype"};
    for (int kv = 0; kv < 2; kv++) {
        if (!cli_flag(argc, argv, i, dtype_flags[kv], &v)) continue;
        if (!v) return missing_value(dtype_flags[kv], "one of fp32, tf32, fp16, bf16, fp8", err);
        if (rl_dtype_parse(v, dtype_flags[kv], kv ? &o->problem.kv_dtype : &o->problem.dtype, err) !=
            RL_OK) {
            as_flag(err);
            return -1;
        }
        return 1;
    }
    if (cli_is_switch(argv[*i], "causal")) {
        o->problem.causal = 1;
        return 1;
    }
    if (cli_flag(argc, argv, i, "pass", &v)) {
        if (!v) return missing_value("pass", "fwd or bwd", err);
        if (strcmp(v, "fwd") == 0) {
            o->problem.pass = RL_PASS_FWD;
        } else if (strcmp(v, "bwd") == 0) {
            o->problem.pass = RL_PASS_BWD;
        } else {
            err->status = RL_ERR_INVALID;
            snprintf(err->field, sizeof err->field, "pass");
            snprintf(err->message, sizeof err->message, "--pass: expected fwd or bwd, got \"%.40s\"", v);
            return -1;
        }
        return 1;
    }
    if (cli_flag(argc, argv, i, "hw", &v)) {
        if (!v) return missing_value("hw", "a preset id (see rooflab hw)", err);
        if (rl_hw_lookup(v, "hw", NULL, err) != RL_OK) {
            as_flag(err);
            return -1;
        }
        o->hw_id = v;
        return 1;
    }
    if (cli_flag(argc, argv, i, "bandwidth", &v)) {
        if (!v) return missing_value("bandwidth", "a rate such as \"3.35 TB/s\"", err);
        if (rl_parse_quantity(v, RL_DIM_BYTES_PER_S, "bandwidth", NULL, NULL, err) != RL_OK) {
            as_flag(err);
            return -1;
        }
        o->bandwidth = v;
        return 1;
    }
    if (cli_flag(argc, argv, i, "peak", &v)) {
        if (!v) return missing_value("peak", "a rate such as \"989 TFLOP/s\"", err);
        if (rl_parse_quantity(v, RL_DIM_FLOPS_PER_S, "peak", NULL, NULL, err) != RL_OK) {
            as_flag(err);
            return -1;
        }
        o->peak = v;
        return 1;
    }
    return 0;
}

void cli_problem_flags_help(FILE *out) {
    fputs("problem:\n"
          "  --batch B          batch size (default 1)\n"
          "  --heads H          query heads (default 8)\n"
          "  --kv-heads HKV     key/value heads; H must be a multiple (default H; GQA/MQA below)\n"
          "  --seq N            query rows per sequence (default 4096; 1 for decode)\n"
          "  --kv-len L         key/value rows (default N; the KV cache length for decode)\n"
          "  --head-dim D       head dimension (default 64)\n"
          "  --dtype T          Q/O element type: fp32 tf32 fp16 bf16 fp8 (default fp16)\n"
          "  --kv-dtype T       K/V element type (default: --dtype)\n"
          "  --causal           causal mask, last query aligned with last key (needs N <= L)\n"
          "  --pass fwd|bwd     forward or backward (backward: 2.5x FLOPs, compulsory bytes only)\n"
          "  --block-m BR       tile query rows of the tiled model (default 64)\n"
          "  --block-n BC       tile key rows of the tiled model (default 64)\n"
          "roof:\n"
          "  --hw PRESET        hardware preset (default h100-sxm; see rooflab hw)\n"
          "  --bandwidth RATE   override the memory bandwidth, e.g. \"3.35 TB/s\", \"2039 GB/s\"\n"
          "  --peak RATE        override the compute peak, e.g. \"989 TFLOP/s\", \"312 TFLOPS\"\n",
          out);
}

rl_status cli_resolve_roof(const cli_problem_opts *o, const rl_hw **hw_out, rl_roof *roof,
                           rl_error *err) {
    const rl_hw *hw = NULL;
    rl_status s = rl_hw_lookup(o->hw_id ? o->hw_id : "h100-sxm", "hw", &hw, err);
    if (s != RL_OK) {
        as_flag(err);
        return s;
    }
    rl_problem p;
    if ((s = rl_problem_resolve(&o->problem, &p, err)) != RL_OK) {
        as_flag(err);
        return s;
    }
    roof->bandwidth_bytes_per_s = hw->bandwidth_bytes_per_s;
    roof->peak_flops_per_s = rl_hw_peak_for_dtype(hw, p.dtype);
    if (o->bandwidth &&
        (s = rl_parse_quantity(o->bandwidth, RL_DIM_BYTES_PER_S, "bandwidth",
                               &roof->bandwidth_bytes_per_s, NULL, err)) != RL_OK) {
        as_flag(err);
        return s;
    }
    if (o->peak && (s = rl_parse_quantity(o->peak, RL_DIM_FLOPS_PER_S, "peak", &roof->peak_flops_per_s,
                                          NULL, err)) != RL_OK) {
        as_flag(err);
        return s;
    }
    if (!(roof->bandwidth_bytes_per_s > 0)) {
        err->status = RL_ERR_INVALID;
        snprintf(err->field, sizeof err->field, "bandwidth");
        snprintf(err->message, sizeof err->message,
                 "--bandwidth: preset %s has no bandwidth figure; expected a rate such as \"3.35 TB/s\"",
                 hw->id);
        return RL_ERR_INVALID;
    }
    if (!(roof->peak_flops_per_s > 0)) {
        err->status = RL_ERR_INVALID;
        snprintf(err->field, sizeof err->field, "peak");
        snprintf(err->message, sizeof err->message,
                 "--peak: preset %s has no %s peak for %s; expected a rate such as \"989 TFLOP/s\"",
                 hw->id, rl_peak_name(rl_peak_for_dtype(p.dtype)), rl_dtype_name(p.dtype));
        return RL_ERR_INVALID;
    }
    if (hw_out) *hw_out = hw;
    return RL_OK;
}
