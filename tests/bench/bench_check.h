/* bench_check.h — the checks of the tests in tests/bench: CHECK(cond, printf args) counts and
 * prints a failure and goes on; bench_check_report ends main (0 when nothing failed). */
#ifndef ROOFLAB_TESTS_BENCH_CHECK_H
#define ROOFLAB_TESTS_BENCH_CHECK_H

#include <stdio.h>

static int failures = 0;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* "<what>: all checks passed" on stdout and 0, or the failure count on stderr and 1. */
static inline int bench_check_report(const char *what) {
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("%s: all checks passed\n", what);
    return 0;
}

#endif
