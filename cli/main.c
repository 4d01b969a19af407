/* rooflab — the command line. `rooflab COMMAND --help` documents each command. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"eval", cmd_eval, "evaluate one attention problem on one roofline (table or --json)"},
    {"hw", cmd_hw, "list the hardware presets and their datasheet figures"},
    {"sweep", cmd_sweep, "evaluate one parameter over a range (CSV or JSON)"},
    {"units", cmd_units, "convert a quantity with units, e.g. \"2039 GB/s\""},
    {"validate", cmd_validate, "check measured records (JSON paths in every error)"},
    {"import", cmd_import, "convert ERT, Nsight Compute CSV or Google Benchmark output to a record"},
    {"tune", cmd_tune, "search the tile (and decode split) with the lowest predicted time"},
    {"bench", cmd_bench, "time the attention kernels (cpu or cuda) into a measured record"},
    {"check-model", cmd_check_model, "predicted kernel times against published or measured records"},
    {"models", cmd_models, "real attention shapes (heads, KV heads, head dim) with their sources"},
    {"layer", cmd_layer, "attention among a model layer's operators: the step, shares, crossover"},
    {"quiz", cmd_quiz, "an exercise from a seed; --answer \"34.4 GFLOP\" checks value and units"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: rooflab COMMAND [options]     (rooflab %s)\n\ncommands:\n", RL_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`rooflab COMMAND --help` describes each command's flags.\n");
}

/* "eval, hw, …" from the table, so the message never lags behind the commands. */
static const char *command_list(char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof commands / sizeof commands[0] && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", commands[i].name);
    return buf;
}

int main(int argc, char **argv) {
    char list[256];
    if (argc < 2)
        return cli_errorf("", "missing command; expected one of %s (see rooflab --help)",
                          command_list(list, sizeof list));
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("rooflab %s\n", RL_VERSION);
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    return cli_errorf("", "unknown command \"%.*s\"; expected one of %s (see rooflab --help)",
                      CLI_QUOTE(argv[1], 64), command_list(list, sizeof list));
}
