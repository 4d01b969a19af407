/* cmd_eval.c — `rooflab eval`: one problem on one roofline, as a table or one JSON object
 * (CONTRACTS.md "The command line"). Every number comes from core's rl_report_compute. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void eval_help(FILE *out) {
    fputs("usage: rooflab eval [problem flags] [roof flags] [--json]\n\n"
          "Evaluates one attention problem on one roofline: FLOPs, bytes under the compulsory,\n"
          "tiled and naive traffic models, intensity, attainable throughput, bound time, regime,\n"
          "and the SRAM budget of one tiled block.\n\n",
          out);
    cli_problem_flags_help(out);
    cli_kernel_flags_help(out);
    fputs("output:\n"
          "  --json             one JSON object (keys as in DESIGN.md \"Contracts\")\n"
          "example:\n"
          "  rooflab eval --heads 32 --kv-heads 8 --seq 1 --kv-len 4096 --head-dim 128 --json\n",
          out);
}

/* JSON numbers: shortest round-trip form of a double. */
static void json_num(FILE *out, double v) {
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, out);
}

/* ,\n      "levels": {"dram": {...}, "l2": {...}} — each level's bytes, intensity, attainable
 * throughput and time at that level's roof. */
static void print_levels_json(FILE *o, const rl_report *r, rl_model m) {
    fputs(",\n      \"levels\": {", o);
    for (int l = 0; l < RL_LEVEL_COUNT; l++) {
        const rl_point *pt = &r->level_points[m][l];
        fprintf(o, "%s\"%s\": {\"bytes\": ", l ? ", " : "", rl_level_name((rl_level)l));
        json_num(o, pt->bytes);
        fputs(", \"intensity_flop_per_byte\": ", o);
        json_num(o, pt->intensity_flop_per_byte);
        fputs(", \"bandwidth_bytes_per_s\": ", o);
        json_num(o, l == RL_LEVEL_L2 ? r->l2_bandwidth_bytes_per_s : r->roof.bandwidth_bytes_per_s);
        fputs(", \"attainable_flops_per_s\": ", o);
        json_num(o, pt->attainable_flops_per_s);
        fputs(", \"time_s\": ", o);
        json_num(o, pt->memory_time_s);
        fputs("}", o);
    }
    fputs(", \"kv_hit_fraction\": ", o);
    json_num(o, r->levels[m].kv_hit_fraction);
    fputs(", \"kv_working_set_bytes\": ", o);
    json_num(o, r->levels[m].kv_working_set_bytes);
    fputs("}", o);
}

/* "predicted": {"kernel", "time_s", "flops_per_s", "bound", "terms": {NAME: seconds}, ...},
 * or null with "predicted_unavailable": the reason. */
static void print_prediction_json(FILE *o, const rl_prediction *pr, const rl_error *why) {
    if (!pr) {
        fprintf(o, "  \"predicted\": null,\n  \"predicted_unavailable\": \"%s\",\n", why->message);
        return;
    }
    fprintf(o, "  \"predicted\": {\"kernel\": \"%s\", \"time_s\": ", rl_kernel_name(pr->kernel));
    json_num(o, pr->time_s);
    fputs(", \"flops_per_s\": ", o);
    json_num(o, pr->flops_per_s);
    fprintf(o, ", \"bound\": \"%s\", \"limit\": \"%s\", \"interval_s\": ", rl_bound_name(pr->bound),
            rl_limit_name(pr->limit));
    if (pr->interval_points >= RL_INTERVAL_MIN_POINTS) {
        fputs("[", o);
        json_num(o, pr->interval_s[0]);
        fputs(", ", o);
        json_num(o, pr->interval_s[1]);
        fputs("]", o);
    } else {
        fputs("null", o);
    }
    fprintf(o, ", \"interval_band\": \"%s\", \"interval_points\": %d,\n    \"terms\": {",
            pr->interval_band ? pr->interval_band : "", pr->interval_points);
    for (int t = 0; t < RL_TERM_COUNT; t++) {
        fprintf(o, "%s\"%s\": ", t ? ", " : "", rl_term_name((rl_term)t));
        json_num(o, pr->terms_s[t]);
    }
    fprintf(o, "},\n    \"tile\": {\"block_m\": %lld, \"block_n\": %lld, \"ctas_per_sm\": %lld, "
               "\"splits\": %lld, \"gqa_packed\": %s, \"persistent\": %s, \"exp_serialised\": %s, "
               "\"fitted_to_shared_memory\": %s},\n",
            (long long)pr->block_m, (long long)pr->block_n, (long long)pr->ctas_per_sm,
            (long long)pr->splits, pr->gqa_packed ? "true" : "false",
            pr->persistent ? "true" : "false", pr->exp_serialised ? "true" : "false",
            pr->tile_fitted ? "true" : "false");
    fputs("    \"levels\": {", o);
    for (int l = 0; l < RL_LEVEL_COUNT; l++) {
        fprintf(o, "%s\"%s\": {\"bytes\": ", l ? ", " : "", rl_level_name((rl_level)l));
        json_num(o, pr->levels.bytes[l]);
        fputs(", \"time_s\": ", o);
        json_num(o, pr->level_time_s[l]);
        fputs("}", o);
    }
    fputs("},\n    \"computed_pairs\": ", o);
    json_num(o, pr->computed_pairs);
    fputs(", \"ctas\": ", o);
    json_num(o, pr->ctas);
    fputs(", \"waves\": ", o);
    json_num(o, pr->waves);
    fputs(", \"mma_flops_per_s\": ", o);
    json_num(o, pr->mma_flops_per_s);
    fputs(", \"exp_per_s\": ", o);
    json_num(o, pr->exp_per_s);
    fputs(", \"overlap_exponent\": ", o);
    json_num(o, pr->overlap_exponent);
    fprintf(o, ", \"kernels\": %lld, \"sm_bandwidth_bytes_per_s\": ", (long long)pr->kernels);
    json_num(o, pr->sm_bandwidth_bytes_per_s);
    fputs("},\n", o);
}

static void print_json(const rl_report *r, const rl_hw *hw, const rl_prediction *pred,
                       const rl_error *pred_err, const char *note) {
    const rl_workload *w = &r->work;
    const rl_problem *p = &w->problem;
    FILE *o = stdout;
    fputs("{\n  \"flops\": ", o);
    json_num(o, w->flops);
    fputs(",\n  \"softmax_flops\": ", o);
    json_num(o, w->softmax_flops);
    fputs(",\n  \"pairs\": ", o);
    json_num(o, w->pairs);
    fputs(",\n  \"bandwidth_bytes_per_s\": ", o);
    json_num(o, r->roof.bandwidth_bytes_per_s);
    fputs(",\n  \"peak_flops_per_s\": ", o);
    json_num(o, r->roof.peak_flops_per_s);
    fputs(",\n  \"ridge_flop_per_byte\": ", o);
    json_num(o, r->ridge_flop_per_byte);
    if (r->levels_known || r->exp_roof_flops_per_s > 0) {
        /* the roofs beyond DRAM and the MMA peak (MODEL.md "Memory levels", the predicted time) */
        fputs(",\n  \"roofs\": {\"l2_bandwidth_bytes_per_s\": ", o);
        json_num(o, r->levels_known ? r->l2_bandwidth_bytes_per_s : NAN);
        fputs(", \"exp_flops_per_s\": ", o);
        json_num(o, r->exp_roof_flops_per_s > 0 ? r->exp_roof_flops_per_s : NAN);
        fputs(", \"mma_exp_flops_per_s\": ", o);
        json_num(o, r->mma_exp_roof_flops_per_s > 0 ? r->mma_exp_roof_flops_per_s : NAN);
        fputs("}", o);
    }
    if (note[0]) fprintf(o, ",\n  \"model_note\": \"%s\"", note); /* core's text: no quotes */
    fprintf(o,
            ",\n  \"hw\": \"%s\",\n  \"problem\": {\"batch\": %lld, \"heads\": %lld, \"kv_heads\": "
            "%lld, \"seq\": %lld, \"kv_len\": %lld, \"head_dim\": %lld, \"dtype\": \"%s\", "
            "\"kv_dtype\": \"%s\", \"out_dtype\": \"%s\", \"causal\": %s, \"pass\": \"%s\", \"block_m\": %lld, "
            "\"block_n\": %lld, \"head_dim_v\": %lld, \"kv_lora_rank\": %lld, \"rope_dim\": %lld, "
            "\"window\": %lld, \"sinks\": %lld, \"page_size\": %lld, \"topk\": %lld, \"kv_lens\": [",
            hw->id, (long long)p->batch, (long long)p->heads, (long long)p->kv_heads,
            (long long)p->seq, (long long)p->kv_len, (long long)p->head_dim,
            rl_dtype_name(p->dtype), rl_dtype_name(p->kv_dtype), rl_dtype_name(p->out_dtype),
            p->causal ? "true" : "false",
            rl_pass_name(p->pass), (long long)p->block_m, (long long)p->block_n,
            (long long)p->head_dim_v, (long long)p->kv_lora_rank, (long long)p->rope_dim,
            (long long)p->window, (long long)p->sinks, (long long)p->page_size, (long long)p->topk);
    for (int i = 0; i < p->kv_lens.n; i++)
        fprintf(o, "%s[%lld, %lld]", i ? ", " : "", (long long)p->kv_lens.pair[i].len,
                (long long)p->kv_lens.pair[i].count);
    fprintf(o, "]},\n  \"kv_token_bytes\": %.17g,\n", w->kv_token_bytes);
    /* Per sequence length (MODEL.md "Ragged batch"): what the profiles build on. */
    fputs("  \"sequences\": [", o);
    for (int g = 0; g < w->seq_groups; g++) {
        const rl_seq_work *sw = &w->seqs[g];
        fprintf(o, "%s\n    {\"kv_len\": %lld, \"count\": %lld, \"pairs\": ", g ? "," : "",
                (long long)sw->kv_len, (long long)sw->count);
        json_num(o, sw->pairs);
        fputs(", \"kv_bytes\": ", o);
        json_num(o, sw->kv_bytes);
        fputs(", \"page_table_bytes\": ", o);
        json_num(o, sw->page_table_bytes);
        fputs(", \"kv_tiles\": ", o);
        json_num(o, sw->kv_tiles);
        fputs(", \"ctas\": ", o);
        json_num(o, sw->ctas);
        fputs("}", o);
    }
    fputs("\n  ],\n  \"tail_ratio\": ", o);
    json_num(o, w->tail_ratio);
    fputs(",\n", o);
    if (p->topk) { /* the DSA indexer: its own kernel, its own line (MODEL.md "Sparse top-k") */
        const rl_indexer *ix = &w->indexer;
        fputs("  \"indexer\": {\"pairs\": ", o);
        json_num(o, ix->pairs);
        fputs(", \"flops\": ", o);
        json_num(o, ix->flops);
        fputs(", \"bytes\": ", o);
        json_num(o, ix->bytes);
        fputs(", \"intensity_flop_per_byte\": ", o);
        json_num(o, ix->flops / ix->bytes);
        fputs(", \"terms_bytes\": {\"k\": ", o);
        json_num(o, ix->k_bytes);
        fputs(", \"q\": ", o);
        json_num(o, ix->q_bytes);
        fputs(", \"logits\": ", o);
        json_num(o, ix->logit_bytes);
        fputs(", \"indices\": ", o);
        json_num(o, ix->index_bytes);
        fputs("}},\n", o);
    }
    fputs("  \"models\": {", o);
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        const rl_traffic *t = &w->traffic[m];
        const rl_point *pt = &r->points[m];
        fprintf(o, "%s\n    \"%s\": ", m ? "," : "", rl_model_name((rl_model)m));
        if (!t->available) {
            fputs("null", o);
            continue;
        }
        fputs("{\"bytes\": ", o);
        json_num(o, t->bytes);
        fputs(", \"intensity_flop_per_byte\": ", o);
        json_num(o, pt->intensity_flop_per_byte);
        fputs(", \"attainable_flops_per_s\": ", o);
        json_num(o, pt->attainable_flops_per_s);
        fputs(", \"time_s\": ", o);
        json_num(o, pt->time_s);
        fprintf(o, ", \"bound\": \"%s\",\n      \"terms_bytes\": {\"q\": ", rl_bound_name(pt->bound));
        json_num(o, t->q_bytes);
        fputs(", \"k\": ", o);
        json_num(o, t->k_bytes);
        fputs(", \"v\": ", o);
        json_num(o, t->v_bytes);
        fputs(", \"o\": ", o);
        json_num(o, t->o_bytes);
        fputs(", \"s\": ", o);
        json_num(o, t->s_bytes);
        fputs(", \"p\": ", o);
        json_num(o, t->p_bytes);
        fputs(", \"grad\": ", o);
        json_num(o, t->grad_bytes);
        fputs(", \"page_table\": ", o);
        json_num(o, t->page_table_bytes);
        fputs(", \"gather_waste\": ", o);
        json_num(o, t->gather_waste_bytes);
        fputs("}", o);
        if (m == RL_MODEL_TILED) {
            fputs(", \"kv_reload_factor\": ", o);
            json_num(o, t->kv_reload_factor);
            fputs(", \"query_blocks\": ", o);
            json_num(o, t->query_blocks);
        }
        if (r->levels_known) print_levels_json(o, r, (rl_model)m);
        fputs("}", o);
    }
    fputs("\n  },\n", o);
    print_prediction_json(o, pred, pred_err);
    if (p->pass == RL_PASS_BWD)
        fputs("  \"unmodelled\": {\"naive\": \"no naive backward traffic model\"},\n", o);
    const rl_sram *s = &r->sram;
    fputs("  \"sram\": {\"q_tile_bytes\": ", o);
    json_num(o, s->q_tile_bytes);
    fputs(", \"k_tile_bytes\": ", o);
    json_num(o, s->k_tile_bytes);
    fputs(", \"v_tile_bytes\": ", o);
    json_num(o, s->v_tile_bytes);
    fputs(", \"s_tile_bytes\": ", o);
    json_num(o, s->s_tile_bytes);
    fputs(", \"o_acc_bytes\": ", o);
    json_num(o, s->o_acc_bytes);
    fputs(", \"ml_bytes\": ", o);
    json_num(o, s->ml_bytes);
    fputs(", \"total_bytes\": ", o);
    json_num(o, s->total_bytes);
    fputs(", \"limit_default_bytes\": ", o);
    json_num(o, s->limit_default_bytes);
    fputs(", \"limit_optin_bytes\": ", o);
    json_num(o, s->limit_optin_bytes);
    fprintf(o, ", \"fits_default\": %s, \"fits_optin\": %s}\n}\n", s->fits_default ? "true" : "false",
            s->fits_optin ? "true" : "false");
}

/* "16.78 MB (16 MiB)": IEC alongside when SI and IEC differ by more than 2 %. */
static const char *bytes_text(double v, char *buf, size_t cap) {
    char si[48], iec[48];
    rl_format_quantity(v, RL_DIM_BYTES, RL_PREFIX_SI, 4, si, sizeof si);
    if (v >= 1000.0) {
        rl_format_quantity(v, RL_DIM_BYTES, RL_PREFIX_IEC, 4, iec, sizeof iec);
        snprintf(buf, cap, "%s (%s)", si, iec);
    } else {
        snprintf(buf, cap, "%s", si);
    }
    return buf;
}

static void print_levels_table(const rl_report *r) {
    char a[64], b[64];
    rl_format_quantity(r->l2_bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, a, sizeof a);
    printf("\nlevels   (L2 roof %s)  DRAM bytes / L2 bytes, intensity at each level\n", a);
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        if (!r->work.traffic[m].available) continue;
        const rl_point *d = &r->level_points[m][RL_LEVEL_DRAM], *l = &r->level_points[m][RL_LEVEL_L2];
        rl_format_quantity(d->bytes, RL_DIM_BYTES, RL_PREFIX_SI, 4, a, sizeof a);
        rl_format_quantity(l->bytes, RL_DIM_BYTES, RL_PREFIX_SI, 4, b, sizeof b);
        printf("%-11s dram %-12s %-10.4g FLOP/B   l2 %-12s %.4g FLOP/B", rl_model_name((rl_model)m),
               a, d->intensity_flop_per_byte, b, l->intensity_flop_per_byte);
        if (m == RL_MODEL_TILED) printf("   (K/V re-reads hit L2: %.3g)", r->levels[m].kv_hit_fraction);
        putchar('\n');
    }
}

static void print_prediction_table(const rl_prediction *pr, const rl_error *why, int flops_known,
                                   const rl_problem *p, const rl_hw *hw) {
    char a[64], b[64];
    if (!pr) {
        printf("\npredicted  not available: %s\n", why->message);
        return;
    }
    rl_format_quantity(pr->time_s, RL_DIM_SECONDS, RL_PREFIX_SI, 4, a, sizeof a);
    rl_format_quantity(pr->flops_per_s, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, b, sizeof b);
    /* "3.49 ms (likely 3.2–3.8 ms: fa3's held-out error on 37 points)" */
    char band[256];
    if (pr->interval_points >= RL_INTERVAL_MIN_POINTS) {
        char lo[48], hi[48];
        rl_format_quantity(pr->interval_s[0], RL_DIM_SECONDS, RL_PREFIX_SI, 3, lo, sizeof lo);
        rl_format_quantity(pr->interval_s[1], RL_DIM_SECONDS, RL_PREFIX_SI, 3, hi, sizeof hi);
        snprintf(band, sizeof band, " (likely %.40s\xE2\x80\x93%.40s: %.20s's held-out error on %d points)",
                 lo, hi, pr->interval_band, pr->interval_points);
    } else {
        snprintf(band, sizeof band, " (no likely range: %.20s has %d held-out point%s, fewer than %d)",
                 pr->interval_band ? pr->interval_band : "?", pr->interval_points,
                 pr->interval_points == 1 ? "" : "s", RL_INTERVAL_MIN_POINTS);
    }
    printf("\npredicted  %s: %s%s, %s (%s-limited); tile %lldx%lld, %lld CTA(s)/SM, %.6g CTAs, "
           "%.3g waves%s%s\n",
           rl_kernel_name(pr->kernel), a, band, flops_known ? b : "", rl_limit_name(pr->limit),
           (long long)pr->block_m, (long long)pr->block_n, (long long)pr->ctas_per_sm, pr->ctas,
           pr->waves, pr->gqa_packed ? ", GQA packed" : "", pr->splits > 1 ? ", split-KV" : "");
    if (pr->tile_fitted) {
        rl_problem tile = *p;
        const rl_sram need = rl_sram_budget(&tile, hw);
        printf("  (tile %lldx%lld: the problem's %lldx%lld needs %.0f B of shared memory, over %s's "
               "%.0f B per block; the largest tile-search candidate that fits)\n",
               (long long)pr->block_m, (long long)pr->block_n, (long long)p->block_m,
               (long long)p->block_n, need.total_bytes, hw->id, need.limit_optin_bytes);
    }
    for (int t = 0; t < RL_TERM_COUNT; t++) {
        rl_format_quantity(pr->terms_s[t] > 0 ? pr->terms_s[t] : 0, RL_DIM_SECONDS, RL_PREFIX_SI, 4,
                           a, sizeof a);
        printf("  %-9s %-12s %5.1f %%\n", rl_term_name((rl_term)t), pr->terms_s[t] > 0 ? a : "0 s",
               100.0 * pr->terms_s[t] / pr->time_s);
    }
}

static void print_table(const rl_report *r, const rl_hw *hw) {
    const rl_workload *w = &r->work;
    const rl_problem *p = &w->problem;
    char a[128], b[128], c[64], d[64];
    char o_text[16] = "";
    if (p->out_dtype != p->dtype) snprintf(o_text, sizeof o_text, ", O %s", rl_dtype_name(p->out_dtype));
    printf("problem  B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld  %s (K/V %s%s)  %s  %s  tile %lldx%lld\n",
           (long long)p->batch, (long long)p->heads, (long long)p->kv_heads, (long long)p->seq,
           (long long)p->kv_len, (long long)p->head_dim, rl_dtype_name(p->dtype),
           rl_dtype_name(p->kv_dtype), o_text, p->causal ? "causal" : "non-causal", rl_pass_name(p->pass),
           (long long)p->block_m, (long long)p->block_n);
    if (p->kv_lora_rank)
        printf("variant  absorbed MLA: latent R=%lld + rope %lld = d_qk %lld, d_v %lld, one %.6g-byte "
               "latent per token read once for all %lld heads\n",
               (long long)p->kv_lora_rank, (long long)p->rope_dim, (long long)p->head_dim,
               (long long)p->head_dim_v, w->kv_token_bytes, (long long)p->heads);
    else if (p->head_dim_v != p->head_dim)
        printf("variant  value head dim d_v=%lld (d_qk=%lld)\n", (long long)p->head_dim_v,
               (long long)p->head_dim);
    if (p->window)
        printf("variant  sliding window W=%lld%s%.0lld%s\n", (long long)p->window,
               p->sinks ? ", sinks S=" : "", (long long)p->sinks, p->sinks ? " always visible" : "");
    const rl_traffic *tc = &w->traffic[RL_MODEL_COMPULSORY];
    if (p->page_size)
        printf("variant  paged KV, %lld rows per page: K/V gathered page by page in 32 B sectors "
               "(%.6g B moved beyond the rows) + page table %.6g B (compulsory)\n",
               (long long)p->page_size, tc->gather_waste_bytes, tc->page_table_bytes);
    if (p->kv_lens.n) {
        char lens[256];
        rl_kv_lens_format(&p->kv_lens, lens, sizeof lens);
        printf("variant  ragged batch %s: B=%lld sequences, L = the longest; the longest has %.4gx "
               "the mean's pairs (a kernel without split-KV waits for it)\n",
               lens, (long long)p->batch, w->tail_ratio);
    }
    if (p->topk) {
        const rl_indexer *ix = &w->indexer;
        rl_format_quantity(ix->flops, RL_DIM_FLOP, RL_PREFIX_SI, 4, a, sizeof a);
        printf("variant  sparse top-k K=%lld: selected K/V rows gathered row by row (%.6g B moved "
               "beyond the rows, compulsory)\n",
               (long long)p->topk, tc->gather_waste_bytes);
        printf("indexer  %.10g pairs scored in fp8 by %d heads of %d: %s, %s, %.4g FLOP/B (its own "
               "kernel, not in F or the bytes below)\n",
               ix->pairs, RL_INDEXER_HEADS, RL_INDEXER_HEAD_DIM, a,
               bytes_text(ix->bytes, b, sizeof b), ix->flops / ix->bytes);
    }
    rl_format_quantity(r->roof.bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, a, sizeof a);
    rl_format_quantity(r->roof.peak_flops_per_s, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, b, sizeof b);
    printf("roof     %s (%s): bandwidth %s, peak %s -> ridge %.4g FLOP/B\n", hw->id, hw->name, a, b,
           r->ridge_flop_per_byte);
    rl_format_quantity(w->flops, RL_DIM_FLOP, RL_PREFIX_SI, 4, a, sizeof a);
    rl_format_quantity(w->softmax_flops, RL_DIM_FLOP, RL_PREFIX_SI, 4, b, sizeof b);
    printf(w->pairs == floor(w->pairs) ? "work     %.17g scored pairs; F = %s%s (%.17g FLOP); softmax %s reported apart\n\n"
                                       : "work     %.10g scored pairs (the mean per sequence); F = %s%s (%.17g FLOP); softmax %s reported apart\n\n",
           w->pairs, a, p->head_dim_v != p->head_dim
               ? (p->pass == RL_PASS_BWD ? " = 2*B*H*(3*d+2*d_v)*pairs" : " = 2*B*H*(d+d_v)*pairs")
               : (p->pass == RL_PASS_BWD ? " = 2.5 x forward" : " = 4*B*H*d*pairs"),
           w->flops, b);
    printf("%-11s %-24s %-14s %-15s %-12s %s\n", "model", "bytes", "intensity", "attainable",
           "time", "bound");
    for (int m = 0; m < RL_MODEL_COUNT; m++) {
        const rl_point *pt = &r->points[m];
        if (!w->traffic[m].available) {
            printf("%-11s not modelled for the backward pass\n", rl_model_name((rl_model)m));
            continue;
        }
        char it[32];
        snprintf(it, sizeof it, "%.4g FLOP/B", pt->intensity_flop_per_byte);
        rl_format_quantity(pt->attainable_flops_per_s, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, c, sizeof c);
        rl_format_quantity(pt->time_s, RL_DIM_SECONDS, RL_PREFIX_SI, 4, d, sizeof d);
        printf("%-11s %-24s %-14s %-15s %-12s %s\n", rl_model_name((rl_model)m),
               bytes_text(pt->bytes, a, sizeof a), it, c, d, rl_bound_name(pt->bound));
    }
    const rl_traffic *t = &w->traffic[RL_MODEL_TILED];
    if (t->available)
        printf(t->kv_rows_loaded_per_head == floor(t->kv_rows_loaded_per_head)
                   ? "\ntiled    %.17g query block(s) of %lld rows; each (batch, query head) loads %.17g K and V rows = "
                     "%.4gx the %lld-row cache\n"
                   : "\ntiled    %.17g query block(s) of %lld rows; each (batch, query head) loads %.10g K and V rows (mean) = "
               "%.4gx the %lld-row cache\n",
               t->query_blocks, (long long)p->block_m, t->kv_rows_loaded_per_head, t->kv_reload_factor,
               (long long)p->kv_len);
    const rl_sram *s = &r->sram;
    printf("sram     Q %.0f + K %.0f + V %.0f + S %.0f + O %.0f + m,l %.0f = %.0f B (%.4g KiB); "
           "limit %.4g KiB default, %.4g KiB opt-in: %s\n",
           s->q_tile_bytes, s->k_tile_bytes, s->v_tile_bytes, s->s_tile_bytes, s->o_acc_bytes,
           s->ml_bytes, s->total_bytes, s->total_bytes / 1024.0, s->limit_default_bytes / 1024.0,
           s->limit_optin_bytes / 1024.0,
           s->fits_default ? "fits" : (s->fits_optin ? "needs the opt-in" : "does NOT fit"));
    if (r->levels_known) print_levels_table(r);
}

int cmd_eval(int argc, char **argv) {
    cli_problem_opts opts = {0};
    int json = 0;
    rl_error err = {0};
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            eval_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "json")) {
            json = 1;
            continue;
        }
        int r = cli_problem_flag(argc, argv, &i, &opts, &err);
        if (r < 0) return cli_error("eval", &err);
        if (r == 0)
            return cli_errorf("eval", "unknown argument \"%.*s\"; expected a flag from rooflab eval --help",
                              CLI_QUOTE(argv[i], 64));
    }
    const rl_hw *hw = NULL;
    rl_roof roof;
    if (cli_resolve_roof(&opts, &hw, &roof, &err) != RL_OK) return cli_error("eval", &err);
    rl_report report;
    if (rl_report_compute(&opts.problem, hw, roof, &report, &err) != RL_OK) {
        char msg[RL_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "--%.*s", (int)sizeof msg - 3, err.message);
        return cli_errorf("eval", "%s", msg);
    }
    rl_prediction pred;
    rl_error pred_err = {0};
    int have_pred = rl_predict(&opts.problem, hw, roof, &opts.kernel, &pred, &pred_err) == RL_OK;
    if (!have_pred && opts.kernel_given) return cli_error("eval", &pred_err);
    char note[RL_ERROR_MESSAGE_MAX];
    rl_model_shape_note(opts.model, &opts.problem, note, sizeof note);
    if (json) {
        print_json(&report, hw, have_pred ? &pred : NULL, &pred_err, note);
    } else {
        print_table(&report, hw);
        if (note[0]) printf("\nnote     %s\n", note);
        print_prediction_table(have_pred ? &pred : NULL, &pred_err, 1, &report.work.problem, hw);
    }
    return CLI_EXIT_OK;
}
