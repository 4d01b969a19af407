/* adversarial.h — adversarial inputs of a chosen size, generated in memory (no multi-MB files in
 * the repository), for test_hostile.c and bench_adversarial.c:
 *   adv_many_keys   a record whose provenance repeats "notes" (the duplicate-key check)
 *   adv_deep        a record whose "extra" holds many nestings 15 levels deep (legal)
 *   adv_gbench      Google Benchmark JSON, one distinct run name per two entries
 *   adv_ncu         ncu --csv --page raw, one distinct kernel name per four rows
 * Each returns a malloc'd NUL-terminated text of about `bytes` bytes (its length in *len). */
#ifndef ROOFLAB_ADVERSARIAL_H
#define ROOFLAB_ADVERSARIAL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct adv_buf {
    char *p;
    size_t n, cap;
} adv_buf;

static void adv_put(adv_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char tmp[1024];
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) abort();
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, tmp, (size_t)k + 1);
    b->n += (size_t)k;
}

#define ADV_RECORD_HEAD                                                                            \
    "{\"schema\": \"rooflab-record\", \"schema_version\": 1, \"hardware\": {\"name\": \"a CPU\"}," \
    " \"software\": {\"kernel_version\": \"1\"}, \"points\": [{\"problem\": {\"seq\": 128, "      \
    "\"dtype\": \"fp32\"}, \"timing\": {\"median_s\": 0.001}, \"flops\": 33554432}], "

static char *adv_many_keys(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, ADV_RECORD_HEAD "\"provenance\": {\"kind\": \"measured\"");
    while (b.n + 8 < bytes) adv_put(&b, ",\"notes\":\"x\"");
    adv_put(&b, "}}");
    *len = b.n;
    return b.p;
}

static char *adv_deep(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, ADV_RECORD_HEAD "\"provenance\": {\"kind\": \"measured\"}, \"extra\": {\"a\": 0");
    for (size_t i = 0; b.n + 64 < bytes; i++)
        adv_put(&b, ",\"k%zu\":[[[[[[[[[[[[{\"x\":[1]}]]]]]]]]]]]]", i);
    adv_put(&b, "}}");
    *len = b.n;
    return b.p;
}

static char *adv_gbench(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "{\"context\": {\"date\": \"2026-11-20T14:02:11+00:00\"}, \"benchmarks\": [");
    for (size_t i = 0; b.n + 400 < bytes; i++)
        adv_put(&b,
                "%s{\"name\": \"BM_attn_fp16/1/128/1/64/case_%zu_padding_padding_padding_padding_"
                "padding_padding_padding_padding_padding_padding\", \"run_type\": \"iteration\", "
                "\"real_time\": %zu.5, \"time_unit\": \"us\", \"TFLOP/s\": 0.01, "
                "\"HBM GB/s\": 100}",
                i ? "," : "", i / 2, 10 + i % 7);
    adv_put(&b, "]}");
    *len = b.n;
    return b.p;
}

static char *adv_ncu(size_t bytes, size_t *len) {
    adv_buf b = {0};
    adv_put(&b, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
                "\"dram__bytes_write.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
                "\"\",\"\",\"usecond\",\"Mbyte\",\"Mbyte\",\"inst\"\n");
    for (size_t i = 0; b.n + 400 < bytes; i++)
        adv_put(&b,
                "\"%zu\",\"void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, "
                "false, false, cutlass::half_t>, false, false, true>(Flash_fwd_params) #%zu\","
                "\"1,571.20\",\"%zu.48\",\"67.24\",\"1,073,741,824\"\n",
                i, i / 4, 300 + i % 13);
    *len = b.n;
    return b.p;
}

#endif
