/* roofline.c — ridge, attainable throughput, bound time, regime, efficiency, SRAM budget. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

const char *rl_bound_name(rl_bound bound) { return bound == RL_BOUND_COMPUTE ? "compute" : "memory"; }

double rl_ridge_flop_per_byte(rl_roof roof) { return roof.peak_flops_per_s / roof.bandwidth_bytes_per_s; }

double rl_attainable_flops_per_s(rl_roof roof, double intensity) {
    double mem = roof.bandwidth_bytes_per_s * intensity;
    return mem < roof.peak_flops_per_s ? mem : roof.peak_flops_per_s;
}

rl_point rl_roofline_point(rl_roof roof, double flops, double bytes) {
    rl_point p = {0};
    p.flops = flops;
    p.bytes = bytes;
    p.intensity_flop_per_byte = flops / bytes;
    p.attainable_flops_per_s = rl_attainable_flops_per_s(roof, p.intensity_flop_per_byte);
    p.memory_time_s = bytes / roof.bandwidth_bytes_per_s;
    p.compute_time_s = flops / roof.peak_flops_per_s;
    p.time_s = p.memory_time_s > p.compute_time_s ? p.memory_time_s : p.compute_time_s;
    p.bound = p.intensity_flop_per_byte < rl_ridge_flop_per_byte(roof) ? RL_BOUND_MEMORY
                                                                         : RL_BOUND_COMPUTE;
    return p;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double rl_median(double *v, size_t n) {
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

rl_time_stats rl_time_stats_of(double *v, size_t n) {
    rl_time_stats st = {0};
    if (!v || n == 0) return st;
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    st.mean_s = sum / (double)n;
    for (size_t i = 0; i < n; i++) ss += (v[i] - st.mean_s) * (v[i] - st.mean_s);
    st.median_s = rl_median(v, n); /* sorts v */
    st.min_s = v[0];
    st.max_s = v[n - 1];
    st.stddev_s = n >= 2 ? sqrt(ss / (double)(n - 1)) : -1.0;
    st.n = n;
    return st;
}

double rl_efficiency(rl_roof roof, double flops, double bytes, double time_s) {
    return (flops / time_s) / rl_attainable_flops_per_s(roof, flops / bytes);
}

/* Rates a roof may have: from 1 per second to 1e30 per second. Within them the ridge (peak /
 * bandwidth, 1e-30 .. 1e30), the attainable throughput (at most the peak) and a bound time
 * (bytes / bandwidth, flops / peak: never more than the amount itself) stay finite and normal
 * for every problem the field table allows; outside them a ridge or time leaves the double
 * range (1e-300 B/s gives an infinite ridge). */
#define RL_ROOF_RATE_MIN 1.0
#define RL_ROOF_RATE_MAX 1e30

rl_status rl_roof_check(rl_roof roof, rl_error *err) {
    const double bw = roof.bandwidth_bytes_per_s, pk = roof.peak_flops_per_s;
    char nb[32];
    if (!isfinite(bw) || !(bw > 0))
        return rl__fail(err, RL_ERR_RANGE, "bandwidth",
                        "expected a finite bandwidth greater than zero, e.g. \"3.35 TB/s\"");
    if (!isfinite(pk) || !(pk > 0))
        return rl__fail(err, RL_ERR_RANGE, "peak",
                        "expected a finite compute rate greater than zero, e.g. \"989 TFLOP/s\"");
    if (bw < RL_ROOF_RATE_MIN || bw > RL_ROOF_RATE_MAX)
        return rl__fail(err, RL_ERR_RANGE, "bandwidth",
                        "expected from 1 B/s to 1e30 B/s (beyond, the ridge and times leave the "
                        "finite range), got %s B/s", rl__num(bw, nb));
    if (pk < RL_ROOF_RATE_MIN || pk > RL_ROOF_RATE_MAX)
        return rl__fail(err, RL_ERR_RANGE, "peak",
                        "expected from 1 FLOP/s to 1e30 FLOP/s (beyond, the ridge and times leave "
                        "the finite range), got %s FLOP/s", rl__num(pk, nb));
    rl__ok(err);
    return RL_OK;
}

static int typed(const char *text) { return text && text[0]; }

rl_status rl_roof_resolve(const rl_roof_request *req, rl_roof_resolved *out, rl_error *err) {
    rl_roof_resolved r = {0};
    const rl_hw *hw = NULL;
    rl_status s = rl_hw_lookup(typed(req->hw) ? req->hw : RL_DEFAULT_HW, "hw", &hw, err);
    if (s != RL_OK) return s;
    const rl_dtype dtype = req->dtype == RL_DTYPE_DEFAULT ? RL_DTYPE_FP16 : req->dtype;
    r.hw = hw;
    r.peak_kind = rl_peak_for_dtype(dtype);
    r.roof.bandwidth_bytes_per_s = hw->bandwidth_bytes_per_s;
    r.roof.peak_flops_per_s = rl_hw_peak_for_dtype(hw, dtype);
    if (typed(req->bandwidth)) {
        s = rl_parse_quantity(req->bandwidth, RL_DIM_BYTES_PER_S, "bandwidth",
                              &r.roof.bandwidth_bytes_per_s, NULL, err);
        if (s != RL_OK) return s;
        r.bandwidth_typed = 1;
    } else if (!(r.roof.bandwidth_bytes_per_s > 0)) {
        return rl__fail(err, RL_ERR_INVALID, "bandwidth",
                        "preset %s has no bandwidth figure; expected a rate such as \"3.35 TB/s\"",
                        hw->id);
    }
    if (typed(req->peak)) {
        s = rl_parse_quantity(req->peak, RL_DIM_FLOPS_PER_S, "peak", &r.roof.peak_flops_per_s, NULL,
                              err);
        if (s != RL_OK) return s;
        r.peak_typed = 1;
    } else if (!(r.roof.peak_flops_per_s > 0) && rl_dtype_block_scaled(dtype)) {
        return rl__fail(err, RL_ERR_INVALID, "dtype",
                        "--dtype %s: preset %s has no block-scaled tensor cores (%s runs against the %s peak "
                        "where they exist); choose a --hw preset "
                        "with one (b200, gb200, b300, gb300, rtx5090, mi355x), give --peak, or keep "
                        "it to the KV cache (--kv-dtype %s)",
                        rl_dtype_name(dtype), hw->id, rl_dtype_name(dtype), rl_peak_name(r.peak_kind),
                        rl_dtype_name(dtype));
    } else if (!(r.roof.peak_flops_per_s > 0)) {
        return rl__fail(err, RL_ERR_INVALID, "peak",
                        "preset %s has no %s peak for %s; expected a rate such as \"989 TFLOP/s\"",
                        hw->id, rl_peak_name(r.peak_kind), rl_dtype_name(dtype));
    }
    if ((s = rl_roof_check(r.roof, err)) != RL_OK) return s;
    r.ridge_flop_per_byte = rl_ridge_flop_per_byte(r.roof);
    if (out) *out = r;
    rl__ok(err);
    return RL_OK;
}

rl_sram rl_sram_budget(const rl_problem *p, const rl_hw *hw) {
    rl_sram s = {0};
    const double br = (double)p->block_m, bc = (double)p->block_n, d = (double)p->head_dim;
    const double acc = 4.0; /* fp32 accumulators */
    s.q_tile_bytes = br * d * rl_dtype_bytes(p->dtype);
    s.k_tile_bytes = bc * d * rl_dtype_bytes(p->kv_dtype);
    const double dv = p->head_dim_v > 0 ? (double)p->head_dim_v : d;
    s.v_tile_bytes = p->kv_lora_rank > 0 ? 0.0 : bc * dv * rl_dtype_bytes(p->kv_dtype);
    s.s_tile_bytes = br * bc * acc;
    s.o_acc_bytes = br * dv * acc;
    s.ml_bytes = 2.0 * br * acc;
    s.total_bytes = s.q_tile_bytes + s.k_tile_bytes + s.v_tile_bytes + s.s_tile_bytes +
                    s.o_acc_bytes + s.ml_bytes;
    if (hw) {
        s.limit_default_bytes = hw->smem_per_block_default_bytes;
        s.limit_optin_bytes = hw->smem_per_block_optin_bytes;
        s.fits_default = s.total_bytes <= s.limit_default_bytes;
        s.fits_optin = s.total_bytes <= s.limit_optin_bytes;
    }
    return s;
}
