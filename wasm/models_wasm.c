/*
 * models_wasm.c — core's model shapes (rl_model_shape, core/src/models.c) for the page's selector.
 * Thin, like rooflab_wasm.c: it moves data, errors are values in a caller-owned rl_error.
 *
 *   rlw_model_shape_count()           shapes listed, refused ones included
 *   rlw_model_shape_str(i, which)     0 id, 1 name, 2 source, 3 fields, 4 unsupported ("" if none)
 *   rlw_model_shape_num(i, which)     0 heads, 1 kv_heads, 2 head_dim, 3 sliding_window (0 = none)
 *   rlw_model_shape_note(id, kv_len)  core's note on what the shape leaves out at this key length
 *                                     (a sliding window not applied), "" when none
 *   rlw_model_shape_apply(id, out, err)  out[0..2] = heads, kv_heads, head_dim; an unknown id or a
 *                                     model whose attention cannot be described is an error naming
 *                                     "model" (with the reason)
 */
#include "rooflab_wasm.h"


RLW_EXPORT int rlw_model_shape_count(void) { return (int)rl_model_shape_count(); }

RLW_EXPORT const char *rlw_model_shape_str(int i, int which) {
    const rl_model_shape *m = i >= 0 ? rl_model_shape_at((size_t)i) : NULL;
    if (!m) return "";
    switch (which) {
    case 0: return m->id;
    case 1: return m->name;
    case 2: return m->source;
    case 3: return m->fields;
    case 4: return m->unsupported ? m->unsupported : "";
    default: return "";
    }
}

RLW_EXPORT double rlw_model_shape_num(int i, int which) {
    const rl_model_shape *m = i >= 0 ? rl_model_shape_at((size_t)i) : NULL;
    if (!m) return 0;
    switch (which) {
    case 0: return (double)m->heads;
    case 1: return (double)m->kv_heads;
    case 2: return (double)m->head_dim;
    case 3: return (double)m->sliding_window;
    default: return 0;
    }
}

RLW_EXPORT int rlw_model_shape_apply(const char *id, double *out, rl_error *err) {
    const rl_model_shape *m = NULL;
    rl_status st = rl_model_shape_lookup(id, "model", &m, err);
    if (st != RL_OK) return st;
    out[0] = (double)m->heads;
    out[1] = (double)m->kv_heads;
    out[2] = (double)m->head_dim;
    return RL_OK;
}

RLW_EXPORT const char *rlw_model_shape_note(const char *id, double kv_len) {
    static char note[RL_ERROR_MESSAGE_MAX];
    rl_problem p = {0};
    p.kv_len = kv_len >= 1 && kv_len <= (double)RL_MAX_DIM ? (int64_t)kv_len : 0;
    rl_model_shape_note(rl_model_shape_find(id), &p, note, sizeof note);
    return note;
}
