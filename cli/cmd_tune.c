/* cmd_tune.c — `rooflab tune`: the tile (and, for decode, the split count) that minimises the
 * generic profile's predicted time within the preset's shared memory, with the runners-up and
 * the ledger term that makes each lose (MODEL.md "Tile search"). */
#include <string.h>

#include "cli.h"

#define TUNE_SHOW 8

/* tune searches the tile (and split) of the generic profile: the flags that fix them, pick another
 * profile or set only the naive model are refused, not ignored. */
static const char *const tune_why_not[CLI_SF_COUNT] = {
    [RL_FIELD_BLOCK_M] = "it searches Br itself (16 to 256)",
    [RL_FIELD_BLOCK_N] = "it searches Bc itself (16 to 256)",
    [RL_FIELD_SCORE_DTYPE] = "it is the naive model's S/P type, and tune predicts the tiled kernel",
    [CLI_SF_KERNEL] = "it searches the generic profile's tiles (rooflab eval --kernel predicts one profile)",
    [CLI_SF_GQA_PACK] = "it searches the generic profile, which packs a GQA group's heads",
    [CLI_SF_SPLITS] = "it searches split counts itself (decode: 1 to 128)",
    [CLI_SF_CTAS_PER_SM] = "it takes each tile's CTAs per SM from the SRAM budget",
    [CLI_SF_CORES] = "it searches the generic profile (--cores picks flashinfer's kernel)",
};
static const cli_flag_rules tune_rules = {
    "tune", CLI_SF_ALL & ~CLI_SF_KERNELS & ~CLI_SF(RL_FIELD_BLOCK_M) & ~CLI_SF(RL_FIELD_BLOCK_N) &
                ~CLI_SF(RL_FIELD_SCORE_DTYPE),
    tune_why_not};

static void tune_help(FILE *out) {
    fputs("usage: rooflab tune [problem flags] [roof flags] [--top K] [--json]\n\n"
          "Searches Br, Bc in {16, 32, 64, 128, 256} (and, for decode, split counts 1 ... 128) for\n"
          "the generic kernel profile: candidates over the preset's opt-in shared memory per block\n"
          "are left out; the rest are ranked by predicted time. Each runner-up names the ledger\n"
          "term that costs it most against the best (tiles, waves, memory, or the MMA rate its\n"
          "rows per warp allow).\n\n",
          out);
    cli_flags_help(out, tune_rules.uses);
    fputs("output:\n"
          "  --top K            candidates shown (1 to 16, default 8)\n"
          "  --json             one JSON object\n",
          out);
}

/* Why a runner-up loses: the ledger term core found costing it most against the best. */
static const char *why_loses(const rl_tile_candidate *c) {
    return c->loses_on < 0 ? "ties (smaller SRAM first)" : rl_term_why_loses((rl_term)c->loses_on);
}

/* One object: the feasible count, then the candidates best first (the best's "loses_on" ""). */
static void print_json(const rl_tile_candidate *c, size_t n, size_t feasible) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_int(&j, "feasible", (long long)feasible);
    if (n == 0) cli_json_raw(&j, "candidates", "[]");
    for (size_t i = 0; i < n; i++) {
        const rl_prediction *p = &c[i].prediction;
        cli_json_at(&j, "candidates.%zu.", i);
        cli_json_int(&j, "block_m", (long long)c[i].block_m);
        cli_json_int(&j, "block_n", (long long)c[i].block_n);
        cli_json_int(&j, "splits", (long long)c[i].splits);
        cli_json_int(&j, "ctas_per_sm", (long long)c[i].ctas_per_sm);
        cli_json_num(&j, "sram_bytes", c[i].sram_bytes);
        cli_json_num(&j, "time_s", p->time_s);
        cli_json_num(&j, "flops_per_s", p->flops_per_s);
        cli_json_num(&j, "waves", p->waves);
        for (int t = 0; t < RL_TERM_COUNT; t++) {
            cli_json_at(&j, "candidates.%zu.terms.%s", i, rl_term_name((rl_term)t));
            cli_json_num(&j, "", p->terms_s[t]);
        }
        cli_json_at(&j, "candidates.%zu.", i);
        cli_json_str(&j, "loses_on", i ? why_loses(&c[i]) : "");
    }
    cli_json_end(&j);
}

static void print_table(const rl_tile_candidate *c, size_t n, size_t feasible, const rl_hw *hw) {
    printf("%zu tile(s) fit %s's %.0f KiB of shared memory per block; best first:\n\n", feasible,
           hw->id, hw->smem_per_block_optin_bytes / 1024.0);
    printf("%-9s %-6s %-7s %-9s %-12s %-13s %-7s %s\n", "tile", "split", "CTA/SM", "SRAM KiB",
           "time", "throughput", "waves", "loses on");
    for (size_t i = 0; i < n; i++) {
        const rl_prediction *p = &c[i].prediction;
        char tile[24], t[32], f[32];
        snprintf(tile, sizeof tile, "%lldx%lld", (long long)c[i].block_m, (long long)c[i].block_n);
        rl_format_quantity(p->time_s, RL_DIM_SECONDS, RL_PREFIX_SI, 4, t, sizeof t);
        rl_format_quantity(p->flops_per_s, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, f, sizeof f);
        printf("%-9s %-6lld %-7lld %-9.4g %-12s %-13s %-7.3g %s\n", tile, (long long)c[i].splits,
               (long long)c[i].ctas_per_sm, c[i].sram_bytes / 1024.0, t, f, p->waves,
               i ? why_loses(&c[i]) : "(best)");
    }
}

int cmd_tune(int argc, char **argv) {
    cli_problem_opts opts = {.rules = &tune_rules};
    int json = 0;
    int64_t top = TUNE_SHOW;
    rl_error err = {0};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            tune_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "json")) {
            json = 1;
            continue;
        }
        if (cli_flag(argc, argv, &i, "top", &v)) {
            if (cli_parse_int("top", v, 1, 16, &top, &err) != RL_OK) return cli_error("tune", &err);
            continue;
        }
        int r = cli_problem_flag(argc, argv, &i, &opts, &err);
        if (r < 0) return cli_error("tune", &err);
        if (r == 0)
            return cli_errorf("tune", "unknown argument \"%.*s\"; expected a flag from rooflab tune --help",
                              CLI_QUOTE(argv[i], 64));
    }
    const rl_hw *hw = NULL;
    rl_roof roof;
    if (cli_resolve_roof(&opts, &hw, &roof, &err) != RL_OK) return cli_error("tune", &err);
    rl_prediction probe;
    rl_kernel_spec generic = {0};
    if (rl_predict(&opts.problem, hw, roof, &generic, &probe, &err) != RL_OK &&
        (strcmp(err.field, "hw") == 0 || err.status == RL_ERR_UNSUPPORTED)) /* e.g. --window */
        return cli_error("tune", &err);
    rl_tile_candidate cands[16];
    size_t feasible = rl_tune(&opts.problem, hw, roof, cands, (size_t)top);
    size_t n = feasible < (size_t)top ? feasible : (size_t)top;
    if (feasible == 0)
        return cli_errorf("tune", "--hw: no tile of the search fits %s's shared memory for this problem",
                          hw->id);
    if (json)
        print_json(cands, n, feasible);
    else
        print_table(cands, n, feasible, hw);
    return CLI_EXIT_OK;
}
