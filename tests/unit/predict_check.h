/* predict_check.h — what the prediction tests (test_predict.c, test_profiles_2026.c) share: a
 * preset's roof at a dtype and the sum of a ledger's terms. Include after check.h. */
#ifndef ROOFLAB_PREDICT_CHECK_H
#define ROOFLAB_PREDICT_CHECK_H

#include "rooflab/rooflab.h"

/* The preset's DRAM bandwidth and its dense peak for `dt` (rl_hw_peak_for_dtype). */
static inline rl_roof roof_of(const rl_hw *hw, rl_dtype dt) {
    rl_roof r = {hw->bandwidth_bytes_per_s, rl_hw_peak_for_dtype(hw, dt)};
    return r;
}

/* Σ of the ledger's terms (RL_TERMS), what the overlap combines into the predicted time. */
static inline double sum_terms(const rl_prediction *p) {
    double s = 0;
    for (int t = 0; t < RL_TERM_COUNT; t++) s += p->terms_s[t];
    return s;
}

#endif
