/* cmd_units.c — `rooflab units QUANTITY`: a quantity in every unit a person might compare it
 * with (B/s, GB/s, GiB/s, bit/s ...). Parsing and formatting are core's. */
#include <string.h>

#include "cli.h"

static void units_help(FILE *out) {
    fputs("usage: rooflab units QUANTITY [--as DIM]\n\n"
          "Shows a quantity in base units, with SI and IEC prefixes, and in bits where it is a\n"
          "byte count or a bandwidth. Accepted: SI prefixes k M G T P E (10^3 steps), IEC Ki Mi Gi\n"
          "Ti Pi Ei (2^10 steps); B byte, b/bit bit; B/s, bit/s, Gbps; FLOP, FLOP/s, FLOPS;\n"
          "s ms us ns; FLOP/B. Commas separate thousands (\"2,039 GB/s\"). Refused, with the reason:\n"
          "OP/s and TOPS (integer operations), case slips (\"tb/s\"), spaces around the value, and\n"
          "with --as a bare number (without --as a bare number is a plain number).\n"
          "  --as DIM   require a dimension: bytes, bandwidth, flop, compute, time, intensity\n\n"
          "examples:\n  rooflab units \"2039 GB/s\"\n  rooflab units \"312 TFLOPS\"\n"
          "  rooflab units \"40 GiB\"\n",
          out);
}

/* "16.31 TB/s" → "16.31 Tbit/s": format bits through the byte formatter, then rename the unit. */
static void bits_text(double bytes_value, rl_dim dim, char *out, size_t cap) {
    char tmp[48];
    rl_format_quantity(bytes_value * 8.0, dim, RL_PREFIX_SI, 6, tmp, sizeof tmp);
    char *b = strrchr(tmp, 'B');
    if (!b) {
        snprintf(out, cap, "%s", tmp);
        return;
    }
    *b = '\0';
    snprintf(out, cap, "%sbit%s", tmp, b + 1);
}

int cmd_units(int argc, char **argv) {
    const char *text = NULL;
    rl_dim expected = RL_DIM_COUNT;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            units_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_flag(argc, argv, &i, "as", &v)) {
            static const struct { const char *name; rl_dim dim; } dims[] = {
                {"bytes", RL_DIM_BYTES}, {"bandwidth", RL_DIM_BYTES_PER_S}, {"flop", RL_DIM_FLOP},
                {"compute", RL_DIM_FLOPS_PER_S}, {"time", RL_DIM_SECONDS},
                {"intensity", RL_DIM_FLOP_PER_BYTE}};
            expected = RL_DIM_NONE;
            for (size_t k = 0; v && k < sizeof dims / sizeof dims[0]; k++)
                if (strcmp(v, dims[k].name) == 0) expected = dims[k].dim;
            if (expected == RL_DIM_NONE)
                return cli_errorf("units", "--as: expected one of bytes, bandwidth, flop, compute, "
                                           "time, intensity, got \"%.*s\"", CLI_QUOTE(v ? v : "", 40));
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] == '-')
            return cli_errorf("units", "unknown flag \"%.*s\"; expected --as or a quantity", CLI_QUOTE(argv[i], 64));
        if (text)
            return cli_errorf("units", "quantity: expected one quantity, got a second one \"%.*s\" "
                                       "(quote \"2039 GB/s\" as one argument)", CLI_QUOTE(argv[i], 64));
        text = argv[i];
    }
    if (!text) return cli_errorf("units", "quantity: missing; expected e.g. rooflab units \"2039 GB/s\"");
    double v = 0;
    rl_dim dim = RL_DIM_NONE;
    rl_error err = {0};
    if (rl_parse_quantity(text, expected, "quantity", &v, &dim, &err) != RL_OK)
        return cli_error("units", &err);

    char si[64], iec[64], bits[80];
    printf("%s is %s\n", text, rl_dim_noun(dim));
    printf("  base  %.17g %s\n", v, rl_dim_base_unit(dim));
    rl_format_quantity(v, dim, RL_PREFIX_SI, 6, si, sizeof si);
    printf("  SI    %s\n", si);
    if (dim == RL_DIM_BYTES || dim == RL_DIM_BYTES_PER_S) {
        rl_format_quantity(v, dim, RL_PREFIX_IEC, 6, iec, sizeof iec);
        bits_text(v, dim, bits, sizeof bits);
        printf("  IEC   %s\n", iec);
        printf("  bits  %s\n", bits);
        if (v >= 1000.0) {
            /* SI and IEC values of one prefix step apart differ by 2.4 % per step. */
            int steps = 0;
            for (double x = v; x >= 1000.0 && steps < 6; x /= 1000.0) steps++;
            double ratio = 1.0;
            for (int k = 0; k < steps; k++) ratio *= 1.024;
            printf("  note  %s and %s differ by %.1f %%: GB is 10^9 bytes, GiB is 2^30\n", si, iec,
                   (ratio - 1.0) * 100.0);
        }
    }
    return CLI_EXIT_OK;
}
