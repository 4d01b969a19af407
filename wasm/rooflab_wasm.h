/* rooflab_wasm.h — the binding's one header: the export macro and the prototypes of the model
 * binding (rooflab_wasm.c), for the binding's files and for native users of the same code
 * (bench/page/eval_rate.c). The binding only moves data: every figure and message comes from core.
 * Errors: a call that can fail takes a caller-owned rl_error (rlw_error_size() bytes) and fills it
 * with core's rl_error_fail, the one error helper. */
#ifndef ROOFLAB_WASM_H
#define ROOFLAB_WASM_H

#include <stddef.h>

#include "rooflab/rooflab.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define RLW_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define RLW_EXPORT
#endif

const char *rlw_version(void);
int rlw_error_size(void);
const char *rlw_error_field(const rl_error *err);
const char *rlw_error_message(const rl_error *err);
int rlw_field_count(void);
const char *rlw_field_key(int i);
const char *rlw_field_flag(int i);
const char *rlw_field_help(int i);
const char *rlw_field_meta(int i);
int rlw_field_type(int i);
int rlw_field_tie(int i);
double rlw_field_num(int i, int which);
int rlw_field_parse(int i, const char *text, const char *name, double *out, rl_error *err);
int rlw_kfield_count(void);
const char *rlw_kfield_key(int i);
const char *rlw_kfield_flag(int i);
const char *rlw_kfield_help(int i);
const char *rlw_kfield_meta(int i);
int rlw_kfield_type(int i);
double rlw_kfield_lo(int i);
double rlw_kfield_hi(int i);
const char *rlw_kfield_choice(int i, int code);
double rlw_kfield_parse(int i, const char *text, const char *name, rl_error *err);
int rlw_in_count(void);
const char *rlw_in_key(int i);
int rlw_report_count(void);
const char *rlw_report_name(int i);
int rlw_report_unit(int i);
int rlw_report_kind(int i);
int rlw_report(const double *in, double *out, rl_error *err, rl_error *pred_err);
int rlw_row_width(void);
const char *rlw_row_key(int i);
int rlw_sweep_max(void);
int rlw_sweep(const double *in, int param, double lo, double hi, int count, int log, double *out, rl_error *err);
int rlw_sweep_param_parse(const char *text, rl_error *err);
int rlw_tune_width(void);
int rlw_tune_max(void);
const char *rlw_tune_key(int i);
int rlw_tune(const double *in, double *out, int cap, rl_error *err);
const char *rlw_default_hw(void);
int rlw_roof_out_count(void);
const char *rlw_roof_out_key(int i);
int rlw_roof_resolve(const char *hw, int dtype, const char *bandwidth, const char *peak, double *out, rl_error *err);
double rlw_attainable(double bandwidth, double peak, double intensity);
double rlw_ridge(double bandwidth, double peak);
double rlw_efficiency(double bandwidth, double peak, double flops, double bytes, double time_s);
int rlw_hw_count(void);
const char *rlw_hw_str(int i, int which);
double rlw_hw_num(int i, int which);
double rlw_hw_peak(int i, int k);
int rlw_hw_find(const char *id);
int rlw_hw_lookup(const char *id, const char *field, rl_error *err);
double rlw_hw_peak_for_dtype(int i, int dtype);
int rlw_peak_for_dtype(int dtype);
int rlw_peak_count(void);
const char *rlw_peak_name(int k);
const char *rlw_peak_id(int k);
int rlw_dtype_count(void);
const char *rlw_dtype_name(int d);
double rlw_dtype_bytes(int d);
int rlw_dtype_parse(const char *text, const char *field, rl_error *err);
int rlw_kernel_count(void);
const char *rlw_kernel_name(int k);
const char *rlw_kernel_description(int k);
int rlw_gqa_pack_parse(const char *text, const char *field, rl_error *err);
int rlw_kernel_parse(const char *text, const char *field, rl_error *err);
int rlw_term_count(void);
const char *rlw_term_name(int t);
const char *rlw_term_meaning(int t);
const char *rlw_term_why_loses(int t);
int rlw_level_count(void);
const char *rlw_level_name(int l);
int rlw_model_count(void);
const char *rlw_model_name(int m);
const char *rlw_bound_name(int b);
const char *rlw_limit_name(int l);
const char *rlw_pass_name(int p);
int rlw_dim_count(void);
const char *rlw_dim_noun(int d);
const char *rlw_dim_base_unit(int d);
int rlw_prefix_count(void);
const char *rlw_prefix(int style, int k);
int rlw_time_unit_count(void);
const char *rlw_time_unit(int k);
int rlw_format_default_sig(void);
int rlw_parse_quantity(const char *text, int expected, const char *field, double *out, rl_error *err);
const char *rlw_format(double value, int dim, int style, int sig);

/* Named slots (issue 19): a table TABLE(X) of X(key, expression over `it`, a const ITEM *) becomes
 * the exports NAME_count() and NAME_key(w) (the slot names the page reads once) and a reader
 * NAME_at(it, w), so no slot is a number matched to a switch. */
#define RLW_X_SLOT_KEY(key, expr) key,
#define RLW_X_SLOT_VALUE(key, expr) (expr),
#define RLW_NAMED_SLOTS(NAME, TYPE, ITEM, TABLE, EMPTY)                                             \
    static const char *const NAME##_keys[] = {TABLE(RLW_X_SLOT_KEY)};                               \
    RLW_EXPORT int NAME##_count(void) { return (int)(sizeof NAME##_keys / sizeof NAME##_keys[0]); } \
    RLW_EXPORT const char *NAME##_key(int w) { return w >= 0 && w < NAME##_count() ? NAME##_keys[w] : ""; } \
    static TYPE NAME##_at(const ITEM *it, int w) {                                                  \
        if (!it || w < 0 || w >= NAME##_count()) return EMPTY;                                      \
        TYPE const v[] = {TABLE(RLW_X_SLOT_VALUE)};                                                 \
        return v[w];                                                                                \
    }
#define RLW_TEXT(s) ((s) ? (s) : "")

#endif /* ROOFLAB_WASM_H */
