/* bench_grid.c — the fixed problem grids of `rooflab bench` (resolved through core). */
#include <string.h>

#include "bench.h"

int rlb_case_make(rlb_kernel kernel, const rl_problem *p, rl_model model, rlb_case *out,
                  rl_error *err) {
    memset(out, 0, sizeof *out);
    out->kernel = kernel;
    out->model = model;
    return rl_problem_resolve(p, &out->problem, err) == RL_OK ? 0 : -1;
}

/* ---- grids ------------------------------------------------------------------------------- */

typedef struct {
    rlb_case *cases;
    int cap, n;
} grid_out;

static void add(grid_out *g, rlb_kernel k, rl_model m, int64_t B, int64_t H, int64_t Hkv,
                int64_t N, int64_t L, int64_t d, rl_dtype dt, int causal, int64_t br, int64_t bc) {
    rl_problem p = {0};
    p.batch = B;
    p.heads = H;
    p.kv_heads = Hkv;
    p.seq = N;
    p.kv_len = L;
    p.head_dim = d;
    p.dtype = dt;
    p.causal = causal;
    p.block_m = br;
    p.block_n = bc;
    if (g->n < g->cap) {
        rl_error e;
        if (rlb_case_make(k, &p, m, &g->cases[g->n], &e) != 0) return; /* grids are valid */
    }
    g->n++;
}

static void grid_cpu(grid_out *g, int quick) {
    const rl_dtype f32 = RL_DTYPE_FP32;
    static const int64_t quick_n[] = {512, 2048};
    static const int64_t full_n[] = {1024, 2048, 4096, 8192};
    const int64_t *ns = quick ? quick_n : full_n;
    const int count = quick ? 2 : 4;
    for (int i = 0; i < count; i++)
        for (int causal = 0; causal <= 1; causal++) {
            add(g, RLB_CPU_NAIVE, RL_MODEL_NAIVE, 1, 4, 4, ns[i], ns[i], 64, f32, causal, 64, 64);
            add(g, RLB_CPU_TILED, RL_MODEL_TILED, 1, 4, 4, ns[i], ns[i], 64, f32, causal, 64, 64);
        }
    /* Decode with GQA (H = 8 query heads over 2 KV heads): the tiled kernel with N = 1, one
     * query block per KV group, so every tensor moves once: the compulsory model. */
    add(g, RLB_CPU_TILED, RL_MODEL_COMPULSORY, 1, 8, 2, 1, quick ? 16384 : 65536, 128, f32, 0, 64,
        64);
    if (!quick)
        add(g, RLB_CPU_TILED, RL_MODEL_COMPULSORY, 1, 32, 8, 1, 4096, 128, f32, 0, 64, 64);
}

static void grid_cuda(grid_out *g, int quick) {
    const rl_dtype f32 = RL_DTYPE_FP32, f16 = RL_DTYPE_FP16, b16 = RL_DTYPE_BF16;
    const rlb_kernel NV = RLB_CUDA_NAIVE, TF = RLB_CUDA_TILED_FP32, TC = RLB_CUDA_TILED_TC,
                     MM = RLB_CUDA_TILED_MMA, DE = RLB_CUDA_DECODE;
    const rl_model MN = RL_MODEL_NAIVE, MT = RL_MODEL_TILED, MC = RL_MODEL_COMPULSORY;
    if (quick) {
        add(g, NV, MN, 1, 8, 8, 2048, 2048, 64, f16, 0, 64, 64);
        add(g, TF, MT, 1, 8, 8, 2048, 2048, 64, f32, 1, 64, 64);
        add(g, TC, MT, 2, 8, 8, 2048, 2048, 64, f16, 0, 64, 64);
        add(g, TC, MT, 2, 8, 8, 2048, 2048, 128, b16, 1, 64, 32);
        add(g, MM, MT, 2, 8, 8, 2048, 2048, 64, f16, 0, 64, 64);
        add(g, MM, MT, 2, 8, 8, 2048, 2048, 128, b16, 1, 64, 64);
        add(g, DE, MC, 4, 32, 8, 1, 8192, 128, f16, 0, 64, 64);
        return;
    }
    /* naive: S and P materialised (B·H·N·L elements each, in the input dtype). */
    add(g, NV, MN, 1, 16, 16, 4096, 4096, 64, f32, 0, 64, 64);
    add(g, NV, MN, 1, 16, 16, 4096, 4096, 64, f16, 0, 64, 64);
    add(g, NV, MN, 1, 16, 16, 4096, 4096, 64, b16, 0, 64, 64);
    add(g, NV, MN, 1, 16, 16, 8192, 8192, 128, f16, 0, 64, 64);
    add(g, NV, MN, 1, 16, 16, 8192, 8192, 128, f16, 1, 64, 64);
    add(g, NV, MN, 2, 8, 2, 300, 700, 64, f16, 1, 64, 64); /* GQA, N < L, L % 8 != 0 */
    /* tiled fp32, several Br × Bc */
    add(g, TF, MT, 4, 16, 16, 4096, 4096, 64, f32, 0, 64, 64);
    add(g, TF, MT, 4, 16, 16, 4096, 4096, 64, f32, 0, 32, 64);
    add(g, TF, MT, 4, 16, 16, 4096, 4096, 64, f32, 0, 64, 32);
    add(g, TF, MT, 4, 16, 16, 4096, 4096, 64, f32, 1, 64, 64);
    add(g, TF, MT, 4, 16, 16, 4096, 4096, 128, f32, 0, 32, 32);
    add(g, TF, MT, 1, 4, 2, 300, 700, 64, f32, 1, 48, 40); /* GQA, N < L, odd tiles */
    /* tiled on tensor cores (the tile is the kernel's: 64×64 for d = 64, 64×32 for d = 128) */
    for (int dt = 0; dt < 2; dt++)
        for (int causal = 0; causal <= 1; causal++) {
            add(g, TC, MT, 4, 16, 16, 4096, 4096, 64, dt ? b16 : f16, causal, 64, 64);
            add(g, TC, MT, 4, 16, 16, 4096, 4096, 128, dt ? b16 : f16, causal, 64, 32);
        }
    add(g, TC, MT, 2, 16, 16, 8192, 8192, 128, f16, 0, 64, 32);
    add(g, TC, MT, 2, 16, 16, 8192, 8192, 128, f16, 1, 64, 32);
    add(g, TC, MT, 1, 4, 4, 1000, 1000, 64, f16, 1, 64, 64); /* N not a multiple of Br or Bc */
    add(g, TC, MT, 2, 8, 2, 777, 1500, 128, f16, 1, 64, 32); /* GQA, N < L, ragged tiles */
    /* the register-resident (FlashAttention-2 arrangement) kernel on the same problems */
    for (int dt = 0; dt < 2; dt++)
        for (int causal = 0; causal <= 1; causal++) {
            add(g, MM, MT, 4, 16, 16, 4096, 4096, 64, dt ? b16 : f16, causal, 64, 64);
            add(g, MM, MT, 4, 16, 16, 4096, 4096, 128, dt ? b16 : f16, causal, 64, 64);
        }
    add(g, MM, MT, 2, 16, 16, 8192, 8192, 128, f16, 0, 64, 64);
    add(g, MM, MT, 2, 16, 16, 8192, 8192, 128, f16, 1, 64, 64);
    add(g, MM, MT, 1, 4, 4, 1000, 1000, 128, b16, 1, 64, 64);
    add(g, MM, MT, 2, 8, 2, 777, 1500, 64, f16, 1, 64, 64); /* GQA, N < L, ragged tiles */
    /* decode: fused GQA groups read K/V once per KV head (compulsory model) */
    for (int dt = 0; dt < 2; dt++) {
        rl_dtype t = dt ? b16 : f16;
        add(g, DE, MC, 1, 32, 8, 1, 4096, 128, t, 0, 64, 64);
        add(g, DE, MC, 8, 32, 8, 1, 32768, 128, t, 0, 64, 64);
        add(g, DE, MC, 16, 32, 8, 1, 65536, 128, t, 0, 64, 64);
        add(g, DE, MC, 4, 32, 32, 1, 16384, 128, t, 0, 64, 64);
        add(g, DE, MC, 8, 8, 1, 1, 131072, 128, t, 0, 64, 64);
    }
    add(g, DE, MC, 8, 32, 8, 1, 32768, 128, f32, 0, 64, 64);
    add(g, DE, MC, 8, 16, 4, 1, 32768, 64, f16, 0, 64, 64);
    /* H/Hkv = 3 is not fused: one query head per block, K/V per query head (tiled, N = 1) */
    add(g, DE, MT, 2, 24, 8, 1, 8192, 128, f16, 0, 1, 64);
}

int rlb_grid(const char *backend, int quick, rlb_case *cases, int cap) {
    grid_out g = {cases, cap, 0};
    if (strcmp(backend, "cpu") == 0)
        grid_cpu(&g, quick);
    else if (strcmp(backend, "cuda") == 0)
        grid_cuda(&g, quick);
    return g.n;
}

