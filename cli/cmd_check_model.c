/* cmd_check_model.c — `rooflab check-model`: the predicted time (core's rl_predict) of every
 * point of published or measured records that names a kernel profile and a hardware preset,
 * against the time the record gives, summarised per family (profile, preset, phase, fp8), with
 * the points that lie below their compulsory bound. `--targets` holds the families to stated
 * error targets (data/published/README.md). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rooflab/record.h"

#define CM_WORST 3            /* worst points shown per family */
#define CM_WITHIN 0.20        /* "within 20 %" */
#define CM_MEAN_TARGET 0.20   /* every family: mean |error| */
#define CM_FA3_MEAN 0.10      /* fa3/h100-sxm/prefill (fp16/bf16): mean |error| */
#define CM_FA3_POINT 0.25     /* ... and every point */
#define CM_MAX_EXCEPT 32

static void check_model_help(FILE *out) {
    fputs("usage: rooflab check-model [--json] [--targets] [--except FAMILY]... FILE...\n\n"
          "Predicts every point of the records (rooflab record files, e.g. data/published/*.json)\n"
          "that names a kernel profile (\"profile\") and a hardware preset (hardware.preset) with\n"
          "rl_predict, as `rooflab eval --kernel PROFILE` does, and compares it with the time the\n"
          "record gives (timing.median_s): error = (predicted - measured) / measured.\n"
          "Families: PROFILE/PRESET/PHASE with PHASE prefill (N > 1, fwd), decode (N = 1) or\n"
          "backward, plus /fp8 for fp8 points (fa3/h100-sxm/prefill/fp8). Per family: points,\n"
          "mean and max |error|, points within 20 %, the 3 worst points. Points without a profile\n"
          "or a preset, or that the profile cannot run, are counted with the reason. Every measured\n"
          "time and every prediction below its compulsory bound (compulsory bytes and F on the\n"
          "preset's roof) is flagged.\n"
          "Profile mapping: fa2 decode points (N = 1) are predicted with --gqa-pack per-head\n"
          "(FlashAttention v2.0.9, the Flash-Decoding blog's baseline, reads K/V per query head).\n\n"
          "  --json            one JSON object with the same figures\n"
          "  --targets         exit 1 unless fa3/h100-sxm/prefill has mean |error| <= 10 % and\n"
          "                    every point within 25 %, every other family mean <= 20 %, and no\n"
          "                    time lies below its compulsory bound\n"
          "  --except FAMILY   report FAMILY but do not hold it to the targets (repeatable; the\n"
          "                    family must exist in the files)\n\n"
          "exit status: 0 ok, 1 a file unreadable or invalid or (--targets) a target missed,\n"
          "2 usage error\n"
          "example:\n"
          "  rooflab check-model data/published/*.json\n",
          out);
}

/* ---------------------------------------------------------------------------------------------
 * State
 * ------------------------------------------------------------------------------------------- */

typedef struct cm_eval {        /* one point, predicted or only bounded */
    const char *file;
    size_t index;
    const rl_rec_point *pt;
    double measured_s, predicted_s, error, compulsory_s;
} cm_eval;

typedef struct cm_family {
    char name[96];
    rl_kernel profile;
    const char *hw;
    const char *phase;
    int fp8;
    cm_eval *ev;
    size_t n, cap;
    double mean_abs, max_abs;
    size_t within;
    size_t worst[CM_WORST];     /* indices into ev, worst first */
    size_t nworst;
    int strict;                 /* the fa3/h100-sxm/prefill fp16/bf16 target */
    int excepted, below, passes;
} cm_family;

typedef struct cm_tally {       /* "no profile: cudnn 48" */
    rl_rec_pred_status status;  /* why not predicted (compared by value, never by text pointer) */
    const char *why;            /* its text: "no profile", "no preset", … (core's) */
    char detail[RL_ERROR_MESSAGE_MAX];
    size_t n;
} cm_tally;

typedef struct cm_flag {        /* a time below its compulsory bound */
    cm_eval e;
    int predicted;              /* 0: the measured time, 1: the prediction */
    char family[96];            /* "" when the point has no family (a copy: families move) */
} cm_flag;

typedef struct cm_state {
    rl_record **recs;
    size_t nrec;
    size_t points, predicted;
    cm_family *fam;
    size_t nfam;
    cm_tally *tally;
    size_t ntally;
    size_t not_predicted;
    cm_flag *flags;
    size_t nflags;
    int oom;
} cm_state;

/* Grow *items (each `size` bytes) to hold one more; 0 or -1. */
static int grow(void **items, size_t *cap, size_t n, size_t size) {
    if (n < *cap) return 0;
    size_t c = *cap ? *cap * 2 : 16;
    void *p = realloc(*items, c * size);
    if (!p) return -1;
    *items = p;
    *cap = c;
    return 0;
}

static void state_free(cm_state *s) {
    for (size_t i = 0; i < s->nrec; i++) rl_record_free(s->recs[i]);
    free(s->recs);
    for (size_t i = 0; i < s->nfam; i++) free(s->fam[i].ev);
    free(s->fam);
    free(s->tally);
    free(s->flags);
}

static void tally(cm_state *s, rl_rec_pred_status status, const char *why, const char *detail) {
    for (size_t i = 0; i < s->ntally; i++)
        if (s->tally[i].status == status && strcmp(s->tally[i].detail, detail) == 0) {
            s->tally[i].n++;
            s->not_predicted++;
            return;
        }
    void *p = realloc(s->tally, (s->ntally + 1) * sizeof *s->tally);
    if (!p) {
        s->oom = 1;
        return;
    }
    s->tally = p;
    cm_tally *t = &s->tally[s->ntally++];
    t->status = status;
    t->why = why;
    snprintf(t->detail, sizeof t->detail, "%s", detail);
    t->n = 1;
    s->not_predicted++;
}

static const char *phase_of(const rl_problem *p) {
    return p->pass == RL_PASS_BWD ? "backward" : p->seq == 1 ? "decode" : "prefill";
}

static cm_family *family_for(cm_state *s, rl_kernel profile, const char *hw, const rl_problem *p) {
    char name[96];
    int fp8 = p->dtype == RL_DTYPE_FP8;
    snprintf(name, sizeof name, "%s/%s/%s%s", rl_kernel_name(profile), hw, phase_of(p),
             fp8 ? "/fp8" : "");
    for (size_t i = 0; i < s->nfam; i++)
        if (strcmp(s->fam[i].name, name) == 0) return &s->fam[i];
    void *q = realloc(s->fam, (s->nfam + 1) * sizeof *s->fam);
    if (!q) return NULL;
    s->fam = q;
    cm_family *f = &s->fam[s->nfam++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->profile = profile;
    f->hw = rl_hw_find(hw) ? rl_hw_find(hw)->id : hw;
    f->phase = phase_of(p);
    f->fp8 = fp8;
    f->strict = profile == RL_KERNEL_FA3 && strcmp(hw, "h100-sxm") == 0 && !fp8 &&
                strcmp(f->phase, "prefill") == 0;
    return f;
}

/* ---------------------------------------------------------------------------------------------
 * One point
 * ------------------------------------------------------------------------------------------- */

static void flag(cm_state *s, const cm_eval *e, int predicted, const char *family) {
    void *p = realloc(s->flags, (s->nflags + 1) * sizeof *s->flags);
    if (!p) {
        s->oom = 1;
        return;
    }
    s->flags = p;
    cm_flag *fl = &s->flags[s->nflags++];
    fl->e = *e;
    fl->predicted = predicted;
    snprintf(fl->family, sizeof fl->family, "%s", family ? family : "");
}

static void add_eval(cm_state *s, cm_family *f, const cm_eval *e) {
    if (grow((void **)&f->ev, &f->cap, f->n, sizeof *f->ev) != 0) {
        s->oom = 1;
        return;
    }
    f->ev[f->n++] = *e;
    s->predicted++;
}

static void check_point(cm_state *s, const rl_record *r, const char *file, size_t i) {
    const rl_rec_point *pt = &r->points[i];
    const rl_rec_hardware *h = pt->hardware ? pt->hardware : &r->hardware;
    rl_rec_prediction pred;
    rl_rec_point_predict(pt, h, &pred);
    cm_eval e = {file, i, pt, pt->time_median_s, 0, 0, pred.compulsory_s};
    if (pred.status == RL_REC_PRED_OK) {
        e.predicted_s = pred.prediction.time_s;
        e.error = pred.error;
        cm_family *f = family_for(s, pt->profile, rl_hw_find(h->preset)->id, &pt->problem);
        if (!f) {
            s->oom = 1;
            return;
        }
        add_eval(s, f, &e);
        if (e.compulsory_s > 0 && e.predicted_s < e.compulsory_s) flag(s, &e, 1, f->name);
        if (e.compulsory_s > 0 && e.measured_s < e.compulsory_s) flag(s, &e, 0, f->name);
        return;
    }
    const char *detail = pred.detail;
    if (pred.status == RL_REC_PRED_NO_PROFILE && !pt->kernel)
        detail = r->software.kernel ? r->software.kernel : "?";
    tally(s, pred.status, pred.reason, detail);
    if (e.compulsory_s > 0 && e.measured_s < e.compulsory_s) flag(s, &e, 0, NULL);
}

/* ---------------------------------------------------------------------------------------------
 * Families: figures, targets
 * ------------------------------------------------------------------------------------------- */

static void family_figures(cm_family *f) {
    double sum = 0;
    f->max_abs = 0;
    f->within = 0;
    for (size_t i = 0; i < f->n; i++) {
        double a = fabs(f->ev[i].error);
        sum += a;
        if (a > f->max_abs) f->max_abs = a;
        if (a <= CM_WITHIN) f->within++;
    }
    f->mean_abs = f->n ? sum / (double)f->n : 0;
    /* the CM_WORST largest |error|, worst first (ties: the earlier point) */
    f->nworst = 0;
    for (size_t k = 0; k < CM_WORST && k < f->n; k++) {
        size_t best = (size_t)-1;
        for (size_t i = 0; i < f->n; i++) {
            int taken = 0;
            for (size_t j = 0; j < k; j++) taken |= f->worst[j] == i;
            if (!taken && (best == (size_t)-1 || fabs(f->ev[i].error) > fabs(f->ev[best].error)))
                best = i;
        }
        f->worst[f->nworst++] = best;
    }
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const cm_family *)a)->name, ((const cm_family *)b)->name);
}

/* Each family's figures and its verdict; 1 when every target that is held passes. */
static int judge(cm_state *s) {
    int ok = 1;
    if (s->nfam) qsort(s->fam, s->nfam, sizeof *s->fam, by_name); /* NULL with none: UB */
    for (size_t i = 0; i < s->nfam; i++) {
        cm_family *f = &s->fam[i];
        family_figures(f);
        f->below = 0;
        for (size_t k = 0; k < s->nflags; k++)
            if (strcmp(s->flags[k].family, f->name) == 0) f->below++;
        f->passes = f->strict ? f->mean_abs <= CM_FA3_MEAN && f->max_abs <= CM_FA3_POINT
                              : f->mean_abs <= CM_MEAN_TARGET;
        f->passes = f->passes && f->below == 0;
        if (!f->passes && !f->excepted) ok = 0;
    }
    for (size_t k = 0; k < s->nflags; k++)
        if (!s->flags[k].family[0]) ok = 0; /* a measured time below its bound, outside any family */
    return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Text
 * ------------------------------------------------------------------------------------------- */

static const char *problem_text(const rl_problem *p, char *buf, size_t cap) {
    snprintf(buf, cap, "B=%lld H=%lld Hkv=%lld N=%lld L=%lld d=%lld %s%s %s", (long long)p->batch,
             (long long)p->heads, (long long)p->kv_heads, (long long)p->seq, (long long)p->kv_len,
             (long long)p->head_dim, rl_dtype_name(p->dtype), p->causal ? " causal" : "",
             rl_pass_name(p->pass));
    return buf;
}

static const char *secs(double v, char *buf, size_t cap) {
    rl_format_quantity(v, RL_DIM_SECONDS, RL_PREFIX_SI, 4, buf, cap);
    return buf;
}

static void print_eval(const cm_eval *e, const char *lead) {
    char pb[160], a[40], b[40], fig[200], file[400], kernel[200];
    /* strings from records and argv: escaped, so that a row stays one line (rl_text_escape) */
    rl_text_escape(fig, sizeof fig, e->pt->figure ? e->pt->figure : "(no figure)");
    rl_text_escape(file, sizeof file, e->file);
    rl_text_escape(kernel, sizeof kernel, e->pt->kernel ? e->pt->kernel : "");
    printf("%s%+6.1f %%  %s: %s; %s[%zu] %s: measured %s, predicted %s\n", lead, 100 * e->error,
           fig, problem_text(&e->pt->problem, pb, sizeof pb), file, e->index, kernel,
           secs(e->measured_s, a, sizeof a), secs(e->predicted_s, b, sizeof b));
}

static void target_text(const cm_family *f, char *buf, size_t cap) {
    if (f->strict)
        snprintf(buf, cap, "mean <= %.0f %%, all <= %.0f %%", 100 * CM_FA3_MEAN, 100 * CM_FA3_POINT);
    else
        snprintf(buf, cap, "mean <= %.0f %%", 100 * CM_MEAN_TARGET);
}

static void print_families(const cm_state *s, int targets) {
    printf("%-36s %6s %10s %9s %11s  %s\n", "family", "points", "mean|err|", "max|err|",
           "within 20%", targets ? "target" : "");
    for (size_t i = 0; i < s->nfam; i++) {
        const cm_family *f = &s->fam[i];
        char t[64] = "", w[24];
        if (targets) target_text(f, t, sizeof t);
        snprintf(w, sizeof w, "%zu/%zu", f->within, f->n);
        printf("%-36s %6zu %8.1f %% %7.1f %% %11s  %s%s\n", f->name, f->n, 100 * f->mean_abs,
               100 * f->max_abs, w, t,
               !targets ? "" : f->passes ? ": met" : f->excepted ? ": MISSED (excepted)" : ": MISSED");
        for (size_t k = 0; k < f->nworst; k++) print_eval(&f->ev[f->worst[k]], "    ");
    }
}

static void print_not_predicted(const cm_state *s) {
    printf("\nnot predicted: %zu point%s", s->not_predicted, s->not_predicted == 1 ? "" : "s");
    for (int st = RL_REC_PRED_NO_PROFILE; st <= RL_REC_PRED_CANNOT_RUN; st++) {
        size_t n = 0;
        const char *why = NULL;
        for (size_t i = 0; i < s->ntally; i++)
            if ((int)s->tally[i].status == st) {
                n += s->tally[i].n;
                why = s->tally[i].why;
            }
        if (!n) continue;
        printf("\n  %s: %zu (", why, n);
        int first = 1;
        for (size_t i = 0; i < s->ntally; i++) {
            if ((int)s->tally[i].status != st) continue;
            printf("%s%s %zu", first ? "" : "; ", s->tally[i].detail, s->tally[i].n);
            first = 0;
        }
        putchar(')');
    }
    putchar('\n');
}

static void print_flags(const cm_state *s) {
    if (!s->nflags) {
        printf("below the compulsory bound: none (no measured time, no prediction)\n");
        return;
    }
    printf("below the compulsory bound: %zu\n", s->nflags);
    for (size_t k = 0; k < s->nflags; k++) {
        const cm_flag *fl = &s->flags[k];
        char pb[160], a[40], b[40], fig[200], file[400];
        rl_text_escape(fig, sizeof fig, fl->e.pt->figure ? fl->e.pt->figure : "(no figure)");
        rl_text_escape(file, sizeof file, fl->e.file);
        printf("  %s %s < bound %s: %s[%zu] %s, %s%s%s\n", fl->predicted ? "predicted" : "measured",
               secs(fl->predicted ? fl->e.predicted_s : fl->e.measured_s, a, sizeof a),
               secs(fl->e.compulsory_s, b, sizeof b), file, fl->e.index, fig,
               problem_text(&fl->e.pt->problem, pb, sizeof pb), fl->family[0] ? " in " : "",
               fl->family);
    }
}

static void print_text(const cm_state *s, int targets, int ok) {
    printf("check-model: %zu points in %zu file%s, %zu predicted in %zu famil%s\n\n", s->points,
           s->nrec, s->nrec == 1 ? "" : "s", s->predicted, s->nfam, s->nfam == 1 ? "y" : "ies");
    print_families(s, targets);
    print_not_predicted(s);
    print_flags(s);
    if (targets) printf("targets: %s\n", ok ? "met" : "MISSED");
}

/* ---------------------------------------------------------------------------------------------
 * JSON
 * ------------------------------------------------------------------------------------------- */

static cJSON *problem_json(const rl_problem *p) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "batch", (double)p->batch);
    cJSON_AddNumberToObject(o, "heads", (double)p->heads);
    cJSON_AddNumberToObject(o, "kv_heads", (double)p->kv_heads);
    cJSON_AddNumberToObject(o, "seq", (double)p->seq);
    cJSON_AddNumberToObject(o, "kv_len", (double)p->kv_len);
    cJSON_AddNumberToObject(o, "head_dim", (double)p->head_dim);
    cJSON_AddStringToObject(o, "dtype", rl_dtype_name(p->dtype));
    cJSON_AddBoolToObject(o, "causal", p->causal);
    cJSON_AddStringToObject(o, "pass", rl_pass_name(p->pass));
    return o;
}

static cJSON *eval_json(const cm_eval *e) {
    cJSON *o = cJSON_CreateObject();
    char file[4096];
    rl_text_utf8(file, sizeof file, e->file); /* a path from argv: valid UTF-8 for JSON */
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddNumberToObject(o, "index", (double)e->index);
    if (e->pt->figure) cJSON_AddStringToObject(o, "figure", e->pt->figure);
    if (e->pt->kernel) cJSON_AddStringToObject(o, "kernel", e->pt->kernel);
    cJSON_AddItemToObject(o, "problem", problem_json(&e->pt->problem));
    cJSON_AddNumberToObject(o, "measured_s", e->measured_s);
    if (e->predicted_s > 0) {
        cJSON_AddNumberToObject(o, "predicted_s", e->predicted_s);
        cJSON_AddNumberToObject(o, "error", e->error);
    }
    if (e->compulsory_s > 0) cJSON_AddNumberToObject(o, "compulsory_s", e->compulsory_s);
    return o;
}

static cJSON *family_json(const cm_family *f) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "family", f->name);
    cJSON_AddStringToObject(o, "profile", rl_kernel_name(f->profile));
    cJSON_AddStringToObject(o, "hw", f->hw);
    cJSON_AddStringToObject(o, "phase", f->phase);
    cJSON_AddBoolToObject(o, "fp8", f->fp8);
    cJSON_AddNumberToObject(o, "points", (double)f->n);
    cJSON_AddNumberToObject(o, "mean_abs_error", f->mean_abs);
    cJSON_AddNumberToObject(o, "max_abs_error", f->max_abs);
    cJSON_AddNumberToObject(o, "within_20_percent", (double)f->within);
    cJSON_AddNumberToObject(o, "below_compulsory", (double)f->below);
    cJSON *t = cJSON_AddObjectToObject(o, "target");
    cJSON_AddNumberToObject(t, "mean_abs_error", f->strict ? CM_FA3_MEAN : CM_MEAN_TARGET);
    if (f->strict) cJSON_AddNumberToObject(t, "max_abs_error", CM_FA3_POINT);
    else cJSON_AddNullToObject(t, "max_abs_error");
    cJSON_AddBoolToObject(o, "meets_target", f->passes);
    cJSON_AddBoolToObject(o, "excepted", f->excepted);
    cJSON *w = cJSON_AddArrayToObject(o, "worst");
    for (size_t k = 0; k < f->nworst; k++) cJSON_AddItemToArray(w, eval_json(&f->ev[f->worst[k]]));
    return o;
}

static cJSON *not_predicted_json(const cm_state *s) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "points", (double)s->not_predicted);
    cJSON *a = cJSON_AddArrayToObject(o, "reasons");
    for (size_t i = 0; i < s->ntally; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "reason", s->tally[i].why);
        cJSON_AddStringToObject(r, "detail", s->tally[i].detail);
        cJSON_AddNumberToObject(r, "points", (double)s->tally[i].n);
        cJSON_AddItemToArray(a, r);
    }
    return o;
}

static int print_json(const cm_state *s, int targets, int ok) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "files", (double)s->nrec);
    cJSON_AddNumberToObject(o, "points", (double)s->points);
    cJSON_AddNumberToObject(o, "predicted", (double)s->predicted);
    cJSON *fa = cJSON_AddArrayToObject(o, "families");
    for (size_t i = 0; i < s->nfam; i++) cJSON_AddItemToArray(fa, family_json(&s->fam[i]));
    cJSON_AddItemToObject(o, "not_predicted", not_predicted_json(s));
    cJSON *fl = cJSON_AddArrayToObject(o, "below_compulsory");
    for (size_t k = 0; k < s->nflags; k++) {
        cJSON *e = eval_json(&s->flags[k].e);
        cJSON_AddStringToObject(e, "what", s->flags[k].predicted ? "predicted" : "measured");
        if (s->flags[k].family[0]) cJSON_AddStringToObject(e, "family", s->flags[k].family);
        cJSON_AddItemToArray(fl, e);
    }
    cJSON *t = cJSON_AddObjectToObject(o, "targets");
    cJSON_AddBoolToObject(t, "checked", targets);
    cJSON_AddBoolToObject(t, "met", ok);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text) return -1;
    puts(text);
    free(text);
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The command
 * ------------------------------------------------------------------------------------------- */

/* Read, parse and check one file; 0, or -1 with the reason on stderr. */
static int load(cm_state *s, const char *path) {
    char *text = NULL, why[160];
    size_t len = 0;
    if (cli_read_file(path, RL_RECORD_MAX_FILE_BYTES, &text, &len, why, sizeof why) != 0) {
        cli_errorf("check-model", "%s: %s", path, why);
        return -1;
    }
    rl_rec_issues is = {0};
    rl_record *r = NULL;
    rl_status st = rl_record_parse(text, len, &r, &is);
    free(text);
    if (st != RL_OK) {
        for (size_t k = 0; k < is.count; k++)
            if (is.items[k].severity == RL_REC_ERROR)
                cli_errorf("check-model", "%s: %s", path, is.items[k].message);
        cli_errorf("check-model", "%s: not a valid record (rooflab validate says more)", path);
        rl_rec_issues_free(&is);
        return -1;
    }
    rl_rec_issues_free(&is);
    void *p = realloc(s->recs, (s->nrec + 1) * sizeof *s->recs);
    if (!p) {
        rl_record_free(r);
        fprintf(stderr, "rooflab check-model: out of memory\n");
        return -1;
    }
    s->recs = p;
    s->recs[s->nrec++] = r;
    for (size_t i = 0; i < r->point_count; i++) check_point(s, r, path, i);
    s->points += r->point_count;
    return 0;
}

typedef struct cm_args {
    int json, targets, nfiles;
    const char **files;         /* argc entries, caller-allocated */
    const char *except[CM_MAX_EXCEPT];
    int nexcept;
} cm_args;

/* 0, 1 (help printed) or CLI_EXIT_USAGE. */
static int parse_args(int argc, char **argv, cm_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_is_help(argv[i])) {
            check_model_help(stdout);
            return 1;
        } else if (cli_is_switch(argv[i], "json")) {
            a->json = 1;
        } else if (cli_is_switch(argv[i], "targets")) {
            a->targets = 1;
        } else if (cli_flag(argc, argv, &i, "except", &v)) {
            if (!v || !v[0])
                return cli_errorf("check-model", "--except: expected a family, e.g. "
                                                 "standard/a100-sxm4-80gb/decode");
            if (a->nexcept == CM_MAX_EXCEPT)
                return cli_errorf("check-model", "--except: expected at most %d families",
                                  CM_MAX_EXCEPT);
            a->except[a->nexcept++] = v;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return cli_errorf("check-model", "unknown flag \"%.*s\"; expected --json, --targets, "
                                             "--except FAMILY or record files",
                              (int)rl_text_clip(argv[i], 64), argv[i]);
        } else {
            a->files[a->nfiles++] = argv[i];
        }
    }
    if (a->nfiles == 0)
        return cli_errorf("check-model", "FILE: expected at least one record file (see --help)");
    return 0;
}

/* Mark the --except families; CLI_EXIT_USAGE when one names no family of these files. */
static int apply_except(cm_state *s, const cm_args *a) {
    for (int k = 0; k < a->nexcept; k++) {
        int found = 0;
        for (size_t i = 0; i < s->nfam; i++)
            if (strcmp(s->fam[i].name, a->except[k]) == 0) s->fam[i].excepted = found = 1;
        if (found) continue;
        char list[600] = "";
        for (size_t i = 0; i < s->nfam; i++) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", s->fam[i].name);
        }
        return cli_errorf("check-model", "--except: no family \"%.*s\" in these files; expected "
                                         "one of %s",
                          (int)rl_text_clip(a->except[k], 96), a->except[k], list);
    }
    return 0;
}

int cmd_check_model(int argc, char **argv) {
    cm_args a = {0};
    a.files = calloc((size_t)argc + 1, sizeof *a.files);
    if (!a.files) return cli_errorf("check-model", "out of memory");
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        free(a.files);
        return rc == 1 ? CLI_EXIT_OK : rc;
    }
    cm_state s = {0};
    for (int i = 0; i < a.nfiles && rc == 0; i++)
        if (load(&s, a.files[i]) != 0) rc = CLI_EXIT_INVALID;
    if (rc == 0 && s.oom) {
        fprintf(stderr, "rooflab check-model: out of memory\n");
        rc = CLI_EXIT_INVALID;
    }
    int ok = 0;
    if (rc == 0) {
        ok = judge(&s);
        rc = apply_except(&s, &a);
        ok = judge(&s); /* again, with the exceptions marked */
    }
    if (rc == 0) {
        if (a.json)
            rc = print_json(&s, a.targets, ok) == 0 ? 0 : CLI_EXIT_INVALID;
        else
            print_text(&s, a.targets, ok);
        if (rc == 0 && a.targets && !ok) rc = CLI_EXIT_INVALID;
    }
    state_free(&s);
    free(a.files);
    return rc;
}
