/* cmd_eval.c — `rooflab eval`: one problem on one roofline, as a table or one JSON object
 * (DESIGN.md "Contracts"). Every number comes from core's rl_report_compute. */
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

static void print_json(const rl_report *r, const rl_hw *hw) {
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
    fprintf(o,
            ",\n  \"hw\": \"%s\",\n  \"problem\": {\"batch\": %lld, \"heads\": %lld, \"kv_heads\": "
            "%lld, \"seq\": %lld, \"kv_len\": %lld, \"head_dim\": %lld, \"dtype\": \"%s\", "
            "\"kv_dtype\": \"%s\", \"causal\": %s, \"pass\": \"%s\", \"block_m\": %lld, "
            "\"block_n\": %lld},\n",
            hw->id, (long long)p->batch, (long long)p->heads, (long long)p->kv_heads,
            (long long)p->seq, (long long)p->kv_len, (long long)p->head_dim,
            rl_dtype_name(p->dtype), rl_dtype_name(p->kv_dtype), p->causal ? "true" : "false",
            rl_pass_name(p->pass), (long long)p->block_m, (long long)p->block_n);
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
        fputs("}", o);
        if (m == RL_MODEL_TILED) {
            fputs(", \"kv_reload_factor\": ", o);
            json_num(o, t->kv_reload_factor);
            fputs(", \"query_blocks\": ", o);
            json_num(o, t->query_blocks);
        }
        fputs("}", o);
    }
    fputs("\n  },\n", o);
    if (p->pass == RL_PASS_BWD)
        fputs("  \"unmodelled\": {\"tiled\": \"no tiled backward traffic model yet\", \"naive\": "
              "\"no naive backward traffic model yet\"},\n",
              o);
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

static void print_table(const rl_report *r, const rl_hw *hw) {
    const rl_workload *w = &r->work;
    const rl_problem *p = &w->problem;
    char a[128], b[64], c[64], d[64];
    printf("problem  B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld  %s (K/V %s)  %s  %s  tile %lldx%lld\n",
           (long long)p->batch, (long long)p->heads, (long long)p->kv_heads, (long long)p->seq,
           (long long)p->kv_len, (long long)p->head_dim, rl_dtype_name(p->dtype),
           rl_dtype_name(p->kv_dtype), p->causal ? "causal" : "non-causal", rl_pass_name(p->pass),
           (long long)p->block_m, (long long)p->block_n);
    rl_format_quantity(r->roof.bandwidth_bytes_per_s, RL_DIM_BYTES_PER_S, RL_PREFIX_SI, 4, a, sizeof a);
    rl_format_quantity(r->roof.peak_flops_per_s, RL_DIM_FLOPS_PER_S, RL_PREFIX_SI, 4, b, sizeof b);
    printf("roof     %s (%s): bandwidth %s, peak %s -> ridge %.4g FLOP/B\n", hw->id, hw->name, a, b,
           r->ridge_flop_per_byte);
    rl_format_quantity(w->flops, RL_DIM_FLOP, RL_PREFIX_SI, 4, a, sizeof a);
    rl_format_quantity(w->softmax_flops, RL_DIM_FLOP, RL_PREFIX_SI, 4, b, sizeof b);
    printf("work     %.17g scored pairs; F = %s%s (%.17g FLOP); softmax %s reported apart\n\n",
           w->pairs, a, p->pass == RL_PASS_BWD ? " = 2.5 x forward" : " = 4*B*H*d*pairs", w->flops, b);
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
        printf("\ntiled    %.17g query block(s) of %lld rows; each (batch, query head) loads %.17g K and V rows = "
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
            return cli_errorf("eval", "unknown argument \"%.64s\"; expected a flag from rooflab eval --help",
                              argv[i]);
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
    if (json)
        print_json(&report, hw);
    else
        print_table(&report, hw);
    return CLI_EXIT_OK;
}
