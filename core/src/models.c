/* models.c — real attention shapes (query heads, KV heads, head dim, sliding window), each with
 * the published configuration it was copied from, and models whose attention this model cannot
 * describe, with the reason. No shape is written from memory: each row names its source file and
 * the fields read there (DESIGN.md "Model shapes"). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define LLAMA31_SRC                                                                                \
    "github.com/meta-llama/llama-models models/llama3_1/api/sku_list.py (commit 1768925a), "       \
    "model_args"
#define MISTRAL_SRC                                                                                \
    "github.com/huggingface/transformers src/transformers/models/mistral/configuration_mistral.py " \
    "(commit 001f85b3): MistralConfig defaults, documented as Mistral-7B-v0.1"
#define DEEPSEEK_V2_SRC "DeepSeek-V2 paper, arXiv:2405.04434, section 2.1 (Multi-Head Latent Attention)"

static const rl_model_shape shapes[] = {
    {"llama-3.1-8b", "Llama 3.1 8B (meta-llama/Meta-Llama-3.1-8B)", 32, 8, 128, 0, LLAMA31_SRC,
     "n_heads 32, n_kv_heads 8, dim 4096 (head dim = dim / n_heads)", NULL},
    {"llama-3.1-70b", "Llama 3.1 70B (meta-llama/Meta-Llama-3.1-70B)", 64, 8, 128, 0, LLAMA31_SRC,
     "n_heads 64, n_kv_heads 8, dim 8192 (head dim = dim / n_heads)", NULL},
    {"llama-3.1-405b", "Llama 3.1 405B (meta-llama/Meta-Llama-3.1-405B)", 128, 8, 128, 0,
     LLAMA31_SRC, "n_heads 128, n_kv_heads 8, dim 16384 (head dim = dim / n_heads)", NULL},
    {"mistral-7b-v0.1", "Mistral 7B v0.1 (mistralai/Mistral-7B-v0.1)", 32, 8, 128, 4096,
     MISTRAL_SRC,
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head_dim = hidden_size // "
     "num_attention_heads), sliding_window 4096",
     NULL},
    {"deepseek-v2", "DeepSeek-V2 (deepseek-ai/DeepSeek-V2)", 0, 0, 0, 0, DEEPSEEK_V2_SRC, "",
     "multi-head latent attention: K and V are decompressed per head from one low-rank latent "
     "vector per token, so the KV cache is neither H nor Hkv heads of d; not approximated"},
    {"deepseek-v3", "DeepSeek-V3 (deepseek-ai/DeepSeek-V3)", 0, 0, 0, 0,
     "DeepSeek-V3 technical report, arXiv:2412.19437, section 2.1.1 (MLA, as in DeepSeek-V2)", "",
     "multi-head latent attention (as DeepSeek-V2): the KV cache is one low-rank latent per "
     "token, not H or Hkv heads of d; not approximated"},
};

size_t rl_model_shape_count(void) { return sizeof shapes / sizeof shapes[0]; }

const rl_model_shape *rl_model_shape_at(size_t index) {
    return index < rl_model_shape_count() ? &shapes[index] : NULL;
}

const rl_model_shape *rl_model_shape_find(const char *id) {
    for (size_t i = 0; id && i < rl_model_shape_count(); i++)
        if (strcmp(shapes[i].id, id) == 0) return &shapes[i];
    return NULL;
}

rl_status rl_model_shape_lookup(const char *id, const char *field, const rl_model_shape **out,
                                rl_error *err) {
    if (!field) field = "model";
    const rl_model_shape *m = rl_model_shape_find(id);
    if (!m) {
        char ids[RL_ERROR_MESSAGE_MAX] = "";
        size_t used = 0;
        for (size_t i = 0; i < rl_model_shape_count() && used < sizeof ids; i++) {
            if (shapes[i].unsupported) continue;
            int n = snprintf(ids + used, sizeof ids - used, "%s%s", used ? ", " : "", shapes[i].id);
            used += n > 0 ? (size_t)n : 0;
        }
        return rl__fail(err, RL_ERR_UNKNOWN, field, "unknown model \"%.40s\"; expected one of %s",
                        id ? id : "", ids);
    }
    if (m->unsupported)
        return rl__fail(err, RL_ERR_UNSUPPORTED, field, "%s cannot be described here: %s", m->id,
                        m->unsupported);
    if (out) *out = m;
    rl__ok(err);
    return RL_OK;
}

void rl_model_shape_apply(const rl_model_shape *m, rl_problem *p, int only_unset) {
    if (!m || !p || m->unsupported) return;
    if (!only_unset || p->heads == 0) p->heads = m->heads;
    if (!only_unset || p->kv_heads == 0) p->kv_heads = m->kv_heads;
    if (!only_unset || p->head_dim == 0) p->head_dim = m->head_dim;
}
