/* cmd_hw.c — `rooflab hw [ID] [--json]`: the hardware presets and their datasheet figures. */
#include <math.h>
#include <string.h>

#include "cli.h"

static void hw_help(FILE *out) {
    fputs("usage: rooflab hw [ID] [--json]\n\n"
          "Lists the hardware presets: memory bandwidth, dense peaks per compute unit (fp32 CUDA\n"
          "core, tf32 tensor, fp16/bf16 tensor, fp16 non-tensor, fp8 tensor; '-' where none or\n"
          "unverified), shared memory, L2, SMs, and the source of each figure. With ID, one\n"
          "preset in detail with its notes.\n",
          out);
}

static void json_str(FILE *o, const char *s) {
    fputc('"', o);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", c);
        else if (c < 0x20)
            fprintf(o, "\\u%04x", c);
        else
            fputc(c, o);
    }
    fputc('"', o);
}

static void print_json_one(const rl_hw *h) {
    printf("  {\"id\": ");
    json_str(stdout, h->id);
    printf(", \"name\": ");
    json_str(stdout, h->name);
    printf(", \"arch\": ");
    json_str(stdout, h->arch);
    printf(", \"bandwidth_bytes_per_s\": %.17g, \"peak_flops_per_s\": {", h->bandwidth_bytes_per_s);
    for (int k = 0; k < RL_PEAK_COUNT; k++) {
        printf("%s\"%s\": ", k ? ", " : "", rl_peak_id((rl_peak_kind)k));
        if (h->peak_flops_per_s[k] > 0)
            printf("%.17g", h->peak_flops_per_s[k]);
        else
            printf("null");
    }
    printf("}, \"smem_per_sm_bytes\": %.17g, \"smem_per_block_default_bytes\": %.17g, "
           "\"smem_per_block_optin_bytes\": %.17g, \"l2_bytes\": %.17g, \"sm_count\": %d, \"source\": ",
           h->smem_per_sm_bytes, h->smem_per_block_default_bytes, h->smem_per_block_optin_bytes,
           h->l2_bytes, h->sm_count);
    json_str(stdout, h->source);
    printf(", \"source_date\": ");
    json_str(stdout, h->source_date);
    printf(", \"notes\": ");
    json_str(stdout, h->notes);
    printf("}");
}

static void peak_cell(double v, char *buf, size_t cap) {
    if (v > 0)
        snprintf(buf, cap, "%.4g", v / 1e12);
    else
        snprintf(buf, cap, "-");
}

int cmd_hw(int argc, char **argv) {
    int json = 0;
    const char *id = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            hw_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "json")) {
            json = 1;
        } else if (argv[i][0] == '-') {
            return cli_errorf("hw", "unknown flag \"%.64s\"; expected --json or a preset id", argv[i]);
        } else if (id) {
            return cli_errorf("hw", "expected at most one preset id, got \"%.48s\" and \"%.48s\"", id,
                              argv[i]);
        } else {
            id = argv[i];
        }
    }
    const rl_hw *only = NULL;
    rl_error err = {0};
    if (id && rl_hw_lookup(id, "hw", &only, &err) != RL_OK) return cli_error("hw", &err);

    if (json) {
        printf("[\n");
        int first = 1;
        for (size_t i = 0; i < rl_hw_count(); i++) {
            const rl_hw *h = rl_hw_at(i);
            if (only && h != only) continue;
            if (!first) printf(",\n");
            first = 0;
            print_json_one(h);
        }
        printf("\n]\n");
        return CLI_EXIT_OK;
    }
    printf("%-15s %-9s %-39s %-5s %-7s %-9s %s\n", "", "", "dense peak (TFLOP/s)", "", "", "smem/blk",
           "ridge");
    printf("%-15s %-9s %-7s %-7s %-7s %-7s %-7s %-5s %-7s %-9s %s\n", "id", "BW GB/s", "fp32", "tf32T",
           "fp16T", "fp16", "fp8T", "SMs", "L2 MiB", "KiB", "fp16T FLOP/B");
    for (size_t i = 0; i < rl_hw_count(); i++) {
        const rl_hw *h = rl_hw_at(i);
        if (only && h != only) continue;
        char c[RL_PEAK_COUNT][16];
        for (int k = 0; k < RL_PEAK_COUNT; k++) peak_cell(h->peak_flops_per_s[k], c[k], sizeof c[k]);
        double ridge = h->bandwidth_bytes_per_s > 0
                           ? h->peak_flops_per_s[RL_PEAK_FP16_TENSOR] / h->bandwidth_bytes_per_s
                           : 0;
        printf("%-15s %-9.6g %-7s %-7s %-7s %-7s %-7s %-5d %-7.4g %-9.4g %.4g\n", h->id,
               h->bandwidth_bytes_per_s / 1e9, c[0], c[1], c[2], c[3], c[4], h->sm_count,
               h->l2_bytes / (1024.0 * 1024.0), h->smem_per_block_optin_bytes / 1024.0, ridge);
    }
    if (only) {
        printf("\nname    %s\narch    %s\nsource  %s (%s)\nnotes   %s\n", only->name, only->arch,
               only->source, only->source_date, only->notes);
    } else {
        printf("\nPeaks are dense (no sparsity) datasheet figures; '-' = none or unverified. smem/blk is\n"
               "the opt-in KiB per block (48 KiB without opt-in). `rooflab hw ID` shows sources and notes.\n");
    }
    return CLI_EXIT_OK;
}
