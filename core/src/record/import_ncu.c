/* import_ncu.c — `ncu --csv --page raw` → rl_record: one point per kernel name (its launches give
 * the timing spread). Time gpu__time_duration.sum; bytes dram__bytes_read.sum +
 * dram__bytes_write.sum (counter-measured); FLOPs from the SASS thread-instruction counters
 * (add + mul + 2·fma, for h, f and d) plus tensor-pipe ops sm__ops_path_tensor_src_*.sum (taken as
 * FLOPs) where they were collected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define NCU_MAX_TENSOR_COLS 32 /* sm__ops_path_tensor_src_*.sum columns read */

/* Scale of an ncu unit: "byte" "Kbyte" "Mbyte" "Gbyte"; "nsecond" "usecond" "msecond" "second"
 * "ns" "us" "ms" "usec" "msec"; "inst" "" "ops" (1). Returns 0 for a unit it does not know. */
static double ncu_unit_scale(const char *u, int is_time) {
    if (!u || !u[0]) return is_time ? 1e-9 : 1; /* ncu's defaults: nanoseconds, plain counts */
    static const struct {
        const char *u;
        double s;
    } units[] = {{"byte", 1},          {"Kbyte", 1e3},        {"Mbyte", 1e6},
                 {"Gbyte", 1e9},       {"Tbyte", 1e12},       {"KB", 1e3},
                 {"MB", 1e6},          {"GB", 1e9},           {"B", 1},
                 {"KiB", 1024.0},      {"MiB", 1048576.0},    {"GiB", 1073741824.0},
                 {"nsecond", 1e-9},    {"usecond", 1e-6},     {"msecond", 1e-3},
                 {"second", 1},        {"ns", 1e-9},          {"us", 1e-6},
                 {"usec", 1e-6},       {"ms", 1e-3},          {"msec", 1e-3},
                 {"s", 1},             {"inst", 1},           {"ops", 1},
                 {"FLOP", 1},          {"Kinst", 1e3},        {"Minst", 1e6},
                 {"Ginst", 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(u, units[i].u) == 0) return units[i].s;
    return 0;
}

/* "1,234,567.5" → 1234567.5; returns 0 and leaves *out alone for "n/a" and friends. */
static int ncu_number(const char *s, double *out) {
    char buf[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        if (*s != ',' && *s != ' ') buf[n++] = *s;
    buf[n] = '\0';
    if (!n) return 0;
    char *end = NULL;
    double v = strtod(buf, &end);
    if (!end || *end || !isfinite(v) || v < 0) return 0;
    *out = v;
    return 1;
}

typedef struct ncu_kernel {
    char *name;
    double *time_s, *bytes, *flops;
    size_t n, cap;
    int has_tensor;
} ncu_kernel;

static int push3(ncu_kernel *k, double t, double b, double f) {
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 8;
        double *a = realloc(k->time_s, cap * sizeof *a);
        if (!a) return -1;
        k->time_s = a;
        a = realloc(k->bytes, cap * sizeof *a);
        if (!a) return -1;
        k->bytes = a;
        a = realloc(k->flops, cap * sizeof *a);
        if (!a) return -1;
        k->flops = a;
        k->cap = cap;
    }
    k->time_s[k->n] = t;
    k->bytes[k->n] = b;
    k->flops[k->n] = f;
    k->n++;
    return 0;
}

/* The columns the import reads, and the units of the time and byte columns. */
typedef struct ncu_cols {
    int need[4]; /* NCU_NEED order */
    int sass[3][3];
    int tensor[NCU_MAX_TENSOR_COLS];
    size_t ntensor;
    int dev, ccmaj, ccmin, id;
    double t_scale, b_scale[2];
} ncu_cols;

static const char *const NCU_NEED[4] = {"Kernel Name", "gpu__time_duration.sum",
                                        "dram__bytes_read.sum", "dram__bytes_write.sum"};

typedef struct ncu_import {
    ncu_kernel *ks;
    size_t nk;
    char devname[128], cc[16];
} ncu_import;

/* Skip ncu's "==PROF==" / "==WARNING==" log lines and blank lines before the header. */
static size_t skip_log_lines(const char *text, size_t len) {
    size_t pos = 0;
    for (;;) {
        while (pos < len && (text[pos] == '\n' || text[pos] == '\r')) pos++;
        if (!(pos + 1 < len && text[pos] == '=' && text[pos + 1] == '=')) return pos;
        while (pos < len && text[pos] != '\n') pos++;
    }
}

/* FLOP counters: SASS thread instructions (add, mul: 1 FLOP; fma: 2) and tensor-pipe ops.
 * Returns 1 when any was collected. */
static int find_flop_columns(const rl__csv_row *h, ncu_cols *c) {
    static const char *const prec[] = {"h", "f", "d"};
    static const char *const ops[] = {"add", "mul", "fma"};
    int any = 0;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++) {
            char m[96];
            snprintf(m, sizeof m, "sm__sass_thread_inst_executed_op_%s%s_pred_on.sum", prec[p], ops[q]);
            c->sass[p][q] = rl__csv_find(h, m);
            if (c->sass[p][q] < 0) {
                snprintf(m, sizeof m, "smsp__sass_thread_inst_executed_op_%s%s_pred_on.sum", prec[p],
                         ops[q]);
                c->sass[p][q] = rl__csv_find(h, m);
            }
            if (c->sass[p][q] >= 0) any = 1;
        }
    c->ntensor = 0;
    for (size_t i = 0; i < h->n && c->ntensor < NCU_MAX_TENSOR_COLS; i++)
        if (strncmp(h->cells[i], "sm__ops_path_tensor_src_", 24) == 0 &&
            strstr(h->cells[i], ".sum") && !strstr(h->cells[i], ".sum.")) {
            c->tensor[c->ntensor++] = (int)i;
            any = 1;
        }
    return any;
}

/* The header's columns; 0, or -1 with the missing ones named. */
static int find_columns(const rl__csv_row *h, ncu_cols *c, rl_rec_issues *is) {
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        c->need[i] = rl__csv_find(h, NCU_NEED[i]);
        if (c->need[i] >= 0) continue;
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row 1, column %s", NCU_NEED[i]);
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                        "missing; expected it in the header (collect it with ncu --metrics %s)",
                        i == 0 ? "..." : NCU_NEED[i]);
    }
    if (bad) return -1;
    if (!find_flop_columns(h, c))
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                         "no FLOP counters; expected sm__sass_thread_inst_executed_op_{h,f,d}"
                         "{add,mul,fma}_pred_on.sum or sm__ops_path_tensor_src_*.sum columns");
    c->dev = rl__csv_find(h, "device__attribute_display_name");
    c->ccmaj = rl__csv_find(h, "device__attribute_compute_capability_major");
    c->ccmin = rl__csv_find(h, "device__attribute_compute_capability_minor");
    c->id = rl__csv_find(h, "ID");
    return 0;
}

/* ncu writes a units row right after the header (its ID cell is empty): the scales of the time
 * and byte columns. 0, or -1 for a unit it does not know. */
static int read_units(const char *text, size_t len, size_t *pos, size_t *rowno, ncu_cols *c,
                      rl_rec_issues *is) {
    rl__csv_row units = {0};
    size_t save = *pos;
    if (rl__csv_next(text, len, pos, &units) == 1 && c->id >= 0 && (size_t)c->id < units.n &&
        units.cells[c->id][0] == '\0') {
        (*rowno)++;
    } else {
        rl__csv_free(&units);
        *pos = save;
    }
    c->t_scale = ncu_unit_scale(units.n > (size_t)c->need[1] ? units.cells[c->need[1]] : "", 1);
    for (int i = 0; i < 2; i++)
        c->b_scale[i] =
            ncu_unit_scale(units.n > (size_t)c->need[2 + i] ? units.cells[c->need[2 + i]] : "", 0);
    rl__csv_free(&units);
    if (c->t_scale != 0 && c->b_scale[0] != 0 && c->b_scale[1] != 0) return 0;
    return rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, "row 2",
                     "unknown unit for gpu__time_duration.sum or dram__bytes_*.sum; expected "
                     "nsecond, usecond, msecond, second / byte, Kbyte, Mbyte, Gbyte");
}

/* The FLOPs of one row: add + mul + 2·fma over h, f, d, plus tensor-pipe ops. */
static double row_flops(const rl__csv_row *row, const ncu_cols *c, int *has_tensor) {
    double f = 0, v;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            if (c->sass[p][q] >= 0 && ncu_number(row->cells[c->sass[p][q]], &v))
                f += (q == 2 ? 2.0 : 1.0) * v;
    *has_tensor = 0;
    for (size_t i = 0; i < c->ntensor; i++)
        if (ncu_number(row->cells[c->tensor[i]], &v) && v > 0) {
            f += v;
            *has_tensor = 1;
        }
    return f;
}

/* Time (s) and DRAM bytes of one row; 0, or -1 with an issue. */
static int row_time_bytes(const rl__csv_row *row, const ncu_cols *c, size_t rowno, double *t,
                          double *bytes, rl_rec_issues *is) {
    double b[2] = {0, 0};
    for (int i = 1; i < 4; i++) {
        double v;
        const char *cell = row->cells[c->need[i]];
        if (!ncu_number(cell, &v) || (i == 1 && v <= 0)) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "row %zu, column %s", rowno, NCU_NEED[i]);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected a %s number, got \"%.30s\"",
                             i == 1 ? "positive" : "non-negative", cell);
        }
        if (i == 1)
            *t = v * c->t_scale;
        else
            b[i - 2] = v * c->b_scale[i - 2];
    }
    *bytes = b[0] + b[1];
    return 0;
}

/* The kernel named `name` (added when new); NULL when out of memory. */
static ncu_kernel *kernel_named(ncu_import *im, const char *name) {
    for (size_t k = 0; k < im->nk; k++)
        if (strcmp(im->ks[k].name, name) == 0) return &im->ks[k];
    ncu_kernel *nks = realloc(im->ks, (im->nk + 1) * sizeof *nks);
    if (!nks) return NULL;
    im->ks = nks;
    ncu_kernel *k = &im->ks[im->nk];
    memset(k, 0, sizeof *k);
    k->name = rl__strndup(name, strlen(name));
    if (!k->name) return NULL;
    im->nk++;
    return k;
}

/* Device name and compute capability from the first row that has them. */
static void row_device(const rl__csv_row *row, const ncu_cols *c, ncu_import *im) {
    if (c->dev >= 0 && !im->devname[0])
        snprintf(im->devname, sizeof im->devname, "%.120s", row->cells[c->dev]);
    if (c->ccmaj >= 0 && c->ccmin >= 0 && !im->cc[0])
        snprintf(im->cc, sizeof im->cc, "%.6s.%.6s", row->cells[c->ccmaj], row->cells[c->ccmin]);
}

/* One data row: 0 taken or passed over (with an issue), -1 out of memory. */
static int ncu_row(const rl__csv_row *row, const rl__csv_row *header, const ncu_cols *c,
                   size_t rowno, ncu_import *im, rl_rec_issues *is) {
    if (row->n == 1 && row->cells[0][0] == '\0') return 0;
    if (row->cells[0][0] == '=' && row->cells[0][1] == '=') return 0;
    if (row->n != header->n) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu", rowno);
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected %zu columns like the header, got %zu",
                  header->n, row->n);
        return 0;
    }
    double t = 0, bytes = 0;
    if (row_time_bytes(row, c, rowno, &t, &bytes, is) != 0) return 0;
    int has_tensor = 0;
    double f = row_flops(row, c, &has_tensor);
    row_device(row, c, im);
    ncu_kernel *k = kernel_named(im, row->cells[c->need[0]]);
    if (!k || push3(k, t, bytes, f) != 0) return rl__oom(is);
    k->has_tensor |= has_tensor;
    return 0;
}

/* Every data row; 0, or -1 (an issue added). */
static int ncu_rows(const char *text, size_t len, size_t pos, size_t rowno,
                    const rl__csv_row *header, const ncu_cols *c, ncu_import *im,
                    rl_rec_issues *is) {
    rl__csv_row row = {0};
    int rc;
    while ((rc = rl__csv_next(text, len, &pos, &row)) == 1) {
        rowno++;
        int bad = ncu_row(&row, header, c, rowno, im, is);
        rl__csv_free(&row);
        if (bad) return -1;
        if (im->nk > RL_RECORD_MAX_POINTS) break;
    }
    if (rc < 0) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu", rowno + 1);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "unterminated quoted cell (or out of memory)");
    }
    if (im->nk == 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no kernel rows after the header");
    return 0;
}

static int ncu_fields(rl_record *r, const rl_import_opts *o, const ncu_import *im) {
    int bad = rl__import_common(r, o, "Nsight Compute CSV (ncu --csv --page raw; imported by rooflab)",
                                im->devname[0] ? im->devname : "unknown (not in the ncu export)",
                                NULL, NULL);
    if (im->cc[0]) bad |= rl_rec_set_clean_string(&r->hardware.compute_capability, im->cc);
    bad |= rl_rec_set_clean_string(
        &r->provenance.notes,
        "One point per kernel name; timing over its launches (median, min, max). Bytes: "
        "dram__bytes_read.sum + dram__bytes_write.sum (counter-measured). FLOPs: "
        "sm__sass_thread_inst_executed_op_{h,f,d}{add,mul} + 2 × {h,f,d}fma, plus "
        "sm__ops_path_tensor_src_*.sum taken as FLOPs where collected. The problem is not in "
        "the export: it is the one given to rooflab import.");
    return bad;
}

/* One point per kernel with floating-point work; 0, or -1 when out of memory. */
static int ncu_point(rl_record *r, const rl_import_opts *o, ncu_kernel *k, rl_rec_issues *is) {
    size_t n = k->n;
    double flops = rl_rec_median(k->flops, n);
    if (!(flops > 0)) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "kernel \"%.60s\"", k->name);
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p,
                  "skipped: its FLOP counters are all zero (a copy or memset kernel, or tensor work "
                  "without sm__ops_path_tensor_src_*.sum collected)");
        return 0;
    }
    rl_rec_point *pt = rl_record_add_point(r);
    if (!pt) return rl__oom(is);
    pt->problem = o->problem;
    pt->traffic_model = o->traffic_model;
    double tmin = k->time_s[0], tmax = k->time_s[0];
    for (size_t i = 1; i < n; i++) {
        if (k->time_s[i] < tmin) tmin = k->time_s[i];
        if (k->time_s[i] > tmax) tmax = k->time_s[i];
    }
    pt->time_median_s = rl_rec_median(k->time_s, n);
    pt->time_min_s = tmin;
    pt->time_max_s = tmax;
    pt->runs = (int64_t)n;
    pt->measured_bytes = rl_rec_median(k->bytes, n);
    pt->flops = flops;
    if (rl_rec_set_clean_string(&pt->kernel, k->name)) rl__oom(is);
    return 0;
}

static void ncu_import_free(ncu_import *im) {
    for (size_t k = 0; k < im->nk; k++) {
        free(im->ks[k].name);
        free(im->ks[k].time_s);
        free(im->ks[k].bytes);
        free(im->ks[k].flops);
    }
    free(im->ks);
}

/* Header, units row, data rows. 0, or -1 (an issue added). */
static int ncu_read(const char *text, size_t len, ncu_import *im, rl_rec_issues *is) {
    size_t pos = skip_log_lines(text, len), rowno = 1;
    rl__csv_row header = {0};
    ncu_cols c = {0};
    int bad = 0;
    if (rl__csv_next(text, len, &pos, &header) <= 0) {
        rl__csv_free(&header);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                         "expected the header of `ncu --csv --page raw` (\"ID\",...,\"Kernel "
                         "Name\",...)");
    }
    bad = find_columns(&header, &c, is);
    if (!bad) bad = read_units(text, len, &pos, &rowno, &c, is);
    if (!bad) bad = ncu_rows(text, len, pos, rowno, &header, &c, im, is);
    rl__csv_free(&header);
    return bad;
}

rl_status rl__import_ncu(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                         rl_rec_issues *is) {
    ncu_import im = {0};
    rl_status st = RL_ERR_INVALID;
    if (ncu_read(text, len, &im, is) == 0) {
        if (ncu_fields(r, o, &im)) rl__oom(is);
        for (size_t k = 0; k < im.nk; k++)
            if (ncu_point(r, o, &im.ks[k], is) != 0) break;
        if (r->point_count == 0)
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                      "no kernel with floating-point work; expected FLOP counters above zero");
        st = RL_OK;
    }
    ncu_import_free(&im);
    return st;
}
