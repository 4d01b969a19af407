/* cmd_sweep.c — `rooflab sweep`: one parameter over a range, every traffic model, CSV or JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SWEEP_MAX_POINTS 4096

/* sweep evaluates the traffic models: every problem and roof flag, no kernel flag. */
static const char *const sweep_why_not[CLI_SF_COUNT] = {
    [CLI_SF_KERNEL] = "it evaluates the traffic models, not a kernel's predicted time (rooflab eval "
                      "--kernel does)",
    [CLI_SF_GQA_PACK] = "it evaluates the traffic models, not a kernel's predicted time",
    [CLI_SF_SPLITS] = "it evaluates the traffic models, not a kernel's predicted time",
    [CLI_SF_CTAS_PER_SM] = "it evaluates the traffic models, not a kernel's predicted time",
    [CLI_SF_CORES] = "it evaluates the traffic models, not a kernel's predicted time",
};
static const cli_flag_rules sweep_rules = {"sweep", CLI_SF_ALL & ~CLI_SF_KERNELS, sweep_why_not};

static void sweep_help(FILE *out) {
    fputs("usage: rooflab sweep [--param P] [--from A] [--to B] [--points K] [--linear]\n"
          "                     [--format csv|json] [problem flags] [roof flags]\n\n"
          "Evaluates the problem with one parameter swept over [A, B] (log-spaced integers unless\n"
          "--linear; duplicates after rounding are dropped) and prints, for each value and each\n"
          "traffic model: bytes, intensity, attainable FLOP/s, bound time and regime.\n"
          "  --param P    seq (default), kv-len, batch, heads, head-dim, block-m, block-n\n"
          "  --from A     first value (default 128)\n"
          "  --to B       last value (default 1048576)\n"
          "  --points K   number of values, 1 to 4096 (default 32)\n"
          "  --linear     linear spacing instead of logarithmic\n"
          "  --format F   csv (default) or json\n\n",
          out);
    cli_flags_help(out, sweep_rules.uses);
}

static void print_csv(const char *name, const rl_sweep_row *rows, size_t n) {
    printf("%s,flops", name);
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        const char *mn = rl_model_name((rl_model)m);
        printf(",bytes_%s,intensity_%s,attainable_flops_per_s_%s,time_s_%s,bound_%s", mn, mn, mn, mn, mn);
    }
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        const rl_sweep_row *r = &rows[i];
        printf("%lld,%.17g", (long long)r->x, r->flops);
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            if (r->bytes[m] > 0)
                printf(",%.17g,%.17g,%.17g,%.17g,%s", r->bytes[m], r->intensity_flop_per_byte[m],
                       r->attainable_flops_per_s[m], r->time_s[m], rl_bound_name(r->bound[m]));
            else
                printf(",,,,,");
        }
        printf("\n");
    }
}

/* One object: the roof, then "rows" (one per value: the swept value under the parameter's name,
 * F, and per traffic model its point, null where the model has none). */
static void print_json(const char *name, const rl_hw *hw, rl_roof roof, const rl_sweep_row *rows,
                       size_t n) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "param", name);
    cli_json_str(&j, "hw", hw->id);
    cli_json_num(&j, "bandwidth_bytes_per_s", roof.bandwidth_bytes_per_s);
    cli_json_num(&j, "peak_flops_per_s", roof.peak_flops_per_s);
    cli_json_num(&j, "ridge_flop_per_byte", rl_ridge_flop_per_byte(roof));
    if (n == 0) cli_json_raw(&j, "rows", "[]");
    for (size_t i = 0; i < n; i++) {
        const rl_sweep_row *r = &rows[i];
        cli_json_at(&j, "rows.%zu.", i);
        cli_json_int(&j, name, (long long)r->x);
        cli_json_num(&j, "flops", r->flops);
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            cli_json_at(&j, "rows.%zu.models.%s", i, rl_model_name((rl_model)m));
            if (!(r->bytes[m] > 0)) {
                cli_json_null(&j, "");
                continue;
            }
            cli_json_num(&j, ".bytes", r->bytes[m]);
            cli_json_num(&j, ".intensity_flop_per_byte", r->intensity_flop_per_byte[m]);
            cli_json_num(&j, ".attainable_flops_per_s", r->attainable_flops_per_s[m]);
            cli_json_num(&j, ".time_s", r->time_s[m]);
            cli_json_str(&j, ".bound", rl_bound_name(r->bound[m]));
        }
    }
    cli_json_end(&j);
}

int cmd_sweep(int argc, char **argv) {
    cli_problem_opts opts = {.rules = &sweep_rules};
    rl_sweep_param param = RL_SWEEP_SEQ;
    int64_t from = 128, to = 1048576, points = 32;
    int linear = 0, json = 0;
    rl_error err = {0};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            sweep_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "linear")) {
            linear = 1;
        } else if (cli_flag(argc, argv, &i, "param", &v)) {
            if (rl_sweep_param_parse(v, &param, &err) != RL_OK) {
                return cli_errorf("sweep", "--%s", err.message);
            }
        } else if (cli_flag(argc, argv, &i, "from", &v)) {
            if (cli_parse_int("from", v, 1, RL_MAX_DIM, &from, &err) != RL_OK) return cli_error("sweep", &err);
        } else if (cli_flag(argc, argv, &i, "to", &v)) {
            if (cli_parse_int("to", v, 1, RL_MAX_DIM, &to, &err) != RL_OK) return cli_error("sweep", &err);
        } else if (cli_flag(argc, argv, &i, "points", &v)) {
            if (cli_parse_int("points", v, 1, SWEEP_MAX_POINTS, &points, &err) != RL_OK)
                return cli_error("sweep", &err);
        } else if (cli_flag(argc, argv, &i, "format", &v)) {
            if (v && strcmp(v, "csv") == 0) {
                json = 0;
            } else if (v && strcmp(v, "json") == 0) {
                json = 1;
            } else {
                return cli_errorf("sweep", "--format: expected csv or json, got \"%.*s\"", CLI_QUOTE(v ? v : "", 40));
            }
        } else {
            int r = cli_problem_flag(argc, argv, &i, &opts, &err);
            if (r < 0) return cli_error("sweep", &err);
            if (r == 0)
                return cli_errorf("sweep", "unknown argument \"%.*s\"; expected a flag from rooflab "
                                           "sweep --help", CLI_QUOTE(argv[i], 64));
        }
    }
    /* the swept parameter's own flag would be overwritten by every value: refused, not ignored */
    int swept = rl_problem_field_find(rl_sweep_param_name(param));
    if (swept >= 0 && (opts.given & CLI_SF(swept)))
        return cli_errorf("sweep", "--%s: not used when --param %s sweeps it from --from to --to",
                          rl_sweep_param_name(param), rl_sweep_param_name(param));
    if (to < from)
        return cli_errorf("sweep", "--to: expected a value >= --from (%lld), got %lld", (long long)from,
                          (long long)to);
    const rl_hw *hw = NULL;
    rl_roof roof;
    if (cli_resolve_roof(&opts, &hw, &roof, &err) != RL_OK) return cli_error("sweep", &err);

    int64_t *values = malloc(sizeof *values * (size_t)points);
    rl_sweep_row *rows = malloc(sizeof *rows * (size_t)points);
    if (!values || !rows) {
        free(values);
        free(rows);
        return cli_errorf("sweep", "out of memory");
    }
    size_t n = rl_sweep_values(from, to, (size_t)points, !linear, values);
    if (rl_sweep(&opts.problem, param, values, n, roof, rows, &err) != RL_OK) {
        free(values);
        free(rows);
        return cli_errorf("sweep", "--%s", err.message);
    }
    const char *name = rl_sweep_param_name(param);
    if (json) print_json(name, hw, roof, rows, n);
    else print_csv(name, rows, n);
    free(values);
    free(rows);
    return CLI_EXIT_OK;
}
