/* import_triton.c — a triton.testing.perf_report table → rl_record: one point per x value (row)
 * and line (column).
 *
 * perf_report (python/triton/testing.py, Mark._run) builds a pandas DataFrame with the x_names
 * columns first, then one column per line_names entry, and writes it with
 * df.to_csv(save_path/PLOT_NAME.csv, float_format='%.1f', index=False), or prints it with
 * print_data=True as "PLOT_NAME:" followed by the frame's text (an index column, cells separated
 * by two or more spaces). Both are read. The values are in the benchmark's ylabel unit, which only
 * the plot shows: a column name ending in "(ms)" or "(TFLOP/s)" states it, else --unit does.
 *
 * A time (ms, us ...) is the point's time; its FLOPs are the model's F. A FLOP rate (TFLOP/s,
 * "TFLOPS") is turned back into the time it was computed from: time = F_rate / rate, with F_rate
 * the count the attention benchmarks divide by (python/tutorials/06-fused-attention.py:
 * flops_per_matmul = 2·B·H·N·N·d, total 2× that, ×0.5 causal, ×2.5 backward; FlashAttention's
 * benchmarks count the same), i.e. 4·B·H·N·L·d × (½ if causal) × (2.5 if bwd); the point keeps
 * F_rate as its FLOPs and the rate as its reported rate. The fixed problem fields come from the
 * user; a column name naming a dtype ("Triton [FP8]") sets that line's dtype. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define TR_MAX_X 8      /* x columns */
#define TR_MAX_COLS 64  /* columns in all */

/* A table: rows of cells (malloc'd), each with its line in the file. */
typedef struct tr_table {
    rl__csv_row *rows;
    size_t *line;
    size_t n, cap;
    int printed; /* read from print_data's text, not the CSV */
    size_t next_table; /* the line of a second printed table (not read), 0 when none */
    char title[160];
} tr_table;

static void tr_free(tr_table *t) {
    for (size_t i = 0; i < t->n; i++) rl__csv_free(&t->rows[i]);
    free(t->rows);
    free(t->line);
}

static int tr_push(tr_table *t, rl__csv_row *row, size_t line) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        rl__csv_row *r = realloc(t->rows, cap * sizeof *r);
        if (!r) return -1;
        t->rows = r;
        size_t *l = realloc(t->line, cap * sizeof *l);
        if (!l) return -1;
        t->line = l;
        t->cap = cap;
    }
    t->rows[t->n] = *row;
    t->line[t->n++] = line;
    row->cells = NULL;
    row->n = 0;
    return 0;
}

/* One printed line split into cells: runs of two or more spaces separate the header's cells
 * (names may hold one space: "Triton [FP16]"); any run of spaces separates a data line's. */
static int tr_split(const char *s, size_t n, int header, rl__csv_row *row) {
    size_t cap = 0;
    row->n = 0;
    row->cells = NULL;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i >= n) break;
        size_t a = i;
        while (i < n && s[i] != '\t' &&
               !(s[i] == ' ' && (!header || (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t')) ||
                                 i + 1 == n)))
            i++;
        if (row->n == cap) {
            cap = cap ? cap * 2 : 8;
            char **c = realloc(row->cells, cap * sizeof *c);
            if (!c) return -1;
            row->cells = c;
        }
        if (row->n == TR_MAX_COLS + 1) return -1;
        if (!(row->cells[row->n] = rl__strndup(s + a, i - a))) return -1;
        row->n++;
    }
    return 0;
}

/* The printed form: "PLOT_NAME:" then the header line and the data lines, each data line
 * starting with the frame's index (dropped). 0, or -1 (issue). */
static int tr_read_printed(const char *text, size_t len, size_t pos, tr_table *t,
                           rl_rec_issues *is) {
    size_t line = 1, nl = 0;
    while (pos + nl < len && text[pos + nl] != '\n') nl++; /* the text is not NUL-terminated */
    size_t tl = 0; /* the title: the line without its ':' (and '\r') */
    while (tl < nl && tl + 1 < 150 && text[pos + tl] != ':' && text[pos + tl] != '\r') tl++;
    memcpy(t->title, text + pos, tl);
    t->title[tl] = '\0';
    t->title[rl__utf8_clip(t->title, tl)] = '\0';
    t->printed = 1;
    for (size_t i = 0; i < pos; i++) line += text[i] == '\n';
    pos += nl + (pos + nl < len);
    line++;
    while (pos < len) {
        size_t n = 0;
        while (pos + n < len && text[pos + n] != '\n') n++;
        size_t m = n;
        if (m && text[pos + m - 1] == '\r') m--;
        rl__csv_row row = {0};
        int blank = 1;
        for (size_t k = 0; k < m; k++) blank &= text[pos + k] == ' ' || text[pos + k] == '\t';
        if (!blank && t->n > 1 && m > 1 && text[pos + m - 1] == ':' && text[pos] != ' ' &&
            !memchr(text + pos, ',', m)) {
            t->next_table = line; /* print_data prints each benchmark's "PLOT_NAME:" and table */
            break;
        }
        if (!blank) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "line %zu", line);
            if (tr_split(text + pos, m, t->n == 0, &row)) {
                rl__csv_free(&row);
                return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p,
                                 "more than %d columns (or out of memory)", TR_MAX_COLS);
            }
            if (t->n > 0) { /* drop the index */
                if (row.n == 0 || strspn(row.cells[0], "0123456789") != strlen(row.cells[0])) {
                    rl__csv_free(&row);
                    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                                     "expected a row of the printed table: its index (0, 1, ...) "
                                     "then one value per column");
                }
                free(row.cells[0]);
                memmove(row.cells, row.cells + 1, (row.n - 1) * sizeof *row.cells);
                row.n--;
            }
            if (tr_push(t, &row, line)) {
                rl__csv_free(&row);
                return rl__oom(is);
            }
        }
        pos += n + 1;
        line++;
    }
    return 0;
}

static int tr_read_csv(const char *text, size_t len, size_t pos, tr_table *t, rl_rec_issues *is) {
    size_t line = 1, from = 0;
    rl__csv_row row = {0};
    for (;;) {
        size_t start = pos;
        int rc = rl__csv_next(text, len, &pos, &row);
        if (rc == 0) break;
        rl__line_at(text, start, &from, &line);
        if (rc < 0) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "line %zu", line);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                             "unterminated quoted cell, or a cell over %d bytes",
                             RL_RECORD_MAX_STRING * 4);
        }
        if (row.n == 1 && row.cells[0][0] == '\0') {
            rl__csv_free(&row);
            continue;
        }
        if (row.n > TR_MAX_COLS) {
            rl__csv_free(&row);
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "line %zu", line);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p, "more than %d columns", TR_MAX_COLS);
        }
        if (tr_push(t, &row, line)) {
            rl__csv_free(&row);
            return rl__oom(is);
        }
    }
    return 0;
}

/* The problem field an x column's name stands for, -1 when none. */
static int tr_x_field(const char *name) {
    static const struct {
        const char *name;
        rl_problem_field f;
    } names[] = {{"N_CTX", RL_FIELD_SEQ},      {"SEQ_LEN", RL_FIELD_SEQ},   {"N", RL_FIELD_SEQ},
                 {"seqlen", RL_FIELD_SEQ},     {"seq_len", RL_FIELD_SEQ},   {"BATCH", RL_FIELD_BATCH},
                 {"Z", RL_FIELD_BATCH},        {"H", RL_FIELD_HEADS},       {"N_HEADS", RL_FIELD_HEADS},
                 {"HEAD_DIM", RL_FIELD_HEAD_DIM}, {"D_HEAD", RL_FIELD_HEAD_DIM},
                 {"N_CTX_KV", RL_FIELD_KV_LEN}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) return (int)names[i].f;
    int f = rl_problem_field_find(name);
    return f >= 0 && rl_problem_field_info((rl_problem_field)f)->type == RL_FTYPE_INT ? f : -1;
}

/* The x columns: --args keys for the first columns, else the first column by its name. */
static int tr_x_columns(const rl__csv_row *h, size_t line, const char *keys, int *x, size_t *nx,
                        rl_rec_issues *is) {
    char p[RL_REC_PATH_MAX];
    snprintf(p, sizeof p, "line %zu", line);
    *nx = 0;
    if (!keys) {
        x[0] = tr_x_field(h->cells[0]);
        *nx = 1;
        if (x[0] >= 0) return 0;
        char shown[64];
        rl_text_escape(shown, sizeof shown, h->cells[0]);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                         "the first column \"%s\" names no problem field; give --args KEY (seq, "
                         "batch, heads, kv_len, head_dim ...) for the swept x column", shown);
    }
    for (const char *k = keys; *k && *nx < TR_MAX_X;) {
        size_t n = strcspn(k, ",");
        char key[32], shown_key[64];
        snprintf(key, sizeof key, "%.*s", (int)(n < 31 ? n : 31), k);
        int f = rl_problem_field_find(key);
        if (f < 0 || rl_problem_field_info((rl_problem_field)f)->type != RL_FTYPE_INT) {
            char whole[256];
            snprintf(whole, sizeof whole, "%.*s", (int)(n < 255 ? n : 255), k);
            rl_text_escape(shown_key, sizeof shown_key, whole);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "--args",
                             "unknown key \"%s\"; expected problem size keys (seq, batch, heads, "
                             "kv_len, head_dim ...), one per x column", shown_key);
        }
        x[(*nx)++] = f;
        k += n + (k[n] == ',');
    }
    if (*nx == 0 || *nx >= h->n)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "--args",
                         "names %zu x columns; the table has %zu columns (x columns, then at least "
                         "one line)", *nx, h->n);
    return 0;
}

/* The unit of a line column: "(ms)" / "(TFLOP/s)" at the end of its name, else --unit. *scale
 * to seconds or FLOP/s, *rate 1 for a FLOP rate. 0, or -1 (issue). */
static int tr_unit(const char *col, const char *given, size_t line, double *scale, int *rate,
                   rl_rec_issues *is) {
    char unit[40] = "", p[RL_REC_PATH_MAX], shown[64];
    size_t n = strlen(col);
    const char *open = n && col[n - 1] == ')' ? strrchr(col, '(') : NULL;
    rl_text_escape(shown, sizeof shown, col);
    snprintf(p, sizeof p, "line %zu, column %s", line, shown);
    if (given) snprintf(unit, sizeof unit, "%.30s", given);
    else if (open && (size_t)(col + n - 1 - open - 1) < 30)
        snprintf(unit, sizeof unit, "%.*s", (int)(col + n - 1 - open - 1), open + 1);
    if (!unit[0])
        return rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, p,
                         "the table does not state its unit (perf_report's ylabel is only on the "
                         "plot); give --unit TFLOP/s (06-fused-attention's ylabel \"TFLOPS\") or "
                         "--unit ms");
    char q[48];
    snprintf(q, sizeof q, "1 %s", unit);
    rl_dim dim = RL_DIM_NONE;
    rl_error err = {0};
    if (rl_parse_quantity(q, RL_DIM_COUNT, "unit", scale, &dim, &err) != RL_OK ||
        (dim != RL_DIM_SECONDS && dim != RL_DIM_FLOPS_PER_S)) {
        rl_text_escape(shown, sizeof shown, unit);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, given ? "--unit" : p,
                         "unit \"%s\" is neither a time (ms, us, s) nor a FLOP rate (TFLOP/s, "
                         "TFLOPS, GFLOP/s)", shown);
    }
    *rate = dim == RL_DIM_FLOPS_PER_S;
    return 0;
}

/* The FLOPs a perf_report attention benchmark divides by: 4·B·H·N·L·d, ×½ causal, ×2.5 bwd. */
static double rate_flops(const rl_problem *p) {
    rl_problem q;
    if (rl_problem_resolve(p, &q, NULL) != RL_OK) return 0;
    double f = 4.0 * (double)q.batch * (double)q.heads * (double)q.seq * (double)q.kv_len *
               (double)q.head_dim;
    if (q.causal) f *= 0.5;
    if (q.pass == RL_PASS_BWD) f *= 2.5;
    return f;
}

typedef struct tr_ctx {
    int x[TR_MAX_X];
    size_t nx;
    double scale[TR_MAX_COLS];
    int rate[TR_MAX_COLS];
    rl_dtype dtype[TR_MAX_COLS];
    size_t empty, points;
} tr_ctx;

/* One cell → one point (an empty or NaN cell is a line that did not run: skipped, counted). */
static int tr_cell(rl_record *r, const rl_import_opts *o, const tr_table *t, size_t i, size_t c,
                   tr_ctx *cx, rl_rec_issues *is) {
    const rl__csv_row *h = &t->rows[0], *row = &t->rows[i];
    char p[RL_REC_PATH_MAX], shown[64];
    rl_text_escape(shown, sizeof shown, h->cells[c]);
    snprintf(p, sizeof p, "line %zu, column %s", t->line[i], shown);
    const char *cell = row->cells[c];
    if (strcmp(cell, "NaN") == 0 || strcmp(cell, "nan") == 0 || cell[0] == '\0') {
        cx->empty++;
        return 0;
    }
    double v = 0;
    rl__num_result nr = rl__tool_number(cell, &v);
    if (nr != RL__NUM_OK || !(v > 0))
        return rl__number_issue(is, p, cell, nr == RL__NUM_OK || nr == RL__NUM_ABSENT ? RL__NUM_BAD : nr);
    rl_rec_point *pt = rl_record_add_point(r);
    if (!pt) return rl__oom(is);
    pt->problem = o->problem;
    pt->traffic_model = o->traffic_model;
    for (size_t k = 0; k < cx->nx; k++) {
        double xv = 0;
        rl__num_result xr = rl__tool_number(row->cells[k], &xv);
        rl_text_escape(shown, sizeof shown, h->cells[k]);
        snprintf(p, sizeof p, "line %zu, column %s", t->line[i], shown);
        if (xr != RL__NUM_OK || xv < 1 || xv != floor(xv) || xv > (double)RL_EXACT_INT_MAX) {
            char got[64];
            rl_text_escape(got, sizeof got, row->cells[k]);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                             "expected a whole number (the swept %s), got \"%s\"",
                             rl_problem_field_info((rl_problem_field)cx->x[k])->key, got);
        }
        rl__problem_store(&pt->problem, (rl_problem_field)cx->x[k], (int64_t)xv);
    }
    if (cx->dtype[c] != RL_DTYPE_DEFAULT) pt->problem.dtype = cx->dtype[c];
    rl_workload w;
    int ok = rl_workload_compute(&pt->problem, &w, NULL) == RL_OK;
    if (cx->rate[c]) {
        double f = rate_flops(&pt->problem), rate = v * cx->scale[c];
        pt->flops = f;
        pt->reported_flops_per_s = rate;
        pt->time_median_s = f > 0 ? f / rate : 0;
    } else {
        pt->time_median_s = v * cx->scale[c];
        pt->flops = ok ? w.flops : 0;
    }
    char label[200];
    snprintf(label, sizeof label, "%s, %s = %s", h->cells[c], h->cells[0], row->cells[0]);
    cx->points++;
    return rl_rec_set_clean_string(&pt->kernel, h->cells[c]) |
                   rl_rec_set_clean_string(&pt->label, label)
               ? rl__oom(is)
               : 0;
}

static int tr_points(rl_record *r, const rl_import_opts *o, const tr_table *t, tr_ctx *cx,
                     rl_rec_issues *is) {
    const rl__csv_row *h = &t->rows[0];
    for (size_t c = cx->nx; c < h->n; c++) {
        if (tr_unit(h->cells[c], o->unit, t->line[0], &cx->scale[c], &cx->rate[c], is)) return -1;
        cx->dtype[c] = rl__dtype_in_name(h->cells[c]);
    }
    size_t cells = (t->n - 1) * (h->n - cx->nx);
    if (cells > RL_RECORD_MAX_POINTS)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                         "%zu values; the limit is %d points per record: split the table", cells,
                         RL_RECORD_MAX_POINTS);
    for (size_t i = 1; i < t->n; i++) {
        if (t->rows[i].n != h->n) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "line %zu", t->line[i]);
            return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                             "expected %zu cells like the header, got %zu", h->n, t->rows[i].n);
        }
        for (size_t c = cx->nx; c < h->n; c++)
            if (tr_cell(r, o, t, i, c, cx, is)) return -1;
    }
    return 0;
}

static int tr_notes(rl_record *r, const rl_import_opts *o, const tr_table *t, const tr_ctx *cx) {
    char note[1200], xs[120] = "";
    for (size_t k = 0; k < cx->nx; k++) {
        size_t u = strlen(xs);
        snprintf(xs + u, sizeof xs - u, "%s%s → %s", k ? ", " : "", t->rows[0].cells[k],
                 rl_problem_field_info((rl_problem_field)cx->x[k])->key);
    }
    int any_rate = 0;
    for (size_t c = cx->nx; c < t->rows[0].n; c++) any_rate |= cx->rate[c];
    snprintf(note, sizeof note,
             "triton.testing.perf_report table (%s%s%s): x columns %s; one point per x value and "
             "line (column), the line's name as the kernel. %s One number per cell (do_bench's "
             "figure, by default the mean over its repetitions): stored as the median, no spread. "
             "A column naming a dtype ([FP16], [FP8]) sets that line's dtype. Bytes: the %s traffic "
             "model. The fixed problem fields are the ones given to rooflab import.",
             t->printed ? "printed by print_data=True" : "CSV written by save_path",
             t->title[0] ? ", " : "", t->title, xs,
             any_rate ? "A FLOP rate is turned into the time it came from: time = F_rate / rate, "
                        "F_rate = 4·B·H·N·L·d × ½ causal × 2.5 bwd (06-fused-attention's count), "
                        "kept as the point's FLOPs; the rate as its reported rate."
                      : "Times in the header's (or --unit's) unit; FLOPs the model's F.",
             rl_rec_traffic_name(o->traffic_model));
    return rl_rec_set_clean_string(&r->provenance.notes, note);
}

/* 1 when the text starts with perf_report's printed form: a line ending in ':' without commas. */
int rl__triton_printed(const char *text, size_t len, size_t pos) {
    size_t n = 0;
    while (pos + n < len && text[pos + n] != '\n') n++;
    size_t m = n;
    if (m && text[pos + m - 1] == '\r') m--;
    return m > 1 && text[pos + m - 1] == ':' && !memchr(text + pos, ',', m) &&
           pos + n + 1 < len;
}

rl_status rl__import_triton(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is) {
    rl__skip_bom(&text, &len);
    size_t pos = 0;
    while (pos < len && (text[pos] == '\n' || text[pos] == '\r')) pos++;
    tr_table t = {0};
    tr_ctx cx = {0};
    int bad = rl__import_common(r, o, "triton.testing.perf_report table (imported by rooflab "
                                      "import triton-csv)", "unknown (not in the table)", NULL, NULL)
                  ? rl__oom(is)
                  : 0;
    if (!bad) bad = rl__triton_printed(text, len, pos) ? tr_read_printed(text, len, pos, &t, is)
                                                       : tr_read_csv(text, len, pos, &t, is);
    if (!bad && t.n < 2)
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                        "expected a perf_report table: a header (x columns, then one column per "
                        "line) and at least one row of values");
    static const rl_problem_field need[] = {RL_FIELD_BATCH, RL_FIELD_HEADS, RL_FIELD_SEQ,
                                            RL_FIELD_HEAD_DIM};
    if (!bad) bad = tr_x_columns(&t.rows[0], t.line[0], o->gbench_args, cx.x, &cx.nx, is);
    if (!bad) {
        /* the x columns give their fields: the rest of batch, heads, seq, head_dim from the user */
        rl_import_opts with = *o;
        for (size_t k = 0; k < cx.nx; k++) with.problem_given |= 1u << cx.x[k];
        bad = rl__require_problem(&with, need, 4,
                                  "a perf_report table gives only its x columns of the problem",
                                  is);
    }
    if (!bad) bad = tr_points(r, o, &t, &cx, is);
    if (!bad && cx.points == 0)
        bad = rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "every value of the table is empty "
                                                              "(NaN): no line ran");
    if (!bad && cx.empty)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "",
                  "%zu empty (NaN) cells skipped: lines that did not run for those x values", cx.empty);
    if (!bad && t.next_table)
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, "",
                  "line %zu: another perf_report table (its plot name) not read: one table per "
                  "import, since its fixed problem fields differ; save each table on its own",
                  t.next_table);
    if (!bad && tr_notes(r, o, &t, &cx)) bad = rl__oom(is);
    tr_free(&t);
    return bad ? RL_ERR_INVALID : RL_OK;
}
