/* problem.c — defaults and validation of an attention problem. */
#include <inttypes.h>

#include "internal.h"

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
    /* Zero means default: the table's value, or (tied fields) the value of the field it names.
     * Ties point at untied fields, so one pass in table order fills everything. */
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        if (rl_problem_get(&p, (rl_problem_field)f) != 0) continue;
        const int tie = rl_problem_field_tie((rl_problem_field)f);
        const int64_t v = tie >= 0 ? rl_problem_get(&p, (rl_problem_field)tie)
                                   : rl_problem_field_info((rl_problem_field)f)->default_value;
        if (v != 0) rl_problem_set(&p, (rl_problem_field)f, v, NULL, NULL);
    }
    rl_status s;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        const rl_field_info *fi = rl_problem_field_info((rl_problem_field)f);
        const int64_t v = rl_problem_get(&p, (rl_problem_field)f);
        if (fi->type == RL_FTYPE_INT && (s = check_size(v, fi->max, fi->flag, err)) != RL_OK) return s;
        if (fi->type == RL_FTYPE_DTYPE && (s = check_dtype((rl_dtype)v, fi->flag, err)) != RL_OK)
            return s;
    }
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
