/*
 * rooflab_wasm.c — the page's door into core/, compiled with Emscripten.
 *
 * A thin binding in the squoosh/sokol style: it moves numbers and strings across the C↔JS boundary
 * and turns core's rl_error into a message the page shows. No model arithmetic lives here; every
 * figure comes from core (rl_report_compute, rl_sweep, rl_parse_quantity, rl_format_quantity ...).
 *
 * The boundary is a few flat double arrays whose slots are named by this file:
 *   in   rlw_in_key(i)  for i < rlw_in_count()   (problem, roof, preset index)
 *   out  rlw_report_name(i) for i < rlw_report_count()  (everything one evaluation shows: core's
 *        report-output table, rl_output_*, the same names `rooflab eval --json` writes)
 *   row  rlw_row_key(i) for i < rlw_row_width()  (one row of a sweep)
 * web/js/model.js reads the names once at start-up and addresses slots by name, so the layout has
 * one source of truth: the tables below and core's.
 *
 * Strings returned (const char *) point into static storage of core or of this file and stay
 * valid until the next call that returns a string of the same kind. Errors are values: functions
 * that can fail take a caller-owned rl_error (rlw_error_size() bytes) as their last argument and
 * return an rl_status (0 = ok); rlw_error_message(err) / rlw_error_field(err) read it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rooflab_wasm.h"

#define RLW_FORMAT_MAX 64
#define RLW_SWEEP_MAX 4096 /* rows one sweep call may write */
#define RLW_INT_SLOT_MAX 9.0e15 /* beyond this a double no longer holds every integer */

static char rlw_format_buf[RLW_FORMAT_MAX]; /* rlw_format's result: an output buffer, not state */

RLW_EXPORT const char *rlw_version(void) { return RL_VERSION; }

/* ---------------------------------------------------------------------------------------------
 * Errors are values: every call that can fail takes a caller-owned rl_error (JS allocates
 * rlw_error_size() bytes once) and fills it. No error lives in this binding.
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_error_size(void) { return (int)sizeof(rl_error); }
RLW_EXPORT const char *rlw_error_field(const rl_error *err) { return err ? err->field : ""; }
RLW_EXPORT const char *rlw_error_message(const rl_error *err) { return err ? err->message : ""; }


/* ---------------------------------------------------------------------------------------------
 * The problem's fields (core's RL_PROBLEM_FIELDS): names, defaults, limits, help, parsing
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_field_count(void) { return RL_PROBLEM_FIELD_COUNT; }
static const rl_field_info *rlw_field(int i) { return rl_problem_field_info((rl_problem_field)i); }
RLW_EXPORT const char *rlw_field_key(int i) { return rlw_field(i) ? rlw_field(i)->key : ""; }
RLW_EXPORT const char *rlw_field_flag(int i) { return rlw_field(i) ? rlw_field(i)->flag : ""; }
RLW_EXPORT const char *rlw_field_help(int i) { return rlw_field(i) ? rlw_field(i)->help : ""; }
RLW_EXPORT const char *rlw_field_meta(int i) { return rlw_field(i) ? rlw_field(i)->meta : ""; }
RLW_EXPORT int rlw_field_type(int i) { return rlw_field(i) ? (int)rlw_field(i)->type : -1; }
/* The field a 0 in field i stands for (kv-heads → heads …), or -1. */
RLW_EXPORT int rlw_field_tie(int i) { return rlw_field(i) ? rl_problem_field_tie((rl_problem_field)i) : -1; }
/* which: 0 default (what 0 stands for; 0 = tied to another field), 1 max, 2 range_lo, 3 range_hi */
RLW_EXPORT double rlw_field_num(int i, int which) {
    const rl_field_info *f = rlw_field(i);
    if (!f) return 0;
    switch (which) {
    case 0: return (double)f->default_value;
    case 1: return (double)f->max;
    case 2: return (double)f->range_lo;
    case 3: return (double)f->range_hi;
    case 4: return (double)rl_problem_field_variant((rl_problem_field)i); /* 0 = off; page hides */
    default: return 0;
    }
}
/* The ragged batch (--kv-lens, a list): its slot carries the number of pairs (0 = off) and the
 * list itself is the one rlw_field_parse last accepted for it, kept here. */
static rl_kv_lens rlw_kv_lens;
/* What a person typed for field i → the integer code its input slot takes, in out[0]. For the
 * list field (type 4, kv-lens) out[0] is its number of pairs and the list is kept for the next
 * evaluation, whose slot must carry that number (or 0: off). */
RLW_EXPORT int rlw_field_parse(int i, const char *text, const char *name, double *out, rl_error *err) {
    rl_problem p;
    memset(&p, 0, sizeof p);
    rl_status st = rl_problem_set_text(&p, (rl_problem_field)i, text, name, err);
    if (st == RL_OK) out[0] = (double)rl_problem_get(&p, (rl_problem_field)i);
    if (st == RL_OK && rlw_field(i) && rlw_field(i)->type == RL_FTYPE_LENS) rlw_kv_lens = p.kv_lens;
    return st;
}
/* The kept list as text ("512,4096x60"; "" when none), for the URL. */
RLW_EXPORT const char *rlw_kv_lens_text(void) {
    static char text[RL_KV_LENS_MAX * 20];
    rl_kv_lens_format(&rlw_kv_lens, text, sizeof text);
    return text;
}

/* ---------------------------------------------------------------------------------------------
 * The kernel spec's fields (core's RL_KERNEL_FIELDS): names, limits, help, choices, parsing
 * ------------------------------------------------------------------------------------------- */

static const rl_kfield_info *rlw_kfield(int i) { return rl_kernel_field_info((rl_kernel_field)i); }
RLW_EXPORT int rlw_kfield_count(void) { return RL_KERNEL_FIELD_COUNT; }
RLW_EXPORT const char *rlw_kfield_key(int i) { return rlw_kfield(i) ? rlw_kfield(i)->key : ""; }
RLW_EXPORT const char *rlw_kfield_flag(int i) { return rlw_kfield(i) ? rlw_kfield(i)->flag : ""; }
RLW_EXPORT const char *rlw_kfield_help(int i) { return rlw_kfield(i) ? rlw_kfield(i)->help : ""; }
RLW_EXPORT const char *rlw_kfield_meta(int i) { return rlw_kfield(i) ? rlw_kfield(i)->meta : ""; }
/* 0 an integer (lo … hi besides 0), 1 a choice (codes lo … hi, named by rlw_kfield_choice); -1 */
RLW_EXPORT int rlw_kfield_type(int i) { return rlw_kfield(i) ? (int)rlw_kfield(i)->type : -1; }
RLW_EXPORT double rlw_kfield_lo(int i) { return rlw_kfield(i) ? (double)rlw_kfield(i)->lo : 0; }
RLW_EXPORT double rlw_kfield_hi(int i) { return rlw_kfield(i) ? (double)rlw_kfield(i)->hi : 0; }
/* A choice field's name for `code` ("fa3", "packed"; "" = the profile's), "" otherwise. */
RLW_EXPORT const char *rlw_kfield_choice(int i, int code) {
    const char *c = rl_kernel_field_choice((rl_kernel_field)i, code);
    return c ? c : "";
}
/* What a person typed for kernel field i → its slot's code (0 = the profile's), or -1 with core's
 * error naming `name` (NULL or "" = the flag). */
RLW_EXPORT double rlw_kfield_parse(int i, const char *text, const char *name, rl_error *err) {
    rl_kernel_spec spec = {0};
    if (rl_kernel_spec_set_text(&spec, (rl_kernel_field)i, text, name, err) != RL_OK) return -1;
    return (double)rl_kernel_spec_get(&spec, (rl_kernel_field)i);
}

/* ---------------------------------------------------------------------------------------------
 * Input slots: one per problem field (by its flag, the page's URL key), then the roof
 * ------------------------------------------------------------------------------------------- */

enum {
    IN_BANDWIDTH = RL_PROBLEM_FIELD_COUNT,
    IN_PEAK,
    IN_HW,
    IN_KERNEL, /* one per core kernel field (RL_KERNEL_FIELDS, by its flag): the predicted
                  time's profile, gqa-pack, splits, ctas-per-sm, cores; 0 = the profile's choice */
    IN_COUNT = IN_KERNEL + RL_KERNEL_FIELD_COUNT
};

RLW_EXPORT int rlw_in_count(void) { return IN_COUNT; }
RLW_EXPORT const char *rlw_in_key(int i) {
    if (i >= 0 && i < RL_PROBLEM_FIELD_COUNT) return rlw_field_flag(i);
    switch (i) {
    case IN_BANDWIDTH: return "bandwidth"; /* B/s */
    case IN_PEAK: return "peak";           /* FLOP/s */
    case IN_HW: return "hw";               /* preset index for the SRAM limits, -1 = none */
    default: return i >= IN_KERNEL && i < IN_COUNT ? rlw_kfield_flag(i - IN_KERNEL) : "";
    }
}

/* An integer slot: a whole number in range, or an error naming the slot; never rounded. */
static rl_status rlw_int_slot(const double *in, int slot, int64_t *out, rl_error *err) {
    double v = in[slot];
    if (!(v == v) || v < -RLW_INT_SLOT_MAX || v > RLW_INT_SLOT_MAX || (double)(int64_t)v != v)
        return rl_error_fail(err, RL_ERR_INVALID, rlw_in_key(slot), "expected a whole number");
    *out = (int64_t)v;
    return RL_OK;
}

/* in[] → problem, roof, preset; every problem field through core's rl_problem_set, so a value
 * core refuses (a negative size, causal 2, a dtype code out of range) is an error here too. */
/* The kernel slots through core's rl_kernel_spec_set: a value outside the table's limits is an
 * error naming the slot. */
static rl_status rlw_read_kernel(const double *in, rl_kernel_spec *spec, rl_error *err) {
    int64_t v;
    rl_status st;
    memset(spec, 0, sizeof *spec);
    for (int f = 0; f < RL_KERNEL_FIELD_COUNT; f++) {
        if ((st = rlw_int_slot(in, IN_KERNEL + f, &v, err)) != RL_OK) return st;
        if ((st = rl_kernel_spec_set(spec, (rl_kernel_field)f, v, NULL, err)) != RL_OK) return st;
    }
    return RL_OK;
}

static rl_status rlw_read_problem(const double *in, rl_problem *p, rl_roof *roof, const rl_hw **hw,
                                  rl_error *err) {
    int64_t v;
    rl_status st;
    memset(p, 0, sizeof *p);
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        if ((st = rlw_int_slot(in, f, &v, err)) != RL_OK) return st;
        if (rlw_field(f)->type == RL_FTYPE_LENS) { /* the list rlw_field_parse kept */
            if (v != 0 && v != rlw_kv_lens.n)
                return rl_error_fail(err, RL_ERR_INVALID, rlw_in_key(f),
                                     "expected 0 (off) or the pair count of the list last parsed");
            if (v != 0) p->kv_lens = rlw_kv_lens;
            continue;
        }
        if ((st = rl_problem_set(p, (rl_problem_field)f, v, NULL, err)) != RL_OK) return st;
    }
    if ((st = rlw_int_slot(in, IN_HW, &v, err)) != RL_OK) return st;
    if (v < -1 || v >= (int64_t)rl_hw_count())
        return rl_error_fail(err, RL_ERR_UNKNOWN, "hw", "expected a preset index or -1");
    roof->bandwidth_bytes_per_s = in[IN_BANDWIDTH];
    roof->peak_flops_per_s = in[IN_PEAK];
    *hw = v >= 0 ? rl_hw_at((size_t)v) : NULL;
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * One evaluation through core's report-output table (rl_output_*): slot i is output i, named
 * rlw_report_name(i) ("models.tiled.bytes", as `rooflab eval --json` nests it; the page's test
 * ids map '.' to '-'). A name's code for RL_OUT_NAME entries; NaN where the output has no value
 * (no prediction, a backward naive model, no memory-level figures) and for text entries.
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_report_count(void) { return (int)rl_output_count(); }
RLW_EXPORT const char *rlw_report_name(int i) {
    const rl_output_info *o = i >= 0 ? rl_output_info_at((size_t)i) : NULL;
    return o ? o->name : "";
}
RLW_EXPORT int rlw_report_unit(int i) {
    const rl_output_info *o = i >= 0 ? rl_output_info_at((size_t)i) : NULL;
    return o ? (int)o->unit : -1;
}
/* rl_output_kind: 0 number, 1 integer, 2 boolean, 3 name (an enum code), 4 text; -1 */
RLW_EXPORT int rlw_report_kind(int i) {
    const rl_output_info *o = i >= 0 ? rl_output_info_at((size_t)i) : NULL;
    return o ? (int)o->kind : -1;
}
/* in[rlw_in_count()] → out[rlw_report_count()]; RL_OK with `pred_err` saying why when the
 * profile cannot predict (the "predicted.*" slots NaN), else the status of the evaluation. */
RLW_EXPORT int rlw_report(const double *in, double *out, rl_error *err, rl_error *pred_err) {
    rl_problem p;
    rl_roof roof;
    const rl_hw *hw;
    rl_kernel_spec spec;
    rl_report r;
    rl_prediction pr;
    rl_status st;
    if ((st = rlw_read_problem(in, &p, &roof, &hw, err)) != RL_OK) return st;
    if ((st = rlw_read_kernel(in, &spec, err)) != RL_OK) return st;
    if ((st = rl_report_compute(&p, hw, roof, &r, err)) != RL_OK) return st;
    st = rl_predict(&p, hw, roof, &spec, &pr, pred_err);
    const rl_output_view view = {&r, st == RL_OK ? &pr : NULL, hw};
    rl_output_fill(&view, out, rl_output_count()); /* core's table in one call */
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Sweeps: one row per value; each row slot named and written by the same table entry.
 * ------------------------------------------------------------------------------------------- */

/* The models, in rl_model order: X(ID, name) */
#define RLW_MODELS(X) X(COMPULSORY, "compulsory") X(TILED, "tiled") X(NAIVE, "naive")
_Static_assert(RL_MODEL_COUNT == 3 && RL_MODEL_COMPULSORY == 0 && RL_MODEL_TILED == 1 &&
                   RL_MODEL_NAIVE == 2,
               "RLW_MODELS lists every rl_model in order");
#define RLW_X_MKEY(m, name, expr) m "." #name,

/* Per model m: X(m, name, expression over row (rl_sweep_row) and mi (the rl_model index)) */
#define RLW_ROW_MODEL_SLOTS(X, m)                                                                     \
    X(m, bytes, row->bytes[mi])                                                                        \
    X(m, intensity_flop_per_byte, row->intensity_flop_per_byte[mi])                                    \
    X(m, attainable_flops_per_s, row->attainable_flops_per_s[mi])                                      \
    X(m, time_s, row->time_s[mi])                                                                      \
    X(m, bound, row->bound[mi])

enum {
#define RLW_X_RSLOT(m, name, expr) RS_##name,
    RLW_ROW_MODEL_SLOTS(RLW_X_RSLOT, "")
#undef RLW_X_RSLOT
        RS_COUNT
};
enum {
    ROW_X = 0,
    ROW_FLOPS,
    ROW_PREDICTED_TIME, /* 0 where the kernel profile cannot predict the row */
    ROW_PREDICTED_FLOPS,
    ROW_MODELS,
    ROW_WIDTH = ROW_MODELS + RL_MODEL_COUNT * RS_COUNT
};

static const char *const rlw_row_keys[ROW_WIDTH] = {
    "x", "flops", "predicted.time_s", "predicted.flops_per_s",
#define RLW_X_MODEL(ID, mname) RLW_ROW_MODEL_SLOTS(RLW_X_MKEY, mname)
    RLW_MODELS(RLW_X_MODEL)
#undef RLW_X_MODEL
};
#undef RLW_X_MKEY

RLW_EXPORT int rlw_row_width(void) { return ROW_WIDTH; }
RLW_EXPORT const char *rlw_row_key(int i) { return (i >= 0 && i < ROW_WIDTH) ? rlw_row_keys[i] : ""; }
RLW_EXPORT int rlw_sweep_max(void) { return RLW_SWEEP_MAX; }

static void rlw_write_row(const rl_sweep_row *row, double *o) {
    o[ROW_X] = (double)row->x;
    o[ROW_FLOPS] = row->flops;
    o[ROW_PREDICTED_TIME] = row->predicted_time_s;
    o[ROW_PREDICTED_FLOPS] = row->predicted_flops_per_s;
    for (int mi = 0; mi < RL_MODEL_COUNT; mi++) {
        double *om = o + ROW_MODELS + mi * RS_COUNT;
#define RLW_X_RWRITE(mm, name, expr) om[RS_##name] = (double)(expr);
        RLW_ROW_MODEL_SLOTS(RLW_X_RWRITE, "")
#undef RLW_X_RWRITE
    }
}

/* Sweep `param` (rl_sweep_param) over `count` values from lo to hi (log-spaced when log != 0)
 * with the rest of the problem from `in`; writes rows of rlw_row_width() doubles into `out`.
 * Returns the number of rows (≥ 1), or -status on error (the message in err). */
RLW_EXPORT int rlw_sweep(const double *in, int param, double lo, double hi, int count, int log,
                         double *out, rl_error *err) {
    rl_problem p;
    rl_roof roof;
    const rl_hw *hw;
    rl_kernel_spec spec;
    rl_status st;
    int result;
    if ((st = rlw_read_problem(in, &p, &roof, &hw, err)) != RL_OK) return -(int)st;
    if ((st = rlw_read_kernel(in, &spec, err)) != RL_OK) return -(int)st;
    if (param < 0 || param >= RL_SWEEP_PARAM_COUNT || count < 1 || count > RLW_SWEEP_MAX ||
        !(lo >= 1 && hi >= lo && hi <= RLW_INT_SLOT_MAX))
        return -(int)rl_error_fail(err, RL_ERR_RANGE, "sweep",
                              "expected a parameter, 1 <= lo <= hi and 1..4096 points");
    int64_t *values = malloc((size_t)count * sizeof *values);
    rl_sweep_row *rows = malloc((size_t)count * sizeof *rows);
    size_t n = values && rows ? rl_sweep_values((int64_t)lo, (int64_t)hi, (size_t)count, log, values) : 0;
    if (!values || !rows) {
        result = -(int)rl_error_fail(err, RL_ERR_CAPACITY, "sweep", "out of memory");
    } else if (n == 0) {
        result = -(int)rl_error_fail(err, RL_ERR_RANGE, "sweep", "no values in the range");
    } else if ((st = rl_sweep_predicted(&p, (rl_sweep_param)param, values, n, roof, hw, &spec, rows,
                                        err)) != RL_OK) {
        result = -(int)st;
    } else {
        for (size_t i = 0; i < n; i++) rlw_write_row(&rows[i], out + i * ROW_WIDTH);
        result = (int)n;
    }
    free(values);
    free(rows);
    return result;
}

RLW_EXPORT int rlw_sweep_param_parse(const char *text, rl_error *err) {
    rl_sweep_param p;
    return rl_sweep_param_parse(text, &p, err) == RL_OK ? (int)p : -1;
}

/* ---------------------------------------------------------------------------------------------
 * Tile search (generic profile): the best candidates, each row named and written by one table
 * ------------------------------------------------------------------------------------------- */

#define RLW_TUNE_SLOTS(X)                                                                          \
    X("block_m", c->block_m)                                                                       \
    X("block_n", c->block_n)                                                                       \
    X("splits", c->splits)                                                                         \
    X("ctas_per_sm", c->ctas_per_sm)                                                               \
    X("sram_bytes", c->sram_bytes)                                                                 \
    X("time_s", c->prediction.time_s)                                                              \
    X("flops_per_s", c->prediction.flops_per_s)                                                    \
    X("waves", c->prediction.waves)                                                                \
    X("l2_bytes", c->prediction.levels.bytes[RL_LEVEL_L2])                                         \
    X("dram_bytes", c->prediction.levels.bytes[RL_LEVEL_DRAM])                                     \
    X("terms.mma", c->prediction.terms_s[RL_TERM_MMA])                                             \
    X("terms.tiles", c->prediction.terms_s[RL_TERM_TILES])                                         \
    X("terms.exp", c->prediction.terms_s[RL_TERM_EXP])                                             \
    X("terms.waves", c->prediction.terms_s[RL_TERM_WAVES])                                         \
    X("terms.memory", c->prediction.terms_s[RL_TERM_MEMORY])                                       \
    X("terms.occupancy", c->prediction.terms_s[RL_TERM_OCCUPANCY])                                 \
    X("terms.floor", c->prediction.terms_s[RL_TERM_FLOOR])                                         \
    X("loses_on", c->loses_on) /* rl_term index (rlw_term_name), -1 best or tie */

static const char *const rlw_tune_keys[] = {
#define RLW_X_KEY(key, expr) key,
    RLW_TUNE_SLOTS(RLW_X_KEY)
#undef RLW_X_KEY
};
#define RLW_TUNE_WIDTH ((int)(sizeof rlw_tune_keys / sizeof rlw_tune_keys[0]))
#define RLW_TUNE_MAX 16

RLW_EXPORT int rlw_tune_width(void) { return RLW_TUNE_WIDTH; }
RLW_EXPORT int rlw_tune_max(void) { return RLW_TUNE_MAX; }
RLW_EXPORT const char *rlw_tune_key(int i) {
    return (i >= 0 && i < RLW_TUNE_WIDTH) ? rlw_tune_keys[i] : "";
}

/* The best `cap` (≤ rlw_tune_max()) tiles for the problem in `in` on its preset, best first:
 * rows of rlw_tune_width() doubles. Returns the rows written (0 when nothing fits), or -status. */
RLW_EXPORT int rlw_tune(const double *in, double *out, int cap, rl_error *err) {
    rl_problem p;
    rl_roof roof;
    const rl_hw *hw;
    rl_tile_candidate cands[RLW_TUNE_MAX];
    rl_status st;
    if ((st = rlw_read_problem(in, &p, &roof, &hw, err)) != RL_OK) return -(int)st;
    if (!hw) return -(int)rl_error_fail(err, RL_ERR_INVALID, "hw", "the tile search needs a preset");
    if (cap < 1 || cap > RLW_TUNE_MAX) cap = RLW_TUNE_MAX;
    size_t feasible = rl_tune(&p, hw, roof, cands, (size_t)cap);
    int n = feasible < (size_t)cap ? (int)feasible : cap;
    for (int i = 0; i < n; i++) {
        const rl_tile_candidate *c = &cands[i];
        double *o = out + (size_t)i * RLW_TUNE_WIDTH;
#define RLW_X_WRITE(key, expr) *o++ = (double)(expr);
        RLW_TUNE_SLOTS(RLW_X_WRITE)
#undef RLW_X_WRITE
    }
    return n;
}

/* ---------------------------------------------------------------------------------------------
 * The roof: core's one resolution (preset + dtype + typed overrides)
 * ------------------------------------------------------------------------------------------- */

/* X(key, expression over r (rl_roof_resolved)) */
#define RLW_ROOF_SLOTS(X)                                                                          \
    X("bandwidth_bytes_per_s", r.roof.bandwidth_bytes_per_s)                                       \
    X("peak_flops_per_s", r.roof.peak_flops_per_s)                                                 \
    X("ridge_flop_per_byte", r.ridge_flop_per_byte)                                                \
    X("hw", rlw_hw_index(r.hw))                                                                    \
    X("peak_kind", r.peak_kind)                                                                    \
    X("bandwidth_typed", r.bandwidth_typed)                                                        \
    X("peak_typed", r.peak_typed)

static const char *const rlw_roof_keys[] = {
#define RLW_X_KEY(key, expr) key,
    RLW_ROOF_SLOTS(RLW_X_KEY)
#undef RLW_X_KEY
};
#define RLW_ROOF_OUT_COUNT ((int)(sizeof rlw_roof_keys / sizeof rlw_roof_keys[0]))

static int rlw_hw_index(const rl_hw *hw) {
    for (size_t i = 0; i < rl_hw_count(); i++)
        if (rl_hw_at(i) == hw) return (int)i;
    return -1;
}

RLW_EXPORT const char *rlw_default_hw(void) { return RL_DEFAULT_HW; }
RLW_EXPORT int rlw_roof_out_count(void) { return RLW_ROOF_OUT_COUNT; }
RLW_EXPORT const char *rlw_roof_out_key(int i) {
    return (i >= 0 && i < RLW_ROOF_OUT_COUNT) ? rlw_roof_keys[i] : "";
}
RLW_EXPORT int rlw_roof_resolve(const char *hw, int dtype, const char *bandwidth, const char *peak,
                                double *out, rl_error *err) {
    if (dtype < 0 || dtype >= RL_DTYPE_COUNT)
        return rl_error_fail(err, RL_ERR_UNKNOWN, "dtype", "expected a dtype code");
    rl_roof_request req = {hw, (rl_dtype)dtype, bandwidth, peak};
    rl_roof_resolved r;
    rl_status st = rl_roof_resolve(&req, &r, err);
    if (st != RL_OK) return st;
    double *o = out;
#define RLW_X_WRITE(key, expr) *o++ = (double)(expr);
    RLW_ROOF_SLOTS(RLW_X_WRITE)
#undef RLW_X_WRITE
    return RL_OK;
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

/* A preset's texts and figures by named slot (rlw_hw_str_key(w), rlw_hw_num_key(w)); its peaks by
 * peak kind (rlw_hw_peak). */
#define RLW_HW_STRS(X)                                                                             \
    X("id", it->id) X("name", it->name) X("arch", RLW_TEXT(it->arch))                              \
    X("source", RLW_TEXT(it->source)) X("source_date", RLW_TEXT(it->source_date))                  \
    X("notes", RLW_TEXT(it->notes)) X("l2_bandwidth_source", RLW_TEXT(it->l2_bandwidth_source))
#define RLW_HW_NUMS(X)                                                                             \
    X("bandwidth_bytes_per_s", it->bandwidth_bytes_per_s)                                          \
    X("smem_per_sm_bytes", it->smem_per_sm_bytes)                                                  \
    X("smem_per_block_default_bytes", it->smem_per_block_default_bytes)                            \
    X("smem_per_block_optin_bytes", it->smem_per_block_optin_bytes)                                \
    X("l2_bytes", it->l2_bytes) X("sm_count", it->sm_count)                                        \
    X("l2_bandwidth_bytes_per_s", it->l2_bandwidth_bytes_per_s) X("sm_clock_hz", it->sm_clock_hz)  \
    X("exp_per_s", it->exp_per_s) X("sm_arch", it->sm_arch) /* compute capability × 10 */
RLW_NAMED_SLOTS(rlw_hw_str, const char *, rl_hw, RLW_HW_STRS, "")
RLW_NAMED_SLOTS(rlw_hw_num, double, rl_hw, RLW_HW_NUMS, 0)
RLW_EXPORT const char *rlw_hw_str(int i, int which) {
    return rlw_hw_str_at(i >= 0 ? rl_hw_at((size_t)i) : NULL, which);
}
RLW_EXPORT double rlw_hw_num(int i, int which) {
    return rlw_hw_num_at(i >= 0 ? rl_hw_at((size_t)i) : NULL, which);
}
/* The preset's peak of kind k (rlw_peak_id(k)), FLOP/s; 0 when it has none. */
RLW_EXPORT double rlw_hw_peak(int i, int k) {
    const rl_hw *hw = i >= 0 ? rl_hw_at((size_t)i) : NULL;
    return hw && k >= 0 && k < RL_PEAK_COUNT ? hw->peak_flops_per_s[k] : 0;
}
RLW_EXPORT int rlw_hw_find(const char *id) {
    for (size_t i = 0; i < rl_hw_count(); i++)
        if (strcmp(rl_hw_at(i)->id, id) == 0) return (int)i;
    return -1;
}
RLW_EXPORT int rlw_hw_lookup(const char *id, const char *field, rl_error *err) {
    const rl_hw *hw;
    if (rl_hw_lookup(id, field, &hw, err) != RL_OK) return -1;
    return rlw_hw_index(hw);
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
RLW_EXPORT int rlw_dtype_parse(const char *text, const char *field, rl_error *err) {
    rl_dtype d;
    return rl_dtype_parse(text, field, &d, err) == RL_OK ? (int)d : -1;
}
RLW_EXPORT int rlw_kernel_count(void) { return RL_KERNEL_COUNT; }
RLW_EXPORT const char *rlw_kernel_name(int k) { return rl_kernel_name((rl_kernel)k); }
RLW_EXPORT const char *rlw_kernel_description(int k) { return rl_kernel_description((rl_kernel)k); }
/* "" / "packed" / "per-head" → the rl_gqa_pack code, or -1 with core's error naming `field`. */
RLW_EXPORT int rlw_gqa_pack_parse(const char *text, const char *field, rl_error *err) {
    rl_gqa_pack p;
    return rl_gqa_pack_parse(text, field, &p, err) == RL_OK ? (int)p : -1;
}
/* A profile name → its index, or -1 with core's error naming `field` (rl_kernel_parse). */
RLW_EXPORT int rlw_kernel_parse(const char *text, const char *field, rl_error *err) {
    rl_kernel k;
    return rl_kernel_parse(text, field, &k, err) == RL_OK ? (int)k : -1;
}
RLW_EXPORT int rlw_term_count(void) { return RL_TERM_COUNT; }
RLW_EXPORT const char *rlw_term_name(int t) { return rl_term_name((rl_term)t); }
/* The ledger term's meaning and why a tile losing on it is slower (core's RL_TERMS). */
RLW_EXPORT const char *rlw_term_meaning(int t) { return rl_term_meaning((rl_term)t); }
RLW_EXPORT const char *rlw_term_why_loses(int t) { return rl_term_why_loses((rl_term)t); }
RLW_EXPORT int rlw_level_count(void) { return RL_LEVEL_COUNT; }
RLW_EXPORT const char *rlw_level_name(int l) { return rl_level_name((rl_level)l); }
RLW_EXPORT int rlw_model_count(void) { return RL_MODEL_COUNT; }
RLW_EXPORT const char *rlw_model_name(int m) { return rl_model_name((rl_model)m); }
RLW_EXPORT const char *rlw_bound_name(int b) { return rl_bound_name((rl_bound)b); }
RLW_EXPORT const char *rlw_limit_name(int l) { return rl_limit_name((rl_limit)l); }
RLW_EXPORT const char *rlw_pass_name(int p) { return rl_pass_name((rl_pass)p); }

/* ---------------------------------------------------------------------------------------------
 * Units
 * ------------------------------------------------------------------------------------------- */

RLW_EXPORT int rlw_dim_count(void) { return RL_DIM_COUNT; }
RLW_EXPORT const char *rlw_dim_noun(int d) { return rl_dim_noun((rl_dim)d); }
RLW_EXPORT const char *rlw_dim_base_unit(int d) { return rl_dim_base_unit((rl_dim)d); }
/* The formatter's tables (core's rl_prefix_name, rl_time_unit_name, RL_FORMAT_DEFAULT_SIG): the
 * page formats in JS with them. style 0 SI, 1 IEC. */
RLW_EXPORT int rlw_prefix_count(void) { return RL_PREFIX_COUNT; }
RLW_EXPORT const char *rlw_prefix(int style, int k) {
    return rl_prefix_name(style ? RL_PREFIX_IEC : RL_PREFIX_SI, k);
}
RLW_EXPORT int rlw_time_unit_count(void) { return RL_TIME_UNIT_COUNT; }
RLW_EXPORT const char *rlw_time_unit(int k) { return rl_time_unit_name(k); }
RLW_EXPORT int rlw_format_default_sig(void) { return RL_FORMAT_DEFAULT_SIG; }

/* Parse `text` expecting dimension `expected` (RL_DIM_COUNT = any). On success writes the value in
 * base units to out[0] and the dimension to out[1] and returns 0; else returns the status and
 * err holds core's message naming `field`. */
RLW_EXPORT int rlw_parse_quantity(const char *text, int expected, const char *field, double *out,
                                  rl_error *err) {
    double v = 0;
    rl_dim dim = RL_DIM_NONE;
    rl_status st = rl_parse_quantity(text, (rl_dim)expected, field, &v, &dim, err);
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
