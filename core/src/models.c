/* models.c — real attention shapes (query heads, KV heads, head dims, MLA latent, sliding window
 * or chunk and the local/global mix), each with the published configuration it was copied from,
 * and models whose attention this model cannot describe, with the reason. No shape is written from memory: each row names its source file and
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
/* The Hugging Face config.json of each repository below (huggingface.co/REPO/blob/main/config.json),
 * its values checked against copies of that file reproduced in public code. */
#define HF(repo) "huggingface.co/" repo " config.json"

/* The MLA rows (DeepSeek-V2/V3/R1/V3.2, Kimi K2) share one attention and one layer form; they
 * differ in the numbers below, each written once and stringified into the row's cited fields so
 * that the text and the value cannot part. MLA_ATTENTION: H heads (num_attention_heads =
 * num_key_value_heads), d = qk_nope_head_dim 128 + qk_rope_head_dim 64, d_v = v_head_dim 128,
 * kv_lora_rank 512. */
#define MLA_ATTENTION(h)                                                                           \
    .heads = h, .kv_heads = h, .head_dim = 192, .head_dim_v = 128, .kv_lora_rank = 512, .rope_dim = 64
#define MLA_FIELDS(h)                                                                              \
    "num_attention_heads " #h ", num_key_value_heads " #h ", qk_nope_head_dim 128, "              \
    "qk_rope_head_dim 64 (head dim 192), v_head_dim 128, kv_lora_rank 512, q_lora_rank 1536"
/* The layer: hidden_size, intermediate_size (of the first_k_dense_replace dense layers),
 * num_hidden_layers, vocab_size, n_routed_experts, num_experts_per_tok, moe_intermediate_size,
 * n_shared_experts, first_k_dense_replace; `dense_note` and `norm_note` are wording of the row. */
#define MLA_LAYER(repo, hidden, inter, layers, vocab, experts, top, moe_inter, shared, dense,      \
                  dense_note, norm_note)                                                           \
    {hidden, inter, layers, vocab, experts, top, moe_inter, shared, RL_NORM_RMS, RL_ACT_SILU_GLU,   \
     0, 2, 0, 1, HF(repo),                                                                         \
     "hidden_size " #hidden ", intermediate_size " #inter " (" dense_note "first_k_dense_replace " \
     #dense "), moe_intermediate_size " #moe_inter ", n_routed_experts " #experts                  \
     ", num_experts_per_tok " #top ", n_shared_experts " #shared ", num_hidden_layers " #layers    \
     ", vocab_size " #vocab ", q_lora_rank 1536, hidden_act silu (gated), rms_norm_eps (RMSNorm"   \
     norm_note ")",                                                                                \
     .dense_layers = dense, .q_lora_rank = 1536}

static const rl_model_shape shapes[] = {
    {"llama-3.1-8b", "Llama 3.1 8B (meta-llama/Meta-Llama-3.1-8B)", 32, 8, 128, 0, LLAMA31_SRC,
     "n_heads 32, n_kv_heads 8, dim 4096 (head dim = dim / n_heads)", NULL,
     {4096, 14336, 32, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-8B"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"llama-3.1-70b", "Llama 3.1 70B (meta-llama/Meta-Llama-3.1-70B)", 64, 8, 128, 0, LLAMA31_SRC,
     "n_heads 64, n_kv_heads 8, dim 8192 (head dim = dim / n_heads)", NULL,
     {8192, 28672, 80, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-70B"),
      "hidden_size 8192, intermediate_size 28672, num_hidden_layers 80, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"llama-3.1-405b", "Llama 3.1 405B (meta-llama/Meta-Llama-3.1-405B)", 128, 8, 128, 0,
     LLAMA31_SRC, "n_heads 128, n_kv_heads 8, dim 16384 (head dim = dim / n_heads)", NULL,
     {16384, 53248, 126, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-3.1-405B"),
      "hidden_size 16384, intermediate_size 53248, num_hidden_layers 126, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    /* Llama 3 has the attention shape of 3.1 (only the RoPE scaling and the context differ). */
    {"llama-3-8b", "Llama 3 8B (meta-llama/Meta-Llama-3-8B)", 32, 8, 128, 0,
     HF("meta-llama/Meta-Llama-3-8B"),
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {4096, 14336, 32, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Meta-Llama-3-8B"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"llama-3-70b", "Llama 3 70B (meta-llama/Meta-Llama-3-70B)", 64, 8, 128, 0,
     HF("meta-llama/Meta-Llama-3-70B"),
     "num_attention_heads 64, num_key_value_heads 8, hidden_size 8192 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {8192, 28672, 80, 128256, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Meta-Llama-3-70B"),
      "hidden_size 8192, intermediate_size 28672, num_hidden_layers 80, vocab_size 128256, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"llama-2-7b", "Llama 2 7B (meta-llama/Llama-2-7b-chat-hf)", 32, 32, 128, 0,
     HF("meta-llama/Llama-2-7b-chat-hf"),
     "num_attention_heads 32, num_key_value_heads 32, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads; multi-head: KV heads = heads)",
     NULL,
     {4096, 11008, 32, 32000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("meta-llama/Llama-2-7b-chat-hf"),
      "hidden_size 4096, intermediate_size 11008, num_hidden_layers 32, vocab_size 32000, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"mistral-7b-v0.1", "Mistral 7B v0.1 (mistralai/Mistral-7B-v0.1)", 32, 8, 128, 4096,
     MISTRAL_SRC,
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head_dim = hidden_size // "
     "num_attention_heads), sliding_window 4096",
     NULL,
     {4096, 14336, 32, 32000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 32, 2, 0, 1, MISTRAL_SRC,
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 32000, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 32 layers", .dense_layers = 0}, .head_dim_v = 0},
    {"mixtral-8x7b", "Mixtral 8x7B v0.1 (mistralai/Mixtral-8x7B-v0.1)", 32, 8, 128, 0,
     HF("mistralai/Mixtral-8x7B-v0.1"),
     "num_attention_heads 32, num_key_value_heads 8, hidden_size 4096 (head dim = hidden_size / "
     "num_attention_heads), sliding_window null (full attention); the experts are MLPs only",
     NULL,
     {4096, 14336, 32, 32000, 8,2,14336,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("mistralai/Mixtral-8x7B-v0.1"),
      "hidden_size 4096, intermediate_size 14336, num_hidden_layers 32, vocab_size 32000, num_local_experts 8, num_experts_per_tok 2 (each expert an MLP of intermediate_size), hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"qwen2-7b", "Qwen2 7B (Qwen/Qwen2-7B)", 28, 4, 128, 0, HF("Qwen/Qwen2-7B"),
     "num_attention_heads 28, num_key_value_heads 4, hidden_size 3584 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {3584, 18944, 28, 152064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-7B"),
      "hidden_size 3584, intermediate_size 18944, num_hidden_layers 28, vocab_size 152064, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"qwen2-0.5b", "Qwen2 0.5B (Qwen/Qwen2-0.5B)", 14, 2, 64, 0, HF("Qwen/Qwen2-0.5B"),
     "num_attention_heads 14, num_key_value_heads 2, hidden_size 896 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {896, 4864, 24, 151936, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-0.5B"),
      "hidden_size 896, intermediate_size 4864, num_hidden_layers 24, vocab_size 151936, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"qwen2-72b", "Qwen2 72B (Qwen/Qwen2-72B)", 64, 8, 128, 0, HF("Qwen/Qwen2-72B"),
     "num_attention_heads 64, num_key_value_heads 8, hidden_size 8192 (head dim = hidden_size / "
     "num_attention_heads), use_sliding_window false",
     NULL,
     {8192, 29568, 80, 152064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("Qwen/Qwen2-72B"),
      "hidden_size 8192, intermediate_size 29568, num_hidden_layers 80, vocab_size 152064, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    /* Gemma 2 alternates sliding-window (4096) and global layers; the window is that of the
     * local layers. head_dim is given in the file: 256 for 9B (not hidden_size / heads = 224). */
    {"gemma-2-9b", "Gemma 2 9B (google/gemma-2-9b)", 16, 8, 256, 4096, HF("google/gemma-2-9b"),
     "num_attention_heads 16, num_key_value_heads 8, head_dim 256, hidden_size 3584, "
     "sliding_window 4096 (every other layer; the rest global)",
     NULL,
     {3584, 14336, 42, 256000, 0,0,0,0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 21, 4, 0, 1, HF("google/gemma-2-9b"),
      "hidden_size 3584, intermediate_size 14336, num_hidden_layers 42, vocab_size 256000, hidden_activation gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm); 21 of 42 layers sliding (even layer indices) and four norms per layer (transformers Gemma2DecoderLayer)", .dense_layers = 0}, .head_dim_v = 0},
    {"gemma-2-27b", "Gemma 2 27B (google/gemma-2-27b)", 32, 16, 128, 4096, HF("google/gemma-2-27b"),
     "num_attention_heads 32, num_key_value_heads 16, head_dim 128, hidden_size 4608, "
     "sliding_window 4096 (every other layer; the rest global)",
     NULL,
     {4608, 36864, 46, 256000, 0,0,0,0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 23, 4, 0, 1, HF("google/gemma-2-27b"),
      "hidden_size 4608, intermediate_size 36864, num_hidden_layers 46, vocab_size 256000, hidden_activation gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm); 23 of 46 layers sliding (even layer indices) and four norms per layer (transformers Gemma2DecoderLayer)", .dense_layers = 0}, .head_dim_v = 0},
    {"phi-3-mini-4k", "Phi-3 mini 4k (microsoft/Phi-3-mini-4k-instruct)", 32, 32, 96, 2047,
     HF("microsoft/Phi-3-mini-4k-instruct"),
     "num_attention_heads 32, num_key_value_heads 32, hidden_size 3072 (head dim = hidden_size / "
     "num_attention_heads), sliding_window 2047",
     NULL,
     {3072, 8192, 32, 32064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 32, 2, 0, 1, HF("microsoft/Phi-3-mini-4k-instruct"),
      "hidden_size 3072, intermediate_size 8192, num_hidden_layers 32, vocab_size 32064, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 32 layers", .dense_layers = 0}, .head_dim_v = 0},
    {"phi-3-medium-4k", "Phi-3 medium 4k (microsoft/Phi-3-medium-4k-instruct)", 40, 10, 128, 2047,
     HF("microsoft/Phi-3-medium-4k-instruct"),
     "num_attention_heads 40, num_key_value_heads 10, hidden_size 5120 (head dim = hidden_size / "
     "num_attention_heads), sliding_window 2047",
     NULL,
     {5120, 17920, 40, 32064, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 40, 2, 0, 1, HF("microsoft/Phi-3-medium-4k-instruct"),
      "hidden_size 5120, intermediate_size 17920, num_hidden_layers 40, vocab_size 32064, hidden_act silu (gated), rms_norm_eps (RMSNorm); sliding_window on all 40 layers", .dense_layers = 0}, .head_dim_v = 0},
    {"yi-1.5-34b", "Yi 1.5 34B (01-ai/Yi-1.5-34B)", 56, 8, 128, 0, HF("01-ai/Yi-1.5-34B"),
     "num_attention_heads 56, num_key_value_heads 8, hidden_size 7168 (head dim = hidden_size / "
     "num_attention_heads)",
     NULL,
     {7168, 20480, 60, 64000, 0,0,0,0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1, HF("01-ai/Yi-1.5-34B"),
      "hidden_size 7168, intermediate_size 20480, num_hidden_layers 60, vocab_size 64000, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {"gpt2", "GPT-2 small (openai-community/gpt2)", 12, 12, 64, 0, HF("openai-community/gpt2"),
     "n_head 12, n_embd 768 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {768, 3072, 12, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2"),
      "n_embd 768, n_inner null (= 4 x n_embd = 3072), n_layer 12, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE", .dense_layers = 0}, .head_dim_v = 0},
    {"gpt2-medium", "GPT-2 medium (openai-community/gpt2-medium)", 16, 16, 64, 0,
     HF("openai-community/gpt2-medium"),
     "n_head 16, n_embd 1024 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1024, 4096, 24, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-medium"),
      "n_embd 1024, n_inner null (= 4 x n_embd = 4096), n_layer 24, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE", .dense_layers = 0}, .head_dim_v = 0},
    {"gpt2-large", "GPT-2 large (openai-community/gpt2-large)", 20, 20, 64, 0,
     HF("openai-community/gpt2-large"),
     "n_head 20, n_embd 1280 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1280, 5120, 36, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-large"),
      "n_embd 1280, n_inner null (= 4 x n_embd = 5120), n_layer 36, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE", .dense_layers = 0}, .head_dim_v = 0},
    {"gpt2-xl", "GPT-2 XL (openai-community/gpt2-xl)", 25, 25, 64, 0, HF("openai-community/gpt2-xl"),
     "n_head 25, n_embd 1600 (head dim = n_embd / n_head; multi-head: KV heads = heads)", NULL,
     {1600, 6400, 48, 50257, 0,0,0,0, RL_NORM_LAYER, RL_ACT_GELU_TANH, 0, 2, 0, 0, HF("openai-community/gpt2-xl"),
      "n_embd 1600, n_inner null (= 4 x n_embd = 6400), n_layer 48, vocab_size 50257, activation_function gelu_new (tanh GELU), layer_norm_epsilon (LayerNorm), learned positions (wpe), no RoPE", .dense_layers = 0}, .head_dim_v = 0},
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
      "q_norm and k_norm per head (transformers Qwen3MoeAttention)", .dense_layers = 0}, .head_dim_v = 0},
    /* Multi-head latent attention (DeepSeek-V2 paper, arXiv:2405.04434, section 2.1; the modelling
     * code is transformers' DeepseekV3Attention). Two forms of one attention: prefill in the MHA
     * form (H heads, d = qk_nope_head_dim + qk_rope_head_dim = 192, d_v = v_head_dim = 128, K and
     * V decompressed from the latent by kv_b_proj), decode absorbed (W_UK folded into the query,
     * W_UV into the output: H query heads on one cached latent of kv_lora_rank + qk_rope_head_dim
     * = 576 elements, K the whole latent, V its first 512). The first first_k_dense_replace
     * layers have a dense MLP, the rest the mixture (n_shared_experts always on). */
    {.id = "deepseek-v3", .name = "DeepSeek-V3 (deepseek-ai/DeepSeek-V3)", MLA_ATTENTION(128),
     .source = HF("deepseek-ai/DeepSeek-V3"), .fields = MLA_FIELDS(128),
     .layer = MLA_LAYER("deepseek-ai/DeepSeek-V3", 7168, 18432, 61, 129280, 256, 8, 2048, 1, 3,
                        "the 3 dense layers: ", "; q_a_layernorm, kv_a_layernorm")},
    /* DeepSeek-R1 is trained from DeepSeek-V3-Base: its config.json has the same architecture. */
    {.id = "deepseek-r1", .name = "DeepSeek-R1 (deepseek-ai/DeepSeek-R1)", MLA_ATTENTION(128),
     .source = HF("deepseek-ai/DeepSeek-R1"), .fields = MLA_FIELDS(128),
     .layer = MLA_LAYER("deepseek-ai/DeepSeek-R1", 7168, 18432, 61, 129280, 256, 8, 2048, 1, 3, "", "")},
    {.id = "deepseek-v2", .name = "DeepSeek-V2 (deepseek-ai/DeepSeek-V2)", MLA_ATTENTION(128),
     .source = HF("deepseek-ai/DeepSeek-V2"), .fields = MLA_FIELDS(128),
     .layer = MLA_LAYER("deepseek-ai/DeepSeek-V2", 5120, 12288, 60, 102400, 160, 6, 1536, 2, 1, "", "")},
    /* Kimi K2: DeepSeek-V3's architecture (model_type kimi_k2 on DeepseekV3ForCausalLM) with 64
     * heads, 384 routed experts and one dense layer. */
    {.id = "kimi-k2", .name = "Kimi K2 (moonshotai/Kimi-K2-Instruct)", MLA_ATTENTION(64),
     .source = HF("moonshotai/Kimi-K2-Instruct"), .fields = MLA_FIELDS(64),
     .layer = MLA_LAYER("moonshotai/Kimi-K2-Instruct", 7168, 18432, 61, 163840, 384, 8, 2048, 1, 1, "", "")},
    /* gpt-oss: layer_types alternate sliding_attention (window 128) and full_attention, starting
     * with sliding; each head has a learned sink logit (transformers GptOssAttention `sinks`),
     * which adds one exp per row to the softmax and no traffic. Every layer is a mixture. */
    {.id = "gpt-oss-120b", .name = "gpt-oss-120b (openai/gpt-oss-120b)", .heads = 64, .kv_heads = 8,
     .head_dim = 64, .sliding_window = 128, .sink_logit = 1, .source = HF("openai/gpt-oss-120b"),
     .fields = "num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 "
               "(layer_types: sliding_attention and full_attention alternating), a learned sink "
               "logit per head",
     .layer = {2880, 2880, 36, 201088, 128, 4, 2880, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 18, 2, 0, 1,
               HF("openai/gpt-oss-120b"),
               "hidden_size 2880, intermediate_size 2880 (each expert's), num_local_experts 128, "
               "num_experts_per_tok 4, num_hidden_layers 36 (18 sliding, 18 full), "
               "vocab_size 201088, hidden_act silu (gated; swiglu_limit 7.0 clamps it, same "
               "FLOPs), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    {.id = "gpt-oss-20b", .name = "gpt-oss-20b (openai/gpt-oss-20b)", .heads = 64, .kv_heads = 8,
     .head_dim = 64, .sliding_window = 128, .sink_logit = 1, .source = HF("openai/gpt-oss-20b"),
     .fields = "num_attention_heads 64, num_key_value_heads 8, head_dim 64, sliding_window 128 "
               "(layer_types: sliding_attention and full_attention alternating), a learned sink "
               "logit per head",
     .layer = {2880, 2880, 24, 201088, 32, 4, 2880, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 12, 2, 0, 1,
               HF("openai/gpt-oss-20b"),
               "hidden_size 2880, intermediate_size 2880 (each expert's), num_local_experts 32, "
               "num_experts_per_tok 4, num_hidden_layers 24 (12 sliding, 12 full), "
               "vocab_size 201088, hidden_act silu (gated; swiglu_limit 7.0), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    /* Qwen3 dense: head_dim given (Qwen3-8B: 32 x 128 = 4096 = hidden; 32B: 64 x 128 = 8192 !=
     * hidden 5120), q_norm and k_norm per head (transformers Qwen3Attention). */
    {.id = "qwen3-8b", .name = "Qwen3 8B (Qwen/Qwen3-8B)", .heads = 32, .kv_heads = 8,
     .head_dim = 128, .source = HF("Qwen/Qwen3-8B"),
     .fields = "num_attention_heads 32, num_key_value_heads 8, head_dim 128, hidden_size 4096, "
               "use_sliding_window false",
     .layer = {4096, 12288, 36, 151936, 0, 0, 0, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 1, 1,
               HF("Qwen/Qwen3-8B"),
               "hidden_size 4096, intermediate_size 12288, num_hidden_layers 36, vocab_size 151936, "
               "hidden_act silu (gated), rms_norm_eps (RMSNorm), q_norm and k_norm per head", .dense_layers = 0}, .head_dim_v = 0},
    {.id = "qwen3-32b", .name = "Qwen3 32B (Qwen/Qwen3-32B)", .heads = 64, .kv_heads = 8,
     .head_dim = 128, .source = HF("Qwen/Qwen3-32B"),
     .fields = "num_attention_heads 64, num_key_value_heads 8, head_dim 128, hidden_size 5120, "
               "use_sliding_window false",
     .layer = {5120, 25600, 64, 151936, 0, 0, 0, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 1, 1,
               HF("Qwen/Qwen3-32B"),
               "hidden_size 5120, intermediate_size 25600, num_hidden_layers 64, vocab_size 151936, "
               "hidden_act silu (gated), rms_norm_eps (RMSNorm), q_norm and k_norm per head", .dense_layers = 0}, .head_dim_v = 0},
    {.id = "qwen3-235b-a22b", .name = "Qwen3 235B-A22B (Qwen/Qwen3-235B-A22B)", .heads = 64,
     .kv_heads = 4, .head_dim = 128, .source = HF("Qwen/Qwen3-235B-A22B"),
     .fields = "num_attention_heads 64, num_key_value_heads 4, head_dim 128, hidden_size 4096, "
               "use_sliding_window false",
     .layer = {4096, 12288, 94, 151936, 128, 8, 1536, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 1, 1,
               HF("Qwen/Qwen3-235B-A22B"),
               "hidden_size 4096, intermediate_size 12288 (unused: mlp_only_layers [], "
               "decoder_sparse_step 1), moe_intermediate_size 1536, num_experts 128, "
               "num_experts_per_tok 8, no shared expert, num_hidden_layers 94, vocab_size 151936, "
               "hidden_act silu (gated), rms_norm_eps (RMSNorm), q_norm and k_norm per head", .dense_layers = 0}, .head_dim_v = 0},
    /* Llama 4 (text_config): chunked local attention (attention_chunk_size 8192: a query sees the
     * keys of its own 8192-key chunk, up to itself) with RoPE on 3 of 4 layers; every fourth
     * layer (no_rope_layer_interval 4) is global attention with no positions (NoPE). use_qk_norm
     * is a weightless L2 norm on the RoPE layers' Q and K (not counted: no weights, 3 FLOPs an
     * element). Each MoE layer has one routed expert and a shared expert, both of
     * intermediate_size; Maverick alternates dense (intermediate_size_mlp) and MoE layers
     * (interleave_moe_layer_step 2). */
    {.id = "llama-4-scout", .name = "Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E)", .heads = 40,
     .kv_heads = 8, .head_dim = 128, .chunk = 8192,
     .source = HF("meta-llama/Llama-4-Scout-17B-16E"),
     .fields = "text_config: num_attention_heads 40, num_key_value_heads 8, head_dim 128, "
               "attention_chunk_size 8192 (3 of 4 layers; every 4th global, NoPE)",
     .layer = {5120, 16384, 48, 202048, 16, 1, 8192, 1, RL_NORM_RMS, RL_ACT_SILU_GLU, 36, 2, 0, 1,
               HF("meta-llama/Llama-4-Scout-17B-16E"),
               "text_config: hidden_size 5120, intermediate_size 8192 (each expert's and the "
               "shared expert's), intermediate_size_mlp 16384 (unused: interleave_moe_layer_step "
               "1), num_local_experts 16, num_experts_per_tok 1, num_hidden_layers 48 (36 chunked "
               "with RoPE, 12 global NoPE: no_rope_layer_interval 4), vocab_size 202048, "
               "hidden_act silu (gated), rms_norm_eps (RMSNorm)",
               .nope_global = 1}},
    {.id = "llama-4-maverick", .name = "Llama 4 Maverick (meta-llama/Llama-4-Maverick-17B-128E)",
     .heads = 40, .kv_heads = 8, .head_dim = 128, .chunk = 8192,
     .source = HF("meta-llama/Llama-4-Maverick-17B-128E"),
     .fields = "text_config: num_attention_heads 40, num_key_value_heads 8, head_dim 128, "
               "attention_chunk_size 8192 (3 of 4 layers; every 4th global, NoPE)",
     .layer = {5120, 16384, 48, 202048, 128, 1, 8192, 1, RL_NORM_RMS, RL_ACT_SILU_GLU, 36, 2, 0, 1,
               HF("meta-llama/Llama-4-Maverick-17B-128E"),
               "text_config: hidden_size 5120, intermediate_size_mlp 16384 (the 24 dense layers: "
               "interleave_moe_layer_step 2), intermediate_size 8192 (each expert's and the "
               "shared expert's), num_local_experts 128, num_experts_per_tok 1, "
               "num_hidden_layers 48 (36 chunked with RoPE, 12 global NoPE), vocab_size 202048, "
               "hidden_act silu (gated), rms_norm_eps (RMSNorm)",
               .dense_layers = 24, .nope_global = 1}},
    /* Gemma 3 (text_config): sliding_window_pattern 6 (the Gemma3TextConfig default; the file
     * does not override it): layer i is global when (i + 1) % 6 == 0, so 12B has 40 local + 8
     * global and 27B 52 local + 10 global; q_norm and k_norm per head and four norms per layer
     * (transformers Gemma3DecoderLayer). vocab_size is the Gemma3TextConfig default, 262208. */
    {.id = "gemma-3-12b", .name = "Gemma 3 12B (google/gemma-3-12b-it)", .heads = 16, .kv_heads = 8,
     .head_dim = 256, .sliding_window = 1024, .source = HF("google/gemma-3-12b-it"),
     .fields = "text_config: num_attention_heads 16, num_key_value_heads 8, head_dim 256, "
               "hidden_size 3840, sliding_window 1024 (5 of every 6 layers)",
     .layer = {3840, 15360, 48, 262208, 0, 0, 0, 0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 40, 4, 1, 1,
               HF("google/gemma-3-12b-it"),
               "text_config: hidden_size 3840, intermediate_size 15360, num_hidden_layers 48 "
               "(40 sliding, 8 global), vocab_size 262208 (default), hidden_activation "
               "gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm), q_norm and k_norm, four norms "
               "per layer", .dense_layers = 0}, .head_dim_v = 0},
    {.id = "gemma-3-27b", .name = "Gemma 3 27B (google/gemma-3-27b-it)", .heads = 32, .kv_heads = 16,
     .head_dim = 128, .sliding_window = 1024, .source = HF("google/gemma-3-27b-it"),
     .fields = "text_config: num_attention_heads 32, num_key_value_heads 16, head_dim 128, "
               "hidden_size 5376, sliding_window 1024 (5 of every 6 layers)",
     .layer = {5376, 21504, 62, 262208, 0, 0, 0, 0, RL_NORM_RMS, RL_ACT_GELU_TANH_GLU, 52, 4, 1, 1,
               HF("google/gemma-3-27b-it"),
               "text_config: hidden_size 5376, intermediate_size 21504, num_hidden_layers 62 "
               "(52 sliding, 10 global), vocab_size 262208 (default), hidden_activation "
               "gelu_pytorch_tanh (gated), rms_norm_eps (RMSNorm), q_norm and k_norm, four norms "
               "per layer", .dense_layers = 0}, .head_dim_v = 0},
    {.id = "mistral-small-3.1-24b", .name = "Mistral Small 3.1 24B (mistralai/Mistral-Small-3.1-24B-Instruct-2503)",
     .heads = 32, .kv_heads = 8, .head_dim = 128,
     .source = HF("mistralai/Mistral-Small-3.1-24B-Instruct-2503"),
     .fields = "text_config: num_attention_heads 32, num_key_value_heads 8, head_dim 128 "
               "(not hidden_size / heads = 160), sliding_window null (full attention)",
     .layer = {5120, 32768, 40, 131072, 0, 0, 0, 0, RL_NORM_RMS, RL_ACT_SILU_GLU, 0, 2, 0, 1,
               HF("mistralai/Mistral-Small-3.1-24B-Instruct-2503"),
               "text_config: hidden_size 5120, intermediate_size 32768, num_hidden_layers 40, "
               "vocab_size 131072, hidden_act silu (gated), rms_norm_eps (RMSNorm)", .dense_layers = 0}, .head_dim_v = 0},
    /* DeepSeek-V3.2's DeepSeek Sparse Attention (DSA): V3's MLA and layers (the same config.json
     * fields) plus a lightning indexer (fp8, index_n_heads 64 of index_head_dim 128) that scores
     * every cached key; each query attends to the index_topk 2048 keys it selects: --topk 2048
     * (the indexer is its own ledger line, MODEL.md "--topk"). Values as in
     * deepseek-ai/DeepSeek-V3.2-Exp inference/config_671B_v3.2.json @ 3b99a535. */
    {.id = "deepseek-v3.2", .name = "DeepSeek-V3.2 (deepseek-ai/DeepSeek-V3.2-Exp)", MLA_ATTENTION(128),
     .topk = 2048, .source = HF("deepseek-ai/DeepSeek-V3.2-Exp"),
     .fields = MLA_FIELDS(128) ", index_topk 2048, index_n_heads 64, index_head_dim 128",
     .layer = MLA_LAYER("deepseek-ai/DeepSeek-V3.2-Exp", 7168, 18432, 61, 129280, 256, 8, 2048, 1, 3, "", "")},
    /* Qwen3-Next: Gated DeltaNet linear attention (a recurrent state, no KV cache) in three of
     * every four layers — layer_types "linear_attention" where (i + 1) % full_attention_interval
     * != 0, full_attention_interval 4: 36 of 48 — beside gated softmax attention (16 heads, 2 KV
     * heads, head_dim 256) in the rest. transformers src/transformers/models/qwen3_next/
     * configuration_qwen3_next.py @ 008e5743 (Qwen3NextConfig, documented as
     * Qwen/Qwen3-Next-80B-A3B-Instruct). */
    {.id = "qwen3-next-80b-a3b", .name = "Qwen3-Next 80B-A3B (Qwen/Qwen3-Next-80B-A3B-Instruct)",
     .source = "github.com/huggingface/transformers src/transformers/models/qwen3_next/"
               "configuration_qwen3_next.py (commit 008e5743): Qwen3NextConfig",
     .fields = "",
     .unsupported = "linear attention (Gated DeltaNet in 36 of 48 layers: layer_types "
                    "linear_attention, full_attention_interval 4; a recurrent state per head, no "
                    "softmax over cached keys): no field describes it; not approximated"},
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
#define RL_SET(field, value)                                                                       \
    do {                                                                                           \
        if (!only_unset || p->field == 0) p->field = (value);                                      \
    } while (0)
    RL_SET(heads, m->heads);
    if (m->kv_lora_rank > 0 && p->seq >= 1 && p->seq <= RL_MLA_DECODE_MAX_ROWS) {
        /* Absorbed decode: one latent of R + DR per token; resolve sets d = R + DR, d_v = R and
         * one KV head, so only the latent is written here. */
        RL_SET(kv_lora_rank, m->kv_lora_rank);
        RL_SET(rope_dim, m->rope_dim);
    } else {
        RL_SET(kv_heads, m->kv_heads);
        RL_SET(head_dim, m->head_dim);
        if (m->head_dim_v) RL_SET(head_dim_v, m->head_dim_v);
    }
    if (m->topk) RL_SET(topk, m->topk); /* DSA: both forms attend to the top-k keys */
#undef RL_SET
}

size_t rl_model_shape_note(const rl_model_shape *m, const rl_problem *p, char *buf, size_t cap) {
    if (!buf || cap == 0) return 0;
    buf[0] = '\0';
    if (!m || !p || m->unsupported || (m->sliding_window <= 0 && m->chunk <= 0)) return 0;
    const int64_t keys = p->kv_len ? p->kv_len : (p->seq ? p->seq : RL_DEFAULT_SEQ);
    const int64_t local = m->layer.local_layers;
    int n;
    if (m->sliding_window > 0) {
        if (keys <= m->sliding_window || p->window) return 0;
        n = snprintf(buf, cap,
                     "%s: sliding window %lld not applied; L = %lld counts every key, so F and the "
                     "K/V bytes are upper bounds for its window layers (a query there sees at most "
                     "%lld keys; --window %lld --causal applies it)",
                     m->id, (long long)m->sliding_window, (long long)keys,
                     (long long)m->sliding_window, (long long)m->sliding_window);
    } else {
        if (keys <= m->chunk) return 0;
        n = snprintf(buf, cap,
                     "%s: chunked attention (%lld-key chunks) not applied; L = %lld counts every "
                     "key, so F and the K/V bytes are upper bounds for its %lld chunked layers (a "
                     "query there sees only its own chunk; rooflab layer applies the chunks)",
                     m->id, (long long)m->chunk, (long long)keys, (long long)local);
    }
    return n < 0 ? 0 : ((size_t)n < cap ? (size_t)n : cap - 1);
}
