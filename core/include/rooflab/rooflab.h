/*
 * rooflab.h — the roofline model of attention, in portable C11.
 *
 * rooflab answers "is this attention kernel bandwidth-bound or compute-bound, how far is it from
 * the roof, and why?". This header is the whole public API of the model (core/, library
 * `rooflab_model`, libm only). It knows nothing of Emscripten, CUDA, files or the DOM: the command
 * line (cli/), the WebAssembly module (wasm/) and the benchmark (native-bench/) are thin callers
 * of it. Records and importers are in record.h (`rooflab_record`, on cJSON), exercises in quiz.h.
 *
 * Step by step
 * ------------
 * 1. Describe the problem. Zero means default, so only what differs is written:
 *
 *        rl_problem p = {0};                // B=1, H=8, Hkv=H, N=4096, L=N, d=64, fp16, fwd
 *        p.heads = 32; p.kv_heads = 8;      // GQA: 4 query heads share each K/V head
 *        p.seq = 1; p.kv_len = 4096;        // decode: one new row against a 4096-row cache
 *        p.head_dim = 128;
 *
 * 2. Resolve the roof: a preset, the problem's dtype (it picks the peak) and the person's typed
 *    overrides (unit strings, NULL = the preset's figure). Errors name "hw", "bandwidth", "peak":
 *
 *        rl_error err;
 *        rl_roof_request req = { .hw = "h100-sxm", .dtype = p.dtype, .bandwidth = NULL };
 *        rl_roof_resolved r;
 *        if (rl_roof_resolve(&req, &r, &err) != RL_OK) puts(err.message);
 *
 * 3. Compute the report: FLOPs and bytes under the three traffic models, each as a roofline
 *    point, the SRAM budget and the memory levels:
 *
 *        rl_report rep;
 *        rl_report_compute(&p, r.hw, r.roof, &rep, &err);
 *        rl_point c = rep.points[RL_MODEL_COMPULSORY];
 *        // c.flops 67108864, c.bytes 16793600, c.intensity_flop_per_byte 3.996,
 *        // c.bound RL_BOUND_MEMORY; rep.ridge_flop_per_byte 295.2
 *
 * 4. Predict a real kernel's time, as named terms that add up to it (the ledger):
 *
 *        rl_kernel_spec spec = { .kernel = RL_KERNEL_GENERIC };   // zero = the profile's choices
 *        rl_prediction pr;
 *        rl_predict(&p, r.hw, r.roof, &spec, &pr, &err);
 *        // pr.time_s 11.57e-6, pr.limit RL_LIMIT_MEMORY, pr.terms_s[RL_TERM_MEMORY] 5.147e-6
 *
 *    (`rooflab eval --heads 32 --kv-heads 8 --seq 1 --kv-len 4096 --head-dim 128` prints the
 *    same numbers; docs/MODEL.md has every formula.)
 *
 * Overview: the parts of this header, in order
 * ---------------------------------------------
 *   errors       rl_status and the caller-owned rl_error (field + one-line message), filled by
 *                the one helper rl_error_fail.
 *   units        parse and format quantities that carry a dimension ("4.8 TB/s", "989 TFLOP/s");
 *                bare numbers, case slips and TOPS refused with a suggestion.
 *   text         the one escaper of every echoed string (controls, invisible characters named).
 *   dtypes       element types and their sizes (fp32, tf32, fp16, bf16, fp8).
 *   hardware     datasheet presets (bandwidth, dense peaks per compute unit, SRAM, L2, SMs, clock,
 *                exp rate), lookup by id and by a driver's device name.
 *   problem      B, H, Hkv, N, L, d, dtypes, causal, pass, tile; defaults and validation.
 *   fields       RL_PROBLEM_FIELDS: each problem field once (JSON key, flag and URL key, type,
 *                default or tie, limit, range, symbol, help), iterated by the CLI, page, records.
 *   kernel fields RL_KERNEL_FIELDS: the kernel spec's fields once (kernel, gqa_pack, splits,
 *                ctas_per_sm, cores: key, flag, type, limits, help) for the CLI, binding and page.
 *   terms        RL_TERMS: the ledger of a predicted time (name, meaning, why a tile loses on it).
 *   outputs      the report-output table (rl_output_*): every value of a report and prediction by
 *                its dotted JSON name, unit and kind; `rooflab eval --json`, the binding's report
 *                slots and the page's test ids come from it.
 *   shapes       real models' attention shapes, each from its published configuration.
 *   workload     scored pairs, matmul FLOPs, softmax FLOPs; bytes under three traffic models.
 *   roofline     ridge, attainable throughput, bound time, regime, a measured point's efficiency,
 *                run statistics, and rl_roof_resolve (the one resolution of a roof).
 *   sram         the SRAM budget of one tiled block, term by term, in bytes.
 *   levels       bytes and a roofline point per memory level (DRAM, L2).
 *   prediction   kernel profiles, rl_predict and its ledger, the held-out interval, rl_tune.
 *   report       rl_report_compute: problem + roof → everything the CLI and the page show.
 *   sweeps       one parameter over a range into a caller-provided array.
 *   layer        attention among the other operators of a decoder layer, and the step.
 *
 * Conventions
 * -----------
 * - Every name is prefixed `rl_` (types, functions) or `RL_` (constants). Private names are static.
 * - Units are in names: `_bytes`, `_flops`, `_s`, `_bytes_per_s`, `_flops_per_s`, `_flop_per_byte`.
 *   All quantities are plain doubles in base SI units (bytes, FLOP, seconds).
 * - No global state, no printing, no allocation: every function fills memory the caller owns.
 * - Errors are values. Functions that can fail return an rl_status and fill an rl_error the caller
 *   owns (may be NULL) with the field (CLI flag name / URL key, or JSON path) and a one-line
 *   message that says what was expected.
 * - FLOP counts follow docs/MODEL.md: a multiply-add is 2 FLOPs; F = 4·B·H·d·P forward (QKᵀ and
 *   PV), backward 2.5× forward (with a value head dim d_v: 2·B·H·P·(d + d_v) and
 *   2·B·H·P·(3d + 2d_v)); softmax work (5·B·H·P) is reported separately and never part of F.
 */
#ifndef ROOFLAB_H
#define ROOFLAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RL_VERSION "0.3.0"

/* ----------------------------------------------------------------------------------------------
 * Errors
 * -------------------------------------------------------------------------------------------- */

#define RL_STATUS_XMACRO(X)                                                                        \
    X(RL_OK, "ok")                                                                                 \
    X(RL_ERR_INVALID, "invalid value")                                                             \
    X(RL_ERR_UNIT, "wrong unit or dimension")                                                      \
    X(RL_ERR_RANGE, "value out of range")                                                          \
    X(RL_ERR_UNKNOWN, "unknown name")                                                              \
    X(RL_ERR_INCONSISTENT, "inconsistent problem")                                                 \
    X(RL_ERR_UNSUPPORTED, "not modelled")                                                          \
    X(RL_ERR_CAPACITY, "buffer too small")

typedef enum {
#define RL_X_ENUM(name, text) name,
    RL_STATUS_XMACRO(RL_X_ENUM)
#undef RL_X_ENUM
        RL_STATUS_COUNT
} rl_status;

#define RL_ERROR_FIELD_MAX 96
#define RL_ERROR_MESSAGE_MAX 512 /* room for "expected one of" the 20 preset ids */

typedef struct rl_error {
    rl_status status;
    char field[RL_ERROR_FIELD_MAX];     /* "bandwidth", "head-dim", "points[3].problem.head_dim" */
    char message[RL_ERROR_MESSAGE_MAX]; /* full sentence, starts with the field:
                                           'bandwidth: "312 TFLOPS" is a compute rate, expected
                                           bytes per second' */
} rl_error;

/* Short text of a status ("wrong unit or dimension"). Never NULL. */
const char *rl_status_text(rl_status status);
/* The one way to fill an error (core, the CLI and the binding alike): status, field, and the
 * message "FIELD: <formatted text>" (just the text when field is empty or NULL); nothing when err
 * is NULL. Returns status, so callers can `return rl_error_fail(...)`. */
rl_status rl_error_fail(rl_error *err, rl_status status, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ----------------------------------------------------------------------------------------------
 * Units
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_DIM_NONE = 0,       /* a plain number */
    RL_DIM_BYTES,          /* B, kB, MiB, bit, Gb ... */
    RL_DIM_BYTES_PER_S,    /* B/s, GB/s, GiB/s, bit/s, Gbit/s, Gbps */
    RL_DIM_FLOP,           /* FLOP, GFLOP */
    RL_DIM_FLOPS_PER_S,    /* FLOP/s, TFLOPS (not OP/s, TOPS: integer operations) */
    RL_DIM_SECONDS,        /* s, ms, us, µs, ns */
    RL_DIM_FLOP_PER_BYTE,  /* FLOP/B, FLOP/byte */
    RL_DIM_COUNT
} rl_dim;

/* What a dimension is, in words, for messages: "bytes per second", "a compute rate" ... */
const char *rl_dim_noun(rl_dim dim);    /* "bytes per second" */
const char *rl_dim_article(rl_dim dim); /* "a bandwidth", "a compute rate", "a byte count" */
const char *rl_dim_base_unit(rl_dim dim); /* "B/s", "FLOP/s", "B", "FLOP", "s", "FLOP/B", "" */

/*
 * Parse a number with a unit: "2039 GB/s", "4.8TB/s", "989 TFLOPS", "1.5 GiB", "25 Gbit/s",
 * "3.538 ms", "2,039 GB/s". SI prefixes k M G T P E (10³…), IEC Ki Mi Gi Ti Pi Ei (2¹⁰…);
 * `B` is a byte, `b`/`bit` a bit (1/8 byte); rates `/s` or `ps` suffix (Gbps); `FLOPS` means FLOP/s.
 * What a person types is taught, never guessed (MODEL.md "Units"), one rule for CLI and page:
 * - a bare number where a dimension is expected is refused with a suggestion in the field's unit
 *   ('bandwidth: 2039 — a bandwidth needs a unit: did you mean "2039 GB/s"?'); with `expected` =
 *   RL_DIM_COUNT (any dimension) a bare number is a plain number (RL_DIM_NONE);
 * - commas separate thousands only, in groups of three ("2,039" = 2039); any other comma is
 *   refused with the reason (decimal commas are not accepted);
 * - units and prefixes are case-sensitive; a case slip is refused with the accepted spelling
 *   ('did you mean "3.35 TB/s"?');
 * - OP, OP/s, TOPS (operations, usually integer) are refused for FLOP counts and rates;
 * - a space or tab before or after the value is refused (between number and unit it is fine).
 *
 * The value must be finite and > 0 (sizes, rates and times are all strictly positive here).
 * On success *out_base holds the value in base units and *out_dim (may be NULL) the dimension.
 * `expected` = RL_DIM_COUNT accepts any dimension. `field` names the input in messages.
 */
rl_status rl_parse_quantity(const char *text, rl_dim expected, const char *field, double *out_base,
                            rl_dim *out_dim, rl_error *err);
/* The unit a bare `value` is suggested in for `dim` ("GB/s" for 2039, "TB/s" for 3.35, "TFLOP/s",
 * "ms" ...): the first of the dimension's candidates that puts the value in its typical range
 * (MODEL.md "Units"); "" for RL_DIM_NONE. */
const char *rl_bare_number_unit(double value, rl_dim dim);

typedef enum {
    RL_PREFIX_SI = 0, /* 10³ steps: kB, MB, GB, TB/s, TFLOP/s */
    RL_PREFIX_IEC = 1 /* 2¹⁰ steps: KiB, MiB, GiB/s (bytes only) */
} rl_prefix_style;

/*
 * Format a value given in base units with the prefix that keeps 1 ≤ mantissa < 1000 (or 1024),
 * `sig` significant digits (0 = 4). Writes at most `cap` bytes including the NUL; returns the
 * length it needed (like snprintf). Example: 2.039e12, RL_DIM_BYTES_PER_S, SI → "2.039 TB/s".
 */
size_t rl_format_quantity(double value_base, rl_dim dim, rl_prefix_style style, int sig, char *buf,
                          size_t cap);

/* The formatter's tables, for a formatter elsewhere that must agree (the page's units.js): the
 * prefix of 1000^k or 1024^k (k < RL_PREFIX_COUNT; "" at 0), the time units from s down (k <
 * RL_TIME_UNIT_COUNT: s, ms, µs, ns, each 1000× the next) and the digits a `sig` of 0 means. */
#define RL_PREFIX_COUNT 7
#define RL_TIME_UNIT_COUNT 4
#define RL_FORMAT_DEFAULT_SIG 4
const char *rl_prefix_name(rl_prefix_style style, int k);
const char *rl_time_unit_name(int k);

/* ----------------------------------------------------------------------------------------------
 * Text shown to a person (utf8.c): the one escaper for every echoed string (CLI and page)
 * -------------------------------------------------------------------------------------------- */

/* `src` as one line of printable, valid UTF-8 in `dst` (room for `cap` bytes, NUL included):
 * \n \r \t written as the two characters "\n" "\r" "\t"; other C0 controls and DEL (ESC, so
 * no terminal sequence) and bytes that do not start a valid UTF-8 sequence as "\xHH"; every
 * character rl_char_invisible_name names (C1 controls, spaces other than U+0020, zero-width
 * characters, direction marks, embeddings, overrides and isolates, line/paragraph separators,
 * soft hyphen, tags) as "<U+XXXX NAME>", e.g. "<U+202E RIGHT-TO-LEFT OVERRIDE>",
 * "<U+00A0 NO-BREAK SPACE>". Text that does not fit is cut on a character boundary and ends with
 * "...". Returns the bytes written (without the NUL). NULL src gives "". */
size_t rl_text_escape(char *dst, size_t cap, const char *src);
/* The same for the first `len` bytes of `src` (NUL bytes in it shown as "\x00"). */
size_t rl_text_escape_n(char *dst, size_t cap, const char *src, size_t len);
/* The Unicode name (or family name) of a character a reader cannot see or that reorders the line
 * (the escaper's list), or NULL for an ordinary character (and for ASCII). */
const char *rl_char_invisible_name(uint32_t cp);
/* The bytes of the valid UTF-8 sequence at s[0 .. avail) (1 to 4), its code point in *cp (may be
 * NULL); 0 when none starts there (a stray, overlong or surrogate byte sequence). */
size_t rl_utf8_next(const char *s, size_t avail, uint32_t *cp);
/* Characters in `s` (a byte that is not valid UTF-8 counts as one); 0 for NULL. */
size_t rl_text_length(const char *s);

/* ----------------------------------------------------------------------------------------------
 * Data types
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_DTYPE_DEFAULT = 0, /* in an rl_problem: fp16 for dtype, `dtype` for kv_dtype/score_dtype */
    RL_DTYPE_FP32,
    RL_DTYPE_TF32,
    RL_DTYPE_FP16,
    RL_DTYPE_BF16,
    RL_DTYPE_FP8, /* e4m3 / e5m2 */
    /* Block-scaled (microscaling) formats: the scale bytes are counted in the element size
     * (DESIGN.md "Element types"): */
    RL_DTYPE_NVFP4, /* e2m1 + one e4m3 scale per 16 elements: 4 + 8/16 = 4.5 bits */
    RL_DTYPE_MXFP4, /* e2m1 + one e8m0 scale per 32 elements: 4 + 8/32 = 4.25 bits */
    RL_DTYPE_MXFP8, /* e4m3/e5m2 + one e8m0 scale per 32 elements: 8 + 8/32 = 8.25 bits */
    RL_DTYPE_COUNT
} rl_dtype;

const char *rl_dtype_name(rl_dtype dtype); /* "fp32" ... "fp8", "nvfp4", "mxfp4", "mxfp8"; "default" for 0 */
/* "fp16", "bf16", "fp8", "e4m3", "e5m2", "fp32", "float32", "tf32", "half", "bfloat16" → dtype. */
rl_status rl_dtype_parse(const char *text, const char *field, rl_dtype *out, rl_error *err);
/* "one of fp32, tf32, ..., mxfp8": the dtype names as messages list them; the length written. */
size_t rl_dtype_choices_text(char *buf, size_t cap);
double rl_dtype_bytes(rl_dtype dtype); /* 4, 4, 2, 2, 1, 0.5625, 0.53125, 1.03125; 0 for DEFAULT */
/* 1 for the block-scaled formats (nvfp4, mxfp4, mxfp8), whose bytes include their scales. */
int rl_dtype_block_scaled(rl_dtype dtype);

/* ----------------------------------------------------------------------------------------------
 * Hardware presets
 * -------------------------------------------------------------------------------------------- */

/* Named compute ceilings. Index into rl_hw.peak_flops_per_s. 0 there = not available / unknown. */
typedef enum {
    RL_PEAK_FP32 = 0,       /* "fp32 CUDA core" (vector / non-matrix fp32) */
    RL_PEAK_TF32,           /* "tf32 tensor" */
    RL_PEAK_FP16_TENSOR,    /* "fp16 tensor" (also bf16; fp32 accumulate, dense) */
    RL_PEAK_FP16_NONTENSOR, /* "fp16 non-tensor" */
    RL_PEAK_FP8,            /* "fp8 tensor" (also MX-fp8 on Blackwell/CDNA 4: same rate) */
    RL_PEAK_FP6,            /* "fp6 tensor" (Blackwell, CDNA 4); appended: earlier indices and keys stable */
    RL_PEAK_FP4,            /* "fp4 tensor" (NVFP4/MXFP4; Blackwell, CDNA 4) */
    RL_PEAK_COUNT
} rl_peak_kind;

const char *rl_peak_name(rl_peak_kind kind); /* "fp16 tensor" ... */
const char *rl_peak_id(rl_peak_kind kind);   /* "fp16_tensor" ... (JSON keys) */

typedef struct rl_hw {
    const char *id;     /* "h100-sxm" */
    const char *name;   /* "NVIDIA H100 SXM5 80GB" */
    const char *arch;   /* "Hopper (sm_90)" */
    double bandwidth_bytes_per_s;                /* DRAM/HBM, datasheet */
    double peak_flops_per_s[RL_PEAK_COUNT];      /* dense; 0 = not available */
    double smem_per_sm_bytes;                    /* shared memory (LDS) per SM (CU) */
    double smem_per_block_default_bytes;         /* without opt-in (48 KiB on NVIDIA) */
    double smem_per_block_optin_bytes;           /* opt-in maximum per block */
    double l2_bytes;                             /* last-level on-chip cache */
    int sm_count;                                /* SMs (NVIDIA) or CUs (AMD) */
    const char *source;                          /* where the figures come from */
    const char *source_date;                     /* "2022-03", date of that document */
    const char *notes;                           /* traps and unverified figures; "" if none */
    /* Beyond DRAM, for memory levels and the predicted time. 0 / NULL = not known for this part
     * (a prediction that needs it says so rather than guessing). */
    double l2_bandwidth_bytes_per_s;             /* L2 read plateau, microbenchmark-measured */
    const char *l2_bandwidth_source;             /* where that figure comes from, with its date */
    double sm_clock_hz;                          /* the SM clock the datasheet peaks are quoted at */
    double exp_per_s;                            /* special-function exp2 results per second:
                                                    16 per SM per clock (cc 8.0–10.0; 32 on
                                                    Blackwell Ultra, cc 10.3) × SMs × clock */
    int sm_arch;                                 /* compute capability ×10: 70, 80, 86, 89, 90,
                                                    100, 103, 120; 0 = not an NVIDIA GPU */
    double tmem_per_sm_bytes;                    /* Tensor Memory per SM (datacenter Blackwell,
                                                    cc 10.x: 256 KiB); 0 = none */
} rl_hw;

size_t rl_hw_count(void);                 /* number of presets, `custom` last */
const rl_hw *rl_hw_at(size_t index);      /* NULL past the end */
const rl_hw *rl_hw_find(const char *id);  /* NULL when unknown */
/* Like rl_hw_find, with an error naming `field` and listing the valid ids. */
rl_status rl_hw_lookup(const char *id, const char *field, const rl_hw **out, rl_error *err);
/* The preset of a device as its driver names it ("NVIDIA H100 80GB HBM3" → h100-sxm), only where
 * the name says exactly which part it is; NULL when unknown or ambiguous. */
const rl_hw *rl_hw_match_device(const char *device_name);

/* The compute ceiling a kernel in `dtype` runs against: fp32→FP32, tf32→TF32, fp16/bf16→FP16
 * tensor, fp8 and mxfp8→FP8, nvfp4 and mxfp4→FP4 (FP6: see docs/MODEL.md "Hardware presets").
 * rl_hw_peak_for_dtype: 0 when the preset has none (fp8 on A100, the `custom` preset) and for
 * the block-scaled dtypes on a preset without block-scaled tensor cores (no fp4 ceiling: mxfp8
 * on H100 is 0 although its fp8 slot is not). */
rl_peak_kind rl_peak_for_dtype(rl_dtype dtype);
double rl_hw_peak_for_dtype(const rl_hw *hw, rl_dtype dtype);

/* ----------------------------------------------------------------------------------------------
 * The problem
 * -------------------------------------------------------------------------------------------- */

typedef enum { RL_PASS_FWD = 0, RL_PASS_BWD = 1 } rl_pass;
const char *rl_pass_name(rl_pass pass); /* "fwd", "bwd" */

/* Zero means default, so `rl_problem p = {0};` is the CONTRACTS.md default problem:
 * B=1, H=8, Hkv=H, N=4096, L=N, d=64, fp16, kv, out and score dtype = dtype, non-causal,
 * fwd, Br=Bc=64. rl_problem_resolve() fills the defaults in and validates. */
/* A ragged batch (--kv-lens, DESIGN.md "Variants"): up to RL_KV_LENS_MAX (length, count) pairs,
 * `count` sequences of `len` keys each, in the order typed. n = 0: off (every sequence has L keys).
 * Text form: items separated by commas, each LEN or LENxCOUNT: "512,4096,32768" or
 * "4096x60,32768x4". With it the batch is the sum of the counts and L the longest length. */
#define RL_KV_LENS_MAX 64
typedef struct rl_kv_len_pair {
    int64_t len;   /* keys of each of these sequences, 1 … RL_MAX_DIM */
    int64_t count; /* sequences of that length, 1 … RL_MAX_DIM */
} rl_kv_len_pair;
typedef struct rl_kv_lens {
    int32_t n; /* pairs in use; 0 = off */
    rl_kv_len_pair pair[RL_KV_LENS_MAX];
} rl_kv_lens;
/* Parse the text form into *out ("" = off). Errors name `field` (NULL = "kv-lens") and say what
 * was expected at which item. */
rl_status rl_kv_lens_parse(const char *text, const char *field, rl_kv_lens *out, rl_error *err);
/* The text form ("512,4096x60"; "" when off); returns the length needed, like snprintf. */
size_t rl_kv_lens_format(const rl_kv_lens *lens, char *buf, size_t cap);

typedef struct rl_problem {
    int64_t batch;     /* B */
    int64_t heads;     /* H query heads */
    int64_t kv_heads;  /* Hkv; H must be a multiple of it (GQA/MQA) */
    int64_t seq;       /* N query rows per sequence (1 for decode) */
    int64_t kv_len;    /* L key/value rows; causal needs N ≤ L */
    int64_t head_dim;  /* d */
    rl_dtype dtype;       /* Q and O */
    rl_dtype kv_dtype;    /* K and V */
    rl_dtype out_dtype;   /* O (FA3's fp8 forward writes bf16) */
    rl_dtype score_dtype; /* S and P of the naive model */
    int causal;           /* 0 / 1 */
    rl_pass pass;
    int64_t block_m;   /* Br query rows per tile */
    int64_t block_n;   /* Bc key rows per tile */
    /* Attention variants (DESIGN.md "Variants"); 0 = off / the plain MHA-GQA problem. */
    int64_t head_dim_v;   /* d_v, value/output head dim; 0 = head_dim */
    int64_t kv_lora_rank; /* R: absorbed MLA latent rank (K = the R + DR latent, V its first R) */
    int64_t rope_dim;     /* DR: MLA's decoupled RoPE part of the latent; needs kv_lora_rank */
    int64_t window;       /* W: causal sliding window, keys each query sees (itself included) */
    int64_t sinks;        /* S: sink tokens (the first S keys) always visible; needs window */
    int64_t page_size;    /* P: paged KV, rows per page (0 = contiguous cache) */
    rl_kv_lens kv_lens;   /* a ragged batch; n = 0: every sequence has kv_len keys */
    int64_t topk;         /* K: sparse top-k (DeepSeek-V3.2 DSA) keys per query, 0 = dense */
} rl_problem;

#define RL_DEFAULT_BATCH 1
#define RL_DEFAULT_HEADS 8
#define RL_DEFAULT_SEQ 4096
#define RL_DEFAULT_HEAD_DIM 64
#define RL_DEFAULT_BLOCK 64
/* Limits keep every count exact in a double (< 2^53 where tests compare exactly) and finite. */
#define RL_MAX_DIM ((int64_t)1 << 24)       /* batch, heads, seq, kv_len: at most 16,777,216 */
#define RL_MAX_HEAD_DIM ((int64_t)1 << 16)  /* d at most 65,536 */
#define RL_MAX_BLOCK ((int64_t)1 << 16)     /* Br, Bc at most 65,536 */

/* Fill defaults into a copy and check it. Errors name the CLI flag / URL key ("kv-heads",
 * "head-dim", "seq", "kv-len", "block-m"...). Sizes must be 1 … the RL_MAX_* limits; H a multiple
 * of Hkv; causal needs N ≤ L. */
rl_status rl_problem_resolve(const rl_problem *in, rl_problem *out, rl_error *err);

/* ----------------------------------------------------------------------------------------------
 * The problem's fields, described once
 *
 * Every caller that names, parses, prints, reads or writes a problem field iterates this table:
 * the CLI's flags and help, the WASM input slots and the page's names/defaults/limits, the record
 * reader, writer and checker, and the importers. A field has one spelling, its JSON key
 * ("kv_heads"); the CLI flag and URL key is the same word with '-' for '_' ("kv-heads").
 *
 * X(ID, member, key, flag, type, default, max, lo, hi, meta, help)
 *   type     RL_FTYPE_INT (a size 1 … max), RL_FTYPE_DTYPE, RL_FTYPE_BOOL, RL_FTYPE_PASS
 *   default  the value `0` in rl_problem stands for (for INT fields; 0 here = tied to another
 *            field: kv_heads = heads, kv_len = seq; dtype fields: 0 = fp16 / same as dtype)
 *   lo, hi   the range a page slider or a sweep offers (a subset of 1 … max)
 *   meta     the symbol in MODEL.md and in help ("B", "HKV", "T")
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_FTYPE_INT = 0, /* a size: 1 … max; 0 in rl_problem means the default */
    RL_FTYPE_DTYPE,   /* rl_dtype: fp32 tf32 fp16 bf16 fp8 nvfp4 mxfp4 mxfp8 */
    RL_FTYPE_BOOL,    /* 0 / 1; text "1"/"0"/"true"/"false" */
    RL_FTYPE_PASS,    /* rl_pass: "fwd" / "bwd" */
    RL_FTYPE_LENS     /* rl_kv_lens: "512,4096x60" as text, an array of [len, count] in JSON;
                         as an integer (rl_problem_get) the number of pairs, 0 = off */
} rl_field_type;

#define RL_PROBLEM_FIELDS(X)                                                                       \
    X(BATCH, batch, "batch", "batch", RL_FTYPE_INT, RL_DEFAULT_BATCH, RL_MAX_DIM, 1, 1024, "B",   \
      "batch size (default 1)")                                                                    \
    X(HEADS, heads, "heads", "heads", RL_FTYPE_INT, RL_DEFAULT_HEADS, RL_MAX_DIM, 1, 256, "H",    \
      "query heads (default 8)")                                                                   \
    X(KV_HEADS, kv_heads, "kv_heads", "kv-heads", RL_FTYPE_INT, 0, RL_MAX_DIM, 1, 256, "HKV",     \
      "key/value heads; H must be a multiple (default H; GQA/MQA below)")                          \
    X(SEQ, seq, "seq", "seq", RL_FTYPE_INT, RL_DEFAULT_SEQ, RL_MAX_DIM, 128, 1048576, "N",        \
      "query rows per sequence (default 4096; 1 for decode)")                                      \
    X(KV_LEN, kv_len, "kv_len", "kv-len", RL_FTYPE_INT, 0, RL_MAX_DIM, 128, 1048576, "L",         \
      "key/value rows (default N; the KV cache length for decode)")                                \
    X(HEAD_DIM, head_dim, "head_dim", "head-dim", RL_FTYPE_INT, RL_DEFAULT_HEAD_DIM,               \
      RL_MAX_HEAD_DIM, 16, 256, "D", "head dimension (default 64)")                                \
    X(DTYPE, dtype, "dtype", "dtype", RL_FTYPE_DTYPE, RL_DTYPE_FP16, RL_DTYPE_COUNT - 1, 1,       \
      RL_DTYPE_COUNT - 1, "T", "Q/O element type: fp32 tf32 fp16 bf16 fp8 (default fp16)")         \
    X(KV_DTYPE, kv_dtype, "kv_dtype", "kv-dtype", RL_FTYPE_DTYPE, 0, RL_DTYPE_COUNT - 1, 1,       \
      RL_DTYPE_COUNT - 1, "T",                                                                     \
      "K/V element type, also nvfp4 mxfp4 mxfp8 (default: --dtype)")                               \
    X(OUT_DTYPE, out_dtype, "out_dtype", "out-dtype", RL_FTYPE_DTYPE, 0, RL_DTYPE_COUNT - 1, 1,    \
      RL_DTYPE_COUNT - 1, "T", "O element type (default: --dtype; FA3 fp8 writes bf16)")          \
    X(SCORE_DTYPE, score_dtype, "score_dtype", "score-dtype", RL_FTYPE_DTYPE, 0,                   \
      RL_DTYPE_COUNT - 1, 1, RL_DTYPE_COUNT - 1, "T",                                              \
      "S/P element type of the naive model (default: --dtype)")                                    \
    X(CAUSAL, causal, "causal", "causal", RL_FTYPE_BOOL, 0, 1, 0, 1, "",                           \
      "causal mask, last query aligned with last key (needs N <= L)")                              \
    X(PASS, pass, "pass", "pass", RL_FTYPE_PASS, RL_PASS_FWD, RL_PASS_BWD, 0, 1, "fwd|bwd",       \
      "forward or backward (backward: 2.5x FLOPs, compulsory bytes only)")                         \
    X(BLOCK_M, block_m, "block_m", "block-m", RL_FTYPE_INT, RL_DEFAULT_BLOCK, RL_MAX_BLOCK, 16,   \
      256, "BR", "tile query rows of the tiled model (default 64)")                                \
    X(BLOCK_N, block_n, "block_n", "block-n", RL_FTYPE_INT, RL_DEFAULT_BLOCK, RL_MAX_BLOCK, 16,   \
      256, "BC", "tile key rows of the tiled model (default 64)")                                 \
    X(HEAD_DIM_V, head_dim_v, "head_dim_v", "head-dim-v", RL_FTYPE_INT, 0, RL_MAX_HEAD_DIM, 16,    \
      256, "DV", "value/output head dim (default: --head-dim; MLA prefill: 192 and 128)")          \
    X(KV_LORA_RANK, kv_lora_rank, "kv_lora_rank", "kv-lora-rank", RL_FTYPE_INT, 0,                 \
      RL_MAX_HEAD_DIM, 64, 1024, "R",                                                              \
      "absorbed MLA: latent rank; one R+DR latent per token, kv-heads 1 (needs --rope-dim)")       \
    X(ROPE_DIM, rope_dim, "rope_dim", "rope-dim", RL_FTYPE_INT, 0, RL_MAX_HEAD_DIM, 16, 128, "DR", \
      "absorbed MLA: RoPE part of the latent; head dim = R + DR (needs --kv-lora-rank)")          \
    X(WINDOW, window, "window", "window", RL_FTYPE_INT, 0, RL_MAX_DIM, 64, 131072, "W",            \
      "causal sliding window: keys each query sees, itself included (needs --causal)")             \
    X(SINKS, sinks, "sinks", "sinks", RL_FTYPE_INT, 0, RL_MAX_DIM, 1, 1024, "S",                   \
      "sink tokens: the first S keys, always visible (needs --window)")                            \
    X(PAGE_SIZE, page_size, "page_size", "page-size", RL_FTYPE_INT, 0, RL_MAX_BLOCK, 1, 256, "P",  \
      "paged KV: rows per page; K/V gathered page by page in 32 B sectors, plus the page table")   \
    X(KV_LENS, kv_lens, "kv_lens", "kv-lens", RL_FTYPE_LENS, 0, RL_KV_LENS_MAX, 0, 0, "LIST",     \
      "ragged batch: LEN,LEN,... or LENxCOUNT,... (batch = sum of counts, kv-len = the longest)")  \
    X(TOPK, topk, "topk", "topk", RL_FTYPE_INT, 0, RL_MAX_DIM, 256, 8192, "K",                     \
      "sparse top-k (DeepSeek-V3.2 DSA): keys each query attends, chosen by an fp8 indexer")

typedef enum {
#define RL_X_FIELD_ENUM(ID, member, key, flag, type, def, max, lo, hi, meta, help) RL_FIELD_##ID,
    RL_PROBLEM_FIELDS(RL_X_FIELD_ENUM)
#undef RL_X_FIELD_ENUM
        RL_PROBLEM_FIELD_COUNT
} rl_problem_field;

typedef struct rl_field_info {
    const char *key;      /* JSON key: "kv_heads" */
    const char *flag;     /* CLI flag without "--" and URL key: "kv-heads" */
    rl_field_type type;
    int64_t default_value; /* what 0 stands for; 0 = tied (kv_heads → heads, kv_len → seq ...) */
    int64_t max;          /* largest valid value (INT: size limit; enums: last code) */
    int64_t range_lo;     /* the range a slider or sweep offers */
    int64_t range_hi;
    const char *meta;     /* "B", "HKV", "T" */
    const char *help;     /* one line for --help */
} rl_field_info;

/* The description of one field; NULL past the end. */
const rl_field_info *rl_problem_field_info(rl_problem_field field);
/* The field whose value a 0 here stands for (kv_heads → heads, kv_len → seq, kv_dtype,
 * out_dtype and score_dtype → dtype); -1 when 0 stands for the table's default_value instead. */
int rl_problem_field_tie(rl_problem_field field);
/* 1 for the attention-variant fields (head_dim_v, kv_lora_rank, rope_dim, window, sinks): 0 there
 * means off (head_dim_v: the same as head_dim), records omit them when off, and the page keeps
 * them out of its beginner controls. */
int rl_problem_field_variant(rl_problem_field field);
/* Find a field by JSON key ("kv_heads") or by flag ("kv-heads"); -1 when neither. */
int rl_problem_field_find(const char *name);
/* The field's value as an integer (dtype and pass as their enum codes, causal 0/1). */
int64_t rl_problem_get(const rl_problem *p, rl_problem_field field);
/* Set a field from an integer as rl_problem holds it: 0 = default, else 1 … max (INT), a dtype
 * code, 0/1 (causal), 0/1 (pass). Anything else is refused with `name` (NULL = the flag) in the
 * message; nothing is coerced. */
rl_status rl_problem_set(rl_problem *p, rl_problem_field field, int64_t value, const char *name,
                         rl_error *err);
/* Set a field from what a person typed: an integer 1 … max (no sign, no spaces, no fraction),
 * a dtype name, "fwd"/"bwd", "1"/"0"/"true"/"false". Errors name `name` (NULL = the flag). */
rl_status rl_problem_set_text(rl_problem *p, rl_problem_field field, const char *text,
                              const char *name, rl_error *err);
/* The value as text, as the record and the URL write it: "4096", "fp16", "bwd", "true"/"false". */
size_t rl_problem_value_text(const rl_problem *p, rl_problem_field field, char *buf, size_t cap);

/* ----------------------------------------------------------------------------------------------
 * Model shapes: real attention shapes, each from its published configuration (MODEL.md
 * "Model shapes"). Ids are lower case with dashes ("llama-3.1-70b"). Models whose attention this
 * model cannot describe (DeepSeek-V3.2's sparse top-k attention) are listed with `unsupported` set
 * and are refused by rl_model_shape_lookup, never approximated.
 * -------------------------------------------------------------------------------------------- */

/* The rest of a model's decoder layer, for the whole-layer step (section "The layer" below and
 * MODEL.md "The layer"): each value read in the model's config.json, cited in `source`/`fields`. */
typedef enum { RL_NORM_RMS = 0, RL_NORM_LAYER } rl_norm_kind; /* RMSNorm, LayerNorm (with bias) */
typedef enum {
    RL_ACT_SILU_GLU = 0,  /* SwiGLU: silu(gate) * up, three matrices (Llama, Mistral, Qwen, Phi-3) */
    RL_ACT_GELU_TANH_GLU, /* GeGLU with the tanh GELU (Gemma 2: gelu_pytorch_tanh) */
    RL_ACT_GELU_TANH      /* plain MLP fc -> gelu (tanh form) -> proj, two matrices (GPT-2) */
} rl_act_kind;
const char *rl_norm_kind_name(rl_norm_kind kind); /* "rmsnorm", "layernorm" */
const char *rl_act_kind_name(rl_act_kind kind);   /* "swiglu", "geglu", "gelu" */

typedef struct rl_layer_shape {
    int64_t hidden;              /* hidden_size h */
    int64_t intermediate;        /* intermediate_size I of the dense MLP (Mixtral: each expert's) */
    int64_t layers;              /* num_hidden_layers */
    int64_t vocab;               /* vocab_size V */
    int64_t experts;             /* routed experts E; 0 = a dense MLP in every layer */
    int64_t experts_active;      /* top-k experts per token */
    int64_t expert_intermediate; /* each expert's intermediate size */
    int64_t shared_experts;      /* experts every token also passes through (0 here for all) */
    rl_norm_kind norm;
    rl_act_kind act;
    int64_t local_layers;        /* layers attending through the sliding window (0 = none) */
    int norms_per_layer;         /* 2 (pre-attention, pre-MLP), 4 with Gemma 2's post-norms */
    int qk_norm;                 /* 1: RMSNorm over each Q and K head (Qwen3) */
    int rope;                    /* 1: rotary positions; 0: learned absolute positions (GPT-2) */
    const char *source;          /* the config.json the values come from */
    const char *fields;          /* the fields read there, with their values */
    int64_t dense_layers;        /* MoE models: layers whose MLP is dense (intermediate I) instead
                                    (DeepSeek first_k_dense_replace, Llama 4 Maverick's interleave) */
    int64_t q_lora_rank;         /* MLA: the query's down-projection rank (1536); 0 = a direct Q */
    int nope_global;             /* 1: the global layers use no positions (Llama 4's NoPE layers) */
} rl_layer_shape;

typedef struct rl_model_shape {
    const char *id;          /* "llama-3.1-70b" */
    const char *name;        /* "Llama 3.1 70B (meta-llama/Meta-Llama-3.1-70B)" */
    int64_t heads;           /* H query heads; 0 when unsupported */
    int64_t kv_heads;        /* Hkv */
    int64_t head_dim;        /* d */
    int64_t sliding_window;  /* keys each query sees in sliding-window layers; 0 = none */
    const char *source;      /* the file (repository, path, commit) or paper the values come from */
    const char *fields;      /* the fields read there, with their values */
    const char *unsupported; /* NULL, or why this model's attention cannot be described */
    rl_layer_shape layer;    /* the whole decoder layer (zero for unsupported models) */
    /* Attention variants (MODEL.md "Model shapes"); 0 = off. Local layers (layer.local_layers)
     * attend through `sliding_window` or `chunk`, the others are global. */
    int64_t head_dim_v;      /* d_v of the MHA form when it differs from head_dim (MLA: 128) */
    int64_t kv_lora_rank;    /* MLA: latent rank R; the absorbed (decode) form caches R + DR */
    int64_t rope_dim;        /* MLA: DR, the decoupled RoPE part of head_dim and of the latent */
    int64_t chunk;           /* chunked local attention (Llama 4): a query sees the keys of its own
                                C-key chunk up to itself, causal; not a sliding window */
    int sink_logit;          /* 1: a learned sink logit per head (gpt-oss): one more exp per row,
                                no bytes; not --sinks (sink tokens) */
    int64_t topk;            /* sparse top-k attention (DeepSeek-V3.2's DSA: index_topk keys per
                                query, --topk); 0 = dense */
} rl_model_shape;

/* The most query rows per sequence the MLA shapes take as decode (absorbed form): one new token,
 * or up to 16 with speculative / multi-token-prediction rows; longer is prefill (MHA form). */
#define RL_MLA_DECODE_MAX_ROWS 16

size_t rl_model_shape_count(void);
const rl_model_shape *rl_model_shape_at(size_t index);  /* NULL past the end */
const rl_model_shape *rl_model_shape_find(const char *id); /* NULL when unknown */
/* Like find, with errors naming `field` (NULL = "model"): an unknown id lists the valid ones; an
 * unsupported model is refused with its reason (RL_ERR_UNSUPPORTED). */
rl_status rl_model_shape_lookup(const char *id, const char *field, const rl_model_shape **out,
                                rl_error *err);
/* Set heads, kv_heads and head_dim from the shape (MLA: head_dim_v, kv_lora_rank and rope_dim
 * too); with only_unset, only fields still 0 (so flags typed before or after a model win). An MLA
 * shape gives its absorbed decode form (kv_lora_rank, rope_dim, H query heads on one latent) when
 * the problem's seq is 1 … RL_MLA_DECODE_MAX_ROWS and its MHA form (H heads, d 192, d_v 128) when
 * seq is longer or unset (the default N is 4096), as serving engines run MLA. The global layers'
 * shape: windows and chunks are not set (rl_model_shape_note says so; rooflab layer applies them). */
void rl_model_shape_apply(const rl_model_shape *m, rl_problem *p, int only_unset);
/* What the shape's problem leaves out: a sliding window or a chunk the model does not apply. When
 * `m` has a window W (or chunk C) and the problem's key length L (kv_len, or seq when 0) is longer,
 * writes one sentence into `buf` saying that F and the K/V bytes count all L keys and are upper
 * bounds for the local layers (and, for a window, the flags that apply it); returns its length,
 * 0 (and "") when there is nothing to say. */
size_t rl_model_shape_note(const rl_model_shape *m, const rl_problem *p, char *buf, size_t cap);

/* ----------------------------------------------------------------------------------------------
 * Work and traffic
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_MODEL_COMPULSORY = 0, /* lower bound: every tensor once */
    RL_MODEL_TILED,          /* FlashAttention-1/2 forward: K/V streamed once per query block */
    RL_MODEL_NAIVE,          /* S and P materialised in device memory */
    RL_MODEL_COUNT
} rl_model;

const char *rl_model_name(rl_model model); /* "compulsory", "tiled", "naive" */

typedef struct rl_traffic {
    int available;            /* 0 when the model is not defined for the problem (tiled, bwd) */
    double bytes;             /* total device-memory bytes, read + written */
    /* Terms (bytes) — their sum is `bytes`. */
    double q_bytes;           /* Q reads (fwd) */
    double k_bytes;           /* K reads, all reloads included */
    double v_bytes;           /* V reads, all reloads included */
    double o_bytes;           /* O writes (fwd) */
    double s_bytes;           /* naive: S written + read (2 × matrix) */
    double p_bytes;           /* naive: P written + read (2 × matrix) */
    double grad_bytes;        /* bwd compulsory: dO read + dQ, dK, dV written */
    double page_table_bytes;  /* paged KV: the 4 B page indices read (compulsory: once per
                                 sequence; tiled: per query head pass); top-k, paged or not: the
                                 int32 index list, 4 B per selected (query, row) */
    double gather_waste_bytes; /* paged KV or top-k gathers: bytes the 32 B sectors move beyond the
                                  rows asked for (a chunk not a multiple of 32 B, scattered) */
    /* tiled only: how many K (= V) rows each (batch, query head) loads in total, and that over L. */
    double kv_rows_loaded_per_head;
    double kv_reload_factor;  /* kv_rows_loaded_per_head / L (256 in the first seed's example) */
    double query_blocks;      /* ⌈N/Br⌉ */
} rl_traffic;

/* One sequence length of the batch (MODEL.md "Ragged batch"). */
typedef struct rl_seq_work {
    int64_t kv_len;            /* L_i keys */
    int64_t count;             /* sequences of that length */
    double pairs;              /* scored pairs of one such sequence, per query head */
    double kv_bytes;           /* compulsory K + V bytes of one such sequence, all KV heads, the
                                  gather's sector waste included */
    double page_table_bytes;   /* the page indices of one such sequence, as one (sequence, KV
                                  head) CTA reads them: 4 B × ⌈touched/P⌉ (0 contiguous);
                                  top-k: its index list, 4 B × pairs */
    double kv_tiles;           /* Bc key tiles one query block walks (⌈touched keys/Bc⌉): the work
                                  of a CTA without split-KV */
    double ctas;               /* CTAs one such sequence launches without split-KV, one per
                                  (query head, query block): H·⌈N/Br⌉ */
} rl_seq_work;

/* DeepSeek-V3.2's lightning indexer (--topk), MODEL.md "Sparse top-k": an fp8 score of every
 * visible key by H_I = 64 index heads of d_I = 128 (config.json index_n_heads, index_head_dim),
 * then a top-k over the logits. Counted apart from attention's F and bytes. */
#define RL_INDEXER_HEADS 64
#define RL_INDEXER_HEAD_DIM 128
typedef struct rl_indexer {
    double pairs;              /* (query, key) pairs scored: every visible key, all sequences */
    double flops;              /* 2·H_I·d_I per pair (fp8 matmul) */
    double k_bytes;            /* index keys: d_I fp8 + one fp32 scale per 128 = 132 B per key */
    double q_bytes;            /* index queries H_I·d_I fp8 and weights H_I fp32 per query row */
    double logit_bytes;        /* fp32 logits written by the score kernel and read by the top-k */
    double index_bytes;        /* the selected keys' int32 indices written */
    double bytes;              /* the sum of the four */
} rl_indexer;

typedef struct rl_workload {
    rl_problem problem;       /* the resolved problem */
    double pairs;             /* scored (query, key) pairs per (batch, head) */
    double flops;             /* F: matmul FLOPs of the pass (bwd = 2.5 × fwd) */
    double fwd_flops;         /* forward matmul FLOPs 4·B·H·d·P */
    double softmax_flops;     /* 5·B·H·P, reported on its own, not part of F */
    /* Tensor sizes (bytes, once): */
    double q_tensor_bytes, k_tensor_bytes, v_tensor_bytes, o_tensor_bytes;
    double score_matrix_bytes; /* one B·H·N·L matrix in score dtype (naive S or P) */
    double kv_token_bytes;     /* K + V bytes one token adds to the cache per KV head (MLA: the
                                  latent; kv-dtype fp8 in FlashMLA's layout, 656 B at 512 + 64) */
    rl_traffic traffic[RL_MODEL_COUNT];
    /* Per sequence length (a ragged batch: one entry per --kv-lens pair; otherwise one entry,
     * kv_len × batch), for the profiles: the work of one such sequence. */
    int seq_groups;
    rl_seq_work seqs[RL_KV_LENS_MAX];
    double tail_ratio;         /* the longest sequence's pairs over the mean (1 when uniform): the
                                  time of a kernel without split-KV over that of a balanced one */
    rl_indexer indexer;        /* --topk: the DSA indexer, its own kernel (not in flops/bytes) */
} rl_workload;

/* Resolve `problem` (zero means default) and compute its work and traffic. */
rl_status rl_workload_compute(const rl_problem *problem, rl_workload *out, rl_error *err);
/* Absorbed MLA's compulsory intensity as L grows (MODEL.md, the README's worked MLA example):
 * F = 2·B·H·P·(d_qk + d_v) with P → N·L, over the one latent each key adds (kv_token_bytes, read
 * once for all H heads; Q and O vanish beside it): 2·H·N·(d_qk + d_v) / kv_token_bytes, which is
 * 2·H·N·(d_qk + d_v)/(d_qk·b) for a latent in one dtype (241.78 FLOP/B for H 128, N 1, bf16).
 * 0 when `w` is not absorbed MLA, or when a window or top-k caps the keys a query sees. */
double rl_mla_intensity_limit(const rl_workload *w);

/* ----------------------------------------------------------------------------------------------
 * Roofline
 * -------------------------------------------------------------------------------------------- */

typedef struct rl_roof {
    double bandwidth_bytes_per_s; /* β */
    double peak_flops_per_s;      /* π */
} rl_roof;

typedef enum { RL_BOUND_MEMORY = 0, RL_BOUND_COMPUTE = 1 } rl_bound;
const char *rl_bound_name(rl_bound bound); /* "memory", "compute" */

typedef struct rl_point {
    double flops;
    double bytes;
    double intensity_flop_per_byte;  /* flops / bytes */
    double attainable_flops_per_s;   /* min(π, β·I) */
    double memory_time_s;            /* bytes / β */
    double compute_time_s;           /* flops / π */
    double time_s;                   /* max of the two */
    rl_bound bound;                  /* memory when I < I*, else compute */
} rl_point;

double rl_ridge_flop_per_byte(rl_roof roof);                        /* I* = π / β */
double rl_attainable_flops_per_s(rl_roof roof, double intensity);   /* min(π, β·I) */
rl_point rl_roofline_point(rl_roof roof, double flops, double bytes);
/* The median of v[0 .. n) (sorts v in place); 0 when n is 0. The one median of repeated runs,
 * for the benchmark, the importers and the records. */
double rl_median(double *v, size_t n);
/* The statistics of n repeated runs' times (seconds; v sorted in place): median, min, max, mean
 * and the sample standard deviation (n − 1 in the denominator; −1 = unknown when n < 2). All 0
 * when n is 0. The one summary of repeated runs, for the benchmark, the importers and the
 * records. Example: 998, 1000.5, 1010.25 µs → median 1000.5, mean 1002.9167, stddev 6.4727 µs. */
typedef struct rl_time_stats {
    double median_s, min_s, max_s, mean_s, stddev_s;
    size_t n;
} rl_time_stats;
rl_time_stats rl_time_stats_of(double *v, size_t n);
/* Measured efficiency: (flops / time) / P(I) at I = flops / bytes. > 1 means above the roof. */
double rl_efficiency(rl_roof roof, double flops, double bytes, double time_s);
/* Check a roof: both rates finite and > 0. Field names "bandwidth" and "peak". */
rl_status rl_roof_check(rl_roof roof, rl_error *err);

/* The one roof resolution, for the CLI and the page alike: a preset, the problem's dtype and the
 * user's typed overrides → bandwidth, peak and ridge. */
#define RL_DEFAULT_HW "h100-sxm"

typedef struct rl_roof_request {
    const char *hw;        /* preset id; NULL or "" = RL_DEFAULT_HW */
    rl_dtype dtype;        /* the problem's Q/O dtype (DEFAULT = fp16): picks the peak */
    const char *bandwidth; /* typed unit string; NULL or "" = the preset's */
    const char *peak;      /* typed unit string; NULL or "" = the preset's peak for the dtype */
} rl_roof_request;

typedef struct rl_roof_resolved {
    const rl_hw *hw;
    rl_roof roof;
    double ridge_flop_per_byte;
    rl_peak_kind peak_kind;  /* the preset ceiling the dtype runs against */
    int bandwidth_typed;     /* 1 when the bandwidth came from the request, 0 from the preset */
    int peak_typed;
} rl_roof_resolved;

/* Errors name "hw", "bandwidth" or "peak": an unknown preset, a typed rate that does not parse or
 * has the wrong dimension, or a preset without the figure (e.g. fp8 on A100, anything on
 * `custom`) when nothing was typed. */
rl_status rl_roof_resolve(const rl_roof_request *req, rl_roof_resolved *out, rl_error *err);

/* ----------------------------------------------------------------------------------------------
 * SRAM budget of one tiled block (FlashAttention forward), in bytes
 * -------------------------------------------------------------------------------------------- */

typedef struct rl_sram {
    double q_tile_bytes;   /* Br·d·b */
    double k_tile_bytes;   /* Bc·d·b_kv */
    double v_tile_bytes;   /* Bc·d·b_kv */
    double s_tile_bytes;   /* Br·Bc·4 (fp32 scores) */
    double o_acc_bytes;    /* Br·d·4 (fp32 accumulator) */
    double ml_bytes;       /* 2·Br·4 (row max m and row sum l) */
    double total_bytes;
    double limit_default_bytes; /* hardware's default per-block limit (48 KiB) */
    double limit_optin_bytes;   /* opt-in maximum per block */
    int fits_default;
    int fits_optin;
} rl_sram;

/* `hw` may be NULL (limits then 0 and fits_* 0). `problem` must be resolved. */
rl_sram rl_sram_budget(const rl_problem *problem, const rl_hw *hw);

/* ----------------------------------------------------------------------------------------------
 * Memory levels: bytes and a roof per level (DRAM/HBM and L2), as Nsight Compute's hierarchical
 * roofline shows them
 *
 * Every byte an SM reads or writes passes through L2; only L2 misses reach DRAM. For a traffic
 * model: `l2` is its bytes as counted (the tiled model's K/V re-reads are L2→SM traffic), `dram`
 * what misses L2 under the reuse rule below. The rule (MODEL.md "Memory levels"): the CTAs in
 * flight (SMs × CTAs per SM, in launch order) touch the K/V of W (batch, KV head) pairs; if
 * W · 2·L·d·b_kv ≤ L2 the re-reads hit and DRAM carries each K/V row once (the compulsory K/V);
 * past that the hit fraction is L2 / working set and the rest of the re-reads go to DRAM.
 * -------------------------------------------------------------------------------------------- */

typedef enum { RL_LEVEL_DRAM = 0, RL_LEVEL_L2, RL_LEVEL_COUNT } rl_level;
const char *rl_level_name(rl_level level); /* "dram", "l2" */

typedef struct rl_level_traffic {
    double bytes[RL_LEVEL_COUNT];
    double kv_working_set_bytes; /* K/V of the (batch, KV head) pairs in flight */
    double kv_hit_fraction;      /* fraction of the K/V re-reads served by L2 (1 = all) */
} rl_level_traffic;

/* ----------------------------------------------------------------------------------------------
 * Kernel profiles and the predicted time
 *
 * A profile says how a real kernel runs the problem: its tile Br × Bc (per head dim and dtype),
 * CTAs per SM, persistent or not, GQA packing, the split-KV rule for decode, whether the exp is
 * serialised with the MMA, the MMA rate it reaches, a fixed floor. rl_predict turns a problem, a
 * preset and a profile into a time built from named terms (the ledger); each term's formula and
 * each constant's source is in MODEL.md "Kernel profiles and the predicted time".
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_KERNEL_GENERIC = 0,     /* tile, CTAs/SM, packing from the problem and flags */
    RL_KERNEL_FA2,             /* FlashAttention-2 (mma.sync, one warp per 16/32 query rows) */
    RL_KERNEL_FA3,             /* FlashAttention-3 (Hopper wgmma + TMA, warp-specialised) */
    RL_KERNEL_FLASHINFER,      /* FlashInfer decode: GQA group packed into one tile, split-KV */
    RL_KERNEL_FLASH_DECODING,  /* Flash-Decoding: split-KV + a combine kernel */
    RL_KERNEL_STANDARD,        /* S and P materialised (PyTorch eager: two GEMMs and a softmax) */
    RL_KERNEL_FA4,             /* FlashAttention-4 (Blackwell tcgen05, softmax overlapped, exp2
                                  split between MUFU and an FMA polynomial) */
    RL_KERNEL_FLASHMLA,        /* FlashMLA dense MLA decode (Hopper, 64-row head tiles) */
    RL_KERNEL_CUDNN,           /* cuDNN fused SDPA: FA3's mechanism on Hopper, FA4's on Blackwell */
    RL_KERNEL_COUNT
} rl_kernel;

const char *rl_kernel_name(rl_kernel kernel);        /* "generic", "fa2", "fa3", ... */
const char *rl_kernel_description(rl_kernel kernel); /* one line, with the source */
rl_status rl_kernel_parse(const char *text, const char *field, rl_kernel *out, rl_error *err);

typedef enum { RL_PACK_DEFAULT = 0, RL_PACK_PACKED, RL_PACK_PER_HEAD } rl_gqa_pack;
/* "packed" or "per-head" ("" = the profile's: RL_PACK_DEFAULT); anything else an error naming field. */
rl_status rl_gqa_pack_parse(const char *text, const char *field, rl_gqa_pack *out, rl_error *err);

/* FlashInfer's two decode kernels: the CUDA-core one (BatchDecodeWithPagedKVCacheKernel,
 * SingleDecodeWithKVCacheKernel: N = 1, groups 1, 2, 3, 4, 8 — DISPATCH_GQA_GROUP_SIZE; the
 * default of its Python APIs, use_tensor_cores=False) or the tensor-core prefill kernel. Default:
 * vLLM's rule (tensor cores when H/Hkv > 4 or N > 1). "cuda-single": the CUDA-core kernel as
 * single_decode_with_kv_cache launches it for one request (B = 1; its own threads, tile and
 * chunking: decode.cuh SingleDecodeWithKVCacheDispatched). "cuda", "tensor", "cuda-single" ("" =
 * default). */
typedef enum { RL_CORES_DEFAULT = 0, RL_CORES_CUDA, RL_CORES_TENSOR, RL_CORES_CUDA_SINGLE } rl_cores;
rl_status rl_cores_parse(const char *text, const char *field, rl_cores *out, rl_error *err);

/* What the caller fixes; zero means "the profile's choice". */
typedef struct rl_kernel_spec {
    rl_kernel kernel;
    int64_t block_m, block_n; /* generic: 0 = the problem's Br × Bc */
    int64_t ctas_per_sm;      /* generic: 0 = as many as the SRAM budget allows */
    rl_gqa_pack gqa_pack;     /* default: the profile's (generic: per head) */
    int64_t splits;           /* split-KV count; 0 = the profile's rule */
    rl_cores cores;           /* flashinfer: CUDA-core or tensor-core decode; default: vLLM's rule */
} rl_kernel_spec;

/* ----------------------------------------------------------------------------------------------
 * The kernel spec's fields, described once (issue 19) as RL_PROBLEM_FIELDS describes the problem:
 * the CLI's flags, parsing and --help, the binding's input slots and the page's controls iterate
 * this table. 0 in every field means "the profile's choice".
 *
 * X(ID, member, key, flag, type, lo, hi, meta, help)
 *   type   RL_KTYPE_INT: an integer lo … hi typed; RL_KTYPE_CHOICE: a name (choice code 1 … hi,
 *          rl_kernel_field_choice), "" = code 0 where the choice has a default (lo = 0)
 *   lo, hi the values a caller may set besides 0 (INT), or the codes (CHOICE)
 * -------------------------------------------------------------------------------------------- */
typedef enum { RL_KTYPE_INT = 0, RL_KTYPE_CHOICE } rl_kernel_field_type;

#define RL_SPLITS_MAX 128    /* split-KV counts a caller may fix (FlashInfer/Flash-Decoding chunks) */
#define RL_CTAS_PER_SM_MAX 32 /* CTAs resident per SM: the per-SM block limit of sm_80 … sm_100 */

#define RL_KERNEL_FIELDS(X)                                                                        \
    X(KERNEL, kernel, "kernel", "kernel", RL_KTYPE_CHOICE, 0, RL_KERNEL_COUNT - 1, "PROFILE",      \
      "the kernel profile of the predicted time")                                                  \
    X(GQA_PACK, gqa_pack, "gqa_pack", "gqa-pack", RL_KTYPE_CHOICE, 0, RL_PACK_PER_HEAD, "P",       \
      "packed (a GQA group's query heads share one tile's K/V) or per-head")                       \
    X(SPLITS, splits, "splits", "splits", RL_KTYPE_INT, 1, RL_SPLITS_MAX, "S",                     \
      "split-KV count (default: the profile's rule)")                                              \
    X(CTAS_PER_SM, ctas_per_sm, "ctas_per_sm", "ctas-per-sm", RL_KTYPE_INT, 1, RL_CTAS_PER_SM_MAX, \
      "K", "CTAs resident per SM (default: the profile's, or the SRAM budget's)")                  \
    X(CORES, cores, "cores", "cores", RL_KTYPE_CHOICE, 0, RL_CORES_CUDA_SINGLE, "C",               \
      "flashinfer: cuda (CUDA-core decode, N = 1), tensor, or cuda-single (B = 1); "        \
      "default: vLLM's rule")

typedef enum {
#define RL_X_KFIELD_ENUM(ID, member, key, flag, type, lo, hi, meta, help) RL_KFIELD_##ID,
    RL_KERNEL_FIELDS(RL_X_KFIELD_ENUM)
#undef RL_X_KFIELD_ENUM
        RL_KERNEL_FIELD_COUNT
} rl_kernel_field;

typedef struct rl_kfield_info {
    const char *key;  /* JSON key: "ctas_per_sm" */
    const char *flag; /* CLI flag without "--", URL key and binding slot: "ctas-per-sm" */
    rl_kernel_field_type type;
    int64_t lo, hi;   /* INT: the range besides 0; CHOICE: the codes */
    const char *meta; /* "S", "K" */
    const char *help; /* one line for --help */
} rl_kfield_info;

/* The description of one kernel field; NULL past the end. */
const rl_kfield_info *rl_kernel_field_info(rl_kernel_field field);
/* Find a kernel field by JSON key or by flag; -1 when neither. */
int rl_kernel_field_find(const char *name);
/* A CHOICE field's name for `code` ("fa3", "packed", "cuda"; "" for code 0 of a choice with a
 * default); NULL for an INT field or a code out of range. */
const char *rl_kernel_field_choice(rl_kernel_field field, int64_t code);
/* "generic, fa2, fa3, ..." / "packed or per-head": a CHOICE field's names as a message lists them
 * (those of code ≥ 1 where code 0 is the default); the length written. */
size_t rl_kernel_field_choices_text(rl_kernel_field field, char *buf, size_t cap);
int64_t rl_kernel_spec_get(const rl_kernel_spec *spec, rl_kernel_field field);
/* Set a field from an integer: 0 (the profile's choice) or lo … hi; else an error naming `name`
 * (NULL = the flag) with the range. */
rl_status rl_kernel_spec_set(rl_kernel_spec *spec, rl_kernel_field field, int64_t value,
                             const char *name, rl_error *err);
/* Set a field from what a person typed: an integer lo … hi (no sign or spaces) or a choice name;
 * errors name `name` (NULL = the flag) and list what was expected. */
rl_status rl_kernel_spec_set_text(rl_kernel_spec *spec, rl_kernel_field field, const char *text,
                                  const char *name, rl_error *err);

/* The ledger of a predicted time, described once (issue 19): the CLI's table, the page's ledger
 * notes and the tile search's "loses on" read it. X(ID, name, meaning, why a tile loses on it) */
#define RL_TERMS(X)                                                                                \
    X(MMA, "mma", "the useful matmul FLOPs at the MMA rate the profile reaches",                   \
      "a lower MMA rate (fewer query rows per warp)")                        \
    X(TILES, "tiles", "whole Br × Bc tiles: padding and causal diagonal tiles",                   \
      "more padded or diagonal tile work")     \
    X(EXP, "exp", "softmax time the MMA does not hide: exponentials (MUFU or emulated), their "   \
      "FP32 work, the O rescale, Blackwell's S-to-P handoffs",                                      \
      "more softmax work (exp, the O rescale per KV tile)")                               \
    X(WAVES, "waves", "CTAs over SMs: the partial last wave",        \
      "a worse last wave")                                   \
    X(MEMORY, "memory", "memory time not hidden behind compute, every SM busy",                   \
      "more L2/DRAM traffic not hidden")     \
    X(OCCUPANCY, "occupancy", "too few CTAs for the GPU: idle SMs and one SM’s bandwidth cap",    \
      "too few CTAs to fill the GPU")                     \
    X(FLOOR, "floor",                                                                              \
      "fixed costs: a launch, prologue and epilogue per kernel (the combine kernel when split), "  \
      "and per round of CTAs (backward: the K/V block; Blackwell: each tile's Q load, O store)",   \
      "more kernels (a combine when split)")

typedef enum {
#define RL_X_TERM_ENUM(ID, name, meaning, loses) RL_TERM_##ID,
    RL_TERMS(RL_X_TERM_ENUM)
#undef RL_X_TERM_ENUM
        RL_TERM_COUNT
} rl_term;
/* "mma", "tiles", "exp", "waves", "memory", "occupancy", "floor" */
const char *rl_term_name(rl_term term);
/* What the term measures, one line (RL_TERMS). */
const char *rl_term_meaning(rl_term term);
/* Why a tile-search candidate that loses on this term is slower than the best: a short phrase
 * ("a worse last wave"), as `rooflab tune` prints it. */
const char *rl_term_why_loses(rl_term term);

/* What limits a predicted time: the largest of the compute side (mma + tiles + exp + waves), the
 * memory side (DRAM or L2 time with every SM busy), the occupancy term and the fixed costs. */
typedef enum { RL_LIMIT_COMPUTE = 0, RL_LIMIT_MEMORY, RL_LIMIT_OCCUPANCY, RL_LIMIT_LATENCY } rl_limit;
const char *rl_limit_name(rl_limit limit); /* "compute", "memory", "occupancy", "latency" */

typedef struct rl_prediction {
    rl_kernel kernel;
    int64_t block_m, block_n, ctas_per_sm, splits;
    int gqa_packed;
    int persistent;
    int exp_serialised;
    int tile_fitted;                  /* 1: the default (generic) profile's tile is not the
                                         problem's Br × Bc, which exceeds the preset's opt-in
                                         shared memory: the largest tile-search candidate no
                                         larger than it that fits (block_m × block_n) */
    double time_s;                    /* Σ terms_s */
    double flops_per_s;               /* F / time_s */
    rl_bound bound;                   /* compute only when `limit` is compute; else memory */
    rl_limit limit;                   /* what limits the time (rl_limit) */
    double terms_s[RL_TERM_COUNT];
    double compute_s;                 /* mma + tiles + exp + waves */
    double memory_s;                  /* the slowest level's time */
    rl_level_traffic levels;          /* the kernel's bytes per level */
    double level_time_s[RL_LEVEL_COUNT];
    double computed_pairs;            /* pairs the MMA computes, whole tiles (all heads) */
    double exps;                      /* exponentials evaluated (one per computed pair) */
    double ctas;                      /* CTAs (tiles) launched, or tiles of a persistent kernel */
    double waves;                     /* ctas / (SMs × CTAs per SM) */
    double mma_flops_per_s;           /* the MMA rate the profile reaches on this preset */
    double exp_per_s;                 /* the preset's exp rate */
    double overlap_exponent;          /* p of the memory/compute overlap (MODEL.md) */
    double sm_bandwidth_bytes_per_s;  /* the DRAM bandwidth one SM reaches (per-SM cap) */
    int64_t kernels;                  /* kernels launched (floor = kernels × fixed cost) */
    /* The likely range from the profile's held-out published points (rl_prediction_interval):
     * interval_s = time_s × [low factor, high factor]; both 0 when the band has fewer than
     * RL_INTERVAL_MIN_POINTS points (interval_points says how many it has). */
    const char *interval_band;        /* "fa3", …, "default" (the generic decode default) */
    int interval_points;
    double interval_s[2];
    /* The same range as throughput, F / interval_s: [F / high time, F / low time] (0 when none). */
    double interval_flops_per_s[2];
} rl_prediction;

/* A profile's held-out error band (MODEL.md "The prediction as an interval"): the signed errors
 * (predicted − measured) / measured of the published points no constant was fitted on
 * (`rooflab check-model --bands`), 10th and 90th percentile (type 7); a measured time then lies
 * in predicted × [1/(1 + p90), 1/(1 + p10)] for about 80 % of them. `band` is a profile name or
 * "default" (the prediction without --kernel on production decode points). Returns the band's
 * held-out points (0 when unknown); the factors are set only when there are at least
 * RL_INTERVAL_MIN_POINTS, else 0. */
#define RL_INTERVAL_MIN_POINTS 5
int rl_prediction_interval(const char *band, double *low_factor, double *high_factor);

/*
 * Predict one problem's time under a kernel profile on a preset. `roof` is the resolved roof
 * (typed overrides of bandwidth or peak apply); L2 bandwidth, SMs, clock and the exp rate come
 * from `hw`. Errors (exit 2 on the CLI) name "kernel" for a profile that cannot run the problem
 * (fa3 off Hopper, a kernel that does not exist in that dtype — fa2 fp8/fp32/tf32, fa3 fp32/tf32,
 * fa3 fp8 backward —, flashinfer or flash-decoding with N > 16 or backward, a head dim the
 * profile has no tile for) and "hw" for a figure the preset lacks.
 */
rl_status rl_predict(const rl_problem *problem, const rl_hw *hw, rl_roof roof,
                     const rl_kernel_spec *spec, rl_prediction *out, rl_error *err);

/* Tile search for the generic profile: every Br, Bc in {16, 32, 64, 128, 256} (and for decode
 * every split count 1 … 128) that fits the preset's opt-in shared memory per block, ranked by
 * predicted time. Writes at most `cap` candidates, best first; returns how many were feasible. */
typedef struct rl_tile_candidate {
    int64_t block_m, block_n, splits, ctas_per_sm;
    double sram_bytes;
    int fits;                 /* 0: over the opt-in shared memory (time 0) */
    int loses_on;             /* the rl_term costing it most against the best; -1 for the best
                                 and for ties */
    rl_prediction prediction;
} rl_tile_candidate;
size_t rl_tune(const rl_problem *problem, const rl_hw *hw, rl_roof roof, rl_tile_candidate *out,
               size_t cap);

/* ----------------------------------------------------------------------------------------------
 * One evaluation: problem + roof → everything the CLI and the page show
 * -------------------------------------------------------------------------------------------- */

typedef struct rl_report {
    rl_workload work;
    rl_roof roof;
    double ridge_flop_per_byte;
    rl_point points[RL_MODEL_COUNT]; /* zeroed where traffic[m].available == 0 */
    rl_sram sram;
    /* Memory levels (MODEL.md "Memory levels"): known when the preset has SMs, L2 size and L2
     * bandwidth. Each traffic model's bytes per level, and a roofline point per level at that
     * level's roof (DRAM: the roof's bandwidth; L2: the preset's L2 bandwidth), as Nsight
     * Compute's hierarchical roofline draws them. */
    int levels_known;
    double l2_bandwidth_bytes_per_s;
    /* Compute-side roofs beyond the MMA peak (0 when the preset has no exp rate): the
     * throughput if the exponentials alone limited it, F / (B·H·P / exp rate) = 4·d·exp rate
     * forward, and the MMA and the exp serialised, 1 / (1/π + 1/exp roof). */
    double exp_roof_flops_per_s;
    double mma_exp_roof_flops_per_s;
    rl_level_traffic levels[RL_MODEL_COUNT];
    rl_point level_points[RL_MODEL_COUNT][RL_LEVEL_COUNT];
} rl_report;

/* `hw` is used for the SRAM limits and may be NULL. The roof is taken as given (callers pick a
 * preset's bandwidth and rl_hw_peak_for_dtype, or the user's override). */
rl_status rl_report_compute(const rl_problem *problem, const rl_hw *hw, rl_roof roof,
                            rl_report *out, rl_error *err);

/* ----------------------------------------------------------------------------------------------
 * Report outputs: every value of a report and its prediction, described once (issue 19). The
 * table drives `rooflab eval --json` (nested on the dots: "models.tiled.bytes" is
 * {"models": {"tiled": {"bytes": …}}}; a segment of digits is an array index), the binding's
 * report slots (rlw_report_name(i) is the name) and the page's test ids ('.' → '-'). Entries 0 …
 * RL_PROBLEM_FIELD_COUNT − 1 are "problem.KEY", one per field of RL_PROBLEM_FIELDS.
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_OUT_NUMBER = 0, /* a double in `unit` */
    RL_OUT_INT,        /* a whole number */
    RL_OUT_BOOL,       /* 0 / 1: JSON true / false */
    RL_OUT_NAME,       /* an enum: the number is its code, the text its name ("memory", "fp16") */
    RL_OUT_TEXT,       /* text only (the number is 0) */
    RL_OUT_LENS        /* the problem's --kv-lens: the number is its pair count; JSON writes the
                          list as [[length, count], ...] from the problem (rl_kv_lens) */
} rl_output_kind;

typedef struct rl_output_info {
    const char *name; /* dotted JSON path: "models.tiled.bytes", "predicted.terms.mma" */
    rl_dim unit;      /* RL_DIM_NONE for counts, ratios, codes and text */
    rl_output_kind kind;
} rl_output_info;

/* What one evaluation produced: the report, the prediction (NULL when the profile cannot predict
 * the problem on the preset) and the preset (may be NULL). */
typedef struct rl_output_view {
    const rl_report *report;
    const rl_prediction *prediction;
    const rl_hw *hw;
} rl_output_view;

/* Whether an output has a value in one evaluation. Where it has none, the first `depth`
 * segments of its name stand for null (RL_OUTV_NULL: "models.naive" of a backward pass,
 * "predicted" with no prediction, "predicted.interval_s" under too few points) or are left out
 * (RL_OUTV_OMIT: "roofs" and "models.M.levels" without memory-level figures). */
typedef enum { RL_OUTV_VALUE = 0, RL_OUTV_NULL, RL_OUTV_OMIT } rl_output_state;

typedef struct rl_output_value {
    rl_output_state state;
    int depth;        /* RL_OUTV_NULL / RL_OUTV_OMIT: the segments of the name that stand for it */
    double number;    /* NaN where a value is unknown (JSON null) */
    const char *text; /* RL_OUT_NAME and RL_OUT_TEXT: static text; NULL otherwise */
} rl_output_value;

size_t rl_output_count(void);
/* The description of output i; NULL past the end. */
const rl_output_info *rl_output_info_at(size_t i);
/* An output by its dotted name; -1 when none. */
int rl_output_find(const char *name);
/* Output i of one evaluation. */
rl_output_value rl_output_get(size_t i, const rl_output_view *view);
/* Every output's number at once, in table order: out[i] is rl_output_get(i, view).number where
 * its state is RL_OUTV_VALUE, NaN otherwise (the binding's report slots). Conditions are decided
 * once per group, not per entry. rl_output_count(), or 0 when `cap` is smaller or an argument is
 * NULL (nothing written). */
size_t rl_output_fill(const rl_output_view *view, double *out, size_t cap);

/* The rows of "sequences" (one per length of a ragged batch, one without --kv-lens): the columns
 * of rl_seq_work described once ("kv_len", "count", "pairs", …), read like the outputs above. */
size_t rl_seq_output_count(void);
const rl_output_info *rl_seq_output_info_at(size_t col);
double rl_seq_output_get(size_t col, const rl_seq_work *row);

/* ----------------------------------------------------------------------------------------------
 * Sweeps
 * -------------------------------------------------------------------------------------------- */

typedef enum {
    RL_SWEEP_SEQ = 0, /* N (and L when kv_len is 0 = tied to N, i.e. prefill) */
    RL_SWEEP_KV_LEN,  /* L (decode context) */
    RL_SWEEP_BATCH,
    RL_SWEEP_HEADS,   /* H (kv_heads follows when it is 0 = tied) */
    RL_SWEEP_HEAD_DIM,
    RL_SWEEP_BLOCK_M,
    RL_SWEEP_BLOCK_N,
    RL_SWEEP_PARAM_COUNT
} rl_sweep_param;

const char *rl_sweep_param_name(rl_sweep_param param); /* the CLI flag / URL key: "seq" ... */
rl_status rl_sweep_param_parse(const char *text, rl_sweep_param *out, rl_error *err);

/* `count` integer values from lo to hi inclusive, log-spaced (log != 0) or linear, rounded to
 * integers, duplicates removed. Returns how many were written (≤ count); 0 on bad input. */
size_t rl_sweep_values(int64_t lo, int64_t hi, size_t count, int log, int64_t *out);

typedef struct rl_sweep_row {
    int64_t x;                               /* the swept parameter's value */
    double flops;
    double bytes[RL_MODEL_COUNT];            /* 0 where not available */
    double intensity_flop_per_byte[RL_MODEL_COUNT];
    double attainable_flops_per_s[RL_MODEL_COUNT];
    double time_s[RL_MODEL_COUNT];
    rl_bound bound[RL_MODEL_COUNT];
    double predicted_time_s;                 /* rl_sweep_predicted: 0 where not predictable */
    double predicted_flops_per_s;
} rl_sweep_row;

/* Evaluate `base` with `param` set to each of values[0..n) into rows[0..n). Stops at the first
 * invalid problem with its error (rows before it are filled); returns RL_OK when all are valid. */
rl_status rl_sweep(const rl_problem *base, rl_sweep_param param, const int64_t *values, size_t n,
                   rl_roof roof, rl_sweep_row *rows, rl_error *err);
/* The same, with each row's predicted time under `spec` on `hw` (0 in a row the profile cannot
 * predict: the sweep itself never fails for that). */
rl_status rl_sweep_predicted(const rl_problem *base, rl_sweep_param param, const int64_t *values,
                             size_t n, rl_roof roof, const rl_hw *hw, const rl_kernel_spec *spec,
                             rl_sweep_row *rows, rl_error *err);

/* ----------------------------------------------------------------------------------------------
 * The layer: attention among the other operators of a decoder layer, and the step (MODEL.md
 * "The layer")
 *
 * Every operator is a kernel of its own that reads its inputs from device memory and writes its
 * output back (no fusion), with FLOPs, bytes (weights, activations in and out, K/V cache) and a
 * bound time max(executed FLOPs / π, bytes / β) on the roof the caller resolved for the
 * activation dtype; element-wise operators run against the preset's fp32 CUDA-core peak. GEMMs
 * execute whole CUTLASS tensor-op threadblock tiles (128 × 256 × 64, the Sm80 default). Attention
 * is today's model unchanged (rl_workload_compute, compulsory bytes; rl_predict for its predicted
 * time). Tensor parallelism divides heads, the intermediate sizes and the vocabulary Megatron-style;
 * the all-reduces it needs are counted in bytes, never timed.
 * -------------------------------------------------------------------------------------------- */

typedef enum { RL_PHASE_DECODE = 0, RL_PHASE_PREFILL } rl_phase;
const char *rl_phase_name(rl_phase phase); /* "decode", "prefill" */
rl_status rl_phase_parse(const char *text, const char *field, rl_phase *out, rl_error *err);

/* The weights' storage type, apart from the activations': fp4 is MXFP4 (OCP Microscaling v1.0:
 * 32 four-bit elements share one 8-bit scale, 4.25 bits per weight). */
typedef enum {
    RL_WDTYPE_DEFAULT = 0, /* the activation dtype */
    RL_WDTYPE_FP32,
    RL_WDTYPE_FP16,
    RL_WDTYPE_BF16,
    RL_WDTYPE_FP8,
    RL_WDTYPE_FP4,
    RL_WDTYPE_COUNT
} rl_weight_dtype;
const char *rl_weight_dtype_name(rl_weight_dtype w); /* "fp32" ... "fp4"; "default" */
double rl_weight_dtype_bytes(rl_weight_dtype w);     /* 4, 2, 2, 1, 0.53125; 0 for DEFAULT */
rl_status rl_weight_dtype_parse(const char *text, const char *field, rl_weight_dtype *out,
                                rl_error *err);

/* Expected distinct experts a batch touches: T tokens each routed to k of E experts uniformly,
 * E·(1 − (1 − k/E)^T): k when T = 1, → E as T grows. 0 when E or k is 0. */
double rl_moe_experts_touched(int64_t experts, int64_t active, double tokens);

typedef struct rl_layer_request {
    const rl_model_shape *model; /* a supported shape (rl_model_shape_lookup) */
    rl_phase phase;
    int64_t batch;   /* B sequences (0 = 1) */
    int64_t seq;     /* prefill: N new tokens per sequence (0 = 4096); decode: 0 or 1 */
    int64_t kv_len;  /* decode: L cached keys (0 = 4096); prefill: keys (0 = N; ≥ N) */
    int64_t tp;      /* tensor-parallel ranks (0 = 1) */
    rl_dtype dtype;  /* activations (0 = bf16) */
    rl_dtype kv_dtype;            /* K/V cache (0 = dtype) */
    rl_weight_dtype weight_dtype; /* the blocks' linear layers (0 = dtype) */
} rl_layer_request;

typedef enum {
    RL_OP_GEMM = 0,   /* weights × activations on the tensor cores */
    RL_OP_ATTENTION,  /* today's attention model */
    RL_OP_ELEMENTWISE,/* norms, RoPE, activation, residual add, copies */
    RL_OP_GATHER      /* the embedding lookup */
} rl_op_kind;
const char *rl_op_kind_name(rl_op_kind kind); /* "gemm", "attention", "elementwise", "gather" */

#define RL_LAYER_OP_NAME_MAX 32
#define RL_LAYER_OPS_MAX 40

typedef struct rl_layer_op {
    char name[RL_LAYER_OP_NAME_MAX]; /* "qkv_proj", "attention", "mlp_down", "lm_head" ... */
    rl_op_kind kind;
    int per_step;            /* 1: once per step (embedding, final norm, LM head); 0: per layer */
    int64_t count;           /* instances per step (layers that have it, or 1) */
    int64_t gemm_m, gemm_n, gemm_k; /* a GEMM's M (tokens) × N (outputs) × K (inputs) per rank */
    double flops;            /* useful FLOPs of one instance */
    double tile_flops;       /* FLOPs the tensor cores execute (whole tiles); = flops otherwise */
    double weight_bytes;     /* weights read */
    double act_in_bytes;     /* activations read */
    double act_out_bytes;    /* activations written */
    double kv_bytes;         /* K/V cache read (attention) */
    double bytes;            /* the sum of the four */
    double intensity_flop_per_byte; /* flops / bytes */
    double peak_flops_per_s; /* the ceiling it runs against */
    double memory_time_s;    /* bytes / β */
    double compute_time_s;   /* tile_flops / peak */
    double time_s;           /* the larger */
    rl_bound bound;
    double step_time_s;      /* count × time_s */
    double share;            /* step_time_s / the step's time */
} rl_layer_op;

typedef struct rl_layer_step {
    rl_layer_request request;   /* resolved: defaults filled in */
    rl_roof roof;
    double elementwise_peak_flops_per_s;
    int64_t tokens;             /* T: tokens through each layer (decode B, prefill B·N) */
    int64_t heads, kv_heads;    /* per rank */
    size_t op_count;
    rl_layer_op ops[RL_LAYER_OPS_MAX];
    double time_s;              /* Σ ops' step_time_s */
    double layer_time_s;        /* mean time of one layer: Σ per-layer ops' step time / layers */
    double attention_time_s;    /* attention operators, per step */
    double attention_share;
    double weights_time_s;      /* operators that read weight matrices (GEMMs, embedding) */
    double weights_share;
    double flops, bytes;        /* per step */
    double weight_bytes, kv_bytes, activation_bytes; /* per step */
    double experts_touched;     /* MoE: expected distinct experts per layer; 0 dense */
    double allreduce_bytes;     /* tp > 1: bytes one rank's all-reduces carry per step (two per
                                   layer of T·h activations, and the embedding's); not timed */
    double attention_predicted_time_s; /* rl_predict (generic profile) of one global-attention
                                          layer; 0 when the profile cannot predict it */
    char note[RL_ERROR_MESSAGE_MAX]; /* what the step leaves out here (gpt-oss's sink logit,
                                        Llama 4's weightless Q/K norm); "" when nothing */
} rl_layer_step;

/* The step of `req` on a roof resolved for req->dtype (`hw` may be NULL: element-wise operators
 * then run against roof's peak, and there is no predicted attention time). Errors name the CLI
 * flag: "model" (missing, unsupported or without a layer shape), "batch", "seq", "kv-len", "tp"
 * (must divide the heads, KV heads or their multiple, the intermediate sizes), "dtype". */
rl_status rl_layer_step_compute(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                rl_layer_step *out, rl_error *err);

/* The context where attention's time passes the weights': decode varies L (B fixed), prefill
 * varies N with the keys tied to it (L = N). Bisection on the integer, 1 … RL_MAX_DIM. */
typedef struct rl_layer_crossover {
    int found;                /* 0: attention stays below the weights up to RL_MAX_DIM */
    int at_minimum;           /* 1: attention already passes the weights at 1 */
    int64_t value;            /* the smallest L (decode) or N (prefill) where it passes */
    const char *varied;       /* "kv-len" or "seq" */
} rl_layer_crossover;
rl_status rl_layer_crossover_find(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                  rl_layer_crossover *out, rl_error *err);

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_H */
