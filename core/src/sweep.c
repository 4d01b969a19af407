/* sweep.c — one parameter over a range, for the page's curves and `rooflab sweep`. */
#include <math.h>
#include <string.h>

#include "internal.h"

static const char *const sweep_names[RL_SWEEP_PARAM_COUNT] = {
    "seq", "kv-len", "batch", "heads", "head-dim", "block-m", "block-n",
};

const char *rl_sweep_param_name(rl_sweep_param param) {
    return (int)param >= 0 && param < RL_SWEEP_PARAM_COUNT ? sweep_names[param] : "unknown";
}

rl_status rl_sweep_param_parse(const char *text, rl_sweep_param *out, rl_error *err) {
    for (int i = 0; i < RL_SWEEP_PARAM_COUNT; i++) {
        if (text && strcmp(text, sweep_names[i]) == 0) {
            if (out) *out = (rl_sweep_param)i;
            rl__ok(err);
            return RL_OK;
        }
    }
    return rl__fail(err, RL_ERR_UNKNOWN, "param",
                    "expected one of seq, kv-len, batch, heads, head-dim, block-m, block-n, got "
                    "\"%.*s\"",
                    RL__QUOTE(text ? text : "", 48));
}

size_t rl_sweep_values(int64_t lo, int64_t hi, size_t count, int logspace, int64_t *out) {
    if (lo < 1 || hi < lo || count == 0 || !out) return 0;
    size_t written = 0;
    const double log_lo = log((double)lo), log_hi = log((double)hi);
    for (size_t k = 0; k < count; k++) {
        double t = count == 1 ? 0.0 : (double)k / (double)(count - 1);
        double v = logspace ? exp(log_lo * (1.0 - t) + log_hi * t)
                       : (double)lo + ((double)hi - (double)lo) * t;
        int64_t iv = (int64_t)llround(v);
        if (k == count - 1) iv = hi; /* land exactly on the end points */
        if (k == 0) iv = lo;
        if (iv < lo) iv = lo;
        if (iv > hi) iv = hi;
        if (written > 0 && out[written - 1] >= iv) continue;
        out[written++] = iv;
    }
    return written;
}

rl_status rl_sweep(const rl_problem *base, rl_sweep_param param, const int64_t *values, size_t n,
                   rl_roof roof, rl_sweep_row *rows, rl_error *err) {
    return rl_sweep_predicted(base, param, values, n, roof, NULL, NULL, rows, err);
}

rl_status rl_sweep_predicted(const rl_problem *base, rl_sweep_param param, const int64_t *values,
                             size_t n, rl_roof roof, const rl_hw *hw, const rl_kernel_spec *spec,
                             rl_sweep_row *rows, rl_error *err) {
    rl_status s = rl_roof_check(roof, err);
    if (s != RL_OK) return s;
    rl_problem p = base ? *base : (rl_problem){0};
    for (size_t i = 0; i < n; i++) {
        switch (param) {
        case RL_SWEEP_SEQ: p.seq = values[i]; break;
        case RL_SWEEP_KV_LEN: p.kv_len = values[i]; break;
        case RL_SWEEP_BATCH: p.batch = values[i]; break;
        case RL_SWEEP_HEADS: p.heads = values[i]; break;
        case RL_SWEEP_HEAD_DIM: p.head_dim = values[i]; break;
        case RL_SWEEP_BLOCK_M: p.block_m = values[i]; break;
        case RL_SWEEP_BLOCK_N: p.block_n = values[i]; break;
        default: return rl__fail(err, RL_ERR_UNKNOWN, "param", "unknown sweep parameter %d", (int)param);
        }
        if (values[i] < 1)
            return rl__fail(err, RL_ERR_RANGE, rl_sweep_param_name(param),
                            "expected positive sweep values, got %lld", (long long)values[i]);
        rl_workload w;
        if ((s = rl_workload_compute(&p, &w, err)) != RL_OK) return s;
        rl_sweep_row r = {0};
        r.x = values[i];
        r.flops = w.flops;
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            if (!w.traffic[m].available) continue;
            rl_point pt = rl_roofline_point(roof, w.flops, w.traffic[m].bytes);
            r.bytes[m] = pt.bytes;
            r.intensity_flop_per_byte[m] = pt.intensity_flop_per_byte;
            r.attainable_flops_per_s[m] = pt.attainable_flops_per_s;
            r.time_s[m] = pt.time_s;
            r.bound[m] = pt.bound;
        }
        rl_prediction pr;
        if (hw && spec && rl_predict(&p, hw, roof, spec, &pr, NULL) == RL_OK) {
            r.predicted_time_s = pr.time_s;
            r.predicted_flops_per_s = pr.flops_per_s;
        }
        rows[i] = r;
    }
    rl__ok(err);
    return RL_OK;
}
