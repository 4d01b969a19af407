/* problem.c — defaults and validation of an attention problem. */
#include <inttypes.h>

#include "internal.h"

const char *rl_pass_name(rl_pass pass) { return pass == RL_PASS_BWD ? "bwd" : "fwd"; }

static rl_status check_size(int64_t v, int64_t max, const char *field, rl_error *err) {
    if (v < 1 || v > max)
        return rl__fail(err, RL_ERR_RANGE, field,
                        "expected a positive integer (1 to %" PRId64 "), got %" PRId64, max, v);
    return RL_OK;
}

static rl_status check_dtype(rl_dtype d, const char *field, rl_error *err) {
    if ((int)d <= (int)RL_DTYPE_DEFAULT || d >= RL_DTYPE_COUNT)
        return rl__fail(err, RL_ERR_UNKNOWN, field, "expected one of fp32, tf32, fp16, bf16, fp8, got code %d",
                        (int)d);
    return RL_OK;
}

rl_status rl_problem_resolve(const rl_problem *in, rl_problem *out, rl_error *err) {
    rl_problem p = in ? *in : (rl_problem){0};
    if (p.batch == 0) p.batch = RL_DEFAULT_BATCH;
    if (p.heads == 0) p.heads = RL_DEFAULT_HEADS;
    if (p.kv_heads == 0) p.kv_heads = p.heads;
    if (p.seq == 0) p.seq = RL_DEFAULT_SEQ;
    if (p.kv_len == 0) p.kv_len = p.seq;
    if (p.head_dim == 0) p.head_dim = RL_DEFAULT_HEAD_DIM;
    if (p.dtype == RL_DTYPE_DEFAULT) p.dtype = RL_DTYPE_FP16;
    if (p.kv_dtype == RL_DTYPE_DEFAULT) p.kv_dtype = p.dtype;
    if (p.score_dtype == RL_DTYPE_DEFAULT) p.score_dtype = p.dtype;
    if (p.block_m == 0) p.block_m = RL_DEFAULT_BLOCK;
    if (p.block_n == 0) p.block_n = RL_DEFAULT_BLOCK;

    rl_status s;
    if ((s = check_size(p.batch, RL_MAX_DIM, "batch", err)) != RL_OK) return s;
    if ((s = check_size(p.heads, RL_MAX_DIM, "heads", err)) != RL_OK) return s;
    if ((s = check_size(p.kv_heads, RL_MAX_DIM, "kv-heads", err)) != RL_OK) return s;
    if ((s = check_size(p.seq, RL_MAX_DIM, "seq", err)) != RL_OK) return s;
    if ((s = check_size(p.kv_len, RL_MAX_DIM, "kv-len", err)) != RL_OK) return s;
    if ((s = check_size(p.head_dim, RL_MAX_HEAD_DIM, "head-dim", err)) != RL_OK) return s;
    if ((s = check_size(p.block_m, RL_MAX_BLOCK, "block-m", err)) != RL_OK) return s;
    if ((s = check_size(p.block_n, RL_MAX_BLOCK, "block-n", err)) != RL_OK) return s;
    if ((s = check_dtype(p.dtype, "dtype", err)) != RL_OK) return s;
    if ((s = check_dtype(p.kv_dtype, "kv-dtype", err)) != RL_OK) return s;
    if ((s = check_dtype(p.score_dtype, "score-dtype", err)) != RL_OK) return s;
    if (p.pass != RL_PASS_FWD && p.pass != RL_PASS_BWD)
        return rl__fail(err, RL_ERR_INVALID, "pass", "expected fwd or bwd, got code %d", (int)p.pass);
    if (p.causal != 0 && p.causal != 1)
        return rl__fail(err, RL_ERR_INVALID, "causal", "expected 0 or 1, got %d", p.causal);
    if (p.heads % p.kv_heads != 0)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-heads",
                        "heads (%" PRId64 ") must be a multiple of kv-heads (%" PRId64 ")", p.heads,
                        p.kv_heads);
    if (p.causal && p.seq > p.kv_len)
        return rl__fail(err, RL_ERR_INCONSISTENT, "kv-len",
                        "causal attention needs seq <= kv-len (the queries are the last seq of "
                        "kv-len positions), got seq %" PRId64 " > kv-len %" PRId64,
                        p.seq, p.kv_len);
    if (out) *out = p;
    rl__ok(err);
    return RL_OK;
}
