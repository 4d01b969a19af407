/* cmd_layer.c — `rooflab layer`: attention among the other operators of a decoder layer, and the
 * step they make (core's layer.c; MODEL.md "The layer"). Table or --json. */
#include <string.h>

#include "cli.h"

static void layer_help(FILE *out) {
    fputs("usage: rooflab layer --model ID [--phase decode|prefill] [--batch B] [--seq N]\n"
          "                     [--kv-len L] [--tp N] [--dtype T] [--kv-dtype T]\n"
          "                     [--weight-dtype T] [--hw PRESET] [--bandwidth RATE] [--peak RATE]\n"
          "                     [--json]\n\n"
          "Every operator of one decoder layer of a real model (norms, QKV and output projections,\n"
          "RoPE, the K/V cache append, attention, residual adds, the MLP or the experts) and, once\n"
          "per step, the embedding, final norm and LM head: FLOPs, bytes, intensity and bound time\n"
          "on one roofline; the step's time, each operator's share, and the context length where\n"
          "attention's time passes the weights'.\n\n"
          "  --model ID          a model with a layer shape (see rooflab models)\n"
          "  --phase P           decode (default: B sequences, one new token each, L cached keys)\n"
          "                      or prefill (N new tokens per sequence)\n"
          "  --batch B           sequences (default 1)\n"
          "  --seq N             prefill: tokens per sequence (default 4096)\n"
          "  --kv-len L          decode: cached keys (default 4096); prefill: keys (default N)\n"
          "  --tp N              tensor-parallel ranks, Megatron-style (default 1); the\n"
          "                      all-reduces are counted in bytes, not timed\n"
          "  --dtype T           activations: fp32 tf32 fp16 bf16 fp8 (default bf16)\n"
          "  --kv-dtype T        the K/V cache (default: --dtype)\n"
          "  --weight-dtype T    the layers' linear weights: fp32 fp16 bf16 fp8 fp4 (MXFP4)\n"
          "                      (default: --dtype); embedding, LM head, router, norms: --dtype\n"
          "  --hw PRESET         hardware preset (default " RL_DEFAULT_HW "; see rooflab hw)\n"
          "  --bandwidth RATE    override the memory bandwidth, e.g. \"3.35 TB/s\"\n"
          "  --peak RATE         override the tensor peak for --dtype, e.g. \"989 TFLOP/s\"\n"
          "  --json              operators[], step{}, crossover{} as JSON\n",
          out);
}

/* A JSON string through the CLI's one writer (cli_json_string: escapes and invisible characters). */
static void json_str(const char *s) { cli_json_string(stdout, s); }

static void print_json(const rl_layer_step *s, const rl_layer_crossover *x, const char *hw_id) {
    const rl_layer_request *r = &s->request;
    printf("{\n  \"model\": ");
    json_str(r->model->id);
    printf(",\n  \"phase\": \"%s\", \"batch\": %lld, \"seq\": %lld, \"kv_len\": %lld, \"tp\": %lld,\n",
           rl_phase_name(r->phase), (long long)r->batch, (long long)r->seq, (long long)r->kv_len,
           (long long)r->tp);
    printf("  \"dtype\": \"%s\", \"kv_dtype\": \"%s\", \"weight_dtype\": \"%s\", \"hw\": ",
           rl_dtype_name(r->dtype), rl_dtype_name(r->kv_dtype),
           r->weight_dtype ? rl_weight_dtype_name(r->weight_dtype) : rl_dtype_name(r->dtype));
    json_str(hw_id);
    printf(",\n  \"bandwidth_bytes_per_s\": %.17g, \"peak_flops_per_s\": %.17g, "
           "\"elementwise_peak_flops_per_s\": %.17g,\n",
           s->roof.bandwidth_bytes_per_s, s->roof.peak_flops_per_s,
           s->elementwise_peak_flops_per_s);
    printf("  \"gemm_tile\": [128, 256, 64],\n  \"operators\": [");
    for (size_t i = 0; i < s->op_count; i++) {
        const rl_layer_op *op = &s->ops[i];
        printf("%s\n    {\"name\": \"%s\", \"kind\": \"%s\", \"per_step\": %s, \"count\": %lld, ",
               i ? "," : "", op->name, rl_op_kind_name(op->kind), op->per_step ? "true" : "false",
               (long long)op->count);
        if (op->kind == RL_OP_GEMM)
            printf("\"gemm\": [%lld, %lld, %lld], ", (long long)op->gemm_m, (long long)op->gemm_n,
                   (long long)op->gemm_k);
        printf("\"flops\": %.17g, \"tile_flops\": %.17g, \"bytes\": %.17g, "
               "\"weight_bytes\": %.17g, \"act_in_bytes\": %.17g, \"act_out_bytes\": %.17g, "
               "\"kv_bytes\": %.17g, \"intensity_flop_per_byte\": %.17g, "
               "\"peak_flops_per_s\": %.17g, \"memory_time_s\": %.17g, \"compute_time_s\": %.17g, "
               "\"time_s\": %.17g, \"bound\": \"%s\", \"step_time_s\": %.17g, \"share\": %.17g}",
               op->flops, op->tile_flops, op->bytes, op->weight_bytes, op->act_in_bytes,
               op->act_out_bytes, op->kv_bytes, op->intensity_flop_per_byte, op->peak_flops_per_s,
               op->memory_time_s, op->compute_time_s, op->time_s, rl_bound_name(op->bound),
               op->step_time_s, op->share);
    }
    printf("\n  ],\n  \"step\": {\"time_s\": %.17g, \"layers\": %lld, \"layer_time_s\": %.17g, "
           "\"tokens\": %lld,\n    \"attention_time_s\": %.17g, \"attention_share\": %.17g, "
           "\"weights_time_s\": %.17g, \"weights_share\": %.17g,\n    \"flops\": %.17g, "
           "\"bytes\": %.17g, \"weight_bytes\": %.17g, \"kv_bytes\": %.17g, "
           "\"activation_bytes\": %.17g,\n    \"experts_touched\": %.17g, "
           "\"allreduce_bytes\": %.17g, \"allreduce_timed\": false, "
           "\"attention_predicted_time_s\": %.17g},\n",
           s->time_s, (long long)r->model->layer.layers, s->layer_time_s, (long long)s->tokens,
           s->attention_time_s, s->attention_share, s->weights_time_s, s->weights_share, s->flops,
           s->bytes, s->weight_bytes, s->kv_bytes, s->activation_bytes, s->experts_touched,
           s->allreduce_bytes, s->attention_predicted_time_s);
    printf("  \"crossover\": {\"varied\": \"%s\", \"found\": %s, \"value\": ", x->varied,
           x->found ? "true" : "false");
    if (x->found) printf("%lld", (long long)x->value);
    else printf("null");
    printf(", \"at_minimum\": %s},\n  \"note\": ", x->at_minimum ? "true" : "false");
    if (s->note[0]) json_str(s->note);
    else printf("null");
    printf("\n}\n");
}

static void qty(double v, rl_dim dim, char *buf, size_t cap) {
    if (v <= 0) {
        snprintf(buf, cap, "0");
        return;
    }
    rl_format_quantity(v, dim, RL_PREFIX_SI, 4, buf, cap);
}

static void print_table(const rl_layer_step *s, const rl_layer_crossover *x, const char *hw_id) {
    const rl_layer_request *r = &s->request;
    const rl_model_shape *m = r->model;
    char a[32], b[32], c[32], e[32];
    printf("%s %s: B = %lld, N = %lld, L = %lld, tp = %lld, %s activations, %s K/V, %s weights, "
           "on %s\n",
           m->id, rl_phase_name(r->phase), (long long)r->batch, (long long)r->seq,
           (long long)r->kv_len, (long long)r->tp, rl_dtype_name(r->dtype),
           rl_dtype_name(r->kv_dtype),
           r->weight_dtype ? rl_weight_dtype_name(r->weight_dtype) : rl_dtype_name(r->dtype), hw_id);
    printf("\n%-18s %6s %11s %11s %9s %11s %8s %7s\n", "operator", "count", "FLOP", "bytes",
           "FLOP/B", "time", "bound", "share");
    for (size_t i = 0; i < s->op_count; i++) {
        const rl_layer_op *op = &s->ops[i];
        qty(op->flops, RL_DIM_FLOP, a, sizeof a);
        qty(op->bytes, RL_DIM_BYTES, b, sizeof b);
        qty(op->time_s, RL_DIM_SECONDS, c, sizeof c);
        printf("%-18s %6lld %11s %11s %9.3g %11s %8s %6.2f%%\n", op->name, (long long)op->count, a, b,
               op->intensity_flop_per_byte, c, rl_bound_name(op->bound), 100 * op->share);
    }
    qty(s->time_s, RL_DIM_SECONDS, a, sizeof a);
    qty(s->layer_time_s, RL_DIM_SECONDS, b, sizeof b);
    printf("\nstep: %s (%lld layers, %s each on average)\n", a, (long long)m->layer.layers, b);
    qty(s->weight_bytes, RL_DIM_BYTES, a, sizeof a);
    qty(s->kv_bytes, RL_DIM_BYTES, b, sizeof b);
    qty(s->activation_bytes, RL_DIM_BYTES, c, sizeof c);
    qty(s->bytes, RL_DIM_BYTES, e, sizeof e);
    printf("bytes: %s weights, %s K/V cache, %s activations (%s in all)\n", a, b, c, e);
    printf("attention %.1f%% of the step, weight-reading operators %.1f%%\n",
           100 * s->attention_share, 100 * s->weights_share);
    /* Attention per layer kind: the global layers and the local ones (window or chunk). */
    printf("attention by layer kind:");
    int kinds = 0;
    for (size_t i = 0; i < s->op_count; i++) {
        const rl_layer_op *op = &s->ops[i];
        if (op->kind != RL_OP_ATTENTION) continue;
        char what[48] = "global";
        if (strcmp(op->name, "attention_local") == 0)
            snprintf(what, sizeof what, "local, window %lld", (long long)m->sliding_window);
        else if (strcmp(op->name, "indexer") == 0)
            snprintf(what, sizeof what, "global, top-k indexer");
        else if (strcmp(op->name, "attention_chunked") == 0)
            snprintf(what, sizeof what, "local, chunk %lld", (long long)m->chunk);
        qty(op->time_s, RL_DIM_SECONDS, a, sizeof a);
        qty(op->step_time_s, RL_DIM_SECONDS, b, sizeof b);
        printf("%s %lld %s x %s = %s", kinds++ ? " +" : "", (long long)op->count, what, a, b);
    }
    qty(s->attention_time_s, RL_DIM_SECONDS, a, sizeof a);
    printf(kinds > 1 ? " (%s in all)\n" : "\n", a);
    if (x->found && x->at_minimum)
        printf("crossover: attention already passes the weights at %s = 1\n", x->varied);
    else if (x->found)
        printf("crossover: attention passes the weights at %s = %lld\n", x->varied,
               (long long)x->value);
    else
        printf("crossover: attention stays below the weights up to %s = %lld\n", x->varied,
               (long long)RL_MAX_DIM);
    if (s->experts_touched > 0)
        printf("experts: %.2f of %lld touched per layer on average (%lld tokens, top-%lld)\n",
               s->experts_touched, (long long)m->layer.experts, (long long)s->tokens,
               (long long)m->layer.experts_active);
    if (r->tp > 1) {
        qty(s->allreduce_bytes, RL_DIM_BYTES, a, sizeof a);
        printf("tensor parallel: %lld ranks, figures per rank; the all-reduces (%s per rank per "
               "step) are not timed\n",
               (long long)r->tp, a);
    }
    if (s->note[0]) printf("note: %s\n", s->note);
}

int cmd_layer(int argc, char **argv) {
    rl_layer_request req = {0};
    const char *hw_id = NULL, *bandwidth = NULL, *peak = NULL;
    int json = 0;
    rl_error err;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        const char *flag = argv[i];
        if (cli_is_help(flag)) {
            layer_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(flag, "json")) {
            json = 1;
            continue;
        }
#define MISSING(name, what)                                                                        \
    if (!v) return cli_errorf("layer", "--%s: missing value; expected %s", name, what)
        if (cli_flag(argc, argv, &i, "model", &v)) {
            MISSING("model", "a model id (see rooflab models)");
            if (req.model) return cli_errorf("layer", "--model: given twice");
            if (rl_model_shape_lookup(v, "--model", &req.model, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "phase", &v)) {
            MISSING("phase", "prefill or decode");
            if (rl_phase_parse(v, "--phase", &req.phase, &err) != RL_OK) return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "batch", &v)) {
            MISSING("batch", "an integer from 1");
            if (cli_parse_int("batch", v, 1, RL_MAX_DIM, &req.batch, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "seq", &v)) {
            MISSING("seq", "an integer from 1");
            if (cli_parse_int("seq", v, 1, RL_MAX_DIM, &req.seq, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "kv-len", &v)) {
            MISSING("kv-len", "an integer from 1");
            if (cli_parse_int("kv-len", v, 1, RL_MAX_DIM, &req.kv_len, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "tp", &v)) {
            MISSING("tp", "an integer from 1 to 1024");
            if (cli_parse_int("tp", v, 1, 1024, &req.tp, &err) != RL_OK) return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "dtype", &v)) {
            MISSING("dtype", "one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8");
            if (rl_dtype_parse(v, "--dtype", &req.dtype, &err) != RL_OK) return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "kv-dtype", &v)) {
            MISSING("kv-dtype", "one of fp32, tf32, fp16, bf16, fp8, nvfp4, mxfp4, mxfp8");
            if (rl_dtype_parse(v, "--kv-dtype", &req.kv_dtype, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "weight-dtype", &v)) {
            MISSING("weight-dtype", "one of fp32, fp16, bf16, fp8, fp4");
            if (rl_weight_dtype_parse(v, "--weight-dtype", &req.weight_dtype, &err) != RL_OK)
                return cli_error("layer", &err);
        } else if (cli_flag(argc, argv, &i, "hw", &v)) {
            MISSING("hw", "a preset id (see rooflab hw)");
            if (rl_hw_lookup(v, "--hw", NULL, &err) != RL_OK) return cli_error("layer", &err);
            hw_id = v;
        } else if (cli_flag(argc, argv, &i, "bandwidth", &v)) {
            MISSING("bandwidth", "a rate such as \"3.35 TB/s\"");
            if (rl_parse_quantity(v, RL_DIM_BYTES_PER_S, "--bandwidth", NULL, NULL, &err) != RL_OK)
                return cli_error("layer", &err);
            bandwidth = v;
        } else if (cli_flag(argc, argv, &i, "peak", &v)) {
            MISSING("peak", "a rate such as \"989 TFLOP/s\"");
            if (rl_parse_quantity(v, RL_DIM_FLOPS_PER_S, "--peak", NULL, NULL, &err) != RL_OK)
                return cli_error("layer", &err);
            peak = v;
        } else {
            return cli_errorf("layer",
                              "unknown argument \"%.*s\"; expected --model, --phase, --batch, "
                              "--seq, --kv-len, --tp, --dtype, --kv-dtype, --weight-dtype, --hw, "
                              "--bandwidth, --peak or --json (see rooflab layer --help)",
                              CLI_QUOTE(flag, 64));
        }
#undef MISSING
    }
    if (!req.model) return cli_errorf("layer", "--model: missing; expected a model id (see rooflab models)");
    rl_roof_request rr = {hw_id, req.dtype ? req.dtype : RL_DTYPE_BF16, bandwidth, peak};
    rl_roof_resolved roof;
    if (rl_roof_resolve(&rr, &roof, &err) != RL_OK) {
        char msg[RL_ERROR_MESSAGE_MAX + 4];
        snprintf(msg, sizeof msg, "--%s", err.message);
        return cli_errorf("layer", "%s", msg);
    }
    rl_layer_step step;
    rl_layer_crossover cross;
    if (rl_layer_step_compute(&req, roof.hw, roof.roof, &step, &err) != RL_OK ||
        rl_layer_crossover_find(&req, roof.hw, roof.roof, &cross, &err) != RL_OK) {
        char msg[RL_ERROR_MESSAGE_MAX + 4];
        snprintf(msg, sizeof msg, "--%s", err.message);
        return cli_errorf("layer", "%s", msg);
    }
    const char *hw_name = roof.hw ? roof.hw->id : RL_DEFAULT_HW;
    if (json) print_json(&step, &cross, hw_name);
    else print_table(&step, &cross, hw_name);
    return CLI_EXIT_OK;
}
