/* workload.c — work (FLOPs) and device-memory traffic (bytes) of attention under the three
 * traffic models of MODEL.md. Work is a property of the problem; traffic is a
 * property of the algorithm, so every model of one problem shares the same FLOPs. */
#include <math.h>
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

/* Σ_{q=1}^{x} min(c, q): c(c+1)/2 + (x − c)·c once x ≥ c. */
static uint64_t sum_min(uint64_t x, uint64_t c) {
    return x <= c ? x * (x + 1) / 2 : c * (c + 1) / 2 + (x - c) * c;
}

/* Query i (0-based) sits at key position p = L − N + i and sees the window [p − W + 1, p] and the
 * sinks 0 … S − 1 below it: min(W, p + 1) + min(S, max(0, p + 1 − W)) keys. With q = p + 1 from
 * L − N + 1 to L: pairs = Σ min(W, q) + Σ min(S, max(0, q − W)) = F_W(L) − F_W(D) + F_S(L − W) −
 * F_S(D − W), F_c(x) = Σ_{q=1}^{x} min(c, q) (0 for x ≤ 0), D = L − N. */
uint64_t rl__window_pairs(uint64_t n, uint64_t l, uint64_t w, uint64_t s) {
    const uint64_t d = l - n;
    uint64_t pairs = sum_min(l, w) - sum_min(d, w);
    if (s) pairs += sum_min(l > w ? l - w : 0, s) - sum_min(d > w ? d - w : 0, s);
    return pairs;
}

/* Query block i holds rows i·Br … e − 1 (e = min((i+1)·Br, N)), key positions P0 = i·Br + D to
 * P1 = e − 1 + D; it needs keys max(0, P0 − W + 1) … P1, i.e. Bc tiles ⌊lo/Bc⌋ … ⌊P1/Bc⌋, plus
 * the sink tiles 0 … ⌈S/Bc⌉ − 1 below the first (steady state: ⌈(W + Br)/Bc⌉ tiles when W and
 * the blocks are Bc-aligned). A tile's rows are Bc, the last tile's L − (⌈L/Bc⌉ − 1)·Bc. */
void rl__window_tiles(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, uint64_t w, uint64_t s,
                      uint64_t *tiles, uint64_t *rows) {
    const uint64_t d = l - n, blocks = (n + br - 1) / br;
    const uint64_t sink_tiles = (s + bc - 1) / bc;
    uint64_t t = 0, r = 0;
    for (uint64_t i = 0; i < blocks; i++) {
        const uint64_t p0 = i * br + d, e = (i + 1) * br < n ? (i + 1) * br : n, p1 = e - 1 + d;
        const uint64_t lo = p0 + 1 > w ? p0 + 1 - w : 0;
        const uint64_t first = lo / bc, last = p1 / bc;
        t += last - first + 1;
        r += ((last + 1) * bc < l ? (last + 1) * bc : l) - first * bc;
        const uint64_t st = sink_tiles < first ? sink_tiles : first; /* sink tiles below `first` */
        t += st;
        r += st * bc < l ? st * bc : l;
    }
    *tiles = t;
    *rows = r;
}

void rl__kv_token_bytes(const rl_problem *p, double *k_bytes, double *v_bytes) {
    const double bkv = rl_dtype_bytes(p->kv_dtype);
    if (p->kv_lora_rank > 0) {
        const double r = (double)p->kv_lora_rank, dr = (double)p->rope_dim;
        /* FlashMLA's "FP8 with scale" cache (DeepSeek-V3.2; deepseek-ai/FlashMLA README.md and
         * docs/20250929-hopper-fp8-sparse-deep-dive.md @ 9241ae3e): the R latent in fp8 with one
         * fp32 scale per 128 elements, the DR RoPE part unquantised in bf16 whatever --dtype:
         * 512 + 4·4 + 64·2 = 656 B for R 512, DR 64. */
        if (p->kv_dtype == RL_DTYPE_FP8)
            *k_bytes = r * 1.0 + (double)((p->kv_lora_rank + 127) / 128) * 4.0 + dr * 2.0;
        else
            *k_bytes = (r + dr) * bkv;
        *v_bytes = 0.0; /* V is the latent's first R elements, already read as K */
        return;
    }
    *k_bytes = (double)p->head_dim * bkv;
    *v_bytes = (double)p->head_dim_v * bkv;
}

/* The FlashAttention-2 backward dataflow (MODEL.md, backward): KV blocks outer — each
 * (batch, query head) reads K and V once and writes dK and dV once — and, for every Br × Bc tile
 * pair the mask leaves, the query block's Q, dO, its log-sum-exp and D rows are read and its fp32
 * dQ accumulator read and written (atomic adds). A pre-pass reads dO and O and writes D =
 * rowsum(dO ∘ O); a post-pass reads the dQ accumulator and writes dQ. K/V terms are counted once
 * per query head, as the forward tiled model does. */
void rl__bwd_tiled_traffic(const rl_problem *p, int64_t br, int64_t bc, rl_traffic *t) {
    const double BH = (double)p->batch * (double)p->heads, N = (double)p->seq;
    const double L = (double)p->kv_len, d = (double)p->head_dim, dv = (double)p->head_dim_v;
    const double b = rl_dtype_bytes(p->dtype), acc = 4.0;
    const double bo = rl_dtype_bytes(p->out_dtype); /* O and dO */
    double kt, vt;
    rl__kv_token_bytes(p, &kt, &vt);
    const uint64_t n = (uint64_t)p->seq, l = (uint64_t)p->kv_len;
    const double q_blocks = (double)((n + (uint64_t)br - 1) / (uint64_t)br);
    uint64_t tiles = 0, unused = 0;
    if (p->window)
        rl__window_tiles(n, l, (uint64_t)br, (uint64_t)bc, (uint64_t)p->window, (uint64_t)p->sinks,
                         &tiles, &unused);
    else
        tiles = rl__tile_count(n, l, (uint64_t)br, (uint64_t)bc, p->causal);
    const double pairs = (double)tiles;
    const double rows = pairs * N / q_blocks; /* query rows read over all tile pairs */
    memset(t, 0, sizeof *t);
    t->available = 1;
    t->query_blocks = q_blocks;
    t->kv_rows_loaded_per_head = L;
    t->kv_reload_factor = 1.0;
    t->q_bytes = BH * rows * d * b;
    t->k_bytes = BH * L * kt;
    t->v_bytes = BH * L * vt;
    t->o_bytes = BH * N * dv * bo; /* pre-pass */
    t->grad_bytes = BH * (rows * (dv * bo + 2.0 * acc + 2.0 * d * acc) /* dO, LSE, D, dQ acc r+w */
                          + N * dv * bo + N * acc                   /* pre-pass: dO read, D written */
                          + N * d * acc + N * d * b)                /* post-pass: dQ acc → dQ */
                    + t->k_bytes + t->v_bytes;                      /* dK, dV written */
    t->bytes = t->q_bytes + t->k_bytes + t->v_bytes + t->o_bytes + t->grad_bytes;
}

/* A gather of `chunk` contiguous bytes in 32 B sectors (the unit in which L2 and DRAM move
 * global memory: CUDA C++ Best Practices Guide, "Coalesced Access to Global Memory"; a 128 B
 * line is four sectors and only the sectors touched move). A chunk of c whole bytes that starts
 * at a multiple of g = gcd(c, 32) — consecutive chunks in a page pool, scattered pages — touches
 * ⌈(o + c)/32⌉ − ⌊o/32⌋ sectors at offset o; averaged over the 32/g offsets that is
 * (c + 32 − g)/32 sectors, i.e. c + 32 − g bytes: no waste when 32 divides c. */
double rl__sector_bytes(double chunk) {
    if (!(chunk > 0)) return 0.0;
    const uint64_t c = (uint64_t)ceil(chunk);
    uint64_t a = c, b = 32;
    while (b) {
        const uint64_t t = a % b;
        a = b;
        b = t;
    }
    return (double)(c + 32 - a);
}

/* Sequences of one length: scored pairs per head, keys some query touches (the compulsory K/V
 * rows per KV head) and the K (= V) rows the tiled dataflow loads per query head. */
typedef struct seq_rows {
    uint64_t pairs, touched, tiled_rows;
} seq_rows;

static seq_rows rows_of(const rl_problem *p, uint64_t l) {
    const uint64_t n = (uint64_t)p->seq;
    seq_rows r = {0};
    if (p->topk) {
        /* Query i sees q = L − N + i + 1 keys (causal) or L and attends min(K, q): the window sum
         * with W = K and no sinks. Each selected row is gathered for its query (tiled), and the
         * rows some query selects are at least the last query's min(K, L) (compulsory; exact for
         * N = 1, a lower bound otherwise: the selections' overlap is data). */
        const uint64_t k = (uint64_t)p->topk;
        r.pairs = p->causal ? rl__window_pairs(n, l, k, 0) : n * (k < l ? k : l);
        r.touched = k < l ? k : l;
        r.tiled_rows = r.pairs;
        return r;
    }
    r.pairs = n * l;
    if (p->window)
        r.pairs = rl__window_pairs(n, l, (uint64_t)p->window, (uint64_t)p->sinks);
    else if (p->causal)
        r.pairs -= n * (n - 1) / 2;
    /* Keys some query sees: with a window, those from the first query's window start on and the
     * sinks below it (decode with W < L reads W keys, not L). */
    r.touched = l;
    if (p->window) {
        const uint64_t dd = l - n, w0 = dd + 1 > (uint64_t)p->window ? dd + 1 - (uint64_t)p->window : 0;
        r.touched = l - w0 + ((uint64_t)p->sinks < w0 ? (uint64_t)p->sinks : w0);
    }
    if (p->pass == RL_PASS_FWD) {
        uint64_t tiles = 0;
        if (p->window)
            rl__window_tiles(n, l, (uint64_t)p->block_m, (uint64_t)p->block_n, (uint64_t)p->window,
                             (uint64_t)p->sinks, &tiles, &r.tiled_rows);
        else
            r.tiled_rows = rl__tiled_kv_rows(n, l, (uint64_t)p->block_m, (uint64_t)p->block_n, p->causal);
    }
    return r;
}

/* Bytes moved to read `rows` rows of `row_bytes` each, one (sequence, KV head): contiguous, in
 * pages of P rows (the last partial), or row by row (top-k gathers). */
static double gathered(const rl_problem *p, double rows, double row_bytes, int per_row) {
    if (!(row_bytes > 0) || !(rows > 0)) return 0.0;
    if (per_row) return rows * rl__sector_bytes(row_bytes);
    if (!p->page_size) return rows * row_bytes;
    const double ps = (double)p->page_size, full = floor(rows / ps), rest = rows - full * ps;
    return full * rl__sector_bytes(ps * row_bytes) + rl__sector_bytes(rest * row_bytes);
}

rl_status rl_workload_compute(const rl_problem *problem, rl_workload *out, rl_error *err) {
    rl_problem p;
    rl_status s = rl_problem_resolve(problem, &p, err);
    if (s != RL_OK) return s;

    rl_workload w;
    memset(&w, 0, sizeof w);
    w.problem = p;
    const double B = (double)p.batch, H = (double)p.heads, Hkv = (double)p.kv_heads;
    const double N = (double)p.seq, d = (double)p.head_dim;
    const double dv = (double)p.head_dim_v;
    const double b = rl_dtype_bytes(p.dtype);
    const double bs = rl_dtype_bytes(p.score_dtype);
    double kt, vt; /* K and V bytes per token and KV head */
    rl__kv_token_bytes(&p, &kt, &vt);
    const uint64_t n = (uint64_t)p.seq;
    const int per_row = p.topk != 0; /* top-k gathers row by row, whatever the page size */
    const double ps = (double)p.page_size;

    /* The batch as groups of one length: --kv-lens's pairs, or B sequences of L keys. */
    w.seq_groups = p.kv_lens.n ? p.kv_lens.n : 1;
    double pairs = 0, touched = 0, tiled_rows = 0, keys = 0; /* Σ over sequences */
    double k_moved = 0, v_moved = 0, table = 0;                /* compulsory, per KV head */
    double max_pairs = 0;
    for (int g = 0; g < w.seq_groups; g++) {
        const int64_t lg = p.kv_lens.n ? p.kv_lens.pair[g].len : p.kv_len;
        const int64_t cg = p.kv_lens.n ? p.kv_lens.pair[g].count : p.batch;
        const seq_rows r = rows_of(&p, (uint64_t)lg);
        const double c = (double)cg, t = (double)r.touched;
        rl_seq_work *sw = &w.seqs[g];
        sw->kv_len = lg;
        sw->count = cg;
        sw->pairs = (double)r.pairs;
        const double km = gathered(&p, t, kt, per_row), vm = gathered(&p, t, vt, per_row);
        /* Contiguous: no table. Paged: 4 B (int32) per page. Top-k: the attention reads its
         * int32 index list, one entry per selected (query, row) — Σ min(K, q) per sequence —
         * whatever the page size: FlashMLA's sparse `indices` hold page·page_block_size +
         * offset, so no block table is read beside them (FlashMLA README, "Sparse Attention"). */
        const double tb = per_row ? 4.0 * (double)r.pairs : !p.page_size ? 0.0 : 4.0 * ceil(t / ps);
        sw->kv_bytes = Hkv * (km + vm);
        sw->page_table_bytes = tb;
        sw->kv_tiles = ceil(t / (double)p.block_n);
        sw->ctas = H * (double)((n + (uint64_t)p.block_m - 1) / (uint64_t)p.block_m);
        pairs += c * (double)r.pairs;
        touched += c * t;
        tiled_rows += c * (double)r.tiled_rows;
        keys += c * (double)lg;
        k_moved += c * km;
        v_moved += c * vm;
        table += c * tb;
        if ((double)r.pairs > max_pairs) max_pairs = (double)r.pairs;
    }
    /* Scored pairs per (batch, head): the mean over the batch (exact in 64-bit integers per
     * sequence, N, L ≤ 2^24), so F = 4·B·H·d·P holds for a ragged batch too. */
    w.pairs = pairs / B;
    w.tail_ratio = w.pairs > 0 ? max_pairs / w.pairs : 1.0;
    /* QKᵀ costs 2·d_qk and PV 2·d_v per pair; backward recomputes QKᵀ and forms dQ, dK (d_qk)
     * and dV, dP (d_v): 2·(3·d_qk + 2·d_v) — 2.5 × forward when d_v = d_qk. */
    const int same_d = p.head_dim_v == p.head_dim; /* the plain form, written as before */
    /* Written B × (per-sequence mean), as the uniform batch always was (exact there). */
    w.fwd_flops = same_d ? 4.0 * B * H * d * w.pairs : 2.0 * B * H * (d + dv) * w.pairs;
    w.flops = p.pass != RL_PASS_BWD ? w.fwd_flops
              : same_d              ? 2.5 * w.fwd_flops
                                    : 2.0 * B * H * (3.0 * d + 2.0 * dv) * w.pairs;
    w.softmax_flops = 5.0 * B * H * w.pairs;

    w.q_tensor_bytes = b * B * H * N * d;
    w.o_tensor_bytes = rl_dtype_bytes(p.out_dtype) * B * H * N * dv;
    w.k_tensor_bytes = kt * B * Hkv * (touched / B);
    w.v_tensor_bytes = vt * B * Hkv * (touched / B);
    w.score_matrix_bytes = bs * B * H * N * (keys / B);
    w.kv_token_bytes = kt + vt;

    rl_traffic *c = &w.traffic[RL_MODEL_COMPULSORY];
    c->available = 1;
    c->q_bytes = w.q_tensor_bytes;
    c->k_bytes = w.k_tensor_bytes;
    c->v_bytes = w.v_tensor_bytes;
    c->o_bytes = w.o_tensor_bytes;
    /* Paged or gathered: the sectors' waste and the page table (once per sequence), own terms. */
    c->gather_waste_bytes = Hkv * (k_moved + v_moved) - (w.k_tensor_bytes + w.v_tensor_bytes);
    c->page_table_bytes = table;
    if (p.pass == RL_PASS_BWD) /* dO read; dQ, dK, dV written — each once. */
        c->grad_bytes = w.o_tensor_bytes + w.q_tensor_bytes + w.k_tensor_bytes + w.v_tensor_bytes;
    c->bytes = c->q_bytes + c->k_bytes + c->v_bytes + c->o_bytes + c->grad_bytes +
               c->page_table_bytes + c->gather_waste_bytes;

    if (p.pass == RL_PASS_FWD) {
        rl_traffic *nv = &w.traffic[RL_MODEL_NAIVE];
        *nv = *c;
        nv->s_bytes = 2.0 * w.score_matrix_bytes; /* S written once, read once */
        nv->p_bytes = 2.0 * w.score_matrix_bytes; /* P written once, read once */
        nv->bytes = c->bytes + nv->s_bytes + nv->p_bytes;

        rl_traffic *t = &w.traffic[RL_MODEL_TILED];
        t->available = 1;
        const double rows = tiled_rows / B; /* per (batch, query head); mean over the batch */
        t->kv_rows_loaded_per_head = rows;
        t->kv_reload_factor = rows / (keys / B);
        t->query_blocks = (double)((n + (uint64_t)p.block_m - 1) / (uint64_t)p.block_m);
        t->q_bytes = w.q_tensor_bytes;
        t->o_bytes = w.o_tensor_bytes;
        /* Counted once per query head: no reuse across a GQA group, no credit for L2 hits. */
        t->k_bytes = kt * B * H * rows;
        t->v_bytes = vt * B * H * rows;
        /* Paged: each full page's sectors at the page's rate; top-k: each row its own gather;
         * the page indices (top-k: the index list) read with the rows they map (per query head
         * pass). */
        const double kr = per_row ? rl__sector_bytes(kt) / kt
                          : ps > 0 ? rl__sector_bytes(ps * kt) / (ps * kt) : 1.0;
        const double vr = !(vt > 0) ? 1.0
                          : per_row ? rl__sector_bytes(vt) / vt
                          : ps > 0  ? rl__sector_bytes(ps * vt) / (ps * vt)
                                    : 1.0;
        t->gather_waste_bytes = t->k_bytes * (kr - 1.0) + t->v_bytes * (vr - 1.0);
        /* top-k: the index list, per query head */
        t->page_table_bytes = per_row       ? 4.0 * H * tiled_rows
                              : !p.page_size ? 0.0
                                             : 4.0 * H * B * ceil(rows / ps);
        t->bytes = t->q_bytes + t->k_bytes + t->v_bytes + t->o_bytes + t->page_table_bytes +
                   t->gather_waste_bytes;
    }
    /* Backward: the FA2 backward dataflow is the tiled model; naive stays unavailable. */
    if (p.pass == RL_PASS_BWD) rl__bwd_tiled_traffic(&p, p.block_m, p.block_n, &w.traffic[RL_MODEL_TILED]);

    if (p.topk) {
        /* DeepSeek-V3.2's lightning indexer (DeepSeek-V3.2-Exp technical report, §2.1
         * "DeepSeek Sparse Attention", github.com/deepseek-ai/DeepSeek-V3.2-Exp; its config.json:
         * index_n_heads 64, index_head_dim 128, index_topk 2048): I_{t,s} = Σ_j w_{t,j}·ReLU(q_{t,j}·k_s) over H_I
         * index heads in fp8 for every key s query t sees, then the top K. The score is one fp8
         * matmul per head, 2·H_I·d_I FLOPs a pair (ReLU and the weighted sum, 3·H_I a pair, left
         * out like softmax); the keys' index cache is d_I fp8 plus an fp32 scale per 128 elements
         * (132 B/token, read once per sequence); queries H_I·d_I fp8 and H_I fp32 weights per row;
         * the fp32 logits written and read back by the top-k; K int32 indices written per row. */
        rl_indexer *ix = &w.indexer;
        const double hi = RL_INDEXER_HEADS, di = RL_INDEXER_HEAD_DIM;
        double vis = 0, sel = 0;
        for (int g = 0; g < w.seq_groups; g++) {
            const uint64_t lg = (uint64_t)w.seqs[g].kv_len;
            const double cnt = (double)w.seqs[g].count;
            vis += cnt * (double)(n * lg - (p.causal ? n * (n - 1) / 2 : 0));
            sel += cnt * (double)w.seqs[g].pairs;
            ix->k_bytes += cnt * (double)lg * (di + ceil(di / 128.0) * 4.0);
        }
        ix->pairs = vis;
        ix->flops = 2.0 * hi * di * vis;
        ix->q_bytes = B * N * (hi * di * 1.0 + hi * 4.0);
        ix->logit_bytes = 2.0 * 4.0 * vis;
        ix->index_bytes = 4.0 * sel;
        ix->bytes = ix->k_bytes + ix->q_bytes + ix->logit_bytes + ix->index_bytes;
    }
    if (out) *out = w;
    return RL_OK;
}

double rl_mla_intensity_limit(const rl_workload *w) {
    if (!w) return 0;
    const rl_problem *p = &w->problem;
    if (p->kv_lora_rank <= 0 || p->window > 0 || p->topk > 0 || !(w->kv_token_bytes > 0)) return 0;
    return 2.0 * (double)p->heads * (double)p->seq * (double)(p->head_dim + p->head_dim_v) / w->kv_token_bytes;
}
