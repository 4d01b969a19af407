/* intervals.c — each kernel profile's held-out error band (DESIGN.md "The prediction as an
 * interval"): measured / predicted over the published points that no constant was fitted on,
 * 10th and 90th percentile (nearest rank). tests/unit/test_intervals.c recomputes it from
 * data/published and fails when this table is out of date; `test_intervals --print` prints the
 * block between the GENERATED markers. */
#include "rooflab/rooflab.h"

typedef struct interval_row {
    rl_kernel kernel;
    int points;          /* held-out points of the profile */
    double low, high;    /* measured / predicted: 10th and 90th percentile */
} interval_row;

static const interval_row intervals[] = {
    /* BEGIN GENERATED (rooflab check-model --intervals) */
    /* END GENERATED */
    {RL_KERNEL_COUNT, 0, 0, 0},
};

int rl_prediction_interval(rl_kernel kernel, double *low_ratio, double *high_ratio) {
    for (const interval_row *r = intervals; r->kernel != RL_KERNEL_COUNT; r++) {
        if (r->kernel != kernel || r->points < RL_INTERVAL_MIN_POINTS) continue;
        if (low_ratio) *low_ratio = r->low;
        if (high_ratio) *high_ratio = r->high;
        return r->points;
    }
    if (low_ratio) *low_ratio = 0;
    if (high_ratio) *high_ratio = 0;
    return 0;
}
