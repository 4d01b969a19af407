/* fit-point.c — one predicted time, for scripts/fit-constants.py: the model compiled with the
 * fitted constants given as -D flags (profiles.c's RL_FIT_* are #ifndef), so that each constant
 * can be solved for on its one fit-set point. Not part of the build.
 * usage: fit-point PRESET KERNEL B H HKV N L D DTYPE CAUSAL PASS [WINDOW]  → seconds on stdout */
#include <stdio.h>
#include <stdlib.h>

#include "rooflab/rooflab.h"

/* the constants, from the environment (fit-constants.py compiles profiles.c with
 * -DRL_FIT_X=rl__fit("RL_FIT_X")) */
double rl__fit(const char *name);
double rl__fit(const char *name) {
    const char *v = getenv(name);
    if (!v) {
        fprintf(stderr, "%s not set\n", name);
        exit(2);
    }
    return atof(v);
}

int main(int argc, char **argv) {
    if (argc != 12 && argc != 13) return 2;
    const rl_hw *hw = rl_hw_find(argv[1]);
    rl_kernel k;
    rl_dtype dt;
    if (!hw || rl_kernel_parse(argv[2], "kernel", &k, NULL) != RL_OK ||
        rl_dtype_parse(argv[9], "dtype", &dt, NULL) != RL_OK)
        return 2;
    rl_problem p = {.batch = atoll(argv[3]), .heads = atoll(argv[4]), .kv_heads = atoll(argv[5]),
                    .seq = atoll(argv[6]), .kv_len = atoll(argv[7]), .head_dim = atoll(argv[8]),
                    .dtype = dt, .causal = atoi(argv[10]),
                    .pass = argv[11][0] == 'b' ? RL_PASS_BWD : RL_PASS_FWD,
                    .window = argc == 13 ? atoll(argv[12]) : 0};
    rl_roof roof = {hw->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(hw, dt)};
    char *dv = NULL; /* D as "192/128": a value head dim of its own (MLA prefill) */
    p.head_dim = strtoll(argv[8], &dv, 10);
    if (*dv == '/') p.head_dim_v = strtoll(dv + 1, NULL, 10);
    rl_kernel_spec spec = {.kernel = k};
    if (k == RL_KERNEL_FA2 && p.seq == 1) { /* as rl_rec_point_predict: FA2 v2.0.9's decode */
        spec.gqa_pack = RL_PACK_PER_HEAD;
        spec.splits = 1;
    }
    rl_prediction r;
    rl_error e;
    if (rl_predict(&p, hw, roof, &spec, &r, &e) != RL_OK) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    printf("%.9g\n", r.time_s);
    return 0;
}
