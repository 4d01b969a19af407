/* import_ncu.c — `ncu --csv --page raw` (or the details page, through import_ncu_details.c) →
 * rl_record: one point per kernel name (its launches give the timing spread). Time
 * gpu__time_duration.sum; DRAM bytes dram__bytes.sum or dram__bytes_read.sum +
 * dram__bytes_write.sum (counter-measured); L2 bytes lts__t_bytes.sum where collected; FLOPs from
 * the SASS thread-instruction counters (add + mul + 2·fma, for h, f and d) plus tensor-pipe ops
 * sm__ops_path_tensor_src_*.sum (taken as FLOPs) where they were collected. The problem must be
 * given (the export does not carry it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define NCU_MAX_TENSOR_COLS 32 /* sm__ops_path_tensor_src_*.sum columns read */

/* One data row as read: its kernel name (malloc'd), time, DRAM and L2 bytes, FLOPs. */
typedef struct ncu_launch {
    char *name;
    double t, bytes, l2, flops;
    int has_tensor;
} ncu_launch;

/* The launches of one kernel name: v[NCU_VT] times, v[NCU_VB] DRAM bytes ... one each. */
enum { NCU_VT, NCU_VB, NCU_VL2, NCU_VF, NCU_NV };
typedef struct ncu_kernel {
    const char *name; /* its first row's */
    double *v[NCU_NV];
    size_t n, cap;
    int has_tensor;
} ncu_kernel;

static int push_launch(ncu_kernel *k, const ncu_launch *l) {
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 8;
        for (int i = 0; i < NCU_NV; i++) {
            double *a = realloc(k->v[i], cap * sizeof *a);
            if (!a) return -1;
            k->v[i] = a;
        }
        k->cap = cap;
    }
    k->v[NCU_VT][k->n] = l->t;
    k->v[NCU_VB][k->n] = l->bytes;
    k->v[NCU_VL2][k->n] = l->l2;
    k->v[NCU_VF][k->n] = l->flops;
    k->n++;
    return 0;
}

/* The columns the import reads, and the units of the time and byte columns. */
typedef struct ncu_cols {
    int need[2];   /* NCU_NEED order */
    int bytes[2];  /* dram__bytes.sum (and -1), or dram__bytes_read.sum, dram__bytes_write.sum */
    int l2;        /* lts__t_bytes.sum, or -1 */
    int sass[3][3];
    int tensor[NCU_MAX_TENSOR_COLS];
    size_t ntensor;
    int dev, ccmaj, ccmin, id;
    double t_scale, b_scale[2], l2_scale;
    double sass_scale[3][3], tensor_scale[NCU_MAX_TENSOR_COLS]; /* "inst", "Kinst" ... */
} ncu_cols;

static const char *const NCU_NEED[2] = {"Kernel Name", "gpu__time_duration.sum"};
#define NCU_DRAM_SUM "dram__bytes.sum"
#define NCU_DRAM_READ "dram__bytes_read.sum"
#define NCU_DRAM_WRITE "dram__bytes_write.sum"
#define NCU_L2 "lts__t_bytes.sum"

typedef struct ncu_import {
    ncu_launch *rows; /* every data row in order, grouped by name afterwards (a sort) */
    size_t nrows, cap;
    ncu_kernel *ks;   /* one per kernel name, in order of first appearance */
    size_t nk;
    char devname[128], cc[16];
    char notes[2048];  /* the counters read, by name */
    int has_l2;
    int details;       /* read from ncu's details page (turned into raw rows) */
} ncu_import;

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
    for (size_t i = 0; i < h->n; i++)
        if (strncmp(h->cells[i], "sm__ops_path_tensor_src_", 24) == 0 &&
            strstr(h->cells[i], ".sum") && !strstr(h->cells[i], ".sum.")) {
            if (c->ntensor == NCU_MAX_TENSOR_COLS) return -1;
            c->tensor[c->ntensor++] = (int)i;
            any = 1;
        }
    return any;
}

/* DRAM bytes: dram__bytes.sum (read + write in one metric), else the read and write pair; L2
 * bytes lts__t_bytes.sum where collected. 0, or -1 with the missing column named. */
static int find_byte_columns(const rl__csv_row *h, ncu_cols *c, rl_rec_issues *is) {
    int sum = rl__csv_find(h, NCU_DRAM_SUM), rd = rl__csv_find(h, NCU_DRAM_READ),
        wr = rl__csv_find(h, NCU_DRAM_WRITE);
    c->l2 = rl__csv_find(h, NCU_L2);
    c->bytes[0] = sum >= 0 ? sum : rd;
    c->bytes[1] = sum >= 0 ? -1 : wr;
    if (sum >= 0 || (rd >= 0 && wr >= 0)) return 0;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "row 1, column %s", rd < 0 ? NCU_DRAM_READ : NCU_DRAM_WRITE);
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                     "missing; expected " NCU_DRAM_SUM ", or " NCU_DRAM_READ " and "
                     NCU_DRAM_WRITE ", in the header (collect them with ncu --metrics "
                     NCU_DRAM_SUM ")");
}

/* The header's columns; 0, or -1 with the missing ones named. */
static int find_columns(const rl__csv_row *h, ncu_cols *c, rl_rec_issues *is) {
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        c->need[i] = rl__csv_find(h, NCU_NEED[i]);
        if (c->need[i] >= 0) continue;
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row 1, column %s", NCU_NEED[i]);
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                        "missing; expected it in the header (collect it with ncu --metrics %s)",
                        i == 0 ? "..." : NCU_NEED[i]);
    }
    if (find_byte_columns(h, c, is) != 0 || bad) return -1;
    int flop_cols = find_flop_columns(h, c);
    if (flop_cols < 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "row 1",
                         "more than %d sm__ops_path_tensor_src_*.sum columns; the import reads at "
                         "most %d (collect fewer tensor metrics)",
                         NCU_MAX_TENSOR_COLS, NCU_MAX_TENSOR_COLS);
    if (!flop_cols)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                         "no FLOP counters; expected sm__sass_thread_inst_executed_op_{h,f,d}"
                         "{add,mul,fma}_pred_on.sum or sm__ops_path_tensor_src_*.sum columns");
    c->dev = rl__csv_find(h, "device__attribute_display_name");
    c->ccmaj = rl__csv_find(h, "device__attribute_compute_capability_major");
    c->ccmin = rl__csv_find(h, "device__attribute_compute_capability_minor");
    c->id = rl__csv_find(h, "ID");
    return 0;
}

/* A column's scale from the units row `u` (no cells when there is none); 0 with an issue when
 * its unit is not one of `dim`'s (a rate such as "byte/second" on an amount, "Kbyte" on time). */
static double column_scale(const rl__csv_row *u, const rl__csv_row *h, int col, rl__ncu_dim dim,
                           size_t rowno, rl_rec_issues *is) {
    const char *unit = u->n > (size_t)col ? u->cells[col] : "";
    double sc = rl__ncu_unit_scale(unit, dim);
    if (sc != 0) return sc;
    char p[RL_REC_PATH_MAX], shown[48];
    snprintf(p, sizeof p, "row %zu, column %.*s", rowno, (int)rl__utf8_clip(h->cells[col], 60),
             h->cells[col]);
    rl_text_escape(shown, sizeof shown, unit);
    rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, p, "unknown unit \"%s\"%s; expected %s", shown,
              strchr(unit, '/') ? " (a rate, not an amount)" : "", rl__ncu_unit_expected(dim));
    return 0;
}

/* Every read column's scale from the units row; 0, or -1 when a unit is refused. */
static int column_scales(const rl__csv_row *u, const rl__csv_row *h, size_t rowno, ncu_cols *c,
                         rl_rec_issues *is) {
    int bad = 0;
    c->t_scale = column_scale(u, h, c->need[1], RL__NCU_TIME, rowno, is);
    bad |= c->t_scale == 0;
    for (int i = 0; i < 2; i++) {
        c->b_scale[i] = c->bytes[i] < 0 ? 1 : column_scale(u, h, c->bytes[i], RL__NCU_BYTES, rowno, is);
        bad |= c->b_scale[i] == 0;
    }
    c->l2_scale = c->l2 < 0 ? 1 : column_scale(u, h, c->l2, RL__NCU_BYTES, rowno, is);
    bad |= c->l2_scale == 0;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            if (c->sass[p][q] >= 0) {
                c->sass_scale[p][q] = column_scale(u, h, c->sass[p][q], RL__NCU_COUNT, rowno, is);
                bad |= c->sass_scale[p][q] == 0;
            }
    for (size_t i = 0; i < c->ntensor; i++) {
        c->tensor_scale[i] = column_scale(u, h, c->tensor[i], RL__NCU_COUNT, rowno, is);
        bad |= c->tensor_scale[i] == 0;
    }
    return bad ? -1 : 0;
}

/* ncu writes a units row right after the header (its ID cell is empty): the scale of every
 * column read. 0, or -1 for a unit refused. */
static int read_units(const char *text, size_t len, size_t *pos, size_t *rowno,
                      const rl__csv_row *h, ncu_cols *c, rl_rec_issues *is) {
    rl__csv_row units = {0};
    /* blank lines between the header and the units row are passed over (counted as rows), so
     * the units row is never read as data */
    size_t save = *pos, blank_pos = *pos, blanks = 0;
    while (rl__csv_next(text, len, &blank_pos, &units) == 1 && units.n == 1 &&
           units.cells[0][0] == '\0') {
        rl__csv_free(&units);
        *pos = save = blank_pos;
        blanks++;
    }
    rl__csv_free(&units);
    *rowno += blanks;
    if (rl__csv_next(text, len, pos, &units) == 1 && c->id >= 0 && (size_t)c->id < units.n &&
        units.cells[c->id][0] == '\0') {
        (*rowno)++;
    } else {
        rl__csv_free(&units);
        *pos = save;
    }
    int bad = column_scales(&units, h, *rowno == 1 ? 2 : *rowno, c, is);
    rl__csv_free(&units);
    return bad;
}

/* The cell at `col` of a data row through the one number routine: 1 with *v, 0 when absent and
 * `required` is 0 (*v = 0), -1 with an issue naming row, column and value. */
static int cell_number(const rl__csv_row *row, const rl__csv_row *h, int col, size_t rowno,
                       int required, double *v, rl_rec_issues *is) {
    rl__num_result r = rl__tool_number(row->cells[col], v);
    if (r == RL__NUM_OK) return 1;
    *v = 0;
    if (r == RL__NUM_ABSENT && !required) return 0;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "row %zu, column %.*s", rowno, (int)rl__utf8_clip(h->cells[col], 60),
             h->cells[col]);
    return rl__number_issue(is, p, row->cells[col], r == RL__NUM_ABSENT ? RL__NUM_BAD : r);
}

/* The FLOPs of one row: add + mul + 2·fma over h, f, d, plus tensor-pipe ops, each scaled by
 * its column's unit. 0, or -1 with an issue. */
static int row_flops(const rl__csv_row *row, const rl__csv_row *h, const ncu_cols *c,
                     size_t rowno, ncu_launch *out, rl_rec_issues *is) {
    double f = 0, v;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++) {
            if (c->sass[p][q] < 0) continue;
            if (cell_number(row, h, c->sass[p][q], rowno, 0, &v, is) < 0) return -1;
            f += (q == 2 ? 2.0 : 1.0) * v * c->sass_scale[p][q];
        }
    out->has_tensor = 0;
    for (size_t i = 0; i < c->ntensor; i++) {
        if (cell_number(row, h, c->tensor[i], rowno, 0, &v, is) < 0) return -1;
        if (v > 0) out->has_tensor = 1;
        f += v * c->tensor_scale[i];
    }
    out->flops = f;
    return 0;
}

/* Time (s), DRAM and L2 bytes of one row; 0, or -1 with an issue. */
static int row_time_bytes(const rl__csv_row *row, const rl__csv_row *h, const ncu_cols *c,
                          size_t rowno, ncu_launch *out, rl_rec_issues *is) {
    const int cols[3] = {c->need[1], c->bytes[0], c->bytes[1]};
    double v[3] = {0, 0, 0}, l2 = 0;
    for (int i = 0; i < 3; i++)
        if (cols[i] >= 0 && cell_number(row, h, cols[i], rowno, 1, &v[i], is) < 0) return -1;
    if (c->l2 >= 0 && cell_number(row, h, c->l2, rowno, 0, &l2, is) < 0) return -1;
    if (!(v[0] > 0)) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu, column %s", rowno, NCU_NEED[1]);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "expected a positive number, got \"%.*s\"",
                         RL__QUOTE(row->cells[c->need[1]], 30));
    }
    out->t = v[0] * c->t_scale;
    out->bytes = v[1] * c->b_scale[0] + v[2] * c->b_scale[1];
    out->l2 = l2 * c->l2_scale;
    return 0;
}

/* Device name and compute capability from the first row that has them. */
static void row_device(const rl__csv_row *row, const ncu_cols *c, ncu_import *im) {
    if (c->dev >= 0 && !im->devname[0])
        snprintf(im->devname, sizeof im->devname, "%.*s",
                 (int)rl__utf8_clip(row->cells[c->dev], 120), row->cells[c->dev]);
    if (c->ccmaj >= 0 && c->ccmin >= 0 && !im->cc[0])
        snprintf(im->cc, sizeof im->cc, "%.6s.%.6s", row->cells[c->ccmaj], row->cells[c->ccmin]);
}

/* Keep a row (its name taken from the row). 0, or -1 when out of memory. */
static int keep_launch(ncu_import *im, rl__csv_row *row, int name_col, ncu_launch *l) {
    if (im->nrows == im->cap) {
        size_t cap = im->cap ? im->cap * 2 : 64;
        ncu_launch *nr = realloc(im->rows, cap * sizeof *nr);
        if (!nr) return -1;
        im->rows = nr;
        im->cap = cap;
    }
    l->name = row->cells[name_col];
    row->cells[name_col] = NULL;
    im->rows[im->nrows++] = *l;
    return 0;
}

/* One data row: 0 taken or passed over (with an issue), -1 out of memory or a refused value. */
static int ncu_row(rl__csv_row *row, const rl__csv_row *header, const ncu_cols *c, size_t rowno,
                   ncu_import *im, rl_rec_issues *is) {
    if (row->n == 1 && row->cells[0][0] == '\0') return 0;
    if (row->cells[0][0] == '=' && row->cells[0][1] == '=') return 0;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "row %zu", rowno);
    if (row->n != header->n) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected %zu columns like the header, got %zu",
                  header->n, row->n);
        return 0;
    }
    ncu_launch l = {0};
    if (row_time_bytes(row, header, c, rowno, &l, is) != 0 ||
        row_flops(row, header, c, rowno, &l, is) != 0)
        return -1;
    if (!isfinite(l.t) || !isfinite(l.bytes) || !isfinite(l.l2) || !isfinite(l.flops))
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "time, bytes or FLOPs beyond the finite range once scaled by their units");
    row_device(row, c, im);
    return keep_launch(im, row, c->need[0], &l) ? rl__oom(is) : 0;
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
    }
    if (rc < 0) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu", rowno + 1);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "unterminated quoted cell, or a cell over %d bytes",
                         RL_RECORD_MAX_STRING * 4);
    }
    if (im->nrows == 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no kernel rows after the header");
    return 0;
}

/* The rows grouped by kernel name (a sort: no input makes it quadratic), one ncu_kernel each in
 * order of first appearance. 0, or -1 (an issue added). */
static int ncu_group(ncu_import *im, rl_rec_issues *is) {
    const char **names = malloc(im->nrows * sizeof *names);
    size_t *group = malloc(im->nrows * sizeof *group), ng = 0;
    int bad = !names || !group;
    for (size_t i = 0; !bad && i < im->nrows; i++) names[i] = im->rows[i].name;
    if (!bad) bad = rl__group_names(names, im->nrows, group, &ng);
    if (!bad && ng > RL_RECORD_MAX_POINTS) {
        free(names);
        free(group);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                         "%zu kernel names; the limit is %d points per record: split the export",
                         ng, RL_RECORD_MAX_POINTS);
    }
    if (!bad) { /* the record's written size, bounded before any point is built */
        size_t name_bytes = 0; /* each kernel's name once (a point's "kernel") */
        unsigned char *counted = calloc(ng ? ng : 1, 1);
        if (!counted) bad = 1;
        for (size_t i = 0; !bad && i < im->nrows; i++)
            if (!counted[group[i]]) {
                size_t l = strlen(names[i]);
                name_bytes += l < RL_RECORD_MAX_STRING ? l : RL_RECORD_MAX_STRING;
                counted[group[i]] = 1;
            }
        free(counted);
        if (!bad && rl__import_size_check(ng, name_bytes, is) != 0) {
            free(names);
            free(group);
            return -1;
        }
    }
    if (!bad) bad = !(im->ks = calloc(ng ? ng : 1, sizeof *im->ks));
    if (!bad) im->nk = ng;
    for (size_t i = 0; !bad && i < im->nrows; i++) {
        ncu_kernel *k = &im->ks[group[i]];
        const ncu_launch *l = &im->rows[i];
        if (!k->name) k->name = l->name;
        bad = push_launch(k, l);
        k->has_tensor |= l->has_tensor;
    }
    free(names);
    free(group);
    return bad ? rl__oom(is) : 0;
}

/* Append `text` to the notes (clipped with "..." when full). */
static void note(ncu_import *im, const char *text) {
    size_t used = strlen(im->notes), n = strlen(text);
    if (used + n + 4 < sizeof im->notes) memcpy(im->notes + used, text, n + 1);
    else if (used + 4 < sizeof im->notes) memcpy(im->notes + used, "...", 4);
}

/* The notes: exactly the counters this export's columns gave. */
static void ncu_notes(ncu_import *im, const rl__csv_row *h, const ncu_cols *c) {
    note(im, "One point per kernel name; timing over its launches (median, min, max, mean, "
             "sample standard deviation) from gpu__time_duration.sum. Bytes (counter-measured "
             "DRAM): ");
    note(im, c->bytes[1] < 0 ? NCU_DRAM_SUM : NCU_DRAM_READ " + " NCU_DRAM_WRITE);
    note(im, c->l2 >= 0 ? ". L2 bytes: " NCU_L2 : ". No L2 bytes (" NCU_L2 " not collected)");
    note(im, ". FLOPs: ");
    const char *sep = "";
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
            if (c->sass[p][q] >= 0) {
                note(im, sep);
                note(im, q == 2 ? "2 × " : "");
                note(im, h->cells[c->sass[p][q]]);
                sep = " + ";
            }
    for (size_t i = 0; i < c->ntensor; i++) {
        note(im, sep);
        note(im, h->cells[c->tensor[i]]);
        note(im, i + 1 == c->ntensor ? " (tensor-pipe ops taken as FLOPs)" : "");
        sep = " + ";
    }
    if (im->details)
        note(im, ". Read from ncu's details page (one row per metric), each value in its own unit");
    note(im, ". The problem is not in the export: it is the one given to rooflab import.");
    im->has_l2 = c->l2 >= 0;
}

static int ncu_fields(rl_record *r, const rl_import_opts *o, const ncu_import *im) {
    int bad = rl__import_common(r, o, "Nsight Compute CSV (ncu --csv --page raw; imported by rooflab)",
                                im->devname[0] ? im->devname : "unknown (not in the ncu export)",
                                NULL, NULL);
    if (im->cc[0]) bad |= rl_rec_set_clean_string(&r->hardware.compute_capability, im->cc);
    bad |= rl_rec_set_clean_string(&r->provenance.notes, im->notes);
    return bad;
}

/* One point per kernel with floating-point work; 0, or -1 when out of memory. */
static int ncu_point(rl_record *r, const rl_import_opts *o, ncu_kernel *k, rl_rec_issues *is) {
    size_t n = k->n;
    double flops = rl_rec_median(k->v[NCU_VF], n);
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
    /* the input's place of the point, for the record check's issues (rl__set_origin) */
    if (rl__set_origin(r, r->point_count - 1, "kernel \"%.*s\"", (int)rl__utf8_clip(k->name, 60),
                       k->name) != 0)
        return rl__oom(is);
    pt->problem = o->problem;
    pt->traffic_model = o->traffic_model;
    rl_rec_set_times(pt, k->v[NCU_VT], n); /* median, min, max, mean, stddev over the launches */
    pt->measured_bytes = rl_rec_median(k->v[NCU_VB], n);
    pt->measured_l2_bytes = rl_rec_median(k->v[NCU_VL2], n); /* 0 when not collected */
    pt->flops = flops;
    if (rl_rec_set_clean_string(&pt->kernel, k->name)) rl__oom(is);
    return 0;
}

static void ncu_import_free(ncu_import *im) {
    for (size_t i = 0; i < im->nrows; i++) free(im->rows[i].name);
    free(im->rows);
    for (size_t k = 0; k < im->nk; k++)
        for (int i = 0; i < NCU_NV; i++) free(im->ks[k].v[i]);
    free(im->ks);
}

/* Issues the raw reader raised at "row K[, column M]" of the details page's converted rows are
 * named at the user's own rows: "row R (the launch beginning there), metric M". */
static void details_rows_named(rl_rec_issues *is, size_t from, const size_t *first_rows,
                               size_t n) {
    for (size_t i = from; first_rows && i < is->count; i++) {
        rl_rec_issue *it = &is->items[i];
        char *end = NULL;
        if (strncmp(it->path, "row ", 4) != 0) continue;
        unsigned long k = strtoul(it->path + 4, &end, 10);
        if (!end || k < 2 || k - 2 >= n) continue; /* raw row 1 is the header */
        const char *rest = end;
        char path[RL_REC_PATH_MAX + 64], message[RL_REC_MESSAGE_MAX + RL_REC_PATH_MAX + 128];
        snprintf(path, sizeof path, "row %zu (the launch beginning there)%s%s", first_rows[k - 2],
                 strncmp(rest, ", column ", 9) == 0 ? ", metric " : "",
                 strncmp(rest, ", column ", 9) == 0 ? rest + 9 : rest);
        size_t plen = strlen(it->path);
        const char *msg = strncmp(it->message, it->path, plen) == 0 ? it->message + plen : it->message;
        snprintf(message, sizeof message, "%s%s", path, msg);
        size_t a = rl__utf8_clip(path, sizeof it->path - 1), b = rl__utf8_clip(message, sizeof it->message - 1);
        memcpy(it->path, path, a);
        it->path[a] = '\0';
        memcpy(it->message, message, b);
        it->message[b] = '\0';
    }
}

/* Header, units row, data rows. 0, or -1 (an issue added). */
static int ncu_read(const char *text, size_t len, ncu_import *im, rl_rec_issues *is) {
    size_t pos = rl__skip_log_lines(text, len), rowno = 1;
    rl__csv_row header = {0};
    ncu_cols c = {0};
    int bad = 0;
    if (rl__csv_next(text, len, &pos, &header) <= 0) {
        rl__csv_free(&header);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                         "expected the header of `ncu --csv --page raw` (\"ID\",...,\"Kernel "
                         "Name\",...)");
    }
    if (rl__csv_find(&header, "Metric Name") >= 0 && rl__csv_find(&header, "Metric Value") >= 0 &&
        rl__csv_find(&header, NCU_NEED[1]) < 0 && !im->details) {
        /* the details page: one row per metric, turned into the raw page's rows */
        size_t raw_len = 0, *first_rows = NULL, from = is->count;
        char *raw = rl__ncu_details_to_raw(text, len, pos, &header, &raw_len, &first_rows, is);
        rl__csv_free(&header);
        if (!raw) return -1;
        im->details = 1;
        bad = ncu_read(raw, raw_len, im, is);
        size_t n = 0;
        while (first_rows && first_rows[n]) n++;
        details_rows_named(is, from, first_rows, n);
        free(first_rows);
        free(raw);
        return bad;
    }
    bad = find_columns(&header, &c, is);
    if (!bad) ncu_notes(im, &header, &c);
    if (!bad) bad = read_units(text, len, &pos, &rowno, &header, &c, is);
    if (!bad) bad = ncu_rows(text, len, pos, rowno, &header, &c, im, is);
    if (!bad) bad = ncu_group(im, is);
    rl__csv_free(&header);
    return bad;
}

const char *rl_import_ncu_command(void) {
#define SASS(op) "sm__sass_thread_inst_executed_op_" op "_pred_on.sum,"
    return "ncu --csv --page raw --log-file ncu.csv --metrics "
           "gpu__time_duration.sum," NCU_DRAM_READ "," NCU_DRAM_WRITE "," NCU_L2 ","
           SASS("hadd") SASS("hmul") SASS("hfma") SASS("fadd") SASS("fmul") SASS("ffma")
           SASS("dadd") SASS("dmul") SASS("dfma")
           "sm__ops_path_tensor_src_fp16_dst_fp32.sum,device__attribute_display_name,"
           "device__attribute_compute_capability_major,"
           "device__attribute_compute_capability_minor ./your_app";
#undef SASS
}

rl_status rl__import_ncu(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                         rl_rec_issues *is) {
    ncu_import im = {0};
    rl_status st = RL_ERR_INVALID;
    rl__skip_bom(&text, &len); /* Excel and PowerShell write one */
    static const rl_problem_field need[] = {RL_FIELD_BATCH, RL_FIELD_HEADS, RL_FIELD_SEQ,
                                            RL_FIELD_HEAD_DIM};
    rl__require_problem(o, need, sizeof need / sizeof need[0],
                        "the ncu export does not say which problem the kernel ran", is);
    /* the problem comes from the flags, the same for every point: checked once, before any row
     * is read or point built, and named by its flag */
    rl_problem resolved;
    rl_error perr = {0};
    if (rl_problem_resolve(&o->problem, &resolved, &perr) != RL_OK) {
        int f = rl_problem_field_find(perr.field);
        char p[128];
        snprintf(p, sizeof p, "--%.60s", f >= 0 ? rl_problem_field_info((rl_problem_field)f)->flag : perr.field);
        const char *m = strstr(perr.message, ": "); /* core's "FIELD: ..." without its FIELD */
        m = m && (size_t)(m - perr.message) < 32 ? m + 2 : perr.message;
        rl__issue(is, RL_REC_ERROR, perr.status ? perr.status : RL_ERR_INVALID, p, "%s", m);
        return RL_ERR_INVALID;
    }
    rl__set_origin_fields(r, " (its launches' gpu__time_duration.sum)",
                          " (its FLOP counters: sm__sass_* and sm__ops_path_tensor_*)",
                          " (its dram__bytes or lts__t_bytes counters)", " (the problem flags)");
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
