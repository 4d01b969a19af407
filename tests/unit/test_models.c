/* Model shapes against their cited sources, values copied here by hand from those files:
 *   meta-llama/llama-models models/llama3_1/api/sku_list.py, model_args:
 *     8B   dim 4096,  n_heads 32,  n_kv_heads 8
 *     70B  dim 8192,  n_heads 64,  n_kv_heads 8
 *     405B dim 16384, n_heads 128, n_kv_heads 8
 *   huggingface/transformers models/mistral/configuration_mistral.py (Mistral-7B-v0.1 defaults):
 *     hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, sliding_window 4096
 *   Hugging Face config.json (huggingface.co/REPO), hidden_size / num_attention_heads /
 *   num_key_value_heads / head_dim / sliding_window:
 *     meta-llama/Meta-Llama-3-8B           4096  32  8   -    -
 *     meta-llama/Meta-Llama-3-70B          8192  64  8   -    -
 *     meta-llama/Llama-2-7b-chat-hf        4096  32  32  -    -
 *     mistralai/Mixtral-8x7B-v0.1          4096  32  8   -    null
 *     Qwen/Qwen2-7B                        3584  28  4   -    (use_sliding_window false)
 *     Qwen/Qwen2-0.5B                      896   14  2   -    (use_sliding_window false)
 *     Qwen/Qwen2-72B                       8192  64  8   -    (use_sliding_window false)
 *     google/gemma-2-9b                    3584  16  8   256  4096 (alternate layers)
 *     google/gemma-2-27b                   4608  32  16  128  4096 (alternate layers)
 *     microsoft/Phi-3-mini-4k-instruct     3072  32  32  -    2047
 *     microsoft/Phi-3-medium-4k-instruct   5120  40  10  -    2047
 *     01-ai/Yi-1.5-34B                     7168  56  8   -    -
 *     openai-community/gpt2 (-medium, -large, -xl): n_embd 768/1024/1280/1600, n_head 12/16/20/25
 *       (multi-head attention: KV heads = heads)
 *     Qwen/Qwen3-30B-A3B                   2048  32  4   128  (use_sliding_window false)
 * head dim = hidden / heads where the source gives no head_dim (head_dim 0 below).
 *
 * The whole layer, from the same config.json files (Llama 3.1: huggingface.co/meta-llama/
 * Llama-3.1-*; Mistral: MistralConfig defaults), copied here by hand:
 *   id               hidden  intermediate layers vocab   E   k  I_expert act     norm  local norms/layer
 *   llama-3.1-8b     4096    14336        32     128256  -   -  -        swiglu  rms   0     2
 *   llama-3.1-70b    8192    28672        80     128256
 *   llama-3.1-405b   16384   53248        126    128256
 *   llama-3-8b       4096    14336        32     128256
 *   llama-3-70b      8192    28672        80     128256
 *   llama-2-7b       4096    11008        32     32000
 *   mistral-7b-v0.1  4096    14336        32     32000                            32 (every layer)
 *   mixtral-8x7b     4096    14336        32     32000   8   2  14336
 *   qwen2-7b         3584    18944        28     152064
 *   qwen2-0.5b       896     4864         24     151936
 *   qwen2-72b        8192    29568        80     152064
 *   gemma-2-9b       3584    14336        42     256000             geglu         21 (even)  4
 *   gemma-2-27b      4608    36864        46     256000             geglu         23 (even)  4
 *   phi-3-mini-4k    3072    8192         32     32064                            32
 *   phi-3-medium-4k  5120    17920        40     32064                            40
 *   yi-1.5-34b       7168    20480        60     64000
 *   gpt2 (-medium, -large, -xl): n_embd 768/1024/1280/1600, n_inner null = 4·n_embd, n_layer
 *     12/24/36/48, vocab_size 50257, gelu_new, LayerNorm, learned positions (no RoPE)
 *   qwen3-30b-a3b    2048    6144 (unused) 48    151936  128 8  768      swiglu  rms   0   2, q/k norm
 *
 * The 2026 shapes, from the Hugging Face config.json of each (text_config where the model is
 * multimodal), copied here by hand:
 *   deepseek-ai/DeepSeek-V3 (and DeepSeek-R1, the same architecture): hidden_size 7168,
 *     num_attention_heads 128, num_key_value_heads 128, qk_nope_head_dim 128, qk_rope_head_dim 64,
 *     v_head_dim 128, kv_lora_rank 512, q_lora_rank 1536, num_hidden_layers 61,
 *     intermediate_size 18432, first_k_dense_replace 3, moe_intermediate_size 2048,
 *     n_routed_experts 256, num_experts_per_tok 8, n_shared_experts 1, vocab_size 129280
 *   deepseek-ai/DeepSeek-V3.2-Exp (inference/config_671B_v3.2.json @ 3b99a535): V3's values
 *     above (dim 7168, n_heads 128, kv_lora_rank 512, qk_rope_head_dim 64, n_layers 61, ...)
 *     plus index_n_heads 64, index_head_dim 128, index_topk 2048
 *   deepseek-ai/DeepSeek-V2: hidden_size 5120, heads 128/128, qk_nope 128, qk_rope 64, v_head 128,
 *     kv_lora_rank 512, q_lora_rank 1536, num_hidden_layers 60, intermediate_size 12288,
 *     first_k_dense_replace 1, moe_intermediate_size 1536, n_routed_experts 160,
 *     num_experts_per_tok 6, n_shared_experts 2, vocab_size 102400
 *   moonshotai/Kimi-K2-Instruct: hidden_size 7168, heads 64/64, qk_nope 128, qk_rope 64,
 *     v_head 128, kv_lora_rank 512, q_lora_rank 1536, num_hidden_layers 61,
 *     intermediate_size 18432, first_k_dense_replace 1, moe_intermediate_size 2048,
 *     n_routed_experts 384, num_experts_per_tok 8, n_shared_experts 1, vocab_size 163840
 *   openai/gpt-oss-120b: hidden_size 2880, num_attention_heads 64, num_key_value_heads 8,
 *     head_dim 64, sliding_window 128, layer_types sliding/full alternating, num_hidden_layers 36,
 *     intermediate_size 2880, num_local_experts 128, num_experts_per_tok 4, vocab_size 201088
 *   openai/gpt-oss-20b: the same with num_hidden_layers 24, num_local_experts 32
 *   Qwen/Qwen3-8B: hidden_size 4096, heads 32, kv heads 8, head_dim 128, layers 36,
 *     intermediate_size 12288, vocab_size 151936
 *   Qwen/Qwen3-32B: hidden_size 5120, heads 64, kv heads 8, head_dim 128, layers 64,
 *     intermediate_size 25600, vocab_size 151936
 *   Qwen/Qwen3-235B-A22B: hidden_size 4096, heads 64, kv heads 4, head_dim 128, layers 94,
 *     intermediate_size 12288, moe_intermediate_size 1536, num_experts 128, num_experts_per_tok 8
 *   meta-llama/Llama-4-Scout-17B-16E: hidden_size 5120, heads 40, kv heads 8, head_dim 128,
 *     num_hidden_layers 48, attention_chunk_size 8192, no_rope_layer_interval 4 (12 NoPE global
 *     layers), intermediate_size 8192, intermediate_size_mlp 16384, num_local_experts 16,
 *     num_experts_per_tok 1, interleave_moe_layer_step 1, vocab_size 202048
 *   meta-llama/Llama-4-Maverick-17B-128E: the same with num_local_experts 128,
 *     interleave_moe_layer_step 2 (24 dense layers of intermediate_size_mlp 16384)
 *   google/gemma-3-12b-it: hidden_size 3840, heads 16, kv heads 8, head_dim 256, layers 48,
 *     intermediate_size 15360, sliding_window 1024, sliding_window_pattern 6 (default):
 *     40 sliding + 8 global
 *   google/gemma-3-27b-it: hidden_size 5376, heads 32, kv heads 16, head_dim 128, layers 62,
 *     intermediate_size 21504, sliding_window 1024: 52 sliding + 10 global; vocab 262208 (default)
 *   mistralai/Mistral-Small-3.1-24B-Instruct-2503: hidden_size 5120, heads 32, kv heads 8,
 *     head_dim 128, layers 40, intermediate_size 32768, vocab_size 131072, sliding_window null */
#include "check.h"
#include "rooflab/rooflab.h"

typedef struct {
    const char *id;
    int64_t dim, heads, kv_heads, head_dim, window;
    int64_t inter, layers, vocab, experts, active, expert_inter, local;
    int norms, gelu; /* gelu: 0 swiglu, 1 geglu, 2 plain gelu (LayerNorm, no RoPE) */
} cited;

static const cited cases[] = {
    {"llama-3.1-8b", 4096, 32, 8, 0, 0, 14336, 32, 128256, 0, 0, 0, 0, 2, 0},
    {"llama-3.1-70b", 8192, 64, 8, 0, 0, 28672, 80, 128256, 0, 0, 0, 0, 2, 0},
    {"llama-3.1-405b", 16384, 128, 8, 0, 0, 53248, 126, 128256, 0, 0, 0, 0, 2, 0},
    {"llama-3-8b", 4096, 32, 8, 0, 0, 14336, 32, 128256, 0, 0, 0, 0, 2, 0},
    {"llama-3-70b", 8192, 64, 8, 0, 0, 28672, 80, 128256, 0, 0, 0, 0, 2, 0},
    {"llama-2-7b", 4096, 32, 32, 0, 0, 11008, 32, 32000, 0, 0, 0, 0, 2, 0},
    {"mistral-7b-v0.1", 4096, 32, 8, 0, 4096, 14336, 32, 32000, 0, 0, 0, 32, 2, 0},
    {"mixtral-8x7b", 4096, 32, 8, 0, 0, 14336, 32, 32000, 8, 2, 14336, 0, 2, 0},
    {"qwen2-7b", 3584, 28, 4, 0, 0, 18944, 28, 152064, 0, 0, 0, 0, 2, 0},
    {"qwen2-0.5b", 896, 14, 2, 0, 0, 4864, 24, 151936, 0, 0, 0, 0, 2, 0},
    {"qwen2-72b", 8192, 64, 8, 0, 0, 29568, 80, 152064, 0, 0, 0, 0, 2, 0},
    {"gemma-2-9b", 3584, 16, 8, 256, 4096, 14336, 42, 256000, 0, 0, 0, 21, 4, 1},
    {"gemma-2-27b", 4608, 32, 16, 128, 4096, 36864, 46, 256000, 0, 0, 0, 23, 4, 1},
    {"phi-3-mini-4k", 3072, 32, 32, 0, 2047, 8192, 32, 32064, 0, 0, 0, 32, 2, 0},
    {"phi-3-medium-4k", 5120, 40, 10, 0, 2047, 17920, 40, 32064, 0, 0, 0, 40, 2, 0},
    {"yi-1.5-34b", 7168, 56, 8, 0, 0, 20480, 60, 64000, 0, 0, 0, 0, 2, 0},
    {"gpt2", 768, 12, 12, 0, 0, 3072, 12, 50257, 0, 0, 0, 0, 2, 2},
    {"gpt2-medium", 1024, 16, 16, 0, 0, 4096, 24, 50257, 0, 0, 0, 0, 2, 2},
    {"gpt2-large", 1280, 20, 20, 0, 0, 5120, 36, 50257, 0, 0, 0, 0, 2, 2},
    {"gpt2-xl", 1600, 25, 25, 0, 0, 6400, 48, 50257, 0, 0, 0, 0, 2, 2},
    {"qwen3-30b-a3b", 2048, 32, 4, 128, 0, 6144, 48, 151936, 128, 8, 768, 0, 2, 0},
};

/* The 2026 shapes: attention variants and layer kinds, values from the files listed above. */
typedef struct {
    const char *id;
    int64_t heads, kv_heads, head_dim, head_dim_v, kv_lora, rope, window, chunk, local;
    int64_t hidden, inter, layers, vocab, experts, active, expert_inter, shared, dense, q_lora;
    int qk_norm, norms, geglu, nope_global, sink;
} cited2026;

static const cited2026 cases2026[] = {
    {"deepseek-v3", 128, 128, 128 + 64, 128, 512, 64, 0, 0, 0,
     7168, 18432, 61, 129280, 256, 8, 2048, 1, 3, 1536, 0, 2, 0, 0, 0},
    {"deepseek-r1", 128, 128, 128 + 64, 128, 512, 64, 0, 0, 0,
     7168, 18432, 61, 129280, 256, 8, 2048, 1, 3, 1536, 0, 2, 0, 0, 0},
    {"deepseek-v3.2", 128, 128, 128 + 64, 128, 512, 64, 0, 0, 0,
     7168, 18432, 61, 129280, 256, 8, 2048, 1, 3, 1536, 0, 2, 0, 0, 0},
    {"deepseek-v2", 128, 128, 128 + 64, 128, 512, 64, 0, 0, 0,
     5120, 12288, 60, 102400, 160, 6, 1536, 2, 1, 1536, 0, 2, 0, 0, 0},
    {"kimi-k2", 64, 64, 128 + 64, 128, 512, 64, 0, 0, 0,
     7168, 18432, 61, 163840, 384, 8, 2048, 1, 1, 1536, 0, 2, 0, 0, 0},
    {"gpt-oss-120b", 64, 8, 64, 0, 0, 0, 128, 0, 36 / 2,
     2880, 2880, 36, 201088, 128, 4, 2880, 0, 0, 0, 0, 2, 0, 0, 1},
    {"gpt-oss-20b", 64, 8, 64, 0, 0, 0, 128, 0, 24 / 2,
     2880, 2880, 24, 201088, 32, 4, 2880, 0, 0, 0, 0, 2, 0, 0, 1},
    {"qwen3-8b", 32, 8, 128, 0, 0, 0, 0, 0, 0,
     4096, 12288, 36, 151936, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0},
    {"qwen3-32b", 64, 8, 128, 0, 0, 0, 0, 0, 0,
     5120, 25600, 64, 151936, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0},
    {"qwen3-235b-a22b", 64, 4, 128, 0, 0, 0, 0, 0, 0,
     4096, 12288, 94, 151936, 128, 8, 1536, 0, 0, 0, 1, 2, 0, 0, 0},
    /* 48 layers, every 4th NoPE global: 12 global, 36 chunked. */
    {"llama-4-scout", 40, 8, 128, 0, 0, 0, 0, 8192, 48 - 48 / 4,
     5120, 16384, 48, 202048, 16, 1, 8192, 1, 0, 0, 0, 2, 0, 1, 0},
    {"llama-4-maverick", 40, 8, 128, 0, 0, 0, 0, 8192, 48 - 48 / 4,
     5120, 16384, 48, 202048, 128, 1, 8192, 1, 48 / 2, 0, 0, 2, 0, 1, 0},
    /* Global when (i + 1) % 6 == 0: ⌊48/6⌋ = 8 and ⌊62/6⌋ = 10 global layers. */
    {"gemma-3-12b", 16, 8, 256, 0, 0, 0, 1024, 0, 48 - 48 / 6,
     3840, 15360, 48, 262208, 0, 0, 0, 0, 0, 0, 1, 4, 1, 0, 0},
    {"gemma-3-27b", 32, 16, 128, 0, 0, 0, 1024, 0, 62 - 62 / 6,
     5376, 21504, 62, 262208, 0, 0, 0, 0, 0, 0, 1, 4, 1, 0, 0},
    {"mistral-small-3.1-24b", 32, 8, 128, 0, 0, 0, 0, 0, 0,
     5120, 32768, 40, 131072, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0},
};

static void shapes_2026(void) {
    for (size_t i = 0; i < sizeof cases2026 / sizeof cases2026[0]; i++) {
        const cited2026 *c = &cases2026[i];
        const rl_model_shape *m = NULL;
        CHECK(rl_model_shape_lookup(c->id, "model", &m, NULL) == RL_OK);
        if (!m) {
            fprintf(stderr, "missing %s\n", c->id);
            continue;
        }
        const rl_layer_shape *l = &m->layer;
        CHECK(m->heads == c->heads && m->kv_heads == c->kv_heads && m->head_dim == c->head_dim);
        CHECK(m->head_dim_v == c->head_dim_v);
        CHECK(m->kv_lora_rank == c->kv_lora && m->rope_dim == c->rope);
        CHECK(m->sliding_window == c->window && m->chunk == c->chunk);
        CHECK(m->sink_logit == c->sink);
        CHECK(l->local_layers == c->local);
        CHECK(l->hidden == c->hidden && l->intermediate == c->inter && l->layers == c->layers);
        CHECK(l->vocab == c->vocab);
        CHECK(l->experts == c->experts && l->experts_active == c->active);
        CHECK(l->expert_intermediate == c->expert_inter && l->shared_experts == c->shared);
        CHECK(l->dense_layers == c->dense && l->q_lora_rank == c->q_lora);
        CHECK(l->qk_norm == c->qk_norm && l->norms_per_layer == c->norms);
        CHECK(l->act == (c->geglu ? RL_ACT_GELU_TANH_GLU : RL_ACT_SILU_GLU));
        CHECK(l->nope_global == c->nope_global && l->rope == 1 && l->norm == RL_NORM_RMS);
        CHECK(strstr(m->source, "huggingface.co/") && strstr(l->source, "huggingface.co/"));
        if (!(m->heads == c->heads && l->local_layers == c->local && l->layers == c->layers))
            fprintf(stderr, "%s differs from its config\n", c->id);
    }
    /* The mixes the task names: gemma-3-27b 52 local (W = 1024) + 10 global; gpt-oss-120b 18 +
     * 18 (alternating, W = 128); Llama 4 36 chunked (C = 8192) + 12 global. */
    const rl_model_shape *g = rl_model_shape_find("gemma-3-27b");
    CHECK(g && g->layer.local_layers == 52 && g->layer.layers - g->layer.local_layers == 10);
    const rl_model_shape *o = rl_model_shape_find("gpt-oss-120b");
    CHECK(o && o->layer.local_layers == 18 && o->layer.layers - o->layer.local_layers == 18);

    /* An MLA shape gives its absorbed decode form for seq 1 … 16 and its MHA form otherwise. */
    const rl_model_shape *ds = rl_model_shape_find("deepseek-v3");
    rl_problem dec = {0}, res;
    dec.seq = 1;
    dec.kv_len = 1 << 20; /* large L */
    dec.dtype = RL_DTYPE_BF16;
    rl_model_shape_apply(ds, &dec, 1);
    CHECK(dec.kv_lora_rank == 512 && dec.rope_dim == 64 && dec.heads == 128);
    CHECK(rl_problem_resolve(&dec, &res, NULL) == RL_OK);
    CHECK(res.head_dim == 576 && res.head_dim_v == 512 && res.kv_heads == 1);
    /* Absorbed decode intensity at large L, bf16: 2·H·N·(d_qk + d_v) FLOPs per key over d_qk·b
     * bytes per key = 2·128·1·(576 + 512)/(576·2) = 278528/1152 = 241.78 FLOP/B; the Q and O bytes
     * (128·576·2 + 128·512·2 = 278528 B) against 2^20·1152 B of latent move it by 0.02 %. */
    rl_workload w;
    CHECK(rl_workload_compute(&dec, &w, NULL) == RL_OK);
    const double intensity = w.flops / w.traffic[RL_MODEL_COMPULSORY].bytes;
    CHECK_CLOSE(intensity, 2.0 * 128 * (576 + 512) / (576 * 2), 1e-3);
    CHECK(intensity > 241.5 && intensity < 242.0);
    /* Two query rows (MTP) double it. */
    rl_problem mtp = {0};
    mtp.seq = 2;
    mtp.kv_len = 1 << 20;
    mtp.dtype = RL_DTYPE_BF16;
    rl_model_shape_apply(ds, &mtp, 1);
    CHECK(rl_workload_compute(&mtp, &w, NULL) == RL_OK);
    CHECK_CLOSE(w.flops / w.traffic[RL_MODEL_COMPULSORY].bytes, 2 * 241.78, 1e-3);
    /* Prefill (seq unset: N = 4096, or any N > 16): the MHA form, d 192, d_v 128, 128 KV heads. */
    rl_problem pre = {0};
    rl_model_shape_apply(ds, &pre, 1);
    CHECK(pre.kv_lora_rank == 0 && pre.heads == 128 && pre.kv_heads == 128);
    CHECK(pre.head_dim == 192 && pre.head_dim_v == 128);
    rl_problem pre17 = {0};
    pre17.seq = RL_MLA_DECODE_MAX_ROWS + 1;
    rl_model_shape_apply(ds, &pre17, 1);
    CHECK(pre17.kv_lora_rank == 0 && pre17.head_dim == 192);
    /* A flag already set wins: --kv-lora-rank typed, the rest filled. */
    rl_problem typed = {0};
    typed.seq = 1;
    typed.heads = 16;
    rl_model_shape_apply(ds, &typed, 1);
    CHECK(typed.heads == 16 && typed.kv_lora_rank == 512);

    /* Notes: a window says the flags that apply it; a chunk says rooflab layer applies it. */
    char note[RL_ERROR_MESSAGE_MAX];
    CHECK(rl_model_shape_note(g, &(rl_problem){.seq = 1, .kv_len = 32768}, note, sizeof note) > 0);
    CHECK_STR_CONTAINS(note, "gemma-3-27b: sliding window 1024 not applied; L = 32768");
    CHECK_STR_CONTAINS(note, "--window 1024 --causal applies it");
    CHECK(rl_model_shape_note(g, &(rl_problem){.seq = 1, .kv_len = 32768, .window = 1024,
                                               .causal = 1},
                              note, sizeof note) == 0); /* applied: nothing to say */
    const rl_model_shape *sc = rl_model_shape_find("llama-4-scout");
    CHECK(rl_model_shape_note(sc, &(rl_problem){.seq = 1, .kv_len = 8192}, note, sizeof note) == 0);
    CHECK(rl_model_shape_note(sc, &(rl_problem){.seq = 1, .kv_len = 8193}, note, sizeof note) > 0);
    CHECK_STR_CONTAINS(note, "llama-4-scout: chunked attention (8192-key chunks) not applied");
    CHECK_STR_CONTAINS(note, "its 36 chunked layers");
}

int main(void) {
    shapes_2026();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rl_model_shape *m = NULL;
        rl_error err;
        CHECK(rl_model_shape_lookup(cases[i].id, "model", &m, &err) == RL_OK);
        if (!m) continue;
        CHECK(m->heads == cases[i].heads);
        CHECK(m->kv_heads == cases[i].kv_heads);
        CHECK(m->head_dim == (cases[i].head_dim ? cases[i].head_dim : cases[i].dim / cases[i].heads));
        CHECK(m->sliding_window == cases[i].window);
        CHECK(m->source && (strstr(m->source, "github.com/") || strstr(m->source, "huggingface.co/")));
        CHECK(m->heads % m->kv_heads == 0);
        /* The whole layer. */
        const rl_layer_shape *l = &m->layer;
        CHECK(l->hidden == cases[i].dim);
        CHECK(l->intermediate == cases[i].inter);
        CHECK(l->layers == cases[i].layers);
        CHECK(l->vocab == cases[i].vocab);
        CHECK(l->experts == cases[i].experts);
        CHECK(l->experts_active == cases[i].active);
        CHECK(l->expert_intermediate == cases[i].expert_inter);
        CHECK(l->shared_experts == 0);
        CHECK(l->local_layers == cases[i].local);
        CHECK(l->norms_per_layer == cases[i].norms);
        CHECK(l->act == (cases[i].gelu == 0   ? RL_ACT_SILU_GLU
                         : cases[i].gelu == 1 ? RL_ACT_GELU_TANH_GLU
                                              : RL_ACT_GELU_TANH));
        CHECK(l->norm == (cases[i].gelu == 2 ? RL_NORM_LAYER : RL_NORM_RMS));
        CHECK(l->rope == (cases[i].gelu != 2));
        CHECK(l->qk_norm == (strcmp(cases[i].id, "qwen3-30b-a3b") == 0));
        CHECK(l->dense_layers == 0 && l->q_lora_rank == 0 && l->nope_global == 0);
        CHECK(m->head_dim_v == 0 && m->kv_lora_rank == 0 && m->chunk == 0 && m->sink_logit == 0);
        CHECK(l->source && (strstr(l->source, "huggingface.co/") || strstr(l->source, "github.com/")));
        CHECK(l->fields && l->fields[0]);
        /* A window listed on the attention shape exactly when some layers use it. */
        CHECK((l->local_layers > 0) == (m->sliding_window > 0));
    }
    /* A sliding window the model does not apply is said, only when the keys outrun it. */
    char note[RL_ERROR_MESSAGE_MAX];
    const rl_model_shape *mi = rl_model_shape_find("mistral-7b-v0.1");
    CHECK(rl_model_shape_note(mi, &(rl_problem){.seq = 1, .kv_len = 4096}, note, sizeof note) == 0);
    CHECK(note[0] == '\0');
    CHECK(rl_model_shape_note(mi, &(rl_problem){.seq = 1, .kv_len = 4097}, note, sizeof note) > 0);
    CHECK_STR_CONTAINS(note, "sliding window 4096 not applied; L = 4097 counts every key");
    CHECK(rl_model_shape_note(mi, &(rl_problem){.seq = 8192}, note, sizeof note) > 0); /* L = N */
    CHECK_STR_CONTAINS(note, "L = 8192");
    CHECK(rl_model_shape_note(rl_model_shape_find("llama-3-70b"), &(rl_problem){.kv_len = 131072},
                              note, sizeof note) == 0); /* no window: nothing to say */
    /* Every listed shape is a valid problem; ids are lower case with dashes; unique. */
    size_t described = 0, refused = 0;
    for (size_t i = 0; i < rl_model_shape_count(); i++) {
        const rl_model_shape *m = rl_model_shape_at(i);
        for (const char *c = m->id; *c; c++)
            CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '.');
        CHECK(rl_model_shape_find(m->id) == m);
        CHECK(m->source && m->source[0]);
        if (m->unsupported) {
            refused++;
            continue;
        }
        described++;
        /* Local layers exactly when a window or a chunk is listed, and never both. */
        CHECK((m->layer.local_layers > 0) == (m->sliding_window > 0 || m->chunk > 0));
        CHECK(!(m->sliding_window > 0 && m->chunk > 0));
        CHECK(m->layer.dense_layers <= m->layer.layers && m->layer.local_layers <= m->layer.layers);
        rl_problem p = {0}, r;
        rl_model_shape_apply(m, &p, 0);
        CHECK(rl_problem_resolve(&p, &r, NULL) == RL_OK);
        rl_problem q = {0}; /* decode (MLA: the absorbed form) */
        q.seq = 1;
        rl_model_shape_apply(m, &q, 0);
        CHECK(rl_problem_resolve(&q, &r, NULL) == RL_OK);
    }
    CHECK(rl_model_shape_at(rl_model_shape_count()) == NULL);
    /* Linear attention (Qwen3-Next's Gated DeltaNet in 36 of 48 layers) is refused with the
     * reason, never approximated. */
    rl_error err;
    CHECK(rl_model_shape_lookup("qwen3-next-80b-a3b", "model", NULL, &err) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(err.message,
                       "model: qwen3-next-80b-a3b cannot be described here: linear attention");
    /* DeepSeek-V3.2 is described since --topk exists: V3's MLA with index_topk 2048
     * (config_671B_v3.2.json): decode (N = 1) absorbed, R 512 + DR 64, top-k 2048; at
     * L = 65536, pairs N · min(2048, L) = 2048, F = 2 · 128 · (576 + 512) · 2048 = 570,425,344. */
    const rl_model_shape *v32 = NULL;
    CHECK(rl_model_shape_lookup("deepseek-v3.2", "model", &v32, &err) == RL_OK);
    rl_problem d = {.seq = 1, .kv_len = 65536, .dtype = RL_DTYPE_BF16};
    rl_model_shape_apply(v32, &d, 0);
    CHECK(d.topk == 2048 && d.kv_lora_rank == 512 && d.rope_dim == 64 && d.heads == 128);
    rl_workload wd;
    CHECK(rl_workload_compute(&d, &wd, &err) == RL_OK);
    CHECK(wd.pairs == 2048.0 && wd.flops == 570425344.0);
    /* prefill: the MHA form (d 192, d_v 128) over the top-k too */
    rl_problem pf = {.seq = 4096, .causal = 1};
    rl_model_shape_apply(v32, &pf, 0);
    CHECK(pf.topk == 2048 && pf.head_dim == 192 && pf.head_dim_v == 128 && pf.kv_lora_rank == 0);
    CHECK(refused == 1);
    CHECK(rl_model_shape_lookup("llama3", "model", NULL, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "unknown model \"llama3\"; expected one of llama-3.1-8b");
    /* only_unset: a field already set (a flag typed before --model) is kept. */
    rl_problem p = {0};
    p.heads = 16;
    rl_model_shape_apply(rl_model_shape_find("llama-3.1-70b"), &p, 1);
    CHECK(p.heads == 16 && p.kv_heads == 8 && p.head_dim == 128);
    /* Gemma 2 9B: the file's head_dim (256), not hidden_size / heads (224). */
    CHECK(rl_model_shape_find("gemma-2-9b")->head_dim == 256 && 3584 / 16 == 224);
    CHECK(described == sizeof cases / sizeof cases[0] + sizeof cases2026 / sizeof cases2026[0]);
    printf("model shapes: %zu described, %zu refused\n", described, refused);
    return check_report("test_models");
}
