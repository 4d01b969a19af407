/* eval_rate.c — native model evaluations per second through the same binding the page uses
 * (wasm/rooflab_wasm.c compiled natively: rlw_report → rl_report_compute and rl_predict under the
 * fa3 profile), so the native and
 * WASM figures time the same code. Prints one JSON object. Not a test. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rooflab_wasm.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int slot(const char *key) {
    for (int i = 0; i < rlw_in_count(); i++)
        if (strcmp(rlw_in_key(i), key) == 0) return i;
    return -1;
}

int main(void) {
    double in[64] = {0}, out[1024];
    rl_error err, pred_err;
    if (rlw_in_count() > 64 || rlw_report_count() > 1024) return 1;
    for (int k = 0; k < rlw_kernel_count(); k++)
        if (strcmp(rlw_kernel_name(k), "fa3") == 0) in[slot("kernel")] = k;
    in[slot("hw")] = rlw_hw_find("h100-sxm");
    in[slot("bandwidth")] = 3.35e12;
    in[slot("peak")] = 989e12;
    in[slot("dtype")] = RL_DTYPE_FP16;
    in[slot("causal")] = 1;
    int seq = slot("seq");
    double sink = 0;
    double best = 0;
    for (int rep = 0; rep < 5; rep++) {
        long n = 0;
        double t0 = now_s(), t;
        do {
            for (int i = 0; i < 1000; i++, n++) {
                in[seq] = (double)(128 + (n & 4095));
                if (rlw_report(in, out, &err, &pred_err) != 0) return 2;
                sink += out[0];
            }
        } while ((t = now_s() - t0) < 0.4);
        double rate = (double)n / t;
        if (rate > best) best = rate;
    }
    printf("{\"native_evals_per_s\": %.0f, \"sink\": %g}\n", best, sink > 0 ? 1.0 : 0.0);
    return 0;
}
