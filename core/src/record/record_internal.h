/* record_internal.h — shared by the record library's files in core/src/record/ only (not
 * installed, not public). */
#ifndef ROOFLAB_RECORD_INTERNAL_H
#define ROOFLAB_RECORD_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>

#include "rooflab/record.h"
#include "../internal.h" /* core's UTF-8 decoder and clip */

/* The largest integer a JSON number (an IEEE double) holds exactly: 2^53. Integer fields of a
 * record (sm_count, threads, timing.runs, problem sizes before their own limits) stop there. */
#define RL_EXACT_INT_MAX ((int64_t)1 << 53)

/* ---- issues (record.c) ---------------------------------------------------------------------- */

/* Append an issue "PATH: MESSAGE" (MESSAGE printf-style). `path` may be "" (document level:
 * the message then stands alone). Path and message are kept valid UTF-8 (a clipped or invalid
 * sequence becomes '?'). Returns -1 for errors, 0 for warnings, for convenience. */
int rl__issue(rl_rec_issues *issues, rl_rec_severity severity, rl_status status, const char *path,
              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Record's first error status in `issues` after index `from` (RL_OK when none). */
rl_status rl__first_error(const rl_rec_issues *issues, size_t errors_before);

/* The error "out of memory" (document level); returns -1. */
int rl__oom(rl_rec_issues *issues);

/* ---- where an imported point came from (import_common.c; freed in record.c) ------------------ */

/* Per point, its place in the input ("benchmarks[3]", "rows of kernel \"k\" (line 5)"), and per
 * kind of record field the input field it comes from (suffixes such as ".real_time", or words
 * such as " column gpu__time_duration.sum"): an issue the record's check raises at
 * "points[k].flops" is reported at the input's own place (CONTRACTS.md, importers). */
enum { RL__ORIGIN_TIME, RL__ORIGIN_FLOPS, RL__ORIGIN_BYTES, RL__ORIGIN_PROBLEM, RL__ORIGIN_KINDS };
typedef struct rl__origins {
    char **base;                            /* per point, malloc'd; NULL = not known */
    size_t n;                               /* entries of base */
    const char *field[RL__ORIGIN_KINDS];    /* static strings, "" = the base alone */
    char **ceil;                            /* per hardware ceiling, its entry's place in the
                                             * input ("empirical.gbytes.data[2]"), malloc'd */
    size_t n_ceil;                          /* entries of ceil */
    const char *ceil_note;                  /* static: how the input's value became the record's
                                             * ("the input's GB/s or GFLOP/s x 1e9"), or NULL */
} rl__origins;
/* Set point k's origin (printf-style). 0, or -1 when out of memory. */
int rl__set_origin(rl_record *r, size_t k, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The input fields for each kind (static strings; NULL leaves one as it is). */
void rl__set_origin_fields(rl_record *r, const char *time, const char *flops, const char *bytes,
                           const char *problem);
/* Set hardware ceiling k's origin, an array entry [name, value] in the input ("empirical.gbytes.
 * data[2]"): an issue at "hardware.ceilings[k]" (its value) is reported at "...[2][1]", one at
 * ".name" at "...[2][0]". 0, or -1 when out of memory. */
int rl__set_ceiling_origin(rl_record *r, size_t k, const char *place);
void rl__origins_free(rl_record *r);

/* Before an importer builds `points` points: refused (an issue, -1) when the record they make
 * would be over RL_RECORD_MAX_FILE_BYTES for sure (points x the fewest bytes a written point
 * takes, plus `string_bytes` of names the points carry), so that a too-large input costs a
 * count, not the record (issue 21). 0 otherwise; the exact check still runs after building. */
int rl__import_size_check(size_t points, size_t string_bytes, rl_rec_issues *is);

/* ---- strings (record.c, utf8.c) ------------------------------------------------------------- */

/* Copy of `n` bytes of `s` into a new NUL-terminated malloc'd string; NULL when out of memory. */
char *rl__strndup(const char *s, size_t n);

/* Copy `src` into `dst` (room for strlen(src) + 1 bytes) replacing every byte that does not start
 * a valid sequence with '?', keeping at most `max_chars` characters. Returns the bytes written
 * (without the NUL). `dst` may equal `src` (in place). */
size_t rl__utf8_clean(char *dst, const char *src, size_t max_chars);

/* Valid UTF-8 of at most RL_RECORD_MAX_STRING code points? NULL, or "not valid UTF-8" / "too
 * long". */
const char *rl__string_problem(const char *s);
/* rl__string_problem as an error at `path` ("expected a string of valid UTF-8, got invalid
 * bytes" / "expected a string of at most 4096 characters, got a longer one"). 0 when fine, -1
 * when an error was added. NULL is fine. */
int rl__check_string(rl_rec_issues *issues, const char *path, const char *s);

/* Starts with YYYY-MM-DD. */
int rl__date_ok(const char *d);

/* ---- the problem object (record.c) ---------------------------------------------------------- */

/* The JSON key for a problem field named by core's error (a CLI flag like "kv-heads", or a key):
 * from the field table; `field` itself when it names no field. */
const char *rl__problem_key(const char *field);
/* Store `value` into the field as read, unchecked (enum codes, 0/1): ranges are
 * rl_problem_resolve's, so that the reader, the importers and a record built in memory get the
 * same error at the same path from the checker. */
void rl__problem_store(rl_problem *p, rl_problem_field field, int64_t value);
/* core's problem error `err` as an error at PROBLEM_PATH.KEY ("points[2].problem.kv_heads"),
 * the message without its leading "field: ". */
void rl__problem_error(rl_rec_issues *issues, const char *problem_path, const rl_error *err);

/* ---- the strict JSON pre-check (json_scan.c) ------------------------------------------------ */

/* 0 when the whole text is one RFC 8259 JSON value; -1 with *at = the offending byte (len when the
 * text ends too early). *max_depth: the deepest nesting seen. */
int rl__json_scan(const unsigned char *text, size_t len, size_t *at, int *max_depth);
/* The line and column (both from 1, the column in characters) of byte `off`: a line ends at
 * "\n", "\r\n" or a lone "\r" (old Mac files), so CR-only files get their real line numbers. */
void rl__line_col(const char *text, size_t len, size_t off, size_t *line, size_t *col);

/* ---- CSV (csv.c): RFC 4180 quotes, doubled quotes, CRLF ------------------------------------- */

typedef struct rl__csv_row {
    char **cells;
    size_t n;
} rl__csv_row;

/* Read one row starting at *pos; 1 when a row was read, 0 at the end, -1 on OOM or an
 * unterminated quote (the row is then empty). */
int rl__csv_next(const char *text, size_t len, size_t *pos, rl__csv_row *row);
void rl__csv_free(rl__csv_row *row);
/* The index of the cell equal to `name`, or -1. */
int rl__csv_find(const rl__csv_row *row, const char *name);

/* ---- importers (import_common.c, import_*.c) ------------------------------------------------- */

/* Fill what every imported record needs from the options, with stated defaults. Nonzero when
 * out of memory. */
int rl__import_common(rl_record *r, const rl_import_opts *o, const char *tool,
                      const char *hw_default, const char *date_default,
                      const char *version_default);
/* Group `n` names (NULL: not in any group) in O(n log n): group[i] = the number of names[i]'s
 * group, groups numbered in order of first appearance (SIZE_MAX for NULL). *ngroups = how many.
 * A sort, not a hash, so that no input can make it slow. 0, or -1 when out of memory. */
int rl__group_names(const char *const *names, size_t n, size_t *group, size_t *ngroups);

/* Numbers in other tools' output, read by one strict routine (import_common.c): optional spaces or tabs
 * around; digits with an optional '.' fraction and exponent; ',' only as a thousands separator
 * between groups of exactly three digits ("1,571.20"). */
typedef enum {
    RL__NUM_OK = 0,
    RL__NUM_ABSENT,        /* "", "n/a", "N/A", "-", "nan" as ncu writes for not collected */
    RL__NUM_DECIMAL_COMMA, /* "1.571,20", "1571,2": a decimal comma (another locale) */
    RL__NUM_BAD,           /* anything else: not a number */
    RL__NUM_NEGATIVE,      /* below zero */
    RL__NUM_RANGE          /* beyond the finite double range */
} rl__num_result;
rl__num_result rl__tool_number(const char *s, double *out);
/* The issue for a cell refused by rl__tool_number at `path` ("row 3, column X"): names the value
 * and why. Returns -1. */
int rl__number_issue(rl_rec_issues *is, const char *path, const char *cell, rl__num_result why);

/* The problem fields given to an import: o->problem_given, and every field whose value in
 * o->problem is non-zero (bit 1u << field). */
unsigned rl__problem_given(const rl_import_opts *o);
/* An error at "problem" when one of need[0 .. n) was not given (`what` says why the source does
 * not carry it): it names the flags missing. 0, or -1 (issue added). */
int rl__require_problem(const rl_import_opts *o, const rl_problem_field *need, size_t n,
                        const char *what, rl_rec_issues *is);

/* Skip a UTF-8 byte order mark at the start of other tools' text. */
void rl__skip_bom(const char **text, size_t *len);
/* The offset past ncu's "==PROF==" / "==WARNING==" log lines and blank lines at the start. */
size_t rl__skip_log_lines(const char *text, size_t len);

/* A dtype named by a word in `s` ("fp16", "half", "bf16", "tf32", "fp32", "fp8", "sp"). */
rl_dtype rl__dtype_in_name(const char *s);

/* ncu units (import_ncu_details.c): the scale of unit `u` for a column of dimension `dim` ("usecond"
 * on time: 1e-6; "" is ncu's default: ns, bytes, counts), 0 when it is not one of dim's; and
 * the units expected, in words. */
typedef enum { RL__NCU_TIME, RL__NCU_BYTES, RL__NCU_COUNT, RL__NCU_TEXT } rl__ncu_dim;
double rl__ncu_unit_scale(const char *u, rl__ncu_dim dim);
const char *rl__ncu_unit_expected(rl__ncu_dim dim);
/* ncu's details page (`header` read, rows from `pos`) as the text of the raw page (malloc'd,
 * *out_len bytes): the metrics the import reads (every launch given every metric any launch has,
 * "" where it has none), each value checked at its own row and converted to the raw page's
 * default units; launches whose rows interleave are refused at the user's row. *first_rows
 * (malloc'd, one per raw data row, then a 0) = the details page's row where that launch begins,
 * so that the raw reader's issues are named at the user's rows. NULL with an issue. */
char *rl__ncu_details_to_raw(const char *text, size_t len, size_t pos, const rl__csv_row *header,
                             size_t *out_len, size_t **first_rows, rl_rec_issues *is);

rl_status rl__import_ert(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                         rl_rec_issues *is);
rl_status rl__import_ncu(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                         rl_rec_issues *is);
rl_status rl__import_gbench(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is);
rl_status rl__import_torch(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                           rl_rec_issues *is);
rl_status rl__import_nsys(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                          rl_rec_issues *is);
rl_status rl__import_triton(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is);

/* ---- kernels from traces (import_kernels.c): torch-trace and nsys-csv ---------------------- */

/* A GPU as a trace names it. */
typedef struct rl__device {
    const char *name;  /* as the driver reports it ("NVIDIA H100 80GB HBM3") */
    char cc[16];       /* "9.0", or "" */
    int64_t sm_count;  /* 0 = not given */
} rl__device;

/* One launch of a kernel: its name, device (NULL: not said), duration, launch configuration. */
typedef struct rl__launch {
    const char *name;
    const rl__device *device;
    double seconds;
    int facts;                  /* 1 when grid and block are known */
    int64_t grid[3], block[3];
    int64_t regs, smem;         /* registers per thread, shared memory bytes; -1 = not given */
} rl__launch;

/* 1 when a kernel `name` is imported: it contains `match` (ASCII case-insensitive), or, with
 * match NULL, one of the attention words (flash, fmha, attention, attn, sdpa, mha, decode). */
int rl__kernel_matches(const char *name, const char *match);
/* The filter in words, for messages. Returns buf. */
const char *rl__kernel_filter_text(const char *match, char *buf, size_t cap);
/* A point's problem: the user's (o->problem), completed by what the kernel's name gives unasked
 * (FlashAttention-2's traits: head dim, tile, dtype, pass) for the fields the user did not give. */
void rl__kernel_problem(rl_rec_point *pt, const rl_import_opts *o, const char *name);
/* The error when batch, heads, seq (and head_dim, unless every name of names[0 .. n) gives it)
 * were not given; `tool` says whose output ("a PyTorch profiler trace"). 0, or -1. */
int rl__kernel_require_problem(const rl_import_opts *o, const char *const *names, size_t n,
                               const char *tool, rl_rec_issues *is);
/* One point per (device name, kernel name) of launches l[0 .. n): timing over its launches, its
 * launch configuration as the point's label, FLOPs core's F for its problem (the trace counts
 * none), the hardware from the device (the record's, or each point's where the kernels ran on
 * GPUs of different names). 0, or -1 (an issue added). */
int rl__kernel_points(rl_record *r, const rl_import_opts *o, const rl__launch *l, size_t n,
                      const char *tool, rl_rec_issues *is);
/* The error when none of the n kernels names[i] (with their durations) matched: the filter, the
 * three names with the most time, and --match. Returns -1. */
int rl__kernel_none_matched(const char *const *names, const double *seconds, size_t n,
                            const char *match, const char *path, rl_rec_issues *is);

/* The 1-based line of text[pos] counting from *line at *from (both advanced): linear over a
 * forward scan. */
size_t rl__line_at(const char *text, size_t pos, size_t *from, size_t *line);
/* 1 when text[pos ..] starts with perf_report's printed form (a "PLOT_NAME:" line). */
int rl__triton_printed(const char *text, size_t len, size_t pos);

#endif
