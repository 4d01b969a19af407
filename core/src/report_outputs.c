/* report_outputs.c — every value of a report and its prediction described once (rooflab.h
 * "Report outputs"): name (a dotted JSON path), unit, kind, when it has a value, and how it is
 * read. The CLI's --json, the binding's report slots and the page's test ids iterate this table. */
#include <math.h>
#include <string.h>

#include "internal.h"

/* When an entry has a value (rl_output_value.state / depth otherwise). */
enum {
    C_ALWAYS = 0,
    C_ROOFS,    /* "roofs": left out unless the preset has L2 or exp figures */
    C_MODEL,    /* "models.M": null when the model is not available (naive backward) */
    C_LEVELS,   /* "models.M.levels": left out without memory-level figures (C_MODEL first) */
    C_PRED,     /* "predicted": null when the profile cannot predict */
    C_INTERVAL, /* "predicted.interval_*": null under too few held-out points (C_PRED first) */
    C_BWD,      /* "unmodelled": only for the backward pass */
    C_TOPK,     /* "indexer": only with --topk (DeepSeek-V3.2's lightning indexer) */
    C_MLA,      /* absorbed MLA's intensity limit: only where rl_mla_intensity_limit has one */
    C_COUNT
};

#define N RL_OUT_NUMBER
#define I RL_OUT_INT
#define B RL_OUT_BOOL
#define NM RL_OUT_NAME
#define TX RL_OUT_TEXT
#define D_B RL_DIM_BYTES
#define D_BS RL_DIM_BYTES_PER_S
#define D_F RL_DIM_FLOP
#define D_FS RL_DIM_FLOPS_PER_S
#define D_S RL_DIM_SECONDS
#define D_I RL_DIM_FLOP_PER_BYTE
#define D_0 RL_DIM_NONE

/* One traffic model's entries: X(ID, name, unit, kind, cond, model, number, text) over t
 * (rl_traffic), pt (rl_point), lv (rl_level_traffic) and lp (its points per level). */
#define RL_OUT_LEVEL(X, M, MN, L, LN)                                                              \
    X(M##_##L##_BYTES, "models." MN ".levels." LN ".bytes", D_B, N, C_LEVELS, M, lp[L].bytes, NULL) \
    X(M##_##L##_INT, "models." MN ".levels." LN ".intensity_flop_per_byte", D_I, N, C_LEVELS, M,    \
      lp[L].intensity_flop_per_byte, NULL)                                                         \
    X(M##_##L##_BW, "models." MN ".levels." LN ".bandwidth_bytes_per_s", D_BS, N, C_LEVELS, M,      \
      L == RL_LEVEL_L2 ? r->l2_bandwidth_bytes_per_s : r->roof.bandwidth_bytes_per_s, NULL)        \
    X(M##_##L##_ATT, "models." MN ".levels." LN ".attainable_flops_per_s", D_FS, N, C_LEVELS, M,    \
      lp[L].attainable_flops_per_s, NULL)                                                          \
    X(M##_##L##_TIME, "models." MN ".levels." LN ".time_s", D_S, N, C_LEVELS, M, lp[L].memory_time_s, NULL)

#define RL_OUT_MODEL(X, M, MN)                                                                     \
    X(M##_BYTES, "models." MN ".bytes", D_B, N, C_MODEL, M, t->bytes, NULL)                        \
    X(M##_INTENSITY, "models." MN ".intensity_flop_per_byte", D_I, N, C_MODEL, M,                   \
      pt->intensity_flop_per_byte, NULL)                                                           \
    X(M##_ATT, "models." MN ".attainable_flops_per_s", D_FS, N, C_MODEL, M, pt->attainable_flops_per_s, NULL) \
    X(M##_TIME, "models." MN ".time_s", D_S, N, C_MODEL, M, pt->time_s, NULL)                      \
    X(M##_CTIME, "models." MN ".compute_time_s", D_S, N, C_MODEL, M, pt->compute_time_s, NULL)     \
    X(M##_MTIME, "models." MN ".memory_time_s", D_S, N, C_MODEL, M, pt->memory_time_s, NULL)       \
    X(M##_BOUND, "models." MN ".bound", D_0, NM, C_MODEL, M, pt->bound, rl_bound_name(pt->bound))  \
    X(M##_Q, "models." MN ".terms_bytes.q", D_B, N, C_MODEL, M, t->q_bytes, NULL)                  \
    X(M##_K, "models." MN ".terms_bytes.k", D_B, N, C_MODEL, M, t->k_bytes, NULL)                  \
    X(M##_V, "models." MN ".terms_bytes.v", D_B, N, C_MODEL, M, t->v_bytes, NULL)                  \
    X(M##_O, "models." MN ".terms_bytes.o", D_B, N, C_MODEL, M, t->o_bytes, NULL)                  \
    X(M##_S, "models." MN ".terms_bytes.s", D_B, N, C_MODEL, M, t->s_bytes, NULL)                  \
    X(M##_P, "models." MN ".terms_bytes.p", D_B, N, C_MODEL, M, t->p_bytes, NULL)                  \
    X(M##_GRAD, "models." MN ".terms_bytes.grad", D_B, N, C_MODEL, M, t->grad_bytes, NULL)         \
    X(M##_PT, "models." MN ".terms_bytes.page_table", D_B, N, C_MODEL, M, t->page_table_bytes, NULL) \
    X(M##_GW, "models." MN ".terms_bytes.gather_waste", D_B, N, C_MODEL, M, t->gather_waste_bytes, NULL) \
    RL_OUT_MODEL_EXTRA_##M(X)                                                                      \
    RL_OUT_LEVEL(X, M, MN, RL_LEVEL_DRAM, "dram")                                                  \
    RL_OUT_LEVEL(X, M, MN, RL_LEVEL_L2, "l2")                                                      \
    X(M##_HIT, "models." MN ".levels.kv_hit_fraction", D_0, N, C_LEVELS, M, lv->kv_hit_fraction, NULL) \
    X(M##_WS, "models." MN ".levels.kv_working_set_bytes", D_B, N, C_LEVELS, M,                     \
      lv->kv_working_set_bytes, NULL)

#define RL_OUT_MODEL_EXTRA_RL_MODEL_COMPULSORY(X)
#define RL_OUT_MODEL_EXTRA_RL_MODEL_NAIVE(X)
#define RL_OUT_MODEL_EXTRA_RL_MODEL_TILED(X)                                                       \
    X(TILED_RELOAD, "models.tiled.kv_reload_factor", D_0, N, C_MODEL, RL_MODEL_TILED, t->kv_reload_factor, NULL) \
    X(TILED_QBLOCKS, "models.tiled.query_blocks", D_0, I, C_MODEL, RL_MODEL_TILED, t->query_blocks, NULL) \
    X(TILED_KVROWS, "models.tiled.kv_rows_loaded_per_head", D_0, I, C_MODEL, RL_MODEL_TILED,        \
      t->kv_rows_loaded_per_head, NULL)

#define RL_OUT_PLEVEL(X, L, LN)                                                                    \
    X(P_##L##_BYTES, "predicted.levels." LN ".bytes", D_B, N, C_PRED, 0, pr->levels.bytes[L], NULL) \
    X(P_##L##_TIME, "predicted.levels." LN ".time_s", D_S, N, C_PRED, 0, pr->level_time_s[L], NULL) \
    X(P_##L##_INT, "predicted.levels." LN ".intensity_flop_per_byte", D_I, N, C_PRED, 0,            \
      r->work.flops / pr->levels.bytes[L], NULL)

#define RL_OUT_TERM(X, T, TN)                                                                      \
    X(P_TERM_##T, "predicted.terms." TN, D_S, N, C_PRED, 0, pr->terms_s[T], NULL)

/* The whole table, in the order the JSON writes it (siblings together). */
#define RL_OUTPUTS(X)                                                                              \
    X(HW, "hw", D_0, TX, C_ALWAYS, 0, 0, hw ? hw->id : "")                                         \
    X(FLOPS, "flops", D_F, N, C_ALWAYS, 0, r->work.flops, NULL)                                    \
    X(FWD_FLOPS, "fwd_flops", D_F, N, C_ALWAYS, 0, r->work.fwd_flops, NULL)                        \
    X(SOFTMAX, "softmax_flops", D_F, N, C_ALWAYS, 0, r->work.softmax_flops, NULL)                  \
    X(PAIRS, "pairs", D_0, N, C_ALWAYS, 0, r->work.pairs, NULL)                                    \
    X(BW, "bandwidth_bytes_per_s", D_BS, N, C_ALWAYS, 0, r->roof.bandwidth_bytes_per_s, NULL)      \
    X(PEAK, "peak_flops_per_s", D_FS, N, C_ALWAYS, 0, r->roof.peak_flops_per_s, NULL)              \
    X(RIDGE, "ridge_flop_per_byte", D_I, N, C_ALWAYS, 0, r->ridge_flop_per_byte, NULL)             \
    X(LEVELS_KNOWN, "levels_known", D_0, B, C_ALWAYS, 0, r->levels_known, NULL)                    \
    X(ROOF_L2, "roofs.l2_bandwidth_bytes_per_s", D_BS, N, C_ROOFS, 0,                              \
      r->levels_known ? r->l2_bandwidth_bytes_per_s : NAN, NULL)                                   \
    X(ROOF_EXP, "roofs.exp_flops_per_s", D_FS, N, C_ROOFS, 0,                                      \
      r->exp_roof_flops_per_s > 0 ? r->exp_roof_flops_per_s : NAN, NULL)                           \
    X(ROOF_MMA_EXP, "roofs.mma_exp_flops_per_s", D_FS, N, C_ROOFS, 0,                              \
      r->mma_exp_roof_flops_per_s > 0 ? r->mma_exp_roof_flops_per_s : NAN, NULL)                   \
    X(EB_DTYPE, "element_bytes.dtype", D_B, N, C_ALWAYS, 0, rl_dtype_bytes(q->dtype), NULL)        \
    X(EB_KV, "element_bytes.kv_dtype", D_B, N, C_ALWAYS, 0, rl_dtype_bytes(q->kv_dtype), NULL)     \
    X(EB_OUT, "element_bytes.out_dtype", D_B, N, C_ALWAYS, 0, rl_dtype_bytes(q->out_dtype), NULL)  \
    X(EB_SCORE, "element_bytes.score_dtype", D_B, N, C_ALWAYS, 0, rl_dtype_bytes(q->score_dtype), NULL) \
    X(KV_TOKEN, "kv_token_bytes", D_B, N, C_ALWAYS, 0, r->work.kv_token_bytes, NULL)               \
    X(QT, "q_tensor_bytes", D_B, N, C_ALWAYS, 0, r->work.q_tensor_bytes, NULL)                     \
    X(KT, "k_tensor_bytes", D_B, N, C_ALWAYS, 0, r->work.k_tensor_bytes, NULL)                     \
    X(VT, "v_tensor_bytes", D_B, N, C_ALWAYS, 0, r->work.v_tensor_bytes, NULL)                     \
    X(OT, "o_tensor_bytes", D_B, N, C_ALWAYS, 0, r->work.o_tensor_bytes, NULL)                     \
    X(ST, "score_matrix_bytes", D_B, N, C_ALWAYS, 0, r->work.score_matrix_bytes, NULL)             \
    X(TAIL, "tail_ratio", D_0, N, C_ALWAYS, 0, r->work.tail_ratio, NULL)                            \
    X(MLA_LIMIT, "mla_intensity_limit_flop_per_byte", D_I, N, C_MLA, 0, rl_mla_intensity_limit(&r->work), NULL) \
    X(IX_PAIRS, "indexer.pairs", D_0, N, C_TOPK, 0, r->work.indexer.pairs, NULL)                   \
    X(IX_FLOPS, "indexer.flops", D_F, N, C_TOPK, 0, r->work.indexer.flops, NULL)                   \
    X(IX_BYTES, "indexer.bytes", D_B, N, C_TOPK, 0, r->work.indexer.bytes, NULL)                   \
    X(IX_INT, "indexer.intensity_flop_per_byte", D_I, N, C_TOPK, 0,                                \
      r->work.indexer.flops / r->work.indexer.bytes, NULL)                                         \
    X(IX_K, "indexer.terms_bytes.k", D_B, N, C_TOPK, 0, r->work.indexer.k_bytes, NULL)             \
    X(IX_Q, "indexer.terms_bytes.q", D_B, N, C_TOPK, 0, r->work.indexer.q_bytes, NULL)             \
    X(IX_LOGITS, "indexer.terms_bytes.logits", D_B, N, C_TOPK, 0, r->work.indexer.logit_bytes, NULL) \
    X(IX_INDICES, "indexer.terms_bytes.indices", D_B, N, C_TOPK, 0, r->work.indexer.index_bytes, NULL) \
    RL_OUT_MODEL(X, RL_MODEL_COMPULSORY, "compulsory")                                             \
    RL_OUT_MODEL(X, RL_MODEL_TILED, "tiled")                                                       \
    RL_OUT_MODEL(X, RL_MODEL_NAIVE, "naive")                                                       \
    X(P_KERNEL, "predicted.kernel", D_0, NM, C_PRED, 0, pr->kernel, rl_kernel_name(pr->kernel))    \
    X(P_TIME, "predicted.time_s", D_S, N, C_PRED, 0, pr->time_s, NULL)                             \
    X(P_RATE, "predicted.flops_per_s", D_FS, N, C_PRED, 0, pr->flops_per_s, NULL)                  \
    X(P_BOUND, "predicted.bound", D_0, NM, C_PRED, 0, pr->bound, rl_bound_name(pr->bound))         \
    X(P_LIMIT, "predicted.limit", D_0, NM, C_PRED, 0, pr->limit, rl_limit_name(pr->limit))         \
    X(P_COMPUTE, "predicted.compute_s", D_S, N, C_PRED, 0, pr->compute_s, NULL)                    \
    X(P_MEMORY, "predicted.memory_s", D_S, N, C_PRED, 0, pr->memory_s, NULL)                       \
    X(P_LO, "predicted.interval_s.0", D_S, N, C_INTERVAL, 0, pr->interval_s[0], NULL)              \
    X(P_HI, "predicted.interval_s.1", D_S, N, C_INTERVAL, 0, pr->interval_s[1], NULL)              \
    X(P_LO_F, "predicted.interval_flops_per_s.0", D_FS, N, C_INTERVAL, 0, pr->interval_flops_per_s[0], NULL) \
    X(P_HI_F, "predicted.interval_flops_per_s.1", D_FS, N, C_INTERVAL, 0, pr->interval_flops_per_s[1], NULL) \
    X(P_BAND, "predicted.interval_band", D_0, TX, C_PRED, 0, 0, pr->interval_band ? pr->interval_band : "") \
    X(P_POINTS, "predicted.interval_points", D_0, I, C_PRED, 0, pr->interval_points, NULL)         \
    RL_OUT_TERM(X, RL_TERM_MMA, "mma")                                                             \
    RL_OUT_TERM(X, RL_TERM_TILES, "tiles")                                                         \
    RL_OUT_TERM(X, RL_TERM_EXP, "exp")                                                             \
    RL_OUT_TERM(X, RL_TERM_WAVES, "waves")                                                         \
    RL_OUT_TERM(X, RL_TERM_MEMORY, "memory")                                                       \
    RL_OUT_TERM(X, RL_TERM_OCCUPANCY, "occupancy")                                                 \
    RL_OUT_TERM(X, RL_TERM_FLOOR, "floor")                                                         \
    X(P_BM, "predicted.tile.block_m", D_0, I, C_PRED, 0, pr->block_m, NULL)                        \
    X(P_BN, "predicted.tile.block_n", D_0, I, C_PRED, 0, pr->block_n, NULL)                        \
    X(P_CTAS_SM, "predicted.tile.ctas_per_sm", D_0, I, C_PRED, 0, pr->ctas_per_sm, NULL)           \
    X(P_SPLITS, "predicted.tile.splits", D_0, I, C_PRED, 0, pr->splits, NULL)                      \
    X(P_PACKED, "predicted.tile.gqa_packed", D_0, B, C_PRED, 0, pr->gqa_packed, NULL)              \
    X(P_PERSIST, "predicted.tile.persistent", D_0, B, C_PRED, 0, pr->persistent, NULL)             \
    X(P_EXPSER, "predicted.tile.exp_serialised", D_0, B, C_PRED, 0, pr->exp_serialised, NULL)      \
    X(P_FITTED, "predicted.tile.fitted_to_shared_memory", D_0, B, C_PRED, 0, pr->tile_fitted, NULL) \
    RL_OUT_PLEVEL(X, RL_LEVEL_DRAM, "dram")                                                        \
    RL_OUT_PLEVEL(X, RL_LEVEL_L2, "l2")                                                            \
    X(P_HIT, "predicted.levels.kv_hit_fraction", D_0, N, C_PRED, 0, pr->levels.kv_hit_fraction, NULL) \
    X(P_PAIRS, "predicted.computed_pairs", D_0, N, C_PRED, 0, pr->computed_pairs, NULL)            \
    X(P_CTAS, "predicted.ctas", D_0, N, C_PRED, 0, pr->ctas, NULL)                                 \
    X(P_WAVES, "predicted.waves", D_0, N, C_PRED, 0, pr->waves, NULL)                              \
    X(P_MMA, "predicted.mma_flops_per_s", D_FS, N, C_PRED, 0, pr->mma_flops_per_s, NULL)           \
    X(P_EXP, "predicted.exp_per_s", D_0, N, C_PRED, 0, pr->exp_per_s, NULL)                        \
    X(P_OVERLAP, "predicted.overlap_exponent", D_0, N, C_PRED, 0, pr->overlap_exponent, NULL)      \
    X(P_KERNELS, "predicted.kernels", D_0, I, C_PRED, 0, pr->kernels, NULL)                        \
    X(P_SMBW, "predicted.sm_bandwidth_bytes_per_s", D_BS, N, C_PRED, 0, pr->sm_bandwidth_bytes_per_s, NULL) \
    X(UNMODELLED, "unmodelled.naive", D_0, TX, C_BWD, 0, 0, "no naive backward traffic model")    \
    X(SQ, "sram.q_tile_bytes", D_B, N, C_ALWAYS, 0, r->sram.q_tile_bytes, NULL)                    \
    X(SK, "sram.k_tile_bytes", D_B, N, C_ALWAYS, 0, r->sram.k_tile_bytes, NULL)                    \
    X(SV, "sram.v_tile_bytes", D_B, N, C_ALWAYS, 0, r->sram.v_tile_bytes, NULL)                    \
    X(SS, "sram.s_tile_bytes", D_B, N, C_ALWAYS, 0, r->sram.s_tile_bytes, NULL)                    \
    X(SO, "sram.o_acc_bytes", D_B, N, C_ALWAYS, 0, r->sram.o_acc_bytes, NULL)                      \
    X(SML, "sram.ml_bytes", D_B, N, C_ALWAYS, 0, r->sram.ml_bytes, NULL)                           \
    X(STOTAL, "sram.total_bytes", D_B, N, C_ALWAYS, 0, r->sram.total_bytes, NULL)                  \
    X(SLIMD, "sram.limit_default_bytes", D_B, N, C_ALWAYS, 0, r->sram.limit_default_bytes, NULL)   \
    X(SLIMO, "sram.limit_optin_bytes", D_B, N, C_ALWAYS, 0, r->sram.limit_optin_bytes, NULL)       \
    X(SFITD, "sram.fits_default", D_0, B, C_ALWAYS, 0, r->sram.fits_default, NULL)                 \
    X(SFITO, "sram.fits_optin", D_0, B, C_ALWAYS, 0, r->sram.fits_optin, NULL)

enum {
#define RL_X_OUT_ID(ID, name, unit, kind, cond, m, num, text) OUT_##ID,
    RL_OUTPUTS(RL_X_OUT_ID)
#undef RL_X_OUT_ID
        OUT_TABLE_COUNT
};

typedef struct out_entry {
    rl_output_info info;
    int cond;
    int model;
} out_entry;

static const out_entry entries[RL_PROBLEM_FIELD_COUNT + OUT_TABLE_COUNT] = {
#define RL_X_OUT_PROBLEM(ID, member, key, flag, type, def, max, lo, hi, meta, help)                \
    {{"problem." key, D_0,                                                                         \
      type == RL_FTYPE_INT ? I : type == RL_FTYPE_BOOL ? B : type == RL_FTYPE_LENS ? RL_OUT_LENS : NM}, \
     C_ALWAYS, 0},
    RL_PROBLEM_FIELDS(RL_X_OUT_PROBLEM)
#undef RL_X_OUT_PROBLEM
#define RL_X_OUT_ENTRY(ID, name, unit, kind, cond, m, num, text) {{name, unit, kind}, cond, m},
    RL_OUTPUTS(RL_X_OUT_ENTRY)
#undef RL_X_OUT_ENTRY
};

size_t rl_output_count(void) { return sizeof entries / sizeof entries[0]; }

const rl_output_info *rl_output_info_at(size_t i) {
    return i < rl_output_count() ? &entries[i].info : NULL;
}

int rl_output_find(const char *name) {
    if (!name) return -1;
    for (size_t i = 0; i < rl_output_count(); i++)
        if (strcmp(entries[i].info.name, name) == 0) return (int)i;
    return -1;
}

/* The state of entry e in this evaluation (RL_OUTV_VALUE when it has a value). */
static rl_output_value state_of(const out_entry *e, const rl_output_view *v) {
    const rl_report *r = v->report;
    const rl_prediction *pr = v->prediction;
    rl_output_value out = {RL_OUTV_VALUE, 0, NAN, NULL};
    switch (e->cond) {
    case C_ROOFS:
        if (!r->levels_known && !(r->exp_roof_flops_per_s > 0)) out.state = RL_OUTV_OMIT, out.depth = 1;
        break;
    case C_LEVELS:
    case C_MODEL:
        if (!r->work.traffic[e->model].available) out.state = RL_OUTV_NULL, out.depth = 2;
        else if (e->cond == C_LEVELS && !r->levels_known) out.state = RL_OUTV_OMIT, out.depth = 3;
        break;
    case C_INTERVAL:
    case C_PRED:
        if (!pr) out.state = RL_OUTV_NULL, out.depth = 1;
        else if (e->cond == C_INTERVAL && pr->interval_points < RL_INTERVAL_MIN_POINTS)
            out.state = RL_OUTV_NULL, out.depth = 2;
        break;
    case C_BWD:
        if (r->work.problem.pass != RL_PASS_BWD) out.state = RL_OUTV_OMIT, out.depth = 1;
        break;
    case C_TOPK:
        if (!r->work.problem.topk) out.state = RL_OUTV_OMIT, out.depth = 1;
        break;
    case C_MLA:
        if (!(rl_mla_intensity_limit(&r->work) > 0)) out.state = RL_OUTV_OMIT, out.depth = 1;
        break;
    default: break;
    }
    return out;
}

rl_output_value rl_output_get(size_t i, const rl_output_view *v) {
    rl_output_value out = {RL_OUTV_OMIT, 0, NAN, NULL};
    if (i >= rl_output_count() || !v || !v->report) return out;
    const out_entry *e = &entries[i];
    out = state_of(e, v);
    if (out.state != RL_OUTV_VALUE) return out;
    const rl_report *r = v->report;
    const rl_problem *q = &r->work.problem;
    if (i < RL_PROBLEM_FIELD_COUNT) {
        const rl_problem_field f = (rl_problem_field)i;
        out.number = (double)rl_problem_get(q, f);
        const rl_field_type type = rl_problem_field_info(f)->type;
        if (type == RL_FTYPE_DTYPE) out.text = rl_dtype_name((rl_dtype)rl_problem_get(q, f));
        if (type == RL_FTYPE_PASS) out.text = rl_pass_name((rl_pass)rl_problem_get(q, f));
        return out;
    }
    const rl_prediction *pr = v->prediction;
    const rl_hw *hw = v->hw;
    const int m = e->model;
    const rl_traffic *t = &r->work.traffic[m];
    const rl_point *pt = &r->points[m];
    const rl_level_traffic *lv = &r->levels[m];
    const rl_point *lp = r->level_points[m];
    (void)hw, (void)t, (void)pt, (void)lv, (void)lp, (void)q;
    switch ((int)(i - RL_PROBLEM_FIELD_COUNT)) {
#define RL_X_OUT_GET(ID, name, unit, kind, cond, mm, num, txt)                                     \
    case OUT_##ID:                                                                                 \
        out.number = (double)(num);                                                                \
        out.text = (txt);                                                                          \
        break;
        RL_OUTPUTS(RL_X_OUT_GET)
#undef RL_X_OUT_GET
    default: break;
    }
    if (e->info.kind == RL_OUT_TEXT) out.number = 0;
    return out;
}

/* Every entry at once, in table order: each condition decided once per (condition, model) group,
 * then one assignment per entry (no per-entry call or switch): what rl_output_get gives, number by
 * number, NaN where it has no value. */
size_t rl_output_fill(const rl_output_view *v, double *out, size_t cap) {
    if (!v || !v->report || !out || cap < rl_output_count()) return 0;
    unsigned char has[C_COUNT][RL_MODEL_COUNT];
    for (int c = 0; c < C_COUNT; c++)
        for (int m = 0; m < RL_MODEL_COUNT; m++) {
            const out_entry e = {{NULL, D_0, N}, c, m};
            has[c][m] = state_of(&e, v).state == RL_OUTV_VALUE;
        }
    const rl_report *r = v->report;
    const rl_problem *q = &r->work.problem;
    const rl_prediction *pr = v->prediction;
    const rl_hw *hw = v->hw;
    (void)hw;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) out[f] = (double)rl_problem_get(q, (rl_problem_field)f);
    double *o = out + RL_PROBLEM_FIELD_COUNT;
#define RL_X_OUT_FILL(ID, name, unit, kind, cond, mm, num, txt)                                    \
    {                                                                                              \
        const rl_traffic *t = &r->work.traffic[mm];                                                \
        const rl_point *pt = &r->points[mm];                                                       \
        const rl_level_traffic *lv = &r->levels[mm];                                               \
        const rl_point *lp = r->level_points[mm];                                                  \
        (void)t, (void)pt, (void)lv, (void)lp;                                                     \
        o[OUT_##ID] = has[cond][mm] ? (double)(num) : NAN;                                         \
    }
    RL_OUTPUTS(RL_X_OUT_FILL)
#undef RL_X_OUT_FILL
    return rl_output_count();
}

/* The columns of one "sequences" row (rl_seq_work). */
#define RL_SEQ_OUTPUTS(X)                                                                          \
    X("kv_len", D_0, I, (double)w->kv_len)                                                         \
    X("count", D_0, I, (double)w->count)                                                           \
    X("pairs", D_0, N, w->pairs)                                                                   \
    X("kv_bytes", D_B, N, w->kv_bytes)                                                             \
    X("page_table_bytes", D_B, N, w->page_table_bytes)                                             \
    X("kv_tiles", D_0, N, w->kv_tiles)                                                             \
    X("ctas", D_0, N, w->ctas)

static const rl_output_info seq_columns[] = {
#define RL_X_SEQ_INFO(name, unit, kind, get) {name, unit, kind},
    RL_SEQ_OUTPUTS(RL_X_SEQ_INFO)
#undef RL_X_SEQ_INFO
};

size_t rl_seq_output_count(void) { return sizeof seq_columns / sizeof seq_columns[0]; }

const rl_output_info *rl_seq_output_info_at(size_t col) {
    return col < rl_seq_output_count() ? &seq_columns[col] : NULL;
}

double rl_seq_output_get(size_t col, const rl_seq_work *w) {
    if (!w) return NAN;
    size_t k = 0;
#define RL_X_SEQ_GET(name, unit, kind, get)                                                        \
    if (col == k++) return (get);
    RL_SEQ_OUTPUTS(RL_X_SEQ_GET)
#undef RL_X_SEQ_GET
    return NAN;
}
