/* record_check.c — rl_record_validate: the record's semantics. The reader has already checked
 * JSON types; this checks values, so that records built in memory by the benchmark get the same
 * checks before they are written. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record_internal.h"

/* How close two numbers must be to agree. */
#define FLOPS_MATCH 1e-3    /* the point's FLOPs and core's F */
#define SLIP_MATCH 1e-2     /* a FLOPs ratio and a known slip (×0.5, ×2, causal as full) */
#define RATE_MATCH 0.05     /* a reported rate and flops (or bytes) / median time */
#define SLIP_EXPLAINS 1.5   /* a factor within ×1.5 of a known slip is explained by it */

typedef struct qbuf {
    char a[32], b[32], c[32];
} qbuf;

/* Human-readable quantity for messages ("2.147 GFLOP"). */
static const char *fmtq(double v, rl_dim dim, char *buf) {
    rl_format_quantity(v, dim, RL_PREFIX_SI, 4, buf, 32);
    return buf;
}

static int near_ratio(double a, double b, double rel) {
    if (!(b > 0)) return 0;
    return fabs(a / b - 1.0) <= rel;
}

/* A positive finite amount, or 0 where 0 means "not given". */
/* 0 is "not given"; a positive amount below RL_RECORD_MIN_AMOUNT underflows what is derived. */
static int bad_amount(double v) { return !isfinite(v) || v < 0 || (v > 0 && v < RL_RECORD_MIN_AMOUNT); }
static int tiny(double v) { return v > 0 && v < RL_RECORD_MIN_AMOUNT; }
#define TINY_NOTE ", below 1e-300, the smallest amount a record may give (smaller ones underflow)"

/* Common slips that make a point read N times too high, nearest first. */
static const char *explain_factor(double factor) {
    static const struct {
        double f;
        const char *why;
    } slips[] = {
        {2.0, "×2: a multiply-add counted as 2 FLOPs against a rate quoted in MAC/s, a sparse "
              "(2:4) peak where the dense one applies, or causal work counted as full (N·L "
              "instead of about N·L/2)"},
        {4.0, "×4: two ×2 slips together (e.g. MAC vs FLOP and causal counted as full)"},
        {8.0, "×8: bits counted as bytes"},
        {1000.0, "×1000: a unit slip (ms read as s, GB as MB, GFLOP as TFLOP)"},
        {1e6, "×10⁶: a unit slip of two prefixes (us read as s, GB as kB)"},
    };
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
        double d = fabs(log(factor / slips[i].f));
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best_d <= log(SLIP_EXPLAINS) ? slips[best].why : NULL;
}

/* A factor that equals one of the problem's fields, or the product or ratio of two of them (within
 * 1 %): the problem given is likely not the one measured — an import form answered with another
 * batch or head count scales every point by it, and that is the first thing to check, before a
 * unit slip of the same size (issue 20: a ×8 from B·H blamed on bits counted as bytes). The
 * sentence goes into buf, e.g. "×8 equals the problem's heads H = 8 (the problem given may not be
 * the one measured: check those fields first)"; NULL when no field explains it. */
#define FIELD_MATCH 1e-2
static const char *field_factor(const rl_problem *pb, double factor, char *buf, size_t cap) {
    if (!(factor > 0) || !isfinite(factor)) return NULL;
    double f = factor >= 1.0 ? factor : 1.0 / factor;
    if (f < 1.5) return NULL;
    const struct {
        const char *name;
        double v;
    } x[] = {
        {"batch B", (double)pb->batch},
        {"heads H", (double)pb->heads},
        {"kv_heads Hkv", (double)(pb->kv_heads > 0 ? pb->kv_heads : pb->heads)},
        {"seq N", (double)pb->seq},
        {"kv_len L", (double)(pb->kv_len > 0 ? pb->kv_len : pb->seq)},
        {"head_dim d", (double)pb->head_dim},
    };
    const size_t n = sizeof x / sizeof x[0];
    const char *tail = " (the problem given may not be the one measured: check those fields first)";
    for (size_t i = 0; i < n; i++) {
        if (x[i].v >= 2 && near_ratio(f, x[i].v, FIELD_MATCH)) {
            snprintf(buf, cap, "×%.3g equals the problem's %s = %.0f%s", f, x[i].name, x[i].v, tail);
            return buf;
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (x[i].v >= 2 && x[j].v >= 2 && near_ratio(f, x[i].v * x[j].v, FIELD_MATCH)) {
                snprintf(buf, cap, "×%.3g equals the problem's %s × %s = %.0f × %.0f%s", f, x[i].name,
                         x[j].name, x[i].v, x[j].v, tail);
                return buf;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            if (i != j && x[j].v >= 1 && x[i].v > x[j].v && near_ratio(f, x[i].v / x[j].v, FIELD_MATCH)) {
                snprintf(buf, cap, "×%.3g equals the problem's %s / %s = %.0f / %.0f%s", f, x[i].name,
                         x[j].name, x[i].v, x[j].v, tail);
                return buf;
            }
        }
    }
    return NULL;
}

/* The fields first, then the slip ("…; else ×8: bits counted as bytes"), into buf; NULL when
 * neither explains the factor. */
static const char *explain_with_fields(const rl_problem *pb, double factor, const char *slip,
                                       char *buf, size_t cap) {
    char fields[320];
    const char *ff = field_factor(pb, factor, fields, sizeof fields);
    if (!ff) return slip;
    snprintf(buf, cap, "%s%s%s", ff, slip ? "; else " : "", slip ? slip : "");
    return buf;
}

/* ---------------------------------------------------------------------------------------------
 * Hardware
 * ------------------------------------------------------------------------------------------- */

static void check_preset(const rl_rec_hardware *hw, const char *path, rl_rec_issues *issues) {
    if (!hw->preset || rl_hw_find(hw->preset)) return;
    char p[RL_REC_PATH_MAX], ids[512] = "";
    snprintf(p, sizeof p, "%s.preset", path);
    size_t n = rl_hw_count();
    for (size_t i = 0; i < n; i++) {
        const rl_hw *h = rl_hw_at(i);
        if (!h) break;
        size_t len = strlen(ids);
        snprintf(ids + len, sizeof ids - len, "%s%s", i ? ", " : "", h->id);
    }
    rl__issue(issues, RL_REC_ERROR, RL_ERR_UNKNOWN, p, "unknown preset \"%.40s\"; expected one of %s",
              hw->preset, ids);
}

/* Device details: 0 means "not given"; anything else must be in range. */
static void check_details(const rl_rec_hardware *hw, const char *path, rl_rec_issues *issues) {
    char p[RL_REC_PATH_MAX];
    char nb[32];
    static const char *const ints[] = {"sm_count", "threads"};
    const int64_t ivals[] = {hw->sm_count, hw->threads};
    for (int i = 0; i < 2; i++)
        if (ivals[i] < 0 || ivals[i] > RL_EXACT_INT_MAX) {
            snprintf(p, sizeof p, "%s.%s", path, ints[i]);
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive integer, got %lld",
                      (long long)ivals[i]);
        }
    static const char *const clocks[] = {"sm_clock_hz", "memory_clock_hz"};
    const double cvals[] = {hw->sm_clock_hz, hw->memory_clock_hz};
    for (int i = 0; i < 2; i++)
        if (bad_amount(cvals[i])) {
            snprintf(p, sizeof p, "%s.%s", path, clocks[i]);
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                      "expected a positive finite number of Hz, got %s%s", rl__num(cvals[i], nb),
                      tiny(cvals[i]) ? TINY_NOTE : "");
        }
}

static void check_ceilings(const rl_rec_hardware *hw, const char *path, rl_rec_issues *issues) {
    char p[RL_REC_PATH_MAX];
    char nb[32];
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        const rl_rec_ceiling *c = &hw->ceilings[i];
        snprintf(p, sizeof p, "%s.ceilings[%zu]", path, i);
        if (!c->name || !c->name[0])
            rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "name: missing; expected a non-empty string such as \"HBM\"");
        if (!isfinite(c->value) || c->value < RL_RECORD_MIN_AMOUNT)
            rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive finite %s, got %s%s",
                      c->kind == RL_CEIL_BANDWIDTH ? "bytes_per_s" : "flops_per_s", rl__num(c->value, nb),
                      tiny(c->value) ? TINY_NOTE : "");
    }
}

static void check_hardware(const rl_rec_hardware *hw, const char *path, rl_rec_issues *issues,
                           int name_required) {
    if (name_required && (!hw->name || !hw->name[0])) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "%s.name", path);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, p,
                  "missing; expected the hardware's name (a non-empty string)");
    }
    check_preset(hw, path, issues);
    check_details(hw, path, issues);
    check_ceilings(hw, path, issues);
}

/* The roof a point runs against: its preset's datasheet figures, raised by any measured or
 * stated ceiling in the record (the envelope: a point above it is above every roof given). */
static void point_roof(const rl_rec_hardware *hw, rl_dtype dtype, double *beta, double *pi) {
    *beta = 0;
    *pi = 0;
    const rl_hw *preset = hw && hw->preset ? rl_hw_find(hw->preset) : NULL;
    if (preset) {
        *beta = preset->bandwidth_bytes_per_s;
        *pi = rl_hw_peak_for_dtype(preset, dtype);
    }
    if (!hw) return;
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        const rl_rec_ceiling *c = &hw->ceilings[i];
        if (!(c->value > 0) || !isfinite(c->value)) continue;
        if (c->kind == RL_CEIL_BANDWIDTH) {
            if (c->dram && c->value > *beta) *beta = c->value;
        } else if (c->dtype == RL_DTYPE_DEFAULT || c->dtype == dtype) {
            if (c->value > *pi) *pi = c->value;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * One point
 * ------------------------------------------------------------------------------------------- */

/* Problem: core resolves and checks it (sizes, H multiple of Hkv, causal N ≤ L); the error names
 * the JSON key (the field table maps core's flag names). Fills the model's figures. 0 or -1. */
static int check_problem(rl_problem *pb, const char *base, rl_rec_issues *issues,
                         rl_rec_derived *dv) {
    rl_workload work;
    rl_error err = {0};
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "%s.problem", base);
    if (rl_workload_compute(pb, &work, &err) != RL_OK) {
        rl__problem_error(issues, p, &err);
        return -1;
    }
    *pb = work.problem;
    if (dv) {
        dv->model_flops = work.flops;
        for (int m = 0; m < RL_MODEL_COUNT; m++)
            dv->model_bytes[m] = work.traffic[m].available ? work.traffic[m].bytes : 0;
    }
    return 0;
}

/* A time of the timing block: positive finite, or 0 ("not given") where `optional`. */
static int check_time(const char *base, const char *key, double v, int optional,
                      rl_rec_issues *issues) {
    if (!bad_amount(v) && (optional || v > 0)) return 0;
    char p[RL_REC_PATH_MAX];
    char nb[32];
    snprintf(p, sizeof p, "%s.timing.%s", base, key);
    return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                     "expected a positive finite number of seconds, got %s%s", rl__num(v, nb),
                     tiny(v) ? TINY_NOTE : "");
}

/* The mean within [min, max] where they are known; the standard deviation finite (< 0: unknown). */
static void check_spread(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    char p[RL_REC_PATH_MAX];
    if (check_time(base, "mean_s", pt->time_mean_s, 1, issues) == 0 && pt->time_mean_s > 0 &&
        ((pt->time_min_s > 0 && pt->time_mean_s < pt->time_min_s) ||
         (pt->time_max_s > 0 && pt->time_mean_s > pt->time_max_s))) {
        snprintf(p, sizeof p, "%s.timing.mean_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INCONSISTENT, p,
                  "expected min_s ≤ mean_s ≤ max_s, got %g outside [%g, %g]", pt->time_mean_s,
                  pt->time_min_s, pt->time_max_s);
    }
    if (!isfinite(pt->time_stddev_s)) {
        snprintf(p, sizeof p, "%s.timing.stddev_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                  "expected a non-negative finite number of seconds, got %g", pt->time_stddev_s);
    }
}

/* min ≤ median ≤ max, runs positive. 0, or -1 when the median itself is unusable. */
static int check_timing(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    char p[RL_REC_PATH_MAX];
    int ok = check_time(base, "median_s", pt->time_median_s, 0, issues);
    if (check_time(base, "min_s", pt->time_min_s, 1, issues) == 0 && pt->time_min_s > 0 &&
        pt->time_median_s > 0 && pt->time_min_s > pt->time_median_s) {
        snprintf(p, sizeof p, "%s.timing.min_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INCONSISTENT, p,
                  "expected min_s ≤ median_s, got %g > %g", pt->time_min_s, pt->time_median_s);
    }
    if (check_time(base, "max_s", pt->time_max_s, 1, issues) == 0 && pt->time_max_s > 0 &&
        pt->time_max_s < pt->time_median_s) {
        snprintf(p, sizeof p, "%s.timing.max_s", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_INCONSISTENT, p,
                  "expected max_s ≥ median_s, got %g < %g", pt->time_max_s, pt->time_median_s);
    }
    check_spread(pt, base, issues);
    if (pt->runs < 0) {
        snprintf(p, sizeof p, "%s.timing.runs", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive integer, got %lld",
                  (long long)pt->runs);
    }
    return ok;
}

/* One amount of a point: bad → an error "expected a positive finite WHAT, got V". 0 or -1. */
static int check_amount(const char *base, const char *key, double v, int ok, const char *what,
                        rl_rec_issues *issues) {
    if (ok) return 0;
    char p[RL_REC_PATH_MAX];
    char nb[32];
    snprintf(p, sizeof p, "%s.%s", base, key);
    return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a %s, got %s%s", what, rl__num(v, nb),
                     tiny(v) ? TINY_NOTE : "");
}

/* Work, bytes, errors, reported rates, traffic model. 0, or -1 when the point is unusable. */
static int check_amounts(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    int bad = 0;
    bad |= check_amount(base, "flops", pt->flops, isfinite(pt->flops) && pt->flops >= RL_RECORD_MIN_AMOUNT,
                        "positive finite FLOP count", issues);
    bad |= check_amount(base, "modelled_bytes", pt->modelled_bytes, !bad_amount(pt->modelled_bytes),
                        "positive finite byte count", issues);
    bad |= check_amount(base, "measured_bytes", pt->measured_bytes, !bad_amount(pt->measured_bytes),
                        "positive finite byte count", issues);
    bad |= check_amount(base, "measured_l2_bytes", pt->measured_l2_bytes,
                        !bad_amount(pt->measured_l2_bytes), "positive finite byte count", issues);
    check_amount(base, "max_abs_error", pt->max_abs_error, isfinite(pt->max_abs_error),
                 "finite non-negative number", issues);
    check_amount(base, "rel_l2_error", pt->rel_l2_error, isfinite(pt->rel_l2_error),
                 "finite non-negative number", issues);
    check_amount(base, "reported.flops_per_s", pt->reported_flops_per_s,
                 !bad_amount(pt->reported_flops_per_s), "positive finite FLOP/s", issues);
    check_amount(base, "reported.bytes_per_s", pt->reported_bytes_per_s,
                 !bad_amount(pt->reported_bytes_per_s), "positive finite bytes/s", issues);
    if ((int)pt->traffic_model < 0 || (int)pt->traffic_model > (int)RL_TRAFFIC_OTHER) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "%s.traffic_model", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_UNKNOWN, p,
                  "expected one of \"compulsory\", \"tiled\", \"naive\", \"other\"");
        bad = -1;
    }
    return bad;
}

/* Derived values must stay finite (flops 1e308 over a nanosecond is an infinite rate; 1e-320
 * bytes an infinite intensity): refused at the JSON path of the amount that makes them so. */
static int check_derived_finite(const rl_rec_point *pt, const char *base, const rl_rec_derived *dv,
                                rl_rec_issues *issues) {
    static const char *const byte_keys[] = {"measured_bytes", "modelled_bytes", "problem"};
    char p[RL_REC_PATH_MAX];
    if (!isfinite(dv->achieved_flops_per_s) || !isfinite(dv->intensity_flop_per_byte)) {
        snprintf(p, sizeof p, "%s.%s", base,
                 !isfinite(dv->achieved_flops_per_s) ? "flops" : byte_keys[dv->bytes_source % 3]);
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "%s gives %s beyond the finite range (flops %g, bytes %g, median %g s)",
                         !isfinite(dv->achieved_flops_per_s) ? "with timing.median_s" : "with flops",
                         !isfinite(dv->achieved_flops_per_s) ? "a FLOP rate" : "an intensity",
                         pt->flops, dv->bytes, pt->time_median_s);
    }
    /* and not underflow: a positive amount over a huge one giving 0 or a subnormal rate */
    if ((dv->achieved_flops_per_s >= 0 && dv->achieved_flops_per_s < DBL_MIN) ||
        (dv->intensity_flop_per_byte >= 0 && dv->intensity_flop_per_byte < DBL_MIN)) {
        int rate = dv->achieved_flops_per_s < DBL_MIN;
        snprintf(p, sizeof p, "%s.flops", base);
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "%s gives %s that underflows (flops %.17g, bytes %.17g, median %.17g s)",
                         rate ? "with timing.median_s" : "with the bytes",
                         rate ? "a FLOP rate" : "an intensity", pt->flops, dv->bytes,
                         pt->time_median_s);
    }
    if (!isfinite(dv->l2_intensity_flop_per_byte)) {
        snprintf(p, sizeof p, "%s.measured_l2_bytes", base);
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "with flops gives an L2 intensity beyond the finite range (flops %g, L2 "
                         "bytes %g)", pt->flops, pt->measured_l2_bytes);
    }
    if (!isfinite(dv->achieved_bytes_per_s)) {
        snprintf(p, sizeof p, "%s.%s", base, byte_keys[dv->bytes_source % 3]);
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "with timing.median_s gives a byte rate beyond the finite range (bytes %g, "
                         "median %g s)", dv->bytes, pt->time_median_s);
    }
    return 0;
}

/* measured_bytes far below the compulsory traffic (every input read once, the output written
 * once) or far above the naive one (×10): almost always a unit slip. A warning naming it. */
static void check_measured_bytes(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    const rl_rec_derived *dv = &pt->derived;
    double lo = dv->model_bytes[RL_MODEL_COMPULSORY], hi = dv->model_bytes[RL_MODEL_NAIVE];
    if (!(pt->measured_bytes > 0)) return;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "%s.measured_bytes", base);
    qbuf q;
    char because[640];
    if (lo > 0 && pt->measured_bytes * 10 < lo) {
        const char *why = explain_with_fields(&pt->problem, lo / pt->measured_bytes,
                                              explain_factor(lo / pt->measured_bytes), because,
                                              sizeof because);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s is ×%.3g below the compulsory traffic %s of the problem; likely %s",
                  fmtq(pt->measured_bytes, RL_DIM_BYTES, q.a), lo / pt->measured_bytes,
                  fmtq(lo, RL_DIM_BYTES, q.b),
                  why ? why : "a unit slip (KB or MB read as bytes) or another problem than the "
                              "one measured");
    } else if (hi > 0 && pt->measured_bytes > 10 * hi) {
        const char *why = explain_with_fields(&pt->problem, pt->measured_bytes / hi,
                                              explain_factor(pt->measured_bytes / hi), because,
                                              sizeof because);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s is ×%.3g above the naive traffic %s of the problem; likely %s",
                  fmtq(pt->measured_bytes, RL_DIM_BYTES, q.a), pt->measured_bytes / hi,
                  fmtq(hi, RL_DIM_BYTES, q.b),
                  why ? why : "a unit slip (bytes counted as bits, or in the wrong prefix) or "
                              "another problem than the one measured");
    }
}

/* The bytes the point is placed with: measured, else modelled, else core's. 0 or -1. */
static int place_bytes(const rl_rec_point *pt, const char *base, rl_rec_derived *dv,
                       rl_rec_issues *issues) {
    if (pt->measured_bytes > 0) {
        dv->bytes = pt->measured_bytes;
        dv->bytes_source = 0;
    } else if (pt->modelled_bytes > 0) {
        dv->bytes = pt->modelled_bytes;
        dv->bytes_source = 1;
    } else if (pt->traffic_model != RL_TRAFFIC_OTHER && dv->model_bytes[pt->traffic_model] > 0) {
        dv->bytes = dv->model_bytes[pt->traffic_model];
        dv->bytes_source = 2;
    } else {
        return rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, base,
                         "no byte count: expected measured_bytes or modelled_bytes, or a "
                         "traffic_model core models for this problem (\"%s\" is not modelled for "
                         "it)",
                         rl_rec_traffic_name(pt->traffic_model));
    }
    dv->intensity_flop_per_byte = pt->flops / dv->bytes;
    dv->l2_intensity_flop_per_byte = pt->measured_l2_bytes > 0 ? pt->flops / pt->measured_l2_bytes : 0;
    dv->achieved_flops_per_s = pt->flops / pt->time_median_s;
    dv->achieved_bytes_per_s = dv->bytes / pt->time_median_s;
    return check_derived_finite(pt, base, dv, issues);
}

/* A causal point's FLOPs against the non-causal count: 1 flagged (causal counted as full),
 * 2 accepted (flash-attention's benchmarks count causal as N·L/2 pairs), 0 neither. */
static int causal_flops(const rl_rec_point *pt, const char *path, rl_rec_issues *issues) {
    if (!pt->problem.causal) return 0;
    rl_problem full = pt->problem;
    full.causal = 0;
    rl_workload wf;
    if (rl_workload_compute(&full, &wf, NULL) != RL_OK) return 0;
    const rl_rec_derived *dv = &pt->derived;
    qbuf q;
    if (near_ratio(pt->flops, wf.flops, SLIP_MATCH)) {
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, path,
                  "%s is the non-causal count (%s, N·L pairs) for a causal problem whose F is %s: "
                  "causal counted as full (×%.3g)",
                  fmtq(pt->flops, RL_DIM_FLOP, q.a), fmtq(wf.flops, RL_DIM_FLOP, q.b),
                  fmtq(dv->model_flops, RL_DIM_FLOP, q.c), pt->flops / dv->model_flops);
        return 1;
    }
    if (pt->problem.seq == pt->problem.kv_len && near_ratio(pt->flops, wf.flops / 2.0, FLOPS_MATCH))
        return 2;
    return 0;
}

/* The point's FLOPs against core's F for its problem (the same problem has one F). */
static void check_flops(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    const rl_rec_derived *dv = &pt->derived;
    if (near_ratio(pt->flops, dv->model_flops, FLOPS_MATCH)) return;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "%s.flops", base);
    if (causal_flops(pt, p, issues)) return;
    double ratio = pt->flops / dv->model_flops;
    const char *why = NULL;
    if (near_ratio(ratio, 0.5, SLIP_MATCH))
        why = "×0.5: a multiply-add counted as 1 FLOP (MAC vs FLOP)";
    else if (near_ratio(ratio, 2.0, SLIP_MATCH))
        why = "×2: each multiply-add counted twice, or causal work counted as full";
    else if (ratio > 1)
        why = explain_factor(ratio);
    char because[640];
    why = explain_with_fields(&pt->problem, ratio, why, because, sizeof because);
    qbuf q;
    rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
              "%s differs from the model's F = %s for this problem by ×%.4g%s%s",
              fmtq(pt->flops, RL_DIM_FLOP, q.a), fmtq(dv->model_flops, RL_DIM_FLOP, q.b), ratio,
              why ? "; likely " : "", why ? why : "");
}

/* Reported rates against what the record's own numbers give. */
static void check_reported(const rl_rec_point *pt, const char *base, rl_rec_issues *issues) {
    const rl_rec_derived *dv = &pt->derived;
    char p[RL_REC_PATH_MAX];
    qbuf q;
    if (pt->reported_flops_per_s > 0 &&
        !near_ratio(pt->reported_flops_per_s, dv->achieved_flops_per_s, RATE_MATCH)) {
        snprintf(p, sizeof p, "%s.reported.flops_per_s", base);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s disagrees with flops / timing.median_s = %s (×%.3g)",
                  fmtq(pt->reported_flops_per_s, RL_DIM_FLOPS_PER_S, q.a),
                  fmtq(dv->achieved_flops_per_s, RL_DIM_FLOPS_PER_S, q.b),
                  pt->reported_flops_per_s / dv->achieved_flops_per_s);
    }
    if (pt->reported_bytes_per_s > 0 &&
        !near_ratio(pt->reported_bytes_per_s, dv->achieved_bytes_per_s, RATE_MATCH)) {
        static const char *const sources[] = {"measured_bytes", "modelled_bytes",
                                              "the model's bytes"};
        snprintf(p, sizeof p, "%s.reported.bytes_per_s", base);
        rl__issue(issues, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "%s disagrees with %s / timing.median_s = %s (×%.3g)",
                  fmtq(pt->reported_bytes_per_s, RL_DIM_BYTES_PER_S, q.a),
                  sources[dv->bytes_source % 3],
                  fmtq(dv->achieved_bytes_per_s, RL_DIM_BYTES_PER_S, q.b),
                  pt->reported_bytes_per_s / dv->achieved_bytes_per_s);
    }
}

/* A point placed with core's bytes for its traffic model (the record gave none) and above its
 * roof: does another traffic model put it at or below the roof? The one with the fewest bytes
 * that does, as a sentence in buf; NULL when none (or the bytes were the record's own). Checked
 * before the ×2 slips: under GQA the tiled model counts K/V once per query head. */
static const char *traffic_explains(const rl_rec_point *pt, rl_roof roof, char *buf, size_t cap) {
    const rl_rec_derived *dv = &pt->derived;
    if (dv->bytes_source != 2) return NULL;
    int best = -1;
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        double b = dv->model_bytes[m];
        if (m == (int)pt->traffic_model || !(b > 0) || b >= dv->bytes) continue;
        if (rl_efficiency(roof, pt->flops, b, pt->time_median_s) > 1.0) continue;
        if (best < 0 || b < dv->model_bytes[best]) best = m;
    }
    if (best < 0) return NULL;
    qbuf q;
    int gqa = pt->problem.kv_heads > 0 && pt->problem.kv_heads != pt->problem.heads;
    snprintf(buf, cap,
             "the traffic model: core's \"%s\" bytes (%s; the record gives none) vs \"%s\" %s: "
             "%.0f %% of the roof%s; set traffic_model",
             rl_rec_traffic_name(pt->traffic_model), fmtq(dv->bytes, RL_DIM_BYTES, q.a),
             rl_rec_traffic_name((rl_rec_traffic)best), fmtq(dv->model_bytes[best], RL_DIM_BYTES, q.b),
             100.0 * rl_efficiency(roof, pt->flops, dv->model_bytes[best], pt->time_median_s),
             gqa && pt->traffic_model == RL_TRAFFIC_TILED ? " (GQA: tiled counts K/V per query head)"
                                                          : "");
    return buf;
}

/* The roof check: above its own hardware's roof is almost always a unit or counting slip. */
static void check_roof(rl_rec_point *pt, const rl_rec_hardware *hw, const char *base,
                       rl_rec_issues *issues) {
    rl_rec_derived *dv = &pt->derived;
    double beta, pi;
    point_roof(hw, pt->problem.dtype, &beta, &pi);
    dv->roof_bandwidth_bytes_per_s = beta;
    dv->roof_peak_flops_per_s = pi;
    if (!(beta > 0 && pi > 0)) return;
    rl_roof roof = {beta, pi};
    dv->roof_known = 1;
    dv->attainable_flops_per_s = rl_attainable_flops_per_s(roof, dv->intensity_flop_per_byte);
    dv->efficiency = rl_efficiency(roof, pt->flops, dv->bytes, pt->time_median_s);
    if (dv->efficiency <= 1.0) return;
    char traffic[256];
    const char *why = traffic_explains(pt, roof, traffic, sizeof traffic);
    char because[640];
    if (!why) why = explain_with_fields(&pt->problem, dv->efficiency, explain_factor(dv->efficiency),
                                        because, sizeof because);
    qbuf q;
    rl__issue(issues, RL_REC_WARNING, RL_ERR_RANGE, base,
              "above its own roof: %s at %.3g FLOP/B is ×%.3g the attainable %s of %s; %s%s",
              fmtq(dv->achieved_flops_per_s, RL_DIM_FLOPS_PER_S, q.a), dv->intensity_flop_per_byte,
              dv->efficiency, fmtq(dv->attainable_flops_per_s, RL_DIM_FLOPS_PER_S, q.b),
              hw && hw->name ? hw->name : "its hardware",
              why ? "likely " : "no common slip explains it: check the flops, bytes and timing "
                                "units, or whether the data was served from a cache faster than "
                                "the roof's memory",
              why ? why : "");
}

static void check_point(rl_record *r, size_t index, rl_rec_issues *issues) {
    rl_rec_point *pt = &r->points[index];
    char base[32], p[RL_REC_PATH_MAX];
    snprintf(base, sizeof base, "points[%zu]", index);
    memset(&pt->derived, 0, sizeof pt->derived);
    int bad = check_problem(&pt->problem, base, issues, &pt->derived);
    bad |= check_timing(pt, base, issues);
    pt->derived.time_cv = pt->time_stddev_s >= 0 && pt->time_mean_s > 0
                              ? pt->time_stddev_s / pt->time_mean_s : -1.0;
    bad |= check_amounts(pt, base, issues);
    if (pt->hardware) {
        snprintf(p, sizeof p, "%s.hardware", base);
        check_hardware(pt->hardware, p, issues, 1);
    }
    if (bad || place_bytes(pt, base, &pt->derived, issues) != 0) return;
    check_flops(pt, base, issues);
    check_measured_bytes(pt, base, issues);
    check_reported(pt, base, issues);
    check_roof(pt, pt->hardware ? pt->hardware : &r->hardware, base, issues);
    rl_rec_prediction pred;
    rl_rec_point_predict(pt, pt->hardware ? pt->hardware : &r->hardware, &pred);
    if (pred.status == RL_REC_PRED_OK) {
        pt->derived.predicted = 1;
        pt->derived.predicted_time_s = pred.prediction.time_s;
        pt->derived.predicted_flops_per_s = pt->flops / pred.prediction.time_s;
        pt->derived.prediction_error = pred.error;
    }
}

/* A skipped run: its problem resolves, its traffic model is known. */
static void check_skip(rl_rec_skip *s, size_t index, rl_rec_issues *issues) {
    char base[32], p[RL_REC_PATH_MAX];
    snprintf(base, sizeof base, "skipped[%zu]", index);
    check_problem(&s->problem, base, issues, NULL);
    if ((int)s->traffic_model < 0 || (int)s->traffic_model > (int)RL_TRAFFIC_OTHER) {
        snprintf(p, sizeof p, "%s.traffic_model", base);
        rl__issue(issues, RL_REC_ERROR, RL_ERR_UNKNOWN, p,
                  "expected one of \"compulsory\", \"tiled\", \"naive\", \"other\"");
    }
    static const char *const keys[] = {"kernel", "reason"};
    const char *vals[] = {s->kernel, s->reason};
    for (int i = 0; i < 2; i++)
        if (!vals[i] || !vals[i][0]) {
            snprintf(p, sizeof p, "%s.%s", base, keys[i]);
            rl__issue(issues, RL_REC_ERROR, RL_ERR_INVALID, p, "missing; expected a non-empty string");
        }
}

/* ---------------------------------------------------------------------------------------------
 * Strings: valid UTF-8 of at most RL_RECORD_MAX_STRING characters (what the reader accepts)
 * ------------------------------------------------------------------------------------------- */

/* rl__check_string at "PREFIX.KEY" (or "PREFIX[I]" with key NULL and index i). */
static void check_str_at(rl_rec_issues *is, const char *prefix, const char *key, size_t i,
                         const char *s) {
    char p[RL_REC_PATH_MAX + 64];
    if (key)
        snprintf(p, sizeof p, "%s.%s", prefix, key);
    else
        snprintf(p, sizeof p, "%s[%zu]", prefix, i);
    rl__check_string(is, p, s);
}

static void check_hw_strings(rl_rec_issues *is, const char *path, const rl_rec_hardware *hw) {
    char p[RL_REC_PATH_MAX];
    static const char *const names[] = {"name", "preset", "compute_capability", "cpu_model",
                                        "driver_version", "runtime_version"};
    const char *vals[] = {hw->name, hw->preset, hw->compute_capability, hw->cpu_model,
                          hw->driver_version, hw->runtime_version};
    for (int i = 0; i < 6; i++) check_str_at(is, path, names[i], 0, vals[i]);
    for (size_t i = 0; i < hw->ceiling_count; i++) {
        snprintf(p, sizeof p, "%s.ceilings[%zu]", path, i);
        check_str_at(is, p, "name", 0, hw->ceilings[i].name);
        check_str_at(is, p, "method", 0, hw->ceilings[i].method);
    }
}

static void check_provenance_strings(const rl_record *r, rl_rec_issues *is) {
    const rl_rec_provenance *pv = &r->provenance;
    check_str_at(is, "provenance", "date", 0, pv->date);
    if (pv->date && !rl__string_problem(pv->date) && !rl__date_ok(pv->date))
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "provenance.date",
                  "expected an ISO 8601 date (YYYY-MM-DD...), got \"%.40s\"", pv->date);
    check_str_at(is, "provenance", "source", 0, pv->source);
    check_str_at(is, "provenance", "tool", 0, pv->tool);
    check_str_at(is, "provenance", "notes", 0, pv->notes);
    for (size_t i = 0; i < pv->artifact_count; i++)
        check_str_at(is, "provenance.artifacts", NULL, i, pv->artifacts[i]);
}

static void check_software_strings(const rl_record *r, rl_rec_issues *is) {
    const rl_rec_software *sw = &r->software;
    check_str_at(is, "software", "kernel", 0, sw->kernel);
    check_str_at(is, "software", "kernel_version", 0, sw->kernel_version);
    check_str_at(is, "software", "git_revision", 0, sw->git_revision);
    check_str_at(is, "software", "compiler", 0, sw->compiler);
    check_str_at(is, "software", "flags", 0, sw->flags);
    if (sw->argv_count > RL_RECORD_MAX_ARGV) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "software.argv",
                  "expected at most %d arguments, got %zu", RL_RECORD_MAX_ARGV, sw->argv_count);
        return;
    }
    for (size_t i = 0; i < sw->argv_count; i++) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "software.argv[%zu]", i);
        if (!sw->argv[i])
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected a string, got nothing");
        else
            rl__check_string(is, p, sw->argv[i]);
    }
}

static void check_point_strings(const rl_record *r, rl_rec_issues *is) {
    char p[RL_REC_PATH_MAX];
    for (size_t i = 0; i < r->point_count && i < RL_RECORD_MAX_POINTS; i++) {
        const rl_rec_point *pt = &r->points[i];
        snprintf(p, sizeof p, "points[%zu]", i);
        check_str_at(is, p, "kernel", 0, pt->kernel);
        check_str_at(is, p, "label", 0, pt->label);
        check_str_at(is, p, "figure", 0, pt->figure);
        check_str_at(is, p, "reading_error", 0, pt->reading_error);
        if (pt->has_profile && ((int)pt->profile < 0 || pt->profile >= RL_KERNEL_COUNT)) {
            snprintf(p, sizeof p, "points[%zu].profile", i);
            rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, p,
                      "expected a kernel profile (rl_kernel), got %d", (int)pt->profile);
            snprintf(p, sizeof p, "points[%zu]", i);
        }
        if ((int)pt->set < RL_REC_SET_NONE || pt->set > RL_REC_SET_HELD_OUT) {
            snprintf(p, sizeof p, "points[%zu].set", i);
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "expected \"fit\" or \"held-out\" (rl_rec_set), got %d", (int)pt->set);
            snprintf(p, sizeof p, "points[%zu]", i);
        }
        if (pt->hardware) {
            snprintf(p, sizeof p, "points[%zu].hardware", i);
            check_hw_strings(is, p, pt->hardware);
        }
        if (pt->runs > RL_EXACT_INT_MAX) {
            snprintf(p, sizeof p, "points[%zu].timing.runs", i);
            rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p, "expected a positive integer up to 2^53");
        }
    }
    for (size_t i = 0; i < r->skipped_count && i < RL_RECORD_MAX_POINTS; i++) {
        snprintf(p, sizeof p, "skipped[%zu]", i);
        check_str_at(is, p, "kernel", 0, r->skipped[i].kernel);
        check_str_at(is, p, "reason", 0, r->skipped[i].reason);
    }
}

static void check_strings(const rl_record *r, rl_rec_issues *is) {
    check_provenance_strings(r, is);
    check_hw_strings(is, "hardware", &r->hardware);
    check_software_strings(r, is);
    check_point_strings(r, is);
}

/* ---------------------------------------------------------------------------------------------
 * The record
 * ------------------------------------------------------------------------------------------- */

static void check_header(const rl_record *r, rl_rec_issues *is) {
    if (r->schema_version != RL_RECORD_SCHEMA_VERSION)
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNSUPPORTED, "schema_version",
                  "unknown schema version %d; this reader knows %d", r->schema_version,
                  RL_RECORD_SCHEMA_VERSION);
    if ((int)r->provenance.kind < 0 || r->provenance.kind >= RL_PROV_COUNT)
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "provenance.kind",
                  "expected one of \"measured\", \"historical-unaudited\", \"model\", "
                  "\"published\"");
    check_strings(r, is);
    if (!r->software.kernel_version || !r->software.kernel_version[0])
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "software.kernel_version",
                  "missing; expected the kernel's version (a non-empty string, e.g. a tag or git "
                  "revision)");
    /* Hardware: the record's block may lack a name only when every point has its own. */
    int all_points_have_hw = r->point_count > 0;
    for (size_t i = 0; i < r->point_count; i++)
        if (!r->points[i].hardware) all_points_have_hw = 0;
    check_hardware(&r->hardware, "hardware", is, !all_points_have_hw);
}

rl_status rl_record_validate(rl_record *r, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    if (!r) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no record");
        rl_rec_issues_free(&local);
        return RL_ERR_INVALID;
    }
    check_header(r, is);
    if (r->point_count > RL_RECORD_MAX_POINTS)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "points", "expected at most %d points, got %zu",
                  RL_RECORD_MAX_POINTS, r->point_count);
    else
        for (size_t i = 0; i < r->point_count; i++) check_point(r, i, is);
    if (r->skipped_count > RL_RECORD_MAX_POINTS)
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "skipped",
                  "expected at most %d skipped runs, got %zu", RL_RECORD_MAX_POINTS,
                  r->skipped_count);
    else
        for (size_t i = 0; i < r->skipped_count; i++) check_skip(&r->skipped[i], i, is);
    rl_status st = rl__first_error(is, before);
    rl_rec_issues_free(&local);
    return st;
}
