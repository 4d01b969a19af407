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
    return 0;
}
