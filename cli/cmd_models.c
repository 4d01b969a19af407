/* cmd_models.c — `rooflab models [--json]`: real attention shapes with their sources, their layer
 * kinds (local: window or chunk; global) and counts, and the models whose attention rooflab cannot
 * describe, with the reason (core's table, models.c). */
#include <string.h>

#include "cli.h"

static void models_help(FILE *out) {
    fputs("usage: rooflab models [--json]\n\n"
          "Lists real attention shapes (query heads H, KV heads HKV, head dim D, value head dim\n"
          "DV, local attention: a sliding window W or a chunk C) with the published configuration\n"
          "each was copied from, and each model's layer kinds: local layers (window or chunk) and\n"
          "global ones, with their counts. MLA models (DeepSeek, Kimi K2) list their latent: decode\n"
          "runs absorbed (H query heads on one kv-lora-rank + rope-dim latent), prefill in the MHA\n"
          "form (D 192, DV 128). `rooflab eval|sweep|tune --model ID` sets --heads, --kv-heads and\n"
          "--head-dim (MLA: --kv-lora-rank and --rope-dim when --seq is 1 to 16, else --head-dim-v);\n"
          "flags typed before or after it win. Models whose attention cannot be described are\n"
          "listed with the reason and refused by --model. Each shape also lists its whole layer\n"
          "(hidden and intermediate sizes, layers, vocabulary, experts, norm, activation) from its\n"
          "config.json, for `rooflab layer`, which applies the windows and chunks per layer kind.\n",
          out);
}

/* The local layers' kind in words: "sliding window 1024", "chunk 8192"; "" when none. */
static void local_kind(const rl_model_shape *m, char *buf, size_t cap) {
    buf[0] = '\0';
    if (m->layer.local_layers <= 0) return;
    if (m->sliding_window > 0) snprintf(buf, cap, "sliding window %lld", (long long)m->sliding_window);
    else if (m->chunk > 0) snprintf(buf, cap, "chunk %lld", (long long)m->chunk);
}

/* The whole layer (rooflab layer): null for the models whose attention is refused. Paths are
 * under the model's element (cli_json_at). */
static void print_layer_json(cli_json *j, const rl_model_shape *m) {
    const rl_layer_shape *l = &m->layer;
    if (m->unsupported || l->hidden == 0) {
        cli_json_null(j, "layer");
        cli_json_null(j, "layer_kinds");
        return;
    }
    cli_json_int(j, "layer.hidden_size", l->hidden);
    cli_json_int(j, "layer.intermediate_size", l->intermediate);
    cli_json_int(j, "layer.layers", l->layers);
    cli_json_int(j, "layer.vocab_size", l->vocab);
    cli_json_int(j, "layer.experts", l->experts);
    cli_json_int(j, "layer.experts_active", l->experts_active);
    cli_json_int(j, "layer.expert_intermediate_size", l->expert_intermediate);
    cli_json_int(j, "layer.shared_experts", l->shared_experts);
    cli_json_str(j, "layer.norm", rl_norm_kind_name(l->norm));
    cli_json_str(j, "layer.activation", rl_act_kind_name(l->act));
    cli_json_int(j, "layer.local_layers", l->local_layers);
    cli_json_int(j, "layer.global_layers", l->layers - l->local_layers);
    cli_json_int(j, "layer.norms_per_layer", l->norms_per_layer);
    cli_json_bool(j, "layer.qk_norm", l->qk_norm);
    cli_json_bool(j, "layer.rope", l->rope);
    cli_json_str(j, "layer.source", l->source);
    cli_json_str(j, "layer.fields", l->fields);
    cli_json_int(j, "layer.dense_layers", l->experts > 0 ? l->dense_layers : l->layers);
    cli_json_int(j, "layer.q_lora_rank", l->q_lora_rank);
    cli_json_bool(j, "layer.nope_global", l->nope_global);
    /* The layer kinds and their counts: local (window or chunk) and global. */
    int k = 0;
    char base[CLI_JSON_NAME];
    snprintf(base, sizeof base, "%s", j->at);
    if (l->local_layers > 0) {
        cli_json_at(j, "%slayer_kinds.%d.", base, k++);
        cli_json_str(j, "kind", "local");
        cli_json_int(j, "layers", l->local_layers);
        cli_json_int_pos(j, "window", m->sliding_window);
        cli_json_int_pos(j, "chunk", m->chunk);
        cli_json_bool(j, "rope", l->rope);
    }
    if (l->layers > l->local_layers) {
        cli_json_at(j, "%slayer_kinds.%d.", base, k++);
        cli_json_str(j, "kind", "global");
        cli_json_int(j, "layers", l->layers - l->local_layers);
        cli_json_null(j, "window");
        cli_json_null(j, "chunk");
        cli_json_bool(j, "rope", l->rope && !l->nope_global);
    }
    cli_json_at(j, "%s", base);
}

/* Every model as an element of the root array (cli/json_out.c, the CLI's one JSON writer). */
static void print_json(void) {
    cli_json j;
    cli_json_begin_array(&j, stdout);
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        cli_json_at(&j, "%zu.", i);
        cli_json_str(&j, "id", m->id);
        cli_json_str(&j, "name", m->name);
        if (m->unsupported) {
            cli_json_null(&j, "heads");
            cli_json_null(&j, "kv_heads");
            cli_json_null(&j, "head_dim");
            cli_json_null(&j, "sliding_window");
            cli_json_str(&j, "unsupported", m->unsupported);
            cli_json_null(&j, "head_dim_v");
        } else {
            cli_json_int(&j, "heads", m->heads);
            cli_json_int(&j, "kv_heads", m->kv_heads);
            cli_json_int(&j, "head_dim", m->head_dim);
            cli_json_int_pos(&j, "sliding_window", m->sliding_window);
            cli_json_null(&j, "unsupported");
            cli_json_int(&j, "head_dim_v", m->head_dim_v ? m->head_dim_v : m->head_dim);
        }
        cli_json_int_pos(&j, "kv_lora_rank", m->kv_lora_rank);
        cli_json_int_pos(&j, "rope_dim", m->rope_dim);
        cli_json_int_pos(&j, "chunk", m->chunk);
        cli_json_bool(&j, "sink_logit", m->sink_logit);
        cli_json_int_pos(&j, "topk", m->topk);
        cli_json_str(&j, "source", m->source);
        cli_json_str(&j, "fields", m->fields);
        print_layer_json(&j, m);
    }
    cli_json_end(&j);
}

static void print_table(void) {
    printf("%-21s %4s %4s %4s %4s %6s  %s\n", "id", "H", "HKV", "D", "DV", "local", "source");
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        if (m->unsupported) continue;
        char win[24] = "-";
        if (m->sliding_window) snprintf(win, sizeof win, "W%lld", (long long)m->sliding_window);
        else if (m->chunk) snprintf(win, sizeof win, "C%lld", (long long)m->chunk);
        printf("%-21s %4lld %4lld %4lld %4lld %6s  %s\n", m->id, (long long)m->heads,
               (long long)m->kv_heads, (long long)m->head_dim,
               (long long)(m->head_dim_v ? m->head_dim_v : m->head_dim), win, m->name);
        printf("%-21s   from %s: %s\n", "", m->source, m->fields);
        if (m->kv_lora_rank)
            printf("%-21s   MLA: prefill as above (MHA form); decode absorbed: %lld query heads on "
                   "one latent of %lld + %lld rope = d_qk %lld, d_v %lld\n",
                   "", (long long)m->heads, (long long)m->kv_lora_rank, (long long)m->rope_dim,
                   (long long)(m->kv_lora_rank + m->rope_dim), (long long)m->kv_lora_rank);
        if (m->sink_logit)
            printf("%-21s   a learned sink logit per head: one more exp per row, no bytes\n", "");
        const rl_layer_shape *l = &m->layer;
        if (l->hidden == 0) continue;
        char kind[48];
        local_kind(m, kind, sizeof kind);
        char mix[128] = "all layers global";
        if (l->local_layers && l->local_layers < l->layers)
            snprintf(mix, sizeof mix, "%lld local (%s) + %lld global%s", (long long)l->local_layers,
                     kind, (long long)(l->layers - l->local_layers),
                     l->nope_global ? " (NoPE)" : "");
        else if (l->local_layers)
            snprintf(mix, sizeof mix, "all %lld layers local (%s)", (long long)l->local_layers, kind);
        printf("%-21s   layers: %s\n", "", mix);
        char moe[160] = "dense";
        if (l->experts) {
            int n = snprintf(moe, sizeof moe, "MoE %lld experts, top-%lld, expert I %lld, %lld shared",
                             (long long)l->experts, (long long)l->experts_active,
                             (long long)l->expert_intermediate, (long long)l->shared_experts);
            if (l->dense_layers > 0 && n > 0 && (size_t)n < sizeof moe)
                snprintf(moe + n, sizeof moe - (size_t)n, "; %lld dense layers (I %lld)",
                         (long long)l->dense_layers, (long long)l->intermediate);
        }
        printf("%-21s   layer: h %lld, I %lld, %lld layers, V %lld, %s, %s, %s\n", "",
               (long long)l->hidden, (long long)l->intermediate, (long long)l->layers,
               (long long)l->vocab, moe, rl_norm_kind_name(l->norm), rl_act_kind_name(l->act));
        printf("%-21s   from %s: %s\n", "", l->source, l->fields);
    }
    printf("\nnot described (refused by --model):\n");
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        if (m->unsupported) printf("  %-16s %s (%s)\n", m->id, m->unsupported, m->source);
    }
}

int cmd_models(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            models_help(stdout);
            return CLI_EXIT_OK;
        }
        if (cli_is_switch(argv[i], "json")) {
            json = 1;
            continue;
        }
        return cli_errorf("models", "unknown argument \"%.*s\"; expected --json", CLI_QUOTE(argv[i], 64));
    }
    if (json) print_json();
    else print_table();
    return CLI_EXIT_OK;
}
