/* cli.h — shared pieces of the `rooflab` command line: the subcommand table, argument helpers,
 * and the problem/roof flags that eval, sweep and bench share. Errors go to stderr as one line
 * "rooflab CMD: FIELD: what was expected" and the command returns 2 (CONTRACTS.md). */
#ifndef ROOFLAB_CLI_H
#define ROOFLAB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "rooflab/rooflab.h"
#include "rooflab/record.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_INVALID 1  /* validate: some record is invalid */
#define CLI_EXIT_USAGE 2    /* bad flag or value */
#define CLI_EXIT_NODEVICE 3 /* bench: no usable device */

/* Subcommands: each in its own cmd_NAME.c; argv[0] is the subcommand name. */
int cmd_eval(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_units(int argc, char **argv);
int cmd_bench(int argc, char **argv); /* native-bench/, added to rooflab from there */
int cmd_validate(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_check_model(int argc, char **argv); /* predicted vs published/measured times */
int cmd_tune(int argc, char **argv);
int cmd_models(int argc, char **argv); /* real attention shapes with their sources */
int cmd_quiz(int argc, char **argv);   /* exercises with unit-checked answers */
int cmd_layer(int argc, char **argv);  /* every operator of a decoder layer, the step */

/* Read a whole file ("-" = stdin) into a malloc'd NUL-terminated buffer, refusing more than
 * `limit` bytes; 0, or -1 with `why` filled. Defined in cmd_validate.c. */
int cli_read_file(const char *path, size_t limit, char **text, size_t *len, char *why,
                  size_t why_cap);

/* Before any work: can `path` be written? Creates and removes its temporary name (cli_tmp_name)
 * and opens an existing `path` for writing (never truncating it); a folder is refused. 0, or an
 * error "rooflab CMD: LABEL: cannot write ..." printed (any errno) and -1. In cmd_validate.c. */
int cli_check_out_path(const char *cmd, const char *label, const char *path);
/* The temporary name a file is written to before it is renamed over `path` ("PATH.tmpPID"),
 * the name cli_check_out_path creates and removes up front; 0, or -1 when it does not fit. */
int cli_tmp_name(char *buf, size_t cap, const char *path);

/* Print "rooflab CMD: MESSAGE" on stderr; return CLI_EXIT_USAGE. */
int cli_error(const char *cmd, const rl_error *err);
/* printf-style variant: "rooflab CMD: " + formatted text. */
/* A quoted value in a message: "%.*s" with CLI_QUOTE(s, n) prints at most n bytes of s, cut on a
 * UTF-8 character boundary (rl_text_clip), never inside a character. */
#define CLI_QUOTE(s, n) (int)rl_text_clip((s), (n)), (s)

int cli_errorf(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* `s` as a JSON string on `out`: quotes, backslashes, control characters and every character
 * rl_char_invisible_name names (direction overrides, zero-width and no-break spaces ...) as \uXXXX
 * escapes, so JSON output never carries a terminal sequence or reorders a line; bytes that are
 * not UTF-8 as \ufffd. */
void cli_json_string(FILE *out, const char *s);

/* A JSON number: the shortest form that reads back as v; null when not finite (json_out.c). */
void cli_json_number(FILE *out, double v);

/* The one writer of nested JSON (json_out.c): dotted paths become nested objects ("a.b.c"), a
 * segment of digits an array index; paths sharing a parent must come one after another. */
#define CLI_JSON_DEPTH 8
#define CLI_JSON_NAME 64
typedef struct cli_json {
    FILE *out;
    int depth;                               /* containers open below the root object */
    char open[CLI_JSON_DEPTH + 1][CLI_JSON_NAME]; /* their names, [1 … depth] */
    int is_array[CLI_JSON_DEPTH + 1];
    int count[CLI_JSON_DEPTH + 1];           /* children written in each */
    int compact;                             /* 1: one line (JSON lines); set after begin */
    char at[CLI_JSON_NAME];                  /* cli_json_at's prefix of the value writers' paths */
} cli_json;
void cli_json_begin(cli_json *j, FILE *out); /* "{" */
void cli_json_begin_array(cli_json *j, FILE *out); /* "[": paths start with an index, "0.id" */
/* The value writers: the key at cli_json_at's prefix + `path`, then the value. num: null when not
 * finite; num_pos, int_pos: null unless > 0 (a figure not on file); str: null for NULL. */
void cli_json_at(cli_json *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cli_json_num(cli_json *j, const char *path, double v);
void cli_json_num_pos(cli_json *j, const char *path, double v);
void cli_json_int(cli_json *j, const char *path, long long v);
void cli_json_int_pos(cli_json *j, const char *path, long long v);
void cli_json_str(cli_json *j, const char *path, const char *s);
void cli_json_bool(cli_json *j, const char *path, int b);
void cli_json_null(cli_json *j, const char *path);
/* A value already written as JSON (core's record report; "[]" or "{}" for an empty container,
 * which a path cannot open), as is. */
void cli_json_raw(cli_json *j, const char *path, const char *json);
/* Open the parents of `path` (its first `segments` segments; 0 = all) and write its key: the
 * caller writes the value next. */
void cli_json_key(cli_json *j, const char *path, int segments);
/* Every entry of core's report-output table for one evaluation, nested on the dots. */
void cli_json_outputs(cli_json *j, const rl_output_view *view);
/* "sequences": the rows of core's per-sequence table (rl_seq_output_*). */
void cli_json_sequences(cli_json *j, const rl_workload *w);
void cli_json_end(cli_json *j); /* closes everything and the root: "}\n" (or "]\n") */
/* Every field of core's RL_PROBLEM_FIELDS at PREFIX + its JSON key ("problem." or ""). */
void cli_json_problem(cli_json *j, const char *prefix, const rl_problem *p);

/* True when argv[*i] is --NAME or --NAME=VALUE. For the first form the value is argv[*i+1] and
 * *i is advanced past it. *value is NULL when the flag was given without a value (an error the
 * caller reports with cli_missing_value). */
int cli_flag(int argc, char **argv, int *i, const char *name, const char **value);
int cli_is_switch(const char *arg, const char *name); /* --NAME exactly */
int cli_is_help(const char *arg);                     /* -h or --help */

/* Parse an integer in [lo, hi] for `field`; the error says what was expected and what was got. */
rl_status cli_parse_int(const char *field, const char *text, int64_t lo, int64_t hi, int64_t *out,
                        rl_error *err);

/* The shared flags (issue 21): every problem field of core's field table (bit f for
 * rl_problem_field f), then --model, the roof flags and the kernel flags. A subcommand names the
 * ones it uses in a cli_flag_set; cli_problem_flag refuses the others by name ("--kernel: not used
 * by tune: ...") and cli_flags_help lists exactly the used ones, so a flag is never accepted and
 * ignored and --help never lags behind. */
enum {
    CLI_SF_MODEL = RL_PROBLEM_FIELD_COUNT, /* --model ID */
    CLI_SF_HW,
    CLI_SF_BANDWIDTH,
    CLI_SF_PEAK,
    CLI_SF_KERNEL, /* then one per core kernel field (RL_KERNEL_FIELDS), in its order */
    CLI_SF_GQA_PACK = CLI_SF_KERNEL + RL_KFIELD_GQA_PACK,
    CLI_SF_SPLITS = CLI_SF_KERNEL + RL_KFIELD_SPLITS,
    CLI_SF_CTAS_PER_SM = CLI_SF_KERNEL + RL_KFIELD_CTAS_PER_SM,
    CLI_SF_CORES = CLI_SF_KERNEL + RL_KFIELD_CORES,
    CLI_SF_COUNT = CLI_SF_KERNEL + RL_KERNEL_FIELD_COUNT
};
typedef uint64_t cli_flag_set;
#define CLI_SF(id) ((cli_flag_set)1 << (id))
#define CLI_SF_PROBLEM (CLI_SF(RL_PROBLEM_FIELD_COUNT) - 1) /* every field of the table */
#define CLI_SF_ROOF (CLI_SF(CLI_SF_HW) | CLI_SF(CLI_SF_BANDWIDTH) | CLI_SF(CLI_SF_PEAK))
#define CLI_SF_KERNELS                                                                             \
    (CLI_SF(CLI_SF_KERNEL) | CLI_SF(CLI_SF_GQA_PACK) | CLI_SF(CLI_SF_SPLITS) | CLI_SF(CLI_SF_CTAS_PER_SM) |        \
     CLI_SF(CLI_SF_CORES))
#define CLI_SF_ALL (CLI_SF(CLI_SF_COUNT) - 1)

/* What a subcommand does with the shared flags: `uses` (0 = all of them, as eval) and, for a flag
 * it refuses, why (indexed by CLI_SF_*; NULL gives "see rooflab CMD --help"). */
typedef struct cli_flag_rules {
    const char *cmd;
    cli_flag_set uses;
    const char *const *why_not; /* CLI_SF_COUNT entries or NULL */
} cli_flag_rules;

/* The shared flag argv text names ("--kernel", "--seq=9"), a CLI_SF_* index, or -1. */
int cli_shared_flag_find(const char *arg);
/* The flag's name without "--" ("kernel", "kv-heads"). */
const char *cli_shared_flag_name(int id);

/* The problem and roof flags shared by eval, sweep and bench (see `rooflab eval --help`). */
typedef struct cli_problem_opts {
    const cli_flag_rules *rules; /* NULL: every shared flag is used (eval) */
    cli_flag_set given;          /* the shared flags typed (set by cli_problem_flag) */
    rl_problem problem;        /* zero means default */
    rl_kernel_spec kernel;     /* --kernel, --gqa-pack, --splits, --ctas-per-sm; zero = generic */
    int kernel_given;          /* 1 when --kernel was on the command line */
    const char *hw_id;         /* NULL → "h100-sxm" */
    const char *bandwidth;     /* unit strings, NULL when not given */
    const char *peak;
    const rl_model_shape *model; /* --model ID: heads, kv-heads, head-dim unless typed */
} cli_problem_opts;

/* If argv[*i] is one of the shared flags, parse it into opts, advance *i and return 1; return 0
 * when it is not one of them; return -1 with *err filled when its value is invalid. */
int cli_problem_flag(int argc, char **argv, int *i, cli_problem_opts *opts, rl_error *err);
/* Help text lines for the shared flags. */
void cli_problem_flags_help(FILE *out);
/* Help text lines for exactly the shared flags in `set`, under problem:, roof: and kernel:. */
void cli_flags_help(FILE *out, cli_flag_set set);
/* Help text lines for the kernel flags (profiles with their sources). */
void cli_kernel_flags_help(FILE *out);

/* Resolve the preset and the roof: --bandwidth/--peak override the preset's bandwidth and its
 * peak for the problem's dtype. Errors name the flag. */
rl_status cli_resolve_roof(const cli_problem_opts *opts, const rl_hw **hw, rl_roof *roof,
                           rl_error *err);

#endif /* ROOFLAB_CLI_H */
