/* test_hostile.c — hostile and clumsy input (issue 12), every input generated here:
 * the sanitiser (one line, valid UTF-8, clipped on a character), linear-time structures checked
 * for their results on large inputs (duplicate keys, many gbench names, many ncu rows), strict
 * numbers in tool outputs, units on every column, column and point limits, empty gbench input,
 * non-finite derived values, implausible measured bytes, the roof's rate range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversarial.h"
#include "check.h"
#include "rooflab/record.h"

/* ---- helpers ------------------------------------------------------------------------------ */

#define CHECK_STR_EQ(got, want)                                                                    \
    do {                                                                                           \
        CHECK(strcmp((got), (want)) == 0);                                                         \
        if (strcmp((got), (want)) != 0) fprintf(stderr, "  got  \"%s\"\n  want \"%s\"\n", (got), (want)); \
    } while (0)

static int valid_utf8_line(const char *s) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; u[i];) {
        if (u[i] < 0x20 || u[i] == 0x7f) return 0;
        size_t n = u[i] < 0x80 ? 1 : (u[i] & 0xE0) == 0xC0 ? 2 : (u[i] & 0xF0) == 0xE0 ? 3
                                   : (u[i] & 0xF8) == 0xF0 ? 4 : 0;
        if (!n) return 0;
        for (size_t k = 1; k < n; k++)
            if ((u[i + k] & 0xC0) != 0x80) return 0;
        i += n;
    }
    return 1;
}

/* The first issue whose message contains `needle`, or NULL. */
static const rl_rec_issue *find_issue(const rl_rec_issues *is, const char *needle) {
    for (size_t i = 0; i < is->count; i++)
        if (strstr(is->items[i].message, needle)) return &is->items[i];
    return NULL;
}

/* Every problem field counted as given (at its default): an ncu export needs the problem. */
static const rl_import_opts ALL_GIVEN = {.problem_given = ~0u};

static rl_status import_text(rl_import_format f, const char *text, rl_record **r,
                             rl_rec_issues *is) {
    return rl_record_import(f, text, strlen(text), &ALL_GIVEN, r, is);
}

#define NCU_HEAD                                                                                   \
    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","                 \
    "\"dram__bytes_write.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"

/* An ncu CSV of one row with the given units row and cells; returns the import's status. */
static rl_status ncu_one(const char *units, const char *cells, rl_record **r, rl_rec_issues *is) {
    char text[2048];
    snprintf(text, sizeof text, NCU_HEAD "%s\n%s\n", units, cells);
    return import_text(RL_IMPORT_NCU_CSV, text, r, is);
}

/* ---- 1. the sanitiser ---------------------------------------------------------------------- */

static void test_escape(void) {
    char out[256];
    rl_text_escape(out, sizeof out, "a\nb\rc\td\x1b[31me\x7f");
    CHECK(strcmp(out, "a\\nb\\rc\\td\\x1b[31me\\x7f") == 0);
    rl_text_escape(out, sizeof out, "bad \xff\xfe utf8 \xc3");
    CHECK(strcmp(out, "bad \\xff\\xfe utf8 \\xc3") == 0);
    rl_text_escape(out, sizeof out, "c1 \xc2\x9b" "31m and \xe2\x80\xae" "rtl");
    CHECK(strcmp(out, "c1 <U+009B C1 CONTROL>31m and <U+202E RIGHT-TO-LEFT OVERRIDE>rtl") == 0);
    /* issue 21: invisible and direction characters named (names from Unicode's UnicodeData.txt),
     * each written here as its UTF-8 bytes */
    static const struct { const char *in, *want; } named[] = {
        {"\xe2\x80\x8e", "<U+200E LEFT-TO-RIGHT MARK>"},
        {"\xe2\x80\x8f", "<U+200F RIGHT-TO-LEFT MARK>"},
        {"\xd8\x9c", "<U+061C ARABIC LETTER MARK>"},
        {"\xe2\x80\x8b", "<U+200B ZERO WIDTH SPACE>"},
        {"\xe2\x80\x8d", "<U+200D ZERO WIDTH JOINER>"},
        {"\xc2\xa0", "<U+00A0 NO-BREAK SPACE>"},
        {"\xe2\x80\xaf", "<U+202F NARROW NO-BREAK SPACE>"},
        {"\xe2\x80\x89", "<U+2009 THIN SPACE>"},
        {"\xe2\x81\xa7", "<U+2067 RIGHT-TO-LEFT ISOLATE>"},
        {"\xe2\x81\xa9", "<U+2069 POP DIRECTIONAL ISOLATE>"},
        {"\xe2\x80\xa8", "<U+2028 LINE SEPARATOR>"},
        {"\xef\xbb\xbf", "<U+FEFF ZERO WIDTH NO-BREAK SPACE>"},
        {"\xc2\xad", "<U+00AD SOFT HYPHEN>"},
        {"\xe3\x80\x80", "<U+3000 IDEOGRAPHIC SPACE>"},
        {"\xf3\xa0\x81\x81", "<U+E0041 TAG CHARACTER>"},
        {"\xc2\x85", "<U+0085 C1 CONTROL>"},
        /* visible characters pass through */
        {"\xc3\xa9", "\xc3\xa9"},
        {"\xe2\x80\x94", "\xe2\x80\x94"},
        {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        char in[32];
        snprintf(in, sizeof in, "a%sb", named[k].in);
        rl_text_escape(out, sizeof out, in);
        char want[96];
        snprintf(want, sizeof want, "a%sb", named[k].want);
        CHECK_STR_EQ(out, want);
    }
    /* a named form is never cut: "a" + "<U+202E ...>" into 12 bytes gives "a..." */
    rl_text_escape(out, 12, "a\xe2\x80\xae" "b");
    CHECK_STR_EQ(out, "a...");
    /* the length in characters, as messages call it */
    CHECK(rl_text_length("a\xc3\xa9\xf0\x9f\x98\x80\xff") == 4);
    /* a 4-byte character at every clip boundary: never cut, always one valid line */
    const char *s = "abc\xf0\x9f\x98\x80" "def\xf0\x9f\x98\x80\n";
    for (size_t cap = 1; cap < 24; cap++) {
        memset(out, 'Z', sizeof out);
        size_t n = rl_text_escape(out, cap, s);
        CHECK(n < cap && out[n] == '\0');
        CHECK(valid_utf8_line(out));
    }
    rl_text_escape(out, 9, s);
    CHECK(strcmp(out, "abc...") == 0);
    CHECK(rl_text_clip("ab\xf0\x9f\x98\x80", 5) == 2);
    rl_text_utf8(out, sizeof out, "x\xffy\n");
    CHECK(strcmp(out, "x?y\n") == 0);
}

/* Issues quoting a record's strings with control characters stay one line once escaped, and the
 * check report (JSON) is valid UTF-8. */
static void test_record_strings(void) {
    const char *rec = "{\"schema\": \"rooflab-record\", \"schema_version\": 1, \"provenance\": "
                      "{\"kind\": \"measured\", \"bad\\nkey\\u001b[2J\": 1}, \"hardware\": {\"name\": "
                      "\"x\\nvalid record: y\"}, \"software\": {\"kernel_version\": \"1\"}, "
                      "\"points\": []}";
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(rl_record_parse(rec, strlen(rec), &r, &is) != RL_OK);
    const rl_rec_issue *it = find_issue(&is, "unknown key");
    CHECK(it != NULL);
    if (it) {
        char line[1024];
        rl_text_escape(line, sizeof line, it->message);
        CHECK(valid_utf8_line(line));
        CHECK_STR_CONTAINS(line, "bad\\nkey\\x1b[2J");
    }
    char *report = rl_record_check_json(rec, strlen(rec), 0);
    CHECK(report && strchr(report, '\n') == NULL);
    free(report);
    rl_rec_issues_free(&is);
}

/* ---- 2. linear time: results on large inputs ---------------------------------------------- */

static void test_duplicate_keys(void) {
    size_t len = 0;
    char *text = adv_many_keys(2000000, &len);
    rl_rec_issues is = {0};
    CHECK(rl_record_parse(text, len, NULL, &is) == RL_ERR_INVALID);
    size_t keys = 0;
    for (const char *p = strstr(text, "\"notes\""); p; p = strstr(p + 1, "\"notes\"")) keys++;
    CHECK(keys > 100000);
    CHECK(is.errors == keys - 1); /* every repeat reported, the first not */
    CHECK(find_issue(&is, "provenance: duplicate key \"notes\"; expected each key once") != NULL);
    rl_rec_issues_free(&is);
    free(text);
    text = adv_deep(1000000, &len);
    rl_record *r = NULL;
    CHECK(rl_record_parse(text, len, &r, &is) == RL_OK);
    rl_record_free(r);
    rl_rec_issues_free(&is);
    free(text);
}

static void test_gbench_grouping(void) {
    size_t len = 0;
    char *text = adv_gbench(3000000, &len);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(rl_record_import(RL_IMPORT_GBENCH, text, len, NULL, &r, &is) == RL_OK);
    size_t entries = 0;
    for (const char *p = strstr(text, "\"name\""); p; p = strstr(p + 1, "\"name\"")) entries++;
    CHECK(r && r->point_count == (entries + 1) / 2);
    if (r && r->point_count > 2) {
        CHECK_STR_CONTAINS(r->points[0].label, "case_0_");
        CHECK_STR_CONTAINS(r->points[r->point_count - 1].label, "case_");
        CHECK(r->points[1].runs == 2); /* two entries per name, grouped */
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
    free(text);
}

static void test_ncu_grouping(void) {
    size_t len = 0;
    char *text = adv_ncu(3000000, &len);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, text, len, &ALL_GIVEN, &r, &is) == RL_OK);
    CHECK(r && r->point_count > 1000);
    if (r) {
        CHECK_STR_CONTAINS(r->points[0].kernel, "#0");
        CHECK(r->points[0].runs == 4);
        CHECK_CLOSE(r->points[0].time_median_s, 1571.2e-6, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 2.0 * 1073741824.0, 1e-12);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
    free(text);
}

/* ---- 3. no silent misreads ---------------------------------------------------------------- */

static void test_ncu_numbers(void) {
    const char *units = "\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"inst\"";
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* a decimal comma is refused naming row, column and value */
    CHECK(ncu_one(units, "\"0\",\"k\",\"1.571,20\",\"312\",\"67\",\"1000000000\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "row 3, column gpu__time_duration.sum: got \"1.571,20\": a decimal "
                          "comma") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(ncu_one(units, "\"0\",\"k\",\"1571,2\",\"312\",\"67\",\"1000000000\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "decimal comma") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(ncu_one(units, "\"0\",\"k\",\"1.571.200\",\"312\",\"67\",\"1000000000\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "decimal comma") != NULL);
    rl_rec_issues_clear(&is);
    /* a space inside a number is refused; a tab before one is like a space before one */
    CHECK(ncu_one(units, "\"0\",\"k\",\"1 571\",\"312\",\"67\",\"1000000000\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "got \"1 571\"") != NULL);
    rl_rec_issues_clear(&is);
    double t[2];
    const char *cells[2] = {"\"0\",\"k\",\" 1,571.20\",\"312\",\"67\",\"1000000000\"",
                            "\"0\",\"k\",\"\t1,571.20\t\",\"312\",\"67\",\"1000000000\""};
    for (int i = 0; i < 2; i++) {
        CHECK(ncu_one(units, cells[i], &r, &is) == RL_OK);
        t[i] = r ? r->points[0].time_median_s : 0;
        rl_record_free(r);
        r = NULL;
    }
    CHECK_CLOSE(t[0], 1571.2e-6, 1e-12);
    CHECK(t[0] == t[1]);
    /* a FLOP cell that is not a number is an error, not a silent zero */
    CHECK(ncu_one(units, "\"0\",\"k\",\"1571\",\"312\",\"67\",\"1e9x\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "column sm__sass_thread_inst_executed_op_ffma_pred_on.sum") != NULL);
    rl_rec_issues_clear(&is);
    /* "n/a" (not collected) is absent */
    CHECK(ncu_one(units, "\"0\",\"k\",\"1571\",\"312\",\"67\",\"n/a\"", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "no kernel with floating-point work") != NULL);
    rl_rec_issues_free(&is);
}

static void test_ncu_units(void) {
    const char *cells = "\"0\",\"k\",\"1571\",\"312\",\"67\",\"1000000\"";
    rl_rec_issues is = {0};
    rl_record *a = NULL, *b = NULL;
    CHECK(ncu_one("\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"inst\"", cells, &a, &is) == RL_OK);
    CHECK(ncu_one("\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"Kinst\"", cells, &b, &is) == RL_OK);
    if (a && b) CHECK_CLOSE(b->points[0].flops, 1000.0 * a->points[0].flops, 1e-12);
    rl_record_free(a);
    rl_record_free(b);
    rl_rec_issues_clear(&is);
    CHECK(ncu_one("\"\",\"\",\"usecond\",\"byte/second\",\"Mbyte\",\"inst\"", cells, &a, &is) != RL_OK);
    CHECK(find_issue(&is, "row 2, column dram__bytes_read.sum: unknown unit \"byte/second\" (a "
                          "rate, not an amount)") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(ncu_one("\"\",\"\",\"Mbyte\",\"Mbyte\",\"Mbyte\",\"inst\"", cells, &a, &is) != RL_OK);
    CHECK(find_issue(&is, "column gpu__time_duration.sum: unknown unit \"Mbyte\"") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(ncu_one("\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"Mbyte\"", cells, &a, &is) != RL_OK);
    CHECK(find_issue(&is, "_pred_on.sum: unknown unit \"Mbyte\"") != NULL);
    rl_rec_issues_free(&is);
}

static void test_ncu_bom_and_columns(void) {
    char text[8192];
    snprintf(text, sizeof text, "\xEF\xBB\xBF" NCU_HEAD "\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\","
             "\"inst\"\n\"0\",\"k\",\"1571\",\"312\",\"67\",\"1000000\"\n");
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(import_text(RL_IMPORT_NCU_CSV, text, &r, &is) == RL_OK);
    rl_record_free(r);
    /* 33 tensor columns: an error, not 32 read and one dropped */
    adv_buf b = {0};
    adv_put(&b, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
                "\"dram__bytes_write.sum\"");
    for (int i = 0; i < 33; i++) adv_put(&b, ",\"sm__ops_path_tensor_src_fp%d_dst_fp32.sum\"", i);
    adv_put(&b, "\n\"0\",\"k\",\"1571\",\"312\",\"67\"");
    for (int i = 0; i < 33; i++) adv_put(&b, ",\"100\"");
    adv_put(&b, "\n");
    rl_rec_issues_clear(&is);
    CHECK(import_text(RL_IMPORT_NCU_CSV, b.p, &r, &is) == RL_ERR_RANGE);
    CHECK(find_issue(&is, "row 1: more than 32 sm__ops_path_tensor_src_*.sum columns") != NULL);
    free(b.p);
    rl_rec_issues_free(&is);
}

static void test_ncu_limits(void) {
    /* more kernel names than a record's points: the error names the limit, not memory */
    adv_buf b = {0};
    adv_put(&b, NCU_HEAD);
    for (int i = 0; i <= RL_RECORD_MAX_POINTS; i++) adv_put(&b, "\"%d\",\"k%d\",\"9\",\"1\",\"1\",\"5\"\n", i, i);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, b.p, b.n, &ALL_GIVEN, &r, &is) == RL_ERR_RANGE);
    CHECK(find_issue(&is, "100001 kernel names; the limit is 100000 points per record") != NULL);
    CHECK(find_issue(&is, "out of memory") == NULL);
    free(b.p);
    /* a record bigger than the reader's own limit is never written */
    b = (adv_buf){0};
    adv_put(&b, NCU_HEAD);
    for (int i = 0; i < 30000; i++)
        adv_put(&b, "\"%d\",\"a kernel with a long demangled name %0300d\",\"9\",\"1\",\"1\",\"5\"\n", i, i);
    rl_rec_issues_clear(&is);
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, b.p, b.n, &ALL_GIVEN, &r, &is) == RL_ERR_RANGE);
    CHECK(find_issue(&is, "the limit is 16777216 bytes (16 MiB) per record") != NULL);
    free(b.p);
    rl_rec_issues_free(&is);
}

static void test_gbench_nothing(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(import_text(RL_IMPORT_GBENCH, "{\"benchmarks\": []}", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "benchmarks: no benchmarks: the array is empty") != NULL);
    rl_rec_issues_clear(&is);
    /* aggregates are the timing of their family: a stddev alone times nothing (a median or a
     * mean alone does: test_import_formats) */
    CHECK(import_text(RL_IMPORT_GBENCH,
                      "{\"benchmarks\": [{\"name\": \"BM_x_stddev\", \"run_name\": \"BM_x\", "
                      "\"run_type\": \"aggregate\", \"aggregate_name\": \"stddev\", \"real_time\": 5, "
                      "\"time_unit\": \"us\"}]}", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "only aggregates without a mean or median") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(import_text(RL_IMPORT_GBENCH,
                      "{\"benchmarks\": [{\"name\": \"BM_x\", \"error_occurred\": true, "
                      "\"error_message\": \"no GPU\\n\\u001b[2J\"}]}", &r, &is) != RL_OK);
    CHECK(find_issue(&is, "every benchmark failed (1 with error_occurred)") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(import_text(RL_IMPORT_GBENCH, "\xEF\xBB\xBF{\"benchmarks\": [{\"name\": \"BM_a/1/128/1/64\", "
                      "\"real_time\": 5, \"time_unit\": \"us\", \"TFLOP/s\": 0.01}]}", &r, &is) == RL_OK);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void test_ert_bom(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(import_text(RL_IMPORT_ERT, "\xEF\xBB\xBF{\"empirical\": {\"gbytes\": {\"data\": "
                      "[[\"DRAM\", 800]]}}}", &r, &is) == RL_OK);
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

/* A minimal record with a point's extra keys. */
static rl_status parse_point(const char *extra, rl_rec_issues *is) {
    char text[1024];
    snprintf(text, sizeof text,
             "{\"schema\": \"rooflab-record\", \"schema_version\": 1, \"provenance\": {\"kind\": "
             "\"measured\"}, \"hardware\": {\"name\": \"a CPU\"}, \"software\": {\"kernel_version\": "
             "\"1\"}, \"points\": [{\"problem\": {\"seq\": 128, \"dtype\": \"fp32\"}, %s}]}", extra);
    rl_record *r = NULL;
    rl_status st = rl_record_parse(text, strlen(text), &r, is);
    rl_record_free(r);
    return st;
}

static void test_non_finite_and_bytes(void) {
    rl_rec_issues is = {0};
    CHECK(parse_point("\"timing\": {\"median_s\": 1e-9}, \"flops\": 1e308", &is) == RL_ERR_RANGE);
    CHECK(find_issue(&is, "points[0].flops: with timing.median_s gives a FLOP rate beyond the "
                          "finite range") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(parse_point("\"timing\": {\"median_s\": 1e-3}, \"flops\": 33554432, \"measured_bytes\": "
                      "1e-320", &is) == RL_ERR_RANGE);
    CHECK(find_issue(&is, "points[0].measured_bytes: expected a positive finite byte count, got "
                          "1e-320, below 1e-300") != NULL);
    rl_rec_issues_clear(&is);
    /* issue 21: tiny positive figures refused at their paths, one bound for every amount */
    static const struct { const char *point, *path; } tiny[] = {
        {"\"timing\": {\"median_s\": 1e-3}, \"flops\": 4.9e-324", "points[0].flops: expected a positive finite FLOP count, got 5e-324, below 1e-300"},
        {"\"timing\": {\"median_s\": 1e-3}, \"flops\": 1e-310", "points[0].flops: expected a positive finite FLOP count, got 1e-310, below 1e-300"},
        {"\"timing\": {\"median_s\": 4.9e-324}, \"flops\": 33554432", "points[0].timing.median_s: expected a positive finite number of seconds, got 5e-324, below 1e-300"},
        {"\"timing\": {\"median_s\": 1e-3, \"min_s\": 1e-310}, \"flops\": 33554432", "points[0].timing.min_s: expected a positive finite number of seconds, got 1e-310"},
        {"\"timing\": {\"median_s\": 1e-3}, \"flops\": 33554432, \"modelled_bytes\": 4.9e-324", "points[0].modelled_bytes: expected a positive finite byte count, got 5e-324, below 1e-300"},
        {"\"timing\": {\"median_s\": 1e-3}, \"flops\": 33554432, \"reported\": {\"flops_per_s\": 1e-320}", "points[0].reported.flops_per_s: expected a positive finite FLOP/s, got 1e-320, below 1e-300"},
        /* amounts above the bound whose quotient underflows: named at flops */
        {"\"timing\": {\"median_s\": 1e-3}, \"flops\": 1e-300, \"measured_bytes\": 1e12", "points[0].flops: with the bytes gives an intensity that underflows"},
        {"\"timing\": {\"median_s\": 1e300}, \"flops\": 1e-299", "points[0].flops: with timing.median_s gives a FLOP rate that underflows"},
    };
    for (size_t k = 0; k < sizeof tiny / sizeof tiny[0]; k++) {
        CHECK(parse_point(tiny[k].point, &is) == RL_ERR_RANGE);
        CHECK(find_issue(&is, tiny[k].path) != NULL);
        if (!find_issue(&is, tiny[k].path))
            for (size_t i = 0; i < is.count; i++) fprintf(stderr, "  %s\n", is.items[i].message);
        rl_rec_issues_clear(&is);
    }
    /* 30,000x below the compulsory traffic: a warning naming the slip */
    CHECK(parse_point("\"timing\": {\"median_s\": 1e-3}, \"flops\": 33554432, \"measured_bytes\": "
                      "4", &is) == RL_OK);
    CHECK(find_issue(&is, "points[0].measured_bytes: 4 B is") != NULL);
    CHECK(find_issue(&is, "below the compulsory traffic") != NULL);
    rl_rec_issues_clear(&is);
    CHECK(parse_point("\"timing\": {\"median_s\": 1e-3}, \"flops\": 33554432, \"measured_bytes\": "
                      "1e15", &is) == RL_OK);
    CHECK(find_issue(&is, "above the naive traffic") != NULL);
    rl_rec_issues_free(&is);
}

/* ---- 4. the roof's rates ------------------------------------------------------------------ */

static void test_roof_range(void) {
    rl_error err = {0};
    CHECK(rl_roof_check((rl_roof){1e-300, 1e15}, &err) == RL_ERR_RANGE);
    CHECK(strcmp(err.field, "bandwidth") == 0);
    CHECK(rl_roof_check((rl_roof){3e12, 1e300}, &err) == RL_ERR_RANGE);
    CHECK(strcmp(err.field, "peak") == 0);
    CHECK(rl_roof_check((rl_roof){3e12, 0.5}, &err) == RL_ERR_RANGE);
    CHECK(rl_roof_check((rl_roof){3.35e12, 9.89e14}, &err) == RL_OK);
    rl_roof_resolved res;
    CHECK(rl_roof_resolve(&(rl_roof_request){"h100-sxm", RL_DTYPE_FP16, "1e-300 B/s", NULL}, &res,
                          &err) != RL_OK);
    CHECK_STR_CONTAINS(err.message, "bandwidth");
}

/* issue 21: JSON errors name the real line whatever the line endings (LF, CRLF, CR only). */
static void test_line_endings(void) {
    static const char *const eol[] = {"\n", "\r\n", "\r"};
    for (int k = 0; k < 3; k++) {
        char text[256];
        /* the error (a missing value) is on line 3, column 6: '"x": ,' */
        snprintf(text, sizeof text, "{%s\"schema\": \"rooflab-record\",%s\"x\": ,%s}", eol[k], eol[k], eol[k]);
        rl_rec_issues is = {0};
        CHECK(rl_record_parse(text, strlen(text), NULL, &is) != RL_OK);
        CHECK(find_issue(&is, "not valid JSON at line 3, column 6") != NULL);
        rl_rec_issues_clear(&is);
        /* gbench: the bad token x on line 3, column 10 of '{"name": x}' */
        snprintf(text, sizeof text, "{%s\"benchmarks\": [%s{\"name\": x}]}", eol[k], eol[k]);
        rl_record *r = NULL;
        CHECK(import_text(RL_IMPORT_GBENCH, text, &r, &is) != RL_OK);
        CHECK(find_issue(&is, "at line 3, column 10") != NULL);
        rl_record_free(r);
        rl_rec_issues_free(&is);
    }
}

/* issue 21, item 11: gbench and ERT inputs refused or warned by the input's own path. */
static void test_importer_inputs(void) {
    static const struct { rl_import_format f; const char *text, *want; rl_rec_severity sev; } cases[] = {
        /* a numeric time_unit is not read as ns */
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 5, "
                           "\"time_unit\": 1000}]}",
         "benchmarks[0].time_unit: expected the string \"ns\", \"us\", \"ms\" or \"s\", got a number", RL_REC_ERROR},
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 5, "
                           "\"time_unit\": \"sec\"}]}",
         "benchmarks[0].time_unit: expected \"ns\", \"us\", \"ms\" or \"s\", got \"sec\"", RL_REC_ERROR},
        /* two benchmarks keys: not the first taken */
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 5, "
                           "\"time_unit\": \"us\"}], \"benchmarks\": []}",
         "benchmarks: the key appears 2 times in the top-level object", RL_REC_ERROR},
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 5, "
                           "\"real_time\": 7, \"time_unit\": \"us\"}]}",
         "benchmarks[0].real_time: given twice", RL_REC_ERROR},
        /* a string counter is called a string, not "no counter" */
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 5, "
                           "\"time_unit\": \"us\", \"TFLOP/s\": \"123\"}]}",
         "benchmarks[0].\"TFLOP/s\": a counter named as a rate holds a string", RL_REC_ERROR},
        /* the record check's issue named at the input's path, not points[0] */
        {RL_IMPORT_GBENCH, "{\"benchmarks\": [{\"name\": \"BM_x/4/8192/16/128\", \"real_time\": 1e-320, "
                           "\"time_unit\": \"s\"}]}",
         "benchmarks[0].real_time: expected a positive finite number of seconds, got 1e-320", RL_REC_ERROR},
        /* ERT: one side of the roof only, said; two keys refused */
        {RL_IMPORT_ERT, "{\"empirical\": {\"gbytes\": {\"data\": [[\"DRAM\", 800]]}}}",
         "empirical.gflops.data: no measured compute (GFLOP/s) ceiling", RL_REC_WARNING},
        {RL_IMPORT_ERT, "{\"empirical\": {\"gflops\": {\"data\": [[\"FP32 GFLOPs\", 8000]]}, "
                        "\"gbytes\": {\"data\": []}}}",
         "empirical.gbytes.data: no measured bandwidth (GB/s) ceiling", RL_REC_WARNING},
        {RL_IMPORT_ERT, "{\"empirical\": {\"gbytes\": {\"data\": [[\"DRAM\", 800]]}, \"gbytes\": "
                        "{\"data\": [[\"DRAM\", 900]]}}}",
         "empirical.gbytes: the key appears 2 times", RL_REC_ERROR},
        /* the record check's ceiling issues named at the input's entry, not hardware.ceilings[k]:
         * 1e-318 GB/s x 1e9 = about 1e-309 B/s (a subnormal), under the record's 1e-300 */
        {RL_IMPORT_ERT, "{\"empirical\": {\"gbytes\": {\"data\": [[\"L1\", 900], [\"DRAM\", 800], "
                        "[\"HBM\", 1e-318]]}, \"gflops\": {\"data\": [[\"FP32 GFLOPs\", 8000]]}}}",
         "empirical.gbytes.data[2][1]: expected a positive finite bytes_per_s, got 9.99998",
         RL_REC_ERROR},
        /* 1e300 GFLOP/s x 1e9 overflows to inf; spec ceilings follow the measured ones */
        {RL_IMPORT_ERT, "{\"empirical\": {\"gbytes\": {\"data\": [[\"DRAM\", 800]]}, \"gflops\": "
                        "{\"data\": [[\"FP32 GFLOPs\", 8000]]}}, \"spec\": {\"gflops\": {\"data\": "
                        "[[\"FP16\", 1e300]]}}}",
         "spec.gflops.data[0][1]: expected a positive finite flops_per_s, got inf (the record's "
         "hardware.ceilings[2]: the input's GB/s or GFLOP/s x 1e9)", RL_REC_ERROR},
        /* an empty name, refused by the record's check, at the entry's [0] */
        {RL_IMPORT_ERT, "{\"empirical\": {\"gbytes\": {\"data\": [[\"DRAM\", 800], [\"\", 700]]}, "
                        "\"gflops\": {\"data\": [[\"FP32 GFLOPs\", 8000]]}}}",
         "empirical.gbytes.data[1][0]: name: missing; expected a non-empty string such as \"HBM\" "
         "(the record's hardware.ceilings[1])", RL_REC_ERROR},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        rl_rec_issues is = {0};
        rl_record *r = NULL;
        rl_status st = import_text(cases[k].f, cases[k].text, &r, &is);
        const rl_rec_issue *it = find_issue(&is, cases[k].want);
        CHECK(it != NULL && it->severity == cases[k].sev);
        CHECK(cases[k].sev == RL_REC_ERROR ? st != RL_OK : st == RL_OK);
        if (!it)
            for (size_t i = 0; i < is.count; i++) fprintf(stderr, "  [%zu] %s\n", k, is.items[i].message);
        for (size_t i = 0; i < is.count; i++) /* never the output record's path */
            CHECK(strncmp(is.items[i].path, "points[", 7) != 0 &&
                  strncmp(is.items[i].path, "hardware.", 9) != 0);
        rl_record_free(r);
        rl_rec_issues_free(&is);
    }
}

/* issue 21, item 12: ncu's details page — a later launch adding a metric, launches that
 * interleave, errors at the user's rows — and the raw page with a blank line after its header. */
#define D_HEAD "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define D_ROW(id, metric, unit, value) "\"" id "\",\"k\",\"s\",\"" metric "\",\"" unit "\",\"" value "\"\n"
static void test_ncu_details_shapes(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    /* launch 1 adds lts__t_bytes.sum, which launch 0 lacks: both kept (2 runs of k) */
    const char *adds = D_HEAD
        D_ROW("0", "gpu__time_duration.sum", "usecond", "100")
        D_ROW("0", "dram__bytes.sum", "Mbyte", "300")
        D_ROW("0", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1000")
        D_ROW("1", "gpu__time_duration.sum", "usecond", "110")
        D_ROW("1", "dram__bytes.sum", "Mbyte", "300")
        D_ROW("1", "lts__t_bytes.sum", "Mbyte", "900")
        D_ROW("1", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1000");
    CHECK(import_text(RL_IMPORT_NCU_CSV, adds, &r, &is) == RL_OK);
    /* median of 100 and 110 us = 105 us; runs 2 */
    CHECK(r && r->point_count == 1 && r->points[0].runs == 2);
    if (r && r->point_count == 1) CHECK_CLOSE(r->points[0].time_median_s, 105e-6, 1e-12);
    for (size_t i = 0; i < is.count; i++)
        if (is.items[i].severity == RL_REC_ERROR) fprintf(stderr, "  %s\n", is.items[i].message);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);
    /* launch 0's rows resume after launch 1's: refused at the user's row 4 (header = row 1) */
    const char *inter = D_HEAD
        D_ROW("0", "gpu__time_duration.sum", "usecond", "100")
        D_ROW("1", "gpu__time_duration.sum", "usecond", "110")
        D_ROW("0", "dram__bytes.sum", "Mbyte", "300")
        D_ROW("1", "dram__bytes.sum", "Mbyte", "300");
    CHECK(import_text(RL_IMPORT_NCU_CSV, inter, &r, &is) != RL_OK);
    CHECK(find_issue(&is, "row 4: launch ID \"0\" again, after another launch's rows (its rows "
                          "began at row 2)") != NULL);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);
    /* launch 1 lacks the time every launch needs: named at the user's row 4, where it begins,
     * never at the converted table's row 3 */
    const char *no_time = D_HEAD
        D_ROW("0", "gpu__time_duration.sum", "usecond", "100")
        D_ROW("0", "dram__bytes.sum", "Mbyte", "300")
        D_ROW("1", "dram__bytes.sum", "Mbyte", "300")
        D_ROW("1", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1000");
    CHECK(import_text(RL_IMPORT_NCU_CSV, no_time, &r, &is) != RL_OK);
    CHECK(find_issue(&is, "row 4 (the launch beginning there)") != NULL);
    for (size_t i = 0; i < is.count; i++) {
        CHECK(strstr(is.items[i].message, "row 3") == NULL);
        CHECK(strstr(is.items[i].message, "columns like the header") == NULL);
    }
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);
    /* the raw page: a blank line after the header, then the units row: units, not data */
    CHECK(import_text(RL_IMPORT_NCU_CSV, NCU_HEAD "\n\"\",\"\",\"nsecond\",\"byte\",\"byte\",\"inst\"\n"
                      "\"0\",\"k\",\"2000\",\"1000\",\"1000\",\"500\"\n", &r, &is) == RL_OK);
    /* 2000 ns = 2e-6 s; bytes 1000 + 1000; ffma 500 inst = 1000 FLOP */
    if (r && r->point_count == 1) {
        CHECK_CLOSE(r->points[0].time_median_s, 2e-6, 1e-12);
        CHECK_CLOSE(r->points[0].measured_bytes, 2000, 0);
        CHECK_CLOSE(r->points[0].flops, 1000, 0);
    } else {
        CHECK(0);
        for (size_t i = 0; i < is.count; i++) fprintf(stderr, "  %s\n", is.items[i].message);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

int main(void) {
    test_ncu_details_shapes();
    test_importer_inputs();
    test_escape();
    test_line_endings();
    test_record_strings();
    test_duplicate_keys();
    test_gbench_grouping();
    test_ncu_grouping();
    test_ncu_numbers();
    test_ncu_units();
    test_ncu_bom_and_columns();
    test_ncu_limits();
    test_gbench_nothing();
    test_ert_bom();
    test_non_finite_and_bytes();
    test_roof_range();
    return check_report("test_hostile");
}
