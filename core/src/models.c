/* models.c — real attention shapes (query heads, KV heads, head dim, sliding window), each with
 * the published configuration it was copied from, and models whose attention this model cannot
 * describe, with the reason. No shape is written from memory: each row names its source file and
 * the fields read there (MODEL.md "Model shapes"). */
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *rl_norm_kind_name(rl_norm_kind kind) {
    return kind == RL_NORM_LAYER ? "layernorm" : "rmsnorm";
}

const char *rl_act_kind_name(rl_act_kind kind) {
    switch (kind) {
    case RL_ACT_GELU_TANH_GLU: return "geglu";
    case RL_ACT_GELU_TANH: return "gelu";
    default: return "swiglu";
    }
}

#define LLAMA31_SRC                                                                                \
    "github.com/meta-llama/llama-models models/llama3_1/api/sku_list.py (commit 1768925a), "       \
    "model_args"
#define MISTRAL_SRC                                                                                \
    "github.com/huggingface/transformers src/transformers/models/mistral/configuration_mistral.py " \
    "(commit 001f85b3): MistralConfig defaults, documented as Mistral-7B-v0.1"
#define DEEPSEEK_V2_SRC "DeepSeek-V2 paper, arXiv:2405.04434, section 2.1 (Multi-Head Latent Attention)"
/* The Hugging Face config.json of each repository below (huggingface.co/REPO/blob/main/config.json),
 * its values checked against copies of that file reproduced in public code. */
#define HF(repo) "huggingface.co/" repo " config.json"

static const rl_model_shape shapes[] = {
    {"llama-3.1-8b", "Llama 3.1 8B (meta-llama/Meta-Llama-3.1-8B)", 32, 8, 128, 0, LLAMA31_SRC,
     "n_heads 32, n_kv_heads 8, dim 4096 (head dim = dim / n_heads)", NULL,
     {4096, 14336, 32, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-8B"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"llama-3.1-70b", "Llama 3.1 70B (meta-llama/Meta-Llama-3.1-70B)", 64, 8, 128, 0, LLAMA31_SRC,
     "n_heads 64, n_kv_heads 8, dim 8192 (head dim = dim / n_heads)", NULL,
     {8192, 28672, 80, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-70B"),
      "hidden_size 8192, intermediate_size 28672, num_hidden_layers 80, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"llama-3.1-405b", "Llama 3.1 405B (meta-llama/Meta-Llama-3.1-405B)", 128, 8, 128, 0,
     LLAMA31_SRC, "n_heads 128, n_kv_heads 8, dim 16384 (head dim = dim / n_heads)", NULL,
     {16384, 53248, 126, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-405B"),
      "hidden_size 16384, intermediate_size 53248, num_hidden_layers 126, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    /* Llama 3 has the attention shape of 3.1 (only the RoPE scaling and the context differ). */
    {"llama-3-8b", "Llama 3 8B (meta-llama/Meta-Llama-3-8B)", 32, 8, 128, 0,
     HF("meta-llama/Meta-Llama-3-8B"),
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {4096, 14336, 32, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Meta-Llama-3-8B"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"llama-3-70b", "Llama 3 70B (meta-llama/Meta-Llama-3-70B)", 64, 8, 128, 0,
     HF("meta-llama/Meta-Llama-3-70B"),
     "num_attention_heads 64, num_key_value_heads 8, hidden_size 8192 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {8192, 28672, 80, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Meta-Llama-3-70B"),
      "hidden_size 8192, intermediate_size 28672, num_hidden_layers 80, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"llama-2-7b", "Llama 2 7B (meta-llama/Llama-2-7b-chat-hf)", 32, 32, 128, 0,
     HF("meta-llama/Llama-2-7b-chat-hf"),
     "num_attention_heads 32, num_key_value_heads 32, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads; multi-head: KV heads = heads)",
     NULL,
     {4096, 11008, 32, 32000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-2-7b-chat-hf"),
      "hidden_size 4096, intermediate_size 11008, num_hidden_layers 32, vocab_size 32000, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"mistral-7b-v0.1", "Mistral 7B v0.1 (mistralai/Mistral-7B-v0.1)", 32, 8, 128, 4096,
     MISTRAL_SRC,
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head_dim = hidden_size // "
     "num_attention_heads), sliding_window 4096",
     NULL,
     {4096, 14336, 32, 32000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 32, 2, 0, 1, MISTRAL_SRC,
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 32000, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 32 layers"}},
    {"mixtral-8x7b", "Mixtral 8x7B v0.1 (mistralai/Mixtral-8x7B-v0.1)", 32, 8, 128, 0,
     HF("mistralai/Mixtral-8x7B-v0.1"),
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads), sliding_window null (full attention); the experts are MLPs only",
     NULL,
     {4096, 14336, 32, 32000, 8,2,14336,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("mistralai/Mixtral-8x7B-v0.1"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 32000, num_local_experts 8, num_experts_per_tok 2 (each expert an MLP of intermediate_size), hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"qwen2-7b", "Qwen2 7B (Qwen/Qwen2-7B)", 28, 4, 128, 0, HF("Qwen/Qwen2-7B"),
     "num_attention_heads 28, num_key_value_heads 4, hidden_size 3584 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {3584, 18944, 28, 152064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-7B"),
      "hidden_size 3584, intermediate_size 18944, num_hidden_layers 28, vocab_size 152064, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"qwen2-0.5b", "Qwen2 0.5B (Qwen/Qwen2-0.5B)", 14, 2, 64, 0, HF("Qwen/Qwen2-0.5B"),
     "num_attention_heads 14, num_key_value_heads 2, hidden_size 896 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {896, 4864, 24, 151936, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-0.5B"),
      "hidden_size 896, intermediate_size 4864, num_hidden_layers 24, vocab_size 151936, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"qwen2-72b", "Qwen2 72B (Qwen/Qwen2-72B)", 64, 8, 128, 0, HF("Qwen/Qwen2-72B"),
     "num_attention_heads 64, num_key_value_heads 8, hidden_size 8192 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {8192, 29568, 80, 152064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-72B"),
      "hidden_size 8192, intermediate_size 29568, num_hidden_layers 80, vocab_size 152064, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    /* Gemma 2 alternates sliding-window (4096) and global layers; the window is that of the
     * local layers. head_dim is given in the file: 256 for 9B (not hidden_size / heads = 224). */
    {"gemma-2-9b", "Gemma 2 9B (google/gemma-2-9b)", 16, 8, 256, 4096, HF("google/gemma-2-9b"),
     "num_attention_heads 16, num_key_value_heads 8, head_dim 256, hidden_size 3584, "
     "sliding_window 4096 (every other layer; the rest global)",
     NULL,
     {3584, 14336, 42, 256000, 0,0,0,0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 21, 4, 0, 1, HF("google/gemma-2-9b"),
      "hidden_size 3584, intermediate_size 14336, num_hidden_layers 42, vocab_size 256000, hidden_activation gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm); 21 of 42 layers sliding (even layer indices) and four norms per layer (transformers Gemma2DecoderLayer)"}},
    {"gemma-2-27b", "Gemma 2 27B (google/gemma-2-27b)", 32, 16, 128, 4096, HF("google/gemma-2-27b"),
     "num_attention_heads 32, num_key_value_heads 16, head_dim 128, hidden_size 4608, "
     "sliding_window 4096 (every other layer; the rest global)",
     NULL,
     {4608, 36864, 46, 256000, 0,0,0,0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 23, 4, 0, 1, HF("google/gemma-2-27b"),
      "hidden_size 4608, intermediate_size 36864, num_hidden_layers 46, vocab_size 256000, hidden_activation gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm); 23 of 46 layers sliding (even layer indices) and four norms per layer (transformers Gemma2DecoderLayer)"}},
    {"phi-3-mini-4k", "Phi-3 mini 4k (microsoft/Phi-3-mini-4k-instruct)", 32, 32, 96, 2047,
     HF("microsoft/Phi-3-mini-4k-instruct"),
     "num_attention_heads 32, num_key_value_heads 32, hidden_size 3072 (head dim = hidden_size / "
     "num_attention_heads), sliding_window 2047",
     NULL,
     {3072, 8192, 32, 32064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 32, 2, 0, 1, HF("microsoft/Phi-3-mini-4k-instruct"),
      "hidden_size 3072, intermediate_size 8192, num_hidden_layers 32, vocab_size 32064, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 32 layers"}},
    {"phi-3-medium-4k", "Phi-3 medium 4k (microsoft/Phi-3-medium-4k-instruct)", 40, 10, 128, 2047,
     HF("microsoft/Phi-3-medium-4k-instruct"),
     "num_attention_heads 40, num_key_value_heads 10, hidden_size 5120 (head dim = hidden_size / "
     "num_attention_heads), sliding_window 2047",
     NULL,
     {5120, 17920, 40, 32064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 40, 2, 0, 1, HF("microsoft/Phi-3-medium-4k-instruct"),
      "hidden_size 5120, intermediate_size 17920, num_hidden_layers 40, vocab_size 32064, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 40 layers"}},
    {"yi-1.5-34b", "Yi 1.5 34B (01-ai/Yi-1.5-34B)", 56, 8, 128, 0, HF("01-ai/Yi-1.5-34B"),
     "num_attention_heads 56, num_key_value_heads 8, hidden_size 7168 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {7168, 20480, 60, 64000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("01-ai/Yi-1.5-34B"),
      "hidden_size 7168, intermediate_size 20480, num_hidden_layers 60, vocab_size 64000, hidden_act silu (gated), rms_norm_eps (RMSNorm)"}},
    {"gpt2", "GPT-2 small (openai-community/gpt2)", 12, 12, 64, 0, HF("openai-community/gpt2"),
     "n_head 12, n_embd 768 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {768, 3072, 12, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2"),
      "n_embd 768, n_inner null (= 4 x n_embd = 3072), n_layer 12, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE"}},
    {"gpt2-medium", "GPT-2 medium (openai-community/gpt2-medium)", 16, 16, 64, 0,
     HF("openai-community/gpt2-medium"),
     "n_head 16, n_embd 1024 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1024, 4096, 24, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-medium"),
      "n_embd 1024, n_inner null (= 4 x n_embd = 4096), n_layer 24, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE"}},
    {"gpt2-large", "GPT-2 large (openai-community/gpt2-large)", 20, 20, 64, 0,
     HF("openai-community/gpt2-large"),
     "n_head 20, n_embd 1280 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1280, 5120, 36, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-large"),
      "n_embd 1280, n_inner null (= 4 x n_embd = 5120), n_layer 36, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE"}},
    {"gpt2-xl", "GPT-2 XL (openai-community/gpt2-xl)", 25, 25, 64, 0, HF("openai-community/gpt2-xl"),
     "n_head 25, n_embd 1600 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1600, 6400, 48, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-xl"),
      "n_embd 1600, n_inner null (= 4 x n_embd = 6400), n_layer 48, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE"}},
    /* Qwen3-30B-A3B: every layer is a mixture of experts (mlp_only_layers [], decoder_sparse_step
     * 1), so intermediate_size is unused; head_dim is given (32 x 128 = 4096 != hidden 2048). */
    {"qwen3-30b-a3b", "Qwen3 30B-A3B (Qwen/Qwen3-30B-A3B)", 32, 4, 128, 0, HF("Qwen/Qwen3-30B-A3B"),
     "num_attention_heads 32, num_key_value_heads 4, head_dim 128, hidden_size 2048, "
     "use_sliding_window false",
     NULL,
     {2048, 6144, 48, 151936, 128, 8, 768, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 1, 1,
      HF("Qwen/Qwen3-30B-A3B"),
      "hidden_size 2048, intermediate_size 6144 (unused: mlp_only_layers [], decoder_sparse_step "
      "1), moe_intermediate_size 768, num_experts 128, num_experts_per_tok 8, no shared expert, "
      "num_hidden_layers 48, vocab_size 151936, hidden_act silu (gated), rms_norm_eps (RMSNorm), "
      "q_norm and k_norm per head (transformers Qwen3MoeAttention)"}},
    {"deepseek-v2", "DeepSeek-V2 (deepseek-ai/DeepSeek-V2)", 0, 0, 0, 0, DEEPSEEK_V2_SRC, "",
     "multi-head latent attention: K and V are decompressed per head from one low-rank latent "
     "vector per token, so the KV cache is neither H nor Hkv heads of d; not approximated",
     {0}},
    {"deepseek-v3", "DeepSeek-V3 (deepseek-ai/DeepSeek-V3)", 0, 0, 0, 0,
     "DeepSeek-V3 technical report, arXiv:2412.19437, section 2.1.1 (MLA, as in DeepSeek-V2)", "",
     "multi-head latent attention (as DeepSeek-V2): the KV cache is one low-rank latent per "
     "token, not H or Hkv heads of d; not approximated",
     {0}},
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
        /* The ids that fit whole in the message, then a pointer to the full list. */
        char ids[RL_ERROR_MESSAGE_MAX - 96] = "";
        size_t used = 0;
        for (size_t i = 0; i < rl_model_shape_count(); i++) {
            if (shapes[i].unsupported) continue;
            size_t len = strlen(shapes[i].id) + 2;
            if (used + len + sizeof ", … (rooflab models lists all)" > sizeof ids) {
                snprintf(ids + used, sizeof ids - used, ", … (rooflab models lists all)");
                break;
            }
            used += (size_t)snprintf(ids + used, sizeof ids - used, "%s%s", used ? ", " : "",
                                     shapes[i].id);
        }
        return rl__fail(err, RL_ERR_UNKNOWN, field, "unknown model \"%.*s\"; expected one of %s",
                        RL__QUOTE(id ? id : "", 40), ids);
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

size_t rl_model_shape_note(const rl_model_shape *m, const rl_problem *p, char *buf, size_t cap) {
    if (!buf || cap == 0) return 0;
    buf[0] = '\0';
    if (!m || !p || m->unsupported || m->sliding_window <= 0) return 0;
    const int64_t keys = p->kv_len ? p->kv_len : (p->seq ? p->seq : RL_DEFAULT_SEQ);
    if (keys <= m->sliding_window) return 0;
    int n = snprintf(buf, cap,
                     "%s: sliding window %lld not applied; L = %lld counts every key, so F and the "
                     "K/V bytes are upper bounds for its window layers (a query there sees at most "
                     "%lld keys)",
                     m->id, (long long)m->sliding_window, (long long)keys,
                     (long long)m->sliding_window);
    return n < 0 ? 0 : ((size_t)n < cap ? (size_t)n : cap - 1);
}
