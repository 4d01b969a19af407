/* cmd_check_model.c — `rooflab check-model`: the predicted time (core's rl_predict) of every
 * point of published or measured records that names a kernel profile and a hardware preset,
 * against the time the record gives, summarised per family (profile, preset, phase, MLA, fp8) with the
 * fit points (a model constant was fitted on them, "set": "fit") apart from the held-out ones,
 * and the points that lie below their compulsory bound. Production split-KV decode points
 * ("production_decode") are also scored with the default prediction (no --kernel) in the
 * default/PRESET/decode families. `--targets` holds the held-out figures to stated error targets
 * (data/published/README.md); `--bands` prints each profile's held-out error distribution, the
 * base of its prediction interval. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rooflab/record.h"

#define CM_WORST 3            /* worst points shown per family */
#define CM_WITHIN 0.20        /* "within 20 %" */
#define CM_MEAN_TARGET 0.20   /* every family: mean |error| */
#define CM_DEFAULT_MEAN 0.25  /* default/PRESET/decode: mean |error| (issue 17) */
#define CM_BAND_MIN 5         /* fewer held-out points than this: no band */
#define CM_FA3_MEAN 0.10      /* fa3/h100-sxm/prefill (fp16/bf16): mean |error| */
#define CM_FA3_POINT 0.25     /* ... and every point */
#define CM_MAX_EXCEPT 32

static void check_model_help(FILE *out) {
    fputs("usage: rooflab check-model [--json] [--targets] [--bands] [--except FAMILY]... FILE...\n\n"
          "Predicts every point of the records (rooflab record files, e.g. data/published/*.json)\n"
          "that names a kernel profile (\"profile\") and a hardware preset (hardware.preset) with\n"
          "rl_predict, as `rooflab eval --kernel PROFILE` does, and compares it with the time the\n"
          "record gives (timing.median_s): error = (predicted - measured) / measured.\n"
          "Families: PROFILE/PRESET/PHASE with PHASE prefill (N > 16, fwd), decode (N <= 16, fwd)\n"
          "or backward, plus /mla for a value head dim apart from --head-dim (MLA prefill in\n"
          "MHA mode: cudnn/gb200/prefill/mla) and /fp8 for fp8 points (fa3/h100-sxm/prefill/fp8).\n"
          "Points marked \"production_decode\" (a production split-KV decode kernel) are also\n"
          "predicted with the default prediction (`rooflab eval` without --kernel) in\n"
          "default/PRESET/decode.\n"
          "Fit and held-out apart: a point marked \"set\": \"fit\" had a model constant fitted on it;\n"
          "every other point is held out (a prediction). Per family and set: points, mean, median\n"
          "and max |error|, bias (mean signed error: > 0 predicted too slow), points within 20 %,\n"
          "and the 3 worst held-out points. Points without a profile or a preset, or that the\n"
          "profile cannot run, are counted with the reason. Every measured time and every\n"
          "prediction below its compulsory bound (compulsory bytes and F on the preset's roof) is\n"
          "flagged.\n"
          "Profile mapping: fa2 decode points (N = 1) are predicted with --gqa-pack per-head and\n"
          "--splits 1 (FlashAttention v2.0.9, the Flash-Decoding blog's baseline, reads K/V per\n"
          "query head and predates split-KV, v2.2).\n\n"
          "  --json            one JSON object with the same figures (and the bands)\n"
          "  --targets         exit 1 unless, on held-out points, fa3/h100-sxm/prefill has mean\n"
          "                    |error| <= 10 % and every point within 25 %, every default/*/decode\n"
          "                    family mean <= 25 %, every other family mean <= 20 %, and no time\n"
          "                    lies below its compulsory bound; a family without held-out points\n"
          "                    is not checked, and nothing predicted at all misses the targets\n"
          "  --bands           per profile (and per family): the held-out signed errors' count,\n"
          "                    minimum, 10/25/50/75/90th percentiles (linear between order\n"
          "                    statistics) and maximum, and the interval they give a prediction\n"
          "                    t: measured in [t / (1 + p90), t / (1 + p10)]; under 5 held-out\n"
          "                    points: no band\n"
          "  --except FAMILY   report FAMILY but do not hold it to the targets (repeatable; the\n"
          "                    family must exist in the files)\n\n"
          "exit status: 0 ok, 1 a file unreadable or invalid or (--targets) a target missed,\n"
          "2 usage error\n"
          "example:\n"
          "  rooflab check-model --targets data/published/*.json\n",
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
    int fit;                    /* 1: a model constant was fitted on the point ("set": "fit") */
} cm_eval;

typedef struct cm_stats {       /* one set's figures (fit or held-out) */
    size_t n, within;
    double mean_abs, median_abs, max_abs, bias; /* bias: mean signed error */
} cm_stats;

enum { CM_FIT, CM_HELD };       /* index of cm_family.st */

typedef struct cm_family {
    char name[96];
    char profile[24];           /* the profile's name, or "default" (no --kernel) */
    const char *hw;
    const char *phase;
    int fp8;
    int is_default;             /* default/PRESET/decode: the default prediction */
    cm_eval *ev;
    size_t n, cap;
    cm_stats st[2];
    size_t worst[CM_WORST];     /* indices into ev (held-out points), worst first */
    size_t nworst;
    int strict;                 /* the fa3/h100-sxm/prefill fp16/bf16 target */
    int excepted, below, passes, checked; /* checked: it has held-out points */
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
    size_t points, predicted, default_predicted;
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

/* decode: N <= 16 forward (one token, speculative / MTP / append decoding) */
static const char *phase_of(const rl_problem *p) {
    return p->pass == RL_PASS_BWD ? "backward" : p->seq <= 16 ? "decode" : "prefill";
}

/* The family of PROFILE (a profile name or "default") on preset `hw` for problem p; MLA prefill
 * in MHA mode (a value head dim apart from the query/key one, --head-dim-v) is a family of its
 * own (/mla), as fp8 is (/fp8). */
static cm_family *family_for(cm_state *s, const char *profile, int is_default, const char *hw,
                             const rl_problem *p) {
    char name[96];
    int fp8 = p->dtype == RL_DTYPE_FP8;
    int mla = p->kv_lora_rank == 0 && p->head_dim_v != 0 && p->head_dim_v != p->head_dim;
    snprintf(name, sizeof name, "%s/%s/%s%s%s", profile, hw, phase_of(p), mla ? "/mla" : "",
             fp8 ? "/fp8" : "");
    for (size_t i = 0; i < s->nfam; i++)
        if (strcmp(s->fam[i].name, name) == 0) return &s->fam[i];
    void *q = realloc(s->fam, (s->nfam + 1) * sizeof *s->fam);
    if (!q) return NULL;
    s->fam = q;
    cm_family *f = &s->fam[s->nfam++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->profile, sizeof f->profile, "%s", profile);
    f->hw = rl_hw_find(hw) ? rl_hw_find(hw)->id : hw;
    f->phase = phase_of(p);
    f->fp8 = fp8;
    f->is_default = is_default;
    f->strict = !is_default && strcmp(profile, rl_kernel_name(RL_KERNEL_FA3)) == 0 &&
                strcmp(hw, "h100-sxm") == 0 && !fp8 && strcmp(f->phase, "prefill") == 0;
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
}

/* The default prediction (`rooflab eval` without --kernel: the zero kernel spec, core's generic
 * profile) of a production split-KV decode point, in default/PRESET/decode. A point the default
 * cannot run is counted with the reason. */
static void check_default(cm_state *s, const rl_record *r, const char *file, size_t i) {
    const rl_rec_point *pt = &r->points[i];
    const rl_rec_hardware *h = pt->hardware ? pt->hardware : &r->hardware;
    rl_rec_point as_default = *pt;
    as_default.has_profile = 1;
    as_default.profile = RL_KERNEL_GENERIC;
    rl_rec_prediction pred;
    rl_rec_point_predict(&as_default, h, &pred);
    if (pred.status != RL_REC_PRED_OK) {
        char detail[RL_ERROR_MESSAGE_MAX + 32];
        snprintf(detail, sizeof detail, "default prediction: %s", pred.detail);
        tally(s, pred.status, pred.reason, detail);
        return;
    }
    cm_eval e = {file, i, pt, pt->time_median_s, pred.prediction.time_s, pred.error,
                 pred.compulsory_s, pt->set == RL_REC_SET_FIT};
    cm_family *f = family_for(s, "default", 1, rl_hw_find(h->preset)->id, &pt->problem);
    if (!f) {
        s->oom = 1;
        return;
    }
    add_eval(s, f, &e);
    s->default_predicted++;
    if (e.compulsory_s > 0 && e.predicted_s < e.compulsory_s) flag(s, &e, 1, f->name);
}

static void check_point(cm_state *s, const rl_record *r, const char *file, size_t i) {
    const rl_rec_point *pt = &r->points[i];
    const rl_rec_hardware *h = pt->hardware ? pt->hardware : &r->hardware;
    if (pt->production_decode && h->preset && rl_hw_find(h->preset)) check_default(s, r, file, i);
    rl_rec_prediction pred;
    rl_rec_point_predict(pt, h, &pred);
    cm_eval e = {file, i, pt, pt->time_median_s, 0, 0, pred.compulsory_s,
                 pt->set == RL_REC_SET_FIT};
    if (pred.status == RL_REC_PRED_OK) {
        e.predicted_s = pred.prediction.time_s;
        e.error = pred.error;
        cm_family *f = family_for(s, rl_kernel_name(pt->profile), 0, rl_hw_find(h->preset)->id,
                                  &pt->problem);
        if (!f) {
            s->oom = 1;
            return;
        }
        add_eval(s, f, &e);
        s->predicted++;
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

static int by_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of the sorted v[0..n-1], linear between order statistics: position
 * q·(n − 1) (Hyndman and Fan's type 7, numpy's default). n > 0. */
static double quantile(const double *v, size_t n, double q) {
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    if (lo + 1 >= n) return v[n - 1];
    return v[lo] + (pos - (double)lo) * (v[lo + 1] - v[lo]);
}

/* The errors (signed, or |error| when `absolute`) of family f's points of one set, sorted
 * ascending into a new array (*n of them); NULL with *n = 0 when none (or out of memory, *oom). */
static double *set_errors(const cm_family *f, int held, int absolute, size_t *n, int *oom) {
    *n = 0;
    double *v = malloc((f->n ? f->n : 1) * sizeof *v);
    if (!v) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < f->n; i++)
        if (f->ev[i].fit == !held) v[(*n)++] = absolute ? fabs(f->ev[i].error) : f->ev[i].error;
    if (!*n) {
        free(v);
        return NULL;
    }
    qsort(v, *n, sizeof *v, by_double);
    return v;
}

static void set_figures(cm_family *f, int held, cm_stats *st, int *oom) {
    memset(st, 0, sizeof *st);
    double sum = 0, signed_sum = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (f->ev[i].fit == held) continue;
        double a = fabs(f->ev[i].error);
        st->n++;
        sum += a;
        signed_sum += f->ev[i].error;
        if (a > st->max_abs) st->max_abs = a;
        if (a <= CM_WITHIN) st->within++;
    }
    if (!st->n) return;
    st->mean_abs = sum / (double)st->n;
    st->bias = signed_sum / (double)st->n;
    size_t n;
    double *v = set_errors(f, held, 1, &n, oom);
    if (v) st->median_abs = quantile(v, n, 0.5);
    free(v);
}

static void family_figures(cm_family *f, int *oom) {
    set_figures(f, 0, &f->st[CM_FIT], oom);
    set_figures(f, 1, &f->st[CM_HELD], oom);
    /* the CM_WORST largest held-out |error|, worst first (ties: the earlier point) */
    f->nworst = 0;
    for (size_t k = 0; k < CM_WORST; k++) {
        size_t best = (size_t)-1;
        for (size_t i = 0; i < f->n; i++) {
            if (f->ev[i].fit) continue;
            int taken = 0;
            for (size_t j = 0; j < k; j++) taken |= f->worst[j] == i;
            if (!taken && (best == (size_t)-1 || fabs(f->ev[i].error) > fabs(f->ev[best].error)))
                best = i;
        }
        if (best == (size_t)-1) break;
        f->worst[f->nworst++] = best;
    }
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const cm_family *)a)->name, ((const cm_family *)b)->name);
}

static double mean_target(const cm_family *f) {
    return f->strict ? CM_FA3_MEAN : f->is_default ? CM_DEFAULT_MEAN : CM_MEAN_TARGET;
}

/* Each family's figures and its verdict on its held-out points; 1 when every target that is
 * held passes and something was predicted. */
static size_t checked_families(const cm_state *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->nfam; i++) n += s->fam[i].checked;
    return n;
}

static int judge(cm_state *s) {
    int ok = 1;
    if (s->nfam) qsort(s->fam, s->nfam, sizeof *s->fam, by_name); /* NULL with none: UB */
    for (size_t i = 0; i < s->nfam; i++) {
        cm_family *f = &s->fam[i];
        family_figures(f, &s->oom);
        const cm_stats *h = &f->st[CM_HELD];
        f->below = 0;
        for (size_t k = 0; k < s->nflags; k++)
            if (strcmp(s->flags[k].family, f->name) == 0) f->below++;
        f->checked = h->n > 0;
        f->passes = h->mean_abs <= mean_target(f) && (!f->strict || h->max_abs <= CM_FA3_POINT);
        f->passes = f->passes && f->below == 0;
        if (f->checked && !f->passes && !f->excepted) ok = 0;
        if (!f->checked && f->below && !f->excepted) ok = 0;
    }
    for (size_t k = 0; k < s->nflags; k++)
        if (!s->flags[k].family[0]) ok = 0; /* a measured time below its bound, outside any family */
    return ok && checked_families(s) > 0; /* nothing held out predicted: nothing was checked */
}

/* ---------------------------------------------------------------------------------------------
 * Bands: held-out error distributions
 * ------------------------------------------------------------------------------------------- */

typedef struct cm_band {
    char name[96];              /* a profile ("fa3", "default") or a family */
    double *errors;             /* the held-out signed errors, ascending (owned; NULL when none) */
    size_t n;
    double min, p10, p25, p50, p75, p90, max;
    int has_band;               /* n >= CM_BAND_MIN */
} cm_band;

/* The band of the held-out errors in v (sorted, n of them). */
static void band_of(const char *name, double *v, size_t n, cm_band *b) {
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->n = n;
    b->errors = v;
    if (!n) return;
    b->min = v[0];
    b->max = v[n - 1];
    b->p10 = quantile(v, n, 0.10);
    b->p25 = quantile(v, n, 0.25);
    b->p50 = quantile(v, n, 0.50);
    b->p75 = quantile(v, n, 0.75);
    b->p90 = quantile(v, n, 0.90);
    b->has_band = n >= CM_BAND_MIN;
}

static void bands_free(cm_band *b, size_t n) {
    for (size_t k = 0; k < n; k++) free(b[k].errors);
    free(b);
}

/* The profiles' bands (every held-out point of every family of the profile, all presets and
 * phases together) into *out (*nout of them); 0 or -1 (out of memory). */
static int profile_bands(const cm_state *s, cm_band **out, size_t *nout) {
    *out = NULL;
    *nout = 0;
    cm_band *bands = calloc(s->nfam ? s->nfam : 1, sizeof *bands);
    size_t total = 0;
    for (size_t i = 0; i < s->nfam; i++) total += s->fam[i].n;
    double *v = malloc((total ? total : 1) * sizeof *v);
    if (!bands || !v) {
        free(bands);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < s->nfam; i++) {
        const char *prof = s->fam[i].profile;
        int seen = 0;
        for (size_t k = 0; k < *nout; k++) seen |= strcmp(bands[k].name, prof) == 0;
        if (seen) continue;
        size_t n = 0;
        for (size_t j = 0; j < s->nfam; j++) {
            if (strcmp(s->fam[j].profile, prof) != 0) continue;
            for (size_t e = 0; e < s->fam[j].n; e++)
                if (!s->fam[j].ev[e].fit) v[n++] = s->fam[j].ev[e].error;
        }
        double *mine = n ? malloc(n * sizeof *mine) : NULL;
        if (n && !mine) {
            bands_free(bands, *nout);
            free(v);
            *nout = 0;
            return -1;
        }
        if (n) memcpy(mine, v, n * sizeof *mine);
        if (n) qsort(mine, n, sizeof *mine, by_double);
        band_of(prof, mine, n, &bands[(*nout)++]);
    }
    free(v);
    *out = bands;
    return 0;
}

static int family_band(const cm_family *f, cm_band *b, int *oom) {
    size_t n;
    int failed = 0;
    memset(b, 0, sizeof *b);
    double *v = set_errors(f, 1, 0, &n, &failed);
    if (failed) {
        *oom = 1;
        return -1;
    }
    band_of(f->name, v, n, b); /* b owns v */
    return 0;
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
        snprintf(buf, cap, "mean <= %.0f %%", 100 * mean_target(f));
}

static void print_stats_row(const char *name, const char *set, const cm_stats *st,
                            const char *verdict) {
    char w[24];
    snprintf(w, sizeof w, "%zu/%zu", st->within, st->n);
    printf("%-36s %-8s %6zu %8.1f %% %8.1f %% %7.1f %% %+7.1f %% %9s  %s\n", name, set, st->n,
           100 * st->mean_abs, 100 * st->median_abs, 100 * st->max_abs, 100 * st->bias, w, verdict);
}

static void print_families(const cm_state *s, int targets) {
    printf("%-36s %-8s %6s %10s %10s %9s %9s %9s  %s\n", "family", "set", "points", "mean|err|",
           "median", "max|err|", "bias", "within20%", targets ? "target (held-out)" : "");
    for (size_t i = 0; i < s->nfam; i++) {
        const cm_family *f = &s->fam[i];
        char t[128] = "";
        if (targets) {
            char tt[64];
            target_text(f, tt, sizeof tt);
            snprintf(t, sizeof t, "%s: %s", tt,
                     !f->checked ? (f->below ? "MISSED (a time below its bound)"
                                             : "not checked (no held-out points)")
                     : f->passes ? "met"
                     : f->excepted ? "MISSED (excepted)" : "MISSED");
        }
        print_stats_row(f->name, "held-out", &f->st[CM_HELD], t);
        if (f->st[CM_FIT].n) print_stats_row("", "fit", &f->st[CM_FIT], "");
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
            char detail[2 * RL_ERROR_MESSAGE_MAX]; /* kernel names from records: escaped */
            rl_text_escape(detail, sizeof detail, s->tally[i].detail);
            printf("%s%s %zu", first ? "" : "; ", detail, s->tally[i].n);
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

static void print_band(const cm_band *b) {
    if (!b->n) {
        printf("%-36s %6zu  no held-out points: no band\n", b->name, b->n);
        return;
    }
    printf("%-36s %6zu %+7.1f %% %+7.1f %% %+7.1f %% %+7.1f %% %+7.1f %% %+7.1f %% %+7.1f %%", b->name,
           b->n, 100 * b->min, 100 * b->p10, 100 * b->p25, 100 * b->p50, 100 * b->p75, 100 * b->p90,
           100 * b->max);
    if (b->has_band)
        printf("  [%.3f, %.3f]\n", 1 / (1 + b->p90), 1 / (1 + b->p10));
    else
        printf("  too few held-out points (< %d): no band\n", CM_BAND_MIN);
}

static int print_bands(cm_state *s) {
    cm_band *pb = NULL;
    size_t np = 0;
    if (profile_bands(s, &pb, &np) != 0) return -1;
    printf("\nheld-out error bands (error = (predicted - measured) / measured; interval: measured "
           "in [t x low, t x high] for a prediction t)\n");
    printf("%-36s %6s %9s %9s %9s %9s %9s %9s %9s  %s\n", "profile / family", "points", "min",
           "p10", "p25", "median", "p75", "p90", "max", "[low, high]");
    for (size_t k = 0; k < np; k++) print_band(&pb[k]);
    bands_free(pb, np);
    for (size_t i = 0; i < s->nfam; i++) {
        cm_band b;
        if (family_band(&s->fam[i], &b, &s->oom) != 0) return -1;
        print_band(&b);
        free(b.errors);
    }
    return 0;
}

static int print_text(cm_state *s, int targets, int bands, int ok) {
    printf("check-model: %zu points in %zu file%s, %zu predicted with their profile in %zu "
           "famil%s, %zu with the default prediction\n\n",
           s->points, s->nrec, s->nrec == 1 ? "" : "s", s->predicted, s->nfam,
           s->nfam == 1 ? "y" : "ies", s->default_predicted);
    print_families(s, targets);
    print_not_predicted(s);
    print_flags(s);
    if (bands && print_bands(s) != 0) return -1;
    if (targets) {
        int strict_seen = 0;
        for (size_t i = 0; i < s->nfam; i++) strict_seen |= s->fam[i].strict && s->fam[i].checked;
        if (!strict_seen)
            printf("fa3/h100-sxm/prefill (mean <= %.0f %%, all <= %.0f %%): no held-out points in "
                   "these files, not checked\n", 100 * CM_FA3_MEAN, 100 * CM_FA3_POINT);
        if (checked_families(s) == 0)
            printf("targets: MISSED (no held-out point was predicted: nothing checked)\n");
        else
            printf("targets: %s\n", ok ? "met" : "MISSED");
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * JSON
 * ------------------------------------------------------------------------------------------- */

/* One point at the writer's prefix (cli_json_at, ending in "."). */
static void eval_json(cli_json *j, const cm_eval *e) {
    char at[CLI_JSON_NAME];
    snprintf(at, sizeof at, "%s", j->at);
    cli_json_str(j, "file", e->file); /* a path from argv: the writer escapes it, U+FFFD for bad bytes */
    cli_json_int(j, "index", (long long)e->index);
    if (e->pt->figure) cli_json_str(j, "figure", e->pt->figure);
    if (e->pt->kernel) cli_json_str(j, "kernel", e->pt->kernel);
    cli_json_str(j, "set", e->fit ? "fit" : "held-out");
    char problem[CLI_JSON_NAME + 16];
    snprintf(problem, sizeof problem, "%sproblem.", at);
    cli_json_problem(j, problem, &e->pt->problem); /* every field of core's RL_PROBLEM_FIELDS */
    cli_json_num(j, "measured_s", e->measured_s);
    if (e->predicted_s > 0) {
        cli_json_num(j, "predicted_s", e->predicted_s);
        cli_json_num(j, "error", e->error);
    }
    if (e->compulsory_s > 0) cli_json_num(j, "compulsory_s", e->compulsory_s);
}

static void stats_json(cli_json *j, const cm_stats *st) {
    cli_json_int(j, "points", (long long)st->n);
    if (!st->n) return;
    cli_json_num(j, "mean_abs_error", st->mean_abs);
    cli_json_num(j, "median_abs_error", st->median_abs);
    cli_json_num(j, "max_abs_error", st->max_abs);
    cli_json_num(j, "bias", st->bias);
    cli_json_int(j, "within_20_percent", (long long)st->within);
}

/* One band at the writer's prefix; `at` is that prefix. */
static void band_json(cli_json *j, const char *at, const cm_band *b) {
    cli_json_int(j, "points", (long long)b->n);
    if (b->n) {
        cli_json_num(j, "min", b->min);
        cli_json_num(j, "p10", b->p10);
        cli_json_num(j, "p25", b->p25);
        cli_json_num(j, "p50", b->p50);
        cli_json_num(j, "p75", b->p75);
        cli_json_num(j, "p90", b->p90);
        cli_json_num(j, "max", b->max);
    }
    if (!b->n) cli_json_raw(j, "errors", "[]");
    for (size_t k = 0; k < b->n; k++) {
        cli_json_at(j, "%serrors.%zu", at, k);
        cli_json_num(j, "", b->errors[k]);
    }
    cli_json_at(j, "%s", at);
    cli_json_bool(j, "has_band", b->has_band);
    if (b->has_band) {
        cli_json_num(j, "time_factor_low", 1 / (1 + b->p90));
        cli_json_num(j, "time_factor_high", 1 / (1 + b->p10));
    }
}

static void family_json(cli_json *j, size_t i, const cm_family *f, int *oom) {
    char at[CLI_JSON_NAME];
    snprintf(at, sizeof at, "families.%zu.", i);
    cli_json_at(j, "%s", at);
    cli_json_str(j, "family", f->name);
    cli_json_str(j, "profile", f->profile);
    cli_json_str(j, "hw", f->hw);
    cli_json_str(j, "phase", f->phase);
    cli_json_bool(j, "fp8", f->fp8);
    cli_json_bool(j, "default_prediction", f->is_default);
    cli_json_int(j, "points", (long long)f->n);
    cli_json_at(j, "%sheld_out.", at);
    stats_json(j, &f->st[CM_HELD]);
    cli_json_at(j, "%sfit.", at);
    stats_json(j, &f->st[CM_FIT]);
    cli_json_at(j, "%s", at);
    cli_json_int(j, "below_compulsory", (long long)f->below);
    cli_json_num(j, "target.mean_abs_error", mean_target(f));
    if (f->strict) cli_json_num(j, "target.max_abs_error", CM_FA3_POINT);
    else cli_json_null(j, "target.max_abs_error");
    cli_json_bool(j, "checked", f->checked);
    cli_json_bool(j, "meets_target", f->checked ? f->passes : f->below == 0);
    cli_json_bool(j, "excepted", f->excepted);
    cm_band b;
    if (family_band(f, &b, oom) == 0) {
        char band[2 * CLI_JSON_NAME];
        snprintf(band, sizeof band, "%sband.", at);
        cli_json_at(j, "%s", band);
        band_json(j, band, &b);
    }
    free(b.errors);
    cli_json_at(j, "%s", at);
    if (!f->nworst) cli_json_raw(j, "worst", "[]");
    for (size_t k = 0; k < f->nworst; k++) {
        cli_json_at(j, "%sworst.%zu.", at, k);
        eval_json(j, &f->ev[f->worst[k]]);
    }
}

/* The whole report as one object on `out`. */
static void write_json(FILE *out, cm_state *s, int targets, int ok) {
    cli_json j;
    cli_json_begin(&j, out);
    cli_json_int(&j, "files", (long long)s->nrec);
    cli_json_int(&j, "points", (long long)s->points);
    cli_json_int(&j, "predicted", (long long)s->predicted);
    cli_json_int(&j, "default_predicted", (long long)s->default_predicted);
    if (!s->nfam) cli_json_raw(&j, "families", "[]");
    for (size_t i = 0; i < s->nfam; i++) family_json(&j, i, &s->fam[i], &s->oom);
    cm_band *pb = NULL;
    size_t np = 0;
    if (profile_bands(s, &pb, &np) != 0) s->oom = 1;
    cli_json_at(&j, "%s", "");
    if (!np) cli_json_raw(&j, "bands", "{}");
    for (size_t k = 0; k < np; k++) { /* keyed by profile name (core's kernel names: no dots) */
        char at[CLI_JSON_NAME];
        snprintf(at, sizeof at, "bands.%s.", pb[k].name);
        cli_json_at(&j, "%s", at);
        band_json(&j, at, &pb[k]);
    }
    bands_free(pb, np);
    cli_json_at(&j, "%s", "not_predicted.");
    cli_json_int(&j, "points", (long long)s->not_predicted);
    if (!s->ntally) cli_json_raw(&j, "reasons", "[]");
    for (size_t i = 0; i < s->ntally; i++) {
        cli_json_at(&j, "not_predicted.reasons.%zu.", i);
        cli_json_str(&j, "reason", s->tally[i].why);
        cli_json_str(&j, "detail", s->tally[i].detail);
        cli_json_int(&j, "points", (long long)s->tally[i].n);
    }
    cli_json_at(&j, "%s", "");
    if (!s->nflags) cli_json_raw(&j, "below_compulsory", "[]");
    for (size_t k = 0; k < s->nflags; k++) {
        cli_json_at(&j, "below_compulsory.%zu.", k);
        eval_json(&j, &s->flags[k].e);
        cli_json_str(&j, "what", s->flags[k].predicted ? "predicted" : "measured");
        if (s->flags[k].family[0]) cli_json_str(&j, "family", s->flags[k].family);
    }
    cli_json_at(&j, "%s", "targets.");
    cli_json_bool(&j, "checked", targets && checked_families(s) > 0);
    cli_json_bool(&j, "met", ok);
    cli_json_end(&j);
}

/* Written to memory first, so that running out of memory prints no half of an object: 0 or -1. */
static int print_json(cm_state *s, int targets, int ok) {
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return -1;
    write_json(mem, s, targets, ok);
    int failed = fclose(mem) != 0 || s->oom;
    if (!failed) fwrite(text, 1, len, stdout);
    free(text);
    return failed ? -1 : 0;
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
    int json, targets, bands, nfiles;
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
        } else if (cli_is_switch(argv[i], "bands")) {
            a->bands = 1;
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
                                             "--bands, --except FAMILY or record files",
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
        int bad = a.json ? print_json(&s, a.targets, ok) : print_text(&s, a.targets, a.bands, ok);
        if (bad) {
            fprintf(stderr, "rooflab check-model: out of memory\n");
            rc = CLI_EXIT_INVALID;
        }
        if (rc == 0 && a.targets && !ok) rc = CLI_EXIT_INVALID;
    }
    state_free(&s);
    free(a.files);
    return rc;
}
