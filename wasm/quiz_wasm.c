/*
 * quiz_wasm.c — core's exercises (rooflab/quiz.h, core/src/quiz.c) for the page's practice mode.
 * Thin, like models_wasm.c: the question and the verdict live in caller-owned buffers (the page
 * allocates rlw_quiz_size() and rlw_quiz_verdict_size() bytes once); errors are values in a
 * caller-owned rl_error. No drawing, arithmetic or wording here.
 *
 *   rlw_quiz_kind_count(), rlw_quiz_kind_name(i)   "any", "flops", ... "regime"
 *   rlw_quiz_slip_name(i)                          "mac-vs-flop", "prefix", ...
 *   rlw_quiz_seed_parse(text, field, out, err)     out[0] = the seed (0 … 4294967295)
 *   rlw_quiz_draw(seed, kind, q, err)              seed a whole double 0 … 4294967295
 *   rlw_quiz_pose(fields, hw, bandwidth, peak, kind, model, q, err)   the question about a given
 *                             problem: fields[i] the value of problem field i (rl_problem_set's
 *                             integers, 0 = default: the first slots of rooflab_wasm.c's in[]),
 *                             hw a preset id, bandwidth / peak typed overrides ("" = the preset's)
 *   rlw_quiz_str(q, w), rlw_quiz_num(q, w)   named slots: rlw_quiz_str_key(w) "setup", "question",
 *                             "expected_text", "kind", "hw", "hw_name", "traffic_model", "unit" ("" for
 *                             the regime); rlw_quiz_num_key(w) "seed", "kind", "decode", "expected",
 *                             "tolerance", "step_count", "bandwidth_bytes_per_s", "peak_flops_per_s"
 *   rlw_quiz_step(q, i)       the solution's step i (numbers substituted)
 *   rlw_quiz_field(q, field)  the problem's field as rl_problem_get gives it (for the chart)
 *   rlw_quiz_check(q, answer, v, err)   RL_OK when judged; the parser's error when unreadable
 *   rlw_quiz_verdict_text(v), rlw_quiz_verdict_num(v, w)  named slots (rlw_quiz_verdict_num_key):
 *                             "outcome" (0 right, 1 wrong, 2 unreadable), "slip", "step_number" (0
 *                             none), "answer", "ratio"
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rooflab/quiz.h"
#include "rooflab_wasm.h"


RLW_EXPORT int rlw_quiz_size(void) { return (int)sizeof(rl_quiz_question); }
RLW_EXPORT int rlw_quiz_verdict_size(void) { return (int)sizeof(rl_quiz_verdict); }
RLW_EXPORT int rlw_quiz_kind_count(void) { return RL_QUIZ_KIND_COUNT; }
RLW_EXPORT const char *rlw_quiz_kind_name(int i) { return rl_quiz_kind_name((rl_quiz_kind)i); }
RLW_EXPORT const char *rlw_quiz_slip_name(int i) { return rl_quiz_slip_name((rl_quiz_slip)i); }

RLW_EXPORT int rlw_quiz_seed_parse(const char *text, const char *field, double *out,
                                   rl_error *err) {
    uint32_t seed = 0;
    rl_status st = rl_quiz_seed_parse(text, field, &seed, err);
    if (st == RL_OK) out[0] = (double)seed;
    return st;
}

RLW_EXPORT int rlw_quiz_draw(double seed, int kind, rl_quiz_question *q, rl_error *err) {
    /* The page hands over a double: core's seed rule decides on its decimal text ("1.5", "-1",
     * "4294967296" are refused, never wrapped). */
    char text[40];
    uint32_t s = 0;
    snprintf(text, sizeof text, "%.17g", seed);
    rl_status st = rl_quiz_seed_parse(text, "practice", &s, err);
    if (st != RL_OK) return st;
    return rl_quiz_draw(s, &(rl_quiz_options){(rl_quiz_kind)kind}, q, err);
}

RLW_EXPORT int rlw_quiz_pose(const double *fields, const char *hw, const char *bandwidth,
                             const char *peak, int kind, int model, rl_quiz_question *q,
                             rl_error *err) {
    rl_quiz_pose_request req = {.hw = hw, .bandwidth = bandwidth, .peak = peak,
                                .kind = (rl_quiz_kind)kind, .model = (rl_model)model};
    memset(&req.problem, 0, sizeof req.problem);
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT; f++) {
        /* A whole number only (never rounded): core's rl_problem_set then decides on its range. */
        const double v = fields[f];
        if (!(v >= -9.0e15 && v <= 9.0e15) || (double)(int64_t)v != v)
            return rl_error_fail(err, RL_ERR_INVALID, rl_problem_field_info((rl_problem_field)f)->flag,
                                 "expected a whole number");
        rl_status st = rl_problem_set(&req.problem, (rl_problem_field)f, (int64_t)v, NULL, err);
        if (st != RL_OK) return st;
    }
    return rl_quiz_pose(&req, q, err);
}

#define RLW_QUIZ_STRS(X)                                                                           \
    X("setup", it->setup) X("question", it->ask) X("expected_text", it->expected_text)             \
    X("kind", rl_quiz_kind_name(it->kind)) X("hw", it->hw ? it->hw->id : "")                       \
    X("hw_name", it->hw ? it->hw->name : "") X("traffic_model", rl_model_name(it->model))          \
    X("unit", it->kind == RL_QUIZ_REGIME ? "" : rl_dim_base_unit(it->dim))
#define RLW_QUIZ_NUMS(X)                                                                           \
    X("seed", (double)it->seed) X("kind", (double)it->kind) X("decode", (double)it->decode)        \
    X("expected", it->expected) X("tolerance", it->tolerance) X("step_count", (double)it->step_count) \
    X("bandwidth_bytes_per_s", it->roof.bandwidth_bytes_per_s)                                     \
    X("peak_flops_per_s", it->roof.peak_flops_per_s)
#define RLW_VERDICT_NUMS(X)                                                                        \
    X("outcome", (double)it->outcome) X("slip", (double)it->slip)                                  \
    X("step_number", (double)it->step_number) X("answer", it->answer_base) X("ratio", it->ratio)
RLW_NAMED_SLOTS(rlw_quiz_str, const char *, rl_quiz_question, RLW_QUIZ_STRS, "")
RLW_NAMED_SLOTS(rlw_quiz_num, double, rl_quiz_question, RLW_QUIZ_NUMS, 0)
RLW_NAMED_SLOTS(rlw_quiz_verdict_num, double, rl_quiz_verdict, RLW_VERDICT_NUMS, 0)
RLW_EXPORT const char *rlw_quiz_str(const rl_quiz_question *q, int which) { return rlw_quiz_str_at(q, which); }
RLW_EXPORT double rlw_quiz_num(const rl_quiz_question *q, int which) { return rlw_quiz_num_at(q, which); }

RLW_EXPORT const char *rlw_quiz_step(const rl_quiz_question *q, int i) {
    return i >= 0 && i < q->step_count ? q->steps[i] : "";
}

RLW_EXPORT double rlw_quiz_field(const rl_quiz_question *q, int field) {
    if (field < 0 || field >= RL_PROBLEM_FIELD_COUNT) return 0;
    return (double)rl_problem_get(&q->problem, (rl_problem_field)field);
}

RLW_EXPORT int rlw_quiz_check(const rl_quiz_question *q, const char *answer, rl_quiz_verdict *v,
                              rl_error *err) {
    return rl_quiz_check(q, answer, v, err);
}

RLW_EXPORT const char *rlw_quiz_verdict_text(const rl_quiz_verdict *v) { return v->text; }

RLW_EXPORT double rlw_quiz_verdict_num(const rl_quiz_verdict *v, int which) {
    return rlw_quiz_verdict_num_at(v, which);
}
