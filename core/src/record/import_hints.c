/* import_hints.c — what a tool's output says of the problem without being asked: FlashAttention-2's
 * kernel names carry their template arguments (csrc/flash_attn/src/kernel_traits.h:
 * Flash_fwd_kernel_traits<kHeadDim, kBlockM, kBlockN, kNWarps, Is_Q_in_regs, Share_Q_K_smem,
 * elem_type>; Flash_bwd_kernel_traits has the same first three and the element type last), so an ncu export names
 * the head dim, the tile and the element type. The page prefills its problem form with them; the
 * answers stay the user's (nothing here is imported without being shown). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

/* Up to `max` comma-separated template arguments after `open` (just past '<'), each trimmed, into
 * args[i] (pointers into `buf`). Returns the count. */
static int template_args(const char *open, const char *end, char *buf, size_t cap, char **args,
                         int max) {
    size_t n = 0;
    int depth = 0, count = 0;
    args[count++] = buf;
    for (const char *c = open; c < end && n + 1 < cap; c++) {
        if (*c == '<') depth++;
        if (*c == '>' && depth-- == 0) break;
        if (*c == ',' && depth == 0) {
            buf[n++] = '\0';
            if (count == max) break;
            args[count++] = buf + n;
            continue;
        }
        if (*c != ' ') buf[n++] = *c;
    }
    buf[n] = '\0';
    return count;
}

static int64_t small_int(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v > 0 && v <= 4096) ? v : 0;
}

static const char *find_in(const char *text, size_t len, const char *what) {
    const size_t w = strlen(what);
    for (size_t i = 0; i + w <= len; i++)
        if (text[i] == what[0] && memcmp(text + i, what, w) == 0) return text + i;
    return NULL;
}

/* Digits at text[*i ..) (at most 7) as a positive integer; 0 when none. */
static int64_t digits_at(const char *text, size_t len, size_t *i) {
    int64_t v = 0;
    size_t k = 0;
    while (*i < len && k < 7 && text[*i] >= '0' && text[*i] <= '9') v = v * 10 + (text[(*i)++] - '0'), k++;
    return k && (*i >= len || text[*i] < '0' || text[*i] > '9') ? v : 0;
}

static int word_at(const char *text, size_t len, size_t *i, const char *w) {
    size_t n = strlen(w);
    if (*i + n > len || memcmp(text + *i, w, n) != 0) return 0;
    *i += n;
    return 1;
}

/* Triton's 06-fused-attention tutorial names its perf_report plots
 * "fused-attention-batch{B}-head{H}-d{D}-{fwd|bwd}-causal={True|False}" (the printed table's first
 * line, the CSV's file name): B, H, d, the pass and the mask. 1 when `text` holds one. */
static int triton_plot_name(const char *text, size_t len, rl_problem *h, unsigned *given,
                            char *what, size_t cap) {
    const char *at = find_in(text, len, "-batch");
    if (!at) return 0;
    size_t i = (size_t)(at - text) + 6, start = (size_t)(at - text);
    int64_t b = digits_at(text, len, &i), hd = 0, d = 0;
    if (b && word_at(text, len, &i, "-head")) hd = digits_at(text, len, &i);
    if (hd && word_at(text, len, &i, "-d")) d = digits_at(text, len, &i);
    int bwd = 0, causal = -1;
    if (d && word_at(text, len, &i, "-fwd")) bwd = 0;
    else if (d && word_at(text, len, &i, "-bwd")) bwd = 1;
    else return 0;
    if (word_at(text, len, &i, "-causal=True")) causal = 1;
    else if (word_at(text, len, &i, "-causal=False")) causal = 0;
    if (causal < 0 || b > 4096 || hd > 4096 || d > 4096) return 0;
    h->batch = b;
    h->heads = hd;
    h->head_dim = d;
    h->pass = bwd ? RL_PASS_BWD : RL_PASS_FWD;
    h->causal = causal;
    *given = 1u << RL_FIELD_BATCH | 1u << RL_FIELD_HEADS | 1u << RL_FIELD_HEAD_DIM |
             1u << RL_FIELD_PASS | 1u << RL_FIELD_CAUSAL;
    if (what && cap)
        snprintf(what, cap, "the plot name …%.*s: batch %lld, heads %lld, head-dim %lld, pass %s%s",
                 (int)(i - start - 1), text + start + 1, (long long)b, /* ASCII: the pattern's */
                 (long long)hd, (long long)d, bwd ? "bwd" : "fwd", causal ? ", causal" : "");
    return 1;
}

size_t rl_import_hints(const char *text, size_t len, rl_problem *hints, unsigned *given,
                       char *what, size_t cap) {
    static const char *const traits[2] = {"Flash_fwd_kernel_traits<", "Flash_bwd_kernel_traits<"};
    memset(hints, 0, sizeof *hints);
    *given = 0;
    if (what && cap) what[0] = '\0';
    for (int t = 0; t < 2; t++) {
        const char *at = find_in(text, len, traits[t]);
        if (!at) continue;
        const char *open = at + strlen(traits[t]);
        char buf[256], *a[12];
        int n = template_args(open, text + len, buf, sizeof buf, a, 12);
        int64_t d = n >= 1 ? small_int(a[0]) : 0, bm = n >= 2 ? small_int(a[1]) : 0;
        int64_t bn = n >= 3 ? small_int(a[2]) : 0;
        if (!d || !bm || !bn) continue;
        hints->head_dim = d;
        hints->block_m = bm;
        hints->block_n = bn;
        *given = 1u << RL_FIELD_HEAD_DIM | 1u << RL_FIELD_BLOCK_M | 1u << RL_FIELD_BLOCK_N;
        if (t == 1) {
            hints->pass = RL_PASS_BWD;
            *given |= 1u << RL_FIELD_PASS;
        }
        for (int k = 3; k < n; k++) { /* the element type: the fwd traits' 7th, the bwd's last */
            if (strstr(a[k], "cutlass::half_t")) hints->dtype = RL_DTYPE_FP16;
            if (strstr(a[k], "cutlass::bfloat16_t")) hints->dtype = RL_DTYPE_BF16;
        }
        if (hints->dtype) *given |= 1u << RL_FIELD_DTYPE;
        if (what && cap)
            snprintf(what, cap, "%.*s%lld, %lld, %lld, …>: head-dim %lld, block-m %lld, block-n %lld%s%s%s",
                     (int)strlen(traits[t]), traits[t], (long long)d, (long long)bm, (long long)bn,
                     (long long)d, (long long)bm, (long long)bn, hints->dtype ? ", dtype " : "",
                     hints->dtype ? rl_dtype_name(hints->dtype) : "", t == 1 ? ", pass bwd" : "");
        size_t found = 0;
        for (unsigned g = *given; g; g &= g - 1) found++;
        return found;
    }
    if (triton_plot_name(text, len, hints, given, what, cap)) return 5;
    return 0;
}
