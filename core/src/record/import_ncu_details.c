/* import_ncu_details.c — ncu's details page (`ncu --csv` without `--page raw`: one row per
 * metric, "Metric Name", "Metric Unit", "Metric Value") turned into the raw page's shape, one row
 * per launch, so that one reader (import_ncu.c) reads both. Only the metrics the import reads are
 * kept; each value is checked where it stands (its row of the details page) and converted to the
 * raw page's default units (nanoseconds, bytes, plain counts), since the details page scales each
 * value's unit on its own ("Mbyte" on one launch, "Gbyte" on the next). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define NCU_DETAILS_MAX_METRICS 64 /* distinct metrics kept */

/* The dimension of a metric the import reads, RL__NCU_TEXT for the device's words, -1 for one it
 * does not read. */
static int metric_dim(const char *m) {
    if (strcmp(m, "gpu__time_duration.sum") == 0) return RL__NCU_TIME;
    if (strcmp(m, "dram__bytes.sum") == 0 || strcmp(m, "dram__bytes_read.sum") == 0 ||
        strcmp(m, "dram__bytes_write.sum") == 0 || strcmp(m, "lts__t_bytes.sum") == 0)
        return RL__NCU_BYTES;
    if ((strncmp(m, "sm__sass_thread_inst_executed_op_", 33) == 0 ||
         strncmp(m, "smsp__sass_thread_inst_executed_op_", 35) == 0 ||
         strncmp(m, "sm__ops_path_tensor_src_", 24) == 0) &&
        strlen(m) > 4 && strcmp(m + strlen(m) - 4, ".sum") == 0)
        return RL__NCU_COUNT;
    if (strncmp(m, "device__attribute_", 18) == 0) return RL__NCU_TEXT;
    return -1;
}

typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + n;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* A CSV cell, quoted, quotes doubled; `sep` before it. */
static void put_cell(buf *b, const char *sep, const char *s) {
    put(b, sep, strlen(sep));
    put(b, "\"", 1);
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        put(b, s, (size_t)(q - s));
        put(b, "\"\"", 2);
    }
    put(b, s, strlen(s));
    put(b, "\"", 1);
}

typedef struct details {
    int id, kname, mname, munit, mval;       /* columns of the details page */
    char *metrics[NCU_DETAILS_MAX_METRICS];  /* kept metric names, in order of first appearance */
    size_t nm;
    char **cells;                            /* the current launch's values, one per metric */
    char *launch_id, *launch_name;
    buf out;                                 /* the raw page's rows so far */
    size_t launches;
    int collecting;                          /* pass 1: metric names and launches only */
    size_t *first_row;                       /* per launch, the row where it begins */
    char **ids;                              /* pass 1: per launch, its ID (interleaving check) */
    size_t cap;
} details;

/* A new launch begins at `rowno` (pass 1 keeps its ID, pass 2 its first row). 0 or -1 (OOM). */
static int note_launch(details *d, const char *id, size_t rowno) {
    if (d->launches == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        size_t *fr = realloc(d->first_row, cap * sizeof *fr);
        if (!fr) return -1;
        d->first_row = fr;
        char **ids = realloc(d->ids, cap * sizeof *ids);
        if (!ids) return -1;
        d->ids = ids;
        d->cap = cap;
    }
    d->first_row[d->launches] = rowno;
    d->ids[d->launches] = d->collecting ? rl__strndup(id, strlen(id)) : NULL;
    if (d->collecting && !d->ids[d->launches]) return -1;
    return 0;
}

typedef struct launch_ref {
    const char *id;
    size_t row;
} launch_ref;

static int by_id_then_row(const void *a, const void *b) {
    const launch_ref *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Pass 1's launches: an ID that begins twice means its rows interleave with another launch's
 * (or repeat): refused at the user's row, never merged or split silently. 0, or -1 (issue). */
static int check_interleaving(const details *d, rl_rec_issues *is) {
    launch_ref *refs = malloc((d->launches ? d->launches : 1) * sizeof *refs);
    if (!refs) return rl__oom(is);
    for (size_t k = 0; k < d->launches; k++) refs[k] = (launch_ref){d->ids[k], d->first_row[k]};
    qsort(refs, d->launches, sizeof *refs, by_id_then_row);
    size_t worst = 0, first = 0;
    for (size_t k = 1; k < d->launches; k++)
        if (strcmp(refs[k].id, refs[k - 1].id) == 0 && (!worst || refs[k].row < worst)) {
            worst = refs[k].row;
            first = refs[k - 1].row;
        }
    const char *id = NULL;
    for (size_t k = 0; worst && k < d->launches; k++)
        if (refs[k].row == worst) id = refs[k].id;
    int bad = 0;
    if (worst) {
        char p[RL_REC_PATH_MAX], shown[48];
        snprintf(p, sizeof p, "row %zu", worst);
        rl_text_escape(shown, sizeof shown, id);
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                        "launch ID \"%s\" again, after another launch's rows (its rows began at "
                        "row %zu): the launches interleave; expected each launch's metric rows "
                        "together, as ncu --csv writes them", shown, first);
    }
    free(refs);
    return bad;
}

/* The index of metric `m` among those kept (added when new); -1 beyond the limit. */
static int metric_index(details *d, const char *m) {
    for (size_t i = 0; i < d->nm; i++)
        if (strcmp(d->metrics[i], m) == 0) return (int)i;
    if (d->nm == NCU_DETAILS_MAX_METRICS) return -1;
    d->metrics[d->nm] = rl__strndup(m, strlen(m));
    if (!d->metrics[d->nm]) return -1;
    return (int)d->nm++;
}

/* The finished launch as one raw row: ID, Kernel Name, then each metric ("" where absent). */
static void flush_launch(details *d) {
    if (!d->launch_id) return;
    if (d->collecting) {
        free(d->launch_id);
        free(d->launch_name);
        d->launch_id = d->launch_name = NULL;
        d->launches++;
        return;
    }
    put_cell(&d->out, "", d->launch_id);
    put_cell(&d->out, ",", d->launch_name);
    for (size_t i = 0; i < NCU_DETAILS_MAX_METRICS; i++) {
        if (i < d->nm) put_cell(&d->out, ",", d->cells[i] ? d->cells[i] : "");
        free(d->cells[i]);
        d->cells[i] = NULL;
    }
    put(&d->out, "\n", 1);
    free(d->launch_id);
    free(d->launch_name);
    d->launch_id = d->launch_name = NULL;
    d->launches++;
}

/* One value, checked at its row and converted to the raw page's default unit. The converted
 * text (malloc'd) or NULL with an issue (or out of memory). */
static char *converted(const rl__csv_row *row, const details *d, int dim, size_t rowno,
                       rl_rec_issues *is) {
    const char *m = row->cells[d->mname], *u = row->cells[d->munit], *v = row->cells[d->mval];
    if (dim == RL__NCU_TEXT) return rl__strndup(v, strlen(v));
    char p[RL_REC_PATH_MAX], shown[48];
    double x = 0, scale = rl__ncu_unit_scale(u, (rl__ncu_dim)dim);
    rl__num_result r = rl__tool_number(v, &x);
    snprintf(p, sizeof p, "row %zu, column Metric Value (%.60s)", rowno, m);
    if (r != RL__NUM_OK && r != RL__NUM_ABSENT) {
        rl__number_issue(is, p, v, r);
        return NULL;
    }
    if (scale == 0) {
        rl_text_escape(shown, sizeof shown, u);
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, p, "unknown unit \"%s\" in Metric Unit%s; expected %s",
                  shown, strchr(u, '/') ? " (a rate, not an amount)" : "",
                  rl__ncu_unit_expected((rl__ncu_dim)dim));
        return NULL;
    }
    if (r == RL__NUM_ABSENT) return rl__strndup("", 0);
    /* to ns, bytes, counts: the raw page's defaults */
    char out[40];
    snprintf(out, sizeof out, "%.17g", x * scale / rl__ncu_unit_scale("", (rl__ncu_dim)dim));
    return rl__strndup(out, strlen(out));
}

/* One row of the details page. 0, or -1 (an issue added). */
static int details_row(details *d, const rl__csv_row *row, size_t ncols, size_t rowno,
                       rl_rec_issues *is) {
    if (row->n == 1 && row->cells[0][0] == '\0') return 0;
    if (row->cells[0][0] == '=' && row->cells[0][1] == '=') return 0;
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "row %zu", rowno);
    if (row->n != ncols)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "expected %zu columns like the header, got %zu", ncols, row->n);
    int dim = metric_dim(row->cells[d->mname]);
    if (dim < 0) return 0;
    const char *id = row->cells[d->id];
    if (!d->launch_id || strcmp(d->launch_id, id) != 0) {
        flush_launch(d);
        if (note_launch(d, id, rowno) != 0) return rl__oom(is);
        d->launch_id = rl__strndup(id, strlen(id));
        d->launch_name = rl__strndup(row->cells[d->kname], strlen(row->cells[d->kname]));
        if (!d->launch_id || !d->launch_name) return rl__oom(is);
    }
    int k = metric_index(d, row->cells[d->mname]);
    if (k < 0)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p,
                         "more than %d distinct metrics the import reads", NCU_DETAILS_MAX_METRICS);
    if (d->collecting) return 0; /* pass 1: names and launches only; values in pass 2 */
    char *v = converted(row, d, dim, rowno, is);
    if (!v) return -1;
    free(d->cells[k]);
    d->cells[k] = v;
    return 0;
}

/* The header of the raw page: ID, Kernel Name, the kept metrics. */
static char *raw_text(details *d, size_t *out_len) {
    buf h = {0};
    put_cell(&h, "", "ID");
    put_cell(&h, ",", "Kernel Name");
    for (size_t i = 0; i < d->nm; i++) put_cell(&h, ",", d->metrics[i]);
    put(&h, "\n", 1);
    put(&h, d->out.p ? d->out.p : "", d->out.n);
    if (h.oom) {
        free(h.p);
        return NULL;
    }
    *out_len = h.n;
    return h.p;
}

static void details_free(details *d) {
    for (size_t k = 0; d->ids && k < d->launches; k++) free(d->ids[k]);
    free(d->ids);
    free(d->first_row);
    for (size_t i = 0; i < d->nm; i++) free(d->metrics[i]);
    if (d->cells)
        for (size_t i = 0; i < NCU_DETAILS_MAX_METRICS; i++) free(d->cells[i]);
    free(d->cells);
    free(d->launch_id);
    free(d->launch_name);
    free(d->out.p);
}

/* One pass over the rows from `pos`. 0, or -1 (an issue added). */
static int details_pass(details *d, const char *text, size_t len, size_t pos, size_t ncols,
                        rl_rec_issues *is) {
    rl__csv_row row = {0};
    size_t rowno = 1;
    int rc, bad = 0;
    while (!bad && (rc = rl__csv_next(text, len, &pos, &row)) == 1) {
        bad = details_row(d, &row, ncols, ++rowno, is);
        rl__csv_free(&row);
    }
    if (!bad && rc < 0) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu", rowno + 1);
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                        "unterminated quoted cell, or a cell over %d bytes",
                        RL_RECORD_MAX_STRING * 4);
    }
    flush_launch(d);
    return bad;
}

char *rl__ncu_details_to_raw(const char *text, size_t len, size_t pos, const rl__csv_row *header,
                             size_t *out_len, size_t **first_rows, rl_rec_issues *is) {
    details d = {.id = rl__csv_find(header, "ID"), .kname = rl__csv_find(header, "Kernel Name"),
                 .mname = rl__csv_find(header, "Metric Name"),
                 .munit = rl__csv_find(header, "Metric Unit"),
                 .mval = rl__csv_find(header, "Metric Value")};
    d.cells = calloc(NCU_DETAILS_MAX_METRICS, sizeof *d.cells);
    char *raw = NULL;
    *first_rows = NULL;
    if (!d.cells) rl__oom(is);
    else if (d.id < 0 || d.kname < 0 || d.munit < 0)
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                  "ncu's details page without its \"ID\", \"Kernel Name\" or \"Metric Unit\" "
                  "column; expected the header ncu --csv writes");
    else {
        /* pass 1: every metric any launch has (a later launch may add one) and the launches, so
         * that pass 2 writes every row as wide as the header */
        d.collecting = 1;
        int bad = details_pass(&d, text, len, pos, header->n, is);
        if (!bad) bad = check_interleaving(&d, is);
        for (size_t k = 0; k < d.launches; k++) {
            free(d.ids[k]);
            d.ids[k] = NULL;
        }
        d.launches = 0;
        d.collecting = 0;
        if (!bad) bad = details_pass(&d, text, len, pos, header->n, is);
        if (!bad && d.nm == 0)
            bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                            "ncu's details page without any metric the import reads; rerun ncu "
                            "with the --metrics of rooflab import --help (--page raw preferred)");
        if (!bad && !(raw = raw_text(&d, out_len))) rl__oom(is);
        if (d.out.oom) rl__oom(is);
        if (raw) { /* ended by a 0 (rows count from 1) */
            size_t *fr = realloc(d.first_row, (d.launches + 1) * sizeof *fr);
            if (fr) {
                fr[d.launches] = 0;
                *first_rows = fr;
                d.first_row = NULL;
            }
        }
    }
    details_free(&d);
    return raw;
}

/* ncu's units (record_internal.h), here so that import_ncu.c calls this file and not back. */
/* Scale of an ncu unit for a column of dimension `dim`: time "nsecond" "usecond" "msecond"
 * "second" (and ns, us, ms, s, usec, msec); bytes "byte" "Kbyte" ... "Tbyte" (KB, MB, GB, KiB,
 * MiB, GiB, B); counts "inst" "Kinst" "Minst" "Ginst" "ops" "FLOP". An empty unit is ncu's
 * default (nanoseconds, bytes, plain counts). 0 for a unit it does not know for that dimension. */
double rl__ncu_unit_scale(const char *u, rl__ncu_dim dim) {
    static const struct {
        const char *u;
        rl__ncu_dim dim;
        double s;
    } units[] = {{"byte", RL__NCU_BYTES, 1},        {"Kbyte", RL__NCU_BYTES, 1e3},
                 {"Mbyte", RL__NCU_BYTES, 1e6},     {"Gbyte", RL__NCU_BYTES, 1e9},
                 {"Tbyte", RL__NCU_BYTES, 1e12},    {"KB", RL__NCU_BYTES, 1e3},
                 {"MB", RL__NCU_BYTES, 1e6},        {"GB", RL__NCU_BYTES, 1e9},
                 {"B", RL__NCU_BYTES, 1},           {"KiB", RL__NCU_BYTES, 1024.0},
                 {"MiB", RL__NCU_BYTES, 1048576.0}, {"GiB", RL__NCU_BYTES, 1073741824.0},
                 {"nsecond", RL__NCU_TIME, 1e-9},   {"usecond", RL__NCU_TIME, 1e-6},
                 {"msecond", RL__NCU_TIME, 1e-3},   {"second", RL__NCU_TIME, 1},
                 {"ns", RL__NCU_TIME, 1e-9},        {"us", RL__NCU_TIME, 1e-6},
                 {"usec", RL__NCU_TIME, 1e-6},      {"ms", RL__NCU_TIME, 1e-3},
                 {"msec", RL__NCU_TIME, 1e-3},      {"s", RL__NCU_TIME, 1},
                 {"inst", RL__NCU_COUNT, 1},        {"Kinst", RL__NCU_COUNT, 1e3},
                 {"Minst", RL__NCU_COUNT, 1e6},     {"Ginst", RL__NCU_COUNT, 1e9},
                 {"ops", RL__NCU_COUNT, 1},         {"FLOP", RL__NCU_COUNT, 1}};
    if (!u || !u[0]) return dim == RL__NCU_TIME ? 1e-9 : 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (units[i].dim == dim && strcmp(u, units[i].u) == 0) return units[i].s;
    return 0;
}

const char *rl__ncu_unit_expected(rl__ncu_dim dim) {
    static const char *const expected[] = {"nsecond, usecond, msecond or second",
                                           "byte, Kbyte, Mbyte, Gbyte or Tbyte",
                                           "inst, Kinst, Minst, Ginst (or no unit)"};
    return dim <= RL__NCU_COUNT ? expected[dim] : "text";
}
