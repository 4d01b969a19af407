/* workload.c — work (FLOPs) and device-memory traffic (bytes) of attention under the three
 * traffic models of MODEL.md. Work is a property of the problem; traffic is a
 * property of the algorithm, so every model of one problem shares the same FLOPs. */
#include <stdint.h>
#include <string.h>

#include "internal.h"

const char *rl_model_name(rl_model model) {
    switch (model) {
    case RL_MODEL_COMPULSORY: return "compulsory";
    case RL_MODEL_TILED: return "tiled";
    case RL_MODEL_NAIVE: return "naive";
    default: return "unknown";
    }
}

/* Σ_{i=0}^{n-1} floor((a·i + b) / m) for a, b ≥ 0, m ≥ 1, in O(log m) steps (the classic
 * Euclid-like reduction). Bounds here (n ≤ 2^24, a, m ≤ 2^16, b ≤ 2^26) keep every
 * intermediate below 2^64. */
uint64_t rl__floor_sum(uint64_t n, uint64_t m, uint64_t a, uint64_t b) {
    uint64_t ans = 0;
    for (;;) {
        if (a >= m) {
            ans += (n * (n - 1) / 2) * (a / m);
            a %= m;
        }
        if (b >= m) {
            ans += n * (b / m);
            b %= m;
        }
        uint64_t y_max = a * n + b;
        if (y_max < m) break;
        n = y_max / m;
        b = y_max % m;
        uint64_t t = m;
        m = a;
        a = t;
    }
    return ans;
}

/* K (= V) rows that the query blocks of one (batch, query head) load in the tiled model.
 * Block i (0-based) ends at query row e_i = min((i+1)·Br, N); causal, its last key position is
 * e_i + L − N and it loads min(⌈(e_i + L − N)/Bc⌉·Bc, L) rows; non-causal it loads all L. */
uint64_t rl__tiled_kv_rows(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, int causal) {
    const uint64_t blocks = (n + br - 1) / br;
    if (!causal) return blocks * l;
    const uint64_t shift = l - n;               /* D = L − N ≥ 0 */
    const uint64_t key_tiles = (l + bc - 1) / bc; /* ⌈L/Bc⌉ */
    /* Full blocks i = 0 … blocks−2 have e_i = (i+1)·Br < N; their tile counts
     * t_i = ⌈((i+1)·Br + D)/Bc⌉ = ⌊(Br·i + Br + D + Bc − 1)/Bc⌋ never exceed ⌈L/Bc⌉. */
    const uint64_t full = blocks - 1;
    uint64_t tiles = full ? rl__floor_sum(full, bc, br, br + shift + bc - 1) : 0;
    uint64_t rows = tiles * bc;
    /* A block whose tiles reach the last, partial key tile loads L rows, not t_i·Bc. */
    if (l % bc != 0 && full) {
        const uint64_t overshoot = key_tiles * bc - l;
        const uint64_t threshold = (key_tiles - 1) * bc; /* t_i = ⌈L/Bc⌉ ⇔ (i+1)·Br + D > this */
        uint64_t first_j = 1; /* smallest j = i + 1 with j·Br + D > threshold */
        if (threshold >= shift) first_j = (threshold - shift) / br + 1;
        if (first_j < 1) first_j = 1;
        uint64_t count = first_j <= full ? full - first_j + 1 : 0;
        rows -= count * overshoot;
    }
    /* The last block ends at e = N, whose last key is L − 1: it loads all L rows. */
    return rows + l;
}

uint64_t rl__tile_count(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, int causal) {
    const uint64_t q_blocks = (n + br - 1) / br, key_tiles = (l + bc - 1) / bc;
    if (!causal) return q_blocks * key_tiles;
    const uint64_t full = q_blocks - 1; /* blocks ending before N: ⌈((i+1)·Br + L − N)/Bc⌉ */
    return (full ? rl__floor_sum(full, bc, br, br + (l - n) + bc - 1) : 0) + key_tiles;
}

/* The FlashAttention-2 backward dataflow (MODEL.md, backward): KV blocks outer — each
 * (batch, query head) reads K and V once and writes dK and dV once — and, for every Br × Bc tile
 * pair the mask leaves, the query block's Q, dO, its log-sum-exp and D rows are read and its fp32
 * dQ accumulator read and written (atomic adds). A pre-pass reads dO and O and writes D =
 * rowsum(dO ∘ O); a post-pass reads the dQ accumulator and writes dQ. K/V terms are counted once
 * per query head, as the forward tiled model does. */
void rl__bwd_tiled_traffic(const rl_problem *p, int64_t br, int64_t bc, rl_traffic *t) {
    const double BH = (double)p->batch * (double)p->heads, N = (double)p->seq;
    const double L = (double)p->kv_len, d = (double)p->head_dim;
    const double b = rl_dtype_bytes(p->dtype), bkv = rl_dtype_bytes(p->kv_dtype), acc = 4.0;
    const double bo = rl_dtype_bytes(p->out_dtype); /* O and dO */
    const uint64_t n = (uint64_t)p->seq, l = (uint64_t)p->kv_len;
    const double q_blocks = (double)((n + (uint64_t)br - 1) / (uint64_t)br);
    const double pairs = (double)rl__tile_count(n, l, (uint64_t)br, (uint64_t)bc, p->causal);
    const double rows = pairs * N / q_blocks; /* query rows read over all tile pairs */
    memset(t, 0, sizeof *t);
    t->available = 1;
    t->query_blocks = q_blocks;
    t->kv_rows_loaded_per_head = L;
    t->kv_reload_factor = 1.0;
    t->q_bytes = BH * rows * d * b;
    t->k_bytes = BH * L * d * bkv;
    t->v_bytes = t->k_bytes;
    t->o_bytes = BH * N * d * bo; /* pre-pass */
    t->grad_bytes = BH * (rows * (d * bo + 2.0 * acc + 2.0 * d * acc) /* dO, LSE, D, dQ acc r+w */
                          + N * d * bo + N * acc                    /* pre-pass: dO read, D written */
                          + N * d * acc + N * d * b)                /* post-pass: dQ acc → dQ */
                    + 2.0 * t->k_bytes;                             /* dK, dV written */
    t->bytes = t->q_bytes + t->k_bytes + t->v_bytes + t->o_bytes + t->grad_bytes;
}

rl_status rl_workload_compute(const rl_problem *problem, rl_workload *out, rl_error *err) {
    rl_problem p;
    rl_status s = rl_problem_resolve(problem, &p, err);
    if (s != RL_OK) return s;

    rl_workload w = {0};
    w.problem = p;
    const double B = (double)p.batch, H = (double)p.heads, Hkv = (double)p.kv_heads;
    const double N = (double)p.seq, L = (double)p.kv_len, d = (double)p.head_dim;
    const double b = rl_dtype_bytes(p.dtype), bkv = rl_dtype_bytes(p.kv_dtype);
    const double bs = rl_dtype_bytes(p.score_dtype);

    /* Scored pairs, exact in 64-bit integers (N, L ≤ 2^24). */
    const uint64_t n = (uint64_t)p.seq, l = (uint64_t)p.kv_len;
    uint64_t pairs = n * l;
    if (p.causal) pairs -= n * (n - 1) / 2;
    w.pairs = (double)pairs;
    w.fwd_flops = 4.0 * B * H * d * w.pairs;
    w.flops = p.pass == RL_PASS_BWD ? 2.5 * w.fwd_flops : w.fwd_flops;
    w.softmax_flops = 5.0 * B * H * w.pairs;

    w.q_tensor_bytes = b * B * H * N * d;
    w.o_tensor_bytes = rl_dtype_bytes(p.out_dtype) * B * H * N * d;
    w.k_tensor_bytes = bkv * B * Hkv * L * d;
    w.v_tensor_bytes = w.k_tensor_bytes;
    w.score_matrix_bytes = bs * B * H * N * L;

    rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    c->available = 1;
    c->q_bytes = w.q_tensor_bytes;
    c->k_bytes = w.k_tensor_bytes;
    c->v_bytes = w.v_tensor_bytes;
    c->o_bytes = w.o_tensor_bytes;
    if (p.pass == RL_PASS_BWD) /* dO read; dQ, dK, dV written — each once. */
        c->grad_bytes = w.o_tensor_bytes + w.q_tensor_bytes + w.k_tensor_bytes + w.v_tensor_bytes;
    c->bytes = c->q_bytes + c->k_bytes + c->v_bytes + c->o_bytes + c->grad_bytes;

    if (p.pass == RL_PASS_FWD) {
        rl_traffic *nv = &w.traffic[RL_MODEL_NAIVE];
        *nv = *c;
        nv->s_bytes = 2.0 * w.score_matrix_bytes; /* S written once, read once */
        nv->p_bytes = 2.0 * w.score_matrix_bytes; /* P written once, read once */
        nv->bytes = c->bytes + nv->s_bytes + nv->p_bytes;

        rl_traffic *t = &w.traffic[RL_MODEL_TILED];
        t->available = 1;
        const uint64_t rows = rl__tiled_kv_rows(n, l, (uint64_t)p.block_m, (uint64_t)p.block_n,
                                            p.causal);
        t->kv_rows_loaded_per_head = (double)rows;
        t->kv_reload_factor = (double)rows / L;
        t->query_blocks = (double)((n + (uint64_t)p.block_m - 1) / (uint64_t)p.block_m);
        t->q_bytes = w.q_tensor_bytes;
        t->o_bytes = w.o_tensor_bytes;
        /* Counted once per query head: no reuse across a GQA group, no credit for L2 hits. */
        t->k_bytes = bkv * B * H * d * (double)rows;
        t->v_bytes = t->k_bytes;
        t->bytes = t->q_bytes + t->k_bytes + t->v_bytes + t->o_bytes;
    }
    /* Backward: the FA2 backward dataflow is the tiled model; naive stays unavailable. */
    if (p.pass == RL_PASS_BWD) rl__bwd_tiled_traffic(&p, p.block_m, p.block_n, &w.traffic[RL_MODEL_TILED]);
    if (out) *out = w;
    return RL_OK;
}
