/* predict.c — memory levels and the predicted time of a kernel profile, term by term (MODEL.md
 * "Memory levels" and "Kernel profiles and the predicted time"). Every term is in seconds and
 * they add up to the prediction: mma + tiles + exp + waves + memory + floor. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "profiles.h"

#define SMEM_BYTES_PER_CLOCK 128.0 /* shared-memory bandwidth per SM per clock (sm_70 … sm_90) */
#define ACC_BYTES 4.0              /* fp32 accumulators and partial results */
#define FP32_LANES_PER_SM_CLOCK 128.0 /* fp32 FMA/add results per SM per clock (sm_90, sm_100) */
/* FP32-pipe operations per score in an overlapped softmax (FA4's softmax.py, per element of a
 * row): the scale-and-subtract-max FMA (1), the row-sum add (1), the row max (fmax3, three
 * inputs: 1/2) and the conversion to bf16 (F2FP packs two: 1/2). */
#define SOFTMAX_FP32_OPS 3.0
/* One emulated exp2 (utils.ex2_emulation_2): split into integer and fraction (2), a cubic in
 * Horner form (3 FMAs), the integer added into the exponent field (1). */
#define EX2_POLY_OPS 6.0

/* How the kernel cuts the problem: units of rows (a (batch, head) or, packed, a (batch, KV
 * head) with the group's query rows stacked), query blocks, Bc tiles, CTAs. */
typedef struct shape {
    double units, rows, q_blocks, tiles_per_unit, kv_rows_per_unit, ctas, computed_pairs;
    double first_block_tiles; /* the shortest causal query block's tiles */
    double tail; /* a ragged batch: the longest CTA's tiles over the mean CTA's (1: uniform) */
} shape;

/* Whether packed GQA rows stay packed: non-causal, FlashMLA's (the mask only among its s_q new
 * rows), or a windowed decode (N <= 16: the G·N rows of a query block share the window of the
 * N positions, as FlashInfer and FA3's PackGQA run them). Causal prefill rows stay per head. */
static int packs(const rl_problem *p, const rl_profile *pf) {
    return pf->gqa_packed && (!p->causal || pf->pack_causal || (p->window && p->seq <= 16));
}

static shape kernel_shape(const rl_problem *p, const rl_profile *pf) {
    shape s;
    /* causal rows stay per head, except FlashMLA's (the mask only among the s_q new rows of a
     * decode: counted as full tiles) */
    const int pack = packs(p, pf);
    const int causal = p->causal && !pf->pack_causal;
    const double G = (double)(p->heads / p->kv_heads);
    /* FlashMLA's sparse decode (--topk): each query token has its own K selected keys, shared
     * by its h_q heads: a unit is one (sequence, query token), its G rows over min(K, L) keys */
    const int sparse = p->topk && pf->kernel == RL_KERNEL_FLASHMLA;
    const uint64_t rows = sparse ? (uint64_t)G : (uint64_t)p->seq * (uint64_t)(pack ? G : 1);
    const uint64_t br = (uint64_t)pf->block_m, bc = (uint64_t)pf->block_n;
    const uint64_t l = sparse && p->topk < p->kv_len ? (uint64_t)p->topk : (uint64_t)p->kv_len;
    s.units = (double)p->batch * (double)(pack ? p->kv_heads : p->heads) *
              (sparse ? (double)p->seq : 1.0);
    s.rows = (double)rows;
    s.q_blocks = (double)((rows + br - 1) / br);
    s.tiles_per_unit = (double)rl__tile_count(rows, l, br, bc, causal);
    s.kv_rows_per_unit = (double)rl__tiled_kv_rows(rows, l, br, bc, causal);
    const uint64_t first_end = rows < br ? rows : br;
    s.first_block_tiles = causal ? (double)((first_end + (l - rows) + bc - 1) / bc)
                                    : (double)((l + bc - 1) / bc);
    if (p->window) {
        /* A sliding window (flash-attention's local mask, hopper/block.h get_n_block_min_max:
         * n_block_min = max(0, (m_block·Br + L − N − window_size_left) / Bc), window_size_left
         * = W − 1): query block i loads the Bc tiles ⌊lo/Bc⌋ … ⌊P1/Bc⌋ of its window only
         * (rl__window_tiles). Packed rows (a decode's G·N rows; N <= 16) share the N query
         * positions: each query block covers all N of them. */
        const uint64_t n = (uint64_t)p->seq, w = (uint64_t)p->window, sk = (uint64_t)p->sinks;
        uint64_t t = 0, r = 0;
        if (rows != n) { /* packed: one block's keys are those of the N positions */
            rl__window_tiles(n, l, n, bc, w, sk, &t, &r);
            s.tiles_per_unit = s.q_blocks * (double)t;
            s.kv_rows_per_unit = s.q_blocks * (double)r;
            s.first_block_tiles = (double)t;
        } else {
            rl__window_tiles(n, l, br, bc, w, sk, &t, &r);
            s.tiles_per_unit = (double)t;
            s.kv_rows_per_unit = (double)r;
            rl__window_tiles(first_end, l - n + first_end, br, bc, w, sk, &t, &r);
            s.first_block_tiles = (double)t;
        }
    }
    s.ctas = s.units * s.q_blocks * (double)pf->splits;
    s.computed_pairs = s.units * s.tiles_per_unit * (double)br * (double)bc;
    s.tail = 1.0;
    if (p->kv_lens.n && !sparse) {
        /* A ragged batch: each length its own units, tiles and CTAs. A sequence of L_i keys runs
         * min(splits, ⌈L_i / chunk⌉) splits per query block where the kernel cuts fixed chunks
         * (FA2's split kernel: n_blocks_per_split of the longest; FlashInfer: its chunk), all
         * `splits` where it cuts each sequence evenly (FA3). The longest CTA (tiles / (query
         * blocks · splits) of its length) against the mean sets the tail. */
        const double per_seq = (double)(pack ? p->kv_heads : p->heads);
        double units = 0, tiles = 0, rows_kv = 0, ctas = 0, longest = 0;
        for (int g = 0; g < p->kv_lens.n; g++) {
            const uint64_t lg = (uint64_t)p->kv_lens.pair[g].len;
            const double ug = (double)p->kv_lens.pair[g].count * per_seq;
            double tg, rg;
            if (p->window) {
                uint64_t t = 0, r = 0;
                if (rows != (uint64_t)p->seq) {
                    rl__window_tiles((uint64_t)p->seq, lg, (uint64_t)p->seq, bc,
                                     (uint64_t)p->window, (uint64_t)p->sinks, &t, &r);
                    tg = s.q_blocks * (double)t;
                    rg = s.q_blocks * (double)r;
                } else {
                    rl__window_tiles(rows, lg, br, bc, (uint64_t)p->window, (uint64_t)p->sinks, &t, &r);
                    tg = (double)t;
                    rg = (double)r;
                }
            } else {
                tg = (double)rl__tile_count(rows, lg, br, bc, causal);
                rg = (double)rl__tiled_kv_rows(rows, lg, br, bc, causal);
            }
            double sg = (double)pf->splits;
            if (pf->chunk_keys > 0) {
                const double c = ceil((double)lg / (double)pf->chunk_keys);
                if (c < sg) sg = c;
            }
            units += ug;
            tiles += ug * tg;
            rows_kv += ug * rg;
            ctas += ug * s.q_blocks * sg;
            const double per_cta = tg / (s.q_blocks * sg);
            if (per_cta > longest) longest = per_cta;
        }
        s.units = units;
        s.tiles_per_unit = tiles / units;
        s.kv_rows_per_unit = rows_kv / units;
        s.ctas = ctas;
        s.computed_pairs = tiles * (double)br * (double)bc;
        s.tail = longest / (tiles / ctas);
    }
    return s;
}

/* ---------------------------------------------------------------------------------------------
 * Memory levels of a fused kernel: L2 carries every byte the SMs move; DRAM what misses.
 * ------------------------------------------------------------------------------------------- */

static void fused_levels(const rl_problem *p, const rl_hw *hw, const rl_profile *pf,
                         const shape *s, const rl_workload *w, rl_level_traffic *lv) {
    const double d = (double)p->head_dim, dv = (double)p->head_dim_v;
    const double G = (double)(p->heads / p->kv_heads);
    double kt, vt; /* K and V bytes per token (d·b each; MLA: the latent once, V inside it) */
    rl__kv_token_bytes(p, &kt, &vt);
    /* K and V of one KV head (a window: the keys some query sees, not all L) */
    const double kv_unit_bytes = p->window ? (w->k_tensor_bytes + w->v_tensor_bytes) /
                                                 ((double)p->batch * (double)p->kv_heads)
                                           : (double)p->kv_len * (kt + vt);
    double kv_l2, fixed_l2, fixed_dram, kv_dram;
    if (p->pass == RL_PASS_BWD) {
        rl_traffic t;
        rl__bwd_tiled_traffic(p, pf->block_m, pf->block_n, &t);
        kv_l2 = t.q_bytes + t.grad_bytes - 2.0 * t.k_bytes; /* Q, dO, dQ-acc re-reads */
        fixed_l2 = t.bytes - kv_l2;
        const double once = w->traffic[RL_MODEL_COMPULSORY].bytes;
        kv_dram = 2.0 * ACC_BYTES * (double)p->batch * (double)p->heads * (double)p->seq * d;
        fixed_dram = once;
        kv_l2 -= kv_dram; /* the accumulator's one write + read reaches DRAM anyway */
    } else {
        kv_l2 = s->units * s->kv_rows_per_unit * (kt + vt);
        const rl_traffic *tt = &w->traffic[RL_MODEL_TILED], *tc = &w->traffic[RL_MODEL_COMPULSORY];
        if (p->topk && pf->kernel == RL_KERNEL_FLASHMLA) /* each selected row gathered once per
                                                            (sequence, query token), its sectors */
            kv_l2 += tc->gather_waste_bytes * (double)p->seq + tc->page_table_bytes;
        else if (p->topk) /* gathers: the model's count */
            kv_l2 = tt->k_bytes + tt->v_bytes + tt->gather_waste_bytes + tt->page_table_bytes;
        else if (p->page_size) /* paged, streamed by the profile's tiles (a ragged batch: summed
                                  per length in kernel_shape): + the page table and the partial
                                  sectors, once (the compulsory model's count) */
            kv_l2 += tc->gather_waste_bytes + tc->page_table_bytes;
        fixed_l2 = w->q_tensor_bytes + w->o_tensor_bytes;
        if (pf->splits > 1) /* partial O and log-sum-exp per split, written and read back */
            fixed_l2 += 2.0 * (double)pf->splits * (double)p->batch * (double)p->heads *
                        (double)p->seq * (dv + 1.0) * ACC_BYTES;
        kv_dram = w->k_tensor_bytes + w->v_tensor_bytes + tc->gather_waste_bytes + tc->page_table_bytes;
        fixed_dram = fixed_l2;
    }
    /* The reuse rule, by reuse distance. The CTAs that read the same K/V tile (the query
     * blocks of a unit, and per head the G query heads of a group; the backward: the key blocks
     * of a head re-reading Q and dO) stand `spread` CTAs apart in launch order. Those that are
     * in flight together stream the same tiles within a few tiles of each other: their re-reads
     * hit L2. The rest come a wave or more later, after every CTA in flight has streamed its
     * K/V: they hit only as far as the K/V of the heads in flight fits in L2. */
    const double slots = (double)hw->sm_count * (double)pf->ctas_per_sm;
    const double in_flight = s->ctas < slots ? s->ctas : slots;
    const double group = packs(p, pf) ? 1.0 : G;
    const double qb = s->q_blocks, sp = (double)pf->splits;
    double spread;
    if (p->pass == RL_PASS_BWD)
        spread = ceil((double)p->kv_len / (double)pf->block_n) * group;
    else if (group <= 1.0)
        spread = qb;
    else if (pf->head_major)
        spread = qb * sp * (group - 1.0) + qb;
    else
        spread = qb * sp * (double)p->batch * (group - 1.0) + qb;
    const double together = spread <= in_flight ? 1.0 : in_flight / spread;
    /* units in flight: CTAs in flight over the CTAs of one unit (forward: its query blocks and
     * splits; backward: its key blocks), at least one, fractional so that the rule has no step */
    const double per_unit = p->pass == RL_PASS_BWD ? ceil((double)p->kv_len / (double)pf->block_n)
                                                   : s->q_blocks * (double)pf->splits;
    double units_in_flight = in_flight / per_unit;
    if (units_in_flight < 1.0) units_in_flight = 1.0;
    if (units_in_flight > s->units) units_in_flight = s->units;
    double kv_heads_in_flight = packs(p, pf) ? units_in_flight : units_in_flight / G;
    if (kv_heads_in_flight < 1.0) kv_heads_in_flight = 1.0;
    lv->kv_working_set_bytes = kv_heads_in_flight * kv_unit_bytes;
    const double later_hit = lv->kv_working_set_bytes <= hw->l2_bytes
                                 ? 1.0
                                 : hw->l2_bytes / lv->kv_working_set_bytes;
    lv->kv_hit_fraction = together + (1.0 - together) * later_hit;
    const double rereads = kv_l2 > kv_dram ? kv_l2 - kv_dram : 0.0;
    lv->bytes[RL_LEVEL_L2] = fixed_l2 + kv_l2;
    lv->bytes[RL_LEVEL_DRAM] = fixed_dram + kv_dram + (1.0 - lv->kv_hit_fraction) * rereads;
}

void rl__model_levels(const rl_workload *w, const rl_hw *hw, rl_model m, rl_level_traffic *out) {
    memset(out, 0, sizeof *out);
    out->kv_hit_fraction = 1.0;
    const rl_traffic *t = &w->traffic[m];
    if (m != RL_MODEL_TILED) {
        out->bytes[RL_LEVEL_DRAM] = out->bytes[RL_LEVEL_L2] = t->bytes;
        return;
    }
    rl_profile pf;
    const rl_kernel_spec generic = {RL_KERNEL_GENERIC, 0, 0, 0, RL_PACK_PER_HEAD, 1, RL_CORES_DEFAULT};
    if (rl__profile_resolve(&w->problem, hw, &generic, &pf, NULL) != RL_OK) {
        pf.ctas_per_sm = 1; /* a tile over the opt-in budget: one CTA per SM at most */
        pf.splits = 1;
    }
    const shape s = kernel_shape(&w->problem, &pf);
    fused_levels(&w->problem, hw, &pf, &s, w, out);
    out->bytes[RL_LEVEL_L2] = t->bytes; /* the traffic model as counted */
}

/* ---------------------------------------------------------------------------------------------
 * Rates
 * ------------------------------------------------------------------------------------------- */

static rl_status need_hw(const rl_hw *hw, int ok, const char *what, rl_error *err) {
    if (ok) return RL_OK;
    return rl__fail(err, RL_ERR_UNSUPPORTED, "hw",
                    "preset %s has no %s figure; a prediction needs it (see rooflab hw %s)",
                    hw->id, what, hw->id);
}

static double mma_rate(const rl_problem *p, const rl_hw *hw, rl_roof roof, const rl_profile *pf) {
    if (pf->cuda_core && hw->peak_flops_per_s[RL_PEAK_FP32] > 0) /* fp32 FMAs: 2 FLOP each */
        return hw->peak_flops_per_s[RL_PEAK_FP32];
    double r = roof.peak_flops_per_s *
               (p->pass == RL_PASS_BWD ? pf->bwd_mma_fraction : pf->mma_fraction);
    if (pf->smem_roof && p->pass == RL_PASS_FWD) {
        /* mma.sync: every warp reads the whole K and V tile from shared memory for its
         * Br/warps query rows: Br/warps FLOP per shared-memory byte. */
        const double rows = pf->warps_along_keys ? (double)pf->block_m
                                                 : (double)pf->block_m / pf->warps;
        const double smem = rows * SMEM_BYTES_PER_CLOCK *
                            hw->sm_count * hw->sm_clock_hz;
        if (smem < r) r = smem;
    }
    return r;
}

/* ---------------------------------------------------------------------------------------------
 * The ledger
 * ------------------------------------------------------------------------------------------- */

/* Occupancy as one curve. One CTA of fewer than 8 warps alone on an SM reaches a fraction f1
 * of the MMA and exp throughput the profile's c resident CTAs reach (fitted, profiles.c); k CTAs
 * reach min(1, k·f1). The busiest SM of n CTAs on m SMs holds j = ⌈n/m⌉ of them and takes
 * j / min(1, j·f1) = max(j, 1/f1) CTA-times while n ≤ m·c (1/f1 at most c), and c·⌈n/(m·c)⌉
 * once the CTAs run in rounds. The factor is that over the ideal n/m: continuous where n crosses
 * m (107 → 108 CTAs on 108 SMs predict the same time) and never decreasing as n grows. `full`
 * gives the factor with every SM busy (1 below one round): the waves term; the rest is
 * occupancy. */
static double wave_factor(const rl_problem *p, const rl_hw *hw, const rl_profile *pf,
                          const shape *s, int full) {
    const double m = (double)hw->sm_count, c = (double)pf->ctas_per_sm, n = s->ctas;
    const double slots = m * c;
    if (n < slots) {
        if (full) return 1.0;
        double k_fill = pf->warps >= 8 ? 1.0 : 1.0 / pf->cta_sm_share;
        if (k_fill > c) k_fill = c;
        double per_sm = ceil(n / m);
        if (per_sm < k_fill) per_sm = k_fill;
        /* ragged: the SM with the longest CTA ends last (its CTAs taken as long as it) */
        return per_sm * m / n * s->tail;
    }
    if (pf->balanced) return 1.0; /* the blocks dealt evenly over the resident CTAs */
    /* ragged: the longest CTA at 1/c of its SM: c·m·tail/n of the ideal time at least */
    const double longest = c * m * s->tail / n;
    if (longest > 1.0 && !full) return longest > ceil(n / slots) / (n / slots) ? longest : ceil(n / slots) / (n / slots);
    const double w = n / slots, whole = ceil(w);
    if (p->causal && pf->persistent) {
        /* longest tiles first: the partial last wave holds the shortest tiles */
        const double avg = s->tiles_per_unit / s->q_blocks;
        return 1.0 + (whole - w) / w * (s->first_block_tiles / avg);
    }
    return whole / w;
}

static double overlap(double compute, double memory, double pe) {
    if (compute <= 0) return memory;
    if (memory <= 0) return compute;
    return pow(pow(compute, pe) + pow(memory, pe), 1.0 / pe);
}

/* The handoffs' latency of a Blackwell loop (profile chain_clocks per iteration of chain_scores
 * scores), the iterations spread over the SMs' resident CTAs. */
static double chain_latency_s(const rl_hw *hw, const rl_profile *pf, const shape *s) {
    const double iterations = s->computed_pairs / pf->chain_scores /
                              ((double)hw->sm_count * (double)pf->ctas_per_sm);
    return iterations * pf->chain_clocks / hw->sm_clock_hz;
}

static void fused_ledger(const rl_problem *p, const rl_hw *hw, rl_roof roof, const rl_profile *pf,
                         const rl_workload *w, rl_prediction *r) {
    const shape s = kernel_shape(p, pf);
    const double useful_pairs = (double)p->batch * (double)p->heads * w->pairs;
    const double flop_per_pair = w->flops / useful_pairs;
    const double rate = mma_rate(p, hw, roof, pf);
    r->computed_pairs = s.computed_pairs;
    r->exps = s.computed_pairs;
    r->ctas = s.ctas;
    r->waves = s.ctas / ((double)hw->sm_count * (double)pf->ctas_per_sm);
    r->mma_flops_per_s = rate;
    r->terms_s[RL_TERM_MMA] = w->flops / rate;
    r->terms_s[RL_TERM_TILES] = (s.computed_pairs - useful_pairs) * flop_per_pair / rate;
    r->terms_s[RL_TERM_EXP] = pf->exp_serialised ? s.computed_pairs / hw->exp_per_s : 0.0;
    if (pf->exp_serialised && pf->softmax_fp32_ops > 0) /* the elementwise work beside the exp */
        r->terms_s[RL_TERM_EXP] += s.computed_pairs * pf->softmax_fp32_ops /
                                   (FP32_LANES_PER_SM_CLOCK * hw->sm_count * hw->sm_clock_hz);
    if (pf->exp_serialised && pf->chain_clocks > 0) /* a loop whose handoffs all show */
        r->terms_s[RL_TERM_EXP] += chain_latency_s(hw, pf, &s);
    if (pf->rescale_serialised && hw->peak_flops_per_s[RL_PEAK_FP32] > 0) /* 2 FLOP per FMA */
        r->terms_s[RL_TERM_EXP] += 2.0 * s.computed_pairs / (double)pf->block_n * (double)p->head_dim /
                                   hw->peak_flops_per_s[RL_PEAK_FP32];
    if (pf->softmax_overlap) {
        /* The softmax beside the MMA (FA4's two Q tiles, FlashMLA's seesaw): only its excess over
         * the MMA shows. Its time per computed score: the exps left on MUFU.EX2 at the preset's
         * exp rate plus, on the FP32 pipes (128 lanes per SM per clock, sm_90/sm_100: CUDA C++
         * Programming Guide, arithmetic instruction throughput), SOFTMAX_FP32_OPS per score and
         * EX2_POLY_OPS per emulated exp2. The same softmax warps issue both: they add. */
        const double e = pf->ex2_emulated;
        const double lanes = FP32_LANES_PER_SM_CLOCK * hw->sm_count * hw->sm_clock_hz;
        const double softmax = s.computed_pairs * ((1.0 - e) / hw->exp_per_s +
                                                   (SOFTMAX_FP32_OPS + e * EX2_POLY_OPS) / lanes);
        const double mma = r->terms_s[RL_TERM_MMA] + r->terms_s[RL_TERM_TILES];
        double busy = softmax > mma ? softmax : mma;
        if (pf->chain_clocks > 0) {
            /* Blackwell: per KV iteration (two Q tiles) one tile's MMA and softmax run in a chain,
             * plus the handoffs' latency */
            const double chain = (mma + softmax) / 2.0 + chain_latency_s(hw, pf, &s);
            if (chain > busy) busy = chain;
        }
        r->terms_s[RL_TERM_EXP] = busy - mma;
    }
    const double base = r->terms_s[RL_TERM_MMA] + r->terms_s[RL_TERM_TILES] + r->terms_s[RL_TERM_EXP];
    const double c_full = base * wave_factor(p, hw, pf, &s, 1);
    const double c_occ = base * wave_factor(p, hw, pf, &s, 0);
    r->terms_s[RL_TERM_WAVES] = c_full - base;
    fused_levels(p, hw, pf, &s, w, &r->levels);
    /* DRAM: all SMs busy, the profile's fraction of β; with few CTAs, the busiest SM's bytes
     * (⌈n/m⌉ CTAs' share) at one SM's bandwidth, κ · β / SMs. */
    const double beta = roof.bandwidth_bytes_per_s * pf->dram_fraction;
    const double dram = r->levels.bytes[RL_LEVEL_DRAM];
    const double m_full = dram / beta;
    const double sm_bw = pf->sm_bandwidth_share * roof.bandwidth_bytes_per_s / hw->sm_count;
    const double per_sm = ceil(s.ctas / hw->sm_count) * (dram / s.ctas) * s.tail / sm_bw;
    const double m_occ = per_sm > m_full ? per_sm : m_full;
    r->sm_bandwidth_bytes_per_s = sm_bw;
    r->level_time_s[RL_LEVEL_DRAM] = m_occ;
    r->level_time_s[RL_LEVEL_L2] = r->levels.bytes[RL_LEVEL_L2] / hw->l2_bandwidth_bytes_per_s;
    /* DRAM overlaps compute partially (the fitted exponent); L2 streams behind the MMA
     * (TMA / cp.async pipelines) and only shows when it alone is longer than the rest. */
    const double l2 = r->level_time_s[RL_LEVEL_L2];
    double t_full = overlap(c_full, m_full, pf->overlap_p);
    if (l2 > t_full) t_full = l2;
    double t = overlap(c_occ, m_occ, pf->overlap_p);
    if (l2 > t) t = l2;
    if (t < t_full) t = t_full;
    r->terms_s[RL_TERM_MEMORY] = t_full - c_full;
    r->terms_s[RL_TERM_OCCUPANCY] = t - t_full;
    r->compute_s = c_full;
    r->memory_s = m_full > l2 ? m_full : l2;
}

/* S and P through DRAM as PyTorch eager runs them, each phase its own overlap of its GEMM or
 * elementwise work with its DRAM traffic. Forward: GEMM (Q, K → S), softmax (S → P; a mask pass
 * more when causal), GEMM (P, V → O). Backward (P kept from the forward): dV = Pᵀ·dO (reads P,
 * dO), dP = dO·Vᵀ (writes dP), the softmax backward (reads P and dP, writes dS; the mask's
 * backward a pass more when causal), dQ = dS·K and dK = dSᵀ·Q (each reads dS). */
static void materialised_ledger(const rl_problem *p, const rl_hw *hw, rl_roof roof,
                                const rl_profile *pf, const rl_workload *w, rl_prediction *r) {
    const double BH = (double)p->batch * (double)p->heads, N = (double)p->seq;
    const double L = (double)p->kv_len, d = (double)p->head_dim;
    const double full_pairs = BH * N * L, S = w->score_matrix_bytes;
    const double useful_pairs = BH * w->pairs;
    const double beta = roof.bandwidth_bytes_per_s * pf->dram_fraction;
    const double gemm_s = 2.0 * full_pairs * d / roof.peak_flops_per_s; /* each GEMM */
    const double mask = p->causal ? 2.0 * S : 0.0;
    const double q = w->q_tensor_bytes, k = w->k_tensor_bytes, v = w->v_tensor_bytes;
    const double o = w->o_tensor_bytes, pe = pf->overlap_p;
    double total, gemms, elementwise, dram;
    if (p->pass == RL_PASS_BWD) {
        const double fp32 = hw->peak_flops_per_s[RL_PEAK_FP32] > 0 ? hw->peak_flops_per_s[RL_PEAK_FP32]
                                                                    : roof.peak_flops_per_s;
        elementwise = 4.0 * full_pairs / fp32; /* dS = P ⊙ (dP − rowsum(dP ⊙ P)) */
        gemms = 4.0;
        const double m_dv = (S + o + v) / beta, m_dp = (o + v + S) / beta;
        const double m_soft = (3.0 * S + mask) / beta;
        const double m_dq = (S + k + q) / beta, m_dk = (S + q + k) / beta;
        total = overlap(gemm_s, m_dv, pe) + overlap(gemm_s, m_dp, pe) +
                overlap(elementwise, m_soft, pe) + overlap(gemm_s, m_dq, pe) +
                overlap(gemm_s, m_dk, pe);
        dram = 8.0 * S + mask + 2.0 * (q + k + v + o);
        r->exps = 0;
        r->mma_flops_per_s = roof.peak_flops_per_s;
        r->terms_s[RL_TERM_MMA] = 4.0 * 2.0 * useful_pairs * d / roof.peak_flops_per_s;
    } else {
        elementwise = full_pairs / hw->exp_per_s;
        gemms = 2.0;
        const double mem1 = (q + k + S) / beta;
        const double mem2 = (2.0 * S + mask) / beta;
        const double mem3 = (S + v + o) / beta;
        total = overlap(gemm_s, mem1, pe) + overlap(elementwise, mem2, pe) +
                overlap(gemm_s, mem3, pe);
        dram = w->traffic[RL_MODEL_NAIVE].bytes + mask;
        r->exps = full_pairs;
        r->mma_flops_per_s = roof.peak_flops_per_s;
        r->terms_s[RL_TERM_MMA] = w->flops / roof.peak_flops_per_s;
    }
    r->computed_pairs = full_pairs;
    r->ctas = 0;
    r->terms_s[RL_TERM_TILES] = gemms * gemm_s - r->terms_s[RL_TERM_MMA]; /* causal: masked half */
    r->terms_s[RL_TERM_EXP] = elementwise;
    r->terms_s[RL_TERM_MEMORY] = total - gemms * gemm_s - elementwise;
    r->levels.bytes[RL_LEVEL_DRAM] = dram;
    r->levels.bytes[RL_LEVEL_L2] = dram;
    r->levels.kv_hit_fraction = 0;
    r->level_time_s[RL_LEVEL_DRAM] = dram / beta;
    r->level_time_s[RL_LEVEL_L2] = dram / hw->l2_bandwidth_bytes_per_s;
    r->compute_s = gemms * gemm_s + elementwise;
    r->memory_s = r->level_time_s[RL_LEVEL_DRAM];
}

static void finish(const rl_workload *w, const rl_hw *hw, const rl_profile *pf, rl_prediction *r) {
    r->kernels = pf->kernels;
    r->terms_s[RL_TERM_FLOOR] = (double)pf->kernels * pf->kernel_fixed_s;
    if (pf->cta_fixed_s > 0 && r->ctas > 0) { /* per round of CTAs, one or more */
        double rounds = r->ctas / ((double)hw->sm_count * (double)pf->ctas_per_sm);
        if (rounds < 1) rounds = 1;
        r->terms_s[RL_TERM_FLOOR] += rounds * pf->cta_fixed_s;
    }
    r->time_s = 0;
    for (int t = 0; t < RL_TERM_COUNT; t++) r->time_s += r->terms_s[t];
    r->flops_per_s = w->flops / r->time_s;
    /* the verdict: the largest of compute, memory (every SM busy), occupancy, fixed costs */
    const double occ = r->terms_s[RL_TERM_OCCUPANCY], fixed = r->terms_s[RL_TERM_FLOOR];
    const double side = r->compute_s > r->memory_s ? r->compute_s : r->memory_s;
    if (fixed >= side && fixed >= occ)
        r->limit = RL_LIMIT_LATENCY;
    else if (occ > side)
        r->limit = RL_LIMIT_OCCUPANCY;
    else
        r->limit = r->memory_s > r->compute_s ? RL_LIMIT_MEMORY : RL_LIMIT_COMPUTE;
    r->bound = r->limit == RL_LIMIT_COMPUTE ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
}

rl_status rl_predict(const rl_problem *problem, const rl_hw *hw, rl_roof roof,
                     const rl_kernel_spec *spec, rl_prediction *out, rl_error *err) {
    rl_workload w;
    rl_problem prob = *problem;
    /* FA3's fp8 forward writes O in bf16 by itself (hopper/flash_api.cpp: out_type BFloat16 for
     * Float8_e4m3fn input) unless the caller says otherwise */
    if (spec && spec->kernel == RL_KERNEL_FA3 && prob.dtype == RL_DTYPE_FP8 &&
        prob.out_dtype == RL_DTYPE_DEFAULT && prob.pass != RL_PASS_BWD)
        prob.out_dtype = RL_DTYPE_BF16;
    problem = &prob;
    rl_status st = rl_roof_check(roof, err);
    if (st == RL_OK) st = rl_workload_compute(problem, &w, err);
    if (st == RL_OK) st = rl__variant_unmodelled(&w.problem, spec ? (int)spec->kernel : 0, err);
    if (st != RL_OK) return st;
    if (!hw) return rl__fail(err, RL_ERR_UNSUPPORTED, "hw", "a prediction needs a preset");
    if ((st = need_hw(hw, hw->sm_count > 0 && hw->l2_bytes > 0, "SM count or L2 size", err)) ||
        (st = need_hw(hw, hw->l2_bandwidth_bytes_per_s > 0, "L2 bandwidth", err)) ||
        (st = need_hw(hw, hw->exp_per_s > 0 && hw->sm_clock_hz > 0, "exp rate or SM clock", err)))
        return st;
    rl_profile pf;
    const rl_kernel_spec none = {0};
    if ((st = rl__profile_resolve(&w.problem, hw, spec ? spec : &none, &pf, err)) != RL_OK) return st;
    if (pf.fill_bytes > 0 && pf.fill_share > 0) /* per work tile, at fill_share · β / SMs */
        pf.cta_fixed_s += pf.fill_bytes * (double)hw->sm_count /
                          (pf.fill_share * roof.bandwidth_bytes_per_s);
    rl_prediction r;
    memset(&r, 0, sizeof r);
    r.kernel = pf.kernel;
    r.block_m = pf.block_m;
    r.block_n = pf.block_n;
    r.ctas_per_sm = pf.ctas_per_sm;
    r.splits = pf.splits;
    r.gqa_packed = pf.gqa_packed;
    r.persistent = pf.persistent;
    r.exp_serialised = pf.exp_serialised;
    r.tile_fitted = pf.tile_fitted;
    r.exp_per_s = hw->exp_per_s;
    r.overlap_exponent = pf.overlap_p;
    if (pf.materialised)
        materialised_ledger(&w.problem, hw, roof, &pf, &w, &r);
    else
        fused_ledger(&w.problem, hw, roof, &pf, &w, &r);
    finish(&w, hw, &pf, &r);
    double lo = 0, hi = 0;
    r.interval_band = pf.kernel == RL_KERNEL_GENERIC && w.problem.seq <= 16 &&
                              w.problem.pass == RL_PASS_FWD
                          ? "default"
                          : rl_kernel_name(pf.kernel);
    r.interval_points = rl_prediction_interval(r.interval_band, &lo, &hi);
    if (r.interval_points >= RL_INTERVAL_MIN_POINTS) {
        r.interval_s[0] = r.time_s * lo;
        r.interval_s[1] = r.time_s * hi;
        r.interval_flops_per_s[0] = w.flops / r.interval_s[1];
        r.interval_flops_per_s[1] = w.flops / r.interval_s[0];
    }
    if (out) *out = r;
    rl__ok(err);
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Tile search (generic profile)
 * ------------------------------------------------------------------------------------------- */

static void insert_sorted(rl_tile_candidate *out, size_t *n, size_t cap, const rl_tile_candidate *c) {
    size_t i = *n < cap ? *n : cap;
    while (i > 0 && (out[i - 1].prediction.time_s > c->prediction.time_s ||
                     (out[i - 1].prediction.time_s == c->prediction.time_s &&
                      out[i - 1].sram_bytes > c->sram_bytes))) {
        if (i < cap) out[i] = out[i - 1];
        i--;
    }
    if (i < cap) out[i] = *c;
    if (*n < cap) (*n)++;
}

size_t rl_tune(const rl_problem *problem, const rl_hw *hw, rl_roof roof, rl_tile_candidate *out,
               size_t cap) {
    static const int64_t sizes[] = {16, 32, 64, 128, 256};
    static const int64_t splits[] = {1, 2, 4, 8, 16, 32, 64, 128};
    rl_problem p;
    if (!hw || rl_problem_resolve(problem, &p, NULL) != RL_OK) return 0;
    const size_t n_splits = p.seq <= 16 && p.pass == RL_PASS_FWD ? sizeof splits / sizeof splits[0] : 1;
    size_t kept = 0, feasible = 0;
    for (size_t i = 0; i < 5; i++) {
        for (size_t j = 0; j < 5; j++) {
            for (size_t k = 0; k < n_splits; k++) {
                rl_tile_candidate c;
                memset(&c, 0, sizeof c);
                rl_kernel_spec spec = {RL_KERNEL_GENERIC, sizes[i], sizes[j], 0, RL_PACK_DEFAULT,
                                       splits[k], RL_CORES_DEFAULT};
                c.block_m = sizes[i];
                c.block_n = sizes[j];
                c.splits = splits[k];
                rl_problem tile = p;
                tile.block_m = sizes[i];
                tile.block_n = sizes[j];
                c.sram_bytes = rl_sram_budget(&tile, hw).total_bytes;
                if (rl_predict(&p, hw, roof, &spec, &c.prediction, NULL) != RL_OK) continue;
                c.fits = 1;
                c.ctas_per_sm = c.prediction.ctas_per_sm;
                feasible++;
                insert_sorted(out, &kept, cap, &c);
            }
        }
    }
    for (size_t i = 0; i < kept; i++) {
        out[i].loses_on = -1;
        double gap = 0;
        for (int t = 0; i > 0 && t < RL_TERM_COUNT; t++) {
            const double d = out[i].prediction.terms_s[t] - out[0].prediction.terms_s[t];
            if (d > gap) {
                gap = d;
                out[i].loses_on = t;
            }
        }
    }
    return feasible;
}
