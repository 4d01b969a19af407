/*
 * layer_wasm.c — core's whole-layer step (rl_layer_step_compute, rl_layer_crossover_find;
 * core/src/layer.c) for the page's "whole layer" view. Thin: it moves data, errors are values in a
 * caller-owned rl_error, slot names come from the key tables below (one source of truth).
 *
 *   rlw_layer_in_count(), rlw_layer_in_key(i)       input slots (phase, batch, seq, …, peak)
 *   rlw_layer_step(model_id, hw_id, in, err)        computes the step and its crossover; RL_OK or
 *                                                    the error (its field is the CLI flag)
 *   rlw_layer_fill(out, cap)                        one call for the whole step: out[] gets the
 *                                                    step's numbers (rlw_layer_step_key), then one
 *                                                    row of rlw_layer_op_key numbers per operator
 *                                                    (attainable FLOP/s under the op's own ceiling
 *                                                    included); returns the operator count, -1 if
 *                                                    cap doubles do not hold them
 *   rlw_layer_text()                                 the step's text in one string: the note (what
 *                                                    the step leaves out, "" if nothing), then per
 *                                                    operator a line "name\tkind\tbound"
 *   rlw_layer_fill_max()                             doubles rlw_layer_fill can write (a buffer size)
 *   rlw_weight_dtype_count(), rlw_weight_dtype_name(i)
 */
#include <stddef.h>
#include <stdio.h>

#include "rooflab_wasm.h"


static const char *const in_keys[] = {"phase",    "batch",        "seq",       "kv_len",
                                      "tp",       "dtype",        "kv_dtype",  "weight_dtype",
                                      "bandwidth_bytes_per_s", "peak_flops_per_s"};
#define IN_COUNT (sizeof in_keys / sizeof in_keys[0])

static const char *const op_keys[] = {
    "count",          "per_step",      "flops",          "tile_flops",   "bytes",
    "weight_bytes",   "act_in_bytes",  "act_out_bytes",  "kv_bytes",     "intensity_flop_per_byte",
    "peak_flops_per_s", "memory_time_s", "compute_time_s", "time_s",      "step_time_s",
    "share",          "attainable_flops_per_s"};
#define OP_COUNT (sizeof op_keys / sizeof op_keys[0])

static const char *const step_keys[] = {
    "time_s",           "layer_time_s",    "layers",          "tokens",
    "attention_time_s", "attention_share", "weights_time_s",  "weights_share",
    "flops",            "bytes",           "weight_bytes",    "kv_bytes",
    "activation_bytes", "experts_touched", "allreduce_bytes", "attention_predicted_time_s",
    "elementwise_peak_flops_per_s", "crossover_found", "crossover_value", "crossover_at_minimum",
    "crossover_varies_seq", "tp", "heads", "kv_heads"};
#define STEP_COUNT (sizeof step_keys / sizeof step_keys[0])

/* The last step computed (the page is single-threaded; one view reads it after each call). */
static rl_layer_step last;
static rl_layer_crossover last_x;
static rl_roof last_roof;
static int have_last;

RLW_EXPORT int rlw_layer_in_count(void) { return (int)IN_COUNT; }
RLW_EXPORT const char *rlw_layer_in_key(int i) { return i >= 0 && (size_t)i < IN_COUNT ? in_keys[i] : ""; }
RLW_EXPORT int rlw_layer_op_key_count(void) { return (int)OP_COUNT; }
RLW_EXPORT const char *rlw_layer_op_key(int i) { return i >= 0 && (size_t)i < OP_COUNT ? op_keys[i] : ""; }
RLW_EXPORT int rlw_layer_step_key_count(void) { return (int)STEP_COUNT; }
RLW_EXPORT const char *rlw_layer_step_key(int i) {
    return i >= 0 && (size_t)i < STEP_COUNT ? step_keys[i] : "";
}

RLW_EXPORT int rlw_layer_step(const char *model_id, const char *hw_id, const double *in, rl_error *err) {
    have_last = 0;
    rl_layer_request r = {0};
    rl_status st = rl_model_shape_lookup(model_id, "model", &r.model, err);
    if (st != RL_OK) return st;
    const rl_hw *hw = NULL;
    if ((st = rl_hw_lookup(hw_id, "hw", &hw, err)) != RL_OK) return st;
    r.phase = in[0] != 0 ? RL_PHASE_PREFILL : RL_PHASE_DECODE;
    r.batch = (int64_t)in[1];
    r.seq = (int64_t)in[2];
    r.kv_len = (int64_t)in[3];
    r.tp = (int64_t)in[4];
    r.dtype = (rl_dtype)(int)in[5];
    r.kv_dtype = (rl_dtype)(int)in[6];
    r.weight_dtype = (rl_weight_dtype)(int)in[7];
    rl_roof roof = {in[8], in[9]};
    last_roof = roof;
    if ((st = rl_layer_step_compute(&r, hw, roof, &last, err)) != RL_OK) return st;
    if ((st = rl_layer_crossover_find(&r, hw, roof, &last_x, err)) != RL_OK) return st;
    have_last = 1;
    return RL_OK;
}

static void op_values(const rl_layer_op *op, double *v) {
    rl_roof own = {last_roof.bandwidth_bytes_per_s, op->peak_flops_per_s};
    const double row[] = {(double)op->count, op->per_step, op->flops, op->tile_flops, op->bytes,
                          op->weight_bytes, op->act_in_bytes, op->act_out_bytes, op->kv_bytes,
                          op->intensity_flop_per_byte, op->peak_flops_per_s, op->memory_time_s,
                          op->compute_time_s, op->time_s, op->step_time_s, op->share,
                          rl_attainable_flops_per_s(own, op->intensity_flop_per_byte)};
    _Static_assert(sizeof row / sizeof row[0] == OP_COUNT, "one value per op key");
    for (size_t w = 0; w < OP_COUNT; w++) v[w] = row[w];
}

static void step_values(double *v) {
    const rl_layer_step *s = &last;
    const double row[] = {s->time_s, s->layer_time_s, (double)s->request.model->layer.layers,
                          (double)s->tokens, s->attention_time_s, s->attention_share,
                          s->weights_time_s, s->weights_share, s->flops, s->bytes, s->weight_bytes,
                          s->kv_bytes, s->activation_bytes, s->experts_touched, s->allreduce_bytes,
                          s->attention_predicted_time_s, s->elementwise_peak_flops_per_s,
                          last_x.found, (double)last_x.value, last_x.at_minimum,
                          s->request.phase == RL_PHASE_PREFILL, (double)s->request.tp,
                          (double)s->heads, (double)s->kv_heads};
    _Static_assert(sizeof row / sizeof row[0] == STEP_COUNT, "one value per step key");
    for (size_t w = 0; w < STEP_COUNT; w++) v[w] = row[w];
}

RLW_EXPORT int rlw_layer_fill_max(void) { return (int)(STEP_COUNT + RL_LAYER_OPS_MAX * OP_COUNT); }

RLW_EXPORT int rlw_layer_fill(double *out, int cap) {
    if (!have_last) return 0;
    if (!out || cap < 0 || (size_t)cap < STEP_COUNT + last.op_count * OP_COUNT) return -1;
    step_values(out);
    for (size_t i = 0; i < last.op_count; i++) op_values(&last.ops[i], out + STEP_COUNT + i * OP_COUNT);
    return (int)last.op_count;
}

/* The note and one line per operator; names are under RL_LAYER_OP_NAME_MAX, kinds and bounds short. */
static char text[sizeof last.note + RL_LAYER_OPS_MAX * (RL_LAYER_OP_NAME_MAX + 32)];

RLW_EXPORT const char *rlw_layer_text(void) {
    if (!have_last) return "";
    size_t at = (size_t)snprintf(text, sizeof text, "%s", last.note);
    for (size_t i = 0; i < last.op_count && at < sizeof text; i++) {
        const rl_layer_op *op = &last.ops[i];
        at += (size_t)snprintf(text + at, sizeof text - at, "\n%s\t%s\t%s", op->name,
                               rl_op_kind_name(op->kind), rl_bound_name(op->bound));
    }
    return text;
}

RLW_EXPORT int rlw_weight_dtype_count(void) { return RL_WDTYPE_COUNT; }
RLW_EXPORT const char *rlw_weight_dtype_name(int i) { return rl_weight_dtype_name((rl_weight_dtype)i); }
