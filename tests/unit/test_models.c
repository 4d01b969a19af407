/* Model shapes against their cited sources, values copied here by hand from those files:
 *   meta-llama/llama-models models/llama3_1/api/sku_list.py, model_args:
 *     8B   dim 4096,  n_heads 32,  n_kv_heads 8
 *     70B  dim 8192,  n_heads 64,  n_kv_heads 8
 *     405B dim 16384, n_heads 128, n_kv_heads 8
 *   huggingface/transformers models/mistral/configuration_mistral.py (Mistral-7B-v0.1 defaults):
 *     hidden_size 4096, num_attention_heads 32, num_key_value_heads 8, sliding_window 4096
 * head dim = dim / heads where the source gives no head_dim. */
#include "check.h"
#include "rooflab/rooflab.h"

typedef struct {
    const char *id;
    int64_t dim, heads, kv_heads, window;
} cited;

static const cited cases[] = {
    {"llama-3.1-8b", 4096, 32, 8, 0},
    {"llama-3.1-70b", 8192, 64, 8, 0},
    {"llama-3.1-405b", 16384, 128, 8, 0},
    {"mistral-7b-v0.1", 4096, 32, 8, 4096},
};

int main(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rl_model_shape *m = NULL;
        rl_error err;
        CHECK(rl_model_shape_lookup(cases[i].id, "model", &m, &err) == RL_OK);
        if (!m) continue;
        CHECK(m->heads == cases[i].heads);
        CHECK(m->kv_heads == cases[i].kv_heads);
        CHECK(m->head_dim == cases[i].dim / cases[i].heads);
        CHECK(m->sliding_window == cases[i].window);
        CHECK(m->source && strstr(m->source, "github.com/") != NULL);
        CHECK(m->heads % m->kv_heads == 0);
    }
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
    printf("model shapes: %zu described, %zu refused\n", described, refused);
    return check_report("test_models");
}
