/* cmd_models.c — `rooflab models [--json]`: real attention shapes with their sources, and the
 * models whose attention rooflab cannot describe, with the reason (core's table, models.c). */
#include <string.h>

#include "cli.h"

static void models_help(FILE *out) {
    fputs("usage: rooflab models [--json]\n\n"
          "Lists real attention shapes (query heads H, KV heads HKV, head dim D, sliding window)\n"
          "with the published configuration each was copied from. `rooflab eval|sweep|tune\n"
          "--model ID` sets --heads, --kv-heads and --head-dim; flags typed before or after it\n"
          "win. Models whose attention cannot be described (multi-head latent attention) are\n"
          "listed with the reason and refused by --model. Each shape also lists its whole layer\n"
          "(hidden and intermediate sizes, layers, vocabulary, experts, norm, activation, the\n"
          "local/global attention mix) from its config.json, for `rooflab layer`.\n",
          out);
}

/* A JSON string through the CLI's one writer (cli_json_string: escapes and invisible characters). */
static void json_str(const char *s) { cli_json_string(stdout, s); }

/* The whole layer (rooflab layer): null for the models whose attention is refused. */
static void print_layer_json(const rl_model_shape *m) {
    const rl_layer_shape *l = &m->layer;
    if (m->unsupported || l->hidden == 0) {
        printf(", \"layer\": null");
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
    printf("}");
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
    printf("%-16s %5s %5s %5s %7s  %s\n", "id", "H", "HKV", "D", "window", "source");
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        if (m->unsupported) continue;
        char win[24] = "-";
        if (m->sliding_window) snprintf(win, sizeof win, "%lld", (long long)m->sliding_window);
        printf("%-16s %5lld %5lld %5lld %7s  %s\n", m->id, (long long)m->heads,
               (long long)m->kv_heads, (long long)m->head_dim, win, m->name);
        printf("%-16s   from %s: %s\n", "", m->source, m->fields);
        const rl_layer_shape *l = &m->layer;
        if (l->hidden == 0) continue;
        char moe[96] = "dense";
        if (l->experts)
            snprintf(moe, sizeof moe, "MoE %lld experts, top-%lld, expert I %lld, %lld shared",
                     (long long)l->experts, (long long)l->experts_active,
                     (long long)l->expert_intermediate, (long long)l->shared_experts);
        char mix[64] = "all layers global";
        if (l->local_layers)
            snprintf(mix, sizeof mix, "%lld local (window %lld) + %lld global",
                     (long long)l->local_layers, (long long)m->sliding_window,
                     (long long)(l->layers - l->local_layers));
        printf("%-16s   layer: h %lld, I %lld, %lld layers, V %lld, %s, %s, %s, %s\n", "",
               (long long)l->hidden, (long long)l->intermediate, (long long)l->layers,
               (long long)l->vocab, moe, rl_norm_kind_name(l->norm), rl_act_kind_name(l->act), mix);
        printf("%-16s   from %s: %s\n", "", l->source, l->fields);
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
