/*
 * record.h — measured points as JSON: the rooflab record, its reader, writer, validator and
 * importers of other tools' output. Part of core/ (C11, cJSON). CONTRACTS.md "The record".
 *
 * Overview
 * --------
 * A record is one JSON document:
 *
 *   { "schema": "rooflab-record", "schema_version": 1,
 *     "provenance": { "kind": "measured" | "historical-unaudited" | "model" | "published",
 *                     "date": "2026-11-29",
 *                     "source": "...", "tool": "...", "artifacts": ["report.ncu-rep"], "notes": "..." },
 *     "hardware":   { "name": "NVIDIA H100 SXM5 80GB", "preset": "h100-sxm",
 *                     "compute_capability": "9.0", "cpu_model": "...", "driver_version": "...",
 *                     "runtime_version": "...", "sm_count": 132, "sm_clock_hz": 1.98e9,
 *                     "memory_clock_hz": 2.619e9, "threads": 8,
 *                     "ceilings": [ { "name": "HBM", "bytes_per_s": 3.0e12, "source": "measured" },
 *                                   { "name": "fp16 tensor", "flops_per_s": 6.6e14,
 *                                     "source": "measured", "dtype": "fp16",
 *                                     "method": "matmul kernel, median of 21 runs" } ] },
 *     "software":   { "kernel": "flash_fwd", "kernel_version": "v0.4.0", "git_revision": "...",
 *                     "compiler": "...", "flags": "...",
 *                     "argv": ["rooflab", "bench", "--backend", "cuda"] },
 *     "points": [ { "problem": { "batch": 1, "heads": 8, "kv_heads": 8, "seq": 4096,
 *                                "kv_len": 4096, "head_dim": 64, "dtype": "fp16",
 *                                "kv_dtype": "fp16", "causal": false, "pass": "fwd",
 *                                "block_m": 64, "block_n": 64 },
 *                   "traffic_model": "tiled" | "compulsory" | "naive" | "other",
 *                   "timing": { "median_s": 1.2e-3, "min_s": ..., "max_s": ..., "runs": 50 },
 *                   "flops": 1.7e10, "modelled_bytes": 5.4e8, "measured_bytes": 6.1e8,
 *                   "max_abs_error": 3e-4, "rel_l2_error": 2.1e-4, "kernel": "...", "label": "...",
 *                   "profile": "fa3", "figure": "Fig. 5(b)", "reading_error": "+-0.5 TFLOP/s",
 *                   "hardware": { ... per-point hardware, for tables spanning devices ... },
 *                   "reported": { "flops_per_s": ..., "bytes_per_s": ... } } ],
 *     "skipped": [ { "kernel": "...", "problem": { ... }, "traffic_model": "tiled",
 *                    "reason": "out of memory" } ] }
 *
 * Units are base SI in plain JSON numbers (seconds, bytes, FLOP, bytes/s, FLOP/s). The mandatory
 * minimum (the second source document's reporting rule): hardware name, precision (problem.dtype),
 * sequence (problem.seq) and kernel version (software.kernel_version). data/schema/ holds the JSON
 * Schema of the same format; tests check that the schema and this validator agree.
 *
 * Memory: an rl_record owns every string and array in it (malloc'd); rl_record_free releases all.
 * Build one with rl_record_new + rl_rec_set_string + rl_record_add_point/add_ceiling, or read one
 * with rl_record_parse. All functions are re-entrant: no global state (cJSON's global error is not
 * used), no printing.
 *
 * Issues: validation collects every problem it finds, each with a JSON path
 * ("points[3].problem.head_dim") and a sentence saying what was expected and what was got
 * ("points[3].problem.head_dim: expected a positive integer, got -64"). Errors make a record
 * invalid; warnings (e.g. a point above its own hardware's roof, a reported rate that disagrees
 * with flops / time) flag what is almost always a unit or counting mistake without refusing it.
 */
#ifndef ROOFLAB_RECORD_H
#define ROOFLAB_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "rooflab/rooflab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_RECORD_SCHEMA_ID "rooflab-record"
#define RL_RECORD_SCHEMA_VERSION 1

/* Stated limits, enforced before (size) and while (the rest) parsing. */
#define RL_RECORD_MAX_FILE_MIB 16 /* the one spelling of the record size limit, in MiB */
#define RL_RECORD_MAX_FILE_BYTES ((size_t)RL_RECORD_MAX_FILE_MIB * 1024 * 1024) /* of JSON text */
#define RL_RECORD_MAX_POINTS 100000                        /* points per record */
#define RL_RECORD_MAX_DEPTH 16                             /* JSON nesting depth */
#define RL_RECORD_MAX_CEILINGS 64                          /* ceilings per hardware block */
#define RL_RECORD_MAX_ARTIFACTS 256                        /* provenance.artifacts entries */
#define RL_RECORD_MAX_ARGV 256                             /* software.argv entries */
#define RL_RECORD_MAX_STRING 4096                          /* bytes per string field */
/* The smallest positive amount a record may give (FLOPs, bytes, seconds, rates, clocks, ceilings):
 * below it a derived rate, intensity or efficiency underflows to 0 or a subnormal. The same bound
 * as rl_parse_quantity's (MODEL.md "Units"); a smaller positive value is refused at its path. */
#define RL_RECORD_MIN_AMOUNT 1e-300
#define RL_RECORD_MAX_ISSUES 200                           /* issues kept; the rest counted */

/* ----------------------------------------------------------------------------------------------
 * Issues (errors and warnings), each with its JSON path
 * -------------------------------------------------------------------------------------------- */

typedef enum { RL_REC_ERROR = 0, RL_REC_WARNING = 1 } rl_rec_severity;

#define RL_REC_PATH_MAX 96
#define RL_REC_MESSAGE_MAX 320

typedef struct rl_rec_issue {
    rl_rec_severity severity;
    rl_status status;                /* RL_ERR_INVALID (type / missing), RL_ERR_RANGE ... */
    char path[RL_REC_PATH_MAX];      /* "points[3].problem.head_dim"; "" for the document */
    char message[RL_REC_MESSAGE_MAX];/* starts with the path: "points[3]...: expected ..." */
} rl_rec_issue;

typedef struct rl_rec_issues {
    rl_rec_issue *items;  /* malloc'd; at most RL_RECORD_MAX_ISSUES kept */
    size_t count;         /* kept in items */
    size_t cap;
    size_t errors;        /* all errors found, kept or not */
    size_t warnings;      /* all warnings found, kept or not */
    size_t kept_warnings; /* warnings among items: once the list is full, an error takes the
                             place of the last kept warning, so that no error hides behind
                             warnings */
} rl_rec_issues;

/* `rl_rec_issues issues = {0};` is an empty list; free its items with rl_rec_issues_free. */
void rl_rec_issues_free(rl_rec_issues *issues);
void rl_rec_issues_clear(rl_rec_issues *issues);

/* ----------------------------------------------------------------------------------------------
 * The record in memory
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_PROV_MEASURED = 0,       /* "measured" */
    RL_PROV_HISTORICAL_UNAUDITED,/* "historical-unaudited": shown hollow, never evidence */
    RL_PROV_MODEL,              /* "model": predictions written as a record */
    RL_PROV_PUBLISHED,          /* "published": numbers taken from a publication (paper, blog,
                                   issue), never produced by rooflab; drawn like measured */
    RL_PROV_COUNT
} rl_rec_provenance_kind;
const char *rl_rec_provenance_name(rl_rec_provenance_kind kind);

typedef enum {
    RL_TRAFFIC_COMPULSORY = RL_MODEL_COMPULSORY,
    RL_TRAFFIC_TILED = RL_MODEL_TILED,
    RL_TRAFFIC_NAIVE = RL_MODEL_NAIVE,
    RL_TRAFFIC_OTHER = RL_MODEL_COUNT /* "other": a dataflow none of the models describes */
} rl_rec_traffic;
const char *rl_rec_traffic_name(rl_rec_traffic traffic); /* "compulsory" ... "other" */

typedef enum { RL_CEIL_BANDWIDTH = 0, RL_CEIL_COMPUTE = 1 } rl_rec_ceiling_kind;

typedef struct rl_rec_ceiling {
    char *name;               /* "HBM", "DRAM", "L2", "fp16 tensor", "FP64 GFLOPs" ... */
    rl_rec_ceiling_kind kind; /* "bytes_per_s" key → BANDWIDTH, "flops_per_s" → COMPUTE */
    double value;             /* bytes/s or FLOP/s, > 0 */
    int measured;             /* "source": "measured" (1) or "datasheet" (0) */
    rl_dtype dtype;           /* compute ceilings: the dtype it applies to; DEFAULT = any */
    int dram;                 /* bandwidth ceilings: 1 when it is device memory (HBM/DRAM/GDDR) */
    char *method;             /* "method": how a measured ceiling was obtained ("copy kernel,
                                 2 threads, median of 21 runs"); NULL = absent. Set it with
                                 rl_rec_set_string(&ceiling->method, ...) */
} rl_rec_ceiling;

typedef struct rl_rec_hardware {
    char *name;               /* mandatory */
    char *preset;             /* rooflab preset id (rl_hw_find), or NULL */
    char *compute_capability; /* "9.0" */
    char *cpu_model;
    char *driver_version;
    char *runtime_version;
    /* Optional device details (0 = not given; the JSON key is then absent). Units: Hz. */
    int64_t sm_count;         /* "sm_count": SMs (NVIDIA) or CUs (AMD), a positive integer */
    double sm_clock_hz;       /* "sm_clock_hz": peak SM (core) clock, Hz, positive finite */
    double memory_clock_hz;   /* "memory_clock_hz": peak memory clock, Hz, positive finite */
    int64_t threads;          /* "threads": CPU threads used (CPU runs), a positive integer */
    rl_rec_ceiling *ceilings;
    size_t ceiling_count;
} rl_rec_hardware;

typedef struct rl_rec_software {
    char *kernel;         /* kernel or benchmark name */
    char *kernel_version; /* mandatory */
    char *git_revision;
    char *compiler;
    char *flags;
    char **argv;          /* "argv": the command line that produced the record, one string per
                             argument (at most RL_RECORD_MAX_ARGV); set with rl_rec_set_argv */
    size_t argv_count;
} rl_rec_software;

typedef struct rl_rec_provenance {
    rl_rec_provenance_kind kind;
    char *date;           /* ISO 8601 date or date-time */
    char *source;         /* where the numbers come from, in words */
    char *tool;           /* "rooflab bench 0.1.0", "ncu 2025.1 (imported)" */
    char *notes;
    char **artifacts;     /* profiler report paths ... */
    size_t artifact_count;
} rl_rec_provenance;

/* Values computed by rl_record_validate from the point and core's model; not read from JSON
 * (the writer emits them under "derived" for readers' convenience; the reader ignores them). */
typedef struct rl_rec_derived {
    double model_flops;                /* core's F for the problem */
    double model_bytes[RL_MODEL_COUNT];/* core's bytes per traffic model (0 = not available) */
    double bytes;                      /* the bytes the point is placed with: measured, else
                                          modelled, else core's for its traffic model */
    int bytes_source;                  /* 0 measured (counters), 1 modelled (record), 2 core */
    double intensity_flop_per_byte;    /* flops / bytes */
    double l2_intensity_flop_per_byte; /* flops / measured_l2_bytes; 0 = no L2 bytes */
    double achieved_flops_per_s;       /* flops / median time */
    double achieved_bytes_per_s;       /* bytes / median time */
    double time_cv;                    /* timing.stddev_s / timing.mean_s, the runs' spread as a
                                          share of their mean; < 0 = either unknown */
    int roof_known;                    /* 1 when a roof was found for the point's hardware */
    double roof_bandwidth_bytes_per_s; /* the roof the efficiency is measured against */
    double roof_peak_flops_per_s;
    double attainable_flops_per_s;     /* P(I) */
    double efficiency;                 /* achieved / P(I); > 1 is above the roof */
    int predicted;                     /* 1 when the point's profile predicts it on its preset
                                          (rl_rec_point_predict) */
    double predicted_time_s;           /* the profile's predicted time */
    double predicted_flops_per_s;      /* flops / predicted time (where the page draws it) */
    double prediction_error;           /* (predicted − measured) / measured */
} rl_rec_derived;

/* The fit / held-out split of published points ("set"). */
typedef enum rl_rec_set {
    RL_REC_SET_NONE = 0,     /* absent: not part of the split (measured records) */
    RL_REC_SET_FIT = 1,      /* a model constant was fitted on the point */
    RL_REC_SET_HELD_OUT = 2  /* no constant was fitted on it: a prediction */
} rl_rec_set;

/* "fit", "held-out" or NULL for RL_REC_SET_NONE. */
const char *rl_rec_set_name(rl_rec_set set);

typedef struct rl_rec_point {
    rl_problem problem;          /* resolved by the reader (defaults filled) */
    rl_rec_traffic traffic_model;
    double time_median_s;        /* mandatory, > 0 */
    double time_min_s;           /* 0 = unknown */
    double time_max_s;           /* 0 = unknown */
    double time_mean_s;          /* "mean_s" (optional, schema version still 1): 0 = unknown */
    double time_stddev_s;        /* "stddev_s" (optional): the sample standard deviation of the
                                    runs' times, ≥ 0; < 0 = unknown (the key is then absent) */
    int64_t runs;                /* 0 = unknown */
    double flops;                /* mandatory, > 0: the FLOPs the point claims (F of MODEL.md) */
    double modelled_bytes;       /* 0 = not given */
    double measured_bytes;       /* counter-measured DRAM bytes; 0 = unknown */
    double measured_l2_bytes;    /* "measured_l2_bytes" (optional, schema version still 1):
                                    counter-measured L2 bytes (ncu lts__t_bytes.sum), for the
                                    point's L2 intensity; 0 = unknown */
    double max_abs_error;        /* against the fp64 reference; < 0 = unknown */
    double rel_l2_error;         /* ‖o − ref‖₂ / ‖ref‖₂ against the fp64 reference, finite ≥ 0;
                                    < 0 = unknown (the JSON key is then absent) */
    double reported_flops_per_s; /* a rate the source printed; 0 = none (checked, warning) */
    double reported_bytes_per_s; /* same for bandwidth */
    char *kernel;                /* per-point kernel name, NULL = software.kernel */
    char *label;
    /* Optional (schema version still 1), for published measurements: "profile" is the rooflab
     * kernel profile (rl_kernel_parse) that predicts the point; "figure" the table, figure or
     * line of the source it comes from; "reading_error" how exactly the number was read. */
    int has_profile;             /* 1 when "profile" is given */
    rl_kernel profile;           /* valid when has_profile */
    char *figure;                /* NULL = absent */
    char *reading_error;         /* NULL = absent */
    /* Optional (schema version still 1), for published measurements: "set" says whether a model
     * constant was fitted on the point ("fit") or not ("held-out"; rooflab check-model reports the
     * two apart); "production_decode": true marks a decode point of a production split-KV decode
     * kernel, on which check-model also scores the default prediction (no --kernel). */
    rl_rec_set set;              /* RL_REC_SET_NONE = absent */
    int production_decode;       /* 1 when "production_decode": true */
    rl_rec_hardware *hardware;   /* per-point hardware, NULL = the record's */
    rl_rec_derived derived;
} rl_rec_point;

/* A benchmark run that was skipped, with its reason ("skipped": [...]): the record says what it
 * does not hold and why (a failed run, a kernel without FLOP counters, a shape a kernel refuses). */
typedef struct rl_rec_skip {
    char *kernel;                /* mandatory: the kernel or benchmark name */
    rl_problem problem;          /* the problem it would have measured ({0} = defaults) */
    rl_rec_traffic traffic_model;/* default tiled */
    char *reason;                /* mandatory: why it was skipped, in words */
} rl_rec_skip;

typedef struct rl_record {
    int schema_version;
    rl_rec_provenance provenance;
    rl_rec_hardware hardware; /* name may be NULL only when every point has its own hardware */
    rl_rec_software software;
    rl_rec_point *points;
    size_t point_count;
    size_t point_cap;
    rl_rec_skip *skipped;     /* "skipped": runs not measured, each with its reason (optional; at
                                 most RL_RECORD_MAX_POINTS); the JSON key is absent when empty */
    size_t skipped_count;
    size_t skipped_cap;
    struct rl__origins *origins; /* internal (importers): where each point's figures are in the
                                    input, so that errors name the input's own path; not written */
} rl_record;

/* ----------------------------------------------------------------------------------------------
 * Building and freeing
 * -------------------------------------------------------------------------------------------- */

/* A new empty record (schema version set, provenance `kind`). NULL when out of memory. */
rl_record *rl_record_new(rl_rec_provenance_kind kind);
void rl_record_free(rl_record *record); /* NULL is fine */

/* Replace *slot (a string field of a record) with a malloc'd copy of `text` (NULL clears it).
 * Returns 0, or -1 when out of memory. Example: rl_rec_set_string(&r->software.kernel, "cpu"); */
int rl_rec_set_string(char **slot, const char *text);
/* rl_rec_set_string for text from elsewhere (a command line, other tools' files): each byte that
 * does not start a valid UTF-8 sequence becomes '?', and the copy stops at RL_RECORD_MAX_STRING
 * characters, so the record accepts it. 0, or -1 when out of memory. */
int rl_rec_set_clean_string(char **slot, const char *text);
/* rl_median (rooflab.h) under the record library's name: the median of v[0 .. n), sorted in place. */
double rl_rec_median(double *v, size_t n);
/* A point's timing from the times of its n ≥ 1 runs (seconds, reordered in place):
 * rl_time_stats_of (rooflab.h) into median, min, max, mean, stddev, and runs = n. */
void rl_rec_set_times(rl_rec_point *pt, double *t, size_t n);
/* Append an artifact path. 0 or -1. */
int rl_rec_add_artifact(rl_record *record, const char *path);

/* Replace software.argv with copies of argv[0..argc). 0, or -1 when out of memory or argc is
 * negative or over RL_RECORD_MAX_ARGV (the record is then unchanged). */
int rl_rec_set_argv(rl_record *record, int argc, const char *const *argv);

/* Append a zeroed point (problem = {0} i.e. defaults, traffic tiled, max_abs_error and
 * rel_l2_error -1) and return
 * it, or NULL when out of memory or at RL_RECORD_MAX_POINTS. The pointer stays valid until the
 * next rl_record_add_point. */
rl_rec_point *rl_record_add_point(rl_record *record);
/* Append a skipped run: copies of `kernel` and `reason` (both needed), problem {0} (defaults),
 * traffic tiled. NULL when out of memory or at RL_RECORD_MAX_POINTS. The pointer stays valid
 * until the next rl_record_add_skipped. */
rl_rec_skip *rl_record_add_skipped(rl_record *record, const char *kernel, const char *reason);
/* Append a ceiling to `hw` (the record's, or a point's). NULL when out of memory or full. */
rl_rec_ceiling *rl_rec_add_ceiling(rl_rec_hardware *hw, const char *name,
                                   rl_rec_ceiling_kind kind, double value, int measured);
/* Give a point its own hardware block (for tables spanning devices); returns it or NULL. */
rl_rec_hardware *rl_rec_point_hardware(rl_rec_point *point);

/* ----------------------------------------------------------------------------------------------
 * Reading, validating, writing
 * -------------------------------------------------------------------------------------------- */

/*
 * Parse and validate `len` bytes of JSON text (need not be NUL-terminated). Refuses, with an
 * issue naming the limit, text over RL_RECORD_MAX_FILE_BYTES, nesting deeper than
 * RL_RECORD_MAX_DEPTH, more than RL_RECORD_MAX_POINTS points. JSON that is not a record is
 * refused with "valid JSON, not a record: ..." ; text that is not JSON with "not valid JSON at
 * line L, column C". Appends every issue found to `issues` (may be NULL).
 *
 * Returns RL_OK and *out (free with rl_record_free) when there is no error (warnings allowed).
 * On error returns the first error's status and *out = NULL.
 */
rl_status rl_record_parse(const char *text, size_t len, rl_record **out, rl_rec_issues *issues);

/*
 * Check a record in memory (the writer calls it; the reader calls it after reading): mandatory
 * fields, ranges, problem consistency (through rl_problem_resolve), timing order
 * (min ≤ median ≤ max), the point's FLOPs against core's F for its problem (×2 MAC vs FLOP,
 * causal counted as full), reported rates against flops / time, and the roof check: a point
 * whose achieved FLOP/s lies above its own hardware's roof (preset named by hardware.preset and
 * the record's ceilings) is flagged with the factor that would explain it. Fills each point's
 * `derived`. Returns RL_OK when there is no error.
 */
rl_status rl_record_validate(rl_record *record, rl_rec_issues *issues);

/* Serialise a record as JSON (pretty != 0: indented). Returns a malloc'd NUL-terminated string
 * (free with free()), or NULL with *err filled. The record is validated first; a record with
 * errors is not written (err names the first). `derived` values are written when filled. */
char *rl_record_write_json(rl_record *record, int pretty, rl_error *err);

/* A check report as JSON (malloc'd, free with free(); NULL when out of memory):
 *   { "ok": bool, "errors": n, "warnings": n, "issues_omitted": n,
 *     "issues": [ { "severity": "error" | "warning", "path": "...", "message": "..." } ],
 *     "record": { ...the record as rl_record_write_json writes it, with "derived"... } | null }
 * `record` may be NULL (then "record": null). The page and `rooflab validate --json` use it. */
char *rl_record_report_json(const rl_record *record, const rl_rec_issues *issues, int pretty);
/* rl_record_parse + rl_record_report_json in one call: the one entry the WASM module exports. */
char *rl_record_check_json(const char *text, size_t len, int pretty);

/* ----------------------------------------------------------------------------------------------
 * Text for terminals, messages and JSON (text.c): the one sanitiser for everything printed
 * -------------------------------------------------------------------------------------------- */

/* rl_text_escape (the one escaper for printed text) is declared in rooflab.h. */
/* Bytes of `s` that fit in `max_bytes` without cutting a UTF-8 character (for "%.*s"). */
size_t rl_text_clip(const char *s, size_t max_bytes);
/* `src` as valid UTF-8 in `dst` (room for `cap` bytes): each byte that does not start a valid
 * sequence becomes '?', cut on a character boundary. For text put into JSON (file names, other
 * tools' strings): cJSON escapes control characters but copies invalid bytes. Returns the bytes
 * written. */
size_t rl_text_utf8(char *dst, size_t cap, const char *src);

/* ----------------------------------------------------------------------------------------------
 * A point against its kernel profile's prediction (record_predict.c)
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_REC_PRED_OK = 0,
    RL_REC_PRED_NO_PROFILE, /* the point names no "profile" */
    RL_REC_PRED_NO_PRESET,  /* its hardware names no preset */
    RL_REC_PRED_NO_ROOF,    /* the preset has no peak for its dtype */
    RL_REC_PRED_CANNOT_RUN  /* the profile cannot run the problem (rl_predict's error) */
} rl_rec_pred_status;

typedef struct rl_rec_prediction {
    rl_rec_pred_status status;
    const char *reason;        /* "no profile", "no preset", … (static text); NULL when OK */
    char detail[RL_ERROR_MESSAGE_MAX]; /* the kernel, hardware name or core's message */
    rl_prediction prediction;  /* valid when OK */
    double compulsory_s;       /* the compulsory bound on the preset's roof; 0 = no roof */
    double error;              /* (predicted − measured) / measured when OK */
} rl_rec_prediction;

/* Predict point `pt` (of a validated record; `hw` its hardware: the point's own or the
 * record's) with its profile on its preset, as `rooflab eval --kernel PROFILE` would. fa2
 * points with N = 1 use per-head K/V (FlashAttention v2.0.9 in decode). */
void rl_rec_point_predict(const rl_rec_point *pt, const rl_rec_hardware *hw,
                          rl_rec_prediction *out);

/* ----------------------------------------------------------------------------------------------
 * Import of other tools' output
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_IMPORT_ERT = 0,   /* "ert": Empirical Roofline Toolkit roofline.json → named ceilings */
    RL_IMPORT_NCU_CSV,   /* "ncu-csv": `ncu --csv --page raw` → one point per kernel row */
    RL_IMPORT_GBENCH,    /* "gbench": Google Benchmark JSON with TFLOP/s, HBM GB/s counters */
    RL_IMPORT_TORCH_TRACE, /* "torch-trace": a PyTorch profiler (Kineto) Chrome trace → one point
                              per GPU kernel name, its launches' durations as the timing */
    RL_IMPORT_NSYS_CSV,  /* "nsys-csv": `nsys stats --report cuda_gpu_kern_sum` (or cuda_gpu_trace)
                            --format csv → one point per kernel name */
    RL_IMPORT_TRITON_CSV,/* "triton-csv": a triton.testing.perf_report table (its CSV, or the text
                            print_data=True prints) → one point per x value and line */
    RL_IMPORT_RECORD,    /* "record": a rooflab record already; only rl_import_detect answers it
                            (rl_import_format_parse does not take it); rl_record_import reads it
                            with rl_record_parse, ignoring the opts */
    RL_IMPORT_FORMAT_COUNT
} rl_import_format;

/* "ert", "ncu-csv", "gbench", "torch-trace", "nsys-csv", "triton-csv", "record" */
const char *rl_import_format_name(rl_import_format format);
/* A tool format named on a command line: "ert", "ncu-csv", "gbench", "torch-trace", "nsys-csv" or
 * "triton-csv" (not "record"). */
rl_status rl_import_format_parse(const char *text, rl_import_format *out, rl_error *err);

/*
 * Which format `len` bytes of text are, from their first structure only (the importer then reads
 * and checks the whole): a UTF-8 BOM, leading blank lines and ncu's "==PROF==" / "==WARNING=="
 * log lines are skipped, then
 *   - a JSON object (its top-level keys, read without parsing the whole, so a truncated file is
 *     still recognised and the importer names where it ends):
 *       "schema": "rooflab-record"            → RL_IMPORT_RECORD
 *       "benchmarks" (with "context", as Google Benchmark writes it, or without)
 *                                             → RL_IMPORT_GBENCH (Google Benchmark JSON)
 *       "empirical"                           → RL_IMPORT_ERT (ERT roofline.json)
 *       "traceEvents"                         → RL_IMPORT_TORCH_TRACE (Chrome trace object)
 *   - a JSON array whose first element is an object with a "ph" key
 *                                             → RL_IMPORT_TORCH_TRACE (Chrome trace array)
 *   - a CSV header with a "Kernel Name" cell  → RL_IMPORT_NCU_CSV (`ncu --csv`, --page raw or the
 *     default details page with "Metric Name" / "Metric Value" columns)
 *   - within the first 16 lines, a CSV header with "Name" and "Instances" (cuda_gpu_kern_sum) or
 *     "Name" and a "Duration (...)" cell (cuda_gpu_trace) → RL_IMPORT_NSYS_CSV (nsys's own
 *     "Processing [...]" and title lines before it are skipped)
 *   - a CSV header of two or more cells followed by a row of numbers, or a first line ending in
 *     ':' (perf_report's plot name) followed by a table → RL_IMPORT_TRITON_CSV
 * RL_OK and *out, or RL_ERR_UNKNOWN with err ("file: not a format rooflab reads; expected ...;
 * got ...") naming every signature looked for and what the text starts with. No allocation
 * beyond one CSV row; linear in the text.
 */
rl_status rl_import_detect(const char *text, size_t len, rl_import_format *out, rl_error *err);

/* The ncu command line that collects every counter the ncu-csv import reads (time, DRAM and L2
 * bytes, SASS h/f/d add/mul/fma, fp16 tensor-pipe ops, device name and compute capability), as
 * one line ending in "./your_app": for `rooflab import --help`, the README and the page. A static
 * string. */
const char *rl_import_ncu_command(void);

/* What a tool's output says of the problem unasked (import_hints.c): FlashAttention-2's kernel
 * names carry Flash_fwd_kernel_traits<head dim, Br, Bc, warps, …, element type> (and
 * Flash_bwd_kernel_traits<…>), so `text` (any format) naming one gives head_dim, block_m, block_n,
 * the dtype (cutlass::half_t fp16, cutlass::bfloat16_t bf16) and, for the backward traits, pass
 * bwd. Fills `hints` and the bit mask `given` (1 << RL_FIELD_x) and, in `what`, the text it read
 * them from; returns how many fields it found (0: none, hints all zero). For prefilling a form:
 * the answers stay the user's. */
size_t rl_import_hints(const char *text, size_t len, rl_problem *hints, unsigned *given,
                       char *what, size_t cap);

/* What the source does not say. Zero means default. */
typedef struct rl_import_opts {
    const char *hardware_name;  /* default: from the file where it says, else "unknown" */
    const char *preset;         /* rooflab preset id for the roof check */
    const char *kernel_version; /* default "unknown (imported)" — the record needs one */
    const char *date;           /* default: from the file where it says */
    const char *source;         /* file name, written into provenance.source */
    /* The problem every imported point describes (ncu rows do not carry it; gbench names may
     * override it per benchmark, see `gbench_args`). Zero fields: CONTRACTS.md defaults. */
    rl_problem problem;
    /* gbench: comma-separated problem keys naming the benchmark's "/"-separated arguments, in
     * order. Default "batch,seq,heads,head_dim" — "BM_flash_fwd/4/8192/16/128" is B=4, N=8192,
     * H=16, d=128. Keys: batch heads kv_heads seq kv_len head_dim causal block_m block_n, or "_"
     * to skip an argument. Arguments named "key:value" in the name (Google Benchmark's ArgNames)
     * are matched by name and win over position.
     * triton-csv: the problem keys of the table's first columns, its x columns (default: the
     * first column alone, by its name: N_CTX, SEQ_LEN, N → seq; BATCH, Z → batch; H, N_HEADS →
     * heads; HEAD_DIM → head_dim; or a problem key). */
    const char *gbench_args;
    rl_rec_traffic traffic_model; /* each point's traffic_model: the bytes of points the source
                                     gives none for (gbench). Zero is RL_TRAFFIC_COMPULSORY;
                                     rooflab import's default is RL_TRAFFIC_TILED */
    /* The problem fields the caller was given (bit 1u << RL_FIELD_x each: typed flags, a form's
     * answers), so that a default typed on purpose counts; a field whose value in `problem` is
     * non-zero counts as given too. An ncu export does not carry the problem: importing one
     * without batch, heads, seq and head_dim given is an error naming the missing flags. */
    unsigned problem_given;
    /* torch-trace, nsys-csv: the kernels imported are those whose name contains `match` (ASCII
     * case-insensitive); NULL: names that look like attention kernels (flash, fmha, attention,
     * attn, sdpa, mha, decode). */
    const char *match;
    /* triton-csv: the unit of the table's values where its header does not state one ("(ms)" at
     * the end of a column name): a time ("ms", "us") or a FLOP rate ("TFLOP/s", "TFLOPS"), as
     * core's units read them. perf_report writes its ylabel only on the plot. */
    const char *unit;
} rl_import_opts;

/* Convert `len` bytes of `format` text into a record (validated like rl_record_parse). Issues name
 * the source's position ("row 3, column dram__bytes_read.sum", "benchmarks[2].name"). */
rl_status rl_record_import(rl_import_format format, const char *text, size_t len,
                           const rl_import_opts *opts, rl_record **out, rl_rec_issues *issues);

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_RECORD_H */
