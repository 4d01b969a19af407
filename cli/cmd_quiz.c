/* cmd_quiz.c — `rooflab quiz`: an exercise drawn from a seed, and the check of an answer with
 * units. Drawing, the expected value, the parser and the diagnosis are core's (rooflab/quiz.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "rooflab/quiz.h"

#define QUIZ_EXIT_WRONG 1

static void quiz_help(FILE *out) {
    fputs("usage: rooflab quiz [--seed N] [--kind K] [--answer \"TEXT\"] [--solution] [--json]\n\n"
          "Draws an exercise: a problem (prefill or decode, MHA or GQA, a dtype, a hardware\n"
          "preset) and a question asking for F, the bytes of a traffic model, the intensity,\n"
          "the ridge, the bound time or the regime. The same seed draws the same exercise here\n"
          "and on the page (#practice=N). Answer with units: \"34.4 GFLOP\", \"2 kFLOP/B\",\n"
          "\"163 us\"; any unit of the right dimension is accepted within 2 %. A wrong answer is\n"
          "told which step of the solution it departs from (MAC vs FLOP, a prefix, bits vs\n"
          "bytes, GiB vs GB, a missing H/Hkv, the dtype size ...).\n"
          "  --seed N      0 to 4294967295 (default: drawn from the clock, printed)\n"
          "  --kind K      any flops bytes intensity ridge time regime (default any), or an\n"
          "                operator around attention: gemm-intensity norm-intensity\n"
          "                softmax-intensity (asked by name only)\n"
          "  --answer T    check T: exit 0 right, 1 wrong (with the step), 2 unreadable\n"
          "  --solution    print the expected value and the solution step by step\n"
          "  --json        one JSON object (question, and verdict / solution when asked)\n\n"
          "examples:\n  rooflab quiz --seed 9\n  rooflab quiz --seed 9 --answer \"208 us\"\n"
          "  rooflab quiz --seed 9 --kind flops --answer \"17.2 GFLOP\"\n",
          out);
}

typedef struct {
    uint32_t seed;
    rl_quiz_options opts;
    const char *answer;
    int json, solution;
} quiz_args;

/* 0 when parsed; else the exit status (help printed: 0 via *done). */
static int parse_args(int argc, char **argv, quiz_args *a, int *done) {
    int seeded = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        rl_error err = {0};
        if (cli_is_help(argv[i])) {
            quiz_help(stdout);
            *done = 1;
            return CLI_EXIT_OK;
        } else if (cli_flag(argc, argv, &i, "seed", &v)) {
            int64_t s = 0;
            if (cli_parse_int("seed", v, 0, 4294967295LL, &s, &err) != RL_OK)
                return cli_error("quiz", &err);
            a->seed = (uint32_t)s;
            seeded = 1;
        } else if (cli_flag(argc, argv, &i, "kind", &v)) {
            if (rl_quiz_kind_parse(v, "kind", &a->opts.kind, &err) != RL_OK)
                return cli_error("quiz", &err);
        } else if (cli_flag(argc, argv, &i, "answer", &v)) {
            if (!v) return cli_errorf("quiz", "answer: missing; expected e.g. --answer \"34.4 GFLOP\"");
            a->answer = v;
        } else if (cli_is_switch(argv[i], "json")) {
            a->json = 1;
        } else if (cli_is_switch(argv[i], "solution")) {
            a->solution = 1;
        } else {
            return cli_errorf("quiz", "unknown argument \"%.*s\"; expected --seed, --kind, "
                                      "--answer, --solution or --json", CLI_QUOTE(argv[i], 64));
        }
    }
    if (!seeded) a->seed = (uint32_t)time(NULL);
    return 0;
}

/* One line of JSON (cli/json_out.c, the CLI's one writer; the problem from core's field table). */
static void print_json(const quiz_args *a, const rl_quiz_question *q, const rl_quiz_verdict *v) {
    cli_json j;
    cli_json_begin(&j, stdout);
    j.compact = 1;
    cli_json_int(&j, "seed", q->seed);
    cli_json_str(&j, "kind", rl_quiz_kind_name(q->kind));
    cli_json_str(&j, "phase", q->decode ? "decode" : "prefill");
    cli_json_str(&j, "hw", q->hw->id);
    cli_json_str(&j, "traffic_model", rl_model_name(q->model));
    cli_json_problem(&j, "problem.", &q->problem);
    cli_json_num(&j, "bandwidth_bytes_per_s", q->roof.bandwidth_bytes_per_s);
    cli_json_num(&j, "peak_flops_per_s", q->roof.peak_flops_per_s);
    cli_json_str(&j, "setup", q->setup);
    cli_json_str(&j, "question", q->ask);
    cli_json_str(&j, "unit", q->kind == RL_QUIZ_REGIME ? "" : rl_dim_base_unit(q->dim));
    cli_json_num(&j, "tolerance", q->tolerance);
    if (v) {
        cli_json_str(&j, "verdict.outcome", v->outcome == RL_QUIZ_RIGHT   ? "right"
                                            : v->outcome == RL_QUIZ_WRONG ? "wrong"
                                                                          : "unreadable");
        cli_json_str(&j, "verdict.slip", rl_quiz_slip_name(v->slip));
        cli_json_int(&j, "verdict.step", v->step_number);
        cli_json_str(&j, "verdict.text", v->text);
    }
    if (a->solution) {
        if (q->kind == RL_QUIZ_REGIME) cli_json_str(&j, "expected", q->expected_text);
        else cli_json_num(&j, "expected", q->expected);
        cli_json_str(&j, "expected_text", q->expected_text);
        if (q->step_count == 0) {
            cli_json_key(&j, "solution", 0);
            fputs("[]", stdout);
        }
        for (int i = 0; i < q->step_count; i++) {
            char path[32];
            snprintf(path, sizeof path, "solution.%d", i);
            cli_json_str(&j, path, q->steps[i]);
        }
    }
    cli_json_end(&j);
}

static void print_text(const quiz_args *a, const rl_quiz_question *q, const rl_quiz_verdict *v) {
    char again[64] = "";
    if (a->opts.kind != RL_QUIZ_ANY) snprintf(again, sizeof again, " --kind %s", rl_quiz_kind_name(q->kind));
    printf("exercise %u (%s) \xE2\x80\x94 `rooflab quiz --seed %u%s` draws it again\n\n%s\n\n%s\n",
           q->seed, rl_quiz_kind_name(q->kind), q->seed, again, q->setup, q->ask);
    if (v && v->outcome != RL_QUIZ_UNREADABLE) { /* it may quote the answer: escaped */
        char line[RL_QUIZ_VERDICT_MAX * 2];
        rl_text_escape(line, sizeof line, v->text);
        printf("\n%s\n", line);
    }
    if (a->solution || (v && v->outcome == RL_QUIZ_RIGHT)) {
        printf("\nsolution (%s):\n", q->expected_text);
        for (int i = 0; i < q->step_count; i++) printf("  %d. %s\n", i + 1, q->steps[i]);
    }
}

int cmd_quiz(int argc, char **argv) {
    quiz_args a = {0};
    int done = 0;
    int rc = parse_args(argc, argv, &a, &done);
    if (rc || done) return rc;
    rl_quiz_question q;
    rl_error err = {0};
    if (rl_quiz_draw(a.seed, &a.opts, &q, &err) != RL_OK) return cli_error("quiz", &err);
    rl_quiz_verdict v;
    if (a.answer) rl_quiz_check(&q, a.answer, &v, &err);
    if (a.json) print_json(&a, &q, a.answer ? &v : NULL);
    else print_text(&a, &q, a.answer ? &v : NULL);
    if (!a.answer) return CLI_EXIT_OK;
    if (v.outcome == RL_QUIZ_UNREADABLE) /* one line, escaped, with or without --json */
        return cli_errorf("quiz", "%s", v.text);
    return v.outcome == RL_QUIZ_RIGHT ? CLI_EXIT_OK : QUIZ_EXIT_WRONG;
}
