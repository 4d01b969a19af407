/* import_nsys.c — Nsight Systems' statistics reports as CSV → rl_record:
 *
 *   nsys stats --report cuda_gpu_kern_sum --format csv report.nsys-rep
 *     "Time (%)","Total Time (ns)","Instances","Avg (ns)","Med (ns)","Min (ns)","Max (ns)",
 *     "StdDev (ns)","Name": one row per kernel name → one point (median Med, min, max, mean Avg,
 *     standard deviation StdDev, runs Instances).
 *   nsys stats --report cuda_gpu_trace --format csv report.nsys-rep
 *     "Start (ns)","Duration (ns)","CorrId","GrdX","GrdY","GrdZ","BlkX","BlkY","BlkZ","Reg/Trd",
 *     ...,"Device","Ctx","Strm","Name": one row per launch (memory copies have no grid) → one
 *     point per kernel name and device, timed over its launches (import_kernels.c).
 *
 * Times are in the unit each header states in parentheses (ns by default; --timeunit usec, msec
 * or sec write "(us)", "(ms)", "(s)"). nsys prints "Processing [...] with [...]..." and a title
 * before the table when it writes to the console: lines before the header are skipped (at most
 * NS_MAX_PREAMBLE). Only kernels whose names match the filter are imported (--match; by default
 * attention kernels). The problem is the user's, as for ncu. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define NS_TOOL "an Nsight Systems report"
#define NS_MAX_PREAMBLE 16
#define NS_MAX_DEVICES 256

/* The scale of the unit in "Avg (ns)" (seconds per unit), 0 when unknown; *named = 1 when the
 * cell names the column `base` at all. */
static double time_unit(const char *cell, const char *base, int *named) {
    size_t b = strlen(base);
    *named = 0;
    if (strncmp(cell, base, b) != 0 || strncmp(cell + b, " (", 2) != 0) return 0;
    *named = 1;
    static const struct {
        const char *u;
        double s;
    } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6}, {"ms", 1e-3}, {"s", 1}};
    const char *u = cell + b + 2;
    size_t n = strlen(u);
    if (n < 2 || u[n - 1] != ')') return 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].u) == n - 1 && strncmp(u, units[i].u, n - 1) == 0) return units[i].s;
    return 0;
}

/* A time column: its index and scale, -1 when absent; -2 with an issue for an unknown unit. */
typedef struct ns_col {
    int i;
    double scale;
} ns_col;

static int find_time(const rl__csv_row *h, const char *base, size_t line, ns_col *c,
                     rl_rec_issues *is) {
    c->i = -1;
    for (size_t k = 0; k < h->n; k++) {
        int named = 0;
        double s = time_unit(h->cells[k], base, &named);
        if (!named) continue;
        if (s == 0) {
            char p[RL_REC_PATH_MAX], shown[64];
            rl_text_escape(shown, sizeof shown, h->cells[k]);
            snprintf(p, sizeof p, "line %zu, column %s", line, shown);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, p,
                             "unknown time unit; expected (ns), (us), (ms) or (s) as nsys "
                             "--timeunit writes them");
        }
        c->i = (int)k;
        c->scale = s;
        return 0;
    }
    return 0;
}

typedef struct ns_import {
    int trace; /* cuda_gpu_trace (one row per launch), else cuda_gpu_kern_sum */
    ns_col total, avg, med, min, max, sd, dur;
    int inst, name, grid[3], block[3], regs, device;
    /* matched rows */
    rl__launch *l;
    size_t n, cap;
    double (*sum)[7]; /* kern_sum: instances, med, min, max, avg, stddev, total (seconds) */
    char **names;     /* every name kept (owned), matched or not */
    double *other_s;  /* per kept name: its time, for the refusal; matched flag below */
    char *matched;
    size_t nnames, names_cap;
    rl__device dev[NS_MAX_DEVICES];
    char *dev_names[NS_MAX_DEVICES];
    size_t ndev;
    size_t rows, skipped_copies, inconsistent;
} ns_import;

static int grow(void **a, size_t n, size_t *cap, size_t size, size_t count_arrays) {
    (void)count_arrays;
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 64;
    void *b = realloc(*a, c * size);
    if (!b) return -1;
    *a = b;
    return 0;
}

/* Room for one more kept name (names, other_s, matched grow together). */
static int room_for_name(ns_import *im) {
    if (im->nnames < im->names_cap) return 0;
    size_t cap = im->names_cap;
    if (grow((void **)&im->names, im->nnames, &cap, sizeof *im->names, 0)) return -1;
    cap = im->names_cap;
    if (grow((void **)&im->other_s, im->nnames, &cap, sizeof *im->other_s, 0)) return -1;
    cap = im->names_cap;
    if (grow((void **)&im->matched, im->nnames, &cap, sizeof *im->matched, 0)) return -1;
    im->names_cap = im->names_cap ? im->names_cap * 2 : 64;
    return 0;
}

/* A number cell: 1 with *v, 0 when absent, -1 with an issue naming line and column. */
static int ns_number(const rl__csv_row *row, const rl__csv_row *h, int col, size_t line,
                     double *v, rl_rec_issues *is) {
    *v = 0;
    if (col < 0) return 0;
    rl__num_result r = rl__tool_number(row->cells[col], v);
    if (r == RL__NUM_OK) return 1;
    if (r == RL__NUM_ABSENT) return 0;
    char p[RL_REC_PATH_MAX], shown[64];
    rl_text_escape(shown, sizeof shown, h->cells[col]);
    snprintf(p, sizeof p, "line %zu, column %s", line, shown);
    return rl__number_issue(is, p, row->cells[col], r);
}

/* A launch count (grid or block dimension, registers per thread): ns_number, then a whole number in
 * 0 … 2^31 − 1 (CUDA's largest grid dimension), so the cast to int64_t is always defined. */
static int ns_count(const rl__csv_row *row, const rl__csv_row *h, int col, size_t line, double *v,
                    rl_rec_issues *is) {
    int r = ns_number(row, h, col, line, v, is);
    if (r != 1) return r;
    if (*v >= 0 && *v <= 2147483647.0 && *v == floor(*v)) return 1;
    char p[RL_REC_PATH_MAX], shown[64], got[64];
    rl_text_escape(shown, sizeof shown, h->cells[col]);
    rl_text_escape(got, sizeof got, row->cells[col]);
    snprintf(p, sizeof p, "line %zu, column %s", line, shown);
    *v = 0;
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                     "expected a whole number from 0 to 2147483647, got \"%s\"", got);
}

/* An issue at a row's cell: what was expected and what the cell holds (escaped). */
static int ns_required(const rl__csv_row *row, const rl__csv_row *h, int col, size_t line,
                       const char *what, rl_rec_issues *is) {
    char p[RL_REC_PATH_MAX], shown[64], got[64];
    rl_text_escape(shown, sizeof shown, h->cells[col]);
    rl_text_escape(got, sizeof got, row->cells[col] ? row->cells[col] : "");
    snprintf(p, sizeof p, "line %zu, column %s", line, shown);
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected %s, got \"%s\"", what, got);
}

/* The header's columns. 0, or -1 (issue). */
static int ns_columns(const rl__csv_row *h, size_t line, ns_import *im, rl_rec_issues *is) {
    im->name = rl__csv_find(h, "Name");
    im->inst = rl__csv_find(h, "Instances");
    if (find_time(h, "Duration", line, &im->dur, is) || find_time(h, "Total Time", line, &im->total, is) ||
        find_time(h, "Avg", line, &im->avg, is) || find_time(h, "Med", line, &im->med, is) ||
        find_time(h, "Min", line, &im->min, is) || find_time(h, "Max", line, &im->max, is) ||
        find_time(h, "StdDev", line, &im->sd, is))
        return -1;
    im->trace = im->dur.i >= 0;
    static const char *const g[3] = {"GrdX", "GrdY", "GrdZ"}, *const b[3] = {"BlkX", "BlkY", "BlkZ"};
    for (int k = 0; k < 3; k++) {
        im->grid[k] = rl__csv_find(h, g[k]);
        im->block[k] = rl__csv_find(h, b[k]);
    }
    im->regs = rl__csv_find(h, "Reg/Trd");
    im->device = rl__csv_find(h, "Device");
    if (!im->trace && (im->avg.i < 0 && im->med.i < 0)) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "line %zu", line);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "no \"Med (ns)\" or \"Avg (ns)\" column; expected the header of nsys "
                         "stats --report cuda_gpu_kern_sum --format csv");
    }
    return 0;
}

/* 1 when row h is a header of one of the two reports. */
static int ns_is_header(const rl__csv_row *h) {
    if (rl__csv_find(h, "Name") < 0) return 0;
    if (rl__csv_find(h, "Instances") >= 0) return 1;
    for (size_t k = 0; k < h->n; k++)
        if (strncmp(h->cells[k], "Duration (", 10) == 0) return 1;
    return 0;
}

/* The device of a cuda_gpu_trace row: "NVIDIA H100 80GB HBM3 (0)" → the name before " (N)". */
static const rl__device *ns_device(ns_import *im, const char *cell) {
    size_t n = strlen(cell);
    if (n > 3 && cell[n - 1] == ')') {
        const char *open = strrchr(cell, '(');
        if (open && open > cell && open[-1] == ' ') n = (size_t)(open - cell) - 1;
    }
    if (n == 0) return NULL;
    for (size_t i = 0; i < im->ndev; i++)
        if (strlen(im->dev_names[i]) == n && strncmp(im->dev_names[i], cell, n) == 0) return &im->dev[i];
    if (im->ndev == NS_MAX_DEVICES) return NULL;
    char *copy = rl__strndup(cell, n);
    if (!copy) return NULL;
    im->dev_names[im->ndev] = copy;
    im->dev[im->ndev].name = copy;
    return &im->dev[im->ndev++];
}

/* One cuda_gpu_trace row: a kernel launch (a copy or memset, without a grid, is passed over). */
static int ns_trace_row(rl__csv_row *row, const rl__csv_row *h, size_t line, const char *match,
                        ns_import *im, rl_rec_issues *is) {
    if (im->grid[0] >= 0 && row->cells[im->grid[0]][0] == '\0') {
        im->skipped_copies++;
        return 0;
    }
    double d = 0, v = 0;
    int got = ns_number(row, h, im->dur.i, line, &d, is);
    if (got < 0) return -1;
    if (!got || !(d > 0)) return ns_required(row, h, im->dur.i, line, "a positive duration", is);
    const char *name = row->cells[im->name];
    if (!name[0]) return ns_required(row, h, im->name, line, "the kernel's name", is);
    if (room_for_name(im)) return rl__oom(is);
    im->names[im->nnames] = (char *)name; /* the row's cell, taken */
    row->cells[im->name] = NULL; /* kept */
    im->other_s[im->nnames] = d * im->dur.scale;
    im->matched[im->nnames] = (char)rl__kernel_matches(name, match);
    im->nnames++;
    if (!im->matched[im->nnames - 1]) return 0;
    if (im->n == im->cap) {
        size_t cap = im->cap;
        if (grow((void **)&im->l, im->n, &cap, sizeof *im->l, 1)) return rl__oom(is);
        im->cap = im->cap ? im->cap * 2 : 64;
    }
    rl__launch *l = &im->l[im->n];
    memset(l, 0, sizeof *l);
    l->name = name;
    l->seconds = d * im->dur.scale;
    l->regs = l->smem = -1;
    l->facts = 1;
    for (int k = 0; k < 3; k++) {
        int a = ns_count(row, h, im->grid[k], line, &v, is);
        l->grid[k] = (int64_t)v;
        int b = ns_count(row, h, im->block[k], line, &v, is);
        l->block[k] = (int64_t)v;
        if (a < 0 || b < 0) return -1;
        l->facts &= a == 1 && b == 1;
    }
    int r = ns_count(row, h, im->regs, line, &v, is);
    if (r < 0) return -1;
    if (r) l->regs = (int64_t)v;
    if (im->device >= 0) l->device = ns_device(im, row->cells[im->device]);
    if (!isfinite(l->seconds)) return ns_required(row, h, im->dur.i, line, "a finite duration", is);
    im->n++;
    return 0;
}

/* One cuda_gpu_kern_sum row: a kernel name's statistics. */
static int ns_sum_row(rl__csv_row *row, const rl__csv_row *h, size_t line, const char *match,
                      ns_import *im, rl_rec_issues *is) {
    const ns_col *cols[6] = {&im->med, &im->min, &im->max, &im->avg, &im->sd, &im->total};
    double v[7] = {0};
    int got = ns_number(row, h, im->inst, line, &v[0], is);
    if (got < 0) return -1;
    if (im->inst >= 0 && (!got || v[0] < 1 || v[0] != floor(v[0]) || v[0] > (double)RL_EXACT_INT_MAX))
        return ns_required(row, h, im->inst, line, "a whole number of instances, 1 or more", is);
    for (int k = 0; k < 6; k++) {
        int g = ns_number(row, h, cols[k]->i, line, &v[k + 1], is);
        if (g < 0) return -1;
        v[k + 1] *= cols[k]->i >= 0 ? cols[k]->scale : 0;
        if (!isfinite(v[k + 1])) return ns_required(row, h, cols[k]->i, line, "a finite time", is);
    }
    double typical = im->med.i >= 0 ? v[1] : v[4];
    int tcol = im->med.i >= 0 ? im->med.i : im->avg.i;
    if (!(typical > 0)) return ns_required(row, h, tcol, line, "a positive time", is);
    const char *name = row->cells[im->name];
    if (!name[0]) return ns_required(row, h, im->name, line, "the kernel's name", is);
    /* nsys's own arithmetic: Total = Avg × Instances (to its rounding) */
    if (im->total.i >= 0 && im->avg.i >= 0 && im->inst >= 0 &&
        fabs(v[4] * v[0] - v[6]) > 1e-3 * v[6] + v[0] * im->avg.scale)
        im->inconsistent++;
    if (room_for_name(im)) return rl__oom(is);
    im->names[im->nnames] = (char *)name; /* the row's cell, taken */
    row->cells[im->name] = NULL;
    im->other_s[im->nnames] = v[6] > 0 ? v[6] : typical * (v[0] > 0 ? v[0] : 1);
    im->matched[im->nnames] = (char)rl__kernel_matches(name, match);
    if (im->matched[im->nnames]) {
        if (im->n == im->cap) {
            size_t cap = im->cap;
            if (grow((void **)&im->sum, im->n, &cap, sizeof *im->sum, 1)) return rl__oom(is);
            im->cap = im->cap ? im->cap * 2 : 64;
        }
        memcpy(im->sum[im->n], v, sizeof v);
        im->n++;
    }
    im->nnames++;
    return 0;
}

static void ns_free(ns_import *im) {
    for (size_t i = 0; i < im->nnames; i++) free(im->names[i]);
    for (size_t i = 0; i < im->ndev; i++) free(im->dev_names[i]);
    free(im->names);
    free(im->other_s);
    free(im->matched);
    free(im->l);
    free(im->sum);
}

/* The header (after at most NS_MAX_PREAMBLE lines of nsys's own text). 0, or -1 (issue). */
static int ns_header(const char *text, size_t len, size_t *pos, size_t *line, size_t *from,
                     rl__csv_row *h, rl_rec_issues *is) {
    for (int k = 0; k <= NS_MAX_PREAMBLE; k++) {
        size_t start = *pos;
        rl__line_at(text, start, from, line);
        int rc = rl__csv_next(text, len, pos, h);
        if (rc == 1 && ns_is_header(h)) return 0;
        rl__csv_free(h);
        if (rc <= 0) break;
    }
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "line 1",
                     "expected the header of nsys stats --report cuda_gpu_kern_sum (\"Time "
                     "(%%)\",\"Total Time (ns)\",\"Instances\",...,\"Name\") or cuda_gpu_trace "
                     "(\"Start (ns)\",\"Duration (ns)\",...,\"Name\") with --format csv within its "
                     "first %d lines", NS_MAX_PREAMBLE + 1);
}

/* Every data row. 0, or -1 (issue). */
static int ns_rows(const char *text, size_t len, size_t pos, size_t line, size_t from,
                   const rl__csv_row *h, const char *match, ns_import *im, rl_rec_issues *is) {
    rl__csv_row row = {0};
    for (;;) {
        size_t start = pos;
        int rc = rl__csv_next(text, len, &pos, &row);
        if (rc == 0) break;
        rl__line_at(text, start, &from, &line);
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "line %zu", line);
        if (rc < 0)
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                             "unterminated quoted cell, or a cell over %d bytes",
                             RL_RECORD_MAX_STRING * 4);
        int bad = 0;
        if (row.n == 1 && row.cells[0][0] == '\0') {
            /* a blank line */
        } else if (row.n != h->n) {
            bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                            "expected %zu cells like the header, got %zu", h->n, row.n);
        } else {
            im->rows++;
            bad = im->trace ? ns_trace_row(&row, h, line, match, im, is)
                            : ns_sum_row(&row, h, line, match, im, is);
        }
        rl__csv_free(&row);
        if (bad) return -1;
    }
    if (im->rows == 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no rows after the header");
    return 0;
}

/* kern_sum: one point per matched row. */
static int ns_sum_points(rl_record *r, const rl_import_opts *o, ns_import *im, rl_rec_issues *is) {
    const char **names = malloc((im->n ? im->n : 1) * sizeof *names);
    if (!names) return rl__oom(is);
    size_t m = 0;
    for (size_t i = 0; i < im->nnames; i++)
        if (im->matched[i]) names[m++] = im->names[i];
    int bad = rl__kernel_require_problem(o, names, m, NS_TOOL, is);
    for (size_t i = 0; !bad && i < m; i++) {
        const double *v = im->sum[i];
        rl_rec_point *pt = rl_record_add_point(r);
        if (!pt) {
            bad = rl__oom(is);
            break;
        }
        rl__kernel_problem(pt, o, names[i]);
        pt->traffic_model = o->traffic_model;
        pt->time_median_s = im->med.i >= 0 ? v[1] : v[4];
        pt->time_min_s = v[2];
        pt->time_max_s = v[3];
        pt->time_mean_s = v[4];
        pt->time_stddev_s = im->sd.i >= 0 ? v[5] : -1;
        pt->runs = (int64_t)v[0];
        rl_workload w;
        if (rl_workload_compute(&pt->problem, &w, NULL) == RL_OK) pt->flops = w.flops;
        if (rl_rec_set_clean_string(&pt->kernel, names[i])) bad = rl__oom(is);
    }
    free(names);
    return bad ? -1 : 0;
}

static int ns_notes(rl_record *r, const rl_import_opts *o, const ns_import *im) {
    char filter[160], note[900];
    rl__kernel_filter_text(o->match, filter, sizeof filter);
    if (im->trace)
        snprintf(note, sizeof note,
                 "Nsight Systems cuda_gpu_trace (nsys stats --format csv): %zu rows, %zu memory "
                 "operations passed over; imported the %zu launches of kernels with %s. One point "
                 "per kernel name (and device): timing over its launches' Duration (median, min, "
                 "max, mean, sample standard deviation); grid, block and registers as the point's "
                 "label. FLOPs: the model's F for the problem; bytes: the %s traffic model. The "
                 "problem is the one given to rooflab import.",
                 im->rows, im->skipped_copies, im->n, filter, rl_rec_traffic_name(o->traffic_model));
    else
        snprintf(note, sizeof note,
                 "Nsight Systems cuda_gpu_kern_sum (nsys stats --format csv): %zu kernel names; "
                 "imported the %zu with %s. One point per row: median %s, min Min, max Max, mean "
                 "Avg, standard deviation StdDev, runs Instances (times in the header's unit). "
                 "FLOPs: the model's F for the problem; bytes: the %s traffic model. The problem "
                 "is the one given to rooflab import.",
                 im->rows, im->n, filter, im->med.i >= 0 ? "Med" : "Avg (no Med column)",
                 rl_rec_traffic_name(o->traffic_model));
    return rl_rec_set_clean_string(&r->provenance.notes, note);
}

rl_status rl__import_nsys(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                          rl_rec_issues *is) {
    rl__skip_bom(&text, &len);
    ns_import im = {0};
    rl__csv_row h = {0};
    size_t pos = 0, line = 1, from = 0;
    int bad = rl__import_common(r, o, "Nsight Systems stats CSV (imported by rooflab import "
                                      "nsys-csv)", "unknown (not in the nsys report)", NULL, NULL)
                  ? rl__oom(is)
                  : 0;
    if (!bad) bad = ns_header(text, len, &pos, &line, &from, &h, is);
    size_t header_line = line;
    if (!bad) bad = ns_columns(&h, header_line, &im, is);
    if (!bad) bad = ns_rows(text, len, pos, line, from, &h, o->match, &im, is);
    if (!bad && im.n == 0) {
        double *s = im.other_s;
        bad = rl__kernel_none_matched((const char *const *)im.names, s, im.nnames, o->match, "Name", is);
    }
    if (!bad) bad = im.trace ? rl__kernel_points(r, o, im.l, im.n, NS_TOOL, is)
                             : ns_sum_points(r, o, &im, is);
    if (!bad && im.inconsistent)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INCONSISTENT, "Total Time",
                  "%zu rows whose Total Time is not Avg × Instances: edited by hand?", im.inconsistent);
    if (!bad && ns_notes(r, o, &im)) bad = rl__oom(is);
    rl__csv_free(&h);
    ns_free(&im);
    return bad ? RL_ERR_INVALID : RL_OK;
}
