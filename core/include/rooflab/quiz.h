/*
 * quiz.h — exercises with unit-checked answers, on top of rooflab.h (the model) like record.h.
 * Core: C11, no printing, no globals, errors as values.
 */
#ifndef ROOFLAB_QUIZ_H
#define ROOFLAB_QUIZ_H

#include "rooflab/rooflab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------------------------------------
 * Exercises with unit-checked answers (MODEL.md "Exercises")
 *
 * rl_quiz_draw draws a problem (prefill or decode, MHA or GQA, a dtype, a preset) and a question
 * from a seed, the same everywhere; rl_quiz_pose asks it about a given problem and preset; the
 * expected value comes from rl_report_compute. rl_quiz_check
 * reads the answer with rl_parse_quantity (bare numbers, case slips ... refused as everywhere),
 * accepts it in any unit within `tolerance` (2 %), and otherwise names the step of the solution the
 * answer departs from and the slip: a factor 2 (MAC vs FLOP), 1000ⁿ (a prefix), 8 (bits),
 * 2^10n/10^3n (GiB vs GB), a missing H/Hkv, another dtype size, another traffic model, the shorter
 * side of the max, a sparse peak, an inverted ratio, or a wrong dimension.
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_QUIZ_ANY = 0,   /* drawn from the seed */
    RL_QUIZ_FLOPS,     /* F, FLOP */
    RL_QUIZ_BYTES,     /* bytes of the question's traffic model */
    RL_QUIZ_INTENSITY, /* F / bytes, FLOP/B */
    RL_QUIZ_RIDGE,     /* π / β, FLOP/B */
    RL_QUIZ_TIME,      /* max(F/π, bytes/β), s */
    RL_QUIZ_REGIME,    /* memory or compute */
    /* The operators around attention (MODEL.md "The layer"), asked about the same problem: */
    RL_QUIZ_OP_GEMM,   /* the output projection after it: T = B·N rows by an h × h weight
                          matrix, h = H·d: intensity of the GEMM, FLOP/B */
    RL_QUIZ_OP_NORM,   /* the RMSNorm of those T × h values (an element-wise op), FLOP/B */
    RL_QUIZ_OP_SOFTMAX,/* plain attention's fused scale + softmax: S read, P written, FLOP/B */
    RL_QUIZ_KIND_COUNT
} rl_quiz_kind;
/* "any" draws among the attention kinds (flops … regime) only, so a seed's question never moved
 * when the operator kinds were added; those are drawn when asked for by name. */
#define RL_QUIZ_ATTENTION_KIND_COUNT (RL_QUIZ_REGIME + 1)
/* "any", "flops", "bytes", ... "regime", "gemm-intensity", "norm-intensity", "softmax-intensity" */
const char *rl_quiz_kind_name(rl_quiz_kind kind);
rl_status rl_quiz_kind_parse(const char *text, const char *field, rl_quiz_kind *out,
                             rl_error *err);

/* The steps of a solution, in the order of the page's worked calculation. */
typedef enum {
    RL_QUIZ_STEP_PAIRS = 0, RL_QUIZ_STEP_FLOPS, RL_QUIZ_STEP_TENSORS, RL_QUIZ_STEP_TRAFFIC,
    RL_QUIZ_STEP_INTENSITY, RL_QUIZ_STEP_RIDGE, RL_QUIZ_STEP_TIME, RL_QUIZ_STEP_REGIME,
    RL_QUIZ_STEP_OP_FLOPS, RL_QUIZ_STEP_OP_BYTES, /* an operator's FLOPs and bytes */
    RL_QUIZ_STEP_COUNT
} rl_quiz_step;
const char *rl_quiz_step_title(rl_quiz_step step); /* "FLOPs F = 4·B·H·d·P" */

typedef enum {
    RL_SLIP_NONE = 0, RL_SLIP_DIMENSION, RL_SLIP_MAC, RL_SLIP_PREFIX, RL_SLIP_BITS,
    RL_SLIP_BINARY, RL_SLIP_GQA, RL_SLIP_DTYPE, RL_SLIP_MODEL, RL_SLIP_OTHER_SIDE,
    RL_SLIP_SPARSE, RL_SLIP_INVERTED, RL_SLIP_REGIME, RL_SLIP_UNKNOWN,
    RL_SLIP_NO_WRITE,  /* an operator's output write left out */
    RL_SLIP_WEIGHTS,   /* a GEMM's weights left out, or only the weights counted */
    RL_SLIP_COUNT
} rl_quiz_slip;
/* "none", "dimension", "mac-vs-flop", "prefix", "bits-vs-bytes", "gib-vs-gb", "gqa", "dtype-size",
 * "traffic-model", "other-side", "sparse-peak", "inverted", "regime", "unknown", "output-write",
 * "weights" */
const char *rl_quiz_slip_name(rl_quiz_slip slip);

#define RL_QUIZ_TOLERANCE 0.02 /* relative: an answer within 2 % is right */
#define RL_QUIZ_SETUP_MAX 640
#define RL_QUIZ_ASK_MAX 320
#define RL_QUIZ_STEPS_MAX 8
#define RL_QUIZ_STEP_TEXT_MAX 320
#define RL_QUIZ_VERDICT_MAX 512

typedef struct rl_quiz_options {
    rl_quiz_kind kind; /* RL_QUIZ_ANY (0) = drawn */
} rl_quiz_options;

typedef struct rl_quiz_question {
    uint32_t seed;
    rl_quiz_kind kind;
    int decode;              /* 1: N = 1 against a KV cache of L > 1 rows; 0: prefill */
    rl_problem problem;      /* resolved; forward (drawn: non-causal, one dtype) */
    const rl_hw *hw;
    rl_roof roof;            /* the preset's bandwidth and its peak for the dtype */
    rl_peak_kind peak_kind;
    rl_model model;          /* the traffic model asked about (bytes, intensity, time, regime) */
    rl_dim dim;              /* the answer's dimension; RL_DIM_NONE for the regime */
    double expected;         /* base units; the regime as an rl_bound */
    double tolerance;        /* relative */
    char expected_text[48];  /* "549.8 GFLOP", "memory" */
    char setup[RL_QUIZ_SETUP_MAX]; /* the problem and the hardware, in words */
    char ask[RL_QUIZ_ASK_MAX];     /* the question, with the unit to answer in */
    int step_count;
    rl_quiz_step step_ids[RL_QUIZ_STEPS_MAX];
    char steps[RL_QUIZ_STEPS_MAX][RL_QUIZ_STEP_TEXT_MAX]; /* the solution, numbers substituted */
} rl_quiz_question;

/* A seed as a person types it (URL, CLI): digits only, 0 to 4294967295. Errors name `field`. */
rl_status rl_quiz_seed_parse(const char *text, const char *field, uint32_t *out, rl_error *err);

/* `opts` may be NULL (any kind). Errors name "kind". Drawing picks a problem, a preset and a
 * traffic model from the seed and poses the question with rl_quiz_pose. */
rl_status rl_quiz_draw(uint32_t seed, const rl_quiz_options *opts, rl_quiz_question *out,
                       rl_error *err);

/* A question about a given problem on a given preset (the guided tours ask about the state they
 * end on): the question rl_quiz_draw builds — the expected value from rl_report_compute, the
 * numbered solution, the slips rl_quiz_check names — with seed 0. */
typedef struct rl_quiz_pose_request {
    rl_problem problem;    /* as rl_problem_set leaves it (0 = the default); resolved here */
    const char *hw;        /* preset id; NULL or "" = RL_DEFAULT_HW */
    const char *bandwidth; /* typed override ("26.8 Tbit/s"); NULL or "" = the preset's */
    const char *peak;      /* typed override; NULL or "" = the preset's for the dtype */
    rl_quiz_kind kind;     /* flops … regime; RL_QUIZ_ANY is refused */
    rl_model model;        /* the traffic model asked about (bytes, intensity, time, regime) */
} rl_quiz_pose_request;

/* Errors name "kind", "traffic-model", the problem's flag (rl_problem_resolve; "pass" for the
 * backward pass, "out-dtype" / "score-dtype" when they differ from the dtype: the solution's
 * formulas are the forward pass's with one element type for Q, O, S and P), "hw", "bandwidth"
 * or "peak" (rl_roof_resolve). */
rl_status rl_quiz_pose(const rl_quiz_pose_request *req, rl_quiz_question *out, rl_error *err);

typedef enum { RL_QUIZ_RIGHT = 0, RL_QUIZ_WRONG = 1, RL_QUIZ_UNREADABLE = 2 } rl_quiz_outcome;

typedef struct rl_quiz_verdict {
    rl_quiz_outcome outcome;
    rl_quiz_slip slip;        /* WRONG: the slip named, or RL_SLIP_UNKNOWN */
    int step;                 /* the rl_quiz_step the slip belongs to; -1 none */
    int step_number;          /* 1-based in the question's steps; 0 none */
    double answer_base;       /* the answer in base units (the regime as an rl_bound) */
    double ratio;             /* answer / expected (numeric questions) */
    char text[RL_QUIZ_VERDICT_MAX]; /* "Not quite: step 2 (FLOPs F = 4·B·H·d·P): your answer is half
                                       of it: did you count multiply-adds instead of FLOPs? ..." */
} rl_quiz_verdict;

/* RL_OK when the answer was judged (right or wrong, a wrong dimension included); the parser's
 * error (naming "answer": a bare number with the suggested unit, an unknown unit ...) when it
 * cannot be read — then out->outcome is RL_QUIZ_UNREADABLE and out->text the message. */
rl_status rl_quiz_check(const rl_quiz_question *q, const char *answer, rl_quiz_verdict *out,
                        rl_error *err);

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_QUIZ_H */
