/*
 * rooflab_wasm.c — the page's door into core/, compiled with Emscripten.
 *
 * A thin binding in the squoosh/sokol style: it moves numbers and strings across the C↔JS boundary
 * and turns core's rl_error into a message the page shows. No model arithmetic lives here; every
 * figure comes from core (rl_report_compute, rl_sweep, rl_parse_quantity, rl_format_quantity ...).
 *
 * The boundary is a few flat double arrays whose slots are named by this file:
 *   in   rlw_in_key(i)  for i < rlw_in_count()   (problem, roof, preset index)
 *   out  rlw_out_key(i) for i < rlw_out_count()  (everything one evaluation shows)
 *   row  rlw_row_key(i) for i < rlw_row_width()  (one row of a sweep)
 * web/js/model.js reads the names once at start-up and addresses slots by name, so the layout has
 * one source of truth: the tables below.
 *
 * Strings returned (const char *) point into static storage of core or of this file and stay
 * valid until the next call that returns a string of the same kind. Errors: functions that can
 * fail return an rl_status (0 = ok); rlw_error_message() / rlw_error_field() then hold core's text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rooflab/rooflab.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define RLW_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define RLW_EXPORT
#endif

#define RLW_FORMAT_MAX 64
#define RLW_SWEEP_MAX 4096 /* rows one sweep call may write */

static rl_error rlw_err;               /* the last error, owned by this binding */
static char rlw_format_buf[RLW_FORMAT_MAX];

static void rlw_clear_error(void) { memset(&rlw_err, 0, sizeof rlw_err); }

RLW_EXPORT const char *rlw_version(void) { return RL_VERSION; }
RLW_EXPORT const char *rlw_error_message(void) { return rlw_err.message; }
RLW_EXPORT const char *rlw_error_field(void) { return rlw_err.field; }
RLW_EXPORT const char *rlw_status_text(int status) { return rl_status_text((rl_status)status); }

/* ---------------------------------------------------------------------------------------------
 * Input slots
 * ------------------------------------------------------------------------------------------- */

#define RLW_IN_XMACRO(X)                                                                           \
    X(IN_BATCH, "batch")                                                                           \
    X(IN_HEADS, "heads")                                                                           \
    X(IN_KV_HEADS, "kv-heads")   /* 0 = H */                                                      \
    X(IN_SEQ, "seq")                                                                               \
    X(IN_KV_LEN, "kv-len")       /* 0 = N */                                                      \
    X(IN_HEAD_DIM, "head-dim")                                                                     \
    X(IN_DTYPE, "dtype")         /* rl_dtype */                                                   \
    X(IN_KV_DTYPE, "kv-dtype")   /* rl_dtype, 0 = dtype */                                        \
    X(IN_CAUSAL, "causal")                                                                         \
    X(IN_PASS, "pass")           /* rl_pass */                                                    \
    X(IN_BLOCK_M, "block-m")                                                                       \
    X(IN_BLOCK_N, "block-n")                                                                       \
    X(IN_BANDWIDTH, "bandwidth") /* B/s */                                                        \
    X(IN_PEAK, "peak")           /* FLOP/s */                                                     \
    X(IN_HW, "hw")               /* preset index for the SRAM limits, -1 = none */

enum {
#define RLW_X_ENUM(name, key) name,
    RLW_IN_XMACRO(RLW_X_ENUM)
#undef RLW_X_ENUM
        IN_COUNT
};
static const char *const rlw_in_keys[IN_COUNT] = {
#define RLW_X_KEY(name, key) key,
    RLW_IN_XMACRO(RLW_X_KEY)
#undef RLW_X_KEY
};

RLW_EXPORT int rlw_in_count(void) { return IN_COUNT; }
RLW_EXPORT const char *rlw_in_key(int i) { return (i >= 0 && i < IN_COUNT) ? rlw_in_keys[i] : ""; }

/* Integer slots: the page sends whole numbers; anything else is rejected here (not rounded) so
 * that a fractional value can never be evaluated silently. */
static int rlw_int_slot(const double *in, int slot, int64_t *out) {
    double v = in[slot];
    if (!(v == v) || v < -9.0e15 || v > 9.0e15 || (double)(int64_t)v != v) {
        rlw_err.status = RL_ERR_INVALID;
        strncpy(rlw_err.field, rlw_in_keys[slot], RL_ERROR_FIELD_MAX - 1);
        strncpy(rlw_err.message, rlw_in_keys[slot], RL_ERROR_MESSAGE_MAX - 1);
        strncat(rlw_err.message, ": expected a whole number",
                RL_ERROR_MESSAGE_MAX - strlen(rlw_err.message) - 1);
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

static rl_status rlw_read_problem(const double *in, rl_problem *p, rl_roof *roof,
                                  const rl_hw **hw) {
    int64_t v[IN_COUNT];
    memset(p, 0, sizeof *p);
    for (int s = 0; s < IN_COUNT; s++) {
        if (s == IN_BANDWIDTH || s == IN_PEAK) continue;
        if (!rlw_int_slot(in, s, &v[s])) return RL_ERR_INVALID;
    }
    p->batch = v[IN_BATCH];
    p->heads = v[IN_HEADS];
    p->kv_heads = v[IN_KV_HEADS];
    p->seq = v[IN_SEQ];
    p->kv_len = v[IN_KV_LEN];
    p->head_dim = v[IN_HEAD_DIM];
    for (int s = IN_DTYPE; s <= IN_KV_DTYPE; s++) {
        if (v[s] < 0 || v[s] >= RL_DTYPE_COUNT) {
            rlw_err.status = RL_ERR_UNKNOWN;
            snprintf(rlw_err.field, sizeof rlw_err.field, "%s", rlw_in_keys[s]);
            snprintf(rlw_err.message, sizeof rlw_err.message, "%s: unknown dtype index %lld",
                     rlw_in_keys[s], (long long)v[s]);
            return RL_ERR_UNKNOWN;
        }
    }
    p->dtype = (rl_dtype)v[IN_DTYPE];
    p->kv_dtype = (rl_dtype)v[IN_KV_DTYPE];
    p->causal = v[IN_CAUSAL] != 0;
    p->pass = v[IN_PASS] == 1 ? RL_PASS_BWD : RL_PASS_FWD;
    p->block_m = v[IN_BLOCK_M];
    p->block_n = v[IN_BLOCK_N];
    roof->bandwidth_bytes_per_s = in[IN_BANDWIDTH];
    roof->peak_flops_per_s = in[IN_PEAK];
    *hw = v[IN_HW] >= 0 ? rl_hw_at((size_t)v[IN_HW]) : NULL;
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * One evaluation
 * ------------------------------------------------------------------------------------------- */

#define RLW_MODEL_SLOTS(X, m, M)                                                                   \
    X(M##_AVAILABLE, m ".available")                                                               \
    X(M##_BYTES, m ".bytes")                                                                       \
    X(M##_Q_BYTES, m ".q_bytes")                                                                   \
    X(M##_K_BYTES, m ".k_bytes")                                                                   \
    X(M##_V_BYTES, m ".v_bytes")                                                                   \
    X(M##_O_BYTES, m ".o_bytes")                                                                   \
    X(M##_S_BYTES, m ".s_bytes")                                                                   \
    X(M##_P_BYTES, m ".p_bytes")                                                                   \
    X(M##_GRAD_BYTES, m ".grad_bytes")                                                             \
    X(M##_KV_ROWS, m ".kv_rows_loaded_per_head")                                                   \
    X(M##_KV_RELOAD, m ".kv_reload_factor")                                                        \
    X(M##_QUERY_BLOCKS, m ".query_blocks")                                                         \
    X(M##_INTENSITY, m ".intensity_flop_per_byte")                                                 \
    X(M##_ATTAINABLE, m ".attainable_flops_per_s")                                                 \
    X(M##_MEMORY_TIME, m ".memory_time_s")                                                         \
    X(M##_COMPUTE_TIME, m ".compute_time_s")                                                       \
    X(M##_TIME, m ".time_s")                                                                       \
    X(M##_BOUND, m ".bound") /* 0 memory, 1 compute */

#define RLW_OUT_XMACRO(X)                                                                          \
    X(OUT_BATCH, "problem.batch")                                                                  \
    X(OUT_HEADS, "problem.heads")                                                                  \
    X(OUT_KV_HEADS, "problem.kv_heads")                                                            \
    X(OUT_SEQ, "problem.seq")                                                                      \
    X(OUT_KV_LEN, "problem.kv_len")                                                                \
    X(OUT_HEAD_DIM, "problem.head_dim")                                                            \
    X(OUT_DTYPE, "problem.dtype")                                                                  \
    X(OUT_KV_DTYPE, "problem.kv_dtype")                                                            \
    X(OUT_SCORE_DTYPE, "problem.score_dtype")                                                      \
    X(OUT_DTYPE_BYTES, "problem.dtype_bytes")                                                      \
    X(OUT_KV_DTYPE_BYTES, "problem.kv_dtype_bytes")                                                \
    X(OUT_SCORE_DTYPE_BYTES, "problem.score_dtype_bytes")                                          \
    X(OUT_CAUSAL, "problem.causal")                                                                \
    X(OUT_PASS, "problem.pass")                                                                    \
    X(OUT_BLOCK_M, "problem.block_m")                                                              \
    X(OUT_BLOCK_N, "problem.block_n")                                                              \
    X(OUT_PAIRS, "pairs")                                                                          \
    X(OUT_FLOPS, "flops")                                                                          \
    X(OUT_FWD_FLOPS, "fwd_flops")                                                                  \
    X(OUT_SOFTMAX_FLOPS, "softmax_flops")                                                          \
    X(OUT_Q_TENSOR, "q_tensor_bytes")                                                              \
    X(OUT_K_TENSOR, "k_tensor_bytes")                                                              \
    X(OUT_V_TENSOR, "v_tensor_bytes")                                                              \
    X(OUT_O_TENSOR, "o_tensor_bytes")                                                              \
    X(OUT_SCORE_MATRIX, "score_matrix_bytes")                                                      \
    X(OUT_BANDWIDTH, "bandwidth_bytes_per_s")                                                      \
    X(OUT_PEAK, "peak_flops_per_s")                                                                \
    X(OUT_RIDGE, "ridge_flop_per_byte")                                                            \
    RLW_MODEL_SLOTS(X, "compulsory", OUT_C)                                                        \
    RLW_MODEL_SLOTS(X, "tiled", OUT_T)                                                             \
    RLW_MODEL_SLOTS(X, "naive", OUT_N)                                                             \
    X(OUT_SRAM_Q, "sram.q_tile_bytes")                                                             \
    X(OUT_SRAM_K, "sram.k_tile_bytes")                                                             \
    X(OUT_SRAM_V, "sram.v_tile_bytes")                                                             \
    X(OUT_SRAM_S, "sram.s_tile_bytes")                                                             \
    X(OUT_SRAM_O, "sram.o_acc_bytes")                                                              \
    X(OUT_SRAM_ML, "sram.ml_bytes")                                                                \
    X(OUT_SRAM_TOTAL, "sram.total_bytes")                                                          \
    X(OUT_SRAM_LIMIT_DEFAULT, "sram.limit_default_bytes")                                          \
    X(OUT_SRAM_LIMIT_OPTIN, "sram.limit_optin_bytes")                                              \
    X(OUT_SRAM_FITS_DEFAULT, "sram.fits_default")                                                  \
    X(OUT_SRAM_FITS_OPTIN, "sram.fits_optin")

enum {
#define RLW_X_ENUM(name, key) name,
    RLW_OUT_XMACRO(RLW_X_ENUM)
#undef RLW_X_ENUM
        OUT_COUNT
};
static const char *const rlw_out_keys[OUT_COUNT] = {
#define RLW_X_KEY(name, key) key,
    RLW_OUT_XMACRO(RLW_X_KEY)
#undef RLW_X_KEY
};
/* Slots per model block, and the first slot of each model in rl_model order. */
_Static_assert(OUT_C_BOUND - OUT_C_AVAILABLE == 17, "rlw_eval writes 18 slots per model");
_Static_assert(OUT_T_AVAILABLE - OUT_C_AVAILABLE == 18, "model blocks are 18 slots apart");
static const int rlw_model_base[RL_MODEL_COUNT] = {
    [RL_MODEL_COMPULSORY] = OUT_C_AVAILABLE,
    [RL_MODEL_TILED] = OUT_T_AVAILABLE,
    [RL_MODEL_NAIVE] = OUT_N_AVAILABLE,
};

RLW_EXPORT int rlw_out_count(void) { return OUT_COUNT; }
RLW_EXPORT const char *rlw_out_key(int i) { return (i >= 0 && i < OUT_COUNT) ? rlw_out_keys[i] : ""; }

/* Evaluate one problem on one roof: in[rlw_in_count()] → out[rlw_out_count()]. */
RLW_EXPORT int rlw_eval(const double *in, double *out) {
    rl_problem p;
    rl_roof roof;
    const rl_hw *hw;
    rl_report r;
    rl_status st;
    rlw_clear_error();
    if ((st = rlw_read_problem(in, &p, &roof, &hw)) != RL_OK) return st;
    if ((st = rl_report_compute(&p, hw, roof, &r, &rlw_err)) != RL_OK) return st;

    const rl_problem *q = &r.work.problem;
    out[OUT_BATCH] = (double)q->batch;
    out[OUT_HEADS] = (double)q->heads;
    out[OUT_KV_HEADS] = (double)q->kv_heads;
    out[OUT_SEQ] = (double)q->seq;
    out[OUT_KV_LEN] = (double)q->kv_len;
    out[OUT_HEAD_DIM] = (double)q->head_dim;
    out[OUT_DTYPE] = q->dtype;
    out[OUT_KV_DTYPE] = q->kv_dtype;
    out[OUT_SCORE_DTYPE] = q->score_dtype;
    out[OUT_DTYPE_BYTES] = rl_dtype_bytes(q->dtype);
    out[OUT_KV_DTYPE_BYTES] = rl_dtype_bytes(q->kv_dtype);
    out[OUT_SCORE_DTYPE_BYTES] = rl_dtype_bytes(q->score_dtype);
    out[OUT_CAUSAL] = q->causal;
    out[OUT_PASS] = q->pass;
    out[OUT_BLOCK_M] = (double)q->block_m;
    out[OUT_BLOCK_N] = (double)q->block_n;
    out[OUT_PAIRS] = r.work.pairs;
    out[OUT_FLOPS] = r.work.flops;
    out[OUT_FWD_FLOPS] = r.work.fwd_flops;
    out[OUT_SOFTMAX_FLOPS] = r.work.softmax_flops;
    out[OUT_Q_TENSOR] = r.work.q_tensor_bytes;
    out[OUT_K_TENSOR] = r.work.k_tensor_bytes;
    out[OUT_V_TENSOR] = r.work.v_tensor_bytes;
    out[OUT_O_TENSOR] = r.work.o_tensor_bytes;
    out[OUT_SCORE_MATRIX] = r.work.score_matrix_bytes;
    out[OUT_BANDWIDTH] = r.roof.bandwidth_bytes_per_s;
    out[OUT_PEAK] = r.roof.peak_flops_per_s;
    out[OUT_RIDGE] = r.ridge_flop_per_byte;
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        const rl_traffic *t = &r.work.traffic[m];
        const rl_point *pt = &r.points[m];
        double *o = out + rlw_model_base[m];
        o[0] = t->available;
        o[1] = t->bytes;
        o[2] = t->q_bytes;
        o[3] = t->k_bytes;
        o[4] = t->v_bytes;
        o[5] = t->o_bytes;
        o[6] = t->s_bytes;
        o[7] = t->p_bytes;
        o[8] = t->grad_bytes;
        o[9] = t->kv_rows_loaded_per_head;
        o[10] = t->kv_reload_factor;
        o[11] = t->query_blocks;
        o[12] = pt->intensity_flop_per_byte;
        o[13] = pt->attainable_flops_per_s;
        o[14] = pt->memory_time_s;
        o[15] = pt->compute_time_s;
        o[16] = pt->time_s;
        o[17] = pt->bound;
    }
    out[OUT_SRAM_Q] = r.sram.q_tile_bytes;
    out[OUT_SRAM_K] = r.sram.k_tile_bytes;
    out[OUT_SRAM_V] = r.sram.v_tile_bytes;
    out[OUT_SRAM_S] = r.sram.s_tile_bytes;
    out[OUT_SRAM_O] = r.sram.o_acc_bytes;
    out[OUT_SRAM_ML] = r.sram.ml_bytes;
    out[OUT_SRAM_TOTAL] = r.sram.total_bytes;
    out[OUT_SRAM_LIMIT_DEFAULT] = r.sram.limit_default_bytes;
    out[OUT_SRAM_LIMIT_OPTIN] = r.sram.limit_optin_bytes;
    out[OUT_SRAM_FITS_DEFAULT] = r.sram.fits_default;
    out[OUT_SRAM_FITS_OPTIN] = r.sram.fits_optin;
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Sweeps
 * ------------------------------------------------------------------------------------------- */

#define RLW_ROW_MODEL(X, m) \
    X(m ".bytes") X(m ".intensity_flop_per_byte") X(m ".attainable_flops_per_s") X(m ".time_s") X(m ".bound")
#define RLW_ROW_XMACRO(X) \
    X("x") X("flops") RLW_ROW_MODEL(X, "compulsory") RLW_ROW_MODEL(X, "tiled") RLW_ROW_MODEL(X, "naive")
static const char *const rlw_row_keys[] = {
#define RLW_X_KEY(key) key,
    RLW_ROW_XMACRO(RLW_X_KEY)
#undef RLW_X_KEY
};
#define RLW_ROW_WIDTH ((int)(sizeof rlw_row_keys / sizeof rlw_row_keys[0]))

RLW_EXPORT int rlw_row_width(void) { return RLW_ROW_WIDTH; }
RLW_EXPORT const char *rlw_row_key(int i) { return (i >= 0 && i < RLW_ROW_WIDTH) ? rlw_row_keys[i] : ""; }
RLW_EXPORT int rlw_sweep_max(void) { return RLW_SWEEP_MAX; }

/* Sweep `param` (rl_sweep_param) over `count` values from lo to hi (log-spaced when log != 0)
 * with the rest of the problem from `in`; writes rows of rlw_row_width() doubles into `out`.
 * Returns the number of rows (≥ 1), or -status on error (message in rlw_error_message()). */
RLW_EXPORT int rlw_sweep(const double *in, int param, double lo, double hi, int count, int log,
                         double *out) {
    rl_problem p;
    rl_roof roof;
    const rl_hw *hw;
    rl_status st;
    int64_t *values = NULL;
    rl_sweep_row *rows = NULL;
    int result;
    rlw_clear_error();
    if ((st = rlw_read_problem(in, &p, &roof, &hw)) != RL_OK) return -(int)st;
    if (param < 0 || param >= RL_SWEEP_PARAM_COUNT || count < 1 || count > RLW_SWEEP_MAX ||
        !(lo >= 1 && hi >= lo && hi <= 9.0e15)) {
        rlw_err.status = RL_ERR_RANGE;
        strcpy(rlw_err.field, "sweep");
        strcpy(rlw_err.message, "sweep: expected a parameter, 1 <= lo <= hi and 1..4096 points");
        return -(int)RL_ERR_RANGE;
    }
    values = malloc((size_t)count * sizeof *values);
    rows = malloc((size_t)count * sizeof *rows);
    if (!values || !rows) {
        rlw_err.status = RL_ERR_CAPACITY;
        strcpy(rlw_err.field, "sweep");
        strcpy(rlw_err.message, "sweep: out of memory");
        result = -(int)RL_ERR_CAPACITY;
        goto done;
    }
    size_t n = rl_sweep_values((int64_t)lo, (int64_t)hi, (size_t)count, log, values);
    if (n == 0) {
        rlw_err.status = RL_ERR_RANGE;
        strcpy(rlw_err.field, "sweep");
        strcpy(rlw_err.message, "sweep: no values in the range");
        result = -(int)RL_ERR_RANGE;
        goto done;
    }
    st = rl_sweep(&p, (rl_sweep_param)param, values, n, roof, rows, &rlw_err);
    if (st != RL_OK) {
        result = -(int)st;
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        double *o = out + i * RLW_ROW_WIDTH;
        o[0] = (double)rows[i].x;
        o[1] = rows[i].flops;
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            double *om = o + 2 + 5 * m;
            om[0] = rows[i].bytes[m];
            om[1] = rows[i].intensity_flop_per_byte[m];
            om[2] = rows[i].attainable_flops_per_s[m];
            om[3] = rows[i].time_s[m];
            om[4] = rows[i].bound[m];
        }
    }
    result = (int)n;
done:
    free(values);
    free(rows);
    return result;
}

RLW_EXPORT int rlw_sweep_param_parse(const char *text) {
    rl_sweep_param p;
    rlw_clear_error();
    return rl_sweep_param_parse(text, &p, &rlw_err) == RL_OK ? (int)p : -1;
}

/* ---------------------------------------------------------------------------------------------
 * Roofline pieces the charts draw (ceilings)
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT double rlw_attainable(double bandwidth, double peak, double intensity) {
    rl_roof roof = {bandwidth, peak};
    return rl_attainable_flops_per_s(roof, intensity);
}
RLW_EXPORT double rlw_ridge(double bandwidth, double peak) {
    rl_roof roof = {bandwidth, peak};
    return rl_ridge_flop_per_byte(roof);
}
RLW_EXPORT double rlw_efficiency(double bandwidth, double peak, double flops, double bytes,
                                 double time_s) {
    rl_roof roof = {bandwidth, peak};
    return rl_efficiency(roof, flops, bytes, time_s);
}

/* ---------------------------------------------------------------------------------------------
 * Presets, dtypes, names
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_hw_count(void) { return (int)rl_hw_count(); }

/* which: 0 id, 1 name, 2 arch, 3 source, 4 source_date, 5 notes */
RLW_EXPORT const char *rlw_hw_str(int i, int which) {
    const rl_hw *hw = i >= 0 ? rl_hw_at((size_t)i) : NULL;
    const char *s = NULL;
    if (!hw) return "";
    switch (which) {
    case 0: s = hw->id; break;
    case 1: s = hw->name; break;
    case 2: s = hw->arch; break;
    case 3: s = hw->source; break;
    case 4: s = hw->source_date; break;
    case 5: s = hw->notes; break;
    default: break;
    }
    return s ? s : "";
}

/* which: 0 bandwidth B/s, 1..RL_PEAK_COUNT peak_flops_per_s[which-1], then smem per SM,
 * smem per block default, smem per block opt-in, L2 bytes, SM count. */
enum { HWN_BW = 0, HWN_PEAK0 = 1, HWN_SMEM_SM = 1 + RL_PEAK_COUNT, HWN_SMEM_DEF, HWN_SMEM_OPTIN,
       HWN_L2, HWN_SMS, HWN_COUNT };
RLW_EXPORT int rlw_hw_num_count(void) { return HWN_COUNT; }
RLW_EXPORT double rlw_hw_num(int i, int which) {
    const rl_hw *hw = i >= 0 ? rl_hw_at((size_t)i) : NULL;
    if (!hw) return 0;
    if (which == HWN_BW) return hw->bandwidth_bytes_per_s;
    if (which >= HWN_PEAK0 && which < HWN_PEAK0 + RL_PEAK_COUNT) return hw->peak_flops_per_s[which - HWN_PEAK0];
    switch (which) {
    case HWN_SMEM_SM: return hw->smem_per_sm_bytes;
    case HWN_SMEM_DEF: return hw->smem_per_block_default_bytes;
    case HWN_SMEM_OPTIN: return hw->smem_per_block_optin_bytes;
    case HWN_L2: return hw->l2_bytes;
    case HWN_SMS: return hw->sm_count;
    default: return 0;
    }
}
RLW_EXPORT int rlw_hw_find(const char *id) {
    for (size_t i = 0; i < rl_hw_count(); i++)
        if (strcmp(rl_hw_at(i)->id, id) == 0) return (int)i;
    return -1;
}
RLW_EXPORT int rlw_hw_lookup(const char *id, const char *field) {
    const rl_hw *hw;
    rlw_clear_error();
    if (rl_hw_lookup(id, field, &hw, &rlw_err) != RL_OK) return -1;
    return rlw_hw_find(hw->id);
}
RLW_EXPORT double rlw_hw_peak_for_dtype(int i, int dtype) {
    const rl_hw *hw = i >= 0 ? rl_hw_at((size_t)i) : NULL;
    return hw ? rl_hw_peak_for_dtype(hw, (rl_dtype)dtype) : 0;
}
RLW_EXPORT int rlw_peak_for_dtype(int dtype) { return (int)rl_peak_for_dtype((rl_dtype)dtype); }
RLW_EXPORT int rlw_peak_count(void) { return RL_PEAK_COUNT; }
RLW_EXPORT const char *rlw_peak_name(int k) { return rl_peak_name((rl_peak_kind)k); }
RLW_EXPORT const char *rlw_peak_id(int k) { return rl_peak_id((rl_peak_kind)k); }

RLW_EXPORT int rlw_dtype_count(void) { return RL_DTYPE_COUNT; }
RLW_EXPORT const char *rlw_dtype_name(int d) { return rl_dtype_name((rl_dtype)d); }
RLW_EXPORT double rlw_dtype_bytes(int d) { return rl_dtype_bytes((rl_dtype)d); }
RLW_EXPORT int rlw_dtype_parse(const char *text, const char *field) {
    rl_dtype d;
    rlw_clear_error();
    return rl_dtype_parse(text, field, &d, &rlw_err) == RL_OK ? (int)d : -1;
}
RLW_EXPORT int rlw_model_count(void) { return RL_MODEL_COUNT; }
RLW_EXPORT const char *rlw_model_name(int m) { return rl_model_name((rl_model)m); }
RLW_EXPORT const char *rlw_bound_name(int b) { return rl_bound_name((rl_bound)b); }
RLW_EXPORT const char *rlw_pass_name(int p) { return rl_pass_name((rl_pass)p); }

/* ---------------------------------------------------------------------------------------------
 * Units
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_dim_count(void) { return RL_DIM_COUNT; }
RLW_EXPORT const char *rlw_dim_noun(int d) { return rl_dim_noun((rl_dim)d); }
RLW_EXPORT const char *rlw_dim_base_unit(int d) { return rl_dim_base_unit((rl_dim)d); }

/* Parse `text` expecting dimension `expected` (RL_DIM_COUNT = any). On success writes the value in
 * base units to out[0] and the dimension to out[1] and returns 0; else returns the status and
 * rlw_error_message() holds core's message naming `field`. */
RLW_EXPORT int rlw_parse_quantity(const char *text, int expected, const char *field, double *out) {
    double v = 0;
    rl_dim dim = RL_DIM_NONE;
    rlw_clear_error();
    rl_status st = rl_parse_quantity(text, (rl_dim)expected, field, &v, &dim, &rlw_err);
    if (st != RL_OK) return st;
    out[0] = v;
    out[1] = dim;
    return RL_OK;
}

/* Format a base-unit value (rl_format_quantity); style 0 SI, 1 IEC; sig 0 = 4 digits. */
RLW_EXPORT const char *rlw_format(double value, int dim, int style, int sig) {
    rl_format_quantity(value, (rl_dim)dim, style ? RL_PREFIX_IEC : RL_PREFIX_SI, sig, rlw_format_buf,
                       sizeof rlw_format_buf);
    return rlw_format_buf;
}
