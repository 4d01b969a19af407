/* import_kernels.c — what the trace importers share (torch-trace, nsys-csv): which kernels are
 * imported (a name filter), the problem of a kernel (the user's, completed by what an attention
 * kernel's name carries), and one point per kernel name and device from the launches' durations,
 * grouped in O(n log n) whatever the names (rl__group_names). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* Names that look like attention kernels (the default filter). */
static const char *const ATTENTION_WORDS[] = {"flash", "fmha", "attention", "attn",
                                              "sdpa",  "mha",  "decode"};
#define N_WORDS (sizeof ATTENTION_WORDS / sizeof ATTENTION_WORDS[0])

/* `needle` in `hay`, ASCII case-insensitive. Linear in |hay| × |needle| (needle is short). */
static int contains_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    if (n == 0) return 1;
    for (const char *h = hay; *h; h++) {
        size_t k = 0;
        while (k < n && h[k] && tolower((unsigned char)h[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n) return 1;
    }
    return 0;
}

int rl__kernel_matches(const char *name, const char *match) {
    if (!name) return 0;
    if (match) return contains_nocase(name, match);
    for (size_t i = 0; i < N_WORDS; i++)
        if (contains_nocase(name, ATTENTION_WORDS[i])) return 1;
    return 0;
}

const char *rl__kernel_filter_text(const char *match, char *buf, size_t cap) {
    if (match) {
        char shown[80];
        rl_text_escape(shown, sizeof shown, match);
        snprintf(buf, cap, "names containing \"%s\" (--match)", shown);
    } else {
        snprintf(buf, cap, "names that look like attention kernels (flash, fmha, attention, attn, "
                           "sdpa, mha, decode)");
    }
    return buf;
}

/* ---- the problem of a kernel ----------------------------------------------------------------- */

/* The problem fields a kernel's name gives (FlashAttention-2's traits: head_dim, block_m,
 * block_n, dtype, pass), as a bit mask, with the values in *h. */
static unsigned name_gives(const char *name, rl_problem *h) {
    unsigned given = 0;
    rl_import_hints(name, strlen(name), h, &given, NULL, 0);
    return given;
}

void rl__kernel_problem(rl_rec_point *pt, const rl_import_opts *o, const char *name) {
    rl_problem h;
    unsigned from_name = name_gives(name, &h), user = rl__problem_given(o);
    pt->problem = o->problem;
    for (int f = 0; f < RL_PROBLEM_FIELD_COUNT && f < 32; f++)
        if ((from_name & (1u << f)) && !(user & (1u << f)))
            rl__problem_store(&pt->problem, (rl_problem_field)f,
                              rl_problem_get(&h, (rl_problem_field)f));
}

int rl__kernel_require_problem(const rl_import_opts *o, const char *const *names, size_t n,
                               const char *tool, rl_rec_issues *is) {
    int all_name_head_dim = n > 0;
    for (size_t i = 0; i < n && all_name_head_dim; i++) {
        rl_problem h;
        all_name_head_dim = (name_gives(names[i], &h) & (1u << RL_FIELD_HEAD_DIM)) != 0;
    }
    static const rl_problem_field need4[] = {RL_FIELD_BATCH, RL_FIELD_HEADS, RL_FIELD_SEQ,
                                             RL_FIELD_HEAD_DIM};
    char what[160];
    snprintf(what, sizeof what, "%s does not say which problem the kernels ran%s", tool,
             all_name_head_dim ? " (the kernel names give the head dim)" : "");
    return rl__require_problem(o, need4, all_name_head_dim ? 3 : 4, what, is);
}

/* ---- points from launches -------------------------------------------------------------------- */

/* The launches of one (device, kernel name). */
typedef struct kgroup {
    const rl__launch *first;
    double *t;
    size_t n, cap;
    int configs; /* 1, or 2 when launches differ in grid or block */
    const rl__launch *other; /* a launch with another configuration */
} kgroup;

static int same_config(const rl__launch *a, const rl__launch *b) {
    if (a->facts != b->facts) return 0;
    if (!a->facts) return 1;
    return memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
           memcmp(a->block, b->block, sizeof a->block) == 0;
}

static void config_text(const rl__launch *l, char *buf, size_t cap) {
    if (!l->facts) {
        snprintf(buf, cap, "launch configuration not recorded");
        return;
    }
    int n = snprintf(buf, cap, "grid [%lld, %lld, %lld], block [%lld, %lld, %lld]",
                     (long long)l->grid[0], (long long)l->grid[1], (long long)l->grid[2],
                     (long long)l->block[0], (long long)l->block[1], (long long)l->block[2]);
    if (n > 0 && (size_t)n < cap && l->regs >= 0)
        n += snprintf(buf + n, cap - (size_t)n, ", %lld registers per thread", (long long)l->regs);
    if (n > 0 && (size_t)n < cap && l->smem >= 0)
        snprintf(buf + n, cap - (size_t)n, ", %lld B shared memory", (long long)l->smem);
}

/* "device\x1fname": the grouping key of a launch (malloc'd), NULL when out of memory. */
static char *group_key(const rl__launch *l) {
    const char *d = l->device ? l->device->name : "";
    size_t a = strlen(d), b = strlen(l->name);
    char *k = malloc(a + b + 2);
    if (!k) return NULL;
    memcpy(k, d, a);
    k[a] = '\x1f';
    memcpy(k + a + 1, l->name, b + 1);
    return k;
}

/* The hardware block `hw` from a device (name, compute capability, SMs) and the preset: the
 * user's, else the device name's where it names one part exactly. Nonzero when out of memory. */
static int device_hardware(rl_rec_hardware *hw, const rl__device *d, const rl_import_opts *o) {
    int bad = 0;
    bad |= rl_rec_set_clean_string(&hw->name, o->hardware_name ? o->hardware_name : d->name);
    const rl_hw *preset = o->preset ? rl_hw_find(o->preset) : rl_hw_match_device(d->name);
    if (preset) bad |= rl_rec_set_clean_string(&hw->preset, preset->id);
    if (d->cc[0]) bad |= rl_rec_set_clean_string(&hw->compute_capability, d->cc);
    if (d->sm_count > 0) hw->sm_count = d->sm_count;
    return bad;
}

static void free_groups(kgroup *g, size_t ng) {
    for (size_t i = 0; g && i < ng; i++) free(g[i].t);
    free(g);
}

/* Group the launches; *out (ng of them) in order of first appearance. 0, or -1 (issue). */
static int group_launches(const rl__launch *l, size_t n, kgroup **out, size_t *ng,
                          rl_rec_issues *is) {
    char **keys = calloc(n ? n : 1, sizeof *keys);
    size_t *group = malloc((n ? n : 1) * sizeof *group);
    int bad = !keys || !group;
    for (size_t i = 0; !bad && i < n; i++) bad = !(keys[i] = group_key(&l[i]));
    if (!bad) bad = rl__group_names((const char *const *)keys, n, group, ng);
    for (size_t i = 0; keys && i < n; i++) free(keys[i]);
    free(keys);
    if (!bad && *ng > RL_RECORD_MAX_POINTS) {
        free(group);
        return rl__issue(is, RL_REC_ERROR, RL_ERR_RANGE, "",
                         "%zu kernel names; the limit is %d points per record: narrow the "
                         "kernels with --match", *ng, RL_RECORD_MAX_POINTS);
    }
    kgroup *g = bad ? NULL : calloc(*ng ? *ng : 1, sizeof *g);
    bad |= !g;
    for (size_t i = 0; !bad && i < n; i++) {
        kgroup *k = &g[group[i]];
        if (!k->first) {
            k->first = &l[i];
            k->configs = 1;
        } else if (k->configs == 1 && !same_config(k->first, &l[i])) {
            k->configs = 2;
            k->other = &l[i];
        }
        if (k->n == k->cap) {
            size_t cap = k->cap ? k->cap * 2 : 8;
            double *t = realloc(k->t, cap * sizeof *t);
            if (!t) {
                bad = 1;
                break;
            }
            k->t = t;
            k->cap = cap;
        }
        k->t[k->n++] = l[i].seconds;
    }
    free(group);
    if (bad) {
        free_groups(g, *ng);
        return rl__oom(is);
    }
    *out = g;
    return 0;
}

/* One point from a group's launches. 0, or -1 when out of memory. */
static int group_point(rl_record *r, const rl_import_opts *o, kgroup *k, int per_point_hw,
                       rl_rec_issues *is) {
    rl_rec_point *pt = rl_record_add_point(r);
    if (!pt) return rl__oom(is);
    const rl__launch *l = k->first;
    rl__kernel_problem(pt, o, l->name);
    pt->traffic_model = o->traffic_model;
    rl_rec_set_times(pt, k->t, k->n); /* median, min, max, mean, stddev over the launches */
    rl_workload w;
    if (rl_workload_compute(&pt->problem, &w, NULL) == RL_OK) pt->flops = w.flops;
    int bad = rl_rec_set_clean_string(&pt->kernel, l->name);
    char facts[200];
    config_text(l, facts, sizeof facts);
    if (l->facts) bad |= rl_rec_set_clean_string(&pt->label, facts);
    if (per_point_hw && l->device) {
        rl_rec_hardware *hw = rl_rec_point_hardware(pt);
        bad |= !hw || device_hardware(hw, l->device, o);
    }
    if (k->configs > 1) {
        char other[200], p[RL_REC_PATH_MAX], shown[64];
        config_text(k->other, other, sizeof other);
        rl_text_escape(shown, sizeof shown, l->name); /* escaped, clipped on a character */
        snprintf(p, sizeof p, "kernel \"%s\"", shown);
        rl__issue(is, RL_REC_WARNING, RL_ERR_INCONSISTENT, p,
                  "its launches differ in launch configuration (%s; also %s): different "
                  "problems? Its timing mixes them; profile one shape, or choose with --match",
                  facts, other);
    }
    return bad ? rl__oom(is) : 0;
}

int rl__kernel_points(rl_record *r, const rl_import_opts *o, const rl__launch *l, size_t n,
                      const char *tool, rl_rec_issues *is) {
    kgroup *g = NULL;
    size_t ng = 0;
    if (group_launches(l, n, &g, &ng, is) != 0) return -1;
    const char **names = calloc(ng ? ng : 1, sizeof *names);
    if (!names) {
        free_groups(g, ng);
        return rl__oom(is);
    }
    /* one device name, or several (then each point names its own) */
    const rl__device *dev = NULL;
    int several = 0;
    for (size_t i = 0; i < ng; i++) {
        names[i] = g[i].first->name;
        const rl__device *d = g[i].first->device;
        if (d && dev && strcmp(d->name, dev->name) != 0) several = 1;
        if (d && !dev) dev = d;
    }
    int bad = rl__kernel_require_problem(o, names, ng, tool, is);
    free(names);
    if (!bad && dev && !several && device_hardware(&r->hardware, dev, o)) bad = rl__oom(is);
    if (!bad && (several || !dev)) {
        const char *hw = o->hardware_name ? o->hardware_name
                         : several ? "several GPUs (each point names its own)"
                                   : "unknown (not in the file)";
        if (rl_rec_set_clean_string(&r->hardware.name, hw)) bad = rl__oom(is);
        if (o->preset && rl_rec_set_clean_string(&r->hardware.preset, o->preset)) bad = rl__oom(is);
    }
    for (size_t i = 0; !bad && i < ng; i++) bad = group_point(r, o, &g[i], several, is);
    free_groups(g, ng);
    return bad ? -1 : 0;
}

/* ---- the refusal when no kernel matched ------------------------------------------------------ */

int rl__kernel_none_matched(const char *const *names, const double *seconds, size_t n,
                            const char *match, const char *path, rl_rec_issues *is) {
    size_t *group = malloc((n ? n : 1) * sizeof *group), ng = 0;
    double *total = NULL;
    const char **first = NULL;
    char filter[160], top[600] = "";
    rl__kernel_filter_text(match, filter, sizeof filter);
    if (group && rl__group_names(names, n, group, &ng) == 0) {
        total = calloc(ng ? ng : 1, sizeof *total);
        first = calloc(ng ? ng : 1, sizeof *first);
    }
    if (total && first) {
        for (size_t i = 0; i < n; i++) {
            total[group[i]] += seconds[i];
            if (!first[group[i]]) first[group[i]] = names[i];
        }
        /* the three kernels with the most time, for the message (3 passes over the groups) */
        for (int k = 0; k < 3; k++) {
            size_t best = SIZE_MAX;
            for (size_t g = 0; g < ng; g++)
                if (total[g] >= 0 && (best == SIZE_MAX || total[g] > total[best])) best = g;
            if (best == SIZE_MAX) break;
            char shown[48];
            rl_text_escape(shown, sizeof shown, first[best]);
            size_t used = strlen(top);
            snprintf(top + used, sizeof top - used, "%s\"%s\"", k ? ", " : "", shown);
            total[best] = -1;
        }
    }
    free(group);
    free(total);
    free(first);
    return rl__issue(is, RL_REC_ERROR, RL_ERR_INVALID, path,
                     "none of the %zu GPU kernels (%zu distinct names) matches %s; choose with "
                     "--match TEXT (a part of a kernel's name); the most time: %s",
                     n, ng, filter, top[0] ? top : "(none)");
}
