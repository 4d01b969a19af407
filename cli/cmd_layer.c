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

/* The JSON of `rooflab layer` (cli/json_out.c, the CLI's one writer). */
static void print_op_json(cli_json *j, size_t i, const rl_layer_op *op) {
    cli_json_at(j, "operators.%zu.", i);
    cli_json_str(j, "name", op->name);
    cli_json_str(j, "kind", rl_op_kind_name(op->kind));
    cli_json_bool(j, "per_step", op->per_step != 0);
    cli_json_int(j, "count", op->count);
    if (op->kind == RL_OP_GEMM) {
        cli_json_int(j, "gemm.0", op->gemm_m);
        cli_json_int(j, "gemm.1", op->gemm_n);
        cli_json_int(j, "gemm.2", op->gemm_k);
    }
    cli_json_num(j, "flops", op->flops);
    cli_json_num(j, "tile_flops", op->tile_flops);
    cli_json_num(j, "bytes", op->bytes);
    cli_json_num(j, "weight_bytes", op->weight_bytes);
    cli_json_num(j, "act_in_bytes", op->act_in_bytes);
    cli_json_num(j, "act_out_bytes", op->act_out_bytes);
    cli_json_num(j, "kv_bytes", op->kv_bytes);
    cli_json_num(j, "intensity_flop_per_byte", op->intensity_flop_per_byte);
    cli_json_num(j, "peak_flops_per_s", op->peak_flops_per_s);
    cli_json_num(j, "memory_time_s", op->memory_time_s);
    cli_json_num(j, "compute_time_s", op->compute_time_s);
    cli_json_num(j, "time_s", op->time_s);
    cli_json_str(j, "bound", rl_bound_name(op->bound));
    cli_json_num(j, "step_time_s", op->step_time_s);
    cli_json_num(j, "share", op->share);
}

static void print_json(const rl_layer_step *s, const rl_layer_crossover *x, const char *hw_id) {
    const rl_layer_request *r = &s->request;
    static const int gemm_tile[] = {128, 256, 64}; /* the GEMM tile of core's layer model */
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "model", r->model->id);
    cli_json_str(&j, "phase", rl_phase_name(r->phase));
    cli_json_int(&j, "batch", r->batch);
    cli_json_int(&j, "seq", r->seq);
    cli_json_int(&j, "kv_len", r->kv_len);
    cli_json_int(&j, "tp", r->tp);
    cli_json_str(&j, "dtype", rl_dtype_name(r->dtype));
    cli_json_str(&j, "kv_dtype", rl_dtype_name(r->kv_dtype));
    cli_json_str(&j, "weight_dtype",
                 r->weight_dtype ? rl_weight_dtype_name(r->weight_dtype) : rl_dtype_name(r->dtype));
    cli_json_str(&j, "hw", hw_id);
    cli_json_num(&j, "bandwidth_bytes_per_s", s->roof.bandwidth_bytes_per_s);
    cli_json_num(&j, "peak_flops_per_s", s->roof.peak_flops_per_s);
    cli_json_num(&j, "elementwise_peak_flops_per_s", s->elementwise_peak_flops_per_s);
    for (int k = 0; k < 3; k++) {
        char path[16];
        snprintf(path, sizeof path, "gemm_tile.%d", k);
        cli_json_int(&j, path, gemm_tile[k]);
    }
    for (size_t i = 0; i < s->op_count; i++) print_op_json(&j, i, &s->ops[i]);
    cli_json_at(&j, "step.");
    cli_json_num(&j, "time_s", s->time_s);
    cli_json_int(&j, "layers", r->model->layer.layers);
    cli_json_num(&j, "layer_time_s", s->layer_time_s);
    cli_json_int(&j, "tokens", s->tokens);
    cli_json_num(&j, "attention_time_s", s->attention_time_s);
    cli_json_num(&j, "attention_share", s->attention_share);
    cli_json_num(&j, "weights_time_s", s->weights_time_s);
    cli_json_num(&j, "weights_share", s->weights_share);
    cli_json_num(&j, "flops", s->flops);
    cli_json_num(&j, "bytes", s->bytes);
    cli_json_num(&j, "weight_bytes", s->weight_bytes);
    cli_json_num(&j, "kv_bytes", s->kv_bytes);
    cli_json_num(&j, "activation_bytes", s->activation_bytes);
    cli_json_num(&j, "experts_touched", s->experts_touched);
    cli_json_num(&j, "allreduce_bytes", s->allreduce_bytes);
    cli_json_bool(&j, "allreduce_timed", 0);
    cli_json_num(&j, "attention_predicted_time_s", s->attention_predicted_time_s);
    cli_json_at(&j, "crossover.");
    cli_json_str(&j, "varied", x->varied);
    cli_json_bool(&j, "found", x->found);
    if (x->found) cli_json_int(&j, "value", x->value);
    else cli_json_null(&j, "value");
    cli_json_bool(&j, "at_minimum", x->at_minimum);
    cli_json_at(&j, "%s", "");
    cli_json_str(&j, "note", s->note[0] ? s->note : NULL);
    cli_json_end(&j);
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

/* The shared flags layer reads (cli/args.c parses them, with core's field table); the others it
 * does not know. Its own: --phase, --tp, --weight-dtype, --json. */
static const cli_flag_set layer_uses = CLI_SF(CLI_SF_MODEL) | CLI_SF(RL_FIELD_BATCH) |
                                       CLI_SF(RL_FIELD_SEQ) | CLI_SF(RL_FIELD_KV_LEN) |
                                       CLI_SF(RL_FIELD_DTYPE) | CLI_SF(RL_FIELD_KV_DTYPE) | CLI_SF_ROOF;

/* 1 when argv[*i] was layer's own flag (parsed into req), 0 when not one, -1 with err. */
static int own_flag(int argc, char **argv, int *i, rl_layer_request *req, rl_error *err) {
    const char *v = NULL;
    if (cli_flag(argc, argv, i, "phase", &v)) {
        if (!v) return rl_error_fail(err, RL_ERR_INVALID, "--phase", "missing value; expected prefill or decode"), -1;
        return rl_phase_parse(v, "--phase", &req->phase, err) == RL_OK ? 1 : -1;
    }
    if (cli_flag(argc, argv, i, "tp", &v)) {
        if (!v) return rl_error_fail(err, RL_ERR_INVALID, "--tp", "missing value; expected an integer from 1 to 1024"), -1;
        return cli_parse_int("tp", v, 1, 1024, &req->tp, err) == RL_OK ? 1 : -1;
    }
    if (cli_flag(argc, argv, i, "weight-dtype", &v)) {
        if (!v) return rl_error_fail(err, RL_ERR_INVALID, "--weight-dtype", "missing value; expected one of fp32, fp16, bf16, fp8, fp4"), -1;
        return rl_weight_dtype_parse(v, "--weight-dtype", &req->weight_dtype, err) == RL_OK ? 1 : -1;
    }
    return 0;
}

int cmd_layer(int argc, char **argv) {
    rl_layer_request req = {0};
    cli_problem_opts opts = {0};
    int json = 0;
    rl_error err;
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (cli_is_help(flag)) {
            layer_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(flag, "json")) {
            json = 1;
            continue;
        }
        int id = cli_shared_flag_find(flag);
        int r = id >= 0 && (layer_uses & CLI_SF(id)) ? cli_problem_flag(argc, argv, &i, &opts, &err)
                                                      : own_flag(argc, argv, &i, &req, &err);
        if (r < 0) return cli_error("layer", &err);
        if (r == 0)
            return cli_errorf("layer",
                              "unknown argument \"%.*s\"; expected --model, --phase, --batch, "
                              "--seq, --kv-len, --tp, --dtype, --kv-dtype, --weight-dtype, --hw, "
                              "--bandwidth, --peak or --json (see rooflab layer --help)",
                              CLI_QUOTE(flag, 64));
    }
    req.model = opts.model;
    req.batch = opts.problem.batch;
    req.seq = opts.problem.seq;
    req.kv_len = opts.problem.kv_len;
    req.dtype = opts.problem.dtype;
    req.kv_dtype = opts.problem.kv_dtype;
    const char *hw_id = opts.hw_id, *bandwidth = opts.bandwidth, *peak = opts.peak;
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
