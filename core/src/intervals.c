/* intervals.c — each kernel profile's held-out error band (MODEL.md "The prediction as an
 * interval"): the signed errors (predicted − measured) / measured over the published points no
 * constant was fitted on, their 10th and 90th percentiles (type 7, as `rooflab check-model
 * --bands` prints them) turned into time factors 1/(1 + p90) and 1/(1 + p10). The block between
 * the GENERATED markers is what `build/native/tests/test_intervals --print` writes from
 * data/published; test_intervals fails when it is out of date. */
#include <string.h>

#include "rooflab/rooflab.h"

typedef struct interval_row {
    const char *band;  /* profile name, or "default" */
    int points;        /* held-out points */
    double low, high;  /* time factors: 1/(1 + p90), 1/(1 + p10) */
} interval_row;

static const interval_row intervals[] = {
    /* BEGIN GENERATED (test_intervals --print) */
    {"cudnn", 261, 0.9097, 1.1815},
    {"default", 65, 0.9234, 1.5745},
    {"fa2", 54, 0.9818, 1.1278},
    {"fa3", 67, 0.9526, 1.2061},
    {"flash-decoding", 9, 0.8756, 1.0457},
    {"flashinfer", 15, 0.9333, 1.3780},
    {"flashmla", 17, 0.8896, 1.0142},
    {"standard", 29, 1.0049, 1.3988},
    /* END GENERATED */
    {NULL, 0, 0, 0},
};

int rl_prediction_interval(const char *band, double *low_factor, double *high_factor) {
    if (low_factor) *low_factor = 0;
    if (high_factor) *high_factor = 0;
    for (const interval_row *r = intervals; band && r->band; r++) {
        if (strcmp(r->band, band) != 0) continue;
        if (r->points >= RL_INTERVAL_MIN_POINTS) {
            if (low_factor) *low_factor = r->low;
            if (high_factor) *high_factor = r->high;
        }
        return r->points;
    }
    return 0;
}
