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

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = (size_t)n;
    return buf;
}

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
    char *text = slurp(path, &len);
    rl_import_format f = RL_IMPORT_FORMAT_COUNT;
    int rc = text && rl_import_detect(text, len, &f, NULL) == RL_OK ? (int)f : -1;
    free(text);
    return rc;
}

static void formats_are_recognised(void) {
    char msg[300];
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
    CHECK_STR_CONTAINS(msg, "file: not a format rooflab reads; expected ncu CSV (a \"Kernel Name\" "
                            "column), Google Benchmark JSON (\"benchmarks\"), ERT JSON "
                            "(\"empirical\") or a record (\"schema\"); got a JSON array");
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
    char *text = slurp(path, &len);
    rl_record *r = NULL;
    CHECK(text && rl_record_import(RL_IMPORT_RECORD, text, len, NULL, &r, NULL) == RL_OK && r);
    rl_record_free(r);
    free(text);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_import_formats EXAMPLES_DIR\n");
        return 2;
    }
    examples_dir = argv[1];
    formats_are_recognised();
    return check_report("test_import_formats");
}
