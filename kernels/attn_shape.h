/*
 * attn_shape.h — the attention problem as the kernels see it, shared by kernels/cpu (C),
 * kernels/cuda (CUDA C++, host and device code) and native-bench: the shape, its check, and the
 * GQA head mapping. Header only, so that neither kernel library compiles the other's sources.
 *
 * Layout (row-major): Q and O are [B][H][N][d], K and V are [B][Hkv][L][d]. Query head h of
 * batch b reads key/value head b·Hkv + h / G, G = H / Hkv (GQA; MQA when Hkv = 1).
 */
#ifndef ROOFLAB_ATTN_SHAPE_H
#define ROOFLAB_ATTN_SHAPE_H

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host and device code alike (nvcc); plain C elsewhere. */
#if defined(__CUDACC__)
#define RLK_HOST_DEVICE __host__ __device__
#else
#define RLK_HOST_DEVICE
#endif

typedef struct rlk_shape {
    int64_t batch;    /* B */
    int64_t heads;    /* H */
    int64_t kv_heads; /* Hkv, divides H */
    int64_t seq;      /* N query rows */
    int64_t kv_len;   /* L key rows (causal: N ≤ L) */
    int64_t head_dim; /* d */
    int causal;
    int64_t block_m;  /* Br (tiled) */
    int64_t block_n;  /* Bc (tiled) */
    float scale;      /* softmax scale, usually 1/sqrt(d) */
} rlk_shape;

/* The K/V head (index among the B·Hkv of K and V) that query head h of batch b reads, with
 * kv_heads = Hkv and group = G = H / Hkv query heads per KV head. */
static inline RLK_HOST_DEVICE long long rlk_kv_head(long long b, long long h, long long kv_heads,
                                                    long long group) {
    return b * kv_heads + h / group;
}

/* 0 when the shape is usable by the kernels (sizes ≥ 1, H % Hkv == 0, causal N ≤ L, Br, Bc ≥ 1,
 * a finite positive scale). */
static inline int rlk_shape_check(const rlk_shape *s) {
    if (!s) return -1;
    if (s->batch < 1 || s->heads < 1 || s->kv_heads < 1 || s->seq < 1 || s->kv_len < 1 ||
        s->head_dim < 1 || s->block_m < 1 || s->block_n < 1)
        return -1;
    if (s->heads % s->kv_heads != 0) return -1;
    if (s->causal && s->seq > s->kv_len) return -1;
    if (!(s->scale > 0.0f) || !isfinite(s->scale)) return -1;
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_ATTN_SHAPE_H */
