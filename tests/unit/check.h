/* check.h — a minimal test harness: each check prints on failure, the run ends with the plain
 * closing line "N passed, N failed" and a non-zero exit status when anything failed. */
#ifndef ROOFLAB_CHECK_H
#define ROOFLAB_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);              \
        }                                                                                          \
    } while (0)

/* Relative closeness: |a − b| ≤ rel·max(|a|, |b|) (exact equality when rel is 0). */
#define CHECK_CLOSE(a, b, rel)                                                                     \
    do {                                                                                           \
        double ca_ = (double)(a), cb_ = (double)(b);                                               \
        double m_ = fabs(ca_) > fabs(cb_) ? fabs(ca_) : fabs(cb_);                                 \
        if (fabs(ca_ - cb_) <= (rel) * m_ || ca_ == cb_) {                                         \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "%s:%d: CHECK_CLOSE failed: %s = %.17g, %s = %.17g (rel %g)\n",        \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, (double)(rel));                          \
        }                                                                                          \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                                       \
    do {                                                                                           \
        const char *h_ = (haystack), *n_ = (needle);                                               \
        if (h_ && strstr(h_, n_)) {                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "%s:%d: expected \"%s\" to contain \"%s\"\n", __FILE__, __LINE__,     \
                    h_ ? h_ : "(null)", n_);                                                       \
        }                                                                                          \
    } while (0)

/* A whole file, NUL-terminated (its length in *len), or NULL when it cannot be read. */
static inline char *check_slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (len) *len = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len && buf) *len = (size_t)n;
    return buf;
}

static int check_report(const char *suite) {
    printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
