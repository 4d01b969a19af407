#define _POSIX_C_SOURCE 200809L
/* test_record.c — the record format: reader, validator, writer, importers, limits.
 * Expected values are derived by hand (MODEL.md reference values, the samples' own digits),
 * never computed by the code under test. Usage: test_record CASES_DIR EXAMPLES_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rooflab/record.h"

static const char *cases_dir, *examples_dir;

static const char *first_error(const rl_rec_issues *is) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == RL_REC_ERROR) return is->items[i].message;
    return "";
}

static int has_warning(const rl_rec_issues *is, const char *needle) {
    for (size_t i = 0; i < is->count; i++)
        if (is->items[i].severity == RL_REC_WARNING && strstr(is->items[i].message, needle)) return 1;
    return 0;
}

static rl_record *parse_file(const char *path, rl_rec_issues *is, rl_status *st) {
    size_t len = 0;
    char *text = check_slurp(path, &len);
    rl_record *r = NULL;
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        *st = RL_ERR_INVALID;
        return NULL;
    }
    *st = rl_record_parse(text, len, &r, is);
    free(text);
    return r;
}

/* Every file in valid/ is accepted; every file in invalid/ and semantic/ is refused, and its first
 * error is exactly the sentence in NAME.expect (the JSON path, what was expected, what was got). */
static void cases_in(const char *sub, int expect_valid) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", cases_dir, sub);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0) continue;
        char path[1400], exp_path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(exp_path, sizeof exp_path, "%s/%.*s.expect", dir, (int)(l - 5), e->d_name);
        rl_rec_issues is = {0};
        rl_status st;
        rl_record *r = parse_file(path, &is, &st);
        n++;
        if (expect_valid) {
            if (st != RL_OK) fprintf(stderr, "%s: %s\n", path, first_error(&is));
            CHECK(st == RL_OK && r != NULL);
        } else {
            CHECK(st != RL_OK && r == NULL);
            char *want = check_slurp(exp_path, NULL);
            CHECK(want != NULL);
            if (want) {
                want[strcspn(want, "\n")] = '\0';
                if (strcmp(first_error(&is), want) != 0)
                    fprintf(stderr, "%s:\n  got:  %s\n  want: %s\n", path, first_error(&is), want);
                CHECK(strcmp(first_error(&is), want) == 0);
            }
            free(want);
        }
        rl_record_free(r);
        rl_rec_issues_free(&is);
    }
    closedir(d);
    CHECK(n >= 5);
}

static void reference_values_are_derived_for_a_gqa_decode_point(void) {
    char path[1200];
    snprintf(path, sizeof path, "%s/valid/gqa-decode.json", cases_dir);
    rl_rec_issues is = {0};
    rl_status st;
    rl_record *r = parse_file(path, &is, &st);
    CHECK(st == RL_OK && r && r->point_count == 1);
    if (r && r->point_count == 1) {
        const rl_rec_derived *d = &r->points[0].derived;
        /* MODEL.md: F = 67,108,864 FLOP; compulsory = 16,793,600 bytes; intensity ≈ 3.996 */
        CHECK_CLOSE(d->model_flops, 67108864.0, 0);
        CHECK_CLOSE(d->model_bytes[RL_MODEL_COMPULSORY], 16793600.0, 0);
        CHECK_CLOSE(d->bytes, 16793600.0, 0);
        CHECK(d->bytes_source == 2);
        CHECK_CLOSE(d->intensity_flop_per_byte, 67108864.0 / 16793600.0, 1e-12);
        CHECK_CLOSE(d->achieved_flops_per_s, 67108864.0 / 1e-5, 1e-12);
        /* H100 SXM: 3.35 TB/s, 989 TFLOP/s fp16 → P(I) = 3.35e12 × 3.996 ≈ 13.39 TFLOP/s */
        CHECK(d->roof_known);
        CHECK_CLOSE(d->attainable_flops_per_s, 3.35e12 * 67108864.0 / 16793600.0, 1e-9);
        CHECK_CLOSE(d->efficiency, (67108864.0 / 1e-5) / (3.35e12 * 67108864.0 / 16793600.0), 1e-9);
        CHECK(is.warnings == 0);
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void a_point_above_its_roof_is_flagged_with_the_factor(void) {
    char path[1200];
    snprintf(path, sizeof path, "%s/valid/above-roof.json", cases_dir);
    rl_rec_issues is = {0};
    rl_status st;
    rl_record *r = parse_file(path, &is, &st);
    CHECK(st == RL_OK); /* flagged, not refused: the page shows it beside the warning */
    CHECK(has_warning(&is, "points[0]: above its own roof"));
    CHECK(has_warning(&is, "×2: a multiply-add counted as 2 FLOPs"));
    /* F/t = 34,359,738,368 / 1.737e-5 s; roof 989 TFLOP/s at I = 2048 → ×2.0003 */
    if (r) CHECK_CLOSE(r->points[0].derived.efficiency, 34359738368.0 / 1.737e-5 / 989e12, 1e-9);
    rl_record_free(r);
    rl_rec_issues_free(&is);

    /* the same point timed in ms but written as if seconds were ms: ×1000 */
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "H100");
    rl_rec_set_string(&b->hardware.preset, "h100-sxm");
    rl_rec_set_string(&b->software.kernel_version, "1");
    rl_rec_point *p = rl_record_add_point(b);
    p->problem.seq = 4096;
    p->traffic_model = RL_TRAFFIC_COMPULSORY;
    p->flops = 34359738368.0;
    p->time_median_s = 34359738368.0 / 989e15; /* exactly 1000 × the 989 TFLOP/s roof */
    rl_rec_issues is2 = {0};
    CHECK(rl_record_validate(b, &is2) == RL_OK);
    CHECK(has_warning(&is2, "×1000: a unit slip"));
    rl_record_free(b);
    rl_rec_issues_free(&is2);
}

/* issue 20: a factor that equals the problem's fields is named first (the problem given may not be
 * the one measured), before a unit slip of the same size. */
static void a_factor_equal_to_the_problems_fields_names_them_first(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "CPU");
    rl_rec_set_string(&b->software.kernel_version, "1");
    /* B=1, H=8, d=64, N = L = 1024, non-causal: F = 4·1·8·64·1024² = 2,147,483,648; the point
     * counts 8 × that = 17,179,869,184 (a run of 8 heads' worth more than the problem given) */
    rl_rec_point *p = rl_record_add_point(b);
    p->problem.seq = 1024;
    p->flops = 17179869184.0;
    p->time_median_s = 1.0;
    /* B=2, H=8: 16 × F(B=2) = 16 · 4,294,967,296 = 68,719,476,736 — B × H */
    rl_rec_point *q = rl_record_add_point(b);
    q->problem.seq = 1024;
    q->problem.batch = 2;
    q->flops = 68719476736.0;
    q->time_median_s = 1.0;
    /* H=32, Hkv=8 and d=64: F = 4·1·32·64·1024² = 8,589,934,592; the point counts a quarter
     * (×0.25 = 1/4, H/Hkv = 32/8) */
    rl_rec_point *r = rl_record_add_point(b);
    r->problem.seq = 1024;
    r->problem.heads = 32;
    r->problem.kv_heads = 8;
    r->flops = 2147483648.0;
    r->time_median_s = 1.0;
    rl_rec_issues is = {0};
    CHECK(rl_record_validate(b, &is) == RL_OK);
    CHECK(has_warning(&is, "by ×8; likely ×8 equals the problem's heads H = 8 (the problem given may not "
                           "be the one measured: check those fields first); else ×8: bits counted as bytes"));
    CHECK(has_warning(&is, "by ×16; likely ×16 equals the problem's batch B × heads H = 2 × 8 (the problem"));
    CHECK(has_warning(&is, "by ×0.25; likely ×4 equals the problem's heads H / kv_heads Hkv = 32 / 8 (the"));
    rl_record_free(b);
    rl_rec_issues_free(&is);
}

static void flop_counting_slips_are_named(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "CPU");
    rl_rec_set_string(&b->software.kernel_version, "1");
    /* causal, N = L = 1024, B=1, H=8, d=64: non-causal F = 4·8·64·1024² = 2,147,483,648 */
    rl_rec_point *p = rl_record_add_point(b);
    p->problem.seq = 1024;
    p->problem.causal = 1;
    p->flops = 2147483648.0;
    p->time_median_s = 1e-3;
    /* MAC vs FLOP: half of F for a non-causal N = 1024 problem */
    p = rl_record_add_point(b);
    p->problem.seq = 1024;
    p->flops = 2147483648.0 / 2;
    p->time_median_s = 1e-3;
    rl_rec_issues is = {0};
    CHECK(rl_record_validate(b, &is) == RL_OK);
    CHECK(has_warning(&is, "points[0].flops: 2.147 GFLOP is the non-causal count"));
    CHECK(has_warning(&is, "causal counted as full (×2)"));
    CHECK(has_warning(&is, "points[1].flops"));
    CHECK(has_warning(&is, "MAC vs FLOP"));
    rl_record_free(b);
    rl_rec_issues_free(&is);
}

static void the_historical_table_keeps_its_numbers_and_shows_what_is_wrong(void) {
    char path[1200];
    snprintf(path, sizeof path, "%s/historical-v0.4.0-seed-table.json", examples_dir);
    rl_rec_issues is = {0};
    rl_status st;
    rl_record *r = parse_file(path, &is, &st);
    CHECK(st == RL_OK && r);
    if (r) {
        CHECK(r->provenance.kind == RL_PROV_HISTORICAL_UNAUDITED);
        CHECK(r->point_count == 12);
        /* first row: V100 1,024 0.42 ms 2.15 GFLOP 2.1 TFLOPS 0.23 GB 548 GB/s */
        CHECK_CLOSE(r->points[0].time_median_s, 0.42e-3, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 2.15e9, 1e-12);
        CHECK_CLOSE(r->points[0].modelled_bytes, 0.23e9, 1e-12);
        CHECK_CLOSE(r->points[0].reported_flops_per_s, 2.1e12, 1e-12);
        CHECK_CLOSE(r->points[0].reported_bytes_per_s, 548e9, 1e-12);
        /* last row: H100 16,384 13.2 ms 549.8 GFLOP 20.1 TFLOPS 3.68 GB 3,350 GB/s */
        CHECK_CLOSE(r->points[11].time_median_s, 13.2e-3, 1e-12);
        CHECK_CLOSE(r->points[11].flops, 549.8e9, 1e-12);
        CHECK(strcmp(r->points[11].hardware->preset, "h100-sxm") == 0);
        CHECK(strcmp(r->software.kernel_version, "v0.4.0") == 0);
        /* 2.15 GFLOP / 0.42 ms = 5.12 TFLOP/s, not the table's 2.1 */
        CHECK(has_warning(&is, "points[0].reported.flops_per_s: 2.1 TFLOP/s disagrees"));
        CHECK(has_warning(&is, "causal counted as full"));
        /* 3.68 GB / 13.2 ms = 279 GB/s, not the table's 3,350 GB/s */
        CHECK(has_warning(&is, "points[11].reported.bytes_per_s: 3.35 TB/s disagrees"));
    }
    rl_record_free(r);
    rl_rec_issues_free(&is);
}

static void a_record_built_in_memory_survives_write_and_read(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "Intel Xeon (2 cores)");
    rl_rec_set_string(&b->hardware.cpu_model, "Intel(R) Xeon(R) CPU @ 2.20GHz");
    rl_rec_add_ceiling(&b->hardware, "DRAM", RL_CEIL_BANDWIDTH, 1.2e10, 1)->dram = 1;
    rl_rec_set_string(&b->software.kernel, "cpu_tiled");
    rl_rec_set_string(&b->software.kernel_version, "0.1.0");
    rl_rec_set_string(&b->provenance.date, "2026-11-29T10:00:00Z");
    rl_rec_add_artifact(b, "bench.log");
    rl_rec_point *p = rl_record_add_point(b);
    p->problem.seq = 256;
    p->problem.heads = 4;
    p->problem.head_dim = 32;
    p->problem.dtype = RL_DTYPE_FP32;
    p->problem.causal = 1;
    p->flops = 4.0 * 4 * 32 * (256.0 * 257 / 2); /* causal P = N(N+1)/2 */
    p->time_median_s = 1.5e-3;
    p->time_min_s = 1.4e-3;
    p->time_max_s = 1.9e-3;
    p->runs = 21;
    p->max_abs_error = 2.5e-7;
    rl_error err = {0};
    char *json = rl_record_write_json(b, 1, &err);
    CHECK(json != NULL);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(json && rl_record_parse(json, strlen(json), &r, &is) == RL_OK);
    if (r) {
        CHECK(r->point_count == 1);
        CHECK(r->points[0].problem.seq == 256 && r->points[0].problem.kv_len == 256);
        CHECK(r->points[0].problem.heads == 4 && r->points[0].problem.kv_heads == 4);
        CHECK(r->points[0].problem.dtype == RL_DTYPE_FP32 && r->points[0].problem.causal == 1);
        CHECK_CLOSE(r->points[0].flops, 4.0 * 4 * 32 * 32896, 0);
        CHECK_CLOSE(r->points[0].time_max_s, 1.9e-3, 0);
        CHECK(r->points[0].runs == 21);
        CHECK_CLOSE(r->points[0].max_abs_error, 2.5e-7, 0);
        CHECK(r->hardware.ceiling_count == 1 && r->hardware.ceilings[0].dram);
        CHECK(strcmp(r->hardware.cpu_model, "Intel(R) Xeon(R) CPU @ 2.20GHz") == 0);
        CHECK(r->provenance.artifact_count == 1);
        CHECK(is.warnings == 0);
    }
    free(json);
    rl_record_free(r);
    rl_rec_issues_free(&is);

    /* an invalid record is not written, and the error names the path */
    p = rl_record_add_point(b);
    p->problem.seq = 64;
    p->problem.heads = 8;
    p->problem.kv_heads = 3;
    p->flops = 1;
    p->time_median_s = 1;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK_STR_CONTAINS(err.message, "points[1].problem.kv_heads");
    free(json);
    rl_record_free(b);
}

/* The optional ceiling method and skipped runs: written when set (skipped absent when empty),
 * read back exactly; a skipped run's problem is checked like a point's. */
static void ceiling_method_and_skipped_runs_survive_write_and_read(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "CPU");
    rl_rec_set_string(&b->software.kernel_version, "1");
    rl_rec_ceiling *c = rl_rec_add_ceiling(&b->hardware, "DRAM", RL_CEIL_BANDWIDTH, 1.2e10, 1);
    CHECK(c && rl_rec_set_string(&c->method, "copy kernel, 2 threads, median of 21 runs") == 0);
    rl_error err = {0};
    char *json = rl_record_write_json(b, 0, &err);
    CHECK(json && !strstr(json, "\"skipped\""));
    CHECK(json && strstr(json, "\"method\":\"copy kernel, 2 threads, median of 21 runs\""));
    free(json);

    rl_rec_skip *s = rl_record_add_skipped(b, "cpu_tiled", "head_dim 96 is not a multiple of 64");
    CHECK(s && s->traffic_model == RL_TRAFFIC_TILED && s->problem.seq == 0);
    if (s) {
        s->problem.seq = 1024;
        s->problem.head_dim = 96;
    }
    CHECK(rl_record_add_skipped(b, "naive", "out of memory") != NULL);
    CHECK(rl_record_add_skipped(b, NULL, "x") == NULL && b->skipped_count == 2);
    json = rl_record_write_json(b, 1, &err);
    CHECK(json != NULL);
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(json && rl_record_parse(json, strlen(json), &r, &is) == RL_OK);
    if (r) {
        CHECK(r->hardware.ceiling_count == 1 && r->hardware.ceilings[0].method &&
              strcmp(r->hardware.ceilings[0].method, "copy kernel, 2 threads, median of 21 runs") == 0);
        CHECK(r->skipped_count == 2);
        CHECK(strcmp(r->skipped[0].kernel, "cpu_tiled") == 0);
        CHECK(strcmp(r->skipped[0].reason, "head_dim 96 is not a multiple of 64") == 0);
        CHECK(r->skipped[0].problem.seq == 1024 && r->skipped[0].problem.head_dim == 96);
        CHECK(r->skipped[0].problem.kv_len == 1024); /* resolved: defaults filled in */
        CHECK(strcmp(r->skipped[1].reason, "out of memory") == 0);
    }
    free(json);
    rl_record_free(r);
    rl_rec_issues_free(&is);

    /* a skipped run's problem is resolved by core: its error names the JSON key */
    b->skipped[1].problem.heads = 8;
    b->skipped[1].problem.kv_heads = 3;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK_STR_CONTAINS(err.message, "skipped[1].problem.kv_heads: heads (8) must be a multiple");
    free(json);
    rl_record_free(b);
}

/* The optional device details (Hz, counts), the command line and the relative L2 error: written
 * when set, absent when not, read back exactly; out-of-range values built in memory are refused
 * by the validator (the writer) with the JSON path. */
static void device_details_argv_and_rel_l2_survive_write_and_read(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "NVIDIA H200");
    b->hardware.sm_count = 132;
    b->hardware.sm_clock_hz = 1.98e9;      /* 1,980,000 kHz from cudaDevAttrClockRate */
    b->hardware.memory_clock_hz = 3.2e9;
    rl_rec_set_string(&b->software.kernel_version, "1");
    const char *args[] = {"rooflab", "bench", "--backend", "cuda", "--out", "a b.json"};
    CHECK(rl_rec_set_argv(b, 6, args) == 0);
    rl_rec_point *p = rl_record_add_point(b);
    CHECK(p->rel_l2_error < 0); /* unknown until set */
    p->problem.seq = 1024;
    p->problem.dtype = RL_DTYPE_FP16;
    p->flops = 4.0 * 8 * 64 * 1024.0 * 1024; /* defaults B=1 H=8 d=64: 4·H·d·N² */
    p->time_median_s = 1e-4;
    p->rel_l2_error = 3.5e-4;
    rl_rec_point *q = rl_record_add_point(b); /* a point without the error or the details */
    p = &b->points[0]; /* (adding a point may move the array) */
    *q = *p;
    q->rel_l2_error = -1;
    rl_rec_hardware *ph = rl_rec_point_hardware(q);
    rl_rec_set_string(&ph->name, "AMD EPYC 7B13");
    ph->threads = 2;
    rl_error err = {0};
    char *json = rl_record_write_json(b, 0, &err);
    CHECK(json != NULL);
    if (json) {
        CHECK_STR_CONTAINS(json, "\"sm_count\":132,\"sm_clock_hz\":1980000000,"
                                 "\"memory_clock_hz\":3200000000");
        CHECK_STR_CONTAINS(json, "\"argv\":[\"rooflab\",\"bench\",\"--backend\",\"cuda\",\"--out\","
                                 "\"a b.json\"]");
        CHECK_STR_CONTAINS(json, "\"rel_l2_error\":0.00035");
        CHECK_STR_CONTAINS(json, "\"name\":\"AMD EPYC 7B13\",\"threads\":2}");
        /* once: the second point has no rel_l2_error, the record's hardware no threads */
        const char *first = strstr(json, "rel_l2_error");
        CHECK(first && !strstr(first + 1, "rel_l2_error"));
        CHECK(strstr(json, "\"threads\"") == strstr(json, "\"threads\":2}"));
    }
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(json && rl_record_parse(json, strlen(json), &r, &is) == RL_OK);
    if (r) {
        CHECK(r->hardware.sm_count == 132);
        CHECK_CLOSE(r->hardware.sm_clock_hz, 1.98e9, 0);
        CHECK_CLOSE(r->hardware.memory_clock_hz, 3.2e9, 0);
        CHECK(r->hardware.threads == 0);
        CHECK(r->software.argv_count == 6 && strcmp(r->software.argv[5], "a b.json") == 0);
        CHECK(r->point_count == 2);
        if (r->point_count == 2) {
            CHECK_CLOSE(r->points[0].rel_l2_error, 3.5e-4, 0);
            CHECK(r->points[1].rel_l2_error < 0);
            CHECK(r->points[1].hardware && r->points[1].hardware->threads == 2 &&
                  r->points[1].hardware->sm_count == 0);
        }
    }
    free(json);
    rl_record_free(r);
    rl_rec_issues_free(&is);

    /* argv limits: at most RL_RECORD_MAX_ARGV; a refused call leaves the record unchanged */
    const char *many[RL_RECORD_MAX_ARGV + 1];
    for (int i = 0; i <= RL_RECORD_MAX_ARGV; i++) many[i] = "x";
    CHECK(rl_rec_set_argv(b, RL_RECORD_MAX_ARGV + 1, many) == -1);
    CHECK(rl_rec_set_argv(b, -1, many) == -1);
    CHECK(b->software.argv_count == 6);
    CHECK(rl_rec_set_argv(b, RL_RECORD_MAX_ARGV, many) == 0 && b->software.argv_count == 256);

    /* out-of-range values set in memory: the writer refuses, naming the path */
    b->hardware.sm_count = -4;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK(strcmp(err.message, "hardware.sm_count: expected a positive integer, got -4") == 0);
    free(json);
    b->hardware.sm_count = 132;
    b->hardware.memory_clock_hz = NAN;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK_STR_CONTAINS(err.message, "hardware.memory_clock_hz: expected a positive finite number of Hz");
    free(json);
    b->hardware.memory_clock_hz = 0; /* 0 = not given */
    ph->threads = -1;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK(strcmp(err.message, "points[1].hardware.threads: expected a positive integer, got -1") == 0);
    free(json);
    ph->threads = 2;
    b->points[0].rel_l2_error = INFINITY;
    json = rl_record_write_json(b, 0, &err);
    CHECK(json == NULL);
    CHECK(strcmp(err.message, "points[0].rel_l2_error: expected a finite non-negative number, got inf") == 0);
    free(json);
    b->points[0].rel_l2_error = 0; /* exact: allowed */
    json = rl_record_write_json(b, 0, &err);
    CHECK(json != NULL);
    CHECK_STR_CONTAINS(json, "\"rel_l2_error\":0,");
    free(json);
    rl_record_free(b);
}

static void importers_turn_the_samples_into_points(void) {
    char path[1200];
    size_t len;
    rl_rec_issues is = {0};
    rl_record *r = NULL;

    /* ncu: three launches of flash_fwd_kernel (1,571.20 / 1,565.92 / 1,580.38 usecond; DRAM
     * 312.48+67.24, 311.97+67.24, 313.02+67.24 Mbyte); FLOPs 549,755,813,888 tensor +
     * 1,073,741,824 fadd + 1,073,741,824 fmul + 2 × 1,610,612,736 ffma = 555,124,523,008. The fill
     * kernel has no FLOPs and is skipped. */
    snprintf(path, sizeof path, "%s/ncu-raw-flash-fwd-h100.csv", examples_dir);
    char *text = check_slurp(path, &len);
    rl_import_opts o = {0};
    o.problem.batch = 4;
    o.problem.heads = 16;
    o.problem.seq = 4096;
    o.problem.head_dim = 128;
    o.preset = "h100-sxm";
    CHECK(text && rl_record_import(RL_IMPORT_NCU_CSV, text, len, &o, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->point_count == 1);
        CHECK_CLOSE(r->points[0].time_median_s, 1571.20e-6, 1e-12);
        CHECK_CLOSE(r->points[0].time_min_s, 1565.92e-6, 1e-12);
        CHECK_CLOSE(r->points[0].time_max_s, 1580.38e-6, 1e-12);
        CHECK(r->points[0].runs == 3);
        CHECK_CLOSE(r->points[0].measured_bytes, 379.72e6, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 555124523008.0, 0);
        CHECK(strcmp(r->hardware.name, "NVIDIA H100 80GB HBM3") == 0);
        CHECK(strcmp(r->hardware.compute_capability, "9.0") == 0);
        CHECK_STR_CONTAINS(r->points[0].kernel, "flash::flash_fwd_kernel");
        CHECK(has_warning(&is, "skipped: its FLOP counters are all zero"));
    }
    free(text);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);

    /* gbench: BM_flash_attn_fwd_bf16/4/2048/16/128 → B=4, N=2048, H=16, d=128, bf16; median
     * aggregate 0.2371 ms; repetitions 0.2371, 0.2368, 0.2379 ms. F = 4·4·16·128·2048² */
    snprintf(path, sizeof path, "%s/gbench-flash-attn-h100.json", examples_dir);
    text = check_slurp(path, &len);
    rl_import_opts g = {0};
    g.preset = "h100-sxm";
    CHECK(text && rl_record_import(RL_IMPORT_GBENCH, text, len, &g, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->point_count == 3);
        const rl_rec_point *p = &r->points[0];
        CHECK(p->problem.batch == 4 && p->problem.seq == 2048 && p->problem.heads == 16 &&
              p->problem.head_dim == 128 && p->problem.dtype == RL_DTYPE_BF16);
        CHECK_CLOSE(p->time_median_s, 0.2371e-3, 1e-12);
        CHECK_CLOSE(p->time_min_s, 0.2368e-3, 1e-12);
        CHECK_CLOSE(p->time_max_s, 0.2379e-3, 1e-12);
        CHECK_CLOSE(p->flops, 4.0 * 4 * 16 * 128 * 2048.0 * 2048.0, 2e-3);
        CHECK(r->points[1].problem.seq == 8448);
        CHECK(has_warning(&is, "skipped: the benchmark failed (CUDA error: out of memory"));
    }
    free(text);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);

    /* gbench mapping stated and overridable: named arguments, and a custom order */
    const char *named = "{\"benchmarks\":[{\"name\":\"BM_attn_fp16/seq:1024/heads:4/head_dim:32\","
                        "\"run_type\":\"iteration\",\"real_time\":50,\"time_unit\":\"us\","
                        "\"TFLOP/s\":0.01}]}";
    CHECK(rl_record_import(RL_IMPORT_GBENCH, named, strlen(named), NULL, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->points[0].problem.seq == 1024 && r->points[0].problem.heads == 4 &&
              r->points[0].problem.head_dim == 32 && r->points[0].problem.dtype == RL_DTYPE_FP16);
        CHECK_CLOSE(r->points[0].time_median_s, 50e-6, 1e-12);
        CHECK_CLOSE(r->points[0].flops, 0.01e12 * 50e-6, 1e-12);
    }
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);
    const char *ordered = "{\"benchmarks\":[{\"name\":\"BM_x/64/2/512\",\"run_type\":\"iteration\","
                          "\"real_time\":1,\"time_unit\":\"ms\",\"TFLOP/s\":1}]}";
    rl_import_opts m = {0};
    m.gbench_args = "head_dim,batch,seq";
    CHECK(rl_record_import(RL_IMPORT_GBENCH, ordered, strlen(ordered), &m, &r, &is) == RL_OK);
    if (r)
        CHECK(r->points[0].problem.head_dim == 64 && r->points[0].problem.batch == 2 &&
              r->points[0].problem.seq == 512);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);

    /* ERT: L1 14016.8, L2 2996.4, DRAM 828.8 GB/s; FP64 7068.9 GFLOP/s; spec DRAM 900, 7800 */
    snprintf(path, sizeof path, "%s/ert-roofline-v100.json", examples_dir);
    text = check_slurp(path, &len);
    CHECK(text && rl_record_import(RL_IMPORT_ERT, text, len, NULL, &r, &is) == RL_OK);
    if (r) {
        CHECK(r->hardware.ceiling_count == 6);
        CHECK(r->point_count == 0);
        int found_dram = 0;
        for (size_t i = 0; i < r->hardware.ceiling_count; i++) {
            const rl_rec_ceiling *c = &r->hardware.ceilings[i];
            if (strcmp(c->name, "DRAM") == 0) {
                found_dram = 1;
                CHECK_CLOSE(c->value, 828.8e9, 1e-12);
                CHECK(c->dram && c->measured && c->kind == RL_CEIL_BANDWIDTH);
            }
            if (strcmp(c->name, "FP64 GFLOPs") == 0) CHECK_CLOSE(c->value, 7068.9e9, 1e-12);
            if (strcmp(c->name, "spec DRAM") == 0) CHECK(!c->measured);
        }
        CHECK(found_dram);
        CHECK(strcmp(r->software.kernel_version, "ERT 1.1.0") == 0);
        /* TIMESTAMP_DB 1763996400 s = 2025-11-24 15:00:00 UTC */
        CHECK(strcmp(r->provenance.date, "2025-11-24T15:00:00Z") == 0);
    }
    free(text);
    rl_record_free(r);
    r = NULL;
    rl_rec_issues_clear(&is);

    /* malformed sources are refused with a position */
    const char *badcsv = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"5\"\n";
    rl_import_opts given = {.problem_given = ~0u};
    CHECK(rl_record_import(RL_IMPORT_NCU_CSV, badcsv, strlen(badcsv), &given, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "row 1, column dram__bytes_read.sum: missing");
    rl_rec_issues_clear(&is);
    CHECK(rl_record_import(RL_IMPORT_ERT, "[]", 2, NULL, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "not an ERT roofline.json");
    rl_rec_issues_free(&is);
}

/* Text of a record with `n` minimal points, each line padded with `pad` spaces. */
static char *many_points(size_t n, size_t pad, size_t *len) {
    const char *head = "{\"schema\":\"rooflab-record\",\"schema_version\":1,\"provenance\":{\"kind\":"
                       "\"measured\"},\"hardware\":{\"name\":\"x\"},\"software\":{\"kernel_version\":"
                       "\"1\"},\"points\":[";
    const char *pt = "{\"problem\":{\"seq\":64,\"dtype\":\"fp16\"},\"timing\":{\"median_s\":1},"
                     "\"flops\":2097152}";
    size_t cap = strlen(head) + n * (strlen(pt) + pad + 2) + 8;
    char *s = malloc(cap);
    size_t o = 0;
    o += (size_t)sprintf(s + o, "%s", head);
    for (size_t i = 0; i < n; i++) {
        o += (size_t)sprintf(s + o, "%s%s", i ? "," : "", pt);
        memset(s + o, ' ', pad);
        o += pad;
    }
    o += (size_t)sprintf(s + o, "]}");
    *len = o;
    return s;
}

static void stated_limits_are_enforced(void) {
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    size_t len;
    /* 100,000 points: accepted (F of B=1,H=8,N=64,d=64 = 4·8·64·64² = 8,388,608... here flops is
     * given as 2,097,152 so each point also carries a flops warning, counted not kept) */
    char *s = many_points(RL_RECORD_MAX_POINTS, 0, &len);
    CHECK(rl_record_parse(s, len, &r, &is) == RL_OK);
    CHECK(r && r->point_count == 100000);
    CHECK(is.count <= RL_RECORD_MAX_ISSUES);
    rl_record_free(r);
    r = NULL;
    free(s);
    rl_rec_issues_clear(&is);
    /* 100,001 points: refused before reading them */
    s = many_points(RL_RECORD_MAX_POINTS + 1, 0, &len);
    CHECK(rl_record_parse(s, len, &r, &is) != RL_OK && r == NULL);
    CHECK(strcmp(first_error(&is), "points: expected at most 100000 points, got 100001") == 0);
    free(s);
    rl_rec_issues_clear(&is);
    /* a 10 MB file (40,000 points padded): accepted */
    s = many_points(40000, 200, &len);
    CHECK(len > 10000000);
    CHECK(rl_record_parse(s, len, &r, &is) == RL_OK);
    rl_record_free(r);
    r = NULL;
    free(s);
    rl_rec_issues_clear(&is);
    /* over 16 MiB: refused before parsing */
    s = many_points(1000, 17000, &len);
    CHECK(len > RL_RECORD_MAX_FILE_BYTES);
    CHECK(rl_record_parse(s, len, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "the limit is 16777216 bytes (16 MiB)");
    free(s);
    rl_rec_issues_clear(&is);
    /* a string over 4096 characters */
    char *big = malloc(6000);
    int n = sprintf(big, "{\"schema\":\"rooflab-record\",\"schema_version\":1,\"provenance\":{\"kind\":"
                         "\"measured\",\"notes\":\"");
    memset(big + n, 'a', 4097);
    sprintf(big + n + 4097, "\"},\"hardware\":{\"name\":\"x\"},\"software\":{\"kernel_version\":"
                            "\"1\"},\"points\":[]}");
    CHECK(rl_record_parse(big, strlen(big), &r, &is) != RL_OK);
    CHECK(strcmp(first_error(&is),
                 "provenance.notes: expected a string of at most 4096 characters, got one of 4097") == 0);
    free(big);
    rl_rec_issues_clear(&is);
    /* invalid JSON names the line and column */
    const char *broken = "{\n  \"schema\": \"rooflab-record\",\n  \"points\": [1,,2]\n}";
    CHECK(rl_record_parse(broken, strlen(broken), &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "not valid JSON at line 3, column 16");
    rl_rec_issues_clear(&is);
    CHECK(rl_record_parse("", 0, &r, &is) != RL_OK);
    CHECK_STR_CONTAINS(first_error(&is), "not valid JSON: the file is empty");
    rl_rec_issues_free(&is);
}

static void check_json_reports_issues_and_the_record(void) {
    const char *text = "[]";
    char *out = rl_record_check_json(text, 2, 0);
    CHECK(out != NULL);
    CHECK_STR_CONTAINS(out, "\"ok\":false");
    CHECK_STR_CONTAINS(out, "\"record\":null");
    CHECK_STR_CONTAINS(out, "valid JSON, not a record");
    free(out);
}

/* Issue 18's variants: written when on, left out when off (head_dim_v equal to head_dim is off),
 * and read back exactly. */
static void variants_survive_write_and_read(void) {
    rl_record *b = rl_record_new(RL_PROV_MEASURED);
    rl_rec_set_string(&b->hardware.name, "NVIDIA H100 SXM5 80GB");
    rl_rec_set_string(&b->software.kernel_version, "1");
    rl_rec_point *p = rl_record_add_point(b);
    p->problem = (rl_problem){.heads = 128, .seq = 1, .kv_len = 4096, .dtype = RL_DTYPE_BF16,
                              .kv_dtype = RL_DTYPE_FP8, .kv_lora_rank = 512, .rope_dim = 64};
    p->flops = 2.0 * 128 * 4096 * (576 + 512); /* 2·H·L·(d_qk + d_v) */
    p->time_median_s = 1e-5;
    rl_rec_point *q = rl_record_add_point(b);
    q->problem = (rl_problem){.seq = 4096, .causal = 1, .window = 128, .sinks = 4, .head_dim = 64,
                              .head_dim_v = 64, .kv_dtype = RL_DTYPE_NVFP4};
    q->flops = 4.0 * 8 * 64 * 532026; /* d_v = d: 4·H·d·P, P = 532,026 (test_workload) */
    q->time_median_s = 1e-4;
    rl_rec_point *g = rl_record_add_point(b); /* ragged, paged, top-k */
    g->problem = (rl_problem){.heads = 8, .seq = 1, .head_dim = 128, .page_size = 16, .topk = 2048};
    CHECK(rl_kv_lens_parse("512,4096x3", NULL, &g->problem.kv_lens, NULL) == RL_OK);
    g->flops = 4.0 * 8 * 128 * (512 + 3 * 2048); /* min(K, L) keys: 512 + 3·2048 pairs a head */
    g->time_median_s = 1e-4;
    rl_error err = {0};
    char *json = rl_record_write_json(b, 0, &err);
    CHECK(json != NULL);
    CHECK(json && strstr(json, "\"kv_lora_rank\":512") && strstr(json, "\"rope_dim\":64"));
    CHECK(json && strstr(json, "\"window\":128") && strstr(json, "\"sinks\":4"));
    CHECK(json && strstr(json, "\"kv_dtype\":\"nvfp4\""));
    CHECK(json && !strstr(json, "\"head_dim_v\":64")); /* equal to head_dim: off, left out */
    CHECK(json && strstr(json, "\"kv_lens\":[[512,1],[4096,3]]") && strstr(json, "\"page_size\":16") &&
          strstr(json, "\"topk\":2048"));
    CHECK(json && !strstr(json, "\"kv_lens\":[]")); /* off in the other points: left out */
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    CHECK(json && rl_record_parse(json, strlen(json), &r, &is) == RL_OK);
    if (r) {
        CHECK(r->point_count == 3);
        const rl_problem *gp = &r->points[2].problem;
        CHECK(gp->kv_lens.n == 2 && gp->kv_lens.pair[0].len == 512 && gp->kv_lens.pair[0].count == 1 &&
              gp->kv_lens.pair[1].len == 4096 && gp->kv_lens.pair[1].count == 3);
        CHECK(gp->page_size == 16 && gp->topk == 2048);
        CHECK(r->points[0].problem.kv_lens.n == 0 && r->points[0].problem.page_size == 0);
        CHECK(r->points[0].problem.kv_lora_rank == 512 && r->points[0].problem.rope_dim == 64);
        CHECK(r->points[0].problem.kv_dtype == RL_DTYPE_FP8);
        CHECK(r->points[1].problem.window == 128 && r->points[1].problem.sinks == 4);
        CHECK(r->points[1].problem.kv_dtype == RL_DTYPE_NVFP4);
        CHECK(r->points[1].problem.head_dim_v == 0 || r->points[1].problem.head_dim_v == 64);
        rl_record_free(r);
    }
    rl_rec_issues_free(&is);
    free(json);
    rl_record_free(b);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: test_record CASES_DIR EXAMPLES_DIR\n");
        return 2;
    }
    cases_dir = argv[1];
    examples_dir = argv[2];
    cases_in("valid", 1);
    cases_in("invalid", 0);
    cases_in("semantic", 0);
    reference_values_are_derived_for_a_gqa_decode_point();
    a_point_above_its_roof_is_flagged_with_the_factor();
    a_factor_equal_to_the_problems_fields_names_them_first();
    flop_counting_slips_are_named();
    the_historical_table_keeps_its_numbers_and_shows_what_is_wrong();
    a_record_built_in_memory_survives_write_and_read();
    device_details_argv_and_rel_l2_survive_write_and_read();
    ceiling_method_and_skipped_runs_survive_write_and_read();
    variants_survive_write_and_read();
    importers_turn_the_samples_into_points();
    stated_limits_are_enforced();
    check_json_reports_issues_and_the_record();
    return check_report("test_record");
}
