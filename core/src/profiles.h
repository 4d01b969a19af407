/* profiles.h — a kernel profile resolved for one problem and preset (private to core). */
#ifndef ROOFLAB_PROFILES_H
#define ROOFLAB_PROFILES_H

#include "rooflab/rooflab.h"

typedef struct rl_profile {
    rl_kernel kernel;
    int64_t block_m, block_n; /* Br × Bc */
    int tile_fitted;          /* 1: generic, the problem's Br × Bc over the opt-in shared memory:
                                 the largest tile-search candidate that fits was taken */
    int warps;                /* warps per CTA sharing the query rows (FA2's SMEM roof) */
    int64_t ctas_per_sm;
    int64_t splits;           /* split-KV count (1 = none) */
    int split_rule;           /* the split-KV rule when the caller gives none (rl_split_rule) */
    int64_t split_block_n;    /* the key block the split rule counts (FA2: 256/128/64 by d) */
    int64_t split_block_m;    /* the query block the split rule counts (FA2: 64; FA3: its Br) */
    int64_t max_grid;         /* FlashInfer's fill rule: the CTAs it may launch (CTAs/SM × SMs) */
    int split_tile;           /* 1: FA2, whose split-KV kernel (64 × Bc, 4 warps) replaces the
                                 regular one when splits > 1 */
    int pack_rule;            /* 1: FA3's should_pack_gqa (and always when split) */
    int pack_n1;              /* 1: FA2's seqlenq_ngroups_swapped: packed only at N = 1 */
    int head_major;           /* 1: query heads adjacent in launch order (FA3's tile scheduler,
                                 FA2's split-KV grid); 0: FA2's grid (m_block, batch, head) */
    int cuda_core;            /* 1: Q·K and P·V on the fp32 CUDA cores, one row per query head
                                 (FlashInfer's decode kernel for groups ≤ 4): no padded rows */
    int64_t kernels;          /* kernel launches: the main one, + the combine when split, + the
                                 backward's preprocess and dQ conversion */
    int persistent;           /* 1: tiles scheduled longest first over resident CTAs */
    int gqa_packed;           /* 1: the query heads of a group share one tile's K/V */
    int exp_serialised;       /* 1: the exp adds to the MMA time */
    int rescale_serialised;   /* 1: the online-softmax rescale of O (Br·d FMAs per KV tile, on the
                                 fp32 units) adds to it too (generic; the real kernels' fitted
                                 rates include theirs) */
    int smem_roof;            /* 1: operands come from shared memory per warp (mma.sync) */
    int warps_along_keys;     /* 1: the warps split the keys (FlashInfer's 16-row tile, 1 × 4
                                 warps): each reads its K/V once for all Br rows */
    int materialised;         /* 1: S and P go through DRAM (standard) */
    double mma_fraction;      /* of the dense tensor peak the MMA instruction reaches */
    double bwd_mma_fraction;  /* the same for the backward pass */
    double dram_fraction;     /* of the datasheet DRAM bandwidth the kernel's traffic reaches */
    double cta_sm_share;      /* f1: one CTA's share of its SM's MMA/exp throughput (fitted) */
    double sm_bandwidth_share;/* one SM's DRAM bandwidth as a multiple of β / SMs (fitted) */
    double kernel_fixed_s;
    double cta_fixed_s;       /* backward: fixed cost per round of CTAs on an SM (load K/V, write
                                 dK/dV, the dQ accumulation's pipeline fill and drain) */    /* fixed cost per kernel launched (launch gap, prologue, epilogue) */
    double fill_bytes;        /* Blackwell FA4 mechanism, forward: the Q tile loaded and the O
                                 tile stored by each work tile outside its mainloop, at
                                 fill_share · β / SMs (rl_predict adds them to cta_fixed_s) */
    double fill_share;
    int softmax_overlap;      /* 1: the softmax runs beside the MMA (FA4's two Q tiles ping-pong,
                                 FlashMLA's seesaw): the exp term is only the softmax time that
                                 exceeds the MMA time, the softmax on the MUFU and FP32 pipes */
    double softmax_fp32_ops;  /* FP32-pipe operations per computed score added to a serialised
                                 exp term (Blackwell backward: FA4's scale-and-subtract FMA, the
                                 P and dS conversions, dS = P·(dP − D)); 0: the exp alone */
    double ex2_emulated;      /* the share of exp2 computed by a polynomial on the FP32 pipes
                                 instead of MUFU.EX2 (FA4's ex2_emu_freq / ex2_emu_res) */
    double chain_clocks;      /* Blackwell: the exposed handoff latency, in SM clocks, of one
                                 iteration of a CTA (chain_scores scores) beyond the pipes' busy
                                 times — forward: a Q tile's S = Q·Kᵀ → softmax → O += P·V
                                 (fitted); backward at d 192 / 128: three such round trips, the
                                 loop not pipelined; 0: no chain modelled */
    double chain_scores;      /* the scores one iteration of a CTA covers (forward 256 x 128,
                                 backward 128 x 128) */
    int balanced;             /* 1: a tile scheduler deals the key blocks evenly over the resident
                                 CTAs (FlashMLA's get_mla_metadata): no partial last wave */
    int pack_causal;          /* 1: the query rows stay packed when causal (FlashMLA: h_q · s_q
                                 rows, the mask only among the s_q new rows) */
    int paged_non_tma;        /* FA3 paged KV without TMA (page size not a multiple of Bc, or
                                 G·N <= Br): cp.async loads, the narrower tile, PackGQA always */
    int64_t chunk_keys;       /* a ragged batch (--kv-lens): keys per split-KV chunk, so a
                                 sequence of L_i keys runs min(splits, ⌈L_i / chunk⌉) CTAs per
                                 query block (FA2's split kernel, FlashInfer's chunks); 0: each
                                 sequence cut into `splits` equal parts (FA3, hopper/block.h) */
    double overlap_p;         /* exponent of the DRAM/compute overlap: the fitted p, or 1 (none)
                                 where the kernel's producer cannot run ahead (FA3 fp8) */
} rl_profile;

/* Resolve the profile for `p` (resolved) on `hw`, with the caller's spec on top. Errors name
 * "kernel". */
enum rl_split_rule { RL_SPLIT_NONE = 0, RL_SPLIT_FA2, RL_SPLIT_FA3, RL_SPLIT_FILL, RL_SPLIT_SINGLE,
                     RL_SPLIT_MLA, RL_SPLIT_SM100_DECODE };

/* The share of exp2 FlashAttention-4 emulates on the FP32 pipes for a row of bc scores
 * (softmax.py apply_exp2_convert's pattern: ex2_emu_freq, ex2_emu_res, ex2_emu_start_frg). */
double rl__ex2_emulated_share(int64_t bc, int freq, int res, int start);

rl_status rl__profile_resolve(const rl_problem *p, const rl_hw *hw, const rl_kernel_spec *spec,
                              rl_profile *pf, rl_error *err);

#endif
