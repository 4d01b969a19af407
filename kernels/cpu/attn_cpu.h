/*
 * attn_cpu.h — attention forward kernels in C for the CPU, one per traffic model of core
 * (MODEL.md "Work, traffic and the roofline"), plus the two CPU ceilings the benchmark measures.
 *
 * Layout (row-major, fp32): Q and O are [B][H][N][d], K and V are [B][Hkv][L][d]. Query head h
 * reads key/value head h / (H / Hkv) (GQA/MQA; rlk_kv_head in ../attn_shape.h). Causal aligns the
 * last query with the last key: query row i (0-based among N) sees key rows 0 … i + L − N.
 *
 *   rlk_cpu_naive   materialised attention, the `naive` model: per (batch, head) it writes the
 *                   whole N×L score matrix S to memory, reads it back for the softmax that writes
 *                   P (N×L), and reads P back for O = P·V. Causal still stores the full matrix
 *                   (masked entries −∞ in S and 0 in P), as the model counts. The three passes
 *                   are separate sweeps over the matrix (as three GPU kernels would be), each split
 *                   by rows across threads (one fork/join per pass). S and P are sized for one
 *                   (batch, head) at a time: every element is still written once and read once.
 *   rlk_cpu_tiled   the `tiled` model (FlashAttention-1/2 forward): one task per (batch, KV head,
 *                   query block of Br rows) serving the H/Hkv query heads of the KV head; it
 *                   streams K/V in tiles of Bc rows (causal: only the tiles the block needs), each
 *                   tile once for the group, keeps the Br×Bc score tile, the running max m, sum l
 *                   and the Br×d fp32 output accumulator per head in a task-local buffer, and
 *                   writes O once. With H = Hkv its traffic is the `tiled` model exactly; decode
 *                   (N ≤ Br: one query block) moves every tensor once, the `compulsory` model.
 *
 * Both use the same inner primitives (a row of scores against a run of K rows; P times a run of V
 * rows), so a difference in speed between them is the dataflow's, not the micro-kernel's.
 *
 * Threads: `threads` ≤ 0 means one per online CPU. No global state; each call creates and joins
 * its threads. Functions return 0 on success, -1 on bad arguments or allocation failure.
 */
#ifndef ROOFLAB_ATTN_CPU_H
#define ROOFLAB_ATTN_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "attn_shape.h" /* rlk_shape, rlk_shape_check, rlk_kv_head */

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch the naive kernel needs: two N×L fp32 matrices (S and P), in bytes. */
size_t rlk_cpu_naive_scratch_bytes(const rlk_shape *s);

/* `scratch` must hold rlk_cpu_naive_scratch_bytes(s) bytes (NULL: the call allocates it). */
int rlk_cpu_naive(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                  float *scratch, int threads);

int rlk_cpu_tiled(const rlk_shape *s, const float *q, const float *k, const float *v, float *o,
                  int threads);

/* Number of threads a call with `threads` ≤ 0 uses (online CPUs, at least 1). */
int rlk_cpu_default_threads(void);

/* Ceilings. Streaming copy: each of `threads` threads copies its share of `src` to `dst`
 * (`bytes` each); the caller times it and counts 2 × bytes (read + written). */
int rlk_cpu_stream_copy(void *dst, const void *src, size_t bytes, int threads);

/* FMA peak: each thread runs independent chains of vector fused multiply-adds `iterations` times;
 * returns the FLOPs done (2 per multiply-add) through *flops; the caller times it. `sink`
 * receives a value that depends on every result so the work cannot be optimised away. */
int rlk_cpu_fma_peak(int64_t iterations, int threads, double *flops, float *sink);

/* Vector width (fp32 lanes) and instruction set the CPU kernels were compiled for, for records. */
const char *rlk_cpu_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* ROOFLAB_ATTN_CPU_H */
