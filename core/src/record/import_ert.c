/* import_ert.c — Empirical Roofline Toolkit roofline.json → rl_record: empirical.gbytes.data
 * [[name, GB/s]...] and empirical.gflops.data [[name, GFLOP/s]...] become measured ceilings;
 * spec.* become datasheet ceilings. No points. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

#define GIGA 1e9 /* ERT writes GB/s and GFLOP/s */

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

/* What a ceiling's ERT name says: device memory (bandwidth), or its dtype (compute). */
static void ert_classify(rl_rec_ceiling *c, const char *name, int bw) {
    if (bw) {
        char low[96];
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)name[k]);
        low[k] = '\0';
        c->dram = strstr(low, "dram") || strstr(low, "hbm") || strstr(low, "gddr");
    } else {
        /* "FP64 GFLOPs" has no rooflab dtype: it applies to none */
        c->dtype = rl__dtype_in_name(name);
        if (strstr(name, "FP64") || strstr(name, "fp64") || strstr(name, "DP")) c->dtype = RL_DTYPE_DEFAULT;
    }
}

/* One [name, value] entry at `p`; 0, or -1 to stop (the ceilings are full or memory ran out). */
static int ert_ceiling(rl_record *r, const cJSON *e, const char *p, const char *kind, int measured,
                       rl_rec_issues *is) {
    const cJSON *name = cJSON_GetArrayItem(e, 0), *val = cJSON_GetArrayItem(e, 1);
    int bw = strcmp(kind, "gbytes") == 0;
    if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsString(name) ||
        !cJSON_IsNumber(val) || !isfinite(val->valuedouble) || !(val->valuedouble > 0)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p, "expected [name, positive %s] as ERT writes it",
                  bw ? "GB/s" : "GFLOP/s");
        return 0;
    }
    if (r->hardware.ceiling_count >= RL_RECORD_MAX_CEILINGS)
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, p, "more than %d ceilings in all",
                         RL_RECORD_MAX_CEILINGS);
    char nm[96];
    snprintf(nm, sizeof nm, "%s%s", measured ? "" : "spec ", name->valuestring);
    rl_rec_ceiling *c = rl_rec_add_ceiling(&r->hardware, nm, bw ? RL_CEIL_BANDWIDTH : RL_CEIL_COMPUTE,
                                           val->valuedouble * GIGA, measured);
    if (!c) return rl__oom(is);
    /* the record's check names this entry of the input, not hardware.ceilings[k] */
    if (rl__set_ceiling_origin(r, r->hardware.ceiling_count - 1, p) != 0) return rl__oom(is);
    r->origins->ceil_note = "the input's GB/s or GFLOP/s x 1e9";
    ert_classify(c, name->valuestring, bw);
    return 0;
}

/* SECTION.KIND.data: [[name, GB/s or GFLOP/s] ...] → ceilings. */
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
        if (ert_ceiling(r, e, p, kind, measured, is) != 0) return;
    }
}

/* Hardware name, date and version from ERT's metadata; nonzero when out of memory. */
static int ert_fields(rl_record *r, const cJSON *root, const rl_import_opts *o) {
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
    int bad = rl__import_common(r, o, "Empirical Roofline Toolkit (imported by rooflab import ert)",
                            hwname, date[0] ? date : NULL, version);
    bad |= rl_rec_set_clean_string(&r->software.kernel, "ERT micro-kernels");
    bad |= rl_rec_set_clean_string(&r->provenance.notes,
                             "Measured ceilings from ERT: empirical.gbytes → bandwidth ceilings "
                             "(GB/s × 1e9), empirical.gflops → compute ceilings (GFLOP/s × 1e9); "
                             "spec.* kept as datasheet ceilings.");
    return bad;
}

rl_status rl__import_ert(const char *text, size_t len, const rl_import_opts *o, rl_record *r,
                         rl_rec_issues *is) {
    const char *end = NULL;
    rl__skip_bom(&text, &len);
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root || !cJSON_IsObject(root) || !get_path(root, "empirical", NULL, NULL)) {
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "",
                  "not an ERT roofline.json: expected a JSON object with \"empirical\": "
                  "{\"gbytes\": {\"data\": ...}, \"gflops\": {\"data\": ...}}");
        cJSON_Delete(root);
        return RL_ERR_INVALID;
    }
    /* two "empirical" keys (or two "gbytes" in it): cJSON would keep the first; refused */
    static const char *const once[] = {"empirical", "spec"};
    for (size_t k = 0; k < 2; k++) {
        const cJSON *sec = NULL;
        int n = 0;
        for (const cJSON *c = root->child; c; c = c->next)
            if (c->string && strcmp(c->string, once[k]) == 0) n++, sec = sec ? sec : c;
        int ng = 0, nf = 0;
        for (const cJSON *c = cJSON_IsObject(sec) ? sec->child : NULL; c; c = c->next) {
            ng += c->string && strcmp(c->string, "gbytes") == 0;
            nf += c->string && strcmp(c->string, "gflops") == 0;
        }
        if (n > 1 || ng > 1 || nf > 1) {
            char p[32];
            snprintf(p, sizeof p, "%s%s", once[k], n > 1 ? "" : ng > 1 ? ".gbytes" : ".gflops");
            rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, p,
                      "the key appears %d times in its object; expected it once (which one holds "
                      "the ceilings?)", n > 1 ? n : ng > 1 ? ng : nf);
            cJSON_Delete(root);
            return RL_ERR_INVALID;
        }
    }
    if (ert_fields(r, root, o)) rl__oom(is);
    size_t before = r->hardware.ceiling_count;
    ert_ceilings(r, root, "empirical", "gbytes", 1, is);
    size_t n_bw = r->hardware.ceiling_count - before;
    ert_ceilings(r, root, "empirical", "gflops", 1, is);
    size_t n_fl = r->hardware.ceiling_count - before - n_bw;
    /* a roof needs both sides: one side measured alone is said, not imported silently */
    if ((n_bw == 0) != (n_fl == 0))
        rl__issue(is, RL_REC_WARNING, RL_ERR_INVALID,
                  n_bw ? "empirical.gflops.data" : "empirical.gbytes.data",
                  "no measured %s ceiling (absent or empty): the record has %zu measured %s "
                  "ceiling(s) only, so it gives half a roof: the other side is not measured by "
                  "this run",
                  n_bw ? "compute (GFLOP/s)" : "bandwidth (GB/s)", n_bw ? n_bw : n_fl,
                  n_bw ? "bandwidth" : "compute");
    ert_ceilings(r, root, "spec", "gbytes", 0, is);
    ert_ceilings(r, root, "spec", "gflops", 0, is);
    if (r->hardware.ceiling_count == 0)
        rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, "empirical",
                  "no ceilings found; expected empirical.gbytes.data and empirical.gflops.data");
    cJSON_Delete(root);
    return RL_OK;
}

