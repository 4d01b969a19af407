/* profiles.h — a kernel profile resolved for one problem and preset (private to core). */
#ifndef ROOFLAB_PROFILES_H
#define ROOFLAB_PROFILES_H

#include "rooflab/rooflab.h"

typedef struct rl_profile {
    rl_kernel kernel;
    int64_t block_m, block_n; /* Br × Bc */
    int warps;                /* warps per CTA sharing the query rows (FA2's SMEM roof) */
    int64_t ctas_per_sm;
    int64_t splits;           /* split-KV count (1 = none) */
    int split_rule;           /* 1: FA2's num_splits heuristic when the caller gives none */
    int persistent;           /* 1: tiles scheduled longest first over resident CTAs */
    int gqa_packed;           /* 1: the query heads of a group share one tile's K/V */
    int exp_serialised;       /* 1: the exp adds to the MMA time */
    int rescale_serialised;   /* 1: the online-softmax rescale of O (Br·d FMAs per KV tile, on the
                                 fp32 units) adds to it too (generic; the real kernels' fitted
                                 rates include theirs) */
    int smem_roof;            /* 1: operands come from shared memory per warp (mma.sync) */
    int materialised;         /* 1: S and P go through DRAM (standard) */
    double mma_fraction;      /* of the dense tensor peak the MMA instruction reaches */
    double bwd_mma_fraction;  /* the same for the backward pass */
    double dram_fraction;     /* of the datasheet DRAM bandwidth the kernel's traffic reaches */
    double floor_s;           /* fixed floor */
    double overlap_p;         /* exponent of the DRAM/compute overlap: the fitted p, or 1 (none)
                                 where the kernel's producer cannot run ahead (FA3 fp8) */
} rl_profile;

/* Resolve the profile for `p` (resolved) on `hw`, with the caller's spec on top. Errors name
 * "kernel". */
rl_status rl__profile_resolve(const rl_problem *p, const rl_hw *hw, const rl_kernel_spec *spec,
                              rl_profile *pf, rl_error *err);

#endif
