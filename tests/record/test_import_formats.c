#define _POSIX_C_SOURCE 200809L
/* test_import_formats.c — importers against what the tools really write (issue 10): format
 * recognition (rl_import_detect), ncu --csv variants, Google Benchmark JSON variants. Expected
 * values are computed by hand in the comments, never by the code under test.
 * Usage: test_import_formats EXAMPLES_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rooflab/record.h"

static const char *examples_dir;

/* The format rl_import_detect gives `text`, or -1 with its message in `msg`. */
static int detect(const char *text, char *msg, size_t cap) {
    rl_import_format f = RL_IMPORT_FORMAT_COUNT;
    rl_error err = {0};
    if (rl_import_detect(text, strlen(text), &f, &err) != RL_OK) {
        snprintf(msg, cap, "%s", err.message);
        return -1;
    }
    msg[0] = '\0';
    return (int)f;
}

static int detect_file(const char *name) {
    char path[1200];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", examples_dir, name);
    char *text = check_slurp(path, &len);
    rl_import_format f = RL_IMPORT_FORMAT_COUNT;
    int rc = text && rl_import_detect(text, len, &f, NULL) == RL_OK ? (int)f : -1;
    free(text);
    return rc;
}

static void formats_are_recognised(void) {
    char msg[RL_ERROR_MESSAGE_MAX];
    /* the shipped samples, one per format */
    CHECK(detect_file("ncu-raw-flash-fwd-h100.csv") == RL_IMPORT_NCU_CSV);
    CHECK(detect_file("gbench-flash-attn-h100.json") == RL_IMPORT_GBENCH);
    CHECK(detect_file("ert-roofline-v100.json") == RL_IMPORT_ERT);
    CHECK(detect_file("ert-roofline-v100.record.json") == RL_IMPORT_RECORD);
    CHECK(detect_file("cpu-bench-quick.json") == RL_IMPORT_RECORD);

    /* ncu: log lines and a BOM before the header; the long (details) format */
    CHECK(detect("\xEF\xBB\xBF==PROF== Connected to process 4242 (/bin/app)\r\n"
                 "==WARNING== Found outstanding GPU clock reset\n\n"
                 "\"ID\",\"Process ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n",
                 msg, sizeof msg) == RL_IMPORT_NCU_CSV);
    CHECK(detect("\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                 "\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
                 "\"Metric Value\"\n\"0\",\"1\",\"a\",\"h\",\"k\",\"1\",\"7\",\"GPU Speed Of "
                 "Light Throughput\",\"Duration\",\"usecond\",\"12.38\"\n",
                 msg, sizeof msg) == RL_IMPORT_NCU_CSV);
    /* JSON: by the top-level keys only (a key nested deeper does not count) */
    CHECK(detect("{\"context\":{\"date\":\"x\"},\"benchmarks\":[]}", msg, sizeof msg) ==
          RL_IMPORT_GBENCH);
    CHECK(detect(" \n{\"benchmarks\":[{\"name\":\"BM_x/1\"}]}", msg, sizeof msg) == RL_IMPORT_GBENCH);
    CHECK(detect("{\"empirical\":{\"gbytes\":{\"data\":[]}}}", msg, sizeof msg) == RL_IMPORT_ERT);
    CHECK(detect("{\"schema\" : \"rooflab-record\",\"points\":[]}", msg, sizeof msg) ==
          RL_IMPORT_RECORD);
    /* a truncated Google Benchmark file is still Google Benchmark (the importer names the end) */
    CHECK(detect("{\"context\":{},\"benchmarks\":[{\"name\":\"BM_x/1\",\"real_ti", msg,
                 sizeof msg) == RL_IMPORT_GBENCH);
    /* "benchmarks" inside a string or a nested object is not a top-level key */
    CHECK(detect("{\"a\":{\"benchmarks\":[]},\"b\":\"\\\"benchmarks\\\":\"}", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "got a JSON object with keys \"a\", \"b\"");
    /* a record's schema must say rooflab-record */
    CHECK(detect("{\"schema\":\"other\"}", msg, sizeof msg) < 0);

    /* unrecognised input: the message names every signature looked for and what was got */
    CHECK(detect("[1,2]", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "file: not a format rooflab reads; expected CSV of ncu (\"Kernel "
                            "Name\"), nsys (\"Instances\") or perf_report, or JSON with "
                            "\"benchmarks\", \"empirical\", \"traceEvents\" or \"schema\"; got "
                            "a JSON array");
    CHECK(detect("", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "got an empty file");
    CHECK(detect("==PROF== Disconnected\n", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "got an empty file");
    CHECK(detect("name,time\nBM_x,5\n", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "got text starting \"name,time\"");
    CHECK(detect("\x01\x02garbage", msg, sizeof msg) < 0);
    CHECK_STR_CONTAINS(msg, "got text starting \"\\x01\\x02garbage\"");
    rl_import_format f;
    rl_error err = {0};
    CHECK(rl_import_detect(NULL, 0, &f, &err) == RL_ERR_UNKNOWN && strcmp(err.field, "file") == 0);

    /* "record" is a detected format, not one named on a command line; importing it parses it */
    CHECK(strcmp(rl_import_format_name(RL_IMPORT_RECORD), "record") == 0);
    CHECK(rl_import_format_parse("record", &f, NULL) != RL_OK);
    char path[1200];
    size_t len;
    snprintf(path, sizeof path, "%s/cpu-bench-quick.json", examples_dir);
    char *text = check_slurp(path, &len);
    rl_record *r = NULL;
    CHECK(text && rl_record_import(RL_IMPORT_RECORD, text, len, NULL, &r, NULL) == RL_OK && r);
    rl_record_free(r);
    free(text);
}

/* ---- ncu --csv --page raw ------------------------------------------------------------------ */

static const char *first_error(const rl_rec_issues *is) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == RL_REC_ERROR) return is->items[i].message;
    return "";
}

/* B=1, H=8, N=4096, d=64: the problem every ncu case is imported with. */
static rl_import_opts ncu_opts(void) {
    rl_import_opts o = {0};
    o.problem.batch = 1;
    o.problem.heads = 8;
    o.problem.seq = 4096;
    o.problem.head_dim = 64;
    return o;
}

static rl_status ncu(const char *text, rl_record **r, rl_rec_issues *is) {
    rl_import_opts o = ncu_opts();
    rl_rec_issues_clear(is);
    rl_record_free(*r);
    *r = NULL;
    return rl_record_import(RL_IMPORT_NCU_CSV, text, strlen(text), &o, r, is);
}

#define NCU_L2_HEAD                                                                                \
    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"lts__t_bytes.sum\","  \
    "\"sm__ops_path_tensor_src_fp16_dst_fp32.sum\","                                              \
    "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"

static void ncu_dram_sum_and_l2(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* Three launches of "attn" between log lines, a units row, thousands separators:
     *   time 1,000.5 / 998.0 / 1,010.25 usecond → median 1000.5 us, min 998, max 1010.25
     *   dram__bytes.sum 400 / 402 / 398 Mbyte → median 400e6 B
     *   lts__t_bytes.sum 1.2 / 1.3 / 1.1 Gbyte → median 1.2e9 B
     *   FLOPs 1,000,000,000 tensor + 2 × 500 ffma = 1,000,001,000 */
    const char *csv =
        "==PROF== Connected to process 7 (/usr/bin/python3)\n"
        "==WARNING== Note: Running with uncontrolled GPU clocks.\n" NCU_L2_HEAD
        "\"\",\"\",\"usecond\",\"Mbyte\",\"Gbyte\",\"\",\"inst\"\n"
        "\"0\",\"attn\",\"1,000.5\",\"400\",\"1.2\",\"1,000,000,000\",\"500\"\n"
        "\"1\",\"attn\",\"998.0\",\"402\",\"1.3\",\"1,000,000,000\",\"500\"\n"
        "==PROF== Disconnected from process 7\n"
        "\"2\",\"attn\",\"1,010.25\",\"398\",\"1.1\",\"1,000,000,000\",\"500\"\n";
    CHECK(ncu(csv, &r, &is) == RL_OK);
    if (r && r->point_count == 1) {
        const rl_rec_point *p = &r->points[0];
        CHECK_CLOSE(p->time_median_s, 1000.5e-6, 1e-12);
        CHECK_CLOSE(p->time_min_s, 998.0e-6, 1e-12);
        CHECK_CLOSE(p->time_max_s, 1010.25e-6, 1e-12);
        CHECK(p->runs == 3);
        /* mean 3008.75 / 3 = 1002.9167 us; sample stddev √(83.7917 / 2) = 6.4727 us */
        CHECK_CLOSE(p->time_mean_s, 1002.916667e-6, 1e-8);
        CHECK_CLOSE(p->time_stddev_s, 6.472699e-6, 1e-6);
        /* cv = 6.472699 / 1002.916667 = 0.00645387 */
        CHECK_CLOSE(p->derived.time_cv, 0.00645387, 1e-5);
        CHECK_CLOSE(p->measured_bytes, 400e6, 1e-12);
        CHECK_CLOSE(p->measured_l2_bytes, 1.2e9, 1e-12);
        CHECK_CLOSE(p->flops, 1000001000.0, 0);
        /* per-level intensity: 1,000,001,000 / 400e6 = 2.5000025; / 1.2e9 = 0.83333417 */
        CHECK_CLOSE(p->derived.intensity_flop_per_byte, 2.5000025, 1e-12);
        CHECK_CLOSE(p->derived.l2_intensity_flop_per_byte, 1000001000.0 / 1.2e9, 1e-12);
        CHECK_STR_CONTAINS(r->provenance.notes, "Bytes (counter-measured DRAM): dram__bytes.sum. "
                                                "L2 bytes: lts__t_bytes.sum. FLOPs: 2 × "
                                                "sm__sass_thread_inst_executed_op_ffma_pred_on.sum + "
                                                "sm__ops_path_tensor_src_fp16_dst_fp32.sum (tensor-"
                                                "pipe ops taken as FLOPs)");
        /* the L2 bytes survive the writer and the reader */
        rl_error err = {0};
        char *json = rl_record_write_json(r, 1, &err);
        CHECK_STR_CONTAINS(json, "\"measured_l2_bytes\":\t1200000000");
        CHECK_STR_CONTAINS(json, "\"l2_intensity_flop_per_byte\":");
        rl_record *back = NULL;
        CHECK(json && rl_record_parse(json, strlen(json), &back, NULL) == RL_OK && back &&
              back->points[0].measured_l2_bytes == 1.2e9);
        rl_record_free(back);
        free(json);
    } else {
        CHECK(!"one point expected");
        fprintf(stderr, "  first error: %s\n", first_error(&is));
    }

    /* the read + write pair without L2: no L2 bytes, and the notes say so */
    const char *pair = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
                       "\"dram__bytes_write.sum\",\"sm__sass_thread_inst_executed_op_hfma_pred_on.sum\"\n"
                       "\"\",\"\",\"msecond\",\"Kbyte\",\"Kbyte\",\"Minst\"\n"
                       "\"0\",\"k\",\"2\",\"1,500\",\"500\",\"4\"\n";
    /* 2 ms; 1,500 + 500 Kbyte = 2e6 B; 2 × 4 Minst hfma = 8e6 FLOP */
    CHECK(ncu(pair, &r, &is) == RL_OK);
    if (r) {
        CHECK_CLOSE(r->points[0].time_median_s, 2e-3, 1e-12);
        CHECK_CLOSE(r->points[0].measured_bytes, 2e6, 1e-12);
        CHECK(r->points[0].measured_l2_bytes == 0 && r->points[0].derived.l2_intensity_flop_per_byte == 0);
        CHECK_CLOSE(r->points[0].flops, 8e6, 1e-12);
        CHECK_STR_CONTAINS(r->provenance.notes, "dram__bytes_read.sum + dram__bytes_write.sum. No L2 "
                                                "bytes (lts__t_bytes.sum not collected)");
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

#define DETAILS_HEAD                                                                               \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\"," \
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","              \
    "\"Metric Unit\",\"Metric Value\"\n"
#define DETAILS_ROW(id, section, metric, unit, value)                                              \
    "\"" id "\",\"4242\",\"python3\",\"h\",\"k\",\"1\",\"7\",\"(128, 1, 1)\",\"(64, 1, 1)\",\"0\","    \
    "\"9.0\",\"" section "\",\"" metric "\",\"" unit "\",\"" value "\"\n"
#define CLP "Command line profiler metrics"

/* ncu's details page (`ncu --csv --metrics ...` without --page raw): one row per metric, each
 * value in its own unit. Three launches of "k":
 *   time 1,571.20 usecond, 1.5652 msecond, 1,580.38 usecond → median 1571.2 us, min 1565.2,
 *     max 1580.38
 *   DRAM 312.48 + 67.24 Mbyte, 0.31197 Gbyte + 67,240 Kbyte, 313.02 + 67.24 Mbyte
 *     → 379.72, 379.21, 380.26 MB → median 379.72e6 B
 *   ffma 1,000 inst, 1 Kinst, 1,000 inst → 2 × 1000 = 2000 FLOP
 * The section's own metrics (Duration, Memory Throughput %) are not read. */
static void ncu_details_page(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    const char *csv =
        "==PROF== Connected to process 4242\n" DETAILS_HEAD
        DETAILS_ROW("0", "GPU Speed Of Light Throughput", "Duration", "usecond", "1.57")
        DETAILS_ROW("0", "GPU Speed Of Light Throughput", "Memory Throughput", "%", "50")
        DETAILS_ROW("0", CLP, "dram__bytes_read.sum", "Mbyte", "312.48")
        DETAILS_ROW("0", CLP, "dram__bytes_write.sum", "Mbyte", "67.24")
        DETAILS_ROW("0", CLP, "gpu__time_duration.sum", "usecond", "1,571.20")
        DETAILS_ROW("0", CLP, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000")
        DETAILS_ROW("1", CLP, "dram__bytes_read.sum", "Gbyte", "0.31197")
        DETAILS_ROW("1", CLP, "dram__bytes_write.sum", "Kbyte", "67,240")
        DETAILS_ROW("1", CLP, "gpu__time_duration.sum", "msecond", "1.5652")
        DETAILS_ROW("1", CLP, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "Kinst", "1")
        DETAILS_ROW("2", CLP, "dram__bytes_read.sum", "Mbyte", "313.02")
        DETAILS_ROW("2", CLP, "dram__bytes_write.sum", "Mbyte", "67.24")
        DETAILS_ROW("2", CLP, "gpu__time_duration.sum", "usecond", "1,580.38")
        DETAILS_ROW("2", CLP, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000");
    CHECK(ncu(csv, &r, &is) == RL_OK);
    if (r && r->point_count == 1) {
        const rl_rec_point *p = &r->points[0];
        CHECK_CLOSE(p->time_median_s, 1571.2e-6, 1e-12);
        CHECK_CLOSE(p->time_min_s, 1565.2e-6, 1e-12);
        CHECK_CLOSE(p->time_max_s, 1580.38e-6, 1e-12);
        CHECK(p->runs == 3);
        CHECK_CLOSE(p->measured_bytes, 379.72e6, 1e-12);
        CHECK_CLOSE(p->flops, 2000, 1e-12);
        CHECK_STR_CONTAINS(r->provenance.notes, "Read from ncu's details page (one row per metric)");
    } else {
        CHECK(!"one point expected");
        fprintf(stderr, "  first error: %s\n", first_error(&is));
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void ncu_malformed(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* the details page without the metrics the import reads (only its sections' own) */
    CHECK(ncu(DETAILS_HEAD DETAILS_ROW("0", "GPU Speed Of Light Throughput", "Duration", "usecond",
                                       "12.38"), &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "ncu's details page without any metric the import reads; "
                                         "rerun ncu with the --metrics of rooflab import --help");
    /* a value refused at its own row of the details page */
    CHECK(ncu(DETAILS_HEAD DETAILS_ROW("0", "Command line profiler metrics", "gpu__time_duration.sum",
                                       "usecond", "1,571.20")
              DETAILS_ROW("0", "Command line profiler metrics", "dram__bytes_read.sum",
                          "byte/second", "312.48"), &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 3, column Metric Value (dram__bytes_read.sum): unknown "
                                         "unit \"byte/second\" in Metric Unit (a rate, not an amount)");
    CHECK(ncu(DETAILS_HEAD DETAILS_ROW("0", "Command line profiler metrics", "gpu__time_duration.sum",
                                       "usecond", "1.571,20"), &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 2, column Metric Value (gpu__time_duration.sum): got "
                                         "\"1.571,20\": a decimal comma");
    /* no DRAM bytes in either form */
    CHECK(ncu("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
              "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n\"0\",\"k\",\"5\",\"1\",\"1\"\n",
              &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 1, column dram__bytes_write.sum: missing; expected "
                                         "dram__bytes.sum, or dram__bytes_read.sum and "
                                         "dram__bytes_write.sum, in the header");
    /* a rate where an amount belongs */
    CHECK(ncu(NCU_L2_HEAD "\"\",\"\",\"usecond\",\"Mbyte\",\"byte/second\",\"\",\"inst\"\n"
                          "\"0\",\"attn\",\"1\",\"1\",\"1\",\"1\",\"1\"\n", &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 2, column lts__t_bytes.sum: unknown unit "
                                         "\"byte/second\" (a rate, not an amount)");
    /* a row cut short, and a file cut inside a quoted cell */
    CHECK(ncu(NCU_L2_HEAD "\"0\",\"attn\",\"1\",\"1\",\"1\"\n", &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 2: expected 7 columns like the header, got 5");
    CHECK(ncu(NCU_L2_HEAD "\"0\",\"attn\",\"1\",\"1\",\"1\",\"1\",\"1\"\n\"1\",\"at", &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 3: unterminated quoted cell");
    /* a bad number names its row and column */
    CHECK(ncu(NCU_L2_HEAD "\"0\",\"attn\",\"1\",\"1\",\"1.2.3\",\"1\",\"1\"\n", &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 2, column lts__t_bytes.sum: ");
    /* the problem is required: the flags missing are named */
    rl_import_opts o = {0};
    o.problem.seq = 4096;
    const char *ok = NCU_L2_HEAD "\"0\",\"attn\",\"1\",\"1\",\"1\",\"1\",\"1\"\n";
    rl_rec_issues_clear(&is);
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, ok, strlen(ok), &o, &r, &is) == RL_ERR_INVALID && !r);
    CHECK_STR_CONTAINS(first_error(&is), "problem: the ncu export does not say which problem the "
                                         "kernel ran; give --batch, --heads, --seq, --head-dim "
                                         "(missing: --batch, --heads, --head-dim)");
    /* ... and a default typed on purpose counts as given */
    o.problem_given = 1u << RL_FIELD_BATCH | 1u << RL_FIELD_HEADS | 1u << RL_FIELD_HEAD_DIM;
    rl_rec_issues_clear(&is);
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, ok, strlen(ok), &o, &r, &is) == RL_OK && r);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* The printed ncu command collects what the import reads: a CSV with exactly its metrics (and
 * ncu's own ID and Kernel Name columns) imports. */
static void ncu_command_matches_the_import(void) {
    const char *cmd = rl_import_ncu_command();
    const char *m = strstr(cmd, "--metrics ");
    CHECK(m && strstr(cmd, "--page raw") && strstr(cmd, "--csv"));
    if (!m) return;
    m += strlen("--metrics ");
    char head[4096] = "\"ID\",\"Kernel Name\"", row[4096] = "\"0\",\"k\"";
    size_t ncols = 0;
    while (*m && *m != ' ') {
        size_t n = strcspn(m, ", ");
        size_t h = strlen(head), r = strlen(row);
        snprintf(head + h, sizeof head - h, ",\"%.*s\"", (int)n, m);
        /* 7 in every numeric cell (no units row: ns, bytes, counts); the device name as text */
        snprintf(row + r, sizeof row - r, ",\"%s\"",
                 strncmp(m, "device__attribute_display_name", n) == 0 ? "NVIDIA H100" : "7");
        ncols++;
        m += n;
        if (*m == ',') m++;
    }
    CHECK(ncols == 17);
    char csv[8300];
    snprintf(csv, sizeof csv, "%s\n%s\n", head, row);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(ncu(csv, &r, &is) == RL_OK && r);
    if (r) {
        /* 7 ns; 7 + 7 bytes; L2 7 bytes; FLOPs (7 + 7 + 2·7) × 3 precisions + 7 tensor = 91 */
        CHECK_CLOSE(r->points[0].time_median_s, 7e-9, 1e-12);
        CHECK_CLOSE(r->points[0].measured_bytes, 14, 1e-12);
        CHECK_CLOSE(r->points[0].measured_l2_bytes, 7, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 91, 1e-12);
        CHECK(strcmp(r->hardware.name, "NVIDIA H100") == 0);
        CHECK(strcmp(r->hardware.compute_capability, "7.7") == 0);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* ---- Google Benchmark JSON ------------------------------------------------------------------- */

static rl_status gbench(const char *text, const rl_import_opts *o, rl_record **r, rl_rec_issues *is) {
    rl_rec_issues_clear(is);
    rl_record_free(*r);
    *r = NULL;
    return rl_record_import(RL_IMPORT_GBENCH, text, strlen(text), o, r, is);
}

static int has_issue(const rl_rec_issues *is, rl_rec_severity sev, const char *needle) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == sev && strstr(is->items[i].message, needle)) return 1;
    return 0;
}

#define GB_RUN(rep, t, bps, gflops)                                                                \
    "{\"name\":\"BM_FlashAttnBackward/2/8/2/1024/64/manual_time\",\"family_index\":0,"             \
    "\"run_name\":\"BM_FlashAttnBackward/2/8/2/1024/64/manual_time\",\"run_type\":\"iteration\","  \
    "\"repetitions\":3,\"repetition_index\":" rep ",\"threads\":1,\"iterations\":500,"             \
    "\"real_time\":" t ",\"cpu_time\":0.1,\"time_unit\":\"ms\",\"bytes_per_second\":" bps ","     \
    "\"GFLOP/s\":" gflops "}"
#define GB_AGG(agg, t)                                                                             \
    "{\"name\":\"BM_FlashAttnBackward/2/8/2/1024/64/manual_time_" agg "\",\"family_index\":0,"     \
    "\"run_name\":\"BM_FlashAttnBackward/2/8/2/1024/64/manual_time\",\"run_type\":\"aggregate\","  \
    "\"repetitions\":3,\"threads\":1,\"iterations\":3,\"real_time\":" t ",\"cpu_time\":0.1,"       \
    "\"time_unit\":\"ms\",\"bytes_per_second\":5e10,\"GFLOP/s\":100000,\"aggregate_name\":\"" agg  \
    "\"}"

static void gbench_as_written(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* Five arguments named by --args, a Backward family, three repetitions with their mean,
     * median and stddev, bytes_per_second (SetBytesProcessed) and a "GFLOP/s" user counter:
     *   B=2, H=8, Hkv=2, N=1024, d=64, pass bwd
     *   median 2.0 ms (the median aggregate), min 1.9, max 2.2, runs 3 (not 500 iterations)
     *   FLOP rate (100000 + 90000 + 110000) / 3 GFLOP/s = 1e14 FLOP/s × 2.0 ms = 2e11 FLOP
     *   byte rate (5e10 + 4.8e10 + 5.2e10) / 3 = 5e10 B/s × 2.0 ms = 1e8 B */
    const char *json = "{\"context\":{\"date\":\"2026-11-30T10:00:00+00:00\",\"host_name\":\"n1\"},"
                       "\"benchmarks\":[" GB_RUN("0", "2.0", "5e10", "100000") ","
                       GB_RUN("1", "2.2", "4.8e10", "90000") "," GB_RUN("2", "1.9", "5.2e10", "110000")
                       "," GB_AGG("mean", "2.0333") "," GB_AGG("median", "2.0") ","
                       GB_AGG("stddev", "0.15") "]}";
    rl_import_opts o = {0};
    o.gbench_args = "batch,heads,kv_heads,seq,head_dim";
    CHECK(gbench(json, &o, &r, &is) == RL_OK);
    if (r && r->point_count == 1) {
        const rl_rec_point *p = &r->points[0];
        CHECK(p->problem.batch == 2 && p->problem.heads == 8 && p->problem.kv_heads == 2 &&
              p->problem.seq == 1024 && p->problem.head_dim == 64);
        CHECK(p->problem.pass == RL_PASS_BWD);
        CHECK_CLOSE(p->time_median_s, 2.0e-3, 1e-12);
        CHECK_CLOSE(p->time_min_s, 1.9e-3, 1e-12);
        CHECK_CLOSE(p->time_max_s, 2.2e-3, 1e-12);
        CHECK(p->runs == 3);
        /* mean (2.0 + 2.2 + 1.9) / 3 = 2.03333 ms; sample stddev over the repetitions:
         * deviations −0.03333, 0.16667, −0.13333 → squares sum 0.046667 / 2 → √0.023333 =
         * 0.152753 ms (the file's own "stddev" aggregate is the same figure rounded to 0.15) */
        CHECK_CLOSE(p->time_mean_s, 2.0333333e-3, 1e-7);
        CHECK_CLOSE(p->time_stddev_s, 0.1527525e-3, 1e-6);
        CHECK_CLOSE(p->flops, 2e11, 1e-12);
        CHECK_CLOSE(p->modelled_bytes, 1e8, 1e-12);
        CHECK_CLOSE(p->reported_flops_per_s, 1e14, 1e-12);
        CHECK_STR_CONTAINS(r->provenance.notes, "FLOPs: \"GFLOP/s\" × the time it is over. Bytes: "
                                                "\"bytes_per_second\" × the time it is over.");
        CHECK(strstr(r->provenance.notes, "TFLOP/s") == NULL);
        CHECK(strstr(r->provenance.notes, "HBM") == NULL);
    } else {
        CHECK(!"one point expected");
        fprintf(stderr, "  first error: %s\n", first_error(&is));
    }
    /* the default mapping names 4 arguments: 5 is an error naming the benchmark */
    CHECK(gbench(json, NULL, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "benchmarks[0].name: \"BM_FlashAttnBackward/2/8/2/1024/64/"
                                         "manual_time\" has 5 numeric arguments; --args names 4 "
                                         "(batch,seq,heads,head_dim)");
    /* --pass given wins over the family name */
    o.problem.pass = RL_PASS_FWD;
    o.problem_given = 1u << RL_FIELD_PASS;
    CHECK(gbench(json, &o, &r, &is) == RL_OK && r && r->points[0].problem.pass == RL_PASS_FWD);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* Aggregates only (--benchmark_report_aggregates_only), as Google Benchmark writes them: mean,
 * median, stddev and cv per family become the point's timing statistics. */
#define GB_ONLY(agg, t, unit)                                                                      \
    "{\"name\":\"BM_attn_fwd/1/2048/8/64/real_time_" agg "\",\"family_index\":0,"                   \
    "\"run_name\":\"BM_attn_fwd/1/2048/8/64/real_time\",\"run_type\":\"aggregate\","               \
    "\"repetitions\":10,\"threads\":1,\"aggregate_name\":\"" agg "\",\"aggregate_unit\":\"" unit  \
    "\",\"iterations\":10,\"real_time\":" t ",\"cpu_time\":1,\"time_unit\":\"us\"}"
static void gbench_aggregate_spread(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* mean 152 us, median 150 us, cv 0.02 and no stddev: stddev = 0.02 × 152 us = 3.04 us */
    const char *cv = "{\"benchmarks\":[" GB_ONLY("mean", "152", "time") ","
                     GB_ONLY("median", "150", "time") "," GB_ONLY("cv", "0.02", "percentage") "]}";
    CHECK(gbench(cv, NULL, &r, &is) == RL_OK);
    if (r && r->point_count == 1) {
        CHECK_CLOSE(r->points[0].time_median_s, 150e-6, 1e-12);
        CHECK_CLOSE(r->points[0].time_mean_s, 152e-6, 1e-12);
        CHECK_CLOSE(r->points[0].time_stddev_s, 3.04e-6, 1e-12);
        CHECK(r->points[0].runs == 10);
    } else {
        CHECK(!"one point expected");
    }
    /* a stddev aggregate (3 us) is taken as written; a zero stddev is a statistic too */
    const char *sd = "{\"benchmarks\":[" GB_ONLY("mean", "152", "time") ","
                     GB_ONLY("median", "150", "time") "," GB_ONLY("stddev", "3", "time") ","
                     GB_ONLY("cv", "0.5", "percentage") "]}";
    CHECK(gbench(sd, NULL, &r, &is) == RL_OK && r && r->point_count == 1 &&
          fabs(r->points[0].time_stddev_s - 3e-6) < 1e-15);
    const char *zero = "{\"benchmarks\":[" GB_ONLY("median", "150", "time") ","
                       GB_ONLY("stddev", "0", "time") "]}";
    CHECK(gbench(zero, NULL, &r, &is) == RL_OK && r && r->points[0].time_stddev_s == 0);
    /* the statistics survive the writer and the reader */
    CHECK(gbench(cv, NULL, &r, &is) == RL_OK && r);
    rl_error err = {0};
    char *json = r ? rl_record_write_json(r, 1, &err) : NULL;
    CHECK(json && strstr(json, "\"mean_s\"") && strstr(json, "\"stddev_s\""));
    rl_record *back = NULL;
    CHECK(json && rl_record_parse(json, strlen(json), &back, NULL) == RL_OK && back &&
          fabs(back->points[0].time_stddev_s - 3.04e-6) < 1e-15 &&
          fabs(back->points[0].time_mean_s - 152e-6) < 1e-15);
    rl_record_free(back);
    free(json);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void gbench_aggregates_pass_and_counters(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* --benchmark_report_aggregates_only: the median stands for the 5 repetitions.
     * 150 us; 0.5 TFLOP/s × 150 us = 7.5e7 FLOP */
    const char *agg = "{\"benchmarks\":[{\"name\":\"BM_attn_fwd/1/4096/8/64/real_time_median\","
                      "\"run_name\":\"BM_attn_fwd/1/4096/8/64/real_time\",\"run_type\":\"aggregate\","
                      "\"aggregate_name\":\"median\",\"repetitions\":5,\"iterations\":5,"
                      "\"real_time\":150,\"cpu_time\":3,\"time_unit\":\"us\",\"TFLOP/s\":0.5},"
                      "{\"name\":\"BM_attn_fwd/1/4096/8/64/real_time_cv\","
                      "\"run_name\":\"BM_attn_fwd/1/4096/8/64/real_time\",\"run_type\":\"aggregate\","
                      "\"aggregate_name\":\"cv\",\"aggregate_unit\":\"percentage\",\"repetitions\":5,"
                      "\"real_time\":0.01,\"time_unit\":\"us\"}]}";
    CHECK(gbench(agg, NULL, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->point_count == 1 && r->points[0].runs == 5);
        CHECK_CLOSE(r->points[0].time_median_s, 150e-6, 1e-12);
        CHECK(r->points[0].time_min_s == 0 && r->points[0].time_max_s == 0);
        /* a cv without a mean gives no standard deviation (cv × mean needs the mean) */
        CHECK(r->points[0].time_mean_s == 0 && r->points[0].time_stddev_s < 0);
        CHECK(r->points[0].derived.time_cv < 0);
        CHECK_CLOSE(r->points[0].flops, 7.5e7, 1e-12);
        CHECK(r->points[0].problem.pass == RL_PASS_FWD);
    }
    /* no counters: the flops are the model's and the bytes the chosen traffic model's, said so;
     * items_per_second is not taken for FLOPs */
    const char *bare = "{\"benchmarks\":[{\"name\":\"BM_decode_bwd/seq:1/kv_len:8192/heads:32/"
                       "kv_heads:8/head_dim:128\",\"run_type\":\"iteration\",\"iterations\":10,"
                       "\"real_time\":40,\"time_unit\":\"us\",\"items_per_second\":2.5e4}]}";
    rl_import_opts o = {0};
    o.traffic_model = RL_TRAFFIC_COMPULSORY;
    CHECK(gbench(bare, &o, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->points[0].runs == 1 && r->points[0].problem.pass == RL_PASS_BWD);
        CHECK(r->points[0].problem.kv_heads == 8 && r->points[0].problem.kv_len == 8192);
        CHECK(r->points[0].traffic_model == RL_TRAFFIC_COMPULSORY);
        CHECK(r->points[0].modelled_bytes == 0 && r->points[0].measured_bytes == 0);
        CHECK(has_issue(&is, RL_REC_WARNING, "benchmarks: 1 of 1 points have no byte counter "
                                             "(bytes_per_second, or a GB/s counter): their bytes "
                                             "are core's \"compulsory\" traffic model"));
        CHECK(has_issue(&is, RL_REC_WARNING, "1 of 1 points have no FLOP-rate counter"));
        CHECK(has_issue(&is, RL_REC_WARNING, "items_per_second not used"));
        CHECK_STR_CONTAINS(r->provenance.notes, "FLOPs: the model's F (no FLOP-rate counter). "
                                                "Bytes: none counted: core's \"compulsory\" traffic model "
                                                "(each point's traffic_model).");
    }
    /* rates over cpu_time when the benchmark times the CPU: 1e9 FLOP/s × 2 ms = 2e6 FLOP */
    const char *cpu = "{\"benchmarks\":[{\"name\":\"BM_cpu_attn/1/128/1/64\",\"run_type\":"
                      "\"iteration\",\"real_time\":2.5,\"cpu_time\":2,\"time_unit\":\"ms\","
                      "\"FLOP/s\":1e9}]}";
    CHECK(gbench(cpu, NULL, &r, &is) == RL_OK);
    if (r) {
        CHECK_CLOSE(r->points[0].flops, 2e6, 1e-12);
        CHECK_CLOSE(r->points[0].time_median_s, 2.5e-3, 1e-12);
        CHECK(r->points[0].reported_flops_per_s == 0);
        CHECK(has_issue(&is, RL_REC_WARNING, "1 runs report rates over cpu_time"));
    }
    /* word match: "Forwarding" and "Backwardness" are not passes; both passes named is an error */
    CHECK(gbench("{\"benchmarks\":[{\"name\":\"BM_Forwarding_Backwardness/1/128/1/64\",\"real_time\":"
                 "1,\"time_unit\":\"ms\",\"TFLOP/s\":1}]}", NULL, &r, &is) == RL_OK &&
          r && r->points[0].problem.pass == RL_PASS_FWD);
    CHECK(gbench("{\"benchmarks\":[{\"name\":\"BM_attn_fwd_bwd/1/128/1/64\",\"real_time\":1,"
                 "\"time_unit\":\"ms\",\"TFLOP/s\":1}]}", NULL, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "benchmarks[0].name: \"BM_attn_fwd_bwd/1/128/1/64\" names "
                                         "both a forward and a backward pass; give --pass");
    /* a file cut short: where it ends */
    CHECK(gbench("{\"benchmarks\":[{\"name\":\"BM_x/1\",\n\"real_ti", NULL, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "not valid Google Benchmark JSON at line 2, column 9 (the "
                                         "file ends early: "
                                         "cut short?)");
    /* a counter in a unit that is no rate is not read as one */
    CHECK(gbench("{\"benchmarks\":[{\"name\":\"BM_x/1/128/1/64\",\"real_time\":1,\"time_unit\":"
                 "\"ms\",\"TFLOP\":5,\"GB\":3}]}", NULL, &r, &is) == RL_OK);
    if (r) CHECK(r->points[0].modelled_bytes == 0 && r->points[0].reported_flops_per_s == 0);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* A GQA decode point without bytes lands above its roof with the tiled model: the diagnosis names
 * the traffic model before any ×2 slip. B=1, H=32, Hkv=8, N=1, L=8192, d=128, fp16, 11.1 us:
 *   compulsory bytes: Q 32·128·2 = 8192, K+V 2·8·8192·128·2 = 33,554,432, O 8192 = 33,570,816
 *   tiled bytes (K/V per query head): 2·32·8192·128·2 + 8192 + 8192 = 134,234,112
 *   at compulsory: 33,570,816 / (11.1 us × 3.35 TB/s) = 0.9028 → 90 % of the H100 SXM roof;
 *   at tiled ×4 that: above the roof, which the ×4 "two ×2 slips" would wrongly explain. */
static void gbench_gqa_decode_diagnosis(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    rl_import_opts o = {0};
    o.preset = "h100-sxm";
    o.traffic_model = RL_TRAFFIC_TILED; /* as the CLI sets it ({0} is compulsory) */
    const char *dec = "{\"benchmarks\":[{\"name\":\"BM_decode/seq:1/kv_len:8192/heads:32/kv_heads:8/"
                      "head_dim:128/manual_time\",\"run_type\":\"iteration\",\"real_time\":11.1,"
                      "\"time_unit\":\"us\"}]}";
    CHECK(gbench(dec, &o, &r, &is) == RL_OK && r);
    CHECK(has_issue(&is, RL_REC_WARNING, "likely the traffic model: core's \"tiled\" bytes (134.2 MB; "
                                         "the record gives none) vs \"compulsory\" 33.57 MB: 90 % of "
                                         "the roof (GQA: tiled counts K/V per query head)"));
    CHECK(!has_issue(&is, RL_REC_WARNING, "two ×2 slips"));
    /* with the compulsory model chosen, the point sits at 90 % and nothing is flagged */
    o.traffic_model = RL_TRAFFIC_COMPULSORY;
    CHECK(gbench(dec, &o, &r, &is) == RL_OK && r);
    if (r) CHECK_CLOSE(r->points[0].derived.efficiency, 33570816.0 / (11.1e-6 * 3.35e12), 1e-9);
    CHECK(!has_issue(&is, RL_REC_WARNING, "above its own roof"));
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* FA2's kernel traits in a kernel name give head dim, tile, dtype (and bwd); nothing else does. */
static void kernel_name_hints(void) {
    char path[1200], what[200];
    size_t len;
    snprintf(path, sizeof path, "%s/ncu-raw-flash-fwd-h100.csv", examples_dir);
    char *text = check_slurp(path, &len);
    CHECK(text != NULL);
    rl_problem h;
    unsigned given;
    /* the sample's kernel: Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::half_t> */
    CHECK(text && rl_import_hints(text, len, &h, &given, what, sizeof what) == 4);
    CHECK(h.head_dim == 128 && h.block_m == 128 && h.block_n == 64 && h.dtype == RL_DTYPE_FP16);
    CHECK(given == (1u << RL_FIELD_HEAD_DIM | 1u << RL_FIELD_BLOCK_M | 1u << RL_FIELD_BLOCK_N |
                    1u << RL_FIELD_DTYPE));
    CHECK_STR_CONTAINS(what, "Flash_fwd_kernel_traits<128, 128, 64, …>: head-dim 128, block-m 128, "
                             "block-n 64, dtype fp16");
    free(text);
    const char *bwd = "\"void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
                      "Flash_bwd_kernel_traits<64, 128, 128, 8, 4, 4, 4, false, false, "
                      "cutlass::bfloat16_t>, true>(Flash_bwd_params)\"";
    CHECK(rl_import_hints(bwd, strlen(bwd), &h, &given, what, sizeof what) == 5);
    CHECK(h.head_dim == 64 && h.block_m == 128 && h.block_n == 128 && h.pass == RL_PASS_BWD);
    CHECK(h.dtype == RL_DTYPE_BF16); /* the bwd traits' element type is their last argument */
    CHECK_STR_CONTAINS(what, "dtype bf16, pass bwd");
    const char *none[] = {"flash_fwd_kernel", "Flash_fwd_kernel_traits<0, 128, 64>",
                          "Flash_fwd_kernel_traits<128, 128", "Flash_fwd_kernel_traits<x, y, z>"};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        CHECK(rl_import_hints(none[i], strlen(none[i]), &h, &given, what, sizeof what) == 0);
        CHECK(given == 0 && h.head_dim == 0 && what[0] == '\0');
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_import_formats EXAMPLES_DIR\n");
        return 2;
    }
    examples_dir = argv[1];
    formats_are_recognised();
    ncu_dram_sum_and_l2();
    ncu_details_page();
    ncu_malformed();
    ncu_command_matches_the_import();
    gbench_as_written();
    gbench_aggregates_pass_and_counters();
    gbench_aggregate_spread();
    gbench_gqa_decode_diagnosis();
    kernel_name_hints();
    return check_report("test_import_formats");
}
