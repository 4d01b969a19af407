/* cmd_hw.c — `rooflab hw [ID] [--json]`: the hardware presets and their datasheet figures. */
#include <math.h>
#include <string.h>

#include "cli.h"

static void hw_help(FILE *out) {
    fputs("usage: rooflab hw [ID | --device NAME] [--json]\n\n"
          "Lists the hardware presets: memory bandwidth, dense peaks per compute unit (fp32 CUDA\n"
          "core, tf32 tensor, fp16/bf16 tensor, fp16 non-tensor, fp8, fp6 and fp4 tensor; '-' where\n"
          "none or unverified), shared memory, L2, SMs, and the source of each figure. With ID, one\n"
          "preset in detail with its notes.\n"
          "  --device NAME  the preset of a device as its driver names it (\"NVIDIA H200\",\n"
          "                 torch.cuda.get_device_name()), only where the name says exactly which\n"
          "                 part it is; none: exit 1 (with --json: [] and exit 0)\n",
          out);
}

/* One preset as element `i` of the root array (cli/json_out.c, the CLI's one JSON writer). */
static void print_json_one(cli_json *j, size_t i, const rl_hw *h) {
    cli_json_at(j, "%zu.", i);
    cli_json_str(j, "id", h->id);
    cli_json_str(j, "name", h->name);
    cli_json_str(j, "arch", h->arch);
    cli_json_num(j, "bandwidth_bytes_per_s", h->bandwidth_bytes_per_s);
    for (int k = 0; k < RL_PEAK_COUNT; k++) {
        char path[64];
        snprintf(path, sizeof path, "peak_flops_per_s.%s", rl_peak_id((rl_peak_kind)k));
        cli_json_num_pos(j, path, h->peak_flops_per_s[k]);
    }
    cli_json_num(j, "smem_per_sm_bytes", h->smem_per_sm_bytes);
    cli_json_num(j, "smem_per_block_default_bytes", h->smem_per_block_default_bytes);
    cli_json_num(j, "smem_per_block_optin_bytes", h->smem_per_block_optin_bytes);
    cli_json_num(j, "l2_bytes", h->l2_bytes);
    cli_json_int(j, "sm_count", h->sm_count);
    cli_json_str(j, "source", h->source);
    cli_json_str(j, "source_date", h->source_date);
    cli_json_str(j, "notes", h->notes);
    cli_json_num_pos(j, "l2_bandwidth_bytes_per_s", h->l2_bandwidth_bytes_per_s);
    cli_json_str(j, "l2_bandwidth_source", h->l2_bandwidth_bytes_per_s > 0 ? h->l2_bandwidth_source : NULL);
    cli_json_num_pos(j, "sm_clock_hz", h->sm_clock_hz);
    cli_json_num_pos(j, "exp_per_s", h->exp_per_s);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", h->sm_arch / 10, h->sm_arch % 10);
    cli_json_str(j, "compute_capability", h->sm_arch > 0 ? cc : NULL);
    cli_json_num(j, "tmem_per_sm_bytes", h->tmem_per_sm_bytes);
}

static void peak_cell(double v, char *buf, size_t cap) {
    if (v > 0)
        snprintf(buf, cap, "%.4g", v / 1e12);
    else
        snprintf(buf, cap, "-");
}

int cmd_hw(int argc, char **argv) {
    int json = 0;
    const char *id = NULL, *device = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            hw_help(stdout);
            return CLI_EXIT_OK;
        }
        const char *v = NULL;
        if (cli_flag(argc, argv, &i, "device", &v)) {
            if (!v || !v[0]) return cli_errorf("hw", "--device: missing value; expected a device name");
            device = v;
        } else if (cli_is_switch(argv[i], "json")) {
            json = 1;
        } else if (argv[i][0] == '-') {
            return cli_errorf("hw", "unknown flag \"%.*s\"; expected --json, --device or a preset id", CLI_QUOTE(argv[i], 64));
        } else if (id) {
            return cli_errorf("hw", "expected at most one preset id, got \"%.*s\" and \"%.*s\"",
                              CLI_QUOTE(id, 48), CLI_QUOTE(argv[i], 48));
        } else {
            id = argv[i];
        }
    }
    const rl_hw *only = NULL;
    rl_error err = {0};
    if (id && device)
        return cli_errorf("hw", "--device: expected either a preset id or --device, got both");
    if (id && rl_hw_lookup(id, "hw", &only, &err) != RL_OK) return cli_error("hw", &err);
    if (device) {
        only = rl_hw_match_device(device);
        if (!only) {
            if (json) { /* no preset: an empty list */
                cli_json j;
                cli_json_begin_array(&j, stdout);
                cli_json_end(&j);
                return CLI_EXIT_OK;
            }
            char name[256];
            rl_text_escape(name, sizeof name, device);
            printf("no preset: the device name \"%s\" is not one whose part a preset describes\n", name);
            return CLI_EXIT_INVALID;
        }
    }

    if (json) {
        cli_json j;
        cli_json_begin_array(&j, stdout);
        size_t n = 0;
        for (size_t i = 0; i < rl_hw_count(); i++) {
            const rl_hw *h = rl_hw_at(i);
            if (only && h != only) continue;
            print_json_one(&j, n++, h);
        }
        cli_json_end(&j);
        return CLI_EXIT_OK;
    }
    printf("%-15s %-9s %-55s %-5s %-7s %-9s %-13s %-8s %s\n", "", "", "dense peak (TFLOP/s)", "", "",
           "smem/blk", "ridge", "L2 BW", "exp");
    printf("%-15s %-9s %-7s %-7s %-7s %-7s %-7s %-7s %-7s %-5s %-7s %-9s %-13s %-8s %s\n", "id",
           "BW GB/s", "fp32", "tf32T", "fp16T", "fp16", "fp8T", "fp6T", "fp4T", "SMs", "L2 MiB", "KiB",
           "fp16T FLOP/B", "TB/s", "T/s");
    for (size_t i = 0; i < rl_hw_count(); i++) {
        const rl_hw *h = rl_hw_at(i);
        if (only && h != only) continue;
        char c[RL_PEAK_COUNT][16];
        for (int k = 0; k < RL_PEAK_COUNT; k++) peak_cell(h->peak_flops_per_s[k], c[k], sizeof c[k]);
        double ridge = h->bandwidth_bytes_per_s > 0
                           ? h->peak_flops_per_s[RL_PEAK_FP16_TENSOR] / h->bandwidth_bytes_per_s
                           : 0;
        char l2bw[16] = "-", ex[16] = "-";
        if (h->l2_bandwidth_bytes_per_s > 0) snprintf(l2bw, sizeof l2bw, "%.3g", h->l2_bandwidth_bytes_per_s / 1e12);
        if (h->exp_per_s > 0) snprintf(ex, sizeof ex, "%.3g", h->exp_per_s / 1e12);
        printf("%-15s %-9.6g %-7s %-7s %-7s %-7s %-7s %-7s %-7s %-5d %-7.4g %-9.4g %-13.4g %-8s %s\n",
               h->id, h->bandwidth_bytes_per_s / 1e9, c[RL_PEAK_FP32], c[RL_PEAK_TF32],
               c[RL_PEAK_FP16_TENSOR], c[RL_PEAK_FP16_NONTENSOR], c[RL_PEAK_FP8], c[RL_PEAK_FP6],
               c[RL_PEAK_FP4], h->sm_count,
               h->l2_bytes / (1024.0 * 1024.0), h->smem_per_block_optin_bytes / 1024.0, ridge, l2bw, ex);
    }
    if (only) {
        printf("\nname    %s\narch    %s\nsource  %s (%s)\nnotes   %s\n", only->name, only->arch,
               only->source, only->source_date, only->notes);
        char l2[48] = "-", clk[48] = "-", ex[48] = "-", per[48] = "";
        if (only->l2_bandwidth_bytes_per_s > 0)
            rl_format_quantity(only->l2_bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, l2,
                               sizeof l2);
        if (only->sm_clock_hz > 0) snprintf(clk, sizeof clk, "%.4g GHz", only->sm_clock_hz / 1e9);
        if (only->exp_per_s > 0) { /* no e-notation (issue 20): 3.865 T exp/s */
            char n[40];
            rl_format_quantity(only->exp_per_s / 1e12, RL_DIM_NONE, RL_PREFIX_SI, 4, n, sizeof n);
            snprintf(ex, sizeof ex, "%s T exp/s", n);
        }
        if (only->exp_per_s > 0 && only->sm_count > 0 && only->sm_clock_hz > 0)
            snprintf(per, sizeof per, " (%.4g per SM per clock)",
                     only->exp_per_s / ((double)only->sm_count * only->sm_clock_hz));
        printf("L2 BW   %s%s%s%s\nclock   %s (the clock of the peaks)\nexp     %s%s\n",
               l2, only->l2_bandwidth_source ? " (" : "",
               only->l2_bandwidth_source ? only->l2_bandwidth_source : "",
               only->l2_bandwidth_source ? ")" : "  (no measurement on file: no prediction)", clk, ex,
               per);
        if (only->tmem_per_sm_bytes > 0)
            printf("TMEM    %.4g KiB per SM (Tensor Memory)\n", only->tmem_per_sm_bytes / 1024.0);
    } else {
        printf("\nPeaks are dense (no sparsity) datasheet figures; '-' = none or unverified. smem/blk is\n"
               "the opt-in KiB per block (48 KiB without opt-in). `rooflab hw ID` shows sources and notes.\n");
    }
    return CLI_EXIT_OK;
}
