/* internal.h — helpers shared by core's translation units. Not part of the public API. */
#ifndef ROOFLAB_INTERNAL_H
#define ROOFLAB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rooflab/rooflab.h"

/* The bytes of a valid UTF-8 sequence at s (0 when none starts there), its code point in *cp. */
size_t rl__utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp);
/* Bytes of s that fit in max_bytes without cutting a UTF-8 character. */
size_t rl__utf8_clip(const char *s, size_t max_bytes);
/* A quoted value in a message: "%.*s" with RL__QUOTE(s, n), at most n bytes, whole characters. */
#define RL__QUOTE(s, n) (int)rl__utf8_clip((s), (n)), (s)

/* Fill *err: core's rl_error_fail (rooflab.h), under the name core's files use. */
#define rl__fail rl_error_fail

/* `v` with the fewest significant digits (1 to 17) that read back as exactly v ("1.0000001e+30",
 * never a rounded "1e+30" for a value a bound refused), in buf[32]; returns buf. units.c. */
const char *rl__num(double v, char buf[32]);

/* `names` (empty ones skipped) as a message lists them: "a or b", "one of a, b, c"; the length
 * written (kernel_fields.c). */
size_t rl__choices_text(const char *const *names, size_t count, char *buf, size_t cap);

/* Clear *err to RL_OK (when not NULL). */
void rl__ok(rl_error *err);

/* Σ_{i=0}^{n-1} floor((a·i + b) / m) for a, b ≥ 0, m ≥ 1, in O(log m) steps (workload.c). */
uint64_t rl__floor_sum(uint64_t n, uint64_t m, uint64_t a, uint64_t b);

/* Bc-tiles the query blocks of one unit (N query rows against L keys, causal aligned at the end)
 * compute in whole Br × Bc tiles: Σ_i ⌈(e_i + L − N)/Bc⌉ causal, ⌈N/Br⌉·⌈L/Bc⌉ otherwise
 * (predict.c; also used by the backward traffic). */
uint64_t rl__tile_count(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, int causal);

/* K (= V) rows the query blocks of one unit load in the tiled dataflow (workload.c). */
uint64_t rl__tiled_kv_rows(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, int causal);

/* Bytes per memory level of a traffic model (predict.c): compulsory and naive move every byte
 * through both levels; tiled's re-reads hit L2 under the reuse rule with the problem's tile and
 * as many CTAs per SM as the SRAM budget allows. */
void rl__model_levels(const rl_workload *w, const rl_hw *hw, rl_model m, rl_level_traffic *out);

/* The tiled (FA2) backward traffic of resolved problem `p` with tile br × bc (workload.c). */
void rl__bwd_tiled_traffic(const rl_problem *p, int64_t br, int64_t bc, rl_traffic *t);

/* Sliding window (DESIGN.md "Variants"): scored pairs of one (batch, head) unit, and the Bc
 * tiles and K/V rows its Br query blocks touch (workload.c). Window 0 = off. */
uint64_t rl__window_pairs(uint64_t n, uint64_t l, uint64_t w, uint64_t s);
void rl__window_tiles(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, uint64_t w, uint64_t s,
                      uint64_t *tiles, uint64_t *rows);
/* K and V bytes one token adds per KV head: d_qk·b_kv and d_v·b_kv; absorbed MLA one latent
 * (K) and 0 (V, its first R elements, read with it), fp8 in FlashMLA's layout (workload.c). */
void rl__kv_token_bytes(const rl_problem *p, double *k_bytes, double *v_bytes);
/* The one check at a kernel profile's entry: variants kernel `k` does not model, refused by flag
 * (problem.c); k is an rl_kernel. */
rl_status rl__variant_unmodelled(const rl_problem *p, int k, rl_error *err);

/* Sliding window (DESIGN.md "Variants"): scored pairs of one (batch, head) unit, and the Bc
 * tiles and K/V rows its Br query blocks touch (workload.c). Window 0 = off. */
uint64_t rl__window_pairs(uint64_t n, uint64_t l, uint64_t w, uint64_t s);
void rl__window_tiles(uint64_t n, uint64_t l, uint64_t br, uint64_t bc, uint64_t w, uint64_t s,
                      uint64_t *tiles, uint64_t *rows);
/* K and V bytes one token adds per KV head: d_qk·b_kv and d_v·b_kv; absorbed MLA one latent
 * (K) and 0 (V, its first R elements, read with it), fp8 in FlashMLA's layout (workload.c). */
void rl__kv_token_bytes(const rl_problem *p, double *k_bytes, double *v_bytes);

/* rl_layer_step_compute with room for only `cap` operators (≤ RL_LAYER_OPS_MAX): a step that
 * needs more is refused (RL_ERR_CAPACITY naming "model"), never cut short (layer.c; the tests
 * reach the refusal with a small cap). */
rl_status rl__layer_step_compute_capped(const rl_layer_request *req, const rl_hw *hw, rl_roof roof,
                                        size_t cap, rl_layer_step *out, rl_error *err);

/* The shortest key length of a resolved problem's batch (kv_len unless --kv-lens; problem.c). */
int64_t rl__shortest_kv_len(const rl_problem *p);
/* Device-memory bytes a gather of `chunk` contiguous bytes moves in 32 B sectors (workload.c). */
double rl__sector_bytes(double chunk);

/* The shortest key length of a resolved problem's batch (kv_len unless --kv-lens; problem.c). */
int64_t rl__shortest_kv_len(const rl_problem *p);
/* Device-memory bytes a gather of `chunk` contiguous bytes moves in 32 B sectors (workload.c). */
double rl__sector_bytes(double chunk);

#endif
