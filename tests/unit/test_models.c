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
 *   qwen3-30b-a3b    2048    6144 (unused) 48    151936  128 8  768      swiglu  rms   0   2, q/k norm */
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

int main(void) {
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
        rl_problem p = {0}, r;
        rl_model_shape_apply(m, &p, 0);
        CHECK(rl_problem_resolve(&p, &r, NULL) == RL_OK);
    }
    CHECK(rl_model_shape_at(rl_model_shape_count()) == NULL);
    /* Multi-head latent attention is refused with the reason, never approximated. */
    rl_error err;
    CHECK(rl_model_shape_lookup("deepseek-v2", "model", NULL, &err) == RL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(err.message, "model: deepseek-v2 cannot be described here: multi-head latent");
    CHECK(rl_model_shape_lookup("llama3", "model", NULL, &err) == RL_ERR_UNKNOWN);
    CHECK_STR_CONTAINS(err.message, "unknown model \"llama3\"; expected one of llama-3.1-8b");
    /* only_unset: a field already set (a flag typed before --model) is kept. */
    rl_problem p = {0};
    p.heads = 16;
    rl_model_shape_apply(rl_model_shape_find("llama-3.1-70b"), &p, 1);
    CHECK(p.heads == 16 && p.kv_heads == 8 && p.head_dim == 128);
    /* Gemma 2 9B: the file's head_dim (256), not hidden_size / heads (224). */
    CHECK(rl_model_shape_find("gemma-2-9b")->head_dim == 256 && 3584 / 16 == 224);
    CHECK(described == sizeof cases / sizeof cases[0]);
    printf("model shapes: %zu described, %zu refused\n", described, refused);
    return check_report("test_models");
}
