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

/* A JSON string through the CLI's one writer (cli_json_string: escapes and invisible characters). */
static void json_str(const char *s) { cli_json_string(stdout, s); }

/* The whole layer (rooflab layer): null for the models whose attention is refused. */
static void print_layer_json(const rl_model_shape *m) {
    const rl_layer_shape *l = &m->layer;
    if (m->unsupported || l->hidden == 0) {
        printf(", \"layer\": null, \"layer_kinds\": null");
        return;
    }
    printf(",\n   \"layer\": {\"hidden_size\": %lld, \"intermediate_size\": %lld, \"layers\": %lld, "
           "\"vocab_size\": %lld, \"experts\": %lld, \"experts_active\": %lld, "
           "\"expert_intermediate_size\": %lld, \"shared_experts\": %lld, \"norm\": \"%s\", "
           "\"activation\": \"%s\", \"local_layers\": %lld, \"global_layers\": %lld, "
           "\"norms_per_layer\": %d, \"qk_norm\": %s, \"rope\": %s, \"source\": ",
           (long long)l->hidden, (long long)l->intermediate, (long long)l->layers,
           (long long)l->vocab, (long long)l->experts, (long long)l->experts_active,
           (long long)l->expert_intermediate, (long long)l->shared_experts,
           rl_norm_kind_name(l->norm), rl_act_kind_name(l->act), (long long)l->local_layers,
           (long long)(l->layers - l->local_layers), l->norms_per_layer,
           l->qk_norm ? "true" : "false", l->rope ? "true" : "false");
    json_str(l->source);
    printf(", \"fields\": ");
    json_str(l->fields);
    printf(", \"dense_layers\": %lld, \"q_lora_rank\": %lld, \"nope_global\": %s}",
           (long long)(l->experts > 0 ? l->dense_layers : l->layers), (long long)l->q_lora_rank,
           l->nope_global ? "true" : "false");
    /* The layer kinds and their counts: local (window or chunk) and global. */
    printf(",\n   \"layer_kinds\": [");
    int first = 1;
    if (l->local_layers > 0) {
        printf("{\"kind\": \"local\", \"layers\": %lld, \"window\": ", (long long)l->local_layers);
        if (m->sliding_window > 0) printf("%lld", (long long)m->sliding_window);
        else printf("null");
        printf(", \"chunk\": ");
        if (m->chunk > 0) printf("%lld", (long long)m->chunk);
        else printf("null");
        printf(", \"rope\": %s}", l->rope ? "true" : "false");
        first = 0;
    }
    if (l->layers > l->local_layers)
        printf("%s{\"kind\": \"global\", \"layers\": %lld, \"window\": null, \"chunk\": null, "
               "\"rope\": %s}",
               first ? "" : ", ", (long long)(l->layers - l->local_layers),
               l->rope && !l->nope_global ? "true" : "false");
    printf("]");
}

static void print_json(void) {
    printf("[");
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        printf("%s\n  {\"id\": ", i ? "," : "");
        json_str(m->id);
        printf(", \"name\": ");
        json_str(m->name);
        if (m->unsupported) {
            printf(", \"heads\": null, \"kv_heads\": null, \"head_dim\": null, "
                   "\"sliding_window\": null, \"unsupported\": ");
            json_str(m->unsupported);
        } else {
            printf(", \"heads\": %lld, \"kv_heads\": %lld, \"head_dim\": %lld, \"sliding_window\": ",
                   (long long)m->heads, (long long)m->kv_heads, (long long)m->head_dim);
            if (m->sliding_window) printf("%lld", (long long)m->sliding_window);
            else printf("null");
            printf(", \"unsupported\": null");
        }
        printf(", \"head_dim_v\": ");
        if (!m->unsupported) printf("%lld", (long long)(m->head_dim_v ? m->head_dim_v : m->head_dim));
        else printf("null");
        printf(", \"kv_lora_rank\": ");
        if (m->kv_lora_rank) printf("%lld", (long long)m->kv_lora_rank);
        else printf("null");
        printf(", \"rope_dim\": ");
        if (m->rope_dim) printf("%lld", (long long)m->rope_dim);
        else printf("null");
        printf(", \"chunk\": ");
        if (m->chunk) printf("%lld", (long long)m->chunk);
        else printf("null");
        printf(", \"sink_logit\": %s", m->sink_logit ? "true" : "false");
        printf(", \"topk\": ");
        if (m->topk) printf("%lld", (long long)m->topk);
        else printf("null");
        printf(", \"source\": ");
        json_str(m->source);
        printf(", \"fields\": ");
        json_str(m->fields);
        print_layer_json(m);
        printf("}");
    }
    printf("\n]\n");
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
