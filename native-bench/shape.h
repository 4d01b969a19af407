/* shape.h — a resolved rooflab problem as the kernels' shape (rlk_shape), for both backends. */
#ifndef ROOFLAB_BENCH_SHAPE_H
#define ROOFLAB_BENCH_SHAPE_H

#include <math.h>
#include <string.h>

#include "attn_shape.h" /* rlk_shape */
#include "rooflab/rooflab.h"

/* The softmax scale is the usual 1/sqrt(d). */
static inline void rlb_shape_from_problem(const rl_problem *p, rlk_shape *s) {
    memset(s, 0, sizeof *s);
    s->batch = p->batch;
    s->heads = p->heads;
    s->kv_heads = p->kv_heads;
    s->seq = p->seq;
    s->kv_len = p->kv_len;
    s->head_dim = p->head_dim;
    s->causal = p->causal;
    s->block_m = p->block_m;
    s->block_n = p->block_n;
    s->scale = (float)(1.0 / sqrt((double)p->head_dim));
}

#endif
