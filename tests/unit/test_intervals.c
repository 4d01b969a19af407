/* The interval table (core/src/intervals.c) against the held-out published data: every record in
 * data/published (the directory given as argv[1]), every point marked held-out, predicted as
 * `rooflab check-model` predicts it (rl_rec_point_predict with its profile; production decode
 * points also with the default, no --kernel); per band the signed errors' 10th and 90th
 * percentiles (type 7: linear between order statistics at q·(n − 1)) → factors 1/(1 + p90),
 * 1/(1 + p10). The committed table must match (to 5e-4) in points and factors.
 * `test_intervals DIR --print` prints the table's GENERATED block instead. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rooflab/record.h"
#include "rooflab/rooflab.h"

#define MAX_BANDS 16
#define MAX_ERRS 1024

typedef struct band {
    char name[32];
    double err[MAX_ERRS];
    size_t n;
} band;
static band bands[MAX_BANDS];
static size_t nbands;

static void add(const char *name, double e) {
    size_t i = 0;
    while (i < nbands && strcmp(bands[i].name, name) != 0) i++;
    if (i == nbands) {
        if (nbands == MAX_BANDS) return;
        snprintf(bands[nbands++].name, sizeof bands[0].name, "%s", name);
    }
    if (bands[i].n < MAX_ERRS) bands[i].err[bands[i].n++] = e;
}

static int by_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *v, size_t n, double q) { /* type 7 */
    const double pos = q * (double)(n - 1);
    const size_t lo = (size_t)floor(pos);
    if (lo + 1 >= n) return v[n - 1];
    return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

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
    if (buf) buf[n] = 0;
    *len = (size_t)n;
    return buf;
}

static void load(const char *path) {
    size_t len;
    char *text = slurp(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    rl_record *rec = NULL;
    rl_rec_issues issues = {0};
    const rl_status st = rl_record_parse(text, len, &rec, &issues);
    free(text);
    rl_rec_issues_free(&issues);
    CHECK(st == RL_OK);
    if (st != RL_OK) return;
    for (size_t i = 0; i < rec->point_count; i++) {
        const rl_rec_point *pt = &rec->points[i];
        if (pt->set != RL_REC_SET_HELD_OUT) continue;
        const rl_rec_hardware *hw = pt->hardware ? pt->hardware : &rec->hardware;
        rl_rec_prediction pr;
        rl_rec_point_predict(pt, hw, &pr);
        if (pr.status == RL_REC_PRED_OK) add(rl_kernel_name(pr.prediction.kernel), pr.error);
        if (pt->production_decode) {
            rl_rec_point as_default = *pt;
            as_default.has_profile = 1;
            as_default.profile = RL_KERNEL_GENERIC;
            rl_rec_point_predict(&as_default, hw, &pr);
            if (pr.status == RL_REC_PRED_OK) add("default", pr.error);
        }
    }
    rl_record_free(rec);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const int print = argc > 2 && strcmp(argv[2], "--print") == 0;
    DIR *dir = opendir(argv[1]);
    CHECK(dir != NULL);
    if (!dir) return check_report("test_intervals");
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dir))) {
        const size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        load(path);
        files++;
    }
    closedir(dir);
    CHECK(files >= 3);
    /* bands in name order, so --print is stable */
    for (size_t i = 0; i < nbands; i++)
        for (size_t j = i + 1; j < nbands; j++)
            if (strcmp(bands[j].name, bands[i].name) < 0) {
                band t = bands[i];
                bands[i] = bands[j];
                bands[j] = t;
            }
    for (size_t i = 0; i < nbands; i++) {
        band *b = &bands[i];
        qsort(b->err, b->n, sizeof b->err[0], by_double);
        const double lo = 1.0 / (1.0 + quantile(b->err, b->n, 0.90));
        const double hi = 1.0 / (1.0 + quantile(b->err, b->n, 0.10));
        if (print) {
            printf("    {\"%s\", %zu, %.4f, %.4f},\n", b->name, b->n, lo, hi);
            continue;
        }
        double got_lo, got_hi;
        const int pts = rl_prediction_interval(b->name, &got_lo, &got_hi);
        if (pts != (int)b->n) fprintf(stderr, "band %s: table %d points, data %zu\n", b->name, pts, b->n);
        CHECK(pts == (int)b->n);
        if (b->n >= RL_INTERVAL_MIN_POINTS) {
            CHECK_CLOSE(got_lo, lo, 5e-4);
            CHECK_CLOSE(got_hi, hi, 5e-4);
            CHECK(got_lo <= 1.0 / (1.0 + b->err[0]) && got_hi >= 1.0 / (1.0 + b->err[b->n - 1]));
        } else {
            CHECK(got_lo == 0 && got_hi == 0); /* too few points: no band */
        }
    }
    if (print) return 0;
    return check_report("test_intervals");
}
