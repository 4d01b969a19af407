/* record_import.c — other tools' output → rl_record.
 *
 *   ert      Empirical Roofline Toolkit roofline.json: empirical.gbytes.data [[name, GB/s]...]
 *            and empirical.gflops.data [[name, GFLOP/s]...] become measured ceilings; spec.*
 *            become datasheet ceilings. No points.
 *   ncu-csv  `ncu --csv --page raw`: one point per kernel name (its launches give the timing
 *            spread). Time gpu__time_duration.sum; bytes dram__bytes_read.sum +
 *            dram__bytes_write.sum (counter-measured); FLOPs from the SASS thread-instruction
 *            counters (add + mul + 2·fma, for h, f and d) plus tensor-pipe ops
 *            sm__ops_path_tensor_src_*.sum (taken as FLOPs) where they were collected.
 *   gbench   Google Benchmark JSON: one point per run_name; time real_time (time_unit); the
 *            "TFLOP/s" and "HBM GB/s" counters give the benchmark's FLOPs and bytes (rate × time)
 *            and are kept as reported rates; the problem comes from the name's arguments.
 */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

const char *rl_import_format_name(rl_import_format f) {
    switch (f) {
    case RL_IMPORT_ERT: return "ert";
    case RL_IMPORT_NCU_CSV: return "ncu-csv";
    case RL_IMPORT_GBENCH: return "gbench";
    default: return "unknown";
    }
}

rl_status rl_import_format_parse(const char *text, rl_import_format *out, rl_error *err) {
    for (int f = 0; f < RL_IMPORT_FORMAT_COUNT; f++)
        if (text && strcmp(text, rl_import_format_name((rl_import_format)f)) == 0) {
            *out = (rl_import_format)f;
            return RL_OK;
        }
    if (err) {
        err->status = RL_ERR_UNKNOWN;
        snprintf(err->field, sizeof err->field, "FORMAT");
        snprintf(err->message, sizeof err->message,
                 "FORMAT: unknown format \"%.40s\"; expected one of ert, ncu-csv, gbench",
                 text ? text : "");
    }
    return RL_ERR_UNKNOWN;
}

static int oom(rl_rec_issues *is) {
    return rl__issue(is, RL_REC_ERROR, RL_ERR_CAPACITY, "", "out of memory");
}

/* Fill what every imported record needs from the options, with stated defaults. */
static int common_fields(rl_record *r, const rl_import_opts *o, const char *tool,
                         const char *hw_default, const char *date_default,
                         const char *version_default) {
    int bad = 0;
    bad |= rl__set_clean(&r->hardware.name, o->hardware_name ? o->hardware_name : hw_default);
    if (o->preset) bad |= rl__set_clean(&r->hardware.preset, o->preset);
    bad |= rl__set_clean(&r->software.kernel_version,
                             o->kernel_version ? o->kernel_version
                             : version_default ? version_default
                                               : "unknown (imported)");
    const char *date = o->date ? o->date : date_default;
    if (date && (o->date || rl__date_ok(date))) bad |= rl__set_clean(&r->provenance.date, date);
    bad |= rl__set_clean(&r->provenance.tool, tool);
    if (o->source) bad |= rl__set_clean(&r->provenance.source, o->source);
    return bad;
}

/* Seconds since 1970 (UTC) → "YYYY-MM-DDTHH:MM:SSZ" (days → civil date, H. Hinnant's method). */
static void iso_date_from_epoch(double secs, char *buf, size_t cap) {
    buf[0] = '\0';
    if (!(secs > 0) || secs > 4e9) return;
    long long t = (long long)secs;
    long long days = t / 86400, rem = t % 86400;
    long long z = days + 719468;
    long long era = z / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    long long d = doy - (153 * mp + 2) / 5 + 1;
    long long m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) y++;
    /* secs ≤ 4e9: year ≤ 2096, every field fits its width */
    snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, (int)m, (int)d, (int)(rem / 3600),
             (int)((rem / 60) % 60), (int)(rem % 60));
}

static const cJSON *get_path(const cJSON *root, const char *a, const char *b, const char *c) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, a);
    if (v && b) v = cJSON_GetObjectItemCaseSensitive(v, b);
    if (v && c) v = cJSON_GetObjectItemCaseSensitive(v, c);
    return v;
}

static const cJSON *ert_meta(const cJSON *root, const char *key) {
    const cJSON *v = get_path(root, "empirical", "metadata", key);
    if (!v) v = get_path(root, "empirical", "gflops", "metadata");
    if (v && !cJSON_IsString(v) && !cJSON_IsNumber(v)) v = cJSON_GetObjectItemCaseSensitive(v, key);
    if (!v) {
        const cJSON *m = get_path(root, "empirical", "gbytes", "metadata");
        v = m ? cJSON_GetObjectItemCaseSensitive(m, key) : NULL;
    }
    return v;
}

static rl_dtype dtype_in_name(const char *s) {
    static const struct {
        const char *tok;
        rl_dtype d;
    } map[] = {{"fp16", RL_DTYPE_FP16}, {"half", RL_DTYPE_FP16}, {"bf16", RL_DTYPE_BF16},
               {"tf32", RL_DTYPE_TF32}, {"fp32", RL_DTYPE_FP32}, {"fp8", RL_DTYPE_FP8},
               {"sp", RL_DTYPE_FP32}};
    char low[128];
    size_t n = 0;
    for (; s && s[n] && n + 1 < sizeof low; n++) low[n] = (char)tolower((unsigned char)s[n]);
    low[n] = '\0';
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        const char *hit = strstr(low, map[i].tok);
        while (hit) {
            size_t len = strlen(map[i].tok);
            int left = hit == low || !isalnum((unsigned char)hit[-1]);
            int right = !isalnum((unsigned char)hit[len]);
            if (left && right) return map[i].d;
            hit = strstr(hit + 1, map[i].tok);
        }
    }
    return RL_DTYPE_DEFAULT;
}

static void ert_ceilings(rl_record *r, const cJSON *root, const char *section, const char *kind,
                         int measured, rl_rec_issues *is) {
    const cJSON *data = get_path(root, section, kind, "data");
    char path[48];
    snprintf(path, sizeof path, "%.12s.%.8s.data", section, kind);
    if (!data) return;
    if (!cJSON_IsArray(data)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path, "expected an array of [name, value]");
        return;
    }
    int i = 0;
    for (const cJSON *e = data->child; e; e = e->next, i++) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        const cJSON *name = cJSON_GetArrayItem(e, 0), *val = cJSON_GetArrayItem(e, 1);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsString(name) ||
            !cJSON_IsNumber(val) || !isfinite(val->valuedouble) || !(val->valuedouble > 0)) {
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "expected [name, positive %s] as ERT writes it",
                      strcmp(kind, "gbytes") == 0 ? "GB/s" : "GFLOP/s");
            continue;
        }
        if (r->hardware.ceiling_count >= RL_RECORD_MAX_CEILINGS) {
            rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p, "more than %d ceilings in all",
                      RL_RECORD_MAX_CEILINGS);
            return;
        }
        int bw = strcmp(kind, "gbytes") == 0;
        char nm[96];
        snprintf(nm, sizeof nm, "%s%s", measured ? "" : "spec ", name->valuestring);
        rl_rec_ceiling *c = rl_rec_add_ceiling(&r->hardware, nm,
                                               bw ? RL_CEIL_BANDWIDTH : RL_CEIL_COMPUTE,
                                               val->valuedouble * 1e9, measured);
        if (!c) {
            oom(is);
            return;
        }
        const char *n = name->valuestring;
        if (bw) {
            char low[96];
            size_t k = 0;
            for (; n[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)n[k]);
            low[k] = '\0';
            c->dram = strstr(low, "dram") || strstr(low, "hbm") || strstr(low, "gddr");
        } else {
            /* "FP64 GFLOPs" has no rooflab dtype: it applies to none */
            c->dtype = dtype_in_name(n);
            if (strstr(n, "FP64") || strstr(n, "fp64") || strstr(n, "DP")) c->dtype = RL_DTYPE_DEFAULT;
        }
    }
}

static rl_status import_ert(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root || !cJSON_IsObject(root) || !get_path(root, "empirical", NULL, NULL)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not an ERT roofline.json: expected a JSON object with \"empirical\": "
                  "{\"gbytes\": {\"data\": ...}, \"gflops\": {\"data\": ...}}");
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    const cJSON *ver = ert_meta(root, "ERT_VERSION");
    const cJSON *host = ert_meta(root, "HOSTNAME");
    const cJSON *ts = ert_meta(root, "TIMESTAMP_DB");
    if (!ts) ts = ert_meta(root, "TIMESTAMP_DATA");
    char hwname[160], date[32] = "", version[64];
    snprintf(hwname, sizeof hwname, "unknown (ERT host %.100s)",
             cJSON_IsString(host) ? host->valuestring : "not recorded");
    if (cJSON_IsNumber(ts)) iso_date_from_epoch(ts->valuedouble, date, sizeof date);
    if (cJSON_IsString(ts)) iso_date_from_epoch(atof(ts->valuestring), date, sizeof date);
    snprintf(version, sizeof version, "ERT %.40s",
             cJSON_IsString(ver) ? ver->valuestring : "(version not recorded)");
    int bad = common_fields(r, o, "Empirical Roofline Toolkit (imported by rooflab import ert)",
                            hwname, date[0] ? date : NULL, version);
    bad |= rl__set_clean(&r->software.kernel, "ERT micro-kernels");
    bad |= rl__set_clean(&r->provenance.notes,
                             "Measured ceilings from ERT: empirical.gbytes → bandwidth ceilings "
                             "(GB/s × 1e9), empirical.gflops → compute ceilings (GFLOP/s × 1e9); "
                             "spec.* kept as datasheet ceilings.");
    if (bad) oom(is);
    ert_ceilings(r, root, "empirical", "gbytes", 1, is);
    ert_ceilings(r, root, "empirical", "gflops", 1, is);
    ert_ceilings(r, root, "spec", "gbytes", 0, is);
    ert_ceilings(r, root, "spec", "gflops", 0, is);
    if (r->hardware.ceiling_count == 0)
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "empirical",
                  "no ceilings found; expected empirical.gbytes.data and empirical.gflops.data");
    cJSON_Delete(root);
    return RL_OK;
}

/* ---------------------------------------------------------------------------------------------
 * CSV (RFC 4180: quotes, doubled quotes, CRLF) — enough for ncu's export.
 * ------------------------------------------------------------------------------------------- */

typedef struct csv_row {
    char **cells;
    size_t n;
} csv_row;

static void row_free(csv_row *row) {
    for (size_t i = 0; i < row->n; i++) free(row->cells[i]);
    free(row->cells);
    row->cells = NULL;
    row->n = 0;
}

/* Parse one record starting at *pos; returns 1 when a row was read, 0 at the end, -1 on OOM or
 * an unterminated quote. */
static int csv_next_raw(const char *t, size_t len, size_t *pos, csv_row *row);
static int csv_next(const char *t, size_t len, size_t *pos, csv_row *row) {
    int rc = csv_next_raw(t, len, pos, row);
    if (rc < 0) row_free(row);
    return rc;
}

static int csv_next_raw(const char *t, size_t len, size_t *pos, csv_row *row) {
    size_t i = *pos;
    if (i >= len) return 0;
    size_t cap = 0;
    row->n = 0;
    row->cells = NULL;
    for (;;) {
        size_t bcap = 32, blen = 0;
        char *buf = malloc(bcap);
        if (!buf) return -1;
        int quoted = i < len && t[i] == '"';
        if (quoted) i++;
        for (;;) {
            if (i >= len) {
                if (quoted) {
                    free(buf);
                    return -1;
                }
                break;
            }
            char c = t[i];
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < len && t[i + 1] == '"') {
                        i += 2;
                        c = '"';
                    } else {
                        i++;
                        quoted = 0;
                        continue;
                    }
                } else
                    i++;
            } else {
                if (c == ',' || c == '\n' || c == '\r') break;
                i++;
            }
            if (blen + 2 > bcap) {
                if (bcap > RL_RECORD_MAX_STRING * 4) {
                    free(buf);
                    return -1;
                }
                char *nb = realloc(buf, bcap * 2);
                if (!nb) {
                    free(buf);
                    return -1;
                }
                buf = nb;
                bcap *= 2;
            }
            buf[blen++] = c;
        }
        buf[blen] = '\0';
        if (row->n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nc = realloc(row->cells, cap * sizeof *nc);
            if (!nc) {
                free(buf);
                return -1;
            }
            row->cells = nc;
        }
        row->cells[row->n++] = buf;
        if (i < len && t[i] == ',') {
            i++;
            continue;
        }
        if (i < len && t[i] == '\r') i++;
        if (i < len && t[i] == '\n') i++;
        break;
    }
    *pos = i;
    return 1;
}

static int find_col(const csv_row *h, const char *name) {
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->cells[i], name) == 0) return (int)i;
    return -1;
}

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

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static rl_status import_ncu(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                            rl_rec_issues *is) {
    size_t pos = 0;
    csv_row header = {0}, units = {0}, row = {0};
    ncu_kernel *ks = NULL;
    size_t nk = 0;
    rl_status st = RL_OK;
    int rc;
    /* Skip ncu's "==PROF==" / "==WARNING==" log lines and blank lines before the header. */
    for (;;) {
        while (pos < len && (text[pos] == '\n' || text[pos] == '\r')) pos++;
        if (pos + 1 < len && text[pos] == '=' && text[pos + 1] == '=') {
            while (pos < len && text[pos] != '\n') pos++;
            continue;
        }
        break;
    }
    rc = csv_next(text, len, &pos, &header);
    if (rc <= 0) {
        row_free(&header);
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                  "expected the header of `ncu --csv --page raw` (\"ID\",...,\"Kernel Name\",...)");
        return RL_ERR_INVALID;
    }
    static const char *const need[] = {"Kernel Name", "gpu__time_duration.sum",
                                       "dram__bytes_read.sum", "dram__bytes_write.sum"};
    int col[4];
    for (int i = 0; i < 4; i++) {
        col[i] = find_col(&header, need[i]);
        if (col[i] < 0) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "row 1, column %s", need[i]);
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "missing; expected it in the header (collect it with ncu --metrics %s)",
                      i == 0 ? "..." : need[i]);
            st = RL_ERR_INVALID;
        }
    }
    if (st != RL_OK) goto done;
    /* FLOP counters: SASS thread instructions (add, mul: 1 FLOP; fma: 2) and tensor-pipe ops. */
    static const char *const prec[] = {"h", "f", "d"};
    static const char *const ops[] = {"add", "mul", "fma"};
    int sass[3][3];
    int any_flop = 0;
    for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++) {
            char m[96];
            snprintf(m, sizeof m, "sm__sass_thread_inst_executed_op_%s%s_pred_on.sum", prec[p], ops[q]);
            sass[p][q] = find_col(&header, m);
            if (sass[p][q] < 0) {
                snprintf(m, sizeof m, "smsp__sass_thread_inst_executed_op_%s%s_pred_on.sum",
                         prec[p], ops[q]);
                sass[p][q] = find_col(&header, m);
            }
            if (sass[p][q] >= 0) any_flop = 1;
        }
    int tensor[32];
    size_t ntensor = 0;
    for (size_t i = 0; i < header.n && ntensor < 32; i++)
        if (strncmp(header.cells[i], "sm__ops_path_tensor_src_", 24) == 0 &&
            strstr(header.cells[i], ".sum") && !strstr(header.cells[i], ".sum.")) {
            tensor[ntensor++] = (int)i;
            any_flop = 1;
        }
    if (!any_flop) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "row 1",
                  "no FLOP counters; expected sm__sass_thread_inst_executed_op_{h,f,d}{add,mul,fma}"
                  "_pred_on.sum or sm__ops_path_tensor_src_*.sum columns");
        st = RL_ERR_INVALID;
        goto done;
    }
    int c_dev = find_col(&header, "device__attribute_display_name");
    int c_ccmaj = find_col(&header, "device__attribute_compute_capability_major");
    int c_ccmin = find_col(&header, "device__attribute_compute_capability_minor");
    int c_id = find_col(&header, "ID");
    char devname[128] = "", cc[16] = "";

    size_t rowno = 1;
    size_t save = pos;
    /* ncu writes a units row right after the header (its ID cell is empty). */
    if (csv_next(text, len, &pos, &units) == 1 && c_id >= 0 && (size_t)c_id < units.n &&
        units.cells[c_id][0] == '\0') {
        rowno++;
    } else {
        row_free(&units);
        pos = save;
    }
    double t_scale = ncu_unit_scale(units.n > (size_t)col[1] ? units.cells[col[1]] : "", 1);
    double b_scale[2];
    for (int i = 0; i < 2; i++)
        b_scale[i] = ncu_unit_scale(units.n > (size_t)col[2 + i] ? units.cells[col[2 + i]] : "", 0);
    if (t_scale == 0 || b_scale[0] == 0 || b_scale[1] == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_UNIT, "row 2",
                  "unknown unit for gpu__time_duration.sum or dram__bytes_*.sum; expected nsecond, "
                  "usecond, msecond, second / byte, Kbyte, Mbyte, Gbyte");
        st = RL_ERR_INVALID;
        goto done;
    }

    while ((rc = csv_next(text, len, &pos, &row)) == 1) {
        rowno++;
        if (row.n == 1 && row.cells[0][0] == '\0') {
            row_free(&row);
            continue;
        }
        if (row.cells[0][0] == '=' && row.cells[0][1] == '=') {
            row_free(&row);
            continue;
        }
        char p[RL_REC_PATH_MAX];
        if (row.n != header.n) {
            snprintf(p, sizeof p, "row %zu", rowno);
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected %zu columns like the header, "
                      "got %zu", header.n, row.n);
            row_free(&row);
            continue;
        }
        double t = 0, b[2] = {0, 0}, f = 0;
        int ok = 1;
        for (int i = 1; i < 4 && ok; i++) {
            double v;
            if (!ncu_number(row.cells[col[i]], &v) || (i == 1 && v <= 0)) {
                snprintf(p, sizeof p, "row %zu, column %s", rowno, need[i]);
                rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                          "expected a %s number, got \"%.30s\"", i == 1 ? "positive" : "non-negative",
                          row.cells[col[i]]);
                ok = 0;
            } else if (i == 1)
                t = v * t_scale;
            else
                b[i - 2] = v * b_scale[i - 2];
        }
        if (!ok) {
            row_free(&row);
            continue;
        }
        int has_tensor = 0;
        for (int pp = 0; pp < 3; pp++)
            for (int q = 0; q < 3; q++) {
                double v;
                if (sass[pp][q] >= 0 && ncu_number(row.cells[sass[pp][q]], &v))
                    f += (q == 2 ? 2.0 : 1.0) * v;
            }
        for (size_t i = 0; i < ntensor; i++) {
            double v;
            if (ncu_number(row.cells[tensor[i]], &v) && v > 0) {
                f += v;
                has_tensor = 1;
            }
        }
        if (c_dev >= 0 && !devname[0]) snprintf(devname, sizeof devname, "%.120s", row.cells[c_dev]);
        if (c_ccmaj >= 0 && c_ccmin >= 0 && !cc[0])
            snprintf(cc, sizeof cc, "%.6s.%.6s", row.cells[c_ccmaj], row.cells[c_ccmin]);
        const char *kname = row.cells[col[0]];
        size_t k = 0;
        while (k < nk && strcmp(ks[k].name, kname) != 0) k++;
        if (k == nk) {
            ncu_kernel *nks = realloc(ks, (nk + 1) * sizeof *nks);
            if (!nks) {
                oom(is);
                st = RL_ERR_CAPACITY;
                goto done;
            }
            ks = nks;
            memset(&ks[nk], 0, sizeof ks[nk]);
            ks[nk].name = rl__strndup(kname, strlen(kname));
            nk++;
            if (!ks[k].name) {
                oom(is);
                st = RL_ERR_CAPACITY;
                goto done;
            }
        }
        if (push3(&ks[k], t, b[0] + b[1], f) != 0) {
            oom(is);
            st = RL_ERR_CAPACITY;
            goto done;
        }
        ks[k].has_tensor |= has_tensor;
        row_free(&row);
        if (nk > RL_RECORD_MAX_POINTS) break;
    }
    if (rc < 0) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "row %zu", rowno + 1);
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "unterminated quoted cell (or out of memory)");
        st = RL_ERR_INVALID;
        goto done;
    }
    if (nk == 0) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "", "no kernel rows after the header");
        st = RL_ERR_INVALID;
        goto done;
    }
    int bad = common_fields(r, o, "Nsight Compute CSV (ncu --csv --page raw; imported by rooflab)",
                            devname[0] ? devname : "unknown (not in the ncu export)", NULL, NULL);
    if (cc[0]) bad |= rl__set_clean(&r->hardware.compute_capability, cc);
    bad |= rl__set_clean(
        &r->provenance.notes,
        "One point per kernel name; timing over its launches (median, min, max). Bytes: "
        "dram__bytes_read.sum + dram__bytes_write.sum (counter-measured). FLOPs: "
        "sm__sass_thread_inst_executed_op_{h,f,d}{add,mul} + 2 × {h,f,d}fma, plus "
        "sm__ops_path_tensor_src_*.sum taken as FLOPs where collected. The problem is not in "
        "the export: it is the one given to rooflab import.");
    if (bad) oom(is);
    for (size_t k = 0; k < nk; k++) {
        size_t n = ks[k].n;
        double flops = median_of(ks[k].flops, n);
        if (!(flops > 0)) {
            char p[RL_REC_PATH_MAX];
            snprintf(p, sizeof p, "kernel \"%.60s\"", ks[k].name);
            rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p,
                      "skipped: its FLOP counters are all zero (a copy or memset kernel, or "
                      "tensor work without sm__ops_path_tensor_src_*.sum collected)");
            continue;
        }
        rl_rec_point *pt = rl_record_add_point(r);
        if (!pt) {
            oom(is);
            break;
        }
        pt->problem = o->problem;
        pt->traffic_model = o->traffic_model;
        double *t = ks[k].time_s;
        double tmin = t[0], tmax = t[0];
        for (size_t i = 1; i < n; i++) {
            if (t[i] < tmin) tmin = t[i];
            if (t[i] > tmax) tmax = t[i];
        }
        pt->time_median_s = median_of(ks[k].time_s, n);
        pt->time_min_s = tmin;
        pt->time_max_s = tmax;
        pt->runs = (int64_t)n;
        pt->measured_bytes = median_of(ks[k].bytes, n);
        pt->flops = flops;
        if (rl__set_clean(&pt->kernel, ks[k].name)) oom(is);
    }
    if (r->point_count == 0)
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "no kernel with floating-point work; expected FLOP counters above zero");
done:
    row_free(&header);
    row_free(&units);
    row_free(&row);
    for (size_t k = 0; k < nk; k++) {
        free(ks[k].name);
        free(ks[k].time_s);
        free(ks[k].bytes);
        free(ks[k].flops);
    }
    free(ks);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * Google Benchmark JSON
 * ------------------------------------------------------------------------------------------- */

static const char *const GB_KEYS[] = {"batch",  "heads",   "kv_heads", "seq", "kv_len",
                                      "head_dim", "causal", "block_m",  "block_n", NULL};

static int set_problem_key(rl_problem *pb, const char *key, long long v) {
    if (strcmp(key, "batch") == 0) pb->batch = v;
    else if (strcmp(key, "heads") == 0) pb->heads = v;
    else if (strcmp(key, "kv_heads") == 0) pb->kv_heads = v;
    else if (strcmp(key, "seq") == 0) pb->seq = v;
    else if (strcmp(key, "kv_len") == 0) pb->kv_len = v;
    else if (strcmp(key, "head_dim") == 0) pb->head_dim = v;
    else if (strcmp(key, "causal") == 0) pb->causal = v != 0;
    else if (strcmp(key, "block_m") == 0) pb->block_m = v;
    else if (strcmp(key, "block_n") == 0) pb->block_n = v;
    else if (strcmp(key, "_") == 0) return 0;
    else return -1;
    return 0;
}

/* "BM_x/4/8192/16/128" or "BM_x/batch:4/seq:8192/..." → problem. Returns 0 or -1 (issue added). */
static int gbench_problem(const char *name, const char *mapping, rl_problem *pb, const char *path,
                          rl_rec_issues *is) {
    char keys[16][16];
    size_t nkeys = 0;
    const char *m = mapping;
    while (*m && nkeys < 16) {
        size_t n = strcspn(m, ",");
        snprintf(keys[nkeys], sizeof keys[nkeys], "%.*s", (int)(n < 15 ? n : 15), m);
        int known = strcmp(keys[nkeys], "_") == 0;
        for (size_t i = 0; GB_KEYS[i]; i++)
            if (strcmp(keys[nkeys], GB_KEYS[i]) == 0) known = 1;
        if (!known)
            return rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "--args",
                             "unknown key \"%s\"; expected batch, heads, kv_heads, seq, kv_len, "
                             "head_dim, causal, block_m, block_n or _",
                             keys[nkeys]);
        nkeys++;
        m += n;
        if (*m == ',') m++;
    }
    rl_dtype d = dtype_in_name(name);
    if (d != RL_DTYPE_DEFAULT) pb->dtype = d;
    const char *s = strchr(name, '/');
    size_t arg = 0;
    while (s && *s == '/') {
        s++;
        size_t n = strcspn(s, "/");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 63 ? n : 63), s);
        s += n;
        char *colon = strchr(tok, ':');
        const char *key = NULL;
        const char *val = tok;
        if (colon) {
            *colon = '\0';
            key = tok;
            val = colon + 1;
        } else if (arg < nkeys) {
            key = keys[arg];
        }
        arg++;
        char *end = NULL;
        long long v = strtoll(val, &end, 10);
        if (!key) continue; /* more arguments than the mapping names: ignored */
        if (end == val || *end) {
            /* Google Benchmark appends e.g. "real_time", "manual_time", "repeats:3", "threads:1" */
            if (colon || strcmp(key, "_") == 0) continue;
            continue;
        }
        int known = 0;
        for (size_t i = 0; GB_KEYS[i]; i++)
            if (strcmp(key, GB_KEYS[i]) == 0) known = 1;
        if (!known) continue; /* "threads:1", "repeats:5" ... */
        set_problem_key(pb, key, v);
    }
    (void)path;
    return 0;
}

static double gb_time_scale(const char *unit) {
    if (!unit) return 1e-9;
    if (strcmp(unit, "ns") == 0) return 1e-9;
    if (strcmp(unit, "us") == 0) return 1e-6;
    if (strcmp(unit, "ms") == 0) return 1e-3;
    if (strcmp(unit, "s") == 0) return 1;
    return 0;
}

typedef struct gb_group {
    const char *run_name;
    const cJSON *first;   /* first entry, for name and counters */
    const cJSON *median;  /* aggregate "median" when present */
    double *times; /* malloc'd, one per iteration run */
    size_t n, cap;
    double tflops_sum, gbs_sum;
    size_t n_tflops, n_gbs;
    int index;
} gb_group;

static rl_status import_gbench(const char *text, size_t len, const rl_import_opts *o,
                               rl_record *r, rl_rec_issues *is) {
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    const cJSON *bms = root ? cJSON_GetObjectItemCaseSensitive(root, "benchmarks") : NULL;
    if (!root || !cJSON_IsArray(bms)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not Google Benchmark JSON: expected an object with a \"benchmarks\" array "
                  "(--benchmark_format=json or --benchmark_out)");
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    const char *mapping = o->gbench_args ? o->gbench_args : "batch,seq,heads,head_dim";
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
    const cJSON *date = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "date") : NULL;
    const cJSON *host = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "host_name") : NULL;
    const cJSON *exe = ctx ? cJSON_GetObjectItemCaseSensitive(ctx, "executable") : NULL;
    char hwname[160], datebuf[32] = "";
    snprintf(hwname, sizeof hwname, "unknown (host %.100s)",
             cJSON_IsString(host) ? host->valuestring : "not recorded");
    if (cJSON_IsString(date) && strlen(date->valuestring) >= 10)
        snprintf(datebuf, sizeof datebuf, "%.25s", date->valuestring);
    int bad = common_fields(r, o, "Google Benchmark JSON (imported by rooflab import gbench)",
                            hwname, datebuf[0] ? datebuf : NULL, NULL);
    if (cJSON_IsString(exe)) bad |= rl__set_clean(&r->software.kernel, exe->valuestring);
    char note[RL_REC_MESSAGE_MAX];
    snprintf(note, sizeof note,
             "Problem from the benchmark name: \"/\"-separated arguments mapped in order to "
             "%s (key:value arguments by name; dtype from a fp16/bf16/fp8/fp32 token in the "
             "name). FLOPs = \"TFLOP/s\" × real_time, bytes = \"HBM GB/s\" × real_time.",
             mapping);
    bad |= rl__set_clean(&r->provenance.notes, note);
    if (bad) oom(is);

    size_t nb = (size_t)cJSON_GetArraySize(bms);
    gb_group *groups = calloc(nb ? nb : 1, sizeof *groups);
    size_t ng = 0;
    if (!groups) {
        cJSON_Delete(root);
        oom(is);
        return RL_ERR_CAPACITY;
    }
    int i = 0;
    for (const cJSON *b = bms->child; b; b = b->next, i++) {
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "benchmarks[%d]", i);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(b, "name");
        const cJSON *run_name = cJSON_GetObjectItemCaseSensitive(b, "run_name");
        if (!cJSON_IsString(run_name)) run_name = name;
        if (!cJSON_IsObject(b) || !cJSON_IsString(run_name)) {
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected an object with a name");
            continue;
        }
        const cJSON *err = cJSON_GetObjectItemCaseSensitive(b, "error_occurred");
        if (cJSON_IsTrue(err)) {
            const cJSON *msg = cJSON_GetObjectItemCaseSensitive(b, "error_message");
            rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p, "skipped: the benchmark failed (%.120s)",
                      cJSON_IsString(msg) ? msg->valuestring : "no message");
            continue;
        }
        size_t g = 0;
        while (g < ng && strcmp(groups[g].run_name, run_name->valuestring) != 0) g++;
        if (g == ng) {
            groups[ng].run_name = run_name->valuestring;
            groups[ng].first = b;
            groups[ng].index = i;
            ng++;
        }
        const cJSON *rt = cJSON_GetObjectItemCaseSensitive(b, "run_type");
        const cJSON *agg = cJSON_GetObjectItemCaseSensitive(b, "aggregate_name");
        int is_agg = cJSON_IsString(rt) && strcmp(rt->valuestring, "aggregate") == 0;
        if (is_agg) {
            if (cJSON_IsString(agg) && strcmp(agg->valuestring, "median") == 0) groups[g].median = b;
            continue;
        }
        const cJSON *real = cJSON_GetObjectItemCaseSensitive(b, "real_time");
        const cJSON *unit = cJSON_GetObjectItemCaseSensitive(b, "time_unit");
        double scale = gb_time_scale(cJSON_IsString(unit) ? unit->valuestring : NULL);
        if (!cJSON_IsNumber(real) || !(real->valuedouble > 0) || !isfinite(real->valuedouble) ||
            scale == 0) {
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "expected real_time > 0 with time_unit ns, us, ms or s");
            continue;
        }
        if (groups[g].n == groups[g].cap) {
            size_t cap = groups[g].cap ? groups[g].cap * 2 : 4;
            double *nt = realloc(groups[g].times, cap * sizeof *nt);
            if (!nt) {
                oom(is);
                break;
            }
            groups[g].times = nt;
            groups[g].cap = cap;
        }
        groups[g].times[groups[g].n++] = real->valuedouble * scale;
        const cJSON *tf = cJSON_GetObjectItemCaseSensitive(b, "TFLOP/s");
        const cJSON *gbs = cJSON_GetObjectItemCaseSensitive(b, "HBM GB/s");
        if (cJSON_IsNumber(tf) && tf->valuedouble > 0 && isfinite(tf->valuedouble)) {
            groups[g].tflops_sum += tf->valuedouble;
            groups[g].n_tflops++;
        }
        if (cJSON_IsNumber(gbs) && gbs->valuedouble > 0 && isfinite(gbs->valuedouble)) {
            groups[g].gbs_sum += gbs->valuedouble;
            groups[g].n_gbs++;
        }
    }
    for (size_t g = 0; g < ng && g < RL_RECORD_MAX_POINTS; g++) {
        gb_group *gr = &groups[g];
        char p[RL_REC_PATH_MAX];
        snprintf(p, sizeof p, "benchmarks[%d]", gr->index);
        if (gr->n == 0) continue;
        rl_rec_point *pt = rl_record_add_point(r);
        if (!pt) {
            oom(is);
            break;
        }
        pt->problem = o->problem;
        pt->traffic_model = o->traffic_model;
        if (gbench_problem(gr->run_name, mapping, &pt->problem, p, is) != 0) break;
        double tmin = gr->times[0], tmax = gr->times[0];
        for (size_t k = 1; k < gr->n; k++) {
            if (gr->times[k] < tmin) tmin = gr->times[k];
            if (gr->times[k] > tmax) tmax = gr->times[k];
        }
        double med = median_of(gr->times, gr->n);
        if (gr->median) {
            const cJSON *real = cJSON_GetObjectItemCaseSensitive(gr->median, "real_time");
            const cJSON *unit = cJSON_GetObjectItemCaseSensitive(gr->median, "time_unit");
            double scale = gb_time_scale(cJSON_IsString(unit) ? unit->valuestring : NULL);
            if (cJSON_IsNumber(real) && real->valuedouble > 0 && scale > 0) med = real->valuedouble * scale;
        }
        pt->time_median_s = med;
        pt->time_min_s = tmin < med ? tmin : med;
        pt->time_max_s = tmax > med ? tmax : med;
        const cJSON *iters = cJSON_GetObjectItemCaseSensitive(gr->first, "iterations");
        pt->runs = (int64_t)gr->n;
        if (gr->n == 1 && cJSON_IsNumber(iters) && iters->valuedouble >= 1)
            pt->runs = (int64_t)iters->valuedouble;
        if (rl__set_clean(&pt->label, gr->run_name)) oom(is);
        if (gr->n_tflops) {
            pt->reported_flops_per_s = gr->tflops_sum / (double)gr->n_tflops * 1e12;
            pt->flops = pt->reported_flops_per_s * med;
        } else {
            rl_workload w;
            if (rl_workload_compute(&pt->problem, &w, NULL) == RL_OK) pt->flops = w.flops;
            rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID, p,
                      "no \"TFLOP/s\" counter: flops taken from the model's F for the problem");
        }
        if (gr->n_gbs) {
            pt->reported_bytes_per_s = gr->gbs_sum / (double)gr->n_gbs * 1e9;
            pt->modelled_bytes = pt->reported_bytes_per_s * med;
        }
    }
    for (size_t g = 0; g < ng; g++) free(groups[g].times);
    free(groups);
    cJSON_Delete(root);
    return RL_OK;
}

rl_status rl_record_import(rl_import_format format, const char *text, size_t len,
                           const rl_import_opts *opts, rl_record **out, rl_rec_issues *issues) {
    rl_rec_issues local = {0};
    rl_rec_issues *is = issues ? issues : &local;
    size_t before = is->errors;
    rl_import_opts o = opts ? *opts : (rl_import_opts){0};
    if (out) *out = NULL;
    if (!text || len > RL_RECORD_MAX_FILE_BYTES) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                  "file is %zu bytes; the limit is %zu bytes (16 MiB)", len,
                  (size_t)RL_RECORD_MAX_FILE_BYTES);
        rl_rec_issues_free(&local);
        return RL_ERR_RANGE;
    }
    rl_record *r = rl_record_new(RL_PROV_MEASURED);
    if (!r) {
        oom(is);
        rl_rec_issues_free(&local);
        return RL_ERR_CAPACITY;
    }
    switch (format) {
    case RL_IMPORT_ERT: import_ert(text, len, &o, r, is); break;
    case RL_IMPORT_NCU_CSV: import_ncu(text, len, &o, r, is); break;
    case RL_IMPORT_GBENCH: import_gbench(text, len, &o, r, is); break;
    default: rl__issue(is, RL_REC_ERROR, RL_ERR_UNKNOWN, "FORMAT", "unknown import format"); break;
    }
    if (is->errors == before) rl_record_validate(r, is);
    rl_status st = RL_OK;
    if (is->errors != before) {
        st = rl__first_error(is, before);
        if (st == RL_OK) st = RL_ERR_INVALID;
        rl_record_free(r);
    } else if (out) {
        *out = r;
    } else {
        rl_record_free(r);
    }
    rl_rec_issues_free(&local);
    return st;
}
