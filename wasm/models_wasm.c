/*
 * models_wasm.c — core's model shapes (rl_model_shape, core/src/models.c) for the page's selector.
 * Thin, like rooflab_wasm.c: it moves data, errors are values in a caller-owned rl_error.
 *
 *   rlw_model_shape_count()           shapes listed, refused ones included
 *   rlw_model_shape_str(i, w)         named slots (rlw_model_shape_str_key): id, name, source,
 *                                     fields, unsupported ("" if none)
 *   rlw_model_shape_num(i, w)         named slots (rlw_model_shape_num_key): heads, kv_heads,
 *                                     head_dim, sliding_window (0 = none), head_dim_v (0 = head_dim),
 *                                     kv_lora_rank, rope_dim (MLA, 0 = none), chunk (0 = none),
 *                                     local_layers, layers, sink_logit (0/1),
 *                                     topk (sparse top-k, 0 = dense)
 *   rlw_model_shape_note(id, kv_len)  core's note on what the shape leaves out at this key length
 *                                     (a sliding window not applied), "" when none
 *   rlw_model_shape_apply(id, seq, out, err)  core's rl_model_shape_apply for a problem of `seq`
 *                                     query rows: out[0..5] = heads, kv_heads, head_dim, head_dim_v,
 *                                     kv_lora_rank, rope_dim (0 = left to resolve: an MLA model's
 *                                     absorbed decode form sets the latent only); an unknown id or a
 *                                     model whose attention cannot be described is an error naming
 *                                     "model" (with the reason)
 */
#include "rooflab_wasm.h"


RLW_EXPORT int rlw_model_shape_count(void) { return (int)rl_model_shape_count(); }

#define RLW_SHAPE_STRS(X)                                                                          \
    X("id", it->id) X("name", it->name) X("source", it->source) X("fields", it->fields)            \
    X("unsupported", RLW_TEXT(it->unsupported))
#define RLW_SHAPE_NUMS(X)                                                                          \
    X("heads", (double)it->heads) X("kv_heads", (double)it->kv_heads)                              \
    X("head_dim", (double)it->head_dim) X("sliding_window", (double)it->sliding_window)            \
    X("head_dim_v", (double)it->head_dim_v) X("kv_lora_rank", (double)it->kv_lora_rank)            \
    X("rope_dim", (double)it->rope_dim) X("chunk", (double)it->chunk)                              \
    X("local_layers", (double)it->layer.local_layers) X("layers", (double)it->layer.layers)        \
    X("sink_logit", (double)it->sink_logit) X("topk", (double)it->topk)
RLW_NAMED_SLOTS(rlw_model_shape_str, const char *, rl_model_shape, RLW_SHAPE_STRS, "")
RLW_NAMED_SLOTS(rlw_model_shape_num, double, rl_model_shape, RLW_SHAPE_NUMS, 0)
RLW_EXPORT const char *rlw_model_shape_str(int i, int which) {
    return rlw_model_shape_str_at(i >= 0 ? rl_model_shape_at((size_t)i) : NULL, which);
}
RLW_EXPORT double rlw_model_shape_num(int i, int which) {
    return rlw_model_shape_num_at(i >= 0 ? rl_model_shape_at((size_t)i) : NULL, which);
}

RLW_EXPORT int rlw_model_shape_apply(const char *id, double seq, double *out, rl_error *err) {
    const rl_model_shape *m = NULL;
    rl_status st = rl_model_shape_lookup(id, "model", &m, err);
    if (st != RL_OK) return st;
    rl_problem p = {0};
    p.seq = seq >= 1 && seq <= (double)RL_MAX_DIM ? (int64_t)seq : 0;
    rl_model_shape_apply(m, &p, 0);
    out[0] = (double)p.heads;
    out[1] = (double)p.kv_heads;
    out[2] = (double)p.head_dim;
    out[3] = (double)p.head_dim_v;
    out[4] = (double)p.kv_lora_rank;
    out[5] = (double)p.rope_dim;
    return RL_OK;
}

RLW_EXPORT const char *rlw_model_shape_note(const char *id, double kv_len) {
    static char note[RL_ERROR_MESSAGE_MAX];
    rl_problem p = {0};
    p.kv_len = kv_len >= 1 && kv_len <= (double)RL_MAX_DIM ? (int64_t)kv_len : 0;
    rl_model_shape_note(rl_model_shape_find(id), &p, note, sizeof note);
    return note;
}
